"""`toolkit.loop.run` and `toolkit.memory.turns`: a Ctrl-C at any line of the code that takes or lets go of a
memory id's turn lock leaves it free once the turn has ended.

A trace function raises `KeyboardInterrupt` as a chosen line of `_OneTurn.__enter__` / `__exit__` or of the
lock's `acquire` / `release` begins, or as the function itself begins (where CPython acts on a pending Ctrl-C:
a frame's RESUME checks for signals). Before, one between `__exit__`'s two statements (or at its start) kept
the lock held: another thread's turn on the id waited for ever, and the learner's next turn was refused as
"still in progress"; one between `release`'s last two statements left the lock's mutex held by no one, and
every later turn, the learner's too, waited for ever.
"""

import inspect
import sys
import threading

import pytest

from toolkit.chat.messages import to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.gateway.validate import check_request
from toolkit.loop.run import _IN_TURN, _OneTurn, iter_loop, run_loop
from toolkit.memory.store import SqliteStore
from toolkit.memory.turns import TurnLock, TurnRLock
from toolkit.memory.windows import ChatMemory, InMemoryStore
from toolkit.tools.decorator import tool

WAIT_S = 30
"""The most another thread waits for the lock, which it gets at once when the lock was let go."""


@tool("look an order up")
def lookup(order: str) -> str:
    return f"order {order}: shipped"


def pressed(code, line):
    """A trace function raising `KeyboardInterrupt` in the first frame of `code`: as it begins (`line` None),
    or as its line `line` begins. Python then drops the trace function: one Ctrl-C."""

    def at_line(frame, event, arg):
        if event == "line" and frame.f_lineno == line:
            raise KeyboardInterrupt
        return at_line

    def trace(frame, event, arg):
        if frame.f_code is code:
            if line is None:
                raise KeyboardInterrupt
            return at_line
        return None

    return trace


def places(function):
    """Where a Ctrl-C may land in `function`: as it begins, and as each of its lines begins."""
    code = function.__code__
    return [(code, None)] + [(code, line) for line in sorted({line for *_, line in code.co_lines() if line})]


PLACES = [
    *places(_OneTurn.__enter__),
    *places(_OneTurn.__exit__),
    *places(TurnRLock.acquire),
    *places(TurnRLock.release),
]


def taken_elsewhere(lock) -> bool:
    """Whether another thread gets `lock` (it lets it go again)."""
    got = []

    def take():
        got.append(lock.acquire(timeout=WAIT_S))
        if got[-1]:
            lock.release()

    thread = threading.Thread(target=take)
    thread.start()
    thread.join()
    return got == [True]


def turn(memory, stream=False):
    model = ScriptedModel([[call("lookup", order="1")], "shipped"])
    if stream:
        return list(iter_loop(model, "where is order 1?", tools=[lookup], memory=memory))
    return run_loop(model, "where is order 1?", tools=[lookup], memory=memory)


@pytest.mark.parametrize("stream", [False, True], ids=["run_loop", "iter_loop"])
@pytest.mark.parametrize("code, line", PLACES, ids=[f"{c.co_qualname}:{line}" for c, line in PLACES])
def test_a_ctrl_c_anywhere_in_taking_or_letting_go_of_the_turn_lock_leaves_it_free(code, line, stream):
    memory = ChatMemory("u1")
    sys.settrace(pressed(code, line))
    try:
        turn(memory, stream)
    except KeyboardInterrupt:
        pass
    finally:
        sys.settrace(None)
    lock = memory.lock
    assert id(lock) not in _IN_TURN
    assert (lock._owner, lock._depth, lock._mutex.locked()) == (None, 0, False)
    assert taken_elsewhere(lock)
    assert run_loop(ScriptedModel(["ok"]), "and now?", memory=memory).answer == "ok"
    assert [type(m).__name__ for m in memory.messages()][-2:] == ["UserMessage", "AssistantMessage"]
    check_request({"model": "m", "messages": to_openai(memory.messages())})


TURN_LOCK_PLACES = [*places(TurnLock.acquire), *places(TurnLock.release)]


@pytest.mark.parametrize(
    "code, line", TURN_LOCK_PLACES, ids=[f"{c.co_qualname}:{line}" for c, line in TURN_LOCK_PLACES]
)
def test_a_ctrl_c_anywhere_in_a_sqlite_stores_turn_lock_leaves_it_free(tmp_path, code, line):
    memory = ChatMemory("u1", store=SqliteStore(tmp_path / "m.db"))
    sys.settrace(pressed(code, line))
    try:
        turn(memory)
    except KeyboardInterrupt:
        pass
    finally:
        sys.settrace(None)
    lock = memory.lock
    assert (lock._owner, lock._depth, lock._mutex.locked()) == (None, 0, False)
    assert taken_elsewhere(lock)
    assert run_loop(ScriptedModel(["ok"]), "and now?", memory=memory).answer == "ok"


