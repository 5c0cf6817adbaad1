"""The embedded gateway on strangers' questions (round 7): lists of places, and what it asks for
instead of inventing an argument.

A field that asks for a fact (a place, a currency, a timezone) the question does not give was filled with
the user's whole words ("Will it be hot tomorrow?" as a city), or with the one value the text gives twice
(USD to USD); a model asks instead. A list of places written in lower case, or asked of two tools, is one
call per place and tool, as the capitalised list of one tool is.
"""

import json

import pytest

from toolkit.gateway.core import GatewayConfig, respond


def fn(name, description, properties, required=None):
    schema = {
        "type": "object",
        "properties": properties,
        "required": list(properties if required is None else required),
    }
    return {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}


S = {"type": "string"}
WEATHER = fn("get_weather", "Get the current weather for a city", {"city": S})
TIME = fn("get_time", "Get the local time in a city", {"city": S})
ZONED = fn(
    "get_current_time",
    "Get current time in a specific timezones",
    {"timezone": {"type": "string", "description": "IANA timezone name (e.g., 'America/New_York')"}},
)
CONVERT = fn(
    "convert_currency",
    "Convert an amount of money from one currency to another",
    {"amount": {"type": "number"}, "from_currency": S, "to_currency": S},
)


def turn(text, tools):
    """(calls as (name, arguments), the text reply) of one user message."""
    reply = respond({"model": "m", "messages": [{"role": "user", "content": text}], "tools": tools}, GatewayConfig())
    assert reply.status == 200, reply.body
    message = reply.body["choices"][0]["message"]
    calls = [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message.get("tool_calls") or ()]
    return calls, message.get("content")


# --- lists of places ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "places"),
    [
        ("weather in paris and rome", ["paris", "rome"]),
        ("weather in paris, rome and berlin?", ["paris", "rome", "berlin"]),
        ("what's the weather in new york and los angeles today", ["new york", "los angeles"]),
        ("weather in paris", ["paris"]),
        ("weather in Paris and Rome", ["Paris", "Rome"]),
    ],
)
def test_a_list_of_places_in_lower_case_is_one_call_per_place(text, places):
    """ "weather in paris and rome" called get_weather(city="weather in paris and rome"): a lower-case place
    was read only when it ended the question, so a list of them was no place at all."""
    assert turn(text, [WEATHER])[0] == [("get_weather", {"city": p}) for p in places]


def test_a_lower_case_list_of_zoned_cities_is_one_call_per_zone_not_the_descriptions_example():
    """ "time in tokyo and london" called get_current_time(timezone="America/New_York"): the description's
    example, another city's time."""
    calls = turn("time in tokyo and london", [ZONED])[0]
    assert calls == [
        ("get_current_time", {"timezone": "Asia/Tokyo"}),
        ("get_current_time", {"timezone": "Europe/London"}),
    ]


@pytest.mark.parametrize("text", ["weather and time in Paris and Rome", "weather and time in paris and rome"])
def test_two_tools_asked_of_a_list_of_places_are_each_called_for_every_place(text):
    """ "weather and time in Paris and Rome" called each tool for Paris only: the clauses' calls never
    read the list."""
    calls = turn(text, [WEATHER, TIME])[0]
    first = "Paris" if "Paris" in text else "paris"
    second = "Rome" if "Rome" in text else "rome"
    assert sorted(calls, key=lambda c: (c[0], c[1]["city"] != first)) == [
        ("get_time", {"city": first}),
        ("get_time", {"city": second}),
        ("get_weather", {"city": first}),
        ("get_weather", {"city": second}),
    ]


def test_two_tools_each_with_its_own_place_keep_their_own_place():
    calls = turn("the weather in Paris and the time in Tokyo", [WEATHER, TIME])[0]
    assert calls == [("get_weather", {"city": "Paris"}), ("get_time", {"city": "Tokyo"})]


@pytest.mark.parametrize("text", ["time in Paris and in Beijing", "time in Paris and Beijing"])
def test_a_listed_city_with_no_zone_is_asked_about_not_dropped(text):
    """ "time in Paris and in Beijing" called get_current_time for Paris alone: Beijing, which the tz
    database does not name, was dropped without a word. A model asks for the zone it cannot tell."""
    calls, content = turn(text, [ZONED])
    assert calls == [] and "IANA time zone" in content


# --- what the question does not give is asked for --------------------------------------------


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("Will it be hot tomorrow?", "Which city"),
        ("Is it raining?", "Which city"),
        ("明天会下雨吗？", "哪个城市"),
        ("天气怎么样", "哪个城市"),
    ],
)
def test_a_weather_question_without_a_place_asks_which_place(text, asked):
    """ "Will it be hot tomorrow?" called get_weather(city="Will it be hot tomorrow?"): the question was
    sent as the city."""
    calls, content = turn(text, [WEATHER])
    assert calls == [] and asked in content


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("Will it be hot in Cairo tomorrow?", "Cairo"),
        ("北京明天会下雨吗？", "北京"),
        ("weather in oslo?", "oslo"),
        ("我现在在上海，明天会下雨吗", "上海"),
    ],
)
def test_a_weather_question_with_its_place_is_called_as_before(text, city):
    assert turn(text, [WEATHER])[0] == [("get_weather", {"city": city})]


def test_a_place_field_with_a_default_takes_the_default_without_asking():
    tool = fn("get_weather", "Get the weather", {"city": {"type": "string", "default": "London"}})
    assert turn("Is it raining?", [tool])[0] == [("get_weather", {"city": "London"})]


@pytest.mark.parametrize(
    ("text", "asked"), [("the CEO's salary in USD", "Which currency"), ("把100美元换一下", "哪种货币")]
)
def test_one_currency_named_for_two_currency_fields_asks_for_the_other(text, asked):
    """ "the CEO's salary in USD" called convert_currency(from USD to USD): the one currency the text names
    went to both fields."""
    calls, content = turn(text, [CONVERT])
    assert calls == [] and asked in content


@pytest.mark.parametrize(
    ("text", "source", "target"),
    [
        ("convert 100 USD to EUR", "USD", "EUR"),
        ("how many euros is 50 pounds", "GBP", "EUR"),
        ("100美元换成人民币", "USD", "CNY"),
    ],
)
def test_two_currencies_named_are_converted_as_before(text, source, target):
    calls = turn(text, [CONVERT])[0]
    assert [(n, a["from_currency"], a["to_currency"]) for n, a in calls] == [("convert_currency", source, target)]
