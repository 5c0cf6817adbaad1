"""toolkit.gateway.durations: the durations a text writes, and the unit a field is named in."""

import pytest

from toolkit.gateway.durations import durations, spoken, unit_of


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("for 5 hours", [18_000]),
        ("90 min", [5_400]),
        ("an hour and a half", [5_400]),
        ("two and a half hours", [9_000]),
        ("half an hour", [1_800]),
        ("2 hours 30 minutes", [9_000]),
        ("a 15-minute call for 2 weeks", [900, 1_209_600]),
        ("一个半小时", [5_400]),
        ("半小时", [1_800]),
        ("两周", [1_209_600]),
        ("1小时20分钟", [4_800]),
        ("住三晚", [259_200]),
        ("3 nights", [259_200]),
        ("明天晚上8点", []),
        ("第三天", []),
        ("下周一", []),
        ("at 7pm on Monday", []),
    ],
)
def test_durations_are_read_in_seconds(text, seconds):
    assert [d[2] for d in durations(text)] == seconds


@pytest.mark.parametrize(
    ("name", "description", "unit"),
    [
        ("minutes", "", 60),
        ("duration_minutes", "", 60),
        ("timeoutSecs", "", 1),
        ("num_days", "", 86_400),
        ("hrs", "", 3_600),
        ("duration", "Length in minutes", 60),
        ("duration", "", None),
        ("minute", "", None),
        ("day", "Day of the month", None),
        ("duration", "In minutes or hours", None),
    ],
)
def test_a_fields_unit_is_named_by_its_name_or_description(name, description, unit):
    assert unit_of(name, description) == unit


def test_a_duration_beside_a_fields_own_word_is_its_and_the_others_take_the_rest():
    text = "for 2 hours with a 15 minute buffer"
    assert spoken(text, "buffer_minutes", 60, ("duration_minutes",), 0) == 15
    assert spoken(text, "duration_minutes", 60, ("buffer_minutes",), 0) == 120
    assert spoken("for 2 hours", "timeout_minutes", 60, ("duration_minutes",), 1, optional=True) is None


@pytest.mark.parametrize(
    "unit",
    [
        *"小时 钟头 分钟 秒钟 秒 天 晚 周 星期 礼拜".split(),
        *" seconds second secs sec minutes minute mins min hours hour hrs hr h days day nights night weeks week wks wk".split(),
    ],
)
def test_every_unit_the_pattern_finds_is_read(unit):
    """Each unit the pattern matches has its length (a unit matched and not known raised KeyError: a 500)."""
    text = f"三{unit}" if not unit.isascii() else f"3 {unit}"
    assert len(durations(text)) == 1 and durations(text)[0][2] > 0
