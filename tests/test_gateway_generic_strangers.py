"""The embedded gateway on strangers' queries (round 10): days named relative to the gateway's fixed today,
what is asked for instead of a made-up day, address or uuid, the object a user names over a verb two tools
share, both currencies of a rate, units by their short codes, weather words, a name or a room as the phrase.
"""

import pytest
from test_gateway_generic_asks import S, fn, turn

from toolkit import data
from toolkit.errors import ConfigurationError
from toolkit.gateway.rules import load_rules

DAY = {"type": "string", "format": "date"}
UNITS = {"type": "string", "enum": ["m", "km", "mi", "ft", "kg", "lb"]}
FLIGHTS = fn(
    "find_flights", "Find flights from an origin to a destination", {"origin": S, "destination": S, "date": DAY}
)
MOVIES = fn("search_movies", "Search films by title or actor", {"query": S})
ROOM = fn("book_meeting_room", "Book a meeting room for a date", {"room": S, "date": DAY})
EVENT = fn("create_event", "Create a calendar event", {"title": S, "start": {"type": "string", "format": "date-time"}})
FORECAST = fn("get_forecast", "Get the weather forecast for a city on a date", {"city": S, "date": DAY})
INVITE = fn("send_invite", "Send a calendar invite by email", {"email": {"type": "string", "format": "email"}})
WEATHER = fn("get_weather", "Get the current weather for a city", {"city": S})
RATE = fn(
    "get_exchange_rate",
    "Get the exchange rate between two currencies",
    {
        "base": {"type": "string", "description": "ISO 4217 code"},
        "quote": {"type": "string", "description": "ISO 4217 code"},
    },
)
CODE = {"type": "string", "pattern": "^[A-Z]{3}$"}
CONVERT = fn(
    "convert", "Convert an amount between currencies", {"amount": {"type": "number"}, "from": CODE, "to": CODE}
)
CONVERT_UNITS = fn(
    "convert_units",
    "Convert a value between units of measurement",
    {"value": {"type": "number"}, "from_unit": UNITS, "to_unit": UNITS},
)
CONVERT_MONEY = fn(
    "convert_currency",
    "Convert money between currencies",
    {"amount": {"type": "number"}, "from_currency": S, "to_currency": S},
)
TRANSLATE = fn("translate_text", "Translate text into another language", {"text": S, "target_language": S})


# --- days ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("forecast for Paris tomorrow", "2026-12-02"),  # the gateway's today is 2026-12-01, a Tuesday
        ("forecast for Paris today", "2026-12-01"),
        ("forecast for Paris the day after tomorrow", "2026-12-03"),
        ("forecast for Paris on Friday", "2026-12-04"),  # the first Friday from today on
        ("forecast for Paris next Friday", "2026-12-11"),  # Friday of the week after this one
        ("forecast for Paris next Monday", "2026-12-07"),
        ("forecast for Paris on 2026-12-24", "2026-12-24"),  # a day written is read as before
        ("明天巴黎的天气预报", "2026-12-02"),
        ("下周一巴黎的天气预报", "2026-12-07"),
        ("后天巴黎的天气预报", "2026-12-03"),
    ],
)
def test_a_day_named_relative_to_today_is_read_against_the_gateways_fixed_today(text, day):
    """ "forecast for Paris tomorrow" called get_forecast(date="2026-01-01"): "tomorrow" was no date, and a date
    field took its format's made-up value. A day named relative to today is read against `[generic.relative_dates]
    today` (fixed: the same reply on any day, never the wall clock)."""
    calls, _ = turn(text, [FORECAST])
    assert [(name, arguments["date"]) for name, arguments in calls] == [("get_forecast", day)]


def test_a_date_time_takes_the_relative_day_and_the_time_written():
    calls, _ = turn("create an event called Standup tomorrow at 9:30", [EVENT])
    assert calls == [("create_event", {"title": "Standup", "start": "2026-12-02T09:30:00Z"})]


