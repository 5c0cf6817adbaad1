"""`toolkit.memory.turns` and `toolkit.loop.run._OneTurn`: a Ctrl-C where CPython acts on one, as a hold on a
memory id's turn lock is taken or let go, never leaves the lock held by no one, held by a turn that has ended, or
let go under another thread.

CPython acts on a pending Ctrl-C as a Python function begins and after each call of a C function returns, before
the next bytecode stores what it returned. A trace function raises `KeyboardInterrupt` there: as a hold's
`__exit__` begins (`pressed_as_it_begins`), or at the bytecode after a call (`pressed_after`). Before:

- one as a write's hold was let go inside a turn (a saga's `memory.set`) kept that hold after the turn ended:
  every other thread's turn on the id waited for ever (a write by the thread holding the lock takes no hold now);
- one right after the lock's mutex was taken, before the answer was stored, left the mutex held by no one;
- one right after the mutex was let go, once another thread had taken it, let go of that thread's hold.
"""

import dis
import gc
import sys
import tempfile
import threading
from pathlib import Path
from typing import Annotated, Protocol

import pytest

from toolkit.chat.messages import UserMessage, to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.gateway.validate import check_request
from toolkit.loop.run import LoopOptions, iter_loop, run_loop
from toolkit.loop.saga import compensates
from toolkit.memory.store import SqliteStore
from toolkit.memory.turns import TurnLock, TurnRLock
from toolkit.memory.windows import ChatMemory
from toolkit.services import service
from toolkit.services.results import TokenStream
from toolkit.services.service import ai_service, memory_per_id
from toolkit.tools.decorator import MemoryId, tool

WAIT_S = 30
"""The most another thread waits for the lock, which it gets at once when the lock was let go."""


def pressed_after(code, offset, before=None):
    """A trace function raising `KeyboardInterrupt` in the first frame of `code` as its bytecode at `offset`
    is about to run (`before()` called first). Python then drops the trace function: one Ctrl-C."""

    def at_opcode(frame, event, arg):
        if event == "opcode" and frame.f_lasti == offset:
            if before is not None:
                before()
            raise KeyboardInterrupt
        return at_opcode

    def trace(frame, event, arg):
        return traced(frame, at_opcode) if frame.f_code is code else None

    return trace


def traced(frame, at_opcode):
    """Trace `frame` bytecode by bytecode (Python 3.12 and later look at `f_trace` as well)."""
    frame.f_trace_opcodes, frame.f_trace = True, at_opcode
    return at_opcode


def after_calls(function, run):
    """Where CPython acts on a Ctrl-C after a C function returns: the bytecode after each call that `run()` makes
    in the first frame of `function`."""
    code, seen = function.__code__, set()

    def at_opcode(frame, event, arg):
        if event == "opcode":
            seen.add(frame.f_lasti)
        return at_opcode

    sys.settrace(lambda frame, event, arg: traced(frame, at_opcode) if frame.f_code is code and not seen else None)
    try:
        run()
    finally:
        sys.settrace(None)
    found = list(dis.get_instructions(function))
    return [
        (code, found[i + 1].offset)
        for i, ins in enumerate(found[:-1])
        if ins.opname.startswith("CALL") and ins.offset in seen
    ]


def ids(places):
    return [f"{code.co_qualname}@{offset}" for code, offset in places]


def is_free(lock) -> bool:
    """Whether `lock` is free: no holder, and another thread takes it at once (and lets it go)."""
    got = []

    def take():
        got.append(lock.acquire(timeout=WAIT_S))
        if got[-1]:
            lock.release()

    thread = threading.Thread(target=take)
    thread.start()
    thread.join()
    return (lock._owner, lock._depth, got) == (None, 0, [True])


@tool("look an order up")
def lookup(order: str) -> str:
    return f"order {order}: shipped"


def turn(memory):
    return run_loop(
        ScriptedModel([[call("lookup", order="1")], "shipped"]), "where is order 1?", tools=[lookup], memory=memory
    )


def a_turn():
    turn(ChatMemory("places"))


LOCK_PLACES = [*after_calls(TurnRLock.acquire, a_turn), *after_calls(TurnRLock.release, a_turn)]


@pytest.mark.parametrize("code, offset", LOCK_PLACES, ids=ids(LOCK_PLACES))
def test_a_ctrl_c_after_any_call_in_taking_or_letting_go_of_a_turn_lock_leaves_it_free(code, offset):
    memory = ChatMemory("u1")
    sys.settrace(pressed_after(code, offset))
    try:
        with pytest.raises(KeyboardInterrupt):
            turn(memory)
    finally:
        sys.settrace(None)
    assert is_free(memory.lock)
    assert run_loop(ScriptedModel(["ok"]), "and now?", memory=memory).answer == "ok"
    check_request({"model": "m", "messages": to_openai(memory.messages())})


