"""`python -m toolkit mcp-server`: week 3's tools over MCP answer exactly as they do locally —
the local registry is the reference, over the in-process client, stdio and HTTP."""

import datetime
import json
import sys

import pytest
from loopback import announced

from toolkit.chat.messages import ToolCall
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.course.assistant import TOOL_SPECS, messages_for, shop_registry
from toolkit.course.shop import load_shop
from toolkit.errors import McpError
from toolkit.loop.run import COURSE, run_loop
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider
from toolkit.mcp.schema import translate_schema
from toolkit.mcp.server import shop_server, tools_server
from toolkit.tools.execute import FEED_BACK_ALL

TODAY = datetime.date(2026, 10, 25)
SERVER = [sys.executable, "-m", "toolkit", "mcp-server", "--today", TODAY.isoformat()]
CALLS = [
    ("query_order", {"orderId": "SN202610200001"}),
    ("query_order", {"orderId": "订单号：ＳＮ２０２６１０２００００１"}),  # lenient in
    ("query_order", {"orderId": "SN999999999999"}),  # not found: prose
    ("query_order", {"orderId": "SN2026"}),  # strict out
    ("query_order", {"orderId": "SN202610200001", "refundAmount": 5}),  # intent drift
    ("query_order", {}),
    ("query_logistics", {"orderId": "sn-2026-1020-0001"}),
    ("query_refund_policy", {"category": "数码", "asOf": "2026年10月20日"}),
    ("query_refund_policy", {"category": "衣服"}),
]


@pytest.fixture(scope="module", params=["in-process", "stdio", "http"])
def shop_client(request):
    if request.param == "in-process":
        with McpClient(shop_server(TODAY), name="shop") as client:
            yield client
        return
    if request.param == "stdio":
        with McpClient.stdio(SERVER[0], SERVER[1:], name="shop") as client:
            yield client
        return
    with announced(SERVER + ["--http", "--port", "0"]) as (url, _), McpClient.http(url, name="shop") as client:
        yield client


def test_the_listed_tools_are_the_hand_written_specs_unchanged(shop_client):
    tools = {t.name: t for t in McpToolProvider([shop_client]).provide()}
    for spec in TOOL_SPECS:
        fn = spec["function"]
        assert tools[fn["name"]].spec.to_openai() == spec
        assert translate_schema(fn["parameters"]) == fn["parameters"]  # toolkit's dialect is a fixed point
        assert tools[fn["name"]].spec.metadata["annotations"] == {"readOnlyHint": True}


@pytest.mark.parametrize("name, arguments", CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CALLS)])
def test_every_call_answers_as_the_local_tool_does(shop_client, name, arguments):
    local = {t.name: t for t in shop_registry(load_shop(today=TODAY)).tools()}
    remote = {t.name: t for t in McpToolProvider([shop_client]).provide()}
    tool_call = ToolCall(id="c", name=name, arguments=json.dumps(arguments, ensure_ascii=False))
    expected = local[name].execute(tool_call, None, FEED_BACK_ALL)
    got = remote[name].execute(tool_call)
    assert got.is_error == expected.is_error
    prefix = f"Tool {name!r} failed: " if expected.is_error else ""
    assert got.content == prefix + expected.content


def test_an_unknown_tool_is_a_protocol_error(shop_client):
    with pytest.raises(McpError) as caught:
        shop_client.call_tool("refund_order", {})
    assert str(caught.value) == (
        "MCP server 'shop' answered with an error: Unknown tool: 'refund_order'. "
        "Available tools: query_order, query_logistics, query_refund_policy"
    )


def test_the_course_loop_over_mcp():
    model = ScriptedModel([call("query_logistics", orderId="SN202610200001"), "快递已到杭州。"])
    with McpClient(shop_server(TODAY), name="shop") as client:
        result = run_loop(
            model,
            messages_for("我的快递到哪了？SN202610200001", TODAY),
            providers=[McpToolProvider([client])],
            options=COURSE,
        )
    assert result.answer == "快递已到杭州。"
    assert "收件人：张*，138****5678" in result.new_messages[1].content


