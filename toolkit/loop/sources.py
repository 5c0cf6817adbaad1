"""Where a call's tools come from: three sources merged into one per-call `ToolContext`.

1. **Tools**: `@tool` functions, objects with `@tool` methods, ready `Tool`s (`tools_from`).
2. **Providers**: anything with `provide(request) -> list[Tool]`. A *static* provider is asked
   once per call; a *dynamic* one (`dynamic = True`) before every model request, and it can
   only ever *add* tools: once a tool joined the call it stays until the call ends.
3. **A registry** of hand-written spec + executor pairs, each name with versions, one of them
   selected (so a course can show "query_order v2 behind a flag").

What a provider returns is checked where it is read (`provided`): a list of `Tool`s, in which
what `tools=` takes (`@tool` functions, objects with `@tool` methods) becomes its `Tool`s; anything
else is a `ConfigurationError` naming the provider. Each keyword refuses what belongs in another
(`tools=[provider]`, `providers=[tool]`, `registry=[...]`), naming the right one.

Duplicate names across sources are a configuration error, found when the context is built —
or, for a tool a dynamic provider adds later (a skill's own tool), when it is added: a name is
skipped only when the provider that added it offers it again.
The context tells *available* tools (every tool the call could use) from *effective* ones (the
tools sent to the model this round); they differ only when a wrapper such as tool search
holds some back (`visible`).

Speed: a loop passes the same tools every call, so `build_context` remembers the last few
`tools` lists made only of functions and `Tool`s (by identity, within one reflection
generation) and copies their checked tools instead of collecting them again; `effective` is a
C-speed copy when nothing is held back. Both give what the plain path gives (a test holds it).

Leaves out: the loop itself (`toolkit.loop.run`), tool search (`toolkit.search.tool`).
"""

from __future__ import annotations

import inspect
import threading
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import is_
from typing import Any, Protocol

from toolkit.chat.messages import Message
from toolkit.errors import ConfigurationError, ToolDefinitionError
from toolkit.tools import reflect
from toolkit.tools.decorator import a_kind_of, a_or_an, check_flag, function_label, tool_options
from toolkit.tools.execute import Executor, Tool, callable_with, check_executor, tools_from
from toolkit.tools.reflect import ToolSpec

ALWAYS_VISIBLE = "always_visible"
"""Metadata key: a wrapper that holds tools back (tool search) never hides this one
(`metadata={"always_visible": True}`); MCP providers and skills set it, search reads it."""


@dataclass(frozen=True)
class ProviderRequest:
    """What a provider may look at to decide which tools to offer."""

    messages: tuple[Message, ...]
    """The conversation so far."""
    memory_id: Any = None
    """The conversation's memory id; None for a call without a memory."""
    turn: int = 0
    """This turn's number (one `run_loop` / `iter_loop` call), the same in each request of the turn and in
    its tools' `InvocationContext`; 0 for a request built by hand. A provider that keeps something for a
    call without a memory keys it by the turn, not by `memory_id=None`, which every such call shares."""

    def __init__(self, messages: tuple[Message, ...], memory_id: Any = None, turn: int = 0) -> None:
        """The dataclass's own `__init__`, each field written to `__dict__` (a frozen dataclass's
        generated one sets each through `object.__setattr__`: the loop makes one a turn)."""
        fields = self.__dict__
        fields["messages"], fields["memory_id"], fields["turn"] = messages, memory_id, turn


class ToolProvider(Protocol):
    """A source of tools decided at call time (MCP servers, skills, feature flags ...).

    Read-only and positional, as the loop uses it: `dynamic` may be a class attribute, a field of a
    frozen dataclass or a property, and `provide`'s parameter may have any name."""

    @property
    def dynamic(self) -> bool:
        """True: asked before every model request; False: once per call."""
        ...

    def provide(self, request: ProviderRequest, /) -> Sequence[Tool]:
        """The tools to offer for this request (`request.messages`: the conversation so far)."""
        ...


@dataclass
class StaticProvider:
    """The simplest provider: a fixed list, or a function of the request.

    The list takes what `tools=` takes: `Tool`s, `@tool` functions, objects with `@tool`
    methods; they become `Tool`s here, so a mistake shows at construction. One tool given
    alone (not in a list) is refused: a callable is read as a function of the request."""

    tools: Sequence[Any] | Callable[[ProviderRequest], Sequence[Any]]
    dynamic: bool = False

    def __post_init__(self) -> None:
        # `dynamic="no"` is truthy: it made the provider dynamic
        check_flag(
            "StaticProvider",
            "dynamic",
            self.dynamic,
            "True (asked before every model request) or False (once per call)",
        )
        self.tools = _static_tools(self.tools)

    def provide(self, request: ProviderRequest) -> Sequence[Tool]:
        """The tools: the list given, or what the function given returns for `request`."""
        return self.tools(request) if callable(self.tools) else self.tools


