"""The model's arguments to an MCP tool checked before they are sent (`toolkit.mcp.schema.checked_arguments`).

A wrong type or a missing required field went to the server, which answered in its SDK's words
(or did the wrong thing); now the model reads the same `ArgumentError` a local tool gives, and
the server is not called. What the server's schema allows, or what cannot be read for sure, is
sent as before."""

import pytest
from mcp.server.mcpserver import MCPServer

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider
from toolkit.mcp.schema import CHECKED_BY_SERVER, checked_arguments
from toolkit.tools.execute import FEED_BACK_ALL, execute, function_tool


def order(sku: str, qty: int, note: str | None = None, gift: bool = False) -> str:
    """Order `qty` of `sku`."""
    return f"{sku} x{qty} note={note} gift={gift}"


@pytest.fixture
def shop():
    """The same function served over MCP, and the calls that reached the server."""
    server, calls = MCPServer("shop"), []

    @server.tool()
    def order_(sku: str, qty: int, note: str | None = None, gift: bool = False) -> str:
        calls.append((sku, qty, note, gift))
        return order(sku, qty, note, gift)

    provider = McpToolProvider([McpClient(server, name="shop", connect_timeout=60)])
    yield {t.name: t for t in provider.provide()}, calls
    provider.close()


def _error(tools, name, arguments):
    with pytest.raises(ArgumentError) as caught:
        execute(ToolCall(id="1", name=name, arguments=arguments), tools)
    return str(caught.value)


@pytest.mark.parametrize(
    "arguments, text",
    [
        ('{"sku": "a", "qty": "many"}', '- qty: got "many", expected an integer'),
        ('{"qty": 2}', "- sku: missing, expected a string"),
        ('{"sku": "a", "qty": 2.5}', "- qty: got 2.5, expected an integer"),
        ('{"sku": 5, "qty": 2}', "- sku: got 5, expected a string"),
        ('{"sku": "a", "qty": 2, "gift": "yes"}', '- gift: got "yes", expected true or false'),
    ],
)
def test_wrong_arguments_to_an_mcp_tool_are_the_local_tool_s_error_and_are_not_sent(shop, arguments, text):
    tools, calls = shop
    local = {"order_": function_tool(order, name="order_")}
    expected = f"Invalid arguments for tool 'order_':\n{text}\nFix the arguments and call order_ again."
    assert _error(tools, "order_", arguments) == expected == _error(local, "order_", arguments)
    assert calls == []


@pytest.mark.parametrize(
    "arguments, sent",
    [
        ('{"sku": "a", "qty": "27"}', ("a", 27, None, False)),  # toolkit's coercion takes it, and so does the server
        ('{"sku": "a", "qty": 2, "gift": null}', ("a", 2, None, False)),  # null for an optional: its default
        ('{"sku": "a", "qty": 2, "note": null}', ("a", 2, None, False)),  # a field that takes null
        ('{"sku": "a", "qty": 2, "extra": 1}', ("a", 2, None, False)),  # the schema allows more fields
    ],
)
def test_what_the_server_s_schema_allows_is_sent(shop, arguments, sent):
    tools, calls = shop
    result = execute(ToolCall(id="1", name="order_", arguments=arguments), tools)
    assert not result.is_error, result.content
    assert calls == [sent]


ITEM = {"type": "object", "properties": {"qty": {"type": "integer"}}, "required": ["qty"]}


