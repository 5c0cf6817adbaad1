"""How a stream's end is read: a server that never sends `[DONE]` (TGI before 2.2, llama-box,
ik_llama.cpp) but closes properly after the model's `finish_reason` gave a whole reply, tool
calls included; cut before it, or cut by a timeout or a broken connection, it is truncated; a
stream of keep-alive comments that ends is a cut stream, not a web page."""

import json

import httpx
import pytest

from toolkit.chat.client import ChatClient, parse_completion
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import StreamDone, assemble
from toolkit.errors import BadResponseError, TruncatedStreamError

QUESTION = [UserMessage(content="where is SN1?")]
SSE = {"content-type": "text/event-stream"}


def chunk(delta, finish=None):
    return "data: " + json.dumps({"id": "c", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})


TEXT = [chunk({"role": "assistant", "content": "Shipped"}), chunk({"content": " today."}), chunk({}, "stop")]
CALL = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "query_order", "arguments": ""}}
TOOL = [
    chunk({"tool_calls": [CALL]}),
    chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"order_id": '}}]}),
    chunk({"tool_calls": [{"index": 0, "function": {"arguments": '"SN1"}'}}]}),
    chunk({}, "tool_calls"),
]


class _Body(httpx.SyncByteStream):
    """The lines as an event stream, then `error` raised (a cut connection) if given."""

    def __init__(self, lines, error=None):
        self.lines, self.error = lines, error

    def __iter__(self):
        for line in self.lines:
            yield (line + "\n\n").encode()
        if self.error is not None:
            raise self.error


def streamed(lines, error=None):
    answer = httpx.Response(200, headers=SSE, stream=_Body(lines, error))
    client = ChatClient("http://gw.test/v1", "k", "m", transport=httpx.MockTransport(lambda request: answer))
    return list(client.stream(QUESTION))[-1]


def test_a_text_stream_that_closes_after_its_finish_reason_without_done_is_whole():
    done = streamed(TEXT)
    assert isinstance(done, StreamDone)
    assert (done.response.message.content, done.response.finish_reason) == ("Shipped today.", "stop")


def test_tool_calls_that_close_after_their_finish_reason_without_done_are_whole():
    call = streamed(TOOL).response.message.tool_calls[0]
    assert (call.id, call.name, call.arguments) == ("call_1", "query_order", '{"order_id": "SN1"}')


