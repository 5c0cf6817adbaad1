"""Grade submitted notebooks: run each in a fresh kernel, one CSV row per notebook and exercise.

    rows = grade_paths([Path("submissions")], seconds=120)
    write_csv(rows, "grades.csv")        # notebook,exercise,passed,feedback
    print(summary(rows))

Each notebook runs in its own process (`toolkit.exercises.worker`), offline (no `LLM_*`
variables, and no variable whose name labels a secret or whose value holds one: a teacher's
`OPENAI_API_KEY`, `HF_TOKEN` or `DATABASE_URL=postgres://user:password@…` is not the submissions' to
read; nor is a key an IPython startup file sets: each kernel has an IPython folder of its own, so no
startup file of the teacher's or of an earlier submission runs in it), on a copy in a fresh private
folder (its kernel's working directory, so one submission cannot plant files another imports; with the files the
learner handed in beside it, where its folder is theirs alone — `toolkit.exercises.beside`: a module of theirs it
imports; the grader's own files are in another, so a notebook that deletes its folder or
the one above keeps what it checked before), with a time limit per cell: a cell longer than the limit is
interrupted and the cells after it still run, as nbgrader does (its exercise: "stopped: the cell ran longer
than the time limit"). The whole notebook's limit follows from its cells (`notebook_limit_s`): a time limit for
each code cell and the closing one, plus a start-up allowance (`START_ALLOWANCE_S`), so a notebook of many honest
cells, each near the limit, runs to its end; and a notebook in which no cell has finished for a cell's limit plus
that allowance (a cell that catches the interrupt and goes on) is stopped then, not at the end of all its cells'
time. Each of these limits, like a cell's and a check's, counts the seconds the notebook had: the wall clock's,
less (up to a bound) those a loaded host kept the worker and its kernel waiting for a CPU (`toolkit.exercises.clock`),
so a notebook graded while other work runs is not stopped for time it never had. Either way it is killed with its
kernel, and the exercises checked before still count. One check() may run two thirds of a cell's limit (`check_limit_s`), so an
exercise that loops forever fails alone and the cells after it still run. The grader never waits on a pipe a notebook's detached child could hold, so
it returns within about that deadline whatever the notebook does. A broken cell does not stop
the run. The result of each exercise is the last `check()` that this run made (a "not attempted" one —
a starter cell left below the copy the learner solved — only where no answer was tried before it) (its
`application/vnd.toolkit.exercise+json` record, displayed by the cell or, for a result that was
printed or not shown, by the cell the worker adds at the end; outputs saved in the submitted file
are cleared before it runs, and cells that did not run are ignored); which exercises a notebook should
have comes from its tagged cells, the exercise ids its code cells pass to check() (a cell whose tag an
editor dropped), and, for a file named like a course notebook (`06_…`, or a name holding one,
`Copy of 06_week6_round_trip_loop.ipynb`), from the registry — so a deleted or skipped
exercise cell still gets a row (`MISSING` where the notebook has no cell for it, `EMPTY` where its
cell is blank, `NOT_RUN` where its cell did not run). An exercise checked in the run but expected from neither (a cell
that lost its tag, another week's exercise) gets a row too: a pass is never dropped. A notebook's
rows are in the course's order, wherever its cells are. A notebook given twice (a folder and a file
in it) is graded once. A folder's `.py` script that calls check() on a course exercise (a notebook
handed in as a script) gets a row saying it is no notebook, so no learner is left out of the grades
unseen. A folder's search leaves out checkpoints and the `__MACOSX/`, `._hw.ipynb`
metadata a zip made on a Mac holds; an empty file is said to be one. A zip that holds a notebook (a folder's, given by
name, or renamed `.ipynb`) gets a row naming it and saying to unpack it: nothing in it is unpacked or run.

One installed course grades every notebook, so no notebook may change it for the ones after it: a kernel
gets none of the grader's import variables (no inherited `PYTHONPATH` or `PYTHONSTARTUP`, no user site-packages,
no user Jupyter folder's kernel spec: `environment.submission_environment`), and the install — the toolkit package's files (the
checks and their reference answers), what Python imports at the top of the folders it starts from (`.pth`,
`sitecustomize.py`), and the `python3` kernel spec every kernel starts from — is compared before and after each
notebook (`install_state`): a change stops the grading with the teacher's error naming the notebook
(`INSTALL_CHANGED`), its rows left out and the rows before it kept. So does a notebook that wrote a submission still
to be graded (`SUBMISSION_CHANGED`: another learner's notebook overwritten by its absolute path).
otter-grader runs each submission in a Docker container of its own for this, and nbgrader in the teacher's
environment unless they set up a container; here, as in otter's grading without Docker, the container is the
teacher's to set up, and the comparison says when one would have been needed.

A file that is not a notebook, cannot be read, crashes its kernel or hangs gets a row saying so
(exercise `(notebook)`), and grading goes on with the next file.

A CSV cell that would start like a spreadsheet formula (`=`, `+`, `-`, `@`: a learner's file name
or cell tag) is written with a `'` in front, so opening the grades runs nothing (`toolkit.course.spreadsheet`).

A record counts only when check() sealed it with the run's key (`toolkit.exercises.seal`: a new key per notebook, sent
to the worker on its stdin and to the kernel before the first cell): one the notebook's own code displayed, copied
from another file or built (a `CheckResult` of its own, the closing cell's `LAST` filled by hand, a `check` of its
own) is a failed row, `FORGED`, and never stands over a sealed one.

Leaves out: partial credit inside one exercise (an exercise passes or not), plagiarism checks,
and any defence against a learner set on faking a result: their code runs in the same kernel as
`check()` (where the key is, to code that goes looking; and `solution()` is one call away), so this grading is
formative, not an exam. Nor
OS-level isolation: a notebook can still write by absolute path anywhere its user may (a
separate user or container is the teacher's to set up), and a process it detaches may outlive it; a change deep
inside another installed package is not looked for. (A compiled file planted in the package's `__pycache__`, which
the kernels after it would load instead of the source, is: `compiled_as_its_source`.)
"""

from __future__ import annotations

import ast
import contextlib
import csv
import errno
import importlib.machinery
import importlib.util
import json
import marshal
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import unicodedata
import warnings
import zipfile
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, TextIO

import nbformat

import toolkit
from toolkit.course.spreadsheet import as_text, csv_encoding
from toolkit.errors import ConfigurationError
from toolkit.exercises import clock, seal
from toolkit.exercises.beside import copy_beside, files_beside, not_copied_note
from toolkit.exercises.catalog import course_copy_week, week_of_notebook
from toolkit.exercises.core import CHECK_LIMIT_S, LIMIT_VARIABLE, MIME, NOT_ATTEMPTED, all_exercises, parse_record
from toolkit.exercises.csv_lock import locked
from toolkit.exercises.environment import site_folders, submission_environment, toolkit_folder
from toolkit.exercises.notebook import CHECK_CALL, LAST_TAG, TIMED_OUT, cell_exercises, cell_tags, exercise_id
from toolkit.exercises.notebook_file import KERNEL, broken_json, is_empty, not_utf8_text, read, unread_why
from toolkit.exercises.partial_file import open_held
from toolkit.exercises.values import ADDRESS
from toolkit.files import NOT_A_FILE, keep_mode, not_a_file
from toolkit.tools.redact import scrub_secrets
from toolkit.unicode import columns, cut, padded
from toolkit.views.html import ACTING

NOTEBOOK_ROW = "(notebook)"
NO_EXERCISES = "no exercises found (no tagged exercise cells, not a course notebook)"
NOT_RUN = "not run: no check() result for this exercise"
NOT_CODE = "not run: the exercise cell is a {kind} cell, not code, so nothing in it ran"
"""An exercise whose tagged cell a learner turned into text (M pressed in command mode): nothing in it runs."""
STILL_RUNNING = (
    "stopped: the cell ran past the time limit and did not stop when interrupted (does it catch KeyboardInterrupt?); "
    "the notebook was stopped in it"
)
"""The exercise cell still running when the grader stopped the notebook at its own limit (`running_when_stopped`)."""
MISSING = "missing: the notebook has no cell for this exercise (none tagged with it or calling its check())"
"""An exercise of a course notebook's week (expected from its file name) that no cell of it has: deleted, or the
file is another week's notebook renamed; `NOT_RUN` is for a cell that is there."""
EMPTY = "empty: the exercise cell has no code, so nothing was checked"
"""An exercise whose tagged code cell a learner left (or made) blank: the run skips it, so it never ran; `NOT_RUN` is
for a cell with code in it that did not run."""
NO_CHECK = "no check() result: the exercise cell ran, but did not call check()"
CHECK_REPLACED = (
    "no check() result: the exercise cell called check(), but no result of toolkit's check() came of it "
    "(did a check of the notebook's own replace it?)"
)
KERNEL_DIED = (
    "the kernel died while this exercise's cell ran (os._exit(), a crash, or all the memory used); the cells "
    "after it did not run"
)
MEMORY_LIMIT_BYTES = 4 * 1024**3
"""The memory each process of a submission (its worker, its kernel, what the kernel starts) may take (`RLIMIT_DATA`,
set by the worker for itself and what it starts): past it an allocation fails, a MemoryError in the cell that asked,
and the kernel goes on — a cell that builds a list without end no longer takes the grading machine's memory until
the system kills a process. The course's notebooks take a few hundred MB; a course that loads a local model needs
more: `toolkit grade --memory 16G` (or this constant set before `grade_paths`). Unix only."""
START_ALLOWANCE_S = 60
"""Seconds allowed on top of the limits for the process and the kernel to start and stop, and for a cell's
interrupt to take effect."""
POLL_S = 0.25
"""Seconds between two looks at the worker's notebook file while it runs (each finished cell rewrites it)."""
KILL_WAIT_S = 10
"""Seconds to wait for a killed worker to be reaped (it normally takes none)."""


