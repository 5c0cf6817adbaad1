"""Realistic tool functions (an online shop's support desk), with minimal and full legitimate calls.

Shared by test_schema.py and test_execution.py: every schema must validate against the JSON
Schema meta-schema, and these calls must validate against the schemas and execute.
"""

from __future__ import annotations

import datetime
import enum
import uuid
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from toolkit.tools.decorator import InvocationContext, MemoryId, Param, ReturnBehavior, tool


class OrderStatus(str, enum.Enum):
    """Where an order is in its life."""

    PENDING = "pending"
    SHIPPED = "shipped"
    DELIVERED = "delivered"


class Priority(enum.Enum):
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class Currency(str, enum.Enum):
    CNY = "CNY"
    EUR = "EUR"
    USD = "USD"


class Address(BaseModel):
    """A delivery address."""

    city: str
    street: str
    postcode: str | None = None


class LineItem(BaseModel):
    sku: str = Field(description="Stock keeping unit, e.g. PH-001")
    quantity: int = Field(ge=1)
    gift: bool = False


class Category(BaseModel):
    """A node of the product category tree."""

    name: str
    children: list[Category] = []


@tool("Look up one order by its id and return its status, items and total.")
def query_order(order_id: Annotated[str, Param("Order id, e.g. SN202610200001", name="orderId")]) -> str:
    return f"order {order_id}: shipped"


@tool("Where is the parcel of an order now; address and phone are masked.")
def query_logistics(
    order_id: Annotated[str, Param("Order id, e.g. SN202610200001", name="orderId")],
    memory_id: Annotated[str | None, MemoryId] = None,
) -> dict[str, Any]:
    return {"orderId": order_id, "status": "in transit", "asked_by": memory_id}


@tool
def query_refund_policy(category: Literal["phone", "laptop", "clothes"], as_of: datetime.date | None = None) -> str:
    """The refund policy of a product category, as it was on a given date.

    Args:
        category: The product category.
        as_of: The date the policy must be valid on; today when omitted.
    """
    return f"{category} policy as of {as_of}"


@tool("Search the user's orders by free text, status and date.")
def search_orders(
    query: Annotated[str, Param("Words to look for in item names")],
    status: OrderStatus | None = None,
    limit: Annotated[int, Field(ge=1, le=50, description="At most this many")] = 10,
    since: datetime.datetime | None = None,
    tags: list[str] = [],  # noqa: B006 (a mutable default, reflected on purpose)
) -> list[str]:
    return [query, str(status), str(limit), str(since), ",".join(tags)]


@tool("Open a support ticket about some items of an order.", metadata={"side_effect": True})
def create_ticket(
    title: Annotated[str, Field(min_length=3, max_length=80)],
    body: str,
    items: list[LineItem],
    priority: Priority = Priority.NORMAL,
    urgent: bool = False,
    context: InvocationContext | None = None,
) -> dict[str, Any]:
    return {"title": title, "items": len(items), "priority": priority.value, "urgent": urgent}


@tool("Change the delivery address of an order that has not shipped yet.")
def update_address(
    order_id: str, address: Address, note: Annotated[str | None, Param("A note for the courier", required=False)]
) -> None:
    return None


@tool("Weather forecast for a city, one line per day.")
def get_weather(
    city: Annotated[str, Param("City name, e.g. Hangzhou")],
    units: Literal["metric", "imperial"] = "metric",
    days: Annotated[int, Field(ge=1, le=7)] = 1,
) -> str:
    return f"{city}: sunny ({units}, {days} days)"


@tool("Ask a human agent to call the user back.", return_behavior=ReturnBehavior.IMMEDIATE)
def schedule_callback(
    phone: Annotated[str, Field(pattern=r"^\+?[0-9 -]{6,20}$")], when: datetime.datetime, minutes: int = 15
) -> str:
    return f"callback to {phone} at {when.isoformat()} for {minutes} min"


@tool("Walk the product category tree from a root, down to a depth.")
def browse_categories(root: Category, depth: int = 2) -> Category:
    return root


@tool("Convert an amount of money between two currencies at today's rate.")
def convert_currency(
    amount: Annotated[float, Field(gt=0)], source: Currency, target: Currency, rounded: bool = True
) -> float:
    return round(amount * 1.5, 2) if rounded else amount * 1.5


