"""A compressed request body, undone: `Content-Encoding: gzip` or `deflate`, as clients that
compress large conversations send them (OpenAI's own backend accepts them).

`decoded(body, encoding, limit)` returns the body as the client wrote it, never more than
`limit + 1` bytes of it (so a small bomb that inflates past the size limit is a 413, not a
gigabyte in memory). An encoding it does not know is a 415 naming the ones it does; bytes that
are not what their header says are a 400 saying so. A gzip body may be several members one after
another (RFC 1952; `cat a.gz b.gz`): all are read, the limit counting them together, at most
`MAX_MEMBERS` of them (each costs a decompressor: a body of empty members is refused, not read for
minutes). Bytes after the end of the compressed data are a 400, never dropped unread.

Leaves out: `br` and `zstd` (not in the standard library of every Python the course runs on),
several encodings stacked in one header.
"""

from __future__ import annotations

import zlib

from toolkit.gateway.validate import RequestError

MAX_MEMBERS = 64
"""The most gzip members one body may hold."""
_GZIP_MAGIC = b"\x1f\x8b"
_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}


def decoded(body: bytes, encoding: str, limit: int) -> bytes:
    """`body` with its `encoding` (a Content-Encoding header's value) undone, at most `limit + 1` bytes."""
    name = encoding.strip().lower()
    if name in ("", "identity"):
        return body
    wbits = _WBITS.get(name)
    if wbits is None:
        raise RequestError(
            f"Unsupported Content-Encoding {encoding.strip()!r}; send the body uncompressed, or as gzip or deflate.",
            code="unsupported_content_encoding",
            status=415,
        )
    try:
        return _inflate(body, wbits, limit, name)
    except zlib.error:
        if name != "deflate":
            raise _not_encoded(name) from None
    try:  # "deflate" is raw DEFLATE for some clients, zlib-wrapped for others
        return _inflate(body, -zlib.MAX_WBITS, limit, name)
    except zlib.error:
        raise _not_encoded(name) from None


def _inflate(body: bytes, wbits: int, limit: int, name: str) -> bytes:
    """The data of each member (one, unless gzip's) joined, stopping once past `limit`."""
    inflater = zlib.decompressobj(wbits)
    data = inflater.decompress(body, limit + 1)
    if len(data) <= limit and not inflater.eof:
        raise zlib.error("incomplete or truncated stream")
    if len(data) > limit or not inflater.unused_data:  # the usual case: one stream, nothing after it
        return data
    return _more_members(data, inflater.unused_data, wbits, limit, name)


def _more_members(data: bytes, rest: bytes, wbits: int, limit: int, name: str) -> bytes:
    pieces, size = [data], len(data)
    for _ in range(MAX_MEMBERS - 1):
        if not rest.startswith(_GZIP_MAGIC) or wbits != _WBITS["gzip"]:
            raise _after_end(name)
        inflater = zlib.decompressobj(wbits)
        pieces.append(inflater.decompress(rest, limit + 1 - size))
        size += len(pieces[-1])
        if size <= limit and not inflater.eof:
            raise zlib.error("incomplete or truncated stream")
        rest = inflater.unused_data
        if size > limit or not rest:
            return b"".join(pieces)
    raise RequestError(
        f"We could not parse the JSON body of your request: its gzip data is in more than {MAX_MEMBERS} members; "
        "send it as one.",
        code="invalid_json",
    )


def _after_end(name: str) -> RequestError:
    return RequestError(
        f"We could not parse the JSON body of your request: its Content-Encoding is {name}, but bytes follow the "
        f"end of its {name} data; send the compressed body alone.",
        code="invalid_json",
    )


def _not_encoded(name: str) -> RequestError:
    return RequestError(
        f"We could not parse the JSON body of your request: its Content-Encoding is {name}, "
        f"but the body is not {name} data (or is cut short).",
        code="invalid_json",
    )
