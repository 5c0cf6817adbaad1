"""MCP servers as a tool source, against servers we did not write (`mcp-server-time` from PyPI),
one we wrote to be awkward (`mcp_servers/quirky_server.py`, on the official SDK), one written
without the SDK, a server that hangs and servers that crash. Transports: stdio, streamable HTTP
and the SDK's in-process client; behaviour tests run over all three."""

import json
import logging
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from loopback import announced

from toolkit.chat.messages import ToolCall, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.cli.main import main
from toolkit.errors import ConfigurationError, McpConnectionError, McpError
from toolkit.loop.run import run_loop
from toolkit.loop.sources import build_context
from toolkit.loop.wrappers import always_visible, filter_tools, rename_tools
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider, original_name

SERVERS = Path(__file__).parent / "mcp_servers"
QUIRKY = str(SERVERS / "quirky_server.py")
sys.path.insert(0, str(SERVERS))
from quirky_server import SCHEMAS, make_server  # noqa: E402

HANG_S = 120
"""How long a test here lets a request, connection or child process hang when the code under test
does not stop waiting for it: far beyond what stopping takes on a loaded machine. A bound on a
stop is half of it (no speed is measured, only "waited or not")."""

TIME_ARGS = ["-m", "mcp_server_time", "--local-timezone", "UTC"]
CRASH_AT_START = ["-c", "import sys; print('config file missing', file=sys.stderr); sys.exit(3)"]


