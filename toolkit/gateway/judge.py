"""Whether a value the schema filler made fits its schema, for the keywords it does not build.

The filler (`toolkit.gateway.generic`) builds a value from what a schema asks (a type, bounds, a
length, a pattern, a format); what a schema forbids (`not`), or asks of several branches at once
(`oneOf`: exactly one), or of some items (`contains`), it cannot build, only check: it makes a
value, asks `Judge.fits`, and tries the schema's other values (`_Filler.variants`) until one fits.

`Judge(root)` judges sub-schemas of one tool's parameters, `$ref`s resolved against `root`, with
`jsonschema` (Draft 2020-12, formats checked: `date` is a day of the calendar; a `pattern` searched
only within its `search_limit`, as the filler searches): the validator of the root is built once,
each sub-schema judged with `evolve`. `jsonschema` is imported on the first judgement (about 2 s on
a slow machine): a schema without these keywords, the course's own tools', never pays for it. A
schema `jsonschema` cannot read (a `$ref` to nowhere) is judged to fit: the value stays as made.

The steps that judge, each given the filler: `fitting` (a `not`: the first of the schema's values
that fits), `any_one` (an `anyOf`: the next choice when building one needed a judgement and its
value does not fit it), `only_one` (a `oneOf` of several: a value exactly one choice accepts),
`containing` (`contains` / `minContains`: matching items first), `allowed` (the `enum` values that
meet the keywords beside it), and `joined` (a choice with what the schema asks beside it).

Leaves out: building what `not` forbids (the other values are tried, at most `_MAX_TRIES` of them);
a value that only a choice's far values (past `_MAX_TRIES`) escape another choice with, other than
those `refused_by` tries (the values a `not` names, one past a length's or a number's bound) and
those made for the choices nested in another choice (`nested_values`, one level): a `pattern`, a
`multipleOf`, a `format` of another choice is not escaped on purpose; `maxContains`, `if` / `then` / `else`,
`propertyNames` (`dependentRequired` the filler builds); values the choices past the first `_MAX_TRIES`
refuse or nest (`_others`); judging values of more than `_MAX_JUDGED` parts in all in one call
of `fill_arguments`, or again after a judgement raised (a `$ref` to nowhere, a `oneOf` of itself: a
RecursionError); past that, every value fits.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterator, Mapping
from itertools import islice
from typing import Any, Protocol

from toolkit import lazy_iri
from toolkit.gateway.patterned import compiled, search_limit


def json_key(value: Any) -> Any:
    """A hashable stand-in for a JSON value, equal to another's exactly when JSON Schema's `enum` and
    `uniqueItems` count the two equal: `1` and `1.0` alike, `true` and `1` not (any other value by its
    `repr`)."""
    if isinstance(value, bool) or value is None:
        return ("literal", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, Mapping):
        return ("object", frozenset((k, json_key(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return ("array", tuple(json_key(v) for v in value))
    return ("other", repr(value))


_MAX_TRIES = 64
"""Values of a schema tried, at most, for one that fits."""
_MAX_NAMED = 16
"""Values the other `oneOf` choices refuse (`refused_by`) tried, at most, for each choice."""
_MAX_GROWN = 10_000
"""The longest string or array `refused_by` grows past another choice's `maxLength` / `maxItems`."""
_MAX_JUDGED = 2_048
"""The values judged in one call of `fill_arguments`, counted by their size (`_size`: a number, a string,
a `null` each 1, an array or an object 1 and its items or values), at most: jsonschema's cost grows with
the value (an object of 50 properties, each with a `not`, took 3 ms), about 30 to 60 µs a value."""


