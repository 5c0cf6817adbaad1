"""A type pydantic defines once and refers to (an enum with a `Field(description=…)` or
`title=` on it, under `list[...]`, in a TypedDict) is still adjusted by coercion's rules: the
wrapper takes the definition's `ref`. Before: building the validator failed with pydantic-core's
`SchemaError: Error building "definitions" validator: KeyError: 'ref'`, so every call of such a
tool failed (found by qa-fastpath)."""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import pytest
from pydantic import Field, ValidationError
from typing_extensions import TypedDict

from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop.run import run_loop
from toolkit.tools.coercion import validate_value
from toolkit.tools.decorator import tool


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Paint(TypedDict, total=False):
    colour: Annotated[Colour, Field(description="the colour")]
    finish: Literal["matt", "gloss"]


@pytest.mark.parametrize(
    ("annotation", "given", "expected"),
    [
        (Annotated[Colour, Field(description="the colour")], "RED", Colour.RED),
        (Annotated[Colour, Field(title="Colour")], "blue", Colour.BLUE),
        (list[Annotated[Colour, Field(description="one colour")]], ["Red", "blue"], [Colour.RED, Colour.BLUE]),
        (dict[str, Annotated[Colour, Field(description="c")]], {"wall": "BLUE"}, {"wall": Colour.BLUE}),
        (Paint, {"colour": "Red", "finish": None}, {"colour": Colour.RED}),
    ],
)
def test_a_defined_enum_is_matched_case_insensitively_as_a_plain_one_is(annotation, given, expected):
    assert validate_value(annotation, given) == expected


def test_a_defined_enum_still_refuses_what_is_not_a_member():
    with pytest.raises(ValidationError, match="Input should be 'red' or 'blue'"):
        validate_value(Annotated[Colour, Field(description="the colour")], "green")


def test_a_tool_with_a_described_enum_runs():
    @tool("Paint a wall.")
    def paint(
        c: Annotated[Colour, Field(description="the colour")], d: Colour = Field(Colour.RED, description="d")
    ) -> str:
        return f"{c.value} {d.value}"

    result = run_loop(ScriptedModel([call("paint", c="BLUE"), "done"]), "paint it", tools=[paint])
    assert [m.content for m in result.new_messages][1] == "blue red"
