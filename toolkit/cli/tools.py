"""Print the OpenAI tool specs of the `@tool` functions in a Python file, or of MCP servers.

    toolkit tools FILE.py [--strict]
    toolkit tools --mcp-stdio "COMMAND ARGS..." | --mcp-http URL   (repeatable)

For a file: imports it as a module (its folder first on `sys.path` meanwhile, as `python
FILE.py` has it, so it can import the modules beside it), reflects every module-level `@tool`
function defined in it and prints a JSON list of their OpenAI renderings, sorted by name (exit
0; none found: `[]`, and a note on stderr saying so); whatever the file prints while it is imported goes to stderr, so stdout is that JSON alone
(`toolkit tools FILE.py | jq` works). A registration error (at import or at reflection) or a file that cannot be imported prints
one line and exits 2 (an error of several lines joined on it); so do a notebook (named as one) and a
module's name where the file was meant (its file named, found without importing anything).
For MCP servers: connects, translates their tools exactly as `McpToolProvider` does, and prints
the same JSON (`--strict` too: a schema strict mode cannot express is one line and exit 2); here every server must answer (it is a check), else one line and exit 2, with the
credentials of an `--mcp-http` URL masked (`user:***@`, `?token=***`); so are two servers offering one
tool name (as the loop refuses them: no chat API takes both). `--timeout` is for MCP
servers only (with a FILE.py it is one line and exit 2). SIGTERM (`kill`, a CI job's time limit) or
SIGHUP (the terminal closed) while the servers are asked stops as Ctrl-C does: the servers it started
are stopped (they run in a session of their own, which no signal to the command reaches), one line,
exit status 143 or 129.

Leaves out: `@tool` methods (they need an instance; register the object in code instead);
calling MCP tools (use the provider in code).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from toolkit import files
from toolkit.cli.arguments import command_line, given_path, mcp_url, positive_seconds
from toolkit.cli.streams import json_text
from toolkit.errors import ConfigurationError
from toolkit.unicode import cut

if TYPE_CHECKING:
    from toolkit.tools.execute import Tool

EXIT_STATUS = (
    "0 when the specs are printed; 2 for a file that cannot be imported or an MCP server that does not "
    "answer; 143 after SIGTERM and 129 after SIGHUP while MCP servers are asked"
)
"""What `--help` says of this command's exit status, before what every command shares
(`toolkit.cli.main.SHARED_EXIT_STATUS`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=given_path, nargs="?", help="a .py file with @tool functions")
    parser.add_argument("--strict", action="store_true", help="render OpenAI strict mode")
    parser.add_argument(
        "--mcp-stdio",
        action="append",
        type=command_line,
        default=[],
        metavar='"COMMAND ARGS..."',
        help="launch an MCP server and talk to it over stdio (repeatable)",
    )
    parser.add_argument(
        "--mcp-http",
        action="append",
        type=mcp_url,
        default=[],
        metavar="URL",
        help="a streamable-HTTP MCP endpoint, e.g. http://127.0.0.1:8765/mcp (repeatable)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=None,
        help=f"seconds to wait for each MCP server (default {MCP_TIMEOUT_S:g})",
    )


MCP_TIMEOUT_S = 10.0
"""How long each MCP server may take to start, list its tools and answer, unless --timeout says."""


def run(args: argparse.Namespace) -> int:
    if args.mcp_stdio or args.mcp_http:
        if args.file is not None:
            raise ConfigurationError("give either FILE.py or --mcp-stdio/--mcp-http, not both")
        return _print_mcp_tools(args)
    if args.file is None:
        raise ConfigurationError("give FILE.py, or --mcp-stdio CMD / --mcp-http URL")
    if args.timeout is not None:
        raise ConfigurationError("--timeout is for MCP servers (--mcp-stdio, --mcp-http); a FILE.py is read at once")
    return _print_file_tools(args.file, args.strict)


