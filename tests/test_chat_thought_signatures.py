"""Gemini 3 refuses a history whose tool call carries no thought signature (one written on another
gateway): the request goes again with Google's documented stand-in on each unsigned turn's first call,
and so on with that gateway (`toolkit.chat.thought_signatures`)."""

import json

import httpx
from test_client import QUESTION, Script, make

from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.thought_signatures import SKIP, refuses_unsigned, signed

MISSING = [
    {
        "error": {
            "code": 400,
            "message": "Function call is missing a thought_signature in functionCall parts. This is required for "
            "tools to work correctly, and missing thought_signature may lead to degraded model performance. "
            "Additional data, function call `default_api:query_order` , position 2. please refer to "
            "https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
            "status": "INVALID_ARGUMENT",
        }
    }
]
SIGNED = {"google": {"thought_signature": "c2lnbmF0dXJl"}}
OK = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Shipped."}}]}


def _history(*turns):
    messages = list(QUESTION)
    for i, extra in enumerate(turns):
        calls = (ToolCall(id=f"c{i}a", name="query_order", extra=extra), ToolCall(id=f"c{i}b", name="query_order"))
        messages += [AssistantMessage(tool_calls=calls)]
        messages += [ToolResultMessage(tool_call_id=c.id, tool_name=c.name, content="shipped") for c in calls]
    return messages


def test_an_unsigned_history_is_sent_again_with_the_stand_in_and_so_on_after():
    """Before: Gemini's 400 reached the learner as "the gateway rejected the request body; fix it"."""
    script = Script(httpx.Response(400, json=MISSING), httpx.Response(200, json=OK), httpx.Response(200, json=OK))
    client, _ = make(script)
    history = _history({}, {"extra_content": SIGNED})
    assert client.chat(history).message.content == "Shipped."
    first, again = (json.loads(r.content)["messages"] for r in script.requests)
    assert "extra_content" not in first[1]["tool_calls"][0]
    stood_in = {"google": {"thought_signature": SKIP}}
    assert again[1]["tool_calls"][0]["extra_content"] == stood_in  # the unsigned turn's first call
    assert "extra_content" not in again[1]["tool_calls"][1]  # Gemini signs a turn's first call only
    assert again[4]["tool_calls"] == first[4]["tool_calls"]  # a signed turn goes as it came
    client.chat([*history, UserMessage(content="and?")])
    later = json.loads(script.requests[2].content)["messages"]
    assert len(script.requests) == 3 and later[1]["tool_calls"][0]["extra_content"] == stood_in


def test_only_gemini_s_refusal_of_an_unsigned_call_is_read_so():
    unsigned = json.loads(json.dumps([m.to_openai() for m in _history({})]))
    said = MISSING[0]["error"]["message"]
    assert refuses_unsigned(said, unsigned)
    assert refuses_unsigned("Function call `query_order` in the `1.` content block is missing a `thought_signature`.",
                            unsigned)  # fmt: skip
    assert not refuses_unsigned(said, signed(unsigned))  # once stood in: nothing more to sign, no loop
    assert not refuses_unsigned("Invalid JSON payload received.", unsigned)
    assert not refuses_unsigned(said, [m.to_openai() for m in QUESTION])  # no call to sign
    other = [{**unsigned[1], "tool_calls": [{**unsigned[1]["tool_calls"][0], "extra_content": {"other": 1}}]}]
    assert signed(other)[0]["tool_calls"][0]["extra_content"] == {"other": 1, "google": {"thought_signature": SKIP}}