def test_any_toolkit_tools_can_be_served():
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import tools_from

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    with McpClient(tools_server(tools_from(add), name="math"), name="math") as client:
        remote = McpToolProvider([client]).provide()[0]
        assert remote.execute(ToolCall(id="c", name="add", arguments='{"a": 2, "b": "3"}')).content == "5"
        bad = remote.execute(ToolCall(id="c", name="add", arguments='{"a": 2}'))
    assert bad.is_error and "b: missing, expected an integer" in bad.content


def test_a_served_tool_that_raises_reads_failed_once_through_a_toolkit_client():
    """It read "Tool 'stock' failed: Tool 'stock' failed: ValueError: …": the server wrote the
    start and the client wrote it again. The server now sends the exception alone."""
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import tools_from

    @tool
    def stock(sku: str) -> int:
        """Units in stock."""
        raise ValueError(f"warehouse API refused key sk-{'a1' * 20}")

    with McpClient(tools_server(tools_from(stock), name="wh"), name="wh") as client:
        served = client.call_tool("stock", {"sku": "A"})
        remote = McpToolProvider([client]).provide()[0]
        failed = remote.execute(ToolCall(id="c", name="stock", arguments='{"sku": "A"}'))
    assert served.is_error and served.content[0].text == "ValueError: warehouse API refused key [REDACTED]"
    assert failed.is_error and failed.content == "Tool 'stock' failed: ValueError: warehouse API refused key [REDACTED]"


def test_tools_server_takes_tool_functions_as_tools_from_does():
    """`tools_server([add])` raised "AttributeError: 'function' object has no attribute 'name'"."""
    from toolkit.errors import ToolDefinitionError
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import tools_from

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    with McpClient(tools_server([add], name="math"), name="math") as client:
        assert client.call_tool("add", {"a": 2, "b": 3}).content[0].text == "5"
    with pytest.raises(ToolDefinitionError, match=r"^tools=test_mcp_server\..*add: tools= takes a list"):
        tools_server(add)  # type: ignore[arg-type]
    with pytest.raises(ToolDefinitionError, match=r"add: it is given twice"):
        tools_server(tools_from(add) + tools_from(add))


@pytest.mark.parametrize(
    "kwargs, text",
    [
        (
            {"tools": None},
            "tools_server(tools=None): tools_server serves a list of tools, and got None. Fix: give the tools to "
            "serve, e.g. tools_server([query_order])",
        ),
        (
            {"name": None},
            "tools_server(name=None): name is what clients call the server (its serverInfo), a str, and got None. "
            "Fix: give a word, e.g. name='shop', or leave it out ('toolkit')",
        ),
        (
            {"version": 1},
            "tools_server(version=1): version is the server's version its clients read, a str, and got an int. "
            "Fix: give it as text, e.g. version='1.0', or leave it out ('0.1.0')",
        ),
    ],
)
def test_tools_server_refuses_what_it_cannot_serve_where_it_is_given(kwargs, text):
    """tools_server(None) raised "TypeError: 'NoneType' object is not iterable"; a name or version
    that is no str was taken, and every client then failed to connect with "cannot reach MCP server:
    MCPError: Method not found", blaming the server's reachability for the caller's slip."""
    from toolkit.errors import ToolDefinitionError
    from toolkit.tools.decorator import tool

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    with pytest.raises(ToolDefinitionError) as raised:
        tools_server(**{"tools": [add], **kwargs})
    assert str(raised.value) == text


