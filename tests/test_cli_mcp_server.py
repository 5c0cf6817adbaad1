"""`toolkit mcp-server --http`: the address it prints is the one it listens on."""

import re
import signal
import socket
import subprocess
import sys

import pytest


def test_port_0_prints_the_port_it_really_listens_on():
    """Before: `--port 0` (any free port, as the `port` type says) printed `http://127.0.0.1:0/mcp`,
    an address nobody can connect to, and the real port was never shown."""
    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "mcp-server", "--http", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        banner = process.stderr.readline()
        found = re.fullmatch(r"MCP server 'toolkit-shop' on http://127\.0\.0\.1:(\d+)/mcp\n", banner)
        assert found, banner
        port = int(found[1])
        assert port != 0
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)


def test_stdio_with_stdin_closed_is_one_line_and_exit_2():
    """Before: `error: AttributeError: 'NoneType' object has no attribute 'buffer'` (started with `<&-`)."""
    done = subprocess.run(
        ["/bin/sh", "-c", f"exec {sys.executable} -m toolkit mcp-server <&-"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "error: mcp-server talks MCP over stdin and stdout, and one of them is closed; start it from an MCP client "
        "(which gives it both), or serve HTTP with --http\n"
    )


def test_the_http_socket_is_tcp_so_that_asyncio_turns_nagle_off(monkeypatch, capsys):
    """The socket bound before the banner was made without `IPPROTO_TCP`: asyncio then leaves Nagle's
    algorithm on for each connection (about 40 ms more per answer without uvloop). It is the
    gateway's `listen` now, as every server of the package binds."""
    import uvicorn

    from toolkit.mcp.server import serve_http, shop_server

    taken: list[tuple[int, int]] = []
    monkeypatch.setattr(
        uvicorn.Server,
        "run",
        lambda self, sockets=None: taken.extend((sock.proto, sock.getsockname()[1]) for sock in sockets),
    )
    serve_http(shop_server(), 0)
    assert len(taken) == 1 and taken[0][0] == socket.IPPROTO_TCP and taken[0][1] != 0
    assert capsys.readouterr().err == f"MCP server 'toolkit-shop' on http://127.0.0.1:{taken[0][1]}/mcp\n"


def test_the_http_server_waits_for_a_request_s_headers_at_most_headers_timeout_s(monkeypatch, capsys):
    """uvicorn has no timeout for a request's headers: a client sending them a byte at a time held a
    connection for ever. The MCP server's protocol is the gateway's, with the deadline (`header_wait`)."""
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    from toolkit.gateway.header_wait import HEADERS_TIMEOUT_S
    from toolkit.mcp.server import serve_http, shop_server

    protocols = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: protocols.append(self.config.http))
    serve_http(shop_server(), 0)
    capsys.readouterr()
    assert issubclass(protocols[0], AutoHTTPProtocol) and protocols[0].headers_timeout_s == HEADERS_TIMEOUT_S == 30


class _Terminal:
    """A stdin that is a terminal (a learner typed the command and waits)."""

    def isatty(self) -> bool:
        return True


def test_stdio_started_from_a_terminal_says_what_it_waits_for(monkeypatch, capsys):
    """Before: `toolkit mcp-server` typed in a terminal printed nothing and waited: it looked hung, while it
    waited for an MCP client's JSON-RPC on stdin."""
    import anyio

    from toolkit.cli.main import main

    served = []
    monkeypatch.setattr(sys, "stdin", _Terminal())
    monkeypatch.setattr(anyio, "run", lambda serve, server: served.append(server.name))
    assert main(["mcp-server"]) == 0
    assert served == ["toolkit-shop"]
    assert capsys.readouterr() == (
        "",
        "MCP server 'toolkit-shop' on stdio: it waits for an MCP client's messages on stdin; start it from an MCP "
        "client, or serve HTTP with --http (Ctrl-C stops it)\n",
    )


def test_stdio_started_by_a_client_prints_nothing(monkeypatch, capsys):
    import io

    import anyio

    from toolkit.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.setattr(anyio, "run", lambda serve, server: None)
    assert main(["mcp-server"]) == 0
    assert capsys.readouterr() == ("", "")


