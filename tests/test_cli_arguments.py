"""Argument types: a bad number is argparse's one-line usage error naming what is valid."""

import argparse
from pathlib import Path

import pytest

from toolkit.cli.arguments import count, port, positive, seconds
from toolkit.cli.main import main


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("18083", 18083), ("65535", 65535)])
def test_port_accepts_0_to_65535(text, value):
    assert port(text) == value


@pytest.mark.parametrize("text", ["-1", "65536", "99999", "http", "", "1.5"])
def test_port_refuses_the_rest_with_what_is_valid(text):
    with pytest.raises(argparse.ArgumentTypeError) as info:
        port(text)
    assert str(info.value) == f"{text!r} is not a port: use a whole number from 0 to 65535 (0 = any free)"


def test_count_positive_and_seconds_say_what_is_valid():
    assert (count("0"), positive("1"), seconds("0"), seconds("2.5")) == (0, 1, 0.0, 2.5)
    for fn, text, message in [
        (count, "-3", "'-3' is not a count: use a whole number, 0 or more"),
        (positive, "0", "'0' is not allowed here: use a whole number, 1 or more"),
        (positive, "x", "'x' is not allowed here: use a whole number, 1 or more"),
        (seconds, "nan", "'nan' is not a duration: use a number of seconds, 0 or more"),
        (seconds, "inf", "'inf' is not a duration: use a number of seconds, 0 or more"),
        (seconds, "-1", "'-1' is not a duration: use a number of seconds, 0 or more"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError) as info:
            fn(text)
        assert str(info.value) == message


@pytest.mark.parametrize(
    ("argv", "wanted"),
    [
        (["gateway", "--port", "99999"], "argument --port: '99999' is not a port"),
        (["mcp-server", "--http", "--port", "-1"], "argument --port: '-1' is not a port"),
        (["gateway", "--slow-delay", "nan"], "argument --slow-delay: 'nan' is not a duration"),
        (["gateway", "--retry-after", "-2"], "argument --retry-after: '-2' is not a count"),
        (["eval", "--concurrency", "0"], "argument --concurrency: '0' is not allowed here"),
        (["grade", "--timeout", "0", "x.ipynb"], "argument --timeout: '0' is not a time limit"),
        (["tools", "--timeout", "-5", "x.py"], "argument --timeout: '-5' is not a time limit"),
        (["gateway", "--host", ""], "argument --host: '' is not a host: give a name or address, e.g. 127.0.0.1"),
        (["gateway", "--host", " "], "argument --host: ' ' is not a host"),
        # was "error: TypeError: encoding of hostname failed (set TOOLKIT_DEBUG=1 for the traceback)" on listening
        (
            ["gateway", "--host", "a\u202eb"],
            "argument --host: 'a\\u202eb' is not a host (it holds '\\u202e', which no host name may hold): each part between dots is 1-63 "
            "characters; give a name or address, e.g. 127.0.0.1",
        ),
        (
            ["gateway", "--host", "gw..example.com"],
            "argument --host: 'gw..example.com' is not a host (a part between dots is empty): each part between dots "
            "is 1-63 characters; give a name or address, e.g. 127.0.0.1",
        ),
        (
            ["tools", "--mcp-stdio", "python -c 'x"],
            'argument --mcp-stdio: "python -c \'x" is not a command line: no closing quotation',
        ),
    ],
)
def test_a_bad_number_is_a_usage_error_before_anything_runs(argv, wanted, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv, prog="toolkit")
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert wanted in err and "Traceback" not in err


def test_an_input_file_must_exist_and_be_utf8(tmp_path):
    from toolkit.cli.arguments import text_file

    good = tmp_path / "cases.csv"
    good.write_text("id,tool\n", encoding="utf-8")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("caf\xe9\n".encode("latin-1"))
    assert text_file(str(good)) == str(good)
    for text, message in [
        (str(latin), f"{str(latin)!r} is not UTF-8 text (byte 0xe9 at position 3); save it as UTF-8"),
        (str(tmp_path / "nope.csv"), f"{str(tmp_path / 'nope.csv')!r} cannot be read: No such file or directory"),
        (str(tmp_path), f"{str(tmp_path)!r} cannot be read: Is a directory"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError) as info:
            text_file(text)
        assert str(info.value) == message


def test_an_output_file_is_checked_before_the_run(tmp_path):
    from toolkit.cli.arguments import out_file

    blocking = tmp_path / "notes.txt"
    blocking.write_text("x")
    assert out_file(str(tmp_path / "new" / "grades.csv")) == tmp_path / "new" / "grades.csv"
    for text, message in [
        ("", "'' is blank: give a file name, e.g. out/results.csv"),
        (str(tmp_path), f"{str(tmp_path)!r} is a folder: give a file name, e.g. out/results.csv"),
        (str(blocking / "g.csv"), f"{str(blocking / 'g.csv')!r} cannot be written: {blocking} is a file, not a folder"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError) as info:
            out_file(text)
        assert str(info.value) == message


def test_an_output_file_that_cannot_be_created_is_refused_before_the_run(tmp_path, capsys):
    from toolkit.cli.arguments import out_file

    with pytest.raises(argparse.ArgumentTypeError) as info:
        out_file("/proc/grades.csv")  # /proc accepts no new files, not even from root
    assert str(info.value) == "'/proc/grades.csv' cannot be written: No such file or directory"
    with pytest.raises(SystemExit) as stopped:
        main(["grade", "x.ipynb", "--out", "/proc/grades.csv"], prog="toolkit")
    assert stopped.value.code == 2
    assert "argument --out: '/proc/grades.csv' cannot be written" in capsys.readouterr().err


def test_checking_an_output_file_leaves_nothing_behind_and_changes_nothing(tmp_path):
    from toolkit.cli.arguments import out_file

    existing = tmp_path / "old.csv"
    existing.write_text("kept")
    assert out_file(str(existing)) == existing and existing.read_text() == "kept"
    assert out_file(str(tmp_path / "new.csv")) == tmp_path / "new.csv"
    assert out_file(str(tmp_path / "sub" / "new.csv")) == tmp_path / "sub" / "new.csv"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]


@pytest.mark.parametrize("command", [["grade", "x.ipynb"], ["eval"]])
def test_a_folder_given_as_the_output_is_a_usage_error_before_anything_runs(command, tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        main([*command, "--out", str(tmp_path)], prog="toolkit")
    assert info.value.code == 2
    assert f"argument --out: {str(tmp_path)!r} is a folder" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["drill", "eval"])
def test_a_cases_file_that_is_not_utf8_is_a_usage_error(command, tmp_path, capsys):
    latin = tmp_path / "cases.csv"
    latin.write_bytes(b"\xff\xfe")
    with pytest.raises(SystemExit):
        main([command, "--cases", str(latin)], prog="toolkit")
    assert f"argument --cases: {str(latin)!r} is not UTF-8 text (byte 0xff at position 0)" in capsys.readouterr().err


def test_a_day_is_yyyy_mm_dd_and_a_bad_one_says_so(capsys):
    import datetime

    from toolkit.cli.arguments import day

    assert day(" 2026-10-25 ") == datetime.date(2026, 10, 25)
    for bad in ("yesterday", "2026-13-01", ""):
        with pytest.raises(argparse.ArgumentTypeError) as caught:
            day(bad)
        assert str(caught.value) == f"{bad!r} is not a day: use yyyy-mm-dd, e.g. 2026-10-25"
    with pytest.raises(SystemExit) as caught:
        main(["eval", "--today", "yesterday"])
    assert caught.value.code == 2
    assert (
        capsys.readouterr()
        .err.splitlines()[-1]
        .endswith("toolkit eval: error: argument --today: 'yesterday' is not a day: use yyyy-mm-dd, e.g. 2026-10-25")
    )


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["exercises", "--week", "99"], "error: no exercises in week 99: the weeks are 0 to 10"),
        (["mcp-server", "--port", "8765"], "error: --port needs --http (stdio has no port)"),
        (
            ["gateway", "--port", "0", "--retry-after", "5"],
            "error: --retry-after is the Retry-After of a rate_limit fault; add --fault rate_limit",
        ),
        (
            ["gateway", "--port", "0", "--fault", "rate_limit", "--slow-delay", "2"],
            "error: --slow-delay is the delay of a slow fault; add --fault slow",
        ),
        (
            ["tools", "no_such_tools.py", "--timeout", "5"],
            "error: --timeout is for MCP servers (--mcp-stdio, --mcp-http); a FILE.py is read at once",
        ),
        (
            ["exercises", "--week", "3", "--solutions", "no-such-dir"],
            "error: --week lists one week's exercises; --solutions and --update write every exercise of the "
            "notebooks they are given: leave --week out",
        ),
        (
            ["exercises", "--notebooks", "no-such-dir"],
            "error: --notebooks says where --solutions reads the course notebooks from; give --solutions DIR too",
        ),
        (
            ["exercises", "--solutions", "no-such-dir", "--update", "no-such.ipynb"],
            "error: give --solutions DIR or --update NOTEBOOK..., not both",
        ),
    ],
)
def test_an_option_that_would_do_nothing_is_one_line_and_exit_2(argv, line, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # were an option ignored, nothing is written in the checkout
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == line


def test_an_output_that_is_a_named_pipe_or_a_device_is_not_opened_by_the_check(tmp_path):
    """Before: the check opened `--out FIFO` for writing, which waits for a reader (with none, the
    command hung before it started, and Ctrl-C was a traceback) and then, closing it, ended the
    reader's stream. A FIFO or device is left to the command, as an input pipe is."""
    import os
    import threading

    from toolkit.cli.arguments import out_file

    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    checked: list[object] = []
    check = threading.Thread(target=lambda: checked.append(out_file(str(fifo))), daemon=True)
    check.start()
    check.join(timeout=30)  # the check returns at once when things are right
    blocked = check.is_alive()
    if blocked:  # let the check go: a writer's open returns once a reader opens
        with open(fifo, "rb"):
            check.join(timeout=5)
    assert (blocked, checked) == (False, [fifo])
    assert out_file(os.devnull) == Path(os.devnull)


@pytest.mark.parametrize("command", ["drill", "eval"])
def test_a_cases_file_over_the_cap_is_a_usage_error_before_it_is_read(command, tmp_path, monkeypatch, capsys):
    """Before: the check read the whole file to see whether it was UTF-8 (a 200 MB file, whole)."""
    from toolkit.course import case_rows

    cases = tmp_path / "cases.csv"
    cases.write_text("id,tool\n", encoding="utf-8")
    monkeypatch.setattr(case_rows, "MAX_CASES_BYTES", 7)
    with pytest.raises(SystemExit) as info:
        main([command, "--cases", str(cases)], prog="toolkit")
    assert info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"toolkit {command}: error: argument --cases: {str(cases)!r}: the file is 8 bytes, over the cap of 7 bytes "
        "(toolkit.course.case_rows.MAX_CASES_BYTES). Fix: split the cases into several files"
    )


