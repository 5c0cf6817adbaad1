"""The coercion mode: pydantic's validator for a type, adjusted to LangChain4j's rules.

The mode is chosen to match LangChain4j's `DefaultToolExecutor`, and it is pydantic's *lax* mode
with eight adjustments. Lax is right for numbers: `"27"` → 27, `"2.5"` → 2.5, `27.0` → 27,
ISO strings → dates; `27.5` for an `int` is an error, never truncated (pydantic checks the
fraction first, as LangChain4j does), and so is a value outside a `Field(ge=..., le=...)` range.
Strict mode would refuse `"27"`; plain lax would accept too much, so we take pydantic's own
validator description (its *core schema*) for each parameter type and adjust it, at every
depth — nested models, lists and dicts included:

1. booleans are strict: only JSON `true` / `false` (LangChain4j refuses the string `"true"`);
2. integers, floats and decimals refuse booleans (lax would read `true` as 1), and strings
   with Python's digit separators (`"1_000"` is Python syntax, not a JSON number); so do
   number choices of an enum or `Literal` (`true` is not `Literal[1, 2]`'s 1), and boolean
   choices refuse numbers (`1` is not `Literal[True]`), and a number is the number choice
   (`1.0` is `Literal[1, True]`'s 1, not its `True`); an integer takes a whole number written
   with an exponent, in quotes too (`"1e3"` → 1000, `"5."` → 5, as `BigDecimal` reads it; `1e20` →
   10**20, a float past 64 bits pydantic refused as "not an integer"), and `"1.25e1"` is a fraction;
   a JSON number whose float is not the number written (`json_repair.Written`) is read as written:
   `1e-400` (float 0.0) and `1.0000000000000000001` (float 1.0) are fractions, `1e23` is 10**23;
   only once pydantic refused the value, in a union once every choice did (`int | str` keeps
   `"1e3"` a string, `int | float` keeps `2.0` a float), and an error names what was sent;
3. floats refuse NaN and infinity (`"nan"` is not a price), and so does a value of any type (`Any`,
   `dict[str, Any]`) at any depth of it: `NaN` and `Infinity` are no JSON (Python's `json` reads
   them; LangChain4j's Jackson refuses them);
4. enum and `Literal` strings match ASCII-case-insensitively when exactly one choice matches
   (`"SHIPPED"` → `"shipped"`; LangChain4j retries `valueOf` in upper case) — only A–Z/a–z fold,
   so `"ſhipped"` (a long s) matches nothing, and whitespace is never stripped; number
   choices accept their digits (`"3"` for `Literal[1, 2, 3]`, as for any number);
5. models, dataclasses and TypedDicts reject unknown fields unless they set `extra` themselves
   (a stray `refundAmount` is intent drift, not noise);
6. `null` for a field that has a default means "use the default", and `null` for a TypedDict's
   not-required key (`NotRequired`, `total=False`) that does not take `None` means "absent"
   (what a strict-mode schema makes the model send for an optional field);
7. dates, date-times, times and durations come only from ISO 8601 strings: a number, or a
   string of digits, is not read as a Unix timestamp (`0` is not 1970-01-01);
8. collections are read as LangChain4j reads them, through JSON into the whole value
   (`DefaultToolExecutor.coerceArgument`): an iterable (`Iterable[int]`, a `Generator`) becomes a
   list, where pydantic's lazy iterator checked its items only while the tool read them (a bad item
   was the tool's failure, not an argument error), could be read once and had no `len()`; and a
   `Sequence[int]` is checked as the array it is in JSON, where pydantic's Python check told a
   string "'str' instances are not allowed as a Sequence value" and a number "an instance of
   Sequence"; a model, dataclass or TypedDict sent as a string holding a JSON object (a nested
   object double-encoded, `"{\"city\": \"Hangzhou\"}"`) is that object, as LangChain4j's
   `Json.fromJson` reads a `String` argument for a POJO (not for a `Map` or a list: nor here).

Why `"27"` becomes 27 but `"true"` never becomes `true`: a number in quotes has exactly one
reading, and LangChain4j's executor reads it (`Double.parseDouble`); the strings a model might
mean as booleans (`"true"`, `"yes"`, `"1"`, `"on"`, `"false"`, `"0"` …) are ambiguous in
general, and lax pydantic would silently turn `"no"` into `False` — the same call that
refunds or not. So numbers are read leniently, booleans only from JSON's own literals.

A union reports one error ("expected an integer or a string"), not one per branch; a class
branch is named with its fields ("a Cat object (fields: kind, meow)"). A tagged union (pydantic's
`discriminator`) reports a wrong or missing tag at the tag's field, with the tags; its tag matches
up to ASCII case as rule 4 says.
Numbers are not turned into strings (`42` for a `str` is an error), as in pydantic. Here the
package departs from LangChain4j on purpose: `DefaultToolExecutor.coerceArgument`
(langchain4j/src/main/java/dev/langchain4j/service/tool/DefaultToolExecutor.java) gives a `String`
parameter `argument.toString()` of whatever came (`42` → `"42"`, an object → its `Map.toString()`);
the week-3 course's rule is "strict out" (a wrong type is named, with the format expected).

Leaves out: the course's "lenient in" normalisation of order ids (week 3 has its own).
"""

