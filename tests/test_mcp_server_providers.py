"""`tools_server` serves a provider's tools (`toolkit.mcp.server`): a wrapped provider, or another
MCP server's tools through `McpToolProvider`. A provider there used to be refused with
"StaticProvider has no @tool methods. Fix: decorate its tool methods with @tool"."""

from toolkit.loop.sources import StaticProvider
from toolkit.loop.wrappers import rename_tools
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider
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
