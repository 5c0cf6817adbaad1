"""`toolkit` / `python -m toolkit`: one argparse program; errors are one line, never a traceback."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit.cli.main import COMMANDS, build_parser, main, version


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolkit", *argv], capture_output=True, text=True, timeout=60)


def test_bare_command_prints_help_and_exits_2():
    done = run()
    assert done.returncode == 2 and "usage: python -m toolkit" in done.stderr
    assert all(name in done.stderr for name in COMMANDS)


def test_version_comes_from_package_metadata():
    done = run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"python -m toolkit {version()}"
    assert version()[0].isdigit()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_subcommand_help_names_the_program_and_all_options(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"], prog="toolkit")
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: toolkit {command}")


@pytest.mark.parametrize("command", ["", *sorted(COMMANDS)])
@pytest.mark.parametrize("prog", ["toolkit", "python -m toolkit"])
def test_every_help_fits_an_80_column_terminal(command, prog, capsys, monkeypatch):
    """Before: `gateway --help` had a usage line of 82 columns ([--fault {rate_limit,server_error,slow,truncate}]),
    which an 80-column terminal wraps mid-word."""
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main([command, "--help"] if command else ["--help"], prog=prog)
    assert [line for line in capsys.readouterr().out.splitlines() if len(line) > 80] == []


def test_tools_help_shows_the_mcp_options(capsys):
    with pytest.raises(SystemExit):
        main(["tools", "--help"])
    out = capsys.readouterr().out
    assert "--mcp-stdio" in out and "--mcp-http" in out and "--strict" in out


def test_a_missing_notebook_is_one_line_and_exit_2():
    done = run("notebooks", "missing.ipynb")
    assert done.returncode == 2
    assert done.stderr == "error: no such notebook: missing.ipynb\n"


def test_a_toolkit_error_is_one_line(tmp_path):
    cases = tmp_path / "cases.csv"
    cases.write_text("wrong,header\n", encoding="utf-8")
    done = run("drill", "--cases", str(cases))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert "Traceback" not in done.stderr


def test_unknown_subcommand_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args(["nope"])
    assert info.value.code == 2


def test_one_subcommand_imports_nothing_of_the_others():
    """`toolkit mcp-server` must start fast: building the parser imports only its own module."""
    code = (
        "import sys; from toolkit.cli.main import build_parser; build_parser('toolkit', 'mcp-server'); "
        "print(sorted(m for m in ('nbformat', 'nbclient', 'toolkit.cli.notebooks', 'toolkit.cli.grade', "
        "'toolkit.gateway.core') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_an_unforeseen_exception_quoting_a_secret_is_one_line_with_it_masked(monkeypatch, capsys):
    """The line printed for an exception nothing foresaw (into a terminal, a CI log) held the
    secrets it quoted; the paths it names are kept."""

    def broken(args):
        raise RuntimeError("no route to https://bob:Hunt3r-99@gw/v1 (Authorization: Bearer zzTop998877) in /srv/x")

    parser = build_parser("toolkit", "drill")
    monkeypatch.setattr("toolkit.cli.main.build_parser", lambda *a: parser)
    parser._subparsers._group_actions[0].choices["drill"].set_defaults(run=broken)
    monkeypatch.delenv("TOOLKIT_DEBUG", raising=False)
    assert main(["drill"]) == 2
    assert capsys.readouterr().err == (
        "error: RuntimeError: no route to https://[REDACTED]@gw/v1 (Authorization: Bearer [REDACTED]) in /srv/x "
        "(set TOOLKIT_DEBUG=1 for the traceback)\n"
    )


def test_an_unforeseen_exception_is_one_line_and_exit_2(monkeypatch, capsys):
    """A defect (or input nothing foresaw) in a subcommand: its first line, and how to see more."""

    def broken(args):
        raise ValueError("first line\nsecond line")

    parser = build_parser("toolkit", "drill")
    monkeypatch.setattr("toolkit.cli.main.build_parser", lambda *a: parser)
    parser._subparsers._group_actions[0].choices["drill"].set_defaults(run=broken)
    monkeypatch.delenv("TOOLKIT_DEBUG", raising=False)
    assert main(["drill"]) == 2
    assert capsys.readouterr().err == "error: ValueError: first line (set TOOLKIT_DEBUG=1 for the traceback)\n"
    monkeypatch.setenv("TOOLKIT_DEBUG", "1")
    with pytest.raises(ValueError):
        main(["drill"])


def test_a_file_that_is_not_a_notebook_is_one_line_and_left_alone(tmp_path):
    bad = tmp_path / "notes.ipynb"
    bad.write_text("root:x:0:0")
    done = run("notebooks", str(bad))
    assert done.returncode == 2
    assert done.stderr == (
        f"error: {bad} is not a notebook: its text is not JSON at all (a notebook's file begins with '{{'); give the "
        "notebook as Jupyter saved it\n"
    )
    assert bad.read_text() == "root:x:0:0"


def test_a_failing_cell_is_one_line_and_the_notebook_is_unchanged(tmp_path):
    import nbformat

    path = tmp_path / "fails.ipynb"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 / 0")])
    nbformat.write(notebook, path)
    before = path.read_text()
    done = run("notebooks", str(path))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        f"error: {path}: a cell failed (ZeroDivisionError: division by zero); the file is unchanged"
    )
    assert "Traceback" not in done.stderr
    assert path.read_text() == before


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    parser = build_parser("toolkit", "drill")
    monkeypatch.setattr("toolkit.cli.main.build_parser", lambda *a: parser)
    parser._subparsers._group_actions[0].choices["drill"].set_defaults(run=interrupted)
    assert main(["drill"]) == 130
    assert capsys.readouterr().err == "interrupted (Ctrl-C): stopped\n"


def _toolkit_tools(script):
    """`python -m toolkit tools SCRIPT` running in a child process, its output piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "toolkit", "tools", str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_ctrl_c_in_a_real_run_is_one_line_and_exit_130(tmp_path):
    import signal

    script = tmp_path / "waits.py"
    # waits in slices: a SIGINT landing after the file's last look at its signals and before one long
    # `time.sleep` began was seen only when that sleep ended (in a stress loop, 3 of 2000 presses)
    script.write_text("import time\nprint('ready', flush=True)\nwhile True:\n    time.sleep(0.05)\n")
    process = _toolkit_tools(script)
    assert process.stderr.readline() == "ready\n"  # what the file prints when imported goes to stderr
    # "ready" is the signal: the command is in the file's import, so the Ctrl-C lands there (no sleep)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert (process.returncode, err) == (130, "interrupted (Ctrl-C): stopped\n")


