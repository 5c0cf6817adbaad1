"""`@tool`, `Param` and the injected markers: how a Python function says "the model may call me".

    @tool("Look up one order by its id.")
    def query_order(order_id: Annotated[str, Param("e.g. SN202610200001", name="orderId")]) -> str:
        ...

`@tool` only *records* options on the function (name, description, return behaviour, metadata)
and checks them; the function itself is returned unchanged and stays an ordinary function.
Reflection into a JSON Schema happens when the tool is registered (`toolkit.tools.reflect`).
Bare `@tool` and `@tool(...)` work alike above `@staticmethod` and `@classmethod`. A callable
instance (`tool(name="add_one")(Calc())`) keeps the options on itself; its tool is its
`__call__`, named after its class unless given a name (`toolkit.tools.execute.tools_from`).
Every tool name, decorated or not, must follow OpenAI's rule (`TOOL_NAME`). What cannot be a
tool is refused where it is written: a class (decorate its methods, or an instance), a built-in
(`len`, `math.sqrt`: no type hints), an option of the wrong type (`@tool(3)`, `Param(name=5)`), a
property (read, never called: `@tool` over `@property` here, `@property` over `@tool` when the
object's tools are collected), a `functools.singledispatch` function or `singledispatchmethod`
(it dispatches on a positional argument, and tools are called by keyword; under `@tool`, or
with no `@tool`, it is refused when it is reflected). A second `@tool` with other options (over
the first, or `tool(tool(f))`) is refused too: the options live on the function, and it would
silently replace the first ones wherever the function is used (the same options again are one tool).

Two kinds of parameter are never shown to the model; the loop fills them per call:
`Annotated[str, MemoryId]` receives the conversation's memory id, and a parameter typed
`InvocationContext` receives the whole context of the call. As in LangChain4j, such a parameter
takes no default (the loop's value always wins, so one would never be used), except `= None`,
which lets the function be called directly.

Leaves out: reflection (`toolkit.tools.reflect`), calling the function (`toolkit.tools.execute`).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import inspect
import json
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeVar, overload

import typing_extensions

from toolkit.chat.messages import ToolCall
from toolkit.chat.read_only import ReadOnlyDict
from toolkit.errors import ToolDefinitionError
from toolkit.errors import a_kind_of as a_kind_of  # re-exported: the error-text helpers were defined here
from toolkit.errors import a_or_an as a_or_an
from toolkit.tools.addresses import without_addresses
from toolkit.tools.redact import scrub_secrets

TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
"""What OpenAI accepts as a function name, `^[a-zA-Z0-9_-]{1,64}$`, for `.match`: `\\Z`, since Python's `$`
also matches before a final newline, which the API's pattern (ECMA-262's `$`) does not."""


class ReturnBehavior(str, enum.Enum):
    """What the loop does with this tool's result (the truth table lives in the loop)."""

    TO_LLM = "to_llm"
    """Default: the result goes back to the model and the loop continues."""
    IMMEDIATE = "immediate"
    """Return at once if every tool called this round is IMMEDIATE or IMMEDIATE_IF_LAST."""
    IMMEDIATE_IF_LAST = "immediate_if_last"
    """Return at once if this tool was the last call of the round."""


@dataclass(frozen=True, repr=False)
class Param:
    """Metadata for one parameter, used as `Annotated[T, Param("description", ...)]`."""

    description: str | None = None
    """What the model reads about this parameter (overrides the docstring's `Args:` entry)."""
    required: bool = True
    """`False`: the model may omit it and `None` is passed (the type must allow `None`).
    A parameter with a default is optional whatever this says."""
    name: str | None = None
    """The name the model sees, when it differs from the Python name (e.g. `orderId`)."""

    def __post_init__(self) -> None:  # made where the function is defined: a mistake shows there
        _check_option("Param(...)", "description", self.description, str)
        _check_option("Param(...)", "name", self.name, str)
        _check_option("Param(...)", "required", self.required, bool)
        if self.name == "":
            raise ToolDefinitionError(
                "Param(name='')", "the name the model sees is empty", "leave name out to use the parameter's own name"
            )

    def __repr__(self) -> str:  # only what was set, so signatures stay readable
        parts = [repr(self.description)] if self.description is not None else []
        parts += ["required=False"] if not self.required else []
        parts += [f"name={self.name!r}"] if self.name is not None else []
        return f"Param({', '.join(parts)})"


