"""`toolkit eval`: `--out` never writes over the `--cases` file it reads; what its exit status says."""

import argparse
import csv
import inspect
import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from loopback import announced

from toolkit.chat.client import ChatClient
from toolkit.cli.main import main
from toolkit.cli.probe import GATEWAY_TIMEOUT_S, add_gateway_arguments, client_from_args

CASES = Path(__file__).resolve().parents[1] / "data" / "accuracy_cases.csv"


def test_an_out_that_names_the_cases_file_is_refused_before_anything_runs(tmp_path, monkeypatch, capsys):
    """Before: `eval --cases mine.csv --out ./mine.csv` ran the suite and replaced the teacher's
    cases with the results."""
    mine = tmp_path / "mine.csv"
    shutil.copy(CASES, mine)
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--cases", "mine.csv", "--out", "./mine.csv"]) == 2
    assert capsys.readouterr() == (
        "",
        "error: eval --out mine.csv: that is the --cases file, and the results would overwrite it; give another "
        "file, e.g. --out out/w3-tool-accuracy.csv\n",
    )
    assert mine.read_bytes() == CASES.read_bytes()


def test_an_out_that_is_a_named_pipe_gets_the_whole_csv(tmp_path):
    """Before: checking `--out` opened the FIFO for writing and closed it again, which is the end of
    the stream for the reader already waiting on it (`mkfifo p; cat p > got & toolkit eval --out p`):
    the reader got nothing and left, and the command then waited forever to write its CSV."""
    import os
    import subprocess
    import sys
    import threading

    fifo = tmp_path / "results.csv"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as f:
            got.append(f.read())

    waiting = threading.Thread(target=reader, daemon=True)
    waiting.start()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", "eval", "--out", str(fifo)], capture_output=True, text=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        done = None
    finally:
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))  # a writer still waiting is let go
    waiting.join(timeout=10)
    assert done is not None and done.returncode == 0, done and done.stderr
    assert got[0].decode().startswith("id,") and got[0].count(b"\n") == 26  # the header and 25 cases


class _ReaderLeavesAfterOneLine:
    """stdout of `toolkit eval | head -1`: the first line is read, every later write finds the pipe closed."""

    def __init__(self) -> None:
        self.lines = 0

    def write(self, text: str) -> int:
        if self.lines:
            raise BrokenPipeError(32, "Broken pipe")
        self.lines += text.count("\n")
        return len(text)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        import io

        raise io.UnsupportedOperation("fileno")


def test_the_csv_is_written_even_when_the_reader_of_stdout_has_left(tmp_path, monkeypatch):
    """Before: `toolkit eval | head -1` ran every case, then failed printing the report and never
    wrote the CSV (it was written after the report): a run of minutes against a real gateway, lost."""
    out = tmp_path / "results.csv"
    monkeypatch.setattr("sys.stdout", _ReaderLeavesAfterOneLine())
    main(["eval", "--out", str(out)])
    assert out.read_text(encoding="utf-8").count("\n") == 26  # the header and 25 cases


def test_a_gateway_that_failed_every_case_is_exit_2_not_a_missed_pass_line(tmp_path, monkeypatch, capsys):
    """Before: exit 1, the status of a model below the 85% pass line, when nothing was measured: every
    case failed on the gateway (here mode C refuses `tools`; a wrong URL, key or model does the same).
    A script could not tell a poor model from a broken configuration; now exit 2, as `probe` has it."""
    for name in [k for k in os.environ if k.startswith("LLM_")]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--fake-mode", "C", "--out", "c.csv", "--today", "2026-10-25"]) == 2
    assert capsys.readouterr().err == (
        "25 of 25 cases failed on the gateway: CallerError: HTTP 400: unknown field: tools — the gateway rejected "
        "the request body; fix it (not retried)\n"
        "the gateway rejects the `tools` field: rerun with --protocol prompt (the prompt-protocol fallback)\n"
    )
    assert (tmp_path / "c.csv").read_text(encoding="utf-8").count("\n") == 26  # the CSV still holds every case


