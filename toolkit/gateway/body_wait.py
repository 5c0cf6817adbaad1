"""How long an ASGI app served over HTTP waits for a request's body: `BODY_TIMEOUT_S`, then a 408 and the
connection closed.

uvicorn has no body timeout: a request whose `Content-Length` is larger than the bytes sent, whose chunk
size runs past its chunk, or that asks `Expect: 100-continue` and sends nothing, holds its connection (and a
file descriptor, and the app's task waiting on `receive()`) for as long as the client likes. The embedded
gateway has its own check on its own path (`toolkit.gateway.server`); `body_timed(app, seconds, answer)` is
the same rule for any other ASGI app, the MCP server over HTTP (`toolkit.mcp.server.serve_http`): a request's
body is read before `app` sees the request, within `seconds` of its first `receive()`, and then handed to
`app` as it came; one that is late is answered `answer(seconds)` (status, content type, body) and `app` never
sees it. A body past `most` bytes is handed on as soon as that many are read (the app's own limit answers it:
the MCP SDK's 413), so what is held is bounded too.

Leaves out: requests other than `http` (lifespan, websockets: passed through as they are), a limit on the
time `app` takes to answer (the tools' own deadlines), and the headers' wait (`toolkit.gateway.header_wait`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

BODY_TIMEOUT_S = 30.0
"""Seconds a request's body may take to arrive whole, from its first read (an SDK on this machine sends it at once)."""

Answer = Callable[[float], tuple[int, bytes, bytes]]
"""What a late body is answered: status, content type and body, given the seconds it had."""


def body_timed(app: Any, seconds: float, answer: Answer, most: int) -> Callable[..., Awaitable[None]]:
    """`app` whose requests' bodies are read within `seconds` (see the module)."""

    async def timed(scope: dict[str, Any], receive: Callable[[], Awaitable[Any]], send: Any) -> None:
        if scope.get("type") != "http":
            await app(scope, receive, send)
            return
        try:
            read = await asyncio.wait_for(_body(receive, most), seconds)
        except TimeoutError:
            status, kind, text = answer(seconds)
            headers = [(b"content-type", kind), (b"content-length", b"%d" % len(text)), (b"connection", b"close")]
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": text})
            return
        await app(scope, _replay(read, receive), send)

    return timed


async def _body(receive: Callable[[], Awaitable[Any]], most: int) -> list[Any]:
    """The request's messages up to its body's end (or a disconnect, or past `most` bytes)."""
    messages, size = [], 0
    while True:
        message = await receive()
        messages.append(message)
        size += len(message.get("body", b""))
        if message.get("type") != "http.request" or not message.get("more_body") or size > most:
            return messages


def _replay(messages: list[Any], receive: Callable[[], Awaitable[Any]]) -> Callable[[], Awaitable[Any]]:
    """A `receive` giving `messages` first, then what `receive` gives (the rest of a long body, a disconnect)."""
    left = list(messages)

    async def replayed() -> Any:
        return left.pop(0) if left else await receive()

    return replayed
