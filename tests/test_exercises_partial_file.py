"""`toolkit.exercises.partial_file`: a failure after the partial file is opened (truncating it, its text layer)
closes its descriptor. Before, the descriptor left open held the file (`flock`): this process's next `toolkit grade`
run on the same `--out` was refused as if another run were writing it."""

import errno
import io
import os
import sys
from pathlib import Path

import pytest

from toolkit.exercises import partial_file
from toolkit.exercises.partial_file import open_held


def open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def failing(module, name: str):
    """`module.name` failing with ENOSPC when `toolkit.exercises.partial_file` calls it (only: `os` is shared)."""
    real = getattr(module, name)

    def fail(*args, **kwargs):
        if sys._getframe(1).f_globals.get("__name__") == partial_file.__name__:
            raise OSError(errno.ENOSPC, f"{name}: No space left on device")
        return real(*args, **kwargs)

    return fail


PLACES = [
    (partial_file.os, "set_blocking"),
    (partial_file.os, "ftruncate"),
    (partial_file.os, "fdopen"),
]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc/self/fd")
@pytest.mark.parametrize("module, name", PLACES, ids=[name for _, name in PLACES])
def test_a_failure_after_the_partial_file_is_opened_closes_it_and_the_next_run_takes_it(
    tmp_path, monkeypatch, module, name
):
    path, out = tmp_path / "grades.csv.partial", tmp_path / "grades.csv"
    before = open_fds()
    with monkeypatch.context() as patched:
        patched.setattr(module, name, failing(module, name))
        with pytest.raises(OSError, match=f"^\\[Errno {errno.ENOSPC}\\] {name}: No space left on device$"):
            open_held(path, out, encoding="utf-8-sig")
    assert open_fds() == before
    file, hold = open_held(path, out, encoding="utf-8-sig")  # not refused as another run's (BUSY)
    try:
        assert isinstance(file, io.TextIOWrapper) and (file.encoding, file.errors) == ("utf-8-sig", "backslashreplace")
        file.write("a,b\r\n")
    finally:
        file.close()
        os.close(hold)
    assert path.read_bytes() == b"\xef\xbb\xbfa,b\r\n"
    assert open_fds() == before


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc/self/fd")
def test_a_partial_file_whose_kind_cannot_be_read_is_closed_and_the_csv_written_in_place(tmp_path, monkeypatch):
    """`fstat` failing as the file is opened: not held (None: the CSV is written in place), nothing left open."""
    before = open_fds()
    monkeypatch.setattr(partial_file.os, "fstat", failing(partial_file.os, "fstat"))
    assert open_held(tmp_path / "grades.csv.partial", tmp_path / "grades.csv", encoding="utf-8") is None
    assert open_fds() == before


def test_a_run_holding_the_partial_file_still_refuses_a_second_one(tmp_path):
    path, out = tmp_path / "grades.csv.partial", tmp_path / "grades.csv"
    file, hold = open_held(path, out, encoding="utf-8")
    try:
        with pytest.raises(BlockingIOError) as refused:
            open_held(path, out, encoding="utf-8")
        assert str(refused.value) == partial_file.BUSY.format(out=out, partial=path)
    finally:
        file.close()
        os.close(hold)
