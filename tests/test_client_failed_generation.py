"""A gateway that refuses the tool call the model wrote (Groq's `failed_generation`) reports the
model's failed generation, not a bad request: it is retried as transient on every path (an HTTP
error, a 200 body, a stream), worded as the model's malformed call, and the probe does not read
it as a gateway refusing `tools`.

Groq's tool-use guide, "Error Handling" (console.groq.com/docs/tool-use): "When a model fails to
generate a valid tool call object, Groq API returns a 400 error with an explanation in the
`failed_generation` field of the response body", and its "Retry Strategy for Failed Tool Calls"
sends the same request again. The real body carries `"code": "tool_use_failed"` too
(agno-agi/agno#4090, huggingface/smolagents#1119)."""

import json

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy
from toolkit.chat.messages import UserMessage
from toolkit.course.probe import classify
from toolkit.errors import CallerError, TransientError

QUESTION = [UserMessage(content="where is SN1?")]
GROQ = {
    "error": {
        "message": "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
        "type": "invalid_request_error",
        "code": "tool_use_failed",
        "failed_generation": '<function=query_order{"order_id": "SN1"}</function>',
    }
}
DOCUMENTED = {  # the guide's example body: no `code`, `failed_generation` an object
    "error": {
        "message": "Invalid tool call generated",
        "type": "invalid_request_error",
        "failed_generation": {"reason": "Tool call arguments are not valid JSON", "tool_call_id": "call_abc123"},
    }
}
ANSWER = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Shipped."}, "finish_reason": "stop"}]}
SAID = "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details."


def scripted(*responses, retries=2):
    sent, sleeps = [], []

    def handler(request):
        sent.append(request)
        return responses[min(len(sent), len(responses)) - 1]

    client = ChatClient(
        "http://gw.test/v1",
        "k",
        "m",
        transport=httpx.MockTransport(handler),
        retry=RetryPolicy(max_retries=retries, backoff_s=0.5),
        sleep=sleeps.append,
    )
    return client, sent, sleeps


def test_a_400_for_the_models_malformed_tool_call_is_sent_again():
    client, sent, sleeps = scripted(httpx.Response(400, json=GROQ), httpx.Response(200, json=ANSWER))
    assert client.chat(QUESTION).message.content == "Shipped."
    assert len(sent) == 2 and len(sleeps) == 1


@pytest.mark.parametrize(
    "body, said", [(GROQ, SAID), (DOCUMENTED, "Invalid tool call generated")], ids=["groq", "documented"]
)
def test_once_retries_run_out_it_says_the_model_wrote_a_malformed_tool_call(body, said):
    client, sent, _ = scripted(httpx.Response(400, json=body), retries=0)
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == f"HTTP 400 (the model wrote a malformed tool call, transient): {said}"
    assert caught.value.status == 400 and len(sent) == 1


def test_the_same_error_inside_a_200_body_is_retried_too():
    client, sent, _ = scripted(httpx.Response(200, json=GROQ), httpx.Response(200, json=ANSWER))
    assert client.chat(QUESTION).message.content == "Shipped."
    assert len(sent) == 2


def test_a_stream_whose_first_event_is_that_error_is_sent_again():
    first = "data: " + json.dumps(GROQ) + "\n\n"
    second = 'data: {"choices": [{"index": 0, "delta": {"content": "Shipped."}, "finish_reason": "stop"}]}\n\n'
    sse = {"content-type": "text/event-stream"}
    client, sent, _ = scripted(
        httpx.Response(200, headers=sse, text=first), httpx.Response(200, headers=sse, text=second + "data: [DONE]\n\n")
    )
    assert list(client.stream(QUESTION))[-1].response.message.content == "Shipped."
    assert len(sent) == 2


