"""An answer whose `Content-Encoding` says compressed but whose bytes are plain, or compressed otherwise, told as such.

A proxy that undoes the compression on its way (nginx's `gunzip`, a company's TLS inspector) and
keeps the `Content-Encoding: gzip` header, or a server that sets the header on every answer, sends
bytes no decoder takes; the decoder's words ("Error -3 while decompressing data: incorrect header
check") name neither the header nor who is at fault. `plain_kind(head)` says what an answer's
first bytes are when they are plainly not compressed: JSON, server-sent events, an HTML page or
UTF-8 text. `NotCompressedError` is the `httpx.DecodingError` that says so, and `HINT` what to do.

A server that compresses one way and names another (zlib's deflate, what `deflate` names, or zstd, sent
as `Content-Encoding: gzip`; gzip sent as `deflate`) gives the decoder's words too ("incorrect header
check", "invalid block type"). `compressed_as(head)` names the compression an answer's first bytes
plainly begin (gzip and zstd by their magic numbers, RFC 1952 and RFC 8878; zlib by its two-byte
header, RFC 1950: method 8, a window of at most 32 KB, its check bits), and `OtherCompressionError`
says the header names another, with `OTHER_HINT`.

Leaves out: reading such bytes as they are (browsers, curl and the OpenAI SDK refuse them too: the
header is the gateway's word, and a body that does not fit it may be cut or mangled; so for a body
compressed otherwise than its header says, though zlib's and zstd's checksums would hold it), first bytes
that the decoder happens to take (raw DEFLATE may read a few), and naming raw DEFLATE or brotli, which
have no header to tell them by.
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
OTHER_HINT = (
    "The server, or a proxy on the way, names one compression in its Content-Encoding header and uses another: "
    "have it name what it sends, or send what it names. Nothing on your side needs to change."
)
HEAD_BYTES = 512
"""How many of an answer's first bytes tell its kind (what a reader keeps for `plain_kind`)."""


class NotCompressedError(httpx.DecodingError):
    """An answer declared compressed as `names` that is `kind` (`plain_kind`), not compressed."""

    def __init__(self, names: list[str], kind: str) -> None:
        super().__init__(
            f"the gateway said it was compressed as {', '.join(names)} (Content-Encoding) but sent {kind}, "
            "not compressed; nothing from it was used"
        )


class OtherCompressionError(NotCompressedError):
    """An answer declared compressed as `names` whose bytes are compressed as `other` (`compressed_as`)."""

    def __init__(self, names: list[str], other: str) -> None:
        httpx.DecodingError.__init__(
            self,
            f"the gateway said it was compressed as {', '.join(names)} (Content-Encoding) but its bytes are "
            f"{_WORDS[other]}; nothing from it was used",
        )


_WORDS = {
    "gzip": "gzip (what Content-Encoding: gzip names)",
    "deflate": "zlib's deflate (what Content-Encoding: deflate names)",
    "zstd": "zstd (what Content-Encoding: zstd names)",
}
_SAME = {"x-gzip": "gzip"}
"""A header's other name for a compression `compressed_as` names."""


def compressed_as(head: bytes, names: list[str]) -> str | None:
    """The compression `head`, an answer's first bytes, plainly begins ("gzip", "deflate", "zstd") when
    it is none of `names`, the header's; None when it is one of them, or none of the three."""
    if head.startswith(b"\x1f\x8b\x08"):
        other = "gzip"
    elif head.startswith(b"\x28\xb5\x2f\xfd"):
        other = "zstd"
    elif len(head) >= 2 and head[0] & 0x0F == 8 and head[0] >> 4 <= 7 and (head[0] << 8 | head[1]) % 31 == 0:
        other = "deflate"
    else:
        return None
    return None if other in {_SAME.get(name, name) for name in names} else other


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
