"""A repr without memory addresses: what a developer error, a tool result or a view shows of an
object reads the same in every run (`<function f at 0x7f…>` → `f`, `<Row object at 0x7f…>` →
`<Row object>`).

Leaves out: addresses outside `<…>` (a repr that writes one elsewhere keeps it), ids that are not
addresses (`id(x)` printed as a number).
"""

from __future__ import annotations

import re

_ADDRESS = re.compile(r"(<[^<>]*?) at 0x[0-9a-fA-F]+")
"""The memory address in a repr (`<function f at 0x7f…>`, `<Future at 0x7f… state=finished>`):
different in every process; only inside `<…>`, where a repr writes it."""
_FUNCTION = re.compile(r"<(?:function|built-in function|bound method) ([^\s<>]+)(?: of <[^<>]*>)?>")
"""A function's or a method's repr, its address taken off: its qualified name is what is shown."""


def without_addresses(text: str) -> str:
    """A repr without memory addresses: a function or method as its qualified name (`<function f at
    0x7f…>` → `f`), any other object as `<Shop object>`. A developer error reads the same every run."""
    if " at 0x" not in text:
        return text
    return _FUNCTION.sub(r"\1", _ADDRESS.sub(r"\1", text))
