"""An assistant turn that only calls tools, with `content: ""` as its gateway sent it, goes back as it
came; a strict relay that refuses the empty text gets the request again with it null
(`toolkit.chat.empty_text`)."""

import json

import httpx
import pytest
from test_client import Script, make

from toolkit.chat.messages import AssistantMessage, ToolCall, UserMessage
from toolkit.errors import CallerError

ANSWER = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Shipped."}}]}


EMPTY_TEXT_REFUSALS = [
    # Anthropic behind a strict relay (new-api's strict mode, LiteLLM, Requesty): an assistant turn's "" becomes an
    # empty text block
    {"error": {"message": "messages: text content blocks must be non-empty", "type": "invalid_request_error"}},
    {  # Bedrock's Converse API behind a relay
        "message": "The text field in the ContentBlock object at messages.1.content.0 is blank. Add text to the text "
        "field, and try again."
    },
]


@pytest.mark.parametrize("refusal", EMPTY_TEXT_REFUSALS)
def test_a_gateway_refusing_an_empty_text_beside_tool_calls_gets_it_as_null(refusal):
    """DeepSeek, Ollama and others answer a tool call with `content: ""`, which goes back as it came; a strict
    relay refuses a history holding it (NousResearch/hermes-agent#31583). The request goes again with that
    text null (OpenAI's own form of a turn that only calls tools), and so do the later ones."""
    history = [
        UserMessage(content="Where is SN1?"),
        AssistantMessage(content="", tool_calls=(ToolCall(id="call_1", name="query_order"),)),
        AssistantMessage(content="Shipped."),
    ]
    replies = [httpx.Response(400, json=refusal), httpx.Response(200, json=ANSWER), httpx.Response(200, json=ANSWER)]
    script = Script(*replies)
    client, sleeps = make(script)
    assert client.chat(history).message.content == "Shipped." and sleeps == []
    sent = [json.loads(r.content)["messages"] for r in script.requests]
    assert [m["content"] for m in sent[0]] == ["Where is SN1?", "", "Shipped."]
    assert [m["content"] for m in sent[1]] == ["Where is SN1?", None, "Shipped."]
    client.chat(history)
    assert json.loads(script.requests[2].content)["messages"][1]["content"] is None


def test_an_empty_text_refusal_without_such_a_turn_is_raised():
    script = Script(httpx.Response(400, json=EMPTY_TEXT_REFUSALS[0]))
    client, _ = make(script)
    with pytest.raises(CallerError):
        client.chat([UserMessage(content="")])
    assert len(script.requests) == 1
