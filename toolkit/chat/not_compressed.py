"""An answer whose `Content-Encoding` says compressed but whose bytes are plain, told as such.

A proxy that undoes the compression on its way (nginx's `gunzip`, a company's TLS inspector) and
keeps the `Content-Encoding: gzip` header, or a server that sets the header on every answer, sends
bytes no decoder takes; the decoder's words ("Error -3 while decompressing data: incorrect header
check") name neither the header nor who is at fault. `plain_kind(head)` says what an answer's
first bytes are when they are plainly not compressed: JSON, server-sent events, an HTML page or
UTF-8 text. `NotCompressedError` is the `httpx.DecodingError` that says so, and `HINT` what to do.

Leaves out: reading such bytes as they are (browsers, curl and the OpenAI SDK refuse them too: the
header is the gateway's word, and a body that does not fit it may be cut or mangled), and first bytes
that the decoder happens to take (raw DEFLATE may read a few).
"""

from __future__ import annotations

import codecs

import httpx

HINT = (
    "A proxy or relay on the way sends the answer uncompressed but keeps its Content-Encoding header (or "
    "sets one): have it drop the header, or send what the header says. Nothing on your side needs to change."
)
_EVENT_FIELDS = (b"data:", b"event:", b"id:", b"retry:", b":")
"""How a line of server-sent events begins (a comment begins with a colon)."""
HEAD_BYTES = 512
"""How many of an answer's first bytes tell its kind (what a reader keeps for `plain_kind`)."""


class NotCompressedError(httpx.DecodingError):
    """An answer declared compressed as `names` that is `kind` (`plain_kind`), not compressed."""

    def __init__(self, names: list[str], kind: str) -> None:
        super().__init__(
            f"the gateway said it was compressed as {', '.join(names)} (Content-Encoding) but sent {kind}, "
            "not compressed; nothing from it was used"
        )


def plain_kind(head: bytes) -> str | None:
    """What `head`, an answer's first bytes, plainly is ("JSON", "server-sent events", "an HTML page",
    "plain text"), or None when they may be compressed bytes (anything but printable UTF-8)."""
    text = _printable(head[:HEAD_BYTES])
    if text is None:
        return None
    start = text.lstrip("\ufeff \t\r\n").encode()
    if start[:1] in (b"{", b"["):
        return "JSON"
    if start.startswith(_EVENT_FIELDS):
        return "server-sent events"
    if start[:1] == b"<":
        return "an HTML page"
    return "plain text" if start else None


def _printable(head: bytes) -> str | None:
    """`head` as UTF-8 (a character cut at its end left out) when every character is printable or a
    blank, else None."""
    try:
        text = codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return None
    return text if all(c.isprintable() or c in "\t\r\n\ufeff" for c in text) else None
