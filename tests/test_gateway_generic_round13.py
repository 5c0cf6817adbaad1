"""The embedded gateway on strangers' queries (round 13): a sum in a statement about oneself computes nothing."""

import pytest
from test_gateway_generic_asks import S, fn, turn

CALC = fn("calculate", "Evaluate a math expression", {"expression": S})


# --- a statement about oneself is no sum to compute -----------------------------------------------


@pytest.mark.parametrize("text", ["I have 2 + 2 kids", "we were 3 + 4 at dinner", "我有 2 加 2 个孩子"])
def test_a_sum_in_a_statement_about_oneself_calls_no_calculator(text):
    """ "I have 2 + 2 kids" called calculate(expression="2 + 2"): the text without its sum is a statement
    (`[generic] statement`, which a number kept from matching), and a statement asks nothing."""
    assert turn(text, [CALC])[0] == []


@pytest.mark.parametrize(
    ("text", "expression"),
    [("I wonder what 2 + 2 is", "2 + 2"), ("I need 15% of 80", "0.15 * 80"), ("2 + 2 kids", "2 + 2")],
)
def test_a_sum_asked_about_oneself_is_still_computed(text, expression):
    assert turn(text, [CALC])[0] == [("calculate", {"expression": expression})]


# --- a number with % after it is a percentage's --------------------------------------------------

N = {"type": "number"}
TIP = fn("calculate_tip", "Calculate a tip", {"bill": N, "percent": N})
DISCOUNT = fn("apply_discount", "Apply a discount", {"price": N, "discount_pct": N})


@pytest.mark.parametrize(
    ("text", "tool", "arguments"),
    [
        ("tip on 80 dollars at 15%", TIP, {"bill": 80, "percent": 15}),
        ("15% tip on a bill of 80", TIP, {"bill": 80, "percent": 15}),
        ("a 15 percent tip on 80", TIP, {"bill": 80, "percent": 15}),
        ("tip 20 ％ on 45.50", TIP, {"bill": 45.5, "percent": 20}),
        ("apply a 20% discount to 150", DISCOUNT, {"price": 150, "discount_pct": 20}),
    ],
)
def test_a_number_with_a_percent_sign_goes_to_the_percentage(text, tool, arguments):
    """ "tip on 80 dollars at 15%" called calculate_tip(bill=80, percent=80): every number field took the text's
    first number. A number with %, "percent" or 百分之 is the `percent` fact: a field asking for one (`percent`,
    `pct` in its name) takes it, another takes it last."""
    name = tool["function"]["name"]
    assert turn(text, [tool])[0] == [(name, arguments)]


# --- a market's base and quote are a pair's two currencies ------------------------------------------

PAIR = fn("get_exchange_rate", "Get the exchange rate between two currencies", {"base": S, "quote": S})
PAIR_WORDED = fn("fx_rate", "Get the exchange rate between two currencies", {"baseAsset": S, "quote_asset": S})


@pytest.mark.parametrize("tool", [PAIR, PAIR_WORDED])
@pytest.mark.parametrize("text", ["EUR/USD rate", "what's the EUR/USD exchange rate?", "欧元兑美元汇率"])
def test_a_currency_pair_is_read_as_its_base_and_quote(text, tool):
    """ "EUR/USD rate" called get_exchange_rate(base="EUR/USD rate", quote="EUR/USD rate"): neither name asks for
    a fact. Parameters that hold both a `base` and a `quote` word are a market's pair: each is a currency."""
    name, schema = tool["function"]["name"], tool["function"]["parameters"]
    base, quote = list(schema["properties"])
    assert turn(text, [tool])[0] == [(name, {base: "EUR", quote: "USD"})]


def test_a_base_without_a_quote_is_no_currency():
    pr = fn("create_pull_request", "Open a pull request", {"base": S, "head": S})
    assert turn("open a pull request from feature to main", [pr])[0] == [
        (
            "create_pull_request",
            {"base": "open a pull request from feature to main", "head": "open a pull request from feature to main"},
        )
    ]


# --- a ticker written picks a stock tool -------------------------------------------------------------

STOCK = fn("get_stock_price", "Get the latest price for a symbol", {"symbol": S})
WEATHER = fn("get_weather", "Get the weather for a city", {"city": S})


@pytest.mark.parametrize(
    ("text", "symbol"), [("What is NVDA at today", "NVDA"), ("$AMZN", "AMZN"), ("$PLTR now?", "PLTR")]
)
def test_a_ticker_written_picks_the_stock_tool(text, symbol):
    """ "What is NVDA at today" and "$AMZN" called nothing with a stock tool offered: no word of the text is in
    its name or description. A ticker with `$` or of `[generic.tickers]` searches `[generic] ticker_hints`."""
    assert turn(text, [WEATHER, STOCK])[0] == [("get_stock_price", {"symbol": symbol})]


@pytest.mark.parametrize("text", ["what is NASA", "is USD strong", "apple pie"])
def test_capitals_or_a_company_alone_pick_no_stock_tool(text):
    assert turn(text, [WEATHER, STOCK])[0] == []


def test_a_ticker_never_outweighs_the_words():
    assert [name for name, _ in turn("weather in Paris, and NVDA", [STOCK, WEATHER])[0]][:1] == ["get_weather"]


def test_a_term_inside_a_word_is_not_where_it_is_written():
    """The tie between tools is broken by where the text writes a term first, where a word starts: "prevent"
    holds no "event" written before "reminder"."""
    tools = [
        fn("list_events", "List calendar events", {"date": S}),
        fn("set_reminder", "Set a reminder", {"time": S, "message": S}),
    ]
    text = "prevent a reminder clash with the event tomorrow at 3pm"
    assert [n for n, _ in turn(text, tools)[0]] == ["set_reminder"]
