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
