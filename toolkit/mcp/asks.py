"""Requests a server sends to this client (sampling, elicitation, roots), each kind said once.

Before MCP's 2026-07-28 version a server may send its client requests of its own during a call:
`sampling/createMessage` (a completion from the client's model), `elicitation/create` (a question
put to the user), `roots/list` (the folders the client shares). `McpClient` declares none of these
capabilities, and the SDK answers each with its error (-32600, "Sampling not supported"); the server
then decides what its call answers, often less than its documentation promises, and nothing said
it had asked. `asks_noted(transport, said)` wraps a transport's read stream: the first request of
each kind on a connection calls `said(method)` (`McpClient` logs `asked_line`: what was asked, and that it was refused);
later ones pass unsaid (a server asking on every call wrote no line each). Every message passes as it came.

Leaves out: answering them (no capability is declared), a server's `ping` (the SDK answers it), and an
in-process server object (it cannot send them: the SDK gives it no channel back).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from mcp_types import JSONRPCRequest

from toolkit.mcp.streams import Hooked

ASKED: dict[str, str] = {
    "sampling/createMessage": "sampling (a completion from the client's own model)",
    "elicitation/create": "elicitation (a question put to the user)",
    "roots/list": "roots (the folders the client shares)",
}
"""The requests a server may send its client that this client declares no capability for → what each asks."""


def asked_line(server: str, method: str) -> str:
    """The line said when `server` first asks for `method` on a connection."""
    return (
        f"MCP server {server!r} asked this client for {ASKED[method]} ({method}), which this client does not give "
        "(it declares no such capability): the server was told so and decides what its call answers without it "
        "(said once per connection)"
    )


@contextlib.asynccontextmanager
async def asks_noted(transport: Any, said: Callable[[str], None]) -> AsyncIterator[tuple[Any, Any]]:
    """`transport`'s streams, calling `said(method)` for the first request of each kind in `ASKED` it reads."""
    async with transport as (read, write):
        seen: set[str] = set()

        def noted(item: Any) -> Any:
            message = getattr(item, "message", None)
            if isinstance(message, JSONRPCRequest) and message.method in ASKED and message.method not in seen:
                seen.add(message.method)
                said(message.method)
            return item

        yield Hooked(read, noted), write
