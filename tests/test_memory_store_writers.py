"""`SqliteStore` with several writers on one file: two stores in two threads, and processes
started with `spawn`, appending to one conversation id at once (the file new when they start).
Every message is there once, each writer's in its own order, every tool result after its call;
a writer that meets another's lock waits instead of failing."""

import copy
import multiprocessing
import pickle
import sqlite3
import threading

import pytest

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ConfigurationError, MemoryStoreError
from toolkit.memory import store as store_module
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory, InMemoryStore, MessageWindow

ROUNDS = 30


def _write(path, name, start=None):
    """One writer's messages: a question, a call and its result in two appends, a call and its
    result in one, ROUNDS times over."""
    if start is not None:
        start.wait()
    store = SqliteStore(path)
    for i in range(ROUNDS):
        call = f"{name}-{i}"
        asked = AssistantMessage(tool_calls=(ToolCall(id=call, name="f"),))
        answer = ToolResultMessage(tool_call_id=call, content=call)
        store.append("shared", [UserMessage(content=call)])
        store.append("shared", [asked])
        store.append("shared", [answer])
        store.append("shared", [asked.model_copy(update={"tool_calls": (ToolCall(id=call + "b", name="f"),)})])
        store.append("shared", [ToolResultMessage(tool_call_id=call + "b", content=call + "b")])
    store.close()


def _expected(name):
    for i in range(ROUNDS):
        call = f"{name}-{i}"
        yield ("user", call)
        yield ("assistant", call)
        yield ("tool", call)
        yield ("assistant", call + "b")
        yield ("tool", call + "b")


def _key(message):
    if isinstance(message, UserMessage):
        return ("user", message.content)
    if isinstance(message, AssistantMessage):
        return ("assistant", message.tool_calls[0].id)
    return ("tool", message.tool_call_id)


def _check(path, names):
    keys = [_key(m) for m in SqliteStore(path).get("shared")]
    assert len(keys) == len(set(keys)) == 5 * ROUNDS * len(names)
    for name in names:
        assert [k for k in keys if k[1].split("-")[0] == name] == list(_expected(name))


def test_two_stores_in_two_threads_on_a_new_file_lose_nothing(tmp_path):
    path, start, errors = tmp_path / "m.db", threading.Barrier(2), []

    def writer(name):
        try:
            _write(path, name, start)
        except Exception as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    _check(path, ("a", "b"))


def test_spawned_processes_opening_a_new_file_at_once_lose_nothing(tmp_path):
    """Before: now and then one worker died at once with "cannot open memory database ...:
    database is locked", its messages never written (SQLite's switch to WAL mode does not wait)."""
    context = multiprocessing.get_context("spawn")
    path, names = tmp_path / "m.db", ("a", "b", "c")
    start = context.Barrier(len(names))
    workers = [context.Process(target=_write, args=(path, name, start)) for name in names]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [worker.exitcode for worker in workers] == [0, 0, 0]
    _check(path, names)


def test_opening_waits_while_another_connection_holds_the_write_lock_of_a_new_file(tmp_path, monkeypatch):
    """Before: "cannot open memory database ...: database is locked" at once, although the busy
    timeout promises a wait: SQLite answers a switch to WAL mode that way without waiting."""
    path = tmp_path / "m.db"
    path.touch()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process, mid-way through making the file
    waits = []

    def pause(seconds):
        waits.append(seconds)
        if other.in_transaction:
            other.execute("COMMIT")

    monkeypatch.setattr(store_module, "_pause", pause, raising=False)
    store = SqliteStore(path)
    store.append("u", [UserMessage(content="hi")])
    assert SqliteStore(path).get("u") == [UserMessage(content="hi")]
    assert len(waits) == 1
    other.close()


def test_opening_gives_up_after_the_busy_timeout_with_one_typed_line(tmp_path, monkeypatch):
    path = tmp_path / "m.db"
    path.touch()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.0, raising=False)
    monkeypatch.setattr(store_module, "_pause", lambda seconds: None, raising=False)
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path)
    assert str(caught.value) == f"cannot open memory database {path}: database is locked ({BUSY.format(seconds='0')})"
    other.execute("COMMIT")
    other.close()
    assert SqliteStore(path).get("u") == []


BUSY = (
    "another connection held the file's write lock for longer than {seconds} s (BUSY_TIMEOUT): another process "
    "writing to it, or a program holding it open in a transaction (a database browser); nothing was written: "
    "try again once it is done"
)


