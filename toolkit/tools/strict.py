"""OpenAI strict mode: the same parameters schema, rewritten so the gateway can enforce it.

With `"strict": true` the gateway constrains decoding to the schema, which only works for a
subset of JSON Schema. `strict_schema()` rewrites every object and value, bottom-up:

1. objects (`"type": "object"`, a type list holding it, or `properties` without a `type`):
   `additionalProperties: false`; every property listed in `required`; the ones
   that were optional become nullable (`anyOf [..., {"type": "null"}]`) — the model sends
   `null`, and the executor turns `null` back into the default (a field whose type takes None,
   `int | None = 5`, gets None: `null` is one of its values, as in the OpenAI Agents SDK) — but
   for one that takes one value (`const`, a tagged union's tag), which the model sends as it is;
2. `default` and OpenAPI's `discriminator` are dropped, `oneOf` becomes `anyOf`, a `$ref` with
   siblings moves into `anyOf`;
3. keywords strict mode does not enforce (`minLength`, `uniqueItems`, unknown `format`s, ...)
   move into the description as notes, so the model still reads them;
4. what cannot be strict is a `ToolDefinitionError`: a value of any type (`Any`, bare
   `list`), a free-form object (`dict[str, T]`), a tuple (`prefixItems`).

Leaves out: the size limits of strict mode (100 properties, 5 levels of nesting).
"""

from __future__ import annotations

from typing import Any

from toolkit.errors import ToolDefinitionError, a_kind_of

_NOTES = (
    "minLength",
    "maxLength",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
)
_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
_TYPED = ("type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const")
_NULL = {"type": "null"}


def strict_schema(schema: dict[str, Any], where: str) -> dict[str, Any]:
    """The strict form of a parameters schema; `where` names the tool in errors. A schema nested
    past Python's recursion limit (a hand-written spec, an MCP server's) is refused as such: strict
    mode itself allows only a few levels of nesting."""
    try:
        return _walk(schema, "", where)
    except RecursionError:
        raise ToolDefinitionError(
            where,
            "its parameters schema nests too deeply to make strict (past Python's recursion limit; OpenAI "
            "strict mode allows only a few levels of nesting)",
            "flatten the schema, or register the tool without strict mode",
        ) from None


def _walk(node: Any, path: str, where: str) -> Any:
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("properties", "$defs", "definitions"):  # `definitions`: draft-07's `$defs`
            _shaped(value, dict, key, path, where)
            prefix = f"{key}." if key != "properties" else (f"{path}." if path else "")
            out[key] = {n: _value(s, prefix + n, where) for n, s in value.items()}
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            _shaped(value, list, key, path, where)
            out[key] = [_value(s, path, where) for s in value]
        elif key == "required":
            _shaped(value, list, key, path, where)
            out[key] = value
        elif key == "items" and isinstance(value, list):  # draft-07's tuple, as `prefixItems`
            _fail(path, where, "does not support tuples (items as a list)", "use list[...] or a pydantic model")
        elif key == "items":
            out[key] = _value(value, f"{path}[]", where)
        elif key in ("additionalProperties", "not"):  # `additionalProperties: false` is strict mode's own
            out[key] = _walk(value, path, where)
        else:
            out[key] = value
    return _fix(out, path, where)


def _value(node: Any, path: str, where: str) -> Any:
    """`_walk` of the schema of a value (a property, an item, an alternative): a boolean schema
    there (`true`: any value, `false`: none) cannot be strict."""
    if node is True:
        _fail(path, where, "needs a type for every value, but this one accepts any value", _CONCRETE)
    if node is False:
        _fail(path, where, "cannot take a schema that accepts no value (false)", "remove the parameter")
    if not isinstance(node, dict):
        _not_json_schema(path, where, f"the schema is {a_kind_of(node)}, where an object belongs", _A_SCHEMA)
    return _walk(node, path, where)


_BELONGS: dict[type, tuple[str, str]] = {
    dict: ("an object of named schemas", 'write it as {"name": {...}, ...}'),
    list: ("a list of schemas", "write it as [{...}, {...}]"),
}
_NAMES = ("a list of property names", 'write it as ["name", ...]')
_A_SCHEMA = 'write it as {"type": "string"}, say'


