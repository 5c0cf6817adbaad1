"""Keyword tool search with LangChain4j's rules, and an index that keeps them fast at 10,000 tools.

The rules (`SimpleToolSearchStrategy`): the model sends a list of terms; each term is split at
whitespace (Java's `\\s+`, ASCII whitespace: ["order status"] is "order" and "status", as a model
writes it although the argument asks for single words), trimmed, lower-cased and de-duplicated, blanks
dropped. For every tool and every term:

    the lower-cased name contains the term          +2
    the lower-cased description contains the term   +1

Tools scoring at least `min_score` (1) are ranked by score, highest first, ties in catalogue
order, and the first `max_results` (5) are returned. `naive_search` is that rule written out
literally: the reference the index is tested against.

`KeywordIndex` gives the same answer without reading every tool. It reads the names and the
descriptions once, as one sequence of runs (letters and digits, or everything else; cut and
numbered with array operations over all their characters, `toolkit.search.runs`), and lists
where each run occurs and which texts hold it. A term made of one kind of character can only
occur inside a run of that kind, so the tools containing it are exactly the holders of the runs
that contain it; the runs holding each 1-, 2- and 3-character piece are listed once, with array
operations over all runs at a time (a catalogue may have hundreds of thousands of distinct runs:
ids, version numbers, Chinese written without spaces). Runs that one text in 32 or more holds
("the", "order", a word inside many compounds) keep a bit set, OR-ed rather than listed text by
text, and so does a short piece that many hold ("a"), once asked for. A mixed term ("e.g.",
"create_task") is found by its places in the sequence: runs side by side, checked with array
look-ups rather than `in` on each tool (unless its runs times its places would pass the characters
of the texts holding them: "a-a-a-…" over texts that repeat it; those texts are then read with `in`). A long query's words (6 or more terms longer than 3, of
one kind of character) are looked up together, each step one set of array operations for all of
them: their pieces, the crossing of their lists, the counting of the texts that hold them.
Scores add up in a NumPy array (of bytes, for up to 85 terms); only the best score levels are read.
An index keeps what each term it looked up lately adds to the scores (`_Known`, within `cache_bytes`),
as a search engine's query cache does: a model's searches send the same words again and again.

`KeywordSearch` is the strategy the search wrapper (`toolkit.search.tool`) uses: the search tool's
spec, how its arguments are checked, and the two settings.

Leaves out: stemming, synonyms, typo tolerance — a model searching for "parcel" does not find
a tool that only says "shipment" (that is what vector search is for).
"""

from __future__ import annotations

import json
import math
import re
import sys
import threading
from collections.abc import Callable, Collection, Iterable, KeysView, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, count
from numbers import Integral, Real
from typing import Any

import numpy as np

from toolkit.errors import ConfigurationError, SearchArgumentError, ToolDefinitionError
from toolkit.search.runs import _RUNS, changes, read_runs
from toolkit.tools import json_repair
from toolkit.tools.decorator import a_kind_of, check_name
from toolkit.tools.reflect import ToolSpec
from toolkit.unicode import cut

_JAVA_TRIM = "".join(chr(c) for c in range(33))
"""What Java's `String.trim()` removes: every character up to and including the space."""
_JAVA_SPACE = re.compile(r"[ \t\n\x0b\f\r]+")
"""What Java's regex `\\s+` splits at (without `UNICODE_CHARACTER_CLASS`): ASCII whitespace only."""


@dataclass(frozen=True)
class Match:
    """One tool a search found."""

    name: str
    description: str
    score: float
    """Keyword: 2 per name hit + 1 per description hit. Vector: cosine similarity."""


def clean_terms(terms: Iterable[str]) -> list[str]:
    """One term per word (split at whitespace), trimmed, lower-cased, non-blank, each once, in the model's
    order (LangChain4j's `clean`: `term.split("\\s+")`, then `trim`, `toLowerCase`, `distinct`)."""
    cleaned = [w.strip(_JAVA_TRIM).lower() for t in terms for w in _JAVA_SPACE.split(t)]
    return list(dict.fromkeys([t for t in cleaned if t]))


def score(spec: ToolSpec, terms: Sequence[str]) -> int:
    """LangChain4j's score of one tool for already-cleaned terms."""
    return score_text(spec.name, spec.description, terms)


def score_text(name: str, description: str | None, terms: Sequence[str]) -> int:
    """`score` of a name and description not (yet) in a `ToolSpec`: 2 per term in the name, 1 per
    term in the description, case-insensitive."""
    name, description = name.lower(), (description or "").lower()
    return sum(2 * (t in name) + (t in description) for t in terms)


def check_max_results(max_results: int, where: str) -> int:
    """`max_results` as an int, or a `ConfigurationError` unless it is a whole number from 0 up: Java's
    `Stream.limit` refuses a negative one, where a Python slice would quietly drop tools from the end
    (`[:-1]`) or keep all (`[:None]`); `True` is no count (it would mean 1). A NumPy whole number (a size
    from `np.arange` or a results table) is one."""
    if not _a_count(max_results):
        raise ConfigurationError(f"{where}: max_results={max_results!r}; use a whole number, 0 or more")
    return int(max_results)


def _a_count(value: object) -> bool:
    """Whether `value` is a whole number from 0 up: an int or a NumPy whole number, not a bool."""
    return isinstance(value, Integral) and not isinstance(value, bool) and int(value) >= 0


def check_min_score(min_score: float, where: str) -> float:
    """`min_score` as an int or a float, or a `ConfigurationError` unless it is a finite number: NaN keeps
    no tool, and a text or None fails only when the model first searches. NumPy numbers are numbers. A
    whole number is always finite: one beyond a float's range becomes the largest float of its sign
    (NumPy's similarities cannot be compared with it; every score compares with both alike)."""
    if isinstance(min_score, bool) or not isinstance(min_score, Real):
        raise ConfigurationError(f"{where}: min_score={min_score!r}; use a finite number")
    if isinstance(min_score, Integral):
        whole = int(min_score)
        return whole if abs(whole) <= _FLOAT_MAX else (1 if whole > 0 else -1) * sys.float_info.max
    if not math.isfinite(min_score):
        raise ConfigurationError(f"{where}: min_score={min_score!r}; use a finite number")
    return float(min_score)


_FLOAT_MAX = int(sys.float_info.max)
"""The largest float, as an int: a whole number up to it converts to a float (rounded, not overflowing)."""


def check_search_tool(strategy: Any, where: str) -> None:
    """The search tool's own name and texts, checked when the strategy is made: a name that is no tool
    name failed only when a call's tools were put together (its fix pointing at a `ToolSpec` nobody
    wrote), and a parameter or description that is no str went to the model as it was (`"required":
    [5]`, no JSON Schema)."""
    check_name(
        f"{where}(name={strategy.name!r:.40})",
        strategy.name,
        f"pass a valid name, e.g. {where}(name='find_tools'), or leave it out for {SEARCH_TOOL_NAME!r}",
    )
    for option, what in (
        ("argument", "the name of the search tool's one parameter, a non-blank str"),
        ("description", "the search tool's description, a str"),
        ("argument_description", "its parameter's description, a str"),
    ):
        value = getattr(strategy, option)
        if not isinstance(value, str) or (option == "argument" and not value.strip()):
            raise ToolDefinitionError(
                f"{where}({option}={value!r:.40})",
                f"{option} is {what}, and got {'a blank str' if isinstance(value, str) else a_kind_of(value)}",
                f"pass a str, or leave it out for the default ({getattr(type(strategy), option)!r})"
                if option == "argument"
                else "pass a str, or leave it out for the default text",
            )


