"""A reply is read up to `ChatClient.max_reply_bytes` and no further: a 200 MB body, an error
body as long, or an event stream that never ends is stopped there with a `BadResponseError`
saying so (and the gateway's fault), instead of filling memory or running forever. The pieces
the server is asked for are counted, never the time."""

import gzip
import importlib
import importlib.util
import itertools
import json
import types
import zlib

import httpx
import pytest

from toolkit.chat import charset
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
    client = _client(200, "application/json", _Pieces(b"\x00\x9c\xfe\x01garbled"), {"content-encoding": "gzip"})
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert (
        str(caught.value)
        == "the response body cannot be decoded: Error -3 while decompressing data: incorrect header check"
    )


NOT_COMPRESSED_HINT = (
    "A proxy or relay on the way sends the answer uncompressed but keeps its Content-Encoding header (or "
    "sets one): have it drop the header, or send what the header says. Nothing on your side needs to change."
)


@pytest.mark.parametrize(
    "encoding, body, kind",
    [
        ("gzip", json.dumps({"choices": []}).encode(), "JSON"),
        ("x-gzip", b"\xef\xbb\xbf  [1]", "JSON"),
        ("gzip", b"data: {}\n\n", "server-sent events"),
        ("gzip", b"<!DOCTYPE html><title>Sign in</title>", "an HTML page"),
        ("gzip", "\u4e0d\u662f gzip".encode(), "plain text"),
        ("br", b'{"id": "x"}', "JSON"),
        ("zstd", b'{"id": "x"}', "JSON"),
    ],
)
def test_an_answer_declared_compressed_that_is_plain_says_so_with_a_hint(monkeypatch, encoding, body, kind):
    """Before: "the response body cannot be decoded: Error -3 while decompressing data: incorrect header
    check", a zlib error naming neither the header nor who is at fault."""
    monkeypatch.setattr(charset, "BROTLI", FAKE_BROTLI)
    monkeypatch.setattr(charset, "ZSTANDARD", FAKE_ZSTANDARD)
    client = _client(200, "application/json", _Pieces(body, 3), {"content-encoding": encoding})
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == (
        f"the response body cannot be decoded: the gateway said it was compressed as {encoding} "
        f"(Content-Encoding) but sent {kind}, not compressed; nothing from it was used"
    )
    assert caught.value.hint == NOT_COMPRESSED_HINT


def test_a_stream_declared_compressed_that_is_plain_events_says_so():
    body = b'data: {"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}\n\n'
    client = _client(200, "text/event-stream", _Pieces(body + b"data: [DONE]\n\n", 5), {"content-encoding": "gzip"})
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == (
        "the response body cannot be decoded: the gateway said it was compressed as gzip (Content-Encoding) but "
        "sent server-sent events, not compressed; nothing from it was used"
    )
    assert caught.value.hint == NOT_COMPRESSED_HINT


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


class _FakeBrotliError(Exception):
    pass


class _FakeBrotliDecompressor:
    """brotli 1.2's `Decompressor` (`process(data, output_buffer_limit)`, `can_accept_more_data`),
    over zlib: CI installs no brotli, and the rule is the same."""

    def __init__(self) -> None:
        self.inner, self.pending = zlib.decompressobj(), b""

    def process(self, data: bytes, output_buffer_limit: int = 0) -> bytes:
        if data and self.pending:
            raise _FakeBrotliError("input given before can_accept_more_data()")
        try:
            out = self.inner.decompress(self.pending + data, output_buffer_limit)
        except zlib.error as exc:
            raise _FakeBrotliError("brotli: decoder failed") from exc
        self.pending = self.inner.unconsumed_tail
        return out

    def can_accept_more_data(self) -> bool:
        return not self.pending


class _OldBrotliDecompressor(_FakeBrotliDecompressor):
    def process(self, data: bytes) -> bytes:  # type: ignore[override]  # brotli 1.1: no bound
        return self.inner.decompress(data)


