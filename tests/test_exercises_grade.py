"""`toolkit grade`: starters grade 0, solutions full marks, a broken cell partial; bad submissions get a row.

Each notebook runs in a real kernel, so the notebooks here are small: week 2's Exercises section
on its own (named like the course notebook), plus the committed week-0 notebook.
"""

import csv
import os
import sys
import time
from pathlib import Path

import nbformat
import pytest

from toolkit.cli.main import main
from toolkit.exercises import all_exercises
from toolkit.exercises.environment import grading_imports, submission_environment
from toolkit.exercises.grade import (
    NOTEBOOK_ROW,
    QUIET,
    WHOLE,
    grade_notebook,
    grade_paths,
    results,
    summary,
)
from toolkit.exercises.notebook import section_cells

WEEK2 = "02_week2_reliable_calls.ipynb"
COURSE = Path(__file__).resolve().parents[1] / "notebooks"
N = sum(e.week == 2 for e in all_exercises())  # week 2's exercises, one row each


def write(folder: Path, name: str, cells) -> Path:
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("submissions")
    write(root / "starter", WEEK2, section_cells(2))
    write(root / "solved", WEEK2, section_cells(2, solved=True))
    broken = section_cells(2, solved=True)
    target = next(c for c in broken if "exercise:w2.waits" in c.metadata.get("tags", []))
    target.source = "1 / 0\n" + target.source
    write(root / "broken", WEEK2, broken)
    deleted = [c for c in section_cells(2, solved=True) if "exercise:w2.triage" not in c.metadata.get("tags", [])]
    write(root / "deleted", WEEK2, deleted)
    hanging = section_cells(2, solved=True)
    hanging.insert(3, nbformat.v4.new_code_cell("import time\ntime.sleep(600)"))
    write(root / "hanging", WEEK2, hanging)
    (root / "notes.txt").write_text("not a notebook")
    (root / "garbled.ipynb").write_text("{not json")
    rows = grade_paths([root], seconds=8)
    by = {}
    for r in rows:
        by.setdefault(Path(r.notebook).parent.name if r.notebook.endswith(WEEK2) else Path(r.notebook).name, []).append(
            r
        )
    return rows, by


def scores(rows):
    graded = [r for r in rows if r.exercise != NOTEBOOK_ROW]
    return sum(r.passed for r in graded), len(graded)


def test_starter_grades_zero_and_says_not_attempted(graded):
    _, by = graded
    assert scores(by["starter"]) == (0, N)
    assert all(r.feedback.startswith("not attempted") for r in by["starter"])


def test_solutions_grade_full_marks(graded):
    _, by = graded
    assert scores(by["solved"]) == (N, N)


def test_one_broken_cell_gives_partial_marks(graded):
    _, by = graded
    assert scores(by["broken"]) == (N - 1, N)
    [waits] = [r for r in by["broken"] if r.exercise == "w2.waits"]
    assert waits.feedback == "the cell raised ZeroDivisionError: division by zero"


def test_a_deleted_exercise_cell_still_gets_a_row(graded):
    _, by = graded
    [triage] = [r for r in by["deleted"] if r.exercise == "w2.triage"]
    assert not triage.passed and triage.feedback == (
        "missing: the notebook has no cell for this exercise (none tagged with it or calling its check())"
    )


def test_a_hanging_cell_is_stopped_and_grading_goes_on(graded):
    _, by = graded
    note = [r for r in by["hanging"] if r.exercise == NOTEBOOK_ROW]
    assert note and "a cell ran longer than 8 s and was stopped" in note[0].feedback
    assert scores(by["hanging"])[1] == N


def test_bad_files_get_a_row_each(graded):
    rows, by = graded
    assert [r.feedback for r in by["garbled.ipynb"]] == [  # where its JSON breaks (qa-hostile13's notebook_file)
        "not a notebook: its JSON breaks at line 1, column 2 (Expecting property name enclosed in double quotes): "
        "a file cut short while it was saved, or edited by hand? Fix: correct it there in a text editor, or restore a "
        "copy (.ipynb_checkpoints holds the last one Jupyter saved)"
    ]
    assert "notes.txt" not in by  # a folder is searched for *.ipynb only
    assert "total" in summary(rows)


def test_cli_writes_the_csv_and_names_a_non_notebook(tmp_path, capsys):
    text = tmp_path / "essay.txt"
    text.write_text("hello")
    out = tmp_path / "grades.csv"
    assert main(["grade", str(text), "--out", str(out)]) == 0
    with open(out, encoding="utf-8-sig") as f:
        assert list(csv.reader(f)) == [
            ["notebook", "exercise", "passed", "feedback"],
            [str(text), NOTEBOOK_ROW, "0", "not a notebook: a .txt"],
        ]
    assert "not a notebook: a .txt" in capsys.readouterr().out  # the summary shows the note


def test_the_committed_welcome_notebook_grades_zero(tmp_path):
    rows = grade_paths([COURSE / "00_welcome.ipynb"], seconds=60)
    assert [(r.exercise, r.passed) for r in rows] == [("w0.switch", False)]