def test_an_output_that_is_a_link_is_checked_at_the_file_it_names(tmp_path, capsys):
    """Before: a link to a file still to be made (`latest.csv -> runs/monday.csv`, the file moved away)
    and a link loop were both refused with 'cannot be written: File exists'; the first can be written
    (the writers follow the link and make the file), the second is a loop."""
    from toolkit.cli.arguments import out_file

    (tmp_path / "runs").mkdir()
    latest = tmp_path / "latest.csv"
    latest.symlink_to(tmp_path / "runs" / "monday.csv")
    assert out_file(str(latest)) == latest
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == []
    assert main(["eval", "--out", str(latest), "--fake-mode", "A", "--today", "2026-10-25"]) == 0
    assert latest.is_symlink() and (tmp_path / "runs" / "monday.csv").read_text(encoding="utf-8-sig").startswith("id,")
    loop = tmp_path / "loop.csv"
    loop.symlink_to(loop)
    nowhere = tmp_path / "nowhere.csv"
    nowhere.symlink_to(tmp_path / "gone" / "monday.csv")
    for text, message in [
        (str(loop), f"{str(loop)!r} cannot be written: Too many levels of symbolic links"),
        (
            str(nowhere),
            f"{str(nowhere)!r} cannot be written: it links to {tmp_path / 'gone' / 'monday.csv'}, in a folder that does not exist",
        ),
    ]:
        with pytest.raises(argparse.ArgumentTypeError) as info:
            out_file(text)
        assert str(info.value) == message


