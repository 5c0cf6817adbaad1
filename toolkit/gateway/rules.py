"""The fake gateway's keyword rules: `data/gateway_rules.toml`, loaded and compiled once.

`load_rules()` turns the TOML into a `Rules` record of precompiled regexes (cached per path);
`read_text()` reads one user message into `Facts`: the order id (and, on demand, the date
and product category) it mentions, the intents and "should not call" rules it matches (an
ASCII text only with the keywords and patterns that can match one: `toolkit.gateway.ascii_match`).
Nothing is decided here — which tool gets called, given a request's `tools` and
`tool_choice`, is the job of `toolkit.gateway.decide`. A rules file is read only if it is a regular
file of at most `MAX_RULES_BYTES` (`toolkit.files`).

Leaves out: Chinese numerals, synonyms, typos — anything a real model would understand and
a keyword list does not. That is the point: the rules are not tuned to pass tests.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from toolkit import data as course_data
from toolkit import files
from toolkit.errors import ConfigurationError
from toolkit.gateway.ascii_match import ascii_parts, ascii_screen
from toolkit.gateway.branches import LONG_TEXT, AnyOf, split
from toolkit.gateway.literal import needed_literal
from toolkit.gateway.local_match import is_local
from toolkit.gateway.screen import search
from toolkit.gateway.templates import check_templates

_NEVER = re.compile(r"(?!)")
_ALWAYS = re.compile("")


AsciiMatcher = tuple[re.Pattern[str], re.Pattern[str]]
"""A matcher and its part for ASCII texts: the keywords and patterns that can match one."""


@dataclass(frozen=True)
class Intent:
    """One intent: its keywords point at one tool."""

    tool: str
    """The tool this intent calls (only if the request offers it)."""
    matcher: re.Pattern[str]
    """Any keyword or pattern of the intent."""
    params: tuple[str, ...]
    """Parameter names used when the tool's schema is unknown (prompt protocol)."""
    needs_order_id: bool
    """Without an order id in the text, ask for one instead of calling."""
    ascii_matcher: AsciiMatcher | None = None
    """`matcher` for an ASCII text: its keywords and patterns that can match one, with the
    matcher it was made from (used only while that is still `matcher`: a rule copied with
    another matcher, `dataclasses.replace(intent, matcher=…)`, is read with its whole matcher)."""


@dataclass(frozen=True)
class Decline:
    """A "should not call" rule: a match is answered in text, with no tool call."""

    name: str
    matcher: re.Pattern[str]
    reply: str
    only_if_nothing_to_call: bool
    """Soft rules (greetings, thanks) give way when there is something to call."""
    ascii_matcher: AsciiMatcher | None = None
    """`matcher` for an ASCII text (see `Intent.ascii_matcher`)."""
    calls_nothing: bool = False
    """The user asked for no look-up ("don't look it up", "不用查"): no tool at all is called, not
    even one the other rules or the keyword picker would (only a `tool_choice` that forces a call)."""
    reply_en: str | None = None
    """The reply for a user who asked in English (an ASCII text, as `Answer.template_en` is chosen); None:
    `reply` as written."""

    def said(self, english: bool) -> str:
        """The reply in the user's language: `reply_en` for an English question where the rule has one."""
        return self.reply_en if english and self.reply_en is not None else self.reply


@dataclass(frozen=True)
class Answer:
    """How to turn one tool result into a sentence: the first matching `when` wins."""

    when: re.Pattern[str]
    template: str
    words: tuple[str, ...] | None = None
    """The words `when` is made of (None: it always matches): `when` matches a text holding any
    of them, which `in` finds quicker than the regex in a long text (`decide._template`)."""
    template_en: str | None = None
    """The template for a user who asked in English (an ASCII question, as the `_en` replies are chosen);
    None: `template` for every user."""


class Phrase(NamedTuple):
    """One `[[generic.phrases]]` entry: a string field whose name has a word of `names` and every word of
    `also` takes the first group `pattern` matches in the text; when it matches none, the field is asked
    for (`ask`) rather than given the user's whole words."""

    names: frozenset[str]
    also: frozenset[str]
    pattern: re.Pattern[str]
    ask: bool = True


