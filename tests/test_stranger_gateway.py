"""The course on a gateway that is not ours: `tests/stranger_gateway.py` answers like real
providers do (other id formats, text with calls, parallel calls, usage missing or with extra
fields, `finish_reason: length`, English to a Chinese prompt, `\\u`-escaped arguments, a
usage-only last stream chunk) and every notebook must still run top to bottom on it.

Covers: the stream assembler on a server that reuses one id and `index: 0` for every call; the
live sections' run lines on escaped arguments; week 1's usage table when usage is missing; and
every notebook executed on the stranger gateway (one kernel, ~25 s: opt-in like the quirk sets,
`TOOLKIT_MATRIX_TEST=1`; CI runs it with them).
"""

import json
import os
import re
from typing import Annotated, Literal

import pytest

from tests.notebook_runs import run_every_notebook
from tests.stranger_gateway import StrangerGateway
from toolkit.chat.client import ChatClient
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import StreamAssembler, StreamDone
from toolkit.course import live
from toolkit.tools.decorator import Param, tool
from toolkit.unicode import unescaped

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
TIME = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "local time for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


@tool("退换货政策")
def refund_policy(category: Annotated[Literal["服装", "数码"], Param("商品类别")]) -> str:
    return f"{category}：七天无理由退换"


def client_for(gateway: StrangerGateway) -> ChatClient:
    env = gateway.env
    return ChatClient(env["LLM_BASE_URL"], env["LLM_API_KEY"], env["LLM_MODEL"])


# --- the stream assembler: one id and one index for every parallel call --------------------


