"""A day written without its year, as a day of the calendar: "Dec 20", "December 20th", "20 Dec", "the 20th of
December", "12月20号", "12月20日", and a day of the month alone after one ("12月20号入住，23号退房": the 23rd of December).

The `date` fact reads a day with its year (2026-12-20, "Dec 20, 2026", 2026年12月20日), so "hotels in Lisbon from
December 20 to December 23" asked which day to check in. `yearless_days(text, today, dated)` gives each such day the
text writes with where it is written: its next one from `today` on (December 20 is 2026's on 2026-12-01, March 3
2027's), as a model reads it. A day of the month alone (23号) is of the month written last before it, else of
today's month (the next one when that day is past). Days the `date` fact reads already (`dated`, their spans) are
left to it; a day the month does not have (February 30) is none.
Left out: English days of the month alone ("on the 23rd": too often an order or a ranking), ranges written "Dec 20-23",
and weekdays named beside the day (the day wins).
"""

from __future__ import annotations

import calendar
import re
from datetime import date

_MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): n for n, name in enumerate(calendar.month_abbr) if name}
_MONTHS["sept"] = 9
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_EN = re.compile(
    rf"(?i)\b(?:(?P<m1>{_MONTH})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*[:.]\d)(?!,?\s+\d{{4}})"
    rf"|(?:the\s+)?(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{_MONTH})\b\.?(?!,?\s+\d{{4}}))"
)
_ZH = re.compile(
    r"(?<![\d年])(?:(?P<month>1[0-2]|0?[1-9])月(?P<day>3[01]|[12]\d|0?[1-9])[日号](?!\d)"
    r"|(?<![\d月])(?P<alone>3[01]|[12]\d|0?[1-9])[日号](?=[，。,.!?！？、\s到至~-]|$|入住|退房|出发|开始|结束|截止|之前|以前|前|"
    r"之后|以后|后|上午|下午|早上|晚上|中午|当天|那天|左右|的)"
    r"|(?<=[到至~-])(?P<ended>3[01]|[12]\d|0?[1-9])[日号](?!\d))"
)
"""12月20号, 12月20日; a day alone (23号) only before a word a date goes with, or after 到 or 至 (a range's end):
3号线, 5号楼 and 3日游 are none."""
_EN_CUE = re.compile(r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec")


def yearless_days(text: str, today: date, dated: list[tuple[int, int]]) -> list[tuple[int, int, str | None]]:
    """(start, end, ISO day or None) of each day the text writes without its year, in its order, none inside a span
    of `dated`; [] when it writes none (the usual case: no month's name, 日 or 号 in it, no regex is run)."""
    found: list[tuple[int, int, str | None]] = []
    if _EN_CUE.search(text.lower()) is not None:
        for m in _EN.finditer(text):
            named = _MONTHS[(m.group("m1") or m.group("m2")).lower().rstrip(".")]
            found.append((m.start(), m.end(), _next(today, named, int(m.group("d1") or m.group("d2")))))
    if "日" in text or "号" in text:
        month: int | None = None
        for m in _ZH.finditer(text):
            if m.group("month") is not None:
                month = int(m.group("month"))
                day = _next(today, month, int(m.group("day")))
            elif month is None:
                day = _next(today, today.month, int(m.group("alone") or m.group("ended")), roll=True)
            else:
                day = _next(today, month, int(m.group("alone") or m.group("ended")))
            found.append((m.start(), m.end(), day))
    return sorted(f for f in found if not any(s <= f[0] < e or f[0] <= s < f[1] for s, e in dated))


def _next(today: date, month: int, day: int, roll: bool = False) -> str | None:
    """The next `month`/`day` from `today` on, ISO (None: no such day); `roll`: a day of today's month already past
    is next month's."""
    year = today.year
    if roll and day < today.day:
        month, year = (1, year + 1) if month == 12 else (month + 1, year)
    elif (month, day) < (today.month, today.day):
        year += 1
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None