def check_allowed(allowed: Collection[str] | None, where: str) -> Collection[str] | None:
    """`allowed` (the names a search may return) as a collection looked up by hash: a list or tuple
    read once into a set (`name in list` compares name by name: every tool that ties looked its name
    up, allowed times catalogue). A `ConfigurationError` when it is one str or bytes: a str is a
    collection of its pieces, so `name in "query_order"` would pass "order" and "e"."""
    if isinstance(allowed, (str, bytes)):
        raise ConfigurationError(
            f"{where}: allowed is the names a search may return, and got a {type(allowed).__name__}, "
            f"whose pieces would pass as names; pass a set or list of names, e.g. {{{allowed!r:.40}}}"
        )
    if allowed is None or isinstance(allowed, (set, frozenset, Mapping, KeysView)):
        return allowed
    if not isinstance(allowed, Iterable):
        raise _no_names(f"{type(allowed).__name__}, which holds no names", where)
    items = list(allowed)  # an iterator is read once, here (its items may be looked at again below)
    try:
        return frozenset(items)
    except TypeError:  # an item that cannot be a name: a list of names inside the list
        odd = type(_unhashable(items)).__name__
        raise _no_names(f"{type(allowed).__name__} holding a {odd}, which is no name", where) from None


def _unhashable(items: list[Any]) -> object:
    """The first of `items` that has no hash (a list, or a tuple holding one)."""
    for item in items:
        try:
            hash(item)
        except TypeError:
            return item
    return None


def _no_names(got: str, where: str) -> ConfigurationError:
    """The error for `allowed` that is no collection of names (`check_allowed`)."""
    return ConfigurationError(
        f"{where}: allowed is the names a search may return, and got {got}; "
        "pass a set or list of names, e.g. {'query_order', 'refund'}"
    )


_BUILT_BY = {"KeywordIndex": "KeywordSearch", "VectorIndex": "VectorSearch"}
"""Each strategy's index, by the index type's name: the text of `check_index` names the other one's."""


def check_index(index: object, kind: type, strategy: object) -> None:
    """A `ConfigurationError` unless `index` is a `kind` (the index `strategy.index(specs)` returns): the
    catalogue passed for its index failed with a raw AttributeError, and the other strategy's index (a
    `ToolSearch` whose strategy was replaced, searching the index built before) with that index's rules."""
    if isinstance(index, kind):
        return
    where, got = type(strategy).__name__, type(index).__name__
    builder = _BUILT_BY.get(got) if type(index).__module__.startswith("toolkit.search.") else None
    shown = f"{got}, which {builder} builds" if builder else got
    raise ConfigurationError(
        f"{where}.search: takes the index {where}.index(specs) returns, and got {shown}; "
        "build it once and pass it: index = search.index(specs)"
    )


def search_terms(terms: Iterable[str], where: str) -> list[str]:
    """`clean_terms` of what a caller passed as the terms, or a `ConfigurationError` naming the fix:
    a str would be searched letter by letter ("order" finds every tool with an o, r, d or e), a
    dict by its keys, None or a number not at all. Any other iterable of str is taken (their order
    changes no score). The items are checked only when cleaning fails on one (no scan per search)."""
    if type(terms) is not list and (
        isinstance(terms, (str, bytes, bytearray, Mapping)) or not isinstance(terms, Iterable)
    ):
        kind = type(terms).__name__
        if isinstance(terms, str):
            shown = repr(terms) if len(terms) <= 40 else repr(terms[:40]) + "…"
            fix = f"pass a list: [{shown}] for one term, or {shown}.split() for one term per word"
            raise ConfigurationError(
                f"{where}: takes a list of terms, and got a str, which would be searched letter by letter; {fix}"
            )
        raise ConfigurationError(
            f"{where}: takes a list of terms, and got {kind}; pass a list of str, e.g. ['refund', 'payment']"
        )
    if type(terms) is not list:
        terms = list(terms)  # a generator is read once, here (the items may be looked at again below)
    try:
        return clean_terms(terms)
    except (AttributeError, TypeError):  # an item that is not a str (`bytes.strip` takes no str)
        index, odd = next((i, t) for i, t in enumerate(terms) if not isinstance(t, str))
        raise ConfigurationError(
            f"{where}: term {index} is {type(odd).__name__}, not a str; pass a list of str, e.g. ['refund', 'payment']"
        ) from None


def catalogue(specs: Iterable[ToolSpec], where: str) -> list[ToolSpec]:
    """The tool specs an index is built from, as a list, or a `ConfigurationError` naming the fix:
    one spec alone, a str, a dict (read by its keys), None, a `Catalog` (for its tools); a set (hash
    order: ties are ranked in catalogue order, so each process would rank them differently). Items are
    checked by `catalogue_misfit` only when building fails on one (no second pass over 10,000 tools)."""
    if type(specs) is list:
        return specs
    if isinstance(specs, (set, frozenset)):
        raise ConfigurationError(
            f"{where}: takes a list of tool specs, and got a {type(specs).__name__}, which has no order: tools that "
            "tie would be ranked in another order in each process; give a list, in the order you want"
        )
    if isinstance(specs, (str, bytes, bytearray, Mapping, ToolSpec)) or not isinstance(specs, Iterable):
        kind = type(specs).__name__
        fix = "put it in a list: [spec]" if isinstance(specs, ToolSpec) else "e.g. [t.spec for t in tools_from(...)]"
        fix += ", or list(specs.values()) for a dict" if isinstance(specs, Mapping) else ""
        if hasattr(specs, "tools") and hasattr(specs, "queries"):  # a `Catalog` (load_catalog), for its tools
            fix = "pass its tools: catalog.tools"
        raise ConfigurationError(f"{where}: takes a list of tool specs, and got {kind}; {fix}")
    return list(specs)


def catalogue_misfit(specs: Sequence[Any], where: str) -> ConfigurationError | None:
    """The error to raise when building an index failed on an item that is not a tool spec (a
    function, a `Tool`, an OpenAI tool dict, a name); None when every item is one."""
    for index, spec in enumerate(specs):
        if isinstance(spec, ToolSpec):
            continue
        kind = f"the class {spec.__name__}" if isinstance(spec, type) else type(spec).__name__
        if isinstance(spec, type):
            fix = 'pass an instance (a ToolSpec), e.g. ToolSpec("name", "description")'
        elif callable(getattr(spec, "spec", None)) or isinstance(getattr(spec, "spec", None), ToolSpec):
            fix = "pass its spec: [t.spec for t in tools]"
        elif callable(spec):
            fix = "reflect it first: [t.spec for t in tools_from(f)]"
        else:
            fix = 'make one: ToolSpec("name", "description"), or [t.spec for t in tools_from(f)] for functions'
        return ConfigurationError(f"{where}: item {index} ({kind}) is not a ToolSpec; {fix}")
    return None


def _text_misfit(specs: Sequence[ToolSpec], where: str) -> ConfigurationError:
    """The error to raise when a tool spec's name or description is no str (bytes, a number, None
    for a name): the first such spec, by its place and name."""
    fix = "give each ToolSpec a str name and a str description (or None)"
    for index, spec in enumerate(specs):
        for field, value in (("name", spec.name), ("description", spec.description or "")):
            if not isinstance(value, str):
                kind = type(value).__name__
                return ConfigurationError(
                    f"{where}: item {index} ({spec.name!r:.40}) has a {field} of {kind}, not a str; {fix}"
                )
    return ConfigurationError(f"{where}: a tool spec's name or description is not a str; {fix}")


