"""An MCP tool's `inputSchema` → the parameters schema toolkit sends to the model.

MCP servers are written by strangers, in every SDK and by hand; their schemas are valid JSON
Schema but rarely in the dialect toolkit writes itself (`toolkit.tools.reflect`). `translate_schema()`
rewrites one, walking every subschema:

1. references: `#/definitions/X` (draft-07) and `#/$defs/X` (2019-09+) both become
   `#/$defs/X`, and `definitions` join `$defs` at the root. Any other reference into the same
   document — `#/properties/x`, or into `definitions` nested below the root, the default style
   of zod-to-json-schema — has its target copied into the root's `$defs` (named after the
   path, e.g. `properties_x`) and points there; nested `definitions` / `$defs` are then dropped.
   A reference is kept, never inlined, so recursive schemas (a tree node whose children are
   nodes, or `"$ref": "#"`) stay finite. A reference to another file or a URL cannot be sent
   on, and a `$defs` / `definitions` that is not an object of named schemas cannot be read:
   `SchemaTranslationError`;
2. missing `type`: the root is an object (a root that only refers to a definition takes
   that definition's body); below it, `properties` / `required` / `additionalProperties` mean
   object and `items` means array. A *property* that says nothing about its type (`{}`, or
   only a description) becomes an object, as LangChain4j's MCP mapping does;
3. type arrays: `null` is dropped, as LangChain4j does (an optional argument is left out, not
   sent as null); `{"type": ["integer", "string"]}` becomes `{"anyOf": [{"type": "integer"},
   {"type": "string"}]}`; other keywords stay beside it (JSON Schema applies `minimum` to
   numbers only, so the meaning does not change);
4. older drafts: draft-4's boolean `exclusiveMinimum: true` + `minimum: 5` becomes
   `exclusiveMinimum: 5` (and the same for maximum); draft-07's `dependencies` becomes
   `dependentRequired` (a list of names) and `dependentSchemas` (a schema);
5. `anyOf` / `oneOf` / `allOf` branches are translated like any subschema. At the root the
   model needs a plain object (OpenAI refuses a root `anyOf`), so composition there is
   rewritten: `allOf` branches merge into the root (properties, and `required` joined);
   `anyOf` / `oneOf` branches lend the root their properties, a property required by every
   branch stays required, and the alternatives are written into the root's `description`
   ("exactly one of these forms: 1) …; 2) …"), so the model still reads the rule the schema
   can no longer enforce. A branch that refers to a definition (`{"$ref": "#/$defs/ById"}`, a
   union of models) is read as that definition. The server still validates;
6. the result is JSON Schema 2020-12 (draft-07's tuple `items` becomes `prefixItems`), root
   `$schema` / `$id` dropped; `None` when the tool takes no arguments (toolkit never sends `{}`;
   an empty `properties` with no declared `additionalProperties` means none). Every result is
   checked against the 2020-12 metaschema before it is returned: a schema that still is not
   valid (`"minimum": "5"`) is a `SchemaTranslationError` saying where. So is a NaN or Infinity
   anywhere in the input (Python servers write `NaN` by default): JSON cannot carry it, so
   every request offering the tool would fail;
7. an array that says nothing of its items gets `items: {}` (any value: what leaving it out
   means), alone or as a branch of a type array. OpenAI refuses, strict or not, every request
   offering a tool with an array without `items` (`toolkit.gateway.parameters`).

`translate_schema` never changes its input. Leaves out: `$anchor` / `$dynamicRef`, external
references; tool *names* (see `toolkit.mcp.provider.wire_names`).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from toolkit.chat.finite import first_non_finite
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
_TYPE_WORDS = ("type", "$ref", *_COMPOSITION, "enum", "const", "not", "if", "items", "prefixItems")
"""A subschema with any of these says what type its value has (step 2 for properties)."""
_DATA_KEYS = ("enum", "const", "default", "examples")
"""Values that are data, not schemas: a `$ref` inside them is left alone."""
_NAMED_SCHEMAS = (*_SCHEMA_MAPS, "$defs", "definitions")
"""Keywords whose value maps names to schemas: a name there is no keyword."""


def translate_schema(schema: dict[str, Any] | None, where: str = "MCP tool") -> dict[str, Any] | None:
    """The parameters schema for an MCP `inputSchema` (see the module docstring)."""
    _check_finite(schema, where)
    original = copy.deepcopy(schema) if isinstance(schema, dict) else {}
    root = copy.deepcopy(original)
    raw_defs = _collect_defs(root, where)
    refs = _hoist_pointers(original, raw_defs)
    defs = {name: _walk(body, where, refs) for name, body in raw_defs.items()}
    root = _flatten_root(_resolved(_walk(root, where, refs), defs), defs)
    for key in ("$schema", "$id"):
        root.pop(key, None)
    root["type"] = "object"
    if defs:
        root["$defs"] = defs
    _check_refs(root, set(defs), where)
    if not _takes_arguments(root):
        return None
    from jsonschema import Draft202012Validator  # here, not at import: it costs seconds on a slow machine
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(root)
    except SchemaError as exc:
        at = "/".join(str(p) for p in exc.path) or "the root"
        raise SchemaTranslationError(
            f"{where}: its schema is not valid JSON Schema 2020-12 after translation ({exc.message}, at {at}); "
            "ask its author to fix it"
        ) from None
    return root


def _takes_arguments(root: dict[str, Any]) -> bool:
    """Named properties, or free-form ones declared on purpose (`additionalProperties: {...}`)."""
    extra = root.get("additionalProperties")
    return bool(root.get("properties") or root.get("patternProperties") or extra is True or isinstance(extra, dict))


def _collect_defs(root: dict[str, Any], where: str) -> dict[str, Any]:
    """Step 1: `definitions` and `$defs` of the root, merged (a clash of two bodies is an error)."""
    defs = _definitions(root, "$defs", where)
    for name, body in _definitions(root, "definitions", where).items():
        if defs.setdefault(name, body) != body:
            raise SchemaTranslationError(
                f"{where}: its schema defines {name!r} twice, differently, under 'definitions' "
                "and '$defs'; the server's schema is ambiguous — ask its author to fix it"
            )
    return defs


def _definitions(root: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    """The root's `$defs` or `definitions`, taken out of it: an object of named schemas, or nothing."""
    value = root.pop(key, None)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise SchemaTranslationError(
            f"{where}: its schema's {key!r} is {json_type(value)}, not an object of named schemas; "
            "ask its author to fix it"
        )
    return dict(value)


