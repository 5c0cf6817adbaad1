"""Gemini 3's thought signature, stood in for on a tool call that came from elsewhere.

Gemini's OpenAI-compatible endpoint signs the first tool call of each reply that calls tools
(`"extra_content": {"google": {"thought_signature": …}}`, kept and sent back with the call: the
`extra` of a `toolkit.chat.messages.ToolCall`), and Gemini 3 refuses a history holding a tool-calling turn
without one: a 400 "Function call is missing a thought_signature in functionCall parts". A history
written on another gateway, or by hand, has none. Google's documented stand-in for such a call is
the signature `skip_thought_signature_validator` (ai.google.dev/gemini-api/docs/thought-signatures).
`refuses_unsigned` tells such an error when the request holds a tool-calling turn none of whose calls
is signed, for the client to send it again with the stand-in on that turn's first call (`signed`)
and go on so with that gateway.

Leaves out: a turn with a signed call (its signature goes back as it came), turns without tool calls
(Gemini takes those unsigned), and a gateway refusing the stand-in (its error is raised as it comes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

SKIP = "skip_thought_signature_validator"
"""Google's stand-in signature for a function call Gemini did not make."""

_MISSING = re.compile(r"\bmissing (?:a |the )?`?thought_?signature\b", re.IGNORECASE)
"""Gemini's words for an unsigned call ("is missing a thought_signature", "is missing a `thought_signature`")."""


def _signature(call: Any) -> Any:
    """The thought signature a wire tool call carries, or None."""
    extra = call.get("extra_content") if isinstance(call, dict) else None
    google = extra.get("google") if isinstance(extra, dict) else None
    return google.get("thought_signature") if isinstance(google, dict) else None


def _unsigned_turn(message: Any) -> bool:
    """Whether a wire message is an assistant turn with tool calls, none of them signed."""
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return False
    calls = message.get("tool_calls")
    return isinstance(calls, list) and bool(calls) and not any(_signature(call) for call in calls)


def refuses_unsigned(said: str, messages: Iterable[Any]) -> bool:
    """Whether the error text `said` refuses an unsigned function call, and the request's wire
    `messages` hold a tool-calling turn with no signed call."""
    return bool(_MISSING.search(said)) and any(_unsigned_turn(message) for message in messages)


def signed(messages: list[Any]) -> list[Any]:
    """The wire `messages` with the stand-in signature (`SKIP`) on the first call of each tool-calling
    turn that has none, beside any other `extra_content` it holds (a new list; the others as they are)."""
    return [_stood_in(message) if _unsigned_turn(message) else message for message in messages]


def _stood_in(turn: dict[str, Any]) -> dict[str, Any]:
    first, *rest = turn["tool_calls"]
    extra = first.get("extra_content") if isinstance(first, dict) else None
    google = extra.get("google") if isinstance(extra, dict) else None
    kept = {**(extra if isinstance(extra, dict) else {})}
    kept["google"] = {**(google if isinstance(google, dict) else {}), "thought_signature": SKIP}
    call = {**first, "extra_content": kept} if isinstance(first, dict) else first
    return {**turn, "tool_calls": [call, *rest]}
