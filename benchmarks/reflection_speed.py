"""Reflection speed: µs to turn one Python function into an OpenAI tool spec, vs three peers.

Run on demand, in a throw-away environment that has the peers (never in pyproject):

    python3 -m venv /tmp/benchenv
    /tmp/benchenv/bin/pip install pydantic-ai-slim openai-agents langchain-core
    PYTHONPATH=. /tmp/benchenv/bin/python benchmarks/reflection_speed.py
    PYTHONPATH=. /tmp/benchenv/bin/python benchmarks/reflection_speed.py --only numpy_docstring,list_products

Every measurement uses fresh function objects (copies of the fixtures), so no per-function
cache — ours or a peer's — can answer; the variants of one function are measured round by round
in turn (interleaved), so the load of a shared machine hits them alike. Three toolkit figures:

- cold:   every toolkit cache cleared before each function (reflection, type schemas,
          validators): the honest first-time cost, and the one compared with the target
          (what a module's file says of its class statements is kept, as `linecache`
          keeps its lines: a module's tools are reflected one after the other);
- warm:   a new function, but its parameter types were seen before (steady state);
- cached: the same function again (what the loop pays per round).

"first call" adds the first execution (building the validator, which reflection defers).
Peers: pydantic-ai `Tool(fn).tool_def`, openai-agents `function_tool(fn, strict_mode=False)`,
langchain-core `convert_to_openai_tool(fn)`; a missing peer is skipped. All render the normal
(non-strict) form. "hand" is a hand-rolled reflection of the same signature (`hand_rolled`:
`inspect.signature`, a dict of the few types used, the docstring's first line): the floor.

Targets (issue "fast on anyone's workload", item 4), printed with met / not met:

1. every function's cold time ≤ 3× its hand-rolled reflection, except functions whose
   parameters are pydantic models (pydantic's own schema generation dominates there); the
   "fresh classes" and "real annotations" rows count too;
2. the cold mean ≤ 0.33 of pydantic-ai's mean;
3. the bare-string (`Annotated[float, "..."]`) and `Field`-default (`x: int = Field(10, ...)`)
   functions take the fast path (checked, not timed: no call to pydantic's schema generator).

Every required-rule case must be correct (checked first).

A second group, the "stranger" rows (`STRANGERS`), holds 25 signatures of the kinds anyone
writes and nobody tuned for (20 and 40 parameters, deep nesting, `Optional` everywhere, enums,
long `Literal`s, dates and paths, sets, nested and recursive TypedDicts, dataclasses inside
dataclasses, `annotated_types` and `Field` constraints, keyword-only parameters, Google, reST
and NumPy docstrings, `Any`, `typing.List`, `collections.abc` types, int-keyed dicts, `Decimal`
digits); they are measured the same way, and targets 1 and 2 are printed for them apart. Each
is also measured with its annotations evaluated ("real annotations": a module without `from
__future__ import annotations`; this module's are strings, which the hand-rolled floor pays to
evaluate), and those lines count in target 1. So is every function of the first group.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import decimal
import enum
import json
import pathlib
import statistics
import sys
import time
import types
import uuid
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Annotated, Any, Dict, List, Literal, NotRequired, Optional, Set, Tuple, Union  # noqa: UP035

import annotated_types as at
from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo
from typing_extensions import TypedDict, is_typeddict

from toolkit.chat.messages import ToolCall
from toolkit.tools.decorator import Param
from toolkit.tools.execute import function_tool
from toolkit.tools.reflect import clear_cache

REPS, ROUNDS = 50, 10


class Status(str, enum.Enum):
    PENDING = "pending"
    SHIPPED = "shipped"
    DELIVERED = "delivered"


class Address(BaseModel):
    city: str
    street: str
    postcode: str | None = None


class Item(BaseModel):
    sku: str
    quantity: int = Field(ge=1)


class Category(BaseModel):
    name: str
    children: list[Category] = []


def query_order(order_id: str) -> str:
    """Look up one order by id.

    Args:
        order_id: The order id, e.g. SN202610200001.
    """
    return ""


def query_logistics(order_id: Annotated[str, Param("The order id", name="orderId")]) -> str:
    """Where is the parcel of an order."""
    return ""


def query_refund_policy(category: Literal["phone", "laptop", "clothes"], as_of: datetime.date | None = None) -> str:
    """The refund policy of a product category, as of a date."""
    return ""


def search_orders(
    query: str, status: Status | None = None, limit: Annotated[int, Field(ge=1, le=50)] = 10, page: int = 1
) -> list[str]:
    """Search the user's orders."""
    return []


def create_ticket(title: str, body: str, items: list[Item], urgent: bool = False) -> str:
    """Open a support ticket about some items."""
    return ""


def update_address(
    order_id: str, address: Address, note: Annotated[str | None, Param("For the courier", required=False)] = None
) -> str:
    """Change the delivery address of an order that has not shipped."""
    return ""


def get_weather(city: str, units: Literal["metric", "imperial"] = "metric") -> str:
    """Current weather in a city."""
    return ""


def schedule_call(when: datetime.datetime, minutes: int = 15, topics: list[str] = []) -> str:  # noqa: B006 (reflected, never mutated)
    """Book a call with a human agent."""
    return ""


def browse_categories(root: Category, depth: int = 2) -> str:
    """Walk a category tree."""
    return ""


