"""`ScriptedModel`: a chat model that plays back a script, for tests and notebooks.

Each turn of the script is what the model "says" next: a string (text), a `ToolCall` or a list
of them (tool calls), an `AssistantMessage`, a full `ChatResponse`, an exception to raise, or a
function of the request (`Request -> any of those`) for replies that depend on what was sent.
`stream()` plays the same turn as stream events. Every request is
recorded (messages, tool names, tool_choice) so a test can check what the model saw. Usage is
the deterministic estimate of `toolkit.tokens` (an image counts `IMAGE_TOKENS`, not its base64).

A turn with nothing in it (`""`, an `AssistantMessage()` or a `ChatResponse` without text, tool
calls or a refusal) raises the `BadResponseError` the client raises for such a reply
(`toolkit.chat.sse.not_empty`), so code run on a script meets what it would meet on a gateway;
a test that wants that failure can also script the exception itself.

Helpers make scripts short: `call("query_order", orderId="SN…")` builds a `ToolCall` with a
counter-based id (`call_1`, `call_2`, … per model).

Leaves out: SSE framing (the client's streaming is tested against the gateway), and any "intelligence": a script that runs out
raises `ScriptExhausted`, so a loop that asks once too often fails loudly.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolkit.chat.client import tool_payload
from toolkit.chat.images import IMAGE_TOKENS
from toolkit.chat.messages import (
    AssistantMessage,
    ChatResponse,
    Message,
    TokenUsage,
    ToolCall,
    UserMessage,
    to_openai,
)
from toolkit.chat.sse import StreamDone, StreamEvent, TextDelta, ToolCallDelta, not_empty
from toolkit.errors import ScriptExhausted
from toolkit.tokens import estimate_json_tokens, estimate_tokens


@dataclass(frozen=True)
class Request:
    """What one request to the scripted model contained."""

    messages: tuple[Message, ...]
    tools: tuple[str, ...]
    tool_choice: Any = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Any other request fields (e.g. `response_format`)."""


Turn = Any  # str | ToolCall | Sequence[ToolCall] | AssistantMessage | ChatResponse | Callable


@dataclass
class ScriptedModel:
    """Replays `script` one turn per request; records every request in `requests`."""

    script: list[Turn]
    requests: list[Request] = field(default_factory=list)
    name: str = "scripted"

    def __post_init__(self) -> None:
        self.script = list(self.script)

    def describe(self) -> str:
        return f"scripted model ({len(self.script)} turns left)"

    def chat(
        self, messages: Sequence[Message], *, tools: Sequence[Any] | None = None, tool_choice: Any = None, **extra: Any
    ) -> ChatResponse:
        payload = tool_payload(tools) or []
        request = Request(tuple(messages), tuple(t["function"]["name"] for t in payload), tool_choice, extra)
        self.requests.append(request)
        if not self.script:
            raise ScriptExhausted(f"the script has no turn left for request {len(self.requests)}")
        turn = self.script.pop(0)
        if callable(turn) and not isinstance(turn, (ToolCall, AssistantMessage, ChatResponse)):
            turn = turn(request)
        if isinstance(turn, Exception):
            raise turn
        return _response(turn, messages, payload, len(self.requests))

    def stream(self, messages: Sequence[Message], **kwargs: Any) -> Iterator[StreamEvent]:
        """The next turn as a stream: text in 4-character deltas, then each call, then done."""
        response = self.chat(messages, **kwargs)
        text = response.message.content or ""
        for start in range(0, len(text), 4):
            yield TextDelta(text[start : start + 4])
        for index, c in enumerate(response.message.tool_calls):
            yield ToolCallDelta(index, c.id, c.name, c.arguments)
        yield StreamDone(response)


def _response(turn: Turn, messages: Sequence[Message], tools: list[dict], n: int) -> ChatResponse:
    if isinstance(turn, ChatResponse):
        return not_empty(turn)
    message = _message(turn)
    usage = TokenUsage(
        input_tokens=_input_tokens(messages) + (estimate_json_tokens(tools) if tools else 0),
        output_tokens=estimate_tokens(message.content or "")
        + sum(estimate_tokens(c.name + c.arguments) for c in message.tool_calls),
    )
    reason = "tool_calls" if message.tool_calls else "stop"
    return not_empty(
        ChatResponse(message=message, finish_reason=reason, usage=usage, model="scripted", id=f"scripted-{n}")
    )


def _input_tokens(messages: Sequence[Message]) -> int:
    """The messages' estimate, each image counted as `IMAGE_TOKENS` (not as its base64 text)."""
    images = sum(len(m.images) for m in messages if isinstance(m, UserMessage))
    if not images:
        return estimate_json_tokens(to_openai(list(messages)))
    plain = [m.model_copy(update={"images": ()}) if isinstance(m, UserMessage) else m for m in messages]
    return estimate_json_tokens(to_openai(plain)) + IMAGE_TOKENS * images


def _message(turn: Turn) -> AssistantMessage:
    if isinstance(turn, AssistantMessage):
        return turn
    if isinstance(turn, str):
        return AssistantMessage(content=turn)
    if isinstance(turn, ToolCall):
        return AssistantMessage(tool_calls=(turn,))
    if isinstance(turn, (list, tuple)) and all(isinstance(c, ToolCall) for c in turn):
        return AssistantMessage(tool_calls=tuple(turn))
    raise TypeError(f"a script turn must be text, ToolCall(s), AssistantMessage or ChatResponse, not {turn!r}")


class CallIds:
    """Counter-based tool-call ids: `call_1`, `call_2`, …"""

    def __init__(self, prefix: str = "call_") -> None:
        self.prefix, self.count = prefix, 0

    def __call__(self) -> str:
        self.count += 1
        return f"{self.prefix}{self.count}"


_IDS = CallIds()


def call(name: str, arguments: str | dict[str, Any] | None = None, *, id: str | None = None, **kwargs: Any) -> ToolCall:
    """A `ToolCall` for scripts: `call("query_order", orderId="SN…")` or raw argument text."""
    if isinstance(arguments, str):
        text = arguments  # raw, possibly invalid JSON: exactly what a sloppy model might send
    else:
        text = json.dumps({**(arguments or {}), **kwargs}, ensure_ascii=False, sort_keys=True)
    return ToolCall(id=id or _IDS(), name=name, arguments=text)


def reset_call_ids() -> None:
    """Start `call()` ids from `call_1` again (notebooks do this so outputs stay stable)."""
    _IDS.count = 0
