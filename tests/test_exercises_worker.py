"""The grading worker keeps a cell's output bounded: a learner's endless `print` loop must not fill the
worker's memory, the executed file, then the grader's — while check records and errors still count; and it
saves what ran even after a cell deleted the folder it saves into."""

import shutil

import nbformat
import pytest

from toolkit.exercises import worker
from toolkit.exercises.core import MIME
from toolkit.exercises.notebook import TIMED_OUT
from toolkit.exercises.worker import CELL_OUTPUT_LIMIT, NOTEBOOK_OUTPUT_LIMIT, CappedClient


def message(msg_type, **content):
    return {
        "msg_type": msg_type,
        "content": content,
        "parent_header": {"msg_id": "run"},
        "header": {"msg_type": msg_type},
    }


def stream(text):
    return message("stream", name="stdout", text=text)


def record(exercise):
    data = {MIME: {"exercise": exercise, "status": "passed", "passed": True, "feedback": ""}, "text/plain": "✓"}
    return message("display_data", data=data, metadata={})


def client():
    return CappedClient(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x") for _ in range(3)]))


def kept_text(outs):
    return sum(len(o.get("text", "")) for o in outs if o.get("output_type") == "stream")


def test_a_cell_printing_past_its_limit_keeps_the_limit_and_says_so_records_and_errors_still_kept():
    runner, outs = client(), []
    chunk = "x" * (CELL_OUTPUT_LIMIT // 4)
    for _ in range(20):
        runner.output(outs, stream(chunk), None, 0)
    runner.output(outs, record("w6.round_trips"), None, 0)
    error = message("error", ename="KeyboardInterrupt", evalue="", traceback=["line"] * 10_000)
    runner.output(outs, error, None, 0)
    notes = [o for o in outs if o.get("name") == "stderr"]
    assert kept_text(outs) - len(notes[0]["text"]) <= CELL_OUTPUT_LIMIT
    assert notes[0]["text"].startswith("[toolkit grade: this cell's output went past 1,000,000 characters")
    assert len(notes) == 1  # said once
    assert [o["data"][MIME]["exercise"] for o in outs if o.get("output_type") == "display_data"] == ["w6.round_trips"]
    [kept_error] = [o for o in outs if o.get("output_type") == "error"]
    assert kept_error["ename"] == "KeyboardInterrupt" and len(kept_error["traceback"]) == 20


def test_one_cell_past_its_limit_leaves_the_next_cell_its_own():
    runner, first, second = client(), [], []
    runner.output(first, stream("x" * (CELL_OUTPUT_LIMIT + 1)), None, 0)
    runner.output(second, stream("hello\n"), None, 1)
    assert [o["text"] for o in second] == ["hello\n"]


def test_a_cleared_cell_starts_counting_again():
    runner, outs = client(), []
    runner.output(outs, stream("x" * (CELL_OUTPUT_LIMIT - 10)), None, 0)
    runner.clear_output(outs, message("clear_output", wait=False), 0)
    runner.output(outs, stream("y" * 100), None, 0)
    assert [o["text"] for o in outs] == ["y" * 100]


def test_the_whole_notebook_is_bounded_too(monkeypatch):
    monkeypatch.setattr(worker, "NOTEBOOK_OUTPUT_LIMIT", 3 * CELL_OUTPUT_LIMIT // 2)
    runner, cells = client(), [[], [], []]
    for index, outs in enumerate(cells):
        runner.output(outs, stream("x" * (CELL_OUTPUT_LIMIT - 1)), None, index)
    assert kept_text(cells[0]) == CELL_OUTPUT_LIMIT - 1
    assert "x" not in "".join(o["text"] for o in cells[1] + cells[2])  # only the note that it was cut
    assert NOTEBOOK_OUTPUT_LIMIT >= 10 * CELL_OUTPUT_LIMIT  # the real limit leaves room for many loud cells


def test_an_endless_print_loop_leaves_a_small_executed_notebook_with_its_checks(tmp_path):
    source = tmp_path / "06_week6_round_trip_loop.ipynb"
    cells = [
        nbformat.v4.new_code_cell(
            "from toolkit.exercises import check\n"
            "for _ in range(40):\n    print('x' * 100_000, flush=True)\n"
            "check('w6.round_trips', 2)"
        ),
        nbformat.v4.new_code_cell("while True:\n    print('y' * 100_000)"),
    ]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), source)
    target = tmp_path / "out.ipynb"
    worker.run(source, target, 5)
    assert target.stat().st_size < 3 * CELL_OUTPUT_LIMIT
    executed = nbformat.read(target, as_version=4)
    assert executed.cells[1].metadata[TIMED_OUT] is True  # interrupted at the limit; the run went on
    assert "grade_error" not in executed.metadata
    records = [o["data"][MIME] for o in executed.cells[0].outputs if MIME in o.get("data", {})]
    assert [(r["exercise"], r["passed"]) for r in records] == [("w6.round_trips", True)]


def test_the_worker_still_saves_after_a_cell_deleted_its_folder(tmp_path):
    """Before: FileNotFoundError, the worker crashed, and every result of the cells before was lost."""
    target = tmp_path / "grader" / "executed.ipynb"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    worker.save(notebook, target)
    shutil.rmtree(target.parent)  # a learner's clean-up of the temporary folders
    worker.save(notebook, target)
    assert nbformat.read(target, as_version=4).cells[0].source == "x = 1"
    assert sorted(p.name for p in target.parent.iterdir()) == ["executed.ipynb"]


def test_each_cell_s_printing_is_capped_in_the_kernel_and_the_next_cell_prints_again(tmp_path):
    """On a busy machine a learner's endless print loop filled the kernel's buffers faster than they
    were sent: the kernel died (SIGSEGV, building a message of gigabytes) and the grade said "Kernel
    died", not that the cell ran past its limit (3 of 6 loaded runs). Each cell's streams are now capped
    in the kernel as it starts (`KERNEL_CAP`); the cap is the cell's own, so the next cell prints again."""
    source = tmp_path / "flood.ipynb"
    cells = [
        nbformat.v4.new_code_cell(
            "import sys\nfrom IPython.display import display\ndisplay(sys.stdout.write.__qualname__)\n"
            "for _ in range(50):\n    print('x' * 100_000)"
        ),
        nbformat.v4.new_code_cell("print('after')"),
    ]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), source)
    target = tmp_path / "out.ipynb"
    worker.run(source, target, 60)
    executed = nbformat.read(target, as_version=4)
    assert "grade_error" not in executed.metadata
    shown = [o["data"]["text/plain"] for o in executed.cells[0].outputs if o.get("output_type") == "display_data"]
    assert len(shown) == 1 and "_toolkit_cap_output" in shown[0] and "capped" in shown[0]
    assert kept_text(executed.cells[0].outputs) <= CELL_OUTPUT_LIMIT + len(worker._cut_note())
    assert [o.get("text") for o in executed.cells[1].outputs] == ["after\n"]


