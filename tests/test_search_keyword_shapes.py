"""Keyword index against the naive scorer on catalogues shaped unlike the course's (issue 16).

Names only, one-word and very long descriptions, one description on a thousand tools (ties
everywhere), names inside one another, every naming style (snake, camel, kebab, dotted, MCP's
`server__tool`), versions and numbers, terms inside other terms (`art` / `cart` / `start`), terms
shorter than, and exactly, a 3-character piece; compared on the whole ranking, not only the top 5.
"""

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolkit.search.keyword as keyword
from toolkit.search.keyword import KeywordIndex, naive_search
from toolkit.tools.reflect import ToolSpec

# small vocabulary, so that terms collide and overlap: pieces shorter than, equal to and longer
# than 3 characters, inside one another, in another case, versions and the separators of every style
ATOMS = [
    *["a", "ar", "art", "cart", "start", "Art", "ART", "sta"],
    *["v2", "1.0", "ipv6", "6", "v", "10"],
    *["github", "issues", "create", "Issues", "Create"],
    *["_", "__", "-", ".", " ", "(", ")"],
]
piece = st.lists(st.sampled_from(ATOMS), min_size=1, max_size=4).map("".join)
text = st.lists(st.sampled_from(ATOMS), max_size=12).map("".join)


def full_ranking(index, specs, terms, minimum):
    """Every tool that scores, as the index and the naive scorer rank them, and the top one alone."""
    everything = len(specs) + 2  # past the catalogue's end
    for n in (everything, 5, 1):
        assert index.search(terms, n, minimum) == naive_search(terms, specs, n, minimum), (terms, n, minimum)


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    kinds=st.lists(st.tuples(text, st.none() | text), min_size=1, max_size=6),
    copies=st.integers(1, 120),
    queries=st.lists(st.lists(piece, min_size=1, max_size=8), min_size=1, max_size=4),
    minimum=st.integers(0, 3),
    low_thresholds=st.booleans(),
)
def test_small_vocabularies_rank_every_tool_as_the_naive_scorer(kinds, copies, queries, minimum, low_thresholds):
    """A few kinds of tool, each copied up to 120 times (names alike or numbered): runs held by many
    texts get bit sets, short pieces many texts hold are cached, long queries' words go together;
    with thresholds low enough that a small catalogue crosses lists in several rounds, and weighs reading
    a mixed term's texts with `in`, as well."""
    specs = [
        ToolSpec(name + (f"_{i}" if i % 3 else ""), description) for i in range(copies) for name, description in kinds
    ]
    with pytest.MonkeyPatch.context() as patch:
        if low_thresholds:
            patch.setattr(keyword, "_BATCHED_FROM", 1)
            patch.setattr(keyword, "_CROSSED_FROM", 2)
            patch.setattr(keyword, "_FEW", 1)
            patch.setattr(keyword, "_ALONE_FROM", 3)
            patch.setattr(keyword, "_READ_FROM", 0)
            patch.setattr(keyword, "_READ_RUNS", 1)
        index = KeywordIndex(specs)
        for terms in queries:
            full_ranking(index, specs, terms + [t.upper() for t in terms[:1]], minimum)


NAMES = [
    "github.issues.create",
    "github__issues_create",
    "githubIssuesCreate",
    "github-issues-create",
    "issues.create",
    "create",
    "art",
    "cart",
    "start",
    "start_cart",
    "ipv6_lookup",
    "ipv4_lookup",
    "api_v2",
    "api_v10",
    "release_1.0",
    "server__tool",
    "a",
]
QUERIES = [
    ["art"],
    ["ART"],
    ["ar"],
    ["rt"],
    ["a"],
    ["t"],
    ["cart", "art", "start"],
    ["art", "art", "Art "],
    ["github.issues"],
    ["issues.create"],
    ["s.c"],
    ["issuescreate"],
    ["__"],
    ["r__t"],
    ["_"],
    ["-"],
    ["."],
    ["v2"],
    ["v1"],
    ["1.0"],
    ["1"],
    ["ipv"],
    ["ipv6"],
    ["6_l"],
    ["github", "issues", "create", "cart", "start", "lookup", "release", "server"],
]


@pytest.mark.parametrize(
    "shape",
    ["names only", "one-word descriptions", "one description on 1,000 tools", "5,000-word descriptions"],
)
def test_catalogue_shapes_rank_every_tool_as_the_naive_scorer(shape):
    rng = random.Random(shape)
    words = [w for name in NAMES for w in name.replace(".", " ").replace("_", " ").replace("-", " ").split()]
    if shape == "names only":
        specs = [ToolSpec(name, "") for name in NAMES]
    elif shape == "one-word descriptions":
        specs = [ToolSpec(name, rng.choice(words)) for name in NAMES]
    elif shape == "one description on 1,000 tools":
        specs = [ToolSpec(f"{NAMES[i % len(NAMES)]}_{i}", "Create a GitHub issue (api v2, 1.0)") for i in range(1000)]
    else:
        specs = [ToolSpec(name, " ".join(rng.choices(words + NAMES, k=5000))) for name in NAMES]
    index = KeywordIndex(specs)
    for terms in QUERIES:
        for minimum in (0, 1, 3):
            full_ranking(index, specs, terms, minimum)


def test_one_index_searched_from_two_threads_answers_each_as_alone():
    """The index caches short pieces many texts hold on first use: threads asking at once agree with the naive scorer."""
    specs = [ToolSpec(f"{NAMES[i % len(NAMES)]}_{i}", NAMES[(i * 7) % len(NAMES)]) for i in range(3000)]
    index = KeywordIndex(specs)
    wrong: list[list[str]] = []

    def search(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(60):
            terms = rng.sample(QUERIES, rng.randint(1, 3))
            flat = [t for query in terms for t in query]
            if index.search(flat, 10) != naive_search(flat, specs, 10):
                wrong.append(flat)

    threads = [threading.Thread(target=search, args=(seed,)) for seed in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


def test_the_index_is_a_snapshot_the_catalogue_changing_afterwards_changes_no_answer():
    """Tools added, removed or renamed in the list the index was built from leave the index as built;
    its own list of specs cannot be changed (appending to it made text n the new tool's name: every
    description hit of tool 0 went to the new tool, and the scores' shapes no longer agreed)."""
    specs = [ToolSpec(name, f"{name} tool") for name in NAMES]
    built = list(specs)
    index = KeywordIndex(specs)
    specs.append(ToolSpec("cart_admin", "art"))
    specs[0] = ToolSpec("renamed", "nothing")
    del specs[5]
    for terms in QUERIES:
        full_ranking(index, built, terms, 1)
    with pytest.raises(AttributeError):
        index.specs.append(ToolSpec("cart_admin", "art"))  # type: ignore[attr-defined]
    assert index.search(["cart"], 50) == naive_search(["cart"], built, 50)


def test_an_index_shown_in_a_notebook_names_its_tools_and_no_address():
    specs = [ToolSpec(name=f"tool_{i}", description="d", parameters={"type": "object"}) for i in range(7)]
    assert repr(KeywordIndex(specs[:1])) == "KeywordIndex(1 tool: tool_0)"
    assert repr(KeywordIndex(specs)) == "KeywordIndex(7 tools: tool_0, tool_1, tool_2, tool_3, tool_4 and 2 more)"
    assert repr(KeywordIndex([])) == "KeywordIndex(0 tools)"
