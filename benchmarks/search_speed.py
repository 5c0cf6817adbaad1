"""Tool search speed: keyword search at 1k / 10k / 100k tools against `bm25s`, and vector search latency.

    python benchmarks/search_speed.py            # the course's static model
    python benchmarks/search_speed.py --minilm   # also the full MiniLM (optional extra 'embeddings')
    python benchmarks/search_speed.py --quick    # 1k and 10k only
    python benchmarks/search_speed.py --only "8-12 words" --only "100,000"  # the rows whose label has one of these

Catalogues of 1,000 to 100,000 tools are the course catalogue plus copies prefixed with a
system name (`scaled_catalog`), like many connected systems.

**Keyword workload** (anyone's, not only ours): 400 seeded random queries of 1–4 words drawn
from the catalogue's 200 most frequent words ("the", "a", "order", "customer", … — terms that
match thousands of tools), 20 queries of words that match nothing, and the catalogue's 70
labelled queries. Every scorer runs the same queries, interleaved, 5 times; the median counts.

- `toolkit.KeywordIndex`: index build, µs per query (a new index each repetition, so each
  pass starts with no terms kept: a term the pass asked for before adds what it added then,
  as a query cache does); top 5 compared with the naive scorer (`naive_search`, LangChain4j's
  rules written out) on every query. The same queries on an index that keeps no terms
  (`cache_bytes=0`: every term looked up as if new) are printed too, for information.
- `bm25s` (a fast BM25 library; a peer, never a dependency): corpus tokenisation + index build,
  µs per query including the query's tokenisation, k = 5. Skipped with a message if absent:
  `python3 -m venv /tmp/peers && /tmp/peers/bin/pip install bm25s`, then run this script with
  `PYTHONPATH=. /tmp/peers/bin/python` (with the package's own dependencies installed there too).
- the naive scorer itself, on a sample of the queries, for scale.

The same at 10,000 tools on catalogues and queries unlike the course's (`other_catalogues`):
Chinese descriptions without spaces, identifiers and version numbers, short descriptions over a
Zipfian 30,000-word vocabulary, 200–300-word descriptions, and the course catalogue queried with
punctuation and multi-word terms ("e.g.", "(jira", "a-z", "order the customer"), with pieces cut
anywhere from its descriptions ("r the c"), with terms of 1–2 characters ("e", "t ", "("), and
OpenAPI operations (`getOrderUserById`, `list_invoices_v2`, `GET /v1/orders/{orderId}/items — …`)
queried with 1–4 words and with 8–12 words (bm25s's cost grows slowly with the query's length; the
index looks a long query's words up together, a few dozen NumPy calls for all of them).
Since the fifty-fourth session, also: names only (no descriptions), one word ("api") in every tool,
descriptions of 1–2 words, queries of 10–30 and of 60–120 words, one word repeated in other cases,
descriptions and queries upper-cased, accented, full-width or decomposed (NFD), versions and dates
("v2", "3.11", "2024-05"), emoji, CJK words mixed into English, snake_case / camelCase / hyphenated
identifiers, and OpenAPI operation ids queried with their pieces.

Targets at 10,000 tools, on every catalogue: per query ≤ 0.5× bm25s (or ≤ 300 µs); build ≤
bm25s's build; top 5 identical to the naive scorer on every query. Each is printed as met / not
met.

Vector: µs per query *excluding* the query's embedding (matrix product + top 5), the query
embedding on its own, and the time to embed the whole catalogue once (then it is cached).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import accumulate
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


def wanted(label: str, only: Sequence[str]) -> bool:
    """Whether a row is run: every row when `only` is empty, else those whose label contains one of its texts."""
    return not only or any(text in label for text in only)


def keyword(catalog: Any, sizes: Sequence[int], only: Sequence[str] = ()) -> None:
    labelled = [q.terms for q in catalog.queries]
    for size in sizes:
        label = f"keyword {size:>7,} tools"
        if wanted(label, only):
            specs = scaled_catalog(catalog.tools, size)
            compare(label, specs, keyword_queries(specs, labelled), size == TARGET_SIZE)


def compare(label: str, specs: Sequence[ToolSpec], queries: Sequence[list[str]], target: bool) -> None:
    """Build and query `KeywordIndex` and bm25s interleaved; print the medians (and the targets)."""
    builds, peer_builds = [], []
    ours, cold, peers = [], [], []
    peer = None
    uncached = KeywordIndex(specs, cache_bytes=0)  # every term looked up as if new
    for _ in range(REPEAT):  # interleaved: each repetition builds and queries both
        index, build_ms = timed(lambda: KeywordIndex(specs))
        builds.append(build_ms)
        ours.append(time_queries(index.search, queries))
        cold.append(time_queries(uncached.search, queries))
        peer = bm25s_peer(specs)
        if peer is not None:
            peer_builds.append(peer[1])
            peers.append(time_queries(peer[0], queries))
    sample = queries[:: max(1, len(queries) // (40 if len(specs) <= 10_000 else 8))]
    naive = time_queries(lambda q: naive_search(q, specs), sample)
    same = sum(index.search(q) == naive_search(q, specs) for q in queries)
    build, per_query = statistics.median(builds), statistics.median(ours)
    print(
        f"{label}: toolkit build {build:7.0f} ms, {per_query:6.0f} µs/query | "
        f"naive scorer {naive:8.0f} µs/query | top 5 identical to naive on {same}/{len(queries)} queries"
    )
    every_term_new = statistics.median(cold)
    if peer is None:
        print("    bm25s: not installed, skipped (see the docstring)")
        print(f"    toolkit with no terms kept (cache_bytes=0): {every_term_new:6.0f} µs/query")
    else:
        peer_build, peer_query = statistics.median(peer_builds), statistics.median(peers)
        print(f"    bm25s: build {peer_build:7.0f} ms, {peer_query:6.0f} µs/query")
        print(
            f"    toolkit with no terms kept (cache_bytes=0): {every_term_new:6.0f} µs/query, "
            f"{every_term_new / peer_query:.2f}× bm25s (for information: the targets are the default's)"
        )
    if target:
        targets(per_query, build, same == len(queries), None if peer is None else (peer_build, peer_query))


# --- other catalogues and queries at 10,000 tools: text the course catalogue does not look like ---


def zipf(words: Sequence[str], rng: random.Random, s: float = 1.1) -> Callable[[int], list[str]]:
    """Draws `k` words with Zipf's law: the i-th word `1 / i**s` as likely as the first."""
    weights = list(accumulate(1 / (i + 1) ** s for i in range(len(words))))
    return lambda k: rng.choices(words, cum_weights=weights, k=k)