def _static_tools(tools: Any) -> Any:
    """`StaticProvider`'s `tools`, its `@tool` functions made `Tool`s (a list of `Tool`s stays itself)."""
    alone = isinstance(tools, Tool) or (callable(tools) and tool_options(tools) is not None)
    if not alone and callable(tools):
        if not callable_with(tools, 1):
            raise ToolDefinitionError(
                f"StaticProvider({function_label(tools)})",
                "a function given to StaticProvider is called with the request (a ProviderRequest), and this "
                "one cannot take it",
                "give it the parameter (def tools_for(request): ...), or pass the list itself",
            )
        return tools
    if isinstance(tools, _UNORDERED):
        kind = type(tools).__name__
        raise unordered_error(tools, f"StaticProvider({kind} object)", "StaticProvider", "StaticProvider([{}])")
    if alone or isinstance(tools, (str, bytes, Mapping)) or not isinstance(tools, Iterable):
        kind = type(tools).__name__
        raise ToolDefinitionError(
            f"StaticProvider({function_label(tools) if callable(tools) else kind + ' object'})",
            f"StaticProvider takes a list of tools (or a function of the request), and got {a_or_an(kind)}",
            f"put it in a list: StaticProvider([{getattr(tools, '__name__', None) or '...'}])",
        )
    if type(tools) in _LISTS and all(type(t) is Tool for t in tools):
        return tools
    return tools_from(*tools)


class ToolRegistry:
    """Hand-written spec + executor pairs, versioned; `tools()` yields the selected versions."""

    def __init__(self) -> None:
        self._versions: dict[str, dict[str, Tool]] = {}
        self._selected: dict[str, str] = {}

    def __repr__(self) -> str:
        """Each name's versions and the selected one (a notebook shows it; the default held a memory address)."""
        shown = "; ".join(
            f"{name}: {', '.join(versions)} (selected: {self._selected.get(name, 'none')})"
            for name, versions in self._versions.items()
        )
        return f"ToolRegistry({shown or 'empty'})"

    def register(
        self, spec: ToolSpec | dict[str, Any], executor: Executor, *, version: str = "v1", select: bool | None = None
    ) -> Tool:
        """Add one version; the first version of a name is selected unless `select=False`.

        An async executor is refused here (`ToolDefinitionError`): the loop calls executors
        synchronously, so its call would return a coroutine that never runs."""
        spec = spec if isinstance(spec, ToolSpec) else _spec_of(spec, version)
        check_executor(executor, f"ToolRegistry.register({spec.name!r}, version={version!r})")
        versions = self._versions.setdefault(spec.name, {})
        if version in versions:
            raise ConfigurationError(
                f"ToolRegistry.register({spec.name!r}, version={version!r}): that version is already "
                "registered; give the new one another version, e.g. version='v2'"
            )
        versions[version] = Tool(spec, executor, f"registry {spec.name}@{version}")
        if select or (select is None and spec.name not in self._selected):
            self._selected[spec.name] = version
        return versions[version]

    def select(self, name: str, version: str) -> None:
        """Switch `name` to `version` (e.g. behind a feature flag)."""
        if version not in self._versions.get(name, {}):
            known = ", ".join(sorted(self._versions.get(name, {}))) or "none"
            raise ConfigurationError(
                f"ToolRegistry.select({name!r}, {version!r}): no such version (registered: {known}); register it first"
            )
        self._selected[name] = version

    def versions(self, name: str) -> list[str]:
        """The registered versions of the tool `name`, sorted (`[]` for a name never registered)."""
        return sorted(self._versions.get(name, {}))

    def selected(self) -> dict[str, str]:
        """Each tool name and the version selected for it, by name."""
        return dict(sorted(self._selected.items()))

    def tools(self) -> list[Tool]:
        """The selected version of each tool, ready for `run_loop(tools=...)`."""
        return [self._versions[name][version] for name, version in self._selected.items()]


