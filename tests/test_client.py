import asyncio
import datetime
import email.utils
import json
import math
from base64 import b64encode, urlsafe_b64encode
from urllib.parse import quote, quote_plus

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy, parse_completion, parse_retry_after
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import StreamDone, TextDelta
from toolkit.errors import (
    BadResponseError,
    CallerError,
    ConfigurationError,
    ModelCallError,
    NotAStreamError,
    TransientError,
    TruncatedStreamError,
)

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
            reply.request = request  # as httpx's own transports do
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
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == (
        "Cannot reach the gateway at http://gw.test/v1 (connection refused). Check LLM_BASE_URL, "
        "or unset the LLM_* variables to use the embedded gateway."
    )


COMPLETE = '{"choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}]}'


@pytest.mark.parametrize(
    "body, message",
    [
        ("", "response body is empty"),
        (" \r\n", "response body is empty"),
        (
            COMPLETE[:40],
            "response body is not JSON: it breaks off after 40 characters, before its JSON is complete (cut off on "
            'the way?); it ends with \'{"choices": [{"index": 0, "message": {"r\'',
        ),
        (
            COMPLETE[:45] + "\n",
            "response body is not JSON: it breaks off after 46 characters, before its JSON is complete (cut off on "
            'the way?); it ends with \'ces": [{"index": 0, "message": {"role":\\n\'',
        ),
        (
            '{"choices": [], "done": tr',
            "response body is not JSON: it breaks off after 26 characters, before its JSON is complete (cut off on "
            'the way?); it ends with \'{"choices": [], "done": tr\'',
        ),
        (
            COMPLETE + "\n\x00garbage",
            "response body is not JSON: more follows its JSON value, from character 80 of 87: '\\x00garbage'",
        ),
        (
            COMPLETE + COMPLETE,
            "response body is not JSON: more follows its JSON value, from character 79 of 156: "
            '\'{"choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}]}\'',
        ),
        (
            '{"choices": [{"index": 0 "message": {}}]}',
            "response body is not JSON (expecting ',' delimiter at character 26): "
            '\'{"choices": [{"index": 0 "message": {}}]}\'',
        ),
    ],
)
def test_a_body_that_is_not_json_says_where_it_goes_wrong(body, message):
    """Before, each quoted the body's first 200 characters, which for a body cut off, or followed by
    more, look like good JSON ("response body is not JSON: '{\"id\": …"), and for an empty one was ''."""
    client, sleeps = make(Script(httpx.Response(200, text=body)))
    with pytest.raises(BadResponseError) as info:
        client.chat(QUESTION)
    assert str(info.value) == message and sleeps == []


@pytest.mark.parametrize(
    "body, message",
    [
        (
            "<html>oops</html>",
            "response body is not JSON but oops (an HTML page); check LLM_BASE_URL: it should be the API's base URL "
            "(often ending in /v1), not a web page such as a proxy's sign-in page",
        ),
        ("<b>bold</b> claims", "response body is not JSON: '<b>bold</b> claims'"),
        ("[]", "response body is not a JSON object"),
        ('{"choices": []}', "response has no choices"),
        (
            '{"message": "Model not activated", "choices": []}',
            "response has no choices; the gateway says: Model not activated",
        ),
        (
            '{"result": null, "success": false, "errors": [{"code": 7003, "message": "No route for the URI"}]}',
            "response has no choices; the gateway says: No route for the URI",
        ),
        (
            '{"error": {"message": "Provider returned error", "code": 400}}',
            "gateway answered 200 with an error: Provider returned error",
        ),
        ('{"error": {"code": 400}}', 'gateway answered 200 with an error: {"code": 400}'),
        ('{"choices": [{"index": 0}]}', "choices[0] has no message"),
        (
            '{"choices": [{"message": {"tool_calls": [{"function": {}}]}}]}',
            "choices[0].message is malformed: a tool call has no function name: {'function': {}}",
        ),
        (
            '{"choices": [{"message": {"tool_calls": [{"id": "c1", "function": null}]}}]}',
            "choices[0].message is malformed: a tool call has no function name: {'id': 'c1', 'function': None}",
        ),
        (
            '{"choices": [{"message": {"tool_calls": [{"id": "c1", "function": {"name": null}}]}}]}',
            "choices[0].message is malformed: a tool call has no function name: {'id': 'c1', 'function': {'name': None}}",
        ),
    ],
)
def test_bad_bodies_are_named(body, message):
    client, sleeps = make(Script(httpx.Response(200, text=body)))
    with pytest.raises(BadResponseError) as info:
        client.chat(QUESTION)
    assert str(info.value) == message and sleeps == []
    assert parse_completion  # the same parser is public


def test_cloudflare_error_envelopes_are_read_on_error_statuses_too():
    body = {"result": None, "success": False, "errors": [{"code": 7003, "message": "No route for the URI"}]}
    client, _ = make(Script(httpx.Response(404, json=body)))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).startswith("HTTP 404: No route for the URI — check LLM_BASE_URL")


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
    with pytest.raises(ConfigurationError) as caught:
        client.chat(QUESTION, tool_choice="always")
    assert str(caught.value) == (
        "ChatClient: tool_choice 'always' is not one of ['auto', 'none', 'required']; pass one of them, "
        'or {"type": "function", "function": {"name": "<tool name>"}} to force one tool'
    )


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
    [
        ("2", 2.0),
        ("0.5", 0.5),
        ("-1", 0.0),
        ("soon", None),
        (None, None),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0),
        ("9" * 400, math.inf),  # more digits than a float holds: the longest wait, not an unreadable one
        (" 99999" + "9" * 400 + ".5 ", math.inf),
        ("inf", None),  # no HTTP wait: neither a number of ASCII digits nor a date
        ("1e400", None),
        ("nan", None),
        ("\u0661\u0662", None),  # Arabic-Indic digits: Python's float reads 12, HTTP does not
    ],
)
def test_parse_retry_after(value, seconds):
    assert parse_retry_after(value) == seconds


@pytest.mark.parametrize("attempt", [1_025, 10**6])
def test_the_backoff_of_a_late_attempt_is_the_cap_not_an_overflow(attempt):
    """`RetryPolicy().wait(1026, None)` raised OverflowError ("int too large to convert to float"):
    the doubling was computed in whole numbers before the cap applied."""
    assert RetryPolicy().wait(attempt, None) == 8.0
    assert RetryPolicy(max_backoff_s=math.inf).wait(attempt, 3) == 30.0


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


@pytest.mark.parametrize("headers", [{"Retry-After": "9" * 400}, {"retry-after-ms": "9" * 400, "Retry-After": "1"}])
def test_a_wait_too_long_to_count_raises_at_once_and_says_so(headers):
    """Before: `Retry-After: 999…` (more digits than a float) was unreadable, so the client retried it
    after its own backoff, as if the gateway had asked for no wait at all."""
    script = Script(httpx.Response(429, headers=headers, json={"error": {"message": "slow down"}}))
    client, sleeps = make(script)
    with pytest.raises(TransientError) as info:
        client.chat(QUESTION)
    assert sleeps == [] and len(script.requests) == 1 and info.value.retry_after == math.inf
    assert str(info.value) == (
        "HTTP 429 (transient): slow down — the gateway asks to wait longer than can be counted (a huge "
        "Retry-After), more than RetryPolicy.max_retry_after_s=30; not retried, try again later (the wait is in "
        ".retry_after)"
    )


@pytest.mark.parametrize(
    "asked, said",
    [
        ("9" * 400, "longer than can be counted (a huge Retry-After)"),
        ("99999999999", "99,999,999,999 s (about 3,169 years)"),
    ],
)
def test_with_no_cap_on_waits_a_wait_no_sleep_can_make_raises_at_once(asked, said):
    """Before: with `max_retry_after_s=inf` (no cap: honour any wait), such a wait went to `time.sleep`,
    which raised OverflowError ("timestamp out of range for platform time_t") out of chat()."""
    script = Script(httpx.Response(429, headers={"Retry-After": asked}, json={"error": {"message": "slow down"}}))
    client, sleeps = make(script, retry=RetryPolicy(max_retry_after_s=math.inf))
    with pytest.raises(TransientError) as info:
        client.chat(QUESTION)
    assert sleeps == [] and len(script.requests) == 1
    assert str(info.value) == (
        f"HTTP 429 (transient): slow down — the gateway asks to wait {said}, longer than a program can sleep "
        "(more than 1,000,000,000 s (about 32 years)); not retried, try again later (the wait is in .retry_after)"
    )


