"""Every stored tool result answers a call: the one check both stores make before they write.

A tool result whose `tool_call_id` no earlier assistant message of its conversation asked for is
an orphan: a strict gateway refuses the conversation (HTTP 400) and `SqliteStore` refuses to read
one back. So `InMemoryStore` and `SqliteStore` both refuse to write one, with one error
(`ConfigurationError`, nothing written), through `answered`. A write that appends checks its
messages against what is stored through `stored_asks(call_id)`, answered without reading the
whole conversation: `SqliteStore` reads back from the end only as far as needed, `InMemoryStore`
keeps a `CallIndex` per conversation, kept up to date by each append (its cost is the appended
messages', not the conversation's).

`open_calls(messages)` names the calls of the conversation's last tool-calling message that no
result answers yet: a turn in progress, or one that ended without recording them (its process was
killed while a tool ran, or the store refused its results twice). The loop answers them when the
next turn starts, holding the turn lock (`toolkit.loop.run`), so one such turn does not leave the
id refused by a strict gateway for good.

Leaves out: whether every call is answered when a write is made (a call without its results is a
turn in progress), calls left unanswered before a later user message (the loop never writes
that), and a call answered twice (both stores keep the second result).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from toolkit.chat.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ConfigurationError


def answered(
    messages: Sequence[Message], where: str, stored_asks: Callable[[str], bool] = lambda _: False
) -> Sequence[Message]:
    """`messages` if every tool result among them answers a call: of an earlier message of theirs,
    or of a stored message (`stored_asks(call_id)`). Else `ConfigurationError` naming `where` and
    the result, before anything is written."""
    asked: set[str] = set()
    for index, message in enumerate(messages):
        if isinstance(message, AssistantMessage):
            asked.update(c.id for c in message.tool_calls)
        elif isinstance(message, ToolResultMessage) and message.tool_call_id not in asked:
            if not stored_asks(message.tool_call_id):
                raise unanswered(where, index, message.tool_call_id)
    return messages


def open_calls(messages: Sequence[Message]) -> list[ToolCall]:
    """The calls of the last assistant message that no tool result after it answers, when only
    tool results follow it (else none: that message's turn went on). Reads from the end back to
    that message: two steps for the usual conversation, which ends with an answer."""
    results: set[str] = set()
    for message in reversed(messages):
        if isinstance(message, ToolResultMessage):
            results.add(message.tool_call_id)
        elif isinstance(message, AssistantMessage):
            return [c for c in message.tool_calls if c.id not in results]
        else:
            return []
    return []


def unanswered(where: str, index: int, call_id: str) -> ConfigurationError:
    """The error for message `index` of a write, a tool result for `call_id` that answers no call."""
    return ConfigurationError(
        f"{where}: message {index} is a tool result for call {call_id!r}, which no earlier assistant message "
        "asked for; store the assistant message with that call first (a strict gateway refuses a conversation "
        "with such a result)"
    )


@dataclass
class CallIndex:
    """What one stored conversation's calls and results are, counted per call id: enough to say
    whether a new result answers a stored call, and whether a window that drops a call from the
    front leaves a result of it behind."""

    asked: Counter[str] = field(default_factory=Counter)
    """Call id -> how many stored assistant messages ask for it."""
    results: Counter[str] = field(default_factory=Counter)
    """Call id -> how many stored tool results answer it."""

    @classmethod
    def of(cls, messages: Iterable[Message]) -> CallIndex:
        index = cls()
        index.count(messages, 1)
        return index

    def asks(self, call_id: str) -> bool:
        return self.asked[call_id] > 0

    def count(self, messages: Iterable[Message], step: int) -> None:
        """Count `messages` in (`step` 1: they were stored) or out (-1: they left)."""
        for message in messages:
            if isinstance(message, AssistantMessage):
                for call in message.tool_calls:
                    self.asked[call.id] += step
            elif isinstance(message, ToolResultMessage):
                self.results[message.tool_call_id] += step

    def orphans(self, leaving: Sequence[Message], after: Sequence[Message]) -> bool:
        """Whether dropping `leaving` (counted out already, the new messages counted in) leaves a
        result without its call: a call of theirs still has results, and the first of `after`
        (the kept and new messages) naming it is not an assistant message asking for it again.
        Reads `after` only for a call that still has results (a reused id), up to its first mention."""
        for call_id in asked_ids(leaving):
            if self.results[call_id] > 0:
                first = next((m for m in after if names_call(m, call_id)), None)
                if first is None or not asks_for(first, call_id):
                    return True
        return False


def asked_ids(messages: Iterable[Message]) -> set[str]:
    """The ids of every call the assistant messages among `messages` ask for."""
    return {c.id for m in messages if isinstance(m, AssistantMessage) for c in m.tool_calls}


def last_round_asks(messages: Sequence[Message], call_id: str) -> bool:
    """Whether the last assistant message of `messages`, behind the results (and their images'
    user message) that end them, asks for the call `call_id`: what a loop's results answer, read
    from the end in as many steps as the round has results. `False` says nothing of earlier
    messages (a `CallIndex` does)."""
    message = _last_round_message(messages)
    return message is not None and asks_for(message, call_id)


def _last_round_message(messages: Sequence[Message]) -> AssistantMessage | None:
    """The assistant message whose round `messages` end in (only its results, and their images'
    user message, follow it), or None when they end in anything else."""
    for message in reversed(messages):
        if type(message) is AssistantMessage or isinstance(message, AssistantMessage):  # usually the first step back
            return message
        if not (
            isinstance(message, ToolResultMessage) or (isinstance(message, UserMessage) and message.from_tool_calls)
        ):
            return None
    return None


def has_late_results(messages: Sequence[Message], round_ids: AbstractSet[str] = frozenset()) -> bool:
    """Whether a tool result in `messages` answers anything but its own round: the last assistant
    message before it, behind that round's results (and their images' user message). `round_ids`:
    the calls of the round the messages go on from (`last_round_ids` of what is stored before them)."""
    for message in messages:
        if isinstance(message, AssistantMessage):
            round_ids = {c.id for c in message.tool_calls}
        elif isinstance(message, ToolResultMessage):
            if message.tool_call_id not in round_ids:
                return True
        elif not (isinstance(message, UserMessage) and message.from_tool_calls):
            round_ids = frozenset()
    return False


def last_round_ids(messages: Sequence[Message]) -> AbstractSet[str]:
    """The calls of the round `messages` end in: their last assistant message's, when only its results
    (and their images' user message) follow it; else none."""
    message = _last_round_message(messages)
    return frozenset() if message is None else {c.id for c in message.tool_calls}


def asks_for(message: Message, call_id: str) -> bool:
    """`message` is an assistant message asking for the call `call_id`."""
    if isinstance(message, AssistantMessage):
        for call in message.tool_calls:
            if call.id == call_id:
                return True
    return False


def names_call(message: Message, call_id: str) -> bool:
    """`message` asks for the call `call_id` or answers it."""
    if isinstance(message, ToolResultMessage):
        return message.tool_call_id == call_id
    return asks_for(message, call_id)
