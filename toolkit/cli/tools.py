"""`python -m toolkit tools FILE.py [--strict]`: print the OpenAI specs of a file's `@tool`s.

Imports the file as a module, reflects every module-level `@tool` function defined in it and
prints a JSON list of their OpenAI renderings, sorted by name (exit 0). A registration error —
at import (bad `@tool` options) or at reflection — prints its message and exits 2, as does a
file that cannot be imported.

Leaves out: `@tool` methods (they need an instance; register the object in code instead).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

from toolkit.errors import ConfigurationError
from toolkit.tools.execute import tools_from


def cli(argv: list[str]) -> int:
    if any(a.startswith(("--mcp-stdio", "--mcp-http")) for a in argv):
        from toolkit.cli.mcp_tools import mcp_tools_cli  # the same listing, for an MCP server's tools

        return mcp_tools_cli(argv)
    parser = argparse.ArgumentParser(
        prog="python -m toolkit tools",
        description="Print the OpenAI tool specs of the @tool "
        "functions in a Python file (or, with --mcp-stdio "
        "CMD / --mcp-http URL, of an MCP server).",
    )
    parser.add_argument("file", type=Path, help="a .py file with @tool functions")
    parser.add_argument("--strict", action="store_true", help="render OpenAI strict mode")
    args = parser.parse_args(argv)
    name = args.file.stem if args.file.stem not in sys.modules else f"_tools_{args.file.stem}"
    try:
        tools = tools_from(_load(args.file, name), strict=args.strict)
        specs = [t.spec.to_openai(strict=args.strict) for t in sorted(tools, key=lambda t: t.name)]
    except (ConfigurationError, _LoadError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        sys.modules.pop(name, None)
    print(json.dumps(specs, indent=2, ensure_ascii=False))
    return 0


class _LoadError(Exception):
    """The file could not be imported."""


def _load(path: Path, name: str) -> ModuleType:
    if not path.is_file():
        raise _LoadError(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise _LoadError(f"cannot import {path} (is it a .py file?)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pydantic look their module up here
    try:
        spec.loader.exec_module(module)
    except ConfigurationError:
        raise
    except Exception as exc:
        raise _LoadError(f"cannot import {path}: {type(exc).__name__}: {exc}") from None
    return module
