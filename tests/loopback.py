"""Test helpers for servers the tests start themselves, always on 127.0.0.1."""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import re
import socket
import subprocess
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Literal


@contextlib.contextmanager
def closed_port() -> Iterator[int]:
    """A port on 127.0.0.1 where nothing listens, held so for the block: bound here and never
    listened on, so a connection to it is refused and no other server can take it meanwhile (a
    port picked and let go could be bound by another test's server before it was used). For a
    server this process starts, pass port 0 to the server itself instead (`announced`)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@contextlib.contextmanager
def announced(
    argv: Sequence[str],
    seconds: float = 60.0,
    *,
    channel: Literal["stdout", "stderr"] = "stderr",
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Start the server `argv` (told to listen on port 0: any free one) and yield the URL it prints
    on the first line of its `channel` once it has bound it (`http://127.0.0.1:PORT...`), and its
    process; stopped after. The MCP servers announce on stderr, `toolkit gateway` on stdout; the
    other stream is left to the terminal.
    No port is picked here and bound later by the server: two tests starting servers at once could
    be given the same one, and a client then talked to the other test's server, or to none."""
    pipes = {channel: subprocess.PIPE}
    process = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=pipes.get("stdout", subprocess.DEVNULL),
        stderr=pipes.get("stderr"),
        text=True,
        cwd=cwd,
        env=None if env is None else dict(env),
    )
    stream = process.stdout if channel == "stdout" else process.stderr
    assert stream is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(seconds)
    drain = threading.Thread(target=stream.read, daemon=True)  # after the banner: the pipe never fills
    try:
        found = re.search(r"http://127\.0\.0\.1:\d+\S*", lines[0]) if lines else None
        assert found, f"the server announced no URL within {seconds:g} s: {lines[:1]!r}"
        drain.start()
        yield found[0], process
    finally:
        process.terminate()
        process.wait(timeout=60)  # a hang guard: a loaded machine can take seconds to stop it
        for thread in (reader, drain):
            if thread.is_alive():
                thread.join(60)
        stream.close()


@contextlib.contextmanager
def serving(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[int]:
    """A threading HTTP server with `handler` on 127.0.0.1 (a free port, yielded), stopped after. It
    looks for the stop every 20 ms (`serve_forever`'s default, 0.5 s, made each use wait ~0.25-0.5 s
    to stop)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def refusing_tools(status: int, body: str) -> type[http.server.BaseHTTPRequestHandler]:
    """A stranger gateway that refuses every request carrying `tools` with `status` and `body`, as
    some do for a model without tool support, and answers the others as a model following week 3's
    prompt protocol: one line of JSON calling `query_order`, then, once the last message is its
    result, a short answer."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            code, text = status, body
            if not request.get("tools"):
                answered = "query_order" in str(request["messages"][-1].get("content"))
                said = "订单 SN202610200001 已发货。" if answered else PROTOCOL_CALL
                reply = {"index": 0, "message": {"role": "assistant", "content": said}, "finish_reason": "stop"}
                code, text = 200, json.dumps({"choices": [reply]}, ensure_ascii=False)
            data = text.encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


PROTOCOL_CALL = '{"tool": "query_order", "args": {"orderId": "SN202610200001"}}'
