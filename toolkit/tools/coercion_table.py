"""The coercion table: every non-canonical input the executor accepts, and what it rejects — as data.

Week 5 renders this table, and `tests/test_coercion_table.py` runs every row through the
executor's own path (`coerce_one`, `parse_arguments`), so the table a learner reads and the
code cannot drift apart. "Canonical" means what pydantic's strict JSON mode would accept
(`27` for an `int`, `"shipped"` for an enum, `"2026-10-20"` for a date); everything else the
executor accepts is a row of `VALUES` or `TEXTS` with the rule that allows it, and the test
checks there is no other.

`DIFFERENCES` lists where the package and LangChain4j 1.x (`DefaultToolExecutor`) differ, each
with a call that shows the package's side.

Leaves out: rendering (week 5 makes a DataFrame of `value_rows()`), the course's own lenient
normalisation of order ids (week 3).
"""

from __future__ import annotations

import datetime
import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from toolkit.errors import ArgumentError


class OrderStatus(str, enum.Enum):
    """An order's status (the shop's enum)."""

    PENDING = "pending"
    SHIPPED = "shipped"
    DELIVERED = "delivered"


class Item(BaseModel):
    """One line of an order."""

    sku: str
    quantity: int = Field(1, ge=1)
    gift: bool = False


Bounded = Annotated[int, Field(ge=1, le=50)]
ACCEPT, REJECT = "accepted", "rejected"


@dataclass(frozen=True)
class Row:
    """One input and what the executor does with it."""

    annotation: Any
    """The parameter's type."""
    sent: Any
    """What the model sent for it (a JSON value)."""
    outcome: str
    """`accepted` or `rejected`."""
    result: str
    """`repr` of what the function receives, or the expected text of the error."""
    rule: str
    """Why, in one line."""


VALUES: tuple[Row, ...] = (
    Row(int, "27", ACCEPT, "27", "a number in a string has one reading (LangChain4j: new BigDecimal(text))"),
    Row(int, "-3", ACCEPT, "-3", "the same, with a sign"),
    Row(int, " 27 ", ACCEPT, "27", "a number in a string may have surrounding spaces (LangChain4j trims them)"),
    Row(int, 27.0, ACCEPT, "27", "a whole float is an integer"),
    Row(int, "27.0", ACCEPT, "27", "the same, in a string"),
    Row(int, 27.5, REJECT, "an integer", "a fraction is never truncated"),
    Row(int, "27.5", REJECT, "an integer", "the same, in a string"),
    Row(int, "1e3", ACCEPT, "1000", "exponent notation in a string, a whole number (BigDecimal reads it)"),
    Row(int, "5.", ACCEPT, "5", "a point with no digits after it, a whole number (BigDecimal reads it)"),
    Row(int, True, REJECT, "an integer", "a boolean is not a number"),
    Row(int, "1_000", REJECT, "an integer", "digit separators are Python syntax, not JSON"),
    Row(Bounded, "1", ACCEPT, "1", "a number in a string, then the bounds"),
    Row(Bounded, 500, REJECT, "a number <= 50", "bounds are checked, never clamped"),
    Row(float, 3, ACCEPT, "3.0", "an integer is a number"),
    Row(float, "2.5", ACCEPT, "2.5", "a number in a string"),
    Row(float, "1e3", ACCEPT, "1000.0", "exponent notation in a string"),
    Row(float, "nan", REJECT, "a finite number", '"nan" and "inf" are not prices'),
    Row(bool, "true", REJECT, "true or false", "only JSON's own true/false (see below)"),
    Row(bool, 1, REJECT, "true or false", "the same"),
    Row(str, 202610200001, REJECT, "a string", "a number is never turned into a string"),
    Row(OrderStatus, "SHIPPED", ACCEPT, "<OrderStatus.SHIPPED: 'shipped'>", "enums match up to ASCII case"),
    Row(OrderStatus, "Shipped", ACCEPT, "<OrderStatus.SHIPPED: 'shipped'>", "the same"),
    Row(OrderStatus, "ſhipped", REJECT, "one of 'pending', 'shipped' or 'delivered'", "no Unicode case folding"),
    Row(OrderStatus, " shipped", REJECT, "one of 'pending', 'shipped' or 'delivered'", "no whitespace stripping"),
    Row(OrderStatus, "lost", REJECT, "one of 'pending', 'shipped' or 'delivered'", "not a choice"),
    Row(Literal["metric", "imperial"], "Metric", ACCEPT, "'metric'", "Literal strings match like enums"),
    Row(Literal[1, 2, 3], "3", ACCEPT, "3", "number choices accept their digits"),
    Row(datetime.date, "2026-10-20T00:00:00", ACCEPT, "datetime.date(2026, 10, 20)", "a midnight date-time is a date"),
    Row(datetime.date, 1767225600, REJECT, "a date like 2026-10-20", "no Unix timestamps: ISO 8601 only"),
    Row(datetime.date, "yesterday", REJECT, "a date like 2026-10-20", "no natural language"),
    Row(int | None, "5", ACCEPT, "5", "each branch of a union by the same rules"),
    Row(list[int], [1, "2", 3.0], ACCEPT, "[1, 2, 3]", "each item by the same rules"),
    Row(list[int], "1,2", REJECT, "an array", "a string is not a list"),
    Row(set[str], ["a", "a"], ACCEPT, "{'a'}", "a set from an array (duplicates merge)"),
    Row(dict[str, int], {"a": "1"}, ACCEPT, "{'a': 1}", "each value by the same rules"),
    Row(Item, {"sku": "A", "quantity": "2"}, ACCEPT, "Item(sku='A', quantity=2, gift=False)", "at every depth"),
    Row(Item, {"sku": "A", "gift": None}, ACCEPT, "Item(sku='A', quantity=1, gift=False)", "null means the default"),
    Row(Item, {"sku": "A", "colour": "red"}, REJECT, "unknown field", "an unknown field is intent drift"),
    Row(
        Item,
        '{"sku": "A"}',
        ACCEPT,
        "Item(sku='A', quantity=1, gift=False)",
        "an object sent as a JSON string (LangChain4j: Json.fromJson for a POJO)",
    ),
)
"""Values for one parameter `x`: the accepted non-canonical ones and the rejected neighbours."""


