"""`toolkit.gateway.generic` given a tool schema's keywords of a kind no one writes: a `format` that is a
list or an object (`"format": ["email"]`) was looked up in the table of formats and raised `TypeError:
unhashable type: 'list'` out of the gateway (the fuzzer's `keywords` kind found it). A format that is
not a string is no format the filler knows: the field is filled as one without it, every time."""

import httpx
import pytest

from toolkit.gateway.generic import fill_arguments
from toolkit.gateway.rules import load_rules, read_text
from toolkit.gateway.server import Gateway
from toolkit.gateway.transport import InProcessTransport

RULES = load_rules()
TEXT = "please email bob@example.org about order SN202610200001"


def fill(field: dict) -> object:
    schema = {"type": "object", "properties": {"contact": field}, "required": ["contact"]}
    return fill_arguments(schema, TEXT, read_text(TEXT, RULES), RULES)["contact"]


@pytest.mark.parametrize("fmt", [["email"], {"email": True}, 5, None])
def test_a_format_that_is_not_a_string_is_filled_as_no_format(fmt):
    assert fill({"type": "string", "format": fmt}) == fill({"type": "string"})


@pytest.mark.parametrize("fmt", [["email"], {"a": 1}])
def test_a_format_that_is_not_a_string_in_an_array_or_a_uniqueness_is_filled(fmt):
    made = fill({"type": "array", "items": {"type": "string", "format": fmt}, "minItems": 3, "uniqueItems": True})
    assert isinstance(made, list) and len(made) == 3 and len(set(made)) == 3


def test_the_gateway_answers_a_request_whose_format_is_a_list():
    client = httpx.Client(transport=InProcessTransport(Gateway()))
    tool = {
        "type": "function",
        "function": {
            "name": "notify",
            "parameters": {
                "type": "object",
                "properties": {"contact": {"type": "string", "format": ["email"]}},
                "required": ["contact"],
            },
        },
    }
    request = {
        "model": "m",
        "tools": [tool],
        "tool_choice": "required",
        "messages": [{"role": "user", "content": TEXT}],
    }
    response = client.post("http://gateway/v1/chat/completions", json=request)
    assert response.status_code == 200
    assert response.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "notify"
