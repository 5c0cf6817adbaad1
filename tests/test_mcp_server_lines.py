"""`toolkit.mcp.server` over stdio, driven by strangers: `python -m toolkit mcp-server` read by a
client that writes raw JSON-RPC lines on its stdin (every line gets JSON-RPC's answer, and the
server goes on serving), and served tools whose answers the SDK cannot write as they are."""

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import toolkit
from toolkit.errors import ToolDefinitionError
from toolkit.mcp.client import McpClient
from toolkit.mcp.server import tools_server
from toolkit.tools.decorator import tool

SERVER = [sys.executable, "-m", "toolkit", "mcp-server", "--today", "2026-10-25"]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}
HANDSHAKE = [json.dumps(INITIALIZE), '{"jsonrpc": "2.0", "method": "notifications/initialized"}']
"""The lines a client starts with: `initialize`, then the `initialized` notification."""
CALL = '{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "query_order", "arguments": {"orderId": "\\ud800"}}}'


HANG_S = 60
"""How long an answer may take before the server is taken not to answer (a bound, not a speed)."""


def _answers(lines: list[str], count: int) -> list[dict]:
    """The server's first `count` answers to `lines`, sorted by id (fewer when it stops answering
    for `HANG_S`). Its stdin stays open until they are read, so a count too high is waited out
    rather than ended by the server's exit."""
    with subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as server:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write("".join(line + "\n" for line in lines))
        server.stdin.flush()
        read: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [read.put(line) for line in server.stdout], daemon=True).start()
        answers = []
        with contextlib.suppress(queue.Empty):
            while len(answers) < count:
                answers.append(json.loads(read.get(timeout=HANG_S)))
        server.stdin.close()
        assert server.wait(timeout=30) == 0
    return sorted(answers, key=lambda a: str(a.get("id")))


def test_a_line_that_is_no_json_rpc_message_is_answered_with_json_rpc_s_error_and_serving_goes_on():
    """The SDK dropped such a line unanswered: a client whose request had an unpaired surrogate
    (valid JSON that the SDK's parser refuses) waited out its deadline."""
    lines = [
        *HANDSHAKE,
        "{not json",
        '[{"jsonrpc": "2.0", "id": 2, "method": "ping"}]',
        '{"id": 3, "method": "ping"}',
        CALL,
        '{"jsonrpc": "2.0", "id": 5, "method": "ping"}',
    ]
    answers = _answers(lines, 6)
    assert answers[0]["id"] == 1 and answers[0]["result"]["serverInfo"]["name"] == "toolkit-shop"
    assert answers[1:] == [
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32600, "message": BATCH}},
        {"jsonrpc": "2.0", "id": 3, "error": {"code": -32600, "message": INVALID}},
        {"jsonrpc": "2.0", "id": 4, "error": {"code": -32700, "message": SURROGATE}},
        {"jsonrpc": "2.0", "id": 5, "result": {}},
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error: the line is not JSON"}},
    ]


INVALID = "Invalid Request: not a JSON-RPC 2.0 message (an object with jsonrpc, id, method and params)"
SURROGATE = "Parse error: it holds an unpaired surrogate or other text that is not Unicode"


SERVED = str(Path(__file__).parent / "mcp_servers" / "served_tools.py")
UNDER_TEST = {"PYTHONPATH": str(Path(toolkit.__file__).parents[1])}
"""The SDK starts a server with a few variables only: without this one, the server would import
the installed toolkit, not the one under test."""


def test_a_served_tool_s_text_with_an_unpaired_surrogate_reaches_the_client_and_the_server_stays():
    """A tool returning a file name read with `surrogateescape` ended the whole stdio server: the
    SDK's writer could not encode the answer, the call timed out and the next one found it gone."""
    with McpClient.stdio(sys.executable, [SERVED], env=UNDER_TEST, name="served", request_timeout=30) as client:
        assert [b.text for b in client.call_tool("file_name", {}).content] == ["caf\ufffd.txt"]
        assert [b.text for b in client.call_tool("echo", {"text": "still here"}).content] == ["still here"]


@tool
def order() -> str:
    """Place the order (it writes)."""
    return "placed"


@tool
def query_order() -> str:
    """Read the order."""
    return "read"


