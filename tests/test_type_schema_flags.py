"""An `enum.Flag` / `IntFlag` parameter (`toolkit.tools.json_schema.flag_schema`): its schema lists every
combination of its flags (pydantic's listed the members alone, so `Perm.R | Perm.W` could not be sent), and the
validation takes exactly what the schema lists, with the flags named when it refuses."""

import enum

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError
from toolkit.tools.decorator import tool
from toolkit.tools.execute import execute, tools_from
from toolkit.tools.fast_schema import type_schema
from toolkit.tools.json_schema import pydantic_schema


class Perm(enum.Flag):
    """Permissions on a file."""

    R = 1
    W = 2
    X = 4
    RW = 3


class Gap(enum.IntFlag):
    R = 1
    X = 4


class Week(enum.IntFlag):
    MO, TU, WE, TH, FR, SA, SU = (1 << i for i in range(7))


@tool
def grant(perm: Perm, gap: Gap = Gap.R, days: Week = Week.MO | Week.FR) -> str:
    """Grant permissions."""
    return f"{perm!r} {gap!r} {days!r}"


TOOLS = tools_from(grant)


def test_the_schema_lists_every_combination_and_a_wide_flag_its_range():
    assert TOOLS[0].spec.parameters["$defs"] == {
        "Perm": {"description": "Permissions on a file.", "enum": [0, 1, 2, 3, 4, 5, 6, 7], "type": "integer"},
        "Gap": {"enum": [0, 1, 4, 5], "type": "integer"},
        "Week": {"maximum": 127, "minimum": 0, "type": "integer"},
    }
    assert TOOLS[0].spec.parameters["properties"]["days"]["default"] == 17


@pytest.mark.parametrize("flag", [Perm, Gap, Week])
def test_the_fast_schema_is_pydantics_cleaned(flag):
    assert type_schema(flag) == pydantic_schema(flag)


def _run(arguments: str) -> str:
    return execute(ToolCall(id="c1", name="grant", arguments=arguments), TOOLS).content


@pytest.mark.parametrize(
    "arguments, text",
    [
        ('{"perm": 3}', "<Perm.RW: 3> <Gap.R: 1> <Week.MO|FR: 17>"),
        ('{"perm": 0, "gap": 5, "days": 127}', "<Perm: 0> <Gap.R|X: 5> <Week.MO|TU|WE|TH|FR|SA|SU: 127>"),
        ('{"perm": "6", "gap": 4.0}', "<Perm.W|X: 6> <Gap.X: 4> <Week.MO|FR: 17>"),
    ],
    ids=["a-combination", "none-and-all", "digits-and-whole-float"],
)
def test_a_combination_of_flags_is_valid(arguments, text):
    assert _run(arguments) == text


@pytest.mark.parametrize(
    "arguments, problem",
    [
        ('{"perm": 8}', "perm: got 8, expected one of the flags 1 (R), 2 (W), 4 (X) or a sum of several of them"),
        ('{"perm": -1}', "perm: got -1, expected one of the flags 1 (R), 2 (W), 4 (X) or a sum of several of them"),
        ('{"perm": 1, "gap": 2}', "gap: got 2, expected one of the flags 1 (R), 4 (X) or a sum of several of them"),
        (
            '{"perm": 1, "days": 128}',
            "days: got 128, expected one of the flags 1 (MO), 2 (TU), 4 (WE), 8 (TH), "
            "16 (FR), 32 (SA), 64 (SU) or a sum of several of them",
        ),
        ('{"perm": true}', "perm: got true, expected one of the flags 1 (R), 2 (W), 4 (X) or a sum of several of them"),
    ],
    ids=["a-bit-no-flag-has", "negative", "intflag-gap", "intflag-past-the-range", "bool"],
)
def test_a_number_no_combination_makes_is_refused_with_the_flags(arguments, problem):
    with pytest.raises(ArgumentError) as caught:
        _run(arguments)
    assert str(caught.value) == (
        f"Invalid arguments for tool 'grant':\n- {problem} (0 for none)\nFix the arguments and call grant again."
    )
