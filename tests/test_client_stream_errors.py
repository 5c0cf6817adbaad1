"""An error a gateway sends mid-stream without an `error` key is still the gateway's error, not a
cut stream: `event: error` and its data (`{"message": …}`, or plain text), or an Anthropic-style
relay's `data: {"type": "error", …}`. Its message is in the error's text, with the key masked; an
overload it names is retried as before. And the choice both `chat()` and `stream()` read: choice 0,
whose `index` is 0, `"0"`, null or missing."""

import contextlib
import http.server
import json

import httpx
import pytest
from loopback import serving
from test_client import Script

from toolkit.chat.client import ChatClient, parse_completion
from toolkit.chat.context_limit import CONTEXT_HINT
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import StreamDone, TextDelta, assemble
from toolkit.errors import BadResponseError, ModelCallError, TransientError, TruncatedStreamError

QUESTION = [UserMessage(content="hi")]
KEY = "sk-proj-" + "Str3am" * 6
SSE = {"content-type": "text/event-stream"}
START = 'data: {"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":"Ship"}}]}\n\n'
ANSWER = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Shipped."}, "finish_reason": "stop"}]}


def make(*replies):
    sleeps, script = [], Script(*replies)
    client = ChatClient("http://gw.test/v1", KEY, "m", transport=httpx.MockTransport(script), sleep=sleeps.append)
    return client, script, sleeps


def streamed(events):
    return httpx.Response(200, text=events, headers=SSE)


@pytest.mark.parametrize(
    "error_event",
    [
        f'event: error\ndata: {{"message": "upstream refused the key {KEY}"}}\n\n',
        f"event: error\ndata: upstream refused the key {KEY}\n\n",
        f'data: {{"type": "error", "message": "upstream refused the key {KEY}"}}\n\n',
        f'event: error\ndata: {{"type": "error",\ndata:  "message": "upstream refused the key {KEY}"}}\n\n',
    ],
)
def test_an_error_sent_without_an_error_key_says_the_gateways_message_masked(error_event):
    client, script, sleeps = make(streamed(START + error_event))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    error = caught.value
    assert not isinstance(error, TruncatedStreamError)
    assert str(error) == f"gateway sent an error mid-stream: upstream refused the key ***{KEY[-4:]}"
    assert error.hint == "The gateway reported this error itself; the message says what went wrong."
    assert KEY not in error.body and KEY not in repr(list(client.exchanges))
    assert len(script.requests) == 1 and sleeps == []


@pytest.mark.parametrize(
    "overload",
    [
        'event: error\ndata: {"type": "overloaded_error", "message": "Overloaded"}\n\n',  # Anthropic's, no error key
        'error: {"code":503,"message":"Loading model","type":"unavailable_error"}\n\ndata: [DONE]\n\n',  # llama.cpp's
    ],
    ids=["anthropic-style", "llama-cpp-error-field"],
)
def test_an_overload_said_mid_stream_is_retried_before_anything_is_shown(overload):
    answer = START + 'data: {"choices":[{"index":0,"delta":{"content":"ped."},"finish_reason":"stop"}]}\n\n'
    client, script, sleeps = make(streamed(overload), streamed(answer + "data: [DONE]\n\n"))
    events = list(client.stream(QUESTION))
    assert events[-1].response.message.content == "Shipped." and sleeps == [0.5] and len(script.requests) == 2


def test_an_event_type_lasts_only_until_its_event_ends():
    """`event: error` names one event: the chunks after its blank line are ordinary ones, and an
    `event:` of another name (some relays label every chunk `event: message`) changes nothing."""
    lines = [
        "event: message",
        'data: {"choices":[{"index":0,"delta":{"content":"Shipped."},"finish_reason":"stop"}]}',
        "",
        "event: ping",
        "",
        "data: [DONE]",
    ]
    assert list(assemble(lines))[-1].response.message.content == "Shipped."


