"""Arguments in: the model's JSON string → validated Python values, or one `ArgumentError`.

`parse_arguments` turns the string into a dict (invalid JSON or a non-object is an argument
error). `coerce_arguments` checks it against the tool's parameters: unknown fields are errors
(intent drift); a missing required parameter is an error naming it; a missing optional one
gets its default (or `None` for `Param(required=False)`); `null` for an optional parameter whose
type does not take `None` also means "use the default" — what a strict-mode schema (every
property required, optional ones nullable) makes the model send. Each value goes through the
coercion mode of `toolkit.tools.coercion`: pydantic's lax mode, adjusted to LangChain4j's rules (`"27"` → 27,
27.5 → error, `"true"` → error, enums case-insensitive, unknown nested fields rejected).

The text is read leniently (`toolkit.tools.json_repair`: trailing commas, `{,}`, an object
wrapped in quotes, double-encoded JSON) and within limits (size and depth: beyond them an
`ArgumentError`, never `RecursionError`; an integer longer than Python converts, 4300 digits,
is an argument error naming it; so is a key written twice in one object with two different values,
`{"x": 1, "x": 2}`, which every JSON reader reads as `{"x": 2}`: `json_repair.key_twice`). Numbers
are read as `Decimal` for the parameters that take a `Decimal` (`exact=True`, then `floats_except` gives every other parameter the float `json.loads`
gives), so `1234567890.123456789` keeps every digit. A default handed to the function is a
fresh copy on each call (a tool that appends to its `list` default cannot change what the next
call receives); a default that cannot be copied (a connection, a lock, a client) is handed over
as it is, shared by every call.

Every problem becomes an `ArgumentProblem` written for the model: field, what was received,
what is expected (`got 27.5, expected an integer`); a validator of the tool's own that says no
(`ValueError`, `assert`, `PydanticCustomError`) gives its reason instead, on one line and sanitised
as a raised exception's text (`got 3, refused: must be even`). The field is the path the model wrote
(`pet.bark`, never pydantic's tag `pet.cat.bark`); a bad dict key reads `m.a (key)`; what was
received is shown as JSON (a `Decimal` with its digits).

Two departures from LangChain4j, on purpose (the week-3 course's "strict out": a missing argument
is named, a stray field is intent drift). LangChain4j's `DefaultToolExecutor.prepareArguments`
reads only the method's own parameters from the JSON, so an extra field is ignored; and it passes
`null` for a missing required parameter of an object type, raising only for a primitive (`P.java`'s
javadoc calls this the 1.x asymmetry, to be made uniform in 2.0). Here both are argument errors.

Leaves out: the course's "lenient in" normalisation of order ids (week 3 has its own).
"""

from __future__ import annotations

import copy
import decimal
import enum
import json
import re
import sys
import typing
from collections.abc import Callable, Collection
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Any

from pydantic import ValidationError
from pydantic_core import SchemaValidator, core_schema

from toolkit.errors import ArgumentError, ArgumentProblem
from toolkit.tools import json_repair, redact
from toolkit.tools.coercion import branch_errors, one_unit, validator_for
from toolkit.unicode import cut


class _Described:
    """`ParamInfo.expects` when the instance does not hold it: "" as the class default (a dataclass
    asks a descriptor for its field's default), and for a `described_later` one the words of its
    schema, written into the instance at the first read (its own value then shadows this)."""

    def __get__(self, instance: Any, owner: Any = None) -> str:
        if instance is None:
            return ""
        fields = instance.__dict__
        described = fields.get("_describe")
        expects = "" if described is None else describe(*described)
        fields["expects"] = expects
        return expects