def convert_currency(
    amount: Annotated[float, "Amount in the source currency"], source: str, target: str, rounded: bool = True
) -> float:
    """Convert an amount between currencies."""
    return 0.0


def list_products(
    category: str, limit: int = Field(10, ge=1, le=100, description="At most this many"), in_stock: bool = True
) -> list[str]:
    """List the products of a category."""
    return []


def current_time() -> str:
    """The current time in the shop's time zone."""
    return ""


def tag_orders(order_ids: list[str], tags: dict[str, str], status: Status) -> str:
    """Attach tags to several orders."""
    return ""


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


def make_classes() -> dict[str, Any]:
    """A TypedDict pair and a dataclass, new class objects on every call (the "fresh classes"
    figure: no per-class cache can answer), with attribute docstrings read from this file."""

    class Postal(TypedDict):
        """A postal address."""

        street: str
        """The street, with the number."""
        city: str
        zip: str | None

    class Person(TypedDict):
        name: str
        addresses: list[Postal]
        nickname: NotRequired[str]

    @dataclasses.dataclass
    class Box:
        w: int
        """Width in cm."""
        h: int
        label: str = "x"

    # this module's annotations are strings, and these classes are local: give them the objects
    Postal.__annotations__ = {"street": str, "city": str, "zip": str | None}
    Person.__annotations__ = {"name": str, "addresses": list[Postal], "nickname": NotRequired[str]}
    return {"Postal": Postal, "Person": Person, "Box": Box}


_SHARED = make_classes()
Postal, Person, Box = _SHARED["Postal"], _SHARED["Person"], _SHARED["Box"]


def pick_literals(
    a: Literal[1, 2, 3],
    b: Literal["x", "y"],
    c: Status,
    d: Level,
    e: Literal["p", "q"] | None = None,
    f: Literal[True, False] = True,
) -> str:
    """Literals of ints, strings and bools, and enums."""
    return ""


def constrained(
    a: Annotated[int, Field(ge=0, le=10, description="zero to ten")],
    b: Annotated[str, Param("a Param description")],
    c: Annotated[str, "a bare string"],
    d: int = Field(5, ge=1, description="field default"),
    e: Annotated[list[str], Field(min_length=1)] = ["x"],  # noqa: B006 (reflected, never mutated)
    f: Annotated[str, Field(max_length=8)] = "abc",
) -> str:
    """`Annotated` with `Field` constraints, a `Param`, a bare string."""
    return ""


def misc_types(
    when: datetime.date,
    amount: decimal.Decimal,
    ref: uuid.UUID,
    pair: tuple[int, str],
    ids: set[int],
    raw: bytes = b"",
    many: tuple[int, ...] = (1, 2),
) -> str:
    """Dates, decimals, UUIDs, tuples, sets, bytes."""
    return ""


def typed_dict(person: Person, others: list[Postal] | None = None) -> str:
    """Nested TypedDicts."""
    return ""


def dataclass_param(box: Box, boxes: list[Box] = []) -> str:  # noqa: B006 (reflected, never mutated)
    """Dataclasses."""
    return ""


def union_mix(a: int | str, b: Optional[list[int]] = None, c: int | None | str = None, d: float | int = 1) -> str:
    """Unions, `None` in the middle included."""
    return ""


FRESH = {"typed_dict", "dataclass_param"}
"""Also measured with new classes for every function (`fresh_function`)."""

FUNCTIONS = [
    query_order,
    query_logistics,
    query_refund_policy,
    search_orders,
    create_ticket,
    update_address,
    get_weather,
    schedule_call,
    browse_categories,
    convert_currency,
    list_products,
    current_time,
    tag_orders,
    pick_literals,
    constrained,
    misc_types,
    typed_dict,
    dataclass_param,
    union_mix,
]
MODEL_PARAMETERS = {"create_ticket", "update_address", "browse_categories"}
"""Functions with pydantic-model parameters: exempt from the 3× hand-rolled target."""
FAST_PATH = (convert_currency, list_products)
"""The bare-string and Field-default functions: they must not reach pydantic's schema generator."""
REQUIRED = {  # the required rules, written out by hand
    "query_order": ["order_id"],
    "query_logistics": ["orderId"],
    "query_refund_policy": ["category"],
    "search_orders": ["query"],
    "create_ticket": ["title", "body", "items"],
    "update_address": ["order_id", "address"],
    "get_weather": ["city"],
    "schedule_call": ["when"],
    "browse_categories": ["root"],
    "convert_currency": ["amount", "source", "target"],
    "list_products": ["category"],
    "current_time": None,
    "tag_orders": ["order_ids", "tags", "status"],
    "pick_literals": ["a", "b", "c", "d"],
    "constrained": ["a", "b", "c"],
    "misc_types": ["when", "amount", "ref", "pair", "ids"],
    "typed_dict": ["person"],
    "dataclass_param": ["box"],
    "union_mix": ["a"],
}
MINIMAL_CALLS = {
    "query_order": {"order_id": "SN1"},
    "query_logistics": {"orderId": "SN1"},
    "query_refund_policy": {"category": "PHONE"},
    "search_orders": {"query": "x"},
    "create_ticket": {"title": "t", "body": "b", "items": [{"sku": "A", "quantity": "2"}]},
    "update_address": {"order_id": "SN1", "address": {"city": "c", "street": "s"}},
    "get_weather": {"city": "Oslo"},
    "schedule_call": {"when": "2026-10-20T09:30:00"},
    "browse_categories": {"root": {"name": "all"}},
    "convert_currency": {"amount": "9.5", "source": "EUR", "target": "CNY"},
    "list_products": {"category": "phones"},
    "current_time": {},
    "tag_orders": {"order_ids": ["SN1"], "tags": {}, "status": "shipped"},
    "pick_literals": {"a": 1, "b": "x", "c": "pending", "d": 2},
    "constrained": {"a": 3, "b": "b", "c": "c"},
    "misc_types": {
        "when": "2026-10-20",
        "amount": "1.50",
        "ref": "12345678-1234-5678-1234-567812345678",
        "pair": [1, "a"],
        "ids": [1],
    },
    "typed_dict": {"person": {"name": "n", "addresses": [{"street": "s", "city": "c", "zip": None}]}},
    "dataclass_param": {"box": {"w": 1, "h": 2}},
    "union_mix": {"a": 1},
}


