"""The catalogue read as runs with array operations (`read_runs`) is the plain reading (`read_runs_plainly`)."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolkit.search.runs as runs
from toolkit.search.keyword import KeywordIndex, naive_search
from toolkit.search.runs import read_runs, read_runs_plainly
from toolkit.tools.reflect import ToolSpec

TRAPS = [
    *"abcAB_",
    *" -.,/()!",
    *"İßẞǅΣςıKΩﬁ\u2126",  # lower-casing changes length or maps several characters to one
    "\u0301",  # a combining accent (not a letter: `\w` says no)
    "é",
    *"订单查询",  # CJK: no spaces
    *"１Ａ²½",  # fullwidth, superscript and fraction digits
    *"\xa0\u3000\t\n\x00\x1f\x7f\x85",  # spaces and control characters
    "😀",
    "\U0001f1eb",  # astral
    *"\ud800\udfff",  # lone surrogates
    *"09",
]
ASCII = [*"abz09AZ_ -.,()\t\n\x00\x7f"]


def assert_same(texts):
    plain, fast = read_runs_plainly(texts), read_runs(texts)
    assert fast.runs == plain.runs
    assert fast.ids.dtype == plain.ids.dtype and fast.ids.tolist() == plain.ids.tolist()
    assert fast.counts.dtype == plain.counts.dtype and fast.counts.tolist() == plain.counts.tolist()


def test_the_plain_reading_is_the_regular_expression_and_first_reading_order():
    reading = read_runs_plainly(["ab, cd", "", "cd ab!", "__"])
    assert reading.runs == ["ab", ", ", "cd", " ", "!", "__"]
    assert reading.ids.tolist() == [0, 1, 2, 2, 3, 0, 4, 5]
    assert reading.counts.tolist() == [3, 0, 4, 1]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.sampled_from(TRAPS), max_size=25).map("".join), max_size=12))
def test_any_texts_are_read_the_same(texts):
    assert_same(texts)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(ASCII), max_size=25).map("".join), max_size=12))
def test_ascii_texts_read_as_bytes_the_same(texts):
    assert_same(texts)


def test_no_texts_empty_texts_and_one_long_run():
    for texts in ([], [""], ["", "", ""], ["a" * 100_000], ["", "a b" * 50_000, "", "😀" * 70_000, "b"]):
        assert_same(texts)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.sampled_from(TRAPS[:30]), max_size=40).map("".join), max_size=8))
def test_texts_read_a_few_characters_at_a_time_the_same(texts):
    """Characters hashed and compared a few at a time: runs cut by chunk edges, runs longer than a chunk."""
    for chunk in (1, 3, 64):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(runs, "_CHUNK", chunk)
            assert_same(texts)


def words_texts(rng, n, alphabet="abc"):
    return [
        " ".join("".join(rng.choices(alphabet, k=rng.randint(1, 6))) for _ in range(rng.randint(0, 9)))
        for _ in range(n)
    ]


@pytest.mark.parametrize("base", [1, 2**64 - 1, 2**63 + 1])
def test_runs_whose_numbers_collide_are_told_apart(monkeypatch, base):
    """A poor base (1: a run's number is the sum of its characters, "ab" = "ba") makes many distinct runs
    share a number: each is compared with its group's first run and numbered apart."""
    monkeypatch.setattr(runs, "_BASE", base)
    set_apart = []
    original = runs._set_apart
    monkeypatch.setattr(runs, "_set_apart", lambda *args: set_apart.append(1) or original(*args))
    rng = random.Random(base % 97)
    for _ in range(40):
        assert_same(words_texts(rng, rng.randint(1, 30)))
    assert_same(["ab ba", "ba ab aab aba baa", "ababab bababa"])
    assert set_apart  # the collisions were met


def test_a_collision_between_runs_of_different_lengths_is_told_apart(monkeypatch):
    """Base 1 and mix 1: a run's number is the sum of its characters, "b" (98) = "11" (49 + 49)."""
    monkeypatch.setattr(runs, "_BASE", 1)
    monkeypatch.setattr(runs, "_MIX", 1)
    assert_same(["b 11 b", "11 b 11 2"])


def test_every_character_is_classed_as_the_regular_expression_classes_it():
    """All of Unicode in one text (lone surrogates too): a letter or digit is what `str.isalnum` says
    (the test of `\\w`, less `_`), and the runs are the plain reading's."""
    text = "".join(map(chr, range(0x110000)))
    assert runs._letters(runs._code_points(text)).tolist() == [char.isalnum() for char in text]
    assert_same([text, text[::-1], text[::3]])


@settings(max_examples=100, deadline=None)
@given(
    texts=st.lists(st.lists(st.sampled_from(TRAPS), max_size=20).map("".join), min_size=1, max_size=15),
    terms=st.lists(st.lists(st.sampled_from(TRAPS), min_size=1, max_size=4).map("".join), min_size=1, max_size=3),
)
def test_an_index_read_with_colliding_numbers_agrees_with_naive(texts, terms):
    """The whole index, on a reading where distinct runs share numbers, scores as the naive scorer."""
    specs = [ToolSpec(f"t{i}", text) for i, text in enumerate(texts)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runs, "_BASE", 1)
        index = KeywordIndex(specs)
    assert index.search(terms, 20, 0) == naive_search(terms, specs, 20, 0)


def test_a_run_s_number_is_the_polynomial_hash_of_its_characters():
    """Each run's number, however the characters are cut into chunks, is Σ char × base**place × mix (mod 2**64)."""
    texts = ["ab, cd", "", "订单 😀x\ud800", "a" * 40]
    joined = "".join(texts)
    for chunk in (1, 5, 1 << 18):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(runs, "_CHUNK", chunk)
            chars = runs._code_points(joined)
            edges = np.array([0, 6, 6, 15, 55])
            starts = runs._run_starts(chars, edges)
            ends = np.append(starts[1:], len(chars))
            numbers = runs._hashes(chars, starts, ends, runs._chunks(starts, len(chars)))
        for number, start, end in zip(numbers.tolist(), starts.tolist(), ends.tolist()):
            expected = sum(ord(c) * pow(runs._BASE, i, 2**64) for i, c in enumerate(joined[start:end])) * runs._MIX
            assert number == expected % 2**64


def test_ordinary_texts_are_grouped_by_number_alone(monkeypatch):
    """Distinct runs of ordinary texts get distinct numbers: none is left to the dict."""
    calls = []
    monkeypatch.setattr(runs, "_set_apart", lambda *args: calls.append(args))
    texts = words_texts(random.Random(3), 2_000, "abcdefgh") + ["订单查询 😀 x\ud800", "İß ẞ"]
    reading = read_runs(texts)
    assert not calls
    assert len(reading.runs) == len(set(reading.runs)) > 1_000


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(TRAPS), max_size=25).map("".join), max_size=12))
def test_texts_grouped_by_the_hash_table_are_read_the_same(texts):
    """The large catalogue's way (`_grouped_by_table`), taken for any number of runs."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runs, "_TABLE_ALONE_FROM", 0)
        assert_same(texts)


@pytest.mark.parametrize("key", [0, 1, 2**64 - 1, 0x9E3779B97F4A7C15])
@pytest.mark.parametrize("base", [1, 2**63 + 1, runs._BASE])
def test_the_hash_table_groups_alike_whatever_its_key_and_collisions_are_told_apart(monkeypatch, key, base):
    """The key only mixes the numbers one-to-one: the reading is the plain one for any key, even
    when a poor base makes distinct runs share numbers (they are compared and set apart)."""
    monkeypatch.setattr(runs, "_TABLE_ALONE_FROM", 0)
    monkeypatch.setattr(runs, "_KEY", key)
    monkeypatch.setattr(runs, "_BASE", base)
    rng = random.Random(key % 89 + base % 97)
    for _ in range(25):
        assert_same(words_texts(rng, rng.randint(1, 30)))
    assert_same(["ab ba", "ba ab aab aba baa", "ababab bababa", "", "订单 😀x\ud800"])


@pytest.mark.parametrize("loaded", [True, False])
def test_a_large_catalogue_takes_the_hash_table_when_pandas_is_loaded_and_reads_the_same(monkeypatch, loaded):
    """Above `_TABLE_FROM` runs the table groups them when pandas is loaded already, else the sort does
    (below `_TABLE_ALONE_FROM` runs, importing pandas costs more than the sort): checked by a spy. The
    reading is the plain one either way."""
    taken = []
    original = runs._grouped_by_table
    monkeypatch.setattr(runs, "_grouped_by_table", lambda numbers: taken.append(len(numbers)) or original(numbers))
    monkeypatch.setattr(runs, "_pandas_loaded", lambda: loaded)
    texts = words_texts(random.Random(5), 9_000, "abcdefg")
    assert_same(texts)
    assert bool(taken) is loaded
    assert not taken or runs._TABLE_FROM <= taken[0] < runs._TABLE_ALONE_FROM


def test_pandas_is_loaded_only_for_a_catalogue_large_enough(monkeypatch):
    """`_pandas_loaded` says what `sys.modules` says; the table is taken without it from `_TABLE_ALONE_FROM` runs."""
    import sys

    assert runs._pandas_loaded() is ("pandas" in sys.modules)
    taken = []
    monkeypatch.setattr(runs, "_grouped_by_table", lambda numbers: taken.append(len(numbers)) or (numbers, numbers))
    monkeypatch.setattr(runs, "_pandas_loaded", lambda: False)
    monkeypatch.setattr(runs, "_TABLE_ALONE_FROM", 1_000)
    runs._grouped(np.arange(999, dtype=np.uint64))
    runs._grouped(np.arange(1_000, dtype=np.uint64))
    assert taken == [1_000]
