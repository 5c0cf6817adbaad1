"""A template variable's value as the prompt shows it: models and dataclasses inside lists and
dicts are JSON objects (not their Python repr), an enum is its value, a date is ISO."""

import dataclasses
import datetime as dt
import enum

from pydantic import BaseModel

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
    assert as_text(Point(2)) == '{"x": 2}' and as_text(Color.RED) == '"红"'
    assert as_text(dt.datetime(2026, 10, 20, 9, 5)) == '"2026-10-20T09:05:00"'
    assert render("商品：{{items}}", {"items": [Item(sku="SN1", qty=2)]}) == '商品：[{"sku": "SN1", "qty": 2}]'
    # what was right stays so
    assert as_text("x") == "x" and as_text(3) == "3" and as_text(["中"]) == '["中"]' and as_text(None) == "null"
    assert as_text(Item(sku="SN1", qty=2)) == '{"sku":"SN1","qty":2}'
