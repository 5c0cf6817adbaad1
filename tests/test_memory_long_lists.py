"""A long list checked in pydantic-core (`toolkit.memory.windows.turns_copy`): the same answer as
asking `isinstance` of each message, for random lists of messages, subclasses and misfits on
both sides of `LONG_LIST`; the same errors, by exact text, for a long list with a misfit; and the
same conversation stored through every path a long list takes."""

from __future__ import annotations

import random
from typing import ClassVar
from unittest import mock

import pytest

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ConfigurationError
from toolkit.memory.windows import (
    LONG_LIST,
    ChatMemory,
    InMemoryStore,
    MessageWindow,
    TokenWindow,
    check_messages,
    turns_copy,
)


class MyUser(UserMessage):
    """A subclass a course might add."""


class MyAssistant(AssistantMessage):
    pass


class MySystem(SystemMessage):
    pass


TURNS = (UserMessage, AssistantMessage, ToolResultMessage)


def _item(rng: random.Random, k: int, misfits: bool) -> object:
    roll = rng.random()
    if roll < 0.3:
        return UserMessage(content=f"q{k}")
    if roll < 0.5:
        return AssistantMessage(content=f"a{k}")
    if roll < 0.6:
        return ToolResultMessage(tool_call_id=f"c{k}", content="r")
    if roll < 0.7:
        return MyUser(content="mine")
    if roll < 0.75:
        return MyAssistant(content="mine")
    if roll < 0.8:
        return SystemMessage(content="s")
    if roll < 0.82:
        return MySystem(content="s")
    if not misfits or roll < 0.9:
        return UserMessage(content="plain")
    return rng.choice([{"role": "user", "content": "x"}, "text", 5, None, mock.Mock(spec=UserMessage), mock.Mock()])