def said(text: str | None) -> str | None:
    """`text`, or None when it is empty or only whitespace: a blank description says nothing, so
    the next source (the docstring) is read, as LangChain4j reads a blank `@P` (`ToolSpecifications`,
    `jsonSchemaElementFrom`: `isNotNullOrBlank`). A tool's description (`@tool("  ")`) follows the
    same rule here, where LangChain4j sends a blank `@Tool` value as it is (`getDescription` drops an
    empty one only)."""
    return text if text and not text.isspace() else None


class MemoryId:
    """Marker: `Annotated[str, MemoryId]` receives the memory id of the current conversation."""


ANNOTATED: Any = type(Annotated[int, 0])
"""The class of an `Annotated[...]` alias (asked with `type(...) is`: `get_origin` costs some 1k instructions)."""


MARKERS = (Param, MemoryId)
"""The classes of the parameter markers (`MemoryId` is used as the class itself too)."""


def is_marker(meta: Any) -> bool:
    """Whether `meta` (an `Annotated` metadata item) is a `Param` or a `MemoryId` (the class or one made)."""
    return meta is MemoryId or isinstance(meta, MARKERS)


def nested_marker(tp: Any, seen: frozenset[int] = frozenset()) -> Any:
    """The first `Param` or `MemoryId` in an `Annotated` inside `tp`'s arguments (a type alias's
    value among them), or None (a `Literal`'s arguments are values, not types)."""
    if getattr(tp, "__origin__", None) is Literal:
        return None
    for arg in getattr(tp, "__args__", ()):  # an `Annotated`'s holds its type alone, not its metadata
        if isinstance(arg, type):  # a class (most are) holds no metadata
            continue
        if type(arg) is ANNOTATED:
            found = next(filter(is_marker, arg.__metadata__), None)
            if found is not None:
                return found
        found = aliased_marker(arg, seen) if isinstance(arg, ALIAS_TYPES) else nested_marker(arg, seen)
        if found is not None:
            return found
    return None


def marker_in(tp: Any, seen: frozenset[int] = frozenset()) -> Any:
    """The first `Param` or `MemoryId` in `tp`'s own `Annotated` metadata or inside its arguments, or None."""
    if type(tp) is ANNOTATED:
        found = next(filter(is_marker, tp.__metadata__), None)
        if found is not None:
            return found
    if isinstance(tp, ALIAS_TYPES):
        return aliased_marker(tp, seen)
    return None if isinstance(tp, type) else nested_marker(tp, seen)


ALIAS_TYPES: tuple[type, ...] = tuple(
    {kind for kind in (getattr(typing, "TypeAliasType", None), typing_extensions.TypeAliasType) if kind is not None}
)
"""typing's `TypeAliasType` (the `type` statement, 3.12+) and typing_extensions' (any Python)."""
NOT_AN_ALIAS: Any = object()
"""`alias_value` of what is not a type alias (or one whose value cannot be read)."""


def alias_value(tp: Any) -> Any:
    """The type a type alias names (`type Maybe = int | None` → `int | None`), else `NOT_AN_ALIAS`."""
    if not isinstance(tp, ALIAS_TYPES):
        return NOT_AN_ALIAS
    try:
        return tp.__value__  # type: ignore[attr-defined]
    except Exception:  # a name in it not defined (yet): pydantic says so where the schema is read
        return NOT_AN_ALIAS


def aliased_marker(alias: Any, seen: frozenset[int]) -> Any:
    """The marker in a type alias's value (each alias read once: `type Tree = dict[str, Tree]`)."""
    value = alias_value(alias) if id(alias) not in seen else NOT_AN_ALIAS
    return None if value is NOT_AN_ALIAS else marker_in(value, seen | {id(alias)})


_NEW_DICT: Mapping[str, Any] = types.MappingProxyType({})
"""`InvocationContext`'s `parameters` left out: a new dict is made (never this one)."""


