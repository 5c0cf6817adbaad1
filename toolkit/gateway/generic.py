"""Calling tools the rules were never written for: pick one by keywords, fill its arguments.

When no shop rule calls a tool, `pick(text, tools, context, rules)` reads the user's words as
search terms (`search_terms`) and ranks the request's other tools with the week-8 keyword
scorer (`toolkit.search.keyword.score`: +2 a term in the name, +1 in the description), a term found only
where a word starts (`word_score`: "rain" is no `train_model`; `getWeather` is read as get, weather). A tool
whose string parameter has an `enum` also scores through its values: each value's own words,
and the system-prompt text around it (a skill's description, say). The best tool scoring at
least `[generic] min_score` is called; a tie goes to the tool whose name's object the terms name (`broken_tie`:
"book a flight" finds `find_flights`, not `book_taxi`), then to the one whose required arguments the text
answers (`answered`: all of them, then the most distinct values: "What time is 12:00 UTC in Tokyo?" converts a
time, "What time is it in Tokyo?" asks for the current one), then to the tool listed first. A tool is picked by the terms and
their `[generic.hints]` ("dollars": currency; a hint breaks a tie among the tools the user's own words find best,
never outweighs them), and only when none is found, by their `[generic] synonyms` too
("weather" finds `get_forecast`); `picks` also counts the tools that score a clause's least, for
`toolkit.gateway.decide`'s calls of several tools in one message (`fill_clause` fills each from its clause).

`fill_arguments(schema, text, facts, rules)` builds arguments from the tool's JSON schema:
required fields only (everything, for a strict schema; an optional one with an `enum` whose value the
text names as a word, no stopword: "in fahrenheit"; a required name `properties` lacks takes
`additionalProperties`' schema; those a made one asks for by `dependentRequired`, or draft-07's
`dependencies`, too; optional ones, then `name1`, `name2`, ... only up to
`minProperties`), each typed as the schema says: a fact
from the text when one fits (the `[generic.facts]` regexes, chosen by the parameter's name or
`format`, or its description: `[generic.described]`; the k-th field asking for one fact takes the k-th value
the text holds, the last when it holds fewer: `convert_time` from Asia/Tokyo to Europe/London, a check-in and a
check-out date; a timezone also from a city the tz database names, `toolkit.gateway.zones`; a currency's ISO 4217
code from its name, `[generic.currencies]`, the one beside the amount first), or from a labelled line ("状态：已发货", "Status: shipped") whose label shares a
word with the field's name (the glossary translates Chinese labels), else `const`, an `enum`
value the text points at (the k-th of those it names for the k-th field of them: from USD, to EUR), `default`, `examples`, an example quoted in the description, else
the user's own words (strings), the search terms (arrays of plain strings: no enum, const,
choice, pattern, format or length; items asking only a format take every such fact of the text:
"to bob@x.org and amy@y.org"; other items are made from their schema), a number from the
text within bounds (one a date, time, email, URL or uuid is written with last: "on 2026/12/03 costing
$1,250" is 1250), `false`. A string is cut to `maxLength` or padded with `_` to `minLength`,
whatever it came from. A date fact is a day of the calendar, written `2026-12-04`, `2026/12/4`, `2026.12.4`, `2026年12月4日`,
`Dec 4, 2026` or `4 December 2026` (full-width digits too; `2026-02-30` is none; `12月4日` has no year, `12/03/2026` no order), or a day named relative to the gateway's fixed today (`[generic.relative_dates]`:
"tomorrow", "next Monday", `明天`, `下周一`; never the wall clock). A string with a `pattern` keeps its value when `re.search` finds the
pattern in it (searched only in a value no longer than the pattern's `search_limit`: `.*a.*b` in
125 characters, `^[a-z ]+$` in any), else a word of the text the pattern is found in (no stopword; the
k-th string of one pattern the k-th such word: "convert 100 USD to EUR" gives `from` USD, `to` EUR;
a word is also read in ASCII, `ＵＳＤ` as USD, and as the runs of letters and digits it is glued from,
`100USD` as 100 and USD; else the code of a currency the text names by its name that the pattern is found
in: "from euros to yen" gives EUR, JPY),
else a short string built from the pattern (`toolkit.gateway.patterned`;
the value as it was when the pattern cannot be built: lookarounds, backreferences, a pattern that
does not compile or would build over 1,000 characters; the first of its first strings that meets
the lengths). An array is padded up to `minItems` with
its last item repeated; with `uniqueItems` with other values instead (`_Filler.variants`: an enum's
other members, `true` after `false`, integers and numbers stepped by `multipleOf` or 1 within the
bounds, or halving a narrow range; another day, address or uuid of a format, the text's other words
the pattern finds, then its next string, a word with a number after it; an object with one property varied); when the schema has
too few (an enum of 2 for `minItems: 3`, a const), the first is repeated: no answer could be valid.
`$ref`, `anyOf` / `oneOf` / `allOf`, nested objects and arrays, and tuples (`prefixItems`, or draft-07's
`items` list with `additionalItems`, each
place its own schema; `items: false`, no more) are followed; a choice is filled with what the schema
asks beside it (`"oneOf": [{"required": ["a"]}, ...]` beside `properties`), and one whose value the text
gives wins over the first whose value is made up (a format's fixed value, a number only the bounds give,
a string built from a pattern: `Union[UUID, int]` of "record 42" is 42; a null wins over none). What a schema forbids or
asks of several choices or items at once is judged, not built (`toolkit.gateway.judge`, with
`jsonschema`): a value `not` refuses, or that more than one `oneOf` choice accepts, is replaced by
the first of the schema's other values that fits; `contains` puts matching items first; an `enum`
offers only the values that meet the keywords beside it. A `$ref` back to a schema being filled (a tree's children, a
chain's next link) is not filled again: an array of it is empty (unless `minItems` asks), an
`anyOf` takes another choice or null. A string of a `format` OpenAI's strict
mode checks (`date`, `date-time`, `email`, `uuid`, ... and `uri`, and pydantic's `ipvanyaddress`,
`ipvanyinterface`, `ipvanynetwork`, ...) takes that format's fact from the text, else a fixed value
of that format (`_FORMATS`): never the user's words, which no date is.

Every word list and pattern is data (`data/gateway_rules.toml`, section 6). Schemas are parsed
JSON, so every object in them is a `dict` (checked with `isinstance(x, dict)`: an ABC check such
as `Mapping` costs ten times as much, on the path every request with unruled tools takes).

Bounded whatever the schema: `$ref` and `allOf` are followed at most `_MAX_DEPTH` deep, and one
call of `fill_arguments` takes at most `_MAX_STEPS` steps (a schema that refers to itself from
several properties would otherwise grow exponentially: past the budget, what is left is `None`;
an item repeated to reach `minItems` costs its written size, so an array of arrays of itself stops
short instead of writing `minItems ** depth` values);
a string is at most `_MAX_CHARS` characters (the user's words at most `_MAX_WORDS_CHARS`, however
many fields take them), an array at most `_MAX_ITEMS` items, whatever `minLength` / `minItems` ask.
A text is read as its first `_MAX_TERMS` search terms (each term is looked for in every
description: a text of 100,000 different words took 80 s against 50 tools). An `enum` is read as
its first `_MAX_ENUM_VALUES` values (a tool list as its first `_MAX_ENUM_TOTAL`, in the tools'
order), looked for in the first `_MAX_CONTEXT` characters of the context, and only the first
`_MAX_NAMED` values a context holds get a window (`windows`: 2,000 values named in a 90 KB prompt
took 4.6 s, a 1 MiB request would have taken minutes); a value is pointed at in the text's first
`_MAX_CHARS` characters.

Leaves out: understanding. "Tokyo" becomes `Asia/Tokyo` only as the tz database names it
(`toolkit.gateway.zones`, 东京 too: not Beijing, not 北京, which are asked about: `unzoned`), "in three days" is no day,
and a question that shares a word with an unrelated tool's description calls that tool.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal
from ipaddress import IPv4Address, IPv4Network
from itertools import accumulate, chain, filterfalse, islice
from typing import Any, NamedTuple

from toolkit.gateway import arith, screen
from toolkit.gateway.described_choice import described_choice
from toolkit.gateway.durations import durations, spoken, unit_of
from toolkit.gateway.judge import Judge, allowed, any_one, containing, fitting, joined, json_key, only_one, takes
from toolkit.gateway.listed import facts_listed, numbers_listed
from toolkit.gateway.locked import asked_lock
from toolkit.gateway.months import without_month
from toolkit.gateway.named_numbers import name_words, numbers_beside, numbers_named, share_values, wants_share
from toolkit.gateway.named_thing import named_thing
from toolkit.gateway.ordinal_days import ordinal_days
from toolkit.gateway.own_words import without_own
from toolkit.gateway.patterned import compiled, pattern_string, search_limit
from toolkit.gateway.ranges import range_ends
from toolkit.gateway.required_fields import required_fields
from toolkit.gateway.rules import Facts, Rules
from toolkit.gateway.switched import asked_state
from toolkit.gateway.times import clock
from toolkit.gateway.worded import worded_numbers
from toolkit.gateway.yearless import yearless_days
from toolkit.gateway.zh_numbers import chinese_numbers
from toolkit.gateway.zones import city_names, zone_of
from toolkit.search.keyword import clean_terms

_WORD_START, _WORD_REST = "[A-Za-z]", "[A-Za-z0-9_'-]"
_ENGLISH = re.compile(f"{_WORD_START}{_WORD_REST}*")
_FIRST_CHINESE, _LAST_CHINESE = 0x4E00, 0x9FFF
"""The Chinese characters the generic picker pairs into search terms (CJK Unified Ideographs)."""
_EXAMPLE = re.compile(
    r"""(?:e\.g\.|for example|such as|例如|比如)[,:：]?\s*['"‘“「『]([^'"’”」』]{1,80})['"’”」』]""", re.I
)
"""An example quoted in a description: `e.g. 'Paris'`, `例如“上海”`, `比如「上海」` (the quotes the `quoted` fact reads)."""
_DESCRIBED_DEFAULT = re.compile(
    r"""(?:\bdefaults?(?:\s+(?:to|is|value\s+is))?\s*[:：]?|默认(?:为|是|值为|值是)?[:：]?)\s*['"‘“「`]([^'"’”」`]{1,80})['"’”」`]"""
    r"""|\buse\s+['"‘“`]([^'"’”`]{1,80})['"’”`][^.。\n]{0,80}?\b(?:if|when|unless)\b""",
    re.I,
)
"""A default a description states, quoted: "Defaults to 'UTC'", "默认为“UTC”", "Use 'UTC' ... if no timezone provided"
(the MCP time server's words); "use 'Asia/Shanghai' format" is no default (no if, when or unless after it)."""
_LABELLED = re.compile(r"^[ \t]*+([^:：\n \t][^:：\n]{0,23}?)[ \t]*+[:：][ \t]*+(\S[^\n]*)$", re.M)
"""A `label: value` line (`状态：已发货`). The label starts with what is not a blank, and the blanks
around it are read possessively: a line of blanks made every start of a label be tried with every
split of the blanks after it (two minutes on a 20,000-blank line of a tool result)."""
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_FORMATS = {
    "date": "2026-01-01",
    "date-time": "2026-01-01T00:00:00Z",
    "time": "00:00:00Z",
    "duration": "P1D",
    "email": "user@example.com",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "uri": "https://example.com/",
    "ipvanyaddress": "192.0.2.1",
    "ipvanyinterface": "192.0.2.1/24",
    "ipvanynetwork": "192.0.2.0/24",
    "ipv4interface": "192.0.2.1/24",
    "ipv4network": "192.0.2.0/24",
    "ipv6interface": "2001:db8::1/64",
    "ipv6network": "2001:db8::/64",
}
"""A value of each string `format` OpenAI's strict mode checks (and `uri`, a URL's, and the address,
interface and network formats pydantic writes for `IPvAnyAddress`, `IPv4Network`, ...), for a string
of that format the text has no value for: the user's words are no date, and a client that validates
the reply (pydantic, for a `date` field) refuses them. Formats are the JSON Schema spec's and
pydantic's, not rules."""
_FORMAT_FACTS = {"date": "date", "time": "time", "email": "email", "uri": "url", "uuid": "uuid"}
"""The `[generic.facts]` fact a string of a `format` takes from the text (the format decides, not the
name: a `start_time` in `date-time` format is no "14:30"); `date-time` is made from the date and time."""
_MAX_DEPTH = 8
_MAX_STEPS = 10_000
_MAX_CHARS = 10_000
_CHARS_A_STEP = 1_000
"""A made value repeated to reach `minItems` costs a step for each value in it, and one for each
this many characters of its strings (`_written`)."""
_MAX_WORDS_CHARS = 1_000
_MAX_ITEMS = 1_000
_MAX_SEARCHES = 20
"""How many searches at a pattern's `search_limit` (about 10 ms each) the values of one request may
cost in all (`_matching`)."""
_MAX_TERMS = 512
_MAX_ENUM_VALUES = 4_096
_MAX_ENUM_TOTAL = 4_096
_MAX_CONTEXT = 65_536
_MAX_NAMED = 256
_WINDOW = 300


_NO_CHOICE = object()
"""`_Filler.chosen`'s answer for a schema whose `anyOf` / `oneOf` is no list: filled as if it had none."""


class ToolInfo(NamedTuple):
    """What the request says about one offered tool."""

    description: str
    parameters: dict[str, Any]


# --- search terms ----------------------------------------------------------------------------


def search_terms(text: str, rules: Rules) -> list[str]:
    """The user's words as keyword-search terms: English words (no stopwords, long enough),
    the glossary's Chinese words and their translations, and the two-character Chinese pieces
    without a stop character. Cleaned as LangChain4j cleans them (lower-cased, each once); the
    first `_MAX_TERMS` of them.

    An English word is ASCII letters, digits, `_`, `'` and `-` only, so it is cleaned as it is
    found (lower-cased, nothing to trim); an ASCII text has no Chinese and only the glossary's
    ASCII words. `clean_terms` of every term in that order is the same list (a test holds it).
    An ASCII text is lower-cased before its words are found, in one call: lowering maps only
    `A-Z`, which the English pattern reads alike in either case (not so a non-ASCII text: the
    Kelvin sign, say, lowers to an ASCII letter). Only words of at least `min_word` characters
    are found (`_long_words`), and they are made distinct before the stopwords go, in C: the
    same terms in the same order as filtering each word found (a word is a stopword or not
    wherever it occurs)."""
    generic = rules.generic
    is_ascii = text.isascii()
    found = _long_words(generic.min_word).findall(text.lower() if is_ascii else text)
    terms = list(filterfalse(generic.stopwords.__contains__, dict.fromkeys(found if is_ascii else _lowered(found))))
    trimmed = "'" in text or "-" in text
    if trimmed:  # else no word has an end to trim
        terms = [w.strip("'-") for w in terms]
    glossary = generic.ascii_glossary if is_ascii else generic.glossary
    others = [t for word, translations in glossary if word in text for t in (word, *translations)] if glossary else []
    if others or trimmed:  # trimming may make two words one
        terms = list(dict.fromkeys(terms + clean_terms(others) if others else terms))
    if not is_ascii and len(terms) < _MAX_TERMS:
        terms = _with_pieces(terms, text, generic.chinese_stop_chars)
    return terms[:_MAX_TERMS]


def _with_pieces(terms: list[str], text: str, stop: frozenset[str]) -> list[str]:
    """`terms`, then the text's two-character Chinese pieces without a stop character, each once,
    until there are `_MAX_TERMS`: each pair of neighbouring Chinese characters that are not
    stop characters, found in C by `_kept_pairs` (a lookahead at each place: overlapping pairs),
    `_PIECES_READ` places at a time, so a text with many different pieces is not read to its end.
    A piece is its own cleaned term (an ideograph has no case and is no blank), so these are the
    terms `clean_terms` of every piece would add; a test holds them equal to pairing each run of
    Chinese characters, character by character, in Python (three to ten times slower)."""
    found = dict.fromkeys(terms)
    pairs = _kept_pairs(stop)
    for start in range(0, len(text), _PIECES_READ):
        # the pairs starting at start .. start + _PIECES_READ - 1 (the last one's second character
        # is the one before the end given)
        found |= dict.fromkeys(pairs.findall(text, start, start + _PIECES_READ + 1))
        if len(found) >= _MAX_TERMS:
            break
    return list(found)


_PIECES_READ = 2048


@functools.lru_cache(maxsize=8)
def _kept_pairs(stop: frozenset[str]) -> re.Pattern[str]:
    """Each place where two Chinese characters that are not in `stop` start (the range cut
    around each stop character in it), the pair as its group."""
    cuts = sorted(ord(ch) for ch in stop if _FIRST_CHINESE <= ord(ch) <= _LAST_CHINESE)
    spans, first = [], _FIRST_CHINESE
    for cut in cuts:
        if cut > first:
            spans.append((first, cut - 1))
        first = cut + 1
    if first <= _LAST_CHINESE:
        spans.append((first, _LAST_CHINESE))
    if not spans:
        return re.compile(r"(?!x)x")  # every Chinese character is a stop character: no piece
    kept = "[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in spans) + "]"
    return re.compile(f"(?=({kept}{kept}))")


