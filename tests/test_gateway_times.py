"""`gateway.times.clock`: a time of day as written, read as HH:MM by the rules' `time` pattern's named groups."""

import re

import pytest

from toolkit.gateway.rules import load_rules
from toolkit.gateway.times import clock

TIME = load_rules().generic.facts["time"]


@pytest.mark.parametrize(
    ("text", "times"),
    [
        ("at 7am or 7:30 PM", ["07:00", "19:30"]),
        ("12 a.m. then 12 p.m.", ["00:00", "12:00"]),
        ("19:00 and 0:05", ["19:00", "00:05"]),
        ("晚上十点 下午2点半 十二点三刻 凌晨一点", ["22:00", "14:30", "12:45", "01:00"]),
        ("早上７点 中午12点", ["07:00", "12:00"]),
        ("v1.7am 2026-12-01", []),  # a version's digits are no time
        ("第三点 好一点 25:00 13pm", []),  # a point of a list, "a little", no hour of the day
        ("at midnight, Noon or midday; 午夜 正午", ["00:00", "12:00", "12:00", "00:00", "12:00"]),
        ("good afternoon, midnights 中午吃饭", []),  # a word holding one, a plural, a part of the day alone
    ],
)
def test_times_are_read_as_written(text, times):
    assert [t for t in map(clock, TIME.finditer(text)) if t] == times


def test_a_pattern_without_the_named_groups_is_read_as_written():
    """A rules file's own `time` pattern: its first group, as before."""
    assert clock(re.search(r"at (\d+h\d+)", "meet at 9h30")) == "9h30"
    assert clock(re.search(r"\d+h", "9h")) == "9h"
