"""The files a learner handed in beside a notebook, copied with it into the folder `toolkit grade` runs it in.

A learner's notebook may import a module of theirs (`from my_helpers import keep`) or read a file (`answers.json`)
from its own folder: it passed in the notebook, and graded on a copy of the notebook alone it failed with
`ModuleNotFoundError` — another score in `toolkit grade` than in the notebook. So the files of the notebook's folder
are copied with it, when that folder is one learner's (`own_folder`): it holds no other submission than notebooks
under the course's own names (or a copy's), one a week (`submissions/alice/` with `06_….ipynb` and `helpers.py`), or
this notebook alone. A folder of several learners' files (`alice.ipynb` beside `bob.ipynb`, or `06_….ipynb` beside
`06_… (1).ipynb`) is not: there, a file beside a notebook may be another learner's, and none is copied.

What is copied (`files_beside`): the folder's regular files and the folders below it, as they were handed in, except
notebooks (each is graded on its own), links (they point outside), hidden names (`.git`, `.venv`,
`.ipynb_checkpoints`), `__pycache__` and `__MACOSX`, a folder that holds a submission of this run, and `toolkit` (a
`toolkit.py` or `toolkit/` there would be imported instead of the course's package, and its checks); at most
`BESIDE_FILES` files and `BESIDE_BYTES` bytes, in path order (a file that would pass either is left out).

Where a folder is not one learner's, a cell that failed for a module or a file there (`ModuleNotFoundError`,
`FileNotFoundError`) has its row say so (`not_copied_note`).

Leaves out: a file the notebook reads from elsewhere (`../data.csv`, an absolute path): a graded notebook sees only
its own folder's.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from toolkit.exercises.catalog import course_copy_week

BESIDE_FILES = 200
"""Files at most copied beside one notebook."""
BESIDE_BYTES = 32 * 1024 * 1024
"""Bytes at most copied beside one notebook (the notebook's own cap: a data file larger is not a course's)."""
LEFT_OUT = frozenset({"__pycache__", "__MACOSX", "toolkit"})
"""Names never copied (besides hidden ones and notebooks): compiled files, a Mac zip's metadata, and `toolkit`, which
would stand in for the course's package."""


def own_folder(path: Path, submissions: Iterable[Path]) -> bool:
    """Whether `path`'s folder is one learner's: every submission of the run in it (the notebook itself included) is
    named as a course notebook or a copy of one, one a week — or the notebook is the only one there."""
    folder = _absolute(path).parent
    here = {_absolute(p) for p in submissions if _absolute(p).parent == folder} | {_absolute(path)}
    if len(here) == 1:
        return True
    weeks = [course_copy_week(p.name) for p in here]
    return None not in weeks and len(set(weeks)) == len(weeks)


def files_beside(path: Path, submissions: Sequence[Path]) -> list[Path]:
    """The files to copy with the notebook at `path` (relative to its folder), none where the folder is not one
    learner's (`own_folder`)."""
    if not own_folder(path, submissions):
        return []
    folder = _absolute(path).parent
    taken = {folder / part for p in submissions if _inside(_absolute(p), folder) for part in _folders_to(p, folder)}
    chosen: list[Path] = []
    size = 0
    for found in _walk(folder, taken):
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
    left out, as is one whose path ran through a link since (`files_beside` took none)."""
    for relative in files:
        steps = [source / Path(*relative.parts[: i + 1]) for i in range(len(relative.parts))]
        target = work / relative
        try:
            if any(step.is_symlink() for step in steps):
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(steps[-1], target)
        except OSError:
            continue


def _walk(folder: Path, taken: set[Path]) -> Iterator[Path]:
    """The regular files below `folder` in path order, without the names left out and the folders in `taken`."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if name.startswith(".") or name in LEFT_OUT or name.split(".")[0] == "toolkit":
            continue
        try:
            mode = entry.stat(follow_symlinks=False).st_mode
        except OSError:
            continue
        path = Path(entry.path)
        if stat.S_ISDIR(mode) and path not in taken:
            yield from _walk(path, taken)
        elif stat.S_ISREG(mode) and not name.lower().endswith(".ipynb"):
            yield path


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


def _inside(path: Path, folder: Path) -> bool:
    return folder in path.parents


def _folders_to(path: Path, folder: Path) -> list[Path]:
    """The folders between `folder` and the submission at `path` (relative to `folder`): none of them is copied."""
    parts = _absolute(path).relative_to(folder).parts[:-1]
    return [Path(*parts[: i + 1]) for i in range(len(parts))]


NOT_COPIED = (
    " — {name} is beside the notebook but was not graded with it (nothing of a folder that holds other learners' "
    "notebooks is, nor more than {files} files or {mib} MiB): put that code in the notebook, or hand in each "
    "learner's files in a folder of their own"
)
"""Added to the row of a cell that failed for a file beside the notebook that was not copied (`not_copied_note`)."""
_MISSING = re.compile(
    r"(?:the cell|your code) raised (?:ModuleNotFoundError: No module named '(?P<module>[^'.]+)|"
    r"FileNotFoundError: \[Errno \d+\] No such file or directory: '(?P<file>[^']+)')"
)


def not_copied_note(feedback: str, notebook: Path, copied: Sequence[Path]) -> str:
    """`NOT_COPIED` when `feedback` (an exercise row's) says its cell found no module or file that is there beside
    the notebook but was not copied with it (`copied`: `files_beside`), else "": the teacher and the learner read why
    the notebook that ran for them failed here."""
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
        except (OSError, ValueError):
            continue
        if there:
            return NOT_COPIED.format(name=name, files=BESIDE_FILES, mib=BESIDE_BYTES // (1024 * 1024))
    return ""
