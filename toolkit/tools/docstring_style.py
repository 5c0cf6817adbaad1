"""Which style griffe reads a docstring in, and the text it reads, without building a `Docstring`.

`toolkit.tools.reflect.parse_docstring` hands a docstring that is not plain Google style to
griffe, which needs two things first: the cleaned text (`griffe.Docstring(text).value`,
`inspect.cleandoc` of it) and the style (`griffe.infer_docstring_style`, its default
"heuristics": three regular expressions tried in turn, Sphinx, Google, NumPy; none → `None`).
Both cost more than reading a NumPy or Sphinx docstring itself does:

- `griffe_value(text)` is `Docstring(text).value`: the text itself when `cleandoc` would give
  it back unchanged (no tab, nothing to strip on the first line, a line after it at the margin),
  else `cleandoc`'s answer;
- `docstring_style(value)` is `infer_docstring_style(Docstring(value))[0]`: the same three
  expressions, written from the same templates, tried in the same order. griffe's Google
  expression tries each of its 26 section titles, case-insensitively, at every line start,
  which costs more than the rest together; it is asked only when the text has what each of its
  matches has, a letter right before a colon (`Args:`; a NumPy entry `x : int` has a space
  there), which one cheap search finds.

`tests/test_docstring_style.py` compares both with griffe over generated docstrings.
Leaves out: the other detection method ("max_sections"), style options, parsing itself.
"""

from __future__ import annotations

import inspect
import re

from griffe import Parser

_GOOGLE_TITLES = [
    "args",
    "arguments",
    "attributes",
    "classes",
    "example",
    "examples",
    "functions",
    "exceptions",
    "keyword args",
    "keyword arguments",
    "methods",
    "modules",
    "note",
    "other args",
    "other arguments",
    "other params",
    "other parameters",
    "params",
    "parameters",
    "raises",
    "returns",
    "receives",
    "warns",
    "warning",
    "warnings",
    "yields",
]
_NUMPY_TITLES = [
    "attributes",
    "classes",
    "deprecated",
    "example",
    "functions",
    "methods",
    "note",
    "modules",
    "other parameters",
    "parameters",
    "raises",
    "receives",
    "returns",
    "warning",
    "warns",
    "yields",
]
_SPHINX_FIELDS = [
    "arg",
    "argument",
    "cvar",
    "except",
    "exception",
    "ivar",
    "key",
    "keyword",
    "param",
    "parameter",
    "raise",
    "raises",
    "return",
    "returns",
    "rtype",
    "type",
    "var",
    "vartype",
]


def _either(words: list[str]) -> str:
    return f"(?:{'|'.join(map(re.escape, words))})"


_SPHINX = re.compile(rf"\n[ \t]*:{_either(_SPHINX_FIELDS)}([ \t]+\w+)*:([ \t]+.+)?\n", re.I | re.M)
_GOOGLE = re.compile(rf"\n[ \t]*{_either(_GOOGLE_TITLES)}:([ \t]+.+)?\n[ \t]+.+", re.I | re.M)
_NUMPY = re.compile(rf"\n[ \t]*{_either(_NUMPY_TITLES)}\n[ \t]*---+\n", re.I | re.M)
"""griffe's heuristics (`griffe._internal.docstrings.auto`), tried Sphinx, Google, NumPy."""
_LETTER_COLON = re.compile(r":(?<=[^\W\d_]:)")
"""A colon right after a letter: in every `_GOOGLE` match (each title ends in a letter, and the
characters a letter matches case-insensitively are letters), found by looking for colons only."""


def docstring_style(value: str) -> Parser | None:
    """The style griffe's `infer_docstring_style` infers for a docstring whose cleaned text is
    `value`; `None` when no expression matches (griffe then reads it as Google style)."""
    if _SPHINX.search(value):
        return Parser.sphinx
    if _LETTER_COLON.search(value) and _GOOGLE.search(value):
        return Parser.google
    if _NUMPY.search(value):
        return Parser.numpy
    return None


_AT_MARGIN = re.compile(r"\n\S")


def griffe_value(text: str) -> str:
    """`griffe.Docstring(text).value` (`inspect.cleandoc(text.rstrip())`)."""
    value = text.rstrip()
    if value and not value[0].isspace() and "\t" not in value and _AT_MARGIN.search(value):
        return value  # cleandoc: no tab to expand, no margin to take off, no blank line to drop
    return inspect.cleandoc(value)