class Judge:
    """`jsonschema`'s verdict on values for sub-schemas of one root schema."""

    root: dict[str, Any]
    """The root schema the sub-schemas belong to (their `$ref`s point into it)."""
    judged: int
    """The size of the values judged so far (at most `_MAX_JUDGED`; at least 1 each)."""
    broken: bool
    """Whether a judgement raised: the root is not judged again (every value fits)."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self._validator: Any = None
        self.judged = 0
        self.broken = False

    def fits(self, schema: Any, value: Any) -> bool:
        """Whether `value` is valid under `schema` (a sub-schema of the root, or one merged from it)."""
        if self.judged >= _MAX_JUDGED or self.broken:
            return True
        self.judged += _size(value, _MAX_JUDGED)
        try:
            return bool(self._root_validator().evolve(schema=schema).is_valid(value))
        except Exception:  # a schema jsonschema cannot read: no verdict, the value stays as made
            self.broken = True  # nor later: a `oneOf` of itself took 27 ms to reach RecursionError, each time
            return True

    def _root_validator(self) -> Any:
        if self._validator is None:
            self._validator = _validator_class()(self.root, format_checker=_validator_class().FORMAT_CHECKER)
        return self._validator


@functools.cache
def _validator_class() -> Any:
    """Draft 2020-12's validator whose `pattern` searches a string only within the pattern's
    `search_limit` (`toolkit.gateway.patterned`), as the filler does: `^(a+)+$` in the user's 1,000
    words would take hours. A pattern it does not search, or that does not compile, gives no verdict."""
    lazy_iri.defer()
    from jsonschema import Draft202012Validator, validators  # here, not at import: it costs seconds
    from jsonschema.exceptions import ValidationError

    def pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
        checker = compiled(pattern) if isinstance(pattern, str) and isinstance(instance, str) else None
        if checker is not None and len(instance) <= search_limit(pattern) and not checker.search(instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")

    return validators.extend(Draft202012Validator, {"pattern": pattern})


class _Filler(Protocol):
    """What these steps use of `toolkit.gateway.generic._Filler`."""

    @property
    def judge(self) -> Judge: ...

    @property
    def made_up(self) -> int: ...

    def judged(self) -> int: ...
    def value(self, schema: Any, name: str, depth: int) -> Any: ...
    def variants(self, schema: Any, base: Any, name: str, depth: int) -> Iterator[Any]: ...
    def choice_order(self, choices: list[Any], depth: int) -> list[int]: ...
    def padded(
        self, values: list[Any], base: Any, each: Any, low: int, name: str, depth: int, schema: dict[str, Any]
    ) -> list[Any]: ...


_ASKS = frozenset(
    {"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
     "maxLength", "minLength", "pattern", "format", "maxItems", "minItems", "uniqueItems", "maxContains",
     "minContains", "maxProperties", "minProperties", "required", "dependentRequired", "allOf", "anyOf", "oneOf",
     "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items", "additionalItems", "contains",
     "properties", "patternProperties", "additionalProperties", "propertyNames", "unevaluatedItems",
     "unevaluatedProperties", "$ref", "$dynamicRef", "dependencies"}
)  # fmt: skip
"""The keywords that ask something of a value (JSON Schema 2020-12's, and draft 7's `dependencies` and
`additionalItems`); the others (`title`, `description`, `default`, `x-order`, ...) ask nothing."""


def fitting(filler: _Filler, schema: dict[str, Any], made: Any, name: str, depth: int) -> Any:
    """`made` if it fits `schema` (its `not`, say), else the first of the schema's other values that
    does (`variants`, at most `_MAX_TRIES`), else `made`: no value tried could be valid."""
    if filler.judge.fits(schema, made):
        return made
    others = islice(filler.variants(schema, made, name, depth), _MAX_TRIES)
    return next((other for other in others if filler.judge.fits(schema, other)), made)


def joined(schema: dict[str, Any], choice: Any, keyword: str) -> Any:
    """The `anyOf` / `oneOf` `choice` with what `schema` asks beside its `keyword` (`"type": "object",
    "properties": ...` beside `"oneOf": [{"required": ["a"]}, ...]`), as an `allOf`; the choice as it is
    when nothing is asked beside it (so that a `$ref` choice is still known as one)."""
    if not any(k in _ASKS and k != keyword for k in schema):
        return choice
    return {"allOf": [{k: v for k, v in schema.items() if k != keyword}, choice]}


def any_one(filler: _Filler, schema: dict[str, Any], choices: list[Any], name: str, depth: int) -> Any:
    """A value for an `anyOf`: the value of the choice `choice` prefers, built as it asks; only when
    building it needed a judgement (a `oneOf` or a `not` inside) is it judged, and if it does not fit
    that choice, the next choice's value is tried, and so on (else the first value made). A value that
    fits but was made up (`_given`) is kept while a later choice's value the text gives is looked for."""
    first: list[Any] = []
    made_up: list[Any] = []
    for n, i in enumerate(filler.choice_order(choices, depth)):
        if made_up and n >= _MAX_TRIES:  # a value the text gives is looked for among the first choices only
            break
        branch = joined(schema, choices[i], "anyOf")
        before, invented = filler.judged(), filler.made_up
        made = filler.value(branch, name, depth + 1)
        if filler.judged() == before or filler.judge.fits(branch, made):
            if _given(filler, invented, made, made_up):
                return made
            made_up = made_up or [made]
        first = first or [made]
    return made_up[0] if made_up else first[0] if first else None


def _given(filler: _Filler, invented: int, made: Any, made_up: list[Any]) -> bool:
    """Whether a choice's value `made` (when the filler had made up `invented` values) is the one to
    take: made without making anything up (a number the text holds, not a format's fixed uuid), else
    the first choice's anyway when no other does (`made_up`: the one kept); a null is no better."""
    if filler.made_up == invented:
        return not made_up or made is not None
    return False


