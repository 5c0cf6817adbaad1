"""Chat memory: the conversation of one memory id, kept within a window, saved in a store.

`ChatMemory` holds messages for one id and writes every change through to a store
(`InMemoryStore` by default, `SqliteStore` to survive restarts). A window bounds what is kept:

- `MessageWindow(n)`  keeps at most n messages (n >= 4: system, user, one call, its result);
- `TokenWindow(n)`    keeps at most n tokens (token counting is pluggable).

Eviction is never naive. The system message is always kept (a new one replaces the old; one
`set` after the first place is kept too, and comes first once everything before it has left);
messages leave oldest first, and once any leave, they leave up to the next message of the user's, so
the kept conversation starts with the user's turn (chat templates that want user and assistant turns
in order, and some gateways, refuse one that starts with the assistant's: the window may then hold
fewer messages than its size); an assistant message that asked for tools leaves *together with*
its tool results (and the user message carrying their images, `UserMessage.from_tool_calls`),
so a tool result never answers a call the model can no longer see (strict gateways reject such
an orphan with HTTP 400). The *current turn* is never cut to fit: the latest user message (the
user's, not one carrying tool images) and the current round (the latest tool-calling reply and its results, or
the latest answer) stay, even when they alone exceed the window — earlier rounds of the same
turn leave first. A window too small to hold one round is refused when it is created.

Memory ids are non-empty strings: `None`, `""` and non-strings raise `MemoryIdError`, so two
users never share a conversation by accident (and `1` and `"1"` are never merged); so does an id
with a lone surrogate, in every store (SQLite cannot store one), and one past `MAX_ID_CHARS` (every stored
message carries its id: a 10 MB id, a text pasted where the id goes, made 40 messages an 880 MB database). Only messages are stored:
anything else given to `add`, `set` or returned by an `update` raises `ConfigurationError` before
the store is touched, and so does a tool result that answers no earlier call
(`toolkit.memory.answers`), in every store. `update(change)` holds the store's lock while
`change` runs: a `change` that uses the store itself (reads the memory, adds to it) raises
`ConfigurationError` at once (`running_change`) instead of waiting for that lock forever.

`ChatMemory.lock` belongs to the conversation, not to the object: every `ChatMemory` on one
store and id shares it (and a `SqliteStore`'s holds across processes: `toolkit.memory.turns`),
so two services or two workers on one id take turns instead of interleaving their messages.
A `ChatMemory` on a `SqliteStore` can be sent to a process started with `spawn` (pickled: its id,
store and window; its lock there is that process's); an `InMemoryStore` cannot go
(`ConfigurationError`: a copy would silently part from the original).

Without a window, `add` appends (O(1) with a store that has `append`, as both stores here do).
With one, both stores here append and drop whole groups from the front (`append_in_window`):
they know the weight of what they hold (a count, or a running token total), and `window_drop`
says how many of the oldest messages leave (and, in a turn of many rounds over the window, how
many of its earlier rounds after its question) so that the result is exactly what `evict` would
give, reading only the messages that leave and the current turn's from the end (a new system
message replaces the stored one in place, its weight for the old one's). When it cannot say
(a new message that would leave at once, an orphan result that would lead, a system message
stored after the first), it is one read-modify-write in the store (`update`, one transaction for SQLite) through `evict`.

LangChain4j's `MessageWindowChatMemory` (`appendMessage`, `ensureCapacity`; its
`TokenWindowChatMemory` follows the same rules by tokens) differs on purpose in three places: a new
system message goes to the end of its list unless `alwaysKeepSystemMessageFirst(true)` (here it
always comes first, where chat templates read it); it evicts one message at a time, with the tool
results that follow an evicted tool-calling reply (here up to the user's next message, never the
current turn: there a window too small for the latest question evicts it); and it takes any window
above 0 (here one round at least, `MessageWindow(4)`). The same system message added again changes
nothing in both.

Leaves out: summarising evicted messages.
"""

from __future__ import annotations

import copy
import math
import numbers
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from collections.abc import Set as AbstractSet
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, cast

from pydantic_core import SchemaValidator, ValidationError, core_schema

from toolkit.chat.images import IMAGE_TOKENS
from toolkit.chat.messages import (
    MESSAGE_TYPES,
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    TurnMessage,
    UserMessage,
)
from toolkit.errors import ConfigurationError, MemoryIdError
from toolkit.memory.answers import (
    CallIndex,
    answered,
    asked_ids,
    asks_for,
    has_late_results,
    last_round_asks,
    last_round_ids,
)
from toolkit.memory.handouts import LONG, Handouts
from toolkit.memory.storable import check_storable
from toolkit.memory.turns import TurnLockLike, TurnRLock, let_go, store_turn_lock, write_hold
from toolkit.tokens import estimate_json_tokens, estimate_tokens
from toolkit.unicode import cut, is_utf8


class ChatMemoryStore(Protocol):
    """Where conversations live, keyed by memory id.

    A store may also have `append(memory_id, messages)` (add at the end; a system message
    replaces the stored one and goes first), `update(memory_id, change)` (apply
    `change(current) -> new` atomically) and `append_in_window(memory_id, messages, window)`
    (append and evict as `evict` would, without reading the whole conversation, a system message
    among `messages` replacing the stored one; `False`, with nothing written, when it cannot,
    e.g. for a system message it does not handle); `ChatMemory` uses them when they are there and falls
    back to `get` + `set` otherwise. A store that processes share should have
    `turn_lock(memory_id)` (a reentrant lock that holds across them, as `SqliteStore`'s does);
    without it, the lock is shared in this process only, by every `ChatMemory` on the store.
    """

    # positional, as `ChatMemory` calls them: a store's own parameter names are its business
    def get(self, memory_id: str, /) -> list[Message]: ...
    def set(self, memory_id: str, messages: Sequence[Message], /) -> None: ...
    def delete(self, memory_id: str, /) -> None: ...


