"""Cassettes of gateways that compress their answers, use another charset, ask for a wait in
milliseconds, or whose answer broke off: what is written is what the client read (and how it
ended), and replay serves it the same way."""

import email.utils
import gzip
import json
import time
import zlib

import httpx
import pytest
from test_client_reply_size import FAKE_BROTLI, FAKE_ZSTANDARD

from toolkit.chat import cassette as cassettes
from toolkit.chat import charset
from toolkit.chat.cassette import RecordingTransport, ReplayTransport
from toolkit.chat.client import ChatClient, ReplyTooLongError, RetryPolicy
from toolkit.chat.clock import read_clock
from toolkit.chat.messages import UserMessage
from toolkit.chat.rate_limits import duration_s
from toolkit.chat.sse import StreamDone
from toolkit.errors import (
    BadResponseError,
    CallerError,
    CassetteError,
    ModelCallError,
    TransientError,
    TruncatedStreamError,
)

QUESTION = [UserMessage(content="où est ma commande ?")]
ANSWER = {
    "id": "c1",
    "model": "m",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Elle arrive, café compris."}}],
    "usage": {"prompt_tokens": 5, "completion_tokens": 4},
}
STREAM = (
    'data: {"choices":[{"index":0,"delta":{"content":"Elle arrive, "}}]}\n\n'
    'data: {"choices":[{"index":0,"delta":{"content":"café compris."},"finish_reason":"stop"}]}\n\n'
    "data: [DONE]\n\n"
)


def gateway(status: int, content: bytes, **headers: str) -> httpx.MockTransport:
    """A gateway that answers every request with these bytes and headers (`content_type=` is
    `Content-Type`)."""
    named = {name.replace("_", "-"): value for name, value in headers.items()}
    return httpx.MockTransport(lambda request: httpx.Response(status, headers=named, stream=httpx.ByteStream(content)))


def record_and_replay(tmp_path, inner, ask, **options):
    """What `ask(client)` gives (or raises) against `inner` while recording, then on replay."""
    cassette = tmp_path / "c.jsonl"
    outcomes = []
    for transport in (RecordingTransport(cassette, inner), None):
        transport = transport or ReplayTransport(cassette)
        client = ChatClient("http://gateway.test/v1", "sk-key-0123456789abcdef", "m", transport=transport, **options)
        try:
            outcomes.append(ask(client))
        except Exception as exc:  # the error itself is what must replay the same
            outcomes.append((type(exc), str(exc)))
    return outcomes, json.loads(cassette.read_text(encoding="utf-8").split("\n")[0])


def streamed(client):
    return [event for event in client.stream(QUESTION)][-1]


@pytest.mark.parametrize(
    "compress, encoding",
    [(gzip.compress, "gzip"), (zlib.compress, "deflate"), (gzip.compress, "x-gzip")],
    ids=["gzip", "deflate", "x-gzip"],
)
def test_a_compressed_answer_is_written_as_its_text_and_replays(tmp_path, compress, encoding):
    """x-gzip (gzip's old name, which the client undoes as gzip) was written as the gzip bytes read as
    text, and replay failed on them."""
    inner = gateway(
        200, compress(json.dumps(ANSWER).encode()), content_type="application/json", content_encoding=encoding
    )
    (recorded, replayed), line = record_and_replay(tmp_path, inner, lambda client: client.chat(QUESTION))
    assert recorded.message.content == "Elle arrive, café compris."
    assert replayed == recorded
    assert json.loads(line["response"]["body"]) == ANSWER
    assert "content_encoding" not in line["response"]


def test_a_compressed_stream_is_written_as_its_events_and_replays(tmp_path):
    inner = gateway(200, gzip.compress(STREAM.encode()), content_type="text/event-stream", content_encoding="gzip")
    (recorded, replayed), line = record_and_replay(tmp_path, inner, streamed)
    assert isinstance(recorded, StreamDone) and recorded.response.message.content == "Elle arrive, café compris."
    assert replayed == recorded
    assert line["response"]["body"] == STREAM


def test_a_body_in_another_charset_replays_as_the_same_text(tmp_path):
    body = json.dumps(ANSWER, ensure_ascii=False).encode("latin-1")
    inner = gateway(200, body, content_type="application/json; charset=iso-8859-1")
    (recorded, replayed), line = record_and_replay(tmp_path, inner, lambda client: client.chat(QUESTION))
    assert recorded.message.content == "Elle arrive, café compris."
    assert replayed == recorded
    assert "café" in line["response"]["body"]