def test_an_unknown_tool_s_name_is_quoted_cut():
    """A client calling a tool named by a megabyte of text got that megabyte back in the error."""
    from toolkit.errors import NAME_SHOWN

    with McpClient(shop_server(TODAY), name="shop") as client:
        with pytest.raises(McpError) as caught:
            client.call_tool("q" * 1_000_000, {})
    shown = "q" * (NAME_SHOWN - 3) + "..."
    assert str(caught.value) == (
        f"MCP server 'shop' answered with an error: Unknown tool: {shown!r}. "
        "Available tools: query_order, query_logistics, query_refund_policy"
    )


PNG_URL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def test_a_served_tool_s_images_and_content_for_the_user_reach_the_client():
    """A served tool's result went out as its text alone: the images a toolkit tool returns (its
    `images` attribute, a chart) were lost on the way, and so was content another MCP server
    marked for the user only (served again, `for_user`). Now each image is an image block and that
    content a text block whose audience is ["user"]."""
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import ToolOutput, tools_from

    @tool
    def chart(city: str) -> ToolOutput:
        """Draw the city's sales."""
        return ToolOutput(f"{city}: drawn", {"images": [PNG_URL], "for_user": ["| month | sales |"]})

    with McpClient(tools_server(tools_from(chart), name="charts"), name="charts") as client:
        served = client.call_tool("chart", {"city": "Oslo"})
        remote = McpToolProvider([client], accepts_images=True).provide()[0]
        result = remote.execute(ToolCall(id="c", name="chart", arguments='{"city": "Oslo"}'))
    assert [block.type for block in served.content] == ["text", "image", "text"]
    assert served.content[2].annotations.audience == ["user"]
    assert (result.content, result.attributes) == (
        "Oslo: drawn\n[image (image/png) attached]",
        {"images": [PNG_URL], "for_user": ["| month | sales |"]},
    )


