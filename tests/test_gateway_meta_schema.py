"""toolkit.gateway.meta_schema: a tool schema that is no JSON Schema is a 400 with OpenAI's sentence,
the sentence `jsonschema`'s Draft 2020-12 meta-schema gives (the trusted reference)."""

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from toolkit.gateway.core import GatewayConfig, respond
from toolkit.gateway.meta_schema import plain_parameters, schema_problem
from toolkit.search.catalog import load_catalog
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from

HI = [{"role": "user", "content": "查询订单 SN202610200001"}]
ORDER_TOOL = {
    "type": "function",
    "function": {
        "name": "query_order",
        "parameters": {"type": "object", "properties": {"orderId": {"type": "string"}}},
    },
}


META = Draft202012Validator(Draft202012Validator.META_SCHEMA)


def loose_tool(parameters):
    return {"type": "function", "function": {"name": "f", "description": "查询订单", "parameters": parameters}}


def obj(**properties):
    return {"type": "object", "properties": properties}


BAD = [
    # a learner's usual slips: a Python type name, a type alone, draft 3's `required: true`
    (obj(a={"type": "str"}), "'str' is not valid under any of the given schemas."),
    (obj(a={"type": "String"}), "'String' is not valid under any of the given schemas."),
    (obj(a="string"), "'string' is not of type 'object', 'boolean'."),
    (obj(a={"type": "string", "required": True}), "True is not of type 'array'."),
    ({**obj(a={"type": "string"}), "required": "a"}, "'a' is not of type 'array'."),
    (
        obj(a={"type": ["string", "nope"]}),
        "'nope' is not one of ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'].",
    ),
    (obj(a={"type": []}), "[] should be non-empty."),
    (obj(a={"type": ["string", "string"]}), "['string', 'string'] has non-unique elements."),
    (obj(a={"type": 5}), "5 is not valid under any of the given schemas."),
    (obj(a={"type": "string", "enum": "x"}), "'x' is not of type 'array'."),
    ({"type": "object", "properties": [{"a": 1}]}, "[{'a': 1}] is not of type 'object'."),
    # nested: found once the cheap look sends the tool to the walk (a bad parameter beside it)
    (
        obj(x={"type": "int"}, a={"type": "array", "items": {"type": "str"}}),
        "'int' is not valid under any of the given schemas.",
    ),
    (
        obj(a={"type": "object", "properties": {"b": {"type": "float"}}, "required": True}),
        "True is not of type 'array'.",
    ),
    (  # a type list, right, is walked: what is below it too
        obj(a={"type": ["string", "null"]}, b={"type": "object", "properties": {"c": {"type": "float"}}}),
        "'float' is not valid under any of the given schemas.",
    ),
]
WALKED = [  # what the cheap look once left to the walk: refused in a plain tool too
    ({**obj(a={"type": "string"}), "required": ["a", "a"]}, "['a', 'a'] has non-unique elements."),
    ({**obj(a={"type": "string"}), "required": [1]}, "1 is not of type 'string'."),
    (obj(a={"anyOf": []}), "[] should be non-empty."),
    (obj(a={"anyOf": {"type": "string"}}), "{'type': 'string'} is not of type 'array'."),
    (obj(a={"not": 3}), "3 is not of type 'object', 'boolean'."),
    (obj(a={"type": "object", "additionalProperties": "no"}), "'no' is not of type 'object', 'boolean'."),
    (
        {**obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": {"type": "dict"}}},
        "'dict' is not valid under any of the given schemas.",
    ),
    (obj(a={"type": "array", "items": {"type": "int"}}), "'int' is not valid under any of the given schemas."),
    # nested below a parameter's own keywords (round 8's left-overs)
    (obj(a={"type": "object", "properties": [1]}), "[1] is not of type 'object'."),
    (obj(a={"type": "array", "items": 3}), "3 is not of type 'object', 'boolean'."),
    (
        obj(a={"type": "object", "properties": {"x": {"type": "string"}}, "required": "x"}),
        "'x' is not of type 'array'.",
    ),
    (obj(a={"anyOf": [{"type": "str"}]}), "'str' is not valid under any of the given schemas."),
    (
        obj(a={"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "int"}}}}}),
        "'int' is not valid under any of the given schemas.",
    ),
    (
        {**obj(a={"type": "string"}), "$defs": {"A": {"type": "dict"}}},
        "'dict' is not valid under any of the given schemas.",
    ),
    ({**obj(a={"type": "string"}), "anyOf": [{"required": ["a", "a"]}]}, "['a', 'a'] has non-unique elements."),
]


@pytest.mark.parametrize(("parameters", "sentence"), WALKED)
def test_a_tool_is_checked_all_through_strict_with_arrays_or_plain(parameters, sentence):
    """Before: a plain tool (not strict, no array) passing the cheap look was 200 with a nested mistake."""
    strict = loose_tool(parameters)
    strict["function"]["strict"] = True
    arrays = loose_tool({**parameters, "properties": {**parameters["properties"], "l": {"type": "array"}}})
    for sent in (loose_tool(parameters), strict, arrays):
        reply = respond({"model": "m", "messages": HI, "tools": [sent]}, GatewayConfig())
        assert (reply.status, reply.body["error"]["message"]) == (400, f"Invalid schema for function 'f': {sentence}")


@pytest.mark.parametrize(("parameters", "sentence"), BAD)
def test_a_schema_that_is_no_json_schema_is_400_with_the_validators_sentence(parameters, sentence):
    reply = respond({"model": "m", "messages": HI, "tools": [ORDER_TOOL, loose_tool(parameters)]}, GatewayConfig())
    error = reply.body["error"]
    assert (reply.status, error["message"], error["param"], error["code"]) == (
        400,
        f"Invalid schema for function 'f': {sentence}",
        "tools[1].function.parameters",
        "invalid_function_parameters",
    )


@pytest.mark.parametrize(("parameters", "sentence"), BAD + WALKED)
def test_the_sentence_is_jsonschemas_for_the_meta_schema(parameters, sentence):
    validator = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    assert (
        schema_problem(parameters) == jsonschema.exceptions.best_match(validator.iter_errors(parameters)).message + "."
    )


@pytest.mark.parametrize(
    "parameters",
    [
        {},
        {"type": "object"},
        obj(a={"type": ["string", "null"]}, b=True, c={}),
        {
            **obj(a={"type": "object", "properties": {"type": {"type": "string"}}, "required": ["type"]}),
            "required": ["a"],
        },
        obj(items={"type": "array", "items": [{"type": "string"}]}),  # draft 7's tuple form: let through
        obj(a={"enum": [1, "x", None]}, b={"anyOf": [{"type": "string"}, {"type": "null"}]}),
    ],
)
def test_json_schemas_pass(parameters):
    assert schema_problem(parameters) is None
    reply = respond({"model": "m", "messages": HI, "tools": [loose_tool(parameters)]}, GatewayConfig())
    assert reply.status == 200


def test_every_catalogue_and_reflected_schema_passes_and_the_cheap_look_agrees():
    @tool("查询订单")
    def query(order_id: str, items: list[int], note: str | None = None, flag: bool = False) -> str:
        return ""

    schemas = [spec.parameters or {} for spec in load_catalog().tools] + [
        tools_from(query)[0].spec.to_openai()["function"]["parameters"]
    ]
    assert all(schema_problem(schema) is None and plain_parameters(schema) for schema in schemas)
    assert all(META.is_valid(schema) for schema in schemas[::10] + schemas[-1:])


SLIPS = st.sampled_from(["string", "integer", "object", "array", "null", "str", "int", "String", "", "a"])
KEYWORDS = st.sampled_from(["type", "properties", "required", "enum", "items", "anyOf", "not", "$defs", "description"])
VALUES = st.none() | st.booleans() | st.integers(-2, 2) | SLIPS | st.lists(SLIPS, max_size=3)
SCHEMAS = st.recursive(
    st.dictionaries(KEYWORDS, VALUES, max_size=3) | st.booleans(),
    lambda inner: st.dictionaries(
        KEYWORDS, inner | VALUES | st.lists(inner, max_size=2) | st.dictionaries(SLIPS, inner, max_size=2), max_size=4
    ),
    max_leaves=12,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCHEMAS)
def test_a_schema_is_refused_only_when_jsonschema_refuses_it_and_the_gateway_never_fails(schema):
    """Never a false refusal (what the meta-schema takes passes), never a 5xx; what the walk refuses
    the meta-schema refuses too (the walk lets draft 7's `items` array through)."""
    problem = schema_problem(schema)
    assert problem is None or not META.is_valid(schema)
    if META.is_valid(schema):
        assert problem is None
    parameters = {"type": "object", "properties": {"a": schema}}
    reply = respond({"model": "m", "messages": HI, "tools": [loose_tool(parameters)]}, GatewayConfig())
    assert reply.status in (200, 400)
    if schema_problem(parameters) is not None:
        assert reply.body["error"]["message"] == f"Invalid schema for function 'f': {schema_problem(parameters)}"


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize(("schema", "sentence"), [(p, s) for p, s in BAD[:4]] + [({"type": "str"}, BAD[0][1])])
def test_a_response_format_schema_that_is_no_json_schema_is_400_strict_or_not(schema, sentence, strict):
    """Before: without `strict` it was answered with an instance of whatever it was (`{"type": "str"}`: the
    user's text as a JSON string); with it, `{"type": "str"}` was told its root must be an object's."""
    spec = {"name": "r", "schema": schema, "strict": strict}
    request = {"model": "m", "messages": HI, "response_format": {"type": "json_schema", "json_schema": spec}}
    reply = respond(request, GatewayConfig())
    error = reply.body["error"]
    assert (reply.status, error["message"], error["param"], error["code"]) == (
        400,
        f"Invalid schema for response_format 'r': {sentence}",
        "response_format",
        "invalid_json_schema",
    )


def walked_problem(schema):
    """`schema_problem` as first written: `_keyword_problem` at every node, every keyword looked for."""
    from toolkit.gateway import meta_schema as m

    stack = [schema]
    while stack:
        node = stack.pop()
        if type(node) is bool:
            continue
        if type(node) is not dict:
            return f"{m._shown(node)} is not of type 'object', 'boolean'."
        problem = m._keyword_problem(node)
        if problem is not None:
            return problem
        children = []
        for key in m._NAMED:
            if key in node:
                children.extend(node[key].values())
        for key in m._ONE:
            if key in node and not (key in ("items", "additionalItems") and type(node[key]) is list):
                children.append(node[key])
        for key in m._MANY:
            children.extend(node.get(key, ()))
        stack.extend(reversed(children))
    return None


EVERY_KEYWORD = "type description default properties $defs definitions required enum".split()
EVERY_KEYWORD += "items additionalItems additionalProperties not anyOf allOf oneOf".split()
LEAF_VALUES = [None, True, False, 0, 2, "string", "integer", "object", "str", "", "a", "type"]
LEAF_VALUES += [[], ["a"], ["a", "a"], ["string", "null"], ["int"], [1], {}]


def generated_schema(rng, depth=0):
    """A schema (or a slip where one belongs) of random keywords, nested up to three deep."""
    if rng.random() < 0.15:
        return rng.choice([True, False, "string", 1, None])
    node = {}
    for key in rng.sample(EVERY_KEYWORD, rng.randint(0, 4)):
        shape = rng.random() if depth < 3 else 0
        if shape < 0.45:
            node[key] = rng.choice(LEAF_VALUES)
        elif shape < 0.7:
            node[key] = generated_schema(rng, depth + 1)
        elif shape < 0.85:
            node[key] = [generated_schema(rng, depth + 1) for _ in range(rng.randint(0, 2))]
        else:
            node[key] = {name: generated_schema(rng, depth + 1) for name in rng.sample(["a", "b", "type"], 2)}
    return node


def test_the_walk_skipping_plain_nodes_gives_the_sentence_of_the_walk_through_every_node():
    """A node with a valid type and no keyword `_keyword_problem` reads is not asked, a node holding no
    schema is not looked into (`schema_problem`'s fast path): the first problem found stays the same."""
    import random

    rng = random.Random(16)
    schemas = [generated_schema(rng) for _ in range(400)]
    schemas += [{"type": "object", "properties": {"a": schema, "b": {"type": "string"}}} for schema in schemas]
    sentences = [schema_problem(schema) for schema in schemas]
    assert sentences == [walked_problem(schema) for schema in schemas]
    assert 100 < sentences.count(None) < 700  # both answers are common among the cases


PARAMETER_KEYWORDS = "type description default enum required $ref format minimum".split()
HOLDERS = "items additionalProperties not anyOf allOf prefixItems properties".split()
PARAMETER_VALUES = [None, True, False, 0, 1.5, "string", "integer", "null", "str", "", ["a", 1], ["a", "a"], []]
PARAMETER_VALUES += [[["a"]], {}, {"k": 1}, {"k": [1]}, ["string", "null"], ("a",), [{"type": "string"}]]


def generated_parameter(rng, depth=2):
    """A schema near the flat shape `flat_parameters` answers: mostly scalars, an `enum`, a default,
    schemas held below it (`items`, `anyOf`, `properties`, ...) up to `depth` + 1 deep, now and then
    a slip or a keyword it does not take."""
    if rng.random() < 0.05:
        return rng.choice([True, "string", None, ["a"]])
    node = {}
    keys = rng.sample(PARAMETER_KEYWORDS, rng.randint(0, 3)) + rng.sample(HOLDERS, rng.choice([0, 0, 1, 2]))
    for key in keys:
        shape = rng.random()
        if key in HOLDERS and depth >= 0 and shape < 0.7:
            if key in ("anyOf", "allOf", "prefixItems"):
                node[key] = [generated_parameter(rng, depth - 1) for _ in range(rng.randint(0, 3))]
            elif key == "properties":
                node[key] = {name: generated_parameter(rng, depth - 1) for name in rng.sample("xyz", 2)}
            else:
                node[key] = generated_parameter(rng, depth - 1)
        elif key == "type" and shape < 0.8:
            node[key] = rng.choice(["string", "integer", "number", "boolean", "array", "null", "object"])
        else:
            node[key] = rng.choice(PARAMETER_VALUES)
    return node


def generated_parameters(rng):
    """A parameters object of generated parameters (and `$defs`), its root now and then holding what a
    reflected one does not."""
    names = rng.sample(["a", "b", "c", "type", "items"], rng.randint(0, 4))
    schema = {"type": "object", "properties": {name: generated_parameter(rng, rng.choice([2, 3])) for name in names}}
    if rng.random() < 0.7:
        schema["required"] = rng.choice([names[:2], names + names[:1], [1], "a", []])
    if rng.random() < 0.6:
        schema["additionalProperties"] = rng.choice([False, False, True, {}, "no"])
    if rng.random() < 0.3:
        schema["$defs"] = {name: generated_parameter(rng) for name in rng.sample(["A", "B"], rng.randint(0, 2))}
    if rng.random() < 0.1:
        schema[rng.choice(["$defs", "description", "not"])] = rng.choice([{}, "x", {"A": {"type": "str"}}])
    if rng.random() < 0.05:
        del schema["properties"]
    return schema


def test_a_flat_parameters_object_is_one_the_walk_passes_and_nests_no_deeper_than_said():
    """`flat_parameters` (the check that spares `Tool(...)` the walk) answers True only for what
    `schema_problem` passes and what nests no deeper than `FLAT_LEVELS` (so never past
    `execute.MAX_SCHEMA_LEVELS`): a `Tool` refuses exactly what it refused with the walk alone."""
    import random

    from toolkit.gateway.meta_schema import FLAT_LEVELS, flat_parameters
    from toolkit.tools.execute import MAX_SCHEMA_LEVELS, _nested_past

    assert FLAT_LEVELS < MAX_SCHEMA_LEVELS
    rng = random.Random(52)
    schemas = [generated_parameters(rng) for _ in range(4000)]
    flat = [schema for schema in schemas if flat_parameters(schema)]
    assert all(schema_problem(schema) is None and not _nested_past(schema, FLAT_LEVELS) for schema in flat)
    assert 400 < len(flat) < 3600  # both answers are common among the cases
    walked = [schema for schema in schemas if schema_problem(schema) is None and not flat_parameters(schema)]
    assert walked  # valid ones it leaves to the walk (a `$defs`, a `not`, a `type` list) exist among them


FLAT = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "The city"},
        "units": {"enum": ["metric", "imperial"], "type": "string", "default": "metric"},
        "ids": {"type": "array", "items": {"type": "integer"}, "default": [1, 2]},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
        "tags": {"type": "object", "default": {"k": "v"}},
    },
    "required": ["city"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("schema", "flat"),
    [
        (FLAT, True),
        ({"type": "object"}, True),
        ({**FLAT, "required": ["city", "city"]}, False),
        ({**FLAT, "additionalProperties": {"type": "string"}}, False),
        ({**FLAT, "properties": {"t": {"type": "object", "additionalProperties": {"type": "string"}}}}, True),
        ({**FLAT, "properties": {"t": {"type": ["string", "null"]}}}, False),
        ({**FLAT, "properties": {"t": {"type": "str"}}}, False),
        ({**FLAT, "properties": {"t": {"type": "array", "items": {"type": "array", "items": {}}}}}, True),
        ({**FLAT, "properties": {"t": {"anyOf": [{"anyOf": [{"enum": ["a"]}]}]}}}, True),  # FLAT_LEVELS deep
        ({**FLAT, "properties": {"t": {"anyOf": [{"anyOf": [{"anyOf": [{"type": "string"}]}]}]}}}, False),
        ({**FLAT, "properties": {"t": {"type": "array", "items": {"items": {"items": {}}}}}}, False),
    ],
)
def test_the_parameters_of_the_usual_reflected_signature_are_flat(schema, flat):
    """`str` with a description, a `Literal`, `list[int]`, `X | None`, `dict[str, str]`, bounds, flat defaults: no walk for
    them; a schema held deeper, a `type` list or a slip is left to the walk."""
    from toolkit.gateway.meta_schema import FLAT_LEVELS, flat_parameters
    from toolkit.tools.execute import _nested_past

    assert flat_parameters(schema) is flat
    assert schema_problem(schema) is None or not flat
    assert not _nested_past(schema, FLAT_LEVELS) or not flat
