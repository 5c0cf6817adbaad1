"""Arguments in: the coercion table (accepted and rejected inputs across types), parsing, the
required / optional / null rules, and the exact model-facing text of every argument error."""

import collections
import dataclasses
import datetime
import decimal
import enum
import inspect
import json
import uuid
from typing import Annotated, Any, Literal, Optional

import pytest
import typing_extensions
from pydantic import (
    UUID4,
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    FutureDate,
    FutureDatetime,
    Json,
    NaiveDatetime,
    PastDate,
    PastDatetime,
)

from toolkit.errors import ArgumentError, ArgumentProblem
from toolkit.tools import json_repair
from toolkit.tools.arguments import coerce_arguments, coerce_one, describe, json_text, parse_arguments
from toolkit.tools.coercion import validator_for
from toolkit.tools.decorator import Param
from toolkit.tools.parameters import ParamInfo
from toolkit.tools.reflect import reflect


class Status(str, enum.Enum):
    PENDING = "pending"
    SHIPPED = "shipped"
    DELIVERED = "delivered"


class Priority(enum.Enum):
    LOW = "low"
    HIGH = "high"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Address(BaseModel):
    city: str
    street: str
    postcode: str | None = None


class Item(BaseModel):
    sku: str
    quantity: int = Field(ge=1)
    gift: bool = False
    status: Status = Status.PENDING


class Node(BaseModel):
    name: str
    children: list["Node"] = []


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")
    a: int


Bounded = Annotated[int, Field(ge=1, le=50)]
Short = Annotated[str, Field(min_length=2, max_length=5)]
One = Annotated[str, Field(min_length=1, max_length=1)]
Few = Annotated[list[int], Field(min_length=1, max_length=1)]
OrderId = Annotated[str, Field(pattern=r"^SN\d{12}$")]
D, DT = datetime.date, datetime.datetime
U = "0b0c2f4e-8f55-4c55-9a55-6a3a2f1d2c11"


def coerce(annotation: Any, value: Any) -> Any:
    """One parameter `x` of type `annotation`, sent `value`, through the executor's path."""
    return coerce_one(annotation, value)


ACCEPTED = [  # (type, what the model sent, what the function receives)
    (int, 5, 5),
    (int, "27", 27),
    (int, 27.0, 27),
    (int, " 27 ", 27),
    (int, "-3", -3),
    (int, 0, 0),
    (int, 10**20, 10**20),
    (int, "27.0", 27),
    # a number in quotes is read as LangChain4j reads it (Double.parseDouble), then checked for a
    # fraction: "1e3" is 1000; and a whole number written with an exponent is the integer it is,
    # past 64 bits too (pydantic refused 1e20 as "expected an integer")
    (int, "1e3", 1000),
    (int, " 2.5E1 ", 25),
    (int, "-1e2", -100),
    (int, 1e20, 10**20),
    # every decimal text java.math.BigDecimal reads (LangChain4j's DefaultToolExecutor.getBigDecimalValue,
    # then toBigIntegerExact): a sign, a point with no digits after it or before it, an exponent's sign
    (int, "5.", 5),
    (int, "+1e3", 1000),
    (int, ".5e1", 5),
    (int, "1.e3", 1000),
    (int, "+5.", 5),
    # ... only when every branch of a union refused it: a union reads the value as before
    (int | str, "1e3", "1e3"),
    (float | int, "1e3", 1000.0),
    (int | float, 2.0, 2.0),
    (int | float, 1e20, 1e20),
    (Literal["all"] | int, "1e3", 1000),
    (list[int | str], ["1e3", 5], ["1e3", 5]),
    (float, 2.5, 2.5),
    (float, "2.5", 2.5),
    (float, 3, 3.0),
    (float, "1e3", 1000.0),
    (float, "-0.5", -0.5),
    (bool, True, True),
    (bool, False, False),
    (str, "abc", "abc"),
    (str, "", ""),
    (str, "订单", "订单"),
    (Status, "shipped", Status.SHIPPED),
    (Status, "SHIPPED", Status.SHIPPED),
    (Status, "Shipped", Status.SHIPPED),
    (Priority, "HIGH", Priority.HIGH),
    (Level, 2, Level.HIGH),
    (Level, "1", Level.LOW),
    (Literal["metric", "imperial"], "metric", "metric"),
    (Literal["metric", "imperial"], "METRIC", "metric"),
    (Literal[1, 2, 3], 2, 2),
    (Literal[1, 2, 3], "3", 3),
    (D, "2026-10-20", D(2026, 10, 20)),
    (D, "2026-10-20T00:00:00", D(2026, 10, 20)),
    (DT, "2026-10-20T09:30:00", DT(2026, 10, 20, 9, 30)),
    (DT, "2026-10-20T09:30:00+08:00", DT(2026, 10, 20, 9, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=8)))),
    (uuid.UUID, U, uuid.UUID(U)),
    (Optional[int], None, None),
    (Optional[int], "5", 5),
    (int | str, "x", "x"),
    (int | str, 5, 5),
    (list[int], [1, "2", 3.0], [1, 2, 3]),
    (list[int], [], []),
    (set[str], ["a", "a"], {"a"}),
    (dict[str, int], {"a": "1"}, {"a": 1}),
    (Bounded, 50, 50),
    (Bounded, "1", 1),
    (Short, "ab", "ab"),
    (OrderId, "SN202610200001", "SN202610200001"),
    (Address, {"city": "c", "street": "s"}, Address(city="c", street="s")),
    (Address, {"city": "c", "street": "s", "postcode": None}, Address(city="c", street="s")),
    # an object sent as a JSON string (a model double-encoding a nested object) is read as the
    # object, as LangChain4j's coerceArgument reads a String argument for a POJO (Json.fromJson)
    (Address, '{"city": "c", "street": "s"}', Address(city="c", street="s")),
    (Address, ' {"city": "c", "street": "s"}\n', Address(city="c", street="s")),
    (list[Item], ['{"sku": "A", "quantity": "2"}'], [Item(sku="A", quantity=2)]),
    (Address | str, '{"city": "c", "street": "s"}', '{"city": "c", "street": "s"}'),  # a str branch keeps it
    (Item, {"sku": "A", "quantity": "2"}, Item(sku="A", quantity=2)),
    (Item, {"sku": "A", "quantity": 1, "gift": None}, Item(sku="A", quantity=1)),  # null → default
    (Item, {"sku": "A", "quantity": 1, "status": "SHIPPED"}, Item(sku="A", quantity=1, status=Status.SHIPPED)),
    (list[Item], [{"sku": "A", "quantity": 1}], [Item(sku="A", quantity=1)]),
    (Node, {"name": "a", "children": [{"name": "b"}]}, Node(name="a", children=[Node(name="b")])),
    (Loose, {"a": 1, "b": 2}, Loose(a=1, b=2)),  # a model that allows extras keeps them
    (Any, {"free": [1]}, {"free": [1]}),
]

