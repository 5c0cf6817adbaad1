"""MCP schema translation, checked against `jsonschema`: every result is a valid 2020-12 schema,
and it accepts exactly what the server's schema accepts (or, where the root must be simplified,
at least everything the server accepts)."""

import copy
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from jsonschema.validators import validator_for

from toolkit.errors import SchemaTranslationError
from toolkit.gateway.parameters import parameters_problem
from toolkit.mcp.schema import translate_schema

sys.path.insert(0, str(Path(__file__).parent / "mcp_servers"))
from quirky_server import SCHEMAS as QUIRKY  # noqa: E402

NODE = {
    "type": "object",
    "properties": {"label": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
    "required": ["label"],
}

# id: (MCP inputSchema, expected translation, instances to compare, equivalent?)
CASES = {
    "defs": (
        {"type": "object", "properties": {"to": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}},
        {"type": "object", "properties": {"to": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}},
        [{"to": "x"}, {"to": 1}, {}],
        True,
    ),
    "definitions": (
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"to": {"$ref": "#/definitions/A"}},
            "definitions": {"A": {"type": "integer"}},
        },
        {"type": "object", "properties": {"to": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "integer"}}},
        [{"to": 3}, {"to": "3"}],
        True,
    ),
    "both_kinds_of_definitions": (
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/definitions/A"}, "b": {"$ref": "#/$defs/B"}},
            "definitions": {"A": {"type": "integer"}},
            "$defs": {"B": {"type": "boolean"}},
        },
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/B"}},
            "$defs": {"B": {"type": "boolean"}, "A": {"type": "integer"}},
        },
        [{"a": 1, "b": True}, {"a": True}, {"b": 1}],
        True,
    ),
    "root_without_type": (
        {"properties": {"sku": {"type": "string"}}, "required": ["sku"]},
        {"properties": {"sku": {"type": "string"}}, "required": ["sku"], "type": "object"},
        [{"sku": "a"}, {}, {"sku": 2}],
        True,
    ),
    "nested_without_type": (
        {
            "type": "object",
            "properties": {"f": {"properties": {"s": {"enum": ["a"]}}}, "l": {"items": {"type": "integer"}}, "any": {}},
        },
        {
            "type": "object",
            "properties": {
                "f": {"properties": {"s": {"enum": ["a"]}}, "type": "object"},
                "l": {"items": {"type": "integer"}, "type": "array"},
                "any": {"type": "object"},  # an untyped property is an object, as in LangChain4j
            },
        },
        [{"f": {"s": "a"}}, {"l": [1, 2]}, {"any": {"k": 1}}, {"l": ["x"]}],
        False,
    ),  # {"f": 5} was allowed (no type) and is now refused: objects only
    "type_array_nullable": (
        {"type": "object", "properties": {"n": {"type": ["integer", "null"], "minimum": 1}}},
        {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}},  # null dropped
        [{"n": 3}, {"n": 0}, {"n": "3"}],
        True,
    ),
    "type_array_single": (
        {"type": "object", "properties": {"n": {"type": ["string"]}}},
        {"type": "object", "properties": {"n": {"type": "string"}}},
        [{"n": "a"}, {"n": 1}],
        True,
    ),
    "type_array_beside_anyOf": (
        {
            "type": "object",
            "properties": {"n": {"type": ["integer", "string"], "anyOf": [{"minimum": 5}, {"maxLength": 1}]}},
        },
        {
            "type": "object",
            "properties": {
                "n": {
                    "anyOf": [{"minimum": 5}, {"maxLength": 1}],
                    "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}],
                }
            },
        },
        [{"n": 7}, {"n": "a"}, {"n": 3}, {"n": None}],
        True,
    ),
    "anyOf_branches": (
        {
            "type": "object",
            "properties": {"t": {"anyOf": [{"properties": {"id": {"type": ["string", "null"]}}}, {"type": "integer"}]}},
        },
        {
            "type": "object",
            "properties": {
                "t": {
                    "anyOf": [
                        {"properties": {"id": {"type": "string"}}, "type": "object"},
                        {"type": "integer"},
                    ]
                }
            },
        },
        [{"t": {"id": "a"}}, {"t": 4}, {"t": {"id": 4}}],
        True,
    ),
    "recursion_through_defs": (
        {"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": NODE}},
        {"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": NODE}},
        [
            {"root": {"label": "a", "children": [{"label": "b", "children": [{"label": "c"}]}]}},
            {"root": {"label": "a", "children": [{"label": "b", "children": [{"label": 3}]}]}},
        ],
        True,
    ),
    "recursion_to_the_root": (
        {
            "type": "object",
            "properties": {"name": {"type": "string"}, "parts": {"type": "array", "items": {"$ref": "#"}}},
        },
        {
            "type": "object",
            "properties": {"name": {"type": "string"}, "parts": {"type": "array", "items": {"$ref": "#"}}},
        },
        [{"name": "a", "parts": [{"name": "b", "parts": [{"name": "c"}]}]}, {"parts": [{"name": 1}]}],
        True,
    ),
    "root_is_a_reference": (
        {
            "$ref": "#/definitions/Args",
            "definitions": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}}},
        },
        {
            "type": "object",
            "properties": {"q": {"type": "string"}},
            "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}}},
        },
        [{"q": "x"}, {"q": 1}],
        True,
    ),
    "sep2106_object_with_anyOf": (
        {
            "type": "object",
            "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
            "anyOf": [{"required": ["email"]}, {"required": ["phone"]}],
        },
        {
            "type": "object",
            "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
            "description": "Arguments: at least one of these forms (anyOf): 1) email (required); 2) phone (required).",
        },
        [{"email": "a"}, {"phone": "1"}, {}],
        False,
    ),  # {} is now accepted: the server says no
    "root_anyOf_of_objects": (
        {
            "anyOf": [
                {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
                {"type": "object", "properties": {"name": {"type": "string"}}},
            ]
        },
        {
            "type": "object",
            "properties": {"id": {"type": "string"}, "name": {"type": "string"}},
            "description": "Arguments: at least one of these forms (anyOf): 1) id (required); 2) name.",
        },
        [{"id": "a"}, {"name": "b"}, {"id": 5, "name": 5}],
        False,
    ),  # a hint: {"id": 1} passed branch 2
    "draft4_exclusive_bounds": (
        {
            "$schema": "http://json-schema.org/draft-04/schema#",
            "type": "object",
            "properties": {
                "qty": {"type": "integer", "minimum": 0, "exclusiveMinimum": True},
                "pct": {"type": "number", "maximum": 100, "exclusiveMaximum": True},
                "n": {"type": "number", "minimum": 1, "exclusiveMinimum": False},
            },
        },
        {
            "type": "object",
            "properties": {
                "qty": {"type": "integer", "exclusiveMinimum": 0},
                "pct": {"type": "number", "exclusiveMaximum": 100},
                "n": {"type": "number", "minimum": 1},
            },
        },
        [{"qty": 1}, {"qty": 0}, {"pct": 99.5}, {"pct": 100}, {"n": 1}, {"n": 0}],
        True,
    ),
    "draft07_dependencies": (
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"card": {"type": "string"}, "cvv": {"type": "string"}, "gift": {"type": "boolean"}},
            "dependencies": {"card": ["cvv"], "gift": {"required": ["card"]}},
        },
        {
            "type": "object",
            "properties": {"card": {"type": "string"}, "cvv": {"type": "string"}, "gift": {"type": "boolean"}},
            "dependentRequired": {"card": ["cvv"]},
            "dependentSchemas": {"gift": {"required": ["card"], "type": "object"}},
        },
        [{"card": "1", "cvv": "2"}, {"card": "1"}, {"gift": True, "card": "1", "cvv": "2"}, {"gift": True}, {}],
        True,
    ),
    "root_oneOf": (
        {
            "oneOf": [
                {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
                {
                    "type": "object",
                    "properties": {"phone": {"type": "string"}, "order_id": {"type": "string"}},
                    "required": ["phone"],
                },
            ]
        },
        {
            "type": "object",
            "properties": {"order_id": {"type": "string"}, "phone": {"type": "string"}},
            "description": "Arguments: exactly one of these forms (oneOf): 1) order_id (required); "
            "2) phone (required), order_id.",
        },
        [{"order_id": "a"}, {"phone": "1"}, {"order_id": 5}],
        False,
    ),  # the alternatives reach the model as words
    "root_allOf": (
        {
            "allOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"properties": {"b": {"type": "integer"}}, "required": ["b"]},
            ]
        },
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        },
        [{"a": "x", "b": 1}, {"a": "x"}, {"b": 1}, {"a": 1, "b": 1}],
        True,
    ),
    "root_allOf_of_references": (  # the root said it took no arguments: its properties are in the definition
        {
            "allOf": [{"$ref": "#/definitions/Base"}, {"properties": {"b": {"type": "integer"}}, "required": ["b"]}],
            "definitions": {"Base": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}},
        },
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
            "$defs": {"Base": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}},
        },
        [{"a": "x", "b": 1}, {"a": "x"}, {"b": 1}, {"a": 1, "b": 1}],
        True,
    ),
    "root_oneOf_of_references": (  # a union of models: each form is a definition
        {
            "oneOf": [{"$ref": "#/$defs/ById"}, {"$ref": "#/$defs/ByPhone"}],
            "$defs": {
                "ById": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
                "ByPhone": {"$ref": "#/$defs/Phone"},
                "Phone": {"type": "object", "properties": {"phone": {"type": "string"}}, "required": ["phone"]},
            },
        },
        {
            "type": "object",
            "properties": {"order_id": {"type": "string"}, "phone": {"type": "string"}},
            "description": "Arguments: exactly one of these forms (oneOf): 1) order_id (required); 2) phone (required).",
            "$defs": {
                "ById": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
                "ByPhone": {"$ref": "#/$defs/Phone"},
                "Phone": {"type": "object", "properties": {"phone": {"type": "string"}}, "required": ["phone"]},
            },
        },
        [{"order_id": "a"}, {"phone": "1"}, {"order_id": 5}],
        False,
    ),
    "zod_style_property_references": (
        {
            "type": "object",
            "properties": {
                "from": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
                "to": {"$ref": "#/properties/from"},
            },
        },
        {
            "type": "object",
            "properties": {
                "from": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
                "to": {"$ref": "#/$defs/properties_from"},
            },
            "$defs": {
                "properties_from": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
            },
        },
        [{"from": {"city": "a"}, "to": {"city": "b"}}, {"to": {}}, {"to": {"city": 1}}],
        True,
    ),
    "nested_definitions": (
        {
            "type": "object",
            "properties": {
                "order": {
                    "type": "object",
                    "properties": {
                        "items": {"type": "array", "items": {"$ref": "#/properties/order/definitions/Item"}}
                    },
                    "definitions": {"Item": {"type": "object", "properties": {"sku": {"type": "string"}}}},
                }
            },
        },
        {
            "type": "object",
            "properties": {
                "order": {
                    "type": "object",
                    "properties": {
                        "items": {"type": "array", "items": {"$ref": "#/$defs/properties_order_definitions_Item"}}
                    },
                }
            },
            "$defs": {
                "properties_order_definitions_Item": {"type": "object", "properties": {"sku": {"type": "string"}}}
            },
        },
        [{"order": {"items": [{"sku": "a"}]}}, {"order": {"items": [{"sku": 1}]}}],
        True,
    ),
    "free_form_arguments": (
        {"type": "object", "additionalProperties": {"type": "string"}},
        {"type": "object", "additionalProperties": {"type": "string"}},
        [{"any": "x"}, {"any": 1}],
        True,
    ),
    "draft07_tuple_items": (
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "p": {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": False}
            },
        },
        {
            "type": "object",
            "properties": {
                "p": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": False}
            },
        },
        [{"p": [1, 2]}, {"p": [1, 2, 3]}, {"p": ["a"]}],
        True,
    ),
    "pointer_escapes": (
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/definitions/x~1y"}},
            "definitions": {"x/y": {"type": "null"}},
        },
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/x~1y"}}, "$defs": {"x/y": {"type": "null"}}},
        [{"a": None}, {"a": 1}],
        True,
    ),
    "anchor_reference": (
        {
            "type": "object",
            "properties": {"to": {"$ref": "#addr"}, "tags": {"$ref": "#tag"}},
            "$defs": {"Address": {"$anchor": "addr", "type": "object", "properties": {"city": {"type": "string"}}}},
            "additionalProperties": {"$anchor": "tag", "type": "string"},
        },
        {
            "type": "object",
            "properties": {"to": {"$ref": "#/$defs/Address"}, "tags": {"$ref": "#/$defs/additionalProperties"}},
            "additionalProperties": {"type": "string"},
            "$defs": {
                "Address": {"type": "object", "properties": {"city": {"type": "string"}}},
                "additionalProperties": {"type": "string"},
            },
        },
        [{"to": {"city": "Oslo"}, "tags": "a"}, {"to": {"city": 1}}, {"tags": 2}],
        True,
    ),
    "id_named_references": (
        {
            "$id": "https://example.com/schemas/order.json",
            "type": "object",
            "properties": {
                "item": {"$ref": "item.json"},
                "again": {"$ref": "https://example.com/schemas/order.json#/$defs/Qty"},
                "sku": {"$ref": "urn:shop:sku"},
                "code": {"$ref": "urn:shop:code#code"},
            },
            "$defs": {
                "Item": {
                    "$id": "item.json",
                    "type": "object",
                    "properties": {"qty": {"$ref": "order.json#/$defs/Qty"}},
                },
                "Qty": {"type": "integer", "minimum": 1},
                "Sku": {"$id": "urn:shop:sku", "type": "string"},
                "Code": {"$id": "urn:shop:code", "$anchor": "code", "type": "string", "maxLength": 3},
            },
        },
        {
            "type": "object",
            "properties": {
                "item": {"$ref": "#/$defs/Item"},
                "again": {"$ref": "#/$defs/Qty"},
                "sku": {"$ref": "#/$defs/Sku"},
                "code": {"$ref": "#/$defs/Code"},
            },
            "$defs": {
                "Item": {"type": "object", "properties": {"qty": {"$ref": "#/$defs/Qty"}}},
                "Qty": {"type": "integer", "minimum": 1},
                "Sku": {"type": "string"},
                "Code": {"type": "string", "maxLength": 3},
            },
        },
        [
            {"item": {"qty": 2}, "again": 1, "sku": "a", "code": "abc"},
            {"item": {"qty": 0}},
            {"again": 0},
            {"sku": 1},
            {"code": "abcd"},
        ],
        True,
    ),
    "id_changes_the_base_below_it": (  # 2020-12: a subschema's `$id` is the base of the references it holds
        {
            "type": "object",
            "properties": {
                "a": {
                    "$id": "https://example.com/a.json",
                    "type": "object",
                    "properties": {"v": {"$ref": "#/$defs/n"}, "w": {"$ref": "#flag"}},
                    "$defs": {"n": {"type": "integer"}, "f": {"$anchor": "flag", "type": "boolean"}},
                },
                "tree": {
                    "$id": "https://example.com/node.json",
                    "type": "object",
                    "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}},
                },
                "b": {"$ref": "#/$defs/n"},
            },
            "$defs": {"n": {"type": "string"}},
        },
        {
            "type": "object",
            "properties": {
                "a": {
                    "type": "object",
                    "properties": {
                        "v": {"$ref": "#/$defs/properties_a__defs_n"},
                        "w": {"$ref": "#/$defs/properties_a__defs_f"},
                    },
                },
                "tree": {
                    "type": "object",
                    "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/properties_tree"}}},
                },
                "b": {"$ref": "#/$defs/n"},
            },
            "$defs": {
                "n": {"type": "string"},
                "properties_a__defs_n": {"type": "integer"},
                "properties_a__defs_f": {"type": "boolean"},
                "properties_tree": {
                    "type": "object",
                    "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/properties_tree"}}},
                },
            },
        },
        [
            {"a": {"v": 1, "w": True}, "tree": {"kids": [{"kids": []}]}, "b": "x"},
            {"a": {"v": "x"}},
            {"a": {"w": 1}},
            {"tree": {"kids": [{"kids": [1]}]}},
            {"b": 1},
        ],
        True,
    ),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_translation_is_exactly_as_expected(case):
    schema, expected, _, _ = CASES[case]
    assert translate_schema(schema) == expected


