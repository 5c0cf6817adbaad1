"""Keyword index: terms looked up lately add what they added then (`_Known`), within their bytes."""

import random
import sys
import threading
import tracemalloc

import numpy as np
import pytest
from naive_keyword import Naive

from toolkit.errors import ConfigurationError
from toolkit.search import keyword
from toolkit.search.catalog import load_catalog, scaled_catalog
from toolkit.search.keyword import CACHE_BYTES, KeywordIndex, naive_search
from toolkit.tools.reflect import ToolSpec


@pytest.fixture(scope="module")
def catalogue():
    specs = scaled_catalog(load_catalog().tools, 2_000)
    words = sorted({w for s in specs[:200] for w in f"{s.name} {s.description}".lower().split()})
    return specs, words


def queries(words, seed, n=120):
    """Queries that share their words (the same ones come back), of every kind of term the index
    reads its own way: common and rare words, short pieces, mixed terms, six or more words."""
    rng = random.Random(seed)
    pool = rng.sample(words, 40) + ["a", "e", "or", "e.g.", "list the", "ORDER", " order "]
    return [rng.sample(pool, rng.choice([1, 2, 4, 7, 12])) for _ in range(n)]


def test_terms_seen_again_give_what_the_naive_scorer_gives(catalogue):
    specs, words = catalogue
    index, naive = KeywordIndex(specs), Naive(specs)  # naive_search's answers, and naive_search itself on every 10th
    for terms in queries(words, 1) * 2:
        assert index.search(terms) == naive.checked(terms), terms
        assert index.search(terms, 20, 2) == naive.checked(terms, 20, 2), terms
    assert len(index._known) > 40  # the second pass read them all from what was kept


def test_more_terms_than_a_byte_holds_seen_again(catalogue):
    specs, words = catalogue
    index = KeywordIndex(specs)
    terms = words[:100]
    first = index.scores(terms).tolist()
    assert index.scores(terms).tolist() == first
    assert index.scores(terms[::-1]).tolist() == first


@pytest.mark.parametrize("limit", [0, 1, 1_000, 50_000])
def test_what_is_kept_stays_within_its_bytes_and_the_answers_stay_true(catalogue, limit):
    specs, words = catalogue
    index, naive = KeywordIndex(specs, cache_bytes=limit), Naive(specs)
    for terms in queries(words, 2, 60):
        assert index.search(terms) == naive.checked(terms), terms
        assert index._known.used <= limit
    if limit < len(specs) + 128:  # less than a common term's scores (a byte a tool): only rare terms kept
        assert all(added.dtype != np.uint8 for added in index._known._added.values())
    assert (len(index._known) > 0) == (limit >= 1_000)  # below a rare term's 128 bytes and more, nothing is kept


def test_a_numpy_whole_number_is_a_number_of_bytes():
    index = KeywordIndex([ToolSpec("a", "b")], cache_bytes=np.int64(1_000))
    assert index.search(["b"]) == naive_search(["b"], [ToolSpec("a", "b")])
    assert (index._known.limit, type(index._known.limit)) == (1_000, int)


def test_the_terms_kept_longest_are_forgotten_first():
    specs = [ToolSpec(f"tool_{i}", f"word{i} common") for i in range(10)]
    one = 128 + sys.getsizeof("word0") + 4  # a term of one tool: its entry, itself, one text's number
    index = KeywordIndex(specs, cache_bytes=3 * one)  # three terms of one tool each
    for i in range(5):
        index.search([f"word{i}"])
    assert list(index._known._added) == ["word2", "word3", "word4"]
    assert index._known.used == 3 * one


def test_searches_from_many_threads_agree_and_count_their_bytes_once(catalogue):
    specs, words = catalogue
    index = KeywordIndex(specs, cache_bytes=200_000)
    wrong: list[list[str]] = []
    start = threading.Barrier(4)

    def search(seed):
        start.wait()
        for terms in queries(words, seed, 40):
            if index.search(terms) != naive_search(terms, specs):
                wrong.append(terms)

    threads = [threading.Thread(target=search, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
    kept = index._known
    assert kept.used == sum(128 + sys.getsizeof(term) + added.nbytes for term, added in kept._added.items())
    assert kept.used <= 200_000


@pytest.mark.parametrize("limit", [-1, 1.5, True, "16MB", None, np.int64(-2)])
def test_a_cache_size_that_is_no_number_of_bytes_is_a_developer_error(limit):
    with pytest.raises(ConfigurationError) as error:
        KeywordIndex([ToolSpec("a", "b")], cache_bytes=limit)
    assert str(error.value) == (
        "KeywordIndex: cache_bytes must be a whole number of bytes, 0 or more (0: no cache), "
        f"not {limit!r}. Fix: KeywordIndex(specs, cache_bytes={CACHE_BYTES})"
    )


def test_the_terms_themselves_count_in_the_bytes_kept():
    """A model pasting long texts as its terms: each term is a key of what is kept, and only 128 bytes
    and its scores were counted, so 100,000 bytes kept some 780 terms of 10,000 characters (8 MB)."""
    specs = [ToolSpec(f"tool_{i}", f"word{i} common") for i in range(50)]
    index = KeywordIndex(specs, cache_bytes=100_000)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(1_000):  # each found nowhere: what it adds is empty, the term is all there is
            assert index.search(["pasted" * 1_600 + f"{i:05d}"]) == []
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert index._known.used <= 100_000
    assert held <= 100_000 + 20_000  # the dict's own table and a little more
    assert index._known.used == sum(
        128 + sys.getsizeof(term) + added.nbytes for term, added in index._known._added.items()
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_long_queries_of_terms_few_tools_hold_seen_again_give_the_naive_answer(catalogue, seed):
    """Queries of 10-30 and 60-120 words, most of them held by few tools (added together, as lists of texts,
    in one scatter: `_add_listed`), some by many (bytes), asked twice: the second time every word is kept."""
    specs, words = catalogue
    rng = random.Random(seed)
    index, naive = KeywordIndex(specs), Naive(specs)
    asked = [rng.sample(words, rng.randint(10, 30)) for _ in range(20)]
    asked += [rng.sample(words, rng.randint(60, 120)) for _ in range(4)]
    asked += [[w.upper() for w in asked[0]] + asked[0]]  # the same words again in another case: each once
    for terms in asked * 2:
        assert index.search(terms, 10) == naive.checked(terms, 10), terms
    listed = [a for a in index._known._added.values() if a.dtype != np.uint8]
    assert len(listed) > 20  # the words held by few tools were kept as lists, and added as lists


def test_scores_of_more_terms_than_two_bytes_hold_take_a_wider_type():
    """Up to 85 terms the scores add up in a byte, up to 21,845 in two bytes, beyond in 64 bits: the
    answer is the naive one on either side of the byte's border, and a caller always gets 64-bit scores."""
    assert [keyword._score_type(n) for n in (0, 85, 86, 21_845, 21_846)] == [
        np.uint8, np.uint8, np.uint16, np.uint16, np.int64
    ]  # fmt: skip
    terms = [f"w{i:04d}" for i in range(300)]
    specs = [ToolSpec(f"t_{i}_" + "".join(terms[i::40]), " ".join(terms[i::7])) for i in range(40)]
    index = KeywordIndex(specs)
    for count in (85, 86, 300):
        assert index.search(terms[:count], 10) == naive_search(terms[:count], specs, 10), count
        assert index.scores(terms[:count]).dtype == np.int64
    assert index.scores(terms).tolist() == [keyword.score(s, terms) for s in specs]  # up to 59: no wrap-around