def _spec_of(spec: Any, version: str) -> ToolSpec:
    """A registered spec given as an OpenAI dict (the outer one or its `function`) as a `ToolSpec`;
    anything else, or a dict without a name, is refused naming what to pass."""
    function = spec.get("function", spec) if isinstance(spec, Mapping) else None
    if not isinstance(function, Mapping) or "name" not in function:
        got = "a dict without a 'name'" if isinstance(function, Mapping) else a_kind_of(spec)
        raise ToolDefinitionError(
            f"ToolRegistry.register(..., version={version!r})",
            f"the spec is {got}; it takes a ToolSpec or an OpenAI tool dict",
            'pass ToolSpec("query_order", "...", {"type": "object", ...}) or '
            '{"type": "function", "function": {"name": "query_order", "description": "...", "parameters": {...}}}',
        )
    return ToolSpec.from_openai(function)


@dataclass
class ToolContext:
    """The tools of one call: available ones, the effective subset, and where each came from."""

    available: dict[str, Tool] = field(default_factory=dict)
    hidden: set[str] = field(default_factory=set)
    """Available but not sent (held back by a wrapper until found)."""
    dynamic: list[ToolProvider] = field(default_factory=list)
    _owners: dict[str, object] = field(default_factory=dict, repr=False)
    """Tool name → the dynamic provider that added it (it may offer the name again)."""

    @property
    def effective(self) -> list[Tool]:
        """The tools sent to the model this round, in registration order."""
        if not self.hidden:
            return list(self.available.values())
        return [t for name, t in self.available.items() if name not in self.hidden]

    def add(self, tools: Iterable[Tool], *, only_new: bool = False, owner: object = None) -> list[str]:
        """Add tools; a name seen before is an error. With `only_new`, a name that the same
        `owner` (a dynamic provider) added before is skipped: it offers its tools again each round
        (but once per answer: a name twice in one answer is an error, as for any provider)."""
        added, answered = [], set()
        for tool in tools:
            if tool.name in self.available:
                again = tool.name not in answered and only_new and owner is not None
                answered.add(tool.name)
                if again and self._owners.get(tool.name) is owner:
                    continue
                first = self.available[tool.name]
                if tool.function is not None and tool.function is first.function:
                    raise ConfigurationError(
                        f"tool {tool.name!r} ({tool.source}) is given twice, by two sources (tools=, a provider or "
                        "the registry); give it once (tool names must be unique in a call)"
                    )
                raise ConfigurationError(defined_twice(tool.name, self.available[tool.name].source, tool.source))
            self.available[tool.name] = tool
            answered.add(tool.name)
            if owner is not None:
                self._owners[tool.name] = owner
            added.append(tool.name)
        return added

    def refresh(self, request: ProviderRequest) -> list[str]:
        """Ask dynamic providers again; only new names join (tools never leave)."""
        return [
            name
            for provider in self.dynamic
            for name in self.add(provided(provider, request), only_new=True, owner=provider)
        ]

    def reveal(self, names: Iterable[str]) -> list[str]:
        """Make held-back tools effective (tool search calls this with what it found)."""
        shown = [n for n in names if n in self.hidden]
        self.hidden.difference_update(shown)
        return shown


def build_context(
    tools: Sequence[Any] = (),
    providers: Sequence[ToolProvider] = (),
    registry: ToolRegistry | None = None,
    request: ProviderRequest = ProviderRequest(()),
) -> ToolContext:
    """Merge the three sources for one call (static providers are asked here, once)."""
    if type(tools) not in _LISTS:  # the usual list passes `check_collection` at once
        check_collection("tools", tools)
    if type(providers) not in _LISTS:
        check_collection("providers", providers)
    if providers is None:  # as `tools=None` is no tools
        providers = ()
    for provider in providers:
        check_provider(provider)
    if registry is not None and not isinstance(registry, ToolRegistry):
        raise ToolDefinitionError(
            f"registry={type(registry).__name__} object",
            f"registry= takes a ToolRegistry, and got {a_or_an(type(registry).__name__)}",
            "pass tools as tools=[...] and providers as providers=[...]",
        )
    context = ToolContext(dynamic=[p for p in providers if getattr(p, "dynamic", False)] if providers else [])
    if tools:
        context.available.update(_tools_of(tools))  # checked: no name twice, and the context is empty
    for provider in providers:
        if not getattr(provider, "dynamic", False):
            context.add(provided(provider, request))
    if registry:
        context.add(registry.tools())
    if context.dynamic:  # else nothing can come later
        _check_later_tools(context)
        context.refresh(request)
    return context