@pytest.mark.parametrize(
    "read_only, text",
    [
        (
            "query_order",
            "tools_server(read_only='query_order'): read_only takes a list of tool names, and got a str, which would "
            "be read as its substrings. Fix: put the names in a list, e.g. read_only=['query_order']",
        ),
        (
            ["query_ordr"],
            "tools_server(read_only=['query_ordr']): read_only names 'query_ordr', which it does not serve. Fix: name "
            "served tools only: order, query_order",
        ),
    ],
)
def test_read_only_names_served_tools_in_a_list(read_only, text):
    """`read_only="query_order"` was read as its substrings: the writing tool `order` was served
    as read-only, so a client (toolkit's own) told the model calling it again after a timeout was
    safe; a misspelt name left the tool it meant without its hint. Both passed silently."""
    with pytest.raises(ToolDefinitionError) as raised:
        tools_server([order, query_order], read_only=read_only)
    assert str(raised.value) == text


def test_a_line_nested_too_deep_to_read_is_answered_and_serving_goes_on():
    """A request whose arguments nest 50,000 levels deep: the SDK's parser refuses it, and the
    server's own reading of the line (for its id) raised RecursionError, which ended the server
    (exit status 2, "ExceptionGroup: unhandled errors in a TaskGroup")."""
    deep = '{"a": ' * 50_000 + "1" + "}" * 50_000
    call = '{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "query_order", "arguments": '
    lines = [
        *HANDSHAKE,
        call + deep + "}}",
        '{"jsonrpc": "2.0", "id": 5, "method": "ping"}',
    ]
    answers = _answers(lines, 3)
    assert answers[1:] == [
        {"jsonrpc": "2.0", "id": 5, "result": {}},
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32700, "message": "Parse error: the line nests too deep to be read"},
        },
    ]


ODD_IDS = ["null", "2.5", "true", '{"n": 1}', "[1]"]


@pytest.fixture(scope="module")
def odd_id_answers() -> list[list[dict]]:
    """One server's answers to a request with each of `ODD_IDS` in turn, each followed by a ping (id 5
    onwards): for each odd id, the answers to its line and to the ping after it (sorted by id, as
    `_answers` gives them). One server for the five, where a server each cost 1.2-2 s of its start."""
    lines = list(HANDSHAKE)
    for n, rid in enumerate(ODD_IDS):
        lines += [
            f'{{"jsonrpc": "2.0", "id": {rid}, "method": "ping"}}',
            f'{{"jsonrpc": "2.0", "id": {5 + n}, "method": "ping"}}',
        ]
    answers = _answers(lines, 1 + 2 * len(ODD_IDS))
    assert len(answers) == 1 + 2 * len(ODD_IDS) and answers[0]["id"] == 1
    odd = [a for a in answers if a.get("id") is None]
    pings = {a["id"]: a for a in answers if a.get("id") not in (None, 1)}
    return [
        sorted(
            [pings[5 + n], *(a for a in odd if a["error"]["message"].endswith(f"not {rid}"))],
            key=lambda a: str(a["id"]),
        )
        for n, rid in enumerate(ODD_IDS)
    ]


@pytest.mark.parametrize("rid", ODD_IDS)
def test_a_request_whose_id_is_no_string_or_integer_is_answered_and_serving_goes_on(rid, odd_id_answers):
    """Such a line is valid JSON-RPC for the SDK's parser only as a notification (the id dropped),
    so it went unanswered and the client waited out its deadline. JSON-RPC answers an Invalid
    Request, with a null id (it cannot be echoed: MCP's ids are strings and integers)."""
    n = ODD_IDS.index(rid)
    assert odd_id_answers[n] == [
        {"jsonrpc": "2.0", "id": 5 + n, "result": {}},
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32600, "message": f"Invalid Request: an id is a string or an integer, not {rid}"},
        },
    ]


def test_a_tool_that_reads_stdin_reads_nothing_of_the_client_s_messages(tmp_path):
    """The server reads its client's messages on stdin: a served tool calling input() must not
    take the next one (it reads end of file, and its call fails), as with the SDK's own reader."""
    server = tmp_path / "reads_stdin.py"
    server.write_text(
        "import anyio\n"
        "from toolkit.mcp.server import serve_stdio, tools_server\n"
        "from toolkit.tools.decorator import tool\n\n"
        "@tool\ndef ask() -> str:\n    '''Ask on stdin.'''\n    return input()\n\n"
        "anyio.run(serve_stdio, tools_server([ask]))\n"
    )
    with McpClient.stdio(sys.executable, [str(server)], env=UNDER_TEST, name="asks", request_timeout=30) as client:
        asked = client.call_tool("ask", {})
        assert asked.is_error and asked.content[0].text == "EOFError: EOF when reading a line"
        assert [t.name for t in client.list_tools()] == ["ask"]


