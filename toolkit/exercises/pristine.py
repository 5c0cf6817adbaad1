"""The package as it was imported, so that no check compares with a package the kernel has since changed.

A check compares the learner's answer with what the package really does; the learner's code shares the
kernel with it, so an assignment in a cell (`toolkit.loop.run.COURSE = COURSE.model_copy(...)`,
`RetryPolicy.wait = mine`, `run_loop.__code__ = other.__code__`) would make the package agree with a
wrong answer. `start()` notes each module of the package (those imported when `toolkit.exercises` is, then
each one as its import ends: an import hook), entry by entry, each by identity:

- its globals: a constant, a text, a function or a class rebound is a change, and so is a name added (a
  builtin shadowed on a module: `len = ...` set on it) or deleted — not a submodule imported later, nor the names
  the module's own code assigns (`global _last`: state it keeps, not constants), nor the names `toolkit`
  fills in on first use (its `__getattr__`: each points at an object noted at home, where checks read it);
- the members of each class it defines (`ChatMemory.add = ...`), its bases, a pydantic model's fields and their
  defaults (`Model.model_fields["x"].default = ...`), and each function's code and defaults (`f.__code__`,
  `f.__defaults__`, `f.__kwdefaults__`);
- the attributes of each frozen object of its own it holds as a global (a frozen dataclass or pydantic model:
  `COURSE` changed through `object.__setattr__`).

Python's own built-in functions and classes (`builtins.abs`, `sorted`, `float`, `isinstance`) are noted too, as
they were when noting began: every check computes with them, so `builtins.abs = lambda x: 0` in a cell would make a
check's "within 1e-9 of the package's wait" hold for any number. A name added to `builtins` (IPython's `display`,
`get_ipython`) is none of them, and the objects `site` puts there (`help`, `exit`) are not noted, nor `input`, which
a Jupyter kernel sets anew for each cell.

The standard library's modules the package and the checks (even outside grading) use are noted too, each module's public functions and
classes (`json.dumps`, `math.isclose`, `time.monotonic`, `random.Random`): those it holds (`import json`) or imports
in a function's body, each as it is first seen imported. The package looks them up as it runs, so `json.dumps =
lambda *a, **k: "x"` in a cell turned every tool call's arguments into `x` (seven right answers failed, and w10.escape
said "refused: ['notes/todo.md']") and a frozen `time.monotonic` made a check wait for ever. Not noted: `sys` (IPython
sets its hooks), the hooks Python lets code replace and kernels and test runners do (`_HOOKS`: `getpass.getpass`,
which ipykernel sets for each cell; `threading.excepthook`, `warnings.showwarning`), and a module's other state
(`random.seed(0)`, `os.environ` emptied: no check relies on either, nor on the decimal context or the locale).

`changes()` names what differs now (`toolkit.loop.run.COURSE`); `toolkit.exercises.core` does not check while
there is one. Its cost is one read of each noted entry (`size()`): it grows with the package, not with anything
the learner does.

The checks' own modules (`toolkit.exercises`) are noted apart, under `toolkit grade` only (`note_checks`), and read
only by `checks_changes()`: outside grading, code that changes them could as well replace `check`; under it, check()
seals no result of checks the kernel changed (`toolkit.exercises.core.checks_changes`).

A function of the kernel's own code (a cell's, a lambda, one of the learner's files) already in the builtins or a
standard module's functions when they are noted (`builtins.abs = lambda x: 0` in a cell before the first `import
toolkit.exercises`, or `json.dumps` replaced before the package first imported `json`) is a change from the start
(`_as_found`): there is nothing older to compare it with, but it is none of Python's.

Leaves out: the package's modules, and any other object of Python's (a builtin put in another's place, a
`functools.partial`), changed before `toolkit.exercises` is imported (nothing older to compare with), a
container of the package changed in place (`SOME_DICT["x"] = ...`: its own code fills its caches and registries
the same way), a module of the standard library the package does not use (`statistics.mean = ...`: no check computes with it),
one first imported by a cell that changes it before the package imports it, a class of the standard library changed
other than those of answers and JSON's (`_CLASSES_NOTED`: `fractions.Fraction.__eq__`, `json.JSONEncoder.encode` are
noted; `logging.Logger.info` is not), a function of the standard library replaced by one an installed library defines
(torch replaces `inspect.getfile` as it is imported: counting it made every check after `import torch` refuse; a
learner could hand such a function in too), and a learner set on defeating the record itself (it lives in the same
kernel).
"""