MCP_URL_FIX = (
    "give the server's endpoint, e.g. http://127.0.0.1:8765/mcp (a command that starts a server is --mcp-stdio)"
)
"""The end of every --mcp-http refusal; what comes before is `McpClient`'s own words (`url_problem`)."""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "localhost:8765/mcp",
            "'localhost:8765/mcp': the URL does not start with http:// or https://; " + MCP_URL_FIX,
        ),
        ("http:///mcp", "'http:///mcp': the URL names no host; " + MCP_URL_FIX),
        (
            "localhost/mcp?token=s3cret",
            "'localhost/mcp?token=***': the URL does not start with http:// or https://; " + MCP_URL_FIX,
        ),
        (
            "http://u:s3cret@127.0.0.1:99999/mcp",
            "'http://u:***@127.0.0.1:99999/mcp': the URL's port is 99999, and a port is 1-65535; " + MCP_URL_FIX,
        ),
        # taken by the flag, then refused by McpClient in other words (or failed on connecting)
        (
            " http://127.0.0.1:8765/mcp",
            "' http://127.0.0.1:8765/mcp': the URL starts or ends with a space; " + MCP_URL_FIX,
        ),
        (
            "http://mcp..example.com/mcp",
            "'http://mcp..example.com/mcp': the URL's host cannot be looked up (a part between dots is empty): each "
            "part between dots is 1-63 characters; " + MCP_URL_FIX,
        ),
    ],
)
def test_an_mcp_url_must_be_http_with_a_host_and_a_port_and_is_named_masked(text, message, capsys):
    """Before: `--mcp-http localhost:8765/mcp` was "McpClient('localhost:8765/mcp'): a str is the URL of a
    streamable-HTTP server … Fix: give the URL, or for a command to start: McpClient.from_command_line(...)",
    the Python API's words on the command line; `http:///mcp` was "UnsupportedProtocol: Request URL is missing
    an 'http://' or 'https://' protocol" (it has one), and port 99999 "OverflowError: connect(): port must be
    0-65535" after a connection attempt."""
    from toolkit.cli.arguments import mcp_url

    with pytest.raises(argparse.ArgumentTypeError) as info:
        mcp_url(text)
    assert str(info.value) == message
    with pytest.raises(SystemExit) as exit_info:
        main(["tools", "--mcp-http", text], prog="toolkit")
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and err.endswith(f"toolkit tools: error: argument --mcp-http: {message}\n")
    assert "s3cret" not in err


