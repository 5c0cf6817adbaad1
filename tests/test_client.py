import asyncio
import datetime
import email.utils
import json

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy, parse_completion, parse_retry_after
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import StreamDone, TextDelta
from toolkit.errors import BadResponseError, CallerError, TransientError, TruncatedStreamError

QUESTION = [UserMessage(content="帮我查一下订单 SN202610200001 现在到哪了？")]
OK_BODY = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 0,
    "model": "m",
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "query_order", "arguments": '{"orderId":"SN202610200001"}'},
                    }
                ],
            },
        }
    ],
    "usage": {"prompt_tokens": 20, "completion_tokens": 8, "total_tokens": 28},
}


class Script:
    """A MockTransport handler replaying a list of responses (or exceptions) in order."""

    def __init__(self, *replies):
        self.replies, self.requests = list(replies), []

    def __call__(self, request):
        self.requests.append(request)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


def make(script, **kw):
    sleeps = []
    client = ChatClient(
        "http://gw.test/v1/", "sk-secret", "m", transport=httpx.MockTransport(script), sleep=sleeps.append, **kw
    )
    return client, sleeps


def test_success_parses_tool_call_and_usage():
    script = Script(httpx.Response(200, json=OK_BODY))
    client, _ = make(script)
    response = client.chat(
        QUESTION, tools=[{"type": "function", "function": {"name": "query_order"}}], tool_choice="auto"
    )
    assert response.message.tool_calls[0].name == "query_order"
    assert response.usage.total_tokens == 28
    sent = json.loads(script.requests[0].content)
    assert sent["tool_choice"] == "auto" and sent["model"] == "m"
    assert str(script.requests[0].url) == "http://gw.test/v1/chat/completions"
    assert script.requests[0].headers["authorization"] == "Bearer sk-secret"


def test_400_is_never_retried_and_explains():
    script = Script(httpx.Response(400, json={"error": {"message": "unknown field: tools"}}))
    client, sleeps = make(script)
    with pytest.raises(CallerError) as info:
        client.chat(QUESTION)
    assert str(info.value) == (
        "HTTP 400: unknown field: tools — the gateway rejected the request body; fix it (not retried)"
    )
    assert len(script.requests) == 1 and sleeps == [] and info.value.status == 400


def test_401_points_at_the_key():
    client, _ = make(Script(httpx.Response(401, text="nope")))
    with pytest.raises(CallerError, match=r"^HTTP 401: nope — check LLM_API_KEY \(not retried\)$"):
        client.chat(QUESTION)


def test_429_is_retried_after_retry_after():
    script = Script(
        httpx.Response(429, headers={"Retry-After": "3"}, json={"error": {"message": "slow down"}}),
        httpx.Response(200, json=OK_BODY),
    )
    client, sleeps = make(script)
    assert client.chat(QUESTION).message.tool_calls
    assert sleeps == [3.0] and len(script.requests) == 2


def test_5xx_backs_off_exponentially_then_gives_up():
    script = Script(*[httpx.Response(503, text="busy")] * 4)
    client, sleeps = make(script, retry=RetryPolicy(max_retries=3, backoff_s=0.5))
    with pytest.raises(TransientError) as info:
        client.chat(QUESTION)
    assert sleeps == [0.5, 1.0, 2.0]
    assert info.value.attempts == 4 and str(info.value) == "HTTP 503 (transient): busy"


def test_timeout_is_transient_and_retried():
    script = Script(httpx.ReadTimeout("slow"), httpx.Response(200, json=OK_BODY))
    client, sleeps = make(script)
    assert client.chat(QUESTION).usage.input_tokens == 20
    assert sleeps == [0.5]
    assert client.exchanges[0].response_text == "<ReadTimeout>"


def test_connection_refused_is_transient():
    script = Script(*[httpx.ConnectError("refused")] * 3)
    client, _ = make(script)
    with pytest.raises(TransientError, match="could not reach the gateway: ConnectError: refused"):
        client.chat(QUESTION)


@pytest.mark.parametrize(
    "body, message",
    [
        ("<html>oops</html>", "response body is not JSON: '<html>oops</html>'"),
        ("[]", "response body is not a JSON object"),
        ('{"choices": []}', "response has no choices"),
        ('{"choices": [{"index": 0}]}', "choices[0] has no message"),
        ('{"choices": [{"message": {"tool_calls": [{"function": {}}]}}]}', "choices[0].message is malformed: 'id'"),
    ],
)
def test_bad_bodies_are_named(body, message):
    client, sleeps = make(Script(httpx.Response(200, text=body)))
    with pytest.raises(BadResponseError) as info:
        client.chat(QUESTION)
    assert str(info.value) == message and sleeps == []
    assert parse_completion  # the same parser is public


def sse_body(*chunks, done=True):
    text = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks)
    return text + ("data: [DONE]\n\n" if done else "")


def chunk(d, finish=None):
    return {"id": "c", "model": "m", "choices": [{"index": 0, "delta": d, "finish_reason": finish}]}


