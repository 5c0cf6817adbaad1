"""A matcher cut into its alternatives matches wherever the whole matcher matches."""

import re
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.gateway import branches, rules
from toolkit.gateway.branches import AnyOf, split, top_level_bars
from toolkit.gateway.rules import load_rules, read_text

RULES = load_rules()

PIECES = [
    "你好",
    "退款",
    "帮我把.{0,4}(退款|取消)",
    "(给我|帮我)(办理)?退款(?!政策)",
    r"\b(?i:hi|hello)\b",
    r"[0-9]\s*天.{0,3}[退换]",
    r"a\|b",
    "[|]x",
    "[]|]y",
    "[^]|]z",
    "(?#a|b)c",
    "(?:d|e)f",
    r"\d+",
    "^g",
    "h$",
    "(?=i)i",
    "(?<=j)k",
]
TEXT = st.text(alphabet=st.sampled_from("你好退款帮我把给办理政策天0123 hiHeLLo|abcdefghijkxyzCDFGK]\n"), max_size=24)


@pytest.mark.parametrize(
    ("pattern", "bars"),
    [
        ("a|b", [1]),
        (r"a\|b", []),
        ("[|]|b", [3]),
        ("[]|]|b", [4]),
        ("[^]|]|b", [5]),
        ("(a|b)|c", [5]),
        ("(?:(a|b)|c)|d", [11]),
        ("(?#x|y)|z", [7]),
        (r"[\]|]|z", [5]),
    ],
)
def test_the_bars_between_alternatives_are_those_outside_groups_classes_and_escapes(pattern, bars):
    assert top_level_bars(pattern) == bars


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=6), TEXT, st.sampled_from([0, re.IGNORECASE]))
def test_the_alternatives_match_wherever_the_whole_matches(pieces, text, flags):
    whole = re.compile("|".join(pieces), flags)
    searcher = split(whole)
    assert (searcher.search(text) is None) == (whole.search(text) is None)


def test_a_regex_that_cannot_surely_be_cut_is_kept_whole():
    for regex in (
        re.compile("a|b  # c|d", re.VERBOSE),  # a comment may hold a bar
        re.compile(r"\bhi\b"),  # one alternative
        re.compile("你好|您好"),  # every alternative begins with a literal: quick as it is
        re.compile("订单状态|订单"),  # the parser factors the common start
    ):
        assert split(regex) is regex
    cut = split(re.compile(r"(?i)x|\by"))  # a global flag holds in every part
    assert isinstance(cut, AnyOf) and cut.search("Y") and all(p.flags & re.IGNORECASE for p in cut.parts)


@settings(max_examples=300, deadline=None)
@given(TEXT, st.integers(min_value=0, max_value=3))
def test_a_long_text_is_read_as_a_short_one_is(text, copies):
    """`read_text` with the cut matchers (`LONG_TEXT` at 0) finds the same facts."""
    text = text * (1 + copies)
    with mock.patch.object(rules, "LONG_TEXT", 10**9):
        short = read_text(text, RULES)
    with mock.patch.object(rules, "LONG_TEXT", 0):
        long = read_text(text, RULES)
    assert long == short


def test_the_course_rules_are_cut_where_a_pattern_begins_otherwise():
    """The decline rules' union and the rules whose patterns do not begin with a literal are cut."""
    any_decline, declines, intents = RULES.long_reading
    assert isinstance(any_decline, AnyOf) and len(any_decline.parts) > 1
    assert {d.name for d, m in declines if isinstance(m, AnyOf)} == {
        "action_request",
        "no_lookup",
        "greeting",
        "thanks",
    }
    assert [i.tool for i, m in intents if isinstance(m, AnyOf)] == ["query_refund_policy"]
    assert branches.LONG_TEXT == rules.LONG_TEXT


def test_a_rule_copied_with_another_matcher_is_read_with_it():
    intent = replace(RULES.intents[0], matcher=re.compile("下单|(?:(?<!不)订购)"))
    custom = replace(RULES, intents=(intent,))
    text = "我想订购一台手机。" * 40
    assert read_text(text, custom).intents == (intent,)
