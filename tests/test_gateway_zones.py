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


def test_every_chinese_name_is_a_city_the_database_names():
    """A translation only: each Chinese name's English name is a city of the database (no zone judged)."""
    assert [name for name in zones.CHINESE_NAMES if zone_of(name) is None] == []


@pytest.mark.parametrize(
    "place", ["Beijing", "San Francisco", "北京", "东京都", "Japan", "Eastern", "the office", "", "Asia"]
)
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
