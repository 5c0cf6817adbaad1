"""`toolkit.gateway.generic`: a string's `pattern` and an array's `uniqueItems`. The filler gave the
user's words for `"pattern": "^[A-Z]{3}-\\d{4}$"` (pydantic's `constr(pattern=...)`), and padded an
array up to `minItems` by repeating its last item, so a `set[int]` with `min_length=3` got
`[1, 1, 1]`: a client validating the answer refused both. Ends with pydantic models driven
through `running_gateway()`, every answer validated by `TypeAdapter.validate_json`."""

import datetime
import json
import re
import uuid
from typing import Annotated, Literal, Optional

import httpx
import pytest
from pydantic import BaseModel, Field, TypeAdapter, confloat, conlist, conset, constr

from toolkit.gateway.core import GatewayConfig, respond
from toolkit.gateway.generic import fill_arguments
from toolkit.gateway.rules import load_rules, read_text
from toolkit.gateway.server import running_gateway

RULES = load_rules()
TEXT = "please look up my order for tomorrow"


def fill(field: dict, text: str = TEXT):
    schema = {"type": "object", "properties": {"x": field}, "required": ["x"]}
    return fill_arguments(schema, text, read_text(text, RULES), RULES)["x"]


# --- pattern ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "made"),
    [
        (r"^[A-Z]{3}-\d{4}$", "AAA-0000"),
        (r"^SN\d{12}$", "SN000000000000"),
        (r"^(red|green|blue)$", "red"),
        (r"^[^a-z ]+$", "A"),
        (r"^\w+@\w+\.[a-z]{2,}$", "a@a.aa"),
        (r"^(?:\+?1[-. ]?)?\(?\d{3}\)?[-. ]?\d{3}[-. ]?\d{4}$", "0000000000"),
        (r"^[\u4e00-\u9fff]{2}$", "一一"),
        (r"^\S+\s\S+$", "a a"),
        (r"^[\x00-\U0010ffff]{3}$", "AAA"),
    ],
)
def test_a_string_is_built_to_match_its_pattern(pattern, made):
    assert fill({"type": "string", "pattern": pattern}) == made


def test_a_value_the_pattern_is_found_in_is_kept():
    assert fill({"type": "string", "pattern": "^[a-z ]+$"}) == TEXT
    assert fill({"type": "string", "pattern": "order"}) == TEXT  # unanchored, as JSON Schema reads it
    assert fill({"type": "string", "pattern": r"^SN\d{12}$"}, "SN202610200001") == "SN202610200001"


def test_a_fact_that_matches_is_kept_and_one_that_does_not_is_replaced():
    date = {"type": "string", "format": "date"}
    assert fill({**date, "pattern": r"^\d{4}-\d{2}-\d{2}$"}, "ship it on 2026-12-24") == "2026-12-24"
    assert fill({**date, "pattern": r"^2027-"}, "ship it on 2026-12-24") == "2027-"


def test_the_lengths_are_kept_when_the_pattern_has_room():
    assert fill({"type": "string", "pattern": r"^\d+$", "minLength": 6}) == "000000"
    assert fill({"type": "string", "pattern": r"^\d{2,8}$", "minLength": 5, "maxLength": 5}) == "00000"


@pytest.mark.parametrize(
    "pattern",
    [
        "(",  # does not compile
        "a{100000}",  # far too long to build
        "(?=x)y",  # a lookahead: not built
        r"(a)\1",  # a backreference: not built
        "(" * 300 + "a" + ")" * 300,  # nested too deep
        "[z-a]",  # a bad range
        "(?P<n>a)(?(n)b|c)q",  # a conditional
    ],
)
def test_a_pattern_that_cannot_be_built_leaves_the_value_as_it_was(pattern):
    assert fill({"type": "string", "pattern": pattern}) == TEXT


def test_a_pattern_that_could_backtrack_on_the_words_is_not_searched_in_them():
    assert fill({"type": "string", "pattern": "^(a+)+$"}, "a" * 22 + "!") == "a"