def test_a_check_record_without_its_passed_field_is_a_failed_row_not_a_crash(tmp_path, monkeypatch):
    import toolkit.exercises.grade as grade
    from toolkit.exercises.core import MIME

    cell = nbformat.v4.new_code_cell("", metadata={"tags": ["exercise:w6.round_trips"]})
    path = write(tmp_path, "forged.ipynb", [cell])
    executed = nbformat.read(path, as_version=4)
    record = {"exercise": "w6.round_trips", "status": "passed"}  # no "passed": written by hand, not by check()
    executed.cells[0].outputs = [nbformat.v4.new_output("display_data", data={MIME: record})]
    executed.cells[0].execution_count = 1
    monkeypatch.setattr(grade, "_execute", lambda path, seconds: (executed, ""))
    assert grade.grade_notebook(path) == [grade.Row(str(path), "w6.round_trips", False, "passed")]


def test_a_record_whose_status_is_not_passed_is_not_graded_passed(tmp_path, monkeypatch):
    """A record displayed by hand (not by check()) saying "passed": true beside "status": "failed" was a ✓ row whose
    feedback read 'failed: …': the grade and its feedback disagreed. Only a record passed on both counts passes."""
    import toolkit.exercises.grade as grade
    from toolkit.exercises.core import MIME

    cell = nbformat.v4.new_code_cell("", metadata={"tags": ["exercise:w6.round_trips"]})
    path = write(tmp_path, "forged.ipynb", [cell])
    executed = nbformat.read(path, as_version=4)
    record = {
        "exercise": "w6.round_trips",
        "status": "failed",
        "passed": True,
        "feedback": "result.round_trips is not 7",
    }
    executed.cells[0].outputs = [nbformat.v4.new_output("display_data", data={MIME: record})]
    executed.cells[0].execution_count = 1
    monkeypatch.setattr(grade, "_execute", lambda path, seconds: (executed, ""))
    assert grade.grade_notebook(path) == [
        grade.Row(str(path), "w6.round_trips", False, "failed: result.round_trips is not 7")
    ]


def test_a_grading_run_stopped_while_waiting_leaves_no_worker_running(tmp_path, monkeypatch):
    import os
    import subprocess

    from toolkit.exercises.grade import _execute

    path = write(tmp_path, "slow.ipynb", [nbformat.v4.new_code_cell("import time\ntime.sleep(600)")])
    started = []
    original = subprocess.Popen.wait

    def interrupted(self, *args, **kwargs):
        if started:
            return original(self, *args, **kwargs)
        started.append(self.pid)
        raise KeyboardInterrupt  # Ctrl-C while the worker runs the notebook

    monkeypatch.setattr(subprocess.Popen, "wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _execute(path, 600)
    with pytest.raises(ProcessLookupError):
        os.killpg(started[0], 0)  # the worker's process group (and its kernel) is gone


@pytest.mark.parametrize("value", ["0", "86401", "99999999999999999999999999", "ten"])
def test_a_time_limit_out_of_range_is_a_usage_error(value, capsys):
    with pytest.raises(SystemExit) as info:
        main(["grade", "x.ipynb", "--timeout", value])
    assert info.value.code == 2
    assert (
        f"argument --timeout: {value!r} is not a time limit: use a whole number of seconds from 1 to 86400"
        in capsys.readouterr().err
    )


def test_a_cell_whose_tags_are_not_a_list_does_not_stop_the_notebook_from_running(tmp_path):
    import json

    checked = nbformat.v4.new_code_cell(
        "from toolkit.exercises import check\ncheck('w6.round_trips', 2)",
        metadata={"tags": ["exercise:w6.round_trips"]},
    )
    path = write(tmp_path, "odd_tags.ipynb", [nbformat.v4.new_code_cell("x = 1"), checked])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cells"][0]["metadata"]["tags"] = "my note"  # hand-edited: nbformat.read keeps it, with a warning
    data["cells"].insert(1, {**data["cells"][0], "id": "tags-null", "metadata": {"tags": None}})
    path.write_text(json.dumps(data), encoding="utf-8")
    rows = grade_paths([path], seconds=30)
    assert [(r.exercise, r.passed) for r in rows] == [("w6.round_trips", True)]


def passed_record(exercise: str) -> dict:
    from toolkit.exercises.core import MIME

    record = {"exercise": exercise, "status": "passed", "passed": True, "feedback": ""}
    return {MIME: record, "text/plain": "✓"}


def test_only_cells_this_run_executed_count():
    saved = nbformat.v4.new_code_cell("", metadata={"tags": ["exercise:w6.round_trips"]})
    saved.outputs = [nbformat.v4.new_output("display_data", data=passed_record("w6.round_trips"))]
    ran = nbformat.v4.new_code_cell("check('w6.window', ...)", execution_count=2)
    ran.outputs = [nbformat.v4.new_output("display_data", data=passed_record("w6.window"))]
    records, _ = results(nbformat.v4.new_notebook(cells=[saved, ran]))
    assert list(records) == ["w6.window"]  # the saved ✓ of a cell that did not run is ignored


def test_an_exercise_cell_stopped_at_the_time_limit_says_so():
    def cell(ename, evalue):
        code = nbformat.v4.new_code_cell("", metadata={"tags": [f"exercise:w6.{ename}"]}, execution_count=1)
        code.outputs = [nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=[])]
        return code

    notebook = nbformat.v4.new_notebook(cells=[cell("KeyError", ""), cell("E", "x"), cell("KeyboardInterrupt", "")])
    notebook.metadata["grade_error"] = "CellTimeoutError: A cell timed out while it was being executed"
    assert results(notebook)[1] == {
        "w6.KeyboardInterrupt": "stopped: the cell ran longer than the time limit",
        "w6.KeyError": "the cell raised KeyError",
        "w6.E": "the cell raised E: x",
    }


