"""The other side of MCP: toolkit tools served to any MCP client.

    python -m toolkit mcp-server                      # week 3's shop tools over stdio
    python -m toolkit mcp-server --http --port 8765   # … over streamable HTTP, http://127.0.0.1:8765/mcp

`tools_server(tools)` wraps toolkit `Tool`s (or a provider's, asked once) in the official SDK's low-level `Server`, so what
a client lists is exactly the hand-written spec (no second reflection), and a call runs the
tool's own executor — for the shop that is `toolkit.course.validation`: lenient in, strict out, the
same checks and the same Chinese messages as in week 3. An argument error or a failing tool
comes back as a result with `isError: true` (the model can fix its call), a failure as the
tool's sanitised exception alone (`ValueError: …`: a client names the tool itself); so does a tool that
calls `sys.exit` (command-line code on bad input): `SystemExit` ends neither the server nor,
served in-process, the client's event loop. An unknown tool name is a protocol error, as the
MCP specification asks; so is a `tools/list` cursor (-32602: every tool is on one page, and no
cursor is given, `invalid_cursor`), and a request whose params are not valid MCP (`arguments` sent as
the JSON text of an object, no tool name) is answered -32602 saying where and what (`params_problem`),
where the SDK says "Invalid request parameters" alone; a request sent before `initialize` is told to
initialize first (`NOT_INITIALIZED`). Over stdio, a line that is no JSON-RPC message gets JSON-RPC's answer
(-32700 "Parse error", -32600 "Invalid Request"; to the request's id when it can be read), and
so is a request whose id is no string or integer (null, 2.5, true: -32600, to id null); each
request of a batch (a JSON array, gone from MCP since 2025-06-18) is answered -32600 under its id. A
tool's text holding an unpaired surrogate (a file name read with `surrogateescape`) is sent with
U+FFFD in its place: the SDK cannot write it. Each call runs in a daemon thread of its own, so
the server exits when its client closes stdin, even while a tool still runs (one that never
returns kept the process alive).

A call its client cancels (`notifications/cancelled`, a timeout on its side, Ctrl-C) or gives up on
(it closed the HTTP stream, ended its session) gets no answer, as MCP asks, and the server answers its
other requests meanwhile. What is promised stops there: a Python function cannot be stopped from
outside, so a tool's thread runs to its end and what it returns (or raises) is dropped, its side
effects done. A served tool that does something costly or irreversible is no different from one the
loop calls: cancelling a call undoes nothing, over MCP as in week 3.

A result is its text, then an image block for each image the tool returned (its `images`
attribute, a chart: a data URL as an image, a link as a resource link), then what another MCP
server marked for the user only (`for_user`, a tool served again) with that audience, then its
resource links (`resource_links`) as links; they were lost on the way. Its `_meta` (`mcp_meta`) is
served again too. Another MCP server's
`structuredContent`, kept on the result as a JSON object (`structured_content`), is served again
as the result's `structuredContent` (an error result's too; a value kept only as its cut JSON text is not), and its
tool's `outputSchema` with the tool (a value of any JSON type that schema takes is served then). A value cut or masked on
the way that no longer matches that schema is not served (the proxy's clients would refuse the
answer): the result is an error, its text kept, saying why (`CHANGED_ON_THE_WAY`). That check searches the
schema's patterns within bounds (`toolkit.mcp.outputs.matcher`): a stranger's `^(a+)+$` held the server.

A result's text is cut to `max_result_chars` characters (100,000 by default, `MAX_RESULT_CHARS`), with
the line `toolkit.mcp.provider.cut_text` writes after it (how long it was; call again for less): the
MCP specification sets no limit, and a tool answering with 50 MB sent it whole to a client that passes
results to its model whole. A local tool's result reaches the loop's model whole, but over MCP toolkit's
own client cuts there anyway: what a toolkit client's model reads is unchanged. A tool's error text (a
handled `ToolOutput(..., is_error=True)`) is masked and cut by the same limit inside `Tool.run`
(`toolkit.loop.result_size.Cutting`): it was cut there at 100,000 whatever `max_result_chars` said.

Tools flagged read-only travel with the MCP annotation `readOnlyHint`, which a client keeps in
the spec's metadata (`toolkit.mcp.provider`); another MCP server's tool served again keeps the
annotations, the `title`, the `icons` and the `_meta` it came with.

Leaves out: authentication, resources and prompts; HTTP on any address but 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime
import gc
import io
import json
import os
import re
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from toolkit.chat.messages import ToolCall
from toolkit.errors import ToolDefinitionError, shown_name
from toolkit.loop.images import IMAGES
from toolkit.loop.result_size import CUT_NOTE, DEFAULT_CUTTING, Cutting
from toolkit.loop.sources import ProviderRequest, check_collection, provided
from toolkit.mcp.client import unicode_text
from toolkit.mcp.outputs import matcher
from toolkit.mcp.provider import FOR_USER_ATTRIBUTE as FOR_USER
from toolkit.mcp.provider import MAX_RESULT_CHARS, check_max_result_chars, cut_text, reserved_key
from toolkit.mcp.provider import META_ATTRIBUTE as META
from toolkit.mcp.provider import RESOURCE_LINKS_ATTRIBUTE as LINKS
from toolkit.mcp.provider import STRUCTURED_ATTRIBUTE as STRUCTURED
from toolkit.mcp.schema import CHECKED_BY_SERVER, json_type
from toolkit.tools.decorator import a_or_an
from toolkit.tools.execute import (
    Policies,
    Tool,
    report_argument_error,
    report_failure_only,
    report_unknown_tool,
    tools_from,
)
from toolkit.tools.redact import describe_exception
from toolkit.unicode import cut

SHOP_READ_ONLY = {"query_order", "query_logistics", "query_refund_policy"}
"""Week 3's tools only read: clients may call them without asking the user first."""


