"""Structured output as other agent libraries ask for it: the exact request bodies they sent.

`peer_requests/structured_output.json` holds what openai-agents (`output_type=`), pydantic-ai
(`output_type=` as a tool and as `NativeOutput`) and LangChain (`with_structured_output(...,
method="json_schema")`) sent for three pydantic models: a tree (`Category.subcategories:
list[Category]`), a chain (`Step.next: Step | None`) and a booking with `date`, `date-time`, `email`,
`uuid` and `uri` fields; a tuple (`tuple[float, float]`, `prefixItems`) as a tool's argument and in
an output; and numbers between exclusive bounds (`Field(gt=0, lt=1)`) or of a `multiple_of`. Each
library validates the gateway's answer with the model it asked for, so the answer must validate
against the schema it sent: a tree filled to the depth limit ended in `{"name": null, ...}`, the
user's words were no date, a tuple of numbers was filled with words, and `gt=0, lt=1` got 1. The libraries are not imported here (they
are no dependencies): the bodies are replayed as they were recorded.
"""

import datetime
import json
import re
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import jsonschema
import pytest
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from toolkit.gateway.core import GatewayConfig, handle_http

CASES = json.loads((Path(__file__).parent / "peer_requests" / "structured_output.json").read_text("utf-8"))
FORMATS = {
    "date": datetime.date.fromisoformat,
    "date-time": datetime.datetime.fromisoformat,
    "uuid": uuid.UUID,
    "email": lambda v: re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]+", v) or pytest.fail(f"no email: {v!r}"),
    "uri": lambda v: (urlsplit(v).scheme and urlsplit(v).netloc) or pytest.fail(f"no URL: {v!r}"),
}
"""A check for each `format` the recorded schemas use (not jsonschema's format checker, which
checks only what its optional packages are installed for)."""


def replay(case: dict) -> tuple[str, dict]:
    """The gateway's answer to the recorded body: the JSON the library reads its output from, and
    the schema that output must meet (the `response_format`'s, or the output tool's)."""
    body = case["body"].encode("utf-8")
    reply = handle_http("POST", "/v1/chat/completions", {"content-type": case["content-type"]}, body, GatewayConfig())
    assert reply.status == 200, reply.body
    request = json.loads(body)
    if request.get("stream"):
        lines = [line for line in reply.encode().decode("utf-8").split("\n\n") if line.startswith("data: {")]
        chunks = [ChatCompletionChunk.model_validate_json(line[len("data: ") :]) for line in lines]
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    else:
        message = ChatCompletion.model_validate_json(reply.encode()).choices[0].message
        text = message.content or ""
        if message.tool_calls:  # pydantic-ai's output tool
            text = message.tool_calls[0].function.arguments
    if "response_format" in request:
        schema = request["response_format"]["json_schema"]["schema"]
    else:
        (tool,) = request["tools"]
        schema = tool["function"]["parameters"]
    return text, schema


def formats_met(value, schema: dict, root: dict) -> None:
    """Every string of `value` whose schema has a `format` in `FORMATS` is of that format."""
    while "$ref" in schema:  # the recorded schemas refer to their own `$defs` only
        schema = root if schema["$ref"] == "#" else root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    if isinstance(value, str) and schema.get("format") in FORMATS:
        FORMATS[schema["format"]](value)
    for choice in schema.get("anyOf", []):
        if value is not None and choice.get("type") != "null":
            formats_met(value, choice, root)
    if isinstance(value, dict):
        for key, item in value.items():
            formats_met(item, schema.get("properties", {}).get(key, {}), root)
    if isinstance(value, list):
        for item in value:
            formats_met(item, schema.get("items", {}), root)


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_structured_output_a_library_asked_for_meets_the_schema_it_sent(case):
    text, schema = replay(case)
    value = json.loads(text)
    jsonschema.validate(value, schema)
    formats_met(value, schema, schema)


def test_a_tree_gets_no_children_past_its_first_level_and_a_chain_ends_in_null():
    by_case = {c["case"]: c for c in CASES}
    category, _ = replay(by_case["pydantic_ai_native_category"])
    assert json.loads(category) == {
        "name": "List the product categories: phones, with smartphones under them",
        "subcategories": [],
    }
    step, _ = replay(by_case["pydantic_ai_native_route"])
    # "from" names a place too: the route's first step is Paris (Lyon while only in/at/for/to did)
    assert json.loads(step) == {"place": "Paris", "next": None}


def test_a_date_time_is_made_from_the_date_and_time_the_user_gave():
    booking = json.loads(next(c for c in CASES if c["case"] == "pydantic_ai_native_booking")["body"])
    booking["messages"][-1]["content"] = "Book a room for Alice, arriving 2026-12-24 at 9:30"
    value = json.loads(replay({"content-type": "application/json", "body": json.dumps(booking)})[0])
    assert (value["day"], value["arrival"]) == ("2026-12-24", "2026-12-24T09:30:00Z")
