"""A JSON number whose float is not the number written (`1e-400` → 0.0, `1e23` → 99999999999999991611392.0,
`1.0000000000000000001` → 1.0, `1e400` → inf). An `int` parameter took the float's reading: `1e-400` became 0
without a word (and `1e23` the wrong integer), where `"1e-400"` in quotes, or 1e-300, was "expected an
integer". Now an integer is read from what the model wrote (`json_repair.Written`), as `"1e23"` is: `1e-400` is
refused, `1e23` is 10**23; a float parameter still takes the float (IEEE: 1e-400 is 0.0), and an error shows
the number as written (`got 1e400`, not `got Infinity`)."""

from decimal import Decimal
from typing import Any, Literal

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.tools import json_repair
from toolkit.tools.decorator import tool
from toolkit.tools.execute import FEED_BACK_ALL, execute, tools_from


@tool
def count(n: int = 0, xs: list[int] | None = None, pick: Literal[0, 1] = 1, x: float = 0.5, a: Any = None) -> str:
    """Count."""
    return repr((n, xs, pick, x, a, type(x).__name__, type(a).__name__))


@tool
def priced(n: int, price: Decimal) -> str:
    """Price."""
    return repr((n, price))


def _run(fn, arguments: str):
    tools = tools_from(fn)
    return execute(ToolCall(id="c1", name=tools[0].name, arguments=arguments), tools, None, FEED_BACK_ALL)


@pytest.mark.parametrize(
    "fn, arguments, line",
    [
        (count, '{"n": 1e-400}', "- n: got 1e-400, expected an integer"),
        (count, '{"n": -1e-400}', "- n: got -1e-400, expected an integer"),
        (count, '{"n": 1.0000000000000000001}', "- n: got 1.0000000000000000001, expected an integer"),
        (count, '{"xs": [1, 1e-400]}', "- xs[1]: got 1e-400, expected an integer"),
        (count, '{"pick": 1e-400}', "- pick: got 1e-400, expected one of 0 or 1"),
        (count, '{"x": 1e400}', "- x: got 1e400, expected a finite number"),
        (count, "{'n': 1e-400,}", "- n: got 1e-400, expected an integer"),  # repaired text too
        (priced, '{"n": 1e-400, "price": 1.5}', "- n: got 1E-400, expected an integer"),  # read exact
    ],
)
def test_a_number_whose_float_is_whole_is_an_integer_only_if_written_whole(fn, arguments, line):
    result = _run(fn, arguments)
    assert result.is_error, result.content
    assert line in result.content.splitlines()


@pytest.mark.parametrize(
    "arguments, got",
    [
        ('{"n": 1e23}', (10**23, None, 1, 0.5, None, "float", "NoneType")),
        ('{"n": 9007199254740993.0}', (9007199254740993, None, 1, 0.5, None, "float", "NoneType")),
        ('{"xs": [2.0, 1e23], "pick": 1.0}', (0, [2, 10**23], 1, 0.5, None, "float", "NoneType")),
        ('{"x": 1e-400, "a": 1e-400}', (0, None, 1, 0.0, 0.0, "float", "float")),
        ('{"a": {"b": [1e23]}}', (0, None, 1, 0.5, {"b": [1e23]}, "float", "dict")),
    ],
)
def test_an_integer_is_the_number_written_and_a_float_is_its_plain_float(arguments, got):
    result = _run(count, arguments)
    assert not result.is_error, result.content
    assert result.content == repr(got)


_SEEN: list[Any] = []


@tool
def keep(data: dict[str, Any]) -> str:
    """Keep."""
    _SEEN.append(data)
    return "kept"


def test_any_value_holds_plain_floats_at_every_depth():
    _SEEN.clear()
    assert not _run(keep, '{"data": {"b": [1e23, {"c": 1e-400}], "d": 1e23}}').is_error
    held = _SEEN[0]
    assert [type(v) for v in (held["b"][0], held["b"][1]["c"], held["d"])] == [float, float, float]


@pytest.mark.parametrize("text", ["1e-400", "1e23", "-1.0000000000000000001", "1e400", "9007199254740993.0"])
def test_a_written_number_is_its_float_with_its_text(text):
    value = json_repair.loads(f"[{text}]")[0]
    assert type(value) is json_repair.Written and value.text == text
    assert value == float(text) and repr(value) == repr(float(text))


@pytest.mark.parametrize("text", ["0.0", "27.0", "-0.0", "2.5", "1e3", "0.1", "123456789012345.0"])
def test_a_float_that_is_the_number_written_stays_a_plain_float(text):
    assert type(json_repair.loads(f"[{text}]")[0]) is float