def tools_server(
    tools: Sequence[Any],
    *,
    name: str = "toolkit",
    version: str = "0.1.0",
    read_only: Iterable[str] = (),
    max_result_chars: int | None = MAX_RESULT_CHARS,
) -> Server:
    """An MCP server offering `tools` (`Tool`s, or anything `tools_from` takes: `@tool` functions,
    objects with `@tool` methods, and providers, asked once here: a wrapped or another MCP
    server's tools can be served too); calls run each tool's executor (errors fed back). Two
    tools of one name are a `ToolDefinitionError`, as in `tools_from`; so is a `read_only` that is
    no list of served tools' names (a str, a misspelt name), and a `name` or `version` that is no
    str (every client then failed to connect, with "Method not found"). A result's text (and each text
    for the user) is cut to `max_result_chars` characters, as `McpToolProvider` cuts what it reads (None:
    whole)."""
    if tools is None:
        raise ToolDefinitionError(
            "tools_server(tools=None)",
            "tools_server serves a list of tools, and got None",
            "give the tools to serve, e.g. tools_server([query_order])",
        )
    check_collection("tools", tools)
    _check_text("name", name, "what clients call the server (its serverInfo)", "a word, e.g. name='shop'", "toolkit")
    check_max_result_chars(max_result_chars, "tools_server")
    _check_text("version", version, "the server's version its clients read", "it as text, e.g. version='1.0'", "0.1.0")
    tools = tools_from(*[t for source in tools for t in _served(source)])
    by_name = {t.name: t for t in tools}
    flagged = _read_only(read_only, by_name)
    listed = [_mcp_tool(t, t.name in flagged) for t in tools]
    checks = {t.name: matcher(t.output_schema, t.name, name) for t in listed if t.output_schema is not None}
    cutting = Cutting(max_result_chars, CUT_NOTE)  # an error's text is masked and cut by it inside `Tool.run`

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        if (cursor := getattr(params, "cursor", None)) is not None:  # never given: every tool is on one page
            raise MCPError(types.INVALID_PARAMS, invalid_cursor(cursor))
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = by_name.get(params.name)
        if tool is None:
            raise MCPError(
                types.INVALID_PARAMS,
                f"Unknown tool: {shown_name(params.name)!r}. Available tools: {', '.join(by_name)}",
            )
        call = ToolCall(id="mcp", name=params.name, arguments=json.dumps(params.arguments or {}, ensure_ascii=False))
        text, is_error, attributes = await _in_daemon_thread(tool, call, cutting)
        kept = attributes.get(STRUCTURED)  # another MCP server's, kept on the result (a str: maybe its cut JSON)
        structured = kept if isinstance(kept, dict) else None  # an error's too: no client checks an error's
        content = _content(text, attributes, max_result_chars)
        if not is_error and (check := checks.get(tool.name)) is not None:  # its outputSchema says what it is
            if not check(kept):
                content.append(types.TextContent(text=CHANGED_ON_THE_WAY))
                return types.CallToolResult(content=content, is_error=True)  # an error's content is not checked
            structured = kept
        return types.CallToolResult(
            content=content, is_error=is_error, structured_content=structured, _meta=_meta(attributes.get(META))
        )

    server = Server(name, version=version, on_list_tools=list_tools, on_call_tool=call_tool)
    if isinstance(getattr(server, "middleware", None), list):  # the SDK's (provisional) middleware list
        server.middleware.append(_params_said)
    return server