def test_usage_after_the_finish_reason_is_read_when_done_never_comes():
    usage = "data: " + json.dumps({"id": "c", "choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 3}})
    assert streamed([*TEXT, usage]).response.usage.total_tokens == 10


@pytest.mark.parametrize("cut", [1, 2, 3], ids=["after the call's start", "mid-arguments", "after the arguments"])
def test_a_stream_that_closes_before_its_finish_reason_is_still_truncated(cut):
    with pytest.raises(TruncatedStreamError) as caught:
        streamed(TOOL[:cut])
    assert str(caught.value) == (
        "stream ended before [DONE] with tool call(s) query_order unfinished; nothing from it will be executed"
    )


@pytest.mark.parametrize(
    "error, why",
    [
        (httpx.ReadTimeout("timed out"), "the read timed out (ReadTimeout) after 30.0s"),
        (httpx.RemoteProtocolError("peer closed connection"), "the connection broke (RemoteProtocolError)"),
    ],
)
def test_a_stream_cut_after_its_finish_reason_by_a_timeout_or_a_broken_connection_is_truncated(error, why):
    with pytest.raises(TruncatedStreamError) as caught:
        streamed(TOOL, error)
    assert str(caught.value) == (
        f"stream ended before [DONE] with tool call(s) query_order unfinished: {why}; nothing from it will be executed"
    )


def test_assembled_lines_read_the_same():
    assert next(e for e in assemble(TOOL) if isinstance(e, StreamDone)).response.message.tool_calls[0].name == (
        "query_order"
    )
    with pytest.raises(TruncatedStreamError):
        list(assemble(TOOL[:3]))


@pytest.mark.parametrize(
    "lines",
    [
        [": ping", ": ping"],
        [": OPENROUTER PROCESSING"],
        ["event: ping"],
        ["retry: 3000", "id: 1"],
        [": keep-alive", TEXT[0]],
    ],
    ids=["pings", "openrouter", "event", "retry-and-id", "ping-then-a-delta"],
)
def test_a_stream_of_keep_alives_that_ends_is_cut_not_a_web_page(lines):
    with pytest.raises(TruncatedStreamError, match=r"^stream ended before \[DONE\]; nothing from it will be executed$"):
        streamed(lines)


def test_a_web_page_answering_a_stream_is_still_named():
    with pytest.raises(BadResponseError, match="answered a stream request with no server-sent events"):
        streamed(["<html><body>Welcome</body></html>"])


class _Bytes(httpx.SyncByteStream):
    """The body as it came, cut anywhere (mid-line, mid-character), then closed properly."""

    def __init__(self, body: bytes):
        self.body = body

    def __iter__(self):
        yield self.body


def _cut_at_eof(body: bytes):
    answer = httpx.Response(200, headers=SSE, stream=_Bytes(body))
    client = ChatClient("http://gw.test/v1", "k", "m", transport=httpx.MockTransport(lambda request: answer))
    return list(client.stream(QUESTION))


_SMILE = "data: " + json.dumps(
    {"id": "c", "choices": [{"index": 0, "delta": {"content": "Shipped 😀"}, "finish_reason": "stop"}]},
    ensure_ascii=False,
)


@pytest.mark.parametrize(
    "body, unfinished",
    [
        ("\n\n".join(TOOL[:2]).encode() + b"\n\n" + TOOL[2].encode()[:-9], " with tool call(s) query_order unfinished"),
        (_SMILE.encode()[: _SMILE.encode().index("😀".encode()) + 2], ""),
        ("\n\n".join(TEXT).encode() + b"\n\n" + b'data: {"id": "c", "choices": [], "usage": {"prompt_tokens": 7', ""),
    ],
    ids=["mid-arguments", "mid-character", "a usage chunk after the finish_reason"],
)
def test_a_stream_whose_last_chunk_breaks_off_at_its_end_is_truncated(body, unfinished):
    """A server (or a proxy) that closes the connection properly mid-chunk: the last line's JSON
    is cut short, and no [DONE] came. Was a BadResponseError ('stream chunk is not JSON: it breaks
    off…'), which `except TruncatedStreamError` (the week-2 exercise's) did not catch."""
    with pytest.raises(TruncatedStreamError) as caught:
        _cut_at_eof(body)
    assert str(caught.value) == (
        f"stream ended before [DONE]{unfinished}: its last chunk breaks off before its JSON is complete; "
        "nothing from it will be executed"
    )


def test_a_last_chunk_that_is_whole_but_not_json_is_still_a_bad_chunk():
    with pytest.raises(BadResponseError, match=r"^stream chunk is not JSON: 'Shipped'") as caught:
        _cut_at_eof(("\n\n".join(TEXT[:2]) + "\n\ndata: Shipped").encode())
    assert not isinstance(caught.value, TruncatedStreamError)


class _HeldOpen(httpx.SyncByteStream):
    """The lines, then (the connection held open past `[DONE]`) a read timeout, as a relay that never
    ends its body gives after the client's timeout; counts what is read after `[DONE]`."""

    def __init__(self, lines):
        self.lines, self.after_done, self.closed = lines, 0, False

    def __iter__(self):
        for line in self.lines:
            yield (line + "\n\n").encode()
        self.after_done += 1
        raise httpx.ReadTimeout("timed out")

    def close(self):
        self.closed = True


def test_a_stream_is_done_at_done_without_waiting_for_the_body_to_end():
    """Before: after `[DONE]` the body was read on until it ended: a relay that holds the connection open
    made every streamed turn wait the client's whole timeout (30 s) before its StreamDone. OpenAI's SDK
    stops at `[DONE]` and closes the response."""
    body = _HeldOpen([*TEXT, "data: [DONE]"])
    client = ChatClient(
        "http://gw.test/v1",
        "k",
        "m",
        transport=httpx.MockTransport(lambda r: httpx.Response(200, headers=SSE, stream=body)),
    )
    events = list(client.stream(QUESTION))
    assert isinstance(events[-1], StreamDone) and events[-1].response.message.content == "Shipped today."
    assert body.after_done == 0 and body.closed


NULL_WORDS = ["null", "None"]  # the JSON null written as text (DashScope's `"finish_reason": "null"`), Python's None


@pytest.mark.parametrize("null", NULL_WORDS)
def test_a_finish_reason_written_as_the_text_null_does_not_end_a_cut_stream(null):
    cut = [chunk({"role": "assistant", "content": "Shipped"}, null), chunk({"content": " to"}, null)]
    with pytest.raises(TruncatedStreamError) as caught:
        streamed(cut)
    assert str(caught.value) == "stream ended before [DONE]; nothing from it will be executed"


@pytest.mark.parametrize("null", NULL_WORDS)
def test_a_finish_reason_written_as_the_text_null_is_no_reason(null):
    pieces = [chunk({"role": "assistant", "content": "Shipped"}, null), chunk({"content": " today."}, null)]
    assert streamed([*pieces, "data: [DONE]"]).response.finish_reason is None
    assert streamed([*pieces, chunk({}, "stop"), chunk({}, null)]).response.finish_reason == "stop"
    whole = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Shipped"}, "finish_reason": null}]}
    assert parse_completion(json.dumps(whole)).finish_reason is None
