"""A month's name is no place: "weather in May" asks which city, "flights to Nice in March" is no flight from March.

The `place` fact reads a capitalised name after "in", "to", "from" (and a lower-case one ending the question), so
"What's the weather like in May?" called `get_weather(city="May")`, "weather in march" the city "march", and 五月的
天气 the city 五月: a month, not a place. `is_month(value)` says whether a value the pattern found is only a month's
name (January ... December, Sept; 一月 ... 十二月, 1月 ... 12月, 五月份), so the filler passes over it, and
`without_month(value)` takes a month glued to a Chinese place off it (北京十月的天气: 北京; 5月的上海天气, whose digit the place pattern leaves out, 上海): the next place
the text names is taken, or, when it names none, the gateway asks for one as it asks for any place not given.
Left out: abbreviations other than Sept (Mar, May and Jun are words or names too), and months in other languages.
"""

from __future__ import annotations

import re

_MONTHS = frozenset(
    "january february march april may june july august september october november december sept".split()
)
_ZH_MONTH = re.compile(r"(?:[1-9]|1[0-2]|[一二三四五六七八九十]|十[一二])月份?")
_ZH_ENDS = re.compile(
    r"^月份?的|^(?:(?:1[0-2]|[1-9]|十[一二]|[一二三四五六七八九十])月份?的?)|(?:(?:1[0-2]|[1-9]|十[一二]|[一二三四五六七八九十])月份?的?)$"
)


def without_month(value: str) -> str:
    """A Chinese place with the month glued to it taken off ("北京十月": 北京, "十月北京": 北京); "" when the value is a
    month and nothing else; any other value as it is."""
    if value.isascii():
        return "" if value.lower() in _MONTHS else value
    return "" if _ZH_MONTH.fullmatch(value) else _ZH_ENDS.sub("", value)


def is_month(value: str) -> bool:
    """Whether the place `value` is a month's name and nothing else ("May", "march", 五月, 12月份)."""
    return value.lower() in _MONTHS or _ZH_MONTH.fullmatch(value) is not None
