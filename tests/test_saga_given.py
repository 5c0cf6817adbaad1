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


def test_a_tool_object_given_as_a_compensation_is_named_not_dumped():
    """A `Tool` (from a registry, `function_tool`) in `LoopOptions(compensations=...)`: the error showed
    the Tool's whole repr, its executor's memory address in it, and no way to the fix."""
    from toolkit.errors import ConfigurationError
    from toolkit.loop.records import LoopOptions
    from toolkit.tools.execute import function_tool

    def release(sku: str) -> str:
        return "released"

    with pytest.raises(ConfigurationError) as caught:
        LoopOptions(compensate=True, compensations=(function_tool(release), "undo"))
    assert str(caught.value) == (
        "LoopOptions(compensations=(Tool('release'), 'undo')): the Tool 'release' is not a function; a compensation "
        "is the function that undoes a tool, marked @compensates('tool_name'), and the model never calls it: pass "
        "that function (release, marked), not a Tool"
    )
    with pytest.raises(ConfigurationError) as caught:
        LoopOptions(compensate=True, compensations=("undo",))
    assert str(caught.value) == (
        "LoopOptions(compensations=('undo',)): 'undo' is not a function; pass only @compensates functions"
    )
