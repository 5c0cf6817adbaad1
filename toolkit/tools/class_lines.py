"""Which of a file's `class <Name>` statements made a class, where the class does not say.

Python 3.13 gives each class the line of its statement (`__firstlineno__`); before it, `inspect`
takes the first statement of the name, so a class written twice in one file (reworded, a field
added) was read from the first one's lines on 3.11 and 3.12 and from its own on 3.13: the model
read another class's field descriptions, on some Pythons only. `own_statements` narrows the
statements, each step only while several are left: for a nested class, to the indented ones; to
those whose lines hold one of the class's own functions (its code's first line); to those that
declare the class's own annotated fields, last and in order (a TypedDict's list starts with its
bases'); for a module-level class the module's name is bound to, to the file's last statement of
the name when it is at the margin and still left (the top level runs top to bottom, and no
statement of the name ran after that one).

Leaves out: telling apart two statements alike in all of that inside one function or class, and
a module that binds the name again afterwards to an earlier class by assignment (the caller
leaves what is left to `inspect`, as before).
"""

import ast
import inspect
import sys
import textwrap
from collections.abc import Callable
from typing import Any


def own_statements(cls: type, file: str, text: str, starts: list[int], block: Callable[[int], list[str]]) -> list[int]:
    """The offsets in `starts` (each a `class <Name>` line of the file's `text`) that can have made
    `cls`, narrowed as the module docstring says; `block(start)` is the statement's lines."""
    nested = "." in cls.__qualname__
    left = [s for s in starts if text[s] in " \t"] if nested else starts
    for narrow in (_by_functions, _by_fields):
        if len(left) > 1:
            left = narrow(cls, file, text, left, block)
    module = sys.modules.get(cls.__module__)
    last = starts[-1]
    if len(left) > 1 and last in left and text[last] not in " \t" and getattr(module, cls.__name__, None) is cls:
        left = [last]
    return left


def _by_functions(cls: type, file: str, text: str, starts: list[int], block: Callable[[int], list[str]]) -> list[int]:
    """The statements whose lines hold the first line of one of the class's own functions."""
    lines = [line for value in vars(cls).values() if (line := _first_line(value, file)) is not None]
    if not lines:
        return starts
    spans = [(s, text.count("\n", 0, s) + 1) for s in starts]
    holding = [s for s, first in spans if any(first <= line < first + len(block(s)) for line in lines)]
    return holding or starts  # functions defined elsewhere in the file, assigned in the body: no telling


def _first_line(value: Any, file: str) -> int | None:
    """The first line of a function defined in `file` (a method, static or class method, or a
    property's getter), else None (a function made elsewhere: a dataclass's `__init__`)."""
    try:
        value = getattr(value, "__func__", None) or getattr(value, "fget", None) or value
        code = getattr(value, "__code__", None)
        line = code.co_firstlineno if code is not None and code.co_filename == file else None
    except Exception:  # an attribute object whose own `__getattr__` raises
        return None
    return line if type(line) is int else None


def _by_fields(cls: type, file: str, text: str, starts: list[int], block: Callable[[int], list[str]]) -> list[int]:
    """The statements whose annotated names are the last of the class's annotated names, in order
    (a statement that does not parse on its own is kept: it tells nothing)."""
    try:
        names = list(inspect.get_annotations(cls))
    except Exception:  # an annotations dict that is not one
        return starts
    kept = []
    for start in starts:
        fields = _fields(block(start))
        if fields is None or (len(fields) <= len(names) and names[len(names) - len(fields) :] == fields):
            kept.append(start)
    return kept


def _fields(lines: list[str]) -> list[str] | None:
    """The names a class statement's own body annotates (`name: type`), None if it does not parse."""
    try:
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (SyntaxError, ValueError):
        return None
    statement = tree.body[0] if len(tree.body) == 1 else None
    if not isinstance(statement, ast.ClassDef):
        return None
    return [s.target.id for s in statement.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
