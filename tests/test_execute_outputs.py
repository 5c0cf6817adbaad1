"""`ToolOutput` refuses fields the result message cannot carry where it is made
(`toolkit.tools.execute`): inside a tool, the call fails and the loop goes on. They used to pass,
and the result message then failed after the tool had run: a TypeError, ValueError or pydantic
ValidationError out of `execute` and out of the loop, whatever the policies."""

import pytest

from toolkit.chat.messages import ToolCall, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ToolDefinitionError
from toolkit.loop.run import run_loop
from toolkit.tools.decorator import tool
from toolkit.tools.execute import FEED_BACK_ALL, Tool, ToolOutput
from toolkit.tools.reflect import ToolSpec

FIX = 'Fix: give a dict with str keys, e.g. attributes={"source": "cache"}'


@pytest.mark.parametrize(
    "fields, text",
    [
        ({"attributes": None}, f"ToolOutput(...): attributes is None. {FIX}"),
        ({"attributes": "cache"}, f"ToolOutput(...): attributes is a str. {FIX}"),
        ({"attributes": {1: "a"}}, f"ToolOutput(...): attributes is a mapping with keys that are not str. {FIX}"),
        ({"is_error": "yes"}, "ToolOutput(...): is_error is a str, not a bool. Fix: give True or False"),
    ],
    ids=["none", "str", "int-keys", "is_error-str"],
)
def test_fields_a_result_cannot_carry_are_refused_where_the_output_is_made(fields, text):
    with pytest.raises(ToolDefinitionError) as caught:
        ToolOutput("rows", **fields)
    assert str(caught.value) == text
    made = Tool(ToolSpec("rows", "Rows."), lambda c, context: ToolOutput("rows", **fields))
    result = made.execute(ToolCall(id="c1", name="rows"), policies=FEED_BACK_ALL)
    assert (result.content, result.is_error) == (f"Tool 'rows' failed: {text}", True)


def test_a_loop_whose_tool_makes_a_bad_output_goes_on():
    @tool
    def rows() -> object:
        """Rows."""
        return ToolOutput([1, 2], attributes=None)

    result = run_loop(ScriptedModel([call("rows"), "done"]), [UserMessage(content="?")], tools=[rows])
    assert result.answer == "done" and result.new_messages[1].is_error


def test_attributes_are_recorded_as_they_were_when_the_tool_returned():
    """A tool that handed back its own dict as attributes and changed it later (a cache, a
    running list) changed the result already recorded in the trace and in memory; a store on
    disk kept what was written, so the two stores disagreed."""
    from toolkit.memory.windows import ChatMemory

    seen = {"hits": ["SN1"], "by": {"source": "cache"}}

    @tool
    def lookup(order: str) -> ToolOutput:
        """Look an order up."""
        return ToolOutput("found", attributes=seen)

    memory = ChatMemory("u1")
    result = run_loop(ScriptedModel([call("lookup", order="SN1"), "done"]), "q", tools=[lookup], memory=memory)
    seen["hits"].append("SN2")
    seen["by"]["source"] = "db"
    recorded = {"hits": ["SN1"], "by": {"source": "cache"}}
    assert result.executions[0].result.attributes == recorded
    assert [m.attributes for m in memory.messages() if m.role == "tool"] == [recorded]


def test_attributes_that_hold_themselves_are_copied_without_recursing_forever():
    loop = {"name": "loop"}
    loop["self"] = loop
    shared = [1]

    @tool
    def lookup(order: str) -> ToolOutput:
        """Look an order up."""
        return ToolOutput("found", attributes={"loop": loop, "a": shared, "b": shared})

    result = run_loop(ScriptedModel([call("lookup", order="SN1"), "done"]), "q", tools=[lookup])
    attributes = result.executions[0].result.attributes
    assert attributes["loop"]["self"] is attributes["loop"] and attributes["loop"] is not loop
    assert attributes["a"] is attributes["b"] == [1] and attributes["a"] is not shared
