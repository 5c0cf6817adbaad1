"""A reflected parameter's `expects` (its type in words, for "missing, expected ..." messages) is
written when first read (`ParamInfo.described_later`), not at reflection: the same words the
schema gives (`arguments.describe` of the parameter's property and the tool's `$defs`) for every
signature of benchmarks/reflection_speed.py, as written and with its annotations evaluated, and
the same `ParamInfo` (equal, same hash and repr) as one given its words at once."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import importlib.util
import pathlib
import sys
import typing
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError
from toolkit.tools.arguments import ParamInfo, describe
from toolkit.tools.decorator import Param
from toolkit.tools.execute import function_tool
from toolkit.tools.reflect import clear_cache, reflect


def _benchmark_functions():
    path = pathlib.Path(__file__).parent.parent / "benchmarks" / "reflection_speed.py"
    spec = importlib.util.spec_from_file_location("reflection_speed_expects", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and TypedDicts look their module up
    spec.loader.exec_module(module)
    functions = []
    for fn in module.FUNCTIONS + module.STRANGERS:
        evaluated = module.copy_function(fn)
        evaluated.__annotations__ = typing.get_type_hints(fn, include_extras=True)
        functions += [fn, evaluated]
    return functions


class Size(enum.Enum):
    S = "s"
    M = "m"


class Point(BaseModel):
    x: int
    y: int = 0


@dataclasses.dataclass
class Box:
    w: int


def local_kinds(
    a: Annotated[int, Field(ge=1, alias="A")],
    b: Annotated[str | None, Param("b", required=False)],
    c: Literal["x", 1, True, None] = "x",
    d: list[Size] | Size | None = None,
    e: Point | Box | None = None,
    f: datetime.date | datetime.datetime | None = None,
    g: dict[str, list[int]] = {},  # noqa: B006 (reflected, never mutated)
) -> str:
    """Kinds the words differ for: a `Field` alias, an optional Param, a mixed Literal, unions of enums and classes."""
    return ""


def test_expects_is_what_the_schema_says_for_every_benchmark_signature():
    for fn in [*_benchmark_functions(), local_kinds]:
        clear_cache()
        reflection = reflect(fn)
        parameters = reflection.spec.parameters or {}
        properties, defs = parameters.get("properties", {}), parameters.get("$defs", {})
        for info in reflection.params:
            if info.inject is None:
                assert "expects" not in vars(info), (fn.__name__, info.name)  # not written yet
                assert info.expects == describe(properties[info.wire_name], defs), (fn.__name__, info.name)
                assert vars(info)["expects"] == info.expects  # written once, then read as any field


def _hash(info):
    try:
        return hash(info)
    except TypeError:  # a default that is a dict or a list
        return None


def test_a_param_info_described_later_equals_one_described_at_once():
    clear_cache()
    for info in reflect(local_kinds).params:
        later = dataclasses.replace(info)  # every field read, `expects` among them
        fresh = ParamInfo(
            info.name,
            info.wire_name,
            info.annotation,
            info.required,
            info.default,
            info.nullable,
            info.inject,
            info.expects,
            info.default_factory,
        )
        assert info == later == fresh
        assert _hash(info) == _hash(fresh)
        assert repr(info) == repr(fresh)
    info = ParamInfo("x", "x", int).described_later({"enum": ["a", 1]}, {})
    assert info.expects == 'one of "a", 1'


def test_a_missing_argument_still_says_what_was_expected():
    clear_cache()
    tool = function_tool(local_kinds)
    with pytest.raises(ArgumentError) as caught:
        tool.execute(ToolCall(id="c1", name="local_kinds", arguments="{}"))
    assert "- A: missing, expected an integer\n" in str(caught.value)
