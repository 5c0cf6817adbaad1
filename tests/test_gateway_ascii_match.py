"""An ASCII text read with the rules' ASCII matchers gives what the whole matchers give."""

import copy
import functools
import re
import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit import data as course_data
from toolkit.course.accuracy import load_cases
from toolkit.gateway.ascii_match import ascii_parts, ascii_screen, needs_non_ascii
from toolkit.gateway.rules import Facts, Rules, _compile, find_order_id, load_rules, read_text

RULES = load_rules()
QUESTIONS = [case.question for case in load_cases()]


def plain_read_text(text: str, rules: Rules) -> Facts:
    """`read_text` as first written: every rule's whole matcher, whatever the text."""
    declines = tuple(d for d in rules.declines if d.matcher.search(text)) if rules.any_decline.search(text) else ()
    return Facts(text, find_order_id(text, rules), tuple(i for i in rules.intents if i.matcher.search(text)), declines)


# Pieces of patterns, some needing a non-ASCII character, some not (the Kelvin sign matches `k`
# under IGNORECASE; `ſ` matches `s`).
ATOMS = [
    "中",
    "文",
    "a",
    "k",
    "\u212a",
    "ſ",
    ".",
    "[0-9]",
    "[中文]",
    "[^中]",
    "[\u4e00-\u9fff]",
    "[\u2120-\u212f]",
    "\\w",
    "\\b",
    "(?=中)",
]
patterns = st.recursive(
    st.sampled_from(ATOMS),
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map("".join),
        st.lists(inner, min_size=2, max_size=3).map(lambda ps: "(?:" + "|".join(ps) + ")"),
        st.tuples(inner, st.sampled_from(["*", "+", "?", "{0,2}", "{1,3}", "{2}", "+?"])).map(
            lambda p: f"(?:{p[0]}){p[1]}"
        ),
        inner.map(lambda p: f"(?i:{p})"),
        inner.map(lambda p: f"(?>{p})"),
        inner.map(lambda p: f"({p})"),
    ),
    max_leaves=6,
)
ascii_texts = st.text(alphabet="aAkKsS 09_-中", max_size=12).map(lambda t: t.replace("中", ""))


@settings(max_examples=600, deadline=None)
@given(pattern=patterns, flags=st.sampled_from([0, re.IGNORECASE]), text=ascii_texts)
def test_a_pattern_needing_a_non_ascii_character_finds_nothing_in_an_ascii_text(pattern, flags, text):
    if needs_non_ascii(f"(?{'i' if flags else 'u'}){pattern}"):
        assert re.search(pattern, text, flags) is None


screen_patterns = st.recursive(
    st.sampled_from([*ATOMS, "A", "hi", "Hello", "K", "s", "(?:)"]),
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=4).map("".join),
        st.lists(inner, min_size=2, max_size=4).map(lambda ps: "(?:" + "|".join(ps) + ")"),
        st.tuples(inner, st.sampled_from(["*", "+", "?", "{2}", "+?"])).map(lambda p: f"(?:{p[0]}){p[1]}"),
        inner.map(lambda p: f"(?i:{p})"),
        inner.map(lambda p: f"({p})"),
    ),
    max_leaves=8,
)
screen_texts = st.text(alphabet="aAkKsShHiIello 0-", max_size=14)


@settings(max_examples=1000, deadline=None)
@given(pattern=screen_patterns, flags=st.sampled_from([0, re.IGNORECASE]), text=screen_texts)
def test_an_ascii_text_a_pattern_matches_holds_a_string_of_its_screen(pattern, flags, text):
    screen = ascii_screen(re.compile(pattern, flags))
    if screen is not None and re.search(pattern, text, flags) is not None:
        assert any(s in text.lower() for s in screen)


