"""`toolkit.gateway.arith`: the sum a text asks for, its expression, numbers and operations; none in a date."""

import pytest

from toolkit.gateway.arith import operation_value, operations, read


@pytest.mark.parametrize(
    ("text", "expression", "ops"),
    [
        ("what is 15% of 80", "0.15 * 80", ("mul",)),
        ("15 percent of 80", "0.15 * 80", ("mul",)),
        ("80 的 15%", "0.15 * 80", ("mul",)),
        ("百分之15乘以80", "0.15 * 80", ("mul",)),
        ("what is 2+3*4", "2 + 3 * 4", ("add", "mul")),
        ("7 x 6", "7 * 6", ("mul",)),
        ("3.5 multiplied by 2", "3.5 * 2", ("mul",)),
        ("100 除以 4 减 5", "100 / 4 - 5", ("div", "sub")),
        ("10 - 4", "10 - 4", ("sub",)),
    ],
)
def test_a_sum_is_read_in_symbols(text, expression, ops):
    found = read(text)
    assert found is not None and found.expression == expression and found.operations == ops


@pytest.mark.parametrize(
    "text", ["2026-12-04", "on 2026/12/04", "12/03/2026", "version 2-3", "call 555-1234", "10:30", "百分之15", ""]
)
def test_no_sum_in_dates_codes_or_a_bare_share(text):
    assert read(text) is None


def test_an_enum_of_operations_gives_the_value_of_one():
    assert operation_value(["add", "sub", "mul", "div"], "mul") == "mul"
    assert operation_value(["+", "-", "*", "/"], "div") == "/"
    assert operation_value(["Multiply", "Divide"], "add") is None  # none of it is that operation
    assert not operations(["mul", "celsius"]) and operation_value(["sum", "other"], "add") is None


@pytest.mark.parametrize(
    ("text", "expression"),
    [
        ("calculate (12.5+7)/3", "(12.5+7)/3"),
        ("what is (2 + 3) * 4?", "(2 + 3) * 4"),
        ("((1+2)*3)-4 please", "((1+2)*3)-4"),
        ("2*(3+4)", "2*(3+4)"),
    ],
)
def test_a_sum_with_brackets_is_given_as_written(text, expression):
    """ "calculate (12.5+7)/3" gave the expression "12.5 + 7": the sum up to its first bracket, another value."""
    found = read(text)
    assert found is not None and found.expression == expression


@pytest.mark.parametrize(("text", "expression"), [("(1+2", "1 + 2"), ("2+3)", "2 + 3")])
def test_brackets_that_do_not_pair_up_are_left_out(text, expression):
    found = read(text)
    assert found is not None and found.expression == expression
