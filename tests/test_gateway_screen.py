"""`toolkit.gateway.screen`: a screened search finds exactly what the pattern's own search finds."""

from __future__ import annotations

import random
import re
import string
import sys

import pytest

from toolkit.gateway import screen
from toolkit.gateway.rules import load_rules

_ALPHABET = (
    string.ascii_letters
    + string.digits
    + " \t\n,.;:!?'\"-_$%/()"
    + "\u0130\u0131\u017f\u212a\u00e9\u00c9\u00df"  # the letters IGNORECASE folds onto ASCII ones, and others
    + "退款谢你好不要查下午好天元美港百分之\u3000，。？"
)
_WORDS = [
    "don't look it up",
    "do not use tools",
    "hi",
    "Hello",
    "thanks",
    "THX",
    "weather in Paris",
    "in New York",
    "next Monday",
    "tomorrow",
    "15 USD",
    "€20",
    "5 km",
    "Why don't",
    "帮我把订单退款",
    "不用查",
    "谢谢",
    "SN202610200001",
    "2026-12-01",
    "about the Eiffel Tower",
    "near me",
]


def _texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = ["", " ", *_WORDS]
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(0, 6)):
            if rng.random() < 0.4:
                parts.append(rng.choice(_WORDS))
            else:
                parts.append("".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 12))))
        texts.append(rng.choice(["", " ", ", ", "\n"]).join(parts))
    return texts


def _rules_patterns() -> list[re.Pattern[str]]:
    rules = load_rules()
    generic = rules.generic
    found = [rules.any_decline, rules.ascii_reading[0], rules.order_id, rules.date, rules.drop_sentences]
    found += [d.matcher for d in rules.declines] + [i.matcher for i in rules.intents]
    found += [m for _, m in rules.ascii_reading[1]] + [m for _, m in rules.ascii_reading[2]]
    found += [words for _, words in rules.categories] + [a.when for a in rules.answers]
    found += list(generic.facts.values()) + [p.pattern for p in generic.phrases]
    found += [
        p
        for p in (
            generic.currency_names,
            generic.ticker_names,
            generic.language_names,
            generic.unit_names,
            generic.negated,
            generic.place_joiner,
            generic.clauses,
            generic.follow_up,
            generic.statement,
            generic.question,
            generic.tool_finder,
            generic.relative_dates.pattern if generic.relative_dates else None,
        )
        if p is not None
    ]
    return [p for p in found if isinstance(p, re.Pattern)]


_SYNTHETIC = [
    r"(?i)\bhi\b|thanks",
    r"\Aok|no",
    r"^ok|no",
    r"(?m)^ok|no",
    r"(?i:abc)d|(?-i:XY)z",
    r"(?<![a-z])cat(?![a-z])|dog",
    r"a{2,3}b|c+?d",
    r"(a)\1|xy",
    r"x(?P<n>y)(?P=n)",
    r"(?:ab)*c",
    r"(?i)[k-m]ey",
    r"(?i)ſun|\u212aelvin",
    r"(?:foo|bar)?baz",
    r"(?>ab|a)c",
    r"[^a]bc|xyz",
    r"(?s:.)q",
    r"\bthe\B",
    r"(?i)ß|é",
    r"(?:\d{4})-\d\d|today",
    r"cat|dog(?=s)",
    r"(?i)(?:about|regarding)\s+(\w+)",
    r"(a)|(b)|(c)",
    r"\s*,\s*|and",
]


@pytest.mark.parametrize("source", _SYNTHETIC)
def test_a_screened_search_finds_what_the_pattern_finds_on_synthetic_patterns(source: str) -> None:
    pattern = re.compile(source)
    for text in _texts(300, seed=len(source)):
        _same(pattern, text)


def test_a_screened_search_finds_what_the_pattern_finds_for_every_rule_of_the_gateway() -> None:
    patterns = _rules_patterns()
    assert len(patterns) > 40
    screened = [p for p in patterns if screen.screen(p) is not None]
    assert len(screened) >= 10  # the declines, the names of currencies, tickers, languages, units, ...
    texts = _texts(80, seed=7)
    for pattern in patterns:
        for text in texts:
            _same(pattern, text)


def _same(pattern: re.Pattern[str], text: str) -> None:
    def seen(match: re.Match[str] | None) -> object:
        return None if match is None else (match.span(), match.groups())

    assert seen(screen.search(pattern, text)) == seen(pattern.search(text)), (pattern.pattern, text)
    for pos in (1, 3):
        assert seen(screen.search(pattern, text, pos)) == seen(pattern.search(text, pos)), (pattern.pattern, text)
    assert [seen(m) for m in screen.finditer(pattern, text)] == [seen(m) for m in pattern.finditer(text)]
    assert screen.findall(pattern, text) == pattern.findall(text), (pattern.pattern, text)


def test_a_pattern_that_may_match_nothing_or_starts_anywhere_has_no_screen() -> None:
    for source in (r"a*", r"(?!)", r"", r"x?|y", r"[^a]bc", r"\w+ing", r".x", r"[A-Z][a-z]+"):
        assert screen.screen(re.compile(source)) is None, source
    assert screen.screen(re.compile(r"(?i)\b(?:don't|hello)\b")) is not None


def test_a_pattern_the_engine_already_skips_through_keeps_its_own_search() -> None:
    """A literal prefix or a case-sensitive first class: the engine's own search is quick already."""
    for source in ("hello|help", "退款|谢谢", r"SN\d{12}", "[xyz]abc"):
        assert screen.screen(re.compile(source)) is None, source


def test_a_split_matcher_without_pos_is_searched_as_it_is() -> None:
    class Split:
        def search(self, text: str) -> str:
            return "searched " + text

    assert screen.search(Split(), "x") == "searched x"  # type: ignore[arg-type]


def test_every_letter_ignorecase_folds_onto_an_ascii_letter_is_in_the_screen_s_cases() -> None:
    """The screen's first class spells out IGNORECASE for ASCII letters: every character the engine matches
    with `(?i)x` must be in `_cases(x)`, on this Python (3.11, 3.12 and 3.13 in CI)."""
    letters = re.compile("(?i)[a-z]")
    folded = [chr(code) for code in range(128, sys.maxunicode + 1) if letters.fullmatch(chr(code))]
    for letter in string.ascii_lowercase:
        engine = {char for char in [letter, letter.upper(), *folded] if re.fullmatch(f"(?i){letter}", char)}
        assert engine == set(screen._cases(letter)), letter