@dataclass(frozen=True)
class TextRow:
    """One arguments string and what it is read as."""

    sent: str
    read_as: Any
    """The dict the string is read as."""
    rule: str


TEXTS: tuple[TextRow, ...] = (
    TextRow('{"x": 1,}', {"x": 1}, "a trailing comma is dropped (LangChain4j does the same)"),
    TextRow("{,}", {}, "an empty object with a stray comma"),
    TextRow('"{"x": 1}"', {"x": 1}, "an object wrapped in quotes"),
    TextRow('"{\\"x\\": 1}"', {"x": 1}, "double-encoded: a JSON string holding the object"),
    TextRow("{'x': 1}", {"x": 1}, "single quotes, when there is no double quote at all"),
    TextRow("{“x”: 1}", {"x": 1}, "curly quotes"),
    TextRow("", {}, "empty arguments are no arguments (some gateways send them for a tool without parameters)"),
)
"""Arguments strings that are not strict JSON, read leniently (`toolkit.tools.json_repair`)."""


@dataclass(frozen=True)
class Difference:
    """One place where the package and LangChain4j 1.x differ."""

    case: str
    langchain4j: str
    toolkit: str
    why: str
    annotation: Any
    sent: Any
    """What the model sent (`MISSING`: the argument is absent)."""
    result: str
    """What the package does, as in `Row.result` (checked by the test)."""
    beside: Mapping[str, Any] = field(default_factory=dict)
    """Other arguments sent beside `x` (a key no parameter has)."""


MISSING = object()

