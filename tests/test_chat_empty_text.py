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


NULL_TEXT_REFUSALS = [
    {  # mistral-common's OpenAI-compatible app (mistralai/mistral-common#324), a FastAPI 422
        "detail": [
            {
                "type": "string_type",
                "loc": ["body", "messages", 1, "content", "str"],
                "msg": "Input should be a valid string",
            },
            {
                "type": "list_type",
                "loc": ["body", "messages", 1, "content", "list"],
                "msg": "Input should be a valid list",
            },
        ]
    },
    {  # a relay checking as OpenAI checks a turn without calls
        "error": {
            "message": "Invalid value for 'content': expected a string, got null.",
            "type": "invalid_request_error",
        }
    },
]
CALLED = AssistantMessage(content=None, tool_calls=(ToolCall(id="call_1", name="query_order"),))


@pytest.mark.parametrize("refusal", NULL_TEXT_REFUSALS, ids=["422", "400"])
def test_a_gateway_refusing_a_null_text_beside_tool_calls_gets_it_empty(refusal):
    """Before: "HTTP 422: body.messages.1.content.str: Input should be a valid string; … — the request was
    rejected; fix it (not retried)" after the loop's tools ran. Now the request goes again with that
    text "", and so do the later ones; a turn with text keeps it."""
    history = [UserMessage(content="Where is SN1?"), CALLED, AssistantMessage(content="Shipped.")]
    status = 422 if "detail" in refusal else 400
    replies = [httpx.Response(status, json=refusal), httpx.Response(200, json=ANSWER), httpx.Response(200, json=ANSWER)]
    script = Script(*replies)
    client, sleeps = make(script)
    assert client.chat(history).message.content == "Shipped." and sleeps == []
    sent = [json.loads(r.content)["messages"] for r in script.requests]
    assert [m["content"] for m in sent[0]] == ["Where is SN1?", None, "Shipped."]
    assert [m["content"] for m in sent[1]] == ["Where is SN1?", "", "Shipped."]
    client.chat(history)
    assert json.loads(script.requests[2].content)["messages"][1]["content"] == ""
    assert client.null_text_refused and not client.empty_text_refused


def test_a_gateway_refusing_both_forms_is_sent_each_once_and_its_second_refusal_raised():
    history = [UserMessage(content="Where is SN1?"), CALLED]
    script = Script(httpx.Response(422, json=NULL_TEXT_REFUSALS[0]), httpx.Response(400, json=EMPTY_TEXT_REFUSALS[0]))
    client, _ = make(script)
    with pytest.raises(CallerError) as caught:
        client.chat(history)
    assert str(caught.value).startswith("HTTP 400: messages: text content blocks must be non-empty — ")
    assert [json.loads(r.content)["messages"][1]["content"] for r in script.requests] == [None, ""]


@pytest.mark.parametrize(
    "said",
    [
        "body.messages.0.content.str: Input should be a valid string",  # the user's message, not the turn
        "messages[2].content: Input should be a valid string",
        "Invalid value for 'temperature': expected a number, got null.",
    ],
)
def test_a_null_text_refusal_naming_another_message_or_field_is_raised(said):
    script = Script(httpx.Response(400, json={"error": {"message": said}}))
    client, _ = make(script)
    with pytest.raises(CallerError):
        client.chat([UserMessage(content="Where is SN1?"), CALLED])
    assert len(script.requests) == 1 and not client.null_text_refused