class _FakeZstdReader:
    """zstandard's `stream_reader`: `read(n)` gives at most n bytes of what its source inflates to."""

    def __init__(self, source, read_size: int, read_across_frames: bool, closefd: bool) -> None:
        self.source, self.read_size, self.inner = source, read_size, zlib.decompressobj()
        assert read_across_frames and not closefd

    def read(self, size: int) -> bytes:
        data = self.inner.unconsumed_tail
        while True:
            try:
                out = self.inner.decompress(data, size)
            except zlib.error as exc:
                raise _FakeZstdError("zstd decompress error: Unknown frame descriptor") from exc
            if out or self.inner.eof:
                return out
            data = self.source.read(self.read_size)
            if not data:
                return b""


class _FakeZstdError(Exception):
    pass


class _FakeZstdDecompressor:
    def stream_reader(self, source, read_size: int, read_across_frames: bool, closefd: bool) -> _FakeZstdReader:
        return _FakeZstdReader(source, read_size, read_across_frames, closefd)


FAKE_BROTLI = types.SimpleNamespace(Decompressor=_FakeBrotliDecompressor, error=_FakeBrotliError)
OLD_BROTLI = types.SimpleNamespace(Decompressor=_OldBrotliDecompressor, error=_FakeBrotliError)
FAKE_ZSTANDARD = types.SimpleNamespace(ZstdDecompressor=_FakeZstdDecompressor, ZstdError=_FakeZstdError)


def _real(name: str):
    return pytest.param(name, marks=pytest.mark.skipif(importlib.util.find_spec(name) is None, reason=f"no {name}"))


@pytest.fixture(params=["fake", _real("brotli"), _real("brotlicffi"), _real("zstandard")])
def packages(request, monkeypatch):
    """(what compresses as br, what as zstd): the fakes over zlib, or one real package (the other faked)."""
    monkeypatch.setattr(charset, "BROTLI", FAKE_BROTLI)
    monkeypatch.setattr(charset, "ZSTANDARD", FAKE_ZSTANDARD)
    squeeze = {"br": zlib.compress, "zstd": zlib.compress}
    if request.param in ("brotli", "brotlicffi"):
        real = importlib.import_module(request.param)
        monkeypatch.setattr(charset, "BROTLI", real)
        squeeze["br"] = real.compress
    if request.param == "zstandard":
        real = importlib.import_module("zstandard")
        monkeypatch.setattr(charset, "ZSTANDARD", real)
        squeeze["zstd"] = real.ZstdCompressor().compress
    return squeeze


def _stacked(squeeze: dict[str, object], encoding: str, data: bytes) -> bytes:
    for name in encoding.split(", "):  # in the order applied
        data = {**SQUEEZERS, **squeeze}[name](data)
    return data


STACKED = ["br", "zstd", "gzip, br", "br, gzip", "zstd, deflate", "deflate, zstd", "br, zstd"]


@pytest.mark.parametrize("encoding", STACKED)
@pytest.mark.parametrize("status", [200, 500])
def test_a_br_or_zstd_body_is_bounded_by_what_it_inflates_to_alone_or_stacked(packages, status, encoding):
    """Before: left to httpx, which inflated each piece whole (173 bytes of br, 1.7 KB of zstd: 50 MB
    read, past a 10,000-byte bound), stacked with gzip too."""
    reply = {"choices": [{"message": {"role": "assistant", "content": "a" * 500 * LIMIT}, "finish_reason": "stop"}]}
    body = _Pieces(_stacked(packages, encoding, json.dumps(reply).encode()), size=100)
    client = _client(status, "application/json", body, {"content-encoding": encoding})
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == TOO_LONG
    assert caught.value.status == status
    assert body.taken <= 3  # stopped within what the first pieces inflate to
    assert client.exchanges[-1].response_text == "<the reply went on past 10,000 bytes: not read further>"


