"""Threads kept for the loop's concurrent rounds: a task starts at once on an idle thread or on a
new one, never waiting in a queue.

A concurrent round (`LoopOptions(concurrent=True)`) used to make a `ThreadPoolExecutor` of its
own: starting its threads cost more than the round's own work (about 120 µs for two calls).
One shared pool of a fixed size could deadlock instead: a tool that runs a loop of its own
with concurrent calls would wait for threads all busy waiting like it. Here nothing waits for
a thread: `start(task)` hands the task to an idle thread, or starts a new one, so a nested
round always runs. A thread that finished its task waits for the next one for at most
`IDLE_SECONDS`, and at most `KEEP` threads wait, then they end.

Each task runs in a new, empty `contextvars.Context`, as it would on a new thread: a context
variable one tool sets is not seen by a later task on the same thread. A child process made
by `os.fork` forgets the parent's idle threads (they are not in it).

Leaves out: thread-local state is the thread's, as in any thread pool (`threading.local` may
show a later task what an earlier one left; a connection kept that way is reused); a bound on
the number of threads (a round bounds its own: `LoopOptions.max_workers`).
"""

from __future__ import annotations

import contextvars
import itertools
import os
import queue
import sys
import threading
from collections.abc import Callable

KEEP = 32
"""At most this many idle threads wait for a task."""
IDLE_SECONDS = 30.0
"""How long an idle thread waits for a task before it ends."""

Task = Callable[[], None]

_idle: list[queue.SimpleQueue[Task]] = []
"""The inboxes of the idle threads, the last to finish last (it is taken first: its caches are warm)."""
_lock = threading.Lock()
_names = itertools.count(1)
_current = threading.local()
"""On a kept thread: its `inbox`, and whether it was `offered` as idle during its task."""


def start(task: Task) -> None:
    """Run `task` on an idle thread, or on a new one; return at once. `task` should not raise:
    an exception that escapes it is reported by `threading.excepthook`, and the thread goes on."""
    with _lock:
        inbox = _idle.pop() if _idle else None
    if inbox is not None:
        inbox.put(task)
        return
    inbox = queue.SimpleQueue()
    inbox.put(task)
    name = f"toolkit-loop-worker-{next(_names)}"
    threading.Thread(target=_work, args=(inbox,), name=name, daemon=True).start()


def idle_count() -> int:
    """How many threads are waiting for a task now."""
    with _lock:
        return len(_idle)


def offer_now() -> None:
    """Offer the kept thread running this code as idle now, from a task that is about to return
    with nothing more to do: a task started the moment after (a next round, before this one
    has returned) finds it, and it takes that task once the current one has returned. Nothing
    on another thread (or when this thread is already offered, or `KEEP` are waiting)."""
    inbox = getattr(_current, "inbox", None)
    if inbox is None or _current.offered:
        return
    with _lock:
        if len(_idle) < KEEP:
            _idle.append(inbox)
            _current.offered = True


def _work(inbox: queue.SimpleQueue[Task]) -> None:
    """A thread's life: run the task in its inbox, offer itself as idle, wait for the next one."""
    _current.inbox = inbox
    task = inbox.get()
    while True:
        _current.offered = False
        try:
            contextvars.Context().run(task)
        except BaseException:  # reported; the thread goes on (it may be offered as idle already)
            threading.excepthook(threading.ExceptHookArgs((*sys.exc_info(), threading.current_thread())))
        del task  # nothing of a finished task stays alive while the thread waits
        if not _current.offered:
            with _lock:
                if len(_idle) >= KEEP:
                    return
                _idle.append(inbox)
        try:
            task = inbox.get(timeout=IDLE_SECONDS)
        except queue.Empty:
            with _lock:
                if inbox in _idle:  # nobody took it: end
                    _idle.remove(inbox)
                    return
            task = inbox.get()  # taken as the wait ended: its task is on the way


def _forget_idle() -> None:
    """In a child process made by `fork`: the idle threads are the parent's, not this process's."""
    global _lock
    _lock = threading.Lock()
    _idle.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_idle)
