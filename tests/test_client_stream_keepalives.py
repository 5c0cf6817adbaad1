"""Keep-alives in an event stream that are no chat chunk (`toolkit.chat.sse.CHUNK_EVENTS`): a server
built on sse-starlette before 1.4 (llama-cpp-python's, until its `disable_ping_events`:
abetlen/llama-cpp-python#1256; ztjhz/BetterChatGPT#538) writes, every 15 s of a slow answer, an event
of its own type, `event: ping`, whose data is the time (`2024-03-05 10:00:00.123456`, not JSON), its
lines ending with CRLF. Before, that was "stream chunk is not JSON: more follows its JSON value, from
character 5 of 26: '-03-05 10:00:00.123456'" and the hint blamed LLM_BASE_URL: a slow CPU model lost
every answer. Now such an event is skipped like a `: ping` comment; an event of another type whose
data is a JSON object is still read as a chunk, and data that is no JSON in a chunk's own event (the
default type, `message`) or an `error` event is still said."""

import json

import pytest

from tests.loopback import serving
from tests.quirk_gateway import PING_EVENT, quirky
from toolkit.chat.client import ChatClient
from toolkit.chat.messages import ToolCall, UserMessage
from toolkit.chat.sse import StreamDone, TextDelta, assemble, sse_lines
from toolkit.errors import BadResponseError


def event(delta, finish=None, kind=None):
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    named = f"event: {kind}\n" if kind else ""
    return named + "data: " + json.dumps({"id": "c", "choices": [choice]}, ensure_ascii=False) + "\n\n"


ANSWER = [event({"role": "assistant", "content": "Shipped"}), event({"content": " today."}), event({}, "stop")]


def read(text):
    return list(assemble(sse_lines([text])))


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize(
    "ping",
    [
        PING_EVENT,  # sse-starlette's before 1.4
        "event: ping\ndata: 1714000000\n\n",  # the time as a number: JSON, but no chunk
        "event: keepalive\ndata:\n\n",
        'event: heartbeat\ndata: "alive"\n\n',
    ],
)
def test_a_keep_alive_event_of_its_own_type_is_skipped_wherever_it_comes(ping, end):
    text = ping + ping.join(ANSWER) + ping + "data: [DONE]\n\n" + ping
    assert read(text.replace("\n", end)) == read("".join(ANSWER) + "data: [DONE]\n\n")
    assert [e for e in read(text) if isinstance(e, TextDelta)] == [TextDelta("Shipped"), TextDelta(" today.")]


def test_a_chunk_in_an_event_of_another_type_is_still_read():
    """Some gateways name the events their chunks come in: a JSON object is a chunk whatever the type."""
    call = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    text = event({"tool_calls": [call]}, kind="completion") + event({}, "tool_calls", kind="ping") + "data: [DONE]\n\n"
    response = read(text)[-1].response
    assert (response.message.tool_calls, response.finish_reason) == ((ToolCall(id="call_1", name="f"),), "tool_calls")


@pytest.mark.parametrize("kind", [None, "message"])
def test_data_that_is_no_json_in_a_chunk_s_own_event_is_still_said(kind):
    named = f"event: {kind}\n" if kind else ""
    with pytest.raises(BadResponseError) as info:
        read(ANSWER[0] + named + "data: 2024-03-05 10:00:00.123456\n\n" + "data: [DONE]\n\n")
    assert str(info.value) == (
        "stream chunk is not JSON: more follows its JSON value, from character 5 of 26: '-03-05 10:00:00.123456'"
    )


def test_an_error_event_is_still_said_whatever_its_data():
    with pytest.raises(BadResponseError) as info:
        read(ANSWER[0] + "event: error\ndata: upstream timed out\n\n")
    assert str(info.value) == "gateway sent an error mid-stream: upstream timed out"


def answered(*quirks):
    with serving(quirky(*quirks)) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        events = list(client.stream([UserMessage(content="hello")]))
    return events, client.exchanges[-1].response_text


def test_a_stream_on_a_server_with_ping_events_answers_as_without_them():
    """`tests/quirk_gateway.py`'s `ping_events`: CRLF lines, a ping event before and between chunks."""
    events, raw = answered("ping_events")
    assert raw.count("event: ping") == raw.count("data: {") > 2  # one before every chunk
    assert isinstance(events[-1], StreamDone) and events[-1].response.message.content
    assert events == answered()[0]
