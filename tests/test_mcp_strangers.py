"""`toolkit.mcp` against stdio servers nobody here would write (`mcp_servers/stranger_server.py`):
tool lists the SDK refuses, results of every kind, junk on stdout, servers that never answer."""

import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from toolkit.chat.messages import ToolCall, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import McpConnectionError, McpError, McpTimeout
from toolkit.loop.run import run_loop
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider

STRANGER = str(Path(__file__).parent / "mcp_servers" / "stranger_server.py")


@pytest.fixture
def stranger(request):
    """A client of the stranger server in the mode given by `@pytest.mark.parametrize("stranger", [MODE])`."""
    with McpClient.stdio(sys.executable, [STRANGER, request.param], name=request.param, request_timeout=30) as client:
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


def test_without_the_sdk_s_private_listing_pieces_the_page_fails_as_the_sdk_failed_it(monkeypatch):
    """`_raw_listing` reads the SDK's private session state (there is no public way to ask for a page
    the SDK would not check): in an SDK version without it, the server is left out with the SDK's error."""
    import toolkit.mcp.client

    assert toolkit.mcp.client._raw_listing(object()) is None  # what another SDK version gives
    monkeypatch.setattr(toolkit.mcp.client, "_raw_listing", lambda session: None)
    with McpClient.stdio(sys.executable, [STRANGER, "names"], name="names", request_timeout=30) as client:
        provider = McpToolProvider([client])
        assert provider.provide() == []
    assert provider.left_out == {
        "names": "MCP server 'names' broke the protocol: ValidationError: 4 validation errors for ListToolsResult "
        "(tools.6.inputSchema: Field required) (left out for 60 s, then tried again)"
    }


@pytest.fixture(scope="module")
def contents():
    """The stranger server's tools that answer with every kind of content, as toolkit tools."""
    with McpClient.stdio(sys.executable, [STRANGER, "contents"], name="contents", request_timeout=30) as client:
        yield {t.name: t for t in McpToolProvider([client], timeout=30).provide()}


def test_an_answer_that_is_not_utf_8_is_read_with_replacement_characters_and_the_server_stays(contents):
    """A byte that is not UTF-8 on the server's stdout stopped the SDK's reader: that call and
    every later one waited out its deadline ("no answer within 5 s"), the answer lost."""
    assert _run(contents, "bad_utf8").content == "caf\ufffd \ufffd"
    assert _run(contents, "structured").content == '{"total": 3}'


def test_an_unpaired_surrogate_in_the_arguments_is_an_error_result_and_the_server_stays(contents):
    """`"\\ud800"` is valid JSON a model may write; the SDK's writer task could not encode it and
    the connection ended: "went away during the call", and every later call "was not sent"."""
    result = _run(contents, "structured", '{"x": "\\ud800"}')
    assert result.is_error and result.content == (
        "Tool 'structured' failed: the call to 'structured' was not sent to MCP server 'contents': its arguments "
        "hold '\\ud800', an unpaired surrogate, which is no character; send text"
    )
    assert _run(contents, "structured").content == '{"total": 3}'


def test_a_result_that_is_not_valid_mcp_says_what_is_wrong_with_it(contents):
    """A result without `content` read only "1 validation error for CallToolResult"."""
    result = _run(contents, "no_content")
    assert result.is_error and result.content == (
        "Tool 'no_content' failed: MCP server 'contents' broke the protocol: ValidationError: 1 validation error "
        "for CallToolResult (content: Field required)"
    )


def test_an_answer_with_an_escaped_unpaired_surrogate_is_read_with_a_replacement_character(contents):
    """Python's `json.dumps` writes a file name read with `surrogateescape` as `"caf\\udce9.txt"`;
    the SDK's parser refused the line as not JSON, so the answer was lost and the call waited out
    its deadline, telling the model its outcome was unknown."""
    assert _run(contents, "file_name").content == "caf\ufffd.txt"