from __future__ import annotations

import decimal
import enum
import json
import math
import re
import threading
from collections.abc import Callable, Collection
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import (
    InitErrorDetails,
    PydanticCustomError,
    PydanticSerializationError,
    PydanticUseDefault,
    SchemaValidator,
    core_schema,
    to_jsonable_python,
)

from toolkit.errors import a_or_an
from toolkit.tools import json_schema
from toolkit.tools.json_repair import Written

_VALIDATORS: dict[Any, SchemaValidator] = {}
_EXACT: dict[Any, bool] = {}


def validate_value(annotation: Any, value: Any) -> Any:
    """`value` checked and converted by the same rules the model's arguments meet."""
    return validator_for(annotation).validate_python(value)


def validator_for(annotation: Any) -> SchemaValidator:
    """pydantic's validator for `annotation`, adjusted as the module docstring says; cached by
    the annotation, and first by the annotation object itself (hashing `Literal[...]` builds a set
    of all its values each time: 2 ms a call for 10,000 values)."""
    seen = _BY_OBJECT.get(id(annotation))
    if seen is not None and seen[0] is annotation:
        return seen[1]
    try:
        validator = _VALIDATORS[annotation]
    except KeyError:
        validator = _VALIDATORS[annotation] = _build(annotation)
    except TypeError:
        return _build(annotation)
    if len(_BY_OBJECT) >= _KEEP_OBJECTS:
        _BY_OBJECT.clear()
    _BY_OBJECT[id(annotation)] = (annotation, validator)  # kept with it: its id stays its own
    return validator


_BY_OBJECT: dict[int, tuple[Any, SchemaValidator]] = {}
_KEEP_OBJECTS = 4096


def needs_exact_numbers(annotation: Any) -> bool:
    """Does `annotation` contain a `Decimal` anywhere (so numbers must be read without floats)?"""
    try:
        return _EXACT[annotation]
    except KeyError:
        pass
    except TypeError:
        return _has_decimal(TypeAdapter(annotation).core_schema)
    found = _EXACT[annotation] = _has_decimal(TypeAdapter(annotation).core_schema)
    return found


def _has_decimal(node: Any) -> bool:
    if isinstance(node, (list, tuple)):
        return any(_has_decimal(item) for item in node)
    if not isinstance(node, dict):
        return False
    if node.get("type") == "decimal":
        return True
    return any(_has_decimal(v) for k, v in node.items() if k not in _OPAQUE or k == "schema_ref")


def clear_cache() -> None:
    """Forget every cached validator (for benchmarks), and those kept beside a tool (`cleared`)."""
    global cleared
    _VALIDATORS.clear()
    _LABELLED.clear()
    _BY_OBJECT.clear()
    _EXACT.clear()
    cleared += 1


cleared = 0
"""How many times `clear_cache` ran: the validators a tool keeps for its parameters
(`coerce_visible`'s `validators`) are looked up again when it moves on."""


def _build(annotation: Any, rules: dict[str, Callable[[dict], Any]] | None = None) -> SchemaValidator:
    schema = adjusted(TypeAdapter(annotation).core_schema, rules)
    # pydantic-core would reuse a finished model's own validator (without our adjustments),
    # so each model in the schema is marked unfinished while the new validator is built; which
    # models are finished is read under the lock (another build may have one marked meanwhile).
    with _BUILD_LOCK:
        models: list[Any] = [c for c in _model_classes(schema) if c.__dict__.get("__pydantic_complete__")]
        for cls in models:
            cls.__pydantic_complete__ = False
        try:
            return SchemaValidator(schema)
        finally:
            for cls in models:
                cls.__pydantic_complete__ = True


_BUILD_LOCK = threading.Lock()


def _model_classes(node: Any) -> list[type]:
    if isinstance(node, (list, tuple)):
        return [c for item in node for c in _model_classes(item)]
    if not isinstance(node, dict):
        return []
    found = [node["cls"]] if node.get("type") in ("model", "dataclass") else []
    return found + [c for k, v in node.items() if k not in _OPAQUE for c in _model_classes(v)]


def adjusted(node: Any, rules: dict[str, Callable[[dict], Any]] | None = None) -> Any:
    """A copy of a pydantic core schema with the eight adjustments applied at every depth (`rules`:
    the adjustments by core-schema type, `_RULES` unless given)."""
    rules = _RULES if rules is None else rules
    if isinstance(node, (list, tuple)):
        return type(node)(adjusted(item, rules) for item in node)
    if not isinstance(node, dict):
        return node
    out = {
        k: v if k in _OPAQUE else _adjusted_map(v, rules) if k in _NAME_MAPS else adjusted(v, rules)
        for k, v in node.items()
    }
    kind = out.get("type")
    rule = rules.get(kind) if isinstance(kind, str) else None
    return rule(out) if rule else out


_NAME_MAPS = {"fields"}
"""Keys whose value maps *field names* to schemas (a field may be called `type`)."""


