"""One parameter of a tool function: its type, metadata, required rule and default.

`parameter(fn, label, p, doc)` turns one `inspect.Parameter` into a `ParamInfo` (what the
executor needs) and its JSON Schema property (what the model reads), checking as it goes:

- the type annotation exists and resolves (string annotations are evaluated once);
- `Param` / `Field` metadata: description and name, and no two sources that disagree;
- injected parameters (`Annotated[..., MemoryId]`, `InvocationContext`) are marked, not shown;
- the required rules: no default → required; a default → optional, and it must be valid for
  the type (checked now, not at the first call); `Param(required=False)` → optional with `None`,
  so the type must accept `None`.

Each broken rule is a `ToolDefinitionError` naming the function and parameter, the rule, the fix.

Leaves out: the parameters object and the tool as a whole (`toolkit.tools.reflect`).
"""

from __future__ import annotations

import enum
import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import annotated_types as at
from pydantic import ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import to_jsonable_python

from toolkit.errors import ToolDefinitionError
from toolkit.tools import arguments, coercion
from toolkit.tools import json_schema as type_schema
from toolkit.tools.decorator import InvocationContext, MemoryId, Param

_MISSING: Any = inspect.Parameter.empty


@dataclass(frozen=True)
class ParamInfo:
    """One parameter as the executor sees it."""

    name: str
    """The Python name (the keyword the function is called with)."""
    wire_name: str
    """The name in the schema and in the model's arguments."""
    annotation: Any
    """The type values are validated against (`Param` and markers removed)."""
    required: bool = True
    """Must the model send it?"""
    default: Any = None
    """Passed when the model omits an optional parameter (already validated)."""
    nullable: bool = False
    """Does the type accept `None`?"""
    inject: str | None = None
    """`"memory_id"` or `"context"` for parameters the loop fills; `None` for the model's."""
    expects: str = ""
    """The type in words, for "missing, expected ..." messages."""


def parameter(
    fn: Callable[..., Any], label: str, p: inspect.Parameter, doc: str | None
) -> tuple[ParamInfo, dict[str, Any], dict[str, Any]]:
    where = f"{label}, parameter {p.name!r}"
    base, param, field_info, inject = _split(fn, where, p)
    if inject:
        return ParamInfo(p.name, p.name, base, required=False, nullable=True, inject=inject), {}, {}
    wire, description = _naming(where, p.name, param, field_info, doc)
    nullable = _accepts_none(base)
    required, default = _required(where, base, param, p.default, nullable)
    try:
        schema, defs = type_schema.type_schema(base)
    except Exception as exc:  # pydantic cannot describe this type
        raise ToolDefinitionError(
            where,
            f"pydantic cannot describe {type_name(base)} as JSON Schema ({type(exc).__name__})",
            "use a JSON-friendly type: str, int, float, bool, list/dict of them, an Enum, a pydantic model",
        ) from None
    prop = {**schema, "description": description} if description else dict(schema)
    if not required and p.default is not _MISSING:
        prop = _with_default(prop, default)
    info = ParamInfo(p.name, wire, base, required, default, nullable, expects=arguments.describe(schema, defs))
    return info, prop, defs


def _split(fn: Any, where: str, p: inspect.Parameter) -> tuple[Any, Param | None, Any, str | None]:
    """(type without our metadata, Param, pydantic FieldInfo, injection kind)."""
    annotation = p.annotation
    if annotation is _MISSING:
        raise ToolDefinitionError(
            where,
            "it has no type annotation, so the model is not told what to send",
            f"annotate it, e.g. `{p.name}: str` (or `Any`)",
        )
    if isinstance(annotation, str):
        annotation = _resolve(fn, where, p.name, annotation)
    if typing.get_origin(annotation) is not Annotated:
        inject = "context" if _is_context(annotation) else None
        return annotation, None, None, inject
    base, *extras = typing.get_args(annotation)
    param = next((m for m in extras if isinstance(m, Param)), None)
    field_info = next((m for m in extras if isinstance(m, FieldInfo)), None)
    rest = [_without_alias(m) for m in extras if not isinstance(m, Param) and not _is_memory_id(m)]
    inject = "memory_id" if any(_is_memory_id(m) for m in extras) else None
    inject = inject or ("context" if _is_context(base) else None)
    return (Annotated[tuple([base, *rest])] if rest else base), param, field_info, inject


def _without_alias(meta: Any) -> Any:
    """A `Field(alias=...)` became the wire name; pydantic would only warn about it here."""
    if isinstance(meta, FieldInfo) and meta.alias is not None:
        return FieldInfo.merge_field_infos(meta, alias=None, validation_alias=None, serialization_alias=None)
    return meta


_CODE: dict[str, Any] = {}


def _resolve(fn: Any, where: str, name: str, text: str) -> Any:
    """A string annotation (`from __future__ import annotations`) evaluated in fn's module."""
    try:
        code = _CODE.get(text) or _CODE.setdefault(text, compile(text, "<annotation>", "eval"))
        value = eval(code, getattr(fn, "__globals__", {}))
        if _has_forward_ref(value):  # e.g. list["Node"]: typing resolves those
            value = typing.get_type_hints(fn, include_extras=True)[name]
        return value
    except Exception as exc:
        raise ToolDefinitionError(
            where,
            f"its annotation {text!r} cannot be resolved ({type(exc).__name__}: {exc})",
            "import the type at module level (not under TYPE_CHECKING)",
        ) from None


