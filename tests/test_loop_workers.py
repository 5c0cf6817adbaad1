"""`toolkit.loop.workers`: kept threads for concurrent rounds. A task starts at once (an idle
thread or a new one, never a queue), so nested rounds cannot deadlock; a thread is reused, waits
at most `IDLE_SECONDS` and at most `KEEP` wait; each task has a fresh context; a forked child
forgets the parent's idle threads. And the loop's concurrent rounds run on them."""

import contextvars
import os
import sys
import threading
import time

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop import workers
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import run_loop
from toolkit.tools.decorator import tool

WAIT = 60  # seconds: a deadlock fails the test instead of hanging it (at once when things are right)


def run(task, timeout=WAIT):
    """Start `task` on a kept thread and wait until it finished; the thread it ran on."""
    done = threading.Event()
    where = []

    def wrapped():
        where.append(threading.current_thread())
        task()
        done.set()

    workers.start(wrapped)
    assert done.wait(timeout), "the task never finished"
    return where[0]


def wait_until(condition, timeout=WAIT):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the condition never held"
        time.sleep(0.005)


def idle_again(inboxes):
    """Wait until the kept thread whose inbox the task saw is the next one `start` takes (the last
    idle): an idle thread left by an earlier test made `idle_count() >= 1` hold before it, and the
    next task went to that one (a test failed once so on a loaded host)."""
    wait_until(lambda: workers._idle[-1:] == inboxes)


def test_a_task_runs_on_another_thread_and_the_thread_is_reused():
    inboxes = []
    first = run(lambda: inboxes.append(workers._current.inbox))
    assert first is not threading.current_thread()
    idle_again(inboxes)
    assert run(lambda: None) is first  # the idle thread took it: no new thread


def test_tasks_that_wait_for_tasks_they_start_never_deadlock():
    """Ten levels deep, each task starting the next and waiting for it: a fixed-size pool would
    hang at its size; here each start finds an idle thread or makes one."""

    def nested(level):
        if level:
            run(lambda: nested(level - 1))

    run(lambda: nested(10))


def test_each_task_starts_with_an_empty_context():
    flag = contextvars.ContextVar("flag", default="unset")
    seen = []
    inboxes = []
    thread = run(lambda: (flag.set("set by the first task"), inboxes.append(workers._current.inbox)))
    idle_again(inboxes)
    assert run(lambda: seen.append(flag.get())) is thread
    assert seen == ["unset"]


def end_idle_threads(monkeypatch):
    """End the threads earlier tests left waiting: each gets a task to run and, none being kept
    (`KEEP` 0), ends after it."""
    monkeypatch.setattr(workers, "KEEP", 0)
    while workers.idle_count():
        run(lambda: None)
    monkeypatch.undo()


def test_an_idle_thread_ends_after_its_wait(monkeypatch):
    end_idle_threads(monkeypatch)
    monkeypatch.setattr(workers, "IDLE_SECONDS", 0.05)
    thread = run(lambda: None)
    wait_until(lambda: not thread.is_alive())
    assert workers.idle_count() == 0


def test_at_most_keep_threads_wait(monkeypatch):
    end_idle_threads(monkeypatch)
    monkeypatch.setattr(workers, "KEEP", 1)
    gate = threading.Barrier(4, timeout=WAIT)
    threads = []
    for _ in range(3):  # three at once: three threads
        workers.start(lambda: (threads.append(threading.current_thread()), gate.wait()))
    gate.wait()
    wait_until(lambda: sum(t.is_alive() for t in threads) <= 1)
    assert workers.idle_count() == 1