from __future__ import annotations

import builtins
import dis
import importlib.machinery
import os
import sys
import sysconfig
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from operator import is_
from typing import Any

PACKAGE = "toolkit"

Read = Callable[[], Mapping[str, Any]]
"""What an entry holds now, member by member."""

_NOTED: list[tuple[str, Read, dict[str, Any]]] = []
"""Each entry noted: where it is, how to read it, and what it held then."""
_CHECKS_NOTED: list[tuple[str, Read, dict[str, Any]]] = []
"""The same, of the checks' own modules (`checks_changes`), once `note_checks()` asked for them."""
_checks_too = False
"""Whether the checks' own modules are noted (`note_checks`: under `toolkit grade`, before the first cell)."""
_SEEN: set[str] = set()
"""The modules noted."""
_LOOKED: set[str] = set()
"""The names in `sys.modules` looked at: each noted or none of those noted (`_note_imported` looks at the others)."""
_OBJECTS: set[int] = set()
"""The frozen objects noted (each is kept alive in `_NOTED`, so its id stays its own)."""

_ADDED_BY_PYTHON = frozenset({"__annotations__", "__warningregistry__", "__slotnames__"})
"""Names Python itself adds to a class or module after it is made (`__annotations__` on its first read,
`__slotnames__` when `copy` or `pickle` first copies an object of the class)."""


CHECKS = f"{PACKAGE}.exercises"
"""The checks' own modules: not noted (code that changes them could as well replace `check` itself)."""


