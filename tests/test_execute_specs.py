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


NAME_RULE = "is not 1-64 ASCII letters, digits, '_' or '-' (OpenAI's rule). Fix: give the ToolSpec a valid name, e.g. 'query_order'"


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


def test_a_spec_name_ending_in_a_newline_is_refused_as_the_api_refuses_it():
    """`$` in OpenAI's `^[a-zA-Z0-9_-]{1,64}$` is the end of the name (JSON Schema reads `pattern` as
    ECMA-262 does); Python's `re.match` let "lookup\n" through to a 400 at the first request."""
    with pytest.raises(ToolDefinitionError) as caught:
        Tool(ToolSpec("lookup\n", "d"), answer)
    assert str(caught.value) == f"Tool('lookup\\n', ...): the tool name 'lookup\\n' {NAME_RULE}"


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


def query(order_id: str) -> str:
    """Look up one order."""
    return order_id


def _decorated():
    from toolkit.tools.decorator import tool

    @tool
    def lookup(call, context):
        """Look up."""
        return "x"

    return lookup


EXECUTOR_FIX = (
    "Fix: write def run(call, context) that reads call.arguments (a JSON string), or pass the function itself "
    "as tools=[...]"
)


@pytest.mark.parametrize(
    "executor, text",
    [
        (
            query,
            "Tool('lookup', ...): the executor test_execute_specs.query takes (order_id), and the loop calls it as "
            f"executor(call, context). {EXECUTOR_FIX}",
        ),
        (
            lambda: "x",
            "Tool('lookup', ...): the executor test_execute_specs.<lambda> takes (no arguments), and the loop calls "
            f"it as executor(call, context). {EXECUTOR_FIX}",
        ),
        (
            lambda call, context, extra: "x",
            "Tool('lookup', ...): the executor test_execute_specs.<lambda> takes (call, context, extra), and the "
            f"loop calls it as executor(call, context). {EXECUTOR_FIX}",
        ),
        (
            lambda call, context, *, strict: "x",
            "Tool('lookup', ...): the executor test_execute_specs.<lambda> takes (call, context, strict), and the "
            f"loop calls it as executor(call, context). {EXECUTOR_FIX}",
        ),
        (
            _decorated(),
            "Tool('lookup', ...): the executor test_execute_specs._decorated.<locals>.lookup is a @tool function; "
            f"an executor takes (call, context). {EXECUTOR_FIX}",
        ),
    ],
    ids=["the-tool-s-own-function", "no-arguments", "three-arguments", "required-keyword", "tool-function"],
)
def test_an_executor_that_cannot_take_call_and_context_is_refused_where_the_tool_is_built(executor, text):
    """It was accepted, and every call then failed with a TypeError only the model heard of."""
    with pytest.raises(ToolDefinitionError) as caught:
        Tool(ToolSpec("lookup", "d"), executor)
    assert str(caught.value) == text
    for fine in (answer, lambda *args: "ok", lambda call, context=None, extra=1: "ok", lambda c, x, *, k=1: "ok"):
        assert Tool(ToolSpec("lookup", "d"), fine).execute(ToolCall(id="c", name="lookup")).content == "ok"


REGISTER_FIX = (
    'Fix: pass ToolSpec("query_order", "...", {"type": "object", ...}) or {"type": "function", "function": '
    '{"name": "query_order", "description": "...", "parameters": {...}}}'
)


@pytest.mark.parametrize(
    "spec, got",
    [
        ("query_order", "a str"),
        (None, "None"),
        ({"type": "function", "function": {"description": "d"}}, "a dict without a 'name'"),
        ({"type": "function", "function": "query_order"}, "a dict"),
    ],
    ids=["name-alone", "none", "no-name", "function-not-a-dict"],
)
def test_a_registered_spec_that_is_not_one_is_a_developer_error(spec, got):
    """These were AttributeError ('str' object has no attribute 'get') or KeyError: 'name'."""
    with pytest.raises(ToolDefinitionError) as caught:
        ToolRegistry().register(spec, answer, version="v2")
    assert str(caught.value) == (
        f"ToolRegistry.register(..., version='v2'): the spec is {got}; it takes a ToolSpec or an OpenAI tool "
        f"dict. {REGISTER_FIX}"
    )


@pytest.mark.parametrize(
    "spec, text",
    [
        (
            {"type": "function", "function": {"name": "lookup"}},
            "Tool(a dict, ...): the spec is a dict, not a ToolSpec. Fix: give ToolSpec(name, description, "
            "parameters), or ToolSpec.from_openai(d) for an OpenAI tool dict",
        ),
        (
            ToolSpec("lookup", "d", metadata=None),  # type: ignore[arg-type]
            "Tool('lookup', ...): the metadata is None, not a mapping. Fix: give a dict ({} for none)",
        ),
        (
            ToolSpec("lookup", "d", return_behavior="immediatly"),  # type: ignore[arg-type]
            "Tool('lookup', ...): the return behaviour is 'immediatly', not a ReturnBehavior. Fix: give "
            "ReturnBehavior.TO_LLM, ReturnBehavior.IMMEDIATE or ReturnBehavior.IMMEDIATE_IF_LAST",
        ),
    ],
    ids=["openai-dict", "metadata-None", "behaviour-typo"],
)
def test_what_the_package_reads_from_a_spec_is_checked_where_the_tool_is_built(spec, text):
    """An OpenAI dict was "'dict' object has no attribute 'name'"; metadata=None failed later in
    the wrappers (`.get`); a misspelt return behaviour was silently never immediate."""
    with pytest.raises(ToolDefinitionError) as caught:
        Tool(spec, answer)
    assert str(caught.value) == text


