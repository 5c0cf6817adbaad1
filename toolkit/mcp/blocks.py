"""Content blocks of a type the SDK does not read, named in a text block instead of failing the answer.

MCP's tool results are lists of typed blocks (`text`, `image`, `audio`, `resource_link`,
`resource`), and the specification grows: `audio` and `resource_link` came in 2025, and a
server written for a later version, or with a block type of its own, sends types this SDK has no
model for. The SDK then refused the whole answer ("13 validation errors for union[CallToolResult,
…]"): the text blocks beside the new one were lost, and the call failed though it ran.

`unknown_blocks_named(transport)` wraps a transport's read stream: in an answer whose result
holds a `content` list, each block that is an object whose `type` is a str this SDK does not know
becomes a text block naming it (`[video content not shown: …]`); the other blocks, and every
other message, pass as they came. Such an answer's `_meta` that is no object (a list, a string:
metadata the model never reads) is dropped: the SDK refused the whole answer for it too. A block of a known type that is broken (a text block without
`text`) is left as it is: the SDK refuses it, as it should.

A tool's annotation hints (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`) are
booleans in MCP, and the SDK reads what is not one leniently: `"yes"`, `1` and `"on"` as true. A
listing's hint that is no boolean (nor null) is made one the SDK refuses (`strict_hints`), so the tool
is offered without its annotations and `McpClient.unreadable` says why, as for any other annotation
that is not valid MCP: a hint is never read from a stranger's "yes" (a tool taken as read-only is one
whose call past its deadline the model is told it may make again).

Leaves out: blocks nested deeper than a result's `content` (an embedded resource's own fields),
and an in-process server object (the SDK checks its answers where they are made).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from mcp_types import JSONRPCResponse

from toolkit.mcp.streams import Hooked
from toolkit.unicode import cut

KNOWN_TYPES = frozenset({"text", "image", "audio", "resource_link", "resource"})
"""The content block types the SDK reads."""


@contextlib.asynccontextmanager
async def unknown_blocks_named(transport: Any) -> AsyncIterator[tuple[Any, Any]]:
    """`transport`'s streams, each answer's blocks of an unknown type named (see the module docstring)."""
    async with transport as (read, write):
        yield Hooked(read, named), write


def named(item: Any) -> Any:
    """`item` (a `SessionMessage`, or what else a read stream gives), its unknown blocks named in place."""
    message = getattr(item, "message", None)
    result = message.result if isinstance(message, JSONRPCResponse) else None
    if isinstance(result, dict) and isinstance(tools := result.get("tools"), list):
        strict_hints(tools)
        return item
    if not isinstance(result, dict) or not isinstance(content := result.get("content"), list):
        return item
    if any(_unknown(block) for block in content):
        result["content"] = [_named(block) if _unknown(block) else block for block in content]
    if not isinstance(result.get("_meta"), dict | None):
        del result["_meta"]
    return item


def _unknown(block: Any) -> bool:
    return isinstance(block, dict) and isinstance(block.get("type"), str) and block["type"] not in KNOWN_TYPES


def _named(block: dict[str, Any]) -> dict[str, Any]:
    kind = " ".join(cut(block["type"], 40).split()) or "blank"
    return {"type": "text", "text": f"[{kind} content not shown: a content type this client does not read]"}


HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
"""The tool annotations MCP has as booleans."""


def strict_hints(tools: list[Any]) -> None:
    """Each hint of a listed tool's annotations that is no boolean (nor null) made one the SDK refuses (see the
    module docstring), in place."""
    for tool in tools:
        annotations = tool.get("annotations") if isinstance(tool, dict) else None
        if isinstance(annotations, dict):
            for key in HINTS:
                value = annotations.get(key)
                if value is not None and not isinstance(value, bool):
                    annotations[key] = {"not a boolean": value}
