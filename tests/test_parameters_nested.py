"""A tool defined inside a function, in a module with `from __future__ import annotations`: its
annotations are text read in the module, so a class made in the enclosing function is not found.
The fix named what to do there ("import the type at module level"), which did not fit a class
defined in the function; it now says why and what to do."""

from __future__ import annotations

import math
from typing import Annotated

import pytest
from pydantic import AfterValidator, BaseModel, Field

from toolkit.errors import ToolDefinitionError
from toolkit.tools.decorator import MemoryId, Param, tool
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


def test_param_or_memory_id_given_as_the_default_says_to_move_it_into_annotated():
    """`x: int = Param("...")` (FastAPI's habit) said "the default Param('...') is not a valid int";
    `m: str = MemoryId` was passed the class as a visible parameter's default."""

    @tool
    def search(query: str = Param("what to look for")) -> str:
        """Search."""
        return query

    @tool
    def remember(conversation: str = MemoryId) -> str:
        """Remember."""
        return conversation

    @tool
    def count(n: Annotated[int, "how many"] = Param(name="N")) -> int:
        """Count."""
        return n

    texts = []
    for fn in (search, remember, count):
        with pytest.raises(ToolDefinitionError) as caught:
            tools_from(fn)
        texts.append(str(caught.value).split(", parameter ", 1)[1])
    assert texts == [
        "'query': Param('what to look for') is given as its default value, so it would be passed as the value "
        "(it is not read). Fix: put it in the annotation: `query: Annotated[str, Param('what to look for')]`",
        "'conversation': MemoryId is given as its default value, so it would be passed as the value (it is not "
        "read). Fix: put it in the annotation: `conversation: Annotated[str, MemoryId]`",
        "'n': Param(name='N') is given as its default value, so it would be passed as the value (it is not "
        "read). Fix: put it in the annotation: `n: Annotated[int, 'how many', Param(name='N')]`",
    ]


@pytest.mark.parametrize(
    "default", [float("nan"), float("inf"), -float("inf"), [1.0, float("nan")], {"x": float("inf")}]
)
def test_a_default_json_cannot_carry_stays_out_of_the_schema_and_still_reaches_the_tool(default):
    """`threshold: float = math.nan` wrote `"default": NaN` into the schema: not JSON, so the
    gateway refused every request of the loop (at call time, not at registration)."""
    import json

    from toolkit.chat.messages import ToolCall

    def scan(threshold=default) -> str:
        """Scan."""
        return repr(threshold)

    scan.__annotations__ = {"threshold": type(default), "return": str}
    [made] = tools_from(tool(scan))
    assert "default" not in made.spec.parameters["properties"]["threshold"]
    json.dumps(made.spec.to_openai(), allow_nan=False)  # what a request can carry
    assert made.execute(ToolCall(id="c", name="scan")).content == repr(default)


def _keep(value: float) -> float:
    return value


@pytest.mark.parametrize(
    "annotation, default",
    [
        (Annotated[float, Field(ge=0, multiple_of=0.5)], math.inf),
        (Annotated[float, AfterValidator(_keep)], math.inf),
        (dict[str, float], {"x": math.inf}),
        (list[float], [1.0, math.nan]),
    ],
    ids=["constrained", "validated", "dict", "list"],
)
def test_a_non_finite_default_of_a_typed_float_is_a_default_as_any_other(annotation, default):
    """`max_price: float = math.inf` ("no limit") registers, its default out of the schema and
    reaching the tool; with a constraint the fast check does not read (`multiple_of`), a validator
    of the learner's, or inside a `dict[str, float]`, the default was checked by the executor's
    validator, whose rule that a float is finite is for what the model sends: refused, "the default
    inf is not a valid ...: Input should be a finite number"."""
    import json

    from toolkit.chat.messages import ToolCall

    def scan(threshold=default) -> str:
        """Scan."""
        return repr(threshold)

    scan.__annotations__ = {"threshold": annotation, "return": str}
    [made] = tools_from(tool(scan))
    assert "default" not in made.spec.parameters["properties"]["threshold"]
    json.dumps(made.spec.to_openai(), allow_nan=False)  # what a request can carry
    assert made.execute(ToolCall(id="c", name="scan")).content == repr(default)


@pytest.mark.parametrize("default", [10**5000, [1, -(10**5000)], {"x": 10**4301}], ids=["int", "list", "dict"])
def test_a_default_integer_too_long_for_json_stays_out_of_the_schema_and_still_reaches_the_tool(default):
    """`limit: int = 10**5000` wrote the integer into the schema: Python's JSON writer refuses an
    integer of more than 4,300 digits, so the tools block could not be sent (a ValueError
    traceback), nor shown by the tool editor or the schema view."""
    import json

    from toolkit.chat.messages import ToolCall

    def scan(limit=default) -> str:
        """Scan."""
        return "same" if limit == default else "another"

    scan.__annotations__ = {"limit": type(default), "return": str}
    [made] = tools_from(tool(scan))
    assert "default" not in made.spec.parameters["properties"]["limit"]
    json.dumps(made.spec.to_openai(), allow_nan=False)  # what a request can carry
    assert made.execute(ToolCall(id="c", name="scan")).content == "same"


@pytest.mark.parametrize("annotation, shown", [(type[int], "type[int]"), (type[str], "type[str]")])
def test_a_class_parameter_is_refused_at_registration(annotation, shown):
    """pydantic writes `type[int]` as `{}` (any value), so it registered, and every call failed:
    "expected a subclass of int", which no JSON value is."""

    def make(kind) -> str:
        """Make one."""
        return str(kind)

    make.__annotations__ = {"kind": annotation, "return": str}
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(tool(make))
    assert str(caught.value).endswith(
        f"parameter 'kind': {shown} takes a Python class, which no JSON value is. Fix: take a name instead "
        "(a str, or a Literal / Enum of the names) and look the class up in the tool"
    )
