"""Wrappers over any tool provider: keep some tools, rename or redescribe them, mark them visible.

    provider = McpToolProvider([time])
    provider = filter_tools(provider, {"get_current_time", "convert_time"})
    provider = rename_tools(provider, {"get_current_time": "now"})
    provider = map_tools(provider, lambda spec: replace(spec, description="现在几点（UTC）。"))
    provider = always_visible(provider, {"now"})

**One naming rule**: every wrapper takes a tool's *current* name — the name the provider it
wraps gives the tool, which is the name the model would see without this wrapper. So after
`rename_tools(..., {"get_current_time": "now"})` the next wrapper says `"now"`. For an MCP
tool the current name starts as its wire name (`files.read` → `files_read`); the server's own
name stays in `spec.metadata["mcp_name"]`, and calls always reach the server under it.
This differs from LangChain4j, whose `McpToolProvider` filter reads the server's original names
(before any mapping): here one rule holds for every wrapper over every provider (a `@tool`
list, a registry, MCP), and a key that is only a server's name is refused with a pointer to
the current one (`'files.read' is the server's name of 'files_read'`).

**A key that matches nothing is a `ConfigurationError`**, raised when the provider is asked
(so `build_context` fails, not the first request): it names the wrapper, the key and the names
there are. Only when the wrapped provider may be missing tools for a reason of its own — a
dynamic provider that adds tools later, or an MCP provider that left out a dead server — is an
unmatched key logged (once) instead. New names are checked against the chat API's pattern
`^[A-Za-z0-9_-]{1,64}$`, so a bad name fails here and not as a 400 from the gateway. A
rename (`rename_tools`, `map_tools`) that gives a tool a name another tool has is refused by
that wrapper, naming both; names are strings (a set of functions is refused when the wrapper is
made), and `rename_tools` takes a mapping (or pairs, or a function): one string or a set is refused
when it is made. A wrapper wraps a provider: a tool or a list given instead is refused when it is
made, and the provider given second (`rename_tools(names, provider)`) is told it comes first.

Leaves out: changing a tool's parameters or executor (write a provider for that).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from toolkit.errors import ConfigurationError
from toolkit.loop.sources import ALWAYS_VISIBLE, ProviderRequest, ToolProvider, check_provider, provided, provider_label
from toolkit.tools.decorator import TOOL_NAME, a_or_an
from toolkit.tools.execute import Tool
from toolkit.tools.redact import describe_exception
from toolkit.tools.reflect import ToolSpec

log: logging.Logger = logging.getLogger("toolkit.loop.wrappers")


@dataclass
class _Wrapped:
    inner: ToolProvider
    change: Callable[[list[Tool], bool], list[Tool]]
    """(the inner provider's tools, whether that list may be partial) → the tools offered."""
    wrapper: str = "a wrapper"
    """The wrapper's name (`rename_tools` ...), for errors."""

    def __post_init__(self) -> None:
        check_provider(self.inner, f"{self.wrapper}({{}}, ...)")
        self.dynamic: bool = bool(getattr(self.inner, "dynamic", False))
        """As the wrapped provider (asked again each round when it is)."""
        self.label = f"{self.wrapper}({provider_label(self.inner)})"
        """How errors name this provider, e.g. `rename_tools(filter_tools(McpToolProvider))`."""

    @property
    def partial(self) -> bool:
        """True when the inner provider may be missing tools (dynamic, or a server left out)."""
        return self.dynamic or bool(getattr(self.inner, "partial", False))

    def provide(self, request: ProviderRequest = ProviderRequest(())) -> list[Tool]:
        return self.change(provided(self.inner, request), self.partial)

    def possible_tools(self) -> list[Tool]:
        """The inner provider's `possible_tools()` through this wrapper (none if it has none)."""
        possible = getattr(self.inner, "possible_tools", None)
        return self.change(list(possible()), True) if callable(possible) else []

    def __getattr__(self, name: str) -> Any:  # evict_tool_list_cache, close, clients ...
        if name in ("inner", "change", "wrapper", "dynamic", "label"):
            raise AttributeError(name)
        return getattr(self.inner, name)


def filter_tools(provider: ToolProvider, keep: Collection[str] | Callable[[Tool], bool]) -> ToolProvider:
    """Only the tools `keep` accepts: a set of current names, or a predicate on the `Tool`."""
    _provider_first("filter_tools", provider, keep)
    if callable(keep):
        predicate = keep

        def kept(tools: list[Tool], partial: bool) -> list[Tool]:
            return [t for t in tools if _applied("filter_tools", predicate, t, t.name)]

        return _Wrapped(provider, kept, "filter_tools")
    names, warned = _names("filter_tools", keep), set[str]()

    def change(tools: list[Tool], partial: bool) -> list[Tool]:
        _check_keys("filter_tools", names, tools, partial, warned)
        return [t for t in tools if t.name in names]

    return _Wrapped(provider, change, "filter_tools")


def rename_tools(provider: ToolProvider, names: Mapping[str, str] | Callable[[str], str]) -> ToolProvider:
    """The same tools under new names; calls still reach the tool under its old name.

    A mapping (current name → new name) renames the names it lists; a function gets every
    current name and returns the new one. Every new name must fit `^[A-Za-z0-9_-]{1,64}$`.
    """
    _provider_first("rename_tools", provider, names)
    if callable(names):
        rename = names

        def each(tools: list[Tool], partial: bool) -> list[Tool]:
            new = [_renamed(t, _checked(_applied("rename_tools", rename, t.name, t.name), t)) for t in tools]
            return _unique("rename_tools", tools, new)

        return _Wrapped(provider, each, "rename_tools")
    mapping, warned = _mapping(names), set[str]()
    _names("rename_tools", mapping)
    for old, new in mapping.items():
        _check_name("rename_tools", new, f"the new name for {old!r}")

    def change(tools: list[Tool], partial: bool) -> list[Tool]:
        _check_keys("rename_tools", set(mapping), tools, partial, warned)
        return _unique("rename_tools", tools, [_renamed(t, mapping.get(t.name, t.name)) for t in tools])

    return _Wrapped(provider, change, "rename_tools")


def map_tools(provider: ToolProvider, mapper: Callable[[ToolSpec], ToolSpec]) -> ToolProvider:
    """Each tool's spec through `mapper`: rewrite its name, its description, or both.

    LangChain4j's `McpToolProvider.toolSpecificationMapper` does the same. The parameters must
    stay as they are (the server validates against its own schema); a new name is checked.
    """
    _provider_first("map_tools", provider, mapper)

    def change(tools: list[Tool], partial: bool) -> list[Tool]:
        out = []
        for tool in tools:
            spec = _applied("map_tools", mapper, tool.spec, tool.name)
            if not isinstance(spec, ToolSpec):
                raise ConfigurationError(
                    f"map_tools: the mapper returned {type(spec).__name__} for {tool.name!r}; "
                    "it must return a ToolSpec (e.g. dataclasses.replace(spec, description=...))"
                )
            if spec.parameters != tool.spec.parameters:
                raise ConfigurationError(
                    f"map_tools: the mapper changed the parameters of {tool.name!r}; it may change the "
                    "name and the description only (the executor still expects the old arguments)"
                )
            if spec.name != tool.name:
                _check_name("map_tools", spec.name, f"the new name for {tool.name!r}")
            out.append(tool if spec == tool.spec else replace(tool, spec=spec))
        return _unique("map_tools", tools, out)

    return _Wrapped(provider, change, "map_tools")


def always_visible(provider: ToolProvider, names: Collection[str]) -> ToolProvider:
    """Mark tools (by current name) `always_visible`, so tool search always shows them."""
    _provider_first("always_visible", provider, names)
    chosen, warned = _names("always_visible", names), set[str]()

    def change(tools: list[Tool], partial: bool) -> list[Tool]:
        _check_keys("always_visible", chosen, tools, partial, warned)
        return [_with_metadata(t, {ALWAYS_VISIBLE: True}) if t.name in chosen else t for t in tools]

    return _Wrapped(provider, change, "always_visible")


# --- checks --------------------------------------------------------------------------------


def _provider_first(wrapper: str, provider: Any, second: Any) -> None:
    """The arguments the other way round (`rename_tools(names, provider)`): said so, before the
    names are read (a provider read as names was a bare TypeError)."""
    if not callable(getattr(provider, "provide", None)) and callable(getattr(second, "provide", None)):
        raise ConfigurationError(
            f"{wrapper}: the provider comes first, then what to do with its tools: {wrapper}(provider, ...). "
            "Fix: swap the two arguments"
        )


def _mapping(names: Any) -> dict[str, str]:
    """`rename_tools`' mapping as a dict (pairs are one too); anything else refused, saying what it takes."""
    if isinstance(names, str):
        given, example = f"one string ({names!r})", f"{{'current_name': {names!r}}}"
    else:
        try:
            return dict(names)
        except (TypeError, ValueError):
            pass
        first = next((n for n in sorted(names, key=str) if isinstance(n, str)), None) if _iterable(names) else None
        given, example = a_or_an(type(names).__name__), f"{{{first or 'current_name'!r}: 'new_name'}}"
    raise ConfigurationError(
        f"rename_tools: pass a mapping of current name → new name (or a function of the name), not {given}. "
        f"Fix: e.g. {example}"
    )


def _iterable(value: Any) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


def _names(wrapper: str, names: Collection[str]) -> frozenset[str]:
    if isinstance(names, str):
        raise ConfigurationError(
            f"{wrapper}: pass a collection of tool names, not one string ({names!r}); e.g. {{{names!r}}}"
        )
    for name in names:
        if not isinstance(name, str):
            shown = getattr(name, "name", None) or getattr(name, "__name__", None)
            raise ConfigurationError(
                f"{wrapper}: the tools are chosen by name, and got {a_or_an(type(name).__name__)}"
                + (f" ({shown!r})" if isinstance(shown, str) else "")
                + f". Fix: give the names as strings, e.g. {{{shown or 'query_order'!r}}}"
            )
    return frozenset(names)


def _unique(wrapper: str, before: Sequence[Tool], after: Sequence[Tool]) -> list[Tool]:
    """`after` (the same tools, some renamed), refused when a new name is one another tool has."""
    taken = Counter(t.name for t in after)
    for old, new in zip(before, after, strict=True):
        if old.name != new.name and taken[new.name] > 1:
            origins = [
                f"{b.name!r} renamed" if b.name != a.name else f"{b.name!r} as it is"
                for b, a in zip(before, after, strict=True)
                if a.name == new.name
            ]
            raise ConfigurationError(
                f"{wrapper}: {len(origins)} tools would be named {new.name!r} ({', '.join(origins)}); tool names "
                "must be unique in a call. Fix: give each tool a name of its own (or filter_tools one out first)"
            )
    return list(after)


def _check_keys(wrapper: str, keys: Collection[str], tools: Sequence[Tool], partial: bool, warned: set[str]) -> None:
    """A key that names no tool: `ConfigurationError` (logged once when the list may be partial)."""
    current = {t.name for t in tools}
    missing = sorted(set(keys) - current)
    if not missing:
        return
    hints = [
        f"{original!r} is the server's name of {t.name!r}"
        for original in missing
        for t in tools
        if t.spec.metadata.get("mcp_name") == original and t.name != original
    ]
    message = (
        f"{wrapper}: no tool is named {', '.join(map(repr, missing))} "
        f"(the tools are: {', '.join(sorted(current))}). "
        + (f"{'; '.join(hints)}. " if hints else "")
        + "Fix: use the tools' current names, as the wrapped provider gives them"
        if current
        else f"{wrapper}: no tool is named {', '.join(map(repr, missing))}: the provider it wraps gives no tools at all. "
        "Fix: look at what it wraps — a filter_tools before it that keeps none (its function is given the Tool, "
        "not its name: lambda tool: tool.name == ...), or a provider or server without tools"
    )
    if not partial:
        raise ConfigurationError(message)
    if message not in warned:
        warned.add(message)
        log.warning("%s (not an error yet: the wrapped provider may add tools later)", message)


_GIVEN = {
    "filter_tools": ("the Tool (its name is tool.name)", "lambda tool: tool.name.startswith('get_')"),
    "rename_tools": ("the tool's current name, a str", "lambda name: 'eu_' + name"),
    "map_tools": ("the tool's ToolSpec", "lambda spec: dataclasses.replace(spec, description='...')"),
}
"""What each wrapper's function is given, and an example of one (for the error when it raises)."""


def _applied(wrapper: str, function: Callable[[Any], Any], value: Any, tool: str) -> Any:
    """`function(value)`: a wrapper's function that raises is a `ConfigurationError` saying what
    it is given (`filter_tools` gives a Tool, `rename_tools` a name: easily mixed up)."""
    try:
        return function(value)
    except Exception as exc:
        given, example = _GIVEN[wrapper]
        raise ConfigurationError(
            f"{wrapper}: the function raised {describe_exception(exc)} on {tool!r}; it is given {given}. "
            f"Fix: e.g. {example}"
        ) from exc


def _check_name(wrapper: str, name: object, what: str) -> str:
    if not isinstance(name, str) or not TOOL_NAME.match(name):
        raise ConfigurationError(
            f"{wrapper}: {what} is {name!r}, which the chat API refuses; tool names must match "
            "^[A-Za-z0-9_-]{1,64}$ (letters, digits, '_' and '-', at most 64). Fix: choose such a name"
        )
    return name


def _checked(name: object, tool: Tool) -> str:
    return _check_name("rename_tools", name, f"the new name for {tool.name!r}")


def _renamed(tool: Tool, name: str) -> Tool:
    return tool if name == tool.name else replace(tool, spec=replace(tool.spec, name=name))


def _with_metadata(tool: Tool, extra: Mapping[str, Any]) -> Tool:
    return replace(tool, spec=replace(tool.spec, metadata={**tool.spec.metadata, **extra}))
