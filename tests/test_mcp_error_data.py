"""A server's JSON-RPC error answer keeps its `data`, short and masked, for the model to fix its call."""

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.errors import McpError
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider

TAKES_X = {"type": "object", "properties": {"x": {"type": "string"}}}


def _failing_server(message, data):
    """An in-process server whose tool `t` answers every call with the JSON-RPC error -32602 `message`, `data`."""
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name="t", input_schema=TAKES_X)])

    async def call_tool(ctx, params):
        raise MCPError(types.INVALID_PARAMS, message, data)

    return Server("v", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def _said(message, data):
    with McpClient(_failing_server(message, data), name="v") as client:
        with pytest.raises(McpError) as caught:
            client.call_tool("t", {"x": "a"})
    return str(caught.value)


HEAD = "MCP server 'v' answered with an error: "


@pytest.mark.parametrize(
    "message, data, said",
    [
        (
            "Invalid params",
            {"errors": [{"path": "/x", "message": "must match pattern ^[A-Z]{3}$"}]},
            'Invalid params (its data: {"errors": [{"path": "/x", "message": "must match pattern ^[A-Z]{3}$"}]})',
        ),
        (
            "Invalid params",
            "x must be an ISO 4217 code, e.g. EUR",
            "Invalid params (x must be an ISO 4217 code, e.g. EUR)",
        ),
        ("", ["x"], 'code -32602, without a message (its data: ["x"])'),
        ("Invalid params", None, "Invalid params"),
        ("Invalid params", "  ", "Invalid params"),
        ("Invalid params", {}, "Invalid params"),
        ("Unknown currency: XYZ", "Unknown currency: XYZ", "Unknown currency: XYZ"),
        ("Invalid params", 42, "Invalid params (its data: 42)"),
    ],
    ids=["object", "text", "blank-message", "none", "blank", "empty", "repeats-message", "number"],
)
def test_an_error_answer_keeps_what_its_data_says(message, data, said):
    """JSON-RPC's `error.data` (a validator's list of what was wrong, the valid values) was dropped:
    the model read "Invalid params" and nothing it could fix its call with."""
    assert _said(message, data) == HEAD + said


def test_an_error_answer_s_data_is_one_short_masked_line_without_its_traceback():
    """A server's data is a stranger's: a traceback with its paths, a password, megabytes. What
    the model reads of it is one line of at most 300 characters, its secrets masked."""
    data = {
        "traceback": 'Traceback (most recent call last):\n  File "/srv/app.py", line 3\nValueError: x',
        "password": "hunter2",
        "detail": "bad x\nsee docs",
        "rows": list(range(10_000)),
    }
    said = _said("Invalid params", data)
    assert said.startswith(HEAD + 'Invalid params (its data: {"password": "[REDACTED]", "detail": "bad x\\nsee docs", ')
    assert said.endswith("…)") and len(said) == len(HEAD + "Invalid params (its data: )") + 300
    assert "hunter2" not in said and "/srv" not in said and "\n" not in said
    text = _said("Invalid params", 'Traceback (most recent call last):\n  File "/srv/app.py", line 3\nValueError: x')
    assert text == HEAD + "Invalid params (ValueError: x)"


def test_the_model_reads_the_data_in_its_error_result():
    with McpClient(_failing_server("Invalid params", {"allowed": ["EUR", "USD"]}), name="v") as client:
        tools = {t.name: t for t in McpToolProvider([client]).provide()}
        result = tools["t"].execute(ToolCall(id="c", name="t", arguments='{"x": "XYZ"}'))
    assert result.is_error and result.content == (
        "Tool 't' failed: MCP server 'v' answered with an error: Invalid params (its data: "
        '{"allowed": ["EUR", "USD"]})'
    )
