"""An HTTP error is one line with what the gateway said, whatever shape its JSON takes: OpenAI's
`{"error": {"message"}}`, Ollama's `{"error": "…"}`, `{"detail": "…"}` and FastAPI's list of
problems (vLLM, LiteLLM), DashScope's `{"message": …}`; a shape not known here is quoted."""

import json

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy, error_message
from toolkit.chat.messages import UserMessage
from toolkit.course.probe import classify
from toolkit.errors import CallerError, TransientError

FASTAPI_422 = {
    "detail": [
        {"loc": ["body", "messages", 0, "role"], "msg": "field required", "type": "value_error.missing"},
        {"loc": ["body", "tools"], "msg": "extra fields not permitted", "type": "value_error.extra"},
    ]
}


@pytest.mark.parametrize(
    "body, said",
    [
        ({"error": {"message": "Invalid model", "type": "invalid_request_error", "code": None}}, "Invalid model"),
        ({"error": "model 'qwen3' not found, try pulling it first"}, "model 'qwen3' not found, try pulling it first"),
        ({"detail": "Not Found"}, "Not Found"),
        (
            {"message": "<400> InternalError.Algo.InvalidParameter:\n bad", "code": "InvalidParameter"},
            "<400> InternalError.Algo.InvalidParameter: bad",
        ),
        (FASTAPI_422, "body.messages.0.role: field required; body.tools: extra fields not permitted"),
        ({"detail": [{"msg": "no location"}, "not a problem"]}, "no location"),
        ({"error": {"code": "bad_request"}}, '{"error": {"code": "bad_request"}}'),
        ({"error": "   ", "detail": None}, '{"error": " ", "detail": null}'),
        ([1, 2], "[1, 2]"),
    ],
)
def test_what_an_error_body_says(body, said):
    assert error_message(json.dumps(body)) == said


def answering(status, body):
    transport = httpx.MockTransport(lambda request: httpx.Response(status, json=body))
    return ChatClient("http://gw.test/v1", "k", "m", transport=transport, retry=RetryPolicy(max_retries=0))


def test_a_caller_error_says_the_gateways_words_then_the_fix():
    with pytest.raises(CallerError) as caught:
        answering(404, {"detail": "Not Found"}).chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        "HTTP 404: Not Found — check LLM_BASE_URL (it usually ends in /v1) and LLM_MODEL (not retried)"
    )
    assert caught.value.body == '{"detail":"Not Found"}'


def test_a_transient_error_in_ollamas_shape_says_its_words():
    with pytest.raises(TransientError) as caught:
        answering(503, {"error": "server busy, please try again."}).chat([UserMessage(content="hi")])
    assert str(caught.value) == "HTTP 503 (transient): server busy, please try again."


def test_the_probe_quotes_a_fastapi_422_by_its_problems():
    assert classify(422, json.dumps(FASTAPI_422)) == (
        "C",
        "HTTP 422 naming the tools field: body.messages.0.role: field required; body.tools: extra fields not permitted",
    )
