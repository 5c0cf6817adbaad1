"""`toolkit.loop.run` and `toolkit.memory.turns`: an `iter_loop` turn read, or closed, from other threads.

A web server streams a generator from a thread pool (Starlette's streaming response reads a
plain iterator with anyio's `iterate_in_threadpool`): each `next()` may run in another thread,
and so may `close()`. The turn lock was a `threading.RLock`, which belongs to the thread that
took it, so the turn's first write to memory from another thread waited for it forever.
Each step runs here in a new daemon thread, with a time limit: a hang fails the test.
"""

import itertools
import queue
import threading
from typing import Protocol

import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage, to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.gateway.validate import check_request
from toolkit.loop.records import ToolFinished, ToolStarted
from toolkit.loop.run import iter_loop, run_loop
from toolkit.memory.store import SqliteStore
from toolkit.memory.turns import TurnRLock
from toolkit.memory.windows import ChatMemory, InMemoryStore
from toolkit.services.service import TokenStream, ai_service
from toolkit.tools.decorator import tool

LIMIT = 120.0  # seconds: only a deadlock reaches it (a step ends at once when things are right; 10 s was hit once
# by the full suite on a 2-core host running six suites at once, 60 s once by one running beside six QA helpers)


@tool("look an order up")
def lookup(order: str) -> str:
    return f"order {order}: shipped"


class Worker:
    """A daemon thread that runs steps given to it, as a server's pool worker does: alive between
    steps, so two workers never share a thread id (a new thread may reuse a finished one's)."""

    def __init__(self):
        self.steps: queue.Queue = queue.Queue()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            step, out, done = self.steps.get()
            try:
                out["value"] = step()
            except BaseException as exc:  # noqa: BLE001 - handed back to the test
                out["error"] = exc
            done.set()

    def run(self, step, limit=LIMIT):
        """`step()` run in this worker; what it returned (or raised). A hang fails the test."""
        out: dict = {}
        done = threading.Event()
        self.steps.put((step, out, done))
        if not done.wait(limit):
            pytest.fail(f"the step did not finish within {limit} s (deadlock)")
        if "error" in out:
            raise out["error"]
        return out.get("value")


WORKERS = [Worker() for _ in range(3)]
_turns = itertools.count()


def in_thread(step, limit=LIMIT):
    """`step()` run in the next of three workers, none of them this thread."""
    return WORKERS[next(_turns) % len(WORKERS)].run(step, limit)


def turn(memory):
    model = ScriptedModel([[call("lookup", order="1"), call("lookup", order="2")], "both shipped"])
    return iter_loop(model, [UserMessage(content="where are my orders?")], tools=[lookup], memory=memory)


def valid(messages):
    check_request({"model": "m", "messages": to_openai(list(messages))})
    return True


def memories(tmp_path):
    return [ChatMemory("chat"), ChatMemory("chat", store=SqliteStore(tmp_path / "m.db"))]


@pytest.mark.parametrize("kind", ["in memory", "sqlite"])
def test_each_step_in_another_thread_finishes_the_turn(tmp_path, kind):
    memory = memories(tmp_path)[kind == "sqlite"]
    events = turn(memory)
    seen = []
    while True:
        event = in_thread(lambda: next(events, None))
        if event is None:
            break
        seen.append(type(event))
    assert seen == [ToolStarted, ToolFinished, ToolStarted, ToolFinished]
    messages = memory.messages()
    assert valid(messages)
    assert [m.content for m in messages if isinstance(m, ToolResultMessage)] == [
        "order 1: shipped",
        "order 2: shipped",
    ]
    assert messages[-1].content == "both shipped"
    assert in_thread(lambda: (memory.lock.acquire(blocking=False), memory.lock.release())[0])  # free


@pytest.mark.parametrize("kind", ["in memory", "sqlite"])
def test_closed_from_another_thread_answers_the_calls_and_frees_the_memory(tmp_path, kind):
    memory = memories(tmp_path)[kind == "sqlite"]
    events = turn(memory)
    assert isinstance(next(events), ToolStarted)  # suspended before the first call runs
    in_thread(events.close)
    messages = memory.messages()
    assert valid(messages)
    assert [m.content for m in messages if isinstance(m, ToolResultMessage)] == [
        "Not completed: the turn was interrupted by GeneratorExit."
    ] * 2
    answer = in_thread(lambda: run_loop(ScriptedModel(["hello"]), [UserMessage(content="hi")], memory=memory))
    assert answer.answer == "hello"
    assert valid(memory.messages())


