"""`toolkit.tools.docstring_style` = griffe: the style `infer_docstring_style` infers and the text
`Docstring(text).value` holds, over generated docstrings (Google, NumPy and Sphinx lines, titles
in any case and in the letters that match them case-insensitively, colons after letters and
after spaces, tabs, indentation, blank and whitespace lines). Each cheap check is also shown to
matter: a version of it with a flaw is caught by the same docstrings."""

import inspect
import random
import re
import sys

import pytest
from griffe import Docstring, infer_docstring_style

from toolkit.tools import docstring_style
from toolkit.tools.docstring_style import docstring_style as style_of
from toolkit.tools.docstring_style import griffe_value


def _case_insensitive_matches(letters: list[str]) -> dict[str, list[str]]:
    """Every character each regular expression `letter` matches with `re.IGNORECASE`."""
    any_letter = re.compile(f"[{''.join(letters)}]", re.I)
    found = [c for c in map(chr, range(sys.maxunicode + 1)) if any_letter.fullmatch(c)]
    return {letter: [c for c in found if re.fullmatch(letter, c, re.I)] for letter in letters}


TITLE_LETTERS = sorted({c for title in docstring_style._GOOGLE_TITLES for c in title if c != " "})
LOOKALIKES = _case_insensitive_matches(TITLE_LETTERS)


def test_a_letter_matches_only_letters_case_insensitively():
    """What `_LETTER_COLON` rests on: whatever a title's letters match is a letter (`[^\\W\\d_]`)."""
    letter = re.compile(r"[^\W\d_]")
    assert all(letter.fullmatch(c) for found in LOOKALIKES.values() for c in found)
    assert "\u212a" in LOOKALIKES["k"] and "\u017f" in LOOKALIKES["s"]  # the odd ones are there


TITLES = ["Args", "Keyword Args", "Other Parameters", "Returns", "Raises", "Note", "Examples", "Warnings"]
TITLES += ["Parameters", "Yields", "Deprecated", "See Also", "Attributes", "Methods", "Receives", "Summary"]
LINES = [
    "A summary line.",
    "Text: with a colon.",
    "e.g.: an abbreviation",
    "See https://example.com for more.",
    "x : int",
    "x: int",
    "x, y : str, optional",
    "name (str): The name.",
    ":param x: The x.",
    ":param int x: The x.",
    ":Param x:",
    ":returns: Something.",
    ":rtype: int",
    ":raises ValueError: If.",
    ":meta: not a field",
    "----------",
    "---",
    " - - ",
    ">>> call()",
    "```",
    "",
    "",
    "   ",
    "\t",
    "\u3000",
    "\x0c",
]
INDENTS = ["", "", "", "    ", "  ", "\t", " \t", "        "]


def _title(rng: random.Random) -> str:
    """A section title in any case, sometimes with letters that match case-insensitively."""
    title = rng.choice(TITLES)
    title = rng.choice([title, title.lower(), title.upper(), title.replace(" ", "  ")])
    if rng.random() < 0.3:
        title = "".join(rng.choice(LOOKALIKES.get(c.lower(), [c])) for c in title)
    return title


