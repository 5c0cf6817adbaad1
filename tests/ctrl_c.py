"""Test helper: press Ctrl-C (a real SIGINT to this process) once, a while from now."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def ctrl_c_after(seconds: float) -> Iterator[None]:
    """SIGINT this process once, `seconds` from now, raising `KeyboardInterrupt` in the main
    thread. An interrupt arriving after the block is ignored, so a slow machine fails the test
    instead of ending the whole session."""
    armed = threading.Event()
    armed.set()

    def handler(signum: int, frame: object) -> None:
        if armed.is_set():
            armed.clear()
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        yield
    finally:
        armed.clear()
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGINT, previous)
