"""`python -m toolkit COMMAND ...`: one entry point, one module per command.

Each command lives beside the mechanism it drives and exposes `cli(argv) -> int`; this
module only dispatches, importing the command's module lazily so `--help` stays fast.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "gateway": ("toolkit.gateway.server", "run the fake keyword gateway over HTTP"),
    "tools": ("toolkit.cli.tools", "print the OpenAI tool specs of the @tool functions in a file"),
    "probe": ("toolkit.course.probe", "classify a gateway's tool support (A-E) from one raw exchange"),
    "drill": ("toolkit.course.drill", "run the argument-validation drill (lenient in, strict out)"),
    "eval": ("toolkit.course.accuracy", "run the tool-selection accuracy suite and write a CSV"),
    "notebooks": ("toolkit.cli.notebooks", "execute course notebooks in a fresh kernel and store them clean"),
    "mcp-server": ("toolkit.mcp.server", "serve the week-3 e-commerce tools over MCP (stdio or HTTP)"),
}


def _usage() -> str:
    lines = ["usage: python -m toolkit COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<10} {about}" for name, (_, about) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in {"-h", "--help"}:
        print(_usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    return int(module.cli(rest) or 0)
