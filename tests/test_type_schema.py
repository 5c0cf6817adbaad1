"""Type → JSON Schema: the fast path must equal pydantic's own output, type by type."""

import datetime
import enum
import uuid
from typing import Annotated, Any, Literal, Optional, Union

import pytest
from pydantic import BaseModel, Field

from toolkit.tools.fast_schema import fast_schema, type_schema
from toolkit.tools.json_schema import clean, map_schema, pydantic_schema


class Colour(enum.Enum):
    """Paint colours."""

    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Address(BaseModel):
    city: str
    title: str = "home"  # a *field* called title must survive the cleaning


class Node(BaseModel):
    name: str
    kids: list["Node"] = []


FAST = [
    str,
    int,
    float,
    bool,
    type(None),
    Any,
    datetime.date,
    datetime.datetime,
    datetime.time,
    datetime.timedelta,
    uuid.UUID,
    Literal["a", "b"],
    Literal["a"],
    Literal[1, 2],
    Colour,
    Level,
    list[int],
    set[str],
    frozenset[int],
    dict[str, int],
    Optional[int],
    Union[int, str],
    int | None,
    list[Colour] | None,
    dict[str, list[Colour]],
    Optional[Literal["x", "y"]],
    list[Address],
    Optional[Address],
    list[Node],
    Annotated[int, Field(ge=1, le=50)],
    Annotated[float, Field(gt=0, lt=1, multiple_of=0.25)],
    Annotated[str, Field(min_length=2, max_length=9)],
    Annotated[list[int], Field(min_length=1)],
    Annotated[int, Field(description="How many")],
]
SLOW = [tuple[int, str], Literal[True], Annotated[str, Field(pattern="^a")], Literal["a", 1], dict[int, str]]


@pytest.mark.parametrize("annotation", FAST, ids=repr)
def test_fast_path_equals_pydantic(annotation):
    defs: dict = {}
    assert (fast_schema(annotation, defs), defs) == pydantic_schema(annotation)


@pytest.mark.parametrize("annotation", SLOW, ids=repr)
def test_other_types_go_to_pydantic(annotation):
    from toolkit.tools.fast_schema import _Slow

    with pytest.raises(_Slow):
        fast_schema(annotation, {})
    assert type_schema(annotation) == pydantic_schema(annotation)


def test_models_are_filed_under_defs_and_titles_removed():
    schema, defs = type_schema(Address)
    assert schema == {"$ref": "#/$defs/Address"}
    assert defs == {
        "Address": {
            "properties": {"city": {"type": "string"}, "title": {"default": "home", "type": "string"}},
            "required": ["city"],
            "type": "object",
            "additionalProperties": False,
        }
    }


def test_recursive_model_is_defined_once():
    schema, defs = type_schema(Node)
    assert schema == {"$ref": "#/$defs/Node"} and list(defs) == ["Node"]


def test_cache_returns_the_same_object():
    assert type_schema(list[Colour]) is type_schema(list[Colour])


def test_map_schema_never_touches_name_maps():
    schema = {"type": "object", "properties": {"title": {"type": "string", "title": "T"}}, "title": "X"}
    assert clean(schema) == {
        "type": "object",
        "properties": {"title": {"type": "string"}},
        "additionalProperties": False,
    }
    assert map_schema(True, lambda n: n) is True
