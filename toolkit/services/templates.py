"""Prompt templates: `{{variable}}` placeholders filled from method arguments and built-ins.

Built-ins are resolved at call time from a clock the caller controls, so a notebook that fixes
the clock gets the same prompt every run:

    current_date   2026-10-20          (ISO date)
    current_time   14:05:00            (24-hour, seconds)
    current_datetime  2026-10-20 14:05:00

`variables(template)` lists the placeholders so a declaration can be checked at creation time.
A placeholder's name is a Python identifier, in any script (`{{订单号}}` names the parameter
`订单号`); anything else between double braces (`{{ two words }}`, `{{a-b}}`) is plain text.
Values are rendered as text: strings as they are, everything else as JSON, the way pydantic writes
it (a model, a dataclass, an enum's value, an ISO date, inside lists and dicts too), except that a
value whose JSON is a string is that text without JSON's quotes (`出发日期：2026-10-20`, not
`"2026-10-20"`: the seed turns a simple value into its text, as LangChain4j's `toString` does; a
date, an enum, a Decimal, a UUID, a Path); None is `null`, True `true`; a set is
written sorted (its own order follows the interpreter's hash seed, so the prompt would change from
run to run), and bytes that are not UTF-8 text are refused (`ConfigurationError`), a prompt being text,
as is a value JSON has no form for whose `str` is its memory address (an object without `__str__`, a
function): the prompt would differ at every run; such a value with a `__str__` is that text. So is a value no
text can write out: nested past the recursion limit or holding itself, a whole number past Python's 4300 digits.

Leaves out: conditionals, loops and filters (this is substitution, not a template language).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError, to_jsonable_python

from toolkit.chat.clock import session_now
from toolkit.chat.days import misread, read_moment
from toolkit.errors import ConfigurationError, a_or_an

PLACEHOLDER = re.compile(r"\{\{\s*([^{}\s]+)\s*\}\}")
"""Double braces around one word; the word is a placeholder when it is an identifier (`is_name`)."""
Clock = Callable[[], dt.datetime]

BUILT_INS: dict[str, Callable[[dt.datetime], str]] = {
    "current_date": lambda now: now.date().isoformat(),
    "current_time": lambda now: now.strftime("%H:%M:%S"),
    "current_datetime": lambda now: now.strftime("%Y-%m-%d %H:%M:%S"),
}


def is_name(name: str) -> bool:
    """Whether `{{name}}` is a placeholder: a Python identifier, as a parameter's name is."""
    return name.isidentifier()


def variables(template: str) -> list[str]:
    """Placeholder names in order of first appearance."""
    return list(dict.fromkeys(name for name in PLACEHOLDER.findall(template) if is_name(name)))


def as_text(value: Any) -> str:
    """How an argument appears inside a prompt (`ConfigurationError` for bytes that are not text, and for a value
    no text can write out: nested past the recursion limit or holding itself, a whole number past Python's
    4300 digits)."""
    if isinstance(value, str):
        return str.__str__(value)  # a str enum's text as a plain str (its str() is 'City.BJ')
    try:
        return _json_text(value)
    except RecursionError:
        raise ConfigurationError(
            f"the value is {a_or_an(type(value).__name__)} nested too deep to write as text (past Python's recursion "
            "limit), or holding itself; pass what the model should read: a flatter value, or its text"
        ) from None
    except ValueError as exc:  # an int past sys.get_int_max_str_digits(); a cycle json.dumps meets
        raise ConfigurationError(
            f"the value is {a_or_an(type(value).__name__)} that cannot be written as text ({str(exc):.160}); "
            "pass what the model should read as text"
        ) from None