def a_sqlite_turn():
    with tempfile.TemporaryDirectory() as folder:
        turn(ChatMemory("places", store=SqliteStore(Path(folder) / "m.db")))


SQLITE_PLACES = [*after_calls(TurnLock.acquire, a_sqlite_turn), *after_calls(TurnLock.release, a_sqlite_turn)]


@pytest.mark.parametrize("code, offset", SQLITE_PLACES, ids=ids(SQLITE_PLACES))
def test_a_ctrl_c_after_any_call_in_a_sqlite_stores_turn_lock_leaves_it_and_its_byte_free(tmp_path, code, offset):
    memory = ChatMemory("u1", store=SqliteStore(tmp_path / "m.db"))
    sys.settrace(pressed_after(code, offset))
    try:
        with pytest.raises(KeyboardInterrupt):
            turn(memory)
    finally:
        sys.settrace(None)
    assert is_free(memory.lock)
    assert memory.lock.acquire(blocking=False)  # the byte too: a non-blocking take finds it free
    memory.lock.release()


def pressed_once(code, lock, held, before=None, at=None):
    """A trace function raising `KeyboardInterrupt` in the first frame of `code` at the first bytecode (among the
    offsets `at`, if given) at which `lock`'s mutex is `held` (taken, or let go), `before()` first."""

    def at_opcode(frame, event, arg):
        if event == "opcode" and lock._mutex.locked() == held and (at is None or frame.f_lasti in at):
            if before is not None:
                before()
            raise KeyboardInterrupt
        return at_opcode

    def trace(frame, event, arg):
        return traced(frame, at_opcode) if frame.f_code is code else None

    return trace


def memory_of(kind, tmp_path):
    return ChatMemory("u1", store=SqliteStore(tmp_path / "m.db")) if kind == "TurnLock" else ChatMemory("u1")


@pytest.mark.parametrize("kind", ["TurnRLock", "TurnLock"])
def test_a_ctrl_c_as_soon_as_the_mutex_is_taken_leaves_the_lock_free(tmp_path, kind):
    """Before, the mutex was left held by no one: every later turn on the id waited for ever. The Ctrl-C comes at
    the first place after a call where CPython acts on one, once the mutex is taken (now there is none before the
    turn has begun)."""
    memory = memory_of(kind, tmp_path)
    acquire = type(memory.lock).acquire
    (tmp_path / "places").mkdir()
    places = {offset for _, offset in after_calls(acquire, lambda: turn(memory_of(kind, tmp_path / "places")))}
    sys.settrace(pressed_once(acquire.__code__, memory.lock, True, at=places))
    try:
        turn(memory)
    except KeyboardInterrupt:
        pass
    finally:
        sys.settrace(None)
    assert is_free(memory.lock)
    assert run_loop(ScriptedModel(["ok"]), "and now?", memory=memory).answer == "ok"


@pytest.mark.parametrize("kind", ["TurnRLock", "TurnLock"])
def test_a_ctrl_c_after_the_last_release_never_lets_go_of_another_threads_hold(tmp_path, kind):
    """Before, the interrupted release saw the mutex held and let it go: under the thread that had taken it."""
    memory = memory_of(kind, tmp_path)
    lock = memory.lock
    taken, done, holder = threading.Event(), threading.Event(), []

    def other():
        holder.append(lock.acquire(timeout=WAIT_S))
        taken.set()
        done.wait(WAIT_S)
        lock.release()

    def start_other():  # the mutex is let go: another thread takes it before this one runs on
        thread.start()
        taken.wait(WAIT_S)

    thread = threading.Thread(target=other)
    lock.acquire()
    sys.settrace(pressed_once(type(lock).release.__code__, lock, False, start_other))
    try:
        with pytest.raises(KeyboardInterrupt):
            lock.release()
    finally:
        sys.settrace(None)
    try:
        assert holder == [True]
        assert (lock._owner, lock._depth, lock._mutex.locked()) == (thread.ident, 1, True)
    finally:
        done.set()
        thread.join()
    assert is_free(lock)