def test_what_screens_a_pattern():
    cases = {
        "\\b(?i:hi|hello)\\b": ("hi", "hello"),
        "(?i)SN[0-9]+x": ("sn",),
        "(?:ab)+c": ("ab",),
        "(?:a|)b": ("ab", "b"),
        "ab|cd": ("ab", "cd"),
        "a?": None,
        "ab|c*": None,
        "中": None,
        "(?i)\u212a": None,
        "": None,
    }
    assert {p: ascii_screen(re.compile(p)) for p in cases} == cases
    assert RULES.ascii_decline_screen == ("look", "tool", "hi", "hello", "thank", "thx", "cheers")


def test_what_needs_a_non_ascii_character():
    needs = [
        "中",
        "帮我把.{0,40}(退款|退了)",
        "(?:中)+x",
        "中|文",
        "[退换]",
        "(?i)[中文]",
        "x{0}中",
        "(?>中)",
        "(?i:中)",
    ]
    may_not = [
        "a|中",
        "(?:中)*x",
        "中{0}x",
        "(?=中)x",
        "[^中]",
        "[a中]",
        "(?i)\u212a",
        "(?i)[\u212a中]",
        "(?i)ſ",
        "(",
        "",
    ]
    assert all(needs_non_ascii(p) for p in needs)
    assert not any(needs_non_ascii(p) for p in may_not)
    assert ascii_parts(["你好", "hi", "Ａ"], ["中", "a|中"]) == (["hi"], ["a|中"])


SHOP_WORDS = sorted({*QUESTIONS, "hi", "Hello", "HI", "hello there", "SN202610200001", "xSN202610200001"})


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(SHOP_WORDS) | st.text(max_size=8), max_size=5).map(" ".join))
def test_the_shop_rules_read_every_text_as_the_whole_matchers_do(text):
    assert read_text(text, RULES) == plain_read_text(text, RULES)


@functools.cache
def _shop_rules_file() -> dict:
    """The shop's rules file as TOML reads it, read once (each of 300 drawn examples read it again: 7 ms)."""
    with open(course_data.path("gateway_rules.toml"), "rb") as f:
        return tomllib.load(f)


def _rules_with(keywords: list[str], patterns: list[str]) -> Rules:
    """The shop's rules with one more decline and one more intent, of these keywords and patterns."""
    raw = copy.deepcopy(_shop_rules_file())  # a fresh copy, as a new read gives: the lists below grow
    raw["decline"].append({"name": "extra", "keywords": keywords, "patterns": patterns, "reply": "x"})
    raw["intent"].append({"tool": "extra_tool", "keywords": keywords, "patterns": patterns})
    return _compile(raw)


@settings(max_examples=300, deadline=None)
@given(
    keywords=st.lists(st.sampled_from(["k", "中", "\u212a", "hi"]), max_size=2),
    extra=st.lists(patterns, max_size=2),
    text=ascii_texts | st.sampled_from(SHOP_WORDS),
)
def test_any_rules_read_an_ascii_text_as_the_whole_matchers_do(keywords, extra, text):
    rules = _rules_with(keywords, ["(?i:\u212a)", *extra])
    assert read_text(text, rules) == plain_read_text(text, rules)


def test_the_kelvin_sign_under_ignorecase_still_matches_k():
    rules = _rules_with([], ["(?i:\u212a)"])
    assert [i.tool for i in read_text("ok", rules).intents] == ["extra_tool"]


def test_a_rule_copied_with_another_matcher_is_read_with_that_matcher():
    """`dataclasses.replace(rule, matcher=…)` leaves the ASCII part made for the old matcher in
    the copy; it is used only with the matcher it was made from, so the copy reads as its own."""
    import dataclasses

    order = next(i for i in RULES.intents if i.tool == "query_order")
    english = dataclasses.replace(order, matcher=re.compile("where is my parcel"))
    rules = dataclasses.replace(RULES, intents=(english, *[i for i in RULES.intents if i is not order]))
    text = "where is my parcel SN202610200001"
    assert english in read_text(text, rules).intents
    assert read_text(text, rules) == plain_read_text(text, rules)
