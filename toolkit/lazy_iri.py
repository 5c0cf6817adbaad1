"""`jsonschema` imported without building its IRI grammar until an IRI is checked.

`jsonschema`, as it is imported, imports `rfc3987_syntax` when that is installed (it is, with
`jsonschema[format-nongpl]`, which the Jupyter packages ask for), to check the `iri` and
`iri-reference` string formats; that module builds about 35 Lark parsers as it is imported: 1.2 s
of a quiet 2-core machine, 9 s of a loaded one (python-jsonschema/jsonschema#1428). The package
imports `jsonschema` to check an MCP tool's schema once translated, the model's arguments to it, a
tool's answer against its `outputSchema`, and the gateway's filled values: none of these meets an
IRI format but the last, and that rarely, yet `toolkit tools --mcp-stdio ...` and the first turn of
a loop with MCP tools paid for the grammar. So did every process that only reads and runs notebooks
(nbformat validates notebooks with `jsonschema`; the notebook schema has no IRI format): the grading
worker that `toolkit grade` starts per submission, and `toolkit notebooks/exercises/grade`.

`defer()`, called before the package imports `jsonschema`, puts a stand-in for `rfc3987_syntax` in
`sys.modules` (unless `jsonschema` or the module is imported already, or the module is not
installed): `jsonschema` takes the stand-in's `is_valid_syntax`, and the first IRI checked imports
the real module and asks it, so every format is checked as before. Any other name read from the
stand-in imports the real module too. Called by the MCP client's schema and answer checks, the
gateway's judge, the grading worker run as its own process, and `toolkit.cli.main` for the process's
own command line (never for `main([...])` called by another program: that program's `sys.modules`
stays its own).

Leaves out: a process where `jsonschema` was imported before the package asked (nbformat imports it
with a notebook, a notebook's kernel imports it as it likes): its grammar is built already.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
import types
from typing import Any

GRAMMAR_MODULE = "rfc3987_syntax"
_LOCK = threading.Lock()
_real: list[types.ModuleType] = []
"""The real module, once imported for a check."""


def defer() -> bool:
    """Put the stand-in for `GRAMMAR_MODULE` in `sys.modules` before `jsonschema` is imported; whether it did."""
    if "jsonschema" in sys.modules or GRAMMAR_MODULE in sys.modules:
        return False
    with _LOCK:
        spec = None if GRAMMAR_MODULE in sys.modules else importlib.util.find_spec(GRAMMAR_MODULE)
        if spec is None:
            return False  # not installed: jsonschema goes on without IRI checks, as it would
        stand_in = _StandIn(GRAMMAR_MODULE, "Stands in for rfc3987_syntax until it is used.")
        stand_in.__spec__ = spec  # what importlib.util.find_spec answers while it stands in
        sys.modules[GRAMMAR_MODULE] = stand_in
    return True


def is_valid_syntax(term: str, value: str) -> Any:
    """The real `rfc3987_syntax.is_valid_syntax(term, value)` (the grammar built on the first call)."""
    return _grammar().is_valid_syntax(term, value)


def _grammar() -> types.ModuleType:
    """The real grammar module, imported once (the stand-in taken out of `sys.modules` first)."""
    if not _real:
        with _LOCK:
            if not _real:
                if isinstance(sys.modules.get(GRAMMAR_MODULE), _StandIn):
                    del sys.modules[GRAMMAR_MODULE]
                _real.append(importlib.import_module(GRAMMAR_MODULE))
    return _real[0]


class _StandIn(types.ModuleType):
    """`rfc3987_syntax` until something of it is used: `is_valid_syntax` here, any other name of the real one."""

    is_valid_syntax = staticmethod(is_valid_syntax)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # what the import system asks of a module (`__path__`, `__spec__`...)
            raise AttributeError(name)
        return getattr(_grammar(), name)