def test_a_body_that_does_not_fit_its_encoding_fails_the_same_on_replay(tmp_path):
    inner = gateway(200, json.dumps(ANSWER).encode(), content_type="application/json", content_encoding="gzip")
    (recorded, replayed), line = record_and_replay(tmp_path, inner, lambda client: client.chat(QUESTION))
    assert recorded[0] is BadResponseError and recorded[1].startswith("the response body cannot be decoded")
    assert replayed == recorded
    assert line["response"]["content_encoding"] == "gzip"


def test_a_wait_asked_in_milliseconds_replays_the_same(tmp_path):
    inner = gateway(
        429, b'{"error": {"message": "slow down"}}', content_type="application/json", retry_after_ms="90000"
    )
    options = {"retry": RetryPolicy(max_retries=2), "sleep": lambda seconds: None}
    (recorded, replayed), line = record_and_replay(tmp_path, inner, lambda client: client.chat(QUESTION), **options)
    assert recorded[0] is TransientError and "asks to wait 90 s" in recorded[1]
    assert replayed == recorded
    assert line["response"]["retry_after_ms"] == "90000"


def test_a_retry_after_date_replays_against_the_recorded_servers_clock(tmp_path):
    headers = {"retry_after": "Wed, 21 Oct 2015 07:29:00 GMT", "date": "Wed, 21 Oct 2015 07:28:00 GMT"}
    inner = gateway(429, b'{"error": {"message": "slow down"}}', content_type="application/json", **headers)
    options = {"retry": RetryPolicy(max_retries=2), "sleep": lambda seconds: None}
    (recorded, replayed), line = record_and_replay(tmp_path, inner, lambda client: client.chat(QUESTION), **options)
    assert "asks to wait 60 s" in recorded[1]
    assert replayed == recorded
    assert line["response"]["date"] == headers["date"]


@pytest.mark.parametrize(
    "headers",
    [
        {"x_ratelimit_remaining_requests": "0", "x_ratelimit_reset_requests": "0m7.66s"},  # OpenAI's, Groq's
        {"x_ratelimit_remaining_tokens_minute": "0", "x_ratelimit_reset_tokens_minute": "11.5"},  # Cerebras'
        {"x_ratelimit_remaining": "0", "x_ratelimit_reset": "7"},  # Together's
        {"x_should_retry": "false"},  # the gateway's word: not retried
    ],
    ids=["openai", "cerebras", "together", "should-retry"],
)
def test_a_429s_rate_limit_headers_replay_the_same_waits(tmp_path, headers):
    """Before: a cassette kept no `x-ratelimit-*` or `x-should-retry` header, so a replayed 429 backed off
    where the recorded one waited for its limit's reset (or retried where it had been told not to)."""
    inner = gateway(429, b'{"error": {"message": "slow down"}}', content_type="application/json", **headers)
    slept: list[list[float]] = [[], []]
    cassette = tmp_path / "c.jsonl"
    outcomes = []
    for waits, transport in zip(slept, (RecordingTransport(cassette, inner), None), strict=True):
        options = {"retry": RetryPolicy(max_retries=1), "sleep": waits.append}
        client = ChatClient("http://gw.test/v1", "k", "m", transport=transport or ReplayTransport(cassette), **options)
        with pytest.raises(ModelCallError) as info:
            client.chat(QUESTION)
        outcomes.append((type(info.value), str(info.value)))
    assert outcomes[1] == outcomes[0] and slept[1] == slept[0]
    assert slept[0] == ([] if "x_should_retry" in headers else [duration_s(list(headers.values())[1])])


@pytest.mark.parametrize(
    ("content_type", "served"),
    [
        ("application/json", "application/json"),
        ("application/json; charset=iso-8859-1", "application/json; charset=utf-8"),
        ("text/event-stream;charset=GBK; x=1", "text/event-stream; x=1; charset=utf-8"),
        ("", ""),
    ],
)
def test_replay_says_the_charset_it_serves(content_type, served):
    assert cassettes.served_content_type(content_type) == served


class _BreaksAfter(httpx.SyncByteStream):
    def __init__(self, content, error):
        self.content, self.error = content, error

    def __iter__(self):
        yield self.content
        raise self.error


