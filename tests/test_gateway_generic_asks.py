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
