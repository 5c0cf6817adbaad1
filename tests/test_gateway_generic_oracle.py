"""`toolkit.gateway.generic` against `jsonschema`: whatever arguments the gateway fills for a stranger's
tool validate against the tool's own schema (Draft 2020-12, formats checked), the same request twice
gives the same bytes, and no schema makes a 5xx.

Schemas are drawn with a witness, a value known to fit, and kept only when the oracle accepts the
witness: every schema drawn can be met, so an invalid answer is the filler's fault. First the cases
that failed before (fixed examples), then the property over drawn schemas and texts."""

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from toolkit.gateway import judge
from toolkit.gateway.core import GatewayConfig, respond
from toolkit.gateway.generic import fill_arguments
from toolkit.gateway.rules import load_rules, read_text

RULES = load_rules()
TEXT = "please look up my order for tomorrow"
ORACLE = Draft202012Validator.FORMAT_CHECKER


def errors(value, schema) -> list[str]:
    validator = Draft202012Validator(schema, format_checker=ORACLE)
    return [e.message for e in validator.iter_errors(value)]


def fill_root(schema: dict, text: str = TEXT) -> dict:
    return fill_arguments(schema, text, read_text(text, RULES), RULES)


def fill(field: dict, text: str = TEXT, **root):
    schema = {"type": "object", "properties": {"x": field}, "required": ["x"], **root}
    arguments = fill_root(schema, text)
    assert errors(arguments, schema) == []
    return arguments["x"]


# --- fixed cases ------------------------------------------------------------------------------------


def test_min_properties_adds_optional_properties_in_order():
    shape = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
    assert fill({**shape, "minProperties": 1}) == {"a": TEXT}
    assert fill({**shape, "required": ["a"], "minProperties": 2, "additionalProperties": False}) == {"a": TEXT, "b": 1}