@pytest.mark.parametrize(
    ("text", "tools", "asked"),
    [
        ("forecast for Paris", [FORECAST], 'What should I use for "date"?'),
        ("Book the Orchid room for Alice", [ROOM], 'What should I use for "date"?'),
        ("create an event called Standup", [EVENT], 'What should I use for "start"?'),
        ("send an invite to Bob", [INVITE], 'What should I use for "email"?'),
        ("巴黎的天气预报", [FORECAST], "“date”应该填什么"),
    ],
)
def test_a_required_day_address_or_uuid_the_text_does_not_give_is_asked_for(text, tools, asked):
    """ "Book the Orchid room for Alice" booked it on 2026-01-01, "send an invite to Bob" sent it to
    user@example.com: values of the field's format made up. A model asks for them."""
    calls, said = turn(text, tools)
    assert calls == [] and asked in said


HOTEL = fn("book_hotel", "Book a hotel room in a city", {"city": S, "check_in": DAY, "check_out": DAY})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I need a hotel in Paris tomorrow", 'What should I use for "check out"?'),
        ("book a hotel in Rome from tomorrow to next Sunday", ("2026-12-02", "2026-12-13")),
        ("book a hotel in Paris from 2026-12-10 to 2026-12-12", ("2026-12-10", "2026-12-12")),
    ],
)
def test_one_day_named_for_two_day_fields_asks_for_the_second(text, expected):
    """ "I need a hotel in Paris tomorrow" called book_hotel(check_in=tomorrow, check_out=tomorrow): a stay of no
    night. The text's one day is the check-in; the check-out is asked for, as a second currency is."""
    calls, said = turn(text, [HOTEL])
    if isinstance(expected, str):
        assert calls == [] and expected in said
    else:
        assert [(a["check_in"], a["check_out"]) for _, a in calls] == [expected]


def test_a_day_the_schema_gives_a_default_or_an_example_of_is_not_asked_for():
    for day in ({**DAY, "default": "2026-12-24"}, {**DAY, "description": "the day, e.g. '2026-12-24'"}):
        forecast = fn("get_forecast", "Get the weather forecast for a city on a date", {"city": S, "date": day})
        assert turn("forecast for Paris", [forecast])[0] == [("get_forecast", {"city": "Paris", "date": "2026-12-24"})]


# --- the object over the verb ---------------------------------------------------------------------


@pytest.mark.parametrize("order", [1, -1])
@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("find movies with Tom Hanks", "search_movies"),
        ("find movies starring Meryl Streep", "search_movies"),
        ("find flights from Paris to Rome tomorrow", "find_flights"),
        ("search flights from Paris to Rome tomorrow", "find_flights"),
    ],
)
def test_the_object_a_user_names_outweighs_a_verb_two_tools_share(text, name, order):
    """ "find movies with Tom Hanks" called find_flights: "find" in its name (2) and description (1) outscored
    "movies" in search_movies' name (2). A term only in a name's verb scores 1."""
    assert [c[0] for c in turn(text, [FLIGHTS, MOVIES][::order])[0]] == [name]


# --- currencies and units -------------------------------------------------------------------------


@pytest.mark.parametrize("order", [1, -1])
def test_a_rate_between_two_currencies_is_one_call_with_both(order):
    """ "exchange rate between USD and JPY" called get_exchange_rate(USD, USD) and convert_currency(JPY, JPY): its
    clause "JPY" picked the converter by the hint of its code alone. A clause of only hinted words picks nothing."""
    calls, _ = turn("exchange rate between USD and JPY", [RATE, CONVERT_MONEY][::order])
    assert calls == [("get_exchange_rate", {"base": "USD", "quote": "JPY"})]


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("convert 5 euros to yen", ("EUR", "JPY")),
        ("convert between euro and yen", ("EUR", "JPY")),
        ("convert 5 EUR to JPY", ("EUR", "JPY")),
    ],
)
def test_a_patterned_currency_field_takes_the_code_of_a_currency_named_in_words(text, codes):
    """ "convert 5 euros to yen" to fields of pattern ^[A-Z]{3}$ called convert(from="AAA", to="AAA"): a string
    built from the pattern, though the text names two currencies."""
    [(name, arguments)] = turn(text, [CONVERT])[0]
    assert (arguments["from"], arguments["to"]) == codes