async def _params_said(ctx: Any, call_next: Any) -> Any:
    """A request whose params are not valid MCP answered -32602 saying where and what (`params_problem`): the
    SDK answers "Invalid request parameters" alone, which left a stranger's client no clue (`arguments` sent as
    the JSON text of an object, as a chat API hands them over). So is a request sent before `initialize`, which
    the SDK refuses in those words too (raised, not from a check of params): `NOT_INITIALIZED`."""
    try:
        return await call_next(ctx)
    except ValidationError as exc:
        if getattr(ctx, "request_id", None) is None:  # a notification: nobody is answered
            raise
        raise MCPError(types.INVALID_PARAMS, params_problem(str(getattr(ctx, "method", "")), exc)) from None
    except MCPError as exc:
        gate = (exc.error.code, exc.error.message) == (types.INVALID_PARAMS, _SDK_INVALID_PARAMS)
        if not gate or getattr(ctx, "request_id", None) is None:
            raise
        raise MCPError(types.INVALID_PARAMS, NOT_INITIALIZED) from None


_SDK_INVALID_PARAMS = "Invalid request parameters"
"""The SDK's words for params that are not valid MCP, and for a request before `initialize` (raised as is)."""
NOT_INITIALIZED = (
    f"{_SDK_INVALID_PARAMS}: the session is not initialized; send initialize first (then notifications/initialized), "
    "and this request again"
)
"""What a request sent before `initialize` is answered (-32602, the SDK's code), where the SDK said its
params were invalid."""


def params_problem(method: str, exc: ValidationError) -> str:
    """One line saying where `exc` (the check of a request's params) found them wrong, and what is wrong."""
    errors = exc.errors(include_url=False) if exc.error_count() else []
    if not errors:
        return f"Invalid params for {shown_name(method)}"
    first = errors[0]
    loc = first["loc"][1:] if first["loc"][:1] == ("params",) else first["loc"]  # the request's: its params'
    where = ".".join(str(part) for part in loc) or "params"
    if first["type"] in ("dict_type", "model_type", "model_attributes_type"):
        wrong = f"{where} is {json_type(first['input'])}, not an object"
    else:
        wrong = f"{where}: {first['msg']}"
    return f"Invalid params for {shown_name(method)}: {cut(wrong, 200, '...')}"


def invalid_cursor(cursor: str) -> str:
    """The -32602 error's words for a `tools/list` cursor: the server gives none (one page holds every
    tool), so any is invalid; MCP has an invalid cursor answered so, where the whole list again read as a
    next page to a client paging with a cursor of another server's."""
    return (
        f"Invalid cursor {shown_name(cursor)!r}: this server lists every tool on one page and gives no cursor; "
        "list without one"
    )


CHANGED_ON_THE_WAY = (
    "[the tool's structured content was changed on the way here (cut, being too long, or a secret masked), so it "
    "no longer matches the tool's outputSchema and is not served; the text above is what is left]"
)
"""Said, in an error result, for a tool served again whose `outputSchema` its value no longer matches."""


def _check_text(keyword: str, value: Any, what: str, example: str, default: str) -> None:
    """`tools_server`'s `name` or `version`: a str, refused here otherwise."""
    if isinstance(value, str):
        return
    got = "None" if value is None else a_or_an(type(value).__name__)
    raise ToolDefinitionError(
        f"tools_server({keyword}={value!r:.40})",
        f"{keyword} is {what}, a str, and got {got}",
        f"give {example}, or leave it out ({default!r})",
    )