def only_one(filler: _Filler, schema: dict[str, Any], choices: list[Any], name: str, depth: int) -> Any:
    """A value for a `oneOf` of several `choices` that only one of them accepts: each choice in the order
    `choice` prefers, its value and then its other values (`variants`, at most `_MAX_TRIES` each), the
    first that the other choices refuse; then, choice by choice again, the values the other choices
    refuse (`refused_by`: named by a `not`, past a bound) that it accepts; then the values made for the
    choices nested in the other choices (`nested_values`); else the first value made (no value tried
    could be valid). A choice's own value that only it accepts but that was made up (`_given`) is kept
    while the later choices' own values are tried for one the text gives."""
    made: dict[int, Any] = {}
    made_up: list[Any] = []
    for n, i in enumerate(filler.choice_order(choices, depth)):
        if made_up and n >= _MAX_TRIES:  # a value the text gives is looked for among the first choices only
            break
        branch = joined(schema, choices[i], "oneOf")
        invented = filler.made_up
        made[i] = filler.value(branch, name, depth + 1)
        if _only(filler.judge, choices, i, made[i]):
            if _given(filler, invented, made[i], made_up):
                return made[i]
            made_up = made_up or [made[i]]
            continue
        if made_up:  # a later choice's other values are no better than the made-up one kept
            continue
        for value in islice(filler.variants(branch, made[i], name, depth + 1), _MAX_TRIES - 1):
            if _only(filler.judge, choices, i, value):
                return value
    if made_up:
        return made_up[0]
    for i, value in islice(made.items(), _MAX_TRIES):  # bounded: each is read against other choices
        for refused in refused_by(_others(choices, i), value):
            if _only(filler.judge, choices, i, refused):
                return refused
    for i in islice(made, _MAX_TRIES):
        for nested in islice(nested_values(filler, _others(choices, i), name, depth), _MAX_NAMED):
            if _only(filler.judge, choices, i, nested):
                return nested
    return next(iter(made.values()))


def _others(choices: list[Any], i: int) -> list[Any]:
    """The first `_MAX_TRIES` choices besides choice `i`, whose refused or nested values `only_one`
    tries for it (each of thousands of choices reading all the others took 35 s for 4,000)."""
    return [c for j, c in enumerate(islice(choices, _MAX_TRIES + 1)) if j != i][:_MAX_TRIES]


def nested_values(filler: _Filler, choices: list[Any], name: str, depth: int) -> Iterator[Any]:
    """Values made for the choices nested one level inside `choices` (their own `oneOf` / `anyOf`): one
    that two of a nested `oneOf`'s choices accept, that `oneOf` refuses. `{"type": "string"}` beside
    `{"oneOf": [{"format": "date"}, {"type": "string"}]}` takes only a date, which the nested date
    choice makes (from "tomorrow" in the user's words, say)."""
    for choice in choices:
        if not isinstance(choice, dict):
            continue
        for keyword in ("oneOf", "anyOf"):
            nested = choice.get(keyword)
            for branch in nested if isinstance(nested, list) else ():
                yield filler.value(joined(choice, branch, keyword), name, depth + 1)


def _only(judge: Judge, choices: list[Any], i: int, value: Any) -> bool:
    """Whether choice `i` of `choices` accepts `value` and every other choice refuses it."""
    return judge.fits(choices[i], value) and not any(judge.fits(c, value) for j, c in enumerate(choices) if j != i)


def refused_by(choices: list[Any], made: Any) -> Iterator[Any]:
    """Values the `choices` refuse (also for what an `allOf` inside them asks): those a `not` names
    (its `const`, its `enum`), and `made` taken just past a bound (`minLength`, `maxLength`, `minItems`,
    `maxItems`, `minimum`, `maximum` and their exclusive forms); at most `_MAX_NAMED`. The one `oneOf`
    choice that accepts such a value is the only one: `{"type": "number"}` beside `{"type": "number",
    "not": {"enum": [0]}}` takes 0, `{"type": "string"}` beside `{"type": "string", "minLength": 1}` ""."""
    found: list[Any] = []
    for choice in choices:
        more = choice.get("allOf") if isinstance(choice, dict) else None
        for part in [choice, *(more if isinstance(more, list) else ())]:
            if isinstance(part, dict):
                found.extend(_named(part.get("not")))
                found.extend(_past_bounds(part, made))
    return islice(iter(found), _MAX_NAMED)


def _named(refused: Any) -> list[Any]:
    """The values a `not` schema names: its `const`, its `enum`."""
    if not isinstance(refused, dict):
        return []
    enum = refused.get("enum")
    return ([refused["const"]] if "const" in refused else []) + (enum if isinstance(enum, list) else [])