@dataclass(frozen=True)
class Row:
    notebook: str
    exercise: str
    passed: bool
    feedback: str
    """What happened, with any secret in it masked (`redact.scrub_secrets`; its paths kept): it may quote what a learner's
    cell raised or answered (a pasted key), and goes to a CSV and a terminal. Its control characters, and the
    notebook's and the exercise's (a learner's file name and cell tag), are written as escapes (`escaped`): one
    line, nothing a terminal acts on."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "notebook", escaped(self.notebook))
        object.__setattr__(self, "exercise", escaped(self.exercise))
        object.__setattr__(self, "feedback", escaped(scrub_secrets(self.feedback)))


PathLike = str | os.PathLike[str]
"""A path as the grade functions take it: a `Path`, or its text (`"submissions"`)."""


def as_paths(paths: PathLike | Iterable[PathLike]) -> list[Path]:
    """`paths` as a list of `Path`s: one path alone (`"submissions"`, `Path("hw.ipynb")`) is a list of one —
    a text is never read as the letters of a path, one by one."""
    if isinstance(paths, (str, os.PathLike)):
        return [Path(paths)]
    return [Path(path) for path in paths]


def find_notebooks(paths: PathLike | Iterable[PathLike]) -> list[Path]:
    """The files to grade: each file as given, each folder's *.ipynb (in `path_order`), whatever the suffix's letter case
    (`HW.IPYNB`, saved on Windows), and its scripts that check a course exercise (`is_checking_script`: they get
    a row saying they are no notebook) (checkpoints, a Mac's zip metadata and folders left out:
    `_is_submission`); a path reached twice (given twice, or as a file and inside a folder) is listed
    once, where first met. A path may be given as text, and one alone (`as_paths`)."""
    found: list[Path] = []
    for path in as_paths(paths):
        if path.is_dir():
            found += sorted((p for p in path.rglob("*") if _is_submission(p.relative_to(path), p)), key=path_order)
        else:
            found.append(path)
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(_same_file(path), path)
    return list(unique.values())


NOT_SUBMISSIONS = (".ipynb_checkpoints", "__MACOSX")
"""Folders a search leaves out: Jupyter's checkpoints, and the metadata a zip made on a Mac unpacks to."""


def name_order(name: str) -> tuple[Any, ...]:
    """A key that sorts names as a person reads them: numbers by value (`student2` before `student10`), letters
    whatever their case (`alice` beside `Alice`, before `Zoe`) and however their accents are written (`José`, its `é`
    one character or two), the exact name last to break a tie; the same order on every run and system."""
    parts = re.split(r"([0-9]+)", name)
    return tuple(int(part) if i % 2 else _composed(part).casefold() for i, part in enumerate(parts)), name


def path_order(path: Path) -> tuple[Any, ...]:
    """`name_order` for a path, folder by folder (a folder's files together, before the next folder's)."""
    return tuple(name_order(part) for part in path.parts)


def _is_submission(inside: Path, path: Path) -> bool:
    """Whether a file a folder's search met (`path`; `inside`, its path from that folder) is one to grade:
    named like a notebook, no folder (a folder `alice.ipynb` is searched, not graded), in none of
    `NOT_SUBMISSIONS`, and no `._hw.ipynb`, the binary metadata (AppleDouble) a Mac writes beside a
    file on a disk or in a zip that holds no such data."""
    return (
        (is_notebook_name(path) or is_checking_script(path) or (path.suffix.lower() == ".zip" and bool(zipped(path))))
        and not path.name.startswith("._")
        and not path.is_dir()
        and not any(folder in inside.parts for folder in NOT_SUBMISSIONS)
    )


SCRIPT_READ_BYTES = 1_000_000
"""Bytes of a `.py` file a folder's search reads for a check() call (a script exported from a notebook is far
smaller)."""


def is_checking_script(path: Path) -> bool:
    """Whether `path` is a Python script (`.py`, any letter case) that calls check() on a course exercise when it
    runs (`_checks_run`): a learner's work handed in as a script (a notebook saved with Download as Python), which
    must get its row, not vanish from the grades. A helper module beside a notebook calls no check(), a test suite
    calls it inside its functions, and the course's own modules hold such calls as text: all left out (a learner who
    zipped their whole copy of the course is not listed once per module)."""
    if path.suffix.lower() != ".py" or not path.is_file():
        return False
    try:
        with open(path, "rb") as f:
            text = f.read(SCRIPT_READ_BYTES).decode("utf-8", "replace")
    except OSError:
        return False
    known = {e.id for e in all_exercises()}
    try:
        called = list(_checks_run(ast.parse(text)))
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # a learner's broken script: what its text says
        called = CHECK_CALL.findall(text)
    return any(i in known for i in called)


ZIPPED = "not a notebook: a zip archive holding {names}; unpack it and grade the notebook in it"
"""The row of a zip that holds a notebook (`zipped`): a learner's notebook handed in zipped."""
ZIPPED_LISTED = 3
"""How many of a zip's notebooks its row names."""


def zipped(path: Path) -> list[str]:
    """The notebooks the zip archive at `path` holds, by their paths in it (none in `NOT_SUBMISSIONS`, no `._`
    metadata a Mac adds), read from its directory without unpacking anything; none for a file that is no zip, or
    a broken one."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, RuntimeError):
        return []
    inside = [PurePosixPath(name) for name in names if not name.endswith("/")]
    return [
        str(name)
        for name in inside
        if is_notebook_name(Path(name.name))
        and not name.name.startswith("._")
        and not any(folder in name.parts for folder in NOT_SUBMISSIONS)
    ]


def zipped_text(notebooks: list[str]) -> str:
    """`ZIPPED` for a zip holding `notebooks` (at least one): the first `ZIPPED_LISTED` named, the rest counted."""
    more = len(notebooks) - ZIPPED_LISTED
    names = ", ".join(notebooks[:ZIPPED_LISTED]) + (f" and {more} more" if more > 0 else "")
    return ZIPPED.format(names=names)


RENAMED_SCRIPT = (
    "not a notebook: its text is Python code (a script renamed .ipynb?), not a notebook's JSON; hand in the .ipynb "
    "file Jupyter saves (File > Save Notebook)"
)


def _python_code(path: Path) -> bool:
    """Whether the file at `path` (one nbformat could not read) is Python code — a notebook exported as a script and
    renamed `.ipynb` — read as `is_checking_script` reads one (its first `SCRIPT_READ_BYTES`): text that parses, with
    a statement in it other than an expression (a word, or a stray text, parses as a name)."""
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(SCRIPT_READ_BYTES).decode("utf-8"))
        return any(not isinstance(statement, ast.Expr) for statement in tree.body)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def _checks_run(tree: ast.Module) -> Iterator[str]:
    """The exercise ids a script's check() calls pass when it runs: in its statements and the blocks under them
    (`if __name__ == "__main__":`, a loop), not in a function or class body (a test suite's) nor in a string (a
    starter cell's text in the course's own modules)."""
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call) and _names_check(node.func) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield first.value
        stack.extend(ast.iter_child_nodes(node))


def _names_check(func: ast.expr) -> bool:
    """Whether a call's function is `check` (imported) or `….check` (`exercises.check`)."""
    return (isinstance(func, ast.Name) and func.id == "check") or (
        isinstance(func, ast.Attribute) and func.attr == "check"
    )


def is_notebook_name(path: Path) -> bool:
    """Whether the name ends in `.ipynb`, in any letter case: Windows, whose folders ignore case, may keep
    a notebook as `HW.IPYNB`."""
    return path.suffix.lower() == ".ipynb"


def _same_file(path: Path) -> Path:
    """The path that names this file whatever the spelling (`./a.ipynb`, `a/../a/b.ipynb`); a link
    keeps a path of its own — it may be another learner's submission, whose row must not vanish."""
    return Path(os.path.abspath(path))