@pytest.mark.parametrize("stranger", ["junk", "json-logs", "deep"], indirect=True)
def test_log_lines_on_stdout_answer_nothing_and_the_server_is_used_as_any_other(stranger):
    """A JSON log record on stdout (`{"level": 30, "msg": …}`, what pino writes by default) failed
    the connection: "cannot reach MCP server: it broke the protocol while connecting … (a reply with
    a malformed result or error)"; a plain-text line was already let through. A line nested deeper
    than Python's JSON parser goes, holding an escaped lone surrogate, ended the connection: reading
    it again for that surrogate raised RecursionError in the task reading the server's stdout."""
    provider = McpToolProvider([stranger])
    tools = {t.name: t for t in provider.provide()}
    assert (list(tools), provider.left_out) == (["t"], {})
    assert [_run(tools, "t").content for _ in range(2)] == ["ok t", "ok t"]


@pytest.mark.parametrize(
    "name, text",
    [
        ("link", "[resource_link (b.txt, file:///b.txt, text/plain): a link to a resource, not read]"),
        (
            "signed_link",
            "[resource_link (report, https://files.example/r.pdf?token=***): a link to a resource, not read]",
        ),
        ("blob", "[resource (file:///a.bin) content not shown]"),
        ("audio", "[audio (audio/wav) content not shown]"),
        ("image", "[image (image/png) not passed on: this chat model does not accept images]"),
    ],
)
def test_a_block_that_is_not_text_is_named_with_its_resource_s_uri(contents, name, text):
    """A resource link read "[resource_link (text/plain) content not shown]": its name and URI, the
    whole of what it says, were lost; an embedded resource did not say which one it was."""
    result = _run(contents, name)
    assert (result.is_error, result.content) == (False, text)


def test_a_number_json_cannot_carry_is_an_error_result_not_null(contents):
    """`NaN` (which Python's JSON reader takes) was sent to the server as null."""
    result = _run(contents, "structured", '{"x": "a", "y": NaN}')  # a field its schema does not name
    assert result.is_error and result.content == (
        "Tool 'structured' failed: the call to 'structured' was not sent to MCP server 'contents': its arguments "
        "hold a number JSON cannot carry (NaN or Infinity); send a finite number"
    )


def test_a_server_that_cannot_start_and_says_why_on_stdout_is_quoted_in_the_error():
    """A server started with wrong arguments that printed its usage on stdout and exited read only
    "cannot reach MCP server 's': MCPError: Connection closed": its one clue was dropped."""
    usage = "print('usage: server.py --port N'); import sys; sys.exit(2)"
    client = McpClient.stdio(sys.executable, ["-c", usage], name="s", connect_timeout=30)
    with pytest.raises(McpConnectionError) as raised:
        client.connect()
    assert str(raised.value) == (
        "cannot reach MCP server 's': MCPError: Connection closed; it wrote a line that is not JSON ('usage: "
        "server.py --port N'); a stdio server must write only MCP messages to stdout (logs go to stderr)"
    )


def test_a_server_that_never_answers_times_out_the_loop_goes_on_and_close_kills_and_reaps_it(tmp_path, monkeypatch):
    """The call is an error result after its deadline, the loop answers, and `close()` leaves no
    process behind (not even a zombie), though the server ignores its closed stdin and SIGTERM."""
    import mcp.client.stdio

    for grace in ("PROCESS_TERMINATION_TIMEOUT", "FORCE_KILL_TIMEOUT"):  # the SDK's 2 s each: kept short here
        monkeypatch.setattr(mcp.client.stdio, grace, 0.2)
    pid_file = tmp_path / "pid"
    client = McpClient.stdio(sys.executable, [STRANGER, "silent"], env={"PID_FILE": str(pid_file)}, name="silent")
    model = ScriptedModel([call("t", x="a"), "The server did not answer."])
    result = run_loop(model, [UserMessage(content="go")], providers=[McpToolProvider([client], timeout=0.3)])
    assert result.answer == "The server did not answer."
    assert result.new_messages[1].is_error and result.new_messages[1].content.startswith(
        "Tool 't' failed: no answer within 0.3 s, so the call was cancelled."
    )
    pid = int(pid_file.read_text())
    client.close()
    assert not Path(f"/proc/{pid}").exists()  # killed and reaped: a zombie keeps its /proc entry


