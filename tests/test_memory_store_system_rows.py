"""`SqliteStore` keeps a conversation's system messages where they were put, as `InMemoryStore`
does: a system message after the first place (a note put there by `set` or `update`) is a row of
its own, a new system message replaces them all (`with_system`), and one that a window leaves in
the first place becomes the conversation's system message, as `evict` reads it."""

import subprocess

import pytest

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory, InMemoryStore, MessageWindow, TokenWindow

NOTED = [
    SystemMessage(content="You are a shop assistant."),
    UserMessage(content="Where is my order?"),
    SystemMessage(content="The user switched to English."),
    AssistantMessage(content="It left the warehouse."),
]


def stores(tmp_path):
    return [InMemoryStore(), SqliteStore(tmp_path / "m.db")]


@pytest.mark.parametrize("write", ["set", "update", "memory"])
def test_a_system_message_after_the_first_survives_a_write_and_a_restart(tmp_path, write):
    """Before: SqliteStore.set kept the last system message only, moved to the first place: 'You
    are a shop assistant.' was lost without a word, where InMemoryStore kept all four."""
    store = SqliteStore(tmp_path / "m.db")
    if write == "set":
        store.set("u", NOTED)
    elif write == "update":
        store.update("u", lambda current: list(NOTED))
    else:
        ChatMemory("u", store=store, window=MessageWindow(10)).set(NOTED)
    assert store.get("u") == NOTED
    assert SqliteStore(tmp_path / "m.db").get("u") == NOTED


def test_a_new_system_message_replaces_every_stored_one_in_both_stores(tmp_path):
    new = [SystemMessage(content="Be brief."), UserMessage(content="And now?")]
    expected = [new[0], NOTED[1], NOTED[3], new[1]]
    for store in stores(tmp_path):
        store.set("u", NOTED)
        assert store.get("u") == NOTED  # before: the first system message was already gone here
        store.append("u", new)
        assert store.get("u") == expected, type(store).__name__
        store.set("u", NOTED)
        ChatMemory("u", store=store, window=MessageWindow(10)).add(*new)
        assert store.get("u") == expected, type(store).__name__


@pytest.mark.parametrize("window", [MessageWindow(4), TokenWindow(12, count=lambda m: 3)])
def test_a_system_row_a_window_leaves_first_is_kept_as_the_system_message(tmp_path, window):
    """The window drops the oldest messages until a note is first: from then on `evict` keeps it
    as the conversation's system message, and the store must too (it evicted it as a row)."""
    start = [
        UserMessage(content="q1"),
        AssistantMessage(content="a1"),
        SystemMessage(content="note"),
        UserMessage(content="q2"),
        AssistantMessage(content="a2"),
    ]
    call = AssistantMessage(content=None, tool_calls=(ToolCall(id="c1", name="track"),))
    result = ToolResultMessage(tool_call_id="c1", content="shipped")
    seen = []
    for store in stores(tmp_path):
        store.set("u", start)
        assert store.get("u") == start  # before: the note had been moved to the first place here
        ChatMemory("u", store=store, window=window).add(call)
        ChatMemory("u", store=store, window=window).add(result)
        seen.append(store.get("u"))
    assert seen[0] == [SystemMessage(content="note"), UserMessage(content="q2"), call, result]
    assert seen[1] == seen[0] == SqliteStore(tmp_path / "m.db").get("u")


def test_a_store_from_before_the_system_rows_index_still_opens_read_only(tmp_path):
    """The index that finds system rows is made on open; a file that cannot be written (here
    immutable, as root cannot be kept out by its mode) is read without it."""
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("u", NOTED)
    store._db.execute("DROP INDEX system_rows")  # as a store written before the index was
    store.close()
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        assert SqliteStore(path).get("u") == NOTED
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    assert (
        SqliteStore(path)
        ._db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'system_rows'")
        .fetchone()
    )


@pytest.mark.parametrize("write", ["evict", "set", "add"])
def test_a_system_message_after_the_first_is_never_evicted(tmp_path, write):
    """Before: a note `set` after the first place was dropped as the oldest message once the window
    reached it ([q2, a2] was left: the conversation lost its system message), where the first
    system message is always kept. It is kept, first, once everything before it has left."""
    from toolkit.memory.windows import evict

    start = [
        UserMessage(content="q1"),
        AssistantMessage(content="a1"),
        SystemMessage(content="note"),
        UserMessage(content="q2"),
        AssistantMessage(content="a2"),
    ]
    window = TokenWindow(11, count=lambda m: 10 if isinstance(m, SystemMessage) else 1)
    expected = [SystemMessage(content="note"), UserMessage(content="q2"), AssistantMessage(content="a2")]
    if write == "evict":
        assert evict(start, window) == expected
        return
    for store in stores(tmp_path):
        memory = ChatMemory("u", store=store, window=window)
        if write == "set":
            memory.set(start)
        else:
            store.set("u", start[:-1])
            memory.add(start[-1])
        assert store.get("u") == expected, type(store).__name__
    assert SqliteStore(tmp_path / "m.db").get("u") == expected
