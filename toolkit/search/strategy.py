"""What a tool-search strategy is: the protocol `KeywordSearch` and `VectorSearch` both meet.

`ToolSearch` (the wrapper the loop sees) and the catalogue evaluation talk to a strategy only
through these members, so a learner's own strategy (BM25, a reranker, …) plugs in unchanged:
the search tool's `spec` and an `example` call, `parse` for the model's raw arguments, `index`
built once per tool set, and `search` over that index. `takes` says whether a query is a list
of terms or a text.

What a strategy's `search` returns is checked where it is used (`found_matches`): a list of `Match`
of the tools it searched; names, None or a tool it never saw are a `ConfigurationError` naming the rule.

Leaves out: how a strategy scores (each strategy's own module).
"""

from __future__ import annotations

import inspect
from collections.abc import Collection, Container, Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from toolkit.errors import ConfigurationError, a_kind_of
from toolkit.search.keyword import Match
from toolkit.tools.reflect import ToolSpec


@runtime_checkable
class SearchStrategy(Protocol):
    """How the search tool finds tools (see the module docstring)."""

    @property
    def takes(self) -> str:
        """`"terms"` (a list of words) or `"text"` (one natural-language query)."""
        ...

    @property
    def spec(self) -> ToolSpec:
        """The search tool as the model sees it."""
        ...

    @property
    def example(self) -> str:
        """A valid arguments string, shown to the model when its own arguments are unusable."""
        ...

    def parse(self, raw: str, /) -> Any:
        """The model's raw arguments → a query; a `SearchArgumentError` when unusable."""
        ...

    def index(self, specs: Sequence[ToolSpec], /) -> Any:
        """Whatever this strategy needs to search `specs` quickly; built once per tool set."""
        ...

    def search(self, index: Any, query: Any, allowed: Collection[str] | None = None, /) -> list[Match]:
        """The best matches among `allowed` names (all, when None), best first."""
        ...


MATCHES_RULE = "a strategy's search returns a list of Match(name, description, score), best first"


def found_matches(found: object, strategy: object, known: Container[str] | None, where: str) -> tuple[Match, ...]:
    """What `strategy.search` returned, as matches, or a `ConfigurationError` naming the rule: a learner's
    strategy returning names or None failed with a raw AttributeError / TypeError, and one returning a
    tool it never saw told the model it could call a tool that does not exist. `known`: the names it
    may return (None: not known, not checked)."""
    label = f"{type(strategy).__name__}.search"
    if isinstance(found, (str, bytes, Mapping)) or not isinstance(found, Iterable):
        raise ConfigurationError(f"{where}: {label} returned {a_kind_of(found)}; {MATCHES_RULE}")
    matches = tuple(found)
    for place, match in enumerate(matches):
        if not isinstance(match, Match):
            raise ConfigurationError(
                f"{where}: {label} returned {a_kind_of(match)} as item {place}, not a Match; {MATCHES_RULE}"
            )
        if known is not None and match.name not in known:
            raise ConfigurationError(
                f"{where}: {label} returned {match.name!r:.60}, which is not a tool it searched; return matches of "
                "the tools in its index (among allowed)"
            )
    return matches


_CALLED = {
    ("parse", 1): ("parse(raw)", "def parse(self, raw)"),
    ("index", 1): ("index(specs)", "def index(self, specs)"),
    ("search", 2): ("search(index, query)", None),
    ("search", 3): ("search(index, query, allowed)", None),
}
_SEARCH_WRITTEN = "def search(self, index, query, allowed=None): allowed is the names it may return, None for all"


def call_misfit(strategy: object, method: str, arguments: int) -> str | None:
    """Why `strategy.method` cannot be called with `arguments` positional arguments, as the wrapper
    (`parse(raw)`, `index(specs)`, `search(index, query, allowed)`) or `evaluate` (`search(index, query)`)
    calls it, and how to write it; None when it can (or its signature cannot be read). Checked when the
    strategy is given: a search without `allowed` failed on every search, its TypeError sent to the model."""
    try:
        signature = inspect.signature(getattr(strategy, method))
    except (TypeError, ValueError):  # a builtin or a C callable: called as it is
        return None
    try:
        signature.bind(*[None] * arguments)
    except TypeError as exc:
        called, written = _CALLED[method, arguments]
        return (
            f"{type(strategy).__name__}.{method} cannot be called as {called} ({exc}); "
            f"write it as {written or _SEARCH_WRITTEN}"
        )
    return None