def test_a_time_limit_mark_saved_in_the_submission_is_taken_off_before_the_run():
    from toolkit.exercises.worker import prepared

    cell = nbformat.v4.new_code_cell("raise KeyboardInterrupt", metadata={TIMED_OUT: True})
    assert TIMED_OUT not in prepared(nbformat.v4.new_notebook(cells=[cell])).cells[0].metadata


@pytest.mark.parametrize(("hard", "set_to"), [(None, 4 * 1024**3), (1024**3, 1024**3)])
def test_the_memory_limit_keeps_a_lower_one_the_grader_was_started_with(monkeypatch, hard, set_to):
    """A teacher who started the grading under `ulimit -d` of 1 GiB keeps it: the worker asking for 4 GiB would
    be refused (no process may raise its hard limit) — and the setrlimit error would stop every submission."""
    import resource

    from toolkit.exercises.worker import limit_memory

    given = []
    hard = resource.RLIM_INFINITY if hard is None else hard
    monkeypatch.setattr(resource, "getrlimit", lambda which: (hard, hard))
    monkeypatch.setattr(resource, "setrlimit", lambda which, limits: given.append((which, limits)))
    limit_memory(4 * 1024**3)
    assert given == [(resource.RLIMIT_DATA, (set_to, set_to))]


class Kernel:
    """What `KERNEL_CAP` needs of a kernel, in this process: `get_ipython().events.register`, and the hooks it gave."""

    def __init__(self) -> None:
        self.hooks: dict[str, list] = {}
        self.events = self

    def register(self, event, hook):
        self.hooks.setdefault(event, []).append(hook)

    def run(self, event):
        for hook in self.hooks.get(event, []):
            hook()


