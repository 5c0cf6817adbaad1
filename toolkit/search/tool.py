"""Tool search: the model first sees one tool that finds the others (LangChain4j's `ToolSearchStrategy`).

    tools = catalog_tools(load_catalog().tools)   # week 8's 329 tools (`toolkit.search.catalog`)
    search = ToolSearch(KeywordSearch())          # or VectorSearch()
    result = run_loop(model, messages, context=search.context(tools), memory=memory)

`ToolSearch` wraps the tools of one call (a `ToolContext`), it adds no flag to the loop:

1. every tool stays *available*, but all except those marked `metadata={"always_visible": True}`
   are *hidden*: the first request carries only `tool_search_tool` and the always-visible ones;
2. the model calls `tool_search_tool`; the strategy ranks the tools that are still hidden, and
   the result lists their names and descriptions and records the names in the result's
   `found_tools` attribute (stored with memory, never sent);
3. the loop reads `found_tools` after the round and reveals those tools for the rest of the
   call; at the start of a *new* call it reads them from memory, so tools found yesterday are
   visible at once, also from a `SqliteStore` after a restart.

A mistake in the search arguments (missing, empty, wrong type, not JSON, nested too deeply, too long,
text that is not valid Unicode) goes back to the model as an error result with an example,
whatever the loop's error policies say: searching again is always the right fix. The arguments are
read as every tool's are (`toolkit.tools.json_repair`: double-encoded, trailing commas, quotes). An empty
catalogue is no mistake: the search finds nothing. A context is for one call: build a new one
per call (`context(...)`); the prepared index is reused while the catalogue stays the same, and a
context searches with the strategy it was made with (its search tool is the one offered).

Leaves out: the strategies (`toolkit.search.keyword`, `toolkit.search.vector`); tools that a
dynamic provider adds later in the call are visible at once (only what exists is wrapped);
LangChain4j also lets a search return tools found earlier in the same call, here a search
looks only at what is still hidden.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Container, Sequence, Sized
from dataclasses import dataclass
from typing import Any

from toolkit.chat.messages import ToolCall
from toolkit.errors import ConfigurationError, SearchArgumentError
from toolkit.loop.run import FOUND_TOOLS
from toolkit.loop.sources import ALWAYS_VISIBLE, ProviderRequest, ToolContext, ToolProvider, ToolRegistry, build_context
from toolkit.search.keyword import KeywordSearch, Match, RetryError, catalogue, catalogue_misfit
from toolkit.search.strategy import SearchStrategy, call_misfit, found_matches
from toolkit.tools.decorator import InvocationContext
from toolkit.tools.execute import Tool, ToolOutput
from toolkit.tools.reflect import ToolSpec

FOUND_HEADER = "Tools found (you can call them now):"
NOT_FOUND_TEXT = "No matching tools found. Search again with other words."
KEPT_OUTCOMES = 1000


def is_always_visible(tool: Tool) -> bool:
    return bool(tool.spec.metadata.get(ALWAYS_VISIBLE))


@dataclass(frozen=True)
class SearchOutcome:
    """One search: what was asked, what was searched, what was found (the view shows it)."""

    strategy: str
    arguments: str
    """The raw arguments the model sent."""
    query: Any
    """The parsed terms or text; None when the arguments were unusable."""
    searched: int
    """How many tools were still hidden, i.e. could be found."""
    matches: tuple[Match, ...] = ()
    error: str | None = None
    """The text sent back when the arguments were unusable."""

    @property
    def found(self) -> list[str]:
        return [m.name for m in self.matches]

    def text(self) -> str:
        """What the model reads."""
        if self.error:
            return self.error
        if not self.matches:
            return NOT_FOUND_TEXT
        return "\n".join([FOUND_HEADER, *map(_entry, self.matches)])


def _entry(match: Match) -> str:
    """One found tool as the model reads it: `- name: description`, the description's further lines
    indented under it (a line of its own starting "- " would read as one more tool found: OpenAPI
    descriptions list their parameters so), trailing spaces dropped; a blank description, none."""
    first, *rest = (match.description or "").strip().splitlines() or [""]
    head = f"- {match.name}: {first.rstrip()}" if first else f"- {match.name}"
    return "\n".join([head, *(f"  {line.rstrip()}" if line.strip() else "" for line in rest)])


class ToolSearch:
    """Wraps a call's tools so that the model searches first (see the module docstring)."""

    def __init__(self, strategy: SearchStrategy | None = None) -> None:
        if strategy is not None and (isinstance(strategy, type) or not _can_search(strategy)):
            raise ConfigurationError(f"ToolSearch({_shown(strategy)}): {_not_a_strategy(strategy)}")
        for method, arguments in (("parse", 1), ("index", 1), ("search", 3)):  # as the wrapper calls them
            misfit = call_misfit(strategy, method, arguments) if strategy is not None else None
            if misfit:
                raise ConfigurationError(f"ToolSearch({_shown(strategy)}): {misfit}")
        self.strategy: SearchStrategy = strategy if strategy is not None else KeywordSearch()
        self.outcomes: deque[SearchOutcome] = deque(maxlen=KEPT_OUTCOMES)
        """The last searches run through this wrapper, oldest first (for views and tests)."""
        self._prepared: tuple[SearchStrategy, tuple[tuple[str, str], ...], Any, frozenset[str]] | None = None
        """(the strategy that built it, the names and descriptions, the index, the names)."""

    def __repr__(self) -> str:
        return f"ToolSearch({self.strategy!r})"

    def context(
        self,
        tools: Sequence[Any] = (),
        providers: Sequence[ToolProvider] = (),
        registry: ToolRegistry | None = None,
        request: ProviderRequest = ProviderRequest(()),
    ) -> ToolContext:
        """`build_context(...)` for one call, wrapped."""
        return self.wrap(build_context(tools, providers, registry, request))

    def wrap(self, context: ToolContext) -> ToolContext:
        """Hide every tool but the always-visible ones and add the search tool (in place)."""
        searchable = [t.spec for t in context.available.values() if not is_always_visible(t)]
        strategy, index = self.strategy, self.index(searchable)
        context.hidden.update(spec.name for spec in searchable)

        def run(call: ToolCall, invocation: InvocationContext) -> ToolOutput:
            # the strategy the context was made with (its tool is the one offered), even if `self.strategy` is replaced
            return _output(self._search(strategy, call.arguments, index, context.hidden, call.name))

        context.add([Tool(strategy.spec, run, f"tool search ({type(strategy).__name__})")])
        return context

    def index(self, specs: Sequence[ToolSpec]) -> Any:
        """The strategy's index of `specs`, reused while the strategy (`self.strategy` may be
        replaced) and the names and descriptions stay the same."""
        return built_index(self, specs, "ToolSearch.index")

    def _size(self, index: Any) -> int:
        """How many tools `index` holds: its own `len`, else what it was built from here (a learner's
        strategy may return any index object), else 0."""
        if isinstance(index, Sized):
            return len(index)
        prepared = self._prepared
        return len(prepared[1]) if prepared is not None and prepared[2] is index else 0

    def _known(self, index: Any, allowed: Collection[str] | None) -> Container[str] | None:
        """The names a search of `index` may return: those of the catalogue it was built from here (a
        strategy may return a tool found before), and `allowed`; None when neither is known."""
        prepared = self._prepared
        built = prepared[3] if prepared is not None and prepared[2] is index else None
        if built is None or allowed is None:
            return built if built is not None else allowed
        return _Either(built, allowed)

    def search(
        self, arguments: str, index: Any, allowed: Collection[str] | None = None, called: str | None = None
    ) -> SearchOutcome:
        """Run one search from the model's raw arguments; also usable without a loop. `called`:
        the name the model called the search tool by (a wrapper may have renamed it), which an
        argument mistake's text then names."""
        return self._search(self.strategy, arguments, index, allowed, called)

    def _search(
        self, strategy: SearchStrategy, arguments: str, index: Any, allowed: Collection[str] | None, called: str | None
    ) -> SearchOutcome:
        """`search` with `strategy` (a context's own: the one it was made with)."""
        if type(arguments) is not str and arguments is not None:  # the model always sends a str
            raise ConfigurationError(_not_arguments(arguments, strategy))
        arguments = arguments or ""  # None (`"arguments": null`) is no arguments; outcomes and views keep a str
        label, searched = type(strategy).__name__, len(allowed) if allowed is not None else self._size(index)
        try:
            query = strategy.parse(arguments)
        except SearchArgumentError as problem:
            text = problem.addressed(called) if called and isinstance(problem, RetryError) else str(problem)
            outcome = SearchOutcome(label, arguments, None, searched, error=text)
        else:
            found = strategy.search(index, query, allowed)
            matches = found_matches(found, strategy, self._known(index, allowed), "ToolSearch.search")
            outcome = SearchOutcome(label, arguments, query, searched, matches)
        self.outcomes.append(outcome)
        return outcome