def test_a_relay_that_always_streams_reports_the_same_error_on_chat():
    body = START + 'event: error\ndata: {"message": "model is loading"}\n\n'
    client, _, _ = make(httpx.Response(200, text=body, headers=SSE))
    with pytest.raises(BadResponseError, match="^gateway sent an error mid-stream: model is loading$"):
        client.chat(QUESTION)


# --- choice 0, the same on both paths ------------------------------------------------------------


def chunk(index, delta, finish=None):
    return "data: " + json.dumps({"id": "c", "choices": [{"index": index, "delta": delta, "finish_reason": finish}]})


@pytest.mark.parametrize("index", [0, None, "0"])
def test_a_streamed_choice_whose_index_is_null_or_a_string_is_choice_0(index):
    lines = [chunk(index, {"role": "assistant", "content": "Ship"}), chunk(index, {"content": "ped."}, "stop")]
    client, _, _ = make(streamed("\n\n".join([*lines, "data: [DONE]"]) + "\n\n"))
    events = list(client.stream(QUESTION))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Ship", "ped."]
    assert events[-1].response.message.content == "Shipped."


def test_a_streamed_choice_without_index_is_choice_0():
    done = list(assemble(['data: {"choices":[{"delta":{"content":"hi"},"finish_reason":"stop"}]}', "data: [DONE]"]))
    assert isinstance(done[-1], StreamDone) and done[-1].response.message.content == "hi"


@pytest.mark.parametrize("index", [0, None, "0", "missing"])
def test_chat_reads_the_choice_stream_reads(index):
    choice = {"message": {"role": "assistant", "content": "Shipped."}, "finish_reason": "stop"}
    if index != "missing":
        choice["index"] = index
    other = {"index": 1, "message": {"role": "assistant", "content": "Another."}, "finish_reason": "stop"}
    assert parse_completion(json.dumps({"choices": [other, choice]})).message.content == "Shipped."


def test_a_reply_without_choice_0_says_so_on_both_paths():
    body = {"choices": [{"index": 1, "message": {"role": "assistant", "content": "Another."}}]}
    with pytest.raises(BadResponseError) as caught:
        parse_completion(json.dumps(body))
    said = "the reply has no choice 0 (its choices have index 1); only choice 0 is read"
    assert str(caught.value) == said
    lines = [chunk(1, {"content": "Another."}, "stop"), "data: [DONE]"]
    with pytest.raises(BadResponseError) as caught:
        list(assemble(lines))
    assert str(caught.value) == said


def test_a_transient_error_reported_as_an_event_keeps_its_status():
    client, _, _ = make(*[streamed('event: error\ndata: {"code": 503, "message": "busy"}\n\n')] * 3)
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == "gateway sent an error mid-stream (code 503, transient): busy"
    assert caught.value.status == 503


# --- llama.cpp's `error:` field ------------------------------------------------------------------
# llama.cpp's server (`server_sent_event(sink, "error", error_data)`) writes an error that comes
# up while it streams as a field of its own, `error: {...}`, not `data:`, then `data: [DONE]`.

LLAMA_CONTEXT = (
    'error: {"code":400,"message":"the request exceeds the available context size, try increasing it",'
    '"type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}\n\ndata: [DONE]\n\n'
)
CONTEXT_SAID = (
    "gateway sent an error mid-stream: the request exceeds the available context size, try increasing it — "
    + CONTEXT_HINT
)


@pytest.mark.parametrize("before", ["", START], ids=["first", "after-text"])
def test_llama_cpps_error_field_is_the_gateways_error_not_an_empty_or_partial_reply(before):
    client, script, sleeps = make(streamed(before + LLAMA_CONTEXT))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == CONTEXT_SAID
    assert len(script.requests) == 1 and sleeps == []


def test_an_error_field_in_plain_text_is_said_as_it_is():
    assert_said = "gateway sent an error mid-stream: slot unavailable"
    with pytest.raises(BadResponseError, match=f"^{assert_said}$"):
        list(assemble(["error: slot unavailable", "", "data: [DONE]"]))


