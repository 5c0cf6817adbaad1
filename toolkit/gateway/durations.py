"""A length of time the user writes, given to a number field named in a unit of time, in that unit.

"set a timer for 5 hours" to `set_timer(minutes)` was 5 minutes, "90 min" to `park(hours)` a number the bounds
refused, "plan a trip to Rome for 2 weeks" to `days` 2: the number was passed as written, whatever its unit. The
rule: a field whose name names a unit of time (a plural or an abbreviation: `minutes`, `duration_minutes`,
`timeoutSecs`, `num_days`, `nights` (a night a day), `hrs`; a name that is a singular alone, `minute` or `day`, is a clock's or a calendar's
part) or, failing that, whose description names one unit only, as a plural ("Length in minutes") takes the duration the text
writes converted to that unit ("5 hours": 300 minutes; "90 min": 1.5 hours; "2 weeks": 14 days; "an hour and a
half", "2 hours 30 minutes", 一个半小时, 半小时, 两周, 三天). A field naming no unit takes the number as said.

`durations(text)` finds each duration written, in order, as (start, end, seconds). `unit_of(name, description)`
is the field's unit in seconds, or None. `spoken(text, name, unit, others, turn)` is the duration for one field:
the one written beside a word of the field's own name ("a 15 minute buffer" for `buffer_minutes`), else, among
those written beside no other field's word, the `turn`-th.
Left out: months and years (no fixed length), clock times ("at 7pm" is no duration), ranges ("2-3 hours", the
first is read), "1h30m" (read as one hour) and fractions other than a half.
"""

from __future__ import annotations

import functools
import re

from toolkit.gateway.worded import _PARTS, _WORD
from toolkit.gateway.worded import _value as _worded_value
from toolkit.gateway.zh_numbers import _value as _zh_value

_SECONDS = {"s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800}
_NAMED_UNITS = {
    **dict.fromkeys(("seconds", "secs", "sec"), "s"),
    **dict.fromkeys(("minutes", "mins", "min"), "m"),
    **dict.fromkeys(("hours", "hrs", "hr"), "h"),
    **dict.fromkeys(("days", "nights"), "d"),
    **dict.fromkeys(("weeks", "wks"), "w"),
}
"""The words of a field's name that name its unit (lower case)."""
_DESCRIBED = re.compile(r"(?i)(?<![a-z])(second|minute|hour|day|week)s(?![a-z])")
"""A unit a description names: a plural ("Length in minutes", "Number of days"; "Day of the month" is none)."""
_GENERIC = frozenset(("duration", "length", "time", "total", "num", "number", "of", "in", "the", "for", "max", "min"))
"""Words of a field's name that say nothing of which duration it is."""
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")

_EN_UNIT = r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|nights?|weeks?|wks?)"
_EN = (
    rf"(?<![\w.-])(?P<n>\d+(?:\.\d+)?|an?|(?:{_WORD})(?:[\s-]+(?:{_WORD}))*)(?:\s+and\s+a\s+(?P<half1>half))?"
    rf"[\s-]*(?P<u>{_EN_UNIT})(?![A-Za-z])(?:\s+and\s+a\s+(?P<half2>half))?"
    rf"|(?<![A-Za-z])half\s+(?:an?\s+)?(?P<hu>hour|day|minute|week)(?![A-Za-z])"
)
_ZH_UNIT = r"(?:小时|钟头|分钟|秒钟|秒|天|晚|周(?!年)|星期(?![一二三四五六日天])|礼拜(?![一二三四五六日天]))"
_ZH = rf"(?:(?<!第)(?P<zn>\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千]+)个?(?P<zh>半)?|(?P<zhalf>半)个?)(?P<zu>{_ZH_UNIT})"
_DURATION = re.compile(f"(?i){_EN}|{_ZH}")
_CUE = re.compile(r"(?i)hour|hr|\d\s?h|sec|min|day|night|week|wk|小时|钟头|分钟|秒|天|晚|周|星期|礼拜")
_JOIN = re.compile(r"[\s,]*(?:and\s+)?\Z")
_EN_UNITS = {
    "sec": "s",
    "min": "m",
    "h": "h",
    "hr": "h",
    "hou": "h",
    "day": "d",
    "nig": "d",
    "wee": "w",
    "wk": "w",
    "wks": "w",
}
_ZH_UNITS = {
    "小时": "h",
    "钟头": "h",
    "分钟": "m",
    "晚": "d",
    "秒钟": "s",
    "秒": "s",
    "天": "d",
    "周": "w",
    "星期": "w",
    "礼拜": "w",
}
_MAX_READ = 2_000