def test_a_write_that_waited_past_the_busy_timeout_says_who_holds_the_file_in_one_line(tmp_path, monkeypatch):
    """Before: "database is locked (check that the path names a file you may write, in a folder that
    exists, on a disk with room, not locked)": the file was fine, another writer held it."""
    path = tmp_path / "m.db"
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.05, raising=False)
    memory = ChatMemory("u", store=SqliteStore(path))
    memory.add(UserMessage(content="first"))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process, mid-way through its write
    with pytest.raises(MemoryStoreError) as caught:
        memory.add(AssistantMessage(content="second"))
    assert str(caught.value) == (
        f"cannot append to 'u' in memory database {path}: database is locked ({BUSY.format(seconds='0.05')})"
    )
    other.execute("COMMIT")
    other.close()
    memory.add(AssistantMessage(content="second"))  # the file is fine: the same write goes through now
    assert [m.content for m in SqliteStore(path).get("u")] == ["first", "second"]


def _add_in_child(memory, store):
    with memory.lock:
        memory.add(UserMessage(content="from the child"))
    store.append("other", [UserMessage(content="store too")])


def test_a_store_and_a_memory_given_to_a_spawned_process_write_the_same_file(tmp_path):
    """Before: `TypeError: cannot pickle '_thread.lock' object` when the worker started."""
    store = SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("u", store=store, window=MessageWindow(6))
    memory.add(UserMessage(content="from the parent"))
    worker = multiprocessing.get_context("spawn").Process(target=_add_in_child, args=(memory, store))
    worker.start()
    worker.join(timeout=120)
    assert worker.exitcode == 0
    assert memory.messages() == [UserMessage(content="from the parent"), UserMessage(content="from the child")]
    assert store.get("other") == [UserMessage(content="store too")]


@pytest.mark.parametrize(
    "make, said",
    [
        (
            InMemoryStore,
            "InMemoryStore cannot go to another process: a copy there would not see this process's "
            "writes, nor this process the copy's",
        ),
        (lambda: ChatMemory("u"), "InMemoryStore cannot go to another process"),
        (
            lambda: SqliteStore(":memory:"),
            "SqliteStore(':memory:') cannot go to another process: its database lives in this one",
        ),
    ],
)
def test_a_store_that_lives_in_this_process_says_so_when_sent_to_another(make, said):
    with pytest.raises(ConfigurationError) as caught:
        pickle.dumps(make())
    assert str(caught.value).startswith(said)
    assert str(caught.value).endswith("; give the processes a file to share, e.g. SqliteStore('memory.db')")


@pytest.mark.parametrize("make", [InMemoryStore, lambda: SqliteStore(":memory:")])
def test_a_shallow_copy_is_still_the_same_store(make):
    store = make()
    store.append("u", [UserMessage(content="hi")])
    copied = copy.copy(store)
    copied.append("u", [UserMessage(content="again")])
    assert store.get("u") == copied.get("u") == [UserMessage(content="hi"), UserMessage(content="again")]


@pytest.mark.parametrize("make", [InMemoryStore, lambda: SqliteStore(":memory:")])
def test_a_deep_copy_of_a_store_in_this_process_is_a_branch_of_its_conversations(make):
    """Before: `copy.deepcopy(memory)` of a memory on the default store raised "InMemoryStore cannot
    go to another process", though nothing went anywhere. A deep copy holds the same conversations
    and is written apart from the original from then on."""
    call = AssistantMessage(tool_calls=(ToolCall(id="k", name="f", arguments="{}"),))
    result = ToolResultMessage(tool_call_id="k", tool_name="f", content="r", attributes={"rows": [1, 2]})
    memory = ChatMemory("u", store=make(), window=MessageWindow(6))
    memory.add(SystemMessage(content="s"), UserMessage(content="q"), call, result)
    branch = copy.deepcopy(memory)
    assert branch.store is not memory.store and branch.messages() == memory.messages()
    branch.add(UserMessage(content="only in the branch"))
    memory.add(UserMessage(content="only in the original"))
    assert branch.messages()[-1] == UserMessage(content="only in the branch")
    assert memory.messages()[-2:] == [result, UserMessage(content="only in the original")]
    assert branch.lock is not memory.lock


