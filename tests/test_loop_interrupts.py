"""`toolkit.loop.run` interrupted twice: a second Ctrl-C while a concurrent round waits for its
running calls ends the wait, and the calls that finished still keep their real results (in
memory and in the trace the interruption carries); the call still running reads "outcome unknown",
and no longer counts as serving the interrupted turn (a write it makes later waits for the memory's lock).
"""

import gc
import logging
import signal
import sys
import threading
from collections.abc import Iterator

import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage, to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.gateway.validate import check_request
from toolkit.loop.records import ToolFinished, ToolStarted
from toolkit.loop.run import LoopOptions, iter_loop, run_loop
from toolkit.loop.texts import EN
from toolkit.memory.turns import serving
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool

WAIT_S = 60
"""The most a call here waits for the step before it, which comes at once when the loop is right."""


@pytest.fixture
def loop_warnings() -> Iterator[tuple[list[str], threading.Event]]:
    """The `toolkit.loop` logger's warnings while the test runs, and an event set at each (a tool waits
    for the loop to say it waits for it)."""
    lines: list[str] = []
    warned = threading.Event()

    class Seen(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())
            warned.set()

    handler, logger = Seen(level=logging.WARNING), logging.getLogger("toolkit.loop")
    logger.addHandler(handler)
    try:
        yield lines, warned
    finally:
        logger.removeHandler(handler)


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs signal.pthread_kill (POSIX)")
def test_a_second_ctrl_c_while_running_calls_finish_keeps_the_finished_results(monkeypatch):
    import toolkit.loop.together as together

    quick_done, release, stopping, ended = threading.Event(), threading.Event(), threading.Event(), threading.Event()
    after = []
    stop = together._Together.stop

    def waits_for_the_running_calls(self, cause):  # the round's own stop, telling the test it has begun
        stopping.set()
        return stop(self, cause)

    monkeypatch.setattr(together._Together, "stop", waits_for_the_running_calls)
    main = threading.main_thread().ident  # a signal sent to the process may land on a busy thread
    presses = []

    def handler(signum, frame):
        presses.append(signum)
        raise KeyboardInterrupt

    @tool("a quick call")
    def quick(item: str) -> str:
        quick_done.set()
        return f"booked {item}"

    @tool("a call that hangs")
    def hang(item: str) -> str:
        quick_done.wait(WAIT_S)
        signal.pthread_kill(main, signal.SIGINT)  # the learner presses Ctrl-C: the loop waits for this call
        stopping.wait(WAIT_S)  # the loop is now waiting for this call (no sleep: a loaded machine may be slower)
        signal.pthread_kill(main, signal.SIGINT)  # and again: the wait ends
        release.wait(WAIT_S)
        after.append(serving())  # nobody waits for it now: a write it makes must wait for the memory's lock
        ended.set()
        return "too late"

    previous = signal.signal(signal.SIGINT, handler)
    memory = ChatMemory()
    model = ScriptedModel([[call("quick", item="A"), call("hang", item="B")], "done"])
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            run_loop(
                model,
                [UserMessage(content="q")],
                tools=[quick, hang],
                memory=memory,
                options=LoopOptions(concurrent=True, max_workers=2),
            )
    finally:
        release.set()
        signal.signal(signal.SIGINT, previous)
    assert len(presses) == 2
    results = [m.content for m in memory.messages() if isinstance(m, ToolResultMessage)]
    assert results == ["booked A", EN.interrupted_running.format(error="KeyboardInterrupt")]
    assert [e.result.content for e in caught.value.loop_result.executions] == ["booked A"]
    check_request({"model": "m", "messages": to_openai(memory.messages())})
    assert ended.wait(WAIT_S) and list(after[0]) == []


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs signal.pthread_kill (POSIX)")
def test_a_first_ctrl_c_in_a_concurrent_round_says_it_waits_for_the_running_calls_and_how_to_stop_waiting(
    loop_warnings,
):
    """One Ctrl-C in a concurrent round waits for the calls still running (their results are kept):
    a notebook cell stayed busy with no word of why, nor that a second Ctrl-C ends the wait."""
    lines, warned = loop_warnings
    main = threading.main_thread().ident
    quick_done = threading.Event()

    @tool("a quick call")
    def quick(item: str) -> str:
        quick_done.set()
        return f"booked {item}"

    @tool("a slow call")
    def slow(item: str) -> str:
        quick_done.wait(WAIT_S)
        signal.pthread_kill(main, signal.SIGINT)  # the learner presses Ctrl-C once
        warned.wait(WAIT_S)  # the loop said it waits for this call
        return f"shipped {item}"

    memory = ChatMemory()
    model = ScriptedModel([[call("quick", item="A", id="c1"), call("slow", item="B", id="c2")], "done"])
    with pytest.raises(KeyboardInterrupt):
        run_loop(
            model,
            [UserMessage(content="q")],
            tools=[quick, slow],
            memory=memory,
            options=LoopOptions(concurrent=True, max_workers=2),
        )
    assert lines == [
        "a concurrent round was interrupted (KeyboardInterrupt): waiting for its calls still running, c2 (slow), "
        "so their results are kept; interrupt again to stop waiting (their outcome is then unknown)"
    ]
    results = [m.content for m in memory.messages() if isinstance(m, ToolResultMessage)]
    assert results == ["booked A", "shipped B"]


