"""Lint warnings for a set of tool specs: what makes a model pick or fill a tool badly.

The usual advice ("write the description like documentation for a new colleague") turned
into five checks, each a short sentence naming the tool:

1. a tool without a description;
2. a parameter without a description;
3. a parameter name that says nothing (`arg0`, `param1`, `x`) — Java's lost-parameter-name
   pitfall, which in Python comes from lazy naming or a `Param(name=...)` typo;
4. a tool description too vague to choose by (fewer than 4 words, or 6 CJK characters);
5. two tools whose descriptions overlap so much the model cannot tell them apart.

Each description's words are read once; tools of the same words are one set, sets of one size
holding the same words other sets hold too are one kind (any two share just those words), and two
kinds are compared only when they share one of their rarer words (the prefix filter of similarity
joins), so a catalogue of alike tools (the same words, or the same but one of each tool's own)
costs no comparison per pair. The first `PAIRS_LISTED` overlaps are
listed, in pair order, and one more warning counts the rest.

Leaves out: judging whether a description is *true*; that needs the accuracy suite.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import chain
from typing import Any

from toolkit.errors import ConfigurationError
from toolkit.tools.reflect import ToolSpec

OVERLAP = 0.5
"""Share of description words two tools may have in common before a warning."""
PAIRS_LISTED = 10_000
"""Most overlap warnings listed; one more counts the rest (2,000 alike tools made two million)."""
_NAMELESS = re.compile(r"^(?:arg|param|p|a|x|var|val|value|input|data|obj|tmp)\d*$", re.I)
_WORD = re.compile(r"[A-Za-z0-9]+")
_CJK = re.compile(r"[\u3400-\u9fff]")
_STOP = {
    "a",
    "an",
    "the",
    "of",
    "to",
    "for",
    "and",
    "or",
    "by",
    "in",
    "on",
    "with",
    "is",
    "it",
    "this",
    "that",
    "from",
    "as",
    "be",
    "at",
    "its",
    "use",
    "when",
}


@dataclass(frozen=True)
class LintWarning:
    """One thing to improve in a tool's spec."""

    tool: str
    """The tool it is about (both names for an overlap)."""
    message: str
    """What is wrong and what to do, in one sentence."""


def lint_tools(specs: Iterable[Any]) -> list[LintWarning]:
    """Every warning for `specs`, tool by tool, overlaps last. A spec may also be given in its
    OpenAI form (`{"type": "function", "function": {...}}`) or as a `Tool` (its `spec`)."""
    checked = [_spec(spec) for spec in specs]
    out = [w for spec in checked for w in _lint_one(spec)]
    return out + _overlaps(checked)


def _overlaps(specs: list[ToolSpec]) -> list[LintWarning]:
    """The overlap warnings, in the order of the pairs (first tool, then second): tools of the same words are
    one set; sets of the same size holding the same words that other sets hold too are one kind (`_Kinds`:
    any two of them share just those words, so one share stands for every pair), and kinds are compared only
    where they share a rare word (`_alike_groups`); the first `PAIRS_LISTED` pairs listed, then one warning
    counting the rest."""
    sets: dict[frozenset[str], list[int]] = {}
    for i, spec in enumerate(specs):
        sets.setdefault(frozenset(words(spec.description)), []).append(i)
    kinds = _Kinds(list(sets), list(sets.values()))
    listed: list[LintWarning] = []
    for i in range(len(specs)) if kinds.links else ():
        for j, share in kinds.near(i, PAIRS_LISTED - len(listed)):
            a, b = specs[i].name, specs[j].name
            message = f"the descriptions of {a} and {b} share {share:.0%} of their words; say when to use each"
            listed.append(LintWarning(f"{a}, {b}", message))
        if len(listed) == PAIRS_LISTED:
            break
    pairs = kinds.pairs()
    more = f"… and {pairs - len(listed):,} more pairs of tools whose descriptions share {OVERLAP:.0%} of their words"
    return listed + ([LintWarning("", f"{more} or more; say when to use each")] if pairs > len(listed) else [])


