"""Vector search: cosine top-N over a matrix, tool vectors cached by text, queries never cached."""

import numpy as np
import pytest

from toolkit.errors import SearchArgumentError
from toolkit.search.embeddings import ToolEmbeddingCache
from toolkit.search.tool import ToolSearch
from toolkit.search.vector import VectorIndex, VectorSearch, tool_text, unit_rows
from toolkit.tools.reflect import ToolSpec

WORDS = ["parcel", "shipment", "track", "refund", "payment", "money", "weather", "rain", "order", "cancel"]


class BagOfWords:
    """A transparent embedding model: counts of a fixed word list; records every call."""

    name = "bag-of-words"

    def __init__(self):
        self.calls = []

    def embed(self, texts):
        self.calls.append(list(texts))
        return np.array([[t.lower().count(w) for w in WORDS] for t in texts], dtype=np.float32)


SPECS = [
    ToolSpec("track_shipment", "Track a parcel"),
    ToolSpec("refund_payment", "Give the money back"),
    ToolSpec("get_weather", "Weather and rain"),
    ToolSpec("cancel_order", "Cancel an order"),
    ToolSpec("no_words", ""),
]


def test_tool_text_is_name_colon_description():
    assert tool_text(SPECS[0]) == "track_shipment: Track a parcel"
    assert tool_text(SPECS[4]) == "no_words"


def test_ranking_is_cosine_against_a_brute_force_reference():
    rng = np.random.default_rng(1)
    specs = [ToolSpec(f"t{i}", f"tool {i}") for i in range(300)]
    vectors = rng.normal(size=(300, 16)).astype(np.float32)
    index = VectorIndex(tuple(specs), unit_rows(vectors))
    for _ in range(20):
        q = rng.normal(size=16).astype(np.float32)
        cosine = vectors @ q / np.linalg.norm(vectors, axis=1) / np.linalg.norm(q)
        expected = [f"t{i}" for i in np.argsort(-cosine, kind="stable")[:7]]
        found = index.search(q, max_results=7)
        assert [m.name for m in found] == expected
        assert [m.score for m in found] == pytest.approx(sorted(cosine, reverse=True)[:7], abs=1e-5)


def test_ties_in_catalogue_order_allowed_and_min_score():
    specs = tuple(ToolSpec(f"t{i}") for i in range(6))
    matrix = unit_rows(np.array([[1, 0], [0, 1], [1, 0], [1, 1], [1, 0], [-1, 0]], dtype=np.float32))
    index = VectorIndex(specs, matrix)
    query = np.array([1, 0], dtype=np.float32)
    assert [m.name for m in index.search(query, 3)] == ["t0", "t2", "t4"]
    assert [m.name for m in index.search(query, 3, allowed={"t4", "t5", "t1"})] == ["t4", "t1", "t5"]
    assert [m.name for m in index.search(query, 9, min_score=0.5)] == ["t0", "t2", "t4", "t3"]
    assert index.search(query, 3, allowed=set()) == []


def test_tool_vectors_cached_by_text_query_never_cached():
    model = BagOfWords()
    strategy = VectorSearch(model)
    strategy.index(SPECS)
    strategy.index(SPECS[:3] + [ToolSpec("cancel_order", "Cancel an order, fast")])
    assert model.calls == [[tool_text(s) for s in SPECS], ["cancel_order: Cancel an order, fast"]]
    index = strategy.index(SPECS)
    for _ in range(2):
        assert strategy.search(index, "where is my parcel?")[0].name == "track_shipment"
    assert model.calls[2:] == [["where is my parcel?"], ["where is my parcel?"]]
    assert len(strategy.cache) == 6 and "where is my parcel?" not in strategy.cache._vectors


def test_the_cache_embeds_each_new_text_once_per_batch():
    model = BagOfWords()
    cache = ToolEmbeddingCache(model)
    rows = cache.tools(["rain", "rain", "order"])
    assert model.calls == [["rain", "order"]] and rows.shape == (3, len(WORDS))
    cache.clear()
    assert len(cache) == 0


def test_a_clear_while_another_thread_embeds_loses_no_row_of_its_call():
    """`tools()` stored the new vectors, let go of the lock, then read every row back from the
    cache: a `clear()` by another thread in between (or while the model ran) made it a bare
    `KeyError`. Here the clear comes while the model embeds, as another thread's would."""
    model = BagOfWords()
    cache = ToolEmbeddingCache(model)
    cache.tools(["rain"])

    class ClearsWhileEmbedding:
        name = "clears"

        def embed(self, texts):
            cache.clear()  # another thread's clear, just now
            return model.embed(texts)

    cache.model = ClearsWhileEmbedding()
    rows = cache.tools(["rain", "order", "rain"])
    assert rows.tolist() == model.embed(["rain", "order", "rain"]).tolist()
    assert len(cache) == 1  # what this call embedded is kept; what the clear removed stays removed


