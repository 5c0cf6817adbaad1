"""A `SqliteStore` used in a forked child (multiprocessing's default start on Linux) gets a
connection and a lock of its own: the child never uses the parent's SQLite connection, and a lock
a parent thread held at the fork does not hang it."""

import os
import signal

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.memory.store import SqliteStore

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")


def _in_child(work) -> str:
    """Run `work()` in a forked child; what it returns (or the error), through a pipe."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        signal.alarm(10)  # a child that hangs is ended, and the parent reads no answer
        try:
            answer = str(work())
        except BaseException as exc:  # reported to the parent
            answer = f"{type(exc).__name__}: {exc}"
        os.write(write, answer.encode())
        os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode()


def test_a_store_locked_by_a_parent_thread_at_the_fork_works_in_the_child(tmp_path):
    """Before: the child inherited the store's lock held, and its first call waited forever."""
    store = SqliteStore(tmp_path / "m.db")
    store.append("u", [UserMessage(content="from the parent")])
    parent_connection = store._db

    def work():
        store.append("u", [UserMessage(content="from the child")])
        return (store._db is not parent_connection, [m.content for m in store.get("u")])

    store._lock.acquire()  # as a parent thread in the middle of a write when another forks
    try:
        answer = _in_child(work)
    finally:
        store._lock.release()
    assert answer == "(True, ['from the parent', 'from the child'])"
    assert [m.content for m in SqliteStore(tmp_path / "m.db").get("u")] == ["from the parent", "from the child"]
    assert [m.content for m in store.get("u")] == ["from the parent", "from the child"]


def test_an_in_memory_store_keeps_its_data_in_the_child():
    store = SqliteStore(":memory:")
    store.append("u", [UserMessage(content="kept")])
    assert _in_child(lambda: [m.content for m in store.get("u")]) == "['kept']"


def test_a_child_forked_after_the_parent_changed_folder_opens_the_same_file(tmp_path, monkeypatch):
    """Before: a store given a relative path ('memory.db') was opened anew in a forked child by
    that path, from the current folder: after a `%cd` (os.chdir) in the notebook, a worker wrote
    to another, new database beside it, and the parent never saw its answers."""
    monkeypatch.chdir(tmp_path)
    store = SqliteStore("memory.db")
    store.append("u", [UserMessage(content="from the parent")])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    answer = _in_child(lambda: store.append("u", [UserMessage(content="from the child")]))
    assert answer == "None"
    assert [m.content for m in store.get("u")] == ["from the parent", "from the child"]
    assert not (elsewhere / "memory.db").exists()
