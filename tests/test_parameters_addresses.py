"""Developer errors show a type's validators by name, never by memory address.

`Annotated[int, AfterValidator(check)]` was shown as pydantic's repr, `AfterValidator(func=<function
check at 0x7f3a...>)`: the text changed from one run to the next (a notebook's stored output, a
test of the exact text, a grade). A function or method is now shown by its qualified name, a
dataclass holding one by the fields that differ from their defaults, and any other object
without its address, at the top of the type and inside it alike."""

import functools
from typing import Annotated

import pytest
from pydantic import AfterValidator, BeforeValidator, Field, PlainSerializer

from toolkit.errors import ToolDefinitionError
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from


def check_even(value: int) -> int:
    if value % 2:
        raise ValueError("odd")
    return value


def same(value: object) -> object:
    return value


class Checks:
    def positive(self, value: int) -> int:
        return value

    def __call__(self, value: int) -> int:
        return value


_NOT_AN_INT = "Input should be a valid integer, unable to parse string as an integer"


def _refusal(fn) -> str:
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(fn)
    assert " at 0x" not in str(caught.value)
    return str(caught.value)


def test_a_validators_function_is_shown_by_its_qualified_name():
    def count(n: Annotated[int, AfterValidator(check_even)] = "two") -> str:
        """Count."""
        return str(n)

    assert _refusal(count) == (
        f"@tool {__name__}.test_a_validators_function_is_shown_by_its_qualified_name.<locals>.count, parameter 'n': "
        f"the default 'two' is not a valid Annotated[int, AfterValidator(func=check_even)]: {_NOT_AN_INT}. "
        "Fix: give a default of that type, or change the type"
    )


@pytest.mark.parametrize(
    ("validator", "shown"),
    [
        (AfterValidator(Checks().positive), "AfterValidator(func=Checks.positive)"),
        (AfterValidator(lambda v: v), "AfterValidator(func=<lambda>)"),
        (AfterValidator(Checks()), f"AfterValidator(func=<{__name__}.Checks object>)"),
        (BeforeValidator(functools.partial(same)), "BeforeValidator(func=functools.partial(same, ...))"),
        (PlainSerializer(check_even), "PlainSerializer(func=check_even)"),
    ],
    ids=["bound method", "lambda", "callable object", "partial", "serializer"],
)
def test_every_kind_of_function_in_metadata_reads_the_same_every_run(validator, shown):
    """(No `from __future__ import annotations` here: the annotations name this test's parameter.)"""

    def count(n: Annotated[int, validator] = "two") -> str:
        """Count."""
        return str(n)

    assert f"is not a valid Annotated[int, {shown}]: " in _refusal(count)


def test_a_validator_inside_another_type_is_shown_by_name_too():
    def count(ns: list[Annotated[int, AfterValidator(check_even)]] = "two") -> str:
        """Count."""
        return str(ns)

    assert "is not a valid list[Annotated[int, AfterValidator(func=check_even)]]: " in _refusal(count)


_UNSET = object()


def test_a_default_without_a_readable_repr_is_shown_without_its_address():
    def count(n: int = _UNSET) -> str:
        """Count."""
        return str(n)

    assert "the default <object object> is not a valid int: " in _refusal(count)


def test_an_option_of_the_wrong_type_is_shown_by_name():
    with pytest.raises(ToolDefinitionError) as caught:
        tool(description=check_even)
    assert str(caught.value) == (
        "@tool(...): description is a function (check_even), not a str. Fix: pass description as a str"
    )


class _Unprintable:
    """A value whose repr raises (a proxy whose target is gone, a half-built object)."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparison")

    __hash__ = None  # type: ignore[assignment]


def test_a_default_whose_repr_raises_is_shown_by_its_class():
    # the developer error raised RuntimeError: no repr, from inside the message that names the default
    def count(n: int = _Unprintable()) -> str:  # type: ignore[assignment]
        """Count."""
        return str(n)

    assert "parameter 'n': the default <_Unprintable object> is not a valid int: " in _refusal(count)


def test_a_default_that_cannot_be_compared_is_told_as_two_defaults():
    # `Field(default=...)` and the signature's default were compared with `!=`: an object whose
    # comparison raises (or returns no bool: a numpy array) escaped as its own error
    def count(n: Annotated[object, Field(default=_Unprintable())] = _Unprintable()) -> str:
        """Count."""
        return str(n)

    assert _refusal(count).endswith(
        "parameter 'n': Field gives the default <_Unprintable object> and the signature gives "
        "<_Unprintable object>. Fix: keep one of them"
    )
