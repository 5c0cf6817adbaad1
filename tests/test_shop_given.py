"""`toolkit.course.shop` and `.assistant`: the week-3 shop given the wrong shapes, refused where it is made.

`load_shop(5)`, `load_shop(b"data")` and `load_shop(["data"])` were pathlib's raw `TypeError`;
`load_shop(today="2026-10-20")` was kept as a str and `today=5` as an int (the first refund-policy call
then failed on `today.isoformat()`); `shop_registry("shop")`, `shop_registry(5)` and
`shop_registry(load_shop)` (the function) made a registry whose every tool failed when called. The
date is now read as ISO text (a datetime counts as its date), and each of the others is a
`ConfigurationError` naming the fix."""

import datetime

import pytest

from toolkit.course.assistant import ask, shop_registry
from toolkit.course.shop import load_shop
from toolkit.course.validation import validate
from toolkit.errors import ConfigurationError

FOLDER = "the folder that holds orders.json, logistics.json and refund_policies.json (a str or a Path)"


def said(make) -> str:
    with pytest.raises(ConfigurationError) as caught:
        make()
    return str(caught.value)


@pytest.mark.parametrize(
    ("data_dir", "text"),
    [
        (5, f"load_shop(5): data_dir is {FOLDER}, and got an int. Fix: leave it out for the course's data, or "
         "pass the folder, e.g. load_shop('data')"),
        (b"data", f"load_shop(b'data'): data_dir is {FOLDER}, and got a bytes. Fix: decode it: "
         "load_shop(b'data'.decode())"),
        (["data"], f"load_shop(['data']): data_dir is {FOLDER}, and got a list. Fix: give one folder, e.g. "
         "load_shop('data')"),
    ],
)  # fmt: skip
def test_a_folder_that_is_no_path_is_refused(data_dir, text):
    assert said(lambda: load_shop(data_dir)) == text


def test_today_as_iso_text_or_a_datetime_is_that_day():
    day = datetime.date(2026, 10, 20)
    assert load_shop(today="2026-10-20").today == day
    assert type(load_shop(today=datetime.datetime(2026, 10, 20, 9, 30)).today) is datetime.date
    shop = load_shop(today="2026-10-20")
    assert shop.run(validate("query_refund_policy", '{"category": "数码"}', today=shop.today)) == load_shop(
        today=day
    ).run(validate("query_refund_policy", '{"category": "数码"}', today=day))


def test_today_that_is_no_date_is_refused():
    assert said(lambda: load_shop(today=5)) == (
        "load_shop(today=5): today is the shop's date, a datetime.date or its ISO text, and got an int. Fix: e.g. "
        "today=datetime.date(2026, 10, 25) or today='2026-10-25', or leave it out for the session's date"
    )
    assert said(lambda: load_shop(today="next monday")) == (
        "load_shop(today='next monday'): that text is no ISO date (YYYY-MM-DD). Fix: e.g. today='2026-10-25' or "
        "today=datetime.date(2026, 10, 25)"
    )


@pytest.mark.parametrize(
    ("shop", "text"),
    [
        ("shop", "shop_registry(shop='shop'): shop takes a Shop, and got a str. Fix: shop_registry(shop=load_shop()), "
         "or leave it out for the course's shop"),
        (5, "shop_registry(shop=5): shop takes a Shop, and got an int. Fix: shop_registry(shop=load_shop()), or leave "
         "it out for the course's shop"),
        (load_shop, "shop_registry(shop=load_shop): shop takes a Shop, and got the function load_shop. Fix: call it: "
         "shop_registry(shop=load_shop())"),
    ],
)  # fmt: skip
def test_a_shop_that_is_no_shop_is_refused_when_the_registry_is_made(shop, text):
    assert said(lambda: shop_registry(shop)) == text


def test_ask_refuses_it_before_asking_the_model():
    assert said(lambda: ask(None, "hi", shop="shop")) == (
        "ask(shop='shop'): shop takes a Shop, and got a str. Fix: ask(shop=load_shop()), or leave it out for the "
        "course's shop"
    )


@pytest.mark.parametrize(
    ("today", "read_as", "day"),
    [
        ("2026-W43-1", "an ISO week date", "2026-10-19"),
        ("2026-W01-1", "an ISO week date", "2025-12-29"),  # a day of the year before
        ("2026W43", "an ISO week date", "2026-10-19"),  # a week, read as its Monday
        ("20261025", "a date without dashes", "2026-10-25"),
    ],
)
def test_today_written_as_another_iso_spelling_is_refused_naming_the_day_it_stands_for(today, read_as, day):
    """Before: Python 3.11's `date.fromisoformat` read these silently (2026-W01-1 as 2025-12-29), while the error
    and the docs said YYYY-MM-DD."""
    assert said(lambda: load_shop(today=today)) == (
        f"load_shop(today={today!r}): that text is no ISO date (YYYY-MM-DD) ({read_as}, for {day}). Fix: today='{day}'"
    )