def check_collection(keyword: str, value: Any) -> None:
    """`tools=` and `providers=` take a list: one tool or provider given alone (`tools=query_order`)
    would fail inside with "'function' object is not iterable", or (a string) be read letter by letter;
    a generator would be used up by the first look at it (its tools silently gone)."""
    if type(value) in _LISTS or value is None:
        return
    if isinstance(value, Iterator):  # a generator: read once, by the first look at it
        kind = type(value).__name__
        raise ToolDefinitionError(
            f"{keyword}={kind} object",
            f"{keyword}= takes a list, and got {a_or_an(kind)}, which can be read only once: the first look "
            f"at it would use it up, and the {keyword} would be gone without a word",
            f"make it a list: {keyword}=list(...) or {keyword}=[t for t in ...]",
        )
    if isinstance(value, _UNORDERED):
        raise unordered_error(value, f"{keyword}={type(value).__name__} object", f"{keyword}=", f"{keyword}=[{{}}]")
    if isinstance(value, ToolRegistry):  # "put it in a list" would lead to the next refusal, not the fix
        raise ToolDefinitionError(
            f"{keyword}=ToolRegistry object",
            f"{keyword}= takes a list, and got a tool registry",
            "pass it as registry=..., e.g. run_loop(..., registry=registry), or its tools: tools=registry.tools()",
        )
    if callable(getattr(value, "list_tools", None)) and not callable(getattr(value, "provide", None)):  # an McpClient
        raise ToolDefinitionError(
            f"{keyword}={type(value).__name__} object",
            f"{keyword}= takes a list, and got an MCP client",
            "wrap it in a provider: providers=[McpToolProvider([client])]",
        )
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        kind = type(value).__name__
        raise ToolDefinitionError(
            f"{keyword}={function_label(value) if callable(value) else kind + ' object'}",
            f"{keyword}= takes a list, and got {a_or_an(kind)}",
            f"put it in a list: {keyword}=[{getattr(value, '__name__', None) or '...'}]"
            + (f", e.g. {keyword}=list(x.values()) for a dict" if isinstance(value, Mapping) else ""),
        )


_LISTS = frozenset({list, tuple})
_UNORDERED = (set, frozenset)
"""Collections read in hash order: a function's hash is its id, a str's is salted per process, so the
same code would send the model its tools in another order in each process. (A dict and its views keep
the order the items were put in: they are read as they are.)"""


def unordered_error(value: set[Any] | frozenset[Any], where: str, takes: str, example: str) -> ToolDefinitionError:
    """A set where a list belongs (`tools={a, b}`): refused, not sorted. LangChain4j reads any
    `Collection` in its iteration order (a `HashSet`'s is its hash order too) and pydantic-ai takes a
    `Sequence`; sorting by name would quietly give an order nobody wrote, and the order is the
    developer's to choose (the model reads the tools in it)."""
    kind = type(value).__name__
    names = sorted(getattr(v, "__name__", None) or "..." for v in value)  # sorted: the same text in every process
    shown = ", ".join(names) if len(names) <= 3 and "..." not in names else "..."
    return ToolDefinitionError(
        where,
        f"{takes} takes a list, and got {a_or_an(kind)}, which has no order: its items would be read in another "
        "order in each process, and the model sent its tools in that order (its answers and a cassette's match "
        "would change with it)",
        f"give a list, in the order you want: {example.format(shown)}",
    )


