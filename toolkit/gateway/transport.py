"""The fake gateway without sockets: an httpx transport that calls it in process.

`InProcessTransport(gateway)` puts the gateway where the network would be (like httpx's
`MockTransport`), for `httpx.Client` and `httpx.AsyncClient` alike. The bytes are exactly
those the HTTP server sends, and a stream arrives as a byte stream, one SSE event a piece,
so an SSE reader cannot tell the difference (a HEAD gets GET's headers and no body, as
uvicorn sends it). The `slow` fault honours the request's read
timeout: a delay longer than it waits the timeout, then raises `httpx.ReadTimeout`. The
sleep functions are injectable, so tests never really wait.

Leaves out: connection-level failures (refused, reset) — use `httpx.MockTransport` for those.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import httpx

from toolkit.gateway.wire import Reply


class _ReplyStream(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A reply's body as a stream: one piece per SSE event."""

    def __init__(self, reply: Reply) -> None:
        self._reply = reply

    def __iter__(self) -> Iterator[bytes]:
        yield from self._reply.iter_bytes()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self._reply.iter_bytes():
            yield piece


class InProcessTransport(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """An httpx transport answering from a `Gateway` in this process."""

    def __init__(
        self,
        gateway: Any = None,
        *,
        sleep: Callable[[float], Any] | None = None,
        async_sleep: Callable[[float], Awaitable[Any]] | None = None,
    ) -> None:
        """`gateway`: a `toolkit.gateway.server.Gateway` (a new mode-A one if None).
        `sleep` / `async_sleep`: how to wait for the `slow` fault (an injected `sleep` is used
        by the async client too, unless `async_sleep` is given)."""
        if gateway is None:
            from toolkit.gateway.server import Gateway

            gateway = Gateway()
        elif isinstance(gateway, type) or not callable(getattr(gateway, "handle", None)):
            from toolkit.gateway.server import check_gateway

            check_gateway(gateway, "InProcessTransport")  # here, not as a raw AttributeError at the first request
        self.gateway = gateway
        self._sleep = sleep or time.sleep
        self._async_sleep = async_sleep or (_call_async(sleep) if sleep else asyncio.sleep)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        reply = self._reply(request, request.read())
        wait, timed_out = _waiting(reply, request)
        if wait:
            self._sleep(wait)
        return _response(reply, request, timed_out)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        reply = self._reply(request, await request.aread())
        wait, timed_out = _waiting(reply, request)
        if wait:
            await self._async_sleep(wait)
        return _response(reply, request, timed_out)

    def _reply(self, request: httpx.Request, body: bytes) -> Reply:
        return self.gateway.handle(request.method, request.url.path, request.headers, body)


def _waiting(reply: Reply, request: httpx.Request) -> tuple[float, bool]:
    """How long to wait, and whether the read timeout runs out first."""
    timeout = (request.extensions.get("timeout") or {}).get("read")
    if timeout is not None and reply.delay_s > timeout:
        return timeout, True
    return reply.delay_s, False


def _response(reply: Reply, request: httpx.Request, timed_out: bool) -> httpx.Response:
    if timed_out:
        raise httpx.ReadTimeout(
            f"the fake gateway's slow fault ({reply.delay_s}s) outlasted the read timeout", request=request
        )
    if request.method == "HEAD":  # GET's headers and length, no body (as the HTTP server sends it)
        headers = {**reply.headers, "content-length": str(len(reply.encode()))}
        return httpx.Response(reply.status, headers=headers, content=b"", request=request)
    if reply.events is None:
        return httpx.Response(reply.status, headers=reply.headers, content=reply.encode(), request=request)
    return httpx.Response(reply.status, headers=reply.headers, stream=_ReplyStream(reply), request=request)


def _call_async(sleep: Callable[[float], Any]) -> Callable[[float], Awaitable[None]]:
    async def async_sleep(seconds: float) -> None:
        sleep(seconds)

    return async_sleep