def test_stream_yields_text_then_done():
    body = sse_body(chunk({"role": "assistant", "content": "你"}), chunk({"content": "好"}), chunk({}, "stop"))
    client, _ = make(Script(httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})))
    events = list(client.stream(QUESTION))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["你", "好"]
    assert isinstance(events[-1], StreamDone) and events[-1].response.message.content == "你好"
    assert json.loads(client.exchanges[-1].request and json.dumps(client.exchanges[-1].request))["stream"] is True


def test_truncated_stream_raises_after_partial_events():
    body = sse_body(
        chunk({"tool_calls": [{"index": 0, "id": "x", "function": {"name": "query_order", "arguments": '{"ord'}}]}),
        done=False,
    )
    client, _ = make(Script(httpx.Response(200, text=body)))
    with pytest.raises(TruncatedStreamError):
        list(client.stream(QUESTION))


def test_stream_retries_before_first_byte():
    body = sse_body(chunk({"content": "ok"}), chunk({}, "stop"))
    script = Script(httpx.Response(500, text="boom"), httpx.Response(200, text=body))
    client, sleeps = make(script)
    assert list(client.stream(QUESTION))[-1].response.message.content == "ok"
    assert sleeps == [0.5]


def test_invalid_tool_choice_is_refused_before_sending():
    client, _ = make(Script())
    with pytest.raises(ValueError, match="tool_choice must be one of"):
        client.chat(QUESTION, tool_choice="always")


def test_exchanges_never_hold_the_key():
    client, _ = make(Script(httpx.Response(200, json=OK_BODY)))
    client.chat(QUESTION)
    assert "sk-secret" not in repr(list(client.exchanges))
    assert "sk-secret" not in repr(client) and "sk-secret" not in client.describe()


def test_sync_api_works_inside_a_running_event_loop():
    client, _ = make(Script(httpx.Response(200, json=OK_BODY)))

    async def inside_jupyter():
        return client.chat(QUESTION)

    assert asyncio.run(inside_jupyter()).message.tool_calls[0].id == "call_1"


@pytest.mark.parametrize(
    "value, seconds",
    [("2", 2.0), ("0.5", 0.5), ("-1", 0.0), ("soon", None), (None, None), ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0)],
)
def test_parse_retry_after(value, seconds):
    assert parse_retry_after(value) == seconds


def test_retry_after_is_capped():
    assert RetryPolicy(max_retry_after_s=5).wait(1, 3600) == 5
    assert RetryPolicy(backoff_s=1, max_backoff_s=3).wait(5, None) == 3


def test_retry_after_beyond_the_cap_raises_at_once_carrying_it():
    """Issue 19.3: a gateway asking for an hour is answered with an error, not two early retries."""
    script = Script(httpx.Response(429, headers={"Retry-After": "3600"}, json={"error": {"message": "slow down"}}))
    client, sleeps = make(script)
    with pytest.raises(TransientError) as info:
        client.chat(QUESTION)
    assert sleeps == [] and len(script.requests) == 1
    assert info.value.retry_after == 3600.0 and info.value.attempts == 1
    assert str(info.value) == (
        "HTTP 429 (transient): slow down — the gateway asks to wait 3600 s, more than "
        "RetryPolicy.max_retry_after_s=30; not retried, try again later (the wait is in .retry_after)"
    )


@pytest.mark.parametrize("status", [408, 409])
def test_408_and_409_are_retried(status):
    """Issue 19.4: a request timeout is transient; 409 (a lock that timed out) is retried as OpenAI's SDK does."""
    script = Script(httpx.Response(status, json={"error": {"message": "try again"}}), httpx.Response(200, json=OK_BODY))
    client, sleeps = make(script)
    assert client.chat(QUESTION).message.tool_calls
    assert sleeps == [0.5] and len(script.requests) == 2


@pytest.mark.parametrize(
    "headers, wait",
    [
        ({"retry-after-ms": "1500"}, 1.5),
        ({"retry-after-ms": "1500", "Retry-After": "9"}, 1.5),
        ({"retry-after-ms": "soon", "Retry-After": "4"}, 4.0),
        ({"Retry-After": "Wed, 21 Oct 2026 07:28:10 GMT", "Date": "Wed, 21 Oct 2026 07:28:00 GMT"}, 10.0),
    ],
)
def test_retry_after_ms_and_http_dates_are_read(headers, wait):
    """Issue 19.4: `retry-after-ms` and a `Retry-After` date (against the response's Date) set the wait."""
    script = Script(httpx.Response(429, headers=headers, text="slow"), httpx.Response(200, json=OK_BODY))
    client, sleeps = make(script)
    client.chat(QUESTION)
    assert sleeps == [wait]


def test_retry_after_date_in_the_future_counts_from_now():
    future = email.utils.format_datetime(datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=100))
    assert 90 < parse_retry_after(future) <= 100
