"""One parameter of a tool function: its type, metadata, required rule and default.

`parameter(fn, label, p, doc)` turns one declared parameter (`Declared`: what an
`inspect.Parameter` holds) into a `ParamInfo` (what the executor needs) and its JSON Schema
property (what the model reads), checking as it goes:

- the type annotation exists and resolves (string annotations are evaluated once). A parameter
  without one is a developer error naming `Any` as the explicit choice, on purpose where both peers
  read it as `Any` (pydantic-ai's `_function_schema.py` and the Agents SDK's `function_schema.py`
  give it the empty schema `{}`): the model would be told nothing of what to send;
- `Param` / `Field` metadata and a bare string (or PEP 727's `typing_extensions.Doc("...")`, read
  as one) in `Annotated`, outermost: a `Param` or `MemoryId` inside the type (`Optional[...]`,
  `list[...]`) is refused, pydantic would drop it; and no two declarations that disagree.
  The wire name comes from `Param(name=...)`, `Field(alias=...)` or a string
  `Field(validation_alias=...)`. A description comes from the first of: `Param("...")`,
  `Field(description=...)` (in `Annotated` or as the default, `x: int = Field(...,
  description=...)`), the docstring's entry for the parameter, a bare string
  `Annotated[int, "..."]` (docstring before bare string is the openai-agents order: its test
  `test_function_prefers_docstring_descriptions_over_annotated_metadata`; Field before docstring
  is pydantic-ai's, where openai-agents puts the docstring first); a blank one (only whitespace)
  is none, and the next is read, as LangChain4j reads a blank `@P` (`decorator.said`). Param, Field and
  bare string (or Doc) that give different descriptions are a developer error, and so are two
  different `Param`s, or `Field`s with different descriptions or names, in one declaration;
- `Field` as the default (`x: int = Field(5, ge=0)`) or inside `Annotated`
  (`Annotated[float, Field(default=5.0)]`) gives the default and constraints, exactly as
  `x: Annotated[int, Field(ge=0)] = 5` does;
- injected parameters (`Annotated[..., MemoryId]`, `InvocationContext`) are marked, not shown,
  and take no default but `None` (the loop fills them); a marker written as the type
  (`m: MemoryId`) is refused with the `Annotated` form to write;
- the required rules: no default → required; a default → optional, and it must be valid for
  the type (checked now, not at the first call); `Param(required=False)` → optional with `None`,
  so the type must accept `None`.

Each broken rule is a `ToolDefinitionError` naming the function and parameter, the rule, the fix.

The type values are validated against (`ParamInfo.annotation`) keeps the type's own metadata, a
`Field`'s alias and default taken off (a copy of it). When there is such a `Field` to copy, that
type is built at the first call (`ParamInfo.built_later`): the schema and the default check read
it from its parts (`_Unbuilt`), the same answers.

Leaves out: the parameters object and the tool as a whole (`toolkit.tools.reflect`).
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import operator
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import PydanticUserError, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined, SchemaError, to_jsonable_python

from toolkit.errors import ToolDefinitionError, a_or_an
from toolkit.tools import coercion, fast_schema, redact
from toolkit.tools.addresses import without_addresses
from toolkit.tools.arguments import ParamInfo
from toolkit.tools.decorator import ANNOTATED as _ANNOTATED
from toolkit.tools.decorator import MARKERS as _MARKERS
from toolkit.tools.decorator import (
    NOT_AN_ALIAS,
    InvocationContext,
    MemoryId,
    Param,
    alias_value,
    marker_in,
    said,
    value_text,
)
from toolkit.tools.decorator import is_marker as _is_marker
from toolkit.tools.decorator import nested_marker as _nested_marker
from toolkit.tools.fast_schema import origin_of as _origin
from toolkit.tools.json_schema import UNION_TYPES
from toolkit.tools.set_order import holds_set, sets_sorted

__all__ = ["EMPTY", "Declared", "ParamInfo", "parameter", "type_name"]

EMPTY: Any = inspect.Parameter.empty
"""No default, or no annotation (as `inspect` says it)."""
_MISSING = EMPTY


class Declared(NamedTuple):
    """One parameter as its function's signature declares it: what reflection reads of an
    `inspect.Parameter` (`toolkit.tools.reflect.declared_parameters` builds them)."""

    name: str
    kind: inspect._ParameterKind
    default: Any
    """`EMPTY` when there is none."""
    annotation: Any
    """`EMPTY` when there is none."""


def parameter(
    fn: Callable[..., Any], label: str, p: Declared, doc: str | None
) -> tuple[ParamInfo, dict[str, Any], dict[str, Any]]:
    """One parameter of `fn` reflected: its `ParamInfo`, its JSON-schema property and the `$defs` it refers to (both empty for an injected parameter)."""
    where = f"{label}, parameter {p.name!r}"
    base, param, field_info, notes, inject, declared, inner, metadata = _split(fn, where, p)
    unbuilt = base if isinstance(base, _Unbuilt) else None
    if inject:
        if declared is not _MISSING and declared is not None:
            raise _injected_default(where, p.name, inject, declared)
        built = unbuilt.build() if unbuilt else base
        return ParamInfo(p.name, p.name, built, required=False, nullable=True, inject=inject), {}, {}
    wire, description = _naming(where, p.name, param, field_info, notes, doc)
    if type(inner) in _ALIASES and inner.__origin__ is type:  # pydantic writes `type[int]` as {}, yet takes classes
        raise ToolDefinitionError(
            where,
            f"{type_name(inner)} takes a Python class, which no JSON value is",
            "take a name instead (a str, or a Literal / Enum of the names) and look the class up in the tool",
        )
    nullable = _accepts_none(inner)
    fast, found = None, fast_schema.UNREAD
    if metadata:  # `Annotated`: its constraints are read once, for the schema and the default check
        try:
            fast, found = fast_schema.parts_schema(inner, metadata, None if unbuilt else base)
        except fast_schema.MarkedField as marked:
            raise _marked_field(where, marked) from None
        except fast_schema.EmptyEnum as empty:
            raise _empty_enum(where, empty) from None
    # the schema before the default: a type pydantic cannot describe is refused as such, with a default too
    schema, defs = fast if fast is not None else _schema(where, base)
    required, default = _required(where, base, param, declared, nullable, found)
    prop = dict(schema)  # this parameter's own: the description and default are written into it
    if description:
        prop["description"] = description
    factory = field_info.default_factory if field_info is not None else None  # called per call, as pydantic does
    if not required and declared is not _MISSING and factory is None:  # a factory's value is no constant to show
        names = (p.name,) if wire == p.name else (p.name, wire)  # a name is judged once
        if not _secret_default(names, default):  # the model reads the schema: no password in it
            _add_default(prop, default)
    if unbuilt is None:
        info = ParamInfo(p.name, wire, base, required, default, nullable, default_factory=factory)
    else:  # the validation type is built by the first call that needs it
        info = ParamInfo.built_later(
            unbuilt.build,
            p.name,
            wire,
            required=required,
            default=default,
            nullable=nullable,
            default_factory=factory,
        )
    return info.described_later(schema, defs), prop, defs  # `expects` in words when first read


class _Unbuilt(NamedTuple):
    """`Annotated[annotation, *metadata]` with each `Field`'s alias and default taken off
    (`_plain`), not built yet: building it (a copy of each such `Field`, a new `Annotated`)
    costs more than the rest of the parameter, and nothing needs it but the executor, so the
    schema and the default check read its parts (`fast_schema.parts_schema`,
    `fast_schema.obviously_within`) and the type is built when something else needs it."""

    annotation: Any
    metadata: tuple[Any, ...]

    def build(self) -> Any:
        return Annotated[tuple([self.annotation, *(_plain(m) for m in self.metadata)])]


def _schema(where: str, base: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The type's JSON Schema and `$defs` (an `_Unbuilt` one built first: `parameter` asked
    `fast_schema.parts_schema` already)."""
    built = base.build() if isinstance(base, _Unbuilt) else base
    try:
        return fast_schema.type_schema(built)
    except fast_schema.MarkedField as marked:
        raise _marked_field(where, marked) from None
    except fast_schema.EmptyEnum as empty:
        raise _empty_enum(where, empty) from None
    except Exception as exc:  # pydantic cannot describe this type
        raise _undescribable(where, built, exc) from None


