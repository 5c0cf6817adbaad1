"""`toolkit.search`: what the indexes, strategies and `ToolSearch` accept when called directly.

A str as the terms was searched letter by letter ("order" found every tool with an o, r, d or e,
silently); None, a number, bytes or a non-str term failed deep inside with a raw `TypeError` /
`AttributeError`; a catalogue of the wrong shape (a spec alone, a str, a dict, functions, a set in
hash order) failed the same way or ranked ties in another order per process; `ToolSearch.index`
of a generator left the strategy an empty index; `ToolSearch(KeywordSearch)` (the class) and
`VectorSearch(model="...")` were accepted and failed at the first search. Each is now a
`ConfigurationError` naming the fix, raised at the call or at construction."""

import pytest

from toolkit.errors import ConfigurationError
from toolkit.search.catalog import Catalog, LabelledQuery, evaluate
from toolkit.search.keyword import KeywordIndex, KeywordSearch, Match, naive_search
from toolkit.search.tool import ToolSearch
from toolkit.search.vector import VectorSearch
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from
from toolkit.tools.reflect import ToolSpec

SPECS = [ToolSpec("query_order", "Look an order up"), ToolSpec("refund", "Refund a payment")]


@tool
def lookup(order_id: str) -> str:
    """Look an order up."""
    return "shipped"


class Letters:
    """An embedding model counting letters a-z: enough to rank, no download."""

    def embed(self, texts):
        import numpy as np

        return np.array([[t.lower().count(c) for c in "abcdefghijklmnopqrstuvwxyz"] for t in texts], dtype=float)


@pytest.mark.parametrize(
    ("terms", "said"),
    [
        ("order", "takes a list of terms, and got a str, which would be searched letter by letter; pass a list: "
         "['order'] for one term, or 'order'.split() for one term per word"),
        (None, "takes a list of terms, and got NoneType; pass a list of str, e.g. ['refund', 'payment']"),
        (5, "takes a list of terms, and got int; pass a list of str, e.g. ['refund', 'payment']"),
        (b"order", "takes a list of terms, and got bytes; pass a list of str, e.g. ['refund', 'payment']"),
        ({"terms": ["order"]}, "takes a list of terms, and got dict; pass a list of str, e.g. ['refund', 'payment']"),
        (["order", None], "term 1 is NoneType, not a str; pass a list of str, e.g. ['refund', 'payment']"),
    ],
)  # fmt: skip
def test_terms_that_are_no_list_of_str_are_a_configuration_error(terms, said):
    for search, where in ((KeywordIndex(SPECS).search, "KeywordIndex.search"), (naive_search, "naive_search")):
        args = (terms,) if where == "KeywordIndex.search" else (terms, SPECS)
        with pytest.raises(ConfigurationError) as caught:
            search(*args)
        assert str(caught.value) == f"{where}: {said}"


def test_terms_in_a_tuple_a_set_or_a_generator_are_searched():
    index = KeywordIndex(SPECS)
    for terms in (("order",), {"order"}, (t for t in ["order"])):
        assert [m.name for m in index.search(terms)] == ["query_order"]


@pytest.mark.parametrize(
    ("keyword", "value", "said"),
    [
        ("min_score", None, "min_score=None; use a finite number"),
        ("min_score", "1", "min_score='1'; use a finite number"),
        ("min_score", float("nan"), "min_score=nan; use a finite number"),
        ("max_results", True, "max_results=True; use a whole number, 0 or more"),
    ],
)
def test_settings_of_a_search_that_are_no_number_are_a_configuration_error(keyword, value, said):
    with pytest.raises(ConfigurationError) as caught:
        KeywordIndex(SPECS).search(["order"], **{keyword: value})
    assert str(caught.value) == f"KeywordIndex.search: {said}"


def test_true_is_no_max_results_for_a_strategy():
    with pytest.raises(ConfigurationError) as caught:
        KeywordSearch(max_results=True)
    assert str(caught.value) == "KeywordSearch: max_results=True; use a whole number, 0 or more"