@pytest.mark.parametrize("encoding", STACKED)
def test_a_br_or_zstd_reply_within_the_bound_is_read_and_its_stream_too(packages, encoding):
    reply = {"choices": [{"message": {"role": "assistant", "content": "ok " * 3000}, "finish_reason": "stop"}]}
    squeezed = _stacked(packages, encoding, json.dumps(reply).encode())
    client = _client(200, "application/json", _Pieces(squeezed, 7), {"content-encoding": encoding})
    assert client.chat(QUESTION).message.content == "ok " * 3000
    events = b"".join(_chunk(f"part {n} ") for n in range(300)) + b"data: [DONE]\n\n"
    squeezed = _stacked(packages, encoding, events)
    client = _client(200, "text/event-stream", _Pieces(squeezed, 50), {"content-encoding": encoding})
    client.max_reply_bytes = len(events)
    seen = list(client.stream(QUESTION))
    assert "".join(e.text for e in seen if isinstance(e, TextDelta)) == "".join(f"part {n} " for n in range(300))
    assert isinstance(seen[-1], StreamDone)


@pytest.mark.parametrize("name", ["br", "zstd"])
def test_a_br_or_zstd_step_holds_about_a_step_of_bytes(packages, name):
    bomb = packages[name](b" " * (8 << 20))  # one piece that inflates to 8 MB
    steps = list(inflated([bomb], [name]))
    assert max(map(len, steps)) <= 2 * STEP and sum(map(len, steps)) == 8 << 20


@pytest.mark.parametrize("encoding", ["br", "zstd"])
def test_a_body_that_is_not_br_or_zstd_is_undecodable(packages, encoding):
    client = _client(200, "application/json", _Pieces(b"not compressed at all"), {"content-encoding": encoding})
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).startswith("the response body cannot be decoded: ")


def test_a_brotli_that_cannot_stop_at_a_bound_refuses_a_br_body_instead_of_inflating_it_whole(monkeypatch):
    monkeypatch.setattr(charset, "BROTLI", OLD_BROTLI)
    client = _client(200, "application/json", _Pieces(zlib.compress(b" " * (1 << 20))), {"content-encoding": "br"})
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == (
        "the response body cannot be decoded: it is compressed as br, and the brotli package installed cannot undo "
        "it a step at a time within ChatClient.max_reply_bytes (brotli or brotlicffi 1.2 or later can)"
    )


@pytest.mark.parametrize("encoding", ["br", "zstd", "gzip, br"])
def test_without_the_package_br_or_zstd_is_skipped_as_httpx_skips_it(monkeypatch, encoding):
    monkeypatch.setattr(charset, "BROTLI", None)
    monkeypatch.setattr(charset, "ZSTANDARD", None)
    assert charset.undone(httpx.Headers({"content-encoding": encoding})) == (["gzip"] if "gzip" in encoding else [])


