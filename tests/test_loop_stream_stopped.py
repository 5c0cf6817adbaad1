"""A streamed turn whose reader stops half-way (`break` out of the stream in a notebook cell), through
a real `ChatClient` over an in-process transport: the HTTP response the loop was reading is closed
(not left to the garbage collector with its connection), memory holds no assistant message whose
calls have no results, and the next turn on that memory runs and sends a history a strict gateway
accepts. Pinned where the reader stops: in the reply that asks for tools, in the answer after the
tools ran, and in an `ai_service` stream read through `.text()`.
"""

import json
from typing import Annotated, Protocol

import httpx
import pytest

from toolkit.chat.client import ChatClient
from toolkit.chat.messages import AssistantMessage, ToolResultMessage, UserMessage, to_openai
from toolkit.chat.sse import TextDelta, ToolCallDelta
from toolkit.gateway.validate import check_request
from toolkit.loop.run import LoopOptions, iter_loop
from toolkit.memory.windows import ChatMemory
from toolkit.services.results import TokenStream
from toolkit.services.service import ai_service, memory_per_id
from toolkit.tools.decorator import MemoryId, tool


def chunk(delta: dict, finish: str | None = None) -> dict:
    return {
        "id": "x",
        "object": "chat.completion.chunk",
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def events(*chunks: dict) -> list[bytes]:
    return [f"data: {json.dumps(c)}\n\n".encode() for c in chunks] + [b"data: [DONE]\n\n"]


ASKS = events(
    chunk({"role": "assistant", "content": "Let me look. "}),
    chunk(
        {"tool_calls": [{"index": 0, "id": "c1", "type": "function", "function": {"name": "lookup", "arguments": ""}}]}
    ),
    chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"order": "1"}'}}]}),
    chunk({}, "tool_calls"),
)


def says(*words: str) -> list[bytes]:
    return events(
        chunk({"role": "assistant", "content": ""}), *(chunk({"content": w}) for w in words), chunk({}, "stop")
    )


class Body(httpx.SyncByteStream):
    """A response body that says whether it was closed."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces, self.closed = pieces, False

    def __iter__(self):
        yield from self.pieces

    def close(self) -> None:
        self.closed = True


class Gateway:
    """Streams its replies in order, keeping each response body."""

    def __init__(self, *replies: list[bytes]) -> None:
        self.replies, self.bodies = list(replies), []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = Body(self.replies[len(self.bodies)])
        self.bodies.append(body)
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=body)

    def client(self) -> ChatClient:
        return ChatClient("http://gateway.local/v1", "sk-test", "m", transport=httpx.MockTransport(self))


@tool("look an order up")
def lookup(order: str) -> str:
    return f"order {order}: shipped"


def valid(messages) -> bool:
    check_request({"model": "m", "messages": to_openai(list(messages))})
    return True


def answered_calls(messages) -> bool:
    asked = {c.id for m in messages if isinstance(m, AssistantMessage) for c in m.tool_calls}
    return asked == {m.tool_call_id for m in messages if isinstance(m, ToolResultMessage)}


@pytest.mark.parametrize(
    "stop_at, replies, kept",
    [
        (lambda e: isinstance(e, ToolCallDelta), [ASKS], ["user"]),  # the reply asking for tools, half read
        (  # the answer after the tools ran
            lambda e: isinstance(e, TextDelta) and e.text == "1 ",
            [ASKS, says("Order ", "1 ", "is shipped.")],
            ["user", "assistant", "tool"],
        ),
    ],
    ids=["in_the_tool_call", "in_the_answer"],
)
def test_a_reader_that_breaks_out_of_a_streamed_turn_closes_the_response_and_leaves_memory_valid(
    stop_at, replies, kept
):
    gateway = Gateway(*replies, says("Hello."))
    client, memory = gateway.client(), ChatMemory("u1")
    options = LoopOptions(stream=True)

    def cell():  # the generator is dropped when the cell's loop ends, as in a notebook
        for event in iter_loop(
            client, [UserMessage(content="where is 1?")], tools=[lookup], memory=memory, options=options
        ):
            if stop_at(event):
                break

    cell()
    assert [body.closed for body in gateway.bodies] == [True] * len(gateway.bodies)
    assert [m.role for m in memory.messages()] == kept
    assert answered_calls(memory.messages()) and valid(memory.messages())
    steps = list(iter_loop(client, [UserMessage(content="hi")], memory=memory, options=options))
    assert "".join(e.text for e in steps if isinstance(e, TextDelta)) == "Hello."
    assert gateway.bodies[-1].closed and valid(memory.messages())


class Chat(Protocol):
    def stream(self, user: Annotated[str, MemoryId], question: str) -> TokenStream: ...


def test_a_service_stream_read_by_text_and_left_half_way_closes_the_response():
    gateway = Gateway(ASKS, says("Order ", "1 ", "is shipped."), says("Hello."))
    chat = ai_service(Chat, model=gateway.client(), tools=[lookup], memory=memory_per_id())
    for text in chat.stream("u1", "where is 1?").text():
        if text == "Order ":
            break
    assert [body.closed for body in gateway.bodies] == [True, True]
    assert "".join(chat.stream("u1", "hi").text()) == "Hello."
    assert gateway.bodies[-1].closed
