"""Vector tool search: embed "name: description" per tool once, embed each query, rank by cosine.

    cache = ToolEmbeddingCache(StaticEmbeddings())
    index = VectorIndex.build(specs, cache)
    index.search(cache.query("where is my parcel"), max_results=5)

As in LangChain4j's `VectorToolSearchStrategy`, a tool's text is `name: description` (just the
name without a description), and the model's argument is a natural-language `query`. Unlike
it, the tool vectors are kept in one NumPy matrix with unit rows, so a search is a single
matrix-vector product: cosine similarity of every tool at once (each row's products added in the
same order, wherever it is: a tool scores the same in any catalogue order), then the top `max_results`.
Building an index twice for the same tools costs no embedding: the cache answers by text.
An empty catalogue finds nothing; a query that is not valid Unicode text (a lone surrogate,
which a JSON `\\udcff` escape can carry) is an argument mistake, like a blank one.

`VectorSearch` is the strategy the search wrapper uses (spec, arguments, settings); its model
defaults to the course's distilled static model (`toolkit.search.embeddings`).

Leaves out: approximate nearest-neighbour indexes (at 10,000 tools the exact product takes tens
of microseconds), hybrid keyword + vector scoring.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

from toolkit.errors import ConfigurationError
from toolkit.search.embeddings import (
    EmbeddingModel,
    ToolEmbeddingCache,
    check_cache,
    check_model,
    default_embeddings,
)
from toolkit.search.keyword import (
    SEARCH_TOOL_NAME,
    Match,
    argument_object,
    argument_problem,
    catalogue,
    catalogue_misfit,
    check_allowed,
    check_index,
    check_max_results,
    check_min_score,
    check_search_tool,
)
from toolkit.tools.reflect import ToolSpec
from toolkit.unicode import is_utf8


def tool_text(spec: ToolSpec) -> str:
    """What is embedded for a tool (LangChain4j's `format`); a missing description (None, as the
    keyword index also takes) is no description."""
    description = spec.description or ""
    return f"{spec.name}: {description}" if description.strip() else spec.name


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Each row scaled to length 1 (a zero row stays zero), so a dot product is a cosine."""
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix, dtype=np.float32), where=norms > 0)


@dataclass(frozen=True)
class VectorIndex:
    """Tool specs and their unit vectors, row i belonging to spec i."""

    specs: tuple[ToolSpec, ...]
    matrix: np.ndarray

    @classmethod
    def build(cls, specs: Sequence[ToolSpec], cache: ToolEmbeddingCache) -> VectorIndex:
        specs = tuple(catalogue(specs, "VectorIndex.build"))
        check_cache(cache, "VectorIndex.build")
        try:
            texts = [tool_text(s) for s in specs]
        except (AttributeError, TypeError):
            raise catalogue_misfit(specs, "VectorIndex.build") or ConfigurationError(
                "VectorIndex.build: a tool spec's name or description is not a str; give each ToolSpec a str name "
                "and a str description (or None)"
            ) from None
        vectors = cache.tools(texts) if specs else np.zeros((0, 1), np.float32)
        return cls(specs, unit_rows(vectors.astype(np.float32)))

    def __len__(self) -> int:
        return len(self.specs)

    def similarities(self, query_vector: np.ndarray) -> np.ndarray:
        """Cosine similarity of every tool to the query, in catalogue order (none for no tools)."""
        return self._similarities(query_vector, "VectorIndex.similarities")

    def _similarities(self, query_vector: np.ndarray, where: str) -> np.ndarray:
        query = _vector(query_vector, where)
        if not self.specs:  # the empty matrix has no width to match the query's
            return np.zeros(0, dtype=np.float32)
        if query.shape != self.matrix.shape[1:]:
            raise ConfigurationError(
                f"{where}: the query's vector has shape {query.shape}, the tools' vectors {self.matrix.shape[1:]}: "
                "embed the query with the model that embedded the tools (build the index again after changing it)"
            )
        # each row's sum of products computed alike: a matrix product (BLAS) adds up the rows past its
        # kernel's block in another order, so a tool scored by its place (ties out of catalogue order)
        return np.einsum("ij,j->i", self.matrix, unit_rows(query))

    def search(
        self,
        query_vector: np.ndarray,
        max_results: int = 5,
        min_score: float | None = None,
        allowed: Collection[str] | None = None,
    ) -> list[Match]:
        """The most similar tools, best first (ties: catalogue order); `allowed` limits the pool.
        A zero query vector (no word of the query is known to the embedding model) points nowhere:
        it is similar to no tool, so nothing is found, rather than the catalogue's first tools at 0."""
        where = "VectorIndex.search"
        max_results = check_max_results(max_results, where)
        if min_score is not None:  # a str failed inside NumPy, NaN kept no tool
            min_score = check_min_score(min_score, where)
        allowed = check_allowed(allowed, where)
        sims = self._similarities(query_vector, where)
        if not np.any(query_vector):
            sims = np.full_like(sims, -np.inf)
        if min_score is not None:
            # as a float64: a float32's cast of 1e300 or -10**300 warned of an overflow (NumPy's weak Python float)
            sims = np.where(sims >= np.float64(min_score), sims, -np.inf)
        best: list[Match] = []
        k = max_results
        while max_results and len(self.specs):
            best = [m for m in self._top(sims, k) if allowed is None or m.name in allowed][:max_results]
            if len(best) == max_results or k >= len(self.specs):  # enough, or every tool was looked at
                return best
            k *= 4  # some of the top ones were not allowed: look further down
        return best

    def _top(self, sims: np.ndarray, k: int) -> list[Match]:
        """The k best, exactly: everything at least as good as the k-th, sorted (score, position)."""
        k = min(k, len(sims))
        kth = -np.partition(-sims, k - 1)[k - 1]
        candidates = np.flatnonzero(sims >= kth)
        order = candidates[np.lexsort((candidates, -sims[candidates]))][:k]
        return [
            Match(self.specs[i].name, self.specs[i].description, float(sims[i]))
            for i in order.tolist()
            if sims[i] > -np.inf
        ]


