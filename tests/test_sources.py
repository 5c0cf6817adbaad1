"""Perplexity's `search_results` and `citations` (docs.perplexity.ai, "Chat Completions"): the pages the answer's
[1], [2] cite, kept on the reply (plain and streamed) and listed by the response view; they were dropped."""

import json

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy
from toolkit.chat.messages import AssistantMessage, ChatResponse, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.chat.sources import MAX_CHARS, MAX_SOURCES, Source, sources_of
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import run_loop
from toolkit.tools.decorator import tool
from toolkit.views.conversation import source_lines
from toolkit.views.display import show_response

ANSWER = "Mount Everest is 8,849 m high [1][2]."
RESULTS = [
    {"title": "Mount Everest - Wikipedia", "url": "https://en.wikipedia.org/wiki/Mount_Everest", "date": "2026-11-02"},
    {"title": "Everest  height\nremeasured", "url": "https://www.nationalgeographic.com/everest", "date": None},
]
CITATIONS = [result["url"] for result in RESULTS]


def _perplexity(request: httpx.Request) -> httpx.Response:
    streamed = json.loads(request.content).get("stream")
    top = {"id": "p1", "model": "sonar", "citations": CITATIONS, "search_results": RESULTS}
    if not streamed:
        message = {"role": "assistant", "content": ANSWER}
        body = {**top, "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
        return httpx.Response(200, json=body)
    pieces = [ANSWER[:20], ANSWER[20:]]
    chunks = [
        {**top, "choices": [{"index": 0, "delta": {"role": "assistant", "content": piece}, "finish_reason": None}]}
        for piece in pieces
    ]
    chunks[-1]["choices"][0]["finish_reason"] = "stop"
    text = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + "data: [DONE]\n\n"
    return httpx.Response(200, text=text, headers={"content-type": "text/event-stream"})


def _client() -> ChatClient:
    transport = httpx.MockTransport(_perplexity)
    return ChatClient("http://gw.test", "k", "sonar", transport=transport, retry=RetryPolicy(max_retries=0))


EXPECTED = (
    Source(url=CITATIONS[0], title="Mount Everest - Wikipedia", date="2026-11-02"),
    Source(url=CITATIONS[1], title="Everest height remeasured"),
)


def test_perplexitys_sources_are_kept_on_the_reply_plain_and_streamed():
    client = _client()
    assert client.chat([UserMessage(content="How high is Everest?")]).sources == EXPECTED
    done = list(client.stream([UserMessage(content="How high is Everest?")]))[-1]
    assert done.response.message.content == ANSWER
    assert done.response.sources == EXPECTED


@pytest.mark.parametrize("stream", [False, True])
def test_the_loops_result_carries_the_sources_its_answer_cites(stream):
    """Before: `run_loop` on Perplexity kept the sources nowhere: its `LoopResult` gave the answer's [1], [2] and
    no pages (the rounds kept the reply alone). Now each round keeps its reply's, and the result the answer's."""
    result = run_loop(_client(), "How high is Everest?", tools=[height], options=LoopOptions(stream=stream))
    assert (result.answer, result.sources, result.rounds[-1].sources) == (ANSWER, EXPECTED, EXPECTED)


def test_the_sources_are_the_answers_not_an_earlier_rounds():
    """A round that called a tool cited pages of its own; the answer after it cited none: the result has none."""
    calling = AssistantMessage(content="Searching [1].", tool_calls=[call("height", mountain="Everest")])
    scripted = ScriptedModel([ChatResponse(message=calling, sources=EXPECTED[:1]), "8,849 m."])
    result = run_loop(scripted, "How high is Everest?", tools=[height])
    assert result.sources == () and [r.sources for r in result.rounds] == [EXPECTED[:1], ()]


@tool
def height(mountain: str) -> str:
    """The height of a mountain."""
    return "8,849 m"


def test_the_response_view_lists_the_sources_the_answer_cites():
    shown = show_response(_client().chat([UserMessage(content="How high is Everest?")]))
    assert shown.text.splitlines()[-3:] == [
        "sources:",
        "[1] Mount Everest - Wikipedia (2026-11-02) — https://en.wikipedia.org/wiki/Mount_Everest",
        "[2] Everest height remeasured — https://www.nationalgeographic.com/everest",
    ]
    assert "[1] Mount Everest - Wikipedia (2026-11-02)" in shown.html


@pytest.mark.parametrize(
    "data, expected",
    [
        ({"citations": CITATIONS}, tuple(Source(url=url) for url in CITATIONS)),
        ({"search_results": [], "citations": CITATIONS[:1]}, (Source(url=CITATIONS[0]),)),
        ({"search_results": [{"title": "no url"}, 5, {"url": "  "}], "citations": None}, ()),
        ({"citations": ["", 7, None, {"url": "x"}]}, ()),
        ({"citations": "https://one.example"}, ()),
        ({"search_results": [{"url": "u", "title": 3, "date": ["d"]}]}, (Source(url="u"),)),
    ],
)
def test_sources_in_shapes_not_read_here_are_left_out_never_an_error(data, expected):
    assert sources_of(data) == expected


def test_sources_are_bounded():
    many = {"citations": ["https://x.example/" + "a" * (MAX_CHARS * 2)] * (MAX_SOURCES * 3)}
    kept = sources_of(many)
    assert len(kept) == MAX_SOURCES and {len(source.url) for source in kept} == {MAX_CHARS}


def test_a_reply_without_sources_is_unchanged_on_the_wire():
    response = _client().chat([UserMessage(content="hi")])
    assert "sources" in response.model_dump()
    plain = response.model_copy(update={"sources": ()})
    assert "sources" not in plain.model_dump()


def test_a_secret_in_a_sources_url_is_masked_in_the_view():
    lines = source_lines([Source(url="https://maps.example/geo?key=abc123&q=x", title="Map")])
    assert lines == "[1] Map — https://maps.example/geo?key=[REDACTED]&q=x"