def test_one_print_of_100_mb_sends_only_the_cells_cap_from_the_kernel(monkeypatch):
    """Before: the kernel's cap counted a write only after letting it through, so one `print('x' * 100_000_000)`
    went whole to the worker (100 MB over the kernel's socket, held and decoded there) before being cut. The write
    that crosses the cap is now cut to what is left of it; the rest of the cell's writes are dropped."""
    import io
    import sys

    out, err, kernel = io.StringIO(), io.StringIO(), Kernel()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    exec(worker.KERNEL_CAP, {"get_ipython": lambda: kernel})
    kernel.run("pre_run_cell")
    assert sys.stdout.write("x" * 100_000_000) == 100_000_000  # as if written: the learner's code goes on
    sys.stdout.write("more")
    assert len(out.getvalue()) == 2 * CELL_OUTPUT_LIMIT and err.getvalue() == ""


def test_a_cell_that_sets_sys_stdout_to_none_gets_the_kernels_stream_back_after_it(monkeypatch):
    """Before: a cell setting `sys.stdout = None` (a learner silencing prints) made every later cell fail inside
    IPython before it ran (`stream.write` of None in run_cell's tee): the kernel sent no reply, each cell waited out
    its limit and the grade stopped the notebook, its later exercises "not run" (a 3-cell notebook at a 20 s limit:
    `grade_error` after 297 s). The grading kernel now puts its own stream back after a cell that left `sys.stdout`
    or `sys.stderr` unusable (no write or no flush); one that still writes (a StringIO, a file) stays the learner's."""
    import io
    import sys

    out, err, kernel = io.StringIO(), io.StringIO(), Kernel()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    exec(worker.KERNEL_CAP, {"get_ipython": lambda: kernel})
    sys.stdout, sys.stderr = None, object()  # the learner's cell
    kernel.run("post_run_cell")
    assert (sys.stdout, sys.stderr) == (out, err)
    mine = io.StringIO()
    sys.stdout = mine  # a learner's own stream that writes: kept
    kernel.run("post_run_cell")
    assert sys.stdout is mine


WHEN_S = 5.0
"""How long a cell's-limit test waits for the interrupt due at 0.1-0.2 s (a loaded host's pauses included)."""


@pytest.mark.parametrize(
    ("share", "forgive", "interrupted"),
    [
        (0.99, 40.0, False),  # 0.25 s of wall time, 0.0025 s its own: the rest, waiting for a loaded host's CPU
        (None, 40.0, True),  # a system that does not say: the wall clock, as before (at 0.1 s)
        (0.99, 0.1, True),  # waiting forgiven only up to its bound: past it the wall clock stops the cell (0.2 s)
    ],
)
def test_a_cells_limit_counts_the_time_the_kernel_had_not_a_loaded_hosts_wait_for_a_cpu(
    monkeypatch, share, forgive, interrupted
):
    """Before: nbclient's cell limit was wall time: at load 15 on 2 cores a cell needing 0.7 s of CPU took 5 s
    and was interrupted at a 4 s limit as if it looped forever (the grade-fair time-limit test flaked so). Now the
    kernel's wait for a CPU (`clock`, up to `CELL_FORGIVES_S`) is not counted; an endless loop still is."""
    import asyncio
    import os
    import time
    from types import SimpleNamespace

    from toolkit.exercises import clock

    start = time.monotonic()
    monkeypatch.setattr(clock, "waited", lambda *_: None if share is None else share * (time.monotonic() - start))
    monkeypatch.setattr(clock, "CELL_FORGIVES_S", forgive)
    interrupts = []

    async def interrupt_kernel():
        interrupts.append(time.monotonic())

    runner = client()
    runner.km = SimpleNamespace(provisioner=SimpleNamespace(pid=os.getpid()), interrupt_kernel=interrupt_kernel)
    cell = runner.nb.cells[0]

    async def a_cell_running():
        # Until the interrupt, else 0.25 s without one: not a race of the watch's 0.2 s against a 0.25 s sleep,
        # which a loaded host's 50 ms pause between the two starting lost. Forgiving 0.99 of the time without
        # its bound, the limit would fall at 10 s: far past both 0.25 s and the WHEN_S a loaded host may need.
        watch = asyncio.ensure_future(runner._limit_cell(cell, 0.1))
        given = time.monotonic() + (WHEN_S if interrupted else 0.25)
        while not interrupts and time.monotonic() < given:
            await asyncio.sleep(0.01)
        watch.cancel()

    asyncio.run(a_cell_running())
    assert bool(interrupts) == interrupted
    assert bool(cell.metadata.get(TIMED_OUT)) == interrupted
    assert runner._get_timeout(cell) is None  # nbclient's own wall-clock limit on a cell is off
