"""toolkit.gateway.ranges: a range's end named by its weekday alone is on or after its start."""

import pytest
from test_gateway_generic_asks import S, fn, turn

from toolkit.gateway.ranges import range_ends

DAY = {"type": "string", "format": "date"}
LEAVE = fn(
    "request_leave",
    "Request time off",
    {"start_date": DAY, "end_date": DAY, "type": {"type": "string", "enum": ["vacation", "sick"]}, "note": S},
    ["start_date", "end_date", "type"],
)


@pytest.mark.parametrize(
    ("text", "start", "end", "kind"),
    [
        ("I need next Monday to Wednesday off for vacation", "2026-12-07", "2026-12-09", "vacation"),
        ("我下周一到周三请年假", "2026-12-07", "2026-12-09", "vacation"),
        ("vacation from Friday to Monday", "2026-12-04", "2026-12-07", "vacation"),
        ("vacation from Wednesday to Friday", "2026-12-02", "2026-12-04", "vacation"),
        ("vacation from 2026-12-10 to Monday", "2026-12-10", "2026-12-14", "vacation"),
        ("请病假，周四到下周二", "2026-12-03", "2026-12-08", "sick"),
    ],
)
def test_a_ranges_end_is_on_or_after_its_start(text, start, end, kind):
    """ "next Monday to Wednesday" asked for leave from 2026-12-07 to 2026-12-02: the Wednesday alone was this one."""
    assert turn(text, [LEAVE])[0] == [("request_leave", {"start_date": start, "end_date": end, "type": kind})]


def test_a_weekday_not_ending_a_range_is_left():
    apart = [(0, "2026-12-07"), (22, "2026-12-02")]
    assert range_ends(apart, "next Monday, and then Wednesday", {22}) == apart  # no range word before it
    ranged = [(0, "2026-12-07"), (15, "2026-12-02")]
    assert range_ends(ranged, "next Monday to Wednesday", {15}) == [(0, "2026-12-07"), (15, "2026-12-09")]
    assert (
        range_ends(ranged, "next Monday to Wednesday", set()) == ranged
    )  # a date written, not a weekday alone, is as written