@functools.lru_cache(maxsize=1024)
def unit_of(name: str, description: str) -> int | None:
    """Seconds in the unit of time the field `name` is in: named by its name (`duration_minutes`: 60), else by its
    `description` when that names one unit only; None for a field in no unit (`duration`, `minute`, `day`)."""
    words = [w.lower() for w in _NAME_WORDS.findall(name)]
    units = {_NAMED_UNITS[w] for w in words if w in _NAMED_UNITS}
    if len(units) == 1:
        return _SECONDS[units.pop()]
    described = {m.group(1).lower() for m in _DESCRIBED.finditer(description[:_MAX_READ])}
    return _SECONDS[described.pop()[0]] if len(described) == 1 and not units else None


@functools.lru_cache(maxsize=1024)
def own_words(name: str) -> frozenset[str]:
    """The words of the field's name that say which duration it is (`buffer_minutes`: buffer)."""
    words = {w.lower() for w in _NAME_WORDS.findall(name)}
    return frozenset(w for w in words if len(w) > 2 and w not in _NAMED_UNITS and w not in _GENERIC)


@functools.lru_cache(maxsize=256)
def durations(text: str) -> tuple[tuple[int, int, float], ...]:
    """Each duration the text writes, as (start, end, seconds), in order; several written together ("2 hours 30
    minutes", "1小时20分钟") are one. () when none (a text without a unit's word is not searched)."""
    text = text[:_MAX_READ]
    if _CUE.search(text) is None:
        return ()
    found: list[tuple[int, int, float]] = []
    for match in _DURATION.finditer(text):
        seconds = _seconds(match)
        if seconds is None:
            continue
        if found and _JOIN.match(text, found[-1][1], match.start()) and seconds < found[-1][2]:
            start, _, before = found.pop()  # "2 hours 30 minutes": one duration
            found.append((start, match.end(), before + seconds))
        else:
            found.append((match.start(), match.end(), seconds))
    return tuple(found)


def _seconds(match: re.Match[str]) -> float | None:
    """The seconds one match writes, or None (a run of words that is no number)."""
    groups = match.groupdict()
    if groups["hu"] is not None:
        return 0.5 * _SECONDS[_EN_UNITS[groups["hu"].lower()[:3]]]
    if groups["u"] is not None:
        number = _number(groups["n"])
        unit = groups["u"].lower()
        key = unit[:3] if unit[:3] in _EN_UNITS else unit[:2] if unit[:2] in _EN_UNITS else unit[:1]
        half = 0.5 if groups["half1"] or groups["half2"] else 0.0
        return None if number is None else (number + half) * _SECONDS[_EN_UNITS[key]]
    number = 0.0 if groups["zhalf"] is not None else _number(groups["zn"])
    half = 0.5 if groups["zh"] or groups["zhalf"] else 0.0
    return None if number is None else (number + half) * _SECONDS[_ZH_UNITS[groups["zu"]]]


def _number(written: str) -> float | None:
    """5, 1.5, "a", "an", "two", "twenty five", 两, 十五 as a number; None for what is none."""
    lowered = written.lower()
    if lowered in ("a", "an"):
        return 1.0
    if lowered[:1].isdigit():
        return float(lowered)
    if lowered[:1].isascii():
        value = _worded_value(_PARTS.findall(lowered))
    else:
        value = _zh_value(written)
    return None if value is None else float(value)


def spoken(
    text: str, name: str, unit: int, others: tuple[str, ...], turn: int, *, optional: bool = False
) -> float | None:
    """The duration the text writes for the field `name` in its `unit` (seconds in it), or None: the one written
    beside a word of its own name, else the `turn`-th of those written beside no word of the `others` (the names
    of the other fields in a unit of time), the last when there are fewer (none for an `optional` field: it takes
    no duration another field took)."""
    found = durations(text)
    if not found:
        return None
    lowered = text[:_MAX_READ].lower()
    own = own_words(name)
    if own and (beside := [d for d in found if own & _beside(lowered, d)]):
        return beside[0][2] / unit
    theirs = frozenset().union(*(own_words(n) for n in others)) if others else frozenset()
    free = [d for d in found if not theirs & _beside(lowered, d)]
    if optional and turn >= len(free):
        return None
    return free[min(turn, len(free) - 1)][2] / unit if free else None


_AROUND = re.compile(r"[a-z]+")


def _beside(lowered: str, duration: tuple[int, int, float]) -> frozenset[str]:
    """The word right after a duration and the two before it, each also without a plural's s."""
    after = _AROUND.findall(lowered, duration[1], min(len(lowered), duration[1] + 20))[:1]
    before = _AROUND.findall(lowered, max(0, duration[0] - 24), duration[0])[-2:]
    words = [*after, *before]
    return frozenset(words + [w[:-1] for w in words if w.endswith("s")])
