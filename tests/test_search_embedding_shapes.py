"""A learner's own embedding model that returns the wrong thing: one vector, too few rows, NaN, a
different width for the query. Each is a `ConfigurationError` naming the model and what `embed`
must return, never a numpy `AxisError`, a `KeyError` or a ranking of NaN."""

import numpy as np
import pytest

from toolkit.errors import ConfigurationError
from toolkit.search.embeddings import ToolEmbeddingCache
from toolkit.search.vector import VectorIndex, VectorSearch
from toolkit.tools.reflect import ToolSpec

SPECS = [ToolSpec("a", "alpha"), ToolSpec("b", "beta"), ToolSpec("c", "gamma")]


class Returns:
    """An embedding model whose `embed` returns `answer(texts)`."""

    name = "mine"

    def __init__(self, answer):
        self.answer = answer

    def embed(self, texts):
        return self.answer(texts)


RULE = "embed(texts) must return one row of finite numbers per text: shape (3, dimensions)"


@pytest.mark.parametrize(
    "answer, said",
    [
        (lambda texts: np.ones(len(texts)), "returned shape (3,)"),
        (lambda texts: np.ones((len(texts) - 1, 4)), "returned shape (2, 4)"),
        (lambda texts: np.ones((len(texts), 2, 2)), "returned shape (3, 2, 2)"),
        (lambda texts: np.ones((len(texts), 0)), "returned shape (3, 0)"),
        (lambda texts: None, "returned NoneType"),
    ],
)
def test_a_wrong_shape_is_refused_when_the_index_is_built(answer, said):
    with pytest.raises(ConfigurationError) as info:
        VectorSearch(model=Returns(answer)).index(SPECS)
    assert str(info.value) == f"embedding model 'mine': embed() of 3 text(s) {said}; {RULE}"


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nan_or_infinite_vectors_are_refused(bad):
    with pytest.raises(ConfigurationError) as info:
        VectorSearch(model=Returns(lambda texts: np.full((len(texts), 4), bad))).index(SPECS)
    assert str(info.value) == f"embedding model 'mine': embed() returned NaN or infinite numbers; {RULE}"


def test_text_that_is_not_numbers_is_refused():
    with pytest.raises(ConfigurationError) as info:
        VectorSearch(model=Returns(lambda texts: [["x"]] * len(texts))).index(SPECS)
    assert str(info.value) == f"embedding model 'mine': embed() returned list, not numbers; {RULE}"
    # while lists and integers are numbers too
    index = VectorIndex.build(SPECS, ToolEmbeddingCache(Returns(lambda texts: [[1, 0]] * len(texts))))
    assert [m.name for m in index.search(np.array([1, 0]), 2)] == ["a", "b"]


def test_a_query_of_another_width_is_refused():
    widths = iter([4, 3])
    search = VectorSearch(model=Returns(lambda texts: np.ones((len(texts), next(widths)))))
    index = search.index(SPECS)
    with pytest.raises(ConfigurationError) as info:
        search.search(index, "alpha")
    assert str(info.value) == (
        "VectorIndex.search: the query's vector has shape (3,), the tools' vectors (4,): embed the query with "
        "the model that embedded the tools (build the index again after changing it)"
    )


def test_a_tool_without_a_description_is_embedded_by_its_name_as_the_keyword_index_takes_it():
    from toolkit.search.keyword import KeywordIndex
    from toolkit.search.vector import tool_text

    specs = [ToolSpec("refund_money", None), ToolSpec("track", "track a parcel")]  # type: ignore[arg-type]
    assert tool_text(specs[0]) == "refund_money"
    letters = Returns(lambda texts: np.array([[t.count("r"), t.count("p")] for t in texts], dtype=np.float32))
    search = VectorSearch(model=letters)
    assert [m.name for m in search.search(search.index(specs), "rr")][0] == "refund_money"
    assert [m.name for m in KeywordIndex(specs).search(["refund"])] == ["refund_money"]