def test_a_reader_that_closes_the_pipe_early_ends_the_command_quietly(tmp_path):
    script = tmp_path / "many.py"
    script.write_text(
        "from toolkit import tool\n\n\n"
        "def make(n):\n"
        "    def lookup(query: str) -> str:\n"
        '        """Look things up in the catalogue by words in their names."""\n'
        "        return query\n\n"
        "    lookup.__name__ = lookup.__qualname__ = f'lookup_{n}'\n"
        "    return tool(lookup)\n\n\n"
        "for n in range(400):\n"
        "    globals()[f'lookup_{n}'] = make(n)\n"
    )  # 400 specs: some 160 kB of JSON, more than a pipe holds
    process = _toolkit_tools(script)
    assert process.stdout.readline() == "[\n"
    process.stdout.close()  # what `| head -1` does after its line
    err = process.stderr.read()
    assert process.wait(timeout=60) == 141
    assert err == ""


def test_a_kernel_that_dies_or_is_interrupted_is_one_line_and_the_notebook_is_unchanged(tmp_path, monkeypatch, capsys):
    """Ctrl-C reaches the kernel too; nbclient then fails in its own cleanup (an AssertionError after DeadKernelError)."""
    import nbformat
    from nbclient.exceptions import DeadKernelError

    import toolkit.exercises.notebook_file as notebooks

    path = tmp_path / "loops.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("while True: pass")]), path)
    before = path.read_text()

    def dies(notebook, where, timeout=120, client=None):
        try:
            raise DeadKernelError("Kernel died")
        except DeadKernelError:
            raise AssertionError  # what nbclient's cleanup raises next  # noqa: B904

    monkeypatch.setattr(notebooks, "execute", dies)
    assert main(["notebooks", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"error: {path}: execution stopped (the kernel died or was interrupted); the file is unchanged\n"
    )
    assert path.read_text() == before


@pytest.mark.parametrize("command", [["mcp-server", "--http"], ["gateway"]])
def test_a_server_on_a_busy_port_is_one_line_and_exit_status_2(command, capsys):
    """Audit 8 #20: both exited 1, and the gateway's line lacked 'error:' and showed '[Errno 98]'."""
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main([*command, "--port", str(port)]) == 2
    assert capsys.readouterr().err == (
        f"error: cannot listen on 127.0.0.1:{port}: Address already in use; stop the program that listens there, or give another --port (0 = any free one)\n"
    )


def _with_a_closed_reader(*argv: str) -> subprocess.CompletedProcess[str]:
    """`python -m toolkit ARGV | :` with Python's default buffering: the reader is gone before the
    command writes a byte, so its short output meets the closed pipe only in the last flush."""
    import os

    read, write = os.pipe()
    os.close(read)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    try:
        return subprocess.run(
            [sys.executable, "-m", "toolkit", *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=60,
        )
    finally:
        os.close(write)


@pytest.mark.parametrize("argv", [["drill"], ["exercises"], ["--help"], ["--version"], ["eval", "--help"]])
def test_a_short_output_to_a_closed_pipe_ends_quietly_with_141(argv):
    """Before: exit 120 and 'Exception ignored in: <_io.TextIOWrapper name='<stdout>' ...>
    BrokenPipeError' on stderr, from the interpreter's last flush, after `main` had returned."""
    done = _with_a_closed_reader(*argv)
    assert (done.returncode, done.stderr) == (141, "")


def test_an_output_that_cannot_be_written_is_one_line_and_exit_2():
    """Before: `toolkit --help > /dev/full` exited 0 with the help lost and no word."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", "--help"], stdout=full, stderr=subprocess.PIPE, text=True, env=env
        )
    assert (done.returncode, done.stderr) == (2, "error: [Errno 28] No space left on device\n")


def test_ctrl_c_while_the_arguments_are_checked_is_one_line_and_exit_130(monkeypatch, capsys):
    """Before: Ctrl-C while an argument was checked (an `--out` FIFO nobody reads, a large cases file
    read through) or a subcommand imported was a traceback through argparse."""

    def interrupted(text):
        raise KeyboardInterrupt

    monkeypatch.setattr("toolkit.cli.arguments.text_file", interrupted)
    monkeypatch.setattr("toolkit.cli.drill.text_file", interrupted)
    assert main(["drill", "--cases", "big.csv"]) == 130
    assert capsys.readouterr().err == "interrupted (Ctrl-C): stopped\n"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_subcommands_help_does_not_import_the_notebook_machinery(command):
    """Before: `toolkit notebooks --help` imported nbformat (its JSON-schema validators) to build
    the parser, some 2 s where every other subcommand's help takes a tenth of that."""
    code = (
        f"import sys; from toolkit.cli.main import build_parser; build_parser('toolkit', {command!r}); "
        "print(sorted(m for m in ('nbformat', 'nbclient', 'jsonschema') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


NOT_UTF8 = {
    "C locale, UTF-8 mode off": {"LC_ALL": "C", "PYTHONUTF8": "0"},
    "a latin-1 stream (a cp1252 console's redirect, say)": {"PYTHONIOENCODING": "latin-1"},
}


def _in(env_change: dict[str, str], *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIOENCODING", "PYTHONUTF8", "LLM_"))}
    env.update(env_change)
    return subprocess.run([sys.executable, "-m", "toolkit", *argv], capture_output=True, env=env, timeout=120, cwd=cwd)


@pytest.mark.parametrize("env_change", NOT_UTF8.values(), ids=NOT_UTF8)
@pytest.mark.parametrize(
    ("argv", "last_line"),
    [(["drill"], b"32 passed, 0 failed"), (["exercises"], b"50 exercises")],
    ids=["drill", "exercises"],
)
def test_a_terminal_that_cannot_show_chinese_gets_the_whole_output_escaped(env_change, argv, last_line):
    """Before: in a locale whose encoding has no Chinese (`LC_ALL=C` with `PYTHONUTF8=0`, a latin-1
    stream), every command printing Chinese stopped half way with exit 2 and
    `error: UnicodeEncodeError: 'ascii' codec can't encode characters ...`."""
    done = _in(env_change, *argv)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.rstrip().splitlines()[-1] == last_line
    assert b"\\u" in done.stdout  # what the terminal cannot show is escaped, not lost


def test_a_path_given_in_a_c_locale_is_written_back_as_it_was_given(tmp_path):
    """Before: with `LC_ALL=C PYTHONUTF8=0` Python reads a non-ASCII argument's bytes as lone surrogates
    (`surrogateescape`), and stdout (escaping what ASCII cannot write) and stderr wrote them as
    `\\udce8\\udcaf...`: the folder a learner named (`课程 sol`) came back unreadable, where Python's own
    stdout there writes the bytes back. Now they are the bytes that came in; other characters are still escaped."""
    folder = tmp_path / "课程 sol"
    notebooks = Path(__file__).resolve().parents[1] / "notebooks"
    c_locale = {"LC_ALL": "C", "PYTHONUTF8": "0"}
    done = _in(c_locale, "exercises", "--solutions", str(folder), "--notebooks", str(notebooks))
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.splitlines()[0] == os.fsencode(folder / "00_welcome.ipynb") + b": 1 exercise solved"
    assert done.stdout.splitlines()[1].endswith(b" exercises solved")  # more than one: the plural
    missing = tmp_path / "工具.py"
    done = _in(c_locale, "tools", str(missing))
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        b"",
        b"error: no such file: " + os.fsencode(missing) + b"\n",
    )


def test_the_escape_handler_gives_bytes_back_and_escapes_the_rest():
    from toolkit.cli.streams import ESCAPE

    text = "a\udce8\udcaf订b\ud800é"  # two bytes surrogateescape read, a character, a lone surrogate, é
    assert text.encode("ascii", ESCAPE) == b"a\xe8\xaf\\u8ba2b\\ud800\\xe9"
    assert text.encode("latin-1", ESCAPE) == b"a\xe8\xaf\\u8ba2b\\ud800\xe9"


def test_json_on_stdout_writes_a_character_that_acts_as_its_escape():
    """Before: `toolkit tools --mcp-stdio ...` printed an MCP server's descriptions with a C1 control (`\\x9b`, a
    terminal's CSI), a right-to-left override or a zero-width space as they came (JSON escapes only C0): a
    terminal acted on them, the text read backwards. Now each is JSON's own escape: the same data for `jq`."""
    import json

    from toolkit.cli.streams import json_text

    value = {"description": "a\x9b2Jb\u202ecd\u200be\U000e0041 订单 😀"}
    text = json_text(value)
    assert text == '{"description": "a\\u009b2Jb\\u202ecd\\u200be\\udb40\\udc41 订单 😀"}'
    assert json.loads(text) == value


def test_importing_the_main_module_runs_nothing():
    """Before: `import toolkit.__main__` (what pdoc, Sphinx's autosummary or `pydoc -w` do to document
    every module, as pyright's --verifytypes lists it) ran the program with the importer's argv:
    it printed the usage and ended the importer with SystemExit(2). `python -m toolkit` still runs it."""
    code = "import importlib; importlib.import_module('toolkit.__main__'); print('imported')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "imported\n", "")
    assert run("--version").stdout.strip() == f"python -m toolkit {version()}"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["grade", "-sub.ipynb"], "toolkit grade: error: the following arguments are required: paths"),
        (["tools", "-sub.ipynb"], "toolkit: error: unrecognized arguments: -sub.ipynb"),
        (["drill", "--cases", "-sub.ipynb"], "toolkit drill: error: argument --cases: expected one argument"),
    ],
)
def test_a_path_that_starts_with_a_dash_is_named_with_how_to_give_it(argv, said, tmp_path, monkeypatch, capsys):
    """Before: `toolkit grade -sub.ipynb` said only "the following arguments are required: paths" (one was
    given) and `--cases -sub.ipynb` "expected one argument": argparse reads a word that starts with `-` as an
    option, and nothing said that the word is a file there, nor how to give it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-sub.ipynb").write_text("{}", encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(argv, prog="toolkit")
    assert info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"{said} ('-sub.ipynb' is a path here: write it ./-sub.ipynb, as a word that starts with '-' is read as "
        "an option)"
    )


def test_a_usage_error_without_such_a_path_is_argparse_own(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(["grade", "-x.ipynb"], prog="toolkit")
    assert (
        capsys.readouterr().err.splitlines()[-1] == "toolkit grade: error: the following arguments are required: paths"
    )


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (
            OSError(13, "Permission denied"),
            "Permission denied; a port below 1024 needs root: give one from 1024 up, or 0 (any free one)",
        ),
        (
            OSError(99, "Cannot assign requested address"),
            "Cannot assign requested address; --host is no address of this machine: give 127.0.0.1 (this machine "
            "only) or one of its own addresses",
        ),
        (
            __import__("socket").gaierror(-2, "Name or service not known"),
            "Name or service not known; --host is no name this machine can look up: give 127.0.0.1 (this machine "
            "only) or one of its own addresses",
        ),
        (OSError(5, "Input/output error"), "Input/output error"),
    ],
)
def test_a_server_that_cannot_listen_names_the_fix(error, said, capsys):
    """Before: "error: cannot listen on 10.1.2.3:18083: Cannot assign requested address" (or "Permission
    denied", "Address already in use"), the system's reason alone, naming no fix."""
    from toolkit.cli.arguments import cannot_listen

    assert cannot_listen("10.1.2.3", 80, error) == 2
    assert capsys.readouterr().err == f"error: cannot listen on 10.1.2.3:80: {said}\n"


@pytest.mark.parametrize(
    ("command", "own"),
    [
        ("gateway", "it runs until stopped: 143 after SIGTERM; 2 when the port cannot be listened on"),
        ("eval", "0 when the pass line is met, 1 when not, 2 when every case failed on the gateway"),
        ("drill", "0 when every case passes, 1 when one fails"),
        ("probe", "0 when the gateway is classified (A-E), 2 when it is not"),
        ("grade", "0 when the run ended (failed exercises included)"),
    ],
)
def test_every_help_says_its_exit_statuses(command, own, capsys, monkeypatch):
    """The exit statuses were in each command's module docstring, of which --help shows the first paragraph
    only: `toolkit eval --help` never said that 1 is a model below the pass line and 2 a gateway that failed
    every case, so a CI script could only guess. Each help ends with them now, and the ones every command shares."""
    monkeypatch.setenv("COLUMNS", "1000")  # one line each: the test reads the text, not its wrapping
    with pytest.raises(SystemExit):
        main([command, "--help"], prog="toolkit")
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(f"exit status: {own}")
    assert last.endswith(
        "; a mistake is one line on stderr and 2; 130 after Ctrl-C; 141 when what reads stdout stopped early (e.g. "
        "head)."
    )


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("\x1b]0;owned\x07x.py", "\\x1b]0;owned\\x07x.py"),  # was a terminal escape: it set the window's title
        ("old\rnew.py", "old\\rnew.py"),  # was "new.py" over "old": a carriage return
        ("tab\tand\u2028line.py", "tab\\tand\\u2028line.py"),
        ("订单.py", "订单.py"),
    ],
)
def test_a_file_name_with_control_characters_is_shown_with_them_escaped(tmp_path, capsys, monkeypatch, name, shown):
    monkeypatch.chdir(tmp_path)
    assert main(["tools", name]) == 2
    assert capsys.readouterr().err == f"error: no such file: {shown}\n"


