"""The tool catalogue is realistic and consistent; the evaluation measures what it says."""

import importlib.util
import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from toolkit import data
from toolkit.errors import ArgumentError, ConfigurationError
from toolkit.search.catalog import ALL_TOOLS, evaluate, load_catalog, scaled_catalog, subset, tools_tokens
from toolkit.search.keyword import KeywordSearch
from toolkit.search.vector import VectorSearch
from toolkit.tools.decorator import TOOL_NAME

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_several_hundred_tools_across_domains_with_valid_names_and_schemas(catalog):
    assert len(catalog.tools) >= 300 and len(set(catalog.domains.values())) >= 15
    names = [t.name for t in catalog.tools]
    assert len(set(names)) == len(names)
    for spec in catalog.tools:
        assert TOOL_NAME.match(spec.name) and spec.name == spec.name.lower(), spec.name
        assert spec.description.isascii() and spec.description[0].isupper() and spec.description.endswith("."), spec
        assert 15 <= len(spec.description) <= 130, spec.description
        if spec.parameters is not None:
            Draft202012Validator.check_schema(spec.parameters)
            assert set(spec.parameters.get("required", [])) <= set(spec.parameters["properties"])


def test_the_labelled_queries_name_existing_tools(catalog):
    names = {t.name for t in catalog.tools}
    assert len(catalog.queries) >= 50
    assert all(q.expected in names and q.terms and q.query.strip() for q in catalog.queries)
    assert len({q.expected for q in catalog.queries}) == len(catalog.queries)  # one query per tool
    assert len({catalog.domains[q.expected] for q in catalog.queries}) >= 15


