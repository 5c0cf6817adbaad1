"""A compressed request body, undone: `Content-Encoding: gzip` or `deflate`, as clients that
compress large conversations send them (OpenAI's own backend accepts them).

`decoded(body, encoding, limit)` returns the body as the client wrote it, never more than
`limit + 1` bytes of it (so a small bomb that inflates past the size limit is a 413, not a
gigabyte in memory). An encoding it does not know is a 415 naming the ones it does; bytes that
are not what their header says are a 400 saying so.

Leaves out: `br` and `zstd` (not in the standard library of every Python the course runs on),
several encodings stacked in one header.
"""

from __future__ import annotations

import zlib

from toolkit.gateway.validate import RequestError

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
        return _inflate(body, wbits, limit)
    except zlib.error:
        if name != "deflate":
            raise _not_encoded(name) from None
    try:  # "deflate" is raw DEFLATE for some clients, zlib-wrapped for others
        return _inflate(body, -zlib.MAX_WBITS, limit)
    except zlib.error:
        raise _not_encoded(name) from None


def _inflate(body: bytes, wbits: int, limit: int) -> bytes:
    inflater = zlib.decompressobj(wbits)
    data = inflater.decompress(body, limit + 1)
    if len(data) <= limit and not inflater.eof:
        raise zlib.error("incomplete or truncated stream")
    return data


def _not_encoded(name: str) -> RequestError:
    return RequestError(
        f"We could not parse the JSON body of your request: its Content-Encoding is {name}, "
        f"but the body is not {name} data (or is cut short).",
        code="invalid_json",
    )
