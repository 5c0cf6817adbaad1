"""Keyword tool search with LangChain4j's rules, and an index that keeps them fast at 10,000 tools.

The rules (`SimpleToolSearchStrategy`): the model sends a list of terms; each term is trimmed,
lower-cased and de-duplicated, blanks dropped. For every tool and every term:

    the lower-cased name contains the term          +2
    the lower-cased description contains the term   +1

Tools scoring at least `min_score` (1) are ranked by score, highest first, ties in catalogue
order, and the first `max_results` (5) are returned. `naive_search` is that rule written out
literally: the reference the index is tested against.

`KeywordIndex` gives the same answer without reading every tool. It lists, for each 1-, 2- and
3-character piece of text, the tools whose name (or description) contains it. A term of up to
three characters *is* such a piece: its list is the exact answer. A longer term can only occur
where all of its 3-character pieces occur, so the tools on every one of those lists are the
candidates; a plain `term in text` check on the rarest piece's list decides. Scores add up in
a NumPy array, and only the tools that scored are sorted.

`KeywordSearch` is the strategy the search wrapper (`toolkit.search.tool`) uses: the search tool's
spec, how its arguments are checked, and the two settings.

Leaves out: stemming, synonyms, typo tolerance — a model searching for "parcel" does not find
a tool that only says "shipment" (that is what vector search is for).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
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
    cleaned = (t.strip(_JAVA_TRIM).lower() for t in terms)
    return list(dict.fromkeys(t for t in cleaned if t))


def score(spec: ToolSpec, terms: Sequence[str]) -> int:
    """LangChain4j's score of one tool for already-cleaned terms."""
    name, description = spec.name.lower(), (spec.description or "").lower()
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


_NONE = np.zeros(0, dtype=np.int32)


class _Postings:
    """For one field (names or descriptions): the lower-cased texts and which tools hold each piece."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        lists: dict[str, list[int]] = defaultdict(list)
        for i, text in enumerate(texts):
            for piece in _pieces(text, 1) | _pieces(text, 2) | _pieces(text, 3):
                lists[piece].append(i)
        self.lists = {piece: np.array(ids, dtype=np.int32) for piece, ids in lists.items()}

    def containing(self, term: str) -> np.ndarray:
        """Indices of the texts that contain `term` (exactly as `term in text` would say)."""
        if len(term) <= 3:
            return self.lists.get(term, _NONE)
        rarest = min((self.lists.get(p, _NONE) for p in _pieces(term, 3)), key=len)
        texts = self.texts
        return np.array([i for i in rarest.tolist() if term in texts[i]], dtype=np.int32)


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
            totals[self.names.containing(term)] += 2  # each index once: += is safe
            totals[self.descriptions.containing(term)] += 1
        return totals

    def search(
        self, terms: Iterable[str], max_results: int = 5, min_score: int = 1, allowed: Collection[str] | None = None
    ) -> list[Match]:
        """The top tools, as `naive_search` ranks them; `allowed` limits the pool by name."""
        totals = self.scores(terms)
        candidates = np.flatnonzero(totals >= min_score)
        ranked = candidates[np.argsort(-totals[candidates], kind="stable")]  # ties: catalogue order
        best = []
        for i in ranked.tolist():
            if len(best) == max_results:
                break
            if allowed is None or self.specs[i].name in allowed:
                best.append(Match(self.specs[i].name, self.specs[i].description, int(totals[i])))
        return best


# --- the strategy: the search tool's spec and arguments --------------------------------------

SEARCH_TOOL_NAME = "tool_search_tool"
RETRY_TEXT = "{problem}. Call {tool} again with arguments like {example}."
"""Every argument mistake goes back to the model in this form, so it can search again."""


def argument_object(raw: str, tool: str, example: str) -> dict[str, Any]:
    """The arguments as a JSON object, or a `SearchArgumentError` saying what is wrong."""
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        value = None
    if not isinstance(value, dict):
        shown = raw if len(raw) <= 200 else raw[:199] + "…"
        problem = f"Failed to parse tool search arguments as a JSON object: {shown!r}"
        raise SearchArgumentError(RETRY_TEXT.format(problem=problem, tool=tool, example=example))
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