REJECTED = [  # (type, what the model sent, the field, what the error says is expected)
    (int, 27.5, "x", "an integer"),
    (int, "27.5", "x", "an integer"),
    (int, "abc", "x", "an integer"),
    (int, True, "x", "an integer"),
    (int, "1.25e1", "x", "an integer"),
    (int, ".5", "x", "an integer"),
    (int, "5.e-1", "x", "an integer"),
    (int, "0x10", "x", "an integer"),
    (int, "1e", "x", "an integer"),
    (int, "0x10", "x", "an integer"),
    (int, "1e5000", "x", "an integer"),
    (int, None, "x", "an integer"),
    (int, [], "x", "an integer"),
    (float, "nan", "x", "a finite number"),
    (float, "inf", "x", "a finite number"),
    (float, "abc", "x", "a number"),
    (float, True, "x", "a number"),
    (bool, "true", "x", "true or false"),
    (bool, 1, "x", "true or false"),
    (bool, "yes", "x", "true or false"),
    (str, 42, "x", "a string"),
    (str, ["a"], "x", "a string"),
    (Status, "lost", "x", "one of 'pending', 'shipped' or 'delivered'"),
    (Literal["metric", "imperial"], "kelvin", "x", "one of 'metric' or 'imperial'"),
    (Literal[1, 2, 3], "4", "x", "one of 1, 2 or 3"),
    (D, "yesterday", "x", "a date like 2026-10-20"),
    (D, "2026-13-01", "x", "a real date like 2026-10-20"),
    (DT, "soon", "x", "a date-time like 2026-10-20T09:30:00"),
    (uuid.UUID, "not-a-uuid", "x", "a UUID"),
    (list[int], "1,2", "x", "an array"),
    (list[int], [1, "x"], "x[1]", "an integer"),
    (Bounded, 0, "x", "a number >= 1"),
    (Bounded, 500, "x", "a number <= 50"),
    (Short, "a", "x", "a string of at least 2 characters"),
    (Short, "abcdef", "x", "a string of at most 5 characters"),
    # one of a unit is one, not "1 characters" (min_length=1 is the usual "not empty")
    (One, "", "x", "a string of at least 1 character"),
    (One, "ab", "x", "a string of at most 1 character"),
    (Few, [], "x", "at least 1 item"),
    (Few, [1, 2], "x", "at most 1 item"),
    (One | int, "", "x", "a string of at least 1 character and at most 1 character or an integer"),
    (OrderId, "202610200001", "x", "a string matching ^SN\\d{12}$"),
    (Address, "Main street 1", "x", "an object"),
    (Address, "[1, 2]", "x", "an object"),
    (Address, '{"city": "c"', "x", "an object"),
    (Address, '{"a":' * 100_000, "x", "an object"),  # too deep for json.loads: no RecursionError
    (Address, '{"city": "c", "street": 5}', "x.street", "a string"),
    (Item, {"sku": "A", "quantity": 0}, "x.quantity", "a number >= 1"),
    (Item, {"sku": "A", "quantity": 1, "gift": "true"}, "x.gift", "true or false"),
    (Item, {"sku": "A", "quantity": 1, "status": "lost"}, "x.status", "one of 'pending', 'shipped' or 'delivered'"),
    (int | str, [1], "x", "an integer or a string"),
    # a union's branches are worded with their constraints and choices: "got 500, expected an integer"
    # (or "got 0, expected an integer or a string") told the model the value it sent was right
    (Bounded | Literal["all"], 500, "x", "an integer >= 1 and <= 50 or one of 'all'"),
    (Annotated[int, Field(gt=0)] | str, 0, "x", "an integer > 0 or a string"),
    (Annotated[float, Field(lt=1.5)] | list[float], 2, "x", "a number < 1.5 or an array"),
    (Short | int, "a", "x", "a string of at least 2 characters and at most 5 characters or an integer"),
    (OrderId | int, "SN1", "x", "a string matching ^SN\\d{12}$ or an integer"),
    (Literal["metric", "imperial"] | int, "kelvin", "x", "one of 'metric', 'imperial' or an integer"),
    (Status | int, "lost", "x", "one of 'pending', 'shipped', 'delivered' or an integer"),
    (dict[str, int], {"a": "x"}, "x.a", "an integer"),
    (Node, {"name": "a", "children": [{"name": 1}]}, "x.children[0].name", "a string"),
]


