"""Two writers on one memory id take turns: in one process (two `ChatMemory` objects) and across
processes (one `SqliteStore` file). No network: the strict gateway is the in-process fake."""

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from toolkit.chat.messages import AssistantMessage, Message, ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.chat.switch import fake_client
from toolkit.errors import MemoryStoreError
from toolkit.loop.run import run_loop
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory, InMemoryStore
from toolkit.tools.decorator import tool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shape(messages: list[Message]) -> list[str]:
    """The conversation as roles and ids: 'user:…', 'call:…', 'tool:…', 'answer'."""
    out = []
    for m in messages:
        if isinstance(m, AssistantMessage):
            out.append("call:" + ",".join(c.id for c in m.tool_calls) if m.tool_calls else "answer")
        elif isinstance(m, ToolResultMessage):
            out.append("tool:" + m.tool_call_id)
        else:
            out.append(f"{m.role}:{m.content}")
    return out


def accepted_by_a_strict_gateway(messages: list[Message]) -> bool:
    fake_client().chat([*messages, UserMessage(content="thanks")])  # raises CallerError (HTTP 400) if not
    return True


def one_turn(memory: ChatMemory, question: str, call_id: str, wait: threading.Event | None = None) -> None:
    @tool("query an order")
    def query_order(orderId: str) -> str:
        if wait is not None:
            wait.wait(5)
        return "shipped"

    model = ScriptedModel([call("query_order", orderId="SN1", id=call_id), "it shipped"])
    run_loop(model, [UserMessage(content=question)], tools=[query_order], memory=memory)


# -- one process ---------------------------------------------------------------------------
def test_every_memory_on_one_store_and_id_shares_one_lock(tmp_path):
    shared = InMemoryStore()
    assert ChatMemory("u", store=shared).lock is ChatMemory("u", store=shared).lock
    assert ChatMemory("u", store=shared).lock is not ChatMemory("v", store=shared).lock
    assert ChatMemory("u", store=shared).lock is not ChatMemory("u", store=InMemoryStore()).lock

    class DictStore:  # a store of one's own, without turn_lock: shared by store object and id
        def __init__(self) -> None:
            self.data: dict[str, list[Message]] = {}

        def get(self, memory_id: str) -> list[Message]:
            return list(self.data.get(memory_id, []))

        def set(self, memory_id: str, messages) -> None:
            self.data[memory_id] = list(messages)

        def delete(self, memory_id: str) -> None:
            self.data.pop(memory_id, None)

    mine = DictStore()
    assert ChatMemory("u", store=mine).lock is ChatMemory("u", store=mine).lock
    assert ChatMemory("u", store=mine).lock is not ChatMemory("u", store=DictStore()).lock
    one, other = SqliteStore(tmp_path / "m.db"), SqliteStore(str(tmp_path / "." / "m.db"))
    lock = ChatMemory("u", store=one).lock
    assert ChatMemory("u", store=other).lock is lock  # two stores on one file: one lock
    assert ChatMemory("v", store=one).lock is not lock
    private = SqliteStore(":memory:")  # each connection its own database
    assert ChatMemory("u", store=private).lock is ChatMemory("u", store=private).lock
    assert ChatMemory("u", store=private).lock is not ChatMemory("u", store=SqliteStore(":memory:")).lock
    with lock, lock:  # reentrant, owned by one thread
        errors = []
        thread = threading.Thread(target=lambda: errors.append(lock.acquire(blocking=False)))
        thread.start()
        thread.join()
        assert errors == [False]
    with pytest.raises(RuntimeError, match="^cannot release un-acquired lock$"):
        lock.release()


def test_one_file_under_two_spellings_has_one_lock_and_one_descriptor(tmp_path):
    # a case-insensitive file system (macOS, Windows) opens "Memory.db" for "memory.db": here two
    # names linked to the same files stand for the two spellings (resolve() cannot join them)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = SqliteStore(tmp_path / "a" / "memory.db")
    lock = ChatMemory("u", store=first).lock
    for file in (tmp_path / "a").iterdir():  # the database, its -wal and -shm, the lock file
        os.link(file, tmp_path / "b" / file.name)
    second = SqliteStore(tmp_path / "b" / "memory.db")
    assert ChatMemory("u", store=second).lock is lock
    assert ChatMemory("v", store=second).lock is ChatMemory("v", store=first).lock
    assert ChatMemory("v", store=second).lock is not lock
    assert lock._file.path == tmp_path / "a" / "memory.db-turn-lock"  # one descriptor: the first spelling's


