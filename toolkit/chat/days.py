"""A calendar day a person writes where the package takes a date (`load_shop(today=...)`, `--today`,
`fixed_clock(...)`), read one way everywhere: `YYYY-MM-DD`, ASCII digits, blanks around it allowed.

Python's `date.fromisoformat` (3.11+) takes more than that, silently: an ISO week date (`2026-W43-1`, and
`2026-W43` for its Monday; `2026-W01-1` is 2025-12-29, a day of the year before) and the basic form without
dashes (`20261025`). A teacher who wrote one of those meant some day, maybe not the one read; and the errors
and `--help` of every command say `yyyy-mm-dd`. So such a text is refused (`read_day`), and its error says what
it was read as and the day it stands for (`misread`), so the fix is to copy that day. A date and time is read
the same way for its date part (`read_moment`: `fixed_clock('2026-W43-1T10:00')`).

Leaves out: the model's dates (`asOf`), which week 3's validation reads more leniently (`2026/10/20`,
`2026年10月20日`, full-width digits: `toolkit.course.validation.normalize_date`), and the date a gateway's rules
file or a cassette holds (read by their own readers).
"""

from __future__ import annotations

import datetime
import re

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
"""A day written `YYYY-MM-DD`."""


def read_day(text: str) -> datetime.date:
    """`text` (blanks around it allowed) as the day it writes `YYYY-MM-DD`; else a `ValueError` (for the caller
    to word, with `read_as`)."""
    written = text.strip()
    if not _DAY.fullmatch(written):
        raise ValueError(f"not YYYY-MM-DD: {text!r}")
    return datetime.date.fromisoformat(written)


def read_moment(text: str) -> datetime.datetime:
    """`text` as an ISO date and time whose date is written `YYYY-MM-DD` (`2026-10-20T10:00:00`, or the day
    alone: its midnight); else a `ValueError`."""
    written = text.strip()
    if not _DAY.match(written):
        raise ValueError(f"not YYYY-MM-DD: {text!r}")
    return datetime.datetime.fromisoformat(written)


def read_as(text: str) -> tuple[str, datetime.date] | None:
    """What a date `text` is that is not written `YYYY-MM-DD` but that Python reads (`2026-W43-1`: "an ISO week
    date", 2026-10-19; `20261025`: "a date without dashes"), and the day it stands for; None for no date Python
    reads either (`2026-02-30`, `tomorrow`), or one written `YYYY-MM-DD`."""
    head = text.strip().partition("T")[0]
    if _DAY.fullmatch(head):
        return None
    try:
        day = datetime.date.fromisoformat(head)
    except ValueError:
        return None
    return ("an ISO week date" if "W" in head.upper() else "a date without dashes"), day


def misread(text: str) -> str:
    """`read_as(text)` in words for an error, after what was refused: ` (an ISO week date, for 2026-10-19)`; ""
    when there is none."""
    found = read_as(text)
    return f" ({found[0]}, for {found[1].isoformat()})" if found else ""