def test_the_table_is_big_enough():
    assert len(ACCEPTED) >= 40 and len(REJECTED) >= 20
    assert len({t for t, *_ in ACCEPTED + REJECTED if not isinstance(t, str)}) >= 20


@pytest.mark.parametrize("annotation, sent, received", ACCEPTED, ids=lambda v: repr(v)[:30])
def test_accepted(annotation, sent, received):
    got = coerce(annotation, json.loads(json.dumps(sent)))
    assert got == received and type(got) is type(received)


@pytest.mark.parametrize("annotation, sent, field, expected", REJECTED, ids=lambda v: repr(v)[:30])
def test_rejected(annotation, sent, field, expected):
    with pytest.raises(ArgumentError) as info:
        coerce(annotation, sent)
    assert [(p.field, p.expected) for p in info.value.problems] == [(field, expected)]


def test_rejected_rows_really_fail_with_pydantics_plain_lax_mode_switched_off():
    # the adjustments are what rejects these: plain pydantic lax mode would accept them
    from pydantic import TypeAdapter

    assert TypeAdapter(bool).validate_python("true") is True
    assert TypeAdapter(int).validate_python(True) == 1
    with pytest.raises(ArgumentError):
        coerce(bool, "true")


# --- parsing ------------------------------------------------------------------------------


def test_parse_arguments():
    assert parse_arguments("t", '{"a": 1}') == {"a": 1}
    assert parse_arguments("t", "") == {} and parse_arguments("t", "  ") == {}


@pytest.mark.parametrize("text", ["\n\t ", "\u3000\u00a0", " " * (json_repair.MAX_CHARS + 1)])
def test_a_blank_text_of_any_kind_or_length_is_no_arguments(text):
    """Blank is looked for only once the text did not read: a blank past `MAX_CHARS` (which
    `loads` refuses as too large) is no arguments too, not "a JSON object at most ... long"."""
    assert parse_arguments("t", text) == {}


@pytest.mark.parametrize(
    "text, shown",
    [
        ("{orderId:SN1}", "{orderId:SN1}"),
        ("[1, 2]", "[1, 2]"),
        ("null", "null"),
        ('"SN1"', '"SN1"'),
        ("{" + "x" * 80, "{" + "x" * 56 + "..."),
    ],
)
def test_arguments_that_are_not_a_json_object(text, shown):
    with pytest.raises(ArgumentError) as info:
        parse_arguments("query_order", text)
    assert str(info.value) == (
        "Invalid arguments for tool 'query_order':\n"
        f"- arguments: got {shown}, expected a JSON object\n"
        "Fix the arguments and call query_order again."
    )


# --- the parameter-level rules -------------------------------------------------------------

PARAMS = (
    ParamInfo("order_id", "orderId", str, expects="a string"),
    ParamInfo("limit", "limit", int, required=False, default=10, expects="an integer"),
    ParamInfo("note", "note", Optional[str], required=False, default=None, nullable=True, expects="a string or null"),
    ParamInfo("memory", "memory", str, required=False, inject="memory_id"),
)


def test_missing_optional_gets_default_and_python_names_are_used():
    assert coerce_arguments("t", PARAMS, {"orderId": "SN1"}) == {"order_id": "SN1", "limit": 10, "note": None}


def test_null_for_an_optional_non_nullable_parameter_means_default():
    assert coerce_arguments("t", PARAMS, {"orderId": "SN1", "limit": None})["limit"] == 10


_MaybeInt = typing_extensions.TypeAliasType("_MaybeInt", int | None)


class _Defaults(BaseModel):
    mark: Literal["x", None] = "x"
    anything: Any = 5
    checked: Annotated[Optional[int], AfterValidator(lambda v: v)] = 3
    aliased: _MaybeInt = 5
    plain: int = 7


