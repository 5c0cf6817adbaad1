"""What a model is told of an MCP tool: its description, as long as a chat API takes."""


def test_a_long_tool_description_is_cut_to_what_a_chat_api_takes_and_kept_whole_in_metadata():
    """A server's tool described in 2,716 characters (wcgw's run 2,357) made every request of the run
    fail: "HTTP 400: Invalid 'tools[0].function.description': string too long. Expected a string with
    maximum length 1024" (OpenAI's limit, which the embedded gateway keeps too)."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from toolkit.chat.messages import UserMessage
    from toolkit.chat.switch import fake_client
    from toolkit.gateway.validate import MAX_DESCRIPTION
    from toolkit.loop.run import run_loop
    from toolkit.mcp.client import McpClient
    from toolkit.mcp.provider import MAX_DESCRIPTION_CHARS, McpToolProvider
    from toolkit.mcp.server import tools_server

    described = "Draw the chart. " + "Details. " * 300

    async def list_tools(ctx, params):
        return types.ListToolsResult(
            tools=[types.Tool(name="chart", description=described, input_schema={"type": "object"})]
        )

    async def call_tool(ctx, params):
        return types.CallToolResult(content=[types.TextContent(text="drawn")])

    assert MAX_DESCRIPTION_CHARS == MAX_DESCRIPTION
    with McpClient(Server("s", on_list_tools=list_tools, on_call_tool=call_tool), name="s") as client:
        provider = McpToolProvider([client])
        (chart,) = provider.provide()
        result = run_loop(fake_client(), [UserMessage(content="请调用 chart")], providers=[provider])
        with McpClient(tools_server([provider]), name="proxy") as proxy:  # served again: whole
            assert [t.description for t in proxy.list_tools()] == [described]
    assert len(chart.spec.description) == MAX_DESCRIPTION_CHARS and chart.spec.description.endswith("…")
    assert described.startswith(chart.spec.description[:-1])
    assert chart.spec.metadata["mcp_description"] == described
    assert result.finish == "answer"
