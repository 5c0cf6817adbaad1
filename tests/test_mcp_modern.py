"""`toolkit.mcp` against a 2026-07-28 server (`server/discover`, no handshake) that sends what no SDK
server may: an in-process SDK server whose answers a relay changes on the way (`tampered`)."""

import contextlib

import anyio
import pytest

from toolkit.chat.messages import ToolCall
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider


def _server():
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name="good", input_schema={"type": "object"})])

    async def call_tool(ctx, params):
        return types.CallToolResult(content=[types.TextContent(text="ok")])

    return Server("modern", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


@contextlib.asynccontextmanager
async def tampered(server, tamper):
    """A transport to `server` (over JSON-RPC messages, as on a wire) where `tamper(data)` changes each
    answer's JSON before the client reads it."""
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    to_server, server_reads = anyio.create_memory_object_stream(100)
    server_writes, relay_reads = anyio.create_memory_object_stream(100)
    to_client, client_reads = anyio.create_memory_object_stream(100)

    async def relay():
        async for item in relay_reads:
            if isinstance(item.message, types.JSONRPCResponse):
                data = item.message.model_dump(by_alias=True, mode="json", exclude_none=True)
                tamper(data)
                item = SessionMessage(types.jsonrpc_message_adapter.validate_python(data, by_name=False))
            await to_client.send(item)

    async with anyio.create_task_group() as group:
        group.start_soon(lambda: server.run(server_reads, server_writes, server.create_initialization_options()))
        group.start_soon(relay)
        try:
            yield client_reads, to_server
        finally:
            group.cancel_scope.cancel()


def _with_tool(tool):
    def tamper(data):
        tools = data.get("result", {}).get("tools")
        if tools is not None:
            tools.append(tool)

    return tamper


def test_one_unreadable_tool_of_a_2026_server_costs_that_tool_alone():
    """The tools of a page the SDK refused were read one by one, each as a page of its own: a
    2026-07-28 page must say `resultType`, `ttlMs` and `cacheScope`, which that page of one lacked,
    so every tool failed ("its listing is not valid MCP (the tool: Field required)"), and the
    server's good tools were left out with the bad one."""
    bad = {"name": "bad", "inputSchema": {"type": "array"}}
    with McpClient(tampered(_server(), _with_tool(bad)), name="modern") as client:
        provider = McpToolProvider([client])
        tools = provider.provide()
        assert [t.name for t in tools] == ["good"]
        assert tools[0].execute(ToolCall(id="c", name="good", arguments="{}")).content == "ok"
    assert provider.left_out == {
        "modern: bad": "MCP tool 'bad' of server 'modern': its listing is not valid MCP (inputSchema.type: Input "
        'should be \'object\'); an inputSchema is a JSON Schema object with "type": "object" ({"type": "object"} '
        "for no "
        "arguments). Ask its author to fix it"
    }


@pytest.mark.parametrize("hint", ["yes", 1, "false"])
def test_a_hint_that_is_no_boolean_is_not_read_as_one_and_the_tool_is_offered_without_its_annotations(hint):
    """The SDK read `"readOnlyHint": "yes"` (or 1, "on") as true: a tool whose hints are not MCP's booleans was
    kept as read-only, and a call past its deadline told the model calling it again is safe."""
    odd = {"name": "odd", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": hint, "title": "Odd"}}
    with McpClient(tampered(_server(), _with_tool(odd)), name="modern") as client:
        provider = McpToolProvider([client])
        tools = {t.name: t for t in provider.provide()}
        assert list(tools) == ["good", "odd"] and "annotations" not in tools["odd"].spec.metadata
    assert provider.left_out == {
        "modern: odd (annotations)": "MCP tool 'odd' of server 'modern': its annotations field is not valid MCP "
        "(annotations.readOnlyHint: Input should be a valid boolean); the tool is offered without it. Ask its "
        "author to fix it"
    }


def test_a_hostile_title_is_kept_as_one_short_line():
    """A title of a megabyte (or of many lines) was kept whole in the tool's metadata, and served so again by
    `tools_server`: what a person reads as the tool's name is one line, cut."""
    title = "Find\norders\t" + "x" * 1_000_000
    odd = {"name": "odd", "title": title, "inputSchema": {"type": "object"}, "annotations": {"title": title}}
    with McpClient(tampered(_server(), _with_tool(odd)), name="modern") as client:
        metadata = {t.name: t for t in McpToolProvider([client]).provide()}["odd"].spec.metadata
    shown = "Find orders " + "x" * 187 + "…"
    assert (metadata["mcp_title"], metadata["annotations"]) == (shown, {"title": shown})


def test_a_tool_s_icons_are_kept_for_a_person_and_served_again_and_a_hostile_one_is_not():
    """A tool's `icons` were dropped: no view, and no client of `tools_server` serving the tool again, could
    show them. Kept now, but an icon whose `src` is no https URL nor an image's data URI (`javascript:`,
    `file:`), or that takes more than `MAX_ICON_CHARS`, is not."""
    import mcp

    from toolkit.mcp.provider import MAX_ICON_CHARS
    from toolkit.mcp.server import tools_server

    good = [
        {"src": "https://example.com/i.png", "mimeType": "image/png", "sizes": ["48x48"]},
        {"src": "data:image/png;base64,AAAA"},
    ]
    bad = [
        {"src": "javascript:alert(1)"},
        {"src": "file:///etc/passwd"},
        {"src": "data:image/png;base64," + "A" * MAX_ICON_CHARS},
    ]
    odd = {"name": "odd", "inputSchema": {"type": "object"}, "icons": [bad[0], good[0], *bad[1:], good[1]]}
    with McpClient(tampered(_server(), _with_tool(odd)), name="modern") as client:
        tools = {t.name: t for t in McpToolProvider([client]).provide()}

        async def served():
            async with mcp.Client(tools_server([tools["odd"]])) as again:
                return [
                    i.model_dump(by_alias=True, exclude_none=True) for i in (await again.list_tools()).tools[0].icons
                ]

        assert tools["odd"].spec.metadata["mcp_icons"] == good and anyio.run(served) == good
    assert "mcp_icons" not in tools["good"].spec.metadata


def test_a_tool_s_huge_meta_is_not_kept_and_that_is_said_in_one_line():
    """A tool's `_meta` of a megabyte was kept whole in its metadata (and served so again by `tools_server`)."""
    from toolkit.mcp.provider import MAX_META_CHARS

    odd = {"name": "odd", "inputSchema": {"type": "object"}, "_meta": {"k": "v" * MAX_META_CHARS}}
    small = {"name": "small", "inputSchema": {"type": "object"}, "_meta": {"k": "v"}}
    with McpClient(
        tampered(_server(), lambda data: _with_tool(odd)(data) or _with_tool(small)(data)), name="modern"
    ) as client:
        provider = McpToolProvider([client])
        tools = {t.name: t for t in provider.provide()}
    assert "_meta" not in tools["odd"].spec.metadata and tools["small"].spec.metadata["_meta"] == {"k": "v"}
    assert provider.left_out == {
        "modern: odd (_meta)": f"MCP tool 'odd' of server 'modern': its _meta takes {MAX_META_CHARS + 9:,} "
        f"characters of JSON, more than MAX_META_CHARS ({MAX_META_CHARS:,}); the tool is offered without it"
    }


def _on_call(change):
    def tamper(data):
        result = data.get("result", {})
        if "content" in result:
            change(result)

    return tamper


def _called(change, **settings):
    with McpClient(tampered(_server(), _on_call(change)), name="modern") as client:
        tools = {t.name: t for t in McpToolProvider([client], **settings).provide()}
        return tools["good"].execute(ToolCall(id="c", name="good", arguments="{}"))


def test_a_content_block_of_a_type_the_sdk_does_not_know_is_named_and_the_rest_is_read():
    """A block of a type the SDK has no model for (a later MCP version's, a server's own) made it
    refuse the whole answer: "broke the protocol: ValidationError: 13 validation errors for
    union[CallToolResult, …]", and the text beside it was lost, though the call ran."""
    video = {"type": "video", "uri": "https://example.com/v.mp4"}
    result = _called(lambda r: r.update(content=[video, {"type": "text", "text": "see the clip"}, {"type": " "}]))
    assert not result.is_error and result.content == (
        "[video content not shown: a content type this client does not read]\nsee the clip\n"
        "[blank content not shown: a content type this client does not read]"
    )


def test_an_answer_a_2026_server_breaks_is_said_without_the_sdk_s_union_of_models():
    """A 2026-07-28 answer is read as one of several models: the error read "ValidationError: 13
    validation errors for union[CallToolResult,function-after[_require_one_field(), InputRequiredResult]]
    (CallToolResult.content.0.TextContent.text: Field required)"."""
    result = _called(lambda r: r.update(content=[{"type": "text"}]))
    assert result.is_error and result.content == (
        "Tool 'good' failed: MCP server 'modern' broke the protocol: its answer is not valid MCP "
        "(content.0.text: Field required)"
    )
    result = _called(lambda r: r.update(content=None))
    assert result.content == (
        "Tool 'good' failed: MCP server 'modern' broke the protocol: its answer is not valid MCP "
        "(content: Input should be a valid list)"
    )
