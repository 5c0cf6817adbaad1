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