def _wait_for(path: Path, seconds: float = 60.0) -> bool:
    """True once `path` exists (at once when things are right); False after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.02)
    return False


@pytest.fixture(scope="module")
def time_client():
    with McpClient.stdio(sys.executable, TIME_ARGS, name="time") as client:
        yield client


@pytest.fixture(scope="module")
def http_cancel_file(tmp_path_factory):
    return tmp_path_factory.mktemp("http") / "cancelled"


@pytest.fixture(scope="module")
def http_url(http_cancel_file):
    with announced([sys.executable, QUIRKY, "--http", "--cancel-file", str(http_cancel_file)]) as (url, _):
        yield url


@pytest.fixture(scope="module", params=["stdio", "http", "in-process"])
def quirky(request, tmp_path_factory):
    """(client, cancel file) for the quirky server over each transport."""
    cancel_file = tmp_path_factory.mktemp(request.param) / "cancelled"
    if request.param == "stdio":
        client = McpClient.stdio(
            sys.executable, [QUIRKY, "--cancel-file", str(cancel_file)], name="quirky", request_timeout=HANG_S
        )
    elif request.param == "http":
        client = McpClient.http(request.getfixturevalue("http_url"), name="quirky", request_timeout=HANG_S)
        cancel_file = request.getfixturevalue("http_cancel_file")
    else:
        client = McpClient(make_server(str(cancel_file)), name="quirky", request_timeout=HANG_S)
    with client:
        yield client, cancel_file


def _tools(provider) -> dict:
    return {t.name: t for t in provider.provide()}


def _run(tools: dict, name: str, arguments: str = "{}"):
    return tools[name].execute(ToolCall(id="c1", name=name, arguments=arguments))


# --- a server nobody here wrote ------------------------------------------------------------


def test_time_server_tools_are_translated_with_annotations_in_metadata(time_client):
    tools = _tools(McpToolProvider([time_client]))
    assert sorted(tools) == ["convert_time", "get_current_time"]
    spec = tools["get_current_time"].spec
    assert spec.parameters["required"] == ["timezone"]
    assert spec.metadata["annotations"] == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    }
    assert spec.metadata["mcp_server"] == "time"
    assert "annotations" not in json.dumps(spec.to_openai())
    for tool in tools.values():
        Draft202012Validator.check_schema(tool.spec.parameters)


def test_a_loop_calls_the_time_server(time_client):
    model = ScriptedModel(
        [
            call("convert_time", source_timezone="UTC", time="12:00", target_timezone="Asia/Tokyo"),
            "It is 21:00 in Tokyo.",
        ]
    )
    result = run_loop(model, [UserMessage(content="12:00 UTC in Tokyo?")], providers=[McpToolProvider([time_client])])
    assert model.requests[0].tools == ("get_current_time", "convert_time")
    answer = json.loads(result.new_messages[1].content)
    assert answer["target"]["datetime"].endswith("T21:00:00+09:00")
    assert result.answer == "It is 21:00 in Tokyo."


def test_an_is_error_result_becomes_an_error_result(time_client):
    result = _run(_tools(McpToolProvider([time_client])), "get_current_time", '{"timezone": "Mars/Olympus"}')
    assert result.is_error
    assert result.content == (
        "Tool 'get_current_time' failed: Error executing tool get_current_time: "
        "Invalid timezone: 'No time zone found with key Mars/Olympus'"
    )


# --- behaviour, over every transport --------------------------------------------------------


@pytest.mark.parametrize("arguments", ["", "   ", "null", "{}"])
def test_empty_arguments_are_sent_as_an_empty_object(quirky, arguments):
    client, _ = quirky
    result = _run(_tools(McpToolProvider([client])), "no_args", arguments)
    assert json.loads(result.content) == {"arguments": {}, "tool": "no_args"}


def test_a_renamed_tool_still_calls_the_server_under_its_original_name(quirky):
    client, _ = quirky
    provider = rename_tools(filter_tools(McpToolProvider([client]), {"echo", "files_read"}), {"echo": "shout"})
    tools = _tools(provider)
    assert sorted(tools) == ["files_read", "shout"]
    assert json.loads(_run(tools, "shout", '{"text": "hi"}').content) == {"arguments": {"text": "hi"}, "tool": "echo"}
    assert json.loads(_run(tools, "files_read", '{"path": "a"}').content)["tool"] == "files.read"
    assert original_name(tools["files_read"]) == "files.read"


def test_annotations_and_meta_go_into_metadata_and_always_visible_is_a_flag(quirky):
    client, _ = quirky
    tools = _tools(always_visible(McpToolProvider([client]), {"echo"}))
    assert dict(tools["echo"].spec.metadata) == {
        "mcp_server": "quirky",
        "mcp_name": "echo",
        "always_visible": True,
        "annotations": {"title": "Echo", "readOnlyHint": True, "destructiveHint": False},
        "_meta": {"team": "course", "cost": 0},
    }
    assert "always_visible" not in tools["fail"].spec.metadata
    assert tools["echo"].spec.parameters == {"type": "object", "properties": {"text": {"type": "string"}}}


def test_every_translated_schema_is_valid_and_a_broken_one_is_left_out_with_a_warning(quirky, caplog):
    client, _ = quirky
    with caplog.at_level(logging.WARNING, "toolkit.mcp"):
        tools = _tools(McpToolProvider([client]))
    assert sorted(tools) == sorted(n.replace(".", "_") for n in SCHEMAS if n != "bad_ref")
    assert "MCP tool 'bad_ref' of server 'quirky' left out: " in caplog.text
    for tool in tools.values():
        if tool.spec.parameters is not None:
            Draft202012Validator.check_schema(tool.spec.parameters)


def test_is_error_and_other_content(quirky):
    client, _ = quirky
    tools = _tools(McpToolProvider([client]))
    failed = _run(tools, "fail")
    assert failed.is_error and failed.content == "Tool 'fail' failed: the warehouse is closed today"
    image = _run(tools, "image")
    assert image.content == "a chart:\n[image (image/png) not passed on: this chat model does not accept images]"
    assert image.attributes == {} and not image.is_error
    seen = _run(_tools(McpToolProvider([client], accepts_images=True)), "image")  # issue 15.14
    assert seen.content == "a chart:\n[image (image/png) attached]"
    assert seen.attributes == {"images": ["data:image/png;base64,iVBORw0KGgo="]}
    assert _run(tools, "structured").content == '{"ok": true}'


def test_a_hanging_tool_times_out_and_the_server_is_told_to_cancel(quirky):
    client, cancel_file = quirky
    tools = _tools(McpToolProvider([client], timeout=0.3))
    started = time.monotonic()
    result = _run(tools, "hang")
    assert time.monotonic() - started < HANG_S / 2  # not the client's request timeout (or the server's hang)
    assert result.is_error  # issue 19.7: a timeout is not a success; the outcome is unknown
    assert result.content == (
        "Tool 'hang' failed: no answer within 0.3 s, so the call was cancelled. Its outcome is unknown: the "
        "server may have done the work already. Do not call it again: it is not marked read-only or idempotent, "
        "so a second call could do the work twice. Tell the user the outcome is unknown and must be checked."
    )
    assert _wait_for(cancel_file), "the server never saw the cancellation"
    patient = _tools(McpToolProvider([client], timeout=HANG_S))  # 0.3 s: a loaded machine's HTTP round trip took more
    assert json.loads(_run(patient, "no_args").content)["tool"] == "no_args"  # still connected


def test_the_tool_list_is_cached_until_evicted():
    with McpClient(make_server(), name="quirky") as client:
        provider = McpToolProvider([client])
        tools = _tools(provider)
        _tools(provider)
        assert _run(tools, "list_calls").content == "1"
        provider.evict_tool_list_cache()
        _tools(provider)
        assert _run(tools, "list_calls").content == "2"


# --- servers that fail --------------------------------------------------------------------


def test_a_dead_server_is_logged_and_the_others_are_served(time_client, caplog):
    dead = McpClient.stdio(sys.executable, CRASH_AT_START, name="broken")
    raw = McpClient.stdio(sys.executable, [str(SERVERS / "raw_server.py")], name="raw")
    with caplog.at_level(logging.WARNING, "toolkit.mcp"):
        tools = _tools(McpToolProvider([dead, time_client, raw]))
    assert sorted(tools) == ["convert_time", "get_current_time", "lookup", "ping"]
    assert (
        "MCP server 'broken' left out: cannot reach MCP server 'broken': MCPError: Connection closed; "
        "its stderr: config file missing"
    ) in caplog.text
    assert "of server 'raw'" not in caplog.text  # its root schemas without "type" are read as objects
    assert tools["lookup"].spec.parameters == {
        "type": "object",
        "properties": {"sku": {"type": "string"}},
        "required": ["sku"],
    }
    assert json.loads(_run(tools, "lookup", '{"sku": "A1"}').content) == {"arguments": {"sku": "A1"}, "tool": "lookup"}
    raw.close()


def test_fail_if_one_server_fails_raises_instead():
    dead = McpClient.stdio(sys.executable, CRASH_AT_START, name="broken")
    with pytest.raises(McpConnectionError, match="cannot reach MCP server 'broken'"):
        McpToolProvider([dead], fail_if_one_server_fails=True).provide()


def test_a_server_that_crashes_mid_call_gives_error_results(tmp_path):
    with McpClient.stdio(sys.executable, [QUIRKY], name="quirky") as client:
        tools = _tools(McpToolProvider([client]))
        crashed = _run(tools, "crash")
        later = _run(tools, "echo")
    assert crashed.is_error and crashed.content == (
        "Tool 'crash' failed: MCP server 'quirky' went away during the call (Connection closed). Its outcome is "
        "unknown: the server may have done the work already. Do not call it again: it is not marked read-only or "
        "idempotent, so a second call could do the work twice. Tell the user the outcome is unknown and must be "
        "checked."
    )
    assert later.is_error and later.content == (
        "Tool 'echo' failed: MCP server 'quirky' went away before this call (Connection closed); it was not sent"
    )


def test_an_unknown_command_is_a_connection_error():
    with pytest.raises(McpConnectionError) as caught:
        McpClient.stdio("/no/such/mcp-server").connect()
    assert str(caught.value) == "cannot reach MCP server 'mcp-server': command not found (/no/such/mcp-server)"


def test_a_working_folder_that_does_not_exist_is_said_as_such_not_as_a_missing_command(tmp_path):
    """`cwd=` naming no folder failed as "command not found (/…/gone)": the command was there."""
    gone = tmp_path / "gone"
    with pytest.raises(McpConnectionError) as caught:
        McpClient.stdio(sys.executable, TIME_ARGS, cwd=gone, name="time").connect()
    assert str(caught.value) == f"cannot reach MCP server 'time': its working folder does not exist (cwd={str(gone)!r})"


def test_two_servers_with_the_same_tool_name_must_be_renamed(time_client):
    other = McpClient.stdio(sys.executable, TIME_ARGS, name="time2")
    try:
        with pytest.raises(ConfigurationError, match="tool name 'get_current_time' is defined twice"):
            build_context(providers=[McpToolProvider([time_client, other])])
        renamed = rename_tools(McpToolProvider([other]), lambda name: f"utc_{name}")
        context = build_context(providers=[McpToolProvider([time_client]), renamed])
        assert sorted(context.available) == [
            "convert_time",
            "get_current_time",
            "utc_convert_time",
            "utc_get_current_time",
        ]
    finally:
        other.close()


# --- the tools command --------------------------------------------------------------------


def test_the_tools_command_prints_the_translated_definitions_sorted(http_url, capsys):
    assert main(["tools", *["--mcp-http", http_url]]) == 0
    specs = json.loads(capsys.readouterr().out)
    names = [s["function"]["name"] for s in specs]
    assert names == sorted(names) and "files_read" in names and "bad_ref" not in names
    assert next(s for s in specs if s["function"]["name"] == "nullable")["function"]["parameters"]["properties"][
        "limit"
    ] == {"type": "integer", "minimum": 1}  # null dropped, as LangChain4j does


def test_the_tools_command_over_stdio(capsys):
    assert main(["tools", *["--mcp-stdio", f"{sys.executable} {' '.join(TIME_ARGS)}"]]) == 0
    assert [s["function"]["name"] for s in json.loads(capsys.readouterr().out)] == ["convert_time", "get_current_time"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["--mcp-http", "http://127.0.0.1:9/mcp", "--timeout", "3"],
            "error: cannot reach MCP server 'http://127.0.0.1:9/mcp': ConnectError: All connection attempts failed\n",
        ),
        (
            ["--mcp-stdio", "/no/such/server --flag"],
            "error: cannot reach MCP server 'server --flag': command not found (/no/such/server)\n",
        ),
    ],
)
def test_the_tools_command_exits_2_when_a_server_cannot_be_reached(argv, message, capsys):
    assert main(["tools", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == message


# --- issue 19.7, 19.8, 19.10, 19.12: timeouts, dead servers, names, left-out tools ------------------


def _server(tools, on_call=None, hang_listing=False, lists=None):
    """An in-process low-level server: `tools` is [(name, schema, annotations or None)]."""
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        if lists is not None:
            lists.append(1)
        if hang_listing:
            await anyio.sleep(2 * HANG_S)
        return types.ListToolsResult(tools=[types.Tool(name=n, input_schema=s, annotations=a) for n, s, a in tools])

    async def call_tool(ctx, params):
        if on_call is not None:
            await on_call(params.name)
        return types.CallToolResult(content=[types.TextContent(text=f"ran {params.name}")])

    return Server("test", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


@pytest.mark.parametrize(
    "annotations, advice",
    [
        ({"readOnlyHint": True}, "The tool only reads, so calling it again is safe."),
        (
            {"idempotentHint": True, "destructiveHint": True},
            "The tool is idempotent, so calling it again with the same arguments is safe.",
        ),
        (
            {"destructiveHint": True, "idempotentHint": False},
            "Do not call it again: it is not marked read-only or idempotent, so a second call could do the "
            "work twice. Tell the user the outcome is unknown and must be checked.",
        ),
    ],
)
def test_a_timed_out_call_is_an_error_whose_advice_follows_the_annotations(annotations, advice):
    """Issue 19.7: a timeout looked like success and invited a retry that could charge twice."""
    import anyio
    import mcp_types as types

    async def slow(name):
        await anyio.sleep(5)

    tool = ("charge", {"type": "object", "properties": {}}, types.ToolAnnotations.model_validate(annotations))
    with McpClient(_server([tool], on_call=slow), name="pay") as client:
        result = _run(_tools(McpToolProvider([client], timeout=0.2)), "charge")
    assert result.is_error
    assert result.content == (
        "Tool 'charge' failed: no answer within 0.2 s, so the call was cancelled. Its outcome is unknown: "
        "the server may have done the work already. " + advice
    )


class _DeadClient:
    """Stands in for an McpClient whose server never answers: counts the attempts."""

    name = "dead"

    def __init__(self):
        self.attempts = 0

    def list_tools(self, timeout=None):
        from toolkit.errors import McpTimeout

        self.attempts += 1
        raise McpTimeout(f"MCP server 'dead' did not answer within {timeout:g} s")

    def evict_tool_list_cache(self):
        pass


def test_a_dead_server_costs_one_timeout_then_waits_and_is_retried(caplog):
    """Issue 19.8: a dead or hung server used to cost a timeout on every call."""
    now = [0.0]
    dead = _DeadClient()
    provider = McpToolProvider([dead], list_timeout=2, retry_after_s=60, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, "toolkit.mcp"):
        for _ in range(5):
            assert provider.provide() == []
        assert dead.attempts == 1 and provider.partial
        assert provider.left_out == {
            "dead": "MCP server 'dead' did not answer within 2 s (left out for 60 s, then tried again)"
        }
        now[0] = 61
        provider.provide()
        assert dead.attempts == 2
    assert caplog.text.count("MCP server 'dead' left out") == 1  # logged once per outage
    strict = McpToolProvider([dead], fail_if_one_server_fails=True, list_timeout=10, clock=lambda: 0)
    with pytest.raises(McpError, match="did not answer within 10 s"):
        strict.provide()
    with pytest.raises(McpConnectionError, match=r"did not answer within 10 s \(left out for 60 s"):
        strict.provide()  # the circuit is open: no second timeout


RESTARTABLE = (
    "import os, runpy, sys; starts, dead, quirky = sys.argv[1:4]; open(starts, 'a').write('started\\n'); "
    "os.path.exists(dead) and sys.exit(print('server is down', file=sys.stderr) or 3); "
    "sys.argv = [quirky]; runpy.run_path(quirky, run_name='__main__')"
)
"""The quirky server, started through a line that counts its starts in a file and exits at once
(status 3) while a second file exists: a server that died, stays down, then comes back."""


def test_a_server_that_went_away_is_connected_again_once_per_retry_while_down(tmp_path):
    """A server that went away (it crashed, or an HTTP server stopped) was said to be "left out for
    60 s, then tried again", but its client kept the dead connection: every later listing failed
    at once ("call its client's close()"), so a server that came back was never used again."""
    starts, dead, now = tmp_path / "starts", tmp_path / "dead", [0.0]
    client = McpClient.stdio(sys.executable, ["-c", RESTARTABLE, str(starts), str(dead), QUIRKY], name="quirky")
    provider = McpToolProvider([client], retry_after_s=60, clock=lambda: now[0])
    try:
        assert _run(_tools(provider), "crash").is_error
        dead.touch()
        assert _tools(provider) == {} and starts.read_text().count("started") == 2  # tried again once, at once
        assert provider.left_out == {
            "quirky": "cannot reach MCP server 'quirky': MCPError: Connection closed; its stderr: server is down "
            "(left out for 60 s, then tried again)"
        }
        for _ in range(3):
            assert _tools(provider) == {}
        assert starts.read_text().count("started") == 2  # not hammered while the circuit is open
        now[0] = 61
        assert _tools(provider) == {} and starts.read_text().count("started") == 3
        dead.unlink()
        now[0] = 122
        tools = _tools(provider)
        assert starts.read_text().count("started") == 4 and not provider.partial
        assert json.loads(_run(tools, "echo", '{"text": "back"}').content)["arguments"] == {"text": "back"}
    finally:
        client.close()


def test_listing_has_a_timeout():
    """Issue 19.8: a server that hangs on tools/list added 30 s to every call."""
    lists = []
    tools = [("a", {"type": "object", "properties": {}}, None)]
    with McpClient(_server(tools, hang_listing=True, lists=lists), name="hung", request_timeout=HANG_S) as client:
        provider = McpToolProvider([client], list_timeout=0.3)
        started = time.monotonic()
        assert provider.provide() == [] and provider.provide() == []
        assert time.monotonic() - started < HANG_S / 2 and len(lists) == 1  # not the request timeout
        assert provider.left_out["hung"].startswith("MCP server 'hung' did not answer within 0.3 s")


def test_non_ascii_names_get_unique_readable_wire_names_and_errors_name_the_originals():
    """Issue 19.10: 查询订单 and 查询物流 both became '____' and failed the whole call."""
    schema = {"type": "object", "properties": {}}
    tools = [
        ("查询订单", schema, None),
        ("查询物流", schema, None),
        ("café.menu", schema, None),
        ("files_read", schema, None),
        ("files.read", schema, None),
    ]
    with McpClient(_server(tools), name="names") as client:
        provided = _tools(McpToolProvider([client]))
        assert sorted(provided) == [
            "cafe_menu",
            "files_read",
            "files_read_2",
            "u67e5u8be2u7269u6d41",
            "u67e5u8be2u8ba2u5355",
        ]
        assert _run(provided, "u67e5u8be2u8ba2u5355").content == "ran 查询订单"
        assert _run(provided, "files_read_2").content == "ran files.read"
        twice = McpClient(_server(tools[:1]), name="again")
        with pytest.raises(ConfigurationError) as caught:
            build_context(providers=[McpToolProvider([client, twice])])
        twice.close()
    assert str(caught.value) == (
        "tool name 'u67e5u8be2u8ba2u5355' is defined twice: by MCP server 'names' (its tool '查询订单') and by "
        "MCP server 'again' (its tool '查询订单'); give one server a McpToolProvider of its own and rename its tools, "
        "e.g. rename_tools(McpToolProvider([client]), lambda name: f'other_{name}') (tool names must be unique in a call)"
    )


def test_long_names_stay_unique_within_64_characters():
    from toolkit.mcp.provider import wire_names

    names = ["x" * 70 + "a", "x" * 70 + "b"]
    wires = list(wire_names(names).values())
    assert len(set(wires)) == 2 and all(len(w) <= 64 for w in wires)


def test_a_left_out_tool_is_reported_on_the_provider(caplog):
    """Issue 19.12: a tool whose schema cannot be translated was reported only to the log."""
    tools = [
        ("ok", {"type": "object", "properties": {}}, None),
        ("remote", {"type": "object", "properties": {"x": {"$ref": "https://example.com/s.json"}}}, None),
    ]
    with McpClient(_server(tools), name="s") as client:
        provider = McpToolProvider([client])
        assert list(_tools(provider)) == ["ok"]
    assert list(provider.left_out) == ["s: remote"]
    assert "refers to 'https://example.com/s.json'" in provider.left_out["s: remote"]
    assert not provider.partial  # one tool out, not a whole server


def test_servers_are_listed_at_once_so_two_dead_ones_cost_one_timeout():
    """Issue 19.8: two servers that never answer cost two timeouts one after the other. Here each
    fake server waits at a barrier for the other: listed one by one, the barrier breaks."""
    import threading

    from toolkit.errors import McpTimeout

    barrier = threading.Barrier(2, timeout=60)  # met at once when things are right

    class Hung(_DeadClient):
        def list_tools(self, timeout=None):
            barrier.wait()  # both must be in here at the same time
            raise McpTimeout(f"MCP server {self.name!r} did not answer within {timeout:g} s")

    first, second = Hung(), Hung()
    first.name, second.name = "hung-1", "hung-2"
    provider = McpToolProvider([first, second], list_timeout=1)
    assert provider.provide() == []
    assert list(provider.left_out) == ["hung-1", "hung-2"]


# --- hostile-input audit #5, #6, #7, #14: servers that list, describe or answer badly ----------

HOSTILE = str(SERVERS / "hostile_server.py")
TAKES_X = {"type": "object", "properties": {"x": {"type": "string"}}}


def test_a_name_listed_twice_keeps_its_first_tool_and_leaves_the_others_out():
    """Audit #5: duplicates collapsed in `wire_names`, and `provide()` died on a raw zip() ValueError."""
    takes_y = {"type": "object", "properties": {"y": {"type": "string"}}}
    tools = [("a.b", TAKES_X, None), ("a_b", TAKES_X, None), ("a.b", takes_y, None), ("a.b", takes_y, None)]
    with McpClient(_server(tools), name="s") as client:
        provider = McpToolProvider([client])
        provided = _tools(provider)
        assert sorted(provided) == ["a_b", "a_b_2"]
        assert list(provided["a_b_2"].spec.parameters["properties"]) == ["x"]  # the first one
        assert _run(provided, "a_b_2").content == "ran a.b"
        assert _run(provided, "a_b").content == "ran a_b"  # a valid name is the tool's own, whatever the order
    assert provider.left_out == {
        "s: a.b (listed again)": "MCP server 's' lists a tool named 'a.b' 3 times; only the first is offered"
    }
    assert not provider.partial