def test_mid_stream_it_is_worded_as_the_models_malformed_call():
    sse = {"content-type": "text/event-stream"}
    client, _, _ = scripted(httpx.Response(200, headers=sse, text="data: " + json.dumps(GROQ) + "\n\n"), retries=0)
    with pytest.raises(TransientError) as caught:
        list(client.stream(QUESTION))
    assert (
        str(caught.value)
        == f"gateway sent an error mid-stream (the model wrote a malformed tool call, transient): {SAID}"
    )


@pytest.mark.parametrize("body", [GROQ, DOCUMENTED], ids=["groq", "documented"])
def test_the_probe_does_not_read_the_models_malformed_call_as_a_gateway_refusing_tools(body):
    verdict, reason = classify(400, json.dumps(body), model="llama-3.3-70b-versatile")
    said = body["error"]["message"]
    assert (verdict, reason) == (
        None,
        "HTTP 400: the gateway takes tools, but refused the tool call the model wrote (failed_generation); "
        f"run the probe again: {said}",
    )


def test_the_body_is_parsed_only_when_it_can_report_a_failed_generation():
    """Every 4xx is asked whether the model's call was refused; the body is parsed only when it holds
    one of the two names or a `\\u` escape that could spell one (then it is read as JSON reads it)."""
    from toolkit.chat.client import model_call_refused

    assert model_call_refused('{"error": {"code": "tool_use_failed"}}')
    assert model_call_refused('{"error": {"failed\\u005fgeneration": "<function=x>"}}')
    assert not model_call_refused('{"error": {"message": "model not found"}}')
    assert not model_call_refused('{"error": {"failed_generation": ""}}')
    assert not model_call_refused("failed_generation, not JSON")


TGI_PARSE = {
    "error": 'Tool error: Failed to parse generated text: EOF while parsing an object at line 1 column 40 "{\\"function\\"',
    "error_type": "tool_error",
}
TGI_NONE = {"error": "Tool error: No function found in generated text", "error_type": "tool_error"}
TGI_NAME = {"error": "Tool error: Tool with name query_orders not found", "error_type": "tool_error"}


@pytest.mark.parametrize("body", [TGI_PARSE, TGI_NONE], ids=["unparsable", "no-function"])
def test_tgis_422_for_a_generation_it_could_not_read_as_a_call_is_sent_again(body):
    """text-generation-inference's `InferError::ToolError` (a 422, `"error_type": "tool_error"`): the
    text the model generated under the tools grammar did not parse as a call. It was "the request was
    rejected; fix it"; the same request usually passes on a new generation."""
    client, sent, sleeps = scripted(httpx.Response(422, json=body), httpx.Response(200, json=ANSWER))
    assert client.chat(QUESTION).message.content == "Shipped."
    assert len(sent) == 2 and len(sleeps) == 1
    client, sent, _ = scripted(httpx.Response(422, json=body), retries=0)
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).startswith("HTTP 422 (the model wrote a malformed tool call, transient): Tool error: ")


def test_tgis_tool_error_about_the_request_is_not_retried():
    client, sent, _ = scripted(httpx.Response(422, json=TGI_NAME))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert len(sent) == 1 and "Tool with name query_orders not found" in str(caught.value)


def test_tgis_tool_error_in_a_stream_is_sent_again():
    sse = {"content-type": "text/event-stream"}
    second = 'data: {"choices": [{"index": 0, "delta": {"content": "Shipped."}, "finish_reason": "stop"}]}\n\n'
    client, sent, _ = scripted(
        httpx.Response(200, headers=sse, text="data: " + json.dumps(TGI_NONE) + "\n\n"),
        httpx.Response(200, headers=sse, text=second + "data: [DONE]\n\n"),
    )
    assert list(client.stream(QUESTION))[-1].response.message.content == "Shipped."
    assert len(sent) == 2


def test_the_probe_does_not_read_tgis_tool_error_as_a_gateway_refusing_tools():
    verdict, reason = classify(422, json.dumps(TGI_NONE), model="tgi")
    assert verdict is None and reason.startswith("HTTP 422: the gateway takes tools, but refused the tool call")
