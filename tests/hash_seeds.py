"""What a piece of Python prints in fresh processes with other hash seeds (`PYTHONHASHSEED`): a set
iterates in the order of its items' hashes, so output written from one differs from process to
process unless the package sorts it. A test asserts the set of outputs has one member."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def printed_under_seeds(code: str, seeds: Iterable[int]) -> set[str]:
    """The distinct stdouts of `python -c code`, one process per hash seed, this checkout first on the path."""
    return {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)},
        ).stdout
        for seed in seeds
    }
