"""The grading worker, as its own process, reads notebooks without building jsonschema's IRI grammar
(`toolkit.exercises.iri_grammar`); imported into another program, it changes nothing there."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys

import pytest

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
    from toolkit.exercises import iri_grammar

    monkeypatch.setitem(sys.modules, "jsonschema", sys.modules.get("jsonschema") or object())
    monkeypatch.delitem(sys.modules, iri_grammar.GRAMMAR_MODULE, raising=False)
    assert iri_grammar.leave_out() is False
    assert iri_grammar.GRAMMAR_MODULE not in sys.modules


def test_leave_out_marks_the_grammar_absent_before_jsonschema(monkeypatch):
    from toolkit.exercises import iri_grammar

    monkeypatch.delitem(sys.modules, "jsonschema", raising=False)
    monkeypatch.delitem(sys.modules, iri_grammar.GRAMMAR_MODULE, raising=False)
    assert iri_grammar.leave_out() is True
    assert sys.modules[iri_grammar.GRAMMAR_MODULE] is None
    with pytest.raises(ImportError):
        importlib.import_module(iri_grammar.GRAMMAR_MODULE)
    monkeypatch.delitem(sys.modules, iri_grammar.GRAMMAR_MODULE)