def test_an_mcp_url_that_is_one_is_kept_as_given():
    from toolkit.cli.arguments import mcp_url

    for url in ("http://127.0.0.1:8765/mcp", "HTTPS://user:pw@example.com/mcp?token=x", "http://[::1]:1/mcp"):
        assert mcp_url(url) == url


@pytest.mark.parametrize("text", ["", "   "])
def test_a_blank_command_line_names_the_option_and_an_example(text, capsys):
    """Before: `--mcp-stdio ""` was "McpClient.from_command_line(''): the line holds no command. Fix: write the
    command line, e.g. McpClient.from_command_line(\"python -m mcp_server_time\")", the Python API's words."""
    with pytest.raises(SystemExit) as info:
        main(["tools", "--mcp-stdio", text], prog="toolkit")
    assert info.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"toolkit tools: error: argument --mcp-stdio: {text!r} is not a command line: it names no command; "
        'give one, e.g. --mcp-stdio "python -m toolkit mcp-server"\n'
    )


def test_an_output_name_that_ends_in_a_slash_is_a_folder_not_a_file(tmp_path):
    """Before: `--out results/` (a folder that is not there yet) wrote the CSV as a file named `results`,
    where `cp`, `mv` and the shell take the slash to mean a folder."""
    from toolkit.cli.arguments import out_file

    text = f"{tmp_path}/results/"
    with pytest.raises(argparse.ArgumentTypeError) as info:
        out_file(text)
    assert str(info.value) == (
        f"{text!r} ends in '/', so it names a folder, and there is no such folder: give a file name, e.g. "
        f"{text}results.csv"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text", ["0", "-0", "nan", "-1"])
def test_an_mcp_timeout_of_zero_is_a_usage_error_naming_the_option(text, capsys):
    """Before: `toolkit tools --mcp-stdio CMD --timeout 0` said "McpClient(connect_timeout=0.0): connect_timeout is
    a finite number of seconds above 0. Fix: give a number, e.g. connect_timeout=30", the Python API's words."""
    with pytest.raises(SystemExit) as info:
        main(["tools", "--mcp-stdio", "server", "--timeout", text], prog="toolkit")
    assert info.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"toolkit tools: error: argument --timeout: {text!r} is not a time limit: use a number of seconds above 0, "
        "e.g. 10\n"
    )


def test_a_dash_for_the_cases_names_standard_input_s_file(capsys):
    """Before: `toolkit drill --cases - < cases.csv` said "'-' cannot be read: No such file or directory", where
    `--out -` is standard output: nothing said how to read the cases from standard input."""
    with pytest.raises(SystemExit) as info:
        main(["drill", "--cases", "-"], prog="toolkit")
    assert info.value.code == 2
    assert capsys.readouterr().err.endswith(
        "toolkit drill: error: argument --cases: '-' is no file: to read the cases from standard input, give "
        "--cases /dev/stdin\n"
    )


@pytest.mark.parametrize("command", [["tools", "--mcp-stdio", "server"], ["eval"], ["probe"]])
@pytest.mark.parametrize("text", ["1e10", "99999999999"])
def test_a_timeout_longer_than_a_socket_can_wait_is_a_usage_error(command, text, capsys):
    """Before: taken, then 'error: OverflowError: timestamp out of range for platform time_t' at the
    first request or connection (a socket waits at most about 9.2e9 s)."""
    with pytest.raises(SystemExit) as info:
        main([*command, "--timeout", text], prog="toolkit")
    assert info.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"toolkit {command[0]}: error: argument --timeout: {text!r} is too long a time limit: use at most "
        "1,000,000,000 seconds (about 32 years)\n"
    )


