"""The speed-ups behind reflection: the same schemas as `toolkit.tools.json_schema`, sooner.

Read `toolkit.tools.json_schema` first: pydantic writes every schema, and that is the rule.
This module only makes reflection cheap (the reflection benchmark's target), four ways:

1. **a hand-written type path** — `str`, `int`, `float`, `bool`, `None`, `Any`, `Literal`s of
   JSON scalars, string/int enums, `list`/`set`/`tuple`/`dict` of those (and `Sequence`,
   `Mapping`, `collections.abc.Set`, their mutable forms and `typing.List`..., a mapping's
   keys `str`, `int`, `float`, `bool` or `Any`), `Optional` and unions,
   `date`/`datetime`/`time`/`timedelta`/`UUID`/`Decimal`/`bytes`/`Path`, TypedDicts and plain
   dataclasses (recursive ones too), and the common constraints (`ge`/`gt`/`le`/`lt`/
   `multiple_of` on `int`/`float`/`Decimal`, `max_digits`/`decimal_places` on `Decimal`,
   `min_length`/`max_length` on strings, bytes, arrays and mappings, a `pattern`
   pydantic-core compiles, `description`, `title`, `examples` of scalars; `annotated_types`
   groups such as `Len` and `Interval` read as their members; not an infinite bound, a
   `multiple_of` of 0 or less, a length outside 64 unsigned bits, which pydantic leaves out or
   refuses, nor a title in a union pydantic compares members of) are
   written out directly, keys in pydantic's order, without building a pydantic validator;
   anything else falls back to `json_schema.pydantic_schema`. Results are cached per type. A
   class's fields and attribute docstrings are read once per class: its type hints without
   `typing.get_type_hints` when they are type objects, plain class names or builtin
   collections of them (`evaluated_hints`). `tests/test_type_schema*.py` and `tests/test_fast_schema.py` check
   the fast path equals pydantic's (tables of types, generated classes and signatures);
2. **the "obviously valid" shortcut** — `obviously_valid(T, default)` says when a default
   fits its type without asking a validator (`limit: int = 10`), so registration does not
   build one just to check `10` is an `int`; `obviously_within` and `parts_schema` answer for
   `Annotated[T, Field(...)]` from its parts, reading each `Field` as if its default and alias
   (`TAKEN_OFF`) were not given, so a parameter's type need not be built to be described;
   `parts_schema` hands the constraints it read for the schema to the default check; a default
   the validator could refuse or stumble on (`()` for `tuple[int, str]`, `None` under metadata,
   a union with a member whose metadata may raise) is the validator's;
3. **the annotation cache** — string annotations (`from __future__ import annotations`): a
   plain name (`"str"`, `"Address"`) is looked up as `eval` would find it (`plain_name`), and
   anything else is compiled once per distinct text (`compiled`);
4. **plain Google and Sphinx docstrings** — `google_docstring(text)` reads the commonest
   docstring (a summary, `Args:` entries, the usual sections) in a few lines instead of
   griffe's full parser; anything it is not sure of (NumPy, Sphinx, an unknown section, a
   section without a blank line before it or a line under its title, only a `Returns:`, an
   indented summary line griffe may read as an admonition, a code fence) is `None`, and
   griffe decides.
   A docstring griffe reads as Sphinx style (`:param x: ...`) is read by `sphinx_docstring`
   from griffe's own lines, as griffe's Sphinx parser reads them, when every parameter field
   is the plain `:param name: text`. The tests compare both with griffe over tables of
   docstrings and generated reST ones (`tests/test_fast_schema_properties.py` draws all three
   promises' input with hypothesis). (NumPy-style docstrings have their own reader,
   `toolkit.tools.numpy_docstring`.)

`clear_cache()` forgets all of it (type schemas, class parts, patterns, source texts and the
class statements found in them), so a benchmark's "cold" figure pays every step.

Leaves out: anything that changes a result. If the fast path and pydantic ever disagree, the
fast path is wrong.
"""

from __future__ import annotations

import builtins
import collections.abc
import dataclasses
import datetime
import decimal
import enum
import inspect
import keyword
import math
import operator
import pathlib
import re
import sys
import types
import typing
import uuid
import weakref
from collections.abc import Callable, Collection, Iterable, Mapping
from types import CodeType
from typing import Annotated, Any, Literal

import annotated_types as at
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import SchemaValidator, core_schema

from toolkit.tools.decorator import is_marker, marker_in
from toolkit.tools.json_schema import (
    UNION_TYPES,
    Defs,
    Schema,
    _docstrings,
    _is_typeddict,
    flag_schema,
    is_flag,
    pydantic_schema,
    schema_name,
)

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
    bytes: {"format": "binary", "type": "string"},
    decimal.Decimal: {"anyOf": [{"type": "number"}, {"type": "string"}]},
    pathlib.Path: {"format": "path", "type": "string"},
    pathlib.PurePath: {"format": "path", "type": "string"},
    list: {"items": {}, "type": "array"},
    tuple: {"items": {}, "type": "array"},
    set: {"items": {}, "type": "array", "uniqueItems": True},
    dict: {"additionalProperties": True, "type": "object"},
}
_CACHE: dict[Any, tuple[Schema, Defs]] = {}


class _Slow(Exception):
    """Raised inside the fast path: this type is pydantic's job."""


class MarkedField(Exception):
    """A field of a class a parameter is typed with (a TypedDict, dataclass or pydantic model)
    is marked with `Param` or `MemoryId`, which only a tool's own parameters read: pydantic drops
    both without a word (the description lost, the memory id asked of the model). The caller
    (`toolkit.tools.parameters`) says so as a developer error."""

    owner: type
    """The class whose field is marked."""
    field: str
    """The marked field's name."""
    marker: Any
    """The marker found (a `Param` or `MemoryId`)."""

    def __init__(self, owner: type, field: str, marker: Any) -> None:
        super().__init__(owner, field, marker)
        self.owner, self.field, self.marker = owner, field, marker


def marked_field(annotation: Any, seen: set[int] | None = None) -> MarkedField | None:
    """`MarkedField` for the first marked field of a class in `annotation` (a pydantic model,
    TypedDict or dataclass: the class, or one inside its arguments or its fields' types), or
    None: what the fast path's own check (`_parts`) does not see, on pydantic's path. pydantic
    keeps the markers it does not know in a model field's `metadata`."""
    seen = set() if seen is None else seen
    if id(annotation) in seen:
        return None
    seen.add(id(annotation))
    if isinstance(annotation, type):
        for name, tp, metadata in _class_fields(annotation):
            marker = next(filter(is_marker, metadata), None) or marker_in(tp)
            if marker is not None:
                return MarkedField(annotation, name, marker)
            found = marked_field(tp, seen)
            if found is not None:
                return found
        return None
    for arg in typing.get_args(annotation):
        found = marked_field(arg, seen)
        if found is not None:
            return found
    return None