def test_submissions_run_without_the_llm_variables_or_any_secret_looking_one():
    environ = {
        "PATH": "/usr/bin",
        "HOME": "/root",
        "PWD": "/work",
        "LLM_BASE_URL": "https://gw.example/v1",
        "OPENAI_API_KEY": "sk-teacher",
        "HF_TOKEN": "hf_x",
        "DB_PASSWORD": "pw",
        "SSH_AUTH_SOCK": "/tmp/agent",
    }
    assert submission_environment(environ) == {
        "PATH": "/usr/bin",
        "HOME": "/root",
        "PWD": "/work",
        "SSH_AUTH_SOCK": "/tmp/agent",
        **grading_imports(),
    }


def test_submissions_run_without_a_variable_whose_value_is_a_secret_whatever_its_name():
    """Before: only the name was read — a teacher's `DATABASE_URL=postgres://grader:…@db`, `HTTPS_PROXY` with the
    proxy's password, or a token kept under a plain name reached every learner's code, which can read and send
    its environment anywhere. A value `redact.scrub_secrets` masks (URL credentials, a key, a private key) now
    stays with the teacher too."""
    environ = {
        "PATH": "/usr/bin",
        "LANG": "en_US.UTF-8",
        "DATABASE_URL": "postgres://grader:s3cret-pw@db.example:5432/grades",
        "HTTPS_PROXY": "http://teacher:proxy-pw@proxy.example:3128",
        "MY_SETTINGS": "ghp_" + "a1B2c3D4e5" * 4,
        "PUBLIC_URL": "https://course.example/week6",
    }
    assert submission_environment(environ) == {
        "PATH": "/usr/bin",
        "LANG": "en_US.UTF-8",
        "PUBLIC_URL": "https://course.example/week6",
        **grading_imports(),
    }


def test_the_worker_clears_submitted_outputs_and_counts_before_running():
    from toolkit.exercises.worker import prepared

    cell = nbformat.v4.new_code_cell("x = 1", execution_count=7)
    cell.metadata["tags"] = "my note"  # hand-edited
    cell.outputs = [nbformat.v4.new_output("display_data", data=passed_record("w6.round_trips"))]
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [cell, nbformat.v4.new_markdown_cell("text")]
    [code, _] = prepared(notebook).cells
    assert code.outputs == [] and code.execution_count is None
    assert code.metadata["tags"] == ["raises-exception"]


def test_the_worker_saves_the_notebook_after_each_cell(tmp_path, monkeypatch):
    import toolkit.exercises.worker as worker

    source = write(tmp_path, "in.ipynb", [nbformat.v4.new_code_cell("a = 1"), nbformat.v4.new_code_cell("b = 2")])
    target = tmp_path / "out.ipynb"
    seen = []

    def execute(notebook, path, timeout, on_cell_executed, client=None):
        notebook.cells[0].execution_count = 1
        on_cell_executed(cell=notebook.cells[0], cell_index=0, execute_reply={})
        seen.append(nbformat.read(target, as_version=4).cells[0].execution_count)
        raise RuntimeError("killed here\nmore")

    monkeypatch.setattr(worker, "execute", execute)
    worker.run(source, target, 5)
    assert seen == [1]  # on disk after the first cell, before the second
    assert nbformat.read(target, as_version=4).metadata["grade_error"] == "RuntimeError: killed here"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.ipynb", "out.ipynb"]  # no partial file left


def test_each_submission_runs_in_a_fresh_folder_of_its_own(tmp_path):
    from toolkit.exercises.grade import private_copy

    path = write(tmp_path, "a.ipynb", [nbformat.v4.new_code_cell("x = 1")])
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir(), second.mkdir()
    copies = [private_copy(path, first), private_copy(path, second)]
    assert [sorted(os.listdir(c.parent)) for c in copies] == [["a.ipynb"], ["a.ipynb"]]
    assert copies[0].parent != copies[1].parent and path.parent not in (copies[0].parent, copies[1].parent)


def test_the_graders_own_files_are_beyond_the_submissions_folder_and_the_one_above(tmp_path, monkeypatch):
    """Before: the executed notebook, the worker's log and the worker's working directory (on its
    `sys.path`) were the parent of the kernel's folder: `..` to the learner's code."""
    import toolkit.exercises.grade as grade

    seen = {}

    def run_worker(command, folder, log, limit, check_seconds, **_):
        seen.update(copy=Path(command[3]), out=Path(command[4]), log=log, cwd=folder)  # python -m worker IN OUT …
        return None

    monkeypatch.setattr(grade, "_run_worker", run_worker)
    grade._execute(write(tmp_path, "a.ipynb", [nbformat.v4.new_code_cell("x = 1")]), 5)
    reach = seen["copy"].parent.parent  # what `..` reaches from the kernel's working directory
    for own in (seen["out"].parent, seen["log"].parent, seen["cwd"]):
        assert own != reach and reach not in own.parents, (own, reach)


