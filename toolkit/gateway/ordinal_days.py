"""A weekday counted within a month, as a day of the calendar: "the first Monday of March", "the last Friday of
January", "the 2nd Tuesday of next month", "下个月第一个周一", "三月的第二个星期五", "本月最后一个周五".

The relative days read the weekday alone ("Monday": the first from today on), so "the first Monday of March" was
2026-12-07. `ordinal_days(text, today)` gives each such day the text writes with where it is written, so that the
weekday inside it is not read again: a month without a year is its next one from `today` on (March is 2027's on
2026-12-01; this month's day already past is next year's), "next month" and 下个月 the month after today's, "this
month", 本月 and 这个月 today's. A fifth weekday the month does not have is no day (None is not given).
Left out: weeks ("the first week of May"), a day counted from a day ("the Monday after next"), years in Chinese
numerals (二〇二七年三月) and ordinals in words beyond fifth.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from toolkit.gateway.times import small_number

_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_ORDINALS |= {"fifth": 5, "5th": 5, "last": -1}
_WEEKDAYS = {name: n for n, name in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday"))}
_WEEKDAYS["sunday"] = 6
_MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): n for n, name in enumerate(calendar.month_abbr) if name}
_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}

_EN = re.compile(
    r"(?i)\b(?:the\s+)?(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\s+"
    r"(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+(?:of|in)\s+"
    r"(?:(?P<rel>next|this)\s+month|(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
    r"(?:\s+(?P<year>\d{4}))?)\b"
)
_ZH = re.compile(
    r"(?:(?P<rel>下个?月|这个?月|本月)|(?:(?P<year>\d{4})年)?(?P<month>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])月(?:份)?)"
    r"的?(?:第(?P<nth>[一二三四五1-5])个|(?P<last>最后一)个)(?:周|星期|礼拜)(?P<weekday>[一二三四五六日天])"
)
_EN_CUE = re.compile("first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last")
"""An ordinal word of `_EN`, looked for in the lower-cased text before `_EN` is (a case-blind regex tries every
character)."""


def ordinal_days(text: str, today: date) -> list[tuple[int, int, str | None]]:
    """(start, end, ISO day or None) of each weekday counted within a month the text writes, in its order; [] when
    it writes none (the usual case: found without a regex when it holds no ordinal word, or no 月 and 个)."""
    found: list[tuple[int, int, str | None]] = []
    if _EN_CUE.search(text.lower()) is not None:
        for m in _EN.finditer(text):
            month = _month(m.group("rel"), m.group("month"), m.group("year"), today)
            day = _nth(month, _ORDINALS[m.group("nth").lower()], _WEEKDAYS[m.group("weekday").lower()], today)
            found.append((m.start(), m.end(), day))
    if "月" in text and "个" in text:
        for m in _ZH.finditer(text):
            nth = -1 if m.group("last") else small_number(m.group("nth")) or 0
            month = _month(m.group("rel"), m.group("month"), m.group("year"), today)
            found.append((m.start(), m.end(), _nth(month, nth, _ZH_WEEKDAYS[m.group("weekday")], today)))
    return sorted(found)


def _month(relative: str | None, month: str | None, year: str | None, today: date) -> tuple[int, int, bool]:
    """(year, month, whether the year is free to move on) of "next month", 本月, "March", "March 2027", 三月."""
    if relative is not None:
        ahead = relative.lower().startswith(("next", "下"))
        number = today.month + ahead
        return today.year + (number > 12), (number - 1) % 12 + 1, False
    number = _MONTHS.get((month or "").lower()) or small_number(month) or 0
    if year is not None:
        return int(year), number, False
    return today.year + (number < today.month), number, True


def _nth(month: tuple[int, int, bool], nth: int, weekday: int, today: date) -> str | None:
    """The `nth` (-1: the last) `weekday` of `month`, ISO; a free year moves on when that day is past."""
    year, number, free = month
    if not 1 <= number <= 12:
        return None
    day = _counted(year, number, nth, weekday)
    if free and day is not None and day < today:
        day = _counted(year + 1, number, nth, weekday)
    return None if day is None else day.isoformat()


def _counted(year: int, month: int, nth: int, weekday: int) -> date | None:
    length = calendar.monthrange(year, month)[1]
    if nth == -1:
        last = date(year, month, length)
        return date(year, month, length - (last.weekday() - weekday) % 7)
    first = (weekday - date(year, month, 1).weekday()) % 7 + 1 + 7 * (nth - 1)
    return date(year, month, first) if first <= length else None
