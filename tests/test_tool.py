"""`@tool`, `Param`, the injected markers (toolkit.tools.decorator): options recorded, mistakes refused."""

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.errors import ConfigurationError, ToolDefinitionError
from toolkit.tools.decorator import (
    InvocationContext,
    MemoryId,
    Param,
    ReturnBehavior,
    ToolOptions,
    function_label,
    tool,
    tool_options,
)

HERE = __name__


def test_bare_decorator_records_defaults_and_returns_the_function_unchanged():
    def lookup(order_id: str) -> str:
        return order_id.upper()

    decorated = tool(lookup)
    assert decorated is lookup and lookup("sn1") == "SN1"
    assert tool_options(lookup) == ToolOptions()


def test_description_positionally_or_by_keyword():
    @tool("Positional.")
    def a() -> None: ...

    @tool(description="Keyword.", name="b_tool", return_behavior="immediate", metadata={"k": [1]})
    def b() -> None: ...

    assert tool_options(a) == ToolOptions(description="Positional.")
    assert tool_options(b) == ToolOptions("b_tool", "Keyword.", ReturnBehavior.IMMEDIATE, {"k": [1]})


def test_same_description_twice_is_fine():
    @tool("Same.", description="Same.")
    def f() -> None: ...

    assert tool_options(f).description == "Same."


def test_undecorated_functions_have_no_options():
    def plain() -> None: ...

    assert tool_options(plain) is None


def test_methods_static_and_class_methods_are_marked_on_the_function():
    class Desk:
        @tool("Hand over.")
        def hand_over(self) -> None: ...

        @staticmethod
        @tool("Hours.")
        def hours() -> None: ...

        @tool("Counted.")
        @classmethod
        def count(cls) -> None: ...

    desk = Desk()
    assert tool_options(desk.hand_over).description == "Hand over."
    assert tool_options(Desk.hours).description == "Hours."
    assert tool_options(Desk.count).description == "Counted."


def test_return_behavior_values():
    assert [b.value for b in ReturnBehavior] == ["to_llm", "immediate", "immediate_if_last"]
    assert ReturnBehavior("immediate_if_last") is ReturnBehavior.IMMEDIATE_IF_LAST


def test_param_repr_shows_only_what_was_set():
    assert repr(Param()) == "Param()"
    assert repr(Param("The id", required=False, name="orderId")) == "Param('The id', required=False, name='orderId')"
    assert Param("x") == Param(description="x") and hash(Param("x")) == hash(Param("x"))


def test_invocation_context_defaults_and_is_frozen():
    ctx = InvocationContext(memory_id="u1", parameters={"tenant": "t1"})
    assert (ctx.memory_id, dict(ctx.parameters), ctx.tool_call) == ("u1", {"tenant": "t1"}, None)
    with pytest.raises(Exception):
        ctx.memory_id = "u2"  # type: ignore[misc]
    assert InvocationContext(tool_call=ToolCall(id="c", name="n")).tool_call.id == "c"
    assert isinstance(MemoryId(), MemoryId)


def test_function_label():
    def inner() -> None: ...

    assert function_label(inner) == f"{HERE}.test_function_label.<locals>.inner"


# --- mistakes, exact text -------------------------------------------------------------------


def _error(decorate) -> str:
    with pytest.raises(ToolDefinitionError) as info:
        decorate()
    assert isinstance(info.value, ConfigurationError)
    return str(info.value)


def target() -> None: ...


def test_invalid_tool_name():
    assert _error(lambda: tool(name="query order")(target)) == (
        f"@tool {HERE}.target: the tool name 'query order' is not 1-64 ASCII letters, digits, '_' or '-' "
        "(OpenAI's rule). Fix: pass a valid name, e.g. @tool(name='query_order')"
    )
    assert "'" + "x" * 65 + "'" in _error(lambda: tool(name="x" * 65)(target))


@pytest.mark.parametrize("name", ["query_order\n", "\nquery_order", "query_order\r\n"])
def test_a_tool_name_with_a_line_end_is_refused_where_it_is_written(name):
    """OpenAI's rule is the whole name, `^[a-zA-Z0-9_-]{1,64}$` read as JSON Schema's `pattern` reads it
    (ECMA-262: `$` is the end of the text): `"query_order\n"` is its 400 ("Invalid 'tools[0].function.name'").
    Python's `re.match` lets `$` match before a final newline, so such a name (read from a file, a
    catalogue, a rename) was registered and sent, to fail at the first request."""
    assert _error(lambda: tool(name=name)(target)) == (
        f"@tool {HERE}.target: the tool name {name!r} is not 1-64 ASCII letters, digits, '_' or '-' "
        "(OpenAI's rule). Fix: pass a valid name, e.g. @tool(name='query_order')"
    )


def test_lambda_needs_a_name():
    anonymous = lambda: None  # noqa: E731
    assert _error(lambda: tool(anonymous)) == (
        f"@tool {HERE}.test_lambda_needs_a_name.<locals>.<lambda>: the tool name '<lambda>' is not "
        "1-64 ASCII letters, digits, '_' or '-' (OpenAI's rule). Fix: pass a valid name, e.g. "
        "@tool(name='query_order')"
    )


def test_two_different_descriptions():
    assert _error(lambda: tool("One.", description="Two.")(target)) == (
        f"@tool {HERE}.target: the description is given twice, positionally and as description=, "
        "and they differ ('One.' and 'Two.'). Fix: keep one of them"
    )


_BEHAVIORS = (
    "Fix: use ReturnBehavior.TO_LLM, ReturnBehavior.IMMEDIATE or ReturnBehavior.IMMEDIATE_IF_LAST "
    "(as a str, its value: 'to_llm', 'immediate' or 'immediate_if_last')"
)


def test_unknown_return_behavior():
    assert _error(lambda: tool(return_behavior="later")(target)) == (
        f"@tool {HERE}.target: return_behavior='later' is not a ReturnBehavior. {_BEHAVIORS}"
    )


def test_a_return_behavior_given_by_its_name_is_told_the_form_that_works():
    """The fix listed the members' names (`use one of TO_LLM, IMMEDIATE, IMMEDIATE_IF_LAST`), so
    `return_behavior="IMMEDIATE"`, written as listed, was refused with the very advice it followed."""
    assert _error(lambda: tool(return_behavior="IMMEDIATE")(target)) == (
        f"@tool {HERE}.target: return_behavior='IMMEDIATE' is not a ReturnBehavior. {_BEHAVIORS}"
    )


def test_metadata_must_be_json():
    assert _error(lambda: tool(metadata={"when": object})(target)) == (
        f"@tool {HERE}.target: metadata is not JSON-serialisable (Object of type type is not JSON "
        "serializable). Fix: use only str, int, float, bool, None, lists and dicts"
    )


def test_decorating_something_that_is_not_callable():
    with pytest.raises(TypeError, match="@tool decorates functions and methods, not int"):
        tool("x")(3)
