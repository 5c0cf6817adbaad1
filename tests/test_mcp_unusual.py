"""`toolkit.mcp` against unusual in-process servers: the SDK's low-level `Server`, its answers changed
on the way by a relay (`tests.test_mcp_modern.tampered`) where no SDK server would send them."""

import contextlib

import anyio
import pytest

from tests.test_mcp_modern import tampered
from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError, McpConnectionError, McpError
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider


def _server(tools=None, answer=None):
    """A low-level server listing `tools` (name → inputSchema; one tool `t` by default) and answering
    each call with `answer(params)` (the arguments as text by default)."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        listed = tools or {"t": {"type": "object"}}
        return types.ListToolsResult(tools=[types.Tool(name=n, input_schema=s) for n, s in listed.items()])

    async def call_tool(ctx, params):
        if answer is not None:
            return answer(params)
        return types.CallToolResult(content=[types.TextContent(text=f"ok {params.arguments}")])

    return Server("odd", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def _listing(change):
    def tamper(data):
        tools = data.get("result", {}).get("tools")
        if tools is not None:
            change(tools)

    return tamper


def _schema(schema):
    return _listing(lambda tools: tools[0].update(inputSchema=schema))


def test_a_root_input_schema_without_object_type_is_offered_as_an_object_and_its_calls_still_checked():
    """A root `inputSchema` without `"type"` (`{}`, or only `properties`), or with `["object", "null"]`
    (written by servers in other SDKs, by hand), made the tool left out ("inputSchema.type: Field
    required"), though its meaning is plain: the arguments are an object. It is offered as one."""
    cases = [
        ({}, None, "{}", "ok {}"),
        ({"properties": {"q": {"type": "string"}}, "required": ["q"]}, "string", '{"q": "x"}', "ok {'q': 'x'}"),
        (
            {"type": ["object", "null"], "properties": {"q": {"type": "string"}}, "required": ["q"]},
            "string",
            '{"q": "x"}',
            "ok {'q': 'x'}",
        ),
    ]
    for schema, q_type, arguments, text in cases:
        with McpClient(tampered(_server(), _schema(schema)), name="odd") as client:
            provider = McpToolProvider([client])
            (tool,) = provider.provide()
            assert provider.left_out == {}
            parameters = tool.spec.parameters
            if q_type is None:
                assert parameters is None
            else:
                assert parameters == {"type": "object", "properties": {"q": {"type": q_type}}, "required": ["q"]}
                with pytest.raises(ArgumentError, match="- q: missing, expected a string"):
                    tool.execute(ToolCall(id="c", name="t", arguments="{}"))
            assert tool.execute(ToolCall(id="c", name="t", arguments=arguments)).content == text


def test_a_tool_gone_between_list_and_call_is_no_longer_offered_after_the_server_says_so():
    """A server that removed a tool without `notifications/tools/list_changed` answers a call to it
    with -32602 (unknown tool, as MCP says); the tool list stayed cached, so the model was offered
    the gone tool, and not the new one, turn after turn. Such an answer empties the cache."""
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    offered = ["a", "b"]

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name=n, input_schema={"type": "object"}) for n in offered])

    async def call_tool(ctx, params):
        if params.name not in offered:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        return types.CallToolResult(content=[types.TextContent(text="ok")])

    with McpClient(Server("s", version="1", on_list_tools=list_tools, on_call_tool=call_tool), name="s") as client:
        provider = McpToolProvider([client])
        tools = {t.name: t for t in provider.provide()}
        offered[:] = ["b", "c"]
        assert tools["b"].execute(ToolCall(id="c", name="b", arguments="{}")).content == "ok"
        assert [t.name for t in provider.provide()] == ["a", "b"]  # cached: nothing said it changed
        gone = tools["a"].execute(ToolCall(id="c", name="a", arguments="{}"))
        assert gone.is_error and gone.content == (
            "Tool 'a' failed: MCP server 's' answered with an error: Unknown tool: a. MCP server 's' no longer offers "
            "this tool (its tools changed after they were offered): do not call it again"
        )
        assert [t.name for t in provider.provide()] == ["b", "c"]


