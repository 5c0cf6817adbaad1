"""The grading worker, as its own process, reads notebooks without building jsonschema's IRI grammar
(`toolkit.cli.iri_grammar`); imported into another program, it changes nothing there."""

from __future__ import annotations

import importlib
import importlib.util
import json
import subprocess
import sys

import pytest

from toolkit.cli.main import command_of

PROBE = """\
import runpy, sys
sys.argv = ["worker"]
try:
    runpy.run_module("toolkit.exercises.worker", run_name={run_name!r})
except IndexError:  # no arguments: the imports ran, then the worker asked for its notebook
    pass
print(",".join(m for m in ("jsonschema", "nbformat", "rfc3987_syntax") if sys.modules.get(m) is not None))
"""


def imported_by_the_worker(run_name: str) -> str:
    probe = subprocess.run(
        [sys.executable, "-c", PROBE.format(run_name=run_name)], capture_output=True, text=True, timeout=60
    )
    assert probe.returncode == 0, probe.stderr
    return probe.stdout.strip()


def test_the_worker_as_its_own_process_reads_notebooks_without_the_iri_grammar():
    assert imported_by_the_worker("__main__") == "jsonschema,nbformat"


@pytest.mark.skipif(importlib.util.find_spec("rfc3987_syntax") is None, reason="rfc3987-syntax is not installed")
def test_the_worker_imported_by_another_program_leaves_jsonschema_as_it_is():
    assert imported_by_the_worker("toolkit.exercises.worker") == "jsonschema,nbformat,rfc3987_syntax"


def test_leave_out_marks_nothing_once_jsonschema_is_imported(monkeypatch):
    from toolkit.cli import iri_grammar

    monkeypatch.setitem(sys.modules, "jsonschema", sys.modules.get("jsonschema") or object())
    monkeypatch.delitem(sys.modules, iri_grammar.GRAMMAR_MODULE, raising=False)
    assert iri_grammar.leave_out() is False
    assert iri_grammar.GRAMMAR_MODULE not in sys.modules


def test_leave_out_marks_the_grammar_absent_before_jsonschema(monkeypatch):
    from toolkit.cli import iri_grammar

    monkeypatch.delitem(sys.modules, "jsonschema", raising=False)
    monkeypatch.delitem(sys.modules, iri_grammar.GRAMMAR_MODULE, raising=False)
    assert iri_grammar.leave_out() is True
    assert sys.modules[iri_grammar.GRAMMAR_MODULE] is None
    with pytest.raises(ImportError):
        importlib.import_module(iri_grammar.GRAMMAR_MODULE)
    monkeypatch.delitem(sys.modules, iri_grammar.GRAMMAR_MODULE)


COMMAND_LINE = """\
import sys
from toolkit.cli.main import main
sys.argv = ["toolkit", *{words!r}]
try:
    main()
except SystemExit:
    pass
state = sys.modules.get("rfc3987_syntax", "absent")
print("jsonschema" in sys.modules, "marked" if state is None else state if state == "absent" else "imported")
"""


def after_the_command_line(words: list[str]) -> str:
    """Whether the command imported jsonschema, and rfc3987_syntax's state: marked absent, imported, absent."""
    probe = subprocess.run(
        [sys.executable, "-c", COMMAND_LINE.format(words=words)], capture_output=True, text=True, timeout=60
    )
    assert probe.returncode == 0, probe.stderr
    return probe.stdout.strip().splitlines()[-1]


def test_a_notebook_command_on_the_process_s_own_command_line_leaves_the_grammar_out(tmp_path):
    """`toolkit notebooks --no-execute` reads and writes the notebook with nbformat (so imports jsonschema)
    and checks no format."""
    notebook = tmp_path / "a.ipynb"
    notebook.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}', encoding="utf-8")
    assert after_the_command_line(["notebooks", "--no-execute", str(notebook)]) == "True marked"
    assert json.loads(notebook.read_text(encoding="utf-8"))["nbformat"] == 4


def test_another_command_whose_words_name_a_notebook_command_leaves_jsonschema_as_it_is():
    """`gateway`'s judge checks formats: a later word that happens to be `grade` does not make it a notebook
    command (here a usage error: nothing marked, nothing imported)."""
    assert command_of(["gateway", "--port", "grade"]) == "gateway"
    assert after_the_command_line(["gateway", "--port", "grade"]) == "False absent"
