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
    """(path, number) of the first NaN or infinity in `value`, or None when there is none."""
    stack: list[tuple[Any, Path]] = [(value, [])]
    while stack:
        node, path = stack.pop()
        if isinstance(node, float) and not math.isfinite(node):
            return path, node
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        stack.extend((child, [*path, key]) for key, child in reversed(list(children)))
    return None