@dataclass(frozen=True)
class ParamInfo:
    """One parameter as the executor sees it (built by `toolkit.tools.parameters`)."""

    name: str
    """The Python name (the keyword the function is called with)."""
    wire_name: str
    """The name in the schema and in the model's arguments."""
    annotation: Any
    """The type values are validated against (`Param` and markers removed); `built_later` builds
    it when it is first read."""
    required: bool = True
    """Must the model send it?"""
    default: Any = None
    """Passed when the model omits an optional parameter (already validated; copied per call)."""
    nullable: bool = False
    """Does the type accept `None`?"""
    inject: str | None = None
    """`"memory_id"` or `"context"` for parameters the loop fills; `None` for the model's."""
    expects: str = _Described()  # type: ignore[assignment]  # a descriptor whose default is ""
    """The type in words, for "missing, expected ..." messages (a reflected one's is written when
    first read: `described_later`); "" by default."""
    default_factory: Callable[[], Any] | None = None
    """A `Field(default_factory=...)`: called for each call that leaves the value out, its value
    read into the type as a plain default is (`default` holds the one checked at registration)."""

    def __init__(
        self,
        name: str,
        wire_name: str,
        annotation: Any,
        required: bool = True,
        default: Any = None,
        nullable: bool = False,
        inject: str | None = None,
        expects: str = "",
        default_factory: Callable[[], Any] | None = None,
    ) -> None:
        """The dataclass's own `__init__`, the same fields and defaults (a test holds them equal),
        writing the instance's `__dict__` at once: the generated one of a frozen dataclass sets each
        field through `object.__setattr__`, some 1.5k instructions a field, and reflection makes
        one `ParamInfo` per parameter."""
        fields = self.__dict__
        fields["name"], fields["wire_name"], fields["annotation"] = name, wire_name, annotation
        fields["required"], fields["default"], fields["nullable"] = required, default, nullable
        fields["inject"], fields["expects"], fields["default_factory"] = inject, expects, default_factory

    @classmethod
    def built_later(cls, build: Callable[[], Any], name: str, wire_name: str, **rest: Any) -> ParamInfo:
        """A `ParamInfo` whose `annotation` is `build()`, called when `annotation` is first read
        (by the executor's first call, say), not now: reflection reads the type from its parts."""
        info = cls(name, wire_name, None, **rest)
        object.__delattr__(info, "annotation")
        info.__dict__["_build"] = build
        return info

    def described_later(self, schema: dict[str, Any], defs: dict[str, Any]) -> ParamInfo:
        """This `ParamInfo`, its `expects` written from `describe(schema, defs)` when first read (a
        call that leaves the parameter out, a test), not now: reflection makes one per parameter, and
        most are never missing. Returns itself."""
        fields = self.__dict__
        del fields["expects"]
        fields["_describe"] = (schema, defs)
        return self

    def __getattr__(self, name: str) -> Any:
        """Asked only for an attribute not set: `annotation` of a `built_later` one, the first time
        (then it is set, and read as any other)."""
        build = self.__dict__.get("_build") if name == "annotation" else None
        if build is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        annotation = build()
        object.__setattr__(self, "annotation", annotation)
        return annotation


def parse_arguments(tool_name: str, text: str, *, exact: bool = False) -> dict[str, Any]:
    """The arguments string as a dict; `""` counts as `{}` (some gateways send it for no args).

    `exact=True` reads every number with a fraction as `Decimal` (no float rounding). A blank
    text is looked for only when it did not read (no JSON is blank): not on the usual call."""
    try:
        value = json_repair.loads(text, parse_float=decimal.Decimal if exact else None)
    except json_repair.TooLarge:
        if not text.strip():  # a million blanks: still no arguments
            return {}
        limits = (
            f"a JSON object at most {json_repair.MAX_DEPTH} levels deep and {json_repair.MAX_CHARS} characters long"
        )
        raise ArgumentError(tool_name, [ArgumentProblem("", _short(text, raw=True), limits, kind="not_json")]) from None
    except ValueError:
        if not text.strip():
            return {}
        _refuse_long_integer(tool_name, text)
        value = None
    if type(value) is not dict and not isinstance(value, dict):  # JSON reads exact dicts: one test
        raise ArgumentError(tool_name, [ArgumentProblem("", _short(text, raw=True), "a JSON object", kind="not_json")])
    if text.count(":") > len(value):  # a key may be there twice (never at the top level alone: one colon each)
        twice = json_repair.key_twice(text, value, parse_float=decimal.Decimal if exact else None)
        if twice is not None:
            raise ArgumentError(tool_name, [twice_problem(twice)])
    return value


def twice_problem(twice: json_repair.Twice) -> ArgumentProblem:
    """A key the model wrote twice with two values: every JSON reader keeps the second and drops the
    first without a word, so which one the model meant is asked, not guessed."""
    received = f"{_short(twice.first, limit=30)} and then {_short(twice.second, limit=30)}"
    return ArgumentProblem(twice.path, received, "the field once, with one value")


