"""Lint warnings for a set of tool specs: what makes a model pick or fill a tool badly.

The usual advice ("write the description like documentation for a new colleague") turned
into five checks, each a short sentence naming the tool:

1. a tool without a description;
2. a parameter without a description;
3. a parameter name that says nothing (`arg0`, `param1`, `x`) — Java's lost-parameter-name
   pitfall, which in Python comes from lazy naming or a `Param(name=...)` typo;
4. a tool description too vague to choose by (fewer than 4 words, or 6 CJK characters);
5. two tools whose descriptions overlap so much the model cannot tell them apart.

Each description's words are read once, so comparing every pair of tools costs one set
intersection per pair.

Leaves out: judging whether a description is *true*; that needs the accuracy suite.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from toolkit.errors import ConfigurationError
from toolkit.tools.reflect import ToolSpec

OVERLAP = 0.5
"""Share of description words two tools may have in common before a warning."""
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
    described = [(spec, words(spec.description)) for spec in checked]  # once per tool, not once per pair
    for (a, wa), (b, wb) in combinations(described, 2):
        share = _jaccard(wa, wb)
        if share >= OVERLAP:
            out.append(
                LintWarning(
                    f"{a.name}, {b.name}",
                    f"the descriptions of {a.name} and {b.name} share {share:.0%} of their words; say when to use each",
                )
            )
    return out


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


def _jaccard(wa: set[str], wb: set[str]) -> float:
    """`len(wa & wb) / len(wa | wb)` (0 when either is empty), without building the union."""
    if not wa or not wb:
        return 0.0
    common = len(wa & wb)
    return common / (len(wa) + len(wb) - common)
