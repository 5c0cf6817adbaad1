"""A tool's `parameters` that is no JSON Schema at all, refused with OpenAI's sentence.

OpenAI checks every function's `parameters` against JSON Schema's meta-schema before it reads the
tools, and answers a 400 with the validator's sentence for what is wrong, without a context:
`Invalid schema for function 'f': 'str' is not valid under any of the given schemas.` (a Python type
name where a JSON type belongs, a learner's usual slip), `'string' is not of type 'object', 'boolean'.`
(a parameter written as its type alone), `True is not of type 'array'.` (JSON Schema draft 3's
`"required": true` on a parameter). A gateway that took such a list would teach a tool the real API
refuses; so is a `response_format` `json_schema` (`Invalid schema for response_format 'r': ...`, strict or
not). `schema_problem(schema)` returns the sentence for the first such mistake, or None; the texts
are those of `jsonschema`'s Draft 2020-12 meta-schema (the tests hold them equal).

What is checked: that each schema is an object or a boolean; its `type` (a JSON type, or a non-empty
list of them each once); `required` (strings, each once) and `enum` (an array); `properties`, `$defs`
and `definitions` (objects of schemas); `anyOf` / `allOf` / `oneOf` (non-empty arrays of schemas);
`not`, `items` (a schema; an array of them, draft 7's tuple, is let through) and `additionalProperties`.

Cost: `plain_parameters(schema)` is what the gateway asks of every new tool list, tool by tool: the
root's `properties` and `required` (names, each once), and each parameter's own schema, `type`,
`required` and `enum`, a few lookups a parameter, and the same of the schemas in a parameter's `items`
and `anyOf` (what a reflected `list[int]` or `str | None` writes); a root or parameter holding other
schemas (`properties`, `$defs`, `not`, ...: one set lookup), or those holding any, fails it. The
walk runs only for a tool that fails it (or that the gateway walks anyway: strict, or holding an
array), and then finds any mistake in it, at any depth. `flat_parameters(schema)` is what `Tool(...)`
asks first (every reflected tool): a small parameters object that the walk would pass and that nests
no deeper than `FLAT_LEVELS`, told by set operations over each node's keys and values' types.
Leaves out: the rest of the meta-schema (`minLength: -1`, a `pattern` that is no regex, `minimum: "5"`).
"""

from __future__ import annotations

import reprlib
from typing import Any

from toolkit.unicode import cut

TYPES = frozenset(("array", "boolean", "integer", "null", "number", "object", "string"))
_TYPE_LIST = repr(sorted(TYPES))
_NAMED = ("properties", "$defs", "definitions")
_ONE = ("not", "items", "additionalProperties", "additionalItems")
_MANY = ("anyOf", "allOf", "oneOf")
_NESTED = frozenset((*_NAMED, *_ONE, *_MANY, "prefixItems"))
"""Keywords holding schemas: a parameter (or a root beside its `properties`) with one is walked."""
_NESTED_ROOT = _NESTED - {"properties"}
_HELD = frozenset(("items", "anyOf"))
_CONTAINERS = (("required", "array"), ("enum", "array"), *((k, "object") for k in _NAMED))
"""The keywords whose value must be an array or an object, with that JSON type."""
_CHECKED = frozenset(("required", "enum", *_NAMED, *_MANY))
"""The keywords `_keyword_problem` looks at besides `type`: a node with a valid `type` (or none) and
none of these has no problem of its own, and the walk skips the call (most nodes are parameters:
`{"type": "string", "description": ...}`)."""
_WALKED = frozenset((*_NAMED, *_ONE, *_MANY))
"""The keywords holding schemas: a node with none of them has nothing below it to walk."""
_ABSENT: Any = object()
"""A keyword left out (JSON's null is a value, and no schema's)."""


def plain_parameters(schema: dict[str, Any]) -> bool:
    """Whether a tool's `parameters` passes the cheap look (see the module docstring): else walk it."""
    if not _NESTED_ROOT.isdisjoint(schema) and not _plain_beside(schema):
        return False
    if not _plain_required(schema.get("required", ())):
        return False
    properties = schema.get("properties", _ABSENT)
    if properties is _ABSENT:
        return True
    if type(properties) is not dict:
        return False
    return all(_plain(each, 1) for each in properties.values())


def _plain_beside(schema: dict[str, Any]) -> bool:
    """A root whose only schema-holding keyword beside `properties` is `additionalProperties: false`."""
    return type(schema.get("additionalProperties")) is bool and len(_NESTED_ROOT.intersection(schema)) == 1