def _past_bounds(schema: dict[str, Any], made: Any) -> Iterator[Any]:
    """`made` cut or grown one past the length `schema` bounds it to (a string, an array), or the
    number one past (or on) its bounds: values `schema` refuses, the other keywords aside."""
    if isinstance(made, (str, list)):
        low, high = (
            schema.get("minLength" if isinstance(made, str) else "minItems"),
            schema.get("maxLength" if isinstance(made, str) else "maxItems"),
        )
        if type(low) is int and 0 < low <= len(made) + 1:
            yield made[: low - 1]
        if type(high) is int and 0 <= high < _MAX_GROWN and made:
            grown = made * (high // len(made) + 1)
            yield grown[: high + 1]
    elif isinstance(made, (int, float)) and not isinstance(made, bool):
        for key, past in (("minimum", -1), ("maximum", 1), ("exclusiveMinimum", 0), ("exclusiveMaximum", 0)):
            bound = schema.get(key)
            if isinstance(bound, (int, float)) and not isinstance(bound, bool) and math.isfinite(bound):
                yield bound + past


def containing(
    filler: _Filler, schema: dict[str, Any], values: list[Any], items: Any, name: str, depth: int
) -> list[Any]:
    """`values` with items that match `contains` first, as many as `minContains` (1 unless given) asks
    and the values lack: each made for the items' schema and `contains` together."""
    contains = schema["contains"]
    low = schema.get("minContains", 1)
    need = (min(low, _MAX_TRIES) if type(low) is int else 1) - sum(filler.judge.fits(contains, v) for v in values)
    if need <= 0:
        return values
    both = {"allOf": [items, contains]} if isinstance(items, dict) and items else contains
    base = filler.value(both, name, depth + 1)
    matching = filler.padded([base], base, both, need, name, depth, schema)[:need]
    if schema.get("uniqueItems") is True:
        seen = {json.dumps(v, sort_keys=True) for v in matching}
        values = [v for v in values if json.dumps(v, sort_keys=True) not in seen]
    return matching + values


def allowed(filler: _Filler, schema: dict[str, Any]) -> list[Any]:
    """The `enum` values that meet what the schema asks beside the enum (its `type`, a `pattern`, a
    bound), all of them when none does."""
    values = schema["enum"]
    kind = schema.get("type")
    if kind == "string":  # pydantic's `Literal` of strings: the common case, read in C
        values = [v for v in values if isinstance(v, str)] or values
    elif kind is not None:
        values = [v for v in values if _of_type(v, kind)] or values
    if any(k in _ASKS and k not in ("enum", "type") for k in schema):
        rest = {k: v for k, v in schema.items() if k != "enum"}
        values = [v for v in values if filler.judge.fits(rest, v)] or values
    return values


def _size(value: Any, limit: int) -> int:
    """How many values `value` is made of (itself, and its items or values, all the way down), counted
    up to `limit`."""
    count, stack = 0, [value]
    while stack and count < limit:
        count += 1
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return count


def _of_type(value: Any, kind: Any) -> bool:
    """Whether `value` is of the JSON Schema `type` `kind` (a name or a list of names)."""
    kinds = kind if isinstance(kind, list) else [kind]
    return any(_is(value, k) for k in kinds)


def _is(value: Any, kind: Any) -> bool:
    if isinstance(value, bool) or value is None:
        return kind == ("boolean" if isinstance(value, bool) else "null")
    if kind == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    types = _TYPES.get(kind) if isinstance(kind, str) else None
    return types is not None and isinstance(value, types)


_TYPES: dict[str, type | tuple[type, ...]] = {"number": (int, float), "string": str, "array": list, "object": dict}


_PLAIN = frozenset(("type", "enum"))
"""The asking keywords a property schema may hold for `takes` to answer without `jsonschema`."""


def takes(root: dict[str, Any], schema: Any, value: str) -> bool:
    """Whether the property `schema` of the parameters `root` takes the string `value` (a shop fact):
    read directly for a schema that asks at most a `type` and an `enum` (the shop's own tools, every
    request), else judged (`Judge`): a stranger's `integer`, `format: uuid` or `pattern` under the
    shop's names."""
    if type(schema) is not dict:
        return schema is not False
    for key in schema:  # a plain loop: a shop tool's property has two or three keys
        if key in _ASKS and key not in _PLAIN:
            return Judge(root).fits(schema, value)
    kind, enum = schema.get("type", "string"), schema.get("enum")
    return (kind == "string" or (type(kind) is list and "string" in kind)) and (type(enum) is not list or value in enum)
