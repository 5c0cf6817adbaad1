"""`course.py`: the two commands of the README."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("course", ROOT / "course.py")
course = importlib.util.module_from_spec(spec)
spec.loader.exec_module(course)


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
    assert not any(k.startswith("LLM_") for k in seen["env"])


def test_setup_is_skipped_when_pyproject_is_unchanged(monkeypatch, tmp_path):
    stamp = tmp_path / "stamp"
    stamp.write_text(course._fingerprint())
    monkeypatch.setattr(course, "STAMP", stamp)
    monkeypatch.setattr(course.subprocess, "run", lambda *a, **k: (_ for _ in ()).throw(AssertionError("ran")))
    course.setup()