class InMemoryStore:
    """A dict of lists; fine for notebooks and tests, gone when the process ends.

    A write refuses what `SqliteStore` refuses (a tool result that answers no call, a value JSON
    cannot hold: `toolkit.memory.answers`, `toolkit.memory.storable`), with the same errors; but a
    list of `LONG_LIST` (64) messages or more appended at once (a history passed in whole) is
    checked for its types only, in pydantic-core, as it always was: reading the fields of 5,000
    records in Python costs three times a loop's whole turn. (`SqliteStore` writes each message
    as JSON, so it reads them all anyway.)"""

    def __init__(self) -> None:
        self._data: dict[str, list[Message]] = {}
        self._system_first: set[str] = set()
        """Ids whose list holds no system message after its first message: a new one replaces or
        goes before that first message in O(1), as `with_system` would."""
        self._lock: AbstractContextManager[Any] = threading.Lock()
        self._turn_locks: dict[str, TurnLockLike] = {}
        self._users: dict[str, int | None] = {}
        """Id -> the index of the user's last message after its system message (None: none), kept
        by `append_in_window` and dropped by every other write: a long turn is not read again to find it."""
        self._totals: dict[str, tuple[Callable[[Message], int], int]] = {}
        """Id -> (a `TokenWindow`'s count, the tokens of its list), kept by `append_in_window` and
        dropped by every other write: the weight of a long conversation is not counted again."""
        self._handouts = Handouts()
        """The last list `get` gave out per id: given out again when nobody kept or changed it."""
        self._calls: dict[str, CallIndex] = {}
        """Id -> its calls and results counted (`toolkit.memory.answers`), made when a tool result
        answers a call before the last round (or a window drops a call), kept up to date by appends,
        dropped by every other write."""

    def __repr__(self) -> str:
        """How many conversations it holds (the default repr's memory address changes every run)."""
        count = len(self._data)
        return f"InMemoryStore({count} conversation{'' if count == 1 else 's'})"

    def __reduce__(self) -> tuple[Any, ...]:
        raise ConfigurationError(
            "InMemoryStore cannot go to another process: a copy there would not see this process's writes, nor "
            "this process the copy's; give the processes a file to share, e.g. SqliteStore('memory.db')"
        )

    def __copy__(self) -> InMemoryStore:
        """`copy.copy`, as before `__reduce__`: the same conversations and lock."""
        clone = object.__new__(InMemoryStore)
        clone.__dict__.update(self.__dict__)
        return clone

    def __deepcopy__(self, memo: dict[int, Any]) -> InMemoryStore:
        """`copy.deepcopy`: a new store in this process holding copies of the conversations, written
        apart from this one from then on (a branch of them; only `pickle` is refused, `__reduce__`)."""
        clone = InMemoryStore()
        memo[id(self)] = clone
        with self._lock:
            data = copy.deepcopy(self._data, memo)
        for memory_id, messages in data.items():
            clone._data[memory_id] = messages
            clone._index_if_late(memory_id)
        return clone

    def turn_lock(self, memory_id: str) -> TurnLockLike:
        """The turn lock of `memory_id` in this store, shared by every `ChatMemory` on it (one per
        id this store has seen, kept as long as the store: cheaper than the weak registry)."""
        lock = self._turn_locks.get(memory_id) if type(memory_id) is str else None
        if lock is None:
            memory_id = check_memory_id(memory_id, "InMemoryStore.turn_lock")
            with self._lock:
                lock = self._turn_locks.setdefault(memory_id, TurnRLock())
        return lock

    def get(self, memory_id: str) -> list[Message]:
        """A list of the conversation's messages that is the caller's own (`toolkit.memory.handouts`:
        a long one may be the list given out last time, if nobody kept or changed it)."""
        if type(memory_id) is not str or memory_id not in self._data:  # a stored id was checked when written
            memory_id = check_memory_id(memory_id, "InMemoryStore.get", stored=True)
        with self._lock:
            current = self._data.get(memory_id)
            if current is None:
                return []
            if len(current) < LONG and not self._handouts._sizes:  # the usual short list: a copy (`remembered`)
                return list(current)
            return self._handouts.hand_out(memory_id, current)

    def set(self, memory_id: str, messages: Sequence[Message]) -> None:
        memory_id = check_memory_id(memory_id, "InMemoryStore.set")
        messages = answered(check_messages(messages, "InMemoryStore.set"), "InMemoryStore.set")  # as `SqliteStore`,
        check_storable(messages, "InMemoryStore.set")  # in that order
        with self._lock:
            self._data[memory_id] = list(messages)
            self._forget(memory_id)
            self._index_if_late(memory_id)

    def delete(self, memory_id: str) -> None:
        memory_id = check_memory_id(memory_id, "InMemoryStore.delete", stored=True)
        with self._lock:
            self._data.pop(memory_id, None)
            self._forget(memory_id)

    def _index_if_late(self, memory_id: str) -> None:
        """After a write of a whole list: the id's `CallIndex`, if a result in it answers a call
        before its own round (a window's appends then count what leaves, `_counted_in_window`)."""
        current = self._data[memory_id]
        if has_late_results(current):
            self._calls[memory_id] = CallIndex.of(current)

    def _forget(self, memory_id: str) -> None:
        """Drop what this store keeps beside `memory_id`'s list (a write that replaced it)."""
        self._system_first.discard(memory_id)
        self._totals.pop(memory_id, None)
        self._users.pop(memory_id, None)
        self._calls.pop(memory_id, None)
        self._handouts.forget(memory_id)

    def append(self, memory_id: str, messages: Sequence[Message]) -> None:
        memory_id = check_memory_id(memory_id, "InMemoryStore.append")
        if type(messages) is not tuple and type(messages) is not list:
            messages = _listed(messages, "InMemoryStore.append")  # any iterable, read once
        kinds, turns = checked_kinds(messages, "InMemoryStore.append")  # only messages, as `SqliteStore` checks
        self._append(memory_id, messages, kinds, turns)

    def _append(
        self, memory_id: str, messages: Sequence[Message], kinds: AbstractSet[type], turns: list[Message] | None
    ) -> None:
        """`append`, `kinds` being the set of the messages' classes and `turns` the copy
        `turns_copy` made, if it did (`ChatMemory.add` has both)."""
        with self._lock:
            current = self._data.get(memory_id)
            if not kinds <= _NO_CALLS:  # a user message (the usual one) has no call or result to check
                calls = self._calls.get(memory_id)
                short = len(messages) < LONG_LIST  # a long list given whole: its types only (the class docstring)
                if short and not (kinds <= _EXACT_TYPES and _loop_messages_answered(messages, calls, current)):
                    calls = self._checked_calls(memory_id, messages, kinds)  # says what is wrong, or makes the index
                if calls is not None:
                    calls.count(messages, 1)  # nothing below fails
            if self._totals:  # a `TokenWindow`'s count of this id's list no longer holds
                self._totals.pop(memory_id, None)
            if self._users:  # nor where the user's last message is (a new one may be among them)
                self._users.pop(memory_id, None)
            if current is None:
                self._system_first.add(memory_id)
                if turns is not None:  # a new list nobody else holds: kept as it is
                    self._data[memory_id] = turns
                    return
                current = self._data[memory_id] = []
            if kinds <= _NOT_SYSTEM:  # no system message: one C-speed extend
                current.extend(messages)
                return
            for message in messages:
                if type(message) in _NOT_SYSTEM or not isinstance(message, SystemMessage):  # set lookup first
                    current.append(message)
                elif memory_id in self._system_first:  # `with_system`, in place without a copy
                    if current and isinstance(current[0], SystemMessage):
                        current[0] = message
                        self._handouts.first_changed(memory_id, inserted=False)
                    else:
                        current.insert(0, message)
                        self._handouts.first_changed(memory_id, inserted=True)
                else:
                    current[:] = with_system(current, message)
                    self._system_first.add(memory_id)
                    self._handouts.forget(memory_id)  # the list changed before its end

    def update(self, memory_id: str, change: Callable[[list[Message]], list[Message]]) -> None:
        memory_id = check_memory_id(memory_id, "InMemoryStore.update")
        with self._lock:
            with running_change(self, "InMemoryStore.update", memory_id):
                result = change(list(self._data.get(memory_id, ())))
            changed = answered(check_messages(result, "InMemoryStore.update"), "InMemoryStore.update")
            check_storable(changed, "InMemoryStore.update")
            self._data[memory_id] = list(changed)
            self._forget(memory_id)
            self._index_if_late(memory_id)

    def _checked_calls(self, memory_id: str, messages: Sequence[Message], kinds: AbstractSet[type]) -> CallIndex | None:
        """Before `messages` (their classes `kinds`) are appended: `ConfigurationError` for a value
        a store cannot keep (`check_storable`), then for a tool result among them that answers no
        call (`answered`), as `SqliteStore.append` checks. A result is asked of the stored list's
        last round first (`last_round_asks`: a loop's results answer its last assistant message, a
        few steps from the end), then of the id's `CallIndex`, made from the whole list the first
        time a result answers an earlier call and kept up to date by every append from then on
        (so a conversation of late results is read once, not once per append). Returns the index
        to count the messages in once they are stored, if there is one. (`_append` asks
        `_loop_messages_answered` first: a loop's own appends pass the same checks in one pass.)"""
        check_storable(messages, "InMemoryStore.append")
        calls = self._calls.get(memory_id)
        if calls is None and kinds.isdisjoint(_RESULTS) and kinds <= _EXACT_TYPES:  # no result: nothing to check
            return None
        answered(messages, "InMemoryStore.append", calls.asks if calls is not None else self._asks_of(memory_id))
        if memory_id not in self._calls:  # a result apart from its round in the batch: counted from now on
            stored = self._data.get(memory_id, [])
            if has_late_results(messages, last_round_ids(stored)):
                self._calls[memory_id] = CallIndex.of(stored)
        return self._calls.get(memory_id)

    def _asks_of(self, memory_id: str) -> Callable[[str], bool]:
        """Whether the stored list of `memory_id` asks for a call: its last round, else its
        `CallIndex` (made now, and kept)."""
        current = self._data.get(memory_id, [])

        def asks(call_id: str) -> bool:
            if last_round_asks(current, call_id):
                return True
            calls = self._calls.get(memory_id)
            if calls is None:
                calls = self._calls[memory_id] = CallIndex.of(current)
            return calls.asks(call_id)

        return asks

    def append_in_window(self, memory_id: str, messages: Sequence[Message], window: Window) -> bool:
        """Append `messages` and drop from the front what `evict` would: the list's weight is its
        length, or the running token total (a window class of one's own is weighed in full). The
        last system message among them replaces the stored one and goes first, as `with_system`
        puts it (when the list holds no other system message; else `update` decides). `False`,
        with nothing changed, when `window_drop` cannot say."""
        memory_id = check_memory_id(memory_id, "InMemoryStore.append_in_window")
        messages = check_messages(messages, "InMemoryStore.append_in_window")
        check_window(window, "InMemoryStore.append_in_window")
        return self._append_in_window(memory_id, messages, window, None)

    def _append_in_window(
        self, memory_id: str, messages: Sequence[Message], window: Window, kinds: AbstractSet[type] | None
    ) -> bool:
        """`append_in_window` of checked arguments; `kinds`, if known, the set of the messages'
        classes (`ChatMemory.add_all` has it: no system message among them is then one set test)."""
        system = None
        if kinds is None or not kinds <= _NOT_SYSTEM:
            system = next((m for m in reversed(messages) if isinstance(m, SystemMessage)), None)
        given = messages
        if system is not None:
            messages = [m for m in messages if not isinstance(m, SystemMessage)]
        with self._lock:
            if len(given) < LONG_LIST:  # a long list given whole: its types only (the class docstring)
                given_kinds = kinds if kinds is not None else set(map(type, given))
                index, kept = self._calls.get(memory_id), self._data.get(memory_id)
                if not (given_kinds <= _EXACT_TYPES and _loop_messages_answered(given, index, kept)):
                    self._checked_calls(memory_id, given, given_kinds)
            current = self._data.get(memory_id, [])
            skip = 1 if current and isinstance(current[0], SystemMessage) else 0
            count = window.count if type(window) is TokenWindow else None
            known = self._totals.pop(memory_id, None)
            if type(window) is MessageWindow:
                stored = len(current)
            elif count is not None and known is not None and known[0] is count:
                stored = known[1]
            else:  # a window of its own (any `weights`) is weighed each time
                stored = sum(window.weights(current))
            if system is not None:
                if memory_id not in self._system_first and current:
                    if any(isinstance(m, SystemMessage) for m in current[1:]):
                        return False  # `with_system` would drop those too: `update` decides
                    self._system_first.add(memory_id)  # read once: no system message after the first
                stored += sum(window.weights([system])) - (sum(window.weights(current[:1])) if skip else 0)
            rest = joined(current, skip, messages)
            user = last_user(rest, len(current) - skip, messages, self._users.pop(memory_id, FIND))
            dropped = window_drop(rest, len(current) - skip, stored + sum(window.weights(messages)), window, user)
            if dropped is None:
                return False
            leaving, middle, total = dropped
            if not self._counted_in_window(memory_id, current, skip, leaving, middle, messages):
                return False
            if memory_id not in self._data:
                self._data[memory_id] = current
                self._system_first.add(memory_id)
            if system is not None:  # the list changes before its end: noted for the list given out
                self._handouts.first_changed(memory_id, inserted=not skip)
                if skip:
                    current[0] = system
                else:
                    current.insert(0, system)
                    skip = 1
            if middle:  # the turn's earlier rounds, after its question: not a change at the front
                self._handouts.forget(memory_id)
                del current[skip + leaving + 1 : skip + leaving + 1 + middle]
            self._handouts.dropped(memory_id, skip, leaving)
            del current[skip : skip + leaving]
            current.extend(messages)
            if count is not None:
                self._totals[memory_id] = (count, total)
            self._users[memory_id] = None if user is None else user - leaving  # (a middle drop keeps it at `leaving`)
            return True

    def _counted_in_window(
        self,
        memory_id: str,
        current: list[Message],
        skip: int,
        leaving: int,
        middle: int,
        messages: Sequence[Message],
    ) -> bool:
        """Count the `leaving` messages after `skip`, and the `middle` ones after the question
        following them (`window_drop`), out of the id's `CallIndex` and `messages` in; `False`,
        with nothing counted, when a kept or new result would lose its call (`update` decides). An
        id without an index has no late result (each result follows its own round: the index is
        made when one does not, `_asks_of`, or a `set` / `update` writes one), so a drop, which
        takes a round whole, leaves none behind: nothing to count."""
        calls = self._calls.get(memory_id)
        if calls is None:
            return True
        kept_from = skip + leaving + (middle + 1 if middle else 0)  # the question kept between asks for nothing
        gone = current[skip : skip + leaving] + current[skip + leaving + 1 : kept_from]
        calls.count(gone, -1)
        calls.count(messages, 1)
        if calls.orphans(gone, Joined(current, kept_from, messages)):
            calls.count(gone, 1)
            calls.count(messages, -1)
            return False
        return True


