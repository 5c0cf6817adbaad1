"""toolkit.gateway.yearless: a day written without its year ("Dec 20", 12月20号, 23号 after it)."""

from datetime import date

import pytest
from test_gateway_generic_asks import S, fn, turn

from toolkit.gateway.yearless import yearless_days

TODAY = date(2026, 12, 1)  # the gateway's fixed today
HOTELS = fn(
    "search_hotels",
    "Search hotels in a city",
    {"city": S, "check_in": {"type": "string", "format": "date"}, "check_out": {"type": "string", "format": "date"}},
)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("Dec 20", ["2026-12-20"]),
        ("from dec 20 to dec 23", ["2026-12-20", "2026-12-23"]),
        ("December 20th", ["2026-12-20"]),
        ("20 Dec", ["2026-12-20"]),
        ("the 20th of December", ["2026-12-20"]),
        ("March 3", ["2027-03-03"]),
        ("Sept. 9", ["2027-09-09"]),
        ("February 30", [None]),
        ("12月20号入住，23号退房", ["2026-12-20", "2026-12-23"]),
        ("3月3日到3月5日", ["2027-03-03", "2027-03-05"]),
        ("25号之前", ["2026-12-25"]),
        ("12月21号到24号请年假", ["2026-12-21", "2026-12-24"]),
        ("Dec 20, 2026", []),
        ("2026年12月20日", []),
        ("坐3号线", []),
        ("5号楼", []),
        ("3日游", []),
        ("May I book it at 20:30", []),
        ("decide on 3 options", []),
    ],
)
def test_yearless_days(text, days):
    dated = [(0, len(text))] if text in ("Dec 20, 2026", "2026年12月20日") else []
    assert [day for _, _, day in yearless_days(text, TODAY, dated)] == days


@pytest.mark.parametrize(
    "text",
    [
        "hotels in Lisbon from Dec 20 to Dec 23",
        "hotels in Lisbon from December 20 to December 23",
        "hotels in Lisbon from 20 Dec to 23 Dec",
        "hotels in Lisbon from the 20th of December to the 23rd of December",
    ],
)
def test_a_day_without_its_year_is_its_next_one(text):
    """ "hotels in Lisbon from December 20 to December 23" asked which day to check in: only a day written with its
    year was read."""
    assert turn(text, [HOTELS])[0] == [
        ("search_hotels", {"city": "Lisbon", "check_in": "2026-12-20", "check_out": "2026-12-23"})
    ]