@pytest.mark.parametrize(
    "schema",
    [c[0] for c in CASES.values()] + list(QUIRKY.values())[:-1],
    ids=list(CASES) + [f"quirky-{n}" for n in list(QUIRKY)[:-1]],
)
def test_every_translation_is_a_valid_2020_12_schema(schema):
    translated = translate_schema(schema)
    if translated is not None:
        Draft202012Validator.check_schema(translated)
        assert translated["type"] == "object" and "anyOf" not in translated


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_translation_accepts_what_the_server_accepts(case):
    schema, _, instances, equivalent = CASES[case]
    original = validator_for(schema)(schema)
    translated = Draft202012Validator(translate_schema(schema))
    for instance in instances:
        if equivalent:
            assert translated.is_valid(instance) == original.is_valid(instance), instance
        elif original.is_valid(instance):
            assert translated.is_valid(instance), instance
    assert any(not original.is_valid(i) for i in instances), "each case needs an invalid instance"


def test_the_input_is_never_changed():
    for schema, *_ in CASES.values():
        before = copy.deepcopy(schema)
        translate_schema(schema)
        assert schema == before


@pytest.mark.parametrize(
    "schema",
    [
        None,
        {},
        {"type": "object"},
        {"type": "object", "properties": {}},
        {"type": "object", "properties": {}, "$schema": "x"},
    ],
)
def test_no_arguments_means_no_parameters(schema):
    assert translate_schema(schema) is None