@pytest.mark.parametrize(
    ("specs", "said"),
    [
        (None, "takes a list of tool specs, and got NoneType; e.g. [t.spec for t in tools_from(...)]"),
        ("query_order", "takes a list of tool specs, and got str; e.g. [t.spec for t in tools_from(...)]"),
        (SPECS[0], "takes a list of tool specs, and got ToolSpec; put it in a list: [spec]"),
        ({"a": SPECS[0]}, "takes a list of tool specs, and got dict; e.g. [t.spec for t in tools_from(...)], "
         "or list(specs.values()) for a dict"),
        ({"query_order"}, "takes a list of tool specs, and got a set, which has no order: tools that tie would be "
         "ranked in another order in each process; give a list, in the order you want"),
        ([lookup], "item 0 (function) is not a ToolSpec; reflect it first: [t.spec for t in tools_from(f)]"),
        (tools_from(lookup), "item 0 (Tool) is not a ToolSpec; pass its spec: [t.spec for t in tools]"),
        ([SPECS[0], {"name": "x"}], 'item 1 (dict) is not a ToolSpec; make one: ToolSpec("name", "description"), '
         "or [t.spec for t in tools_from(f)] for functions"),
        ([ToolSpec], 'item 0 (the class ToolSpec) is not a ToolSpec; pass an instance (a ToolSpec), e.g. '
         'ToolSpec("name", "description")'),
    ],
)  # fmt: skip
def test_a_catalogue_of_the_wrong_shape_is_a_configuration_error(specs, said):
    builds = [
        (KeywordIndex, "KeywordIndex"),
        (VectorSearch(model=Letters()).index, "VectorIndex.build"),
        (ToolSearch().index, "ToolSearch.index"),
    ]
    for build, where in builds:
        with pytest.raises(ConfigurationError) as caught:
            build(specs)
        assert str(caught.value) == f"{where}: {said}"


def test_a_generator_of_specs_is_indexed_whole():
    search = ToolSearch()
    index = search.index(spec for spec in SPECS)
    assert search.search('{"terms": ["refund"]}', index).found == ["refund"]


@pytest.mark.parametrize(
    ("query", "fix"),
    [
        (None, "e.g. 'refund a card payment'"),
        (["refund", "card"], "' '.join(['refund', 'card'])"),
        (b"refund", "e.g. 'refund a card payment'"),
    ],
)
def test_a_vector_query_that_is_no_text_is_a_configuration_error(query, fix):
    vector = VectorSearch(model=Letters())
    with pytest.raises(ConfigurationError) as caught:
        vector.search(vector.index(SPECS), query)
    assert str(caught.value) == (
        f"VectorSearch.search: the query is one text, and got {type(query).__name__}; pass a str, {fix} "
        "(a list of terms is what KeywordSearch takes)"
    )


@pytest.mark.parametrize(
    ("model", "shown"), [("all-MiniLM-L6-v2", "str"), (Letters, "the class Letters"), (object(), "object")]
)
def test_a_vector_model_that_cannot_embed_is_refused_at_construction(model, shown):
    with pytest.raises(ConfigurationError) as caught:
        VectorSearch(model=model)
    assert str(caught.value) == (
        f"VectorSearch: model={shown} is not an embedding model (an instance with embed(texts) -> array); pass one, "
        "e.g. VectorSearch(model=StaticEmbeddings()), or leave it out for the course's model"
    )


