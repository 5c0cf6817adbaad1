"""`tools_server` serves a provider's tools (`toolkit.mcp.server`): a wrapped provider, or another
MCP server's tools through `McpToolProvider`. A provider there used to be refused with
"StaticProvider has no @tool methods. Fix: decorate its tool methods with @tool"."""

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.loop.sources import StaticProvider
from toolkit.loop.wrappers import rename_tools
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider, reserved_key
from toolkit.mcp.schema import CHECKED_BY_SERVER
from toolkit.mcp.server import tools_server
from toolkit.tools.decorator import tool


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def test_a_wrapped_provider_s_tools_are_served_under_their_current_names():
    server = tools_server([rename_tools(StaticProvider([add]), {"add": "plus"})])
    with McpClient(server, name="calc") as client:
        assert [t.name for t in client.list_tools()] == ["plus"]
        assert client.call_tool("plus", {"a": 1, "b": 2}).content[0].text == "3"
        wrong = client.call_tool("plus", {"a": "x", "b": 2})
        assert wrong.is_error and wrong.content[0].text == (
            "Invalid arguments for tool 'plus':\n- a: got \"x\", expected an integer\nFix the arguments and call plus again."
        )


def test_another_mcp_server_s_tools_can_be_served_again():
    with McpClient(tools_server([add]), name="inner") as inner:
        with McpClient(tools_server([McpToolProvider([inner])]), name="proxy") as proxy:
            assert [t.name for t in proxy.list_tools()] == ["add"]
            assert proxy.call_tool("add", {"a": 2, "b": 2}).content[0].text == "4"


@tool
def stock(sku: str) -> int:
    """Units in stock."""
    return 3


def test_another_mcp_server_s_annotations_are_served_again():
    """Served again, a tool lost its MCP annotations (readOnlyHint, idempotentHint, title...): a
    client then told its model, after a timeout, not to call a read-only tool again."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    annotations = {"title": "Stock", "readOnlyHint": True, "idempotentHint": True, "openWorldHint": False}

    async def list_tools(ctx, params):
        schema = {"type": "object", "properties": {"sku": {"type": "string"}}}
        return types.ListToolsResult(
            tools=[types.Tool(name="stock", input_schema=schema, annotations=types.ToolAnnotations(**annotations))]
        )

    inner_server = Server("inner", on_list_tools=list_tools)
    with McpClient(inner_server, name="inner") as inner:
        served = tools_server([McpToolProvider([inner]), add], read_only=["add"])
        with McpClient(served, name="proxy") as proxy:
            listed = {t.name: t.annotations for t in proxy.list_tools()}
    assert listed["stock"] is not None and listed["stock"].model_dump(by_alias=True, exclude_none=True) == annotations
    assert listed["add"] is not None and listed["add"].model_dump(by_alias=True, exclude_none=True) == {
        "readOnlyHint": True
    }


@pytest.mark.parametrize(
    "annotations, wrong",
    [
        ({"readOnlyHint": "maybe"}, "readOnlyHint: Input should be a valid boolean"),
        ({"readOnlyHint": "yes"}, "readOnlyHint: Input should be a valid boolean"),  # was served as true
        ({"destructiveHint": 0}, "destructiveHint: Input should be a valid boolean"),  # was served as false
        (
            {"readOnly": True},
            "readOnly: not one of MCP's: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint",
        ),  # was dropped without a word
    ],
    ids=["maybe", "yes", "zero", "misspelt"],
)
def test_annotations_that_are_not_mcp_s_are_refused_where_the_server_is_made(annotations, wrong):
    """A hint that is no boolean was read leniently ("yes" and 1 served as true, 0 as false) and a misspelt
    name dropped without a word: the tool was served as read-only, or without the hint its author gave."""
    from toolkit.errors import ToolDefinitionError
    from toolkit.tools.execute import Tool
    from toolkit.tools.reflect import ToolSpec

    spec = ToolSpec(name="t", description="T.", parameters=None, metadata={"annotations": annotations})
    with pytest.raises(ToolDefinitionError) as raised:
        tools_server([Tool(spec, lambda call, context: "ok")])
    assert str(raised.value) == (
        f"tools_server: tool 't': its spec.metadata['annotations'] are not MCP's tool annotations ({wrong}). Fix: "
        "give them as MCP names them, e.g. {'readOnlyHint': True}, or leave them out"
    )


def _structured_server(result, output_schema=None):
    """An in-process server with one tool `orders` (of `output_schema`) answering every call with `result`."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        tool = types.Tool(name="orders", input_schema={"type": "object"}, output_schema=output_schema)
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx, params):
        return result

    return Server("inner", on_list_tools=list_tools, on_call_tool=call_tool)


