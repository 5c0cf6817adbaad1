"""A disk that fills up part way through a write: every file opened for writing (by `open`, `io.open`
or `Path.open`) takes the first `room` characters of what is written to it, then raises
`OSError(ENOSPC)`, as a real full disk does. A test proves a writer leaves the file it replaces as
it was."""

from __future__ import annotations

import builtins
import errno
import io
from typing import Any

import pytest


class _FillingFile:
    def __init__(self, real: Any, room: int) -> None:
        self._real = real
        self._room = room

    def write(self, data: Any) -> int:
        if len(data) > self._room:
            self._real.write(data[: self._room])
            self._real.flush()
            self._room = 0
            raise OSError(errno.ENOSPC, "No space left on device")
        self._room -= len(data)
        return self._real.write(data)

    def __enter__(self) -> _FillingFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._real.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def fill_disk_after(monkeypatch: pytest.MonkeyPatch, room: int) -> None:
    """From now on, a file opened for writing holds at most `room` characters (see the module docstring)."""
    real_open = io.open

    def filling_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        opened = real_open(file, mode, *args, **kwargs)
        return _FillingFile(opened, room) if any(m in mode for m in "wax+") else opened

    monkeypatch.setattr(builtins, "open", filling_open)
    monkeypatch.setattr(io, "open", filling_open)