def _nullable_defaults(
    omitted: Annotated[_MaybeInt, Param(required=False)],
    listed: Annotated[Literal["a", None], Param(required=False)],
    mark: Literal["x", None] = "x",
    aliased: _MaybeInt = 5,
    nested: _Defaults = _Defaults(),
) -> str:
    return ""


def test_null_for_a_type_that_takes_null_is_null_not_the_default():
    """Rule 6 (`null` means "use the default") is for a type that does not take `None`. A type
    that does — `Literal["x", None]`, a `TypeAliasType` of `int | None`, `Any`, an `Optional`
    under a validator — was given its default instead of the null the model chose (a choice its
    schema lists), and `Param(required=False)` over such a type was refused at registration
    ("Literal['a', None] does not accept None")."""
    params = reflect(_nullable_defaults).params
    sent = {"mark": None, "aliased": None, "nested": {k: None for k in _Defaults.model_fields}}
    got = coerce_arguments("t", params, sent)
    assert (got["mark"], got["aliased"], got["omitted"], got["listed"]) == (None, None, None, None)
    assert got["nested"] == _Defaults(mark=None, anything=None, checked=None, aliased=None, plain=7)


def test_injected_parameters_cannot_be_sent_by_the_model():
    with pytest.raises(ArgumentError) as info:
        coerce_arguments("t", PARAMS, {"orderId": "SN1", "memory": "someone-else"})
    assert info.value.problems == [ArgumentProblem("memory", '"someone-else"', "orderId, limit, note", "unknown")]


def test_every_problem_is_reported_at_once_with_exact_text():
    with pytest.raises(ArgumentError) as info:
        coerce_arguments("query_order", PARAMS, {"refundAmount": 2999, "limit": 27.5})
    err = info.value
    assert str(err) == (
        "Invalid arguments for tool 'query_order':\n"
        "- refundAmount: unknown field (got 2999), valid fields: orderId, limit, note\n"
        "- orderId: missing, expected a string\n"
        "- limit: got 27.5, expected an integer\n"
        "Fix the arguments and call query_order again."
    )
    assert (err.field, err.received, err.expected) == ("refundAmount", "2999", "orderId, limit, note")
    assert err.tool_name == "query_order"


def test_nested_unknown_and_missing_fields_exact_text():
    info_param = (ParamInfo("address", "address", Address, expects="an object"),)
    with pytest.raises(ArgumentError) as info:
        coerce_arguments("update_address", info_param, {"address": {"city": "c", "zip": "310000"}})
    assert str(info.value) == (
        "Invalid arguments for tool 'update_address':\n"
        "- address.street: missing, expected a value\n"
        '- address.zip: unknown field (got "310000"), remove it\n'
        "Fix the arguments and call update_address again."
    )


def test_long_received_values_are_cut():
    with pytest.raises(ArgumentError) as info:
        coerce(int, "x" * 100)
    assert info.value.received == '"' + "x" * 56 + "..."


def test_validators_are_cached_per_type():
    assert validator_for(Address) is validator_for(Address)
    # building our validator leaves the model's own (unadjusted) validator in place
    assert Item(sku="A", quantity=1, gift="true").gift is True


@pytest.mark.parametrize(
    "schema, words",
    [
        ({"type": "string"}, "a string"),
        ({"type": "integer"}, "an integer"),
        ({"type": "number"}, "a number"),
        ({"type": "boolean"}, "true or false"),
        ({"type": "array"}, "an array"),
        ({"type": "object"}, "an object"),
        ({"enum": ["a", "b"]}, 'one of "a", "b"'),
        ({"const": 1}, "1"),
        ({}, "any value"),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "an integer or null"),
        ({"type": "string", "format": "date"}, "a date like 2026-10-20"),
        ({"type": "string", "format": "date-time"}, "a date-time like 2026-10-20T09:30:00"),
        ({"$ref": "#/$defs/S"}, 'one of "x"'),
    ],
)
def test_describe(schema, words):
    assert describe(schema, {"S": {"enum": ["x"]}}) == words


class _Colour(str, enum.Enum):
    RED = "red"


@pytest.mark.parametrize(
    "value",
    [
        "plain",
        "",
        'quote " and backslash \\',
        "tab\tnewline\n\x00\x1f\x7f",
        "ünïcödé 漢字 🙂",
        "\ud800 lone surrogate",
        "\u2028\u2029",
        0,
        -7,
        10**300,
        True,
        False,
        None,
        1.5,
        float("nan"),
        float("-inf"),
        1e100,
        _Colour.RED,
        [1, "a", None],
        {"k": [True, 2.5]},
    ],
)
def test_json_text_is_json_dumps(value):
    """`describe`'s enum and const texts: `json_text` writes what `json.dumps(..., ensure_ascii=False)` writes."""
    assert json_text(value) == json.dumps(value, ensure_ascii=False)