FAKE_WORKER = """
import json, subprocess, sys, time
out, pid_file = sys.argv[1], sys.argv[2]
cell = {"cell_type": "code", "execution_count": 1, "metadata": {"tags": ["exercise:w6.round_trips"]},
        "outputs": [{"output_type": "display_data", "metadata": {}, "data": %r}], "source": ""}
notebook = {"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [cell]}
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(240)"], start_new_session=True)
open(pid_file, "w").write(str(child.pid))   # a detached child holding the worker's stderr
json.dump(notebook, open(out, "w"))
time.sleep(%d)
"""


def fake_worker(monkeypatch, tmp_path, sleep: int, written_first: bool = False) -> Path:
    """`_execute` runs a stand-in worker: it writes a notebook with one ✓, detaches a child, sleeps.
    `written_first`: the notebook is in place before the worker starts (a worker that must write it
    within a deadline of seconds may not, on a loaded machine)."""
    import sys

    import toolkit.exercises.grade as grade

    pid_file = tmp_path / "child.pid"
    script = FAKE_WORKER % (passed_record("w6.round_trips"), sleep)

    def command(copy, out, seconds):
        if written_first:
            nbformat.write(nbformat.v4.new_notebook(cells=[worker_cell()]), out)
        return [sys.executable, "-c", script, str(out), str(pid_file)]

    monkeypatch.setattr(grade, "_worker_command", command)
    return pid_file


def worker_cell():
    """The cell the fake worker writes: w6.round_trips, passed."""
    cell = nbformat.v4.new_code_cell("", metadata={"tags": ["exercise:w6.round_trips"]}, execution_count=1)
    cell.outputs = [nbformat.v4.new_output("display_data", data=passed_record("w6.round_trips"))]
    return cell


def stop_child(pid_file: Path) -> None:
    import signal

    try:
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
    except (OSError, ValueError):
        pass


def test_a_detached_child_holding_the_workers_stderr_does_not_hold_the_grader(tmp_path, monkeypatch):
    import time

    from toolkit.exercises.grade import _execute

    pid_file = fake_worker(monkeypatch, tmp_path, sleep=0)
    path = write(tmp_path, "a.ipynb", [nbformat.v4.new_code_cell("x = 1")])
    started = time.monotonic()
    try:
        executed, problem = _execute(path, 300)
    finally:
        stop_child(pid_file)
    assert time.monotonic() - started < 120  # not the child's 240 s, nor the 360 s limit of `_execute(path, 300)`
    assert problem == "" and list(results(executed)[0]) == ["w6.round_trips"]


def test_a_notebook_killed_at_the_deadline_keeps_what_it_checked_before(tmp_path, monkeypatch):
    import toolkit.exercises.grade as grade

    pid_file = fake_worker(monkeypatch, tmp_path, sleep=60, written_first=True)  # a 2 s limit: no time to write
    monkeypatch.setattr(grade, "START_ALLOWANCE_S", 1)
    path = write(tmp_path, "a.ipynb", [nbformat.v4.new_code_cell("x = 1")])
    try:
        executed, problem = grade._execute(path, 1)
    finally:
        stop_child(pid_file)
    assert problem == (
        "timed out: no cell finished in 2 s (a cell ran past the 1 s limit and did not stop when interrupted; a "
        "loaded host's wait for a CPU not counted), stopped; results checked before that are kept"
    )
    assert list(results(executed)[0]) == ["w6.round_trips"]


class Cells:
    """A stand-in worker on a clock of its own: it rewrites `out` after each cell, cell `n` finishing at
    `ends[n]` seconds, and exits at `exit_s` (never, if None); `wait` moves the clock on as the real one would."""

    def __init__(self, out: Path, ends: list[float], exit_s: float | None) -> None:
        self.out, self.ends, self.exit_s, self.now = out, ends, exit_s, 0.0

    def clock(self) -> float:
        return self.now

    def watch(self, waiting: float = 0.0, forgive: float = 0.0):
        """A `clock.Stopwatch` on this clock (`time.monotonic` patched to it), the worker waiting for a CPU
        `waiting` of each second."""
        from toolkit.exercises import clock

        return clock.Stopwatch(forgive=forgive, reading=lambda: waiting * self.now)

    def wait(self, timeout: float) -> int:
        import subprocess

        until = self.now + timeout
        if self.exit_s is not None and self.exit_s <= until:
            self.now = max(self.now, self.exit_s)
            return 0
        for n, end in enumerate(self.ends):
            if self.now < end <= until:
                nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(str(n))]), self.out)
        self.now = until
        raise subprocess.TimeoutExpired("worker", timeout)


