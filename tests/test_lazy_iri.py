"""The package imports jsonschema without building its IRI grammar until an IRI is checked
(`toolkit.lazy_iri`); every format is checked as before. The grading worker and the command line, as
their own processes, read notebooks without building it; imported into another program, they leave
jsonschema as that program imports it."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from toolkit import lazy_iri

installed = pytest.mark.skipif(
    importlib.util.find_spec("rfc3987_syntax") is None, reason="rfc3987-syntax is not installed"
)

PROBE = """\
import sys
from toolkit.mcp.schema import checked_arguments, translate_schema
schema = {"type": "object", "properties": {"site": {"type": "string", "format": "iri"}, "n": {"type": "integer"}}}
translate_schema(schema)
problem = checked_arguments(schema, {"site": "http://a/b", "n": "x"})
print("built" if "rfc3987_syntax.syntax_helpers" in sys.modules else "deferred")
import jsonschema
checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
valid = jsonschema.Draft202012Validator({"format": "iri"}, format_checker=checker)
print(valid.is_valid("http://example.com/caf\\u00e9"), valid.is_valid("no iri %zz"), valid.is_valid(7))
print("built" if "rfc3987_syntax.syntax_helpers" in sys.modules else "deferred")
"""


@installed
def test_translating_and_checking_arguments_build_no_iri_grammar_and_an_iri_check_builds_it():
    probe = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split("\n") == ["deferred", "True False True", "built", ""]


def test_defer_puts_nothing_once_jsonschema_is_imported(monkeypatch):
    monkeypatch.setitem(sys.modules, "jsonschema", sys.modules.get("jsonschema") or object())
    monkeypatch.delitem(sys.modules, lazy_iri.GRAMMAR_MODULE, raising=False)
    assert lazy_iri.defer() is False
    assert lazy_iri.GRAMMAR_MODULE not in sys.modules


def test_defer_puts_nothing_when_the_grammar_is_not_installed(monkeypatch):
    monkeypatch.delitem(sys.modules, "jsonschema", raising=False)
    monkeypatch.delitem(sys.modules, lazy_iri.GRAMMAR_MODULE, raising=False)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *_: None)
    assert lazy_iri.defer() is False
    assert lazy_iri.GRAMMAR_MODULE not in sys.modules


@installed
def test_the_stand_in_answers_find_spec_and_hands_other_names_to_the_real_module(monkeypatch):
    monkeypatch.delitem(sys.modules, "jsonschema", raising=False)
    monkeypatch.setattr(lazy_iri, "_real", [])  # as in a process that has checked no IRI yet
    real = sys.modules.pop(lazy_iri.GRAMMAR_MODULE, None)
    try:
        assert lazy_iri.defer() is True
        stand_in = sys.modules[lazy_iri.GRAMMAR_MODULE]
        assert importlib.util.find_spec(lazy_iri.GRAMMAR_MODULE).name == lazy_iri.GRAMMAR_MODULE
        assert stand_in.is_valid_syntax("iri", "urn:isbn:0451450523") is True
        assert callable(stand_in.make_syntax_validator)
        assert sys.modules[lazy_iri.GRAMMAR_MODULE] is not stand_in  # the real one, once used
    finally:
        if real is not None:
            sys.modules[lazy_iri.GRAMMAR_MODULE] = real


WORKER = """\
import runpy, sys
sys.argv = ["worker"]
try:
    runpy.run_module("toolkit.exercises.worker", run_name={run_name!r})
except IndexError:  # no arguments: the imports ran, then the worker asked for its notebook
    pass
print(",".join(m for m in ("jsonschema", "nbformat") if m in sys.modules), GRAMMAR_STATE)
"""
GRAMMAR_STATE = '"built" if "rfc3987_syntax.syntax_helpers" in sys.modules else "deferred"'


def after(probe: str) -> str:
    """The last line a probe prints in a process of its own."""
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout.strip().splitlines()[-1]


def imported_by_the_worker(run_name: str) -> str:
    return after(WORKER.format(run_name=run_name).replace("GRAMMAR_STATE", GRAMMAR_STATE))


@installed
def test_the_worker_as_its_own_process_reads_notebooks_without_building_the_iri_grammar():
    assert imported_by_the_worker("__main__") == "jsonschema,nbformat deferred"


@installed
def test_the_worker_imported_by_another_program_leaves_jsonschema_as_it_is():
    assert imported_by_the_worker("toolkit.exercises.worker") == "jsonschema,nbformat built"


COMMAND_LINE = """\
import sys
from toolkit.cli.main import main
sys.argv = ["toolkit", *{words!r}]
try:
    {call}
except SystemExit:
    pass
print("jsonschema" in sys.modules, GRAMMAR_STATE)
"""


def after_the_command_line(words: list[str], call: str = "main()") -> str:
    """Whether the command imported jsonschema, and whether the IRI grammar was built."""
    return after(COMMAND_LINE.format(words=words, call=call).replace("GRAMMAR_STATE", GRAMMAR_STATE))


def a_notebook(tmp_path) -> str:
    notebook = tmp_path / "a.ipynb"
    notebook.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}', encoding="utf-8")
    return str(notebook)


@installed
def test_a_command_on_the_process_s_own_command_line_reads_notebooks_without_building_the_grammar(tmp_path):
    """`toolkit notebooks --no-execute` reads and writes the notebook with nbformat (so imports jsonschema)
    and checks no IRI."""
    path = a_notebook(tmp_path)
    assert after_the_command_line(["notebooks", "--no-execute", path]) == "True deferred"
    assert json.loads(open(path, encoding="utf-8").read())["nbformat"] == 4


@installed
def test_main_called_by_another_program_leaves_jsonschema_as_it_is(tmp_path):
    path = a_notebook(tmp_path)
    assert after_the_command_line([], f"main(['notebooks', '--no-execute', {path!r}])") == "True built"