def _lowered(words: list[str]) -> list[str]:
    return [w.lower() for w in words]


@functools.lru_cache(maxsize=8)
def _long_words(min_word: int) -> re.Pattern[str]:
    """`_ENGLISH` for words of at least `min_word` characters: a shorter word is passed over
    whole (its letters inside it are no word of their own), so the words found are `_ENGLISH`'s
    words of that length, in order."""
    return re.compile(f"{_WORD_START}{_WORD_REST}{{{max(min_word - 1, 0)},}}")


# --- picking a tool --------------------------------------------------------------------------


_WORD_STARTS = re.compile(r"(?<![a-z0-9])(?=[a-z0-9])")
_CAMEL_JOINS = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def worded(text: str) -> str:
    """`text` lower-cased with a blank before each start of a run of ASCII letters and digits, so that a
    term (`term_keys`) is found in it only where a word starts: "rain" is in "rainy" and "rain_gauge", not
    in "train_model" ("下雨" is a Chinese piece: no word has a start to mark, it is found anywhere)."""
    return _WORD_STARTS.sub(" ", text.lower())


def name_worded(name: str) -> str:
    """A tool's name as `worded`, its camelCase humps read as words first (`getWeather`: get, weather)."""
    return worded(_CAMEL_JOINS.sub("_", name))


def term_keys(terms: list[str]) -> list[str]:
    """Each (lower-case) term as it is looked for in a `worded` text: a plain ASCII word with a blank before it."""
    return [" " + t if t.isascii() and t.isalnum() else worded(t) for t in terms]


def name_parts(name: str) -> tuple[str, str]:
    """A tool's `name_worded` name cut into its verb (its first word) and its object (the rest): `find_flights`
    is find, flights; a name of one word is all object (`translate`, `weather`), its verb ""."""
    named = name_worded(name)
    first = named.find(" ")
    cut = named.find(" ", first + 1) if first != -1 else -1
    return (named[:cut], named[cut:]) if cut != -1 else ("", named)


def word_score(name: str, description: str, keys: list[str]) -> int:
    """LangChain4j's keyword score (`toolkit.search.keyword.score_text`: 2 a term in the name, 1 in the
    description), each term (`term_keys`) found only where a word of them starts (`worded`, `name_worded`):
    the week-8 search finds a term inside any word, a stranger's "will it rain?" is no `train_model`. A term
    only in the name's verb (`name_parts`) scores 1: the object the user names says more than the verb two
    tools share ("find movies with Tom Hanks" is `search_movies`, not `find_flights` by "find")."""
    verb, thing = name_parts(name)
    described = worded(description)
    return _name_score(verb, thing, keys) + sum([k in described for k in keys])


def _name_score(verb: str, thing: str, keys: list[str]) -> int:
    return sum([2 if k in thing else k in verb for k in keys])


def _pair_score(named: str, described: str, keys: list[str]) -> int:
    return sum([2 * (k in named) + (k in described) for k in keys])


def own_terms(text: str, rules: Rules, drop: frozenset[str] = frozenset()) -> list[str]:
    """`search_terms`, without those of `drop` (the words of a place the text names: `placed_out`)."""
    terms = search_terms(text, rules)
    return [t for t in terms if t not in drop] if drop else terms


def capitalised(text: str, own: list[str]) -> list[str]:
    """The user's terms (`own`, lower-cased) the text writes capitalised ("New", "York"): a place's words may be
    among them (`placed_out`). None in a text without capitals, found without a regular expression."""
    if text.islower():
        return []
    return [t for t in own if t.isascii() and t.capitalize() in text]


def placed_out(text: str, capital: list[str], rules: Rules) -> frozenset[str]:
    """The terms of `capital` (`capitalised`) that are words of a place the text names (`_place_words`), no hint's
    word ("to EUR" is a currency): asked only when one of them scores the tool picked ("convert 14:30 from London
    to New York" is no `get_news` by "new"), so the place regex is read only then."""
    placed = _place_words(text, rules).difference(rules.generic.hints)
    return frozenset(t for t in capital if t in placed)


def pick_terms(text: str, rules: Rules, drop: frozenset[str] = frozenset()) -> list[str]:
    """`search_terms` (without `drop`: `own_terms`), then the words of the text shorter than `min_word` that are
    hints' (`short_hints`: "km", "ft" are units' codes, a converter's terms), then the `[generic.hints]` of each
    (each term once): what a tool is picked by ("dollars" is about a currency). Only picking reads hints; an
    argument of search terms is the user's own words. The terms are looked up in C (`isdisjoint`) first: most
    texts have no hint."""
    terms = own_terms(text, rules, drop)
    hints = rules.generic.hints
    short = rules.generic.short_hints if hints else None
    if short is not None and (found := short.findall(text[:_MAX_CHARS])):  # "3 mi in km": a unit's code
        terms = list(dict.fromkeys(terms + [w.lower() for w in found]))
    if not hints or not terms or hints.keys().isdisjoint(terms):
        return terms
    return list(dict.fromkeys(terms + [other for term in terms for other in hints.get(term, ())]))


def last_terms(text: str, terms: list[str], rules: Rules) -> list[str] | None:
    """What a tool is picked by when neither the words nor their hints and synonyms find one, so read only then:
    `terms` and the `[generic] sum_hints` when the text asks for a sum ("what is 15% of 80", "3 加 5":
    `arith.read`; a calculator, never over a tool the words find: "1/2 cup of flour in grams" is a unit's
    conversion), not in a statement about oneself (`_told`: "I have 2 + 2 kids" asks nothing); else `terms` and
    the `[generic] ticker_hints` when it writes a stock ticker (`_tickered`: "$AMZN"); else None."""
    generic = rules.generic
    if generic.sum_hints and (found := arith.read(text)) is not None:
        return None if _told(text, found, rules) else list(dict.fromkeys(terms + list(generic.sum_hints)))
    if generic.ticker_hints and _TICKER_MARK.search(text, 0, _MAX_CHARS) and _tickered(text, rules):
        return list(dict.fromkeys(terms + list(generic.ticker_hints)))
    return None


_TICKER_MARK = re.compile(r"\$|[A-Z][A-Z0-9.]")
"""A `$`, or a capital before a capital, a digit or a dot: what a ticker is written with (a text without one
writes none: `_tickered` is not read)."""


def _tickered(text: str, rules: Rules) -> bool:
    """Whether the text writes a stock ticker: the `ticker` fact with a `$` before it ("$AMZN") or a ticker of
    `[generic.tickers]` ("What is NVDA at today"), never a currency's code. An unknown word in capitals without
    `$` is no ticker ("what is NASA"), nor a company's name alone ("apple pie")."""
    generic = rules.generic
    pattern = generic.facts.get("ticker")
    known, codes = generic.tickers.values(), generic.currencies.values()
    for match in screen.finditer(pattern, text[:_MAX_CHARS]) if pattern is not None else ():
        written = _group(match)
        if written not in codes and (match.group().startswith("$") or written in known):
            return True
    return False


def _told(text: str, found: arith.Sum, rules: Rules) -> bool:
    """Whether `text` with the sum `found` taken out is a statement (`[generic] statement`, which a number in a
    text otherwise keeps from matching: a statement's number is an argument)."""
    statement = rules.generic.statement
    start, end = found.span
    return statement is not None and statement.match(text[:start] + text[end:], 0, _MAX_CHARS) is not None


def synonym_terms(terms: list[str], rules: Rules) -> list[str] | None:
    """`terms` and the `[generic] synonyms` of each (each term once), or None when none has any: what a
    tool is picked by when the user's own words find none ("weather" finds `get_forecast`). Read only
    then, so a synonym never outweighs a word the user wrote ("汇率" picks `get_exchange_rate`, not
    `convert_currency` by exchange's synonym), and never in a tool's arguments."""
    synonyms = rules.generic.synonyms
    if not synonyms or synonyms.keys().isdisjoint(terms):
        return None
    return list(dict.fromkeys(terms + [other for term in terms for other in synonyms.get(term, ())]))


def pick(text: str, tools: dict[str, ToolInfo], context: str, rules: Rules, least: int | None = None) -> str | None:
    """The best-scoring tool for `text` (None if none reaches `least`, by default `min_score`), by its
    search terms and hints (`pick_terms`), else by them and their synonyms (`synonym_terms`)."""
    return picks(text, tools, context, rules, least)[0]


def picks(
    text: str, tools: dict[str, ToolInfo], context: str, rules: Rules, least: int | None = None, also: int = 0
) -> tuple[str | None, int]:
    """`pick`'s answer, and how many tools score at least `also` (0 when `also` is 0) by the terms and their
    synonyms: fewer than two, and no clause of the text can pick two tools (`decide._clause_calls`)."""
    return _picks(text, tools, context, rules, least, also, frozenset())


def _picks(
    text: str,
    tools: dict[str, ToolInfo],
    context: str,
    rules: Rules,
    least: int | None,
    also: int,
    drop: frozenset[str],
) -> tuple[str | None, int]:
    """`picks` by the terms without `drop`; once more without the words of a place that picked the tool
    (`placed_out`), unless that finds none."""
    terms = pick_terms(text, rules, drop)
    least = rules.generic.min_score if least is None else least
    if not terms:  # "what is 15% of 80": no word, but a sum
        summed = last_terms(text, terms, rules) if not drop else None
        return _best(tools, summed, context, least, also, text, rules) if summed else (None, 0)
    found = _best(tools, terms, context, least, also, text, rules)
    own = own_terms(text, rules, drop) if found[0] is not None else None  # read only when a tool is found
    if own is not None and len(terms) > len(own):
        found = (_hint_decides(tools, own, terms, context, least, text, rules) or found[0], found[1])
    if (more := synonym_terms(terms, rules)) is not None and (
        found[0] is None or also > 0 or not object_hits(found[0], terms)
    ):
        # none found: by the synonyms; else the contenders by them (a clause may find its tool by one), and a tool
        # found by its verb alone gives way to one whose object a synonym names ("find films": search_movies)
        again = _best(tools, more, context, least, also, text, rules)
        found = again if found[0] is None or by_object(found[0], again[0], terms, more) else (found[0], again[1])
    if found[0] is None and not drop and (summed := last_terms(text, terms, rules)) is not None:
        found = _best(
            tools, summed, context, least, also, text, rules
        )  # "7 times 6": a calculator; "$AMZN": a stock tool
    name = found[0]
    if name is None or drop or not (capital := capitalised(text, own_terms(text, rules) if own is None else own)):
        return found  # the usual case
    if word_score(name, tools[name].description, term_keys(capital)) and (placed := placed_out(text, capital, rules)):
        again = _picks(text, tools, context, rules, least, also, placed)
        return again if again[0] is not None else found
    return found


def _hint_decides(
    tools: dict[str, ToolInfo], own: list[str], hinted: list[str], context: str, least: int, text: str, rules: Rules
) -> str | None:
    """Where the user's own words find tools, the best of those that score most by them, by the words and
    their hints: a hint breaks a tie ("convert 10 dollars to euros": the currency converter, not the unit
    converter) but never outweighs a word the user wrote ("find movies with Snow White" is a film search,
    though snow is the weather's). None when the user's own words find no tool: the hints pick alone."""
    keys = term_keys(own)
    scores = {
        name: word_score(name, info.description, keys) + _enum_score(info.parameters, keys, context)
        for name, info in tools.items()
    }
    top = max(scores.values(), default=0)
    if top < least:
        return None
    tied = {name: tools[name] for name, score in scores.items() if score == top}
    return _best(tied, hinted, context, least, 0, text, rules)[0]


def _best(
    tools: dict[str, ToolInfo], terms: list[str], context: str, least: int, also: int, text: str, rules: Rules
) -> tuple[str | None, int]:
    """The tool scoring most by `terms` (at least `least`; of several, `broken_tie`), and how many score
    at least `also` (0 when it is 0)."""
    tied, best_score, contenders = [], least - 1, 0
    keys = term_keys(terms)
    for name, info in tools.items():
        total = word_score(name, info.description, keys) + _enum_score(info.parameters, keys, context)
        if total > best_score:
            tied, best_score = [name], total
        elif total == best_score and tied:
            tied.append(name)
        contenders += also > 0 and total >= also
    best = (tied[0] if len(tied) < 2 else broken_tie(tied, tools, terms, text, rules)) if tied else None
    return best, contenders


def broken_tie(names: list[str], tools: dict[str, ToolInfo], terms: list[str], text: str, rules: Rules) -> str:
    """Of `names` (tools tied by the `terms`), the first that the terms name the object of (`object_hits`:
    "book a flight" is about a flight, not about booking: `find_flights`, not `book_taxi`), then the first
    whose arguments take most of the text (`answered`). A term that is a word of a place the text names is an
    argument, not what the tool is about ("convert 14:30 from London to New York": "new" is no news). A tie is
    rare, so the schemas are read only then. Of those the text answers alike, a question of what is there
    (`[generic] question`) takes a tool whose name's verb reads (`read_verbs`: `list_events`, not `create_event`)."""
    placed = _place_words(text, rules)
    about = [t for t in terms if t not in placed] if placed else terms
    hits = [object_hits(name, about) for name in names]
    top = max(hits)
    tied = [name for name, hit in zip(names, hits) if hit == top]
    if len(tied) < 2:  # the object decides: the schemas are not read
        return tied[0]
    question, reading = rules.generic.question, rules.generic.read_verbs
    asks = question is not None and bool(reading) and question.search(text) is not None  # what is there: reads
    keyed = {name: (answered(tools[name].parameters, text, rules), asks and _verb(name) in reading) for name in tied}
    top_key = max(keyed.values())
    tied = [name for name in tied if keyed[name] == top_key]
    return tied[0] if len(tied) < 2 else first_named(tied, about, text, rules)


def _written_at(lowered: str, term: str) -> int:
    """Where `term` is first written in the `lowered` text, an ASCII word only where a word starts ("event" is not
    in "prevent"); -1 when it is not. Found with `str.find`, each place checked for a letter or digit before it
    (no regex is compiled for a term, which a user's words make new with every request); a term found inside
    words `_FINDS` times is searched for with the reference regex instead (`_written_at_plainly`)."""
    if not (term.isascii() and term[:1].isalnum()):
        return lowered.find(term)
    at = lowered.find(term)
    for _ in range(_FINDS):
        if at <= 0 or lowered[at - 1] not in _WORD_CHARACTERS:
            return at
        at = lowered.find(term, at + 1)
    return _written_at_plainly(lowered, term)


def _written_at_plainly(lowered: str, term: str) -> int:
    """The reference `_written_at` is held equal to, for an ASCII `term` starting with a letter or digit: one
    regex search, `term` with no lower-case ASCII letter or digit right before it."""
    found = re.search(f"(?<![a-z0-9]){re.escape(term)}", lowered)
    return found.start() if found else -1


_FINDS = 8
"""Places `_written_at` checks with `str.find` before it searches with a regex (a short word inside many longer
ones: "ing" in a page)."""
_WORD_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
"""What may not stand right before a word's start, as `_written_at_plainly`'s `(?<![a-z0-9])` reads it."""


def first_named(names: list[str], terms: list[str], text: str, rules: Rules) -> str:
    """Of `names` (tools tied by everything else), the one whose name holds the term the text writes first (a
    glossary word's translation where its word is written): the first words of a request say what is done, the
    later ones what it is done to or with ("search for the best pizza" is a search, not `order_pizza`;
    "明天下午3点提醒我开会" a reminder, not `list_events` by 开会). Tools that no written term names, or the same
    one, stay in their listed order."""
    lowered = text.lower()
    written = {term: _written_at(lowered, term) for term in terms}
    for word, translations in rules.generic.ascii_glossary if text.isascii() else rules.generic.glossary:
        if (at := lowered.find(word)) != -1:
            for term in translations:
                if written.get(term, -1) == -1 or at < written[term]:
                    written[term] = at
    never = len(text) + 1

    def first(name: str) -> int:
        words = [w.lower() for w in _NAME_WORDS.findall(name)]
        at = [written[t] for t in terms if written.get(t, -1) != -1 and any(t in word for word in words)]
        return min(at, default=never)

    return min(names, key=first)


def _verb(name: str) -> str:
    """The first word of a tool's name, lower-cased (`list_events`, `getWeather`: list, get)."""
    first = _NAME_WORDS.search(name)
    return first.group().lower() if first else ""


def _place_words(text: str, rules: Rules) -> set[str]:
    """The lower-cased words of the places the text names (the `place` fact, each match)."""
    pattern = rules.generic.facts.get("place")
    if pattern is None:
        return set()
    return {w.lower() for m in screen.finditer(pattern, text[:_MAX_CHARS]) for w in (_group(m) or "").split()}


def by_object(found: str, again: str | None, terms: list[str], more: list[str]) -> bool:
    """Whether `again` (the tool the terms and their synonyms, `more`, pick) takes the place of `found` (the one
    the user's own words pick): `found` is picked by its verb alone (none of `terms` in its object: "find films"
    finds `find_flights` by "find") and a synonym names the object of `again` ("films" is `search_movies`)."""
    return again is not None and again != found and not object_hits(found, terms) and object_hits(again, more) > 0


