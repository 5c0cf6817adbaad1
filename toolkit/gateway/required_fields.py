"""The required fields of a tool's parameters, each with its schema: the walk several rules share.

`required_fields(schema)` gives (name, the field's schema in `properties`, None when it has none) for each
required field of an object schema, each name once, in the order `required` lists them; nothing when the schema
is no dict, or its `properties` is no object or its `required` no list (what JSON Schema allows and a model could
not fill anyway). The rules that ask before calling (`unnamed`, `unpatterned`), the follow-up's carried values
(`generic.carried`) and a clause's own values (`generic.fill_clause`) read the fields this way. Leaves out what
`generic._Filler.required` does besides: a name `properties` lacks takes `additionalProperties`' schema, and a
schema without `properties` still has its required fields (the filler makes values for them); and `$ref`s, which
the caller resolves (the filler's `resolve`) where it needs them resolved.
"""

from __future__ import annotations

from typing import Any


def required_fields(schema: Any) -> list[tuple[str, Any]]:
    """(name, its schema or None) of each required field of `schema`, each once, in `required`'s order."""
    properties = schema.get("properties") if type(schema) is dict else None
    required = schema.get("required") if type(schema) is dict else None
    if type(properties) is not dict or type(required) is not list:
        return []
    fields: dict[str, Any] = {}
    for name in required:
        if type(name) is str and name not in fields:
            fields[name] = properties.get(name)
    return list(fields.items())
