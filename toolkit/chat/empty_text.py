"""An assistant turn that only calls tools, its text empty: sent as its gateway gave it, or null.

DeepSeek, Ollama and others answer a tool call with `content: ""`, and the reply goes back in the
history as it came. A strict relay refuses a history holding it: one in front of Anthropic turns
the "" into an empty text block ("messages: text content blocks must be non-empty"), one in front
of Bedrock's Converse API into a blank one ("The text field in the ContentBlock object at
messages.1.content.0 is blank"). `refuses_empty_text` tells such an error, when the request holds
such a turn, for the client to send it again with that text null (`with_null_text`: OpenAI's own
form of a turn that only calls tools) and go on so with that gateway.

The other way round, a strict server refuses the null: mistral-common's OpenAI-compatible app (a
422, "body.messages.1.content.str: Input should be a valid string": mistralai/mistral-common#324),
Cloudflare's AI Gateway (earendil-works/pi#8118), a relay that checks as OpenAI checks a turn without
calls ("Invalid value for 'content': expected a string, got null."). `refuses_null_text` tells such an
error, naming the content of such a turn (or of no message in particular), for the client to send the
turn's text as "" (`with_empty_text`) and go on so; a gateway is sent one form or the other, never both.

Leaves out: a turn with text beside its calls (sent as it is), and a gateway refusing both forms (the
second refusal is raised as it comes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_EMPTY_TEXT = re.compile(
    r"\b(?:text|content)\b[^\n]{0,100}?\b(?:must be non-?empty|must not be empty|cannot be empty|is blank)",
    re.IGNORECASE,
)
"""An error's words for an empty text refused ("text content blocks must be non-empty", "… is blank")."""


def _empty_call_turn(message: Any) -> bool:
    """Whether a wire message is an assistant turn with tool calls and a text that is empty or blank."""
    if not isinstance(message, dict) or message.get("role") != "assistant" or not message.get("tool_calls"):
        return False
    content = message.get("content")
    return isinstance(content, str) and not content.strip()


def refuses_empty_text(said: str, messages: Iterable[Any]) -> bool:
    """Whether the error text `said` refuses an empty text, and the request's wire `messages` hold
    an assistant turn whose text is empty beside its tool calls."""
    return bool(_EMPTY_TEXT.search(said)) and any(_empty_call_turn(message) for message in messages)


def with_null_text(messages: list[Any]) -> list[Any]:
    """The wire `messages` with each empty text beside tool calls null (a new list; the others as they are)."""
    return [{**message, "content": None} if _empty_call_turn(message) else message for message in messages]


_NULL_TEXT = re.compile(
    r"\bcontent\b[^\n]{0,60}?(?:should be a valid string|expected a string, got null|must be a string"
    r"|(?:must|may|can|should)(?: not|n't)? be null|cannot be null|is null)",
    re.IGNORECASE,
)
"""An error's words for a null text refused (pydantic's "Input should be a valid string", OpenAI's own)."""
_AT = re.compile(r"messages\W{0,3}(\d{1,6})\b")
"""Where an error says the refused message is (`body.messages.1.content`, `messages[1]`)."""


def _null_call_turn(message: Any) -> bool:
    return (
        isinstance(message, dict)
        and message.get("role") == "assistant"
        and bool(message.get("tool_calls"))
        and message.get("content", "") is None
    )


def refuses_null_text(said: str, messages: list[Any]) -> bool:
    """Whether the error text `said` refuses a null text, and the request's wire `messages` hold an
    assistant turn with tool calls and null text: the one the error names by its index, if it names one."""
    if not _NULL_TEXT.search(said):
        return False
    named = {int(found) for found in _AT.findall(said)}
    turns = {at for at, message in enumerate(messages) if _null_call_turn(message)}
    return bool(turns & named) if named else bool(turns)


def with_empty_text(messages: list[Any]) -> list[Any]:
    """The wire `messages` with each null text beside tool calls "" (a new list; the others as they are)."""
    return [{**message, "content": ""} if _null_call_turn(message) else message for message in messages]
