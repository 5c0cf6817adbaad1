"""A validator of the tool's own (`AfterValidator`, `field_validator`, `model_validator`, `assert`,
`PydanticCustomError`) that refuses the model's value: the model reads its reason.

The reason went out as if it were a type ("got 3, expected value error, must be even", "expected
assertion failed, must be positive", "expected SKU zz is not like AB-123") and unsanitised, while a
tool's raised exception is sanitised: a validator that names its database in a message sent the
password to the model. It now reads "got 3, refused: must be even", sanitised as a raised
exception's text is, on one line.

PYTEST_DONT_REWRITE: the validators' `assert`s must read as Python's (pytest would add its own lines)."""

from __future__ import annotations

import json
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, model_validator
from pydantic_core import PydanticCustomError

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError
from toolkit.tools.execute import FEED_BACK_ALL, execute, tools_from


def _even(value: int) -> int:
    if value % 2:
        raise ValueError("must be even")
    return value


def _positive(value: int) -> int:
    assert value > 0, "must be positive"
    return value


def _positive_silently(value: int) -> int:
    assert value > 0
    return value


def _sku(value: str) -> str:
    if not value.startswith("AB-"):
        raise PydanticCustomError("sku_format", "SKU {sku} is not like AB-123", {"sku": value})
    return value


def _known_customer(value: str) -> str:
    raise ValueError(f"no customer {value} in postgres://shop:Tr0ub4dor@db.internal/shop")


class Range(BaseModel):
    lo: int
    hi: int

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.lo > self.hi:
            raise ValueError("lo must be <= hi")
        return self


def book(
    count: Annotated[int, AfterValidator(_even)] = 2,
    seats: Annotated[int, AfterValidator(_positive)] = 1,
    rooms: Annotated[int, AfterValidator(_positive_silently)] = 1,
    sku: Annotated[str, AfterValidator(_sku)] = "AB-1",
    customer: Annotated[str, AfterValidator(_known_customer)] | None = None,
    dates: Range | None = None,
    email: Annotated[str, Field(pattern=r"^\S+@\S+$")] = "a@b",
) -> str:
    """Book a table."""
    return "booked"


def _text(arguments: dict) -> str:
    result = execute(
        ToolCall(id="c1", name="book", arguments=json.dumps(arguments)), tools_from(book), None, FEED_BACK_ALL
    )
    assert result.is_error
    return result.content


def _line(arguments: dict) -> str:
    text = _text(arguments)
    lines = text.split("\n")
    assert (lines[0], lines[-1]) == ("Invalid arguments for tool 'book':", "Fix the arguments and call book again.")
    [line] = lines[1:-1]
    return line


def test_a_value_error_of_a_validator_is_its_reason():
    assert _line({"count": 3}) == "- count: got 3, refused: must be even"


def test_an_assert_of_a_validator_is_its_reason():
    assert _line({"seats": -1}) == "- seats: got -1, refused: must be positive"


def test_an_assert_without_a_message_says_the_check_failed():
    assert _line({"rooms": 0}) == "- rooms: got 0, refused: the tool's own check of this value failed"


def _two_lines(value: str) -> str:
    raise ValueError(f"unknown city {value}\nknown: Beijing, Shanghai")


def where(city: Annotated[str, AfterValidator(_two_lines)]) -> str:
    """Where to."""
    return city


def test_a_reason_over_several_lines_is_one_line():
    result = execute(ToolCall(id="c1", name="where", arguments='{"city": "X"}'), tools_from(where), None, FEED_BACK_ALL)
    assert result.content == (
        "Invalid arguments for tool 'where':\n"
        '- city: got "X", refused: unknown city X known: Beijing, Shanghai\n'
        "Fix the arguments and call where again."
    )


def test_a_custom_error_of_a_validator_is_its_reason():
    assert _line({"sku": "zz"}) == '- sku: got "zz", refused: SKU zz is not like AB-123'


def test_a_model_validator_names_the_object_it_refused():
    assert _line({"dates": {"lo": 5, "hi": 1}}) == '- dates: got {"lo": 5, "hi": 1}, refused: lo must be <= hi'


def test_a_secret_in_a_validators_message_never_reaches_the_model():
    assert _line({"customer": "c-7"}) == (
        '- customer: got "c-7", refused: no customer c-7 in postgres://[REDACTED]@db.internal/shop'
    )


def test_the_reason_is_what_the_error_says_was_expected():
    try:
        tools_from(book)[0].executor(ToolCall(id="c1", name="book", arguments='{"count": 3}'), None)
    except ArgumentError as exc:
        assert (exc.field, exc.received, exc.expected, exc.problems[0].kind) == (
            "count",
            "3",
            "must be even",
            "refused",
        )
    else:
        raise AssertionError("no ArgumentError")


def test_pydantics_own_constraints_still_say_what_was_expected():
    assert _line({"email": "nope"}) == '- email: got "nope", expected a string matching ^\\S+@\\S+$'
