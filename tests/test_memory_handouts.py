"""`InMemoryStore.get` giving out its last list again (`toolkit.memory.handouts`): every read equal
to the stored conversation, no list anyone holds ever changing, for random reads, writes and
readers that keep, change or drop what they read; the list reused only when nobody kept or
changed it; the loop's requests each the conversation as it was when sent."""

from __future__ import annotations

import random

import pytest

from toolkit.chat.messages import (
    AssistantMessage,
    ChatResponse,
    SystemMessage,
    TokenUsage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from toolkit.loop.run import run_loop
from toolkit.memory import handouts
from toolkit.memory.windows import ChatMemory, InMemoryStore, MessageWindow, TokenWindow
from toolkit.tools.decorator import tool


def _messages(rng: random.Random, n: int, start: int) -> list:
    out: list = []
    for k in range(start, start + n):
        roll = rng.random()
        if roll < 0.4:
            out.append(UserMessage(content=f"q{k % 7}"))  # repeated texts: equal, distinct messages
        elif roll < 0.6:
            call = ToolCall(id=f"c{k}", name="t", arguments="{}")
            out += [AssistantMessage(tool_calls=(call,)), ToolResultMessage(tool_call_id=call.id, content="r")]
        elif roll < 0.95:
            out.append(AssistantMessage(content=f"a{k % 5}"))
        else:
            out.append(SystemMessage(content=f"s{k % 3}"))
    return out


class _Raises:
    def __eq__(self, other: object) -> bool:
        raise ValueError("no comparing me")

    __hash__ = None  # type: ignore[assignment]


def _change(rng: random.Random, got: list) -> None:
    """What a careless reader does to the list it read before letting go of it."""
    kind = rng.randrange(8)
    if kind == 0:
        got.append(UserMessage(content="mine"))
    elif kind == 1 and got:
        got[rng.randrange(len(got))] = UserMessage(content="swapped")
    elif kind == 2 and got:
        got[rng.randrange(len(got))] = got[0].model_copy()  # an equal message, another object
    elif kind == 3:
        got.reverse()
    elif kind == 4 and got:
        del got[rng.randrange(len(got))]
    elif kind == 5:
        got.insert(0, _Raises())
    elif kind == 6 and got:
        got[-1] = _Raises()
    else:
        got.clear()


def _cut(messages: list, start: int) -> list:
    """`messages` from `start` on, without the tool results that would lead (their call is cut off)."""
    while start < len(messages) and isinstance(messages[start], ToolResultMessage):
        start += 1
    return messages[start:]


@pytest.mark.parametrize("seed", range(60))
def test_every_read_equals_the_store_and_nothing_held_changes(seed: int) -> None:
    rng = random.Random(seed)
    store = InMemoryStore()
    held: list[tuple[list, list]] = []  # (a list a reader kept, what it held when read)
    made = 0
    for _ in range(120):
        roll = rng.random()
        if roll < 0.35:
            batch = _messages(rng, rng.choice([1, 2, 3, 70]), made)
            made += len(batch)
            store.append("a", batch)
        elif roll < 0.75:
            got = store.get("a")
            assert got == store._data.get("a", [])
            then = rng.random()
            if then < 0.3:
                held.append((got, list(got)))
            elif then < 0.5:
                _change(rng, got)
        elif roll < 0.8 and held:
            held.pop(rng.randrange(len(held)))  # a reader lets go
        elif roll < 0.85:
            store.set("a", _messages(rng, rng.choice([5, 80]), made))
        elif roll < 0.88:
            store.delete("a")
        elif roll < 0.92:
            store.update("a", lambda current: _cut(current, rng.randrange(len(current) + 1)))
        else:
            batch = _messages(rng, 2, made)  # a system message among them replaces the stored one
            store.append_in_window("a", batch, rng.choice([MessageWindow(40), TokenWindow(300)]))
        for kept, then in held:
            assert kept == then and all(a is b for a, b in zip(kept, then, strict=True))


def test_a_long_list_nobody_kept_is_given_out_again() -> None:
    store = InMemoryStore()
    store.append("a", [UserMessage(content=str(k)) for k in range(100)])
    first = store.get("a")
    assert store._handouts.copies == 1 and store._handouts.reused == 0
    before = id(first)
    del first
    store.append("a", [AssistantMessage(content="more")])
    again = store.get("a")
    assert store._handouts.reused == 1 and id(again) == before
    assert again == store._data["a"] and len(again) == 101


def test_a_kept_list_is_never_given_out_again() -> None:
    store = InMemoryStore()
    store.append("a", [UserMessage(content=str(k)) for k in range(100)])
    first = store.get("a")
    store.append("a", [AssistantMessage(content="more")])
    second = store.get("a")
    assert second is not first and len(first) == 100 and len(second) == 101
    assert store._handouts.reused == 0 and store._handouts.copies == 2


def test_a_changed_list_is_copied_again_even_when_equal_in_length() -> None:
    store = InMemoryStore()
    store.append("a", [UserMessage(content=str(k)) for k in range(100)])
    got = store.get("a")
    got[5] = UserMessage(content="mine")
    del got
    assert store.get("a")[5].content == "5" and store._handouts.reused == 0


def test_a_short_list_is_always_a_fresh_copy() -> None:
    store = InMemoryStore()
    store.append("a", [UserMessage(content="hi")] * (handouts.LONG - 1))
    store.get("a")
    store.get("a")
    assert store._handouts.copies == store._handouts.reused == 0


def test_no_reuse_where_counts_cannot_be_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(handouts, "_ALONE", -1)
    store = InMemoryStore()
    store.append("a", [UserMessage(content=str(k)) for k in range(100)])
    for _ in range(3):
        assert store.get("a") == store._data["a"]
    assert store._handouts.copies == 3 and store._handouts.reused == 0


def test_at_most_keep_ids_are_remembered() -> None:
    store = InMemoryStore()
    long = [UserMessage(content=str(k)) for k in range(handouts.LONG)]
    for n in range(handouts.KEEP + 10):
        store.append(f"id{n}", long)
        store.get(f"id{n}")
    assert len(store._handouts._lists) == len(store._handouts._sizes) == handouts.KEEP
    assert "id0" not in store._handouts._sizes and f"id{handouts.KEEP + 9}" in store._handouts._sizes


def test_a_deleted_conversation_is_forgotten() -> None:
    store = InMemoryStore()
    store.append("a", [UserMessage(content=str(k)) for k in range(100)])
    store.get("a")
    store.delete("a")
    assert store.get("a") == [] and "a" not in store._handouts._lists


class _Keeper:
    """A model that keeps every list it is sent, and changes some of them after reading."""

    def __init__(self, replies: list[AssistantMessage], change: bool) -> None:
        self.replies, self.change = iter(replies), change
        self.sent: list[tuple[list, list]] = []

    def chat(self, messages, tools=None, tool_choice=None, **extra):
        self.sent.append((messages, list(messages)))
        if self.change:
            messages.append(UserMessage(content="the model's own"))
            self.sent.pop()
        return ChatResponse(message=next(self.replies), usage=TokenUsage())


def _replies() -> list[AssistantMessage]:
    calls = [ToolCall(id=f"x{k}", name="add", arguments='{"a": 1, "b": 2}') for k in range(2)]
    return [
        AssistantMessage(tool_calls=(calls[0],)),
        AssistantMessage(tool_calls=(calls[1],)),
        AssistantMessage(content="6"),
    ]


@tool("Add two integers.")
def add(a: int, b: int) -> int:
    return a + b


@pytest.mark.parametrize("with_memory", [True, False])
@pytest.mark.parametrize("change", [False, True])
def test_each_request_is_the_conversation_as_it_was_sent(change: bool, with_memory: bool) -> None:
    """With memory the store gives the lists out; without, the loop's own history does."""
    history = [UserMessage(content=f"earlier {k}") for k in range(200)]
    model = _Keeper(_replies(), change)
    memory = ChatMemory() if with_memory else None
    asked = [*history, UserMessage(content="add twice")]
    result = run_loop(model, asked, tools=[add], memory=memory)
    assert result.answer == "6"
    assert asked == [*history, UserMessage(content="add twice")]  # the caller's list as it was
    assert len(result.messages) == 206 and result.messages[:201] == asked
    if memory is not None:
        assert result.messages == memory.messages()
    assert UserMessage(content="the model's own") not in result.messages
    for sent, then in model.sent:
        assert sent == then
    if not change:
        assert [len(s) for s, _ in model.sent] == [201, 203, 205]


def _same_objects(got: list, stored: list) -> bool:
    return len(got) == len(stored) and all(a is b for a, b in zip(got, stored, strict=True))


def test_a_change_at_the_front_is_made_to_the_list_given_out() -> None:
    """A new system message and a window's drop are made again to the list given out (the append
    never frees it), so the next read gives it out again, the same objects in the same places:
    `==` never walks a long list comparing equal messages that are not the same object."""
    long = [UserMessage(content="same") for _ in range(100)]  # equal, distinct
    store = InMemoryStore()
    store.append("a", long)
    store.get("a")
    store.append("a", [AssistantMessage(content="end")])
    assert "a" in store._handouts._sizes  # an append at the end keeps it
    store.append("a", [SystemMessage(content="first")])  # put first
    store.append("a", [SystemMessage(content="second")])  # in its place
    assert "a" in store._handouts._sizes
    same = _same_objects(store.get("a"), store._data["a"])  # the reader lets go of it at once
    assert same and store._handouts.reused == 1
    assert store.append_in_window("a", [AssistantMessage(content="x")], MessageWindow(200))
    assert store.append_in_window(
        "a", [SystemMessage(content="third"), AssistantMessage(content="y")], MessageWindow(80)
    )
    same = _same_objects(store.get("a"), store._data["a"])
    assert same and store._handouts.reused == 2
    assert [m.content for m in store._data["a"][:2]] == ["third", "same"] and len(store._data["a"]) == 80
    store.set("a", long)  # any other change forgets it
    assert "a" not in store._handouts._sizes
    assert store.get("a") == store._data["a"]


class _LetsGo:
    """A model that reads each list it is sent and keeps nothing of it."""

    def __init__(self, replies: list[AssistantMessage]) -> None:
        self.replies = iter(replies)
        self.lengths: list[int] = []

    def chat(self, messages, tools=None, tool_choice=None, **extra):
        self.lengths.append(len(messages))
        return ChatResponse(message=next(self.replies), usage=TokenUsage())


def test_without_memory_a_long_history_is_copied_once_a_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model let go of each list: the loop sends it again, brought up to date, instead of a
    copy per request (and the turn's result is that list: nobody holds it after the turn)."""
    from toolkit.loop import run as loop_run

    made: list[handouts.Handouts] = []

    class Counted(handouts.Handouts):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(loop_run, "Handouts", Counted)
    history = [UserMessage(content=f"earlier {k}") for k in range(200)]
    model = _LetsGo(_replies())
    result = run_loop(model, [*history, UserMessage(content="add twice")], tools=[add])
    assert model.lengths == [201, 203, 205] and len(result.messages) == 206
    assert [(h.copies, h.reused) for h in made] == [(1, 3)]  # three requests and the result: one copy