def _read_only(read_only: Any, served: dict[str, Tool]) -> set[str]:
    """`read_only` as a set of served tools' names. A str was read as its substrings (`"query_order"`
    flagged a tool `order` read-only, so a client could call it again after a timeout); a misspelt
    name left the tool it meant without its `readOnlyHint`. Both are refused."""
    if isinstance(read_only, str | bytes) or not isinstance(read_only, Iterable):
        raise ToolDefinitionError(
            f"tools_server(read_only={read_only!r:.60})",
            f"read_only takes a list of tool names, and got {a_or_an(type(read_only).__name__)}"
            + (", which would be read as its substrings" if isinstance(read_only, str) else ""),
            f"put the names in a list, e.g. read_only=[{read_only if isinstance(read_only, str) else 'name'!r}]",
        )
    names = list(read_only)
    unknown = [name for name in names if name not in served]
    if unknown:
        raise ToolDefinitionError(
            f"tools_server(read_only={names!r:.120})",
            f"read_only names {', '.join(map(repr, unknown))}, which it does not serve",
            f"name served tools only: {', '.join(served) or 'none'}",
        )
    return set(names)


def _served(source: Any) -> list[Any]:
    """A provider's tools (it is asked once, with an empty request); any other source as it is."""
    if callable(getattr(source, "provide", None)) and not isinstance(source, Tool):
        return list(provided(source, ProviderRequest(())))
    return [source]


_POLICIES = Policies(report_unknown_tool, report_argument_error, report_failure_only)
"""Every failure goes back as a result; a tool that raised is told as its exception alone
("ValueError: …"): the result belongs to that call, and a client (toolkit's included) adds
"Tool 'x' failed: " itself, so the model would read it twice."""


_DATA_URL = re.compile(r"data:([\w.+-]+/[\w.+-]+);base64,(.+)", re.DOTALL)


def _content(text: str, attributes: Mapping[str, Any], limit: int | None) -> list[types.ContentBlock]:
    """A result's blocks: its text (with U+FFFD for a lone surrogate, which the SDK cannot write), cut to
    `limit` characters; then each image of its `images` attribute (a data URL as an image, a link as a
    resource link); then the content a server marked for the user only (`for_user`, an MCP tool served
    again), with that audience, each cut so too."""
    blocks: list[types.ContentBlock] = [types.TextContent(text=unicode_text(cut_text(text, limit)))]
    for url in _strings(attributes.get(IMAGES)):
        if data := _DATA_URL.fullmatch(url):
            blocks.append(types.ImageContent(data=data.group(2), mime_type=data.group(1)))
        elif url.startswith(("http://", "https://")):
            blocks.append(types.ResourceLink(name="image", uri=url))
    user = types.Annotations(audience=["user"])
    for_user = _strings(attributes.get(FOR_USER))
    blocks += [types.TextContent(text=unicode_text(cut_text(t, limit)), annotations=user) for t in for_user]
    return blocks + _links(attributes.get(LINKS))


def _meta(value: Any) -> dict[str, Any] | None:
    """Another MCP server's result `_meta` (`mcp_meta`, without MCP's own keys), served again."""
    return dict(value) if isinstance(value, Mapping) and value else None


def _links(value: Any) -> list[types.ContentBlock]:
    """The resource links another MCP server's tool answered with (`resource_links`), as links again;
    an item that is no valid link is left out."""
    links: list[types.ContentBlock] = []
    for item in value if isinstance(value, list | tuple) else []:
        try:
            links.append(types.ResourceLink.model_validate(item, by_name=False))
        except ValidationError:
            continue
    return links


def _strings(value: Any) -> list[str]:
    """The str items of an attribute that holds a list of them (anything else: none)."""
    return [item for item in value if isinstance(item, str)] if isinstance(value, list | tuple) else []