@pytest.mark.parametrize(
    "value", ["x", "ünïcödé \u2028", "\ud800", 0, -7, True, False, None, 1.5, [1, "a"], {"k": None}]
)
def test_what_the_model_sent_is_shown_as_json_dumps_writes_it(value):
    """`_as_json` writes a scalar through `json_text`, without an encoder: the text `json.dumps` writes."""
    from toolkit.tools.arguments import _as_json

    assert _as_json(value) == json.dumps(value, ensure_ascii=False)
    assert _as_json(10**5000) == "<int>"  # too long to write, and to repr


def test_json_text_refuses_what_json_dumps_refuses():
    with pytest.raises(ValueError):
        json.dumps(10**5000)
    with pytest.raises(ValueError):
        json_text(10**5000)


def test_describe_enum_of_many_values():
    values = ["AT", "é", 'q"', 200, True, None, 1.5]
    assert describe({"enum": values}, {}) == "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in values)


# --- cases from the peers' suites and the hardening issue ---------------------------------------


class Thing(BaseModel):
    type: str
    fields: list[str] = []


def test_a_model_with_a_field_named_type():
    """LangChain4j DefaultToolExecutorTest (a POJO argument with a `type` field): the field is a
    field, not a JSON type, and the call reaches the tool."""
    assert coerce(Thing, {"type": "a", "fields": ["x"]}) == Thing(type="a", fields=["x"])
    with pytest.raises(ArgumentError) as info:
        coerce(Thing, {"type": 1})
    assert [(p.field, p.expected) for p in info.value.problems] == [("x.type", "a string")]


@pytest.mark.parametrize(
    "annotation, sent, expected",
    [
        (D, 0, "a date like 2026-10-20"),
        (D, 1767225600, "a date like 2026-10-20"),
        (D, "1767225600", "a date like 2026-10-20"),
        (DT, 1767225600, "a date-time like 2026-10-20T09:30:00"),
        (DT, "1767225600.5", "a date-time like 2026-10-20T09:30:00"),
        (datetime.time, 3600, "a time like 09:30:00"),
        (datetime.timedelta, 60, "an ISO 8601 duration like PT30M"),
        (int, "1_000", "an integer"),
        (float, "1_000.5", "a number"),
        (Status, "ſhipped", "one of 'pending', 'shipped' or 'delivered'"),
        (Status, " shipped", "one of 'pending', 'shipped' or 'delivered'"),
        (Status, "shipped ", "one of 'pending', 'shipped' or 'delivered'"),
        (Literal["k"], "\u212a", "one of 'k'"),
    ],
)
def test_hardening_rejects_undocumented_leniency(annotation, sent, expected):
    """Hardening issue, item 7: no Unix timestamps, no `1_000`, ASCII case folding at most, no
    whitespace stripping for enums; each rejected naming field, value and what is valid."""
    with pytest.raises(ArgumentError) as info:
        coerce(annotation, sent)
    problem = info.value.problems[0]
    assert (problem.field, problem.received, problem.expected) == ("x", json.dumps(sent, ensure_ascii=False), expected)


def test_decimal_parameters_keep_every_digit():
    """LangChain4j DefaultToolExecutorTest (BigDecimal arguments): `1234567890.123456789` arrives whole."""
    import decimal

    from toolkit.chat.messages import ToolCall
    from toolkit.tools.execute import function_tool

    def price(amount: decimal.Decimal, rate: float = 1.0) -> str:
        return f"{amount!r} {rate!r}"

    t = function_tool(price)
    out = t.execute(ToolCall(id="1", name="price", arguments='{"amount": 1234567890.123456789, "rate": 0.5}'))
    assert out.content == "Decimal('1234567890.123456789') 0.5"
    assert coerce(decimal.Decimal, "2.50") == decimal.Decimal("2.50")
    with pytest.raises(ArgumentError):
        coerce(decimal.Decimal, "1_0")


def test_mutable_defaults_are_fresh_on_every_call():
    """LangChain4j AiServicesWithToolsWithDefaultValuesTest (a list default, sizes on entry [2, 2])."""
    from toolkit.chat.messages import ToolCall
    from toolkit.tools.execute import function_tool

    sizes = []

    def grow(
        n: int,
        items: list[int] = [1, 2],  # noqa: B006 - the trap under test
        tags: set[str] = {"a", "b"},  # noqa: B006
        extra: dict[str, int] = {"a": 1, "b": 2},  # noqa: B006
        address: Address = Address(city="c", street="s"),  # noqa: B008
    ) -> str:
        sizes.append((len(items), len(tags), len(extra), address.city))
        items.append(n)
        tags.add(str(n))
        extra[str(n)] = n
        address.city += "!"
        return "ok"

    t = function_tool(grow)
    for n in (3, 4):
        t.execute(ToolCall(id="1", name="grow", arguments=f'{{"n": {n}}}'))
    assert sizes == [(2, 2, 2, "c"), (2, 2, 2, "c")]


def test_an_argument_error_lists_ten_problems_and_counts_the_rest():
    """The model reads the message back: 20,000 unknown keys must not come back as 20,000 lines."""
    problems = [ArgumentProblem(f"k{i}", str(i), "", kind="unknown") for i in range(25)]
    lines = str(ArgumentError("echo", problems)).split("\n")
    assert len(lines) == 1 + 10 + 1 + 1
    assert lines[10:12] == ["- k9: unknown field (got 9), remove it", "- ... and 15 more problems"]
    assert len(ArgumentError("echo", problems).problems) == 25  # the record keeps them all


