"""The peers' and LangChain4j's tool rules, compared line by line (round 6).

Positional-only parameters (`def f(a, /)`): pydantic-ai (`pydantic_ai/_function_schema.py`,
`function_schema`: `if p.kind == Parameter.POSITIONAL_ONLY: positional_fields.append(field_name)`, and
`FunctionSchema._call_args`: `args.append(args_dict.pop(positional_field))`) and the OpenAI Agents SDK
(`agents/function_schema.py`, `FuncSchema.to_call_args`: `POSITIONAL_ONLY ... positional_args.append(value)`)
both describe such a parameter by its name, as any other, and pass the model's value by position. So does
toolkit now; before, it refused the function at registration ("tool arguments arrive by name")."""

from typing import Annotated

import pytest

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ArgumentError, ConfigurationError, ToolDefinitionError
from toolkit.memory.windows import ChatMemory, MessageWindow, TokenWindow
from toolkit.tools.decorator import InvocationContext, Param, tool
from toolkit.tools.execute import function_tool, tools_from


def _area(width: int, height: int = 2, /, *, unit: str = "m") -> str:
    """Area of a rectangle.

    Args:
        width: Its width.
        height: Its height.
        unit: The unit of length.
    """
    return f"{width * height} {unit}²"


def test_positional_only_parameters_are_described_by_name_and_called_by_position():
    tool_ = function_tool(_area)
    assert tool_.spec.parameters == {
        "type": "object",
        "properties": {
            "width": {"type": "integer", "description": "Its width."},
            "height": {"type": "integer", "description": "Its height.", "default": 2},
            "unit": {"type": "string", "description": "The unit of length.", "default": "m"},
        },
        "required": ["width"],
        "additionalProperties": False,
    }
    run = tool_.execute
    assert run(ToolCall(id="1", name="_area", arguments='{"width": 3, "height": 4}')).content == "12 m²"
    assert run(ToolCall(id="2", name="_area", arguments='{"unit": "cm", "width": 3}')).content == "6 cm²"


def test_a_missing_positional_only_argument_is_the_usual_model_error():
    with pytest.raises(ArgumentError) as caught:
        function_tool(_area).execute(ToolCall(id="1", name="_area", arguments='{"height": 4}'))
    assert str(caught.value) == (
        "Invalid arguments for tool '_area':\n- width: missing, expected an integer\nFix the arguments and call _area again."
    )


class _Shop:
    def __init__(self) -> None:
        self.seen: list[object] = []

    def price(self, sku: Annotated[str, Param("The SKU", name="item")], context: InvocationContext, /) -> str:
        """Price of one item."""
        self.seen.append(context)
        return f"{sku}: 9.99"


def test_a_bound_method_renamed_and_injected_positional_only_parameters():
    shop = _Shop()
    tool_ = function_tool(shop.price)
    assert list(tool_.spec.parameters["properties"]) == ["item"]
    assert tool_.execute(ToolCall(id="1", name="price", arguments='{"item": "SN1"}')).content == "SN1: 9.99"
    assert len(shop.seen) == 1 and isinstance(shop.seen[0], InvocationContext)


def test_var_positional_is_still_refused_with_its_reason():
    def many(*cities: str) -> str:
        return ",".join(cities)

    with pytest.raises(ToolDefinitionError, match=r"\*cities cannot be filled from named JSON arguments"):
        function_tool(many)


# LangChain4j's MessageWindowChatMemory (langchain4j/src/main/java/dev/langchain4j/memory/chat/
# MessageWindowChatMemory.java at 000e2a7d: `appendMessage` and `ensureCapacity`), rule by rule.


def _memory(size: int) -> ChatMemory:
    return ChatMemory("peers6", window=MessageWindow(size))


def _shown(memory: ChatMemory) -> list[tuple[str, str]]:
    return [(type(m).__name__, str(m.content)) for m in memory.messages()]


def test_the_same_system_message_added_again_changes_nothing():
    """`appendMessage`: `if (systemMessage.get().equals(message)) return false; // do not add the same system
    message`."""
    memory = _memory(10)
    memory.add_all([SystemMessage(content="S"), UserMessage(content="q"), AssistantMessage(content="a")])
    memory.add(SystemMessage(content="S"))
    assert _shown(memory) == [("SystemMessage", "S"), ("UserMessage", "q"), ("AssistantMessage", "a")]


