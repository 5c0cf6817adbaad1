"""Texts cut into runs, each distinct run numbered: how `KeywordIndex` reads its catalogue.

A run is a stretch of letters and digits, or of everything else (spaces, `_`, punctuation):
`_RUNS.findall(text)`. `read_runs(texts)` gives the distinct runs of all the texts (in order of first
reading), every run read as its distinct run's number, and how many runs each text has.

`read_runs_plainly` is the plain way: the regular expression cuts each text, a dict numbers the runs
(some 170 ns a run read, nearly all of a catalogue's build when its descriptions are long).
`read_runs` gives the same result with array operations over all the texts' characters at once:

- each character is a letter or digit or not (a table over the catalogue's alphabet, each of its
  characters classed by the same regular expression); a run begins where that changes, and where
  a text begins;
- each run gets a 64-bit number from its characters, a polynomial hash: prefix sums of each
  character times a power of an odd base (its place), so a run's number is the difference of two
  sums, brought back to its first place by the base's inverse;
- the runs whose numbers agree are grouped, and the groups numbered in order of first reading: by
  one sort of (number, place) pairs for a small catalogue, by a hash table (pandas' `factorize`,
  linear where the sort is not) for a large one (`_TABLE_FROM`, `_TABLE_ALONE_FROM`);
- every run is compared, character by character, with its group's first run: agreeing numbers do
  not prove equal runs. A run that differs (rare: two distinct runs whose numbers agree in the
  bits sorted, or texts made to collide) is numbered with a dict, as `read_runs_plainly` does.

The characters are hashed and compared a slice of about `_CHUNK` at a time, so the arrays of 64-bit
numbers stay small (in the processor's cache) however large the catalogue.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from itertools import chain, count

import numpy as np

_RUNS = re.compile(r"[^\W_]+|[\W_]+")
"""A text cut into runs: letters and digits, or everything else (spaces, `_`, punctuation)."""
_ASCII_RUNS = re.compile(r"[A-Za-z0-9]+|[^A-Za-z0-9]+")
"""`_RUNS` for a text of ASCII characters only (where a word character is one of `[A-Za-z0-9_]`): the
same runs, a fifth quicker (a range test per character instead of a Unicode category look-up)."""
_LETTER = re.compile(r"[^\W_]")
"""One character of a run of letters and digits (`_RUNS`'s first kind); any other is of the second kind."""
_ASCII_LETTERS = np.array([_LETTER.fullmatch(chr(c)) is not None for c in range(128)])
"""For each ASCII character: whether it is a letter or digit."""
_ASCII_TABLE = bytes(_ASCII_LETTERS.tolist() + [False] * 128)
"""`_ASCII_LETTERS` as a `bytes.translate` table (1 for a letter or digit, else 0): a byte at a time in C,
a third of what indexing the array with every character costs."""

_BASE = 0x9E3779B97F4A7C15
"""The hash's base: odd, so it has an inverse modulo 2**64 (its powers can be undone)."""
_MIX = 0xBF58476D1CE4E5B9
"""Odd: a run's number is multiplied by it, spreading every bit into the top bits (the ones sorted)."""
_CHUNK = 1 << 18
"""Characters hashed or compared at a time (the arrays of 64-bit numbers stay in the cache)."""
_TABLE_FROM = 1 << 16
"""From this many runs read on, they are grouped by a hash table (`_grouped_by_table`), not by a sort,
when pandas is loaded already (a notebook's tables load it): at 5 million runs (10,000 long
descriptions) 85–130 ms against 230–320 ms, and fewer arrays (fresh memory costs page faults)."""
_TABLE_ALONE_FROM = 1 << 22
"""From this many runs on, by the hash table even when pandas must be loaded for it (some 0.2 s, about
what the sort of this many runs costs more than the table)."""
_KEY = int.from_bytes(os.urandom(8), "little")
"""A key the numbers are mixed with before they go into the hash table (`_grouped_by_table`): this
process's own, so texts cannot be made to crowd the table's slots (pandas' hash is fixed). The mix is
one-to-one, so the groups, and everything read, are the same in every process."""


def runs_of(text: str) -> list[str]:
    """`_RUNS.findall(text)`, through `_ASCII_RUNS` when the text is ASCII."""
    return (_ASCII_RUNS if text.isascii() else _RUNS).findall(text)


@dataclass(frozen=True)
class Reading:
    """Texts read as runs."""

    runs: list[str]
    """The distinct runs, in order of first reading."""
    ids: np.ndarray
    """Every run read, text after text, as its place in `runs` (64-bit integers)."""
    counts: np.ndarray
    """How many runs each text has (64-bit integers)."""


def read_runs_plainly(texts: list[str]) -> Reading:
    """`read_runs`, the plain way: each text cut by the regular expression, each run looked up in a dict."""
    found = list(map(runs_of, texts))
    counts = np.fromiter(map(len, found), dtype=np.int64, count=len(found))
    total = int(counts.sum())
    seen: dict[str, int] = {}
    # one look-up per run read, in C: setdefault keeps the index where the run was first read
    first = np.fromiter(map(seen.setdefault, chain.from_iterable(found), count()), dtype=np.int64, count=total)
    new = first == np.arange(total)
    rank = np.cumsum(new) - 1  # at a first reading: the number of distinct runs before it
    return Reading(list(seen), rank[first], counts)


def read_runs(texts: list[str]) -> Reading:
    """The texts' runs, distinct runs and runs per text (the same as `read_runs_plainly`), with array operations."""
    joined = "".join(texts)
    chars = _code_points(joined)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    edges = np.concatenate(([0], np.cumsum(lengths)))  # text i is joined[edges[i]:edges[i + 1]]
    starts = _run_starts(chars, edges)
    ends = np.append(starts[1:], len(chars))
    chunks = _chunks(starts, len(chars))
    ids, firsts = _grouped(_hashes(chars, starts, ends, chunks))
    differs = _differing(chars, starts, ends - starts, firsts[ids], chunks)
    if differs.any():
        ids, firsts = _set_apart(joined, starts, ends, ids, firsts, np.flatnonzero(differs))
    runs = [joined[start:end] for start, end in zip(starts[firsts].tolist(), ends[firsts].tolist())]
    return Reading(runs, ids, np.diff(starts.searchsorted(edges)))


def _code_points(text: str) -> np.ndarray:
    """The text's characters as numbers: bytes when it is ASCII, else 32-bit (lone surrogates kept)."""
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _letters(chars: np.ndarray) -> np.ndarray:
    """Which characters are letters or digits (as `_RUNS` sees them): a mask."""
    if chars.dtype == np.uint8:  # the bytes it was read from (`_code_points`), else a copy
        data = chars.base if type(chars.base) is bytes and len(chars.base) == len(chars) else chars.tobytes()
        return np.frombuffer(data.translate(_ASCII_TABLE), dtype=bool)
    table = np.zeros(int(chars.max(initial=0)) + 1, dtype=bool)
    table[chars] = True
    alphabet = np.flatnonzero(table)  # each character present, classed once
    table[alphabet] = [_LETTER.fullmatch(chr(c)) is not None for c in alphabet.tolist()]
    return table[chars]


def changes(values: np.ndarray) -> np.ndarray:
    """Which places of an array hold a value the place before does not (the first place does): a
    mask. Of a sorted array: the first place of each value."""
    fresh = np.empty(len(values), dtype=bool)
    fresh[:1] = True
    np.not_equal(values[1:], values[:-1], out=fresh[1:])
    return fresh


def _run_starts(chars: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Where each run begins: where a text begins, or the kind of character changes."""
    begins = changes(_letters(chars))
    begins[edges[:-1][edges[:-1] < len(chars)]] = True
    return np.flatnonzero(begins)


def _chunks(starts: np.ndarray, size: int) -> list[tuple[int, int, int, int]]:
    """The runs in slices of about `_CHUNK` characters: (first run, run after the last, first
    character, character after the last) for each (a run longer than that is a slice of its own)."""
    cuts = np.unique(starts.searchsorted(np.arange(0, size, _CHUNK))).tolist() + [len(starts)]
    inner = [cut for cut in cuts if cut < len(starts)]  # ascending: the others (the end) are last
    places = starts[inner].tolist() + [size] * (len(cuts) - len(inner))  # no copy of every start
    return list(zip(cuts, cuts[1:], places, places[1:]))


def _powers(base: int, n: int) -> np.ndarray:
    """base**0, base**1, …, base**(n - 1), modulo 2**64."""
    powers = np.full(n, base, dtype=np.uint64)
    powers[:1] = 1
    return np.cumprod(powers, out=powers)


def _hashes(
    chars: np.ndarray, starts: np.ndarray, ends: np.ndarray, chunks: list[tuple[int, int, int, int]]
) -> np.ndarray:
    """Each run's number: the sum of its characters, each times `_BASE` to the power of its place
    in the run, times `_MIX` (modulo 2**64)."""
    span = max((high - low for _, _, low, high in chunks), default=0)
    powers = _powers(_BASE, span)
    back = _powers(pow(_BASE, -1, 2**64), span) * np.uint64(_MIX)  # undoes a run's first place, and mixes
    sums = np.zeros(span + 1, dtype=np.uint64)  # sums[p]: the characters before place p of the slice
    numbers = np.empty(len(starts), dtype=np.uint64)
    for first, last, low, high in chunks:
        np.cumsum(powers[: high - low] * chars[low:high], out=sums[1 : high - low + 1])
        begin, end = starts[first:last] - low, ends[first:last] - low
        np.multiply(sums[end] - sums[begin], back[begin], out=numbers[first:last])
    return numbers


def _grouped(numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The runs grouped by the top bits of their numbers: each run's group, and each group's first
    run, groups numbered in order of first reading (a large catalogue's by all their bits, with a
    hash table: `_grouped_by_table`, when `_TABLE_FROM` / `_TABLE_ALONE_FROM` say; runs of one group
    are still compared, `_differing`).

    One sort of (number, run) pairs packed into one 64-bit number: the run in the low bits, so
    each group's runs come out in reading order.
    """
    if len(numbers) >= _TABLE_ALONE_FROM or (len(numbers) >= _TABLE_FROM and _pandas_loaded()):
        return _grouped_by_table(numbers)
    run_bits = np.uint64(max(1, len(numbers).bit_length()))
    packed = numbers >> run_bits << run_bits | np.arange(len(numbers), dtype=np.uint64)
    packed.sort()
    order = (packed & ((np.uint64(1) << run_bits) - np.uint64(1))).astype(np.int64)
    packed >>= run_bits
    fresh = changes(packed)  # the first run of a group
    firsts = order[fresh]
    number = np.empty(len(firsts), dtype=np.int64)  # each group's number: its first run's rank
    by_reading = np.argsort(firsts)
    number[by_reading] = np.arange(len(firsts))
    ids = np.empty(len(numbers), dtype=np.int64)
    ids[order] = number[np.cumsum(fresh) - 1]
    return ids, firsts[by_reading]


def _pandas_loaded() -> bool:
    return "pandas" in sys.modules


def _grouped_by_table(numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`_grouped` by a hash table: pandas' `factorize` numbers the distinct numbers in order of first
    reading, in one pass. A group's first run is where its number first comes: the place where the
    group numbers read so far first reach it (a running maximum)."""
    import pandas as pd

    mixed = numbers ^ np.uint64(_KEY)
    mixed *= np.uint64(_KEY | 1)  # odd: one-to-one modulo 2**64
    ids, _ = pd.factorize(mixed)
    reached = np.maximum.accumulate(ids, out=mixed.view(np.int64))  # into `mixed`, read by now
    fresh = np.empty(len(ids), dtype=bool)
    fresh[:1] = True
    np.greater(ids[1:], reached[:-1], out=fresh[1:])
    return ids.astype(np.int64, copy=False), np.flatnonzero(fresh)


def _differing(
    chars: np.ndarray,
    starts: np.ndarray,
    sizes: np.ndarray,
    models: np.ndarray,
    chunks: list[tuple[int, int, int, int]],
) -> np.ndarray:
    """Which runs differ from their model run (`models[r]`, a run read before r or r itself): a mask.

    Runs of different lengths differ; the others are compared character by character, each
    character with the one at the same place in the model.
    """
    differs = sizes[models] != sizes
    shift = starts[models]  # from a run's place to its model's (in place: each array here is a number a run)
    shift -= starts
    shift[differs] = 0
    for first, last, low, high in chunks:
        across = np.repeat(shift[first:last], sizes[first:last])
        across += np.arange(low, high)
        unequal = np.flatnonzero(chars[across] != chars[low:high]) + low
        differs[starts.searchsorted(unequal, side="right") - 1] = True
    return differs


def _set_apart(
    joined: str, starts: np.ndarray, ends: np.ndarray, ids: np.ndarray, firsts: np.ndarray, strays: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """`ids` and `firsts` once the runs `strays` (differing from their group's first run) are
    numbered by their text with a dict, after the groups, and all renumbered in order of first reading.

    A stray equals no group's first run (equal runs have equal numbers: it would be in that group
    and equal to its first run), so the strays only equal one another.
    """
    seen: dict[str, int] = {}
    stray_firsts: list[int] = []
    labels = []
    for run, start, end in zip(strays.tolist(), starts[strays].tolist(), ends[strays].tolist()):
        label = seen.setdefault(joined[start:end], len(seen))
        if label == len(stray_firsts):
            stray_firsts.append(run)
        labels.append(label)
    ids = ids.copy()
    ids[strays] = len(firsts) + np.array(labels, dtype=np.int64)
    all_firsts = np.concatenate((firsts, np.array(stray_firsts, dtype=np.int64)))
    by_reading = np.argsort(all_firsts)
    number = np.empty(len(all_firsts), dtype=np.int64)
    number[by_reading] = np.arange(len(all_firsts))
    return number[ids], all_firsts[by_reading]