@pytest.mark.parametrize(
    ("ends", "exit_s", "finished", "at"),
    [
        # 12 honest cells, each stopped near its 120 s limit: past the old 180 s for a notebook, now run to the end
        ([65 + 119 * n for n in range(12)], 65 + 119 * 12, True, 65 + 119 * 12),
        # a cell that catches its interrupt and goes on: stopped when no cell has finished for 180 s
        ([30, 60], None, False, 240),
        # a notebook rewriting the file for ever (a learner's touch()): stopped at its cells' whole limit
        ([1 + 10 * n for n in range(100)], None, False, 60 + 120 * 3),
    ],
)
def test_the_notebooks_limit_follows_from_its_cells(tmp_path, monkeypatch, ends, exit_s, finished, at):
    """Before: a notebook was killed at --timeout + 60 s whatever its number of cells: a notebook of 12 honest cells,
    each near the per-cell limit, lost every exercise after its second cell. Its limit is now a cell's limit for
    each code cell and the closing one, plus 60 s (`notebook_limit_s`), and a cell that does not stop when
    interrupted stops it a cell's limit plus 60 s after the last cell finished (`cell_wait_s`)."""
    import toolkit.exercises.grade as grade

    monkeypatch.setattr(grade, "POLL_S", 1.0)
    worker = Cells(tmp_path / "executed.ipynb", ends, exit_s)
    monkeypatch.setattr(time, "monotonic", worker.clock)
    limit = grade.notebook_limit_s(120, 12 if finished else 2)
    assert limit == (60 + 120 * 13 if finished else 60 + 120 * 3) and grade.cell_wait_s(120) == 180
    stopped = grade._wait(
        worker, limit, worker.out, grade.cell_wait_s(120), whole=worker.watch(), window=worker.watch()
    )
    assert stopped == (None if finished else grade.QUIET if exit_s is None and len(ends) == 2 else grade.WHOLE)
    assert worker.now == pytest.approx(at, abs=1.0)


@pytest.mark.parametrize(
    ("ends", "exit_s", "stopped", "at"),
    [
        # an honest notebook, its second cell 230 s of wall time but 115 s its own: before, stopped at 280 s as if
        # it had hung (the window between two finished cells counted on the wall clock, the cell's limit not)
        ([100, 330], 500, None, 500),
        # a cell that hangs: still stopped, once its window has had 180 s less at most 60 s of waiting
        ([100], None, QUIET, 340),
        # a notebook rewriting its file for ever: still stopped at its whole limit, less at most 60 s a cell waited
        ([1 + 30 * n for n in range(30)], None, WHOLE, 600),
    ],
)
def test_grades_own_limits_count_the_seconds_the_notebook_had_not_a_loaded_hosts_wait(
    tmp_path, monkeypatch, ends, exit_s, stopped, at
):
    """Before: a cell's limit counted the seconds the kernel had (`clock.Stopwatch`: a loaded host's wait for a
    CPU forgiven), but `toolkit grade`'s own limits on the worker (no cell finished for `cell_wait_s`; the whole
    notebook's `notebook_limit_s`) counted the wall clock: at load, a notebook of honest cells was stopped for
    time it never had. Both now count on the same clock, for the worker and its kernel (`clock.Family`), up to
    `clock.RUN_FORGIVES_S` for each window and each cell. Here the host keeps them waiting half of each second."""
    import toolkit.exercises.grade as grade
    from toolkit.exercises import clock

    monkeypatch.setattr(grade, "POLL_S", 1.0)
    worker = Cells(tmp_path / "executed.ipynb", ends, exit_s)
    monkeypatch.setattr(time, "monotonic", worker.clock)
    whole = worker.watch(0.5, clock.RUN_FORGIVES_S * 3)
    window = worker.watch(0.5, clock.RUN_FORGIVES_S)
    limit, quiet = grade.notebook_limit_s(120, 2), grade.cell_wait_s(120)
    assert (limit, quiet, clock.RUN_FORGIVES_S) == (420, 180, 60)
    assert grade._wait(worker, limit, worker.out, quiet, whole=whole, window=window) == stopped
    assert worker.now == pytest.approx(at, abs=1.0)


def test_grades_two_stopwatches_read_the_workers_family_once_a_poll(tmp_path, monkeypatch):
    """Before: the whole notebook's stopwatch and the quiet cell's each read `/proc` for the worker and its kernel
    (`clock.Family.waited`) on every poll, twice the reads for the same answer. One reading a poll is now shared,
    the limits unchanged: here a notebook whose cell hangs is stopped as before, once no cell finished for 180 s."""
    import toolkit.exercises.grade as grade
    from toolkit.exercises import clock

    monkeypatch.setattr(grade, "POLL_S", 1.0)
    worker = Cells(tmp_path / "executed.ipynb", [100], None)
    monkeypatch.setattr(time, "monotonic", worker.clock)
    reads = []

    class Counted(clock.Family):
        def waited(self) -> float:
            reads.append(worker.now)
            return 0.5 * worker.now

    family = Counted(1)
    whole = clock.Stopwatch(forgive=clock.RUN_FORGIVES_S * 3, reading=family.waited)
    window = clock.Stopwatch(forgive=clock.RUN_FORGIVES_S, reading=family.waited)
    reads.clear()
    assert grade._wait(worker, 420, worker.out, 180, whole=whole, window=window) == grade.QUIET
    assert worker.now == pytest.approx(340, abs=1.0)
    assert len(reads) == len(set(reads)) + 1  # once a poll, and once more when the window starts again at 100 s