class TurnParameters(ReadOnlyDict):
    """A turn's `parameters`, shared by all its calls and kept in its trace: a tool that changed
    them would change who the later calls (or those running beside it) act for, and what the trace
    says the earlier ones ran with. The values inside are the caller's own (not copied)."""

    __slots__ = ()

    READ_ONLY = (
        "InvocationContext.parameters is shared by every call of the turn and read-only; keep a tool's own "
        "state elsewhere (e.g. on its object, keyed by context.turn)"
    )

    def __repr__(self) -> str:
        """The dict's repr without its secrets (`redact.scrub_secrets`): a turn's trace shows its
        parameters (a notebook cell ending with the `LoopResult`), and a token passed for the tools
        to use is one; the values themselves are the caller's, unchanged."""
        return scrub_secrets(dict.__repr__(self))


@dataclass(frozen=True)
class InvocationContext:
    """Everything the loop knows about one call; a parameter of this type receives it."""

    memory_id: Any = None
    """The conversation's memory id (also what `Annotated[..., MemoryId]` parameters get)."""
    parameters: Mapping[str, Any] = field(default_factory=dict)
    """Per-invocation values the caller passed (user id, tenant, request id ...); in the loop a
    read-only copy (`TurnParameters`) that every call of the turn shares."""
    tool_call: ToolCall | None = None
    """The call being executed; the executor sets it before calling the tool."""
    turn: int = 0
    """The turn's number (one `run_loop` / `iter_loop` call; `ProviderRequest.turn`); 0 outside the loop."""

    def __init__(
        self,
        memory_id: Any = None,
        parameters: Mapping[str, Any] = _NEW_DICT,
        tool_call: ToolCall | None = None,
        turn: int = 0,
    ) -> None:
        """The dataclass's own `__init__`, each field written to `__dict__`: the generated one of a
        frozen dataclass sets each through `object.__setattr__` (some 1.5k instructions a field;
        the loop makes one per call). `parameters` left out is a new empty dict, as its factory makes."""
        fields = self.__dict__
        fields["memory_id"], fields["parameters"] = memory_id, {} if parameters is _NEW_DICT else parameters
        fields["tool_call"], fields["turn"] = tool_call, turn


@dataclass(frozen=True)
class ToolOptions:
    """What `@tool` recorded on a function."""

    name: str | None = None
    """The tool name; `None` means the function's name."""
    description: str | None = None
    """The tool description; `None` means the docstring's summary."""
    return_behavior: ReturnBehavior = ReturnBehavior.TO_LLM
    """See `ReturnBehavior`."""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    """Free-form JSON-able facts about the tool (not sent to the model)."""


MARK = "__toolkit_tool__"
"""The attribute `@tool` sets on a function."""
COMPENSATES = "__toolkit_compensates__"
"""The attribute `@compensates` (`toolkit.loop.saga`) sets on a function: the name of the tool it undoes."""
_WRAPPED_METHODS = (classmethod, staticmethod)
"""What bare `@tool` may sit above besides a callable (a `classmethod` object is not callable)."""


Decorated = TypeVar("Decorated", bound="Callable[..., Any] | classmethod[Any, Any, Any] | staticmethod[Any, Any]")
"""What `@tool` decorates; it returns the very same object, so a type checker keeps its signature."""


@overload
def tool(target: Decorated, /) -> Decorated: ...


@overload
def tool(
    target: str | None = None,
    /,
    *,
    description: str | None = None,
    name: str | None = None,
    return_behavior: ReturnBehavior | str = ReturnBehavior.TO_LLM,
    metadata: Mapping[str, Any] | None = None,
) -> Callable[[Decorated], Decorated]: ...


def tool(
    target: str | Callable[..., Any] | classmethod[Any, Any, Any] | staticmethod[Any, Any] | None = None,
    /,
    *,
    description: str | None = None,
    name: str | None = None,
    return_behavior: ReturnBehavior | str = ReturnBehavior.TO_LLM,
    metadata: Mapping[str, Any] | None = None,
) -> Any:
    """Mark a function (or method) as a tool: `@tool`, `@tool("...")` or `@tool(name=...)`.

    The description may be given positionally or as `description=`, not both. The function is
    returned unchanged (only marked), and typed so: a type checker still checks its calls.
    """
    if isinstance(target, PROPERTIES):  # `@tool` over `@property`: no description was meant
        raise property_error(target)
    if isinstance(target, functools.singledispatchmethod):  # not callable itself: no description was meant
        raise dispatch_error(target)
    if callable(target) or isinstance(target, _WRAPPED_METHODS):  # bare @tool
        return _mark(target, ToolOptions())
    _check_option("@tool(...)", "the description", target, str)
    _check_option("@tool(...)", "description", description, str)
    _check_option("@tool(...)", "name", name, str)
    _check_option("@tool(...)", "metadata", metadata, Mapping)

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        text = _one_description(fn, target, description)
        options = ToolOptions(name, text, _behavior(fn, return_behavior), _metadata(fn, metadata))
        return _mark(fn, options)

    return decorate


