"""One submission, executed in its own process: `python -m toolkit.exercises.worker IN.ipynb OUT.ipynb SECONDS`.

`toolkit grade` starts this in a new process group, on a private copy of the submission (the
kernel's working directory is that copy's folder), so that a notebook that hangs past the
limit can be killed with its kernel. Before running, every code cell loses the outputs and
execution count it was submitted with: only what this run produces can count; a cell that
lost its `source` or `metadata` (a hand-edited file nbformat still reads) gets empty ones, so
it does not stop the cells after it. Every code cell
is tagged `raises-exception`, so a broken cell is recorded and the cells after it still run; a
cell running longer than SECONDS stops the run. One cell is added at the end (`LAST_CELL`): it
displays the record of every exercise checked in the kernel (`core.LAST`), so a check whose
result was printed, assigned or followed by another line — shown as text or not at all, so with
no record of its own — still counts, and the last check() of each exercise is the one graded.
OUT is rewritten after each cell (atomically),
so a run killed from outside still leaves what ran before; at the end it holds whatever ran,
with `metadata.grade_error` saying why it stopped early. Execution is
`toolkit.cli.notebooks.execute`: a fresh kernel, without the LLM_* variables.

Leaves out: reading the results (`toolkit.exercises.grade`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat

from toolkit.cli.notebooks import execute
from toolkit.exercises.notebook import cell_tags

TOLERATE = "raises-exception"
LAST_TAG = "toolkit-grade-last"
LAST_CELL = """\
from IPython.display import display as _toolkit_display

from toolkit.exercises.core import LAST as _toolkit_last, MIME as _toolkit_mime

for _toolkit_result in list(_toolkit_last.values()):
    _toolkit_display({_toolkit_mime: _toolkit_result.record()}, raw=True)
"""


def run(source: Path, target: Path, seconds: int) -> None:
    notebook = prepared(nbformat.read(source, as_version=4))
    notebook.cells.append(nbformat.v4.new_code_cell(LAST_CELL, metadata={"tags": [LAST_TAG, TOLERATE]}))
    try:
        execute(notebook, source.resolve(), timeout=seconds, on_cell_executed=lambda **_: save(notebook, target))
    except Exception as error:  # a timeout or a dead kernel: keep what ran, say why
        first = (str(error).strip().splitlines() or [""])[0]
        notebook.metadata["grade_error"] = f"{type(error).__name__}: {first[:200]}"
    save(notebook, target)


def prepared(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Every code cell without its submitted outputs and count, and tagged to tolerate an error; every
    cell with a source and metadata (in place)."""
    for cell in notebook.cells:
        cell.setdefault("source", "")
        if not isinstance(cell.get("metadata"), dict):
            cell["metadata"] = nbformat.NotebookNode()
        if cell.get("cell_type") == "code":
            cell.outputs = []
            cell.execution_count = None
            tags = cell_tags(cell)  # a hand-edited cell may hold a string or null there
            cell.setdefault("metadata", {})["tags"] = tags + [TOLERATE] * (TOLERATE not in tags)
    return notebook


def save(notebook: nbformat.NotebookNode, target: Path) -> None:
    """Write `target` whole or not at all: a kill mid-write leaves the previous version."""
    partial = target.with_name(target.name + ".partial")
    nbformat.write(notebook, partial)
    os.replace(partial, target)


if __name__ == "__main__":
    run(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]))