def _empty_enum(where: str, empty: fast_schema.EmptyEnum) -> ToolDefinitionError:
    """An enum without members (`{"enum": []}`): no value the model sends is valid, so every call
    would fail (and a gateway may refuse the request for the schema): refused here instead."""
    name = empty.name
    what, fix = (
        (f"the enum {name}", f"give {name} its members")
        if name
        else ("an enum in its type", "give the enum its members")
    )
    return ToolDefinitionError(
        where, f"{what} has no members, so no value the model sends is one of them", f"{fix}, or use another type"
    )


def _marked_field(where: str, marked: fast_schema.MarkedField) -> ToolDefinitionError:
    """A field of the parameter's type marked with `Param` or `MemoryId` (only a tool's own
    parameters read them; pydantic drops both without a word): LangChain4j's `@P` is for a
    method's parameters too, a field is described with `@Description`, here `Field(description=...)`
    or a docstring under the field."""
    field = f"{marked.owner.__name__}.{marked.field}"
    marker = marked.marker
    if marker is MemoryId or isinstance(marker, MemoryId):
        return ToolDefinitionError(
            where,
            f"its type's field {field} is marked with MemoryId, which only a tool's own parameters read "
            "(the model would be asked for the memory id)",
            f"take the memory id as a parameter of the tool itself, e.g. `memory_id: Annotated[str, MemoryId]`, "
            f"and leave it out of {marked.owner.__name__}",
        )
    described = f"Field(description={marker.description!r})" if marker.description else "Field(...)"
    return ToolDefinitionError(
        where,
        f"its type's field {field} is marked with {marker!r}, which only a tool's own parameters read "
        "(pydantic drops it: the model would not see it)",
        f"describe the field with `Annotated[..., {described}]` or a docstring under it "
        "(a wire name is Field(alias=...), an optional field a default or NotRequired)",
    )


def _undescribable(where: str, base: Any, exc: Exception) -> ToolDefinitionError:
    """Why pydantic refused the type, in its own words when it says what to do."""
    marker = _marker_in(base)
    if marker is not None:
        return _marker_as_type(where, marker)
    name = type_name(base)
    if isinstance(exc, PydanticUserError) and exc.code == "validator-signature":
        return _validator_signature(where, name, exc)
    if isinstance(exc, PydanticUserError) and exc.code == "typed-dict-version":
        return ToolDefinitionError(
            where,
            f"pydantic cannot read {name}, a typing.TypedDict, on Python < 3.12",
            "define it with `from typing_extensions import TypedDict`",
        )
    unresolved = _unresolved_field(base) if getattr(exc, "code", None) == "class-not-fully-defined" else None
    if unresolved is not None:
        owner = unresolved[0].__name__
        return ToolDefinitionError(
            where,
            f"a field of {owner} names a type that cannot be found ({unresolved[1]})",
            "define or import the type at module level: a quoted field type (every one under "
            f"`from __future__ import annotations`) is read in the module of {owner}, where a class made inside "
            "a function is not found",
        )
    if isinstance(exc, ImportError):  # `EmailStr` without email-validator: pydantic's text names the package
        return ToolDefinitionError(
            where,
            f"pydantic needs a package that is not installed to read {name} ({' '.join(str(exc).split())})",
            "install it, or take a str and check the value in the tool",
        )
    if isinstance(exc, SchemaError) and "regex parse error:" in str(exc):  # a pattern Rust's regex cannot read
        lines = str(exc).strip().splitlines()
        pattern = lines[[i for i, line in enumerate(lines) if "regex parse error:" in line][0] + 1].strip()
        if invalid := _not_a_pattern(pattern):  # no engine reads it: the fix is not "without look-arounds"
            return ToolDefinitionError(
                where,
                f"the pattern {pattern!r} is not a valid regular expression ({invalid})",
                "correct the pattern (JSON Schema's patterns are ECMA-262 regular expressions; test it with re.compile)",
            )
        return ToolDefinitionError(
            where,
            f"pydantic cannot read the pattern {pattern!r}: {lines[-1].strip().removeprefix('error: ')} (it reads "
            "patterns with Rust's regex engine, which has no look-around or backreferences)",
            "write the pattern without them, or take a str and check the value in the tool (raise ValueError "
            "with the rule)",
        )
    if isinstance(exc, SchemaError):  # e.g. Field(ge=1.5) on an int
        reason = str(exc).strip().splitlines()[-1].strip().removeprefix("ValueError: ")
        return ToolDefinitionError(
            where,
            f"pydantic refuses {name}: {reason}",
            "give each constraint a value of the parameter's type (e.g. an int bound for an int)",
        )
    if isinstance(exc, RecursionError):  # "use ... a pydantic model" would name what it already is
        return ToolDefinitionError(
            where,
            f"pydantic ran past Python's recursion limit describing {name} as JSON Schema (its types nest too "
            "deeply: a chain of hundreds of models, each a field of the one before, or a schema hook that calls "
            "itself)",
            "make it flatter: one recursive model (a field of its own type, e.g. `child: Node | None`) describes "
            "any depth once; or take a `dict[str, Any]` and check it in the tool",
        )
    return ToolDefinitionError(
        where,
        f"pydantic cannot describe {name} as JSON Schema ({type(exc).__name__})",
        "use a JSON-friendly type: str, int, float, bool, list/dict of them, an Enum, a pydantic model",
    )