@pytest.mark.parametrize(
    "error, why",
    [
        (httpx.ReadTimeout("timed out"), "the read timed out (ReadTimeout) after 30.0s"),
        (httpx.RemoteProtocolError("peer closed connection"), "the connection broke (RemoteProtocolError)"),
    ],
)
def test_a_stream_that_broke_off_after_its_finish_reason_breaks_off_on_replay_too(tmp_path, error, why):
    cut = STREAM.replace("data: [DONE]\n\n", "").encode()
    answer = httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=_BreaksAfter(cut, error))
    (recorded, replayed), line = record_and_replay(tmp_path, httpx.MockTransport(lambda request: answer), streamed)
    assert recorded == (TruncatedStreamError, f"stream ended before [DONE]: {why}; nothing from it will be executed")
    assert replayed == recorded
    assert line["response"]["broke"] == type(error).__name__


def test_a_plain_answer_that_broke_off_breaks_off_on_replay_too(tmp_path):
    error = httpx.ReadError("connection reset")
    answer = httpx.Response(200, stream=_BreaksAfter(b'{"choices": [', error))
    (recorded, replayed), _ = record_and_replay(
        tmp_path,
        httpx.MockTransport(lambda request: answer),
        lambda client: client.chat(QUESTION),
        retry=RetryPolicy(max_retries=0),
    )
    assert recorded[0] is TransientError
    assert replayed == recorded


REQUEST = {"method": "POST", "path": "/chat/completions", "body": None}
RESPONSE = {"status": 200, "content_type": "text/event-stream", "body": STREAM}


