"""Booleans and numbers stay apart in enum and `Literal` choices too: Python's `True == 1` let
`true` through as `Literal[1, 2]`'s 1 (or an int enum's member), and `1` as `Literal[True]`,
while an `int` parameter refused `true` (coercion rule 2)."""

import enum
from typing import Literal

import pytest
from pydantic import ValidationError

from toolkit.chat.messages import ToolCall
from toolkit.tools.coercion import validate_value
from toolkit.tools.decorator import tool
from toolkit.tools.execute import FEED_BACK_ALL, tools_from


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Size(enum.Enum):
    SMALL = 0
    LARGE = 1


@pytest.mark.parametrize(
    "annotation, value",
    [
        (Literal[1, 2], True),
        (Literal[0, 1], False),
        (Level, True),
        (Size, False),
        (Literal[True], 1),
        (Literal[False], 0),
        (Literal[False], 0.0),
        (Literal[None, 0], False),
    ],
)
def test_a_boolean_is_not_a_number_choice_nor_a_number_a_boolean_choice(annotation, value):
    with pytest.raises(ValidationError):
        validate_value(annotation, value)


@pytest.mark.parametrize(
    "annotation, value, expected",
    [
        (Literal[1, 2], 2, 2),
        (Literal[1, 2], 2.0, 2),
        (Literal[1, 2], "2", 2),
        (Level, 1, Level.LOW),
        (Literal[True], True, True),
        (Literal[0, False], False, False),
        (Literal[0, False], 0, 0),
        (Literal["a", "b"], "A", "a"),
    ],
)
def test_matching_choices_still_match(annotation, value, expected):
    got = validate_value(annotation, value)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize(
    "annotation, value, expected",
    [
        (Literal[1, True], 1.0, 1),
        (Literal[True, 1], 1.0, 1),
        (Literal[1, "a", True, None], 1.0, 1),
        (Literal[0, False], 0.0, 0),
        (Literal[False, 0], 0.0, 0),
        (Literal[True, 1], 1, 1),
        (Literal[True, 1], True, True),
    ],
)
def test_a_number_sent_for_mixed_choices_is_the_number_choice_never_the_boolean(annotation, value, expected):
    """`1.0` is the number 1: with both `1` and `True` among the choices (`True == 1 == 1.0` in
    Python), pydantic's lookup returned `True`, a different value of a different type."""
    got = validate_value(annotation, value)
    assert got == expected and type(got) is type(expected)


def test_the_model_reads_what_was_wrong_and_the_choices():
    @tool
    def set_level(level: Level, urgent: Literal[True] = True) -> str:
        """Set the level."""
        return str(level)

    [made] = tools_from(set_level)
    result = made.execute(
        ToolCall(id="c", name="set_level", arguments='{"level": true, "urgent": 1}'), None, FEED_BACK_ALL
    )
    assert result.is_error
    assert result.content == (
        "Invalid arguments for tool 'set_level':\n"
        "- level: got true, expected one of 1 or 2\n"
        "- urgent: got 1, expected one of true\n"  # as the schema writes it (JSON), as "got" is
        "Fix the arguments and call set_level again."
    )


def test_a_model_in_two_validators_built_at_once_keeps_the_rules_in_both(monkeypatch):
    """`_build` marks the models in a schema unfinished (so pydantic-core builds them anew, with the
    rules) under a lock, but looked for the finished ones before taking it: a second thread that
    looked while the first held the lock saw the model unfinished, left it out, and then got the
    model's own lax validator (`"true"` read as True), cached for good. Here the first build is held
    while the model is marked, until the second thread is at the lock."""
    import threading

    from pydantic import BaseModel

    from toolkit.tools import coercion

    class Gift(BaseModel):
        wrapped: bool

    first_building, second_at_lock = threading.Event(), threading.Event()
    real_validator, real_lock = coercion.SchemaValidator, coercion._BUILD_LOCK

    def held(schema, *args, **kwargs):
        if threading.current_thread() is first:  # Gift is marked unfinished now
            first_building.set()
            assert second_at_lock.wait(120)
        return real_validator(schema, *args, **kwargs)

    class Watched:
        def __enter__(self):
            if threading.current_thread() is second:
                second_at_lock.set()
            return real_lock.__enter__()

        def __exit__(self, *exc):
            return real_lock.__exit__(*exc)

    monkeypatch.setattr(coercion, "SchemaValidator", held)
    monkeypatch.setattr(coercion, "_BUILD_LOCK", Watched())
    built: dict = {}
    first = threading.Thread(target=lambda: built.update(first=coercion.validator_for(list[Gift])))
    second = threading.Thread(target=lambda: built.update(second=coercion.validator_for(dict[str, Gift])))
    first.start()
    assert first_building.wait(120)
    second.start()
    first.join(120)
    second.join(120)
    with pytest.raises(ValidationError):  # rule 1: only JSON's true is a boolean
        built["first"].validate_python([{"wrapped": "true"}])
    with pytest.raises(ValidationError):  # the second had the model's own lax validator
        built["second"].validate_python({"g": {"wrapped": "true"}})
