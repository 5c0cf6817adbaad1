"""`parameters._origin` answers a class without asking `typing.get_origin`: the same answer as
`get_origin` for every kind of annotation."""

import collections.abc
import dataclasses
import enum
import typing
from typing import Annotated, Any, Generic, Literal, Optional, TypeVar, Union

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from toolkit.tools.decorator import InvocationContext
from toolkit.tools.parameters import _origin

T = TypeVar("T")
P = typing.ParamSpec("P")


class Color(enum.Enum):
    RED = "red"


class Model(BaseModel):
    x: int


class Box(Generic[T]):
    pass


class Person(TypedDict):
    name: str


@dataclasses.dataclass
class Point:
    x: int


TYPES = [
    str, int, float, bool, bytes, type(None), None, Any, object, type, Color, Model, Box, Box[int], Person, Point,
    Generic, typing.Protocol, InvocationContext, list, list[int], dict[str, int], tuple[int, ...], set[str],
    typing.List[int], typing.Dict, typing.Callable[[int], str], collections.abc.Sequence[int],  # noqa: UP006
    int | None, Optional[int], Union[int, str], Literal["a", "b"], Annotated[int, Field(ge=1)],
    Annotated[int | None, "note"], type[int], typing.Type[int], T, P, P.args, P.kwargs,  # noqa: UP006
    "int", typing.ForwardRef("int"), Field(1), 5,
]  # fmt: skip


@pytest.mark.parametrize("tp", TYPES, ids=repr)
def test_origin_is_get_origin(tp):
    assert _origin(tp) is typing.get_origin(tp)
