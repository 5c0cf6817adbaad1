"""`AssistantMessage(extra=...)` built by hand: a key the message sends itself (`role`, `content`,
`tool_calls`) or that belongs to another message (`tool_call_id`, `function_call`) replaced the
message's own field in `to_openai()` (`extra={"role": "user"}` sent the reply as a user message)."""

import pytest
from pydantic import ValidationError

from toolkit.chat.messages import AssistantMessage, ToolCall, dump_message, load_message
from toolkit.chat.sse import StreamAssembler

FIXES = {
    "role": "an AssistantMessage is always sent as role 'assistant'; for another role build a SystemMessage, "
    "UserMessage or ToolResultMessage",
    "content": "give the text as AssistantMessage(content=...)",
    "tool_calls": "give the calls as AssistantMessage(tool_calls=(ToolCall(id=..., name=..., arguments=...), ...))",
    "function_call": "give the call as AssistantMessage(tool_calls=(ToolCall(id=..., name=..., arguments=...),))",
    "tool_call_id": "a tool's result answers a call: ToolResultMessage(tool_call_id=..., content=...)",
}


@pytest.mark.parametrize("key", FIXES)
def test_a_wire_field_in_extra_is_refused_naming_the_field_to_use(key):
    with pytest.raises(ValidationError) as caught:
        AssistantMessage(content="hi", extra={"reasoning_content": "r", key: "x"})
    (error,) = caught.value.errors()
    assert error["loc"] == ("extra",)
    assert error["msg"] == (
        f"Value error, AssistantMessage(extra=...) holds {key!r}, a message's own wire field, which extra would set "
        "or replace when the message is sent; extra is for a provider's own fields (e.g. 'reasoning_content'). "
        f"Fix: {FIXES[key]}"
    )


def test_a_reply_with_a_providers_fields_still_reads_and_goes_back():
    reply = {
        "role": "assistant",
        "content": None,
        "reasoning_content": "thinking",
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
    }
    message = AssistantMessage.from_openai(reply)
    assert message.to_openai() == reply
    assert load_message(dump_message(message)) == message
    assert AssistantMessage(content="x", extra={"name": "bob"}).to_openai() == {
        "role": "assistant",
        "content": "x",
        "name": "bob",
    }
    assert ToolCall(id="c", name="f", extra={"extra_content": {"t": 1}}).to_openai()["extra_content"] == {"t": 1}


def test_a_streamed_reply_keeps_its_reasoning():
    assembler = StreamAssembler()
    assembler.feed_chunk({"choices": [{"index": 0, "delta": {"reasoning_content": "hm", "content": "ok"}}]})
    assembler.feed_chunk({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    assert assembler.finish().message.extra == {"reasoning_content": "hm"}


CALL = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}


@pytest.mark.parametrize("sent", ["", None])
def test_a_tool_call_reply_with_empty_reasoning_content_sends_it_back_empty(sent):
    """DeepSeek's thinking mode wants the `reasoning_content` of every tool-call turn back, "must be
    passed back to the API" (api-docs.deepseek.com/guides/thinking_mode), even when the model
    reasoned nothing on that turn: without the field the next request is a 400
    (deepseek-ai/deepseek-harness#739, vercel/ai#13203, which send `""`). The empty field was dropped."""
    reply = {"role": "assistant", "content": None, "reasoning_content": sent, "tool_calls": [CALL]}
    message = AssistantMessage.from_openai(reply)
    assert message.extra == {"reasoning_content": ""}
    assert message.to_openai() == {**reply, "reasoning_content": ""}
    assert load_message(dump_message(message)) == message


def test_empty_reasoning_content_is_not_kept_without_tool_calls_or_without_the_field():
    """A turn without tool calls needs none back (DeepSeek ignores it), and a provider that sends no
    `reasoning_content` field gets none."""
    assert AssistantMessage.from_openai({"role": "assistant", "content": "hi", "reasoning_content": ""}).extra == {}
    assert AssistantMessage.from_openai({"role": "assistant", "content": None, "tool_calls": [CALL]}).extra == {}


@pytest.mark.parametrize("sent", ["", None])
def test_a_streamed_tool_call_turn_with_empty_reasoning_content_keeps_it_empty(sent):
    assembler = StreamAssembler()
    assembler.feed_chunk({"choices": [{"index": 0, "delta": {"role": "assistant", "reasoning_content": sent}}]})
    assembler.feed_chunk({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, **CALL}]}}]})
    assembler.feed_chunk({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    assert assembler.finish().message.extra == {"reasoning_content": ""}
    plain = StreamAssembler()
    plain.feed_chunk({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, **CALL}]}}]})
    plain.feed_chunk({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    assert plain.finish().message.extra == {}
