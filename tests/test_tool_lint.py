"""Lint warnings: missing and vague descriptions, meaningless names, overlapping tools."""

from toolkit.tools.lint import LintWarning, lint_tools, overlap, words
from toolkit.tools.reflect import ToolSpec


def spec(name, description, **props):
    parameters = {"type": "object", "properties": props} if props else None
    return ToolSpec(name, description, parameters)


GOOD = spec(
    "query_order",
    "Look up one order by its id and return its status and total.",
    orderId={"type": "string", "description": "e.g. SN202610200001"},
)


def test_a_good_spec_has_no_warnings():
    assert lint_tools([GOOD]) == []


def test_missing_and_vague_descriptions():
    assert lint_tools([spec("a", ""), spec("b", "Query data."), spec("c", "查询数据")]) == [
        LintWarning("a", "a has no description; the model has only its name to go on"),
        LintWarning(
            "b", "b: the description 'Query data.' is too vague; say what it does, when to use it, and what it returns"
        ),
        LintWarning(
            "c", "c: the description '查询数据' is too vague; say what it does, when to use it, and what it returns"
        ),
    ]
    assert lint_tools([spec("d", "根据订单号查询订单的状态和金额")]) == []


def test_parameter_names_and_descriptions():
    s = spec("t", GOOD.description, arg0={"type": "string", "description": "x"}, city={"type": "string"})
    assert lint_tools([s]) == [
        LintWarning("t", "t.arg0: the name 'arg0' says nothing about the value; name it for what it holds"),
        LintWarning("t", "t.city has no description; say what it is and in which format"),
    ]


def test_overlapping_descriptions():
    a = spec("query_order", "Look up an order by its id and return the order status.")
    b = spec("query_order_status", "Look up the status of an order by its id.")
    c = spec("get_weather", "Weather forecast for a city, one line per day.")
    warnings = lint_tools([a, b, c])
    assert warnings == [
        LintWarning(
            "query_order, query_order_status",
            "the descriptions of query_order and query_order_status share 83% of their words; say when to use each",
        )
    ]


def test_words_and_overlap():
    assert words("Look up THE order, 订单状态") == {"look", "up", "order", "订单", "单状", "状态"}
    assert overlap("", "x") == 0.0 and overlap("a b", "a b") == 1.0


def test_boolean_property_schemas_read_as_undescribed_instead_of_crashing():
    """`{"a": true}` (any value) and `{"b": false}` (none) are valid JSON Schema; lint raised AttributeError."""
    s = ToolSpec("t", GOOD.description, {"type": "object", "properties": {"city": True, "zone": False}})
    assert lint_tools([s]) == [
        LintWarning("t", "t.city has no description; say what it is and in which format"),
        LintWarning("t", "t.zone has no description; say what it is and in which format"),
    ]
    odd = ToolSpec("u", GOOD.description, {"type": "object", "properties": ["city"]})
    assert lint_tools([odd]) == []


def test_specs_in_their_openai_form_or_as_tools_are_linted_too():
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import tools_from

    @tool(GOOD.description)
    def lookup(city: str) -> str:
        return city

    (as_tool,) = tools_from(lookup)
    expected = [LintWarning("lookup", "lookup.city has no description; say what it is and in which format")]
    assert lint_tools([as_tool]) == expected
    assert lint_tools([as_tool.spec.to_openai()]) == expected


def test_what_is_not_a_spec_is_a_developer_error_naming_the_forms():
    import pytest

    from toolkit.errors import ConfigurationError, ToolDefinitionError

    with pytest.raises(ConfigurationError) as raised:
        lint_tools(["lookup"])
    assert str(raised.value) == (
        'lint_tools: got str; give it ToolSpecs (tool.spec), Tools, or tools in their OpenAI form ({"type": '
        '"function", "function": {...}})'
    )
    with pytest.raises(ToolDefinitionError) as raised:
        lint_tools([{"function": {"description": "no name"}}])
    assert str(raised.value) == (
        "ToolSpec.from_openai: a mapping with the keys 'function' is not a tool in its OpenAI form (it has no "
        'function name). Fix: write it as {"type": "function", "function": {"name": "...", "description": "...", '
        '"parameters": {...}}}'
    )


def _plain_overlaps(specs):
    """The overlap warnings as every pair of tools compared in turn gives them (the plain definition)."""
    from itertools import combinations

    from toolkit.tools import lint

    return [
        LintWarning(
            f"{a.name}, {b.name}",
            f"the descriptions of {a.name} and {b.name} share {share:.0%} of their words; say when to use each",
        )
        for a, b in combinations(specs, 2)
        if (share := lint._jaccard(words(a.description), words(b.description))) >= lint.OVERLAP
    ]