def _class_fields(cls: type) -> list[tuple[str, Any, list[Any]]]:
    """A model's, TypedDict's or dataclass's fields as (name, type, metadata kept apart); none
    for any other class, or when its annotations cannot be read (pydantic says so then)."""
    if issubclass(cls, BaseModel):
        return [(name, info.annotation, info.metadata) for name, info in cls.model_fields.items()]
    if not (_is_typeddict(cls) or dataclasses.is_dataclass(cls)):
        return []
    try:
        return [(name, tp, []) for name, tp in typing.get_type_hints(cls, include_extras=True).items()]
    except Exception:
        return []


def type_schema(annotation: Any) -> tuple[Schema, Defs]:
    """`json_schema.type_schema(annotation)`, the same result, faster; cached, do not mutate."""
    try:
        found = _CACHE.get(annotation)
    except TypeError:  # unhashable annotation (e.g. Annotated[..., FieldInfo]): no cache
        return _compute(annotation)
    if found is None:
        found = _CACHE[annotation] = _compute(annotation)
    return found


def clear_cache() -> None:
    """Forget every cached type schema, class, pattern and compiled annotation (benchmarks
    measure first time). What a module's source says of its class statements is kept as
    `linecache` keeps the source (`json_schema.clear_source_cache` forgets it)."""
    _CACHE.clear()
    _CODE.clear()
    _PARTS.clear()
    _PATTERNS.clear()


def origin_of(tp: Any) -> Any:
    """`typing.get_origin(tp)`, a class answered without asking it (a class has none, but for
    `typing.Generic`, its own): `get_origin` is a Python function of three `isinstance` checks,
    some 1k instructions, and most types met are plain classes (`str`, `int`, an enum, a model)."""
    if isinstance(tp, type) and tp is not typing.Generic:
        return None
    return typing.get_origin(tp)


def _compute(annotation: Any) -> tuple[Schema, Defs]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _pydantic_schema(annotation)
    defs: Defs = {}
    owners: dict[str, Any] = {}
    try:
        schema = fast_schema(annotation, defs, owners)
    except (_Slow, NameClash):  # NameClash: pydantic gives two same-named types two names
        return _pydantic_schema(annotation)
    if _only_ref(schema) and origin_of(annotation) is Annotated:
        return _members_checked(pydantic_schema(annotation))  # `Annotated[Enum, Field()]`: the enum in place
    return schema, _ordered(defs, annotation, owners.get(_RECURSIVE, ()))


def _pydantic_schema(annotation: Any) -> tuple[Schema, Defs]:
    """`pydantic_schema(annotation)`, refused (`MarkedField`) when a model in it has a marked field,
    and (`EmptyEnum`) when it holds an enum without members."""
    marked = marked_field(annotation)
    if marked is not None:
        raise marked
    return _members_checked(pydantic_schema(annotation))


class EmptyEnum(Exception):
    """A schema holds `{"enum": []}`: an enum without members, which no value the model sends is
    one of. The caller (`toolkit.tools.parameters`) says so as a developer error."""

    def __init__(self, name: str | None) -> None:
        super().__init__(name)
        self.name = name
        """The enum's `$defs` name; `None` for one written in place (inside a model, a list, a dict)."""


def _members_checked(result: tuple[Schema, Defs]) -> tuple[Schema, Defs]:
    """pydantic's schema, refused (`EmptyEnum`) when it holds an enum without members. Only
    pydantic's schemas are looked at: the fast path leaves such an enum to pydantic (`_enum`)."""
    schema, defs = result
    for name, body in defs.items():
        if body.get("enum") == []:
            raise EmptyEnum(name)
    if _holds_empty_enum(result):
        raise EmptyEnum(None)
    return result


def _holds_empty_enum(node: Any) -> bool:
    """Whether an `{"enum": []}` is anywhere in `node`: pydantic writes such an enum in place (in a
    model's property, a list's items), not under `$defs`. A walk with a list of what is left to look
    at (a generator per level cost a model's schema more than the rest of its reflection)."""
    left = [node]
    while left:
        item = left.pop()
        if isinstance(item, dict):
            if item.get("enum") == []:
                return True
            left.extend(item.values())
        elif isinstance(item, (list, tuple)):
            left.extend(item)
    return False


def _only_ref(schema: Schema) -> bool:
    """`list(schema) == ["$ref"]`, without the list."""
    return len(schema) == 1 and "$ref" in schema


UNREAD: Any = object()
"""`parts_schema`'s constraints when it did not read them (a cached schema)."""


def parts_schema(
    annotation: Any, metadata: tuple[Any, ...], written: Any
) -> tuple[tuple[Schema, Defs] | None, list[Any] | None]:
    """For `Annotated[annotation, *metadata]`: its schema and `$defs` when the fast path writes
    them (else `None`: the caller asks `type_schema`, which asks pydantic), and the metadata's
    `constraints` (`UNREAD` when a cached schema answered), so the default check
    (`obviously_within(..., found=...)`) does not read them again. `written`: that type, built
    (the answer is `type_schema(written)`, cached alike), or `None` for an unbuilt one, each
    `Field`'s `TAKEN_OFF` arguments taken off (not cached: each such type is new)."""
    cacheable = written is not None
    if cacheable:
        try:
            hit = _CACHE.get(written)
        except TypeError:  # unhashable: no cache, as `type_schema`
            cacheable = False
        else:
            if hit is not None:
                return hit, UNREAD
    found = constraints(metadata, written is None)
    defs: Defs = {}
    owners: dict[str, Any] = {}
    try:
        schema = _constrained(annotation, metadata, defs, owners, found=found)
    except (_Slow, NameClash):
        return None, found
    if _only_ref(schema):
        return None, found  # as `_compute` says
    result = schema, _ordered(defs, None, owners.get(_RECURSIVE, ()))
    if cacheable:
        _CACHE[written] = result
    return result, found


def _ordered(defs: Defs, annotation: Any, recursive: Collection[str] = ()) -> Defs:
    """`$defs` in pydantic's order: sorted by name, but the annotation's own class (a TypedDict,
    a dataclass) last, as `json_schema.pydantic_schema` files it, unless the class is inside
    itself (one of the `recursive` names: then pydantic filed it with the others)."""
    if not defs:
        return defs
    own = schema_name(annotation) if isinstance(annotation, type) else None
    if own in recursive:
        own = None
    return dict(sorted(defs.items(), key=lambda item: (item[0] == own, item[0])))


_RECURSIVE = "#recursive"
"""The key under which `owners` collects the names of the classes met inside themselves (no
`$defs` name has a `#`)."""


# --- 1. the hand-written type path ------------------------------------------------------------