class OwnLockStore(InMemoryStore):
    """A store whose turn locks are its own `threading.RLock`s (which say whether they are held, not how often)."""

    def __init__(self):
        super().__init__()
        self.locks = {}

    def turn_lock(self, memory_id):
        return self.locks.setdefault(memory_id, threading.RLock())


OWN_LOCK_PLACES = [*places(_OneTurn.__enter__), *places(_OneTurn.__exit__)]


@pytest.mark.parametrize("code, line", OWN_LOCK_PLACES, ids=[f"{c.co_qualname}:{line}" for c, line in OWN_LOCK_PLACES])
def test_a_ctrl_c_anywhere_in_taking_or_letting_go_of_a_stores_own_rlock_leaves_it_free(code, line):
    memory = ChatMemory("u1", store=OwnLockStore())
    sys.settrace(pressed(code, line))
    try:
        turn(memory)
    except KeyboardInterrupt:
        pass
    finally:
        sys.settrace(None)
    lock = memory.lock
    assert id(lock) not in _IN_TURN
    assert not lock._is_owned()
    assert taken_elsewhere(lock)
    assert run_loop(ScriptedModel(["ok"]), "and now?", memory=memory).answer == "ok"


def test_a_stale_entry_left_by_an_interrupted_exit_is_ended_by_the_next_turn_of_its_thread():
    """A turn whose `__exit__` a Ctrl-C stopped as it began, found by the next turn (not by the raising
    `run_loop`: here the entry and the hold are made as it would leave them)."""
    memory = ChatMemory("u1")
    turn(memory)
    lock = memory.lock
    lock.acquire()
    _IN_TURN[id(lock)] = (lock, threading.get_ident())
    assert run_loop(ScriptedModel(["ok"]), "and now?", memory=memory).answer == "ok"
    assert id(lock) not in _IN_TURN
    assert (lock._owner, lock._depth, lock._mutex.locked()) == (None, 0, False)


ENDED_STOPPED = (
    "This turn had ended when this came, as it let go of its memory: memory holds all of it, answer included "
    "(memory.messages() shows it); nothing needs to run or be asked again."
)


def lines_run(code):
    """The lines of `code` a turn runs (those of its handlers not among them)."""
    seen = set()

    def at_line(frame, event, arg):
        if event == "line":
            seen.add(frame.f_lineno)
        return at_line

    sys.settrace(lambda frame, event, arg: at_line if frame.f_code is code else None)
    try:
        turn(ChatMemory("lines"))
    finally:
        sys.settrace(None)
    return sorted(seen)


EXIT = _OneTurn.__exit__.__code__


@pytest.mark.parametrize("stream", [False, True], ids=["run_loop", "iter_loop"])
@pytest.mark.parametrize("line", [None, *lines_run(EXIT)])
def test_a_ctrl_c_as_an_ended_turn_lets_go_of_its_lock_says_the_turn_had_ended(line, stream):
    """The Ctrl-C came after the answer was stored: it said nothing, and the learner asked again (the tools ran twice)."""
    memory = ChatMemory("u1")
    sys.settrace(pressed(EXIT, line))
    try:
        with pytest.raises(KeyboardInterrupt) as raised:
            turn(memory, stream)
    finally:
        sys.settrace(None)
    assert raised.value.__notes__ == [ENDED_STOPPED]
    assert memory.messages()[-1].content == "shipped"


def test_a_ctrl_c_as_a_stopped_turn_lets_go_of_its_lock_carries_that_turn():
    """The turn raised (a tool's Ctrl-C), and a second one came as it let go of the lock: that one carries what the
    first one carried (the trace, and where the turn stopped), not nothing."""
    memory = ChatMemory("u1")

    @tool("look an order up")
    def pressed_in(order: str) -> str:
        raise KeyboardInterrupt

    source, first = inspect.getsourcelines(_OneTurn.__exit__)
    release = first + next(i for i, text in enumerate(source) if text.strip() == "lock.release()")
    model = ScriptedModel([[call("pressed_in", order="1")], "shipped"])
    sys.settrace(pressed(_OneTurn.__exit__.__code__, release))
    try:
        with pytest.raises(KeyboardInterrupt) as raised:
            run_loop(model, "where is order 1?", tools=[pressed_in], memory=memory)
    finally:
        sys.settrace(None)
    assert raised.value.__context__ is not None  # the second one, raised while the first was handled
    assert raised.value.loop_result is raised.value.__context__.loop_result
    assert raised.value.loop_result.rounds[0].decision == "stopped: KeyboardInterrupt"
    assert (memory.lock._owner, memory.lock._depth, id(memory.lock) in _IN_TURN) == (None, 0, False)
