"""How large a request's head (its request line and headers) may be over HTTP: `MAX_HEAD_BYTES`
(16 KiB, what uvicorn's h11 allows by default), past which the answer is a 431 in OpenAI's error shape.

h11 refuses a head past its limit only while the head is incomplete: the same 64 KB request line, or
the same 10,000 headers, got a 200 when TCP brought them in one read and uvicorn's plain-text 400
("Invalid HTTP request received.") when it brought them in two. Now a head that arrived whole is
measured where the app reads it (`too_large`: its method, target, version and headers, as written
without padding around a header's value), and a head h11 gave up on gets the same answer
(`refused_whole`, the bytes a protocol writes before it closes).

Any other request h11 cannot read (a malformed request line, a chunk size that is not hex, bytes
left after a `Content-Length` that was too short) gets a 400 in the same shape with the fix
(`unreadable_whole`), where uvicorn wrote plain text.

Leaves out: the MCP server over HTTP measures no whole head (its Starlette app takes what h11
passes); uvicorn's own warning line for such a request ("Invalid HTTP request received.").
"""

from __future__ import annotations

import json
from itertools import chain
from typing import Any

from toolkit.gateway.wire import Reply, error_reply

MAX_HEAD_BYTES = 16 * 1024
"""How many bytes a request's line and headers may have (uvicorn's `h11_max_incomplete_event_size`)."""

MESSAGE = (
    f"The request line and headers are larger than {MAX_HEAD_BYTES} bytes "
    "(toolkit.gateway.head_size.MAX_HEAD_BYTES); send fewer or shorter headers, and put long values in the JSON body."
)
STATUS, CODE = 431, "request_header_fields_too_large"


def too_large(scope: dict[str, Any]) -> bool:
    """Whether the head of the request an ASGI `scope` describes is past `MAX_HEAD_BYTES`: its
    `METHOD target HTTP/x.y` line and each `name: value` line with their line ends. Some 2 µs for
    an SDK's dozen headers."""
    headers = scope["headers"]
    query = scope.get("query_string")  # the ASGI keys a server may leave out (a test's own scope)
    size = (
        len(scope["method"])
        + len(scope.get("raw_path") or scope["path"])
        + (len(query) + 1 if query else 0)
        + len(scope.get("http_version", "1.1"))
        + 13  # two spaces, "HTTP/", the line's end and the blank line's
        + 4 * len(headers)  # ": " and a line end each
        + sum(map(len, chain.from_iterable(headers)))
    )
    return size > MAX_HEAD_BYTES


def refused() -> Reply:
    """The answer to a head past `MAX_HEAD_BYTES`."""
    return error_reply(STATUS, MESSAGE, code=CODE)


def refused_whole() -> bytes:
    """`refused()` as a whole HTTP response that closes its connection, for a protocol to write."""
    return _whole(STATUS, "Request Header Fields Too Large", MESSAGE, CODE)


UNREADABLE = (
    "The request is not HTTP/1.1 this server can read (a malformed request line or header, a chunk size that is not "
    "hex, or bytes left over after a Content-Length that was too short); send the request as an HTTP client "
    "library writes it."
)


def unreadable_whole() -> bytes:
    """The 400 for a request h11 cannot read, in OpenAI's error shape with the fix (uvicorn's own was the
    plain text "Invalid HTTP request received."), as a whole response that closes its connection."""
    return _whole(400, "Bad Request", UNREADABLE, "invalid_http_request")


def _whole(status: int, reason: str, message: str, code: str) -> bytes:
    body = json.dumps(
        {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}}
    ).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    return head.encode("ascii") + body
