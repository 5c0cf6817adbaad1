"""Tools given the wrong way, as learners give them: each one developer error naming the fix.

- `tools=(t for t in ...)`: a generator passed `check_collection` (it is iterable), and the first
  look at it used it up: `run_loop` sent the model no tools and `ai_service` had none after its
  creation, without a word. Providers given so were lost the same way.
- `tools=["query_order"]` (the name) or `tools=[query_order("SN1")]` (a call's result, a str or
  None): "str has no @tool methods. Fix: decorate its tool methods with @tool" pointed at a class.
- `tools=[query_order, query_order]`, or the same function in `tools=` and in a provider: "the
  tool name ... is already used by" the same function, "Fix: give one of them another name"."""

from __future__ import annotations

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel
from toolkit.errors import ConfigurationError, ToolDefinitionError
from toolkit.loop.run import run_loop
from toolkit.loop.sources import StaticProvider, build_context
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from


@tool
def query_order(order_id: str) -> str:
    """Look up an order."""
    return f"{order_id}: shipped"


@tool
def cancel_order(order_id: str) -> str:
    """Cancel an order."""
    return f"{order_id}: cancelled"


def test_a_generator_of_tools_is_refused_before_it_is_used_up():
    model = ScriptedModel(["hi"])
    with pytest.raises(ToolDefinitionError) as caught:
        run_loop(model, [UserMessage(content="hi")], tools=(t for t in [query_order, cancel_order]))
    assert str(caught.value) == (
        "tools=generator object: tools= takes a list, and got a generator, which can be read only once: the first "
        "look at it would use it up, and the tools would be gone without a word. "
        "Fix: make it a list: tools=list(...) or tools=[t for t in ...]"
    )
    assert model.requests == []


def test_a_generator_of_providers_is_refused_too():
    with pytest.raises(ToolDefinitionError) as caught:
        build_context(providers=iter([StaticProvider([query_order])]))
    assert str(caught.value).startswith(
        "providers=list_iterator object: providers= takes a list, and got a list_iterator, which can be read only once"
    )


def test_a_list_and_a_tuple_still_give_their_tools():
    assert list(build_context(tools=(query_order, cancel_order)).available) == ["query_order", "cancel_order"]


def test_a_tools_name_instead_of_the_tool_says_to_pass_the_function():
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from("query_order")
    assert str(caught.value) == (
        "tools_from(str object): 'query_order' is a str, not a tool: tools are given as the functions themselves, "
        "not their names. Fix: pass the function: tools=[query_order], not tools=['query_order']"
    )


@pytest.mark.parametrize(
    "value, where, shown",
    [(None, "None", "None"), (42, "int object", "42 (an int)"), (2.5, "float object", "2.5 (a float)")],
)
def test_a_calls_result_instead_of_the_tool_says_to_pass_the_function(value, where, shown):
    with pytest.raises(ToolDefinitionError) as caught:
        build_context(tools=[query_order, value])
    assert str(caught.value) == (
        f"tools_from({where}): {shown} is not a tool: tools are given as the functions themselves, not what a call "
        "of one returned. Fix: pass the function, not a call of it: tools=[query_order], not tools=[query_order(...)]"
    )


def test_a_long_text_result_is_shown_short():
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(query_order("SN1 " * 30))
    assert str(caught.value).startswith("tools_from(str object): 'SN1 SN1 SN1 SN1 SN1 SN1 SN1 SN1 SN1 SN1 SN1 SN1 SN")
    assert "Fix: pass the function: tools=[query_order]" in str(caught.value)


def test_one_function_given_twice_says_to_give_it_once():
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(query_order, cancel_order, query_order)
    assert str(caught.value) == (
        f"@tool {__name__}.query_order: it is given twice (a tool name, here 'query_order', is used once in a call). "
        "Fix: give it once (two instances of one class give the same tools: pass one of them)"
    )


def test_two_functions_of_one_name_still_say_to_rename_one():
    @tool(name="query_order")
    def legacy(order_id: str) -> str:
        """Old lookup."""
        return ""

    with pytest.raises(ToolDefinitionError, match=r"is already used by @tool .*query_order\. Fix: give one of them"):
        tools_from(query_order, legacy)


def test_one_function_defined_again_says_to_pass_the_newest_definition():
    """A notebook cell defining a tool run again while a list kept the old definition: the error
    read "the tool name 'query_order' is already used by @tool m.query_order" (its own name) and said
    to rename one of them."""

    def define():
        @tool("Look up an order.")
        def query_order(order_id: str) -> str:
            return ""

        return query_order

    old, new = define(), define()
    with pytest.raises(ToolDefinitionError) as caught:
        run_loop(ScriptedModel(["hi"]), [UserMessage(content="hi")], tools=[old, new])
    label = f"@tool {__name__}.test_one_function_defined_again_says_to_pass_the_newest_definition.<locals>.define"
    assert str(caught.value) == (
        f"{label}.<locals>.query_order: it is defined twice (its definition ran again, e.g. its cell, while the old "
        "one was kept); a tool name, here 'query_order', is used once in a call. Fix: pass only the newest "
        "definition (run the cell that lists the tools again)"
    )


def test_one_function_in_tools_and_in_a_provider_says_to_give_it_once():
    with pytest.raises(ConfigurationError) as caught:
        build_context([query_order], providers=[StaticProvider([query_order])])
    assert str(caught.value).startswith(
        f"tool 'query_order' (@tool {__name__}.query_order) is given twice, by two sources (tools=, a provider or "
        "the registry); give it once (tool names must be unique in a call)"
    )
