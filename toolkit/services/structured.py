"""Structured output: a Python return type becomes a JSON Schema, and the answer becomes a value.

For a method declared `-> OrderSummary` (or `list[str]`, an enum, `bool`, `int` …):

1. the type's JSON Schema (pydantic) goes to the model, as `response_format` when the gateway
   supports it, or as instructions appended to the user message when it does not;
   non-object types (a `RootModel` too) are wrapped as `{"value": …}` because `response_format`
   wants an object;
2. the answer text is parsed tolerantly (a reasoning model's `<think>…</think>` blocks are left
   out, `toolkit.chat.thinking`; code fences and chatter around one JSON object are
   stripped), then validated strictly — the same rule as tool arguments ("strict out"):

   ==========================================  ===========  ===============================
   the JSON object                             result       why
   ==========================================  ===========  ===============================
   exactly the schema's fields                 accepted
   an integer where a number is declared       accepted     2999 is a JSON number
   `2.0` where an integer is declared          accepted     JSON Schema: no fraction, an integer
   a field the schema does not declare         rejected     never silently dropped
   `"2999"` (a string) for a number            rejected     no string-to-number coercion
   a required field missing, or a wrong type   rejected
   `NaN`, `Infinity`, `1e999` anywhere         rejected     JSON has no such number
   `[{…}]`, or `"{…}"` (JSON in a string)      rejected     not an object: never unwrapped
   ==========================================  ===========  ===============================

   (pydantic's JSON strict mode, plus a check that no object has undeclared fields);
   an object whose JSON is broken (a trailing comma, a raw line break in a string) is refused
   saying where (`the answer's JSON object is not valid JSON (… near '"ok",}')`), so the repair
   round can mend it; text with no object at all is "not a JSON object";
3. a failure gets one repair round (`repair_message`), then `OutputParsingError` (carrying every
   answer tried, in `answers`). With memory, the repair message and the second answer are
   stored like any other turn: they were said. A turn the loop handed over to a person is not
   an answer: it is never parsed or repaired (`toolkit.services.service` says what the caller gets).

Leaves out: streaming partial JSON, and grammar-constrained decoding.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pydantic import BaseModel, RootModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from toolkit.chat.finite import first_non_finite
from toolkit.chat.thinking import split_thinking
from toolkit.errors import OutputParsingError
from toolkit.unicode import cut

_FENCE = re.compile(r"```([A-Za-z0-9_+.-]*+)(.*?)```", re.S)
"""A fenced block: its language tag (maybe none) and its text. The tag is read possessively
(`*+`): given back a letter at a time after a fence left open, each shorter tag had the body
searched to the end again (a reply of "```" and 100,000 letters took 137 s)."""
_TOO_DEEP = "the JSON is nested too deeply to read"
MOST_NESTED = 400
"""How many objects and arrays deep an answer may nest: a bound of its own, not the interpreter's recursion limit,
which a library may have raised (Hypothesis, torch), so that the same answer is read or refused in every process."""


def nests_deeper(data: Any, most: int) -> bool:
    """Whether `data` (parsed JSON) holds objects and arrays nested more than `most` deep; counted with a stack,
    not by recursion."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if type(value) is dict else value if type(value) is list else None
        if children is None:
            continue
        if depth > most:
            return True
        stack.extend((child, depth + 1) for child in children if type(child) is dict or type(child) is list)
    return False


_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9_-]+")
"""Characters a `response_format` schema name may not hold (OpenAI: `^[a-zA-Z0-9_-]+$`)."""