# --- the strangers: signatures nobody tuned for (a second group of rows) ------------------------


class Colour(enum.Enum):
    """A paint colour."""

    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Priority(enum.IntEnum):
    LOW = 1
    NORMAL = 2
    HIGH = 3
    URGENT = 4


class Mode(str, enum.Enum):
    FAST = "fast"
    SAFE = "safe"


class Geo(TypedDict):
    """A point on the map."""

    lat: float
    lon: float


class Customer(TypedDict):
    name: str
    email: NotRequired[str]
    """Where receipts go."""
    location: NotRequired[Geo | None]


class Order(TypedDict):
    id: str
    customer: Customer
    lines: list[dict[str, int]]
    notes: NotRequired[list[str]]


class TreeNode(TypedDict):
    label: str
    children: list[TreeNode]


Contact = TypedDict("Contact", {"name": str, "email": str, "phone": NotRequired[str]})  # noqa: UP013 (made by a call, on purpose)
Parcel2 = dataclasses.make_dataclass(
    "Parcel2", [("weight_kg", float), ("fragile", bool, dataclasses.field(default=False))]
)


@dataclasses.dataclass
class Dimensions:
    """Outer size of a parcel."""

    width_cm: float
    height_cm: float
    depth_cm: float = 10.0


@dataclasses.dataclass
class Parcel:
    weight_kg: float
    size: Dimensions
    fragile: bool = False


@dataclasses.dataclass
class Shipment:
    reference: str
    parcels: list[Parcel]
    insured_value: float | None = None


def twenty_params(
    a01: str,
    a02: int,
    a03: float,
    a04: bool,
    a05: str = "x",
    a06: int = 0,
    a07: float = 1.5,
    a08: bool = False,
    a09: str | None = None,
    a10: int | None = None,
    a11: list[str] | None = None,
    a12: dict[str, int] | None = None,
    a13: str = "",
    a14: int = -1,
    a15: float = 0.0,
    a16: bool = True,
    a17: Optional[str] = None,
    a18: Optional[float] = None,
    a19: list[int] = [],  # noqa: B006 (reflected, never mutated)
    a20: str = "end",
) -> str:
    """Twenty plain parameters, most of them optional."""
    return ""


def forty_params(
    name: str,
    surname: str,
    age: int,
    height: float,
    active: bool,
    email: str | None = None,
    phone: str | None = None,
    street: str | None = None,
    city: str | None = None,
    country: Literal["NO", "SE", "DK", "FI", "IS"] = "NO",
    zip_code: str | None = None,
    tags: list[str] | None = None,
    scores: list[float] | None = None,
    notes: str = "",
    mode: Mode = Mode.FAST,
    priority: Priority = Priority.NORMAL,
    colour: Colour | None = None,
    limit: int = 10,
    offset: int = 0,
    sort_by: Literal["name", "age", "city"] = "name",
    descending: bool = False,
    include_inactive: bool = False,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
    locale: str = "en",
    timezone: str = "UTC",
    page_size: int = 50,
    retries: int = 3,
    timeout_s: float = 30.0,
    verbose: bool = False,
    dry_run: bool = False,
    fields: list[str] | None = None,
    exclude: list[str] | None = None,
    metadata: dict[str, str] | None = None,
    weights: dict[str, float] | None = None,
    threshold: float = 0.5,
    max_depth: int = 3,
    cursor: str | None = None,
    trace_id: str | None = None,
    debug: bool = False,
) -> str:
    """Forty parameters, as a generated client's search endpoint has."""
    return ""


def deep_nesting(
    batches: list[dict[str, list[tuple[int, str]]]],
    index: dict[str, dict[str, list[int]]] | None = None,
    matrix: list[list[list[float]]] = [],  # noqa: B006 (reflected, never mutated)
) -> str:
    """Deeply nested containers."""
    return ""


def optional_everywhere(
    a: Optional[int],
    b: str | None,
    c: Optional[list[Optional[str]]] = None,
    d: dict[str, int | None] | None = None,
    e: Optional[Union[int, str]] = None,
    f: list[int | None] | None = None,
) -> str:
    """`Optional` and `X | None` at every level."""
    return ""


