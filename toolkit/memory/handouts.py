"""A store's `get` without a copy each time: a list handed out, then let go, is handed out again.

`get` returns a list of its own to whoever reads a conversation, so the reader may keep it or
change it without touching the store, and a later write never changes it under the reader. For
a long conversation that copy is most of what a read costs, and the loop reads once per model
request: at 5,000 messages, four copies a turn. Yet between two requests nobody holds the list
the model was sent: the model read it and let go of it.

So `Handouts` remembers the last list it gave out for each id. On the next read it gives the
same list again, brought up to date with what was appended since, when all of this holds:

- nobody else holds it: its reference count is what the store's own reference gives
  (`sys.getrefcount`, compared with the count of a list nobody else holds, measured the same
  way when the module is imported). A reader who kept it gets a new list; the one it kept
  never changes;
- it still has the length it was given out with, and once the new messages are added it is
  equal to the stored list (`==` between two lists skips every pair that is the same object,
  so this reads the two arrays of pointers, not the messages). A reader who changed it before
  letting go gets a new copy. (A reader who swapped a message for an equal one leaves it in:
  the list is equal to the stored one, which is all `get` promises.) When the store's list
  changes at its front in the two ways a store does it in O(1) (a new system message in the
  first place, `first_changed`; a window dropping the oldest after it, `dropped`), the change
  is noted and made to the list given out when it is given out again, before `==`: the
  append that made the change never pays for the list given out (dropping it would free it,
  a reference count per message, inside the append). Any other change (`set`, `update`,
  `delete`, a system message moved from further down) calls `forget`, so `==` never compares
  two equal messages that are not the same object, one by one, down a long list.

The loop without a memory (`toolkit.loop.run`, its own history list) gives its requests out the
same way. This is the trick CPython uses for `s += t` on a string nobody else holds. Any doubt gives the
plain path, `list(stored)`, which `tests/test_memory_handouts.py` holds it equal to.

Leaves out: `SqliteStore` (a read after another connection wrote gives new, equal messages:
comparing them is slower than copying), lists shorter than `LONG` (a copy is cheaper than the bookkeeping), more than
`KEEP` ids at a time (the least recently read is forgotten), and interpreters where a count
cannot be trusted (a build without the GIL, or no `sys.getrefcount`): there every read copies.
"""

from __future__ import annotations

import sys
from typing import Any

LONG = 64
"""Below this many messages a read copies (the copy costs less than checking)."""
KEEP = 64
"""How many ids' last lists are remembered at once (the least recently read go first)."""


def _references(lists: dict[str, list[Any]], key: str) -> int:
    """The reference count of `lists[key]`, read the same way every time (see `_ALONE`)."""
    return sys.getrefcount(lists[key])


def _counts_hold() -> bool:
    """Whether reference counts can tell that nobody else holds a list: CPython with the GIL."""
    gil = getattr(sys, "_is_gil_enabled", lambda: True)
    return hasattr(sys, "getrefcount") and sys.implementation.name == "cpython" and bool(gil())


_ALONE = _references({"probe": []}, "probe") if _counts_hold() else -1
"""The count `_references` gives for a list that only its dict holds (-1: never trust a count)."""


def _equal(handed: list[Any], stored: list[Any]) -> bool:
    """`handed == stored`, and `False` when a reader put something into `handed` whose `==` raises."""
    try:
        return handed == stored
    except Exception:
        return False


class Handouts:
    """The last list given out per id, and its length then; used under the store's lock."""

    copies: int
    """Long lists copied (given out for the first time, or the last one was kept or changed)."""
    reused: int
    """Long lists given out again instead of copied."""

    def __init__(self) -> None:
        self._lists: dict[str, list[Any]] = {}
        self._sizes: dict[str, int] = {}
        self._edits: dict[str, _Edits] = {}
        """Key -> the front changes made to the stored list since its list was given out."""
        self.copies = 0
        self.reused = 0

    def hand_out(self, key: str, stored: list[Any]) -> list[Any]:
        """A list equal to `stored` that nobody else holds: the last one given out for `key`
        when that is safe (see the module docstring), else a new copy."""
        if len(stored) < LONG:
            if key in self._sizes:  # it was long once
                self.forget(key)
            return list(stored)
        size = self._sizes.pop(key, None)  # popped and put back: the most recently read go last
        edits = self._edits.pop(key, None)
        if size is not None and _references(self._lists, key) == _ALONE:
            handed = self._lists.pop(key)
            if len(handed) == size and (edits is None or edits.apply(handed, stored)) and len(handed) <= len(stored):
                handed += stored[len(handed) :]
                if _equal(handed, stored):
                    self.reused += 1
                    return self._keep(key, handed)
        else:
            self._lists.pop(key, None)
        self.copies += 1
        return self._keep(key, list(stored))

    def first_changed(self, key: str, *, inserted: bool) -> None:
        """The stored list's first item was replaced (or, `inserted`, a new one put before it)."""
        if key in self._sizes:
            edits = self._edits.setdefault(key, _Edits())
            if inserted:
                edits.first, edits.skip = "insert", 1
            elif edits.first is None:
                edits.first = "replace"

    def dropped(self, key: str, skip: int, count: int) -> None:
        """`count` items were deleted from the stored list after its first `skip` ones."""
        if key in self._sizes and count:
            edits = self._edits.setdefault(key, _Edits())
            edits.skip = max(edits.skip, skip)
            edits.dropped += count

    @property
    def remembered(self) -> int:
        """How many ids' lists are remembered."""
        return len(self._sizes)

    def _keep(self, key: str, handed: list[Any]) -> list[Any]:
        self._lists[key] = handed
        self._sizes[key] = len(handed)
        if len(self._sizes) > KEEP:
            oldest = next(iter(self._sizes))
            self.forget(oldest)
        return handed

    def forget(self, key: str) -> None:
        """Drop what is remembered for `key` (its conversation was replaced or deleted)."""
        self._lists.pop(key, None)
        self._sizes.pop(key, None)
        self._edits.pop(key, None)


class _Edits:
    """The front changes made to a stored list since its list was given out, in the order they
    are made again: the first item (replaced, or a new one inserted), then `dropped` items
    after the first `skip` (an item put first only ever comes before the dropped ones)."""

    __slots__ = ("dropped", "first", "skip")

    def __init__(self) -> None:
        self.first: str | None = None
        self.skip = 0
        self.dropped = 0

    def apply(self, handed: list[Any], stored: list[Any]) -> bool:
        """Make the changes to `handed`, from `stored` (its first item); `False` when they cannot
        be made (more dropped than it holds): then a copy is given out."""
        if self.first is not None and not stored:
            return False
        if self.first == "insert":
            handed.insert(0, stored[0])
        elif self.first == "replace" and handed:
            handed[0] = stored[0]
        if self.dropped > len(handed) - self.skip:
            return False
        del handed[self.skip : self.skip + self.dropped]
        return True
