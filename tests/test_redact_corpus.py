"""Issue 14, "Secrets": none of the planted secrets reaches a request sent to the model (default
options and COURSE), the trace view, a cassette or `client.exchanges`."""

import json

import pytest
from secret_corpus import CORPUS, ENVIRONMENT

from toolkit.chat.cassette import RecordingTransport, ReplayTransport
from toolkit.chat.client import ChatClient
from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage, to_openai
from toolkit.chat.scripted import ScriptedModel
from toolkit.gateway.transport import InProcessTransport
from toolkit.loop.records import COURSE, LoopOptions
from toolkit.loop.run import run_loop
from toolkit.tools.decorator import tool
from toolkit.tools.redact import scrub, scrub_json
from toolkit.views.trace import render_trace_html, render_trace_text


@pytest.fixture(autouse=True)
def secret_environment(monkeypatch):
    for name, value in ENVIRONMENT.items():
        monkeypatch.setenv(name, value)


def test_the_corpus_is_large_and_covers_every_kind():
    kinds = {kind for kind, _, _ in CORPUS}
    assert len(CORPUS) >= 60
    assert kinds == {"path", "label", "command", "sql", "environment", "format", "url", "header", "traceback"}


def failing_tool(exc):
    @tool
    def lookup(order_id: str) -> str:
        """Look an order up."""
        raise exc

    return lookup


def wire(model: ScriptedModel) -> str:
    return "\n".join(json.dumps(to_openai(list(r.messages)), ensure_ascii=False) for r in model.requests)


@pytest.mark.parametrize("options", [LoopOptions(), COURSE], ids=["default", "COURSE"])
def test_no_planted_secret_reaches_the_model_or_the_trace(options):
    leaks = []
    for kind, exc, secret in CORPUS:
        model = ScriptedModel([ToolCall(id="c1", name="lookup", arguments='{"order_id": "SN1"}'), "sorry"])
        result = run_loop(model, [UserMessage(content="where is SN1?")], tools=[failing_tool(exc)], options=options)
        sent = wire(model)
        assert "Tool 'lookup' failed" in sent  # the failure did reach the model, as text
        seen = sent + render_trace_text(result) + str(render_trace_html(result))
        if secret in seen:
            leaks.append((kind, secret))
    assert leaks == []


def test_scrub_is_idempotent_on_the_corpus():
    for _, exc, _ in CORPUS:
        once = scrub(str(exc))
        assert scrub(once) == once


def test_scrub_json_masks_strings_and_values_under_secret_names():
    body = {"messages": [{"role": "tool", "content": "DB_PASS=Tr0ub4dor&3"}], "password": "x", "max_tokens": 5}
    assert scrub_json(body) == {
        "messages": [{"role": "tool", "content": "DB_PASS=[REDACTED]"}],
        "password": "[REDACTED]",
        "max_tokens": 5,
    }


def test_cassettes_and_exchanges_hold_no_secret_and_still_replay(tmp_path):
    """A tool that *returns* secrets (nothing sanitises a success) still leaves none on disk or in exchanges."""
    leaked = "\n".join(str(exc) for _, exc, _ in CORPUS)
    messages = [
        UserMessage(content="查一下订单 SN202610200001"),
        AssistantMessage(tool_calls=(ToolCall(id="c1", name="lookup", arguments="{}"),)),
        ToolResultMessage(tool_call_id="c1", tool_name="lookup", content=leaked),
    ]
    cassette = tmp_path / "secrets.jsonl"
    client = ChatClient(
        "http://gateway/v1", "k", "fake-keyword", transport=RecordingTransport(cassette, InProcessTransport())
    )
    answer = client.chat(messages)
    stored = cassette.read_text(encoding="utf-8") + repr(list(client.exchanges))
    assert [secret for _, _, secret in CORPUS if secret in stored] == []
    replay = ChatClient("http://gateway/v1", "k", "fake-keyword", transport=ReplayTransport(cassette))
    replayed = replay.chat(messages)  # the fake gateway echoes the tool result: the recording holds it scrubbed
    assert "/home/alice" in answer.message.content
    assert replayed.message.content == scrub(answer.message.content)
    assert replayed.model_copy(update={"message": answer.message}) == answer


def test_the_trace_view_scrubs_what_a_tool_returned_successfully():
    @tool
    def read_config(name: str) -> str:
        """Read a config value."""
        return "DB_PASS=Tr0ub4dor&3 from /home/alice/shop/.env"

    model = ScriptedModel([ToolCall(id="c1", name="read_config", arguments='{"name": "db"}'), "ok"])
    result = run_loop(model, [UserMessage(content="config?")], tools=[read_config])
    shown = render_trace_text(result) + str(render_trace_html(result))
    assert "Tr0ub4dor" not in shown and "/home/alice" not in shown
    assert "DB_PASS=[REDACTED] from &lt;path&gt;" in shown or "DB_PASS=[REDACTED] from <path>" in shown
