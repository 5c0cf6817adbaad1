"""What an argument error says is valid, bounded. A parameter of an `Enum` of 10,000 SKUs (or an MCP
tool's `enum` of 10,000 values) answered a wrong value with every one of them: 130 KB (a
`[\"v0v0…\"]`-sized enum, 1 MB) in one tool result, on every wrong call. `expected` past
`EXPECTED_SHOWN` characters is cut after the last whole value that fits, saying how long it was;
the tool's schema, which the model was sent, still lists them all."""

import enum
import json

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.errors import EXPECTED_SHOWN, ArgumentError, ArgumentProblem
from toolkit.mcp.schema import checked_arguments
from toolkit.tools.execute import execute, function_tool

Sku = enum.Enum("Sku", {f"S{i}": f"sku-{i:05d}" for i in range(10_000)})


def order(sku: Sku) -> str:
    """Order one `sku`."""
    return "ok"


def test_a_wrong_value_of_a_large_enum_is_answered_with_the_first_values_that_fit():
    with pytest.raises(ArgumentError) as caught:
        execute(ToolCall(id="1", name="order", arguments=json.dumps({"sku": "nope"})), [function_tool(order)])
    (problem,) = caught.value.problems
    shown = problem.expected
    assert len(shown) <= EXPECTED_SHOWN
    assert shown.startswith("one of 'sku-00000', 'sku-00001', ")
    assert shown.endswith(", 'sku-00071', 'sku-00072', … (cut at 1,000 of 130,007 characters)")  # whole values


def test_an_mcp_tools_large_enum_is_cut_the_same_way():
    schema = {"type": "object", "properties": {"q": {"enum": list(range(10_000))}}, "required": ["q"]}
    (problem,) = checked_arguments(schema, {"q": "x"})[1]
    assert problem.line().startswith('- q: got "x", expected one of 0, 1, 2, ')
    assert problem.line().endswith(", 211, 212, … (cut at 1,000 of 58,895 characters)")


@pytest.mark.parametrize(
    ("expected", "shown"),
    [
        ("an integer", "an integer"),
        ("x" * EXPECTED_SHOWN, "x" * EXPECTED_SHOWN),
        ("x" * 5000, "x" * 964 + "… (cut at 1,000 of 5,000 characters)"),
    ],
)
def test_expected_text_within_the_limit_is_kept_and_one_without_values_is_cut_plainly(expected, shown):
    problem = ArgumentProblem("q", '"x"', expected)
    assert problem.expected == shown
    assert len(problem.expected) <= EXPECTED_SHOWN
