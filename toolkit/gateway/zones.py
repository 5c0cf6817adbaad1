"""A city's IANA timezone, from the tz database's own names: "Tokyo" is `Asia/Tokyo`.

`zone_of(place)` is the zone of `zoneinfo.available_timezones()` whose last part is the place's
name (any case, blanks for `_`: "new york" is `America/New_York`), among the zones of the
database's regions (`Europe/...`, `Asia/...`; not the old aliases `Japan`, `US/Eastern`). Where
two zones end in the same city, the one with more parts wins (`America/Argentina/Buenos_Aires`
over its old alias `America/Buenos_Aires`), then the first in sorted order: the same answer on
every machine with the same database. The table is read once, when a timezone is first asked for.

Leaves out: every city the database does not name (Beijing is in `Asia/Shanghai`, San Francisco
in `America/Los_Angeles`), names in other languages (东京), and a machine without a tz database
(Windows without the `tzdata` package): no zone, and the gateway asks the user for one
(`generic.missing`) rather than send another city's.
"""

from __future__ import annotations

import functools
import zoneinfo

_REGIONS = ("Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")


def zone_of(place: str) -> str | None:
    """The IANA zone named after `place` (a city as the user wrote it), or None."""
    return _cities().get(" ".join(place.replace("_", " ").split()).casefold())


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
