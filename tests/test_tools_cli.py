"""`python -m toolkit tools FILE.py [--strict]`: JSON out and exit 0, or the message and exit 2."""

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from toolkit.cli.main import main


def cli(argv):
    return main(["tools", *argv])


ROOT = Path(__file__).resolve().parents[1]

SHOP = '''
from typing import Annotated
from toolkit.tools.decorator import Param, tool


@tool("Look up one order by its id.")
def query_order(order_id: Annotated[str, Param("e.g. SN202610200001", name="orderId")]) -> str:
    return ""


@tool
def a_filter(filters: dict[str, str]) -> str:
    """Filter orders by free-form fields."""
    return ""


def helper() -> None:
    """Not a tool."""
'''


def write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    code = cli([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_prints_every_tool_sorted_by_name(tmp_path, capsys):
    code, out, err = run(capsys, write(tmp_path, "shop_tools.py", SHOP))
    assert (code, err) == (0, "")
    specs = json.loads(out)
    assert [s["function"]["name"] for s in specs] == ["a_filter", "query_order"]
    assert specs[1] == {
        "type": "function",
        "function": {
            "name": "query_order",
            "description": "Look up one order by its id.",
            "parameters": {
                "type": "object",
                "properties": {"orderId": {"type": "string", "description": "e.g. SN202610200001"}},
                "required": ["orderId"],
                "additionalProperties": False,
            },
        },
    }


def test_strict_mode_renders_strict_or_fails_with_exit_2(tmp_path, capsys):
    only_order = SHOP.split("@tool\ndef a_filter")[0]
    code, out, _ = run(capsys, write(tmp_path, "strict_ok.py", only_order), "--strict")
    assert code == 0 and json.loads(out)[0]["function"]["strict"] is True
    code, out, err = run(capsys, write(tmp_path, "shop_strict.py", SHOP), "--strict")
    assert (code, out) == (2, "")
    assert err == (
        "error: @tool shop_strict.a_filter, parameter 'filters': OpenAI strict mode needs "
        "every object to list its properties, but this is a free-form dict. Fix: use a "
        "pydantic model with named fields, or register the tool without strict mode\n"
    )


def test_registration_error_at_import_exits_2(tmp_path, capsys):
    source = "from toolkit.tools.decorator import tool\n\n@tool(name='query order')\ndef q() -> str:\n    return ''\n"
    code, out, err = run(capsys, write(tmp_path, "bad_name.py", source))
    assert (code, out) == (2, "")
    assert err == (
        "error: @tool bad_name.q: the tool name 'query order' is not 1-64 ASCII letters, digits, "
        "'_' or '-' (OpenAI's rule). Fix: pass a valid name, e.g. @tool(name='query_order')\n"
    )


def test_registration_error_at_reflection_exits_2(tmp_path, capsys):
    source = (
        "from toolkit.tools.decorator import tool\n\n@tool('Days.')\ndef days(n: int = 2.5) -> str:\n    return ''\n"
    )
    code, _, err = run(capsys, write(tmp_path, "bad_default.py", source))
    assert code == 2
    assert err == (
        "error: @tool bad_default.days, parameter 'n': the default 2.5 is not a valid int: "
        "Input should be a valid integer, got a number with a fractional part. "
        "Fix: give a default of that type, or change the type\n"
    )


def test_a_file_without_tools_prints_an_empty_list(tmp_path, capsys):
    code, out, err = run(capsys, write(tmp_path, "empty_tools.py", "X = 1\n"))
    assert (code, out) == (0, "[]\n")  # stdout stays the JSON; the note is on stderr (below)
    assert err.startswith("note: empty_tools.py defines no module-level @tool function")


def test_missing_file_and_broken_file(tmp_path, capsys):
    missing = tmp_path / "nope.py"
    assert run(capsys, missing) == (2, "", f"error: no such file: {missing}\n")
    broken = write(tmp_path, "broken_tools.py", "def f(:\n")
    code, out, err = run(capsys, broken)
    assert (code, out) == (2, "")
    assert err.startswith(f"error: cannot import {broken}: SyntaxError: ")
    raising = write(tmp_path, "raising_tools.py", "raise RuntimeError('boom')\n")
    assert run(capsys, raising) == (2, "", f"error: cannot import {raising}: RuntimeError: boom\n")


def test_a_file_whose_import_fails_quoting_a_secret_is_told_with_the_secret_masked(tmp_path, capsys):
    """A module connecting at import (`engine = connect(DATABASE_URL)`) fails quoting its URL: the one
    line printed (into a terminal, a CI log) held the password; its paths are kept (the learner's own)."""
    source = (
        "raise ConnectionError('cannot reach postgres://app:Hunt3r-99@db/shop (password=Hunt3r-99) from /srv/app')\n"
    )
    raising = write(tmp_path, "db_tools.py", source)
    assert run(capsys, raising) == (
        2,
        "",
        f"error: cannot import {raising}: ConnectionError: cannot reach postgres://[REDACTED]@db/shop "
        "(password=[REDACTED]) from /srv/app\n",
    )


def test_a_file_that_exits_when_imported_is_one_line_and_exit_2(tmp_path, capsys):
    exiting = write(tmp_path, "exiting_tools.py", "import sys\nsys.exit(3)\n")
    assert run(capsys, exiting) == (2, "", f"error: cannot import {exiting}: it calls exit(3) when imported\n")


def test_module_is_not_left_in_sys_modules(tmp_path, capsys):
    run(capsys, write(tmp_path, "left_behind.py", SHOP))
    assert "left_behind" not in sys.modules


def test_through_python_dash_m(tmp_path):
    path = write(tmp_path, "cli_shop.py", SHOP)
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "tools", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert [s["function"]["name"] for s in json.loads(done.stdout)] == ["a_filter", "query_order"]
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "tools", str(path), "--strict"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.startswith("error: @tool cli_shop.a_filter")


def test_usage_error_exits_2(capsys):
    assert cli([]) == 2
    assert capsys.readouterr().err == "error: give FILE.py, or --mcp-stdio CMD / --mcp-http URL\n"


def test_mcp_flags_are_routed_to_the_mcp_listing(capsys):
    assert cli(["--mcp-http", "http://127.0.0.1:9/mcp"]) == 2
    assert "cannot reach MCP server 'http://127.0.0.1:9/mcp'" in capsys.readouterr().err


@pytest.mark.parametrize("raised", ["GeneratorExit", "Boom"])
def test_a_file_raising_a_base_exception_when_imported_is_one_line_and_exit_2(tmp_path, capsys, raised):
    source = f"class Boom(BaseException):\n    pass\n\n\nraise {raised}()\n"
    odd = write(tmp_path, "odd_tools.py", source)
    assert run(capsys, odd) == (2, "", f"error: cannot import {odd}: it raises {raised} when imported\n")


def test_a_file_imports_the_modules_beside_it_as_python_file_does(tmp_path, capsys):
    """`from helpers import ...` failed with ModuleNotFoundError: the file's folder was not on sys.path."""
    write(tmp_path, "helpers_beside.py", "UNITS = 'kg'\n")
    path = write(
        tmp_path,
        "weigh_tools.py",
        '''
        from helpers_beside import UNITS
        from toolkit.tools.decorator import tool


        @tool
        def weigh(sku: str) -> str:
            """Weigh one item."""
            return UNITS
        ''',
    )
    code, out, err = run(capsys, path)
    assert (code, err) == (0, "")
    assert [s["function"]["name"] for s in json.loads(out)] == ["weigh"]
    assert str(tmp_path) not in sys.path
    sys.modules.pop("helpers_beside", None)


def test_a_folder_is_named_as_a_folder(tmp_path, capsys):
    code, out, err = run(capsys, tmp_path)
    assert (code, out, err) == (2, "", f"error: {tmp_path} is a folder: give one .py file in it\n")


def test_what_the_file_prints_when_imported_goes_to_stderr_so_stdout_is_json(tmp_path, capsys):
    """Before: a tools file with print('loading...') at the top put that line before the JSON on
    stdout, so `toolkit tools FILE.py | jq` (or json.load) failed."""
    code, out, err = run(capsys, write(tmp_path, "chatty.py", 'print("loading my tools...")\n' + SHOP))
    assert code == 0 and err == "loading my tools...\n"
    assert [spec["function"]["name"] for spec in json.loads(out)] == ["a_filter", "query_order"]


def test_an_mcp_url_that_cannot_be_reached_is_named_without_its_credentials(capsys):
    """Before: 'error: cannot reach MCP server 'http://user:sk-…@…?token=sk-…'' printed the URL's
    password and token in full (a closed loopback port here)."""
    secret = "sk-live-0123456789abcdef"
    url = f"http://user:{secret}@127.0.0.1:9/mcp?token={secret}"
    code, out, err = run(capsys, "--mcp-http", url, "--timeout", "3")
    assert (code, out) == (2, "")
    assert err.startswith("error: cannot reach MCP server 'http://user:***@127.0.0.1:9/mcp?token=***': ")
    assert secret not in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "env_change",
    [{"LC_ALL": "C", "PYTHONUTF8": "0"}, {"PYTHONIOENCODING": "latin-1"}],
    ids=["C locale, UTF-8 mode off", "a latin-1 stream"],
)
def test_the_json_stays_json_on_a_stream_that_cannot_take_chinese(tmp_path, env_change):
    """Before: `error: UnicodeEncodeError: 'ascii' codec can't encode ...` and exit 2, nothing on stdout;
    now the same specs, with what the stream cannot take written as JSON's own `\\u` escapes (an emoji,
    outside the BMP, too: a `\\U0001f4e6` escape would not be JSON)."""
    path = write(tmp_path, "shop_cn.py", SHOP.replace("Look up one order by its id.", "查询订单 📦 by id"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIOENCODING", "PYTHONUTF8"))}
    utf8 = subprocess.run(
        [sys.executable, "-m", "toolkit", "tools", str(path)], capture_output=True, env=env, timeout=60
    )
    env.update(env_change)
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "tools", str(path)], capture_output=True, env=env, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert json.loads(done.stdout.decode("ascii")) == json.loads(utf8.stdout.decode("utf-8"))
    assert "查询订单 📦" in utf8.stdout.decode("utf-8")  # a UTF-8 stream still gets the characters themselves


def test_strict_renders_an_mcp_servers_tools_in_strict_mode_too(capsys):
    """Before: `--strict` (its help: "render OpenAI strict mode") was ignored with --mcp-stdio/--mcp-http:
    the plain rendering came out, exit 0, as if the tools had passed the strict check."""
    server = f"{sys.executable} -m toolkit mcp-server --today 2026-10-25"
    code, out, err = run(capsys, "--mcp-stdio", server, "--strict")
    assert (code, err) == (0, "")
    functions = [spec["function"] for spec in json.loads(out)]
    assert [f["name"] for f in functions] == ["query_logistics", "query_order", "query_refund_policy"]
    assert all(f["strict"] is True for f in functions)
    for f in functions:
        parameters = f["parameters"]
        assert parameters["additionalProperties"] is False
        assert sorted(parameters["required"]) == sorted(parameters["properties"])


def test_strict_refuses_an_mcp_tool_strict_mode_cannot_express_in_one_line(tmp_path, capsys):
    source = SHOP.split("@tool\ndef a_filter")[0].replace("from typing", "import anyio\nfrom typing") + (
        "\n\n@tool\ndef a_filter(filters: dict[str, str]) -> str:\n    return ''\n\n\n"
        "from toolkit.mcp.server import serve_stdio, tools_server\n\n"
        "anyio.run(serve_stdio, tools_server([query_order, a_filter]))\n"
    )
    server = write(tmp_path, "free_form_server.py", source)
    code, out, err = run(capsys, "--mcp-stdio", f"{sys.executable} {server}", "--strict")
    assert (code, out) == (2, "")
    assert err == (
        "error: tool 'a_filter', parameter 'filters': OpenAI strict mode needs every object to list its "
        "properties, but this is a free-form dict. Fix: use a pydantic model with named fields, or register "
        "the tool without strict mode\n"
    )


def test_a_notebook_is_named_as_a_notebook(tmp_path, capsys):
    """Before: 'cannot import NB.ipynb (is it a .py file?)', a question where the answer was known."""
    notebook = write(tmp_path, "my_tools.ipynb", '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    assert run(capsys, notebook) == (
        2,
        "",
        f"error: {notebook} is a notebook: toolkit tools imports a .py file; save the tools' cells as one "
        f"(jupyter nbconvert --to script {notebook})\n",
    )


def test_a_module_name_is_answered_with_its_file(capsys):
    """Before: 'no such file: toolkit.course.shop', and no word of what to give instead."""
    shop = ROOT / "toolkit" / "course" / "shop.py"
    assert run(capsys, "toolkit.course.shop") == (
        2,
        "",
        f"error: no such file: toolkit.course.shop (a module's name: give its file, {shop})\n",
    )
    assert run(capsys, "no_such_module_here.tools") == (2, "", "error: no such file: no_such_module_here.tools\n")


def test_an_import_error_of_several_lines_is_one_line(tmp_path, capsys):
    """Before: the exception's text as it came, over several lines (a pydantic error takes a dozen); now
    its lines joined by ' / ' on one line, and a text past 300 characters cut with '…'."""
    raising = write(tmp_path, "many_lines_tools.py", "raise ValueError('first line\\n  second line\\n\\nthird')\n")
    assert run(capsys, raising) == (
        2,
        "",
        f"error: cannot import {raising}: ValueError: first line / second line / third\n",
    )
    long = write(tmp_path, "long_error_tools.py", "raise ValueError('x' * 400)\n")
    assert run(capsys, long) == (2, "", f"error: cannot import {long}: ValueError: {'x' * 299}…\n")


def test_a_file_without_tools_prints_an_empty_list_and_says_why(tmp_path, capsys):
    """A file whose functions are not decorated printed `[]` and nothing else: a learner who forgot
    `@tool` got no hint. stdout stays the JSON; stderr says what is missing."""
    code, out, err = run(capsys, write(tmp_path, "plain.py", "def f(x: int) -> int:\n    return x\n"))
    assert (code, out.strip()) == (0, "[]")
    assert err == (
        "note: plain.py defines no module-level @tool function; decorate one with @tool "
        "(an @tool method needs an instance: register the object in code)\n"
    )


def test_a_path_that_is_there_but_no_file_is_named_for_what_it_is(tmp_path, capsys):
    """Before: 'no such file: …' for a FIFO, `/dev/null` and a symbolic link loop, all of which exist."""
    fifo = tmp_path / "tools.py"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.py"
    loop.symlink_to(loop)
    dangling = tmp_path / "gone.py"
    dangling.symlink_to(tmp_path / "moved.py")
    assert run(capsys, fifo) == (2, "", f"error: cannot read {fifo}: not a regular file (a pipe or a device)\n")
    assert run(capsys, "/dev/null") == (
        2,
        "",
        "error: cannot read /dev/null: not a regular file (a pipe or a device)\n",
    )
    assert run(capsys, loop) == (2, "", f"error: cannot read {loop}: Too many levels of symbolic links\n")
    assert run(capsys, dangling) == (2, "", f"error: no such file: {dangling} (a link to a missing file)\n")


TOOL_ZH = (
    'from toolkit import tool\n\n\n@tool\ndef query_order(order_id: str) -> str:\n    """查询订单。"""\n    return ""\n'
)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (TOOL_ZH.encode("utf-16"), "its text is not UTF-8, as Python reads a .py file (it is UTF-16)"),
        (TOOL_ZH.encode("gbk"), "its text is not UTF-8, as Python reads a .py file (byte 0xb2 on line 6)"),
        (
            b"# -*- coding: ascii -*-\n" + TOOL_ZH.encode("utf-8"),
            "its text is not ascii, as its coding line says (byte 0xe6 on line 7)",
        ),
    ],
)
def test_a_file_not_in_its_encoding_is_told_to_be_saved_as_utf8(tmp_path, capsys, content, said):
    """Before: "SyntaxError: source code string cannot contain null bytes" for a file PowerShell saved
    (UTF-16), and "SyntaxError: (unicode error) 'utf-8' codec can't decode byte 0xb2 in position 9: invalid
    start byte" for one Notepad saved as GBK: Python's words, naming no fix."""
    path = tmp_path / "tools_zh.py"
    path.write_bytes(content)
    assert cli([str(path)]) == 2
    assert capsys.readouterr().err == (
        f"error: cannot import {path}: {said}; open it in the editor that saved it and save it as UTF-8\n"
    )


