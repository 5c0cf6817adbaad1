"""A required choice the user never names is asked for, not given the choice's first value.

The filler gives an `enum` field the value the text points at (named, phrased, a currency, language or unit it
names, the best scored by its words), else the first: "open a ticket called Printer jammed" to `create_ticket(title,
priority)` of low, medium, high called it with priority low, and "I need Monday to Wednesday off" to a leave request
of vacation, sick, personal asked for vacation. A model asks which. `unnamed_choice` names the first required
top-level field that took its enum's first value while the text points at none of its values, and that has no
default (a `default` keyword, or a description naming one of the values as it: "default medium", 默认为 medium,
`described_choice`); the question lists the values
(`[replies] ask_unnamed`). Left out: choices inside nested objects and arrays or behind `$ref` or `anyOf` (a nullable choice), `const`, booleans (a switch's state
has its own reading, `switched`), and a choice the system prompt points at (only the user's words are read here).
"""

from __future__ import annotations

from typing import Any

from toolkit.gateway.described_choice import described_choice
from toolkit.gateway.generic import _MAX_ENUM_VALUES, _Filler, _pair_score, named_values, term_keys, worded
from toolkit.gateway.required_fields import required_fields
from toolkit.gateway.rules import Facts, Rules


def unnamed_choice(schema: Any, text: str, facts: Facts, rules: Rules, arguments: dict[str, Any]) -> str | None:
    """The required choice field `arguments` gave its first value the text never points at, or None (the usual case:
    found without reading the text when no required field has an `enum`)."""
    firsts = []
    for name, sub in required_fields(schema):
        if type(sub) is dict and "enum" in sub and name in arguments and _first_of(sub, arguments[name]):
            firsts.append((name, sub))
    if not firsts:
        return None
    filler = _Filler(schema, text, facts, rules, "")
    for name, sub in firsts:
        if not _pointed(filler, sub["enum"][:_MAX_ENUM_VALUES], name, sub):
            return name
    return None


def _first_of(schema: dict[str, Any], value: Any) -> bool:
    """Whether `value` is the first of the field's two or more `enum` values and nothing names a default."""
    if "default" in schema:
        return False
    values = schema["enum"]
    if type(values) is not list or len(values) < 2 or values[0] != value or type(value) is bool:
        return False
    return described_choice(values, schema.get("description")) is None


def _pointed(filler: _Filler, values: list[Any], name: str, schema: dict[str, Any]) -> bool:
    """Whether the text points at one of the `values` as the filler reads an enum (`_Filler.enum_value`): names one,
    asks a sum, names a currency, language or unit among them, or says a word of one."""
    if named_values(values, filler.text) or filler.sum() is not None:
        return True
    if filler.phrased_value(values, name) is not None:
        return True
    if filler.of_currencies(name, schema, values) and filler.currencies():
        return True
    generic = filler.rules.generic
    if generic.language_names is not None and filler.of_languages(values):
        return True
    if generic.unit_names is not None and filler.of_units(values, filler.text):
        return True
    keys = term_keys(filler.terms())
    return any(_pair_score(worded(str(v)), "", keys) > 0 for v in values)