def _paged_server(pages, asked):
    """An in-process server whose listing has pages: `pages` maps a cursor (None first) to
    (tool names, next cursor); every cursor asked for is appended to `asked`."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        cursor = params.cursor if params is not None else None
        asked.append(cursor)
        names, after = pages[cursor]
        return types.ListToolsResult(tools=[types.Tool(name=n, input_schema=TAKES_X) for n in names], next_cursor=after)

    return Server("paged", version="1", on_list_tools=list_tools)


@pytest.mark.parametrize(
    "pages, asked, names",
    [
        ({None: (["a", "b"], "again"), "again": (["a", "b"], "again")}, [None, "again"], ["a", "b"]),
        ({None: (["a"], "1"), "1": (["a"], "2"), "2": (["a"], "3")}, [None, "1"], ["a"]),
        ({None: (["a"], "x"), "x": (["b"], "y"), "y": (["c"], "x")}, [None, "x", "y"], ["a", "b", "c"]),
    ],
    ids=["cursor-and-page-repeat", "page-repeats", "cursor-repeats"],
)
def test_a_paginator_that_repeats_itself_is_stopped(pages, asked, names):
    """Audit #5: a `nextCursor` that kept returning the same page was followed 100 times."""
    seen = []
    with McpClient(_paged_server(pages, seen), name="paged") as client:
        provider = McpToolProvider([client])
        assert sorted(_tools(provider)) == names
    assert seen == asked and provider.left_out == {}


