"""The embedded gateway on strangers' queries (round 12): a required `date-time` of a day with no time asked for,
not set at midnight; a required timezone never said asked for, unless the description states a default.
"""

import pytest
from test_gateway_generic_asks import S, fn, turn

WHEN = {"type": "string", "format": "date-time"}
REMIND = fn("set_reminder", "Set a reminder", {"text": S, "when": WHEN}, ["when"])


# --- a day with no time is no midnight ------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["remind me tomorrow to call mom", "明天提醒我给妈妈打电话", "remind me on 2026-12-24"]
)
def test_a_required_date_time_of_a_day_without_a_time_is_asked_for(text):
    """ "remind me tomorrow" set the reminder at 2026-12-02T00:00:00Z: a midnight the user never said. Asked for."""
    calls, said = turn(text, [REMIND])
    assert calls == []
    assert "when" in said


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("remind me tomorrow at midnight", "2026-12-02T00:00:00Z"),
        ("remind me tomorrow at 0:00", "2026-12-02T00:00:00Z"),
        ("明天午夜提醒我", "2026-12-02T00:00:00Z"),
        ("remind me at noon tomorrow", "2026-12-02T12:00:00Z"),
        ("remind me on 2026-12-24 at 9am", "2026-12-24T09:00:00Z"),
    ],
)
def test_a_day_and_a_time_written_are_called_midnight_too(text, when):
    assert turn(text, [REMIND])[0] == [("set_reminder", {"when": when})]


@pytest.mark.parametrize(
    "when",
    [
        {**WHEN, "default": "2026-12-01T09:00:00Z"},
        {**WHEN, "description": "When to fire; defaults to '00:00' of the day given"},
        {**WHEN, "description": "默认为“当天零点”"},
    ],
)
def test_a_date_time_whose_schema_has_or_states_a_default_is_called(when):
    tool = fn("set_reminder", "Set a reminder", {"when": when})
    [(name, arguments)] = turn("remind me tomorrow", [tool])[0]
    assert name == "set_reminder" and arguments["when"].startswith("2026-12-0")


def test_an_optional_date_time_the_user_gives_a_day_for_keeps_its_day():
    """Not asked: the field is the tool's to leave out, and the day is the user's."""
    policy = fn("list_events", "List calendar events", {"category": S, "asOf": WHEN}, ["category"])
    [(_, arguments)] = turn("list work events as of 2026-11-01", [policy])[0]
    assert arguments.get("asOf", "2026-11-01T00:00:00Z") == "2026-11-01T00:00:00Z"


# --- a timezone never said -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "zone",
    [
        {"type": "string", "description": "IANA timezone name (e.g., 'America/New_York')"},
        {"type": "string", "description": "IANA zone", "examples": ["Asia/Shanghai"]},
        {"type": "string", "description": "e.g. 'Asia/Shanghai'; use 'Asia/Shanghai' format"},
    ],
)
@pytest.mark.parametrize("text", ["what time is it?", "现在几点？"])
def test_a_timezone_never_said_is_asked_for_not_taken_from_an_example(zone, text):
    """ "what time is it?" took the description's example (New York, Shanghai): a place the user never named."""
    calls, said = turn(text, [fn("get_time", "Get the current time", {"timezone": zone})])
    assert calls == [] and "timezone" in said


@pytest.mark.parametrize(
    ("description", "zone"),
    [
        ("IANA timezone (e.g., 'America/New_York'). Use 'UTC' as local timezone if no timezone provided.", "UTC"),
        ("Timezone, e.g. 'Asia/Tokyo'. Defaults to 'Europe/Paris'.", "Europe/Paris"),
        ("时区，例如“Asia/Tokyo”，默认为“Asia/Shanghai”", "Asia/Shanghai"),
    ],
)
def test_a_timezone_never_said_takes_the_default_the_description_states(description, zone):
    tool = fn("get_time", "Get the current time", {"timezone": {"type": "string", "description": description}})
    assert turn("what time is it?", [tool])[0] == [("get_time", {"timezone": zone})]
    assert turn("what time is it in Tokyo?", [tool])[0] == [("get_time", {"timezone": "Asia/Tokyo"})]


def test_a_default_a_description_states_never_outweighs_the_users_words():
    """A search's `query` "Defaults to 'latest news'" is still what the user asks for."""
    tool = fn("search_web", "Search the web", {"query": {"type": "string", "description": "Defaults to 'latest news'"}})
    assert turn("search the web for cute cats", [tool])[0] == [
        ("search_web", {"query": "search the web for cute cats"})
    ]


# --- a stock ticker -----------------------------------------------------------------------------------