def built_index(search: ToolSearch, specs: Sequence[ToolSpec], where: str) -> Any:
    """`search.index(specs)`, its errors naming `where`: the function the learner called (`SearchBox(specs)`
    builds two indexes of one catalogue, and said 'ToolSearch.index: …')."""
    specs = catalogue(specs, where)  # a generator read here would leave the strategy nothing
    try:
        key = tuple((s.name, s.description) for s in specs)
    except AttributeError:
        raise catalogue_misfit(specs, where) or ConfigurationError(
            f"{where}: a tool spec has no name or description; pass ToolSpec objects"
        ) from None
    prepared = search._prepared
    if prepared is None or prepared[0] is not search.strategy or prepared[1] != key:
        names = frozenset(name for name, _ in key)
        if len(names) < len(key):
            raise _named_twice([name for name, _ in key], where)
        prepared = search._prepared = (search.strategy, key, search.strategy.index(specs), names)
    return prepared[2]


@dataclass(frozen=True)
class _Either:
    """Names in either of two collections (no union built for the few names a search returns)."""

    first: Container[str]
    second: Container[str]

    def __contains__(self, name: object) -> bool:
        return name in self.first or name in self.second


def _named_twice(names: list[str], where: str) -> ConfigurationError:
    """The error for a catalogue naming a tool twice (the name repeated first, and its places): a search
    would tell the model it found two tools of one name, which it can call as only one."""
    seen: set[str] = set()
    for twice in names:
        if twice in seen:
            break
        seen.add(twice)
    places = [place for place, name in enumerate(names) if name == twice]
    return ConfigurationError(
        f"{where}: the tool name {twice!r:.60} is given {len(places)} times (items "
        f"{', '.join(map(str, places[:5]))}{', …' if len(places) > 5 else ''}); a model calls a tool by its name, "
        f"so each must be unique: rename or namespace them, e.g. {'server_' + twice!r:.60}"
    )