@pytest.mark.parametrize(
    ("strategy", "said"),
    [
        (KeywordSearch, "ToolSearch(KeywordSearch): that is the class; pass an instance: ToolSearch(KeywordSearch())"),
        ("keyword", "ToolSearch('keyword'): that is not a search strategy (it needs spec, parse, index and search); "
         "pass KeywordSearch(), VectorSearch() or an object with those members"),
        (object(), "ToolSearch(object object): that is not a search strategy (it needs spec, parse, index and "
         "search); pass KeywordSearch(), VectorSearch() or an object with those members"),
    ],
)  # fmt: skip
def test_what_cannot_search_is_refused_by_tool_search(strategy, said):
    with pytest.raises(ConfigurationError) as caught:
        ToolSearch(strategy)
    assert str(caught.value) == said


@pytest.mark.parametrize(
    ("arguments", "fix"),
    [
        ({"terms": ["refund"]}, "json.dumps({'terms': ['refund']})"),
        (["refund"], 'e.g. \'{"terms": ["refund", "payment"]}\''),
        (5, 'e.g. \'{"terms": ["refund", "payment"]}\''),
    ],
)
def test_search_arguments_that_are_no_json_text_are_a_configuration_error(arguments, fix):
    search = ToolSearch()
    with pytest.raises(ConfigurationError) as caught:
        search.search(arguments, search.index(SPECS))
    assert str(caught.value) == (
        f"ToolSearch.search: arguments are the model's raw JSON text, and got {type(arguments).__name__}; "
        f"pass a str, {fix}"
    )


@pytest.mark.parametrize("strategy", [KeywordSearch, VectorSearch])
def test_a_search_tool_name_that_is_no_tool_name_is_refused_at_construction(strategy):
    where = strategy.__name__
    with pytest.raises(ConfigurationError) as caught:
        strategy(name=None)
    assert str(caught.value) == (
        f"{where}(name=None): the tool name None is not 1-64 ASCII letters, digits, '_' or '-' (OpenAI's rule). Fix: "
        f"pass a valid name, e.g. {where}(name='find_tools'), or leave it out for 'tool_search_tool'"
    )


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (dict(argument=5), "KeywordSearch(argument=5): argument is the name of the search tool's one parameter, "
         "a non-blank str, and got an int. Fix: pass a str, or leave it out for the default ('terms')"),
        (dict(argument=" "), "KeywordSearch(argument=' '): argument is the name of the search tool's one "
         "parameter, a non-blank str, and got a blank str. Fix: pass a str, or leave it out for the default "
         "('terms')"),
        (dict(description=None), "KeywordSearch(description=None): description is the search tool's description, "
         "a str, and got None. Fix: pass a str, or leave it out for the default text"),
        (dict(argument_description=5), "KeywordSearch(argument_description=5): argument_description is its "
         "parameter's description, a str, and got an int. Fix: pass a str, or leave it out for the default text"),
    ],
)  # fmt: skip
def test_search_tool_texts_that_are_no_str_are_refused_at_construction(given, said):
    """`argument=5` went to the model as `"required": [5]` (no JSON Schema), and the model's `{"5": …}`
    was then a missing argument; now refused where the strategy is made."""
    with pytest.raises(ConfigurationError) as caught:
        KeywordSearch(**given)
    assert str(caught.value) == said


def test_a_custom_search_tool_keeps_its_name_and_argument():
    spec = KeywordSearch(name="find_tools", argument="words").spec
    assert (spec.name, spec.parameters["required"]) == ("find_tools", ["words"])


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        (ToolSpec("refund", b"Refund a payment"), "item 1 ('refund') has a description of bytes, not a str"),
        (ToolSpec(b"refund", "Refund a payment"), "item 1 (b'refund') has a name of bytes, not a str"),
        (ToolSpec("refund", 5), "item 1 ('refund') has a description of int, not a str"),
        (ToolSpec(None, "Refund a payment"), "item 1 (None) has a name of NoneType, not a str"),
    ],
)
def test_a_spec_whose_name_or_description_is_no_str_is_named_by_the_index(spec, said):
    """bytes (a file read in "rb" mode, an undecoded HTTP body) were taken by `lower()` and failed
    with a raw TypeError from inside the index's build; other kinds got one line naming no tool."""
    fix = "give each ToolSpec a str name and a str description (or None)"
    for build in (KeywordIndex, ToolSearch().index):
        with pytest.raises(ConfigurationError) as caught:
            build([SPECS[0], spec])
        assert str(caught.value) == f"KeywordIndex: {said}; {fix}"