def test_an_error_thrown_in_from_another_thread_is_the_turns():
    memory = ChatMemory("chat")
    events = turn(memory)
    next(events)
    with pytest.raises(KeyboardInterrupt):
        in_thread(lambda: events.throw(KeyboardInterrupt()))
    assert valid(memory.messages())
    assert in_thread(lambda: run_loop(ScriptedModel(["hello"]), [UserMessage(content="hi")], memory=memory)).answer


def test_a_turn_resumed_elsewhere_still_keeps_another_threads_turn_out():
    memory = ChatMemory("chat")
    events = turn(memory)
    next(events)  # this thread started the turn
    WORKERS[0].run(lambda: next(events))  # another thread resumed it: the turn goes on holding the lock
    other = threading.Thread(
        target=lambda: run_loop(ScriptedModel(["hello"]), [UserMessage(content="hi")], memory=memory), daemon=True
    )
    other.start()
    other.join(0.2)
    assert other.is_alive()  # waits for the turn, rather than slipping in between its calls and results
    for _ in events:
        pass
    other.join(LIMIT)
    assert not other.is_alive()
    messages = memory.messages()
    assert valid(messages)
    assert [m.content for m in messages[-2:]] == ["hi", "hello"]  # after the whole first turn


def test_a_second_turn_of_the_thread_that_resumed_a_suspended_generator_is_refused():
    memory = ChatMemory("chat")
    events = turn(memory)
    next(events)
    in_thread(lambda: next(events))

    def second_turn_while_suspended():
        with pytest.raises(Exception, match="still in progress in this thread"):
            run_loop(ScriptedModel(["hello"]), [UserMessage(content="hi")], memory=memory)
        return True

    lock_free_for_others = threading.Event()

    def resume_and_check():  # the thread that resumed it last holds it: its own new turn is refused
        next(events)
        second_turn_while_suspended()
        events.close()
        lock_free_for_others.set()

    in_thread(resume_and_check)
    assert lock_free_for_others.is_set()
    assert valid(memory.messages())


def test_turn_rlock_is_reentrant_and_owned_like_an_rlock():
    lock = TurnRLock()
    assert repr(lock) == "<TurnRLock (free)>"
    with lock, lock:
        assert repr(lock) == "<TurnRLock (held)>"
        assert in_thread(lambda: lock.acquire(blocking=False)) is False
        assert in_thread(lambda: lock.acquire(timeout=0.01)) is False
        with pytest.raises(RuntimeError, match="cannot release un-acquired lock"):
            in_thread(lock.release)
    assert in_thread(lambda: lock.acquire(blocking=False)) is True  # taken by a thread that is gone now
    with pytest.raises(RuntimeError, match="cannot release un-acquired lock"):
        lock.release()


def test_adopt_moves_every_hold_to_the_calling_thread_without_letting_go():
    lock = TurnRLock()
    lock.acquire()
    lock.acquire()

    def adopt_and_release_twice():
        lock.adopt()
        assert lock.acquire(blocking=False)  # the holder now: reentrant
        lock.release()
        lock.release()
        assert repr(lock) == "<TurnRLock (held)>"
        lock.release()
        return repr(lock)

    assert in_thread(adopt_and_release_twice) == "<TurnRLock (free)>"
    with pytest.raises(RuntimeError):
        lock.release()  # this thread holds nothing any more
    free = TurnRLock()
    free.adopt()  # a free lock stays free
    assert free.acquire(blocking=False)
    free.release()


def test_in_memory_store_hands_out_one_turn_rlock_per_id():
    store = InMemoryStore()
    assert type(store.turn_lock("a")) is TurnRLock
    assert store.turn_lock("a") is store.turn_lock("a") is not store.turn_lock("b")


class Streaming(Protocol):
    def stream(self, question: str) -> TokenStream: ...


def test_a_services_streamed_answer_read_from_a_thread_pool():
    memory = ChatMemory("chat")
    model = ScriptedModel([call("lookup", order="1"), "shipped"])
    stream = ai_service(Streaming, model=model, tools=[lookup], memory=memory).stream("where is order 1?")
    events = iter(stream)  # what a streaming response reads, one next() at a time
    kinds = []
    while (event := in_thread(lambda: next(events, None))) is not None:
        kinds.append(type(event).__name__)
    assert kinds == ["ToolCallDelta", "ToolStarted", "ToolFinished", "TextDelta", "TextDelta"]
    assert stream.result.content == "shipped"
    assert valid(memory.messages())
    assert memory.messages()[-1].content == "shipped"
