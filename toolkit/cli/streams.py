"""Standard output that takes any text, whatever the locale's encoding.

The commands print Chinese (the course's cases, tools and answers), `…` and `✓`. A terminal whose
encoding has none of them (`LC_ALL=C` with `PYTHONUTF8=0`, a latin-1 or cp1252 stream: a Windows
console's output redirected to a file) made `print` raise `UnicodeEncodeError` half way through.
`tolerant_stdout()` has stdout write such a character as a backslash escape (`\\u8ba2`) instead, as
Python's own stderr always does; a UTF-8 stdout is left as it is. `json_text()` is JSON that such a
stdout can carry unchanged: the characters themselves where it can take them, else JSON's own
`\\u` escapes (a backslash escape of a character outside the BMP, `\\U0001f4e6`, is no JSON).

Leaves out: changing the stream's encoding (the terminal decodes what it is sent with its own).
"""

from __future__ import annotations

import codecs
import io
import json
import sys
from typing import Any


def tolerant_stdout() -> None:
    """Have `sys.stdout` escape what its encoding cannot write, unless it is UTF-8 (which writes all)."""
    stream = sys.stdout
    if isinstance(stream, io.TextIOWrapper) and not _is_utf8(stream.encoding):
        stream.reconfigure(errors="backslashreplace")


def json_text(value: Any, *, indent: int | None = None) -> str:
    """`value` as JSON text that `sys.stdout` can write as it is."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return json.dumps(value, indent=indent, ensure_ascii=True)
    return text


def _is_utf8(encoding: str | None) -> bool:
    try:
        return codecs.lookup(encoding or "").name == "utf-8"
    except LookupError:
        return False
