"""Search sizes and settings a stranger tries: a catalogue of one or two tools, more results asked
than there are tools, k of 0, and settings that are refused when the strategy is made (not when the
model first searches, deep inside a call)."""

import json

import numpy as np
import pytest

from toolkit.errors import ConfigurationError
from toolkit.search.embeddings import ToolEmbeddingCache
from toolkit.search.keyword import KeywordIndex, KeywordSearch, naive_search
from toolkit.search.tool import ToolSearch
from toolkit.search.vector import VectorIndex, VectorSearch, unit_rows
from toolkit.tools.reflect import ToolSpec


class Letters:
    """A transparent embedding model: counts of the letters a to z."""

    name = "letters"

    def embed(self, texts):
        return np.array([[t.lower().count(c) for c in "abcdefghijklmnopqrstuvwxyz"] for t in texts], dtype=np.float32)


def brute_force(vectors, query, k, allowed=None):
    """Every tool's cosine, best first, ties in catalogue order, then the pool and the cut."""
    cosine = unit_rows(vectors) @ unit_rows(query)
    order = np.argsort(-cosine, kind="stable").tolist()
    return [i for i in order if allowed is None or f"t{i}" in allowed][:k]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 9])
@pytest.mark.parametrize("k", [1, 2, 5, 6, 20, 100])
def test_vector_search_returns_min_k_and_size_tools_whatever_the_sizes(size, k):
    rng = np.random.default_rng(size * 100 + k)
    vectors = rng.normal(size=(size, 8)).astype(np.float32)
    index = VectorIndex(tuple(ToolSpec(f"t{i}", "") for i in range(size)), unit_rows(vectors))
    for _ in range(5):
        query = rng.normal(size=8).astype(np.float32)
        found = [int(m.name[1:]) for m in index.search(query, k)]
        assert found == brute_force(vectors, query, k)
        pool = {f"t{i}" for i in rng.choice(size, size=max(1, size // 2), replace=False).tolist()}
        found = [int(m.name[1:]) for m in index.search(query, k, allowed=pool)]
        assert found == brute_force(vectors, query, k, pool)


def test_a_one_tool_catalogue_is_found_by_both_strategies_through_the_wrapper():
    specs = [ToolSpec("track_parcel", "Track a parcel")]
    vector = ToolSearch(VectorSearch(model=Letters()))
    outcome = vector.search(json.dumps({"query": "track my parcel"}), vector.index(specs))
    assert outcome.found == ["track_parcel"]
    keyword = ToolSearch(KeywordSearch(max_results=50))
    outcome = keyword.search(json.dumps({"terms": ["parcel"]}), keyword.index(specs))
    assert outcome.found == ["track_parcel"]
    # k of 0 finds nothing in both
    specs = [ToolSpec("a", "x"), ToolSpec("b", "x")]
    vector = VectorSearch(model=Letters(), max_results=0)
    assert vector.search(vector.index(specs), "x") == []
    assert KeywordIndex(specs).search(["x"], 0) == naive_search(["x"], specs, 0) == []


@pytest.mark.parametrize("strategy", [KeywordSearch, VectorSearch])
@pytest.mark.parametrize("max_results", [-1, 2.5, None, "5"])
def test_a_bad_max_results_is_refused_when_the_strategy_is_made(strategy, max_results):
    with pytest.raises(ConfigurationError) as info:
        strategy(max_results=max_results, **({"model": Letters()} if strategy is VectorSearch else {}))
    assert str(info.value) == f"{strategy.__name__}: max_results={max_results!r}; use a whole number, 0 or more"


@pytest.mark.parametrize("strategy", [KeywordSearch, VectorSearch])
@pytest.mark.parametrize("min_score", [float("nan"), float("inf"), "1", True])
def test_a_bad_min_score_is_refused_when_the_strategy_is_made(strategy, min_score):
    with pytest.raises(ConfigurationError) as info:
        strategy(min_score=min_score, **({"model": Letters()} if strategy is VectorSearch else {}))
    assert str(info.value) == f"{strategy.__name__}: min_score={min_score!r}; use a finite number"


def test_the_vector_index_refuses_a_bad_max_results_like_the_keyword_index():
    index = VectorIndex.build([ToolSpec("a", "x")], ToolEmbeddingCache(Letters()))
    with pytest.raises(
        ConfigurationError, match=r"^VectorIndex.search: max_results=-1; use a whole number, 0 or more$"
    ):
        index.search(np.ones(26, dtype=np.float32), -1)
    # good settings are kept
    assert KeywordSearch(max_results=0, min_score=0).max_results == 0
    assert VectorSearch(model=Letters(), max_results=3, min_score=-0.5).min_score == -0.5
    assert VectorSearch(model=Letters(), min_score=0).min_score == 0


def test_a_replaced_strategy_builds_its_own_index():
    specs = [ToolSpec("track_parcel", "Track a parcel"), ToolSpec("refund", "Refund money")]
    search = ToolSearch(KeywordSearch())
    keyword_index = search.index(specs)
    assert search.index(specs) is keyword_index  # reused while nothing changed
    search.strategy = VectorSearch(model=Letters())
    vector_index = search.index(specs)
    assert isinstance(vector_index, VectorIndex)
    assert search.search(json.dumps({"query": "track parcel"}), vector_index).found[0] == "track_parcel"


def test_a_learner_s_strategy_whose_index_has_no_length_searches():
    from toolkit.search.keyword import SEARCH_TOOL_NAME, Match
    from toolkit.search.strategy import SearchStrategy

    class Shelf:  # an index object without __len__: the protocol asks for none
        def __init__(self, specs):
            self.specs = list(specs)

    class Contains:
        takes = "text"
        spec = ToolSpec(SEARCH_TOOL_NAME, "find", {"type": "object", "properties": {"q": {"type": "string"}}})
        example = '{"q": "refund"}'

        def parse(self, raw):
            return json.loads(raw)["q"]

        def index(self, specs):
            return Shelf(specs)

        def search(self, index, query, allowed=None):
            return [Match(s.name, s.description, 1.0) for s in index.specs if query in s.description]

    assert isinstance(Contains(), SearchStrategy)
    search = ToolSearch(Contains())
    shelf = search.index([ToolSpec("refund", "refund money"), ToolSpec("track", "track a parcel")])
    outcome = search.search('{"q": "refund"}', shelf)
    assert outcome.found == ["refund"] and outcome.searched == 2


@pytest.mark.parametrize("whole", [np.int64, np.int32, np.uint8])
def test_numpy_whole_numbers_are_settings_as_ints_are(whole):
    """A size from `np.arange` or a results table (what `evaluate` takes as a size) was refused as
    "use a whole number" (max_results) or "use a finite number" (min_score); it is kept as an int."""
    specs = [ToolSpec(f"t{i}", "parcel" * (i % 3)) for i in range(9)]
    strategy = KeywordSearch(max_results=whole(2), min_score=whole(1))
    assert strategy == KeywordSearch(max_results=2, min_score=1)
    assert type(strategy.max_results) is int and type(strategy.min_score) is int
    expected = naive_search(["parcel", "t"], specs, 2, 1)
    assert KeywordIndex(specs).search(["parcel", "t"], whole(2), whole(1)) == expected
    assert strategy.search(strategy.index(specs), ["parcel", "t"]) == expected
    assert naive_search(["parcel", "t"], specs, whole(2), whole(1)) == expected
    vector = VectorSearch(model=Letters(), max_results=whole(3), min_score=np.float32(0.5))
    assert type(vector.max_results) is int and vector.min_score == 0.5 and type(vector.min_score) is float
    plain = VectorSearch(model=Letters(), max_results=3, min_score=0.5)
    assert vector.search(vector.index(specs), "parcel") == plain.search(plain.index(specs), "parcel") != []


def test_a_context_keeps_the_strategy_it_was_made_with_when_the_wrapper_s_is_replaced():
    """A context made, then the wrapper's strategy replaced: the model was offered the keyword search tool
    (terms), and its call was parsed by the new vector strategy ("Missing required tool argument 'query'")
    against the keyword index. A context is one call's: it searches as it was made to."""
    from toolkit.chat.messages import ToolResultMessage, UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.loop.run import run_loop
    from toolkit.search.catalog import catalog_tools

    search = ToolSearch(KeywordSearch())
    context = search.context(catalog_tools([ToolSpec("track_parcel", "Track a parcel"), ToolSpec("refund", "")]))
    search.strategy = VectorSearch(model=Letters())
    model = ScriptedModel([call("tool_search_tool", terms=["parcel"]), "done"])
    result = run_loop(model, [UserMessage(content="where is it")], context=context)
    (found,) = [m for m in result.new_messages if isinstance(m, ToolResultMessage)]
    assert not found.is_error and found.attributes["found_tools"] == ["track_parcel"], found.content
    assert search.outcomes[-1].strategy == "KeywordSearch"


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("huge", [10**400, -(10**400), 1e300, -1e300], ids=["above", "below", "1e300", "-1e300"])
def test_a_min_score_beyond_a_float_s_range_keeps_nothing_or_all_with_no_error(huge):
    """A whole number too large for a float is finite, and Python compares it with any score: naive_search,
    KeywordSearch and VectorSearch failed on it with a raw "OverflowError: int too large to convert to
    float" (math.isfinite), where KeywordIndex.search took it. Above every score, nothing is kept; below
    every score, every tool is. Nor does a float beyond float32's range warn of an overflow (the similarities'
    type): it is compared as it is."""
    specs = [ToolSpec("track_parcel", "Track a parcel"), ToolSpec("refund", "Refund money")]
    keyword, vector = KeywordSearch(max_results=5, min_score=huge), VectorSearch(model=Letters(), min_score=huge)
    expected = KeywordIndex(specs).search(["parcel"], 5, huge)
    assert expected == ([] if huge > 0 else naive_search(["parcel"], specs, 5, 0))
    assert naive_search(["parcel"], specs, 5, huge) == expected
    assert keyword.search(keyword.index(specs), ["parcel"]) == expected
    found = [m.name for m in vector.search(vector.index(specs), "parcel")]
    assert found == ([] if huge > 0 else ["track_parcel", "refund"])
    index = VectorIndex.build(specs, ToolEmbeddingCache(Letters()))
    assert len(index.search(np.ones(26, dtype=np.float32), 5, huge)) == (0 if huge > 0 else 2)
