"""A reasoning model's own fields go back with its reply, under the name its gateway sent them:
vLLM's (and Ollama's) `reasoning`, LiteLLM's `thinking_blocks` for Anthropic (with their
signatures), whole or streamed; a gateway that refuses one of them gets the request again without
it (`toolkit.chat.reasoning_fields`)."""

import json

import httpx
import pytest
from test_client import QUESTION, Script, loop_on_mock_gateway, make
from test_streaming import delta, final, sse

from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.sse import assemble
from toolkit.errors import BadResponseError, CallerError

CALL = {"id": "call_1", "type": "function", "function": {"name": "query_order", "arguments": '{"orderId":"SN1"}'}}
THOUGHT = "The user wants order SN1; call query_order."
SIGNATURE = "EqoBCkgIARABGAIiQL2UoU0b1OHYi+"
SSE = {"content-type": "text/event-stream"}


def test_vllms_reasoning_goes_back_with_the_tool_call():
    """vLLM (since 0.11, `reasoning_content` removed in 0.13) answers with `reasoning` and reads only
    `reasoning` from a history's assistant turns: Kimi K2 or MiniMax-M2 lose their interleaved thinking
    after a tool call unless it comes back. Before: dropped."""
    message = {"role": "assistant", "content": None, "reasoning": THOUGHT, "tool_calls": [CALL]}
    result, sent = loop_on_mock_gateway(message)
    assert sent[1]["reasoning"] == THOUGHT and "reasoning_content" not in sent[1]
    assert result.answer == "Shipped."


def test_vllms_streamed_reasoning_is_joined_and_kept():
    stream = sse(
        delta({"role": "assistant", "content": None, "reasoning": "The user wants"}),
        delta({"reasoning": " order SN1."}),
        delta({"reasoning": None, "tool_calls": [{"index": 0, **CALL}]}),
        delta({}, "tool_calls"),
    )
    message = final(list(assemble(stream))).message
    assert message.extra == {"reasoning": "The user wants order SN1."}
    assert message.to_openai()["reasoning"] == "The user wants order SN1."


def test_reasoning_beside_reasoning_details_is_not_sent_twice_but_beside_reasoning_content_it_is():
    """OpenRouter sends `reasoning` and `reasoning_details` (the signed one): that one goes back alone. vLLM
    between 0.11 and 0.15 sent `reasoning` and `reasoning_content`, and reads only `reasoning` back: both go."""
    both = {
        "role": "assistant",
        "content": "",
        "reasoning_content": THOUGHT,
        "reasoning": THOUGHT,
        "tool_calls": [CALL],
    }
    assert AssistantMessage.from_openai(both).extra == {"reasoning_content": THOUGHT, "reasoning": THOUGHT}
    details = [{"type": "reasoning.text", "text": THOUGHT, "signature": "sig==", "index": 0}]
    routed = {"role": "assistant", "content": "", "reasoning": THOUGHT, "reasoning_details": details}
    assert AssistantMessage.from_openai(routed).extra == {"reasoning_details": details}
    stream = sse(
        delta({"role": "assistant", "reasoning_content": "a", "reasoning": "a"}), delta({"content": "b"}, "stop")
    )
    assert final(list(assemble(stream))).message.extra == {"reasoning_content": "a", "reasoning": "a"}


@pytest.mark.parametrize("streamed", [False, True])
def test_a_reply_that_only_reasoned_in_reasoning_says_so(streamed):
    """Before: vLLM's reply of reasoning only (the answer never came) read "the model said nothing"."""
    if streamed:
        stream = sse(delta({"role": "assistant", "reasoning": THOUGHT}), delta({}, "stop"))
        with pytest.raises(BadResponseError) as caught:
            list(assemble(stream))
    else:
        body = {
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": None, "reasoning": THOUGHT},
                }
            ]
        }
        client, _ = make(Script(httpx.Response(200, json=body)))
        with pytest.raises(BadResponseError) as caught:
            client.chat(QUESTION)
    assert f"the model only reasoned ({len(THOUGHT)} characters of reasoning) and gave no answer" in str(caught.value)