def json_type(value: Any) -> str:
    """A value's JSON type, with its article (for error texts)."""
    kinds = (
        (bool, "a boolean"),
        ((int, float), "a number"),
        (str, "a string"),
        (list, "an array"),
        (dict, "an object"),
    )
    return next((name for kind, name in kinds if isinstance(value, kind)), "null")


def _check_finite(schema: Any, where: str) -> None:
    """No NaN or Infinity anywhere: JSON cannot carry them, so every model request would fail."""
    found = first_non_finite(schema)
    if found is not None:
        at = "/".join(str(key) for key in found[0])
        raise SchemaTranslationError(
            f"{where}: its schema has a non-finite number at {at or 'the root'} (NaN and Infinity "
            "are not JSON); ask its author to fix it"
        )


def _hoist_pointers(original: dict[str, Any], defs: dict[str, Any]) -> dict[str, str]:
    """Step 1 for references that are not `#/$defs/NAME`: copy each target into `defs`.

    Returns {the reference as written → the `#/$defs/...` reference replacing it}. A pointer
    that leads nowhere is left as it is (`_check_refs` then names it).
    """
    refs: dict[str, str] = {}
    for ref in _all_refs(original):
        if ref in refs or not ref.startswith("#/") or _def_name(ref, defs) is not None:
            continue
        tokens = [_unescape(t) for t in ref[2:].split("/")]
        target: Any = original
        for token in tokens:
            if isinstance(target, dict) and token in target:
                target = target[token]
            elif isinstance(target, list) and token.isdigit() and int(token) < len(target):
                target = target[int(token)]
            else:
                break
        else:
            if isinstance(target, (dict, bool)):
                name = base = re.sub(r"[^A-Za-z0-9_.-]", "_", "_".join(tokens)) or "ref"
                n = 1
                while name in defs:
                    n += 1
                    name = f"{base}_{n}"
                defs[name] = copy.deepcopy(target)
                refs[ref] = "#/$defs/" + name
    return refs