async def _in_daemon_thread(
    tool: Tool, call: ToolCall, cutting: Cutting = DEFAULT_CUTTING
) -> tuple[str, bool, Mapping[str, Any]]:
    """`_execute(tool, call)` in a daemon thread of its own, awaited (cancellably). In anyio's
    worker threads, which are no daemons, a tool that never returned kept the process alive after
    its client had closed stdin (gone, or asking it to stop): the interpreter waits for them at
    exit. A call cancelled meanwhile (the client gave up on it) leaves its thread to finish alone."""
    done = anyio.Event()
    outcome: list[tuple[str, bool, Mapping[str, Any]]] = []
    failure: list[BaseException] = []
    token = anyio.lowlevel.current_token()
    context = contextvars.copy_context()  # as anyio's threads run it: the caller's context variables

    def run() -> None:
        try:
            outcome.append(context.run(_execute, tool, call, cutting))
        except BaseException as exc:  # noqa: BLE001 - raised where the call is awaited
            failure.append(exc)
        finally:
            with contextlib.suppress(RuntimeError):  # the server's loop has ended: nobody waits
                anyio.from_thread.run_sync(done.set, token=token)

    threading.Thread(target=run, name=f"mcp-tool-{tool.name}", daemon=True).start()
    await done.wait()
    if failure:
        raise failure[0]
    return outcome[0]


def _execute(tool: Tool, call: ToolCall, cutting: Cutting = DEFAULT_CUTTING) -> tuple[str, bool, Mapping[str, Any]]:
    """Run one call (in a worker thread): its text, whether it is an error, and its attributes. `SystemExit` or
    `KeyboardInterrupt` raised by the tool is its failure, worded as any other: let through, it
    would stop the event loop serving every client (in-process: the client's own loop)."""
    try:
        result = tool.run(call, None, _POLICIES, cutting).unwrap()
    except (SystemExit, KeyboardInterrupt) as exc:
        return describe_exception(exc), True, {}
    return result.content, result.is_error, result.attributes


def _mcp_tool(tool: Tool, read_only: bool) -> types.Tool:
    schema = tool.spec.parameters or {"type": "object", "properties": {}}
    title = tool.spec.metadata.get("mcp_title")  # another MCP server's tool's, kept by `toolkit.mcp.provider`
    return types.Tool(
        name=tool.name,
        title=title if isinstance(title, str) else None,
        icons=_icons(tool.spec.metadata.get("mcp_icons")) or None,
        description=_description(tool) or None,
        input_schema=schema,
        output_schema=_output_schema(tool),
        annotations=_annotations(tool, read_only),
        _meta={**_tool_meta(tool), CHECKED_BY_SERVER: True},  # the tool's executor checks its arguments
    )


def _icons(value: Any) -> list[types.Icon]:
    """Another MCP server's tool's icons (`mcp_icons`, kept by `toolkit.mcp.provider`), served again; an item
    that is no valid icon is left out."""
    icons: list[types.Icon] = []
    for item in value if isinstance(value, list | tuple) else []:
        try:
            icons.append(types.Icon.model_validate(item, by_name=False))
        except ValidationError:
            continue
    return icons


def _tool_meta(tool: Tool) -> dict[str, Any]:
    """Another MCP server's tool's `_meta` (`toolkit.mcp.provider` keeps it in `spec.metadata`), served again
    but for the keys MCP reserves (`reserved_key`), which belong to that server's session."""
    meta = tool.spec.metadata.get("_meta")
    if not isinstance(meta, Mapping):
        return {}
    return {key: value for key, value in meta.items() if isinstance(key, str) and not reserved_key(key)}


def _output_schema(tool: Tool) -> dict[str, Any] | None:
    """Another MCP server's tool's `outputSchema` (`toolkit.mcp.provider` keeps it in `spec.metadata`), served again."""
    schema = tool.spec.metadata.get("mcp_output_schema")
    return dict(schema) if isinstance(schema, Mapping) else None


def _description(tool: Tool) -> str:
    """The tool's description; another MCP server's whole, when it was cut for the model (`mcp_description`)."""
    whole = tool.spec.metadata.get("mcp_description")
    return whole if isinstance(whole, str) else tool.spec.description