def test_a_model_given_for_the_cache_or_a_class_or_name_given_for_the_model_names_the_fix():
    """`VectorIndex.build(specs, StaticEmbeddings())` and `VectorSearch(cache=model)` failed with a raw
    AttributeError ('... has no attribute tools') when the index was built; `ToolEmbeddingCache(StaticEmbeddings)`
    (the class) and `ToolEmbeddingCache("minilm")` were taken and failed at the first embedding with a raw
    TypeError / AttributeError."""
    model = Returns(lambda texts: np.ones((len(texts), 4)))
    cache_fix = "takes a ToolEmbeddingCache, and got Returns (an embedding model); wrap it: ToolEmbeddingCache(model)"
    for call, where in (
        (lambda: VectorIndex.build(SPECS, model), "VectorIndex.build"),
        (lambda: VectorSearch(cache=model), "VectorSearch(cache=...)"),
    ):
        with pytest.raises(ConfigurationError) as caught:
            call()
        assert str(caught.value) == f"{where}: {cache_fix}"
    for given, shown in ((Returns, "the class Returns"), ("minilm", "str")):
        with pytest.raises(ConfigurationError) as caught:
            ToolEmbeddingCache(given)
        assert str(caught.value) == (
            f"ToolEmbeddingCache: model={shown} is not an embedding model (an instance with embed(texts) -> array); "
            "pass one, e.g. ToolEmbeddingCache(StaticEmbeddings())"
        )


def test_the_cache_given_one_text_for_its_tools_or_no_text_for_a_query_names_the_fix():
    """`cache.tools("track parcel")` embedded the text letter by letter (12 rows, silently), and
    `cache.query(["track", "parcel"])` or `cache.query(None)` reached the model (a raw TypeError from its
    tokenizer)."""
    seen = []
    cache = ToolEmbeddingCache(Returns(lambda texts: seen.extend(texts) or np.ones((len(texts), 4))))
    with pytest.raises(ConfigurationError) as caught:
        cache.tools("track parcel")
    assert str(caught.value) == (
        "ToolEmbeddingCache.tools: takes a list of tool texts, and got a str, which would be embedded letter by "
        "letter; pass a list: ['track parcel']"
    )
    for query, kind in ((["track", "parcel"], "list"), (None, "NoneType"), (b"track", "bytes")):
        with pytest.raises(ConfigurationError) as caught:
            cache.query(query)
        assert str(caught.value) == (
            f"ToolEmbeddingCache.query: takes the query's text, a str, and got {kind}; pass one text, "
            "e.g. 'refund a card payment'"
        )
    assert seen == []  # the model was never asked
    assert cache.tools(("a b", "c")).shape == (2, 4) and cache.query("a b").shape == (4,)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_query_vector_of_nan_or_infinite_numbers_is_refused_not_ranked(bad):
    """A query vector holding NaN (a learner's own embedding) found the catalogue's first tools at a
    similarity of 0.0, as if they matched; one holding infinity found nothing, with NumPy's warning."""
    index = VectorIndex.build(SPECS, ToolEmbeddingCache(Returns(lambda texts: np.eye(len(texts), 4))))
    query = np.array([1.0, bad, 0.0, 0.0], dtype=np.float32)
    for call, where in ((lambda: index.search(query), "VectorIndex.search"),
                        (lambda: index.similarities(query), "VectorIndex.similarities")):  # fmt: skip
        with pytest.raises(ConfigurationError) as caught:
            call()
        assert str(caught.value) == (
            f"{where}: the query's vector holds NaN or infinite numbers; embed the query with a model that "
            "returns finite numbers (cache.query(text) checks them)"
        )


def test_a_query_vector_of_another_width_names_the_function():
    index = VectorIndex.build(SPECS, ToolEmbeddingCache(Returns(lambda texts: np.eye(len(texts), 4))))
    with pytest.raises(ConfigurationError) as caught:
        index.search(np.ones(3))
    assert str(caught.value) == (
        "VectorIndex.search: the query's vector has shape (3,), the tools' vectors (4,): embed the query with "
        "the model that embedded the tools (build the index again after changing it)"
    )


def test_a_model_and_a_cache_of_another_model_are_refused_together():
    """`VectorSearch(model=a, cache=ToolEmbeddingCache(b))` searched with b, the model given silently unused."""
    a, b = Returns(lambda texts: np.ones((len(texts), 4))), Returns(lambda texts: np.ones((len(texts), 3)))
    with pytest.raises(ConfigurationError) as caught:
        VectorSearch(model=a, cache=ToolEmbeddingCache(b))
    assert str(caught.value) == (
        "VectorSearch(model=..., cache=...): the cache embeds with another model than the one given, which would "
        "never be used; pass one of them: VectorSearch(cache=ToolEmbeddingCache(model))"
    )
    cache = ToolEmbeddingCache(a)
    assert VectorSearch(model=a, cache=cache).cache is cache  # the same model: taken