class _ChangeGuard:
    """A store's lock while `change` runs in its `update` (`running_change`): another thread
    waits for the lock as before; the thread running `change` is refused at once instead of
    waiting for itself forever."""

    __slots__ = ("lock", "owner", "where", "memory_id")

    def __init__(self, lock: AbstractContextManager[Any], where: str, memory_id: str) -> None:
        self.lock, self.owner, self.where, self.memory_id = lock, threading.get_ident(), where, memory_id

    def __enter__(self) -> None:
        if threading.get_ident() == self.owner:
            raise ConfigurationError(
                f"{self.where}({shown(self.memory_id)}): change used the store while it runs (the store is locked until "
                "change returns); change must only build the new messages from the list it is given: read what "
                "else it needs before update, and return new messages instead of adding them"
            )
        self.lock.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.lock.__exit__(None, None, None)


@contextmanager
def running_change(store: Any, where: str, memory_id: str) -> Iterator[None]:
    """Around `change(current)` in `store.update` (which holds `store._lock`): a call of the
    store from inside `change` (`memory.messages()`, `memory.add(...)`) raises
    `ConfigurationError` instead of hanging on the lock its own thread holds. Costs nothing
    outside `update`: the store's lock is stood in for only while `change` runs."""
    lock = store._lock
    store._lock = _ChangeGuard(lock, where, memory_id)
    try:
        yield
    finally:
        store._lock = lock


def message_tokens(message: Message) -> int:
    """The default token count of one message, as it is sent: its text (an assistant message's
    refusal when that goes as its text) plus its tool calls' names, arguments and own fields
    (Gemini's thought signature) and the fields it sends back (`extra`: a thinking model's
    `reasoning_content`), and `IMAGE_TOKENS` per image of a user message."""
    if isinstance(message, AssistantMessage):
        calls = sum(_call_tokens(c) for c in message.tool_calls)
        text = message.content
        if text is None and not message.tool_calls:  # sent with its refusal as the text (`to_openai`)
            text = message.refusal
        sent_back = estimate_json_tokens(message.extra) if message.extra else 0
        return estimate_tokens(text or "") + calls + sent_back
    if isinstance(message, UserMessage) and message.images:
        return estimate_tokens(message.content) + IMAGE_TOKENS * len(message.images)
    return estimate_tokens(message.content)


def _call_tokens(call: ToolCall) -> int:
    """A tool call's tokens as it is sent: its name, its arguments and its own fields (`extra`)."""
    sent_back = estimate_json_tokens(call.extra) if call.extra else 0
    return estimate_tokens(call.name) + estimate_tokens(call.arguments) + sent_back


def _whole(size: Any) -> Any:
    """A window's size as an `int` when it is a whole number of another type (a NumPy integer read
    from a data frame); anything else as it is, for the window to check."""
    if type(size) is not int and not isinstance(size, bool) and isinstance(size, numbers.Integral):
        return int(size)
    return size


