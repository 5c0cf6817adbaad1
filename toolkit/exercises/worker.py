"""One submission, executed in its own process: `python -m toolkit.exercises.worker IN.ipynb OUT.ipynb SECONDS [BYTES]`.

`toolkit grade` starts this in a new process group, on a private copy of the submission (the
kernel's working directory is that copy's folder), so that a notebook that hangs past the
limit can be killed with its kernel. Before running, every code cell loses the outputs and
execution count it was submitted with, and the notebook any `grade_error` (below): only what this
run produces can count. A cell that lost its `source` or `metadata`, or holds something else there
(a hand-edited file nbformat still reads: `"source": null`), gets empty ones, and one that lost its
`cell_type` is kept as a raw cell (nothing in it runs), so it does not stop the cells after it. Every
code cell is tagged `raises-exception`, so a broken cell is recorded and the cells after it still run; a
cell running longer than SECONDS (the seconds it had: a loaded host's wait for a CPU is not counted,
`clock`) is interrupted (a KeyboardInterrupt in it; its metadata marked `TIMED_OUT`) and the cells
after it still run, as nbgrader does (`interrupt_on_timeout`): one endless loop does not cost
the exercises after it. A cell keeps at most `CELL_OUTPUT_LIMIT`
characters of output, and the notebook `NOTEBOOK_OUTPUT_LIMIT` (`CappedClient`): past that, its
printing and displays are dropped (one line says so) — check records and errors are always kept —
so a learner's endless `print` loop cannot fill the worker's memory, the file, then the grader's. BYTES, when given,
is the memory the worker and each process it starts may take (`limit_memory`): a cell past it fails with a
MemoryError and the cells after it run.
One cell is added at the end (`LAST_CELL`): it
displays the record of every exercise checked in the kernel (`core.LAST`), so a check whose
result was printed, assigned or followed by another line — shown as text or not at all, so with
no record of its own — still counts, and the last check() of each exercise is the one graded.
Under `toolkit grade` the run's key comes on stdin (never in the arguments or the environment, which the kernel
could read): the kernel is armed with it before the first cell (`sealing`), and each record check() makes is sealed
(`toolkit.exercises.seal`), so the grade can tell them from records the notebook's own code displays.
OUT is rewritten after each cell (atomically),
so a run killed from outside still leaves what ran before; at the end it holds whatever ran,
with `metadata.grade_error` saying why it stopped early. Execution is
`toolkit.exercises.notebook_file.execute`: a fresh kernel, without the LLM_* variables.

Leaves out: reading the results (`toolkit.exercises.grade`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from toolkit import lazy_iri

if __name__ == "__main__":  # its own process: the IRI grammar built only if an IRI is checked (see lazy_iri)
    lazy_iri.defer()

import nbformat  # noqa: E402  (after defer: jsonschema is imported with nbformat)
from nbclient import NotebookClient  # noqa: E402

from toolkit.exercises import clock  # noqa: E402
from toolkit.exercises.core import MIME  # noqa: E402
from toolkit.exercises.notebook import LAST_TAG, TIMED_OUT, cell_tags  # noqa: E402
from toolkit.exercises.notebook_file import execute, read  # noqa: E402

TOLERATE = "raises-exception"
LAST_CELL = """\
from IPython.display import display as _toolkit_display

from toolkit.exercises.core import LAST as _toolkit_last, MIME as _toolkit_mime

for _toolkit_result in list(_toolkit_last.values()):
    _toolkit_display({_toolkit_mime: _toolkit_result.record()}, raw=True)
