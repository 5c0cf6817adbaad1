"""A city's IANA timezone, from the tz database's own names: "Tokyo" is `Asia/Tokyo`.

`zone_of(place)` is the zone of `zoneinfo.available_timezones()` whose last part is the place's
name (any case, blanks for `_`: "new york" is `America/New_York`), among the zones of the
database's regions (`Europe/...`, `Asia/...`; not the old aliases `Japan`, `US/Eastern`). Where
two zones end in the same city, the one with more parts wins (`America/Argentina/Buenos_Aires`
over its old alias `America/Buenos_Aires`), then the first in sorted order: the same answer on
every machine with the same database. The table is read once, when a timezone is first asked for.

A major city's Chinese name is read as the database's name of it (`CHINESE_NAMES`: 东京 is Tokyo,
纽约 New York; a trailing 市 is no part of the name: 东京市), then looked up as any name is: a
translation, no judgement of which city lies in which zone.

Leaves out: every city the database does not name (Beijing is in `Asia/Shanghai`, San Francisco
in `America/Los_Angeles`; 北京 too), names in other languages than English and Chinese, the Chinese
names of smaller cities, and a machine without a tz database
(Windows without the `tzdata` package): no zone, and the gateway asks the user for one
(`generic.missing`) rather than send another city's.
"""

from __future__ import annotations

import functools
import zoneinfo

_REGIONS = ("Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")


CHINESE_NAMES = {
    # Asia
    "东京": "Tokyo", "首尔": "Seoul", "上海": "Shanghai",
    "乌鲁木齐": "Urumqi", "香港": "Hong Kong", "澳门": "Macau", "台北": "Taipei", "新加坡": "Singapore",
    "曼谷": "Bangkok", "雅加达": "Jakarta", "马尼拉": "Manila", "吉隆坡": "Kuala Lumpur", "胡志明": "Ho Chi Minh",
    "仰光": "Yangon", "加尔各答": "Kolkata", "加德满都": "Kathmandu", "达卡": "Dhaka",
    "卡拉奇": "Karachi", "迪拜": "Dubai", "利雅得": "Riyadh", "德黑兰": "Tehran", "巴格达": "Baghdad",
    "耶路撒冷": "Jerusalem", "乌兰巴托": "Ulaanbaatar", "塔什干": "Tashkent", "平壤": "Pyongyang",
    # Europe
    "伦敦": "London", "巴黎": "Paris", "柏林": "Berlin", "马德里": "Madrid", "罗马": "Rome",
    "阿姆斯特丹": "Amsterdam", "布鲁塞尔": "Brussels", "维也纳": "Vienna", "苏黎世": "Zurich",
    "斯德哥尔摩": "Stockholm", "奥斯陆": "Oslo", "哥本哈根": "Copenhagen", "赫尔辛基": "Helsinki",
    "华沙": "Warsaw", "布拉格": "Prague", "布达佩斯": "Budapest", "雅典": "Athens", "里斯本": "Lisbon",
    "都柏林": "Dublin", "莫斯科": "Moscow", "伊斯坦布尔": "Istanbul",
    # Africa
    "开罗": "Cairo", "约翰内斯堡": "Johannesburg", "拉各斯": "Lagos", "内罗毕": "Nairobi",
    "卡萨布兰卡": "Casablanca",
    # the Americas
    "纽约": "New York", "芝加哥": "Chicago", "洛杉矶": "Los Angeles", "丹佛": "Denver", "凤凰城": "Phoenix",
    "多伦多": "Toronto", "温哥华": "Vancouver", "墨西哥城": "Mexico City", "圣保罗": "Sao Paulo",
    "布宜诺斯艾利斯": "Buenos Aires", "利马": "Lima", "波哥大": "Bogota", "檀香山": "Honolulu",
    "安克雷奇": "Anchorage", "哈瓦那": "Havana",
    # Oceania
    "悉尼": "Sydney", "墨尔本": "Melbourne", "布里斯班": "Brisbane", "珀斯": "Perth", "阿德莱德": "Adelaide",
    "奥克兰": "Auckland",
}  # fmt: skip
"""A major city's Chinese name → the tz database's name of it (`zone_of` looks that up)."""


_IN_CHINESE = {city: chinese for chinese, city in CHINESE_NAMES.items()}


def chinese_name(city: str) -> str | None:
    """A city's Chinese name (`CHINESE_NAMES`; the tz database's name, blanks for `_`), or None."""
    return _IN_CHINESE.get(city.replace("_", " "))


def zone_of(place: str) -> str | None:
    """The IANA zone named after `place` (a city as the user wrote it, in English or by its Chinese name), or None."""
    key = " ".join(place.replace("_", " ").split())
    if not key.isascii():
        key = CHINESE_NAMES.get(key.removesuffix("市"), key)
    return _cities().get(key.casefold())


@functools.cache
def _cities() -> dict[str, str]:
    """City (case-folded, blanks for `_`) → its zone, for the zones of the database's regions."""
    try:
        zones = zoneinfo.available_timezones()
    except (OSError, ValueError):  # no readable database
        return {}
    found: dict[str, str] = {}
    for zone in sorted((z for z in zones if z.split("/", 1)[0] in _REGIONS), key=lambda z: (-z.count("/"), z)):
        found.setdefault(zone.rsplit("/", 1)[-1].replace("_", " ").casefold(), zone)
    return found