def expected_exercises(path: Path, notebook: nbformat.NotebookNode) -> list[str]:
    """Tagged exercise cells, the registry's exercises for a course notebook's week, and the exercises
    whose check() a code cell names (a cell whose tag an editor dropped, in a renamed file: if it never
    runs, after a time limit or a dead kernel, it still gets its row)."""
    week = week_of_notebook(path.name)
    ids = [e.id for e in all_exercises() if e.week == week] if week is not None else []
    return in_course_order([*cell_exercises(notebook), *ids], week)


def in_course_order(ids: Iterable[str], week: int | None = None) -> list[str]:
    """Exercise ids once each, in the course's order (the registry's), whatever order a learner's cells
    are in: `week`'s (the notebook's own) first, then other weeks'; an id the course does not know (a tag
    from an older copy, a typo) after them, as first met."""
    order = {e.id: (e.week != week, n) for n, e in enumerate(all_exercises())}
    unique = list(dict.fromkeys(ids))
    return sorted(unique, key=lambda i: (*order.get(i, (True, len(order))), unique.index(i)))


def ran_exercise_cells(notebook: nbformat.NotebookNode) -> set[str]:
    """The ids of the tagged exercise cells this run executed."""
    return {
        ex_id
        for cell in notebook.cells
        if cell.cell_type == "code" and cell.get("execution_count") is not None and (ex_id := exercise_id(cell))
    }


def called_check(notebook: nbformat.NotebookNode) -> set[str]:
    """The ids of the tagged exercise cells this run executed whose code calls check() with their id."""
    return {
        ex_id
        for cell in notebook.cells
        if cell.cell_type == "code"
        and cell.get("execution_count") is not None
        and (ex_id := exercise_id(cell))
        and ex_id in CHECK_CALL.findall(str(cell.get("source", "")))
    }


def results(notebook: nbformat.NotebookNode) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """The last check record of each exercise, and the error of each exercise cell that raised (`cell_checks`: a cell
    untagged that calls check() is its exercise's too).

    Only cells this run executed count (they have an execution count): a cell that was skipped
    (blank, or after a timeout or a dead kernel) cannot pass with an output saved before."""
    records: dict[str, dict[str, Any]] = {}
    errors: dict[str, str] = {}
    ran = [cell for cell in notebook.cells if cell.cell_type == "code" and cell.get("execution_count") is not None]
    timed_out = str(notebook.metadata.get("grade_error", "")).startswith("CellTimeoutError")
    known = {e.id for e in all_exercises()}
    for cell in ran:
        # the cell the time limit interrupted: marked by the worker, or the last that ran when the limit stopped the run
        stopped = cell.get("metadata", {}).get(TIMED_OUT) is True or (timed_out and cell is ran[-1])
        for output in cell.get("outputs", []):
            record = parse_record(output.get("data", {}).get(MIME))
            if record and not _keeps_earlier(records.get(str(record["exercise"])), record):
                records[str(record["exercise"])] = record
            if output.get("output_type") == "error":
                for ex_id in cell_checks(cell, known):
                    errors[ex_id] = _error_text(output, stopped)
    return records, errors


def cell_checks(cell: nbformat.NotebookNode, known: Collection[str]) -> list[str]:
    """The exercises a code cell is for: its tag's, else the course's (`known`) whose check() its code calls — a cell
    whose tag an editor dropped, or one the learner wrote below her work (`check("w6.window", keep)`): when it raised
    before its check() made a result, its row says what it raised, as the notebook showed, not that it did not run."""
    if ex_id := exercise_id(cell):
        return [ex_id]
    return [i for i in dict.fromkeys(CHECK_CALL.findall(str(cell.get("source", "")))) if i in known]


def _keeps_earlier(earlier: dict[str, Any] | None, record: dict[str, Any]) -> bool:
    """Whether an exercise's `earlier` record stands against a later one: a "not attempted" after a tried
    answer (the starter cell left below a copy the learner solved, and the worker's last cell repeating
    it) says nothing of the answer, so it does not undo the pass or the failed try before it; nor does a forged
    record (`sealed_only`) undo one check() made."""
    if earlier is None:
        return False
    if record.get("forged") is True:  # what the notebook's own code made never stands over what check() did
        return earlier.get("forged") is not True
    return earlier.get("status") != NOT_ATTEMPTED and record.get("status") == NOT_ATTEMPTED


def _error_text(output: dict[str, Any], stopped: bool = False) -> str:
    """What an exercise cell's error output says, for the learner: the KeyboardInterrupt of the cell
    the time limit stopped says so; any other is the learner's code raising it."""
    # masked whole, then cut: a key cut in two no longer reads as one, and its head would show; without the memory
    # addresses a default repr holds (`<__main__.Order object at 0x7f…>`), new on every run, as check()'s feedback
    name, value = output.get("ename"), ADDRESS.sub("", scrub_secrets(str(output.get("evalue", "")).strip()))
    if name == "KeyboardInterrupt" and stopped:  # how the grader stops a cell at the time limit
        return "stopped: the cell ran longer than the time limit"
    return f"the cell raised {name}: {cut(value, 120, mark='')}" if value else f"the cell raised {name}"


CONTROL = re.compile(rf"[\x00-\x1f\x7f-\x9f]|{ACTING.pattern}")
"""A control character (in a file name, the summary would send it to the teacher's terminal to act on), or
another character that acts instead of being seen (`toolkit.views.html.ACTING`: a right-to-left override
made `\\u202eecila.ipynb` read as another learner's name, 'bnypi.alice')."""


def path_text(path: Path) -> str:
    """The path as text a CSV and a terminal can hold: a byte of the name that is not UTF-8 (a
    name from a zip made under another encoding) is written as its escape, `\\xff`, not lost; so is a
    control character (`\\x1b`, `\\n`), which a terminal would act on."""
    return escaped(os.fsencode(path).decode("utf-8", "backslashreplace"))


def escaped(text: str) -> str:
    """`text` with each control character written as its escape (`\\x1b`, `\\n`): a learner's text (a file name,
    what a cell raised, a cell tag) that a terminal showing the grades would otherwise act on, or break a line at."""
    return CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def not_a_file_row(path: Path, problem: str) -> str:
    """The row of a submission `files.not_a_file` found no file (`problem`), with what to do: a link loop, a
    pipe, a missing file and the system's own reasons ("File name too long") were one line without a hint."""
    if problem.startswith("no such file"):
        if os.path.islink(path):
            return f"{problem}; replace the link by the notebook it should name"
        return f"{problem}; check the name, or that the upload finished"
    if problem == NOT_A_FILE:
        return f"{problem}; hand in the notebook as a file"
    if problem == os.strerror(errno.ELOOP):
        return f"a link loop ({problem}): the link leads back to itself; replace it by the notebook it should name"
    return f"cannot be opened ({problem}); copy it to a readable file and grade that"


def grade_notebook(path: PathLike, seconds: int = 120) -> list[Row]:
    """Rows for one submission (never raises for a bad submission); its path may be given as text. Graded by
    `grade_each`, it runs with the learner's files beside it (`BESIDE`)."""
    path = Path(path)
    name = path_text(path)
    if problem := not_a_file(path):  # "no such file", or what is there instead (a pipe, a link loop)
        return [Row(name, NOTEBOOK_ROW, False, not_a_file_row(path, problem))]
    if not is_notebook_name(path):
        if notebooks := zipped(path):
            return [Row(name, NOTEBOOK_ROW, False, zipped_text(notebooks))]
        return [Row(name, NOTEBOOK_ROW, False, f"not a notebook: a {path.suffix or 'file without suffix'}")]
    if is_empty(path):
        return [Row(name, NOTEBOOK_ROW, False, "not a notebook: the file is empty")]
    try:
        with warnings.catch_warnings():  # an old notebook's cells without ids: not the teacher's to read about
            warnings.simplefilter("ignore")
            submitted = read(path)
    except ConfigurationError as error:  # too large: the text says the size, the cap and what to do
        return [Row(name, NOTEBOOK_ROW, False, str(error).removeprefix(f"notebook {path}: "))]
    except UnicodeDecodeError:  # a notebook saved by an editor as GBK, cp1252 or UTF-16: not "not a notebook"
        if notebooks := zipped(path):  # unless it is a zip renamed .ipynb
            return [Row(name, NOTEBOOK_ROW, False, zipped_text(notebooks))]
        return [Row(name, NOTEBOOK_ROW, False, not_utf8_text(path))]
    except Exception as error:
        if type(error).__name__ == "NotJSONError" and _python_code(path):
            return [Row(name, NOTEBOOK_ROW, False, RENAMED_SCRIPT)]
        said = broken_json(error) or f"cannot be read ({unread_why(error)})"
        return [Row(name, NOTEBOOK_ROW, False, f"not a notebook: {said}")]
    expected = expected_exercises(path, submitted)
    if not expected and not any(
        c.get("cell_type") == "code" and str(c.get("source", "")).strip() for c in submitted.cells
    ):
        return [Row(name, NOTEBOOK_ROW, False, NO_EXERCISES)]
    before = install_state()
    executed, problem = _execute(path, seconds)
    if changed := install_changes(before, install_state()):
        raise ConfigurationError(INSTALL_CHANGED.format(notebook=name, changed=changed))
    notes = "; ".join(note for note in (other_language(submitted), problem) if note)
    rows = [Row(name, NOTEBOOK_ROW, False, notes)] if notes else []
    records, errors = results(executed) if executed is not None else ({}, {})
    known = {e.id for e in all_exercises()}
    checked = in_course_order(i for i in records if i not in expected and i in known)  # lost its tag, another week's
    reasons = no_result_reasons(expected + checked, executed, submitted)
    for ex_id in expected + checked:
        row = _row(name, ex_id, records.get(ex_id), errors.get(ex_id), reasons[ex_id])
        note = not_copied_note(row.feedback, path, BESIDE.get(path, ()))  # a file beside it, not copied
        rows.append(Row(name, ex_id, row.passed, row.feedback + note) if note else row)
    if not expected and not checked and not problem:
        rows.append(Row(name, NOTEBOOK_ROW, False, NO_EXERCISES))
    return rows