"""


def run(source: Path, target: Path, seconds: int, key: str = "") -> None:
    """Run the submission's cells and the closing one, saving after each; `key`, when given, is the run's key
    the kernel seals its check records with (`toolkit.exercises.seal`: `toolkit grade` sends it on stdin)."""
    notebook = prepared(read(source))
    notebook.cells.append(nbformat.v4.new_code_cell(LAST_CELL, metadata={"tags": [LAST_TAG, TOLERATE]}))
    try:
        execute(
            notebook,
            source.resolve(),
            timeout=seconds,
            on_cell_executed=lambda **_: save(notebook, target),
            client=sealing(key) if key else CappedClient,
        )
    except Exception as error:  # a timeout or a dead kernel: keep what ran, say why
        first = (str(error).strip().splitlines() or [""])[0]
        notebook.metadata["grade_error"] = f"{type(error).__name__}: {first[:200]}"
    save(notebook, target)


def prepared(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Every code cell without its submitted outputs and count, and tagged to tolerate an error; every
    cell with a type, a source (text) and metadata (in place); no `grade_error` but this run's."""
    if isinstance(notebook.get("metadata"), dict):
        notebook.metadata.pop("grade_error", None)
    for cell in notebook.cells:
        if not isinstance(cell.get("cell_type"), str):  # a cell of no kind runs as nothing: kept, as a raw one
            cell["cell_type"] = "raw"
        cell["source"] = _text(cell.get("source"))
        if not isinstance(cell.get("metadata"), dict):
            cell["metadata"] = nbformat.NotebookNode()
        cell["metadata"].pop(TIMED_OUT, None)  # only this run's time limit marks a cell
        if cell.get("cell_type") == "code":
            cell.outputs = []
            cell.execution_count = None
            tags = cell_tags(cell)  # a hand-edited cell may hold a string or null there
            cell.setdefault("metadata", {})["tags"] = tags + [TOLERATE] * (TOLERATE not in tags)
    return notebook


def _text(source: object) -> str:
    """A cell's source as text: a list of lines joined; none, or anything else a hand edit left there
    (null, a number), is empty."""
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        return "".join(source)
    return source if isinstance(source, str) else ""


CELL_OUTPUT_LIMIT = 1_000_000
"""Characters of output one cell keeps (the course's largest cell shows under 100 000)."""
NOTEBOOK_OUTPUT_LIMIT = 20_000_000
"""Characters of output the whole notebook keeps."""
CUT_NOTE = "[toolkit grade: this cell's output went past {limit:,} characters; the rest was not kept]\n"


KERNEL_CAP = f"""\
def _toolkit_cap_output(limit={2 * CELL_OUTPUT_LIMIT}):
    import sys

    def cap(*_):
        left = [limit]
        for stream in (sys.stdout, sys.stderr):
            def capped(text, *args, write=stream.write, **kwargs):
                if left[0] <= 0:
                    return len(text)
                kept = text[: left[0]]
                left[0] -= len(text)
                write(kept, *args, **kwargs)
                return len(text)

            stream.write = capped

    get_ipython().events.register("pre_run_cell", cap)


def _toolkit_keep_streams():
    import sys

    kernels = (sys.stdout, sys.stderr)

    def usable(stream):
        return callable(getattr(stream, "write", None)) and callable(getattr(stream, "flush", None))

    def put_back(*_):
        if not usable(sys.stdout):
            sys.stdout = kernels[0]
        if not usable(sys.stderr):
            sys.stderr = kernels[1]

    get_ipython().events.register("post_run_cell", put_back)


_toolkit_cap_output()
_toolkit_keep_streams()
del _toolkit_cap_output, _toolkit_keep_streams
"""
"""Run in the kernel as it starts: from then on, a cell's printing past twice `CELL_OUTPUT_LIMIT`
characters is dropped in the kernel itself (the write that crosses it cut to what is left, so one
`print` of 100 MB sends 2 MB; each cell's streams are capped as it starts; IPython
puts its own writer back when the cell ends). A learner's endless `print` loop otherwise filled
the kernel's buffers faster than they were sent on a busy machine, and the kernel died building a
message of gigabytes (the grade said "Kernel died", not that the cell ran past its limit). What
is kept is cut by `CappedClient` as before.

And after each cell, a `sys.stdout` or `sys.stderr` the cell left unusable (None, or an object without `write`
and `flush`: a learner silencing prints) is the kernel's own stream again: IPython writes to them before any cell
runs, so every cell after it failed there, with no reply (each waited out its limit, the notebook was stopped,
its later exercises "not run"). A stream that still writes (a file, a `StringIO`) is the learner's and stays."""


