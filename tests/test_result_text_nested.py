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


def _holding_itself(kind: str) -> object:
    if kind == "list":
        value: list = []
        value.append(value)
        return value
    if kind == "dict":
        mapping: dict = {}
        mapping["self"] = mapping
        return mapping
    deep: list = []  # 5,000 lists in each other: no cycle, deeper than Python recurses (1,000 by default)
    for _ in range(5_000):
        deep = [deep]
    return deep


@pytest.mark.parametrize("kind", ["list", "dict", "deep"])
def test_a_value_holding_itself_or_nested_past_the_recursion_limit_is_a_result_not_a_crash(kind):
    """A tool's list or dict that holds itself (a tree whose nodes point back up) crashed the loop with a
    RecursionError, looking for coroutines in it before the value was turned into text; the call succeeded:
    its value is its text, as any value JSON cannot write is (its `str()`, or a note when even that fails)."""
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.loop.run import run_loop
    from toolkit.tools.decorator import tool

    value = _holding_itself(kind)

    @tool("the tree")
    def tree() -> object:
        return value

    result = run_loop(ScriptedModel([[call("tree")], "done"]), [UserMessage(content="go")], tools=[tree])
    text = result.new_messages[1].content
    assert result.answer == "done" and not result.new_messages[1].is_error
    assert text == {"list": "[[...]]", "dict": "{'self': {...}}"}.get(kind, text) and text
