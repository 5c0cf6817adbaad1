"""The in-process transport: the gateway's exact bytes through httpx and the openai SDK, no sockets."""

import asyncio
import json

import httpx
import openai
import pytest
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from toolkit.gateway.core import GatewayConfig, handle_http
from toolkit.gateway.server import Gateway
from toolkit.gateway.transport import InProcessTransport

URL = "http://fake-gateway.local/v1"
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "query_order",
            "parameters": {"type": "object", "properties": {"orderId": {"type": "string"}}},
        },
    }
]
BODY = {
    "model": "m",
    "tools": TOOLS,
    "messages": [{"role": "user", "content": "帮我查一下订单 SN202610200001 现在到哪了？"}],
}


def client(gateway=None, **kw):
    sleeps = []
    transport = InProcessTransport(gateway or Gateway(), sleep=sleeps.append)
    return httpx.Client(base_url=URL, transport=transport, **kw), sleeps


def test_the_bytes_are_those_of_handle_http():
    http, _ = client()
    response = http.post("/chat/completions", json=BODY)
    expected = handle_http(
        "POST", "/v1/chat/completions", {"content-type": "application/json"}, response.request.content, GatewayConfig()
    )
    assert response.status_code == 200 and response.content == expected.encode()
    assert ChatCompletion.model_validate_json(response.content).choices[0].message.tool_calls


def test_a_stream_arrives_one_event_per_piece():
    http, _ = client()
    with http.stream("POST", "/chat/completions", json={**BODY, "stream": True}) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        pieces = list(response.iter_raw())
    assert all(p.startswith(b"data: ") and p.endswith(b"\n\n") for p in pieces)
    assert pieces[-1] == b"data: [DONE]\n\n" and len(pieces) > 4
    for piece in pieces[:-1]:
        ChatCompletionChunk.model_validate_json(piece[6:])


def test_errors_keep_their_status_and_headers():
    http, _ = client(Gateway(faults=["rate_limit"]))
    response = http.post("/chat/completions", json=BODY)
    assert response.status_code == 429 and response.headers["retry-after"] == "1"
    assert http.post("/chat/completions", json=BODY).status_code == 200  # the schedule is used up


def test_the_fault_schedule_is_consumed_one_chat_request_at_a_time():
    gateway = Gateway(faults=[None, "server_error"])
    http, _ = client(gateway)
    assert http.get("/models").status_code == 200  # not a chat request: consumes nothing
    assert [http.post("/chat/completions", json=BODY).status_code for _ in range(3)] == [200, 500, 200]
    assert gateway.pending_faults == []


def test_slow_within_the_read_timeout_waits_then_answers():
    http, sleeps = client(Gateway(faults=["slow"], config=GatewayConfig(slow_delay_s=2.0)), timeout=10)
    assert http.post("/chat/completions", json=BODY).status_code == 200
    assert sleeps == [2.0]


def test_slow_beyond_the_read_timeout_raises_read_timeout_after_the_timeout():
    http, sleeps = client(Gateway(faults=["slow"]), timeout=httpx.Timeout(30, read=1.5))
    with pytest.raises(httpx.ReadTimeout):
        http.post("/chat/completions", json=BODY)
    assert sleeps == [1.5]


def test_the_async_client_gets_the_same_bytes_and_timeouts():
    waits = []

    async def fake_sleep(seconds):
        waits.append(seconds)

    async def run():
        gateway = Gateway(faults=[None, "slow"])
        transport = InProcessTransport(gateway, async_sleep=fake_sleep)
        async with httpx.AsyncClient(base_url=URL, transport=transport, timeout=0.5) as http:
            first = await http.post("/chat/completions", json=BODY)
            with pytest.raises(httpx.ReadTimeout):
                await http.post("/chat/completions", json=BODY)
            async with http.stream("POST", "/chat/completions", json={**BODY, "stream": True}) as r:
                lines = [line async for line in r.aiter_lines() if line]
        return first, lines

    first, lines = asyncio.run(run())
    assert ChatCompletion.model_validate_json(first.content).choices[0].finish_reason == "tool_calls"
    assert waits == [0.5] and lines[-1] == "data: [DONE]"


def test_an_injected_sync_sleep_serves_the_async_client_too():
    sleeps = []
    transport = InProcessTransport(Gateway(faults=["slow"]), sleep=sleeps.append)

    async def run():
        async with httpx.AsyncClient(base_url=URL, transport=transport, timeout=60) as http:
            return await http.post("/chat/completions", json=BODY)

    assert asyncio.run(run()).status_code == 200 and sleeps == [5.0]


def test_the_openai_sdk_gets_a_tool_call_streamed_or_not():
    transport = InProcessTransport()
    sdk = openai.OpenAI(base_url=URL, api_key="x", http_client=httpx.Client(transport=transport))
    completion = sdk.chat.completions.create(model="m", messages=BODY["messages"], tools=TOOLS)
    call = completion.choices[0].message.tool_calls[0]
    assert (call.function.name, json.loads(call.function.arguments)) == ("query_order", {"orderId": "SN202610200001"})
    stream = sdk.chat.completions.create(model="m", messages=BODY["messages"], tools=TOOLS, stream=True)
    arguments = "".join(
        c.choices[0].delta.tool_calls[0].function.arguments
        for c in stream
        if c.choices and c.choices[0].delta.tool_calls
    )
    assert arguments == call.function.arguments


def test_the_sdk_sees_mode_c_as_a_bad_request():
    transport = InProcessTransport(Gateway("C"))
    sdk = openai.OpenAI(base_url=URL, api_key="x", http_client=httpx.Client(transport=transport), max_retries=0)
    with pytest.raises(openai.BadRequestError) as info:
        sdk.chat.completions.create(model="m", messages=BODY["messages"], tools=TOOLS)
    assert info.value.status_code == 400 and info.value.body["message"] == "unknown field: tools"
