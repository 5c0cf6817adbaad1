"""A city's IANA timezone, from the tz database's own names: "Tokyo" is `Asia/Tokyo`.

`zone_of(place)` is the zone of `zoneinfo.available_timezones()` whose last part is the place's
name (any case, blanks for `_`: "new york" is `America/New_York`), among the zones of the
database's regions (`Europe/...`, `Asia/...`; not the old aliases `Japan`, `US/Eastern`). Where
two zones end in the same city, the one with more parts wins (`America/Argentina/Buenos_Aires`
over its old alias `America/Buenos_Aires`), then the first in sorted order: the same answer on
every machine with the same database. The table is read once, when a timezone is first asked for.

A major city the database does not name is read as the zone it keeps the time of (`CITY_ZONES`:
Beijing is `Asia/Shanghai`, China's one zone; San Francisco `America/Los_Angeles`), after the
database's own names (a city that names a zone is that zone). A major city's Chinese name is read
as its English name (`CHINESE_NAMES`: 东京 is Tokyo, 北京 Beijing; a trailing 市 is no part of the
name: 东京市), then looked up as any name is. `city_names(zone)` are the names a text may write a
zone's city by (`Asia/Shanghai`: Shanghai, Beijing, ..., 上海, 北京, ...).

Leaves out: smaller cities the database does not name (Lhasa, Springfield: the gateway asks for
the zone rather than guess), names in other languages than English and Chinese, the Chinese
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
    # cities the database does not name (`CITY_ZONES`)
    "北京": "Beijing", "广州": "Guangzhou", "深圳": "Shenzhen", "杭州": "Hangzhou", "南京": "Nanjing",
    "成都": "Chengdu", "武汉": "Wuhan", "西安": "Xi'an", "天津": "Tianjin", "苏州": "Suzhou",
    "重庆": "Chongqing", "大阪": "Osaka", "京都": "Kyoto", "釜山": "Busan", "新德里": "New Delhi",
    "孟买": "Mumbai", "班加罗尔": "Bangalore", "旧金山": "San Francisco", "西雅图": "Seattle",
    "华盛顿": "Washington", "波士顿": "Boston", "迈阿密": "Miami", "休斯敦": "Houston", "达拉斯": "Dallas",
    "拉斯维加斯": "Las Vegas", "蒙特利尔": "Montreal", "里约热内卢": "Rio de Janeiro",
    "巴塞罗那": "Barcelona", "米兰": "Milan", "慕尼黑": "Munich", "法兰克福": "Frankfurt",
    "曼彻斯特": "Manchester", "日内瓦": "Geneva", "圣彼得堡": "Saint Petersburg",
}  # fmt: skip
"""A major city's Chinese name → its English name: the tz database's, or `CITY_ZONES`' (`zone_of` looks that up)."""


CITY_ZONES = {
    "Beijing": "Asia/Shanghai", "Guangzhou": "Asia/Shanghai", "Shenzhen": "Asia/Shanghai",
    "Hangzhou": "Asia/Shanghai", "Nanjing": "Asia/Shanghai", "Chengdu": "Asia/Shanghai", "Wuhan": "Asia/Shanghai",
    "Xi'an": "Asia/Shanghai", "Xian": "Asia/Shanghai", "Tianjin": "Asia/Shanghai", "Suzhou": "Asia/Shanghai",
    "Chongqing": "Asia/Shanghai", "Peking": "Asia/Shanghai",
    "Osaka": "Asia/Tokyo", "Kyoto": "Asia/Tokyo", "Busan": "Asia/Seoul",
    "Delhi": "Asia/Kolkata", "New Delhi": "Asia/Kolkata", "Mumbai": "Asia/Kolkata", "Bangalore": "Asia/Kolkata",
    "Bengaluru": "Asia/Kolkata", "Chennai": "Asia/Kolkata", "Hyderabad": "Asia/Kolkata",
    "San Francisco": "America/Los_Angeles", "Seattle": "America/Los_Angeles", "San Diego": "America/Los_Angeles",
    "Las Vegas": "America/Los_Angeles", "Portland": "America/Los_Angeles",
    "Washington": "America/New_York", "Washington DC": "America/New_York", "Boston": "America/New_York",
    "Miami": "America/New_York", "Atlanta": "America/New_York", "Philadelphia": "America/New_York",
    "Houston": "America/Chicago", "Dallas": "America/Chicago", "Austin": "America/Chicago",
    "Montreal": "America/Toronto", "Ottawa": "America/Toronto", "Rio de Janeiro": "America/Sao_Paulo",
    "Barcelona": "Europe/Madrid", "Milan": "Europe/Rome", "Munich": "Europe/Berlin",
    "Frankfurt": "Europe/Berlin", "Hamburg": "Europe/Berlin", "Manchester": "Europe/London",
    "Edinburgh": "Europe/London", "Geneva": "Europe/Zurich", "Saint Petersburg": "Europe/Moscow",
    "St Petersburg": "Europe/Moscow",
}  # fmt: skip
"""A major city the tz database names no zone after → the zone it keeps the time of (read after the
database's own names: a city that names a zone is that zone, `Asia/Chongqing` or `America/Montreal` where
the database keeps those old links). Facts of the calendar, not rules."""


_IN_CHINESE = {city: chinese for chinese, city in CHINESE_NAMES.items()}
_CITY_ZONES = {city.casefold(): zone for city, zone in CITY_ZONES.items()}


def chinese_name(city: str) -> str | None:
    """A city's Chinese name (`CHINESE_NAMES`; the tz database's name, blanks for `_`), or None."""
    return _IN_CHINESE.get(city.replace("_", " "))


def zone_of(place: str) -> str | None:
    """The IANA zone of `place` (a city as the user wrote it, in English or by its Chinese name): the zone named
    after it, else the one `CITY_ZONES` gives it (when the database has that zone), else None."""
    key = " ".join(place.replace("_", " ").split())
    if not key.isascii():
        key = CHINESE_NAMES.get(key.removesuffix("市"), key)
    cities = _cities()
    found = cities.get(key.casefold())
    if found is None and (other := _CITY_ZONES.get(key.casefold())) is not None and cities:
        return other if other.rsplit("/", 1)[-1].replace("_", " ").casefold() in cities else None
    return found


def city_names(zone: str) -> list[str]:
    """The names a text may write `zone`'s cities by: the city it is named after (blanks for `_`), the cities
    `CITY_ZONES` gives it, and the Chinese names of all of them (`CHINESE_NAMES`)."""
    own = zone.rsplit("/", 1)[-1].replace("_", " ")
    english = [own, *_OTHER_CITIES.get(zone, ())]
    return [*english, *(c for c in map(_IN_CHINESE.get, english) if c is not None)]


_OTHER_CITIES: dict[str, list[str]] = {}
for _city, _zone in CITY_ZONES.items():
    _OTHER_CITIES.setdefault(_zone, []).append(_city)


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
