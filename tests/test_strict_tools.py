"""`LoopOptions(strict_tools=True)`: strict specs are SENT (OpenAI strict mode), through the loop
and `ai_service`, and the strict-mode calls they produce (`null` for optional fields) run."""

from typing import Annotated, Protocol

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ToolDefinitionError
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.services.service import ai_service
from toolkit.tools.decorator import Param, tool
from toolkit.tools.execute import tools_from

SEEN: list[tuple[str, int]] = []


@tool("Search the user's orders.")
def search_orders(query: Annotated[str, Param("Words to look for")], limit: int = 10) -> str:
    SEEN.append((query, limit))
    return f"{query}: {limit} results"


@tool("Label an order.")
def label_order(order_id: str, labels: dict[str, str]) -> str:
    return ""


Q = [UserMessage(content="find cases")]


def test_the_loop_sends_strict_specs_and_runs_a_strict_call():
    """Seed 000 §3.1 (LangChain4j `strictTools`): the spec carries `strict: true` and every
    property required, the optional one nullable; the model's `null` means the default."""
    SEEN.clear()
    model = ScriptedModel([call("search_orders", query="case", limit=None), "done"])
    result = run_loop(model, Q, tools=tools_from(search_orders), options=LoopOptions(strict_tools=True))
    [spec] = result.rounds[0].tools_payload
    assert spec["function"]["strict"] is True
    assert spec["function"]["parameters"] == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Words to look for"},
            "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        },
        "required": ["query", "limit"],
        "additionalProperties": False,
    }
    assert SEEN == [("case", 10)] and result.answer == "done"


def test_default_is_not_strict():
    model = ScriptedModel(["hi"])
    result = run_loop(model, Q, tools=tools_from(search_orders))
    assert "strict" not in result.rounds[0].tools_payload[0]["function"]


def test_a_tool_that_cannot_be_strict_is_a_developer_error_at_the_first_request():
    with pytest.raises(ToolDefinitionError):
        run_loop(ScriptedModel(["hi"]), Q, tools=tools_from(label_order), options=LoopOptions(strict_tools=True))


class Assistant(Protocol):
    def ask(self, question: str) -> str: ...


class Recording(ScriptedModel):
    def chat(self, messages, *, tools=None, tool_choice=None, **extra):
        self.sent = [*getattr(self, "sent", []), tools]
        return super().chat(messages, tools=tools, tool_choice=tool_choice, **extra)


def test_ai_service_sends_strict_specs():
    SEEN.clear()
    model = Recording([call("search_orders", query="x", limit=3), "ok"])
    assistant = ai_service(Assistant, model=model, tools=[search_orders], options=LoopOptions(strict_tools=True))
    assert assistant.ask("find x") == "ok"
    assert SEEN == [("x", 3)]
    assert [t["function"]["strict"] for t in model.sent[0]] == [True]


@pytest.mark.parametrize(
    ("properties", "parameter", "problem", "fix"),
    [
        ({"city": True}, "city", "needs a type for every value, but this one accepts any value", "give it a concrete"),
        ({"tags": {"type": "array", "items": True}}, "tags[]", "needs a type for every value", "give it a concrete"),
        ({"id": {"anyOf": [True, {"type": "string"}]}}, "id", "needs a type for every value", "give it a concrete"),
        ({"zone": False}, "zone", "cannot take a schema that accepts no value (false)", "remove the parameter"),
    ],
)
def test_a_boolean_schema_cannot_be_strict_and_says_so(properties, parameter, problem, fix):
    """`true` / `false` are valid JSON Schema; strict mode raised AttributeError on them."""
    from toolkit.tools.reflect import ToolSpec

    spec = ToolSpec("t", "Look things up.", {"type": "object", "properties": properties})
    with pytest.raises(ToolDefinitionError) as raised:
        spec.strict_parameters
    assert str(raised.value).startswith(f"tool 't', parameter {parameter!r}: OpenAI strict mode {problem}")
    assert f"Fix: {fix}" in str(raised.value)


