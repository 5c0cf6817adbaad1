"""`course.py`: the two commands of the README."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("course", ROOT / "course.py")
course = importlib.util.module_from_spec(spec)
spec.loader.exec_module(course)


@pytest.fixture(autouse=True)
def no_real_venv(monkeypatch, tmp_path):
    """No test may touch the repository's own .venv (setup() removes a foreign one)."""
    monkeypatch.setattr(course, "VENV", tmp_path / "no-venv")
    monkeypatch.setattr(course, "BIN", tmp_path / "no-venv" / "bin")
    monkeypatch.setattr(course, "STAMP", tmp_path / "no-venv" / ".toolkit-setup")


def test_no_command_prints_the_usage(capsys):
    assert course.main([]) == 2
    assert "python3 course.py lab" in capsys.readouterr().out


def test_the_test_command_runs_pytest_offline_with_nbval(monkeypatch):
    seen = {}
    monkeypatch.setattr(course, "setup", lambda: None)
    monkeypatch.setattr(course.subprocess, "call", lambda cmd, cwd, env: seen.update(cmd=cmd, env=env) or 0)
    monkeypatch.setenv("LLM_API_KEY", "sk-test")
    monkeypatch.setenv("LLM_REPLAY", "x.jsonl")
    assert course.main(["test", "-k", "loop"]) == 0
    assert seen["cmd"][1:4] == ["-m", "pytest", "--nbval"] and seen["cmd"][-2:] == ["-k", "loop"]
    assert "--dist=loadfile" in seen["cmd"]  # a notebook's cells stay together, in order, on one worker
    assert not any(k.startswith("LLM_") for k in seen["env"])


def test_setup_is_skipped_when_pyproject_is_unchanged(monkeypatch, tmp_path):
    venv_dir = tmp_path / ".venv"  # never the real .venv: setup() may remove a foreign one
    venv_dir.mkdir()
    (venv_dir / "pyvenv.cfg").write_text(f"version = {sys.version_info[0]}.{sys.version_info[1]}.0\n")
    monkeypatch.setattr(course, "VENV", venv_dir)
    stamp = tmp_path / "stamp"
    stamp.write_text(course._fingerprint())
    monkeypatch.setattr(course, "STAMP", stamp)
    monkeypatch.setattr(course.subprocess, "run", lambda *a, **k: (_ for _ in ()).throw(AssertionError("ran")))
    course.setup()


def test_an_old_python_is_refused_with_the_fix():
    assert course.check_python((3, 11)) is None and course.check_python((3, 13)) is None
    assert course.check_python((3, 10)) == (
        "course.py needs Python 3.11 or newer, but this is Python 3.10. "
        "Run it with a newer one, e.g. `python3.12 course.py test`."
    )


def test_a_venv_made_by_another_python_is_made_anew(monkeypatch, tmp_path, capsys):
    venv_dir = tmp_path / ".venv"
    venv_dir.mkdir()
    (venv_dir / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.10.13\n")
    monkeypatch.setattr(course, "VENV", venv_dir)
    assert course.venv_python_version() == (3, 10)
    monkeypatch.setattr(course, "STAMP", tmp_path / "stamp")
    (tmp_path / "stamp").write_text(course._fingerprint())
    course.setup()  # stamp matches, but the venv is from 3.10: it is removed first
    assert not venv_dir.exists()
    assert ".venv was made by Python (3, 10)" in capsys.readouterr().out


def test_lab_opens_the_welcome_notebook(monkeypatch):
    seen = {}
    monkeypatch.setattr(course, "setup", lambda: None)
    monkeypatch.setattr(course.subprocess, "call", lambda cmd: seen.update(cmd=cmd) or 0)
    assert course.main(["lab"]) == 0
    assert "--LabApp.default_url=/lab/tree/00_welcome.ipynb" in seen["cmd"]
