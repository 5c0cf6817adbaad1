"""Answers matched to requests: an answer whose id no request waits for is said at once, and
the end of the answers (the connection is gone) is noted.

JSON-RPC pairs an answer with its request by id. The SDK drops an answer whose id matches no
request it waits for (a debug log line, nothing more), so a server that answers with another
request's id (one it answered already, one never sent, or `null`, as for an error about a request
it could not read) left the request it meant to answer waiting out its whole deadline: "did not
answer within 30 s", though it had answered at once.

`ids_checked(transport, said, ended)` wraps a transport's two streams: the ids of the requests written
are noted (and forgotten once answered), as are those the client gave up on (it sent
`notifications/cancelled`: a late answer to one is no mistake); an answer with any other id calls
`said(problem)`, a few words on what came, and is passed on as it came. Which request it was meant
for cannot be known: `McpClient` fails every request then waiting, at once. A second answer to one
request counts too (the id is no longer waited for). When the read stream ends (the server
exited, the transport closed), `ended()` is called: `McpClient` sends no later request (the SDK
says this only in its private dispatcher state).

Leaves out: correcting the id (over HTTP the SDK gives an event stream's answer the id of the
request it was posted for; a JSON body it reads as it is), and batches (MCP has none since 2025-06-18).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from mcp.shared.dispatcher import coerce_request_id
from mcp.shared.jsonrpc_dispatcher import cancelled_request_id_from_params
from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from toolkit.mcp.streams import Hooked

GIVEN_UP_KEPT = 1000
"""How many ids of requests given up on are remembered (their late answers are no mistake)."""


@contextlib.asynccontextmanager
async def ids_checked(
    transport: Any, said: Callable[[str], None], ended: Callable[[], None], hide: Callable[[str], str] = str
) -> AsyncIterator[tuple[Any, Any]]:
    """`transport`'s streams, calling `said(problem)` for each answer no request waits for, and
    `ended()` when the read stream ends. An error's words quoted in a problem have their secrets
    masked by `hide` before they are cut (a secret the cut went through was no longer found)."""
    async with transport as (read, write):
        book = _Book(hide)

        def checked(item: Any) -> Any:
            if problem := book.unmatched(item):
                said(problem)
            return item

        yield Hooked(read, checked, ended), _Outbox(write, book)


class _Book:
    """The ids of the requests waiting for an answer, and of the last ones given up on."""

    def __init__(self, hide: Callable[[str], str] = str) -> None:
        self.hide = hide
        self.waiting: set[Any] = set()
        self.given_up: dict[Any, None] = {}  # insertion-ordered: the oldest is forgotten first

    def sent(self, item: Any) -> None:
        message = getattr(item, "message", None)
        if isinstance(message, JSONRPCRequest):
            self.waiting.add(coerce_request_id(message.id))
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
            rid = cancelled_request_id_from_params(message.params)
            if rid is not None:
                self.waiting.discard(coerce_request_id(rid))
                self.given_up[coerce_request_id(rid)] = None
                if len(self.given_up) > GIVEN_UP_KEPT:
                    del self.given_up[next(iter(self.given_up))]

    def unmatched(self, item: Any) -> str:
        """What is wrong with `item` when it answers no request waiting for one ("" when it does, or is no answer)."""
        message = getattr(item, "message", None)
        if not isinstance(message, JSONRPCResponse | JSONRPCError):
            return ""
        rid = None if message.id is None else coerce_request_id(message.id)
        if rid is not None and (rid in self.waiting or rid in self.given_up):
            self.waiting.discard(rid)
            return ""
        what = f"an answer with id {json.dumps(message.id)}"
        if isinstance(message, JSONRPCError):
            words = self.hide((message.error.message.strip().splitlines() or [""])[0])[:200]
            what = f"an error with id {json.dumps(message.id)}" + (f" ({words!r})" if words else "")
        return (
            f"it sent {what}, the id of no request waiting for an answer; a server answers each request "
            "with that request's id"
        )


class _Outbox:
    """The transport's write stream, each request's id noted before it is written."""

    def __init__(self, stream: Any, book: _Book) -> None:
        self._stream, self._book = stream, book

    async def send(self, item: Any) -> None:
        self._book.sent(item)  # first: the answer may be read before `send` returns
        await self._stream.send(item)

    async def __aenter__(self) -> _Outbox:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._stream.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
