"""`split_thinking`: a reasoning model's `<think>` blocks apart from its answer, as pydantic-ai and
vLLM's DeepSeek-R1 parser read them."""

import random

import pytest

from toolkit.chat.thinking import split_thinking


@pytest.mark.parametrize(
    "text, thinking, answer",
    [
        ("plain answer", "", "plain answer"),
        ("", "", ""),
        ("<think>step 1</think>The answer.", "step 1", "The answer."),
        ('<think>\nI should call {x}\n</think>\n\n{"a": 1}', "\nI should call {x}\n", '\n\n{"a": 1}'),
        ("Before <think>a</think> middle <think>b</think> after", "a\nb", "Before  middle  after"),
        ('I considered it.</think>{"a": 1}', "I considered it.", '{"a": 1}'),  # the <think> was in the prompt
        ("thought</think>text <think>more</think>end", "thought\nmore", "text end"),
        ("<think>cut off while thinking", "", "cut off while thinking"),  # never closed: the tag dropped
        ("<think></think>", "", ""),
        ("<THINK>upper</THINK> stays", "", "<THINK>upper</THINK> stays"),  # matched as written, as the peers do
        ("a </think> b </think> c", "a ", " b </think> c"),  # only the first closing tag has no opening one
    ],
)
def test_thinking_and_answer(text, thinking, answer):
    assert split_thinking(text) == (thinking, answer)


def pydantic_ai_split(content: str) -> tuple[str, str]:
    """pydantic-ai's `split_content_into_text_and_thinking`, as (thinking joined, text joined)."""
    thoughts, texts = [], []
    start = content.find("<think>")
    while start >= 0:
        before, content = content[:start], content[start + len("<think>") :]
        if before:
            texts.append(before)
        end = content.find("</think>")
        if end >= 0:
            thoughts.append(content[:end])
            content = content[end + len("</think>") :]
        else:
            texts.append(content)
            content = ""
        start = content.find("<think>")
    if content:
        texts.append(content)
    return "\n".join(thoughts), "".join(texts)


@pytest.mark.parametrize("seed", range(20))
def test_the_same_split_as_pydantic_ai_when_no_closing_tag_comes_first(seed):
    rng = random.Random(seed)
    pieces = ["<think>", "</think>", "a", "{", "}", " ", "思考", "<", ">"]
    for _ in range(200):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        closing, opening = text.find("</think>"), text.find("<think>")
        if closing >= 0 and (opening < 0 or closing < opening):
            continue  # DeepSeek-R1's case, where pydantic-ai keeps the text whole
        assert split_thinking(text) == pydantic_ai_split(text), text
