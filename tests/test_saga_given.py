"""`toolkit.loop.saga.compensates` and `StaticProvider(dynamic=...)` given the wrong shapes.
`@compensates(reserve)` (the tool, not its name), `@compensates(3)` and a bare `@compensates` were taken and
matched nothing; `compensates("reserve")(3)` was a raw `AttributeError`; `StaticProvider([...], dynamic="no")`
made a dynamic provider (a non-empty str is true). Each is a `ToolDefinitionError` where it is written."""

import pytest

from toolkit.errors import ToolDefinitionError
from toolkit.loop.saga import compensates
from toolkit.loop.sources import StaticProvider
from toolkit.tools.decorator import tool


@tool
def reserve(sku: str) -> str:
    """Reserve stock."""
    return "reserved"


def error_of(make):
    with pytest.raises(ToolDefinitionError) as caught:
        make()
    return str(caught.value)


def test_compensates_takes_the_tools_name():
    assert error_of(lambda: compensates(reserve)) == (
        "@compensates(the function reserve): it takes the name of the tool whose action it undoes, as a str. "
        "Fix: name the tool: @compensates('reserve')"
    )
    assert error_of(lambda: compensates("")) == (
        "@compensates(''): it takes the name of the tool whose action it undoes, as a str. Fix: name the tool: "
        "@compensates('reserve_stock') above def undo(execution): ..."
    )


def test_compensates_marks_a_function():
    assert error_of(lambda: compensates("reserve")(3)) == (
        "@compensates('reserve'): it marks a function (the action that undoes 'reserve'), and got an int. "
        "Fix: put it above a def: @compensates('reserve') then def undo(execution): ..."
    )


def test_dynamic_is_a_bool():
    assert error_of(lambda: StaticProvider([reserve], dynamic="no")) == (
        "StaticProvider(..., dynamic='no'): dynamic is True (asked before every model request) or False (once per "
        "call), not a str. Fix: pass dynamic=True or dynamic=False"
    )
    assert StaticProvider([reserve], dynamic=True).dynamic is True
