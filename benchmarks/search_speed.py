"""Tool search speed: keyword search at 1k and 10k tools, vector search latency, embedding time.

    python benchmarks/search_speed.py            # the course's static model
    python benchmarks/search_speed.py --minilm   # also the full MiniLM (optional extra 'embeddings')

Catalogues of 1,000 and 10,000 tools are the course catalogue plus copies prefixed with a
system name (`scaled_catalog`), like many connected systems. The queries are the catalogue's
70 labelled keyword queries plus 130 seeded random ones (words and word pieces).

Keyword: index build time, median µs per query, and whether the top 5 is identical to the
naive implementation of the same rules for every query. Target: ≤ 300 µs/query at 10k tools.
Vector: µs per query *excluding* the query's embedding (matrix product + top 5), the query
embedding on its own, and the time to embed the whole catalogue once (then it is cached).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from toolkit.search.catalog import load_catalog, scaled_catalog
from toolkit.search.embeddings import StaticEmbeddings, ToolEmbeddingCache
from toolkit.search.keyword import KeywordIndex, naive_search
from toolkit.search.vector import VectorIndex

SIZES = (1_000, 10_000)


def median_us(fn: Callable[[], object], items: list, repeat: int = 5) -> float:
    """Median over `repeat` passes of the mean µs per item."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        samples.append((time.perf_counter() - start) / len(items) * 1e6)
    return statistics.median(samples)


def keyword_queries(catalog) -> list[list[str]]:
    words = sorted({w for t in catalog.tools for w in (t.name.replace("_", " ") + " " + t.description).lower().split()})
    rng = random.Random(7)
    extra = [
        [w[: rng.randint(3, max(3, len(w)))] if rng.random() < 0.3 else w for w in rng.sample(words, rng.randint(1, 3))]
        for _ in range(130)
    ]
    return [list(q.terms) for q in catalog.queries] + extra


def keyword(catalog) -> None:
    queries = keyword_queries(catalog)
    for size in SIZES:
        specs = scaled_catalog(catalog.tools, size)
        start = time.perf_counter()
        index = KeywordIndex(specs)
        build = time.perf_counter() - start
        per_query = median_us(index.search, queries)
        naive = median_us(lambda q, specs=specs: naive_search(q, specs), queries[:40], repeat=1)
        same = all(index.search(q) == naive_search(q, specs) for q in queries)
        print(
            f"keyword {size:>6} tools: build {build * 1e3:6.0f} ms | {per_query:6.0f} µs/query "
            f"(naive {naive:7.0f}) | top-5 identical to naive on {len(queries)} queries: {same}"
        )


def vector(catalog, model, label: str) -> None:
    queries = [q.query for q in catalog.queries]
    for size in SIZES:
        specs = scaled_catalog(catalog.tools, size)
        cache = ToolEmbeddingCache(model)
        start = time.perf_counter()
        index = VectorIndex.build(specs, cache)
        embed_all = time.perf_counter() - start
        vectors = [cache.query(q) for q in queries]
        search = median_us(index.search, vectors)
        embed_query = median_us(cache.query, queries, repeat=3)
        print(
            f"vector  {size:>6} tools ({label}): embed catalogue {embed_all * 1e3:7.0f} ms once | "
            f"{search:5.0f} µs/query without the query embedding | query embedding {embed_query:7.0f} µs"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minilm", action="store_true", help="also time the full MiniLM (optional extra)")
    args = parser.parse_args()
    catalog = load_catalog()
    keyword(catalog)
    vector(catalog, StaticEmbeddings(), "static 64-d")
    if args.minilm:
        from toolkit.search.embeddings import MiniLMEmbeddings

        vector(catalog, MiniLMEmbeddings(), "MiniLM")


if __name__ == "__main__":
    main()