MIN_MESSAGES = 4
"""The smallest `MessageWindow` that holds one round: system, user, a tool call and its result."""


@dataclass(frozen=True)
class MessageWindow:
    """Keep at most `max_messages` messages (the system message counts); at least `MIN_MESSAGES`."""

    max_messages: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "max_messages", _whole(self.max_messages))
        if not isinstance(self.max_messages, int) or isinstance(self.max_messages, bool):
            raise ConfigurationError(f"MessageWindow({self.max_messages!r}): max_messages must be an int")
        if self.max_messages < MIN_MESSAGES:
            raise ConfigurationError(
                f"MessageWindow({self.max_messages}): too small to hold one round (system message, user "
                f"message, a tool call and its result); use MessageWindow({MIN_MESSAGES}) or more"
            )

    @property
    def limit(self) -> int:
        """The most messages the window keeps (`max_messages`)."""
        return self.max_messages

    def weights(self, messages: Sequence[Message]) -> list[int]:
        """What each message costs against `limit`: one."""
        return [1] * len(messages)

    def fits(self, messages: Sequence[Message]) -> bool:
        """Whether `messages` fit: no more than `max_messages` of them."""
        return len(messages) <= self.max_messages


@dataclass(frozen=True)
class TokenWindow:
    """Keep at most `max_tokens` tokens, counted by `count` per message (a message record, not its
    text). `count` is tried once on a short message when the window is made, and what it gives is
    checked at every use: a count that raises or gives anything but a number, 0 or more, is a
    `ConfigurationError` naming the window and the count."""

    max_tokens: int
    count: Callable[[Message], int] = message_tokens

    def __post_init__(self) -> None:
        object.__setattr__(self, "max_tokens", _whole(self.max_tokens))
        if not isinstance(self.max_tokens, int) or isinstance(self.max_tokens, bool) or self.max_tokens < 1:
            raise ConfigurationError(
                f"TokenWindow({self.max_tokens!r}): max_tokens must be a positive int, e.g. TokenWindow(4000)"
            )
        if not callable(self.count):
            raise ConfigurationError(
                f"TokenWindow({self.max_tokens}, count={self.count!r}): count must be a function from a message "
                "to its tokens, e.g. toolkit.memory.windows.message_tokens"
            )
        if self.count is not message_tokens:  # tried once on a short message: a wrong function fails here
            self.weights([UserMessage(content="How many tokens is this?")])

    @property
    def limit(self) -> int:
        """The most tokens the window keeps (`max_tokens`)."""
        return self.max_tokens

    def weights(self, messages: Sequence[Message]) -> list[int]:
        """What each message costs against `limit`: its tokens (a float or another number type as
        one that adds up exactly, `_exact`). `ConfigurationError` when `count` raises or gives
        anything but a number, 0 or more (a window that could never be full)."""
        count = self.count
        try:
            counted: list[Any] = [count(m) for m in messages]  # a count of one's own gives any number type
        except Exception as exc:
            message = next((m for m in messages if not _counts(count, m)), None)
            raise ConfigurationError(
                f"{self._named()}: count raised {type(exc).__name__} ({_first_line(exc)}) for "
                f"{_kind(message)}; count takes a message record (not its text) and returns its tokens, "
                "e.g. lambda m: estimate_tokens(m.content or '') or toolkit.memory.windows.message_tokens"
            ) from exc
        if count is not message_tokens:
            for index, weight in enumerate(counted):
                if type(weight) is int and weight >= 0:
                    continue
                if type(weight) is int or not _is_token_count(weight):
                    raise ConfigurationError(
                        f"{self._named()}: count gave {shown(weight)} for {_kind(messages[index])}; it must return "
                        f"the message's tokens as a number, 0 or more {_count_fix(weight)}"
                    )
                counted[index] = _exact(weight)
        return counted

    def _named(self) -> str:
        return f"TokenWindow({self.max_tokens}, count={_count_name(self.count)})"

    def __repr__(self) -> str:
        """The dataclass's form, with `count` by name (its repr holds a memory address, which
        changes every run: a notebook printing the window or its memory would differ each time)."""
        if self.count is message_tokens:
            return f"TokenWindow(max_tokens={self.max_tokens})"
        return f"TokenWindow(max_tokens={self.max_tokens}, count={_count_name(self.count)})"

    def fits(self, messages: Sequence[Message]) -> bool:
        """Whether `messages` fit: their counted tokens add up to no more than `max_tokens`."""
        return sum(self.weights(messages)) <= self.max_tokens


def _count_name(count: object) -> str:
    """A token count's name: a function's qualified name, else its class's (never a repr with an address)."""
    name = getattr(count, "__qualname__", None)
    return name if isinstance(name, str) else f"{type(count).__qualname__}(...)"


def _exact(weight: Any) -> int | Fraction:
    """A token count of another number type as one that adds up exactly: a whole number as its
    `int`, a fraction as a `Fraction`, a float (`len(text) / 10`) as the decimal Python writes for
    it (`0.1` is 1/10, not the binary value a little over it). In floating point, 0.2 + 0.4 + 0.3 +
    0.1 is over 1, and a running total (a store's, added to and taken from at each append) drifts
    from a sum made anew (`evict`'s): the stores would keep different conversations."""
    if isinstance(weight, numbers.Integral):
        return int(weight)
    if isinstance(weight, numbers.Rational):
        return Fraction(weight)
    return Fraction(repr(float(weight)))


def _count_fix(weight: object) -> str:
    """What to do about a count's `weight` that is no number: a tokenizer's list of tokens (or an
    encoding holding them: its token ids) is counted by its `len`; anything else would make a window
    never full."""
    if isinstance(weight, Mapping):  # a Hugging Face tokenizer's call: its len is the number of keys
        return "(a tokenizer's encoding: the len of its token ids, e.g. len(tokenizer(text)['input_ids']))"
    if isinstance(weight, Sized) and not isinstance(weight, (str, bytes)):
        return "(a tokenizer's list of tokens: its len)"
    return "(a window counted otherwise is never full)"


def _counts(count: Callable[[Message], Any], message: Message) -> bool:
    """Whether `count(message)` returns without raising (to name the message a count fails on)."""
    try:
        count(message)
    except Exception:
        return False
    return True


def _is_token_count(weight: object) -> bool:
    """A number of tokens: a whole or finite number, 0 or more (a numpy integer or a float too)."""
    return isinstance(weight, numbers.Real) and math.isfinite(weight) and float(weight) >= 0


def _kind(message: object) -> str:
    """`a UserMessage`, `an AssistantMessage`."""
    name = type(message).__name__
    return f"{'an' if name[:1] in 'AEIO' else 'a'} {name}"


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0][:200] if lines else "no message"


Window = MessageWindow | TokenWindow
_WINDOWS = (MessageWindow, TokenWindow)
"""The window classes (anything else set on `ChatMemory.window` later is checked by the store)."""


def evict(messages: Sequence[Message], window: Window | None) -> list[Message]:
    """The messages that remain once the window is satisfied (oldest leave first, in groups).

    The current turn's user message and its current round never leave (see the module docstring),
    nor does a system message after the first place (one `set` put there): it stays, and comes
    first once everything before it has left. A call's results leave with it wherever they stand
    (one stored apart from it too). Each message is weighed once, so a long history is cut in
    linear time.
    """
    kept = list(messages)
    system = [m for m in kept[:1] if isinstance(m, SystemMessage)]
    rest = kept[len(system) :]
    if window is None:
        return system + _without_leading_results(rest)
    weights = window.weights(rest)
    total = sum(window.weights(system)) + sum(weights)
    if total <= window.limit:
        return system + _without_leading_results(rest)
    user = _last_index(rest, _said_by_user)
    current = _current_round_start(rest, user)
    before_end = user if user is not None else current
    notes: list[Message] = []  # system messages after the first that the window reached: kept
    start, total = _drop_oldest(rest, weights, 0, before_end, total, window.limit, notes)
    if start and user is not None:  # once messages leave, the kept ones start with the user's
        start, total = _drop_to_user(rest, weights, start, before_end, total, notes)
    middle = user + 1 if user is not None else current
    middle_notes: list[Message] = []
    middle_start, _ = _drop_oldest(rest, weights, middle, current, total, window.limit, middle_notes)
    protected_head = [rest[user]] if user is not None else []
    kept_rest = rest[start:before_end] + protected_head + middle_notes + rest[middle_start:current] + rest[current:]
    gone = asked_ids(rest[:start]) | asked_ids(rest[middle:middle_start])
    return system + notes + _without_leading_results(_without_results_of(kept_rest, gone) if gone else kept_rest)