def test_a_field_path_of_any_length_is_shown_short():
    problem = ArgumentProblem("k" * 500_000, "1", "", kind="unknown")
    assert problem.field == "k" * 117 + "..."
    assert len(str(ArgumentError("echo", [problem]))) < 250


def test_a_param_info_built_later_builds_its_annotation_when_first_read():
    built: list[type] = []
    info = ParamInfo.built_later(lambda: built.append(int) or int, "limit", "limit", required=False, default=10)
    assert built == [] and "annotation" not in vars(info)
    assert info.annotation is int and info.annotation is int and built == [int]  # built once
    assert info == ParamInfo("limit", "limit", int, required=False, default=10)
    with pytest.raises(AttributeError, match="'ParamInfo' object has no attribute 'other'"):
        info.other  # noqa: B018


def test_a_param_info_is_made_as_the_dataclass_would_make_it():
    """`ParamInfo.__init__` is written out (a frozen dataclass's own sets each field through
    `object.__setattr__`): the same fields, order and defaults, and the same instances."""
    fields = dataclasses.fields(ParamInfo)
    init = list(inspect.signature(ParamInfo.__init__).parameters.values())[1:]
    assert [p.name for p in init] == [f.name for f in fields]
    assert [p.default for p in init] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields
    ]
    reference = dataclasses.make_dataclass(
        "ParamInfo", [(f.name, f.type, f) for f in fields], frozen=True, namespace={}
    )
    cases = [
        ("a", "a", int),
        ("limit", "maxItems", int, False, 10, False, None, "an integer"),
        ("note", "note", Optional[str], False, None, True),
        ("memory", "memory", str, False, None, True, "memory_id"),
    ]
    for args in cases:
        made = ParamInfo(*args)
        assert vars(made) == vars(reference(*args))
        assert made == ParamInfo(**dict(zip([f.name for f in fields], args)))
        assert hash(made) == hash(dataclasses.replace(made)) and dataclasses.replace(made) == made
        assert repr(made).removeprefix("ParamInfo") == repr(reference(*args)).removeprefix("ParamInfo")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    "annotation, sent, expected",
    [
        (
            Annotated[decimal.Decimal, Field(max_digits=4, decimal_places=2)],
            "123.456",
            "a number of at most 4 digits",
        ),
        (
            Annotated[decimal.Decimal, Field(max_digits=4, decimal_places=2)],
            "1.234",
            "a number with at most 2 decimal places",
        ),
        (
            Annotated[decimal.Decimal, Field(max_digits=4, decimal_places=2)],
            "123.4",
            "a number with at most 2 digits before the decimal point",
        ),
        (PastDate, "2999-01-01", "a date in the past"),
        (FutureDate, "2000-01-01", "a date in the future"),
        (PastDatetime, "2999-01-01T00:00:00", "a date-time in the past"),
        (FutureDatetime, "2000-01-01T00:00:00", "a date-time in the future"),
        (
            AwareDatetime,
            "2026-10-20T09:30:00",
            "a date-time with a time zone, like 2026-10-20T09:30:00+08:00",
        ),
        (
            NaiveDatetime,
            "2026-10-20T09:30:00Z",
            "a date-time without a time zone, like 2026-10-20T09:30:00",
        ),
        (UUID4, "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "a UUID of version 4"),
        (datetime.date, "2026-02-30", "a real date like 2026-10-20"),
        (datetime.date, "2026-13-01", "a real date like 2026-10-20"),
        (datetime.date, "2026-02-30T00:00:00", "a real date like 2026-10-20"),
        (datetime.datetime, "2026-02-30T09:30:00", "a real date-time like 2026-10-20T09:30:00"),
        (datetime.time, "25:00", "a real time like 09:30:00"),
        (Annotated[datetime.date, Field(gt=datetime.date(2026, 1, 1))], "2025-12-31", "a date > 2026-01-01"),
        (
            Annotated[datetime.datetime, Field(ge=datetime.datetime(2026, 1, 1, 9, 30))],
            "2026-01-01T09:00:00",
            "a date-time >= 2026-01-01T09:30:00",
        ),
        (Annotated[datetime.timedelta, Field(le=datetime.timedelta(hours=1))], "PT2H", "a value <= 1 hour"),
        (bytes, 5, "a string"),
        (frozenset[int], "1", "an array"),
        (collections.deque, "1", "an array"),
        (Json[list[int]], "[1,", "a string holding valid JSON"),
        (Json[list[int]], 5, "a string holding valid JSON"),
    ],
    ids=lambda v: repr(v)[:30],
)
def test_pydantics_constraint_messages_read_as_what_is_expected(annotation, sent, expected):
    """pydantic words these as sentences ("Decimal input should have no more than 4 digits in
    total", "Date should be in the past", "UUID version 4 expected"); put after "expected" they
    read "expected decimal input should have …", "expected UUID version 4 expected". Each is the
    phrase of what is valid, as the other errors are, and has its Chinese form. A date written in
    the right form that does not exist (February 30th, month 13, hour 25) was told "expected a date
    like 2026-10-20", the form it had: it is told the date must be a real one. A date's bound read
    "expected a number > 2026-01-01"; JSON's invalid text "expected invalid JSON: ..."; bytes, a
    frozenset and a deque "expected a valid bytes / frozenset / deque", no JSON type."""
    from toolkit.loop.texts import expected_zh

    with pytest.raises(ArgumentError) as info:
        coerce(annotation, sent)
    assert [(p.field, p.expected) for p in info.value.problems] == [("x", expected)]
    assert expected_zh(expected) != expected


