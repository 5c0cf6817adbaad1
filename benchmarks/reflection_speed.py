"""Reflection speed: µs to turn one Python function into an OpenAI tool spec, vs three peers.

Run on demand, in a throw-away environment that has the peers (never in pyproject):

    python3 -m venv /tmp/benchenv
    /tmp/benchenv/bin/pip install pydantic-ai-slim openai-agents langchain-core
    PYTHONPATH=. /tmp/benchenv/bin/python benchmarks/reflection_speed.py

Every measurement uses fresh function objects (copies of the fixtures), so no per-function
cache — ours or a peer's — can answer. Three toolkit figures are reported:

- cold:   every toolkit cache cleared before each function (reflection, type schemas,
          validators): the honest first-time cost, and the one compared with the target;
- warm:   a new function, but its parameter types were seen before (steady state);
- cached: the same function again (what the loop pays per round).

"first call" adds the first execution (building the validator, which reflection defers).
Peers: pydantic-ai `Tool(fn).tool_def`, openai-agents `function_tool(fn, strict_mode=False)`,
langchain-core `convert_to_openai_tool(fn)`; a missing peer is skipped. All render the normal
(non-strict) form. Target: cold ≤ 1/3 of the fastest peer, per-function mean, with every
required-rule case correct (checked first).
"""

from __future__ import annotations

import datetime
import enum
import json
import statistics
import sys
import time
import types
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from toolkit.chat.messages import ToolCall
from toolkit.tools.decorator import Param
from toolkit.tools.execute import function_tool
from toolkit.tools.reflect import clear_cache

REPS, ROUNDS = 100, 5


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


def convert_currency(amount: float, source: str, target: str, rounded: bool = True) -> float:
    """Convert an amount between currencies."""
    return 0.0


def current_time() -> str:
    """The current time in the shop's time zone."""
    return ""


def tag_orders(order_ids: list[str], tags: dict[str, str], status: Status) -> str:
    """Attach tags to several orders."""
    return ""


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
    current_time,
    tag_orders,
]
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
    "current_time": None,
    "tag_orders": ["order_ids", "tags", "status"],
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
    "current_time": {},
    "tag_orders": {"order_ids": ["SN1"], "tags": {}, "status": "shipped"},
}


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
    before: Callable[[], None] | None = None,
    same: bool = False,
) -> float:
    """Best-of-ROUNDS mean µs per call of `run(copy)`; `before` runs untimed before each call."""
    best = float("inf")
    for _ in range(ROUNDS):
        copies = [fn] * REPS if same else [copy_function(fn) for _ in range(REPS)]
        total = 0.0
        for c in copies:
            if before:
                before()
            start = time.perf_counter()
            run(c)
            total += time.perf_counter() - start
        best = min(best, total / REPS * 1e6)
    return best


def first_call(fn: Callable[..., Any]) -> None:
    tool = function_tool(fn)
    tool.execute(ToolCall(id="1", name=tool.name, arguments=json.dumps(MINIMAL_CALLS[fn.__name__])))


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


def main() -> int:
    check_required_rules()
    reflect = ours()["toolkit"]
    others = peers()
    head = ["function", "cold", "warm", "cached", "1st call", *others, "cold/fastest"]
    print(" | ".join(f"{h:>14}" for h in head))
    rows = []
    for fn in FUNCTIONS:
        row = {
            "cold": measure(reflect, fn, before=clear_cache),
            "warm": measure(reflect, fn),
            "cached": measure(reflect, fn, same=True),
            "1st call": measure(first_call, fn, before=clear_cache),
        }
        row |= {name: measure(run, fn) for name, run in others.items()}
        fastest = min((row[n] for n in others), default=float("nan"))
        rows.append(row | {"cold/fastest": row["cold"] / fastest})
        cells = [f"{row[h]:14.1f}" if h != "cold/fastest" else f"{rows[-1][h]:14.2f}" for h in head[1:]]
        print(" | ".join([f"{fn.__name__:>14}", *cells]))
    mean = {h: statistics.mean(r[h] for r in rows) for h in head[1:-1]}
    fastest_peer = min((mean[n] for n in others), default=float("nan"))
    print(
        " | ".join([f"{'mean':>14}", *(f"{mean[h]:14.1f}" for h in head[1:-1]), f"{mean['cold'] / fastest_peer:14.2f}"])
    )
    if others:
        verdict = "met" if mean["cold"] <= fastest_peer / 3 else "NOT met"
        print(f"\ntarget (cold mean ≤ 1/3 of the fastest peer's mean, {fastest_peer / 3:.1f} µs): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