def test_llama_cpps_error_field_over_real_http():
    """The bytes a llama.cpp server sends, over a socket, chunked: the learner reads its message."""
    with llama_cpp_like_server(START + LLAMA_CONTEXT) as base_url:
        client = ChatClient(base_url, KEY, "m")
        with pytest.raises(BadResponseError) as caught:
            list(client.stream(QUESTION))
        client.close()
    assert str(caught.value) == CONTEXT_SAID


@contextlib.contextmanager
def llama_cpp_like_server(body):
    """A server on 127.0.0.1 that answers every POST with `body` as an event stream, chunked
    and flushed event by event, as cpp-httplib's chunked content provider sends it."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            self.rfile.read(int(self.headers.get("content-length", 0)))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for event in body.split("\n\n"):
                if event:
                    data = (event + "\n\n").encode()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")

        def log_message(self, *args):
            pass

    with serving(Handler) as port:
        yield f"http://127.0.0.1:{port}/v1"


@pytest.mark.parametrize(
    "said, done, error",
    [
        (  # an ErrorResponse written as a chunk (FastAPI servers' own shape)
            '{"object": "error", "message": "maximum context length is 4096 tokens", "type": "BadRequestError", '
            '"code": 400}',
            True,
            f"gateway sent an error mid-stream: maximum context length is 4096 tokens — {CONTEXT_HINT}",
        ),
        (  # FastChat's worker error, then [DONE]
            '{"text": "**NETWORK ERROR DUE TO HIGH TRAFFIC.**", "error_code": 50001}',
            True,
            'gateway sent an error mid-stream: {"text": "**NETWORK ERROR DUE TO HIGH TRAFFIC.**", "error_code": 50001}',
        ),
        ('{"detail": "Not authenticated"}', False, "gateway sent an error mid-stream: Not authenticated"),
        (
            '{"code": 1001, "msg": "token invalid"}',
            False,
            "gateway sent an error mid-stream: token invalid",  # its msg, as a message is read
        ),
    ],
    ids=["object-error", "fastchat", "detail", "msg"],
)
def test_a_stream_whose_only_chunk_says_an_error_reports_it_not_an_empty_or_cut_reply(said, done, error):
    """A gateway that writes its error as a chunk without `choices` (and without an `error` key):
    the stream was "the model's reply is empty … the model said nothing" or "stream ended before
    [DONE]", and what the gateway said was lost. When no reply came, that chunk is the error."""
    client, script, sleeps = make(streamed(f"data: {said}\n\n" + ("data: [DONE]\n\n" if done else "")))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    assert not isinstance(caught.value, TruncatedStreamError)
    assert str(caught.value) == error
    assert caught.value.hint == (
        "The conversation does not fit the model's context window; the message says what to do."
        if CONTEXT_HINT in error
        else "The gateway reported this error itself; the message says what went wrong."
    )
    assert len(script.requests) == 1 and sleeps == []


