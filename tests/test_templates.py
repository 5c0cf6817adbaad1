import datetime as dt

import pytest
from pydantic import BaseModel

from toolkit.services.templates import as_text, fixed_clock, render, variables


class Order(BaseModel):
    id: str


def test_placeholders_are_listed_once_in_order():
    assert variables("{{b}} {{ a }} {{b}} {{current_date}}") == ["b", "a", "current_date"]


def test_render_fills_arguments_and_built_ins_from_the_clock():
    clock = fixed_clock("2026-10-20T09:05:07")
    text = render(
        "订单 {{order}} 查询于 {{current_date}} {{current_time}} ({{current_datetime}})", {"order": "SN1"}, clock
    )
    assert text == "订单 SN1 查询于 2026-10-20 09:05:07 (2026-10-20 09:05:07)"


def test_the_clock_is_read_once_per_render():
    ticks = iter([dt.datetime(2026, 1, 1, 0, 0, 59), dt.datetime(2026, 1, 1, 0, 1, 0)])
    assert render("{{current_time}} {{current_time}}", {}, lambda: next(ticks)) == "00:00:59 00:00:59"


def test_values_render_as_text_or_json():
    assert as_text("x") == "x" and as_text(3) == "3" and as_text(["中"]) == '["中"]'
    assert as_text(Order(id="SN1")) == '{"id":"SN1"}'


def test_arguments_win_over_built_ins_and_unknowns_are_a_bug():
    assert render("{{current_date}}", {"current_date": "yesterday"}) == "yesterday"
    with pytest.raises(KeyError):
        render("{{nope}}", {})
