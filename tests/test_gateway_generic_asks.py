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


@pytest.mark.parametrize("text", ["time in Paris and in Lhasa", "time in Paris and Springfield"])
def test_a_listed_city_with_no_zone_is_asked_about_not_dropped(text):
    """ "time in Paris and in Beijing" called get_current_time for Paris alone: a city no zone is known of was
    dropped without a word. A model asks for the zone it cannot tell."""
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


UNITS_ENUM = {"type": "string", "enum": ["m", "km", "mile", "ft"]}
LENGTH = fn(
    "convert_length",
    "Convert a length between units",
    {"value": {"type": "number"}, "from_unit": UNITS_ENUM, "to_unit": UNITS_ENUM},
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what is a mile?", None),
        ("convert 5 km", None),
        ("一英里是多少 mile", None),
        ("convert 5 km to mile", {"value": 5, "from_unit": "km", "to_unit": "mile"}),
        ("convert 1 mile to ft", {"value": 1, "from_unit": "mile", "to_unit": "ft"}),
        # the unit each field is named for, wherever the text names it: "how many km is a mile?" asked for the
        # from-unit, and "convert 3 miles to km" converted km to km (miles is no value, mile is)
        ("how many km is a mile?", {"value": 1, "from_unit": "mile", "to_unit": "km"}),
        ("how many ft are in 2 km of length?", {"value": 2, "from_unit": "km", "to_unit": "ft"}),
        ("convert 3 miles to km", {"value": 3, "from_unit": "mile", "to_unit": "km"}),
        # feet is no value of the enum, but ft's name ([generic.units]): read as ft (was asked for, not a mile to a mile)
        ("how many feet in a mile", {"value": 1, "from_unit": "mile", "to_unit": "ft"}),
    ],
)
def test_one_enum_value_named_for_two_fields_of_that_enum_asks_for_the_second(text, expected):
    """ "what is a mile?" called convert_length(1, mile, mile): the one unit the text names went to both fields
    of the same choice, a conversion of a mile to itself. A model asks what to convert it to, as it asks for
    the other currency; two units named are converted as before."""
    calls, content = turn(text, [LENGTH])
    if expected is None:
        assert calls == [] and "to unit" in content
    else:
        assert calls == [("convert_length", expected)]


TRANSLATE_ENUM = fn(
    "translate_text",
    "Translate text into a language",
    {"text": S, "target_language": {"type": "string", "enum": ["en", "fr", "de", "zh", "ja"]}},
)


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("translate 'good morning' to Italian", '"target language" can only be one of: en, fr, de, zh, ja.'),
        ("翻译成意大利语：你好", "“target language”只能选：en, fr, de, zh, ja。"),
    ],
)
def test_a_language_the_enum_does_not_offer_is_asked_about_not_replaced_by_the_first(text, asked):
    """ "translate 'good morning' to Italian" to a tool of [en, fr, de, zh, ja] was translated into English (the
    enum's first value): a model says which languages the tool offers instead."""
    calls, content = turn(text, [TRANSLATE_ENUM])
    assert calls == [] and content.startswith(asked)


@pytest.mark.parametrize(
    ("text", "target"),
    [("translate good morning into French", "fr"), ("Translate this Italian menu into German", "de"),
     ("翻译成英文：你好", "en")],
)  # fmt: skip
def test_a_language_the_enum_offers_or_none_named_is_called_as_before(text, target):
    calls = turn(text, [TRANSLATE_ENUM])[0]
    assert [(n, a["target_language"]) for n, a in calls] == [("translate_text", target)]


TABLE = fn(
    "book_table",
    "Book a restaurant table",
    {"restaurant": S, "people": {"type": "integer"}, "time": {"type": "string", "description": "HH:MM"}},
)


@pytest.mark.parametrize(
    ("text", "restaurant"),
    [
        ("book a table for 4 at 19:30 at Nopa", "Nopa"),
        ("Book a table at Chez Marcel for 2 at 20:00", "Chez Marcel"),
        ("reserve a table at The Ivy for 2 at 20:00", "The Ivy"),
        ("book a table for 2 at 20:00 at Nopa and Zuni", "Nopa"),
        ("book a table for 4 at 19:30", None),
    ],
)
def test_a_restaurant_field_takes_the_name_after_at_or_is_asked_for(text, restaurant):
    """ "Book a table for 4 at 19:30 at Nopa" called book_table(restaurant="Book a table for 4 at 19:30 at Nopa"):
    a restaurant's name is the capitalised words after "at" (`[[generic.phrases]]`), never the user's whole words;
    none written, a model asks which restaurant."""
    calls, content = turn(text, [TABLE])
    if restaurant is None:
        assert calls == [] and '"restaurant"' in content
    else:
        assert [a["restaurant"] for _, a in calls] == [restaurant]


# --- a field named for a part of the text takes that part, or is asked for -------------------

