"""From one Python type to the JSON Schema fragment the model reads: pydantic writes it.

`type_schema(T)` returns `(schema, defs)`: the fragment for `T` and the named definitions it
refers to with `{"$ref": "#/$defs/Name"}` (enums, models; a recursive model appears once).
It is pydantic's own `TypeAdapter(T).json_schema()`, cleaned:

- `title` keys dropped (noise the model pays tokens for);
- a `Decimal` pydantic leaves in a keyword (a `Field(ge=Decimal("0.01"))` bound) written as the
  JSON number it is (`0.01`), so the schema stays JSON;
- every object with `properties` gets `additionalProperties: false` unless it says otherwise —
  the validator rejects unknown fields at every depth, so the schema says so;
- attribute docstrings of a `TypedDict` or dataclass become field descriptions, as pydantic's
  `use_attribute_docstrings` does for a model that sets it (and as pydantic-ai does);
- a named type (model, enum, TypedDict) is filed under `$defs` and referred to.

This is the whole rule. `toolkit.tools.fast_schema` gives the same result faster for the
common types (the tests compare both over a table of types); reflection calls it, and it
falls back to `pydantic_schema` here for everything else.

Leaves out: descriptions and defaults of parameters (added by `toolkit.tools.parameters`),
strict mode (`toolkit.tools.strict`), and `$defs` name clashes between two different types of
one name (the caller detects and reports those).
"""

from __future__ import annotations

import ast
import dataclasses
import decimal
import inspect
import linecache
import re
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, Union

from pydantic import TypeAdapter

Schema = dict[str, Any]
Defs = dict[str, Schema]
UNION_TYPES = (Union, types.UnionType)


def type_schema(annotation: Any) -> tuple[Schema, Defs]:
    """The JSON Schema of `annotation` and the `$defs` it uses (the reference path)."""
    return pydantic_schema(annotation)


def pydantic_schema(annotation: Any) -> tuple[Schema, Defs]:
    """The schema pydantic generates for `annotation`, cleaned, named types filed in `$defs`."""
    schema = clean(TypeAdapter(annotation).json_schema())
    defs = schema.pop("$defs", {})
    if isinstance(annotation, type) and ("properties" in schema or "enum" in schema):
        defs[schema_name(annotation)] = schema
        schema = {"$ref": f"#/$defs/{schema_name(annotation)}"}
    _attribute_docs(annotation, schema, defs)
    return schema, defs


def _attribute_docs(annotation: Any, schema: Schema, defs: Defs) -> None:
    """Fill missing property descriptions of TypedDicts and dataclasses from attribute docstrings.

    pydantic does this for a model that sets `use_attribute_docstrings=True`; a TypedDict or a
    plain dataclass cannot say so, so reflection reads them as pydantic-ai does."""
    for cls in _documented_classes(annotation):
        body = defs.get(schema_name(cls)) or (schema if annotation is cls else None)
        properties = (body or {}).get("properties") or {}
        for name, doc in _docstrings(cls).items():
            prop = properties.get(name)
            if isinstance(prop, dict) and "description" not in prop:
                prop["description"] = doc


def _is_typeddict(cls: type) -> bool:
    """A `TypedDict` class from `typing` or `typing_extensions` (their metaclasses differ)."""
    return issubclass(cls, dict) and hasattr(cls, "__required_keys__") and hasattr(cls, "__total__")


def _documented_classes(annotation: Any, seen: set[int] | None = None) -> list[type]:
    seen = set() if seen is None else seen
    if id(annotation) in seen:
        return []
    seen.add(id(annotation))
    found: list[type] = []
    if isinstance(annotation, type) and (_is_typeddict(annotation) or dataclasses.is_dataclass(annotation)):
        found.append(annotation)
        try:
            hints = typing.get_type_hints(annotation)
        except Exception:
            hints = {}
        for hint in hints.values():
            found += _documented_classes(hint, seen)
    for arg in typing.get_args(annotation):
        found += _documented_classes(arg, seen)
    return found


def _docstrings(cls: type) -> dict[str, str]:
    """The attribute docstrings of `cls`: `attribute_docstrings`, else pydantic's reader."""
    found = attribute_docstrings(cls)
    return reference_docstrings(cls) if found is None else found


def reference_docstrings(cls: type) -> dict[str, str]:
    """pydantic's `extract_docstrings_from_cls(cls, use_inspect=True)`: the reference, slow
    (`inspect` parses the class's whole module to find it, then the class again)."""
    try:
        from pydantic._internal._docs_extraction import extract_docstrings_from_cls

        return extract_docstrings_from_cls(cls, use_inspect=True)
    except Exception:  # no source (e.g. defined in a REPL), or pydantic moved the helper
        return {}