PRICE = fn("get_stock_price", "Get the latest stock price", {"symbol": {"type": "string", "description": "Ticker"}})
QUOTE = fn("quote", "Get a quote", {"ticker": S})


@pytest.mark.parametrize(
    ("text", "symbol"),
    [
        ("AAPL price", "AAPL"),
        ("what is TSLA trading at?", "TSLA"),
        ("price of $NVDA in USD", "NVDA"),  # a currency's code is no ticker
        ("BRK.B stock price", "BRK.B"),
        ("price of Apple stock", "AAPL"),
        ("腾讯股价", "0700.HK"),
        ("特斯拉的股价是多少", "TSLA"),
    ],
)
def test_a_ticker_written_or_a_company_named_is_the_symbol(text, symbol):
    """ "AAPL price" called `symbol` "AAPL price" (the user's whole words), "what is TSLA trading at" and "腾讯股价"
    called nothing: a ticker is read for a field named or described for one, and the words pick the stock tool."""
    assert turn(text, [PRICE])[0] == [("get_stock_price", {"symbol": symbol})]


@pytest.mark.parametrize("text", ["what is the price of gold", "what is the CEO's price in USD?"])
def test_a_price_of_no_ticker_asks_for_the_symbol(text):
    calls, said = turn(text, [PRICE])
    assert calls == [] and "symbol" in said


def test_a_quote_tool_is_found_by_price_and_trading():
    assert turn("AAPL price", [QUOTE])[0] == [("quote", {"ticker": "AAPL"})]
    assert turn("what is MSFT trading at?", [QUOTE])[0] == [("quote", {"ticker": "MSFT"})]


def test_a_symbol_of_no_stock_is_not_read_as_a_ticker():
    """A `symbol` the description says is a currency's keeps the currency's code."""
    fx = fn("get_rate", "Get an exchange rate", {"symbol": {"type": "string", "description": "ISO 4217 currency"}})
    assert turn("exchange rate of euros", [fx])[0] == [("get_rate", {"symbol": "EUR"})]


# --- a sum, for a calculator ------------------------------------------------------------------------

N = {"type": "number"}
CALC = fn("calculate", "Evaluate a math expression", {"expression": S})
ABOP = fn(
    "calc",
    "Do arithmetic on two numbers",
    {"a": N, "b": N, "op": {"type": "string", "enum": ["add", "sub", "mul", "div"]}},
)
UNITS = fn("convert_units", "Convert a value between units", {"value": N, "from_unit": S, "to_unit": S})
BOOK = fn("book_table", "Book a restaurant table", {"restaurant": S, "people": {"type": "integer"}})


@pytest.mark.parametrize(
    ("text", "expression", "a", "b", "op"),
    [
        ("what is 15% of 80", "0.15 * 80", 0.15, 80, "mul"),
        ("80 的 15%", "0.15 * 80", 0.15, 80, "mul"),
        ("how much is 12 times 7?", "12 * 7", 12, 7, "mul"),
        ("12 divided by 4", "12 / 4", 12, 4, "div"),
        ("计算 3 加 5", "3 + 5", 3, 5, "add"),
        ("what is 10 - 4", "10 - 4", 10, 4, "sub"),
    ],
)
def test_a_sum_is_called_on_a_calculator(text, expression, a, b, op):
    """ "what is 15% of 80" and "80 的 15%" called nothing on a calculator (no word of the text names one): a sum
    picks it, an `expression` is the sum in symbols, two numbers and an operation's enum take its parts."""
    assert turn(text, [CALC])[0] == [("calculate", {"expression": expression})]
    assert turn(text, [ABOP])[0] == [("calc", {"a": a, "b": b, "op": op})]


def test_an_operation_enum_of_symbols_takes_the_symbol():
    tool = fn("calc", "Arithmetic", {"x": N, "y": N, "operator": {"type": "string", "enum": ["+", "-", "*", "/"]}})
    assert turn("what is 7 times 6", [tool])[0] == [("calc", {"x": 7, "y": 6, "operator": "*"})]


@pytest.mark.parametrize(
    ("text", "called"),
    [
        ("1/2 cup of flour in grams", "convert_units"),  # the words find a tool: the sum never outweighs them
        ("Book a table for 4 at Nopa", "book_table"),
        ("2026-12-04 and 12/03/2026", None),  # dates are no sums
        ("call me at 555-1234", None),
    ],
)
def test_a_sum_never_outweighs_the_words(text, called):
    calls = turn(text, [CALC, UNITS, BOOK])[0]
    assert [name for name, _ in calls][:1] == ([called] if called else [])
