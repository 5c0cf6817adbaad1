"""Undeclared fields where a model or a dict says what is allowed: a model with extra="allow"
takes extra fields (its author allowed them); the values of a `dict[str, Model]` are models, so a
field they do not declare is refused, never silently dropped."""

import pytest
from pydantic import BaseModel, ConfigDict

from toolkit.errors import OutputParsingError
from toolkit.services.structured import OutputType


class Item(BaseModel):
    sku: str


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")
    order_id: str


class Stock(BaseModel):
    by_store: dict[str, Item]


def test_a_model_that_allows_extra_fields_gets_them():
    value = OutputType(Loose).parse('{"order_id": "SN1", "note": "加急"}')
    assert value == Loose(order_id="SN1", note="加急") and value.model_extra == {"note": "加急"}


@pytest.mark.parametrize(
    "declared, answer, problem",
    [
        (Stock, '{"by_store": {"杭州": {"sku": "A", "qty": 3}}}', "by_store.杭州.qty: not a field"),
        (dict[str, Item], '{"value": {"k": {"sku": "A", "zz": 1}}}', "value.k.zz: not a field"),
        (list[dict[str, Item]], '{"value": [{"k": {"sku": "A", "zz": 1}}]}', "value.0.k.zz: not a field"),
    ],
)
def test_a_field_a_dict_value_does_not_declare_is_refused_not_dropped(declared, answer, problem):
    with pytest.raises(OutputParsingError) as info:
        OutputType(declared).parse(answer)
    assert str(info.value) == f"the JSON does not match the schema ({problem})"


class Pair(BaseModel):
    first: tuple[Item, int]


def test_a_field_a_tuple_place_does_not_declare_is_refused_not_dropped():
    with pytest.raises(OutputParsingError) as info:
        OutputType(Pair).parse('{"first": [{"sku": "A", "zz": 1}, 2]}')
    assert str(info.value) == "the JSON does not match the schema (first.0.zz: not a field)"
    assert OutputType(Pair).parse('{"first": [{"sku": "A"}, 2]}') == Pair(first=(Item(sku="A"), 2))