def test_a_rate_limit_said_in_a_choiceless_chunk_is_retried():
    limited = streamed('data: {"code": 429, "message": "请求过于频繁", "success": false}\n\ndata: [DONE]\n\n')
    client, script, sleeps = make(
        limited, streamed(START + 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n')
    )
    assert list(client.stream(QUESTION))[-1].response.message.content == "Ship"
    assert len(script.requests) == 2 and len(sleeps) == 1


def test_a_choiceless_chunk_beside_a_reply_is_no_error():
    """Metadata chunks without choices (a relay's first chunk, a usage chunk) are not errors when a reply came."""
    events = 'data: {"id": "c", "model": "m", "message": "queued"}\n\n' + START + "data: [DONE]\n\n"
    client, _, _ = make(streamed(events))
    assert list(client.stream(QUESTION))[-1].response.message.content == "Ship"


def test_a_rate_limit_said_in_a_choiceless_chunk_that_never_clears_counts_every_attempt():
    limited = 'data: {"code": 429, "message": "too many"}\n\ndata: [DONE]\n\n'
    client, script, sleeps = make(*[streamed(limited) for _ in range(3)])
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == "gateway sent an error mid-stream (code 429, transient): too many"
    assert (caught.value.attempts, len(script.requests), len(sleeps)) == (3, 3, 2)


class _Broken(httpx.SyncByteStream):
    def __init__(self, text):
        self.text = text

    def __iter__(self):
        yield self.text.encode()
        raise httpx.ReadTimeout("timed out")


def test_a_choiceless_chunk_before_a_stream_that_times_out_leaves_it_a_cut_stream():
    """What ended the stream is certain, a choiceless chunk's words are not: a timeout stays the error."""
    answer = httpx.Response(200, headers=SSE, stream=_Broken('data: {"message": "processing"}\n\n'))
    client = ChatClient("http://gw.test/v1", KEY, "m", transport=httpx.MockTransport(lambda request: answer))
    with pytest.raises(TruncatedStreamError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == (
        "stream ended before [DONE]: the read timed out (ReadTimeout) after 30.0s; nothing from it will be executed"
    )


def test_an_error_sent_mid_stream_is_masked_before_its_body_is_cut():
    """A `data: {"error": …}` event's payload is kept as the error's body, cut at 2,000 characters:
    a key the gateway echoed across the cut showed its head. Masked first, then cut."""
    key = "gwkey-local-0123456789abcdefXYZ"
    said = json.dumps({"error": {"message": "x" * 1960 + f" bad key {key} here"}})
    reply = httpx.Response(200, text=f"data: {said}\n\n", headers={"content-type": "text/event-stream"})
    client = ChatClient("http://gw.test/v1", key, "m", transport=httpx.MockTransport(lambda request: reply))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream("hi"))
    assert key[:5] not in f"{caught.value} {caught.value.body}"
    assert caught.value.body.endswith(" bad key ***fXYZ ")


GEMINI_TAIL = (
    '{\n  "error": {\n    "code": 503,\n    "message": "This model is currently experiencing high demand. Spikes in '
    'demand are usually temporary. Please try again later.",\n    "status": "UNAVAILABLE"\n  }\n}\n'
)
"""How Gemini sheds load mid-stream: the events stop and its error follows as plain JSON, written over
lines, with no `data:` (theopenco/llmgateway#3616, diegosouzapw/OmniRoute#4177); then the body ends."""


def test_an_error_written_as_plain_json_after_the_events_is_the_gateways_error_and_retried():
    """It read 'stream ended before [DONE]; nothing from it will be executed', not retried: the 503
    the gateway said, the overload a later attempt gets past, was lost in lines that are no event."""
    answer = START + 'data: {"choices":[{"index":0,"delta":{"content":"ped."},"finish_reason":"stop"}]}\n\n'
    client, script, sleeps = make(streamed(GEMINI_TAIL), streamed(answer + "data: [DONE]\n\n"))
    events = list(client.stream(QUESTION))
    assert events[-1].response.message.content == "Shipped." and sleeps == [0.5] and len(script.requests) == 2
    client, script, sleeps = make(*[streamed(START + GEMINI_TAIL)] * 3)
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == (
        "gateway sent an error mid-stream (code 503, transient): This model is currently experiencing high demand. "
        "Spikes in demand are usually temporary. Please try again later.; not retried: part of the reply had already "
        "arrived"
    )
    assert caught.value.status == 503 and len(script.requests) == 1  # "Ship" was shown: not sent again


@pytest.mark.parametrize(
    "tail, error",
    [
        ('[{"error": {"code": 400, "message": "Invalid JSON payload"}}]\n', "Invalid JSON payload"),  # Gemini's list
        ('{"error": {"message": "upstream closed", "type": "upstream_error"}}\n', "upstream closed"),
        ('{"detail": "Internal Server Error"}\n', "Internal Server Error"),
    ],
)
def test_other_errors_written_as_plain_json_after_the_events_are_the_gateways_error(tail, error):
    client, script, _ = make(streamed(START + tail))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    assert not isinstance(caught.value, TruncatedStreamError)
    assert str(caught.value) == f"gateway sent an error mid-stream: {error}"


@pytest.mark.parametrize(
    "tail",
    ['{"error": {"message": "upstream closed"}\n', "upstream closed\n", '{"status": "ok"}\n', "x" * 70_000 + "\n"],
    ids=["json-cut-short", "plain-text", "no-error", "too-long"],
)
def test_lines_after_the_events_that_say_no_error_leave_a_cut_stream(tail):
    client, _, _ = make(streamed(START + tail))
    with pytest.raises(TruncatedStreamError, match=r"^stream ended before \[DONE\]; nothing from it will be executed$"):
        list(client.stream(QUESTION))


def test_an_error_written_as_plain_json_before_more_events_is_no_error():
    """Only what follows the last event is read: stray lines a relay wrote before its events go on are left out."""
    body = START + '{"error": {"message": "retrying upstream"}}\n\n' + START + "data: [DONE]\n\n"
    client, _, _ = make(streamed(body))
    assert list(client.stream(QUESTION))[-1].response.message.content == "ShipShip"


FASTCHAT_FAILURE = '{"text": "**NETWORK ERROR DUE TO HIGH TRAFFIC.**\\n\\n(CUDA out of memory)", "error_code": 50001}'
VLLM_OLD_FAILURE = '{"object": "error", "message": "engine loop stopped", "type": "InternalServerError", "code": 500}'


@pytest.mark.parametrize(
    "said, error",
    [
        (
            FASTCHAT_FAILURE,
            'gateway sent an error mid-stream: {"text": "**NETWORK ERROR DUE TO HIGH TRAFFIC.**\\n\\n(CUDA out of memory)", '
            '"error_code": 50001}',
        ),
        (VLLM_OLD_FAILURE, "gateway sent an error mid-stream (code 500, transient): engine loop stopped"),
    ],
    ids=["fastchat", "error-response"],
)
def test_an_error_chunk_after_part_of_the_reply_is_the_gateways_error_not_the_answer(said, error):
    """FastChat's server writes a worker that failed mid-answer as the worker's own chunk (a non-zero
    `error_code`), then `[DONE]`; a FastAPI server its `ErrorResponse`. The reply never said why it
    stopped (no finish_reason), and the part before the error ("Ship") was taken as the whole answer."""
    body = START + f"data: {said}\n\ndata: [DONE]\n\n"
    client, script, _ = make(*[streamed(body)] * 8)
    with pytest.raises(ModelCallError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value).removesuffix("; not retried: part of the reply had already arrived") == error
    assert len(script.requests) == 1  # "Ship" was shown: not sent again
    with pytest.raises(ModelCallError) as whole:  # a relay that streams whatever it is asked: chat() alike
        client.chat(QUESTION)
    assert str(whole.value) == error


def test_an_error_chunk_after_a_reply_that_said_why_it_stopped_leaves_the_reply():
    stop = 'data: {"choices":[{"index":0,"delta":{"content":"ped."},"finish_reason":"stop"}]}\n\n'
    client, _, _ = make(streamed(START + stop + f"data: {FASTCHAT_FAILURE}\n\ndata: [DONE]\n\n"))
    assert list(client.stream(QUESTION))[-1].response.message.content == "Shipped."


# --- text-generation-inference's errors: a string `error` and its `error_type` beside it ----------
# TGI writes an error met while streaming as `data: {"error": "<text>", "error_type": "<kind>"}`
# (`impl From<InferError> for Event`), the kind one of "overloaded" (its 429), "generation" (its
# 424: the server failed while generating), "incomplete_generation" (500), "validation" (422), ...


@pytest.mark.parametrize(
    "kind, said",
    [
        ("overloaded", "Model is overloaded"),
        ("generation", "Request failed during generation: Server error: CUDA out of memory"),
        ("incomplete_generation", "Incomplete generation"),
    ],
)
def test_tgis_server_side_error_said_mid_stream_is_retried_before_anything_is_shown(kind, said):
    error = f"data: {json.dumps({'error': said, 'error_type': kind})}\n\n"
    answer = START + 'data: {"choices":[{"index":0,"delta":{"content":"ped."},"finish_reason":"stop"}]}\n\n'
    client, script, sleeps = make(streamed(error), streamed(answer + "data: [DONE]\n\n"))
    events = list(client.stream(QUESTION))
    assert events[-1].response.message.content == "Shipped." and sleeps == [0.5] and len(script.requests) == 2


def test_tgis_overload_after_part_of_the_reply_names_its_kind_and_is_not_retried():
    error = 'data: {"error": "Model is overloaded", "error_type": "overloaded"}\n\n'
    client, script, sleeps = make(streamed(START + error))
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == (
        "gateway sent an error mid-stream (overloaded, transient): Model is overloaded; not retried: part of the "
        "reply had already arrived"
    )
    assert len(script.requests) == 1


def test_tgis_validation_error_mid_stream_is_said_not_retried():
    error = 'data: {"error": "Input validation error: `temperature` must be strictly positive", "error_type": "validation"}\n\n'
    client, script, sleeps = make(streamed(error))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    assert type(caught.value) is BadResponseError and sleeps == [] and len(script.requests) == 1
    assert str(caught.value) == (
        "gateway sent an error mid-stream: Input validation error: `temperature` must be strictly positive"
    )


# --- Google's one-item list of an error, written as an event -------------------------------------

GEMINI_LISTED = 'data: [{"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}]\n\n'


def test_googles_listed_error_as_an_event_is_the_gateways_error_retried_before_anything_is_shown():
    answer = START + 'data: {"choices":[{"index":0,"delta":{"content":"ped."},"finish_reason":"stop"}]}\n\n'
    client, script, sleeps = make(streamed(GEMINI_LISTED), streamed(answer + "data: [DONE]\n\n"))
    assert list(client.stream(QUESTION))[-1].response.message.content == "Shipped." and sleeps == [0.5]
    client, script, sleeps = make(streamed(START + GEMINI_LISTED))
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == (
        "gateway sent an error mid-stream (code 503, transient): The model is overloaded.; not retried: part of the "
        "reply had already arrived"
    )


@pytest.mark.parametrize("chunk", ["[]", '[{"choices": []}]', '[{"error": null}]', '[{"error": "a"}, {"error": "b"}]'])
def test_other_lists_as_an_event_are_still_no_chunk(chunk):
    client, _, _ = make(streamed(f"data: {chunk}\n\n"))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value).startswith("stream chunk is not an object: ")