def test_ctrl_c_stops_stdio_while_stdin_stays_open_with_one_line_and_exit_130():
    """Before: Ctrl-C did not stop `toolkit mcp-server` while its stdin stayed open (a terminal, a client that
    keeps the pipe): the SDK reads stdin in a thread no cancellation reaches, so the first Ctrl-C did nothing,
    the second printed "interrupted" and the process still waited for that read; the third printed a traceback
    from `threading._shutdown`."""
    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "mcp-server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        process.stdin.write("not json\n")  # answered once the server reads: it is serving
        process.stdin.flush()
        assert '"code":-32700' in process.stdout.readline()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)  # stdin stays open
        assert (process.returncode, process.stderr.read()) == (130, "interrupted (Ctrl-C): stopped\n")
    finally:
        process.kill()
        process.communicate()


def test_stdio_served_from_a_thread_sets_no_signal_handler(monkeypatch, capsys):
    """`signal.signal` works only in the main thread: `main(["mcp-server"])` run in another one (a test, a
    notebook's helper) must serve, not fail with ValueError."""
    import io
    import threading

    import anyio

    from toolkit.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.setattr(anyio, "run", lambda serve, server: None)
    status = []
    worker = threading.Thread(target=lambda: status.append(main(["mcp-server"])))
    worker.start()
    worker.join(timeout=60)
    assert status == [0] and capsys.readouterr() == ("", "")


def test_two_servers_started_at_once_each_announce_their_own_port_and_serve():
    """Week 9 (and the tests) picked a free port with a probe socket, closed it, and started
    `mcp-server --http --port P` on it: between the two, another server started at once could be
    given the same port, and the client talked to that one, or to none. With `--port 0` each server
    binds a port itself and announces it (`announced` reads it)."""
    from concurrent.futures import ThreadPoolExecutor

    from loopback import announced

    from toolkit.mcp.client import McpClient

    command = [sys.executable, "-m", "toolkit", "mcp-server", "--http", "--port", "0"]

    def serve_and_list(name: str) -> tuple[str, list[str]]:
        with announced(command) as (url, _), McpClient.http(url, name=name) as client:
            return url, [tool.name for tool in client.list_tools()]

    with ThreadPoolExecutor(2) as pool:
        (first, tools_1), (second, tools_2) = pool.map(serve_and_list, ["first", "second"])
    assert first != second
    assert tools_1 == tools_2 == ["query_order", "query_logistics", "query_refund_policy"]


def test_max_result_chars_cuts_what_the_served_tools_answer(monkeypatch):
    """`tools_server(max_result_chars=)` had no flag: the CLI's server always cut at 100,000 characters."""
    import anyio

    from toolkit.cli.main import main
    from toolkit.mcp.client import McpClient

    served = []
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(""))
    monkeypatch.setattr(anyio, "run", lambda serve, server: served.append(server))
    assert main(["mcp-server", "--max-result-chars", "20", "--today", "2025-03-01"]) == 0
    with McpClient(served[0], name="shop") as client:
        text = client.call_tool("query_order", {"orderId": "nope"}).content[0].text
    head, note = text.split("\n")
    assert len(head) == 20
    assert note.startswith("[cut here: the result has ") and note.endswith(
        "only the first 20 are shown; if you need the rest, call the tool again for less at a time]"
    )


def test_max_result_chars_that_is_no_length_is_one_line_and_exit_2(capsys):
    from toolkit.cli.main import main
    from toolkit.cli.mcp_server import _DEFAULT_CHARS
    from toolkit.mcp.provider import MAX_RESULT_CHARS

    assert _DEFAULT_CHARS == MAX_RESULT_CHARS

    for value in ("0", "-5", "many", "1.5", ""):
        with pytest.raises(SystemExit) as stopped:
            main(["mcp-server", "--max-result-chars", value], prog="toolkit")
        assert stopped.value.code == 2
        assert capsys.readouterr().err.splitlines()[-1] == (
            f"toolkit mcp-server: error: argument --max-result-chars: {value!r} is not a length: use a whole "
            "number of characters, 1 or more (the default is 100000)"
        )
