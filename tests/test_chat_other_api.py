"""A model that answers only the Responses API, or does not chat at all, was told to check
LLM_BASE_URL (a 404) or to fix the request body (a 400): neither fixes it."""

import json

import httpx
import pytest
from test_client import Script, make

from toolkit.chat.messages import UserMessage
from toolkit.chat.other_api import NOT_CHAT_HINT, RESPONSES_HINT, not_chat, responses_only
from toolkit.errors import CallerError

OPENAI_RESPONSES = "This model is only supported in v1/responses and not in v1/chat/completions."
RELAY = "Unsupported legacy protocol: /v1/chat/completions is not supported. Please use /v1/responses."
OPENAI_COMPLETION = (
    "This is not a chat model and thus not supported in the v1/chat/completions endpoint. "
    "Did you mean to use v1/completions?"
)
AZURE = (
    "The chatCompletion operation does not work with the specified model, text-embedding-3-small. Please choose "
    "different model and try again. You can learn more about which models can be used with each operation here: "
    "https://go.microsoft.com/fwlink/?linkid=2197993."
)


def _error(message, **more):
    return {"error": {"message": message, "type": "invalid_request_error", "param": "model", "code": None, **more}}


@pytest.mark.parametrize(
    "status, body, said, hint",
    [
        (404, _error(OPENAI_RESPONSES), OPENAI_RESPONSES, RESPONSES_HINT),
        (400, {"error": {"type": "invalid_request_error", "message": RELAY}}, RELAY, RESPONSES_HINT),
        (404, _error(OPENAI_COMPLETION), OPENAI_COMPLETION, NOT_CHAT_HINT),
        (400, {"error": {"code": "OperationNotSupported", "message": AZURE}}, AZURE, NOT_CHAT_HINT),
        (  # through a LiteLLM proxy: the provider's words, then the same hint
            404,
            _error(f"litellm.NotFoundError: OpenAIException - {OPENAI_RESPONSES}\nReceived Model Group=o1-pro"),
            f"{OPENAI_RESPONSES.rstrip('.')} (OpenAI, through LiteLLM)",
            RESPONSES_HINT,
        ),
    ],
)
def test_a_model_that_does_not_speak_chat_completions_is_said_with_the_fix(status, body, said, hint):
    script = Script(httpx.Response(status, json=body))
    client, sleeps = make(script)
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")])
    assert len(script.requests) == 1 and sleeps == []
    assert str(caught.value) == f"HTTP {status}: {said} — {hint}"
    assert "sk-secret" not in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "text, only, chat",
    [
        (OPENAI_RESPONSES, True, False),
        (RELAY, True, False),
        ("o3-pro is only available via the Responses API.", True, False),
        ("Please use the Responses API instead.", True, False),
        (OPENAI_COMPLETION, False, True),
        (AZURE, False, True),
        ("The model `gpt-5-chat` does not exist or you do not have access to it.", False, False),
        ("Unrecognized request argument supplied: responses", False, False),
        ("the chat model answered nothing", False, False),
    ],
)
def test_what_says_the_model_does_not_speak_chat_completions(text, only, chat):
    assert (responses_only(text), not_chat(text)) == (only, chat)


def test_the_probe_says_the_fix_rather_than_a_bare_404():
    from toolkit.course.probe import classify

    verdict, reason = classify(404, json.dumps(_error(OPENAI_RESPONSES)), model="o1-pro")
    assert (verdict, reason) == (None, f"HTTP 404: {OPENAI_RESPONSES} — {RESPONSES_HINT}")