def object_hits(name: str, terms: list[str]) -> int:
    """How many of `terms` are in the words of a tool's `name` after its first (a name is a verb and its object,
    `book_taxi`, `getCurrentTime`; a name of one word is its object): a term in the verb ("book", "get") says
    what is done, the object what it is done to, which is what a user names the tool by."""
    words = [w.lower() for w in _NAME_WORDS.findall(name)]
    objects = words[1:] or words
    return sum(1 for term in terms if any(term in word for word in objects))


def answered(schema: Any, text: str, rules: Rules) -> tuple[bool, int]:
    """Whether the text itself gives a value (`_Filler.given`: a fact, a number, an `enum` value it names; no
    default, example or made-up value) to every required top-level field of a tool's parameter `schema` that
    asks for one, and to one at least; and how many distinct values it gives them: "What time is 12:00 UTC in Tokyo?" answers all three of
    `convert_time(source_timezone, time, target_timezone)` and one of `get_current_time(timezone)`; "What
    time is it in Tokyo?" answers all of `get_current_time` and leaves `convert_time`'s time unanswered.
    A field of free text (a query, a message) or of an `enum` the text names no value of asks for nothing a
    text lacks (any words answer it, as `fill_clause` reads it): it counts neither way. A string another field
    took already is no answer (the text's one currency for `from_currency` and `to_currency`: "convert 5
    pounds to kg" is no conversion of money, whose two currencies the text does not give). A text that gives a
    tool no value tells nothing of it ("下雨了" ties `get_weather(city)` with `train_model(dataset)` by "rain":
    neither is answered, and the first listed is called, as before)."""
    filler = _Filler(schema if isinstance(schema, dict) else {}, text, Facts(text=text), rules, "")
    values, unanswered = [], False
    for name, sub in filler.required(filler.resolve(filler.root, 0)):
        sub = filler.resolve(sub, 1)
        value = filler.given(name, sub)
        if value is not None and not (type(value) is str and json_key(value) in values):
            values.append(json_key(value))
        elif (
            value is not None or "enum" not in sub and (_kind(sub) in ("integer", "number") or filler.typed(name, sub))
        ):
            unanswered = True
    return bool(values) and not unanswered, len(set(values))


def tool_finder(offered: dict[str, ToolInfo], rules: Rules) -> str | None:
    """The first offered tool no shop rule names that finds tools (`[generic] tool_finder` matches its
    name and description, `_` and `-` read as blanks: LangChain4j's `tool_search_tool`), else None."""
    finder = rules.generic.tool_finder
    if finder is None:
        return None
    ruled = rules.ruled_tools
    for name, info in offered.items():
        if name not in ruled and finder.search(f"{name} {info.description}".replace("_", " ").replace("-", " ")):
            return name
    return None


def _enum_score(parameters: dict[str, Any], keys: list[str], context: str) -> int:
    """The best score of any `enum` value of a top-level parameter, read with its context, by the terms'
    `keys` (`term_keys`, found where a word starts: `word_score`)."""
    scores = [0]
    for words in enum_groups(parameters):
        scores += [_pair_score(worded(w), worded(around), keys) for w, around in zip(words, windows(words, context))]
    return max(scores)


def enum_groups(parameters: Any) -> list[list[str]]:
    """The `enum` values of each top-level parameter that has them, as strings."""
    properties = parameters.get("properties") if isinstance(parameters, dict) else None
    if not isinstance(properties, dict):
        return []
    groups = []
    for schema in properties.values():
        values = schema.get("enum") if isinstance(schema, dict) else None
        if isinstance(values, list) and values:
            groups.append([str(v) for v in values[:_MAX_ENUM_VALUES]])
    return groups


def first_enum_groups(tools: dict[str, ToolInfo]) -> dict[str, list[list[str]]]:
    """Tool name → its parameters' `enum` values (`enum_groups`), the first `_MAX_ENUM_TOTAL`
    values of the whole list in the tools' order (the picker reads each with every term)."""
    enums, left = {}, _MAX_ENUM_TOTAL
    for name, info in tools.items():
        groups = []
        for values in enum_groups(info.parameters):
            if left > 0:
                groups.append(values[:left])
                left -= len(groups[-1])
        if groups:
            enums[name] = groups
    return enums


def window(value: str, values: list[str], context: str) -> str:
    """The context right after `value` is mentioned, up to the next value mentioned. Each other
    value is looked for only where it would shorten the window (before its end), not in all the
    rest of the context: many values mentioned in a long prompt made it quadratic in the prompt."""
    start = context.find(value) if value else -1
    if start == -1:
        return ""
    begin = start + len(value)
    end = min(begin + _WINDOW, len(context))
    for other in values:
        at = context.find(other, begin, end + len(other) - 1) if other and other != value else -1
        if at != -1:
            end = min(end, at)
    return context[begin:end]


def windows(values: list[str], context: str) -> list[str]:
    """`window(v, values, context)` of every value, each value looked for in the context once,
    and only the values the context holds looked for in a window (one it lacks cannot end a
    window): quadratic in the values named, not in all the values. Bounded: the context's first
    `_MAX_CONTEXT` characters are searched, and the first `_MAX_NAMED` values it holds (in the
    values' order) get a window; the rest get none."""
    context = context[:_MAX_CONTEXT]
    held = [v for v in dict.fromkeys(values) if v and v in context][:_MAX_NAMED]
    found = {v: window(v, held, context) for v in held}
    return [found.get(v, "") for v in values]


def pick_enum(
    values: list[Any], text: str, context: str, rules: Rules, terms: list[str] | None = None, turn: int = 0
) -> Any:
    """The enum value the text points at: named literally (`named_values`; the `turn`-th of those it
    names, the last when it names fewer: a second field of one enum takes the second value), else best
    scored, else the first (`terms`: `search_terms(text, rules)`, if the caller has them already)."""
    values = values[:_MAX_ENUM_VALUES]
    named = named_values(values, text)
    if named:
        return named[min(turn, len(named) - 1)]
    if terms is None:
        terms = search_terms(text, rules)
    words, keys = [str(v) for v in values], term_keys(terms)
    scored = [
        (_pair_score(worded(w), worded(around), keys), i)
        for i, (w, around) in enumerate(zip(words, windows(words, context)))
    ]
    best, index = max(scored, key=lambda pair: (pair[0], -pair[1]))
    return values[index] if best > 0 else values[0]


def named_values(values: list[Any], text: str) -> list[Any]:
    """The `values` the text (its first `_MAX_CHARS` characters, in any case) names as words
    (`_mention_of`), in the order it first names them; a value named only inside another one's
    mention is not named ("pro max" names pro max, not pro)."""
    lowered = text[:_MAX_CHARS].lower()
    held = []
    for i, value in enumerate(values):  # a plain loop: the usual answer is none, without a regular expression
        word = str(value).lower()
        if word and word in lowered:
            held.append((i, word))
    if len(held) < 2:  # one value in the text: named if it is there as a word
        return [values[i] for i, word in held if _mention_of(word).search(lowered) is not None]
    spans = sorted([(m.start(), -m.end(), i) for i, word in held for m in _mention_of(word).finditer(lowered)])
    first: dict[int, None] = {}
    reach = -1
    for _, end, i in spans:  # the longer mention first where two start together
        if -end > reach:  # not inside the mention before it
            first.setdefault(i)
            reach = -end
    return [values[i] for i in first]


@functools.lru_cache(maxsize=1024)
def _mention_of(value: str) -> re.Pattern[str]:
    """Where the lower-cased `value` is in a lower-cased text as a word: where it starts or ends in an
    ASCII letter or digit, not next to another ("en" is not in "sentence"; 数码 is in 数码产品)."""
    before = "(?<![a-z0-9])" if value[:1].isascii() and value[:1].isalnum() else ""
    after = "(?![a-z0-9])" if value[-1:].isascii() and value[-1:].isalnum() else ""
    return re.compile(before + re.escape(value) + after)


# --- filling the arguments -------------------------------------------------------------------