@pytest.mark.parametrize(
    "days, said",
    [
        (30, "2,592,000 s (about 30 days)"),
        (400, "34,560,000 s (about 400 days)"),
        (11, "950,400 s (about 11 days)"),
        (1, "86,400 s (about 1 day)"),
    ],
)
def test_a_retry_after_date_far_ahead_is_said_in_digits_and_days(days, said):
    """Before: 'the gateway asks to wait 2.592e+06 s' for a Retry-After date a month ahead."""
    when = "Sat, 05 Dec 2026 00:00:00 GMT"
    later = email.utils.format_datetime(
        email.utils.parsedate_to_datetime(when) + datetime.timedelta(days=days), usegmt=True
    )
    headers = {"Retry-After": later, "Date": when}
    script = Script(httpx.Response(429, headers=headers, json={"error": {"message": "slow down"}}))
    client, sleeps = make(script)
    with pytest.raises(TransientError) as info:
        client.chat(QUESTION)
    assert str(info.value) == (
        f"HTTP 429 (transient): slow down — the gateway asks to wait {said}, more than "
        "RetryPolicy.max_retry_after_s=30; not retried, try again later (the wait is in .retry_after)"
    )


def test_retry_after_date_in_the_future_counts_from_now():
    future = email.utils.format_datetime(datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=100))
    assert 90 < parse_retry_after(future) <= 100


# --- errors a learner can read ------------------------------------------------------------------


def test_an_unreachable_gateway_is_one_line_naming_its_url():
    from loopback import closed_port

    with closed_port() as port:  # held while the client connects: no other test's server can take it
        url = f"http://127.0.0.1:{port}/v1"
        client = ChatClient(url, "k", "m", retry=RetryPolicy(max_retries=0))
        with pytest.raises(TransientError) as caught:
            client.chat(QUESTION)
    assert str(caught.value) == (
        f"Cannot reach the gateway at {url} (connection refused). Check LLM_BASE_URL, "
        "or unset the LLM_* variables to use the embedded gateway."
    )


def test_an_unknown_host_says_so():
    script = Script(httpx.ConnectError("[Errno -2] Name or service not known"))
    client, _ = make(script, retry=RetryPolicy(max_retries=0))
    with pytest.raises(TransientError, match=r"Cannot reach the gateway at http://gw.test/v1 \(unknown host\)"):
        client.chat(QUESTION)


def test_a_toolkit_error_renders_as_its_message_and_a_hint_then_in_full_for_tb():
    script = Script(httpx.ConnectError("refused"))
    client, _ = make(script, retry=RetryPolicy(max_retries=0))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    error = caught.value
    assert error._render_traceback_() == [
        "TransientError: Cannot reach the gateway at http://gw.test/v1 (connection refused). Check LLM_BASE_URL, "
        "or unset the LLM_* variables to use the embedded gateway.",
        "Hint: It was not retried (1 request sent); running the cell again later may work. "
        "(%tb shows the full traceback)",
    ]
    full = "\n".join(error._render_traceback_())  # what %tb shows: the whole chain
    assert full.startswith("Traceback") and "httpx.ConnectError: refused" in full and "TransientError" in full


def test_ipython_shows_the_short_form(capsys):
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_cell("from toolkit.errors import CallerError\nraise CallerError('HTTP 400: bad')")
    out = capsys.readouterr()
    shown = out.out + out.err
    assert "CallerError: HTTP 400: bad" in shown and "Traceback" not in shown and "%tb" in shown
    shell.run_line_magic("tb", "")
    out = capsys.readouterr()
    assert "Traceback" in out.out + out.err


def test_ipython_shows_the_short_form_when_an_exception_group_was_suppressed(capsys):
    """anyio (the MCP SDK) raises exception groups; a toolkit error raised `from None` while one
    was handled still shows as one line (IPython falls back to a plain traceback as soon as it
    finds a group in the context chain)."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_cell(
        "from toolkit.errors import McpConnectionError\n"
        "try:\n"
        "    raise ExceptionGroup('task group', [OSError('refused')])\n"
        "except BaseException:\n"
        "    raise McpConnectionError(\"cannot reach MCP server 'time'\") from None"
    )
    out = capsys.readouterr()
    shown = out.out + out.err
    assert "McpConnectionError: cannot reach MCP server 'time'" in shown and "Traceback" not in shown
    try:
        try:
            raise ValueError("inner")
        except ValueError:
            raise CallerError("outer")  # noqa: B904 - an unsuppressed context is kept
    except CallerError as error:
        assert repr(error.__context__) == "ValueError('inner')"


SSE_NO_USAGE = (
    'data: {"id":"c","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"hi"}}]}\n\n'
    'data: {"id":"c","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'
    "data: [DONE]\n\n"
)


def test_usage_a_gateway_does_not_report_is_not_reported_not_zero():
    from toolkit.views.conversation import render_conversation_text

    script = Script(httpx.Response(200, headers={"content-type": "text/event-stream"}, content=SSE_NO_USAGE))
    client, _ = make(script)
    done = list(client.stream(QUESTION))[-1]
    assert done.response.usage.input_tokens is None and done.response.usage.total_tokens is None
    text = render_conversation_text([done.response.message], done.response.usage)
    assert text.endswith("tokens: input not reported, output not reported, total not reported")
    body = {**OK_BODY}
    del body["usage"]
    client, _ = make(Script(httpx.Response(200, json=body)))
    assert client.chat(QUESTION).usage.output_tokens is None


@pytest.mark.parametrize("content_type", ["application/json", "text/plain"])
def test_a_gateway_that_ignores_stream_gets_a_specific_error(content_type):
    from toolkit.errors import NotAStreamError

    script = Script(httpx.Response(200, headers={"content-type": content_type}, content=json.dumps(OK_BODY)))
    client, _ = make(script)
    with pytest.raises(NotAStreamError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value).startswith(
        "the gateway answered a stream request with a plain response (JSON, not server-sent events) at "
        "http://gw.test/v1; it ignores `stream: true`. Use chat() instead of stream() with this gateway."
    )
    assert not isinstance(caught.value, TruncatedStreamError)
    assert client.exchanges[-1].response_text.startswith("{")


ECHO = {"error": {"message": "Incorrect API key provided: sk-live-0123456789abcdef. You can find your API key at ..."}}


def test_the_api_key_never_appears_in_errors_or_exchanges_even_when_echoed():
    key = "sk-live-0123456789abcdef"
    script = Script(httpx.Response(401, json=ECHO))
    client = ChatClient("http://gw.test/v1", key, "m", transport=httpx.MockTransport(script))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert key not in str(caught.value) and key not in caught.value.body
    assert "Incorrect API key provided: ***cdef" in str(caught.value)
    assert key not in repr(list(client.exchanges))
    assert key not in "\n".join(caught.value._render_traceback_())


@pytest.mark.parametrize("stream", [False, True])
def test_the_api_key_echoed_percent_encoded_or_in_base64_is_masked_in_errors_and_exchanges(stream):
    """A gateway quoting the key as a URL or a form carries it (`%2B`, `%2F`, `%3D`) or in base64
    showed it whole: only its JSON spellings were looked for."""
    key = "Ab+cD/ef=gH1jK2lM3nO4pQ5rS6tU7v=="
    spelled = [
        quote(key, safe=""),
        quote_plus(key),
        b64encode(key.encode()).decode(),
        urlsafe_b64encode(key.encode()).decode(),
    ]
    said = {"error": {"message": "bad key " + " ".join(spelled)}}
    client = ChatClient(
        "http://gw.test/v1", key, "m", transport=httpx.MockTransport(Script(httpx.Response(401, json=said)))
    )
    with pytest.raises(CallerError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    assert str(caught.value).startswith("HTTP 401: bad key ***7v== ***7v== ***7v== ***7v== — ")
    for spelling in spelled:
        assert spelling not in caught.value.body and spelling not in repr(list(client.exchanges))


UPSTREAM = "sk-proj-" + "Upstr3amChannelKey" * 2


@pytest.mark.parametrize("status", [401, 429, 500, 200])
@pytest.mark.parametrize("stream", [False, True])
def test_a_relays_error_quoting_its_own_upstream_key_masks_it_in_the_error(status, stream):
    """A relay (one-api, new-api, a LiteLLM proxy) passes its upstream provider's error on, and that
    error may quote the relay's own key for the provider: not the learner's key, so `scrub` did not
    know it, and the error showed it whole (the exchange and the cassette masked it, by its format).
    Masked by its format in the error's text and body too, as `toolkit.tools.redact` masks it."""
    said = {"error": {"message": f"upstream said: Incorrect API key provided: {UPSTREAM} (request id 7)"}}
    script = Script(*[httpx.Response(status, json=said)] * 3)
    client, _ = make(script)
    with pytest.raises(ModelCallError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    assert "upstream said: Incorrect API key provided: [REDACTED] (request id 7)" in str(caught.value)
    assert UPSTREAM not in str(caught.value) and UPSTREAM not in caught.value.body
    assert UPSTREAM not in repr(list(client.exchanges))


def test_credentials_in_the_base_url_are_masked_everywhere():
    url = "https://alice:hunter2-secret@gw.example/v1?api-key=abc123456&x=1"
    script = Script(httpx.ConnectError("[Errno 111] Connection refused"))
    client = ChatClient(url, "k", "m", transport=httpx.MockTransport(script), retry=RetryPolicy(max_retries=0))
    assert client.describe() == "gateway https://alice:***@gw.example/v1?api-key=***&x=1, model m"
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    shown = str(caught.value) + repr(list(client.exchanges))
    assert "hunter2" not in shown and "abc123456" not in shown
    labelled = ChatClient(url, "k", "m", label=f"real gateway {url}")
    assert "hunter2" not in labelled.describe() and "abc123456" not in labelled.describe()


def loop_on_mock_gateway(message, finish="tool_calls"):
    """`run_loop` with a `query_order` tool against a gateway that answers `message` (a reply
    calling the tool), then "Shipped."; the result and the messages of the second request."""
    from toolkit import run_loop, tool

    @tool
    def query_order(orderId: str) -> str:
        """Look up an order."""
        return f"{orderId}: shipped"

    first = {"choices": [{"index": 0, "finish_reason": finish, "message": message}]}
    second = {
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Shipped."}}]
    }
    script = Script(httpx.Response(200, json=first), httpx.Response(200, json=second))
    client, _ = make(script)
    result = run_loop(client, QUESTION, tools=[query_order])
    return result, json.loads(script.requests[1].content)["messages"]


def test_a_gemini_shaped_gateway_gets_its_thought_signature_back_in_the_loop():
    """Gemini's OpenAI-compatible endpoint: tool calls without a stream index, `extra_content`
    on the call, `finish_reason: "stop"` although it called a tool. The loop runs the call and the
    next request carries the signature on the assistant's tool call."""
    signature = {"google": {"thought_signature": "c2lnbmF0dXJl"}}
    call = {
        "id": "function-call-1",
        "type": "function",
        "function": {"name": "query_order", "arguments": '{"orderId":"SN1"}'},
        "extra_content": signature,
    }
    result, sent = loop_on_mock_gateway({"role": "assistant", "content": None, "tool_calls": [call]}, finish="stop")
    assert result.answer == "Shipped."
    assert sent[1]["tool_calls"][0]["extra_content"] == signature
    assert sent[2] == {
        "role": "tool",
        "tool_call_id": "function-call-1",
        "content": "SN1: shipped",
        "name": "query_order",
    }


@pytest.mark.parametrize("missing", [{}, {"id": None}, {"id": ""}])
def test_a_server_that_gives_tool_calls_no_id_still_gets_a_valid_next_request(missing):
    """llama.cpp's server, StepFun and some proxies send tool calls without an id (or null, or ""):
    the loop names each `r<round>c<position>`, says so in the round's notes, and pairs the results."""
    call = {"type": "function", "function": {"name": "query_order", "arguments": '{"orderId":"SN1"}'}, **missing}
    result, sent = loop_on_mock_gateway({"role": "assistant", "tool_calls": [call, call]})
    assert result.answer == "Shipped."
    assert [c["id"] for c in sent[1]["tool_calls"]] == ["r000001c1", "r000001c2"]
    assert [m["tool_call_id"] for m in sent[2:4]] == ["r000001c1", "r000001c2"]
    assert result.rounds[0].notes == [
        "tool call 1 (query_order) came without an id; it got one of its own",
        "tool call 2 (query_order) came without an id; it got one of its own",
    ]


def test_deepseeks_reasoning_content_goes_back_with_the_tool_call_and_a_reasoning_beside_it_too():
    """DeepSeek's thinking mode answers a request without the reasoning_content of a tool-calling
    reply with a 400 ("The reasoning_content in the thinking mode must be passed back to the API");
    a reply with `reasoning` beside it (vLLM 0.11 to 0.15 sent both, and reads `reasoning` back)
    has both go back (a gateway refusing one gets the request again without it:
    `tests/test_chat_reasoning_fields.py`)."""
    message = {
        "role": "assistant",
        "content": "",
        "reasoning_content": "The user wants order SN1; call query_order.",
        "reasoning": "The user wants order SN1; call query_order.",
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "query_order", "arguments": '{"orderId":"SN1"}'}}
        ],
    }
    result, sent = loop_on_mock_gateway(message)
    assert sent[1]["reasoning_content"] == "The user wants order SN1; call query_order."
    assert sent[1]["reasoning"] == sent[1]["reasoning_content"] and result.answer == "Shipped."