def _has_forward_ref(tp: Any) -> bool:
    if isinstance(tp, (str, typing.ForwardRef)):
        return True
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        return _has_forward_ref(args[0])
    return origin is not Literal and any(_has_forward_ref(a) for a in args)


def _is_memory_id(marker: Any) -> bool:
    return marker is MemoryId or isinstance(marker, MemoryId)


def _is_context(annotation: Any) -> bool:
    """`InvocationContext` (or a subclass), possibly `| None`."""
    if typing.get_origin(annotation) in type_schema.UNION_TYPES:
        return any(_is_context(a) for a in typing.get_args(annotation))
    return isinstance(annotation, type) and issubclass(annotation, InvocationContext)


def _naming(where: str, name: str, param: Param | None, field_info: Any, doc: str | None) -> tuple[str, str | None]:
    p_desc, p_name = (param.description, param.name) if param else (None, None)
    f_desc, f_name = (field_info.description, field_info.alias) if field_info else (None, None)
    if p_desc and f_desc and p_desc != f_desc:
        raise ToolDefinitionError(where, "Param and Field both give a description, and they differ", "keep one of them")
    if p_name and f_name and p_name != f_name:
        raise ToolDefinitionError(
            where, f"Param(name={p_name!r}) and Field(alias={f_name!r}) give it two different names", "keep one of them"
        )
    return p_name or f_name or name, p_desc or f_desc or doc


def _required(where: str, base: Any, param: Param | None, default: Any, nullable: bool) -> tuple[bool, Any]:
    if default is not _MISSING:
        return False, _checked_default(where, base, default, nullable)
    if param is None or param.required:
        return True, None
    if not nullable:
        raise ToolDefinitionError(
            where,
            f"Param(required=False) passes None when the model omits it, but {type_name(base)} does not accept None",
            f"annotate it as `{type_name(base)} | None`, or give it a default",
        )
    return False, None


def _checked_default(where: str, base: Any, default: Any, nullable: bool) -> Any:
    if _obviously_valid(base, default, nullable):
        return default  # no validator needed at registration
    try:
        return coercion.validate_value(base, default)
    except ValidationError as exc:
        hint = f" (e.g. `{type_name(base)} | None = None`)" if default is None else ""
        raise ToolDefinitionError(
            where,
            f"the default {default!r} is not a valid {type_name(base)}: {exc.errors()[0]['msg']}",
            f"give a default of that type, or change the type{hint}",
        ) from None


def _obviously_valid(base: Any, default: Any, nullable: bool) -> bool:
    """True when `default` fits `base` without asking a validator (saves building one)."""
    origin, args = typing.get_origin(base), typing.get_args(base)
    if default is None:
        return nullable
    if origin is Annotated:
        bounds = type_schema.constraints(args[1:])
        return (
            bounds is not None
            and _obviously_valid(args[0], default, nullable)
            and all(_holds(b, default) for b in bounds)
        )
    if origin is Literal:
        return any(type(default) is type(v) and default == v for v in args)
    if origin in (list, set, frozenset, dict, tuple):
        return type(default) is origin and not default
    return type(default) is base and (base in (str, int, float, bool) or issubclass(base, enum.Enum))


def _holds(bound: Any, value: Any) -> bool:
    checks = {
        at.Ge: lambda: value >= bound.ge,
        at.Gt: lambda: value > bound.gt,
        at.Le: lambda: value <= bound.le,
        at.Lt: lambda: value < bound.lt,
        at.MinLen: lambda: len(value) >= bound.min_length,
        at.MaxLen: lambda: len(value) <= bound.max_length,
    }
    check = checks.get(type(bound))
    return bool(check and check())


def _with_default(prop: dict[str, Any], default: Any) -> dict[str, Any]:
    try:
        return {**prop, "default": to_jsonable_python(default)}
    except Exception:  # a default JSON cannot show stays out of the schema
        return prop


def _accepts_none(annotation: Any) -> bool:
    if annotation in (Any, object, None, type(None)):
        return True
    if typing.get_origin(annotation) is Annotated:
        return _accepts_none(typing.get_args(annotation)[0])
    return typing.get_origin(annotation) in type_schema.UNION_TYPES and any(
        _accepts_none(a) for a in typing.get_args(annotation)
    )


def type_name(annotation: Any) -> str:
    """A type as a developer wrote it: `int`, `list[str]`, `Annotated[int, Field(ge=1)]`."""
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, type) and not typing.get_args(annotation):
        return annotation.__name__
    text = repr(annotation)
    for module in sorted({"typing", *_modules(annotation)}, key=len, reverse=True):
        text = text.replace(f"{module}.", "")
    text = re.sub(r"<class '([\w.]+)'>", r"\1", text)
    text = re.sub(r"FieldInfo\(annotation=NoneType, required=True(?:, metadata=\[(.*?)\])?\)", r"Field(\1)", text)
    return re.sub(r"\b(?:Ge|Gt|Le|Lt|MinLen|MaxLen|MultipleOf)\((\w+=[^()]*)\)", r"\1", text)


def _modules(tp: Any) -> set[str]:
    """Modules of the classes inside a type, so their prefixes can be dropped."""
    found = {getattr(tp, "__module__", "")} if isinstance(tp, type) else set()
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
