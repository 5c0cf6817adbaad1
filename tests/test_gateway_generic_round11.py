"""The embedded gateway on strangers' queries (round 11): a nullable required day asked for, not made up; times
read as the user wrote them (7am, 7:30 pm, 早上7点, 下午三点半) and asked for when never given; the gateway's one
fixed clock; a place of two words before the topic; a tool's object matched as a word.
"""

import json
from datetime import UTC, date, datetime

import pytest
from test_gateway_generic_asks import S, fn, turn

from toolkit import data
from toolkit.gateway.core import GatewayConfig, respond
from toolkit.gateway.rules import FIXED_TODAY, load_rules

DAY = {"type": "string", "format": "date"}


# --- a required value never given is asked for, however its type is spelled ---------------------


@pytest.mark.parametrize(
    "day",
    [
        {"type": ["string", "null"], "format": "date"},
        {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
        {"oneOf": [{"type": "null"}, {"type": "string", "format": "date"}], "description": "the day"},
    ],
)
def test_a_nullable_required_day_the_text_does_not_give_is_asked_for(day):
    """`Optional[date]` (pydantic's anyOf with null) booked the room on 2026-01-01: a made-up day. Asked for, as a
    plain `date` is; a day the text names is still read."""
    room = fn("book_room", "Book a meeting room", {"room": S, "date": day})
    calls, said = turn("book the Orchid room", [room])
    assert calls == [] and 'What should I use for "date"?' in said
    assert turn("book the Orchid room on 2026-12-24", [room])[0] == [
        ("book_room", {"room": "Orchid", "date": "2026-12-24"})
    ]


# --- one fixed clock --------------------------------------------------------------------------------


def test_the_replies_created_is_the_midnight_of_the_day_relative_days_are_read_against():
    """The reply said `created` 2026-01-01 while "tomorrow" was read as 2026-12-02: two clocks. One fixed day
    now, `FIXED_TODAY`, and `created` its midnight UTC; never the wall clock."""
    config = GatewayConfig()
    assert config.rules.today == FIXED_TODAY == date(2026, 12, 1)
    assert config.created == 1_796_083_200 == datetime(2026, 12, 1, tzinfo=UTC).timestamp()
    reply = respond({"model": "m", "messages": [{"role": "user", "content": "hi"}]}, config)
    assert reply.body["created"] == config.created
    assert GatewayConfig(created=7).created == 7


def test_a_rules_file_that_moves_today_moves_the_replies_created(tmp_path):
    rules = tmp_path / "rules.toml"
    text = data.path("gateway_rules.toml").read_text(encoding="utf-8")
    rules.write_text(text.replace("[generic.relative_dates]\n", "[generic.relative_dates]\ntoday = 2027-03-01\n", 1))
    config = GatewayConfig(rules=load_rules(rules))
    assert config.created == datetime(2027, 3, 1, tzinfo=UTC).timestamp()
    forecast = fn("get_forecast", "Get the weather forecast for a city on a date", {"city": S, "date": DAY})
    request = {
        "model": "m",
        "messages": [{"role": "user", "content": "forecast for Paris tomorrow"}],
        "tools": [forecast],
    }
    [call] = respond(request, config).body["choices"][0]["message"]["tool_calls"]
    assert json.loads(call["function"]["arguments"]) == {"city": "Paris", "date": "2027-03-02"}


# --- times of day as written, asked for when never given ------------------------------------------

ALARM = fn("set_alarm", "Set an alarm clock", {"time": {"type": "string", "description": "HH:MM"}})
REMINDER = fn(
    "set_reminder", "Set a reminder", {"text": S, "when": {"type": "string", "format": "date-time"}}, ["when"]
)


@pytest.mark.parametrize(
    ("text", "time"),
    [
        ("set an alarm for 7am", "07:00"),
        ("set an alarm for 7:30 pm", "19:30"),  # was 07:30: the pm not read
        ("set an alarm for 12 p.m.", "12:00"),
        ("set an alarm for 12am", "00:00"),
        ("alarm at 19:00", "19:00"),
        ("set an alarm for 6:45AM", "06:45"),
        ("闹钟 alarm 早上7点", "07:00"),
        ("alarm 下午三点半", "15:30"),
        ("alarm 晚上8点15分", "20:15"),
        ("alarm 两点一刻", "02:15"),
        ("alarm 中午1点", "13:00"),
        ("alarm 凌晨十二点", "00:00"),
        ("alarm ２０:３０", None),  # full-width colon-time: not a form read
        ("set an alarm for 7", None),  # morning or evening not said
        ("alarm 快一点", None),  # "a little", not one o'clock
        ("set an alarm for 13pm", None),
        ("set an alarm for 25:00", None),
    ],
)
def test_a_time_is_read_as_the_user_wrote_it_and_asked_for_when_not(text, time):
    calls, said = turn(text, [ALARM])
    if time is None:
        assert calls == [] and ('What should I use for "time"?' in said or "“time”应该填什么" in said)
    else:
        assert calls == [("set_alarm", {"time": time})]


@pytest.mark.parametrize(
    "time",
    [
        {"type": "string", "examples": ["07:00"]},
        {"type": "string", "description": "the time, e.g. 7am"},
        {"type": "string", "format": "time"},
        {"anyOf": [{"type": "string", "format": "time"}, {"type": "null"}]},
    ],
)
def test_a_required_time_never_given_is_asked_for_not_taken_from_an_example(time):
    """ "set an alarm" set it for the schema's example 07:00 (or a `time` format's 00:00:00Z): a time the user never
    said. Asked for; a time written is read, and a `default` is still taken."""
    alarm = fn("set_alarm", "Set an alarm clock", {"time": time})
    calls, said = turn("set an alarm", [alarm])
    assert calls == [] and 'What should I use for "time"?' in said
    [(_, arguments)] = turn("set an alarm for 7:30 pm", [alarm])[0]
    assert arguments["time"] in ("19:30", "19:30:00Z")
    defaulted = fn("set_alarm", "Set an alarm clock", {"time": {"type": "string", "default": "08:00"}})
    assert turn("set an alarm", [defaulted])[0] == [("set_alarm", {"time": "08:00"})]


def test_an_example_that_is_no_time_is_still_taken_for_a_time_named_field():
    chart = fn("get_chart", "Get a stock chart", {"symbol": S, "timeframe": {"type": "string", "examples": ["1d"]}})
    [(_, arguments)] = turn("get the chart for AAPL", [chart])[0]
    assert arguments["timeframe"] == "1d"


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("remind me tomorrow at 7am to call mom", "2026-12-02T07:00:00Z"),
        ("明天下午三点半提醒我", "2026-12-02T15:30:00Z"),
        ("remind me on 2026-12-24 at 6:15 pm", "2026-12-24T18:15:00Z"),
    ],
)
def test_a_date_time_takes_the_day_and_the_time_as_written(text, when):
    [(_, arguments)] = turn(text, [REMINDER])[0]
    assert arguments["when"] == when