def test_the_pattern_is_honoured_in_a_tool_call_s_arguments():
    parameters = {"type": "object", "properties": {"ref": {"type": "string", "pattern": r"^[A-Z]{3}-\d{4}$"}}}
    tool = {"type": "function", "function": {"name": "find_parcel", "description": "Find a parcel by its reference"}}
    tool["function"]["parameters"] = {**parameters, "required": ["ref"]}
    request = {"model": "m", "messages": [{"role": "user", "content": "find my parcel ABC-1234"}], "tools": [tool]}
    call = respond(request, GatewayConfig()).body["choices"][0]["message"]["tool_calls"][0]["function"]
    assert (call["name"], json.loads(call["arguments"])) == ("find_parcel", {"ref": "ABC-1234"})
    request["messages"][0]["content"] = "find my parcel please"  # no reference: asked for, not built (AAA-0000)
    message = respond(request, GatewayConfig()).body["choices"][0]["message"]
    assert message["content"] == 'What should I use for "ref"? Your message does not say.'


def test_the_pattern_is_honoured_in_an_array_s_items():
    assert fill({"type": "array", "items": {"type": "string", "pattern": r"^[A-Z]{2}\d$"}, "minItems": 2}) == [
        "AA0",
        "AA0",
    ]


# --- uniqueItems ----------------------------------------------------------------------------------


def unique(items: dict, count: int, **more) -> list:
    return fill({"type": "array", "items": items, "minItems": count, "uniqueItems": True, **more})


@pytest.mark.parametrize(
    ("items", "count", "made"),
    [
        ({"type": "integer"}, 3, [1, 2, 0]),
        ({"type": "integer", "minimum": 10, "maximum": 12}, 3, [10, 11, 12]),
        ({"type": "integer", "multipleOf": 5, "exclusiveMinimum": 0}, 3, [5, 10, 15]),
        ({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}, 3, [0.5, 0.25, 0.75]),
        ({"type": "boolean"}, 2, [False, True]),
        ({"enum": ["a", "b", "c"]}, 3, ["a", "b", "c"]),
        # "tomorrow" is the day after the gateway's fixed today ([generic.relative_dates]); the others are made
        ({"type": "string", "format": "date"}, 3, ["2026-12-02", "2026-01-02", "2026-01-03"]),
        ({"type": "string", "pattern": r"^[A-Z]{2}\d$"}, 3, ["AA0", "AA1", "AA2"]),
        ({"type": "string"}, 5, ["look", "order", "tomorrow", "tomorrow 2", "tomorrow 3"]),
        ({"type": "string", "maxLength": 1}, 3, ["p", "2", "3"]),
        ({"type": "string", "minLength": 2, "maxLength": 2}, 3, ["pl", "p2", "p3"]),
    ],
)
def test_padded_items_are_distinct(items, count, made):
    assert unique(items, count) == made


def test_distinct_objects_vary_one_property():
    items = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]}
    assert unique(items, 3) == [{"n": 1}, {"n": 2}, {"n": 3}]


@pytest.mark.parametrize(
    "items", [{"type": "string", "format": f} for f in ("uuid", "email", "date-time", "time", "ipv4", "uri")]
)
def test_distinct_values_of_a_format(items):
    made = unique(items, 20)
    assert len(set(made)) == 20


def test_a_tuple_pads_past_its_places_with_distinct_items():
    schema = {"prefixItems": [{"type": "integer"}], "items": {"type": "integer"}, "minItems": 3, "uniqueItems": True}
    assert fill({"type": "array", **schema}) == [1, 2, 0]


def test_when_too_few_values_exist_the_last_is_repeated_to_reach_min_items():
    assert unique({"enum": ["a", "b"]}, 3) == ["a", "b", "a"]
    assert unique({"type": "boolean"}, 3) == [False, True, False]
    assert unique({"type": "integer", "minimum": 1, "maximum": 2}, 3) == [1, 2, 1]
    assert unique({"const": 7}, 2) == [7, 7]


@pytest.mark.parametrize(
    ("items", "made"),
    [
        ({"type": "string", "const": "x"}, ["x", "x"]),
        ({"anyOf": [{"type": "string", "pattern": r"^\d{3}$"}, {"type": "null"}]}, ["000", "000"]),
        ({"type": "string", "maxLength": 3}, ["ple", "ple"]),
        ({"type": "string", "minLength": 40}, [TEXT + "____", TEXT + "____"]),
    ],
)
def test_constrained_string_items_are_made_from_their_schema_not_the_search_terms(items, made):
    assert fill({"type": "array", "items": items, "minItems": 2}) == made


