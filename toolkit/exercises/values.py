"""How the exercise checks read and quote a learner's values.

`plain` reads numpy's and pandas' values and the standard library's other containers as the
plain values they stand for; `untrusted_class` finds an object whose `==` could be the
learner's own code; `is_number` says what counts as a number in an answer; `show` quotes a value
in feedback the same way on every run (no memory address, a set's items sorted).

Leaves out: running the learner's code (`toolkit.exercises.core.call_learner`) and comparing
(each checker compares with `==` after these have read the values).
"""

from __future__ import annotations

import decimal
import numbers
import re
import types
from collections import deque
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from toolkit.errors import a_or_an
from toolkit.tools.redact import scrub_secrets
from toolkit.unicode import cut


def plain(value: Any) -> Any:
    """The value with numpy's scalars and arrays and pandas' Series read as the plain values they
    hold (`np.float32(0.5)` → 0.5, `np.True_` → True, an array → a list, a Series → {label: value}),
    and the standard library's other containers as the plain one they stand for (a deque → a list,
    a Counter → a dict; a Decimal NaN, on which == raises, the float NaN), through lists, tuples, sets
    and dicts of exactly those types, and a learner's subclass of str, int, float, tuple, list, dict, set or
    frozenset that writes no `==` of its own as the value it holds (`_honest_base`); anything else — a learner's
    own class above all — as it is."""
    kind = type(value)
    package = str(getattr(kind, "__module__", "")).split(".")[0]
    if package == "numpy" and hasattr(value, "tolist"):
        return plain(value.tolist())
    if package == "pandas" and kind.__name__ == "Series":
        return plain(value.to_dict())
    if isinstance(value, decimal.Decimal) and value.is_nan():  # ==, < and > raise on it (a signalling one, any)
        return float("nan")
    if kind in (list, tuple, set, frozenset):
        return kind(plain(item) for item in value)
    if kind is dict:
        return {plain(key): plain(item) for key, item in value.items()}
    if package in ("builtins", "collections") and not isinstance(value, (str, bytes, bytearray)):
        return _standard_container(value)
    if (base := _honest_base(kind)) is not None:
        return plain(_BASE_VALUE[base](value))
    return value


_BASE_VALUE: dict[type, Any] = {
    str: str.__str__,
    int: int.__int__,
    float: float.__float__,
    tuple: lambda value: tuple.__getitem__(value, slice(None)),
    list: lambda value: list.__getitem__(value, slice(None)),
    dict: lambda value: dict(dict.items(value)),
    set: lambda value: set(set.__iter__(value)),
    frozenset: lambda value: frozenset(frozenset.__iter__(value)),
}
"""How the value a subclass's object holds is read, by its base's own code: a copy of the exact base type, whatever
the subclass changed (its `__str__`, `__iter__`, `items`), so nothing of the learner's runs."""


def _honest_base(kind: type) -> type | None:
    """The value type (`_BASE_VALUE`) a learner's subclass of it stands for, when no class of theirs in between
    decides `==` (`class OrderId(str): pass`, an `IntEnum` or a `StrEnum`, a `namedtuple`, a `typing.NamedTuple`):
    its objects are the values they hold, as `==` says. None for any other class, and for one that writes its own
    `__eq__` or `__ne__` (`untrusted_class` refuses it) or is a trusted module's (the package's own enums stay)."""
    if not kind.__flags__ & _HEAP_TYPE or kind in _BASE_VALUE or _trusted(kind):
        return None
    base = next((b for b in kind.__mro__ if b in _BASE_VALUE), None)
    if base is None:
        return None
    for cls in kind.__mro__[: kind.__mro__.index(base)]:
        if not _trusted(cls) and ("__eq__" in vars(cls) or "__ne__" in vars(cls)):
            return None
    return base


def _standard_container(value: Any) -> Any:
    """A container of the standard library as the plain one it stands for: a mapping (OrderedDict,
    Counter, UserDict, mappingproxy) a dict, a set view a set, a sequence (deque, range) a list."""
    if isinstance(value, Mapping):
        return {plain(key): plain(item) for key, item in value.items()}
    if isinstance(value, AbstractSet):
        return {plain(item) for item in value}
    if isinstance(value, Sequence):
        return [plain(item) for item in value]
    return value


VALUES_LIMIT = 100_000
"""Values an answer (or what a learner's function returns) may hold, counted by `oversized`: no exercise's
answer needs a thousand, and reading a bigger one (`plain`, the look for `...`, for a class of the learner's
own) took longer than the check's time limit, which then asked whether the learner's code loops forever."""


