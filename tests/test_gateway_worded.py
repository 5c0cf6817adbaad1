"""toolkit.gateway.worded, and a number's scale: numbers a user writes in words, or with k, 千, 万, 亿."""

import pytest
from test_gateway_generic_asks import CONVERT, S, fn, turn

from toolkit.gateway.worded import worded_numbers

I = {"type": "integer"}


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("convert fifty euros", [50]),
        ("twenty-five dollars", [25]),
        ("Twenty five", [25]),
        ("one hundred and twenty", [120]),
        ("one hundred twenty five", [125]),
        ("two thousand five", [2005]),
        ("three million five hundred thousand", [3_500_000]),
        ("seven cats and nine dogs", [7, 9]),
        ("zero", [0]),
        ("someone is done", []),
        ("one two", []),
        ("hundred", []),
        ("twenty twelve", []),
    ],
)
def test_worded_numbers(text, numbers):
    assert worded_numbers(text) == numbers


def test_an_amount_in_words_is_the_amount_not_a_made_up_one():
    """ "convert fifty euros to dollars" called convert(amount=1, …): the bounds' made-up value, the text's
    digits being none."""
    assert turn("convert fifty euros to dollars", [CONVERT])[0] == [
        ("convert_currency", {"amount": 50, "from_currency": "EUR", "to_currency": "USD"})
    ]


def test_an_id_in_words_is_the_id():
    done = fn("complete_task", "Mark a task done", {"task_id": I})
    assert turn("mark task seven done", [done])[0] == [("complete_task", {"task_id": 7})]


def test_digits_win_over_words_and_words_outside_the_bounds_are_no_value():
    rooms = fn("book_room", "Book a hotel room", {"city": S, "nights": {"type": "integer", "minimum": 1}})
    assert turn("book a room in Rome for 3 nights, one of them free", [rooms])[0] == [
        ("book_room", {"city": "Rome", "nights": 3})
    ]
    assert turn("book a room in Rome for zero nights", [rooms]) == (
        [],
        '"nights" must be at least 1, and your message gives no such number. What should I use?',
    )


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("convert 2.5k USD to JPY", 2500),
        ("convert 10K EUR to GBP", 10000),
        ("convert 1.1k usd to eur", 1100),
        ("把1.5万人民币换成美元", 15000),
        ("把3千美元换成欧元", 3000),
    ],
)
def test_a_scale_after_the_digits_is_read(text, amount):
    """ "convert 2.5k USD to JPY" called convert(amount=2.5): the k was no part of the number."""
    assert turn(text, [CONVERT])[0][0][1]["amount"] == amount


def test_a_unit_after_the_digits_is_no_scale():
    units = fn(
        "convert_units", "Convert a value between units", {"value": {"type": "number"}, "from_unit": S, "to_unit": S}
    )
    assert turn("5kg to pounds", [units])[0] == [
        ("convert_units", {"value": 5, "from_unit": "kg", "to_unit": "pounds"})
    ]
    assert turn("把3千克换成磅", [units])[0] == [("convert_units", {"value": 3, "from_unit": "千克", "to_unit": "磅"})]
