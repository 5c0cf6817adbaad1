"""A template variable's value as the prompt shows it: models and dataclasses inside lists and
dicts are JSON objects (not their Python repr), an enum is its value, a date is ISO; a value whose
JSON is a string (a date, an enum, a Decimal, a UUID, a Path) is that text, without JSON's quotes."""

import dataclasses
import datetime as dt
import decimal
import enum
import uuid
from pathlib import Path

import pytest
from pydantic import BaseModel

from toolkit.errors import ConfigurationError
from toolkit.services.templates import as_text, render


class Item(BaseModel):
    sku: str
    qty: int


class Color(enum.Enum):
    RED = "红"


@dataclasses.dataclass
class Point:
    x: int


def test_models_dataclasses_and_enums_inside_containers_are_json():
    assert as_text([Item(sku="SN1", qty=2)]) == '[{"sku": "SN1", "qty": 2}]'
    assert as_text({"订单": Item(sku="SN2", qty=1)}) == '{"订单": {"sku": "SN2", "qty": 1}}'
    assert as_text([Point(1), Color.RED]) == '[{"x": 1}, "红"]'
    assert as_text(Point(2)) == '{"x": 2}' and as_text(Color.RED) == "红"
    assert as_text(dt.datetime(2026, 10, 20, 9, 5)) == "2026-10-20T09:05:00"
    assert render("商品：{{items}}", {"items": [Item(sku="SN1", qty=2)]}) == '商品：[{"sku": "SN1", "qty": 2}]'
    # what was right stays so
    assert as_text("x") == "x" and as_text(3) == "3" and as_text(["中"]) == '["中"]' and as_text(None) == "null"
    assert as_text(Item(sku="SN1", qty=2)) == '{"sku":"SN1","qty":2}'


class Tagged(BaseModel):
    tags: set[str]


@dataclasses.dataclass
class Labels:
    names: frozenset[str]


def test_a_set_is_written_in_sorted_order_whatever_the_hash_seed():
    # a set's iteration order follows PYTHONHASHSEED: the prompt (and a cassette's request) changed each run
    assert as_text({"北京", "b", "a", "c"}) == '["a", "b", "c", "北京"]'
    assert as_text({10, 9, 3}) == "[3, 9, 10]"
    assert as_text({"k": frozenset({"y", "x"})}) == '{"k": ["x", "y"]}'
    assert as_text([{2, 1}, ("b",)]) == '[[1, 2], ["b"]]'
    assert as_text({1, "a"}) == '["a", 1]'  # no order between them: by their JSON text
    assert as_text(Tagged(tags={"z", "m", "a"})) == '{"tags":["a","m","z"]}'
    assert as_text([Labels(frozenset({"q", "p"}))]) == '[{"names": ["p", "q"]}]'
    assert render("{{t}}", {"t": {"y", "x"}}) == '["x", "y"]'


class Blob(BaseModel):
    data: bytes


def test_bytes_that_are_not_utf8_text_are_refused_naming_the_value():
    with pytest.raises(ConfigurationError) as caught:
        render("看 {{data}}", {"data": b"\xff\x00"})
    assert str(caught.value) == (
        "{{data}}: the value is bytes that are not UTF-8 text (b'\\xff\\x00'), which a prompt cannot hold; "
        "pass text: decode it (data.decode('latin-1')), or base64.b64encode(data).decode()"
    )
    with pytest.raises(ConfigurationError) as caught:
        as_text(Blob(data=b"\x80abc"))
    assert str(caught.value) == (
        "the value is a Blob holding bytes that are not UTF-8 text, which a prompt cannot hold; "
        "pass text: decode it (data.decode('latin-1')), or base64.b64encode(data).decode()"
    )
    assert (
        as_text(b"ok") == "ok" and as_text([b"\xe4\xb8\xad"]) == '["中"]'
    )  # UTF-8 bytes: the text they are (inside a list, as JSON)


class Tier(enum.Enum):
    GOLD = "gold"


class City(str, enum.Enum):
    BJ = "北京"


class Level(enum.IntEnum):
    TWO = 2