def enum_params(
    colour: Colour,
    priority: Priority,
    mode: Mode = Mode.SAFE,
    others: list[Colour] | None = None,
    floor: Priority = Priority.LOW,
) -> str:
    """Enums and IntEnums, enum defaults."""
    return ""


def many_literals(
    country: Literal[
        "AT",
        "BE",
        "BG",
        "HR",
        "CY",
        "CZ",
        "DK",
        "EE",
        "FI",
        "FR",
        "DE",
        "GR",
        "HU",
        "IE",
        "IT",
        "LV",
        "LT",
        "LU",
        "MT",
        "NL",
        "PL",
        "PT",
        "RO",
        "SK",
        "SI",
        "ES",
        "SE",
        "NO",
        "IS",
        "CH",
    ],
    http_status: Literal[200, 201, 204, 301, 302, 400, 401, 403, 404, 409, 422, 429, 500, 502, 503] = 200,
    unit: Literal["s", "ms", "us", "ns"] | None = None,
) -> str:
    """`Literal`s of many values."""
    return ""


def temporal_and_ids(
    day: datetime.date,
    start: datetime.time,
    lasting: datetime.timedelta,
    ref: uuid.UUID,
    when: datetime.datetime | None = None,
    grace: datetime.timedelta = datetime.timedelta(minutes=5),
) -> str:
    """Dates, times, durations and UUIDs."""
    return ""


def file_paths(source: pathlib.Path, target: pathlib.Path | None = None, overwrite: bool = False) -> str:
    """Copy a file (`pathlib.Path` parameters)."""
    return ""


def set_params(tags: set[str], ids: frozenset[int], labels: set[str] | None = None) -> str:
    """Sets and frozensets."""
    return ""


def nested_typed_dicts(order: Order, billing: Customer | None = None) -> str:
    """Nested TypedDicts with `NotRequired` keys."""
    return ""


def nested_dataclasses(shipment: Shipment, extra: list[Parcel] | None = None) -> str:
    """Dataclasses inside dataclasses."""
    return ""


def annotated_types_bounds(
    count: Annotated[int, at.Gt(0)],
    name: Annotated[str, at.Len(1, 20)],
    ratio: Annotated[float, at.Interval(ge=0, le=1)] = 0.5,
    items: Annotated[list[int], at.MinLen(1)] = [1],  # noqa: B006 (reflected, never mutated)
    code: Annotated[str, at.MaxLen(8)] | None = None,
) -> str:
    """`annotated_types` constraints: Gt, Len, Interval, MinLen, MaxLen."""
    return ""


def pydantic_fields(
    quantity: Annotated[int, Field(ge=1, le=99, description="How many units")],
    price: Annotated[float, Field(gt=0, description="Unit price in EUR")] = 1.0,
    sku: Annotated[str, Field(min_length=3, max_length=12, description="Stock keeping unit")] = "ABC",
    discount: Annotated[int, Field(ge=0, le=100)] | None = None,
) -> str:
    """`Annotated` with `pydantic.Field` constraints and descriptions."""
    return ""


def tuple_and_none_defaults(
    size: tuple[int, int] = (800, 600),
    rgb: tuple[int, int, int] = (0, 0, 0),
    names: tuple[str, ...] = ("a", "b"),
    anchor: str | None = None,
    scale: float | None = None,
) -> str:
    """Tuples and `None` as defaults."""
    return ""


def keyword_only(query: str, *, limit: int = 10, offset: int = 0, order: Literal["asc", "desc"] = "asc") -> str:
    """Keyword-only parameters after `*`."""
    return ""


def google_docstring(order_id: str, reason: str, amount: float | None = None, notify: bool = True) -> str:
    """Refund an order, fully or in part.

    The refund goes back to the original payment method. Partial refunds need an amount;
    a full refund leaves it out. The customer gets an e-mail unless told otherwise.

    Args:
        order_id: The order to refund, e.g. SN202610200001. It must have shipped
            or been delivered; pending orders are cancelled instead.
        reason: Why the customer wants the money back, in their words.
        amount: How much to refund in EUR. Leave it out for a full refund.
        notify: Whether the customer gets an e-mail about the refund.

    Returns:
        The refund id, or an error message.

    Raises:
        ValueError: If the order cannot be refunded.

    Example:
        >>> google_docstring("SN1", "broken")
    """
    return ""


def rest_docstring(path: str, recursive: bool = False, pattern: str = "*", limit: int = 100) -> str:
    """List the files under a directory.

    Hidden files are skipped. The listing is sorted by name.

    :param path: The directory to list, relative to the workspace root.
    :param recursive: Whether to descend into subdirectories.
    :param pattern: A glob the file names must match.
    :param limit: At most this many entries are returned.
    :returns: One path a line.
    :raises FileNotFoundError: If the directory does not exist.
    """
    return ""


def numpy_docstring(text: str, language: str = "en", max_words: int = 200) -> str:
    """Summarise a text.

    Parameters
    ----------
    text : str
        The text to summarise.
    language : str
        The language of the summary, an ISO 639-1 code.
    max_words : int
        An upper bound on the summary's length.

    Returns
    -------
    str
        The summary.
    """
    return ""


def any_params(payload: Any, meta: dict[str, Any], extra: list[Any] | None = None, hint: Any = None) -> str:
    """`typing.Any` and `dict[str, Any]`."""
    return ""


