"""The package imports jsonschema without building its IRI grammar until an IRI is checked
(`toolkit.gateway.lazy_iri`); every format is checked as before."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from toolkit.gateway import lazy_iri

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
