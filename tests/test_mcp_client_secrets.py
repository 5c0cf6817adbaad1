"""`toolkit.mcp.client`: the credentials of an MCP server's URL never show in its name or errors."""

import socket

import pytest

from toolkit.errors import McpConnectionError
from toolkit.mcp.client import McpClient


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_url_server_is_named_without_its_credentials():
    url = f"http://learner:pw-s3cret-42@127.0.0.1:{_closed_port()}/mcp?token=tok-abcdef-99&v=1"
    client = McpClient(url, connect_timeout=5)
    assert "pw-s3cret-42" not in client.name and "tok-abcdef-99" not in client.name
    with pytest.raises(McpConnectionError) as raised:
        client.list_tools()
    text = str(raised.value)
    assert text.startswith("cannot reach MCP server 'http://learner:***@127.0.0.1:")
    assert "/mcp?token=***&v=1'" in text
    assert "pw-s3cret-42" not in text and "tok-abcdef-99" not in text


def test_a_name_given_explicitly_is_kept():
    assert McpClient("http://127.0.0.1:1/mcp", name="orders").name == "orders"
