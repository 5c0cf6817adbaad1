"""`ReadOnlyDict`: a dict that refuses every change, for a value shared by everything that reads it.

A subclass says why in `READ_ONLY` (the `TypeError` every change raises). It is equal to the plain
dict and serialised like it; a copy (`dict(d)`, `d.copy()`, `copy.copy`, `copy.deepcopy`, pickling)
is a plain, mutable dict. Used by a request's shared tools-array entries (`toolkit.chat.sent.SentTool`)
and the loop options' `request_extra` (`toolkit.loop.records.RequestExtra`).

Leaves out: the values inside (a nested dict stays a plain one, read-only by contract only).
"""

from __future__ import annotations

import copy
from typing import Any, NoReturn


class ReadOnlyDict(dict[str, Any]):
    """A dict whose every change raises `TypeError(READ_ONLY)`; its copies are plain dicts."""

    __slots__ = ()

    READ_ONLY = "this dict is read-only; change a copy instead (dict(d))"
    """What a change is told (a subclass says why it is shared and what to do instead)."""

    # Each change is its own `def` (not `__setitem__ = _refuse`) so that type checkers see a declared
    # signature rather than infer one from an assignment.
    def __setitem__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(self.READ_ONLY)

    def __delitem__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(self.READ_ONLY)

    # mypy holds `|=` to `dict.__or__`'s generic overloads, which a method that never returns cannot
    # meet; a type checker reading this class still sees the declared signature.
    def __ior__(self, *args: Any, **kwargs: Any) -> NoReturn:  # type: ignore[misc]
        raise TypeError(self.READ_ONLY)

    def clear(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(self.READ_ONLY)

    def pop(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(self.READ_ONLY)

    def popitem(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(self.READ_ONLY)

    def setdefault(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(self.READ_ONLY)

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(self.READ_ONLY)

    def copy(self) -> dict[str, Any]:
        return dict(self)

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(dict(self), memo)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))