@dataclass(frozen=True)
class OutputType:
    """How one return type is asked for and read back."""

    type: Any

    @cached_property
    def wrapped(self) -> bool:
        """Whether the answer is asked for as `{"value": …}`: every type but a model with fields (a
        `RootModel` is its root's value: a list, an int, another model)."""
        is_model = isinstance(self.type, type) and issubclass(self.type, BaseModel)
        return not is_model or issubclass(self.type, RootModel)

    @cached_property
    def adapter(self) -> TypeAdapter[Any]:
        return TypeAdapter(self.type)

    @cached_property
    def schema(self) -> dict[str, Any]:
        inner = self.adapter.json_schema()
        if not self.wrapped:
            return inner
        defs = inner.pop("$defs", None)
        outer: dict[str, Any] = {"type": "object", "properties": {"value": inner}, "required": ["value"]}
        return {**outer, "$defs": defs} if defs else outer

    @property
    def name(self) -> str:
        """The schema's name for `response_format`: what OpenAI accepts (`[A-Za-z0-9_-]`, at most 64),
        so `Page[Item]` is `Page_Item` and a class named in Chinese is `answer`."""
        name = _NOT_IN_NAME.sub("_", getattr(self.type, "__name__", "")).strip("_")[:64]
        return name or "answer"

    def response_format(self) -> dict[str, Any]:
        """The chat-completions `response_format` for this type."""
        return {"type": "json_schema", "json_schema": {"name": self.name, "schema": self.schema}}

    def instructions(self) -> str:
        """The same request as plain text, for gateways without `response_format`."""
        schema = json.dumps(self.schema, ensure_ascii=False, sort_keys=True)
        return f"Answer with one JSON object only, no other text. It must match this JSON Schema:\n{schema}"

    def parse(self, answer: str | None) -> Any:
        """The validated value, or `OutputParsingError` saying what is wrong."""
        text = answer or ""
        found = extract_json(split_thinking(text)[1])  # a draft {…} in the thinking is no answer
        try:
            data = json.loads(found)
        except ValueError as exc:
            raise OutputParsingError(_not_json(found, exc), answer=text) from None
        except RecursionError:
            raise OutputParsingError(_TOO_DEEP, answer=text) from None
        if nests_deeper(data, MOST_NESTED):  # the same answer everywhere: json.loads's own bound is the recursion limit
            raise OutputParsingError(_TOO_DEEP, answer=text)
        if not isinstance(data, dict):  # a list is never read as its first object, nor a string as the JSON in it
            kind, wrapper = _KINDS.get(type(data), "a number"), ' with a "value" field' if self.wrapped else ""
            raise OutputParsingError(f"the answer is {kind}, not a JSON object{wrapper}", answer=text)
        # json.loads reads NaN, Infinity and 1e999 (as inf), numbers JSON does not have
        non_finite = first_non_finite(data)
        if non_finite is not None:
            path, number = non_finite
            where = ".".join(map(str, path))
            raise OutputParsingError(
                f"the JSON does not match the schema ({where}: got {_NON_FINITE[repr(number)]}, expected a finite number)",
                answer=text,
            )
        if self.wrapped:
            if not isinstance(data, dict) or "value" not in data:
                raise OutputParsingError('the answer has no "value" field', answer=text)
            extra = sorted(set(data) - {"value"})
            if extra:
                raise OutputParsingError(f"the JSON does not match the schema ({extra[0]}: not a field)", answer=text)
            data = data["value"]
        top = "value" if self.wrapped else ""  # a path names a place in the JSON the model wrote
        try:
            problems = [f"{path}: not a field" for path in undeclared_fields(data, self.adapter.json_schema(), top)]
            payload = json.dumps(data)
        except RecursionError:  # json.loads reads deeper than Python's recursion limit walks
            raise OutputParsingError(_TOO_DEEP, answer=text) from None
        value, errors = self._validated(payload)
        if errors:  # `2.0` for an integer is one to JSON Schema: read again with such numbers as ints
            try:
                again = json.dumps(json.loads(payload, parse_float=_number))
            except RecursionError:
                raise OutputParsingError(_TOO_DEEP, answer=text) from None
            value, errors = self._validated(again) if again != payload else (value, errors)
        whole = top or "the object"  # an error about no field (a model validator's)
        for e in errors:
            place = [top, *_written(e, data)] if top else _written(e, data)
            problems.append(f"{'.'.join(place) or whole}: {_said(e, top)}")
        if problems:  # two branches of a union may say the same of one place: said once
            said = "; ".join(dict.fromkeys(problems))
            raise OutputParsingError(f"the JSON does not match the schema ({said})", answer=text)
        return value

    def _validated(self, payload: str) -> tuple[Any, list[ErrorDetails]]:
        """The value `payload` is in strict JSON mode, or None and pydantic's errors."""
        try:
            return self.adapter.validate_json(payload, strict=True), []
        except ValidationError as exc:
            return None, exc.errors(include_url=False)


def _written(error: ErrorDetails, data: Any) -> list[str]:
    """The part of an error's location that is a place in `data`, the JSON the model wrote. pydantic
    puts the union branch it tried into the location (`action.Refund.amount`, `pet.dog.bark`,
    `value.1.int`): a name the answer does not have, left out, as `toolkit.tools.arguments` leaves
    it out of a tool argument's path. A missing field is named (it is the place to write)."""
    parts: list[str] = []
    loc, value = error["loc"], data
    for i, step in enumerate(loc):
        if isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
        elif isinstance(value, dict) and step in value:
            value = value[step]
        elif not (step == "[key]" or (isinstance(value, dict) and i == len(loc) - 1 and error["type"] == "missing")):
            continue  # a branch's name: no such place in the answer
        parts.append(str(step))
    return parts