@pytest.mark.parametrize(
    "schema, message",
    [
        (
            {"type": "object", "properties": {"x": {"$ref": "#/properties/nowhere"}}},
            "T: its schema refers to '#/properties/nowhere', which is not one of its definitions (none); "
            "only '#', '#/$defs/NAME' and '#/definitions/NAME' can be sent on",
        ),
        (
            {"type": "object", "properties": {"n": {"type": "integer", "minimum": "5"}}},
            "T: its schema is not valid JSON Schema 2020-12 after translation ('5' is not of type 'number', "
            "at properties/n/minimum); ask its author to fix it",
        ),
        (
            {"type": "object", "properties": {"x": {"$ref": "#/$defs/Missing"}}, "$defs": {"A": {}}},
            "T: its schema refers to '#/$defs/Missing', which is not one of its definitions (A); "
            "only '#', '#/$defs/NAME' and '#/definitions/NAME' can be sent on",
        ),
        (
            {"type": "object", "properties": {"x": {"$ref": "https://example.com/s.json"}}},
            "T: its schema refers to 'https://example.com/s.json', which is not one of its definitions (none); "
            "only '#', '#/$defs/NAME' and '#/definitions/NAME' can be sent on",
        ),
        (
            {
                "type": "object",
                "properties": {"x": {}},
                "$defs": {"A": {"type": "string"}},
                "definitions": {"A": {"type": "integer"}},
            },
            "T: its schema defines 'A' twice, differently, under 'definitions' and '$defs'; the server's "
            "schema is ambiguous — ask its author to fix it",
        ),
        (
            {"type": "object", "$defs": [1]},
            "T: its schema's '$defs' is an array, not an object of named schemas; ask its author to fix it",
        ),
        (
            {"type": "object", "properties": {"x": {}}, "definitions": "x"},
            "T: its schema's 'definitions' is a string, not an object of named schemas; ask its author to fix it",
        ),
        (
            {"type": "object", "properties": {"a": {"type": "number", "minimum": float("nan")}}},
            "T: its schema has a non-finite number at properties/a/minimum (NaN and Infinity are not JSON); "
            "ask its author to fix it",
        ),
        (
            {"type": "object", "properties": {"a": {"enum": [1, float("-inf")]}}},
            "T: its schema has a non-finite number at properties/a/enum/1 (NaN and Infinity are not JSON); "
            "ask its author to fix it",
        ),
        (
            {"type": "object", "$defs": {"A": {"type": "number", "maximum": float("inf")}}},
            "T: its schema has a non-finite number at $defs/A/maximum (NaN and Infinity are not JSON); "
            "ask its author to fix it",
        ),
    ],
)
def test_schemas_that_cannot_be_sent_on_are_refused_with_the_reason(schema, message):
    with pytest.raises(SchemaTranslationError) as caught:
        translate_schema(schema, "T")
    assert str(caught.value) == message