def test_an_empty_next_cursor_ends_the_listing():
    """A server whose last page says `"nextCursor": ""` (no more pages, as LangChain's adapters
    read it) was asked for the page after "", which it refused: the whole server was left out
    ("answered with an error"), every tool with it."""
    seen = []
    pages = {None: (["a"], "2"), "2": (["b"], "")}  # a cursor "" is no page of this server's
    with McpClient(_paged_server(pages, seen), name="paged") as client:
        provider = McpToolProvider([client])
        assert list(_tools(provider)) == ["a", "b"]
    assert seen == [None, "2"] and provider.left_out == {}


def test_a_tool_whose_definitions_cannot_be_read_is_left_out_and_the_others_stay():
    """Audit #6: a `$defs` that is no object raised TypeError and took the good tool down too."""
    tools = [
        ("d1", {"type": "object", "$defs": [1]}, None),
        ("d2", {"type": "object", "definitions": "x"}, None),
        ("good", TAKES_X, None),
    ]
    with McpClient(_server(tools), name="s") as client:
        provider = McpToolProvider([client])
        assert list(_tools(provider)) == ["good"]
    assert provider.left_out == {
        "s: d1": "MCP tool 'd1' of server 's': its schema's '$defs' is an array, not an object of named schemas; "
        "ask its author to fix it",
        "s: d2": "MCP tool 'd2' of server 's': its schema's 'definitions' is a string, not an object of named "
        "schemas; ask its author to fix it",
    }