@pytest.mark.parametrize("allowed", ["query_order", b"query_order"])
def test_allowed_names_as_one_str_are_a_configuration_error(allowed):
    """A str is a collection of str: `name in "query_order"` kept every tool whose name is a piece
    of it ("order", "query", "e"), silently."""
    index = KeywordIndex([*SPECS, ToolSpec("order", "Look an order up")])
    with pytest.raises(ConfigurationError) as caught:
        index.search(["order"], allowed=allowed)
    kind = type(allowed).__name__
    assert str(caught.value) == (
        f"KeywordIndex.search: allowed is the names a search may return, and got a {kind}, whose pieces "
        f"would pass as names; pass a set or list of names, e.g. {{{allowed!r}}}"
    )
    assert [m.name for m in index.search(["order"], allowed={"query_order"})] == ["query_order"]


@pytest.mark.parametrize(
    ("specs", "said"),
    [
        ([ToolSpec("refund", b"Refund a payment")], "item 0 ('refund') has a description of bytes, not a str; "),
        ([ToolSpec("refund", 5)], "item 0 ('refund') has a description of int, not a str; "),
        ([ToolSpec(None, "Refund a payment")], "item 0 (None) has a name of NoneType, not a str; "),
    ],
)
def test_the_naive_scorer_names_a_spec_whose_text_is_no_str(specs, said):
    """The reference scorer said `AttributeError: 'int' object has no attribute 'lower'` (or a
    TypeError for bytes); it names the spec as the index does."""
    with pytest.raises(ConfigurationError) as caught:
        naive_search(["refund"], specs)
    assert str(caught.value) == (f"naive_search: {said}give each ToolSpec a str name and a str description (or None)")


def test_the_naive_scorer_names_what_is_not_a_list_of_specs():
    with pytest.raises(ConfigurationError) as caught:
        naive_search(["refund"], "refund")
    assert str(caught.value) == (
        "naive_search: takes a list of tool specs, and got str; e.g. [t.spec for t in tools_from(...)]"
    )
    with pytest.raises(ConfigurationError) as caught:
        naive_search(["refund"], [{"name": "refund"}])
    assert str(caught.value) == (
        'naive_search: item 0 (dict) is not a ToolSpec; make one: ToolSpec("name", "description"), or '
        "[t.spec for t in tools_from(f)] for functions"
    )


def _vector_index():
    from toolkit.search.embeddings import ToolEmbeddingCache
    from toolkit.search.vector import VectorIndex

    cache = ToolEmbeddingCache(Letters())
    return VectorIndex.build([*SPECS, ToolSpec("order", "Look an order up")], cache), cache


@pytest.mark.parametrize("allowed", ["query_order", b"query_order"])
def test_allowed_names_as_one_str_are_refused_by_the_vector_index_too(allowed):
    """`VectorIndex.search(..., allowed="query_order")` kept "order" (a piece of the str), silently."""
    index, cache = _vector_index()
    with pytest.raises(ConfigurationError) as caught:
        index.search(cache.query("order"), allowed=allowed)
    kind = type(allowed).__name__
    assert str(caught.value) == (
        f"VectorIndex.search: allowed is the names a search may return, and got a {kind}, whose pieces "
        f"would pass as names; pass a set or list of names, e.g. {{{allowed!r}}}"
    )
    assert [m.name for m in index.search(cache.query("order"), allowed={"query_order"})] == ["query_order"]


