"""A hand-written `Tool(ToolSpec(...), executor)` is checked where it is built, as a reflected one
is: a name, description or parameters object a chat API refuses with a 400 at the first request
(`"has space"`, `None`, a JSON string, an array schema) used to be accepted and sent."""

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.errors import ToolDefinitionError
from toolkit.loop.sources import ToolRegistry
from toolkit.tools.execute import Tool
from toolkit.tools.reflect import ToolSpec


def answer(call, context):
    return "ok"


NAME_RULE = (
    "is not 1-64 letters, digits, '_' or '-' (OpenAI's rule). Fix: give the ToolSpec a valid name, e.g. 'query_order'"
)


@pytest.mark.parametrize(
    "spec, text",
    [
        (ToolSpec("has space", "d"), f"Tool('has space', ...): the tool name 'has space' {NAME_RULE}"),
        (ToolSpec("files.read", "d"), f"Tool('files.read', ...): the tool name 'files.read' {NAME_RULE}"),
        (ToolSpec("", "d"), f"Tool('', ...): the tool name '' {NAME_RULE}"),
        (ToolSpec("x" * 65, "d"), f"Tool({'x' * 65!r}, ...): the tool name {'x' * 65!r} {NAME_RULE}"),
        (
            ToolSpec("lookup", None),  # type: ignore[arg-type]
            "Tool('lookup', ...): the description is None, not a str. Fix: give a str (\"\" sends none)",
        ),
        (
            ToolSpec("lookup", "d", '{"type": "object"}'),  # type: ignore[arg-type]
            "Tool('lookup', ...): the parameters are a str, not a JSON Schema object (the arguments always "
            'arrive as one object). Fix: give a dict like {"type": "object", "properties": {...}}, or None for '
            "a tool without arguments",
        ),
        (
            ToolSpec("lookup", "d", {"type": "array", "items": {"type": "string"}}),
            "Tool('lookup', ...): the parameters are a schema of type 'array', not a JSON Schema object (the "
            'arguments always arrive as one object). Fix: give a dict like {"type": "object", "properties": '
            "{...}}, or None for a tool without arguments",
        ),
    ],
    ids=["space", "dot", "empty", "65-chars", "description-None", "json-string", "array"],
)
def test_a_spec_a_chat_api_would_refuse_is_a_developer_error(spec, text):
    with pytest.raises(ToolDefinitionError) as caught:
        Tool(spec, answer)
    assert str(caught.value) == text


def test_the_registry_names_the_version_that_is_wrong():
    registry = ToolRegistry()
    with pytest.raises(ToolDefinitionError, match=r"^registry query order@v1: the tool name 'query order'"):
        registry.register(ToolSpec("query order", "Look up one order."), answer)


@pytest.mark.parametrize(
    "spec",
    [
        ToolSpec("lookup"),
        ToolSpec("query-order_2", "Look up one order.", {"type": "object", "properties": {}}),
        ToolSpec("x" * 64, "", None),
    ],
)
def test_a_valid_spec_still_builds_and_runs(spec):
    assert Tool(spec, answer).execute(ToolCall(id="c", name=spec.name)).content == "ok"
