"""Set the course up and run it, with nothing but Python 3.11 or newer.

    python3 course.py lab     set up .venv (once), open JupyterLab on notebooks/00_welcome
    python3 course.py test    set up .venv (once), run the whole test suite, notebooks included

Setup creates `.venv/` inside the repo (ignored by git) and installs the package with its test
extra (which includes the `course` extra, JupyterLab); it is redone only when pyproject.toml
changes, or when `.venv` was made by another Python (it is then made anew). Extra arguments go to
jupyter / pytest.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".toolkit-setup"


PARALLEL = ["--numprocesses=auto", "--maxprocesses=4", "--dist=loadfile"]
"""pytest-xdist: one worker per core (at most four), each test file (each notebook) whole on one
worker, so a notebook's cells still run in order in one kernel. `-n 0` after `test` runs serially."""

MINIMUM = (3, 11)
"""The oldest Python the package supports (pyproject's requires-python)."""


def _fingerprint() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def check_python(version: tuple[int, ...] = tuple(sys.version_info[:2])) -> str | None:
    """None when this Python can run the course, else the one-line reason and fix."""
    if tuple(version[:2]) >= MINIMUM:
        return None
    found = ".".join(map(str, version[:2]))
    return (
        f"course.py needs Python {MINIMUM[0]}.{MINIMUM[1]} or newer, but this is Python {found}. "
        f"Run it with a newer one, e.g. `python3.12 course.py test`."
    )


def venv_python_version() -> tuple[int, int] | None:
    """The Python version `.venv` was made with (from pyvenv.cfg), None if there is none."""
    cfg = VENV / "pyvenv.cfg"
    if not cfg.is_file():
        return None
    for line in cfg.read_text(encoding="utf-8", errors="replace").splitlines():
        key, _, value = line.partition("=")
        if key.strip() in ("version", "version_info"):
            parts = value.strip().split(".")
            if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
                return int(parts[0]), int(parts[1])
    return None


def setup() -> None:
    """Create .venv and install toolkit[test] into it, unless already done for this pyproject."""
    made_with = venv_python_version()
    if VENV.exists() and made_with != tuple(sys.version_info[:2]):
        print(
            f".venv was made by Python {made_with or 'unknown'}; making it anew with "
            f"Python {sys.version_info[0]}.{sys.version_info[1]} ...",
            flush=True,
        )
        shutil.rmtree(VENV)
    if STAMP.exists() and STAMP.read_text() == _fingerprint():
        return
    if not (BIN / "python").exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    print("installing toolkit and its dependencies into .venv ...", flush=True)
    subprocess.run(pip + ["--upgrade", "pip"], check=True)
    subprocess.run(pip + ["-e", f"{ROOT}[test]"], check=True)
    STAMP.write_text(_fingerprint())


def lab(args: list[str]) -> int:
    setup()
    root_flag = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return subprocess.call(
        [
            str(BIN / "jupyter"),
            "lab",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.root_dir={ROOT / 'notebooks'}",
            "--LabApp.default_url=/lab/tree/00_welcome.ipynb",  # open the course, not a file list
            *root_flag,
            *args,
        ]
    )


def test(args: list[str]) -> int:
    setup()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}  # tests are offline by design
    if len(env) < len(os.environ):
        print("note: LLM_* variables are ignored by the test suite (it runs on the fake gateway)")
    command = [
        str(BIN / "python"),
        "-m",
        "pytest",
        "--nbval",
        "--nbval-sanitize-with",
        str(ROOT / "notebooks" / "sanitize.cfg"),
        *PARALLEL,
        *args,
    ]
    return subprocess.call(command, cwd=ROOT, env=env)


def main(argv: list[str]) -> int:
    problem = check_python()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    commands = {"lab": lab, "test": test}
    if not argv or argv[0] not in commands:
        print(__doc__)
        return 2
    return commands[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