@pytest.mark.parametrize(
    ("allowed", "said"),
    [
        (5, "int, which holds no names"),
        ([["query_order"]], "list holding a list, which is no name"),
        (("refund", ("query_order", ["x"])), "tuple holding a tuple, which is no name"),
    ],
)
def test_allowed_that_holds_no_names_is_a_configuration_error(allowed, said):
    """A number, or names nested in lists, failed with a raw TypeError from inside the search ("'int' object
    is not iterable", "unhashable type: 'list'"), in both indexes."""
    keyword = KeywordIndex([*SPECS, ToolSpec("order", "Look an order up")])
    vector, cache = _vector_index()
    for where, search in (
        ("KeywordIndex.search", lambda: keyword.search(["order"], allowed=allowed)),
        ("VectorIndex.search", lambda: vector.search(cache.query("order"), allowed=allowed)),
    ):
        with pytest.raises(ConfigurationError) as caught:
            search()
        assert str(caught.value) == (
            f"{where}: allowed is the names a search may return, and got {said}; "
            "pass a set or list of names, e.g. {'query_order', 'refund'}"
        )


@pytest.mark.parametrize(
    ("value", "said"),
    [("0.5", "min_score='0.5'; use a finite number"), (float("nan"), "min_score=nan; use a finite number")],
)
def test_a_vector_index_min_score_that_is_no_finite_number_is_a_configuration_error(value, said):
    """A str failed inside NumPy (UFuncTypeError); NaN kept no tool, silently."""
    index, cache = _vector_index()
    with pytest.raises(ConfigurationError) as caught:
        index.search(cache.query("order"), min_score=value)
    assert str(caught.value) == f"VectorIndex.search: {said}"


@pytest.mark.parametrize(("query", "kind"), [("refund", "str"), (["refund"], "list"), (None, "NoneType")])
def test_a_vector_index_given_the_query_s_text_is_a_configuration_error(query, kind):
    """The index takes the query's vector; its text failed inside NumPy (could not convert string to float)."""
    index, _ = _vector_index()
    with pytest.raises(ConfigurationError) as caught:
        index.search(query)
    assert str(caught.value) == (
        f"VectorIndex.search: takes the query's vector, and got {kind}; embed the query first: "
        "index.search(cache.query(text)), or search with VectorSearch().search(index, text)"
    )


class Answers(KeywordSearch):
    """A learner's strategy that answers `found`, whatever it is asked."""

    def __init__(self, found):
        super().__init__()
        object.__setattr__(self, "found", found)

    def search(self, index, terms, allowed=None):
        return self.found


RULE = "a strategy's search returns a list of Match(name, description, score), best first"


@pytest.mark.parametrize(
    ("found", "said"),
    [
        (None, f"Answers.search returned None; {RULE}"),
        ("refund", f"Answers.search returned a str; {RULE}"),
        (["refund"], f"Answers.search returned a str as item 0, not a Match; {RULE}"),
        (
            [Match("refund", "", 1), Match("no_such_tool", "", 1)],
            "Answers.search returned 'no_such_tool', which is not a tool it searched; return matches of the tools "
            "in its index (among allowed)",
        ),
    ],
)
def test_a_strategy_answering_no_matches_of_its_tools_is_named_with_the_rule(found, said):
    """A learner's strategy returning names, None, or a tool it never saw failed with a raw
    AttributeError / TypeError, or told the model it could call a tool that does not exist."""
    search = ToolSearch(Answers(found))
    index = search.index(SPECS)
    for allowed in (None, {"query_order", "refund"}):
        with pytest.raises(ConfigurationError) as caught:
            search.search('{"terms": ["refund"]}', index, allowed)
        assert str(caught.value) == f"ToolSearch.search: {said}"
    with pytest.raises(ConfigurationError) as caught:
        evaluate(
            Catalog(tuple(SPECS), (LabelledQuery("refund it", ("refund",), "refund"),), {}), [2], {"a": Answers(found)}
        )
    assert str(caught.value) == f"evaluate(...): strategies['a']: {said}"


