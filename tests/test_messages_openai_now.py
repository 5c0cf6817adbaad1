"""Messages the current OpenAI chat-completions API defines, read by `message_from_openai`
(found as a stranger replaying a conversation an OpenAI SDK app stored): the `developer` role,
text parts on system / developer / tool messages, a refusal sent as a content part, and a
reply that answered in audio (its transcript is what the model said)."""

import json

import pytest
from openai.types.chat import ChatCompletion

from toolkit.chat.client import parse_completion
from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolResultMessage, message_from_openai
from toolkit.chat.sse import assemble
from toolkit.errors import BadResponseError

PARTS = [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Answer in English."}]


@pytest.mark.parametrize("role", ["developer", "system"])
def test_a_developer_or_system_message_is_the_system_instruction_with_its_text_parts_joined(role):
    assert message_from_openai({"role": role, "content": "Be brief."}) == SystemMessage(content="Be brief.")
    assert message_from_openai({"role": role, "content": PARTS, "name": "policy"}) == SystemMessage(
        content="Be brief.\nAnswer in English."
    )


def test_a_tool_result_given_as_text_parts_is_read_as_its_text():
    data = {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "shipped"}]}
    assert message_from_openai(data) == ToolResultMessage(tool_call_id="c1", content="shipped")


@pytest.mark.parametrize(
    "data, said",
    [
        (
            {"role": "system", "content": [{"type": "image_url", "image_url": {"url": "https://x/a.png"}}]},
            "content[0] is a part of type 'image_url': a system message's content parts may only be "
            "{'type': 'text', 'text': ...}",
        ),
        (
            {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text"}]},
            "content[0] is a 'text' part without its 'text' field in the right shape: a tool message's content "
            "parts may only be {'type': 'text', 'text': ...}",
        ),
    ],
)
def test_parts_a_system_or_tool_message_cannot_hold_are_still_refused(data, said):
    with pytest.raises(ValueError) as raised:
        message_from_openai(data)
    assert str(raised.value) == said
    with pytest.raises(ValueError, match="content was given None; it should be a valid string"):
        message_from_openai({"role": "developer", "content": None})


def test_a_refusal_sent_as_a_content_part_is_kept_as_the_refusal():
    data = {"role": "assistant", "content": [{"type": "refusal", "refusal": "I can't help with that."}]}
    message = message_from_openai(data)
    assert (message.content, message.refusal, message.text) == (
        None,
        "I can't help with that.",
        "I can't help with that.",
    )
    mixed = {"role": "assistant", "content": [{"type": "text", "text": "Hi."}, {"type": "refusal", "refusal": "No."}]}
    assert message_from_openai(mixed) == AssistantMessage(content="Hi.", refusal="No.")


AUDIO_REPLY = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "gpt-4o-audio-preview",
    "choices": [
        {
            "index": 0,
            "finish_reason": "stop",
            "message": {
                "role": "assistant",
                "content": None,
                "refusal": None,
                "audio": {"id": "audio_1", "data": "UklGRg==", "expires_at": 1, "transcript": "Your order shipped."},
            },
        }
    ],
    "usage": {"prompt_tokens": 5, "completion_tokens": 4, "total_tokens": 9},
}


def test_a_reply_in_audio_is_read_as_its_transcript_not_as_an_empty_reply():
    """`modalities=["text", "audio"]` (passed through `chat(**extra)`): OpenAI answers with
    `content: null` and the words in `audio.transcript`; the client raised "the model's reply is empty"."""
    ChatCompletion.model_validate(AUDIO_REPLY)
    response = parse_completion(json.dumps(AUDIO_REPLY))
    assert response.message == AssistantMessage(content="Your order shipped.")
    assert response.message.to_openai() == {"role": "assistant", "content": "Your order shipped."}


CUSTOM_CALL = {"id": "call_1", "type": "custom", "custom": {"name": "run_sql", "input": "SELECT 1"}}
CUSTOM_SAID = (
    "the model called 'run_sql', a custom tool (free-form input, which OpenAI offers): this toolkit runs "
    "function tools only; send tools of type 'function'"
)


def test_a_custom_tool_call_in_a_reply_is_named_not_called_malformed():
    """A learner who passes OpenAI a `{"type": "custom"}` tool dict through `chat(tools=[...])` gets a
    custom call back: it was "malformed: a tool call has no function name"."""
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-5",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": None, "refusal": None, "tool_calls": [CUSTOM_CALL]},
            }
        ],
    }
    ChatCompletion.model_validate(body)
    with pytest.raises(BadResponseError) as raised:
        parse_completion(json.dumps(body))
    assert str(raised.value).splitlines()[0] == f"choices[0].message: {CUSTOM_SAID}"


def test_a_streamed_custom_tool_call_is_named_too():
    piece = {"index": 0, "id": "call_1", "type": "custom", "custom": {"name": "run_sql", "input": ""}}
    chunk = {
        "id": "c",
        "model": "m",
        "choices": [{"index": 0, "delta": {"tool_calls": [piece]}, "finish_reason": None}],
    }
    with pytest.raises(BadResponseError) as raised:
        list(assemble([f"data: {json.dumps(chunk)}", ""]))
    assert str(raised.value).splitlines()[0] == CUSTOM_SAID


def _streamed(*deltas):
    lines = []
    for delta in [*deltas, {}]:
        finish = "stop" if not delta else None
        lines += ["data: " + json.dumps({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}), ""]
    return [e for e in assemble([*lines, "data: [DONE]", ""])][-1].response.message


@pytest.mark.parametrize(
    "whole, deltas, said",
    [
        (
            {"role": "assistant", "content": "", "refusal": "I can't help with that."},
            [{"role": "assistant", "content": ""}, {"refusal": "I can't "}, {"refusal": "help with that."}],
            "I can't help with that.",
        ),
        (
            {"role": "assistant", "content": "", "audio": {"id": "a1", "transcript": "Your order shipped."}},
            [{"role": "assistant", "content": ""}, {"audio": {"id": "a1", "transcript": "Your order shipped."}}],
            "Your order shipped.",
        ),
    ],
    ids=["refusal", "audio"],
)
def test_an_empty_content_beside_a_refusal_or_a_transcript_is_read_as_no_content_as_streamed(whole, deltas, said):
    """A relay that writes a null content as "" (the refusal, or the answer in audio, is the
    reply): the whole reply's text was "" (the loop's answer empty, the refusal not sent back, a
    structured method parsing "" instead of reporting the refusal), the same reply streamed said it."""
    message = message_from_openai(whole)
    assert message == _streamed(*deltas)
    assert (message.text, message.to_openai()["content"]) == (said, said)


def test_an_empty_content_alone_or_beside_tool_calls_stays_as_it_came():
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    assert message_from_openai({"role": "assistant", "content": ""}).content == ""
    assert message_from_openai({"role": "assistant", "content": "", "tool_calls": [call]}).content == ""