def test_a_new_system_message_replaces_the_old_one_and_stays_first():
    """`appendMessage`: the previous system message is removed and, "unless alwaysKeepSystemMessageFirst is set
    to true, the new SystemMessage is added to the end of the message list" (the class's javadoc). Here it is
    always first, LangChain4j's `alwaysKeepSystemMessageFirst(true)`: OpenAI-style chat templates read the
    system message first (`toolkit.memory.windows` says so)."""
    memory = _memory(10)
    memory.add_all([SystemMessage(content="S1"), UserMessage(content="q"), AssistantMessage(content="a")])
    memory.add(SystemMessage(content="S2"))
    assert _shown(memory) == [("SystemMessage", "S2"), ("UserMessage", "q"), ("AssistantMessage", "a")]


def test_an_evicted_tool_calling_reply_takes_its_results_with_it():
    """`ensureCapacity`: the system message is never evicted (`messageToEvictIndex = 1`), and when an AiMessage
    with tool requests leaves, "we have to automatically evict orphan ToolExecutionResultMessage(s)". Here
    eviction goes further, on purpose: up to the user's next message, so the kept conversation starts with the
    user's turn (LangChain4j, at 5 messages, keeps [S, call, result, a1, q2])."""
    memory = _memory(5)
    call = ToolCall(id="c1", name="get_order", arguments="{}")
    memory.add_all(
        [
            SystemMessage(content="S"),
            UserMessage(content="q1"),
            AssistantMessage(tool_calls=[call]),
            ToolResultMessage(tool_call_id="c1", content="r"),
            AssistantMessage(content="a1"),
            UserMessage(content="q2"),
        ]
    )
    assert _shown(memory) == [("SystemMessage", "S"), ("UserMessage", "q2")]


def test_a_window_too_small_for_one_round_is_refused_where_langchain4j_takes_any_size_above_zero():
    """LangChain4j: `ensureGreaterThanZero(maxMessages, "maxMessages")`; a window of 1-3 there evicts a tool
    call's AiMessage together with its results the moment they arrive, and the model never sees them."""
    with pytest.raises(ConfigurationError) as caught:
        MessageWindow(3)
    assert str(caught.value) == (
        "MessageWindow(3): too small to hold one round (system message, user message, a tool call and its "
        "result); use MessageWindow(4) or more"
    )


# LangChain4j's ToolSpecifications.java (langchain4j-core/.../agent/tool/ToolSpecifications.java at 02f1f747,
# `jsonSchemaElementFrom`): a `@P` value or description is read only when `isNotNullOrBlank`; a blank one is no
# description, and the parameter is described as if it had none.


@pytest.mark.parametrize("blank", ["   ", "\n\t"], ids=["spaces", "newline-tab"])
def test_a_blank_param_or_field_description_is_no_description(blank):
    from pydantic import Field

    def find(
        city: Annotated[str, Param(blank)],
        days: Annotated[int, Field(description=blank)],
        unit: Annotated[str, blank, Param("c or f")],
    ) -> str:
        """Find the forecast.

        Args:
            city: The city.
            days: How many days.
        """
        return city

    assert function_tool(find).spec.parameters["properties"] == {
        "city": {"type": "string", "description": "The city."},
        "days": {"type": "integer", "description": "How many days."},
        "unit": {"type": "string", "description": "c or f"},
    }


def test_a_blank_tool_description_gives_way_to_the_docstring_as_an_empty_one_does():
    """`@tool("")` already read the docstring's summary; `@tool("  ")` sent "  " as the tool's description."""

    @tool("  ")
    def find(city: str) -> str:
        """Find the forecast."""
        return city

    class Finder:
        """Find the forecast."""

        def __call__(self, city: str) -> str:
            return city

    assert function_tool(find).spec.description == "Find the forecast."
    assert tools_from(tool(Finder(), description=" \n"))[0].spec.description == "Find the forecast."


def test_a_question_longer_than_the_token_window_is_kept_where_langchain4j_evicts_it():
    """LangChain4j's TokenWindowChatMemory (`ensureCapacity`, by the same rules as MessageWindowChatMemory's) evicts
    until the count fits, the newest message included ("Messages are indivisible. If a message doesn't fit, it is
    evicted completely"): here [S, q1, a1, a 15-token question] in 10 tokens leaves [S] there, and the model would
    answer a question it never sees. Here the current turn is never cut (`toolkit.memory.windows`)."""
    memory = ChatMemory("peers6-tokens", window=TokenWindow(10, count=lambda m: len(str(m.content or ""))))
    memory.add_all([SystemMessage(content="SSSS"), UserMessage(content="q1"), AssistantMessage(content="a1")])
    memory.add(UserMessage(content="a long question"))
    assert _shown(memory) == [("SystemMessage", "SSSS"), ("UserMessage", "a long question")]
