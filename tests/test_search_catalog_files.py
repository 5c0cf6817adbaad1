"""A catalogue a learner brings: a file of the wrong shape, names twice, queries expecting tools it
does not have, no queries; and sizes past the catalogue or below zero. Each is a
`ConfigurationError` naming the file or the call and what is wrong, never a `KeyError`, a
`ZeroDivisionError` or random's "Sample larger than population"."""

import json
import os

import pytest

from toolkit.errors import ConfigurationError
from toolkit.search import catalog as catalogs
from toolkit.search.catalog import FORMAT, evaluate, load_catalog, scaled_catalog, subset
from toolkit.search.keyword import KeywordSearch


def tool(name, domain="orders"):
    return {"name": name, "description": f"does {name}", "parameters": {"type": "object"}, "domain": domain}


def query(expected):
    return {"query": f"please {expected}", "terms": [expected], "expected": expected}


def write(tmp_path, content):
    path = tmp_path / "catalog.json"
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    return path


def error_of(path):
    with pytest.raises(ConfigurationError) as info:
        load_catalog(path)
    return str(info.value)


@pytest.mark.parametrize(
    "content, problem",
    [
        ({"tools": [tool("a")]}, "no 'queries'"),
        ({"tools": [tool("a"), {"name": "b", "description": "d", "parameters": {}}], "queries": []},
         "tools[1] has no 'domain'"),
        ({"tools": [tool("a"), "b"], "queries": []}, "tools[1] is a string, not an object"),
        ({"tools": {"a": tool("a")}, "queries": []}, "'tools' is an object, not an array"),
        ({"tools": [], "queries": [query("a"), {"query": "q", "expected": "a"}]}, "queries[1] has no 'terms'"),
        ({"tools": [], "queries": [None]}, "queries[0] is null, not an object"),
        ([1, 2], "the file holds an array, not an object"),
    ],
)  # fmt: skip
def test_a_file_of_the_wrong_shape_says_what_is_missing_and_the_shape(tmp_path, content, problem):
    """The entry of the wrong shape is named (a file of 10,000 tools was told "no 'domain'"), and no
    Python text stands for the problem ("string indices must be integers, not 'str'")."""
    path = write(tmp_path, content)
    assert error_of(path) == (
        f"load_catalog({str(path)!r}): the file does not have the catalogue's shape ({problem}); it must be {FORMAT}"
    )


@pytest.mark.parametrize("content", [b"{oops", b"\xff\xfe{}"])
def test_a_file_that_is_not_utf8_json_says_so(tmp_path, content):
    path = write(tmp_path, content)
    message = error_of(path)
    assert message.startswith(f"load_catalog({str(path)!r}): the file is not UTF-8 JSON (")
    assert message.endswith(f"); it must be {FORMAT}")


def test_a_missing_file_says_so(tmp_path):
    path = tmp_path / "nope.json"
    assert error_of(path) == f"load_catalog({str(path)!r}): cannot read the file (No such file or directory)"


def test_names_twice_and_unknown_expected_tools_are_refused(tmp_path):
    path = write(tmp_path, {"tools": [tool("a"), tool("b"), tool("a"), tool("b")], "queries": [query("a")]})
    assert error_of(path) == (
        f"load_catalog({str(path)!r}): tool names must be unique; more than one tool is named 'a', 'b'"
    )
    path = write(tmp_path, {"tools": [tool("a")], "queries": [query("a"), query("zzz"), query("yyy")]})
    assert error_of(path) == (
        f"load_catalog({str(path)!r}): queries expect tools the catalogue does not have: 'yyy', 'zzz'"
    )


def test_a_size_past_the_catalogue_keeps_every_tool(tmp_path):
    catalog = load_catalog(write(tmp_path, {"tools": [tool(n) for n in "abcdef"], "queries": [query("a")]}))
    assert [t.name for t in subset(catalog, 1000)] == list("abcdef")
    rows = evaluate(catalog, [3, 1000], {"keyword": KeywordSearch()})
    assert [(r.size, r.strategy, r.accuracy) for r in rows] == [
        (3, "all tools in the prompt", 1.0),
        (3, "keyword", 1.0),
        (6, "all tools in the prompt", 1.0),
        (6, "keyword", 1.0),
    ]