def _unresolved_field(tp: Any, seen: set[int] | None = None) -> tuple[type, str] | None:
    """The first class in `tp` (a dataclass, a TypedDict, a model, at any depth) whose field types
    name something not found, with the `NameError`'s text; None when every one resolves."""
    seen = set() if seen is None else seen
    if id(tp) in seen:
        return None
    seen.add(id(tp))
    inner: Any = typing.get_args(tp)
    if isinstance(tp, type) and hasattr(tp, "__annotations__") and not _origin(tp):
        try:
            inner = typing.get_type_hints(tp).values()
        except NameError as exc:
            return tp, f"NameError: {exc}"
        except Exception:  # another failure: not this rule's to tell
            return None
    return next((found for t in inner if (found := _unresolved_field(t, seen)) is not None), None)


def _split(
    fn: Any, where: str, p: Declared
) -> tuple[Any, Param | None, Any, list[str], str | None, Any, Any, tuple[Any, ...]]:
    """(type without our metadata, Param, pydantic FieldInfo, bare strings, injection kind, default,
    the type without any metadata, the type's own metadata).

    The type is an `_Unbuilt` when a `Field` among its metadata has an alias or a default to take
    off; else `Annotated[annotation, *metadata]` (`annotation` when there is no metadata).

    A `Field` given as the default (`x: int = Field(..., ge=0)`) joins the type's metadata; a
    `Field(default=...)` anywhere becomes the parameter's default (`_MISSING` when there is none)."""
    annotation = p.annotation
    if annotation is _MISSING:
        raise ToolDefinitionError(
            where,
            "it has no type annotation, so the model is not told what to send",
            f"annotate it, e.g. `{p.name}: str` (or `Any`)",
        )
    if isinstance(annotation, type) and annotation is not typing.Generic:  # a class: no alias, no origin, no metadata
        default = p.default
        if _is_marker(default):
            raise _marker_as_default(where, p.name, annotation, default)
        if not isinstance(default, FieldInfo):  # the common case, `x: int = 5`, answered as below, sooner
            inject = "context" if issubclass(annotation, InvocationContext) else None  # `_is_context` of a class
            return annotation, None, None, [], inject, default, annotation, ()
    if isinstance(annotation, str):
        annotation = _resolve(fn, where, p.name, annotation)
    elif not isinstance(annotation, type) and _has_forward_ref(annotation):  # list["Item"], Optional["Item"]
        annotation = _resolve_refs(fn, where, p.name, annotation)
    aliased = alias_value(annotation)
    if aliased is not NOT_AN_ALIAS and marker_in(annotation) is not None:  # `type Qty = Annotated[int, Param(...)]`
        annotation = aliased  # read as written in place: pydantic would drop the marker without a word
    written, extras = annotation, []
    origin = _origin(annotation)
    if origin is Annotated:  # what `typing.get_args` gives, read from the alias
        annotation, extras = annotation.__origin__, list(annotation.__metadata__)
        origin = _origin(annotation)
    if origin is not None:  # `X | None`, `list[X]`, ...: no marker inside
        _no_marker_inside(where, annotation)
    default = p.default
    if _is_marker(default):
        raise _marker_as_default(where, p.name, written, default)
    if isinstance(default, FieldInfo):
        extras, default = [*extras, default], _MISSING
    elif not extras:  # the common case: a type and nothing else
        return annotation, None, None, [], "context" if _is_context(annotation) else None, default, annotation, ()
    params: list[Param] = []
    notes: list[str] = []
    rest: list[Any] = []  # the type's own metadata
    fields: list[FieldInfo] = []  # the `Field`s among it
    memory_id = False
    for m in extras:
        if isinstance(m, Param):
            params.append(m)
        elif isinstance(m, str):
            if said(m):  # a blank one says nothing (`said`)
                notes.append(m)
        elif m is MemoryId or isinstance(m, MemoryId):  # the marker, or one made (`MemoryId()`)
            memory_id = True
        elif type(m).__name__ == "Doc" and type(m).__module__ in _DOC_MODULES and isinstance(m.documentation, str):
            if said(m.documentation):  # PEP 727's `Doc("...")`: a bare string's twin
                notes.append(m.documentation)
        else:
            rest.append(m)
            if isinstance(m, FieldInfo):
                fields.append(m)
    if len(params) > 1:
        _one_param(where, params)
    if len(fields) > 1:
        _fields_agree(where, fields)
    field_info = (fields[0] if len(fields) == 1 else FieldInfo.merge_field_infos(*fields)) if fields else None
    default = _field_default(where, field_info, default, annotation)
    inject = "memory_id" if memory_id else ("context" if _is_context(annotation) else None)
    metadata = tuple(rest)
    if not all(map(_is_plain, fields)):  # map, not a generator: no frame of its own
        base: Any = _Unbuilt(annotation, metadata)
    else:
        base = _rebuilt(written, annotation, rest)
    return base, params[0] if params else None, field_info, notes, inject, default, annotation, metadata


