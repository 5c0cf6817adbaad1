"""Keyword index: a long query's words looked up together give what one by one and the naive scorer give."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolkit.search.keyword as keyword
from toolkit.search.keyword import KeywordIndex, clean_terms, naive_search, score
from toolkit.tools.reflect import ToolSpec


def counted_together(index, words):
    """How many of `words` each text holds, from the batched look-up (`words_hits`), which must
    give each word the texts `hits` gives it."""
    found, alone, texts, counts = index._texts.words_hits(words)
    assert len(found) == len(words)
    held = np.zeros(index._texts.size, dtype=np.int64)
    held[texts] += counts  # the words not alone, counted together
    each = np.zeros(index._texts.size, dtype=np.int64)
    for w, (word, hits) in enumerate(zip(words, found)):
        texts = np.flatnonzero(hits) if hits.dtype == bool else hits
        one = index._texts.hits(word)
        assert texts.tolist() == (np.flatnonzero(one) if one.dtype == bool else one).tolist(), word
        each[texts] += 1
        if w in alone:
            held[texts] += 1
    assert held.tolist() == each.tolist()
    return held


def counted_one_by_one(index, words):
    """The same from the per-term path (`hits`, one word at a time)."""
    held = np.zeros(index._texts.size, dtype=np.int64)
    for word in words:
        hits = index._texts.hits(word)
        held[np.flatnonzero(hits) if hits.dtype == bool else hits] += 1
    return held


def naive_scores(specs, terms):
    cleaned = clean_terms(terms)
    return [score(spec, cleaned) for spec in specs]


@pytest.fixture(params=["defaults", "cross and set aside early"])
def thresholds(request, monkeypatch):
    """The defaults, and thresholds low enough that small catalogues cross lists in several rounds and
    set words aside as held by many texts, and mixed terms weigh reading their texts with `in`."""
    monkeypatch.setattr(keyword, "_BATCHED_FROM", 1)
    if request.param != "defaults":
        monkeypatch.setattr(keyword, "_CROSSED_FROM", 2)
        monkeypatch.setattr(keyword, "_FEW", 1)
        monkeypatch.setattr(keyword, "_ALONE_FROM", 3)
        monkeypatch.setattr(keyword, "_READ_FROM", 0)
        monkeypatch.setattr(keyword, "_READ_RUNS", 1)


def syllable_catalogue(rng, n):
    """Words of 2-4 syllables, camelCase names and snake_case names: lists that cross and runs that share pieces."""
    syllables = "ka to ri ne sa mo lu pe chi tra ion ing er st an or".split()
    vocabulary = ["".join(rng.choices(syllables, k=rng.randint(2, 4))) for _ in range(400)]
    specs = []
    for i in range(n):
        parts = rng.choices(vocabulary, k=3)
        name = parts[0] + "".join(p.title() for p in parts[1:]) if i % 2 else "_".join(parts)
        specs.append(ToolSpec(name, " ".join(rng.choices(vocabulary, k=rng.randint(0, 25))) + "."))
    return specs, vocabulary


def test_many_words_together_equal_one_by_one_and_naive(thresholds):
    rng = random.Random(31)
    specs, vocabulary = syllable_catalogue(rng, 800)
    index = KeywordIndex(specs)
    for _ in range(60):
        # whole words, pieces of words, words glued together, words the catalogue lacks
        words = rng.sample(vocabulary, rng.randint(4, 14))
        words += [w[rng.randint(0, 2) :] for w in rng.sample(vocabulary, 3)]
        words += ["".join(rng.sample(vocabulary, 2)), "zzqzz", "kaxto"]
        words = clean_terms([w for w in words if len(w) > 3])
        together = counted_together(index, words)
        assert together.tolist() == counted_one_by_one(index, words).tolist(), words
        assert index.scores(words).tolist() == naive_scores(specs, words), words
        assert index.search(words, 10) == naive_search(words, specs, 10), words


def test_pieces_and_runs_of_many_words_are_those_of_each_word(thresholds):
    """`_Pieces.lists` against `triples`, `containing` against `_runs_containing`, word by word."""
    rng = random.Random(34)
    specs, vocabulary = syllable_catalogue(rng, 500)
    specs.append(ToolSpec("snowman_☃", "é ı 订单"))
    index = KeywordIndex(specs)
    pieces, listed = index._texts.pieces, index._texts.pieces.inside[2].runs
    for _ in range(40):
        words = rng.sample(vocabulary, rng.randint(1, 10))
        words += ["".join(rng.sample(vocabulary, 2)), "kato☃", "☃☃☃☃", "ka\u2603to", "zzqzz", "订单查询", "ıkaı"]
        words += ["jatori", "jaka", "bhitra", "sqing"]  # letters the catalogue lacks, just before ones it has
        words = [w for w in words if len(w) > 3]
        starts, sizes, more = pieces.lists(words)
        for word, n in zip(words, more.tolist()):  # each distinct piece once ("☃☃☃☃": one); a character
            distinct = len({word[i : i + 3] for i in range(len(word) - 2)})  # the catalogue lacks: one code
            assert n == distinct if all(c in pieces.rank for c in word) else 1 <= n <= distinct, word
        firsts = np.cumsum(more) - more
        for word, first, n in zip(words, firsts.tolist(), more.tolist()):
            found = [
                listed[start : start + size].tolist()
                for start, size in zip(starts[first : first + n], sizes[first : first + n])
            ]
            assert [len(f) for f in found] == sorted(len(f) for f in found), word  # shortest first
            expected = pieces.triples(word)
            if len(expected) == 1 and not len(expected[0]):  # a piece or a character the catalogue lacks
                assert found[0] == [], word
            else:
                assert sorted(found) == sorted(e.tolist() for e in expected), word
        which, runs = index._texts.containing(words)
        for i, word in enumerate(words):
            assert runs[which == i].tolist() == index._texts._runs_containing(word).tolist(), word


def test_long_queries_of_mixed_terms_agree_with_naive(thresholds):
    """Words looked up together, short and mixed terms one by one, all in one query."""
    rng = random.Random(32)
    specs, vocabulary = syllable_catalogue(rng, 600)
    index = KeywordIndex(specs)
    extras = ["a", "ka", "ion", "e.g.", "_", ". ", "ka to", "Or ", " ST", "tra_"]
    for _ in range(60):
        terms = rng.sample(vocabulary, rng.randint(6, 12)) + rng.sample(extras, 3)
        terms = [t.upper() if rng.random() < 0.2 else t for t in terms]
        assert index.scores(terms).tolist() == naive_scores(specs, terms), terms
        assert index.search(terms, 8, 2) == naive_search(terms, specs, 8, 2), terms


def test_the_batched_path_is_taken_from_enough_words_and_agrees_either_way(monkeypatch):
    specs, vocabulary = syllable_catalogue(random.Random(33), 300)
    index = KeywordIndex(specs)
    words = vocabulary[:20]
    calls = []
    real = index._texts.words_hits
    monkeypatch.setattr(index._texts, "words_hits", lambda words: calls.append(words) or real(words))
    b = keyword._BATCHED_FROM
    index.scores(words[: b - 1])
    index.scores(words[b - 1 : 2 * b - 2] + ["ka", "e.g.", "a b"])  # enough terms, too few words
    assert calls == []  # too few: one by one
    # words looked up lately are not looked up again: enough new ones are looked up together
    assert index.scores(words[: 3 * b - 2]).tolist() == naive_scores(specs, words[: 3 * b - 2])
    assert index.scores(words[: 3 * b - 2]).tolist() == naive_scores(specs, words[: 3 * b - 2])  # none new
    assert calls == [words[2 * b - 2 : 3 * b - 2]]
    fresh = KeywordIndex(specs)
    own = fresh._texts.words_hits
    monkeypatch.setattr(fresh._texts, "words_hits", lambda words: calls.append(words) or own(words))
    calls.clear()
    for many in (keyword._BATCHED_FROM, 20):
        assert fresh.scores(words[:many]).tolist() == naive_scores(specs, words[:many])
    assert [len(c) for c in calls] == [keyword._BATCHED_FROM, 20 - keyword._BATCHED_FROM]


def test_a_catalogue_without_pieces_of_three_characters():
    specs = [ToolSpec("ab", "c d"), ToolSpec("e", None)]
    index = KeywordIndex(specs)
    found, alone, texts, counts = index._texts.words_hits(["abcd", "efgh"])
    assert ([hits.tolist() for hits in found], alone, texts.tolist(), counts.tolist()) == ([[], []], [], [], [])
    assert index.search(["abcd", "efgh"] * 4) == []


# the Unicode traps of test_search_keyword.py, in words of 4 characters or more
TRAPS = [*"abcde", *"İßẞǅΣςıIKΩﬁ\u2126", "e\u0301", *"订单查询", *"１Ａ", *"09", "😀", "\ud800", "\udfff"]
trap_text = st.lists(st.sampled_from(TRAPS + [" ", "_", "-", "\t", "\x00", "\x1f"]), max_size=30).map("".join)
trap_word = st.lists(st.sampled_from(TRAPS), min_size=4, max_size=9).map("".join)


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(st.lists(st.sampled_from(TRAPS), max_size=8).map("".join), min_size=1, max_size=30),
    descriptions=st.data(),
    words=st.lists(trap_word, min_size=1, max_size=16),
    padding=st.sampled_from(["", " ", "\t", "\x00"]),
)
def test_adversarial_words_together_agree_with_naive_and_one_by_one(names, descriptions, words, padding):
    """Case folding (İ ß ẞ Σ), combining accents, CJK, fullwidth, emoji, lone surrogates, control
    characters, duplicates after folding, words that become short or empty once trimmed."""
    specs = [ToolSpec(n or f"t{i}", descriptions.draw(st.one_of(st.none(), trap_text))) for i, n in enumerate(names)]
    index = KeywordIndex(specs)
    terms = [padding + w + padding for w in words] + [w.upper() for w in words[:2]] + ["", padding]
    cleaned = [t for t in clean_terms(terms) if len(t) > 3 and keyword._RUNS.fullmatch(t)]
    assert counted_together(index, cleaned).tolist() == counted_one_by_one(index, cleaned).tolist()
    old = keyword._BATCHED_FROM
    try:
        keyword._BATCHED_FROM = 1
        assert index.scores(terms).tolist() == naive_scores(specs, terms)
        assert index.search(terms, 6, 1) == naive_search(terms, specs, 6, 1)
    finally:
        keyword._BATCHED_FROM = old


def test_words_repeating_their_pieces_cross_each_piece_s_list_once(monkeypatch):
    """Six words that repeat "abcdefghij" (2,000 characters: 1,998 pieces, 10 distinct), looked up
    together over runs that all hold those pieces, crossed the same lists round after round (0.7 s on
    3,000 tools; the naive scorer 0.04 s). Each word's distinct pieces are crossed once now."""
    crossed = []
    isin = keyword._isin
    monkeypatch.setattr(keyword, "_isin", lambda *args: crossed.append(1) or isin(*args))
    cycle = "abcdefghij"
    specs = [ToolSpec(f"t{i}", f"{cycle * (1 + i % 250)}{i} y{i}") for i in range(600)]
    index = KeywordIndex(specs)
    for k in (2, 20, 200):
        words = [cycle * k + end for end in ("", "a", "ab", "abc", "abcd", "abcde")]
        crossed.clear()
        assert index.search(words, 10) == naive_search(words, specs, 10), k
        assert len(crossed) <= 10, (k, len(crossed))