def _without_results_of(kept: list[Message], gone: set[str]) -> list[Message]:
    """`kept` without the results of the calls in `gone`, which left: a result stored apart from
    its call (a second one, after the next question) leaves with it too, unless a kept assistant
    message before it asks for that id again (a reused id). A user message carrying a call's
    images is a user message, valid without its call: it stays, as the stores' appends keep it."""
    asked: set[str] = set()
    out: list[Message] = []
    for message in kept:
        if isinstance(message, AssistantMessage):
            asked.update(c.id for c in message.tool_calls)
        elif isinstance(message, ToolResultMessage) and message.tool_call_id in gone:
            if message.tool_call_id not in asked:
                continue
        out.append(message)
    return out


def _drop_oldest(
    rest: Sequence[Message], weights: list[int], start: int, end: int, total: int, limit: int, notes: list[Message]
) -> tuple[int, int]:
    """Drop whole groups from `rest[start:end]`, oldest first, while `total` is over `limit`:
    where the kept part of that span now starts, and the total left. A system message is never
    dropped (one `set` put after the first place): it is added to `notes`, its weight kept."""
    return _drop_while(rest, weights, start, end, total, notes, lambda at, left: left > limit)


def _drop_to_user(
    rest: Sequence[Message], weights: list[int], start: int, end: int, total: int, notes: list[Message]
) -> tuple[int, int]:
    """Drop whole groups from `rest[start:end]` up to the next message of the user's (chat templates
    and gateways refuse a history whose first turn is the assistant's): `_drop_oldest`'s result
    for that. A system message is kept in `notes`, as there."""
    return _drop_while(rest, weights, start, end, total, notes, lambda at, left: not _said_by_user(rest[at]))


def _drop_while(
    rest: Sequence[Message],
    weights: list[int],
    start: int,
    end: int,
    total: int,
    notes: list[Message],
    going: Callable[[int, int], bool],
) -> tuple[int, int]:
    """Drop whole groups from `rest[start:end]`, oldest first, while `going(start, total)`: where
    the kept part now starts, and the total left; a system message is kept in `notes`, its weight too."""
    while start < end and going(start, total):
        if isinstance(rest[start], SystemMessage):
            notes.append(rest[start])
            start += 1
            continue
        after = _group_end(rest, start, end)
        total -= sum(weights[start:after])
        start = after
    return start, total


def _current_round_start(rest: Sequence[Message], user: int | None) -> int:
    """Where the current round begins: the latest tool-calling reply after the user message."""
    first = 0 if user is None else user + 1
    latest = _last_index(rest, _calls_tools, first)
    return first if latest is None else latest


def _last_index(messages: Sequence[Message], test: Callable[[Message], bool], start: int = 0) -> int | None:
    """The index of the last message from `start` on that passes `test` (read from the end: the
    current turn is near it, however long the conversation)."""
    for i in range(len(messages) - 1, start - 1, -1):
        if test(messages[i]):
            return i
    return None


def _calls_tools(message: Message) -> bool:
    return isinstance(message, AssistantMessage) and bool(message.tool_calls)


def _said_by_user(message: Message) -> bool:
    return isinstance(message, UserMessage) and not message.from_tool_calls


def _round_part(message: Message) -> bool:
    """A tool result, or the user message the loop wrote to carry the results' images."""
    return isinstance(message, ToolResultMessage) or (
        isinstance(message, UserMessage) and bool(message.from_tool_calls)
    )


def _without_leading_results(rest: list[Message]) -> list[Message]:
    """Never start with an orphan result (or its images): they are dropped, with one copy."""
    start = 0
    while start < len(rest) and _round_part(rest[start]):
        start += 1
    return rest[start:] if start else rest


def _group_end(messages: Sequence[Message], start: int, end: int) -> int:
    """Where the group starting at `start` ends (before `end`): an assistant message with tool
    calls leaves with the results that follow it."""
    first = messages[start]
    if not (isinstance(first, AssistantMessage) and first.tool_calls):
        return start + 1
    after = start + 1
    while after < end and _round_part(messages[after]):
        after += 1
    return after


FIND = -1
"""`window_drop`'s `user` when the index of the user's last message is not known: it is looked for."""


def front_drop(rest: Sequence[Message], stored: int, total: int, window: Window) -> tuple[int, int] | None:
    """`window_drop` when only whole groups from the front leave: (how many, the total left); None
    when it cannot say, or when the current turn's earlier rounds would leave too."""
    dropped = window_drop(rest, stored, total, window)
    return None if dropped is None or dropped[1] else (dropped[0], dropped[2])


def window_drop(
    rest: Sequence[Message], stored: int, total: int, window: Window, user: int | None = FIND
) -> tuple[int, int, int] | None:
    """Appending without reading the whole conversation: which messages leave, as `evict` drops them.

    `rest` is the stored conversation after its system message, then the new messages (none of
    them a system message); the first `stored` of `rest` are stored; `total` is the weight of it
    all, system message included. Whole groups leave from the front, oldest first, while the
    total is over the window's limit, exactly as `evict` drops them, up to the user's last message;
    then, while it is still over, the current turn's earlier rounds, oldest first, from just after
    that message (an agent's long turn: `evict` keeps the question and the latest rounds). A
    current turn of one round (a round of many results, one of 10 MB) is kept over the limit, as
    `evict` keeps it. Returns (`front`, `middle`, the total left): the first `front` messages
    leave, then, when `middle` is more than 0, the `middle` messages after `rest[front]` (the
    user's last message, which stays), so that what is left of the stored list, plus the new
    messages, is what `evict` gives; or None when only `evict` can say: a new message would
    leave too, the current turn would be cut into (no message of the user's is left after the
    cut), or a tool result would lead the kept messages, or a system message would leave
    (`evict` keeps it). `user` is the index of the user's last message in `rest` (None: there is
    none), as `last_user` gives it; `FIND` (the default): it is looked for from the end once the
    total is over, reading the current turn. Reads the messages that leave, one group more, and
    the current round from the end.

    Why it equals `evict`: `evict` drops the same groups, in the same order, while they start
    before the user's last message; when a message of the user's is left after the cut, every
    group dropped here started before it, and only when the front reached it does `evict`'s
    second step (the current turn's earlier rounds) drop anything: the same groups, from the
    same total. `tests/test_memory_window_appends.py` holds the two equal on random conversations.
    """
    leaving, limit, each_one = 0, window.limit, type(window) is MessageWindow
    while total > limit:
        if user == FIND:  # the user's last message (looked for once the window is over): `evict` stops there
            user = _last_index(rest, _said_by_user)
        if leaving == user:  # the rest is the current turn: kept whole, over the limit, unless it has rounds
            return _middle_drop(rest, stored, total, window, user)  # before its current one: `evict` drops those
        if leaving >= stored:
            return None
        end = _group_end(rest, leaving, len(rest))
        if end > stored or isinstance(rest[leaving], SystemMessage):  # a system message never leaves: `evict` keeps it
            return None
        total -= end - leaving if each_one else sum(window.weights([rest[i] for i in range(leaving, end)]))
        leaving = end
    while leaving and leaving < len(rest) and not _said_by_user(rest[leaving]):  # up to the user's, as `evict`
        end = _group_end(rest, leaving, len(rest))
        if end > stored or isinstance(rest[leaving], SystemMessage):
            return None
        total -= end - leaving if each_one else sum(window.weights([rest[i] for i in range(leaving, end)]))
        leaving = end
    if leaving < len(rest) and _round_part(rest[leaving]):
        return None  # `evict` would drop that orphan result too
    if leaving and (user is None or user < leaving):  # (`user` was found: something left)
        return None  # `evict` never cuts the current turn this way: let it decide
    return leaving, 0, total