def _one_param(where: str, params: list[Param]) -> None:
    """Several `Param`s in one `Annotated`: only the first would be read, so they must be one."""
    different = list(dict.fromkeys(params))
    if len(different) == 1:
        return
    descriptions = {p.description for p in params if p.description is not None}
    names = {p.name for p in params if p.name is not None}
    fix = "keep one of them"
    if len(descriptions) < 2 and len(names) < 2:
        merged = Param(next(iter(descriptions), None), all(p.required for p in params), next(iter(names), None))
        fix = f"write one Param with every option: {merged!r}"
    raise ToolDefinitionError(
        where, f"it has two different Params ({different[0]!r} and {different[1]!r}), and only one is read", fix
    )


def _fields_agree(where: str, fields: list[FieldInfo]) -> None:
    """Several `Field`s (in `Annotated`, or one as the default): pydantic merges them, the last
    description and alias winning, so two that differ are a mistake."""
    descriptions = list(dict.fromkeys(f.description for f in fields if f.description is not None))
    if len(descriptions) > 1:
        raise ToolDefinitionError(
            where,
            f"its Fields give two different descriptions ({descriptions[0]!r} and {descriptions[1]!r})",
            "keep one of them",
        )
    names = list(dict.fromkeys(name for name in map(_alias, fields) if name is not None))
    if len(names) > 1:
        raise ToolDefinitionError(
            where, f"its Fields give it two different names ({names[0]!r} and {names[1]!r})", "keep one of them"
        )


_DOC_MODULES = ("typing_extensions", "typing")
"""Where PEP 727's `Doc("...")` is defined (`typing_extensions`; `typing`, should it join it)."""


def _rebuilt(written: Any, annotation: Any, rest: list[Any]) -> Any:
    """`Annotated[annotation, *rest]`; the annotation as written when that is what it already is
    (its metadata is `rest`, nothing taken out or changed), so no new `Annotated` is built."""
    if not rest:
        return annotation
    metadata = written.__metadata__ if written is not annotation else ()  # `typing.get_args(written)[1:]`
    if len(metadata) == len(rest) and all(map(operator.is_, metadata, rest)):
        return written
    return Annotated[tuple([annotation, *rest])]


def _no_marker_inside(where: str, annotation: Any) -> None:
    """`Optional[Annotated[int, Param(...)]]`, `Annotated[str, MemoryId] | None`,
    `list[Annotated[str, Param(...)]]`: pydantic drops metadata it does not know without a word,
    so the Param's description would be lost, and the MemoryId's parameter shown to the model."""
    marker = _nested_marker(annotation)
    if marker is None:
        return
    memory = marker is MemoryId or isinstance(marker, MemoryId)
    shown, written = ("MemoryId", "MemoryId") if memory else ("Param", "Param(...)")
    bare = _without_markers(annotation)
    origin = typing.get_origin(annotation)
    if origin in UNION_TYPES:
        text = " | ".join("None" if a is type(None) else type_name(a) for a in typing.get_args(bare))
        raise ToolDefinitionError(
            where,
            f"its {shown} is inside a union (Optional[...] or X | None), where it is not seen"
            + (" (the model would be asked for it)" if memory else ""),
            f"put {shown} outermost: `Annotated[{text}, {written}]`",
        )
    raise ToolDefinitionError(
        where,
        f"its {shown} is inside {getattr(origin, '__name__', None) or type_name(origin)}[...], where it is not seen"
        + (" (the model would be asked for it)" if memory else ""),
        f"put {shown} outermost, on the parameter's whole type: `Annotated[{type_name(bare)}, {written}]`",
    )


def _without_markers(tp: Any, seen: frozenset[int] = frozenset()) -> Any:
    """`tp` with every `Param` and `MemoryId` taken out of the `Annotated`s inside it (a type
    alias holding one read as its value, once: `type Tree = dict[str, Tree] | Qty`; for the fix a
    refusal shows); `tp` itself when it cannot be rebuilt."""
    if id(tp) not in seen and alias_value(tp) is not NOT_AN_ALIAS and marker_in(tp) is not None:
        return _without_markers(alias_value(tp), seen | {id(tp)})
    if type(tp) is _ANNOTATED:
        base, rest = _without_markers(tp.__origin__, seen), [m for m in tp.__metadata__ if not _is_marker(m)]
        return Annotated[tuple([base, *rest])] if rest else base
    args = getattr(tp, "__args__", None)
    if not args or isinstance(tp, type) or getattr(tp, "__origin__", None) is Literal:
        return tp
    bare = tuple(_without_markers(a, seen) for a in args)
    if type(tp) is types.UnionType:
        return functools.reduce(operator.or_, bare)
    try:
        return tp.copy_with(bare) if hasattr(tp, "copy_with") else types.GenericAlias(tp.__origin__, bare)
    except Exception:
        return tp


def _field_default(where: str, field_info: FieldInfo | None, default: Any, annotation: Any) -> Any:
    """The parameter's default: the signature's, or the `Field`'s (they must not disagree). A
    `default_factory` is called once here, so its value is checked against the type at registration;
    each call that leaves the value out calls it again (`ParamInfo.default_factory`)."""
    if field_info is None:
        return default
    if field_info.default_factory is not None:
        if field_info.default_factory_takes_validated_data:
            name = where.rsplit("parameter ", 1)[1].strip("'")
            raise ToolDefinitionError(
                where,
                "its Field's default_factory takes the validated data, which only a pydantic model has "
                "(a tool's parameters are not one)",
                f"give a default_factory without parameters, or compute the value in the function from "
                f"`{name}: {type_name(annotation)} | None = None`",
            )
        from_field = field_info.default_factory()  # type: ignore[call-arg]
    elif field_info.default is not PydanticUndefined and field_info.default is not Ellipsis:
        from_field = field_info.default
    else:
        return default
    if default is not _MISSING and _differ(default, from_field):
        raise ToolDefinitionError(
            where,
            f"Field gives the default {value_text(from_field)} and the signature gives {value_text(default)}",
            "keep one of them",
        )
    return from_field


