"""Whether a Python string is Unicode text that can leave the process.

A Python `str` may hold a lone surrogate (U+D800–U+DFFF): `os.fsdecode` writes undecodable bytes
of a file name that way, and `json.loads('"\\ud83d"')` gives one. UTF-8 cannot encode it, so a
model, a database, a tokenizer or a notebook cannot take it. `is_utf8` says whether a text is
free of them; each caller decides what to do (refuse with its own error, or show an escape).

Leaves out: repairing such a text (that is the caller's choice, and usually a refusal).
"""

from __future__ import annotations


def is_utf8(text: str) -> bool:
    """True when `text` can be written as UTF-8 (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