TAXI = fn("book_taxi", "Book a taxi ride", {"pickup": S, "destination": S})
UNITS = fn(
    "convert_units",
    "Convert a value between units of measurement",
    {"value": {"type": "number"}, "from_unit": S, "to_unit": S},
)
MAIL = fn("send_email", "Send an email", {"to": S, "subject": S, "body": S})


@pytest.mark.parametrize(
    ("text", "tool", "expected"),
    [
        ("book a taxi from the hotel to the airport", TAXI, {"pickup": "the hotel", "destination": "the airport"}),
        (
            "I need a taxi from Union Station to the Hilton at 5pm",
            TAXI,
            {"pickup": "Union Station", "destination": "the Hilton"},
        ),
        ("I want to go from home to the airport, book a taxi", TAXI, {"pickup": "home", "destination": "the airport"}),
        ("帮我叫一辆出租车，从酒店到机场", TAXI, {"pickup": "酒店", "destination": "机场"}),
        ("convert 5 miles to km", UNITS, {"value": 5, "from_unit": "miles", "to_unit": "km"}),
        ("convert 30 celsius into fahrenheit", UNITS, {"value": 30, "from_unit": "celsius", "to_unit": "fahrenheit"}),
        (
            "email bob@example.com about the budget review",
            MAIL,
            {
                "to": "bob@example.com",
                "subject": "the budget review",
                "body": "email bob@example.com about the budget review",
            },
        ),
    ],
)
def test_a_field_named_for_a_part_of_the_text_takes_that_part(text, tool, expected):
    """A taxi's pickup and destination, a unit converter's units and an email's recipient each took the
    user's whole words: each field now takes the part of the text its name points at (`[[generic.phrases]]`)."""
    assert turn(text, [tool])[0] == [(tool["function"]["name"], expected)]


@pytest.mark.parametrize(
    ("text", "tool", "asked"),
    [
        ("book a taxi to the airport", TAXI, 'What should I use for "pickup"?'),
        ("convert 5 miles", UNITS, 'What should I use for "to unit"?'),
        ("帮我叫一辆出租车去机场", TAXI, "pickup"),
    ],
)
def test_a_field_named_for_a_part_the_text_lacks_is_asked_for(text, tool, asked):
    """ "book a taxi to the airport" was book_taxi(pickup="book a taxi to the airport", ...): the question
    as the pickup. A model asks where to pick the user up."""
    calls, content = turn(text, [tool])
    assert calls == [] and asked in content


FLIGHTS = fn("search_flights", "Search flights between two cities", {"origin": S, "destination": S})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("flights from Paris to Tokyo", {"origin": "Paris", "destination": "Tokyo"}),
        ("flights to Tokyo from London", {"origin": "London", "destination": "Tokyo"}),
        ("从北京到上海的机票", {"origin": "北京", "destination": "上海"}),
    ],
)
def test_an_origin_and_a_destination_take_the_places_after_from_and_to(text, expected):
    """ "flights to Tokyo from London" flew from Tokyo to London: the k-th place went to the k-th field,
    whatever the words before them said."""
    assert turn(text, [FLIGHTS])[0] == [("search_flights", expected)]


def test_a_destination_alone_does_not_become_the_origin_too():
    """ "book a flight to Tokyo" was search_flights(origin=Tokyo, destination=Tokyo)."""
    calls, content = turn("book a flight to Tokyo", [FLIGHTS])
    assert calls == [] and 'What should I use for "origin"?' in content


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("I'm not in Paris, I'm in Rome, what's the weather?", "Rome"),
        ("what's the weather not in Paris but in Lyon", "Lyon"),
    ],
)
def test_a_place_the_user_says_they_are_not_in_is_not_the_place_asked_about(text, city):
    """ "I'm not in Paris, I'm in Rome, what's the weather?" called get_weather(city=Paris)."""
    assert turn(text, [WEATHER])[0] == [("get_weather", {"city": city})]


TRACK = fn("track_package", "Track a parcel by its tracking number", {"tracking_number": S})
TRANSLATE = fn("translate_text", "Translate text into another language", {"text": S, "target_language": S})