def _differ(default: Any, from_field: Any) -> bool:
    """Two defaults differ: `!=` says so, or cannot (it raised, or gave no bool: a numpy array)."""
    if default is from_field:
        return False
    try:
        return bool(default != from_field)
    except Exception:
        return True


def _is_plain(meta: FieldInfo) -> bool:
    """A `Field` with nothing to take off (`fast_schema.TAKEN_OFF`: no alias, no default)."""
    return (
        meta.alias is None
        and meta.validation_alias is None
        and meta.serialization_alias is None
        and meta.default is PydanticUndefined
        and meta.default_factory is None
    )


def _plain(meta: Any) -> Any:
    """A `Field` as type metadata: its alias became the wire name and its default the parameter's,
    so neither stays (pydantic would only warn about them here)."""
    if not isinstance(meta, FieldInfo) or _is_plain(meta):
        return meta
    plain = copy.copy(meta)
    plain.alias = plain.validation_alias = plain.serialization_alias = None
    plain.default, plain.default_factory = PydanticUndefined, None
    plain._attributes_set = {k: v for k, v in meta._attributes_set.items() if k not in fast_schema.TAKEN_OFF}
    return plain


def _resolve(fn: Any, where: str, name: str, text: str) -> Any:
    """A string annotation (`from __future__ import annotations`) evaluated in fn's module (for a
    method, in its class body when the module has no such name: see `_read_in_scope`)."""
    try:
        value = _read_in_scope(fn, lambda namespace: _evaluated(text, namespace))
    except Exception as exc:
        raise _unresolved(fn, where, repr(text), exc, text=True) from None
    return _resolve_refs(fn, where, name, value, text) if _has_forward_ref(value) else value


def _evaluated(text: str, namespace: dict[str, Any]) -> Any:
    value = fast_schema.plain_name(text, namespace)
    return eval(fast_schema.compiled(text), namespace) if value is fast_schema.NOT_PLAIN else value


def _read_in_scope(fn: Any, read: Callable[[dict[str, Any]], Any]) -> Any:
    """`read(namespace)` in fn's module; a name not found there, for a method, is looked up in its
    class body too: `status: Status` under `class Shop: class Status(Enum)` is what Python itself
    evaluates there without `from __future__ import annotations` (and with PEP 649's annotations).
    The module's names come first, as `typing.get_type_hints` reads them; a name found in neither
    is the module's `NameError`."""
    namespace = _namespace(fn)
    try:
        return read(namespace)
    except NameError as exc:
        names = class_names(fn)
        if not names:
            raise
        try:
            return read({**namespace, **names})
        except NameError:
            raise exc from None


def class_names(fn: Any) -> Mapping[str, Any] | None:
    """The names of the class body a method was written in (found by its `__qualname__` from its
    module), its type parameters (PEP 695, `class Shelf[T]`) over them, or None: a function, or a
    class made inside a function (`<locals>`)."""
    fn = inspect.unwrap(fn) if hasattr(fn, "__wrapped__") else fn
    path = str(getattr(fn, "__qualname__", "")).split(".")[:-1]
    if not path or "<locals>" in path:
        return None
    owner = getattr(fn, "__globals__", {}).get(path[0])
    for part in path[1:]:
        owner = getattr(owner, part, None)
    if not isinstance(owner, type):
        return None
    type_params = getattr(owner, "__type_params__", ())  # () on Python 3.12+ for most classes
    return {**vars(owner), **{p.__name__: p for p in type_params}} if type_params else vars(owner)


def _resolve_refs(fn: Any, where: str, name: str, value: Any, text: str | None = None) -> Any:
    """A type holding quoted names (`list["Node"]`, `Optional["Node"]`: written so for a class
    defined further down) with each name looked up in fn's module, as `typing.get_type_hints`
    does (pydantic would look in the package's module, not the learner's, and fail)."""
    holder = types.SimpleNamespace(__annotations__={name: value})  # this parameter's annotation alone
    try:
        return _read_in_scope(fn, lambda ns: typing.get_type_hints(holder, globalns=ns, include_extras=True)[name])
    except Exception as exc:
        shown = repr(text) if text is not None else type_name(value)
        raise _unresolved(fn, where, shown, exc, text=text is not None) from None


def _namespace(fn: Any) -> dict[str, Any]:
    """The globals fn's annotations are read in: those of the function it wraps (a decorator's
    `functools.wraps`, `functools.lru_cache`), as `typing.get_type_hints` reads them; the
    wrapper's own are its decorator's module's, where the learner's classes are not. A generic
    function's type parameters (PEP 695, `def f[T: int](x: T)`) are added over them: `T` lives in
    the function's own scope, and hides a module-level `T` there, as in its body."""
    if type(fn) is not types.FunctionType or "__wrapped__" in fn.__dict__:
        try:
            fn = inspect.unwrap(fn)
        except ValueError:  # a __wrapped__ cycle (the signature could not be read either)
            pass
    namespace = getattr(fn, "__globals__", {})
    type_params = getattr(fn, "__type_params__", None)  # () on Python 3.12+ for most functions
    if type_params:
        namespace = {**namespace, **{p.__name__: p for p in type_params}}
    return namespace