def fill_arguments(
    schema: Any,
    text: str,
    facts: Facts,
    rules: Rules,
    *,
    context: str = "",
    known: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Arguments for a tool with parameter `schema`: `known` values first (kept as they are),
    then every other required field filled from the text or the schema."""
    filler = _Filler(schema if isinstance(schema, dict) else {}, text, facts, rules, context)
    return filler.object(filler.resolve(filler.root, 0), "", 0, known)


def follow_up(schema: Any, previous: dict[str, Any], text: str, facts: Facts, rules: Rules) -> dict[str, Any] | None:
    """The arguments of the previous turn's call (`previous`) with each top-level field the follow-up's
    `text` itself gives a value for replaced (`_Filler.given`): "And in London?" after get_weather(city=
    Paris, unit=celsius) is get_weather(city=London, unit=celsius); "and 250?" changes a convert's amount.
    A required field neither gives is filled as `fill_arguments` fills one (the previous arguments may
    lack it). None when the text gives no field a value ("ok", "what about tomorrow?": nothing to call again).
    One value given to several fields (the text names one currency, one zone) changes the last of them only:
    "what about yen?" after convert(from=USD, to=EUR) is from USD to JPY, not from JPY to JPY."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return None
    filler = _Filler(schema, text, facts, rules, "")
    given = {}
    for name, sub in properties.items():
        value = filler.given(name, sub) if type(name) is str and isinstance(sub, dict) else None
        if value is not None and value != previous.get(name):
            given[name] = value
    last = {json_key(value): name for name, value in given.items()}  # one value the text names: the last field
    given = {name: value for name, value in given.items() if last[json_key(value)] == name}
    return fill_arguments(schema, text, facts, rules, known={**previous, **given}) if given else None


def carried(
    schema: Any, arguments: dict[str, Any], before: dict[str, Any], text: str, facts: Facts, rules: Rules
) -> dict[str, Any]:
    """`arguments` with each required field the `text` gives no value for (`_Filler.given`) taken from
    `before` (the previous turn's arguments by name), when that value fits the field (`judge.takes`): a
    follow-up about another tool asks about the same place, the same order."""
    fields = required_fields(schema) if before else []
    if not fields:
        return arguments
    filler, made = _Filler(schema, text, facts, rules, ""), dict(arguments)
    for name, sub in fields:
        if (
            name in before
            and type(sub) is dict
            and filler.given(name, sub) is None
            and takes(schema, sub, before[name])
        ):
            made[name] = before[name]
    return made


def fill_clause(
    schema: Any, clause: str, text: str, facts: Facts, rules: Rules, *, context: str = ""
) -> dict[str, Any] | None:
    """Arguments from one `clause` of the user's `text` that asked for two tools ("the weather in Paris and
    the time in Tokyo": get_weather from "the weather in Paris"), as `fill_arguments` makes them from the
    clause; a required string that asks for a fact the clause lacks and the whole text has takes the whole
    text's ("the weather and the time in Tokyo": both Tokyo). A number is never taken from another clause:
    another clause's number is another question's amount. None when the tool asks for what a text can give
    (a number, a fact, a pattern's word) and neither gives any of it: the clause only shares
    a word with the tool ("I paid 20 dollars for the book" asks for no hotel: no city, no date)."""
    known: dict[str, Any] = {}
    if fields := required_fields(schema):
        own, whole = _Filler(schema, clause, facts, rules, ""), _Filler(schema, text, facts, rules, "")
        asks = answered = 0
        for name, field in fields:
            sub = own.resolve(field, 1)
            kind = _kind(sub)
            if "enum" in sub or not (kind in ("integer", "number") or (kind == "string" and own.typed(name, sub))):
                continue  # free text, a choice ("英文" for `en`), or what no text gives: any clause answers it
            asks += 1
            value = own.given(name, sub)
            if value is None and kind == "string":
                value = whole.given(name, sub)
                if value is not None:
                    known[name] = value
            answered += value is not None or (kind == "string" and bool(own.words_for(sub)))
        if asks and not answered:
            return None
    return fill_arguments(schema, clause, facts, rules, context=context, known=known)


def listed_calls(
    schema: Any, text: str, facts: Facts, rules: Rules, arguments: dict[str, Any], *, context: str = ""
) -> list[dict[str, Any]]:
    """`arguments`, and the arguments of one more call for each other place of the list the text writes
    (`_Filler.listed`: "weather in Paris and Rome", "北京和上海的天气" is a call for Paris, then Rome), when
    the tool has one required field asking for a place or a timezone, and `arguments` gave it the list's
    first: each other call is `fill_arguments` with that field known. Only `arguments` when a place of the
    list does not fit the field (a city with no IANA zone, a pattern it misses: a model asks of a list what it
    asks of one), or the text lists none (the usual case: one place, or none)."""
    joiner = rules.generic.place_joiner
    if (
        joiner is None
        or not isinstance(schema, dict)
        or not any(_joined_after(text, v, joiner) for v in arguments.values())
    ):
        return [arguments]  # the usual case, found cheaply: no argument's value is followed by a joiner
    filler = _Filler(schema, text, facts, rules, "")
    asking = _place_field(filler)
    if asking is None:
        return [arguments]
    name, sub, wanted = asking
    places = filler.listed()
    values = [zone_of(p) for p in places] if wanted == "timezone" else places
    values = list(dict.fromkeys(values))  # two cities of one zone are one call: "北京和上海", "Mumbai and Delhi"
    if len(values) < 2 or arguments.get(name) != values[0] or None in values:
        return [arguments]
    if "pattern" in sub and any(_matching(sub, v, filler) != v for v in values if v is not None):
        return [arguments]
    made = [fill_arguments(schema, text, facts, rules, context=context, known={name: v}) for v in values[1:]]
    return [arguments, *made]


def _place_field(filler: _Filler) -> tuple[str, dict[str, Any], str] | None:
    """(name, schema, "place" or "timezone") of the one required string field of the filler's schema asking
    for a place or a timezone (no `enum`), or None when none does, or several."""
    asking = [
        (name, sub, wanted)
        for name, sub in filler.required(filler.resolve(filler.root, 0))
        if (wanted := filler.wants_fact(name, sub)) in ("place", "timezone") and "enum" not in sub
    ]
    return asking[0] if len(asking) == 1 and _kind(asking[0][1]) == "string" else None


def asks_a_place(schema: Any, rules: Rules) -> bool:
    """Whether a tool's `schema` has one required field, a string asking for a place or a timezone (`get_weather
    (city)`, `get_time(timezone)`): each clause naming its own place is a call of its own (`decide._repeated_calls`:
    "is it sunny in Madrid and windy in Lisbon?")."""
    required = schema.get("required") if isinstance(schema, dict) else None
    if not isinstance(required, list) or len(required) != 1:
        return False
    return _place_field(_Filler(schema, "", Facts(text=""), rules, "")) is not None


def _as_written(value: Any) -> str | None:
    """How the text writes a string argument's value: a zone by its city (`Asia/Tokyo`: Tokyo, `New_York`:
    New York), anything else as it is; None for what is no string."""
    if type(value) is not str or not value:
        return None
    return value.rsplit("/", 1)[-1].replace("_", " ") if "/" in value else value


def _joined_after(text: str, value: Any, joiner: re.Pattern[str]) -> bool:
    """Whether the text writes `value` (`_as_written`) with `joiner` right after it (a list of places goes on);
    a zone's city in any case ("time in tokyo and london": `Asia/Tokyo`), by another city of the zone
    (`zones.city_names`: "time in Beijing and Tokyo": `Asia/Shanghai`) or by a Chinese name ("纽约和伦敦")."""
    written = _as_written(value)
    at = text.find(written) if written else -1
    if at == -1 and written and written != value:  # a zone's city, in another case, by another city or in Chinese
        for name in city_names(value):
            if name.isascii():
                found = re.search(re.escape(name), text, re.I)
                end = found.end() if found else -1
            else:
                end = text.find(name)
                end = end + len(name) if end != -1 else -1
            if end != -1 and joiner.match(text, end) is not None:
                return True
        return False
    return at != -1 and joiner.match(text, at + len(written or "")) is not None


def missing(schema: Any, text: str, facts: Facts, rules: Rules, arguments: dict[str, Any]) -> tuple[str, str] | None:
    """What a model would ask the user for before calling a tool with `arguments` (a call filled from `text`),
    as (what, the field's name), or None (the usual case): "timezone" (`unzoned`: a city the tz database does
    not name, alone or in a list: "time in Paris and Beijing"), "place" (a required field asking for a place
    took the user's whole words, the text naming none: "Will it be hot tomorrow?"), "currency" (two required
    fields asking for a currency took the one the text names, its only one: "the CEO's salary in USD" is no
    conversion from USD to USD), or "field" (a required field asking for a fact, or named for a part of the text,
    `[[generic.phrases]]`, took the user's whole words, or the value of another such field where its own part is
    not written: "track my parcel" names no tracking number, "book a taxi to the airport" no pickup, "a flight to
    Tokyo" no origin).
    Found cheaply when every string argument is a part of the text (a zone by its city) after its start, no
    list goes on after one and no two are the same: nothing was made up."""
    strings = [v for v in arguments.values() if type(v) is str]
    written = all((w := _as_written(v)) is not None and w in text and not text.startswith(w) for v in strings)
    joiner = rules.generic.place_joiner
    listed = joiner is not None and any(_joined_after(text, v, joiner) for v in strings)
    if written and not listed and len(set(strings)) == len(strings):
        return None  # the usual case
    if not isinstance(schema, dict) or not isinstance(schema.get("required"), list):
        return None
    filler = _Filler(schema, text, facts, rules, "")
    asking: dict[str | None, list[str]] = {}
    for name, sub in filler.required(filler.resolve(filler.root, 0)):
        sub = _unnulled(sub)
        if "enum" not in sub and _kind(sub) == "string":
            asking.setdefault(filler.wants_fact(name, sub) if "format" not in sub else "format", []).append(name)
    if "timezone" in asking and unzoned(filler, asking["timezone"], listed):
        return "timezone", asking["timezone"][0]
    whole = text[:_MAX_WORDS_CHARS]
    place = next((n for n in asking.get("place", ()) if arguments.get(n) == whole), None)
    if place is not None and filler.first_fact("place") is None:
        return "place", place
    currencies = [arguments.get(n) for n in asking.get("currency", ())]
    if len(currencies) > len(set(currencies)) and len(filler.currencies()) == 1:
        return "currency", asking["currency"][-1]
    if (same := _one_choice_twice(filler, arguments)) is not None:
        return "field", same
    if (invented := _made_up_format(filler, asking.get("format", ()), arguments)) is not None:
        return "field", invented
    if (example := _example_time(filler, asking.get("time", ()), arguments)) is not None:
        return "field", example
    if (zone := _example_zone(filler, asking.get("timezone", ()), arguments)) is not None:
        return "field", zone
    if (timeless := _timeless(filler, asking.get("format", ()), arguments)) is not None:
        return "field", timeless
    if (again := _one_day_twice(filler, [*asking.get("date", ()), *asking.get("format", ())], arguments)) is not None:
        return "field", again
    if (unoffered := _unoffered_language(filler)) is not None:
        return "choice", unoffered
    phrased = [n for names in asking.values() for n in names if filler.phrased(n)]
    typed = [n for wanted, names in asking.items() if wanted not in (None, "format", "quoted") for n in names]
    field = next((n for n in (*typed, *phrased) if arguments.get(n) == whole), None)
    places = [n for n in (*asking.get(None, ()), *asking.get("place", ())) if n in phrased]
    if field is None and len(places) > 1:  # "a flight to Tokyo": Tokyo is no origin (a date, a time may be both)
        values = [arguments.get(n) for n in places]
        field = next((n for n, v in zip(places, values) if values.count(v) > 1 and filler.phrase(n) is None), None)
    return ("field", field) if field is not None else None


_ASKED_FORMATS = ("date", "date-time", "time", "email", "uri", "uuid")
"""The string formats whose value a text gives (`_FORMAT_FACTS`) and a model asks for when it does not."""


def _made_up_format(filler: _Filler, names: Any, arguments: dict[str, Any]) -> str | None:
    """The first of the required string fields `names` (each of a `format`) whose value is its format's made-up one
    (`_FORMATS`: the text gives no day, address, link or uuid) where the schema offers none of its own (no
    `default`, no example): "book a room for Alice" to `book_room(day: date)` is no booking on 2026-01-01, but a
    question of which day ("tomorrow", "next Monday", "明天" are days: `[generic.relative_dates]`). None when
    every such field took a value the text gives (the usual case), or a format no text is read for."""
    properties = filler.resolve(filler.root, 0).get("properties")
    for name in names:
        sub = _unnulled(properties.get(name)) if isinstance(properties, dict) else None
        if not isinstance(sub, dict) or (fmt := sub.get("format")) not in _ASKED_FORMATS:
            continue
        if "default" in sub or _example(sub) is not None:
            continue
        if arguments.get(name) == _FORMATS[fmt] and _FORMATS[fmt] not in filler.text:
            return name
    return None


def _example_time(filler: _Filler, names: Any, arguments: dict[str, Any]) -> str | None:
    """The first of the required fields `names` (asking for a time by name) that took its schema's example, itself a
    time ("e.g. 07:00", "7am"), when the text names no time: "set an alarm" is no alarm at 07:00 but a question of
    when. None when the text names a time (the usual case), or a field has a `default` or took another value."""
    pattern = filler.rules.generic.facts.get("time")
    if not names or pattern is None or filler.first_fact("time") is not None:
        return None
    properties = filler.resolve(filler.root, 0).get("properties")
    for name in names:
        sub = _unnulled(properties.get(name)) if isinstance(properties, dict) else None
        if not isinstance(sub, dict) or "default" in sub or (example := _example(sub)) is None:
            continue
        if arguments.get(name) == example and any(map(clock, screen.finditer(pattern, example))):
            return name
    return None


def _example_zone(filler: _Filler, names: Any, arguments: dict[str, Any]) -> str | None:
    """The first of the required fields `names` (asking for a timezone) that took its schema's example (`examples`,
    or one quoted in the description: "e.g. 'America/New_York'") when the text writes no zone and names no city of
    one: "what time is it?" is no question about New York but one of where. None when the text gives a zone (the
    usual case), or the schema has a `default` or states one ("Use 'UTC' ... if no timezone provided")."""
    if not names or filler.zones():
        return None
    properties = filler.resolve(filler.root, 0).get("properties")
    for name in names:
        sub = _unnulled(properties.get(name)) if isinstance(properties, dict) else None
        if not isinstance(sub, dict) or "default" in sub or _described_default(sub) is not None:
            continue
        if (example := _example(sub)) is not None and arguments.get(name) == example:
            return name
    return None


def _timeless(filler: _Filler, names: Any, arguments: dict[str, Any]) -> str | None:
    """The first of the required fields `names` of format `date-time` that took the day the text names at a
    midnight it does not ("remind me tomorrow to call mom": tomorrow, but at what time?), where the schema has no
    `default` and states none. None when the text names a time (the usual case: "tomorrow at 7am", "at midnight")
    or no day (`_made_up_format` asks for those)."""
    if not names or filler.first_fact("time") is not None or filler.first_fact("date") is None:
        return None
    properties = filler.resolve(filler.root, 0).get("properties")
    for name in names:
        sub = _unnulled(properties.get(name)) if isinstance(properties, dict) else None
        if not isinstance(sub, dict) or sub.get("format") != "date-time":
            continue
        if "default" in sub or _described_default(sub) is not None:
            continue
        value = arguments.get(name)
        if type(value) is str and value.endswith("T00:00:00Z") and value != _FORMATS["date-time"]:
            return name
    return None


def _one_day_twice(filler: _Filler, names: list[str], arguments: dict[str, Any]) -> str | None:
    """The second of two required fields asking for a day (by name or by the `date` format; not a `date-time`, whose
    times may differ) that took the same day when the text names only one: "a hotel in Paris tomorrow" gives a
    check-in, not a check-out the same day. None in the usual case (fewer than two such fields, or two days named)."""
    properties = filler.resolve(filler.root, 0).get("properties")
    days: dict[str, str] = {}
    for name in names:
        sub = properties.get(name) if isinstance(properties, dict) else None
        value = arguments.get(name)
        if not isinstance(sub, dict) or type(value) is not str:
            continue
        if sub.get("format") != "date-time" and filler.wants_fact(name, sub) == "date":
            if value in days.values() and "default" not in sub:
                pattern = filler.rules.generic.facts.get("date")
                return name if pattern is not None and len(filler.days(pattern)) == 1 else None
            days[name] = value
    return None


def _one_choice_twice(filler: _Filler, arguments: dict[str, Any]) -> str | None:
    """Of two required fields with the same `enum` that took the same value, the only one of it the text names,
    the one named for a part of the text (`[[generic.phrases]]`: `from_unit`, `to_unit`) the text does not write,
    or writes as no value of the enum (`_Filler.phrased_value`: "how many feet in a mile?" to [m, km, mile, ft]
    writes the target as feet; the later when it writes neither): "what is a mile?" to `convert_length(from_unit, to_unit)` of [m, km, mile,
    ft] is no conversion of a mile to a mile, but a question with no target; "convert 5 km" names its source
    ("5 km"), not its target. None for the usual call (no two such fields, or they differ, or neither is named
    for a part of the text: "change plan to pro max" of `old` and `new` is called as before)."""
    seen: dict[tuple[str, Any], str] = {}
    for name, sub in filler.required(filler.resolve(filler.root, 0)):
        values = sub.get("enum")
        if not isinstance(values, list) or not values or name not in arguments:
            continue
        key = (repr(values[:_MAX_ENUM_VALUES]), json_key(arguments[name]))
        first = seen.setdefault(key, name)
        if first == name or len({json_key(v) for v in named_values(values[:_MAX_ENUM_VALUES], filler.text)}) != 1:
            continue
        unwritten = [n for n in (name, first) if filler.phrased(n) and filler.phrased_value(values, n) is None]
        if unwritten:
            return unwritten[0]
    return None


def _unoffered_language(filler: _Filler) -> str | None:
    """The first required field whose `enum` is of language codes when the text names a language (`[generic.
    languages]`) and none of them is one of its values: "translate 'good morning' to Italian" to a tool of [en,
    fr, de, zh, ja] is not a translation into English (its first value), but one the tool does not offer. None
    when the text names none (the enum's pick stands) or one the field offers."""
    if filler.rules.generic.language_names is None:
        return None
    for name, sub in filler.required(filler.resolve(filler.root, 0)):
        values = sub.get("enum")
        if isinstance(values, list) and values and not filler.of_languages(values[:_MAX_ENUM_VALUES]):
            if filler._all_facts.get("languages"):  # read by `of_languages` when the values are languages' codes
                return name
    return None


def unzoned(filler: _Filler, asking: list[str], listed: bool) -> bool:
    """Whether the fields `asking` for a timezone (all required) get none the text gives, though it names a
    place (`place` fact): a city the tz database does not name ("北京现在几点？", "time in Beijing"), whose
    zone would be made up (the description's example is another city's); or, when a list of places goes on
    after the call's (`listed`), whether one of the list's places has no zone ("time in Paris and in
    Beijing": a call for Paris alone drops Beijing without a word). False when the text names no place
    ("现在几点？": the schema's example or default is the tool's own choice), or writes a zone."""
    if filler.first_fact("place") is None:
        return False
    if listed:
        return any(zone_of(p) is None for p in filler.listed())
    if filler.zones():
        return False
    properties = filler.resolve(filler.root, 0).get("properties")
    return all(
        filler.given(n, properties[n]) is None for n in asking if isinstance(properties, dict) and n in properties
    )


def fill_value(schema: Any, text: str, facts: Facts, rules: Rules) -> Any:
    """A value for a whole `schema` of any type, as a structured answer's (`response_format`) may be:
    an object's is made as `fill_arguments` makes one; an array's, a string's, a choice's (`anyOf` of
    objects) or a `const`'s is made as a property of that schema would be, never an object in its place."""
    filler = _Filler(schema if isinstance(schema, dict) else {}, text, facts, rules, "")
    root = filler.resolve(filler.root, 0)
    if _kind(root) == "object" and _CHOSEN.isdisjoint(root):
        return filler.object(root, "", 0)
    return filler.value(filler.root, "", 0)


_CHOSEN = frozenset(("anyOf", "oneOf", "const", "enum", "not"))
"""Keywords that make a value other than by its `type` (`_Filler._value`)."""

_IN_WORDS = object()
"""Where a number field's candidates turn to the numbers written in words: after the digits outside a date, time or
percentage, before those inside one (`_Filler.number`)."""


class _Filler:
    def __init__(self, root: dict[str, Any], text: str, facts: Facts, rules: Rules, context: str) -> None:
        self.root, self.text, self.facts, self.rules, self.context = root, text, facts, rules, context
        self._labels: list[tuple[set[str], str]] | None = None
        self._terms: list[str] | None = None
        self._facts: dict[str, str | None] = {}
        self._all_facts: dict[str, list[str]] = {}
        self._shares: frozenset[int] | None = None
        self._paired: bool | None = None
        self._sum: arith.Sum | None | bool = False
        """The sum the text asks for (`arith.read`, read once: False until then)."""
        self._askers: dict[Any, list[str]] = {}
        """The fields that asked for each fact, or for one of the values an enum's fields were named, in
        the order they asked (`turn`)."""
        self.steps = 0
        """Schemas resolved and values made so far (at most `_MAX_STEPS`)."""
        self.searched = 0.0
        """How many searches' worth of backtracking the values searched for patterns may have cost so
        far (`_matching`; at most `_MAX_SEARCHES`)."""
        self.made_up = 0
        """Values made up so far: a format's fixed value, a number only the bounds gave, a string built
        from a pattern (`any_one` and `only_one` prefer a choice whose value the text gave)."""
        self.pattern_taken: dict[str, int] = {}
        """How many strings of each pattern took a word of the text so far (`_matching`)."""
        self._pattern_words: dict[tuple[str, int, int | None], list[str]] = {}
        self._text_words: list[str] | None = None
        self._spans: tuple[list[int], list[int]] | None = None
        """Where the text's dates, times, emails, URLs and uuids start, and the farthest end so far (`in_fact`)."""
        self.open: list[str] = ["#", root["$ref"]] if type(root.get("$ref")) is str else ["#"]
        """The `$ref`s being filled on the way down to the value being made (the root's first)."""
        self._judge: Judge | None = None

    @property
    def judge(self) -> Judge:
        """Whether a value fits a keyword the filler does not build (`not`, `oneOf`, `contains`), made
        when first asked: most schemas have none of them."""
        if self._judge is None:
            self._judge = Judge(self.root)
        return self._judge

    def judged(self) -> int:
        """How much has been judged so far (`Judge.judged`; 0 before the first judgement)."""
        return 0 if self._judge is None else self._judge.judged

    def spent(self) -> bool:
        """One more step: whether the budget is used up (`_MAX_STEPS`)."""
        self.steps += 1
        return self.steps > _MAX_STEPS

    def afford(self, cost: int) -> bool:
        """`cost` more steps (a value written once more, `padded`): whether the budget holds them."""
        self.steps += cost
        return self.steps <= _MAX_STEPS

    def terms(self) -> list[str]:
        """`search_terms` of the text, read once per call of `fill_arguments`."""
        if self._terms is None:
            self._terms = search_terms(self.text, self.rules)
        return self._terms

    def format_facts(self, items: dict[str, Any]) -> list[str]:
        """Every value of a format's fact in the text (once each, days of the calendar only), for an
        array whose items ask only that `format` (`email`, `uuid`, `date`, `uri`: "to bob@x.org and
        amy@y.org"); none for other items (a pattern, a length: made from their schema)."""
        fmt = items.get("format")
        fact = _FORMAT_FACTS.get(fmt, "time") if isinstance(fmt, str) else "time"  # a time is rewritten: none
        pattern = self.rules.generic.facts.get(fact) if fact != "time" and _kind(items) == "string" else None
        if pattern is None or not _FORMAT_ONLY.issuperset(k for k in items if k in _STRING_ASKS):
            return []
        matches = screen.finditer(pattern, self.text[:_MAX_CHARS])
        found = (_day(m) for m in matches) if fact == "date" else (_group(m) for m in matches)
        return list(dict.fromkeys(v for v in found if v is not None))

    def words_for(self, schema: dict[str, Any]) -> list[str]:
        """The words of the text a string `schema`'s `pattern` is found in (`pattern_words`), for other
        values of it (a second currency code); none without a pattern that compiles."""
        pattern = schema.get("pattern")
        if not isinstance(pattern, str) or (checker := compiled(pattern)) is None:
            return []
        return self.pattern_words(pattern, checker, search_limit(pattern), *_lengths(schema))

    def pattern_words(
        self, pattern: str, checker: re.Pattern[str], limit: int, low: int, high: int | None
    ) -> list[str]:
        """The words of the user's text (its first `_MAX_WORDS_CHARS` characters: `_words`; no stopwords) in which
        `checker` finds `pattern`, of lengths `low` to `high`, looked for once a pattern and lengths,
        each word searched as `_matching` searches a value (within the same budget)."""
        key = (pattern, low, high)
        if key not in self._pattern_words:
            if self._text_words is None:  # "for" says nothing, even where any 3 letters will do
                stopwords = self.rules.generic.stopwords
                self._text_words = [w for w in _words(self.text[:_MAX_WORDS_CHARS]) if w.lower() not in stopwords]
            sized = [w for w in self._text_words if len(w) >= low and (high is None or len(w) <= high)]
            self._pattern_words[key] = [w for w in sized if _searched(checker, w, limit, self)]
        return self._pattern_words[key]

    def labelled(self, name: str) -> str | None:
        """The value of the first "label: value" line whose label shares a word with `name`."""
        if self._labels is None:
            self._labels = (
                [
                    ({t for t in search_terms(label, self.rules)} | {label.strip().lower()}, value.strip())
                    for label, value in _LABELLED.findall(self.text)
                ]
                if ":" in self.text or "：" in self.text  # else no label: a question, not a tool result
                else []
            )
        if not self._labels:  # the common case: a question, not a tool result
            return None
        words = {w.lower() for w in _NAME_WORDS.findall(name) if len(w) >= self.rules.generic.min_word}
        return next((value for terms, value in self._labels if words & terms), None)

    def required(self, schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """(name, schema) of each required property of the resolved `schema`: a name `properties` lacks
        takes the schema of `additionalProperties` (any value when it has none)."""
        required = schema.get("required")
        if not isinstance(required, list) or not required:
            return []
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        extra = schema.get("additionalProperties")
        other = extra if isinstance(extra, dict) else {}
        found = []
        for n in dict.fromkeys([n for n in required if type(n) is str]):
            sub = properties.get(n, other)
            found.append((n, sub if type(sub) is dict else {}))
        return found

    def object(self, schema: dict[str, Any], name: str, depth: int, known: dict[str, Any] | None = None) -> dict:
        """`known` values, then each required property made (at `depth`), then optional ones in their
        order and additional ones (`name1`, `name2`, ...) until there are `minProperties`."""
        made = dict(known or {})
        for key, sub in self.required(schema):
            if key not in made:
                made[key] = self.value(sub, key, depth)
        properties = schema.get("properties")
        if type(properties) is dict and len(properties) > len(made):  # else no optional one is left
            self.named_options(made, properties, depth)
            self.named_numbers(made, properties, depth)
        if "dependentRequired" in schema or "dependencies" in schema:
            self.dependents(made, schema, depth)
        low = schema.get("minProperties")
        if type(low) is int and len(made) < low:
            self.more_properties(made, schema, min(low, _MAX_ITEMS), name or "key", depth)
        return made

    def named_options(self, made: dict[str, Any], properties: dict[str, Any], depth: int) -> None:
        """Each optional property with an `enum` (`option_values`) whose value the text names as a word
        (`named_values`; a stopword names nothing: "in" is no unit) made with it, as the user asked
        ("in fahrenheit": `unit` is fahrenheit, not left to the tool's default)."""
        stopwords = self.rules.generic.stopwords
        for key, sub in properties.items():
            if key in made or type(sub) is not dict:
                continue
            values = self.option_values(sub, depth)
            named = [v for v in named_values(values, self.text) if str(v).lower() not in stopwords] if values else []
            if named:
                turn = self.turn(tuple([str(v) for v in named]), key) if len(named) > 1 else 0
                made[key] = named[min(turn, len(named) - 1)]

    def named_numbers(self, made: dict[str, Any], properties: dict[str, Any], depth: int) -> None:
        """Each optional number field the text gives a number by its name made with it (`named_numbers`: a
        percentage, "at 18%"; a number beside a word of its name, "for 2 guests"; a duration beside one, "a 15
        minute buffer"), as the user asked; none when the text writes no digit, percentage or duration."""
        if self.spent():
            return
        beside = numbers_beside(self.text)
        timed = durations(self.text)
        for key, sub in properties.items():
            if key in made or type(key) is not str or type(sub) is not dict or "enum" in sub or "const" in sub:
                continue
            described = sub.get("description")
            described = described if type(described) is str else ""
            if not (timed and unit_of(key, described)) and not wants_share(key, described):
                if not beside or name_words(key).isdisjoint(beside):
                    continue  # the usual case: no number written beside the field's name
            sub = _unnulled(self.resolve(sub, depth))
            kind = _kind(sub)
            if kind in ("integer", "number") and _CHOSEN.isdisjoint(sub):
                value = self.named_number(key, sub, kind)
                if value is not None:
                    made[key] = value

    def named_number(self, name: str, schema: dict[str, Any], kind: str) -> int | float | None:
        """The number the text writes for the optional field `name` by its name (`named_numbers`), or None."""
        description = schema.get("description")
        described = description if type(description) is str else ""
        if unit_of(name, described) is not None and durations(self.text):
            properties = self.root.get("properties")
            others = tuple(
                n
                for n, s in (properties.items() if type(properties) is dict else ())
                if n != name and type(n) is str and type(s) is dict and unit_of(n, str(s.get("description") or ""))
            )
            held = spoken(
                self.text, name, unit_of(name, described) or 1, others, self.turn("duration", name), optional=True
            )
            return _in_unit(held, schema, kind) if held is not None else None
        written: list[str] = []
        if wants_share(name, described):
            written = share_values(self.text, self.rules.generic.facts.get("percent"))
        written += [n for at, n in numbers_named(self.text, name) if not self.in_fact(at)]
        for raw in written:
            number = _as_number(raw, kind)
            if number is not None and _within(number, schema):
                return number
        return None

    def option_values(self, schema: dict[str, Any], depth: int) -> list[Any]:
        """The `enum` values an optional property may take (`allowed`): its own, its `$ref`'s, or those of
        an `anyOf` choice of them and null (pydantic's `Unit | None = None`); none for any other."""
        if "enum" not in schema and "$ref" not in schema and "anyOf" not in schema:
            return []  # the common case: nothing to resolve
        resolved = self.resolve(schema, depth + 1)
        choices = resolved.get("anyOf")
        if isinstance(choices, list) and "enum" not in resolved:
            kinds = [self.resolve(c, depth + 2) for c in choices[:2]]
            others = [k for k in kinds if _kind(k) != "null"]
            if len(choices) != 2 or len(others) != 1:  # not one choice and null (null twice: no values)
                return []
            resolved = others[0]
        values = resolved.get("enum")
        return allowed(self, resolved) if isinstance(values, list) and values else []

    def dependents(self, made: dict[str, Any], schema: dict[str, Any], depth: int) -> None:
        """The properties that those in `made` ask for (`dependentRequired`, or draft-07's `dependencies`
        of names) made too, and those that these ask for, each once."""
        asks = {}
        for keyword in ("dependencies", "dependentRequired"):
            given = schema.get(keyword)
            for key, names in given.items() if isinstance(given, dict) else ():
                if isinstance(names, list):
                    asks[key] = [n for n in names if type(n) is str]
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        extra = schema.get("additionalProperties")
        waiting = [key for key in made if key in asks]
        for key in waiting:  # grows as it goes: each name made once, so at most every name asked for
            for name in asks.get(key, ()):
                if name not in made and not self.spent():
                    sub = properties.get(name, extra if isinstance(extra, dict) else {})
                    made[name] = self.value(sub if type(sub) is dict else {}, name, depth)
                    waiting.append(name)

    def more_properties(self, made: dict[str, Any], schema: dict[str, Any], low: int, name: str, depth: int) -> None:
        properties = schema.get("properties")
        for key, sub in properties.items() if isinstance(properties, dict) else ():
            if len(made) >= low:
                return
            if key not in made:
                made[key] = self.value(_sub(sub), key, depth)
        extra = schema.get("additionalProperties")
        if extra is False:  # no other name is allowed: no answer could be valid
            return
        for k in range(1, _MAX_ITEMS + 1):
            if len(made) >= low or self.steps > _MAX_STEPS:
                return
            if (key := f"{name}{k}") not in made:
                made[key] = self.value(extra if isinstance(extra, dict) else {}, key, depth)

    def resolve(self, schema: Any, depth: int) -> dict[str, Any]:
        """`schema` with `$ref` followed and a single `allOf` merged (depth-limited, on the budget)."""
        if depth > _MAX_DEPTH:
            return {}
        if isinstance(schema, dict) and "$ref" not in schema and "allOf" not in schema:
            return {} if self.spent() else schema  # the loop's first step, with nothing to follow
        for _ in range(_MAX_DEPTH):
            if not isinstance(schema, dict) or self.spent():
                return {}
            ref = schema.get("$ref")
            if isinstance(ref, str) and ref.startswith("#"):
                target = _pointer(self.root, ref)
                schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
                continue
            parts = schema.get("allOf")
            if isinstance(parts, list) and parts:
                merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
                for part in parts:
                    part = self.resolve(part, depth + 1)
                    merged["properties"] = {**merged.get("properties", {}), **part.get("properties", {})}
                    merged["required"] = [*merged.get("required", []), *part.get("required", [])]
                    merged.update({k: v for k, v in part.items() if k not in ("properties", "required")})
                schema = merged
                continue
            return schema
        return {}

    def recursive(self, schema: Any) -> bool:
        """Whether `schema` is a `$ref` to a schema being filled further up: filling it would only
        go round again, until the depth limit left a None where the schema wants a value."""
        return isinstance(schema, dict) and schema.get("$ref") in self.open

    def value(self, schema: Any, name: str, depth: int) -> Any:
        if self.spent() or depth > _MAX_DEPTH:  # every value costs a step, even one too deep
            return None
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if type(ref) is not str:
            return self._value(schema, name, depth)
        self.open.append(ref)
        try:
            return self._value(schema, name, depth)
        finally:
            self.open.pop()

    def _value(self, schema: Any, name: str, depth: int) -> Any:
        schema = self.resolve(schema, depth)
        if "not" in schema:  # made as if it were not there, then judged (`fitting`)
            made = self._value({k: v for k, v in schema.items() if k != "not"}, name, depth)
            return fitting(self, schema, made, name, depth)
        if "const" in schema:
            return schema["const"]
        if "anyOf" in schema or "oneOf" in schema:
            chosen = self.chosen(schema, name, depth)
            if chosen is not _NO_CHOICE:
                return chosen
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return self.enum_value(allowed(self, schema), name, schema)
        kind = _kind(schema)
        if kind == "object":
            return self.object(schema, name, depth + 1)
        if kind == "array":
            return self.array(schema, name, depth)
        if kind in ("integer", "number"):
            return self.number(schema, kind, name)
        if kind == "boolean":
            if (state := asked_state(name, self.text)) is not None:  # "turn on light lamp-7": on
                return state
            if (locked := asked_lock(name, self.text)) is not None:  # "lock the front door": locked
                return locked
            return schema["default"] if isinstance(schema.get("default"), bool) else False
        if kind == "null":
            return None
        return self.string(schema, name)

    def enum_value(self, values: list[Any], name: str, schema: dict[str, Any] | None = None) -> Any:
        """The enum value the text points at (`pick_enum`): of several the text names, the one for the
        `turn` of the field `name` among the fields those values were asked for (from USD, to EUR). A field
        asking for a currency (by its name or description: `wants_fact`) whose codes the text names none of
        takes the codes of the currencies it names in words ("the euro": EUR)."""
        if len(values) > 1 and (found := self.sum()) is not None:  # "7 times 6" to [add, sub, mul, div]: mul
            operation = found.operations[min(self.turn("operation", name), len(found.operations) - 1)]
            if (value := arith.operation_value(values[:_MAX_ENUM_VALUES], operation)) is not None:
                return value
        named = named_values(values[:_MAX_ENUM_VALUES], self.text) if len(values) > 1 else values
        if len(values) > 1 and (phrased := self.phrased_value(values[:_MAX_ENUM_VALUES], name)) is not None:
            return phrased
        if not named and schema is not None and self.of_currencies(name, schema, values):
            order = {code: i for i, code in enumerate(self.currencies())}
            named = sorted([v for v in values[:_MAX_ENUM_VALUES] if v in order], key=order.__getitem__)
        if not named and self.rules.generic.language_names is not None:
            named = self.of_languages(values[:_MAX_ENUM_VALUES])
        if not named and self.rules.generic.unit_names is not None:
            named = self.of_units(values[:_MAX_ENUM_VALUES], self.text)
        turn = self.turn(tuple([str(v) for v in named]), name) if len(named) > 1 else 0
        if not named and schema is not None and "description" in schema:  # "Priority, default medium": medium
            fallback = described_choice(values[:_MAX_ENUM_VALUES], schema["description"])
            picked = pick_enum(values, self.text, self.context, self.rules, self.terms())
            return fallback if fallback is not None and picked == values[0] else picked
        return (
            named[min(turn, len(named) - 1)]
            if named
            else pick_enum(values, self.text, self.context, self.rules, self.terms())
        )

    def phrased_value(self, values: list[Any], name: str) -> Any:
        """The one of an enum's `values` the part of the text the field `name` is named for names (`phrase`;
        a plural read as its singular too: "convert 3 miles to km" gives `from_unit` mile, `to_unit` km, and
        "how many km is a mile?" `from_unit` mile, though km is named first); None when the field is named for no
        part of the text, the text does not write it, or it names no one value."""
        if not self.phrased(name) or (phrase := self.phrase(name)) is None:
            return None
        for written in (phrase, *(phrase[: -len(end)] for end in ("s", "es") if phrase.endswith(end))):
            named = named_values(values, written)
            if len(named) == 1:
                return named[0]
        named = self.of_units(values, phrase) if self.rules.generic.unit_names is not None else []
        return named[0] if len(named) == 1 else None

    def of_units(self, values: list[Any], text: str) -> list[Any]:
        """The `values` that are units of measurement `text` names by a name or code of theirs (`[generic.units]`:
        "feet" is `ft`, "mi" is `mile`), in the order it names them; none when no value is a unit's."""
        units = self.rules.generic.units
        pattern = self.rules.generic.unit_names
        by_code: dict[str, Any] = {}
        for value in values:
            code = units.get(value.lower()) if type(value) is str else None
            if code is not None:
                by_code.setdefault(code, value)
        if not by_code or pattern is None:
            return []
        named = (units.get(m.group().lower()) for m in screen.finditer(pattern, text[:_MAX_CHARS]))
        return list(dict.fromkeys(by_code[code] for code in named if code in by_code))

    def of_languages(self, values: list[Any]) -> list[Any]:
        """The `values` that are the ISO 639-1 codes of the languages the text names in words (`[generic.
        languages]`: "into French" is `fr`, or `fr-FR`), in the order it names them; none when no value is
        a language's code (the text is then not read for languages)."""
        codes = {_language(v) for v in values if type(v) is str}
        if codes.isdisjoint(self.rules.generic.languages.values()):
            return []
        if "languages" not in self._all_facts:
            generic = self.rules.generic
            found = screen.finditer(generic.language_names, self.text[:_MAX_CHARS]) if generic.language_names else ()
            self._all_facts["languages"] = list(dict.fromkeys(generic.languages[m.group().lower()] for m in found))
        order = {code: i for i, code in enumerate(self._all_facts["languages"])}
        first: dict[str, Any] = {}  # each code's first value ("fr" before "fr-CA")
        for value in values:
            if type(value) is str and _language(value) in order:
                first.setdefault(_language(value), value)
        return sorted(first.values(), key=lambda v: order[_language(v)])

    def of_currencies(self, name: str, schema: dict[str, Any], values: list[Any]) -> bool:
        """Whether an enum field asks for a currency: by its name or description (`wants_fact`), or
        because every one of its values is a code of `[generic.currencies]` (USD, EUR, JPY)."""
        if self.wants_fact(name, schema) == "currency":
            return True
        codes = self.rules.generic.currencies
        return bool(codes) and all(type(v) is str and codes.get(v.lower()) == v for v in values[:_MAX_ENUM_VALUES])

    def turn(self, key: Any, name: str) -> int:
        """The place of the field `name` among those that asked for `key` (a fact, the values an enum's
        fields were named) so far, first asking now: the k-th field takes the k-th value the text names,
        and a field asking again (a choice tried again) the same one."""
        askers = self._askers.get(key)
        if askers is None:
            self._askers[key] = [name]
            return 0
        if name not in askers:
            askers.append(name)
        return askers.index(name)

    def chosen(self, schema: dict[str, Any], name: str, depth: int) -> Any:
        """A value for an `anyOf` (`any_one`) or a `oneOf` (`only_one`, or its one choice), each choice
        filled with what the schema asks beside it (`joined`); `_NO_CHOICE` if neither is a list."""
        any_of, one_of = schema.get("anyOf"), schema.get("oneOf")
        if isinstance(any_of, list) and any_of:
            return any_one(self, schema, any_of, name, depth)
        if isinstance(one_of, list) and len(one_of) > 1:
            return only_one(self, schema, one_of, name, depth)
        if isinstance(one_of, list) and one_of:
            return self.value(joined(schema, one_of[0], "oneOf"), name, depth + 1)
        return _NO_CHOICE

    def choice(self, choices: list[Any], depth: int) -> Any:
        """The `anyOf` / `oneOf` choice to fill: the first that is not null and does not go round
        again (`recursive`), else null if it is one (a tree's optional child ends there), else the
        first. A choice that is a `$ref` is given as it is, so that `value` knows it is open."""
        return choices[self.choice_order(choices, depth)[0]]

    def choice_order(self, choices: list[Any], depth: int) -> list[int]:
        """The choices' places, in the order `choice` prefers them (the const the text points at, the
        usable ones, the null ones, the rest)."""
        resolved = [self.resolve(c, depth + 1) for c in choices]
        null = [i for i, r in enumerate(resolved) if _kind(r) == "null"]
        nulls = set(null)
        usable = [i for i, c in enumerate(choices) if i not in nulls and not self.recursive(c)]
        return list(dict.fromkeys(self.pointed_const(resolved) + usable + null + list(range(len(choices)))))

    def pointed_const(self, resolved: list[dict[str, Any]]) -> list[int]:
        """The place of the `const` the text points at (`pick_enum`), when every choice is one (TypeBox's
        and zod's union of literals: `anyOf` of consts, where pydantic writes an `enum`); else none."""
        if not resolved or not all("const" in r for r in resolved):
            return []
        consts = [r["const"] for r in resolved]
        pointed = pick_enum(consts, self.text, self.context, self.rules, self.terms())
        return [next(i for i, value in enumerate(consts) if value is pointed)]

    def array(self, schema: dict[str, Any], name: str, depth: int) -> list[Any]:
        low: int = min(schema["minItems"], _MAX_ITEMS) if isinstance(schema.get("minItems"), int) else 0
        raw = schema.get("items", {})
        prefix = schema.get("prefixItems")
        if isinstance(raw, list) and not (isinstance(prefix, list) and prefix):  # draft-07's tuple (zod's):
            prefix, raw = raw, schema.get("additionalItems", {})  # `items` a list, the rest `additionalItems`
        if isinstance(prefix, list) and prefix:
            return self.places(prefix, raw, low, name, depth, schema)
        if raw is False:  # no item is allowed
            return []
        if low == 0 and self.recursive(raw) and "contains" not in schema:
            return []  # a tree's children: none, not a tree down to the depth limit
        items = self.resolve(raw, depth + 1)
        each = raw if isinstance(raw, dict) and "$ref" in raw else items  # a `$ref` as it is: `value` opens it
        high: int | None = schema["maxItems"] if isinstance(schema.get("maxItems"), int) else None
        # A plain string's items are the user's search terms; a constrained one (an enum, a pattern, a
        # length, a choice) is made from its schema, as a lone string would be.
        plain = _kind(items) == "string" and _NOT_PLAIN.isdisjoint(items)
        labelled = self.labelled(name) if plain else None
        if labelled is not None:
            values: list[Any] = [labelled]
        elif not plain and (found := self.format_facts(items)):
            values = found
        elif plain and (found := facts_listed(self, name, schema)):  # symbols: AAPL, MSFT and NVDA
            values = found
        elif (
            _kind(items) in ("integer", "number")
            and _CHOSEN.isdisjoint(items)
            and (numbers := numbers_listed(self, items, _kind(items), _read_number))
        ):  # ticket_ids: 101, 102 and 107
            values = list(numbers)
        elif plain:  # the user's terms, none that names another field or its choice ("under 20 minutes")
            values = without_own(self.terms(), self.root) or ([self.text[:_MAX_WORDS_CHARS]] if self.text else [])
        else:
            before = self.judged()
            values = [self.value(each, name, depth + 1)]
            if low == 0 and self.judged() != before and not self.judge.fits(each, values[0]):
                values = []  # an item no value tried fits (a `not`, a `oneOf`): none is asked for
        if len(values) < low:
            base = values[-1] if values else self.value(each, name, depth + 1)
            values = self.padded(values, base, each, low, name, depth, schema)
        if "contains" in schema:
            values = containing(self, schema, values, each, name, depth)
        return values[: _MAX_ITEMS if high is None else max(0, min(high, _MAX_ITEMS))]

    def padded(
        self, values: list[Any], base: Any, each: Any, low: int, name: str, depth: int, schema: dict[str, Any]
    ) -> list[Any]:
        """`values` made `low` long with `base` (a value of the items' schema `each`) repeated, or, when
        the array's `schema` has `uniqueItems`, with `base` and other values of `each` (`variants`) that
        are not in `values` yet. When `each` has too few (an enum of 2, bounds 1 to 2, a const), `base`
        is repeated to reach `minItems` anyway: no answer could be valid, and a short one fails too."""
        values = list(values)
        if schema.get("uniqueItems") is True:
            seen = {json_key(v) for v in values}
            for other in islice(chain((base,), self.variants(each, base, name, depth + 1)), 2 * low + 64):
                if len(values) >= low:
                    break
                if json_key(other) not in seen:
                    seen.add(json_key(other))
                    values.append(other)
        cost = _written(base, {})  # each repeat is written out whole: it costs its size from the budget
        while len(values) < low and self.afford(cost):
            values.append(base)
        return values

    def variants(self, schema: Any, base: Any, name: str, depth: int) -> Iterator[Any]:
        """Values of `schema` besides `base`, in order (some may equal values made already: the caller
        skips them): an enum's members, `false` and `true`, numbers near `base` within the bounds, strings
        made from `base` or from the `pattern` or `format`, an object with one property varied or one
        more of its optional properties (then with its other values); for a choice (`anyOf`, `oneOf`), the preferred choice's values
        and each other choice's value and values, one of each in turn. Nothing for a `const`, a `null` or an array."""
        if self.spent() or depth > _MAX_DEPTH:
            return
        schema = self.resolve(schema, depth)
        choices = schema.get("anyOf") or schema.get("oneOf")
        if "const" in schema:
            return
        if isinstance(choices, list) and choices:  # each choice's in turn (one may have no end of them)
            keyword = "anyOf" if choices is schema.get("anyOf") else "oneOf"
            order = self.choice_order(choices, depth)
            branches = [joined(schema, choices[i], keyword) for i in order]
            yield from _in_turn([self.choice_values(b, base, name, depth + 1, n > 0) for n, b in enumerate(branches)])
        elif isinstance(schema.get("enum"), list) and schema["enum"]:
            yield from schema["enum"][:_MAX_ENUM_VALUES]
        elif (kind := _kind(schema)) == "boolean":
            yield from (False, True)
        elif kind in ("integer", "number"):
            yield from _numbers(schema, kind, base)
        elif kind == "string":
            yield from self.words_for(schema)
            yield from _strings(schema, base if isinstance(base, str) else name)
        elif kind == "object" and isinstance(base, dict):  # each property's stream in turn: one of them may
            # have many values (a number between close bounds), and a later one be what a `oneOf` choice needs
            varied = [
                self.with_other(base, key, sub, base[key], depth) for key, sub in self.required(schema) if key in base
            ]
            yield from _in_turn([*varied, self.with_optional(schema, base, depth)])

    def with_optional(self, schema: dict[str, Any], base: dict[str, Any], depth: int) -> Iterator[Any]:
        """`base` with one more of `schema`'s optional properties, each in turn; then with those
        properties' other values, one of each in turn (a `oneOf` choice that takes any number for one,
        beside one that takes whole ones only: 0.5 is for the first choice alone)."""
        properties = schema.get("properties")
        added: list[tuple[str, Any, Any]] = []
        for key, sub in properties.items() if isinstance(properties, dict) else ():
            if key not in base:
                added.append((key, _sub(sub), self.value(_sub(sub), key, depth + 1)))
                yield {**base, key: added[-1][2]}
        yield from _in_turn([self.with_other(base, key, sub, value, depth) for key, sub, value in added])

    def with_other(self, base: dict[str, Any], key: str, sub: Any, value: Any, depth: int) -> Iterator[Any]:
        """`base` with `key` set to each of its schema's other values besides `value`, in order."""
        for other in self.variants(sub, value, key, depth + 1):
            yield {**base, key: other}

    def choice_values(self, branch: Any, base: Any, name: str, depth: int, made: bool) -> Iterator[Any]:
        """The values of one choice of a `variants`' `anyOf` / `oneOf`: its own value first if `made`
        (not the choice `base` was made from), then its values besides `base`."""
        if made:
            yield self.value(branch, name, depth)
        yield from self.variants(branch, base, name, depth)

    def places(
        self, prefix: list[Any], items: Any, low: int, name: str, depth: int, schema: dict[str, Any]
    ) -> list[Any]:
        """A tuple (`prefixItems`, as pydantic writes `tuple[int, str]`): each place filled from its
        own schema, then `items` for the places `minItems` asks beyond them."""
        values = [self.value(place, name, depth + 1) for place in prefix[:_MAX_ITEMS]]
        if len(values) < low and isinstance(items, dict):
            values = self.padded(values, self.value(items, name, depth + 1), items, low, name, depth, schema)
        return values

    def number(self, schema: dict[str, Any], kind: str, name: str) -> int | float:
        if (held := self.duration(name, schema)) is not None:  # "5 hours" to `minutes`: 300
            if (timed := _in_unit(held, schema, kind)) is not None:
                return timed
            self.made_up += 1  # 90 seconds to whole `minutes`, 5 hours to at most 180: asked for
            return _bounded(schema, kind)
        fact = self.fact(name, self.wants_fact(name, schema))
        candidates: list[Any] = [fact] if fact is not None else []
        if fact is None and (beside := numbers_beside(self.text)) and not name_words(name).isdisjoint(beside):
            candidates += [n for at, n in numbers_named(self.text, name) if not self.in_fact(at)]  # "for 30 years"
        if fact is None and (operands := self.operands()):  # "15% of 80" to (a, b, op): 0.15, 80
            candidates.append(arith.written(operands[min(self.turn("operand", name), len(operands) - 1)]))
        pattern = self.rules.generic.facts.get("number")
        labelled = self.labelled(name)
        if pattern is not None:
            if labelled is not None:
                candidates += [_group(m) for m in screen.finditer(pattern, labelled)]
            found = list(screen.finditer(pattern, self.text))
            inside = [self.in_fact(m.start()) for m in found]
            if fact is None and (shares := self.shares()):  # "at 15%": a percentage's number, not a bill's
                inside = [was or m.start() in shares for m, was in zip(found, inside, strict=True)]
            candidates += [_group(m) for m, fact in zip(found, inside, strict=True) if not fact]
            if any(inside):  # "for two people at 7pm": the words' number before a time's hour
                candidates.append(_IN_WORDS)
            candidates += [_group(m) for m, fact in zip(found, inside, strict=True) if fact]
        for raw in candidates:
            if raw is _IN_WORDS:
                if (worded := self.worded(schema)) is not None:
                    return worded
                continue
            number = _as_number(raw, kind)
            if number is not None and _within(number, schema):
                return number
        if (worded := self.worded(schema)) is not None:  # no digits: "fifty euros", "task seven"
            return worded
        default = schema.get("default")
        if isinstance(default, (int, float)) and not isinstance(default, bool) and _within(default, schema):
            return default
        self.made_up += 1
        return _bounded(schema, kind)

    def duration(self, name: str, schema: dict[str, Any]) -> float | None:
        """The duration the text writes for a number field in a unit of time, in that unit (`durations.spoken`:
        "5 hours" to `minutes` is 300, beside the field's own word first: "a 15 minute buffer"); None for a field
        in no unit (its number is taken as written) or a text that writes none."""
        description = schema.get("description")
        unit = unit_of(name, description if type(description) is str else "")
        if unit is None or not durations(self.text):
            return None
        properties = self.root.get("properties")
        others = tuple(
            n
            for n, s in (properties.items() if type(properties) is dict else ())
            if n != name and type(n) is str and type(s) is dict and unit_of(n, str(s.get("description") or ""))
        )
        return spoken(self.text, name, unit, others, self.turn("duration", name))

    def worded(self, schema: dict[str, Any]) -> int | None:
        """The first number the text writes in words (`worded.worded_numbers`: "fifty") within the field's
        bounds, or None; asked only where the text's digits give the field none."""
        return next((n for n in (*worded_numbers(self.text), *chinese_numbers(self.text)) if _within(n, schema)), None)

    def shares(self) -> frozenset[int]:
        """Where the numbers of the text's percentages start (the `percent` fact: "15%", "百分之15"): a field
        asking for no percentage takes them last. Read once, and only for a number asked for."""
        if self._shares is None:
            pattern = self.rules.generic.facts.get("percent")
            found = screen.finditer(pattern, self.text[:_MAX_CHARS]) if pattern is not None else ()
            self._shares = frozenset(m.start(m.lastindex or 0) for m in found)
        return self._shares

    def given(self, name: str, schema: dict[str, Any]) -> Any:
        """The value the text itself gives the field `name` (None if it gives none: no default, example
        or made-up value): an `enum` value it names, a number outside a date or time for a number, the
        fact the field's name or format asks for (`fact`) for a string without a `pattern` it misses."""
        values = schema.get("enum")
        if isinstance(values, list) and values:
            named = named_values(values[:_MAX_ENUM_VALUES], self.text)
            return named[0] if named else None
        kind = _kind(schema)
        if kind in ("integer", "number"):
            if (held := self.duration(name, schema)) is not None:
                return _in_unit(held, schema, kind)
            pattern = self.rules.generic.facts.get("number")
            for match in screen.finditer(pattern, self.text) if pattern is not None else ():
                number = _as_number(_group(match), kind)
                if number is not None and not self.in_fact(match.start()) and _within(number, schema):
                    return number
            return self.worded(schema)
        if kind != "string":
            return None
        fact = self.fact(name, self.wants_fact(name, schema))
        if fact is None or ("pattern" in schema and _matching(schema, fact, self) != fact):
            return None
        return fact

    def typed(self, name: str, schema: dict[str, Any]) -> bool:
        """Whether a string field asks for what a text gives as such: a fact (by its name, description or
        `format`), or a word its `pattern` finds."""
        return self.wants_fact(name, schema) is not None or isinstance(schema.get("pattern"), str)

    def in_fact(self, at: int) -> bool:
        """Whether the text's character `at` is written inside a date, time, email, URL or uuid
        (`_WRITTEN_WITH_DIGITS`): a number there is the year of a date, not an amount, and comes last."""
        if self._spans is None:
            spans = sorted(
                m.span()
                for fact in _WRITTEN_WITH_DIGITS
                if (pattern := self.rules.generic.facts.get(fact)) is not None
                for m in screen.finditer(pattern, self.text)
            )
            self._spans = ([s for s, _ in spans], list(accumulate((e for _, e in spans), max)))
        starts, ends = self._spans
        before = bisect_right(starts, at)  # the spans starting at or before `at`; the farthest end among them
        return before > 0 and ends[before - 1] > at

    def string(self, schema: dict[str, Any], name: str) -> str:
        """`made_string`, cut to `maxLength` or padded with `_` to `minLength` (a fact too: a `date`
        of `maxLength` 8 is no date either way), then made to match its `pattern`."""
        value = self.made_string(schema, name)
        if "maxLength" in schema or "minLength" in schema:
            low, high = _lengths(schema)
            value = value[:high] if high is not None else value
            value = (value + "_" * (low - len(value)) if len(value) < low else value)[:_MAX_CHARS]
        if "pattern" in schema:  # else the common case: any string will do
            value = _matching(schema, value, self)
        return value

    def made_string(self, schema: dict[str, Any], name: str) -> str:
        """A string for `schema` from the text, its `default`, an example or its format, else the
        user's words (its `pattern` not looked at: `string` checks it)."""
        wanted = self.wants_fact(name, schema)
        if _known_format(schema):  # the format decides: a shop's "SN…" order id is no uuid
            fact = self.generic_fact(wanted, name) if wanted else None
        else:
            fact = self.fact(name, wanted)
        if fact is not None and wanted == "place" and (phrase := self.phrase(name)) is not None and fact not in phrase:
            fact = next(
                (v for v in self.fact_values("place") if v in phrase), phrase
            )  # "from X to Y": Y, to a destination
        if fact is not None and wanted == "time":  # "9:30" as HH:MM, as a time is written; a `time`
            return f"{fact.zfill(5)}:00Z" if schema.get("format") == "time" else fact.zfill(5)  # as RFC 3339's
        if fact is not None:
            return fact
        labelled = self.labelled(name)
        if labelled is not None and not _pattern(schema):
            return labelled
        if isinstance(schema.get("default"), str):
            return schema["default"]
        typed = wanted or _pattern(schema)
        if typed and not _known_format(schema) and (stated := _described_default(schema)) is not None:
            return stated  # over an example, never over the user's words; a format's value is made from facts
        if typed and (example := _example(schema)) is not None:
            return example
        if _known_format(schema):
            return self.formatted(schema["format"], name)
        return (
            self.phrase(name)
            or self.generic_fact("quoted", name)
            or (None if wanted else named_thing(name, self.text))  # "lock the front door": front door, for `door`
            or self.text[:_MAX_WORDS_CHARS]
            or _example(schema)
            or name
        )

    def phrased(self, name: str) -> bool:
        """Whether the field's name points at a part of the text a model asks for when it is not written (a
        word of a `[[generic.phrases]]` entry's `names`, and all of its `also`; an entry that `ask`s): a pickup,
        a destination, a unit; not a topic, which the user's words may be."""
        words = {w.lower() for w in _NAME_WORDS.findall(name)}
        return any(e.ask and not words.isdisjoint(e.names) and e.also <= words for e in self.rules.generic.phrases)

    def phrase(self, name: str) -> str | None:
        """The part of the text the field's name points at (`[[generic.phrases]]`: "from the hotel to the
        airport" gives a `pickup` the hotel, a `destination` the airport; "convert 5 miles to km" a `from_unit`
        miles), or None: the first entry whose words the name holds and whose pattern the text matches."""
        phrases = self.rules.generic.phrases
        if not phrases:
            return None
        words = {w.lower() for w in _NAME_WORDS.findall(name)}
        for entry in phrases:
            if words.isdisjoint(entry.names) or not entry.also <= words:
                continue
            match = screen.search(entry.pattern, self.text[:_MAX_WORDS_CHARS])
            if match is not None:
                return _group(match)
        return None

    def formatted(self, fmt: str, name: str) -> str:
        """A string of format `fmt` (one of `_FORMATS`) the text has no fact for: a `date-time` from
        the text's date (and time) for the field `name`, else the format's own value."""
        day = self.generic_fact("date", name) if fmt == "date-time" else None
        if day is None:
            self.made_up += 1
            return _FORMATS[fmt]
        return f"{day}T{(self.generic_fact('time', name) or '00:00').zfill(5)}:00Z"

    def fact(self, name: str, wanted: str | None) -> str | None:
        """A fact from the text for a parameter: the shop's rules first, then the generic fact
        the parameter `wanted` (`wants_fact`); for a timezone, the k-th of the zones the text writes or
        names a city of (`zones`: "in Tokyo" is Asia/Tokyo) for the k-th field asking."""
        shop = self.rules.params.get(name)
        if shop is not None:
            value = self.facts.get(shop, self.rules)
            if value is not None:
                return value
        if wanted == "sum":
            return summed.expression if (summed := self.sum()) is not None else None
        if wanted in ("timezone", "currency", "ticker"):
            found = (
                self.zones() if wanted == "timezone" else self.currencies() if wanted == "currency" else self.tickers()
            )
            return found[min(self.turn(wanted, name), len(found) - 1)] if found else None
        return self.generic_fact(wanted, name) if wanted else None

    def currencies(self) -> list[str]:
        """The ISO 4217 codes of the currencies the text names (`[generic.currencies]`: "dollars", "欧元",
        "$", USD), each once: the one written beside an amount first ("how many euros is 50 pounds":
        GBP, EUR; "100美元换成人民币": USD, CNY), then the others in the text's order. Looked for once."""
        if "currencies" not in self._all_facts:
            generic, text = self.rules.generic, self.text[:_MAX_CHARS]
            names = generic.currency_names
            found = []
            for match in screen.finditer(names, text) if names is not None else ():
                code = generic.currencies.get(match.group().lower(), match.group())
                start, end = match.span()
                beside = _AMOUNT_BEFORE.search(text, max(0, start - 24), start) or _AMOUNT_AFTER.match(text, end)
                found.append((beside is None, start, code))
            self._all_facts["currencies"] = list(dict.fromkeys(code for _, _, code in sorted(found)))
        return self._all_facts["currencies"]

    def sum(self) -> arith.Sum | None:
        """The sum the text asks for ("15% of 80", "7 times 6", "3 加 5"; `arith.read`), read once."""
        if self._sum is False:
            self._sum = arith.read(self.text)
        return self._sum if isinstance(self._sum, arith.Sum) else None

    def operands(self) -> tuple[float, ...]:
        """The numbers of the text's sum for a tool that takes one's numbers and operation: its schema has an
        `enum` of operations (`arith.operation_value`) among its properties; else () (a tip's `bill` and
        `percent` read the text's numbers as written)."""
        found = self.sum()
        if found is None:
            return ()
        properties = self.resolve(self.root, 0).get("properties")
        for sub in properties.values() if isinstance(properties, dict) else ():
            values = sub.get("enum") if isinstance(sub, dict) else None
            if isinstance(values, list) and arith.operations(values[:_MAX_ENUM_VALUES]):
                return found.numbers
        return ()

    def tickers(self) -> list[str]:
        """The stock tickers the text writes (the `ticker` fact: AAPL, $TSLA, 0700.HK; not a currency's ISO 4217
        code: "AAPL in USD") or names by a company of `[generic.tickers]` ("Apple", "腾讯"), in its order, each
        once. Looked for once, and only for a field asking for a ticker."""
        if "tickers" not in self._all_facts:
            generic, text = self.rules.generic, self.text[:_MAX_CHARS]
            pattern, names = generic.facts.get("ticker"), generic.ticker_names
            codes = set(generic.currencies.values())
            found = [
                (m.start(), w)
                for m in (screen.finditer(pattern, text) if pattern is not None else ())
                if (w := _group(m)) and w not in codes
            ]
            found += [
                (m.start(), generic.tickers[m.group().lower()]) for m in (screen.finditer(names, text) if names else ())
            ]
            self._all_facts["tickers"] = list(dict.fromkeys(w for _, w in sorted(found)))
        return self._all_facts["tickers"]

    def zones(self) -> list[str]:
        """The timezones the text names, in its order, each once: those written (the `timezone` fact:
        Asia/Tokyo, UTC) and those of the places it names (`zones.zone_of`: "in Tokyo" is Asia/Tokyo),
        so that "from Asia/Tokyo to Paris" gives a second field Europe/Paris. Looked for once."""
        if "zones" not in self._all_facts:
            found = []
            for fact in ("timezone", "place"):
                pattern = self.rules.generic.facts.get(fact)
                for match in screen.finditer(pattern, self.text[:_MAX_CHARS]) if pattern is not None else ():
                    zone = _group(match) if fact == "timezone" else zone_of(_group(match))
                    if zone is not None:
                        found.append((match.start(), zone))
            self._all_facts["zones"] = list(dict.fromkeys(zone for _, zone in sorted(found)))
        return self._all_facts["zones"]

    def wants_fact(self, name: str, schema: dict[str, Any]) -> str | None:
        """The `[generic.facts]` fact a field asks for: its `format`'s, else the first word of `[generic.params]`
        in its name, else the first of `[generic.described]` in its description; a place or a ticker by its name
        that its description says is a timezone or a currency is that (`location`: "IANA time zone", `symbol`:
        "ISO 4217 currency")."""
        lowered = name.lower()
        fmt = _known_format(schema)
        if fmt:
            return _FORMAT_FACTS.get(fmt)
        generic = self.rules.generic
        named = None
        if generic.param_words.search(lowered):  # else no word in it: the loop finds none
            named = next((fact for word, fact in generic.params if word in lowered), None)
        if named not in (None, "place", "ticker"):  # a `symbol` may be a currency's ("ISO 4217"): described
            return named
        if named is None and ("base" in lowered or "quote" in lowered) and self.paired(lowered):
            return "currency"  # `base` and `quote`: a pair's two currencies ("EUR/USD rate": EUR, USD)
        described = schema.get("description")
        if type(described) is not str or not generic.described or not generic.described_words.search(described.lower()):
            return named
        described = described.lower()
        return next((fact for word, fact in generic.described if word in described), named)

    def paired(self, lowered: str) -> bool:
        """Whether the field named `lowered` is a word `base` or `quote` (`base`, `base_currency`, `quoteAsset`)
        of parameters that hold both: a market's pair, its base and quote currencies (never one alone: a git
        tool's `base` branch, a power's `base`)."""
        if _pair_word(lowered) is None:
            return False
        if self._paired is None:
            properties = self.resolve(self.root, 0).get("properties")
            words = (
                {_pair_word(n.lower()) for n in properties if isinstance(n, str)}
                if isinstance(properties, dict)
                else set()
            )
            self._paired = {"base", "quote"} <= words
        return self._paired

    def generic_fact(self, fact: str, name: str) -> str | None:
        """The value in the text of the `[generic.facts]` pattern `fact` for the field `name`: the k-th
        field asking for it takes the k-th distinct value (`turn`; the last when the text has fewer: from
        Asia/Tokyo to Europe/London, a check-in and a check-out date). The first is looked for once, the
        others only when a second field asks."""
        turn = self.turn(fact, name)
        first = self._facts[fact] if fact in self._facts else self.first_fact(fact)
        if turn == 0 or first is None:  # none in the text: none to look for again
            return first
        found = self.fact_values(fact)
        return found[min(turn, len(found) - 1)] if found else None

    def first_fact(self, fact: str) -> str | None:
        """The first match in the text of the `[generic.facts]` pattern `fact` (looked for once)."""
        if fact not in self._facts:
            pattern = self.rules.generic.facts.get(fact)
            if pattern is None:
                self._facts[fact] = None
            elif fact == "date":  # the first that is a day of the calendar, written or named ("tomorrow")
                self._facts[fact] = next(iter(self.days(pattern)), None)
            elif fact == "place":  # the first that is no option's value (`options_named`), read up to it
                named = self.options_named()
                places = filter(None, map(_group, screen.finditer(pattern, self.text)))
                unmonthed = (without_month(v) for v in places)  # "weather in May" names no place
                self._facts[fact] = next((v for v in unmonthed if v and not _holds(v, named)), None)
            elif fact == "time":  # the first that is a time of day, as HH:MM (7:30 pm: 19:30)
                self._facts[fact] = next(filter(None, map(clock, screen.finditer(pattern, self.text))), None)
            elif fact == "percent":  # "18%", then 百分之十八 and "eighteen percent" (`named_numbers.share_values`)
                self._facts[fact] = next(iter(share_values(self.text, pattern)), None)
            else:
                match = pattern.search(self.text)
                self._facts[fact] = _group(match) if match else None
        return self._facts[fact]

    def fact_values(self, fact: str) -> list[str]:
        """Every distinct value in the text of the `[generic.facts]` pattern `fact`, in order (days of
        the calendar only, for a date; for a place, none that holds a value the text names of one of the
        tool's `enum`s: "and in fahrenheit?" names a unit, not a city), looked for once."""
        if fact not in self._all_facts:
            pattern = self.rules.generic.facts.get(fact)
            matches = screen.finditer(pattern, self.text) if pattern is not None else iter(())
            if fact == "date":
                values = self.days(pattern) if pattern is not None else []
            elif fact == "time":
                values = list(dict.fromkeys(filter(None, map(clock, matches))))
            else:
                values = list(dict.fromkeys(filter(None, map(_group, matches))))
            if fact == "place" and values and (named := self.options_named()):
                values = [v for v in values if not _holds(v, named)]
            if fact == "place" and values:  # "flights to Nice in March": March is no place
                values = list(dict.fromkeys(w for v in values if (w := without_month(v))))
            self._all_facts[fact] = values
        return self._all_facts[fact]

    def days(self, pattern: re.Pattern[str]) -> list[str]:
        """The days of the calendar the text names, in its order, each once (ISO 8601): each match of the `date`
        fact's `pattern` that is one (`_day`), and each day named relative to the gateway's fixed today
        (`[generic.relative_dates]`: "tomorrow", "next Monday", "明天", "下周一"). Looked for once."""
        if "days" not in self._all_facts:
            text = self.text[:_MAX_CHARS]
            dated = list(screen.finditer(pattern, text))
            found = [(m.start(), _day(m)) for m in dated]
            relative = self.rules.generic.relative_dates
            if relative is not None:
                named = list(screen.finditer(relative.pattern, text))
                found += [(m.start(), relative.on(m)) for m in named]
                found.sort(key=lambda pair: pair[0])
                if counted := ordinal_days(text, relative.today):  # "the first Monday of March": not a Monday
                    found = _counted_days(found, counted)
                if yearless := yearless_days(text, relative.today, [m.span() for m in dated]):  # "Dec 20", 12月20号
                    found = _counted_days(found, yearless)
                alone = {m.start() for m in named if m.group("weekday") is not None and m.group("next") is None}
                if alone and len(found) > 1:  # "next Monday to Wednesday": the Wednesday after that Monday
                    found = range_ends(found, text, alone)
            self._all_facts["days"] = list(dict.fromkeys(day for _, day in found if day is not None))
        return self._all_facts["days"]

    def listed(self) -> list[str]:
        """The places of the list the text's first place starts ("weather in Paris, Rome and New York":
        Paris, Rome, New York; "北京和上海的天气": 北京, 上海), each once, at most `_MAX_LISTED`: after each place,
        `[generic] place_joiner` and the capitalised name it ends with, else a place fact starting in it or
        right after it. Only the first place when nothing joins another to it."""
        pattern, joiner = self.rules.generic.facts.get("place"), self.rules.generic.place_joiner
        text = self.text[:_MAX_CHARS]
        if pattern is None or joiner is None:
            return []
        named = self.options_named()
        matches = [m for m in screen.finditer(pattern, text) if not _holds(_group(m), named)]
        if not matches:
            return []
        places, end = [_group(matches[0])], matches[0].end()
        lower = places[0][:1].islower()  # a list begun in lower case goes on in lower case ("in paris and rome")
        while len(places) < _MAX_LISTED and (joined := joiner.match(text, end)) is not None:
            if bare := _bare(joined, lower):
                if _holds(bare, named) or not self.rules.generic.stopwords.isdisjoint(bare.lower().split()):
                    break  # "in Berlin, Celsius please": a unit, not a place; "in oslo and thanks": no place
                places.append(bare)
                end = joined.end()
                continue
            following = next((m for m in matches if end <= m.start() <= joined.end() < m.end()), None)
            if following is None:
                break
            places.append(_group(following))
            end = following.end()
        return list(dict.fromkeys(places))

    def options_named(self) -> list[str]:
        """The values of the root's top-level `enum`s (`option_values`) the text names as words, no
        stopword, lower-cased: what a unit or a mode the user asks for is written as, not a place."""
        properties = self.root.get("properties")
        if type(properties) is not dict:
            return []
        stopwords, named = self.rules.generic.stopwords, []
        for sub in properties.values():
            values = self.option_values(sub, 0) if type(sub) is dict else []
            named += [str(v).lower() for v in named_values(values, self.text) if str(v).lower() not in stopwords]
        return named


def _language(value: str) -> str:
    """An enum value's language code, lower-cased, without its region (`fr-FR`, `zh_CN`: fr, zh)."""
    return value.lower().replace("_", "-").split("-", 1)[0]


def _holds(value: str, named: list[str]) -> bool:
    """Whether `value` holds any of the lower-cased `named` values as a word (`_mention_of`)."""
    return bool(named) and any(_mention_of(o).search(value.lower()) for o in named)


def _matching(schema: dict[str, Any], value: str, filler: _Filler) -> str:
    """`value` if the schema's `pattern` is found in it (`re.search`, as JSON Schema reads it), else a
    string built to match it and the schema's lengths (`toolkit.gateway.patterned`), else `value`
    (a pattern that does not compile, or that the builder cannot build). A value longer than the
    pattern's `search_limit` is not searched (`.*a.*b` in the user's 1,000 characters took 0.3 s,
    `^\\d*\\d*\\d*\\d*\\d*\\d*x$` in 100 digits 20 s; `(a+)+$` is never searched): one is built. A
    built empty string (`^(a+)*$`) is given as built, not taken for no string.

    A request's values are searched for at most `_MAX_SEARCHES` searches' worth of backtracking in
    all (`filler.searched`): a value of `n` characters costs at most `n / search_limit` of one (the
    estimate grows at least as fast as the length), so a schema of thousands of such patterns
    costs a request what `_MAX_SEARCHES` searches at the limit cost; past that, strings are built."""
    pattern = schema["pattern"]
    checker = compiled(pattern) if isinstance(pattern, str) else None
    if checker is None:
        return value
    limit = search_limit(pattern)
    if _searched(checker, value, limit, filler):
        return value
    low, high = _lengths(schema)
    found = filler.pattern_words(pattern, checker, limit, low, high)
    if not found and filler.currencies():  # a code the text names a currency by ("from euros to yen": EUR, JPY)
        found = [code for code in filler.currencies() if _searched(checker, code, limit, filler)]
    if found:  # the k-th field of this pattern takes the k-th such word ("from USD to EUR"), or the last
        taken = filler.pattern_taken.get(pattern, 0)
        filler.pattern_taken[pattern] = taken + 1
        return found[min(taken, len(found) - 1)]
    made = (pattern_string(pattern, k, low, high) for k in range(_MAX_BUILT))  # the first of the lengths
    built = next((text for text in made if text is not None), None)  # (`^(red|green)$` of 4: "green")
    filler.made_up += built is not None
    return value if built is None else built


def _searched(checker: re.Pattern[str], value: str, limit: int, filler: _Filler) -> bool:
    """Whether `checker` finds its pattern in `value`, searched only within the pattern's `search_limit`
    and the request's `_MAX_SEARCHES` (`_matching`); not searched is not found."""
    share = len(value) / limit if limit else (math.inf if value else 0.0)  # "" is searched whatever the pattern
    if share <= 1 and filler.searched + share <= _MAX_SEARCHES:
        filler.searched += share
        return checker.search(value) is not None
    return False


_TEXT_WORD = re.compile(
    "[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+"
    "|[^\\s\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff,;!?()\\[\\]{}<>\"'“”‘’「」『』，。；：！？、（）《》]+"
)
"""A word of the text, for a patterned string: a run of Chinese (or Japanese) characters, or a run of
other characters between blanks and punctuation (`AB-123`, `USD`, `v1.2.3`; a full stop or colon
ending it is dropped: `_words`)."""


def _words(text: str) -> list[str]:
    """The words of `text` (`_TEXT_WORD`), each without a full stop or colon at its end, in order, once each;
    each followed by the other ways it reads (`_readings`)."""
    words = (w.rstrip(".:") for w in _TEXT_WORD.findall(text))
    return list(dict.fromkeys(reading for w in words if w for reading in _readings(w)))


_RUN = re.compile("[A-Za-z]+|[0-9]+")
"""A run of ASCII letters or of ASCII digits: the pieces a word glued together is read as."""


def _readings(word: str) -> list[str]:
    """`word`, then its full-width letters and digits as ASCII (NFKC: `ＵＳＤ` is `USD`), then, when it
    is more than one, each run of letters or digits it is made of (`100USD`: 100, USD; `USD→EUR`: USD,
    EUR), as a reader sees a currency code glued to its amount."""
    folded = unicodedata.normalize("NFKC", word) if not word.isascii() else word
    runs = _RUN.findall(folded)
    return [word, folded, *runs] if len(runs) > 1 else [word, folded]


_AMOUNT_BEFORE = re.compile(r"\d[\s\u00a0]*\Z")
_AMOUNT_AFTER = re.compile(r"[\s\u00a0]*\d")
"""An amount right before a currency's name ("50 pounds", "100美元") or right after it ("$100", "USD 20")."""

_MAX_LISTED = 16
"""The places of one list a tool is called for, at most (a list of thousands of cities is not thousands of calls)."""


def _bare(joined: re.Match[str], lower: bool) -> str | None:
    """The place a `[generic] place_joiner` match ends with: its capitalised name (group 1), or for a list
    begun in lower case, the lower-case name that goes on to the question's end (group 2); None when
    neither (a place fact may start there: "and in Rome")."""
    groups = joined.re.groups
    return (joined.group(1) if groups else None) or (joined.group(2) if lower and groups > 1 else None)


_MAX_BUILT = 16
"""The pattern's strings `_matching` builds, at most, for one of the schema's lengths."""


def _lengths(schema: dict[str, Any]) -> tuple[int, int | None]:
    low, high = schema.get("minLength"), schema.get("maxLength")
    return (
        min(low, _MAX_CHARS) if type(low) is int and low > 0 else 0,
        high if type(high) is int and high >= 0 else None,
    )


def _written(value: Any, seen: dict[int, int]) -> int:
    """How many steps `value` is worth as JSON written out: one a value, and one more each
    `_CHARS_A_STEP` characters of a string; a list or dict met before (one object repeated in an
    array) is counted from `seen`, so the count takes one look at each distinct object."""
    if isinstance(value, str):
        return 1 + len(value) // _CHARS_A_STEP
    if not isinstance(value, (dict, list)):
        return 1
    if id(value) not in seen:
        children = value.values() if isinstance(value, dict) else value
        seen[id(value)] = 1 + sum(_written(child, seen) for child in children)
    return seen[id(value)]


def _numbers(schema: dict[str, Any], kind: str, base: Any) -> Iterator[int | float]:
    """Numbers `schema` allows besides `base`: `base` plus and minus steps of `multipleOf` (else 1),
    nearest first, while within the bounds; then, for a `number` between two bounds closer than a
    step (`gt=0, lt=1`), points dividing that range (halves, quarters, ...)."""
    if not isinstance(base, (int, float)) or isinstance(base, bool):
        base = _bounded(schema, kind)
    step = _bound(schema, "multipleOf")
    step = step if step is not None and step > 0 else 1
    up = down = True
    half = kind == "number" and _bound(schema, "multipleOf") is None
    for i in range(1, _MAX_ITEMS + 1):
        tried: tuple[tuple[bool, Any], ...] = ((up, base + i * step), (down, base - i * step))
        if half:  # a number between the steps too (`oneOf` an integer or a number asks for one)
            tried += ((up, base + (i - 0.5) * step), (down, base - (i - 0.5) * step))
        for go, candidate in tried:
            candidate = round(candidate, 12)
            if (
                go
                and math.isfinite(candidate)
                and _within(candidate, schema)
                and (kind == "number" or candidate % 1 == 0)
            ):
                yield int(candidate) if float(candidate).is_integer() else candidate
        up = up and _below_top(base + i * step, schema)
        down = down and _above_floor(base - i * step, schema)
        if not (up or down):
            break
    low, high, x_low, x_high = (_bound(schema, key) for key in _BOUNDS)
    floor, ceiling = (low if x_low is None else x_low), (high if x_high is None else x_high)
    if kind == "number" and _bound(schema, "multipleOf") is None and floor is not None and ceiling is not None:
        for power in range(2, 21):
            parts = 1 << power
            for j in range(1, parts, 2):
                candidate = floor + (ceiling - floor) * j / parts
                if _within(candidate, schema):
                    yield candidate


def _in_turn(streams: list[Iterator[Any]]) -> Iterator[Any]:
    """One value of each stream in turn, until all are spent."""
    while streams:
        for stream in list(streams):
            try:
                yield next(stream)
            except StopIteration:
                streams.remove(stream)


def _below_top(number: float, schema: dict[str, Any]) -> bool:
    high, x_high = _bound(schema, "maximum"), _bound(schema, "exclusiveMaximum")
    return (high is None or number <= high) and (x_high is None or number < x_high)


def _above_floor(number: float, schema: dict[str, Any]) -> bool:
    low, x_low = _bound(schema, "minimum"), _bound(schema, "exclusiveMinimum")
    return (low is None or number >= low) and (x_low is None or number > x_low)


def _strings(schema: dict[str, Any], base: str) -> Iterator[str]:
    """Strings `schema` allows besides `base`: the `pattern`'s strings in order, else the `format`'s
    values (another day, another address), else `base` with a number after it (`order 2`, cut to
    `maxLength`), then single characters, for a `maxLength` too short for that."""
    low, high = _lengths(schema)
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and compiled(pattern) is not None:
        made = (pattern_string(pattern, k, low, high) for k in range(_MAX_ITEMS))
        yield from (text for text in made if text is not None)
        return
    fmt = _known_format(schema)
    if fmt:
        yield from (_format_variant(fmt, k) for k in range(1, _MAX_ITEMS))
        return
    for k in range(2, _MAX_ITEMS):
        tail = f" {k}" if high is None or len(base) + len(str(k)) + 1 <= high else str(k)  # cut: "p2", not " 2"
        text = (base[: max(0, high - len(tail))] if high is not None else base) + tail
        if high is not None and len(text) > high:
            break
        yield text + "_" * (low - len(text))
    if high is not None:
        yield from (ch.ljust(min(low, high), "_") for ch in _ALNUM)


_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _known_format(schema: dict[str, Any]) -> str:
    """The schema's `format` when it is one of `_FORMATS`, else "" (none, an unknown one, or one that is
    no string: `"format": ["email"]` is looked up in no table, where a list cannot be)."""
    fmt = schema.get("format")
    return fmt if type(fmt) is str and fmt in _FORMATS else ""


def _format_variant(fmt: str, k: int) -> str:
    """The `k`-th other value of format `fmt` (k >= 1; `_FORMATS` has the first)."""
    day = (_FIRST_DAY + timedelta(days=k)).isoformat()
    made = {
        "date": lambda: day,
        "date-time": lambda: f"{day}T00:00:00Z",
        "time": lambda: f"{k // 3600 % 24:02}:{k // 60 % 60:02}:{k % 60:02}Z",
        "duration": lambda: f"P{k + 1}D",
        "email": lambda: f"user{k}@example.com",
        "hostname": lambda: f"host{k}.example.com",
        "ipv4": lambda: str(IPv4Address(0xC0000201 + k)),
        "ipv6": lambda: f"2001:db8::{k + 1:x}",
        "uuid": lambda: f"00000000-0000-4000-8000-{k:012x}",
        "uri": lambda: f"https://example.com/{k}",
        "ipvanyaddress": lambda: str(IPv4Address(0xC0000201 + k)),
        "ipvanyinterface": lambda: f"{IPv4Address(0xC0000201 + k)}/24",
        "ipvanynetwork": lambda: str(IPv4Network((0xC0000200 + (k << 8), 24))),
        "ipv4interface": lambda: f"{IPv4Address(0xC0000201 + k)}/24",
        "ipv4network": lambda: str(IPv4Network((0xC0000200 + (k << 8), 24))),
        "ipv6interface": lambda: f"2001:db8::{k + 1:x}/64",
        "ipv6network": lambda: f"2001:db8:0:{k:x}::/64",
    }
    return made[fmt]()


_WRITTEN_WITH_DIGITS = ("date", "time", "email", "url", "uuid")
"""The facts whose digits are no number of their own (`_Filler.in_fact`)."""

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
"""A month's name's first three letters, in the calendar's order (`_day`)."""

_FIRST_DAY = date(2026, 1, 1)


_PAIR_WORD = re.compile(r"(?:^|[^a-z])(base|quote)(?![a-z])|^(base|quote)")


def _pair_word(lowered: str) -> str | None:
    """`base` or `quote` when it is a word of a (lower-cased, camelCase read first) field name: `base`,
    `base_currency`, `quoteasset`'s start; not `database` nor `quoted`."""
    found = _PAIR_WORD.search(lowered)
    return (found.group(1) or found.group(2)) if found else None


def _group(match: re.Match[str]) -> str:
    """The first group that matched (the whole match if the pattern has none)."""
    return next((g for g in match.groups() if g is not None), match.group(0))


def _day(match: re.Match[str]) -> str | None:
    """A `date` fact as ISO 8601 if it is a day of the calendar, else None (`2026-02-30`): three
    groups that matched are its year, month and day (`2026年12月4日`), else its group is ISO text."""
    parts = [g for g in match.groups() if g is not None]
    try:
        if len(parts) == 3:
            named = [p for p in parts if not p.isdigit()]  # a month by its name: Dec 4, 2026; 4 December 2026
            if named:
                day, year = (p for p in parts if p.isdigit())
                return date(int(year), _MONTHS.index(named[0][:3].lower()) + 1, int(day)).isoformat()
            return date(int(parts[0]), int(parts[1]), int(parts[2])).isoformat()
        return date.fromisoformat(_group(match)).isoformat()
    except ValueError:
        return None


def _sub(schema: Any) -> dict[str, Any]:
    """A property's schema as a dict (`true`, or anything else that is none, allows any value)."""
    return schema if isinstance(schema, dict) else {}


def _kind(schema: dict[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    if isinstance(kind, str):
        return kind
    if "properties" in schema:
        return "object"
    if "items" in schema:
        return "array"
    return "string"


def _unnulled(schema: Any) -> Any:
    """A nullable property's schema as its one other branch: `anyOf`/`oneOf` of a schema and `{"type": "null"}`
    (pydantic's `Optional[date]`) is that schema (its own keys kept beside), as `"type": ["string", "null"]` is a
    string; any other schema as it is. A required value never given is asked for however the type is spelled."""
    if not isinstance(schema, dict):
        return schema
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and len(branches) > 1:
            kept = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null")]
            if len(kept) == 1 and isinstance(kept[0], dict):
                return {**{k: v for k, v in schema.items() if k != key}, **kept[0]}
    return schema


def _pattern(schema: dict[str, Any]) -> bool:
    return isinstance(schema.get("pattern"), str) or isinstance(schema.get("format"), str)


def _example(schema: dict[str, Any]) -> str | None:
    examples = schema.get("examples")
    if isinstance(examples, list) and examples and isinstance(examples[0], str):
        return examples[0]
    description = schema.get("description")
    match = _EXAMPLE.search(description) if isinstance(description, str) else None
    return match.group(1) if match else None


def _described_default(schema: dict[str, Any]) -> str | None:
    """The default the schema's description states (`_DESCRIBED_DEFAULT`), else None (the usual case)."""
    description = schema.get("description")
    if not isinstance(description, str):
        return None
    match = _DESCRIBED_DEFAULT.search(description[:_MAX_WORDS_CHARS])
    return (match.group(1) or match.group(2)) if match else None


def _as_number(raw: Any, kind: str) -> int | float | None:
    """`raw` (a `number` fact, its thousands perhaps grouped by commas: 1,200.50) as a number of
    `kind`, or None."""
    try:
        number = float(raw.replace(",", "") if isinstance(raw, str) else raw)
    except (TypeError, ValueError):
        scaled = _scaled(raw)  # "2.5k", "5万" (the `number` fact's scale after the digits)
        if scaled is None:
            return None
        number, raw = scaled, ""
    if kind == "integer":
        return int(number) if number.is_integer() else None
    return int(number) if number.is_integer() and "." not in str(raw) else number


_SCALE = {"k": 1_000, "K": 1_000, "千": 1_000, "万": 10_000, "亿": 100_000_000}


def _counted_days(
    found: list[tuple[int, str | None]], counted: list[tuple[int, int, str | None]]
) -> list[tuple[int, str | None]]:
    """The days `found` (where each is written, the day) with the weekdays counted within a month (`ordinal_days`)
    in place of what was read inside them (the weekday alone, a month's name), in the text's order."""
    kept = [(at, day) for at, day in found if not any(start <= at < end for start, end, _ in counted)]
    return sorted([*kept, *((start, day) for start, _, day in counted)], key=lambda pair: pair[0])


def _read_number(match: re.Match[str], schema: dict[str, Any], kind: str) -> int | float | None:
    """A match of the `number` fact as a number of `kind` within `schema`'s bounds, or None."""
    number = _as_number(_group(match), kind)
    return number if number is not None and _within(number, schema) else None


def _scaled(raw: Any) -> float | None:
    """ "2.5k" as 2500.0, "5万" as 50000.0: a number with the scale a `number` fact allows after it; else None."""
    if not isinstance(raw, str) or raw[-1:] not in _SCALE:
        return None
    try:
        return float(Decimal(raw[:-1].replace(",", "")) * _SCALE[raw[-1]])  # 1.1k: 1100, not 1100.0000000000002
    except ArithmeticError:  # decimal.InvalidOperation
        return None


def _within(number: float, schema: dict[str, Any]) -> bool:
    low, high, x_low, x_high = (_bound(schema, key) for key in _BOUNDS)
    step = _bound(schema, "multipleOf")
    return not (
        (low is not None and number < low)
        or (high is not None and number > high)
        or (x_low is not None and number <= x_low)
        or (x_high is not None and number >= x_high)
        or (step is not None and step > 0 and not _multiple(number, step))
    )


def _in_unit(held: float, schema: dict[str, Any], kind: str) -> int | float | None:
    """A duration in a field's unit as the field's number (a whole one as an integer), or None when the field
    cannot take it (an integer field given 1.5 of its unit, a value outside its bounds)."""
    number: int | float = int(held) if held.is_integer() else held
    if kind == "integer" and type(number) is not int:
        return None
    return number if _within(number, schema) else None


def _multiple(number: float, step: float) -> bool:
    """Whether `number` is a multiple of `step` (to a billionth of a step). Not when the quotient
    overflows a double (`1e308` over `multipleOf: 1e-300`): no double says, and rounding it raised."""
    quotient = number / step
    return math.isfinite(quotient) and abs(quotient - round(quotient)) <= 1e-9


_FORMAT_ONLY = frozenset(("type", "format"))
_STRING_ASKS = frozenset(
    ("type", "enum", "const", "anyOf", "oneOf", "allOf", "not", "pattern", "format", "minLength", "maxLength", "$ref")
)
"""What a string's schema may ask; an array's items that ask only a `type` and a `format` take every such fact."""

_NOT_PLAIN = frozenset(("enum", "const", "anyOf", "oneOf", "pattern", "format", "minLength", "maxLength"))
"""What makes a string's schema ask more than any string: its array's items are then made from it."""

_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def _bound(schema: dict[str, Any], key: str) -> float | None:
    value = schema.get(key)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _bounded(schema: dict[str, Any], kind: str) -> int | float:
    """The smallest allowed value of at least 1 (or the largest allowed below it), else one just
    inside an exclusive bound, else the middle of the two bounds (`gt=0, lt=1`: 0.5); a multiple of
    `multipleOf` when the schema asks for one, an integer for an integer. 0 when none is allowed."""
    low, high, x_low, x_high = (_bound(schema, key) for key in _BOUNDS)
    floor = max((b for b in (low, x_low) if b is not None), default=None)
    ceiling = min((b for b in (high, x_high) if b is not None), default=None)
    tried = [1, low, high, None if x_low is None else x_low + 1, None if x_high is None else x_high - 1]
    if floor is not None and ceiling is not None:
        tried.append((floor + ceiling) / 2)
    candidates = [c for c in tried if c is not None]
    step = _bound(schema, "multipleOf")
    if step is not None and step > 0:
        # a candidate whose quotient overflows (a bound of 1e308, a step of 1e-300) has no multiple to round to
        # each rounded up to a multiple, then (a `maximum` below the first multiple up) each rounded down
        finite = [c for c in candidates if math.isfinite(c / step)]
        candidates = [
            *(round(math.ceil(c / step) * step, 12) for c in finite),
            step,
            *(round(math.floor(c / step) * step, 12) for c in finite),
        ]
    for candidate in candidates:
        if kind == "integer":
            candidate = math.ceil(candidate)
        if _within(candidate, schema):
            return int(candidate) if kind == "integer" or float(candidate).is_integer() else candidate
    return 0


def _pointer(root: dict[str, Any], ref: str) -> dict[str, Any]:
    node: Any = root
    for part in ref.lstrip("#").split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return {}
    return node if isinstance(node, dict) else {}