def fast_schema(annotation: Any, defs: Defs, owners: dict[str, Any] | None = None) -> Schema:
    """The schema of a common type, written out; raises `_Slow` for anything else.

    `owners` maps each `$defs` name written (or being written) so far to its class: one name
    for two classes is pydantic's job; a class met again inside itself is a `$ref`."""
    owners = {} if owners is None else owners
    if isinstance(annotation, type) or annotation is None:  # the keys of `_SCALARS` (`Any` is a class)
        try:
            scalar = _SCALARS.get(annotation)
        except TypeError:  # unhashable
            scalar = None
        if scalar is not None:
            return dict(scalar)
        if isinstance(annotation, type) and annotation is not typing.Generic:
            return _named(annotation, defs, owners)  # a class: `get_origin` gives `None`, asked no more
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in UNION_TYPES:
        return _union(args, defs, owners)
    if origin is Annotated:
        return _constrained(args[0], args[1:], defs, owners)
    if origin is Literal:
        return _literal(args)
    if origin in _ARRAYS and len(args) == 1:
        out: Schema = {"items": fast_schema(args[0], defs, owners), "type": "array"}
        return out | {"uniqueItems": True} if _ARRAYS[origin] else out
    if origin is tuple:
        return _tuple(args, defs, owners)
    if origin in _MAPPINGS and len(args) == 2 and args[0] in _PLAIN_KEYS:
        values = fast_schema(args[1], defs, owners)  # `{}` for Any: pydantic writes `true` then
        return {"additionalProperties": values or True, "type": "object"}
    if isinstance(annotation, type):
        return _named(annotation, defs, owners)
    raise _Slow


def _named(cls: type, defs: Defs, owners: dict[str, Any]) -> Schema:
    """An enum, a model, a TypedDict or a dataclass (filed under `$defs`); `_Slow` for any other class."""
    if issubclass(cls, enum.Enum):
        return _enum(cls, defs, owners)
    if issubclass(cls, BaseModel):
        return _merge_model(cls, defs)
    if _is_typeddict(cls):
        return _class(cls, defs, owners, _typed_dict_fields)
    if dataclasses.is_dataclass(cls):
        return _class(cls, defs, owners, _dataclass_fields)
    raise _Slow


_ARRAYS = {
    list: False,
    collections.abc.Sequence: False,
    collections.abc.MutableSequence: False,
    set: True,
    frozenset: True,
    collections.abc.Set: True,
    collections.abc.MutableSet: True,
}
"""The generic collections written as arrays (`typing.List`, `Sequence[int]`...), and whether
their items are unique."""
_MAPPINGS = (dict, collections.abc.Mapping, collections.abc.MutableMapping)
_PLAIN_KEYS = (str, int, float, bool, Any)
"""Mapping keys pydantic writes nothing for (their schema is at most a `type`: no
`propertyNames`, no `patternProperties`)."""

_BOUNDS = {
    at.Ge: ("ge", "minimum"),
    at.Gt: ("gt", "exclusiveMinimum"),
    at.Le: ("le", "maximum"),
    at.Lt: ("lt", "exclusiveMaximum"),
    at.MultipleOf: ("multiple_of", "multipleOf"),
}
_LENGTHS = {at.MinLen: "min_length", at.MaxLen: "max_length"}
_SIMPLE = frozenset([*_BOUNDS, *_LENGTHS])
"""The metadata `constraints` takes as it is."""
_LENGTH_KEYS = {
    "string": ("minLength", "maxLength"),
    "bytes": ("minLength", "maxLength"),
    "array": ("minItems", "maxItems"),
    "object": ("minProperties", "maxProperties"),
}
_FIELD_ATTRS = (
    "default",
    "default_factory",
    "alias",
    "validation_alias",
    "serialization_alias",
    "json_schema_extra",
    "discriminator",
    "deprecated",
    "field_title_generator",
)
"""`Field` arguments that change more than a bound (`title` is allowed: the schema drops titles)."""
_PLAIN_FIELD = FieldInfo()
_PLAIN_VALUES = [(attr, getattr(_PLAIN_FIELD, attr)) for attr in _FIELD_ATTRS]
TAKEN_OFF = ("default", "default_factory", "alias", "validation_alias", "serialization_alias")
"""The `Field` arguments a parameter takes for itself (its default and wire name): reflection
takes them off a `Field` before the `Field` describes the type (`parameters._plain`)."""
_TYPE_VALUES = [(attr, plain) for attr, plain in _PLAIN_VALUES if attr not in TAKEN_OFF]
_READ_ALL, _PLAIN_ALL = operator.attrgetter(*(a for a, _ in _PLAIN_VALUES)), tuple(p for _, p in _PLAIN_VALUES)
_READ_TYPE, _PLAIN_TYPE = operator.attrgetter(*(a for a, _ in _TYPE_VALUES)), tuple(p for _, p in _TYPE_VALUES)
"""Those values read at once (`_PLAIN_VALUES`, `_TYPE_VALUES`): a `Field` is plain when they equal."""


def constraints(metadata: Iterable[Any], taken_off: bool = False) -> list[Any] | None:
    """The `annotated_types` bounds and lengths and the `pattern`s in `Annotated` metadata
    (`Field(ge=1, pattern="^a")` included), or `None` if anything else is there (a
    description, a title and examples are allowed). `taken_off`: each `Field` read as if its
    `TAKEN_OFF` arguments were not given."""
    out: list[Any] = []
    for m in metadata:
        if isinstance(m, FieldInfo):
            if (_READ_TYPE(m) != _PLAIN_TYPE) if taken_off else (_READ_ALL(m) != _PLAIN_ALL):
                return None
            inner: list[Any] | None = m.metadata
            for x in m.metadata:  # mostly bounds and lengths, taken as they are
                if type(x) not in _SIMPLE:
                    inner = constraints(m.metadata)
                    break
            if inner is None:
                return None
            out += inner
        elif type(m) in _BOUNDS or type(m) in _LENGTHS or _is_pattern(m) or _is_digits(m):
            out.append(m)
        elif _is_group(m) and not any(isinstance(g, FieldInfo) for g in m):
            inner = constraints(m)  # `Len(1, 20)`, `Interval(ge=0, le=1)`: their members, as pydantic reads them
            if inner is None:
                return None
            out += inner
        else:
            return None
    return out


_GROUPS = (at.Len, at.Interval)


def _is_group(meta: Any) -> bool:
    """`isinstance(meta, annotated_types.GroupedMetadata)`, the common groups asked first (a
    runtime protocol's check is slow)."""
    return type(meta) in _GROUPS or isinstance(meta, at.GroupedMetadata)


def _is_pattern(meta: Any) -> bool:
    """`Field(pattern=...)`'s metadata: pydantic's general metadata holding only a string pattern."""
    return type(meta).__name__ == "_PydanticGeneralMetadata" and vars(meta).keys() == {"pattern"}


def _is_digits(meta: Any) -> bool:
    """`Field(max_digits=..., decimal_places=...)`'s metadata: general metadata holding only those, ints."""
    return (
        type(meta).__name__ == "_PydanticGeneralMetadata"
        and vars(meta).keys() <= {"max_digits", "decimal_places"}
        and all(type(v) is int for v in vars(meta).values())
    )


def _constraint_kind(base: Any) -> str | None:
    """Which constraints `base` takes, as pydantic writes them: numbers (bounds), decimals
    (bounds, digits), strings (lengths, pattern), bytes, arrays and mappings (lengths); `None`
    for any other."""
    if base is int or base is float:
        return "number"
    if base is decimal.Decimal:
        return "decimal"
    if base is str or base is bytes:
        return "string" if base is str else "bytes"
    origin, args = origin_of(base) or base, typing.get_args(base)
    if origin in _ARRAYS or base is tuple or (origin is tuple and len(args) == 2 and args[1] is ...):
        return "array"  # not a fixed-length tuple: pydantic has its own rule there
    return "object" if origin in _MAPPINGS else None