Day = date
"""A day of the calendar (`Rules` has a field named `date`)."""

FIXED_TODAY = date(2026, 12, 1)
"""The gateway's one fixed day, a Tuesday, never the wall clock (a reply is the same on any day it is asked): the
"today" relative days are read against ("tomorrow" is 2026-12-02) and, at its midnight UTC, the `created` of every
reply (`GatewayConfig.created`). A rules file may move it (`[generic.relative_dates] today = 2027-03-01`); the
replies' `created` follows (`Rules.today`)."""


class RelativeDates(NamedTuple):
    """`[generic.relative_dates]`: the days a text names relative to the gateway's own fixed `today` ("tomorrow",
    "next Monday", "明天", "下周一"), read as days of the calendar (`on`)."""

    today: date
    """The gateway's today: fixed in the rules, never the wall clock (a reply is the same on any day)."""
    pattern: re.Pattern[str]
    """Where a day is named: group `next` a word of `next`, `weekday` a day's name, `day` a word of `days`."""
    days: dict[str, int]
    """A word (lower-cased) → how many days from today it is (tomorrow: 1, 昨天: -1)."""
    weekdays: dict[str, int]
    """A day's name (lower-cased) → its place in the week (Monday 0)."""

    def on(self, match: re.Match[str]) -> str | None:
        """The ISO day a match of `pattern` names: a word of `days` that many days from today; a weekday the
        first such day from today on, or after a `next` word that day of the week after this one. None for
        a day past the calendar's ends (`today = 9999-12-31`, "tomorrow")."""
        word = match.group("day")
        if word is not None:
            ahead = self.days[_blanks(word)]
        else:
            weekday = self.weekdays[_blanks(match.group("weekday"))]
            if match.group("next") is not None:
                ahead = 7 - self.today.weekday() + weekday  # that day of next week (weeks start on Monday)
            else:
                ahead = (weekday - self.today.weekday()) % 7
        try:
            return (self.today + timedelta(days=ahead)).isoformat()
        except OverflowError:
            return None


def _whole(table: str, word: object, n: object) -> int:
    """A number of days of `[generic.relative_dates.<table>]` (`tomorrow = 1`), within `MOST_DAYS` of today
    (`whole_number`). It was `int(n)`: a day out of the calendar's range (`3000000`) loaded, and was an
    `OverflowError` on every request that named it."""
    return whole_number(f"[generic.relative_dates.{table}] {word}", n, -MOST_DAYS, MOST_DAYS, "tomorrow = 1")


MOST_DAYS = 36_525
"""The most days from today a word of `[generic.relative_dates.days]` may name (a hundred years)."""


def whole_number(where: str, n: object, least: int, most: int, example: str) -> int:
    """`n`, a whole number a rules file gives (`where`: its table and key), from `least` to `most`; else a
    `ValueError` naming it (a `ConfigurationError` of `load_rules`). Not `int(n)`: `true` was read as 1, `"3"` as
    3 and `1.5` as 1, `inf` was an `OverflowError` past `load_rules`' errors, and a number past what it is used
    for loaded and failed each request later (`min_word = 9223372036854775807`: a regex repetition too large)."""
    if type(n) is int and least <= n <= most:
        return n
    raise ValueError(
        f"{where} must be a whole number from {least} to {most} (no quotes), such as {example}; got {n!r:.40}"
    )


def _blanks(word: str) -> str:
    """A matched word as its table writes it: lower-cased, each run of blanks one space."""
    return " ".join(word.lower().split())