def test_content_sent_as_parts_is_read_as_its_text():
    body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": [
        {"type": "thinking", "thinking": [{"type": "text", "text": "hmm"}]},
        {"type": "text", "text": "Shipped "}, {"type": "text", "text": "today."}]}}]}  # fmt: skip
    assert parse_completion(json.dumps(body)).message.content == "Shipped today."


def test_a_base_url_that_already_names_the_endpoint_gets_a_precise_hint():
    script = Script(httpx.Response(404, json={"error": {"message": "Not found"}}))
    client = ChatClient("http://gw.test/v1/chat/completions", "sk-secret", "m", transport=httpx.MockTransport(script))
    with pytest.raises(CallerError) as info:
        client.chat(QUESTION)
    assert str(info.value) == (
        "HTTP 404: Not found — LLM_BASE_URL ends in /chat/completions: set it to the part before, "
        "e.g. https://host/v1 (not retried)"
    )


@pytest.mark.parametrize(
    ("status", "said"),
    [(405, {"detail": "Method Not Allowed"}), (404, {"detail": "Not Found"})],
)
def test_a_doubled_endpoint_gets_the_hint_whichever_routing_status_says_no(status, said):
    """Starlette and nginx answer a POST to a path they route no POST for with 405, not 404."""
    script = Script(httpx.Response(status, json=said))
    client = ChatClient("http://gw.test/v1/chat/completions/", "sk-secret", "m", transport=httpx.MockTransport(script))
    with pytest.raises(CallerError) as info:
        client.chat(QUESTION)
    assert str(info.value) == (
        f"HTTP {status}: {said['detail']} — LLM_BASE_URL ends in /chat/completions: set it to the part before, "
        "e.g. https://host/v1 (not retried)"
    )


def test_a_413_names_both_things_that_make_a_request_too_large():
    script = Script(httpx.Response(413, json={"error": {"message": "The request body is larger than 1048576 bytes."}}))
    client, _ = make(script)
    with pytest.raises(CallerError) as info:
        client.chat(QUESTION)
    assert str(info.value) == (
        "HTTP 413: The request body is larger than 1048576 bytes. — the request is too large; shorten the "
        "conversation, or send fewer or smaller images (not retried)"
    )


def one_call(call):
    return {"choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": call}}]}