def _constrained(
    base: Any,
    metadata: tuple[Any, ...],
    defs: Defs,
    owners: dict[str, Any],
    taken_off: bool = False,
    found: Any = UNREAD,
) -> Schema:
    """`Annotated[T, Field(...)]`: T's schema with its bounds, lengths, pattern, description and
    examples, keys sorted as pydantic sorts them (`taken_off`: as `constraints` says; `found`:
    `constraints(metadata, taken_off)` when already read)."""
    if found is UNREAD:
        found = constraints(metadata, taken_off)
    kind = _constraint_kind(base)
    if found is None or (found and kind is None):
        raise _Slow
    schema = fast_schema(base, defs, owners)
    bounded = {"type": "number"} if kind == "decimal" else schema  # a Decimal's bounds go on its number branch
    for m in found:
        if kind == "decimal" and _is_digits(m):
            continue  # pydantic's schema does not show digits
        key, value = _constraint(m, kind, base)
        bounded[key] = value
    if kind == "decimal":
        schema = {"anyOf": [dict(sorted(bounded.items())), {"type": "string"}]}
    description, examples = None, []  # the last `Field`'s description ("" included, as pydantic), every examples
    for m in metadata:  # one loop, not three comprehensions (a frame each)
        if isinstance(m, FieldInfo):
            description = m.description if m.description is not None else description
            if m.examples is not None:
                examples.append(m.examples)
    if description is not None:
        schema["description"] = description
    if examples:
        schema["examples"] = _json_examples(examples)
    return dict(sorted(schema.items()))


def _constraint(meta: Any, kind: str | None, base: Any) -> tuple[str, Any]:
    """One constraint's schema key and value; `_Slow` for one pydantic writes otherwise (or refuses)."""
    if type(meta) in _BOUNDS and (kind == "number" or kind == "decimal"):
        attr, key = _BOUNDS[type(meta)]
        value = getattr(meta, attr)
        if type(value) is float and (base is int or not math.isfinite(value)):
            raise _Slow  # 1.5 for an int; an infinity pydantic leaves out, a NaN: pydantic decides
        if type(value) is not int and type(value) is not float:
            raise _Slow  # a Decimal, a bool: pydantic decides
        if key == "multipleOf" and not value > 0:
            raise _Slow  # pydantic-core refuses it, with its own message
        if base is not int and not _fits_a_float(value):
            raise _Slow  # 10**400 for a float: pydantic-core refuses it
        return key, float(value) if kind == "decimal" else value  # as pydantic writes a Decimal's bounds
    elif type(meta) in _LENGTHS and kind in _LENGTH_KEYS:
        value = getattr(meta, _LENGTHS[type(meta)])
        if type(value) is int and 0 <= value < _LENGTH_LIMIT:  # else pydantic-core refuses it
            return _LENGTH_KEYS[kind][type(meta) is at.MaxLen], value
    elif _is_pattern(meta) and kind == "string" and type(meta.pattern) is str and _compiles(meta.pattern):
        return "pattern", meta.pattern
    raise _Slow


def _fits_a_float(value: int | float) -> bool:
    try:
        float(value)
    except OverflowError:
        return False
    return True


_LENGTH_LIMIT = 2**64
"""pydantic-core holds a length in 64 unsigned bits: a negative or larger one it refuses."""
_PATTERNS: dict[str, SchemaValidator | None] = {}


def _compiles(pattern: str) -> bool:
    """Whether pydantic-core takes `pattern` (its Rust engine refuses look-arounds, for one)."""
    return _pattern_validator(pattern) is not None


def _pattern_validator(pattern: str) -> SchemaValidator | None:
    """pydantic-core's own string validator for `pattern` (`None` if it refuses the pattern),
    built once per pattern: it answers both "does it compile" and "does this default match"
    exactly as pydantic would."""
    if pattern not in _PATTERNS:
        try:
            _PATTERNS[pattern] = SchemaValidator(core_schema.str_schema(pattern=pattern))
        except Exception:
            _PATTERNS[pattern] = None
    return _PATTERNS[pattern]


def _json_examples(found: list[Any]) -> list[Any]:
    """`Field(examples=[...])` of JSON scalars, as pydantic writes them; anything else is its job."""
    if len(found) != 1 or type(found[0]) is not list or not all(json_scalar(v) for v in found[0]):
        raise _Slow
    return list(found[0])


def json_scalar(value: Any) -> bool:
    """A str, int, bool, None or finite float: a value JSON writes as it is (an int of more digits
    than Python writes is the caller's to bound)."""
    return type(value) in _JSON_SCALARS or (type(value) is float and value == value and abs(value) != float("inf"))


def _union(args: tuple[Any, ...], defs: Defs, owners: dict[str, Any]) -> Schema:
    """pydantic's `anyOf`: `None` moved last (`nullable`), a member that is itself only an
    `anyOf` spread, repeats dropped, one member left alone."""
    rest = tuple(a for a in args if a is not type(None) and a is not None)
    members: list[Schema] = []
    spread = False
    for a in rest:
        schema = fast_schema(a, defs, owners)
        if len(schema) == 1 and "anyOf" in schema:
            members += schema["anyOf"]
            spread = True
        else:
            members.append(schema)
    unique = _unique(members)
    if (spread or len(unique) < len(members)) and any(_titled(a) for a in rest):
        raise _Slow  # pydantic spreads and drops repeats before it drops titles: a title keeps them
    inner = unique[0] if len(unique) == 1 else {"anyOf": unique}
    if len(rest) == len(args):
        return inner
    if not rest or inner == {"type": "null"}:
        return {"type": "null"}
    if len(unique) == 1:  # `_union_of` finds no repeat: only `{"type": "null"}` is `_hashable` as it is
        return {"anyOf": [inner, {"type": "null"}]}
    return _union_of([*unique, {"type": "null"}])


def _titled(tp: Any) -> bool:
    """A `Field(title=...)` anywhere in `tp` (the fast path writes no title: pydantic's are cleaned off)."""
    args = typing.get_args(tp)
    if origin_of(tp) is Annotated:
        return any(isinstance(m, FieldInfo) and m.title is not None for m in args[1:]) or _titled(args[0])
    return any(_titled(a) for a in args)


def _union_of(members: list[Schema]) -> Schema:
    unique = _unique(members)
    return unique[0] if len(unique) == 1 else {"anyOf": unique}


def _unique(members: list[Schema]) -> list[Schema]:
    """Repeats dropped as pydantic drops them (by `_hashable`; the later of two equal ones kept,
    in the place of the first)."""
    if len(members) < 2:
        return members
    return list({_hashable(m): m for m in members}.values())


def _hashable(value: Any) -> Any:
    """pydantic's `_make_json_hashable` (how it finds repeated union members)."""
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value