OTHER_LANGUAGE = (
    "its kernel is for {language} (kernelspec {kernel}), not Python: its cells were run as Python, as the course's are"
)
"""The notebook row of a notebook whose metadata names another language (`other_language`)."""


def other_language(notebook: nbformat.NotebookNode) -> str:
    """`OTHER_LANGUAGE` when the notebook's metadata says its kernel is for a language other than Python (an R or a
    Julia notebook handed in: its cells fail as Python, and the grade should say why), else "". A kernel of any name
    whose language is Python says nothing, nor does one that names no language (nothing is guessed from a name)."""
    metadata = notebook.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    spec, info = metadata.get("kernelspec"), metadata.get("language_info")
    spec, info = (spec if isinstance(spec, dict) else {}), (info if isinstance(info, dict) else {})
    language = spec.get("language") or info.get("name")
    if not isinstance(language, str) or not language.strip() or language.strip().lower().startswith("python"):
        return ""
    kernel = spec.get("name")
    return OTHER_LANGUAGE.format(
        language=repr(cut(language, 40)), kernel=repr(cut(kernel, 40)) if isinstance(kernel, str) else None
    )


def no_result_reasons(
    ids: Sequence[str], executed: nbformat.NotebookNode | None, submitted: nbformat.NotebookNode
) -> dict[str, str]:
    """Why each exercise of `ids` would have no check() result: the kernel died in its cell; its cell ran but no
    result came (`NO_CHECK`, `CHECK_REPLACED`); its cell is text (`NOT_CODE`); its cell is blank (`EMPTY`); its cell
    did not run (`NOT_RUN`);
    the notebook has no cell for it (`MISSING`)."""
    ran = ran_exercise_cells(executed) if executed is not None else set()
    calls = called_check(executed) if executed is not None else set()
    died = died_in(executed) if executed is not None else None
    hung = running_when_stopped(executed) if executed is not None else None
    text = text_exercise_cells(executed if executed is not None else submitted)
    blank = blank_exercise_cells(submitted)
    has = set(cell_exercises(submitted))
    reasons = {}
    for ex_id in ids:
        if ex_id == died:
            reasons[ex_id] = KERNEL_DIED
        elif ex_id == hung:
            reasons[ex_id] = STILL_RUNNING
        elif ex_id in ran:
            reasons[ex_id] = CHECK_REPLACED if ex_id in calls else NO_CHECK
        elif ex_id in text:
            reasons[ex_id] = NOT_CODE.format(kind=text[ex_id])
        elif ex_id in blank:
            reasons[ex_id] = EMPTY
        else:
            reasons[ex_id] = NOT_RUN if ex_id in has else MISSING
    return reasons


def running_when_stopped(executed: nbformat.NotebookNode) -> str | None:
    """The exercise of the cell that was running when the grader stopped the notebook from outside (its own time
    limit: a cell that swallowed the interrupt), or None. The worker saves the run after each cell that finished,
    so then its closing cell (`LAST_TAG`) never ran and no error says why: the cell that hung is the first code
    cell with code in it that did not run."""
    last = [c for c in executed.cells if LAST_TAG in cell_tags(c)]
    if executed.metadata.get("grade_error") or not last or last[-1].get("execution_count") is not None:
        return None
    for cell in executed.cells:
        if cell.get("cell_type") == "code" and cell.get("execution_count") is None and str(cell.get("source")).strip():
            return exercise_id(cell)
    return None


def text_exercise_cells(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """The exercises whose tagged cell is text — a markdown or raw cell (M pressed on the exercise cell) — and
    no code cell is tagged with, each with that cell's type."""
    code = {exercise_id(c) for c in notebook.cells if c.get("cell_type") == "code"}
    return {
        ex_id: str(c.get("cell_type"))
        for c in notebook.cells
        if c.get("cell_type") != "code" and (ex_id := exercise_id(c)) and ex_id not in code
    }


def blank_exercise_cells(notebook: nbformat.NotebookNode) -> set[str]:
    """The exercises whose tagged code cells are all blank (the learner emptied the starter) and that no other code
    cell checks (`CHECK_CALL`): nothing of theirs for the run to execute."""
    code = [c for c in notebook.cells if c.get("cell_type") == "code"]
    tagged = {ex_id for c in code if (ex_id := exercise_id(c))}
    written = {exercise_id(c) for c in code if str(c.get("source") or "").strip()}
    called = {i for c in code for i in CHECK_CALL.findall(str(c.get("source") or ""))}
    return tagged - written - called


def died_in(executed: nbformat.NotebookNode) -> str | None:
    """The exercise of the cell the kernel died in (the last code cell that started: the run stopped there), or
    None when it did not die, or died in a cell of no exercise."""
    if not str(executed.metadata.get("grade_error", "")).startswith("DeadKernelError"):
        return None
    started = [c for c in executed.cells if c.get("cell_type") == "code" and c.get("execution_count") is not None]
    return exercise_id(started[-1]) if started else None


def _row(name: str, ex_id: str, record: dict[str, Any] | None, error: str | None, why: str) -> Row:
    """One exercise's row: its last check record, else the error of its cell, else `why` there is none."""
    if record is not None:
        text = str(record.get("feedback", ""))
        passed = record.get("passed") is True and record.get("status") == "passed"  # as its feedback says it
        return Row(name, ex_id, passed, str(record["status"]) + (f": {text}" if text else ""))
    if error is not None:
        return Row(name, ex_id, False, error)
    return Row(name, ex_id, False, why)


def _execute(path: Path, seconds: int) -> tuple[nbformat.NotebookNode | None, str]:
    """Run the worker on a private copy (with the learner's files beside it, `BESIDE`); (executed notebook or None,
    problem or "").

    Each submission gets its own fresh folder: the kernel runs there, so nothing one notebook
    writes in its working directory (which is on `sys.path`) reaches another. The grader's own
    files (the executed notebook, the worker's log) are in a second temporary folder, neither that
    one nor its parent: a notebook that deletes its folder, the folder above or the files next to
    it (`shutil.rmtree(os.path.abspath(".."))`) cannot take the results of the cells before with it.

    The worker may run `notebook_limit_s` in all, and `cell_wait_s` between two finished cells (`_wait`)."""
    with (
        tempfile.TemporaryDirectory(prefix="toolkit-grade-", ignore_cleanup_errors=True) as own,
        tempfile.TemporaryDirectory(prefix="toolkit-submission-", ignore_cleanup_errors=True) as sandbox,
    ):
        folder = Path(own)
        out, log = folder / "executed.ipynb", folder / "worker.log"
        copy = private_copy(path, Path(sandbox), BESIDE.get(path, ()))
        cells = code_cells(copy)
        limit, quiet = notebook_limit_s(seconds, cells), cell_wait_s(seconds)
        command = _worker_command(copy, out, seconds)
        ipython = Path(sandbox) / "ipython"  # no startup file of the teacher's, or of a notebook graded before
        key = secrets.token_hex(32)  # this run's: the kernel seals its check records with it (`seal`)
        stopped = _run_worker(
            command,
            folder,
            log,
            limit,
            check_limit_s(seconds),
            ipython_dir=ipython,
            key=key,
            progress=out,
            quiet=quiet,
            forgive=clock.RUN_FORGIVES_S * (cells + 1),
        )
        executed = _read(out)
        if executed is not None:
            sealed_only(executed, key)
            hide_sandbox(executed, Path(sandbox))
        if stopped is not None:
            kept = "; results checked before that are kept" if executed is not None else ""
            if stopped == WHOLE:
                return executed, TIMED_OUT_WHOLE.format(
                    limit=limit,
                    cells="its 1 code cell" if cells == 1 else f"each of its {cells} code cells",
                    seconds=seconds,
                    allowance=START_ALLOWANCE_S,
                    kept=kept,
                )
            return executed, TIMED_OUT_CELL.format(quiet=quiet, seconds=seconds, kept=kept)
        if executed is None:
            return None, f"could not be executed: {sandbox_hidden(_last_line(log), Path(sandbox))}"
    return executed, _stopped_early(executed, seconds)


TIMED_OUT_WHOLE = (
    "timed out: still running after {limit} s (the notebook's limit: {seconds} s for {cells} and the closing one, "
    "and {allowance} s to start; a loaded host's wait for a CPU not counted), stopped{kept}"
)
"""The notebook's row when its worker ran out of `notebook_limit_s`."""
TIMED_OUT_CELL = (
    "timed out: no cell finished in {quiet} s (a cell ran past the {seconds} s limit and did not stop when "
    "interrupted; a loaded host's wait for a CPU not counted), stopped{kept}"
)
"""The notebook's row when no cell of it finished within `cell_wait_s` (a cell that caught its interrupt)."""


def code_cells(path: Path) -> int:
    """How many code cells of the notebook at `path` have code in them (the worker runs those; blank ones it
    skips); 0 when it cannot be read (the worker then says why)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cells = read(path).get("cells")
    except Exception:
        return 0
    if not isinstance(cells, list):
        return 0
    return len([c for c in cells if isinstance(c, dict) and c.get("cell_type") == "code" and _has_code(c)])


def _has_code(cell: Mapping[str, Any]) -> bool:
    source = cell.get("source")
    if isinstance(source, list):
        source = "".join(line for line in source if isinstance(line, str))
    return isinstance(source, str) and bool(source.strip())


def notebook_limit_s(seconds: int, cells: int) -> int:
    """The seconds a notebook's worker may run in all: `seconds` (a cell's limit) for each of its `cells` code
    cells and for the closing one the worker adds, and `START_ALLOWANCE_S` to start and stop. A notebook of many
    honest cells, each near the limit, runs to its end."""
    return START_ALLOWANCE_S + seconds * (cells + 1)


def cell_wait_s(seconds: int) -> int:
    """The seconds a notebook's worker may run without finishing a cell (its first one: starting the kernel
    too): a cell's limit, and `START_ALLOWANCE_S` for its interrupt to take effect. Past it the cell caught the
    interrupt and went on, and the notebook is stopped then, not when all its cells' time has gone."""
    return seconds + START_ALLOWANCE_S