WRONG_ID = "MCP server 'ids' broke the protocol: it sent {what}, the id of no request waiting for an answer; a server answers each request with that request's id"


@pytest.mark.parametrize(
    "name, what",
    [
        ("never_sent", "an answer with id 424242"),
        ("null", "an error with id null ('Parse error')"),
        ("answered", "an answer with id {initialize}"),
    ],
)
def test_an_answer_with_another_request_s_id_fails_the_call_at_once_and_the_server_stays(name, what):
    """The SDK drops an answer whose id no request waits for: the call waited out its whole deadline
    ("did not answer within 20 s") though the server had answered at once, with the wrong id (one
    it answered already, one never sent, or `null`, as JSON-RPC has it for a request it could not read)."""
    with McpClient.stdio(sys.executable, [STRANGER, "ids"], name="ids", request_timeout=120) as client:
        client.list_tools()
        started = time.monotonic()
        with pytest.raises(McpError) as raised:
            client.call_tool(name, {})
        assert time.monotonic() - started < 60  # not the 120 s request timeout
        assert type(raised.value) is McpError
        initialize = re.search(r"id (\d+)", str(raised.value))[1] if name == "answered" else ""
        assert str(raised.value) == WRONG_ID.format(what=what.format(initialize=initialize))
        assert client.call_tool("t", {}).content[0].text == "ok t"


def test_a_late_answer_to_a_call_given_up_on_is_no_mistake(tmp_path):
    """A call past its deadline is cancelled (`notifications/cancelled`); the server's answer may
    still come, during the next call, and fails nothing."""
    with McpClient.stdio(sys.executable, [STRANGER, "ids"], name="ids", request_timeout=20) as client:
        client.list_tools()
        with pytest.raises(McpTimeout):
            client.call_tool("slow", {}, timeout=0.3)
        assert client.call_tool("t", {}).content[0].text == "ok t"
        assert client.call_tool("slow", {}).content[0].text == "ok slow"


def test_a_handshake_answered_with_another_id_fails_the_connection_at_once():
    """The answer to `initialize` with an id never sent: connecting waited out its 20 s."""
    server = (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    if request.get('method') == 'initialize':\n"
        "        print(json.dumps({'jsonrpc': '2.0', 'id': 'x7', 'result': {}}), flush=True)\n"
        "    elif 'id' in request:\n"
        "        error = {'code': -32601, 'message': 'Method not found'}\n"
        "        print(json.dumps({'jsonrpc': '2.0', 'id': request['id'], 'error': error}), flush=True)\n"
    )
    client = McpClient.stdio(sys.executable, ["-c", server], name="s", connect_timeout=120)
    started = time.monotonic()
    with pytest.raises(McpConnectionError) as raised:
        client.connect()
    assert time.monotonic() - started < 60  # not the 120 s connect timeout
    assert str(raised.value) == (
        "cannot reach MCP server 's': it broke the protocol while connecting: it sent an answer with id \"x7\", "
        "the id of no request waiting for an answer; a server answers each request with that request's id"
    )


CUT = (
    "\n[cut here: the result has {total:,} characters, and only the first {kept:,} are shown; "
    "if you need the rest, call the tool again for less at a time]"
)


def test_a_huge_result_is_cut_to_max_result_chars_and_the_model_is_told(contents):
    """A server's 10 MB text went whole to the model: a request no gateway takes (or pays for)."""
    result = _run(contents, "huge")
    assert (result.is_error, result.content) == (False, "x" * 100_000 + CUT.format(total=10_000_000, kept=100_000))


@pytest.mark.parametrize("limit", [None, 10])
def test_max_result_chars_is_a_setting_and_none_keeps_the_whole_result(limit):
    with McpClient.stdio(sys.executable, [STRANGER, "contents"], name="contents", request_timeout=30) as client:
        tools = {t.name: t for t in McpToolProvider([client], max_result_chars=limit).provide()}
        text = _run(tools, "huge").content
    assert text == ("x" * 10_000_000 if limit is None else "x" * 10 + CUT.format(total=10_000_000, kept=10))


