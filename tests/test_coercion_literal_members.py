"""A `Literal` of enum members (`Literal[Color.RED]`): the schema tells the model the member's
value (`{"const": "red"}`), so that value, sent back, is the member. pydantic's own literal
validator compared `"red"` with `Color.RED` and refused it ("Input should be <Color.RED: 'red'>"),
so a call the schema allows always failed, and its error named a Python repr the model never saw."""

import datetime
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


class Box(enum.Enum):
    SMALL = (10, 20)
    LARGE = (30, 40)


class Launch(enum.Enum):
    FIRST = datetime.date(2026, 10, 20)


def pack(box: Box, day: Launch, only: Literal[Box.SMALL] = Box.SMALL) -> str:
    """Pack a box."""
    return f"{box!r} {day!r} {only!r}"


def test_an_enum_of_values_json_writes_otherwise_takes_them_as_its_schema_shows_them():
    """A tuple value is an array in the schema, a date a string: the model's `[10, 20]` and
    `"2026-10-20"` were refused ("expected one of (10, 20) or (30, 40)", Python's reprs)."""
    defs = tools_from(pack)[0].spec.parameters["$defs"]
    assert defs["Box"] == {"enum": [[10, 20], [30, 40]], "type": "array"}
    assert defs["Launch"] == {"enum": ["2026-10-20"], "type": "string"}
    assert _content(pack, {"box": [30, 40], "day": "2026-10-20", "only": [10, 20]}) == (
        "<Box.LARGE: (30, 40)> <Launch.FIRST: datetime.date(2026, 10, 20)> <Box.SMALL: (10, 20)>"
    )


def test_a_wrong_value_of_such_an_enum_is_told_in_json():
    assert _content(pack, {"box": [1, 2], "day": "2026-10-21", "only": [30, 40]}) == (
        "Invalid arguments for tool 'pack':\n"
        "- box: got [1, 2], expected one of [10, 20] or [30, 40]\n"
        '- day: got "2026-10-21", expected one of "2026-10-20"\n'
        "- only: got [30, 40], expected one of [10, 20]\n"
        "Fix the arguments and call pack again."
    )


class Answer(enum.Enum):
    UNKNOWN = None
    YES = True


def decide(mode: Literal["auto", True, False], answer: Answer, mark: Literal["x", None] = "x") -> str:
    """Decide."""
    return f"{mode!r} {answer!r} {mark!r}"


def test_a_boolean_or_null_choice_is_told_as_json_writes_it():
    """The schema shows `true`, `false` and `null` (`{"enum": ["auto", true, false]}`), and the
    error said "expected one of 'auto', True or False", "None or True": Python's words, which a
    model writing JSON can only send as strings ("True"), refused again."""
    assert _content(decide, {"mode": "on", "answer": "maybe", "mark": "y"}) == (
        "Invalid arguments for tool 'decide':\n"
        "- mode: got \"on\", expected one of 'auto', true or false\n"
        '- answer: got "maybe", expected one of null or true\n'
        "- mark: got \"y\", expected one of 'x' or null\n"
        "Fix the arguments and call decide again."
    )
    assert _content(decide, {"mode": True, "answer": None, "mark": None}) == "True <Answer.UNKNOWN: None> None"