def _refuse_long_integer(tool_name: str, text: str) -> None:
    """An integer with more digits than Python converts (`sys.get_int_max_str_digits()`): say so."""
    limit = sys.get_int_max_str_digits()
    found = re.search(rf"(?<!\d)\d{{{limit + 1},}}", text) if limit else None  # once per run of digits
    if found:
        got = f"{_short(found.group(), raw=True, limit=20)} ({len(found.group())} digits)"
        expected = f"a number of at most {limit} digits"
        raise ArgumentError(tool_name, [ArgumentProblem("", got, expected, kind="not_json")])


def floats_except(raw: dict[str, Any], exact: Collection[str]) -> dict[str, Any]:
    """`raw` read with `exact=True`, with the `Decimal`s outside the `exact` keys turned back into
    the floats `json.loads` gives (only `Decimal` parameters get `Decimal`)."""
    return {key: value if key in exact else _floats(value) for key, value in raw.items()}


def _floats(value: Any) -> Any:
    if isinstance(value, decimal.Decimal):
        return json_repair.written_float(str(value))  # correctly rounded, the same float json.loads reads
    if isinstance(value, dict):
        return {k: _floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats(v) for v in value]
    return value


def coerce_arguments(tool_name: str, params: tuple[ParamInfo, ...], raw: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for the function (injected ones excluded), or `ArgumentError`."""
    return coerce_visible(tool_name, *model_parameters(params), raw)


def model_parameters(params: tuple[ParamInfo, ...]) -> tuple[tuple[ParamInfo, ...], frozenset[str]]:
    """The parameters the model fills (not injected) and their wire names: worked out once per
    tool by the executor, which calls `coerce_visible` with them."""
    visible = tuple(p for p in params if p.inject is None)
    return visible, frozenset(p.wire_name for p in visible)


def coerce_visible(
    tool_name: str,
    visible: tuple[ParamInfo, ...],
    known: frozenset[str],
    raw: dict[str, Any],
    validators: list[SchemaValidator | None] | None = None,
) -> dict[str, Any]:
    """`coerce_arguments`, given `model_parameters(params)`. `validators`, one entry a visible
    parameter, keeps each one's `validator_for` once looked up (None: not yet), so a tool's calls
    ask it once (the executor keeps the list, and drops it when `coercion.clear_cache` runs)."""
    problems: list[ArgumentProblem] = []
    if not known.issuperset(raw):
        unknown = [key for key in raw if key not in known]
        valid = ", ".join(p.wire_name for p in visible)  # written once, whatever the unknown keys
        problems = [ArgumentProblem(key, _short(raw[key]), valid, kind="unknown") for key in unknown]
    values: dict[str, Any] = {}
    for position, p in enumerate(visible):
        value = raw.get(p.wire_name)
        if value is None and (p.wire_name not in raw or (not p.required and not p.nullable)):
            if p.required:
                problems.append(ArgumentProblem(p.wire_name, "", p.expects, kind="missing"))
            else:
                factory = p.default_factory  # its value read into the type, as a plain default was
                values[p.name] = (
                    fresh(p.default) if factory is None else validator_for(p.annotation).validate_python(factory())
                )
            continue
        try:
            check = None if validators is None else validators[position]
            if check is None:
                check = validator_for(p.annotation)
                if validators is not None:
                    validators[position] = check
            values[p.name] = check.validate_python(value)
        except ValidationError as exc:
            problems += problems_from(exc, p.wire_name, value, p.annotation)
    if problems:
        raise ArgumentError(tool_name, problems)
    return values


_EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "int_parsing_size": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "finite_number": "a finite number",
    "bool_type": "true or false",
    "string_type": "a string",
    "list_type": "an array",
    "set_type": "an array",
    "frozen_set_type": "an array",
    "deque_type": "an array",
    "bytes_type": "a string",
    "json_invalid": "a string holding valid JSON",
    "json_type": "a string holding valid JSON",
    "tuple_type": "an array",
    "dict_type": "an object",
    "model_type": "an object",
    "dataclass_type": "an object",
    "date_parsing": "a date like 2026-10-20",
    "date_type": "a date like 2026-10-20",
    "date_from_datetime_parsing": "a date like 2026-10-20",
    "date_from_datetime_inexact": "a date like 2026-10-20",
    "datetime_parsing": "a date-time like 2026-10-20T09:30:00",
    "datetime_type": "a date-time like 2026-10-20T09:30:00",
    "datetime_from_date_parsing": "a date-time like 2026-10-20T09:30:00",
    "time_parsing": "a time like 09:30:00",
    "time_type": "a time like 09:30:00",
    "time_delta_parsing": "an ISO 8601 duration like PT30M",
    "time_delta_type": "an ISO 8601 duration like PT30M",
    "decimal_type": "a number",
    "decimal_parsing": "a number",
    "uuid_parsing": "a UUID",
    "uuid_type": "a UUID",
    "none_required": "null",
    "path_type": "a file path (a string)",
    "url_type": "a URL (a string)",
    "url_parsing": "a URL like https://example.com",
    "url_syntax_violation": "a URL like https://example.com",
    "model_attributes_type": "an object",
    "date_past": "a date in the past",
    "date_future": "a date in the future",
    "datetime_past": "a date-time in the past",
    "datetime_future": "a date-time in the future",
    "timezone_aware": "a date-time with a time zone, like 2026-10-20T09:30:00+08:00",
    "timezone_naive": "a date-time without a time zone, like 2026-10-20T09:30:00",
}
_NOT_REAL = {
    "date_parsing": "a real date like 2026-10-20",
    "date_from_datetime_parsing": "a real date like 2026-10-20",
    "datetime_parsing": "a real date-time like 2026-10-20T09:30:00",
    "datetime_from_date_parsing": "a real date-time like 2026-10-20T09:30:00",
    "time_parsing": "a real time like 09:30:00",
}
"""A date or time in ISO form whose day, month or hour does not exist (`2026-02-30`, `25:00`: the
parser's error says "day value is outside expected range"): "expected a date like 2026-10-20"
named the form the model had already used."""
_SIZES = {
    "string_too_short": "a string of at least {min_length} characters",
    "string_too_long": "a string of at most {max_length} characters",
    "too_short": "at least {min_length} items",
    "too_long": "at most {max_length} items",
    "string_pattern_mismatch": "a string matching {pattern}",
    "url_too_long": "a URL of at most {max_length} characters",
    "url_scheme": "a URL with the scheme {expected_schemes}",
    "decimal_max_digits": "a number of at most {max_digits} digits",
    "decimal_max_places": "a number with at most {decimal_places} decimal places",
    "decimal_whole_digits": "a number with at most {whole_digits} digits before the decimal point",
    "uuid_version": "a UUID of version {expected_version}",
}
"""pydantic's sentences (`Decimal input should have no more than 4 digits in total`, `UUID version
4 expected`) as the phrase of what is valid, their numbers from the error's context."""
_BOUNDS = {
    "greater_than": ("gt", ">"),
    "greater_than_equal": ("ge", ">="),
    "less_than": ("lt", "<"),
    "less_than_equal": ("le", "<="),
}


_ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d")
_ISO_DATE_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d")


def _bounded(bound: Any) -> str:
    """What a bound bounds: a number, or a date or date-time (pydantic gives their bounds as ISO
    text), else a value (a duration's bound reads "1 hour")."""
    if isinstance(bound, (int, float, decimal.Decimal)):
        return "a number"
    text = str(bound)
    if _ISO_DATE.fullmatch(text):
        return "a date"
    return "a date-time" if _ISO_DATE_TIME.match(text) else "a value"


_IMMUTABLE = (str, int, float, bool, bytes, type(None), decimal.Decimal, enum.Enum, frozenset)


def fresh(default: Any) -> Any:
    """A default as the function should receive it: immutable ones as they are, others a deep
    copy; one that cannot be copied (a connection, a lock) as it is, shared by every call."""
    if isinstance(default, _IMMUTABLE) or (
        isinstance(default, tuple) and all(isinstance(v, _IMMUTABLE) for v in default)
    ):
        return default
    try:
        return copy.deepcopy(default)
    except Exception:  # deepcopy refuses it (TypeError: cannot pickle ...): the object itself
        return default


def coerce_one(annotation: Any, value: Any, name: str = "x") -> Any:
    """`value` coerced as a required parameter `name` of type `annotation` would be (for tables)."""
    info = ParamInfo(name, name, annotation, expects="a value")
    return coerce_arguments("coerce", (info,), {name: value})[name]


_NO_ANNOTATION: Any = object()
"""`problems_from` given no annotation (its errors are said as pydantic gave them)."""


def problems_from(
    exc: ValidationError, prefix: str, value: Any = None, annotation: Any = _NO_ANNOTATION
) -> list[ArgumentProblem]:
    """One `ArgumentProblem` per pydantic error, its path starting at `prefix`; `value` (what the
    model sent for `prefix`) lets the path leave out what the model never wrote (union tags). Given
    the `annotation` checked, a union refusing an object or an array is said by its one choice of
    that kind, at the field inside at fault (`coercion.branch_errors`)."""
    errors = exc.errors(include_url=False)
    if annotation is not _NO_ANNOTATION and any(
        e["type"] == "union_type" and isinstance(e["input"], (dict, list)) for e in errors
    ):
        errors = branch_errors(annotation, value) or errors
    out = []
    for err in errors:
        field = prefix + _path(err["loc"], value)
        if err["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
            out.append(ArgumentProblem(field, _short(err["input"]), "", kind="unknown"))
        elif err["type"] == "missing":
            out.append(ArgumentProblem(field, "", "a value", kind="missing"))
        elif err["type"] == "union_tag":  # `toolkit.tools.coercion`'s words for a tagged union's tag
            out.append(_tag_problem(field, err["input"], err["ctx"]))
        elif _is_the_tools_own(err):
            out.append(ArgumentProblem(field, _short(err["input"]), _own_reason(err), kind="refused"))
        else:
            out.append(ArgumentProblem(field, _short(err["input"]), _expected(err)))
    return out


def _path(loc: tuple[Any, ...], value: Any) -> str:
    """`.a[2].b` for a pydantic `loc`, as the model wrote it: a segment naming no key of the value
    there (a discriminated union's tag, `pet.cat.bark`) is left out, and a dict key error
    (pydantic's `[key]`) reads `.a (key)`."""
    parts: list[str] = []
    for i, p in enumerate(loc):
        last = i == len(loc) - 1
        if p == "[key]" and last:
            parts.append(" (key)")
        elif isinstance(p, int) and isinstance(value, list) and 0 <= p < len(value):
            parts.append(f"[{p}]")
            value = value[p]
        elif isinstance(value, dict) and (p in value or last):
            parts.append(f"[{p}]" if isinstance(p, int) else f".{p}")
            value = value.get(p)
        elif not isinstance(value, (dict, list)) or last:
            parts.append(f"[{p}]" if isinstance(p, int) else f".{p}")
            value = None
    return "".join(parts)


def _tag_problem(field: str, sent: Any, ctx: dict[str, Any]) -> ArgumentProblem:
    """A tagged union's tag missing or not one of its tags: said at the tag's field, when the
    union reads it from one (a function may read it otherwise)."""
    name, expected = ctx["field"], f"one of {ctx['tags']}"
    if not name or not isinstance(sent, dict):
        return ArgumentProblem(field, _short(sent), f"an object of one of the kinds {ctx['tags']}")
    if name not in sent:
        return ArgumentProblem(f"{field}.{name}", "", expected, kind="missing")
    return ArgumentProblem(f"{field}.{name}", _short(sent[name]), expected)


_OWN_PREFIXES = {"value_error": "Value error, ", "assertion_error": "Assertion failed, "}
"""What pydantic puts before the message of a validator's `ValueError` / `AssertionError`."""
_builtin_types: frozenset[str] = frozenset()


def _is_the_tools_own(err: Any) -> bool:
    """An error a validator of the tool's own raised (`ValueError`, `assert`, a `PydanticCustomError`
    of a type neither pydantic nor this package raises): its message is the reason, not a type the
    value should be. pydantic's Python-side types (`path_type`) are in `_EXPECTED`; this package's
    own (`toolkit.tools.coercion`) say "Input should be ..."."""
    global _builtin_types
    kind = err["type"]
    if kind in _OWN_PREFIXES:
        return True
    if kind in _EXPECTED or err["msg"].startswith("Input should be "):
        return False
    if not _builtin_types:  # read on the first such failure, not at import
        _builtin_types = frozenset(typing.get_args(core_schema.ErrorType))
    return kind not in _builtin_types


def _own_reason(err: Any) -> str:
    """A validator's message on one line, sanitised as a tool's raised exception is (it is the
    learner's text, and may hold a connection string just the same)."""
    reason = redact.sanitize(err["msg"].removeprefix(_OWN_PREFIXES.get(err["type"], "")))
    return " ".join(reason.split()) or "the tool's own check of this value failed"  # one line per problem


_TOO_LARGE_FOR_A_FLOAT = "a number from -1.7e308 to 1.7e308 (this one is too large for a float)"
"""For an integer past a float's range (`10**400` written out): "expected a number" was untrue."""


def _expected(err: Any) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind == "float_type" and _too_large_for_a_float(err.get("input")):
        return _TOO_LARGE_FOR_A_FLOAT
    if kind in _NOT_REAL and "range" in str(ctx.get("error", "")):
        return _NOT_REAL[kind]
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    if kind in ("enum", "literal_error"):
        return f"one of {ctx['expected']}"
    if kind in _BOUNDS:
        key, sign = _BOUNDS[kind]
        return f"{_bounded(ctx[key])} {sign} {ctx[key]}"
    if kind in _SIZES:
        return one_unit(_SIZES[kind].format(**ctx))
    msg = err["msg"]
    if msg.startswith("Input should be "):
        return msg[len("Input should be ") :]
    return msg if msg[1:2].isupper() else msg[:1].lower() + msg[1:]  # "URL ..." keeps its capitals


def _too_large_for_a_float(value: Any) -> bool:
    return type(value) is int and abs(value) > sys.float_info.max


def _short(value: Any, raw: bool = False, limit: int = 60) -> str:
    text = value if raw else _as_json(value)
    return cut(text, limit, "...")


def _as_json(value: Any) -> str:
    """What the model sent, as JSON: a `Decimal` (read with `exact=True`) as its digits."""
    if type(value) in _JSON_SCALARS:  # nothing to mark: written as `json.dumps` writes it, without an encoder
        try:
            return json_text(value)
        except ValueError:  # an int too long to write
            return _repr(value)
    if type(value) is json_repair.Written:  # as the model wrote it (`1e-400`), not as its float (0.0)
        return value.text
    digits: dict[str, str] = {}

    def number(v: Any) -> Any:
        if isinstance(v, decimal.Decimal):
            marker = f"\x00{len(digits)}\x00"
            digits[json.dumps(marker)] = str(v)
            return marker
        raise TypeError(type(v).__name__)

    try:
        text = json.dumps(value, ensure_ascii=False, default=number)
    except (TypeError, ValueError, RecursionError):  # not JSON (never from the model): its repr
        return _repr(value)
    if digits:  # every marker replaced in one pass (one `replace` each was quadratic)
        text = _NUMBER_MARKER.sub(lambda m: digits.get(m.group(0), m.group(0)), text)
    return text


_NUMBER_MARKER = re.compile(r'"\\u0000[0-9]+\\u0000"')
"""A `_as_json` marker as `json.dumps` writes it."""
_JSON_SCALARS = frozenset({str, int, bool, type(None)})
"""What `json_text` writes itself, and the most a bad argument is (a string for a number)."""


def _repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception:
        return f"<{type(value).__name__}>"


def describe(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """A JSON Schema fragment in words, e.g. `an integer` or `one of "a", "b"`."""
    if "$ref" in schema:
        return describe(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), defs)
    if "enum" in schema:
        return "one of " + ", ".join(json_text(v) for v in schema["enum"])
    if "const" in schema:
        return json_text(schema["const"])
    if "anyOf" in schema:
        return " or ".join(dict.fromkeys(describe(s, defs) for s in schema["anyOf"]))
    kind, fmt = schema.get("type"), schema.get("format")
    if kind == "string" and fmt in ("date", "date-time"):
        return _EXPECTED["date_type" if fmt == "date" else "datetime_type"]
    return _WORDS.get(kind or "", "any value")


_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "an array",
    "object": "an object",
    "null": "null",
}
"""A JSON Schema `type` in words (`describe`: made once, not on every parameter)."""


def json_text(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False)`; a string, an integer, a boolean or `None` written
    as `json.dumps` writes it, without building an encoder for it (an enum of many values)."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)  # what `json.dumps` calls for a string
    if kind is int:
        return int.__repr__(value)
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    return json.dumps(value, ensure_ascii=False)
