"""How a streamed answer's bytes become the event stream's lines: only CR, LF and CRLF end a line,
as the SSE spec says and as OpenAI's SDK reads them (it splits bytes). A JSON string may hold U+2028,
U+2029 or U+0085 unescaped (a gateway that writes `ensure_ascii=False` sends them as they are), and
str.splitlines — which httpx's `iter_lines` follows — would cut the chunk there. Whatever piece
sizes the bytes arrive in (a piece may end inside a UTF-8 character, or between CR and LF)."""

import json

import httpx
import pytest

from toolkit.chat.client import ChatClient, parse_completion
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import sse_lines

QUESTION = [UserMessage(content="where is SN1?")]
TEXT = "line\u2028sep\u2029para\x85next\x0bvt\x0cff\x1cfs 好😀"


def chunk(delta, finish=None):
    body = {"id": "c", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return "data: " + json.dumps(body, ensure_ascii=False)


def body(end):
    lines = [chunk({"role": "assistant", "content": TEXT}), chunk({}, "stop"), "data: [DONE]"]
    return "".join(line + end + end for line in lines).encode()


def streamed(data, size):
    pieces = [data[i : i + size] for i in range(0, len(data), size)]
    answer = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=iter(pieces))
    client = ChatClient("http://gw.test/v1", "k", "m", transport=httpx.MockTransport(lambda request: answer))
    return list(client.stream(QUESTION))[-1].response


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
@pytest.mark.parametrize("size", [1, 2, 7, 10_000])
def test_unicode_line_separators_inside_a_chunk_do_not_end_its_line(end, size):
    assert streamed(body(end), size).message.content == TEXT


def test_a_relay_that_always_streams_keeps_them_too():
    assert parse_completion(body("\r\n").decode()).message.content == TEXT


@pytest.mark.parametrize(
    "pieces, lines",
    [
        (["a\r", "\nb\r", "c\n", "\n"], ["a", "b", "c", ""]),
        (["a\u2028b\x85c\nd"], ["a\u2028b\x85c", "d"]),
        (["", "a", "", "\r\r\n"], ["a", ""]),
        (["x\r"], ["x"]),
        ([], []),
    ],
)
def test_event_lines_split_on_cr_lf_and_crlf_only(pieces, lines):
    assert list(sse_lines(pieces)) == lines
