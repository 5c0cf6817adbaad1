"""A month's name is no place: "weather in May" asks which city, "flights to Nice in March" is no flight from March.

The `place` fact reads a capitalised name after "in", "to", "from" (and a lower-case one ending the question), so
"What's the weather like in May?" called `get_weather(city="May")`, "weather in march" the city "march", and 五月的
天气 the city 五月: a month, not a place. `is_month(value)` says whether a value the pattern found is only a month's
name (January ... December, Sept; 一月 ... 十二月, 1月 ... 12月, 五月份), so the filler passes over it: the next place
the text names is taken, or, when it names none, the gateway asks for one as it asks for any place not given.
Left out: abbreviations other than Sept (Mar, May and Jun are words or names too), and months in other languages.
"""

from __future__ import annotations

import re

_MONTHS = frozenset(
    "january february march april may june july august september october november december sept".split()
)
_ZH_MONTH = re.compile(r"(?:[1-9]|1[0-2]|[一二三四五六七八九十]|十[一二])月份?")


def is_month(value: str) -> bool:
    """Whether the place `value` is a month's name and nothing else ("May", "march", 五月, 12月份)."""
    return value.lower() in _MONTHS or _ZH_MONTH.fullmatch(value) is not None