class Cat(BaseModel):
    kind: Literal["cat"] = "cat"
    meow: int


class Dog(BaseModel):
    kind: Literal["dog"] = "dog"
    bark: str


Tagged = Annotated[Cat | Dog, Field(discriminator="kind")]


@pytest.mark.parametrize(
    "annotation, sent, problem",
    [
        (Tagged, {"kind": "cow", "meow": 1}, ("x.kind", '"cow"', "one of 'cat' or 'dog'")),
        (Tagged, {"kind": 5, "meow": 1}, ("x.kind", "5", "one of 'cat' or 'dog'")),
        (Tagged, {"meow": 1}, ("x.kind", "", "one of 'cat' or 'dog'")),
        (Tagged, "cat", ("x", '"cat"', "an object")),
        (
            Cat | Dog,
            {"kind": "cow", "meow": 1},
            (
                "x",
                '{"kind": "cow", "meow": 1}',
                "a Cat object (fields: kind, meow) or a Dog object (fields: kind, bark)",
            ),
        ),
    ],
    ids=lambda v: repr(v)[:30],
)
def test_a_union_of_objects_says_what_fits(annotation, sent, problem):
    """A tagged union's pydantic sentences ("Input tag 'cow' found using 'kind' does not match any
    of the expected tags: 'cat', 'dog'", "Unable to extract tag using discriminator 'kind'") went
    after "expected" as they were; an untagged union of models said "expected an object" to a
    model that had sent one. Now: the tag field, what it got and the tags; each model's fields."""
    with pytest.raises(ArgumentError) as info:
        coerce(annotation, sent)
    assert [(p.field, p.received, p.expected) for p in info.value.problems] == [problem]


def test_a_tagged_unions_tag_matches_up_to_ascii_case_as_any_literal_does():
    """Rule 4 of `toolkit.tools.coercion`: a Literal's string matches up to ASCII case when exactly
    one choice does. The tag of an untagged `Cat | Dog` was folded (its branch's Literal field),
    the same tag of `Field(discriminator="kind")` was refused: pydantic looks the tag up as it is."""
    assert coerce(Tagged, {"kind": "CAT", "meow": 1}) == Cat(meow=1)
    assert coerce(Cat | Dog, {"kind": "CAT", "meow": 1}) == Cat(meow=1)
    with pytest.raises(ArgumentError) as info:
        coerce(Tagged, {"kind": "ſat", "meow": 1})  # a long s folds to nothing in ASCII
    assert [(p.field, p.expected) for p in info.value.problems] == [("x.kind", "one of 'cat' or 'dog'")]


@pytest.mark.parametrize(
    "annotation, sent, problems",
    [
        (dict[str, int] | int, {"a": "x"}, [("x.a", '"x"', "an integer")]),
        (list[int] | str, [1, "x", 2.5], [("x[1]", '"x"', "an integer"), ("x[2]", "2.5", "an integer")]),
        (Cat | int, {"kind": "cat", "meow": "loud"}, [("x.meow", '"loud"', "an integer")]),
        (Cat | int, {"kind": "cat"}, [("x.meow", "", "a value")]),
        (Optional[dict[str, int] | int], {"a": "x"}, [("x.a", '"x"', "an integer")]),
        (list[dict[str, int] | int] | str, [{"a": "x"}], [("x[0].a", '"x"', "an integer")]),
        # two branches take an object: which one the model meant is not known, so both are named
        (
            dict[str, Cat | Dog] | int,
            {"p": {"kind": "cow"}},
            [("x.p", '{"kind": "cow"}', "a Cat object (fields: kind, meow) or a Dog object (fields: kind, bark)")],
        ),
        # a tagged union is the choice that takes an object: its tag is told at the tag's field
        (Tagged | int, {"kind": "cow"}, [("x.kind", '"cow"', "one of 'cat' or 'dog'")]),
        (Tagged | int, {"kind": "cat", "meow": "x"}, [("x.meow", '"x"', "an integer")]),
        # no branch takes the value's kind: the union's words, as before, a tagged union's by its classes
        (dict[str, int] | int, "x", [("x", '"x"', "an object or an integer")]),
        # a class whose name is said from a vowel takes "an" (it read "a Item object")
        (Item | int, "x", [("x", '"x"', "an Item object (fields: sku, quantity, gift, status) or an integer")]),
        (
            Tagged | int,
            "x",
            [("x", '"x"', "a Cat object (fields: kind, meow) or a Dog object (fields: kind, bark) or an integer")],
        ),
    ],
    ids=lambda v: repr(v)[:30],
)
def test_a_union_with_one_branch_of_the_values_kind_says_what_is_wrong_inside_it(annotation, sent, problems):
    """`dict[str, int] | int` sent {"a": "x"} told the model 'got {"a": "x"}, expected an object or
    an integer': it had sent an object, and was not told that "x" is the value at fault. When one
    branch alone takes what was sent (an object, an array) and refused something inside it, that
    refusal is said, at its path; when several do, or none, the union's words stay."""
    with pytest.raises(ArgumentError) as info:
        coerce(annotation, sent)
    assert [(p.field, p.received, p.expected) for p in info.value.problems] == problems