@pytest.mark.parametrize(
    ("text", "value", "units"),
    [
        ("what is 3 mi in km", 3, ("mi", "km")),
        ("how many ft in a mile?", 1, ("mi", "ft")),
        ("convert 10 kg to lb", 10, ("kg", "lb")),
        ("5km in miles", 5, ("km", "mi")),
        ("how many feet in 2 miles", 2, ("mi", "ft")),
    ],
)
def test_units_are_read_by_their_short_codes_and_their_names(text, value, units):
    """ "what is 3 mi in km" called nothing (no search term: "mi" and "km" are shorter than `min_word`), "how many
    ft in a mile?" asked for the unit to convert from (the enum's "mi" is no word of "mile")."""
    calls, _ = turn(text, [CONVERT_MONEY, CONVERT_UNITS])
    assert calls == [("convert_units", {"value": value, "from_unit": units[0], "to_unit": units[1]})]


@pytest.mark.parametrize("text", ["mi casa es su casa", "I'm ok", "e.g. that", "ft. Lauderdale"])
def test_a_units_short_code_without_a_number_before_it_picks_nothing(text):
    """A unit's code of two letters picks a converter only right after a number ("3 mi"): "mi" is Spanish too."""
    assert turn(text, [CONVERT_UNITS])[0] == []


# --- weather words, lists with "or" ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("北京晴天吗", "北京"),
        ("上海有风吗", "上海"),
        ("明天广州多云吗", "广州"),
        ("哈尔滨下雪了吗", "哈尔滨"),
        ("is it foggy in London?", "London"),
        ("is it snowy in Denver?", "Denver"),
    ],
)
def test_weather_conditions_find_the_weather_and_the_place_before_them(text, city):
    """ "北京晴天吗", "上海有风吗" answered the shop's greeting: 晴天 and 有风 were in no glossary."""
    assert turn(text, [MOVIES, WEATHER])[0] == [("get_weather", {"city": city})]


def test_a_condition_without_a_place_asks_for_one():
    assert "哪个城市" in turn("今天有风吗", [WEATHER])[1]


@pytest.mark.parametrize("text", ["weather in Paris or London?", "Is it raining in Paris or in London?"])
def test_places_joined_by_or_are_each_asked_about(text):
    assert turn(text, [WEATHER])[0] == [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "London"})]


# --- phrases: a title, a room, a text to translate --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tools", "field", "value"),
    [
        ("book the Orchid room for tomorrow", [ROOM], "room", "Orchid"),
        ("book room B12 for tomorrow", [ROOM], "room", "B12"),
        ("book the Grand Hall for next Monday", [ROOM], "room", "Grand Hall"),
        ("Book Meeting Room 3 for tomorrow", [ROOM], "room", "3"),  # a verb, a kind of room: no name
        ("Reserve Conference Room B tomorrow", [ROOM], "room", "B"),
        ("预订明天的A会议室", [ROOM], "room", "A"),
        ("create an event called Team Lunch on Friday at 12:30", [EVENT], "title", "Team Lunch"),
        ('create an event titled "Budget review" tomorrow at 3pm', [EVENT], "title", "Budget review"),
        ("translate good morning into Spanish", [TRANSLATE], "text", "good morning"),
        ("把你好翻译成英文", [TRANSLATE], "text", "你好"),
    ],
)
def test_a_name_room_or_text_takes_its_phrase_not_the_whole_sentence(text, tools, field, value):
    """ "book the Orchid room for tomorrow" called book_meeting_room(room="book the Orchid room for tomorrow")."""
    [(name, arguments)] = turn(text, tools)[0]
    assert arguments[field] == value


def test_a_room_the_text_does_not_name_is_asked_for_and_a_title_is_the_users_words():
    assert 'What should I use for "room"?' in turn("book a meeting room next Monday", [ROOM])[1]
    [(name, arguments)] = turn("add a dentist appointment tomorrow at 9am", [EVENT])[0]
    assert arguments["title"] == "add a dentist appointment tomorrow at 9am"


