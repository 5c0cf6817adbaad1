"""`@tool` and `@property` on one method, in either order: a developer error naming the fix.

`@property` over `@tool` was silently no tool: the class's `@tool` methods were collected
without it (or "Shop has no @tool methods" when it was the only one). `@tool` over `@property`
read the property as a description ("the description is a property (<property object at
0x7f...>), not a str"), and `@tool("...")` over it raised a bare `TypeError`. A property is read,
never called, so it cannot be the tool the model calls: each form is refused with the same text."""

from __future__ import annotations

import functools

import pytest

from toolkit.errors import ToolDefinitionError
from toolkit.loop.sources import build_context
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from

_FIX = (
    "it is also a property: a property is read as an attribute, never called, so the model could not call it. "
    "Fix: drop @property to make it a method the model calls (def status(self) -> ...), or keep the property "
    "and add a @tool method that returns it"
)


def _property_over_tool():
    class Shop:
        @property
        @tool
        def status(self) -> str:
            """Whether the shop is open."""
            return "open"

        @tool
        def query_order(self, order_id: str) -> str:
            """Look up an order."""
            return order_id

    return Shop()


def test_property_over_tool_is_refused_where_the_tools_are_collected():
    shop = _property_over_tool()
    with pytest.raises(ToolDefinitionError) as caught:
        build_context(tools=[shop])
    assert str(caught.value) == f"@tool {__name__}._property_over_tool.<locals>.Shop.status: {_FIX}"


def test_tool_over_property_is_refused_where_it_is_written():
    with pytest.raises(ToolDefinitionError) as caught:

        class Shop:
            @tool
            @property
            def status(self) -> str:
                """Whether the shop is open."""
                return "open"

    where = f"{__name__}.test_tool_over_property_is_refused_where_it_is_written.<locals>.Shop.status"
    assert str(caught.value) == f"@tool {where}: {_FIX}"


def test_tool_with_options_over_property_is_refused_the_same_way():
    with pytest.raises(ToolDefinitionError, match=r"\.Shop\.status: it is also a property: a property is read"):

        class Shop:
            @tool("Whether the shop is open.")
            @property
            def status(self) -> str:
                return "open"


def test_a_cached_property_is_named_as_what_it_is():
    class Shop:
        @functools.cached_property
        @tool
        def status(self) -> str:
            """Whether the shop is open."""
            return "open"

    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(Shop())
    assert str(caught.value).endswith(
        "Shop.status: it is also a cached_property: a cached_property is read as an attribute, never called, so "
        "the model could not call it. Fix: drop @functools.cached_property to make it a method the model calls "
        "(def status(self) -> ...), or keep the cached_property and add a @tool method that returns it"
    )


def test_a_plain_property_beside_tool_methods_is_left_alone():
    class Shop:
        @property
        def status(self) -> str:
            return "open"

        @staticmethod
        @tool
        def query_order(order_id: str) -> str:
            """Look up an order."""
            return order_id

    assert [t.name for t in tools_from(Shop())] == ["query_order"]