@pytest.mark.parametrize("data, shown", [(5, "an int"), (None, "None"), ("tool", "a str")], ids=["int", "None", "str"])
def test_from_openai_names_what_it_was_given_with_its_article(data, shown):
    # it read "a int is not a tool", "a NoneType is not a tool"
    with pytest.raises(ToolDefinitionError) as info:
        ToolSpec.from_openai(data)
    assert str(info.value).startswith(
        f"ToolSpec.from_openai: {shown} is not a tool in its OpenAI form (it has no function name). Fix: "
    )


@pytest.mark.parametrize(
    "parameters, sentence",
    [
        (
            {"type": "object", "properties": {"city": {"type": "str"}}},
            "'str' is not valid under any of the given schemas",
        ),
        ({"type": "object", "properties": {"city": "string"}}, "'string' is not of type 'object', 'boolean'"),
        (
            {"type": "object", "properties": {"city": {"type": "string", "required": True}}},
            "True is not of type 'array'",
        ),
        (
            {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "int"}}}},
            "'int' is not valid under any of the given schemas",
        ),
    ],
)
def test_a_spec_whose_parameters_are_no_json_schema_is_refused_with_the_sentence_a_gateway_answers(
    parameters, sentence
):
    """OpenAI answers such a tool with a 400 at the first request (`toolkit.gateway.meta_schema`): said
    where the tool is built instead, with the validator's own sentence."""
    with pytest.raises(ToolDefinitionError) as caught:
        Tool(ToolSpec("lookup", "d", parameters), answer)
    assert str(caught.value) == (
        f"Tool('lookup', ...): the parameters are no JSON Schema: {sentence}, as OpenAI answers with a 400. Fix: "
        'write each parameter as a schema, e.g. {"type": "string"} (JSON\'s types: string, integer, number, '
        "boolean, object, array, null), with 'required' a list of names on the object"
    )


def _nested_items(depth):
    schema = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
    return {"type": "object", "properties": {"x": schema}}


def test_a_hand_written_schema_nested_past_what_a_request_carries_is_refused_where_the_tool_is_built():
    """Before: Tool(...) took it, and the first request raised RecursionError (counting its tokens, comparing
    the tools payload) or a ConfigurationError from the client, far from the cause."""
    with pytest.raises(ToolDefinitionError) as raised:
        Tool(ToolSpec("lookup", "d", _nested_items(600)), lambda call, context: "")
    assert str(raised.value) == (
        "Tool('lookup', ...): the parameters nest more than 500 levels of objects and arrays, past what the toolkit "
        "writes as JSON (Python's recursion limit). Fix: flatten the schema (a model's arguments are never that "
        'deep), e.g. {"type": "array"} in place of the deepest items, and check the nesting in the tool'
    )
    Tool(ToolSpec("lookup", "d", _nested_items(497)), lambda call, context: "")  # 500 levels with the root's


def test_a_reflected_tool_is_the_tool_its_parts_make_and_its_schema_is_still_checked():
    """`function_tool` builds its `Tool` without `check_executor` (its executor is its own `(call,
    context)` function): the same tool `Tool(...)` makes of its parts, whose checks pass; a schema
    the reflection took from a `Field` is still checked where the tool is built, with the same text."""
    from typing import Annotated, Literal

    from pydantic import Field

    from toolkit.tools.execute import check_executor, function_tool

    def weather(city: str, units: Literal["metric", "imperial"] = "metric") -> str:
        """Current weather in a city."""
        return city

    tool = function_tool(weather)
    assert tool == Tool(tool.spec, tool.executor, tool.source, tool.function)
    assert (tool.source, tool.function) == (f"@tool {__name__}.{weather.__qualname__}", weather)
    check_executor(tool.executor, tool.source)
    assert tool.execute(ToolCall(id="1", name="weather", arguments='{"city": "Oslo"}')).content == "Oslo"

    def slipped(x: Annotated[int, Field(json_schema_extra={"type": "str"})]) -> str:
        """D."""
        return ""

    with pytest.raises(ToolDefinitionError) as raised:
        function_tool(slipped)
    assert str(raised.value) == (
        f"@tool {__name__}.{slipped.__qualname__}: the parameters are no JSON Schema: 'str' is not valid under "
        "any of the given schemas, as OpenAI answers with a 400. Fix: write each parameter as a schema, e.g. "
        '{"type": "string"} (JSON\'s types: string, integer, number, boolean, object, array, null), with '
        "'required' a list of names on the object"
    )
