"""Mistral (and a server running a Mistral chat template) refuses a history whose tool call ids are
not 9 letters and digits (ids made on another gateway): the request goes again with each such id
written in that shape, a call and its result alike, and so on with that gateway
(`toolkit.chat.call_id_shape`)."""

import json
import re

import httpx
from test_client import QUESTION, Script, make

from toolkit.chat.call_id_shape import refuses_ids, shaped_ids
from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage

REFUSED = {
    "object": "error",
    "message": "Tool call id was call_Uq2M3x but must be a-z, A-Z, 0-9, with a length of 9.",
    "type": "invalid_request_message_error",
    "param": None,
    "code": "3280",
}
OK = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Shipped."}}]}
CALLS = (ToolCall(id="call_Uq2M3x", name="query_order"), ToolCall(id="D681PevKs", name="query_order"))
HISTORY = [
    *QUESTION,
    AssistantMessage(tool_calls=CALLS),
    *(ToolResultMessage(tool_call_id=c.id, tool_name=c.name, content="shipped") for c in CALLS),
]


def _ids(messages):
    calls = [c["id"] for m in messages if m.get("tool_calls") for c in m["tool_calls"]]
    return calls, [m["tool_call_id"] for m in messages if m.get("role") == "tool"]


def test_a_history_with_ids_of_another_shape_is_sent_again_shaped_and_so_on_after():
    """Before: Mistral's 400 reached the learner as "the gateway rejected the request body; fix it"."""
    script = Script(httpx.Response(400, json=REFUSED), httpx.Response(200, json=OK), httpx.Response(200, json=OK))
    client, _ = make(script)
    assert client.chat(HISTORY).message.content == "Shipped."
    calls, results = _ids(json.loads(script.requests[1].content)["messages"])
    assert calls == results and re.fullmatch(r"[a-zA-Z0-9]{9}", calls[0]) and calls[0] != "call_Uq2M3x"
    assert calls[1] == "D681PevKs"  # an id in the shape goes as it came
    client.chat([*HISTORY, UserMessage(content="and?")])
    assert len(script.requests) == 3 and _ids(json.loads(script.requests[2].content)["messages"])[0] == calls


def test_only_the_refusal_of_an_id_s_shape_is_read_so_and_shaping_is_stable():
    wire = [m.to_openai() for m in HISTORY]
    assert refuses_ids(REFUSED["message"], wire)
    assert not refuses_ids(REFUSED["message"], shaped_ids(wire))  # once shaped: nothing more to do, no loop
    assert not refuses_ids("Invalid tool_call_id", wire)
    assert shaped_ids(wire) == shaped_ids(wire)  # the same id, the same shape, request after request
    two = [{"role": "tool", "tool_call_id": f"call_{i}", "content": ""} for i in range(500)]
    assert len({m["tool_call_id"] for m in shaped_ids(two)}) == 500  # distinct ids stay distinct