class CappedClient(NotebookClient):
    """nbclient's client, keeping each cell's output (and the notebook's) within the limits: the
    output that would go past them, and every one after it in that cell, is dropped before it is
    stored — unless the grade needs it (a check record, an error, a display it may update) — and
    one stream line says the output was cut."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.extra_arguments = [*self.extra_arguments, f"--IPKernelApp.exec_lines={KERNEL_CAP}"]
        self._kept: dict[int, int] = {}  # cell index → characters of output kept since its last clear
        self._cut: set[int] = set()  # the cells past their limit
        self._total = 0
        self.clear_before_next_output = False  # nbclient sets it per cell; `output` reads it from the first
        self.interrupt_on_timeout = True  # a cell past the limit is interrupted, and the cells after it run

    def _get_timeout(self, cell: Any) -> int | None:
        """No limit nbclient counts on the wall clock for a cell (`_limit_cell` counts it); a wait that is not a
        cell's (the kernel armed before the first cell) may take as long as the kernel's start."""
        if cell is not None:
            return None
        limit = super()._get_timeout(None)
        return None if limit is None else max(limit, self.startup_timeout)

    async def async_execute_cell(
        self, cell: Any, cell_index: int, execution_count: int | None = None, store_history: bool = True
    ) -> Any:
        """nbclient's, with the cell's time limit (`timeout`) counted by `_limit_cell` while it runs."""
        limit = self.timeout if self.timeout is not None and self.timeout > 0 else None
        watch = asyncio.ensure_future(self._limit_cell(cell, limit)) if limit and cell.cell_type == "code" else None
        try:
            return await super().async_execute_cell(cell, cell_index, execution_count, store_history)
        finally:
            if watch is not None:
                watch.cancel()

    async def _limit_cell(self, cell: Any, limit: float) -> None:
        """Interrupt the kernel (`_async_handle_timeout`) each time the cell has run `limit` more seconds, counted
        by a `clock.Stopwatch` of the kernel's main thread: a loaded host's wait for a CPU (up to
        `clock.CELL_FORGIVES_S`) is not the cell's time (an honest cell at load 15 was stopped as an endless
        loop); sleeping and looping are."""
        pid = getattr(getattr(self.km, "provisioner", None), "pid", None)
        known = isinstance(pid, int)  # the kernel's first thread runs the cells
        watch = clock.Stopwatch(pid if known else None, forgive=clock.CELL_FORGIVES_S, wall_only=not known)
        while True:
            if (left := limit - watch.elapsed()) > 0:
                await asyncio.sleep(left)
                continue
            await self._async_handle_timeout(int(limit), cell)
            watch = watch.again()

    async def _async_handle_timeout(self, timeout: int, cell: Any = None) -> Any:
        """nbclient's: the cell past the limit is interrupted; marked `TIMED_OUT` first, so the grade tells its
        KeyboardInterrupt from one the learner's code raised."""
        if cell is not None:
            cell.setdefault("metadata", nbformat.NotebookNode())[TIMED_OUT] = True
        return await super()._async_handle_timeout(timeout, cell)

    def output(self, outs: list[Any], msg: dict[str, Any], display_id: str | None, cell_index: int) -> Any:
        content = msg.get("content") or {}
        if self.clear_before_next_output:  # nbclient clears the cell's outputs before storing this one
            self._cleared(cell_index)
        needed = display_id is not None or _is_record(content) or msg.get("msg_type") == "error"
        size = _size(content)
        room = min(CELL_OUTPUT_LIMIT - self._kept.get(cell_index, 0), NOTEBOOK_OUTPUT_LIMIT - self._total)
        if cell_index not in self._cut and size > room:
            self._cut.add(cell_index)
            outs.append(nbformat.v4.new_output("stream", name="stderr", text=_cut_note()))
        if cell_index in self._cut:
            if not needed:
                return None  # dropped: never stored, never written to the file
            if msg.get("msg_type") == "error":  # the grade reads its name and value, not its traceback
                content["traceback"] = [str(line)[:1000] for line in (content.get("traceback") or [])[-20:]]
                content["evalue"] = str(content.get("evalue", ""))[:1000]
            size = min(size, 2000)  # a needed output counts, but never locks the other cells out
        self._kept[cell_index] = self._kept.get(cell_index, 0) + size
        self._total += size
        return super().output(outs, msg, display_id, cell_index)

    def clear_output(self, outs: list[Any], msg: dict[str, Any], cell_index: int) -> None:
        super().clear_output(outs, msg, cell_index)
        if not outs:  # cleared at once (a clear that waits for the next output is seen in `output`)
            self._cleared(cell_index)

    def _cleared(self, cell_index: int) -> None:
        self._kept[cell_index] = 0
        self._cut.discard(cell_index)