@pytest.mark.parametrize(
    "body, message",
    [
        (one_call(["x"]), "choices[0].message is malformed: a tool call is not an object: 'x'"),
        (one_call([None]), "choices[0].message is malformed: a tool call is not an object: None"),
        (one_call("abc"), "choices[0].message is malformed: tool_calls is not a list: 'abc'"),
        (one_call({"id": "a"}), "choices[0].message is malformed: tool_calls is not a list: {'id': 'a'}"),
        (
            one_call([{"id": "a", "function": "query_order"}]),
            "choices[0].message is malformed: a tool call's function is not an object: 'query_order'",
        ),
        (
            one_call([{"id": 5.5, "function": {"name": "f", "arguments": "{}"}}]),
            "choices[0].message is malformed: id: Input should be a valid string (got 5.5)",
        ),
        (
            {"choices": [{"message": {"role": "assistant", "content": {"text": "hi"}}}]},
            "choices[0].message is malformed: content: Input should be a valid string (got {'text': 'hi'})",
        ),
        (
            {"model": 5, "choices": [{"message": {"role": "assistant", "content": "hi"}}]},
            "response is malformed: model: Input should be a valid string (got 5)",
        ),
        (
            {"choices": [{"finish_reason": ["stop"], "message": {"role": "assistant", "content": "hi"}}]},
            "response is malformed: finish_reason: Input should be a valid string (got ['stop'])",
        ),
    ],
)
def test_wrong_typed_bodies_are_one_readable_line(body, message):
    client, _ = make(Script(httpx.Response(200, json=body)))
    with pytest.raises(BadResponseError) as info:
        client.chat(QUESTION)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 100_000 + "]" * 100_000, "response body cannot be read as JSON (it nests too deeply): '[[[["),
        (
            '{"usage": {"prompt_tokens": ' + "9" * 5000 + "}}",
            "response body cannot be read as JSON (Exceeds the limit (4300 digits) for integer string conversion: "
            'value has 5000 digits): \'{"usage"',
        ),
    ],
)
def test_json_too_deep_or_too_long_to_read_is_a_bad_response(text, message):
    client, _ = make(Script(httpx.Response(200, text=text)))
    with pytest.raises(BadResponseError) as info:
        client.chat(QUESTION)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(
    "reply, detail",
    [
        (
            httpx.Response(502, text="<html>\n<body>\n<h1>502 Bad Gateway</h1>\n</body>\n</html>\n"),
            "502 Bad Gateway (an HTML page)",  # its text, not its markup (toolkit.chat.pages)
        ),
        (httpx.Response(502, json={"error": {"message": "upstream\n  failed"}}), "upstream failed"),
        (httpx.Response(502, text="[" * 100_000), "[" * 200),
    ],
)
def test_an_http_error_body_reads_as_one_line(reply, detail):
    client, _ = make(Script(reply), retry=RetryPolicy(max_retries=0))
    with pytest.raises(TransientError) as info:
        client.chat(QUESTION)
    assert str(info.value) == f"HTTP 502 (transient): {detail}"
    assert info.value.body == reply.text[:2000]  # the body as it came, for diagnosis


def garbled(request):
    """A proxy that says gzip and sends plain text."""
    body = sse_body(chunk({"content": "ok"}), chunk({}, "stop")).encode()
    return httpx.Response(200, headers={"content-encoding": "gzip"}, stream=httpx.ByteStream(body))


def test_a_body_that_does_not_fit_its_content_encoding_is_a_bad_response():
    client, sleeps = make(garbled)
    for ask in (client.chat, lambda q: list(client.stream(q))):
        with pytest.raises(BadResponseError) as info:
            ask(QUESTION)
        assert str(info.value) == (
            "the response body cannot be decoded: the gateway said it was compressed as gzip (Content-Encoding) "
            "but sent server-sent events, not compressed; nothing from it was used"
        )
    assert sleeps == []


def test_a_json_answer_to_a_stream_request_without_a_content_type_is_read_once():
    """A real (streaming) body can be read only once: the NotAStreamError must not read it again."""
    text = json.dumps(OK_BODY, indent=1)

    def plain(request):
        return httpx.Response(200, stream=httpx.ByteStream(text.encode()))

    client, _ = make(plain)
    with pytest.raises(NotAStreamError):
        list(client.stream(QUESTION))
    assert json.loads(client.exchanges[-1].response_text) == OK_BODY


def test_a_lone_surrogate_from_the_gateway_goes_back_as_a_replacement_character_not_as_a_crash():
    """`"\\ud83d"` is valid JSON (a model can cut an emoji's surrogate pair); it cannot be UTF-8,
    and strict gateways refuse its escape ("no low surrogate in string"): it goes back as U+FFFD."""
    first = (
        '{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", '
        '"content": "a\\ud83d", "tool_calls": [{"id": "c1", "type": "function", "function": '
        '{"name": "query_order", "arguments": "{\\"orderId\\": \\"x\\\\ud83d\\"}"}}]}}]}'
    )
    second = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Shipped."}}]}
    script = Script(httpx.Response(200, text=first), httpx.Response(200, json=second))
    client, _ = make(script)
    from toolkit import run_loop, tool

    @tool
    def query_order(orderId: str) -> str:
        """Look up an order."""
        return f"{orderId}: shipped"

    result = run_loop(client, QUESTION, tools=[query_order])
    sent = json.loads(script.requests[1].content)["messages"]
    assert result.answer == "Shipped."
    assert sent[1]["content"] == "a\ufffd" and sent[2]["content"] == "x\ufffd: shipped"
    assert script.requests[1].headers["content-type"] == "application/json"
    assert result.messages[1].content == "a\ud83d"  # memory keeps what came


def test_a_request_body_is_always_utf8_a_surrogate_pair_given_as_two_code_points_joined():
    from toolkit.chat.client import encode_body

    body = {"messages": [{"role": "tool", "content": "\ud83d\ude00 ok \udcff", "\ud800key": ["\udfff"]}]}
    sent = encode_body(body)
    assert json.loads(sent.decode("utf-8")) == {
        "messages": [{"role": "tool", "content": "\U0001f600 ok \ufffd", "\ufffdkey": ["\ufffd"]}]
    }
    assert encode_body({"a": "plain ü"}) == '{"a":"plain ü"}'.encode()


def test_a_tool_result_with_a_lone_surrogate_runs_on_the_embedded_gateway():
    """The embedded gateway (like serde_json-based ones) refuses a lone surrogate's escape: the
    loop's next request was a 400 when a tool returned text decoded with `surrogateescape`."""
    from toolkit import run_loop, tool
    from toolkit.gateway.server import Gateway
    from toolkit.gateway.transport import InProcessTransport

    @tool
    def read_name(path: str) -> str:
        """Read a file's name."""
        return b"caf\xe9.txt".decode("utf-8", "surrogateescape")

    client = ChatClient("http://fake.local/v1", "sk-test", "fake", transport=InProcessTransport(Gateway()))
    result = run_loop(client, [UserMessage(content="read the name of the file a.txt")], tools=[read_name])
    assert result.answer
    assert [e.call.name for e in result.executions] == ["read_name"]
    assert result.messages[2].content == "caf\udce9.txt"


# --- what ChatClient refuses to be built with ------------------------------------------------

URL_FIX = "use one like http://127.0.0.1:8000/v1 or https://api.openai.com/v1 (check LLM_BASE_URL)"


@pytest.mark.parametrize(
    "url, why",
    [
        ("localhost:8080/v1", ""),  # no scheme: was a retried "cannot reach" TransientError
        ("ftp://gw.example/v1", ""),
        ("", ""),
        ("http:///v1", ""),
        ("http://[::1/v1", " (Invalid port: ':1')"),  # was a bare httpx.InvalidURL at the first request
    ],
)
def test_a_base_url_that_is_no_http_url_is_a_configuration_error(url, why):
    with pytest.raises(ConfigurationError) as caught:
        ChatClient(url, "k", "m")
    assert str(caught.value) == f"ChatClient: base_url {url!r} is not an http(s) URL with a host{why}; {URL_FIX}"


@pytest.mark.parametrize("url", [5, None, b"http://127.0.0.1:9/v1"])
def test_a_base_url_that_is_not_a_string_is_a_configuration_error(url):
    """It used to fail inside the check itself, with a bare AttributeError or TypeError."""
    with pytest.raises(ConfigurationError) as caught:
        ChatClient(url, "k", "m")
    assert str(caught.value) == f"ChatClient: base_url must be a string, not {type(url).__name__}"


def test_the_base_url_error_masks_credentials_even_when_the_url_cannot_be_parsed():
    with pytest.raises(ConfigurationError) as caught:
        ChatClient("http://alice:pw-secret@[::1/v1?api_key=sk-zzzz", "k", "m")
    assert "pw-secret" not in str(caught.value) and "sk-zzzz" not in str(caught.value)
    assert "'http://***@[::1/v1?***'" in str(caught.value)


@pytest.mark.parametrize(
    "key, where",
    [
        ("sk-\u201cabc\u201d", "U+201C at position 4 of 8"),
        ("sk-ab\ncd", "U+000A at position 6 of 8"),
        # a space pasted after the key (a .env line): h11 refused the header mid-request, which read as
        # "Cannot reach the gateway ... Check LLM_BASE_URL", its error quoting the key down the chain
        ("sk-abcd ", "U+0020 at position 8 of 8"),
        (" sk-abcd", "U+0020 at position 1 of 8"),
    ],
)
def test_an_api_key_that_cannot_go_in_a_header_is_named_by_position_never_shown(key, where):
    """A pasted smart quote or line break used to be a bare UnicodeEncodeError (or a header error)."""
    with pytest.raises(ConfigurationError) as caught:
        ChatClient("http://127.0.0.1:9/v1", key, "m")
    assert str(caught.value) == (
        f"ChatClient: the API key has a character that cannot go in an HTTP header ({where}); API keys are "
        "printable ASCII: check LLM_API_KEY for a pasted quote, space or line break"
    )
    assert key not in str(caught.value)