def _unresolved(fn: Any, where: str, shown: str, exc: Exception, *, text: bool) -> ToolDefinitionError:
    nested = "<locals>" in getattr(fn, "__qualname__", "")
    if not isinstance(exc, (NameError, AttributeError)):  # a typo (`"list[str"`), no type (`"tuple[int][0]"`)
        fix = "write the annotation as a Python type, e.g. 'list[str]'"  # no import mends it
    else:
        fix = (_UNRESOLVED_FIX_NESTED if text else _UNRESOLVED_FIX_QUOTED) if nested else _UNRESOLVED_FIX
    return ToolDefinitionError(where, f"its annotation {shown} cannot be resolved ({type(exc).__name__}: {exc})", fix)


_UNRESOLVED_FIX = "import the type at module level (not under TYPE_CHECKING)"
_UNRESOLVED_FIX_NESTED = (
    "define or import the type at module level: the annotation is text (`from __future__ import "
    "annotations`), read in the module, where a class made inside the enclosing function is not found"
)
_UNRESOLVED_FIX_QUOTED = (
    "define or import the type at module level: a quoted name in an annotation is read in the module, "
    "where a class made inside the enclosing function is not found"
)


def _has_forward_ref(tp: Any) -> bool:
    """`tp` holds a name still to look up (a `str` or `ForwardRef`), outside a `Literal`'s values.
    Read from `__args__` (an `Annotated`'s holds its type alone, not its metadata): reflection asks
    it of every parameter typed `list[...]`, `X | None` and the like."""
    if isinstance(tp, (str, typing.ForwardRef)):
        return True
    args = getattr(tp, "__args__", None)
    if not args or isinstance(tp, type):
        return False
    if type(tp) is not types.UnionType and getattr(tp, "__origin__", None) is Literal:  # `X | Y` has no origin
        return False
    for arg in args:
        if not isinstance(arg, type) and _has_forward_ref(arg):  # a class (most are) holds no name to look up
            return True
    return False


_ALIASES = frozenset({types.GenericAlias, type(typing.Type[int])})  # noqa: UP006 (typing.Type's own alias class)
"""`type[int]` and `typing.Type[int]` (an attribute lookup that fails raises inside: too slow for every parameter)."""


def _marker_as_default(where: str, name: str, written: Any, marker: Any) -> ToolDefinitionError:
    """`x: int = Param("...")` (FastAPI's way, where the default slot holds the metadata): here the
    marker would be the value, so it is refused with the `Annotated` form to write instead."""
    shown = "MemoryId" if marker is MemoryId else value_text(marker)
    declared = type_name(written)
    annotated = (
        f"{declared[:-1]}, {shown}]" if typing.get_origin(written) is Annotated else f"Annotated[{declared}, {shown}]"
    )
    return ToolDefinitionError(
        where,
        f"{shown} is given as its default value, so it would be passed as the value (it is not read)",
        f"put it in the annotation: `{name}: {annotated}`",
    )


def _injected_default(where: str, name: str, inject: str, default: Any) -> ToolDefinitionError:
    """`memory: Annotated[str, MemoryId] = "guest"`: the loop fills the parameter (None without a
    memory), so the default is never used (LangChain4j refuses a default on its framework
    parameters at startup). `= None` stays allowed: the function can then be called directly."""
    filled = "the memory id, None without a memory" if inject == "memory_id" else "the invocation context"
    return ToolDefinitionError(
        where,
        f"the loop fills it ({filled}), so its default {value_text(default)} is never used",
        "remove the default, or write `= None` to call the function directly",
    )


def _marker_in(annotation: Any) -> Any:
    """The marker (`MemoryId`, a `Param`) written as the type itself or a member of its union, or None."""
    members = typing.get_args(annotation) if _origin(annotation) in UNION_TYPES else (annotation,)
    for member in members:
        if member is MemoryId or member is Param or isinstance(member, _MARKERS):
            return member
    return None


def _marker_as_type(where: str, marker: Any) -> ToolDefinitionError:
    """`memory: MemoryId` or `city: Param("...")`: a marker where the type goes (pydantic's own
    complaint pointed at "a JSON-friendly type")."""
    shown = marker.__name__ if isinstance(marker, type) else value_text(marker)
    name = where.rsplit("parameter ", 1)[1].strip("'")
    return ToolDefinitionError(
        where,
        f"{shown} is a marker, not a type, so the model would be asked for it",
        f"write the type and the marker in Annotated: `{name}: Annotated[str, {shown}]`",
    )


def _is_context(annotation: Any) -> bool:
    """`InvocationContext` (or a subclass), possibly `| None`, or a type alias of it."""
    if isinstance(annotation, type):
        return issubclass(annotation, InvocationContext)
    if _origin(annotation) in UNION_TYPES:
        return any(_is_context(a) for a in typing.get_args(annotation))
    aliased = alias_value(annotation)
    return aliased is not NOT_AN_ALIAS and _is_context(aliased)


def _naming(
    where: str, name: str, param: Param | None, field_info: Any, notes: list[str], doc: str | None
) -> tuple[str, str | None]:
    if param is None and field_info is None and not notes:
        return name, doc or None
    p_desc, p_name = (param.description, param.name) if param else (None, None)
    f_desc, f_name = (field_info.description, _alias(field_info)) if field_info else (None, None)
    if p_desc and p_desc.isspace():  # a blank one says nothing (`said`)
        p_desc = None
    if f_desc and f_desc.isspace():
        f_desc = None
    if p_desc and f_desc and p_desc != f_desc:
        raise ToolDefinitionError(
            where,
            f"Param and Field give it two different descriptions (Param({p_desc!r}) and Field(description={f_desc!r}))",
            "keep one of them",
        )
    declared = [d for d in (p_desc, f_desc, *notes) if d] if notes else []  # Param and Field agree by now
    if len(set(declared)) > 1:
        raise ToolDefinitionError(
            where,
            f"its declaration gives two different descriptions ({declared[0]!r} and "
            f"{next(d for d in declared if d != declared[0])!r})",
            "keep one of them (Param, Field, Doc or a bare string in Annotated)",
        )
    if p_name and f_name and p_name != f_name:
        raise ToolDefinitionError(
            where, f"Param(name={p_name!r}) and Field(alias={f_name!r}) give it two different names", "keep one of them"
        )
    strong = p_desc or f_desc
    return p_name or f_name or name, strong or doc or (notes[0] if notes else None)