def _ours(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def _noted(name: str) -> bool:
    return _ours(name) and not (name == CHECKS or name.startswith(CHECKS + "."))


def _to_note(name: str) -> bool:
    """Whether a module is noted: the package's, and the checks' own once `note_checks()` asked for them."""
    return _noted(name) or (_checks_too and _ours(name))


_STORE_NAMES = ("STORE_GLOBAL", "DELETE_GLOBAL")
_STORES = tuple(bytes([dis.opmap[name]]) for name in _STORE_NAMES)


def _read_code(module: types.ModuleType) -> tuple[frozenset[str], set[str]]:
    """What the module's own code does, read once: the globals it assigns when it runs (`global _last`: state, not
    constants), and the modules of the standard library it holds or imports in a function's body."""
    assigned: set[str] = set()
    imported = {v.__name__ for v in vars(module).values() if isinstance(v, types.ModuleType)}
    for code in _codes(module):
        ops = code.co_code[::2]  # the opcodes (a quick look) before the instructions
        if any(op in ops for op in _STORES):
            assigned.update(i.argval for i in dis.get_instructions(code) if i.opname in _STORE_NAMES)
        if _IMPORT_NAME in ops:  # the modules it imports are among its names (with its attributes': `x.time`
            imported.update(code.co_names)  # names `time`, noted if imported; reading each instruction is slow)
    return frozenset(assigned), {name for name in imported if _in_stdlib(name)}


def _codes(module: types.ModuleType) -> Iterator[types.CodeType]:
    """The code of the module's functions and its classes' methods, and the code nested in it."""
    values = list(vars(module).values())
    values += [m for v in vars(module).values() if isinstance(v, type) for m in vars(v).values()]
    stack = [getattr(getattr(v, "__func__", v), "__code__", None) for v in values]
    seen: set[int] = set()
    while stack:
        code = stack.pop()
        if not isinstance(code, types.CodeType) or id(code) in seen:
            continue
        seen.add(id(code))
        yield code
        stack.extend(const for const in code.co_consts if isinstance(const, types.CodeType))


def _module_members(module: types.ModuleType, state: frozenset[str]) -> dict[str, Any]:
    """The module's globals but its state, its dunders and its submodules."""
    prefix = module.__name__ + "."
    return {
        k: v
        for k, v in vars(module).items()
        if k not in state
        and not (k.startswith("__") and k.endswith("__"))
        and not (isinstance(v, types.ModuleType) and v.__name__ == prefix + k)
    }


def _own_members(module: types.ModuleType, names: frozenset[str]) -> dict[str, Any]:
    """Of a module that fills its names in on first use (`toolkit`'s `__getattr__`), the globals noted: the
    names it re-exports point at objects noted at home, where the checks import them from (a cell's
    `toolkit.ai_service = my_wrapper` changes no check)."""
    return {k: v for k, v in vars(module).items() if k in names}


def _at_home(value: Any) -> bool:
    """Whether `value` is the object its own module of the package holds under its qualified name."""
    home: Any = sys.modules.get(str(getattr(value, "__module__", "")))
    if home is None or not _ours(home.__name__):
        return False
    for name in str(getattr(value, "__qualname__", "")).split("."):
        home = vars(home).get(name) if isinstance(home, (type, types.ModuleType)) else None
    return home is value


def _class_members(cls: type) -> dict[str, Any]:
    members = {k: v for k, v in vars(cls).items() if not k.startswith("__pydantic_") and k not in _ADDED_BY_PYTHON}
    members["__bases__"] = cls.__bases__
    fields = vars(cls).get("__pydantic_fields__")
    for name, info in (fields or {}).items() if isinstance(fields, dict) else ():
        members[f"model_fields[{name!r}].default"] = info.default
        members[f"model_fields[{name!r}].default_factory"] = info.default_factory
    return members


def _function_members(function: types.FunctionType) -> dict[str, Any]:
    members = {"__code__": function.__code__, "__defaults__": function.__defaults__}
    for name, value in (function.__kwdefaults__ or {}).items():
        members[f"__kwdefaults__[{name!r}]"] = value
    return members


def _entries(where: str, value: Any, owner: str) -> Iterator[tuple[str, Read]]:
    """The entries to note for `value`, found at `where` in the module `owner`: a function of the module, a
    class of it (its members, those functions, its own nested classes), or an object of one of its classes."""
    value = getattr(value, "__func__", value)  # a classmethod, a staticmethod
    if isinstance(value, property):
        for part in ("fget", "fset", "fdel"):
            yield from _entries(f"{where}.{part}", getattr(value, part), owner)
    elif isinstance(value, types.FunctionType):
        if value.__module__ == owner:
            yield where, partial(_function_members, value)
    elif isinstance(value, type):
        if value.__module__ == owner and value.__qualname__.split(".")[-1] == where.split(".")[-1]:
            yield where, partial(_class_members, value)
            for name, member in _class_members(value).items():
                if not name.startswith(("__bases__", "model_fields[")):
                    yield from _entries(f"{where}.{name}", member, owner)
    elif _ours(str(getattr(type(value), "__module__", ""))) and _frozen(value) and id(value) not in _OBJECTS:
        if _held_by_its_class_module(value, owner):
            return  # noted there, where it is defined beside its class, whichever module is noted first
        _OBJECTS.add(id(value))  # noted once, where first found (`COURSE` is imported into other modules)
        yield where, partial(_attributes, value)


def _held_by_its_class_module(value: Any, owner: str) -> bool:
    """Whether the module that defines `value`'s class, other than `owner`, holds `value` as a global too (then
    `value` is named there, the same in every kernel, not under whichever importer was noted first)."""
    home = sys.modules.get(type(value).__module__)
    if home is None or home.__name__ == owner or not _noted(home.__name__):
        return False
    return any(v is value for v in vars(home).values())


def _attributes(value: Any) -> dict[str, Any]:
    return dict(vars(value))


def _frozen(value: Any) -> bool:
    """An object whose attributes its class does not let change (a frozen dataclass or pydantic model): its
    attributes are constants, where another object's may be state the package keeps (a counter)."""
    params = getattr(type(value), "__dataclass_params__", None)
    config = getattr(type(value), "model_config", None)
    frozen = bool(getattr(params, "frozen", False)) or (isinstance(config, dict) and bool(config.get("frozen")))
    return frozen and isinstance(getattr(value, "__dict__", None), dict)


def note(module: types.ModuleType) -> None:
    """Note what the module holds now: what `changes()` compares with (for a module of the checks themselves,
    `checks_changes()`)."""
    name = module.__name__
    if name in _SEEN:
        return
    _SEEN.add(name)
    noted = _NOTED if _noted(name) else _CHECKS_NOTED
    state, stdlib = _read_code(module)
    members = _module_members(module, state)
    if "__getattr__" in vars(module):  # its names filled in on first use: its own only
        own = frozenset(k for k, v in members.items() if not _at_home(v))
        members = _own_members(module, own)
        noted.append((name, partial(_own_members, module, own), members))
    else:
        noted.append((name, partial(_module_members, module, state), members))
    for key, value in members.items():
        for where, read in _entries(f"{name}.{key}", value, name):
            noted.append((where, read, dict(read())))
    _note_stdlib(stdlib)


BUILTINS = "builtins"
"""Where Python's built-in functions and classes are noted (`_note_builtins`)."""


_SWAPPED_BY_THE_KERNEL = frozenset({"input"})
"""Builtins a Jupyter kernel sets for each cell it runs, and puts back after (ipykernel's `input`, which asks the
notebook's page): another object in each cell, none of the learner's doing."""


def _builtin_members(names: frozenset[str]) -> dict[str, Any]:
    """Those of Python's builtins named `names`, as `builtins` holds them now (one deleted is left out)."""
    return {k: v for k, v in vars(builtins).items() if k in names}


def _note_builtins() -> None:
    """Note Python's built-in functions and classes (`abs`, `sorted`, `float`) as they are now: what checks compute
    with. Not the other objects `builtins` holds (`help`, `exit`: `site`'s; `display`: IPython's)."""
    _SEEN.add(BUILTINS)
    public = {k: v for k, v in vars(builtins).items() if not k.startswith("_") and k not in _SWAPPED_BY_THE_KERNEL}
    names = frozenset(
        k
        for k, v in public.items()
        if (isinstance(v, (types.BuiltinFunctionType, type)) and getattr(v, "__module__", None) == BUILTINS)
        or _kernels_own(v)
    )
    _NOTED.append((BUILTINS, partial(_builtin_members, names), _as_found(_builtin_members(names))))


_FOUND_CHANGED: Any = object()
"""What a member found already changed when it was noted reads as then: no object is it, so it is a change for good."""


def _as_found(members: dict[str, Any]) -> dict[str, Any]:
    """`members` as noted, each that is the kernel's own code (`_kernels_own`) already noted as a change: code that
    ran before noting began (a cell before the first `import toolkit.exercises`, or before the package first
    imports a module of the standard library) replaced it, and a check would compute with that code."""
    return {k: _FOUND_CHANGED if _kernels_own(v) else v for k, v in members.items()}


def _kernels_own(value: Any) -> bool:
    """Whether `value`, found among Python's builtins or a standard library module's functions, is a function the
    kernel's code defined (in a cell, or a file of the learner's; a lambda): not Python's own nor an installed
    library's (IPython's `display`), wherever its name says it is from."""
    if not isinstance(value, types.FunctionType):
        return False
    file = value.__code__.co_filename
    if file not in _FILE_INSTALLED:
        _FILE_INSTALLED[file] = file.startswith("<frozen ") or (os.path.isabs(file) and _installed(file))
    return not _FILE_INSTALLED[file] or _ours(str(value.__module__))


_FILE_INSTALLED: dict[str, bool] = {}
"""Whether each source file a noted function's code is from is Python's own or an installed library's (read once)."""


STDLIB = frozenset(sys.stdlib_module_names) - {"sys", BUILTINS, "__main__"}
"""The standard library's top-level modules noted when the package uses them (`sys`'s hooks are IPython's to set)."""

_HOOKS = frozenset({"getpass.getpass", "threading.excepthook", "warnings.showwarning", "warnings.formatwarning"})
"""The standard library's functions that code is meant to replace (ipykernel sets `getpass.getpass` for each cell;
pytest, `threading.excepthook` for each test; `logging.captureWarnings`, `warnings.showwarning`): not noted."""

_STDLIB_WANTED: set[str] = set()
"""The standard library's modules the package's code imports in a function's body, not imported yet: noted when
they are (`_note_imported`)."""

_IMPORT_NAME = bytes([dis.opmap["IMPORT_NAME"]])


def _in_stdlib(name: str) -> bool:
    return name.partition(".")[0] in STDLIB


def _stdlib_members(module: types.ModuleType, names: tuple[str, ...]) -> dict[str, Any]:
    """The module's functions and classes named `names`, as it holds them now (one deleted reads None): read in C,
    as `os` alone holds hundreds of names."""
    return dict(zip(names, map(vars(module).get, names), strict=True))


def _note_stdlib(names: set[str]) -> None:
    """Note the public functions and classes of each module of the standard library named (not yet noted): as
    imported, or wanted until it is."""
    for name in sorted(names - _SEEN):
        module = sys.modules.get(name)
        if not isinstance(module, types.ModuleType):
            _STDLIB_WANTED.add(name)
            continue
        _STDLIB_WANTED.discard(name)
        _SEEN.add(name)
        public = tuple(
            k
            for k, v in vars(module).items()
            if not k.startswith("_")
            and f"{name}.{k}" not in _HOOKS
            and callable(v)
            and not isinstance(v, types.ModuleType)
        )
        _NOTED.append((name, partial(_stdlib_members, module, public), _as_found(_stdlib_members(module, public))))
        for key in public if name in _CLASSES_NOTED else ():
            cls = vars(module)[key]
            if _stdlib_class(cls, name) and id(cls) not in _OBJECTS:
                _OBJECTS.add(id(cls))  # noted once, where first found (`json.JSONEncoder` is `json.encoder`'s too)
                read = partial(vars, cls)  # its members as they are, not a copy: a class of `typing` holds dozens
                _NOTED.append((f"{name}.{key}", read, _as_found(dict(read()))))


_CLASSES_NOTED = frozenset({"collections", "decimal", "datetime", "enum", "fractions", "json", "pathlib"})
"""The standard library's modules whose classes' members are noted too: those of the values a check takes as answers
and compares with `==` (a `Fraction`, a `Path`, a `Counter`: `values.TRUSTED_MODULES`) and JSON's, which writes and
reads the wire. Not the others' (`typing`, `logging`, `inspect`: noting every class of the modules used cost a check
a third more)."""


def _stdlib_class(value: Any, module: str) -> bool:
    """Whether `value` is a class the standard library's `module` (or a module of its package) defines that code can
    change (`json.JSONEncoder.encode = ...`, `fractions.Fraction.__eq__ = ...`): a class statement's, not one the
    interpreter or a C extension made, whose members no assignment changes."""
    return (
        isinstance(value, type)
        and bool(value.__flags__ & _HEAP_TYPE)
        and not value.__flags__ & _IMMUTABLE_TYPE
        and str(getattr(value, "__module__", "")).lstrip("_").partition(".")[0] == module.lstrip("_")
    )


_HEAP_TYPE = 1 << 9
_IMMUTABLE_TYPE = 1 << 8
"""`Py_TPFLAGS_HEAPTYPE` (a class statement's) and `Py_TPFLAGS_IMMUTABLETYPE` (a C type no assignment changes)."""


def kind(where: str) -> str:
    """What a change `changes()` named is in: "builtins" (Python's `abs`), "stdlib" (`json.dumps`) or "package"."""
    top = where.partition(".")[0]
    return BUILTINS if top == BUILTINS else "stdlib" if top in STDLIB else "package"


def changes() -> list[str]:
    """Where the package differs from what was noted, sorted: `toolkit.loop.run.COURSE` (rebound, added or
    deleted), `toolkit.chat.client.RetryPolicy.wait`, `toolkit.loop.run.run_loop.__code__`. A function of Python's
    builtins or standard library that an installed library replaced (`_by_a_library`) is none of them."""
    _note_imported()
    found = _differences(_NOTED)
    return [where for where in found if kind(where) == "package" or not _by_a_library(_now_at(where))]


def _now_at(where: str) -> Any:
    """What `builtins.abs`, `inspect.getfile` or `json.JSONEncoder.encode` names now (None once deleted)."""
    module, _, rest = where.partition(".")
    held: Any = sys.modules.get(module)
    for key in rest.split("."):
        held = vars(held).get(key) if isinstance(held, (types.ModuleType, type)) else None
    return held


def _by_a_library(value: Any) -> bool:
    """Whether `value` is a function an installed library defined: what it put in the standard library's place as
    it was imported (torch's `torch.package` replaces `inspect.getfile`; nest_asyncio, `asyncio.run`), none of the
    learner's doing, which a check computes with as Python would. A function defined in a cell (`__main__`), in a
    module of the learner's own folder, a lambda of either, a builtin or any other object put there is the
    kernel's code changing Python's: counted."""
    if not isinstance(value, types.FunctionType) or value.__module__ in (None, "__main__") or _ours(value.__module__):
        return False  # the package's own functions are in site-packages too, once installed
    module = sys.modules.get(value.__module__)
    file = getattr(module, "__file__", None)
    return isinstance(file, str) and _installed(file) and value.__code__.co_filename == file


def _installed(file: str) -> bool:
    """Whether `file` lies in an installed package's folder (site-packages, dist-packages) or Python's own library."""
    if not _INSTALLED:
        _INSTALLED.extend(_installed_places())
    return os.path.realpath(file).startswith(tuple(_INSTALLED))


_INSTALLED: list[str] = []
"""The folders of installed code, as real paths each ending in a separator (read once)."""


def _installed_places() -> list[str]:
    paths = sysconfig.get_paths()
    places = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    places |= {p for p in sys.path if os.path.basename(p.rstrip(os.sep)) in ("site-packages", "dist-packages")}
    return sorted({os.path.join(os.path.realpath(p), "") for p in places})


def note_checks() -> None:
    """Note the checks' own modules too, those imported and each one imported from now on (`toolkit grade` asks,
    as it arms the kernel: noting them costs a third of a second, which a notebook outside grading never needs)."""
    global _checks_too
    _checks_too = True
    _LOOKED.clear()  # the checks' own modules were looked at and passed over
    _note_imported()


def checks_changes() -> list[str]:
    """As `changes()`, of the checks' own modules (`toolkit.exercises.core._check`, a week's checker): what
    `toolkit grade` asks before it seals a check's result, for a check whose code the kernel changed is no check."""
    _note_imported()
    return _differences(_CHECKS_NOTED)


def _differences(noted: list[tuple[str, Read, dict[str, Any]]]) -> list[str]:
    found: list[str] = []
    for where, read, then in noted:
        now = read()
        if _same(then, now):
            continue
        found += [
            f"{where}.{key}"
            for key in then.keys() | now.keys()
            if (key not in now or key not in then or then[key] is not now[key])
            and not (key not in then and _cached_by_python(key, now[key]))
        ]
    return sorted(found)


def _same(then: dict[str, Any], now: Mapping[str, Any]) -> bool:
    """Whether `now` holds the very objects `then` did under the same names in the same order: the usual case,
    compared in C (`operator.is_` pairwise). Names in another order, or any difference, go to the comparison
    name by name, which alone says what changed."""
    if len(then) != len(now):
        return False
    return (all(map(is_, then, now)) or then.keys() == now.keys()) and all(map(is_, then.values(), now.values()))


def _cached_by_python(key: str, value: Any) -> bool:
    """Whether a name added since noting is one Python's own machinery caches on a class the first time it is
    asked (`__slotnames__` by `copy`, a protocol's member sets by `isinstance`): a dunder that is no function. A
    dunder function added (`__eq__ = ...`) changes what the class does, and is a change."""
    return key.startswith("__") and key.endswith("__") and not callable(value)


def again() -> None:
    """Note the package as it is now, forgetting what was noted: for a test suite whose session-wide fixture
    sets the package's defaults for every test (longer deadlines on a loaded machine)."""
    _NOTED.clear()
    _CHECKS_NOTED.clear()
    _SEEN.clear()
    _LOOKED.clear()
    _STDLIB_WANTED.clear()
    _OBJECTS.clear()
    _note_imported()


def size() -> int:
    """How many members `changes()` reads: its cost."""
    return sum(len(then) for _, _, then in _NOTED)


class _NotingLoader(importlib.machinery.SourceFileLoader):
    """The package's loader, which notes each module as its code has run."""

    def exec_module(self, module: types.ModuleType) -> None:
        super().exec_module(module)
        if _to_note(module.__name__):
            note(module)
        elif _ours(module.__name__):  # a check's own module outside grading: what it computes with, as imported
            _note_stdlib(_read_code(module)[1])
            _LOOKED.add(module.__name__)


class _Finder:
    """Finds a module of the package as Python would, and has it loaded by `_NotingLoader`."""

    @classmethod
    def find_spec(cls, fullname: str, path: Sequence[str] | None = None, target: Any = None) -> Any:
        if not _ours(fullname):
            return None
        for finder in sys.meta_path:
            if finder is cls or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if type(spec.loader) is importlib.machinery.SourceFileLoader:
                    spec.loader = _NotingLoader(spec.loader.name, spec.loader.path)
                return spec
        return None


def start() -> None:
    """Note the package's modules imported so far, and each one imported from now on."""
    if _Finder not in sys.meta_path:
        sys.meta_path.insert(0, _Finder)
    _note_imported()


def _note_imported() -> None:
    """Note each module of the package imported, and whole, not noted yet: one a loader of another kind ran,
    or one still being imported when `start()` ran (its names not all there yet); and Python's builtins, first."""
    if BUILTINS not in _SEEN:
        from toolkit.exercises.values import TRUSTED_MODULES

        _note_builtins()
        _STDLIB_WANTED.update(name for name in TRUSTED_MODULES if name in STDLIB)  # the classes of answers: a Fraction
    if _STDLIB_WANTED:
        _note_stdlib(_STDLIB_WANTED & sys.modules.keys())
    for name in sorted(sys.modules.keys() - _LOOKED):  # those imported since the last look: a set's work, in C
        module = sys.modules.get(name)
        if name not in _SEEN and _ours(name):
            if not isinstance(module, types.ModuleType):
                continue  # looked at again next time
            if getattr(getattr(module, "__spec__", None), "_initializing", False):
                continue  # noted once its code has run
            if _to_note(name):
                note(module)
            else:  # a check's own module outside grading: not noted, but what it computes with is
                _note_stdlib(_read_code(module)[1])
        _LOOKED.add(name)
