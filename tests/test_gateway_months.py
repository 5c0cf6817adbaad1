"""toolkit.gateway.months: a month's name is no place."""

import pytest

from toolkit.gateway.months import is_month, without_month


@pytest.mark.parametrize("value", ["May", "march", "Sept", "五月", "12月", "十二月份"])
def test_a_months_name_is_a_month(value):
    assert is_month(value)


@pytest.mark.parametrize("value", ["Nice", "Mayfair", "Marseille", "上海", "13月", "Mar"])
def test_a_place_is_no_month(value):
    assert not is_month(value)


@pytest.mark.parametrize(
    ("value", "place"),
    [
        ("北京十月", "北京"),
        ("十月北京", "北京"),
        ("月的上海", "上海"),
        ("五月", ""),
        ("May", ""),
        ("Nice", "Nice"),
        ("上海", "上海"),
    ],
)
def test_a_month_glued_to_a_chinese_place_is_taken_off(value, place):
    assert without_month(value) == place