def naive_search(
    terms: Iterable[str], specs: Sequence[ToolSpec], max_results: int = 5, min_score: int = 1
) -> list[Match]:
    """The reference: score every tool, keep those >= min_score, stable sort, cut."""
    check_max_results(max_results, "naive_search")
    check_min_score(min_score, "naive_search")
    cleaned = search_terms(terms, "naive_search")
    specs = catalogue(specs, "naive_search")  # a list (a str, a dict or one spec alone is refused)
    try:
        scored = [(spec, score(spec, cleaned)) for spec in specs]
    except (AttributeError, TypeError):  # not a spec, or a text that is no str: named, not a raw error
        raise catalogue_misfit(specs, "naive_search") or _text_misfit(specs, "naive_search") from None
    kept = sorted((pair for pair in scored if pair[1] >= min_score), key=lambda pair: -pair[1])
    return [Match(s.name, s.description, n) for s, n in kept[:max_results]]


_NONE = np.zeros(0, dtype=np.int32)

_FEW = 32
"""Few enough to take one by one in Python: candidate runs this few are checked with `in` rather than
narrowed further (about one piece look-up's cost); this few runs or slices are handled in a loop
rather than with index arrays built for all of them (each NumPy call costs about a microsecond)."""

_BATCHED_FROM = 6
"""From this many words on (terms of one kind of character, longer than 3), a query's words are looked up
together (`_Postings.words_hits`). Together, the whole query costs some 60 NumPy calls more, and each word
about 3 µs (held by many texts) to 15 µs (by few) less, than taking the words one by one: measured, from
4 to 5 words on a catalogue of rare words, from 7 on one of common words."""

_ALONE_FROM = 1024
"""A word whose runs have this many texts between them is added on its own, as a mask or a list, rather
than sorted with the other words' texts: sorting costs more per text than marking or adding."""

_CROSSED_FROM = 4 * _FEW
"""Many words' candidate runs are narrowed together (`_Postings.containing`): a round of crosses costs some
20 NumPy calls whatever the words, about as much as checking this many runs with `in`, so a round is taken
only while the words with more than a few candidates have this many between them."""


_MANY_FROM = 64
"""The fewest texts that count as many whatever the catalogue's size: a short piece held by this many
(and one text in 8) keeps its mask (`_Postings.common`); a run held by this many (and one text in 32)
keeps a bit set (`_Postings.packed_from`). Tests lower it, so that a small catalogue takes those paths."""

_READ_FROM = 4096
_READ_RUNS = 8
"""A mixed term of `_READ_RUNS` runs or more whose places times runs pass `_READ_FROM` is weighed against
reading its candidate texts with `in` (`_Postings._mixed`); a term of fewer runs costs a few passes over
its places at most, and weighing (a sort of the places' texts) would cost about as much."""


def _distinct(values: np.ndarray) -> np.ndarray:
    """The values sorted, each once (`np.unique` without its slower hashing)."""
    values = np.sort(values)
    return values[changes(values)]


