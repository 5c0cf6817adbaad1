"""Fields the package adds on its own, left out for a gateway that refuses them (`toolkit.chat.added_fields`):
a tool result's `name` (xAI's 400 "Only messages of role 'user' can have a name.", Groq's "property 'name'
is unsupported") and a tool's `strict` (a relay to Gemini's 'Unknown name "strict"', a FastAPI server's 422).
Before, the loop stopped after its tools ran with "HTTP 400: Only messages of role 'user' can have a name. —
the gateway rejected the request body; fix it (not retried)" (Groq's: "— the model (or every provider
serving it) takes no tools", which was wrong), and week 5's strict tools never reached a relay to Gemini.
Now the request goes again without the field, at once, and no later request carries it; the caller's own
fields are never dropped: a refusal of one names it and where it came from."""

import json

import pytest

from tests.loopback import serving
from tests.quirk_gateway import quirky
from toolkit import LoopOptions, run_loop, tool
from toolkit.chat.added_fields import refused_addition, without_additions
from toolkit.chat.client import ChatClient


@tool
def query_order(order_id: str) -> str:
    """Look up an order by its id."""
    return f"order {order_id}: shipped"


def looped(quirks, **options):
    with serving(quirky(*quirks)) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        result = run_loop(client, "Where is order A-1001?", tools=[query_order], options=LoopOptions(**options))
        handler_seen = [json.loads(json.dumps(e.request)) for e in client.exchanges]
    return result, client, handler_seen


def _names(request):
    return [m.get("name") for m in request["messages"] if m["role"] == "tool"]


@pytest.mark.parametrize("quirk", ["xai_names", "groq_names"])
@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_a_gateway_refusing_a_tool_result_s_name_gets_it_without(quirk, stream):
    result, client, sent = looped([quirk], stream=stream)
    assert result.answer == "Here is what the tools said: order 1001: shipped."
    assert [e.status for e in client.exchanges] == [200, 400, 200]
    assert _names(sent[1]) == ["query_order"] and _names(sent[2]) == [None]
    assert sent[2]["messages"][-1]["tool_call_id"] == sent[1]["messages"][-1]["tool_call_id"]
    assert client.additions_refused == ["name"]
    later = client.build_request(result.messages)
    assert [m.get("name") for m in later["messages"] if m["role"] == "tool"] == [None]


@pytest.mark.parametrize("quirk", ["gemini_strict", "fastapi_strict"])
def test_a_gateway_refusing_strict_gets_the_strict_schema_without_the_flag(quirk):
    result, client, sent = looped([quirk], strict_tools=True)
    assert result.answer == "Here is what the tools said: order 1001: shipped."
    assert [e.status for e in client.exchanges] == [400 if quirk == "gemini_strict" else 422, 200, 200]
    assert sent[0]["tools"][0]["function"]["strict"] is True
    for request in sent[1:]:
        function = request["tools"][0]["function"]
        assert "strict" not in function
        assert function["parameters"] == sent[0]["tools"][0]["function"]["parameters"]  # the same question
        assert function["parameters"]["additionalProperties"] is False


def test_both_at_once_are_each_left_out_once():
    result, client, _ = looped(["xai_names", "gemini_strict"], strict_tools=True)
    assert result.answer == "Here is what the tools said: order 1001: shipped."
    assert [e.status for e in client.exchanges] == [400, 200, 400, 200]
    assert client.additions_refused == ["strict", "name"]


GROQ = "'messages.2' : for 'role:tool' the following must be satisfied[('messages.2' : property '{}' is unsupported)]"
BODY = {
    "messages": [
        {"role": "user", "content": "hi"},
        {"role": "tool", "tool_call_id": "c1", "name": "f", "content": "x"},
    ],
    "tools": [{"type": "function", "function": {"name": "f", "parameters": {}, "strict": True}}],
}


@pytest.mark.parametrize(
    ("said", "field"),
    [
        ("Only messages of role 'user' can have a name.", "name"),
        (GROQ.format("name"), "name"),
        ("body.messages.1.name: Extra inputs are not permitted", "name"),
        ("Invalid JSON payload received. Unknown name \"strict\" at 'tools[0].function_declarations[0]'", "strict"),
        ("body.tools.0.function.strict: Extra inputs are not permitted", "strict"),
        ("property 'strict' is unsupported", "strict"),
        (GROQ.format("metadata"), None),  # another field: not the package's to drop
        ("Invalid value for 'tools[0].function.strict': expected a boolean", None),  # a value, not the field
        ("Invalid schema for function 'f': In context=(), 'additionalProperties' is required to be false.", None),
        ("model name not found", None),
        ("Missing required parameter: 'messages[1].name'.", None),
    ],
)
def test_only_a_refusal_of_an_addition_the_request_carries_is_one(said, field):
    assert refused_addition(said, BODY) == field
    assert refused_addition(said, {"messages": [], "tools": []}) is None


def test_leaving_out_changes_no_list_another_request_shares():
    body = json.loads(json.dumps(BODY))
    messages, tools = body["messages"], body["tools"]
    without_additions(body, ["name", "strict"])
    assert "name" not in body["messages"][1] and "strict" not in body["tools"][0]["function"]
    assert messages[1]["name"] == "f" and tools[0]["function"]["strict"] is True


def test_a_refusal_of_another_field_of_a_tool_result_is_raised_with_the_body_s_hint_not_the_tools():
    """Groq's words name 'role:tool': before, the hint said the model takes no tools."""
    from toolkit.chat.tool_refusal import refuses_tools

    assert not refuses_tools(GROQ.format("metadata"))
    assert refuses_tools("This model does not support tools")
    assert refuses_tools('{"role": "tool"} is fine, but tool calling is not supported')
