"""Tool search speed: keyword search at 1k / 10k / 100k tools against `bm25s`, and vector search latency.

    python benchmarks/search_speed.py            # the course's static model
    python benchmarks/search_speed.py --minilm   # also the full MiniLM (optional extra 'embeddings')
    python benchmarks/search_speed.py --quick    # 1k and 10k only

Catalogues of 1,000 to 100,000 tools are the course catalogue plus copies prefixed with a
system name (`scaled_catalog`), like many connected systems.

**Keyword workload** (anyone's, not only ours): 400 seeded random queries of 1–4 words drawn
from the catalogue's 200 most frequent words ("the", "a", "order", "customer", … — terms that
match thousands of tools), 20 queries of words that match nothing, and the catalogue's 70
labelled queries. Every scorer runs the same queries, interleaved, 5 times; the median counts.

- `toolkit.KeywordIndex`: index build, µs per query; top 5 compared with the naive scorer
  (`naive_search`, LangChain4j's rules written out) on every query.
- `bm25s` (a fast BM25 library; a peer, never a dependency): corpus tokenisation + index build,
  µs per query including the query's tokenisation, k = 5. Skipped with a message if absent:
  `python3 -m venv /tmp/peers && /tmp/peers/bin/pip install bm25s`, then run this script with
  `PYTHONPATH=. /tmp/peers/bin/python` (with the package's own dependencies installed there too).
- the naive scorer itself, on a sample of the queries, for scale.

Targets at 10,000 tools: per query ≤ 0.5× bm25s (or ≤ 300 µs); build ≤ bm25s's build; top 5
identical to the naive scorer on every query. Each is printed as met / not met.

Vector: µs per query *excluding* the query's embedding (matrix product + top 5), the query
embedding on its own, and the time to embed the whole catalogue once (then it is cached).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from toolkit.search.catalog import load_catalog, scaled_catalog
from toolkit.search.embeddings import StaticEmbeddings, ToolEmbeddingCache
from toolkit.search.keyword import KeywordIndex, naive_search
from toolkit.search.vector import VectorIndex
from toolkit.tools.reflect import ToolSpec

SIZES = (1_000, 10_000, 100_000)
TARGET_SIZE = 10_000
REPEAT = 5


def frequent_words(specs: Sequence[ToolSpec], n: int = 200) -> list[str]:
    """The catalogue's `n` most frequent words (names split at `_`, descriptions at non-letters)."""
    counts = Counter(w for s in specs for w in re.findall(r"[^\W_]+", f"{s.name} {s.description}".lower()))
    return [w for w, _ in counts.most_common(n)]


def keyword_queries(specs: Sequence[ToolSpec], labelled: Sequence[Sequence[str]], seed: int = 7) -> list[list[str]]:
    rng = random.Random(seed)
    words = frequent_words(specs)
    common = [rng.sample(words, rng.randint(1, 4)) for _ in range(400)]
    nothing = [["".join(rng.choice("qxzj") for _ in range(rng.randint(4, 8)))] for _ in range(20)]
    return common + nothing + [list(terms) for terms in labelled]


def time_queries(fn: Callable[[Any], object], queries: Sequence[Any]) -> float:
    """Mean µs per query over one pass."""
    start = time.perf_counter()
    for q in queries:
        fn(q)
    return (time.perf_counter() - start) / len(queries) * 1e6


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn()
    return value, (time.perf_counter() - start) * 1e3


