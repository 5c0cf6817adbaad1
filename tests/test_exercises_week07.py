"""Week 7's checks with other learners' code: a compensation that takes the recorded ToolExecution and reads the
call's arguments as a dict is told they are the JSON text the model sent."""

import json
import re

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


NOT_A_BOOKING = (
    " — what your code looked for is not in BOOKINGS: each booking is the tuple (guest, nights) book_hotel appended "
    "for its own call, in that order; a list [guest, nights] never equals one, and another call's booking is not "
    "this call's"
)


def _as_list(guest: str, nights: int) -> None:
    BOOKINGS.remove([guest, nights])


def _swapped(guest: str, nights: int) -> None:
    BOOKINGS.remove((nights, guest))


def _index_of_list(guest: str, nights: int) -> None:
    del BOOKINGS[BOOKINGS.index([guest, nights])]


@pytest.mark.parametrize(
    ("undo", "error"),
    [
        (_as_list, r"ValueError: list\.remove\(x\): x not in list"),
        (_swapped, r"ValueError: list\.remove\(x\): x not in list"),
        (_index_of_list, r"ValueError: \['\w+', \d+\] is not in list"),
    ],
)
def test_a_compensation_looking_for_a_list_or_the_fields_swapped_is_told_what_a_booking_is(undo, error):
    """Before: 'your compensation failed: ValueError: list.remove(x): x not in list' alone: the learner who wrote
    remove([guest, nights]) — a list where the booking is a tuple — or swapped its fields was not told why."""
    result = check("w7.compensation", compensates("book_hotel")(undo))
    assert result.status == "failed"
    assert re.fullmatch(f"your compensation failed: {error}{re.escape(NOT_A_BOOKING)}", result.feedback), result


def _by_position(guest: str, nights: int) -> None:
    del BOOKINGS[BOOKINGS.index((guest, nights))]


def _scanning_back(guest: str, nights: int) -> None:
    for i in range(len(BOOKINGS) - 1, -1, -1):
        if BOOKINGS[i] == (guest, nights):
            del BOOKINGS[i]
            return


@pytest.mark.parametrize("undo", [_by_position, _scanning_back])
def test_other_honest_ways_to_remove_the_one_booking_pass(undo):
    result = check("w7.compensation", compensates("book_hotel")(undo))
    assert (result.status, result.feedback) == (
        "passed",
        "each call's own booking undone on failure, kept on success, nobody else's touched.",
    )


@pytest.mark.parametrize("passes", [True, False])
def test_the_check_leaves_the_learners_bookings_as_they_were(passes):
    """Before: check() reset BOOKINGS to its own trips and left them there: a learner who had booked Zoe in a cell
    (to try their compensation by hand) found her gone after the check, and 'someone else', Carol and Bob in her
    place. The check now puts BOOKINGS back as it found it, whether the compensation passed or not."""

    @compensates("book_hotel")
    def cancel(guest: str, nights: int) -> None:
        BOOKINGS.remove((guest, nights) if passes else (guest, nights + 1))

    mine = [("zoe", 9), ("alice", 3)]
    BOOKINGS[:] = mine
    try:
        assert check("w7.compensation", cancel).passed is passes
        assert BOOKINGS == mine
    finally:
        BOOKINGS.clear()


def test_a_count_of_compensations_that_undoes_the_failed_call_too_is_told_it_did_nothing():
    """Before: 3 for "shipment fails" (every call of the turn undone, the failed one too) read only "not 3"."""
    answer = {"all succeed": 0, "shipment fails": 3, "shipment fails, compensate=False": 0}
    assert check("w7.when", answer).feedback == (
        "shipment fails: not 3 — the call that failed (create_shipment) changed nothing, so there is nothing of it "
        "to undo"
    )


def _lower_cased(guest: str, nights: int) -> None:
    BOOKINGS.remove((guest.lower(), nights))


def _case_blind(guest: str, nights: int) -> None:
    own = next(b for b in BOOKINGS if b[0].casefold() == guest.casefold() and b[1] == nights)
    BOOKINGS.remove(own)


@pytest.mark.parametrize("undo", [_lower_cased, _case_blind])
def test_a_compensation_that_changes_the_guests_name_is_caught(undo):
    """Before: ✓ — every guest of the check's trips was written in lower case, so `guest.lower()` changed nothing.
    Now a trip books 'Alice Wang' beside an earlier 'alice wang' of the same nights: the name is matched exactly."""
    result = check("w7.compensation", compensates("book_hotel")(undo))
    assert (result.status, result.feedback) == (
        "failed",
        "after the rollback alice wang's booking of 3 nights is gone, but no undone call booked it: undo only this "
        "call's effect — the booking with its own guest and nights",
    )
