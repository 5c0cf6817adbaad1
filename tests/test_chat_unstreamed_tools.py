"""llama.cpp's llama-server before May 2025 refused a stream with tools with a 500 "Cannot use tools with
stream": the client retried it as an overload, then gave up, and week 4's streamed turn never ran. It now
asks the same request without streaming, gives the reply as stream events, and asks so from then on."""

import json

import httpx
import pytest
from test_client import Script, make

from toolkit.chat.messages import ChatResponse, UserMessage
from toolkit.chat.sse import StreamDone, TextDelta, ToolCallDelta
from toolkit.chat.unstreamed_tools import STREAM_TOOLS_HINT, events_of, refuses_streamed_tools
from toolkit.errors import CallerError

TOOLS = [{"type": "function", "function": {"name": "query_order", "parameters": {"type": "object"}}}]
LLAMA = {"error": {"code": 500, "message": "Cannot use tools with stream", "type": "server_error"}}
CALL = {
    "id": "c1",
    "object": "chat.completion",
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": "Looking it up.",
                "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "query_order", "arguments": '{"id": 7}'}}
                ],
            },
        }
    ],
    "usage": {"prompt_tokens": 9, "completion_tokens": 5, "total_tokens": 14},
}


@pytest.mark.parametrize("status", [500, 400])
def test_a_server_refusing_tools_with_a_stream_is_asked_without_streaming_from_then_on(status):
    script = Script(httpx.Response(status, json=LLAMA), httpx.Response(200, json=CALL), httpx.Response(200, json=CALL))
    client, sleeps = make(script)
    events = list(client.stream([UserMessage(content="where is order 7?")], tools=TOOLS))
    again = list(client.stream([UserMessage(content="and order 8?")], tools=TOOLS))
    sent = [json.loads(request.content) for request in script.requests]
    assert [("stream" in body, "stream_options" in body, "tools" in body) for body in sent] == [
        (True, True, True),
        (False, False, True),
        (False, False, True),
    ]
    assert sleeps == []
    done = events[-1]
    assert isinstance(done, StreamDone) and done.response.usage.total_tokens == 14
    assert events[:-1] == [TextDelta("Looking it up."), ToolCallDelta(0, "call_1", "query_order", '{"id": 7}')]
    assert again[:-1] == events[:-1]


def test_the_refusal_to_a_request_not_streamed_is_said_with_the_fix_not_retried():
    script = Script(httpx.Response(500, json=LLAMA))
    client, sleeps = make(script)
    with pytest.raises(CallerError) as caught:  # a gateway saying so to a request with no stream: said, not retried
        client.chat([UserMessage(content="hi")], tools=TOOLS)
    assert str(caught.value) == f"HTTP 500: Cannot use tools with stream — {STREAM_TOOLS_HINT}"
    assert len(script.requests) == 1 and sleeps == []
    assert client.tools_unstreamed is False


@pytest.mark.parametrize(
    "text, said",
    [
        ("Cannot use tools with stream", True),
        ("Tools are not supported with streaming", True),
        ("streaming is not supported when tools are given", True),
        ("tools param requires --jinja flag", False),
        ("registry.ollama.ai/library/gemma3:1b does not support tools", False),
        ("stream_options is not supported", False),
    ],
)
def test_what_refuses_tools_with_a_stream(text, said):
    assert refuses_streamed_tools(text) is said


def test_a_reply_without_text_or_calls_is_one_done_event():
    response = ChatResponse.model_validate({"message": {"role": "assistant", "content": None}})
    assert events_of(response) == [StreamDone(response)]


def test_a_call_without_an_id_is_given_without_one():
    response = ChatResponse.model_validate(
        {"message": {"role": "assistant", "tool_calls": [{"id": "", "name": "query_order", "arguments": "{}"}]}}
    )
    assert events_of(response)[0] == ToolCallDelta(0, None, "query_order", "{}")