@pytest.mark.parametrize("seed", range(300))
def test_the_long_check_answers_as_isinstance_does(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice([0, 1, LONG_LIST - 1, LONG_LIST, LONG_LIST + 1, 500])
    mostly = rng.random() < 0.7  # most lists hold turns only, the case the check is for
    items = [
        _item(rng, k, misfits=not mostly) if not mostly or rng.random() < 0.001 else UserMessage(content=str(k))
        for k in range(size)
    ]
    for given in (items, tuple(items)):
        copy = turns_copy(given)
        expected = len(given) >= LONG_LIST and all(isinstance(m, TURNS) for m in given)
        assert (copy is not None) == expected
        if copy is not None:
            assert type(copy) is list and copy is not given and len(copy) == len(given)
            assert all(a is b for a, b in zip(copy, given, strict=True))


def test_a_long_list_with_a_misfit_gets_the_same_error() -> None:
    long = [UserMessage(content=str(k)) for k in range(LONG_LIST * 2)]
    for where, bad in [(3, "text"), (LONG_LIST + 5, {"role": "user"}), (LONG_LIST * 2 - 1, 7)]:
        items = long[:where] + [bad] + long[where:]
        kind = type(bad).__name__
        expected = (
            f"ChatMemory.add: message {where} ({kind}) is not a message record; store SystemMessage, UserMessage, "
            "AssistantMessage or ToolResultMessage records"
        )
        with pytest.raises(ConfigurationError) as caught:
            ChatMemory().add_all(items)
        assert str(caught.value) == expected
        with pytest.raises(ConfigurationError) as caught:
            check_messages(tuple(items), "SqliteStore.append")
        assert str(caught.value) == expected.replace("ChatMemory.add", "SqliteStore.append")
        store = InMemoryStore()
        with pytest.raises(ConfigurationError):
            store.append("a", items)
        assert store.get("a") == []


def _conversation(rng: random.Random, size: int) -> list:
    out: list = []
    k = 0
    while len(out) < size:
        k += 1
        call = ToolCall(id=f"c{k}", name="t", arguments="{}")
        kind = rng.choice([UserMessage, MyUser])
        out += [kind(content=f"q{k}"), AssistantMessage(tool_calls=(call,))]
        out += [ToolResultMessage(tool_call_id=call.id, content="r"), MyAssistant(content=f"a{k}")]
    return out[:size]


class _PlainStore:
    """A store with `get`, `set` and `delete` only: `ChatMemory` reads, changes and writes back."""

    def __init__(self) -> None:
        self.data: dict[str, list] = {}

    def get(self, memory_id: str) -> list:
        return list(self.data.get(memory_id, ()))

    def set(self, memory_id: str, messages) -> None:
        self.data[memory_id] = list(messages)

    def delete(self, memory_id: str) -> None:
        self.data.pop(memory_id, None)


@pytest.mark.parametrize("seed", range(60))
def test_a_long_list_is_stored_as_the_plain_path_stores_it(seed: int) -> None:
    """Through `add_all` and `InMemoryStore.append`, with and without a window, with a system
    message before, among or after it: what is stored is what read-change-write stores."""
    rng = random.Random(seed)
    window = rng.choice([None, MessageWindow(50), TokenWindow(400), MessageWindow(100_000)])
    before = [SystemMessage(content="first")] if rng.random() < 0.5 else []
    batch = _conversation(rng, rng.choice([LONG_LIST, 200]))
    if rng.random() < 0.3:
        batch.insert(rng.randrange(len(batch)), rng.choice([SystemMessage, MySystem])(content="among"))
    fast, slow = ChatMemory(window=window), ChatMemory(store=_PlainStore(), window=window)
    for memory in (fast, slow):
        if before:  # else the batch is the first write: the store keeps the copy the check made
            memory.add_all(before)
        memory.add_all(batch)
    reference = slow.messages()
    assert fast.messages() == reference
    assert [type(m) for m in fast.messages()] == [type(m) for m in reference]
    if window is None:
        store = InMemoryStore()
        if before:
            store.append("a", before)
        store.append("a", tuple(batch))
        assert store.get("a") == reference


def test_the_store_never_keeps_the_callers_list() -> None:
    for size in (3, LONG_LIST, 300):
        history = [UserMessage(content=str(k)) for k in range(size)]
        memory = ChatMemory()
        memory.add_all(history)
        store = InMemoryStore()
        store.append("a", history)
        history.append("changed afterwards")  # type: ignore[arg-type]
        history[0] = AssistantMessage(content="changed")
        assert memory.messages() == store.get("a") == [UserMessage(content=str(k)) for k in range(size)]


@pytest.mark.parametrize("seed", range(100))
def test_a_list_checked_again_answers_as_the_first_check_does(seed: int) -> None:
    """`turns_copy` passes a list equal to the last one that passed without asking again: after the
    caller changes it in place (a misfit, an equal copy, another message, a longer or shorter list),
    or hands a tuple of it, the answer is still `isinstance`'s, and the copy holds the given objects.
    (Something whose own `==` says it equals any message, `mock.ANY`, put in place of a message of
    that very list, would pass: the one exception, written in `turns_copy`'s notes.)"""
    rng = random.Random(seed)
    items: list[object] = [UserMessage(content=str(k)) for k in range(rng.choice([LONG_LIST, 200]))]
    assert turns_copy(items) is not None
    for _ in range(6):
        where = rng.randrange(len(items))
        change = rng.choice(["misfit", "mock", "copy", "other", "grow", "shrink", "tuple", "none"])
        if change == "misfit":
            items[where] = rng.choice(["text", 5, None, {"role": "user"}, SystemMessage(content="s")])
        elif change == "mock":
            items[where] = mock.Mock()
        elif change == "copy" and isinstance(items[where], UserMessage):
            items[where] = items[where].model_copy()  # type: ignore[union-attr]
        elif change == "other":
            items[where] = MyUser(content="other")
        elif change == "grow":
            items.append(UserMessage(content="more"))
        elif change == "shrink" and len(items) > LONG_LIST:
            del items[-1]
        given = tuple(items) if change == "tuple" else items
        copy = turns_copy(given)
        assert (copy is not None) == all(isinstance(m, TURNS) for m in given)
        if copy is not None:
            assert type(copy) is list and copy is not given
            assert all(a is b for a, b in zip(copy, given, strict=True))
        items = [m if isinstance(m, TURNS) else UserMessage(content="back") for m in items]  # passes again
        assert turns_copy(items) is not None


class Counted(UserMessage):
    """A user message that counts how often `==` asks it."""

    asked: ClassVar[int] = 0

    def __eq__(self, other: object) -> bool:
        type(self).asked += 1
        return super().__eq__(other)

    __hash__ = UserMessage.__hash__


def test_equal_records_that_are_other_objects_are_checked_not_compared() -> None:
    """A history read anew for each turn (a store's rows made into records again) is equal to the last
    list that passed but holds other objects: comparing them is pydantic's `==` on each, several times
    what checking them costs, so `turns_copy` checks them; the very same list passed again is compared
    by its objects' identity alone (no `==` asked)."""
    first = [Counted(content=str(k)) for k in range(LONG_LIST * 2)]
    again = [m.model_copy() for m in first]
    Counted.asked = 0
    for given in (first, again, first, first, again):
        copy = turns_copy(given)
        assert copy is not None and all(a is b for a, b in zip(copy, given, strict=True))
    assert Counted.asked == 0