def test_a_tool_whose_schema_holds_nan_is_left_out():
    """Audit #7: `NaN` (Python's default JSON for float("nan")) was accepted, then broke every model request."""
    with McpClient.stdio(sys.executable, [HOSTILE, "nan"], name="nan") as client:
        provider = McpToolProvider([client])
        assert list(_tools(provider)) == ["t"]
    assert provider.left_out == {
        "nan: n": "MCP tool 'n' of server 'nan': its schema has a non-finite number at properties/a/minimum (NaN "
        "and Infinity are not JSON); ask its author to fix it"
    }


def test_any_failure_translating_one_tool_leaves_only_that_tool_out(monkeypatch):
    """Audit #6, the safety net: an exception nobody foresaw costs one tool, not the server."""
    from toolkit.mcp import provider as module

    def translate(schema, where="MCP tool"):
        if "boom" in where:
            raise TypeError("unexpected shape")
        return module_translate(schema, where)

    module_translate = module.translate_schema
    monkeypatch.setattr(module, "translate_schema", translate)
    with McpClient(_server([("boom", TAKES_X, None), ("good", TAKES_X, None)]), name="s") as client:
        provider = McpToolProvider([client])
        assert list(_tools(provider)) == ["good"]
    assert provider.left_out == {
        "s: boom": "MCP tool 'boom' of server 's' cannot be offered: TypeError: unexpected shape"
    }


NOT_JSON = (
    "it wrote a line that is not JSON ('listing tools now'); a stdio server must write only MCP messages to "
    "stdout (logs go to stderr)"
)


def test_a_line_that_is_not_json_answers_nothing_and_the_timeout_says_it_was_written():
    """Audit #14: the SDK logged the line (a traceback on stderr) and the timeout said nothing of
    it. A stray print answers no request (the real answer may still come): the request waits. The
    server writes it before its handshake answer and only the listing is bound by 2 s (the handshake
    by the default 30 s): the line is read before the listing's wait starts, whatever the load."""
    with McpClient.stdio(sys.executable, [HOSTILE, "not-json"], name="hostile") as client:
        provider = McpToolProvider([client], list_timeout=2)
        assert provider.provide() == []
    waited = f"MCP server 'hostile' did not answer within 2 s; {NOT_JSON}"
    assert provider.left_out == {"hostile": f"{waited} (left out for 60 s, then tried again)"}


def test_a_reply_that_is_not_json_rpc_fails_the_call_at_once():
    """Audit #14: `"result": null` was waited out and told the model the outcome was unknown."""
    with McpClient.stdio(sys.executable, [HOSTILE, "null-result"], name="hostile") as client:
        tools = _tools(McpToolProvider([client], timeout=HANG_S))
        started = time.monotonic()
        result = _run(tools, "t", '{"x": "a"}')
        assert time.monotonic() - started < HANG_S / 2  # not the call's timeout
        assert result.is_error and result.content == (
            "Tool 't' failed: MCP server 'hostile' broke the protocol: it sent a message that is not valid "
            "JSON-RPC 2.0 (a reply with a malformed result or error)"
        )
        assert _run(tools, "t", '{"x": "a"}').content == result.content  # still connected, still broken


def test_an_answer_whose_id_is_a_fraction_is_said_so():
    """It read "it sent a message that is not valid JSON-RPC 2.0 (a reply with a malformed result
    or error)": the result was whole; what was wrong was its id, 4.0 for the request's 4."""
    with McpClient.stdio(sys.executable, [HOSTILE, "float-id"], name="hostile", request_timeout=HANG_S) as client:
        tools = _tools(McpToolProvider([client], timeout=HANG_S))
        started = time.monotonic()
        result = _run(tools, "t", '{"x": "a"}')
        assert time.monotonic() - started < HANG_S / 2  # not the call's timeout
    said = re.escape("Tool 't' failed: MCP server 'hostile' broke the protocol: it sent a reply whose id is ")
    said += r"\d+\.0" + re.escape(", where a JSON-RPC id is a string or an integer (the id of the request it answers)")
    assert result.is_error and re.fullmatch(said, result.content)  # the id is the SDK's count


@pytest.mark.parametrize("code", [-32000, -32001])
def test_an_error_answer_with_a_code_the_sdk_uses_itself_is_the_server_s_answer(code):
    """MCP's SDKs raise -32000 when the connection closed and -32001 when a request timed out, codes
    JSON-RPC leaves to servers (-32000 is the usual "Server error"). A server answering with -32000
    was said to have gone away during the call (outcome unknown), and every later call was not sent;
    one answering -32001 at once "did not answer within 30 s"."""
    with McpClient.stdio(sys.executable, [HOSTILE, f"error-{code}"], name="hostile") as client:
        tools = _tools(McpToolProvider([client]))
        results = [_run(tools, "t", '{"x": "a"}') for _ in range(2)]
    assert [r.content for r in results] == 2 * [
        "Tool 't' failed: MCP server 'hostile' answered with an error: Server error: database is locked"
    ]


def test_an_answer_to_initialize_that_is_not_json_rpc_fails_the_connection_at_once():
    """`"result": [1, 2, 3]` for `initialize` was waited out: "no answer within 30 s". The handshake
    waits inside the SDK, not among the requests a broken message fails; now it fails too, at once."""
    client = McpClient.stdio(sys.executable, [HOSTILE, "list-init"], name="hostile", connect_timeout=HANG_S)
    started = time.monotonic()
    with pytest.raises(McpConnectionError) as caught:
        client.connect()
    assert time.monotonic() - started < HANG_S / 2  # not the connect timeout
    assert str(caught.value) == (
        "cannot reach MCP server 'hostile': it broke the protocol while connecting: it sent a message that is not "
        "valid JSON-RPC 2.0 (a reply with a malformed result or error)"
    )


