"""The MCP SDK's private pieces `toolkit.mcp.client` reads, each in one function, checked here so that an
SDK shaped otherwise fails a test in one readable line first (as `toolkit.mcp.outputs`' builder is,
in test_mcp_outputs): the SDK offers no public way to ask for a page of tools it would not check, nor
to learn the pid of the stdio server it starts."""

import mcp.client.stdio
import mcp_types as types
import pytest
from mcp.server.lowlevel import Server
from mcp_wire import wire

import toolkit.mcp.client
from toolkit.mcp.client import McpClient, raw_listing_problem, spawn_problem


async def _list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(name="t", input_schema={"type": "object"})])


@pytest.mark.parametrize("over", ["in-process", "wire"])
def test_the_sdk_still_has_the_private_pieces_a_raw_listing_reads(over):
    server = Server("s", version="1", on_list_tools=_list_tools)
    with McpClient(server if over == "in-process" else wire(server), name="s") as client:
        session = client._client.session
        problem = raw_listing_problem(session)
        assert problem is None, f"mcp SDK changed: {problem}; toolkit.mcp.client._raw_listing must follow"
        assert toolkit.mcp.client._raw_listing(session) is not None


def test_a_session_shaped_otherwise_is_named_in_one_line_and_not_read():
    class Dispatcher:
        async def send_raw_request(self, method, params):
            return {}

    class Session:
        _dispatcher = Dispatcher()

        def _stamp(self, data, opts):
            pass

        def _absorb_tool_listing(self, result, *, complete):
            return result

    assert raw_listing_problem(Session()) == (
        "ClientSession._dispatcher.send_raw_request cannot be called as (method, params, opts): it takes "
        "(method, params)"
    )
    assert toolkit.mcp.client._raw_listing(Session()) is None
    del Session._stamp
    assert raw_listing_problem(Session()) == "ClientSession._stamp is gone"


def test_the_sdk_still_starts_stdio_servers_through_the_function_toolkit_wraps():
    problem = spawn_problem()
    assert problem is None, f"mcp SDK changed: {problem}; toolkit.mcp.client._noting_spawns must follow"


def test_an_sdk_that_spawns_otherwise_is_named_in_one_line(monkeypatch):
    monkeypatch.delattr(mcp.client.stdio, "_create_platform_compatible_process")
    assert spawn_problem() == "mcp.client.stdio._create_platform_compatible_process is gone"
