"""The embedded gateway on strangers' queries (round 13): a sum in a statement about oneself computes nothing."""

import pytest
from test_gateway_generic_asks import S, fn, turn

CALC = fn("calculate", "Evaluate a math expression", {"expression": S})


# --- a statement about oneself is no sum to compute -----------------------------------------------


@pytest.mark.parametrize("text", ["I have 2 + 2 kids", "we were 3 + 4 at dinner", "我有 2 加 2 个孩子"])
def test_a_sum_in_a_statement_about_oneself_calls_no_calculator(text):
    """ "I have 2 + 2 kids" called calculate(expression="2 + 2"): the text without its sum is a statement
    (`[generic] statement`, which a number kept from matching), and a statement asks nothing."""
    assert turn(text, [CALC])[0] == []


@pytest.mark.parametrize(
    ("text", "expression"),
    [("I wonder what 2 + 2 is", "2 + 2"), ("I need 15% of 80", "0.15 * 80"), ("2 + 2 kids", "2 + 2")],
)
def test_a_sum_asked_about_oneself_is_still_computed(text, expression):
    assert turn(text, [CALC])[0] == [("calculate", {"expression": expression})]
