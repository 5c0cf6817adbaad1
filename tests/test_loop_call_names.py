"""`toolkit.loop.call_names`: a call whose tool name carries a namespace (`functions.get_order`, as
models post-trained on OpenAI's own format write it) runs the tool it names."""

import json

import httpx
import pytest

from toolkit import ChatClient, run_loop, tool
from toolkit.chat.messages import AssistantMessage, ToolCall
from toolkit.errors import UnknownToolError
from toolkit.loop.call_names import bare_call_names


@tool("Look up an order")
def get_order(order_id: str) -> str:
    return f"order {order_id}: shipped"


def test_a_namespaced_name_is_read_as_the_tool_it_names_with_a_note():
    reply = AssistantMessage(
        tool_calls=(ToolCall(id="a", name="functions.get_order"), ToolCall(id="b", name="get_order"))
    )
    fixed, notes = bare_call_names(reply, {"get_order"})
    assert [c.name for c in fixed.tool_calls] == ["get_order", "get_order"]
    assert [c.id for c in fixed.tool_calls] == ["a", "b"]
    assert notes == ["tool call 1 named its tool 'functions.get_order'; read as get_order"]


@pytest.mark.parametrize(
    "name",
    ["get_order", "functions.nope", "functions.", ".get_order", "functions get_order.x", "a b.get_order"],
)
def test_a_name_that_is_a_tool_or_names_none_is_left_as_it_is(name):
    reply = AssistantMessage(tool_calls=(ToolCall(id="a", name=name),))
    fixed, notes = bare_call_names(reply, {"get_order", "x"} - {"x"})
    assert fixed is reply and notes == []


def test_a_tool_whose_own_name_has_the_prefix_is_not_renamed():
    reply = AssistantMessage(tool_calls=(ToolCall(id="a", name="functions.get_order"),))
    assert bare_call_names(reply, {"functions.get_order", "get_order"}) == (reply, [])


def _client(replies):
    sent = []

    def handler(request):
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=replies[len(sent) - 1])

    return ChatClient("https://gw.example.com/v1", "sk-test", "m", transport=httpx.MockTransport(handler)), sent


def _reply(message, finish="stop"):
    return {"choices": [{"index": 0, "message": message, "finish_reason": finish}]}


def test_the_loop_runs_a_call_named_functions_tool_and_sends_the_tool_name_back():
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "functions.get_order", "arguments": '{"order_id": "A1"}'},
    }
    client, sent = _client(
        [
            _reply({"role": "assistant", "tool_calls": [call]}, "tool_calls"),
            _reply({"role": "assistant", "content": "ok"}),
        ]
    )
    result = run_loop(client, "where is A1?", tools=[get_order])
    assert result.answer == "ok"
    assert result.messages[2].content == "order A1: shipped" and result.messages[2].tool_name == "get_order"
    assert sent[1]["messages"][1]["tool_calls"][0]["function"]["name"] == "get_order"
    assert result.rounds[0].notes == ["tool call 1 named its tool 'functions.get_order'; read as get_order"]


def test_a_namespaced_name_of_no_tool_is_still_an_unknown_tool():
    call = {"id": "c1", "type": "function", "function": {"name": "functions.refund", "arguments": "{}"}}
    client, _ = _client([_reply({"role": "assistant", "tool_calls": [call]}, "tool_calls")])
    with pytest.raises(UnknownToolError, match="no tool named 'functions.refund'"):
        run_loop(client, "refund A1", tools=[get_order])
