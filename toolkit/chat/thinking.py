"""Thinking written into the answer: the `<think>…</think>` blocks some models put in `content`.

A reasoning model served without a reasoning parser (DeepSeek-R1, QwQ or Qwen3 on Ollama, vLLM
or LM Studio) writes its thinking into the answer text, between `<think>` and `</think>`; a
gateway with a parser sends it apart (`reasoning_content`), and then the text holds none. Code
that *reads* the answer must not read the thinking as the answer: a draft `{…}` or a call the
model quoted there and then decided against is not what it answered. Structured output
(`toolkit.services.structured`), the week-3 text protocol (`toolkit.course.prompt_protocol`) and
the gateway probe (`toolkit.course.probe`) read the answer through `split_thinking`.

`split_thinking(text) -> (thinking, answer)`, reading the tags from left to right:

- a `<think>…</think>` block is thinking, wherever it is; the answer is the text around the
  blocks (pydantic-ai's `split_content_into_text_and_thinking` reads balanced blocks the same
  way, and a test holds the two equal on them);
- a closing tag outside a block ends thinking that began before it: the text since the previous
  tag (or the start) is thinking. DeepSeek-R1's chat template writes the opening `<think>` into
  the prompt, so the answer holds only the closing one (vLLM's DeepSeek-R1 parser reads it so);
- a block never closed, opened where nothing has been answered yet, was cut off while thinking
  (a token limit): the rest is thinking and the answer is empty. Opened after an answer (a
  `"<think>"` inside a JSON value, a sentence about the tag), the tag is text;
- `<thinking>` is read as `<think>` (some models write it), in any case; a tag inside a block
  (`<think>` again) is part of the thinking.

gpt-oss writes Harmony channels (`<|channel|>analysis<|message|>…<|end|><|start|>assistant<|channel|>final
<|message|>…<|return|>`), which a server that does not parse them passes through as text (llama.cpp's
`--reasoning-format none`, early LM Studio and vLLM builds): a text holding a channel header is read by
its messages, the `analysis` channel's as thinking, the `final` channel's as the answer; without a
`final` message the answer is the text with the analysis messages taken out (a message cut off has no
end marker: it runs to the end).

Linear in the text's length, whatever the tags (one regex scan).

Leaves out: the message itself, which keeps its text as the gateway sent it (the conversation,
the views and the trace show what was said); other tag names (`<reasoning>`, `<reflection>`); Harmony
calls to functions (`to=functions.…`), left in the answer's text.
"""

from __future__ import annotations

import re

_TAG = re.compile(r"<(/?)think(?:ing)?>", re.IGNORECASE)


_HARMONY = re.compile(
    r"(?:<\|start\|>assistant)?<\|channel\|>([A-Za-z]{1,40})(?![A-Za-z])[^<]{0,200}+(?:<\|constrain\|>[^<]{0,50})?<\|message\|>"
    r"(.*?)(?:<\|end\|>|<\|return\|>|<\|call\|>|(?=<\|start\|>|<\|channel\|>)|\Z)",
    re.DOTALL,
)
"""A Harmony message: its channel, its text up to its end marker (or the next message, or the end)."""


def split_thinking(text: str) -> tuple[str, str]:
    """`(thinking, answer)` of an answer text: the thinking's pieces joined by newlines, and the
    text around them (see the module docstring). A text without the tags is all answer."""
    if "<" not in text:
        return "", text
    if "<|channel|>" in text:
        harmony = _harmony(text)
        if harmony is not None:
            return harmony
    thoughts: list[str] = []
    answer: list[str] = []
    at, opened = 0, None  # where unread text starts; where the open block's tag starts (None: none open)
    for tag in _TAG.finditer(text):
        closing = bool(tag.group(1))
        if opened is None and not closing:  # a block opens: the text before it is answered
            answer.append(text[at : tag.start()])
            opened = tag.start()
        elif closing:  # a block closes (or thinking the prompt began ends): the text since `at` is thought
            thoughts.append(text[at : tag.start()])
            opened = None
        else:  # a tag inside a block: thinking
            continue
        at = tag.end()
    if opened is not None:  # never closed
        if "".join(answer).strip():  # opened after an answer: the tag is text
            answer.append(text[opened:])
        else:  # cut off while thinking: no answer
            thoughts.append(text[at:])
        return "\n".join(thoughts), "".join(answer)
    answer.append(text[at:])
    return "\n".join(thoughts), "".join(answer)


def _harmony(text: str) -> tuple[str, str] | None:
    """`(thinking, answer)` of a text holding Harmony messages (see the module docstring); None when none."""
    messages = list(_HARMONY.finditer(text))
    if not messages:
        return None
    thoughts = [m.group(2) for m in messages if m.group(1) == "analysis"]
    finals = [m.group(2) for m in messages if m.group(1) == "final"]
    if finals:
        return "\n".join(thoughts), "".join(finals)
    kept, at = [], 0
    for message in messages:
        if message.group(1) == "analysis":
            kept.append(text[at : message.start()])
            at = message.end()
    kept.append(text[at:])
    return "\n".join(thoughts), "".join(kept)