def _said(error: ErrorDetails, top: str) -> str:
    """pydantic's message, and what the answer held there (`, got "lots"`), cut short; not for a
    missing field (nothing came) nor for an error about the whole object (it is the answer)."""
    if error["type"] == "missing" or not (error["loc"] or top):
        return error["msg"]
    return f"{error['msg']}, got {cut(json.dumps(error['input'], ensure_ascii=False), _GOT)}"


_GOT = 40
"""Characters of what came that an error shows (the whole answer is in `OutputParsingError.answer`)."""


def _number(text: str) -> float | int:
    """A JSON number written with a fraction or an exponent, on the second reading (`parse`): an
    int when it has no fractional part (`2.0`, `1e2`), as JSON Schema's "integer" counts it, else a
    float. The first reading keeps every such number a float (an `Any` field keeps `2.0`)."""
    value = float(text)
    return int(value) if value.is_integer() else value


def _not_json(found: str, exc: ValueError) -> str:
    """Why the text taken for the answer's JSON is none: no object at all, or an object whose JSON
    is broken (a trailing comma, a raw line break in a string), shown where it breaks."""
    if not (isinstance(exc, json.JSONDecodeError) and found.startswith("{") and found.endswith("}")):
        return "the answer is not a JSON object"
    near = found[max(0, exc.pos - 16) : exc.pos + 4]  # json's own position: the text up to where it broke
    return f"the answer's JSON object is not valid JSON ({exc.msg.removesuffix(' at')} near {near!r})"


_KINDS = {list: "an array", str: "a string", type(None): "null", bool: "a boolean"}
"""What a JSON value that is no object is, in an error (the rest are numbers)."""
_NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def undeclared_fields(data: Any, schema: dict[str, Any], path: str = "") -> list[str]:
    """Paths of object fields that `schema` does not declare (objects with `properties` only)."""
    defs = schema.get("$defs", {})
    return _undeclared(data, schema, defs, path, {})


_Walked = dict[tuple[int, int, str], list[str]]
"""What `_undeclared` found at each (place in the answer, schema, path), in one check: a union's
branches are each walked below every node, and a tree of `A | B` nodes would be walked again for
every branch above it (2^depth walks); each pair is walked once."""


def _undeclared(data: Any, schema: dict[str, Any], defs: dict[str, Any], path: str, walked: _Walked) -> list[str]:
    schema = _resolve(schema, defs)
    key = (id(data), id(schema), path)  # the answer and the schema outlive the check: their ids stay theirs
    if key not in walked:
        walked[key] = _walk(data, schema, defs, path, walked)
    return walked[key]


def _walk(data: Any, schema: dict[str, Any], defs: dict[str, Any], path: str, walked: _Walked) -> list[str]:
    """`_undeclared` of one (place, schema) pair, walked."""
    extra = schema.get("additionalProperties")
    if isinstance(data, dict) and ("properties" in schema or isinstance(extra, dict)):
        declared = schema.get("properties", {})
        # a key the schema does not declare: refused, unless extras are allowed (a model's extra="allow")
        found = [_join(path, k) for k in data if k not in declared and extra in (None, False)]
        for key, value in data.items():
            inner = declared.get(key, extra)  # a dict's values (dict[str, Model]) have a schema too
            if isinstance(inner, dict):
                found += _undeclared(value, inner, defs, _join(path, key), walked)
        return found
    if isinstance(data, list) and ("prefixItems" in schema or isinstance(schema.get("items"), dict)):
        first = schema.get("prefixItems", [])  # a tuple's places each have their schema, then `items`
        rest = schema.get("items")
        places = [first[i] if i < len(first) else rest for i in range(len(data))]
        return [
            p
            for i, (v, inner) in enumerate(zip(data, places))
            if isinstance(inner, dict)
            for p in _undeclared(v, inner, defs, _join(path, str(i)), walked)
        ]
    chosen = _discriminated(data, schema, defs)
    if chosen is not None:  # a discriminated union names its branch: {"kind": "dog", …} is a Dog
        return _undeclared(data, chosen, defs, path, walked)
    alternatives = [_resolve(b, defs) for b in schema.get("anyOf", []) + schema.get("oneOf", [])]
    fits = [_undeclared(data, b, defs, path, walked) for b in alternatives if _same_kind(data, b)]
    if fits:  # a union (A | B, a discriminated union): the branch the data fits best, not the first one
        return min(fits, key=len)
    for branch in schema.get("allOf", []):
        branch = _resolve(branch, defs)
        if _same_kind(data, branch):
            return _undeclared(data, branch, defs, path, walked)
    return []