def _code_points(texts: list[str]) -> np.ndarray:
    """The texts' characters, joined, as 32-bit code points (lone surrogates kept)."""
    return np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _groups(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each value of a sorted array first appears, and how many times it does."""
    firsts = changes(values).nonzero()[0]
    return firsts, np.concatenate((firsts[1:], [len(values)])) - firsts


class _Table:
    """Postings of numbers: for each distinct key, the runs listed with it (ascending, each once)."""

    def __init__(self, keys: np.ndarray, runs: np.ndarray, key_bits: int, run_bits: int) -> None:
        if key_bits + run_bits <= 63:  # each (key, run) pair as one number: a plain sort orders them
            pairs = _distinct(keys << run_bits | runs)
            keys, runs = pairs >> run_bits, pairs & ((1 << run_bits) - 1)
        else:  # too wide for one number (a huge alphabet or catalogue): the same, slower
            order = np.lexsort((runs, keys))
            keys, runs = keys[order], runs[order]
            fresh = np.ones(len(keys), dtype=bool)
            fresh[1:] = (keys[1:] != keys[:-1]) | (runs[1:] != runs[:-1])
            keys, runs = keys[fresh], runs[fresh]
        firsts = np.flatnonzero(np.diff(keys, prepend=-1))
        self.keys = keys[firsts]
        self.runs = runs.astype(np.int32)
        self.starts = np.append(firsts, len(keys))
        """The runs listed with keys[i] are runs[starts[i]:starts[i + 1]]."""

    def get(self, key: int) -> np.ndarray:
        i = int(self.keys.searchsorted(key))  # the method: a third of np.searchsorted's overhead
        if i == len(self.keys) or self.keys[i] != key:
            return _NONE
        return self.runs[self.starts[i] : self.starts[i + 1]]


class _Pieces:
    """Which runs hold, begin with and end with each 1-, 2- and 3-character piece.

    Built with array operations over all runs joined, not run by run. Each character becomes
    its rank in the catalogue's alphabet; every position of the joined text starts one piece of
    each length, its ranks packed into one number (`code`). Pieces that would cross from one run
    into the next are dropped, and sorting the (piece, run) pairs lists the runs holding each
    piece (`_Table`).
    """

    def __init__(self, runs: list[str]) -> None:
        joined = _code_points(runs)
        alphabet = _distinct(joined)
        self.alphabet = alphabet
        """The catalogue's characters (as code points), ascending: a character's rank is its place here."""
        self.rank = {chr(c): i for i, c in enumerate(alphabet.tolist())}
        self.bits = max(1, len(alphabet).bit_length())
        """Bits per character in a piece's code."""
        ranks = np.zeros(int(alphabet[-1]) + 1 if len(alphabet) else 0, dtype=np.int64)
        ranks[alphabet] = np.arange(len(alphabet))
        chars = ranks[joined]  # each character's rank: one look-up (a binary search is slower)
        lengths = np.fromiter(map(len, runs), dtype=np.int64, count=len(runs))
        self.longest = int(lengths.max(initial=0))
        """The longest run's length: a longer part of a term is inside none."""
        owner = np.repeat(np.arange(len(runs), dtype=np.int64), lengths)  # the run of each character
        first = np.cumsum(lengths) - lengths  # where each run begins in the joined text
        run_bits = max(1, len(runs).bit_length())
        self.inside: list[_Table] = []
        self.begin: list[_Table] = []
        self.end: list[_Table] = []
        """For length 1, 2, 3: the runs holding / beginning with / ending with each piece."""
        codes = chars
        for n in (1, 2, 3):
            if n > 1:  # the piece at p: the one before it, one character longer
                codes = codes[:-1] << self.bits | chars[n - 1 :]
            inside = owner[: len(codes)] == owner[n - 1 :]  # does not cross into the next run
            key_bits = n * self.bits
            self.inside.append(_Table(codes[inside], owner[: len(codes)][inside], key_bits, run_bits))
            long = np.flatnonzero(lengths >= n)
            self.begin.append(_Table(codes[first[long]], long, key_bits, run_bits))
            self.end.append(_Table(codes[first[long] + lengths[long] - n], long, key_bits, run_bits))

    def code(self, piece: str) -> int:
        """A piece of 1 to 3 characters as one number (-1 if a character is not in the catalogue)."""
        code = 0
        for char in piece:
            rank = self.rank.get(char)
            if rank is None:
                return -1
            code = code << self.bits | rank
        return code

    def holding(self, piece: str) -> np.ndarray:
        """The runs holding `piece` (1 to 3 characters), ascending."""
        return self.inside[len(piece) - 1].get(self.code(piece))

    def triples(self, part: str) -> list[np.ndarray]:
        """The runs holding each distinct 3-character piece of `part` (3 or more characters), shortest list first.

        All the pieces are looked up at once (one `searchsorted`); a piece the catalogue does not
        have, or a part longer than every run, gives a single empty list.
        """
        table = self.inside[2]
        if len(part) > self.longest:
            return [_NONE]
        ranks = [self.rank.get(char, -1) for char in part]
        if -1 in ranks or not len(table.keys):
            return [_NONE]
        bits = self.bits
        # each distinct piece once: a term repeating its pieces ("abcabc…") would cross the same lists again
        codes = list(dict.fromkeys([(a << bits | b) << bits | c for a, b, c in zip(ranks, ranks[1:], ranks[2:])]))
        found = np.minimum(table.keys.searchsorted(codes), len(table.keys) - 1)
        if table.keys[found].tolist() != codes:
            return [_NONE]
        lows, highs = table.starts[found].tolist(), table.starts[found + 1].tolist()
        return sorted((table.runs[low:high] for low, high in zip(lows, highs)), key=len)

    def lists(self, words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`triples` for many words (3 or more characters each) at once, as places in `inside[2].runs`.

        All the words' pieces are looked up together: one array of characters, one `searchsorted`
        for their ranks, one for their pieces. For each piece, where its list starts and how long it
        is (0 for a piece the catalogue does not have), word after word, each word's shortest list
        first; and how many distinct pieces each word has (a word repeating its pieces, "abcabc…",
        would cross the same lists again). The catalogue must have a piece of 3 characters.
        """
        table = self.inside[2]
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        chars = _code_points(words)
        ranks = self.alphabet.searchsorted(chars)
        # a character not in the catalogue: the rank after the last one, which no piece has
        ranks[self.alphabet.take(ranks, mode="clip") != chars] = len(self.alphabet)
        codes = (ranks[:-2] << self.bits | ranks[1:-1]) << self.bits | ranks[2:]  # the piece at each place
        owner = np.repeat(np.arange(len(words)), lengths)  # the word of each character
        inside = owner[:-2] == owner[2:]  # pieces that do not cross into the next word
        word, codes = owner[:-2][inside], codes[inside]
        found = np.minimum(table.keys.searchsorted(codes), len(table.keys) - 1)
        starts = table.starts[found]
        sizes = (table.starts[found + 1] - starts) * (table.keys[found] == codes)
        order = np.lexsort((codes, sizes, word))  # a word's same pieces side by side
        word, codes = word[order], codes[order]
        fresh = changes(codes)
        fresh[1:] |= word[1:] != word[:-1]
        order = order[fresh]
        return starts[order], sizes[order], np.bincount(word[fresh], minlength=len(words))

    def beginning(self, start: str) -> np.ndarray:
        """The runs beginning with `start` (1 to 3 characters; more: a superset)."""
        return self.begin[min(3, len(start)) - 1].get(self.code(start[:3]))

    def ending(self, end: str) -> np.ndarray:
        """The runs ending with `end` (1 to 3 characters; more: a superset)."""
        return self.end[min(3, len(end)) - 1].get(self.code(end[-3:]))


class _Postings:
    """For a list of texts (the names, then the descriptions): their runs, which texts hold each, where each occurs.

    Every text is read once as a sequence of run ids (`read_runs`; `sequence`, texts apart by a separator id);
    one sort of (run, place) pairs lists where each run occurs (`places`) and, each text once,
    which texts hold it (`holders`).

    A term made of one kind of character (all letters and digits, or none) can only occur inside
    one run of that kind, so the texts containing it are exactly the texts holding a run that
    contains it. Distinct runs are far fewer than the texts' characters, so finding those runs is
    cheap: 1-, 2- and 3-character pieces list the runs holding them (`_Pieces`); a longer term
    keeps the runs on its 3-character pieces' lists (shortest list first) and checks those few with
    `in`. A run held by one text in 32 or more ("the", a word inside many compounds) has its texts
    as a bit set too, and so does a short piece ("a") once asked for.

    Many words of one query are looked up together (`words_hits`): the same steps, each one set of
    array operations for all the words.

    A mixed term ("e.g.", "(jira", "create_task") is cut into runs the same way. Where it occurs,
    its first run ends a run of the text, its inner runs are whole runs of the text, and its last
    run starts one, all side by side. So its places are found in the sequence without reading
    the texts: start from the places of its rarest part and keep those whose neighbours in the
    sequence are runs the other parts allow (array look-ups, no string checks).
    """

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.size = len(texts)
        self.longest_text = max(map(len, texts), default=0)
        """The longest text's length: a longer term is in none (and is not read: it may be a megabyte)."""
        self.dense = max(_MANY_FROM, self.size // 8)
        """From this many texts on, a hit list is a mask over all texts rather than a list."""
        self.masked_from = max(_FEW, self.size // 256)
        """From this many places found on, a mixed term's texts are marked in a mask rather than
        sorted: a few passes over all texts cost less than the sort's many small steps."""
        self.packed_from = max(_MANY_FROM, self.size // 32)
        """From this many holders on (one text in 32), a run keeps a bit set of its texts too: size / 8
        bytes, no more than its list (4 bytes a holder). Its texts are then OR-ed, not marked one by one."""
        reading = read_runs(texts)
        self.runs = reading.runs
        """The distinct runs, in order of first reading: run r is runs[r]."""
        self.ids = dict(zip(self.runs, range(len(self.runs))))
        """Each distinct run's id."""
        run_ids, counts = reading.ids, reading.counts
        self.pieces = _Pieces(self.runs)
        # the sequence: a separator, text 0's run ids, a separator, text 1's, …, a separator
        self.separator = len(self.runs)
        spans = counts + 1  # each text's runs and the separator after them
        self.text_of = np.repeat(np.arange(-1, self.size, dtype=np.int32), np.append(1, spans))
        """The text each place of the sequence is in (a separator: the text before it)."""
        gaps = np.zeros(self.size + 1, dtype=np.int64)  # the separators' places
        np.cumsum(spans, out=gaps[1:])
        is_run = np.ones(len(self.text_of), dtype=bool)
        is_run[gaps] = False
        self.sequence = np.full(len(is_run), self.separator, dtype=np.int32)
        self.sequence[is_run] = run_ids
        # sorted by run, then in reading order: each run's places, and its texts ascending
        sorted_runs, read = _sort_by(run_ids, len(self.runs))
        self.places = np.flatnonzero(is_run).astype(np.int32)[read]  # each run read's place, in that order
        """The places of run r in the sequence are places[at[r]:at[r + 1]]."""
        owners = self.text_of[self.places]
        self.at = _offsets(run_ids, len(self.runs))
        self.occurs = np.diff(self.at)
        """How many places each run has."""
        self._list_holders(sorted_runs, owners)
        self._pack_frequent()
        self.common: dict[str, np.ndarray] = {}
        """Packed masks of the texts holding a short piece that many texts (`dense` or more) hold (filled on first use)."""

    def _list_holders(self, run_ids: np.ndarray, owners: np.ndarray) -> None:
        """`holders`, `starts` and `held` from the runs read, sorted by run (texts ascending within a run)."""
        fresh = np.ones(len(run_ids), dtype=bool)  # the first reading of a run in a text
        fresh[1:] = (run_ids[1:] != run_ids[:-1]) | (owners[1:] != owners[:-1])
        self.holders = owners[fresh].astype(np.int32)
        """The texts holding run r are holders[starts[r]:starts[r + 1]]."""
        self.starts = _offsets(run_ids[fresh], len(self.runs))
        self.held = np.diff(self.starts)
        """How many texts hold each run."""

    def hits(self, term: str) -> np.ndarray:
        """The texts that contain `term`: ascending indices, or a mask over all texts."""
        if len(term) > self.longest_text:
            return _NONE
        runs = _RUNS.findall(term)
        if len(runs) == 1:
            return self._single(term)
        return self._mixed(term, runs)

    def _single(self, term: str) -> np.ndarray:
        """`hits` for a term of one kind of character."""
        if len(term) > 3:
            return self._holding(self._runs_containing(term))
        packed = self.common.get(term)
        if packed is not None:
            return np.unpackbits(packed, count=self.size).view(bool)
        runs = self.pieces.holding(term)
        hits = self._holding(runs)
        if len(runs) > 1 and hits.dtype == bool and np.count_nonzero(hits) >= self.dense:
            self.common[term] = np.packbits(hits)
        return hits

    def _runs_containing(self, term: str) -> np.ndarray:
        """The runs containing `term` (longer than 3): those on its 3-character pieces' lists, checked with `in`."""
        runs = self.runs
        found = self._narrowed(term, None)
        return np.array([r for r in found.tolist() if term in runs[r]], dtype=np.int32)

    def _narrowed(self, part: str, runs: np.ndarray | None) -> np.ndarray:
        """Of `runs` (ascending; None: all runs), those on the lists of `part`'s 3-character pieces.

        The lists are crossed shortest first, and only until the runs are few: checking a run with
        `in` then costs less than crossing another list.
        """
        if runs is not None and len(runs) <= _FEW:
            return runs
        lists = iter(self.pieces.triples(part))
        if runs is None:
            runs = next(lists)
        for listed in lists:
            if len(runs) <= _FEW:
                break
            runs = _both(runs, listed, len(self.runs))
        return runs

    def words_hits(self, words: list[str]) -> tuple[list[np.ndarray], list[int], np.ndarray, np.ndarray]:
        """`hits` of each of `words` (terms of one kind of character, longer than 3), the words found
        together (`containing`); and which words are alone, and, for the others, the texts holding
        any of them (ascending) and how many of them each holds.

        A word many texts hold (a run of it has a bit set, or it has `_ALONE_FROM` texts or more)
        is alone: its mask costs the catalogue's size anyway, one word at a time or not, and it is
        added on its own. The others' texts are read together: the (text, word) pairs sorted once,
        each pair once (a word may be in several runs of a text), counted text by text (added in
        one go) and, put in word order by a stable sort of their words, cut word by word.
        """
        word, runs = self.containing(words)
        held = self.held[runs]
        many = np.bincount(word, weights=held, minlength=len(words)) >= _ALONE_FROM
        many[word[self.row[runs] >= 0]] = True
        found = [_NONE] * len(words)
        alone = many.nonzero()[0].tolist()
        for w in alone:
            found[w] = self._holding(runs[word == w])
        few = ~many[word]
        if not few.any():
            return found, alone, _NONE, _NONE
        word, runs, held = word[few], runs[few], held[few]
        n_words = len(words)
        texts = _slices(self.holders, self.starts[runs], held)
        pairs = _distinct(texts.astype(np.int64) * n_words + np.repeat(word, held))  # by text, then word
        texts = pairs // n_words
        owners = pairs - texts * n_words
        firsts, counts = _groups(texts)
        by_word = texts[np.argsort(owners.astype(np.uint16 if n_words <= 2**16 else np.int64), kind="stable")]
        ends = np.cumsum(np.bincount(owners, minlength=n_words)).tolist()
        for w, (start, stop) in enumerate(zip([0, *ends], ends)):
            if stop > start:
                found[w] = by_word[start:stop].astype(np.int32)
        return found, alone, texts[firsts], counts

    def containing(self, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The runs containing each of `words` (each of one kind of character, longer than 3), found
        together: (word number, run) pairs, word by word, runs ascending.

        As `_runs_containing` does for one word: a word's runs are on all its 3-character pieces'
        lists, so its shortest list is crossed with the next shortest while more than a few runs are
        left, and the runs left are checked with `in`. Each step is taken for all the words at once:
        one look-up of all their pieces (`_Pieces.lists`), one cross of all the lists crossed at that
        step (keyed by word and run), one pass of checks.
        """
        if not len(self.pieces.inside[2].keys):  # no run of 3 characters or more
            return _NONE, _NONE
        starts, sizes, more = self.pieces.lists(words)
        heads = np.cumsum(more) - more  # where each word's pieces begin: its shortest list first
        listed = self.pieces.inside[2].runs
        # the candidates: (word, run) pairs, from each word's shortest list
        which = np.repeat(np.arange(len(words)), sizes[heads])
        runs = _slices(listed, starts[heads], sizes[heads])
        universe = len(self.runs)
        found = sizes[heads]  # how many candidates each word has
        for step in count(1):
            busy = (found > _FEW) & (more > step)  # many, and another list to cross them with
            if len(runs) < _CROSSED_FROM or found[busy].sum() < _CROSSED_FROM:
                break
            crossed = heads[busy] + step  # each busy word's next list
            allowed = np.repeat(busy.nonzero()[0], sizes[crossed]) * universe
            allowed += _slices(listed, starts[crossed], sizes[crossed])
            kept = _isin(which * universe + runs, allowed, len(words) * universe)
            kept |= ~busy[which]
            which, runs = which[kept], runs[kept]
            found = np.bincount(which, minlength=len(words))
        return self._checked(words, found, runs)

    def _checked(self, words: list[str], found: np.ndarray, runs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Of each word's candidate runs (`found[i]` of `runs` for word i, word after word), those that
        contain it, checked with `in`: (word number, run) pairs."""
        texts = self.runs
        ends = np.cumsum(found).tolist()
        candidates = runs.tolist()
        kept = [
            [r for r in candidates[start:end] if word in texts[r]] for word, start, end in zip(words, [0, *ends], ends)
        ]
        sizes = list(map(len, kept))
        which = np.repeat(np.arange(len(words)), sizes)
        return which, np.fromiter(chain.from_iterable(kept), dtype=np.int32, count=sum(sizes))

    def _mixed(self, term: str, term_runs: list[str]) -> np.ndarray:
        """`hits` for a term of several runs: its places in the sequence, as texts.

        Each run of the term narrows the places left, so a term of many runs whose places stay
        many ("a-a-a-…" over texts that repeat it) would cost its runs times those places: when
        that is more than the characters of the texts holding them, those texts are read with `in`.
        """
        first, *inner, last = term_runs
        inner_ids = [self.ids.get(run, -1) for run in inner]
        if -1 in inner_ids:
            return _NONE
        ending, beginning = self._ending(first), self._beginning(last)
        parts: list[int | np.ndarray] = [ending, *inner_ids, beginning]  # what each run of the term may be in the text
        # how many places each part has (the inner runs' counts in one look-up)
        sizes = [self._occurrences(ending), *self.occurs[inner_ids].tolist(), self._occurrences(beginning)]
        order = sorted(range(len(parts)), key=sizes.__getitem__)  # the rarest part first
        if not sizes[order[0]]:
            return _NONE
        starts = self._places(parts[order[0]]) - order[0]  # where the term would begin
        checks = len(order) - 1  # the runs to check at each place
        if checks >= _READ_RUNS and len(starts) * checks > _READ_FROM:
            candidates = _distinct(self.text_of[starts + order[0]])  # the texts of the rarest part's places
            texts = self.texts
            if sum(map(len, map(texts.__getitem__, candidates.tolist()))) < len(starts) * checks:
                return np.array([t for t in candidates.tolist() if term in texts[t]], dtype=np.int32)
        for offset in order[1:]:
            neighbours = self.sequence.take(starts + offset, mode="clip")  # past either end: a separator
            starts = starts[_isin(neighbours, parts[offset], self.separator + 1)]
            if not len(starts):
                return _NONE
        texts = self.text_of[starts]
        if len(texts) >= self.masked_from:
            mask = np.zeros(self.size, dtype=bool)
            mask[texts] = True
            return mask
        return _distinct(texts)

    def _occurrences(self, part: int | np.ndarray) -> int:
        """How many places the run (or runs) `part` has in the sequence."""
        return int(self.occurs[part].sum())

    def _places(self, part: int | np.ndarray) -> np.ndarray:
        """The places of the run (or runs) `part` in the sequence."""
        if isinstance(part, int):
            return self.places[self.at[part] : self.at[part + 1]]
        return _gather(self.places, self.at, part)

    def _ending(self, part: str) -> np.ndarray:
        """The runs ending with `part` (ascending)."""
        return self._confirmed(part, self.pieces.ending(part), str.endswith)

    def _beginning(self, part: str) -> np.ndarray:
        """The runs beginning with `part` (ascending)."""
        return self._confirmed(part, self.pieces.beginning(part), str.startswith)

    def _confirmed(self, part: str, runs: np.ndarray, test: Callable[[str, str], bool]) -> np.ndarray:
        """`runs` (found by `part`'s last or first pieces) that pass `test(run, part)`: exact
        already for a part of up to 3 characters, else narrowed by its pieces and checked."""
        if len(part) <= 3:
            return runs
        all_runs = self.runs
        found = self._narrowed(part, runs)
        return np.array([r for r in found.tolist() if test(all_runs[r], part)], dtype=np.int32)

    def _pack_frequent(self) -> None:
        """A bit set of the texts holding each run that many texts hold (`packed_from` or more)."""
        frequent = np.flatnonzero(self.held >= self.packed_from)
        self.row = np.full(len(self.runs), -1, dtype=np.int64)
        """Each frequent run's row in `bits`; -1 for the others."""
        self.row[frequent] = np.arange(len(frequent))
        self.bits = np.zeros((len(frequent), (self.size + 7) // 8), dtype=np.uint8)
        step = max(1, 2**24 // max(1, self.size))  # runs marked at a time: a mask of at most 16 MB
        for first in range(0, len(frequent), step):
            runs = frequent[first : first + step]
            marks = np.zeros((len(runs), self.size), dtype=bool)
            marks[np.repeat(np.arange(len(runs)), self.held[runs]), _gather(self.holders, self.starts, runs)] = True
            self.bits[first : first + len(runs)] = np.packbits(marks, axis=1)

    def _holding(self, runs: np.ndarray) -> np.ndarray:
        """The texts holding any of `runs`: ascending indices, or a mask when they are many.

        Runs with a bit set are OR-ed, the others' lists marked in the mask. A few runs are taken
        one by one (a NumPy call costs about a microsecond however small its arrays), many with
        array operations over all of them at once.
        """
        if len(runs) > _FEW:
            return self._holding_many(runs)
        rows = self.row[runs].tolist()
        packed = [row for row in rows if row >= 0]
        listed = [run for run, row in zip(runs.tolist(), rows) if row < 0]
        if packed:
            mask = self._unpacked(packed)
        elif len(listed) == 1:  # one run's list, as it is
            return self.holders[self.starts[listed[0]] : self.starts[listed[0] + 1]]
        elif listed:
            mask = np.zeros(self.size, dtype=bool)
        else:
            return _NONE
        for run in listed:
            mask[self.holders[self.starts[run] : self.starts[run + 1]]] = True
        return mask

    def _unpacked(self, rows: list[int] | np.ndarray) -> np.ndarray:
        """The texts in any of the bit sets `rows` (one or more), as a fresh mask."""
        packed = self.bits[rows[0]] if len(rows) == 1 else np.bitwise_or.reduce(self.bits[rows], axis=0)
        return np.unpackbits(packed, count=self.size).view(bool)

    def _holding_many(self, runs: np.ndarray) -> np.ndarray:
        """`_holding` for many runs: one OR of their bit sets, one mark of all the others' lists."""
        rows = self.row[runs]
        packed = rows >= 0
        if packed.any():
            mask = self._unpacked(rows[packed])
        else:
            mask = np.zeros(self.size, dtype=bool)
        mask[_gather(self.holders, self.starts, runs[~packed])] = True
        return mask


def _offsets(keys: np.ndarray, n: int) -> np.ndarray:
    """For keys sorted or not: offsets[k]:offsets[k + 1] is where key k's entries are once sorted."""
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=n), out=offsets[1:])
    return offsets


def _sort_by(keys: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """`keys` (0 to n - 1) sorted, and where each came from (stable): one sort of (key, index) as one number when it fits."""
    index_bits = max(1, len(keys).bit_length())
    if max(1, n.bit_length()) + index_bits > 63:
        order = np.argsort(keys, kind="stable")
        return keys[order], order
    packed = keys.astype(np.int64)  # a copy, then changed in place (each a number a run: no temporaries)
    packed <<= index_bits
    packed |= np.arange(len(keys))
    packed.sort()
    order = packed & ((1 << index_bits) - 1)
    packed >>= index_bits
    return packed, order


def _gather(values: np.ndarray, offsets: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """values[offsets[k]:offsets[k + 1]] for every k in `keys`, joined."""
    starts = offsets[keys]
    return _slices(values, starts, offsets[np.add(keys, 1)] - starts)


def _slices(values: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """values[start:start + length] for every start and length, joined.

    A few slices are copied as they are (`concatenate`); many, with one index array built for
    all of them (no Python loop over thousands of slices).
    """
    if len(starts) <= _FEW:
        pairs = zip(starts.tolist(), lengths.tolist())
        return np.concatenate([values[start : start + length] for start, length in pairs] or [values[:0]])
    total = int(lengths.sum())
    if total == len(starts) and lengths.max() == 1:  # one value each (clauses, ids: runs held once)
        return values[starts]
    # for each entry: its slice's start, minus where that slice begins in the result, plus its own place
    return values[np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(total)]


def _isin(values: np.ndarray, allowed: int | np.ndarray, universe: int) -> np.ndarray:
    """Which `values` (numbers below `universe`) are `allowed` (one number, or ascending numbers): a mask.

    Two ways, whichever costs less: a binary search of each value in `allowed`, or a table over
    the whole universe, marked where allowed, then read once per value. Measured, a search costs
    about 24 units per value (its steps jump around memory); a table 1 per 32 numbers of the
    universe (clearing it) and 4 per allowed number (marking it), plus 2 or 3 per value (left
    out of the comparison).
    """
    if isinstance(allowed, int):
        return values == allowed
    if len(allowed) == 1:
        return values == allowed[0]
    if universe // 32 + 4 * len(allowed) < 24 * len(values):
        table = np.zeros(universe, dtype=bool)
        table[allowed] = True
        return table[values]
    i = np.minimum(np.searchsorted(allowed, values), len(allowed) - 1)
    return allowed[i] == values


def _both(a: np.ndarray, b: np.ndarray, universe: int) -> np.ndarray:
    """The values in both ascending arrays (of numbers below `universe`)."""
    if len(a) > len(b):
        a, b = b, a
    if not len(a):
        return a
    return a[_isin(a, b, universe)]


def _add(totals: np.ndarray, added: np.ndarray, listed: list[np.ndarray]) -> None:
    """Adds what one term adds (`Added`) to `totals` if it is bytes; if texts, puts them in `listed`
    (added together later: `KeywordIndex._add_listed`)."""
    if added.dtype == np.uint8:
        totals += added
    else:
        listed.append(added)


def _score_type(terms: int) -> type[np.unsignedinteger[Any]] | type[np.int64]:
    """The narrowest type that holds the scores of `terms` cleaned terms (each adds at most 3)."""
    if 3 * terms <= 0xFF:
        return np.uint8
    return np.uint16 if 3 * terms <= 0xFFFF else np.int64


def _split_off_words(terms: list[str]) -> tuple[list[str], list[str]]:
    """The terms to look up together (words: one kind of character, longer than 3), and the others;
    no words unless there are `_BATCHED_FROM` of them."""
    if len(terms) < _BATCHED_FROM:
        return [], terms
    words = [term for term in terms if len(term) > 3 and _RUNS.fullmatch(term)]
    if len(words) < _BATCHED_FROM:
        return [], terms
    looked_up = set(words)
    return words, [term for term in terms if term not in looked_up]


Added = np.ndarray
"""What one term adds to every tool's score: bytes of 0 to 3 in catalogue order (`uint8`: a term
many texts hold), or the texts holding it, ascending (names 0 to n - 1 add 2, descriptions n to
2n - 1 add 1)."""


CACHE_BYTES = 16 * 2**20
"""What a `KeywordIndex` keeps, at most, of the terms it looked up lately (`_Known`): 16 MiB, some
1,600 common terms at 10,000 tools (a common term's scores take a byte a tool), 160 at 100,000."""


class _Known:
    """Terms looked up lately and what each added to the scores, up to `limit` bytes (the terms and their arrays).

    A model searching a catalogue sends the same words again and again ("order", "customer",
    "list"): looking each up once per index rather than once per query is what a search engine's
    query cache does. The index never changes, so what a term added stays true. When a new term
    would pass the limit, the terms kept longest are forgotten first. Looking up is a dict read
    (safe from any thread); keeping and forgetting hold a lock, so the byte count stays true.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        """Bytes kept: the terms, their arrays and their entries (`_bytes`)."""
        self._added: dict[str, Added] = {}
        self._lock = threading.Lock()

    def get(self, term: str) -> Added | None:
        return self._added.get(term)

    def put(self, term: str, added: Added) -> None:
        size = _bytes(term, added)
        if size > self.limit:
            return
        with self._lock:
            if term in self._added:  # another thread kept it first
                return
            while self.used + size > self.limit:
                oldest = next(iter(self._added))
                self.used -= _bytes(oldest, self._added.pop(oldest))
            self._added[term] = added
            self.used += size

    def __len__(self) -> int:
        return len(self._added)


def _bytes(term: str, added: Added) -> int:
    """The bytes one kept term holds: the term itself (a model may paste a long text as a term), the
    arrays of its `Added`, and a little for the dict's entry."""
    return 128 + sys.getsizeof(term) + added.nbytes


SHOWN_NAMES = 5
"""How many tool names a `KeywordIndex`'s repr lists."""


class KeywordIndex:
    """The catalogue, prepared once for many keyword searches (same results as `naive_search`)."""

    specs: tuple[ToolSpec, ...]
    """The tools as built (a tuple: appended tools would not be in the index)."""

    def __init__(self, specs: Sequence[ToolSpec], *, cache_bytes: int = CACHE_BYTES) -> None:
        self.specs = tuple(catalogue(specs, "KeywordIndex"))
        if not _a_count(cache_bytes):  # a number of bytes
            raise ConfigurationError(
                f"KeywordIndex: cache_bytes must be a whole number of bytes, 0 or more (0: no cache), "
                f"not {cut(repr(cache_bytes), 60)}. Fix: KeywordIndex(specs, cache_bytes={CACHE_BYTES})"
            )
        # one index over the names, then the descriptions: text i is tool i's name, text n + i its
        # description, so a term is looked up once for both (they share most of their words)
        try:  # str.lower: bytes, which have a lower() of their own, are refused here too
            names = list(map(str.lower, [s.name for s in self.specs]))
            texts = names + list(map(str.lower, [s.description or "" for s in self.specs]))
        except (AttributeError, TypeError):
            raise catalogue_misfit(self.specs, "KeywordIndex") or _text_misfit(self.specs, "KeywordIndex") from None
        self._texts = _Postings(texts)
        """The names, then the descriptions, prepared for lookups."""
        self._known = _Known(int(cache_bytes))  # a NumPy whole number is a number of bytes too
        """What each term looked up lately adds to the scores (`_Known`)."""

    def __len__(self) -> int:
        return len(self.specs)

    def __repr__(self) -> str:
        """What a notebook shows: how many tools and the first few names (never an address)."""
        names = [cut(spec.name, 40) for spec in self.specs[:SHOWN_NAMES]]
        more = f" and {len(self.specs) - SHOWN_NAMES} more" if len(self.specs) > SHOWN_NAMES else ""
        listed = f": {', '.join(names)}{more}" if names else ""
        return f"KeywordIndex({len(self.specs)} tool{'' if len(self.specs) == 1 else 's'}{listed})"

    def scores(self, terms: Iterable[str]) -> np.ndarray:
        """Every tool's score, in catalogue order (64-bit integers: safe to compute with)."""
        return self._totals(terms, "KeywordIndex.scores").astype(np.int64)

    def _totals(self, terms: Iterable[str], where: str) -> np.ndarray:
        """`scores`, in the narrowest type that holds them.

        A term adds at most 3, so up to 85 terms' scores fit in a byte (up to 21,845 in two): what
        each term adds (bytes of 0 to 3, or the tools it names and describes) is then added as it
        is, with no conversion (the fastest way). A term looked up lately adds what it added then
        (`_Known`); of the others, words (terms of letters and digits, or of neither, longer than
        3) are looked up together (`_Postings.words_hits`), the rest one by one (`_Postings.hits`).
        The terms that name and describe few tools (a list of texts, not bytes) are added together
        at the end (`_add_listed`): one scatter for all of them, not three array calls each.
        """
        cleaned = search_terms(terms, where)
        totals: np.ndarray = np.zeros(len(self.specs), dtype=_score_type(len(cleaned)))
        known = self._known
        new = []
        listed: list[np.ndarray] = []
        for term in cleaned:
            added = known.get(term)
            if added is None:
                new.append(term)
            elif added.dtype == np.uint8:
                totals += added
            else:
                listed.append(added)
        words, others = _split_off_words(new)
        if words:
            self._add_words(totals, words, listed)
        for term in others:
            added = self._added(self._texts.hits(term))
            known.put(term, added)
            _add(totals, added, listed)
        if listed:
            self._add_listed(totals, listed)
        return totals

    def _add_words(self, totals: np.ndarray, words: list[str], listed: list[np.ndarray]) -> None:
        """Adds the scores of words looked up together (`_Postings.words_hits`) to `totals`, and
        keeps what each adds: the words alone one by one (their texts, if listed, to `listed`), the
        others' counts in one go."""
        found, alone, texts, counts = self._texts.words_hits(words)
        for w in alone:
            found[w] = added = self._added(found[w])
            _add(totals, added, listed)
        for word, added in zip(words, found):
            self._known.put(word, added)
        if len(texts):
            n = len(self.specs)
            counts = counts.astype(totals.dtype)
            split = int(texts.searchsorted(n))  # ascending, each once: += is safe
            totals[texts[:split]] += 2 * counts[:split]  # a name holding a word counts twice
            totals[texts[split:] - n] += counts[split:]

    def _added(self, hits: np.ndarray) -> np.ndarray:
        """What a term with these hits (a mask over the texts, or ascending texts) adds to the
        scores (`Added`): a mask becomes each tool's bytes, ascending texts are kept as they are."""
        if hits.dtype != bool:
            return hits
        n = len(self.specs)
        flags = hits.view(np.uint8)
        added: np.ndarray = flags[:n] << 1  # a name hit counts twice
        added += flags[n:]
        return added

    def _add_listed(self, totals: np.ndarray, listed: list[np.ndarray]) -> None:
        """Adds what terms given as texts (`Added`: ascending, each once) add to `totals`: all their
        texts in one scatter (`np.add.at`, which adds a tool as often as it comes), a name 2, a
        description 1. Three array calls per term (a split, then two `+=` through an index) cost
        some 80,000 instructions each, at 10,000 tools, measured: this costs that once, plus about
        half as much per text."""
        n = len(self.specs)
        texts = listed[0] if len(listed) == 1 else np.concatenate(listed)
        described = texts >= n
        np.add.at(totals, np.where(described, texts - n, texts), 2 - described.view(np.uint8))

    def search(
        self, terms: Iterable[str], max_results: int = 5, min_score: float = 1, allowed: Collection[str] | None = None
    ) -> list[Match]:
        """The top tools, as `naive_search` ranks them; `allowed` limits the pool by name."""
        if type(max_results) is not int or max_results < 0:  # a NumPy whole number is taken as an int
            max_results = check_max_results(max_results, "KeywordIndex.search")
        if type(min_score) is not int:  # None or a text would fail deep inside, NaN keep nothing
            min_score = check_min_score(min_score, "KeywordIndex.search")
        allowed = check_allowed(allowed, "KeywordIndex.search")
        totals = self._totals(terms, "KeywordIndex.search")
        best: list[Match] = []
        level = int(totals.max(initial=0))  # score levels from the highest down, each found with one pass
        while level >= min_score and len(best) < max_results:
            tied = np.flatnonzero(totals == level)  # ties: catalogue order
            if allowed is None:  # only the first few become Python numbers (thousands may tie)
                tied = tied[: max_results - len(best)]
            for i in tied.tolist():
                if allowed is None or self.specs[i].name in allowed:
                    best.append(Match(self.specs[i].name, self.specs[i].description, level))
                    if len(best) == max_results:
                        break
            if level == 0:
                break
            level = int((totals * (totals < level)).max())  # the next level down (0 if none)
        return best


# --- the strategy: the search tool's spec and arguments --------------------------------------

SEARCH_TOOL_NAME = "tool_search_tool"
RETRY_TEXT = "{problem}. Call {tool} again with arguments like {example}."
"""Every argument mistake goes back to the model in this form, so it can search again."""


def argument_object(raw: str, tool: str, example: str) -> dict[str, Any]:
    """The arguments as a JSON object, or a `SearchArgumentError` saying what is wrong.

    Read as every tool's arguments are (`toolkit.tools.json_repair`): double-encoded by a gateway, with
    trailing commas, single quotes or in a Markdown fence, and within its limits of size and depth."""
    try:
        value = json_repair.loads(raw or "{}")
    except json_repair.TooLarge:
        if len(raw) > json_repair.MAX_CHARS:
            problem = f"Tool search arguments are too long to read ({len(raw):,} characters, at most {json_repair.MAX_CHARS:,})"
        else:
            problem = "Tool search arguments are nested too deeply to read"
        raise argument_problem(problem, tool, example) from None
    except ValueError:
        value = None
    if not isinstance(value, dict):
        shown = cut(raw, 200)
        problem = f"Failed to parse tool search arguments as a JSON object: {shown!r}"
        raise argument_problem(problem, tool, example)
    if raw.count(":") > len(value) and (twice := json_repair.key_twice(raw, value)) is not None:
        first, second = (cut(json.dumps(v, ensure_ascii=False), 60) for v in (twice.first, twice.second))
        problem = (
            f"Tool argument {twice.path!r} is given twice, {first} and then {second}: give it once, with every term"
        )
        raise argument_problem(problem, tool, example)  # every JSON reader keeps the last: the first terms lost
    return value


def argument_problem(problem: str, tool: str, example: str) -> SearchArgumentError:
    return RetryError(problem, tool, example)


class RetryError(SearchArgumentError):
    """A search argument mistake in the `RETRY_TEXT` form, its parts kept so that the text can
    name the tool as the model called it (`addressed`), when a wrapper renamed the search tool."""

    problem: str
    """What was wrong with the argument."""
    tool: str
    """The search tool's name, as the text gives it."""
    example: str
    """A valid call to copy."""

    def __init__(self, problem: str, tool: str, example: str) -> None:
        super().__init__(RETRY_TEXT.format(problem=problem, tool=tool, example=example))
        self.problem, self.tool, self.example = problem, tool, example

    def addressed(self, tool: str) -> str:
        """The text, naming `tool` as the one to call again."""
        return RETRY_TEXT.format(problem=self.problem, tool=tool, example=self.example)


@dataclass(frozen=True)
class KeywordSearch:
    """Search by terms (LangChain4j's `SimpleToolSearchStrategy`, same defaults and texts)."""

    max_results: int = 5
    min_score: int = 1
    name: str = SEARCH_TOOL_NAME
    description: str = "Finds available tools whose name or description contains given search terms"
    argument: str = "terms"
    argument_description: str = "A list of individual search terms (single words) used to find relevant tools"
    takes = "terms"  # a class attribute (a dataclass field needs an annotation); no ClassVar: pyright then
    # refused it for `SearchStrategy.takes`, a read-only property
    """The query is a list of terms (a vector search takes a text)."""

    def __post_init__(self) -> None:
        """Settings are checked when the strategy is made, not when the model first searches."""
        object.__setattr__(self, "max_results", check_max_results(self.max_results, "KeywordSearch"))
        object.__setattr__(self, "min_score", check_min_score(self.min_score, "KeywordSearch"))
        check_search_tool(self, "KeywordSearch")

    @property
    def example(self) -> str:
        """What the model sends to the search tool, as an example: a JSON object with a list of terms."""
        return json.dumps({self.argument: ["refund", "payment"]})

    @property
    def spec(self) -> ToolSpec:
        """The search tool offered to the model: its name, description and its one array-of-terms parameter."""
        terms = {"type": "array", "items": {"type": "string"}, "description": self.argument_description}
        return ToolSpec(
            self.name,
            self.description,
            {"type": "object", "properties": {self.argument: terms}, "required": [self.argument]},
        )

    def parse(self, raw: str) -> list[str]:
        """The terms from the model's raw arguments; blanks dropped; mistakes raise."""
        value = argument_object(raw, self.name, self.example).get(self.argument)
        if value is None:
            raise argument_problem(f"Missing required tool argument '{self.argument}'", self.name, self.example)
        if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
            raise argument_problem(
                f"Tool argument '{self.argument}' must be an array of strings", self.name, self.example
            )
        if not clean_terms(value):
            raise argument_problem(
                f"Tool argument '{self.argument}' must contain at least one non-blank search term",
                self.name,
                self.example,
            )
        return value

    def index(self, specs: Sequence[ToolSpec]) -> KeywordIndex:
        """The catalogue `specs`, prepared once for many searches."""
        return KeywordIndex(specs)

    def search(self, index: KeywordIndex, terms: Sequence[str], allowed: Collection[str] | None = None) -> list[Match]:
        """The best tools for `terms`: at most `max_results`, each scoring at least `min_score`; `allowed` limits the pool by name."""
        check_index(index, KeywordIndex, self)
        return index.search(terms, self.max_results, self.min_score, allowed)
