"""The class's grades CSV held by one writer at a time (`locked`): an advisory lock (`flock`) on the file itself.

A whole `toolkit grade --out` run holds the CSV from its start to the rename that puts its rows in place, and a
`--update` holds it from reading the class's rows to writing them merged, so an update ending during a whole run
waits for it and merges into what it wrote (`toolkit.exercises.regrade.update_grades`), never the other way round.

Leaves out: Windows (no `flock`: no lock, as before), a CSV that is no regular file (a pipe, stdout: nothing there
to lose), and writers that do not ask for the lock (an editor, a spreadsheet program).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def locked(out: Path, waiting: Callable[[], object] | None = None) -> Iterator[None]:
    """The grades CSV `out` held by this process (`flock`, exclusive) for the block; another process holding it is
    waited for (`waiting` called once before, when given: a whole `toolkit grade` run holds it until it ends). A lock
    on a file another writer has since replaced (`os.replace`: a new file at the path) holds nothing, so it is taken
    again on the file there now. No lock where there is no regular file to hold (none yet, a pipe) or no `flock`
    (Windows)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    while True:
        try:
            fd = os.open(os.path.realpath(out), os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            yield
            return
        try:
            held = os.fstat(fd)
            if not stat.S_ISREG(held.st_mode):
                yield
                return
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if waiting is not None:
                    waiting()
                    waiting = None
                fcntl.flock(fd, fcntl.LOCK_EX)
            if _same_file(held, out):
                yield
                return
        finally:
            os.close(fd)


def _same_file(held: os.stat_result, out: Path) -> bool:
    """Whether `out` is still the file `held` was (not replaced, nor removed)."""
    try:
        now = os.stat(out)
    except OSError:
        return True  # removed: nothing at the path to race for; the write makes a new file
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)
