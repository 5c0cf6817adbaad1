"""A `functools.singledispatch` function as a tool: refused where it is registered, naming the fix.

It picks an implementation by the class of its first *positional* argument, and the executor
calls a tool with keyword arguments (the model's JSON object): every call failed with
"describe requires at least 1 positional argument", and the model had been told only the base
implementation's parameters. `@singledispatchmethod` under `@tool` was silently no tool, and
over it read as a description with a memory address. Every form is now one developer error."""

from __future__ import annotations

import functools

import pytest

from toolkit.errors import ToolDefinitionError
from toolkit.loop.sources import build_context
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from

_PROBLEM = (
    "it picks an implementation by the class of its first positional argument, but a tool is called with keyword "
    "arguments (the model's JSON object), so every call would fail; and the model would be told only the base "
    "implementation's parameters. Fix: make the tool a def with typed parameters that calls it positionally, e.g. "
)


@functools.singledispatch
def describe(value: object) -> str:
    """Describe a value."""
    raise NotImplementedError


@describe.register
def _(value: int) -> str:
    return f"the number {value}"


@describe.register
def _(value: str) -> str:
    return f"the text {value}"


def test_an_undecorated_singledispatch_function_is_refused_where_the_tools_are_collected():
    with pytest.raises(ToolDefinitionError) as caught:
        build_context(tools=[describe])
    assert str(caught.value) == (
        f"@tool {__name__}.describe: it is a functools.singledispatch function: {_PROBLEM}"
        "@tool def describe_tool(value: int | str) -> str: return describe(value)"
    )


def test_tool_over_singledispatch_is_refused_where_it_is_written():
    with pytest.raises(ToolDefinitionError) as caught:

        @tool
        @functools.singledispatch
        def lookup(order_id: str) -> str:
            """Look up an order."""
            return order_id

    assert str(caught.value).endswith(
        f".lookup: it is a functools.singledispatch function: {_PROBLEM}"
        "@tool def lookup_tool(order_id: str) -> str: return lookup(order_id)"
    )


def test_singledispatch_over_tool_is_refused_too():
    @functools.singledispatch
    @tool("Look up an order.")
    def lookup(order_id: str) -> str:
        return order_id

    with pytest.raises(ToolDefinitionError, match=r"\.lookup: it is a functools\.singledispatch function: it picks"):
        tools_from(lookup)


def test_singledispatch_on_a_method_shows_a_method_in_its_fix():
    with pytest.raises(ToolDefinitionError) as caught:

        class Shop:
            @tool
            @functools.singledispatch
            def describe(self, value: int) -> str:
                """Describe a value."""
                return str(value)

    assert str(caught.value).endswith("@tool def describe_tool(self, value: str) -> str: return self.describe(value)")


def test_a_singledispatchmethod_is_refused_in_either_order():
    class Shop:
        @functools.singledispatchmethod
        @tool
        def describe(self, value: object) -> str:
            """Describe a value."""
            return str(value)

        @describe.register
        def _(self, value: float) -> str:
            return f"{value:.2f}"

    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(Shop())
    assert str(caught.value) == (
        f"@tool {__name__}.test_a_singledispatchmethod_is_refused_in_either_order.<locals>.Shop.describe: "
        f"it is a functools.singledispatchmethod: {_PROBLEM}"
        "@tool def describe_tool(self, value: float) -> str: return self.describe(value)"
    )
    with pytest.raises(ToolDefinitionError, match=r"Other\.describe: it is a functools\.singledispatchmethod: it"):

        class Other:
            @tool
            @functools.singledispatchmethod
            def describe(self, value: object) -> str:
                """Describe a value."""
                return str(value)


def test_the_suggested_tool_works():
    @tool
    def describe_tool(value: int | str) -> str:
        """Describe a value."""
        return describe(value)

    from toolkit.chat.messages import ToolCall

    (made,) = tools_from(describe_tool)
    assert made.run(ToolCall(id="c1", name="describe_tool", arguments='{"value": 3}')).unwrap().content == (
        "the number 3"
    )
