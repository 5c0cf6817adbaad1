"""What a store can keep: the free-form values of a message (a tool result's `attributes`, an
assistant message's `extra`) must be JSON values as they are, in every store.

`SqliteStore` writes each message as JSON; a value JSON cannot hold (an object of one's own,
bytes that are not UTF-8, NaN or infinity, which would come back as None, a key with a lone
surrogate) would be lost or changed there. `InMemoryStore` refuses the same values with the same
`ConfigurationError` (naming the message and the key, nothing written), so code written on it
keeps working when its memory moves to a file, instead of failing at the loop's write after a
tool has run. `dumped` is the one check (and the message's JSON-ready dict); `check_storable`
runs it on the messages of a write that have free-form values (the others cannot fail it).

A set in a tool result's `attributes` is written as its items sorted (`toolkit.tools.set_order`):
the same JSON every run, whatever the process's hash seed.

Leaves out: values JSON holds in another form (a tuple or a set as a list, a date as its ISO
text): `SqliteStore` gives those back in that form, `InMemoryStore` as they were given.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic_core import PydanticSerializationError, to_jsonable_python

from toolkit.chat.messages import AssistantMessage, Message, ToolResultMessage, dump_message
from toolkit.errors import ConfigurationError, a_or_an
from toolkit.tools.result_text import iterator_place
from toolkit.tools.set_order import holds_set, sets_sorted
from toolkit.unicode import is_utf8


def dumped(message: Message, where: str, index: int = 0) -> dict[str, Any]:
    """`message` as its JSON-ready dict; `ConfigurationError` naming `where`, the message (its
    `index` in the write) and the key, when a free-form value JSON cannot hold as it is."""
    once = next(filter(None, (_read_once(value, name) for name, value in _free_form(message))), None)
    if once is not None:  # before writing: the write would read it
        raise _unstorable(message, where, index, once)
    try:
        data = dump_message(message)
    except _NOT_JSON as exc:
        raise _unstorable(message, where, index, _unserializable(message, exc)) from None
    problem = next(filter(None, (_changed_by_json(value, name) for name, value in _free_form(message))), None)
    if problem is not None:
        raise _unstorable(message, where, index, problem)
    if isinstance(message, ToolResultMessage) and message.attributes and holds_set(message.attributes):
        data["attributes"] = to_jsonable_python(sets_sorted(message.attributes, by_alias=True))  # one order every run
    return data


def check_storable(messages: Sequence[Message], where: str) -> None:
    """`dumped` on each of `messages` that holds a free-form value (a loop writes none: for its
    messages this is a few attribute reads each)."""
    for index, message in enumerate(messages):
        if isinstance(message, ToolResultMessage):
            if message.attributes:
                dumped(message, where, index)
        elif isinstance(message, AssistantMessage) and (message.extra or _calls_extra(message)):
            dumped(message, where, index)


def _calls_extra(message: AssistantMessage) -> bool:
    """Whether a call of `message` holds a provider's own fields."""
    for call in message.tool_calls:
        if call.extra:
            return True
    return False


def _free_form(message: Message) -> list[tuple[str, dict[str, Any]]]:
    """The fields of `message` that hold any value (the rest are text, flags and lists of text):
    a tool result's `attributes`, an assistant message's `extra` and its calls' `extra`."""
    if isinstance(message, ToolResultMessage):
        return [("attributes", message.attributes)] if message.attributes else []
    if isinstance(message, AssistantMessage):
        calls = [(f"tool_calls[{i}].extra", c.extra) for i, c in enumerate(message.tool_calls) if c.extra]
        return ([("extra", message.extra)] if message.extra else []) + calls
    return []


def _read_once(value: object, path: str) -> str | None:
    """What in `value` is an iterator (a generator, `map`, `iter(rows)`), or None. JSON reads one to
    its end: the first write (or `ToolOutput`'s check) empties it, and what a later write keeps is
    what is left of it (`SqliteStore` kept `[]`, `InMemoryStore` the emptied iterator). Named by its
    path through dicts, lists, tuples and sets, or as the object holding it (`iterator_place`)."""
    place = iterator_place(value)
    if place is None:
        return None
    keys, kind = place
    where = path + "".join(f"[{key!r}]" for key in keys)
    if kind is None:
        return f"{where} holds an iterator, which is read only once ({_EMPTIED}); give lists instead"
    return f"{where} is {a_or_an(kind.__name__)}, which is read only once ({_EMPTIED}); give a list: list(...)"


