"""The probe on replies in shapes other than OpenAI's: a classification (or none), never a
traceback — content as a list of parts, as a number; tool_calls that are not a list, or whose
entries or functions are not objects, or have no name."""

import json

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy
from toolkit.chat.messages import UserMessage
from toolkit.course.live import course_model
from toolkit.course.probe import (
    PROBE_TOOLS,
    QUESTION,
    WRITTEN,
    WRITTEN_CONCLUSION,
    classify,
    invents_status,
    probe,
    report,
)


def reply(**message) -> str:
    return json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", **message}}]}, ensure_ascii=False)


@pytest.mark.parametrize(
    "message, verdict, reason",
    [
        (
            {"content": [{"type": "text", "text": "您的订单已签收。"}]},
            "D",
            "no tool call, and a concrete status for a made-up order: '您的订单已签收。'",
        ),
        (
            {"content": [{"type": "text", "text": "好的，"}, {"type": "text", "text": "我来查。"}]},
            "B",
            "tools accepted, no tool call, a generic reply: '好的，我来查。'",
        ),
        ({"content": 5}, "B", "tools accepted, no tool call, a generic reply: ''"),
        ({"content": {"text": "已签收"}}, "B", "tools accepted, no tool call, a generic reply: ''"),
        ({"tool_calls": {"id": "c1"}}, "E", "tool_calls is not a list: {'id': 'c1'}"),
        (
            {"tool_calls": ["query_order"]},
            "E",
            "tool_calls not in OpenAI's shape: a tool call is not an object: 'query_order'",
        ),
        (
            {"tool_calls": [{"id": "c1", "function": None}]},
            "E",
            "tool_calls not in OpenAI's shape: a tool call's function is not an object: None",
        ),
        (
            {"tool_calls": [{"id": "c1", "function": {"arguments": "{}"}}]},
            "E",
            "tool_calls not in OpenAI's shape: a tool call has no function name: {'arguments': '{}'}",
        ),
    ],
)
def test_a_reply_in_another_shape_is_classified(message, verdict, reason):
    assert classify(200, reply(**message)) == (verdict, reason)


def test_probe_classifies_a_gateway_that_sends_content_parts():
    body = reply(content=[{"type": "text", "text": "Your order is in transit."}])
    transport = httpx.MockTransport(lambda request: httpx.Response(200, text=body))
    client = ChatClient("http://gateway.test/v1", "k", "m", transport=transport, retry=RetryPolicy(max_retries=0))
    assert probe(client).verdict == "D"


def events(*deltas):
    chunks = [{"choices": [{"index": 0, "delta": delta}]} for delta in deltas]
    return "".join(f"data: {json.dumps(c, ensure_ascii=False)}\n\n" for c in chunks) + "data: [DONE]\n\n"


@pytest.mark.parametrize(
    "body, verdict",
    [
        (events({"content": "您的订单已签收。"}), "D"),
        (events({"content": "好的，我来查。"}), "B"),
        (
            events(
                {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "query_order", "arguments": ""}}]},
                {"tool_calls": [{"index": 0, "function": {"arguments": '{"orderId": "SN1"}'}}]},
            ),
            "A",
        ),
        ('data: {"choices": [{"index": 0, "delta": {"content": "cut"}}]}\n\n', None),
    ],
)
def test_a_gateway_that_streams_its_answer_to_the_probe_is_classified_as_the_client_reads_it(body, verdict):
    assert classify(200, body)[0] == verdict


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_arguments_holding_nan_are_not_valid_json(constant):
    """Python's json reads NaN, so `{"orderId": NaN}` was "A: valid JSON arguments"; it is not
    JSON, and the course's validation (and the conversation view) call it invalid."""
    arguments = f'{{"orderId": {constant}}}'
    call = {"id": "c1", "type": "function", "function": {"name": "query_order", "arguments": arguments}}
    assert classify(200, reply(tool_calls=[call])) == (
        "E",
        f"tool_calls with invalid JSON arguments: {arguments!r}",
    )


def test_the_probe_reads_the_choice_the_client_reads():
    """With several choices, the client reads choice 0 by its `index`; the probe read the list's
    first entry, so it called a gateway D (an invented status) whose reply the course reads as a
    tool call."""
    call = {"id": "c1", "type": "function", "function": {"name": "query_order", "arguments": '{"orderId": "SN1"}'}}
    body = json.dumps(
        {
            "choices": [
                {"index": 1, "message": {"role": "assistant", "content": "您的订单已发货。"}},
                {"index": 0, "message": {"role": "assistant", "content": None, "tool_calls": [call]}},
            ]
        }
    )
    assert classify(200, body) == ("A", "tool_calls with valid JSON arguments")
    only_others = json.dumps({"choices": [{"index": 2, "message": {"role": "assistant", "content": "已发货"}}]})
    assert classify(200, only_others) == (None, "HTTP 200 but the body is not a chat completion")


@pytest.mark.parametrize("body", ["[" * 100_000, '{"choices": [{"index": 0, "message": ' + "[" * 100_000 + "}]}"])
def test_a_body_nested_past_the_recursion_limit_is_no_chat_completion(body):
    """It was a RecursionError out of `probe()` (the client's own reading of such a body says it is not JSON)."""
    assert classify(200, body) == (None, "HTTP 200 but the body is not a chat completion")