def test_data_that_looks_like_a_reference_is_left_alone():
    schema = {
        "type": "object",
        "properties": {"x": {"type": "object", "default": {"$ref": "#/nowhere"}, "enum": [{"$ref": "#/nowhere"}]}},
    }
    assert translate_schema(schema) == schema


def test_a_property_named_like_a_data_keyword_is_a_schema_like_any_other():
    """A parameter named `default`, `enum`, `const` or `examples` was read as data: its reference
    into the document was not copied into `$defs` (as a parameter named otherwise has), and one that
    led nowhere passed, to fail at the model's gateway."""
    text = {"type": "string", "minLength": 1}
    for name in ("default", "enum", "const", "examples"):
        schema = {"type": "object", "properties": {"value": text, name: {"$ref": "#/properties/value"}}}
        assert translate_schema(schema) == {
            "type": "object",
            "properties": {"value": text, name: {"$ref": "#/$defs/properties_value"}},
            "$defs": {"properties_value": text},
        }
        with pytest.raises(SchemaTranslationError) as caught:
            translate_schema({"type": "object", "properties": {name: {"$ref": "#/$defs/Missing"}}}, "T")
        assert str(caught.value) == (
            "T: its schema refers to '#/$defs/Missing', which is not one of its definitions (none); "
            "only '#', '#/$defs/NAME' and '#/definitions/NAME' can be sent on"
        )


