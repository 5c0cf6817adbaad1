"""Mistral's own `finish_reason` "model_length" (its API's FinishReason: stop, length, model_length, error,
tool_calls): the conversation and the reply filled the model's context window, not `max_tokens`. Before, a
call cut so read "expected a JSON object … Fix the arguments" (the model blamed, as for any bad arguments),
an empty reply so "the model said nothing", and the live cell printed a cut answer as whole. Now each is told
as cut by the model's context window (`toolkit.loop.cut_off.CUT_BY`), with the fix: shorten the conversation."""

import json

import pytest

from tests.loopback import serving
from toolkit import ChatClient, run_loop, tool
from toolkit.chat.client import parse_completion
from toolkit.errors import ArgumentError, BadResponseError
from toolkit.memory.windows import ChatMemory
from toolkit.views.trace import render_trace_text

CUT = (
    "Invalid arguments for tool 'book':\n"
    '- arguments: got {"item": "Alice Smi, expected a complete JSON object: the reply was cut off here by the '
    'model\'s context window (finish_reason "model_length"), so send shorter arguments\n'
    "Fix the arguments and call book again."
)
HINT = (
    "The conversation and the model's reply filled the model's context window (finish_reason \"model_length\") "
    "inside this call's arguments, and the call did not run: shorten the conversation (a smaller memory window, "
    "shorter tool results)."
)


def mistral(message, stream):
    """A reply as Mistral's API writes it (call ids of 9 letters and digits), streamed or not."""
    if not stream:
        return "application/json", json.dumps(
            {
                "id": "a1b2",
                "object": "chat.completion",
                "model": "mistral-small-latest",
                "choices": [{"index": 0, "message": message, "finish_reason": "model_length"}],
            }
        )
    delta = {"role": "assistant", **message}
    for k, call in enumerate(delta.get("tool_calls") or []):
        call["index"] = k
    chunks = [
        {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "model_length"}]},
    ]
    return "text/event-stream", "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"


def gateway(message):
    import http.server

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            kind, text = mistral(json.loads(json.dumps(message)), bool(body.get("stream")))
            data = text.encode()
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


CALL = {"id": "D681PevKs", "type": "function", "function": {"name": "book", "arguments": '{"item": "Alice Smi'}}


@pytest.mark.parametrize("stream", [False, True])
def test_a_call_cut_off_by_the_context_window_is_blamed_on_the_window_and_does_not_run(stream):
    booked, memory = [], ChatMemory()

    @tool("book an item")
    def book(item: str) -> str:
        booked.append(item)
        return f"booked {item}"

    from toolkit.loop.run import LoopOptions

    with serving(gateway({"content": "", "tool_calls": [CALL]})) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-mistral-key", "mistral-small-latest")
        with pytest.raises(ArgumentError) as caught:
            run_loop(client, "book for Alice Smith", tools=[book], memory=memory, options=LoopOptions(stream=stream))
    assert str(caught.value) == CUT
    assert caught.value.hint == HINT
    assert booked == []


@pytest.mark.parametrize("stream", [False, True])
def test_an_empty_reply_cut_by_the_context_window_names_the_fix(stream):
    with serving(gateway({"content": ""})) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-mistral-key", "mistral-small-latest")
        with pytest.raises(BadResponseError) as caught:
            list(client.stream("hello")) if stream else client.chat("hello")
    assert str(caught.value) == (
        'the model\'s reply is empty (no text, no tool calls, no refusal; finish_reason "model_length"): the '
        "conversation filled the model's context window before any text; shorten it (a smaller memory window, "
        "shorter tool results)"
    )


def test_the_trace_says_what_cut_the_answer():
    from toolkit.chat.scripted import ScriptedModel

    whole = parse_completion(mistral({"role": "assistant", "content": "Your order SN1 is"}, False)[1])
    trace = render_trace_text(run_loop(ScriptedModel([whole]), "where is SN1?"))
    assert "model_length (cut off by the model's context window)" in trace
