"""Processes that only read and run notebooks do it without building an IRI grammar nothing uses.

nbformat validates notebooks with `jsonschema`, and `jsonschema`, as it is imported, imports
`rfc3987_syntax` when that is installed (it is, with `jsonschema[format-nongpl]`, which the Jupyter
packages ask for) to check the `iri` and `iri-reference` string formats. That module builds about
35 Lark parsers as it is imported: 0.8 s of a 2-core machine's time, in every process that reads a
notebook (python-jsonschema/jsonschema#1428). The notebook schema has neither format, and nbformat
checks no format at all, so a process that imports jsonschema only to read and write notebooks pays
for nothing. `leave_out()` marks the module absent (`None` in `sys.modules`: `import` then raises
`ImportError`, which jsonschema expects) before jsonschema is first imported, so jsonschema goes on
without those two checks; notebooks read and write byte for byte as before.

Called where the process is the package's own and reads notebooks only: `toolkit.exercises.worker`
run as its own process (`toolkit grade` starts one per submission; the learner's code runs in a
kernel, another process, which this does not touch), and `toolkit.cli.main` for the commands of
`NOTEBOOK_COMMANDS` given on the process's own command line.

Leaves out: any process that may check formats with jsonschema — a notebook's kernel, the other
commands (the embedded gateway's `judge` checks formats), a program that imports the package or calls
`main([...])`: there the module is imported as jsonschema imports it.
"""

from __future__ import annotations

import sys

GRAMMAR_MODULE = "rfc3987_syntax"
NOTEBOOK_COMMANDS = frozenset({"notebooks", "exercises", "grade"})
"""The commands whose process reads and runs notebooks and checks no JSON format itself."""


def leave_out() -> bool:
    """Mark `GRAMMAR_MODULE` absent, unless jsonschema (or the module) was already imported here;
    whether it was marked."""
    if "jsonschema" in sys.modules or GRAMMAR_MODULE in sys.modules:
        return False
    sys.modules[GRAMMAR_MODULE] = None  # type: ignore[assignment]  # None: Python's own "not importable" mark
    return True