ARM = '__import__("toolkit.exercises.seal", fromlist=["arm"]).arm({key!r})'
"""Run silently in the kernel before the first cell (no cell, no history, no output stored): the key it seals with."""
NOT_ARMED = "the kernel could not be made ready to seal check records (toolkit.exercises.seal.arm failed: {why})"


def sealing(key: str) -> type[CappedClient]:
    """`CappedClient`, arming the kernel with `key` (`ARM`) as soon as it is ready, before any cell runs: the key
    is in no cell, no history, no file the run writes, and not in the kernel's environment or command line."""

    class SealingClient(CappedClient):
        async def async_start_new_kernel_client(self) -> Any:
            client = await super().async_start_new_kernel_client()
            msg_id = client.execute(ARM.format(key=key), silent=True, store_history=False, allow_stdin=False)
            reply = await self.async_wait_for_reply(msg_id)
            content = (reply or {}).get("content", {})
            if content.get("status") != "ok":
                why = f"{content.get('ename', 'no reply')}: {content.get('evalue', '')}".strip(": ")
                raise RuntimeError(NOT_ARMED.format(why=why))
            return client

    return SealingClient


def key_given() -> str:
    """The key `toolkit grade` wrote on stdin (one line), or "" when none comes: no stdin, or a terminal (the
    worker run by hand, which is never asked for one)."""
    stream = sys.stdin
    if stream is None or stream.closed or stream.isatty():
        return ""
    return stream.readline().strip()


def _cut_note() -> str:
    return CUT_NOTE.format(limit=CELL_OUTPUT_LIMIT)


def _size(content: dict[str, Any]) -> int:
    """About how many characters an output message's content holds (its text, or its data)."""
    if isinstance(content.get("text"), str):
        return len(content["text"])
    data = content.get("data")
    if isinstance(data, dict):
        return sum(len(v) if isinstance(v, str) else len(json.dumps(v, default=str)) for v in data.values())
    return len(json.dumps(content, default=str))


def _is_record(content: dict[str, Any]) -> bool:
    data = content.get("data")
    return isinstance(data, dict) and MIME in data


def save(notebook: nbformat.NotebookNode, target: Path) -> None:
    """Write `target` whole or not at all: a kill mid-write leaves the previous version. Its folder
    is made again if a cell deleted it (a learner's clean-up of the temporary folders): the results
    so far are then still written, not lost with a crash of the worker."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    nbformat.write(notebook, partial)
    os.replace(partial, target)


def limit_memory(size: int) -> None:
    """At most `size` bytes of memory for this process and every process it starts from now on — the kernel, and
    what the notebook's code starts (`RLIMIT_DATA`, soft and hard: the kernel cannot raise it again): past it an
    allocation fails, a MemoryError in the cell. A lower limit the grader was started with is kept (no process may
    raise its hard limit); a system without `resource` (Windows), or one that refuses the limit, runs without it."""
    try:
        import resource
    except ImportError:
        return
    hard = resource.getrlimit(resource.RLIMIT_DATA)[1]
    if hard != resource.RLIM_INFINITY:
        size = min(size, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_DATA, (size, size))


if __name__ == "__main__":
    if len(sys.argv) > 4:
        limit_memory(int(sys.argv[4]))
    run(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), key_given())