def _adjusted_map(value: Any, rules: dict[str, Callable[[dict], Any]]) -> Any:
    if isinstance(value, dict):
        return {name: adjusted(sub, rules) for name, sub in value.items()}
    return adjusted(value, rules)


_OPAQUE = {
    "metadata",
    "serialization",
    "default",
    "cls",
    "members",
    "expected",
    "config",
    "function",
    "ref",
    "schema_ref",
}


def _strict_bool(node: dict) -> dict:
    return node | {"strict": True}


def no_bool_refusal(kind: str, word: str) -> Callable[[Any], Any]:
    """Rule 2 for a number of `kind` ("int", "float"): a boolean, or a string with `_` digit
    separators, is refused in pydantic's words for that kind; anything else goes on as it is."""

    def refuse(value: Any) -> Any:
        if isinstance(value, bool):
            raise PydanticCustomError(f"{kind}_type", f"Input should be a valid {word}")
        if isinstance(value, str) and "_" in value:
            raise PydanticCustomError(f"{kind}_parsing", f"Input should be a valid {word}")
        if kind == "int" and type(value) is Written:  # read as written (`whole_if_refused`), not as its float
            raise not_whole()
        return value

    return refuse


def not_whole() -> PydanticCustomError:
    """pydantic's refusal of 27.5 for an int: said of a number whose float is whole but which was not
    written whole (`1e-400`)."""
    return PydanticCustomError("int_from_float", "Input should be a valid integer, got a number with a fractional part")


def finite_only(value: Any) -> Any:
    """Rule 3 for a value of any type: `value` as it is, unless a NaN or an infinity is in it (at any
    depth of its lists and dicts), which JSON cannot hold: refused as a float's is."""
    kind = type(value)
    if kind is float or kind is Written:
        if not math.isfinite(value):
            raise PydanticCustomError("finite_number", "Input should be a finite number")
        return float(value)  # a `Written`'s float (its text only reads an integer)
    if kind is not dict and kind is not list:
        return value
    pending = [value]
    while pending:  # iterative: a value nested past the recursion limit (not from JSON) is no error here
        items = pending.pop()
        for item in items.values() if type(items) is dict else items:
            held = type(item)
            if (held is float or held is Written) and not math.isfinite(item):
                raise PydanticCustomError("finite_number", "Input should be a finite number")
            if held is Written:
                _plain_floats(items)
            if held is dict or held is list:
                pending.append(item)
    return value


def _plain_floats(items: dict | list) -> None:
    """Each `Written` in `items` (read from the model's JSON for this call) made its plain float, in place."""
    keys = items.keys() if type(items) is dict else range(len(items))
    for key in list(keys):
        if type(items[key]) is Written:
            items[key] = float(items[key])


def _finite_any(node: dict) -> Any:
    return _before(finite_only, node)


def _no_bool(kind: str, word: str) -> Callable[[dict], Any]:
    refuse = no_bool_refusal(kind, word)

    def rule(node: dict) -> Any:
        if kind == "float":
            node = node | {"allow_inf_nan": False}
        if kind == "int":  # one call into Python a value: the refusal, the int, then the whole number
            plain = {k: v for k, v in node.items() if k != "ref"}
            return _around(refusing_whole, plain, node, _before(refuse, plain))
        return _before(refuse, node)

    return rule


def _around(fn: Callable[[Any, Any], Any], inner: Any, node: dict, unwrapped: Any = None) -> Any:
    """`fn(value, handler)` around `inner` (made from `node`), taking `node`'s `ref` as `_before` does;
    the wrapper keeps `unwrapped` (what it checks without the whole-number reading; `inner` if not
    given) in its metadata, for a union to take it back (`_union`)."""
    metadata = {_INNER: inner if unwrapped is None else unwrapped}
    if "ref" not in node:
        return core_schema.no_info_wrap_validator_function(fn, inner, metadata=metadata)
    return core_schema.no_info_wrap_validator_function(fn, inner, ref=node["ref"], metadata=metadata)


_INNER = "toolkit_whole_number_inner"
"""The metadata key of an int's `whole_if_refused` wrapper that holds the int's own check."""


def _unwrapped(choice: Any) -> tuple[Any, bool]:
    """A union's choice without its whole-number wrapper (`(schema, label)` kept a pair), and whether it had one."""
    schema = choice[0] if isinstance(choice, tuple) else choice
    inner = schema.get("metadata", {}).get(_INNER) if isinstance(schema, dict) and "ref" not in schema else None
    if inner is None:
        return choice, False
    return ((inner, *choice[1:]) if isinstance(choice, tuple) else inner), True