def test_a_call_that_raised_the_interrupt_is_not_named_as_still_running(loop_warnings):
    """A tool of a concurrent round that raises `KeyboardInterrupt` itself: the warning named it among the
    calls "still running" (its error was taken out of the round's record before the wait began)."""
    lines, warned = loop_warnings
    slow_started = threading.Event()

    @tool("a call interrupted from inside")
    def stopper(item: str) -> str:
        slow_started.wait(WAIT_S)
        raise KeyboardInterrupt

    @tool("a slow call")
    def slow(item: str) -> str:
        slow_started.set()
        warned.wait(WAIT_S)  # the loop said it waits for this call
        return f"shipped {item}"

    memory = ChatMemory()
    model = ScriptedModel([[call("stopper", item="A", id="c1"), call("slow", item="B", id="c2")], "done"])
    with pytest.raises(KeyboardInterrupt):
        options = LoopOptions(concurrent=True, max_workers=2)
        run_loop(model, [UserMessage(content="q")], tools=[stopper, slow], memory=memory, options=options)
    assert lines[0] == (
        "a concurrent round was interrupted (KeyboardInterrupt): waiting for its calls still running, c2 (slow), "
        "so their results are kept; interrupt again to stop waiting (their outcome is then unknown)"
    )
    results = [m.content for m in memory.messages() if isinstance(m, ToolResultMessage)]
    assert results[1] == "shipped B"


def pressed_as_resumed(frame_name: str, times: int):
    """A trace function raising `KeyboardInterrupt` the `times`-th time a frame named `frame_name` starts or
    resumes: where CPython acts on a pending Ctrl-C (a frame's RESUME checks for signals)."""
    seen = []

    def trace(frame, event, arg):
        if event == "call" and frame.f_code.co_name == frame_name and frame.f_code.co_filename.endswith("run.py"):
            seen.append(frame_name)
            if len(seen) == times:
                raise KeyboardInterrupt
        return None

    return trace


@pytest.mark.parametrize(
    "where, stream",
    [("suspend", False), ("adopt", False), ("iter_loop", False), ("_handover_streamed", True), ("_carried", False)],
)
def test_a_ctrl_c_as_iter_loop_suspends_or_resumes_answers_the_rounds_calls_at_once(monkeypatch, where, stream):
    """A Ctrl-C acted on as the generator gave its reader an event or was resumed (at the call of the turn
    lock's `suspend()` / `adopt()`, or as a frame wrapping the turn's steps resumed: Python checks for signals
    there) never reached the steps: memory kept the calls unanswered while the error said it held their
    results, the next turn answered "not completed" a call that had run, and the steps, collected later,
    appended their answers after that turn (results answering no call: every later request of the memory
    refused)."""
    from toolkit.memory.turns import TurnRLock

    memory, pressed = ChatMemory("u1"), []

    @tool("book a room")
    def book(room: str) -> str:
        return f"booked {room}"

    if where in ("suspend", "adopt"):
        real = getattr(TurnRLock, where)

        def pressed_at_the_second(lock):
            pressed.append(where)
            if len(pressed) == 2:  # after the first call's ToolStarted (suspend), or its ToolFinished (adopt)
                raise KeyboardInterrupt
            return real(lock)

        monkeypatch.setattr(TurnRLock, where, pressed_at_the_second)
    model = ScriptedModel([[call("book", room="a", id="c1"), call("book", room="b", id="c2")], "done"])
    events = iter_loop(model, "book two rooms", tools=[book], memory=memory, options=LoopOptions(stream=stream))
    shown = []
    with pytest.raises(KeyboardInterrupt) as raised:
        for event in events:  # to the first call's ToolFinished (a suspend or adopt pressed stops it before)
            shown.append(event)
            if isinstance(event, ToolFinished):
                break
        sys.settrace(pressed_as_resumed(where, 1) if where not in ("suspend", "adopt") else None)
        try:
            shown.extend(events)
        finally:
            sys.settrace(None)
    monkeypatch.undo()
    assert [e.call.id for e in shown if isinstance(e, ToolStarted)] == ["c1"]
    answered = [("c1", "booked a"), ("c2", "Not completed: the turn was interrupted by KeyboardInterrupt.")]
    assert [(m.tool_call_id, m.content) for m in memory.messages()[2:]] == answered
    assert raised.value.loop_result.rounds[0].decision == "stopped: KeyboardInterrupt"
    assert run_loop(ScriptedModel(["ok"]), "and now?", memory=memory).answer == "ok"
    del raised
    gc.collect()  # nothing of the interrupted turn is left to write later
    assert [type(m).__name__ for m in memory.messages()] == [
        "UserMessage",
        "AssistantMessage",
        "ToolResultMessage",
        "ToolResultMessage",
        "UserMessage",
        "AssistantMessage",
    ]
    check_request({"model": "m", "messages": to_openai(memory.messages())})
