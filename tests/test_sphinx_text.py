"""`fast_schema.sphinx_text` (a reST docstring read by blocks) gives what `sphinx_docstring`
(read line by line, as griffe's Sphinx parser reads) gives, on generated docstrings: fields of
every kind, unknown fields, continuations, a field on the first or last line, blank lines, odd
blanks, nothing but fields, nothing at all."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.tools import fast_schema

PIECES = [
    "", " ", "A summary line.", "Text: with a colon.", "    indented text", "\tTabbed text", ":", "::", ": x",
    ":param x: The x.", ":param y: The y,", "    continued.", ":param x: x again", ":param *args: The rest.",
    ":param **kw: The keywords.", ":param empty:", ":param empty:   ", ":parameter z: The z.", ":arg a: An a.",
    ":argument b: A b.", ":key k: A key.", ":keyword w: A keyword.", ":type x: int", ":typed x: odd",
    ":returns: Something.", ":return: Something else.", ":rtype: str", ":raises ValueError: Never.",
    ":var v: A variable.", ":note: Not a field griffe knows.", ":param str typed: A type inside.",
    ":param x : a space", ":param\tt: a tab", ":param x:no space after", ":paramx y: prefix only",
    ":param x: form\x0cfeed", ":param x: carriage\rreturn", ":param x: a \u2028 line separator",
    "Résumé ✓.", ":params p: plural", ":param: no name", ":param a:b: two colons",
]  # fmt: skip


def _both(value: str) -> None:
    assert fast_schema.sphinx_text(value) == fast_schema.sphinx_docstring(value.split("\n")), repr(value)


@pytest.mark.parametrize("seed", range(4))
def test_generated_docstrings_read_alike(seed):
    rng = random.Random(seed)
    answered = 0
    for _ in range(500):
        value = rng.choice(["\n", "\n", "\r\n", "\n\n"]).join(rng.choice(PIECES) for _ in range(rng.randint(0, 9)))
        _both(value)
        answered += fast_schema.sphinx_text(value) is not None
    assert answered > 100  # not only the declines


@pytest.mark.parametrize("value", ["", "\n", ":", "\n:", ":\n", "::\n:", "\n\n:param x: y", ":param x: y\n"])
def test_edges_read_alike(value):
    _both(value)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(alphabet=":\n xy\t*", max_size=8), max_size=8))
def test_drawn_docstrings_read_alike(pieces):
    _both("\n".join(pieces))
