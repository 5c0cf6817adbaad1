"""`toolkit.mcp.server_logs`: what MCP servers log reaches Python's logging, each line naming its server."""

import logging

import pytest

from toolkit.errors import ToolDefinitionError
from toolkit.mcp.client import McpClient
from toolkit.mcp.server_logs import SERVER_LOG, forward, one_line


def _logging_server(name, messages):
    """An in-process server whose tool `t` logs each of `messages` ((level, logger, data)) during the call."""
    import warnings

    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name="t", input_schema={"type": "object"})])

    async def call_tool(ctx, params):
        with warnings.catch_warnings():  # MCP's logging is deprecated in 2026-07-28, and still sent
            warnings.simplefilter("ignore")
            for level, logger, data in messages:
                await ctx.session.send_log_message(level, data, logger=logger, related_request_id=ctx.request_id)
        return types.CallToolResult(content=[types.TextContent(text="ok")])

    return Server(name, version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def _records(caplog):
    return [(r.levelno, r.getMessage(), r.mcp_server) for r in caplog.records if r.name == SERVER_LOG.name]


def test_two_servers_logging_under_one_logger_name_are_told_apart(caplog):
    """A server's `notifications/message` was dropped (the SDK's default callback): what a server
    logged, a warning that explained a failure, reached nobody. Two servers logging under the same
    logger name (`db`) must be told apart: each line names the client's server, not the logger. A
    2026-07-28 server sends only what the client asks for: `info` and above by default."""
    caplog.set_level(logging.DEBUG, SERVER_LOG.name)
    for name in ("orders", "refunds"):
        messages = [
            ("warning", "db", f"pool exhausted in {name}"),
            ("info", None, "tick"),
            ("debug", None, "not asked"),
        ]
        server = _logging_server("same", messages)
        with McpClient(server, name=name) as client:
            assert client.call_tool("t", {}).content[0].text == "ok"
    assert _records(caplog) == [
        (logging.WARNING, "MCP server 'orders' (logger 'db'): pool exhausted in orders", "orders"),
        (logging.INFO, "MCP server 'orders': tick", "orders"),
        (logging.WARNING, "MCP server 'refunds' (logger 'db'): pool exhausted in refunds", "refunds"),
        (logging.INFO, "MCP server 'refunds': tick", "refunds"),
    ]


def test_a_client_asking_for_warnings_only_gets_no_info_lines(caplog):
    """A 2026-07-28 server sends log messages only at or above the level its client asks for (`log_level`)."""
    caplog.set_level(logging.DEBUG, SERVER_LOG.name)
    server = _logging_server("s", [("info", None, "hello"), ("error", "x", {"code": 7})])
    with McpClient(server, name="s", log_level="warning") as client:
        client.call_tool("t", {})
    assert _records(caplog) == [(logging.ERROR, "MCP server 's' (logger 'x'): {\"code\": 7}", "s")]


def test_log_level_none_asks_for_no_log_messages(caplog):
    caplog.set_level(logging.DEBUG, SERVER_LOG.name)
    with McpClient(_logging_server("s", [("emergency", None, "fire")]), name="s", log_level=None) as client:
        client.call_tool("t", {})
    assert _records(caplog) == []


@pytest.mark.parametrize("level", ["warn", "WARNING", 30, ""])
def test_a_log_level_mcp_does_not_have_is_refused_where_it_is_given(level):
    with pytest.raises(ToolDefinitionError) as caught:
        McpClient(_logging_server("s", []), name="s", log_level=level)
    assert str(caught.value) == (
        f"McpClient(log_level={level!r}): log_level is the least level of the log messages the server is asked "
        "to send, one of MCP's: debug, info, notice, warning, error, critical, alert, emergency (or None for "
        "none). Fix: give one, e.g. log_level='warning'"
    )


@pytest.mark.parametrize(
    "level, python", [("notice", logging.INFO), ("critical", logging.CRITICAL), ("alert", logging.CRITICAL)]
)
def test_mcp_levels_map_to_the_nearest_python_level(level, python, caplog):
    caplog.set_level(logging.DEBUG, SERVER_LOG.name)
    forward("s", level, None, "x", str)
    assert _records(caplog) == [(python, "MCP server 's': x", "s")]


def test_a_hostile_log_message_is_one_masked_line_of_bounded_length(caplog):
    """A server's data is a stranger's text: a second line forging another server's, a terminal
    escape, a key of its own, a password in JSON data, megabytes. Each line is one line, masked, cut."""
    caplog.set_level(logging.DEBUG, SERVER_LOG.name)
    forward("a", "error", "db\nMCP server 'b'", "oops\nMCP server 'b': forged\x1b[2J", str)
    forward("a", "info", None, {"password": "hunter2", "user": "ann"}, str)
    forward("a", "info", None, "token sk-proj-abcdefghijklmnopqrstuvwxyz0123456789", lambda t: t.replace("ann", "***"))
    forward("a", "info", None, "x" * 1_000_000, str)
    forward("a", "info", None, "lone \ud800 surrogate", str)
    lines = [message for _, message, _ in _records(caplog)]
    assert lines[:2] == [
        "MCP server 'a' (logger \"db / MCP server 'b'\"): oops / MCP server 'b': forged\\x1b[2J",
        'MCP server \'a\': {"password": "[REDACTED]", "user": "ann"}',
    ]
    assert "sk-proj-abc" not in lines[2] and "[REDACTED]" in lines[2]
    assert len(lines[3]) == len("MCP server 'a': ") + 2000 and lines[3].endswith("x…")
    assert lines[4] == "MCP server 'a': lone \ufffd surrogate"


def test_nothing_is_read_when_no_handler_would_write_the_line(caplog):
    """The logger's level is checked first: data nobody reads is not masked or dumped."""
    caplog.set_level(logging.ERROR, SERVER_LOG.name)

    class Unreadable:
        def __str__(self):
            raise AssertionError("read")

    forward("a", "info", Unreadable(), Unreadable(), str)
    assert _records(caplog) == []


def test_one_line_hides_what_the_client_hides_before_it_cuts():
    assert one_line("key=" + "s3cr3t" * 3, lambda t: t.replace("s3cr3t" * 3, "***"), 7) == "key=***"


def test_a_secret_begun_before_the_cut_is_masked_whole_in_a_long_message():
    """A long message is masked in its first characters only (a 10 MB one took seconds); a secret
    that the cut goes through is still masked, not shown in part."""
    secret = "s3cr3t-" + "k" * 50
    text = "x" * 1990 + secret + " " + "y" * 100_000
    line = one_line(text, lambda t: t.replace(secret, "***"), 2000)
    assert line == "x" * 1990 + "***" + " " + "y" * 5 + "…"


def test_a_storm_of_log_messages_writes_a_bounded_number_of_lines_and_says_so_once(caplog, monkeypatch):
    """A server sending thousands of log messages at once (a loop logging each step) wrote a line for
    each on the learner's log. At most `MAX_LOG_LINES` of one server's messages are written a second
    (the clock is held still here: all of them come within one second), then one line says the rest
    are left out; the call's answer comes through."""
    from toolkit.mcp import server_logs

    caplog.set_level(logging.DEBUG, SERVER_LOG.name)
    monkeypatch.setattr(server_logs, "monotonic", lambda: 7.0)
    storm = [("info", None, f"step {n}") for n in range(3 * server_logs.MAX_LOG_LINES)]
    with McpClient(_logging_server("s", storm), name="s") as client:
        assert client.call_tool("t", {}).content[0].text == "ok"
    lines = [message for _, message, _ in _records(caplog)]
    assert lines[: server_logs.MAX_LOG_LINES] == [f"MCP server 's': step {n}" for n in range(server_logs.MAX_LOG_LINES)]
    assert lines[server_logs.MAX_LOG_LINES :] == [
        f"MCP server 's' sends more than {server_logs.MAX_LOG_LINES} log messages a second: only the first "
        f"{server_logs.MAX_LOG_LINES} of each second are written while it does"
    ]
    assert client.logs_left_out == 2 * server_logs.MAX_LOG_LINES


def test_a_server_logging_within_the_budget_again_is_written_again_and_a_new_storm_said_again(caplog):
    """The budget is a second's: the next second's messages are written again, and a second storm is
    said again (one line each), the count of what was left out kept on the budget."""
    from toolkit.mcp.server_logs import MAX_LOG_LINES, LogFlood

    caplog.set_level(logging.DEBUG, SERVER_LOG.name)
    now = [0.0]
    flood = LogFlood(clock=lambda: now[0])
    for second in (0.0, 1.5, 3.0, 3.5):
        now[0] = second
        for n in range(MAX_LOG_LINES + 2 if second != 1.5 else 3):
            forward("s", "info", None, f"{second} {n}", str, flood=flood)
    notices = [message for _, message, _ in _records(caplog) if "a second: only" in message]
    assert len(notices) == 2  # one for the storm at 0 s, one for the storm at 3 s (3.5 s is within it)
    assert len(_records(caplog)) == 2 * MAX_LOG_LINES + 3 + 2
    assert flood.left_out == 2 + 2 + MAX_LOG_LINES + 2