def _relative_dates(data: Any) -> RelativeDates | None:
    """`[generic.relative_dates]` compiled (None without it). Its `today`, when written (else `FIXED_TODAY`), must
    be a TOML date (`today = 2026-12-01`; a date-time is read as its day): a string or a number is refused
    (`ValueError`, a `ConfigurationError` of `load_rules`), as no day could be counted from it."""
    if not isinstance(data, dict):
        return None
    today = data.get("today", FIXED_TODAY)
    if not isinstance(today, date):
        raise ValueError(
            f"[generic.relative_dates] today must be a TOML date such as today = 2026-12-01 (no quotes), got {today!r}"
        )
    today = today.date() if isinstance(today, datetime) else today
    days = {_blanks(str(w)): _whole("days", w, n) for w, n in data.get("days", {}).items()}
    weekdays = {_blanks(str(w)): _whole("weekdays", w, n) % 7 for w, n in data.get("weekdays", {}).items()}

    def words(names: Any) -> str:
        written = [
            "(?<![A-Za-z])" + r"\s+".join(map(re.escape, n.split())) + "(?![A-Za-z])"
            if n[:1].isascii()
            else re.escape(n)
            for n in sorted({_blanks(str(n)) for n in names}, key=len, reverse=True)
        ]
        return "|".join(written) or "(?!)"

    pattern = f"(?:(?P<next>{words(data.get('next', ()))})\\s*)?(?P<weekday>{words(weekdays)})|(?P<day>{words(days)})"
    return RelativeDates(today, re.compile(pattern, re.IGNORECASE), days, weekdays)


