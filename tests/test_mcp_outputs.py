"""`toolkit.mcp.outputs`: a stranger's `outputSchema` checked by the SDK with bounded searches."""

import logging

import pytest

import toolkit.mcp.outputs
from toolkit.chat.messages import ToolCall
from toolkit.mcp.client import McpClient
from toolkit.mcp.outputs import guard
from toolkit.mcp.provider import McpToolProvider


def _server(output_schema, structured):
    """A low-level server with one tool `t` listing `output_schema` and answering `structured`."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        tool = types.Tool(name="t", input_schema={"type": "object"}, output_schema=output_schema)
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx, params):
        return types.CallToolResult(content=[types.TextContent(text="done")], structured_content=structured)

    return Server("odd", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def _answer(output_schema, structured):
    with McpClient(_server(output_schema, structured), name="odd", request_timeout=20) as client:
        (tool,) = McpToolProvider([client]).provide()
        return tool.execute(ToolCall(id="c", name="t", arguments="{}"))


def _told(pattern, length, why="it could take hours"):
    return (
        f"MCP tool 't' of server 'odd': its outputSchema's pattern {pattern!r} was not searched in a text of "
        f"{length} characters ({why}); the text passed that check"
    )


EVIL = "^(a+)+$"


@pytest.mark.parametrize(
    ("schema", "structured", "pattern", "length"),
    [
        ({"properties": {"v": {"type": "string", "pattern": EVIL}}}, {"v": "a" * 40 + "!"}, EVIL, 41),
        ({"properties": {"v": {"type": "string", "pattern": "[a-z]+$"}}}, {"v": "a" * 5000 + "!"}, "[a-z]+$", 5001),
        ({"propertyNames": {"pattern": EVIL}}, {"a" * 40 + "!": 1}, EVIL, 41),
        (
            {"patternProperties": {EVIL: {"type": "string"}}, "additionalProperties": False},
            {"a" * 40 + "!": 1},
            EVIL,
            41,
        ),
        ({"patternProperties": {EVIL: {}}, "unevaluatedProperties": False}, {"a" * 40 + "!": 1}, EVIL, 41),
    ],
)
def test_a_pattern_of_catastrophic_backtracking_in_an_output_schema_no_longer_hangs_the_client(
    schema, structured, pattern, length, caplog
):
    """The SDK searched the answer with `re`, holding the GIL: `^(a+)+$` in forty `a`s and a `!` held the
    whole process for hours, its deadline with it (`[a-z]+$` in 5,001 characters: seconds, and 100,000:
    minutes). The text is not searched past the pattern's bound, the answer is read, and the log says so."""
    with caplog.at_level(logging.WARNING, logger="toolkit.mcp"):
        result = _answer({"type": "object", **schema}, structured)
    assert not result.is_error and result.content.startswith("done")
    assert [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"] == [_told(pattern, length)]


@pytest.mark.parametrize(
    ("schema", "structured", "wrong"),
    [
        ({"properties": {"v": {"type": "string", "pattern": "^a+$"}}}, {"v": "ab"}, "'ab' does not match '^a+$', at v"),
        ({"patternProperties": {"^x": {"type": "integer"}}}, {"xy": "1"}, "'1' is not of type 'integer', at xy"),
        ({"propertyNames": {"pattern": "^[a-z]+$"}}, {"A": 1}, "'A' does not match '^[a-z]+$', at the root"),
        (
            {"patternProperties": {"^x": {}}, "additionalProperties": False},
            {"xa": 1, "b": 2},
            "'b' does not match any of the regexes: '^x', at the root",
        ),
    ],
)
def test_a_pattern_searched_within_its_bound_is_still_checked(schema, structured, wrong):
    result = _answer({"type": "object", **schema}, structured)
    assert result.is_error
    assert result.content == (
        "Tool 't' failed: MCP server 'odd' broke the protocol: tool 't' answered with structured content that does "
        f"not match its outputSchema ({wrong}); the call ran, but its result cannot be used"
    )


def test_one_answer_s_searches_are_bounded_in_all_and_past_that_a_text_passes(monkeypatch, caplog):
    """Each search is bounded; many of them (100,000 strings of an array) add up: one answer's are
    counted, and past `SEARCHES` a text passes its pattern unsearched (the log says so, once)."""
    monkeypatch.setattr(toolkit.mcp.outputs, "SEARCHES", 1.0)  # a search at the bound of `[a-z]+$`: 1,413
    schema = {"type": "object", "properties": {"v": {"type": "array", "items": {"pattern": "[a-z]+$"}}}}
    with caplog.at_level(logging.WARNING, logger="toolkit.mcp"):
        result = _answer(schema, {"v": ["!" + "a" * 700, "!" + "a" * 700, "a" * 700 + "!"]})
    assert not result.is_error
    told = _told("[a-z]+$", 701, "this answer's searches had taken their share")
    assert [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"] == [told]


def test_the_sdk_still_builds_its_output_validators_where_guard_hooks_in():
    """The SDK offers no public hook: `guard` replaces its private builder. An SDK shaped otherwise
    would check unbounded again (a hang on `^(a+)+$`): this fails first, in one line."""
    from mcp.client.session import ClientSession

    problem = toolkit.mcp.outputs.sdk_shape_problem(ClientSession)
    assert problem is None, f"mcp SDK changed: ClientSession.{problem}; toolkit.mcp.outputs._hook must follow"


def test_a_session_of_an_sdk_shaped_otherwise_is_left_as_it_is_and_the_log_says_so_once(monkeypatch, caplog):
    class Session:
        def _output_schema_validator(self, tool, schema):
            return None

        async def validate_tool_result(self, name, result):
            return None

    class Bare:
        pass

    monkeypatch.setattr(toolkit.mcp.outputs, "_SHAPE_TOLD", [])
    with caplog.at_level(logging.WARNING, logger="toolkit.mcp"):
        for session in (Session(), Session(), Bare()):
            guard(session, "odd")
            assert vars(session) == {}
    assert [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"] == [
        "MCP outputSchema patterns are searched unbounded: this mcp SDK's ClientSession "
        "_output_schema_validator(self, name, output_schema) is gone (found ('self', 'tool', 'schema'))"
    ]
    assert toolkit.mcp.outputs.sdk_shape_problem(Bare) == (
        "_output_schema_validator(self, name, output_schema) is gone (found None)"
    )


def test_a_ref_to_a_url_in_a_stranger_s_output_schema_is_never_fetched(monkeypatch):
    """`jsonschema`'s default registry fetches `http://` refs with `urllib`, without a timeout: the
    package's own server checking a stranger's tool's answer fetched what its schema named, and a host
    that never answered held it for ever. A ref that does not resolve within the schema matches nothing."""
    import urllib.request

    from toolkit.mcp.outputs import matcher

    fetched = []

    def urlopen(url, *args, **kwargs):
        fetched.append(url)
        raise OSError("no network here")

    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    schema = {"type": "object", "properties": {"v": {"$ref": "http://169.254.169.254/latest/meta-data"}}}
    matches = matcher(schema, "t", "odd")
    assert (matches({"v": "a"}), matches({"w": 1}), fetched) == (False, True, [])


def test_a_stranger_s_output_schema_served_again_is_checked_with_bounded_searches_too(caplog):
    """`toolkit.mcp.server` checks what it serves again against the upstream tool's `outputSchema`
    (the value may have been cut on the way): with `jsonschema` as it is, `^(a+)+$` held the proxy."""
    from toolkit.mcp.server import tools_server

    schema = {"type": "object", "properties": {"v": {"type": "string", "pattern": EVIL}}}
    with caplog.at_level(logging.WARNING, logger="toolkit.mcp"):
        with McpClient(_server(schema, {"v": "a" * 40 + "!"}), name="odd", request_timeout=20) as upstream:
            served = tools_server([McpToolProvider([upstream])], name="shop")
            with McpClient(served, name="proxy", request_timeout=20) as client:
                result = client.call_tool("t", {})
    assert (result.is_error, result.structured_content) == (False, {"v": "a" * 40 + "!"})
    told = [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"]
    assert told == [_told(EVIL, 41).replace("'odd'", repr(server)) for server in ("odd", "shop", "proxy")]


@pytest.mark.parametrize(
    ("items", "wrong"),
    [
        ([{"a": i} for i in range(3000)], None),
        ([*({"a": i} for i in range(3000)), {"a": 7}], "has non-unique elements ({'a': 7} at 7 and 3000)"),
        ([1, "1", True, None, [1], {"a": 1}, 2.5], None),
        ([1, 1.0], "[1, 1.0] has non-unique elements (1.0 at 0 and 1)"),
        (
            [{"a": [1, True]}, {"a": [1, 1]}, {"a": [1.0, True]}],
            "has non-unique elements ({'a': [1.0, True]} at 0 and 2)",
        ),
        ([False, 0, [], {}, ""], None),
    ],
)
def test_unique_items_is_checked_in_linear_time_as_json_compares(items, wrong, monkeypatch):
    """`jsonschema` compares objects (anything it cannot sort) each with each: 2,000 distinct objects
    under `uniqueItems` took 16 s, a stranger's 100,000 hours, on the connection's loop. `1` and `1.0`
    are one JSON value; `1` and `true` are two."""
    import jsonschema._utils

    def refused(*_):
        raise AssertionError("items compared pairwise")

    monkeypatch.setattr(jsonschema._utils, "equal", refused)
    result = _answer({"type": "object", "properties": {"v": {"uniqueItems": True}}}, {"v": items})
    assert result.is_error == (wrong is not None)
    if wrong is not None:
        assert wrong in result.content and result.content.endswith("at v); the call ran, but its result cannot be used")


def test_an_enum_is_checked_against_a_set_of_its_values(monkeypatch):
    """`jsonschema` compares a value with each of an `enum`'s: an answer of 100,000 values under a
    stranger's `enum` of 10,000 took a thousand million comparisons, on the connection's loop."""
    import jsonschema._utils

    def refused(*_):
        raise AssertionError("values compared one by one")

    monkeypatch.setattr(jsonschema._utils, "equal", refused)
    listed = [{"k": i} for i in range(1000)] + [1, True, "x"]
    schema = {"type": "object", "properties": {"v": {"type": "array", "items": {"enum": listed}}}}
    assert not _answer(schema, {"v": [{"k": 5.0}, {"k": 999}, 1.0, True, "x"] * 200}).is_error
    for wrong, said in [(False, "False"), ({"k": 1000}, "{'k': 1000}")]:
        result = _answer(schema, {"v": [{"k": 1}, wrong]})
        assert result.content.endswith(
            f"its outputSchema ({said} is not one of [{{'k': 0}}, {{'k': 1}}, {{'k': 2}}, {{'k': 3}}, {{'k': 4}}, "
            "... (1003 in all)], at v/1); the call ran, but its result cannot be used"
        )


def test_a_tool_whose_output_schema_changed_is_checked_against_its_new_schema():
    """The SDK keeps its compiled validators in a dict it replaces at each full listing: the bounded ones
    must be read from the session's current dict, or a tool listed again with a new schema was checked
    against the old one."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    pattern = ["^a+$"]

    async def list_tools(ctx, params):
        schema = {"type": "object", "properties": {"v": {"type": "string", "pattern": pattern[0]}}}
        return types.ListToolsResult(
            tools=[types.Tool(name="t", input_schema={"type": "object"}, output_schema=schema)]
        )

    async def call_tool(ctx, params):
        value = "aaa" if pattern[0] == "^a+$" else "bbb"
        return types.CallToolResult(content=[types.TextContent(text=value)], structured_content={"v": value})

    with McpClient(Server("odd", version="1", on_list_tools=list_tools, on_call_tool=call_tool), name="odd") as client:
        client.list_tools()
        assert client.call_tool("t", {}).structured_content == {"v": "aaa"}
        pattern[0] = "^b+$"
        client.evict_tool_list_cache()
        client.list_tools()
        assert client.call_tool("t", {}).structured_content == {"v": "bbb"}


def test_reading_a_stranger_s_many_patterns_counts_too_and_the_log_says_so_a_hundred_times_at_most(monkeypatch, caplog):
    """Reading a pattern (`search_limit`) takes up to a millisecond: a schema of 100,000 patterns, each
    read once per answer, was minutes on the connection's loop before any search was counted."""
    monkeypatch.setattr(toolkit.mcp.outputs, "SEARCHES", 0.5)  # 10 patterns read, at 0.05 each
    properties = {f"p{i}": {"type": "string", "pattern": f"^x{i}[a-z]*$"} for i in range(115)}
    with caplog.at_level(logging.WARNING, logger="toolkit.mcp"):
        wrong = _answer({"type": "object", "properties": properties}, {f"p{i}": "?" for i in range(115)})
    assert wrong.is_error and "('?' does not match '^x" in wrong.content  # the patterns read still check
    told = [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"]
    unread = [_told(f"^x{i}[a-z]*$", 1, "this answer's searches had taken their share") for i in range(115)]
    assert len(told) == 100 and set(told) <= set(unread[5:])
