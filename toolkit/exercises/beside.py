"""The files a learner handed in beside a notebook, copied with it into the folder `toolkit grade` runs it in.

A learner's notebook may import a module of theirs (`from my_helpers import keep`) or read a file (`answers.json`)
from its own folder: it passed in the notebook, and graded on a copy of the notebook alone it failed with
`ModuleNotFoundError` — another score in `toolkit grade` than in the notebook. So the files of the notebook's folder
are copied with it, when that folder is one learner's (`own_folder`): the notebooks in it, as it is on disk, are
named as the course's (or copies of them), one a week (`submissions/alice/` with `06_….ipynb` and `helpers.py`), or
there is only one; a scratch notebook beside them (`Untitled.ipynb`, notes of the learner's own: one in which `grade`
finds no exercise, `scratch_notebook`) is no one's submission and counts for neither. A folder of several learners' notebooks (`alice.ipynb` beside `bob.ipynb`, or `06_….ipynb` beside
`06_… (1).ipynb`) is not: there, a file beside a notebook may be another learner's, and none is copied. The folder is
read as it is, not as the run's list: a learner regraded alone (`grade submissions/alice.ipynb --update`) is graded
with what the class's run gave them.

What is copied (`files_beside`): the folder's regular files and the folders below it, as they were handed in, except
notebooks (each is graded on its own), links (they point outside), hidden names (`.git`, `.venv`,
`.ipynb_checkpoints`), `__pycache__` and `__MACOSX`, a folder below that holds a notebook (a submission of its own;
a scratch notebook there is none),
and `toolkit` (a module or a folder of that name there would be imported instead of the course's package, and its
checks); at most `BESIDE_FILES` files and `BESIDE_BYTES` bytes, in path order (a file that would pass either is left out), and
nothing where the folder holds more than `BESIDE_VISITS` entries.

Where a folder is not one learner's, a cell that failed for a module or a file there (`ModuleNotFoundError`,
`FileNotFoundError`) has its row say so (`not_copied_note`).

Leaves out: a file the notebook reads from elsewhere (`../data.csv`, an absolute path): a graded notebook sees only
its own folder's.
"""

from __future__ import annotations

import functools
import importlib.machinery
import os
import re
import shutil
import stat
import unicodedata
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

from toolkit.exercises.catalog import course_copy_week, week_of_notebook
from toolkit.exercises.notebook import cell_exercises
from toolkit.exercises.notebook_file import read

BESIDE_FILES = 200
"""Files at most copied beside one notebook."""
BESIDE_VISITS = 5000
"""Entries of the folder (and those below it) looked at, at most: past them, nothing is copied (a folder that holds a
whole virtual environment is no learner's helper module)."""
BESIDE_BYTES = 32 * 1024 * 1024
"""Bytes at most copied beside one notebook (the notebook's own cap: a data file larger is not a course's)."""
LEFT_OUT = frozenset({"__pycache__", "__MACOSX", "toolkit"})
"""Names never copied (besides hidden ones and notebooks): compiled files, a Mac zip's metadata, and `toolkit`, which
would stand in for the course's package (as would a module of that name: `_imported_as_toolkit`)."""


def own_folder(folder: Path) -> bool:
    """Whether `folder` is one learner's: the notebooks in it (as it is on disk, not only those graded now, so a
    learner regraded alone gets what the class's run gave them) are named as course notebooks or copies of one, one a
    week — or there is only one. A scratch notebook (`scratch_notebook`: `Untitled.ipynb`, notes of their own) is no
    one's submission, so it does not make the folder a class's."""
    try:
        names = [e.name for e in os.scandir(folder) if _is_notebook(e.name) and e.is_file(follow_symlinks=False)]
    except OSError:
        return False
    if len(names) <= 1:
        return True
    weeks = [course_copy_week(name) for name in names]
    course = [week for week in weeks if week is not None]
    if len(set(course)) < len(course):  # one week twice: two learners' downloads
        return False
    room = 0 if course else 1  # notebooks of other names a learner's folder may hold beside: one alone
    for name, week in zip(names, weeks):  # read only as far as needed: a class's folder stops at its second
        if week is None and not scratch_notebook(folder / name):
            room -= 1
            if room < 0:
                return False
    return True