def _middle_drop(
    rest: Sequence[Message], stored: int, total: int, window: Window, user: int
) -> tuple[int, int, int] | None:
    """`window_drop` once every message before `rest[user]`, the user's last, has left and the
    total is still over the limit: the current turn's rounds before its current one leave, oldest
    first, while it is (`evict`'s second step). None when a new message or a system message would leave."""
    current, start, each_one = _current_round_start(rest, user), user + 1, type(window) is MessageWindow
    while total > window.limit and start < current:
        end = _group_end(rest, start, current)
        if end > stored or isinstance(rest[start], SystemMessage):  # `evict` keeps a system message here too
            return None
        total -= end - start if each_one else sum(window.weights([rest[i] for i in range(start, end)]))
        start = end
    return user, start - user - 1, total


def last_user(rest: Sequence[Message], stored: int, new: Sequence[Message], known: int | None = FIND) -> int | None:
    """The index in `rest` (`window_drop`'s: the `stored` messages, then the `new` ones) of the
    user's last message, None when there is none: a new one, read from the end (a few), else
    `known`, its index among the stored ones kept from the last append (`FIND`: not known, then
    looked for from the end, reading the current turn: an agent's long turn, once)."""
    index = len(new)
    for message in reversed(new):
        index -= 1
        if isinstance(message, UserMessage) and not message.from_tool_calls:
            return stored + index
    if known != FIND:
        return known
    for i in range(stored - 1, -1, -1):
        if _said_by_user(rest[i]):
            return i
    return None


class Joined(Sequence[Message]):
    """`head[skip:] + tail` read by index, without copying either (`front_drop`'s `rest` beside a
    long stored list). Its length is taken once: neither part may change while it is read."""

    __slots__ = ("head", "length", "skip", "split", "tail")

    head: Sequence[Message]
    """The first part (its first `skip` messages left out)."""
    skip: int
    """How many of `head`'s first messages are left out."""
    tail: Sequence[Message]
    """The second part, read after `head[skip:]`."""
    split: int
    """The index of `tail`'s first message (`len(head) - skip`)."""
    length: int
    """The number of messages (taken once)."""

    def __init__(self, head: Sequence[Message], skip: int, tail: Sequence[Message]) -> None:
        self.head, self.skip, self.tail = head, skip, tail
        self.split = len(head) - skip
        self.length = self.split + len(tail)

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: Any) -> Any:
        if type(index) is not int or not 0 <= index < self.length:
            raise IndexError(index)  # plain indexes only: what `front_drop` reads
        return self.head[self.skip + index] if index < self.split else self.tail[index - self.split]


def joined(head: list[Message], skip: int, tail: Sequence[Message]) -> Sequence[Message]:
    """`head[skip:] + tail` for `front_drop`: a new list while `head` is short (reading a list is
    quicker than reading a `Joined`), a `Joined` view once it is long (no copy: the cost of an
    append stays the same however long the stored conversation grows)."""
    if len(head) < LONG_LIST:
        rest = head[skip:]
        rest += tail
        return rest
    return Joined(head, skip, tail)


MAX_ID_CHARS = 4096
"""The characters a memory id may have: a user's id, a session's, a JSON Web Token, a hash fit; a text pasted where the
id goes, or a request header a stranger fills, does not (each stored message carries its id)."""


def check_memory_id(memory_id: object, where: str = "ChatMemory", *, stored: bool = False) -> str:
    """`memory_id` if it is a non-empty string that is valid Unicode text in composed form (NFC);
    else `MemoryIdError` saying why and what to do. `stored=True` (a store's `get` and `delete`)
    also takes an id in another form, so a conversation an older version stored under it can still
    be read and removed."""
    if type(memory_id) is str and memory_id.isascii() and memory_id.strip() and len(memory_id) <= MAX_ID_CHARS:
        return memory_id  # the usual id: three calls, not five
    if memory_id is None or (isinstance(memory_id, str) and not memory_id.strip()):
        raise MemoryIdError(
            f"{where}: memory id {shown(memory_id)} is missing; every conversation needs its own id (e.g. the "
            "user's id) — with a missing id, every anonymous user would share one conversation"
        )
    if not isinstance(memory_id, str):
        raise MemoryIdError(
            f"{where}: memory id {shown(memory_id)} is not a string ({type(memory_id).__name__}); {_id_fix(memory_id)}"
        )
    if len(memory_id) > MAX_ID_CHARS:
        raise MemoryIdError(
            f"{where}: memory id {shown(memory_id[:SHOWN])} is {len(memory_id):,} characters long, past the "
            f"{MAX_ID_CHARS:,} an id may have (every stored message carries its id: a 10 MB id made each message "
            "of SqliteStore 10 MB); use a short key for the conversation, e.g. "
            "hashlib.sha256(memory_id.encode()).hexdigest()"
        )
    if not memory_id.isascii() and not is_utf8(
        memory_id
    ):  # every store alike: code written on `InMemoryStore` works on `SqliteStore`
        raise MemoryIdError(
            f"{where}: memory id {shown(memory_id)} is not valid Unicode text (it holds a lone surrogate, e.g. from "
            "os.fsdecode), which SqliteStore cannot store; decode the bytes it came from properly"
        )
    if not stored and not memory_id.isascii() and not unicodedata.is_normalized("NFC", memory_id):
        raise MemoryIdError(_not_composed(memory_id, where))
    return memory_id


def _not_composed(memory_id: str, where: str) -> str:
    """Why an id not in NFC is refused rather than composed: the two spellings look alike, and
    composing would silently merge two ids the caller's own system may keep apart (two users)."""
    return (
        f"{where}: memory id {cut(ascii(memory_id), SHOWN)} is not in composed Unicode form (NFC): it looks like "
        f"{shown(unicodedata.normalize('NFC', memory_id))} but is spelt with other characters, and "
        "the two would be two conversations; if they are one user, pass unicodedata.normalize('NFC', memory_id) "
        "(a conversation stored under this spelling stays readable with store.get and removable with store.delete)"
    )


def _id_fix(memory_id: object) -> str:
    """What to do about an id that is not a string: `str(...)` suits a number, not bytes (whose
    str is "b'...'") nor the conversation itself passed where the id goes."""
    if isinstance(memory_id, (bytes, bytearray)):
        return "memory ids are strings, so decode the bytes first, e.g. memory_id.decode('utf-8')"
    if isinstance(memory_id, (list, tuple)) and any(isinstance(m, MESSAGE_TYPES) for m in memory_id):
        return (
            "the first argument is the conversation's id, not its messages: ChatMemory('user-1'), then "
            "memory.add(*messages)"
        )
    return f"memory ids are strings, so pass str({shown(memory_id)}) explicitly (1 and '1' are never merged silently)"


SHOWN = 80
"""The longest repr an error message shows of what a caller passed (an id or a window can be
anything: a whole conversation, a data frame)."""


def check_store(store: object, opening: str) -> None:
    """What `ChatMemory` asks of a store (get, set, delete), asked where the store is given; `opening`
    is what the error writes before `store=` (`ChatMemory('ann', `, `memory_per_id(`). The class
    itself (`store=SqliteStore`) was a raw TypeError from its `turn_lock` at the first write."""
    if isinstance(store, type):
        made = f"{store.__name__}('memory.db')" if store.__name__ == "SqliteStore" else f"{store.__name__}()"
        raise ConfigurationError(
            f"{opening}store={store.__name__}): that is the class, not a store; make one: store={made}"
        )
    missing = [name for name in ("get", "set", "delete") if not callable(getattr(store, name, None))]
    if missing:
        raise ConfigurationError(
            f"{opening}store={shown(store)}): not a store (no {', '.join(missing)}); use InMemoryStore(), "
            "SqliteStore(path) or an object with get, set and delete"
        )


