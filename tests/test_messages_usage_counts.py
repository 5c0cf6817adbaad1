"""`toolkit.chat.messages.TokenUsage`: a count is 0 or more. `TokenUsage(input_tokens=-3)` was
accepted, and a view then showed `input -3 · total 0`."""

import pytest
from pydantic import ValidationError

from toolkit.chat.messages import TokenUsage


@pytest.mark.parametrize("field", ["input_tokens", "output_tokens"])
@pytest.mark.parametrize("count", [-3, -1])
def test_a_negative_count_is_refused_naming_the_field(field, count):
    with pytest.raises(ValidationError) as caught:
        TokenUsage(**{field: count})
    (error,) = caught.value.errors()
    assert (error["loc"], error["type"], error["msg"]) == (
        (field,),
        "greater_than_equal",
        "Input should be greater than or equal to 0",
    )


def test_zero_and_not_reported_counts_are_still_taken():
    assert TokenUsage(input_tokens=0, output_tokens=None).line() == "input 0 · output not reported · total not reported"
    assert TokenUsage.from_openai({"prompt_tokens": -3, "completion_tokens": 2}).input_tokens is None


def _usage(prompt, completion, total, reasoning):
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": total,
        "completion_tokens_details": {"reasoning_tokens": reasoning},
    }


@pytest.mark.parametrize(
    "usage, output",
    [
        (_usage(10, 5, 300, 285), 290),  # xAI (Grok): reasoning counted beside completion_tokens, in the total
        (_usage(10, 290, 300, 285), 290),  # OpenAI: completion_tokens holds the reasoning already
        (_usage(10, 5, 15, 285), 5),  # a total that does not say so: the completion_tokens as sent
        (_usage(10, 5, None, 285), 5),
        (_usage(10, 5, 300, "285"), 5),  # a count not sent as a number: as sent (week 1's decision)
        ({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 300}, 5),  # no details: no guess
    ],
)
def test_reasoning_a_gateway_counts_beside_the_completion_is_output(usage, output):
    """xAI's usage counts a reasoning model's thinking in `completion_tokens_details.reasoning_tokens`
    beside `completion_tokens` (its `total_tokens` adds all three); OpenAI's `completion_tokens`
    already holds it. Before: Grok's output read 5 where 290 were generated (and billed)."""
    assert TokenUsage.from_openai(usage) == TokenUsage(input_tokens=10, output_tokens=output)