def _plain(each: Any, depth: int) -> bool:
    """A parameter's schema by lookups: its `type`, `required` and `enum`; at `depth` 1 it may hold the
    two kinds a reflected signature writes, `items` and `anyOf`, of schemas that hold none."""
    if type(each) is not dict:
        return False
    kind = each.get("type", "string")
    if type(kind) is not str or kind not in TYPES:
        return False
    if ("required" in each and (type(each["required"]) is not list or not _plain_required(each["required"]))) or (
        "enum" in each and type(each["enum"]) is not list
    ):
        return False
    if _NESTED.isdisjoint(each):
        return True
    if depth == 0 or not _HELD.issuperset(_NESTED.intersection(each)):
        return False
    items, choices = each.get("items", _ABSENT), each.get("anyOf", _ABSENT)
    if items is not _ABSENT and not _plain(items, 0):
        return False
    return choices is _ABSENT or (type(choices) is list and bool(choices) and all(_plain(c, 0) for c in choices))


def _plain_required(required: Any) -> bool:
    """A `required`: names, each once (a few lookups for the usual short list)."""
    return (
        type(required) in (list, tuple)
        and all(type(name) is str for name in required)
        and (len(required) < 2 or len(set(required)) == len(required))
    )


_SCALARS = frozenset((str, int, float, bool, type(None)))
"""The exact types of the values that hold no schema and nest nothing (a subclass, an enum member, is not one)."""
_ROOT_KEYS = frozenset(("type", "properties", "required", "additionalProperties", "$defs"))
"""What a reflected function's parameters object holds (`toolkit.tools.reflect`)."""
_READ = _CHECKED | _WALKED
"""The keywords `schema_problem` reads besides `type`: with a scalar value, each is a problem or a walk
(but a boolean `not`, `items`, `additionalProperties`, `additionalItems`: a schema)."""
_BOOLEAN_SCHEMAS = frozenset(_ONE)
_HOLDS = 2
"""How many schemas deep below a parameter `flat_parameters` reads (`Optional[list[int]]`: `anyOf`, then `items`)."""
FLAT_LEVELS = 3 + 2 * _HOLDS + 1
"""The deepest objects and arrays nest in what `flat_parameters` passes (the root is one level): a
parameter is the third (root, `properties`), each schema held below it at most two more (`anyOf`'s
list, a member), and the last one's `enum`, `required` or flat `default` one more."""


def flat_parameters(schema: dict[str, Any]) -> bool:
    """Whether `schema`, a parameters object (a dict whose `type` is `"object"`), is small and plainly
    valid: its keywords among `type`, `properties`, `required` (names, each once), a boolean
    `additionalProperties` and `$defs`, each parameter and definition a `_flat_node`. Then
    `schema_problem` finds nothing and nothing in it nests past `FLAT_LEVELS`; False says nothing
    (walk it). Read with set operations in C over each node's keys and its values' types, where the
    walk visits every container: what reflection writes for the usual signature answers so
    (`tests/test_gateway_meta_schema.py` holds it to `schema_problem` and the depth over generated schemas)."""
    if not _ROOT_KEYS.issuperset(schema) or type(schema["type"]) is not str:
        return False
    required = schema.get("required", _ABSENT)
    if required is not _ABSENT and not _names(required):
        return False
    if type(schema.get("additionalProperties", False)) is not bool:
        return False
    for key in ("properties", "$defs"):
        named = schema.get(key, _ABSENT)
        if named is not _ABSENT and (type(named) is not dict or not all(_flat_node(n, _HOLDS) for n in named.values())):
            return False
    return True


def _names(required: Any) -> bool:
    """A `required` that `_keyword_problem` passes: a list of strings, each once."""
    return (
        type(required) is list
        and _STRINGS.issuperset(map(type, required))
        and (len(required) < 2 or len(set(required)) == len(required))
    )


_STRINGS = frozenset((str,))
_MANY_KEYS = frozenset(_MANY) | {"prefixItems"}
"""Lists of schemas (`prefixItems`, a tuple's, is not walked, only counted in the depth)."""


