"""`split_thinking`: a reasoning model's `<think>` blocks apart from its answer, as pydantic-ai (balanced
blocks) and vLLM's DeepSeek-R1 parser (a closing tag only) read them."""

import random

import pytest

from toolkit.chat.thinking import split_thinking


@pytest.mark.parametrize(
    "text, thinking, answer",
    [
        ("plain answer", "", "plain answer"),
        ("", "", ""),
        ("a < b", "", "a < b"),
        ("<think>step 1</think>The answer.", "step 1", "The answer."),
        ('<think>\nI should call {x}\n</think>\n\n{"a": 1}', "\nI should call {x}\n", '\n\n{"a": 1}'),
        ("Before <think>a</think> middle <think>b</think> after", "a\nb", "Before  middle  after"),
        ('I considered it.</think>{"a": 1}', "I considered it.", '{"a": 1}'),  # the <think> was in the prompt
        ("thought</think>text <think>more</think>end", "thought\nmore", "text end"),
        ("one</think>two</think>answer", "one\ntwo", "answer"),  # thinking the prompt began ends at the last tag
        ("<think>cut off while thinking", "cut off while thinking", ""),  # no answer
        ("  \n<think>cut off", "cut off", "  \n"),
        ("<think>a</think><think>cut off", "a\ncut off", ""),
        ('{"note": "<think>"}', "", '{"note": "<think>"}'),  # opened after an answer: text
        ("Use the <think> tag.", "", "Use the <think> tag."),
        ("<think></think>", "", ""),
        ("<THINK>upper</Think> and <thinking>long</thinking>.", "upper\nlong", " and ."),
        ("<think>a <think> b</think>c", "a <think> b", "c"),  # a tag inside a block is thinking
    ],
)
def test_thinking_and_answer(text, thinking, answer):
    assert split_thinking(text) == (thinking, answer)


def test_many_tags_are_read_in_linear_time():
    assert split_thinking("<think>" * 50_000 + "x") == ("<think>" * 49_999 + "x", "")
    assert split_thinking("</think>" * 50_000 + "x") == ("\n".join([""] * 50_000), "x")


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
def test_balanced_blocks_split_as_pydantic_ai_splits_them(seed):
    rng = random.Random(seed)
    pieces = ["a", "{", "}", " ", "思考", "<", ">", "\n", "/"]
    for _ in range(200):
        parts = []
        for _ in range(rng.randint(0, 6)):
            body = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
            parts.append(f"<think>{body}</think>" if rng.random() < 0.4 else body)
        text = "".join(parts)
        assert split_thinking(text) == pydantic_ai_split(text), text


@pytest.mark.parametrize(
    "text, thinking, answer",
    [  # gpt-oss's Harmony channels in the text: a server that did not parse them (llama.cpp's
        # --reasoning-format none, an early LM Studio or vLLM build) passes them through
        (
            "<|channel|>analysis<|message|>The user greeted me.<|end|>"
            "<|start|>assistant<|channel|>final<|message|>Hello!<|return|>",
            "The user greeted me.",
            "Hello!",
        ),
        ("<|channel|>final<|message|>Just this.", "", "Just this."),
        ("<|channel|>analysis<|message|>Cut off while think", "Cut off while think", ""),
        (
            "<|channel|>analysis<|message|>a<|end|><|start|>assistant<|channel|>analysis<|message|>b<|end|>"
            '<|start|>assistant<|channel|>final<|message|>{"a": 1}<|end|>',
            "a\nb",
            '{"a": 1}',
        ),
        ("Use <|channel|> in a sentence.", "", "Use <|channel|> in a sentence."),  # no message: text
    ],
)
def test_harmonys_analysis_channel_is_thinking_and_its_final_channel_the_answer(text, thinking, answer):
    assert split_thinking(text) == (thinking, answer)


def test_many_harmony_headers_that_open_no_message_are_read_in_linear_time():
    """A channel name run on into letters never closes a header: read once (it took 15 s, backtracking)."""
    text = ("<|channel|>analysis" + "b" * 190) * 5_000
    assert split_thinking(text) == ("", text)
