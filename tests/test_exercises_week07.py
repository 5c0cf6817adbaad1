"""Week 7's checks with other learners' code: a compensation that takes the recorded ToolExecution and reads the
call's arguments as a dict is told they are the JSON text the model sent."""

import json

import pytest

from toolkit import ToolExecution, compensates
from toolkit.exercises import check
from toolkit.exercises.week07 import BOOKINGS

TIP = (
    " — execution.call.arguments is the JSON text the model sent, not a dict: read it with "
    "json.loads(execution.call.arguments), or take book_hotel's own parameters (guest: str, nights: int)"
)


def _by_index(execution: ToolExecution) -> None:
    arguments = execution.call.arguments
    BOOKINGS.remove((arguments["guest"], arguments["nights"]))


def _by_get(execution: ToolExecution) -> None:
    arguments = execution.call.arguments
    BOOKINGS.remove((arguments.get("guest"), arguments.get("nights")))


@pytest.mark.parametrize(
    ("undo", "error"),
    [
        (_by_index, "TypeError: string indices must be integers, not 'str'"),
        (_by_get, "AttributeError: 'str' object has no attribute 'get'"),
    ],
)
def test_a_compensation_reading_the_calls_arguments_as_a_dict_is_told_they_are_json_text(undo, error):
    """Before: 'your compensation failed: TypeError: string indices must be integers, not 'str'' alone — the hint
    offers the recorded ToolExecution, and its call's arguments are the model's JSON text (as LangChain4j keeps
    them), which nothing told the learner."""
    result = check("w7.compensation", compensates("book_hotel")(undo))
    assert (result.status, result.feedback) == ("failed", f"your compensation failed: {error}{TIP}")


def test_a_compensation_that_loads_the_calls_json_arguments_passes():
    @compensates("book_hotel")
    def cancel(execution: ToolExecution) -> None:
        arguments = json.loads(execution.call.arguments)
        BOOKINGS.remove((arguments["guest"], arguments["nights"]))

    assert check("w7.compensation", cancel).status == "passed"