def test_min_properties_beyond_the_named_ones_adds_additional_properties():
    assert fill({"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 2}) == {
        "x1": 1,
        "x2": 1,
    }


def test_a_required_name_without_a_property_is_filled():
    assert fill({"type": "object", "required": ["a"]}) == {"a": TEXT}
    assert fill({"type": "object", "required": ["n"], "additionalProperties": {"type": "integer"}}) == {"n": 1}


def test_contains_puts_an_item_that_matches_it_first():
    assert fill({"type": "array", "contains": {"const": 5}}) == [5, "look", "order", "tomorrow"]
    items = {"type": "integer", "minimum": 0}
    made = fill({"type": "array", "items": items, "contains": {"minimum": 7}, "minContains": 2, "uniqueItems": True})
    assert made == [7, 8, 1]
    assert fill({"type": "array", "items": {"type": "string"}, "contains": {"pattern": "^x"}, "maxItems": 2}) == [
        "x",
        "look",
    ]


@pytest.mark.parametrize(
    ("field", "made"),
    [
        ({"type": "string", "not": {"const": TEXT}}, TEXT + " 2"),
        ({"type": "integer", "not": {"const": 1}}, 2),
        ({"type": "integer", "minimum": 1, "not": {"enum": [1, 2]}}, 3),
        ({"enum": ["a", "b", "c"], "not": {"enum": ["a", "b"]}}, "c"),
    ],
)
def test_a_value_the_not_schema_accepts_is_replaced(field, made):
    assert fill(field) == made


@pytest.mark.parametrize(
    ("field", "made"),
    [
        ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, 1.5),
        ({"oneOf": [{"type": "string"}, {"type": "string", "format": "date"}]}, TEXT),
        ({"oneOf": [{"type": "string", "maxLength": 5}, {"type": "string", "minLength": 3}]}, TEXT),
        # values another choice refuses: one its `not` names, one just past its bounds (CI's hypothesis run)
        ({"oneOf": [{"type": "number"}, {"type": "number", "not": {"enum": [0, "a", None]}}]}, 0),
        (
            {
                "oneOf": [
                    {"type": "string", "not": {"const": "b"}},
                    {"allOf": [{"type": "string", "not": {"enum": ["a"]}}]},
                ]
            },
            "a",
        ),
        ({"oneOf": [{"type": "string"}, {"type": "string", "minLength": 1}]}, ""),
        ({"oneOf": [{"type": "number"}, {"type": "number", "maximum": 400}]}, 401),
        ({"oneOf": [{"type": "integer"}, {"allOf": [{"type": "integer", "exclusiveMaximum": 50}]}]}, 50),
        (
            {
                "oneOf": [
                    {"type": "array", "items": {"type": "integer"}},
                    {"type": "array", "items": {"type": "integer"}, "minItems": 1},
                ]
            },
            [],
        ),
        ({"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 40}]}, (TEXT * 2)[:41]),
        (
            {
                "oneOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False},
                    {"type": "object", "properties": {"b": {"type": "integer"}}, "additionalProperties": False},
                ]
            },
            {"a": TEXT},
        ),
    ],
)
def test_one_of_takes_a_value_only_one_branch_accepts(field, made):
    assert fill(field) == made


def test_a_choice_beside_other_keywords_is_filled_with_them():
    shape = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
    assert fill({**shape, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}) == {"a": TEXT}
    # the text holds no number for b (1 would be made up), and words for a: the choice it gives a value for
    assert fill({**shape, "anyOf": [{"required": ["b"]}, {"required": ["a"]}]}) == {"a": TEXT}
    assert fill({**shape, "anyOf": [{"required": ["b"]}, {"required": ["a"]}]}, "look up order 7") == {"b": 7}
    assert fill({"type": "string", "anyOf": [{"maxLength": 2}, {"format": "date"}]}) == "pl"


def test_an_enum_value_must_meet_the_keywords_beside_it():
    assert fill({"enum": ["a", "b"], "type": "string", "pattern": "^b$"}) == "b"
    assert fill({"type": "string", "enum": [1, "a"]}, "pick 1 please") == "a"
    assert fill({"type": "integer", "enum": [1, 5, 9], "minimum": 4}) == 5


def test_an_item_that_cannot_be_met_is_left_out_when_none_is_asked_for():
    never = {"type": "array", "items": {"type": "boolean"}, "maxItems": 0, "contains": {"type": "boolean"}}
    assert fill({"type": "array", "items": never}) == []


def test_an_array_whose_items_are_false_is_empty():
    assert fill({"type": "array", "items": False}) == []
    assert fill({"type": "array", "prefixItems": [{"type": "integer"}], "items": False}) == [1]


@pytest.mark.parametrize(
    ("text", "made"),
    [
        ("ship on 2026-02-30, no, 2026-03-02", "2026-03-02"),  # the first is no day
        ("on 2026-13-01", "2026-01-01"),  # no day at all: the format's own value
        ("我想订2026年12月4日的会议", "2026-12-04"),
        ("2026年3月9号下午开会", "2026-03-09"),
        ("2026年2月30日", "2026-01-01"),
    ],
)
def test_a_date_is_a_day_of_the_calendar_written_in_iso_or_chinese(text, made):
    assert fill({"type": "string", "format": "date"}, text) == made


def test_a_date_time_is_made_from_a_chinese_date():
    assert fill({"type": "string", "format": "date-time"}, "2026年12月4日 14:30 开会") == "2026-12-04T14:30:00Z"


def test_an_any_of_whose_first_choice_cannot_be_met_takes_the_next():
    same = {"type": "integer", "multipleOf": 5}
    assert fill({"anyOf": [{"oneOf": [same, same]}, {"type": "integer", "multipleOf": 2}]}) == 2


def test_the_values_of_a_choice_include_the_other_choices():
    assert fill({"oneOf": [{"anyOf": [{"type": "boolean"}, {"type": "integer"}]}, {"type": "boolean"}]}) == 1


def test_a_choice_with_no_end_of_values_does_not_starve_the_others():
    positive = {"type": "number", "exclusiveMinimum": 0}
    assert fill({"oneOf": [{"anyOf": [positive, {"type": "number"}]}, {"anyOf": [positive]}]}) == 0


def test_a_multiple_below_a_negative_maximum_is_rounded_down():
    assert fill({"type": "integer", "multipleOf": 2, "maximum": -1}) == -2


@pytest.mark.parametrize(
    ("field", "made"),
    [
        ({"type": "string", "pattern": "o", "minLength": 2, "maxLength": 5}, "o_"),
        ({"type": "string", "pattern": "o$", "minLength": 3}, "__o"),
        ({"type": "string", "pattern": "^(red|green|blue)$", "minLength": 4}, "green"),
    ],
)
def test_a_pattern_s_string_meets_the_lengths_when_the_pattern_lets_it(field, made):
    assert fill(field, "just text") == made


def test_a_fact_is_cut_to_the_max_length_as_the_words_are():
    schema = {"type": "object", "properties": {"date": {"type": "string", "maxLength": 4}}, "required": ["date"]}
    assert fill_root(schema, "on 2026-12-04") == {"date": "2026"}


# --- the property -----------------------------------------------------------------------------------

NAMES = st.sampled_from(["city", "date", "count", "email", "tags", "note", "id", "start_time", "level", "when"])
PATTERNS = [
    (r"^[A-Z]{3}-\d{4}$", "ABC-1234"),
    (r"^SN\d{12}$", "SN202610200001"),
    (r"^(red|green|blue)$", "green"),
    (r"o", "order"),
    (r"^[a-z ]+$", "look up"),
]
FORMATS = [
    ("date", "2026-12-04"),
    ("date-time", "2026-12-04T10:00:00Z"),
    ("email", "ann@example.com"),
    ("uuid", "12345678-1234-4234-8234-123456789abc"),
    ("ipv4", "10.0.0.1"),
    ("time", "10:00:00Z"),
]
TEXTS = st.sampled_from(
    [
        TEXT,
        "",
        "set level 7 for ann@example.com on 2026-12-04 at 09:30",
        "订单 SN202610200001 的状态是什么？",
        "我想订2026年12月4日下午3点的会议，人数 12",
        "明天北京天气怎么样",
        "status: shipped\ncount: 3",
        "numbers 1 2 3 -4 5.5 and 1e9",
        "ABC-1234 green",
        "\u3000“quoted words”\u3000",
    ]
)


def _integer(draw) -> tuple[dict, int]:
    step = draw(st.sampled_from([None, 2, 3, 5]))
    witness = draw(st.integers(-20, 20)) * (step or 1)
    schema: dict = {"type": "integer"}
    if step:
        schema["multipleOf"] = step
    for key, bound in (("minimum", witness - draw(st.integers(0, 6))), ("maximum", witness + draw(st.integers(0, 6)))):
        if draw(st.booleans()):
            schema[key] = bound
    if draw(st.booleans()):
        schema["exclusiveMinimum"] = witness - draw(st.integers(1, 6))
    return schema, witness


def _number(draw) -> tuple[dict, float]:
    witness = draw(st.integers(-40, 40)) / 4
    schema: dict = {"type": "number"}
    if draw(st.booleans()):
        schema["exclusiveMinimum"] = witness - draw(st.sampled_from([0.25, 0.5, 3]))
    if draw(st.booleans()):
        schema["exclusiveMaximum"] = witness + draw(st.sampled_from([0.25, 0.5, 3]))
    if draw(st.booleans()):
        schema["multipleOf"] = 0.25
    return schema, witness


def _string(draw) -> tuple[dict, str]:
    how = draw(st.sampled_from(["plain", "pattern", "format", "enum", "const"]))
    if how == "pattern":
        pattern, witness = draw(st.sampled_from(PATTERNS))
        schema = {"type": "string", "pattern": pattern}
    elif how == "format":
        fmt, witness = draw(st.sampled_from(FORMATS))
        schema = {"type": "string", "format": fmt}
    elif how in ("enum", "const"):
        witness = draw(st.sampled_from(["shipped", "已发货", "a", "celsius"]))
        others = draw(st.lists(st.sampled_from(["x", "y", 1, None, "已签收"]), max_size=3, unique_by=repr))
        schema = {"enum": [*others, witness]} if how == "enum" else {"const": witness}
        if draw(st.booleans()):
            schema["type"] = "string"
    else:
        witness = draw(st.text(alphabet="ab 中文", min_size=0, max_size=12))
        schema = {"type": "string"}
    if draw(st.booleans()):
        schema["minLength"] = draw(st.integers(0, len(witness)))
    if how != "format" and draw(st.booleans()):  # a format's own value is fixed: its length too (left out)
        schema["maxLength"] = len(witness) + draw(st.integers(0, 5))
    return schema, witness


@st.composite
def leaves(draw) -> tuple[dict, object]:
    kind = draw(st.sampled_from(["integer", "number", "string", "string", "boolean", "null"]))
    if kind == "integer":
        return _integer(draw)
    if kind == "number":
        return _number(draw)
    if kind == "string":
        return _string(draw)
    if kind == "boolean":
        witness = draw(st.booleans())
        return {"type": "boolean"}, witness
    return {"type": "null"}, None


def _wrapped(draw, inner: st.SearchStrategy) -> tuple[dict, object]:
    """An object, an array, a choice, a `not` or an `allOf` around schemas drawn from `inner`."""
    kind = draw(st.sampled_from(["object", "array", "anyOf", "oneOf", "not", "allOf"]))
    if kind == "object":
        props = draw(st.dictionaries(NAMES, inner, min_size=0, max_size=3))
        schema: dict = {"type": "object", "properties": {n: s for n, (s, _) in props.items()}}
        witness = {n: w for n, (_, w) in props.items()}
        schema["required"] = [n for n in props if draw(st.booleans())]
        if draw(st.booleans()):
            schema["additionalProperties"] = False
        if draw(st.booleans()):
            schema["minProperties"] = draw(st.integers(0, len(props)))
        return schema, witness
    if kind == "array":
        item, witness = draw(inner)
        count = draw(st.integers(0, 3))
        schema = {"type": "array", "items": item}
        if draw(st.booleans()):
            schema["minItems"] = count
        if draw(st.booleans()):
            schema["maxItems"] = count + draw(st.integers(0, 2))
        if draw(st.booleans()):
            schema["contains"] = item
            count = max(count, 1)
        if count > 1 and draw(st.booleans()):  # distinct witnesses: items drawn from an enum of them
            values = [f"v{i}" for i in range(count)]
            return {**schema, "items": {"enum": values}, "uniqueItems": True, "contains": {"const": "v0"}}, values
        return schema, [witness] * count
    if kind in ("anyOf", "oneOf"):
        branches = draw(st.lists(inner, min_size=1, max_size=3))
        chosen = draw(st.integers(0, len(branches) - 1))
        return {kind: [s for s, _ in branches]}, branches[chosen][1]
    if kind == "not":
        schema, witness = draw(inner)
        other = draw(
            st.sampled_from(
                [{"const": "zzz"}, {"type": "array", "items": {}}, {"enum": [0, "a", None]}, {"type": "null"}]
            )
        )
        return {**schema, "not": other}, witness
    schema, witness = draw(inner)
    return {"allOf": [schema, {"$comment": "more"}]}, witness


schemas = st.recursive(leaves(), lambda inner: st.composite(lambda draw: _wrapped(draw, inner))(), max_leaves=6)


@st.composite
def tools(draw) -> tuple[dict, dict]:
    """A tool's parameters (some behind a `$ref`) and a witness of them, one the oracle accepts."""
    props = draw(st.dictionaries(NAMES, schemas, min_size=1, max_size=3))
    defs = {}
    properties = {}
    for name, (schema, _) in props.items():
        if draw(st.booleans()):
            defs[name.capitalize()] = schema
            properties[name] = {"$ref": f"#/$defs/{name.capitalize()}"}
        else:
            properties[name] = schema
    parameters: dict = {
        "type": "object",
        "properties": properties,
        "required": [n for n in props if draw(st.booleans())],
    }
    if defs:
        parameters["$defs"] = defs
    witness = {n: w for n, (_, w) in props.items()}
    assume(not errors(witness, parameters))
    return parameters, witness


def call(parameters: dict, text: str) -> tuple[int, bytes]:
    tool = {"type": "function", "function": {"name": "stranger", "description": "a learner's tool"}}
    tool["function"]["parameters"] = parameters
    request = {
        "model": "m",
        "messages": [{"role": "user", "content": text or "hi"}],
        "tools": [tool],
        "tool_choice": {"type": "function", "function": {"name": "stranger"}},
    }
    reply = respond(request, GatewayConfig())
    return reply.status, json.dumps(reply.body, ensure_ascii=False, sort_keys=True).encode()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(tools(), TEXTS)
def test_filled_arguments_validate_against_any_schema_that_can_be_met(tool, text):
    parameters, _ = tool
    assert errors(fill_root(parameters, text), parameters) == []


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(tools(), TEXTS)
def test_the_gateway_s_forced_call_is_valid_deterministic_and_never_a_5xx(tool, text):
    parameters, _ = tool
    status, body = call(parameters, text)
    assert status == 200, body[:300]
    assert call(parameters, text) == (status, body)
    arguments = json.loads(json.loads(body)["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"])
    assert errors(arguments, parameters) == []


def test_a_pattern_that_could_backtrack_is_not_searched_by_the_judge():
    # a lookahead is not built, so the user's words stay; jsonschema's own search of them took minutes
    field = {"type": "string", "pattern": "^(?=(a+)+$)", "not": {"const": "b"}}
    schema = {"type": "object", "properties": {"x": field}, "required": ["x"]}
    said = "a" * 40 + "!"
    assert fill_root(schema, said) == {"x": said}


@pytest.fixture
def judgements(monkeypatch):
    """How many values reach jsonschema (each judgement asks for the root's validator once)."""
    calls = []
    ask = judge.Judge._root_validator

    def counted(self):
        calls.append(1)
        return ask(self)

    monkeypatch.setattr(judge.Judge, "_root_validator", counted)
    return calls


def test_a_schema_jsonschema_cannot_judge_is_judged_once(judgements):
    # a oneOf of itself: each judgement took 27 ms to reach RecursionError, 2,000 of them a minute
    itself = {"oneOf": [{"$ref": "#/properties/x"}, {"$ref": "#/properties/x"}]}
    fill_root({"type": "object", "properties": {"x": itself}, "required": ["x"]})
    assert len(judgements) == 1


def test_judging_is_bounded_by_the_size_of_the_values_judged(judgements):
    # 50 choices of 50 properties, each with a `not`: 3 ms a judgement, 2,000 judgements took 2.3 s
    shape = {f"p{i}": {"type": "integer", "not": {"const": i}} for i in range(50)}
    choice = {"type": "object", "properties": shape, "required": list(shape)}
    fill_root({"type": "object", "properties": {"x": {"oneOf": [choice] * 50}}, "required": ["x"]})
    assert len(judgements) <= 100  # an object counts as its 51 values: not 2,000 judgements of them


def test_a_one_of_met_only_by_a_value_a_nested_choice_makes_is_filled():
    """Found by `test_filled_arguments_validate_against_any_schema_that_can_be_met`: a string beside a
    `oneOf` of a date and a string takes only a date (the nested `oneOf` refuses one, both its
    choices accept it). The filler tried its own values and the values a `not` or a bound names,
    then gave up with the user's words, which both outer choices accept."""
    nested = {"oneOf": [{"type": "string", "format": "date"}, {"type": "string"}]}
    schema = {
        "type": "object",
        "properties": {"city": {"oneOf": [{"type": "string"}, nested]}},
        "required": ["city"],
    }
    filled = fill_root(schema, "please look up my order for tomorrow")
    assert errors(filled, schema) == []
    assert errors({"city": "please look up my order for tomorrow"}, schema) != []


def test_a_one_of_of_objects_told_apart_by_an_optional_property_gets_the_value_only_one_takes():
    """Found by Hypothesis: two `oneOf` choices alike but for an optional `count` (any number in one, whole
    numbers only in the other). `{"date": 0}` fits both, and so does any whole `count`: only a count like 0.5
    fits the first alone. The filler tried the required `date`'s values first (a number between close bounds
    has dozens) and gave each optional property one value only, so it never reached one."""

    def choice(count: str) -> dict:
        date = {"type": "number", "exclusiveMinimum": -0.25, "exclusiveMaximum": 0.25}
        properties = {"date": date, "city": {"type": "number"}, "count": {"type": count}}
        return {"type": "object", "properties": properties, "required": ["date"]}

    schema = {
        "type": "object",
        "properties": {"date": {"oneOf": [choice("number"), choice("integer")]}},
        "required": ["date"],
    }
    filled = fill_root(schema)
    assert errors(filled, schema) == []
    assert filled == {"date": {"date": 0, "count": 1.5}}


def test_a_one_of_of_thousands_of_choices_is_read_a_bounded_number_of_times(monkeypatch):
    """Each made choice asked every other choice for the values it refuses: 4,000 ranges took 35 s (N²)."""
    from toolkit.gateway import judge

    read = []
    past_bounds = judge._past_bounds
    monkeypatch.setattr(judge, "_past_bounds", lambda schema, made: read.append(1) or past_bounds(schema, made))
    choices = [{"type": "integer", "minimum": 0, "maximum": 5}] * 1500  # no value only one of them takes
    fill_root({"type": "object", "properties": {"x": {"oneOf": choices}}, "required": ["x"]})
    assert len(read) <= judge._MAX_TRIES * judge._MAX_TRIES
