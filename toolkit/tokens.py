"""A simple, deterministic token estimate: one token per CJK character, one per 4 other characters.

Used wherever toolkit needs a token count it cannot ask a real tokenizer for: the fake gateway's
`usage`, the token-window memory, the size of a tools block. It is an estimate, stated as one.

Leaves out: real BPE tokenization (pass your own counter where precision matters).
"""

from __future__ import annotations

import json
import re
from typing import Any

_WIDE_RANGES = "\u3000-\u9fff\uf900-\ufaff\uff00-\uffef"
"""CJK punctuation and ideographs, compatibility ideographs, full-width forms."""
_WIDE = re.compile(f"[{_WIDE_RANGES}]")
_NARROW_RUNS = re.compile(f"[^{_WIDE_RANGES}]+")
"""Runs of every other character: the wide ones are what these runs leave out."""


def estimate_tokens(text: str) -> int:
    """Estimated tokens in `text` (0 for the empty string)."""
    wide = 0 if text.isascii() else _count_wide(text)
    return wide + (len(text) - wide + 3) // 4  # a quarter of the rest, rounded up


def _count_wide(text: str) -> int:
    """How many characters of `text` are `_WIDE`: its length minus that of the runs of the
    others (fewer matches than finding each wide character, as a text has few runs)."""
    return len(text) - sum(map(len, _NARROW_RUNS.findall(text)))


def estimate_json_tokens(value: Any) -> int:
    """Estimated tokens of `value` serialised as compact, sorted JSON."""
    return estimate_tokens(_json(value))


def _json(value: Any) -> str:
    return _ENCODER.encode(value)


_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
"""`json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))`, without making
an encoder for each call."""


def json_counts(value: Any) -> tuple[int, int]:
    """The wide characters and the others of `value` serialised as `estimate_json_tokens` does it:
    what `array_tokens` adds up."""
    return text_counts(_json(value))


def text_counts(text: str) -> tuple[int, int]:
    """The wide characters of `text` and the others: what `estimate_tokens` reads."""
    wide = 0 if text.isascii() else _count_wide(text)
    return wide, len(text) - wide


def array_tokens(wide: int, narrow: int, items: int) -> int:
    """`estimate_json_tokens` of a list of `items` items whose `json_counts` add up to `wide` and
    `narrow`, without writing it.

    A compact JSON array is its items joined by commas between brackets, all three narrow, so
    its wide and narrow characters are its items' added up, plus one more than the number of
    items (two for an empty array). A caller that keeps each item's counts (an item that never
    changes) counts a growing list without writing it again."""
    return wide + (narrow + 1 + max(items, 1) + 3) // 4
