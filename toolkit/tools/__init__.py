"""Tools from Python functions: `@tool`, reflection into a JSON Schema, strict mode, arguments in,
coercion, execution through three error channels, redaction, and lint.

Reading order for the lesson: `decorator` → `reflect` → `parameters` → `json_schema` (pydantic
writes every schema) → `strict`; then `json_repair` → `arguments` → `coercion` (its rows in
`coercion_table`) → `execute`. `fast_schema` only makes reflection cheaper and gives the same
results (the tests compare both).
"""
