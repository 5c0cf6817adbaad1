"""The docstring patterns rewritten to run in linear time (`fast_schema._ENTRY`, `_NOT_GOOGLE`,
`reflect._SECTIONS` / `_SECTIONS_LINE`, `json_schema._HEADER_LINE`) answer as the old ones did.

The old patterns backtracked over long runs of blanks or word characters: a 20,000-character
docstring line of blanks took 1.5 s (`_ENTRY`), 20,000 blank lines 1.3 s (`_NOT_GOOGLE`), a field
without its closing colon 1.2 s, a class line of blanks 0.9 s. They are kept here as the reference,
and compared on every string written in the tests (each line of it too) and on random texts made
of the pieces the patterns look at."""

import ast
import pathlib
import random
import re

import pytest

from toolkit.tools import fast_schema, json_schema, reflect

OLD_ENTRY = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
OLD_NOT_GOOGLE = re.compile(r"^\s*(?:-{3,}|={3,})\s*$|^\s*:\w+[^:]*:|^\s*\.\.\s", re.M)
OLD_SECTIONS = re.compile(
    r"^\s*(?:(?i:Args|Arguments|Parameters|Params|Other Args|Other Arguments|Other Parameters|Other Params|"
    r"Keyword Args|Keyword Arguments|Type Args|Type Arguments|Type Parameters|Type Params|Returns?|Raises|"
    r"Exceptions|Yields?|Receives|Examples?|Notes?|Attributes|Functions|Methods|Classes|Modules|Type Aliases|"
    r"See Also|Warns|Warnings?|References)\s*:?\s*$|-{3,}\s*$|:\w+[^:]*:)",
    re.M,
)
OLD_HEADER_LINE = re.compile(r"[ \t]*class[ \t]+\w+[ \t]*(?:\([^()'\"#;\\]*\))?[ \t]*:[ \t]*(?:#.*)?\n?")

PIECES = [
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    "\r",
    "\x0c",
    ":",
    "::",
    "-",
    "---",
    "=",
    "===",
    "..",
    "*",
    "**",
    "(",
    ")",
    "#",
    "'",
    '"',
    "x",
    "ab",
    "_1",
    "Args",
    "Returns",
    "See Also",
    "Raises:",
    ":param",
    "class",
    "K",
    "é",
]


def _test_strings() -> list[str]:
    found: set[str] = set()
    for path in sorted(pathlib.Path(__file__).parent.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 5000:
                found.add(node.value)
    return sorted(found)


def _random_texts(count: int) -> list[str]:
    rng = random.Random(7)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 14))) for _ in range(count)]


def _groups(match: re.Match[str] | None) -> tuple[str, ...] | None:
    return None if match is None else (match.group(0), *match.groups())


@pytest.fixture(scope="module")
def texts() -> list[str]:
    written = _test_strings()
    return written + [line for text in written for line in text.split("\n")] + _random_texts(20_000)


def test_the_patterns_read_every_text_as_before(texts):
    assert len(texts) > 20_000
    for text in texts:
        for line in (text, text.strip()):
            assert _groups(fast_schema._ENTRY.match(line)) == _groups(OLD_ENTRY.match(line)), line
        assert fast_schema.at_a_line_start(fast_schema._NOT_GOOGLE, text) == bool(OLD_NOT_GOOGLE.search(text)), text
        assert fast_schema.at_a_line_start(reflect._SECTIONS_LINE, text) == bool(OLD_SECTIONS.search(text)), text
        assert bool(reflect._SECTIONS.match(text)) == bool(OLD_SECTIONS.match(text)), text
        assert _groups(json_schema._HEADER_LINE.fullmatch(text)) == _groups(OLD_HEADER_LINE.fullmatch(text)), text
        assert _groups(json_schema._HEADER_LINE.fullmatch("class K" + text)) == _groups(
            OLD_HEADER_LINE.fullmatch("class K" + text)
        ), text


HOSTILE = 200_000


@pytest.mark.parametrize(
    "doc",
    [
        "Summary.\n\nArgs:\n    x" + " " * HOSTILE + "y",
        "Summary.\n\n:a" + "b" * HOSTILE,
        "Summary." + "\n" * HOSTILE + "x",
        "Summary.\n\nArgs" + " " * HOSTILE + "x",
    ],
    ids=["entry-blanks", "field-without-colon", "blank-lines", "title-blanks"],
)
def test_hostile_docstrings_are_read_in_linear_time(doc, deadline):
    assert reflect.parse_docstring(doc)[0].startswith("Summary.")


def test_a_hostile_class_line_is_read_in_linear_time(deadline):
    assert json_schema._read_simple_block(["class K" + " " * HOSTILE + "x\n", "    a: int\n"]) is None


ONE_LINE = ["", " ", "\t", "a", " a ", "\ta\tb ", "  \u3000x", "\x0bx\x0c", "x\r", "\r\ny", "\u2028 a", "é\t", "a\nb"]


def test_a_one_line_attribute_docstring_is_cleaned_as_cleandoc_cleans_it():
    """`json_schema.one_line_cleandoc` skips `inspect.cleandoc`'s walk over the lines after the first: the same
    text for tabs, blanks of every kind, carriage returns and separators that are no newline (and a newline)."""
    import inspect

    texts = [a + b + c for a in ONE_LINE for b in ONE_LINE for c in ONE_LINE[:6]]
    for text in texts:
        assert json_schema.one_line_cleandoc(text) == inspect.cleandoc(text), repr(text)