@dataclass(frozen=True)
class GenericRules:
    """The `[generic]` section: how to call tools the other rules do not name."""

    min_score: int
    min_word: int
    stopwords: frozenset[str]
    chinese_stop_chars: frozenset[str]
    glossary: tuple[tuple[str, tuple[str, ...]], ...]
    """Chinese word → English search terms."""
    facts: dict[str, re.Pattern[str]]
    """Fact name → regex (the value is group 1, or the first group that matched)."""
    params: tuple[tuple[str, str], ...]
    """A word in a parameter's name → the fact it wants, in file order."""
    tool_finder: re.Pattern[str] | None = None
    """Matches the name and description (`_` and `-` as blanks) of a tool that finds tools."""
    follow_up: re.Pattern[str] | None = None
    """Matches a follow-up's elliptical form ("And in London?", "那上海呢？"): only such a text asks
    again what the turn before asked (`decide._follow_up_calls`)."""
    statement: re.Pattern[str] | None = None
    """Matches a text that tells rather than asks ("I was in Paris last week, the weather was nice."): it
    calls no unruled tool (`decide._auto`)."""
    question: re.Pattern[str] | None = None
    """Matches a text that asks what is there ("what's on my calendar tomorrow?", "do I have anything on
    Friday?", "明天有什么安排"): of tools tied by its words, one whose name's verb reads (`read_verbs`:
    `list_events`) wins over one that writes (`create_event`), whichever is listed first (`generic.broken_tie`)."""
    read_verbs: frozenset[str] = frozenset()
    """The first words of a tool's name that read, not change (get, list, show, search, ...)."""
    place_joiner: re.Pattern[str] | None = None
    """Matches what joins a list's places right after one ("Paris and Rome", "北京和上海"; group 1 a
    capitalised name after it, if any): a tool's one place field is called for each (`generic.listed_calls`)."""
    clauses: re.Pattern[str] | None = None
    """Where a message's clauses part ("… and …", "…，再…"): each may ask for another tool."""
    clause_min_score: int = 2
    """The score a clause's tool needs to be called beside another clause's."""
    synonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A search term → the other words of its `[generic] synonyms` groups, searched for with it when a
    tool is picked ("weather" finds `get_forecast`)."""
    sum_hints: tuple[str, ...] = ()
    """The terms searched for beside a text's words when it asks for a sum (`arith.read`: "15% of 80")."""
    ticker_hints: tuple[str, ...] = ()
    """The terms searched for beside a text's words when it writes a stock ticker ("$AMZN", "NVDA")."""
    hints: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """An English search term → the terms searched for beside it whenever a tool is picked ("dollars":
    currency), one way."""
    currencies: dict[str, str] = field(default_factory=dict)
    """A currency's name (lower-cased) or symbol → its ISO 4217 code (`[generic.currencies]`)."""
    currency_names: re.Pattern[str] | None = None
    """Where a currency is named: a name or symbol of `currencies` (any case, not inside a longer ASCII
    word), or a code ISO 4217 lists (`[generic] currency_codes`) in capitals standing alone (USD, SEK; not
    the CEO, the USA)."""
    tickers: dict[str, str] = field(default_factory=dict)
    """A listed company's name (lower-cased) → its stock ticker (`[generic.tickers]`: "apple", "苹果": AAPL)."""
    ticker_names: re.Pattern[str] | None = None
    """Where a company of `tickers` is named (any case, not inside a longer ASCII word)."""
    languages: dict[str, str] = field(default_factory=dict)
    """A language's name (lower-cased) → its ISO 639-1 code (`[generic.languages]`)."""
    language_names: re.Pattern[str] | None = None
    """Where a language is named: a name of `languages` (any case, not inside a longer ASCII word)."""
    described: tuple[tuple[str, str], ...] = ()
    """A word in a parameter's description → the fact it wants, for a name that wants none."""
    phrases: tuple[Phrase, ...] = ()
    """Where the part of the text a field's name points at is (`[[generic.phrases]]`: a pickup, a
    destination, a unit to convert from), for a string no fact, label, default or example fills."""
    units: dict[str, str] = field(default_factory=dict)
    """A unit's code or name (lower-cased) → its code (`[generic.units]`: "miles", "mi": mi)."""
    unit_names: re.Pattern[str] | None = None
    """Where a unit is named in a text: a name or code of `units` not inside a longer ASCII word, a code of one
    letter only right after a number, "in" never (`_unit_names`)."""
    relative_dates: RelativeDates | None = None
    """The days a text names relative to the gateway's fixed today (`[generic.relative_dates]`), or None."""
    negated: re.Pattern[str] | None = None
    """Matches a clause that asks for something not to be done ("don't cancel it", "别取消订单"): the text
    without it is what is asked for (`toolkit.gateway.negated`)."""

    @functools.cached_property
    def param_words(self) -> re.Pattern[str]:
        """Matches where any word of `params` is (literally): a name it misses wants no fact."""
        return _matcher([word for word, _ in self.params])

    @functools.cached_property
    def described_words(self) -> re.Pattern[str]:
        """Matches where any word of `described` is (literally, in a lower-cased description)."""
        return _matcher([word for word, _ in self.described])

    @functools.cached_property
    def short_hints(self) -> re.Pattern[str] | None:
        """Where a hint's word shorter than `min_word` is in a text right after a number ("3 mi", "5km"; any case):
        a unit's code picks a converter though no search term is that short ("mi casa" is no mile). None when no
        hint is that short."""
        short = sorted(w for w in self.hints if len(w) < self.min_word and w.isascii() and w.isalnum())
        if not short:
            return None
        return re.compile(f"(?<=\\d)[ \u00a0]?({'|'.join(map(re.escape, short))})(?![A-Za-z0-9_'-])", re.IGNORECASE)

    @functools.cached_property
    def ascii_glossary(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The glossary entries whose word is ASCII: the only ones an ASCII text can contain."""
        return tuple((word, terms) for word, terms in self.glossary if word.isascii())


@dataclass(frozen=True)
class Rules:
    """Everything in the rules file, compiled."""

    order_id: re.Pattern[str]
    date: re.Pattern[str]
    params: dict[str, str]
    """Parameter name → fact name (`order_id`, `date`, `category`)."""
    categories: tuple[tuple[str, re.Pattern[str]], ...]
    declines: tuple[Decline, ...]
    intents: tuple[Intent, ...]
    fallback_tool: str | None
    direct_calls: bool
    order_ref: dict[str, str]
    replies: dict[str, str]
    summary_lines: int
    drop_sentences: re.Pattern[str]
    answers: tuple[Answer, ...]
    prompt_prefix: str
    generic: GenericRules
    any_decline: re.Pattern[str] = _NEVER
    """Matches where any decline rule would: one search rules them all out (the common case)."""
    any_decline_ascii: AsciiMatcher | None = None
    """`any_decline` for an ASCII text (see `Intent.ascii_matcher`)."""

    @property
    def today(self) -> Day:
        """The gateway's fixed day: `[generic.relative_dates] today` when the rules set it, else `FIXED_TODAY`."""
        dates = self.generic.relative_dates
        return dates.today if dates is not None else FIXED_TODAY

    @functools.cached_property
    def reading(self) -> Reading:
        """What `read_text` searches a text with: every decline and intent with its matcher."""
        return (
            self.any_decline,
            tuple((d, d.matcher) for d in self.declines),
            tuple((i, i.matcher) for i in self.intents),
        )

    @functools.cached_property
    def ascii_reading(self) -> Reading:
        """`reading` for an ASCII text: the ASCII matchers, without the rules that can match none."""

        def own(ascii: AsciiMatcher | None, whole: re.Pattern[str]) -> re.Pattern[str]:
            return ascii[1] if ascii is not None and ascii[0] is whole else whole

        return (
            own(self.any_decline_ascii, self.any_decline),
            tuple((d, m) for d in self.declines if (m := own(d.ascii_matcher, d.matcher)) is not _NEVER),
            tuple((i, m) for i in self.intents if (m := own(i.ascii_matcher, i.matcher)) is not _NEVER),
        )

    @functools.cached_property
    def long_reading(self) -> Reading:
        """`reading` for a long text: each matcher cut into its alternatives (`toolkit.gateway.branches`)."""
        return _split_reading(self.reading)

    @functools.cached_property
    def long_ascii_reading(self) -> Reading:
        """`ascii_reading` for a long text, cut as `long_reading` is."""
        return _split_reading(self.ascii_reading)

    @functools.cached_property
    def ascii_decline_screen(self) -> tuple[str, ...] | None:
        """Strings one of which a lower-cased ASCII text holds wherever `ascii_reading`'s
        `any_decline` matches it (`toolkit.gateway.ascii_match.ascii_screen`; None: search)."""
        any_decline = self.ascii_reading[0]
        return ascii_screen(any_decline) if isinstance(any_decline, re.Pattern) else None

    @functools.cached_property
    def order_id_literal(self) -> str:
        """Text every order id holds (`toolkit.gateway.literal`): a text without it has none."""
        return needed_literal(self.order_id)

    @functools.cached_property
    def drop_sentences_local(self) -> bool:
        """Whether `drop_sentences` matches a line wherever it matches one of its sentences
        (`toolkit.gateway.local_match`): a line it does not match keeps every sentence."""
        return is_local(self.drop_sentences)

    @functools.cached_property
    def ruled_tools(self) -> frozenset[str]:
        """The tools a shop rule names (the intents' and the fallback): left to the rules."""
        fallback = {self.fallback_tool} if self.fallback_tool is not None else set()
        return frozenset({i.tool for i in self.intents} | fallback)

    def intent_for(self, tool: str) -> Intent | None:
        return next((i for i in self.intents if i.tool == tool), None)


Searcher = re.Pattern[str] | AnyOf
"""What `read_text` searches with: a matcher, or its alternatives (`toolkit.gateway.branches`)."""
Reading = tuple[Searcher, tuple[tuple[Decline, Searcher], ...], tuple[tuple[Intent, Searcher], ...]]
"""`any_decline`, each decline rule and each intent with the matcher `read_text` searches with."""


def _split_reading(reading: Reading) -> Reading:
    any_decline, declines, intents = reading
    return (
        _split(any_decline),
        tuple((d, _split(m)) for d, m in declines),
        tuple((i, _split(m)) for i, m in intents),
    )


def _split(searcher: Searcher) -> Searcher:
    return split(searcher) if isinstance(searcher, re.Pattern) else searcher


class Facts(NamedTuple):
    """What one user message says, as far as the rules can tell."""

    text: str = ""
    order_id: str | None = None
    intents: tuple[Intent, ...] = ()
    declines: tuple[Decline, ...] = ()

    def get(self, fact: str, rules: Rules) -> str | None:
        """A fact by name; the date and category are only looked for when a tool needs them."""
        if fact == "order_id":
            return self.order_id
        if fact == "date":
            return _first(rules.date, self.text)
        if fact == "category":
            return next((name for name, words in rules.categories if words.search(self.text)), None)
        return None


def read_text(text: str, rules: Rules) -> Facts:
    """The order id, intents and decline rules found in `text` (an ASCII text is searched with
    the matchers' parts that can match it, `Rules.ascii_reading`, and only if it holds a string
    of `Rules.ascii_decline_screen` for the declines: the same findings)."""
    is_ascii = text.isascii()
    if len(text) < LONG_TEXT:
        any_decline, declines, intents = rules.ascii_reading if is_ascii else rules.reading
    else:  # each matcher's alternatives on their own: a long text is read quicker (`branches`)
        any_decline, declines, intents = rules.long_ascii_reading if is_ascii else rules.long_reading
    may_decline = _screened(text, rules.ascii_decline_screen) if is_ascii else True
    found = tuple([d for d, m in declines if search(m, text)]) if may_decline and search(any_decline, text) else ()
    matched = tuple([i for i, matcher in intents if search(matcher, text)]) if intents else ()  # none for English
    return Facts(text, find_order_id(text, rules), matched, found)


def _screened(text: str, screen: tuple[str, ...] | None) -> bool:
    """Whether the lower-cased `text` holds a string of `screen` (no screen: True)."""
    if screen is None:
        return True
    return any(map(text.lower().__contains__, screen))  # a C loop, no generator


def find_order_id(text: str, rules: Rules) -> str | None:
    """The first order id in `text`: `read_text(text, rules).order_id`, without the rest (a text
    without the literal every order id holds is not searched)."""
    return _first(rules.order_id, text) if rules.order_id_literal in text else None


def _first(pattern: re.Pattern[str], text: str) -> str | None:
    match = pattern.search(text)
    return match.group(0) if match else None


MAX_RULES_BYTES = 1024 * 1024
"""A rules file larger than this is refused unread (the course's is about 15 KB of patterns and
answer templates)."""


@functools.lru_cache(maxsize=8)
def load_rules(path: Path | str | None = None) -> Rules:
    """Load and compile a rules file; a broken file is a `ConfigurationError` naming it."""
    path = course_data.path("gateway_rules.toml") if path is None else path
    try:
        data = tomllib.loads(
            files.read_text(
                path,
                MAX_RULES_BYTES,
                where=f"gateway rules {path}",
                cap_name="toolkit.gateway.rules.MAX_RULES_BYTES",
                fix="keep a rules file to its patterns and templates (the course's is about 15 KB)",
                error=ConfigurationError,
            )
        )
        rules = _compile(data)
        _check_templates(rules)
        return rules
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, OverflowError, re.error) as exc:
        raise ConfigurationError(f"gateway rules {path}: {type(exc).__name__}: {exc}") from exc
    except RecursionError:  # tomllib reads nested arrays by recursion, without a bound
        raise ConfigurationError(f"gateway rules {path}: the file nests deeper than TOML can be read here") from None