def test_no_queries_and_a_negative_size_are_refused(tmp_path):
    catalog = load_catalog(write(tmp_path, {"tools": [tool("a")], "queries": []}))
    with pytest.raises(ConfigurationError) as info:
        evaluate(catalog, [1], {"keyword": KeywordSearch()})
    assert str(info.value) == "evaluate(...): the catalogue has no labelled queries, so there is nothing to measure"
    with pytest.raises(ConfigurationError) as info:
        scaled_catalog([], -1)
    assert str(info.value) == "scaled_catalog(..., size=-1): use a whole number, 0 or more"


@pytest.mark.parametrize(
    "entry, problem",
    [
        (tool(5), 'tools[0] has the name 5; a tool name is a string of 1-64 ASCII letters, digits, "_" or "-"'),
        (
            tool("get weather"),
            'tools[0] has the name "get weather"; a tool name is a string of 1-64 ASCII letters, digits, "_" or "-"',
        ),
        (tool(""), 'tools[0] has the name ""; a tool name is a string of 1-64 ASCII letters, digits, "_" or "-"'),
        (
            tool("get_weather\n"),
            'tools[0] has the name "get_weather\\n"; a tool name is a string of 1-64 ASCII letters, digits, "_" or "-"',
        ),
        ({**tool("a"), "description": 5}, 'tools[0] ("a") has the description 5; it must be a string (or null)'),
        (
            {**tool("a"), "parameters": "x"},
            'tools[0] ("a") has the parameters "x"; it must be a JSON Schema object (or null)',
        ),
        ({**tool("a"), "domain": ["o"]}, 'tools[0] ("a") has the domain ["o"]; it must be a string'),
    ],
)
def test_a_tool_entry_of_the_wrong_kind_names_the_entry_the_rule_and_the_fix(tmp_path, entry, problem):
    """Loaded before, each failed later (a search saying only that "a tool spec's name or description
    is not a str", a model refusing the name) or never (a tool the model cannot call)."""
    path = write(tmp_path, {"tools": [entry], "queries": []})
    assert error_of(path) == f"load_catalog({str(path)!r}): {problem}; correct that entry in the file"


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"terms": "a"}, 'queries[0] has the terms "a"; it must be a list of strings, one of them not blank'),
        ({"terms": []}, "queries[0] has the terms []; it must be a list of strings, one of them not blank"),
        (
            {"terms": [" ", ""]},
            'queries[0] has the terms [" ", ""]; it must be a list of strings, one of them not blank',
        ),
        ({"terms": ["a", 1]}, 'queries[0] has the terms ["a", 1]; it must be a list of strings, one of them not blank'),
        ({"query": 5}, "queries[0] has the query 5; it must be a string, not blank"),
        ({"query": "  "}, 'queries[0] has the query "  "; it must be a string, not blank'),
        ({"expected": ["a"]}, 'queries[0] has the expected ["a"]; it must be a string'),
    ],
)
def test_a_query_entry_of_the_wrong_kind_names_the_entry_the_rule_and_the_fix(tmp_path, change, problem):
    """Terms given as one string were searched letter by letter ("a" -> every tool with an a), none
    scored nothing (the query silently counted as a miss), an expected list crashed with `TypeError:
    unhashable type: 'list'`."""
    path = write(tmp_path, {"tools": [tool("a")], "queries": [{**query("a"), **change}]})
    assert error_of(path) == f"load_catalog({str(path)!r}): {problem}; correct that entry in the file"


def test_a_long_entry_is_shown_cut_short(tmp_path):
    path = write(tmp_path, {"tools": [tool("x" * 200)], "queries": []})
    assert error_of(path) == (
        f'load_catalog({str(path)!r}): tools[0] has the name "{"x" * 40}…; a tool name is a string of 1-64 ASCII letters, '
        'digits, "_" or "-"; correct that entry in the file'
    )