# --- a tool's object, by a synonym, over a verb two tools share ------------------------------------

FLIGHTS = fn("find_flights", "Find flights between two cities", {"origin": S, "destination": S})


@pytest.mark.parametrize("order", [1, -1])
@pytest.mark.parametrize(
    ("text", "movies", "name"),
    [
        ("find films starring Meryl Streep", "Search movies by title or actor", "search_movies"),
        ("find films starring Meryl Streep", "Search films by title or actor", "search_movies"),
        ("find a film with Tom Hanks", "Search movies by title or actor", "search_movies"),
        ("find flights from Paris to Rome", "Search movies by title or actor", "find_flights"),
        ("find flights from Paris to Rome", "Search films by title or actor", "find_flights"),
    ],
)
def test_a_synonym_naming_a_tools_object_outweighs_a_verb_alone(text, movies, name, order):
    """ "find films starring Meryl Streep" called find_flights (by "find", its verb) with search_movies offered: the
    user named the object, films, a synonym of movies. A tool found by its verb alone gives way to one whose object
    a synonym names; a word naming a tool's object is never overruled ("find flights")."""
    tools = [fn("search_movies", movies, {"query": S}), FLIGHTS][::order]
    calls, said = turn(text, tools)
    assert [n for n, _ in calls] == [name], said


# --- a place of one or two words before the topic ---------------------------------------------------

WEATHER = fn("get_weather", "Get the current weather for a city", {"city": S})


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("New York weather", "New York"),
        ("Los Angeles weather today", "Los Angeles"),
        ("Paris's forecast", "Paris"),
        ("Check São Paulo weather", "São Paulo"),
        ("Rio de Janeiro weather", "Rio de Janeiro"),
        ("What is the Tokyo weather?", "Tokyo"),
        ("What weather is it?", None),  # a word that begins a question is no place
        ("Current weather please", None),
        ("Monday weather", None),  # nor a day
        ("how is the weather", None),
        ("Christmas weather", None),  # nor an occasion or a season
        ("Summer weather in Spain", "Spain"),  # a place after in/at/for/of is the place
        ("New Year weather in Oslo", "Oslo"),
        ("Spring forecast for Paris", "Paris"),
    ],
)
def test_a_capitalised_place_just_before_the_topic_is_read(text, city):
    """ "New York weather" asked which city: a place was read only after in/at/for/to. A capitalised name of one
    or two words just before weather, forecast, temperature or time is the place."""
    calls, said = turn(text, [WEATHER])
    assert calls == ([("get_weather", {"city": city})] if city else []), said


# --- an alarm, a film, the news, music named in Chinese or by "wake" -----------------------------

MUSIC = fn("play_music", "Play a song or an artist", {"query": S})
NEWS = fn("get_news", "Latest news headlines on a topic", {"topic": S})


@pytest.mark.parametrize(
    ("text", "name", "arguments"),
    [
        ("wake me at 7am", "set_alarm", {"time": "07:00"}),
        ("早上7点叫醒我", "set_alarm", {"time": "07:00"}),
        ("设一个下午三点半的闹钟", "set_alarm", {"time": "15:30"}),
        ("播放周杰伦的歌", "play_music", {"query": "播放周杰伦的歌"}),
        ("找一部汤姆·汉克斯的电影", "search_movies", {"query": "找一部汤姆·汉克斯的电影"}),
        ("I woke up late today", None, None),  # "woke" is no alarm
    ],
)
def test_tools_found_by_chinese_words_and_by_wake(text, name, arguments):
    """ "wake me at 7am", 早上7点叫醒我, 设个闹钟 found no alarm tool (no word of the tool's: wake, 闹钟, 叫醒), nor did
    电影, 播放 find a film or music tool. Glossary words and a hint now do; the time is read as written."""
    tools = [ALARM, MUSIC, NEWS, fn("search_movies", "Search movies by title or actor", {"query": S}), FLIGHTS]
    calls, _ = turn(text, tools)
    assert calls == ([(name, arguments)] if name else [])
