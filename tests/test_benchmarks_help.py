"""Every benchmark script answers `--help` with its usage and starts nothing (two of them ignored
it and ran the whole benchmark for a minute); the benchmarks themselves run on demand, never here."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py"))


def test_the_scripts_are_found():
    assert {"loop_overhead.py", "memory_append.py", "gateway_rps.py"} <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_help_prints_the_usage_and_runs_nothing(script):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: {script}"), done.stdout[:300]
    description = done.stdout.split("\n\n")[1]
    assert description.rstrip().endswith((".", "?", ")")), f"the description stops mid-sentence: {description!r}"
