"""toolkit.gateway.corrected: a value corrected in the same message is read as corrected."""

import pytest

from toolkit.gateway.corrected import cancelled, corrected
from toolkit.gateway.rules import load_rules

RULES = load_rules()


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("weather in Paris, I mean Rome", "weather in Rome"),
        ("weather in New York, I mean Boston", "weather in Boston"),
        ("weather in Paris, no wait, in Rome", "weather in Rome"),
        ("a table for 4, I mean 5", "a table for 5"),
        ("remind me at 5 pm, sorry, 6 pm", "remind me at 6 pm"),
        ("meeting on Monday, I meant Tuesday", "meeting on Tuesday"),
        ("flights tomorrow, make that next Friday", "flights next Friday"),
        ("in celsius, or rather fahrenheit", "in fahrenheit"),
        ("weather in not Paris, London", "weather in London"),
        ("weather in London, not Paris", "weather in London"),
        ("北京的天气，我是说上海", "上海的天气"),
        ("不是北京，是上海的天气", "上海的天气"),
    ],
)
def test_the_correction_takes_the_place_of_the_value_of_its_kind(text, read):
    assert corrected(text, RULES) == read


@pytest.mark.parametrize(
    "text",
    [
        "weather in Paris",
        "what do you mean by that",
        "Hi, sorry, what's the weather in Oslo?",
        "weather in Paris, actually I need Rome",
        "I'm not sure, is it raining?",
        "a table for 4, I mean tomorrow",
        "x" * 2_001 + ", I mean Rome",
    ],
)
def test_a_text_with_no_correction_of_a_value_is_read_as_written(text):
    assert corrected(text, RULES) is text


@pytest.mark.parametrize(
    ("text", "taken_back"),
    [
        ("weather in Paris? actually no, never mind", True),
        ("weather in Rome, forget it", True),
        ("book it. Scratch that.", True),
        ("查一下北京天气，算了", True),
        ("never mind the weather, what time is it in Oslo?", False),
        ("don't forget it is my birthday", False),
        ("weather in Paris", False),
    ],
)
def test_a_text_taken_back_at_its_end(text, taken_back):
    assert cancelled(text) is taken_back