def refusing_whole(value: Any, handler: Any) -> Any:
    """An int's check (`handler`) with rule 2 before it and `whole_if_refused` around it, in one
    Python frame a value (three, as wrappers of `no_bool_refusal("int", "integer")` and
    `whole_if_refused`: the plain reference a test holds this equal to); a value the refusal
    refuses is no whole number either."""
    kind = type(value)
    if kind is not int:  # the usual value: neither refusal applies (a bool is no int subclass of its own)
        if kind is bool:
            raise PydanticCustomError("int_type", "Input should be a valid integer")
        if (kind is str or isinstance(value, str)) and "_" in value:
            raise PydanticCustomError("int_parsing", "Input should be a valid integer")
        if kind is Written:  # read as written: its float may be whole where the number is not
            return _whole_of_refused(value, handler, not_whole())
    try:
        return handler(value)
    except ValidationError as refused:
        return _whole_of_refused(value, handler, refused)


def whole_if_refused(value: Any, handler: Any) -> Any:
    """An int as pydantic reads it, or, where it refuses a whole number, that number's int: tried
    only after pydantic refused, so a union still takes a `str` or a `float` branch as it did."""
    try:
        return handler(value)
    except ValidationError as refused:
        return _whole_of_refused(value, handler, refused)


def _whole_of_refused(value: Any, handler: Any, refused: ValidationError | PydanticCustomError) -> Any:
    """The int of the whole number `value` is, which `handler` `refused` as it was; else `refused`.

    Raised, `refused` is let go of by this frame: the traceback holds the frame, and the frame
    holding the error would make a cycle (error, traceback, frame) that keeps every caller's frame
    (the loop's, its round and memory) until the garbage collector finds it."""
    try:
        whole = _whole_number(value)
        if whole is value:
            raise refused
        try:
            return handler(whole)
        except ValidationError as out_of_range:  # a bound, a multiple: said of what the model sent
            raise _as_sent(out_of_range, value, refused) from None
    finally:
        refused = None  # type: ignore[assignment]


def _as_sent(
    error: ValidationError, value: Any, fallback: ValidationError | PydanticCustomError
) -> ValidationError | PydanticCustomError:
    """`error` with `value` as the input of its errors at the top (what the model wrote, `"1e3"`,
    not the 1000 it was read as); `fallback` when an error is not one pydantic can remake."""
    details: list[InitErrorDetails] = []
    for e in error.errors():
        detail = InitErrorDetails(type=e["type"], loc=e["loc"], input=e["input"] if e["loc"] else value)
        if "ctx" in e:
            detail["ctx"] = e["ctx"]
        details.append(detail)
    try:
        return ValidationError.from_exception_data(error.title, details)
    except KeyError:  # an error type of a custom validator ("Invalid error type")
        return fallback


_DECIMAL_TEXT = re.compile(r"\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*")
"""A decimal number as text, as `java.math.BigDecimal` reads it (LangChain4j reads an integer argument
so: `DefaultToolExecutor.getBigDecimalValue`, then `toBigIntegerExact`): an exponent (`"1e3"`,
`" 2.5E1 "`), a sign, a point with no digits after or before it (`"5."`, `".5e1"`); pydantic's int
reads none of these."""


def _whole_number(value: Any) -> Any:
    """The int a whole number is, where pydantic's int reading misses it: a float past 64 bits (`1e20`),
    a number in quotes written otherwise (`"1e3"`, `"+1e3"`, `"5."`: `_DECIMAL_TEXT`, read as
    `BigDecimal` reads it), and a JSON number whose float is not the number written (a `Written`:
    `1e23` is 10**23, not its float's 99999999999999991611392; `1e-400`, whose float is 0.0, is no
    integer); anything else as it is, for pydantic to read or refuse (a fraction: "expected an integer")."""
    if type(value) is float and value.is_integer():  # finite and whole
        return int(value)
    text = value.text if type(value) is Written else value
    if type(text) is str and _DECIMAL_TEXT.fullmatch(text):
        number = decimal.Decimal(text)
        if number.adjusted() < _INT_DIGITS and number == number.to_integral_value():
            return int(number)
    return value


_INT_DIGITS = 4300
"""Digits of the largest int read from an exponent (Python's own limit for reading an int from text)."""


def _before(fn: Callable[[Any], Any], node: dict) -> Any:
    """`fn` run before `node`'s own validation: a function-before schema around `node`. A node
    that is a definition (it has a `ref`, e.g. an enum pydantic defines once and refers to) gives
    its `ref` to the wrapper, which takes its place among the definitions (a `ref` left inside made
    pydantic-core fail to build: `KeyError: 'ref'`)."""
    if "ref" not in node:
        return core_schema.no_info_before_validator_function(fn, node)
    inner = {k: v for k, v in node.items() if k != "ref"}
    return core_schema.no_info_before_validator_function(fn, inner, ref=node["ref"])


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """`text` with only A–Z lowered (no Unicode case folding: "ſ" stays "ſ", "K" (Kelvin) stays)."""
    return text.translate(_ASCII_LOWER)


