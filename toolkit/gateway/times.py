"""A time of day as a user writes it, read as `HH:MM` (24-hour): 19:00, 7am, 7:30 pm, 12 p.m., 早上7点,
下午三点半, 晚上8点15分, 凌晨两点, midnight, noon, 午夜, 正午.

`clock` reads one match of the `[generic.facts] time` pattern by its named groups: `hour`/`minute` a 24-hour
time (19:00); `hour12`/`minute12` and `meridiem` (a or p) a 12-hour one (7am: 07:00, 7:30 pm: 19:30, 12am:
00:00, 12pm: 12:00); `zh_hour`/`zh_minute` in digits or Chinese numerals (七, 十二, 二十三), `half` (半: 30),
`quarter` (一刻 15, 三刻 45) and `period` a part of the day (下午, 晚上: after noon; 凌晨: before dawn; 中午 1点:
13:00); `named` a time said by its name (midnight, noon, midday, 午夜: 00:00, 正午: 12:00; 中午 alone is a part of
the day, no time). A pattern without these groups (a rules file's own) is read as before: its first group, as written.
Left out: a bare number ("at 7": morning or evening is not said, so no time is read), "一点" alone (more
often "a little" than one o'clock: 快一点) and times with seconds or time zones.
"""

from __future__ import annotations

import re

_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
_NUMERALS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_AFTERNOON = frozenset({"下午", "傍晚", "晚上", "夜里", "夜间", "今晚", "明晚"})
_NIGHT = frozenset({"凌晨", "半夜"})
_NAMED = ("hour", "hour12", "zh_hour", "named")
_WORDS = {"midnight": "00:00", "noon": "12:00", "midday": "12:00", "午夜": "00:00", "正午": "12:00"}


def clock(match: re.Match[str]) -> str | None:
    """The `HH:MM` a match of the time pattern names, or None (no hour of the day: 25:00, 13pm, 一点 alone)."""
    groups = match.groupdict()
    if groups.get("named") is not None:
        return _WORDS.get(groups["named"].lower())
    if groups.get("hour") is not None:
        return _at(int(groups["hour"].translate(_DIGITS)), int(groups.get("minute") or 0))
    if groups.get("hour12") is not None:
        hour = int(groups["hour12"].translate(_DIGITS))
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if (groups.get("meridiem") or "a").lower() == "p" else 0)
        return _at(hour, int(groups.get("minute12") or 0))
    if groups.get("zh_hour") is not None:
        return _chinese(groups)
    if not any(name in match.re.groupindex for name in _NAMED):
        return next((g for g in match.groups() if g is not None), match.group(0))
    return None


def _chinese(groups: dict[str, str | None]) -> str | None:
    """下午三点半 as 15:30: the hour, the minutes (半, 一刻, 15分) and the part of the day."""
    written, period = groups["zh_hour"] or "", groups.get("period")
    hour = small_number(written)
    minute = 30 if groups.get("half") else {"一刻": 15, "三刻": 45}.get(groups.get("quarter") or "", None)
    if minute is None:
        minute = small_number(groups["zh_minute"]) if groups.get("zh_minute") else 0
    if hour is None or minute is None:
        return None
    if (
        written == "一"
        and period is None
        and not (groups.get("half") or groups.get("zh_minute") or groups.get("quarter"))
    ):
        return None  # 快一点, 好一点: "a little", not one o'clock
    if period in _AFTERNOON and hour < 12:
        hour += 12
    elif period == "中午" and hour < 11:
        hour += 12  # 中午1点 is 13:00, 中午12点 noon
    elif period in _NIGHT and hour == 12:
        hour = 0
    return _at(hour, minute)


def small_number(written: str | None) -> int | None:
    """7, ０７, 七, 十二, 二十三 as a number (None for anything else)."""
    if not written:
        return None
    digits = written.translate(_DIGITS)
    if digits.isascii() and digits.isdigit():
        return int(digits)
    tens, _, ones = written.partition("十")
    if "十" not in written:
        return _NUMERALS.get(written) if len(written) == 1 else None
    high = _NUMERALS.get(tens, None) if tens else 1
    low = _NUMERALS.get(ones, None) if ones else 0
    return None if high is None or low is None else high * 10 + low


def _at(hour: int, minute: int) -> str | None:
    return f"{hour:02}:{minute:02}" if 0 <= hour <= 23 and 0 <= minute <= 59 else None
