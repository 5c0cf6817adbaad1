"""toolkit.gateway.strict: strict mode's rules found at any depth, without recursion (a schema nested
past Python's recursion limit is a 400 or a 200, never a crash of the gateway)."""

import json

from toolkit.gateway.core import GatewayConfig, handle_http
from toolkit.gateway.strict import strict_problem

DEEP = 1500


def nested_items(depth, leaf):
    schema = leaf
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
    return schema


def test_a_schema_deeper_than_the_recursion_limit_is_walked_to_its_bottom():
    """Before: RecursionError out of `strict_problem`."""
    loose = {"type": "object", "properties": {"a": {"type": "string"}}}
    problem = strict_problem(nested_items(DEEP, loose))
    assert problem == (
        f"In context={('items',) * DEEP!r}, 'additionalProperties' is required to be supplied and to be false."
    )
    assert strict_problem(nested_items(DEEP, {"type": "string"})) is None


def test_the_first_problem_is_the_one_met_first_in_the_schemas_order():
    """Depth first, `properties` before `items` before `anyOf`, each in its order: the walk's order is kept."""
    loose = {"type": "object"}
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["a", "b"],
        "properties": {"a": {"anyOf": [{"type": "string"}, loose]}, "b": loose},
        "anyOf": [loose],
    }
    assert strict_problem(schema) == (
        "In context=('properties', 'a', 'anyOf', '1'), 'additionalProperties' is required to be supplied and to be "
        "false."
    )


def test_a_strict_tool_nested_a_thousand_deep_is_answered_not_a_crash():
    """Before: `Gateway.handle` raised RecursionError (the HTTP server's 500) for a strict tool whose schema
    nests `items` 1,000 deep (within orjson's 1,024 levels)."""
    deep = '{"type":"array","items":' * 1000 + '{"type":"object"}' + "}" * 1000
    parameters = {"type": "object", "properties": {"x": "@"}, "required": ["x"], "additionalProperties": False}
    function = {"name": "f", "strict": True, "parameters": parameters}
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": function}],
    }
    raw = json.dumps(body).replace('"@"', deep).encode()
    reply = handle_http("POST", "/v1/chat/completions", {"content-type": "application/json"}, raw, GatewayConfig())
    context = ("properties", "x", *("items",) * 1000)
    assert (reply.status, reply.body["error"]["message"]) == (
        400,
        f"Invalid schema for function 'f': In context={context!r}, 'additionalProperties' is required to be "
        "supplied and to be false.",
    )
