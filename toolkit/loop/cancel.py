"""A turn run in a thread, stopped when the task awaiting it is cancelled: `await in_thread(fn, ...)`.

The loop and `ai_service` are synchronous; from async code (a notebook's `await`, a web server)
a turn runs in a thread: `await asyncio.to_thread(service.chat, "u1", question)`. Cancelling the
task that awaits it (`task.cancel()`, `asyncio.wait_for` timing out, a stop button) stops the
*waiting*, not the thread: Python cannot stop a thread. With plain `asyncio.to_thread` the turn
then runs on to its end, every later tool call and model request with it (a payment, a shipment),
its memory gets the whole turn, and its answer is dropped; the next turn on that memory id waits
for it (`toolkit.memory.turns`), then sees it in memory.

`await in_thread(service.chat, "u1", question)` is `asyncio.to_thread` that also stops the turn:
when the awaiting task is cancelled (or interrupted any other way), the turn raises `TurnCancelled`
at its next step, before its next model request or its next tool call:

- a model request or tool call already running finishes (nothing can stop it); a call's real
  result is kept, as after Ctrl-C;
- a call of the round not started is answered "Not completed: the turn was interrupted by
  TurnCancelled." (`LoopTexts.interrupted`), so memory stays valid for a strict gateway;
- a service's question with no answer yet gets its no-reply note (`INTERRUPTED_TEXT`);
- the next turn on that memory id waits for that step only, then goes on from memory;
- a turn cancelled while it waited for the turn before it on its memory never begins: nothing of
  it is stored or sent.

The task sees `asyncio.CancelledError` at once, as with `asyncio.to_thread` (it does not wait for
the step: `wait_for`'s timeout stays a timeout). `TurnCancelled` is raised in the turn's thread and
carries `loop_result`; nobody awaits it there. This is pydantic-ai's contract for a cancelled run
(what finished is kept, the run ends at once with a cancellation, it never completes silently)
for a turn that runs in a thread, as its `run_sync` needs a token for.

How: `in_thread` sets `STOP`, a context variable holding a `threading.Event`, in the task's
context; `asyncio.to_thread` copies that context into the thread, where the loop reads it once
per turn (`toolkit.loop.run`) and checks the event before each request and each call. A thread
of one's own (a web server's stop button) can set `STOP` the same way and set the event itself.

Leaves out: stopping a call or a request that runs (a tool that must end at a deadline reads one
itself; `LoopOptions(tool_timeout=...)` stops waiting for it), and the calls of a concurrent round,
which all run once it starts. A streamed turn (`TokenStream`) reads `STOP` at its first step: read
whole in one `in_thread` call (`await in_thread(list, stream)`) it stops as above; read step by step
from several, its `close()` is the stop button (`toolkit.services.results`). A call that never
returns keeps its turn's thread, and so its memory id (the next turn on it waits; Ctrl-C there says
so: `toolkit.memory.turns.wait_for_turn`), and the process: Python waits at exit for the threads
`asyncio.to_thread` started, so a script never ends (`asyncio.run` waits for them first); under
`LoopOptions(tool_timeout=...)` the call runs on a thread the process does not wait for, its turn ends.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

STOP: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar("toolkit_turn_stop", default=None)
"""The event that stops a turn started in this context at its next step, once set (`in_thread`)."""

CANCELLED = (
    "the turn was cancelled (the task awaiting in_thread() was): it stopped before {step}; a request or call "
    "already running when it was cancelled finished"
)
NEVER_BEGAN = (
    "the turn was cancelled (the task awaiting in_thread() was) while it waited for the turn before it on its "
    "memory: it never began, and nothing of it was stored or sent"
)

NOT_CALLABLE = (
    "in_thread() takes the function and its arguments apart, and got {kind}, a value: write "
    "await in_thread(service.chat, 'u1', question), not in_thread(service.chat('u1', question)), which ran the "
    "turn at once, in the event loop's thread"
)


class TurnCancelled(BaseException):
    """Raised in a turn's thread at its next step once its `STOP` event is set. A `BaseException`, as
    `asyncio.CancelledError` is: an `except Exception` around a turn does not swallow it."""


def cancelled(step: str | None) -> TurnCancelled:
    """The error a stopped turn raises, `step` what it stopped before ("model request 2"); None: it
    never began (cancelled while it waited for the memory's turn lock)."""
    return TurnCancelled(NEVER_BEGAN if step is None else CANCELLED.format(step=step))


async def in_thread(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """`await asyncio.to_thread(fn, *args, **kwargs)`; a turn `fn` runs stops at its next step when
    the awaiting task is cancelled (or interrupted), and the cancellation is raised on at once."""
    if not callable(fn):  # in_thread(service.chat("u1", q)): the turn already ran, here, blocking the event loop
        raise TypeError(NOT_CALLABLE.format(kind=type(fn).__name__))
    stop = threading.Event()
    token = STOP.set(stop)  # in the task's context: to_thread copies it into the thread
    try:
        return await asyncio.to_thread(fn, *args, **kwargs)
    except BaseException:  # cancelled, or Ctrl-C: nobody waits for the turn any more
        stop.set()
        raise
    finally:
        STOP.reset(token)
