"""`toolkit.tools.parameters`: a default checked by a learner's own validator that raises what pydantic
passes on (a `TypeError`, a `KeyError`: pydantic turns only `ValueError` and `AssertionError` into a
validation error) was a raw exception at registration; it is a `ToolDefinitionError` naming the fix."""

from typing import Annotated

import pytest
from pydantic import AfterValidator, BeforeValidator

from toolkit.errors import ToolDefinitionError
from toolkit.tools.reflect import reflect


def strict(value):
    if not isinstance(value, int):
        raise TypeError("expected an int")
    return value


def lookup(value):
    return {"small": 1}[value]


def counted(count: Annotated[int, BeforeValidator(strict)] = "3") -> int:  # type: ignore[assignment]
    """Count."""
    return count


def sized(size: Annotated[str, AfterValidator(lookup)] = "huge") -> str:
    """Size."""
    return size


FIX = "Fix: give a default the type's validators accept, or make them raise ValueError for a value they refuse"


@pytest.mark.parametrize(
    ("fn", "expected"),
    [
        (
            counted,
            f"@tool {__name__}.counted, parameter 'count': checking the default '3' against "
            f"Annotated[int, BeforeValidator(func=strict)] raised TypeError: expected an int. {FIX}",
        ),
        (
            sized,
            f"@tool {__name__}.sized, parameter 'size': checking the default 'huge' against "
            f"Annotated[str, AfterValidator(func=lookup)] raised KeyError: 'huge'. {FIX}",
        ),
    ],
)
def test_a_validator_raising_on_the_default_is_a_definition_error(fn, expected):
    with pytest.raises(ToolDefinitionError) as caught:
        reflect(fn)
    assert str(caught.value) == expected


def test_a_default_the_validator_accepts_is_kept():
    def fine(count: Annotated[int, BeforeValidator(strict)] = 3) -> int:
        """Count."""
        return count

    assert reflect(fine).spec.parameters["properties"]["count"]["default"] == 3