@pytest.mark.parametrize(
    "status, transient",
    [("UNAVAILABLE", True), ("RESOURCE_EXHAUSTED", True), ("DEADLINE_EXCEEDED", True), ("INVALID_ARGUMENT", False)],
)
def test_a_google_error_naming_only_its_status_is_triaged_by_it(status, transient):
    error = {"error": {"message": "The model is overloaded.", "status": status}}
    client, _, sleeps = make(*[streamed(f"data: {json.dumps(error)}\n\n") for _ in range(3)])
    with pytest.raises(BadResponseError if not transient else TransientError) as caught:
        list(client.stream(QUESTION))
    assert (sleeps == [0.5, 1.0]) is transient and "The model is overloaded." in str(caught.value)


# --- vLLM's ErrorResponse in a 200: the same error on both paths -----------------------------------

VLLM_ERROR = {
    "object": "error",
    "message": "max_tokens must be at least 1, got 0.",
    "type": "BadRequestError",
    "param": None,
    "code": 400,
}


def test_vllms_error_response_in_a_200_is_the_gateways_error_on_chat_as_on_stream():
    client, _, _ = make(httpx.Response(200, json=VLLM_ERROR), streamed(f"data: {json.dumps(VLLM_ERROR)}\n\n"))
    with pytest.raises(BadResponseError) as on_chat:
        client.chat(QUESTION)
    with pytest.raises(BadResponseError) as on_stream:
        list(client.stream(QUESTION))
    assert str(on_chat.value) == "gateway answered 200 with an error: max_tokens must be at least 1, got 0."
    assert str(on_stream.value) == "gateway sent an error mid-stream: max_tokens must be at least 1, got 0."
    assert (
        on_chat.value.hint
        == on_stream.value.hint
        == ("The gateway reported this error itself; the message says what went wrong.")
    )


