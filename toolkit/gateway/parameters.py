"""What OpenAI checks in every function's `parameters` schema, strict or not.

`parameters_problem(schema)` returns OpenAI's sentence for the first rule the schema breaks, or
None: the schema must be an object's (`schema must be a JSON Schema of 'type: "object"', got
'type: "array"'.`: a tool's arguments are always an object), and every array schema in it must
say what its items are (`In context=('properties', 'paths'), array schema missing items.`),
looked for where strict mode looks (`toolkit.gateway.strict.first_problem`). A gateway that took
such a schema would teach a learner a tool that the real API refuses with a 400.

Cost: a tool list is checked once (`toolkit.gateway.toolset` keeps a list it meets again, and a
new one is checked as it comes: a tool search's finds). A list without the text `"array"` is not
walked, nor is a schema without it (`may_hold_arrays`, one pass in C); only a schema with an array
is walked, about 2 µs.

Leaves out: a root without `type` (`{}` is the common "no parameters"), a `type` list at the
root, and an array of `prefixItems` (a tuple) without `items`; the rest of JSON Schema's
meta-schema (a misspelt `type`, a `required` that is no list).
"""

from __future__ import annotations

from typing import Any

import orjson

from toolkit.gateway.strict import _MANY, _NAMED, _ONE, first_problem


def parameters_problem(schema: Any, *, arrays: bool | None = None) -> str | None:
    """OpenAI's text for the first rule `schema` breaks (see the module docstring), or None.
    `arrays`: whether the caller found `"array"` in it (`may_hold_arrays`); None: looked for here."""
    if not isinstance(schema, dict):
        return None
    kind = schema.get("type")
    if isinstance(kind, str) and kind != "object":
        return f"""schema must be a JSON Schema of 'type: "object"', got 'type: "{kind}"'."""
    if arrays is None:
        arrays = may_hold_arrays(schema)  # one schema's text: read in C
    if not arrays or not _any_bare_array(schema):
        return None
    return first_problem(schema, _array_problem)


def may_hold_arrays(value: Any) -> bool:
    """Whether `value` (a tool list, say) has the text `"array"` anywhere: else no schema in it is an
    array's, and walking them all is not needed (one pass in C: the walk costs a 100-tool list 1 ms)."""
    try:
        return b'"array"' in orjson.dumps(value)
    except (TypeError, orjson.JSONEncodeError):  # not JSON (a Python caller's object): walk it
        return True


def _array_problem(node: dict) -> str | None:
    return "array schema missing items." if _bare_array(node) else None


def _bare_array(node: dict) -> bool:
    kind = node.get("type")
    is_array = kind == "array" or (type(kind) is list and "array" in kind)
    return is_array and "items" not in node and "prefixItems" not in node


def _any_bare_array(schema: dict) -> bool:
    """Whether `first_problem` would find an array without items, found with no context kept and no
    recursion (the walk with its context cost a 100-tool list 4 ms, five times all the rest of the
    request; it now runs only for a schema whose text holds an array). Of each schema only the keys that
    hold schemas are read (`_HOLDERS`, found in C): a parameter's `type` and `description` cost
    one set intersection, not a Python step each."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if _bare_array(node):
            return True
        for key in _HOLDERS.intersection(node):
            child = node[key]
            if key in _ONE:
                if type(child) is dict:
                    stack.append(child)
                continue
            for each in (
                child.values() if key in _NAMED and type(child) is dict else child if type(child) is list else ()
            ):
                if type(each) is dict:
                    stack.append(each)
    return False


_HOLDERS = frozenset((*_ONE, *_MANY, *_NAMED))
"""The keys whose values hold schemas (`toolkit.gateway.strict`)."""