def _alias(field_info: FieldInfo) -> str | None:
    """The name a `Field` gives the model: `alias`, else a string `validation_alias`."""
    if field_info.alias is not None:
        return field_info.alias
    return field_info.validation_alias if isinstance(field_info.validation_alias, str) else None


def _required(
    where: str, base: Any, param: Param | None, default: Any, nullable: bool, found: Any = fast_schema.UNREAD
) -> tuple[bool, Any]:
    if default is not _MISSING:
        return False, _checked_default(where, base, default, nullable, found)
    if param is None or param.required:
        return True, None
    if not nullable:
        base = base.build() if isinstance(base, _Unbuilt) else base
        raise ToolDefinitionError(
            where,
            f"Param(required=False) passes None when the model omits it, but {type_name(base)} does not accept None",
            f"annotate it as `{type_name(base)} | None`, or give it a default",
        )
    return False, None


_SIGNATURE = re.compile(r"with `mode=(\w+)`: (\(.*\))")
"""The mode and the signature in pydantic's "Unrecognized field validator function signature" text."""


def _validator_signature(where: str, name: str, exc: PydanticUserError) -> ToolDefinitionError:
    """A validator whose parameters pydantic cannot call it with (`lambda a, b, c: …`, a wrap
    validator without its handler), said without pydantic's memory address and link."""
    found = _SIGNATURE.search(str(exc))
    mode = found.group(1) if found else ""
    takes = f" takes {found.group(2)}, which pydantic cannot call as {a_or_an(mode)} validator" if found else ""
    return ToolDefinitionError(
        where,
        f"a validator in {name}{takes or ' has a signature pydantic cannot call'}",
        "an after, before or plain validator takes (value) or (value, info); a wrap validator takes "
        "(value, handler) or (value, handler, info)",
    )


def _checked_default(where: str, base: Any, default: Any, nullable: bool, found: Any = fast_schema.UNREAD) -> Any:
    """The default, checked against the type (`found`: the `constraints` of an `Annotated` type's
    metadata, when `fast_schema.parts_schema` read them). A float default that is not finite
    (`max_price: float = math.inf`, "no limit") is a default as any other, as the fast checks
    read it: the executor's validator refuses NaN and infinities from the model only."""
    if isinstance(base, _Unbuilt):
        if fast_schema.obviously_within(*base, default, nullable, taken_off=True, found=found):
            return default
        base = base.build()
    elif found is not fast_schema.UNREAD:  # `Annotated[T, ...]`: obviously_valid's own reading
        if fast_schema.obviously_within(base.__origin__, base.__metadata__, default, nullable, found=found):
            return default
    elif fast_schema.obviously_valid(base, default, nullable):
        return default  # no validator needed at registration
    try:
        return coercion.validate_value(base, default)
    except ValidationError as exc:
        if all(error["type"] == "finite_number" for error in exc.errors()):
            return default  # NaN, an infinity: refused from the model (coercion rule 3), a default as any other
        hint = f" (e.g. `{type_name(base)} | None = None`)" if default is None else ""
        raise ToolDefinitionError(
            where,
            f"the default {value_text(default)} is not a valid {type_name(base)}: {exc.errors()[0]['msg']}",
            f"give a default of that type, or change the type{hint}",
        ) from None
    except Exception as exc:  # a validator of the learner's raised what pydantic passes on (a TypeError ...)
        if isinstance(exc, PydanticUserError) and exc.code == "validator-signature":  # one pydantic cannot call
            raise _validator_signature(where, type_name(base), exc) from exc
        raise ToolDefinitionError(
            where,
            f"checking the default {value_text(default)} against {type_name(base)} raised {type(exc).__name__}: {exc}",
            "give a default the type's validators accept, or make them raise ValueError for a value they refuse",
        ) from exc


def _secret_default(names: tuple[str, ...], default: Any) -> bool:
    """Whether a default is a secret the model must not read in the schema (sent with every
    request): a text that is not empty under a secret name (`password: str = "…"`), or one
    `redact.scrub_secrets` masks (a key of a known format, a URL's password, the value of a secret
    environment variable). It stays out of the schema; the tool still gets it."""
    if not isinstance(default, str) or not default:
        return False
    return any(map(redact.is_secret_name, names)) or redact.scrub_secrets(default) != default


def without_secret_defaults(body: Any) -> Any:
    """A `$defs` entry (a model's, a dataclass's, a TypedDict's object schema) with each field's
    default that is a secret (`_secret_default`) left out: the model reads those defaults too. The
    entry itself when none is (it may be shared: never changed in place)."""
    properties = body.get("properties") if isinstance(body, dict) else None
    if not isinstance(properties, dict):
        return body
    hidden = {
        name: {key: value for key, value in prop.items() if key != "default"}
        for name, prop in properties.items()
        if isinstance(prop, dict) and "default" in prop and _secret_default((name,), prop["default"])
    }
    return {**body, "properties": {**properties, **hidden}} if hidden else body


def _add_default(prop: dict[str, Any], default: Any) -> None:
    """The default the model reads, written into `prop`; a default JSON cannot show (an object,
    NaN, an infinity: `"default": NaN` would make the gateway refuse the whole request; an integer
    of more digits than Python writes, `10**5000`: the request could not be written at all) stays
    out of the schema, and is still what the tool gets when the model leaves the argument out. A
    set in it is written sorted: its own order follows the hash seed, and the spec would differ
    from run to run. What the serializer gives as a JSON scalar (`_plain_json`: a date's or an
    enum's text, a path's) is not written again by `json.dumps` to see that it can be (some 4k
    instructions: an encoder built for each default)."""
    if _plain_json(default):  # what the general path below keeps as it is, without building an encoder
        prop["default"] = default
        return
    kind = type(default)  # compared by identity: a metaclass may make a class unhashable
    plain = _plain_container(default) if kind is list or kind is tuple or kind is dict else None  # (an enum: not asked)
    if plain is not None:  # `[]`, `(800, 600)`, `{"k": 1}`: the general path's copy, made without it
        prop["default"] = plain
        return
    try:
        value = to_jsonable_python(sets_sorted(default, by_alias=True) if holds_set(default) else default)
        if not _plain_json(value):  # a date's, an enum's, a path's text: `json.dumps` writes it, not asked
            json.dumps(value, allow_nan=False)  # NaN, infinities and too long integers, at any depth
    except Exception:
        return
    prop["default"] = value