def check_flag(call: str, option: str, value: Any, meaning: str) -> None:
    """A flag is `True` or `False`, nothing else: a non-empty str is true (`strict="no"` turned strict
    mode on). `meaning` says what each value does: `True (…) or False (…)`."""
    if value is not True and value is not False:
        raise ToolDefinitionError(
            f"{call}(..., {option}={value!r:.40})",
            f"{option} is {meaning}, not {a_kind_of(value)}",
            f"pass {option}=True or {option}=False",
        )


def _check_option(where: str, option: str, value: Any, kind: type) -> None:
    """An option of `@tool` or `Param` is None or of its type: a description of 5 would reach the
    request (and the gateway would refuse it), a name of 5 would fail deep inside reflection."""
    if value is not None and not isinstance(value, kind):
        wanted = "dict" if kind is Mapping else kind.__name__
        fix = f"pass {option} as {a_or_an(wanted)}" + (" (True or False)" if kind is bool else "")
        if "description" in option and isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            fix = _LINES_FIX  # LangChain4j's `@Tool({"line 1", "line 2"})`
        raise ToolDefinitionError(
            where,
            f"{option} is {a_or_an(type(value).__name__)} ({value_text(value):.60}), not {a_or_an(wanted)}",
            fix,
        )


_LINES_FIX = (
    'join the lines into one str, "\\n".join([...]), as LangChain4j joins @Tool\'s lines '
    "(or write them in one triple-quoted str)"
)
"""A description given as lines: LangChain4j's `@Tool` takes an array of them and joins them with
a line break; here a description is one str (a deliberate difference: Python has multi-line strings)."""


def tool_options(fn: Any) -> ToolOptions | None:
    """The options `@tool` recorded on `fn` (a function or bound method), or `None`."""
    target = getattr(fn, "__func__", fn)
    return getattr(target, MARK, None)


def function_label(fn: Any) -> str:
    """`module.qualname` of a function, the way developer errors name it."""
    fn = getattr(fn, "__func__", fn)
    if isinstance(fn, functools.partial):
        return f"functools.partial({function_label(fn.func)})"
    module = getattr(fn, "__module__", None) or "?"
    return f"{module}.{getattr(fn, '__qualname__', None) or type(fn).__qualname__}"  # never a repr with an address


def value_text(value: Any) -> str:
    """How a developer error shows a value inside a type (a validator, a default): its repr, or, when
    that holds a memory address, the value as it was written: a function by its qualified name
    (`AfterValidator(func=check_sku)`), a dataclass by the fields that differ from their defaults;
    one whose repr raises by its class (`<Proxy object>`), the error being the value's, not the tool's."""
    try:
        text = repr(value)
    except Exception:
        return f"<{type(value).__name__} object>"
    if " at 0x" not in text:
        return text
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
        return str(getattr(value, "__qualname__", None) or without_addresses(text))
    if isinstance(value, functools.partial):
        return f"functools.partial({value_text(value.func)}, ...)"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        shown = [
            f"{f.name}={value_text(getattr(value, f.name))}"
            for f in dataclasses.fields(value)
            if f.repr and (f.default is dataclasses.MISSING or getattr(value, f.name) is not f.default)
        ]
        return f"{type(value).__name__}({', '.join(shown)})"
    return without_addresses(text)


