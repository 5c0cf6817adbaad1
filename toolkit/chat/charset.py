"""Which encoding a gateway's body is read in: what its bytes show, before what its label claims.

JSON travels as UTF-8 (RFC 8259; UTF-16 and UTF-32 are told by their byte-order mark or by the
zero bytes around the first ASCII character, as `json.loads` tells them from bytes), and so do
server-sent events (always UTF-8: EventSource ignores the label). A relay that labels its UTF-8
`charset=iso-8859-1` or `charset=gbk` (a Java or nginx default left in place) made httpx decode every
non-ASCII reply into mojibake, silently; the `openai` SDK reads the bytes and gets it right.
`body_encoding(content, label)` is the codec to read a body with: a byte-order mark, then UTF-16/32
by their zero bytes, then UTF-8 when the bytes are valid UTF-8, then the label when Python knows it;
None (httpx's own default, UTF-8 with replacement characters) when nothing fits.

Leaves out: guessing a legacy encoding the label does not name (a GBK body labelled nothing).
"""

from __future__ import annotations

import codecs
import json

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16's: it starts with the same two bytes
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def body_encoding(content: bytes, label: str | None) -> str | None:
    """The codec to decode `content` with, given its `Content-Type` charset `label` (or None)."""
    for bom, codec in _BOMS:
        if content.startswith(bom):
            return codec
    if b"\x00" in content[:4]:  # JSON starts with an ASCII character: zero bytes beside it are UTF-16/32
        return json.detect_encoding(content[:4])
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        return _known(label)
    return "utf-8"


def _known(label: str | None) -> str | None:
    if not label:
        return None
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None
