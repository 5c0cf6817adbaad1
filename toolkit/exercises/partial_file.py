"""The partial file a `toolkit grade` run writes its CSV to (`grades.csv.partial`), held by that run alone.

A run writes its rows to the partial file and puts it in the CSV's place when it ends
(`toolkit.exercises.grade._csv_file`). Two runs given one `--out` at once (two terminals, a script started
twice) would otherwise share that one file: the second removes the first's and makes its own, the first
then renames the second's half-written file over the CSV, its own rows gone with the file it lost, and the
second fails at its rename. So the run that opens the partial file holds it (`flock`, exclusive, not
waited for) until its rename is done, and a second run is refused at once, before it grades anything,
with `BUSY` (an `OSError`: one line and exit status 2 on the command line); the CSV and the first run's
rows are left as they are. A failure after the file is opened (truncating it, its text layer) closes its
descriptor: a descriptor kept open would hold the file for no run, and this process's next run was refused.

A partial file left by a run killed hard (SIGKILL) is held by nobody: the next run takes it over and
writes it afresh. One that is no regular file (a link, a folder, a pipe) is removed, never written
through, and made again. A file the holder has meanwhile renamed or removed holds nothing: the one at the
path now is taken instead.

Leaves out: Windows (no `flock`: the file is not held there), and runs on two machines sharing a network
folder whose `flock` is local to each.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TextIO

BUSY = (
    "{out}: another `toolkit grade` run is writing this CSV now (to {partial}), so this one writes nothing to it "
    "and leaves it as it is. Fix: wait for that run to end, or give another file (--out)"
)
"""The error when a second run would write the partial file a running one holds."""

_FLAGS = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def open_held(path: Path, out: Path, *, encoding: str) -> tuple[TextIO, int] | None:
    """`path` opened afresh for writing text in `encoding`, and its descriptor, which holds it until the caller
    closes it after its rename (closing the file leaves it open); None when its folder takes no new file.
    `BlockingIOError` (`BUSY`, naming `out`) when another process holds it."""
    try:
        fd = _held_fd(path)
    except BlockingIOError:
        raise BlockingIOError(BUSY.format(out=out, partial=path)) from None
    except OSError:
        return None
    try:  # whatever fails here (a full or read-only disk, no memory) closes it: left open, it held the file for no
        # run, and this process's next run on the same --out was refused as another's
        os.set_blocking(fd, True)
        os.ftruncate(fd, 0)
        return os.fdopen(fd, "w", newline="", encoding=encoding, errors="backslashreplace", closefd=False), fd
    except BaseException:
        os.close(fd)
        raise


def _held_fd(path: Path) -> int:
    """A descriptor of the regular file at `path` (made if need be) that this process holds; `BlockingIOError`
    when another one holds it, another `OSError` when it cannot be opened or made."""
    while True:
        fd = _regular_fd(path)
        if fd is None:
            continue  # another run made it between our removal and our making: open that one
        try:
            _hold(fd)
            if _same_file(fd, path):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # renamed or removed by the run that held it: the file there now is taken instead


def _regular_fd(path: Path) -> int | None:
    """`path` opened when it is a regular file; else removed and made (None if another process made it first)."""
    try:
        fd = os.open(path, _FLAGS, 0o666)
    except OSError:
        fd = None
    if fd is not None:
        try:
            regular = stat.S_ISREG(os.fstat(fd).st_mode)
        except BaseException:
            os.close(fd)
            raise
        if regular:
            return fd
        os.close(fd)
    path.unlink(missing_ok=True)  # a link, a pipe: removed, never written through (a folder: the OSError passes)
    try:
        return os.open(path, _FLAGS | os.O_EXCL, 0o666)
    except FileExistsError:
        return None


def _hold(fd: int) -> None:
    """An exclusive `flock` on `fd`, not waited for (`BlockingIOError` when another process has one)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        return
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _same_file(fd: int, path: Path) -> bool:
    """Whether `path` still names the file `fd` is open on."""
    try:
        now = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    held = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)
