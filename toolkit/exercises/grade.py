"""Grade submitted notebooks: run each in a fresh kernel, one CSV row per notebook and exercise.

    rows = grade_paths([Path("submissions")], seconds=120)
    write_csv(rows, "grades.csv")        # notebook,exercise,passed,feedback
    print(summary(rows))

Each notebook runs in its own process (`toolkit.exercises.worker`), offline, with a time limit:
a cell longer than the limit is stopped and the exercises after it are "not run"; a notebook
whose process is still alive at the limit plus a start-up allowance is killed with its kernel.
A broken cell does not stop the run. The result of each exercise is the last `check()` output
of the executed notebook (its `application/vnd.toolkit.exercise+json` record); which exercises
a notebook should have comes from its tagged cells and, for a file named like a course
notebook (`06_…`), from the registry — so a deleted exercise cell still gets a row.

A file that is not a notebook, cannot be read, crashes its kernel or hangs gets a row saying so
(exercise `(notebook)`), and grading goes on with the next file.

Leaves out: partial credit inside one exercise (an exercise passes or not), plagiarism checks,
and any defence against a learner who fakes a result: their code runs in the same kernel as
`check()` (and `solution()` is one call away), so this grading is formative, not an exam.
"""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

from toolkit.exercises.catalog import week_of_notebook
from toolkit.exercises.core import MIME, all_exercises, parse_record
from toolkit.exercises.notebook import exercise_id

NOTEBOOK_ROW = "(notebook)"
START_ALLOWANCE_S = 60
"""Seconds allowed on top of the limit for the process and the kernel to start and stop."""


@dataclass(frozen=True)
class Row:
    notebook: str
    exercise: str
    passed: bool
    feedback: str


def find_notebooks(paths: Iterable[Path]) -> list[Path]:
    """The files to grade: each file as given, each folder's *.ipynb (checkpoints left out)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        else:
            found.append(path)
    return found


def expected_exercises(path: Path, notebook: nbformat.NotebookNode) -> list[str]:
    """Tagged exercise cells, plus the registry's exercises for a course notebook's week."""
    ids = [i for i in (exercise_id(c) for c in notebook.cells) if i]
    week = week_of_notebook(path.name)
    if week is not None:
        ids += [e.id for e in all_exercises() if e.week == week]
    return list(dict.fromkeys(ids))


def results(notebook: nbformat.NotebookNode) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """The last check record of each exercise, and the error of each exercise cell that raised."""
    records: dict[str, dict[str, Any]] = {}
    errors: dict[str, str] = {}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            record = parse_record(output.get("data", {}).get(MIME))
            if record:
                records[str(record["exercise"])] = record
            ex_id = exercise_id(cell)
            if output.get("output_type") == "error" and ex_id:
                errors[ex_id] = f"the cell raised {output.get('ename')}: {str(output.get('evalue', ''))[:120]}"
    return records, errors


def grade_notebook(path: Path, seconds: int = 120) -> list[Row]:
    """Rows for one submission (never raises for a bad submission)."""
    name = str(path)
    if not path.is_file():
        return [Row(name, NOTEBOOK_ROW, False, "no such file")]
    if path.suffix != ".ipynb":
        return [Row(name, NOTEBOOK_ROW, False, f"not a notebook: a {path.suffix or 'file without suffix'}")]
    try:
        submitted = nbformat.read(path, as_version=4)
    except Exception as error:
        return [Row(name, NOTEBOOK_ROW, False, f"not a notebook: cannot be read ({type(error).__name__})")]
    expected = expected_exercises(path, submitted)
    if not expected:
        return [Row(name, NOTEBOOK_ROW, False, "no exercises found (no tagged exercise cells, not a course notebook)")]
    executed, problem = _execute(path, seconds)
    rows = []
    if problem:
        rows.append(Row(name, NOTEBOOK_ROW, False, problem))
    records, errors = results(executed) if executed is not None else ({}, {})
    for ex_id in expected:
        record = records.get(ex_id)
        if record is not None:
            text = str(record.get("feedback", ""))
            status = str(record["status"])
            rows.append(Row(name, ex_id, record.get("passed") is True, status + (f": {text}" if text else "")))
        elif ex_id in errors:
            rows.append(Row(name, ex_id, False, errors[ex_id]))
        else:
            rows.append(Row(name, ex_id, False, "not run: no check() result for this exercise"))
    return rows


def _execute(path: Path, seconds: int) -> tuple[nbformat.NotebookNode | None, str]:
    """Run the worker; (executed notebook or None, problem or "")."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "executed.ipynb"
        command = [sys.executable, "-m", "toolkit.exercises.worker", str(path), str(out), str(seconds)]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        try:
            _, stderr = process.communicate(timeout=seconds + START_ALLOWANCE_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the worker and its kernel
            process.communicate()
            return None, f"timed out: still running after {seconds + START_ALLOWANCE_S} s, stopped"
        except BaseException:  # Ctrl-C (or anything else) while waiting: leave no worker or kernel running
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
        if not out.is_file():
            last = stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
            return None, f"could not be executed: {last[0][:200]}"
        executed = nbformat.read(out, as_version=4)
    error = executed.metadata.get("grade_error", "")
    if error.startswith("CellTimeoutError"):
        return executed, f"a cell ran longer than {seconds} s and was stopped; the cells after it did not run"
    if error:
        return executed, f"execution stopped early: {error}"
    return executed, ""


def grade_paths(paths: Sequence[Path], seconds: int = 120) -> list[Row]:
    return [row for path in find_notebooks(paths) for row in grade_notebook(path, seconds)]


def write_csv(rows: Sequence[Row], out: Path | str) -> Path:
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["notebook", "exercise", "passed", "feedback"])
        for r in rows:
            writer.writerow([r.notebook, r.exercise, int(r.passed), r.feedback])
    return out


def summary(rows: Sequence[Row]) -> str:
    """One line per notebook: exercises passed out of exercises, and any notebook-level problem."""
    by_notebook: dict[str, list[Row]] = {}
    for r in rows:
        by_notebook.setdefault(r.notebook, []).append(r)
    width = max((len(n) for n in by_notebook), default=8)
    lines = [f"{'notebook':{width}}  passed  note"]
    for notebook, group in by_notebook.items():
        graded = [r for r in group if r.exercise != NOTEBOOK_ROW]
        note = next((r.feedback for r in group if r.exercise == NOTEBOOK_ROW), "")
        score = f"{sum(r.passed for r in graded)}/{len(graded)}" if graded else "—"
        lines.append(f"{notebook:{width}}  {score:>6}  {note}")
    graded = [r for r in rows if r.exercise != NOTEBOOK_ROW]
    lines.append(f"{'total':{width}}  {sum(r.passed for r in graded):>3}/{len(graded)}")
    return "\n".join(lines)
