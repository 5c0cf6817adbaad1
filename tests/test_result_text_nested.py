"""The rules for one value hold wherever it is nested (`toolkit.tools.result_text.to_text`): a finite
`Decimal` is a JSON number with all its digits in a dataclass, set or deque too (it was a
string there), and an int too long to write costs only itself, not the whole value (the whole
value became "<a list that cannot be shown as text>")."""

import collections
import dataclasses
import decimal

import pytest

from toolkit.tools.result_text import to_text

PRICE = decimal.Decimal("19.90")
HUGE = 10**5000
NOTE = "<an int that cannot be shown as text>"


@dataclasses.dataclass
class Line:
    sku: str
    price: object


@pytest.mark.parametrize(
    "value, text",
    [
        (Line("A", PRICE), '{"sku": "A", "price": 19.90}'),
        ([Line("A", PRICE), Line("B", 2)], '[{"sku": "A", "price": 19.90}, {"sku": "B", "price": 2}]'),
        ({"prices": {PRICE}}, '{"prices": [19.90]}'),
        ({"prices": frozenset([PRICE])}, '{"prices": [19.90]}'),
        (collections.deque([PRICE, decimal.Decimal("1E+2")]), "[19.90, 100]"),
        ({"line": Line("A", {"net": PRICE})}, '{"line": {"sku": "A", "price": {"net": 19.90}}}'),
    ],
    ids=["dataclass", "dataclass-rows", "set", "frozenset", "deque", "dict-in-dataclass-in-dict"],
)
def test_a_decimal_is_a_json_number_wherever_it_is_nested(value, text):
    assert to_text(value) == text


@pytest.mark.parametrize(
    "value, text",
    [
        ([HUGE, 1, "kept"], f'["{NOTE}", 1, "kept"]'),
        ({"factorial": HUGE, "n": 2000}, f'{{"factorial": "{NOTE}", "n": 2000}}'),
        (Line("A", HUGE), f'{{"sku": "A", "price": "{NOTE}"}}'),
        ({"n": HUGE, "ratio": float("nan")}, f'{{"n": "{NOTE}", "ratio": "NaN"}}'),
    ],
    ids=["list", "dict", "dataclass", "with-nan"],
)
def test_an_int_too_long_to_write_costs_only_itself(value, text):
    assert to_text(value) == text
