"""From one Python type to the JSON Schema fragment the model reads, with pydantic as the reference.

`type_schema(T)` returns `(schema, defs)`: the fragment for `T` and the named definitions it
refers to with `{"$ref": "#/$defs/Name"}` (enums, models; a recursive model appears once).

Two paths, one result. The common types — `str`, `int`, `float`, `bool`, `None`, `Any`,
string/int `Literal`s, string/int enums, `list`/`set`/`dict[str, ...]` of those, `Optional`
and unions, `date`/`datetime`/`time`/`timedelta`/`UUID` — are written out directly: a few
lines that produce exactly what pydantic would (the tests compare both over a table of types),
without building a validator first. Everything else — pydantic models, dataclasses, TypedDicts,
other `Annotated` metadata — goes to `pydantic.TypeAdapter(T).json_schema()`. (Plain bounds and
lengths, `Field(ge=1, max_length=9, description=...)`, take the fast path.)
Both paths are cached per type and cleaned alike: `title` keys dropped (noise the model pays
tokens for), and every object with `properties` gets `additionalProperties: false` unless it
says otherwise — the validator rejects unknown fields at every depth, so the schema says so.

Leaves out: descriptions and defaults of parameters (added by `toolkit.tools.reflect`), strict mode
(`toolkit.tools.strict`), and `$defs` name clashes between two different types of one name (the
caller detects and reports those).
"""

from __future__ import annotations

import datetime
import enum
import inspect
import re
import types
import typing
import uuid
from collections.abc import Callable, Iterable
from typing import Annotated, Any, Literal, Union

import annotated_types as at
from pydantic import BaseModel, TypeAdapter
from pydantic.fields import FieldInfo

Schema = dict[str, Any]
Defs = dict[str, Schema]

_SCALARS: dict[Any, Schema] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    None: {"type": "null"},
    Any: {},
    datetime.date: {"format": "date", "type": "string"},
    datetime.datetime: {"format": "date-time", "type": "string"},
    datetime.time: {"format": "time", "type": "string"},
    datetime.timedelta: {"format": "duration", "type": "string"},
    uuid.UUID: {"format": "uuid", "type": "string"},
}
_CACHE: dict[Any, tuple[Schema, Defs]] = {}
UNION_TYPES = (Union, types.UnionType)


class _Slow(Exception):
    """Raised inside the fast path: this type is pydantic's job."""


def type_schema(annotation: Any) -> tuple[Schema, Defs]:
    """The JSON Schema of `annotation` and the `$defs` it uses; cached, do not mutate."""
    try:
        return _CACHE[annotation]
    except KeyError:
        pass
    except TypeError:  # unhashable annotation (e.g. Annotated[..., FieldInfo]): no cache
        return _compute(annotation)
    result = _CACHE[annotation] = _compute(annotation)
    return result


def clear_cache() -> None:
    """Forget every cached type schema (for benchmarks measuring first-time reflection)."""
    _CACHE.clear()


def _compute(annotation: Any) -> tuple[Schema, Defs]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return pydantic_schema(annotation)
    defs: Defs = {}
    try:
        return fast_schema(annotation, defs), defs
    except _Slow:
        return pydantic_schema(annotation)


def fast_schema(annotation: Any, defs: Defs) -> Schema:
    """The schema of a common type, written out; raises `_Slow` for anything else."""
    try:
        scalar = _SCALARS.get(annotation)
    except TypeError:  # unhashable
        scalar = None
    if scalar is not None:
        return dict(scalar)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in UNION_TYPES:
        return _union(args, defs)
    if origin is Annotated:
        return _constrained(args[0], args[1:], defs)
    if origin is Literal:
        return _literal(args)
    if origin in (list, set, frozenset) and len(args) == 1:
        out: Schema = {"items": fast_schema(args[0], defs), "type": "array"}
        return out | {"uniqueItems": True} if origin is not list else out
    if origin is dict and len(args) == 2 and args[0] is str:
        return {"additionalProperties": fast_schema(args[1], defs), "type": "object"}
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return _enum(annotation, defs)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _merge_model(annotation, defs)
    raise _Slow