def test_null_and_untyped_properties_are_narrowed_as_langchain4j_does():
    """Issue 15.10: `null` leaves type arrays and an untyped `{}` property becomes an object, as
    LangChain4j's MCP schema mapping does; the server accepted these instances, the model may not send them."""
    nullable = Draft202012Validator(
        translate_schema({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}})
    )
    assert not nullable.is_valid({"n": None}) and nullable.is_valid({"n": 1}) and nullable.is_valid({})
    untyped = translate_schema({"type": "object", "properties": {"any": {}, "doc": {"description": "free"}}})
    assert untyped["properties"] == {"any": {"type": "object"}, "doc": {"type": "object", "description": "free"}}
    only_null = translate_schema({"type": "object", "properties": {"n": {"type": ["null"]}}})
    assert only_null["properties"]["n"] == {"type": "null"}


@pytest.mark.parametrize(
    "schema",
    [c[0] for c in CASES.values()] + list(QUIRKY.values())[:-1],
    ids=list(CASES) + [f"quirky-{n}" for n in list(QUIRKY)[:-1]],
)
def test_every_translation_passes_the_checks_openai_makes_on_every_tool(schema):
    """OpenAI refuses a request whose tool has an array without `items` (strict or not), so one
    such stranger's tool would fail every request of the call (`toolkit.gateway.parameters`)."""
    translated = translate_schema(schema)
    assert translated is None or parameters_problem(translated) is None


