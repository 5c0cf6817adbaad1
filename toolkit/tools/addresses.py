"""A repr without memory addresses: what a developer error, a tool result or a view shows of an
object reads the same in every run (`<function f at 0x7f…>` → `f`, `<Row object at 0x7f…>` →
`<Row object>`), a name Python writes with angle brackets in it too (a lambda, a function's local class:
`<function <lambda> at 0x7f…>` → `<lambda>`, `<app.make.<locals>.Row object at 0x7f…>` → `<app.make.<locals>.Row
object>`).

Leaves out: addresses outside `<…>` (a repr that writes one elsewhere keeps it), ids that are not
addresses (`id(x)` printed as a number).
"""

from __future__ import annotations

import re

_NAMED = r"<(?:locals|lambda|genexpr|listcomp|dictcomp|setcomp|module)>"
"""The parts of a qualified name Python writes in angle brackets: `make.<locals>.Row`, `<lambda>`, `<genexpr>`."""
_ADDRESS = re.compile(rf"(<[^<>]*?(?:{_NAMED}[^<>]*?){{0,8}}) at 0x[0-9a-fA-F]+")
"""The memory address in a repr (`<function f at 0x7f…>`, `<Future at 0x7f… state=finished>`, `<function <lambda>
at 0x7f…>`, `<app.make.<locals>.Row object at 0x7f…>`): different in every process; only inside `<…>`, where a repr
writes it. At most 8 bracketed parts a name: each `<` a match may start at reads on past at most 8 others, so a text
of thousands of them is read in one pass, not once from each."""
_FUNCTION = re.compile(
    rf"<(?:function|built-in function|bound method) ((?:[^\s<>]|{_NAMED})+)(?: of <(?:[^<>]|{_NAMED})*>)?>"
)
"""A function's or a method's repr, its address taken off: its qualified name is what is shown."""


def without_addresses(text: str) -> str:
    """A repr without memory addresses: a function or method as its qualified name (`<function f at
    0x7f…>` → `f`), any other object as `<Shop object>`. A developer error reads the same every run."""
    if " at 0x" not in text:
        return text
    return _FUNCTION.sub(r"\1", _ADDRESS.sub(r"\1", text))