def _print_file_tools(path: Path, strict: bool) -> int:
    from toolkit.tools.execute import tools_from

    name = path.stem if path.stem not in sys.modules else f"_tools_{path.stem}"
    try:
        with contextlib.redirect_stdout(sys.stderr):  # the file's own prints: stdout is the JSON alone
            tools = tools_from(_load(path, name), strict=strict)
            specs = [t.spec.to_openai(strict=strict) for t in sorted(tools, key=lambda t: t.name)]
    finally:
        sys.modules.pop(name, None)
    print(json_text(specs, indent=2))
    if not specs:  # stdout stays the JSON (`[]`); the learner is told why it is empty
        print(
            f"note: {path.name} defines no module-level @tool function; decorate one with @tool "
            "(an @tool method needs an instance: register the object in code)",
            file=sys.stderr,
        )
    return 0


def _print_mcp_tools(args: argparse.Namespace) -> int:
    """The MCP servers' tools as JSON; an error is one line with the URLs' credentials masked (a
    token in `--mcp-http https://host/mcp?token=...` never reaches the terminal or a CI log)."""
    from toolkit.cli.grade import Terminated, signals_stop
    from toolkit.errors import ToolkitError

    try:
        with signals_stop():  # SIGTERM, SIGHUP: a `Terminated` where it waits, so the servers are closed
            return _print_mcp_tools_unmasked(args)
    except (ToolkitError, OSError) as exc:
        print(f"error: {_masked(str(exc), args.mcp_http)}", file=sys.stderr)
        return 2
    except Terminated as stop:
        print(f"stopped ({stop.name}): no tools listed; the MCP servers it started are stopped", file=sys.stderr)
        return 128 + stop.number


def _masked(text: str, urls: list[str]) -> str:
    """`text` with each URL shown as `mask_url` shows it, and every secret in them masked."""
    from toolkit.chat.masking import mask_url_in

    for url in urls:
        text = mask_url_in(text, url)
    return text


def _print_mcp_tools_unmasked(args: argparse.Namespace) -> int:
    from toolkit.mcp.client import McpClient
    from toolkit.mcp.provider import McpToolProvider

    timeout = MCP_TIMEOUT_S if args.timeout is None else args.timeout
    clients: list[McpClient] = []
    try:
        clients += [
            McpClient.from_command_line(line, connect_timeout=timeout, request_timeout=timeout)
            for line in args.mcp_stdio
        ]
        clients += [McpClient.http(url, connect_timeout=timeout, request_timeout=timeout) for url in args.mcp_http]
        tools = McpToolProvider(clients, fail_if_one_server_fails=True, list_timeout=timeout).provide()
    finally:
        for client in clients:
            client.close()
    tools = sorted(tools, key=lambda t: t.name)
    _check_unique(tools)
    specs = [t.spec.to_openai(strict=args.strict) for t in tools]
    print(json_text(specs, indent=2))
    return 0


def _check_unique(tools: list[Tool]) -> None:
    """Two servers offering one name are refused as the loop refuses them (`defined_twice`): no
    chat API takes two tools of one name, so printing both would show specs that cannot be used."""
    from toolkit.loop.sources import defined_twice

    for first, second in itertools.pairwise(tools):  # sorted by name: a clash is two neighbours
        if first.name == second.name:
            raise ConfigurationError(defined_twice(first.name, first.source, second.source))


def _load(path: Path, name: str) -> ModuleType:
    problem = files.not_a_file(path)
    if problem == "a folder":
        raise ConfigurationError(f"{path} is a folder: give one .py file in it")
    if problem == "no such file":
        module_file = _module_file(str(path))
        raise ConfigurationError(
            f"no such file: {path}" + (f" (a module's name: give its file, {module_file})" if module_file else "")
        )
    if problem.startswith("no such file"):
        raise ConfigurationError(f"no such file: {path}{problem.removeprefix('no such file')}")
    if problem:
        raise ConfigurationError(f"cannot read {path}: {problem}")
    if path.suffix.lower() == ".ipynb":
        raise ConfigurationError(
            f"{path} is a notebook: toolkit tools imports a .py file; save the tools' cells as one "
            f"(jupyter nbconvert --to script {path})"
        )
    _check_size(path)
    folder = str(path.resolve().parent)
    sys.path.insert(0, folder)  # as `python FILE.py` does: the file may import its neighbours
    try:
        return _executed(path, name)
    finally:
        if folder in sys.path:  # the file may have changed sys.path itself
            sys.path.remove(folder)


