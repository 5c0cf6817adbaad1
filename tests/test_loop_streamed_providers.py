"""The loop (`toolkit.loop.run`) over `ChatClient.stream()` on providers' streamed quirks, end to
end: the call runs once with the arguments the model meant, its result goes back under the call's
id, and what the provider wants back with the reply (OpenRouter's `reasoning_details`) goes too."""

import json

import httpx

from toolkit.chat.client import ChatClient
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.tools.decorator import tool

RAN: list[str] = []


@tool("The weather in a city")
def get_weather(city: str) -> str:
    RAN.append(city)
    return f"sunny in {city}"


def _events(*deltas, finish):
    chunks = [{"id": "gen-1", "model": "m", "choices": [{"index": 0, "delta": d}]} for d in deltas]
    chunks.append({"id": "gen-1", "model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    return "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"


def _serve(first: str):
    sent: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        body = first if len(sent) == 1 else _events({"content": "It is sunny in Paris."}, finish="stop")
        return httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})

    client = ChatClient(
        "http://gw.test/v1", "sk-test", "m", transport=httpx.MockTransport(handler), sleep=lambda s: None
    )
    return client, sent


def _call(arguments, **more):
    return {
        "tool_calls": [
            {"index": 0, "id": "call_1", "function": {"name": "get_weather", "arguments": arguments}, **more}
        ]
    }


def test_cumulative_and_resent_arguments_run_the_call_once_with_what_the_model_meant():
    """DeepSeek / Baidu Qianfan's cumulative mode (NousResearch/hermes-agent#35718), then the whole
    call resent (#6841): before, run_loop raised ArgumentError (invalid JSON) or ran the tool twice."""
    RAN.clear()
    client, sent = _serve(
        _events(
            _call('{"city"'),
            _call('{"city": "Par'),
            _call('{"city": "Paris"}'),
            _call('{"city": "Paris"}'),
            finish="tool_calls",
        )
    )
    result = run_loop(client, "Weather in Paris?", tools=[get_weather], options=LoopOptions(stream=True))
    assert RAN == ["Paris"] and result.answer == "It is sunny in Paris."
    assistant, answered = sent[1]["messages"][-2:]
    assert assistant["tool_calls"] == [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
    ]
    assert (answered["tool_call_id"], answered["content"]) == ("call_1", "sunny in Paris")


def test_streamed_reasoning_details_go_back_with_the_call():
    """OpenRouter wants a reasoning model's `reasoning_details` back after a tool call (Gemini 3's
    thought signature is in them); the streamed pieces of one block go back as one block."""
    RAN.clear()
    piece = {"type": "reasoning.text", "index": 0, "format": "google-gemini-v1"}
    client, sent = _serve(
        _events(
            {"reasoning_details": [{**piece, "text": "Look up "}]},
            {"reasoning_details": [{**piece, "text": "the weather."}]},
            {"reasoning_details": [{"type": "reasoning.encrypted", "data": "c2ln", "index": 1}]},
            _call('{"city": "Paris"}'),
            finish="tool_calls",
        )
    )
    run_loop(client, "Weather in Paris?", tools=[get_weather], options=LoopOptions(stream=True))
    assert sent[1]["messages"][-2]["reasoning_details"] == [
        {**piece, "text": "Look up the weather."},
        {"type": "reasoning.encrypted", "data": "c2ln", "index": 1},
    ]


def test_a_streamed_loop_on_a_server_that_never_sends_done_runs_its_calls_once():
    """`tests/quirk_gateway.py`'s `no_done` (TGI before 2.2, llama-box): each stream ends after its
    `finish_reason` without `data: [DONE]`. The loop takes each reply as whole: the call runs once,
    its result goes back under the call's id, and the answer arrives."""
    from tests.loopback import serving
    from tests.quirk_gateway import quirky

    handler = quirky("no_done")
    RAN.clear()
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        result = run_loop(client, "weather in Paris?", tools=[get_weather], options=LoopOptions(stream=True))
    assert RAN == ["City"]  # the stand-in's arguments: an example of the schema, not the question's city
    second = handler.seen[1]["messages"]
    assert second[-1]["role"] == "tool" and second[-1]["tool_call_id"] == second[-2]["tool_calls"][0]["id"]
    assert result.answer == "Here is what the tools said: sunny in City."


def test_fragments_then_the_consolidated_call_run_the_call_once():
    """A relay that streams the argument fragments, then sends the consolidated call (its id, name
    and whole arguments) again (lidge-jun/opencodex#361): before, the tool ran twice under one id."""
    RAN.clear()
    client, sent = _serve(
        _events(
            _call(""),
            {"tool_calls": [{"index": 0, "function": {"arguments": '{"city": '}}]},
            {"tool_calls": [{"index": 0, "function": {"arguments": '"Paris"}'}}]},
            _call('{"city":"Paris"}'),
            finish="tool_calls",
        )
    )
    result = run_loop(client, "Weather in Paris?", tools=[get_weather], options=LoopOptions(stream=True))
    assert RAN == ["Paris"] and result.answer == "It is sunny in Paris."
    assistant = sent[1]["messages"][-2]
    assert [c["function"]["arguments"] for c in assistant["tool_calls"]] == ['{"city": "Paris"}']


def test_a_gateway_that_does_not_stream_gets_the_loops_own_fix():
    """The client's fix ('Use chat() instead of stream()') named a call the loop's user never wrote:
    the loop says what to leave out (LoopOptions(stream=True), or an ai_service method's TokenStream)."""
    import pytest

    from toolkit.errors import NotAStreamError

    reply = {
        "id": "c",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
    }
    client = ChatClient(
        "http://gw.test/v1",
        "sk-test",
        "m",
        transport=httpx.MockTransport(lambda request: httpx.Response(200, json=reply)),
    )
    with pytest.raises(NotAStreamError) as caught:
        run_loop(client, "hi", options=LoopOptions(stream=True))
    assert caught.value.hint == (
        "This gateway does not stream: leave out LoopOptions(stream=True) (an ai_service method: return str, "
        "not TokenStream), or use a gateway that streams."
    )