def _annotations(tool: Tool, read_only: bool) -> types.ToolAnnotations | None:
    """The MCP annotations `tool` is served with: its own, when it has them (another MCP server's
    tool keeps them in `spec.metadata["annotations"]`, `toolkit.mcp.provider`: served again, it lost
    them, `readOnlyHint` and `idempotentHint` with them), and `readOnlyHint` when `read_only` names it."""
    given = tool.spec.metadata.get("annotations")
    hints = dict(given) if isinstance(given, Mapping) else {}
    if read_only:
        hints["readOnlyHint"] = True
    if not hints:
        return None
    names = [field.alias or name for name, field in types.ToolAnnotations.model_fields.items()]
    unknown = [key for key in hints if key not in names]
    if unknown:  # a misspelt name was dropped unsaid
        wrong = f"{cut(str(unknown[0]), 40, '...')}: not one of MCP's: {', '.join(names)}"
    else:
        try:  # strict: a hint read leniently was served so ("yes" and 1 as true)
            return types.ToolAnnotations.model_validate(hints, by_name=False, strict=True)
        except ValidationError as exc:
            first = exc.errors()[0]
            wrong = f"{'.'.join(map(str, first['loc']))}: {first['msg']}"
    raise ToolDefinitionError(
        f"tools_server: tool {tool.name!r}",
        f"its spec.metadata['annotations'] are not MCP's tool annotations ({wrong})",
        "give them as MCP names them, e.g. {'readOnlyHint': True}, or leave them out",
    )


def shop_server(today: datetime.date | None = None, max_result_chars: int | None = MAX_RESULT_CHARS) -> Server:
    """Week 3's `query_order`, `query_logistics`, `query_refund_policy` as an MCP server, each answer cut to
    `max_result_chars` characters (`tools_server`)."""
    from toolkit.course.assistant import shop_registry
    from toolkit.course.shop import load_shop

    tools = shop_registry(load_shop(today=today)).tools()
    return tools_server(tools, name="toolkit-shop", read_only=sorted(SHOP_READ_ONLY), max_result_chars=max_result_chars)


async def serve_stdio(server: Server) -> None:
    """Serve one client on this process's stdin/stdout until it closes them. Its lines are read
    here (`_stdin_claimed`, `_pass_on`), the SDK writes the answers. A line that is no JSON-RPC message is
    answered with JSON-RPC's error (`_unreadable_answer`), and so is a request whose id is no
    string or integer (`_invalid_id`): the SDK dropped both unanswered (the second read as a
    notification), so the client waited out its deadline. A client that stops reading (closes
    stdout) ends the session as one closing stdin does: it was an `ExceptionGroup` from the SDK's writer.
    Once stdin closes, the requests read before are answered first (`_Answers`), for up to
    `ANSWER_GRACE_S` s: a client writing its requests and closing stdin at once (`printf … |`) got
    a different few of its answers on each run."""
    from mcp.server.stdio import stdio_server

    broken = False
    with _stdin_claimed() as wire:
        try:
            async with stdio_server(stdin=anyio.wrap_file(io.StringIO())) as (unused, write):
                await unused.aclose()  # the SDK's reader of the empty stdin given to it: the wire is read here
                sender, inbox = anyio.create_memory_object_stream[Any](0)

                answers = _Answers(write)

                async def read_lines() -> None:
                    async with sender:
                        async for line in wire:
                            await _pass_on(line, sender, answers)
                        await answers.all_sent(ANSWER_GRACE_S)  # stdin closed: answer what was asked first

                async with anyio.create_task_group() as group:
                    group.start_soon(read_lines)
                    await server.run(inbox, answers, server.create_initialization_options())
        except* BrokenPipeError:  # the client closed its end of stdout: the session is over, as when stdin closes
            broken = True
    if broken:
        _drop_unread()


ANSWER_GRACE_S = 10.0
"""Seconds the server waits, once its client has closed stdin, for the answers to the requests it
read before: a tool that never returns must not keep it alive (the client's own shutdown ends it
sooner: MCP says it closes stdin, waits, then sends SIGTERM)."""


