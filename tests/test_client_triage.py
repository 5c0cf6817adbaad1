"""The chat client's triage of what a 200 can hide (an empty reply, an overload inside it), of
timeouts and broken streams, the hints that go with them, and the key kept off exception chains."""

import contextlib
import json
import socket
import threading

import httpx
import pytest
from test_client import Script

from toolkit.chat.client import ChatClient, RetryPolicy, parse_completion
from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel
from toolkit.chat.sse import StreamDone, TextDelta, assemble
from toolkit.course.live import explain, gateway_cell
from toolkit.errors import BadResponseError, ModelCallError, TransientError, TruncatedStreamError

QUESTION = [UserMessage(content="hi")]
KEY = "sk-proj-" + "S3cr3t" * 8
SSE = {"content-type": "text/event-stream"}
ANSWER = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Shipped."}, "finish_reason": "stop"}]}


def make(script, base_url="http://gw.test/v1", **kw):
    sleeps = []
    client = ChatClient(base_url, KEY, "m", transport=httpx.MockTransport(script), sleep=sleeps.append, **kw)
    return client, sleeps


def sse(*chunks, done=True):
    text = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks)
    return text + ("data: [DONE]\n\n" if done else "")


def chunk(delta, finish=None):
    return {"id": "c", "model": "m", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def completion(message, finish):
    return {"id": "c", "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}]}


# --- an empty reply (fidelity #2) ---------------------------------------------------------------

EMPTY = {
    "length": (
        'the model\'s reply is empty (no text, no tool calls, no refusal; finish_reason "length"): it was cut off '
        "before any text; raise max_tokens (or max_completion_tokens), or leave it unset"
    ),
    "content_filter": (
        'the model\'s reply is empty (no text, no tool calls, no refusal; finish_reason "content_filter"): the '
        "gateway's content filter removed it; rephrase the request, or check the gateway's filter"
    ),
    "stop": (
        'the model\'s reply is empty (no text, no tool calls, no refusal; finish_reason "stop"): the model said '
        "nothing; run the cell again, or try another model"
    ),
    "tool_calls": (  # vLLM's `"tool_calls": []` when its tool-call parser read none in what the model wrote
        'the model\'s reply is empty (no text, no tool calls, no refusal; finish_reason "tool_calls"): it stopped to '
        "call a tool, but the gateway sent no call (its tool-call parser found none in what the model wrote); run "
        "the cell again, or try another model or the prompt-protocol fallback"
    ),
    "function_call": (
        'the model\'s reply is empty (no text, no tool calls, no refusal; finish_reason "function_call"): it stopped '
        "to call a tool, but the gateway sent no call (its tool-call parser found none in what the model wrote); "
        "run the cell again, or try another model or the prompt-protocol fallback"
    ),
    None: (
        "the model's reply is empty (no text, no tool calls, no refusal; no finish_reason): the model said "
        "nothing; run the cell again, or try another model"
    ),
}
EMPTY_HINT = "The gateway answered, but with nothing to use; nothing was executed. The message names the likely fix."


@pytest.mark.parametrize("content", [None, ""])
@pytest.mark.parametrize("finish", list(EMPTY))
def test_an_empty_reply_is_a_bad_response_naming_finish_reason_and_the_fix(finish, content):
    script = Script(httpx.Response(200, json=completion({"content": content}, finish)))
    client, sleeps = make(script)
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == EMPTY[finish]
    assert caught.value.hint == EMPTY_HINT and caught.value.status == 200
    assert len(script.requests) == 1 and sleeps == []  # not retried


def test_vllms_empty_list_of_calls_under_finish_reason_tool_calls_says_no_call_came():
    body = completion({"content": None, "tool_calls": []}, "tool_calls")
    with pytest.raises(BadResponseError) as caught:
        parse_completion(json.dumps(body))
    assert str(caught.value) == EMPTY["tool_calls"]


@pytest.mark.parametrize("finish", ["length", "content_filter", "tool_calls"])
def test_an_empty_streamed_reply_reads_the_same_as_on_chat(finish):
    body = sse(chunk({"role": "assistant", "content": ""}), chunk({}, finish))
    script = Script(httpx.Response(200, text=body, headers=SSE))
    client, sleeps = make(script)
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == EMPTY[finish] and caught.value.hint == EMPTY_HINT
    assert len(script.requests) == 1 and sleeps == []
    with pytest.raises(BadResponseError, match="^the model's reply is empty"):
        list(assemble(body.splitlines()))


def test_reasoning_alone_is_still_an_empty_reply():
    """DeepSeek's thinking mode cut by max_tokens: all reasoning, no answer."""
    body = completion({"content": None, "reasoning_content": "Let me think about SN1..."}, "length")
    with pytest.raises(BadResponseError) as caught:
        parse_completion(json.dumps(body))
    assert str(caught.value) == EMPTY["length"]


@pytest.mark.parametrize("finish", ["stop", None])
def test_reasoning_alone_that_stopped_does_not_read_as_a_model_that_said_nothing(finish):
    """It read "the model said nothing" for a reply whose model reasoned at length (DeepSeek's
    `reasoning_content`), then stopped without an answer."""
    body = completion({"content": "", "reasoning_content": "Let me think about SN1. " * 10}, finish)
    with pytest.raises(BadResponseError) as caught:
        parse_completion(json.dumps(body))
    named = 'finish_reason "stop"' if finish else "no finish_reason"
    assert str(caught.value) == (
        f"the model's reply is empty (no text, no tool calls, no refusal; {named}): the model only reasoned (240 "
        "characters of reasoning_content) and gave no answer; run the cell again, or try another model"
    )


def test_a_refusal_or_a_tool_call_without_text_is_not_empty():
    refused = parse_completion(json.dumps(completion({"content": None, "refusal": "I can't help."}, "stop")))
    assert refused.message.refusal == "I can't help."
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    called = parse_completion(json.dumps(completion({"content": "", "tool_calls": [call]}, "tool_calls")))
    assert called.message.tool_calls[0].name == "f"


def test_an_empty_reply_is_masked_like_every_other_error():
    body = completion({"content": None}, "length") | {"id": f"echo {KEY}"}
    client, _ = make(Script(httpx.Response(200, json=body)))
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert KEY not in caught.value.body and "***" in caught.value.body


@pytest.mark.parametrize("turn", ["", None])
def test_a_scripted_model_refuses_an_empty_turn_like_the_client(turn):
    from toolkit.chat.messages import AssistantMessage, ChatResponse

    empty = "" if turn == "" else ChatResponse(message=AssistantMessage(), finish_reason="length")
    model = ScriptedModel([empty])
    with pytest.raises(BadResponseError) as caught:
        model.chat(QUESTION)
    assert str(caught.value) == EMPTY["stop" if turn == "" else "length"]


# --- the TransientError hint says what happened (failures #15a) ---------------------------------


def test_a_429_that_was_not_retried_does_not_say_it_was():
    script = Script(httpx.Response(429, headers={"retry-after": "120"}, json={"error": {"message": "rate limited"}}))
    client, sleeps = make(script)
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert caught.value._render_traceback_() == [
        "TransientError: HTTP 429 (transient): rate limited — the gateway asks to wait 120 s, more than "
        "RetryPolicy.max_retry_after_s=30; not retried, try again later (the wait is in .retry_after)",
        "Hint: It was not retried (1 request sent); running the cell again later may work. "
        "(%tb shows the full traceback)",
    ]
    assert len(script.requests) == 1 and sleeps == []


def test_a_retried_failure_says_how_many_requests_were_sent():
    client, _ = make(Script(*[httpx.Response(503, text="busy")] * 3))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert caught.value.hint == (
        "It was sent 3 times, waiting 1.5 s in all between them, before giving up; running the cell again later "
        "may work."
    )
    assert caught.value.waited == 1.5


def test_a_429_on_every_attempt_says_the_whole_wait_which_the_policy_bounds():
    limited = httpx.Response(429, headers={"retry-after": "30"}, json={"error": {"message": "rate limited"}})
    client, sleeps = make(Script(*[limited] * 3))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert sleeps == [30.0, 30.0] and caught.value.waited == 60.0
    assert caught.value._render_traceback_() == [
        "TransientError: HTTP 429 (transient): rate limited",
        "Hint: It was sent 3 times, waiting 60 s in all between them, before giving up; running the cell again "
        "later may work. (%tb shows the full traceback)",
    ]


def test_a_stream_retried_after_an_overload_it_reported_counts_every_wait():
    overload = "data: " + json.dumps({"error": {"code": 502, "message": "overloaded"}}) + "\n\n"
    busy = httpx.Response(503, text="busy")
    streamed = httpx.Response(200, text=overload, headers={"content-type": "text/event-stream"})
    client, sleeps = make(Script(busy, streamed, streamed))
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert sleeps == [0.5, 1.0] and caught.value.attempts == 3 and caught.value.waited == 1.5


# --- an overload reported inside a 200 (failures #16) -------------------------------------------

OVERLOAD = {"error": {"code": 502, "message": "Provider returned error: overloaded"}}


def test_an_overload_in_a_200_body_is_retried_like_its_status():
    script = Script(httpx.Response(200, json=OVERLOAD), httpx.Response(200, json=ANSWER))
    client, sleeps = make(script)
    assert client.chat(QUESTION).message.content == "Shipped."
    assert sleeps == [0.5] and len(script.requests) == 2


def test_an_overload_in_a_200_body_that_persists_is_transient_and_does_not_blame_the_url():
    client, sleeps = make(Script(*[httpx.Response(200, json=OVERLOAD)] * 3))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    error = caught.value
    assert str(error) == (
        "gateway answered 200 with an error (code 502, transient): Provider returned error: overloaded"
    )
    assert (error.status, error.attempts, sleeps) == (502, 3, [0.5, 1.0])
    assert "LLM_BASE_URL" not in error.hint


@pytest.mark.parametrize(
    "error, named, status",
    [
        ({"code": "503", "message": "busy"}, "code 503", 503),
        ({"code": 429, "message": "busy"}, "code 429", 429),
        ({"code": "rate_limit_exceeded", "message": "busy"}, "rate_limit_exceeded", 429),
        ({"type": "server_error", "code": None, "message": "busy"}, "server_error", 500),
        ({"type": "overloaded_error", "message": "busy"}, "overloaded_error", 503),
    ],
)
def test_the_overloads_and_rate_limits_a_200_can_name(error, named, status):
    with pytest.raises(TransientError) as caught:
        parse_completion(json.dumps({"error": error}))
    assert str(caught.value) == f"gateway answered 200 with an error ({named}, transient): busy"
    assert caught.value.status == status


def test_any_other_error_in_a_200_stays_a_bad_response_that_does_not_blame_the_url():
    script = Script(httpx.Response(200, json={"error": {"code": 400, "message": "context too long"}}))
    client, sleeps = make(script)
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == "gateway answered 200 with an error: context too long"
    assert caught.value.hint == "The gateway reported this error itself; the message says what went wrong."
    assert sleeps == [] and len(script.requests) == 1


def test_an_overload_event_before_any_output_is_retried():
    failed = httpx.Response(200, text="data: " + json.dumps(OVERLOAD) + "\n\n", headers=SSE)
    fine = httpx.Response(200, text=sse(chunk({"content": "Hi"}), chunk({}, "stop")), headers=SSE)
    script = Script(failed, fine)
    client, sleeps = make(script)
    events = list(client.stream(QUESTION))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hi"] and isinstance(events[-1], StreamDone)
    assert sleeps == [0.5] and [e.attempt for e in client.exchanges] == [1, 2]


def test_an_overload_event_that_persists_reads_like_the_chat_path():
    script = Script(*[httpx.Response(200, text="data: " + json.dumps(OVERLOAD) + "\n\n", headers=SSE)] * 3)
    client, sleeps = make(script)
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    error = caught.value
    assert str(error) == ("gateway sent an error mid-stream (code 502, transient): Provider returned error: overloaded")
    assert (error.status, error.attempts, sleeps) == (502, 3, [0.5, 1.0])
    assert "LLM_BASE_URL" not in error.hint


def test_an_overload_event_after_output_is_not_retried_and_says_why():
    body = sse(chunk({"content": "Hel"}), done=False) + "data: " + json.dumps(OVERLOAD) + "\n\n"
    script = Script(httpx.Response(200, text=body, headers=SSE))
    client, sleeps = make(script)
    seen = []
    with pytest.raises(TransientError) as caught:
        for event in client.stream(QUESTION):
            seen.append(event)
    assert str(caught.value) == (
        "gateway sent an error mid-stream (code 502, transient): Provider returned error: overloaded; "
        "not retried: part of the reply had already arrived"
    )
    assert [e.text for e in seen] == ["Hel"] and sleeps == [] and caught.value.attempts == 1
    assert caught.value.hint == "It was not retried (1 request sent); running the cell again later may work."


def test_http_and_in_stream_retries_share_one_budget():
    overloaded = httpx.Response(200, text="data: " + json.dumps(OVERLOAD) + "\n\n", headers=SSE)
    script = Script(httpx.Response(503, text="busy"), overloaded, overloaded)
    client, sleeps = make(script, retry=RetryPolicy(max_retries=2))
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert caught.value.attempts == 3 and len(script.requests) == 3 and sleeps == [0.5, 1.0]


def test_an_error_event_without_an_overload_is_one_line_without_a_dict_repr():
    with pytest.raises(BadResponseError) as caught:
        list(assemble(["data: " + json.dumps({"error": {"code": 400, "message": "bad\nrequest"}})]))
    assert str(caught.value) == "gateway sent an error mid-stream: bad request"
    with pytest.raises(BadResponseError) as caught:
        list(assemble(["data: " + json.dumps({"error": {"param": "x"}})]))
    assert str(caught.value) == 'gateway sent an error mid-stream: {"param": "x"}'


# --- a slow gateway is not an unreachable one (failures #17) --------------------------------------


def test_a_read_timeout_is_explained_as_slow_with_the_fix(capsys):
    client, _ = make(Script(*[httpx.ReadTimeout("timed out")] * 3), base_url="https://gw.example/v1", timeout=30)
    with gateway_cell(client):
        client.chat(QUESTION)
    assert capsys.readouterr().out == (
        "The gateway at https://gw.example/v1 was reached but did not answer in time (request timed out "
        "(ReadTimeout) after 30s). A slow model (a reasoning model can think for minutes) needs a longer "
        "timeout, e.g. connect(timeout=120); or run the cell again.\n"
    )


def test_a_connect_timeout_is_still_unreachable():
    client, _ = make(Script(*[httpx.ConnectTimeout("timed out")] * 3), timeout=httpx.Timeout(30, connect=5))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert explain(caught.value, client) == (
        "Cannot reach the gateway at http://gw.test/v1 (request timed out (ConnectTimeout) after 5s). "
        "Check LLM_BASE_URL, or unset the LLM_* variables to use the embedded gateway."
    )


# --- an answer that broke off after it began is no unreachable gateway ---------------------------


@contextlib.contextmanager
def raw_server(reply, stall=0.0):
    """A server on 127.0.0.1 that reads each request and writes `reply` (bytes, as they are), waits
    `stall` seconds, then closes the connection: an answer cut short however its head promised it."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            with conn:
                read_request(conn)  # all of it: a close with unread bytes would reset the connection
                conn.sendall(reply)
                stop.wait(stall)
                with contextlib.suppress(OSError):  # the client may have gone already
                    conn.shutdown(socket.SHUT_WR)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    finally:
        stop.set()
        thread.join()
        listener.close()


def read_request(conn):
    """One HTTP request off `conn`: its head, then as many bytes of body as its Content-Length says."""
    data = b""
    while b"\r\n\r\n" not in data:
        piece = conn.recv(65536)
        if not piece:  # the client went away
            return
        data += piece
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0
    )
    while len(body) < length:
        piece = conn.recv(65536)
        if not piece:
            return
        body += piece


CUT_BODY = b'{"choices":[{"index":0,"message":{"role":"assistant","content":"Ship'
CUT_ANSWERS = {
    "content-length": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n" + CUT_BODY,
    "chunked": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    + b"%x\r\n%s\r\n" % (len(CUT_BODY), CUT_BODY),
}


@pytest.mark.parametrize("framing", sorted(CUT_ANSWERS))
def test_an_answer_that_broke_off_says_so_not_that_the_gateway_cannot_be_reached(framing):
    sleeps = []
    with raw_server(CUT_ANSWERS[framing]) as base_url:
        client = ChatClient(base_url, KEY, "m", retry=RetryPolicy(max_retries=1), sleep=sleeps.append)
        with pytest.raises(TransientError) as caught:
            client.chat(QUESTION)
        client.close()
    said = (
        f"The gateway at {base_url} answered, but its answer broke off before it was complete "
        "(RemoteProtocolError); nothing from it was used."
    )
    assert str(caught.value) == said and explain(caught.value, client) == said
    assert caught.value.attempts == 2 and sleeps == [0.5]  # retried, as any broken connection


def test_an_answer_that_stalls_after_its_head_is_a_read_timeout():
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n" + CUT_BODY
    with raw_server(head, stall=2.0) as base_url:
        client = ChatClient(base_url, KEY, "m", timeout=0.3, retry=RetryPolicy(max_retries=0))
        with pytest.raises(TransientError) as caught:
            client.chat(QUESTION)
        client.close()
    assert str(caught.value) == "request timed out (ReadTimeout) after 0.3s"
    assert explain(caught.value, client).startswith(f"The gateway at {base_url} was reached but did not answer in time")


# --- a stream that stops arriving says why (failures #18) -----------------------------------------


class _Stops(httpx.SyncByteStream):
    def __init__(self, error):
        self.error = error

    def __iter__(self):
        yield b'data: {"id":"x","choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n'
        raise self.error


@pytest.mark.parametrize(
    "error, why",
    [
        (httpx.ReadTimeout("timed out"), "the read timed out (ReadTimeout) after 7s"),
        (httpx.RemoteProtocolError("peer closed connection"), "the connection broke (RemoteProtocolError)"),
    ],
)
def test_a_stream_cut_by_a_timeout_or_a_broken_connection_says_so(error, why):
    client, sleeps = make(Script(httpx.Response(200, headers=SSE, stream=_Stops(error))), timeout=7)
    with pytest.raises(TruncatedStreamError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == f"stream ended before [DONE]: {why}; nothing from it will be executed"
    assert sleeps == []


# --- the key is not on the exception chain (failures #19) -----------------------------------------


def _reachable(error):
    """Every string reachable from `error` through __cause__ / __context__ and their request / response."""
    seen, texts, pending = set(), [], [error]
    while pending:
        exc = pending.pop()
        if exc is None or id(exc) in seen:
            continue
        seen.add(id(exc))
        texts += [str(exc), repr(exc.args), str(getattr(exc, "body", ""))]
        for name in ("request", "response"):
            try:
                value = getattr(exc, name, None)
            except RuntimeError:  # an httpx error without a request
                value = None
            requests = [value, getattr(value, "request", None)] if isinstance(value, httpx.Response) else [value]
            for request in requests:
                if isinstance(request, httpx.Request):
                    texts += [str(request.url), repr(list(request.headers.multi_items())), request.content.decode()]
        pending += [exc.__cause__, exc.__context__]
    return texts


class _Undecodable(httpx.SyncByteStream):
    def __iter__(self):
        yield b"not gzip at all"


def _gzip_lie():
    return httpx.Response(200, headers={"content-encoding": "gzip"}, stream=_Undecodable())


@pytest.mark.parametrize(
    "reply, stream",
    [
        (lambda: httpx.ConnectError("connection refused"), False),
        (lambda: httpx.ReadTimeout("timed out"), False),
        (lambda: httpx.ConnectError("connection refused"), True),
        (_gzip_lie, False),
        (lambda: httpx.Response(500, stream=_Stops(httpx.ReadError("reset"))), False),
        (lambda: httpx.Response(200, headers={**SSE, "content-encoding": "gzip"}, stream=_Undecodable()), True),
    ],
    ids=["connect", "timeout", "stream-connect", "undecodable", "error-body-broke", "stream-undecodable"],
)
@pytest.mark.parametrize("base_url", ["http://gw.test/v1", f"http://user:{KEY}@gw.test/v1?api-key={KEY}"])
def test_no_exception_on_the_chain_holds_the_key(reply, stream, base_url):
    client, _ = make(Script(*[reply() for _ in range(3)]), base_url=base_url)
    with pytest.raises(ModelCallError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    assert [text for text in _reachable(caught.value) if KEY in text] == []


def test_a_real_transport_leaves_no_key_on_the_chain():
    client = ChatClient("http://127.0.0.1:9/v1", KEY, "m", retry=RetryPolicy(max_retries=0), timeout=2)
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    cause = caught.value.__cause__
    assert isinstance(cause, httpx.ConnectError)  # %tb still shows what happened
    assert cause.request.headers["authorization"] == "Bearer ***cr3t"
    assert [text for text in _reachable(caught.value) if KEY in text] == []


def test_no_exception_below_httpx_s_on_the_chain_holds_the_key():
    """httpx wraps httpcore's error, which wraps h11's: each quotes what it refused (`Illegal header
    value b'Bearer <key>'`). Only httpx's own text was masked; the ones below it kept the key."""

    def refuse(request):
        inner = ValueError(f"Illegal header value {request.headers['authorization'].encode()!r}")
        try:
            raise RuntimeError(inner) from inner
        except RuntimeError as middle:
            raise httpx.LocalProtocolError(str(inner), request=request) from middle

    client = ChatClient("http://gw.test/v1", KEY, "m", transport=httpx.MockTransport(refuse), retry=RetryPolicy(0))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert len([text for text in _reachable(caught.value) if "Illegal header value" in text]) >= 4
    assert [text for text in _reachable(caught.value) if KEY in text] == []


SHORT_KEY = "sk-" + "0123456789abcdef" * 2
"""A DeepSeek-shaped key (`sk-` and 32 hex digits): short enough that pydantic quotes it whole."""


@pytest.mark.parametrize(
    "message",
    [
        {"role": "assistant", "content": {"t": SHORT_KEY}},
        {"role": "assistant", "tool_calls": [{"id": {"k": SHORT_KEY}, "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": [SHORT_KEY], "arguments": "{}"}}]},
    ],
    ids=["content-object", "call-id", "call-name"],
)
def test_a_malformed_reply_quoting_the_key_leaves_it_on_no_exception_of_the_chain(message):
    """The error's text masked it, but its __cause__ (pydantic's ValidationError, quoting the input)
    kept it: a traceback, a log's `exc_info`, printed the key."""
    body = {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
    answer = httpx.MockTransport(lambda request: httpx.Response(200, json=body))
    client = ChatClient("http://gw.test/v1", SHORT_KEY, "m", transport=answer)
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert [text for text in _reachable(caught.value) if SHORT_KEY in text] == []


SHORT_OF_RESOURCES = (
    'gateway cut the reply off (finish_reason "insufficient_system_resource": it ran short of resources mid-answer), '
    "transient"
)


def test_a_reply_deepseek_cut_for_want_of_resources_is_retried_not_taken_whole():
    """DeepSeek ends a reply it could not finish under load with finish_reason
    "insufficient_system_resource": the part before was taken as the whole answer (a loop's final answer)."""
    cut = completion({"content": "Your order SN1 is"}, "insufficient_system_resource")
    script = Script(httpx.Response(200, json=cut), httpx.Response(200, json=ANSWER))
    client, sleeps = make(script)
    assert client.chat(QUESTION).message.content == "Shipped." and len(sleeps) == 1
    client, _ = make(Script(*[httpx.Response(200, json=cut) for _ in range(3)]))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == SHORT_OF_RESOURCES and caught.value.status == 503


def test_a_stream_deepseek_cut_for_want_of_resources_says_so_after_its_text():
    body = sse(chunk({"role": "assistant", "content": "Your order"}), chunk({}, "insufficient_system_resource"))
    client, sleeps = make(Script(httpx.Response(200, text=body, headers=SSE)))
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == f"{SHORT_OF_RESOURCES}; not retried: part of the reply had already arrived"
    assert sleeps == []


def test_a_reply_zhipu_ended_with_network_error_is_retried_not_taken_whole():
    """Zhipu's (GLM's) API ends a reply whose inference failed with finish_reason "network_error" (its
    reference: 模型推理异常), after the part it wrote: that part was taken as the whole answer."""
    cut = completion({"content": "您的订单"}, "network_error")
    script = Script(httpx.Response(200, json=cut), httpx.Response(200, json=ANSWER))
    client, sleeps = make(script)
    assert client.chat(QUESTION).message.content == "Shipped." and len(sleeps) == 1
    body = sse(chunk({"role": "assistant", "content": "您的订单"}), chunk({}, "network_error"))
    client, sleeps = make(Script(httpx.Response(200, text=body, headers=SSE)))
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == (
        'gateway cut the reply off (finish_reason "network_error": the model failed mid-answer), transient; not '
        "retried: part of the reply had already arrived"
    )


def test_a_reply_mistral_ended_with_error_is_retried_not_taken_whole():
    """Mistral's finish_reason "error" (its FinishReason: stop, length, model_length, error, tool_calls),
    with no error object beside it (OpenRouter's has one: its own error): the part before was the answer."""
    cut = completion({"content": "Your order SN1 is"}, "error")
    client, sleeps = make(Script(httpx.Response(200, json=cut), httpx.Response(200, json=ANSWER)))
    assert client.chat(QUESTION).message.content == "Shipped." and len(sleeps) == 1
    client, _ = make(Script(*[httpx.Response(200, json=completion({"content": ""}, "error")) for _ in range(3)]))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert (
        str(caught.value) == 'gateway cut the reply off (finish_reason "error": the model failed mid-answer), transient'
    )
    body = sse(chunk({"role": "assistant", "content": "Your order"}), chunk({}, "error"))
    client, sleeps = make(Script(httpx.Response(200, text=body, headers=SSE)))
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == (
        'gateway cut the reply off (finish_reason "error": the model failed mid-answer), transient; not '
        "retried: part of the reply had already arrived"
    )


@pytest.mark.parametrize("streamed", [False, True])
def test_an_empty_reply_zhipu_filtered_says_the_filter_removed_it(streamed):
    """Zhipu's finish_reason "sensitive" is its content filter's: "the model said nothing" sent the learner
    to run the cell again for the same nothing."""
    if streamed:
        reply = httpx.Response(
            200, text=sse(chunk({"role": "assistant", "content": ""}), chunk({}, "sensitive")), headers=SSE
        )
    else:
        reply = httpx.Response(200, json=completion({"content": ""}, "sensitive"))
    client, _ = make(Script(reply))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION)) if streamed else client.chat(QUESTION)
    assert str(caught.value) == (
        "the model's reply is empty (no text, no tool calls, no refusal; finish_reason \"sensitive\"): the gateway's "
        "content filter removed it; rephrase the request, or check the gateway's filter"
    )