_EMPTIED = "writing it empties it: what a later write keeps is what is left of it"


def _changed_by_json(value: object, path: str) -> str | None:
    """What in `value` JSON would give back as another value (a non-finite number comes back as
    None, a key with a lone surrogate as other text) or not at all (a whole number longer than
    `MAX_DIGITS`), or None when nothing would."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{path} is {value!r}, which JSON cannot hold (it would come back as None)"
    if isinstance(value, int) and value.bit_length() > _MAX_DIGITS_BITS and abs(value) >= _TOO_LONG:
        return (
            f"{path} is a whole number of {_digits(value)} digits, more than Python reads back from JSON "
            f"({MAX_DIGITS}); give it as text, str(number)"
        )
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and not is_utf8(key):
                return f"{path} has the key {key!r}, which holds a lone surrogate (it would come back as other text)"
            found = _changed_by_json(item, f"{path}[{key!r}]")
            if found is not None:
                return found
    elif isinstance(value, (list, tuple, set, frozenset)):
        for position, item in enumerate(value):
            found = _changed_by_json(item, f"{path}[{position}]")
            if found is not None:
                return found
    return None


MAX_DIGITS = sys.int_info.default_max_str_digits
"""The most digits of a whole number `json.loads` reads by default (4,300): a longer one is
refused on write (writing it raises too, unless the process raised `sys.set_int_max_str_digits`,
and then no other process could read it back)."""
_TOO_LONG = 10**MAX_DIGITS
_MAX_DIGITS_BITS = _TOO_LONG.bit_length() - 1
"""Below this many bits a number is shorter than `_TOO_LONG`: one cheap test for the usual number."""


def _digits(value: int) -> int:
    """How many decimal digits `value` has (without converting it to text, which the limit forbids)."""
    size = abs(value)
    digits = int(size.bit_length() * math.log10(2))  # at most one short
    return digits + 1 if size >= 10**digits else digits


def attributes_problem(attributes: Mapping[str, Any]) -> str | None:
    """What in a tool result's `attributes` no store keeps as it is (the rule of `dumped`), or None:
    for `ToolOutput` to refuse where it is made, before the loop's write after the tool has run."""
    once = _read_once(dict(attributes), "attributes")
    if once is not None:  # before `to_jsonable_python` reads it
        return once
    try:
        to_jsonable_python(attributes)
    except _NOT_JSON as exc:
        return _unserializable_in([("attributes", attributes)], exc)
    return _changed_by_json(dict(attributes), "attributes")


_NOT_JSON = (PydanticSerializationError, ValueError, TypeError, UnicodeError, RecursionError)
"""What writing a value JSON cannot hold raises."""


def _unserializable(message: Message, error: Exception) -> str:
    """Which free-form value JSON cannot hold (named by its key when one alone fails), and why."""
    return _unserializable_in(_free_form(message), error)


def _unserializable_in(fields: Sequence[tuple[str, Mapping[str, Any]]], error: Exception) -> str:
    """`_unserializable` of these free-form `fields` (name, values)."""
    why = (str(error).strip().splitlines() or [""])[0][:200]
    for name, values in fields:
        for key, value in values.items():
            try:
                to_jsonable_python(value)
            except _NOT_JSON:
                return f"{name}[{key!r}] cannot be written as JSON ({type(error).__name__}: {why})"
    return f"it cannot be written as JSON ({type(error).__name__}: {why})"


def _unstorable(message: Message, where: str, index: int, problem: str) -> ConfigurationError:
    return ConfigurationError(
        f"{where}: message {index} ({type(message).__name__}): {problem}; nothing was written. Keep attributes "
        "and extra fields to JSON values: text, whole or finite numbers, True/False, None, lists, and dicts "
        "with text keys"
    )