@pytest.fixture
def small(tmp_path):
    return load_catalog(write(tmp_path, {"tools": [tool(n) for n in "abc"], "queries": [query("a")]}))


@pytest.mark.parametrize("sizes", [50, [None], ["50"], [2.5], [True], [-1]])
def test_sizes_that_are_not_whole_numbers_name_the_rule(small, sizes):
    """Were `TypeError`s from inside the sampling (`'int' object is not iterable`, `unsupported operand
    type(s) for -: 'str' and 'int'`), or ran as another size (True as 1, -1 as the smallest)."""
    with pytest.raises(ConfigurationError) as info:
        evaluate(small, sizes, {"keyword": KeywordSearch()})
    assert str(info.value) == (
        f"evaluate(..., sizes={sizes!r}): sizes is a list of whole numbers, 0 or more; e.g. [50, 100, 200]"
    )


class NoTakes:
    spec = KeywordSearch().spec

    def index(self, specs):
        return specs

    def search(self, index, query, allowed=None):
        return []


@pytest.mark.parametrize(
    "strategies, problem",
    [
        (
            {"bm25": KeywordSearch},
            "strategies['bm25'] is the class KeywordSearch; pass an instance: {'bm25': KeywordSearch()}",
        ),
        (
            {"bm25": None},
            "strategies['bm25'] is NoneType, not a search strategy (it needs takes 'terms' or 'text', spec, index "
            "and search); pass KeywordSearch(), VectorSearch() or an object with those members",
        ),
        (
            {"bm25": NoTakes()},
            "strategies['bm25'] is NoTakes, not a search strategy (it needs takes 'terms' or 'text', spec, index "
            "and search); pass KeywordSearch(), VectorSearch() or an object with those members",
        ),
        (
            [KeywordSearch()],
            "strategies is a dict of names to strategies, and got list; e.g. {'keyword': KeywordSearch()}",
        ),
    ],
)
def test_strategies_that_cannot_search_name_the_entry_and_the_fix(small, strategies, problem):
    """Were `TypeError: KeywordSearch.index() missing 1 required positional argument`, `AttributeError:
    'NoneType' object has no attribute 'index'` (or `... 'takes'` after the index was built)."""
    with pytest.raises(ConfigurationError) as info:
        evaluate(small, [2], strategies)
    assert str(info.value) == f"evaluate(...): {problem}"


def test_sizes_may_be_any_whole_numbers_a_range_or_numpy_s(small):
    import numpy as np

    expected = [(n, s) for n in (2, 3) for s in ("all tools in the prompt", "keyword")]
    for sizes in (range(2, 4), np.array([2, 3]), (2, np.int64(3))):
        rows = evaluate(small, sizes, {"keyword": KeywordSearch()})
        assert [(r.size, r.strategy) for r in rows] == expected


def test_a_scaled_catalogue_of_names_already_namespaced_keeps_them_unique():
    """`jira_create_task` in the catalogue and the Jira copy of `create_task` were two tools of one name."""
    from toolkit.tools.reflect import ToolSpec

    specs = [ToolSpec("create_task", "Creates a task"), ToolSpec("jira_create_task", "Creates a Jira task")]
    big = scaled_catalog(specs, 200)
    names = [t.name for t in big]
    assert len(big) == 200 and len(set(names)) == 200
    assert names[:8] == [
        "create_task",
        "jira_create_task",
        "shopify_create_task",
        "shopify_jira_create_task",
        "zendesk_create_task",
        "zendesk_jira_create_task",
        "jira_jira_create_task",  # jira's copy of create_task is taken: its other copy comes
        "salesforce_create_task",
    ]


