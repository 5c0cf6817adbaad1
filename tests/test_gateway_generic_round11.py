"""The embedded gateway on strangers' queries (round 11): a nullable required day asked for, not made up; times
read as the user wrote them (7am, 7:30 pm, 早上7点, 下午三点半) and asked for when never given; the gateway's one
fixed clock; a place of two words before the topic; a tool's object matched as a word.
"""

import pytest
from test_gateway_generic_asks import S, fn, turn

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