def _vector(query_vector: object, where: str) -> np.ndarray:
    """The query's vector as float32 numbers, or a `ConfigurationError` when it is no vector (its
    text, given for its vector, failed inside NumPy; None passed as NaN) or holds NaN or infinity."""
    try:
        if query_vector is None or isinstance(query_vector, (str, bytes)):
            raise TypeError
        vector = np.asarray(query_vector, dtype=np.float32)
    except (TypeError, ValueError):
        raise ConfigurationError(
            f"{where}: takes the query's vector, and got {type(query_vector).__name__}; embed the query first: "
            "index.search(cache.query(text)), or search with VectorSearch().search(index, text)"
        ) from None
    if not np.isfinite(vector).all():  # NaN scored every tool 0.0 (found, as if it matched); infinity, NaN
        raise ConfigurationError(
            f"{where}: the query's vector holds NaN or infinite numbers; embed the query with a model that "
            "returns finite numbers (cache.query(text) checks them)"
        )
    return vector


def _check_model_and_cache(model: object, cache: object) -> None:
    """`VectorSearch`'s model and cache, each what it must be, and not of two models: the cache's model
    searches, so another model given with it was silently unused."""
    if model is not None:
        fix = "pass one, e.g. VectorSearch(model=StaticEmbeddings()), or leave it out for the course's model"
        check_model(model, "VectorSearch", fix)
    if cache is None:
        return
    check_cache(cache, "VectorSearch(cache=...)")
    if model is not None and getattr(cache, "model", model) is not model:
        raise ConfigurationError(
            "VectorSearch(model=..., cache=...): the cache embeds with another model than the one given, "
            "which would never be used; pass one of them: VectorSearch(cache=ToolEmbeddingCache(model))"
        )


@dataclass(frozen=True)
class VectorSearch:
    """Search by meaning (LangChain4j's `VectorToolSearchStrategy`, same defaults and texts)."""

    model: EmbeddingModel | None = None
    """None: the course's static model, loaded on first use."""
    max_results: int = 5
    min_score: float | None = None
    """Lowest cosine similarity kept; None keeps everything (LangChain4j: 0.0 on a 0..1 scale)."""
    name: str = SEARCH_TOOL_NAME
    description: str = "Finds available tools using semantic vector search"
    argument: str = "query"
    argument_description: str = "Natural language query describing desired tool"
    cache: ToolEmbeddingCache = field(default=None, compare=False)  # type: ignore[assignment]
    takes = "text"  # a class attribute (a dataclass field needs an annotation); no ClassVar: pyright then
    # refused it for `SearchStrategy.takes`, a read-only property

    def __post_init__(self) -> None:
        object.__setattr__(self, "max_results", check_max_results(self.max_results, "VectorSearch"))
        if self.min_score is not None:
            object.__setattr__(self, "min_score", check_min_score(self.min_score, "VectorSearch"))
        check_search_tool(self, "VectorSearch")
        _check_model_and_cache(self.model, self.cache)
        if self.cache is None:
            object.__setattr__(self, "cache", ToolEmbeddingCache(self.model or default_embeddings()))

    @property
    def example(self) -> str:
        """What the model sends to the search tool, as an example: a JSON object with a query sentence."""
        return json.dumps({self.argument: "refund a card payment"})

    @property
    def spec(self) -> ToolSpec:
        """The search tool offered to the model: its name, description and its one text parameter."""
        query = {"type": "string", "description": self.argument_description}
        return ToolSpec(
            self.name,
            self.description,
            {"type": "object", "properties": {self.argument: query}, "required": [self.argument]},
        )

    def parse(self, raw: str) -> str:
        """The query from the model's raw arguments; mistakes raise `SearchArgumentError`."""
        value = argument_object(raw, self.name, self.example).get(self.argument)
        if value is None:
            raise argument_problem(f"Missing required tool argument '{self.argument}'", self.name, self.example)
        if not isinstance(value, str):
            raise argument_problem(f"Tool argument '{self.argument}' must be a string", self.name, self.example)
        if not value.strip():
            raise argument_problem(f"Tool argument '{self.argument}' must not be blank", self.name, self.example)
        if not is_utf8(value):
            problem = f"Tool argument '{self.argument}' must be valid Unicode text (it holds a lone surrogate)"
            raise argument_problem(problem, self.name, self.example)
        return value

    def index(self, specs: Sequence[ToolSpec]) -> VectorIndex:
        """The catalogue `specs` and their embeddings (taken from `cache` when already computed)."""
        return VectorIndex.build(specs, self.cache)

    def search(self, index: VectorIndex, query: str, allowed: Collection[str] | None = None) -> list[Match]:
        """The tools closest in meaning to `query`: at most `max_results`, each at least `min_score` similar; `allowed` limits the pool by name."""
        check_index(index, VectorIndex, self)
        if type(query) is not str:  # the embedding model would fail deep inside on anything else
            kind = type(query).__name__
            fix = f"' '.join({query!r:.60})" if isinstance(query, list | tuple) else "e.g. 'refund a card payment'"
            raise ConfigurationError(
                f"VectorSearch.search: the query is one text, and got {kind}; pass a str, {fix} "
                "(a list of terms is what KeywordSearch takes)"
            )
        return index.search(self.cache.query(query), self.max_results, self.min_score, allowed)
