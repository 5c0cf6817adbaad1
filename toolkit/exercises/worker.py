"""One submission, executed in its own process: `python -m toolkit.exercises.worker IN.ipynb OUT.ipynb SECONDS`.

`toolkit grade` starts this in a new process group so that a notebook that hangs past the
limit can be killed with its kernel. Every code cell is tagged `raises-exception`, so a broken
cell is recorded and the cells after it still run; a cell running longer than SECONDS stops the
run. Whatever ran is written to OUT, with `metadata.grade_error` saying why it stopped early.
Execution is `toolkit.cli.notebooks.execute`: a fresh kernel, without the LLM_* variables.

Leaves out: reading the results (`toolkit.exercises.grade`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from toolkit.cli.notebooks import execute
from toolkit.exercises.notebook import cell_tags

TOLERATE = "raises-exception"


def run(source: Path, target: Path, seconds: int) -> None:
    notebook = nbformat.read(source, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            tags = cell_tags(cell)  # a hand-edited cell may hold a string or null there
            cell.setdefault("metadata", {})["tags"] = tags + [TOLERATE] * (TOLERATE not in tags)
    try:
        execute(notebook, source.resolve(), timeout=seconds)
    except Exception as error:  # a timeout or a dead kernel: keep what ran, say why
        notebook.metadata["grade_error"] = f"{type(error).__name__}: {str(error).strip().splitlines()[0][:200]}"
    nbformat.write(notebook, target)


if __name__ == "__main__":
    run(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]))
