"""Standard output that takes any text, whatever the locale's encoding.

The commands print Chinese (the course's cases, tools and answers), `…` and `✓`. A terminal whose
encoding has none of them (`LC_ALL=C` with `PYTHONUTF8=0`, a latin-1 or cp1252 stream: a Windows
console's output redirected to a file) made `print` raise `UnicodeEncodeError` half way through.
`tolerant_stdout()` has stdout and stderr write such a character as a backslash escape (`\\u8ba2`)
instead; a UTF-8 stream is left as it is. A lone surrogate from U+DC80 to U+DCFF is no character but a
byte Python could not decode (`surrogateescape`: a non-ASCII argument or file name in such a locale,
`课程` read as `\\udce8\\udcaf...`): it is written back as that byte, as Python's own stdout does there,
so a path comes back as it was given. `json_text()` is JSON that such a stdout can carry unchanged:
the characters themselves where it can take them, else JSON's own `\\u` escapes (a backslash escape of a
character outside the BMP, `\\U0001f4e6`, is no JSON). `DroppedOutput` stands where a stdout closed from
the start (`>&-`, which Python gives as `sys.stdout = None`) would be: it takes the output and counts
it, so the command can say it was dropped instead of ending as if all was written.

Leaves out: changing the stream's encoding (the terminal decodes what it is sent with its own).
"""

from __future__ import annotations

import codecs
import io
import itertools
import json
import sys
from typing import Any

ESCAPE = "toolkit-escape"
"""The error handler `tolerant_stdout` sets: a byte read as a surrogate goes back as that byte, any
other character the encoding has not is a backslash escape."""


def _escape(error: UnicodeError) -> tuple[str | bytes, int]:
    """A run of bytes read as surrogates back as those bytes, else a run of other characters as backslash
    escapes (in text, which the stream's codec then encodes): the codec asks again for the rest."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chunk = error.object[error.start : error.end]
    raw = [ord(c) - 0xDC00 for c in itertools.takewhile(_is_byte, chunk)]
    if raw:
        return bytes(raw), error.start + len(raw)
    other = "".join(itertools.takewhile(lambda c: not _is_byte(c), chunk))
    return other.encode("ascii", "backslashreplace").decode("ascii"), error.start + len(other)


def _is_byte(char: str) -> bool:
    """Whether `char` is a byte `surrogateescape` read (U+DC80 to U+DCFF)."""
    return 0xDC80 <= ord(char) <= 0xDCFF


codecs.register_error(ESCAPE, _escape)


def tolerant_stdout() -> None:
    """Have `sys.stdout` and `sys.stderr` escape what their encoding cannot write (a byte read as a
    surrogate written back as itself), unless it is UTF-8 (which writes all)."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and not _is_utf8(stream.encoding):
            stream.reconfigure(errors=ESCAPE)


class DroppedOutput(io.TextIOBase):
    """A stdout that is closed: what is written to it is counted (`dropped`, in characters) and dropped."""

    def __init__(self) -> None:
        super().__init__()
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.dropped += len(text)
        return len(text)


def json_text(value: Any, *, indent: int | None = None) -> str:
    """`value` as JSON text that `sys.stdout` can write as it is, and a terminal shows without acting on
    it: a character that acts instead of being seen (`toolkit.views.html.ACTING`: a C1 control such as
    `\\x9b`, a bidi override, a zero-width space; JSON escapes only C0 controls) as JSON's own escape."""
    from toolkit.views.html import ACTING

    text = json.dumps(value, indent=indent, ensure_ascii=False)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return json.dumps(value, indent=indent, ensure_ascii=True)
    return ACTING.sub(lambda found: json.dumps(found.group(0))[1:-1], text)  # only inside strings: JSON escapes C0


def _is_utf8(encoding: str | None) -> bool:
    try:
        return codecs.lookup(encoding or "").name == "utf-8"
    except LookupError:
        return False