_LITERAL_KINDS = {str: "string", int: "integer", bool: "boolean", type(None): "null"}


def _literal(values: tuple[Any, ...]) -> Schema:
    """pydantic's rule: `const` for one value, else `enum`; a `type` when all values share one."""
    kinds = {type(v) for v in values}
    if not kinds or not kinds <= _LITERAL_KINDS.keys():
        raise _Slow  # enum members, bytes, floats: pydantic's job
    out: Schema = {"const": values[0]} if len(values) == 1 else {"enum": list(values)}
    return out | {"type": _LITERAL_KINDS[kinds.pop()]} if len(kinds) == 1 else out


def _tuple(args: tuple[Any, ...], defs: Defs, owners: dict[str, Any]) -> Schema:
    """`tuple[int, ...]` (an array of ints) and `tuple[int, str]` (exactly these items)."""
    if len(args) == 2 and args[1] is Ellipsis:
        return {"items": fast_schema(args[0], defs, owners), "type": "array"}
    if Ellipsis in args:
        raise _Slow
    if args == ((),):  # tuple[()]
        args = ()
    out: Schema = {"maxItems": len(args), "minItems": len(args)}
    if args:
        out["prefixItems"] = [fast_schema(a, defs, owners) for a in args]
    return out | {"type": "array"}


def _enum(cls: type[enum.Enum], defs: Defs, owners: dict[str, Any]) -> Schema:
    """As pydantic writes an enum: every name's value (`__members__`: an alias repeats its value,
    a flag's named combination is there), the docstring cleaned (a blank one as `""`)."""
    values = [m.value for m in cls.__members__.values()]
    kinds = {type(v) for v in values}
    if kinds not in ({str}, {int}):
        raise _Slow
    doc = inspect.cleandoc(cls.__doc__) if cls.__doc__ else None
    body: Schema = {"description": doc} if doc is not None and doc != "An enumeration." else {}
    body |= {"enum": values, "type": "string" if kinds == {str} else "integer"}
    if is_flag(cls):
        body = flag_schema(cls, body)
    name = schema_name(cls)
    if owners.setdefault(name, cls) is not cls:
        raise _Slow
    _add_def(defs, name, body)
    return {"$ref": f"#/$defs/{name}"}


_Field = tuple[str, Any, bool, Any]  # (name, type, required, default or _NO_DEFAULT)
_NO_DEFAULT: Any = object()


def _class(cls: type, defs: Defs, owners: dict[str, Any], fields: Callable[[type], list[_Field]]) -> Schema:
    """A TypedDict or a plain dataclass under `$defs`, as pydantic writes it: properties in
    order (a dataclass default as `default`), `required`, the class docstring as description,
    attribute docstrings as property descriptions (`json_schema._attribute_docs`), closed."""
    name = schema_name(cls)
    ref = {"$ref": f"#/$defs/{name}"}
    owner = owners.get(name, _NO_DEFAULT)
    if owner is cls:
        if name not in defs:  # still being written: a class inside itself
            owners.setdefault(_RECURSIVE, set()).add(name)
        return ref
    if owner is not _NO_DEFAULT or name in defs or getattr(cls, "__pydantic_config__", None) is not None:
        raise _Slow  # another type of that name, or a pydantic config
    owners[name] = cls  # being written
    properties: Schema = {}
    required: list[str] = []
    declared, docstrings = _parts(cls, fields)
    for field, tp, is_required, default in declared:
        prop = fast_schema(tp, defs, owners)
        if default is not _NO_DEFAULT:
            prop = dict(sorted((prop | {"default": _json_default(default)}).items()))
        properties[field] = prop
        required += [field] if is_required else []
    body: Schema = {}
    doc = cls.__doc__
    if doc and not (dataclasses.is_dataclass(cls) and doc.startswith(f"{cls.__name__}(")):
        body["description"] = inspect.cleandoc(doc)
    body["properties"] = properties
    if required:
        body["required"] = required
    body |= {"type": "object", "additionalProperties": False}
    for field, text in docstrings.items():
        found = properties.get(field)
        if isinstance(found, dict) and "description" not in found:
            properties[field] = found | {"description": text}
    _add_def(defs, name, body)
    return ref


_PARTS: weakref.WeakKeyDictionary[type, tuple[int, list[_Field], dict[str, str]]] = weakref.WeakKeyDictionary()


def _parts(cls: type, fields: Callable[[type], list[_Field]]) -> tuple[list[_Field], dict[str, str]]:
    """A class's fields and attribute docstrings, read once per class (a class used twice in
    one signature, `x: Cls, xs: list[Cls]`); `clear_cache` forgets them. The entry must be this
    very class's (its `id`), not one a metaclass `__eq__` calls equal."""
    found = _PARTS.get(cls)
    if found is None or found[0] != id(cls):
        declared = fields(cls)
        for field, tp, _, _ in declared:
            marker = marker_in(tp)
            if marker is not None:
                raise MarkedField(cls, field, marker)
        found = _PARTS[cls] = (id(cls), declared, _docstrings(cls))
    return found[1], found[2]


def _hints(cls: type) -> dict[str, Any]:
    """`typing.get_type_hints(cls, include_extras=True)`, or `_Slow` if it fails."""
    hints = evaluated_hints(cls)
    if hints is not None:
        return hints
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception:
        raise _Slow from None


def evaluated_hints(cls: type) -> dict[str, Any] | None:
    """`typing.get_type_hints(cls, include_extras=True)` without compiling anything, when every
    annotation is already a type object, a plain class name (`"Address"`, as `from __future__
    import annotations` leaves it) or a builtin collection of them (`"list[Node]"`,
    `"dict[str, Node]"`: `_subscript`); `None` when unsure (then typing decides).

    The same walk as typing's on Python 3.11–3.13 (base classes in reverse MRO order, `None` as
    `NoneType`); a name is looked up where typing's `eval` looks (`_name_lookup`) and must be a
    class. Python 3.14 reads annotations differently: always typing's."""
    if sys.version_info >= (3, 14):
        return None
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        if vars(base).get("__type_params__"):
            return None  # `class Box[T]` (3.12): typing adds T to the names it looks up
        annotations = base.__dict__.get("__annotations__", {})
        if isinstance(annotations, types.GetSetDescriptorType):
            continue  # typing skips it too
        if type(annotations) is not dict:
            return None
        for name, value in annotations.items():
            found = _evaluated(value, base)
            if found is NOT_PLAIN:
                return None
            hints[name] = found
    return hints


def _evaluated(value: Any, base: type) -> Any:
    """One annotation as typing evaluates it on class `base`, or `NOT_PLAIN`."""
    if value is None:
        return type(None)
    if isinstance(value, str):
        text, forward_module = value, None
    elif isinstance(value, typing.ForwardRef):
        text, forward_module = value.__forward_arg__, value.__forward_module__
    else:
        return value if _nothing_to_evaluate(value) else NOT_PLAIN
    if text.endswith("]"):
        return _subscript(text, forward_module, base)
    return _plain_class(_name_lookup(text, forward_module, base))