def _casefold(choices: list[Any], error: str) -> Callable[[Any], Any]:
    """A string matching one choice up to ASCII case (or, for number choices, as digits) → that
    choice; a boolean matching a number choice, or a number a boolean choice, is refused (Python's
    `True == 1` would let `true` through as 1, and `1` as `True`: rule 2 for enums and literals);
    a number matching a number choice becomes that choice (pydantic's lookup gave `1.0` the `True`)."""
    folded: dict[str, list[Any]] = {}
    for choice in choices:
        wire = _wire(choice)
        if isinstance(wire, str):
            folded.setdefault(ascii_lower(wire), []).append(choice)
        elif isinstance(wire, int) and not isinstance(wire, bool):
            folded.setdefault(str(wire), []).append(choice)

    try:
        members: Collection[Any] = frozenset(choices)  # looked up, not compared with each in turn
    except TypeError:  # a choice that cannot be hashed
        members = choices

    bools = {choice for choice in choices if isinstance(choice, bool)}
    numbers = {_wire(c): c for c in choices if isinstance(_wire(c), (int, float)) and not isinstance(_wire(c), bool)}
    by_json = _by_json(choices)
    own_words = bool(by_json) or any(
        (isinstance(c, enum.Enum) and not isinstance(c, (str, int))) or _wire(c) is None or isinstance(c, bool)
        for c in choices
    )
    """Choices pydantic's own error would show as Python reprs (`<Color.RED: 'red'>`, `(10, 20)`, `None`, `True`)."""

    def refuse() -> Any:
        raise PydanticCustomError(error, "Input should be {expected}", {"expected": _choices_text(choices)})

    def match(value: Any) -> Any:
        if by_json and type(value) in (str, list, dict) and not _among(value, members):
            value = by_json.get(_json_key(value) or "", value)  # `[10, 20]` is the choice `(10, 20)`
        if isinstance(value, str) and value not in members:
            hits = folded.get(ascii_lower(value), [])
            value = hits[0] if len(hits) == 1 else value
        elif isinstance(value, bool) and value not in bools and value in members:
            refuse()
        elif type(value) in (int, float):
            if value in numbers:  # the number choice itself: `1.0` is `Literal[1, True]`'s 1, never its True
                return numbers[value]
            if value in members:
                refuse()
        elif type(value) is Written:  # as written: `1e-400` is not the choice 0 its float is
            return _written_choice(value, numbers, refuse)
        if own_words and not _among(value, members):
            refuse()
        return value

    return match


def _written_choice(value: Written, numbers: dict[Any, Any], refuse: Callable[[], Any]) -> Any:
    """The number choice a `Written` number is, read as written (`1e23` is the choice 10**23, `1e-400`
    no choice 0), or a float choice its float is; else refused."""
    exact = decimal.Decimal(value.text)
    if exact in numbers:
        return numbers[exact]
    if any(type(number) is float and number == value for number in numbers):
        return numbers[float(value)]
    return refuse()


def _among(value: Any, members: Collection[Any]) -> bool:
    """`value in members`, False for a value that cannot be hashed (an object for a `Literal`)."""
    try:
        return value in members
    except TypeError:
        return False


def _wire(choice: Any) -> Any:
    """A choice as the schema tells it to the model: an enum member (a `Literal` may list
    `Color.RED`) as its value (`{"const": "red"}`); any other choice as it is."""
    return choice.value if isinstance(choice, enum.Enum) else choice


_SCALARS = (str, int, float, bool, type(None))


def _by_json(choices: list[Any]) -> dict[str, Any]:
    """The choices JSON writes as something else (an enum's tuple value as an array, a date as a
    string), by their JSON text: what the model reads in the schema, and sends back."""
    found: dict[str, Any] = {}
    for choice in choices:
        wire = _wire(choice)
        key = None if isinstance(wire, _SCALARS) else _json_key(wire)
        if key is not None:
            found.setdefault(key, choice)
    return found


def _json_key(value: Any) -> str | None:
    """`value` as JSON text (its keys sorted), or None when it has none."""
    try:
        return json.dumps(to_jsonable_python(value), sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, PydanticSerializationError):
        return None


def _choices_text(choices: list[Any], last: str = " or ") -> str:
    """The choices as pydantic words them in its own error (`1, 2 or 'a'`), each as the schema
    showed it to the model: an enum member as its value, a value JSON writes otherwise (a tuple,
    a date) as its JSON (`[10, 20]`, `"2026-10-20"`), `None` and booleans as `null`, `true`, `false`; `last` goes before the last one (a union's
    words put `, ` there: its own `or`s part its branches)."""
    wires = [_wire(choice) for choice in choices]
    texts = [
        json.dumps(w)
        if w is None or isinstance(w, bool)
        else repr(w)
        if isinstance(w, _SCALARS)
        else _json_key(w) or repr(w)
        for w in wires
    ]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])}{last}{texts[-1]}"


def _enum(node: dict) -> Any:
    if json_schema.is_flag(node.get("cls")):
        return _before(_flag(node["cls"]), node)
    return _before(_casefold([m.value for m in node["members"]], "enum"), node)