@pytest.mark.parametrize(
    "schema, arguments, lines",
    [
        (  # draft-07 definitions, a nested object and an array of them
            {
                "type": "object",
                "properties": {"items": {"type": "array", "items": {"$ref": "#/definitions/Item"}}},
                "definitions": {"Item": ITEM},
            },
            {"items": [{"qty": 1}, {"qty": "x"}, {}]},
            ['- items[1].qty: got "x", expected an integer', "- items[2].qty: missing, expected an integer"],
        ),
        (  # a union
            {"type": "object", "properties": {"id": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}},
            {"id": [1]},
            ["- id: got [1], expected an integer or a string"],
        ),
        (  # a type array, an enum, a bound
            {
                "type": "object",
                "properties": {"n": {"type": ["integer", "null"], "minimum": 1}, "c": {"enum": ["red", "blue"]}},
            },
            {"n": 0, "c": "green"},
            ["- n: got 0, expected a number >= 1", '- c: got "green", expected one of "red", "blue"'],
        ),
        (  # a union of objects: what the nearest branch lacks, its fields named by the union's properties
            {
                "type": "object",
                "properties": {"kind": {"type": "string"}, "id": {"type": "integer"}, "name": {"type": "string"}},
                "oneOf": [
                    {"properties": {"kind": {"const": "id"}}, "required": ["kind", "id"]},
                    {"properties": {"kind": {"const": "name"}}, "required": ["kind", "name"]},
                ],
            },
            {"kind": "name"},
            ["- name: missing, expected a string"],
        ),
        (
            {
                "type": "object",
                "oneOf": [
                    {"properties": {"kind": {"const": "id"}, "id": {"type": "integer"}}, "required": ["kind", "id"]},
                    {
                        "properties": {"kind": {"const": "name"}, "name": {"type": "string"}},
                        "required": ["kind", "name"],
                    },
                ],
            },
            {"kind": "id", "id": "x"},
            ['- id: got "x", expected an integer'],
        ),
        (  # a union of objects whose branches fail alike: the one naming the fields sent (it said 'a: missing')
            {
                "type": "object",
                "oneOf": [
                    {"properties": {"a": {"type": "string"}}, "required": ["a"]},
                    {"properties": {"b": {"type": "integer"}}, "required": ["b"]},
                ],
            },
            {"b": "x"},
            ['- b: got "x", expected an integer'],
        ),
        (  # a branch of another type is not the nearest ('q: got {}, expected a string')
            {
                "type": "object",
                "properties": {
                    "q": {
                        "anyOf": [
                            {"type": "string"},
                            {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                        ]
                    }
                },
            },
            {"q": {}},
            ["- q.a: missing, expected an integer"],
        ),
        (  # the same through references, the branch naming more of them winning over fewer errors
            {
                "type": "object",
                "anyOf": [{"$ref": "#/$defs/ById"}, {"$ref": "#/$defs/ByName"}],
                "$defs": {
                    "ById": {"properties": {"id": {"type": "integer"}}, "required": ["id"]},
                    "ByName": {
                        "properties": {"first": {"type": "string"}, "last": {"type": "string"}},
                        "required": ["first", "last"],
                    },
                },
            },
            {"first": 1, "last": 2},
            ["- first: got 1, expected a string", "- last: got 2, expected a string"],
        ),
        (  # a field whose schema is false (TypeScript's never): jsonschema lost its name ('arguments', 'None: null')
            {"type": "object", "properties": {"x": True, "y": False}, "$defs": {"No": False}, "anyOf": [{}]},
            {"x": 1, "y": 2},
            ["- y: got 2, expected no value (its schema takes none)"],
        ),
        (
            {"type": "object", "properties": {"z": {"$ref": "#/$defs/No"}}, "$defs": {"No": False}},
            {"z": [1]},
            ["- z: got [1], expected no value (its schema takes none)"],
        ),
        (  # a field required by allOf (or then) but named by the object's properties: its type ('any value')
            {
                "type": "object",
                "properties": {"a": {"type": "string"}, "o": {"$ref": "#/$defs/O"}},
                "allOf": [{"required": ["o"]}],
                "$defs": {
                    "O": {"type": "object", "properties": {"b": {"type": "integer"}}, "allOf": [{"required": ["b"]}]}
                },
            },
            {"a": "x"},
            ["- o: missing, expected an object"],
        ),
        (
            {
                "type": "object",
                "properties": {"a": {"type": "string"}, "o": {"$ref": "#/$defs/O"}},
                "if": {"required": ["a"]},
                "then": {"required": ["o"]},
                "$defs": {"O": {"properties": {"b": {"type": "integer"}}, "allOf": [{"required": ["b"]}]}},
            },
            {"a": "x", "o": {}},
            ["- o.b: missing, expected an integer"],
        ),
        (  # an untyped field of properties: the object the model was told of ('any value')
            {"type": "object", "properties": {"o": {"properties": {"b": {"type": "integer"}}}}, "required": ["o"]},
            {},
            ["- o: missing, expected an object"],
        ),
        (  # a field another one needs (dependentRequired; draft-07's dependencies): said as missing
            {
                "type": "object",
                "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
                "dependentRequired": {"a": ["b"]},
            },
            {"a": "x"},
            ["- b: missing, expected an integer (needed when a is given)"],
        ),
        (  # draft-4's exclusive bound; a size in the singular
            {
                "$schema": "http://json-schema.org/draft-04/schema#",
                "type": "object",
                "properties": {
                    "n": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
                    "q": {"type": "string", "minLength": 1},
                },
            },
            {"n": 0, "q": ""},
            ["- n: got 0, expected a number > 0", '- q: got "", expected a string of at least 1 character'],
        ),
        (  # a keyword without words of its own
            {"type": "object", "properties": {"tags": {"type": "array", "uniqueItems": True}}},
            {"tags": ["a", "a"]},
            ['- tags: got ["a", "a"], expected a value its schema allows (uniqueItems: true)'],
        ),
        (  # no other fields: the valid ones named, unknown ones first
            {
                "type": "object",
                "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                "required": ["a"],
                "additionalProperties": False,
            },
            {"b": 1, "z": 1},
            [
                "- z: unknown field (got 1), valid fields: a, b",
                "- a: missing, expected a string",
                "- b: got 1, expected a string",
            ],
        ),
    ],
)
def test_problems_are_said_in_toolkit_s_words(schema, arguments, lines):
    assert [problem.line() for problem in checked_arguments(schema, arguments)[1]] == lines


@pytest.mark.parametrize(
    "schema, arguments",
    [
        ({"type": "object", "properties": {"d": {"type": "string", "format": "ulid"}}}, {"d": "not one"}),
        ({"type": "object", "properties": {"d": {"type": "string", "format": "date"}}}, {"d": "someday"}),
        ({"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}, {"s": "a" * 40 + "b"}),
        ({"type": "object", "properties": {"x": {"$ref": "https://example.com/x.json"}}}, {"x": 1}),
        ({"type": "object", "properties": {"x": {"$ref": "#/$defs/Gone"}}}, {"x": 1}),
        ({"type": "object", "properties": {"x": {"type": "thing"}}}, {"x": 1}),
        (
            {"type": "object", "patternProperties": {"^x_": {"type": "integer"}}, "additionalProperties": False},
            {"x_1": 1},
        ),
        ({"type": "object", "properties": {"n": {"type": "number"}}}, {"n": "2.5"}),
        ({"type": "object", "properties": {"n": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}, {"n": "27"}),
    ],
)
def test_what_cannot_be_read_for_sure_is_left_to_the_server(schema, arguments):
    """Formats, patterns, references that lead out of the schema (or nowhere), a schema that is not
    valid: the server checks them."""
    assert checked_arguments(schema, arguments) == (arguments, [])


def test_a_null_is_left_out_only_where_the_field_is_optional_and_refuses_it():
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": ["string", "null"]},
            "c": {"type": "string"},
            "d": {"$ref": "#/$defs/D"},
            "e": {"$ref": "#/$defs/E"},
        },
        "required": ["c"],
        "$defs": {"D": {"type": "integer"}, "E": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
    }
    arguments = {"a": None, "b": None, "c": None, "d": None, "e": None}
    sent, problems = checked_arguments(schema, arguments)
    assert sent == {"b": None, "c": None, "e": None}
    assert [p.line() for p in problems] == ["- c: got null, expected a string"]
    assert arguments == {"a": None, "b": None, "c": None, "d": None, "e": None}  # the model's own left as it was


def test_a_server_that_checks_arguments_itself_keeps_its_own_words():
    """toolkit's own server says its tools check their arguments (`_meta`): the week-3 shop served
    over MCP answers a wrong call with the course's messages, as it does locally."""
    from toolkit.course.assistant import shop_registry
    from toolkit.course.shop import load_shop
    from toolkit.mcp.server import tools_server

    tools = shop_registry(load_shop()).tools()
    served = McpToolProvider([McpClient(tools_server(tools), name="shop", connect_timeout=60)])
    try:
        remote = {t.name: t for t in served.provide()}
        call = ToolCall(id="1", name="query_order", arguments="{}")
        local = {t.name: t for t in tools}["query_order"].execute(call, None, FEED_BACK_ALL)
        got = remote["query_order"].execute(call, None, FEED_BACK_ALL)
    finally:
        served.close()
    assert remote["query_order"].spec.metadata["_meta"] == {CHECKED_BY_SERVER: True}
    assert (got.is_error, got.content) == (True, f"Tool 'query_order' failed: {local.content}")
    assert local.content.startswith("参数校验失败。字段=orderId")


@pytest.mark.parametrize(("extra", "problems"), [([], 0), ([{"a": 5}], 1), ([{"a": 5.0}], 1), ([{"a": True}], 0)])
def test_unique_items_in_the_model_s_arguments_is_checked_in_linear_time(extra, problems, monkeypatch):
    """jsonschema compares objects each with each for `uniqueItems`: 2,000 of them in the model's
    arguments took 21 s before the call was even sent. `{"a": 5.0}` repeats `{"a": 5}`; `true` is no 1."""
    import jsonschema._utils

    compared = []

    def counted(one, two, equal=jsonschema._utils.equal):
        compared.append(1)
        if len(compared) > 10_000:  # pairwise: 4.5 million of them
            raise AssertionError("items compared pairwise")
        return equal(one, two)

    monkeypatch.setattr(jsonschema._utils, "equal", counted)
    schema = {"type": "object", "properties": {"v": {"type": "array", "uniqueItems": True}}}
    _, found = checked_arguments(schema, {"v": [{"a": i} for i in range(3000)] + extra})
    assert [(p.field, p.expected) for p in found] == [("v", "a value its schema allows (uniqueItems: true)")] * problems
    assert len(compared) <= 10_000


def test_an_enum_in_the_model_s_arguments_is_checked_against_a_set_of_its_values(monkeypatch):
    """jsonschema compares each value with each of an `enum`'s: 1,000 values under an `enum` of 3,000
    objects were three million comparisons before the call was sent."""
    import jsonschema._utils

    def refused(*_):
        raise AssertionError("values compared one by one")

    monkeypatch.setattr(jsonschema._utils, "equal", refused)
    listed = [{"k": i} for i in range(3000)] + [1, "x"]
    schema = {"type": "object", "properties": {"v": {"type": "array", "items": {"enum": listed}}}}
    assert checked_arguments(schema, {"v": [{"k": 7.0}, 1.0, "x"] * 300}) == ({"v": [{"k": 7.0}, 1.0, "x"] * 300}, [])
    _, found = checked_arguments(schema, {"v": [{"k": 7}, True, {"k": 3000}]})
    assert [p.field for p in found] == ["v[1]", "v[2]"]