@pytest.mark.parametrize(
    "line, problem",
    [
        (
            {"request": REQUEST, "response": {**RESPONSE, "broke": "SystemExit"}},
            "response broke 'SystemExit' is not the name of an httpx transport error (ReadTimeout, ReadError, "
            "RemoteProtocolError, ...)",
        ),
        (
            {"request": REQUEST, "failed": "Banana"},
            "failed 'Banana' is not the name of an httpx transport error (ConnectError, ConnectTimeout, ReadTimeout, "
            "...)",
        ),
        ({"request": REQUEST, "failed": "ConnectError", "why": 3}, "why is not a string"),
        (
            {"request": REQUEST, "response": {**RESPONSE, "retry_after_ms": 90000}},
            "response retry_after_ms is not a string",
        ),
        ({"request": REQUEST, "response": {**RESPONSE, "location": ["x"]}}, "response location is not a string"),
        ({"request": REQUEST, "response": {**RESPONSE, "date": 1}}, "response date is not a string"),
        (
            {"request": REQUEST, "response": {**RESPONSE, "x_should_retry": False}},
            "response x_should_retry is not a string",
        ),
        *(
            (
                {"request": REQUEST, "response": {**RESPONSE, "rate_limits": limits}},
                "response rate_limits is not an object of x-ratelimit-* header names and their values (strings)",
            )
            for limits in ({"x-ratelimit-reset": 7}, {"set-cookie": "a=b"}, ["x-ratelimit-reset"])
        ),
    ],
)
def test_an_edited_field_that_replay_would_drop_is_refused(tmp_path, line, problem):
    """Before: a `broke` naming no transport error replayed the cut answer whole, a `retry_after_ms`
    written as a number replayed no wait, an unknown `failed` replayed as a ConnectError."""
    cassette = tmp_path / "c.jsonl"
    cassette.write_text(json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(CassetteError) as info:
        ReplayTransport(cassette)
    assert str(info.value) == f"cassette {cassette}, line 1: {problem}"


class _OwnTimeout(httpx.ReadTimeout):
    """A transport's own kind of an httpx error (a test double's, a wrapper's)."""


def test_an_error_of_a_transports_own_class_is_recorded_by_its_httpx_name(tmp_path):
    def times_out(request):
        raise _OwnTimeout("timed out", request=request)

    options = {"retry": RetryPolicy(max_retries=0)}
    (recorded, replayed), line = record_and_replay(
        tmp_path, httpx.MockTransport(times_out), lambda client: client.chat(QUESTION), **options
    )
    assert line["failed"] == "ReadTimeout"
    assert recorded == (TransientError, "request timed out (_OwnTimeout) after 30.0s")
    assert replayed == (
        TransientError,
        "request timed out (ReadTimeout) after 30.0s",
    )  # was: "Cannot reach the gateway"


def no_answer(error):
    def gateway(request):
        error.request = request
        raise error

    return httpx.MockTransport(gateway)


@pytest.mark.parametrize(
    "error",
    [httpx.ConnectError("[Errno 111] Connection refused"), httpx.ReadTimeout("timed out")],
    ids=["refused", "timed-out"],
)
def test_a_request_that_got_no_answer_fails_the_same_on_replay(tmp_path, error):
    options = {"retry": RetryPolicy(max_retries=1), "sleep": lambda seconds: None}
    (recorded, replayed), line = record_and_replay(
        tmp_path, no_answer(error), lambda client: client.chat(QUESTION), **options
    )
    assert recorded[0] is TransientError
    assert replayed == recorded
    assert (line["failed"], line["why"]) == (type(error).__name__, str(error)) and "response" not in line


def test_a_failed_line_must_name_the_error(tmp_path):
    cassette = tmp_path / "c.jsonl"
    request = {"method": "POST", "path": "/chat/completions", "body": None}
    cassette.write_text(json.dumps({"request": request, "failed": 3}) + "\n", encoding="utf-8")
    with pytest.raises(CassetteError, match=r"line 1: failed is not a string \(the name of httpx's error\)$"):
        ReplayTransport(cassette)


def test_the_text_of_a_failure_keeps_no_key(tmp_path):
    error = httpx.ConnectError("proxy refused Bearer sk-key-0123456789abcdef")
    options = {"retry": RetryPolicy(max_retries=0)}
    (recorded, replayed), line = record_and_replay(
        tmp_path, no_answer(error), lambda client: client.chat(QUESTION), **options
    )
    assert "0123456789abcdef" not in (tmp_path / "c.jsonl").read_text(encoding="utf-8")
    assert line["why"] == "proxy refused Bearer ***cdef"
    assert replayed == recorded


def test_line_and_paragraph_separators_in_a_body_replay(tmp_path):
    # JSON Lines end at "\n" only; U+2028, U+2029 and U+0085 are written as they are (ensure_ascii=False).
    odd = "ligne\u2028paragraphe\u2029suivant\x85fin"
    answer = {**ANSWER, "choices": [{"index": 0, "message": {"role": "assistant", "content": odd}}]}
    inner = gateway(200, json.dumps(answer).encode(), content_type="application/json")
    (recorded, replayed), line = record_and_replay(
        tmp_path, inner, lambda client: client.chat([UserMessage(content=f"the clock says {odd}")])
    )
    assert recorded.message.content == replayed.message.content == odd
    assert read_clock(tmp_path / "c.jsonl") is None  # the body names the clock, and holds no reading


def test_a_redirect_replays_with_where_it_pointed(tmp_path):
    """The error for a redirect names its `Location`; a cassette without it replayed "(no Location given)"."""
    inner = gateway(307, b"", location="https://elsewhere.test/v2/chat/completions?api_key=sk-key-0123456789abcdef")
    (recorded, replayed), line = record_and_replay(tmp_path, inner, lambda client: client.chat(QUESTION))
    assert recorded[0] is CallerError and "redirects to https://elsewhere.test/v2/chat/completions" in recorded[1]
    assert replayed == recorded
    assert line["response"]["location"].startswith("https://elsewhere.test/v2/chat/completions?api_key=")
    assert "0123456789abcdef" not in (tmp_path / "c.jsonl").read_text(encoding="utf-8")


def test_a_retry_after_date_without_a_date_header_replays_the_same_on_another_day(tmp_path, monkeypatch):
    """Measured against the replaying machine's clock, the recorded hour's wait was over a day later:
    replay retried at once and ran out of recordings, where the recorded run had been told to wait."""
    recorded_at = 1_760_000_000.0
    asked = email.utils.formatdate(recorded_at + 3600, usegmt=True)
    inner = gateway(429, b'{"error": {"message": "slow down"}}', content_type="application/json", retry_after=asked)
    monkeypatch.setattr(time, "time", lambda: recorded_at)
    cassette = tmp_path / "c.jsonl"
    options = {"retry": RetryPolicy(max_retries=2), "sleep": lambda seconds: None}
    outcomes = []
    for transport, now in ((RecordingTransport(cassette, inner), recorded_at), (None, recorded_at + 86_400)):
        monkeypatch.setattr(time, "time", lambda now=now: now)
        client = ChatClient(
            "http://gateway.test/v1", "k", "m", transport=transport or ReplayTransport(cassette), **options
        )
        with pytest.raises(TransientError) as info:
            client.chat(QUESTION)
        outcomes.append(str(info.value))
    assert "asks to wait 3600 s" in outcomes[0]
    assert outcomes[1] == outcomes[0]


class _GoesOn(httpx.SyncByteStream):
    """`head`, then `piece` again and again (1,000 times: a client without a bound fails instead of hanging)."""

    def __init__(self, head: bytes, piece: bytes) -> None:
        self.head, self.piece = head, piece

    def __iter__(self):
        yield self.head
        for _ in range(1000):
            yield self.piece


def _chunk(text: str) -> bytes:
    return b"data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": text}}]}).encode() + b"\n\n"