class _Kinds:
    """Word sets (each with its tools, in order) in kinds: the same size and the same words held by other sets
    too. Two sets of one kind share exactly those words, and a set of one kind shares with a set of another
    what their kinds share: so the share of any two tools is a share of kinds (one `_jaccard` a kind, and one
    a pair of kinds the prefix filter finds), and 2,000 tools alike but for a word of their own are one kind."""

    def __init__(self, sets: list[frozenset[str]], tools: list[list[int]]) -> None:
        held = _holding(sets)
        by_key: dict[tuple[frozenset[str], int], list[int]] = {}
        for g, s in enumerate(sets):
            by_key.setdefault((frozenset(w for w in s if held[w] > 1), len(s)), []).append(g)
        kinds = list(by_key.values())
        self.members = tools
        self.set_of = {i: g for g, members in enumerate(tools) for i in members}
        self.kind_of = {i: k for k, groups in enumerate(kinds) for g in groups for i in tools[g]}
        self.tools = [sorted(i for g in groups for i in tools[g]) for groups in kinds]
        self.sizes = [[len(tools[g]) for g in groups] for groups in kinds]
        self.whole = [bool(sets[groups[0]]) for groups in kinds]  # two tools of one set share 100% of its words
        self.inner = [_jaccard(sets[groups[0]], sets[groups[1]]) if len(groups) > 1 else 0.0 for groups in kinds]
        self.links = _alike_groups([sets[groups[0]] for groups in kinds])
        for k, linked in self.links.items():
            linked.pop(k, None)
            if self.inner[k] >= OVERLAP or self.whole[k]:
                linked[k] = 1.0  # a mark: tools of this kind may overlap one another (`near`)

    def near(self, i: int, most: int) -> list[tuple[int, float]]:
        """The first `most` tools after `i` that share `OVERLAP` of its words, in order, and the share."""
        k, g = self.kind_of[i], self.set_of[i]
        found = []
        for h, share in self.links.get(k, {}).items():
            tools = self.tools[h] if h != k or self.inner[k] >= OVERLAP else self.members[g]  # its own set's alone
            share = share if h != k else self.inner[k]
            found += [(j, 1.0 if self.set_of[j] == g else share) for j in tools[bisect.bisect_right(tools, i) :]]
        return sorted(found)[:most]

    def pairs(self) -> int:
        """How many pairs of tools share `OVERLAP` of their words."""
        count = sum(len(self.tools[k]) * len(self.tools[h]) for k in self.links for h in self.links[k] if k < h)
        for k, sizes in enumerate(self.sizes):
            same_set = sum(n * (n - 1) // 2 for n in sizes) if self.whole[k] else 0
            across = (len(self.tools[k]) ** 2 - sum(n * n for n in sizes)) // 2 if self.inner[k] >= OVERLAP else 0
            count += same_set + across
        return count


def _holding(sets: list[frozenset[str]]) -> Counter[str]:
    """How many of `sets` hold each word."""
    return Counter(chain.from_iterable(sets))


def _alike_groups(sets: list[frozenset[str]]) -> dict[int, dict[int, float]]:
    """For each word set, the others (and itself, when not empty) it shares `OVERLAP` of its words with, and
    the share. Two sets that do share a word among the first `len - ceil(OVERLAP * len) + 1` of each, read
    rarest first (the prefix filter of similarity joins), so only such sets are compared."""
    seen = _holding(sets)
    shares: dict[int, dict[int, float]] = {g: {g: 1.0} for g, s in enumerate(sets) if s}
    by_word: dict[str, list[int]] = {}
    for g, s in enumerate(sets):
        rare = sorted(s, key=lambda word: (seen[word], word))[: len(s) - math.ceil(OVERLAP * len(s) - 1e-9) + 1]
        for h in sorted({h for word in rare for h in by_word.get(word, [])}):
            share = _jaccard(sets[h], s)
            if share >= OVERLAP:
                shares[g][h] = shares[h][g] = share
        for word in rare:
            by_word.setdefault(word, []).append(g)
    return shares


def _lint_one(spec: ToolSpec) -> list[LintWarning]:
    out = []
    if not spec.description.strip():
        out.append(LintWarning(spec.name, f"{spec.name} has no description; the model has only its name to go on"))
    elif _vague(spec.description):
        out.append(
            LintWarning(
                spec.name,
                f"{spec.name}: the description {spec.description!r} is "
                "too vague; say what it does, when to use it, and what "
                "it returns",
            )
        )
    for name, prop in _properties(spec.parameters):
        if _NAMELESS.match(name):
            out.append(
                LintWarning(
                    spec.name,
                    f"{spec.name}.{name}: the name {name!r} says nothing about the value; name it for what it holds",
                )
            )
        if not prop.get("description"):
            out.append(
                LintWarning(spec.name, f"{spec.name}.{name} has no description; say what it is and in which format")
            )
    return out


def _spec(value: Any) -> ToolSpec:
    """A `ToolSpec` from what `lint_tools` takes; anything else is a developer error."""
    if isinstance(value, ToolSpec):
        return value
    if isinstance(getattr(value, "spec", None), ToolSpec):  # a Tool
        return value.spec
    if isinstance(value, dict):
        return ToolSpec.from_openai(value)
    raise ConfigurationError(
        f"lint_tools: got {type(value).__name__}; give it ToolSpecs (tool.spec), Tools, or tools in their "
        'OpenAI form ({"type": "function", "function": {...}})'
    )


def _properties(parameters: Any) -> list[tuple[str, dict[str, Any]]]:
    """The top-level properties, each schema as a dict: a boolean schema (`true`: any value,
    `false`: none) holds no description, so it reads as an empty one."""
    properties = parameters.get("properties") if isinstance(parameters, dict) else None
    if not isinstance(properties, dict):
        return []
    return [(str(name), prop if isinstance(prop, dict) else {}) for name, prop in properties.items()]


def _vague(text: str) -> bool:
    return len(_CJK.findall(text)) < 6 and len(_WORD.findall(text)) < 4


def words(text: str) -> set[str]:
    """Content words of a description: lower-case Latin words (no stop words), CJK bigrams."""
    latin = {w.lower() for w in _WORD.findall(text)} - _STOP
    cjk = "".join(_CJK.findall(text))
    return latin | {cjk[i : i + 2] for i in range(len(cjk) - 1)}


def overlap(a: str, b: str) -> float:
    """Jaccard similarity of the content words of two descriptions (0 when either is empty)."""
    return _jaccard(words(a), words(b))


def _jaccard(wa: AbstractSet[str], wb: AbstractSet[str]) -> float:
    """`len(wa & wb) / len(wa | wb)` (0 when either is empty), without building the union."""
    if not wa or not wb:
        return 0.0
    common = len(wa & wb)
    return common / (len(wa) + len(wb) - common)