DIFFERENCES: tuple[Difference, ...] = (
    Difference(
        "a required parameter of an object type (String, a POJO) is missing",
        "null is passed silently; only a primitive (int, boolean) throws",
        "ArgumentError, for every type",
        "a silent null reaches the business logic, which then fails far from the cause, or worse, does "
        "the wrong thing (a lookup of order null); Python has no primitives to make the difference",
        str,
        MISSING,
        "a string",
    ),
    Difference(
        "an argument no parameter has, beside the parameters",
        "never read (prepareArguments reads each parameter's name); inside a POJO an unknown field fails, as "
        "here (its Jackson mapper enables FAIL_ON_UNKNOWN_PROPERTIES)",
        "ArgumentError naming the valid fields",
        "a stray refundAmount is intent drift: the model believes the tool does something it does not",
        str,
        "SN202610200001",
        "unknown field, valid fields: x",
        {"refundAmount": 2999},
    ),
    Difference(
        "a value inside a list or a POJO",
        'read by Jackson\'s defaults: a fraction for an int truncated ([1.5] → [1]), "true" or 1 for a boolean '
        "is true, a number for a String its text",
        "the rules of a parameter at every depth: ArgumentError",
        "a quantity of 1.5 truncated to 1 is an order nobody placed; the model reads one schema, so one set of "
        "rules holds wherever the value sits",
        list[int],
        [1.5],
        "an integer",
    ),
    Difference(
        '"NaN" or "Infinity" for a double',
        "accepted (Double.parseDouble reads them)",
        "ArgumentError: expected a finite number",
        "NaN is not a price: every comparison with it is false, so a check like amount > limit lets it through",
        float,
        "NaN",
        "a finite number",
    ),
    Difference(
        "enum matching",
        "valueOf, then valueOf(toUpperCase(Locale.ROOT)) (the default locale before 1.18)",
        "ASCII case-insensitive only, and only when exactly one choice matches",
        'locale-dependent or Unicode case folding turns "ſhipped" into shipped',
        OrderStatus,
        "ſhipped",
        "one of 'pending', 'shipped' or 'delivered'",
    ),
    Difference(
        "a number or a boolean for a String parameter",
        'converted with toString() (true becomes "true", 1e20 becomes "1.0E20")',
        "ArgumentError: expected a string",
        "a number is not the text the model read: an order id sent as a number has lost its leading "
        "zeros, and a long one its last digits (many JSON readers keep numbers as doubles)",
        str,
        202610200001,
        "a string",
    ),
    Difference(
        "an integer beyond the Java type (int, long)",
        "an overflow error",
        "accepted (Python integers have no size)",
        "bounds belong in the schema: Field(le=...) is checked and shown to the model",
        int,
        10**20,
        "100000000000000000000",
    ),
)
"""Where we differ from LangChain4j (week 5's list)."""


def outcome(annotation: Any, sent: Any, beside: Mapping[str, Any] | None = None) -> tuple[str, str]:
    """(`accepted`, repr of the value) or (`rejected`, the expected text) for one parameter `x`, with
    `beside` sent next to it (the expected text of a key no parameter has is the valid names)."""
    from toolkit.tools.arguments import ParamInfo, coerce_arguments

    raw = {**({} if sent is MISSING else {"x": sent}), **(beside or {})}
    info = ParamInfo("x", "x", annotation, expects="a string" if annotation is str else "a value")
    try:
        return ACCEPT, repr(coerce_arguments("coerce", (info,), raw)["x"])
    except ArgumentError as error:
        problem = error.problems[0]
        if problem.kind == "unknown":  # its `expected` is the valid names, if any
            return REJECT, f"unknown field, valid fields: {problem.expected}" if problem.expected else "unknown field"
        return REJECT, problem.expected


def value_rows() -> list[dict[str, str]]:
    """`VALUES` as week 5 shows them, each outcome computed by the executor."""
    from toolkit.tools.parameters import type_name

    rows = []
    for row in VALUES:
        accepted, text = outcome(row.annotation, row.sent)
        rows.append(
            {
                "type": type_name(row.annotation),
                "model sent": json.dumps(row.sent, ensure_ascii=False),
                "accepted?": "yes" if accepted == ACCEPT else "no",
                "function receives / expected": text,
                "why": row.rule,
            }
        )
    return rows
