"""A reasoning model's own fields on its reply, which go back with it, and a gateway that refuses them.

Gateways name a reply's reasoning differently, and each wants it back under its own name on the
assistant turn of the next request (`toolkit.chat.messages.KEPT_ASSISTANT_FIELDS`): DeepSeek's and
Moonshot's `reasoning_content`; vLLM's (since 0.11; it reads only this one back) and Ollama's
`reasoning`; OpenRouter's `reasoning_details`; LiteLLM's `thinking_blocks` in front of Claude (its
signed thinking blocks, which Anthropic wants back before a tool result); Gemini's `extra_content`
(its thought signature) on a reply without tool calls. A reply carrying
`reasoning` beside `reasoning_details` (OpenRouter sends both) says the same thinking twice:
`reasoning_details`, which holds the signatures, goes back alone (`one_reasoning`). Beside
`reasoning_content` both go back, as they came: vLLM between 0.11 and 0.15 sent both, and reads
`reasoning` alone from the history (vllm-project/vllm#38488).

Streamed, `thinking_blocks` come in pieces without an index (`merge_blocks`): the text of a
thinking block in pieces without a signature, then its signature on a piece with empty text; a
redacted block whole. A signed block is whole: the next thinking piece starts another.

A history written on one gateway may carry a field another refuses (Groq: "property 'reasoning' is
unsupported"; a strict FastAPI server's 422 "Extra inputs are not permitted" at
`body.messages.1.reasoning`; DeepSeek-R1's "Please remove the reasoning_content from your message":
R1, unlike DeepSeek's later models in thinking mode, takes none back; a strict gateway, Gemini's
`extra_content` on an assistant message or on one of its tool calls). `refused_field` names a kept
field the history carries that such an error refuses, for the client to send the request again without it (`without_fields`) and leave it
out for that gateway from then on. An error asking for the field (DeepSeek's "Missing
`reasoning_content`", "must be passed back") refuses nothing.

The other way round, DeepSeek's thinking mode asks for `reasoning_content` on assistant turns (V3.2
on a turn that called tools, V4 on every one: "Missing `reasoning_content` field in the assistant
message", "The `reasoning_content` in the thinking mode must be passed back to the API"), which a
history written elsewhere, or a reply that reasoned nothing, lacks: `asked_field` names it, for the
client to send the request again with it empty on each turn lacking it (`with_fields`), and so on.

For the learner, `reasoning_text(extra)` is the thinking a reply's kept fields hold, whichever
gateway named it: `reasoning_content` (DeepSeek, Qwen3 and gpt-oss on vLLM or SGLang, llama.cpp,
LM Studio), `reasoning` (newer vLLM, Ollama, OpenRouter), the text and summaries of
`reasoning_details` (OpenRouter; an encrypted block has none), the `thinking` of `thinking_blocks`
(LiteLLM, Claude; a redacted block has none). The views show it apart from the answer
(`toolkit.views.conversation`); it goes back only as the gateway's own field.

Leaves out: a kept field's contents, which go back as they came; thinking written into the answer
(`<think>…</think>`, `toolkit.chat.thinking`), which the views show as the text it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_REFUSING = re.compile(
    r"unsupported|not supported|not permitted|not allowed|unknown|unrecogni[sz]ed|unexpected|extra (?:inputs|fields)"
    r"|forbidden|invalid|\bremove\b",
    re.IGNORECASE,
)
"""Words of a gateway refusing a field it does not know, or asking for it to go (DeepSeek-R1's "Please
remove the reasoning_content from your message")."""
_WANTING = re.compile(r"\bmissing\b|\brequired\b|must be (?:passed|provided|included|sent|present)", re.IGNORECASE)
"""Words of a gateway asking for a field (DeepSeek's thinking mode): no refusal of it."""


def one_reasoning(extra: dict[str, Any]) -> dict[str, Any]:
    """`extra` without `reasoning` when it carries `reasoning_details` too."""
    if "reasoning" in extra and "reasoning_details" in extra:
        return {key: value for key, value in extra.items() if key != "reasoning"}
    return extra


def merge_blocks(blocks: list[dict[str, Any]], pieces: Iterable[Any]) -> None:
    """Fold a streamed delta's `thinking_blocks` into `blocks` (see the module docstring). A piece
    that is not an object is skipped; a signature ends the block it signs."""
    for piece in pieces:
        if not isinstance(piece, dict):
            continue
        last = blocks[-1] if blocks else None
        open_block = last is not None and last.get("type") == "thinking" and not last.get("signature")
        if piece.get("type") != "thinking" or not open_block:
            blocks.append({key: value for key, value in piece.items() if value is not None})
            continue
        assert last is not None
        text = piece.get("thinking")
        if isinstance(text, str):
            last["thinking"] = f"{last.get('thinking') or ''}{text}"
        for key, value in piece.items():
            if key not in ("type", "thinking") and value is not None:
                last[key] = value


def refused_field(said: str, messages: Iterable[Any], fields: Iterable[str]) -> str | None:
    """The first of `fields` that an assistant message of `messages` (the request's wire messages)
    carries and that the error text `said` refuses (names as a word and in a refusal's words, not
    asking for it), or None."""
    if not _REFUSING.search(said) or _WANTING.search(said):
        return None
    carried = {
        key
        for message in messages
        if isinstance(message, dict) and message.get("role") == "assistant"
        for key in (*message, *_call_keys(message))
    }
    for field in fields:
        if field in carried and re.search(rf"(?<![\w]){re.escape(field)}(?![\w])", said):
            return field
    return None


ASKABLE_FIELDS = ("reasoning_content", "reasoning")
"""The kept fields a gateway may ask back on a turn that has none: text, given empty (`with_fields`)."""


def asked_field(said: str, messages: Iterable[Any]) -> str | None:
    """The first of `ASKABLE_FIELDS` the error text `said` asks for (names as a word, in words
    asking for it: DeepSeek's "Missing `reasoning_content` field in the assistant message", "The
    `reasoning_content` in the thinking mode must be passed back to the API") that an assistant
    message of the request's wire `messages` lacks, or None."""
    if not _WANTING.search(said):
        return None
    turns = [m for m in messages if isinstance(m, dict) and m.get("role") == "assistant"]
    for field in ASKABLE_FIELDS:
        named = re.search(rf"(?<![\w]){re.escape(field)}(?![\w])", said)
        if named and any(field not in turn for turn in turns):
            return field
    return None


def with_fields(messages: list[Any], fields: Iterable[str]) -> list[Any]:
    """The wire `messages` with each of `fields` given empty (`""`) to each assistant message that
    lacks it (a new list; the others as they are)."""
    wanted = tuple(fields)
    return [
        {**{field: "" for field in wanted if field not in message}, **message}
        if isinstance(message, dict) and message.get("role") == "assistant" and any(f not in message for f in wanted)
        else message
        for message in messages
    ]


def _call_keys(message: dict[str, Any]) -> Iterable[str]:
    """The keys of an assistant message's tool calls (Gemini's `extra_content` rides on a call)."""
    calls = message.get("tool_calls")
    return [key for call in calls if isinstance(call, dict) for key in call] if isinstance(calls, list) else ()


def without_fields(messages: list[Any], fields: Iterable[str]) -> list[Any]:
    """The wire `messages` with `fields` left out of each assistant message and of its tool calls (a new
    list; the others as they are)."""
    dropped = frozenset(fields)
    return [
        _without(message, dropped)
        if isinstance(message, dict)
        and message.get("role") == "assistant"
        and not (dropped.isdisjoint(message) and dropped.isdisjoint(_call_keys(message)))
        else message
        for message in messages
    ]


def _without(message: dict[str, Any], dropped: frozenset[str]) -> dict[str, Any]:
    kept = {key: value for key, value in message.items() if key not in dropped}
    calls = kept.get("tool_calls")
    if isinstance(calls, list):
        kept["tool_calls"] = [
            {key: value for key, value in call.items() if key not in dropped} if isinstance(call, dict) else call
            for call in calls
        ]
    return kept


def reasoning_text(extra: dict[str, Any]) -> str:
    """The thinking a reply's kept fields `extra` hold (see the module docstring), its pieces joined
    by newlines; "" when they hold none. `reasoning` beside `reasoning_content` says it once."""
    pieces: list[str] = []
    for key in ("reasoning_content", "reasoning"):
        text = extra.get(key)
        if isinstance(text, str) and text.strip() and text not in pieces:
            pieces.append(text)
    for block in _listed(extra.get("reasoning_details")):
        text = block.get("summary") if block.get("type") == "reasoning.summary" else block.get("text")
        if isinstance(text, str) and text.strip() and text not in pieces:
            pieces.append(text)
    for block in _listed(extra.get("thinking_blocks")):
        text = block.get("thinking")
        if isinstance(text, str) and text.strip() and text not in pieces:
            pieces.append(text)
    return "\n".join(pieces)


def _listed(value: Any) -> list[dict[str, Any]]:
    """The objects of a kept list field (`reasoning_details`, `thinking_blocks`); none when it is no list."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