def check_provider(provider: Any, where: str = "providers=[{}]") -> None:
    """An entry of `providers=` (or what a wrapper wraps) must have `provide(request)`: a tool
    put there by mistake is pointed at `tools=`, anything else at what a provider is."""
    if isinstance(provider, type):  # a class: its `provide` wants an instance, unless it is a class's own
        own = inspect.getattr_static(provider, "provide", None)
        if isinstance(own, (classmethod, staticmethod)):  # not kept by `_TAKES_REQUEST`, whose key would be `type`
            if callable_with(own.__get__(None, provider), 1):
                return
        name = provider.__name__
        raise ToolDefinitionError(
            where.format(f"the class {name}"),
            "it is a class, not a provider made with it",
            f"make one and pass it: providers=[{name}(...)]",
        )
    kind = type(provider).__name__
    provide = getattr(provider, "provide", None)
    if callable(provide):
        if _takes_the_request(provider, provide):
            return
        raise ToolDefinitionError(
            where.format(f"{kind} object"),
            "its provide() cannot take the request: the loop calls provider.provide(request) "
            "(a ProviderRequest: the messages so far)",
            "give it the parameter: def provide(self, request): ...",
        )
    label = function_label(provider) if callable(provider) else f"{kind} object"
    name = getattr(provider, "__name__", None) or "..."
    if callable(getattr(provider, "list_tools", None)):
        problem, fix = "it is an MCP client, not a provider", "wrap it: providers=[McpToolProvider([client])]"
    elif isinstance(provider, ToolRegistry):
        problem, fix = (
            "it is a tool registry, not a provider",
            "pass it as registry=..., or as StaticProvider(registry.tools())",
        )
    elif isinstance(provider, Tool) or tool_options(provider) is not None or _has_tool_methods(provider):
        problem, fix = "it is a tool, not a provider", f"pass it as tools=[{name}], or as StaticProvider([{name}])"
    else:
        problem = f"{a_or_an(kind)} is not a tool provider (a provider has a method provide(request))"
        fix = "pass providers such as StaticProvider([...]), McpToolProvider([...]), or tools as tools=[...]"
    raise ToolDefinitionError(where.format(label), problem, fix)


def _takes_the_request(provider: Any, provide: Callable[..., Any]) -> bool:
    """`provide(request)` can be called: decided once per class when `provide` is its method."""
    kind = type(provider)
    own = "provide" not in getattr(provider, "__dict__", {})  # the class's method, not the instance's
    known = _TAKES_REQUEST.get(kind) if own else None
    if known is None:
        known = callable_with(provide, 1)
        if own:
            _TAKES_REQUEST[kind] = known
    return known


_TAKES_REQUEST: dict[type, bool] = {}
"""Provider class → its `provide` takes the request (asked at every `build_context`)."""


def _has_tool_methods(obj: Any) -> bool:
    return not isinstance(obj, type) and any(tool_options(getattr(type(obj), a, None)) for a in dir(type(obj)))


def defined_twice(name: str, first: str, second: str) -> str:
    """The developer's error for two tools of one name (`first` and `second`: where each comes from).
    Two MCP servers offering one name get the fix that works for them: renaming one server's tools
    (`rename_tools` on a provider of both servers would rename both, and they would clash again)."""
    fix = "rename one of them"
    if first.startswith("MCP server ") and second.startswith("MCP server "):
        fix = (
            "give one server a McpToolProvider of its own and rename its tools, e.g. "
            "rename_tools(McpToolProvider([client]), lambda name: f'other_{name}')"
        )
    return (
        f"tool name {name!r} is defined twice: by {first} and by {second}; {fix} (tool names must be unique in a call)"
    )


def provided(provider: ToolProvider, request: ProviderRequest) -> list[Tool]:
    """What `provider.provide(request)` returns, checked: a list (or other iterable) of `Tool`s.
    Items `tools=` would take (`@tool` functions, objects with `@tool` methods) become their
    `Tool`s; anything else is a `ConfigurationError` naming the provider (it used to be an
    `AttributeError` deep in a wrapper or in `build_context`)."""
    try:
        offered = provider.provide(request)
    except StopIteration as exc:  # the loop is a generator: it would come out as a RuntimeError naming nothing
        label = f"{provider_label(provider)}.provide()"
        raise ConfigurationError(STOP_ITERATION.format(label=label)) from exc
    if type(offered) is list and all(type(t) is Tool for t in offered):
        return offered
    label = f"{provider_label(provider)}.provide()"
    if inspect.iscoroutine(offered) or inspect.isasyncgen(offered):
        raise ConfigurationError(_refused_async(label, offered))
    if isinstance(offered, _UNORDERED):  # read in hash order: another order of tools in each process
        raise ConfigurationError(
            f"{label} returned {a_kind_of(offered)}, which has no order: the model would be sent its tools in a "
            "different order in each process. Fix: return a list, in the order you want: return [tool, ...]"
        )
    if offered is None or isinstance(offered, (str, bytes, Mapping, Tool)) or not isinstance(offered, Iterable):
        raise ConfigurationError(
            f"{label} returned {a_kind_of(offered)}; it must return a list of Tool objects "
            "(an empty list when it has none). Fix: return [tool, ...]"
        )
    tools: list[Tool] = []
    for item in offered:
        if isinstance(item, Tool):
            tools.append(item)
            continue
        try:
            tools += tools_from(item)
        except ToolDefinitionError as exc:
            raise ConfigurationError(
                f"{label} returned {a_kind_of(item)}, which is not a tool ({exc.problem}). "
                "Fix: return Tool objects, @tool functions or objects with @tool methods"
            ) from None
    return tools


