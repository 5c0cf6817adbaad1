"""The docstring regexes searched from newline to newline (`fast_schema.at_a_line_start`) find
what the plain `^...` (re.M) searches find, on every docstring of the course's tests and
benchmarks and on texts built to trip them (blank lines, tabs, `\\r`, form feeds, Unicode
spaces, rules, fields, headers at the first and last line)."""

import ast
import functools
import pathlib
import re

import pytest

from toolkit.tools import fast_schema, reflect

PLAIN = {
    "not_google": (
        re.compile(r"^\s*(?:-{3,}|={3,})\s*$|^\s*:\w+[^:]*:|^\s*\.\.\s", re.M),
        fast_schema._NOT_GOOGLE,
    ),
    "sections": (
        re.compile(
            r"^\s*(?:(?i:Args|Arguments|Parameters|Params|Other Parameters|Keyword Args|Returns?|Raises|Yields?|"
            r"Examples?|Notes?|Attributes|See Also|Warnings?|References)\s*:?\s*$|-{3,}\s*$|:\w+[^:]*:)",
            re.M,
        ),
        reflect._SECTIONS_LINE,
    ),
    "google_header": (re.compile(reflect._GOOGLE_HEADER.pattern, re.M), reflect._GOOGLE_HEADER_LINE),
}

ROOT = pathlib.Path(__file__).resolve().parents[1]


@functools.cache  # the same ~330 files for each of the three searches: parsed once (1.1 s each time)
def _docstrings() -> tuple[str, ...]:
    found = []
    for path in [*sorted((ROOT / "tests").glob("test_*.py")), *sorted((ROOT / "benchmarks").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                doc = ast.get_docstring(node)
                if doc:
                    found.append(doc)
    return tuple(found)


PIECES = [
    "", "Summary.", "Args:", "  Args:", "Args :", "Returns", "---", "  ----  ", "===", "--", ":param x: y",
    "  :param x:", ":x", ":x\ny:", ":x y", ".. note::", "..", " .. x", "x: y", "\t", "\r", "\x0c", "\x0b",
    "\u00a0", "\u2003Args:", "\u2028", "Parameters\n----------", "x : int", "    order_id: The id.", "See Also",
]  # fmt: skip
TRICKY = [a + sep + b for a in PIECES for b in PIECES for sep in ("\n", "\n\n", "\r\n", " ", "\n \n")]


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_line_start_search_finds_what_the_plain_search_finds(name):
    plain, fast = PLAIN[name]
    texts = [*_docstrings(), *TRICKY]
    assert len(texts) > 1000
    for text in texts:
        assert fast_schema.at_a_line_start(fast, text) is (plain.search(text) is not None), repr(text)


def test_the_colon_first_header_search_finds_what_the_plain_search_finds():
    """`reflect._has_google_header` (a colon ending a line looked for first) against the plain
    `^...` search, on the same texts and on headers with blanks, tabs and line ends around the colon."""
    plain = re.compile(reflect._GOOGLE_HEADER.pattern, re.M)
    around = ["Args:", "args :", "ARGS\t:\t", "Returns:\r", "Raises:\x0c", "See Also:  ", "Args\n:", "Args:\n\n"]
    texts = [*_docstrings(), *TRICKY, *(a + sep + b for a in around for b in PIECES for sep in ("\n", " ", ""))]
    found = 0
    for text in texts:
        expected = plain.search(text) is not None
        assert reflect._has_google_header(text) is expected, repr(text)
        found += expected
    assert 100 < found < len(texts) - 100  # both answers drawn


def _sections_apart_plainly(text: str) -> str:
    """`reflect._sections_apart` written plainly: every line visited."""
    if not reflect._has_google_header(text):
        return text
    lines = text.split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        body_follows = i + 1 < len(lines) and lines[i + 1].startswith(" ")
        if out and out[-1].strip() and body_follows and reflect._GOOGLE_HEADER.match(line):
            out.append("")
        out.append(line)
    return "\n".join(out)


HEADED = [
    "Summary.\nArgs:\n    x: y\nReturns:\n    z",
    "Summary.\nArgs :\n  x: y\n\nRaises:\n    E: e\nReturns\n    r",
    "Args:\n    x: y\nmore\nReturns:\n    z",
    "S.\nArgs:\n\n\nReturns:\n    z\nReturns:\n\tz",
    "S.\n  \nArgs:\n    x\nExample:\n    >>> f()\nNote:\n    n",
    "S.\nargs:\r\n    x: y\nRETURNS: \n    z",
]


def test_sections_are_set_apart_as_the_plain_loop_sets_them():
    """Only the lines the header search finds are visited: the same text as visiting every line, on every
    docstring of the tests and benchmarks, the tricky pairs and headers over headers."""
    texts = [*_docstrings(), *TRICKY, *HEADED, *(a + "\n" + b for a in HEADED for b in HEADED)]
    for text in texts:
        assert reflect._sections_apart(text) == _sections_apart_plainly(text), repr(text)
