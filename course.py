"""Set the course up and run it, with nothing but Python 3.11.

    python3 course.py lab     set up .venv (once), open JupyterLab on notebooks/
    python3 course.py test    set up .venv (once), run the whole test suite, notebooks included

Setup creates `.venv/` inside the repo (ignored by git) and installs the package with its test
extra; it is redone only when pyproject.toml changes. Extra arguments go to jupyter / pytest.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".toolkit-setup"


def _fingerprint() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def setup() -> None:
    """Create .venv and install toolkit[test] into it, unless already done for this pyproject."""
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
        *args,
    ]
    return subprocess.call(command, cwd=ROOT, env=env)


def main(argv: list[str]) -> int:
    commands = {"lab": lab, "test": test}
    if not argv or argv[0] not in commands:
        print(__doc__)
        return 2
    return commands[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