def _plain_class(found: Any) -> Any:
    """A class typing's `eval` found and gives back as it is (not `Generic` or `Protocol`,
    which typing refuses), or `NOT_PLAIN`."""
    return found if isinstance(found, type) and found not in (typing.Generic, typing.Protocol) else NOT_PLAIN


_SUBSCRIPT = re.compile(r"([A-Za-z_]\w*)\[([A-Za-z_]\w*(?:, [A-Za-z_]\w*)*)\]", re.ASCII)
_BUILTIN_GENERICS = (list, dict, set, frozenset, tuple)


def _subscript(text: str, forward_module: str | None, base: type) -> Any:
    """`list[Node]`, `dict[str, Node]`: a builtin collection of plain class names, as typing's
    `eval` builds it (`list[Node]`, each name looked up as `_name_lookup` does), or `NOT_PLAIN`."""
    match = _SUBSCRIPT.fullmatch(text)
    if match is None:
        return NOT_PLAIN
    origin = _name_lookup(match[1], forward_module, base)  # a keyword: `NOT_PLAIN`
    if not any(origin is generic for generic in _BUILTIN_GENERICS):
        return NOT_PLAIN
    args = []
    for name in match[2].split(", "):
        found = _plain_class(_name_lookup(name, forward_module, base))
        if found is NOT_PLAIN:
            return NOT_PLAIN
        args.append(found)
    return origin[tuple(args)] if len(args) > 1 else origin[args[0]]


_NAMESPACES = (dict, types.MappingProxyType)
"""The mappings namespaces are (a module's dict, a class's `vars`), told apart without asking
`Mapping`'s `isinstance`."""


def _name_lookup(text: str, forward_module: str | None, base: type) -> Any:
    """What typing's `eval(text, globals, locals)` finds for a plain name: `locals` is the module
    of `base`, `globals` the module of a `ForwardRef` that names one (a TypedDict's), else
    a copy of `base`'s namespace, then the builtins `eval` gives `globals`."""
    if not (text.isascii() and text.isidentifier()) or keyword.iskeyword(text):
        return NOT_PLAIN  # `eval` reads a non-ASCII name NFKC-normalised, and `None` as None
    module = sys.modules.get(base.__module__, None)
    local_names: dict[str, Any] = getattr(module, "__dict__", {})
    global_names: Any = vars(base)
    if forward_module is not None:
        global_names = getattr(sys.modules.get(forward_module, None), "__dict__", global_names)
    found = global_names.get("__builtins__", builtins)
    builtin_names = vars(found) if isinstance(found, type(builtins)) else found
    for names in (local_names, global_names, builtin_names):
        if type(names) not in _NAMESPACES and not isinstance(names, Mapping):
            return NOT_PLAIN
        if text in names:
            return names[text]
    return NOT_PLAIN


def _nothing_to_evaluate(tp: Any) -> bool:
    """True when `typing._eval_type` gives `tp` back as it is: no string or `ForwardRef` in it
    (a string inside `Literal[...]` or `Annotated` metadata is a value, not an annotation)."""
    if isinstance(tp, (str, typing.ForwardRef)):
        return False
    if origin_of(tp) is None:
        return True
    args = getattr(tp, "__args__", ())
    if not isinstance(args, tuple):
        return False
    if isinstance(tp, types.GenericAlias) and any(isinstance(a, str) for a in args):
        return False  # list["Node"]: typing evaluates it
    return all(isinstance(a, str) or _nothing_to_evaluate(a) for a in args)


_REQUIRED = {typing.Required, typing.NotRequired}


def _typed_dict_fields(cls: type) -> list[_Field]:
    if type(cls).__module__ == "typing" and sys.version_info < (3, 12):
        raise _Slow  # pydantic refuses typing.TypedDict before 3.12, with its own message
    if getattr(cls, "__parameters__", ()) or any(origin_of(b) for b in getattr(cls, "__orig_bases__", ())):
        raise _Slow  # a generic TypedDict
    required_keys = cls.__required_keys__  # type: ignore[attr-defined]
    out: list[_Field] = []
    for field, tp in _hints(cls).items():
        is_required = field in required_keys
        origin = origin_of(tp)
        while origin in _REQUIRED:
            is_required = origin is typing.Required
            tp = typing.get_args(tp)[0]
            origin = origin_of(tp)
        if origin is Annotated and origin_of(typing.get_args(tp)[0]) in _REQUIRED:
            raise _Slow
        if origin is not None and _has_special(tp):
            raise _Slow  # ReadOnly, ClassVar, a Field with a default: pydantic's job
        out.append((field, tp, is_required, _NO_DEFAULT))
    return out


def _dataclass_fields(cls: type) -> list[_Field]:
    if hasattr(cls, "__pydantic_fields__") or hasattr(cls, "__pydantic_validator__"):
        raise _Slow  # a pydantic dataclass
    declared = cls.__dataclass_fields__  # type: ignore[attr-defined]
    hints = _hints(cls)
    out: list[_Field] = []
    for f in declared.values():
        if f._field_type is not dataclasses._FIELD:  # type: ignore[attr-defined]
            if f._field_type is dataclasses._FIELD_CLASSVAR:  # type: ignore[attr-defined]
                continue
            raise _Slow  # an InitVar
        if not f.init or f.metadata or isinstance(f.default, FieldInfo) or f.name not in hints:
            raise _Slow
        tp = hints[f.name]
        if _has_special(tp):
            raise _Slow
        if f.default is not dataclasses.MISSING:
            out.append((f.name, tp, False, f.default))
        else:
            out.append((f.name, tp, f.default_factory is dataclasses.MISSING, _NO_DEFAULT))
    return out


def _has_special(tp: Any) -> bool:
    """A `Field` default, `ReadOnly`, `ClassVar` or `InitVar` at the top of a field's type."""
    origin = origin_of(tp)
    if origin is Annotated:
        return any(isinstance(m, FieldInfo) and constraints([m]) is None for m in typing.get_args(tp)[1:]) or (
            _has_special(typing.get_args(tp)[0])
        )
    return (
        origin is not None
        and getattr(origin, "__module__", "") in ("typing", "typing_extensions")
        and (getattr(origin, "_name", None) in ("ReadOnly", "ClassVar", "Final"))
    )


_JSON_SCALARS = (str, int, bool, type(None))


def _json_default(value: Any) -> Any:
    """A default as pydantic writes it in the schema: JSON scalars as they are, a tuple or list of
    them as a list; anything else is pydantic's job."""
    if json_scalar(value):
        return value
    if type(value) in (tuple, list) and all(type(v) in _JSON_SCALARS for v in value):
        return list(value)
    if isinstance(value, enum.Enum) and type(value.value) in (str, int):
        return value.value
    raise _Slow


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


# --- 2. the "obviously valid" shortcut --------------------------------------------------------


