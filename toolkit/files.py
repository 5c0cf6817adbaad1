"""Reading a file a user or a stranger names, boundedly: a regular file of at most `cap` bytes.

Every reader of such a file (a cassette, a gateway rules file, a tool catalogue, a cases CSV, a
notebook, a shop's data) goes through `read_bytes` / `read_text`, each with its own cap (a module
constant the reader documents) and its own error type, so that a folder, a pipe that waits for a
writer, `/dev/zero` (which never ends) or a 200 MB file is one readable error, not a hang or a
`MemoryError`:

- the size is checked on the opened file (`fstat`) BEFORE anything is read, and the read itself
  stops one byte past the cap, so a file growing while it is read cannot take more either;
- `streams=True` lets a reader also take a pipe (`--cases <(...)`, `/dev/stdin` fed by `|`): it
  is read up to the cap, and refused if it holds more (a folder is then an `IsADirectoryError`).

The texts, for a reader that names its file `where` and passes `fix`:

    {where}: not a regular file (a folder, a pipe or a device)
    {where}: the file is {size} bytes, over the cap of {cap} bytes ({cap_name}). Fix: {fix}
    {where}: the file holds more than the cap of {cap} bytes ({cap_name}). Fix: {fix}   (a stream, or grown)

Leaves out: what the bytes mean (decoding errors are the reader's: `UnicodeDecodeError` passes
through `read_text`), a missing or unreadable file (the `OSError` passes through, for the reader
to word), and the Agent Skills loader, which has stricter rules of its own (`O_NOFOLLOW`, one link;
see `toolkit.skills.folders`).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

NOT_REGULAR = "not a regular file (a folder, a pipe or a device)"


def read_bytes(
    path: Path | str,
    cap: int,
    *,
    where: str,
    cap_name: str,
    fix: str,
    error: Callable[[str], Exception],
    streams: bool = False,
) -> bytes:
    """The bytes of the file at `path`, at most `cap` of them; anything else is `error(text)` (see the
    module docstring for the texts). An `OSError` opening or reading the file passes through."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a pipe without a writer: no wait here
    try:
        mode, size = _kind(fd)
        if stat.S_ISDIR(mode) and streams:  # "not a regular file" would wrongly say a pipe is refused
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if stat.S_ISDIR(mode) or not (stat.S_ISREG(mode) or streams):
            raise error(f"{where}: {NOT_REGULAR}")
        if size > cap:
            raise error(f"{where}: the file is {size} bytes, over the cap of {cap} bytes ({cap_name}). Fix: {fix}")
        if not stat.S_ISREG(mode):
            os.set_blocking(fd, True)  # a stream is read as it comes
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as f:  # it closes `fd`
        data = f.read(cap + 1)
    if len(data) > cap:  # it grew while we read it, or a stream holds more
        raise error(f"{where}: the file holds more than the cap of {cap} bytes ({cap_name}). Fix: {fix}")
    return data


def read_text(
    path: Path | str,
    cap: int,
    *,
    where: str,
    cap_name: str,
    fix: str,
    error: Callable[[str], Exception],
    streams: bool = False,
    encoding: str = "utf-8",
) -> str:
    """`read_bytes` decoded (`UnicodeDecodeError` passes through, for the reader to word)."""
    data = read_bytes(path, cap, where=where, cap_name=cap_name, fix=fix, error=error, streams=streams)
    return data.decode(encoding)


def _kind(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_mode, info.st_size if stat.S_ISREG(info.st_mode) else 0