def _flat_node(node: Any, depth: int) -> bool:
    """A schema whose values are scalars (a keyword `schema_problem` reads among them only as a
    boolean schema; a valid `type` or none), an `enum` list or a `default` list or dict of scalars,
    a `required` list of names, and, `depth` more levels down, schemas of this kind (`items`,
    `additionalProperties`, `not`, `anyOf` and the other lists, `properties`)."""
    if type(node) is not dict:
        return False
    if _SCALARS.issuperset(map(type, node.values())):
        if not _READ.isdisjoint(node):
            for key in _READ.intersection(node):
                if key not in _BOOLEAN_SCHEMAS or type(node[key]) is not bool:
                    return False
    else:
        for key, value in node.items():
            kind = type(value)
            if kind in _SCALARS:
                if key in _READ and (key not in _BOOLEAN_SCHEMAS or kind is not bool):
                    return False
            elif key == "enum":
                if kind is not list or not _SCALARS.issuperset(map(type, value)):
                    return False
            elif key == "default":  # `= ["x"]`, `= {"k": 1}`: a flat container (never read as a schema)
                if not (kind is list or kind is dict) or not _SCALARS.issuperset(
                    map(type, value.values() if kind is dict else value)
                ):
                    return False
            elif key == "required":
                if not _names(value):
                    return False
            elif not depth:
                return False
            elif key in _BOOLEAN_SCHEMAS:
                if not _flat_node(value, depth - 1):
                    return False
            elif key in _MANY_KEYS:
                if kind is not list or not value or not all(_flat_node(each, depth - 1) for each in value):
                    return False
            elif key == "properties":
                if kind is not dict or not all(_flat_node(each, depth - 1) for each in value.values()):
                    return False
            else:
                return False
    kind = node.get("type", "string")
    return type(kind) is str and kind in TYPES


def schema_problem(schema: Any) -> str | None:
    """OpenAI's sentence for the first way `schema` is no JSON Schema (see the module docstring), or None."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if type(node) is bool:
            continue
        if type(node) is not dict:
            return f"{_shown(node)} is not of type 'object', 'boolean'."
        kind = node.get("type", "string")
        if not (type(kind) is str and kind in TYPES) or not _CHECKED.isdisjoint(node):
            problem = _keyword_problem(node)
            if problem is not None:
                return problem
        if _WALKED.isdisjoint(node):  # a leaf (most parameters): no schema below it
            continue
        children: list[Any] = []
        for key in _NAMED:
            if key in node:
                children.extend(node[key].values())
        for key in _ONE:
            if key in node and not (key in ("items", "additionalItems") and type(node[key]) is list):
                children.append(node[key])
        for key in _MANY:
            children.extend(node.get(key, ()))
        stack.extend(reversed(children))
    return None


def _keyword_problem(node: dict) -> str | None:
    """The first problem with `node`'s own keywords (not the schemas it holds, but their containers)."""
    kind = node.get("type", "string")
    if not (type(kind) is str and kind in TYPES):
        if type(kind) is not list:
            return f"{_shown(kind)} is not valid under any of the given schemas."
        problem = _type_list_problem(kind)
        if problem is not None:
            return problem
    for key, expected in _CONTAINERS:
        value = node.get(key, _ABSENT)
        if value is not _ABSENT and type(value) is not (list if expected == "array" else dict):
            return f"{_shown(value)} is not of type '{expected}'."
    required = node.get("required", [])
    for name in required:
        if type(name) is not str:
            return f"{_shown(name)} is not of type 'string'."
    if len(set(required)) < len(required):
        return f"{_shown(required)} has non-unique elements."
    for key in _MANY:
        value = node.get(key, _ABSENT)
        if value is not _ABSENT:
            if type(value) is not list:
                return f"{_shown(value)} is not of type 'array'."
            if not value:
                return "[] should be non-empty."
    return None


def _type_list_problem(kinds: list) -> str | None:
    if not kinds:
        return "[] should be non-empty."
    for each in kinds:
        if type(each) is not str or each not in TYPES:
            return f"{_shown(each)} is not one of {_TYPE_LIST}."
    if len(set(kinds)) < len(kinds):
        return f"{_shown(kinds)} has non-unique elements."
    return None


def _shown(value: Any) -> str:
    """A value as the validator writes it (Python's repr), cut to 100 characters."""
    return cut(shown_value(value), 100, "...")


_SHALLOW = reprlib.Repr()  # its limits as attributes: Python 3.11's takes no keyword arguments
_SHALLOW.maxlevel = 8


def shown_value(value: Any) -> str:
    """A value from a request as an error quotes it: Python's repr, or, for one nested deeper than repr
    reaches (a list 1,000 deep, within orjson's 1,024 levels), its first levels (`[[[[[[[[...]]]]]]]]`)."""
    try:
        return repr(value)
    except RecursionError:
        return _SHALLOW.repr(value)
