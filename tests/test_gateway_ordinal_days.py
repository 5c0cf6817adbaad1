"""toolkit.gateway.ordinal_days: a weekday counted within a month ("the first Monday of March", 下个月第一个周一)."""

from datetime import date

import pytest
from test_gateway_generic_asks import S, fn, turn

from toolkit.gateway.ordinal_days import ordinal_days

TODAY = date(2026, 12, 1)  # the gateway's fixed today, a Tuesday
EVENT = fn("create_event", "Create a calendar event", {"title": S, "date": {"type": "string", "format": "date"}})


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("the first Monday of March", "2027-03-01"),
        ("the last Friday of January", "2027-01-29"),
        ("the 2nd Tuesday of next month", "2027-01-12"),
        ("the first Tuesday of december", "2026-12-01"),
        ("the first Monday of December 2027", "2027-12-06"),
        ("the last Monday in May", "2027-05-31"),
        ("the third Sunday of this month", "2026-12-20"),
        ("the fifth Monday of February", None),
        ("下个月第一个周一", "2027-01-04"),
        ("三月的第二个星期五", "2027-03-12"),
        ("本月最后一个周五", "2026-12-25"),
        ("2027年5月第1个礼拜天", "2027-05-02"),
    ],
)
def test_ordinal_days(text, day):
    [(start, end, found)] = ordinal_days(text, TODAY)
    assert found == day
    assert text[end:] == ""  # the whole phrase is read, so its weekday alone is not read again


@pytest.mark.parametrize("text", ["the first time", "last Monday", "Monday of next week", "第一个问题", "next month"])
def test_no_ordinal_day(text):
    assert ordinal_days(text, TODAY) == []


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("add an event called Standup on the first Monday of March", "2027-03-01"),
        ("add an event called Dentist on the last Friday of January", "2027-01-29"),
    ],
)
def test_a_weekday_counted_within_a_month_is_that_day(text, day):
    """ "the first Monday of March" was read as the weekday alone: 2026-12-07, the next Monday."""
    assert turn(text, [EVENT])[0] == [
        ("create_event", {"title": text.split("called ")[1].split(" on")[0], "date": day})
    ]


def test_a_counted_weekday_the_month_lacks_is_asked_for():
    assert turn("add an event on the fifth Monday of February", [EVENT]) == (
        [],
        'What should I use for "date"? Your message does not say.',
    )
