"""A required number the user never gives, or gives only outside the field's bounds, is asked for, not made up.

The filler gives a number field the first number the text writes within its bounds, else its `default`, else a
value of its own (`generic._bounded`: 1, or the least the bounds allow). A model asks instead where the field is
required and has no default: "book a table at Nobu" to `book_table(restaurant, party_size)` is no table for one,
"book a table at Nobu for 20 people" to a `party_size` of at most 12 is no table for 1 either, and "convert 0
dollars" to an `amount` above 0 is no conversion of 1 dollar. A number the text writes only inside a date or a
time ("at 7pm") is no party size either. `unsaid_number` names the field and, where the text writes a number the
bounds refuse, the bounds ("between 1 and 12"), for the question (`[replies] ask_range`, else `ask_field`).

A count of things (`quantity`) and a conversion's amount ("how many km is a mile?") are one when no number is
written, as a model takes them. Left out: numbers inside nested objects and arrays (only the tool's own required fields are asked for), a field
with an `enum` or `const` (a choice, not a number), and a value carried from an earlier call (it was given then).
"""

from __future__ import annotations

from typing import Any

from toolkit.gateway.generic import _NAME_WORDS, _as_number, _bound, _Filler, _group, _kind, _unnulled
from toolkit.gateway.rules import Facts, Rules

_CHOICE = frozenset(("enum", "const", "default"))


def unsaid_number(
    schema: Any, text: str, facts: Facts, rules: Rules, arguments: dict[str, Any], english: bool
) -> tuple[str, str, str] | None:
    """("range", the field, its bounds in words) when a required number field took a value the text does not give
    and the text writes a number its bounds refuse; ("field", the field, "") when it writes none; None when every
    required number is given (the usual case, found without reading the text when no argument is a number)."""
    if not any(type(v) is int or type(v) is float for v in arguments.values()):
        return None
    if not isinstance(schema, dict) or not isinstance(schema.get("required"), list):
        return None
    filler = _Filler(schema, text, facts, rules, "")
    for name, sub in filler.required(filler.resolve(filler.root, 0)):
        sub = _unnulled(filler.resolve(sub, 1))
        kind = _kind(sub)
        if kind not in ("integer", "number") or not _CHOICE.isdisjoint(sub) or name not in arguments:
            continue
        if _made_up(filler, name, sub, kind, arguments[name]):
            words = bounds_words(sub, english)
            if words and _refused(filler, sub):
                return "range", name, words
            if not _one_by_default(filler, name, arguments):
                return "field", name, ""
    return None


_COUNTS = frozenset(("quantity", "qty", "count", "copies"))
"""Words of a field's name that count things: one when the user names no number ("return item SKU-9")."""


def _one_by_default(filler: _Filler, name: str, arguments: dict[str, Any]) -> bool:
    """Whether a model takes one for the field `name` the text gives no number for: a count of things (`quantity`:
    "add milk to my cart" is one), or the amount of a conversion, whose other fields take a currency the text
    names or a unit ("how many km is a mile?", "convert between euro and yen": one of it, the rate)."""
    words = {w.lower() for w in _NAME_WORDS.findall(name)}
    if not _COUNTS.isdisjoint(words):
        return True
    others = [k for k in arguments if k != name]
    if any("unit" in {w.lower() for w in _NAME_WORDS.findall(k)} for k in others):
        return True
    named = [v for k in others if type(v := arguments[k]) is str]
    return bool(named) and not set(named).isdisjoint(filler.currencies())


def _made_up(filler: _Filler, name: str, sub: dict[str, Any], kind: str, value: Any) -> bool:
    """Whether `value` is the filler's own number for the field: made up (no number of the text within its bounds)
    or read only inside a date or time ("at 7pm" as a party of 7). Not a value the filler would not make (one
    carried from an earlier call)."""
    if type(value) is not int and type(value) is not float:
        return False
    before = filler.made_up
    if filler.number(sub, kind, name) != value:
        return False
    if filler.made_up > before:
        return True
    if filler.given(name, sub) is not None or filler.operands() or filler.labelled(name) is not None:
        return False
    return filler.fact(name, filler.wants_fact(name, sub)) is None


def _refused(filler: _Filler, sub: dict[str, Any]) -> bool:
    """Whether the text writes a number (in digits outside a date or time, or in words) the field's bounds refuse."""
    pattern = filler.rules.generic.facts.get("number")
    found = pattern.finditer(filler.text) if pattern is not None else ()
    if any(_as_number(_group(m), "number") is not None for m in found if not filler.in_fact(m.start())):
        return True
    return filler.worded({}) is not None  # any number in words: the field's own bounds took none of them


def bounds_words(schema: dict[str, Any], english: bool) -> str:
    """A number field's bounds and step in words ("between 1 and 12", "more than 0 and at most 10000", "在 1 到 12
    之间"); "" for a field without any."""
    low, high = _bound(schema, "minimum"), _bound(schema, "maximum")
    x_low, x_high = _bound(schema, "exclusiveMinimum"), _bound(schema, "exclusiveMaximum")
    step = _bound(schema, "multipleOf")
    parts: list[str] = []
    if low is not None and high is not None:
        parts.append(f"between {_n(low)} and {_n(high)}" if english else f"在 {_n(low)} 到 {_n(high)} 之间")
        low = high = None
    for bound, en, zh in (
        (low, "at least", "不小于"),
        (x_low, "more than", "大于"),
        (high, "at most", "不大于"),
        (x_high, "less than", "小于"),
    ):
        if bound is not None:
            parts.append(f"{en} {_n(bound)}" if english else f"{zh} {_n(bound)}")
    if step is not None and step > 0:
        parts.append(f"a multiple of {_n(step)}" if english else f"是 {_n(step)} 的倍数")
    return (" and " if english else "，且").join(parts)


def _n(number: float) -> str:
    """A bound as written: 12, not 12.0; 0.5 as it is."""
    return str(int(number)) if float(number).is_integer() else str(number)