def test_the_registry_does_not_keep_a_lock_nobody_uses(tmp_path):
    import gc
    import weakref

    from toolkit.memory import turns

    store = SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("gone", store=store)
    gone = weakref.ref(memory.lock)
    assert any(lock is memory.lock for lock in turns._REGISTRY.values())
    del memory
    gc.collect()
    assert gone() is None


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_two_memory_objects_on_one_id_take_turns_in_one_process(tmp_path, kind):
    if kind == "memory":
        shared = InMemoryStore()
        first, second = ChatMemory("user-1", store=shared), ChatMemory("user-1", store=shared)
    else:  # two services, each with its own store object on one file
        path = tmp_path / "memory.db"
        first, second = ChatMemory("user-1", store=SqliteStore(path)), ChatMemory("user-1", store=SqliteStore(path))
    running, finish = threading.Event(), threading.Event()

    def slow_turn() -> None:
        @tool("query an order")
        def query_order(orderId: str) -> str:
            running.set()
            finish.wait(60)
            return "shipped"

        model = ScriptedModel([call("query_order", orderId="SN1", id="call_a"), "it shipped"])
        run_loop(model, [UserMessage(content="where is SN1?")], tools=[query_order], memory=first)

    a = threading.Thread(target=slow_turn)
    a.start()
    assert running.wait(60)
    b = threading.Thread(target=one_turn, args=(second, "and SN2?", "call_b"))
    b.start()
    b.join(0.3)  # the second turn waits for the first, however long its tool runs
    finish.set()
    a.join(60)
    b.join(60)
    assert shape(second.messages()) == [
        "user:where is SN1?",
        "call:call_a",
        "tool:call_a",
        "answer",
        "user:and SN2?",
        "call:call_b",
        "tool:call_b",
        "answer",
    ]
    assert accepted_by_a_strict_gateway(first.messages())


# -- two processes ---------------------------------------------------------------------------
CHILD_TURN = r"""
import os, sys, time
from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop.run import run_loop
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool

db, started, go = sys.argv[1:4]

@tool("query an order")
def query_order(orderId: str) -> str:
    open(started, "w").close()
    deadline = time.monotonic() + 60
    while not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.01)
    return "shipped"

model = ScriptedModel([call("query_order", orderId="SN1", id="call_child"), "it shipped"])
run_loop(model, [UserMessage(content="where is SN1?")], tools=[query_order], memory=ChatMemory("user-1", store=SqliteStore(db)))
"""


def wait_for(path, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not os.path.exists(path):
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.01)


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")])}


def test_two_processes_on_one_sqlite_file_take_turns(tmp_path):
    db, started, go = tmp_path / "memory.db", tmp_path / "started", tmp_path / "go"
    child = subprocess.Popen([sys.executable, "-c", CHILD_TURN, str(db), str(started), str(go)], env=child_env())
    try:
        wait_for(started)  # the child's turn is running its tool
        memory = ChatMemory("user-1", store=SqliteStore(db))
        ours = threading.Thread(target=one_turn, args=(memory, "and SN2?", "call_parent"))
        ours.start()
        ours.join(0.3)  # waits for the child's turn
        go.touch()
        assert child.wait(60) == 0
        ours.join(60)
    finally:
        child.kill()
        child.wait()
    assert shape(memory.messages()) == [
        "user:where is SN1?",
        "call:call_child",
        "tool:call_child",
        "answer",
        "user:and SN2?",
        "call:call_parent",
        "tool:call_parent",
        "answer",
    ]
    assert accepted_by_a_strict_gateway(memory.messages())


CHILD_HOLDS = r"""
import sys, time
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory
memory = ChatMemory("user-1", store=SqliteStore(sys.argv[1]))
memory.lock.acquire()
print("held", flush=True)
time.sleep(60)
"""