def test_a_syntax_error_of_a_file_in_utf8_is_pythons_own(tmp_path, capsys):
    path = tmp_path / "broken.py"
    path.write_text("def f(:\n    pass\n", encoding="utf-8")
    assert cli([str(path)]) == 2
    assert capsys.readouterr().err == f"error: cannot import {path}: SyntaxError: invalid syntax (broken.py, line 1)\n"


def test_a_file_of_nul_bytes_is_not_called_utf16(tmp_path, capsys):
    """A file of nothing but NUL bytes (`truncate -s 1M`) is no UTF-16 text: Python's own words for it."""
    path = tmp_path / "zeros.py"
    path.write_bytes(bytes(1024))
    assert cli([str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: cannot import {path}: SyntaxError: source code")


SILENT_SERVER = """import os, pathlib, sys, time
pathlib.Path(sys.argv[1]).write_text(str(os.getpid()))
time.sleep(60)
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_while_listing_an_mcp_servers_tools_stops_the_server_it_started(tmp_path, name):
    """`kill` (a CI job's time limit) or the terminal closing while `toolkit tools --mcp-stdio` waited on a
    server. Before: the command ended where it stood, without a word (exit -15), and the server it had
    started (in a session of its own) ran on, orphaned. Now: one line, exit 128 + the signal, the server
    stopped."""
    import signal

    server, pid_file = write(tmp_path, "silent.py", SILENT_SERVER), tmp_path / "server.pid"
    command = f"{sys.executable} {server} {pid_file}"
    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "tools", "--mcp-stdio", command, "--timeout", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        while not pid_file.exists() or not pid_file.read_text():  # the server is up: the command waits on it
            assert process.poll() is None, process.communicate()
            time.sleep(0.05)
        process.send_signal(getattr(signal, name))
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    pid = int(pid_file.read_text())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        alive = False
    else:
        os.kill(pid, signal.SIGKILL)
        alive = True
    assert (out, err, process.returncode, alive) == (
        "",
        f"stopped ({name}): no tools listed; the MCP servers it started are stopped\n",
        128 + getattr(signal, name),
        False,
    )


def test_two_mcp_servers_offering_one_tool_name_are_one_line_naming_both(capsys):
    """Before: both specs came out under one name, exit 0, though no chat API takes two tools of
    one name and the loop refuses them (`defined_twice`): the listing showed what could not be used."""
    server = f"{sys.executable} -m toolkit mcp-server --today 2026-10-25"
    other = f"{sys.executable} -m toolkit mcp-server --today 2026-10-26"
    code, out, err = run(capsys, "--mcp-stdio", server, "--mcp-stdio", other, "--timeout", "60")
    assert (code, out) == (2, "")
    assert err == (
        "error: tool name 'query_logistics' is defined twice: by MCP server 'python -m toolkit mcp-server "
        "--today 2026-10-25' and by MCP server 'python -m toolkit mcp-server --today 2026-10-26'; give "
        "one server a McpToolProvider of its own and rename its tools, e.g. rename_tools(McpToolProvider([client]), "
        "lambda name: f'other_{name}') (tool names must be unique in a call)\n"
    )


def test_a_file_over_the_cap_is_refused_unread(tmp_path, capsys):
    """Before: Python read the whole file to compile it: a 10 GB sparse file took 22 GB and the OOM killer (exit
    137, not a word). Now the size is looked at first (a sparse file: no disk is used)."""
    from toolkit.cli.tools import MAX_TOOL_FILE_BYTES

    huge = tmp_path / "huge_tools.py"
    with open(huge, "wb") as f:
        f.truncate(10 * 1024**3)
    assert run(capsys, huge) == (
        2,
        "",
        f"error: {huge}: the file is 10737418240 bytes, over the cap of {MAX_TOOL_FILE_BYTES} bytes "
        "(toolkit.cli.tools.MAX_TOOL_FILE_BYTES). Fix: keep the @tool functions in a file of their own, and the data "
        "they use in a file they read when they run\n",
    )
    at_cap = write(tmp_path, "at_cap_tools.py", "X = 1\n")
    with open(at_cap, "ab") as f:
        f.truncate(MAX_TOOL_FILE_BYTES)  # NUL bytes to the cap: read, and Python's own refusal is said
    code, _, err = run(capsys, at_cap)
    assert code == 2 and "over the cap" not in err and err.startswith(f"error: cannot import {at_cap}")