def test_another_mcp_server_s_structured_content_is_served_again():
    """A wrapped server's `structuredContent` is kept on the result (`structured_content`), but served
    again it was dropped: a client of the proxy read 'Found 2 orders' and lost the orders behind it."""
    import mcp_types as types

    orders = {"orders": [{"id": 1, "total": 9.5}, {"id": 2, "total": 3}]}
    inner_result = types.CallToolResult(content=[types.TextContent(text="Found 2 orders")], structured_content=orders)
    with McpClient(_structured_server(inner_result), name="inner") as inner:
        with McpClient(tools_server([McpToolProvider([inner])]), name="proxy") as proxy:
            result = proxy.call_tool("orders", {})
    assert [block.text for block in result.content] == ["Found 2 orders"]
    assert result.structured_content == orders


def test_structured_content_kept_only_as_cut_text_is_not_served_as_structured_content():
    """A value past `max_result_chars` is kept as its JSON cut (a str): no JSON object to serve."""
    import mcp_types as types

    inner_result = types.CallToolResult(content=[types.TextContent(text="many")], structured_content={"n": "x" * 40})
    with McpClient(_structured_server(inner_result), name="inner") as inner:
        with McpClient(tools_server([McpToolProvider([inner], max_result_chars=20)]), name="proxy") as proxy:
            result = proxy.call_tool("orders", {})
    assert [block.text for block in result.content] == ["many"] and result.structured_content is None


def test_structured_content_without_blocks_is_served_again_too():
    """A result of structuredContent alone (`content: []`): the model read its JSON, and the value was
    not kept on the result, so code found it in one case as an attribute and in the other as text,
    and a proxy served the text alone."""
    import mcp_types as types

    inner_result = types.CallToolResult(content=[], structured_content={"orders": []})
    with McpClient(_structured_server(inner_result), name="inner") as inner:
        with McpClient(tools_server([McpToolProvider([inner])]), name="proxy") as proxy:
            result = proxy.call_tool("orders", {})
    assert [block.text for block in result.content] == ['{"orders": []}']
    assert result.structured_content == {"orders": []}


ORDERS_SCHEMA = {"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"]}


def test_another_mcp_server_s_output_schema_is_served_again_with_its_structured_content():
    """A wrapped tool's `outputSchema` was not served again, though its `structuredContent` was: a
    client of the proxy could not know the shape of the value, nor check it."""
    import mcp_types as types

    inner_result = types.CallToolResult(content=[types.TextContent(text="one")], structured_content={"n": "x"})
    with McpClient(_structured_server(inner_result, ORDERS_SCHEMA), name="inner") as inner:
        with McpClient(tools_server([McpToolProvider([inner])]), name="proxy") as proxy:
            (listed,) = proxy.list_tools()
            result = proxy.call_tool("orders", {})
    assert listed.output_schema == ORDERS_SCHEMA
    assert not result.is_error and result.structured_content == {"n": "x"}


def test_structured_content_cut_on_the_way_is_an_error_result_saying_so_when_its_tool_has_an_output_schema():
    """A value cut past `max_result_chars` no longer matches the tool's `outputSchema`: served as it
    is (or left out), every client of the proxy would refuse the answer; it is an error result,
    its text kept, saying why."""
    import mcp_types as types

    inner_result = types.CallToolResult(content=[types.TextContent(text="many")], structured_content={"n": "x" * 40})
    with McpClient(_structured_server(inner_result, ORDERS_SCHEMA), name="inner") as inner:
        with McpClient(tools_server([McpToolProvider([inner], max_result_chars=20)]), name="proxy") as proxy:
            result = proxy.call_tool("orders", {})
    assert result.is_error and result.structured_content is None
    assert [block.text for block in result.content] == [
        "many",
        "[the tool's structured content was changed on the way here (cut, being too long, or a secret masked), so "
        "it no longer matches the tool's outputSchema and is not served; the text above is what is left]",
    ]


def test_another_mcp_server_s_resource_links_are_served_again_as_links():
    """A wrapped tool's `resource_link` blocks (a file it wrote, a report to open) reached the proxy's
    clients only as the text naming them: the link, which a client can open or read, was lost."""
    import mcp_types as types

    link = types.ResourceLink(name="report", uri="file:///tmp/r.pdf", mime_type="application/pdf", title="Report")
    inner_result = types.CallToolResult(content=[types.TextContent(text="written"), link])
    with McpClient(_structured_server(inner_result), name="inner") as inner:
        (tool,) = McpToolProvider([inner]).provide()
        assert tool.execute(ToolCall(id="c", name="orders", arguments="{}")).attributes["resource_links"] == [
            {
                "type": "resource_link",
                "name": "report",
                "uri": "file:///tmp/r.pdf",
                "mimeType": "application/pdf",
                "title": "Report",
            }
        ]
        with McpClient(tools_server([tool]), name="proxy") as proxy:
            result = proxy.call_tool("orders", {})
    assert result.content[0].text.startswith("written\n[resource_link (report, file:///tmp/r.pdf")
    assert result.content[1:] == [link]