def _compile(data: dict[str, Any]) -> Rules:
    style = data["answer_style"]
    return Rules(
        order_id=re.compile(data["facts"]["order_id"]),
        date=re.compile(data["facts"]["date"]),
        params=dict(data["params"]),
        categories=tuple((name, _matcher(words)) for name, words in data["categories"].items()),
        declines=tuple(_decline(d) for d in data["decline"]),
        intents=tuple(_intent(i) for i in data["intent"]),
        fallback_tool=data.get("fallback", {}).get("with_order_id"),
        direct_calls=data.get("direct", {}).get("enabled", False),
        order_ref=dict(data["order_ref"]),
        replies=dict(data["replies"]),
        summary_lines=style["summary_lines"],
        drop_sentences=_matcher(style["drop_sentences_with"]),
        answers=tuple(_answer(a) for a in data["answer"]),
        prompt_prefix=data["prompt_protocol"]["prefix"],
        generic=_compile_generic(data.get("generic", {})),
        any_decline=(any_decline := _matcher(*_any(data["decline"]))),
        any_decline_ascii=(any_decline, _matcher(*ascii_parts(*_any(data["decline"])))),
    )


def _decline(rule: dict[str, Any]) -> Decline:
    whole, ascii = _matchers(rule)
    soft, nothing = rule.get("only_if_nothing_to_call", False), rule.get("calls_nothing", False)
    return Decline(rule["name"], whole, rule["reply"], soft, ascii, nothing, rule.get("reply_en"))