# --- an iterable parameter ------------------------------------------------------------------


def test_an_iterable_parameter_receives_a_list_checked_before_the_tool_runs():
    # `Iterable[int]` was pydantic's lazy ValidatorIterator: a bad item surfaced inside the tool as
    # its own failure ("Tool 'f' failed: ValidationError: ... ValidatorIterator"), len() failed,
    # a second pass read nothing, and a default was consumed when the schema was written (the tool
    # got an empty iterator). LangChain4j reads any collection through JSON into the whole value.
    import collections.abc
    import typing

    from toolkit.chat.messages import ToolCall
    from toolkit.tools.execute import function_tool

    for annotation in (typing.Iterable[int], collections.abc.Iterable[int], typing.Generator[int, None, None]):
        got = coerce(annotation, [1, "2", 3.0])
        assert got == [1, 2, 3] and type(got) is list
        with pytest.raises(ArgumentError) as info:
            coerce(annotation, [1, "x"])
        assert [(p.field, p.expected) for p in info.value.problems] == [("x[1]", "an integer")]
        with pytest.raises(ArgumentError) as info:
            coerce(annotation, "12")
        assert [(p.field, p.expected) for p in info.value.problems] == [("x", "an array")]

    def total(prices: typing.Iterable[float] = (1.5, 2.5)) -> str:
        """Add prices up twice, as a tool that reads its argument twice does."""
        prices = typing.cast(Any, prices)
        return f"{sum(prices)} {sum(prices)} {len(prices)}"

    tool = function_tool(total)
    assert tool.execute(ToolCall(id="c1", name="total", arguments='{"prices": [1, 2]}')).content == "3.0 3.0 2"
    assert tool.execute(ToolCall(id="c2", name="total", arguments="{}")).content == "4.0 4.0 2"
    assert tool.execute(ToolCall(id="c3", name="total", arguments="{}")).content == "4.0 4.0 2"


def test_a_sequence_parameter_is_an_array_in_the_errors_the_model_reads():
    # `Sequence[int]` was checked as a Python object: a string was told "expected 'str' instances
    # are not allowed as a Sequence value", a number or an object "expected an instance of Sequence"
    import collections.abc
    import typing

    for annotation in (typing.Sequence[int], collections.abc.Sequence[int]):
        got = coerce(annotation, [1, "2"])
        assert got == [1, 2] and type(got) is list
        for sent in ("abc", 5, {"a": 1}):
            with pytest.raises(ArgumentError) as info:
                coerce(annotation, sent)
            assert [(p.field, p.expected) for p in info.value.problems] == [("x", "an array")]
        with pytest.raises(ArgumentError) as info:
            coerce(annotation, [1, "x"])
        assert [(p.field, p.expected) for p in info.value.problems] == [("x[1]", "an integer")]


def test_a_whole_number_out_of_bounds_is_said_as_the_model_wrote_it():
    with pytest.raises(ArgumentError) as info:
        coerce(Bounded, "1e3")
    assert str(info.value) == (
        "Invalid arguments for tool 'coerce':\n- x: got \"1e3\", expected a number <= 50\n"
        "Fix the arguments and call coerce again."
    )


@pytest.mark.parametrize(
    "annotation, sent, field",
    [
        (float, 10**400, "x"),
        (float, -(10**400), "x"),
        (float | None, 10**309, "x"),
        (list[float], [1, 10**400], "x[1]"),
    ],
    ids=["large", "negative", "optional", "in-a-list"],
)
def test_an_integer_too_large_for_a_float_is_told_so(annotation, sent, field):
    """A float parameter sent an integer past a float's range (JSON digits, no exponent) was told
    "expected a number": it had sent one. It is told the range and that its number is too large."""
    from toolkit.loop.texts import expected_zh

    with pytest.raises(ArgumentError) as info:
        coerce(annotation, sent)
    expected = "a number from -1.7e308 to 1.7e308 (this one is too large for a float)"
    assert [(p.field, p.expected) for p in info.value.problems] == [(field, expected)]
    assert expected_zh(expected) == "-1.7e308 到 1.7e308 之间的数字（这个数太大，浮点数存不下）"
    assert coerce(float, 10**308) == 1e308  # within the range: read as the float it is