def _shaped(value: Any, kind: type, key: str, path: str, where: str) -> None:
    """A keyword's value of the shape JSON Schema gives it (`properties` an object of schemas,
    `anyOf` a list of them, `required` a list of names), or a `ToolDefinitionError` saying so: a
    hand-written schema read otherwise raised AttributeError, or read `"required": "city"` as
    the letters c, i, t, y."""
    if isinstance(value, kind):
        return
    belongs, fix = _NAMES if key == "required" else _BELONGS[kind]
    _not_json_schema(path, where, f"{key!r} is {a_kind_of(value)}, where {belongs} belongs", fix)


def _not_json_schema(path: str, where: str, problem: str, fix: str) -> None:
    at = f"{where}, parameter {path!r}" if path else where
    raise ToolDefinitionError(at, f"its parameters schema is not JSON Schema: {problem}", fix)


def _fix(node: dict[str, Any], path: str, where: str) -> dict[str, Any]:
    if "properties" in node and "type" not in node:  # an object by its properties (the Agents SDK reads it so)
        node["type"] = "object"
    _refuse(node, path, where)
    node.pop("default", None)
    node.pop("discriminator", None)  # OpenAPI's, not strict mode's; the `const` tags already discriminate
    if "oneOf" in node:
        node["anyOf"] = node.pop("oneOf")
    if "$ref" in node and len(node) > 1:
        node["anyOf"] = [{"$ref": node.pop("$ref")}]
    _move_notes(node)
    if _is_object(node):
        _close(node)
    return node


def _is_object(node: dict[str, Any]) -> bool:
    """`"type": "object"`, or a type list that holds it (`["object", "null"]`, a nullable object)."""
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


_CONCRETE = "give it a concrete type (not Any, a bare list or a bare dict)"


def _fail(path: str, where: str, problem: str, fix: str) -> None:
    at = f"{where}, parameter {path!r}" if path else where
    raise ToolDefinitionError(at, f"OpenAI strict mode {problem}", f"{fix}, or register the tool without strict mode")


def _refuse(node: dict[str, Any], path: str, where: str) -> None:
    def fail(problem: str, fix: str) -> None:
        _fail(path, where, problem, fix)

    if "prefixItems" in node:
        fail("does not support tuples (prefixItems)", "use list[...] or a pydantic model")
    if not any(key in node for key in _TYPED):
        fail("needs a type for every value, but this one accepts any value", _CONCRETE)
    if _is_object(node) and node.get("additionalProperties") not in (None, False):
        fail(
            "needs every object to list its properties, but this is a free-form dict",
            "use a pydantic model with named fields",
        )
    if _is_object(node) and "properties" not in node:
        fail(
            "needs every object to list its properties, but this object lists none",
            "use a pydantic model with named fields",
        )


def _move_notes(node: dict[str, Any]) -> None:
    notes = [f"{key}={node.pop(key)}" for key in _NOTES if key in node]
    if "format" in node and node["format"] not in _FORMATS:
        notes.append(f"format={node.pop('format')}")
    if notes:
        text = ", ".join(notes)
        node["description"] = f"{node['description']} ({text})" if node.get("description") else text


def _close(node: dict[str, Any]) -> None:
    required = set(node.get("required", ()))
    node["properties"] = {
        name: (prop if name in required or _one_value(prop) else _nullable(prop))
        for name, prop in node["properties"].items()
    }
    node["required"] = list(node["properties"])
    node["additionalProperties"] = False


def _one_value(prop: dict[str, Any]) -> bool:
    """A field that takes one value (`const`, an `enum` of one), such as a tagged union's tag
    `kind: Literal["cat"] = "cat"`: leaving it out means that value, so it stays required as it is.
    Made nullable, `null` fitted the schema, and a tagged union reads its tag before any default."""
    return "const" in prop or (isinstance(prop.get("enum"), list) and len(prop["enum"]) == 1)


def _nullable(prop: dict[str, Any]) -> dict[str, Any]:
    kind = prop.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind) or _NULL in prop.get("anyOf", ()):
        return prop
    if "anyOf" in prop:
        return {**prop, "anyOf": [*prop["anyOf"], _NULL]}
    description = {"description": prop["description"]} if "description" in prop else {}
    inner = {k: v for k, v in prop.items() if k != "description"}
    return {"anyOf": [inner, _NULL], **description}
