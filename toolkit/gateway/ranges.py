"""The end of a range of days named by its weekday alone is on or after its start: "next Monday to Wednesday" is the
Wednesday of that week, 2026-12-09, not this Wednesday (2026-12-02, before the Monday); "下周一到周三" the same.

A weekday alone is read as the first such day from today on (`rules.RelativeDates.on`), which is right for "on
Wednesday" and wrong for a range whose start is later: a leave from 2026-12-07 to 2026-12-02 is no leave.
`range_ends` moves a weekday alone that ends a range (written right after to, until, through, -, 到, 至 and the day
before it) to the first such day on or after the range's start.
Left out: a range's end named by its date (it is as written, even before its start: the user may have slipped), and
ranges of months or times.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

_JOINED = re.compile(r"(?:\b(?:to|until|till|through|thru)|[-–~]|到|至)\s*\Z", re.I)
_MAX_LOOK = 24
"""How far before a weekday its range word is looked for (the word and blanks, never the text before)."""


def range_ends(found: list[tuple[int, str | None]], text: str, alone: set[int]) -> list[tuple[int, str | None]]:
    """The days `found` (where each is written, the ISO day; in the text's order) with each weekday written alone
    (its start in `alone`) that ends a range moved on or after the range's start; the same list when none does."""
    moved = list(found)
    for k in range(1, len(moved)):
        at, day = moved[k]
        start = moved[k - 1][1]
        if at not in alone or day is None or start is None or day >= start:
            continue
        if _JOINED.search(text[max(0, at - _MAX_LOOK) : at]) is None:
            continue
        first = date.fromisoformat(start)
        ahead = (date.fromisoformat(day).weekday() - first.weekday()) % 7
        moved[k] = (at, (first + timedelta(days=ahead)).isoformat())
    return moved
