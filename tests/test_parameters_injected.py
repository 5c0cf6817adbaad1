"""Injected parameters (`Annotated[..., MemoryId]`, `InvocationContext`) as LangChain4j's rules have
them: the loop fills them, so a default is meaningless, and the marker belongs in `Annotated`."""

from typing import Annotated, Optional

import pytest
import typing_extensions

from toolkit.chat.messages import ToolCall
from toolkit.errors import ToolDefinitionError
from toolkit.tools.decorator import InvocationContext, MemoryId, Param, tool
from toolkit.tools.execute import tools_from


def _refusal(fn) -> str:
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(fn)
    return str(caught.value).split(", parameter ", 1)[1]


def test_a_default_on_an_injected_parameter_is_refused_at_registration():
    """Seed 000 (LangChain4j tool internals), section 3.2, `validateToolParameters`: "`@P(defaultValue=...)`
    on `@ToolMemoryId` and other framework parameters" is refused at startup, because "framework parameters
    are not filled by the model, so a default is meaningless". Here `memory: Annotated[str, MemoryId] =
    "guest"` registered, and the loop passed None without a memory: the tool never saw "guest"."""

    @tool
    def remember(note: str, memory: Annotated[str, MemoryId] = "guest") -> str:
        """Remember a note."""
        return f"{memory}: {note}"

    @tool
    def inspect_call(ctx: InvocationContext = InvocationContext(memory_id="m"), n: int = 1) -> str:
        """Inspect the call."""
        return str(ctx.memory_id)

    assert [_refusal(remember), _refusal(inspect_call)] == [
        "'memory': the loop fills it (the memory id, None without a memory), so its default 'guest' is never "
        "used. Fix: remove the default, or write `= None` to call the function directly",
        "'ctx': the loop fills it (the invocation context), so its default InvocationContext(memory_id='m', "
        "parameters={}, tool_call=None, turn=0) is never used. Fix: remove the default, or write `= None` "
        "to call the function directly",
    ]


def test_none_as_an_injected_parameter_s_default_keeps_the_function_callable_directly():
    """`= None` is Python's way to call the function outside the loop: kept, and the loop still fills it."""

    @tool
    def remember(note: str, memory: Annotated[Optional[str], MemoryId] = None) -> str:
        """Remember a note."""
        return f"{memory}: {note}"

    [made] = tools_from(remember)
    assert list(made.spec.parameters["properties"]) == ["note"]
    context = InvocationContext(memory_id="u1")
    call = ToolCall(id="c1", name="remember", arguments='{"note": "hi"}')
    assert made.execute(call, context).content == "u1: hi"
    assert remember("hi") == "None: hi"


def test_a_marker_written_as_the_type_says_to_put_it_in_annotated():
    """`memory: MemoryId` (by analogy with `ctx: InvocationContext`, which is a type) said "pydantic
    cannot describe MemoryId as JSON Schema ... Fix: use a JSON-friendly type: str, int, ...", which
    points away from the fix; so did `x: Param("...")`. The marker goes into `Annotated`."""

    @tool
    def bare(memory: MemoryId) -> str:  # type: ignore[valid-type]
        """Bare."""
        return "ok"

    @tool
    def optional(memory: Optional[MemoryId] = None) -> str:  # type: ignore[valid-type]
        """Optional."""
        return "ok"

    @tool
    def param(city: Param("the city")) -> str:  # type: ignore[valid-type]
        """Param."""
        return city

    assert [_refusal(bare), _refusal(optional), _refusal(param)] == [
        "'memory': MemoryId is a marker, not a type, so the model would be asked for it. "
        "Fix: write the type and the marker in Annotated: `memory: Annotated[str, MemoryId]`",
        "'memory': MemoryId is a marker, not a type, so the model would be asked for it. "
        "Fix: write the type and the marker in Annotated: `memory: Annotated[str, MemoryId]`",
        "'city': Param('the city') is a marker, not a type, so the model would be asked for it. "
        "Fix: write the type and the marker in Annotated: `city: Annotated[str, Param('the city')]`",
    ]


_Quantity = typing_extensions.TypeAliasType("_Quantity", Annotated[int, Param("How many, 1 or more")])
_Conversation = typing_extensions.TypeAliasType("_Conversation", Annotated[str, MemoryId()])


def _remember(user: _Conversation, qty: _Quantity) -> str:
    """Remember."""
    return user


def test_a_marker_inside_a_type_alias_is_read_as_written_in_place():
    """`type Conversation = Annotated[str, MemoryId()]` (or `TypeAliasType`): the alias hid the
    marker, so pydantic dropped it without a word: the memory id became a parameter the model
    fills (any conversation's), and a Param's description was lost."""
    [made] = tools_from(_remember)
    assert made.spec.parameters == {
        "type": "object",
        "properties": {"qty": {"type": "integer", "description": "How many, 1 or more"}},
        "required": ["qty"],
        "additionalProperties": False,
    }


def test_a_marker_in_an_alias_inside_a_type_is_refused_as_one_written_there():
    def order(items: list[_Quantity]) -> str:
        """Order."""
        return ""

    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(order)
    assert str(caught.value).endswith(
        "parameter 'items': its Param is inside list[...], where it is not seen. Fix: put Param outermost, on "
        "the parameter's whole type: `Annotated[list[int], Param(...)]`"
    )


_Context = typing_extensions.TypeAliasType("_Context", InvocationContext)


def test_an_invocation_context_behind_a_type_alias_is_injected_not_asked_for():
    """`type Ctx = InvocationContext`: the alias hid the type, so the model was asked to send the
    whole context (its memory id among it) as an argument, and the loop's was never passed."""

    def whoami(ctx: _Context, x: int) -> str:
        """Who am I."""
        return f"{ctx.memory_id} {x}"

    [made] = tools_from(whoami)
    assert made.spec.parameters == {
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "required": ["x"],
        "additionalProperties": False,
    }
    call = ToolCall(id="c1", name="whoami", arguments='{"x": 1}')
    assert made.execute(call, InvocationContext(memory_id="alice")).content == "alice 1"
