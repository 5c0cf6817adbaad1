"""toolkit.gateway.negated: what a user asks NOT to be done is taken out before a tool is picked."""

import pytest
from test_gateway_generic_asks import S, fn, turn

from toolkit.gateway.negated import affirmed
from toolkit.gateway.rules import load_rules

GET = fn("get_order", "Look up an order by its number", {"order_number": S})
CANCEL = fn("cancel_order", "Cancel an order", {"order_number": S})
READ = fn("read_file", "Read a text file", {"path": S})
DELETE = fn("delete_file", "Delete a file", {"path": S})
FLIGHTS = fn("search_flights", "Search flights", {"from_airport": S, "to_airport": S})
HOTEL = fn("book_hotel", "Book a hotel room", {"city": S})
WEATHER = fn("get_weather", "Get the weather for a city", {"city": S})
NOTHING = (
    "All right, I will not look it up this time. I cannot make up what I have not looked up; tell me when you "
    "want an exact answer and I will check."
)


@pytest.mark.parametrize(
    "text",
    [
        "don't cancel it, just check order A-20202",
        "do not cancel anything, just look up order A-20202",
        "I don't want to cancel, just check order A-20202",
        "please don't cancel anything but check order A-20202",
    ],
)
def test_a_negated_verb_picks_no_tool(text):
    """ "don't cancel it, just check order A-20202" called cancel_order and get_order: "cancel" picked the tool
    the user forbade. The negated clause is taken out before a tool is picked."""
    assert turn(text, [GET, CANCEL])[0] == [("get_order", {"order_number": "A-20202"})]


def test_what_is_asked_beside_a_negated_booking_is_called_alone():
    text = "don't book anything yet, just search flights from LHR to CDG"
    assert turn(text, [FLIGHTS, HOTEL])[0] == [("search_flights", {"from_airport": "LHR", "to_airport": "CDG"})]


def test_a_file_not_to_be_deleted_is_not_deleted():
    """ "show me what's in notes.txt but don't delete anything" called delete_file(path=<the whole text>)."""
    assert turn("show me what's in notes.txt but don't delete anything", [READ, DELETE])[0] == []


@pytest.mark.parametrize("text", ["no need to check the weather", "never mind the weather in Paris"])
def test_a_text_all_negated_calls_nothing(text):
    """ "no need to check the weather" asked which city: nothing is asked for, and nothing is looked up."""
    assert turn(text, [WEATHER]) == ([], NOTHING)


@pytest.mark.parametrize(
    "text",
    [
        "don't forget to check the weather in Paris",
        "why don't you check the weather in Paris",
        "don't let me forget the weather in Paris",
    ],
)
def test_a_negation_that_asks_for_the_thing_still_calls(text):
    assert turn(text, [WEATHER])[0] == [("get_weather", {"city": "Paris"})]


def test_a_statement_with_a_negation_is_read_as_written():
    rules = load_rules()
    for text in ["The parcel never arrived and tracking hasn't moved", "I can't log in", "没别的问题了"]:
        assert affirmed(text, rules) is text


def test_the_clauses_around_a_negated_one_are_kept():
    rules = load_rules()
    assert affirmed("别取消订单，先帮我查一下A-7777", rules) == "，先帮我查一下A-7777"
    assert affirmed("show me notes.txt but don't delete anything", rules) == "show me notes.txt but "
    assert affirmed("don't cancel it", rules) is None


def test_a_negated_clause_that_forbids_every_look_up_keeps_the_text():
    """ "不要查天气，…" holds the rule that calls nothing ("不要查"): it forbids a look-up, not one tool."""
    convert = fn("convert", "Convert money", {"amount": {"type": "number"}, "from": S, "to": S})
    assert turn("不要查天气，帮我把100欧元换成美元", [WEATHER, convert])[0] == []