def test_parallel_calls_streamed_under_one_id_and_index_stay_two_calls():
    with StrangerGateway(one_slot=True) as gateway:
        client = client_for(gateway)
        question = [UserMessage(content="the weather and the time in Paris")]
        whole = client.chat(question, tools=[WEATHER, TIME]).message.tool_calls
        done = [e for e in client.stream(question, tools=[WEATHER, TIME]) if isinstance(e, StreamDone)]
    streamed = done[0].response.message.tool_calls
    assert [(c.id, c.name) for c in whole] == [("call_0", "get_weather"), ("call_0", "get_time")]
    assert [(c.id, c.name, json.loads(c.arguments)) for c in streamed] == [
        ("call_0", "get_weather", {"city": "City"}),
        ("call_0", "get_time", {"city": "City"}),
    ]
    # and the rule splits nothing else: the name and id repeated on every fragment of one call
    assembler = StreamAssembler()
    for fragment in ('{"city": ', '"Paris"}', ""):
        piece = {"index": 0, "id": "call_0", "function": {"name": "get_weather", "arguments": fragment}}
        assembler.feed_chunk({"choices": [{"index": 0, "delta": {"tool_calls": [piece]}}]})
    assembler.feed_chunk({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    calls = assembler.finish().message.tool_calls
    assert [(c.name, c.arguments) for c in calls] == [("get_weather", '{"city": "Paris"}')]


# --- the live sections' run lines: arguments a learner can read ------------------------------


def test_run_lines_show_escaped_arguments_as_their_characters():
    from toolkit.loop.run import COURSE, run_loop

    with StrangerGateway() as gateway:
        result = run_loop(
            client_for(gateway), [UserMessage(content="refund policy?")], tools=[refund_policy], options=COURSE
        )
    sent = result.rounds[0].reply.tool_calls[0].arguments
    assert sent == '{"category": "\\u670d\\u88c5"}'  # as the gateway sent it: kept in the record
    assert live.run_lines(result)[1] == '→ refund_policy({"category": "服装"}) → 服装：七天无理由退换'


def test_run_lines_say_when_the_gateway_cut_the_answer_off():
    from toolkit.loop.run import COURSE, run_loop

    with StrangerGateway() as gateway:
        client = client_for(gateway)
        cut = run_loop(client, [UserMessage(content="你好，你能帮我做什么？")], options=COURSE)
        whole = run_loop(client, [UserMessage(content="refund policy?")], tools=[refund_policy], options=COURSE)
    assert cut.rounds[-1].finish_reason == "length"
    assert live.run_lines(cut)[-1] == (
        'note: the answer is cut off (finish_reason "length": the model reached its token limit); '
        "raise max_tokens, or ask for a shorter answer"
    )
    assert whole.rounds[-1].finish_reason == "stop"
    assert live.run_lines(whole)[-1] == "answer: Here is what the tools said: 服装：七天无理由退换."


# --- the probe: one reply without a tool call is one sample ---------------------------------


def test_course_model_probes_again_when_the_model_skipped_its_tool_once():
    from toolkit.chat.switch import fake_client
    from toolkit.course.prompt_protocol import PromptProtocol

    with StrangerGateway() as gateway:
        gateway.policy.requests = 4  # request 5 is one this model answers without its tools
        client = client_for(gateway)
        model, route = live.course_model(client)
        sent = len(client.exchanges)
    assert model is client
    assert route == (
        "Probe verdict A (real support) on try 2 of 3 (the first reply had no tool call: this model sometimes "
        "answers without its tools): the course uses native tool calling."
    )
    assert sent == 2
    never = fake_client(mode="B")  # a gateway that drops `tools` every time still gets the fallback
    model, route = live.course_model(never)
    assert isinstance(model, PromptProtocol)
    assert route.startswith("Probe verdict B (fake support): the course switched to the prompt-protocol fallback")
    assert len(never.exchanges) == 3


# --- record on the stranger gateway, replay offline ------------------------------------------


@pytest.mark.parametrize("stream", [False, True])
def test_a_recorded_run_with_escaped_arguments_replays(tmp_path, stream):
    from toolkit.chat.switch import connect
    from toolkit.loop.run import COURSE, LoopOptions, run_loop

    cassette = tmp_path / "session.jsonl"
    options = LoopOptions(stream=True) if stream else COURSE
    question = [UserMessage(content="refund policy? my file is C:\\Users\\bob\\order.txt")]
    with StrangerGateway() as gateway:
        live_run = run_loop(
            connect(env={**gateway.env, "LLM_RECORD": str(cassette)}), question, tools=[refund_policy], options=options
        )
    replayed = run_loop(connect(env={"LLM_REPLAY": str(cassette)}), question, tools=[refund_policy], options=options)
    assert [e.call.arguments for e in replayed.executions] == ['{"category": "\\u670d\\u88c5"}']
    assert replayed.answer == live_run.answer == "Here is what the tools said: 服装：七天无理由退换."
    recorded = cassette.read_text(encoding="utf-8")
    assert "C:\\\\Users" not in recorded and "bob" not in recorded  # the path in the question is still scrubbed


# --- gateway errors: a 400 about the history is not "no tools" ------------------------------


HISTORY_ERRORS = [
    "HTTP 400: An assistant message with 'tool_calls' must be followed by tool messages responding to each "
    "'tool_call_id'. The following tool_call_ids did not have response messages: call_0_2",
    "HTTP 400: Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
    "'tool_calls'.",
    "HTTP 400: Tool call id has to be 9 alphanumeric characters: call_0_2",  # Mistral-style
    "HTTP 422: messages[3].tool_call_id: Field required",
]
NO_TOOLS_ERRORS = [  # these still point to the fallback
    "HTTP 400: registry.ollama.ai/library/gemma:2b does not support tools",
    "HTTP 400: tool calling is not supported with this model",
    'HTTP 400: "auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
]


def test_a_rejected_history_is_not_called_a_rejected_tools_field():
    from toolkit.errors import CallerError

    for message in HISTORY_ERRORS:
        assert live.explain(CallerError(message, status=int(message[5:8]))) == (
            f"The gateway refused the conversation's tool-call messages ({message}): it takes tools, but has its "
            "own rules for the history (the form of a call id, which message may follow which). Not a reason "
            "for the prompt-protocol fallback: start the conversation again, and report it if it repeats."
        ), message
    for message in NO_TOOLS_ERRORS:
        assert live.explain(CallerError(message, status=400)) == (
            f"The gateway rejects the `tools` field ({message}). This cell needs native tool calling; "
            "week 3's prompt-protocol fallback works on such a gateway."
        ), message


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ('{"a":"\\u670d\\u88c5"}', '{"a":"服装"}'),
        ('{"a": "\\ud83d\\ude00"}', '{"a": "😀"}'),  # a surrogate pair: one emoji
        ('{"a":"\\ud83d x"}', '{"a":"\\ud83d x"}'),  # a lone surrogate stays an escape
        ('{"a":"\\u0022\\u005c\\u000a"}', '{"a":"\\u0022\\u005c\\u000a"}'),  # quote, backslash, newline
        ('{"a":"\\\\u670d"}', '{"a":"\\\\u670d"}'),  # an escaped backslash, then the letters u670d
        ('{"a":"\\\\\\u670d"}', '{"a":"\\\\服"}'),  # an escaped backslash, then an escape
        ('{"orderId":"SN202610200001"}', '{"orderId":"SN202610200001"}'),  # untouched, spacing kept
        ("not json \\u00e9", "not json é"),
    ],
)
def test_unescaped_writes_printable_escapes_only(raw, shown):
    assert unescaped(raw) == shown


# --- every notebook on the stranger gateway --------------------------------------------------


@pytest.mark.matrix
@pytest.mark.skipif(
    os.environ.get("TOOLKIT_MATRIX_TEST") != "1",
    reason="about 25 s: set TOOLKIT_MATRIX_TEST=1 (CI runs it with the quirk sets)",
)
def test_every_notebook_runs_to_the_end_on_a_stranger_gateway():
    with StrangerGateway() as gateway:

        def same_order() -> None:  # each notebook meets the gateway's quirks in the same order
            gateway.policy.requests = 0

        failures, printed = run_every_notebook(gateway.env, same_order)
    assert failures == []
    table = next(text for (name, _), text in printed.items() if name.startswith("01") and "over two calls" in text)
    assert "null" not in table
    assert re.search(r"both \(usage \+ usage\) +not reported +not reported +not reported", table), table