def test_a_scaled_catalogue_makes_no_name_longer_than_a_model_takes():
    """A copy of a 60-character name was a 64+ character name, which no model accepts; now only the copies
    that fit are made, and a size past them is a `ConfigurationError` saying how many can be."""
    from toolkit.tools.decorator import TOOL_NAME
    from toolkit.tools.reflect import ToolSpec

    long = ToolSpec("x" * 60, "A tool with a long name")
    assert [t.name for t in scaled_catalog([long], 3)] == ["x" * 60, "sap_" + "x" * 60, "box_" + "x" * 60]
    many = scaled_catalog([long, ToolSpec("short", "A tool")], 90)
    assert len(many) == 90 and all(TOOL_NAME.match(t.name) for t in many)
    with pytest.raises(ConfigurationError) as info:
        scaled_catalog([long], 100)
    assert str(info.value) == (
        "scaled_catalog(..., size=100): only 5 tools can be made of the 1 given: a copy is named '<system>_<name>', "
        "and every further copy's name would be longer than 64 characters or taken; ask for 5 or fewer, or "
        "shorten the tools' names"
    )


def test_a_scaled_catalogue_of_no_tools_is_refused_like_any_too_small():
    """No tools given (an empty file's tools, a filter that kept none): `scaled_catalog([], 100)` answered
    [] silently, where a catalogue too small for the size asked is a `ConfigurationError`; size 0 is []."""
    assert scaled_catalog([], 0) == []
    with pytest.raises(ConfigurationError) as info:
        scaled_catalog([], 100)
    assert str(info.value) == (
        "scaled_catalog(..., size=100): no tools given, so none can be made; pass the tools to copy, "
        "e.g. scaled_catalog(load_catalog().tools, 100)"
    )


def test_a_file_with_a_byte_order_mark_or_in_utf16_is_read(tmp_path):
    content = json.dumps({"tools": [tool("track_parcel")], "queries": [query("track_parcel")]})
    for raw in ("\ufeff" + content).encode("utf-8"), content.encode("utf-16"):
        (tmp_path / "catalog.json").write_bytes(raw)
        assert [t.name for t in load_catalog(tmp_path / "catalog.json").tools] == ["track_parcel"]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'{"tools": [], "queries": [], "tools": []}', "an object gives the key 'tools' more than once"),
        (b'{"tools": [{"parameters": {"maximum": NaN}}], "queries": []}', "NaN is not a JSON value"),
        (b'{"tools": [], "queries": [Infinity]}', "Infinity is not a JSON value"),
    ],
)
def test_a_key_given_twice_or_nan_is_refused_not_read(tmp_path, content, problem):
    path = write(tmp_path, content)
    assert error_of(path) == f"load_catalog({str(path)!r}): the file is not UTF-8 JSON ({problem}); it must be {FORMAT}"


def test_a_file_nested_100000_deep_is_one_error_not_a_recursion_error(tmp_path):
    path = write(tmp_path, b'{"tools": ' + b"[" * 100_000 + b"]" * 100_000 + b', "queries": []}')
    assert error_of(path) == (
        f"load_catalog({str(path)!r}): the file nests deeper than JSON can be read here; it must be {FORMAT}"
    )


def test_a_device_or_a_pipe_is_refused_unread(tmp_path):
    fifo = tmp_path / "catalog.json"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    for path in fifo, "/dev/zero":  # and reading /dev/zero never ends
        assert error_of(path) == (f"load_catalog({str(path)!r}): not a regular file (a folder, a pipe or a device)")


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogs, "MAX_CATALOG_BYTES", 100)
    path = write(tmp_path, {"tools": [tool("track_parcel")] * 3, "queries": []})
    assert error_of(path) == (
        f"load_catalog({str(path)!r}): the file is {path.stat().st_size} bytes, over the cap of 100 bytes "
        "(toolkit.search.catalog.MAX_CATALOG_BYTES). "
        "Fix: pass a smaller catalogue, or grow one in memory with scaled_catalog(specs, size)"
    )


def test_a_file_of_exactly_the_size_limit_is_read(tmp_path, monkeypatch):
    path = write(tmp_path, {"tools": [tool("track_parcel")], "queries": []})
    monkeypatch.setattr(catalogs, "MAX_CATALOG_BYTES", path.stat().st_size)
    assert [spec.name for spec in load_catalog(path).tools] == ["track_parcel"]
