"""A gateway that answers a plain request with an event stream (relays that always stream):
`chat()` assembles it under the stream's rules — its text, tool calls and usage; an error event
or a cut stream reads as it would on `stream()`."""

import json

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy, parse_completion
from toolkit.chat.messages import UserMessage
from toolkit.errors import BadResponseError, NotAStreamError, TransientError, TruncatedStreamError


def event(delta, finish=None):
    return "data: " + json.dumps(
        {"id": "c", "model": "m", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    )


CALL = {
    "index": 0,
    "id": "call_1",
    "type": "function",
    "function": {"name": "query_order", "arguments": '{"order_id":'},
}
USAGE = "data: " + json.dumps({"id": "c", "choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 4}})
STREAM = "\n\n".join(
    [
        ": keep-alive",
        event({"role": "assistant", "tool_calls": [CALL]}),
        event({"tool_calls": [{"index": 0, "function": {"arguments": ' "SN1"}'}}]}),
        event({}, "tool_calls"),
        USAGE,
        "data: [DONE]",
    ]
)


def test_an_event_stream_answering_chat_is_assembled():
    response = parse_completion(STREAM)
    call = response.message.tool_calls[0]
    assert (call.id, call.name, call.arguments) == ("call_1", "query_order", '{"order_id": "SN1"}')
    assert (response.finish_reason, response.usage.total_tokens, response.id) == ("tool_calls", 13, "c")


def test_chat_reads_a_gateway_that_always_streams():
    body = "\r\n\r\n".join([event({"content": "Shipped"}), event({"content": "."}, "stop"), "data: [DONE]"])
    answer = httpx.Response(200, headers={"content-type": "text/event-stream"}, text=body)
    client = ChatClient("http://gw.test/v1", "k", "m", transport=httpx.MockTransport(lambda request: answer))
    assert client.chat([UserMessage(content="hi")]).message.content == "Shipped."


@pytest.mark.parametrize(
    "body, error, text",
    [
        (
            event({"content": "Ship"}),
            TruncatedStreamError,
            "stream ended before [DONE]; nothing from it will be executed",
        ),
        (
            'data: {"error": {"message": "no such model"}}',
            BadResponseError,
            "gateway sent an error mid-stream: no such model",
        ),
        (
            'data: {"error": {"message": "overloaded", "code": 503}}',
            TransientError,
            "gateway sent an error mid-stream (code 503, transient): overloaded",
        ),
    ],
)
def test_a_streamed_answer_to_chat_fails_as_the_stream_would(body, error, text):
    with pytest.raises(error) as caught:
        parse_completion(body)
    assert str(caught.value) == text


def test_an_overload_in_a_streamed_answer_to_chat_is_retried():
    answers = [
        httpx.Response(200, text='data: {"error": {"message": "overloaded", "code": 503}}\n\n'),
        httpx.Response(200, text=event({"content": "ok"}, "stop") + "\n\ndata: [DONE]\n\n"),
    ]
    transport = httpx.MockTransport(lambda request: answers.pop(0))
    client = ChatClient("http://gw.test/v1", "k", "m", transport=transport, sleep=lambda s: None, retry=RetryPolicy())
    assert client.chat([UserMessage(content="hi")]).message.content == "ok"


# --- the other way round: a stream request answered with a plain JSON error (a proxy's 200) ------


def stream_client(*answers):
    sent = []

    def gateway(request):
        sent.append(request)
        return answers[len(sent) - 1]

    client = ChatClient(
        "http://gw.test/v1", "k", "m", transport=httpx.MockTransport(gateway), sleep=lambda s: None, retry=RetryPolicy()
    )
    return client, sent


@pytest.mark.parametrize(
    "headers",
    [{"content-type": "application/json"}, {"content-type": "text/event-stream"}, {}],
    ids=["json", "labelled-a-stream", "unlabelled"],
)
def test_a_plain_error_answering_a_stream_says_the_gateways_words(headers):
    answer = httpx.Response(200, headers=headers, content=b'{"error": {"message": "model \'x\' not found"}}')
    client, sent = stream_client(answer)
    with pytest.raises(BadResponseError) as caught:
        list(client.stream([UserMessage(content="hi")]))
    assert str(caught.value) == "gateway answered 200 with an error: model 'x' not found"
    assert len(sent) == 1 and caught.value.hint.startswith("The gateway reported this error itself")


def test_a_plain_overload_answering_a_stream_is_retried():
    overload = httpx.Response(200, json={"error": {"message": "overloaded", "code": 503}})
    answer = httpx.Response(200, headers={"content-type": "text/event-stream"}, text=STREAM)
    client, sent = stream_client(overload, answer)
    done = list(client.stream([UserMessage(content="hi")]))[-1]
    assert done.response.message.tool_calls[0].name == "query_order" and len(sent) == 2


def test_a_plain_overload_that_persists_says_how_often_it_was_sent():
    overload = httpx.Response(200, json={"detail": {"message": "overloaded", "code": "overloaded"}})
    client, sent = stream_client(overload, overload, overload)
    with pytest.raises(TransientError) as caught:
        list(client.stream([UserMessage(content="hi")]))
    assert str(caught.value) == "gateway answered 200 with an error (overloaded, transient): overloaded"
    assert caught.value.attempts == 3 == len(sent)


def test_a_plain_completion_answering_a_stream_is_still_not_a_stream():
    answer = httpx.Response(200, json={"choices": [{"message": {"role": "assistant", "content": "hi"}}]})
    client, _ = stream_client(answer)
    with pytest.raises(NotAStreamError):
        list(client.stream([UserMessage(content="hi")]))


# --- events labelled application/json (some proxies rewrite the content type) ---------------------


class _Cut(httpx.SyncByteStream):
    def __init__(self, content):
        self.content = content

    def __iter__(self):
        yield self.content
        raise httpx.RemoteProtocolError("peer closed connection")


def test_events_labelled_json_are_read_as_the_stream_they_are():
    answer = httpx.Response(200, headers={"content-type": "application/json; charset=utf-8"}, text=STREAM)
    client, _ = stream_client(answer)
    done = list(client.stream([UserMessage(content="hi")]))[-1]
    assert done.response.message.tool_calls[0].arguments == '{"order_id": "SN1"}'
    assert client.exchanges[-1].response_text == "\n".join(STREAM.splitlines())


def test_events_labelled_json_that_break_off_are_a_cut_stream():
    cut = STREAM.split("data: [DONE]")[0].encode()
    answer = httpx.Response(200, headers={"content-type": "application/json"}, stream=_Cut(cut))
    client, _ = stream_client(answer)
    with pytest.raises(TruncatedStreamError) as caught:
        list(client.stream([UserMessage(content="hi")]))
    assert str(caught.value) == (
        "stream ended before [DONE] with tool call(s) query_order unfinished: the connection broke (RemoteProtocolError); "
        "nothing from it will be executed"
    )


def test_json_labelled_json_that_breaks_off_is_still_not_a_stream():
    answer = httpx.Response(200, headers={"content-type": "application/json"}, stream=_Cut(b'{"id": "x", "cho'))
    client, _ = stream_client(answer)
    with pytest.raises(NotAStreamError) as caught:
        list(client.stream([UserMessage(content="hi")]))
    assert caught.value.body == '{"id": "x", "cho<connection broke: RemoteProtocolError>'
