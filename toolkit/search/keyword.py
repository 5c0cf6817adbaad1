"""Keyword tool search with LangChain4j's rules, and an index that keeps them fast at 10,000 tools.

The rules (`SimpleToolSearchStrategy`): the model sends a list of terms; each term is trimmed,
lower-cased and de-duplicated, blanks dropped. For every tool and every term:

    the lower-cased name contains the term          +2
    the lower-cased description contains the term   +1

Tools scoring at least `min_score` (1) are ranked by score, highest first, ties in catalogue
order, and the first `max_results` (5) are returned. `naive_search` is that rule written out
literally: the reference the index is tested against.

`KeywordIndex` gives the same answer without reading every tool. It cuts each text into runs
(letters and digits, or everything else) and lists which tools hold each run. A term made of
one kind of character can only occur inside a run of that kind, so the tools containing it are
exactly the holders of the runs that contain it; the runs holding each 1-, 2- and 3-character
piece are listed once, with array operations over all runs at a time (a catalogue may have
hundreds of thousands of distinct runs: ids, version numbers, Chinese written without spaces).
Pieces that a large share of the tools hold ("a", "the") keep a bit set once asked for. A mixed
term ("e.g.", "create task") is checked with `in` on the tools whose runs can line up with it.
Scores add up in a NumPy array; only the best score levels are read.

`KeywordSearch` is the strategy the search wrapper (`toolkit.search.tool`) uses: the search tool's
spec, how its arguments are checked, and the two settings.

Leaves out: stemming, synonyms, typo tolerance — a model searching for "parcel" does not find
a tool that only says "shipment" (that is what vector search is for).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, ClassVar

import numpy as np

from toolkit.errors import SearchArgumentError
from toolkit.tools.reflect import ToolSpec

_JAVA_TRIM = "".join(chr(c) for c in range(33))
"""What Java's `String.trim()` removes: every character up to and including the space."""


@dataclass(frozen=True)
class Match:
    """One tool a search found."""

    name: str
    description: str
    score: float
    """Keyword: 2 per name hit + 1 per description hit. Vector: cosine similarity."""


def clean_terms(terms: Iterable[str]) -> list[str]:
    """Trimmed, lower-cased, non-blank, each once, in the model's order (LangChain4j's `clean`)."""
    cleaned = [t.strip(_JAVA_TRIM).lower() for t in terms]
    return list(dict.fromkeys([t for t in cleaned if t]))


def score(spec: ToolSpec, terms: Sequence[str]) -> int:
    """LangChain4j's score of one tool for already-cleaned terms."""
    return score_text(spec.name, spec.description, terms)


def score_text(name: str, description: str | None, terms: Sequence[str]) -> int:
    """`score` of a name and description not (yet) in a `ToolSpec`: 2 per term in the name, 1 per
    term in the description, case-insensitive."""
    name, description = name.lower(), (description or "").lower()
    return sum(2 * (t in name) + (t in description) for t in terms)


def naive_search(
    terms: Iterable[str], specs: Sequence[ToolSpec], max_results: int = 5, min_score: int = 1
) -> list[Match]:
    """The reference: score every tool, keep those >= min_score, stable sort, cut."""
    cleaned = clean_terms(terms)
    scored = [(spec, score(spec, cleaned)) for spec in specs]
    kept = sorted((pair for pair in scored if pair[1] >= min_score), key=lambda pair: -pair[1])
    return [Match(s.name, s.description, n) for s, n in kept[:max_results]]


_RUNS = re.compile(r"[^\W_]+|[\W_]+")
"""A text cut into runs: letters and digits, or everything else (spaces, `_`, punctuation)."""

_NONE = np.zeros(0, dtype=np.int32)


