"""How long the HTTP gateway waits for a request's headers: `HEADERS_TIMEOUT_S`, then a 408 and
the connection closed.

uvicorn (h11 and httptools alike) has no such timeout: a client that opens a connection and sends
nothing, or sends a request's headers a byte at a time ("slowloris"), holds the connection, and a
file descriptor, for as long as it likes; a few hundred such clients leave the gateway no
descriptor to accept an SDK's connection with. Its `timeout_keep_alive` (5 s) closes a connection
idle after a response only until the first byte of the next request, and its
`h11_max_incomplete_event_size` (16 KB) bounds how long the headers are, not how slowly they come.
nginx's `client_header_timeout` (60 s) is the model: a deadline for the whole headers, counted from
when the connection opened or its last response was sent, that a byte does not renew.

`headers_timed(base, seconds)` is `base` (uvicorn's protocol class for HTTP, as its `auto` picks)
with that deadline; the gateway's server and the MCP server over HTTP (`toolkit.mcp.server.serve_http`) use it. The usual path pays a clock read per response and an attribute check per read:
a timer is armed only when a connection opens, or when a read leaves a request's headers unfinished.

Leaves out: a limit on the number of connections (uvicorn's `limit_concurrency` answers 503 past it,
not set: a course's gateway has a few clients), and TLS handshakes (the gateway speaks plain HTTP).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

HEADERS_TIMEOUT_S = 30.0
"""Seconds a request's headers may take to arrive whole, from the connection's opening or its last response."""

_MESSAGE = (
    "The request headers did not arrive whole within {seconds:g} s of the connection opening (or of the last "
    "response on it); send the whole request at once."
)


def late_answer(seconds: float) -> bytes:
    """The 408 a connection gets when its headers are late: OpenAI's error shape, and `Connection: close`."""
    body = json.dumps(
        {
            "error": {
                "message": _MESSAGE.format(seconds=seconds),
                "type": "invalid_request_error",
                "param": None,
                "code": "request_timeout",
            }
        }
    ).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    )
    return head.encode("ascii") + body


def headers_timed(base: type[Any], seconds: float) -> type[asyncio.Protocol]:
    """`base`, a uvicorn HTTP protocol class, whose connections get a 408 and are closed when a
    request's headers are not whole `seconds` after the connection opened or its last response."""

    class HeadersTimed(base):
        headers_timeout_s = seconds
        _waiting_since = 0.0
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._waiting_since = self.loop.time()
            self._arm(seconds)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._timer is None and self._waiting():  # a read that left the headers unfinished
                self._arm(self._waiting_since + seconds - self.loop.time())

        def on_response_complete(self) -> None:
            self._waiting_since = self.loop.time()  # the next request's headers are waited for from now
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            super().connection_lost(exc)

        def _waiting(self) -> bool:
            """Whether no request is under way: its headers are not all in (or none came)."""
            cycle = self.cycle
            return cycle is None or cycle.response_complete

        def _arm(self, delay: float) -> None:
            self._timer = self.loop.call_later(max(delay, 0.0), self._check)

        def _check(self) -> None:
            self._timer = None
            if self.transport.is_closing() or not self._waiting():
                return  # closed, or a request is under way: the next read that leaves headers unfinished re-arms
            left = self._waiting_since + seconds - self.loop.time()
            if left > 0:  # a response was sent since the timer was armed: wait for the rest
                self._arm(left)
                return
            self.transport.write(late_answer(seconds))
            self.transport.close()

    return HeadersTimed