@pytest.mark.parametrize("encoding", ["gzip", "x-gzip"])
@pytest.mark.parametrize("size", [7, 64 * 1024])
def test_a_gzip_body_of_several_members_is_read_whole(encoding, size):
    """Before: only the first member was read (as httpx reads it), so a relay that gzips each event as
    its own member (RFC 1952: a gzip body is a series of members) read as 'stream ended before
    [DONE]', and a JSON body as 'it breaks off … cut off on the way?', though all of it had come."""
    events = [_chunk("a"), _chunk("b"), b"data: [DONE]\n\n"]
    body = _Pieces(b"".join(gzip.compress(event) for event in events), size)
    client = _client(200, "text/event-stream", body, {"content-encoding": encoding})
    seen = list(client.stream(QUESTION))
    assert [e.text for e in seen if isinstance(e, TextDelta)] == ["a", "b"] and isinstance(seen[-1], StreamDone)
    reply = json.dumps({"choices": [{"message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}]})
    body = _Pieces(gzip.compress(reply[:20].encode()) + gzip.compress(reply[20:].encode()), size)
    assert _client(200, "application/json", body, {"content-encoding": encoding}).chat(QUESTION).message.content == "ok"


def test_bytes_after_the_last_gzip_member_that_start_no_other_are_left_as_httpx_leaves_them():
    steps = list(inflated([gzip.compress(b"ab") + gzip.compress(b"cd"), b"not gzip", b"more"], ["gzip"]))
    assert b"".join(steps) == b"abcd"


def test_members_are_inflated_a_step_at_a_time_too():
    bomb = gzip.compress(b"ok") + gzip.compress(b" " * (8 << 20))
    steps = list(inflated([bomb], ["gzip"]))
    assert max(map(len, steps)) <= STEP and sum(map(len, steps)) == 2 + (8 << 20)


@pytest.mark.parametrize(
    "encoding, left, fix",
    [
        ("br", "br", "; installing the brotli package would let it"),
        ("gzip, br", "br", "; installing the brotli package would let it"),
        ("zstd", "zstd", "; installing the zstandard package would let it"),
        ("compress", "compress", ""),
    ],
)
@pytest.mark.parametrize("stream", [False, True])
def test_an_answer_in_an_encoding_the_client_cannot_undo_says_so(monkeypatch, encoding, left, fix, stream):
    """Before: 'response body is not JSON: '\\x1bZ\\x00 ,…' (the compressed bytes), or 'answered a stream
    request with no server-sent events', each with the hint to check LLM_BASE_URL."""
    monkeypatch.setattr(charset, "BROTLI", None)
    monkeypatch.setattr(charset, "ZSTANDARD", None)
    client = _client(200, "application/json", _Pieces(b"\x1bZ\x00 ,\x99\x88"), {"content-encoding": encoding})
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    assert str(caught.value) == (
        f"the gateway compressed its answer as {left}, which the client did not ask for (it asks for gzip, "
        f"deflate) and cannot undo{fix}; nothing from it was used"
    )
    assert caught.value.hint == (
        "Have the gateway, or the proxy in front of it, send gzip, deflate or no compression when asked for gzip "
        "and deflate (Accept-Encoding), as HTTP has it."
    )
    assert client.exchanges[-1].response_text == f"<compressed as {left}: not read>"


@pytest.mark.parametrize("label", ["utf-8", "none", "text", "identity", "UTF-8, gzip"])
def test_a_content_encoding_that_names_no_compression_is_skipped_as_httpx_skips_it(label):
    """A misconfigured server's `Content-Encoding: utf-8` (or `none`) over a plain body is read, as before."""
    reply = json.dumps({"choices": [{"message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}]})
    data = gzip.compress(reply.encode()) if "gzip" in label else reply.encode()
    client = _client(200, "application/json", _Pieces(data), {"content-encoding": label})
    assert client.chat(QUESTION).message.content == "ok"


@pytest.mark.parametrize("stream", [False, True])
def test_an_answer_declared_in_an_encoding_the_client_cannot_undo_that_is_plain_says_so(monkeypatch, stream):
    """Before: "…cannot undo; installing the brotli package would let it", though the body was plain JSON
    (a proxy that undid the compression and kept the header): no package would have helped."""
    monkeypatch.setattr(charset, "BROTLI", None)
    body = b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}]}'
    client = _client(200, "application/json", _Pieces(body, 9), {"content-encoding": "br"})
    with pytest.raises(BadResponseError) as caught:
        list(client.stream(QUESTION)) if stream else client.chat(QUESTION)
    assert str(caught.value) == (
        "the response body cannot be decoded: the gateway said it was compressed as br (Content-Encoding) but "
        "sent JSON, not compressed; nothing from it was used"
    )
    assert caught.value.hint == NOT_COMPRESSED_HINT
    assert client.exchanges[-1].response_text == "<compressed as br: not read>"


def test_blank_lines_before_the_events_are_read_once_each_not_once_for_every_line_after(monkeypatch):
    """Before: each line asked `any(lines)` of every line read before it, so a stream of blank lines (a
    hostile or broken relay's: 64 MB of them fits under the cap) was quadratic, hours for one reply. The
    items `any` reads in the client are counted (never the time): at most a few for each line."""
    from toolkit.chat import client as client_module

    blanks = 3000
    body = "\n" * blanks + 'data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n'
    read = [0]

    def counting_any(items):
        for item in items:
            read[0] += 1
            if item:
                return True
        return False

    monkeypatch.setattr(client_module, "any", counting_any, raising=False)
    reply = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body.encode())
    client = ChatClient("http://127.0.0.1:9/v1", "k", "m", transport=httpx.MockTransport(lambda request: reply))
    events = list(client.stream(QUESTION))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["hi"] and isinstance(events[-1], StreamDone)
    assert read[0] <= 4 * (blanks + 4)