_SAFE_INT = 10**18
"""Integers below this in size are written by `json.dumps` whatever the interpreter's digit limit."""


def _plain_json(value: Any) -> bool:
    """A JSON scalar (`fast_schema.json_scalar`), an int among them not too long: a value
    `_add_default`'s general path keeps as it is (`to_jsonable_python` returns it, `json.dumps`
    writes it); a test holds the two paths equal. Subclasses (an enum, a `str` subclass) take the
    general path."""
    return fast_schema.json_scalar(value) and (type(value) is not int or -_SAFE_INT < value < _SAFE_INT)


def _plain_container(value: Any) -> list[Any] | dict[str, Any] | None:
    """What `_add_default`'s general path writes for a list or tuple of `_plain_json` values (a new
    list of them: `to_jsonable_python` writes a tuple as a list) or a dict of ASCII `str` keys to them
    (a new dict; the serializer refuses a key with a lone surrogate, and the default is left out),
    made without that path (some 35k instructions for `[1]`: the serializer and
    `json.dumps`' encoder); None for any other value (nested, a set, a subclass, a key that is not
    exactly an ASCII `str`). `tests/test_parameters_plain_defaults.py` holds the two paths equal."""
    kind = type(value)
    if kind is list or kind is tuple:
        return list(value) if all(map(_plain_json, value)) else None
    if (
        kind is dict
        and all(type(key) is str and key.isascii() for key in value)
        and all(map(_plain_json, value.values()))
    ):
        return dict(value)
    return None


def _accepts_none(annotation: Any) -> bool:
    """Does the type take `None` (so a `null` from the model is that, not "use the default")?
    Seen through `Annotated`, unions, `Literal[..., None]`, a `NewType` and a type alias
    (`type Maybe = int | None`, `TypeAliasType`, subscripted or not)."""
    if annotation in (Any, object, None, type(None)):
        return True
    if isinstance(annotation, type):  # a class (`int`, a model): the usual case, nothing more to read
        return False
    origin = _origin(annotation)
    if origin is Annotated:
        return _accepts_none(typing.get_args(annotation)[0])
    if origin in UNION_TYPES:
        return any(_accepts_none(a) for a in typing.get_args(annotation))
    if origin is Literal:
        return any(a is None for a in typing.get_args(annotation))
    aliased = alias_value(annotation if origin is None else origin)
    if aliased is not NOT_AN_ALIAS:
        return _accepts_none(aliased)
    supertype = getattr(annotation, "__supertype__", None)  # a NewType
    return supertype is not None and _accepts_none(supertype)


def type_name(annotation: Any) -> str:
    """A type as a developer wrote it: `int`, `list[str]`, `Annotated[int, Field(ge=1)]`."""
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, type) and not typing.get_args(annotation):
        return annotation.__name__
    if typing.get_origin(annotation) is Annotated:
        base, *extras = typing.get_args(annotation)
        return f"Annotated[{type_name(base)}, {', '.join(_metadata_text(m) for m in extras)}]"
    text = without_addresses(repr(annotation))  # `list[Annotated[int, AfterValidator(f)]]`: f's repr inside
    for module in sorted({"typing", *_modules(annotation)}, key=len, reverse=True):
        text = text.replace(f"{module}.", "")
    text = re.sub(r"<class '([\w.]+)'>", r"\1", text)
    text = re.sub(r"ForwardRef\(('[^']*')[^)]*\)", r"\1", text)  # a quoted name, as it was written
    text = re.sub(r"FieldInfo\(annotation=NoneType, required=True(?:, metadata=\[(.*?)\])?\)", r"Field(\1)", text)
    return re.sub(r"\b(?:Ge|Gt|Le|Lt|MinLen|MaxLen|MultipleOf)\((\w+=[^()]*)\)", r"\1", text)


def _metadata_text(meta: Any) -> str:
    """`Field(ge=1, description='...')` as it would be written, never pydantic's `FieldInfo(...)` repr."""
    if not isinstance(meta, FieldInfo):
        return type_name(meta) if isinstance(meta, type) else value_text(meta)
    parts = [] if meta.default in (PydanticUndefined, Ellipsis) else [value_text(meta.default)]
    for m in meta.metadata:
        text = value_text(m)
        inner = re.fullmatch(r"\w+\((\w+=.*)\)", text)
        parts.append(inner.group(1) if inner else text)
    for key in ("alias", "description"):
        if getattr(meta, key) is not None:
            parts.append(f"{key}={getattr(meta, key)!r}")
    return f"Field({', '.join(parts)})"


def _modules(tp: Any) -> set[str]:
    """Modules of the classes inside a type, so their prefixes can be dropped."""
    found = {getattr(tp, "__module__", "")} if isinstance(tp, type) else set()
    if isinstance(typing.get_origin(tp), type):  # a generic class of one's own: `Result[T]`, not `pkg.Result[T]`
        found.add(typing.get_origin(tp).__module__)
    if typing.get_origin(tp) is Annotated:
        base, *extras = typing.get_args(tp)
        return (
            found
            | _modules(base)
            | {type(m).__module__ for m in extras}
            | {m.__module__ for m in extras if isinstance(m, type)}
        )
    for arg in typing.get_args(tp):
        found |= _modules(arg)
    return found - {"builtins", ""}


def _not_a_pattern(pattern: str) -> str:
    """Why Python's `re` cannot compile `pattern` either ("" when it can: only Rust's engine refuses it)."""
    try:
        re.compile(pattern)
    except re.error as invalid:
        return str(invalid)
    except (RecursionError, OverflowError, ValueError):  # too deep or too large to tell: Rust's reason stands
        return ""
    return ""