def test_every_task_runs_when_waits_end_as_tasks_arrive(monkeypatch):
    """Idle waits of a millisecond: a thread's wait often ends just as a task is handed to it
    (`_work`'s race); every task still runs, once."""
    monkeypatch.setattr(workers, "IDLE_SECONDS", 0.001)
    ran = []
    lock = threading.Lock()

    def task(i):
        with lock:
            ran.append(i)

    for i in range(300):
        workers.start(lambda i=i: task(i))
        if i % 7 == 0:
            time.sleep(0.001)
    wait_until(lambda: len(ran) == 300)
    assert sorted(ran) == list(range(300))


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin", reason="needs os.fork")
def test_a_forked_child_starts_its_own_threads():
    run(lambda: None)
    wait_until(lambda: workers.idle_count() >= 1)  # the parent has an idle thread
    pid = os.fork()
    if pid == 0:  # the child: the idle thread is not here; a task must still run
        done = threading.Event()
        workers.start(done.set)
        os._exit(0 if done.wait(WAIT) else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@tool("add two numbers")
def add(a: int, b: int) -> int:
    return a + b


def test_concurrent_rounds_reuse_threads_instead_of_starting_new_ones():
    """Twenty rounds of two calls: a thread per call and round (forty) before; a few now (on a
    loaded machine a lane started for a call another lane took first may come back to wait only
    as the next round starts, which then starts a thread)."""
    threads = []

    @tool("add two numbers, saying on which thread")
    def add_here(a: int, b: int) -> int:
        threads.append(threading.current_thread())
        return a + b

    options = LoopOptions(concurrent=True)
    for _ in range(20):
        model = ScriptedModel([[call("add_here", a=1, b=2), call("add_here", a=3, b=4)], "10"])
        result = run_loop(model, [UserMessage(content="sum")], tools=[add_here], options=options)
        assert [e.result.content for e in result.executions] == ["3", "7"]
    assert len(threads) == 40 and threading.current_thread() not in threads
    assert len(set(threads)) <= 10


def test_a_tool_that_runs_a_concurrent_loop_inside_a_concurrent_round_finishes():
    inner_options = LoopOptions(concurrent=True, max_workers=2)

    @tool("sum four numbers with a loop of its own")
    def total(a: int, b: int, c: int, d: int) -> int:
        model = ScriptedModel([[call("add", a=a, b=b), call("add", a=c, b=d)], "ok"])
        result = run_loop(model, [UserMessage(content="sum")], tools=[add], options=inner_options)
        return sum(int(e.result.content) for e in result.executions)

    answers = []

    def outer():
        calls = [call("total", a=i, b=1, c=2, d=3) for i in range(4)]
        options = LoopOptions(concurrent=True, max_workers=4)
        result = run_loop(ScriptedModel([calls, "done"]), [UserMessage(content="go")], tools=[total], options=options)
        answers.extend(e.result.content for e in result.executions)

    run(outer)
    assert answers == ["6", "7", "8", "9"]


def test_a_round_whose_further_threads_cannot_start_runs_its_calls_on_fewer(monkeypatch):
    """Only the first lane's thread starts (the system refuses more): every call still runs,
    on that one thread, instead of the round waiting for a lane that never began."""
    from toolkit.loop import together

    started = []

    def first_only(task):
        if started:
            raise RuntimeError("can't start new thread")
        started.append(task)
        workers.start(task)

    monkeypatch.setattr(together, "start_thread", first_only)
    threads = []

    @tool("add two numbers, saying on which thread")
    def add_here(a: int, b: int) -> int:
        threads.append(threading.current_thread())
        return a + b

    answers = []

    def go():
        calls = [call("add_here", a=i, b=1) for i in range(3)]
        model = ScriptedModel([calls, "done"])
        result = run_loop(model, [UserMessage(content="sum")], tools=[add_here], options=LoopOptions(concurrent=True))
        answers.extend(e.result.content for e in result.executions)

    worker = threading.Thread(target=go, daemon=True)
    worker.start()
    worker.join(WAIT)
    assert not worker.is_alive(), "the round waited for a lane that never started"
    assert answers == ["1", "2", "3"] and len(set(threads)) == 1


def test_a_task_that_raises_is_reported_and_its_thread_goes_on(monkeypatch):
    end_idle_threads(monkeypatch)
    reported = []
    monkeypatch.setattr(threading, "excepthook", reported.append)

    def offer_then_fail():  # offered as idle during the task, as a round's last lane is
        workers.offer_now()
        raise ValueError("a bug in a task")

    thread = run(lambda: None)
    wait_until(lambda: workers.idle_count() >= 1)
    workers.start(offer_then_fail)
    wait_until(lambda: len(reported) == 1)
    assert reported[0].exc_type is ValueError and reported[0].thread is thread
    assert run(lambda: None) is thread  # its inbox, offered, still has a thread behind it