def recursive_typed_dict(tree: TreeNode, max_depth: int = 5) -> str:
    """A recursive TypedDict."""
    return ""


def made_by_a_call(contact: Contact, parcel: Parcel2 | None = None) -> str:
    """Classes made by a call: `TypedDict("Contact", {...})`, `make_dataclass`."""
    return ""


def old_typing_generics(
    names: List[str],  # noqa: UP006 (as older code writes it)
    counts: Dict[str, int],  # noqa: UP006 (as older code writes it)
    pair: Tuple[int, float],  # noqa: UP006 (as older code writes it)
    unique: Set[str],  # noqa: UP006 (as older code writes it)
    maybe: Optional[List[Dict[str, str]]] = None,  # noqa: UP006 (as older code writes it)
) -> str:
    """`typing.List`, `Dict`, `Tuple`, `Set`, as older code writes them."""
    return ""


def abc_collections(ids: Sequence[int], lookup: Mapping[str, str], seen: AbstractSet[str] | None = None) -> str:
    """`collections.abc` types: Sequence, Mapping, Set."""
    return ""


def non_string_keys(by_id: dict[int, str], weights: dict[str, float] = {}) -> str:  # noqa: B006
    """A dict with int keys."""
    return ""


def mixed_unions(
    target: Parcel | Dimensions,
    value: int | float | str | None = None,
    colours: list[Colour] | Colour | None = None,
) -> str:
    """Unions of dataclasses, scalars and enums."""
    return ""


def decimal_and_defaults(
    amount: Annotated[decimal.Decimal, Field(max_digits=10, decimal_places=2)],
    since: datetime.date = datetime.date(2024, 1, 1),
    ratio: float = 0.25,
    offset: int = -3,
) -> str:
    """Decimal with digits constraints; a date as a default."""
    return ""


STRANGERS = [
    twenty_params,
    forty_params,
    deep_nesting,
    optional_everywhere,
    enum_params,
    many_literals,
    temporal_and_ids,
    file_paths,
    set_params,
    nested_typed_dicts,
    nested_dataclasses,
    annotated_types_bounds,
    pydantic_fields,
    tuple_and_none_defaults,
    keyword_only,
    google_docstring,
    rest_docstring,
    numpy_docstring,
    any_params,
    recursive_typed_dict,
    made_by_a_call,
    old_typing_generics,
    abc_collections,
    non_string_keys,
    mixed_unions,
    decimal_and_defaults,
]
"""The second group ("stranger" rows): the kinds of signatures anyone writes, none tuned for."""
STRANGER_MODEL_PARAMETERS: set[str] = set()
"""Strangers with pydantic-model parameters (exempt from the 3x target): none."""
STRANGER_CALLS: dict[str, dict[str, Any]] = {
    "twenty_params": {"a01": "x", "a02": 1, "a03": 1.5, "a04": True},
    "forty_params": {"name": "n", "surname": "s", "age": 30, "height": 1.8, "active": True},
    "deep_nesting": {"batches": [{"a": [[1, "x"]]}]},
    "optional_everywhere": {"a": None, "b": "x"},
    "enum_params": {"colour": "red", "priority": 3},
    "many_literals": {"country": "NO", "http_status": 404},
    "temporal_and_ids": {
        "day": "2026-10-20",
        "start": "09:30:00",
        "lasting": "PT1H",
        "ref": "12345678-1234-5678-1234-567812345678",
    },
    "file_paths": {"source": "/tmp/a.txt"},
    "set_params": {"tags": ["a", "b"], "ids": [1, 2]},
    "nested_typed_dicts": {"order": {"id": "1", "customer": {"name": "n"}, "lines": [{"sku": 2}]}},
    "nested_dataclasses": {
        "shipment": {"reference": "r", "parcels": [{"weight_kg": 1.0, "size": {"width_cm": 1, "height_cm": 2}}]}
    },
    "annotated_types_bounds": {"count": 1, "name": "abc"},
    "pydantic_fields": {"quantity": 3},
    "tuple_and_none_defaults": {},
    "keyword_only": {"query": "q", "limit": 5},
    "google_docstring": {"order_id": "SN1", "reason": "broken"},
    "rest_docstring": {"path": "."},
    "numpy_docstring": {"text": "t"},
    "any_params": {"payload": [1, "x"], "meta": {"k": {"v": 1}}},
    "recursive_typed_dict": {"tree": {"label": "root", "children": [{"label": "leaf", "children": []}]}},
    "made_by_a_call": {"contact": {"name": "n", "email": "e@example.com"}},
    "old_typing_generics": {"names": ["a"], "counts": {"a": 1}, "pair": [1, 2.5], "unique": ["x"]},
    "abc_collections": {"ids": [1, 2], "lookup": {"a": "b"}},
    "non_string_keys": {"by_id": {"1": "one"}},
    "mixed_unions": {"target": {"width_cm": 1, "height_cm": 2}},
    "decimal_and_defaults": {"amount": "12.50"},
}
"""A minimal call of each stranger (what the "1st call" column executes)."""


_HAND_TYPES: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    datetime.date: {"type": "string", "format": "date"},
    datetime.datetime: {"type": "string", "format": "date-time"},
    datetime.time: {"type": "string", "format": "time"},
    datetime.timedelta: {"type": "string", "format": "duration"},
    pathlib.Path: {"type": "string", "format": "path"},
}


