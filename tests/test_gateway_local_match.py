"""A local pattern found in a part of a text is found in the whole, so one search stands for many."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.gateway.local_match import is_local
from toolkit.gateway.rules import load_rules

ATOMS = ["a", "b", "订", ".", "[ab]", "[^a]", "\\w", "(a)", "\\1", "(?:a|b)", "(?>ab)", "(?i:A)"]
ANCHORS = ["^", "$", "\\b", "\\B", "\\A", "\\Z", "(?=a)", "(?!b)", "(?<=a)", "(?<!b)"]
patterns = st.lists(
    st.tuples(st.sampled_from(ATOMS + ANCHORS), st.sampled_from(["", "", "*", "+", "?", "{2}", "*?"])).map("".join),
    min_size=1,
    max_size=5,
).map("".join)
texts = st.text(alphabet="abAB订 \n", max_size=12)


@settings(max_examples=1000, deadline=None)
@given(pattern=patterns, flags=st.sampled_from([0, re.MULTILINE, re.DOTALL]), text=texts, data=st.data())
def test_a_local_pattern_found_in_a_part_is_found_in_the_whole(pattern, flags, text, data):
    try:
        compiled = re.compile(pattern, flags)
    except re.error:  # a repeated assertion, a reference to a group not yet closed
        return
    start = data.draw(st.integers(0, len(text)))
    part = text[start : data.draw(st.integers(start, len(text)))]
    if is_local(compiled) and compiled.search(part) is not None:
        assert compiled.search(text) is not None


def test_which_patterns_are_local():
    cases = {
        "a|b": True,
        "(a)\\1[0-9].+?": True,
        "(?>ab)c{2,}": True,
        "": True,
        "\\bhi": False,
        "^a": False,
        "a$": False,
        "a(?=b)": False,
        "(?<!x)a": False,
        "(a)?(?(1)b|c)": False,
    }
    assert {p: is_local(re.compile(p)) for p in cases} == cases
    assert load_rules().drop_sentences_local  # the shop's words, matched literally