def _flag(cls: type[enum.Flag]) -> Callable[[Any], Any]:
    """A flag takes what its schema lists (`toolkit.tools.json_schema.flag_schema`): a number made of its flags, as
    JSON or as digits (a member too, from Python); anything else is refused with the flags named
    (pydantic's own error named the members alone, and an `IntFlag` kept a bit no flag has)."""
    bits = json_schema.every_bit(cls)

    def check(value: Any) -> Any:
        if isinstance(value, cls):
            return value
        number = int(value) if type(value) is str and value.isascii() and value.isdigit() else value
        if type(number) is float and number.is_integer():
            number = int(number)
        if type(number) is int and json_schema.is_flag_value(bits, number):
            return number
        expected = f"one of the flags {json_schema.flags_text(cls)} or a sum of several of them (0 for none)"
        raise PydanticCustomError("flag_error", "Input should be {expected}", {"expected": expected})

    return check


def _literal(node: dict) -> Any:
    return _before(_casefold(list(node["expected"]), "literal_error"), node)


def _model(node: dict) -> Any:
    config = node.get("config") or {}
    if "extra_fields_behavior" not in config:
        node = node | {"config": config | {"extra_fields_behavior": "forbid"}}
    return _before(_object_from_json, node)


def _forbid_extra(node: dict) -> dict:
    return node if "extra_behavior" in node else node | {"extra_behavior": "forbid"}


def _dataclass(node: dict) -> Any:
    return _before(_object_from_json, node)


def _object_from_json(value: Any) -> Any:
    """An object a model sent as a JSON string (a nested object double-encoded) read as that
    object, as LangChain4j reads a `String` argument for a POJO (`Json.fromJson`); any other value,
    and a string that holds no JSON object, as it is (for "expected an object")."""
    if type(value) is not str or value.lstrip()[:1] != "{":
        return value
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than json.loads reads
        return value
    return parsed if isinstance(parsed, dict) else value


def _typed_dict(node: dict) -> Any:
    """Unknown keys rejected (pydantic writes `ignore` for every TypedDict, so only the class's own
    `extra` config counts), and `null` for a not-required key means "absent" (rule 6)."""
    if "extra_fields_behavior" not in (node.get("config") or {}):
        node = node | {"extra_behavior": "forbid"}
    optional = [
        name for name, f in node["fields"].items() if not f.get("required", True) and not _takes_none(f["schema"])
    ]
    if optional:
        node = _before(_nulls_dropped(optional), node)
    return _before(_object_from_json, node)


def _takes_none(schema: dict) -> bool:
    """Does a (rule-adjusted) core schema take `None`? Then a `null` is that, not "use the default" or
    "absent" (rule 6): `Optional[...]` (under validators too), `Any`, `Literal[..., None]`, a union
    with such a choice."""
    while schema.get("type") in ("function-before", "function-after", "function-wrap", "default"):
        schema = schema["schema"]
    kind = schema.get("type")
    if kind == "union":
        return any(_takes_none(c[0] if isinstance(c, tuple) else c) for c in schema["choices"])
    if kind == "literal":
        return any(value is None for value in schema["expected"])
    return kind in ("nullable", "none", "any")


def _nulls_dropped(keys: list[str]) -> Callable[[Any], Any]:
    def drop(value: Any) -> Any:
        if isinstance(value, dict) and any(value.get(k, 0) is None for k in keys):
            return {k: v for k, v in value.items() if not (v is None and k in keys)}
        return value

    return drop


def _null_means_default(value: Any) -> Any:
    if value is None:
        raise PydanticUseDefault()
    return value


def _default(node: dict) -> Any:
    if _takes_none(node["schema"]):
        return node
    return node | {"schema": _before(_null_means_default, node["schema"])}


_NUMERIC = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*")


def _whole_list(node: dict) -> dict:
    """An iterable (pydantic's lazy `generator` schema) validated as a list of the same items: every
    item is checked before the tool runs, and the tool gets all of them, as often as it reads them."""
    return {**node, "type": "list"}


def _json_list(node: dict) -> Any:
    """A type pydantic checks one way in Python and another in JSON (`Sequence[T]`: an instance of
    `Sequence` in Python, an array in JSON) checked as JSON when that is an array: the model's
    arguments are JSON, and "an instance of Sequence" is nothing it can send."""
    json_branch = node["json_schema"]
    return json_branch if json_branch.get("type") == "list" else node


def _iso_only(kind: str, word: str) -> Callable[[dict], Any]:
    """Dates and times from ISO 8601 strings only: no Unix timestamps, as numbers or digit strings."""

    def refuse(value: Any) -> Any:
        number = isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool)
        if number or (isinstance(value, str) and _NUMERIC.fullmatch(value)):
            raise PydanticCustomError(f"{kind}_parsing", f"Input should be {word}")
        return value

    def rule(node: dict) -> Any:
        return _before(refuse, node)

    return rule