NOTEBOOK_FOLDER = "<notebook folder>"
"""What the grades say for the kernel's working folder (the private copy's): its real name is a new temporary
one on every run."""
GRADING_FOLDER = "<grading folder>"
"""What the grades say for the rest of the submission's temporary folder (its IPython folder)."""


FORGED = (
    "not counted: this exercise's record was not made by check() in this run (the notebook's own code displayed, "
    "copied or built it)"
)
"""An exercise whose only check records carry no seal of this run (`toolkit.exercises.seal`)."""


def sealed_only(executed: nbformat.NotebookNode, key: str) -> None:
    """Each check record of the executed notebook (in place) as a dict without its seal when `key` seals it
    (`seal.verify`: check() made it in this run), else as a failed record marked `forged` that says so
    (`FORGED`): a record the notebook's code displayed, printed as data, copied from another run, or built with a
    check of its own. `results` never lets a forged record stand over a sealed one."""
    for cell in executed.cells:
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = output.get("data")
            record = parse_record(data.get(MIME)) if isinstance(data, dict) else None
            if record is None:
                continue
            if seal.verify(record, key):
                data[MIME] = {k: v for k, v in record.items() if k != "seal"}
            else:
                data[MIME] = {
                    "exercise": str(record.get("exercise")),
                    "status": "failed",
                    "passed": False,
                    "feedback": FORGED,
                    "forged": True,
                }


def hide_sandbox(executed: nbformat.NotebookNode, sandbox: Path) -> None:
    """The executed notebook's errors and check records (what the rows quote) with the submission's temporary
    folder named `NOTEBOOK_FOLDER` / `GRADING_FOLDER` (in place): a learner's error that names an absolute path
    (`os.getcwd()`, `os.path.abspath('rules.txt')`) otherwise put a new random name in the grades on every run."""
    for cell in executed.cells:
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            if output.get("output_type") == "error" and isinstance(output.get("evalue"), str):
                output["evalue"] = sandbox_hidden(output["evalue"], sandbox)
            record = output.get("data", {}).get(MIME)
            if isinstance(record, dict) and isinstance(record.get("feedback"), str):
                record["feedback"] = sandbox_hidden(record["feedback"], sandbox)
            elif isinstance(record, str):
                output["data"][MIME] = sandbox_hidden(record, sandbox, quoted=True)


def sandbox_hidden(text: str, sandbox: Path, *, quoted: bool = False) -> str:
    """`text` with the sandbox's work folder, then the sandbox itself, named as `hide_sandbox` says, under each of
    their spellings (as made, and with links resolved: macOS's /var is /private/var); `quoted`: as a JSON string
    writes them."""
    for folder, name in ((sandbox / "work", NOTEBOOK_FOLDER), (sandbox, GRADING_FOLDER)):
        for spelling in sorted({str(folder), os.path.realpath(folder)}, key=len, reverse=True):
            text = text.replace(json.dumps(spelling)[1:-1] if quoted else spelling, name)
    return text


def private_copy(path: Path, folder: Path, beside: Sequence[Path] = ()) -> Path:
    """A copy of the submission in `folder`/work, a folder of its own to run in, with the learner's files `beside`
    it (relative to its folder: `toolkit.exercises.beside`)."""
    work = folder / "work"
    work.mkdir()
    copy_beside(beside, path.parent, work)
    return Path(shutil.copyfile(path, work / path.name))


def _worker_command(copy: Path, out: Path, seconds: int) -> list[str]:
    worker = [sys.executable, "-m", "toolkit.exercises.worker"]
    return [*worker, str(copy), str(out), str(seconds), str(MEMORY_LIMIT_BYTES)]


