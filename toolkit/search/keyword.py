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
exactly the holders of the runs that contain it — and a catalogue has few distinct runs, because
it repeats its words. Pieces that a large share of the tools hold ("a", "the") keep a ready bit
set. A mixed term ("create task") is checked with `in` on the tools holding all its words.
Scores add up in a NumPy array; only the best score levels are read.

`KeywordSearch` is the strategy the search wrapper (`toolkit.search.tool`) uses: the search tool's
spec, how its arguments are checked, and the two settings.

Leaves out: stemming, synonyms, typo tolerance — a model searching for "parcel" does not find
a tool that only says "shipment" (that is what vector search is for).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
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


def _pieces(text: str, length: int) -> set[str]:
    return {text[i : i + length] for i in range(len(text) - length + 1)}


_RUNS = re.compile(r"[^\W_]+|[\W_]+")
"""A text cut into runs: letters and digits, or everything else (spaces, `_`, punctuation)."""

_WORD = re.compile(r"[^\W_]")
_NONE = np.zeros(0, dtype=np.int32)


class _Postings:
    """For one field (names or descriptions): its runs, which texts hold each, and which runs hold each piece.

    A term made of one kind of character (all letters and digits, or none) can only occur inside
    one run of that kind, so the texts containing it are exactly the texts holding a run that
    contains it. The runs are few (a catalogue repeats its words), so finding those runs is cheap:
    1-, 2- and 3-character pieces list the runs holding them; a longer term checks the runs on
    its rarest pieces' lists. A piece held by a large share of the texts ("a", "the") keeps its
    texts as a ready bit set. A mixed term ("create task", "(shopify)") is checked with `in` on
    the texts that contain every letters-and-digits run of it.
    """

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.size = len(texts)
        self.dense = max(64, self.size // 8)
        """From this many texts on, a hit list is a mask over all texts rather than a list."""
        per_text = list(map(set, map(_RUNS.findall, texts)))  # each run once per text
        flat = list(chain.from_iterable(per_text))
        ids = {run: i for i, run in enumerate(dict.fromkeys(flat))}
        run_ids = np.fromiter(map(ids.__getitem__, flat), dtype=np.int32, count=len(flat))
        text_ids = np.repeat(np.arange(self.size, dtype=np.int32), list(map(len, per_text)))
        order = np.argsort(run_ids, kind="stable")  # by run, texts ascending within a run
        self.holders = text_ids[order]
        """The texts holding run r are holders[starts[r]:starts[r + 1]]."""
        self.starts = np.zeros(len(ids) + 1, dtype=np.int64)
        np.cumsum(np.bincount(run_ids, minlength=len(ids)), out=self.starts[1:])
        self.runs = list(ids)
        self.pieces: dict[str, list[int]] = defaultdict(list)
        """The runs holding each 1-, 2- and 3-character piece."""
        for r, run in enumerate(self.runs):
            for piece in _pieces(run, 1) | _pieces(run, 2) | _pieces(run, 3):
                self.pieces[piece].append(r)
        self.common: dict[str, np.ndarray] = {}
        """Packed masks of the texts holding each piece whose runs have many holders."""
        held = np.diff(self.starts)
        for piece, rs in self.pieces.items():
            if len(rs) > 1 and held[rs].sum() >= self.dense:
                self.common[piece] = np.packbits(self._holding(rs))

    def containing(self, term: str) -> np.ndarray:
        """Indices of the texts that contain `term` (exactly as `term in text` would say), ascending."""
        hits = self.hits(term)
        return np.flatnonzero(hits).astype(np.int32) if hits.dtype == bool else hits

    def hits(self, term: str) -> np.ndarray:
        """The texts that contain `term`: ascending indices, or a mask over all texts."""
        runs = _RUNS.findall(term)
        if len(runs) == 1:
            packed = self.common.get(term)
            if packed is not None:
                return np.unpackbits(packed, count=self.size).view(bool)
            return self._holding(self._runs_containing(term))
        words = sorted((self.containing(r) for r in set(runs) if _WORD.match(r)), key=len)
        candidates = words[0] if words else np.arange(self.size, dtype=np.int32)
        for other in words[1:]:
            candidates = np.intersect1d(candidates, other, assume_unique=True)
        texts = self.texts
        return np.array([i for i in candidates.tolist() if term in texts[i]], dtype=np.int32)

    def _runs_containing(self, term: str) -> list[int]:
        pieces = self.pieces
        if len(term) <= 3:
            return pieces.get(term, [])
        rarest = min((pieces.get(term[i : i + 3], []) for i in range(len(term) - 2)), key=len)
        runs = self.runs
        return [r for r in rarest if term in runs[r]]

    def _holding(self, runs: list[int]) -> np.ndarray:
        """The texts holding any of `runs`: ascending indices, or a mask when they are many."""
        if not runs:
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