@pytest.mark.parametrize(
    ("parameters", "text"),
    [
        (
            {"type": "object", "properties": [{"city": {"type": "string"}}]},
            "tool 't': its parameters schema is not JSON Schema: 'properties' is a list, where an object "
            'of named schemas belongs. Fix: write it as {"name": {...}, ...}',
        ),
        (
            {"type": "object", "properties": {"city": "string"}},
            "tool 't', parameter 'city': its parameters schema is not JSON Schema: the schema is a str, where "
            'an object belongs. Fix: write it as {"type": "string"}, say',
        ),
        (
            {"type": "object", "properties": {"id": {"anyOf": {"type": "string"}}}},
            "tool 't', parameter 'id': its parameters schema is not JSON Schema: 'anyOf' is a dict, where a "
            "list of schemas belongs. Fix: write it as [{...}, {...}]",
        ),
        (
            {"type": "object", "properties": {"city": {"type": "string"}}, "required": "city"},
            "tool 't': its parameters schema is not JSON Schema: 'required' is a str, where a list of "
            'property names belongs. Fix: write it as ["name", ...]',
        ),
        (
            {"type": "object", "properties": {"at": {"type": "array", "items": [{"type": "number"}] * 2}}},
            "tool 't', parameter 'at': OpenAI strict mode does not support tuples (items as a list). Fix: use "
            "list[...] or a pydantic model, or register the tool without strict mode",
        ),
    ],
    ids=["properties", "property", "anyOf", "required", "draft-07 tuple"],
)
def test_a_hand_written_schema_that_is_not_json_schema_is_refused_by_strict_mode_as_such(parameters, text):
    """A hand-written spec's malformed schema raised AttributeError ('list' object has no attribute
    'items') out of `strict_parameters`, at the first strict request; `"required": "city"` was read
    as the letters c, i, t, y. A draft-07 tuple (`items` as a list) went out as it was."""
    from toolkit.tools.reflect import ToolSpec

    with pytest.raises(ToolDefinitionError) as raised:
        ToolSpec("t", "Look things up.", parameters).strict_parameters
    assert str(raised.value) == text


def test_additional_properties_false_stays_what_strict_mode_wants():
    from toolkit.tools.reflect import ToolSpec

    parameters = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    spec = ToolSpec("t", "Look things up.", {**parameters, "additionalProperties": False})
    assert spec.strict_parameters == {**parameters, "additionalProperties": False}


def test_a_tool_without_parameters_sends_an_empty_strict_object():
    """OpenAI refuses `"strict": true` with no `parameters` ("In context=(), 'additionalProperties' is
    required to be supplied and to be false.", quoted in github.com/inngest/agent-kit/pull/66); the
    OpenAI Agents SDK sends an empty object for a function without arguments. Without strict mode the
    tool keeps having no parameters object at all."""
    from toolkit.gateway.core import GatewayConfig, respond
    from toolkit.tools.reflect import ToolSpec

    spec = ToolSpec("now", "The time now.")
    empty = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
    assert spec.to_openai(strict=True)["function"] == {
        "name": "now",
        "description": "The time now.",
        "parameters": empty,
        "strict": True,
    }
    assert "parameters" not in spec.to_openai()["function"]
    assert ToolSpec("later", "").strict_parameters is not spec.strict_parameters  # each spec its own

    def ask(function: dict):
        request = {
            "model": "m",
            "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "function", "function": function}],
        }
        return respond(request, GatewayConfig())

    refused = ask({"name": "now", "strict": True})
    assert refused.status == 400 and refused.body["error"]["message"] == (
        "Invalid schema for function 'now': In context=(), 'additionalProperties' is required to be supplied and to be false."
    )
    assert ask(spec.to_openai(strict=True)["function"]).status == 200


def test_a_schema_nested_past_the_recursion_limit_is_refused_as_too_deep_for_strict_mode():
    """A hand-written spec (or an MCP server's schema) nested 2,000 levels deep raised a raw
    RecursionError when made strict; strict mode allows only a few levels: a developer error."""
    import sys

    from toolkit.tools.reflect import ToolSpec

    node: dict = {"type": "string"}
    for _ in range(2_000):
        node = {"type": "object", "properties": {"a": node}, "required": ["a"]}
    spec = ToolSpec(name="deep", description="Deep.", parameters=node)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1_000)  # Python's default: a library may have raised it in this worker (Hypothesis does)
    try:
        with pytest.raises(ToolDefinitionError) as caught:
            spec.strict_parameters
    finally:
        sys.setrecursionlimit(limit)
    assert str(caught.value) == (
        "tool 'deep': its parameters schema nests too deeply to make strict (past Python's recursion limit; "
        "OpenAI strict mode allows only a few levels of nesting). Fix: flatten the schema, or register the tool "
        "without strict mode"
    )


