"""A call given at most `LoopOptions.tool_timeout` seconds: `finished(work, seconds)`.

Without a limit a call runs on the caller's thread (one call never spawns a thread), and one that
never returns holds the turn, as does a value whose conversion to text never ends (a `__str__`
waiting on a lock, a JSON `default` that loops): the conversion is part of the call's work and
runs where it ran. With a limit, the call's whole work (running the tool and turning its value
into text: `Tool.run`) runs on one of the loop's kept threads (`toolkit.loop.workers`), in a copy
of the caller's `contextvars` context (a context variable the caller set is seen, as without a
limit), and the caller waits for it at most `seconds`, in slices of `SIGNAL_CHECK_S` (a Ctrl-C is
acted on while it waits, and leaves the work running as the limit does). What the work raised is raised in the caller's thread; a work still
running at the limit gives `TIMED_OUT`: the loop answers the call with `LoopTexts.timed_out`
(its outcome is unknown) through `policies.execution_error`, as a tool's failure.

Python cannot stop a thread: a call past its limit goes on, on its own thread, until it returns
(then the thread is kept for later calls). What it gives then is dropped, never recorded; what it
does meanwhile (a write to a database) is not undone, and may overlap the round's later calls; a
write it makes to memory waits for the memory's lock, as any other thread's does (it no longer
serves the turn). The text the model reads says so ("it may still be running").

A compensation (`toolkit.loop.saga`) gets the same limit: one still running at it is logged as not
done ("it may still be running; the call may not have been undone"), and the saga goes on. A
compensable call past its limit is never compensated (the undo could come before the work it
undoes): the saga log says its outcome is unknown (`toolkit.loop.saga.unknown_outcome`).

No limit is the default, as in LangChain4j and the OpenAI Agents SDK (whose tools take one only
when given): no value fits every tool (a payment, a report), and a limit the learner never set
would answer a slow call "outcome unknown" behind their back. A call that hangs without one holds
the turn until Ctrl-C, whose traceback names the call still running and `tool_timeout`
(`toolkit.loop.run`'s `NO_LIMIT_NOTE`).

Leaves out: stopping the work (a tool that must end at its deadline reads one itself, e.g. an
HTTP client's own timeout; an MCP tool's `McpToolProvider(timeout=...)` cancels the request on the
server: set it below `tool_timeout` to have the call cancelled rather than left running), and a
limit on the whole turn.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable
from typing import Final, Generic, TypeVar

from toolkit.loop.workers import start as start_thread
from toolkit.memory.turns import SERVING, serving

T = TypeVar("T")

SIGNAL_CHECK_S = 0.1
"""How long the caller waits at most before Python runs a signal handler that is pending (here, and
in a concurrent round: `toolkit.loop.together`)."""


class _TimedOut:
    def __repr__(self) -> str:
        return "TIMED_OUT"


TIMED_OUT: Final = _TimedOut()
"""What `finished` gives for a work still running at its limit."""


def finished(work: Callable[[], T], seconds: float) -> T | _TimedOut:
    """`work()` on a kept thread, waited for at most `seconds`: its value, what it raised (raised
    here), or `TIMED_OUT` when it was still running (it goes on; what it gives later is dropped)."""
    running = _Running(work, contextvars.copy_context(), [threading.get_ident(), *serving()])
    try:
        start_thread(running.run)
        return running.wait(seconds)
    except BaseException:  # Ctrl-C ends the wait as the limit does: the work goes on, nobody waits for it
        running.owners.clear()  # here, not only in `wait`: Ctrl-C may land before the wait begins
        raise


class _Running(Generic[T]):
    """One work on its thread: what it gave or raised, and an event set when it ended."""

    def __init__(self, work: Callable[[], T], context: contextvars.Context, owners: list[int]) -> None:
        self.work: Callable[[], T] | None = work
        self.context = context
        self.owners = owners
        """The threads waiting for this work (`toolkit.memory.turns.serving`): a write the tool makes to
        the memory its turn holds goes under the turn's hold, as on the caller's thread. Emptied when
        the caller stops waiting: nothing waits for the work then, and a later write of it waits for
        the memory's lock like any other thread's (it would land in the middle of a later turn)."""
        self.ended = threading.Event()
        self.value: T | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        SERVING.owners = self.owners
        try:
            assert self.work is not None
            self.value = self.context.run(self.work)
        except BaseException as exc:  # raised in the caller's thread by `wait`
            self.error = exc
        finally:
            SERVING.owners = ()
            self.work = None
            self.ended.set()

    def wait(self, seconds: float) -> T | _TimedOut:
        deadline = time.monotonic() + seconds
        while not self.ended.wait(min(SIGNAL_CHECK_S, max(0.0, deadline - time.monotonic()))):
            if time.monotonic() >= deadline:
                self.owners.clear()  # read by the work's thread: a list, changed in place
                return TIMED_OUT
        error, self.error = self.error, None
        if error is not None:
            raise error
        value, self.value = self.value, None
        return value  # type: ignore[return-value]  # set by `run` (a work may return None)