STOP_ITERATION = (
    "{label} raised StopIteration (an iterator it reads had no item left?): the loop is a generator, which cannot "
    "pass it on (Python turns it into RuntimeError('generator raised StopIteration')). Fix: raise another "
    "exception, or read with a default: next(items, None)"
)
"""The error for a provider that raised `StopIteration` (`next()` on a list of tool sets run out)."""


def _refused_async(label: str, offered: Any) -> str:
    """The error for an `async def provide`; its coroutine is closed first (left open, Python
    would print "coroutine ... was never awaited" with a path of the machine when it is collected)."""
    kind = "a coroutine"
    if inspect.iscoroutine(offered):
        offered.close()
    else:
        kind = "an async generator"
    return (
        f"{label} returned {kind}: it is `async def`, and the loop calls provide() synchronously, so its body "
        "never ran. Fix: write provide with `def` and return a list: return [tool, ...]"
    )


def provider_label(provider: Any) -> str:
    """How errors name a provider: its `label` (wrappers have one), else its class."""
    label = getattr(provider, "label", None)
    return label if isinstance(label, str) else type(provider).__name__


_KEPT = 16
"""How many `tools` lists `_tools_of` remembers (an application has a few agents, not hundreds)."""
_kept: dict[tuple[Any, ...], tuple[int, tuple[Any, ...], dict[str, Tool]]] = {}
"""The key of a `tools` list → (the reflection generation it was collected in, the list, its tools)."""
_kept_lock = threading.Lock()
_last_kept: tuple[int, tuple[Any, ...], dict[str, Tool]] = (-1, (), {})
"""The `_kept` entry `_tools_of` gave last (a generation no call has: none at first)."""
_FUNCTIONS = frozenset({types.FunctionType})
_KEPT_KINDS = frozenset({types.FunctionType, Tool})


def _tools_of(sources: Sequence[Any]) -> dict[str, Tool]:
    """`tools_from(*sources)` by name, remembered for a list of functions and `Tool`s only.

    A `Tool` is frozen and a function's tool changes only when its reflection is cleared
    (`reflect.cache_generation()` moves on), so the same objects give the same tools. Modules,
    objects with `@tool` methods and bound methods are collected every call (their tools can
    change between calls). The entry holds its sources, so the ids in its key stay theirs.

    The entry found or made last (`_last_kept`) is asked first: the very same objects, one `is`
    each in C, as an agent passes its one tools list turn after turn (its kinds, ids and their
    hash, which the key needs, cost some 150 instructions a tool)."""
    global _last_kept
    generation = reflect.cache_generation()
    last = _last_kept
    if last[0] == generation and len(last[1]) == len(sources) and all(map(is_, last[1], sources)):
        return last[2]
    kinds = set(map(type, sources))
    key = _key(sources, kinds)
    entry = _kept.get(key)
    if entry is not None and entry[0] == generation:
        _last_kept = entry
        return entry[2]
    collected = {t.name: t for t in tools_from(*sources)}  # raises on a duplicate name
    if kinds <= _KEPT_KINDS:
        with _kept_lock:  # a clear during the collection leaves an entry of the old generation: never read
            _kept.pop(key, None)
            while len(_kept) >= _KEPT:
                _kept.pop(next(iter(_kept)))
            _kept[key] = _last_kept = (generation, tuple(sources), collected)
    return collected


def _key(sources: Sequence[Any], kinds: set[type]) -> tuple[Any, ...]:
    """A list of functions is its own key (a function hashes and compares by identity, cheaply);
    any other list is keyed by its objects' ids (a `Tool` compares by value and has no hash)."""
    return tuple(sources) if kinds <= _FUNCTIONS else tuple(map(id, sources))


def _check_later_tools(context: ToolContext) -> None:
    """A dynamic provider that can say which tools it may add later (`possible_tools()`, e.g.
    skills) has them checked against the tools already there now, not mid-call."""
    for provider in context.dynamic:
        possible = getattr(provider, "possible_tools", None)
        for tool in possible() if callable(possible) else ():
            known = context.available.get(tool.name)
            if known is not None and known != tool:
                raise ConfigurationError(defined_twice(tool.name, known.source, tool.source))