def test_requests_read_before_the_client_closed_stdin_are_all_answered():
    """A client that writes its requests and closes stdin at once (`printf ... | toolkit mcp-server`,
    a harness checking a stdio server) got the answers the server had written by then, a different
    few on each run: the session ended at the end of stdin, dropping the requests still in hand."""
    pings = [json.dumps({"jsonrpc": "2.0", "id": n, "method": "ping"}) for n in range(2, 32)]
    call = {"name": "query_order", "arguments": {"orderId": "SN202610250001"}}
    lines = [*HANDSHAKE, *pings, json.dumps({"jsonrpc": "2.0", "id": 40, "method": "tools/call", "params": call})]
    done = subprocess.run(
        SERVER, input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=HANG_S
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert (done.returncode, done.stderr) == (0, "")
    assert sorted(a["id"] for a in answers) == [1, *range(2, 32), 40]
    assert [a["result"] for a in answers if 2 <= a["id"] < 32] == [{}] * 30


def test_the_server_exits_when_its_client_closes_stdin_while_a_tool_still_runs(tmp_path):
    """A tool that never returns (a network read without a timeout) kept the process alive after
    its client closed stdin (the client gone, or asking it to stop, as MCP's shutdown says): the
    worker thread running the tool was waited for at exit, forever for this one. (The server waits
    `ANSWER_GRACE_S` for the answer first: a second here, not the ten a real one waits.)"""
    server = tmp_path / "stuck.py"
    server.write_text(
        "import threading\n"
        "import anyio\n"
        "import toolkit.mcp.server\n"
        "from toolkit.mcp.server import serve_stdio, tools_server\n"
        "from toolkit.tools.decorator import tool\n\n"
        "toolkit.mcp.server.ANSWER_GRACE_S = 1.0\n"
        "@tool\ndef stuck() -> str:\n    '''Never returns.'''\n    print('started', flush=True)\n    threading.Event().wait()\n    return 'never'\n\n"
        "anyio.run(serve_stdio, tools_server([stuck]))\n"
    )
    call = '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "stuck", "arguments": {}}}'
    lines = [*HANDSHAKE, call]
    with subprocess.Popen(
        [sys.executable, str(server)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **UNDER_TEST},
    ) as process:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        process.stdin.write("".join(line + "\n" for line in lines))
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1
        assert process.stderr.readline() == "started\n"  # a tool's print goes to stderr while serving
        process.stdin.close()
        try:
            assert process.wait(timeout=HANG_S) == 0
        finally:
            process.kill()
        assert process.stderr.read() == ""


def test_each_request_of_a_batch_is_answered_at_once_under_its_own_id():
    """A batch (a JSON array, which MCP stopped using in 2025-06-18) got one error with id null,
    so a client waiting for the requests in it could not tell which had failed, and waited."""
    batch = [
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/progress"},
        {"jsonrpc": "2.0", "id": "three", "method": "tools/list"},
    ]
    lines = [
        *HANDSHAKE,
        json.dumps(batch),
        "[]",
        '{"jsonrpc": "2.0", "id": 5, "method": "ping"}',
    ]
    answers = _answers(lines, 5)
    assert answers[1:] == [
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32600, "message": BATCH}},
        {"jsonrpc": "2.0", "id": 5, "result": {}},
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": BATCH}},
        {"jsonrpc": "2.0", "id": "three", "error": {"code": -32600, "message": BATCH}},
    ]


BATCH = "Invalid Request: a batch (a JSON array) is not read: send each message on a line of its own"


def test_a_client_that_stops_reading_ends_the_session_without_an_error():
    """A client that closed its end of the server's stdout (it quit reading) ended `mcp-server` with
    "error: ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)" and exit status 2:
    a broken pipe inside the SDK's writer, said as nothing. The session is over, as when stdin closes."""
    with subprocess.Popen(
        SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as server:
        assert server.stdin is not None and server.stdout is not None and server.stderr is not None
        server.stdin.write(HANDSHAKE[0] + "\n")
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 1
        server.stdout.close()
        listing = '{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}\n'
        with contextlib.suppress(BrokenPipeError):  # the server may be gone before the last line
            server.stdin.write(HANDSHAKE[1] + "\n" + listing * 50)
            server.stdin.flush()
            server.stdin.close()
        assert server.wait(timeout=HANG_S) == 0
        assert server.stderr.read() == ""