class _Answers:
    """The SDK's writer of the wire, noting which of the requests read are still unanswered."""

    def __init__(self, write: Any) -> None:
        self._write = write
        self._unanswered: set[str | int] = set()
        self._changed = anyio.Event()

    def __getattr__(self, name: str) -> Any:  # aclose() and the rest: the SDK's writer's own
        return getattr(self._write, name)

    async def __aenter__(self) -> _Answers:
        await self._write.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._write.__aexit__(*exc)

    def asked(self, message: Any) -> None:
        """`message` was passed on to the server: a request awaits its answer; a cancelled one none."""
        if isinstance(message, types.JSONRPCRequest):
            self._unanswered.add(message.id)
        elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
            self._settle((message.params or {}).get("requestId"))

    async def send(self, item: Any) -> None:
        await self._write.send(item)
        message = getattr(item, "message", None)
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            self._settle(message.id)

    def _settle(self, rid: Any) -> None:
        self._unanswered.discard(rid)
        self._changed.set()
        self._changed = anyio.Event()

    async def all_sent(self, seconds: float) -> None:
        """Return once every request read has its answer written, or after `seconds`."""
        with anyio.move_on_after(seconds):
            while self._unanswered:
                await self._changed.wait()


def _drop_unread() -> None:
    """Let go of the SDK's writer of the wire quietly, with the answers the client no longer reads:
    collected, it flushes them into the closed pipe, and Python (3.13) says "Exception ignored ...
    BrokenPipeError" on stderr, unasked. Any other unraisable error is still said."""
    said = sys.unraisablehook

    def quiet(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, BrokenPipeError):
            said(unraisable)

    sys.unraisablehook = quiet
    try:
        gc.collect()
    finally:
        sys.unraisablehook = said


@contextlib.contextmanager
def _stdin_claimed() -> Iterator[anyio.AsyncFile[str]]:
    """The client's lines, read from a duplicate of stdin (undecodable bytes as U+FFFD); stdin
    itself reads the null device meanwhile, so a served tool calling `input()` reads end of file,
    not the client's next message (as the SDK's own reader does). The duplicate is never closed: a
    worker thread may still wait on it. A `sys.stdin` that is no file (a test's) is read as it is."""
    try:
        backed = sys.stdin.buffer.fileno() == 0
    except (AttributeError, OSError, ValueError):
        backed = False
    if not backed:
        yield anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
        return
    wire = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        yield anyio.wrap_file(
            io.TextIOWrapper(os.fdopen(wire, "rb", closefd=False), encoding="utf-8", errors="replace")
        )
    finally:
        os.dup2(wire, 0)


async def _pass_on(line: str, sender: Any, write: _Answers) -> None:
    """One line of the client's: its message to the server, or JSON-RPC's error to the client."""
    from mcp.shared.message import SessionMessage

    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception as exc:  # noqa: BLE001 - as in the SDK's reader: a line that cannot be read is answered
        for answer in _unreadable_answers(exc):
            await write.send(SessionMessage(answer))
        return
    if isinstance(message, types.JSONRPCNotification) and (rid := _invalid_id(line)) is not None:
        what = f"Invalid Request: an id is a string or an integer, not {cut(rid, 40)}"
        await write.send(SessionMessage(_error(None, types.INVALID_REQUEST, what)))
        return
    write.asked(message)
    await sender.send(SessionMessage(message))


