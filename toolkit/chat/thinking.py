"""Thinking written into the answer: the `<think>…</think>` blocks some models put in `content`.

A reasoning model served without a reasoning parser (DeepSeek-R1 or Qwen3 on Ollama, vLLM or LM
Studio) writes its thinking into the answer text, between `<think>` and `</think>`; a gateway with
a parser sends it apart (`reasoning_content`), and then the text holds none. Code that *reads*
the answer (structured output, `toolkit.services.structured`) must not read the thinking as the
answer: a draft `{…}` in it is not the answer's JSON.

`split_thinking(text) -> (thinking, answer)`:

- every `<think>…</think>` block is thinking, wherever it is (pydantic-ai's rule for the same tags,
  `split_content_into_text_and_thinking`); the answer is the text around the blocks;
- a `</think>` before any `<think>`: the text before it is thinking (DeepSeek-R1's chat template
  writes the opening `<think>` into the prompt, so the answer holds only the closing one; vLLM's
  DeepSeek-R1 reasoning parser reads it so);
- a `<think>` never closed (the answer was cut off while thinking): the text after it is the
  answer, the tag dropped (pydantic-ai's choice: nothing is lost).

The tags are matched exactly, as written (lower case), as the peers match them.

Leaves out: the message itself, which keeps its text as the gateway sent it (the conversation,
the views and the trace show what was said); other tag names (`<thinking>`, `<reasoning>`).
"""

from __future__ import annotations

OPEN = "<think>"
CLOSE = "</think>"


def split_thinking(text: str) -> tuple[str, str]:
    """`(thinking, answer)` of an answer text: the `<think>` blocks' text (joined by newlines) and
    the text around them (see the module docstring). A text without the tags is all answer."""
    if CLOSE not in text and OPEN not in text:
        return "", text
    thoughts: list[str] = []
    closing, opening = text.find(CLOSE), text.find(OPEN)
    if closing >= 0 and (opening < 0 or closing < opening):  # the opening tag was in the prompt
        thoughts.append(text[:closing])
        text = text[closing + len(CLOSE) :]
    answer: list[str] = []
    start = text.find(OPEN)
    while start >= 0:
        answer.append(text[:start])
        end = text.find(CLOSE, start + len(OPEN))
        if end < 0:  # never closed: the rest is the answer, the tag dropped
            text = text[start + len(OPEN) :]
            break
        thoughts.append(text[start + len(OPEN) : end])
        text = text[end + len(CLOSE) :]
        start = text.find(OPEN)
    answer.append(text)
    return "\n".join(thoughts), "".join(answer)