def test_a_strategy_may_return_a_tuple_or_a_generator_of_matches_and_tools_found_before():
    matches = [Match("refund", "Refund a payment", 1)]
    for found in (tuple(matches), iter(matches)):
        search = ToolSearch(Answers(found))
        assert search.search('{"terms": ["refund"]}', search.index(SPECS), {"query_order"}).found == ["refund"]


def test_a_catalogue_naming_a_tool_twice_is_refused_by_tool_search():
    """Two servers' `search` tools, not yet namespaced: the search told the model it found two tools of
    one name (`found_tools` naming one of them twice), which it can call as only one."""
    specs = [*SPECS, ToolSpec("refund", "Refund an invoice"), ToolSpec("query_order", "Other")]
    with pytest.raises(ConfigurationError) as caught:
        ToolSearch().index(specs)
    assert str(caught.value) == (
        "ToolSearch.index: the tool name 'refund' is given 2 times (items 1, 2); a model calls a tool by its name, "
        "so each must be unique: rename or namespace them, e.g. 'server_refund'"
    )


class CountedNames(list):
    """Allowed names as a list, counting the names compared: `name in list` compares one by one."""

    compared = 0

    def __contains__(self, name):
        for item in self:
            CountedNames.compared += 1
            if item == name:
                return True
        return False

    def __iter__(self):
        for item in super().__iter__():
            CountedNames.compared += 1
            yield item


def test_allowed_names_in_a_list_are_read_once_not_once_per_tool():
    """`allowed` as a list of 2,000 names (only the last tools), every tool tying: each tool looked its
    name up in the list, 2,000 x 2,000 comparisons; the names are now read once into a set."""
    import numpy as np

    from toolkit.search.embeddings import ToolEmbeddingCache
    from toolkit.search.vector import VectorIndex

    specs = [ToolSpec(f"tool_{i}", "same words") for i in range(4000)]
    allowed = CountedNames(s.name for s in specs[2000:])
    for index, query in (
        (KeywordIndex(specs), ["same"]),
        (VectorIndex.build(specs, ToolEmbeddingCache(Letters())), np.ones(26, dtype=np.float32)),
    ):
        CountedNames.compared = 0
        found = index.search(query, 5, allowed=allowed)
        assert [m.name for m in found] == [f"tool_{i}" for i in range(2000, 2005)]
        assert CountedNames.compared <= 2 * len(allowed), type(index).__name__


FIX_INDEX = "build it once and pass it: index = search.index(specs)"


@pytest.mark.parametrize(
    ("strategy", "index", "got"),
    [
        (KeywordSearch(), SPECS, "list"),  # the catalogue, for its index
        (KeywordSearch(), None, "NoneType"),
        (KeywordSearch(), "index", "str"),
        (KeywordSearch(), "vector", "VectorIndex, which VectorSearch builds"),
        (VectorSearch(model=Letters()), SPECS, "list"),
        (VectorSearch(model=Letters()), "keyword", "KeywordIndex, which KeywordSearch builds"),
    ],
)
def test_a_strategy_searching_what_is_not_its_index_is_a_configuration_error(strategy, index, got):
    """`KeywordSearch().search(specs, terms)` failed with a raw AttributeError ('list' object has no
    attribute 'search'); a ToolSearch whose strategy was replaced, searching the index built before,
    was told of the other index's rules: VectorSearch on a KeywordIndex 'min_score=None; use a finite
    number', KeywordSearch on a VectorIndex 'takes the query's vector, and got list'."""
    if index == "vector":
        index = VectorSearch(model=Letters()).index(SPECS)
    elif index == "keyword":
        index = KeywordSearch().index(SPECS)
    where = type(strategy).__name__
    query = ["refund"] if strategy.takes == "terms" else "refund"
    with pytest.raises(ConfigurationError) as caught:
        strategy.search(index, query)
    assert (
        str(caught.value) == f"{where}.search: takes the index {where}.index(specs) returns, and got {got}; {FIX_INDEX}"
    )
    search = ToolSearch(strategy)  # the same through the wrapper, as the model calls it
    with pytest.raises(ConfigurationError) as caught:
        search.search(strategy.example, index)
    assert str(caught.value).startswith(f"{where}.search: takes the index {where}.index(specs) returns, and got {got}")


