"""`@tool` and `Param` refuse what they cannot use where it is written: built-ins, and options
of the wrong type (a description of 5 reached the request; a name of 5 failed deep inside)."""

import functools
import math
from typing import Annotated

import pytest

from toolkit.errors import ToolDefinitionError
from toolkit.tools.decorator import Param, ReturnBehavior, ToolOptions, tool, tool_options

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


def _looked_up():
    """A new function each time: a test's marks stay on its own."""

    def looked_up(order_id: str) -> str:
        """Look up one order."""
        return order_id

    return looked_up


def test_a_second_tool_with_other_options_is_refused_not_silently_replacing_the_first():
    with pytest.raises(ToolDefinitionError) as caught:

        @tool(name="find_order")
        @tool("Look up one order by its id.", name="query_order")
        def query_order(order_id: str) -> str:
            return order_id

    assert str(caught.value) == (
        "@tool test_decorator_options.test_a_second_tool_with_other_options_is_refused_not_silently_"
        "replacing_the_first.<locals>.query_order: it is already a tool with other options (name='query_order', "
        "description='Look up one order by its id.' first, then name='find_order', description=None), and the "
        "second @tool would silently replace the first. Fix: keep one @tool with every option the tool needs; "
        "for a second tool made of the same function, decorate a small def that calls it"
    )


def test_bare_tool_over_a_tool_with_options_is_refused_and_the_first_options_stay():
    marked = tool("Look up one order.", metadata={"team": "shop"}, return_behavior="immediate")(_looked_up())
    with pytest.raises(ToolDefinitionError) as caught:
        tool(marked)
    assert caught.value.problem == (
        "it is already a tool with other options (description='Look up one order.', return_behavior="
        "ReturnBehavior.IMMEDIATE, metadata={'team': 'shop'} first, then description=None, return_behavior="
        "ReturnBehavior.TO_LLM, metadata={}), and the second @tool would silently replace the first"
    )
    assert tool_options(marked) == ToolOptions(
        description="Look up one order.", return_behavior=ReturnBehavior.IMMEDIATE, metadata={"team": "shop"}
    )


def test_the_same_options_twice_are_one_tool():
    fn = _looked_up()
    marked = tool(name="lookup", return_behavior="immediate")(tool(name="lookup", return_behavior="immediate")(fn))
    assert marked is fn
    assert tool_options(marked) == ToolOptions(name="lookup", return_behavior=ReturnBehavior.IMMEDIATE)
    bare = _looked_up()
    assert tool(tool(bare)) is bare
    assert tool_options(bare) == ToolOptions()


def test_a_wrapper_of_a_tool_takes_options_of_its_own():
    marked = tool(name="lookup")(_looked_up())

    @functools.wraps(marked)
    def logged(order_id: str) -> str:
        return marked(order_id)

    assert tool(name="logged_lookup")(logged) is logged
    assert tool_options(logged) == ToolOptions(name="logged_lookup")
    assert tool_options(marked) == ToolOptions(name="lookup")


class _Adder:
    def __call__(self, a: int) -> int:
        """Add one."""
        return a + 1


def test_a_callable_instance_given_other_options_is_refused():
    adder = tool(name="add_one")(_Adder())
    with pytest.raises(ToolDefinitionError) as caught:
        tool(name="plus_one")(adder)
    assert str(caught.value).startswith(
        "@tool test_decorator_options._Adder object: it is already a tool with other options (name='add_one' "
        "first, then name='plus_one'), and the second @tool would silently replace the first. Fix: "
    )
    assert tool_options(adder) == ToolOptions(name="add_one")
