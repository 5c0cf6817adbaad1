"""MCP tool names as the model sees them (`toolkit.mcp.provider`): a valid name is the tool's own
whatever the listing order, and an error text that names the tool as the server knows it tells
the model the name it must call (a wire name, or one given by `rename_tools`)."""

import json

import mcp_types as types
import pytest
from mcp.server.lowlevel import Server

from toolkit.chat.messages import ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import run_loop
from toolkit.loop.wrappers import rename_tools
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider, wire_names
from toolkit.tools.execute import FEED_BACK_ALL

TAKES_X = {"type": "object", "properties": {"x": {"type": "string"}}}


def _server(names):
    """Lists `names`; `fail*` report `isError` naming the tool, `gone` is a JSON-RPC error naming it."""

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name=n, input_schema=TAKES_X) for n in names])

    async def call_tool(ctx, params):
        if params.name.startswith("fail"):
            text = f"Error executing tool {params.name}: 1 validation error for {params.name}Arguments"
            return types.CallToolResult(content=[types.TextContent(text=text)], is_error=True)
        if params.name == "search":
            return types.CallToolResult(content=[types.TextContent(text="nothing found")], is_error=True)
        if params.name == "gone":
            from mcp.shared.exceptions import MCPError

            raise MCPError(-32602, f"Unknown tool: {params.name}")
        return types.CallToolResult(
            content=[types.TextContent(text=f"ran {params.name} {json.dumps(params.arguments)}")]
        )

    return Server("names", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def test_a_valid_name_is_the_tool_s_own_whatever_the_order():
    """With `files.read` listed first, it took `files_read` and the tool really called that became
    `files_read_2`: the same call reached another tool depending on the listing order."""
    for names in (["files.read", "files_read"], ["files_read", "files.read"]):
        assert wire_names(names) == {"files_read": "files_read", "files.read": "files_read_2"}
        with McpClient(_server(names), name="s") as client:
            tools = {t.name: t for t in McpToolProvider([client]).provide()}
            assert tools["files_read"].spec.metadata["mcp_name"] == "files_read"
            assert tools["files_read_2"].spec.metadata["mcp_name"] == "files.read"


def test_a_made_name_steps_around_every_valid_name():
    assert wire_names(["a.b", "a_b_2", "a_b"]) == {"a_b_2": "a_b_2", "a_b": "a_b", "a.b": "a_b_3"}


@pytest.mark.parametrize(
    "names", [["a b", "a.b", "a_b_2"], ["a.b", "a_b_2", "a b"], ["a_b_2", "a b", "a.b"]], ids=["1", "2", "3"]
)
def test_made_names_that_meet_do_not_swap_when_the_server_lists_them_in_another_order(names):
    """`a.b` listed before `a b` took `a_b`, after it `a_b_2`: a server listing its tools in another order
    (a map's order, its tools listed anew) had a resumed conversation's `a_b` call the other tool."""
    assert wire_names(names) == {"a_b_2": "a_b_2", "a b": "a_b", "a.b": "a_b_3"}


def _tool_text(provider, name, arguments="{}"):
    model = ScriptedModel([call(name, arguments), "done"])
    result = run_loop(
        model, [UserMessage(content="?")], providers=[provider], options=LoopOptions(policies=FEED_BACK_ALL)
    )
    found = next(m for m in result.new_messages if isinstance(m, ToolResultMessage))
    assert found.is_error
    return found.content


@pytest.mark.parametrize(
    "wrap, called, text",
    [
        (
            lambda p: rename_tools(p, {"fail_order": "order"}),
            "order",
            "Tool 'order' failed: Error executing tool fail_order: 1 validation error for fail_orderArguments\n"
            "(The server calls this tool 'fail_order'; call it as 'order'.)",
        ),
        (
            lambda p: p,
            "fail_x-y",
            "Tool 'fail_x-y' failed: Error executing tool fail.x-y: 1 validation error for fail.x-yArguments\n"
            "(The server calls this tool 'fail.x-y'; call it as 'fail_x-y'.)",
        ),
        (
            lambda p: rename_tools(p, {"gone": "vanished"}),
            "vanished",
            "Tool 'vanished' failed: MCP server 'names' answered with an error: Unknown tool: gone\n"
            "(The server calls this tool 'gone'; call it as 'vanished'.)",
        ),
    ],
    ids=["renamed", "wire-name", "json-rpc-error"],
)
def test_an_error_naming_the_server_s_name_tells_the_model_the_name_to_call(wrap, called, text):
    """The model read "Error executing tool fail_order", a name it was never offered."""
    with McpClient(_server(["fail_order", "fail.x-y", "gone", "search"]), name="names") as client:
        assert _tool_text(wrap(McpToolProvider([client])), called) == text
        # no note when the model calls the server's own name, or when the text does not name the tool
        assert _tool_text(McpToolProvider([client]), "fail_order") == (
            "Tool 'fail_order' failed: Error executing tool fail_order: 1 validation error for fail_orderArguments"
        )
        assert _tool_text(rename_tools(McpToolProvider([client]), {"search": "find"}), "find") == (
            "Tool 'find' failed: nothing found"
        )


def _checked_output_server():
    """`s` promises structured output and breaks the promise; `t` fails with a text in which
    its one-letter name is only inside words."""
    shape = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}

    async def list_tools(ctx, params):
        return types.ListToolsResult(
            tools=[
                types.Tool(name="s", input_schema=TAKES_X, output_schema=shape),
                types.Tool(name="t", input_schema=TAKES_X),
            ]
        )

    async def call_tool(ctx, params):
        if params.name == "s":
            return types.CallToolResult(content=[], structured_content={"n": "many"})
        return types.CallToolResult(content=[types.TextContent(text="the stock tally is out")], is_error=True)

    return Server("checked", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def test_the_sdk_s_own_error_naming_the_server_s_name_gets_the_note_and_words_do_not():
    """The SDK checks structured content against the output schema; the error names the tool as the
    server does ("tool 's' answered with…"); a name inside a word is no mention."""
    with McpClient(_checked_output_server(), name="checked") as client:
        provider = rename_tools(McpToolProvider([client]), {"s": "stock", "t": "tally"})
        text = _tool_text(provider, "stock")
        assert text == (
            "Tool 'stock' failed: MCP server 'checked' broke the protocol: tool 's' answered with structured content "
            "that does not match its outputSchema ('many' is not of type 'integer', at n); the call ran, but its "
            "result cannot be used\n(The server calls this tool 's'; call it as 'stock'.)"
        )
        assert _tool_text(provider, "tally") == "Tool 'tally' failed: the stock tally is out"


def test_a_made_name_steps_around_the_names_of_the_provider_s_other_servers():
    """Wire names were made per server: `files.read` on one server became `files_read`, the name of
    another server's own tool, and every run failed before its first request ("tool name 'files_read'
    is defined twice"), a clash toolkit itself had made. A made name now steps around every name the
    provider's servers offer; each call still reaches its own server, under the name it knows."""
    with (
        McpClient(_server(["files.read", "a/b"]), name="one") as one,
        McpClient(_server(["files_read", "a.b"]), name="two") as two,
    ):
        tools = {t.name: t for t in McpToolProvider([one, two]).provide()}
        assert {name: (t.spec.metadata["mcp_server"], t.spec.metadata["mcp_name"]) for name, t in tools.items()} == {
            "files_read_2": ("one", "files.read"),
            "a_b": ("one", "a/b"),
            "files_read": ("two", "files_read"),
            "a_b_2": ("two", "a.b"),
        }
        model = ScriptedModel([call("files_read_2", {"x": "1"}), call("a_b_2", {"x": "2"}), "done"])
        result = run_loop(model, [UserMessage(content="go")], providers=[McpToolProvider([one, two])])
    ran = [m.content for m in result.messages if isinstance(m, ToolResultMessage)]
    assert ran == ['ran files.read {"x": "1"}', 'ran a.b {"x": "2"}']


def test_the_tools_offered_under_another_name_are_listed_and_said_once(caplog):
    """A name with a space, in Chinese or of 200 characters was offered under a made name in silence:
    a learner reading the trace found tools the server never listed. `renamed` lists them, and one
    line says so, once per client and set of names, whatever the provider (the other names are offered as
    they are; a notebook making several providers over one client read it again and again). At INFO,
    a learner never saw it (Python shows WARNING and above unless told otherwise): it is a WARNING."""
    import logging

    names = ["get weather", "get_weather", "天气", "x" * 200, "a.b", "ok"]
    with caplog.at_level(logging.INFO, logger="toolkit.mcp"):
        with McpClient(_server(names), name="names") as client:
            provider = McpToolProvider([client])
            offered = [t.name for t in provider.provide()]
            provider.provide()
            McpToolProvider([client]).provide()  # another provider over the same client: told already
    long_name = "x" * 55 + "_" + f"{__import__('zlib').crc32(b'x' * 200):08x}"
    assert offered == ["get_weather_2", "get_weather", "u5929u6c14", long_name, "a_b", "ok"]
    assert provider.renamed == {
        "names: get weather": "get_weather_2",
        "names: 天气": "u5929u6c14",
        f"names: {'x' * 200}": long_name,
        "names: a.b": "a_b",
    }
    assert [r.levelname for r in caplog.records if r.name == "toolkit.mcp"] == ["WARNING"]  # a learner sees it
    assert [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"] == [
        "MCP server 'names' names 4 tools the chat API does not take (it takes ^[A-Za-z0-9_-]{1,64}$); the model "
        f"calls 'get weather' as 'get_weather_2', '天气' as 'u5929u6c14', '{'x' * 37}...' as '{long_name}' and 1 "
        "more (provider.renamed lists them)"
    ]
