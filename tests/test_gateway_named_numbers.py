"""toolkit.gateway.named_numbers: the numbers a text writes beside a field's name, and percentages."""

import pytest

from toolkit.gateway.named_numbers import numbers_named, share_values, wants_share
from toolkit.gateway.rules import load_rules


@pytest.mark.parametrize(
    ("text", "name", "numbers"),
    [
        ("for 2 guests", "guests", ["2"]),
        ("guests: 3", "guests", ["3"]),
        ("within a radius of 500", "radius_m", ["500"]),
        ("max price 200", "max_price", ["200"]),
        ("3 adult tickets", "tickets", ["3"]),
        ("for 2 people", "guests", []),
        ("max 200", "max_price", []),
    ],
)
def test_a_number_beside_a_word_of_the_fields_name(text, name, numbers):
    assert [n for _, n in numbers_named(text, name)] == numbers


def test_a_percentage_field_and_its_values():
    assert wants_share("tip_pct", "") and wants_share("rate", "Tip percentage") and not wants_share("bill", "")
    percent = load_rules().generic.facts.get("percent")
    assert share_values("tip at 18% of 80", percent) == ["18"]
    assert share_values("小费百分之十八", percent) == ["18"]
