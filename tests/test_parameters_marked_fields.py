"""A field of a parameter's type (a TypedDict, dataclass or pydantic model) marked with `Param`
or `MemoryId`: only a tool's own parameters read them, and pydantic drops both without a word
(the description lost, the memory id asked of the model). Reflection refuses it as a developer
error naming the field and the fix, on the fast path and on pydantic's path alike."""

import contextlib
import dataclasses
import json
import typing
from typing import Annotated, Literal, NotRequired
from unittest import mock

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from toolkit.errors import ToolDefinitionError
from toolkit.tools import fast_schema
from toolkit.tools.decorator import MemoryId, Param
from toolkit.tools.reflect import clear_cache, reflect

HERE = __name__


class Order(TypedDict):
    id: Annotated[str, Param("The order id")]
    note: NotRequired[str]


@dataclasses.dataclass
class Box:
    width: Annotated[int, Param("Width in cm", name="w")]


class Model(BaseModel):
    x: Annotated[int, Param("X")]


class Holder(BaseModel):
    orders: list[Order]


class Conversation(TypedDict):
    mid: Annotated[str, MemoryId]


@dataclasses.dataclass
class Tagged:
    """A dataclass the fast path leaves to pydantic (a field with metadata)."""

    size: Annotated[int, Param("Size")] = dataclasses.field(default=1, metadata={"unit": "cm"})


class Fine(TypedDict):
    """No marker: a Field's description, and a Literal whose value reads like one."""

    id: Annotated[str, Field(description="The order id")]
    kind: Literal["Param('x')"]


def _plain() -> contextlib.AbstractContextManager[object]:
    """Reflection without the fast path: pydantic writes every schema (after the same check)."""
    stack = contextlib.ExitStack()
    stack.enter_context(mock.patch.object(fast_schema, "type_schema", fast_schema._pydantic_schema))
    stack.enter_context(mock.patch.object(fast_schema, "parts_schema", lambda *a: (None, fast_schema.UNREAD)))
    return stack


def _spec(annotation: typing.Any) -> str:
    def take(value):  # noqa: ANN001 (its annotation is set below)
        """Take it."""
        return ""

    take.__annotations__ = {"value": annotation, "return": str}
    clear_cache()
    try:
        return json.dumps(reflect(take).spec.parameters)
    except ToolDefinitionError as exc:
        return f"raised: {exc}"


def _both(annotation: typing.Any) -> str:
    fast = _spec(annotation)
    with _plain():
        assert _spec(annotation) == fast, annotation
    return fast


def _where() -> str:
    return f"@tool {HERE}._spec.<locals>.take, parameter 'value': "


PARAM_FIX = (
    "(pydantic drops it: the model would not see it). Fix: describe the field with `Annotated[..., "
    "Field(description={description!r})]` or a docstring under it (a wire name is Field(alias=...), an optional "
    "field a default or NotRequired)"
)


@pytest.mark.parametrize(
    ("annotation", "field", "marker", "description"),
    [
        (Order, "Order.id", "Param('The order id')", "The order id"),
        (list[Order], "Order.id", "Param('The order id')", "The order id"),
        (Order | None, "Order.id", "Param('The order id')", "The order id"),
        (Box, "Box.width", "Param('Width in cm', name='w')", "Width in cm"),
        (Model, "Model.x", "Param('X')", "X"),
        (Holder, "Order.id", "Param('The order id')", "The order id"),
        (dict[str, Model], "Model.x", "Param('X')", "X"),
        (Tagged, "Tagged.size", "Param('Size')", "Size"),
    ],
)
def test_a_param_on_a_field_of_the_parameters_type_is_refused(annotation, field, marker, description):
    assert _both(annotation) == (
        f"raised: {_where()}its type's field {field} is marked with {marker}, which only a tool's own parameters "
        f"read " + PARAM_FIX.format(description=description)
    )


def test_a_memory_id_on_a_field_is_refused_naming_the_tools_own_parameter():
    assert _both(Conversation) == (
        f"raised: {_where()}its type's field Conversation.mid is marked with MemoryId, which only a tool's own "
        "parameters read (the model would be asked for the memory id). Fix: take the memory id as a parameter of "
        "the tool itself, e.g. `memory_id: Annotated[str, MemoryId]`, and leave it out of Conversation"
    )


def test_fields_without_markers_are_read_as_before():
    spec = json.loads(_both(Fine))
    assert spec["$defs"]["Fine"]["properties"] == {
        "id": {"description": "The order id", "type": "string"},
        "kind": {"const": "Param('x')", "type": "string"},
    }
