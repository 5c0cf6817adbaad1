"""A reply is read up to `ChatClient.max_reply_bytes` and no further: a 200 MB body, an error
body as long, or an event stream that never ends is stopped there with a `BadResponseError`
saying so (and the gateway's fault), instead of filling memory or running forever. The pieces
the server is asked for are counted, never the time."""

import gzip
import itertools
import json
import zlib

import httpx
import pytest

from toolkit.chat.charset import STEP, inflated
from toolkit.chat.client import MAX_REPLY_BYTES, ChatClient, RetryPolicy
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import StreamDone, TextDelta
from toolkit.errors import BadResponseError, ConfigurationError

QUESTION = [UserMessage(content="hi")]
PIECE = 1000
LIMIT = 10 * PIECE
KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"
TOO_LONG = (
    "the reply went on past 10,000 bytes (ChatClient.max_reply_bytes) and was not read further: no chat "
    "completion is that long; nothing from it was used"
)
HINT = (
    "The gateway, or something between it and you, sent far more than a reply: check that LLM_BASE_URL is the "
    "chat API's base URL; if its replies really are this long, raise ChatClient.max_reply_bytes."
)


class _Endless(httpx.SyncByteStream):
    """`head`, then `piece` again and again (for ever, as far as the bound goes: 1,000 times, so that
    a client without the bound fails instead of hanging); counts the pieces taken."""

    def __init__(self, head: bytes, piece: bytes) -> None:
        self.head, self.piece, self.taken, self.closed = head, piece, 0, False

    def __iter__(self):
        for piece in itertools.chain([self.head], itertools.repeat(self.piece, 1000)):
            self.taken += 1
            yield piece

    def close(self) -> None:
        self.closed = True


JSON = {"content-type": "application/json"}


def _client(
    status: int, content_type: str, body: httpx.SyncByteStream, headers: dict[str, str] | None = None
) -> ChatClient:
    answer = httpx.Response(status, headers={"content-type": content_type, **(headers or {})}, stream=body)
    client = ChatClient(
        "http://gw.test/v1", KEY, "m", transport=httpx.MockTransport(lambda r: answer), retry=RetryPolicy(0)
    )
    client.max_reply_bytes = LIMIT
    return client


