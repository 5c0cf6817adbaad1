"""Where the first NaN or infinity in parsed JSON is: JSON has no such number, so a request or
schema holding one must be refused (by the chat client, by MCP schema translation) with its place.

`first_non_finite(value)` walks dicts and lists with a loop, not recursion (a deeply nested value
must not raise `RecursionError`), in document order, and returns the path as a list of keys and
indexes, with the number; each caller writes the path its own way.

Leaves out: numbers inside strings, and types other than `float` (an `int` is always finite).
"""

from __future__ import annotations

import math
from typing import Any

Path = list[str | int]


def first_non_finite(value: Any) -> tuple[Path, float] | None:
    """(path, number) of the first NaN or infinity in `value`, or None when there is none. Each
    node keeps only a link to its parent's (a pair: the parent's link, its own key); the path is
    written out for the number found alone (copying it for every node was quadratic in the depth)."""
    stack: list[tuple[Any, _Link]] = [(value, None)]
    while stack:
        node, link = stack.pop()
        if isinstance(node, float) and not math.isfinite(node):
            return _path(link), node
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        stack.extend((child, (link, key)) for key, child in reversed(list(children)))
    return None


_Link = tuple[Any, str | int] | None
"""A node's place: None for the top, else (its parent's link, its key or index)."""


def _path(link: _Link) -> Path:
    keys: Path = []
    while link is not None:
        link, key = link
        keys.append(key)
    return keys[::-1]
