"""Reflection as if the fast path were not there, for tests that hold the two paths equal."""

import contextlib
from unittest import mock

from toolkit.tools import fast_schema, json_schema


def without_shortcuts() -> contextlib.ExitStack:
    """Reflection as if the fast path were not there: pydantic writes every schema (refused when it
    holds an enum without members, as the fast path's own pydantic route refuses it), the validator
    checks every default."""
    stack = contextlib.ExitStack()
    stack.enter_context(
        mock.patch.object(
            fast_schema, "type_schema", lambda t: fast_schema._members_checked(json_schema.pydantic_schema(t))
        )
    )
    stack.enter_context(mock.patch.object(fast_schema, "parts_schema", lambda *a: (None, fast_schema.UNREAD)))
    stack.enter_context(mock.patch.object(fast_schema, "obviously_valid", lambda *a, **k: False))
    stack.enter_context(mock.patch.object(fast_schema, "obviously_within", lambda *a, **k: False))
    return stack
