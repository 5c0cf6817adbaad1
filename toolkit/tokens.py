"""A simple, deterministic token estimate: one token per CJK character, one per 4 other characters.

Used wherever toolkit needs a token count it cannot ask a real tokenizer for: the fake gateway's
`usage`, the token-window memory, the size of a tools block. It is an estimate, stated as one.

Leaves out: real BPE tokenization (pass your own counter where precision matters).
"""
from __future__ import annotations

import json
import math
from typing import Any


def _is_wide(ch: str) -> bool:
    code = ord(ch)
    return (0x3000 <= code <= 0x9FFF) or (0xF900 <= code <= 0xFAFF) or (0xFF00 <= code <= 0xFFEF)


def estimate_tokens(text: str) -> int:
    """Estimated tokens in `text` (0 for the empty string)."""
    wide = sum(1 for ch in text if _is_wide(ch))
    return wide + math.ceil((len(text) - wide) / 4)


def estimate_json_tokens(value: Any) -> int:
    """Estimated tokens of `value` serialised as compact, sorted JSON."""
    return estimate_tokens(json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")))
