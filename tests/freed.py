"""For tests that check a tool's exception is freed by reference counting alone: no reference
cycle keeps it (and the frames its traceback reaches) for the garbage collector."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from contextlib import contextmanager


class ShopDown(ConnectionError):
    """A tool's failure (a class of its own: the built-in exceptions take no weak reference)."""


class Raised:
    """The errors a test's tool raised, each watched by a weak reference."""

    def __init__(self) -> None:
        self.refs: list[weakref.ref[BaseException]] = []

    def error(self, text: str) -> ShopDown:
        """A new error, watched. Made here, not in the tool: a local of the tool holding it would
        be a cycle of the test's own (the traceback holds the tool's frame)."""
        error = ShopDown(text)
        self.refs.append(weakref.ref(error))
        return error

    def alive(self) -> list[BaseException]:
        """The watched errors something still holds."""
        return [error for ref in self.refs if (error := ref()) is not None]


@contextmanager
def without_the_collector() -> Iterator[None]:
    """The garbage collector off inside (only reference counting frees), as it was after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
