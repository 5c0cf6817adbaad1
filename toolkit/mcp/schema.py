"""An MCP tool's `inputSchema` → the parameters schema toolkit sends to the model.

MCP servers are written by strangers, in every SDK and by hand; their schemas are valid JSON
Schema but rarely in the dialect toolkit writes itself (`toolkit.tools.reflect`). `translate_schema()`
rewrites one, walking every subschema without following references:

1. references: `#/definitions/X` (draft-07) and `#/$defs/X` (2019-09+) both become
   `#/$defs/X`, and `definitions` join `$defs` at the root. A reference is kept, never inlined,
   so recursive schemas (a tree node whose children are nodes, or `"$ref": "#"`) stay finite.
   A reference to anything else (`#/properties/a`, another file, a URL) cannot be kept
   meaningfully: `SchemaTranslationError`;
2. missing `type`: the root is an object (a root that only refers to a definition takes
   that definition's body); below it, `properties` / `required` /
   `additionalProperties` mean object and `items` means array. A bare `{}` keeps meaning
   "any value" (turning it into an object would forbid what the server accepts);
3. type arrays: `{"type": ["integer", "null"]}` becomes `{"anyOf": [{"type": "integer"},
   {"type": "null"}]}`, toolkit's own spelling of `int | None`; other keywords stay beside it
   (JSON Schema applies `minimum` to numbers only, so the meaning does not change);
4. `anyOf` / `oneOf` / `allOf` branches are translated like any subschema. At the root the
   model needs a plain object (OpenAI refuses a root `anyOf`): composition there is dropped —
   after merging the branches' properties into the root when it has none (the MCP SEP-2106
   case, object + `anyOf`, keeps the object). What is left is a hint for the model, looser
   (or, for merged branches, in corners stricter) than the server; the server still validates;
5. the result is JSON Schema 2020-12 (draft-07's tuple `items` becomes `prefixItems`), root
   `$schema` / `$id` dropped; `None` when the tool takes no arguments (toolkit never sends `{}`;
   an empty `properties` with no declared `additionalProperties` means none).

`translate_schema` never changes its input. Leaves out: `$anchor` / `$dynamicRef`, external
references; tool *names* (see `toolkit.mcp.provider.openai_name`).
"""

from __future__ import annotations

import copy
from typing import Any

from toolkit.errors import SchemaTranslationError

_DEFS_PREFIXES = ("#/$defs/", "#/definitions/")
_OBJECT_WORDS = ("properties", "required", "additionalProperties", "patternProperties")
_COMPOSITION = ("anyOf", "oneOf", "allOf")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_VALUES = (
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
)
_SCHEMA_MAPS = ("properties", "patternProperties", "dependentSchemas")


def translate_schema(schema: dict[str, Any] | None, where: str = "MCP tool") -> dict[str, Any] | None:
    """The parameters schema for an MCP `inputSchema` (see the module docstring)."""
    root = copy.deepcopy(schema) if isinstance(schema, dict) else {}
    defs = {name: _walk(body, where) for name, body in _collect_defs(root, where).items()}
    root = _flatten_root(_inline_root_ref(_walk(root, where), defs))
    for key in ("$schema", "$id"):
        root.pop(key, None)
    root["type"] = "object"
    if defs:
        root["$defs"] = defs
    _check_refs(root, set(defs), where)
    return root if _takes_arguments(root) else None


def _takes_arguments(root: dict[str, Any]) -> bool:
    """Named properties, or free-form ones declared on purpose (`additionalProperties: {...}`)."""
    extra = root.get("additionalProperties")
    return bool(root.get("properties") or root.get("patternProperties") or extra is True or isinstance(extra, dict))


def _collect_defs(root: dict[str, Any], where: str) -> dict[str, Any]:
    """Step 1: `definitions` and `$defs` of the root, merged (a clash of two bodies is an error)."""
    defs = dict(root.pop("$defs", None) or {})
    for name, body in (root.pop("definitions", None) or {}).items():
        if defs.setdefault(name, body) != body:
            raise SchemaTranslationError(
                f"{where}: its schema defines {name!r} twice, differently, under 'definitions' "
                "and '$defs'; the server's schema is ambiguous — ask its author to fix it"
            )
    return defs