def test_tool_specs_given_for_runnable_tools_name_the_fix():
    """`ToolSearch().context(load_catalog().tools)` (the specs, not tools that run) was told 'ToolSpec has
    no @tool methods. Fix: decorate its tool methods with @tool', which no ToolSpec can follow."""
    from toolkit.errors import ToolDefinitionError
    from toolkit.loop.sources import build_context

    said = (
        "tools_from(ToolSpec 'query_order'): it describes a tool, and has no function to run. Fix: pair it with "
        "one, Tool(spec, function), or make the catalogue's specs runnable: catalog_tools(specs)"
    )
    for call in (lambda: ToolSearch().context(SPECS), lambda: build_context(tools=SPECS)):
        with pytest.raises(ToolDefinitionError) as caught:
            call()
        assert str(caught.value) == said


class Mine:
    """A learner's strategy: everything a strategy has, its methods written as `methods` says."""

    takes = "terms"
    spec = KeywordSearch().spec
    example = KeywordSearch().example

    def parse(self, raw):
        return KeywordSearch().parse(raw)

    def index(self, specs):
        return list(specs)

    def search(self, index, terms, allowed=None):
        return [Match(s.name, s.description, 1.0) for s in index if any(t in s.name for t in terms)]


def _without_allowed(self, index, terms):
    return Mine.search(self, index, terms)


def _allowed_required(self, index, terms, allowed):
    return Mine.search(self, index, terms)


def _index_of_two(self, specs, model):
    return list(specs)


@pytest.mark.parametrize(
    ("method", "written", "said"),
    [
        ("search", _without_allowed, "Mine.search cannot be called as search(index, query, allowed) (too many "
         "positional arguments); write it as def search(self, index, query, allowed=None): allowed is the names "
         "it may return, None for all"),
        ("index", _index_of_two, "Mine.index cannot be called as index(specs) (missing a required argument: "
         "'model'); write it as def index(self, specs)"),
    ],
)  # fmt: skip
def test_a_learner_s_strategy_whose_methods_cannot_be_called_as_the_wrapper_calls_them_is_refused(
    method, written, said
):
    """A strategy whose search takes no `allowed` was taken, and the loop sent the model
    "Tool 'tool_search_tool' failed: TypeError: Mine.search() takes 3 positional arguments but 4 were
    given" on every search: the learner's mistake, named only to the model."""
    strategy = type("Mine", (Mine,), {method: written})()
    with pytest.raises(ConfigurationError) as caught:
        ToolSearch(strategy)
    assert str(caught.value) == f"ToolSearch(Mine object): {said}"


def test_evaluate_refuses_a_strategy_whose_search_needs_allowed_and_takes_one_that_has_none():
    catalog = Catalog(tuple(SPECS), (LabelledQuery("refund it", ("refund",), "refund"),), {})
    strategy = type("Mine", (Mine,), {"search": _allowed_required})()
    with pytest.raises(ConfigurationError) as caught:
        evaluate(catalog, [2], {"mine": strategy})
    assert str(caught.value) == (
        "evaluate(...): strategies['mine']: Mine.search cannot be called as search(index, query) (missing a "
        "required argument: 'allowed'); write it as def search(self, index, query, allowed=None): allowed is "
        "the names it may return, None for all"
    )
    rows = evaluate(catalog, [2], {"mine": type("Mine", (Mine,), {"search": _without_allowed})()})
    assert rows[1].accuracy == 1.0
    assert ToolSearch(Mine()).search('{"terms": ["refund"]}', [SPECS[1]]).found == ["refund"]