def test_a_served_tool_s_huge_result_is_cut_as_toolkit_s_client_cuts_it():
    """A served tool answering with 50 MB sent it all to the client, and a client that passes results
    on whole (the spec sets no limit) to its model. The text, and each text for the user, is cut to
    `max_result_chars` (`MAX_RESULT_CHARS` by default, as `McpToolProvider` reads), the line after it
    saying how long it was; None serves it whole."""
    from toolkit.mcp.provider import MAX_RESULT_CHARS
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import ToolOutput

    @tool
    def dump(n: int) -> ToolOutput:
        """The log's last n characters."""
        return ToolOutput("ab" * (n // 2), {"for_user": ["cd" * (n // 2)]})

    def texts(served, n):
        with McpClient(served, name="logs") as client:
            return [block.text for block in client.call_tool("dump", {"n": n}).content]

    note = "\n[cut here: the result has 12 characters, and only the first 5 are shown; if you need the rest, call the tool again for less at a time]"
    assert texts(tools_server([dump], max_result_chars=5), 12) == ["ababa" + note, "cdcdc" + note]
    assert texts(tools_server([dump], max_result_chars=None), 12) == ["ab" * 6, "cd" * 6]
    default = texts(tools_server([dump]), 2 * MAX_RESULT_CHARS)
    assert [len(text.partition("\n")[0]) for text in default] == [MAX_RESULT_CHARS] * 2


@pytest.mark.parametrize("limit", [None, 500])
def test_a_served_tool_s_huge_error_is_cut_at_the_server_s_limit_not_at_100_000(limit):
    """A served tool's handled error of 200,000 characters was cut inside `Tool.run` at 100,000 whatever the
    server's `max_result_chars`: served whole (None) it still arrived cut, and cut at 500 its note named
    100,152 characters, not the 200,000 there were."""
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import ToolOutput

    @tool
    def dump() -> ToolOutput:
        """The whole log, as an error."""
        return ToolOutput("e" * 200_000, is_error=True)

    with McpClient(tools_server([dump], max_result_chars=limit), name="logs") as client:
        (text,) = [block.text for block in client.call_tool("dump", {}).content]
    note = (
        "\n[cut here: the result has 200,000 characters, and only the first 500 are shown; if you need the rest, "
        "call the tool again for less at a time]"
    )
    assert text == ("e" * 200_000 if limit is None else "e" * 500 + note)


def test_tools_server_refuses_a_max_result_chars_that_is_no_count():
    from toolkit.errors import ToolDefinitionError
    from toolkit.tools.decorator import tool

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    with pytest.raises(ToolDefinitionError) as raised:
        tools_server([add], max_result_chars=0)
    assert str(raised.value) == (
        "tools_server(max_result_chars=0): max_result_chars is how many characters of a tool's result the model "
        "reads at most, a whole number above 0, or None for all of them. Fix: give one, e.g. max_result_chars=100_000"
    )


def test_a_client_asking_a_tools_only_server_for_resources_or_prompts_is_told_method_not_found():
    """The server declares tools alone; MCP has a request for a capability a server did not declare
    answered with JSON-RPC's -32601, which a stranger's client reads as "not offered" (not a crash)."""
    import anyio
    import mcp
    from mcp.shared.exceptions import MCPError

    async def ask():
        codes = {}
        async with mcp.Client(shop_server(TODAY)) as client:
            assert client.server_capabilities.resources is None and client.server_capabilities.prompts is None
            for name, request in (
                ("resources/list", client.list_resources()),
                ("resources/templates/list", client.list_resource_templates()),
                ("prompts/list", client.list_prompts()),
                ("prompts/get", client.get_prompt("p")),
            ):
                try:
                    await request
                except MCPError as exc:
                    codes[name] = (exc.code, exc.message)
            assert (await client.list_tools()).tools  # and the session goes on
        return codes

    assert anyio.run(ask) == dict.fromkeys(
        ["resources/list", "resources/templates/list", "prompts/list", "prompts/get"], (-32601, "Method not found")
    )


@pytest.mark.parametrize("cursor", ["x", ""])
def test_a_cursor_the_server_never_gave_is_invalid_params_not_the_first_page_again(cursor):
    """The server lists every tool on one page and gives no cursor; one it never gave was answered with the
    whole list again, where MCP has an invalid cursor answered with -32602 (a client paging with a cursor of
    another server's read the same tools as a next page)."""
    import anyio
    import mcp
    from mcp.shared.exceptions import MCPError

    async def ask():
        async with mcp.Client(shop_server(TODAY)) as client:
            with pytest.raises(MCPError) as caught:
                await client.list_tools(cursor=cursor, cache_mode="refresh")
            assert len((await client.list_tools()).tools) == len(TOOL_SPECS)  # no cursor: every tool
        return caught.value.code, caught.value.message

    assert anyio.run(ask) == (
        -32602,
        f"Invalid cursor {cursor!r}: this server lists every tool on one page and gives no cursor; list without one",
    )


async def _raw(server, requests, handshake=True):
    """`server`'s answers to `requests` (JSON-RPC objects without `jsonrpc`), sent after the handshake (or
    without one) over in-memory streams as a stranger's client writes them; each answer as JSON."""
    import anyio
    import mcp_types as types
    from mcp.shared.memory import create_client_server_memory_streams
    from mcp.shared.message import SessionMessage

    def message(data):
        return SessionMessage(types.jsonrpc_message_adapter.validate_python({"jsonrpc": "2.0", **data}, by_name=False))

    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    answers = []
    async with create_client_server_memory_streams() as ((read, write), server_streams):
        async with anyio.create_task_group() as group:
            group.start_soon(lambda: server.run(*server_streams, server.create_initialization_options()))
            for data in [{"id": 0, "method": "initialize", "params": hello}] * handshake + requests:
                await write.send(message(data))
                if data["id"]:
                    with anyio.fail_after(10):
                        answers.append((await read.receive()).message.model_dump(mode="json", exclude_none=True))
                else:
                    await read.receive()
                    await write.send(message({"method": "notifications/initialized"}))
            group.cancel_scope.cancel()
    return answers


def test_a_call_whose_params_are_not_valid_mcp_is_told_what_is_wrong_not_only_invalid_request_parameters():
    """A stranger's client sending `arguments` as the JSON text of an object (as a chat API hands them over),
    or no tool name, read "Invalid request parameters" with nothing more: the SDK keeps pydantic's words off
    the wire. The error now says where and what, in a line."""
    import anyio

    calls = [{"name": "query_order", "arguments": '{"orderId": "SN1"}'}, {"arguments": {}}, {"name": 5}]
    requests = [{"id": n, "method": "tools/call", "params": params} for n, params in enumerate(calls, 1)]
    assert [a["error"] for a in anyio.run(_raw, shop_server(TODAY), requests)] == [
        {"code": -32602, "message": "Invalid params for tools/call: arguments is a string, not an object"},
        {"code": -32602, "message": "Invalid params for tools/call: name: Field required"},
        {"code": -32602, "message": "Invalid params for tools/call: name: Input should be a valid string"},
    ]


UNINITIALIZED = (
    "Invalid request parameters: the session is not initialized; send initialize first (then "
    "notifications/initialized), and this request again"
)


def test_a_request_before_initialize_is_told_to_initialize_first_not_that_its_params_are_invalid():
    """A stranger's raw client that skipped `initialize` read "Invalid request parameters" for a `tools/list`
    with no params at all; `ping` is answered before it, as MCP allows."""
    import anyio

    requests = [{"id": 1, "method": "tools/list"}, {"id": 2, "method": "ping"}]
    assert anyio.run(_raw, shop_server(TODAY), requests, False) == [
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": UNINITIALIZED}},
        {"jsonrpc": "2.0", "id": 2, "result": {}},
    ]


def test_a_call_the_client_cancels_gets_no_late_answer_and_serving_goes_on():
    """MCP: a receiver of `notifications/cancelled` sends no response for that request. The tool's thread
    cannot be stopped from outside (a sync tool runs to its end, alone); what it returns is dropped, and the
    requests after it are answered, a ping while it still runs."""
    import threading

    import anyio
    import mcp_types as types
    from mcp.shared.memory import create_client_server_memory_streams
    from mcp.shared.message import SessionMessage

    from toolkit.tools.decorator import tool

    started, release, threads = threading.Event(), threading.Event(), []

    @tool
    def wait() -> str:
        """Wait until released."""
        threads.append(threading.current_thread())
        started.set()
        release.wait(30)
        return "late"

    def message(data):
        return SessionMessage(types.jsonrpc_message_adapter.validate_python({"jsonrpc": "2.0", **data}, by_name=False))

    async def run():
        server, answers = tools_server([wait]), []
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        async with create_client_server_memory_streams() as ((read, write), server_streams):
            async with anyio.create_task_group() as group:
                group.start_soon(lambda: server.run(*server_streams, server.create_initialization_options()))

                async def answer():
                    with anyio.fail_after(10):
                        answers.append((await read.receive()).message.model_dump(mode="json", exclude_none=True))

                await write.send(message({"id": 0, "method": "initialize", "params": hello}))
                await answer()
                await write.send(message({"method": "notifications/initialized"}))
                await write.send(message({"id": 1, "method": "tools/call", "params": {"name": "wait"}}))
                assert await anyio.to_thread.run_sync(started.wait, 10)
                await write.send(message({"method": "notifications/cancelled", "params": {"requestId": 1}}))
                await write.send(message({"id": 2, "method": "ping"}))
                await answer()
                release.set()
                await anyio.to_thread.run_sync(threads[0].join, 10)  # it returned: an answer would be on its way
                await write.send(message({"id": 3, "method": "ping"}))
                await answer()
                group.cancel_scope.cancel()
        return [a.get("id") for a in answers[1:]]

    try:
        assert anyio.run(run) == [2, 3]
    finally:
        release.set()
