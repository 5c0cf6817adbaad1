"""`toolkit.chat.messages.TokenUsage`: summed as numbers are. `sum(usages)` without a start value
was a raw `TypeError` (`int + TokenUsage`), and `usage + 3` a raw `AttributeError`."""

import pytest

from toolkit.chat.messages import TokenUsage


def test_sum_without_a_start_value_adds_the_usages():
    usages = [TokenUsage(input_tokens=3, output_tokens=1), TokenUsage(input_tokens=5, output_tokens=2)]
    assert sum(usages) == TokenUsage(input_tokens=8, output_tokens=3) == sum(usages, TokenUsage())
    assert sum([TokenUsage(input_tokens=None, output_tokens=1)]) == TokenUsage(input_tokens=None, output_tokens=1)


@pytest.mark.parametrize("other", [3, None, "3", 1.0])
def test_adding_what_is_no_usage_is_pythons_unsupported_operand_error(other):
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+"):
        TokenUsage(input_tokens=1, output_tokens=1) + other
    with pytest.raises(TypeError):  # a str says "can only concatenate str"
        other + TokenUsage(input_tokens=1, output_tokens=1)