def test_the_search_tool_spec_and_argument_texts_are_langchain4j_s():
    strategy = VectorSearch(BagOfWords())
    assert strategy.spec.description == "Finds available tools using semantic vector search"
    assert strategy.spec.parameters == {
        "type": "object",
        "required": ["query"],
        "properties": {"query": {"type": "string", "description": "Natural language query describing desired tool"}},
    }
    retry = ' Call tool_search_tool again with arguments like {"query": "refund a card payment"}.'
    for raw, problem in [
        ("{}", "Missing required tool argument 'query'."),
        ('{"query": ["a"]}', "Tool argument 'query' must be a string."),
        ('{"query": "  "}', "Tool argument 'query' must not be blank."),
        (
            '{"query": "refund \\udcff"}',
            "Tool argument 'query' must be valid Unicode text (it holds a lone surrogate).",
        ),
        ('{"query": ' + "[" * 100_000 + "]" * 100_000 + "}", "Tool search arguments are nested too deeply to read."),
    ]:
        with pytest.raises(SearchArgumentError) as info:
            strategy.parse(raw)
        assert str(info.value) == problem + retry


def test_vector_search_through_the_wrapper():
    search = ToolSearch(VectorSearch(BagOfWords(), max_results=2))
    index = search.index(SPECS)
    outcome = search.search('{"query": "I want my money back for that payment"}', index)
    assert outcome.found == ["refund_payment", "track_shipment"] and outcome.searched == 5
    assert outcome.matches[0].score == pytest.approx(2 / np.sqrt(2) / np.sqrt(3))


def test_an_empty_catalogue_finds_nothing():
    """Hostile-input audit #8: the empty matrix and the query vector did not fit (a numpy ValueError)."""
    search = ToolSearch(VectorSearch(BagOfWords()))
    outcome = search.search('{"query": "refund my payment"}', search.index([]))
    assert outcome.found == [] and outcome.error is None and outcome.searched == 0
    assert outcome.text() == "No matching tools found. Search again with other words."


def test_a_query_with_no_known_word_finds_nothing():
    """Learner QA (week 8's search box): a query in words the embedding model does not know (the
    default model knows few Chinese characters: "退款" embeds to zeros) has no direction, so every
    tool scored a cosine of 0 and the catalogue's first five were "found" for it."""
    search = ToolSearch(VectorSearch(BagOfWords()))
    index = search.index(SPECS)
    outcome = search.search('{"query": "退款 请帮我"}', index)
    assert outcome.found == [] and outcome.error is None and outcome.searched == 5
    assert outcome.text() == "No matching tools found. Search again with other words."
    assert VectorIndex(index.specs, index.matrix).search(np.zeros(len(WORDS), np.float32), 3) == []


def test_the_default_model_s_unknown_words_find_nothing_known_words_still_do():
    search = VectorSearch()
    index = search.index(SPECS)
    assert search.search(index, "退款") == search.search(index, "包裹") == []
    assert [m.name for m in search.search(index, "where is my parcel 包裹")][:1] == ["track_shipment"]


def test_a_tool_s_similarity_does_not_depend_on_its_place_in_the_catalogue():
    """A matrix product computes the last rows (past a multiple of the BLAS kernel's block) in
    another order of additions: the same vector there scored a few units in the last place more or
    less, so identical tools were not ranked in catalogue order and a catalogue in another order
    scored its tools otherwise. Every row's similarity is now computed the same way."""
    rng = np.random.default_rng(7)
    for n, width in ((5, 64), (7, 384), (203, 256), (1001, 100)):
        vector, query = rng.normal(size=(2, width)).astype(np.float32)
        specs = tuple(ToolSpec(f"t{i}") for i in range(n))
        index = VectorIndex(specs, unit_rows(np.tile(vector, (n, 1))))
        assert len(set(index.similarities(query).tolist())) == 1, (n, width)
        found = index.search(query, max_results=n)
        assert [m.name for m in found] == [s.name for s in specs]
        vectors = rng.normal(size=(n, width)).astype(np.float32)
        shuffled = rng.permutation(n)
        forward = VectorIndex(specs, unit_rows(vectors)).similarities(query)
        backward = VectorIndex(tuple(specs[i] for i in shuffled), unit_rows(vectors[shuffled])).similarities(query)
        assert forward[shuffled].tolist() == backward.tolist(), (n, width)


def test_a_tool_text_with_a_lone_surrogate_is_embedded_with_u_fffd_in_its_place():
    """A catalogue read from JSON may carry "\\udcff" (an MCP server's, a file's): the course's model
    failed on it with a raw TypeError from its tokenizer when the index was built, where the keyword
    index reads such text. The model is given the text as UTF-8 can carry it (`well_formed`)."""
    search = VectorSearch()
    specs = [
        ToolSpec("refund", "Refund a payment \udcff to the card"),
        ToolSpec("track", "Track a parcel \ud83d\udce6"),
    ]
    index = search.index(specs)
    assert [m.name for m in search.search(index, "refund my card")][0] == "refund"
    clean = search.cache.model.embed(["refund: Refund a payment \ufffd to the card", "track: Track a parcel 📦"])
    assert np.array_equal(index.matrix, unit_rows(clean))
    assert np.array_equal(search.cache.query("refund \udcff"), search.cache.query("refund \ufffd"))
