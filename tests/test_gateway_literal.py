"""Every match of a pattern holds its needed literal, so a text without it is rightly not searched."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.course.accuracy import load_cases
from toolkit.gateway.literal import needed_literal
from toolkit.gateway.rules import find_order_id, load_rules

RULES = load_rules()
QUESTIONS = [case.question for case in load_cases()]

ATOMS = ["S", "N", "s", "n", "订", "\u212a", "k", ".", "[0-9]", "[SN]", "\\b", "(?=N)", "(?<!S)", "(?:S|N)"]
patterns = st.lists(
    st.tuples(st.sampled_from(ATOMS), st.sampled_from(["", "", "", "*", "+", "?", "{2}"])).map("".join),
    min_size=1,
    max_size=6,
).map("".join)
texts = st.text(alphabet="SNsnkK订0 \u212a", max_size=12)


@settings(max_examples=800, deadline=None)
@given(pattern=patterns, flags=st.sampled_from([0, re.IGNORECASE]), text=texts)
def test_every_match_holds_the_needed_literal(pattern, flags, text):
    try:
        compiled = re.compile(pattern, flags)
    except re.error:  # a repeated assertion, say
        return
    if compiled.search(text) is not None:
        assert needed_literal(compiled) in text


def test_what_literal_a_pattern_needs():
    cases = {
        r"(?<![A-Za-z0-9])SN[0-9]{12}(?![0-9])": "SN",
        "ab|cd": "",
        "(?i)SN1": "1",
        "(?i)订单SN": "订单",
        "a(?=b)bc": "bc",
        "a[0-9]b": "a",
        "x*yz": "yz",
        "": "",
    }
    assert {p: needed_literal(re.compile(p)) for p in cases} == cases
    assert needed_literal(re.compile("SN1", re.IGNORECASE)) == "1"


def _plain_order_id(text: str) -> str | None:
    match = RULES.order_id.search(text)
    return match.group(0) if match else None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([*QUESTIONS, "SN202610200001", "xSN202610200001", "SN2026102000011", "sn202610200001", "SN"])
        | st.text(max_size=8),
        max_size=4,
    ).map(" ".join)
)
def test_the_order_id_found_is_the_one_the_whole_search_finds(text):
    assert find_order_id(text, RULES) == _plain_order_id(text)
