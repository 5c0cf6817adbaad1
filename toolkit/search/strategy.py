"""What a tool-search strategy is: the protocol `KeywordSearch` and `VectorSearch` both meet.

`ToolSearch` (the wrapper the loop sees) and the catalogue evaluation talk to a strategy only
through these members, so a learner's own strategy (BM25, a reranker, …) plugs in unchanged:
the search tool's `spec` and an `example` call, `parse` for the model's raw arguments, `index`
built once per tool set, and `search` over that index. `takes` says whether a query is a list
of terms or a text.

Leaves out: how a strategy scores (each strategy's own module).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol, runtime_checkable

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