# --- the wait an error reported inside a 200 says ---------------------------------------------------

TRY_LATER = {"error": {"code": 429, "message": "Rate limit exceeded. Please try again in 2.5s."}}
GEMINI_LATER = [
    {
        "error": {
            "code": 429,
            "message": "Resource has been exhausted (e.g. check quota).",
            "status": "RESOURCE_EXHAUSTED",
            "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "45s"}],
        }
    }
]


def test_an_error_event_waits_the_wait_it_says():
    answer = START + 'data: {"choices":[{"index":0,"delta":{"content":"ped."},"finish_reason":"stop"}]}\n\n'
    client, _, sleeps = make(streamed(f"data: {json.dumps(TRY_LATER)}\n\n"), streamed(answer + "data: [DONE]\n\n"))
    assert list(client.stream(QUESTION))[-1].response.message.content == "Shipped." and sleeps == [2.5]
    client, _, sleeps = make(httpx.Response(200, json=TRY_LATER), httpx.Response(200, json=ANSWER))
    assert client.chat(QUESTION).message.content == "Shipped." and sleeps == [2.5]


@pytest.mark.parametrize("path", ["chat", "stream"])
def test_an_error_event_asking_a_wait_beyond_the_cap_is_said_at_once(path):
    event = streamed(f"data: {json.dumps(GEMINI_LATER)}\n\n")
    client, script, sleeps = make(event if path == "stream" else httpx.Response(200, json=GEMINI_LATER))
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION)) if path == "stream" else client.chat(QUESTION)
    assert sleeps == [] and len(script.requests) == 1 and caught.value.retry_after == 45.0
    assert str(caught.value).endswith(
        "Resource has been exhausted (e.g. check quota). — the gateway asks to wait 45 s, more than "
        "RetryPolicy.max_retry_after_s=30; not retried, try again later (the wait is in .retry_after)"
    )


