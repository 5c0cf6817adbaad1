"""A model's malformed tool call (arguments that are not JSON) stays in the history, answered by the
loop's "invalid arguments" result; llama.cpp's llama-server (with --jinja) reads every call's
arguments as JSON for its chat template and answered each later request with a 500 "Failed to parse
tool call arguments as JSON": retried as an overload, the turn then failed. The history is now sent
again with such arguments as JSON that keeps their text (`{"INVALID_JSON": …}`, as pydantic-ai does),
and so from then on."""

import json

import httpx
import pytest
from test_client import OK_BODY, Script, make

from toolkit.chat.json_arguments import INVALID_JSON, refuses_unparsed, with_json_arguments
from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage

BROKEN = '{"order_id": "SN1"'
HISTORY = [
    UserMessage(content="where is SN1?"),
    AssistantMessage(tool_calls=(ToolCall(id="c1", name="query_order", arguments=BROKEN),)),
    ToolResultMessage(tool_call_id="c1", tool_name="query_order", content="invalid arguments", is_error=True),
]
LLAMA = {
    "error": {
        "code": 500,
        "message": "Failed to parse tool call arguments as JSON: [json.exception.parse_error.101] parse error at "
        "line 1, column 19: syntax error while parsing object - unexpected end of input; expected '}'",
        "type": "server_error",
    }
}


def _arguments(request):
    return [
        call["function"]["arguments"]
        for message in json.loads(request.content)["messages"]
        for call in message.get("tool_calls") or ()
    ]


def test_a_history_refused_for_unparsable_arguments_goes_again_with_them_as_json_and_so_on_after():
    script = Script(
        httpx.Response(500, json=LLAMA), httpx.Response(200, json=OK_BODY), httpx.Response(200, json=OK_BODY)
    )
    client, sleeps = make(script)
    client.chat(HISTORY)
    client.chat(HISTORY)
    assert sleeps == [] and len(script.requests) == 3
    kept = json.dumps({INVALID_JSON: BROKEN})
    assert [_arguments(request) for request in script.requests] == [[BROKEN], [kept], [kept]]
    assert HISTORY[1].tool_calls[0].arguments == BROKEN  # the conversation keeps what the model wrote


def test_another_500_about_json_on_a_history_of_good_arguments_is_still_an_overload():
    good = [HISTORY[0], HISTORY[1].model_copy(update={"tool_calls": (ToolCall(id="c1", name="q", arguments="{}"),)})]
    script = Script(httpx.Response(500, json=LLAMA), httpx.Response(200, json=OK_BODY))
    client, sleeps = make(script)
    client.chat(good)
    assert len(sleeps) == 1 and [_arguments(request) for request in script.requests] == [["{}"], ["{}"]]


@pytest.mark.parametrize(
    "said, refused",
    [
        (LLAMA["error"]["message"], True),
        ('The "function.arguments" parameter of the code model must be in JSON format.', True),
        ("Invalid 'messages[1].tool_calls[0].function.arguments': not valid JSON", True),
        ("Failed to parse tools: type must be string, but is null", False),
        ("Input should be a valid string", False),
    ],
)
def test_what_refuses_a_historys_unparsable_arguments(said, refused):
    assert refuses_unparsed(said, [call.to_openai() for call in HISTORY]) is refused


def test_only_unparsable_arguments_change():
    wire = [m.to_openai() for m in HISTORY]
    wire[1]["tool_calls"].append({"id": "c2", "type": "function", "function": {"name": "q", "arguments": '{"a": 1}'}})
    changed = with_json_arguments(wire)
    assert [c["function"]["arguments"] for c in changed[1]["tool_calls"]] == [
        json.dumps({INVALID_JSON: BROKEN}),
        '{"a": 1}',
    ]
    assert changed[0] is wire[0] and wire[1]["tool_calls"][0]["function"]["arguments"] == BROKEN
