"""`toolkit.tools.parameters`: a default checked by a learner's own validator that raises what pydantic
passes on (a `TypeError`, a `KeyError`: pydantic turns only `ValueError` and `AssertionError` into a
validation error) was a raw exception at registration; it is a `ToolDefinitionError` naming the fix."""

from typing import Annotated

import pytest
from pydantic import AfterValidator, BeforeValidator, WrapValidator

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


def three(a, b, c):
    return a


def no_handler(value):
    return value


SIGNATURE_FIX = (
    "Fix: an after, before or plain validator takes (value) or (value, info); a wrap validator takes "
    "(value, handler) or (value, handler, info)"
)


@pytest.mark.parametrize("with_default", [True, False], ids=["default", "required"])
@pytest.mark.parametrize(
    ("metadata", "said"),
    [
        (AfterValidator(three), "AfterValidator(func=three)] takes (a, b, c), which pydantic cannot call as an after"),
        (
            WrapValidator(no_handler),
            "WrapValidator(func=no_handler)] takes (value), which pydantic cannot call as a wrap",
        ),
    ],
)
def test_a_validator_pydantic_cannot_call_is_a_definition_error_without_an_address(metadata, said, with_default):
    """pydantic's own text held the function's memory address and a link, and without a default
    the fix said to use a JSON-friendly type."""
    if with_default:

        def fn(x: int = 3) -> int:
            """X."""
            return x
    else:

        def fn(x: int) -> int:
            """X."""
            return x

    fn.__annotations__["x"] = Annotated[int, metadata]
    with pytest.raises(ToolDefinitionError) as caught:
        reflect(fn)
    name = fn.__qualname__
    assert str(caught.value) == (
        f"@tool {__name__}.{name}, parameter 'x': a validator in Annotated[int, {said} validator. {SIGNATURE_FIX}"
    )
