"""A streamed reply's texts are scrubbed across its chunks before a cassette or `client.exchanges`
keeps them (`toolkit.chat.stream_scrub`): a key the model writes in pieces is recorded in none."""

import json

import httpx
import pytest

from toolkit.chat.cassette import RecordingTransport, ReplayTransport
from toolkit.chat.client import ChatClient
from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.sse import TextDelta, ToolCallDelta, assemble, sse_lines
from toolkit.chat.stream_scrub import HeldEcho, scrub_event_stream
from toolkit.errors import BadResponseError
from toolkit.gateway.transport import InProcessTransport
from toolkit.tools.redact import REDACTED, scrub

KEY = "sk-proj-AbCdEf0123456789xyzQwErTy"


def parts_of(secret: str, text: str) -> list[str]:
    return [secret[i : i + 5] for i in range(len(secret) - 4) if secret[i : i + 5] in text]


def event_stream(*deltas: dict) -> str:
    chunks = [{"choices": [{"index": 0, "delta": delta}]} for delta in deltas]
    lines = [f"data: {json.dumps(c, ensure_ascii=False)}\n\n" for c in chunks]
    return "".join(lines) + 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'


def streamed_text(body: str) -> str:
    return "".join(e.text for e in assemble(sse_lines([body])) if isinstance(e, TextDelta))


def test_a_key_in_two_content_pieces_is_recorded_in_neither():
    text = f"您的密钥是 {KEY} ，请保管好。"
    for at in range(1, len(text)):
        body = event_stream({"content": text[:at]}, {"content": text[at:]})
        scrubbed = scrub_event_stream(body)
        assert parts_of(KEY, scrubbed) == [], at
        assert streamed_text(scrubbed) == f"您的密钥是 {REDACTED} ，请保管好。", at


def test_a_key_in_a_calls_argument_pieces_and_in_reasoning_is_recorded_in_neither():
    arguments = json.dumps({"token": KEY, "note": "x"})
    body = event_stream(
        {"reasoning_content": f"the user gave {KEY[:10]}"},
        {"reasoning_content": f"{KEY[10:]} so"},
        {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "save", "arguments": arguments[:20]}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": arguments[20:]}}]},
    )
    scrubbed = scrub_event_stream(body)
    assert parts_of(KEY, scrubbed) == []
    calls = [e for e in assemble(scrubbed.splitlines()) if isinstance(e, ToolCallDelta)]
    assert json.loads("".join(c.arguments for c in calls)) == {"token": REDACTED, "note": "x"}


def test_a_key_in_two_pieces_of_vllms_reasoning_is_recorded_in_neither():
    """vLLM and Ollama stream their thinking as `reasoning` deltas, kept now to go back: the recording kept
    the key the model wrote there in two pieces, neither of which is a key."""
    body = event_stream({"reasoning": f"the user gave {KEY[:10]}"}, {"reasoning": f"{KEY[10:]} so"}, {"content": "ok"})
    scrubbed = scrub_event_stream(body)
    assert parts_of(KEY, scrubbed) == []
    message = [e for e in assemble(scrubbed.splitlines())][-1].response.message
    assert message.extra == {"reasoning": f"the user gave {REDACTED} so"}


def test_a_stream_without_secrets_is_kept_byte_for_byte():
    body = event_stream({"content": "订单 SN2026"}, {"content": "10200001 已发货"}, {"content": ", ok"})
    assert scrub_event_stream(body) == body
    assert scrub_event_stream("not an event stream") == "not an event stream"


def test_a_recorded_stream_that_echoes_a_key_keeps_no_part_of_it_and_replays_scrubbed(tmp_path):
    """The fake gateway reads the tool result back in its streamed answer, four characters a chunk:
    the cassette and `client.exchanges` kept the key in those pieces."""
    messages = [
        UserMessage(content="查一下订单 SN202610200001"),
        AssistantMessage(tool_calls=(ToolCall(id="c1", name="lookup", arguments="{}"),)),
        ToolResultMessage(tool_call_id="c1", tool_name="lookup", content=f"订单 SN202610200001 的密钥 {KEY} 运输中"),
    ]
    cassette = tmp_path / "stream.jsonl"
    client = ChatClient(
        "http://gateway/v1", "k", "fake-keyword", transport=RecordingTransport(cassette, InProcessTransport())
    )
    answer = "".join(e.text for e in client.stream(messages) if isinstance(e, TextDelta))
    assert KEY in answer  # what the learner's own code receives is the model's text, as it came
    stored = cassette.read_text(encoding="utf-8") + repr(list(client.exchanges))
    assert parts_of(KEY, stored) == []
    replay = ChatClient("http://gateway/v1", "k", "fake-keyword", transport=ReplayTransport(cassette))
    replayed = "".join(e.text for e in replay.stream(messages) if isinstance(e, TextDelta))
    assert replayed == scrub(answer)