def test_a_ctrl_c_as_a_saga_rewrite_lets_go_of_its_write_leaves_the_lock_free_after_the_turn():
    """The saga rewrites memory (`memory.set`) inside the turn; a Ctrl-C came as that write's hold was let go."""

    @tool("reserve stock")
    def reserve(sku: str) -> str:
        return f"reserved {sku}"

    @tool("ship")
    def ship(order: str) -> str:
        raise RuntimeError("carrier down")

    @compensates("reserve")
    def unreserve(sku: str) -> None:
        pass

    memory = ChatMemory("u1")
    model = ScriptedModel([[call("reserve", sku="A1")], [call("ship", order="1")], "sorry"])
    options = LoopOptions(compensate=True, compensations=(unreserve,))
    sys.settrace(pressed_as_it_begins("__exit__", ChatMemory.set.__code__))
    try:
        with pytest.raises(KeyboardInterrupt):
            run_loop(model, "order it", tools=[reserve, ship], memory=memory, options=options)
    finally:
        sys.settrace(None)
    assert is_free(memory.lock)
    assert run_loop(ScriptedModel(["ok"]), "and now?", memory=memory).answer == "ok"
    check_request({"model": "m", "messages": to_openai(memory.messages())})


def pressed_as_it_begins(name, caller):
    """A trace function raising `KeyboardInterrupt` as the first function called `name` from `caller` begins."""

    def trace(frame, event, arg):
        if event == "call" and frame.f_code.co_name == name and frame.f_back.f_code is caller:
            raise KeyboardInterrupt
        return None

    return trace


# --- a hold kept by a Ctrl-C as its `__exit__` began: the turn it was taken in lets go of it, and of no other ---------


def pressed_as_exit_begins(code, name="__exit__"):
    """A trace function raising `KeyboardInterrupt` as the first function called `name` from a frame of `code`
    begins (Python acts on a pending Ctrl-C as any Python function begins)."""
    return pressed_as_it_begins(name, code)


def holding_tool(memory, caught=None):
    """A tool that takes `memory.lock` itself (`with memory.lock:`); with `caught`, it catches a Ctrl-C there and
    answers, so that its turn goes on with the hold kept."""

    @tool("look an order up, holding the memory")
    def careful(order: str) -> str:
        try:
            with memory.lock:
                pass
        except KeyboardInterrupt:
            if caught is None:
                raise
            caught.append(order)
        return f"order {order}: shipped"

    return careful


def careful_turn(memory, caught=None, stream=False):
    model = ScriptedModel([[call("careful", order="1")], "shipped"])
    tools = [holding_tool(memory, caught)]
    if stream:
        return list(iter_loop(model, "where is order 1?", tools=tools, memory=memory))
    return run_loop(model, "where is order 1?", tools=tools, memory=memory)


@pytest.mark.parametrize("stream", [False, True], ids=["run_loop", "iter_loop"])
@pytest.mark.parametrize("kind", ["TurnRLock", "TurnLock"])
@pytest.mark.parametrize("name", ["__exit__", "release"])
def test_a_ctrl_c_as_a_tools_own_hold_is_let_go_leaves_the_lock_free_after_its_turn(tmp_path, kind, name, stream):
    """Before, the tool's hold was kept after the turn ended: every other thread's turn on the id waited for ever."""
    memory = memory_of(kind, tmp_path)
    code = type(memory.lock).__exit__.__code__ if name == "release" else holding_tool(memory).__code__
    sys.settrace(pressed_as_exit_begins(code, name))
    try:
        with pytest.raises(KeyboardInterrupt):
            careful_turn(memory, stream=stream)
    finally:
        sys.settrace(None)
    assert is_free(memory.lock)
    assert run_loop(ScriptedModel(["ok"]), "and now?", memory=memory).answer == "ok"
    check_request({"model": "m", "messages": to_openai(memory.messages())})


@pytest.mark.parametrize("stream", [False, True], ids=["run_loop", "iter_loop"])
def test_a_hold_a_tool_kept_and_its_turn_went_on_is_let_go_as_the_turn_ends(stream):
    memory, caught = ChatMemory("u1"), []
    sys.settrace(pressed_as_exit_begins(holding_tool(memory).__code__))
    try:
        careful_turn(memory, caught, stream)
    finally:
        sys.settrace(None)
    assert caught == ["1"] and memory.messages()[-1].content == "shipped"
    assert is_free(memory.lock)


def test_a_learners_hold_around_a_turn_is_kept_and_only_the_turns_own_are_let_go():
    """The learner's `with memory.lock:` around a turn whose tool kept a hold: the turn lets go of its own two, the
    learner's stays (the learner's `with` lets go of it)."""
    memory, caught = ChatMemory("u1"), []
    with memory.lock:
        sys.settrace(pressed_as_exit_begins(holding_tool(memory).__code__))
        try:
            assert careful_turn(memory, caught).answer == "shipped"
        finally:
            sys.settrace(None)
        assert (memory.lock._owner, memory.lock._depth) == (threading.get_ident(), 1)
    assert caught == ["1"] and is_free(memory.lock)


