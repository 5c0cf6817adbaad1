"""Tool schemas without the keywords a gateway refuses.

A relay that turns an OpenAI request into Gemini's native one (one-api and its forks) refuses a
tool schema holding `additionalProperties` with a 400: "Invalid JSON payload received. Unknown name
"additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find field."
(Laisky/one-api#60, chataize/generative-cs#1): Gemini's function declarations take an OpenAPI
subset without it. `ChatClient` then asks again without the keyword, and leaves it out of every
later request to that gateway (`refused_keyword`, `without_keywords`).

Only `DROPPABLE` keywords are ever left out: each only annotates a schema or forbids extra fields,
which the package checks itself (an unknown field is an argument error, whatever the schema said),
so the model is asked the same question. A keyword that shapes the arguments (`type`, `enum`, …) is
never dropped: such a refusal is raised as it came. Two of them are `REWRITTEN` in a form that says the
same, as pydantic-ai's Gemini schema transformer does: `const` (a `Literal` of one value: Gemini's
"Unknown name "const"", zed-industries/zed#44875) as an `enum` of that value, and `$ref` / `$defs`
(an enum, a model or a TypedDict parameter) with each definition written in place of its reference
(a definition that refers to itself stays as it was: it cannot be written out).

Leaves out: `strict` (a strict gateway needs `additionalProperties: false`; one that refuses the
keyword is not strict), and keywords inside a tool's `description`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

DROPPABLE = ("additionalProperties", "title", "$schema", "$comment", "examples")
"""Schema keywords whose absence leaves the question the same (see the module docstring)."""

_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions"})
"""Keys whose value maps names to schemas: a name there is a field or a definition, never a keyword."""

_DATA = frozenset({"enum", "const", "default", "examples"})
"""Keys whose value is data, not a schema: kept as it is, whatever keys it has."""


REWRITTEN = ("const", "$ref", "$defs")
"""Schema keywords said another way when refused: `const` as an `enum` of one value, `$ref` / `$defs`
with the definitions written in place (either refused rewrites both)."""
_INLINED = frozenset({"$ref", "$defs"})


def refused_keyword(error_text: str, tools: list[dict[str, Any]] | None) -> str | None:
    """The `DROPPABLE` or `REWRITTEN` keyword a gateway's error names as unknown, if the tools hold it
    (in a form the rewrite changes); else None."""
    if not tools:
        return None
    for keyword in DROPPABLE + REWRITTEN:
        if f'"{keyword}"' in error_text and _holds(tools, keyword):
            return keyword
    return None


def without_keywords(tools: list[dict[str, Any]], keywords: Iterable[str]) -> list[dict[str, Any]]:
    """A copy of `tools` whose parameter schemas hold none of `keywords` (the given list is not changed)."""
    dropped = frozenset(keywords)
    out = []
    for spec in tools:
        function = spec.get("function") if isinstance(spec, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("parameters"), dict):
            out.append(spec)
            continue
        parameters = function["parameters"]
        if not dropped.isdisjoint(_INLINED):
            parameters = inlined(parameters)
        lean = {**function, "parameters": _schema(parameters, dropped)}
        out.append({**spec, "function": lean})
    return out


def _schema(node: Any, dropped: frozenset[str]) -> Any:
    if isinstance(node, list):
        return [_schema(item, dropped) for item in node]
    if not isinstance(node, dict):
        return node
    kept: dict[str, Any] = {}
    for key, value in node.items():
        if key == "const" and "const" in dropped:
            kept.setdefault("enum", [value])  # an `enum` beside it holds the value already
            continue
        if key in dropped and key not in REWRITTEN:
            continue
        if key in _MAPS and isinstance(value, dict):
            kept[key] = {name: _schema(sub, dropped) for name, sub in value.items()}
        elif key in _DATA:
            kept[key] = value
        else:
            kept[key] = _schema(value, dropped)
    return kept


def _holds(tools: list[dict[str, Any]], keyword: str) -> bool:
    return without_keywords(tools, (keyword,)) != tools


def inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with each `{"$ref": "#/$defs/Name"}` (or `#/definitions/Name`) replaced by its definition
    (keys beside the reference kept, its own winning), and the definitions left out once none is referred
    to; a definition that refers to itself, directly or not, stays referred to."""
    defs = {**_mapping(schema.get("definitions")), **_mapping(schema.get("$defs"))}
    left: set[str] = set()
    budget = [INLINED_NODES]
    try:
        body = _resolved({k: v for k, v in schema.items() if k not in ("$defs", "definitions")}, defs, (), left, budget)
    except (_TooBig, RecursionError):  # definitions that each use the next twice, 30 deep: kept as they are
        return schema
    if left:  # a recursive definition: every definition kept, for the references left to find
        body.update({key: schema[key] for key in ("$defs", "definitions") if key in schema})
    return body


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


INLINED_NODES = 10_000
"""The most schema objects `inlined` writes: definitions that each refer to the next twice would
write 2**n of them; past this the schema is sent as it was (and its refusal raised as it came)."""


class _TooBig(Exception):
    """The inlined schema would pass `INLINED_NODES`."""


def _resolved(node: Any, defs: dict[str, Any], within: tuple[str, ...], left: set[str], budget: list[int]) -> Any:
    if isinstance(node, list):
        return [_resolved(item, defs, within, left, budget) for item in node]
    if not isinstance(node, dict):
        return node
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooBig
    ref = node.get("$ref")
    name = _local_name(ref) if isinstance(ref, str) else None
    if name is not None and name in defs and name not in within:
        beside = _resolved({k: v for k, v in node.items() if k != "$ref"}, defs, within, left, budget)
        target = _resolved(defs[name], defs, (*within, name), left, budget)
        return {**target, **beside} if isinstance(target, dict) else node
    if name is not None:
        left.add(name)
    return {key: value if key in _DATA else _resolved(value, defs, within, left, budget) for key, value in node.items()}


def _local_name(ref: str) -> str | None:
    for prefix in ("#/$defs/", "#/definitions/"):
        if ref.startswith(prefix) and "/" not in ref[len(prefix) :]:
            return ref[len(prefix) :].replace("~1", "/").replace("~0", "~")
    return None
