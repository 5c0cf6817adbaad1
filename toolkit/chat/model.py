"""The chat model the loop and the services talk to: a protocol, not a base class.

Anything with these three methods is a chat model: `ChatClient` (a real or the embedded
gateway), `ScriptedModel` (tests and notebooks), `PromptProtocol` (tools described in the
prompt), a cassette-replaying client, or a learner's own class. Nothing inherits from it; mypy
and pyright check the shape where a model is passed.

Leaves out: async models (the course's loop is synchronous on purpose).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from toolkit.chat.messages import ChatResponse, Message
from toolkit.chat.sse import StreamEvent

ToolChoice = str | dict[str, Any]
"""`"auto"`, `"none"`, `"required"`, or `{"type": "function", "function": {"name": ...}}`."""

TOOL_CHOICES = ("auto", "required", "none")
"""The `tool_choice` strings a request may carry (else a named function: `is_tool_choice`)."""


def is_tool_choice(choice: object) -> bool:
    """Whether `choice` is a `tool_choice` a request may carry: one of `TOOL_CHOICES`, or a named
    function (`{"type": "function", "function": {"name": "query_order"}}`, the name a non-empty
    str). The one rule `LoopOptions` and `ChatClient` both check (a number, a list, a function
    without its name went out as they were, and came back as a gateway's 400)."""
    if isinstance(choice, str):
        return choice in TOOL_CHOICES
    if not isinstance(choice, Mapping) or choice.get("type") != "function":
        return False
    function = choice.get("function")
    name = function.get("name") if isinstance(function, Mapping) else None
    return isinstance(name, str) and bool(name)


@runtime_checkable
class ChatModel(Protocol):
    """One request in, one response out; or the same response as a stream of events."""

    def chat(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[Any] | None = None,
        tool_choice: ToolChoice | None = None,
        **extra: Any,
    ) -> ChatResponse:
        """Send the conversation (and the tools on offer); return the assistant's response."""
        ...

    def stream(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[Any] | None = None,
        tool_choice: ToolChoice | None = None,
        **extra: Any,
    ) -> Iterator[StreamEvent]:
        """The same request, streamed: text and tool-call deltas, then `StreamDone`."""
        ...

    def describe(self) -> str:
        """One line saying what this model is (never a secret), for notebooks and logs."""
        ...
