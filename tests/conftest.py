"""Fixtures shared by test modules."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def memory_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder in RAM where there is one (/dev/shm): a test's thousands of SQLite commits then
    cost no disk flush. The files are the same SQLite files."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(dir=shm, prefix="toolkit-test-") as folder:
        yield Path(folder)
