"""A city's IANA timezone from the tz database's own names, for a timezone field of a stranger's tool."""

import zoneinfo

import pytest

from toolkit.gateway import zones
from toolkit.gateway.zones import zone_of


@pytest.mark.parametrize(
    ("place", "zone"),
    [
        ("Tokyo", "Asia/Tokyo"),
        ("tokyo", "Asia/Tokyo"),
        ("new york", "America/New_York"),
        ("New  York", "America/New_York"),
        ("Ho Chi Minh", "Asia/Ho_Chi_Minh"),
        ("Port-au-Prince", "America/Port-au-Prince"),
        # two zones end in the city: the one with more parts, not the old alias
        ("Buenos Aires", "America/Argentina/Buenos_Aires"),
        ("Indianapolis", "America/Indiana/Indianapolis"),
    ],
)
def test_a_city_the_database_names_is_its_zone(place, zone):
    assert zone_of(place) == zone


@pytest.mark.parametrize(
    ("place", "zone"),
    [("东京", "Asia/Tokyo"), ("东京市", "Asia/Tokyo"), ("纽约", "America/New_York"), ("圣保罗", "America/Sao_Paulo")],
)
def test_a_major_citys_chinese_name_is_its_zone(place, zone):
    """zoneinfo has no Chinese names: "现在东京几点？" asked the user for the zone of Tokyo."""
    assert zone_of(place) == zone


def test_every_chinese_name_is_a_city_with_a_zone():
    """A translation only: each Chinese name's English name is a city of the database or of `CITY_ZONES`."""
    assert [name for name in zones.CHINESE_NAMES if zone_of(name) is None] == []


@pytest.mark.parametrize(
    ("place", "zone"),
    [
        ("Beijing", "Asia/Shanghai"),
        ("beijing", "Asia/Shanghai"),
        ("北京", "Asia/Shanghai"),
        ("北京市", "Asia/Shanghai"),
        ("San  Francisco", "America/Los_Angeles"),
        ("Osaka", "Asia/Tokyo"),
        ("Shanghai", "Asia/Shanghai"),  # the database's own name first
    ],
)
def test_a_major_city_the_database_does_not_name_keeps_its_zones_time(place, zone):
    """ "北京现在几点？" asked the user for the zone: China has one, Asia/Shanghai, named after another city."""
    assert zone_of(place) == zone


def test_every_city_zone_is_a_zone_of_the_database():
    available = zoneinfo.available_timezones()
    assert [zone for zone in zones.CITY_ZONES.values() if zone not in available] == []


def test_a_zones_city_names_are_its_own_others_and_their_chinese_names():
    names = zones.city_names("Asia/Shanghai")
    assert names[0] == "Shanghai" and {"Beijing", "上海", "北京"} <= set(names)
    assert zones.city_names("America/New_York")[:1] == ["New York"] and "纽约" in zones.city_names("America/New_York")


@pytest.mark.parametrize("place", ["Lhasa", "Springfield", "东京都", "Japan", "Eastern", "the office", "", "Asia"])
def test_a_place_the_database_does_not_name_as_a_city_of_its_regions_has_none(place):
    # the old aliases (Japan, US/Eastern) are no cities; a city it does not name is not guessed
    assert zone_of(place) is None


def test_a_machine_without_a_tz_database_has_no_zones(monkeypatch):
    def unreadable():
        raise OSError("no tz database")

    monkeypatch.setattr(zoneinfo, "available_timezones", unreadable)
    zones._cities.cache_clear()
    try:
        assert zone_of("Tokyo") is None
    finally:
        zones._cities.cache_clear()