def shown(value: object) -> str:
    """`repr(value)`, cut to `SHOWN` characters."""
    try:
        text = repr(value)
    except Exception:  # a repr that fails: the type still says what it is
        text = f"<{type(value).__name__} object>"
    return cut(text, SHOWN)


def check_window(window: object, where: str = "ChatMemory") -> None:
    """`ConfigurationError` unless `window` is a window: `MessageWindow`, `TokenWindow`, or a
    class of one's own with `weights(messages)` and `limit`."""
    if type(window) is MessageWindow or type(window) is TokenWindow:
        return
    if isinstance(
        window, type
    ):  # `window=MessageWindow`: its `weights` wants an instance, and failed at the first write
        raise ConfigurationError(
            f"{where}: window {window.__name__} is the class, not a window; make one: "
            f"window={window.__name__}({4000 if window.__name__ == 'TokenWindow' else 20})"
        )
    if not callable(getattr(window, "weights", None)) or not hasattr(window, "limit"):
        raise ConfigurationError(
            f"{where}: window {shown(window)} is not a window ({type(window).__name__}); use MessageWindow(n), "
            "TokenWindow(n) or None for no window"
        )


def _listed(messages: object, where: str) -> list[Message]:
    """An iterable read once into a list (its items are checked after); `ConfigurationError` for
    anything that is not iterable (`None`, a number), one message (a record is iterable: it was
    read field by field, "message 0 (tuple) is not a message record"), a set (read in hash order),
    a text or a dict (read letter by letter, key by key)."""
    if (
        isinstance(messages, (set, frozenset, str, bytes, Mapping))  # a str read letter by letter, a dict by its keys
        or not isinstance(messages, Iterable)
        or isinstance(messages, MESSAGE_TYPES)
    ):
        raise _no_list(messages, where)
    return list(messages)


def _no_list(messages: object, where: str) -> ConfigurationError:
    """The error for `messages` that are no list of them, naming the fix: a set has no order (its
    messages would be stored in hash order), anything else (one message, `None`) goes in a list."""
    if isinstance(messages, (set, frozenset)):
        return ConfigurationError(
            f"{where}: expected a list of messages, got a {type(messages).__name__}, which has no order (its "
            "messages would be stored in another order in each process); give a list, in the conversation's order"
        )
    if isinstance(messages, (str, bytes)):
        fix = "a text goes in a message record: pass [UserMessage(content=...)]"
    elif isinstance(messages, Mapping):  # an OpenAI-format message, say
        fix = "a dict is no message record: pass records, e.g. [UserMessage(content=...)]"
    else:
        fix = "wrap a single message in a list"
    return ConfigurationError(f"{where}: expected a list of messages, got {type(messages).__name__}; {fix}")


_EXACT_TYPES = frozenset(MESSAGE_TYPES)
"""The classes themselves: a set lookup answers for nearly every message before `isinstance`."""
_NOT_SYSTEM = _EXACT_TYPES - {SystemMessage}
_NO_CALLS = frozenset({SystemMessage, UserMessage})
"""Messages that neither ask for a call nor answer one (`InMemoryStore._checked_calls`)."""
_RESULTS = frozenset({ToolResultMessage})


def _loop_messages_answered(messages: Sequence[Message], calls: CallIndex | None, stored: list[Message] | None) -> bool:
    """`check_storable` and `answered` of messages of the four records themselves (what a loop
    appends, and what a learner adds), in one pass, for an id without a `CallIndex` (`calls`
    None: no result of its `stored` list is apart from its round): True when no message holds a
    free-form value and every result answers its own round (of these messages, or the stored
    list's last, `last_round_asks`); else False, having raised nothing, for
    `InMemoryStore._checked_calls` to decide (and say what is wrong, or start the index)."""
    if calls is not None:
        return False
    round_ids: set[str] | None = None  # None: the stored list's last round goes on
    for message in messages:
        if type(message) is AssistantMessage:
            if message.extra:
                return False
            round_ids = set()
            for call in message.tool_calls:
                if call.extra:
                    return False
                round_ids.add(call.id)
        elif type(message) is ToolResultMessage:
            call_id = message.tool_call_id
            if message.attributes:
                return False
            if round_ids is not None:
                if call_id not in round_ids:
                    return False
            elif not stored or not asks_for(stored[-1], call_id) and not last_round_asks(stored, call_id):
                return False  # (the last message first: a loop's results follow their call at once)
        elif type(message) is not UserMessage or not message.from_tool_calls:  # a question ends the round
            round_ids = set()
    return True


LONG_LIST = 64
"""From this many messages on, `turns_copy` checks them in pydantic-core (below it, `set(map(type, …))`
is as quick)."""
_ONLY_TURNS = SchemaValidator(core_schema.list_schema(core_schema.is_instance_schema(TurnMessage), fail_fast=True))


def turns_copy(messages: Sequence[object]) -> list[Message] | None:
    """A new list of `messages` (a list or tuple) when it is long and holds user, assistant and
    tool-result messages only (subclasses too); else `None`. One pass in pydantic-core: an
    `isinstance(m, TurnMessage)` per message (`TurnMessage` is a plain class, so the test is a
    walk up the class's bases) and the copy a store keeps, where `set(map(type, …))` calls `type`
    on each and the store copies after it.

    The last long list that passed is kept (`_last_turns`): a list equal to it, element by
    element (the same objects cost a pointer comparison each, in C), is copied without asking
    again, as a conversation passed in whole every turn (the history a caller keeps) is."""
    if len(messages) < LONG_LIST:
        return None
    if _same_as_last(messages, _last_turns):  # the list that passed last time
        return list(cast("Sequence[Message]", messages))  # the given objects (an equal copy too)
    try:
        copy: list[Message] = _ONLY_TURNS.validate_python(messages)
    except ValidationError:
        return None
    _set_last_turns(messages[:])  # its own copy: the caller's list may change, the store's grows
    return copy


_last_turns: Sequence[object] = ()
"""The last long list `turns_copy` passed, as it was then (a list or tuple, as given): one, replaced
whole, so a thread reads the old one or the new one. Equal to it is passed: an element the caller
replaced since by one that compares equal to it (a message with the same fields) is one of the
four records or a subclass, as `==` on a record is pydantic's, which compares records only
(something whose own `==` says it equals anything, `mock.ANY`, is the one exception)."""


def _same_as_last(messages: Sequence[object], last: Sequence[object]) -> bool:
    """Whether `messages` equals `last` (`_last_turns`), asked only where both are of one type and
    length and begin and end with the very same objects (a list passed again): equal records that
    are other objects (a history read anew from a store for each turn) would each be compared by
    pydantic's `==`, several times what checking them costs, so they are checked instead. False
    when comparing raises (something whose `==` fails on a record: `validate_python` decides)."""
    if type(messages) is not type(last) or len(messages) != len(last):
        return False
    if messages[0] is not last[0] or messages[-1] is not last[-1]:
        return False
    try:
        return bool(last == messages)
    except Exception:
        return False


def _set_last_turns(messages: Sequence[object]) -> None:
    global _last_turns
    _last_turns = messages


def checked_kinds(messages: Sequence[object], where: str) -> tuple[AbstractSet[type], list[Message] | None]:
    """The classes in `messages` (a list or tuple) and, for a long list of turns only, the copy
    `turns_copy` made (`_NOT_SYSTEM` then stands for its classes); `ConfigurationError` naming
    `where` if anything in it is not a message (a subclass passes). One C-speed pass for the
    usual list, shared by `ChatMemory.add_all` and `InMemoryStore.append`."""
    turns = turns_copy(messages) if len(messages) >= LONG_LIST else None  # a long list: checked and copied at once
    kinds = _NOT_SYSTEM if turns is not None else set(map(type, messages))
    if not kinds <= _EXACT_TYPES:
        check_messages(messages, where)
    return kinds, turns


