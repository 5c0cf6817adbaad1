"""`toolkit.chat.forced_choice`: a gateway that refuses the form of a `tool_choice` forcing a call gets the
same ask in a form it takes, and from then on: LM Studio's strings only, older vLLM's no "required", an
older Mistral enum's "any" in its place; a gateway that takes no form of it says so in one line, once."""

import json

import httpx
import pytest
from test_client import Script, make

from toolkit.chat.forced_choice import CANNOT_FORCE
from toolkit.chat.messages import UserMessage
from toolkit.errors import CallerError

QUESTION = [UserMessage(content="Where is SN1?")]
ANSWER = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Shipped."}}]}
SSE = {"content-type": "text/event-stream"}


def tool(name):
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": {}}}}


ORDER, WEATHER = tool("query_order"), tool("get_weather")
NAMED = {"type": "function", "function": {"name": "query_order"}}
LM_STUDIO = (400, {"error": "Invalid tool_choice type: 'object'. Supported string values: none, auto, required"})
VLLM_OLD = (  # vLLM before 0.8.3 (vllm-project/vllm#13002), its ErrorResponse
    400,
    {
        "object": "error",
        "message": "1 validation error for ChatCompletionRequest\n  Value error, `tool_choice` must either be a named "
        'tool, "auto", or "none". [type=value_error]',
        "type": "BadRequestError",
        "param": None,
        "code": 400,
    },
)
ANY_ENUM = (  # a FastAPI server with Mistral's older ToolChoiceEnum
    422,
    {
        "detail": [
            {
                "type": "literal_error",
                "loc": ["body", "tool_choice"],
                "msg": "Input should be 'auto', 'none' or 'any'",
                "input": "required",
            }
        ]
    },
)


def sent(script):
    return [
        (body.get("tool_choice"), [t["function"]["name"] for t in body.get("tools", [])])
        for body in (json.loads(request.content) for request in script.requests)
    ]


@pytest.mark.parametrize(
    "refusal, choice, tools, then",
    [
        (LM_STUDIO, NAMED, [ORDER, WEATHER], ("required", ["query_order"])),  # that tool alone, required
        (VLLM_OLD, "required", [ORDER], (NAMED, ["query_order"])),  # the one tool, named
        (ANY_ENUM, "required", [ORDER, WEATHER], ("any", ["query_order", "get_weather"])),
    ],
)
def test_a_refused_form_of_forcing_a_call_goes_again_at_once_in_one_asking_the_same(refusal, choice, tools, then):
    status, body = refusal
    script = Script(httpx.Response(status, json=body), *[httpx.Response(200, json=ANSWER)] * 2)
    client, sleeps = make(script)
    assert client.chat(QUESTION, tools=tools, tool_choice=choice).message.content == "Shipped."
    client.chat(QUESTION, tools=tools, tool_choice=choice)  # remembered: the refused form is not sent again
    asked = (choice, [t["function"]["name"] for t in tools])
    assert sent(script) == [asked, then, then] and sleeps == []


def test_a_stream_forcing_a_call_is_asked_again_the_same_way():
    streamed = 'data: {"choices": [{"index": 0, "delta": {"content": "Shipped."}, "finish_reason": "stop"}]}\n\n'
    status, body = LM_STUDIO
    script = Script(
        httpx.Response(status, json=body), httpx.Response(200, text=streamed + "data: [DONE]\n\n", headers=SSE)
    )
    client, _ = make(script)
    events = list(client.stream(QUESTION, tools=[ORDER, WEATHER], tool_choice=NAMED))
    assert events[-1].response.message.content == "Shipped."
    assert sent(script)[1] == ("required", ["query_order"])


def test_a_gateway_taking_no_form_that_asks_the_same_says_so_in_one_line_after_one_request_each():
    """Older vLLM with two tools: "required" is refused, and no named function asks the same."""
    status, body = VLLM_OLD
    script = Script(*[httpx.Response(status, json=body)] * 2)
    client, _ = make(script)
    for _ in range(2):
        with pytest.raises(CallerError) as caught:
            client.chat(QUESTION, tools=[ORDER, WEATHER], tool_choice="required")
        assert str(caught.value) == (
            "HTTP 400: 1 validation error for ChatCompletionRequest Value error, `tool_choice` must either be a named "
            f'tool, "auto", or "none". [type=value_error] — {CANNOT_FORCE}'
        )
    assert sent(script) == [("required", ["query_order", "get_weather"])] * 2


def test_any_refused_after_it_was_offered_is_not_asked_in_a_circle():
    status, body = ANY_ENUM
    refused_any = {"detail": [{"loc": ["body", "tool_choice"], "msg": "Input should be 'auto' or 'none'"}]}
    script = Script(httpx.Response(status, json=body), httpx.Response(422, json=refused_any))
    client, _ = make(script)
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION, tools=[ORDER, WEATHER], tool_choice="required")
    assert str(caught.value).endswith(CANNOT_FORCE)
    assert sent(script) == [("required", ["query_order", "get_weather"]), ("any", ["query_order", "get_weather"])]


def test_a_refusal_of_a_named_tool_not_offered_is_the_callers_as_before():
    refusal = {
        "error": {
            "message": "Invalid value for 'tool_choice': tool 'nope' is not among the 'tools' of this request.",
            "type": "invalid_request_error",
            "param": "tool_choice",
        }
    }
    script = Script(httpx.Response(400, json=refusal), httpx.Response(400, json=refusal))
    client, _ = make(script)
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION, tools=[ORDER], tool_choice={"type": "function", "function": {"name": "nope"}})
    assert str(caught.value).endswith("the gateway rejected the request body; fix it (not retried)")
    assert client.forced_choice.refused == set()
    assert sent(script) == [({"type": "function", "function": {"name": "nope"}}, ["query_order"])]


VLLM_NO_NONE = (  # an older vLLM's words (before it took "none")
    400,
    {
        "object": "error",
        "message": "1 validation error for ChatCompletionRequest\n  Value error, `tool_choice` must either be a named "
        'tool or "auto". `tool_choice="none" is not supported. [type=value_error]',
        "type": "BadRequestError",
        "code": 400,
    },
)


def test_none_refused_goes_again_as_a_request_without_tools():
    """`tool_choice: "none"` (the playground offers it) forbids a call: older vLLM refuses the value, and a request
    offering no tools asks the same."""
    status, body = VLLM_NO_NONE
    script = Script(httpx.Response(status, json=body), *[httpx.Response(200, json=ANSWER)] * 2)
    client, _ = make(script)
    assert client.chat(QUESTION, tools=[ORDER], tool_choice="none", parallel_tool_calls=False).message.content
    client.chat(QUESTION, tools=[ORDER], tool_choice="none", parallel_tool_calls=False)
    sent_keys = [sorted(json.loads(r.content)) for r in script.requests]
    assert sent_keys == [
        ["messages", "model", "parallel_tool_calls", "tool_choice", "tools"],
        ["messages", "model"],
        ["messages", "model"],
    ]