def vocabulary(n: int, rng: random.Random) -> list[str]:
    """`n` made-up words of 2–4 syllables (a large vocabulary, like a big API's)."""
    syllables = "ka to ri ne sa mo lu pe chi tra ion ing er st an or de ve con pro".split()
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choices(syllables, k=rng.randint(2, 4))))
    return sorted(words)


def frequent_queries(specs: Sequence[ToolSpec], rng: random.Random) -> list[list[str]]:
    words = frequent_words(specs)
    return [rng.sample(words, rng.randint(1, 4)) for _ in range(400)] + [["qxzjq"]] * 20


def chinese(rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Chinese descriptions without spaces (a whole clause is one run of letters); queries are 1–4
    character pieces of them."""
    draw = zipf([chr(c) for c in range(0x4E00, 0x4E00 + 3000)], rng, 1.0)

    def clause(k: int) -> str:
        return "".join(draw(k))

    specs = [
        ToolSpec(
            f"tool_{i}_{clause(2)}", "，".join(clause(rng.randint(8, 20)) for _ in range(rng.randint(2, 5))) + "。"
        )
        for i in range(TARGET_SIZE)
    ]
    queries = []
    for _ in range(400):
        text = rng.choice(specs).description
        starts = [rng.randrange(max(1, len(text) - 4)) for _ in range(rng.randint(1, 3))]
        queries.append([text[j : j + rng.randint(1, 4)] for j in starts])
    return specs, queries


def identifiers(rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Ids, versions, ports and hex numbers: nearly every number is a new run."""
    specs = [
        ToolSpec(
            f"api_v{rng.randint(1, 9)}_{i}_endpoint",
            f"Calls endpoint /v{rng.randint(1, 3)}/items/{rng.randint(0, 10**6)} on port {rng.randint(1000, 65535)} "
            f"build {rng.randint(1, 99)}.{rng.randint(0, 99)}.{rng.randint(0, 999)} id {rng.getrandbits(48):x}",
        )
        for i in range(TARGET_SIZE)
    ]
    queries = [[str(rng.randint(0, 999))] for _ in range(200)]
    queries += [[f"v{rng.randint(1, 3)}", "items", str(rng.randint(0, 99))] for _ in range(100)]
    queries += [[f"/v{rng.randint(1, 3)}/items/"] for _ in range(100)]
    return specs, queries


def zipf_vocabulary(rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Short descriptions over a 30,000-word vocabulary drawn with Zipf's law."""
    draw = zipf(vocabulary(30_000, rng), rng)
    specs = [ToolSpec("_".join(draw(3)), " ".join(draw(rng.randint(3, 12)))) for _ in range(TARGET_SIZE)]
    return specs, frequent_queries(specs, rng)


def long_descriptions(rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Descriptions of 200–300 words (30,000-word Zipf vocabulary); queries of frequent and rarer words."""
    draw = zipf(vocabulary(30_000, rng), rng)
    specs = [ToolSpec("_".join(draw(3)), " ".join(draw(rng.randint(200, 300)))) for _ in range(TARGET_SIZE)]
    counts = Counter(w for s in specs for w in s.description.split())
    rarer = [w for w, _ in counts.most_common(5_000)[1_000:]]
    return specs, frequent_queries(specs, rng) + [rng.sample(rarer, rng.randint(1, 4)) for _ in range(100)]


def punctuation(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """The course catalogue, queried with punctuation and multi-word terms ("e.g.", "(jira", "order the")."""
    specs = scaled_catalog(catalog.tools, TARGET_SIZE)
    marks = ["(", ")", "-", ".", ",", "'", "/", "_", "e.g.", "(jira", "id)", "a-z"]
    words = frequent_words(specs)
    queries = [rng.choices(marks, k=rng.randint(1, 4)) for _ in range(300)]
    queries += [[" ".join(rng.sample(words, rng.randint(2, 3))) for _ in range(rng.randint(1, 3))] for _ in range(100)]
    return specs, queries


def spans(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """The course catalogue, queried with 2–12 characters cut anywhere from its descriptions ("r the c",
    "ts. s"): terms that cross word boundaries and punctuation, most of them mixed."""
    specs = scaled_catalog(catalog.tools, TARGET_SIZE)
    queries = []
    for _ in range(300):
        cut = []
        for _ in range(rng.randint(1, 3)):
            text = rng.choice(specs).description.lower()
            start = rng.randrange(max(1, len(text) - 2))
            cut.append(text[start : start + rng.randint(2, 12)])
        queries.append(cut)
    return specs, queries


def short_terms(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """The course catalogue, queried with terms of 1–2 letters, digits or marks ("e", "t ", "(", "0"): most
    match thousands of tools."""
    specs = scaled_catalog(catalog.tools, TARGET_SIZE)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 .-_(),/"

    def term() -> str:
        return "".join(rng.choices(alphabet, k=rng.randint(1, 2)))

    return specs, [[term() for _ in range(rng.randint(1, 4))] for _ in range(300)]


RESOURCES = (
    "user order invoice payment customer product account subscription refund shipment webhook token session "
    "report file message channel team project issue comment label release deployment secret key role permission "
    "group event log metric alert dashboard pipeline job build artifact repository branch"
).split()
OPERATIONS = [
    ("get", "GET", "Retrieves"),
    ("list", "GET", "Lists"),
    ("create", "POST", "Creates"),
    ("update", "PUT", "Updates"),
    ("patch", "PATCH", "Partially updates"),
    ("delete", "DELETE", "Deletes"),
    ("search", "GET", "Searches"),
    ("archive", "POST", "Archives"),
    ("export", "GET", "Exports"),
    ("sync", "POST", "Synchronises"),
]


def openapi_operations(rng: random.Random) -> list[ToolSpec]:
    """Operations as OpenAPI generators name them: camelCase (`getOrderUserById`, one run of letters),
    snake_case with versions (`list_invoices_v2`), dotted (`order.getUser`); a method, a path with
    `{placeholders}`, an em dash and a back-quoted scope in each description (not ASCII)."""
    specs = []
    for i in range(TARGET_SIZE):
        verb, method, doing = rng.choice(OPERATIONS)
        owner, resource = rng.sample(RESOURCES, 2)
        version, plural = rng.randint(1, 4), resource + "s"
        style = rng.random()
        if style < 0.4:
            words = [verb, owner, resource, "by", "id"] if rng.random() < 0.5 else [verb, plural]
            name = words[0] + "".join(w.title() for w in words[1:])
        elif style < 0.8:
            name = f"{verb}_{plural}_v{version}"
        else:
            name = f"{owner}.{verb}{resource.title()}"
        name = f"{name}_{i}" if rng.random() < 0.3 else name
        path = f"/v{version}/{owner}s/{{{owner}Id}}/{plural}"
        path += f"/{{{resource}_id}}" if verb in ("get", "update", "delete", "patch") else ""
        scope = f"{owner}:{'read' if method == 'GET' else 'write'}"
        specs.append(
            ToolSpec(name, f"{method} {path} — {doing} the {resource} of a {owner}. Requires scope `{scope}`.")
        )
    return specs


def openapi(rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """OpenAPI operations queried with 1–4 words, whole operation names and paths."""
    specs = openapi_operations(rng)
    words = RESOURCES + [verb for verb, _, _ in OPERATIONS] + ["id", "by", "v1", "v2", "{id}", "/v1/orders"]
    queries = [rng.sample(words, rng.randint(1, 4)) for _ in range(300)]
    queries += [[rng.choice(specs).name] for _ in range(50)]
    queries += [[rng.choice(specs).description.split(" ")[1]] for _ in range(50)]
    return specs, queries


def openapi_long_queries(rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """OpenAPI operations queried with 8–12 of the catalogue's 1,000 most frequent words (a model that
    lists every word of the request)."""
    specs = openapi_operations(rng)
    words = frequent_words(specs, 1_000)
    return specs, [rng.sample(words, rng.randint(8, 12)) for _ in range(300)]


# --- kinds of the fifty-fourth session: a stranger's catalogues and queries, on the course catalogue's text ---


def course(catalog: Any) -> list[ToolSpec]:
    return scaled_catalog(catalog.tools, TARGET_SIZE)


def names_only(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Tool names only, every description empty."""
    specs = [ToolSpec(s.name, "") for s in course(catalog)]
    return specs, frequent_queries(specs, rng)


def common_word(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """One word ("api") in every name and twice in every description, and in half the queries."""
    specs = [ToolSpec(f"{s.name}_api", f"API: {s.description} via the api") for s in course(catalog)]
    queries = frequent_queries(specs, rng)
    return specs, queries + [["api", *terms] for terms in queries[:200]]


def two_words(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Descriptions of 1-2 of the catalogue's 400 most frequent words."""
    words = frequent_words(course(catalog), 400)
    specs = [ToolSpec(s.name, " ".join(rng.sample(words, rng.randint(1, 2)))) for s in course(catalog)]
    return specs, frequent_queries(specs, rng)


def many_words(low: int, high: int) -> Callable[[Any, random.Random], tuple[list[ToolSpec], list[list[str]]]]:
    """The course catalogue queried with `low` to `high` of its 1,000 most frequent words."""

    def make(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
        specs = course(catalog)
        words = frequent_words(specs, 1_000)
        return specs, [rng.sample(words, rng.randint(low, high)) for _ in range(300 if high <= 30 else 60)]

    return make


def one_word_repeated(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """The course catalogue queried with one frequent word 2-12 times, in other cases and spacing."""
    specs, words = course(catalog), frequent_words(course(catalog))
    queries = []
    for _ in range(300):
        w = rng.choice(words)
        queries.append([rng.choice([w, w.upper(), w.title(), f" {w} ", f"{w} {w}"]) for _ in range(rng.randint(2, 12))])
    return specs, queries


def full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def accented(text: str) -> str:
    return text.replace("e", "é").replace("o", "ö").replace("a", "à")


def letter_forms(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Descriptions upper-cased, accented, full-width or decomposed (NFD: a letter and a combining mark,
    two runs), and queries in the same forms."""
    forms: list[Callable[[str], str]] = [
        str.upper,
        accented,
        full_width,
        lambda t: unicodedata.normalize("NFD", accented(t)),
        lambda t: t,
    ]
    specs = [ToolSpec(s.name, rng.choice(forms)(s.description)) for s in course(catalog)]
    words = frequent_words(course(catalog))
    return specs, [[rng.choice(forms)(w) for w in rng.sample(words, rng.randint(1, 4))] for _ in range(300)]


def versions(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Versions and dates in names and descriptions ("v2", "3.11", "2024-05"), queried with them."""
    specs = []
    for s in course(catalog):
        v = f"v{rng.randint(1, 4)}"
        specs.append(
            ToolSpec(
                f"{s.name}_{v}",
                f"{s.description} Requires Python 3.{rng.randint(8, 13)}+, API {v}, release "
                f"{rng.randint(1, 3)}.{rng.randint(0, 20)}.{rng.randint(0, 9)} (2024-{rng.randint(1, 12):02d})",
            )
        )
    terms = "v1 v2 v3 3.11 3.12 2024 1.0 2.1 release python api 0 1 11 -0 (2024-0".split()
    return specs, [rng.sample(terms, rng.randint(1, 4)) for _ in range(300)]


EMOJI = ["🚀", "📦", "✅", "❌", "🔥", "👨\u200d👩\u200d👧", "🏳️\u200d🌈", "⚠️", "💳", "📧"]


def emoji(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Emoji around each description (some joined sequences), queried with emoji and words."""
    specs = [
        ToolSpec(s.name, f"{rng.choice(EMOJI)} {s.description} {rng.choice(EMOJI)}{rng.choice(EMOJI)}")
        for s in course(catalog)
    ]
    pool = EMOJI + frequent_words(course(catalog), 50)
    return specs, [[rng.choice(pool) for _ in range(rng.randint(1, 4))] for _ in range(300)]


CJK = "订单 查询 客户 发票 付款 退款 物流 用户 创建 删除 更新 列表 注文 検索 顧客 取得 주문 검색".split()


def cjk_and_latin(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Chinese, Japanese and Korean words mixed into English descriptions, some glued to the next word
    or written without spaces; queries of either, or both glued ("订单order")."""
    specs = []
    for s in course(catalog):
        out = []
        for w in s.description.split():
            out.append(w)
            if rng.random() < 0.3:
                out.append(rng.choice(CJK) + (w if rng.random() < 0.5 else ""))
        specs.append(ToolSpec(s.name, ("" if rng.random() < 0.3 else " ").join(out)))
    pool = CJK + frequent_words(course(catalog), 60)
    queries = [
        [rng.choice(pool) + (rng.choice(pool) if rng.random() < 0.3 else "") for _ in range(rng.randint(1, 4))]
        for _ in range(300)
    ]
    return specs, queries


def camel(words: Sequence[str]) -> str:
    return words[0] + "".join(w.title() for w in words[1:])


def identifier_styles(catalog: Any, rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """Names and descriptions of snake_case, camelCase and hyphenated identifiers, queried with them,
    their words, or a word and its `_` or `-`."""
    words = [w for w in frequent_words(course(catalog), 300) if len(w) > 2]

    def ident(ws: list[str]) -> str:
        return rng.choice([camel(ws), "_".join(ws), "-".join(ws)])

    specs = [
        ToolSpec(
            f"{ident(rng.sample(words, rng.randint(2, 4)))}_{i}",
            " ".join(ident(rng.sample(words, 2)) for _ in range(rng.randint(2, 8))),
        )
        for i in range(TARGET_SIZE)
    ]
    queries = []
    for _ in range(300):
        ws = rng.sample(words, 2)
        queries.append(
            rng.choice([[camel(ws)], ["_".join(ws)], ["-".join(ws)], ws, [camel(ws).lower()], [ws[0] + "_"]])
        )
    return specs, queries


def openapi_ids(rng: random.Random) -> tuple[list[ToolSpec], list[list[str]]]:
    """OpenAPI operations queried with the pieces of their operation ids ("get", "user", "by") and with
    the first 3-12 characters of an id."""
    specs = openapi_operations(rng)
    ids = [s.name for s in specs]
    pieces = sorted({p.lower() for n in ids for p in re.findall(r"[A-Z]?[a-z]+|\d+", n)})
    queries = [rng.sample(pieces, rng.randint(1, 4)) for _ in range(200)]
    return specs, queries + [[rng.choice(ids)[: rng.randint(3, 12)]] for _ in range(100)]


def row_labels(sizes: Sequence[int]) -> list[str]:
    """The labels of the keyword rows a run at these sizes measures, in order (what `--only` picks from)."""
    return [f"keyword {size:>7,} tools" for size in sizes] + [other_row(kind) for kind in OTHER_KINDS]


def other_row(kind: str) -> str:
    """The label of the row of one other catalogue kind."""
    return f"keyword {TARGET_SIZE:,} tools, {kind}"


OTHER_KINDS = (
    "Chinese descriptions, no spaces",
    "identifiers, versions, ports, hex",
    "Zipf vocabulary of 30,000 words",
    "long descriptions (200-300 words)",
    "punctuation and multi-word terms",
    "pieces cut across words",
    "terms of 1-2 characters",
    "OpenAPI operations",
    "OpenAPI operations, queries of 8-12 words",
    "names only, no descriptions",
    "one word in every tool",
    "descriptions of 1-2 words",
    "queries of 10-30 words",
    "queries of 60-120 words",
    "one word repeated in other cases",
    "upper-case, accented, full-width, decomposed",
    "versions and dates",
    "emoji",
    "CJK mixed with Latin",
    "snake_case, camelCase, hyphenated identifiers",
    "OpenAPI operation ids and their pieces",
)
"""The other catalogue kinds, in the order their rows run."""


def other_catalogues(catalog: Any, only: Sequence[str] = ()) -> None:
    kinds = {
        "Chinese descriptions, no spaces": chinese,
        "identifiers, versions, ports, hex": identifiers,
        "Zipf vocabulary of 30,000 words": zipf_vocabulary,
        "long descriptions (200-300 words)": long_descriptions,
        "punctuation and multi-word terms": lambda rng: punctuation(catalog, rng),
        "pieces cut across words": lambda rng: spans(catalog, rng),
        "terms of 1-2 characters": lambda rng: short_terms(catalog, rng),
        "OpenAPI operations": openapi,
        "OpenAPI operations, queries of 8-12 words": openapi_long_queries,
        "names only, no descriptions": lambda rng: names_only(catalog, rng),
        "one word in every tool": lambda rng: common_word(catalog, rng),
        "descriptions of 1-2 words": lambda rng: two_words(catalog, rng),
        "queries of 10-30 words": lambda rng: many_words(10, 30)(catalog, rng),
        "queries of 60-120 words": lambda rng: many_words(60, 120)(catalog, rng),
        "one word repeated in other cases": lambda rng: one_word_repeated(catalog, rng),
        "upper-case, accented, full-width, decomposed": lambda rng: letter_forms(catalog, rng),
        "versions and dates": lambda rng: versions(catalog, rng),
        "emoji": lambda rng: emoji(catalog, rng),
        "CJK mixed with Latin": lambda rng: cjk_and_latin(catalog, rng),
        "snake_case, camelCase, hyphenated identifiers": lambda rng: identifier_styles(catalog, rng),
        "OpenAPI operation ids and their pieces": openapi_ids,
    }
    assert tuple(kinds) == OTHER_KINDS
    for label, make in kinds.items():
        row = other_row(label)
        if wanted(row, only):
            specs, queries = make(random.Random(1))
            compare(row, specs, queries, True)


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
    parser.add_argument(
        "--only", action="append", default=[], metavar="TEXT", help="only the keyword rows whose label contains TEXT"
    )
    args = parser.parse_args()
    sizes = SIZES[:2] if args.quick else SIZES
    labels = row_labels(sizes)
    if unknown := [text for text in args.only if not any(text in label for label in labels)]:
        rows = "; ".join(label.strip() for label in labels)
        parser.error(f"argument --only: no row's label contains {unknown[0]!r}; the rows: {rows}")
    catalog = load_catalog()
    keyword(catalog, sizes, args.only)
    other_catalogues(catalog, args.only)
    if not args.only:
        vector(catalog, StaticEmbeddings(), "static 64-d", sizes[:2])
    if args.minilm:
        from toolkit.search.embeddings import MiniLMEmbeddings

        vector(catalog, MiniLMEmbeddings(), "MiniLM", sizes[:2])


if __name__ == "__main__":
    main()