REGION_HINT = (
    "the provider does not serve the place this request comes from (its network's country or region): the request "
    "itself is fine; run it from a network in a region the provider serves, or use another gateway (not retried)"
)


@pytest.mark.parametrize(
    "status, body, said",
    [
        (  # Gemini's OpenAI endpoint (a list, as Google wraps it), from Hong Kong or a Cloudflare worker there
            400,
            [{"error": {"code": 400, "message": "User location is not supported for the API use.",
                        "status": "FAILED_PRECONDITION"}}],
            "User location is not supported for the API use.",
        ),
        (  # OpenAI's
            403,
            {"error": {"code": "unsupported_country_region_territory", "message": "Country, region, or territory not "
                       "supported", "param": None, "type": "request_forbidden"}},
            "Country, region, or territory not supported",
        ),
    ],
)  # fmt: skip
def test_a_provider_refusing_the_learners_region_says_so_not_fix_the_body(status, body, said):
    """Before: Gemini's 400 read "the gateway rejected the request body; fix it", though no request from that
    network would pass (a common first sight for a learner behind a Hong Kong exit)."""
    client, _ = make(Script(httpx.Response(status, json=body)))
    with pytest.raises(ModelCallError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == f"HTTP {status}: {said} — {REGION_HINT}"


# --- Groq's 498: its flex tier at capacity -------------------------------------------------------

GROQ_FLEX_FULL = {  # console.groq.com/docs/flex-processing: "fail quickly with status 498 and error capacity_exceeded"
    "error": {
        "message": "The flex tier is at capacity for this model. Please try again later.",
        "type": "capacity_exceeded",
        "code": "capacity_exceeded",
    }
}


@pytest.mark.parametrize("streamed", [False, True])
def test_groqs_498_capacity_exceeded_is_retried_as_its_docs_say(streamed):
    script = Script(httpx.Response(498, json=GROQ_FLEX_FULL), httpx.Response(200, json=ANSWER))
    if streamed:
        script.replies[1] = httpx.Response(200, text=sse(chunk({"content": "Shipped."}, "stop")), headers=SSE)
    client, sleeps = make(script)
    reply = list(client.stream(QUESTION))[-1].response if streamed else client.chat(QUESTION)
    assert reply.message.content == "Shipped."
    assert sleeps == [0.5] and len(script.requests) == 2


def test_a_498_that_persists_is_one_transient_line_saying_how_often_it_was_sent():
    client, sleeps = make(Script(*[httpx.Response(498, json=GROQ_FLEX_FULL)] * 3))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert caught.value._render_traceback_() == [
        "TransientError: HTTP 498 (transient): The flex tier is at capacity for this model. Please try again later.",
        "Hint: It was sent 3 times, waiting 1.5 s in all between them, before giving up; running the cell again "
        "later may work. (%tb shows the full traceback)",
    ]
    assert sleeps == [0.5, 1.0]


def test_capacity_exceeded_named_inside_a_200_is_retried_like_groqs_498():
    """A relay in front of Groq that answers 200 with Groq's error (OpenRouter's way) names only the code."""
    with pytest.raises(TransientError) as caught:
        parse_completion(json.dumps(GROQ_FLEX_FULL))
    assert str(caught.value) == (
        "gateway answered 200 with an error (capacity_exceeded, transient): The flex tier is at capacity for this "
        "model. Please try again later."
    )
    assert caught.value.status == 498


# --- the gateway's own x-should-retry, as OpenAI's SDKs read it -----------------------------------


def test_x_should_retry_false_on_a_5xx_is_not_retried_and_says_why():
    """OpenAI's SDKs ask the response first: a gateway saying `x-should-retry: false` was asked twice more."""
    failed = httpx.Response(
        500, headers={"x-should-retry": "false"}, json={"error": {"message": "The model produced invalid content."}}
    )
    script = Script(failed, failed, failed)
    client, sleeps = make(script)
    with pytest.raises(ModelCallError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == (
        "HTTP 500: The model produced invalid content. — the gateway says asking again will not help "
        "(x-should-retry: false); the message says what failed (not retried)"
    )
    assert not isinstance(caught.value, TransientError) and len(script.requests) == 1 and sleeps == []


def test_x_should_retry_true_on_a_4xx_is_retried():
    busy = httpx.Response(400, headers={"x-should-retry": "true"}, json={"error": {"message": "try again"}})
    script = Script(busy, httpx.Response(200, json=ANSWER))
    client, sleeps = make(script)
    assert client.chat(QUESTION).message.content == "Shipped." and sleeps == [0.5]