def attribute_docstrings(cls: type) -> dict[str, str] | None:
    """`reference_docstrings(cls)` without parsing the module: `None` when unsure.

    The class statement is the only line of its file matching `class <Name>` (a name defined
    twice in one file, or a class made by a call, is left to `inspect`), at the margin exactly
    when the class is at module level. Its body runs to the first statement line at or left of
    that indentation. A body without quotes has no docstrings (checked only when no comment,
    backslash or open bracket can hide a continuation); else the body alone is parsed and read
    by pydantic's own visitor (a body that does not parse is left to `inspect`)."""
    try:
        file = inspect.getsourcefile(cls)
        if not file:
            return None
        linecache.checkcache(file)
        module = sys.modules.get(cls.__module__)
        lines = linecache.getlines(file, module.__dict__ if module else None)
    except Exception:
        return None
    name = cls.__name__
    if not lines or not name.isidentifier():
        return None
    text = "".join(lines)
    starts = [m.start() for m in re.finditer(rf"^[ \t]*class[ \t]+{name}\b", text, re.M)]
    if len(starts) != 1:
        return None
    first = text.count("\n", 0, starts[0])
    indent = len(lines[first]) - len(lines[first].lstrip())
    if (indent == 0) == ("." in cls.__qualname__):
        return None
    end = first + 1
    while end < len(lines):
        line = lines[end]
        stripped = line.lstrip()
        if stripped and not stripped.startswith("#") and len(line) - len(stripped) <= indent:
            break
        end += 1
    block = lines[first:end]
    body = "".join(block)
    if "'" not in body and '"' not in body:
        if "#" not in body and "\\" not in body and _balanced(body):
            return {}
        return None
    return _read_block(block, name)


def _balanced(text: str) -> bool:
    return all(text.count(a) == text.count(b) for a, b in ("()", "[]", "{}"))


def _read_block(block: list[str], name: str) -> dict[str, str] | None:
    try:
        from pydantic._internal._docs_extraction import DocstringVisitor, _dedent_source_lines

        tree = ast.parse(_dedent_source_lines(block))
    except Exception:  # not the whole class (a continuation left of it), or pydantic moved the helpers
        return None
    if len(tree.body) != 1:
        return None
    stmt = tree.body[0]
    if isinstance(stmt, ast.FunctionDef) and stmt.name == "dedent_workaround" and len(stmt.body) == 1:
        stmt = stmt.body[0]
    if not isinstance(stmt, ast.ClassDef) or stmt.name != name:
        return None
    visitor = DocstringVisitor()
    visitor.generic_visit(stmt)
    return visitor.attrs


def schema_name(cls: type) -> str:
    """The `$defs` key of a named type: its class name, made safe for a JSON pointer."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", cls.__name__)


def clean(schema: Schema) -> Schema:
    """Drop `title`s; `Decimal`s as JSON numbers; close objects that list properties
    (`additionalProperties: false`)."""

    def fix(node: Schema) -> Schema:
        node = {k: _json_number(v) for k, v in node.items() if k != "title"}
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        return node

    return map_schema(schema, fix)


def _json_number(value: Any) -> Any:
    """A `Decimal` pydantic left in a keyword (`Field(ge=Decimal("0.01"))` → `minimum`) as a JSON number."""
    if isinstance(value, decimal.Decimal) and value.is_finite():
        return int(value) if value == value.to_integral_value() else float(value)
    return value


_MAP_KEYS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LIST_KEYS = ("anyOf", "oneOf", "allOf", "prefixItems")
_ONE_KEYS = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
)


def map_schema(node: Any, fn: Callable[[Schema], Schema]) -> Any:
    """Rebuild a schema bottom-up, applying `fn` to every sub-schema (never to name maps)."""
    if not isinstance(node, dict):
        return node  # `true` / `false` schemas
    out: Schema = {}
    for key, value in node.items():
        if key in _MAP_KEYS and isinstance(value, dict):
            out[key] = {name: map_schema(sub, fn) for name, sub in value.items()}
        elif key in _LIST_KEYS and isinstance(value, list):
            out[key] = [map_schema(sub, fn) for sub in value]
        elif key in _ONE_KEYS:
            out[key] = map_schema(value, fn)
        else:
            out[key] = value
    return fn(out)