@tool("The current date and time in the shop's time zone.")
def current_time() -> str:
    return "2026-10-20T09:30:00+08:00"


@tool("Rate the delivery of an order from one to five stars.")
def rate_delivery(order_id: uuid.UUID, stars: Literal[1, 2, 3, 4, 5], comment: str | None = None) -> str:
    return f"{order_id} rated {stars}"


@tool("Put labels on several orders at once.")
def label_orders(order_ids: Annotated[list[str], Field(min_length=1)], labels: dict[str, str] = {}) -> str:  # noqa: B006 (reflected on purpose)
    return f"{len(order_ids)} orders labelled"


FUNCTIONS = [
    query_order,
    query_logistics,
    query_refund_policy,
    search_orders,
    create_ticket,
    update_address,
    get_weather,
    schedule_callback,
    browse_categories,
    convert_currency,
    current_time,
    rate_delivery,
    label_orders,
]
NOT_STRICT = {"label_orders"}  # a free-form dict cannot be strict

MINIMAL: dict[str, dict[str, Any]] = {
    "query_order": {"orderId": "SN202610200001"},
    "query_logistics": {"orderId": "SN202610200001"},
    "query_refund_policy": {"category": "phone"},
    "search_orders": {"query": "phone case"},
    "create_ticket": {"title": "Broken", "body": "The screen is cracked.", "items": [{"sku": "PH-001", "quantity": 1}]},
    "update_address": {"order_id": "SN202610200001", "address": {"city": "Hangzhou", "street": "1 West Lake Rd"}},
    "get_weather": {"city": "Hangzhou"},
    "schedule_callback": {"phone": "+86 138 0000 0000", "when": "2026-10-20T09:30:00+08:00"},
    "browse_categories": {"root": {"name": "all"}},
    "convert_currency": {"amount": 10.5, "source": "EUR", "target": "CNY"},
    "current_time": {},
    "rate_delivery": {"order_id": "0b0c2f4e-8f55-4c55-9a55-6a3a2f1d2c11", "stars": 5},
    "label_orders": {"order_ids": ["SN202610200001"]},
}
FULL: dict[str, dict[str, Any]] = {
    "query_order": {"orderId": "SN202610200001"},
    "query_logistics": {"orderId": "SN202610200001"},
    "query_refund_policy": {"category": "laptop", "as_of": "2026-01-31"},
    "search_orders": {
        "query": "phone case",
        "status": "shipped",
        "limit": 5,
        "since": "2026-10-01T00:00:00+08:00",
        "tags": ["gift", "sale"],
    },
    "create_ticket": {
        "title": "Broken",
        "body": "The screen is cracked.",
        "items": [{"sku": "PH-001", "quantity": 2, "gift": True}],
        "priority": "high",
        "urgent": True,
    },
    "update_address": {
        "order_id": "SN202610200001",
        "note": "Leave at the door",
        "address": {"city": "Hangzhou", "street": "1 West Lake Rd", "postcode": "310000"},
    },
    "get_weather": {"city": "Hangzhou", "units": "imperial", "days": 7},
    "schedule_callback": {"phone": "+86 138 0000 0000", "when": "2026-10-20T09:30:00+08:00", "minutes": 30},
    "browse_categories": {"root": {"name": "all", "children": [{"name": "phones", "children": []}]}, "depth": 3},
    "convert_currency": {"amount": 10.5, "source": "EUR", "target": "CNY", "rounded": False},
    "current_time": {},
    "rate_delivery": {"order_id": "0b0c2f4e-8f55-4c55-9a55-6a3a2f1d2c11", "stars": 4, "comment": "Fast!"},
    "label_orders": {"order_ids": ["SN202610200001", "SN202610200002"], "labels": {"vip": "yes"}},
}


class SupportDesk:
    """An object whose methods are tools (bound at registration)."""

    def __init__(self, agent: str) -> None:
        self.agent = agent

    @tool("Hand the conversation over to a human agent.")
    def hand_over(self, reason: Annotated[str, Param("Why a human is needed")]) -> str:
        return f"{self.agent} takes over: {reason}"

    @tool(name="desk_status")
    def status(self) -> str:
        """Whether the human support desk is open now."""
        return f"{self.agent} is online"

    @staticmethod
    @tool("Opening hours of the support desk.")
    def opening_hours() -> str:
        return "09:00-21:00"

    def not_a_tool(self) -> str:
        return "hidden"
