"""A history's tool-call arguments that are not JSON, sent as JSON to a gateway that refuses them.

A model sometimes writes a call whose arguments are not JSON (`{"order_id": "SN1"`, cut off); the
loop answers it with an "invalid arguments" result and the call stays in the history as written
(`ToolCall.to_openai`: every peer sends it so). A server that renders the history through a chat
template reads each call's arguments as JSON first, and refuses the whole request when one does not
parse: llama.cpp's `llama-server` with `--jinja` answers a 500 "Failed to parse tool call arguments
as JSON: [json.exception.parse_error.101] …" (ggml-org/llama.cpp#25510), DashScope a 400 "The
"function.arguments" parameter … must be in JSON format". No retry changes that.

`refuses_unparsed(said, messages)` reads such a refusal, when an assistant turn of the request's wire
`messages` holds arguments that do not parse; `with_json_arguments(messages)` gives each such call
the arguments `{"INVALID_JSON": "<the text as written>"}` (pydantic-ai's key for the same case), so
the model still sees what it wrote and the server reads JSON. The chat client sends the request
again so, and every later one to that gateway.

Leaves out: the conversation itself, which keeps the arguments as the model wrote them (the views,
the trace and memory show that); arguments that parse as JSON but are no object.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

INVALID_JSON = "INVALID_JSON"
"""The key the unparsable text goes under."""

_REFUSED = re.compile(
    r"\barguments?\b[^\n]{0,40}?\b(?:as|in|is not|not|must be|valid|invalid)\b[^\n]{0,20}?\bjson\b"
    r"|\binvalid\b[^\n]{0,10}?\bfunction\.arguments\b",
    re.IGNORECASE,
)
"""Words refusing arguments that are not JSON: llama.cpp's, DashScope's, a strict validator's."""


def _unparsed(arguments: Any) -> bool:
    """Whether a call's `arguments` is text that does not parse as JSON."""
    if not isinstance(arguments, str):
        return False
    try:
        json.loads(arguments)
    except (ValueError, RecursionError):
        return True
    return False


def _calls(message: Any) -> list[dict[str, Any]]:
    """An assistant wire message's tool calls that are objects with a function object; none otherwise."""
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return []
    calls = message.get("tool_calls")
    if not isinstance(calls, list):
        return []
    return [call for call in calls if isinstance(call, dict) and isinstance(call.get("function"), dict)]


def refuses_unparsed(said: str, messages: Iterable[Any]) -> bool:
    """Whether the error text `said` refuses arguments that are not JSON and a call of `messages` (the
    request's wire messages) has such arguments."""
    if not _REFUSED.search(said):
        return False
    return any(_unparsed(call["function"].get("arguments")) for message in messages for call in _calls(message))


def with_json_arguments(messages: list[Any]) -> list[Any]:
    """The wire `messages` with each call's arguments that do not parse as JSON given as
    `{"INVALID_JSON": text}` (a new list; the messages without such calls as they are)."""
    return [
        _fixed(message) if any(_unparsed(c["function"].get("arguments")) for c in _calls(message)) else message
        for message in messages
    ]


def _fixed(message: dict[str, Any]) -> dict[str, Any]:
    calls = [
        {
            **call,
            "function": {**call["function"], "arguments": json.dumps({INVALID_JSON: call["function"]["arguments"]})},
        }
        if isinstance(call, dict)
        and isinstance(call.get("function"), dict)
        and _unparsed(call["function"].get("arguments"))
        else call
        for call in message["tool_calls"]
    ]
    return {**message, "tool_calls": calls}
