"""A required string the filler built from its `pattern`, the text giving none, is asked for, not made up.

A string field with a `pattern` takes a word of the text the pattern is found in; when the text has none, the
filler builds a string that matches (`patterned`), so the call is valid: "track my package" to `track_package(
tracking_number: ^[A-Z0-9]{10,22}$)` tracked the parcel AAAAAAAAAA, an invented number. A model asks for it, as it
asks for a date or an email the text does not give (`generic.missing`). `built_pattern` names the first required
top-level field whose value was built so, where the schema offers no value of its own (`default`, `examples`) and
the pattern allows more than one string (a pattern of one string, `^v1$`, has nothing to ask), and the text holds
no fact the field asks for that the pattern is found in (a URL longer than its pattern's search limit is built, not
searched, yet given; "show ticket TCK-12" to `^TCK-[0-9]{4,}$` is asked about, not given TCK-0000).
Left out: patterns inside nested objects and arrays, and optional fields (a built optional string is never made:
the filler makes optional fields only from the text).
"""

from __future__ import annotations

from typing import Any

from toolkit.gateway.generic import _Filler, _lengths
from toolkit.gateway.patterned import compiled, pattern_string, search_limit
from toolkit.gateway.required_fields import required_fields
from toolkit.gateway.rules import Facts, Rules

_OWN = ("default", "examples", "enum", "const")


def built_pattern(schema: Any, text: str, facts: Facts, rules: Rules, arguments: dict[str, Any]) -> str | None:
    """The required field whose value was built from its `pattern` (no word of the text fits), or None (the usual case:
    found without building anything when every such value is written in the text)."""
    asked = []
    for name, sub in required_fields(schema):
        if type(sub) is not dict or type(sub.get("pattern")) is not str:
            continue
        value = arguments.get(name)
        if type(value) is str and value not in text and not any(k in sub for k in _OWN):
            asked.append((name, sub))
    if not asked:
        return None
    filler = _Filler(schema, text, facts, rules, "")
    for name, sub in asked:
        before = filler.made_up
        if filler.value(sub, name, 1) != arguments[name] or filler.made_up == before or not _several(sub):
            continue
        fact = filler.fact(name, filler.wants_fact(name, sub))
        if fact is None or _refused(sub["pattern"], fact):  # a URL too long to search is still given
            return name  # "show ticket TCK-12" to ^TCK-\d{4,}$ gave TCK-0000
    return None


def _refused(pattern: str, fact: str) -> bool:
    """Whether the pattern is not found in the fact the text gives the field (one it can search: within its
    `search_limit`): "TCK-12" for ^TCK-\\d{4,}$ is the user's id, and no value of the field."""
    checker = compiled(pattern)
    return checker is not None and len(fact) <= search_limit(pattern) and checker.search(fact) is None


def _several(schema: dict[str, Any]) -> bool:
    """Whether the pattern allows more than one string (two different ones can be built)."""
    low, high = _lengths(schema)
    first, second = (pattern_string(schema["pattern"], k, low, high) for k in (0, 1))
    return first is not None and second is not None and first != second
