"""`toolkit.tools.execute.tools_from` given the wrong shapes. `tools_from(f, strict="yes")` (or `"no"`, or
`1`) was taken as strict mode, since any non-empty str is true; it is a `ToolDefinitionError` naming the
fix, as `StaticProvider(dynamic="no")` is."""

import pytest

from toolkit.errors import ToolDefinitionError
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from


@tool
def lookup(order_id: str) -> str:
    """Look an order up."""
    return "shipped"


@pytest.mark.parametrize(
    ("strict", "shown", "kind"), [("no", "'no'", "a str"), (1, "1", "an int"), (None, "None", "None")]
)
def test_strict_is_a_bool(strict, shown, kind):
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(lookup, strict=strict)
    assert str(caught.value) == (
        f"tools_from(..., strict={shown}): strict is True (check every tool against OpenAI strict mode) or False "
        f"(the default), not {kind}. Fix: pass strict=True or strict=False"
    )


def test_a_bool_is_taken():
    assert [t.name for t in tools_from(lookup, strict=True)] == [t.name for t in tools_from(lookup)] == ["lookup"]


def test_execute_with_its_arguments_swapped_says_which_goes_first():
    """`execute(tools, call)` raised "'tuple' object has no attribute 'name'" from inside the lookup."""
    from toolkit.chat.messages import ToolCall
    from toolkit.errors import ConfigurationError
    from toolkit.tools.execute import execute

    tools = tools_from(lookup)
    call = ToolCall(id="c1", name="lookup", arguments='{"order_id": "A1"}')
    with pytest.raises(ConfigurationError) as caught:
        execute(tools, call)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "execute(call, tools) takes the ToolCall first, got a list. Fix: execute(call, tools), "
        "e.g. execute(ToolCall(id=..., name=..., arguments=...), [my_tool])"
    )
    assert execute(call, tools).content == "shipped"