def scratch_notebook(path: Path) -> bool:
    """Whether the notebook at `path` is a learner's scratch, no one's submission: a notebook of any name but the
    course's (or a copy's) that `toolkit grade` finds no exercise in (no cell tagged with one, no check() of the
    course's called, no week in its name): what its row calls "no exercises found". One that cannot be read is a
    submission (its row says why). Each file is read once while it stays as it is (a folder's scratch notebook is
    asked about for each notebook graded beside it)."""
    try:
        found = os.stat(path)
    except OSError:
        return False
    return _scratch(os.path.abspath(path), (found.st_ino, found.st_mtime_ns, found.st_ctime_ns, found.st_size))


@functools.lru_cache(maxsize=256)
def _scratch(path: str, version: tuple[int, int, int, int]) -> bool:
    """`scratch_notebook` of the file at `path` as it is in that `version` (inode, times, size)."""
    if week_of_notebook(os.path.basename(path)) is not None:  # grade expects the week's exercises of it
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            notebook = read(Path(path))
        return not cell_exercises(notebook)
    except Exception:  # anything nbformat or the file raises: a notebook grade calls unreadable, someone's
        return False


def files_beside(path: Path) -> list[Path]:
    """The files to copy with the notebook at `path` (relative to its folder), none where the folder is not one
    learner's (`own_folder`)."""
    folder = _absolute(path).parent
    if not own_folder(folder):
        return []
    chosen: list[Path] = []
    size = 0
    for found in _files(folder, [BESIDE_VISITS], top=True) or []:
        if len(chosen) == BESIDE_FILES:
            break
        try:
            length = found.lstat().st_size
        except OSError:
            continue
        if size + length <= BESIDE_BYTES:
            chosen.append(found.relative_to(folder))
            size += length
    return chosen


def copy_beside(files: Iterable[Path], source: Path, work: Path) -> None:
    """Copy `files` (relative to `source`, the notebook's folder) into `work`; one that is gone or unreadable now is
    left out, as is one whose path ran through a link since (`files_beside` took none). A name whose accents are
    decomposed (`données.csv` as an older Mac writes it: `e` and a combining accent) is also copied under its composed
    name (NFC), as a keyboard types it in the learner's code, unless a file of that name is there too: a Mac finds
    either spelling, Linux only the one on disk."""
    for relative in files:
        steps = [source / Path(*relative.parts[: i + 1]) for i in range(len(relative.parts))]
        target = work / relative
        try:
            if any(step.is_symlink() for step in steps):
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(steps[-1], target)
            composed = work / unicodedata.normalize("NFC", str(relative))
            if composed != target and not os.path.lexists(composed):  # the file of that name, copied or to come, wins
                composed.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(target, composed)
        except OSError:
            continue