def _can_search(strategy: Any) -> bool:
    """Whether `strategy` has what the wrapper uses (`SearchStrategy` lists `takes` and `example`
    too, which a learner's strategy may leave out: only the catalogue evaluation reads them)."""
    return hasattr(strategy, "spec") and all(callable(getattr(strategy, m, None)) for m in ("parse", "index", "search"))


def _shown(value: Any) -> str:
    """A value as an error message names it: short, never a memory address."""
    if isinstance(value, type):
        return value.__name__
    shown = repr(value)
    if type(value).__module__ != "builtins" or len(shown) > 40 or " at 0x" in shown:
        return f"{type(value).__name__} object"
    return shown


def _not_a_strategy(strategy: Any) -> str:
    """Why `strategy` cannot search, and the fix (a class given for its instance, most often)."""
    if isinstance(strategy, type) and callable(getattr(strategy, "search", None)):
        return f"that is the class; pass an instance: ToolSearch({strategy.__name__}())"
    return (
        "that is not a search strategy (it needs spec, parse, index and search); "
        "pass KeywordSearch(), VectorSearch() or an object with those members"
    )


def _not_arguments(arguments: Any, strategy: SearchStrategy) -> str:
    kind = type(arguments).__name__
    example = getattr(strategy, "example", None)
    fix = f"json.dumps({_shown(arguments)})" if isinstance(arguments, dict) else f"e.g. {example!r}"
    return f"ToolSearch.search: arguments are the model's raw JSON text, and got {kind}; pass a str, {fix}"


def _output(outcome: SearchOutcome) -> ToolOutput:
    """A failed search goes back as an error the model can fix; a good one names what it found."""
    if outcome.error:
        return ToolOutput(outcome.text(), is_error=True)
    return ToolOutput(outcome.text(), {FOUND_TOOLS: outcome.found})