def test_a_dropped_generator_whose_tool_kept_a_hold_lets_go_of_its_own_and_not_of_the_next_turns():
    """The turn's generator, read past its tool (which kept a hold), dropped in a reference cycle: the next turn's
    `__enter__` collects it, which ends it. It lets go of its two holds, never of the new turn's."""
    memory, caught = ChatMemory("u1"), []
    model = ScriptedModel([[call("careful", order="1")], "shipped"])
    events = iter_loop(model, "where is order 1?", tools=[holding_tool(memory, caught)], memory=memory)
    sys.settrace(pressed_as_exit_begins(holding_tool(memory).__code__))
    try:
        while caught == []:
            next(events)
    finally:
        sys.settrace(None)
    assert memory.lock._depth == 2
    holder = {"events": events}
    holder["self"] = holder  # only the garbage collector frees it
    del events, holder
    gc.disable()
    try:
        assert run_loop(ScriptedModel(["hello"]), "hi", memory=memory).answer == "hello"
    finally:
        gc.enable()
    assert is_free(memory.lock)
    check_request({"model": "m", "messages": to_openai(memory.messages())})


# --- outside a turn: `ai_service`'s hold around its loop, and the note it writes after a failed turn -----------------


class Chat(Protocol):
    def chat(self, user: Annotated[str, MemoryId], question: str) -> str: ...

    def stream(self, user: Annotated[str, MemoryId], question: str) -> TokenStream: ...


def failing(request):
    raise RuntimeError("gateway down")


@pytest.mark.parametrize(
    "where, code, replies",
    [
        ("TurnHeld.__exit__", service._invoke.__code__, ["ok", "again"]),
        ("Held.__exit__ after a failed turn", service._close_failed_turn.__code__, [failing, "again"]),
    ],
    ids=["TurnHeld", "close_failed_turn"],
)
def test_a_ctrl_c_as_ai_services_hold_is_let_go_leaves_the_lock_free(where, code, replies):
    """Before, `ai_service`'s hold around its loop (`TurnHeld`), or the one it takes to note that a failed turn's
    question got no reply, was kept: every other thread's turn on the id waited for ever."""
    memories = memory_per_id()
    chat = ai_service(Chat, model=ScriptedModel(replies), memory=memories)
    sys.settrace(pressed_as_exit_begins(code))
    try:
        with pytest.raises(KeyboardInterrupt):
            chat.chat("u1", "first")
    finally:
        sys.settrace(None)
    memory = memories("u1")
    assert is_free(memory.lock)
    assert chat.chat("u1", "second") == "again"
    check_request({"model": "m", "messages": to_openai(memory.messages())})


def test_a_ctrl_c_as_a_token_streams_note_is_let_go_leaves_the_lock_free():
    memories = memory_per_id()
    chat = ai_service(Chat, model=ScriptedModel([failing, "again"]), memory=memories)
    sys.settrace(pressed_as_exit_begins(service._close_failed_turn.__code__))
    try:
        with pytest.raises(KeyboardInterrupt):
            list(chat.stream("u1", "first"))
    finally:
        sys.settrace(None)
    assert is_free(memories("u1").lock)
    assert chat.chat("u1", "second") == "again"


WRITES = {
    "add": lambda memory: memory.add(UserMessage(content="noted")),
    "update": lambda memory: memory.update(lambda current: [*current, UserMessage(content="noted")]),
    "set": lambda memory: memory.set([UserMessage(content="noted")]),
    "clear": lambda memory: memory.clear(),
}


@pytest.mark.parametrize("kind", ["TurnRLock", "TurnLock"])
@pytest.mark.parametrize("write", list(WRITES))
def test_a_ctrl_c_as_a_learners_write_lets_go_of_its_hold_leaves_the_lock_free(tmp_path, kind, write):
    """A write from outside a turn (`memory.add` in a cell) takes the lock (`write_hold`); before, a Ctrl-C as that
    hold's `__exit__` began kept it: every other thread's turn on the id waited for ever. The write is done."""
    memory = memory_of(kind, tmp_path)
    sys.settrace(pressed_as_it_begins("__exit__", getattr(ChatMemory, "add_all" if write == "add" else write).__code__))
    try:
        with pytest.raises(KeyboardInterrupt):
            WRITES[write](memory)
    finally:
        sys.settrace(None)
    assert is_free(memory.lock)
    assert memory.messages() == ([] if write == "clear" else [UserMessage(content="noted")])