def _files(folder: Path, budget: list[int], top: bool = False) -> list[Path] | None:
    """The regular files below `folder` in path order, without the names left out; None for a folder below the top
    that holds a notebook at any depth (another week's, or another learner's: a submission of its own; not a scratch
    notebook, `scratch_notebook`, beside the learner's own module in `lib/`), or once
    `budget` (entries looked at) has run out (a folder of a virtual environment's thousands of files)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    found: list[Path] = []
    for entry in entries:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        name = entry.name
        if name.startswith(".") or name in LEFT_OUT or _imported_as_toolkit(name):
            continue
        try:
            mode = entry.stat(follow_symlinks=False).st_mode
        except OSError:
            continue
        if stat.S_ISDIR(mode):
            below = _files(Path(entry.path), budget)
            if below is None and (budget[0] < 0 or not top):  # out of budget, or a notebook somewhere below
                return None
            found += below or []
        elif stat.S_ISREG(mode) and _is_notebook(name):
            if not top and not scratch_notebook(Path(entry.path)):
                return None
        elif stat.S_ISREG(mode):
            found.append(Path(entry.path))
    return found


def _imported_as_toolkit(name: str) -> bool:
    """Whether `import toolkit` would load the file `name` instead of the course's package: that stem with a suffix
    Python imports (`.py`, `.pyc`, an extension module's `.so`); with `.json` or `.csv` it is a learner's data."""
    stem, dot, suffix = name.partition(".")
    return stem == "toolkit" and dot + suffix in importlib.machinery.all_suffixes()


def _is_notebook(name: str) -> bool:
    return name.lower().endswith(".ipynb") and not name.startswith("._")


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


NOT_COPIED = (
    " — {name} is beside the notebook but was not graded with it (nothing of a folder that holds other learners' "
    "notebooks is, nor more than {files} files or {mib} MiB): put that code in the notebook, or hand in each "
    "learner's files in a folder of their own"
)
"""Added to the row of a cell that failed for a file beside the notebook that was not copied (`not_copied_note`); one
copied but read under another letter case gets `NAMED_OTHERWISE`."""
_MISSING = re.compile(
    r"(?:the cell|your code) raised (?:ModuleNotFoundError: No module named '(?P<module>[^'.]+)|"
    r"FileNotFoundError: \[Errno \d+\] No such file or directory: '(?P<file>[^']+)')"
)


def not_copied_note(feedback: str, notebook: Path, copied: Sequence[Path]) -> str:
    """`NOT_COPIED` when `feedback` (an exercise row's) says its cell found no module or file that is there beside
    the notebook but was not copied with it (`copied`: `files_beside`), `NAMED_OTHERWISE` when the file it read is
    there under another letter case (as a Mac or Windows finds it), else "": the teacher and the learner read why the
    notebook that ran for them failed here."""
    found = _MISSING.search(feedback)
    if found is None:
        return ""
    folder = _absolute(notebook).parent
    if found.group("module"):
        names = [found.group("module") + ".py", found.group("module")]
    else:
        names = [found.group("file")]
    for name in names:
        relative = Path(name)
        if relative.is_absolute() or ".." in relative.parts or relative in copied:
            continue
        try:
            there = (folder / relative).exists()
            named = None if there or found.group("module") else _named_otherwise(folder, relative)
        except (OSError, ValueError):
            continue
        if named is not None and named in copied:
            return NAMED_OTHERWISE.format(name=named.as_posix())
        if there or named is not None:
            shown = name if named is None else named.as_posix()
            return NOT_COPIED.format(name=shown, files=BESIDE_FILES, mib=BESIDE_BYTES // (1024 * 1024))
    return ""


NAMED_OTHERWISE = (
    " — the file handed in is named {name}: a Mac or Windows finds it however its letter case is written, Linux (where "
    "it was graded) only as it is named; write the name in the code as it is"
)
"""Added to the row of a cell that failed for a file beside the notebook that is there under another letter case
(`Data.csv` read, `data.csv` handed in): it passed on the learner's Mac or Windows (`not_copied_note`)."""


def _named_otherwise(folder: Path, relative: Path) -> Path | None:
    """The path (relative to `folder`) of the file `relative` names with its letters in another case or its accents
    written otherwise (the first such entry in name order at each step), or None."""
    found: list[str] = []
    here = folder
    for part in relative.parts:
        wanted = unicodedata.normalize("NFC", part).casefold()
        names = sorted(os.listdir(here))
        match = next((n for n in names if unicodedata.normalize("NFC", n).casefold() == wanted), None)
        if match is None:
            return None
        found.append(match)
        here = here / match
    return Path(*found) if here.is_file() and found != list(relative.parts) else None