def test_an_answer_with_another_request_s_id_over_a_caller_s_transport_fails_the_call_at_once():
    """Over a transport of the caller's (streams, as a websocket or a test gives them), answers were
    not matched to requests as over stdio and HTTP: a call answered under an id no request waits
    for waited out its whole deadline, though the server had answered at once."""
    import time

    calls = []

    def tamper(data):
        if "content" in data.get("result", {}):
            calls.append(data["id"])
            if len(calls) == 1:
                data["id"] = 424242

    with McpClient(tampered(_server(), tamper), name="odd", request_timeout=60) as client:
        client.list_tools()
        started = time.monotonic()
        with pytest.raises(McpError) as raised:
            client.call_tool("t", {})
        assert time.monotonic() - started < 30  # not the 60 s deadline
        assert str(raised.value) == (
            "MCP server 'odd' broke the protocol: it sent an answer with id 424242, the id of no request waiting "
            "for an answer; a server answers each request with that request's id"
        )
        assert client.call_tool("t", {}).content[0].text == "ok {}"


def test_a_tool_whose_listing_is_nested_too_deep_for_the_sdk_is_left_out_alone():
    """An `inputSchema` nested thousands of levels deep made the SDK's check of the page raise
    `ValueError: Maximum serialization depth exceeded`, which no one caught: `provide()` raised
    it, and every server's tools were lost with the one bad tool."""
    deep = {"type": "string"}
    for _ in range(3000):
        deep = {"type": "object", "properties": {"a": deep}}
    server = _server(tools={"t": {"type": "object"}, "u": {"type": "object"}})
    with McpClient(tampered(server, _schema(deep)), name="odd") as client:
        provider = McpToolProvider([client])
        assert [t.name for t in provider.provide()] == ["u"]
    assert provider.left_out == {
        "odd: t": "MCP tool 't' of server 'odd': its listing cannot be read (ValueError: Maximum serialization "
        "depth exceeded); ask its author to fix it"
    }


def test_a_client_whose_listing_fails_unforeseen_costs_its_own_tools_alone():
    """A listing that failed with anything but an `McpError` (a defect in an SDK or a stand-in
    client, a transport's own exception) was raised out of `provide()`: every server's tools were
    lost with the one failing server's."""

    class Broken:
        name = "broken"

        def list_tools(self, timeout=None):
            raise TypeError("'NoneType' object is not subscriptable")

        def evict_tool_list_cache(self):
            pass

    with McpClient(_server(), name="odd") as good:
        provider = McpToolProvider([Broken(), good])
        assert [t.name for t in provider.provide()] == ["t"]
    assert provider.left_out == {
        "broken": "MCP server 'broken' could not be listed: TypeError: 'NoneType' object is not subscriptable (left "
        "out for 60 s, then tried again)"
    }


def test_an_error_result_keeps_its_structured_content_and_user_blocks_and_the_proxy_serves_them_again():
    """A result with `isError: true` and `structuredContent` (the machine-readable error: a code, the
    valid values) lost the value: the failed result had no attributes, so code and a view could not
    read it, and `tools_server` served the tool again without it; a block for the user only was lost
    the same way. The model reads the blocks (as for a success); the rest stays on the result."""
    import mcp_types as types

    from toolkit.mcp.server import tools_server

    def answer(params):
        return types.CallToolResult(
            content=[
                types.TextContent(text="no such sku"),
                types.TextContent(text="| sku | stock |", annotations=types.Annotations(audience=["user"])),
            ],
            is_error=True,
            structured_content={"error": "unknown_sku", "valid": ["A1", "B2"]},
        )

    with McpClient(_server(answer=answer), name="odd") as client:
        (tool,) = McpToolProvider([client]).provide()
        got = tool.execute(ToolCall(id="c", name="t", arguments="{}"))
        assert (got.is_error, got.content) == (True, "Tool 't' failed: no such sku")
        assert got.attributes == {
            "structured_content": {"error": "unknown_sku", "valid": ["A1", "B2"]},
            "for_user": ["| sku | stock |"],
        }
        with McpClient(tools_server([tool]), name="proxy") as proxy:
            served = proxy.call_tool("t", {})
    assert served.is_error and served.structured_content == {"error": "unknown_sku", "valid": ["A1", "B2"]}
    assert [(b.text, b.annotations and b.annotations.audience) for b in served.content] == [
        ("no such sku", None),
        ("| sku | stock |", ["user"]),
    ]