TOO_LONG = (
    "the reply went on past 10,000 bytes (ChatClient.max_reply_bytes) and was not read further: no chat "
    "completion is that long; nothing from it was used"
)


def _capped(client, limit=10_000):
    client.max_reply_bytes = limit
    return client


def _shown_then_cut(client):
    """The events shown before the reply was cut, and the error it was cut with."""
    shown = []
    with pytest.raises(ReplyTooLongError) as caught:
        for event in client.stream(QUESTION):
            shown.append(event)
    return shown, str(caught.value)


@pytest.mark.parametrize(
    "content_type, head, piece, ask",
    [
        ("application/json", b'{"choices": [{"message": {"content": "', b"a" * 1000, lambda c: c.chat(QUESTION)),
        ("text/event-stream", _chunk("start"), _chunk("x" * 900), _shown_then_cut),
    ],
    ids=["answer", "stream"],
)
def test_a_reply_cut_at_the_clients_bound_is_cut_the_same_on_replay(tmp_path, content_type, head, piece, ask):
    """Before: the part read was written as the whole body, so replay read it as a body that breaks
    off ('response body is not JSON: it breaks off…', 'stream ended before [DONE]')."""
    answer = httpx.Response(200, headers={"content-type": content_type}, stream=_GoesOn(head, piece))
    (recorded, replayed), line = record_and_replay(
        tmp_path, httpx.MockTransport(lambda request: answer), lambda c: ask(_capped(c)), retry=RetryPolicy(0)
    )
    assert recorded[1] == TOO_LONG
    assert replayed == recorded
    assert line["response"]["unread"] is True
    assert line["format"] == 2  # an older toolkit, which would serve it as a body that breaks off, refuses it
    if content_type == "text/event-stream":
        assert len(recorded[0]) == 11  # the events of the pieces read before the bound: shown again on replay


def test_a_cut_reply_is_kept_within_the_cassettes_share_and_replays_the_same(tmp_path, monkeypatch):
    """Before: all of a reply cut at `max_reply_bytes` (64 MiB by default) was written: as much as the
    cassette's own cap (`MAX_CASSETTE_BYTES`, 64 MiB), so the cassette could not be read back."""
    monkeypatch.setattr(cassettes, "UNREAD_KEPT", 2_000)
    answer = httpx.Response(
        200,
        headers={"content-type": "application/json", "content-encoding": "gzip"},
        stream=httpx.ByteStream(gzip.compress(b'{"choices": [{"message": {"content": "' + b"a" * 100_000)),
    )
    (recorded, replayed), line = record_and_replay(
        tmp_path, httpx.MockTransport(lambda request: answer), lambda c: _capped(c).chat(QUESTION), retry=RetryPolicy(0)
    )
    assert recorded[1] == TOO_LONG and replayed == recorded
    assert line["response"]["body"] == '{"choices": [{"message": {"content": "' + "a" * (2_000 - 38)
    assert "content_encoding" not in line["response"]


def test_a_reply_fully_read_is_not_marked_unread(tmp_path):
    (recorded, replayed), line = record_and_replay(
        tmp_path,
        gateway(200, json.dumps(ANSWER).encode(), content_type="application/json"),
        lambda c: c.chat(QUESTION).message.content,
    )
    assert recorded == replayed == "Elle arrive, café compris."
    assert "unread" not in line["response"] and line["format"] == 1


