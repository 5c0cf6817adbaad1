"""`update(change)` on both stores, `ChatMemory.update` too, when `change` itself uses the store
(reads the memory, adds to it): one typed line at once, nothing written, instead of a thread
waiting forever for the lock it holds. Another thread's call still waits its turn."""

import threading

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.errors import ConfigurationError
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory, InMemoryStore, MessageWindow

START = [UserMessage(content="a")]


def _store(kind, tmp_path):
    return SqliteStore(tmp_path / "m.db") if kind == "SqliteStore" else InMemoryStore()


def _in_thread(action):
    """`action()`'s error in a thread of its own (at once when things are right), or "hung" after 30 s
    (before: it waited forever)."""
    outcome = ["hung"]

    def run():
        try:
            action()
            outcome[0] = None
        except Exception as exc:
            outcome[0] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=30)
    return outcome[0]


@pytest.mark.parametrize("kind", ["InMemoryStore", "SqliteStore"])
@pytest.mark.parametrize("window", [None, MessageWindow(4)])
@pytest.mark.parametrize("inside", ["read", "add", "read another id", "nested update"])
def test_a_change_that_uses_the_store_is_refused_at_once_and_writes_nothing(tmp_path, kind, window, inside):
    store = _store(kind, tmp_path)
    memory = ChatMemory("u", store=store, window=window)
    memory.add(*START)
    uses = {
        "read": lambda current: memory.messages() + [UserMessage(content="b")],
        "add": lambda current: memory.add(UserMessage(content="b")) or current,
        "read another id": lambda current: current + store.get("other"),
        "nested update": lambda current: store.update("other", lambda other: other) or current,
    }
    error = _in_thread(lambda: memory.update(uses[inside]))
    assert isinstance(error, ConfigurationError), error
    assert str(error) == (
        f"{kind}.update('u'): change used the store while it runs (the store is locked until change returns); "
        "change must only build the new messages from the list it is given: read what else it needs before "
        "update, and return new messages instead of adding them"
    )
    assert store.get("u") == START and store.get("other") == []
    memory.update(lambda current: current + [UserMessage(content="b")])  # the store works on
    assert store.get("u") == START + [UserMessage(content="b")]


@pytest.mark.parametrize("kind", ["InMemoryStore", "SqliteStore"])
def test_another_threads_call_during_a_change_waits_and_sees_the_result(tmp_path, kind):
    store = _store(kind, tmp_path)
    store.set("u", START)
    started, seen, errors = threading.Event(), [], []

    def reader():
        started.set()
        try:
            seen.append(store.get("u"))
        except Exception as exc:  # surfaced below
            errors.append(exc)

    thread = threading.Thread(target=reader)

    def change(current):
        thread.start()
        started.wait()
        return current + [UserMessage(content="b")]

    store.update("u", change)
    thread.join()
    assert errors == [] and seen == [START + [UserMessage(content="b")]]