def obviously_valid(base: Any, default: Any, nullable: bool) -> bool:
    """True when `default` fits `base` without asking a validator (saves building one)."""
    if type(default) is base and base in _PLAIN_DEFAULTS:
        return True  # `limit: int = 10` (what the last line says, asked first)
    origin, args = origin_of(base), typing.get_args(base)
    if origin is Annotated:  # `None` too: its metadata may be run on it
        return obviously_within(args[0], args[1:], default, nullable)
    if default is None:
        return nullable
    if origin is Literal:
        if type(default) is int and not _I64[0] <= default <= _I64[1]:
            return False  # pydantic-core may compare a Literal's ints in 64 bits: the validator decides
        return any(type(default) is type(v) and default == v for v in args)
    if origin in UNION_TYPES:  # each member is tried: one that may raise (not refuse) stops them all
        return any(obviously_valid(a, default, nullable) for a in args) and all(_vouched(a) for a in args)
    if origin in (list, set, frozenset, tuple) and type(default) is origin and default:
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return len(args) == len(default) and all(obviously_valid(a, v, False) for a, v in zip(args, default))
        return len(args) in (1, 2) and all(obviously_valid(args[0], v, False) for v in default)
    if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
        return False  # `()` for `tuple[int, str]`: too short, the validator says so
    if origin in (list, set, frozenset, dict, tuple):
        return type(default) is origin and not default
    if type(default) is decimal.Decimal:
        return base is decimal.Decimal and default.is_finite()
    return type(default) is base and (base in _PLAIN_DEFAULTS or issubclass(base, enum.Enum))


_I64 = (-(2**63), 2**63 - 1)


def _vouched(tp: Any) -> bool:
    """No metadata anywhere in `tp` that its validator runs as a plain function (a validator, a
    bound its base does not take: `Annotated[str, Ge(1)]` raises a `TypeError` for `"a"`)."""
    origin = origin_of(tp)
    if origin is None or origin is Literal:
        return True
    args = typing.get_args(tp)
    if origin is not Annotated:
        return all(_vouched(a) for a in args)
    found, kind = constraints(args[1:]), _constraint_kind(args[0])
    return found is not None and all(_applies(m, kind, args[0]) for m in found) and _vouched(args[0])


def _applies(meta: Any, kind: str | None, base: Any) -> bool:
    """Whether the fast path writes `meta` as a keyword of `base`'s schema (pydantic's own check)."""
    if kind == "decimal" and _is_digits(meta):
        return True
    try:
        _constraint(meta, kind, base)
    except _Slow:
        return False
    return True


def obviously_within(
    annotation: Any,
    metadata: tuple[Any, ...],
    default: Any,
    nullable: bool,
    taken_off: bool = False,
    found: Any = UNREAD,
) -> bool:
    """`obviously_valid(Annotated[annotation, *metadata], default, nullable)` (`taken_off`: as
    `constraints` says; `found`: `constraints(metadata, taken_off)` when already read)."""
    bounds = constraints(metadata, taken_off) if found is UNREAD else found
    if default is None:  # a bound or a validator on a type that takes `None` may be run on it
        return nullable and bounds == []
    if bounds is None or not obviously_valid(annotation, default, nullable):
        return False
    for bound in bounds:  # a loop, not `all(generator)`: no frame of its own
        if not _holds(bound, default):
            return False
    return True


_PLAIN_DEFAULTS = (
    str,
    int,
    float,
    bool,
    bytes,
    datetime.date,
    datetime.datetime,
    datetime.time,
    datetime.timedelta,
    uuid.UUID,
)


_CHECKS: dict[type, Callable[[Any, Any], Any]] = {
    at.Ge: lambda bound, value: value >= bound.ge,
    at.Gt: lambda bound, value: value > bound.gt,
    at.Le: lambda bound, value: value <= bound.le,
    at.Lt: lambda bound, value: value < bound.lt,
    at.MinLen: lambda bound, value: len(value) >= bound.min_length,
    at.MaxLen: lambda bound, value: len(value) <= bound.max_length,
}


def _holds(bound: Any, value: Any) -> bool:
    check = _CHECKS.get(type(bound))
    if check is None and _is_pattern(bound) and type(value) is str and type(bound.pattern) is str:
        validator = _pattern_validator(bound.pattern)  # strings are validated as pydantic's, unadjusted
        return validator is not None and validator.isinstance_python(value)
    try:
        return bool(check and check(bound, value))
    except TypeError:  # `bytes` against `ge=0`: not obviously valid, the validator decides
        return False


# --- 3. the annotation cache -------------------------------------------------------------------

_CODE: dict[str, CodeType] = {}
NOT_PLAIN: Any = object()
"""`plain_name`'s answer for text that is not a plain name, or a name it does not find."""


def plain_name(text: str, namespace: dict[str, Any]) -> Any:
    """What `eval(text, namespace)` gives for a plain name (its module globals, then builtins),
    without compiling; `NOT_PLAIN` for anything else (then `eval` decides, errors included; a
    non-ASCII name too: `eval` reads it NFKC-normalised; a keyword, `None` or `True`, whatever the
    namespace holds under it; builtins that are neither a dict nor a module)."""
    if not (text.isascii() and text.isidentifier()) or keyword.iskeyword(text):
        return NOT_PLAIN
    if text in namespace:
        return namespace[text]
    found = namespace.get("__builtins__", builtins)
    if type(found) is not dict:
        if not isinstance(found, types.ModuleType):
            return NOT_PLAIN
        found = vars(found)
    return found.get(text, NOT_PLAIN)


def compiled(text: str) -> CodeType:
    """A string annotation compiled for `eval`, once per distinct text."""
    code = _CODE.get(text)
    if code is None:
        code = _CODE[text] = compile(text, "<annotation>", "eval")
    return code


# --- 4. plain Google and Sphinx docstrings --------------------------------------------------------

_ARGS_SECTIONS = {"Args", "Arguments", "Parameters", "Params"}
_OTHER_SECTIONS = {"Returns", "Return", "Raises", "Yields", "Yield", "Examples", "Example", "Attributes"}
_HEADER = re.compile(r"^([A-Z][A-Za-z ]*):\s*$")
_ENTRY = re.compile(r"^(\*{0,2}\w++)\s*+(?:\([^)]*+\))?+\s*+:\s*+(.*)$")
r"""`^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$`, every run possessive (`*+`, `?+`): what follows
each run can never be what it gives back (a blank, a `(`, a `:`), so giving some back never made a
match, and cost the time squared of a long line of blanks (1.5 s for 20,000)."""


def line_start_pattern(body: str) -> re.Pattern[str]:
    """`re.compile("^" + body, re.M)` for `at_a_line_start`: a newline first instead of `^`. The
    regex engine tries a `^` at every character of the text (some 150 instructions each, the
    better part of reading a short docstring); a literal first, it jumps from newline to newline."""
    return re.compile("\n" + body, re.M)


def at_a_line_start(pattern: re.Pattern[str], text: str) -> bool:
    """Whether `re.compile("^" + body, re.M).search(text)` finds anything (`pattern` is
    `line_start_pattern(body)`): each line start of `text` follows a newline in `"\\n" + text`."""
    return pattern.search("\n" + text) is not None