def test_the_tools_command_reports_an_unreadable_server_in_one_line_without_a_traceback():
    """Audit #14: the SDK's traceback reached stderr through logging's last-resort handler. A
    subprocess, because pytest's own log handlers would hide that handler."""
    line = f"{sys.executable} {HOSTILE} not-json"
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "tools", "--mcp-stdio", line, "--timeout", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    name = f"{Path(sys.executable).name} {HOSTILE} not-json"
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"error: MCP server {name!r} did not answer within 2 s; {NOT_JSON}\n"


# --- images: passed on to a model that accepts them (issue 15 item 14) ----------------------


CHART_PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


@pytest.fixture(scope="module")
def charts():
    from mcp.server.mcpserver import Image, MCPServer

    server = MCPServer("charts")

    @server.tool()
    def chart() -> Image:
        """Draw this month's sales chart."""
        return Image(data=CHART_PNG, format="png")

    with McpClient(server, name="charts") as client:
        yield client


class _Spy:
    """A chat model that records the messages it is sent and passes them on."""

    def __init__(self, model):
        self.model, self.sent = model, []

    def chat(self, messages, **kwargs):
        self.sent.append([m.to_openai() for m in messages])
        return self.model.chat(messages, **kwargs)


def test_an_mcp_image_reaches_the_embedded_gateway_as_an_image_url_part(charts, tmp_path):
    """LangChain4j turns a tool's image into multimodal content (`DefaultToolExecutor`); over chat
    completions it goes in a user message after the tool results, which the gateway accepts."""
    import base64

    from toolkit.chat.switch import fake_client, replay_client

    cassette = tmp_path / "images.jsonl"
    model = _Spy(fake_client(record=str(cassette)))
    question = [UserMessage(content="请调用 chart")]
    result = run_loop(model, question, providers=[McpToolProvider([charts], accepts_images=True)])
    second = model.sent[1]
    call_id = second[1]["tool_calls"][0]["id"]
    assert [m["role"] for m in second] == ["user", "assistant", "tool", "user"]
    assert second[2]["content"] == (
        "[image (image/png) attached]\n[images of this result passed on in the user message after the tool results: 1]"
    )
    assert second[3]["content"] == [
        {"type": "text", "text": f"Images returned by tool call {call_id} (chart): 1"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(CHART_PNG).decode()}},
    ]
    assert (result.finish, result.answer) == ("answer", "为您查到：[image (image/png) attached]。")
    replayed = run_loop(
        replay_client(str(cassette)), question, providers=[McpToolProvider([charts], accepts_images=True)]
    )
    assert replayed.answer == result.answer  # a cassette with an image replays


def test_without_accepts_images_the_result_says_so_and_no_image_is_sent(charts):
    from toolkit.chat.switch import fake_client

    model = _Spy(fake_client())
    result = run_loop(model, [UserMessage(content="请调用 chart")], providers=[McpToolProvider([charts])])
    second = model.sent[1]
    assert [m["role"] for m in second] == ["user", "assistant", "tool"]
    assert second[2]["content"] == "[image (image/png) not passed on: this chat model does not accept images]"
    assert "image_url" not in json.dumps(second)
    assert result.rounds[0].images is None


# --- results the SDK refuses: structuredContent against outputSchema, input asked for forever -------

OUTPUT_N = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def _answering_server(output_schema, result):
    """An in-process server with one tool `o` (its `outputSchema` given) answering every call with `result`."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name="o", input_schema=TAKES_X, output_schema=output_schema)])

    async def call_tool(ctx, params):
        return result

    return Server("answers", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def _refused_cases():
    import mcp_types as types

    hi = [types.TextContent(text="hi")]
    ran = "; the call ran, but its result cannot be used"
    return [
        (
            OUTPUT_N,
            types.CallToolResult(content=hi, structured_content={"n": "seven"}),
            "tool 'o' answered with structured content that does not match its outputSchema ('seven' is not of "
            f"type 'integer', at n){ran}",
        ),
        (
            OUTPUT_N,
            types.CallToolResult(content=hi),
            f"tool 'o' has an outputSchema but answered without structured content{ran}",
        ),
        (
            {"type": "object", "properties": {"n": {"type": "integr"}}},
            types.CallToolResult(content=hi, structured_content={"n": 1}),
            "tool 'o' lists an outputSchema that is not valid JSON Schema ('integr' is not valid under any of the "
            "given schemas, at properties/n/type), so no answer of it can be checked; ask its author to fix it",
        ),
        (
            {"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}},
            types.CallToolResult(content=hi, structured_content={"n": 1}),
            "tool 'o' lists an outputSchema that refers to '#/$defs/N', which it does not define, so no answer of "
            "it can be checked; ask its author to fix it",
        ),
        (
            None,
            types.InputRequiredResult(request_state="again"),
            "tool 'o' answered that it needs more input (InputRequiredResult) more than 10 times in a row; "
            "this client stopped asking",
        ),
    ]


@pytest.mark.parametrize(
    "output_schema, result, problem", _refused_cases(), ids=["mismatch", "missing", "invalid", "dangling", "input"]
)
def test_an_answer_the_sdk_refuses_is_one_readable_line_on_both_channels(output_schema, result, problem):
    """The SDK refuses a result whose structuredContent does not match the tool's outputSchema (or an
    outputSchema it cannot use) with a RuntimeError: `call_tool` raised it raw, and the model read
    "Tool 'o' failed: RuntimeError: …" with jsonschema's many-line report (a `#/$defs/N` pointer as `#<path>`)."""
    with McpClient(_answering_server(output_schema, result), name="answers") as client:
        with pytest.raises(McpError) as caught:
            client.call_tool("o", {"x": "a"})
        assert str(caught.value) == f"MCP server 'answers' broke the protocol: {problem}"
        tools = _tools(McpToolProvider([client]))
        assert (
            _run(tools, "o", '{"x": "a"}').content
            == f"Tool 'o' failed: MCP server 'answers' broke the protocol: {problem}"
        )


def test_a_call_asked_for_more_input_round_after_round_ends_at_its_timeout_not_one_per_round():
    """The SDK's deadline is per round: a server answering each round within it that it needs more
    input (InputRequiredResult) held a call with timeout=1 for ten rounds (or until the caller's
    guard, 5 s past it), and then said it was refused, not that it timed out. Counted, not timed: a
    round takes 0.4 s, so a call held to 1 s sees at most 3."""
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from toolkit.errors import McpTimeout

    rounds = []

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name="o", input_schema=TAKES_X)])

    async def call_tool(ctx, params):
        rounds.append(1)
        await anyio.sleep(0.4)
        return types.InputRequiredResult(request_state="again")

    server = Server("asks", version="1", on_list_tools=list_tools, on_call_tool=call_tool)
    with McpClient(server, name="asks") as client:
        with pytest.raises(McpTimeout) as caught:
            client.call_tool("o", {"x": "a"}, timeout=1)
    assert str(caught.value) == "MCP server 'asks' did not answer within 1 s"
    assert 1 <= len(rounds) <= 3


