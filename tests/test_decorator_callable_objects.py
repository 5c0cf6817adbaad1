"""A callable object whose `__call__` is a static or class method: a tool made of `__call__`.

Such an object was refused as "written in C, not Python: it has no type hints or docstring"
(`tools_from`), and `@tool(name=...)` on it said "the tool name '' is not 1-64 ASCII letters": only a
plain-function `__call__` counted as Python."""

from __future__ import annotations

from toolkit.chat.messages import ToolCall
from toolkit.tools.decorator import tool
from toolkit.tools.execute import FEED_BACK_ALL, execute, tools_from


class Echo:
    """Echo a number."""

    @staticmethod
    def __call__(x: int) -> int:
        return x


class Times:
    factor = 3

    @classmethod
    def __call__(cls, x: int) -> int:
        """Multiply by the class's factor."""
        return x * cls.factor


def _run(tools, arguments: str) -> str:
    return execute(ToolCall(id="c1", name=tools[0].name, arguments=arguments), tools, None, FEED_BACK_ALL).content


def test_a_static_call_is_a_tool_named_after_its_class():
    tools = tools_from(Echo())
    assert (tools[0].name, tools[0].spec.description) == ("Echo", "Echo a number.")
    assert tools[0].spec.parameters["properties"] == {"x": {"type": "integer"}}
    assert _run(tools, '{"x": "2"}') == "2"


def test_a_class_method_call_leaves_cls_out_of_the_schema():
    tools = tools_from(Times())
    assert (tools[0].name, tools[0].spec.description) == ("Times", "Multiply by the class's factor.")
    assert list(tools[0].spec.parameters["properties"]) == ["x"]
    assert _run(tools, '{"x": 2}') == "6"


def test_tool_options_on_such_an_object_are_kept():
    tools = tools_from(tool(name="echo")(Echo()))
    assert tools[0].name == "echo"
    assert _run(tools, '{"x": 5}') == "5"


def test_function_tool_takes_a_callable_instance_and_refuses_a_partial_as_tools_from_does():
    """`function_tool(Shop())` and `function_tool(functools.partial(f, 1))` (week 5's function) raised
    `AttributeError: ... has no attribute '__name__'`."""
    import functools

    import pytest

    from toolkit.errors import ToolDefinitionError
    from toolkit.tools.execute import function_tool

    class Shop:
        def __call__(self, q: str) -> str:
            """Find products."""
            return q

    assert function_tool(Shop()).spec == tools_from(Shop())[0].spec
    assert function_tool(Shop(), name="find").spec.name == "find"

    def base(a: int, b: str) -> str:
        return b

    with pytest.raises(ToolDefinitionError) as info:
        function_tool(functools.partial(base, 1))
    assert str(info.value) == (
        f"function_tool(functools.partial({__name__}.test_function_tool_takes_a_callable_instance_and_refuses_a_"
        "partial_as_tools_from_does.<locals>.base)): a functools.partial cannot be reflected (its name, docstring and "
        "type hints are partial's own, not the function's). Fix: write a small def with the remaining parameters that "
        "calls the function, and decorate that"
    )


class Adder:
    """Add two numbers.

    Args:
        a: The first number.
        b: The second number.
    """

    def __call__(self, a: int, b: int = 0) -> int:
        return a + b


class Subtracter(Adder):
    """Subtract b from a.

    Args:
        a: What to subtract from.
        b: What to subtract.
    """

    def __call__(self, a: int, b: int = 0) -> int:
        return a - b


class Summer(Adder):
    """Sum two numbers, as its parent does.

    Args:
        a: The number to start from.
    """


def test_a_class_docstring_describes_the_parameters_of_an_undocumented_call():
    """The class's docstring made the tool's description, and its `Args:` were dropped: the model
    was told what the tool does, and nothing about its parameters."""
    [made] = tools_from(Adder())
    assert made.spec.description == "Add two numbers."
    assert made.spec.parameters["properties"] == {
        "a": {"type": "integer", "description": "The first number."},
        "b": {"type": "integer", "default": 0, "description": "The second number."},
    }
    [sub] = tools_from(Subtracter())
    assert sub.spec.parameters["properties"]["a"] == {"type": "integer", "description": "What to subtract from."}
    [summer] = tools_from(Summer())  # Adder's __call__, described by Summer's own docstring
    assert summer.spec.description == "Sum two numbers, as its parent does."
    assert summer.spec.parameters["properties"] == {
        "a": {"type": "integer", "description": "The number to start from."},
        "b": {"type": "integer", "default": 0},
    }
    assert _run([summer], '{"a": 5, "b": 2}') == "7"
