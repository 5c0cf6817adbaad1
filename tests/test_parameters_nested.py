"""A tool defined inside a function, in a module with `from __future__ import annotations`: its
annotations are text read in the module, so a class made in the enclosing function is not found.
The fix named what to do there ("import the type at module level"), which did not fit a class
defined in the function; it now says why and what to do."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from toolkit.errors import ToolDefinitionError
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from


def test_a_class_local_to_the_enclosing_function_is_named_as_the_cause():
    class Item(BaseModel):
        sku: str

    @tool
    def add_item(item: Item) -> str:
        """Add an item."""
        return item.sku

    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(add_item)
    assert str(caught.value) == (
        f"@tool {__name__}.test_a_class_local_to_the_enclosing_function_is_named_as_the_cause.<locals>.add_item, "
        "parameter 'item': its annotation 'Item' cannot be resolved (NameError: name 'Item' is not defined). "
        "Fix: define or import the type at module level: the annotation is text (`from __future__ import "
        "annotations`), read in the module, where a class made inside the enclosing function is not found"
    )


class Order(BaseModel):
    order_id: str


def test_a_module_level_class_still_resolves_for_a_nested_tool():
    @tool
    def cancel(order: Order) -> str:
        """Cancel an order."""
        return order.order_id

    [made] = tools_from(cancel)
    assert made.spec.parameters["properties"]["order"] == {"$ref": "#/$defs/Order"}
