"""`toolkit.files.write_whole`: a file replaced whole or not at all, whatever stops the write part way."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from full_disk import fill_disk_after

from toolkit.files import write_whole


def test_a_disk_that_fills_part_way_leaves_the_old_file_whole_and_no_partial_file(tmp_path, monkeypatch):
    path = tmp_path / "results.csv"
    path.write_text("last week's results\n")
    fill_disk_after(monkeypatch, 10)
    with pytest.raises(OSError, match="No space left on device"):
        write_whole(path, "new results, longer than the room left\n")
    monkeypatch.undo()
    assert path.read_text() == "last week's results\n"
    assert os.listdir(tmp_path) == ["results.csv"]


def test_an_exception_before_the_rename_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "a.txt"
    path.write_text("old")

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_whole(path, "new")
    assert path.read_text() == "old"
    assert os.listdir(tmp_path) == ["a.txt"]


def test_the_new_content_replaces_the_file_keeping_its_permissions_and_a_link_stays_a_link(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    real.chmod(0o600)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    assert write_whole(link, "new\n", newline="") == link
    assert link.is_symlink()
    assert real.read_text() == "new\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["link.txt", "real.txt"]


def test_a_new_file_gets_the_users_default_permissions(tmp_path):
    umask = os.umask(0o022)
    try:
        write_whole(tmp_path / "new.txt", "x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644


def test_a_file_that_is_no_regular_file_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_whole(fifo, "through the pipe")
        assert os.read(reader, 100) == b"through the pipe"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


KILLED_WRITE = """
import os, sys, time
from toolkit import files

def stalled(fd):  # the new content is written, not yet renamed: the moment a kill does most harm
    print("written", flush=True)
    time.sleep(60)

os.fsync = stalled
files.write_whole(sys.argv[1], "new content " * 100_000)
"""


def test_a_process_killed_mid_write_leaves_the_old_file_whole(tmp_path):
    path = tmp_path / "notebook.ipynb"
    path.write_text('{"cells": []}\n')
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    child = subprocess.Popen([sys.executable, "-c", KILLED_WRITE, str(path)], stdout=subprocess.PIPE, env=env)
    assert child.stdout is not None and child.stdout.readline() == b"written\n"
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdout.close()
    assert path.read_text() == '{"cells": []}\n'
    assert [p.name for p in tmp_path.iterdir() if p.name != "notebook.ipynb"][0].endswith(".partial")