def test_the_worker_is_waited_for_on_the_clock_of_it_and_its_kernel(tmp_path, monkeypatch):
    """`_run_worker` gives `_wait` stopwatches that read the waiting of the worker it started and its children
    (`clock.Family`), forgiving `forgive` seconds in all and `clock.RUN_FORGIVES_S` between two finished cells."""
    import toolkit.exercises.grade as grade
    from toolkit.exercises import clock

    seen = {}

    def wait(process, limit, progress, quiet, *, whole, window):
        seen.update(pid=process.pid, whole=whole, window=window)
        process.wait()
        return None

    monkeypatch.setattr(grade, "_wait", wait)
    command = [sys.executable, "-c", "import sys; sys.stdin.readline()"]
    assert grade._run_worker(command, tmp_path, tmp_path / "log", 5, forgive=180.0) is None
    whole, window = seen["whole"], seen["window"]
    assert (whole.forgive, window.forgive) == (180.0, clock.RUN_FORGIVES_S)
    for watch in (whole, window):
        family = watch.reading.__self__
        assert isinstance(family, clock.Family) and family.pid == seen["pid"]


@pytest.mark.parametrize(("cells", "said"), [(1, "its 1 code cell"), (2, "each of its 2 code cells")])
def test_a_notebook_stopped_at_its_whole_limit_is_told_that_limit_and_where_it_comes_from(
    tmp_path, monkeypatch, cells, said
):
    import toolkit.exercises.grade as grade

    monkeypatch.setattr(grade, "_run_worker", lambda *_, **__: grade.WHOLE)  # still running at the limit: stopped
    monkeypatch.setattr(grade, "notebook_limit_s", lambda seconds, n: 0)  # the limit reached at once
    path = write(tmp_path, "a.ipynb", [nbformat.v4.new_code_cell("x = 1") for _ in range(cells)])
    assert grade._execute(path, 120) == (
        None,
        f"timed out: still running after 0 s (the notebook's limit: 120 s for {said} and the closing one, and 60 s "
        "to start; a loaded host's wait for a CPU not counted), stopped",
    )


def test_a_notebooks_code_cells_are_counted_as_the_worker_runs_them(tmp_path):
    """The cells the whole-notebook limit counts: code cells with code (blank ones are skipped), whatever shape a
    hand edit gave their source; a file that cannot be read counts none."""
    from toolkit.exercises.grade import code_cells

    cells = [
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell("  \n"),
        nbformat.v4.new_markdown_cell("# text"),
        nbformat.v4.new_code_cell(["y = ", "2"]),
        nbformat.v4.new_raw_cell("z = 3"),
    ]
    assert code_cells(write(tmp_path, "a.ipynb", cells)) == 2
    (tmp_path / "b.ipynb").write_text("not json")
    assert code_cells(tmp_path / "b.ipynb") == 0


FORGERIES = {
    "w1.records": "from IPython.display import display\nfrom toolkit.exercises.core import MIME\n"
    "display({MIME: {'exercise': 'w1.records', 'status': 'passed', 'passed': True, 'feedback': ''}}, raw=True)",
    "w1.usage_path": "import toolkit.exercises.core as c\n"
    "c.LAST['w1.usage_path'] = c.CheckResult('w1.usage_path', 'passed', '')\nc.LAST['w1.usage_path']",
    "w1.keyword_rules": "import toolkit.exercises.core as c\n"
    "c._check = lambda ex, answer: c.CheckResult(ex.id, 'passed', '')\nc.check('w1.keyword_rules', 1)",
}
"""Cells of `private_run` that fake a pass: a record displayed as data, a result of their own where the grader's
closing cell reads check()'s, a check whose code they replaced."""


@pytest.fixture(scope="module")
def private_run(tmp_path_factory):
    """One small submission in a folder with another file: it plants a module in its working
    directory, passes w6.round_trips only if that directory is a private one, and carries a ✓ for
    w6.window saved in a blank exercise cell."""
    root = tmp_path_factory.mktemp("submissions")
    (root / "other.txt").write_text("another submission's file")
    probe = (
        "import os\nfrom toolkit.exercises import check\n"
        "check('w6.round_trips', 2 if sorted(os.listdir()) == ['a.ipynb', 'planted.py'] else 99)"
    )
    stale = nbformat.v4.new_code_cell("", metadata={"tags": ["exercise:w6.window"]}, execution_count=3)
    stale.outputs = [nbformat.v4.new_output("display_data", data=passed_record("w6.window"))]
    cells = [
        nbformat.v4.new_code_cell("open('planted.py', 'w').write('X = 1')"),
        nbformat.v4.new_code_cell(probe, metadata={"tags": ["exercise:w6.round_trips"]}),
        stale,
        *(nbformat.v4.new_code_cell(source, metadata={"tags": [f"exercise:{i}"]}) for i, source in FORGERIES.items()),
    ]
    path = write(root, "a.ipynb", cells)
    return {r.exercise: r for r in grade_notebook(path, seconds=30)}, root


def test_a_submission_runs_in_a_private_folder_and_plants_nothing_in_the_submissions(private_run):
    by, root = private_run
    assert by["w6.round_trips"].passed, by["w6.round_trips"].feedback
    assert sorted(p.name for p in root.iterdir()) == ["a.ipynb", "other.txt"]