@contextlib.asynccontextmanager
async def _relayed(server, on_answer, on_request):
    """A transport to `server` where `on_answer(data)` changes each answer's JSON and `on_request(data)`
    each request's (as the server reads them): a server of another SDK, or written by hand."""
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    def changed(item, change):
        data = item.message.model_dump(by_alias=True, mode="json", exclude_none=True)
        change(data)
        return SessionMessage(types.jsonrpc_message_adapter.validate_python(data, by_name=False))

    client_writes, requests = anyio.create_memory_object_stream(100)
    to_server, server_reads = anyio.create_memory_object_stream(100)
    server_writes, answers = anyio.create_memory_object_stream(100)
    to_client, client_reads = anyio.create_memory_object_stream(100)

    async def forward(source, sink, kind, change):
        async for item in source:
            await sink.send(changed(item, change) if isinstance(item.message, kind) else item)

    async with anyio.create_task_group() as group:
        group.start_soon(lambda: server.run(server_reads, server_writes, server.create_initialization_options()))
        group.start_soon(forward, requests, to_server, types.JSONRPCRequest, on_request)
        group.start_soon(forward, answers, to_client, types.JSONRPCResponse, on_answer)
        try:
            yield client_reads, client_writes
        finally:
            group.cancel_scope.cancel()


