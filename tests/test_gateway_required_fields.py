"""toolkit.gateway.required_fields: the required fields of a schema, each with its schema, each once."""

import pytest

from toolkit.gateway.required_fields import required_fields

CITY, UNIT = {"type": "string"}, {"enum": ["c", "f"]}


@pytest.mark.parametrize(
    ("schema", "fields"),
    [
        ({"properties": {"city": CITY, "unit": UNIT}, "required": ["city"]}, [("city", CITY)]),
        ({"properties": {"city": CITY, "unit": UNIT}, "required": ["unit", "city"]}, [("unit", UNIT), ("city", CITY)]),
        ({"properties": {"city": CITY}, "required": ["city", "city"]}, [("city", CITY)]),
        ({"properties": {"city": CITY}, "required": ["city", 3, None, "zone"]}, [("city", CITY), ("zone", None)]),
        ({"properties": {"city": "string"}, "required": ["city"]}, [("city", "string")]),
        ({"properties": {"city": CITY}, "required": []}, []),
        ({"properties": {"city": CITY}}, []),
        ({"properties": [CITY], "required": ["city"]}, []),
        ({"required": ["city"], "additionalProperties": CITY}, []),
        ({"properties": {"city": CITY}, "required": "city"}, []),
        (None, []),
        ([], []),
        ("object", []),
    ],
)
def test_each_required_field_once_with_its_schema(schema, fields):
    assert required_fields(schema) == fields