def _eval_into(stdout_file: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    with open(stdout_file, "wb") as out:
        return subprocess.run(
            [sys.executable, "-m", "toolkit", "eval", "--today", "2026-10-25", *argv],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=stdout_file.parent,
            timeout=120,
        )


@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
def test_an_out_that_is_stdout_gets_the_csv_alone_and_the_report_goes_to_stderr(tmp_path, out):
    """Before: `--out /dev/stdout > results.csv` opened the file a second time, emptied it and wrote
    the CSV over the report's first lines (results.csv: a CSV header glued to '[PASS] N01 …', lines
    lost); `--out -` wrote a file named '-'. Now both put the CSV alone on stdout, the report on stderr."""
    results = tmp_path / "results.csv"
    done = _eval_into(results, "--out", out)
    assert done.returncode == 0, done.stderr
    with open(results, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0][:3] == ["id", "group", "question"] and len(rows) == 26
    assert [row[0] for row in rows[1:]] == [row[0] for row in _course_cases()]
    report = done.stderr.splitlines()
    assert report[0] == "running 25 cases against embedded fake keyword gateway (in-process, mode A)"
    assert report[-1] == "wrote the CSV to stdout"
    assert not (tmp_path / "-").exists()


def _course_cases() -> list[list[str]]:
    with open(CASES, encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f))[1:]


def test_the_gateway_flags_give_the_client_the_timeout_and_its_default_is_the_client_s(monkeypatch):
    for name in [k for k in os.environ if k.startswith("LLM_")]:
        monkeypatch.delenv(name)
    parser = argparse.ArgumentParser()
    add_gateway_arguments(parser)
    assert client_from_args(parser.parse_args(["--timeout", "2.5"]))._http.timeout == httpx.Timeout(2.5)
    assert client_from_args(parser.parse_args([]))._http.timeout == httpx.Timeout(GATEWAY_TIMEOUT_S)
    assert GATEWAY_TIMEOUT_S == inspect.signature(ChatClient).parameters["timeout"].default


@pytest.mark.parametrize("command", ["eval", "probe"])
@pytest.mark.parametrize("value", ["0", "-3", "abc", "inf", "nan", ""])
def test_a_timeout_that_is_no_time_limit_is_argparse_s_one_line(command, value, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--timeout", value], prog="toolkit")
    assert info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"toolkit {command}: error: argument --timeout: {value!r} is not a time limit: use a number of "
        "seconds above 0, e.g. 10"
    )


def test_eval_waits_on_a_slow_gateway_for_timeout_and_says_how_to_wait_longer(tmp_path):
    """Before: no --timeout; each request waited the client's 30 s (three attempts: a minute and a
    half for one case) and a local model slower than that could not be measured at all."""
    slow = ["--fault", "slow"] * 3 + ["--slow-delay", "120"]  # each attempt of the one case
    cases = tmp_path / "one.csv"
    cases.write_text("".join(CASES.read_text(encoding="utf-8-sig").splitlines(keepends=True)[:2]), encoding="utf-8")
    with announced([sys.executable, "-m", "toolkit", "gateway", "--port", "0", *slow], channel="stdout") as (url, _):
        env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
        env.update(LLM_BASE_URL=url, LLM_API_KEY="sk-test", LLM_MODEL="fake", PYTHONPATH=str(CASES.parents[1]))
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", "eval", "--cases", str(cases), "--timeout", "0.5", "--out", "o.csv"],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=60,  # far less than one request would wait without --timeout
        )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-2:] == [
        "1 of 1 case failed on the gateway: TransientError: request timed out (ReadTimeout) after 0.5s",
        "the gateway did not answer within --timeout: if it is slow rather than stuck (a local model on a CPU), "
        "rerun with a longer one, e.g. --timeout 120",
    ]


def test_a_csv_that_cannot_be_written_still_leaves_the_report(tmp_path, monkeypatch, capsys):
    """A full disk when the run ended (a run of minutes against a real gateway): the CSV is written before the
    report, and its OSError ended the command there, so the results were nowhere — only
    'error: [Errno 28] No space left on device: ...'. Now the report is printed, and one line says the CSV was
    not written and what to do; exit status 2."""
    from full_disk import fill_disk_after

    for name in [k for k in os.environ if k.startswith("LLM_")]:
        monkeypatch.delenv(name)
    out = tmp_path / "results.csv"
    out.write_text("id,verdict\nlast-run,pass\n")
    fill_disk_after(monkeypatch, 100)
    status = main(["eval", "--out", str(out), "--today", "2026-10-25"])
    monkeypatch.undo()
    printed, err = capsys.readouterr()
    assert status == 2
    assert printed.splitlines()[-3:] == [
        "tool-selection accuracy: 22 / 25 = 88.0% (pass line 85%: met)",
        "average model calls: 1.6 per case",
        "invented arguments: 0",
    ]
    assert err == (
        f"error: the CSV was not written to {out} (No space left on device): the results are only in the report "
        "above; make room or give another --out, then run again (a CSV there before is left as it was)\n"
    )
    assert out.read_text() == "id,verdict\nlast-run,pass\n"