def _line(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.3:
        text = _title(rng) + rng.choice([":", ":", " :", "", ": with text", ":\ttab"])
    elif kind < 0.4:
        return _title(rng) + "\n" + rng.choice(["----------", "---", "--", "  ---"])
    else:
        text = rng.choice(LINES)
    return rng.choice(INDENTS) + text


def generated(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    docs = []
    for _ in range(count):
        doc = "\n".join(_line(rng) for _ in range(rng.randint(1, 10)))
        if rng.random() < 0.6:  # most without tabs, and starting at the margin
            doc = doc.replace("\t", "    ").lstrip()
        else:
            doc = rng.choice(["", "\n", "  ", "\n\n    "]) + doc
        doc += rng.choice(["", "", "\n", "  \n", "\t"])
        docs.append(doc)
    return docs


DOCS = generated(0, 4000)


def _style_disagreements(style=style_of) -> list[str]:
    return [doc for doc in DOCS if style(Docstring(doc).value) != infer_docstring_style(Docstring(doc))[0]]


def test_generated_docstrings_cover_every_style():
    styles = {infer_docstring_style(Docstring(doc))[0] for doc in DOCS}
    assert {style.value if style else None for style in styles} == {"google", "numpy", "sphinx", None}


def test_style_equals_griffe_on_generated_docstrings():
    assert _style_disagreements() == []


@pytest.mark.parametrize("seed", range(1, 4))
def test_style_equals_griffe_on_more_docstrings(seed):
    for doc in generated(seed, 1500):
        assert style_of(Docstring(doc).value) == infer_docstring_style(Docstring(doc))[0], repr(doc)


def test_value_equals_griffe_on_generated_docstrings(monkeypatch):
    expected = [Docstring(doc).value for doc in DOCS]
    cleandoc, cleaned = inspect.cleandoc, []
    monkeypatch.setattr(docstring_style.inspect, "cleandoc", lambda text: cleaned.append(text) or cleandoc(text))
    assert [doc for doc, value in zip(DOCS, expected) if griffe_value(doc) != value] == []
    assert 500 < len(DOCS) - len(cleaned) < len(DOCS) - 500  # both paths taken often


def test_a_flawed_colon_check_is_caught(monkeypatch):
    """Only ASCII letters before the colon: the titles written in look-alike letters tell."""
    monkeypatch.setattr(docstring_style, "_LETTER_COLON", re.compile(r":(?<=[A-Za-z]:)"))
    assert _style_disagreements()


def _flawed_value(text: str, keep: str) -> str:
    """`griffe_value` with one of its conditions left out (`keep` names the one left out)."""
    value = text.rstrip()
    checks = {
        "non-empty": bool(value),
        "first line at the margin": not value[:1].isspace(),
        "no tab": "\t" not in value,
        "a line at the margin": bool(docstring_style._AT_MARGIN.search(value)),
    }
    del checks[keep]
    return value if all(checks.values()) else inspect.cleandoc(value)


@pytest.mark.parametrize("left_out", ["first line at the margin", "no tab", "a line at the margin"])
def test_a_flawed_value_check_is_caught(left_out):
    assert [doc for doc in DOCS if _flawed_value(doc, left_out) != Docstring(doc).value]


def test_a_sphinx_docstring_whose_one_field_is_its_last_line_is_read_as_sphinx():
    """griffe's Sphinx expression wants a line end after a field, and a cleaned docstring has none after
    its last line: a one-parameter tool documented `:param order_id: ...` (PyCharm's default style) was
    read as Google, the field left in the tool's description and the parameter undescribed (pydantic-ai
    reads it so; the OpenAI Agents SDK reads it as Sphinx). The style is told with the last line ended."""
    from toolkit.tools.reflect import griffe_docstring, parse_docstring

    doc = """Look up an order.

    :param order_id: Order id, e.g. SN202610200001"""
    expected = ("Look up an order.", {"order_id": "Order id, e.g. SN202610200001"})
    assert parse_docstring(doc) == expected
    assert griffe_docstring(doc) == expected
    assert parse_docstring(doc + "\n    ") == expected


@pytest.mark.parametrize("title", ["args", "ARGS", "arguments", "Parameters", "PARAMS", "keyword args"])
def test_a_google_title_in_any_case_is_a_section_as_griffe_reads_it(title):
    """griffe reads Google titles case-insensitively (`args:`, `ARGS:`); a lowercase or capitals title
    was taken for text: the whole block went into the tool's description and the parameter had none."""
    from toolkit.tools.reflect import griffe_docstring, parse_docstring

    doc = f"""Look up an order.

    {title}:
        order_id: Order id, e.g. SN202610200001

    returns:
        The order.
    """
    expected = ("Look up an order.", {"order_id": "Order id, e.g. SN202610200001"})
    assert griffe_docstring(doc) == expected
    assert parse_docstring(doc) == expected


def test_an_epytext_docstring_is_read_as_its_sphinx_twin():
    """Epytext (`@param x: ...`, Epydoc's style, still PyCharm's option) is Sphinx's fields written
    with `@`: the fields went into the tool's description as they were and no parameter was described."""
    from toolkit.tools.reflect import parse_docstring

    doc = """Look up an order.

    More about it.

    @param order_id: Order id,
        e.g. SN202610200001
    @type order_id: str
    @kwarg verbose: Say more.
    @arg limit: At most this many.
    @return: The order.
    @rtype: str
    @raise KeyError: No such order.
    """
    assert parse_docstring(doc) == (
        "Look up an order.\n\nMore about it.",
        {"order_id": "Order id, e.g. SN202610200001", "verbose": "Say more.", "limit": "At most this many."},
    )


def test_an_at_sign_elsewhere_stays_text():
    from toolkit.tools.reflect import parse_docstring

    doc = """Mail @param: someone.

    @tool marks it; write to ops@example.com.
    @tool x: not a field Epydoc knows.
    """
    assert parse_docstring(doc) == (
        "Mail @param: someone.\n\n@tool marks it; write to ops@example.com.\n@tool x: not a field Epydoc knows.",
        {},
    )
