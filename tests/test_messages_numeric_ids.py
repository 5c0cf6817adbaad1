"""Ids written as numbers (`ToolCall.from_openai`, `toolkit.chat.sse`): NVIDIA NIM serving Kimi K2.5 or GLM-5.1,
MiniMax behind OpenRouter and LM Studio send a tool call's `id` as a JSON number
(anomalyco/opencode#19947, #25786; Kilo-Org/kilocode#5816). Before, a whole reply was "choices[0].message
is malformed: id: Input should be a valid string (got 1697377797897)" and a stream "streamed tool call id
is not a string: 1697377797897": the reply and its calls were lost. Now the id is its digits, in a whole
reply, a stream (and a chunk's own `id`), and the loop sends them back as text; a boolean is still no id."""

import json

import pytest

from tests.loopback import serving
from tests.quirk_gateway import quirky
from toolkit import ChatClient, LoopOptions, run_loop, tool
from toolkit.chat.client import parse_completion
from toolkit.chat.messages import ToolCall
from toolkit.chat.sse import StreamAssembler, ToolCallDelta, assemble, sse_lines
from toolkit.errors import BadResponseError

CALL = {"type": "function", "function": {"name": "query_order", "arguments": '{"orderId": "SN1"}'}}


def whole(call_id, completion_id="chatcmpl-1"):
    message = {"role": "assistant", "content": None, "tool_calls": [{"id": call_id, **CALL}]}
    return json.dumps(
        {"id": completion_id, "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}
    )


def streamed(call_id, chunk_id="chatcmpl-1"):
    def event(delta, finish=None):
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return "data: " + json.dumps({"id": chunk_id, "choices": [choice]}) + "\n\n"

    head = {"index": 0, "id": call_id, "type": "function", "function": {"name": "query_order", "arguments": ""}}
    rest = {"index": 0, "id": call_id, "function": {"arguments": '{"orderId": "SN1"}'}}  # the id on every delta
    text = event({"tool_calls": [head]}) + event({"tool_calls": [rest]}) + event({}, "tool_calls") + "data: [DONE]\n\n"
    return list(assemble(sse_lines([text])))


def test_a_call_id_written_as_a_whole_number_is_its_digits_and_any_other_id_is_as_before():
    def read(given):
        return ToolCall.from_openai({"id": given, **CALL}).id

    assert [read(v) for v in (1697377797897, 7, -3)] == ["1697377797897", "7", "-3"]
    assert [read(v) for v in ("call_1", None, "", False, 0)] == ["call_1", "", "", "", ""]  # none: the loop gives one


def test_a_whole_reply_s_numeric_call_id_and_completion_id_are_their_digits():
    response = parse_completion(whole(1697377797897, completion_id=42))
    assert response.message.tool_calls == (
        ToolCall(id="1697377797897", name="query_order", arguments='{"orderId": "SN1"}'),
    )
    assert response.id == "42"


def test_a_stream_s_numeric_call_id_repeated_on_every_delta_is_one_call_under_its_digits():
    events = streamed(1697377797897, chunk_id=42)
    assert events[0] == ToolCallDelta(0, "1697377797897", "query_order", "")
    response = events[-1].response
    assert response.message.tool_calls == (
        ToolCall(id="1697377797897", name="query_order", arguments='{"orderId": "SN1"}'),
    )
    assert response.id == "42"


def test_a_boolean_id_is_still_no_id_said_in_one_line():
    with pytest.raises(BadResponseError) as info:
        parse_completion(whole(True))
    assert str(info.value) == "choices[0].message is malformed: id: Input should be a valid string (got True)"
    with pytest.raises(BadResponseError) as info:
        StreamAssembler().feed_chunk({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": True}]}}]})
    assert str(info.value) == "streamed tool call id is not a string: True"
    with pytest.raises(BadResponseError) as info:
        StreamAssembler().feed_chunk({"id": True, "choices": []})
    assert str(info.value) == "stream chunk id is not a string: True"


@pytest.mark.parametrize("stream", [False, True])
def test_a_loop_on_a_gateway_with_numeric_call_ids_runs_its_calls_and_sends_the_ids_back(stream):
    """`tests/quirk_gateway.py`'s `numeric_ids`: two parallel calls under numbers; both run, and the next
    request's calls and results carry those numbers as text (a history's ids are strings)."""
    ran = []

    @tool("Look up an order")
    def query_order(orderId: str) -> str:
        ran.append("order")
        return f"{orderId}: shipped"

    @tool("Look up an order's parcel")
    def query_logistics(orderId: str) -> str:
        ran.append("parcel")
        return f"{orderId}: in Hangzhou"

    handler = quirky("numeric_ids")
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        options = LoopOptions(stream=stream)
        result = run_loop(client, "query order SN202610200001", tools=[query_order, query_logistics], options=options)
    assert sorted(ran) == ["order", "parcel"] and "in Hangzhou" in result.answer, result
    second = handler.seen[1]["messages"]
    ids = [c["id"] for c in second[1]["tool_calls"]]
    assert len(set(ids)) == 2 and all(isinstance(i, str) and i.isdigit() for i in ids), ids
    assert [m["tool_call_id"] for m in second[2:4]] == ids