def test_a_value_whose_json_is_a_string_is_written_as_its_text_not_quoted():
    # a user reads '出发日期：2026-10-20', not '出发日期："2026-10-20"' (the seed: a simple value is turned into
    # its text; LangChain4j writes a template variable with toString: a date ISO, a Decimal, a UUID as they read)
    assert render("出发日期：{{d}}", {"d": dt.date(2026, 10, 20)}) == "出发日期：2026-10-20"
    assert render("会员：{{tier}}", {"tier": Tier.GOLD}) == "会员：gold"  # the enum's value, as its JSON Schema says
    assert as_text(dt.time(9, 5)) == "09:05:00" and as_text(dt.timedelta(hours=1)) == "PT1H"
    assert as_text(decimal.Decimal("12.50")) == "12.50" and as_text(Path("data/a.txt")) == "data/a.txt"
    assert as_text(uuid.UUID(int=5)) == "00000000-0000-0000-0000-000000000005"
    shown = as_text(City.BJ)  # a str enum: its text, a plain str (str() of it says 'City.BJ')
    assert shown == "北京" and type(shown) is str
    # other scalars are their JSON (as LangChain4j writes null: 'null'), containers stay JSON with quoted strings
    assert as_text(None) == "null" and as_text(True) == "true" and as_text(Level.TWO) == "2" and as_text(1.5) == "1.5"
    assert as_text([dt.date(2026, 1, 1), Tier.GOLD]) == '["2026-01-01", "gold"]'
    assert as_text({"d": decimal.Decimal("1.0")}) == '{"d": "1.0"}'


class Basket:
    """No __str__ of its own: str() of it is its memory address."""


def test_a_value_whose_text_is_its_memory_address_is_refused_not_sent():
    # '<__main__.Basket object at 0x7ff3…>' reached the model: a prompt differing at every run (a cassette
    # recorded with it never matched again), and nothing the model can read
    with pytest.raises(ConfigurationError) as caught:
        render("看 {{basket}}", {"basket": Basket()}, where="ask")
    assert str(caught.value) == (
        "ask: {{basket}}: the value is a Basket, whose text is its memory address (<test_templates_values.Basket "
        "object at 0x…>), different at every run; pass what the model should read: a str, a pydantic model or a "
        "dataclass (written as JSON), or give Basket a __str__"
    )
    with pytest.raises(ConfigurationError) as caught:
        as_text({"cb": len, "f": lambda: 1})  # a builtin's text has no address: it passes; a lambda's has one
    assert str(caught.value).startswith("the value is a function, whose text is its memory address (<function ")

    class Named:
        def __str__(self) -> str:
            return "篮子 3 件"

    assert as_text(Named()) == "篮子 3 件" and as_text([Named()]) == '["篮子 3 件"]'


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def test_a_value_no_text_can_write_out_is_refused_naming_its_placeholder():
    """A list nested 100,000 deep or holding itself raised RecursionError out of the call, one 300 deep pydantic's
    ValueError, a whole number of 5,000 digits Python's ValueError: each is the placeholder's one line now."""
    looped: list = []
    looped.append(looped)
    for value in (_nested(100_000), looped):
        with pytest.raises(ConfigurationError) as caught:
            render("看 {{data}}", {"data": value}, where="ask")
        assert str(caught.value) == (
            "ask: {{data}}: the value is a list nested too deep to write as text (past Python's recursion limit), or "
            "holding itself; pass what the model should read: a flatter value, or its text"
        )
    with pytest.raises(ConfigurationError) as caught:
        render("看 {{data}}", {"data": _nested(300)})
    assert str(caught.value) == (
        "{{data}}: the value is a list that cannot be written as text (Maximum serialization depth exceeded); pass "
        "what the model should read as text"
    )
    with pytest.raises(ConfigurationError) as caught:
        render("看 {{n}}", {"n": {"n": 10**5000}})
    assert str(caught.value) == (
        "{{n}}: the value is a dict that cannot be written as text (Exceeds the limit (4300 digits) for integer "
        "string conversion; use sys.set_int_max_str_digits() to increase the limit); pass what the model should "
        "read as text"
    )
    assert render("看 {{data}}", {"data": _nested(3)}) == "看 [[[[]]]]"
