"""A simple, deterministic token estimate: one token per CJK character, one per 4 other characters.

Used wherever toolkit needs a token count it cannot ask a real tokenizer for: the fake gateway's
`usage`, the token-window memory, the size of a tools block. It is an estimate, stated as one.

Leaves out: real BPE tokenization (pass your own counter where precision matters).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_WIDE = re.compile("[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]")
"""CJK punctuation and ideographs, compatibility ideographs, full-width forms."""


def estimate_tokens(text: str) -> int:
    """Estimated tokens in `text` (0 for the empty string)."""
    wide = 0 if text.isascii() else len(_WIDE.findall(text))
    return wide + math.ceil((len(text) - wide) / 4)


def estimate_json_tokens(value: Any) -> int:
    """Estimated tokens of `value` serialised as compact, sorted JSON."""
    return estimate_tokens(json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")))
