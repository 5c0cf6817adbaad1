"""Ctrl-C during the accuracy suite keeps the finished cases (audit 8 #11): `run_suite` stops at
once without waiting for a hanging request, and `toolkit eval` writes the CSV, names the cases
not run and exits 130."""

import csv
import datetime
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from ctrl_c import ctrl_c_when
from loopback import announced

from toolkit.chat.switch import fake_client
from toolkit.course.accuracy import CSV_COLUMNS, SuiteInterrupted, load_cases, report_lines, run_suite
from toolkit.course.shop import load_shop

SHOP = load_shop(today=datetime.date(2026, 10, 25))
ROOT = Path(__file__).resolve().parents[1]


HANG_S = 120
"""How long the hanging request waits unless released: far beyond what a stop that does not wait for
it takes on a loaded machine (the bound below is half of it: no timing is measured, only "waited or not")."""


class HangsOn:
    """The fake gateway, except that the request for one question waits until released."""

    def __init__(self, question: str) -> None:
        self.inner, self.question = fake_client(), question
        self.hanging, self.release = threading.Event(), threading.Event()

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def chat(self, messages, **options):
        if any(self.question in str(m.content) for m in messages):
            self.hanging.set()
            self.release.wait(HANG_S)
        return self.inner.chat(messages, **options)


@pytest.mark.parametrize("concurrency", [1, 4])
def test_ctrl_c_keeps_the_finished_cases_and_does_not_wait_for_a_hanging_request(concurrency):
    cases = load_cases()[:6]
    model = HangsOn(cases[2].question)
    finished = []  # Ctrl-C once the request hangs and every case that can finish has (not after a delay)
    before = 2 if concurrency == 1 else len(cases) - 1
    started = time.monotonic()
    try:
        with (
            pytest.raises(SuiteInterrupted) as caught,
            ctrl_c_when(lambda: model.hanging.is_set() and len(finished) == before),
        ):
            run_suite(model, cases, SHOP, concurrency=concurrency, progress=lambda *done: finished.append(done))
        assert time.monotonic() - started < HANG_S / 2  # it did not wait for the hanging request
    finally:
        model.release.set()
    stopped = caught.value
    assert isinstance(stopped, KeyboardInterrupt)
    assert [r.case.id for r in stopped.results] == [c.id for c in cases]
    not_run = [r.case.id for r in stopped.not_run]
    assert cases[2].id in not_run
    if concurrency == 1:
        assert not_run == [c.id for c in cases[2:]]  # in order: nothing after it started
    else:
        assert not_run == [cases[2].id]  # the others finished in the other threads
    assert {r.verdict for r in stopped.not_run} == {"not_run"}
    assert {r.error for r in stopped.not_run} == {
        "not run: the suite was stopped (Ctrl-C, or a signal such as SIGTERM) before this case finished"
    }
    expected = {r.case.id: r.row() for r in run_suite(fake_client(), cases, SHOP)}
    assert [r.row() for r in stopped.finished] == [expected[r.case.id] for r in stopped.finished]
    lines = report_lines(stopped.results)
    assert lines[2] == f"[NOT RUN] {cases[2].id} {cases[2].question}"
    assert lines[-3].startswith("tool-selection accuracy: ") and f"/ {len(stopped.finished)} = " in lines[-3]


SLOW_FIRST_REQUEST = ["--fault", "slow", "--slow-delay", str(HANG_S)]
WAIT = ["--timeout", str(HANG_S)]
"""What the eval command waits for the slow request, if it waits (its client's own 30 s, from the
request's start, left too little to tell waiting from not on a loaded machine)."""


@pytest.mark.parametrize(
    ("sent", "status", "said"),
    [("SIGINT", 130, r"interrupted \(Ctrl-C\)"), ("SIGTERM", 143, r"stopped \(SIGTERM\)")],
)
def test_the_eval_command_writes_the_finished_cases_and_exits_130_on_ctrl_c(tmp_path, sent, status, said):
    """Before, SIGTERM (`kill`, a CI job's time limit) ended the run where it stood: no CSV written (a
    previous run's left as if this one's), exit -15 without a word; now it stops as Ctrl-C does."""
    gateway = [sys.executable, "-m", "toolkit", "gateway", "--port", "0", *SLOW_FIRST_REQUEST]
    with announced(gateway, channel="stdout") as (url, _):
        env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
        env.update(LLM_BASE_URL=url, LLM_API_KEY="sk-test", LLM_MODEL="fake", PYTHONPATH=str(ROOT))
        spawned = time.monotonic()  # the slow request is sent after this
        run = subprocess.Popen(
            [sys.executable, "-m", "toolkit", "eval", "--out", "acc.csv", "--today", "2026-10-25", *WAIT],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            progress = []
            for line in run.stderr:  # the first request hangs (the slow fault); wait for the other 24
                progress.append(line)
                if line.startswith("[24/25]"):
                    break
            pressed = time.monotonic()
            run.send_signal(getattr(signal, sent))
            stdout, stderr = run.communicate(timeout=HANG_S / 2)
            waiting_would_take = HANG_S - (pressed - spawned)  # at least: the timeout, from its start
            assert time.monotonic() - pressed < waiting_would_take / 2  # it did not wait for the slow request
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
    assert run.returncode == status
    # the gateway's first request hangs: which case sent it first depends on the thread pool
    last = stderr.strip().splitlines()[-1]
    hung = re.fullmatch(said + r": 24 of 25 cases finished; not run: (\w+) \(verdict not_run in the CSV\)", last)
    assert hung, last
    assert f"[NOT RUN] {hung[1]} " in stdout and stdout.strip().splitlines()[-1] == "wrote acc.csv"
    with open(tmp_path / "acc.csv", encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == CSV_COLUMNS and len(rows) == 25
    assert [(r["id"], r["verdict"]) for r in rows if r["verdict"] == "not_run"] == [(hung[1], "not_run")]
    assert {r["error"] for r in rows if r["verdict"] == "not_run"} == {
        "not run: the suite was stopped (Ctrl-C, or a signal such as SIGTERM) before this case finished"
    }
