"""Appends on the workloads issue 16 item 5 did not name: tool results answering calls made long
ago, system messages (with and without a window), reads after every append, many ids, a store
reopened. Each store is held equal, operation by operation, to a plain reference (a list, the
plain `_merged` + `evict` path, the answered-call rule read from the whole conversation) and, for
`SqliteStore`, to what a new connection reads from the file. Also: hostile input answers with
the package's typed errors, by exact text."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from toolkit.chat.messages import AssistantMessage, Message, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ConfigurationError, MemoryIdError
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import (
    ChatMemory,
    InMemoryStore,
    MessageWindow,
    TokenWindow,
    _merged,
    evict,
)


def _plain_unanswered(stored: list[Message], batch: list[Message]) -> str | None:
    """The call id of the first tool result in `batch` that no assistant message before it (in
    the stored conversation or the batch) asks for; read from the start, whole."""
    asked = {c.id for m in stored if isinstance(m, AssistantMessage) for c in m.tool_calls}
    for message in batch:
        if isinstance(message, AssistantMessage):
            asked |= {c.id for c in message.tool_calls}
        elif isinstance(message, ToolResultMessage) and message.tool_call_id not in asked:
            return message.tool_call_id
    return None


def _random_batch(rng: random.Random, calls: list[str]) -> list[Message]:
    roll = rng.random()
    if roll < 0.25:
        return [UserMessage(content=rng.choice(["问", "😀 emoji", "q"]) * rng.randint(1, 30))]
    if roll < 0.5:
        ids = [f"c{len(calls) + i}" for i in range(rng.randint(1, 3))]
        calls += ids
        asked: list[Message] = [
            AssistantMessage(tool_calls=tuple(ToolCall(id=i, name="f", arguments="{}") for i in ids))
        ]
        return asked + [
            ToolResultMessage(tool_call_id=i, tool_name="f", content="r") for i in ids if rng.random() < 0.8
        ]
    if roll < 0.7 and calls:  # a result for a call made long ago (or never: "c-1")
        call = rng.choice(calls + ["c-1"]) if rng.random() < 0.9 else calls[0]
        return [ToolResultMessage(tool_call_id=call, tool_name="f", content="again " * rng.randint(1, 5))]
    if roll < 0.85:
        return [SystemMessage(content=f"system {rng.randint(0, 3)}")]  # sometimes the one stored already
    return [AssistantMessage(content="答" * rng.randint(1, 40))]


def test_sqlite_appends_equal_a_plain_reference_on_random_operations(memory_dir: Path) -> None:
    """Unwindowed appends (results for calls made long ago, system messages, the same system
    message again), reads after appends, `set`, `delete`, several ids, the store reopened: every
    read equals the plain list and a new connection's read; a batch is refused exactly when the
    plain rule refuses it."""
    for seed in range(40):
        rng = random.Random(seed)
        path = memory_dir / f"s{seed}.db"
        store = SqliteStore(path)
        plain: dict[str, list[Message]] = {}
        calls: dict[str, list[str]] = {}
        for step in range(60):
            memory_id = rng.choice(["a", "b", "中文 id"])
            current = plain.setdefault(memory_id, [])
            roll = rng.random()
            if roll < 0.7:
                batch = _random_batch(rng, calls.setdefault(memory_id, []))
                if rng.random() < 0.2:
                    batch = batch + batch  # the same message objects twice
                missing = _plain_unanswered(current, batch)
                try:
                    store.append(memory_id, batch)
                    refused = None
                except ConfigurationError as exc:
                    refused = str(exc)
                if missing is None:
                    assert refused is None, (seed, step)
                    plain[memory_id] = _merged(current, batch)
                else:
                    assert refused is not None and f"call {missing!r}, which no earlier" in refused, (seed, step)
            elif roll < 0.8:
                store.set(memory_id, current[: rng.randint(0, len(current))])
                plain[memory_id] = store.get(memory_id)  # `set` keeps the system message first
            elif roll < 0.85:
                store.delete(memory_id)
                plain[memory_id], calls[memory_id] = [], []
            elif roll < 0.9:
                store.close()
                store = SqliteStore(path)
            assert store.get(memory_id) == plain[memory_id], (seed, step)
            if rng.random() < 0.2:
                assert SqliteStore(path).get(memory_id) == plain[memory_id], (seed, step)
        store.close()


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_windowed_adds_with_system_messages_equal_the_plain_evict_path(memory_dir: Path, kind: str) -> None:
    """A system message added through a window (now appended in place, not read and rewritten)
    gives what `evict(_merged(current, batch))` gives, with the same eviction order and token
    totals; reads between adds, the same message twice, long-ago results refused alike."""
    for seed in range(60):
        rng = random.Random(seed)
        store = InMemoryStore() if kind == "memory" else SqliteStore(memory_dir / f"w{kind}{seed}.db")
        window = MessageWindow(rng.randint(4, 12)) if rng.random() < 0.5 else TokenWindow(rng.randint(5, 120))
        memory = ChatMemory("w", store=store, window=window)
        plain: list[Message] = []
        calls: list[str] = []
        if rng.random() < 0.3:  # a conversation set with a system message further down
            plain = [UserMessage(content="u"), SystemMessage(content="mid"), AssistantMessage(content="a")]
            memory.set(plain)
            plain = memory.messages()
        for step in range(50):
            batch = _random_batch(rng, calls)
            if rng.random() < 0.3:
                batch = [SystemMessage(content=f"s{step % 3}"), *batch]
            expected = evict(_merged(plain, batch), window)
            refused = _plain_unanswered([], expected) is not None
            try:
                memory.add(*batch)
            except ConfigurationError:
                assert refused, (seed, step)
            else:
                assert not refused or kind == "memory", (seed, step)  # the in-memory store keeps orphans
                plain = expected
            got = memory.messages()
            assert got == plain, (seed, step, window)
            if isinstance(window, TokenWindow):
                assert sum(window.weights(got)) == sum(window.weights(plain))
            if kind == "memory" and isinstance(window, TokenWindow) and "w" in store._totals:
                assert store._totals["w"][1] == sum(window.weights(plain)), (seed, step)  # the running total
            if kind == "sqlite" and rng.random() < 0.2:
                assert SqliteStore(store.path).get("w") == plain, (seed, step)


def test_reading_after_appending_the_stored_system_message_again_is_what_the_file_holds(tmp_path: Path) -> None:
    """The list `get` keeps was given the system message again as a row (a read showed it twice)."""
    store = SqliteStore(tmp_path / "m.db")
    system = SystemMessage(content="s")
    store.set("a", [system, UserMessage(content="u")])
    store.get("a")
    store.append("a", [system, UserMessage(content="u2")])
    assert [m.role for m in store.get("a")] == ["system", "user", "user"]
    assert store.get("a") == SqliteStore(tmp_path / "m.db").get("a")


def test_a_result_for_a_call_made_long_ago_reads_the_rows_between_once(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "m.db")
    call = ToolCall(id="early", name="f", arguments="{}")
    store.set("a", [UserMessage(content="u"), AssistantMessage(tool_calls=(call,))] + [UserMessage(content="x")] * 300)
    loads = [0]
    load = store._load

    def counted(*args: object) -> Message:
        loads[0] += 1
        return load(*args)  # type: ignore[arg-type]

    store._load = counted  # type: ignore[method-assign]
    for _ in range(20):
        store.append("a", [ToolResultMessage(tool_call_id="early", tool_name="f", content="again")])
    assert loads[0] == 301  # the first append reads back to the call; the others know it
    with pytest.raises(ConfigurationError, match="call 'never', which no earlier"):
        store.append("a", [ToolResultMessage(tool_call_id="never", tool_name="f", content="r")])
    assert loads[0] == 302  # and the one row left before the call, once


@pytest.mark.parametrize("make", [InMemoryStore, "sqlite"])
def test_hostile_input_answers_with_typed_errors(tmp_path: Path, make: object) -> None:
    store = InMemoryStore() if make is InMemoryStore else SqliteStore(tmp_path / "m.db")
    name = type(store).__name__
    user = UserMessage(content="u")
    with pytest.raises(MemoryIdError) as caught:
        store.get(["a"])  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"{name}.get: memory id ['a'] is not a string (list); memory ids are strings, so pass str(['a']) "
        "explicitly (1 and '1' are never merged silently)"
    )
    for call in (
        lambda: store.set(None, [user]),  # type: ignore[arg-type]
        lambda: store.append(1, [user]),  # type: ignore[arg-type, attr-defined]
        lambda: store.delete(""),
        lambda: store.update(b"x", lambda c: c),  # type: ignore[arg-type, attr-defined]
        lambda: store.append_in_window(1.5, [user], MessageWindow(4)),  # type: ignore[arg-type, attr-defined]
        lambda: store.turn_lock(None),  # type: ignore[arg-type, attr-defined]
    ):
        with pytest.raises(MemoryIdError):
            call()
    with pytest.raises(ConfigurationError) as caught:
        store.append("a", None)  # type: ignore[arg-type, attr-defined]
    assert (
        str(caught.value)
        == f"{name}.append: expected a list of messages, got NoneType; wrap a single message in a list"
    )
    with pytest.raises(ConfigurationError) as caught:
        store.append_in_window("a", [user], 5)  # type: ignore[arg-type, attr-defined]
    assert str(caught.value) == (
        f"{name}.append_in_window: window 5 is not a window (int); use MessageWindow(n), TokenWindow(n) or None "
        "for no window"
    )
    with pytest.raises(ConfigurationError) as caught:
        store.append_in_window("a", ["text"], MessageWindow(4))  # type: ignore[list-item, attr-defined]
    assert str(caught.value) == (
        f"{name}.append_in_window: message 0 (str) is not a message record; store SystemMessage, UserMessage, "
        "AssistantMessage or ToolResultMessage records"
    )
    assert store.get("a") == []  # nothing was written
    with pytest.raises(ConfigurationError) as caught:
        ChatMemory("a", store=store).add_all(None)  # type: ignore[arg-type]
    assert (
        str(caught.value)
        == "ChatMemory.add: expected a list of messages, got NoneType; wrap a single message in a list"
    )


def test_a_memory_refuses_what_is_not_a_window_or_a_store() -> None:
    with pytest.raises(ConfigurationError) as caught:
        ChatMemory("a", window=0)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "ChatMemory('a'): window 0 is not a window (int); use MessageWindow(n), TokenWindow(n) or None for no window"
    )
    with pytest.raises(ConfigurationError) as caught:
        ChatMemory("a", store=5)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "ChatMemory('a', store=5): not a store (no get, set, delete); use InMemoryStore(), SqliteStore(path) or an "
        "object with get, set and delete"
    )
    with pytest.raises(ConfigurationError) as caught:
        TokenWindow(50, count=None)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "TokenWindow(50, count=None): count must be a function from a message to its tokens, e.g. "
        "toolkit.memory.windows.message_tokens"
    )


def test_a_window_set_on_a_memory_later_is_still_checked() -> None:
    """`ChatMemory.add_all` skips the store's own checks for a window it knows; a window set on
    the attribute afterwards is not one of those, and the store still refuses it, typed."""
    memory = ChatMemory("a", window=MessageWindow(4))
    memory.window = 5  # type: ignore[assignment]
    with pytest.raises(ConfigurationError) as caught:
        memory.add_all([UserMessage(content="hi")])
    assert str(caught.value) == (
        "InMemoryStore.append_in_window: window 5 is not a window (int); use MessageWindow(n), TokenWindow(n) or "
        "None for no window"
    )
    assert memory.messages() == []