CLOSED = (
    "error: stdout is closed (>&-), so the command's output was dropped (files it writes are written); "
    "give it an open stdout, or >/dev/null to drop the output on purpose\n"
)


@pytest.mark.parametrize("argv", [["--help"], ["exercises"], ["eval", "--help"]])
def test_output_to_a_stdout_closed_from_the_start_is_one_line_and_exit_2(argv, monkeypatch, capsys):
    """Before: `toolkit exercises >&-` exited 0 with its whole output lost and no word."""
    monkeypatch.setattr(sys, "stdout", None)
    status = _status(lambda: main(argv))
    assert (status, capsys.readouterr().err, sys.stdout) == (2, CLOSED, None)


def _status(call):
    try:
        return call()
    except SystemExit as exc:
        return exc.code


@pytest.mark.parametrize(
    "argv, said",
    [
        (
            ["gateway", "a" * 1_000_000],
            "toolkit: error: unrecognized arguments: " + "a" * 200 + "… (1,000,000 characters)",
        ),
        (["tools", "a\nb" * 400_000], "error: cannot read " + "a\\nb" * 66 + "a\\n… (1,200,000 characters)"),
    ],
    ids=["usage-error", "one-line-error"],
)
def test_a_megabyte_argument_is_shown_shortened_in_its_error(argv, said, capsys):
    """Before: a 1 MB argument was echoed whole in its error (a megabyte of stderr, and with newlines in it,
    thousands of lines): a word past `SHOWN_WORD` characters is shown cut, with its length."""
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage error
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and said in err and len(err) < 1_000 and err.count("\n") <= 2


def test_a_usage_error_shows_a_word_s_nul_and_line_breaks_escaped(capsys):
    """Before: argparse named the word as it came: its newline broke the one line in two, its NUL and escape
    sequences went to the terminal raw."""
    with pytest.raises(SystemExit):
        main(["gateway", "a\nb\x00c\x1b[2J"])
    assert capsys.readouterr().err.endswith("toolkit: error: unrecognized arguments: a\\nb\\x00c\\x1b[2J\n")


def test_the_command_of_a_command_line_is_its_first_word_that_names_one():
    from toolkit.cli.main import command_of

    assert command_of(["gateway", "--port", "grade"]) == "gateway"
    assert command_of(["--help"]) is None