def _hand_type(tp: Any, seen: tuple[type, ...] = ()) -> dict[str, Any]:
    """One type's schema; `seen` holds the classes being written (a class inside itself is a `$ref`)."""
    import typing

    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in _HAND_TYPES:
        return dict(_HAND_TYPES[tp])
    if tp in seen:
        return {"$ref": f"#/$defs/{tp.__name__}"}
    if is_typeddict(tp):  # TypedDicts and dataclasses recursively, as the audit's floor
        hints = typing.get_type_hints(tp)
        return {
            "type": "object",
            "properties": {k: _hand_type(v, (*seen, tp)) for k, v in hints.items()},
            "required": list(tp.__required_keys__),
        }
    if dataclasses.is_dataclass(tp):
        fields, hints = dataclasses.fields(tp), typing.get_type_hints(tp)
        return {
            "type": "object",
            "properties": {f.name: _hand_type(hints[f.name], (*seen, tp)) for f in fields},
            "required": [f.name for f in fields if f.default is dataclasses.MISSING],
        }
    if origin in (set, tuple, frozenset, AbstractSet):
        return {"type": "array", "items": [_hand_type(a, seen) for a in args if a is not Ellipsis]}
    if tp in (decimal.Decimal, uuid.UUID, bytes):
        return {"type": "string"}
    if origin is Annotated:
        out = _hand_type(args[0], seen)
        for m in args[1:]:
            if isinstance(m, FieldInfo) and m.description:
                out["description"] = m.description
            elif isinstance(m, str):
                out["description"] = m
            elif isinstance(m, Param) and m.description:
                out["description"] = m.description
        return out
    if origin is Literal:
        return {"enum": list(args), "type": "string"}
    if origin is list or origin is Sequence:
        return {"type": "array", "items": _hand_type(args[0], seen)}
    if origin is dict or origin is Mapping:
        return {"type": "object", "additionalProperties": _hand_type(args[1], seen)}
    if origin in (types.UnionType, typing.Union):
        return {"anyOf": [_hand_type(a, seen) for a in args]}
    if tp is type(None):
        return {"type": "null"}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [m.value for m in tp], "type": "string"}
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp.model_json_schema()
    return {}


def hand_rolled(fn: Callable[..., Any]) -> dict[str, Any]:
    """The floor: a reflection written for exactly these signatures (types, defaults, `Field`
    defaults, bare-string and `Param` descriptions, Google `Args:`, reST `:param x:` and NumPy
    entries), no checks, no cache."""
    import inspect
    import typing

    properties: dict[str, Any] = {}
    required = []
    hints = typing.get_type_hints(fn, include_extras=True)  # this module's annotations are strings
    for p in inspect.signature(fn).parameters.values():
        prop = _hand_type(hints[p.name])
        default = p.default
        if isinstance(default, FieldInfo):
            prop |= {"description": default.description} if default.description else {}
            default = default.default
        if default is p.empty:
            required.append(p.name)
        else:
            prop["default"] = default
        properties[p.name] = prop
    doc, _, rest = inspect.cleandoc(fn.__doc__ or "").partition("\n\n")
    lines = rest.splitlines()
    for i, line in enumerate(lines):  # Google `Args:`, reST `:param x:` and NumPy `x : type` entries
        if line.startswith(":param "):
            name, colon, text = line[7:].partition(":")
        elif " : " in line and not line.startswith(" ") and i + 1 < len(lines):
            name, colon, text = line.partition(" : ")[0], ":", lines[i + 1]
        else:
            name, colon, text = line.strip().partition(":")
            colon = colon if line.startswith("    ") else ""
        if colon and name in properties:
            properties[name].setdefault("description", text.strip())
    schema = {"type": "object", "properties": properties, "required": required} if properties else None
    return {"type": "function", "function": {"name": fn.__name__, "description": doc, "parameters": schema}}


def check_fast_path() -> bool:
    """True when the bare-string and Field-default functions never call pydantic's generator."""
    from toolkit.tools import fast_schema

    calls: list[Any] = []
    original = fast_schema.pydantic_schema
    fast_schema.pydantic_schema = lambda a: calls.append(a) or original(a)  # type: ignore[assignment]
    try:
        for fn in FAST_PATH:
            clear_cache()
            function_tool(copy_function(fn))
    finally:
        fast_schema.pydantic_schema = original  # type: ignore[assignment]
    return not calls