def oversized(value: Any, limit: int = VALUES_LIMIT) -> bool:
    """True when `value` holds more than `limit` values, counted through what `plain` reads (lists,
    tuples, sets, mappings, a deque; numpy's arrays by their size, a pandas Series by its length) from
    their lengths: a container's items are only read when they fit, so this takes at most `limit` steps.
    A container met again is counted again but not read again (a list that holds itself ends)."""
    count, stack, read = 1, [value], set()
    while stack:
        item = stack.pop()
        size, items = _size_of(item)
        count += size
        if count > limit:
            return True
        if items is not None and id(item) not in read:
            read.add(id(item))
            stack.extend(items())
    return False


def _size_of(value: Any) -> tuple[int, Any]:
    """How many values `value` holds directly, and how to get them (None: not read further)."""
    package = str(getattr(type(value), "__module__", "")).split(".")[0]
    if package == "numpy" and hasattr(value, "size"):
        return int(value.size), None
    if package == "pandas" and type(value).__name__ == "Series":
        return len(value), None
    if isinstance(value, Mapping):
        return 2 * len(value), lambda: [*value.keys(), *value.values()]
    if isinstance(value, (list, tuple, set, frozenset, deque)):
        return len(value), lambda: value
    return 0, None


TRUSTED_MODULES = frozenset(
    {
        "builtins",
        "collections",
        "datetime",
        "decimal",
        "enum",
        "fractions",
        "numpy",
        "pathlib",
        "pydantic",
        "toolkit",
        "types",
        "typing",
        "typing_extensions",
    }
)
"""Packages whose classes compare honestly (`types`: a `SimpleNamespace`, by its attributes; `typing_extensions`:
the metaclass of its `Protocol`, which a learner's declaration has, says only that its Protocol is typing's); a
class of any other module (the learner's), or one that only claims to be of these (`_defined_there`), is checked."""


def untrusted_class(value: Any) -> type | None:
    """The class of the first object in `value` (through lists, tuples, sets and dicts) whose `==` could
    be the learner's: an instance of a class from outside `TRUSTED_MODULES` whose `==` or `!=` is not
    object's — its own, or inherited from a value type or a trusted class whose `==` reads attributes
    the subclass can override (`UserList.data`). None when there is none."""
    cls = type(value)
    if not _trusted(cls) and not _identity_equality(cls):
        return cls
    parts: Any = ()
    if isinstance(value, dict):
        parts = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        parts = value
    return next((found for part in parts if (found := untrusted_class(part)) is not None), None)


def _trusted(cls: type) -> bool:
    """A class of a trusted module, and that module's own (`_defined_there`), not one that only says so."""
    module = str(getattr(cls, "__module__", ""))
    return module.split(".")[0] in TRUSTED_MODULES and _defined_there(cls, module)


_HEAP_TYPE = 1 << 9
"""`Py_TPFLAGS_HEAPTYPE`: set on every class a `class` statement (or `type()`) makes, so on every learner's class."""


def _defined_there(cls: type, module: str) -> bool:
    """Whether `module` holds `cls` under its qualified name, as pickle checks before it stores a class by name: a
    learner's class that only claims a trusted `__module__` (`"builtins"`, `"toolkit"`) is not found there. A type
    the interpreter or an extension defines statically (a builtin method's, numpy's scalars) is its module's: no
    class statement makes one."""
    import sys

    if not cls.__flags__ & _HEAP_TYPE:
        return True
    found: Any = sys.modules.get(module)
    for name in str(getattr(cls, "__qualname__", "")).split("."):
        found = getattr(found, name, None)
    return found is cls


def _identity_equality(cls: type) -> bool:
    """True when `==` and `!=` of `cls` are object's own (identity), whoever wrote the class."""
    return getattr(cls, "__eq__", None) is object.__eq__ and getattr(cls, "__ne__", None) is object.__ne__


def untrusted_text(cls: type) -> str:
    """An untrusted class as said in feedback: an installed library's (a pandas DataFrame) by its package,
    else as the learner's own."""
    if package := library_of(cls):
        return f"{a_or_an(cls.__name__)} (from {package}), whose == is its own code, not a plain value's"
    return f"{a_or_an(cls.__name__)}, a class of your own that can decide == by its own code"


def library_of(cls: type) -> str | None:
    """The top-level package of the installed library (or standard module) `cls` is defined in, or None
    when it is defined elsewhere: in the notebook, or in a file of the learner's."""
    import os
    import sys

    module = str(getattr(cls, "__module__", ""))
    if module == "__main__" or not _defined_there(cls, module):  # the notebook's code, or a class only claiming one
        return None
    file = getattr(sys.modules.get(module), "__file__", None)
    if not isinstance(file, str) or not os.path.abspath(file).startswith(_LIBRARY_FOLDERS):
        return None
    return str(cls.__module__).split(".")[0]