@pytest.mark.parametrize(
    ("cursor", "tools", "cut"),
    [
        (7, ["a", "b"], ""),  # a number: given back as it came, the next page read
        ("", ["a"], ""),  # an empty one, or null: the last page
        (None, ["a"], ""),
        (
            1.5,
            ["a"],
            "MCP server 'odd' answered tools/list with a nextCursor that is 1.5, where MCP's cursor is a string "
            "(or a whole number, given back as it came); the tools on later pages cannot be asked for, and are not offered",
        ),
        (
            {"page": 2},
            ["a"],
            "MCP server 'odd' answered tools/list with a nextCursor that is {\"page\": 2}, where MCP's cursor is a "
            "string (or a whole number, given back as it came); the tools on later pages cannot be asked for, and are not "
            "offered",
        ),
    ],
)
def test_a_next_cursor_that_is_no_string_costs_at_most_the_later_pages(cursor, tools, cut):
    """MCP's cursor is an opaque string; a server of another SDK or written by hand paginated with a
    number (an offset), and the SDK refused the whole page: every tool of the server was left out
    ("nextCursor: Input should be a valid string"). A number is given back as it came (the server
    reads its own token), and any other value ends the listing there, the tools read kept and the
    provider saying what the later pages cost."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    asked = []

    async def list_tools(ctx, params):
        given = params.cursor if params is not None else None
        asked.append(given)
        name, after = ("a", "NEXT") if given is None else ("b", None)
        return types.ListToolsResult(tools=[types.Tool(name=name, input_schema={"type": "object"})], next_cursor=after)

    def on_answer(data):
        if data.get("result", {}).get("nextCursor") == "NEXT":
            data["result"]["nextCursor"] = cursor

    def on_request(data):
        params = data.get("params") or {}
        if "cursor" in params:
            sent.append(params["cursor"])
            params["cursor"] = "read"  # what this server reads; its own SDK checks for a string

    sent = []
    server = Server("odd", version="1", on_list_tools=list_tools)
    with McpClient(_relayed(server, on_answer, on_request), name="odd") as client:
        provider = McpToolProvider([client])
        assert [t.name for t in provider.provide()] == tools
        assert client.listing_cut == cut
    assert sent == ([cursor] if len(tools) == 2 else [])
    assert provider.left_out == ({"odd: (later pages)": cut} if cut else {})


@pytest.mark.parametrize(
    ("extra", "dropped", "why"),
    [
        ({"annotations": "read-only"}, "annotations", "annotations is a string, not an object"),
        (
            {"annotations": {"readOnlyHint": True, "title": 5}},
            "annotations",
            "annotations.title: Input should be a valid string",
        ),
        ({"title": 5, "icons": "x.png"}, "icons, title", "icons: Input should be a valid list"),
        (
            {"execution": {"taskSupport": "preferred"}},
            "execution",
            "execution.taskSupport: Input should be 'forbidden', 'optional' or 'required'",
        ),
    ],
)
def test_a_tool_whose_display_or_hint_fields_are_not_valid_mcp_is_offered_without_them(extra, dropped, why):
    """A `title`, `icons`, `annotations` or `execution` that is not valid MCP (a title that is a number,
    a hint of a later version) cost the whole tool ("its listing is not valid MCP"), though nothing a
    call needs was wrong. The tool is offered without them (no hint read: a timeout is then not said to
    be safe to repeat), and `left_out` says what was dropped."""
    server = _server(tools={"t": {"type": "object", "properties": {"q": {"type": "string"}}}})
    with McpClient(tampered(server, _listing(lambda tools: tools[0].update(extra))), name="odd") as client:
        provider = McpToolProvider([client])
        (tool,) = provider.provide()
        assert "annotations" not in tool.spec.metadata and "mcp_title" not in tool.spec.metadata
        assert tool.execute(ToolCall(id="c", name="t", arguments='{"q": "x"}')).content == "ok {'q': 'x'}"
    assert provider.left_out == {
        f"odd: t ({dropped})": f"MCP tool 't' of server 'odd': its {dropped.replace(', ', ' and ')} "
        f"{'fields are' if ',' in dropped else 'field is'} not "
        f"valid MCP ({why}); the tool is offered without {'them' if ',' in dropped else 'it'}. Ask its author to fix it"
    }


@pytest.mark.parametrize(
    ("asked", "what"),
    [
        ("elicit", "elicitation (a question put to the user)"),
        ("sample", "sampling (a completion from the client's own model)"),
        ("roots", "roots (the folders the client shares)"),
    ],
)
def test_a_server_asking_for_input_this_client_does_not_give_is_told_so_not_blamed(asked, what):
    """A server asking during a call for elicitation, sampling or roots (MCP 2026-07-28's
    `InputRequiredResult`), which this client declares no capability for, was reported as the server's
    own error ("MCP server 'm' answered with an error: Elicitation not supported"): the SDK's default
    callback refused it here. It now says what the server asked for and that this client does not give it."""
    import mcp_types as types

    requests = {
        "elicit": lambda: types.ElicitRequest(
            params=types.ElicitRequestFormParams(message="name?", requested_schema={"type": "object", "properties": {}})
        ),
        "sample": lambda: types.CreateMessageRequest(
            params=types.CreateMessageRequestParams(
                messages=[types.SamplingMessage(role="user", content=types.TextContent(text="hi"))], max_tokens=5
            )
        ),
        "roots": lambda: types.ListRootsRequest(),
    }

    def answer(params):
        return types.InputRequiredResult(input_requests={"k": requests[asked]()})

    with McpClient(_server(answer=answer), name="odd") as client:
        (tool,) = McpToolProvider([client]).provide()
        got = tool.execute(ToolCall(id="c", name="t", arguments="{}"))
    assert (got.is_error, got.content) == (
        True,
        f"Tool 't' failed: MCP server 'odd' asked this client during the request for {what}, which this client "
        "does not give (it declares no such capability), so the request did not finish; the tool needs an MCP "
        "client that supports it",
    )


def _result(change):
    def tamper(data):
        if "content" in data.get("result", {}):
            change(data["result"])

    return tamper


@pytest.mark.parametrize(
    ("block", "wrong"),
    [
        ({"type": "image", "data": 5, "mimeType": "image/png"}, "content.0.data: Input should be a valid string"),
        ({"type": "audio", "data": "AAAA"}, "content.0.mimeType: Field required"),
        ({"type": "resource_link", "uri": "file:///a"}, "content.0.name: Field required"),
        ({"type": "text", "text": 5}, "content.0.text: Input should be a valid string"),
    ],
)
def test_a_broken_block_is_named_by_what_is_wrong_with_it_not_by_another_block_type(block, wrong):
    """A broken image block (its data a number) was reported as "content.0.type: Input should be 'text'":
    the first of the errors of every block type the SDK tried, about a type the block never claimed.
    The error now is the one of the block type it says it is."""
    with McpClient(tampered(_server(), _result(lambda r: r.update(content=[block]))), name="odd") as client:
        with pytest.raises(McpError) as raised:
            client.call_tool("t", {})
    assert str(raised.value) == f"MCP server 'odd' broke the protocol: its answer is not valid MCP ({wrong})"


def test_an_error_result_s_image_is_passed_on_when_the_model_accepts_images():
    """A failed call's image (a screenshot of the page a click failed on) was described to a model that
    accepts images as "not passed on: this chat model does not accept images", which was not true, and
    was not passed on. An error result now passes its images on as a success's does."""
    import mcp_types as types

    png = "iVBORw0KGgo="

    def answer(params):
        blocks = [types.TextContent(text="could not click"), types.ImageContent(data=png, mime_type="image/png")]
        return types.CallToolResult(content=blocks, is_error=True)

    with McpClient(_server(answer=answer), name="odd") as client:
        (tool,) = McpToolProvider([client], accepts_images=True).provide()
        got = tool.execute(ToolCall(id="c", name="t", arguments="{}"))
    assert (got.is_error, got.content) == (True, "Tool 't' failed: could not click\n[image (image/png) attached]")
    assert got.attributes == {"images": [f"data:image/png;base64,{png}"]}


