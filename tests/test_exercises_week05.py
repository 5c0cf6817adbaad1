"""Week 5's checks with other learners' code: a schema written another way passes, a default written as another
type than the schema shows fails, saying why."""

from typing import Annotated

import numpy as np
import pytest

from toolkit import Param, tool
from toolkit.exercises import check

DESCRIPTION = "Search the user's orders by words in item names; returns at most `limit` order ids."


def search_with(default):
    @tool(DESCRIPTION)
    def search_orders(
        query: Annotated[str, Param("Words to look for in item names")],
        limit: Annotated[int, Param("At most this many results")] = default,
    ) -> list[str]:
        return []

    return search_orders


def test_a_schema_from_the_docstring_and_a_method_passes():
    class Shop:
        @tool
        def search_orders(self, query: str, n: Annotated[int, Param(name="limit")] = np.int64(10)) -> list[str]:
            """Search the user's orders by words in item names; returns at most `limit` order ids.

            Args:
                query: Words to look for in item names
                n: At most this many results
            """
            return []

    assert check("w5.schema_target", Shop()).status == "passed"
    assert check("w5.schema_target", search_with(10)).status == "passed"


@pytest.mark.parametrize(("default", "written"), [(10.0, "10.0"), ("10", "'10'")])
def test_a_default_written_as_another_type_than_the_schema_shows_fails(default, written):
    """Before: `limit: int = 10.0` passed, "identical to the target": @tool converts the default, so the schema read 10,
    but the function called directly still got 10.0."""
    assert check("w5.schema_target", search_with(default)).feedback == (
        f"parameter 'limit': your default is written {written}; the schema shows 10 because @tool converted it, but "
        f"your function called directly gets {written}: write the default as the schema has it, 10"
    )


def fixed_query(description: str, name: str, param_description: str):
    """A learner's fix of query(arg0): this tool description, parameter name and parameter description."""
    namespace: dict = {}
    exec(
        f"@tool({description!r})\n"
        f"def query_order({name}: Annotated[str, Param({param_description!r})]) -> str:\n"
        f"    return f'order {{{name}}}: shipped'\n",
        {"tool": tool, "Annotated": Annotated, "Param": Param},
        namespace,
    )
    return namespace["query_order"]


@pytest.mark.parametrize(
    ("description", "name", "param_description"),
    [
        ("Look up one order by its id and return its status, items and total.", "order_id", "Order id, e.g. SN1"),
        ("Return the status of a purchase, given its SN number.", "sn", "The purchase's SN, 14 characters"),
        ("根据订单号查询一个订单，返回状态和商品。", "order_no", "订单号，例如 SN202610200001"),
        ("Find one order and say whether it has shipped.", "orderId", "Which order: SN and 12 digits"),
    ],
)
def test_a_fix_that_says_what_the_tool_and_its_parameter_are_passes(description, name, param_description):
    assert check("w5.fix_arg0", fixed_query(description, name, param_description)).status == "passed"


@pytest.mark.parametrize(
    ("description", "name", "param_description", "feedback"),
    [
        (
            "Query data. Query data. Query data.",
            "order_id",
            "Order id, e.g. SN1",
            "the description 'Query data. Query data. Query data.' passes the lint but does not say what the tool "
            "works on: the model chooses by it, so say that it looks up an order (and what it returns)",
        ),
        (
            "TODO: write a description of this tool here later",
            "order_id",
            "Order id, e.g. SN1",
            "the description 'TODO: write a description of this tool here later' passes the lint but does not say "
            "what the tool works on: the model chooses by it, so say that it looks up an order (and what it returns)",
        ),
        (
            "Look up one order by its id and return its status, items and total.",
            "order_id",
            "a string",
            "the parameter's description 'a string' does not say what it holds: the model fills the parameter by "
            "it, so say that it is an order id, and its format",
        ),
        (
            "Look up one order by its id and return its status, items and total.",
            "s",
            "Order id, e.g. SN1",
            "the name 's' does not say what the parameter holds: the model reads it beside the description, so "
            "name it for what it holds (an order id)",
        ),
        (
            "Look up one order by its id and return its status, items and total.",
            "input_str",
            "Order id, e.g. SN1",
            "the name 'input_str' does not say what the parameter holds: the model reads it beside the "
            "description, so name it for what it holds (an order id)",
        ),
        (
            "Look up one order by its id and return its status, items and total.",
            "order_id",
            "order_id",
            "the parameter's description 'order_id' only repeats its name: the model reads the name already, so say "
            "what it holds beyond it: an order id, and its format",
        ),
        (
            "Look up one order by its id and return its status, items and total.",
            "orderId",
            "Order ID.",
            "the parameter's description 'Order ID.' only repeats its name: the model reads the name already, so say "
            "what it holds beyond it: an order id, and its format",
        ),
    ],
)
def test_a_fix_the_lint_misses_but_that_says_nothing_fails(description, name, param_description, feedback):
    """Before: the check was the lint alone, which counts words, so a description repeating 'Query data.', a TODO,
    a parameter described as 'a string' or named `s` passed; and (round 20) a parameter described by its own name,
    `order_id` or "Order ID.", which tells the model nothing the name did not."""
    assert check("w5.fix_arg0", fixed_query(description, name, param_description)).feedback == feedback


def _without_limits_default():
    @tool(DESCRIPTION)
    def search_orders(
        query: Annotated[str, Param("Words to look for in item names")],
        limit: Annotated[int, Param("At most this many results")],
    ) -> list[str]:
        return []

    return search_orders


def _with_a_default_query():
    @tool(DESCRIPTION)
    def search_orders(
        query: Annotated[str, Param("Words to look for in item names")] = "",
        limit: Annotated[int, Param("At most this many results")] = 10,
    ) -> list[str]:
        return []

    return search_orders


@pytest.mark.parametrize(
    ("declared", "feedback"),
    [
        (
            _without_limits_default,
            "required: yours is ['query', 'limit'], the target's is ['query'] — 'limit' is required in yours: "
            "@tool lists a parameter as required when it has no default",
        ),
        (
            _with_a_default_query,
            "required: yours is [], the target's is ['query'] — 'query' is not required in yours: a parameter "
            "with a default is optional",
        ),
    ],
)
def test_a_required_list_that_differs_says_which_parameter_and_why(declared, feedback):
    """Before: 'required: yours is ['query', 'limit'], the target's is ['query']' alone: which parameter, and that
    @tool decides it by the default, was left to the learner to find."""
    result = check("w5.schema_target", declared())
    assert (result.status, result.feedback) == ("failed", feedback)