def _chunk(text: str) -> bytes:
    data = {"id": "c", "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}
    return b"data: " + json.dumps(data).encode() + b"\n\n"


def test_the_default_bound_holds_any_real_reply_and_is_the_client_s():
    assert MAX_REPLY_BYTES == 64 << 20
    assert ChatClient("http://gw.test/v1", KEY, "m").max_reply_bytes == MAX_REPLY_BYTES


@pytest.mark.parametrize("status", [200, 400, 503])
def test_a_body_that_goes_on_past_the_bound_is_not_read_further(status):
    body = _Endless(b'{"choices": [{"message": {"content": "', b"a" * PIECE)
    client = _client(status, "application/json", body)
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == TOO_LONG
    assert caught.value.hint == HINT
    assert caught.value.status == status
    assert body.taken <= LIMIT // PIECE + 2 and body.closed
    assert client.exchanges[-1].response_text == "<the reply went on past 10,000 bytes: not read further>"


def test_an_event_stream_that_never_ends_is_stopped_at_the_bound():
    body = _Endless(_chunk("start"), _chunk("x" * (PIECE - 100)))
    client = _client(200, "text/event-stream", body)
    events = []
    with pytest.raises(BadResponseError) as caught:
        for event in client.stream(QUESTION):
            events.append(event)
    assert str(caught.value) == TOO_LONG
    assert body.taken <= LIMIT // (PIECE - 100) + 2 and body.closed
    assert events and all(isinstance(e, TextDelta) for e in events)  # shown as it came; nothing finished
    assert "not read further" in client.exchanges[-1].response_text


def test_a_stream_answered_with_endless_json_is_stopped_at_the_bound():
    body = _Endless(b'{"choices": [{"message": {"content": "', b"a" * PIECE)
    with pytest.raises(BadResponseError) as caught:
        list(_client(200, "application/json", body).stream(QUESTION))
    assert str(caught.value) == TOO_LONG
    assert body.taken <= LIMIT // PIECE + 2


def test_a_reply_of_exactly_the_bound_is_read_whole():
    reply = {"choices": [{"message": {"role": "assistant", "content": ""}, "finish_reason": "stop"}]}
    filler = LIMIT - len(json.dumps(reply).encode())
    reply["choices"][0]["message"]["content"] = "a" * filler
    data = json.dumps(reply).encode()
    assert len(data) == LIMIT
    client = _client(200, "application/json", httpx.ByteStream(data))
    assert client.chat(QUESTION).message.content == "a" * filler
    done = list(
        _client(200, "text/event-stream", httpx.ByteStream(_chunk("ok") + b"data: [DONE]\n\n")).stream(QUESTION)
    )
    assert isinstance(done[-1], StreamDone)


def _raw_deflate(data: bytes) -> bytes:
    squeezer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return squeezer.compress(data) + squeezer.flush()


SQUEEZERS = {"gzip": gzip.compress, "x-gzip": gzip.compress, "deflate": zlib.compress, "Deflate": _raw_deflate}


class _Pieces(httpx.SyncByteStream):
    """`data` in pieces of `size` bytes, as a socket hands them over; counts the pieces taken."""

    def __init__(self, data: bytes, size: int = 64 * 1024) -> None:
        self.data, self.size, self.taken = data, size, 0

    def __iter__(self):
        for at in range(0, len(self.data), self.size):
            self.taken += 1
            yield self.data[at : at + self.size]


def _compressed(status: int, encoding: str, data: bytes, content_type: str = "application/json") -> ChatClient:
    body = _Pieces(SQUEEZERS[encoding](data))
    return _client(status, content_type, body, {"content-encoding": encoding})


@pytest.mark.parametrize("encoding", list(SQUEEZERS))
@pytest.mark.parametrize("status", [200, 500])
def test_a_compressed_body_is_bounded_by_what_it_inflates_to(status, encoding):
    reply = {"choices": [{"message": {"role": "assistant", "content": "a" * 50 * LIMIT}, "finish_reason": "stop"}]}
    data = json.dumps(reply).encode()
    client = _compressed(status, encoding, data)
    assert len(SQUEEZERS[encoding](data)) < LIMIT // 10  # a small bomb: what arrived is far under the bound
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == TOO_LONG
    assert caught.value.status == status
    assert client.exchanges[-1].response_text == "<the reply went on past 10,000 bytes: not read further>"


def test_a_compressed_stream_is_stopped_where_it_inflates_past_the_bound():
    data = b"".join(_chunk("x" * 900) for _ in range(2000))  # 2 MB of events in about 20 KB of gzip
    body = _Pieces(gzip.compress(data), size=1000)
    client = _client(200, "text/event-stream", body, {"content-encoding": "gzip"})
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == TOO_LONG
    assert body.taken <= 2  # stopped at the first 10 KB inflated, not after 10 KB of gzip (2 MB inflated)


def test_one_piece_that_inflates_to_a_lot_is_inflated_a_step_at_a_time():
    bomb = gzip.compress(b" " * (8 << 20))  # 8 KB that inflate to 8 MB, in one piece
    steps = list(inflated([bomb], ["gzip"]))
    assert max(map(len, steps)) <= STEP and sum(map(len, steps)) == 8 << 20


@pytest.mark.parametrize("encoding", list(SQUEEZERS))
def test_a_compressed_reply_within_the_bound_is_read_and_the_client_asks_for_what_it_undoes(encoding):
    reply = {"choices": [{"message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}]}
    asked = []
    squeezed = SQUEEZERS[encoding](json.dumps(reply).encode())

    def answer(request):
        asked.append(request.headers["accept-encoding"])
        return httpx.Response(200, headers={**JSON, "content-encoding": encoding}, stream=_Pieces(squeezed, 7))

    client = ChatClient("http://gw.test/v1", KEY, "m", transport=httpx.MockTransport(answer))
    assert client.chat(QUESTION).message.content == "ok"
    assert asked == ["gzip, deflate"]


def test_a_body_that_is_not_what_its_encoding_says_is_still_undecodable():
    client = _client(200, "application/json", _Pieces(b"not gzip at all"), {"content-encoding": "gzip"})
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert (
        str(caught.value)
        == "the response body cannot be decoded: Error -3 while decompressing data: incorrect header check"
    )


@pytest.mark.parametrize("bound", [None, "100MB", 0, -1, True, 1.5, float("nan")])
def test_a_bound_that_is_no_count_of_bytes_is_refused_where_it_is_set(bound):
    """Before: taken, then a bare TypeError out of chat() at the first reply (None, '100MB': after
    the request was sent), or every reply 'went on past 0 bytes' (0, -1, True)."""
    client = ChatClient("http://gw.test/v1", KEY, "m")
    with pytest.raises(ConfigurationError) as caught:
        client.max_reply_bytes = bound
    assert str(caught.value) == (
        f"ChatClient.max_reply_bytes must be a whole number of bytes, at least 1 (64 MiB, {MAX_REPLY_BYTES:,}, "
        f"unless set), not {bound!r}"
    )
    assert client.max_reply_bytes == MAX_REPLY_BYTES


def test_a_bound_may_be_raised():
    client = ChatClient("http://gw.test/v1", KEY, "m")
    client.max_reply_bytes = 1 << 30
    assert client.max_reply_bytes == 1 << 30