def _all_refs(node: Any) -> list[str]:
    if isinstance(node, list):
        return [r for item in node for r in _all_refs(item)]
    if not isinstance(node, dict):
        return []
    found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
    return found + [r for sub in _subschemas(node) for r in _all_refs(sub)]


def _subschemas(node: dict[str, Any]) -> list[Any]:
    """What in `node` may hold schemas: each keyword's value but data (`enum`, `default`…); under
    a map of named schemas (`properties`, `$defs`), each schema, whatever its name (a parameter
    may be called `default`)."""
    found: list[Any] = []
    for key, value in node.items():
        if key in _NAMED_SCHEMAS and isinstance(value, dict):
            found += value.values()
        elif key not in _DATA_KEYS:
            found.append(value)
    return found


def _def_name(ref: str, defs: dict[str, Any]) -> str | None:
    """The definition a `#/$defs/NAME` or `#/definitions/NAME` reference names, if it exists."""
    for prefix in _DEFS_PREFIXES:
        if ref.startswith(prefix) and "/" not in ref[len(prefix) :]:
            name = _unescape(ref[len(prefix) :])
            return name if name in defs else None
    return None


def _walk(node: Any, where: str, refs: dict[str, str], is_property: bool = False) -> Any:
    """Steps 1–4 for one subschema and, recursively, its children."""
    if not isinstance(node, dict):
        return node  # `true` / `false` schemas
    node = _older_drafts(node)
    out = {
        key: _children(key, value, where, refs) for key, value in node.items() if key not in ("$defs", "definitions")
    }
    if isinstance(out.get("items"), list):  # draft-07 tuple → 2020-12 prefixItems
        out["prefixItems"] = out.pop("items")
        if "additionalItems" in out:
            out["items"] = out.pop("additionalItems")
    if isinstance(out.get("$ref"), str):
        out["$ref"] = refs.get(out["$ref"]) or _ref(out["$ref"])
    if "type" not in out:
        out.update(_inferred_type(out))
    if is_property and not any(k in out for k in _TYPE_WORDS):
        out = {"type": "object", **out}  # an untyped property, as LangChain4j maps it
    if isinstance(out.get("type"), list):
        out = _type_array(out)
    return _with_items(out)


def _with_items(node: dict[str, Any]) -> dict[str, Any]:
    """Step 7: an array without `items` (or `prefixItems`) gets `items: {}`, any value, which is
    what leaving it out means; OpenAI refuses a tool whose array says nothing of its items."""
    if node.get("type") == "array" and "items" not in node and "prefixItems" not in node:
        return {**node, "items": {}}
    return node


def _older_drafts(node: dict[str, Any]) -> dict[str, Any]:
    """Step 4: draft-4 boolean exclusive bounds and draft-07 `dependencies`, in 2020-12 words."""
    node = dict(node)
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        if isinstance(node.get(exclusive), bool):
            if node.pop(exclusive) and bound in node:
                node[exclusive] = node.pop(bound)
    dependencies = node.pop("dependencies", None)
    if isinstance(dependencies, dict):
        for name, value in dependencies.items():
            key = "dependentRequired" if isinstance(value, list) else "dependentSchemas"
            node.setdefault(key, {}).setdefault(name, value)
    return node