def test_a_space_inside_a_key_is_a_headers_own():
    """A local gateway takes any key, and a learner may write one with a space ("not needed"):
    a valid header value, refused only at the key's ends."""
    seen = []

    def answer(request):
        seen.append(request.headers["authorization"])
        message = {"role": "assistant", "content": "hello"}
        return httpx.Response(200, json={"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})

    client = ChatClient("http://gw.test/v1", "not needed", "m", transport=httpx.MockTransport(answer))
    client.chat([UserMessage(content="hi")])
    assert seen == ["Bearer not needed"]


class _BreaksOff(httpx.SyncByteStream):
    """A body that sends its first bytes, then the connection breaks."""

    def __init__(self, first: bytes):
        self.first = first

    def __iter__(self):
        yield self.first
        raise httpx.ReadError("Connection reset by peer")


@pytest.mark.parametrize("stream", [False, True])
def test_a_redirect_says_where_to_and_is_not_followed(stream):
    moved = httpx.Response(308, text="Permanent Redirect", headers={"location": "https://gw.test/v1/chat/completions"})
    client, _ = make(Script(moved))
    with pytest.raises(CallerError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    assert caught.value.status == 308
    assert str(caught.value) == (
        "HTTP 308: the gateway redirects to https://gw.test/v1/chat/completions — set LLM_BASE_URL to the "
        "address it redirects to (without /chat/completions; not followed, not retried)"
    )


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    "base_url, location, shown",
    [
        ("http://gw.test/v1", "/api/v1/chat/completions", "http://gw.test/api/v1/chat/completions"),
        (
            "https://gw.test/openai/v1?api-version=1",
            "../../v2/chat/completions",
            "https://gw.test/openai/v2/chat/completions",
        ),
        (
            "http://alice:pw-S3cr3t-0001@gw.test/v1",
            "/v2/chat/completions",
            "http://alice:***@gw.test/v2/chat/completions",
        ),
    ],
    ids=["absolute-path", "relative-path", "credentials"],
)
def test_a_relative_redirect_names_the_absolute_address(stream, base_url, location, shown):
    """Most servers write `Location` as a path; the learner needs the address to set LLM_BASE_URL to."""
    moved = httpx.Response(307, headers={"location": location})
    client = ChatClient(base_url, "sk-secret", "m", transport=httpx.MockTransport(Script(moved)))
    with pytest.raises(CallerError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    assert str(caught.value).startswith(f"HTTP 307: the gateway redirects to {shown} — set LLM_BASE_URL to the ")


def test_a_web_page_answering_a_stream_request_is_not_a_cut_stream():
    page = httpx.Response(200, text="<!doctype html>\n<title>Open WebUI</title>", headers={"content-type": "text/html"})
    client, _ = make(Script(page))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    assert not isinstance(caught.value, TruncatedStreamError)
    assert str(caught.value).startswith(
        "the gateway answered a stream request with no server-sent events (Open WebUI (an HTML page)); "
        "check LLM_BASE_URL"
    )


def test_an_error_body_that_breaks_off_during_a_stream_request_is_transient_and_retried():
    broken = httpx.Response(500, stream=_BreaksOff(b'{"error": {"mess'))
    client, sleeps = make(
        Script(broken, httpx.Response(200, text=SSE_NO_USAGE, headers={"content-type": "text/event-stream"}))
    )
    events = list(client.stream(QUESTION))
    assert isinstance(events[-1], StreamDone) and len(sleeps) == 1
    assert client.exchanges[0].status == 500 and client.exchanges[0].response_text == "<connection broke: ReadError>"


def test_a_plain_answer_to_a_stream_request_that_breaks_off_is_still_named_for_what_it_is():
    broken = httpx.Response(200, stream=_BreaksOff(b'{"id": "x", "choi'), headers={"content-type": "application/json"})
    client, _ = make(Script(broken))
    with pytest.raises(NotAStreamError):
        list(client.stream(QUESTION))


def test_a_base_url_with_a_query_keeps_it_after_the_endpoint():
    """Azure's deployment URLs carry `?api-version=…`."""
    script = Script(httpx.Response(200, json=OK_BODY))
    client = ChatClient(
        "https://res.openai.azure.com/openai/deployments/gpt4o?api-version=2024-10-21#x",
        "k",
        "gpt4o",
        transport=httpx.MockTransport(script),
    )
    client.chat(QUESTION)
    url = script.requests[0].url
    assert (url.path, url.query, url.fragment) == (
        "/openai/deployments/gpt4o/chat/completions",
        b"api-version=2024-10-21",
        "",
    )
    assert (
        client.exchanges[0].url
        == "https://res.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21"
    )


@pytest.mark.parametrize(
    "base_url, sent",
    [
        ("http://gw.example/a%2Fb/v1", b"/a%2Fb/v1/chat/completions"),  # was /a/b/v1/…: another path
        ("http://gw.example/v1%2541?x=%2F", b"/v1%2541/chat/completions?x=%2F"),  # was /v1%41/…: an "A"
        ("http://gw.example/v1%0d%0aX:y/", b"/v1%0d%0aX:y/chat/completions"),  # was httpx's InvalidURL, unforeseen
    ],
)
def test_a_base_urls_path_keeps_its_escapes_as_written(base_url, sent):
    """Before: the endpoint was added to the path httpx gives decoded, and written back."""
    script = Script(httpx.Response(200, json=OK_BODY))
    client = ChatClient(base_url, "k", "m", transport=httpx.MockTransport(script))
    client.chat(QUESTION)
    assert script.requests[0].url.raw_path == sent


@pytest.mark.parametrize(
    "body, said",
    [
        ({"error": "model overloaded, retry later"}, "model overloaded, retry later"),
        ({"detail": "Model not loaded"}, "Model not loaded"),
        ({"error": {"message": "quota\nexceeded"}}, "quota exceeded"),
        ({"error": {"code": 7}}, '{"code": 7}'),
    ],
)
def test_a_200_error_body_says_what_the_gateway_said(body, said):
    with pytest.raises(BadResponseError) as caught:
        parse_completion(json.dumps(body))
    assert str(caught.value) == f"gateway answered 200 with an error: {said}"


def test_a_byte_order_mark_before_a_json_body_is_skipped():
    assert parse_completion("\ufeff" + json.dumps(OK_BODY)).message.tool_calls[0].name == "query_order"


KEY = "sk-MARKER-not-a-real-key-0001"


def _echoing(answer):
    """A gateway that quotes the caller's key in a 200 answer (`answer(key)` -> Response)."""

    def handler(request):
        return answer(request.headers["authorization"].split()[1])

    return httpx.MockTransport(handler)


@pytest.mark.parametrize(
    "answer, stream",
    [
        (lambda key: httpx.Response(200, json={"error": {"message": f"Invalid key {key}"}}), False),
        (lambda key: httpx.Response(200, text=f"<html>{key}</html>"), False),
        (lambda key: httpx.Response(200, json={"choices": [{"message": {"tool_calls": key}}]}), False),
        (lambda key: httpx.Response(200, text=f'data: {{"error": "bad key {key}"}}\n\n'), True),
        (lambda key: httpx.Response(200, text=f"data: {{not json {key}\n\n"), True),
    ],
)
def test_a_200_answer_that_echoes_the_key_never_shows_it(answer, stream):
    client = ChatClient("http://gw.test/v1", KEY, "m", transport=_echoing(answer))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    shown = f"{caught.value} {caught.value.body} {caught.value!r} {client.exchanges[-1]}"
    assert KEY not in shown and "***0001" in f"{caught.value} {caught.value.body}"


def _sse(*chunks):
    return "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + "data: [DONE]\n\n"


def test_a_reply_that_echoes_the_key_gives_the_caller_it_masked():
    """A gateway (an echo server, a relay quoting the request) that writes the key into a reply
    handed it to the caller, and so to memory, the trace and the views, which do not know it: the
    text, a tool call's arguments and a refusal carry it masked, as an error's text does."""

    def answer(key):
        call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": json.dumps({"k": key})}}
        message = {
            "role": "assistant",
            "content": f"you sent {key}",
            "refusal": f"not with {key}",
            "tool_calls": [call],
        }
        return httpx.Response(200, json={"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})

    client = ChatClient("http://gw.test/v1", KEY, "m", transport=_echoing(answer))
    reply = client.chat(QUESTION).message
    assert (reply.content, reply.refusal, reply.tool_calls[0].arguments) == (
        "you sent ***0001", "not with ***0001", '{"k": "***0001"}'
    )  # fmt: skip


def test_a_streamed_reply_that_echoes_the_key_even_across_two_chunks_yields_it_masked():
    """The key in one chunk, and split over two (`sk-MARKER-not-a-` then `real-key-0001`): no piece
    the caller is given holds a part of it, and the assembled reply holds it masked."""
    head, tail = KEY[:16], KEY[16:]
    text = _sse(
        {"choices": [{"index": 0, "delta": {"content": f"key {KEY}; again {head}"}}]},
        {"choices": [{"index": 0, "delta": {"content": f"{tail}!"}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    )
    reply = lambda key: httpx.Response(200, text=text, headers={"content-type": "text/event-stream"})  # noqa: E731
    client = ChatClient("http://gw.test/v1", KEY, "m", transport=_echoing(reply))
    events = list(client.stream(QUESTION))
    pieces = [e.text for e in events if isinstance(e, TextDelta)]
    assert pieces == ["key ***0001; again ", "***0001!"]
    assert events[-1].response.message.content == "key ***0001; again ***0001!"
    assert KEY not in repr(events) and head not in repr(events) and tail not in repr(events)


def test_a_conversation_that_quotes_the_key_never_sends_it_or_shows_it():
    """A tool's result (or the learner) may quote the key: the model never reads it."""
    from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage

    script = Script(httpx.Response(200, json=OK_BODY))
    client = ChatClient("http://gw.test/v1", KEY, "m", transport=httpx.MockTransport(script))
    call = ToolCall(id="c1", name="config")
    client.chat(
        [
            UserMessage(content=f"my key is {KEY}"),
            AssistantMessage(tool_calls=(call,)),
            ToolResultMessage(tool_call_id="c1", tool_name="config", content=f'{{"api_key": "{KEY}"}}'),
        ]
    )
    assert KEY not in script.requests[0].content.decode()
    sent = json.loads(script.requests[0].content)["messages"]
    assert (sent[0]["content"], sent[2]["content"]) == ("my key is ***0001", '{"api_key": "***0001"}')
    assert client.exchanges[0].request["messages"][0]["content"] == "my key is ***0001"


@pytest.mark.parametrize("key", ["none", "EMPTY", "ollama"])
def test_a_placeholder_key_is_masked_in_exchanges_only_where_it_stands_as_a_credential(key):
    """A local gateway's key (`none`, vLLM's `EMPTY`, Ollama's `ollama`) is a word: the exchanges
    showed "*** of the tools" and `"tool_choice": "***"` for it; an echo of its header is still masked."""
    said = f"{key} of the tools fit; echo: Authorization: Bearer {key}"
    reply = {
        **OK_BODY,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": said}}],
    }
    client = ChatClient(
        "http://gw.test/v1", key, "m", transport=httpx.MockTransport(Script(httpx.Response(200, json=reply)))
    )
    assert client.chat(f"is {key} of them right?", tool_choice="none", tools=[TOOL]).message.content == said
    exchange = client.exchanges[0]
    assert exchange.request["messages"][0]["content"] == f"is {key} of them right?"
    assert exchange.request["tool_choice"] == "none"
    assert json.loads(exchange.response_text)["choices"][0]["message"]["content"] == (
        f"{key} of the tools fit; echo: Authorization: Bearer ***"
    )


def test_a_short_placeholder_key_is_not_masked_in_the_conversation():
    client = ChatClient("http://gw.test/v1", "not-needed", "m", transport=httpx.MockTransport(Script()))
    body = client.build_request([UserMessage(content="this step is not-needed")])
    assert body["messages"][0]["content"] == "this step is not-needed"


@pytest.mark.parametrize("value, where", [(float("nan"), "nan at temperature"), (float("inf"), "inf at temperature")])
def test_a_number_json_cannot_carry_is_a_configuration_error_naming_where(value, where):
    client, _ = make(Script())
    with pytest.raises(ConfigurationError) as caught:
        client.chat(QUESTION, temperature=value)
    assert str(caught.value) == (
        f"ChatClient: the request holds {where}, which JSON cannot carry; fix where it comes from "
        "(a tool's schema, an option such as temperature) to a finite number"
    )


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def _holding_itself() -> dict:
    value: dict = {"a": 1}
    value["self"] = value
    return value


@pytest.mark.parametrize(
    "option, said",
    [
        (
            _nested(50_000),
            "is nested too deeply to write as JSON (past Python's recursion limit); look for a message "
            "field, a tool schema or an option nested thousands of levels deep",
        ),
        (
            _holding_itself(),
            "holds a list or dict that contains itself, which JSON cannot write; look for a value put "
            "inside itself in a message field, a tool schema or an option",
        ),
    ],
)
def test_a_request_json_cannot_write_is_a_configuration_error_not_a_recursion_error(option, said):
    """Before: a raw RecursionError; and a value holding itself read "the request holds no NaN or infinity"."""
    script = Script()
    client, _ = make(script)
    with pytest.raises(ConfigurationError) as caught:
        client.chat(QUESTION, metadata=option)
    assert str(caught.value) == f"ChatClient: the request {said}"
    assert script.requests == []


def test_a_port_beyond_65535_is_a_configuration_error():
    with pytest.raises(ConfigurationError) as caught:
        ChatClient("http://127.0.0.1:99999/v1", "k", "m")
    assert str(caught.value) == (
        "ChatClient: base_url 'http://127.0.0.1:99999/v1' has port 99999; a port is 1-65535 (check LLM_BASE_URL)"
    )


def test_a_gateway_that_refuses_stream_options_streams_without_them():
    """Older vLLM, TGI and some proxies answer 400 to `stream_options`: the client asks again
    without it (usage then reads "not reported"), and does not ask for it again."""
    refused = httpx.Response(400, json={"error": {"message": "Unrecognized request argument supplied: stream_options"}})
    streamed = httpx.Response(200, text=SSE_NO_USAGE, headers={"content-type": "text/event-stream"})
    again = httpx.Response(200, text=SSE_NO_USAGE, headers={"content-type": "text/event-stream"})
    script = Script(refused, streamed, again)
    client, _ = make(script)
    events = list(client.stream(QUESTION))
    assert events[-1].response.message.content == "hi" and events[-1].response.usage.reported is False
    list(client.stream(QUESTION))
    sent = [json.loads(r.content) for r in script.requests]
    assert ["stream_options" in body for body in sent] == [True, False, False]
    assert client.usage_in_stream is False


@pytest.mark.parametrize(
    "detail",
    [
        [{"type": "extra_forbidden", "loc": ["body", "stream_options"], "msg": "Extra inputs are not permitted"}],
        [{"loc": ["body", "stream_options"], "msg": "extra fields not permitted", "type": "value_error.extra"}],
    ],
    ids=["pydantic-2", "pydantic-1"],
)
def test_a_strict_fastapi_gateway_that_answers_422_to_stream_options_streams_without_them(detail):
    """A FastAPI server whose request model forbids extra fields answers 422, not 400, naming
    `stream_options`, which the client added itself: asked again without it, as after a 400."""
    refused = httpx.Response(422, json={"detail": detail})
    streamed = httpx.Response(200, text=SSE_NO_USAGE, headers={"content-type": "text/event-stream"})
    script = Script(refused, streamed)
    client, sleeps = make(script)
    events = list(client.stream(QUESTION))
    assert events[-1].response.message.content == "hi" and sleeps == []
    assert ["stream_options" in json.loads(r.content) for r in script.requests] == [True, False]
    assert client.usage_in_stream is False


TOOL = {"type": "function", "function": {"name": "query_order", "parameters": {"type": "object", "properties": {}}}}
REFUSED_CHOICE = [
    httpx.Response(
        422, json={"detail": [{"loc": ["body", "tool_choice"], "msg": "extra fields not permitted", "type": "x"}]}
    ),
    httpx.Response(400, json={"error": {"message": "Unrecognized request argument supplied: tool_choice"}}),
]


@pytest.mark.parametrize("refused", REFUSED_CHOICE, ids=["fastapi-422", "400"])
def test_a_gateway_that_refuses_tool_choice_auto_is_asked_again_without_it(refused):
    """Before: `chat(..., tool_choice="auto")` (week 3's hand-written loop, the course loop's
    options) on a strict server was a CallerError and the notebook stopped; "auto" is what a
    request with tools means anyway, so it is left out, at once, and for this gateway from then on."""
    script = Script(refused, httpx.Response(200, json=OK_BODY), httpx.Response(200, json=OK_BODY))
    client, sleeps = make(script)
    assert client.chat(QUESTION, tools=[TOOL], tool_choice="auto").message.tool_calls[0].name == "query_order"
    client.chat(QUESTION, tools=[TOOL], tool_choice="auto")
    sent = [json.loads(r.content) for r in script.requests]
    assert [body.get("tool_choice") for body in sent] == ["auto", None, None]
    assert all(body["tools"] for body in sent) and sleeps == [] and client.auto_choice_sent is False


def test_a_stream_whose_tool_choice_auto_is_refused_is_asked_again_without_it():
    refused = REFUSED_CHOICE[0]
    streamed = httpx.Response(200, text=SSE_NO_USAGE, headers={"content-type": "text/event-stream"})
    script = Script(refused, streamed)
    client, _ = make(script)
    events = list(client.stream(QUESTION, tools=[TOOL], tool_choice="auto"))
    assert events[-1].response.message.content == "hi"
    assert [json.loads(r.content).get("tool_choice") for r in script.requests] == ["auto", None]
    assert client.usage_in_stream is True


@pytest.mark.parametrize("choice", ["required", "none", {"type": "function", "function": {"name": "query_order"}}])
def test_a_refused_tool_choice_other_than_auto_is_not_left_out(choice):
    """Leaving out "required", "none" or a named function would change what is asked: the 422 stands."""
    script = Script(REFUSED_CHOICE[0])
    client, _ = make(script)
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION, tools=[TOOL], tool_choice=choice)
    assert str(caught.value).startswith("HTTP 422: body.tool_choice: extra fields not permitted")
    assert len(script.requests) == 1 and client.auto_choice_sent is True


def test_a_400_about_something_else_is_not_retried_without_stream_options():
    refused = httpx.Response(400, json={"error": {"message": "model not found"}})
    client, _ = make(Script(refused))
    with pytest.raises(CallerError):
        list(client.stream(QUESTION))
    assert client.usage_in_stream is True


def _choice_error(code, message, text):
    """OpenRouter's reply when the provider fails after it began: 200, the choice's text so far,
    `finish_reason: "error"` and the error on the choice (`NonStreamingChoice.error`, in
    openrouter.ai/docs/api-reference/overview's response schema)."""
    choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "error"}
    return {"id": "gen-1", "model": "m", "choices": [{**choice, "error": {"code": code, "message": message}}]}


def test_an_error_on_the_choice_is_the_gateways_error_not_a_partial_answer():
    """Before, the text so far ("The parcel is") was the answer, or, with no text, the reply was
    "empty: the model said nothing", the gateway's own words lost and its 502 never retried."""
    client, sleeps = make(
        Script(
            httpx.Response(200, json=_choice_error(502, "Upstream provider disconnected", "The parcel is")),
            httpx.Response(200, json=OK_BODY),
        )
    )
    assert client.chat(QUESTION).message.tool_calls[0].name == "query_order"
    assert len(sleeps) == 1
    client, sleeps = make(Script(httpx.Response(200, json=_choice_error(400, "Provider returned error", ""))))
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == "gateway answered 200 with an error: Provider returned error"
    assert sleeps == []


def test_an_error_on_a_streamed_choice_is_the_gateways_error_not_a_partial_answer():
    """OpenRouter's `StreamingChoice` carries `error` too (with `finish_reason: "error"`)."""
    cut = {"index": 0, "delta": {"content": ""}, "finish_reason": "error", "error": {"code": 400, "message": "Bad"}}
    body = sse_body({"choices": [{"index": 0, "delta": {"content": "The parcel is"}}]}, {"choices": [cut]})
    client, _ = make(Script(httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == "gateway sent an error mid-stream: Bad"


def test_a_body_cut_off_on_the_way_does_not_send_the_learner_to_llm_base_url():
    """Its hint was BadResponseError's own, "Check that LLM_BASE_URL points at an OpenAI-compatible
    /v1 endpoint.", for an answer that is the API's JSON, only cut short."""
    client, _ = make(Script(httpx.Response(200, text=json.dumps(OK_BODY)[:60])))
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert caught.value.hint == (
        "The answer arrived cut short (the gateway, or a proxy on the way, stopped writing it); nothing from it "
        "was used, and running the cell again may work."
    )
    assert "Hint: The answer arrived cut short" in "".join(caught.value._render_traceback_())


@pytest.mark.parametrize(
    "host, why",
    [
        ("a" * 64 + ".example.com", "a part between dots is longer than 63 characters"),
        ("gw..example.com", "a part between dots is empty"),
        (".gw.example.com", "a part between dots is empty"),
    ],
)
def test_a_base_url_whose_host_name_cannot_be_looked_up_is_a_configuration_error(host, why):
    """A part of a host name longer than 63 characters (or empty) raised a bare UnicodeError ("encoding
    with 'idna' codec failed") from the socket at the first request: the playground's turn vanished."""
    url = f"http://{host}/v1"
    with pytest.raises(ConfigurationError) as caught:
        ChatClient(url, "k", "m")
    assert str(caught.value) == (
        f"ChatClient: base_url {url!r} has a host name that cannot be looked up ({why}): each part between "
        f"dots is 1-63 characters; {URL_FIX}"
    )
    for fine in ("http://[::1]:8000/v1", "http://例子.测试/v1", "http://gw.example.com./v1", "http://127.0.0.1:9/v1"):
        ChatClient(fine, "k", "m")


@pytest.mark.parametrize(
    "url", ["http:// gw.example.com/v1", "http://gw .example.com/v1", "http://gw%41.example.com/v1"]
)
def test_a_base_url_whose_host_holds_a_space_is_a_configuration_error(url):
    """`LLM_BASE_URL="http:// gw/v1"` passed the check (httpx writes the space as %20 in the host) and failed
    at the first request as "Name or service not known", blamed on the network."""
    with pytest.raises(ConfigurationError) as caught:
        ChatClient(url, "k", "m")
    assert str(caught.value) == (
        f"ChatClient: base_url {url!r} has a host name that cannot be looked up (it holds a space or a character "
        f"written as %XX; a host name has letters, digits, '-' and '.'); {URL_FIX}"
    )


OVERLOADS_WITHOUT_AN_ERROR_KEY = [
    {"object": "error", "message": "Rate limit reached for requests", "type": "RateLimitError", "code": 429},
    {"code": 429, "msg": "请求过于频繁，请稍后再试"},
    {"object": "error", "message": "The server is overloaded", "code": 503},
]


SSE_OK = 'data: {"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}\n\ndata: [DONE]\n\n'


@pytest.mark.parametrize("body", OVERLOADS_WITHOUT_AN_ERROR_KEY)
@pytest.mark.parametrize("label", ["application/json", "text/event-stream"])
@pytest.mark.parametrize("path", ["chat", "stream"])
def test_a_200_that_reports_an_overload_without_an_error_key_is_retried_on_every_path(body, label, path):
    """Before: as one chunk of an event stream it was the gateway's overload, retried; as a plain 200
    body (to chat(), or to stream() from a relay that answers in JSON) it was 'response has no
    choices' (chat) or NotAStreamError (stream), not retried, the hint sending the learner to LLM_BASE_URL."""
    text = json.dumps(body) if label == "application/json" else f"data: {json.dumps(body)}\n\n"
    then = (
        httpx.Response(200, json=OK_BODY)
        if path == "chat"
        else httpx.Response(200, text=SSE_OK, headers={"content-type": "text/event-stream"})
    )
    script = Script(httpx.Response(200, headers={"content-type": label}, text=text), then)
    client, sleeps = make(script, retry=RetryPolicy(max_retries=1, backoff_s=1))
    if path == "chat":
        assert client.chat(QUESTION).usage.total_tokens == 28
    else:
        assert list(client.stream(QUESTION))[-1].response.message.content == "ok"
    assert len(script.requests) == 2 and sleeps == [1]


@pytest.mark.parametrize("body", OVERLOADS_WITHOUT_AN_ERROR_KEY)
def test_a_200_that_reports_an_overload_without_an_error_key_says_it(body):
    said = body.get("message") or body.get("msg")
    client, _ = make(Script(httpx.Response(200, json=body)), retry=RetryPolicy(max_retries=0))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == f"gateway answered 200 with an error (code {body['code']}, transient): {said}"


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    "base_url, location, said",
    [
        (
            "https://gw.test/v1",
            "https://collector.example.net/v1/chat/completions",
            "HTTP 302: the gateway redirects to https://collector.example.net/v1/chat/completions, another host than "
            "LLM_BASE_URL's (gw.test) — not followed, so LLM_API_KEY was not sent there; only if you trust that "
            "host with your key, set LLM_BASE_URL to that address (without /chat/completions; not retried)",
        ),
        (
            "https://gw.test/v1",
            "http://gw.test/v1/chat/completions",
            "HTTP 302: the gateway redirects to http://gw.test/v1/chat/completions, plain http, where LLM_API_KEY "
            "would travel unencrypted — not followed; keep LLM_BASE_URL on https (ask the gateway's owner for its "
            "https address; not retried)",
        ),
    ],
    ids=["another-host", "to-plain-http"],
)
def test_a_redirect_that_would_take_the_key_elsewhere_says_so(stream, base_url, location, said):
    """Before: 'set LLM_BASE_URL to the address it redirects to', whatever the address: the learner was
    told to send the key to another host, or over plain http, on a redirect's word."""
    moved = httpx.Response(302, headers={"location": location})
    script = Script(moved)
    client = ChatClient(base_url, "sk-secret", "m", transport=httpx.MockTransport(script))
    with pytest.raises(CallerError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    assert str(caught.value) == said
    assert [str(request.url) for request in script.requests] == [f"{base_url}/chat/completions"]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("location", ["mailto:x", "http://[::1"])
def test_a_redirect_to_no_url_is_the_gateways_fault_not_a_crash_or_an_unreachable_gateway(stream, location):
    """Before: httpx builds the redirect it will not follow, and a `Location` that is no URL raised a bare
    httpx.InvalidURL out of chat() ('mailto:x'), or a RemoteProtocolError read as 'Cannot reach the gateway'
    and retried ('http://[::1')."""
    script = Script(httpx.Response(302, headers={"location": location}))
    client, sleeps = make(script)
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    assert str(caught.value) == (
        "the gateway answered with a redirect (not followed) to an address that is no URL: check LLM_BASE_URL "
        "(it usually ends in /v1)"
    )
    assert len(script.requests) == 1 and sleeps == []


@pytest.mark.parametrize(
    "key, said",
    [
        ('"sk-abcdefgh"', 'is wrapped in quotes ("…"): set LLM_API_KEY to the key without them (%env keeps them)'),
        ("'sk-abcdefgh'", "is wrapped in quotes ('…'): set LLM_API_KEY to the key without them (%env keeps them)"),
        ("Bearer sk-abcdefgh", "starts with 'Bearer ', which the client adds itself: set LLM_API_KEY to the key alone"),
        ("bearer sk-abcdefgh", "starts with 'bearer ', which the client adds itself: set LLM_API_KEY to the key alone"),
    ],
)
def test_an_api_key_pasted_with_its_quotes_or_its_scheme_is_refused_before_it_is_sent(key, said):
    """Before: sent as it was (`Authorization: Bearer "sk-…"`, `Bearer Bearer sk-…`), refused by the
    gateway as a wrong key: `%env LLM_API_KEY="sk-…"` in a notebook keeps the quotes."""
    with pytest.raises(ConfigurationError) as caught:
        ChatClient("http://127.0.0.1:9/v1", key, "m")
    assert str(caught.value) == f"ChatClient: the API key {said}"
    assert "sk-abcdefgh" not in str(caught.value)


GEMINI_BAD_KEY = [
    {
        "error": {
            "code": 400,
            "message": "API key not valid. Please pass a valid API key.",
            "status": "INVALID_ARGUMENT",
            "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}],
        }
    }
]


def test_an_error_wrapped_in_a_list_is_read_for_its_message_and_a_bad_key_in_a_400_is_named():
    """Gemini's OpenAI-compatible endpoint sends its errors as a one-item list, and a wrong key as a 400.
    Before: 'HTTP 400: [{"error":{"code":400,…' — the gateway rejected the request body; fix it."""
    client, _ = make(Script(httpx.Response(400, json=GEMINI_BAD_KEY)))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == (
        "HTTP 400: API key not valid. Please pass a valid API key. — check LLM_API_KEY (not retried)"
    )


@pytest.mark.parametrize(
    "said",
    ["Invalid 'messages': must be a list", "max_tokens is too large", "invalid value for api_version"],
)
def test_a_400_that_names_no_key_keeps_the_request_body_hint(said):
    client, _ = make(Script(httpx.Response(400, json={"error": {"message": said}})))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == f"HTTP 400: {said} — the gateway rejected the request body; fix it (not retried)"


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    "location, said",
    [
        (
            "/login?next=/v1/chat/completions",
            "HTTP 302: the gateway redirects to http://gw.test/login?next=/v1/chat/completions — not followed: no "
            "address the client sends to (LLM_BASE_URL and /chat/completions), perhaps a proxy's or a network's "
            "sign-in page; check LLM_BASE_URL (it usually ends in /v1), and sign in to the network first if a "
            "browser asks you to (not retried)",
        ),
        (
            "/",
            "HTTP 302: the gateway redirects to http://gw.test/ — not followed: no address the client sends to "
            "(LLM_BASE_URL and /chat/completions), perhaps a proxy's or a network's sign-in page; check "
            "LLM_BASE_URL (it usually ends in /v1), and sign in to the network first if a browser asks you to "
            "(not retried)",
        ),
        (
            "/v1/chat/completions/",
            "HTTP 302: the gateway redirects to http://gw.test/v1/chat/completions/ — not followed: no address the "
            "client sends to (LLM_BASE_URL and /chat/completions), perhaps a proxy's or a network's sign-in page; "
            "check LLM_BASE_URL (it usually ends in /v1), and sign in to the network first if a browser asks you "
            "to (not retried)",
        ),
        (
            "/v1/chat/completions",
            "HTTP 302: the gateway redirects to http://gw.test/v1/chat/completions — not followed: that is the "
            "address asked, so the gateway (or a proxy in front of it) sends the request back to itself; check the "
            "gateway (not retried)",
        ),
        (
            None,
            "HTTP 302: the gateway redirects to (no Location given) — not followed; check LLM_BASE_URL (it usually "
            "ends in /v1) (not retried)",
        ),
    ],
    ids=["sign-in-page", "front-page", "trailing-slash", "to-itself", "no-location"],
)
def test_a_redirect_that_is_no_chat_endpoint_does_not_say_to_set_llm_base_url_to_it(stream, location, said):
    """Before: 'set LLM_BASE_URL to the address it redirects to (without /chat/completions …)' for a
    captive portal's /login, a site's front page, the same address with a slash the client never sends,
    the very address asked, or no address at all."""
    moved = httpx.Response(302, headers={"location": location} if location else {})
    script = Script(moved)
    client = ChatClient("http://gw.test/v1", "sk-secret", "m", transport=httpx.MockTransport(script))
    with pytest.raises(CallerError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    assert str(caught.value) == said
    assert len(script.requests) == 1


THINKING_REFUSED = [
    {
        "error": {
            "code": "invalid_parameter_error",
            "param": None,
            "message": "parameter.enable_thinking must be set to false for non-streaming calls",
            "type": "invalid_request_error",
        }
    },
    {
        "error": {
            "code": "invalid_parameter_error",
            "message": "parameter.enable_thinking必须设置为false才能进行非流式调用",
        }
    },
]


@pytest.mark.parametrize("refusal", THINKING_REFUSED, ids=["english", "chinese"])
def test_a_gateway_that_thinks_only_when_streaming_is_asked_again_with_thinking_off(refusal):
    """DashScope serves Qwen3's open models thinking by default and refuses a call not streamed with
    a 400 until `enable_thinking` is false: every chat() (weeks 1-10's plain calls) was 'the gateway
    rejected the request body; fix it'. Asked again at once with it false, and so from then on; a
    stream is sent as it was."""
    ok = [httpx.Response(200, json=OK_BODY) for _ in range(2)]
    streamed = httpx.Response(200, text=SSE_NO_USAGE, headers={"content-type": "text/event-stream"})
    script = Script(httpx.Response(400, json=refusal), *ok, streamed)
    client, sleeps = make(script)
    assert client.chat(QUESTION).message.tool_calls[0].name == "query_order"
    client.chat(QUESTION)
    list(client.stream(QUESTION))
    sent = [json.loads(r.content) for r in script.requests]
    assert [body.get("enable_thinking") for body in sent] == [None, False, False, None]
    assert sleeps == [] and client.thinking_off_unstreamed is True


def test_thinking_the_caller_asked_for_is_not_turned_off():
    script = Script(httpx.Response(400, json=THINKING_REFUSED[0]))
    client, _ = make(script)
    with pytest.raises(CallerError):
        client.chat(QUESTION, enable_thinking=True)
    assert len(script.requests) == 1 and client.thinking_off_unstreamed is False
