"""Reading a file a user or a stranger names, boundedly: a regular file of at most `cap` bytes;
and rewriting a file the user has, whole or not at all (`write_whole`, at the end).

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

Writing, whole or not at all: a command that rewrites a file the user already has (a learner's
notebook, `toolkit notebooks` and `toolkit exercises --update`; last week's results CSV, `toolkit
eval --out`) must never leave
it truncated, empty or half-written when the process dies part way (SIGKILL, Ctrl-C, a full disk,
an exception between two writes). `write_whole` writes the new content to a temporary file next
to the target (same folder, so the rename is atomic), flushes and fsyncs it, gives it the target's
permissions, and only then `os.replace`s the target with it. Any failure before the rename
removes the temporary file and leaves the target untouched; a process killed hard leaves at most
a stray `.<name>.*.partial` file beside it, never a damaged target. An `OSError` (a full
disk) names the file it did not replace.

A link is followed (the file it names is replaced; the link stays). Where the target is no
regular file (`/dev/stdout`, a pipe: nothing there to lose), or its folder takes no new file (a
folder this user may not add to, while the file itself may be written), the content is written
to the target itself, as before.

`try_writing(path)` checks, before a long run (or a paid request), that a file can be written at
`path`: an `OSError` saying why not, and nothing left behind.

Leaves out: what the bytes mean (decoding errors are the reader's: `UnicodeDecodeError` passes
through `read_text`), a missing or unreadable file (the `OSError` passes through, for the reader
to word), and the Agent Skills loader, which has stricter rules of its own (`O_NOFOLLOW`, one link;
see `toolkit.skills.folders`); and, in writing, appending (a cassette, a clock line: each line
goes at the end, and a line cut short is the reader's to report), writers that stream to a partial
file and replace their file themselves (`toolkit grade`'s CSV, the grading worker's notebook), and
the SQLite memory store (its own transactions).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import stat
import tempfile
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


def not_a_file(path: Path | str) -> str:
    """Why `path` names no regular file, for a command to say before it opens it ("" when it is
    one): "no such file" (with "(a link to a missing file)" for a dangling link), "a folder",
    `NOT_A_FILE` for a pipe or a device, else the system's reason ("Too many levels of symbolic
    links", "Permission denied", "File name too long"). A FIFO or a loop is thus not called missing."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return "no such file" + (" (a link to a missing file)" if os.path.islink(path) else "")
        return exc.strerror or str(exc)
    except ValueError as exc:  # a NUL in the path
        return str(exc)
    if stat.S_ISDIR(mode):
        return "a folder"
    return "" if stat.S_ISREG(mode) else NOT_A_FILE


NOT_A_FILE = "not a regular file (a pipe or a device)"


def first_line(path: Path | str, at_most: int) -> bytes | None:
    """The first line of the regular file `path` names (a link followed), without its line break, `at_most`
    bytes of it at most: what a writer about to add to it or replace it reads to tell it holds what the writer
    writes, and not another file named by mistake or through a link (`/etc/passwd`). None when no regular
    file is there (none yet, a folder, a pipe or a device: nothing to lose). An `OSError` passes through."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        head = b""
        while b"\n" not in head and len(head) < at_most and (chunk := os.read(fd, min(1 << 16, at_most))):
            head += chunk
    finally:
        os.close(fd)
    return head.partition(b"\n")[0][:at_most]


def _kind(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_mode, info.st_size if stat.S_ISREG(info.st_mode) else 0


def try_writing(path: Path) -> None:
    """Whether a file can be written at `path`, found before a long run rather than after it: an
    `OSError` saying why not, and nothing left behind. Opens an existing file for appending (its
    content untouched); else creates the file and removes it again, or — when its folder is still to
    be made — a temporary file in the nearest existing folder.
    A FIFO or device (`/dev/stdout`) is only asked about, never opened: opening a FIFO for writing
    waits for a reader, and closing it again ends the reader's stream before the command writes.
    A link is checked at the file it names (the writers follow it): a link to a file still to be made is
    checked as that file, and a link loop is an `OSError` ("Too many levels of symbolic links")."""
    if path.is_symlink():
        path = _linked(path)
    if path.exists() and not path.is_file():
        if not os.access(path, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    elif path.exists():
        open(path, "ab").close()
    elif path.parent.is_dir():
        open(path, "xb").close()
        path.unlink()
    else:
        existing = next((p for p in path.parents if p.is_dir()), Path("."))
        tempfile.TemporaryFile(dir=existing).close()


def _linked(link: Path) -> Path:
    """The file `link` names when it names none yet (else `link`): where the write will make it, which
    must be in a folder that exists (the writers make the link's folders, not the target's)."""
    try:
        os.stat(link)
        return link
    except FileNotFoundError:
        target = Path(os.path.realpath(link))
    if not target.parent.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"it links to {target}, in a folder that does not exist")
    return target


def write_whole(path: Path | str, text: str, *, encoding: str = "utf-8", newline: str | None = None) -> Path:
    """Replace the file at `path` with `text`, whole or not at all (see the module docstring); `path`."""
    path = Path(path)
    target = Path(os.path.realpath(path))
    if not _replaceable(target):
        return _written_in_place(path, target, text, encoding, newline)
    try:
        fd, partial = _new_partial(target)
    except PermissionError:  # the folder takes no new file; the file itself may still be written
        return _written_in_place(path, target, text, encoding, newline)
    try:
        with open(fd, "w", encoding=encoding, newline=newline) as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())  # on disk before the rename: power lost after it leaves the new content
        keep_mode(target, Path(partial))
        os.replace(partial, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        if isinstance(exc, OSError) and exc.filename is None:  # a full disk: say which file was not written
            exc.filename = str(path)
        raise
    return path


def _written_in_place(path: Path, target: Path, text: str, encoding: str, newline: str | None) -> Path:
    """`text` written into `target` itself (no partial file beside it), as before; `path`."""
    with open(target, "w", encoding=encoding, newline=newline) as f:
        f.write(text)
    return path


def _replaceable(target: Path) -> bool:
    """Whether `target` is a regular file, or nothing yet (a new file)."""
    try:
        return stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        return True


def _new_partial(target: Path) -> tuple[int, str]:
    """A new file beside `target`, opened for writing (created with this user's default permissions,
    the umask applied; never an existing file or link), and its path."""
    while True:
        partial = str(target.with_name(f".{target.name}.{secrets.token_hex(6)}.partial"))
        try:
            return os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), partial
        except FileExistsError:
            continue


def keep_mode(old: Path, new: Path) -> None:
    """`new` with the permissions of `old`, the file it replaces (a private 0600 file stays private)."""
    with contextlib.suppress(FileNotFoundError):  # no old file: the new one keeps this user's default
        shutil.copymode(old, new)
