"""A reply's legacy `function_call` (older gateways answer `tools` with it) is read as one tool
call, whole or streamed, run by the loop under an id it gives, and sent back in `tool_calls`;
the probe counts it as that call. Before, such a reply read as empty ("the model said nothing")."""

import json

import httpx

from toolkit.chat.client import ChatClient, RetryPolicy
from toolkit.chat.messages import AssistantMessage, UserMessage
from toolkit.chat.sse import StreamDone, assemble
from toolkit.course.probe import classify
from toolkit.loop.run import run_loop
from toolkit.tools.decorator import tool

LEGACY = {
    "role": "assistant",
    "content": None,
    "function_call": {"name": "query_order", "arguments": '{"order_id": "SN1"}'},
}


def completion(message, finish="function_call"):
    return {"id": "c", "choices": [{"index": 0, "message": message, "finish_reason": finish}]}


def test_a_legacy_function_call_is_one_tool_call_without_an_id():
    message = AssistantMessage.from_openai(LEGACY)
    assert [(c.id, c.name, c.arguments) for c in message.tool_calls] == [("", "query_order", '{"order_id": "SN1"}')]
    assert "function_call" not in message.to_openai()


def test_tool_calls_win_over_a_legacy_function_call():
    listed = {"id": "call_9", "type": "function", "function": {"name": "refund", "arguments": "{}"}}
    message = AssistantMessage.from_openai({**LEGACY, "tool_calls": [listed]})
    assert [c.name for c in message.tool_calls] == ["refund"]


def test_a_legacy_function_call_that_is_not_an_object_is_no_call():
    assert (
        AssistantMessage.from_openai({"role": "assistant", "content": "hi", "function_call": "auto"}).tool_calls == ()
    )


def sse(*deltas, finish="function_call"):
    lines = [f"data: {json.dumps({'choices': [{'index': 0, 'delta': delta}]})}" for delta in deltas]
    end = {"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
    return [*lines, f"data: {json.dumps(end)}", "data: [DONE]"]


def test_a_streamed_legacy_function_call_is_joined_into_one_call():
    lines = sse(
        {"role": "assistant", "function_call": {"name": "query_order", "arguments": ""}},
        {"function_call": {"arguments": '{"order_id": '}},
        {"function_call": {"arguments": '"SN1"}'}},
    )
    done = list(assemble(lines))[-1]
    assert isinstance(done, StreamDone)
    calls = done.response.message.tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [("", "query_order", '{"order_id": "SN1"}')]


@tool("Look up an order")
def query_order(order_id: str) -> str:
    return f"order {order_id}: shipped"


def test_the_loop_runs_a_legacy_call_and_sends_it_back_as_a_tool_call():
    replies = [completion(LEGACY), completion({"role": "assistant", "content": "It shipped."}, "stop")]
    sent = []

    def gateway(request):
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=replies.pop(0))

    client = ChatClient(
        "http://gw.test/v1", "k", "m", transport=httpx.MockTransport(gateway), retry=RetryPolicy(max_retries=0)
    )
    result = run_loop(client, [UserMessage(content="where is SN1?")], tools=[query_order])
    assert result.answer == "It shipped."
    assistant, answer = sent[1]["messages"][1:]
    call_id = assistant["tool_calls"][0]["id"]
    assert call_id and assistant["tool_calls"][0]["function"] == LEGACY["function_call"]
    assert "function_call" not in assistant
    assert answer == {"role": "tool", "tool_call_id": call_id, "content": "order SN1: shipped", "name": "query_order"}


def test_the_probe_counts_a_legacy_function_call_as_its_call():
    body = json.dumps(completion(LEGACY))
    assert classify(200, body) == ("A", "a legacy function_call (not tool_calls) with valid JSON arguments")
    broken = {**LEGACY, "function_call": {"name": "query_order", "arguments": "{order_id: SN1}"}}
    assert classify(200, json.dumps(completion(broken))) == (
        "E",
        "a legacy function_call (not tool_calls) with invalid JSON arguments: '{order_id: SN1}'",
    )