def _distinct(values: np.ndarray) -> np.ndarray:
    """The values sorted, each once (`np.unique` without its slower hashing)."""
    values = np.sort(values)
    first = np.ones(len(values), dtype=bool)
    first[1:] = values[1:] != values[:-1]
    return values[first]


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
        i = int(np.searchsorted(self.keys, key))
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
        joined = np.frombuffer("".join(runs).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        alphabet = _distinct(joined)
        self.rank = {chr(c): i for i, c in enumerate(alphabet.tolist())}
        self.bits = max(1, len(alphabet).bit_length())
        """Bits per character in a piece's code."""
        chars = np.searchsorted(alphabet, joined).astype(np.int64)
        lengths = np.fromiter(map(len, runs), dtype=np.int64, count=len(runs))
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

    def rarest(self, term: str) -> np.ndarray:
        """The runs holding the rarest 3-character piece of `term` (longer than 3): a superset of
        the runs containing `term`."""
        table = self.inside[2]
        return min((table.get(self.code(term[i : i + 3])) for i in range(len(term) - 2)), key=len)

    def beginning(self, start: str) -> np.ndarray:
        """The runs beginning with `start` (1 to 3 characters; more: a superset)."""
        return self.begin[min(3, len(start)) - 1].get(self.code(start[:3]))

    def ending(self, end: str) -> np.ndarray:
        """The runs ending with `end` (1 to 3 characters; more: a superset)."""
        return self.end[min(3, len(end)) - 1].get(self.code(end[-3:]))


class _Postings:
    """For one field (names or descriptions): its runs, which texts hold each, and which runs hold each piece.

    A term made of one kind of character (all letters and digits, or none) can only occur inside
    one run of that kind, so the texts containing it are exactly the texts holding a run that
    contains it. Distinct runs are far fewer than texts' characters, so finding those runs is
    cheap: 1-, 2- and 3-character pieces list the runs holding them (`_Pieces`); a longer term
    checks the runs on its rarest piece's list. A piece held by a large share of the texts ("a",
    "the") keeps its texts as a bit set once asked for.

    A mixed term ("e.g.", "(jira", "create task") is cut into runs the same way. Where it occurs,
    its inner runs are whole runs of the text, its first run ends a run of the text and its last
    run starts one. The texts meeting all three are checked with `in`.
    """

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.size = len(texts)
        self.dense = max(64, self.size // 8)
        """From this many texts on, a hit list is a mask over all texts rather than a list."""
        per_text = list(map(set, map(_RUNS.findall, texts)))  # each run once per text
        flat = list(chain.from_iterable(per_text))
        self.ids = {run: i for i, run in enumerate(dict.fromkeys(flat))}
        run_ids = np.fromiter(map(self.ids.__getitem__, flat), dtype=np.int32, count=len(flat))
        text_ids = np.repeat(np.arange(self.size, dtype=np.int32), list(map(len, per_text)))
        order = np.argsort(run_ids, kind="stable")  # by run, texts ascending within a run
        self.holders = text_ids[order]
        """The texts holding run r are holders[starts[r]:starts[r + 1]]."""
        self.starts = np.zeros(len(self.ids) + 1, dtype=np.int64)
        np.cumsum(np.bincount(run_ids, minlength=len(self.ids)), out=self.starts[1:])
        self.held = np.diff(self.starts)
        """How many texts hold each run."""
        self.runs = list(self.ids)
        self.pieces = _Pieces(self.runs)
        self.common: dict[str, np.ndarray] = {}
        """Packed masks of the texts holding a short piece whose runs have many holders (filled on first use)."""

    def hits(self, term: str) -> np.ndarray:
        """The texts that contain `term`: ascending indices, or a mask over all texts."""
        runs = _RUNS.findall(term)
        if len(runs) == 1:
            return self._single(term)
        first, *inner, last = runs
        all_runs = self.runs
        found = [self._holding([r]) if r is not None else _NONE for r in map(self.ids.get, inner)]
        ends, begins = self.pieces.ending(first), self.pieces.beginning(last)
        if len(first) > 3:  # the lists hold the runs ending with its last 3 characters
            ends = np.array([r for r in ends.tolist() if all_runs[r].endswith(first)], dtype=np.int32)
        if len(last) > 3:
            begins = np.array([r for r in begins.tolist() if all_runs[r].startswith(last)], dtype=np.int32)
        found += [self._holding(ends), self._holding(begins)]
        lists = [hits for hits in found if hits.dtype != bool]
        candidates = min(lists, key=len) if lists else np.arange(self.size, dtype=np.int32)
        for hits in found:
            if hits is not candidates and len(candidates):
                candidates = candidates[self._mask(hits)[candidates]]
        texts = self.texts
        return np.array([i for i in candidates.tolist() if term in texts[i]], dtype=np.int32)

    def _single(self, term: str) -> np.ndarray:
        """`hits` for a term of one kind of character."""
        if len(term) > 3:
            return self._holding(self._runs_containing(term))
        packed = self.common.get(term)
        if packed is not None:
            return np.unpackbits(packed, count=self.size).view(bool)
        runs = self.pieces.holding(term)
        hits = self._holding(runs)
        if len(runs) > 1 and self.held[runs].sum() >= self.dense:
            self.common[term] = np.packbits(hits)
        return hits

    def _runs_containing(self, term: str) -> np.ndarray:
        if len(term) <= 3:
            return self.pieces.holding(term)
        runs = self.runs
        return np.array([r for r in self.pieces.rarest(term).tolist() if term in runs[r]], dtype=np.int32)

    def _mask(self, hits: np.ndarray) -> np.ndarray:
        """A hit list as a mask over all texts."""
        if hits.dtype == bool:
            return hits
        mask = np.zeros(self.size, dtype=bool)
        mask[hits] = True
        return mask

    def _holding(self, runs: Sequence[int] | np.ndarray) -> np.ndarray:
        """The texts holding any of `runs`: ascending indices, or a mask when they are many."""
        if not len(runs):
            return _NONE
        if len(runs) == 1:
            return self.holders[self.starts[runs[0]] : self.starts[runs[0] + 1]]
        starts = self.starts[runs]
        lengths = self.starts[np.add(runs, 1)] - starts
        offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
        mask = np.zeros(self.size, dtype=bool)
        mask[self.holders[offsets]] = True
        return mask


class KeywordIndex:
    """The catalogue, prepared once for many keyword searches (same results as `naive_search`)."""

    def __init__(self, specs: Sequence[ToolSpec]) -> None:
        self.specs = list(specs)
        self.names = _Postings([s.name.lower() for s in self.specs])
        self.descriptions = _Postings([(s.description or "").lower() for s in self.specs])

    def __len__(self) -> int:
        return len(self.specs)

    def scores(self, terms: Iterable[str]) -> np.ndarray:
        """Every tool's score, in catalogue order."""
        totals = np.zeros(len(self.specs), dtype=np.int32)
        for term in clean_terms(terms):
            for field, weight in ((self.names, 2), (self.descriptions, 1)):
                hits = field.hits(term)
                if hits.dtype == bool:
                    np.add(totals, weight, out=totals, where=hits)
                else:
                    totals[hits] += weight  # each index once: += is safe
        return totals

    def search(
        self, terms: Iterable[str], max_results: int = 5, min_score: int = 1, allowed: Collection[str] | None = None
    ) -> list[Match]:
        """The top tools, as `naive_search` ranks them; `allowed` limits the pool by name."""
        totals = self.scores(terms)
        counts = np.bincount(totals)  # how many tools have each score
        best: list[Match] = []
        for level in np.flatnonzero(counts)[::-1].tolist():  # highest score first
            if level < min_score or len(best) == max_results:
                break
            for i in np.flatnonzero(totals == level).tolist():  # ties: catalogue order
                if allowed is None or self.specs[i].name in allowed:
                    best.append(Match(self.specs[i].name, self.specs[i].description, level))
                    if len(best) == max_results:
                        break
        return best


# --- the strategy: the search tool's spec and arguments --------------------------------------

SEARCH_TOOL_NAME = "tool_search_tool"
RETRY_TEXT = "{problem}. Call {tool} again with arguments like {example}."
"""Every argument mistake goes back to the model in this form, so it can search again."""


def argument_object(raw: str, tool: str, example: str) -> dict[str, Any]:
    """The arguments as a JSON object, or a `SearchArgumentError` saying what is wrong."""
    try:
        value = json.loads(raw or "{}")
    except RecursionError:
        raise argument_problem("Tool search arguments are nested too deeply to read", tool, example) from None
    except ValueError:
        value = None
    if not isinstance(value, dict):
        shown = raw if len(raw) <= 200 else raw[:199] + "…"
        problem = f"Failed to parse tool search arguments as a JSON object: {shown!r}"
        raise argument_problem(problem, tool, example)
    return value


def argument_problem(problem: str, tool: str, example: str) -> SearchArgumentError:
    return SearchArgumentError(RETRY_TEXT.format(problem=problem, tool=tool, example=example))


@dataclass(frozen=True)
class KeywordSearch:
    """Search by terms (LangChain4j's `SimpleToolSearchStrategy`, same defaults and texts)."""

    max_results: int = 5
    min_score: int = 1
    name: str = SEARCH_TOOL_NAME
    description: str = "Finds available tools whose name or description contains given search terms"
    argument: str = "terms"
    argument_description: str = "A list of search terms used to find relevant tools"
    takes: ClassVar[str] = "terms"
    """The query is a list of terms (a vector search takes a text)."""

    @property
    def example(self) -> str:
        return json.dumps({self.argument: ["refund", "payment"]})

    @property
    def spec(self) -> ToolSpec:
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
        return KeywordIndex(specs)

    def search(self, index: KeywordIndex, terms: Sequence[str], allowed: Collection[str] | None = None) -> list[Match]:
        return index.search(terms, self.max_results, self.min_score, allowed)