def check_messages(messages: object, where: str) -> list[Message]:
    """`messages` as a list if it is a sequence of messages (a list comes back as it is); else
    `ConfigurationError` naming the first misfit. On every write: one C-speed pass of `type` for
    the usual list, `isinstance` per message only when a subclass (or a misfit) is in it."""
    if type(messages) is not list and type(messages) is not tuple:
        if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
            raise _no_list(messages, where)
    turns = turns_copy(messages)  # a long list of turns: one pass in pydantic-core
    if turns is not None:
        return messages if type(messages) is list else turns
    if set(map(type, messages)) <= _EXACT_TYPES:  # one C-speed pass for the usual list
        return messages if type(messages) is list else list(messages)
    for message in messages:
        if type(message) not in _EXACT_TYPES and not isinstance(message, MESSAGE_TYPES):
            index = next(i for i, m in enumerate(messages) if m is message)
            raise ConfigurationError(
                f"{where}: message {index} ({type(message).__name__}) is not a message record; store "
                "SystemMessage, UserMessage, AssistantMessage or ToolResultMessage records"
            )
    return messages if type(messages) is list else list(messages)


class ChatMemory:
    """The conversation of one memory id, windowed, written through to its store."""

    def __init__(
        self, memory_id: str = "default", *, store: ChatMemoryStore | None = None, window: Window | None = None
    ) -> None:
        self.id: str = check_memory_id(memory_id)
        if store is not None and type(store) is not InMemoryStore:
            check_store(store, f"ChatMemory({shown(memory_id)}, ")
        if window is not None:
            check_window(window, f"ChatMemory({shown(memory_id)})")
        self.store: ChatMemoryStore = store if store is not None else InMemoryStore()
        self.window = window
        self.lock: TurnLockLike = store_turn_lock(self.store, self.id)
        """Held by whoever runs a whole exchange on this id, so turns don't interleave: the same lock
        for every `ChatMemory` on this store and id (see the module docstring)."""

    def __repr__(self) -> str:
        return f"ChatMemory({self.id!r}, window={self.window!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Sent to another process as its id, store and window (the store says whether it can go:
        a `SqliteStore` can); its turn lock there is that process's, as one made there would get."""
        return (_restored_memory, (self.id, self.store, self.window))

    def messages(self) -> list[Message]:
        """The conversation as stored (what the window kept), oldest first."""
        return self.store.get(self.id)

    def add(self, *messages: Message) -> None:
        """Append `messages`, then evict what the window no longer holds (`add_all` takes a list)."""
        self.add_all(messages)

    def add_all(self, messages: Iterable[Message]) -> None:
        """`add(*messages)`, taking the list itself: a long history is not copied into a tuple first
        (any other iterable is, as unpacking it would)."""
        if type(messages) is not list and type(messages) is not tuple:
            messages = tuple(_listed(messages, "ChatMemory.add"))  # read once: asked below, then added
        listed = messages

        def system_only() -> bool:  # asked only while a tool of this memory's turn runs
            return all(isinstance(m, SystemMessage) for m in listed)

        hold = write_hold(self.lock, "ChatMemory.add", self.id, system_only)
        try:
            with hold:
                self.add_all_held(messages)
        except BaseException:
            let_go(hold)  # one a Ctrl-C as its `__exit__` began kept (every other thread's turn waited for ever)
            raise

    def add_all_held(self, messages: Iterable[Message]) -> None:
        """`add_all` by the holder of `lock` (the loop, during its turn): the same, without taking
        the lock again for each write."""
        if type(messages) is not list and type(messages) is not tuple:
            messages = tuple(_listed(messages, "ChatMemory.add"))
        if len(messages) < LONG_LIST:  # `checked_kinds` of the usual short list, written out (a write a message)
            kinds: AbstractSet[type] = {type(messages[0])} if len(messages) == 1 else set(map(type, messages))
            turns = None
            if not kinds <= _EXACT_TYPES:
                check_messages(messages, "ChatMemory.add")
        else:
            kinds, turns = checked_kinds(messages, "ChatMemory.add")  # shared with `InMemoryStore`
        if self.window is None:
            if type(self.store) is InMemoryStore:
                self.store._append(self.id, messages, kinds, turns)
                return
            append = getattr(self.store, "append", None)
            if append is not None:
                append(self.id, tuple(messages))  # as `add` gives it: never the caller's list itself
                return
        if not self._appended_in_window(messages, kinds):
            # refused as the store's own append refuses (a store of one's own without one: as `add`)
            where = f"{type(self.store).__name__}.append" if hasattr(self.store, "append") else "ChatMemory.add"

            def appended(current: list[Message]) -> list[Message]:
                check_storable(messages, where)  # in the order `append` checks
                return _merged(current, answered(messages, where, CallIndex.of(current).asks))

            self.update(appended)

    def _appended_in_window(self, messages: Sequence[Message], kinds: AbstractSet[type]) -> bool:
        """Whether the store appended `messages` within the window (`append_in_window`); `False`
        when there is no window, or the store has no such method or cannot say (`update` decides)."""
        window = self.window
        if (  # the two windows by exact type first: asked on every write
            (type(window) is MessageWindow or type(window) is TokenWindow or isinstance(window, _WINDOWS))
            and type(self.store) is InMemoryStore
        ):  # id and messages checked here
            return self.store._append_in_window(self.id, tuple(messages), window, kinds)
        in_window = getattr(self.store, "append_in_window", None)
        return window is not None and in_window is not None and bool(in_window(self.id, tuple(messages), window))

    def update(self, change: Callable[[list[Message]], list[Message]]) -> None:
        """Apply `change(current) -> new` (then the window) in one step of the store. `change` works
        on the list it is given: one that uses the store (`messages()`, `add`) raises `ConfigurationError`."""
        if not callable(change):
            raise ConfigurationError(
                f"ChatMemory.update: change must be a function of the current messages returning the new ones, not "
                f"{type(change).__name__}; to replace them all, use set(messages)"
            )

        def windowed(current: list[Message]) -> list[Message]:
            return evict(check_messages(change(current), "ChatMemory.update"), self.window)

        hold = write_hold(self.lock, "ChatMemory.update", self.id)
        try:
            with hold:
                update = getattr(self.store, "update", None)
                if update is not None:
                    update(self.id, windowed)
                else:
                    self.store.set(self.id, windowed(self.store.get(self.id)))
        except BaseException:
            let_go(hold)  # as `add_all`'s
            raise

    def set(self, messages: Sequence[Message]) -> None:
        """Replace the whole conversation (used when compensation rewrites history)."""
        hold = write_hold(self.lock, "ChatMemory.set", self.id)
        try:
            with hold:
                self.store.set(self.id, evict(check_messages(messages, "ChatMemory.set"), self.window))
        except BaseException:
            let_go(hold)  # as `add_all`'s
            raise

    def clear(self) -> None:
        """Forget this conversation: its messages are deleted from the store."""
        hold = write_hold(self.lock, "ChatMemory.clear", self.id)
        try:
            with hold:
                self.store.delete(self.id)
        except BaseException:
            let_go(hold)  # as `add_all`'s
            raise


def _restored_memory(memory_id: str, store: ChatMemoryStore, window: Window | None) -> ChatMemory:
    return ChatMemory(memory_id, store=store, window=window)


def _merged(current: list[Message], messages: Sequence[Message]) -> list[Message]:
    """`current` and then `messages` (a new copy), each system message among them replacing the
    one before it and going first: one system message at most, the last one given."""
    merged = list(current)
    system: SystemMessage | None = None
    for message in messages:
        if isinstance(message, SystemMessage):
            system = message
        else:
            merged.append(message)
    return with_system(merged, system) if system is not None else merged


def with_system(messages: list[Message], system: SystemMessage) -> list[Message]:
    """A new system message replaces the old one and goes first."""
    return [system] + [m for m in messages if not isinstance(m, SystemMessage)]
