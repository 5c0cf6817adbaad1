"""`toolkit.services.results.TokenStream.close()` while the stream is being read: the "stop" button.

Called inside the reader's own `for` loop, the next step raised a raw `AttributeError: 'NoneType'
object has no attribute 'answer'` (the closed loop ended as if finished, with no result). Called
from another thread while a step ran (a web server's stop handler, while the reader's thread runs
a tool), or by a tool of the turn itself, it raised a raw `ValueError: generator already
executing`, waited for the whole turn to end, and stopped nothing. Now the reader's loop ends
quietly before the next step, the step that was running finishes first (its event is given, its
tool's result kept),
and `close()` returns at once. Waits are bounded: a hang fails the test.
"""

import threading
from typing import Annotated, Protocol

import pytest

from toolkit.chat.messages import to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.gateway.validate import check_request
from toolkit.loop.records import ToolFinished, ToolStarted
from toolkit.services.results import TokenStream
from toolkit.services.service import ai_service, memory_per_id
from toolkit.tools.decorator import MemoryId, tool

LIMIT = 10.0


class Chat(Protocol):
    def stream(self, user: Annotated[str, MemoryId], question: str) -> TokenStream: ...


def kept(memories, memory_id="u1"):
    return [(m.role, m.content) for m in memories(memory_id).messages()]


def next_turn_is_valid(chat, model):
    """The next turn on the same memory runs, and sends a history a strict gateway accepts."""
    assert "".join(chat.stream("u1", "第二个问题").text()) == "第二个回答"
    check_request({"model": "m", "messages": to_openai(model.requests[-1].messages)})


def first_turn(query_order):
    """A service whose model asks for `query_order` once, then answers; its stream of a first question."""
    model = ScriptedModel([call("query_order", orderId="SN1"), "第二个回答"])
    memories = memory_per_id()
    chat = ai_service(Chat, model=model, tools=[query_order], memory=memories)
    return model, memories, chat, chat.stream("u1", "第一个问题")


def test_close_inside_the_reading_loop_ends_the_loop_quietly():
    ran = []

    @tool("查询订单")
    def query_order(orderId: str) -> str:
        ran.append(orderId)
        return "状态：已发货"

    model, memories, chat, stream = first_turn(query_order)
    seen = []
    for event in stream:
        seen.append(type(event).__name__)
        if isinstance(event, ToolStarted):
            stream.close()  # the stop button, pressed in the loop that reads
    assert seen == ["ToolCallDelta", "ToolStarted"]
    assert stream.result is None and ran == [] and len(model.requests) == 1
    assert kept(memories)[1:] == [
        ("assistant", None),
        ("tool", "Not completed: the turn was interrupted by GeneratorExit."),
    ]
    next_turn_is_valid(chat, model)


def read_in_thread(stream):
    """Read `stream` to its end in a new daemon thread; the event kinds it saw (or what it raised)."""
    out: dict = {"events": []}

    def read():
        try:
            for event in stream:
                out["events"].append(type(event).__name__)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            out["error"] = exc

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader, out


def test_close_from_another_thread_while_a_tool_runs_stops_after_that_step():
    running, release = threading.Event(), threading.Event()

    @tool("查询订单")
    def query_order(orderId: str) -> str:
        running.set()
        release.wait(LIMIT)
        return "状态：已发货"

    model, memories, chat, stream = first_turn(query_order)
    reader, out = read_in_thread(stream)
    assert running.wait(LIMIT), "the tool never started"
    closer_out: dict = {}

    def close():
        try:
            stream.close()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            closer_out["error"] = exc

    closer = threading.Thread(target=close, daemon=True)
    closer.start()
    closer.join(LIMIT)
    assert not closer.is_alive(), "close() waited for the running tool"
    assert "error" not in closer_out
    release.set()
    reader.join(LIMIT)
    assert not reader.is_alive(), "the reader did not stop"
    assert "error" not in out and out["events"] == ["ToolCallDelta", "ToolStarted", "ToolFinished"]
    assert stream.result is None and len(model.requests) == 1  # the model is not asked again
    assert kept(memories)[1:] == [("assistant", None), ("tool", "状态：已发货")]  # what ran keeps its result
    next_turn_is_valid(chat, model)


def test_a_tool_that_closes_its_own_stream_stops_it_after_the_tool():
    streams: list[TokenStream] = []

    @tool("取消")
    def cancel(reason: str) -> str:
        streams[0].close()
        return "已取消"

    model = ScriptedModel([call("cancel", reason="用户要求"), "第二个回答"])
    memories = memory_per_id()
    chat = ai_service(Chat, model=model, tools=[cancel], memory=memories)
    streams.append(chat.stream("u1", "第一个问题"))
    events = [event for event in streams[0]]
    assert [type(e) for e in events][-1] is ToolFinished and events[-1].execution.error_kind is None
    assert streams[0].result is None and len(model.requests) == 1
    assert kept(memories)[1:] == [("assistant", None), ("tool", "已取消")]
    next_turn_is_valid(chat, model)


def test_a_stream_closed_while_read_says_so_when_read_again():
    model = ScriptedModel(["一个很长的回答 " * 20])
    stream = ai_service(Chat, model=model, memory=memory_per_id()).stream("u1", "第一个问题")
    for _event in stream:
        stream.close()
    with pytest.raises(Exception) as again:
        list(stream)
    assert str(again.value) == (
        "TokenStream: this stream was stopped (close(), a break or Ctrl-C) and its call has ended. "
        "Fix: call the method that made it again for a new stream"
    )


def test_a_stream_shown_in_a_notebook_says_its_state_and_no_address():
    @tool("查询订单")
    def query_order(orderId: str) -> str:
        return "状态：已发货"

    _, _, chat, stream = first_turn(query_order)
    assert repr(stream) == "TokenStream(not read yet: iterate it, or .text())"
    assert "".join(stream.text()) == "第二个回答"
    assert repr(stream) == "TokenStream(read to its end: the answer is in .result)"
    _, _, chat, stopped = first_turn(query_order)
    for _ in stopped:
        break
    assert repr(stopped) == "TokenStream(stopped before its end)"