_CLOSE_DURING_TURNS = r"""
import sys, threading, time
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop.run import run_loop
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool

@tool("charge an order")
def charge(order: str) -> str:
    return "charged " + order

said = set()
for trial in range(4):
    store = SqliteStore(f"{sys.argv[1]}/{trial}.db")
    turns = []

    def work():
        memory = ChatMemory("ann", store=store)
        try:
            while True:
                run_loop(ScriptedModel([call("charge", order="SN1"), "done"]), "buy", tools=[charge], memory=memory)
                turns.append(1)
        except Exception as exc:
            said.add(f"{type(exc).__name__}: {str(exc).rsplit(': ', 1)[-1]}")

    worker = threading.Thread(target=work)
    worker.start()
    while len(turns) < 20 + 15 * trial:
        time.sleep(0.001)
    store.close()
    worker.join()
for text in sorted(said):
    print(text)
"""


def test_closing_the_store_while_another_thread_runs_turns_is_an_error_there_not_a_crash(tmp_path):
    """`close()` did not take the connection's lock: closing it under a read or write of another
    thread's turn crashed the process (a segmentation fault: the kernel died, nothing said why)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _CLOSE_DURING_TURNS, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == [
        "MemoryStoreError: Cannot operate on a closed database. (this store was closed; open a new SqliteStore)"
    ]


def test_a_set_in_stored_attributes_is_written_in_one_order_every_run(tmp_path):
    """Before: `SqliteStore` wrote a set's items in the order of their hashes, so a stored conversation read back
    differently in each process (Python draws a new hash seed per process)."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(
        f"""
        from toolkit import AssistantMessage, UserMessage
        from toolkit.chat.messages import ToolCall, ToolResultMessage
        from toolkit.memory.store import SqliteStore
        store = SqliteStore({str(tmp_path / "m.db")!r})
        result = ToolResultMessage(tool_call_id="c1", tool_name="t", content="x",
                                   attributes={{"tags": {{"delta", "alpha", "charlie", "bravo"}}, "mixed": [{{3, "a", 1}}]}})
        store.append("u", [UserMessage(content="q"), AssistantMessage(tool_calls=(ToolCall(id="c1", name="t", arguments="{{}}"),)), result])
        print(store.get("u")[-1].attributes)
        store.close()
        """
    )
    seen = set()
    for seed in ("0", "1", "2", "3"):
        (tmp_path / "m.db").unlink(missing_ok=True)
        env = {**__import__("os").environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
        seen.add(out.stdout.strip())
    assert seen == {"{'mixed': [[1, 3, 'a']], 'tags': ['alpha', 'bravo', 'charlie', 'delta']}"}


def _history(turns):
    return [m for i in range(turns) for m in (UserMessage(content=f"q{i}"), AssistantMessage(content=f"a{i}"))]


def test_rows_edited_by_another_program_while_a_store_holds_the_file_are_seen_at_the_next_read(tmp_path):
    """Before: a conversation `get` had read was kept while its conversation row and the toolkit's
    rewrite count stood, so a row deleted or edited by the sqlite3 CLI (or any other program) went
    unseen: the running kernel answered from the old list and appended after the hole, and the next
    kernel found the file broken → such a write counts as a rewrite in the file itself (triggers),
    so the store reads again and says what a new store says."""
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("u", _history(3))
    store.set("v", _history(3))
    assert len(store.get("u")) == len(store.get("v")) == 6
    with sqlite3.connect(path) as cli:
        cli.execute("DELETE FROM messages WHERE memory_id = 'u' AND seq = 2")
        cli.execute("UPDATE messages SET payload = replace(payload, 'a1', 'edited') WHERE memory_id = 'v' AND seq = 3")
    cli.close()
    for memory_id, row in (("u", "row 2 is missing"), ("v", "row 3")):
        with pytest.raises(MemoryStoreError) as fresh:
            SqliteStore(path).get(memory_id)
        with pytest.raises(MemoryStoreError) as held:
            store.get(memory_id)
        assert str(held.value) == str(fresh.value) and row in str(held.value)


def test_the_stores_own_front_drops_and_rewrites_are_not_counted_as_edits(tmp_path):
    path = tmp_path / "m.db"
    writer = ChatMemory("u", store=SqliteStore(path), window=MessageWindow(4))
    writer.store.set("u", [])

    def rewrites():
        with sqlite3.connect(path) as db:
            count = db.execute("SELECT value FROM meta WHERE key = 'rewrites'").fetchone()[0]
        db.close()
        return int(count)

    before = rewrites()
    for message in _history(5):  # a front drop at every add from the fifth on
        writer.add(message)
    writer.update(lambda current: current[2:])
    assert rewrites() == before
    writer.clear()  # one rewrite, however many rows it deletes
    assert rewrites() == before + 1