def bm25s_peer(specs: Sequence[ToolSpec]) -> tuple[Callable[[list[str]], object], float] | None:
    """bm25s's per-query function and its build time in ms, or None if it is not installed."""
    try:
        import bm25s
    except ImportError:
        return None
    corpus = [f"{s.name.replace('_', ' ')} {s.description}" for s in specs]

    def build() -> Any:
        retriever = bm25s.BM25()
        retriever.index(bm25s.tokenize(corpus, stopwords=None, show_progress=False), show_progress=False)
        return retriever

    retriever, build_ms = timed(build)

    def query(terms: list[str]) -> object:
        tokens = bm25s.tokenize([" ".join(terms)], stopwords=None, show_progress=False)
        if not tokens.vocab:  # bm25s refuses a query with no known word
            return []
        return retriever.retrieve(tokens, k=5, show_progress=False, n_threads=1)

    return query, build_ms


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def keyword(catalog: Any, sizes: Sequence[int]) -> None:
    labelled = [q.terms for q in catalog.queries]
    for size in sizes:
        specs = scaled_catalog(catalog.tools, size)
        queries = keyword_queries(specs, labelled)
        builds, peer_builds = [], []
        ours, peers = [], []
        peer = None
        for _ in range(REPEAT):  # interleaved: each repetition builds and queries both
            index, build_ms = timed(lambda specs=specs: KeywordIndex(specs))
            builds.append(build_ms)
            ours.append(time_queries(index.search, queries))
            peer = bm25s_peer(specs)
            if peer is not None:
                peer_builds.append(peer[1])
                peers.append(time_queries(peer[0], queries))
        sample = queries[:: max(1, len(queries) // (40 if size <= 10_000 else 8))]
        naive = time_queries(lambda q, specs=specs: naive_search(q, specs), sample)
        same = sum(index.search(q) == naive_search(q, specs) for q in queries)
        build, per_query = statistics.median(builds), statistics.median(ours)
        print(
            f"keyword {size:>7,} tools: toolkit build {build:7.0f} ms, {per_query:6.0f} µs/query | "
            f"naive scorer {naive:8.0f} µs/query | top 5 identical to naive on {same}/{len(queries)} queries"
        )
        if peer is None:
            print("    bm25s: not installed, skipped (see the docstring)")
        else:
            peer_build, peer_query = statistics.median(peer_builds), statistics.median(peers)
            print(f"    bm25s: build {peer_build:7.0f} ms, {peer_query:6.0f} µs/query")
        if size == TARGET_SIZE:
            targets(per_query, build, same == len(queries), None if peer is None else (peer_build, peer_query))


def targets(per_query: float, build: float, identical: bool, peer: tuple[float, float] | None) -> None:
    print(f"  targets at {TARGET_SIZE:,} tools:")
    print(f"    top 5 identical to the naive scorer on every query: {verdict(identical)}")
    if peer is None:
        print(f"    per query ≤ 300 µs: {per_query:.0f} µs → {verdict(per_query <= 300)} (bm25s absent: no ratios)")
        return
    peer_build, peer_query = peer
    ratio = per_query / peer_query
    print(
        f"    per query ≤ 0.5× bm25s or ≤ 300 µs: {ratio:.2f}× bm25s, {per_query:.0f} µs → "
        f"{verdict(ratio <= 0.5 or per_query <= 300)}"
    )
    print(f"    build ≤ bm25s's build: {build / peer_build:.2f}× → {verdict(build <= peer_build)}")


def vector(catalog: Any, model: Any, label: str, sizes: Sequence[int]) -> None:
    queries = [q.query for q in catalog.queries]
    for size in sizes:
        specs = scaled_catalog(catalog.tools, size)
        cache = ToolEmbeddingCache(model)
        index, embed_all = timed(lambda specs=specs, cache=cache: VectorIndex.build(specs, cache))
        vectors = [cache.query(q) for q in queries]
        search = statistics.median(time_queries(index.search, vectors) for _ in range(REPEAT))
        embed_query = statistics.median(time_queries(cache.query, queries) for _ in range(3))
        print(
            f"vector  {size:>7,} tools ({label}): embed catalogue {embed_all:7.0f} ms once | "
            f"{search:5.0f} µs/query without the query embedding | query embedding {embed_query:7.0f} µs"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minilm", action="store_true", help="also time the full MiniLM (optional extra)")
    parser.add_argument("--quick", action="store_true", help="1,000 and 10,000 tools only")
    args = parser.parse_args()
    sizes = SIZES[:2] if args.quick else SIZES
    catalog = load_catalog()
    keyword(catalog, sizes)
    vector(catalog, StaticEmbeddings(), "static 64-d", sizes[:2])
    if args.minilm:
        from toolkit.search.embeddings import MiniLMEmbeddings

        vector(catalog, MiniLMEmbeddings(), "MiniLM", sizes[:2])


if __name__ == "__main__":
    main()
