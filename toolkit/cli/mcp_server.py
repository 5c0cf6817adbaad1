"""Serve week 3's shop tools over MCP: stdio by default, or streamable HTTP on 127.0.0.1.

toolkit mcp-server [--http --port 8765] [--today yyyy-mm-dd] [--max-result-chars N]

`--max-result-chars` is how many characters of a tool's answer the client reads at most (100,000 by
default, `toolkit.mcp.provider.MAX_RESULT_CHARS`); a line after the cut says how long it was.

With `--port 0` it listens on any free port and prints the one it got. Over stdio it prints nothing
(stdout is the protocol's), unless stdin is a terminal: then one line on stderr says what it waits for.

A port that is taken is one line on stderr and exit status 2 (`cannot_listen`, as `gateway`).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Callable

from toolkit.cli.arguments import cannot_listen, day, port, whole
from toolkit.cli.main import INTERRUPTED

EXIT_STATUS = "0 when its stdin closes (stdio); 2 when the port cannot be listened on"
"""What `--help` says of this command's exit status, before what every command shares
(`toolkit.cli.main.SHARED_EXIT_STATUS`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    parser.add_argument("--port", type=port, default=None, help="HTTP port on 127.0.0.1, with --http (default 8765)")
    parser.add_argument(
        "--today",
        type=day,
        default=None,
        help="the shop's 'today', yyyy-mm-dd (default: the real today)",
    )
    parser.add_argument(
        "--max-result-chars",
        type=_length,
        default=None,
        metavar="N",
        help="how many characters of a tool's answer are sent at most, a line saying what was cut "
        f"(default {_DEFAULT_CHARS})",
    )


def _length(text: str) -> int:
    """`--max-result-chars`: a whole number of characters, at least 1."""
    return whole(
        text, 1, f"is not a length: use a whole number of characters, 1 or more (the default is {_DEFAULT_CHARS})"
    )


_DEFAULT_CHARS = 100_000
"""`--max-result-chars`'s default, as `toolkit.mcp.provider.MAX_RESULT_CHARS` (not imported: it loads the MCP SDK)."""


def run(args: argparse.Namespace) -> int:
    import anyio

    from toolkit.mcp.server import serve_http, serve_stdio, shop_server

    if args.port is not None and not args.http:
        print("error: --port needs --http (stdio has no port)", file=sys.stderr)
        return 2
    server = shop_server(args.today, max_result_chars=args.max_result_chars or _DEFAULT_CHARS)
    if args.http:
        listen = 8765 if args.port is None else args.port
        try:
            serve_http(server, listen)
        except OSError as exc:  # the port is taken (found before the server starts: one line)
            return cannot_listen("127.0.0.1", listen, exc)
    elif sys.stdin is None or sys.stdout is None:  # started with `<&-` or `>&-`: no stream to talk on
        print(
            "error: mcp-server talks MCP over stdin and stdout, and one of them is closed; start it from an MCP "
            "client (which gives it both), or serve HTTP with --http",
            file=sys.stderr,
        )
        return 2
    else:
        if _is_a_terminal(sys.stdin):  # typed by hand: say what it waits for, or it looks hung
            print(
                f"MCP server {server.name!r} on stdio: it waits for an MCP client's messages on stdin; start it from "
                "an MCP client, or serve HTTP with --http (Ctrl-C stops it)",
                file=sys.stderr,
                flush=True,
            )
        _until_ctrl_c(lambda: anyio.run(serve_stdio, server))
    return 0


def _until_ctrl_c(serve: Callable[[], object]) -> None:
    """Run `serve` (the stdio server) with Ctrl-C ending the process at once, one line and exit status 130.
    The SDK reads stdin in a worker thread that no cancellation reaches: with `KeyboardInterrupt`, the
    first Ctrl-C waited for the next line on stdin, the second said "interrupted" and the process still
    waited, the third printed a traceback. Nothing is lost: the shop lives in memory, and each answer
    is flushed as it is sent."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread sets handlers
        serve()
        return
    previous = signal.signal(signal.SIGINT, _stop_now)  # set before anyio: asyncio then keeps its hands off
    try:
        serve()
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop_now(signum: int, frame: object) -> None:
    print(INTERRUPTED, file=sys.stderr, flush=True)
    os._exit(130)


def _is_a_terminal(stream: object) -> bool:
    try:
        return bool(getattr(stream, "isatty", lambda: False)())
    except (OSError, ValueError):  # a closed or detached stream
        return False