_NOT_GOOGLE = line_start_pattern(r"[^\S\n]*+(?:(?:-{3,}|={3,})\s*$|:\w[^:]*+:|\.\.\s)")
r"""`^\s*(?:-{3,}|={3,})\s*$|^\s*:\w+[^:]*:|^\s*\.\.\s` (re.M): a rule, a field, a directive. The
leading blanks are taken possessively (`*+`): no alternative starts with one, so giving some back
never makes a match. They stop at a line's end (`[^\S\n]`): `\s` ran on over the blank lines
after it, from every line start, the time squared of 20,000 of them (1.3 s); the next line start is
tried anyway. A field is a colon, a word character, then anything but a colon up to one
(`\w+[^:]*` says no more: the two runs could split a long word every way, 1.2 s for 20,000)."""


def google_docstring(text: str) -> tuple[str, dict[str, str]] | None:
    """(summary, {parameter: description}) of a plain Google docstring (already `cleandoc`ed),
    or `None` when griffe must read it (see the module docstring).

    As griffe reads a section: its title over an indented line (no blank line between), its
    items at the indent of the first, a deeper line continuing an item, a shallower one ending
    the section (then griffe's call); an entry `name: text` or `name (type): text` split at its
    first colon, the text's blanks as one space. A summary line after the first indented, or a
    code fence, is griffe's call: `Note: text` over an indented line is an admonition to griffe."""
    if at_a_line_start(_NOT_GOOGLE, text) or "```" in text:
        return None
    summary: list[str] = []
    args: dict[str, str] = {}
    section, current, previous, items = None, None, "", 0  # items: the indent of a section's items
    for line in text.split("\n"):  # griffe's lines: not `splitlines`, which also ends one at \r, \f, \u2028...
        header = _HEADER.match(line) if ":" in line else None  # no colon, no header: the regex not asked
        if header:
            name = header.group(1)
            if name not in _ARGS_SECTIONS and name not in _OTHER_SECTIONS:
                return None
            if previous.strip() or (section is None and not summary) or (section is not None and not items):
                return None  # griffe wants a blank line before a section (and none on line 1), lines under one
            section, current, items = name, None, 0
        elif section is None:
            if summary and line.startswith(" "):
                return None  # (the first line griffe takes with its indent stripped)
            summary.append(line)
        elif not line.strip():
            if not items:
                return None  # a blank line under a section's title: griffe skips the section
        else:
            indent = len(line) - len(line.lstrip(" "))
            if indent == 0 or indent < items or line[indent].isspace():
                return None  # a title over text, a section ended by a shallower line, odd blanks: griffe's call
            items = items or indent
            if section in _ARGS_SECTIONS:
                if indent == items:
                    current = _entry(line[indent:])
                    if current is None:
                        return None
                    args[current] = line[indent:].partition(":")[2]
                elif current is not None:  # always: a section's first line is an item
                    args[current] = f"{args[current]} {line}"
        previous = line
    text_summary = "\n".join(summary).strip()
    if not text_summary or (section is not None and not items):
        return None  # no summary; a title with nothing under it (griffe reads it as text)
    return text_summary, {name: " ".join(words.split()) for name, words in args.items()}


def _entry(line: str) -> str | None:
    """The parameter an `Args:` item names (no stars), split as griffe splits it: at the first
    colon, a name, then maybe a type in parentheses; `None` when griffe would name it otherwise
    (`x : text`, `x (a:b): text`) or give it no description."""
    entry = _ENTRY.match(line)
    if entry is None or not entry.group(2).strip():
        return None
    head = line.partition(":")[0]
    name = head.partition("(")[0].strip() if "(" in head and head.endswith(")") else head
    return name.lstrip("*") if name == entry.group(1) else None


_SPHINX_TYPE = (":type",)
_SPHINX_PARAM = (":param", ":parameter", ":arg", ":argument", ":key", ":keyword")
_SPHINX_OTHER = tuple(
    f":{name}"
    for name in (
        "vartype",
        "var",
        "ivar",
        "cvar",
        "raises",
        "raise",
        "except",
        "exception",
        "returns",
        "return",
        "rtype",
    )
)
_SPHINX_FIELDS = (*_SPHINX_TYPE, *_SPHINX_PARAM, *_SPHINX_OTHER)
_SPHINX_PARAM_LINE = re.compile(r":[^:\s]+ ([^:\s]+):(.*)")


def sphinx_docstring(lines: list[str]) -> tuple[str, dict[str, str]] | None:
    """(summary, {parameter: description}) of a docstring griffe reads as Sphinx style, from
    griffe's own lines (`Docstring.lines`), as its Sphinx parser reads them: a line starting with
    a known field (`:param x:`, `:type x:`, `:returns:`...) takes the lines up to the next line
    starting with `:`; any other line is description. `None` when griffe must read it (a
    parameter field other than `:param name: text` on one line, or no description)."""
    description: list[str] = []
    found: dict[str, str] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith(":") or not line.startswith(_SPHINX_FIELDS):
            description.append(line)
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].startswith(":"):
            end += 1
        if not line.startswith(_SPHINX_TYPE) and line.startswith(_SPHINX_PARAM):
            field = _SPHINX_PARAM_LINE.fullmatch(line)
            if field is None:
                return None
            found.setdefault(field.group(1), " ".join([field.group(2), *lines[i + 1 : end]]))
        i = end
    summary = "\n".join(description).strip()
    if not summary:
        return None
    return summary, {name.lstrip("*"): " ".join(text.split()) for name, text in found.items() if text.strip()}


_SPHINX_NAMES = tuple(field[1:] for field in _SPHINX_FIELDS)
_SPHINX_PARAM_NAMES = tuple(field[1:] for field in _SPHINX_PARAM)
_SPHINX_PARAM_BLOCK = re.compile(r"[^:\s]+ ([^:\s]+):(.*)")
"""`_SPHINX_PARAM_LINE` without its colon, matched at a block's start: `.` stops at the line's end."""


def sphinx_text(value: str) -> tuple[str, dict[str, str]] | None:
    """`sphinx_docstring(value.split("\n"))`, read by blocks instead of lines: splitting at each
    newline followed by a colon gives the blocks griffe's Sphinx parser reads (a line starting with
    `:` and the lines up to the next one), so only the fields cost a Python step, not every line
    (a reST docstring of ten lines: some 91k instructions by lines). A block whose first line is no
    known field is description, as its lines are there. `tests/test_sphinx_text.py` holds the two
    equal on generated docstrings."""
    blocks = ("\n" + value).split("\n:")
    description = [blocks[0][1:]]  # the lines before the first field (none: "", stripped below)
    found: dict[str, str] = {}
    for block in blocks[1:]:  # each without the colon that starts it
        if not block.startswith(_SPHINX_NAMES):
            description.append(":" + block)
        elif block.startswith(_SPHINX_PARAM_NAMES):  # (`:type x:` starts with none of them)
            field = _SPHINX_PARAM_BLOCK.match(block)
            if field is None:
                return None
            found.setdefault(field.group(1), field.group(2) + block[field.end() :])  # blanks made one space below
    summary = "\n".join(description).strip()
    if not summary:
        return None
    return summary, {name.lstrip("*"): " ".join(words) for name, text in found.items() if (words := text.split())}
