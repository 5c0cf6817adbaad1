"""MCP servers as a tool source: `McpToolProvider` turns their tools into toolkit `Tool`s.

    time = McpClient.stdio("python", ["-m", "mcp_server_time"])
    provider = McpToolProvider([time, shop])             # several servers, one provider
    provider = rename_tools(filter_tools(provider, {"get_current_time"}), {"get_current_time": "now"})
    run_loop(model, messages, providers=[provider])

For every client, `provide()` lists the tools (cached by the client) and, per tool:

1. translates `inputSchema` (`toolkit.mcp.schema`); a tool whose schema cannot be translated is
   logged and left out, the others stay;
2. keeps MCP's `annotations` and `_meta` — plus which server and which original name — in the
   spec's `metadata`, which the model never sees;
3. binds an executor to the server and the tool's *original* name, so a renamed tool still
   calls the server under the name the server knows.

A server that cannot be reached is logged and skipped (`fail_if_one_server_fails=False`, the
seed's default), so one dead server does not take the others down. The executor sends empty
arguments as `{}`; a call past its deadline is cancelled and answered with `TIMEOUT_TEXT`
(an ordinary result: the model can retry or go on without it); a result with `isError` becomes
an error result; a server that went away becomes an error result too.

Filtering, renaming and always-visible marking are wrappers over any provider, not options
of this one: `filter_tools`, `rename_tools`, `always_visible`.

Leaves out: resources, prompts and sampling; reconnecting to a server that died.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from mcp_types import CallToolResult, TextContent
from mcp_types import Tool as McpTool

from toolkit.chat.messages import ToolCall
from toolkit.errors import McpConnectionError, McpError, McpTimeout, McpToolError, SchemaTranslationError
from toolkit.loop.sources import ALWAYS_VISIBLE, ProviderRequest, ToolProvider
from toolkit.mcp.client import McpClient
from toolkit.mcp.schema import translate_schema
from toolkit.tools.arguments import parse_arguments
from toolkit.tools.decorator import InvocationContext
from toolkit.tools.execute import Tool
from toolkit.tools.reflect import ToolSpec

log = logging.getLogger("toolkit.mcp")

TIMEOUT_TEXT = (
    "The tool {name} did not answer within {seconds:g} seconds, so the call was cancelled. "
    "Try again later, or continue without it."
)
_INVALID_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]")


class McpToolProvider:
    """The tools of one or more MCP servers (see the module docstring)."""

    dynamic = False

    def __init__(
        self, clients: Sequence[McpClient], *, fail_if_one_server_fails: bool = False, timeout: float = 30.0
    ) -> None:
        self.clients = list(clients)
        self.fail_if_one_server_fails = fail_if_one_server_fails
        """True: a server that cannot be reached raises instead of being skipped."""
        self.timeout = timeout
        """Seconds one tool call may take before it is cancelled."""

    def provide(self, request: ProviderRequest = ProviderRequest(())) -> list[Tool]:
        tools: list[Tool] = []
        for client in self.clients:
            try:
                listed = client.list_tools()
            except McpError as exc:
                if self.fail_if_one_server_fails:
                    raise
                log.warning("MCP server %r left out: %s", client.name, exc)
                continue
            for mcp_tool in listed:
                try:
                    tools.append(tool_from_mcp(client, mcp_tool, self.timeout))
                except SchemaTranslationError as exc:
                    log.warning("MCP tool %r of server %r left out: %s", mcp_tool.name, client.name, exc)
        return tools

    def evict_tool_list_cache(self) -> None:
        """Ask every server for its tools again on the next `provide()`."""
        for client in self.clients:
            client.evict_tool_list_cache()

    def close(self) -> None:
        for client in self.clients:
            client.close()


def tool_from_mcp(client: McpClient, mcp_tool: McpTool, timeout: float = 30.0) -> Tool:
    """One MCP tool as a toolkit `Tool` (steps 1–3 of the module docstring)."""
    where = f"MCP tool {mcp_tool.name!r} of server {client.name!r}"
    metadata: dict[str, Any] = {"mcp_server": client.name, "mcp_name": mcp_tool.name}
    if mcp_tool.annotations is not None:
        metadata["annotations"] = mcp_tool.annotations.model_dump(by_alias=True, exclude_none=True)
    if mcp_tool.meta:
        metadata["_meta"] = dict(mcp_tool.meta)
    spec = ToolSpec(
        name=openai_name(mcp_tool.name),
        description=mcp_tool.description or "",
        parameters=translate_schema(mcp_tool.input_schema, where),
        metadata=metadata,
    )
    return Tool(spec, McpExecutor(client, mcp_tool.name, timeout), f"MCP server {client.name!r}")


def openai_name(name: str) -> str:
    """An MCP tool name the chat API accepts: `files.read` → `files_read`, at most 64 chars."""
    return _INVALID_NAME_CHARS.sub("_", name)[:64] or "_"


def original_name(tool: Tool) -> str:
    """The name the MCP server knows the tool by (for other tools: its name)."""
    return str(tool.spec.metadata.get("mcp_name", tool.name))


@dataclass(frozen=True)
class McpExecutor:
    """Runs calls to one MCP tool, always under the name the server gave it."""

    client: McpClient
    name: str
    """The tool's original name on the server."""
    timeout: float = 30.0

    def __call__(self, call: ToolCall, context: InvocationContext) -> str:
        text = call.arguments.strip()
        arguments = {} if text in ("", "null") else parse_arguments(call.name, text)
        try:
            result = self.client.call_tool(self.name, arguments, timeout=self.timeout)
        except McpTimeout:
            return TIMEOUT_TEXT.format(name=call.name, seconds=self.timeout)
        except McpConnectionError as exc:
            raise McpToolError(str(exc)) from None
        if result.is_error:
            raise McpToolError(result_text(result) or "the server reported an error without a message")
        return result_text(result)


