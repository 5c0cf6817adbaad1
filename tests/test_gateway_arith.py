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


def test_the_screens_skip_only_texts_without_a_sum(monkeypatch):
    """`read` searches a text only if it holds what a sum must (`_MAY_PERCENT`, `_MAY_CHAIN`): the same sums as
    searching every text, on texts of every operation, case and blank, and on texts that come near one."""
    import itertools
    import random

    from toolkit.gateway import arith

    pieces = ["3", "４", "15", "2.5", "-7", " ", "  ", "\u3000", "%", "％", "percent", "PER CENT", "Per\tcent", "of"]
    pieces += ["的", "百分之", "+", "-", "−", "*", "×", "x", "X", "/", "÷", "PLUS", "added to", "Minus", "less"]
    pieces += ["TIMES", "multiplied by", "Divided By", "over", "加", "加上", "减", "减去", "乘", "乘以", "除以", "ref"]
    rng = random.Random(7)
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 9))) for _ in range(6000)]
    numbers, blanks = ["3", "４", "2.5", "-7", "1/2"], ["", " ", "\u3000", "\t "]
    texts += ["".join(p) for p in itertools.product(numbers, blanks, pieces, blanks, numbers[:3])]
    shares = ["%", "％", "percent", "PER CENT", "Per\tcent", "% OF", "的"]
    texts += ["".join(p) for p in itertools.product(numbers[:3], blanks, shares, [" of ", "Of", "的"], numbers[:3])]
    screened = [arith.read(text) for text in texts]
    monkeypatch.setattr(arith, "_MAY_PERCENT", arith.re.compile(""))
    monkeypatch.setattr(arith, "_MAY_CHAIN", arith.re.compile(""))
    assert screened == [arith.read(text) for text in texts]
    assert sum(s is not None for s in screened) > 2000  # the texts hold many sums, of every kind


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