def test_an_unread_mark_that_is_no_yes_or_no_is_refused(tmp_path):
    cassette = tmp_path / "c.jsonl"
    cassette.write_text(json.dumps({"request": REQUEST, "response": {**RESPONSE, "unread": "yes"}}) + "\n")
    with pytest.raises(CassetteError) as caught:
        ReplayTransport(cassette)
    assert str(caught.value) == f"cassette {cassette}, line 1: response unread is not true or false"


def test_a_stream_left_before_its_end_within_the_bound_is_not_marked_unread(tmp_path):
    """A learner's loop that stops at the first event leaves the rest unread, but the reply did not go
    past the bound: replay must not claim it did (it serves what was read, then ends, as before)."""
    answer = httpx.Response(
        200, headers={"content-type": "text/event-stream"}, stream=_GoesOn(_chunk("a"), _chunk("b"))
    )
    cassette = tmp_path / "c.jsonl"
    client = ChatClient(
        "http://gw.test/v1",
        "sk-key-0123456789abcdef",
        "m",
        transport=RecordingTransport(cassette, httpx.MockTransport(lambda request: answer)),
    )
    events = client.stream(QUESTION)
    next(events)
    events.close()
    line = json.loads(cassette.read_text(encoding="utf-8").split("\n")[0])
    assert "unread" not in line["response"]


def test_a_cut_reply_replays_past_a_bound_raised_beyond_what_replay_would_serve(tmp_path, monkeypatch):
    """Replay goes on until just past the replaying client's own bound (it says it in the request), not
    a fixed length: a client whose bound is higher than that length read a body that broke off."""
    answer = httpx.Response(
        200, headers={"content-type": "application/json"}, stream=_GoesOn(b'{"choices": [', b"a" * 1000)
    )
    cassette = tmp_path / "c.jsonl"
    recording = ChatClient(
        "http://gw.test/v1",
        "sk-key-0123456789abcdef",
        "m",
        retry=RetryPolicy(0),
        transport=RecordingTransport(cassette, httpx.MockTransport(lambda request: answer)),
    )
    with pytest.raises(ReplyTooLongError):
        _capped(recording).chat(QUESTION)
    monkeypatch.setattr(cassettes, "GOES_ON_BYTES", 20_000)
    replaying = ChatClient("http://gw.test/v1", "sk-key-0123456789abcdef", "m", transport=ReplayTransport(cassette))
    with pytest.raises(ReplyTooLongError) as caught:
        _capped(replaying, 500_000).chat(QUESTION)
    assert str(caught.value).startswith("the reply went on past 500,000 bytes")


@pytest.mark.parametrize(
    "encoding, squeeze",
    [
        ("br", zlib.compress),
        ("zstd", zlib.compress),
        ("gzip, br", lambda data: zlib.compress(gzip.compress(data))),
        ("gzip", lambda data: gzip.compress(data[:30]) + gzip.compress(data[30:])),
    ],
    ids=["br", "zstd", "gzip-then-br", "gzip-of-two-members"],
)
def test_a_br_zstd_or_many_member_answer_is_written_as_its_text_and_replays(tmp_path, monkeypatch, encoding, squeeze):
    """br and zstd (with their packages: faked here over zlib) and a gzip body of several members are
    undone as the client undoes them, so the cassette holds the text the client read."""
    monkeypatch.setattr(charset, "BROTLI", FAKE_BROTLI)
    monkeypatch.setattr(charset, "ZSTANDARD", FAKE_ZSTANDARD)
    inner = gateway(
        200, squeeze(json.dumps(ANSWER).encode()), content_type="application/json", content_encoding=encoding
    )
    (recorded, replayed), line = record_and_replay(tmp_path, inner, lambda client: client.chat(QUESTION))
    assert recorded.message.content == "Elle arrive, café compris."
    assert replayed == recorded
    assert json.loads(line["response"]["body"]) == ANSWER
    assert "content_encoding" not in line["response"]


def test_an_answer_in_an_encoding_the_client_cannot_undo_fails_the_same_on_replay(tmp_path, monkeypatch):
    monkeypatch.setattr(charset, "BROTLI", None)
    inner = gateway(200, b"\x1bZ\x00 ,\x99\x88", content_type="application/json", content_encoding="br")
    (recorded, replayed), line = record_and_replay(tmp_path, inner, lambda client: client.chat(QUESTION))
    assert recorded == replayed
    assert recorded[0] is BadResponseError and recorded[1].startswith("the gateway compressed its answer as br")
    assert line["response"]["content_encoding"] == "br"
