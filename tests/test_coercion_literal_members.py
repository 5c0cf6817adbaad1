"""A `Literal` of enum members (`Literal[Color.RED]`): the schema tells the model the member's
value (`{"const": "red"}`), so that value, sent back, is the member. pydantic's own literal
validator compared `"red"` with `Color.RED` and refused it ("Input should be <Color.RED: 'red'>"),
so a call the schema allows always failed, and its error named a Python repr the model never saw."""

import enum
import json
from typing import Literal

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.tools.coercion import validate_value
from toolkit.tools.execute import FEED_BACK_ALL, tools_from


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Size(enum.Enum):
    SMALL = 0
    LARGE = 1


def paint(color: Literal[Color.RED, "other"]) -> str:
    """Paint something."""
    return repr(color)


def _content(fn, arguments):
    tool = tools_from(fn)[0]
    return tool.execute(
        ToolCall(id="1", name=tool.name, arguments=json.dumps(arguments)), policies=FEED_BACK_ALL
    ).content


def test_the_schema_names_the_members_value():
    assert tools_from(paint)[0].spec.parameters["properties"]["color"] == {"enum": ["red", "other"], "type": "string"}


@pytest.mark.parametrize(
    "annotation, value, expected",
    [
        (Literal[Color.RED], "red", Color.RED),
        (Literal[Color.RED], "RED", Color.RED),
        (Literal[Color.RED, Color.GREEN], "green", Color.GREEN),
        (Literal[Color.RED, "other"], "other", "other"),
        (Literal[Color.RED], Color.RED, Color.RED),
        (Literal[Size.LARGE], 1, Size.LARGE),
        (Literal[Size.LARGE], "1", Size.LARGE),
        (Literal[Size.SMALL, None], None, None),
    ],
)
def test_the_members_value_is_the_member(annotation, value, expected):
    got = validate_value(annotation, value)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("annotation, value", [(Literal[Size.LARGE], True), (Literal[Size.SMALL], False)])
def test_a_boolean_is_not_a_members_number(annotation, value):
    with pytest.raises(ValueError):
        validate_value(annotation, value)


def test_the_function_gets_the_member():
    assert _content(paint, {"color": "red"}) == "<Color.RED: 'red'>"


def test_a_wrong_choice_is_told_in_the_schemas_words():
    assert _content(paint, {"color": "blue"}) == (
        "Invalid arguments for tool 'paint':\n"
        "- color: got \"blue\", expected one of 'red' or 'other'\n"
        "Fix the arguments and call paint again."
    )


@pytest.mark.parametrize("value", [False, 5, "LARGE", [1], {"a": 1}])
def test_any_other_value_is_told_the_members_values(value):
    with pytest.raises(ValueError, match=r"Input should be 0 \[type=literal_error"):
        validate_value(Literal[Size.SMALL], value)
