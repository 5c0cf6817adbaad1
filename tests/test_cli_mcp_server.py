"""`toolkit mcp-server --http`: the address it prints is the one it listens on."""

import re
import signal
import socket
import subprocess
import sys


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