def test_a_chunk_nested_past_the_parsers_depth_is_kept_as_it_came():
    """`json.loads` raises RecursionError, not ValueError, on such a line: the recording kept it
    raising out of `stream()`'s `finally`, in place of the assembler's own error."""
    deep = "data: " + "[" * 100_000 + "]" * 100_000 + "\n\n"
    assert scrub_event_stream(deep) == deep
    body = deep + "data: [DONE]\n\n"
    answer = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body.encode())
    client = ChatClient("http://gw.test/v1", "k", "m", transport=httpx.MockTransport(lambda request: answer))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream([UserMessage(content="hi")]))
    assert str(caught.value).startswith("stream chunk cannot be read as JSON (it nests too deeply): '[[[[")
    assert client.exchanges[-1].response_text.startswith("data: [[[[")


def test_a_key_in_a_piece_that_holds_a_unicode_line_separator_is_recorded_in_no_part():
    """Only CR, LF and CRLF end an event stream's line (`toolkit.chat.sse.sse_lines`): a chunk
    whose text holds U+2028 is one chunk, and its piece of a key is scrubbed with the rest."""
    text = f"第一行\u2028密钥 {KEY} 第二行\x85完"
    at = text.index(KEY) + 7
    body = event_stream({"content": text[:at]}, {"content": text[at:]})
    scrubbed = scrub_event_stream(body)
    assert parts_of(KEY, scrubbed) == []
    assert streamed_text(scrubbed) == f"第一行\u2028密钥 {REDACTED} 第二行\x85完"


def test_held_echo_gives_out_what_turned_out_to_be_no_secret_in_order():
    """A piece ending with a secret's start is held; the next piece shows it is no secret (or the
    stream ends, or a tool call's piece comes), and the held text is given out before what follows,
    nothing lost or reordered."""
    secret = "sk-MARKER-not-a-real-key-0001"
    echo = HeldEcho([secret])
    assert echo.feed(TextDelta("ask sk-MARK")) == [TextDelta("ask ")]
    assert echo.feed(TextDelta("ed words, s")) == [TextDelta("sk-MARKed words, ")]
    call = ToolCallDelta(0, "c1", "f", f'{{"k": "{secret}"}}')
    assert echo.feed(call) == [TextDelta("s"), ToolCallDelta(0, "c1", "f", '{"k": "***0001"}')]
    assert echo.feed(TextDelta("s")) == []
    assert echo.flush() == [TextDelta("s")] and echo.flush() == []
    assert HeldEcho([]).feed(TextDelta(f"no secrets: {secret}")) == [TextDelta(f"no secrets: {secret}")]


def test_the_clients_own_key_in_two_pieces_is_recorded_in_neither(tmp_path):
    """A key of no known format (a local gateway's) that the gateway streamed back in two chunks was
    masked only where it stood whole: the exchange and the cassette held both pieces. Each
    streamed text holds a piece's end that may start one of the request's secrets until the next
    piece shows (`scrub_event_stream(text, secrets)`), as the client does for what it yields."""
    key = "gwkey-local-0123456789abcdefXYZ"
    text = f"your key {key} ok"
    for at in range(1, len(text)):
        body = event_stream({"content": text[:at]}, {"content": text[at:]})
        scrubbed = scrub_event_stream(body, [key])
        assert parts_of(key, scrubbed) == [], at
        assert streamed_text(scrubbed) == "your key ***fXYZ ok", at
    body = event_stream({"content": text[:15]}, {"content": text[15:]})
    path = tmp_path / "cassette.jsonl"
    answer = httpx.MockTransport(
        lambda request: httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})
    )
    client = ChatClient("http://gw.test/v1", key, "m", transport=RecordingTransport(path, answer))
    list(client.stream([UserMessage(content="hi")]))
    recorded = json.loads(path.read_text())["response"]["body"]
    for kept in (client.exchanges[-1].response_text, recorded):
        assert parts_of(key, kept) == [] and streamed_text(kept) == "your key ***fXYZ ok"
