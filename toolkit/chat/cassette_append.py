"""A line appended to the cassette a run checked, never to a file swapped in for it since.

`RecordingTransport` checks its cassette before the first request (`cassette.not_a_cassette`: a
file whose first line is no cassette line is refused); the lines come later, one an exchange. In
between, the name may have been replaced: by a link to `/etc/passwd`, by a hard link to another
file, or the link the run was given pointed somewhere else. So every line is written to the file the
check resolved (`target`), opened without following a link there (`O_NOFOLLOW`), and the file that
was opened is judged, by its descriptor, not by its name: a regular file this run has not written to
yet must start as a cassette does, or nothing is written. A pipe or a device (`/dev/stdout`) holds
nothing to lose and is written as before.

A folder above the cassette swapped for a link (or another folder) mid-run is caught too: the line is
written relative to the cassette's folder opened as a descriptor (`dir_fd`), and that folder must be
the one the run's first line went to (`_folder`, remembered in `checked` as `(FOLDER, device, inode)`);
nothing is created or written in a folder swapped in.

Leaves out: a folder swapped between the run's check and its first line, and `O_NOFOLLOW` and `dir_fd`
where the system has none (Windows: the opened file is still judged).
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

from toolkit.errors import CassetteError

SNIFFED = 1 << 20
"""The bytes of an existing file's first line read at most (past it: no cassette line)."""

_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_BY_FOLDER = os.open in os.supports_dir_fd
FOLDER = -1
"""The first item of the entry in `checked` that holds the folder's (device, inode), not a file's."""


def cassette_line(text: bytes) -> bool:
    """Whether `text` is a cassette line: a JSON object with a request or a clock reading."""
    try:
        line = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(line, dict) and ("request" in line or "clock" in line)


def cassette_head(first: bytes, size: int) -> bool:
    """Whether a regular file of `size` bytes whose first line (at most `SNIFFED` bytes of it) is
    `first` may have lines added: it is empty, or starts as a cassette does (a line longer than
    `SNIFFED`, an image in the first request, or one a killed run cut short, is read as one if it
    starts as every cassette line does: `{"`)."""
    unread = len(first) >= SNIFFED or size == len(first)
    return not first.strip() or cassette_line(first) or (first.startswith(b'{"') and unread)


def target(path: Path) -> Path:
    """Where a run's lines go: the file `path` names (a link followed once, when the run checks it,
    so a link pointed elsewhere later is not followed), or `path` itself for a pipe or a device,
    whose resolved name (`pipe:[…]` for `/dev/stdout`) is no name to open."""
    try:
        resolved = path.resolve()
        info = resolved.stat()
    except FileNotFoundError:
        return resolved  # a file still to be made
    except (OSError, RuntimeError):  # a link loop (`RuntimeError` before Python 3.13): the open says so
        return path
    return resolved if stat.S_ISREG(info.st_mode) else path


def append_line(where: str, path: Path, text: str, checked: set[tuple[int, ...]]) -> None:
    """Append `text` and a line break to the file at `path` (after a line a killed run cut short, on
    a line of its own). `checked` holds the files (device, inode) already judged a cassette; a file
    not in it is judged first; and the folder the first line went to (`_folder`). `where` opens each
    error ("cannot record to F (LLM_RECORD)")."""
    folder = _folder(where, path, checked) if _BY_FOLDER else None
    try:
        _append(where, path, text, checked, folder)
    finally:
        if folder is not None:
            os.close(folder)


def _folder(where: str, path: Path, checked: set[tuple[int, ...]]) -> int | None:
    """The cassette's folder opened (None when it cannot be: the file's own open then says why), the
    same one the run's first line went to, or a `CassetteError`: a folder above was swapped."""
    try:
        fd = os.open(path.parent, _DIRECTORY)
    except OSError:
        return None
    info = os.fstat(fd)
    known = next((entry for entry in checked if entry[0] == FOLDER), None)
    if known is None:
        checked.add((FOLDER, info.st_dev, info.st_ino))
    elif known[1:] != (info.st_dev, info.st_ino):
        os.close(fd)
        raise CassetteError(
            f"{where}: the cassette's folder {str(path.parent)!r} was replaced (by a link or another folder) while "
            "the run recorded; nothing was written there: put the folder back, or record to a new file"
        )
    return fd


def _append(where: str, path: Path, text: str, checked: set[tuple[int, ...]], folder: int | None) -> None:
    """`append_line`'s writing, relative to `folder` when it is open."""
    try:
        fd = _open(path, _FLAGS | _NOFOLLOW, folder)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK) and path.is_symlink() and not _loops(path):
            raise CassetteError(
                f"{where}: the cassette file was replaced by a link (to {_link(path)}) while the run "
                "recorded; nothing was written through it: put the cassette back, or record to a new file"
            ) from None
        raise
    with os.fdopen(fd, "a", encoding="utf-8") as out:
        start = _start(where, path, os.fstat(fd), checked, folder)
        out.write(start + text + "\n")


def _start(
    where: str, path: Path, opened: os.stat_result, checked: set[tuple[int, ...]], folder: int | None = None
) -> str:
    """ "\\n" when the opened file ends inside a line, else ""; a `CassetteError` if it is a regular
    file no longer the one this run checked and it is no cassette."""
    if not stat.S_ISREG(opened.st_mode):
        return ""
    try:
        fd = _open(path, _READ | _NOFOLLOW, folder)
    except OSError:  # no permission to read it: as `not_a_cassette`, nothing to judge it by
        return ""
    try:
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) != (opened.st_dev, opened.st_ino):
            raise CassetteError(f"{where}: the cassette file was replaced while the run recorded; nothing was written")
        if (info.st_dev, info.st_ino) not in checked:
            first = _read_at(fd, 0, SNIFFED).partition(b"\n")[0]
            if not cassette_head(first, info.st_size):
                raise CassetteError(
                    f"{where}: the cassette file was replaced while the run recorded, by a file whose first line is "
                    f"{first[:40].decode('utf-8', 'replace')!r}, not a cassette's; nothing was written to it: "
                    "put the cassette back, or record to a new file"
                )
            checked.add((info.st_dev, info.st_ino))
        return "\n" if info.st_size and _read_at(fd, info.st_size - 1, 1) != b"\n" else ""
    finally:
        os.close(fd)


def _read_at(fd: int, offset: int, size: int) -> bytes:
    """`size` bytes at most from `offset` of the file open as `fd` (`os.pread`, which Windows lacks)."""
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, size)


def _open(path: Path, flags: int, folder: int | None) -> int:
    """`os.open(path, flags)`, relative to the cassette's `folder` when it is open (`_folder`)."""
    if folder is not None:
        return os.open(path.name, flags, 0o666, dir_fd=folder)
    return os.open(path, flags, 0o666)


def _loops(path: Path) -> bool:
    """Whether the link at `path` never reaches a file (a loop, given so from the start: Python 3.13's
    `resolve()` no longer raises for one, so `target` may hand it on): its open's own error says so."""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _link(path: Path) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "another file"
