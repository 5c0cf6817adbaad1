"""Tool schemas without the keywords a gateway refuses.

A relay that turns an OpenAI request into Gemini's native one (one-api and its forks) refuses a
tool schema holding `additionalProperties` with a 400: "Invalid JSON payload received. Unknown name
"additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find field."
(Laisky/one-api#60, chataize/generative-cs#1): Gemini's function declarations take an OpenAPI
subset without it. `ChatClient` then asks again without the keyword, and leaves it out of every
later request to that gateway (`refused_keyword`, `without_keywords`).

Only `DROPPABLE` keywords are ever left out: each only annotates a schema or forbids extra fields,
which the package checks itself (an unknown field is an argument error, whatever the schema said),
so the model is asked the same question. A keyword that shapes the arguments (`type`, `$ref`,
`enum`, …) is never dropped: such a refusal is raised as it came.

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


def refused_keyword(error_text: str, tools: list[dict[str, Any]] | None) -> str | None:
    """The `DROPPABLE` keyword a gateway's error names as unknown, if the tools hold it; else None."""
    if not tools:
        return None
    for keyword in DROPPABLE:
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
        lean = {**function, "parameters": _schema(function["parameters"], dropped)}
        out.append({**spec, "function": lean})
    return out


def _schema(node: Any, dropped: frozenset[str]) -> Any:
    if isinstance(node, list):
        return [_schema(item, dropped) for item in node]
    if not isinstance(node, dict):
        return node
    kept: dict[str, Any] = {}
    for key, value in node.items():
        if key in dropped:
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
