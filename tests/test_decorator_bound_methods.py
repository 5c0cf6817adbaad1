"""`@tool` given a bound method (`tool("...")(shop.lookup)`): LangChain's `tool(shop.lookup)` and the
OpenAI Agents SDK's `function_tool(shop.lookup)` make it a tool; here it raised AttributeError:
'method' object has no attribute '__toolkit_tool__' (a bound method takes no attributes).

This module's annotations are strings (`from __future__ import annotations`), as in most code."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Annotated

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.errors import ToolDefinitionError
from toolkit.tools.decorator import Param, tool
from toolkit.tools.execute import tools_from


class Status(enum.Enum):
    OPEN = "open"
    SHIPPED = "shipped"


class Shop:
    def __init__(self, rate: int) -> None:
        self.rate = rate

    def lookup(self, order_id: Annotated[str, Param("The order id")], status: Status = Status.OPEN) -> str:
        """Look up an order.

        Args:
            status: Its status.
        """
        return f"{order_id} {status.value} {self.rate}"

    @tool(name="find_order")
    def find(self, order_id: str) -> str:
        """Find an order."""
        return f"{order_id} {self.rate}"

    async def fetch(self, order_id: str) -> str:
        """Fetch an order."""
        return order_id

    def each(self, order_id: str) -> Iterator[str]:
        """Each line of an order."""
        yield order_id


def test_a_bound_method_given_to_tool_is_a_tool_of_that_instance():
    shop = Shop(rate=3)
    [made] = tools_from(tool("Look up one order by its id.")(shop.lookup))
    assert made.spec.name == "lookup"
    assert made.spec.description == "Look up one order by its id."
    assert made.spec.parameters == {
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "description": "The order id"},
            "status": {"$ref": "#/$defs/Status", "description": "Its status.", "default": "open"},
        },
        "required": ["order_id"],
        "additionalProperties": False,
        "$defs": {"Status": {"enum": ["open", "shipped"], "type": "string"}},
    }
    call = ToolCall(id="c", name="lookup", arguments='{"order_id": "A1", "status": "SHIPPED"}')
    assert made.execute(call).content == "A1 shipped 3"


def test_the_bound_method_keeps_its_instance_and_leaves_the_class_unmarked():
    one, two = Shop(rate=1), Shop(rate=2)
    [first] = tools_from(tool(name="lookup_one")(one.lookup))
    [second] = tools_from(tool(two.lookup))
    call = ToolCall(id="c", name="x", arguments='{"order_id": "A1"}')
    assert (first.spec.name, first.execute(call).content) == ("lookup_one", "A1 open 1")
    assert (second.spec.name, second.execute(call).content) == ("lookup", "A1 open 2")
    assert not hasattr(Shop.lookup, "__toolkit_tool__")  # the options are the bound method's, not the class's


def test_a_decorated_method_bound_and_given_again_takes_the_options_given():
    """As a function decorated twice: the options given last are the tool's (the class's are not merged in)."""
    [made] = tools_from(tool("Find it.")(Shop(rate=5).find))
    assert (made.spec.name, made.spec.description) == ("find", "Find it.")
    assert made.execute(ToolCall(id="c", name="find", arguments='{"order_id": "B2"}')).content == "B2 5"
    assert Shop.find.__toolkit_tool__.name == "find_order"  # the class's method keeps its own


def test_a_bound_async_method_is_refused_as_an_async_function_is():
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(tool(Shop(rate=1).fetch))
    assert str(caught.value) == (
        f"@tool {__name__}.Shop.fetch: it is async, and the executor calls tools synchronously. "
        "Fix: make it a plain function (async tools are left out for now)"
    )


def test_a_bound_generator_method_is_refused_as_a_generator_is():
    with pytest.raises(ToolDefinitionError) as caught:
        tool(Shop(rate=1).each)
    assert str(caught.value) == (
        f"@tool {__name__}.Shop.each: it is a generator (it yields), and a tool call needs one return value. "
        "Fix: return a list (or a string) instead of yielding"
    )