def test_a_saved_pass_in_a_cell_that_did_not_run_does_not_count(private_run):
    by, _ = private_run
    assert (by["w6.window"].passed, by["w6.window"].feedback) == (
        False,
        "empty: the exercise cell has no code, so nothing was checked",
    )


def test_a_pass_the_notebooks_own_code_made_is_not_counted(private_run):
    """Before: each of `FORGERIES` was graded passed — a record the notebook displayed itself, a `CheckResult` of
    its own put where the closing cell reads check()'s, `core._check` replaced; now only a record check() sealed
    with the run's key counts (the genuine pass beside them still does)."""
    from toolkit.exercises.core import CHECKS_CHANGED
    from toolkit.exercises.grade import FORGED

    by, _ = private_run
    changed = CHECKS_CHANGED.format(where="toolkit.exercises.core._check")
    assert {i: (by[i].passed, by[i].feedback) for i in FORGERIES} == {
        "w1.records": (False, f"failed: {FORGED}"),
        "w1.usage_path": (False, f"failed: {FORGED}"),
        "w1.keyword_rules": (False, f"failed: {changed}"),
    }
    assert by["w6.round_trips"].passed


def test_the_timeout_help_says_it_is_per_cell(capsys):
    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert (
        "seconds each cell may run (default 120); a notebook may run that long for each of its code cells, plus a "
        "minute, and is stopped when no cell has finished for that long plus a minute" in help_text
    )


def test_the_grade_help_names_the_csvs_columns_and_shows_how_to_grade_a_class_and_regrade_one_learner(capsys):
    """Before: `grade --help` read cold named the --scores columns but not those of the CSV it always writes, and
    gave no example: a teacher who regraded one learner with the default --out replaced the whole class's CSV with
    that learner's rows. It now says both, and how to regrade one learner into the class's CSV (`--update`)."""
    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "columns notebook, exercise, passed (1 or 0), feedback: one row per notebook and exercise" in help_text
    assert (
        "examples: python -m toolkit grade submissions/ --out grades.csv --scores scores.csv (a class); python -m "
        "toolkit grade submissions/alice --out grades.csv --update --scores scores.csv (one learner again: her rows in "
        "the class's CSV replaced, every other row kept, the scores counted over the whole class)" in help_text
    )