def test_an_array_without_items_gets_items_of_any_value_and_accepts_what_it_accepted():
    """An array that says nothing of its items, alone, in a type list or nested: `items: {}`
    (any value) is what leaving `items` out means, and OpenAI accepts it."""
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "description": "labels"},
            "maybe": {"type": ["array", "null"]},
            "either": {"type": ["array", "string"], "maxLength": 3},
            "deep": {"type": "object", "properties": {"rows": {"type": "array", "items": {"type": "array"}}}},
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}]},
        },
    }
    translated = translate_schema(schema)
    assert translated["properties"] == {
        "tags": {"type": "array", "description": "labels", "items": {}},
        "maybe": {"type": "array", "items": {}},
        "either": {"anyOf": [{"type": "array", "items": {}}, {"type": "string"}], "maxLength": 3},
        "deep": {"type": "object", "properties": {"rows": {"type": "array", "items": {"type": "array", "items": {}}}}},
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}]},
    }
    assert parameters_problem(translated) is None
    original, mended = Draft202012Validator(schema), Draft202012Validator(translated)
    for instance in [
        {"tags": [1, "a", None]},
        {"either": "abc"},
        {"either": "abcd"},
        {"either": [1]},
        {"tags": "x"},
        {"deep": {"rows": [[1], "x"]}},
        {"deep": {"rows": [[1, {}]]}},
        {"pair": [1, "x"]},
    ]:
        assert mended.is_valid(instance) == original.is_valid(instance), instance


def test_a_reference_written_as_a_uri_fragment_is_read_percent_decoded():
    """JSON Pointer in a URI fragment is percent-encoded (RFC 6901, section 6): `#/$defs/Sale%20Item`
    names the definition `Sale Item`, and so does `#/$defs/a%7E1b`'s `a~1b` name `a/b`. The tool was
    left out: "refers to '#/$defs/Sale%20Item', which is not one of its definitions (Sale Item)"."""
    from toolkit.mcp.schema import checked_arguments

    schema = {
        "type": "object",
        "properties": {"item": {"$ref": "#/$defs/Sale%20Item"}, "path": {"$ref": "#/$defs/a%7E1b"}},
        "required": ["item"],
        "$defs": {"Sale Item": {"type": "string", "enum": ["hat", "cap"]}, "a/b": {"type": "integer"}},
    }
    translated = translate_schema(schema, "t")
    assert parameters_problem(translated, arrays=True) is None
    validator = Draft202012Validator(translated)
    assert validator.is_valid({"item": "hat", "path": 2}) and not validator.is_valid({"item": "shoe"})
    assert checked_arguments(schema, {"item": "hat", "path": 2}) == ({"item": "hat", "path": 2}, [])


