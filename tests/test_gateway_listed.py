"""toolkit.gateway.listed: an array asking for a list of facts takes every one the text writes."""

import pytest
from test_gateway_generic_asks import S, fn, turn

STRINGS = {"type": "array", "items": S}
QUOTES = fn("get_quotes", "Get stock quotes for several symbols", {"symbols": {**STRINGS, "description": "Tickers"}})
CLOSE = fn("close_tickets", "Close support tickets", {"ticket_ids": {"type": "array", "items": {"type": "integer"}}})
CLOCK = fn("world_clock", "Current time in several timezones", {"timezones": STRINGS})
WEATHER = fn("weather_multi", "Weather for several cities", {"cities": STRINGS})
RATES = fn("rates", "Exchange rates for currencies", {"currencies": STRINGS})


@pytest.mark.parametrize(
    ("text", "tool", "values"),
    [
        ("quotes for AAPL, MSFT and NVDA", QUOTES, ["AAPL", "MSFT", "NVDA"]),
        ("AAPL MSFT NVDA quotes", QUOTES, ["AAPL", "MSFT", "NVDA"]),
        ("compare apple and microsoft stock", QUOTES, ["AAPL", "MSFT"]),
        ("查一下 600519 和 000858 的股价", QUOTES, ["600519", "000858"]),
        ("close tickets 101, 102 and 107", CLOSE, [101, 102, 107]),
        ("关闭工单 5、6、7", CLOSE, [5, 6, 7]),
        ("close ticket 101", CLOSE, [101]),
        ("what time is it in Tokyo, London and New York", CLOCK, ["Asia/Tokyo", "Europe/London", "America/New_York"]),
        ("weather in Paris, Rome and Berlin", WEATHER, ["Paris", "Rome", "Berlin"]),
        ("上海、北京和广州的天气", WEATHER, ["上海", "北京", "广州"]),
        ("rates for EUR, GBP and JPY", RATES, ["EUR", "GBP", "JPY"]),
    ],
)
def test_a_list_of_facts_fills_an_array(text, tool, values):
    """ "quotes for AAPL, MSFT and NVDA" called get_quotes(symbols=["quotes", "aapl", "msft", "nvda"]) (the search
    terms) and "close tickets 101, 102 and 107" close_tickets(ticket_ids=[101]) (the first number only)."""
    [(name, arguments)] = turn(text, [tool])[0]
    assert list(arguments.values()) == [values]


def test_an_array_asking_for_no_fact_takes_the_words_as_before():
    tags = fn("tag_photo", "Tag a photo", {"tags": STRINGS})
    assert turn("tag photo beach sunset", [tags])[0] == [("tag_photo", {"tags": ["tag", "photo", "beach", "sunset"]})]
