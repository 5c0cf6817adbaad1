"""The records reflection makes, written field by field into `__dict__` (`ToolSpec._of`,
`Reflection.__init__`; a frozen dataclass's own `__init__` sets each through
`object.__setattr__`), are the records the dataclasses make: same fields, same values, equal,
still frozen."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Annotated

import pytest
from pydantic import Field

from toolkit.tools.decorator import Param, ReturnBehavior, tool
from toolkit.tools.reflect import Reflection, ToolSpec, clear_cache, reflect


def plain(order_id: str, limit: int = 10) -> str:
    """Look up an order."""
    return ""


@tool(name="renamed", description="Said otherwise.", metadata={"readOnlyHint": True})
def decorated(a: Annotated[int, Field(ge=0)], b: Annotated[str, Param("b", name="B")] = "x") -> str:
    return ""


def nothing() -> str:
    return ""


def _reference(cls: type) -> type:
    """`cls` made again as a plain frozen dataclass: its generated `__init__`."""
    fields = dataclasses.fields(cls)
    return dataclasses.make_dataclass(cls.__name__, [(f.name, f.type, f) for f in fields], frozen=True)


@pytest.mark.parametrize("fn", [plain, decorated, nothing], ids=lambda fn: fn.__name__)
def test_a_reflection_and_its_spec_are_the_dataclasses_own(fn):
    clear_cache()
    made = reflect(fn)
    spec = made.spec
    values = {f.name: getattr(spec, f.name) for f in dataclasses.fields(ToolSpec)}
    assert spec == ToolSpec(**values) and vars(spec) == vars(ToolSpec(**values))
    assert vars(spec) == vars(_reference(ToolSpec)(**values))
    assert made == Reflection(made.function, spec, made.params)
    assert vars(made) == vars(_reference(Reflection)(made.function, spec, made.params))
    assert made == dataclasses.replace(made) and spec.to_openai() == ToolSpec(**values).to_openai()
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.name = "other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.spec = spec  # type: ignore[misc]


def test_the_written_out_constructors_take_every_field_in_order():
    assert list(inspect.signature(ToolSpec._of).parameters) == [f.name for f in dataclasses.fields(ToolSpec)]
    init = list(inspect.signature(Reflection.__init__).parameters)[1:]
    assert init == [f.name for f in dataclasses.fields(Reflection)]
    spec = ToolSpec._of("t", "d", None, {}, ReturnBehavior.TO_LLM)
    assert spec == ToolSpec("t", "d") and spec.parameters is None
