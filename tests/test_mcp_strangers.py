"""`toolkit.mcp` against stdio servers nobody here would write (`mcp_servers/stranger_server.py`):
tool lists the SDK refuses, results of every kind, junk on stdout, servers that never answer."""

import sys
from pathlib import Path

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider

STRANGER = str(Path(__file__).parent / "mcp_servers" / "stranger_server.py")


@pytest.fixture
def stranger(request):
    """A client of the stranger server in the mode given by `@pytest.mark.parametrize("stranger", [MODE])`."""
    with McpClient.stdio(sys.executable, [STRANGER, request.param], name=request.param, request_timeout=5) as client:
        yield client


def _run(tools: dict, name: str, arguments: str = '{"x": "a"}'):
    return tools[name].execute(ToolCall(id="c1", name=name, arguments=arguments))


def _fix(name: str, what: str) -> str:
    return (
        f"MCP tool {name!r} of server 'names': its listing is not valid MCP ({what}); an inputSchema is a JSON "
        'Schema object with "type": "object" ({"type": "object"} for no arguments). Ask its author to fix it'
    )


@pytest.mark.parametrize("stranger", ["names"], indirect=True)
def test_a_tool_the_sdk_cannot_read_is_left_out_alone_and_the_others_are_offered(stranger):
    """One tool without an `inputSchema` made the SDK refuse the whole page: the server was left
    out ("4 validation errors for ListToolsResult"), its good tools with it, and no tool named."""
    provider = McpToolProvider([stranger])
    tools = {t.name: t for t in provider.provide()}
    assert list(tools) == [
        "twice",
        "with_space",
        "a_b_c",
        "u67e5u8be2u8ba2u5355",
        "n" * 55 + "_4f6da822",
        "refs",
        "one_of",
        "good",
    ]
    assert provider.left_out == {
        "names: no_schema": _fix("no_schema", "inputSchema: Field required"),
        "names: schema_list": _fix("schema_list", "inputSchema is an array, not an object"),
        "names: schema_string": _fix("schema_string", "inputSchema is a string, not an object"),
        "names: schema_array_type": _fix("schema_array_type", "inputSchema.type: Input should be 'object'"),
        "names: twice (listed again)": "MCP server 'names' lists a tool named 'twice' 2 times; only the first is offered",
    }
    assert not provider.partial
    assert [_run(tools, name).content for name in ("good", "with_space", "n" * 55 + "_4f6da822")] == [
        "ok good",
        "ok with space",
        "ok " + "n" * 200,
    ]