def _discriminated(data: Any, schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any] | None:
    """The branch a discriminated union's `discriminator` maps `data`'s tag to, else None."""
    discriminator = schema.get("discriminator")
    if not isinstance(data, dict) or not isinstance(discriminator, dict):
        return None
    tag = data.get(discriminator.get("propertyName"))
    ref = discriminator.get("mapping", {}).get(tag) if isinstance(tag, str) else None
    return _resolve({"$ref": ref}, defs) if isinstance(ref, str) and ref.startswith("#/$defs/") else None


def _same_kind(data: Any, schema: dict[str, Any]) -> bool:
    """Whether `schema` describes an object (or an array) as `data` is one: the branches of a union
    that `data` could be."""
    if isinstance(data, dict):
        return "properties" in schema or "additionalProperties" in schema or schema.get("type") == "object"
    if isinstance(data, list):
        return "items" in schema or "prefixItems" in schema or schema.get("type") == "array"
    return False


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref", "")
    return defs.get(ref.rsplit("/", 1)[-1], schema) if ref.startswith("#/$defs/") else schema


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def extract_json(text: str) -> str:
    """The JSON object inside `text`: in a fenced block, else in the whole text; in each, the
    outermost `{…}`, else the text.

    The places are tried in this order: ```json blocks, blocks without a language, the whole text,
    blocks of another language (a ```python block with a dict in it is no answer); the first that
    holds a JSON object wins, and when none does, the first place's text is returned, for the
    error message. When the outermost `{…}` is not JSON because
    the chatter around the object has braces of its own ("订单 {SN1} 的结果：{"status": "ok"}"),
    the one whole JSON object in the text is taken instead; two objects side by side are not
    chosen between (the outermost `{…}` stays, and fails to parse), and an object inside a `{` or
    `[` the text leaves open is a part of a broken answer (`{"a": [{…},]}`), never taken for it."""
    fences = [(m.group(1).lower(), m.group(2)) for _, m in zip(range(_FENCES_TRIED), _FENCE.finditer(text))]
    places = [body for tag, body in fences if tag == "json"] + [body for tag, body in fences if not tag]
    places += [text] + [body for tag, body in fences if tag not in ("", "json")]  # ```python: last
    found = [_object_in(place) for place in places]
    return next((candidate for candidate in found if _is_json(candidate)), found[0])


_FENCES_TRIED = 8
"""Fenced blocks `extract_json` looks into (then the whole text), so a hostile answer costs little."""


def _object_in(text: str) -> str:
    """`text` when it is JSON whole (a list stays a list, never read as the object inside it), else the
    outermost `{…}` of `text` when it is JSON, else its one whole JSON object, else the outermost
    `{…}` (or the text, when it has none)."""
    if _is_json(text):
        return text.strip()
    start, end = text.find("{"), text.rfind("}")
    if not 0 <= start < end:
        return text.strip()
    outer = text[start : end + 1]
    enclosed = _opens(text[:start])  # `[{…},]`: the object is a part of a broken array, not the answer
    if _is_json(outer) and not enclosed:
        return outer
    found = _objects(text)
    if len(found) == 1:
        return text[found[0][0] : found[0][1]]
    return text.strip() if enclosed else outer


def _opens(text: str) -> int:
    """How many more `{` and `[` than `}` and `]` `text` has: above 0, what follows is inside them."""
    return text.count("{") + text.count("[") - text.count("}") - text.count("]")


_STARTS_TRIED = 64
"""Braces `_objects` tries as the start of a JSON object (so a hostile answer costs little)."""
_DECODER = json.JSONDecoder()


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _objects(text: str) -> list[tuple[int, int]]:
    """(start, stop) of the whole JSON objects in `text`, left to right, none inside another, nor
    inside a `{` or `[` the text leaves open (`{"a": [{…},]}`: its inner object is no answer);
    only the first `_STARTS_TRIED` braces that could start one are tried."""
    found: list[tuple[int, int]] = []
    at, depth, counted = text.find("{"), 0, 0
    for _ in range(_STARTS_TRIED):
        if at < 0:
            break
        depth, counted = depth + _opens(text[counted:at]), at
        try:
            value, stop = _DECODER.raw_decode(text, at)
        except (ValueError, RecursionError):
            value, stop = None, at + 1
        if isinstance(value, dict):
            if depth <= 0:  # inside a brace or bracket left open, it is a part of a broken object
                found.append((at, stop))
            counted = stop  # the object's own braces (and those in its strings) are no chatter's
        at = text.find("{", stop)
    return found


def repair_message(error: OutputParsingError) -> str:
    return f"Your answer could not be used: {error}. Reply again with only the JSON object, matching the schema."