def test_a_listing_cut_at_the_page_limit_says_so(monkeypatch):
    """A paginator that never ends (a new cursor and new tools on every page) is read up to
    `MAX_PAGES` pages: the tools after them were dropped without a word, and a server with many
    small pages lost tools the same way, `left_out` empty."""
    import toolkit.mcp.client

    monkeypatch.setattr(toolkit.mcp.client, "MAX_PAGES", 3)
    pages = {None if n == 0 else str(n): ([f"t{n}"], str(n + 1)) for n in range(10)}
    seen = []
    with McpClient(_paged_server(pages, seen), name="paged") as client:
        provider = McpToolProvider([client])
        assert list(_tools(provider)) == ["t0", "t1", "t2"]
        assert client.listing_cut == (
            "MCP server 'paged' lists its tools on more than 3 pages; only the first 3 pages (3 tools) were read, "
            "and the tools on later pages are not offered"
        )
    assert seen == [None, "1", "2"]
    assert provider.left_out == {"paged: (later pages)": client.listing_cut}
    assert not provider.partial


def test_a_listing_within_the_page_limit_is_not_cut(monkeypatch):
    import toolkit.mcp.client

    monkeypatch.setattr(toolkit.mcp.client, "MAX_PAGES", 3)
    pages = {None: (["a"], "1"), "1": (["b"], "2"), "2": (["c"], None)}
    with McpClient(_paged_server(pages, []), name="paged") as client:
        provider = McpToolProvider([client])
        assert list(_tools(provider)) == ["a", "b", "c"]
        assert client.listing_cut == ""
    assert provider.left_out == {}


def test_a_server_that_went_away_is_not_listed_from_the_cache_and_the_provider_connects_again():
    """After a stdio server died, `list_tools()` still answered from its cache: the provider offered
    the dead server's tools in every later run (each call "went away before this call; it was not
    sent"). The client now says it went away; the provider connects again (a new process) and
    offers the new server's tools (one that stays down: the test above)."""
    with McpClient.stdio(sys.executable, [QUIRKY], name="quirky") as client:
        provider = McpToolProvider([client])
        assert _run(_tools(provider), "crash").is_error
        assert client.gone == "Connection closed"
        with pytest.raises(McpConnectionError) as caught:
            client.list_tools()
        assert str(caught.value) == (
            "MCP server 'quirky' went away (Connection closed), and its tools cannot be listed; to reconnect, call "
            "its client's close() and use it again, or make a new client"
        )
        tools = _tools(provider)
        assert "echo" in tools and not provider.partial and client.gone == ""
        assert json.loads(_run(tools, "echo", '{"text": "again"}').content)["arguments"] == {"text": "again"}


def _second_start_fails(marker: Path) -> list[str]:
    """A stdio server that logs a line and serves the first time it starts, and exits at once,
    writing nothing, every later time."""
    code = (
        "import os, runpy, sys\n"
        f"if os.path.exists({str(marker)!r}): sys.exit(3)\n"
        f"open({str(marker)!r}, 'w').close()\n"
        "print('first session: all good', file=sys.stderr, flush=True)\n"
        f"sys.argv = ['mcp_server_time', *{TIME_ARGS[2:]!r}]\n"
        "runpy.run_module('mcp_server_time', run_name='__main__')\n"
    )
    return ["-c", code]


def test_a_failed_reconnect_quotes_only_what_that_server_wrote(tmp_path):
    """Before: the stderr file of a stdio server outlived `close()` and was written again by the next
    connection, so a reconnect whose server died silently was told with the first session's log
    ("its stderr: first session: all good")."""
    client = McpClient.stdio(sys.executable, _second_start_fails(tmp_path / "started"), name="flaky")
    with client:
        assert sorted(t.name for t in client.list_tools()) == ["convert_time", "get_current_time"]
    with pytest.raises(McpConnectionError) as caught:
        client.connect()
    assert "first session" not in str(caught.value)
    assert str(caught.value).startswith("cannot reach MCP server 'flaky': ")