def test_references_in_a_loop_that_reach_no_schema_are_any_value():
    """`A` refers to `B`, which refers to `A`: no schema is ever reached, so nothing can be said of
    the value. The loop was sent on as it was; it is any value (`{}`), and the rest of the schema stays."""
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}, "n": {"type": "integer"}, "s": {"$ref": "#/$defs/S"}},
        "$defs": {
            "A": {"$ref": "#/$defs/B"},
            "B": {"$ref": "#/$defs/A", "description": "b"},
            "S": {"$ref": "#/$defs/S"},
        },
    }
    assert translate_schema(schema) == {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}, "n": {"type": "integer"}, "s": {"$ref": "#/$defs/S"}},
        "$defs": {"A": {}, "B": {"description": "b"}, "S": {}},
    }


def test_an_input_schema_nested_past_the_recursion_limit_is_a_translation_error():
    """Before: RecursionError out of `translate_schema` (400 levels of `items`: its walk recurses a few frames
    a level), which the provider then left the tool out for as 'RecursionError: maximum recursion depth'."""
    schema = {"type": "string"}
    for _ in range(1000):
        schema = {"type": "array", "items": schema}
    with pytest.raises(SchemaTranslationError) as raised:
        translate_schema({"type": "object", "properties": {"x": schema}}, "MCP tool 'deep'")
    assert str(raised.value) == (
        "MCP tool 'deep': its schema nests too deeply to translate (past Python's recursion limit; no model takes "
        "arguments that deep); ask its author to flatten it"
    )


def test_a_translation_is_kept_and_each_caller_gets_its_own_copy(monkeypatch):
    """A provider translates its servers' tools at every `provide()` (each turn): a 20 KB schema took
    half a second every time, a stranger's 5 MB ten seconds, though nothing had changed."""
    import toolkit.mcp.schema as module

    walked = []
    real = module._translated
    monkeypatch.setattr(module, "_translated", lambda schema, where: walked.append(where) or real(schema, where))
    monkeypatch.setattr(module, "_KEPT", module._Kept())
    schema = {"type": "object", "properties": {"q": {"type": ["string", "null"]}}, "required": ["q"]}
    translated = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    first = translate_schema(schema, "MCP tool 'a'")
    first["properties"]["q"]["type"] = "changed by its caller"
    assert translate_schema(schema, "MCP tool 'a'") == translated
    assert walked == ["MCP tool 'a'"]
    assert translate_schema(schema, "MCP tool 'b'") == translated  # another tool of the same schema
    for tool in ("a", "b"):  # a tuple is no list: another schema, and one that is not valid
        with pytest.raises(SchemaTranslationError, match=rf"^MCP tool '{tool}': .*\('q',\) is not of type 'array'"):
            translate_schema({**schema, "required": ("q",)}, f"MCP tool '{tool}'")
    assert walked == ["MCP tool 'a'", "MCP tool 'a'"]


def test_a_schema_s_size_is_counted_in_characters_not_in_json_escapes(monkeypatch):
    """The cap counts the characters of JSON as a request carries them, not `json.dumps`'s `\\uXXXX`
    escapes: counted so, a schema written in Chinese (this course's shop) was refused at a sixth of it
    (205 characters counted 805)."""
    import toolkit.mcp.schema

    monkeypatch.setattr(toolkit.mcp.schema, "MAX_SCHEMA_CHARS", 400)
    described = {"type": "object", "properties": {"order_id": {"type": "string", "description": "订单号" * 40}}}
    assert translate_schema(described, "MCP tool 'q'")["properties"]["order_id"]["description"] == "订单号" * 40
    with pytest.raises(SchemaTranslationError, match=r"its inputSchema takes 424 characters of JSON, past the 400 "):
        translate_schema({**described, "description": "订单" * 100}, "MCP tool 'q'")
