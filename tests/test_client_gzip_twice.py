"""An answer that is still gzip once its `Content-Encoding` is undone (`toolkit.chat.charset.unwrapped`):
a proxy that gzips what the gateway already gzipped and keeps one `Content-Encoding: gzip`
(drpcorg/nodecore#268: "Standard HTTP clients decompress one layer, get raw gzip bytes instead of
JSON, and fail"; apex/up#278), or a server that gzips with no header at all (apache/trafficcontrol#1737).
Before, the learner read "response body is not JSON: '\\x1f\\ufffd\\x08\\x00…'" (a stream: "the gateway
answered a stream request with no server-sent events (…)") and a hint to check LLM_BASE_URL. Now the
gzip inside is undone too, within the same bound on what the reply inflates to; gzip's first bytes
begin no text, so a plain answer is never taken for it."""

import gzip
import json

import httpx
import pytest
from test_cassette_encodings import ANSWER, QUESTION, STREAM, gateway, record_and_replay, streamed
from test_client_reply_size import LIMIT, TOO_LONG, _client, _Pieces

from tests.loopback import serving
from tests.quirk_gateway import quirky
from toolkit.chat.charset import STEP, inflated
from toolkit.chat.client import ChatClient
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import StreamDone
from toolkit.errors import BadResponseError

QUERY = {
    "type": "function",
    "function": {
        "name": "query_order",
        "description": "Look up an order by its id.",
        "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
    },
}


def gzipped(data: bytes, times: int) -> bytes:
    for _ in range(times):
        data = gzip.compress(data, mtime=0)
    return data


def asked(*quirks, stream=False):
    """What the quirk gateway answers to a question that calls a tool, streamed or not, and the body as the
    client read it."""
    with serving(quirky(*quirks)) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        question = [UserMessage(content="Where is order A-1001?")]
        if stream:
            events = list(client.stream(question, tools=[QUERY]))
            assert isinstance(events[-1], StreamDone)
            reply = events[-1].response
        else:
            reply = client.chat(question, tools=[QUERY])
    return reply, client.exchanges[-1].response_text


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_a_gateway_behind_a_proxy_that_gzips_again_answers_as_without_it(stream):
    reply, read = asked("gzip_twice", stream=stream)
    plain_reply, plain_read = asked(stream=stream)
    assert reply.message.tool_calls and reply.message.tool_calls[0].name == "query_order"
    assert (reply, read) == (plain_reply, plain_read)


@pytest.mark.parametrize("header", ["gzip", "gzip, gzip", None], ids=["said-once", "said-twice", "not-said"])
@pytest.mark.parametrize("piece", [1, 7, 4096])
def test_gzip_inside_whatever_its_header_says_is_read_in_any_pieces(header, piece):
    times = 1 if header is None else 2
    headers = {} if header is None else {"content-encoding": header}
    client = _client(200, "application/json", _Pieces(gzipped(json.dumps(ANSWER).encode(), times), piece), headers)
    assert client.chat(QUESTION).message.content == "Elle arrive, café compris."


def test_a_stream_gzipped_with_no_header_is_read():
    client = _client(200, "text/event-stream", _Pieces(gzipped(STREAM.encode(), 1), 5))
    assert streamed(client).response.message.content == "Elle arrive, café compris."


def test_gzip_more_times_than_a_proxy_would_is_refused_in_one_line():
    client = _client(
        200, "application/json", _Pieces(gzipped(json.dumps(ANSWER).encode(), 4)), {"content-encoding": "gzip"}
    )
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == (
        "the response body cannot be decoded: the body is still gzip after undoing 2 layers of gzip its headers "
        "did not name"
    )


def test_a_gzip_bomb_inside_a_gzip_is_stopped_at_the_bound():
    reply = {"choices": [{"message": {"role": "assistant", "content": "a" * 50 * LIMIT}, "finish_reason": "stop"}]}
    client = _client(
        200, "application/json", _Pieces(gzipped(json.dumps(reply).encode(), 2)), {"content-encoding": "gzip"}
    )
    with pytest.raises(BadResponseError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == TOO_LONG
    steps = list(inflated([gzipped(b" " * (8 << 20), 2)], ["gzip"]))
    assert max(map(len, steps)) <= STEP and sum(map(len, steps)) == 8 << 20


@pytest.mark.parametrize(
    "body",
    [b"", b"\x1f", b"\x1f\x8b", b'{"choices": []}', "\ufeff{}".encode(), b"\x1f\x8b\x09not gzip"],
    ids=["empty", "one-byte", "two-bytes", "json", "bom", "other-method"],
)
def test_what_does_not_begin_as_gzip_is_passed_as_it_came(body):
    assert b"".join(inflated(_Pieces(body, 1), [])) == body


@pytest.mark.parametrize("header", [{"content_encoding": "gzip"}, {}], ids=["said-once", "not-said"])
@pytest.mark.parametrize("ask", ["chat", "stream"])
def test_a_cassette_keeps_the_text_the_client_read_and_replays_it(tmp_path, header, ask):
    text, kind = (json.dumps(ANSWER), "application/json") if ask == "chat" else (STREAM, "text/event-stream")
    inner = gateway(200, gzipped(text.encode(), 1 + len(header)), content_type=kind, **header)
    reader = (lambda client: client.chat(QUESTION)) if ask == "chat" else (lambda client: streamed(client).response)
    (recorded, replayed), line = record_and_replay(tmp_path, inner, reader)
    assert recorded.message.content == "Elle arrive, café compris."
    assert replayed == recorded
    assert line["response"]["body"] == text and "content_encoding" not in line["response"]


def test_the_quirk_gateway_sends_gzip_inside_gzip():
    with serving(quirky("gzip_twice")) as port:
        answer = httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", json={"model": "quirky", "messages": []})
    assert answer.headers["content-encoding"] == "gzip" and answer.content.startswith(b"\x1f\x8b\x08")