def _children(key: str, value: Any, where: str, refs: dict[str, str]) -> Any:
    if key == "properties" and isinstance(value, dict):
        return {name: _walk(sub, where, refs, is_property=True) for name, sub in value.items()}
    if key in _SCHEMA_MAPS and isinstance(value, dict):
        return {name: _walk(sub, where, refs) for name, sub in value.items()}
    if key in _SCHEMA_LISTS and isinstance(value, list):
        return [_walk(sub, where, refs) for sub in value]
    if key == "items":
        return [_walk(s, where, refs) for s in value] if isinstance(value, list) else _walk(value, where, refs)
    if key in _SCHEMA_VALUES or key == "additionalProperties":
        return _walk(value, where, refs)
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
    """Step 3: `null` dropped; `type: [a, b]` → `anyOf [{type: a}, {type: b}]` (one type: just that type)."""
    types = list(dict.fromkeys(node.pop("type")))
    types = [t for t in types if t != "null"] or types
    if len(types) == 1:
        return {"type": types[0], **node}
    branches = [_with_items({"type": t}) for t in types]  # `items` beside them still applies
    if "anyOf" in node:  # both: keep the meaning with allOf
        return {**node, "allOf": [*node.get("allOf", []), {"anyOf": branches}]}
    return {"anyOf": branches, **node}


def _resolved(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A subschema that refers to a root definition (`{"$ref": "#/$defs/Args"}`) with the body of
    `Args` in its place (the definition is kept in `$defs`), through a chain of such references;
    any other subschema as it is. For the root and its composition branches: their properties are
    what the model must see."""
    seen: set[str] = set()
    while isinstance(ref := node.get("$ref"), str) and ref.startswith(_DEFS_PREFIXES[0]):
        name = _unescape(ref[len(_DEFS_PREFIXES[0]) :])
        if name in seen or not isinstance(defs.get(name), dict):
            break
        seen.add(name)
        rest = {k: v for k, v in node.items() if k != "$ref"}
        node = {**copy.deepcopy(defs[name]), **rest}
    return node


def _flatten_root(root: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """Step 5: a plain object at the root; the alternatives it cannot keep go into its description.
    A branch that refers to a definition is read as that definition (a union of models)."""
    root.pop("not", None)
    if root.get("type") != "object":
        root.pop("type", None)
    for branch in [_resolved(b, defs) for b in root.pop("allOf", []) or [] if isinstance(b, dict)]:
        _borrow_properties(root, [branch])
        required = [*root.get("required", []), *branch.get("required", [])]
        if required:
            root["required"] = list(dict.fromkeys(required))
    notes = []
    for key, rule in (("oneOf", "exactly one of these forms"), ("anyOf", "at least one of these forms")):
        branches = [_resolved(b, defs) for b in root.pop(key, []) or [] if isinstance(b, dict)]
        if not branches:
            continue
        _borrow_properties(root, branches)
        everywhere = set.intersection(*(set(b.get("required", [])) for b in branches))
        required = [*root.get("required", []), *sorted(everywhere)]
        if required:
            root["required"] = list(dict.fromkeys(required))
        forms = "; ".join(f"{i}) {_form(b)}" for i, b in enumerate(branches, 1))
        notes.append(f"Arguments: {rule} ({key}): {forms}.")
    if notes:
        root["description"] = " ".join([root["description"], *notes] if root.get("description") else notes)
    return root


def _borrow_properties(root: dict[str, Any], branches: list[dict[str, Any]]) -> None:
    merged = dict(root.get("properties") or {})
    for branch in branches:
        for name, sub in (branch.get("properties") or {}).items():
            merged.setdefault(name, sub)
    if merged:
        root["properties"] = merged


def _form(branch: dict[str, Any]) -> str:
    """One alternative in words: its properties, the required ones marked."""
    required = [r for r in branch.get("required", []) if isinstance(r, str)]
    names = list(dict.fromkeys([*(branch.get("properties") or {}), *required]))
    words = [f"{n} (required)" if n in required else n for n in names]
    return ", ".join(words) or "any object"


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
    for sub in _subschemas(node):
        _check_refs(sub, names, where)


def _unescape(token: str) -> str:
    """A JSON Pointer token back to the name (`~1` is `/`, `~0` is `~`)."""
    return token.replace("~1", "/").replace("~0", "~")
