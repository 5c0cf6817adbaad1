"""What a learner's IDE and type checker see: real types for every exported name, and a
misspelt import is an error (the lazy exports are hidden from checkers)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api", reason="mypy is in the `dev` extra (CI installs it)")

ROOT = Path(__file__).resolve().parents[1]


def _mypy(tmp_path: Path, code: str) -> str:
    source = tmp_path / "learner.py"
    source.write_text(textwrap.dedent(code), encoding="utf-8")
    out, err, _ = api.run(
        [str(source), "--no-incremental", "--follow-imports=silent", "--python-version=3.11", "--no-error-summary"]
    )
    return out + err


def test_exported_names_have_their_real_types(tmp_path):
    out = _mypy(
        tmp_path,
        """
        import toolkit
        from toolkit import ChatModel, LoopResult, run_loop, tool
        reveal_type(toolkit.run_loop)
        reveal_type(toolkit.ScriptedModel)
        reveal_type(tool)
        """,
    )
    assert "def (model: toolkit.chat.model.ChatModel" in out  # run_loop, with its listed keywords
    assert "options: toolkit.loop.records.LoopOptions" in out
    assert "toolkit.chat.scripted.ScriptedModel" in out
    first = next(line for line in out.splitlines() if "Revealed type" in line)
    assert first.endswith('-> toolkit.loop.records.LoopResult"')  # a function type, not Any


def test_a_misspelt_import_is_an_error(tmp_path):
    out = _mypy(tmp_path, "from toolkit import nope_not_real\n")
    assert 'Module "toolkit" has no attribute "nope_not_real"' in out


def test_the_package_is_marked_typed():
    assert (ROOT / "toolkit" / "py.typed").is_file()
