"""`_Record.__eq__` answers equal records of the module's own classes itself (quicker than
pydantic's Python `__eq__`); every comparison gives what pydantic's own equality gives."""

import itertools

from pydantic import BaseModel, PrivateAttr

from toolkit.chat.messages import (
    AssistantMessage,
    ChatResponse,
    SystemMessage,
    TokenUsage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)


class Tagged(UserMessage):
    """A learner's subclass with a private attribute: pydantic compares it too."""

    _tag: str = PrivateAttr(default="")


def pydantic_says(a: object, b: object) -> bool:
    """What `a == b` is under pydantic's own `BaseModel.__eq__` (either side may decline)."""
    for left, right in ((a, b), (b, a)):
        if isinstance(left, BaseModel):
            answer = BaseModel.__eq__(left, right)
            if answer is not NotImplemented:
                return bool(answer)
    return a is b


def records() -> list[object]:
    call = ToolCall(id="c1", name="add", arguments='{"a":1}')
    tagged, other_tag = Tagged(content="hi"), Tagged(content="hi")
    other_tag._tag = "x"
    return [
        call,
        ToolCall(id="c1", name="add", arguments='{"a":1}'),
        ToolCall(id="c1", name="add", arguments='{"a":2}'),
        ToolCall(id="c1", name="add", arguments='{"a":1}', extra={"k": 1}),
        SystemMessage(content="hi"),
        UserMessage(content="hi"),
        UserMessage(content="hi"),
        UserMessage(content="hi", images=("data:image/png;base64,AA==",)),
        tagged,
        other_tag,
        Tagged(content="hi"),
        UserMessage(content="hi").model_copy(update={"not_a_field": 1}),
        AssistantMessage(tool_calls=(call,)),
        AssistantMessage(tool_calls=(ToolCall(id="c1", name="add", arguments='{"a":1}'),)),
        AssistantMessage(content="hi"),
        AssistantMessage(content="hi", refusal="no"),
        ToolResultMessage(tool_call_id="c1", tool_name="add", content="3"),
        ToolResultMessage(tool_call_id="c1", tool_name="add", content="3"),
        ToolResultMessage(tool_call_id="c1", tool_name="add", content="3", attributes={"a": [1]}),
        ToolResultMessage(tool_call_id="c1", tool_name="add", content="3", is_error=True),
        TokenUsage(input_tokens=1, output_tokens=2),
        TokenUsage(input_tokens=1, output_tokens=2),
        TokenUsage(),
        ChatResponse(message=AssistantMessage(content="hi"), usage=TokenUsage(input_tokens=1)),
        ChatResponse(message=AssistantMessage(content="hi"), usage=TokenUsage(input_tokens=1)),
        ChatResponse(message=AssistantMessage(content="hi"), id="x"),
        "hi",
        None,
        {"role": "user", "content": "hi"},
    ]


def test_every_comparison_is_pydantics():
    items = records()
    wrong = [
        (i, j)
        for (i, a), (j, b) in itertools.product(enumerate(items), repeat=2)
        if (a == b) is not pydantic_says(a, b) or (a != b) is pydantic_says(a, b)
    ]
    assert not wrong
    assert sum(a == b for a, b in itertools.product(items, repeat=2)) > len(items)  # equal copies were compared


def test_equal_records_hash_alike_and_stay_usable_in_sets():
    assert hash(UserMessage(content="hi")) == hash(UserMessage(content="hi"))
    assert len({TokenUsage(input_tokens=1), TokenUsage(input_tokens=1), TokenUsage()}) == 2
