"""A reasoning model's thinking, sent apart from its answer (`reasoning_content`, `reasoning`,
`reasoning_details`, `thinking_blocks`), was kept to go back but never shown: `show_response` and
the conversation view showed the answer alone, and a learner on DeepSeek-R1, Qwen3 or gpt-oss never
saw why the model called what it called. Each now shows it apart, masked and bounded."""

import json

import pytest

from toolkit.chat.client import parse_completion
from toolkit.chat.messages import AssistantMessage, UserMessage
from toolkit.chat.reasoning_fields import reasoning_text
from toolkit.views.conversation import render_conversation_html, render_conversation_text
from toolkit.views.display import show_response

THOUGHT = "The user asks about order 7; query_order answers that."


def _reply(**fields):
    message = {"role": "assistant", "content": "Order 7 shipped.", **fields}
    return parse_completion(json.dumps({"choices": [{"index": 0, "finish_reason": "stop", "message": message}]}))


@pytest.mark.parametrize(
    "fields",
    [
        {"reasoning_content": THOUGHT},  # DeepSeek, llama.cpp, LM Studio, SGLang, older vLLM (gpt-oss too)
        {"reasoning": THOUGHT},  # vLLM since 0.11, Ollama
        {"reasoning_content": THOUGHT, "reasoning": THOUGHT},  # vLLM 0.11-0.15: both, said once
        {"reasoning": THOUGHT, "reasoning_details": [{"type": "reasoning.text", "text": THOUGHT, "format": "x"}]},
        {"reasoning_details": [{"type": "reasoning.summary", "summary": THOUGHT}, {"type": "reasoning.encrypted"}]},
        {"thinking_blocks": [{"type": "thinking", "thinking": THOUGHT, "signature": "c2ln"}, {"type": "redacted"}]},
    ],
)
def test_each_gateways_reasoning_is_shown_apart_from_the_answer(fields):
    reply = _reply(**fields)
    assert reasoning_text(reply.message.extra) == THOUGHT
    shown = show_response(reply)
    assert shown.text.splitlines()[:2] == [f"assistant (thinking): {THOUGHT}", "assistant: Order 7 shipped."]
    assert shown.html.count("query_order answers that.") == 1 and "thinking" in shown.html


def test_a_reply_without_reasoning_is_shown_as_before():
    reply = _reply(reasoning_content="", reasoning_details=[{"type": "reasoning.encrypted", "data": "eA=="}])
    assert reasoning_text(reply.message.extra) == ""
    assert show_response(reply).text.splitlines()[0] == "assistant: Order 7 shipped."
    assert "thinking" not in show_response(reply).html


def test_the_reasoning_shown_is_masked_and_bounded():
    key = "sk-proj-" + "A1b2C3d4" * 6
    long = f"I saw {key} in the prompt. " + "Then I weighed it. " * 2000
    message = AssistantMessage(content="done", extra={"reasoning_content": long})
    text = render_conversation_text([UserMessage(content="hi"), message])
    html = render_conversation_html([UserMessage(content="hi"), message])
    assert key not in text and key not in html
    thinking = text.splitlines()[1]
    assert thinking.startswith("assistant (thinking): I saw ") and len(thinking) < 300
    assert len(html) < len(long) // 4  # the view shows the thinking's start, not 40,000 characters of it


def test_the_trace_shows_each_rounds_thinking_before_its_reply():
    from toolkit.chat.scripted import ScriptedModel
    from toolkit.loop.run import run_loop
    from toolkit.views.trace import render_trace_html, render_trace_text

    thought = AssistantMessage(content="Order 7 shipped.", extra={"reasoning": THOUGHT})
    result = run_loop(ScriptedModel([thought]), "where is order 7?")
    text = render_trace_text(result)
    assert f"  model thinking: {THOUGHT}\n  model: Order 7 shipped." in text
    assert "query_order answers that." in str(render_trace_html(result))
