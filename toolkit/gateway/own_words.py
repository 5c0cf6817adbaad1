"""The words a tool's own schema writes are no values of a list the user's words fill.

A list of plain strings takes the user's search terms ("recipes with chicken and rice": ingredients), so it also
took the words that name the tool's other fields or their choices: "keto recipes with eggs under 20 minutes" gave
`ingredients` keto (the `diet` it chose), eggs and minutes (`max_minutes`' word). `schema_words(schema)` is every
word of the top-level properties' names and of their `enum` values, lower-cased; `without_own(terms, schema)` the
terms that are none of them (all of them when every term is one: a list never goes empty for it). Left out: the
tool's own name and description ("recipes" is the tool's word, not a property's), and nested schemas.
"""

from __future__ import annotations

import re
from typing import Any

_WORDS = re.compile(r"[a-z]+|[A-Z][a-z]*|[A-Z]+(?![a-z])|[0-9]+")


def schema_words(schema: Any) -> frozenset[str]:
    """Each word of the top-level properties' names and of their string `enum` values, lower-cased."""
    properties = schema.get("properties") if type(schema) is dict else None
    if type(properties) is not dict:
        return frozenset()
    parts = [name for name in properties if type(name) is str]
    for sub in properties.values():
        values = sub.get("enum") if type(sub) is dict else None
        if type(values) is list:
            parts += [v for v in values[:64] if type(v) is str]
    return frozenset(" ".join(_WORDS.findall(" ".join(parts))).lower().split())  # camelCase split before lowering


def without_own(terms: list[str], schema: Any) -> list[str]:
    """`terms` without those the schema writes itself (`schema_words`); `terms` when that leaves none."""
    own = schema_words(schema)
    kept = [t for t in terms if t.lower() not in own]
    return kept or terms
