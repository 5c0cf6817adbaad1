"""A reply in Ollama's native shape (`/api/chat`, `/api/generate`; whole, or NDJSON as Ollama streams
by default) reaching the client through a relay or a wrong base URL: one line saying what arrived and
which base URL serves OpenAI's API, on `chat()` and on `stream()`; never pydantic's text, never
"use chat() instead"."""

import json

import httpx
import pytest
from test_client import Script

from toolkit.chat.client import ChatClient
from toolkit.chat.messages import UserMessage
from toolkit.chat.ollama_native import NativeReplyError, native_route
from toolkit.errors import BadResponseError

QUESTION = [UserMessage(content="hi")]
CHAT = {  # Ollama's API docs, "Chat request (No streaming)"
    "model": "llama3.2",
    "created_at": "2023-12-12T14:13:43.416799Z",
    "message": {"role": "assistant", "content": "Hello! How are you today?"},
    "done": True,
    "total_duration": 5191566416,
    "prompt_eval_count": 26,
    "eval_count": 298,
}
CALL = {  # "Chat request (With tools)": arguments an object, no call id
    "model": "llama3.2",
    "created_at": "2024-07-22T20:33:28.123648Z",
    "message": {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"function": {"name": "get_current_weather", "arguments": {"location": "Paris, FR"}}}],
    },
    "done_reason": "stop",
    "done": True,
}
GENERATE = {"model": "llama3.2", "created_at": "2023-08-04T19:22:45.499127Z", "response": "The", "done": False}
PIECE = {"model": "llama3.2", "created_at": "x", "message": {"role": "assistant", "content": "The"}, "done": False}
NDJSON = "".join(json.dumps(line) + "\n" for line in (PIECE, PIECE, {**CHAT, "message": {"role": "assistant"}}))
SAID = (
    "the gateway answered in Ollama's native {route} shape (`{field}`, `done`; no `choices`), not as an OpenAI chat "
    "completion: set LLM_BASE_URL to Ollama's OpenAI-compatible address, which ends in /v1 "
    "(http://relay.test:8080/v1 for an Ollama at this address), not to its native /api"
)


def client(reply):
    script = Script(reply, reply)
    transport = httpx.MockTransport(script)
    return ChatClient("http://user:pw@relay.test:8080/api", "sk-x", "m", transport=transport), script


@pytest.mark.parametrize(
    "reply, route",
    [
        (httpx.Response(200, json=CHAT), "/api/chat"),
        (httpx.Response(200, json=CALL), "/api/chat"),
        (httpx.Response(200, json=GENERATE), "/api/generate"),
        (httpx.Response(200, text=NDJSON, headers={"content-type": "application/x-ndjson"}), "/api/chat"),
    ],
)
def test_chat_says_an_ollama_native_reply_and_the_base_url_to_use(reply, route):
    chat, script = client(reply)
    with pytest.raises(NativeReplyError) as caught:
        chat.chat(QUESTION)
    field = "message" if route == "/api/chat" else "response"
    assert str(caught.value) == SAID.format(route=route, field=field)
    assert len(script.requests) == 1 and "pw" not in str(caught.value)
    assert (
        caught.value.hint
        == "Ollama serves OpenAI's API under /v1: LLM_BASE_URL=http://localhost:11434/v1 for a local Ollama."
    )


@pytest.mark.parametrize("content_type", ["application/x-ndjson", "application/json", None])
def test_stream_says_an_ollama_native_stream_not_use_chat_instead(content_type):
    headers = {"content-type": content_type} if content_type else {}
    chat, _ = client(httpx.Response(200, text=NDJSON, headers=headers))
    with pytest.raises(NativeReplyError) as caught:
        list(chat.stream(QUESTION))
    assert str(caught.value) == SAID.format(route="/api/chat", field="message")


@pytest.mark.parametrize(
    "body",
    [
        {"message": "quota exceeded"},  # an error's words: no `done`
        {"message": {"role": "assistant"}, "done": "yes"},  # `done` not a boolean
        {"choices": [], "message": {}, "done": True},  # an OpenAI body's own field
        {"response": 3, "done": True},
        [CHAT],
    ],
)
def test_other_bodies_without_choices_are_not_called_ollamas(body):
    assert native_route(json.dumps(body)) is None
    chat, _ = client(httpx.Response(200, json=body))
    with pytest.raises(BadResponseError) as caught:
        chat.chat(QUESTION)
    assert type(caught.value) is not NativeReplyError