def test_a_multiple_of_a_tiny_step_between_huge_bounds_is_no_crash():
    # math.ceil(1e308 / 1e-300) raised OverflowError: the gateway answered 500
    number = {"type": "number", "minimum": -1e308, "maximum": 1e308, "multipleOf": 1e-300}
    assert fill(number) == 1
    assert len(fill({"type": "array", "items": number, "minItems": 2, "uniqueItems": True})) == 2


def test_without_unique_items_padding_still_repeats():
    assert fill({"type": "array", "items": {"type": "integer"}, "minItems": 3}) == [1, 1, 1]


# --- pydantic models through the gateway -----------------------------------------------------------


class Inner(BaseModel):
    label: constr(pattern=r"^[a-z]{2,5}$")
    size: Annotated[int, Field(multiple_of=5, gt=0)]


class Order(BaseModel):
    code: constr(pattern=r"^[A-Z]{3}-\d{4}$")
    tags: conset(int, min_length=3)
    kind: Literal["a", "b", "c"]
    when: datetime.datetime
    day: datetime.date
    ident: uuid.UUID
    inner: Optional[Inner] = None
    need: Inner
    nums: conset(confloat(gt=0, lt=1), min_length=4)
    words: conset(str, min_length=4, max_length=6)
    codes: conset(constr(pattern=r"^SN\d{3}$"), min_length=3)
    kinds: conset(Literal["x", "y", "z"], min_length=3)
    flags: conset(bool, min_length=2)
    inners: conlist(Inner, min_length=3)
    near: set[Annotated[int, Field(ge=10, le=12)]] = Field(min_length=3)
    email: constr(pattern=r"^[\w.+-]+@[\w-]+\.[a-z]{2,}$")
    phone: Annotated[str, Field(pattern=r"^\+?\d{10,12}$", min_length=11)]


class Tree(BaseModel):
    name: constr(pattern=r"^[a-z]+-\d$")
    children: list["Tree"] = []
    parent: Optional["Tree"] = None


PEERS = [
    Order,
    Inner,
    Tree,
    conset(int, min_length=5),
    frozenset[uuid.UUID],
    conlist(constr(pattern=r"^[A-Z]{2}\d$"), min_length=3),
    Annotated[set[datetime.date], Field(min_length=3)],
    conset(Annotated[int, Field(multiple_of=5, gt=0)], min_length=4),
    conset(constr(pattern=r"^(?:yes|no|maybe)$"), min_length=3),
    conset(Literal["x", "y", "z"], min_length=3),
    set[tuple[int, int]],
]


@pytest.fixture(scope="module")
def gateway_url():
    with running_gateway() as url:
        yield url


@pytest.mark.parametrize("kind", PEERS, ids=[f"peer{i}" for i in range(len(PEERS))])
@pytest.mark.parametrize("said", [TEXT, "Order SN202610200001 shipped on 2026-12-24; call +8613812345678"])
def test_every_structured_answer_validates_with_pydantic(gateway_url, kind, said):
    adapter = TypeAdapter(kind)
    schema = adapter.json_schema()
    wrapped = schema.get("type") != "object"
    if wrapped:  # structured output takes an object: the value under one property
        schema = {"type": "object", "properties": {"v": schema}, "required": ["v"], "$defs": schema.pop("$defs", {})}
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": said}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}},
    }
    content = httpx.post(gateway_url + "/chat/completions", json=body).json()["choices"][0]["message"]["content"]
    adapter.validate_json(json.dumps(json.loads(content)["v"]) if wrapped else content)


def test_each_built_string_matches_with_re_search():
    for pattern in (r"^[A-Z]{3}-\d{4}$", r"\bx\d\b", r"^[^\W\d_]{3}$", r"^.{4}$", r"^[\d.]{3}$"):
        assert re.search(pattern, fill({"type": "string", "pattern": pattern}))
