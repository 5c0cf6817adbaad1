"""Test helper: press Ctrl-C (a real SIGINT to this process) once, once the code under test has
reached the point the test is about (never after a fixed delay: a loaded machine may not be there yet)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator

WHEN_BOUND_S = 120.0
"""How long `ctrl_c_when` waits for its condition before it presses anyway (the test then fails
on what it sees, rather than hanging): far beyond what reaching it takes on a loaded machine."""


@contextlib.contextmanager
def ctrl_c_when(ready: Callable[[], bool]) -> Iterator[None]:
    """SIGINT this process once, as soon as `ready()` is true (looked at every few milliseconds, up
    to `WHEN_BOUND_S`): not a delay a loaded machine may need more than to get there."""

    def wait(stop: threading.Event) -> bool:
        deadline = time.monotonic() + WHEN_BOUND_S
        while not ready():
            if stop.wait(0.005) or time.monotonic() > deadline:
                return stop.is_set()
        return False

    with _pressed(wait):
        yield


@contextlib.contextmanager
def _pressed(wait: Callable[[threading.Event], bool]) -> Iterator[None]:
    """SIGINT this process once `wait(stop)` returns False (True: the block ended first, no SIGINT)."""
    armed, stop = threading.Event(), threading.Event()
    armed.set()

    def handler(signum: int, frame: object) -> None:
        if armed.is_set():
            armed.clear()
            raise KeyboardInterrupt

    main = threading.main_thread().ident

    def press() -> None:
        if wait(stop):
            return
        while armed.is_set() and not stop.is_set():
            # Again until the handler has run: a SIGINT landing after the main thread's last look at its
            # signals and before its blocking wait began (a lock's `acquire(timeout=…)`) is seen only
            # when that wait ends (twice, in full CI runs, a 120 s wait ran to its end). Presses before
            # the handler runs are one press to Python; after it, the handler ignores them.
            _send_sigint(main)
            stop.wait(REPRESS_S)

    previous = signal.signal(signal.SIGINT, handler)
    presser = threading.Thread(target=press, daemon=True)
    presser.start()
    try:
        yield
    finally:
        armed.clear()
        stop.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)


REPRESS_S = 0.05
"""How often `_pressed` presses again while its handler has not run."""


def _send_sigint(main: int | None) -> None:
    """SIGINT at the main thread, which waits in the code under test: a SIGINT sent to the process may be
    taken by another thread, and a main thread blocked in a wait then sees it only when that wait ends."""
    if hasattr(signal, "pthread_kill") and main is not None:
        signal.pthread_kill(main, signal.SIGINT)
    else:
        os.kill(os.getpid(), signal.SIGINT)


def main_thread_waits_in(*functions: Callable[..., object], outside: tuple[Callable[..., object], ...] = ()) -> bool:
    """Whether the main thread's innermost Python frame is in one of `functions`, called from none of
    `outside`, seen twice 20 ms apart: it waits there (a blocking call made there has no frame of its
    own). For a test that sends a signal only once the main thread is blocked, where one sent just
    before would be seen at once anyway."""
    codes = {getattr(function, "__code__", None) for function in functions}
    excluded = {getattr(function, "__code__", None) for function in outside}

    def there() -> bool:
        frame = sys._current_frames().get(threading.main_thread().ident or 0)
        if frame is None or frame.f_code not in codes:
            return False
        while frame is not None:
            if frame.f_code in excluded:
                return False
            frame = frame.f_back
        return True

    if not there():
        return False
    time.sleep(0.02)
    return there()
