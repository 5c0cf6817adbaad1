"""Tools from Python functions: `@tool`, reflection into a JSON Schema, strict mode, arguments in,
coercion, execution through three error channels, redaction, and lint.
"""