def copy_function(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A new function object with the same code, signature and docstring."""
    clone = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    clone.__doc__, clone.__annotations__ = fn.__doc__, dict(fn.__annotations__)
    clone.__qualname__, clone.__module__ = fn.__qualname__, fn.__module__
    clone.__kwdefaults__ = fn.__kwdefaults__
    return clone


def check_required_rules() -> None:
    for fn in FUNCTIONS:
        tool = function_tool(fn)
        params = tool.spec.parameters
        got = None if params is None else params.get("required", [])
        assert got == REQUIRED[fn.__name__], (fn.__name__, got)
        call = ToolCall(id="1", name=tool.name, arguments=json.dumps(MINIMAL_CALLS[fn.__name__]))
        assert not tool.execute(call).is_error, fn.__name__
    print(f"required rules: all {len(FUNCTIONS)} functions correct, minimal calls execute\n")


def measure(
    run: Callable[[Callable[..., Any]], Any],
    fn: Callable[..., Any],
    before: Callable[..., None] | None = None,
    same: bool = False,
) -> float:
    """Best-of-ROUNDS mean µs per call of `run(copy)`; `before` runs untimed before each call."""
    best = float("inf")
    for _ in range(ROUNDS):
        copies = [fn] * REPS if same else [copy_function(fn) for _ in range(REPS)]
        total = 0.0
        for c in copies:
            if before:
                before(fn) if getattr(before, "wants_function", False) else before()
            start = time.perf_counter()
            run(c)
            total += time.perf_counter() - start
        best = min(best, total / REPS * 1e6)
    return best


Variant = tuple[Callable[[Callable[..., Any]], Any], Callable[..., None] | None, bool]


def interleaved(fn: Callable[..., Any], variants: dict[str, Variant]) -> dict[str, float]:
    """`measure` for every variant, round by round (one round of each in turn), so a load spike
    on the shared machine hits all of them alike; the best round of each counts."""
    best = dict.fromkeys(variants, float("inf"))
    global ROUNDS
    rounds, ROUNDS = ROUNDS, 1
    try:
        for _ in range(rounds):
            for name, (run, before, same) in variants.items():
                best[name] = min(best[name], measure(run, fn, before, same))
    finally:
        ROUNDS = rounds
    return best


def fresh_function(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A copy of `fn` whose TypedDict / dataclass parameters are new classes (`make_classes`)."""
    classes = make_classes()
    clone = copy_function(fn)
    clone.__annotations__ = {k: _swap(v, classes) for k, v in fn.__annotations__.items()}
    return clone


def _swap(annotation: Any, classes: dict[str, Any]) -> Any:
    import typing

    if isinstance(annotation, str):  # this module's annotations are strings
        annotation = eval(annotation, globals())
    if isinstance(annotation, type) and annotation.__name__ in classes and annotation in _SHARED.values():
        return classes[annotation.__name__]
    args = typing.get_args(annotation)
    if not args:
        return annotation
    new = tuple(_swap(a, classes) for a in args)
    if typing.get_origin(annotation) in (types.UnionType, typing.Union):
        return typing.Union[new]  # noqa: UP007
    return annotation.copy_with(new) if hasattr(annotation, "copy_with") else typing.get_origin(annotation)[new]


def fresh_variant(run: Callable[[Callable[..., Any]], Any], clear: bool) -> Variant:
    """`run` on a function with fresh classes, built untimed before each call (`before`)."""
    made: list[Callable[..., Any]] = []

    def before(fn: Callable[..., Any]) -> None:
        if clear:
            clear_cache()
        made.append(fresh_function(fn))

    before.wants_function = True  # type: ignore[attr-defined]
    return (lambda _fn: run(made.pop()), before, False)


def first_call(fn: Callable[..., Any]) -> None:
    tool = function_tool(fn)
    arguments = MINIMAL_CALLS[fn.__name__] if fn.__name__ in MINIMAL_CALLS else STRANGER_CALLS[fn.__name__]
    tool.execute(ToolCall(id="1", name=tool.name, arguments=json.dumps(arguments)))


def ours() -> dict[str, Callable[[Callable[..., Any]], Any]]:
    return {"toolkit": lambda fn: function_tool(fn).spec.to_openai()}


def peers() -> dict[str, Callable[[Callable[..., Any]], Any]]:
    found: dict[str, Callable[[Callable[..., Any]], Any]] = {}
    try:
        from pydantic_ai import Tool

        found["pydantic-ai"] = lambda fn: Tool(fn).tool_def
    except ImportError:
        pass
    try:
        from agents import function_tool as agents_tool

        found["openai-agents"] = lambda fn: agents_tool(fn, strict_mode=False)
    except ImportError:
        pass
    try:
        from langchain_core.utils.function_calling import convert_to_openai_tool

        found["langchain-core"] = convert_to_openai_tool
    except ImportError:
        pass
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Reflection speed against the peers (see the module docstring).")
    parser.add_argument("--only", help="comma-separated function names: measure only these rows (either group)")
    only = parser.parse_args(argv).only
    names = [fn.__name__ for fn in FUNCTIONS + STRANGERS]
    wanted = set(only.split(",")) if only else set(names)
    if unknown := [name for name in (only or "").split(",") if only and name not in names]:
        parser.error(f"argument --only: no row named {unknown[0]!r}; the rows: {', '.join(names)}")
    check_required_rules()
    reflect = ours()["toolkit"]
    others = peers()
    head = ["function", "cold", "warm", "cached", "1st call", "hand", *others, "cold/hand"]
    functions = [fn for fn in FUNCTIONS if fn.__name__ in wanted]
    if functions:
        print(" | ".join(f"{h:>14}" for h in head))
        rows, fresh_rows, mean = table(functions, head, reflect, others, real_annotations=True)
        report(rows, mean, others, fresh_rows)
    check_strangers()
    strangers = [fn for fn in STRANGERS if fn.__name__ in wanted]
    if not strangers:
        return 0
    print(" | ".join(f"{h:>14}" for h in head))
    rows, fresh_rows, mean = table(strangers, head, reflect, others, real_annotations=True)
    return report(rows, mean, others, fresh_rows, "stranger targets", STRANGER_MODEL_PARAMETERS, fast_path=False)


def table(
    functions: list[Callable[..., Any]],
    head: list[str],
    reflect: Callable[[Callable[..., Any]], Any],
    others: dict[str, Callable[[Callable[..., Any]], Any]],
    real_annotations: bool = False,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, float]]:
    """One row per function (and a fresh-classes line for those in `FRESH`), then the mean;
    `real_annotations` adds a line per function measured with its annotations evaluated, as a
    module without `from __future__ import annotations` has them (the hand-rolled floor then
    evaluates nothing), counted in target 1 like the fresh-classes lines."""
    rows, fresh_rows = [], []
    for fn in functions:
        row = interleaved(
            fn,
            {
                "cold": (reflect, clear_cache, False),
                "warm": (reflect, None, False),
                "cached": (reflect, None, True),
                "1st call": (first_call, clear_cache, False),
                "hand": (hand_rolled, None, False),
                **{name: (run, None, False) for name, run in others.items()},
            },
        )
        rows.append(row | {"cold/hand": row["cold"] / row["hand"], "name": fn.__name__})
        cells = [f"{row[h]:14.1f}" if h != "cold/hand" else f"{rows[-1][h]:14.2f}" for h in head[1:]]
        print(" | ".join([f"{fn.__name__:>14}", *cells]))
        if fn.__name__ in FRESH:
            fresh = interleaved(
                fn,
                {
                    "cold": fresh_variant(reflect, True),
                    "warm": fresh_variant(reflect, False),
                    "hand": fresh_variant(hand_rolled, False),
                },
            )
            print(
                f"{'(fresh classes)':>16} cold {fresh['cold']:.1f}  warm {fresh['warm']:.1f}  hand {fresh['hand']:.1f}"
                f"  cold/hand {fresh['cold'] / fresh['hand']:.2f}  warm/hand {fresh['warm'] / fresh['hand']:.2f}"
            )
            fresh_rows.append(
                {
                    "name": f"{fn.__name__} (fresh classes)",
                    "function": fn.__name__,
                    "cold/hand": fresh["cold"] / fresh["hand"],
                }
            )
        if real_annotations:
            real = interleaved(
                evaluated(fn), {"cold": (reflect, clear_cache, False), "hand": (hand_rolled, None, False)}
            )
            print(
                f"{'(real annotations)':>16} cold {real['cold']:.1f}  hand {real['hand']:.1f}"
                f"  cold/hand {real['cold'] / real['hand']:.2f}"
            )
            fresh_rows.append(
                {
                    "name": f"{fn.__name__} (real annotations)",
                    "function": fn.__name__,
                    "cold/hand": real["cold"] / real["hand"],
                }
            )
    mean = {h: statistics.mean(r[h] for r in rows) for h in head[1:-1]}
    print(" | ".join([f"{'mean':>14}", *(f"{mean[h]:14.1f}" for h in head[1:-1]), " " * 14]))
    return rows, fresh_rows, mean


