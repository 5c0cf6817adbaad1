"""How long the HTTP gateway waits for a request's headers: `HEADERS_TIMEOUT_S`, then a 408 and
the connection closed.

uvicorn (h11 and httptools alike) has no such timeout: a client that opens a connection and sends
nothing, or sends a request's headers a byte at a time ("slowloris"), holds the connection, and a
file descriptor, for as long as it likes; a few hundred such clients leave the gateway no
descriptor to accept an SDK's connection with. Its `timeout_keep_alive` (5 s) closes a connection
idle after a response only until the first byte of the next request, and its
`h11_max_incomplete_event_size` (16 KB) bounds how long the headers are, not how slowly they come.
nginx's `client_header_timeout` (60 s) is the model: a deadline for the whole headers that a byte
does not renew, counted from when the connection opened or (within one more wait) its last response.

`headers_timed(base, seconds)` is `base` (uvicorn's protocol class for HTTP, as its `auto` picks)
with that deadline; the gateway's server and the MCP server over HTTP (`toolkit.mcp.server.serve_http`)
use it. The usual path pays an attribute check per read: a timer is armed when a connection opens,
and again only when a read leaves a request's headers unfinished after the last timer went; a timer
that finds a request answered since it was armed waits once more (so 30 to 60 s after a response).

Leaves out: a limit on the number of connections (uvicorn's `limit_concurrency` answers 503 past it,
not set: a course's gateway has a few clients), and TLS handshakes (the gateway speaks plain HTTP).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from toolkit.gateway import head_size

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

    received = base.data_received

    class HeadersTimed(base):
        headers_timeout_s = seconds
        _timer: asyncio.TimerHandle | None = None
        _armed_for: Any = None
        """The request cycle under way (or last done) when the timer was armed: another one at the
        deadline means a request came since, and the wait starts again."""

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            received(self, data)
            if self._timer is None:  # armed already (the usual case): nothing more to do
                cycle = self.cycle
                if cycle is None or cycle.response_complete:  # a read that left the headers unfinished
                    self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            """In place of uvicorn's plain-text 400 for a request h11 refused, OpenAI's error shape with the
            fix (`toolkit.gateway.head_size`): a 431 for a head h11 gave up on because it grew past its limit
            (as one that came whole gets), else a 400."""
            conn = getattr(self, "conn", None)  # h11's connection (httptools' protocol has none)
            if conn is None:
                super().send_400_response(msg)
                return
            large = len(conn.trailing_data[0]) > head_size.MAX_HEAD_BYTES
            self.transport.write(head_size.refused_whole() if large else head_size.unreadable_whole())
            self.transport.close()

        def _arm(self) -> None:
            self._armed_for = self.cycle
            self._timer = self.loop.call_later(seconds, self._check)

        def _check(self) -> None:
            self._timer = None
            cycle = self.cycle
            if self.transport.is_closing() or not (cycle is None or cycle.response_complete):
                return  # closed, or a request under way: the next read that leaves headers unfinished re-arms
            if cycle is not self._armed_for:  # a request came and was answered since: wait again from now
                self._arm()
                return
            self.transport.write(late_answer(seconds))
            self.transport.close()

    return HeadersTimed