def check_limit_s(seconds: int) -> int:
    """The seconds one check() may run in a submission: two thirds of a cell's limit (at most
    core's own 30 s), so a learner's endless loop fails its check and the cells after it still run,
    rather than the cell hitting its limit and stopping the notebook."""
    return max(1, seconds * 2 // 3)


def _run_worker(
    command: list[str],
    folder: Path,
    log: Path,
    limit: int,
    check_seconds: int = CHECK_LIMIT_S,
    *,
    ipython_dir: Path | None = None,
    key: str = "",
    progress: Path | None = None,
    quiet: float | None = None,
    forgive: float = clock.RUN_FORGIVES_S,
) -> str | None:
    """Run the worker in its own process group; None when it exited within `limit` seconds, and, when `quiet` is
    given, without `quiet` seconds passing in which the file at `progress` (the notebook it rewrites after each
    cell) stayed as it was (`_wait`); else the limit it ran out of (`WHOLE`, `QUIET`), and it is killed. The
    seconds are those the worker and its kernel had (`clock.Family`: the wall clock's, less up to `forgive` of
    their waiting for a CPU in all, and `clock.RUN_FORGIVES_S` between two finished cells), as a cell's limit
    counts them: on a loaded host a notebook is not stopped for time it never had.

    Its kernel reads its IPython profile from `ipython_dir` (`IPYTHONDIR`), a fresh folder, never the
    grading user's `~/.ipython`: a startup file there runs in every kernel, whether the teacher's
    (setting `LLM_API_KEY`: online again, with the key) or one a notebook graded before wrote.

    `key` (the run's seal, `toolkit.exercises.seal`) goes to the worker on its stdin, one line, and the pipe is closed:
    never in its arguments or environment, which the notebook's code could read (`/proc/self/environ`).

    Its output goes to a file, not a pipe: a pipe stays open while any process the notebook
    started (and detached) holds a copy, and reading it would wait for that process. On the
    deadline (or Ctrl-C) the group is killed — the worker and its kernel."""
    with open(log, "wb") as stderr:
        process = subprocess.Popen(
            command,
            cwd=folder,  # `python -m` puts the working directory on sys.path: never a submissions folder
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            start_new_session=True,
            env={
                **submission_environment(os.environ),
                LIMIT_VARIABLE: str(check_seconds),
                **({"IPYTHONDIR": str(ipython_dir)} if ipython_dir is not None else {}),
                # nor the user's Jupyter folder: a kernel spec named python3 a notebook put there would start the next
                **({"JUPYTER_DATA_DIR": str(ipython_dir.with_name("jupyter"))} if ipython_dir is not None else {}),
            },
        )
    _send_key(process, key)
    family = clock.Family(process.pid)
    whole = clock.Stopwatch(forgive=forgive, reading=family.waited)
    window = clock.Stopwatch(forgive=clock.RUN_FORGIVES_S, reading=family.waited)
    try:
        stopped = _wait(process, limit, progress, quiet, whole=whole, window=window)
    except BaseException:  # Ctrl-C (or anything else) while waiting: leave no worker or kernel running
        _kill(process)
        raise
    if stopped is not None:
        _kill(process)
    return stopped


WHOLE = "whole"
"""`_wait`'s answer when the notebook ran out of its whole limit (`notebook_limit_s`)."""
QUIET = "quiet"
"""`_wait`'s answer when no cell finished within `cell_wait_s`."""
SHORTEST_WAIT_S = 0.01
"""The shortest wait between two looks at the clocks, so the end of a limit counted on a `clock.Stopwatch` (which
runs slower than the wall clock while the host is loaded) is not looked for in ever shorter waits."""


def _wait(
    process: subprocess.Popen[bytes],
    limit: float,
    progress: Path | None = None,
    quiet: float | None = None,
    *,
    whole: clock.Stopwatch | None = None,
    window: clock.Stopwatch | None = None,
) -> str | None:
    """Wait for `process`: None when it exited within `limit` seconds of `whole` and (with `quiet`) before `quiet`
    seconds of `window` passed with the file at `progress` as it was (`window` counts again from each change);
    else the first limit reached, `WHOLE` or `QUIET` (not killed here). Both count wall time when not given. The
    clocks and the file are looked at every `POLL_S`; an exit is seen at once."""
    whole = whole or clock.Stopwatch(forgive=0.0, wall_only=True)
    window = window or clock.Stopwatch(forgive=0.0, wall_only=True)
    seen = _file_version(progress)
    watching = quiet is not None and progress is not None
    while True:
        spent = clock.elapsed(whole, window) if watching else clock.elapsed(whole)  # one reading of /proc a poll
        if (left := limit - spent[0]) <= 0:
            return WHOLE
        if quiet is not None and progress is not None:
            if (quiet_left := quiet - spent[1]) <= 0:
                return QUIET
            left = min(left, quiet_left)
        try:
            process.wait(timeout=max(SHORTEST_WAIT_S, min(left, POLL_S)))
        except subprocess.TimeoutExpired:
            if (version := _file_version(progress)) != seen:
                window, seen = window.again(), version
            continue
        return None


def _file_version(path: Path | None) -> tuple[int, int, int] | None:
    """Which version of the file at `path` is there: its inode, size and modification time (the worker replaces
    the file whole after each cell), or None when there is none."""
    try:
        found = os.stat(path) if path is not None else None
    except (OSError, ValueError):
        return None
    return None if found is None else (found.st_ino, found.st_size, found.st_mtime_ns)


def _send_key(process: subprocess.Popen[bytes], key: str) -> None:
    """`key` on the worker's stdin, then the pipe closed (a worker that is gone already reads nothing: no error)."""
    assert process.stdin is not None
    with contextlib.suppress(OSError):  # BrokenPipeError: the worker exited before reading it
        process.stdin.write(key.encode() + b"\n")
    with contextlib.suppress(OSError):
        process.stdin.close()


INSTALL_CHANGED = (
    "grade: {notebook} changed the installed course while it was graded ({changed}); the notebooks after it would "
    "be checked by that code, so grading stopped before its rows were written: reinstall the course "
    "(pip install --force-reinstall toolkit-course) and grade again — a user or container that cannot write to "
    "the install keeps a notebook from doing this"
)
"""The teacher's error when a submission changed `install_state`: its grade and every later one would be untrue."""


def install_roots() -> list[tuple[Path, bool]]:
    """What `install_state` looks at, each with whether its files below the top are looked at too: the grading
    toolkit's package (every file: the checks and their reference answers), the top of the folder it is in and
    of each of `site_folders` (a `.pth` file, `sitecustomize.py`, a module `toolkit` of its own that would be
    imported instead), and the kernel spec the kernels start from (`kernel_spec_folders`)."""
    package = Path(toolkit.__file__).resolve().parent
    tops = dict.fromkeys([toolkit_folder(), *site_folders()])
    return [(package, True), *((Path(folder), False) for folder in tops), *kernel_spec_folders()]


def kernel_spec_folders() -> list[tuple[Path, bool]]:
    """Each folder a `python3` kernel spec is looked for in (`jupyter_path`; the first found starts every kernel):
    a `kernel.json` a notebook writes there (a venv's `share/jupyter/kernels/python3`, which its user may write to)
    would start the kernels after it with a command of its own."""
    from jupyter_core.paths import jupyter_path

    return [(Path(folder) / KERNEL, True) for folder in jupyter_path("kernels")]


def install_state() -> dict[str, tuple[int, int, int]]:
    """Each file of `install_roots` (in a `__pycache__` folder, its compiled files only) with its size, modification
    and change times (the change time moves on every write and cannot be set back by a notebook): a digest to
    compare before and after a submission runs."""
    state: dict[str, tuple[int, int, int]] = {}
    for root, deep in install_roots():
        for path in _install_files(root, deep):
            with contextlib.suppress(OSError):
                found = os.stat(path, follow_symlinks=False)
                state[path] = (found.st_size, found.st_mtime_ns, found.st_ctime_ns)
    return state


IMPORTED = (*importlib.machinery.all_suffixes(), ".pth")
"""The endings of a file at the top of a folder on the path that Python imports or runs as it starts."""


def _install_files(root: Path, deep: bool) -> Iterator[str]:
    """The files under `root` (`deep`; in a `__pycache__` folder, the `.pyc` files Python reads there), or those at
    its top Python may import or run as it starts (`IMPORTED`; a package's `__init__.py`): a checkout's top, where
    the teacher may write the grades while a notebook runs, holds other files."""
    if not deep:
        with contextlib.suppress(OSError), os.scandir(root) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.is_dir():
                    yield os.path.join(entry.path, "__init__.py")
                elif entry.name.endswith(IMPORTED):
                    yield entry.path
        return
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(folders)
        cache = os.path.basename(folder) == "__pycache__"
        yield from (os.path.join(folder, name) for name in sorted(files) if not cache or name.endswith(".pyc"))


def install_changes(before: Mapping[str, tuple[int, int, int]], after: Mapping[str, tuple[int, int, int]]) -> str:
    """What differs between two `install_state`s, for `INSTALL_CHANGED` ("" when nothing does): the first three
    files, each with how (added, removed, changed), and how many more."""
    changes = [
        f"{path_text(Path(path))} {'added' if path not in before else 'removed' if path not in after else 'changed'}"
        for path in sorted(before.keys() | after.keys())
        if before.get(path) != after.get(path) and not compiled_as_its_source(path)
    ]
    more = f" and {len(changes) - 3} more" if len(changes) > 3 else ""
    return ", ".join(changes[:3]) + more


def compiled_as_its_source(path: str) -> bool:
    """Whether a changed file is a compiled module the kernels may write (any process compiles a module the first
    time it imports it) and load no other code from: gone (the source is read again), one Python does not load
    (another interpreter's, a stale or damaged header: it compiles the source instead), or its code the source's
    own, as `compile` makes it. False for any other file, and for one a kernel would load in place of its source
    with other code (planted by a notebook: its bytes over a header copied from the real one, or an unchecked
    hash-based file)."""
    if not path.endswith(".pyc") or os.path.basename(os.path.dirname(path)) != "__pycache__":
        return False
    try:
        source = importlib.util.source_from_cache(path)
    except ValueError:  # not named as this interpreter names its compiled files: never loaded here
        return True
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    loaded = _loaded_code(data, path, source)
    if loaded is None:
        return True
    try:
        return loaded == compile(Path(source).read_bytes(), source, "exec", dont_inherit=True, optimize=_level(path))
    except (OSError, SyntaxError, ValueError):  # no source left to compare with, or one that does not compile
        return False


def _loaded_code(data: bytes, path: str, source: str) -> Any:
    """The code object Python's source loader would take from the compiled file's bytes instead of compiling
    `source` (`importlib`'s own header checks), or None when it would compile the source."""
    from importlib import _bootstrap_external as external  # the loader's checks, so the rule is Python's own

    details = {"name": path, "path": path}
    try:
        flags = external._classify_pyc(data, path, details)  # type: ignore[attr-defined]
        if flags & 0b1:  # hash-based: checked against the source's hash only when it says so (a kernel's default)
            if flags & 0b10:
                source_hash = importlib.util.source_hash(Path(source).read_bytes())
                external._validate_hash_pyc(data, source_hash, path, details)  # type: ignore[attr-defined]
        else:
            found = os.stat(source)
            external._validate_timestamp_pyc(data, int(found.st_mtime), found.st_size, path, details)  # type: ignore[attr-defined]
        return marshal.loads(memoryview(data)[16:])
    except (ImportError, EOFError, OSError, ValueError, TypeError):
        return None


def _level(path: str) -> int:
    """The optimisation level a compiled file's name says it was made at (`.opt-1.pyc`: 1)."""
    tag = os.path.basename(path).rsplit(".", 2)[-2]
    return int(tag.removeprefix("opt-")) if tag.startswith("opt-") and tag[4:].isdigit() else 0


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the worker's process group and reap the worker (a killed process exits at once)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        process.wait(timeout=KILL_WAIT_S)
    except subprocess.TimeoutExpired:
        pass


def _read(out: Path) -> nbformat.NotebookNode | None:
    """The notebook the worker wrote (after its last finished cell), or None if there is none."""
    try:
        return nbformat.read(out, as_version=4)
    except Exception:  # not written, or not a notebook
        return None


def _last_line(log: Path) -> str:
    """The last line the worker (or its kernel) wrote to stderr, from the end of the file only."""
    try:
        with open(log, "rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - 4096))
            lines = f.read().decode(errors="replace").strip().splitlines()
    except OSError:
        lines = []
    return (lines[-1:] or ["no output"])[0][:200]


def _stopped_early(executed: nbformat.NotebookNode, seconds: int) -> str:
    """Why the worker stopped before the last cell, or "" when it ran them all."""
    error = str(executed.metadata.get("grade_error", ""))
    if error.startswith("CellTimeoutError"):
        return f"a cell ran longer than {seconds} s and was stopped; the cells after it did not run"
    if error:
        return f"execution stopped early: {error}"
    if any(cell.get("metadata", {}).get(TIMED_OUT) is True for cell in executed.cells):
        return f"a cell ran longer than {seconds} s and was stopped; the cells after it still ran"
    return ""


def grade_paths(paths: PathLike | Iterable[PathLike], seconds: int = 120) -> list[Row]:
    """The rows of every notebook `find_notebooks` finds in `paths` (files and folders, as `Path`s or
    text; one path alone too), graded one after another (`grade_each`)."""
    return [row for graded in grade_each(find_notebooks(paths), seconds) for row in graded]


SUBMISSION_CHANGED = (
    "grade: {notebook} changed {changed}, to be graded after it, while it was graded; grading stopped before its "
    "rows were written: put the submissions back as they were handed in and grade again — a user or container "
    "that cannot write to them keeps a notebook from doing this"
)
"""The teacher's error when a notebook's code wrote to a submission still to grade (by its absolute path)."""


def grade_each(notebooks: Sequence[Path], seconds: int) -> Iterator[list[Row]]:
    """Each notebook's rows (`grade_notebook`, with the learner's files beside it: `beside.files_beside`), one after
    another; a notebook whose code changed a file still to be graded (overwrote another learner's notebook with its own
    answers, or a module copied with it, by its absolute path) stops the run with `SUBMISSION_CHANGED`, its rows left
    out."""
    beside = {path: files_beside(path) for path in notebooks}
    handed_in = {path: _handed_in_state(path, beside[path]) for path in notebooks}
    for n, path in enumerate(notebooks):
        BESIDE.clear()
        BESIDE[path] = beside[path]
        try:
            graded = grade_notebook(path, seconds)
        finally:
            BESIDE.clear()
        if changed := [
            later for later in notebooks[n + 1 :] if _handed_in_state(later, beside[later]) != handed_in[later]
        ]:
            raise ConfigurationError(
                SUBMISSION_CHANGED.format(notebook=path_text(path), changed=", ".join(map(path_text, changed)))
            )
        yield graded


BESIDE: dict[Path, Sequence[Path]] = {}
"""The files copied with the notebook `grade_each` grades now (`beside.files_beside`, relative to its folder): none
for a notebook graded alone (`grade_notebook`)."""


def _handed_in_state(path: Path, beside: Sequence[Path]) -> list[tuple[int, int, int] | None]:
    """The state (`file_state`) of a submission and of the files copied with it."""
    return [file_state(path), *(file_state(path.parent / relative) for relative in beside)]


def file_state(path: Path) -> tuple[int, int, int] | None:
    """The file's size, modification and change times (None when there is none to read): as `install_state`."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    return (found.st_size, found.st_mtime_ns, found.st_ctime_ns)


HEADER = ["notebook", "exercise", "passed", "feedback"]


def partial_path(out: Path) -> Path:
    """The file the CSV is written to before it replaces `out`: next to it, so the rename is atomic."""
    return out.with_name(out.name + ".partial")


@contextmanager
def _csv_file(out: Path | TextIO, header: list[str] | None = HEADER) -> Iterator[tuple[Any, Any]]:
    """A CSV writer (the header written) and its file, for the rows of `out` (its folder made).

    They go to `partial_path(out)`, which replaces `out` when the block ends, however it ends —
    done, Ctrl-C or an error — with the rows written so far, unless writing them failed (a full
    disk: the partial file is then removed and `out` kept as it was); a run killed hard (SIGKILL, power
    loss) never gets there and leaves `out` as it was (last week's grades), plus the partial file
    with the rows graded before, which the next run overwrites. The partial file is held by its run until
    renamed: a second run given the same `out` meanwhile is refused before it grades anything
    (`toolkit.exercises.partial_file.BUSY`), so neither run's rows are lost or mixed; and `out` itself is held
    (`csv_lock.locked`) from the start to the rename, so a `--update` ending meanwhile waits and merges its rows into
    this run's, not into the CSV this run then replaces. A link is followed (the file it
    names is replaced, keeping its permissions). Where `out` is no regular file (`/dev/stdout`, a
    pipe: nothing there to lose) or no file can be put next to it (a folder this user may not add
    to), the rows are written to `out` itself, as they come; so they are to an open stream (stdout:
    the command's `--out -`)."""
    if not isinstance(out, Path):
        writer = csv.writer(out)
        if header:
            writer.writerow(header)
        yield writer, out
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    target = Path(os.path.realpath(out))
    opened = None if out.exists() and not out.is_file() else _open_partial(partial_path(target), out)
    partial, hold = opened or (None, -1)
    sink = _Watched(partial) if partial is not None else None
    with contextlib.ExitStack() as held:  # undone last to first
        if partial is not None and sink is not None:
            held.callback(os.close, hold)  # held until renamed: a run started now takes a file of its own
            held.enter_context(partial)
            held.enter_context(locked(target))  # an update ending meanwhile merges into this run's rows, not before
            held.callback(lambda: _replace_or_drop(target, partial_path(target), whole=not sink.failed))
        try:
            with partial or _open_csv(out) as f:
                writer = csv.writer(sink or f)
                if header:
                    writer.writerow(header)
                try:
                    yield writer, sink or f
                finally:
                    if sink is not None:
                        sink.flush()
                        os.fsync(f.fileno())  # on disk before the rename: power lost after it leaves the rows
        except OSError as exc:
            if sink is not None and sink.failed and exc.filename is None:  # say which file was not written
                exc.filename = str(out)
            raise


class _Watched:
    """The partial file, noting whether a write or a flush to it failed (a full disk): its rows are
    then not whole, and it must not replace the CSV."""

    def __init__(self, file: TextIO) -> None:
        self.file = file
        self.failed = False

    def write(self, text: str) -> int:
        try:
            return self.file.write(text)
        except OSError:
            self.failed = True
            raise

    def flush(self) -> None:
        try:
            self.file.flush()
        except OSError:
            self.failed = True
            raise


def _replace_or_drop(target: Path, partial: Path, *, whole: bool) -> None:
    """`partial` in place of `target` when its rows are whole; else removed, `target` left as it was
    (a full disk cut a row in half: last week's grades are kept, not replaced by part of a run)."""
    if not whole:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        return
    with contextlib.suppress(OSError):  # the permissions of the file replaced (a teacher's 0600 grades stay private)
        keep_mode(target, partial)
    os.replace(partial, target)


def _open_csv(path: Path) -> TextIO:
    """`path` opened for the CSV: a file after a byte-order mark for Excel, a pipe without one
    (`toolkit.course.spreadsheet.csv_encoding`)."""
    return open(path, "w", newline="", encoding=csv_encoding(path), errors="backslashreplace")


def _open_partial(path: Path, out: Path) -> tuple[TextIO, int] | None:
    """`path` opened afresh and held by this run (`toolkit.exercises.partial_file`: a stray one from a killed run is
    taken over, never written through a link), or None when this folder takes no new file; `BlockingIOError` naming
    `out` when another run is writing it now."""
    return open_held(path, out, encoding=csv_encoding(path))


def write_csv(rows: Sequence[Row], out: Path | str) -> Path:
    out = Path(out)
    with _csv_file(out) as (writer, _):
        for r in rows:
            writer.writerow(_csv_row(r))
    return out


def grade_into_csv(notebooks: Sequence[Path], out: Path | str | TextIO, seconds: int, rows: list[Row]) -> Path | TextIO:
    """Grade each notebook and write its rows at once (to the partial file that replaces the CSV at
    the end, `_csv_file`), appending them to `rows` too: a run stopped half-way (Ctrl-C after an
    hour, a crash) leaves every notebook graded before in the CSV, and in `rows` for the caller's
    summary; one killed hard leaves the CSV as it was before the run. `out` may be an open stream too
    (stdout), written as the rows come."""
    out = Path(out) if isinstance(out, (str, os.PathLike)) else out
    with _csv_file(out) as (writer, f):
        for graded in grade_each(notebooks, seconds):
            writer.writerows(_csv_row(r) for r in graded)
            f.flush()
            rows += graded
    return out


def _csv_row(r: Row) -> list[Any]:
    return [as_text(r.notebook), as_text(r.exercise), int(r.passed), as_text(r.feedback)]


def summary(rows: Sequence[Row]) -> str:
    """One line per notebook: exercises passed out of exercises, and any notebook-level problem."""
    by_notebook: dict[str, list[Row]] = {}
    for r in rows:
        by_notebook.setdefault(r.notebook, []).append(r)
    width = max((columns(n) for n in by_notebook), default=8)
    lines = [f"{padded('notebook', width)}  passed  note"]
    for notebook, group in by_notebook.items():
        graded = [r for r in group if r.exercise != NOTEBOOK_ROW]
        note = next((r.feedback for r in group if r.exercise == NOTEBOOK_ROW), "")
        score = f"{sum(r.passed for r in graded)}/{len(graded)}" if graded else "—"
        lines.append(f"{padded(notebook, width)}  {score:>6}  {note}")
    graded = [r for r in rows if r.exercise != NOTEBOOK_ROW]
    lines.append(f"{padded('total', width)}  {sum(r.passed for r in graded):>3}/{len(graded)}")
    return "\n".join(lines)


OTHER_WEEK = "other"
"""The week column of an exercise id the course does not know and that names no week (a tag from an older copy)."""


def exercise_week(ex_id: str) -> str:
    """The week column of an exercise (`w6`): the registry's week, else the one its id starts with (`w6.…`), else
    `OTHER_WEEK`."""
    week = {e.id: e.week for e in all_exercises()}.get(ex_id)
    if week is None and (named := re.match(r"w(\d+)\.", ex_id)):
        week = int(named.group(1))
    return OTHER_WEEK if week is None else f"w{week}"


def learners(notebooks: Iterable[str], rows: Iterable[Row] = ()) -> dict[str, str]:
    """Each notebook's learner: the first folder below the folder all the notebooks are in (`alice` for
    `submissions/alice/06_….ipynb` beside `submissions/bob/…`); a notebook in that folder itself is a learner of its
    own (its file name). A folder whose subfolders hand in the same exercise (in `rows`) from two of them is no one
    learner but a class (`class-a/alice/…` beside `class-a/bob/…`): each subfolder is one, named by its path
    (`class-a/alice`) — a learner's own subfolders (one per week) hand in each exercise from one of them. Notebooks
    all in one folder under the course's own names (`one_learners_folder`: `toolkit grade submissions/alice`) are
    that folder's learner (`alice`), as are her scratch notebooks beside them (`Untitled.ipynb`: graded "no exercises
    found", no one's submission, as `beside.own_folder` reads it). A name is given with its accents composed
    (`_composed`: one learner whatever the system that unpacked her folder)."""
    parts = {n: Path(os.path.abspath(n)).parts for n in notebooks}
    folders = [p[:-1] for p in parts.values()]
    shared = len(os.path.commonprefix(folders)) if folders else 0
    done: dict[str, set[str]] = {}
    scratch: set[str] = set()
    for r in rows:
        if r.exercise != NOTEBOOK_ROW:
            done.setdefault(r.notebook, set()).add(r.exercise)
        elif r.feedback == NO_EXERCISES:
            scratch.add(r.notebook)
    if one_learners_folder([p for n, p in parts.items() if n in done or n not in scratch], shared):
        return {n: _composed(parts[n][shared - 1]) for n in parts}
    who: dict[str, str] = {}
    _assign(list(parts), parts, shared, "", done, who)
    return {n: _composed(name) for n, name in who.items()}


def _composed(name: str) -> str:
    """A learner's name with its accents composed (NFC): `José/` unzipped from a Mac's archive (`e` and a combining
    accent) and `José/` made on Windows are two folders on Linux but one learner, one line of the scores."""
    return unicodedata.normalize("NFC", name)


def one_learners_folder(parts: Collection[tuple[str, ...]], shared: int) -> bool:
    """Whether the notebooks (their paths' `parts`) are all in the folder of the first `shared` parts, each under a
    course notebook's own name or a copy's (`course_copy_week`: `Copy of 06_….ipynb`, as Colab downloads it), one a
    week: one learner's folder graded alone. A folder of learners' files names them (`alice.ipynb`,
    `alice-06_….ipynb`), or holds one week's notebook more than once (`06_….ipynb` beside `06_… (1).ipynb`, as a
    download of everyone's file into one folder does; `06_X` beside `06_x` on Linux): each is a learner of its own."""
    weeks = [course_copy_week(p[-1]) for p in parts if len(p) == shared + 1]
    return 0 < shared and 0 < len(weeks) == len(parts) and None not in weeks and len(set(weeks)) == len(weeks)


def _assign(
    group: list[str],
    parts: dict[str, tuple[str, ...]],
    depth: int,
    prefix: str,
    done: dict[str, set[str]],
    who: dict[str, str],
) -> None:
    """`who` for the notebooks of `group`, which share their first `depth` path parts: by the part at `depth`,
    one level deeper where that folder's subfolders hand in the same exercise twice (`learners`)."""
    by_part: dict[str, list[str]] = {}
    for n in group:
        by_part.setdefault(parts[n][depth], []).append(n)
    for part, members in by_part.items():
        below = [n for n in members if len(parts[n]) > depth + 2]  # in a subfolder of `part`
        if _handed_in_twice(below, parts, depth + 1, done):
            _assign(below, parts, depth + 1, f"{prefix}{part}/", done, who)
            members = [n for n in members if n not in below]
        for n in members:
            who[n] = prefix + part


def _handed_in_twice(
    group: list[str], parts: dict[str, tuple[str, ...]], depth: int, done: dict[str, set[str]]
) -> bool:
    """Whether two different folders at `depth` hold notebooks of `group` graded on the same exercise."""
    where: dict[str, str] = {}
    for n in group:
        for exercise in done.get(n, ()):
            if where.setdefault(exercise, parts[n][depth]) != parts[n][depth]:
                return True
    return False


def week_scores(rows: Sequence[Row]) -> list[list[Any]]:
    """The per-week table: a header (`learner`, each week graded in course order, `total`, `graded`), then one
    line per learner in name order (`name_order`), with the exercises they passed in each week, the total (the weeks' sum) and how
    many exercises they were graded on. An exercise counts once for a learner: passed if any of their notebooks
    passed it (one handed in twice, as `06_….ipynb` and `Copy of 06_….ipynb`, is not counted twice); a learner
    whose notebook had no exercise graded (not a notebook, empty) has a line of zeros."""
    who = learners(dict.fromkeys(r.notebook for r in rows), rows)
    passed: dict[str, dict[str, bool]] = {learner: {} for learner in sorted(set(who.values()), key=name_order)}
    for r in rows:
        if r.exercise != NOTEBOOK_ROW:
            done = passed[who[r.notebook]]
            done[r.exercise] = done.get(r.exercise, False) or r.passed
    week_of = {i: exercise_week(i) for i in dict.fromkeys(r.exercise for r in rows if r.exercise != NOTEBOOK_ROW)}
    weeks = sorted(set(week_of.values()), key=_week_order)
    table: list[list[Any]] = [["learner", *weeks, "total", "graded"]]
    for learner, done in passed.items():
        counts = [sum(ok for i, ok in done.items() if week_of[i] == week) for week in weeks]
        table.append([learner, *counts, sum(counts), len(done)])
    return table


def _week_order(week: str) -> tuple[int, int]:
    return (1, 0) if week == OTHER_WEEK else (0, int(week[1:]))


def write_scores(rows: Sequence[Row], out: Path | str | TextIO) -> Path | TextIO:
    """`week_scores` as a CSV file (after a byte-order mark, as the grades; replaced whole), or to an open stream."""
    out = Path(out) if isinstance(out, (str, os.PathLike)) else out
    with _csv_file(out, header=None) as (writer, _):
        writer.writerows([as_text(cell) for cell in line] for line in week_scores(rows))
    return out
