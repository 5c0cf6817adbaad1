"""What one MCP server's listing may cost in all (`toolkit.mcp.client`): the pages were capped, and
the tools and characters across them were not, so a server sending 100 pages of 10,000 tools (or
of 1 MB descriptions) had every one of them read, kept and translated."""

import mcp_types as types
import pytest
from mcp.server.lowlevel import Server

import toolkit.mcp.client
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider

TAKES_X = {"type": "object", "properties": {"x": {"type": "string"}}}


def _endless(asked, per_page=3, description=""):
    """Pages of `per_page` tools for ever (cursor n+1 after n); each cursor asked for goes into `asked`."""

    async def list_tools(ctx, params):
        cursor = params.cursor if params is not None else None
        asked.append(cursor)
        n = int(cursor or 0)
        tools = [types.Tool(name=f"t{n}_{i}", description=description, input_schema=TAKES_X) for i in range(per_page)]
        return types.ListToolsResult(tools=tools, next_cursor=str(n + 1))

    return Server("many", version="1", on_list_tools=list_tools)


def test_a_listing_past_the_total_of_tools_is_cut_and_says_so(monkeypatch):
    monkeypatch.setattr(toolkit.mcp.client, "MAX_TOOLS", 5)
    asked = []
    with McpClient(_endless(asked), name="many") as client:
        provider = McpToolProvider([client])
        offered = [t.name for t in provider.provide()]
        cut = client.listing_cut
    assert offered == ["t0_0", "t0_1", "t0_2", "t1_0", "t1_1"]
    assert asked == [None, "1"]  # no page asked for past the cap
    assert cut == (
        "MCP server 'many' lists more than 5 tools; only the first 5 were read (on 2 pages), and the others are "
        "not offered"
    )
    assert provider.left_out == {"many: (later pages)": cut}


def test_a_listing_past_the_total_of_characters_is_cut_and_says_so(monkeypatch):
    monkeypatch.setattr(toolkit.mcp.client, "MAX_LISTING_CHARS", 2_000)
    asked = []
    with McpClient(_endless(asked, per_page=2, description="d" * 390), name="many") as client:
        tools = client.list_tools()
        cut = client.listing_cut
    assert [t.name for t in tools] == ["t0_0", "t0_1", "t1_0", "t1_1"]  # 491 characters each as JSON
    assert asked == [None, "1", "2"]
    assert cut == (
        "MCP server 'many' lists tools taking more than 2,000 characters of JSON in all; only the first 4 were "
        "read (on 3 pages), and the others are not offered"
    )


@pytest.mark.parametrize("cap", ["MAX_TOOLS", "MAX_LISTING_CHARS"])
def test_a_listing_that_ends_at_the_cap_is_whole(monkeypatch, cap):
    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name=f"t{i}", input_schema=TAKES_X) for i in range(3)])

    with McpClient(Server("few", version="1", on_list_tools=list_tools), name="few") as client:
        size = sum(len(t.model_dump_json(by_alias=True, exclude_none=True)) for t in client.list_tools())
        client.evict_tool_list_cache()
        monkeypatch.setattr(toolkit.mcp.client, cap, 3 if cap == "MAX_TOOLS" else size)
        assert len(client.list_tools()) == 3
        assert client.listing_cut == ""


def test_tools_the_sdk_cannot_read_count_toward_the_total_and_the_log_names_a_few(monkeypatch, caplog):
    """A tool the SDK cannot read (no `inputSchema`) was not counted: 100 pages of 10,000 such tools
    filled `left_out` with a million entries, and the log with a line for each."""
    import logging

    monkeypatch.setattr(toolkit.mcp.client, "MAX_TOOLS", 30)

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name=f"t{i}", input_schema=TAKES_X) for i in range(40)])

    def without_schema(data):  # what the server really sends: 40 tools without an inputSchema
        for tool in data.get("result", {}).get("tools", []):
            del tool["inputSchema"]

    from test_mcp_modern import tampered

    read = []
    why = toolkit.mcp.client._why_unlisted
    monkeypatch.setattr(toolkit.mcp.client, "_why_unlisted", lambda exc: read.append(1) or why(exc))
    with caplog.at_level(logging.WARNING, logger="toolkit.mcp"):
        with McpClient(tampered(Server("bad", version="1", on_list_tools=list_tools), without_schema), name="bad") as c:
            provider = McpToolProvider([c])
            assert provider.provide() == []
            cut = c.listing_cut
    assert len(c.unreadable) == 30
    assert len(read) == 31  # a page's items are read up to the cap and one past it (which says it is cut), no more
    assert cut == (
        "MCP server 'bad' lists more than 30 tools; only the first 30 were read (on 1 page), and the others are "
        "not offered"
    )
    said = [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"]
    assert len(said) == 11
    assert said[0] == f"MCP tool '(later pages)' of server 'bad' left out: {cut}"  # said first: it is about many
    assert said[-1] == ("MCP server 'bad': 21 more tools left out (provider.left_out lists each, and why)")