def _invalid_id(line: str) -> str | None:
    """The id of a line read as a notification, as JSON (None when it has none: it is one). The
    SDK reads `{"id": 2.5, "method": "ping"}` (or an id that is null, true, an object) as a
    notification, its id dropped; JSON-RPC makes it a request, to be answered."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):  # the SDK's parser read it: not met here
        return None
    if not isinstance(message, dict) or "id" not in message:
        return None
    return json.dumps(message["id"])  # escaped: an unpaired surrogate in it could not be written


BATCH = "Invalid Request: a batch (a JSON array) is not read: send each message on a line of its own"
"""The answer to each request of a batch (MCP has none since its 2025-06-18 version)."""


def _unreadable_answers(exc: Exception) -> list[types.JSONRPCError]:
    """The answers to a line the SDK could not read: one (`_unreadable_answer`), or for a batch one
    to each request in it, under its id, so that each fails at once (one with a null id told a
    client nothing of which had failed); a batch holding no request is answered once, to id null."""
    errors = exc.errors() if isinstance(exc, ValidationError) else []
    whole = next((e.get("input") for e in errors if len(e["loc"]) == 1), None)
    if not isinstance(whole, list):
        return [_unreadable_answer(exc)]
    ids: list[str | int | None] = [rid for rid in map(_request_id, whole) if rid is not None]
    return [_error(rid, types.INVALID_REQUEST, BATCH) for rid in ids or [None]]


def _unreadable_answer(exc: Exception) -> types.JSONRPCError:
    """JSON-RPC 2.0's answer to a line the SDK could not read: -32700 "Parse error" for a line
    that is not JSON (or holds what no JSON parser here reads, an unpaired surrogate, or nests
    deeper than Python's parser goes), -32600
    "Invalid Request" for JSON that is no JSON-RPC message. Its `id` is the request's when it
    can be read (so that request fails at once), else null, as the specification says."""
    errors = exc.errors() if isinstance(exc, ValidationError) else []
    line = next((e.get("input") for e in errors if e["type"] == "json_invalid"), None)
    if isinstance(line, str):
        try:
            message: Any = json.loads(line)  # Python reads an unpaired surrogate the SDK's parser refuses
        except ValueError:
            return _error(None, types.PARSE_ERROR, "Parse error: the line is not JSON")
        except RecursionError:  # nested deeper than Python's parser goes: it ended the server
            return _error(None, types.PARSE_ERROR, "Parse error: the line nests too deep to be read")
        what = "Parse error: it holds an unpaired surrogate or other text that is not Unicode"
        return _error(_request_id(message), types.PARSE_ERROR, what)
    whole = next((e.get("input") for e in errors if len(e["loc"]) == 1 or e["type"] == "missing"), None)
    what = "Invalid Request: not a JSON-RPC 2.0 message (an object with jsonrpc, id, method and params)"
    return _error(_request_id(whole), types.INVALID_REQUEST, what)


def _request_id(message: Any) -> str | int | None:
    rid = message.get("id") if isinstance(message, dict) else None
    return rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None


def _error(rid: str | int | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=rid, error=types.ErrorData(code=code, message=message))


def serve_http(server: Server, port: int) -> None:
    """Serve streamable HTTP on http://127.0.0.1:PORT/mcp until interrupted; port 0 is any free
    one. The socket is bound first, so the address printed is the one listened on (the real port,
    not 0) and a port that is taken is an `OSError` here, before any banner or uvicorn's log. A
    request's headers not whole 30 s after its connection opened are a 408 (`toolkit.gateway.header_wait`), and so
    is a body not whole 30 s after it began (`toolkit.gateway.body_wait`: a `Content-Length` larger than the bytes
    sent held the connection, and the SDK's task reading it, for ever)."""

    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    from toolkit.gateway import body_wait, header_wait
    from toolkit.gateway.server import listen  # the gateway's: TCP_NODELAY kept under asyncio too

    sock = listen("127.0.0.1", port)  # before the banner: a client that reads it and connects at once is queued
    try:
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
        print(f"MCP server {server.name!r} on {url}", file=sys.stderr, flush=True)
        http = header_wait.headers_timed(AutoHTTPProtocol, header_wait.HEADERS_TIMEOUT_S)  # no slowloris holds it
        app = body_wait.body_timed(server.streamable_http_app(), body_wait.BODY_TIMEOUT_S, late_body, _MOST_BODY)
        uvicorn.Server(uvicorn.Config(app, http=http, log_level="warning")).run(sockets=[sock])
    finally:
        sock.close()


def late_body(seconds: float) -> tuple[int, bytes, bytes]:
    """A body that did not arrive in time, answered as the SDK answers a request it cannot read: a JSON-RPC error."""
    text = (
        f"Invalid Request: the request body did not arrive whole within {seconds:g} s (a Content-Length or chunk "
        "size larger than the bytes sent?); send the whole body with the request"
    )
    error = {"jsonrpc": "2.0", "id": None, "error": {"code": types.INVALID_REQUEST, "message": text}}
    return 408, b"application/json", json.dumps(error).encode()


_MOST_BODY = 4 * 1024 * 1024
"""The bytes of a body read before the SDK sees it, at most (its own limit, `DEFAULT_MAX_REQUEST_BODY_SIZE`, answers
a longer one 413)."""
