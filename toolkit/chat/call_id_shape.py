"""Tool call ids in the one shape Mistral takes, for a gateway that refuses a history's others.

Mistral's API, and a local server running a Mistral chat template (vLLM with `mistral_common`),
take a tool call id of 9 letters and digits only, and refuse a history holding another: a 400 "Tool
call id was call_Uq2M3x but must be a-z, A-Z, 0-9, with a length of 9." The ids of a history written
on another gateway (OpenAI's `call_…`, the embedded gateway's, a learner's own) are of other shapes.
`refuses_ids` tells such an error when the request holds such an id, for the client to send it again
with each such id written in that shape (`shaped_ids`: the same id, a call's and its result's, gets
the same one, request after request) and go on so with that gateway. The conversation keeps its ids:
only what is sent changes.

Leaves out: ids already in the shape (sent as they came), and a gateway refusing the shaped ones
(its error is raised as it comes).
"""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Iterable
from typing import Any

_SHAPE = re.compile(r"[a-zA-Z0-9]{9}")
"""Mistral's tool call id: 9 letters and digits."""
_REFUSED = re.compile(r"\bmust be a-z, ?A-Z, ?0-9,? with a length of 9\b", re.IGNORECASE)
"""Mistral's words (and `mistral_common`'s) refusing an id of another shape."""
_DIGITS = string.ascii_letters + string.digits


def _ids(message: Any) -> Iterable[Any]:
    """The tool call ids a wire message holds: an assistant turn's calls', a tool result's."""
    if not isinstance(message, dict):
        return ()
    if message.get("role") == "tool":
        return (message.get("tool_call_id"),)
    calls = message.get("tool_calls") if message.get("role") == "assistant" else None
    return [call.get("id") for call in calls if isinstance(call, dict)] if isinstance(calls, list) else ()


def _misshapen(value: Any) -> bool:
    return isinstance(value, str) and _SHAPE.fullmatch(value) is None


def refuses_ids(said: str, messages: Iterable[Any]) -> bool:
    """Whether the error text `said` refuses a tool call id's shape, and the request's wire `messages`
    hold an id not of that shape."""
    return bool(_REFUSED.search(said)) and any(_misshapen(i) for message in messages for i in _ids(message))


def shaped(call_id: str) -> str:
    """`call_id` as 9 letters and digits, the same for the same id (from its SHA-256: two ids of one
    conversation meet the same one about once in 10^16 pairs)."""
    number = int.from_bytes(hashlib.sha256(call_id.encode("utf-8", "surrogatepass")).digest()[:8], "big")
    letters = []
    for _ in range(9):
        number, digit = divmod(number, len(_DIGITS))
        letters.append(_DIGITS[digit])
    return "".join(letters)


def shaped_ids(messages: list[Any]) -> list[Any]:
    """The wire `messages` with each tool call id not of Mistral's shape `shaped` (an assistant turn's
    calls and the tool results alike; a new list, the messages without such an id as they are)."""
    return [_shaped(message) if any(map(_misshapen, _ids(message))) else message for message in messages]


def _shaped(message: dict[str, Any]) -> dict[str, Any]:
    if message.get("role") == "tool":
        return {**message, "tool_call_id": shaped(message["tool_call_id"])}
    calls = [
        {**call, "id": shaped(call["id"])} if isinstance(call, dict) and _misshapen(call.get("id")) else call
        for call in message["tool_calls"]
    ]
    return {**message, "tool_calls": calls}