_BOUNDS = {
    at.Ge: ("ge", "minimum"),
    at.Gt: ("gt", "exclusiveMinimum"),
    at.Le: ("le", "maximum"),
    at.Lt: ("lt", "exclusiveMaximum"),
    at.MultipleOf: ("multiple_of", "multipleOf"),
}
_LENGTHS = {at.MinLen: ("min_length", "minLength", "minItems"), at.MaxLen: ("max_length", "maxLength", "maxItems")}
_FIELD_ATTRS = (
    "default",
    "default_factory",
    "alias",
    "validation_alias",
    "serialization_alias",
    "title",
    "examples",
    "json_schema_extra",
    "discriminator",
    "deprecated",
    "field_title_generator",
)
_PLAIN_FIELD = FieldInfo()


def constraints(metadata: Iterable[Any]) -> list[Any] | None:
    """The `annotated_types` bounds in `Annotated` metadata (`Field(ge=1)` included), or
    `None` if anything else is there (a description is allowed)."""
    out: list[Any] = []
    for m in metadata:
        if isinstance(m, FieldInfo):
            if any(getattr(m, a) != getattr(_PLAIN_FIELD, a) for a in _FIELD_ATTRS):
                return None
            inner = constraints(m.metadata)
            if inner is None:
                return None
            out += inner
        elif type(m) in _BOUNDS or type(m) in _LENGTHS:
            out.append(m)
        else:
            return None
    return out


def _constrained(base: Any, metadata: tuple[Any, ...], defs: Defs) -> Schema:
    found = constraints(metadata)
    if found is None:
        raise _Slow
    schema = fast_schema(base, defs)
    kind = schema.get("type")
    for m in found:
        if type(m) in _BOUNDS and kind in ("integer", "number"):
            attr, key = _BOUNDS[type(m)]
        elif type(m) in _LENGTHS and kind in ("string", "array"):
            attr, str_key, list_key = _LENGTHS[type(m)]
            key = str_key if kind == "string" else list_key
        else:
            raise _Slow
        schema[key] = getattr(m, attr)
    descriptions = [m.description for m in metadata if isinstance(m, FieldInfo) and m.description]
    return schema | ({"description": descriptions[-1]} if descriptions else {})


def _union(args: tuple[Any, ...], defs: Defs) -> Schema:
    return {"anyOf": [fast_schema(a, defs) for a in args]}


def _literal(values: tuple[Any, ...]) -> Schema:
    kinds = {type(v) for v in values}
    if kinds not in ({str}, {int}):
        raise _Slow
    kind = "string" if kinds == {str} else "integer"
    if len(values) == 1:
        return {"const": values[0], "type": kind}
    return {"enum": list(values), "type": kind}


def _enum(cls: type[enum.Enum], defs: Defs) -> Schema:
    values = [m.value for m in cls]
    kinds = {type(v) for v in values}
    if kinds not in ({str}, {int}):
        raise _Slow
    doc = inspect.cleandoc(cls.__doc__) if cls.__doc__ else None
    body: Schema = {"description": doc} if doc and doc != "An enumeration." else {}
    body |= {"enum": values, "type": "string" if kinds == {str} else "integer"}
    _add_def(defs, schema_name(cls), body)
    return {"$ref": f"#/$defs/{schema_name(cls)}"}


def _merge_model(model: type[BaseModel], defs: Defs) -> Schema:
    """A model inside a fast-path type: pydantic writes it (cached), we merge its `$defs`."""
    schema, model_defs = type_schema(model)
    for name, body in model_defs.items():
        _add_def(defs, name, body)
    return schema


def _add_def(defs: Defs, name: str, body: Schema) -> None:
    if defs.setdefault(name, body) != body:
        raise NameClash(name)


class NameClash(Exception):
    """Two different types want the same `$defs` name."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def pydantic_schema(annotation: Any) -> tuple[Schema, Defs]:
    """The schema pydantic generates for `annotation`, cleaned, named types filed in `$defs`."""
    schema = clean(TypeAdapter(annotation).json_schema())
    defs = schema.pop("$defs", {})
    if isinstance(annotation, type) and ("properties" in schema or "enum" in schema):
        defs[schema_name(annotation)] = schema
        schema = {"$ref": f"#/$defs/{schema_name(annotation)}"}
    return schema, defs


def schema_name(cls: type) -> str:
    """The `$defs` key of a named type: its class name, made safe for a JSON pointer."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", cls.__name__)


def clean(schema: Schema) -> Schema:
    """Drop `title`s; close objects that list properties (`additionalProperties: false`)."""

    def fix(node: Schema) -> Schema:
        node = {k: v for k, v in node.items() if k != "title"}
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        return node

    return map_schema(schema, fix)


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