def _union(node: dict, labelled: bool = False) -> dict:
    """A union's errors as one ("Input should be an integer or a string"); `labelled`: each choice's
    own errors, under a label holding its words (`branch_errors`)."""
    if "custom_error_type" in node:  # pydantic's own words for the whole union (e.g. a path)
        return node
    unwrapped = [_unwrapped(c) for c in node["choices"]]
    words = [_word(c[0] if isinstance(c, tuple) else c) for c, _ in unwrapped]
    if labelled:
        choices = [
            (c[0] if isinstance(c, tuple) else c, f"{_LABEL}{i} {w}")
            for i, ((c, _), w) in enumerate(zip(unwrapped, words))
        ]
        union = node | {"choices": choices}
    else:
        union = node | {
            "choices": [c for c, _ in unwrapped],
            "custom_error_type": "union_type",
            "custom_error_message": "Input should be " + " or ".join(dict.fromkeys(words)),
        }
    if not any(had for _, had in unwrapped):
        return union
    # an int choice reads a whole number pydantic refuses only when every choice refused the value:
    # inside, `int | str` would take "1e3" as 1000 and `int | float` 2.0 as 2
    return _around(whole_if_refused, {k: v for k, v in union.items() if k != "ref"}, union)


def _labelled_union(node: dict) -> dict:
    return _union(node, labelled=True)


_LABEL = "\x00choice "
"""The start of a labelled union choice's label (`_union`): a key no JSON object the model sends has
at that place in an error's path, followed by the choice's index and its words."""


def branch_errors(annotation: Any, value: Any) -> list[Any] | None:
    """The errors of `value` for `annotation`, where a union is said by the one choice that takes
    what was sent: when a single choice refused something *inside* the value (an object's field, an
    array's item), its errors, at their paths; else the union's own error, as `validator_for`'s.
    Read only after `validator_for` refused (a second validator, built on the first such failure),
    for the argument checker: "got {"a": "x"}, expected an object or an integer" told a model that
    had sent an object nothing of the "x" at fault. `None` when the value is valid after all."""
    try:
        validator = _LABELLED[annotation]
    except KeyError:
        validator = _LABELLED[annotation] = _build(annotation, _LABELLED_RULES)
    except TypeError:
        validator = _build(annotation, _LABELLED_RULES)
    try:
        validator.validate_python(value)
    except ValidationError as exc:
        return _resolved(exc.errors(include_url=False), value)
    return None


_LABELLED: dict[Any, SchemaValidator] = {}


def _resolved(errors: list[Any], value: Any) -> list[Any]:
    """`errors` with each union's choices read: the errors of the one choice that failed inside the
    value (the choice's label left out of their paths), else one error in the union's words."""
    out: list[Any] = []
    unions: dict[tuple[Any, ...], list[Any]] = {}
    for error in errors:
        at = next((i for i, part in enumerate(error["loc"]) if isinstance(part, str) and part.startswith(_LABEL)), None)
        if at is None:
            out.append(error)
            continue
        loc = error["loc"][:at]
        if loc not in unions:
            unions[loc] = []
            out.append(loc)  # the union's errors go where its first one was
        unions[loc].append(error)
    return [e for item in out for e in (_one_union(item, unions[item], value) if isinstance(item, tuple) else [item])]


def _one_union(loc: tuple[Any, ...], errors: list[Any], value: Any) -> list[Any]:
    n = len(loc)
    choices: dict[str, list[Any]] = {}
    for error in errors:
        choices.setdefault(error["loc"][n], []).append(error)
    inside = [label for label, found in choices.items() if all(_inside(e, n + 1) for e in found)]
    if len(inside) == 1:
        return _resolved([e | {"loc": loc + e["loc"][n + 1 :]} for e in choices[inside[0]]], value)
    labels = sorted(choices, key=lambda label: int(label[len(_LABEL) :].split(" ", 1)[0]))
    words = dict.fromkeys(label[len(_LABEL) :].split(" ", 1)[1] for label in labels)
    sent = next((e["input"] for e in errors if len(e["loc"]) == n + 1), None)
    return [
        {
            "type": "union_type",
            "loc": loc,
            "msg": "Input should be " + " or ".join(words),
            "input": _value_at(value, loc) if sent is None else sent,
        }
    ]


def _inside(error: Any, depth: int) -> bool:
    """Is `error` about something inside the value its union choice took (a field, an item, a tagged
    union's tag: the choice took the object), not about the value's kind?"""
    return len(error["loc"]) > depth or (error["type"] == "union_tag" and isinstance(error["input"], dict))


def _value_at(value: Any, loc: tuple[Any, ...]) -> Any:
    """What the model sent at `loc` (a part naming no key there, a tagged union's tag, is passed over)."""
    for part in loc:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
    return value


def _tagged_union(node: dict) -> dict:
    """A tagged union's tag errors (`Input tag 'cow' found using 'kind' does not match any of the
    expected tags: 'cat', 'dog'`, `Unable to extract tag using discriminator 'kind'`) as one
    `union_tag` error that carries the tags and the tag's field (none when a function reads the
    tag), for the argument checker to say "kind: got "cow", expected one of 'cat' or 'dog'".
    Errors inside the chosen branch stay as they are."""
    if "custom_error_type" in node:
        return node
    tags = _choices_text(list(node["choices"]))
    discriminator = node["discriminator"]
    field = discriminator if isinstance(discriminator, str) else ""
    node = node | {
        "custom_error_type": "union_tag",
        "custom_error_message": f"Input should be one of the kinds {tags}",
        "custom_error_context": {"tags": tags, "field": field},
    }
    return _before(_tag_folded(field, list(node["choices"])), node) if field else node