def test_a_killed_process_leaves_no_id_locked(tmp_path):
    db = tmp_path / "memory.db"
    SqliteStore(db)  # created before the child opens it
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD_HOLDS, str(db)], stdout=subprocess.PIPE, text=True, env=child_env()
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "held\n"
        memory = ChatMemory("user-1", store=SqliteStore(db))
        assert memory.lock.acquire(blocking=False) is False  # the child's turn holds the id
        assert memory.lock.acquire(timeout=0.1) is False
        other = ChatMemory("user-2", store=SqliteStore(db))
        with other.lock:  # other ids are free
            pass
        child.send_signal(signal.SIGKILL)  # a crash: no cleanup runs
        child.wait(60)
        assert memory.lock.acquire(timeout=60) is True
        memory.lock.release()
    finally:
        child.kill()
        child.wait()
        if child.stdout is not None:
            child.stdout.close()


def _try_in_child(memory: ChatMemory, answer) -> None:
    answer.put(memory.lock.acquire(blocking=False))


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
# Python 3.12+ warns when a process with threads forks (the suite's earlier tests leave some, e.g. a
# loopback server's): this test forks on purpose, and its child only tries the lock and answers.
@pytest.mark.filterwarnings("ignore:This process .*is multi-threaded, use of fork:DeprecationWarning")
def test_a_forked_child_waits_for_its_parents_turn(tmp_path):
    memory = ChatMemory("user-1", store=SqliteStore(tmp_path / "memory.db"))
    context = multiprocessing.get_context("fork")
    answer = context.Queue()
    with memory.lock:  # a turn in progress while the child starts
        child = context.Process(target=_try_in_child, args=(memory, answer))
        child.start()
        held_by_parent = answer.get(timeout=60)
        child.join(60)
    child = context.Process(target=_try_in_child, args=(memory, answer))
    child.start()
    free_after = answer.get(timeout=60)
    child.join(60)
    assert (held_by_parent, free_after) == (False, True)


def test_a_lock_file_that_cannot_be_opened_is_a_store_error(tmp_path):
    db = tmp_path / "memory.db"
    store = SqliteStore(db)
    os.mkdir(f"{db}-turn-lock")  # a folder where the lock file should be
    with pytest.raises(MemoryStoreError) as caught:
        ChatMemory("user-1", store=store)
    assert str(caught.value) == (
        f"cannot open the turn lock file {db.resolve()}-turn-lock for memory id 'user-1': Is a directory (it keeps "
        "two processes' turns on one id apart; the folder must be writable and its file system must support "
        "POSIX record locks, as a local disk does)"
    )


class _Interrupted:
    """A turn lock's own lock, held by another turn: the wait for it is ended by Ctrl-C."""

    def acquire(self, blocking=True, timeout=-1):
        if blocking:
            raise KeyboardInterrupt
        return False


def _write_waited(where: str) -> str:
    return (
        f"{where} had not written: it was waiting for the turn on memory id 'u1' to end (a write from outside a "
        "turn waits for the turn running on its memory id), and nothing of it was stored; that turn is still "
        "running, in another thread or process (a turn whose task was cancelled runs on until the call it runs "
        "returns): a call that may hang can be given a time limit, LoopOptions(tool_timeout=30), which answers "
        "it after 30 s and lets its turn end"
    )


@pytest.mark.parametrize(
    ("where", "write"),
    [
        ("ChatMemory.add", lambda memory: memory.add(UserMessage(content="late"))),
        ("ChatMemory.update", lambda memory: memory.update(lambda current: current[:1])),
        ("ChatMemory.set", lambda memory: memory.set([])),
        ("ChatMemory.clear", lambda memory: memory.clear()),
    ],
    ids=["add", "update", "set", "clear"],
)
def test_ctrl_c_while_a_write_waits_for_a_turn_says_so(where, write):
    """A learner's write while another thread's turn holds the memory id waits for that turn, silently;
    Ctrl-C then was a bare KeyboardInterrupt (a turn's own wait said why: `wait_for_turn`)."""
    memory = ChatMemory("u1")
    memory.add(UserMessage(content="kept"))
    memory.lock._use(_Interrupted())  # another turn holds it
    with pytest.raises(KeyboardInterrupt) as raised:
        write(memory)
    assert raised.value.__notes__ == [_write_waited(where)]
    assert shape(memory.messages()) == ["user:kept"]


def test_ctrl_c_inside_a_write_s_store_is_not_told_as_a_wait():
    class Pressed(InMemoryStore):
        def append(self, memory_id, messages):
            raise KeyboardInterrupt

    memory = ChatMemory("u1", store=Pressed())
    with pytest.raises(KeyboardInterrupt) as raised:
        memory.add(UserMessage(content="hi"))
    assert getattr(raised.value, "__notes__", []) == []