@pytest.mark.parametrize(("written", "today"), [('"2026-12-01"', None), ("2026-12-01T09:00:00", "2026-12-01")])
def test_the_gateways_today_is_a_toml_date(tmp_path, written, today):
    """A rules file whose `today` is a string is refused at load, naming the key and the fix; a date-time is its day."""
    rules = tmp_path / "rules.toml"
    text = data.path("gateway_rules.toml").read_text(encoding="utf-8")
    rules.write_text(text.replace("[generic.relative_dates]\n", f"[generic.relative_dates]\ntoday = {written}\n", 1))
    if today is None:
        with pytest.raises(ConfigurationError, match=r"\[generic.relative_dates\] today must be a TOML date"):
            load_rules(rules)
    else:
        assert load_rules(rules).generic.relative_dates.today.isoformat() == today


@pytest.mark.parametrize("written", ["true", '"3"', "1.5", "inf", "3000000"])
def test_a_relative_day_that_is_no_whole_number_of_days_is_refused_at_load(tmp_path, written):
    """Before: `true` was read as 1 and `"3"` as 3; `inf` was an OverflowError past load_rules' own errors; and
    3000000 loaded, then every request saying "tomorrow" was an OverflowError (a 500 from the server)."""
    rules = tmp_path / "rules.toml"
    text = data.path("gateway_rules.toml").read_text(encoding="utf-8")
    assert "\ntomorrow = 1\n" in text
    rules.write_text(text.replace("\ntomorrow = 1\n", f"\ntomorrow = {written}\n", 1))
    with pytest.raises(ConfigurationError) as raised:
        load_rules(rules)
    shown = {"true": "True", '"3"': "'3'"}.get(written, written)
    assert str(raised.value) == (
        f"gateway rules {rules}: ValueError: [generic.relative_dates.days] tomorrow must be a whole number from "
        f"-36525 to 36525 (no quotes), such as tomorrow = 1; got {shown}"
    )


@pytest.mark.parametrize(
    ("key", "written", "shown", "most"),
    [
        ("min_word", "9223372036854775807", "9223372036854775807", 1000),  # was a 500 on each request: re's limit
        ("min_word", "inf", "inf", 1000),  # was an OverflowError past load_rules' errors
        ("min_score", "true", "True", 1000000),  # was read as 1
        ("clause_min_score", "1.5", "1.5", 1000000),  # was read as 1
    ],
)
def test_a_generic_count_that_is_no_whole_number_in_its_range_is_refused_at_load(tmp_path, key, written, shown, most):
    rules = tmp_path / "rules.toml"
    text = data.path("gateway_rules.toml").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith(f"{key} = "))
    rules.write_text(text.replace(f"\n{line}\n", f"\n{key} = {written}\n", 1))
    with pytest.raises(ConfigurationError) as raised:
        load_rules(rules)
    assert str(raised.value) == (
        f"gateway rules {rules}: ValueError: [generic] {key} must be a whole number from 0 to {most} (no quotes), such "
        f"as {line}; got {shown}"
    )


def test_a_relative_day_past_the_calendars_end_is_no_day_and_the_gateway_asks_for_one(tmp_path):
    """Before: with `today = 9999-12-31`, "tomorrow" in a request was an OverflowError (a 500 from the server)."""
    from toolkit.gateway.core import GatewayConfig, respond

    rules = tmp_path / "rules.toml"
    text = data.path("gateway_rules.toml").read_text(encoding="utf-8")
    rules.write_text(text.replace("[generic.relative_dates]\n", "[generic.relative_dates]\ntoday = 9999-12-31\n", 1))
    for said in ("book room B12 for tomorrow", "book room B12 for next Monday"):
        request = {"model": "m", "messages": [{"role": "user", "content": said}], "tools": [ROOM]}
        reply = respond(request, GatewayConfig(rules=load_rules(rules)))
        assert reply.status == 200
        assert (
            reply.body["choices"][0]["message"]["content"] == 'What should I use for "date"? Your message does not say.'
        )
