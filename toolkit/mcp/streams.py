"""A transport's read stream with a hook on each item it gives, and one on its end.

The SDK reads a transport's messages from an anyio receive stream (`receive()`, or `async for`).
`Hooked(stream, each, ended)` is that stream, each item passed through `each(item)` (which may
change it, or only look at it) before the SDK reads it, and `ended()` called when the stream ends
(its sender closed it, or it was closed). Everything else (`close`, `aclose`, `statistics`, the
`async with` the SDK opens it with) is the stream's own. `toolkit.mcp.blocks` names unknown
content blocks with it, `toolkit.mcp.ids` checks answers' ids.

Leaves out: the write stream (`toolkit.mcp.ids` notes what is written with a wrapper of its own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio


def _nothing() -> None:
    return None


class Hooked:
    """`stream`, each item it gives passed through `each`, `ended()` called when it ends."""

    def __init__(self, stream: Any, each: Callable[[Any], Any], ended: Callable[[], None] = _nothing) -> None:
        self._stream, self._each, self._ended = stream, each, ended

    async def receive(self) -> Any:
        try:
            item = await self._stream.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            self._ended()
            raise
        return self._each(item)

    def __aiter__(self) -> Hooked:
        return self

    async def __anext__(self) -> Any:
        try:
            item = await self._stream.__anext__()
        except (StopAsyncIteration, anyio.ClosedResourceError):
            self._ended()
            raise
        return self._each(item)

    async def __aenter__(self) -> Hooked:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._stream.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:  # close(), aclose(), statistics()...: the stream's own
        return getattr(self._stream, name)