@pytest.mark.parametrize("args", [TIME_ARGS, CRASH_AT_START], ids=["closed", "failed to start"])
def test_a_stdio_client_done_with_its_server_holds_no_open_file(args, monkeypatch):
    """Before: the file the server's stderr went to stayed open after `close()` (and after a failed
    connect) until the client was garbage: a `ResourceWarning` ("unclosed file") then, an error
    under `-W error` or pytest's unraisable-exception check, one descriptor per client until then.
    The files the client opens are watched themselves: a `ResourceWarning` counted after a
    `gc.collect()` could be another test's garbage (CI on a loaded machine saw one)."""
    import tempfile

    from toolkit.mcp import client as client_module

    opened = []
    make = tempfile.TemporaryFile

    def watched(*args, **kwargs):
        opened.append(make(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(client_module.tempfile, "TemporaryFile", watched)
    client = McpClient.stdio(sys.executable, args, name="server")
    try:
        client.connect()
    except McpConnectionError as exc:
        assert args is CRASH_AT_START and "its stderr: config file missing" in str(exc)
    client.close()
    assert len(opened) == 1 and opened[0].closed


def _changing_server():
    """A server whose `unlock` tool swaps its tools for `admin_delete` and says so
    (`notifications/tools/list_changed`, sent with the call's answer)."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    listed = ["unlock"]

    async def list_tools(ctx, params):
        return types.ListToolsResult(
            tools=[types.Tool(name=name, input_schema={"type": "object", "properties": {}}) for name in listed]
        )

    async def call_tool(ctx, params):
        listed[:] = ["admin_delete"]
        await ctx.session.send_notification(types.ToolListChangedNotification(), related_request_id=ctx.request_id)
        return types.CallToolResult(content=[types.TextContent(text=f"ran {params.name}")])

    return Server("changing", on_list_tools=list_tools, on_call_tool=call_tool)


def test_a_server_saying_its_tools_changed_is_listed_again():
    """The cache ignored `notifications/tools/list_changed`: the provider kept offering a tool the
    server had removed (each call 'Unknown tool') and never the one it added. LangChain4j's client
    marks its tool list out of date on that notification; so does this one."""
    with McpClient(_changing_server(), name="changing") as client:
        provider = McpToolProvider([client])
        assert list(_tools(provider)) == ["unlock"]
        assert _run(_tools(provider), "unlock").content == "ran unlock"
        assert list(_tools(provider)) == ["admin_delete"]
        assert [t.name for t in client.list_tools()] == ["admin_delete"]  # cached again: nothing changed since


# --- who a result is for: MCP's annotations.audience ----------------------------------------------


def _for(text, *audience):
    """A text block whose `annotations.audience` is `audience`."""
    import mcp_types as types

    return types.TextContent(text=text, annotations=types.Annotations(audience=list(audience)))


def _answer(blocks, is_error=False, structured=None, **settings):
    """What the model and the result read when tool `o` answers with `blocks` (and `structured`)."""
    import mcp_types as types

    result = types.CallToolResult(content=blocks, is_error=is_error, structured_content=structured)
    with McpClient(_answering_server(None, result), name="answers") as client:
        return _run(_tools(McpToolProvider([client], **settings)), "o", '{"x": "a"}')


def test_content_for_the_user_only_is_not_sent_to_the_model_and_stays_on_the_result():
    """MCP's `annotations.audience` says who a block is for; a block for ["user"] only (a table to
    show, a receipt) was sent to the model all the same. Now it is kept in the result's `for_user`
    attribute (the conversation view shows it, marked not sent to the model)."""
    import mcp_types as types

    result = _answer(
        [
            _for("3 orders found", "assistant"),
            _for("| id | total |", "user"),
            types.TextContent(text="no audience said"),
            _for("for both", "user", "assistant"),
            _for("an empty audience", *()),
        ]
    )
    assert result.content == "3 orders found\nno audience said\nfor both\nan empty audience"
    assert result.attributes == {"for_user": ["| id | total |"]}


def test_a_result_wholly_for_the_user_tells_the_model_so():
    """Every block for the user only: the model read '' (as if the tool had answered nothing)."""
    result = _answer([_for("| id | total |", "user"), _for("receipt #7", "user")])
    assert result.content == (
        '[the result is for the user only (its audience is "user"), so it is not shown here: 2 content blocks]'
    )
    assert result.attributes == {"for_user": ["| id | total |", "receipt #7"]}
    error = _answer([_for("Traceback (most recent call last): ...", "user")], is_error=True)
    assert error.content == (
        "Tool 'o' failed: [the result is for the user only (its audience is \"user\"), so it is not shown "
        "here: 1 content block]"
    )


# --- structuredContent beside text blocks -----------------------------------------------------------


def test_structured_content_beside_the_text_the_model_reads_stays_on_the_result():
    """The model reads the content blocks, as openai-agents (`use_structured_content=False`, its
    default) and Claude Code do: a server writes them for a reader, and MCP's text block is the
    structured value's JSON (or says the same, as the SDK's own servers write a str or a list). A
    server whose structuredContent says something else (the orders behind 'Found 2 orders') had
    it dropped without a trace; it is kept in the result's `structured_content` attribute."""
    import mcp_types as types

    result = _answer([types.TextContent(text="Found 2 orders")], structured={"orders": [{"id": 1}, {"id": 2}]})
    assert result.content == "Found 2 orders"
    assert result.attributes == {"structured_content": {"orders": [{"id": 1}, {"id": 2}]}}
    alone = _answer([], structured={"orders": []})  # no block: the model reads the value itself, and it is kept
    assert (alone.content, alone.attributes) == ('{"orders": []}', {"structured_content": {"orders": []}})


def test_structured_content_longer_than_a_result_is_kept_cut_as_text():
    """The value is kept as the result's text is: past `max_result_chars`, its JSON cut."""
    import mcp_types as types

    result = _answer([types.TextContent(text="many")], structured={"n": "x" * 40}, max_result_chars=20)
    assert result.attributes == {
        "structured_content": '{"n": "xxxxxxxxxxxxx\n[cut here: the result has 49 characters, and only the first 20 are '
        "shown; if you need the rest, call the tool again for less at a time]"
    }


@pytest.mark.parametrize("message", ["", "  \n "])
def test_an_error_answer_without_a_message_says_its_code(message):
    """A server answering a call with a JSON-RPC error whose message is blank read "MCP server
    'answers' answered with an error:" and nothing after it; its code is all it said."""
    from mcp.shared.exceptions import MCPError

    async def fails(name):
        raise MCPError(-32603, message)

    with McpClient(_server([("t", TAKES_X, None)], on_call=fails), name="answers") as client:
        with pytest.raises(McpError) as caught:
            client.call_tool("t", {"x": "a"})
    assert str(caught.value) == "MCP server 'answers' answered with an error: code -32603, without a message"


def test_a_resource_link_s_description_reaches_the_model():
    """A resource link says what it points to by its name, URI and description (a search server's
    hits); the description was dropped, so the model read a list of file names."""
    import mcp_types as types

    link = types.ResourceLink(
        name="q3.pdf", uri="file:///q3.pdf", mime_type="application/pdf", description="Quarterly report, Q3 2026"
    )
    assert _answer([link]).content == (
        "[resource_link (q3.pdf, file:///q3.pdf, application/pdf): a link to a resource, not read; its "
        "description: Quarterly report, Q3 2026]"
    )


def test_an_image_in_base64_lines_is_passed_on_as_one_line():
    """An image's base64 in lines of 76 characters (Python's base64.encodebytes) went into its data
    URL as it was, line breaks and all, which a gateway reads as broken base64."""
    import base64

    import mcp_types as types

    png = b"\x89PNG\r\n\x1a\n" + bytes(range(120))
    image = types.ImageContent(data=base64.encodebytes(png).decode(), mime_type="image/png")
    result = _answer([image], accepts_images=True)
    assert result.attributes == {"images": ["data:image/png;base64," + base64.b64encode(png).decode()]}


def test_a_result_s_resource_links_are_kept_as_far_as_its_text_is():
    """20,000 resource links were kept whole in the result's `resource_links` (1.7 MB, stored with memory
    and served again by `toolkit.mcp.server`) while the model read the first 100,000 characters. The
    links kept are the first whose JSON takes `max_result_chars` in all; None keeps every one."""
    import json

    import mcp_types as types

    links = [types.ResourceLink(name=f"f{i}", uri=f"file:///d/f{i}.csv") for i in range(40)]
    one = len(json.dumps({"name": "f0", "uri": "file:///d/f0.csv", "type": "resource_link"}, ensure_ascii=False))
    kept = _answer(links, max_result_chars=5 * one + 1).attributes["resource_links"]
    assert [link["name"] for link in kept] == ["f0", "f1", "f2", "f3", "f4"]
    assert len(_answer(links, max_result_chars=None).attributes["resource_links"]) == 40


@pytest.mark.parametrize("blocks", [[], [""], [" \n\t"], ["", "  "]], ids=["none", "empty", "blank", "two-blank"])
def test_an_error_result_without_words_says_so_not_an_exception_class(blocks):
    """`isError: true` with blank text read "Tool 'o' failed: McpToolError" (the class name, when the
    exception's message is blank): the model learnt nothing it could act on, in Python's words."""
    import mcp_types as types

    result = _answer([types.TextContent(text=text) for text in blocks], is_error=True)
    assert (result.is_error, result.content) == (
        True,
        "Tool 'o' failed: the server reported an error without a message",
    )
