"""A model's chat template refusing the conversation's roles (Gemma's, Mistral's, Llama 2's) on llama.cpp, vLLM
and TGI: it was a 500 retried twice, then `HTTP 500 (transient): ------------ While executing CallExpression at
line 19, column 27 in source: ...% 2 == 0) -%}↵ {{ raise_exception(…`, the template's source and no fix."""

import json

import httpx
import pytest
from test_client import Script, make

from toolkit.chat.chat_template import TEMPLATE_HINT, refused_roles
from toolkit.chat.messages import UserMessage
from toolkit.errors import CallerError

GEMMA = "Conversation roles must alternate user/assistant/user/assistant/..."
MISTRAL = (
    "After the optional system message, conversation roles must alternate user and assistant roles except for "
    "tool calls and results."
)
LLAMACPP = (  # llama.cpp's 500: the template's source around the failing line, then the exception's words
    "\n------------\nWhile executing CallExpression at line 19, column 27 in source:\n...% 2 == 0) -%}\u21b5        "
    '{{ raise_exception("Conversation roles must alternate user...\n                                           ^\n'
    f"Error: Jinja Exception: {GEMMA}"
)


@pytest.mark.parametrize(
    "status, body, words",
    [
        (500, {"error": {"code": 500, "message": LLAMACPP, "type": "server_error"}}, GEMMA),
        (400, {"object": "error", "message": MISTRAL, "type": "BadRequestError", "param": None, "code": 400}, MISTRAL),
        (
            422,
            {"error": "Template error: System role not supported", "error_type": "template_error"},
            "System role not supported",
        ),
    ],
    ids=["llama.cpp", "vllm", "tgi"],
)
def test_a_chat_template_refusing_the_roles_says_its_words_and_the_fix_not_retried(status, body, words):
    script = Script(httpx.Response(status, json=body))
    client, sleeps = make(script)
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")])
    assert len(script.requests) == 1 and sleeps == []
    assert str(caught.value) == (
        f"HTTP {status}: the model's chat template refused the conversation: {words} — {TEMPLATE_HINT}"
    )


@pytest.mark.parametrize(
    "text, words",
    [
        (" ".join(LLAMACPP.split()), GEMMA),
        ("Only user and assistant roles are supported!", "Only user and assistant roles are supported!"),
        (  # LM Studio's 400
            'Error rendering prompt with jinja template: "Conversation roles must alternate user/assistant/user/assistant/...".',
            GEMMA,
        ),
        ("Template error: template not found", None),  # not about the roles: passed on as it is
        ("jinja2.exceptions.UndefinedError: 'dict object' has no attribute 'x'", None),
        ("Internal Server Error", None),
    ],
)
def test_what_says_the_template_refused_the_roles(text, words):
    assert refused_roles(text) == words


def test_a_chat_template_refusal_inside_a_stream_is_said_the_same_not_retried():
    """LocalAI streams it as an error event coded `server_error`: it was retried three times, and its message
    cut at 200 characters before the template's words."""
    message = f"rpc error: code = InvalidArgument desc = {LLAMACPP.replace(GEMMA, MISTRAL)}"
    event = {"error": {"code": "server_error", "message": message, "type": "server_error"}}
    stream = f"data: {json.dumps(event)}\n\ndata: [DONE]\n\n"
    script = Script(httpx.Response(200, text=stream, headers={"content-type": "text/event-stream"}))
    client, _ = make(script)
    with pytest.raises(CallerError) as caught:
        list(client.stream([UserMessage(content="hi")]))
    assert len(script.requests) == 1
    assert str(caught.value) == (
        f"gateway sent an error mid-stream: the model's chat template refused the conversation: {MISTRAL} — "
        f"{TEMPLATE_HINT}"
    )