def result_text(result: CallToolResult) -> str:
    """What the model reads: the text blocks, a note for each other block, or the structured value."""
    parts = [block.text if isinstance(block, TextContent) else _describe_block(block) for block in result.content]
    if not parts and result.structured_content is not None:
        return json.dumps(result.structured_content, ensure_ascii=False)
    return "\n".join(parts)


def _describe_block(block: Any) -> str:
    kind = getattr(block, "type", type(block).__name__)
    mime = getattr(block, "mime_type", None) or getattr(getattr(block, "resource", None), "mime_type", None)
    return f"[{kind} content{f' ({mime})' if mime else ''} not shown]"


# --- wrappers: any provider in, a provider out ---------------------------------------------


@dataclass
class _Wrapped:
    inner: ToolProvider
    change: Callable[[list[Tool]], list[Tool]]

    @property
    def dynamic(self) -> bool:
        return bool(getattr(self.inner, "dynamic", False))

    def provide(self, request: ProviderRequest = ProviderRequest(())) -> list[Tool]:
        return self.change(list(self.inner.provide(request)))

    def __getattr__(self, name: str) -> Any:  # evict_tool_list_cache, close, clients ...
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def filter_tools(provider: ToolProvider, keep: Collection[str] | Callable[[Tool], bool]) -> ToolProvider:
    """Only the tools `keep` accepts: a set of *original* names, or a predicate on the `Tool`."""
    accept = keep if callable(keep) else (lambda t, names=frozenset(keep): original_name(t) in names)
    return _Wrapped(provider, lambda tools: [t for t in tools if accept(t)])


def rename_tools(provider: ToolProvider, names: Mapping[str, str] | Callable[[str], str]) -> ToolProvider:
    """The same tools under new names, looked up by original name; calls still reach the original.

    A mapping renames the names it lists; a function gets every original name and returns the new.
    """

    def new_name(tool: Tool) -> str:
        old = original_name(tool)
        return names(old) if callable(names) else names.get(old, tool.name)

    return _Wrapped(provider, lambda tools: [_renamed(t, new_name(t)) for t in tools])


def always_visible(provider: ToolProvider, names: Collection[str]) -> ToolProvider:
    """Mark tools (by current name) `always_visible`, so tool search always shows them."""
    chosen = frozenset(names)
    return _Wrapped(
        provider, lambda tools: [_with_metadata(t, {ALWAYS_VISIBLE: True}) if t.name in chosen else t for t in tools]
    )


def _renamed(tool: Tool, name: str) -> Tool:
    return tool if name == tool.name else replace(tool, spec=replace(tool.spec, name=name))


def _with_metadata(tool: Tool, extra: Mapping[str, Any]) -> Tool:
    return replace(tool, spec=replace(tool.spec, metadata={**tool.spec.metadata, **extra}))