def _tag_folded(field: str, tags: list[Any]) -> Callable[[Any], Any]:
    """The tag at `field` matched up to ASCII case when exactly one tag matches (rule 4: the tag is
    a Literal, and pydantic looks a tagged union's tag up as it is)."""
    folded: dict[str, list[str]] = {}
    for tag in tags:
        if isinstance(tag, str):
            folded.setdefault(ascii_lower(tag), []).append(tag)

    def fold(value: Any) -> Any:
        tag = value.get(field) if isinstance(value, dict) else None
        if isinstance(tag, str) and tag not in tags:
            hits = folded.get(ascii_lower(tag), [])
            if len(hits) == 1:
                return {**value, field: hits[0]}
        return value

    return fold


_WORDS = {
    "int": "an integer",
    "float": "a number",
    "str": "a string",
    "bool": "true or false",
    "list": "an array",
    "set": "an array",
    "tuple": "an array",
    "dict": "an object",
    "model": "an object",
    "typed-dict": "an object",
    "dataclass": "an object",
    "none": "null",
    "date": "a date",
    "datetime": "a date-time",
    "enum": "one of the choices",
    "literal": "one of the choices",
    "any": "any value",
    "decimal": "a number",
}


def _word(schema: dict) -> str:
    """A union branch in words, with its constraints and choices (`an integer >= 1 and <= 50`,
    `one of 'all'`): "got 500, expected an integer" would tell the model its value was right."""
    while schema.get("type") in ("function-before", "function-after", "default", "nullable"):
        schema = schema["schema"]
    kind = schema.get("type", "")
    word = _WORDS.get(kind, "a valid value")
    if kind == "tagged-union":  # its classes, as an untagged union of them says them
        return " or ".join(dict.fromkeys(_word(choice) for choice in schema["choices"].values()))
    if kind in ("model", "dataclass", "typed-dict"):
        return _object_word(schema, word)
    if kind in ("enum", "literal"):
        choices = [m.value for m in schema["members"]] if kind == "enum" else list(schema["expected"])
        return f"one of {_choices_text(choices, last=', ')}" if choices else word
    limits = [f"{sign} {schema[key]}" for key, sign in _LIMITS if key in schema]
    if kind in ("int", "float", "decimal"):
        limits += [f"a multiple of {schema['multiple_of']}"] if "multiple_of" in schema else []
    elif kind == "str":
        sizes = [one_unit(text.format(schema[key])) for key, text in _STRING_SIZES if key in schema]
        limits = [f"of {' and '.join(sizes)}"] if sizes else []
        limits += [f"matching {schema['pattern']}"] if "pattern" in schema else []
    return f"{word} {' and '.join(limits)}" if limits else word


def _object_word(schema: dict, word: str) -> str:
    """A class branch as its name and fields (`a Cat object (fields: kind, meow)`): in a union of
    classes, "expected an object" would tell a model that sent one its value was right."""
    cls = schema.get("cls")
    fields = schema.get("fields") if schema.get("type") == "typed-dict" else schema.get("schema", {}).get("fields")
    if isinstance(fields, dict):  # a model's or a TypedDict's: by name, the wire name when aliased
        names = [f["validation_alias"] if isinstance(f.get("validation_alias"), str) else n for n, f in fields.items()]
    elif isinstance(fields, list):  # a dataclass's
        names = [f["name"] for f in fields if isinstance(f, dict) and "name" in f and f.get("init", True)]
    else:
        names = []
    if not isinstance(cls, type) or not names:
        return word
    return f"{a_or_an(cls.__name__)} object (fields: {', '.join(names)})"


_LIMITS = (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<"))
_STRING_SIZES = (("min_length", "at least {} characters"), ("max_length", "at most {} characters"))
_ONE_UNIT = re.compile(r"(?<![\d.])1 (character|item|digit|decimal place)s\b")


def one_unit(phrase: str) -> str:
    """`phrase` with a unit counted once in the singular: "at least 1 character", not "1 characters"
    (a size phrase is written with its number from the schema, usually more than one)."""
    return _ONE_UNIT.sub(r"1 \1", phrase)


_RULES: dict[str, Callable[[dict], Any]] = {
    "bool": _strict_bool,
    "any": _finite_any,
    "int": _no_bool("int", "integer"),
    "float": _no_bool("float", "number"),
    "decimal": _no_bool("decimal", "number"),
    "date": _iso_only("date", "a date like 2026-10-20"),
    "datetime": _iso_only("datetime", "a date-time like 2026-10-20T09:30:00"),
    "time": _iso_only("time", "a time like 09:30:00"),
    "timedelta": _iso_only("time_delta", "an ISO 8601 duration like PT30M"),
    "enum": _enum,
    "literal": _literal,
    "model": _model,
    "typed-dict": _typed_dict,
    "dataclass-args": _forbid_extra,
    "dataclass": _dataclass,
    "union": _union,
    "tagged-union": _tagged_union,
    "default": _default,
    "generator": _whole_list,
    "json-or-python": _json_list,
}
_LABELLED_RULES = _RULES | {"union": _labelled_union}