def evaluated(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A copy of `fn` whose annotations are the objects, not strings (this module's are strings)."""
    import typing

    clone = copy_function(fn)
    clone.__annotations__ = typing.get_type_hints(fn, include_extras=True)
    return clone


def check_strangers() -> None:
    """Every stranger reflects, and its minimal call executes."""
    for fn in STRANGERS:
        tool = function_tool(fn)
        call = ToolCall(id="1", name=tool.name, arguments=json.dumps(STRANGER_CALLS[fn.__name__]))
        assert not tool.execute(call).is_error, fn.__name__
    print(f"\nstrangers (signatures nobody tuned for): all {len(STRANGERS)} reflect, minimal calls execute\n")


def report(
    rows: list[dict[str, Any]],
    mean: dict[str, float],
    others: dict[str, Any],
    fresh_rows: list[dict[str, Any]],
    title: str = "targets",
    exempt: set[str] = MODEL_PARAMETERS,
    fast_path: bool = True,
) -> int:
    """Each target with its measured value and met / not met (target 1 counts the fresh-classes
    and real-annotations rows too, those of exempt functions aside: the honest figure for
    TypedDict and dataclass parameters, and for a module without `from __future__ import
    annotations`); target 3 is about the first group's functions."""
    print(f"\n{title}:")
    checked = [r for r in rows + fresh_rows if r.get("function", r["name"]) not in exempt]
    slow = [f"{r['name']} {r['cold/hand']:.1f}x" for r in checked if r["cold/hand"] > 3]
    worst = max(r["cold/hand"] for r in checked)
    verdict = "met" if not slow else "not met (" + ", ".join(slow) + ")"
    print(f"  1. every function (model parameters exempt) cold <= 3x hand-rolled: worst {worst:.1f}x: {verdict}")
    if "pydantic-ai" in others:
        ratio = mean["cold"] / mean["pydantic-ai"]
        print(f"  2. cold mean <= 0.33 of pydantic-ai's: {ratio:.2f}: {'met' if ratio <= 0.33 else 'not met'}")
    else:
        print("  2. cold mean <= 0.33 of pydantic-ai's: not measured (pydantic-ai not installed)")
    if fast_path:
        fast = check_fast_path()
        print(f"  3. bare-string and Field-default functions on the fast path: {'met' if fast else 'not met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
