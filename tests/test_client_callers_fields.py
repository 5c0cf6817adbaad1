"""A field the caller added (`LoopOptions.request_extra`, a keyword of `chat()`), refused by a gateway: the
error names the field and where it came from, in place of "the gateway rejected the request body; fix it".
Never dropped and sent again (the caller asked for it), unlike the fields the package adds on its own
(`toolkit.chat.added_fields`). The refusals are the gateways' own words: OpenAI's reasoning models refuse
`max_tokens`, Groq takes `n` of 1 only and names an unknown property, Azure's older API versions and a relay
to Gemini do not know `seed` or `parallel_tool_calls`, a FastAPI server forbids extra fields. And
`parallel_tool_calls` goes only with tools (OpenAI's 400 "'parallel_tool_calls' is only allowed when 'tools'
are specified")."""

import http.server
import json

import pytest

from tests.loopback import serving
from toolkit import LoopOptions, run_loop, tool, tools_from
from toolkit.chat.client import ChatClient
from toolkit.errors import CallerError

HINT = (
    "the gateway refuses {!r}, a field this call added (LoopOptions.request_extra, or a keyword of chat() / "
    "stream()): change it, or leave it out for this gateway (not retried)"
)


@tool
def query_order(order_id: str) -> str:
    """Look up an order by its id."""
    return f"order {order_id}: shipped"


def refusing(status, body):
    class Handler(http.server.BaseHTTPRequestHandler):
        seen: list = []

        def log_message(self, *args):
            pass

        def do_POST(self):
            Handler.seen.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _error(message):
    return {"error": {"message": message, "type": "invalid_request_error"}}


CASES = [
    (
        {"max_tokens": 50},
        400,
        _error(
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
        ),
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    ),
    ({"n": 2}, 400, _error("'n' : number must be at most 1"), "'n' : number must be at most 1"),
    (
        {"seed": 7},
        400,
        _error("Unrecognized request argument supplied: seed"),
        "Unrecognized request argument supplied: seed",
    ),
    (
        {"parallel_tool_calls": False},
        400,
        {"error": {"code": 400, "message": 'Unknown name "parallel_tool_calls": Cannot find field.'}},
        'Unknown name "parallel_tool_calls": Cannot find field.',
    ),
    (
        {"metadata": {"run": "7"}},
        400,
        _error("property 'metadata' is unsupported, did you mean 'messages'?"),
        "property 'metadata' is unsupported, did you mean 'messages'?",
    ),
    (
        {"user": "learner-7"},
        422,
        {"detail": [{"type": "extra_forbidden", "loc": ["body", "user"], "msg": "Extra inputs are not permitted"}]},
        "body.user: Extra inputs are not permitted",
    ),
]


@pytest.mark.parametrize(("extra", "status", "body", "said"), CASES, ids=[next(iter(c[0])) for c in CASES])
def test_a_refused_field_of_the_caller_s_is_named_with_where_it_came_from(extra, status, body, said):
    handler = refusing(status, body)
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        with pytest.raises(CallerError) as caught:
            run_loop(client, "Where is order A-1001?", tools=[query_order], options=LoopOptions(request_extra=extra))
    field = next(iter(extra))
    assert str(caught.value) == f"HTTP {status}: {said} — {HINT.format(field)}"
    assert len(handler.seen) == 1 and handler.seen[0][field] == extra[field]  # sent once, as asked


@pytest.mark.parametrize(
    "said",
    ["Invalid 'messages[0].content': string too long.", "The number of tokens is too large (see 'n_ctx')"],
)
def test_a_refusal_naming_no_field_of_the_caller_s_keeps_its_usual_hint(said):
    with serving(refusing(400, _error(said))) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        with pytest.raises(CallerError) as caught:
            client.chat("hi", n=1, seed=3)
    assert "a field this call added" not in str(caught.value)


def test_parallel_tool_calls_goes_only_with_tools():
    client = ChatClient("http://127.0.0.1:9/v1", "sk-quirky-key", "quirky")
    assert "parallel_tool_calls" not in client.build_request("hi", parallel_tool_calls=False, seed=1)
    sent = client.build_request("hi", tools=[t.spec for t in tools_from(query_order)], parallel_tool_calls=False)
    assert sent["parallel_tool_calls"] is False


@pytest.mark.parametrize(
    "said",
    ["The last message must come from the user, not the assistant.", "Each user may send 3 requests a minute."],
)
def test_a_field_s_name_as_a_word_of_a_sentence_is_no_refusal_of_it(said):
    with serving(refusing(400, _error(said))) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        with pytest.raises(CallerError) as caught:
            client.chat("hi", user="learner-7")
    assert "a field this call added" not in str(caught.value)