SLOW_TO_CLOSE = (
    "MCP server '{name}' was slow to close: a stdio server is asked to stop by closing its stdin, and it did not "
    "exit within the MCP SDK's 0.4 s grace, so it was sent SIGTERM (and SIGKILL 0.4 s later, if still running); "
    "a server should exit when its stdin closes"
)


@pytest.fixture
def short_grace(monkeypatch):
    """The SDK's grace periods (2 s each) kept short: how long a stubborn server takes to stop."""
    import mcp.client.stdio

    for grace in ("PROCESS_TERMINATION_TIMEOUT", "FORCE_KILL_TIMEOUT"):
        monkeypatch.setattr(mcp.client.stdio, grace, 0.4)


def test_closing_a_server_that_ignores_its_closed_stdin_says_why_it_was_slow(tmp_path, short_grace, caplog):
    """Closing took the SDK's grace periods (4 s) and said nothing: it looked like toolkit hanging."""
    pid_file = tmp_path / "pid"
    client = McpClient.stdio(sys.executable, [STRANGER, "silent"], env={"PID_FILE": str(pid_file)}, name="silent")
    client.list_tools()
    with caplog.at_level("WARNING", logger="toolkit.mcp"):
        client.close()
    assert [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"] == [SLOW_TO_CLOSE.format(name="silent")]
    assert not Path(f"/proc/{pid_file.read_text()}").exists()


def test_closing_a_server_that_exits_on_its_closed_stdin_says_nothing(caplog):
    with McpClient.stdio(sys.executable, [STRANGER, "junk"], name="junk") as client:
        client.list_tools()
        with caplog.at_level("WARNING", logger="toolkit.mcp"):
            client.close()
    assert [r for r in caplog.records if r.name == "toolkit.mcp"] == []


def test_a_provider_closes_its_servers_at_once(tmp_path, short_grace, monkeypatch):
    """Three servers that ignore their closed stdin and SIGTERM were closed one after the other: three
    times the SDK's grace periods (12 s by default). No clock on the close: each server's SIGTERM waits
    until all three are being terminated, which happens only when they are closed at the same time.
    One after the other, the first waits (a client's close gives up on its connection after 10 s) and
    its close returns before the next server is terminated. Before: a 5 s barrier stood for "at the
    same time", and a loaded machine starting the third close late broke it."""
    import mcp.client.stdio

    terminate, all_three = mcp.client.stdio._terminate_process_tree, threading.Barrier(3, timeout=60)
    said: list[str] = []  # in order: a server being terminated, a client's close returning

    async def when_all_three_are_here(process):
        said.append("terminating")
        try:
            all_three.wait()  # each client has its own loop thread: this blocks only this one's
        except threading.BrokenBarrierError:  # a hang guard: one after the other, the barrier meets late
            said.append("broken")
        await terminate(process)

    def closing(self, close=McpClient.close):
        close(self)
        said.append("closed")

    monkeypatch.setattr(mcp.client.stdio, "_terminate_process_tree", when_all_three_are_here)
    monkeypatch.setattr(McpClient, "close", closing)
    clients = [
        McpClient.stdio(sys.executable, [STRANGER, "silent"], env={"PID_FILE": str(tmp_path / str(n))}, name=f"s{n}")
        for n in range(3)
    ]
    provider = McpToolProvider(clients)
    provider.provide()
    provider.close()
    assert said == ["terminating"] * 3 + ["closed"] * 3  # all three in their grace periods at once
    assert not any(Path(f"/proc/{(tmp_path / str(n)).read_text()}").exists() for n in range(3))


@pytest.mark.parametrize("stranger", ["tasks"], indirect=True)
def test_a_tool_that_must_run_as_a_task_is_left_out_and_the_others_are_offered(stranger):
    """@modelcontextprotocol/server-everything 2026.8.31 lists `simulate-research-query` with
    `"execution": {"taskSupport": "required"}`: it answers a plain `tools/call` (which is all this
    client sends) with -32601 "requires task augmentation". It was offered to the model all the
    same, and every call of it failed; "optional" and "forbidden" tools run as any other."""
    provider = McpToolProvider([stranger])
    tools = {t.name: t for t in provider.provide()}
    assert list(tools) == ["summarize", "add"]
    assert provider.left_out == {
        "tasks: research": "MCP tool 'research' of server 'tasks' runs only as a task (its execution.taskSupport "
        'is "required"), and this client calls tools directly, so every call would fail; it is not offered'
    }
    model = ScriptedModel([call("summarize", x="a"), call("add", x="b"), "Done."])
    result = run_loop(model, [UserMessage(content="go")], providers=[provider])
    assert [m.content for m in result.new_messages if m.role == "tool"] == ["ok summarize", "ok add"]


def test_an_embedded_text_resource_s_text_is_passed_on_after_its_name(contents):
    """@modelcontextprotocol/server-everything 2026.8.31's `get-resource-reference` answers with an
    embedded resource holding text (`{"type": "resource", "resource": {"uri": …, "mimeType":
    "text/plain", "text": …}}`): the model read "[resource (…, text/plain) content not shown]", and
    the text the server sent in its result was lost. A blob is still only named (above)."""
    result = _run(contents, "resource")
    assert (result.is_error, result.content) == (False, "[resource (file:///a.txt, text/plain)]\ninside")


def test_a_secret_the_server_was_given_is_masked_in_what_its_tools_answer():
    """@modelcontextprotocol/server-everything 2026.8.31's `get-env` answers with its environment:
    the `GITHUB_TOKEN` a learner gave it (`env=`) went to the model as it was, though every error
    of the client masks it. A result now masks each secret the server was given, as the client's
    errors do; the rest of the answer is kept. (An error result's labelled secret was already
    redacted, as every tool error is.)"""
    env = {"SHOP_API_KEY": "q7Zr-secret-value-42", "SHOP_REGION": "eu-west-1"}
    client = McpClient.stdio(sys.executable, [STRANGER, "env"], env=env, name="env", request_timeout=30)
    model = ScriptedModel([call("env", x="a"), call("env_error", x="a"), "Done."])
    with client:
        result = run_loop(model, [UserMessage(content="go")], providers=[McpToolProvider([client])])
    shown = '{\n  "SHOP_API_KEY": "***",\n  "SHOP_REGION": "eu-west-1"\n}'
    tool_messages = [m for m in result.new_messages if m.role == "tool"]
    assert [(m.is_error, m.content) for m in tool_messages] == [
        (False, shown),
        (True, "Tool 'env_error' failed: " + shown.replace("***", "[REDACTED]")),
    ]


@pytest.mark.parametrize(
    "name, text",
    [
        ("text_blob", "[resource (demo://blob/2, text/plain)]\ncafé"),
        ("latin1_blob", "[resource (demo://blob/3, text/plain) content not shown]"),
        ("wrapped_blob", "[resource (demo://blob/4, text/markdown)]\n# Notes\n" + "café " * 20),
        ("declared_latin1_blob", "[resource (demo://blob/5, text/plain; charset=ISO-8859-1)]\ncafé"),
    ],
)
def test_an_embedded_blob_of_text_is_passed_on_as_text(contents, name, text):
    """@modelcontextprotocol/server-everything 2026.8.31's `get-resource-reference` with
    `resourceType: "Blob"` embeds a resource whose `mimeType` is text/plain, its text base64-encoded
    in `blob`: it read "[resource (…) content not shown]". A blob of a text type that is UTF-8 is
    passed on as the text it is; other blobs are still only named. Base64 in lines (Python's
    `base64.encodebytes`) and a text in the charset its type names were dropped as not shown."""
    result = _run(contents, name)
    assert (result.is_error, result.content) == (False, text)


def test_a_notification_that_is_not_valid_mcp_costs_no_traceback_on_stderr():
    """A log notification at a level MCP does not have (`"verbose"`, a winston level a Node server
    may pass on) left the call alone, but the SDK logged "Failed to validate notification" with a
    traceback under its logger `client`, which reached stderr through logging's last resort (a
    red block in a notebook). Its records now go only where the application configured logging.
    A subprocess, because pytest's own log handlers would hide the last-resort handler."""
    script = (
        "import sys\n"
        "from toolkit.mcp.client import McpClient\n"
        f"with McpClient.stdio(sys.executable, [{STRANGER!r}, 'bad-notify'], request_timeout=30) as client:\n"
        "    print(client.call_tool('t', {'x': 'a'}).content[0].text)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok t\n", "")


def test_a_result_cut_for_the_model_keeps_an_emoji_whole_and_counts_what_it_kept():
    from toolkit.mcp.provider import cut_text

    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # five code points
    assert cut_text("ab" + family * 3, 9) == "ab" + family + CUT.format(total=17, kept=7)


def test_a_handshake_answer_that_is_not_valid_mcp_says_what_is_wrong():
    """An `initialize` answered without `capabilities` and `serverInfo` failed the connection as
    "ValidationError: 2 validation errors for InitializeResult", naming no field."""
    server = (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    if 'id' in request:\n"
        "        result = {'protocolVersion': '2025-06-18'}\n"
        "        print(json.dumps({'jsonrpc': '2.0', 'id': request['id'], 'result': result}), flush=True)\n"
    )
    client = McpClient.stdio(sys.executable, ["-c", server], name="s", connect_timeout=120)
    with pytest.raises(McpConnectionError) as raised:
        client.connect()
    assert str(raised.value) == (
        "cannot reach MCP server 's': ValidationError: 2 validation errors for InitializeResult "
        "(capabilities: Field required)"
    )


def test_a_server_speaking_a_protocol_version_the_sdk_does_not_know_is_said_so_with_what_would_do():
    """MCP: a client that does not speak the version the server answers with disconnects. The error
    read "cannot reach MCP server 'version': RuntimeError: Unsupported protocol version from the
    server: 2099-01-01" (a Python class, and no word on what would work)."""
    client = McpClient.stdio(sys.executable, [STRANGER, "version"], name="version", connect_timeout=30)
    with pytest.raises(McpConnectionError) as caught:
        client.connect()
    assert str(caught.value) == (
        "cannot reach MCP server 'version': it answered in MCP protocol version '2099-01-01', which this client "
        "does not speak (it asked for 2025-11-25 and speaks 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25); "
        "a newer mcp package may speak it, or the server may be set to an older version"
    )


def test_a_block_of_a_type_the_sdk_does_not_know_is_named_over_stdio_too(contents):
    """A later MCP version's block type made the SDK refuse the whole answer (`toolkit.mcp.blocks`)."""
    result = _run(contents, "video")
    assert not result.is_error
    assert result.content == "[video content not shown: a content type this client does not read]\na clip"


def test_a_stdio_server_slow_to_start_is_told_with_the_setting_that_gives_it_longer():
    """`npx -y some-server` installs the server on its first start, which takes longer than the
    default 10 s: the error said "no answer within 10 s", and nothing of what to change."""
    silent = [sys.executable, "-c", "import sys; sys.stdin.read()"]  # never answers; exits when stdin closes
    with pytest.raises(McpConnectionError) as caught:
        McpClient.stdio(silent[0], silent[1:], name="slow", connect_timeout=0.3).connect()
    assert str(caught.value) == (
        "cannot reach MCP server 'slow': TimeoutError: no answer within 0.3 s; a server that installs itself "
        "on its first start (npx -y, uvx) may need longer: McpClient.stdio(..., connect_timeout=120)"
    )


@pytest.mark.parametrize("stranger", ["deep-listing"], indirect=True)
def test_an_answer_nested_deeper_than_the_sdk_reads_fails_its_request_at_once_saying_so(stranger):
    """Before: the SDK's "Invalid JSON: recursion limit exceeded" was taken for a stray print on stdout: the listing
    waited out its whole deadline, then said the server "wrote a line that is not JSON … (logs go to stderr)"."""
    provider = McpToolProvider([stranger])
    started = time.monotonic()
    assert provider.provide() == []
    assert time.monotonic() - started < 25  # a guard against the old wait of the request's 30 s, not a timing
    assert provider.left_out == {
        "deep-listing": "MCP server 'deep-listing' broke the protocol: it sent a message nested deeper than JSON is "
        "read here (recursion limit exceeded at line 1 column 3913), so it could not be read; ask its author to nest "
        "less (a tool's inputSchema can name a repeated part once in $defs and refer to it with $ref) (left out for "
        "60 s, then tried again)"
    }
