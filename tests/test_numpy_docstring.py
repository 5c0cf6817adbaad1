"""The NumPy-docstring reader (`toolkit.tools.numpy_docstring`) = griffe's NumPy parser, as
reflection reads it: tables of docstrings and generated ones (sections of every kind,
admonitions, entries with several names or none, continuations at odd indentations, code
fences, dash lines in odd places)."""

import random

import pytest

from toolkit.tools import numpy_docstring as numpy_module
from toolkit.tools.numpy_docstring import numpy_docstring
from toolkit.tools.reflect import griffe_docstring, parse_docstring

NUMPY_DOCS = [
    "Summarise a text.\n\nParameters\n----------\ntext : str\n    The text to summarise.\nlanguage : str\n"
    "    The language of the summary, an ISO 639-1 code.\nmax_words : int\n    An upper bound.\n\n"
    "Returns\n-------\nstr\n    The summary.",
    "Greet.\n\nParameters\n----------\nname : str\n    The name.",
    "Greet.\n\nParameters\n----------\nx, y : int\n    Both.\n*args\n    The rest.\n**kwargs : dict\n    Options.",
    "Greet.\n\nMore text.\n\nNotes\n-----\nAn admonition, not the description.\n\nParameters\n----------\n"
    "a : int\n    The a,\n    over two lines.\n\n    And a paragraph.\nb\n  Two spaces.",
    "Greet.\n\nOther Parameters\n----------------\nloud : bool\n    Shout.\n\nRaises\n------\nValueError\n    If.",
    "Greet.\n\nExamples\n--------\n>>> greet()\n'hi'\n\nParameters\n----------\nx : int\n    The x.",
    "Greet.\n\n```\nParameters\n----------\n```\n\nParameters\n----------\nx : int\n    The x.",
    "Greet.\n\nParameters\n----------\n1x : int\n    Not a name.\nx : {'a', 'b'}, default 'a'\n    Choices.",
    "Greet.\n\nParameters\n----------\nx : int\n    The x.\n\nSee Also\n--------\nother : Another.",
    "Greet.\nParameters\n----------\nx : int\n    No blank line before the section.",
]
NUMPY_NOT_FAST = [  # no description: griffe writes one from `Returns`
    "Notes\n-----\nOnly a note.\n\nParameters\n----------\nx : int\n    The x.",
    "See Also\n--------\nother\n\nReturns\n-------\nint\n    A number.",
]


def _by_griffe(doc, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(numpy_module, "numpy_docstring", lambda lines: None)
        return parse_docstring(doc)


def _fast(doc, monkeypatch):
    """`parse_docstring(doc)`, and what the reader answered (`[]` when it was not asked: not
    NumPy style, or a plain Google docstring)."""
    answers = []
    with monkeypatch.context() as patch:
        patch.setattr(
            numpy_module, "numpy_docstring", lambda lines: answers.append(numpy_docstring(lines)) or answers[0]
        )
        return parse_docstring(doc), answers


@pytest.mark.parametrize("doc", NUMPY_DOCS + NUMPY_NOT_FAST)
def test_numpy_docstrings_equal_griffe(doc, monkeypatch):
    parsed, answers = _fast(doc, monkeypatch)
    assert parsed == _by_griffe(doc, monkeypatch) == griffe_docstring(doc)
    assert len(answers) == 1  # read as NumPy style
    assert (answers[0] is None) == (doc in NUMPY_NOT_FAST)


PIECES = [
    "A summary line.",
    "Text: with a colon.",
    "",
    "",
    "   ",
    "Parameters",
    "parameters",
    "Other Parameters",
    "Returns",
    "Yields",
    "Raises",
    "Examples",
    "Deprecated",
    "Attributes",
    "Type Parameters",
    "Notes",
    "See Also",
    "----------",
    "---",
    " - - ",
    "x : int",
    "y",
    "x, y : str, optional",
    "*args : tuple",
    "**kwargs",
    "9lives : int",
    "_private",
    "    The description,",
    "    continued.",
    "  two spaces in.",
    "\ttabbed",
    "        eight spaces in.",
    ">>> example()",
    "```",
    "```python",
    "1.0",
]


@pytest.mark.parametrize("seed", range(4))
def test_generated_numpy_docstrings_equal_griffe(seed, monkeypatch):
    """Random docstrings griffe reads as NumPy style: the reader gives what griffe gives, or
    leaves it to griffe (no description)."""
    rng = random.Random(seed)
    compared = answered = 0
    while compared < 600:
        lines = [rng.choice(PIECES) for _ in range(rng.randint(2, 14))]
        if rng.random() < 0.7:  # most with a section header underlined
            at = rng.randrange(len(lines))
            lines[at:at] = [rng.choice(["Parameters", "Other Parameters", "Returns", "Notes"]), "-" * 10]
        doc = "\n".join(lines)
        parsed, answers = _fast(doc, monkeypatch)
        if not answers:
            continue
        compared += 1
        assert parsed == _by_griffe(doc, monkeypatch), doc
        answered += answers[0] is not None
    assert answered > 200
