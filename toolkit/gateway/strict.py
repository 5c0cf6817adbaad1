"""OpenAI's strict-mode rules for a schema, checked as its API checks them before answering.

A tool with `"strict": true`, or a `response_format` `json_schema` with `"strict": true`, is
refused by OpenAI unless every object in its schema says `additionalProperties: false` and
lists every one of its properties in `required`. A gateway that let such a schema through
would teach a learner a tool that the real API refuses with a 400. `strict_problem(schema)`
returns OpenAI's sentence for the first object that breaks a rule — `In context=('properties',
'address'), 'additionalProperties' is required to be supplied and to be false.` — or None.

Objects are found where strict mode looks: the root, `properties`, `items`, `anyOf` / `allOf` /
`oneOf`, `$defs` and `definitions`, and a `type` of "object" (alone or in a list) or a
`properties` key makes a node an object.

Leaves out: strict mode's other limits (supported keywords, 100 properties, 5 levels of
nesting, the total length of names and enum values); a `$ref` is not followed (its target is
checked where it is defined).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_ONE = ("items", "not", "additionalItems")
_MANY = ("anyOf", "allOf", "oneOf", "prefixItems")
_NAMED = ("properties", "$defs", "definitions")


def strict_problem(schema: Any) -> str | None:
    """OpenAI's text for the first strict-mode rule `schema` breaks (see the module docstring), or None."""
    return first_problem(schema, _strict_problem)


def _strict_problem(node: dict) -> str | None:
    return _object_problem(node) if _is_object(node) else None


def first_problem(schema: Any, problem_of: Callable[[dict], str | None]) -> str | None:
    """`In context=(...), <problem>` for the first schema in `schema` (itself and the schemas it holds,
    where OpenAI looks, see the module docstring) that `problem_of` finds a problem with, or None."""
    return _first(schema, (), problem_of)


def _first(schema: Any, context: tuple[str, ...], problem_of: Callable[[dict], str | None]) -> str | None:
    """Depth first, in the order the schemas are written (`properties`, then `items`, then `anyOf`, ...),
    with a stack of its own: a schema nested past Python's recursion limit is walked to its bottom."""
    stack: list[tuple[Any, tuple[str, ...]]] = [(schema, context)]
    while stack:
        node, where = stack.pop()
        if not isinstance(node, dict):
            continue
        problem = problem_of(node)
        if problem:
            return f"In context={where!r}, {problem}"
        stack.extend(reversed(_children(node, where)))
    return None


def _children(node: dict, where: tuple[str, ...]) -> list[tuple[Any, tuple[str, ...]]]:
    """The schemas `node` holds where strict mode looks, each with its context, in the order they are read."""
    children: list[tuple[Any, tuple[str, ...]]] = []
    for key in _NAMED:
        held = node.get(key)
        if isinstance(held, dict):
            children.extend((child, (*where, key, str(name))) for name, child in held.items())
    for key in _ONE:
        if key in node:
            children.append((node[key], (*where, key)))
    for key in _MANY:
        held = node.get(key)
        if isinstance(held, list):
            children.extend((child, (*where, key, str(i))) for i, child in enumerate(held))
    return children


def _is_object(node: dict) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node


def _object_problem(node: dict) -> str | None:
    if node.get("additionalProperties") is not False:
        return "'additionalProperties' is required to be supplied and to be false."
    properties = node.get("properties")
    required = node.get("required")
    names = list(properties) if isinstance(properties, dict) else []
    listed = required if isinstance(required, list) else []
    missing = [name for name in names if name not in listed]
    if missing or (required is not None and not isinstance(required, list)):
        return "'required' is required to be supplied and to be an array including every key in properties." + (
            f" Missing '{missing[0]}'." if missing else ""
        )
    return None