def _intent(rule: dict[str, Any]) -> Intent:
    whole, ascii = _matchers(rule)
    return Intent(rule["tool"], whole, tuple(rule.get("params", ())), rule.get("needs_order_id", False), ascii)


def _matchers(rule: dict[str, Any]) -> tuple[re.Pattern[str], AsciiMatcher]:
    """A rule's matcher, and its part for ASCII texts paired with it (`Intent.ascii_matcher`)."""
    keywords, patterns = rule.get("keywords", ()), rule.get("patterns", ())
    whole = _matcher(keywords, patterns)
    return whole, (whole, _matcher(*ascii_parts(keywords, patterns)))


def _any(declines: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """The keywords and patterns of all the decline rules: one regex of them all matches
    wherever any decline rule would."""
    return [k for d in declines for k in d.get("keywords", ())], [p for d in declines for p in d.get("patterns", ())]


_MOST_SCORE = 1_000_000
"""The highest `[generic] min_score` / `clause_min_score` (a tool's score is a few points a word)."""
_LONGEST_WORD = 1_000
"""The highest `[generic] min_word`: the letters of the shortest word a search term may be."""


def _compile_generic(data: dict[str, Any]) -> GenericRules:
    return GenericRules(
        min_score=whole_number("[generic] min_score", data.get("min_score", 1), 0, _MOST_SCORE, "min_score = 1"),
        min_word=whole_number("[generic] min_word", data.get("min_word", 3), 0, _LONGEST_WORD, "min_word = 3"),
        stopwords=frozenset(w.lower() for w in data.get("stopwords", ())),
        chinese_stop_chars=frozenset(data.get("chinese_stop_chars", "")),
        glossary=tuple((word, tuple(terms)) for word, terms in data.get("glossary", {}).items()),
        facts={name: re.compile(pattern) for name, pattern in data.get("facts", {}).items()},
        params=tuple((word.lower(), fact) for word, fact in data.get("params", {}).items()),
        tool_finder=re.compile(data["tool_finder"]) if "tool_finder" in data else None,
        follow_up=re.compile(data["follow_up"]) if "follow_up" in data else None,
        statement=re.compile(data["statement"]) if "statement" in data else None,
        question=re.compile(data["question"]) if "question" in data else None,
        read_verbs=frozenset(w.lower() for w in data.get("read_verbs", ())),
        place_joiner=re.compile(data["place_joiner"]) if "place_joiner" in data else None,
        clauses=re.compile(data["clauses"]) if "clauses" in data else None,
        clause_min_score=whole_number(
            "[generic] clause_min_score", data.get("clause_min_score", 2), 0, _MOST_SCORE, "clause_min_score = 2"
        ),
        synonyms=_synonyms(data.get("synonyms", ())),
        sum_hints=tuple(str(t).lower() for t in data.get("sum_hints", ())),
        ticker_hints=tuple(str(t).lower() for t in data.get("ticker_hints", ())),
        hints={
            str(word).lower(): tuple(str(t).lower() for t in terms) for word, terms in data.get("hints", {}).items()
        },
        currencies=(names := _currencies(data.get("currencies", {}))),
        currency_names=_currency_names(names, data.get("currency_codes")) if "currencies" in data else None,
        tickers=(listed := {str(n).lower(): code for code, ns in data.get("tickers", {}).items() for n in ns}),
        ticker_names=_names(listed) if listed else None,
        languages=(spoken := {str(n).lower(): code for code, ns in data.get("languages", {}).items() for n in ns}),
        language_names=_names(spoken) if spoken else None,
        described=tuple((word.lower(), fact) for word, fact in data.get("described", {}).items()),
        phrases=tuple(
            Phrase(
                frozenset(str(w).lower() for w in entry.get("names", ())),
                frozenset(str(w).lower() for w in entry.get("also", ())),
                re.compile(entry["pattern"]),
                bool(entry.get("ask", True)),
            )
            for entry in data.get("phrases", ())
        ),
        units=(measures := {str(n).lower(): code for code, ns in data.get("units", {}).items() for n in [code, *ns]}),
        unit_names=_unit_names(measures) if measures else None,
        relative_dates=_relative_dates(data.get("relative_dates")),
        negated=re.compile(data["negated"]) if "negated" in data else None,
    )


def _synonyms(groups: Any) -> dict[str, tuple[str, ...]]:
    """Each word of the groups → the other words of every group holding it (lower-cased, each once)."""
    found: dict[str, dict[str, None]] = {}
    for group in groups:
        words = [str(w).lower() for w in group]
        for word in words:
            found.setdefault(word, {}).update(dict.fromkeys(w for w in words if w != word))
    return {word: tuple(others) for word, others in found.items()}


def _currencies(table: dict[str, Any]) -> dict[str, str]:
    """Each name (lower-cased) and the code itself → the code."""
    return {str(name).lower(): code for code, names in table.items() for name in [code, *names]}


def _names(names: dict[str, str]) -> re.Pattern[str]:
    """The names, longest first, an ASCII one not inside a longer ASCII word, in any case."""
    written = [
        rf"(?<![A-Za-z]){re.escape(n)}(?![A-Za-z])" if n[:1].isascii() and n[:1].isalpha() else re.escape(n)
        for n in sorted(names, key=len, reverse=True)
    ]
    return re.compile("|".join(written), re.IGNORECASE)


def _unit_names(units: dict[str, str]) -> re.Pattern[str]:
    """The names and codes of `units`, longest first, an ASCII one not inside a longer ASCII word (after a number
    too: "5km"); a code of one letter only right after a number ("5 m"; "e.g." is no gram); "in" never (a
    preposition far more often than an inch)."""
    written = []
    for name in sorted(units, key=len, reverse=True):
        if name == "in":
            continue
        if not name[:1].isascii() or not name[:1].isalnum():
            written.append(re.escape(name))
        elif len(name) == 1:
            written.append(rf"(?<=\d){re.escape(name)}(?![A-Za-z])|(?<=\d )(?-i:{re.escape(name)})(?![A-Za-z])")
        else:
            written.append(rf"(?<![A-Za-z_'-]){re.escape(name)}(?![A-Za-z_'-])")
    return re.compile("|".join(written), re.IGNORECASE)


def _currency_names(names: dict[str, str], codes: str | None = None) -> re.Pattern[str]:
    """The names, longest first (日元 before 元), an ASCII one not inside a longer ASCII word; or one of
    the `codes` (blank-separated: `[generic] currency_codes`, ISO 4217's) in capitals alone, any three
    capital letters alone when no codes are given."""
    written = [
        rf"(?<![A-Za-z]){re.escape(n)}(?![A-Za-z])" if n[:1].isascii() and n[:1].isalpha() else re.escape(n)
        for n in sorted(names, key=len, reverse=True)
    ]
    listed = sorted({c for c in codes.split() if re.fullmatch("[A-Z]{3}", c)}) if codes is not None else []
    code = f"(?:{'|'.join(listed)})" if listed else "[A-Z]{3}"
    return re.compile("|".join([rf"(?-i:(?<![A-Za-z]){code}(?![A-Za-z]))", *written]), re.IGNORECASE)


def _answer(answer: dict[str, Any]) -> Answer:
    """An `[[answer]]`: its `when` words (literal; none: it always matches) and its template."""
    words = tuple(answer["when"])
    english = answer.get("template_en")
    if words:
        return Answer(_matcher(words), answer["template"], words, template_en=english)
    return Answer(_ALWAYS, answer["template"], template_en=english)


def _matcher(keywords: Any = (), patterns: Any = ()) -> re.Pattern[str]:
    """One regex matching any keyword (literally) or any pattern; never matches if both empty."""
    parts = [re.escape(k) for k in keywords] + [f"(?:{p})" for p in patterns]
    return re.compile("|".join(parts)) if parts else _NEVER


def _check_templates(rules: Rules) -> None:
    """Every text the gateway fills can be filled (`toolkit.gateway.templates`)."""
    texts = [d.reply for d in rules.declines] + [a.template for a in rules.answers]
    texts += [d.reply_en for d in rules.declines if d.reply_en is not None]
    texts += [a.template_en for a in rules.answers if a.template_en is not None]
    check_templates(rules.order_ref, rules.replies, texts)
