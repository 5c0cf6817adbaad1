"""`@tool` and `Param` refuse what they cannot use where it is written: built-ins, and options
of the wrong type (a description of 5 reached the request; a name of 5 failed deep inside)."""

import math
from typing import Annotated

import pytest

from toolkit.errors import ToolDefinitionError
from toolkit.tools.decorator import Param, tool

BUILTINS = [
    (len, "len"),
    (math.sqrt, "math.sqrt"),
    (print, "print"),
    (str.upper, "str.upper"),
    ("x".upper, "str.upper"),
    (dict.get, "dict.get"),
    (int.__add__, "int.__add__"),
]


@pytest.mark.parametrize("fn, label", BUILTINS, ids=[label for _, label in BUILTINS])
def test_a_builtin_is_refused_by_name_with_what_to_write(fn, label):
    with pytest.raises(ToolDefinitionError) as caught:
        tool(fn)
    assert str(caught.value) == (
        f"@tool {label}: {label} is written in C, not Python: it has no type hints or docstring to "
        f"reflect into a tool. Fix: write a small def with typed parameters and a docstring that calls "
        f"{label}, and use that"
    )


def test_a_builtin_under_tool_with_options_is_refused_too():
    with pytest.raises(ToolDefinitionError, match=r"^@tool math\.sqrt: math\.sqrt is written in C"):
        tool("Square root.")(math.sqrt)


@pytest.mark.parametrize(
    "make, text",
    [
        (lambda: tool(3), "@tool(...): the description is an int (3), not a str. Fix: pass the description as a str"),
        (
            lambda: tool(b"x"),
            "@tool(...): the description is a bytes (b'x'), not a str. Fix: pass the description as a str",
        ),
        (
            lambda: tool(description=5),
            "@tool(...): description is an int (5), not a str. Fix: pass description as a str",
        ),
        (lambda: tool(name=5), "@tool(...): name is an int (5), not a str. Fix: pass name as a str"),
        (lambda: tool(metadata=[1]), "@tool(...): metadata is a list ([1]), not a dict. Fix: pass metadata as a dict"),
        (lambda: Param(5), "Param(...): description is an int (5), not a str. Fix: pass description as a str"),
        (lambda: Param(name=5), "Param(...): name is an int (5), not a str. Fix: pass name as a str"),
        (
            lambda: Param(required="no"),
            "Param(...): required is a str ('no'), not a bool. Fix: pass required as a bool (True or False)",
        ),
        (
            lambda: Param(name=""),
            "Param(name=''): the name the model sees is empty. Fix: leave name out to use the parameter's own name",
        ),
    ],
)
def test_an_option_of_the_wrong_type_is_a_developer_error(make, text):
    with pytest.raises(ToolDefinitionError) as caught:
        make()
    assert str(caught.value) == text


def test_the_options_of_the_right_type_still_work():
    @tool("Add.", name="add_them", metadata={"k": 1})
    def add(a: Annotated[int, Param("first", name="A", required=True)], b: int = 0) -> int:
        return a + b

    from toolkit.tools.execute import tools_from

    [made] = tools_from(add)
    assert (made.name, made.spec.description, dict(made.spec.metadata)) == ("add_them", "Add.", {"k": 1})
    assert made.spec.parameters["properties"]["A"]["description"] == "first"


def test_tool_on_a_class_is_refused_its_options_would_be_lost():
    """`@tool(name="get_weather") class Weather` was accepted, and the tool made of `Weather()` was
    called "Weather": the class's options never reached it."""
    with pytest.raises(ToolDefinitionError) as caught:

        @tool(name="get_weather")
        class Weather:
            def __call__(self, city: str) -> str:
                return city

    assert str(caught.value) == (
        f"@tool {__name__}.test_tool_on_a_class_is_refused_its_options_would_be_lost.<locals>.Weather: @tool marks "
        "functions, methods and callable objects, not a class: a tool is made of an instance, and the options "
        "given to the class would not reach it. Fix: decorate the methods (or __call__) with @tool and pass an "
        "instance, e.g. tools_from(Weather())"
    )


def test_the_instance_and_its_call_method_still_take_the_options():
    from toolkit.tools.execute import tools_from

    class Weather:
        """Weather lookup."""

        def __call__(self, city: str) -> str:
            return city

    class Forecast:
        @tool(name="forecast")
        def __call__(self, city: str) -> str:
            """Tomorrow's weather."""
            return city

    made = tools_from(tool(name="get_weather")(Weather()), Forecast())
    assert [(t.name, t.spec.description) for t in made] == [
        ("get_weather", "Weather lookup."),
        ("forecast", "Tomorrow's weather."),
    ]


@pytest.mark.parametrize(
    "make",
    [lambda: tool(["Look up an order.", "Use it for status questions."]), lambda: tool(description=("a", "b"))],
)
def test_a_description_given_as_lines_says_how_to_join_them(make):
    """Seed 000 (LangChain4j tool internals), section 3.1: `@Tool`'s `value()` is an array of lines "joined
    with \\n". Here a description is one str, a deliberate difference; the refusal said only "pass the
    description as a str", not how a LangChain4j habit (one string per line) becomes one."""
    with pytest.raises(ToolDefinitionError) as caught:
        make()
    assert str(caught.value).endswith(
        'Fix: join the lines into one str, "\\n".join([...]), as LangChain4j joins @Tool\'s lines '
        "(or write them in one triple-quoted str)"
    )
