"""Chat memory: the conversation of one memory id, kept within a window, saved in a store.

`ChatMemory` holds messages for one id and writes every change through to a store
(`InMemoryStore` by default, `SqliteStore` to survive restarts). A window bounds what is kept:

- `MessageWindow(n)`  keeps at most n messages;
- `TokenWindow(n)`    keeps at most n tokens (token counting is pluggable).

Eviction is never naive. The system message is always kept (a new one replaces the old);
messages leave oldest first; an assistant message that asked for tools leaves *together with*
its tool results, so a tool result never answers a call the model can no longer see (strict
gateways reject such an orphan with HTTP 400).

Leaves out: summarising evicted messages, and per-message ids (rewrites replace whole lists).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from toolkit.chat.messages import AssistantMessage, Message, SystemMessage, ToolResultMessage
from toolkit.tokens import estimate_tokens


class ChatMemoryStore(Protocol):
    """Where conversations live, keyed by memory id."""

    def get(self, memory_id: str) -> list[Message]: ...
    def set(self, memory_id: str, messages: Sequence[Message]) -> None: ...
    def delete(self, memory_id: str) -> None: ...


class InMemoryStore:
    """A dict of lists; fine for notebooks and tests, gone when the process ends."""

    def __init__(self) -> None:
        self._data: dict[str, list[Message]] = {}
        self._lock = threading.Lock()

    def get(self, memory_id: str) -> list[Message]:
        with self._lock:
            return list(self._data.get(memory_id, ()))

    def set(self, memory_id: str, messages: Sequence[Message]) -> None:
        with self._lock:
            self._data[memory_id] = list(messages)

    def delete(self, memory_id: str) -> None:
        with self._lock:
            self._data.pop(memory_id, None)


def message_tokens(message: Message) -> int:
    """The default token count of one message: its text plus its tool calls' names and arguments."""
    if isinstance(message, AssistantMessage):
        calls = sum(estimate_tokens(c.name) + estimate_tokens(c.arguments) for c in message.tool_calls)
        return estimate_tokens(message.content or "") + calls
    return estimate_tokens(message.content)


@dataclass(frozen=True)
class MessageWindow:
    """Keep at most `max_messages` messages (the system message counts)."""

    max_messages: int

    def fits(self, messages: Sequence[Message]) -> bool:
        return len(messages) <= self.max_messages


@dataclass(frozen=True)
class TokenWindow:
    """Keep at most `max_tokens` tokens, counted by `count` per message."""

    max_tokens: int
    count: Callable[[Message], int] = message_tokens

    def fits(self, messages: Sequence[Message]) -> bool:
        return sum(self.count(m) for m in messages) <= self.max_tokens


Window = MessageWindow | TokenWindow


def evict(messages: Sequence[Message], window: Window | None) -> list[Message]:
    """The messages that remain once the window is satisfied (oldest leave first, in groups)."""
    kept = list(messages)
    system = [m for m in kept[:1] if isinstance(m, SystemMessage)]
    rest = kept[len(system) :]
    while rest and window is not None and not window.fits(system + rest):
        rest = rest[_first_group_size(rest) :]
    while rest and isinstance(rest[0], ToolResultMessage):  # never start with an orphan result
        rest = rest[1:]
    return system + rest


def _first_group_size(messages: Sequence[Message]) -> int:
    """An assistant message with tool calls leaves with the results that follow it."""
    first = messages[0]
    if not (isinstance(first, AssistantMessage) and first.tool_calls):
        return 1
    size = 1
    while size < len(messages) and isinstance(messages[size], ToolResultMessage):
        size += 1
    return size


class ChatMemory:
    """The conversation of one memory id, windowed, written through to its store."""

    def __init__(
        self, memory_id: str = "default", *, store: ChatMemoryStore | None = None, window: Window | None = None
    ) -> None:
        self.id = memory_id
        self.store: ChatMemoryStore = store if store is not None else InMemoryStore()
        self.window = window
        self.lock = threading.RLock()
        """Held by whoever runs a whole exchange on this id, so turns don't interleave."""

    def __repr__(self) -> str:
        return f"ChatMemory({self.id!r}, window={self.window!r})"

    def messages(self) -> list[Message]:
        return self.store.get(self.id)

    def add(self, *messages: Message) -> None:
        with self.lock:
            current = self.store.get(self.id)
            for message in messages:
                current = _with_system(current, message) if isinstance(message, SystemMessage) else current + [message]
            self.store.set(self.id, evict(current, self.window))

    def set(self, messages: Sequence[Message]) -> None:
        """Replace the whole conversation (used when compensation rewrites history)."""
        with self.lock:
            self.store.set(self.id, evict(messages, self.window))

    def clear(self) -> None:
        with self.lock:
            self.store.delete(self.id)


def _with_system(messages: list[Message], system: SystemMessage) -> list[Message]:
    """A new system message replaces the old one and goes first."""
    return [system] + [m for m in messages if not isinstance(m, SystemMessage)]