def test_no_ipython_startup_file_reaches_a_submission(tmp_path, monkeypatch):
    """Every kernel ran the grading user's IPython profile (`~/.ipython/profile_default/startup/*.py`): a teacher's
    own startup file setting `LLM_API_KEY` put the key back into every submission, and a learner's notebook that
    wrote such a file ran its code in every notebook graded after it (and changed their grades). Now each
    submission's kernel has a fresh IPython folder of its own."""
    monkeypatch.delenv("IPYTHONDIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    startup = tmp_path / "home" / ".ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-keys.py").write_text("import os\nos.environ['LLM_API_KEY'] = 'sk-teacher'\n")
    plant = (
        "import os\n"
        "folder = os.path.expanduser('~/.ipython/profile_default/startup')\n"
        "os.makedirs(folder, exist_ok=True)\n"
        "open(os.path.join(folder, '01-planted.py'), 'w').write('import os\\nos.environ[\"PLANTED\"] = \"by a\"')\n"
    )
    seen = "import os\nraise RuntimeError(os.environ.get('LLM_API_KEY', 'no key') + ', ' + os.environ.get('PLANTED', 'none'))"
    write(tmp_path / "sub", "a.ipynb", [nbformat.v4.new_code_cell(plant)])
    write(tmp_path / "sub", "b.ipynb", [nbformat.v4.new_code_cell(seen, metadata={"tags": ["exercise:w0.switch"]})])
    rows = grade_paths([tmp_path / "sub"], seconds=30)
    [b] = [r for r in rows if r.notebook.endswith("b.ipynb")]
    assert b.feedback == "the cell raised RuntimeError: no key, none"


NOTEBOOK_JSON = '{"cells": [{"cell_type": "markdown", "metadata": {}, "source": "订单"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'


@pytest.mark.parametrize(
    ("encoding", "which"),
    [("gbk", ""), ("utf-16", " (it is UTF-16)"), ("utf-16-be", " (it is UTF-16)"), ("utf-16-le", " (it is UTF-16)")],
)
def test_a_notebook_saved_in_another_encoding_is_told_to_be_saved_as_utf8(tmp_path, encoding, which):
    path = tmp_path / "hw.ipynb"
    path.write_bytes(NOTEBOOK_JSON.encode(encoding))
    [row] = grade_notebook(path, 10)
    assert (row.exercise, row.passed, row.feedback) == (
        NOTEBOOK_ROW,
        False,
        f"cannot be read: its text is not UTF-8, as a notebook's must be{which}; open it in the editor that saved "
        "it and save it as UTF-8",
    )


def test_the_grade_functions_take_a_path_as_text_or_one_path_alone(tmp_path, monkeypatch):
    """Before: grade_paths(["submissions"]) and grade_paths("submissions") raised AttributeError ('str' object
    has no attribute 'is_dir'), grade_paths(Path("submissions")) TypeError ('PosixPath' object is not iterable)."""
    from toolkit.exercises.grade import NO_EXERCISES, Row

    write(tmp_path / "hand-in", "notes.ipynb", [nbformat.v4.new_markdown_cell("no code here")])
    monkeypatch.chdir(tmp_path)
    row = Row("hand-in/notes.ipynb", NOTEBOOK_ROW, False, NO_EXERCISES)
    for given in (["hand-in"], "hand-in", Path("hand-in"), [Path("hand-in")], ("hand-in",)):
        assert grade_paths(given) == [row]
    assert grade_notebook("hand-in/notes.ipynb") == [row]


def test_the_exercise_whose_cell_the_kernel_died_in_says_so(tmp_path, monkeypatch):
    """Before: `os._exit(1)` (or a crash, or all the memory used) in a learner's function during check() got
    the row "no check() result: the exercise cell called check(), but no result of toolkit's check() came of
    it (did a check of the notebook's own replace it?)" — a guess that was untrue; the notebook's row said the
    kernel died."""
    import toolkit.exercises.grade as grade

    died = nbformat.v4.new_code_cell(
        "import os\nfrom toolkit.exercises import check\ncheck('w6.truth_table', lambda b, e: os._exit(1))",
        metadata={"tags": ["exercise:w6.truth_table"]},
    )
    after = nbformat.v4.new_code_cell("check('w6.round_trips', 2)", metadata={"tags": ["exercise:w6.round_trips"]})
    path = write(tmp_path, "crash.ipynb", [died, after])
    executed = nbformat.read(path, as_version=4)
    executed.cells[0].execution_count = 1  # it started, and the kernel died in it: the worker's save after it
    executed.metadata["grade_error"] = "DeadKernelError: Kernel died"
    monkeypatch.setattr(grade, "_execute", lambda path, seconds: (executed, "execution stopped early: …"))
    assert [(r.exercise, r.feedback) for r in grade.grade_notebook(path)] == [
        (NOTEBOOK_ROW, "execution stopped early: …"),
        ("w6.round_trips", "not run: no check() result for this exercise"),
        (
            "w6.truth_table",
            "the kernel died while this exercise's cell ran (os._exit(), a crash, or all the memory used); "
            "the cells after it did not run",
        ),
    ]


def test_only_records_sealed_with_the_runs_key_count_and_a_forged_one_never_undoes_them(monkeypatch):
    """Before: any output holding a check record counted, whoever made it; now `sealed_only` keeps the ones
    check() sealed with this run's key (their seal dropped) and marks the rest forged, and `results` keeps a
    sealed record over a forged one displayed after it."""
    from toolkit.exercises import seal
    from toolkit.exercises.core import MIME
    from toolkit.exercises.grade import FORGED, sealed_only

    monkeypatch.setattr(seal, "_sealer", None)

    def output(exercise, key):
        record = passed_record(exercise)
        if key:
            seal.arm(key)
            record[MIME]["seal"] = seal._sealer(seal._text(exercise, "passed", True, ""))  # as check() seals it
        return nbformat.v4.new_output("display_data", data=record)

    cell = nbformat.v4.new_code_cell("", execution_count=1)
    cell.outputs = [
        output("w0.switch", "k"),
        output("w0.switch", ""),  # displayed by the notebook after the real pass
        output("w1.records", ""),
        output("w1.usage_path", "another run's key"),
    ]
    notebook = nbformat.v4.new_notebook(cells=[cell])
    sealed_only(notebook, "k")
    records, _ = results(notebook)
    assert {i: (r["passed"], r["feedback"]) for i, r in records.items()} == {
        "w0.switch": (True, ""),
        "w1.records": (False, FORGED),
        "w1.usage_path": (False, FORGED),
    }
    assert "seal" not in records["w0.switch"]


@pytest.mark.parametrize(
    ("text", "feedback"),
    [
        (  # Download as Python, then renamed to .ipynb so the grader takes it
            "from toolkit.exercises import check\n\ncheck('w6.round_trips', 2)\n",
            "not a notebook: its text is Python code (a script renamed .ipynb?), not a notebook's JSON; hand in the "
            ".ipynb file Jupyter saves (File > Save Notebook)",
        ),
        (  # cut short: no script either
            '{"cells": [',
            "not a notebook: its JSON breaks at line 1, column 12 (Expecting value): a file cut short while it was "
            "saved, or edited by hand? Fix: correct it there in a text editor, or restore a copy (.ipynb_checkpoints "
            "holds the last one Jupyter saved)",
        ),
        (  # a name to Python, but no script; no JSON begun either, so none cut short
            "hello",
            "not a notebook: its text is not JSON at all (a notebook's file begins with '{'); give the notebook as "
            "Jupyter saved it",
        ),
    ],
)
def test_a_python_script_renamed_ipynb_is_told_so_not_only_that_it_is_no_json(tmp_path, text, feedback):
    """Before: 'not a notebook: cannot be read (NotJSONError)' — true, but a learner who renamed their exported
    script was not told that a notebook is another file."""
    from toolkit.exercises.grade import grade_notebook

    path = tmp_path / "06_week6_round_trip_loop.ipynb"
    path.write_text(text, encoding="utf-8")
    assert [(r.exercise, r.passed, r.feedback) for r in grade_notebook(path)] == [("(notebook)", False, feedback)]