def test_the_longest_time_limit_is_the_clients_longest_wait():
    from toolkit.chat.client import LONGEST_SLEEP_S
    from toolkit.cli.arguments import LONGEST_WAIT_S

    assert LONGEST_WAIT_S == LONGEST_SLEEP_S


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["grade", ""], "paths"),
        (["grade", "sub.ipynb", " "], "paths"),
        (["notebooks", "--no-execute", ""], "files"),
        (["tools", ""], "file"),
        (["exercises", "--solutions", ""], "--solutions"),
        (["exercises", "--solutions", "out", "--notebooks", "  "], "--notebooks"),
        (["exercises", "--update", ""], "--update"),
    ],
)
def test_a_blank_path_is_a_usage_error_not_the_current_folder(argv, option, tmp_path, monkeypatch, capsys):
    """`toolkit grade "$SUBMISSIONS"` with the variable unset: `Path("")` is `.`, so grade searched the folder it
    ran in and graded every notebook there, `exercises --solutions ""` wrote the solved notebooks into it, and
    `--update ""` said "error:  is not a course notebook" (a name of nothing). Now one usage line naming the option."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub.ipynb").write_text("{}")
    with pytest.raises(SystemExit) as info:
        main(argv, prog="toolkit")
    blank = next(word for word in argv if not word.strip())
    assert info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"toolkit {argv[0]}: error: argument {option}: {blank!r} is blank: give a path "
        "(an empty one would be the current folder)"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sub.ipynb"]


@pytest.mark.parametrize("check", ["out_file", "text_file", "given_path"])
def test_a_path_holding_a_nul_is_named_with_the_fix(check):
    """Before: `--out 'a<NUL>b'` was argparse's "invalid out_file value: 'a\\x00b'" (no reason, no fix), and
    `grade 'a<NUL>b'` failed later; no file name can hold a NUL (a paste from a binary file, a C string)."""
    from toolkit.cli import arguments

    with pytest.raises(argparse.ArgumentTypeError) as info:
        getattr(arguments, check)("a\x00b.csv")
    assert (
        str(info.value)
        == "'a\\x00b.csv' holds a NUL character (\\x00), which no file name can: give the name without it"
    )


def test_a_day_in_another_iso_spelling_is_refused_naming_the_day_it_stands_for(capsys):
    """Before: `--today 2026-W01-1` was read silently as 2025-12-29, while `--help` said yyyy-mm-dd."""
    with pytest.raises(SystemExit) as caught:
        main(["drill", "--today", "2026-W01-1"])
    assert caught.value.code == 2
    assert (
        capsys.readouterr()
        .err.splitlines()[-1]
        .endswith(
            "toolkit drill: error: argument --today: '2026-W01-1' is not a day (an ISO week date, for 2025-12-29): use "
            "yyyy-mm-dd, e.g. 2025-12-29"
        )
    )


def test_a_command_line_holding_a_nul_is_named_with_the_fix(capsys):
    """Before: `tools --mcp-stdio 'a<NUL>b'` got as far as starting the server and said "cannot reach MCP
    server 'a\\x00b': ValueError: embedded null byte"."""
    with pytest.raises(SystemExit) as caught:
        main(["tools", "--mcp-stdio", "python\x00 -m x"], prog="toolkit")
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "toolkit tools: error: argument --mcp-stdio: 'python\\x00 -m x' holds a NUL character (\\x00), which no "
        "command line can: give the command without it"
    )


def test_an_out_file_name_too_long_to_look_at_is_a_usage_line(capsys, tmp_path, monkeypatch):
    """Before: `eval --out <300 characters>.csv` reached the catch-all: "error: [Errno 36] File name too long:
    …", naming no option (`Path.is_dir` raises ENAMETOOLONG instead of answering False)."""
    monkeypatch.chdir(tmp_path)
    name = "a" * 300 + ".csv"
    with pytest.raises(SystemExit) as caught:
        main(["eval", "--out", name], prog="toolkit")
    assert caught.value.code == 2
    said = capsys.readouterr().err.splitlines()[-1]
    assert said.startswith("toolkit eval: error: argument --out: 'aaaa")
    assert said.endswith("a… (304 characters)' cannot be written: File name too long")
    assert list(tmp_path.iterdir()) == []