def _json_text(value: Any) -> str:
    """`as_text` of a value that is no str."""
    ordered = _ordered(value)
    try:
        # models, dataclasses, enums, dates inside lists and dicts too, as pydantic writes them as JSON
        jsonable = to_jsonable_python(ordered, fallback=_text_of)
    except (UnicodeDecodeError, PydanticSerializationError):  # pydantic writes bytes as UTF-8 text
        raise ConfigurationError(_not_text(value)) from None
    if isinstance(jsonable, str):  # a date, an enum, a Decimal, a UUID: its text, not a quoted JSON string
        return jsonable
    if isinstance(ordered, BaseModel):
        return ordered.model_dump_json()
    if isinstance(value, BaseModel):  # a model holding a set: its fields, the set sorted
        return json.dumps(jsonable, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(jsonable, ensure_ascii=False)


ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
"""A memory address in a value's text (`<Basket object at 0x7f…>`, `<function f at 0x7f…>`)."""


def _text_of(value: Any) -> str:
    """The text of a value JSON has no form for (its `str`); one that is its memory address (an object
    without a `__str__`, a function) is a `ConfigurationError`: the prompt would differ at every run."""
    text = str(value)
    if ADDRESS.search(text):
        name = type(value).__name__
        raise ConfigurationError(
            f"the value is {a_or_an(name)}, whose text is its memory address ({ADDRESS.sub(' at 0x…', text):.80}), "
            "different at every run; pass what the model should read: a str, a pydantic model or a dataclass "
            f"(written as JSON), or give {name} a __str__"
        )
    return text


def _not_text(value: Any) -> str:
    held = (
        f"bytes that are not UTF-8 text ({value!r:.40})"
        if isinstance(value, bytes)
        else (f"{a_or_an(type(value).__name__)} holding bytes that are not UTF-8 text")
    )
    return (
        f"the value is {held}, which a prompt cannot hold; pass text: decode it (data.decode('latin-1')), "
        "or base64.b64encode(data).decode()"
    )


def _ordered(value: Any) -> Any:
    """`value` with every set in it a sorted list (by value, else by JSON text), models and
    dataclasses holding one as their fields' dict; `value` itself when it holds no set."""
    if isinstance(value, (set, frozenset)):
        items = [_ordered(item) for item in value]
        try:
            return sorted(items)
        except TypeError:  # 1 and "a": no order between them
            return sorted(items, key=lambda item: json.dumps(to_jsonable_python(item, fallback=str), sort_keys=True))
    if isinstance(value, BaseModel) or (dataclasses.is_dataclass(value) and not isinstance(value, type)):
        fields = value.model_dump() if isinstance(value, BaseModel) else dataclasses.asdict(value)
        walked = _ordered(fields)
        return value if walked is fields else walked
    if isinstance(value, (list, tuple, dict)):
        pairs = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        walked_pairs = [(key, _ordered(item)) for key, item in pairs]
        if all(new is old for (_, new), (_, old) in zip(walked_pairs, pairs)):
            return value
        return dict(walked_pairs) if isinstance(value, dict) else [item for _, item in walked_pairs]
    return value


def render(template: str, values: Mapping[str, Any], clock: Clock = session_now, *, where: str = "") -> str:
    """Fill every placeholder; built-ins come from `clock()` (read once per render). A value no
    prompt can hold is a `ConfigurationError` naming its placeholder (after `where`, when given)."""
    now: dt.datetime | None = None

    def fill(match: re.Match[str]) -> str:
        nonlocal now
        name = match.group(1)
        if not is_name(name):
            return match.group(0)  # plain text that happens to sit between double braces
        if name in values:
            try:
                return as_text(values[name])
            except ConfigurationError as exc:
                said = f"{where}: {{{{{name}}}}}" if where else f"{{{{{name}}}}}"
                raise ConfigurationError(f"{said}: {exc}") from None
        if name in BUILT_INS:
            now = now or _now(clock)
            return BUILT_INS[name](now)
        raise KeyError(name)  # declarations are checked at creation, so this is a bug upstream

    return PLACEHOLDER.sub(fill, template)


def _now(clock: Clock) -> dt.datetime:
    """`clock()`, which must be a datetime (a date, a float from `time.time`, a text are not)."""
    now = clock()
    if not isinstance(now, dt.datetime):
        raise ConfigurationError(
            f"the clock {getattr(clock, '__name__', type(clock).__name__)!r} returned {type(now).__name__} "
            f"{now!r:.40}, not a datetime; use a clock returning one, e.g. fixed_clock('2026-10-20T10:00:00')"
        )
    return now


def fixed_clock(moment: str | dt.datetime) -> Clock:
    """A clock that always says `moment` (ISO format, or a datetime), for notebooks and tests."""
    if isinstance(moment, dt.datetime):
        return lambda: moment
    try:
        value = read_moment(moment) if isinstance(moment, str) else None
    except ValueError:  # "yesterday", "20/10/2026", "2026-W43-1T10:00"
        value = None
    if value is None:  # or a date object, None
        said = misread(moment) if isinstance(moment, str) else ""
        raise ConfigurationError(
            f"fixed_clock({moment!r:.60}): the moment is an ISO date and time{said}; write e.g. "
            "fixed_clock('2026-10-20T10:00:00') (or pass a datetime)"
        )
    return lambda: value