def test_structured_content_that_is_no_object_is_served_again_when_its_output_schema_says_so():
    """A 2026-07-28 tool may give a list as its `structuredContent` (its `outputSchema` an array): served
    again, it was said to be "changed on the way", an error, though it had come through whole."""
    import mcp_types as types

    schema = {"type": "array", "items": {"type": "integer"}}
    inner_result = types.CallToolResult(content=[types.TextContent(text="1, 2")], structured_content=[1, 2])
    with McpClient(_structured_server(inner_result, schema), name="inner") as inner:
        with McpClient(tools_server([McpToolProvider([inner])]), name="proxy") as proxy:
            result = proxy.call_tool("orders", {})
    assert not result.is_error and result.structured_content == [1, 2]
    assert [block.text for block in result.content] == ["1, 2"]


def test_another_mcp_server_s_tool_title_is_kept_and_served_again():
    """MCP's `title` (2025-06-18: the name a person reads, before `annotations.title`) was dropped:
    the spec's metadata had no trace of it, and served again the tool had none. It is kept in the
    metadata (`mcp_title`, never sent to the model) and served again."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        return types.ListToolsResult(
            tools=[
                types.Tool(name="stock", title="Stock level", input_schema={"type": "object"}),
                types.Tool(name="plain", input_schema={"type": "object"}),
            ]
        )

    with McpClient(Server("inner", on_list_tools=list_tools), name="inner") as inner:
        provider = McpToolProvider([inner])
        metadata = {t.name: t.spec.metadata for t in provider.provide()}
        with McpClient(tools_server([provider]), name="proxy") as proxy:
            titles = {t.name: t.title for t in proxy.list_tools()}
    assert metadata["stock"]["mcp_title"] == "Stock level" and "mcp_title" not in metadata["plain"]
    assert titles == {"stock": "Stock level", "plain": None}


def test_a_result_s_meta_is_kept_beside_what_the_model_reads_and_served_again_without_mcp_s_own_keys():
    """A result's `_meta` (what a server tells its client beside the content: a widget's state, a
    trace id) was dropped: code could not read it, and served again the result had none. It is kept
    in the result's `mcp_meta` attribute (never sent to the model) and served again, but for the keys
    MCP reserves (`io.modelcontextprotocol/…`), which belong to the inner server's session (the SDK
    stamps each 2026-07-28 result with its `serverInfo`)."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    meta = {"openai/widgetState": {"n": 1}, "io.modelcontextprotocol/related-task": {"taskId": "t1"}}

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name="stock", input_schema={"type": "object"})])

    async def call_tool(ctx, params):
        return types.CallToolResult(content=[types.TextContent(text="3 left")], _meta=meta)

    with McpClient(Server("inner", on_list_tools=list_tools, on_call_tool=call_tool), name="inner") as inner:
        provider = McpToolProvider([inner])
        (got,) = provider.provide()
        result = got.execute(ToolCall(id="c", name="stock", arguments="{}"))
        with McpClient(tools_server([provider]), name="proxy") as proxy:
            served = proxy.call_tool("stock", {})
    assert (result.content, result.attributes) == ("3 left", {"mcp_meta": {"openai/widgetState": {"n": 1}}})
    assert "io.modelcontextprotocol/related-task" not in served.meta  # the proxy's SDK stamps its own serverInfo
    assert {key: value for key, value in served.meta.items() if not reserved_key(key)} == {
        "openai/widgetState": {"n": 1}
    }


def test_another_mcp_server_s_tool_meta_is_served_again():
    """A tool's `_meta` (an app's widget template, a server's own hints) was kept in the spec's metadata
    but served again with toolkit's own key alone: a client of the proxy lost it."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        meta = {"openai/outputTemplate": "ui://widget/stock.html", "io.modelcontextprotocol/x": 1}
        return types.ListToolsResult(tools=[types.Tool(name="stock", input_schema={"type": "object"}, _meta=meta)])

    with McpClient(Server("inner", on_list_tools=list_tools), name="inner") as inner:
        with McpClient(tools_server([McpToolProvider([inner])]), name="proxy") as proxy:
            (listed,) = proxy.list_tools()
    assert listed.meta == {"openai/outputTemplate": "ui://widget/stock.html", CHECKED_BY_SERVER: True}