@contextlib.asynccontextmanager
async def _by_hand(on_call, version="2025-06-18"):
    """A 2025-06-18 server written by hand over JSON-RPC messages (no SDK server): it answers
    `initialize` and `tools/list` (one tool `t`), refuses other requests as unknown (the client's
    `server/discover` first), and hands each `tools/call` to `on_call(id, send, answers)` (`send` takes a
    message's dict, or the exception the SDK's stdio reader passes on for a line it cannot read), where
    `answers[id]` receives the client's answer to a request the server sent with that id."""
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    def message(data):
        return SessionMessage(types.jsonrpc_message_adapter.validate_python({"jsonrpc": "2.0", **data}, by_name=False))

    to_server, requests = anyio.create_memory_object_stream(100)
    to_client, answers_read = anyio.create_memory_object_stream(100)
    answers = {}

    async def send(data):  # an exception: what the SDK's stdio reader passes on for a line it cannot read
        await to_client.send(data if isinstance(data, Exception) else message(data))

    async def serve(group):
        async for item in requests:
            data = item.message.model_dump(by_alias=True, mode="json", exclude_none=True)
            method, rid = data.get("method"), data.get("id")
            if method == "initialize":
                info = {"name": "hand", "version": "1"}
                await send(
                    {
                        "id": rid,
                        "result": {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": info},
                    }
                )
            elif method == "tools/list":
                await send({"id": rid, "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}})
            elif method == "tools/call":
                group.start_soon(on_call, rid, send, answers)  # its own task: it may wait for the client's answer
            elif method is None and rid in answers:
                await answers.pop(rid).send(data)
            elif method is not None and rid is not None:
                await send({"id": rid, "error": {"code": -32601, "message": "Method not found"}})

    async with anyio.create_task_group() as group:
        group.start_soon(serve, group)
        try:
            yield answers_read, to_server
        finally:
            group.cancel_scope.cancel()


def test_a_2025_server_asking_for_elicitation_during_a_call_is_refused_and_its_error_says_what_it_asked():
    """Over a 2025-06-18 connection the server sends `elicitation/create` to the client itself. This
    client declares no elicitation: the SDK answers -32600 "Elicitation not supported" at once (no
    wait), and a server that answers the call with that error is read as asking for what this client
    does not give, not as failing on its own."""

    async def on_call(rid, send, answers):
        answers["e1"], answered = anyio.create_memory_object_stream(1)
        params = {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {}}}
        await send({"id": "e1", "method": "elicitation/create", "params": params})
        refusal = await answered.receive()
        await send({"id": rid, "error": refusal["error"]})

    with McpClient(_by_hand(on_call), name="hand", request_timeout=10) as client:
        with pytest.raises(McpError) as raised:
            client.call_tool("t", {})
    assert str(raised.value) == (
        "MCP server 'hand' asked this client during the request for elicitation (a question put to the user), "
        "which this client does not give (it declares no such capability), so the request did not finish; the "
        "tool needs an MCP client that supports it"
    )


def test_a_result_whose_meta_is_no_object_is_read_without_it():
    """A result whose `_meta` is no object (a list, a string: metadata the model never reads) made the SDK
    refuse the whole answer ("_meta: Input should be a valid dictionary"): the call had run, and what it
    answered was lost. The `_meta` is dropped and the rest read."""
    change = _result(lambda r: r.update(_meta=["trace", 1]))
    with McpClient(tampered(_server(), change), name="odd") as client:
        (tool,) = McpToolProvider([client]).provide()
        got = tool.execute(ToolCall(id="c", name="t", arguments="{}"))
    assert (got.is_error, got.content, got.attributes) == (False, "ok {}", {})


def test_a_server_answering_initialize_in_2026_07_28_is_not_said_to_speak_a_version_this_client_lacks():
    """A server that refused `server/discover` and then answered `initialize` in 2026-07-28 was said to
    answer "in MCP protocol version '2026-07-28', which this client does not speak", though this client
    speaks it: that version has no `initialize`, and the server mixed the two handshakes."""

    async def on_call(rid, send, answers):
        await send({"id": rid, "result": {"content": []}})

    with pytest.raises(McpConnectionError) as raised:
        McpClient(_by_hand(on_call, version="2026-07-28"), name="hand", connect_timeout=5).connect()
    assert str(raised.value) == (
        "cannot reach MCP server 'hand': it answered initialize in MCP protocol version '2026-07-28', which has no "
        "initialize handshake (a 2026-07-28 server answers server/discover, which this client sent first, without a "
        "usable answer); "
        "the server mixes two versions' handshakes: it may be set to 2025-11-25 or older"
    )


def test_a_tool_whose_input_schema_is_past_the_cap_is_left_out_in_one_line_naming_it(caplog, monkeypatch):
    """A stranger's 5 MB `inputSchema` was kept and sent to the model with every request (and took
    seconds to translate, each time it changed). Past `MAX_SCHEMA_CHARS` characters of JSON (100,000;
    2,000 here), as given or once its pointers' targets are copied into `$defs` (1,618 → 3,168), the
    tool is left out; the others stay."""
    import logging

    import toolkit.mcp.schema

    assert toolkit.mcp.schema.MAX_SCHEMA_CHARS == 100_000
    monkeypatch.setattr(toolkit.mcp.schema, "MAX_SCHEMA_CHARS", 2000)
    wide = {"type": "object", "properties": {f"w{i}": {"type": "string", "description": "x" * 90} for i in range(20)}}
    body = {"type": "object", "properties": {f"c{i}": {"type": "string"} for i in range(55)}}
    copied = {"type": "object", "properties": {"a": body, **{f"b{i}": {"$ref": "#/properties/a"} for i in range(2)}}}
    tools = {"wide": wide, "copied": copied, "t": {"type": "object", "properties": {"q": {"type": "string"}}}}
    with caplog.at_level(logging.WARNING, logger="toolkit.mcp"):
        with McpClient(_server(tools), name="odd") as client:
            provider = McpToolProvider([client])
            assert [tool.name for tool in provider.provide()] == ["t"]

    def said(name, size):
        return (
            f"MCP tool {name!r} of server 'odd': its inputSchema takes {size:,} characters of JSON, past the "
            "2,000 a tool may send the model with every request; it is not offered (ask its author for a shorter "
            "schema)"
        )

    assert provider.left_out == {"odd: wide": said("wide", 2_744), "odd: copied": said("copied", 3_168)}
    assert [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"] == [
        f"MCP tool {name!r} of server 'odd' left out: {provider.left_out[f'odd: {name}']}"
        for name in ("wide", "copied")
    ]