# --- one call written bare, not in a list (text-generation-inference 2.x) --------------------------


def test_a_call_written_as_an_object_not_a_list_is_read_on_both_paths():
    def delta(fragment, name=None):
        call = {"index": 0, "id": "", "type": "function", "function": {"name": name, "arguments": fragment}}
        return "data: " + json.dumps({"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": call}}]})

    events = "\n\n".join([delta('{"order_id": ', "query_order"), delta('"SO-1"}')]) + "\n\n"
    ending = 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n'
    whole = {"choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": {
        "id": "c1", "type": "function", "function": {"name": "query_order", "arguments": '{"order_id": "SO-1"}'}}},
        "finish_reason": "tool_calls"}]}  # fmt: skip
    client, _, _ = make(streamed(events + ending), httpx.Response(200, json=whole))
    streamed_call = list(client.stream(QUESTION))[-1].response.message.tool_calls
    whole_call = client.chat(QUESTION).message.tool_calls
    assert [(c.name, json.loads(c.arguments)) for c in (*streamed_call, *whole_call)] == [
        ("query_order", {"order_id": "SO-1"})
    ] * 2


@pytest.mark.parametrize("calls", ['{"id": "c1"}', '"query_order"'])
def test_tool_calls_that_are_neither_a_list_nor_a_call_are_still_said(calls):
    chunk = f'data: {{"choices":[{{"index":0,"delta":{{"tool_calls":{calls}}}}}]}}\n\n'
    client, _, _ = make(streamed(chunk))
    with pytest.raises(BadResponseError, match="^streamed tool_calls is not a list: "):
        list(client.stream(QUESTION))