@pytest.mark.parametrize(
    ("text", "tools", "expected"),
    [
        ("track my parcel 1Z999AA10123456784", [TRACK], ("track_package", {"tracking_number": "1Z999AA10123456784"})),
        (
            "convert 5 miles to km",
            [CONVERT, UNITS],
            ("convert_units", {"value": 5, "from_unit": "miles", "to_unit": "km"}),
        ),
        (
            "把5公里换算成英里",
            [CONVERT, UNITS],
            ("convert_units", {"value": 5, "from_unit": "公里", "to_unit": "英里"}),
        ),
        ("从酒店打车去机场", [TAXI], ("book_taxi", {"pickup": "酒店", "destination": "机场"})),
        (
            "convert 5 dollars to euros",
            [UNITS, CONVERT],
            ("convert_currency", {"amount": 5, "from_currency": "USD", "to_currency": "EUR"}),
        ),
        (
            "send an email to Tom saying hello",
            [MAIL],
            (
                "send_email",
                {
                    "to": "Tom",
                    "subject": "send an email to Tom saying hello",
                    "body": "hello",
                },
            ),
        ),
        (
            "翻译成英文：你好世界",
            [TRANSLATE],
            ("translate_text", {"text": "翻译成英文：你好世界", "target_language": "英文"}),
        ),
        (
            "news about Apple",
            [fn("get_news", "Get news headlines about a topic", {"topic": S})],
            ("get_news", {"topic": "Apple"}),
        ),
        (
            "Paris Hilton news",
            [fn("get_news", "Get news headlines about a topic", {"topic": S})],
            ("get_news", {"topic": "Paris Hilton news"}),
        ),
    ],
)
def test_strangers_tools_take_the_part_of_the_question_their_fields_name(text, tools, expected):
    """A tracking number, a unit converter picked over a currency one by its units' names (both are found by
    "convert"), a recipient before "saying", a target language in Chinese, and a topic: each was the whole
    question (or the other converter). A topic the text does not write after "about" is the question: no
    model asks what the news should be about."""
    assert turn(text, tools)[0] == [expected]


def test_a_tracking_number_the_text_lacks_is_asked_for():
    calls, content = turn("track my parcel", [TRACK])
    assert calls == [] and 'What should I use for "tracking number"?' in content


def test_a_question_without_a_place_after_a_call_for_one_asks_about_that_place():
    """ "Will it be hot tomorrow?" right after the weather in Paris is about Paris (was the question as the
    city); with no call before, the place is asked for (above)."""
    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
    messages = [
        {"role": "user", "content": "What's the weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "Paris: 18°C, sunny"},
        {"role": "assistant", "content": "It is 18°C and sunny in Paris."},
        {"role": "user", "content": "Will it be hot tomorrow?"},
    ]
    reply = respond({"model": "m", "messages": messages, "tools": [WEATHER, TIME]}, GatewayConfig())
    calls = reply.body["choices"][0]["message"]["tool_calls"]
    assert [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls] == [
        ("get_weather", {"city": "Paris"})
    ]


# --- a tool the text names ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("use get_weather please", "Which city"),
        ("call get_weather", "Which city"),
        ("用 get_weather 查一下", "哪个城市"),
        ("use get_weather for Paris", [("get_weather", {"city": "Paris"})]),
        ('get_weather {"city": "Oslo"}', [("get_weather", {"city": "Oslo"})]),
    ],
)
def test_a_tool_named_in_the_text_asks_what_a_picked_one_would(text, expected):
    """ "use get_weather please" called get_weather(city="use get_weather please"): a tool named in the text
    skipped the question a missing city deserves when the tool is picked by its words; it asks the same now,
    and a JSON object after the name is still the user's own arguments."""
    calls, content = turn(text, [WEATHER])
    if isinstance(expected, str):
        assert calls == [] and expected in content
    else:
        assert calls == expected


def test_a_named_tool_takes_what_it_lacks_from_the_turn_before():
    called = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
    messages = [
        {"role": "user", "content": "weather in Paris"},
        {"role": "assistant", "content": None, "tool_calls": [called]},
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
        {"role": "assistant", "content": "Sunny."},
        {"role": "user", "content": "use get_weather again"},
    ]
    reply = respond({"model": "m", "messages": messages, "tools": [WEATHER]}, GatewayConfig())
    calls = reply.body["choices"][0]["message"]["tool_calls"]
    assert [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls] == [
        ("get_weather", {"city": "Paris"})
    ]


# --- a place a clause ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tools", "expected"),
    [
        (
            "is it sunny in Madrid and windy in Lisbon?",
            [WEATHER],
            [("get_weather", {"city": c}) for c in ("Madrid", "Lisbon")],
        ),
        (
            "how hot is it in Rome, and is it raining in Oslo?",
            [WEATHER, ZONED],
            [("get_weather", {"city": c}) for c in ("Rome", "Oslo")],
        ),
        # the second clause names a place but asks for no weather: one call
        ("the weather in Paris and the time in Tokyo", [WEATHER], [("get_weather", {"city": "Paris"})]),
        ("weather in Paris and flights to London", [WEATHER], [("get_weather", {"city": "Paris"})]),
        ("is it sunny in Madrid and is it sunny in Madrid?", [WEATHER], [("get_weather", {"city": "Madrid"})]),
    ],
)
def test_each_clause_naming_its_own_place_is_a_call(text, tools, expected):
    """ "is it sunny in Madrid and windy in Lisbon?" called get_weather for Madrid alone: two clauses, each a
    question of the same tool with its own place, are two calls, as two clauses of two values each were."""
    assert turn(text, tools)[0] == expected