def test_the_committed_json_is_what_the_build_script_writes():
    spec = importlib.util.spec_from_file_location("build_tool_catalog", ROOT / "scripts" / "build_tool_catalog.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert json.loads(data.path("tool_catalog.json").read_text()) == module.build()


def test_subsets_keep_every_expected_tool_and_are_seeded(catalog):
    small = subset(catalog, 100)
    assert len(small) == 100 and {q.expected for q in catalog.queries} <= {t.name for t in small}
    assert small == subset(catalog, 100) and small != subset(catalog, 100, seed=1)
    order = [t.name for t in catalog.tools]
    assert [t.name for t in small] == sorted((t.name for t in small), key=order.index)


def test_scaled_catalogue_names_are_unique_and_namespaced(catalog):
    big = scaled_catalog(catalog.tools, 10_000)
    assert len(big) == 10_000 and len({t.name for t in big}) == 10_000
    assert big[len(catalog.tools)].name == f"shopify_{catalog.tools[0].name}"
    assert all(re.fullmatch(r"[a-z0-9_]{1,64}", t.name) for t in big)


def test_evaluation_rows(catalog):
    rows = evaluate(catalog, [100, len(catalog.tools)], {"keyword": KeywordSearch(), "vector": VectorSearch()})
    assert [(r.size, r.strategy) for r in rows] == [
        (100, ALL_TOOLS),
        (100, "keyword"),
        (100, "vector"),
        (len(catalog.tools), ALL_TOOLS),
        (len(catalog.tools), "keyword"),
        (len(catalog.tools), "vector"),
    ]
    everything = rows[3]
    assert (everything.accuracy, everything.tokens) == (1.0, tools_tokens(catalog.tools))
    keyword, vector = rows[4], rows[5]
    assert keyword.accuracy >= 0.9 and vector.accuracy >= 0.5  # regression guards (see notebook 08)
    assert max(keyword.tokens, vector.tokens) < everything.tokens / 20
    assert all(r.top1 <= r.accuracy for r in rows)


def test_scaled_catalogue_numbers_further_instances_past_one_copy_per_system(catalog):
    big = scaled_catalog(catalog.tools, 30_000)  # more than one copy per system (10,560)
    assert len(big) == 30_000 and len({t.name for t in big}) == 30_000
    second = big[len(catalog.tools) * 32]
    assert second.name == f"shopify2_{catalog.tools[0].name}"
    assert second.description.endswith("(Shopify 2)")


def test_a_numpy_size_scales_the_catalogue_as_an_int_does(catalog):
    """A size from `np.arange` (what `evaluate` takes) was refused as "use a whole number"."""
    import numpy as np

    assert scaled_catalog(catalog.tools, np.int64(700)) == scaled_catalog(catalog.tools, 700)
    with pytest.raises(ConfigurationError, match=r"^scaled_catalog\(\.\.\., size=np\.int64\(-1\)\): use a whole"):
        scaled_catalog(catalog.tools, np.int64(-1))


def test_the_catalogue_s_functions_given_a_catalog_for_its_tools_or_its_tools_for_it_name_the_fix(catalog):
    """`scaled_catalog(load_catalog(), 1000)` failed with a raw TypeError ('Catalog' object is not
    subscriptable), `catalog_tools(load_catalog())` with 'not iterable', `evaluate(catalog.tools, ...)`
    and `subset(catalog.tools, 10)` with an AttributeError ('tuple' object has no attribute 'queries'),
    and the indexes' fix for a Catalog pointed at tools_from."""
    from toolkit.search.catalog import catalog_tools
    from toolkit.search.keyword import KeywordIndex

    tools_fix = "takes a list of tool specs, and got Catalog; pass its tools: catalog.tools"
    for call, where in (
        (lambda: scaled_catalog(catalog, 1000), "scaled_catalog"),
        (lambda: catalog_tools(catalog), "catalog_tools"),
        (lambda: KeywordIndex(catalog), "KeywordIndex"),
    ):
        with pytest.raises(ConfigurationError) as caught:
            call()
        assert str(caught.value) == f"{where}: {tools_fix}"
    for call, where in (
        (lambda: evaluate(catalog.tools, [50], {"keyword": KeywordSearch()}), "evaluate(...)"),
        (lambda: subset(catalog.tools, 10), "subset"),
    ):
        with pytest.raises(ConfigurationError) as caught:
            call()
        assert str(caught.value) == (
            f"{where}: takes a Catalog (its tools and labelled queries), and got tuple; pass load_catalog(), "
            "or load_catalog(path) for your own file"
        )


def test_the_catalogue_s_functions_take_any_iterable_of_specs_and_name_an_item_that_is_none(catalog):
    """A generator of specs was 'not subscriptable' to scaled_catalog; a function or a name in the list
    failed with a raw AttributeError in scaled_catalog and catalog_tools."""
    from toolkit.search.catalog import catalog_tools

    specs = list(catalog.tools[:3])
    assert scaled_catalog((s for s in specs), 5) == scaled_catalog(specs, 5)
    assert [t.name for t in catalog_tools(s for s in specs)] == [s.name for s in specs]
    for call, where in ((lambda: scaled_catalog([*specs, "refund"], 10), "scaled_catalog"),
                        (lambda: catalog_tools([*specs, "refund"]), "catalog_tools")):  # fmt: skip
        with pytest.raises(ConfigurationError) as caught:
            call()
        assert str(caught.value) == (
            f'{where}: item 3 (str) is not a ToolSpec; make one: ToolSpec("name", "description"), or '
            "[t.spec for t in tools_from(f)] for functions"
        )


@pytest.mark.parametrize(
    "arguments",
    [
        '{"order_id": "SO-1"}',
        json.dumps(json.dumps({"order_id": "SO-1"})),  # double-encoded by a gateway
        '{"order_id": "SO-1",}',  # a trailing comma
        "{'order_id': 'SO-1'}",  # single quotes
    ],
)
def test_a_catalogue_tool_reads_its_arguments_as_every_tool_does(arguments):
    """The canned catalogue tools (what a model calls after searching in week 8) read their arguments
    with json.loads: a trailing comma or single quotes, which every other tool reads, failed the call with
    "Tool 'cancel_order' failed: JSONDecodeError: Expecting property name…", and double-encoded arguments
    were answered as a str."""
    from toolkit.chat.messages import ToolCall
    from toolkit.search.catalog import catalog_tools

    (cancel,) = catalog_tools([s for s in load_catalog().tools if s.name == "cancel_order"])
    result = cancel.execute(ToolCall(id="call_1", name="cancel_order", arguments=arguments))
    assert not result.is_error and json.loads(result.content) == {
        "tool": "cancel_order",
        "ok": True,
        "arguments": {"order_id": "SO-1"},
    }
    with pytest.raises(ArgumentError) as caught:  # as any tool's: the loop's policy sends it back to the model
        cancel.execute(ToolCall(id="call_2", name="cancel_order", arguments='{"order_id": '))
    assert str(caught.value).startswith("Invalid arguments for tool 'cancel_order':\n- arguments: got")
