"""`toolkit.exercises.csv_lock`: the grades CSV held by one writer at a time."""

from __future__ import annotations

import fcntl
import os
import threading

from toolkit.exercises.csv_lock import locked


def _held_elsewhere(path):
    """An exclusive `flock` on `path` through a descriptor of its own (as another process holds it)."""
    fd = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def _free(path):
    """Whether another writer could take `path`'s lock now (it is let go of at once)."""
    probe = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(probe)


def test_a_csv_not_there_yet_is_written_without_a_lock(tmp_path):
    out = tmp_path / "grades.csv"
    with locked(out):
        out.write_text("notebook,exercise\n")
    assert out.read_text() == "notebook,exercise\n"


def test_a_held_csv_is_waited_for_saying_so_once(tmp_path):
    out = tmp_path / "grades.csv"
    out.write_text("notebook,exercise\n")
    other = _held_elsewhere(out)
    said = []

    def waiting():
        said.append("waiting")
        threading.Timer(0.05, os.close, (other,)).start()  # the other writer ends a moment later

    with locked(out, waiting):
        free = _free(out)  # held by this block now: a third writer would wait
    assert said == ["waiting"]
    assert free is False


def test_a_csv_replaced_while_waited_for_is_held_as_the_file_there_now(tmp_path):
    out = tmp_path / "grades.csv"
    out.write_text("old\n")
    other = _held_elsewhere(out)

    def replace_then_let_go():
        fresh = tmp_path / "grades.csv.partial"
        fresh.write_text("new\n")
        os.replace(fresh, out)  # the whole run puts its rows in place, then ends
        os.close(other)

    with locked(out, lambda: threading.Timer(0.05, replace_then_let_go).start()):
        assert out.read_text() == "new\n"
        free = _free(out)
    assert free is False