def _walk(node: Any, where: str) -> Any:
    """Steps 1–4 for one subschema and, recursively, its children."""
    if not isinstance(node, dict):
        return node  # `true` / `false` schemas
    out = {key: _children(key, value, where) for key, value in node.items()}
    if isinstance(out.get("items"), list):  # draft-07 tuple → 2020-12 prefixItems
        out["prefixItems"] = out.pop("items")
        if "additionalItems" in out:
            out["items"] = out.pop("additionalItems")
    if isinstance(out.get("$ref"), str):
        out["$ref"] = _ref(out["$ref"])
    if "type" not in out:
        out.update(_inferred_type(out))
    if isinstance(out.get("type"), list):
        out = _type_array(out)
    return out


def _children(key: str, value: Any, where: str) -> Any:
    if key in _SCHEMA_MAPS and isinstance(value, dict):
        return {name: _walk(sub, where) for name, sub in value.items()}
    if key in _SCHEMA_LISTS and isinstance(value, list):
        return [_walk(sub, where) for sub in value]
    if key == "items":
        return [_walk(s, where) for s in value] if isinstance(value, list) else _walk(value, where)
    if key in _SCHEMA_VALUES or key == "additionalProperties":
        return _walk(value, where)
    if key in ("$defs", "definitions"):
        raise SchemaTranslationError(
            f"{where}: '{key}' below the root of its schema is not supported; move the definitions to the root"
        )
    return value


def _ref(ref: str) -> str:
    return "#/$defs/" + ref[len("#/definitions/") :] if ref.startswith("#/definitions/") else ref


def _inferred_type(node: dict[str, Any]) -> dict[str, Any]:
    """Step 2 below the root: infer from the keywords, or leave "any value" alone."""
    if "$ref" in node or any(k in node for k in (*_COMPOSITION, "enum", "const", "not")):
        return {}
    if any(k in node for k in _OBJECT_WORDS):
        return {"type": "object"}
    if "items" in node or "prefixItems" in node:
        return {"type": "array"}
    return {}


def _type_array(node: dict[str, Any]) -> dict[str, Any]:
    """Step 3: `type: [a, b]` → `anyOf [{type: a}, {type: b}]` (one type: just that type)."""
    types = list(dict.fromkeys(node.pop("type")))
    if len(types) == 1:
        return {"type": types[0], **node}
    if "anyOf" in node:  # both: keep the meaning with allOf
        return {**node, "allOf": [*node.get("allOf", []), {"anyOf": [{"type": t} for t in types]}]}
    return {"anyOf": [{"type": t} for t in types], **node}


def _inline_root_ref(root: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A root that is only `{"$ref": "#/$defs/Args"}` takes the body of `Args` (kept in `$defs`)."""
    ref = root.get("$ref")
    name = (
        _unescape(ref[len(_DEFS_PREFIXES[0]) :]) if isinstance(ref, str) and ref.startswith(_DEFS_PREFIXES[0]) else None
    )
    if name not in defs or not isinstance(defs[name], dict):
        return root
    rest = {k: v for k, v in root.items() if k != "$ref"}
    return {**copy.deepcopy(defs[name]), **rest}


def _flatten_root(root: dict[str, Any]) -> dict[str, Any]:
    """Step 4 at the root: keep a plain object, borrowing the branches' properties if needed."""
    branches = [b for key in _COMPOSITION for b in root.pop(key, []) or [] if isinstance(b, dict)]
    root.pop("not", None)
    if root.get("type") != "object":
        root.pop("type", None)
    if branches and not root.get("properties"):
        merged: dict[str, Any] = {}
        for branch in branches:
            for name, sub in (branch.get("properties") or {}).items():
                merged.setdefault(name, sub)
        if merged:
            root["properties"] = merged
    return root


def _check_refs(node: Any, names: set[str], where: str) -> None:
    """Every `$ref` left must point at the root (`#`) or at one of the root's `$defs`."""
    if isinstance(node, list):
        for item in node:
            _check_refs(item, names, where)
        return
    if not isinstance(node, dict):
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and ref != "#":
        if not ref.startswith(_DEFS_PREFIXES[0]) or _unescape(ref[len(_DEFS_PREFIXES[0]) :]) not in names:
            known = ", ".join(sorted(names)) or "none"
            raise SchemaTranslationError(
                f"{where}: its schema refers to {ref!r}, which is not one of its definitions "
                f"({known}); only '#', '#/$defs/NAME' and '#/definitions/NAME' can be sent on"
            )
    for key, value in node.items():
        if key != "enum" and key != "const" and key != "default" and key != "examples":
            _check_refs(value, names, where)


def _unescape(token: str) -> str:
    """A JSON Pointer token back to the name (`~1` is `/`, `~0` is `~`)."""
    return token.replace("~1", "/").replace("~0", "~")
