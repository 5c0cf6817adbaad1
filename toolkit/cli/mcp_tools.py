"""`python -m toolkit tools --mcp-stdio "COMMAND ARGS..." | --mcp-http URL`: what the model would see.

Connects to the MCP server(s), translates their tools exactly as `McpToolProvider` does and
prints the JSON list of OpenAI tool definitions, sorted by name (exit 0). A server that cannot
be reached prints one clear line to stderr and exits 2 (here every server must answer: the
command is a check, so `fail_if_one_server_fails` is on).

Leaves out: calling the tools (use the provider in code).
"""

from __future__ import annotations

import argparse
import json
import sys

from toolkit.errors import ConfigurationError
from toolkit.mcp.client import McpClient, McpError
from toolkit.mcp.provider import McpToolProvider


def mcp_tools_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m toolkit tools", description="Print the OpenAI tool definitions of MCP servers."
    )
    parser.add_argument(
        "--mcp-stdio",
        action="append",
        default=[],
        metavar='"COMMAND ARGS..."',
        help="launch an MCP server and talk to it over stdio (repeatable)",
    )
    parser.add_argument(
        "--mcp-http",
        action="append",
        default=[],
        metavar="URL",
        help="a streamable-HTTP MCP endpoint, e.g. http://127.0.0.1:8765/mcp (repeatable)",
    )
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for each server")
    args = parser.parse_args(argv)
    if not args.mcp_stdio and not args.mcp_http:
        parser.error("give --mcp-stdio or --mcp-http")
    return _print_tools(args)


def _print_tools(args: argparse.Namespace) -> int:
    clients: list[McpClient] = []
    try:
        clients += [
            McpClient.from_command_line(line, connect_timeout=args.timeout, request_timeout=args.timeout)
            for line in args.mcp_stdio
        ]
        clients += [
            McpClient.http(url, connect_timeout=args.timeout, request_timeout=args.timeout) for url in args.mcp_http
        ]
        tools = McpToolProvider(clients, fail_if_one_server_fails=True).provide()
    except (McpError, ConfigurationError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        for client in clients:
            client.close()
    specs = [t.spec.to_openai() for t in sorted(tools, key=lambda t: t.name)]
    print(json.dumps(specs, indent=2, ensure_ascii=False))
    return 0
