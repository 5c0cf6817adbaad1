"""One round's tool calls run at once (`LoopOptions(max_workers=N)`), on the loop's kept threads.

`run_together(one, calls, workers, trace)` runs `one(call)` for every call on up to `workers`
threads (`toolkit.loop.workers`), and gives the executions back in the model's order. A round takes
threads as its calls need them: a quick call leaves the next to the same thread. Interrupted (Ctrl-C)
at any point, the calls already running finish, those not started never start, and every call that
finished is recorded in the round's trace before the interruption goes on. While it waits for the
running calls, a warning names them and says a second Ctrl-C ends the wait. The caller waits in
slices of `SIGNAL_CHECK_S` (`_wait`): a Ctrl-C that lands just before a wait begins (or on another
thread) is only acted on when the wait returns, and a wait for a call that hangs never would.
A round's threads know
whose round they run a call for (`toolkit.memory.turns.serving()`): a turn a tool starts there on
the memory its own turn holds is refused (`toolkit.loop.run`), where it would wait for that turn
forever, and a write it makes to that memory goes under the turn's hold (`write_hold`), as a
tool's write does in a round run one call at a time. A call a second Ctrl-C left running serves
nobody from then on (as one past `tool_timeout`): a write it makes later waits for the lock.

Leaves out: async tools, and a time limit per call (a call that never returns holds its thread;
`LoopOptions.tool_timeout` gives each call one: `toolkit.loop.time_limit`).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from toolkit.chat.messages import ToolCall
from toolkit.errors import shown_name
from toolkit.loop.records import RoundTrace
from toolkit.loop.saga import ToolExecution
from toolkit.loop.time_limit import SIGNAL_CHECK_S
from toolkit.loop.workers import offer_now
from toolkit.loop.workers import start as start_thread
from toolkit.memory.turns import SERVING as _serving
from toolkit.memory.turns import serving

log: logging.Logger = logging.getLogger("toolkit.loop")

WAITING = (
    "a concurrent round was interrupted (%s): waiting for its calls still running, %s, so their results are "
    "kept; interrupt again to stop waiting (their outcome is then unknown)"
)
"""Logged when an interrupted round waits for its running calls (`_Together.stop`)."""


def _wait(changed: threading.Condition, predicate: Callable[[], bool]) -> None:
    """`changed.wait_for(predicate)`, returning to Python every `SIGNAL_CHECK_S`: a blocked wait
    is woken by a signal only when the signal comes after the wait began, on this thread; a
    second Ctrl-C sent just as `stop` starts to wait was held until the running calls ended."""
    while not changed.wait_for(predicate, SIGNAL_CHECK_S):
        pass


def run_together(
    one: Callable[[ToolCall], ToolExecution], calls: Sequence[ToolCall], workers: int, trace: RoundTrace
) -> list[ToolExecution]:
    """`one` for every call on up to `workers` kept threads (`toolkit.loop.workers`), in call
    order. Interrupted (Ctrl-C) at any point, the calls already running finish, those not
    started never start, and every call that finished is recorded in `trace` before the
    interruption goes on: what ran keeps its result."""
    together = _Together(one, calls, min(workers, len(calls)), [threading.get_ident(), *serving()])
    try:
        start_thread(together.lane)  # the first lane; each lane starts the next while calls wait
        return together.results()
    except BaseException as exc:
        try:
            together.stop(exc)  # a second Ctrl-C while running calls finish ends the wait...
        finally:  # ...and what finished by then is still recorded
            together.owners.clear()  # calls still running serve nobody now (read by the lanes: changed in place)
            trace.executions.extend(together.done())
        raise


class _Together:
    """The calls of one concurrent round: which is next, which are running, what each finished
    one gave (or raised). Each of the round's threads runs a lane: the next call not started,
    until none is left or the round stopped. A lane that takes a call while others wait starts
    another lane, up to `lanes`: a round takes threads as its calls need them (a quick call
    leaves the next to the same thread, and the thread of a lane never needed is not held)."""

    def __init__(
        self, one: Callable[[ToolCall], ToolExecution], calls: Sequence[ToolCall], lanes: int, owners: list[int]
    ) -> None:
        self.one, self.calls, self.owners = one, calls, owners
        self.lanes, self.started = lanes, 1
        self.finished: dict[int, ToolExecution] = {}
        self.failed: dict[int, BaseException] = {}
        """What `one` raised, by call (it returns its errors: only an interrupt or a bug gets here); taken
        out when `results` raises it (kept, it would hold the frames its traceback holds)."""
        self.over: set[int] = set()
        """The calls that ended, finished or failed: a failure raised and taken out of `failed` has ended
        too (the warning named such a call among those still running)."""
        self.next = 0
        self.running = 0
        self.stopped = False
        self.changed = threading.Condition()

    def lane(self) -> None:
        _serving.owners = self.owners  # once a lane, not once a call (a kept thread serves many rounds)
        try:
            self.lanes_calls()
        finally:
            _serving.owners = ()

    def lanes_calls(self) -> None:
        while True:
            with self.changed:
                if self.stopped or self.next == len(self.calls):
                    return
                index = self.next
                self.next += 1
                self.running += 1
                another = self.next < len(self.calls) and self.started < self.lanes
                self.started += another
            if another:
                self.another_lane()
            try:
                execution = self.one(self.calls[index])
            except BaseException as exc:  # raised in the caller's thread by `results`, in call order
                self._done(self.failed, index, exc)
            else:
                self._done(self.finished, index, execution)

    def another_lane(self) -> None:
        """Start one more lane; when no thread can be started, the lanes running take its calls."""
        try:
            start_thread(self.lane)
        except RuntimeError:  # "can't start new thread": fewer lanes, the same calls
            log.warning("a concurrent round could not start another thread; its calls run on fewer")

    def _done(self, into: dict[int, Any], index: int, value: Any) -> None:
        with self.changed:
            into[index] = value
            self.over.add(index)
            self.running -= 1
            if self.stopped or self.next == len(self.calls):  # this lane ends: its thread is free
                offer_now()  # before the caller wakes (a next round finds the thread idle)
            self.changed.notify_all()

    def _over(self, index: int) -> bool:
        return index in self.over

    def results(self) -> list[ToolExecution]:
        """Every call's execution in call order, waiting for each; what a call raised is raised
        when its turn comes (as `Future.result` would)."""
        executions = []
        with self.changed:
            for index in range(len(self.calls)):
                _wait(self.changed, functools.partial(self._over, index))
                if index in self.failed:
                    raise self.failed.pop(index)
                executions.append(self.finished[index])
        return executions

    def stop(self, cause: BaseException) -> None:
        """Start no more calls, wait for the running ones (an interrupt ends the wait); say so when
        some are running (a notebook cell stays busy: the learner reads why, and how to end it)."""
        with self.changed:
            self.stopped = True
            if self.running:
                log.warning(WAITING, type(cause).__name__, self.still_running())
            _wait(self.changed, lambda: self.running == 0)

    def still_running(self) -> str:
        """The calls started and not finished, `c2 (slow), c3 (ship)` (under `changed`)."""
        running = [c for i, c in enumerate(self.calls[: self.next]) if not self._over(i)]
        return ", ".join(f"{c.id} ({shown_name(c.name)})" for c in running)

    def done(self) -> list[ToolExecution]:
        """What finished so far, in call order."""
        with self.changed:
            return [self.finished[i] for i in sorted(self.finished)]