def test_a_small_catalogue_gets_every_overlap_in_pair_order():
    """Tools grouped by their words and compared where they share a rare word give the warnings (and their
    order) every pair compared in turn gives, on catalogues of alike, equal and empty descriptions."""
    import random

    pieces = ["order", "status", "look up", "refund", "parcel", "city", "weather", "订单状态", "the", "id", "", "of an"]
    for seed in range(400):
        rng = random.Random(seed)
        specs = [
            spec(f"t{i}", " ".join(rng.choice(pieces) for _ in range(rng.randrange(0, 6))))
            for i in range(rng.randrange(0, 12))
        ]
        overlaps = [w for w in lint_tools(specs) if "share" in w.message]
        assert overlaps == _plain_overlaps(specs), [s.description for s in specs]


def test_a_large_catalogue_of_alike_tools_is_compared_by_group_and_its_overlaps_capped(monkeypatch):
    """2,000 tools of one description were compared pair by pair (two million comparisons, ~23 s) into two
    million warnings. Now tools of the same words are one group (no comparison among them), groups are
    compared only where they share a rare word, the first PAIRS_LISTED overlaps are listed, and one more
    warning counts the rest."""
    from toolkit.tools import lint

    compared = []
    plain_jaccard = lint._jaccard
    monkeypatch.setattr(lint, "_jaccard", lambda a, b: compared.append(1) or plain_jaccard(a, b))
    alike = [spec(f"t{i}", "Look up the status of an order by its id.") for i in range(2000)]
    other = [spec(f"w{i}", f"Weather{i} forecast{i} for city{i}, one line{i} per day.") for i in range(300)]
    overlaps = [w for w in lint_tools(alike + other) if w.tool.startswith("t") or not w.tool]
    assert len(compared) < 1000
    assert len(overlaps) == lint.PAIRS_LISTED + 1
    assert overlaps[:2] == [
        LintWarning("t0, t1", "the descriptions of t0 and t1 share 100% of their words; say when to use each"),
        LintWarning("t0, t2", "the descriptions of t0 and t2 share 100% of their words; say when to use each"),
    ]
    pairs = 2000 * 1999 // 2
    assert overlaps[-1] == LintWarning(
        "",
        f"… and {pairs - lint.PAIRS_LISTED:,} more pairs of tools whose descriptions share {lint.OVERLAP:.0%} of "
        "their words or more; say when to use each",
    )


def test_catalogues_alike_but_for_words_of_their_own_get_the_plain_warnings_and_count(monkeypatch):
    """Tools alike but for a word or two of their own (`variant 17`), in kinds sharing some words, with
    repeats and empty descriptions: the warnings, their order, and the count of the rest are what comparing
    every pair gives (PAIRS_LISTED made small, so the count is reached)."""
    import random

    from toolkit.tools import lint

    monkeypatch.setattr(lint, "PAIRS_LISTED", 9)
    base = ["order", "status", "parcel", "refund", "city", "weather", "订单状态", "look", "shop", "day"]
    for seed in range(50):
        rng = random.Random(seed)
        kinds = [rng.sample(base, rng.randrange(0, 6)) for _ in range(rng.randrange(1, 4))]
        specs = []
        for i in range(rng.randrange(0, 30)):
            own = [f"w{rng.randrange(40)}" for _ in range(rng.randrange(0, 3))]
            specs.append(spec(f"t{i}", " ".join(rng.choice(kinds) + own)))
        plain = _plain_overlaps(specs)
        expected = plain[:9]
        if len(plain) > 9:
            more = f"… and {len(plain) - 9:,} more pairs of tools whose descriptions share 50% of their words or more"
            expected.append(LintWarning("", f"{more}; say when to use each"))
        overlaps = [w for w in lint_tools(specs) if "share" in w.message]
        assert overlaps == expected, [s.description for s in specs]


def test_two_thousand_tools_alike_but_for_a_word_of_their_own_are_compared_once(monkeypatch):
    """2,000 tools of one description but for a variant word each (a generated catalogue) were compared pair
    by pair: two million comparisons (~10 s). They are one kind now: one comparison stands for every pair."""
    from toolkit.tools import lint

    compared = []
    plain_jaccard = lint._jaccard
    monkeypatch.setattr(lint, "_jaccard", lambda a, b: compared.append(1) or plain_jaccard(a, b))
    specs = [
        spec(f"t{i}", f"Look up the delivery status of an order by its number, variant v{i}.") for i in range(2000)
    ]
    overlaps = [w for w in lint_tools(specs) if not w.tool or "share" in w.message]
    assert len(compared) <= 2
    assert overlaps[0] == LintWarning(
        "t0, t1", "the descriptions of t0 and t1 share 78% of their words; say when to use each"
    )
    assert overlaps[-1].message.startswith(f"… and {2000 * 1999 // 2 - lint.PAIRS_LISTED:,} more pairs")