@pytest.mark.parametrize(
    "content, verdict, reason",
    [
        (
            "<think>订单可能已发货了，但我查不到。</think>\n我需要先查询系统才能告诉您，请稍等。",
            "B",
            "tools accepted, no tool call, a generic reply: '我需要先查询系统才能告诉您，请稍等。'",
        ),
        (
            "嗯，用户在问物流。\n</think>\n您的订单已发货，预计明天送达。",
            "D",
            "no tool call, and a concrete status for a made-up order: '您的订单已发货，预计明天送达。'",
        ),
    ],
)
def test_the_probe_judges_the_reply_not_the_models_reasoning(content, verdict, reason):
    """A reasoning model served without a reasoning parser writes its thinking into `content`:
    a status it weighed there ("可能已发货") made the probe say D, an invented status."""
    assert classify(200, reply(content=content)) == (verdict, reason)
    assert invents_status(content) == (verdict == "D")


HERMES = '<tool_call>\n{"name": "query_order", "arguments": {"orderId": "SN202610200001"}}\n</tool_call>'


@pytest.mark.parametrize(
    "text",
    [
        HERMES,
        '[TOOL_CALLS] [{"name": "query_order", "arguments": {"orderId": "SN202610200001"}}]',
        '{"name": "query_order", "parameters": {"orderId": "SN202610200001"}}',
        "<think>先查订单。</think>" + HERMES,
    ],
    ids=["hermes", "mistral", "llama3", "after-thinking"],
)
def test_a_call_written_as_text_that_the_client_reads_is_a_call_said_as_such(text):
    """A server whose tool-call parser is off leaves the model's call as text in `content`: the probe said B
    (fake support) and the course switched to the prompt-protocol fallback, while `chat()` reads such a call as
    the call it is (`toolkit.chat.text_calls`)."""
    shown = text.split("</think>")[-1].strip()[:80]
    assert classify(200, reply(content=text)) == (
        "A",
        f"tools accepted, and the model wrote its call as text ({shown!r}), which the gateway did not parse into "
        "tool_calls (its tool-call parser is off or does not fit the model); toolkit's chat client reads it as the "
        'call query_order({"orderId": "SN202610200001"})',
    )


@pytest.mark.parametrize(
    "text",
    [
        '好的 {"tool": "query_order", "args": {"orderId": "SN202610200001"}}',  # the prompt protocol's own shape
        '<tool_call>{"name": "query_logistics", "arguments": {"orderId": "SN202610200001"}}</tool_call>',  # not offered
    ],
)
def test_a_call_written_as_text_the_client_does_not_read_is_fake_support_said_so(text):
    assert classify(200, reply(content=text)) == (
        "B",
        f"tools accepted, no tool_calls: the model wrote its call as text in the reply ({text[:80]!r}), which the "
        "gateway did not parse into tool_calls (its tool-call parser is off or does not fit the model), nor does "
        "toolkit's chat client read it as one; the prompt-protocol fallback reads such calls",
    )


def test_the_probe_and_the_chat_client_agree_on_a_gateway_that_writes_calls_as_text():
    body = reply(content=HERMES)
    transport = httpx.MockTransport(lambda request: httpx.Response(200, text=body))
    client = ChatClient("http://gw.test/v1", "k", "m", transport=transport, retry=RetryPolicy(max_retries=0))
    result = probe(client)
    assert (result.verdict, result.written, result.label, result.advice) == ("A", True, WRITTEN[0], WRITTEN[1])
    assert report(result).splitlines()[-3].startswith(f"{WRITTEN_CONCLUSION} (calls written as text: tools accepted")
    answer = client.chat([UserMessage(content=QUESTION)], tools=PROBE_TOOLS)
    assert [(call.name, call.arguments) for call in answer.message.tool_calls] == [
        ("query_order", '{"orderId": "SN202610200001"}')
    ]
    model, why = course_model(client, result)
    assert model is client
    assert why == "Probe verdict A (calls written as text): the course uses native tool calling."


ANSWER = reply(tool_calls=[{"id": "c1", "type": "function", "function": {"name": "query_order", "arguments": "{}"}}])


@pytest.mark.parametrize(
    "body, verdict, reason",
    [
        ("\ufeff" + ANSWER, "A", "tool_calls with valid JSON arguments"),
        (
            json.dumps({"error": {"message": "No endpoints found that support tool use.", "code": 404}}),
            "C",
            "HTTP 200 with an error naming the tools field: No endpoints found that support tool use.",
        ),
        (
            json.dumps({"error": {"message": "Provider returned error", "code": 502}}),
            None,
            "HTTP 200 with an error instead of a reply; run the probe again: Provider returned error",
        ),
        (
            json.dumps(
                {
                    "choices": [
                        {
                            "index": 0,
                            "error": {"message": "upstream overloaded", "code": 502},
                            "finish_reason": "error",
                            "message": {"role": "assistant", "content": ""},
                        }
                    ]
                }
            ),
            None,
            "HTTP 200 with an error instead of a reply; run the probe again: upstream overloaded",
        ),
    ],
    ids=["bom", "error-body-tools", "error-body", "choice-error"],
)
def test_a_200_is_read_as_the_client_reads_it(body, verdict, reason):
    """A body the client reads (one with a byte-order mark) was "not a chat completion" to the probe,
    and course_model then called the gateway unclassifiable; an error a 200 reports (OpenRouter's,
    on the body or on the choice) was "not a chat completion", or a fake support (B) of an empty reply."""
    assert classify(200, body, model="m") == (verdict, reason)