MAX_TOOL_FILE_BYTES = 16 * 1024 * 1024
"""A FILE.py larger than this is refused unread (Python reads a whole source file into memory to compile it: a
10 GB file took 22 GB and the OOM killer; a file of tools is a few KB, a generated one of 10,000 a few MB)."""


def _check_size(path: Path) -> None:
    """`ConfigurationError` when the file at `path` is over `MAX_TOOL_FILE_BYTES`, before Python reads it."""
    import os

    size = os.stat(path).st_size
    if size > MAX_TOOL_FILE_BYTES:
        raise ConfigurationError(
            f"{path}: the file is {size} bytes, over the cap of {MAX_TOOL_FILE_BYTES} bytes "
            "(toolkit.cli.tools.MAX_TOOL_FILE_BYTES). Fix: keep the @tool functions in a file of their own, and the "
            "data they use in a file they read when they run"
        )


def _executed(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ConfigurationError(f"cannot import {path} (is it a .py file?)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pydantic look their module up here
    try:
        spec.loader.exec_module(module)
    except ConfigurationError:
        raise
    except Exception as exc:
        said = _not_source_text(path) if isinstance(exc, SyntaxError) else ""
        raise ConfigurationError(f"cannot import {path}: {said or f'{type(exc).__name__}: {_one_line(exc)}'}") from None
    except SystemExit as exc:  # exit() at import would end the command without a word
        raise ConfigurationError(f"cannot import {path}: it calls exit({exc.code!r}) when imported") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # GeneratorExit, or a class of its own: still one line, not a traceback
        raise ConfigurationError(f"cannot import {path}: it raises {type(exc).__name__} when imported") from None
    return module


def _not_source_text(path: Path) -> str:
    """Why Python cannot read `path` as source text, and the fix ("" when it can): its bytes not in the
    encoding it declares (UTF-8 unless a coding line says otherwise), as a file PowerShell saved (UTF-16)
    or Notepad saved (GBK, cp1252) is not. Python says only "source code string cannot contain null bytes"
    or "(unicode error) 'utf-8' codec can't decode byte ..."."""
    import io
    import tokenize

    fix = "; open it in the editor that saved it and save it as UTF-8"
    try:
        data = path.read_bytes()
    except OSError:  # unreadable now: Python's own words
        return ""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[:2].count(0) == 1:  # `#` or `f` in UTF-16: one NUL in two
        return f"its text is not UTF-8, as Python reads a .py file (it is UTF-16){fix}"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:  # a coding line naming no codec, or a first line that is no text: Python's own words
        return ""
    utf8 = encoding in ("utf-8", "utf-8-sig")
    what = "UTF-8, as Python reads a .py file" if utf8 else f"{encoding}, as its coding line says"
    try:
        data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return f"its text is not {what} (byte {data[exc.start]:#04x} on line {line}){fix}"
    return ""


def _one_line(error: BaseException, most: int = 300) -> str:
    """The error's text on one line: its lines joined by ' / ', its secrets masked (a module connecting
    at import quotes its `DATABASE_URL`; `redact.scrub_secrets`, its paths kept: the learner's own), cut
    at `most` characters with '…'."""
    from toolkit.tools.redact import scrub_secrets  # imported where used: `--help` stays fast

    text = " / ".join(line.strip() for line in str(error).splitlines() if line.strip())
    return cut(scrub_secrets(text), most)


def _module_file(name: str) -> str:
    """The file of the module `name` (`pkg.sub.mod`) when it is one Python can find, else "": found as
    `import` finds it, but nothing is imported (a package's `__init__` could do anything)."""
    from importlib.machinery import PathFinder

    parts = name.split(".")
    if name.endswith(".py") or not all(part.isidentifier() for part in parts):
        return ""
    spec, search = None, None
    for part in parts:
        spec = PathFinder.find_spec(part, search)
        if spec is None:
            return ""
        search = spec.submodule_search_locations
    return spec.origin if spec is not None and spec.has_location and spec.origin else ""