def _option_text(value: Any) -> str:
    """An option of `@tool` as it is written: `ReturnBehavior.IMMEDIATE`, not the enum's repr."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    return value_text(value)


def partial_error(where: str) -> ToolDefinitionError:
    """A `functools.partial` as a tool: refused, with what to write instead."""
    return ToolDefinitionError(
        where,
        "a functools.partial cannot be reflected (its name, docstring and type hints are partial's own, not the function's)",
        "write a small def with the remaining parameters that calls the function, and decorate that",
    )


def _mark(fn: Any, options: ToolOptions) -> Any:
    if isinstance(fn, PROPERTIES):
        raise property_error(fn)
    if isinstance(fn, functools.singledispatchmethod) or is_single_dispatch(fn):
        raise dispatch_error(fn)
    target = fn.__func__ if isinstance(fn, (staticmethod, classmethod)) else fn
    if not callable(target):
        raise TypeError(f"@tool decorates functions and methods, not {type(fn).__name__}")
    if isinstance(target, functools.partial):
        raise partial_error(f"@tool {function_label(target)}")
    if is_builtin(target):
        raise builtin_error(f"@tool {builtin_label(target)}", target)
    if isinstance(target, type):
        raise ToolDefinitionError(
            f"@tool {function_label(target)}",
            "@tool marks functions, methods and callable objects, not a class: a tool is made of an instance, "
            "and the options given to the class would not reach it",
            f"decorate the methods (or __call__) with @tool and pass an instance, e.g. tools_from({target.__name__}())",
        )
    if is_callable_instance(target):
        return _mark_instance(target, options)
    if isinstance(target, types.MethodType):  # `tool(shop.lookup)`: a bound method takes no attributes
        target = fn = _method_tool(target)
    name = options.name if options.name is not None else getattr(target, "__name__", "")
    check_name(f"@tool {function_label(target)}", name)
    _check_marked_once(target, options, f"@tool {function_label(target)}")
    setattr(target, MARK, options)
    return fn


def _check_marked_once(target: Any, options: ToolOptions, where: str) -> None:
    """A second `@tool` with other options (`@tool(name=...)` over `@tool(...)`, `tool(tool(f))`) is
    refused: the options live on the function, so the second would silently replace the first,
    everywhere it is used (as a second `@compensates` is refused, `toolkit.loop.saga`). The same
    options again change nothing. A `functools.wraps` wrapper of a tool carries its options as a
    copy; it is a function of its own, and takes options of its own."""
    earlier = getattr(target, "__dict__", {}).get(MARK)
    if earlier is None or earlier == options:
        return
    wrapped = getattr(target, "__wrapped__", None)
    if wrapped is not None and getattr(wrapped, MARK, None) is earlier:  # copied by functools.wraps
        return
    differ = [f.name for f in dataclasses.fields(ToolOptions) if getattr(earlier, f.name) != getattr(options, f.name)]
    first, then = (", ".join(f"{n}={_option_text(getattr(o, n)):.60}" for n in differ) for o in (earlier, options))
    raise ToolDefinitionError(
        where,
        f"it is already a tool with other options ({first} first, then {then}), and the second @tool would "
        "silently replace the first",
        "keep one @tool with every option the tool needs; for a second tool made of the same function, "
        "decorate a small def that calls it",
    )


def not_synchronous(fn: Any, label: str) -> ToolDefinitionError | None:
    """Why `fn` cannot be a tool the executor calls synchronously (an async function, a wrapper of
    one, a generator), as a `ToolDefinitionError`; None when it can."""
    if inspect.iscoroutinefunction(fn):
        return ToolDefinitionError(
            label,
            "it is async, and the executor calls tools synchronously",
            "make it a plain function (async tools are left out for now)",
        )
    if hasattr(fn, "__wrapped__") and inspect.iscoroutinefunction(inspect.unwrap(fn)):
        return ToolDefinitionError(
            label,
            "it wraps an async function (functools.wraps), so a call returns a coroutine, and the executor "
            "calls tools synchronously",
            "make the wrapped function a plain function (async tools are left out for now); a wrapper that "
            "runs the coroutine itself (asyncio.run) should not set __wrapped__ (drop functools.wraps)",
        )
    if inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn):
        return ToolDefinitionError(
            label,
            "it is a generator (it yields), and a tool call needs one return value",
            "return a list (or a string) instead of yielding",
        )
    return None


def _method_tool(method: types.MethodType) -> Callable[..., Any]:
    """A bound method (`tool("...")(shop.lookup)`, as LangChain's `tool` and the OpenAI Agents SDK's
    `function_tool` take one) as a function of its own that calls it: its name, docstring and
    signature without `self` (`functools.wraps`), and the options set on it. A bound method takes
    no attributes, and its function's would mark the method of every instance, so the class's
    own options (`@tool` in the class body) are not carried over: these are the ones given. An
    async or generator method is refused as such (the wrapper would hide what it is)."""
    error = not_synchronous(method, f"@tool {function_label(method.__func__)}")
    if error is not None:
        raise error

    @functools.wraps(method)
    def method_tool(*args: Any, **kwargs: Any) -> Any:
        return method(*args, **kwargs)

    method_tool.__dict__.pop(MARK, None)
    return method_tool


_BUILTIN_KINDS = (
    types.BuiltinFunctionType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
    types.MethodWrapperType,
    types.ClassMethodDescriptorType,
)
"""Callables written in C (`len`, `math.sqrt`, `str.upper`, `"x".upper`): no type hints to reflect,
and no attribute `@tool` can set."""


def is_builtin(fn: Any) -> bool:
    """`fn` is a function or method written in C (see `_BUILTIN_KINDS`)."""
    return isinstance(fn, _BUILTIN_KINDS)


def builtin_label(fn: Any) -> str:
    """How a developer error names a built-in: `len`, `math.sqrt`, `str.upper`."""
    owner = getattr(fn, "__objclass__", None) or getattr(fn, "__self__", None)
    owner_name = owner.__name__ if isinstance(owner, (type, types.ModuleType)) else None
    if owner_name is None and owner is not None:
        owner_name = type(owner).__name__
    module = getattr(fn, "__module__", None)
    prefix = owner_name or (module if module not in (None, "builtins") else None)
    name = getattr(fn, "__name__", None) or type(fn).__name__
    return f"{prefix}.{name}" if prefix and prefix != "builtins" else name


def builtin_error(where: str, fn: Any) -> ToolDefinitionError:
    """A built-in as a tool: refused, with what to write instead."""
    return ToolDefinitionError(
        where,
        f"{builtin_label(fn)} is written in C, not Python: it has no type hints or docstring to reflect into a tool",
        f"write a small def with typed parameters and a docstring that calls {builtin_label(fn)}, and use that",
    )


def check_name(where: str, name: str, fix: str = "pass a valid name, e.g. @tool(name='query_order')") -> None:
    """OpenAI's rule for a tool name (`TOOL_NAME`), for decorated and undecorated functions and
    hand-written specs alike."""
    if not isinstance(name, str) or not TOOL_NAME.match(name):
        raise ToolDefinitionError(
            where, f"the tool name {name!r} is not 1-64 ASCII letters, digits, '_' or '-' (OpenAI's rule)", fix
        )


def is_callable_instance(obj: Any) -> bool:
    """An object whose class defines `__call__` in Python (`Calc()`; a static or class method too),
    not a function or a class. Read from the class and its bases only: a metaclass's `__call__`
    (`EnumType`'s, a singleton's) makes the class callable, not its instances (`Colour.RED`)."""
    if isinstance(obj, type):
        return False
    call = next((vars(klass)["__call__"] for klass in type(obj).__mro__ if "__call__" in vars(klass)), None)
    if isinstance(call, _WRAPPED_METHODS):  # `@staticmethod def __call__(...)`: Python too
        call = call.__func__
    return isinstance(call, types.FunctionType)


PROPERTIES = (property, functools.cached_property)
"""What is read as an attribute, never called: `@tool` with one of them on a method is refused."""


def property_getter(attr: property | functools.cached_property[Any]) -> Any:
    """The function a property reads through (`fget`; a `cached_property`'s `func`)."""
    return attr.fget if isinstance(attr, property) else attr.func


def property_error(attr: property | functools.cached_property[Any]) -> ToolDefinitionError:
    """`@tool` and `@property` (or `functools.cached_property`) on one method, in either order: a
    property is read (`shop.status`), never called, so the model could not call it, and a tool made
    of its getter would not be what the class's users read. Refused where it is found."""
    kind = type(attr).__name__
    getter = property_getter(attr)
    name = getattr(getter, "__name__", None) or "status"
    return ToolDefinitionError(
        f"@tool {function_label(getter)}",
        f"it is also a {kind}: a {kind} is read as an attribute, never called, so the model could not call it",
        f"drop @{'functools.' if kind != 'property' else ''}{kind} to make it a method the model calls "
        f"(def {name}(self) -> ...), or keep the {kind} and add a @tool method that returns it",
    )


def is_single_dispatch(fn: Any) -> bool:
    """`fn` is what `functools.singledispatch` made: a wrapper with a `dispatch` and a `registry`."""
    return isinstance(getattr(fn, "registry", None), types.MappingProxyType) and callable(getattr(fn, "dispatch", None))


def dispatch_error(fn: Any) -> ToolDefinitionError:
    """A `functools.singledispatch` function (or `singledispatchmethod`) as a tool: refused. It picks
    an implementation by the class of its first positional argument, and the executor calls a tool
    with keyword arguments (the model's JSON object): every call would fail ("requires at least 1
    positional argument"), and the model would be told only the base implementation's parameters.
    A def of the tool's own that calls it positionally is both described and called right."""
    method = isinstance(fn, functools.singledispatchmethod)
    base = fn.func if method else getattr(fn, "__wrapped__", fn)
    kind = "singledispatchmethod" if method else "singledispatch function"
    name = getattr(base, "__name__", None) or "describe"
    try:
        names = list(inspect.signature(base).parameters)
    except (TypeError, ValueError):
        names = []
    method = method or names[:1] in (["self"], ["cls"])  # `@singledispatch` on a method: it dispatches on self
    first = names[1:2] if method else names[:1]
    call, arg = f"self.{name}" if method else name, first[0] if first else "value"
    registry = getattr(getattr(fn, "dispatcher", fn), "registry", {})  # a singledispatchmethod's is its dispatcher's
    kinds = " | ".join(sorted({getattr(k, "__name__", "...") for k in registry if k is not object})) or "str"
    return ToolDefinitionError(
        f"@tool {function_label(base)}",
        f"it is a functools.{kind}: it picks an implementation by the class of its first positional argument, "
        "but a tool is called with keyword arguments (the model's JSON object), so every call would fail; "
        "and the model would be told only the base implementation's parameters",
        f"make the tool a def with typed parameters that calls it positionally, e.g. @tool def {name}_tool("
        f"{'self, ' if method else ''}{arg}: {kinds}) -> str: return {call}({arg})",
    )


def _mark_instance(obj: Any, options: ToolOptions) -> Any:
    """A callable instance: the options go on the instance; its tool is `__call__` (`tools_from`)."""
    name = options.name if options.name is not None else type(obj).__name__
    where = f"@tool {function_label(type(obj))} object"
    check_name(where, name)
    _check_marked_once(obj, options, where)
    try:
        setattr(obj, MARK, options)
    except AttributeError:  # __slots__, or a frozen class
        raise ToolDefinitionError(
            where,
            f"@tool cannot record its options on a {type(obj).__name__} object (it takes no new attributes)",
            "decorate its __call__ method with @tool instead",
        ) from None
    return obj


def _one_description(fn: Any, positional: str | None, keyword: str | None) -> str | None:
    if positional is not None and keyword is not None and positional != keyword:
        raise ToolDefinitionError(
            f"@tool {function_label(fn)}",
            f"the description is given twice, positionally and as description=, and they differ "
            f"({positional!r} and {keyword!r})",
            "keep one of them",
        )
    return positional if positional is not None else keyword


def _behavior(fn: Any, value: ReturnBehavior | str) -> ReturnBehavior:
    try:
        return ReturnBehavior(value)
    except ValueError:
        members = [f"ReturnBehavior.{b.name}" for b in ReturnBehavior]
        values = [repr(b.value) for b in ReturnBehavior]
        raise ToolDefinitionError(
            f"@tool {function_label(fn)}",
            f"return_behavior={value!r} is not a ReturnBehavior",
            f"use {', '.join(members[:-1])} or {members[-1]} "
            f"(as a str, its value: {', '.join(values[:-1])} or {values[-1]})",
        ) from None


def _metadata(fn: Any, metadata: Mapping[str, Any] | None) -> Mapping[str, Any]:
    metadata = dict(metadata or {})
    try:
        json.dumps(metadata)
    except (TypeError, ValueError) as exc:
        raise ToolDefinitionError(
            f"@tool {function_label(fn)}",
            f"metadata is not JSON-serialisable ({exc})",
            "use only str, int, float, bool, None, lists and dicts",
        ) from None
    return metadata
