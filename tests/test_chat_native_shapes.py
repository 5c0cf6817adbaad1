"""A reply in another API's own shape reaching the client through a relay or a wrong base URL (Ollama's
`/api/chat` and `/api/generate`, whole or NDJSON as Ollama streams by default; TGI's `/generate`;
Anthropic's Messages; Gemini's generateContent): one line saying what arrived and which base URL serves
OpenAI's API, on `chat()` and on `stream()`; never pydantic's text, never "use chat() instead"."""

import http.server
import json

import httpx
import pytest
from loopback import serving
from test_client import Script

from toolkit.chat.client import ChatClient
from toolkit.chat.messages import UserMessage
from toolkit.chat.native_shapes import NativeReplyError, native_shape
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
        [CHAT, CHAT],
        {"type": "message", "content": "Hi", "stop_reason": "end_turn"},  # content not blocks
        {"candidates": []},
        {"generated_text": None},
        {"result": None, "success": False, "errors": [{"code": 5006, "message": "oneOf at '/' not met"}]},
        {"result": "Hi", "success": True},  # a result that is no Workers AI answer (nor an ERNIE one)
        {"output": {"choices": []}},  # no request_id: not DashScope's
        {"output": "Hi", "request_id": "r"},
    ],
)
def test_other_bodies_without_choices_are_not_called_ollamas(body):
    assert native_shape(json.dumps(body)) is None
    chat, _ = client(httpx.Response(200, json=body))
    with pytest.raises(BadResponseError) as caught:
        chat.chat(QUESTION)
    assert type(caught.value) is not NativeReplyError


class OllamaNative(http.server.BaseHTTPRequestHandler):
    """Ollama's own /api/chat behind a relay that forwards /chat/completions to it: NDJSON, chunked,
    a line a chunk, as Ollama streams unless told "stream": false."""

    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for line in NDJSON.splitlines(keepends=True):
            data = line.encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def log_message(self, *args):
        pass


def test_ollamas_native_stream_over_real_http_is_named_on_both_paths():
    with serving(OllamaNative) as port:
        chat = ChatClient(f"http://127.0.0.1:{port}/api", "sk-x", "m")
        for ask in (chat.chat, lambda q: list(chat.stream(q))):
            with pytest.raises(NativeReplyError) as caught:
                ask(QUESTION)
            assert str(caught.value).endswith(
                f"(http://127.0.0.1:{port}/v1 for an Ollama at this address), not to its native /api"
            )
        chat.close()


ANTHROPIC_MESSAGE = {  # docs.anthropic.com, Messages API: the response
    "id": "msg_013Zva2CMHLNnXjNJJKqJ2EF",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [{"type": "text", "text": "Hi! My name is Claude."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 2095, "output_tokens": 503},
}
GEMINI_NATIVE = {  # ai.google.dev, generateContent: the response
    "candidates": [{"content": {"parts": [{"text": "Hi"}], "role": "model"}, "finishReason": "STOP", "index": 0}],
    "usageMetadata": {"promptTokenCount": 4, "candidatesTokenCount": 1, "totalTokenCount": 5},
    "modelVersion": "gemini-2.5-flash",
}

WORKERS_AI_RUN = {  # developers.cloudflare.com, Workers AI REST API: /accounts/{id}/ai/run/@cf/…
    "result": {"response": "Hello!", "usage": {"prompt_tokens": 4, "completion_tokens": 2, "total_tokens": 6}},
    "success": True,
    "errors": [],
    "messages": [],
}

DASHSCOPE_NATIVE = {  # help.aliyun.com, DashScope's own API (/api/v1/services/aigc/text-generation/generation)
    "output": {"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": "你好"}}]},
    "usage": {"total_tokens": 20, "output_tokens": 2, "input_tokens": 18},
    "request_id": "e1d8d0b3-5c76-9c3a-9a4f-2e4a3a7b6f1c",
}
ERNIE_V1 = {  # cloud.baidu.com, Qianfan's ERNIE API before v2 (/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/…)
    "id": "as-bcmt5ct4iy",
    "object": "chat.completion",
    "created": 1680167072,
    "result": "您好，我是文心一言。",
    "is_truncated": False,
    "need_clear_history": False,
    "usage": {"prompt_tokens": 4, "completion_tokens": 10, "total_tokens": 14},
}


@pytest.mark.parametrize(
    "body, said",
    [
        (
            {"generated_text": "Hi"},
            "the gateway answered in text-generation-inference's native /generate shape (`generated_text`; no "
            "`choices`), not as an OpenAI chat completion: set LLM_BASE_URL to its OpenAI-compatible address, which "
            "ends in /v1 (http://relay.test:8080/v1 for a TGI at this address)",
        ),
        (
            [{"generated_text": "Hi"}],
            "the gateway answered in text-generation-inference's native /generate shape (`generated_text`; no "
            "`choices`), not as an OpenAI chat completion: set LLM_BASE_URL to its OpenAI-compatible address, which "
            "ends in /v1 (http://relay.test:8080/v1 for a TGI at this address)",
        ),
        (
            ANTHROPIC_MESSAGE,
            "the gateway answered in Anthropic's Messages API shape (`content` blocks, `stop_reason`; no `choices`), "
            "not as an OpenAI chat completion: set LLM_BASE_URL to Anthropic's OpenAI-compatible address, "
            "https://api.anthropic.com/v1/, or to a relay that speaks OpenAI's chat completions",
        ),
        (
            GEMINI_NATIVE,
            "the gateway answered in Gemini's native generateContent shape (`candidates`; no `choices`), not as an "
            "OpenAI chat completion: set LLM_BASE_URL to Gemini's OpenAI-compatible address, "
            "https://generativelanguage.googleapis.com/v1beta/openai/, or to a relay that speaks OpenAI's chat "
            "completions",
        ),
        (
            WORKERS_AI_RUN,
            "the gateway answered in Cloudflare Workers AI's native /ai/run shape (`result`, `success`; no "
            "`choices`), not as an OpenAI chat completion: set LLM_BASE_URL to Workers AI's OpenAI-compatible "
            "address, https://api.cloudflare.com/client/v4/accounts/<ACCOUNT_ID>/ai/v1 (its /ai/v1, not /ai/run), "
            "or to a relay that speaks OpenAI's chat completions",
        ),
        (
            DASHSCOPE_NATIVE,
            "the gateway answered in DashScope's native generation API shape (`output`, `request_id`; no `choices`), "
            "not as an OpenAI chat completion: set LLM_BASE_URL to DashScope's OpenAI-compatible address, "
            "https://dashscope.aliyuncs.com/compatible-mode/v1 (dashscope-intl.aliyuncs.com outside China), or to a "
            "relay that speaks OpenAI's chat completions",
        ),
        (
            ERNIE_V1,
            "the gateway answered in Baidu Qianfan's native ERNIE API shape (`result`, `is_truncated`; no `choices`), "
            "not as an OpenAI chat completion: set LLM_BASE_URL to Qianfan's OpenAI-compatible address, "
            "https://qianfan.baidubce.com/v2, or to a relay that speaks OpenAI's chat completions",
        ),
    ],
)
def test_other_apis_own_replies_are_named_with_the_base_url_to_use(body, said):
    chat, script = client(httpx.Response(200, json=body))
    with pytest.raises(NativeReplyError) as caught:
        chat.chat(QUESTION)
    assert str(caught.value) == said and len(script.requests) == 1