LITELLM_BLOCKS = [{"type": "thinking", "thinking": THOUGHT, "signature": SIGNATURE}]


def test_litellms_thinking_blocks_go_back_with_the_tool_call():
    """LiteLLM's proxy in front of Claude with thinking on answers with `reasoning_content` and
    `thinking_blocks` (signed), and turns the history's `thinking_blocks` back into Anthropic's
    thinking blocks: without them Anthropic refuses the next request ("Expected `thinking` or
    `redacted_thinking`, but found `tool_use`"). Before: `thinking_blocks` were dropped."""
    message = {
        "role": "assistant",
        "content": None,
        "reasoning_content": THOUGHT,
        "thinking_blocks": [*LITELLM_BLOCKS, {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}],
        "tool_calls": [CALL],
    }
    result, sent = loop_on_mock_gateway(message)
    assert sent[1]["thinking_blocks"] == message["thinking_blocks"]
    assert sent[1]["reasoning_content"] == THOUGHT and result.answer == "Shipped."


def test_litellms_streamed_thinking_blocks_are_merged_block_by_block():
    """LiteLLM streams each thinking block as pieces of `thinking` without a signature, then its
    `signature` on a piece with empty text (its Anthropic stream's `signature_delta`); a redacted block
    comes whole. A block is whole once signed: the next piece starts another block."""
    piece = {"type": "thinking", "thinking": "The user wants", "signature": None}
    stream = sse(
        delta({"role": "assistant", "reasoning_content": "The user wants", "thinking_blocks": [piece]}),
        delta({"reasoning_content": " order SN1.", "thinking_blocks": [{**piece, "thinking": " order SN1."}]}),
        delta({"thinking_blocks": [{"type": "thinking", "thinking": "", "signature": SIGNATURE}]}),
        delta({"thinking_blocks": [{"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}]}),
        delta({"thinking_blocks": [{"type": "thinking", "thinking": "Then answer."}]}),
        delta({"thinking_blocks": [{"type": "thinking", "thinking": "", "signature": "c2Vjb25k"}]}),
        delta({"tool_calls": [{"index": 0, **CALL}]}),
        delta({}, "tool_calls"),
    )
    message = final(list(assemble(stream))).message
    assert message.extra == {
        "reasoning_content": "The user wants order SN1.",
        "thinking_blocks": [
            {"type": "thinking", "thinking": "The user wants order SN1.", "signature": SIGNATURE},
            {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"},
            {"type": "thinking", "thinking": "Then answer.", "signature": "c2Vjb25k"},
        ],
    }


GROQ_REFUSAL = {
    "error": {
        "message": "'messages.2' : for 'role:assistant' the following must be satisfied[('messages.2' : property "
        "'reasoning' is unsupported, did you mean 'role'?)]",
        "type": "invalid_request_error",
    }
}
ANSWER = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Shipped."}}]}
HISTORY = [
    UserMessage(content="Where is SN1?"),
    AssistantMessage(
        content=None, tool_calls=(ToolCall(id="call_1", name="query_order"),), extra={"reasoning": THOUGHT}
    ),
]


@pytest.mark.parametrize(
    "refusal",
    [
        GROQ_REFUSAL,
        {"error": {"message": "messages[1].reasoning: reasoning is not supported with this model", "type": "x"}},
        {"detail": [{"loc": ["body", "messages", 1, "reasoning"], "msg": "Extra inputs are not permitted"}]},
    ],
)
def test_a_gateway_refusing_a_kept_field_gets_the_request_again_without_it(refusal):
    """The history was written on a gateway that wanted `reasoning` back; one that refuses the field
    (Groq's 400 for a model that takes none, a strict FastAPI server's 422) is asked again without it,
    and is not sent it again."""
    status = 422 if "detail" in refusal else 400
    script = Script(
        httpx.Response(status, json=refusal), httpx.Response(200, json=ANSWER), httpx.Response(200, json=ANSWER)
    )
    client, sleeps = make(script)
    history = [*HISTORY, AssistantMessage(content="ok", extra={"reasoning": "more", "reasoning_content": "kept"})]
    assert client.chat(history).message.content == "Shipped."
    sent = [json.loads(r.content)["messages"] for r in script.requests]
    assert sent[0][1]["reasoning"] == THOUGHT and sleeps == []
    assert [m.get("reasoning") for m in sent[1]] == [None, None, None]
    assert sent[1][2]["reasoning_content"] == "kept"
    client.chat(history)
    assert "reasoning" not in json.dumps(json.loads(script.requests[2].content)["messages"]).replace(
        "reasoning_content", ""
    )


def test_a_400_naming_reasoning_otherwise_is_raised_as_it_was():
    """Only a field the history carries is left out: a 400 about `reasoning_effort`, or about `reasoning` on a
    request whose history holds none, is the caller's as before."""
    about = {"error": {"message": "reasoning_effort is not supported with this model", "type": "invalid_request_error"}}
    script = Script(httpx.Response(400, json=about))
    client, _ = make(script)
    with pytest.raises(CallerError):
        client.chat(HISTORY)
    script = Script(httpx.Response(400, json=GROQ_REFUSAL))
    client, _ = make(script)
    with pytest.raises(CallerError):
        client.chat(QUESTION)
    assert len(script.requests) == 1


DEEPSEEK_R1_REFUSAL = {  # deepseek-reasoner (R1): api-docs.deepseek.com/guides/reasoning_model, "multi-round conversation"
    "error": {
        "message": "The reasoning_content is an intermediate result for display purposes only and will not be included "
        "in the context for inference. Please remove the reasoning_content from your message to reduce network "
        "traffic.",
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_request_error",
    }
}


@pytest.mark.parametrize(
    "refusal",
    [
        DEEPSEEK_R1_REFUSAL,
        {"code": 20015, "message": DEEPSEEK_R1_REFUSAL["error"]["message"], "data": None},  # a host's own envelope
    ],
)
def test_deepseek_r1s_400_asking_to_remove_reasoning_content_gets_the_request_again_without_it(refusal):
    """R1 refuses its own `reasoning_content` on a later turn (its docs: "the API will return a 400 error"),
    in words that name no refusal but "remove": read only by DeepSeek's `invalid_request_error` type, a host
    serving R1 in its own envelope failed the conversation's next turn with a CallerError."""
    script = Script(
        httpx.Response(400, json=refusal), httpx.Response(200, json=ANSWER), httpx.Response(200, json=ANSWER)
    )
    client, sleeps = make(script)
    history = [
        UserMessage(content="9.11 or 9.8: which is greater?"),
        AssistantMessage(content="9.8", extra={"reasoning_content": "Compare the tenths: 8 > 1."}),
        UserMessage(content="And 9.11 or 9.2?"),
    ]
    assert client.chat(history).message.content == "Shipped."
    sent = [json.loads(r.content)["messages"] for r in script.requests]
    assert sent[0][1]["reasoning_content"] and "reasoning_content" not in sent[1][1] and sleeps == []
    client.chat(history)  # remembered: not sent to this gateway again
    assert "reasoning_content" not in script.requests[2].content.decode()


GEMINI_SIGNED = {"google": {"thought_signature": "CrICAdHtim827fQ=="}}


@pytest.mark.parametrize("streamed", [False, True])
def test_geminis_signature_on_a_plain_reply_goes_back_on_the_next_request(streamed):
    """Gemini's OpenAI-compatible endpoint signs a reply without tool calls on its message (streamed: on
    the first delta, beside the text) and wants it back with that turn. Before: dropped."""
    if streamed:
        body = sse(
            delta({"role": "assistant", "content": "Hello", "extra_content": GEMINI_SIGNED}),
            delta({"content": "!"}, "stop"),
        )
        first = httpx.Response(200, headers=SSE, content="\n".join(body).encode())
    else:
        message = {"role": "assistant", "content": "Hello!", "extra_content": GEMINI_SIGNED}
        first = httpx.Response(200, json={"choices": [{"index": 0, "finish_reason": "stop", "message": message}]})
    again = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Yes."}}]}
    script = Script(first, httpx.Response(200, json=again))
    client, _ = make(script)
    reply = (final(list(client.stream(QUESTION))) if streamed else client.chat(QUESTION)).message
    assert reply.content == "Hello!" and reply.extra == {"extra_content": GEMINI_SIGNED}
    client.chat([*QUESTION, reply, UserMessage(content="Sure?")])
    sent = json.loads(script.requests[1].content)["messages"]
    assert sent[1] == {"role": "assistant", "content": "Hello!", "extra_content": GEMINI_SIGNED}


def test_a_gateway_refusing_geminis_extra_content_gets_the_history_again_without_it():
    """A history written on Gemini, sent to a strict gateway ("Additional properties are not allowed
    ('extra_content' was unexpected)"): sent again without the field, as a refused reasoning field is."""
    refused = {"error": {"message": "Additional properties are not allowed ('extra_content' was unexpected)"}}
    ok = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Yes."}}]}
    script = Script(httpx.Response(400, json=refused), httpx.Response(200, json=ok))
    client, _ = make(script)
    signed = AssistantMessage(content="Hello!", extra={"extra_content": GEMINI_SIGNED})
    assert client.chat([*QUESTION, signed, UserMessage(content="Sure?")]).message.content == "Yes."
    assert "extra_content" not in json.loads(script.requests[1].content)["messages"][1]


@pytest.mark.parametrize(
    "said",
    [
        "Missing `reasoning_content` field in the assistant message at message index 1. For more information, "
        "please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
        "The `reasoning_content` in the thinking mode must be passed back to the API.",
    ],
)
def test_deepseek_asking_for_reasoning_a_turn_lacks_gets_it_empty_and_so_on_after(said):
    """DeepSeek's thinking mode wants `reasoning_content` back on assistant turns (V4: on every one), and a
    history written elsewhere (or a reply that reasoned nothing) has none there. Before: the 400 read
    "fix the body"; the request goes again with the field empty on each assistant turn lacking it."""
    asked = {
        "error": {"message": said, "type": "invalid_request_error", "param": None, "code": "invalid_request_error"}
    }
    ok = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Yes."}}]}
    script = Script(httpx.Response(400, json=asked), *(httpx.Response(200, json=ok) for _ in range(2)))
    client, _ = make(script)
    kept = AssistantMessage(content="Sure.", extra={"reasoning_content": THOUGHT})
    history = [*QUESTION, AssistantMessage(content="Hi."), kept, UserMessage(content="and?")]
    assert client.chat(history).message.content == "Yes."
    again = json.loads(script.requests[1].content)["messages"]
    assert again[1]["reasoning_content"] == "" and again[2]["reasoning_content"] == THOUGHT
    client.chat(history)
    assert (
        len(script.requests) == 3 and json.loads(script.requests[2].content)["messages"][1]["reasoning_content"] == ""
    )


def test_a_gateway_refusing_a_tool_calls_extra_content_gets_the_history_again_without_it():
    """A history with Gemini's signed tool call, sent to a strict gateway: before, only an assistant message's
    own fields were left out when refused, so the call's `extra_content` kept the request refused."""
    refused = {
        "error": {
            "message": "Additional properties are not allowed ('extra_content' was unexpected) - "
            "'messages.1.tool_calls.0'",
        }
    }
    ok = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Yes."}}]}
    script = Script(httpx.Response(400, json=refused), httpx.Response(200, json=ok))
    client, _ = make(script)
    call = ToolCall(id="c1", name="query_order", extra={"extra_content": GEMINI_SIGNED})
    history = [*QUESTION, AssistantMessage(tool_calls=(call,))]
    history += [ToolResultMessage(tool_call_id="c1", tool_name="query_order", content="shipped")]
    assert client.chat(history).message.content == "Yes."
    sent = json.loads(script.requests[1].content)["messages"][1]["tool_calls"][0]
    assert sent == {"id": "c1", "type": "function", "function": {"name": "query_order", "arguments": "{}"}}