def _library_folders() -> tuple[str, ...]:
    import os
    import site
    import sysconfig

    folders = {sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    folders.add(site.getusersitepackages())
    return tuple(sorted(os.path.join(os.path.abspath(f), "") for f in folders if f))


_LIBRARY_FOLDERS = _library_folders()
"""Where installed libraries and the standard library live: a class from a file there is not the learner's."""


def is_number(value: Any) -> bool:
    """A real number — an int, a float, numpy's, a Fraction or a Decimal — not a bool (True is not 1
    in an answer) and not a string of digits."""
    return isinstance(value, (numbers.Real, decimal.Decimal)) and not isinstance(value, bool)


ADDRESS = re.compile(r" (?:object )?at 0x[0-9a-fA-F]+")
"""The memory address in a default repr (`<function f at 0x7f…>`): different on every run."""


def show(value: Any) -> str:
    """How feedback quotes a value: its repr (a set's items sorted), or — when that holds a memory
    address — what it is: "a function named helper" (a module: "the module toolkit"), on one line. Either way the same answer reads the same on
    every run (a set's order, like an address, changes from one kernel to the next). A secret in it is
    masked before it is cut at `SHOW_LIMIT`, so no head of a key shows."""
    text = _one_line(_quoted(value)[: SHOW_LIMIT + SECRET_ROOM])  # what could show, and room for a key across the cut
    return cut(scrub_secrets(text), SHOW_LIMIT)  # masked whole, then cut: a key cut in two would not read as one


def _one_line(text: str) -> str:
    """A quoted value on one line of the feedback: the line breaks and tabs of a repr (a table view's, a
    learner's own `__repr__`) written as `\\n`, `\\r`, `\\t`, as a str's repr writes them."""
    return text.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


SECRET_ROOM = 1000
"""Characters past `SHOW_LIMIT` that `show` masks secrets in before it cuts: a key that starts before the cut
and ends in them is masked whole (keys are far shorter), and a huge value is not scanned to its end."""
SHOW_LIMIT = 160
"""Characters of a quoted value: a long one (a list of tools, a huge text) is cut here, so the words of the
feedback around it — what is wrong, what to do — are still read, not cut off with the feedback's tail."""


def _quoted(value: Any) -> str:
    if isinstance(value, types.ModuleType):  # its repr holds the path it was loaded from: another on each machine
        return f"the module {value.__name__}"
    try:
        text = _stable_repr(value)
    except Exception:  # a learner's __repr__ that raises, an answer nested thousands deep, a huge int
        if isinstance(value, int) and not isinstance(value, bool):
            return f"an int of {_digits(value)} digits"
        return f"{a_or_an(type(value).__name__)} object"
    if not ADDRESS.search(text):
        return text
    if callable(value) and not isinstance(value, type) and hasattr(value, "__name__"):
        return f"a function named {value.__name__}"
    if isinstance(value, type):
        return f"the class {value.__name__}"
    if type(value) in (list, tuple, dict, set, frozenset):
        return ADDRESS.sub("", text)
    return f"{a_or_an(type(value).__name__)} object"


def _digits(number: int) -> int:
    """How many decimal digits `number` has, without writing it out (past 4300 digits Python refuses to)."""
    number = abs(number)
    guess = max(1, int(number.bit_length() * 0.30102999566398120))  # log10(2): the digits, or one fewer
    return guess + 1 if number >= 10**guess else guess


def _stable_repr(value: Any, depth: int = 0) -> str:
    """`repr`, with the items of every set (in lists, tuples and dicts too) in sorted order."""
    kind = type(value)
    if depth > 50 or kind not in (set, frozenset, list, tuple, dict):
        return repr(value)
    if kind in (set, frozenset):
        if not value:
            return f"{kind.__name__}()"
        inner = "{" + ", ".join(sorted(_stable_repr(item, depth + 1) for item in value)) + "}"
        return inner if kind is set else f"frozenset({inner})"
    if kind is dict:
        return (
            "{"
            + ", ".join(f"{_stable_repr(k, depth + 1)}: {_stable_repr(v, depth + 1)}" for k, v in value.items())
            + "}"
        )
    items = [_stable_repr(item, depth + 1) for item in value]
    if kind is list:
        return "[" + ", ".join(items) + "]"
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