def test_definitions_are_made_strict_as_defs_are():
    """A hand-written or MCP schema may keep its shared parts under draft-07's `definitions`
    (openai-python's `to_strict_json_schema` and the OpenAI Agents SDK's `ensure_strict_json_schema`
    walk both it and `$defs`). They were left as they were: an object there kept its optional
    field and its default and had no `additionalProperties: false`, which OpenAI refuses."""
    from toolkit.tools.reflect import ToolSpec

    item = {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer", "default": 1}}}
    parameters = {
        "type": "object",
        "properties": {"item": {"$ref": "#/definitions/Item"}},
        "required": ["item"],
        "definitions": {"Item": {**item, "required": ["sku"]}},
    }
    assert ToolSpec("t", "Add an item.", parameters).strict_parameters["definitions"] == {
        "Item": {
            "type": "object",
            "properties": {"sku": {"type": "string"}, "qty": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
            "required": ["sku", "qty"],
            "additionalProperties": False,
        }
    }


def test_a_tag_with_a_default_stays_its_one_value_in_strict_mode():
    """pydantic's idiom for a tagged union gives the tag a default (`kind: Literal["cat"] = "cat"`).
    Strict mode made it nullable, as any optional field, so `{"kind": null, "meow": 1}` fitted the
    strict schema, and the executor refused it: a tagged union reads the tag before any default.
    A field with one value has nothing to leave out: it stays that value, required."""
    import json
    from typing import Literal

    import jsonschema
    from pydantic import BaseModel, Field

    from toolkit.chat.messages import ToolCall
    from toolkit.tools.execute import FEED_BACK_ALL

    class Cat(BaseModel):
        kind: Literal["cat"] = "cat"
        meow: int

    class Dog(BaseModel):
        kind: Literal["dog"] = "dog"
        bark: str

    def adopt(pet: Annotated[Cat | Dog, Field(discriminator="kind")]) -> str:
        return repr(pet)

    [t] = tools_from(adopt)
    strict = t.spec.strict_parameters
    assert strict["$defs"]["Cat"]["properties"]["kind"] == {"const": "cat", "type": "string"}
    assert strict["$defs"]["Cat"]["required"] == ["kind", "meow"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"pet": {"kind": None, "meow": 1}}, strict)
    arguments = {"pet": {"kind": "cat", "meow": 1}}
    jsonschema.validate(arguments, strict)
    result = t.execute(ToolCall(id="1", name="adopt", arguments=json.dumps(arguments)), policies=FEED_BACK_ALL)
    assert result.content == "Cat(kind='cat', meow=1)"


def test_an_object_written_with_a_type_list_or_only_properties_is_closed_as_an_object():
    """A hand-written schema may say `"type": ["object", "null"]` (a nullable object, JSON Schema's own way) or
    give an object only its `properties`. The OpenAI Agents SDK's `ensure_strict_json_schema`
    (src/agents/strict_schema.py: `is_object = typ == "object" or (is_list(typ) and "object" in typ)`, and
    `properties` without a `type` becomes `"type": "object"`) closes both. Here the first was left open, a
    schema OpenAI refuses at the first request (the embedded gateway's 400 below), and the second was refused
    as "a value of any type"; a property whose type list already holds "null" was made nullable twice."""
    from toolkit.gateway.strict import strict_problem
    from toolkit.tools.reflect import ToolSpec

    address = {"properties": {"city": {"type": "string"}, "zip": {"type": "string"}}, "required": ["city"]}
    parameters = {
        "type": "object",
        "properties": {
            "ship_to": {"type": ["object", "null"], **address},
            "bill_to": address,
            "note": {"type": ["string", "null"]},
        },
        "required": ["ship_to", "bill_to"],
    }
    closed = {
        "properties": {"city": {"type": "string"}, "zip": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
        "required": ["city", "zip"],
        "additionalProperties": False,
    }
    strict = ToolSpec("ship", "Ship an order.", parameters).strict_parameters
    assert strict == {
        "type": "object",
        "properties": {
            "ship_to": {"type": ["object", "null"], **closed},
            "bill_to": {"type": "object", **closed},
            "note": {"type": ["string", "null"]},
        },
        "required": ["ship_to", "bill_to", "note"],
        "additionalProperties": False,
    }
    assert strict_problem(strict) is None
