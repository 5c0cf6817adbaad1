"""Executing calls: result to text, injected parameters, the three error channels (defaults and
overrides, exact texts), hand-written tools, and collecting tools with `tools_from`."""

import datetime
import enum
import json
import math
import sys
from typing import Annotated, Any

import pytest
import tool_fixtures as F
from freed import Raised, without_the_collector
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from toolkit.chat.messages import ToolCall, ToolResultMessage
from toolkit.errors import ArgumentError, ToolDefinitionError, ToolExecutionError, UnknownToolError
from toolkit.tools.decorator import InvocationContext, MemoryId, tool
from toolkit.tools.execute import (
    FEED_BACK_ALL,
    Policies,
    Tool,
    execute,
    function_tool,
    raise_error,
    report_argument_error,
    report_unknown_tool,
    run_call,
    tools_from,
)
from toolkit.tools.reflect import ToolSpec
from toolkit.tools.result_text import to_text

HERE = __name__


def call(name: str, arguments: Any = None, id: str = "call_1") -> ToolCall:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments or {})
    return ToolCall(id=id, name=name, arguments=text)


# --- result to text -----------------------------------------------------------------------


class Colour(enum.Enum):
    RED = "red"


class Parcel(BaseModel):
    city: str
    sent: datetime.date


@pytest.mark.parametrize(
    "value, text",
    [
        (None, "Success"),
        ("运输中", "运输中"),
        ("", ""),
        (3, "3"),
        (2.5, "2.5"),
        (True, "true"),
        ([1, "a"], '[1, "a"]'),
        ({"状态": "运输中"}, '{"状态": "运输中"}'),
        (Parcel(city="杭州", sent=datetime.date(2026, 10, 20)), '{"city": "杭州", "sent": "2026-10-20"}'),
        ([Parcel(city="A", sent=datetime.date(2026, 1, 1))], '[{"city": "A", "sent": "2026-01-01"}]'),
        (Colour.RED, '"red"'),
        (datetime.datetime(2026, 10, 20, 9, 30), '"2026-10-20T09:30:00"'),
    ],
)
def test_to_text(value, text):
    assert to_text(value) == text


def test_a_result_json_cannot_write_is_its_str_and_the_call_succeeded():
    @tool("Returns something odd.")
    def odd() -> object:
        return object()

    result = function_tool(odd).execute(call("odd"))
    assert not result.is_error and result.content == "<object object>"  # its str(), without the address


# --- executing ----------------------------------------------------------------------------


def test_success_result_message():
    result = function_tool(F.query_order).execute(call("query_order", {"orderId": "SN1"}, id="c7"))
    assert result == ToolResultMessage(tool_call_id="c7", tool_name="query_order", content="order SN1: shipped")


def test_injected_memory_id_and_context_are_filled_by_the_loop():
    seen = {}

    @tool("Remember who asked.")
    def who(q: str, memory: Annotated[str, MemoryId], ctx: InvocationContext) -> str:
        seen.update(q=q, memory=memory, ctx=ctx)
        return "ok"

    context = InvocationContext(memory_id="user-42", parameters={"tenant": "shop-1"})
    function_tool(who).execute(call("who", {"q": "x"}, id="c9"), context)
    assert seen["memory"] == "user-42" and seen["ctx"].parameters == {"tenant": "shop-1"}
    assert seen["ctx"].tool_call == call("who", {"q": "x"}, id="c9")
    assert context.tool_call is None  # the caller's context is not modified


def test_without_context_memory_id_is_none():
    result = function_tool(F.query_logistics).execute(call("query_logistics", {"orderId": "SN1"}))
    assert json.loads(result.content)["asked_by"] is None


def test_bound_methods_get_their_instance():
    desk = F.SupportDesk("Ann")
    tools = {t.name: t for t in tools_from(desk)}
    assert sorted(tools) == ["desk_status", "hand_over", "opening_hours"]
    assert tools["hand_over"].execute(call("hand_over", {"reason": "angry"})).content == "Ann takes over: angry"
    assert tools["desk_status"].execute(call("desk_status")).content == "Ann is online"
    assert tools["desk_status"].spec.description == "Whether the human support desk is open now."
    assert tools["opening_hours"].execute(call("opening_hours")).content == "09:00-21:00"


# --- the three error channels ---------------------------------------------------------------

TOOLS = [function_tool(F.query_order), function_tool(F.get_weather)]


def test_unknown_tool_raises_by_default():
    with pytest.raises(UnknownToolError) as info:
        execute(call("get_wether", {"city": "x"}), TOOLS)
    assert str(info.value) == "There is no tool named 'get_wether'. Available tools: get_weather, query_order."
    assert info.value.available == ["get_weather", "query_order"] and info.value.tool_name == "get_wether"


def test_unknown_tool_can_be_fed_back():
    result = execute(call("get_wether", id="c2"), TOOLS, policies=Policies(unknown_tool=report_unknown_tool))
    assert result == ToolResultMessage(
        tool_call_id="c2",
        tool_name="get_wether",
        is_error=True,
        content="There is no tool named 'get_wether'. Available tools: get_weather, query_order.",
    )
    assert execute(call("x"), {}, policies=FEED_BACK_ALL).content == (
        "There is no tool named 'x'. Available tools: (none)."
    )


def test_argument_error_raises_by_default():
    with pytest.raises(ArgumentError) as info:
        execute(call("get_weather", {"city": "Oslo", "days": 27.5}), TOOLS)
    assert str(info.value) == (
        "Invalid arguments for tool 'get_weather':\n"
        "- days: got 27.5, expected an integer\n"
        "Fix the arguments and call get_weather again."
    )


def test_argument_error_can_be_fed_back():
    result = execute(
        call("query_order", {"orderId": "SN1", "refundAmount": 2999}),
        TOOLS,
        policies=Policies(argument_error=report_argument_error),
    )
    assert result.is_error and result.content == (
        "Invalid arguments for tool 'query_order':\n"
        "- refundAmount: unknown field (got 2999), valid fields: orderId\n"
        "Fix the arguments and call query_order again."
    )


@tool("Reads the order database.")
def flaky(order_id: str) -> str:
    raise ConnectionError("cannot reach postgres://shop:hunter2@db.internal:5432/orders (password=hunter2)")


def test_execution_error_goes_back_to_the_model_sanitised():
    result = execute(call("flaky", {"order_id": "SN1"}, id="c3"), [function_tool(flaky)])
    assert result == ToolResultMessage(
        tool_call_id="c3",
        tool_name="flaky",
        is_error=True,
        content="Tool 'flaky' failed: ConnectionError: cannot reach postgres://[REDACTED]@db.internal:5432/orders (password=[REDACTED])",
    )


def test_execution_error_can_stop_the_loop():
    with pytest.raises(ToolExecutionError) as info:
        execute(
            call("flaky", {"order_id": "SN1"}), [function_tool(flaky)], policies=Policies(execution_error=raise_error)
        )
    assert isinstance(info.value.__cause__, ConnectionError)
    assert str(info.value) == (
        "Tool 'flaky' failed: ConnectionError: cannot reach postgres://[REDACTED]@db.internal:5432/orders (password=[REDACTED])"
    )


def test_custom_policies_receive_the_error_and_the_call():
    seen = []

    def polite(error: Exception, c: ToolCall) -> str:
        seen.append((type(error).__name__, c.id))
        return f"sorry: {c.name}"

    policies = Policies(polite, polite, polite)
    assert execute(call("nope", id="a"), TOOLS, policies=policies).content == "sorry: nope"
    assert execute(call("query_order", "{bad", id="b"), TOOLS, policies=policies).content == "sorry: query_order"
    assert execute(call("flaky", {"order_id": "1"}, id="c"), [function_tool(flaky)], policies=policies).is_error
    assert seen == [("UnknownToolError", "a"), ("ArgumentError", "b"), ("ToolExecutionError", "c")]


def test_a_failure_fed_back_is_freed_without_the_garbage_collector():
    """No reference cycle holds a tool's exception once its text went back: the exception, its
    traceback and the frames it reaches go when the result does (a cycle would keep the loop's
    frames until the garbage collector ran)."""
    raised = Raised()

    @tool("Always fails.")
    def broken(order_id: str) -> None:
        raise raised.error("cannot reach the shop")

    with without_the_collector():
        for policies in (Policies(), FEED_BACK_ALL):
            result = execute(call("broken", {"order_id": "SN1"}), [function_tool(broken)], policies=policies)
            assert result.content == "Tool 'broken' failed: ShopDown: cannot reach the shop"
            assert len(raised.refs) == 1 + (policies is FEED_BACK_ALL) and raised.alive() == []


def test_exception_without_message_shows_its_class():
    @tool("Always fails.")
    def broken() -> None:
        raise RuntimeError()

    assert function_tool(broken).execute(call("broken")).content == "Tool 'broken' failed: RuntimeError"


# --- hand-written tools ---------------------------------------------------------------------

SPEC = ToolSpec.from_openai(
    {
        "type": "function",
        "function": {
            "name": "query_stock",
            "description": "Units in stock for a SKU.",
            "parameters": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]},
        },
    }
)


def stock_executor(c: ToolCall, context: InvocationContext) -> Any:
    args = json.loads(c.arguments)
    if "sku" not in args:
        raise ArgumentError(c.name, [])
    return {"sku": args["sku"], "units": 3, "asked_by": context.memory_id}


def test_hand_written_spec_and_executor():
    stock = Tool(SPEC, stock_executor)
    result = stock.execute(call("query_stock", {"sku": "PH-1"}), InvocationContext(memory_id="u1"))
    assert result.content == '{"sku": "PH-1", "units": 3, "asked_by": "u1"}'
    assert stock.function is None and stock.name == "query_stock"
    assert tools_from(stock, F.query_order)[0] is stock
    with pytest.raises(ArgumentError):  # its ArgumentError uses the argument channel
        stock.execute(call("query_stock", {}))


# --- collecting tools -----------------------------------------------------------------------


def test_tools_from_functions_objects_modules_and_tools():
    names = [t.name for t in tools_from(F.query_order, F.SupportDesk("Bo"), Tool(SPEC, stock_executor))]
    assert names == ["query_order", "hand_over", "desk_status", "opening_hours", "query_stock"]
    assert sorted(t.name for t in tools_from(F)) == sorted(f.__name__ for f in F.FUNCTIONS)


def test_undecorated_function_uses_its_docstring():
    def lookup(order_id: str) -> str:
        """Look an order up."""
        return order_id

    assert tools_from(lookup)[0].spec.description == "Look an order up."


def test_duplicate_names_are_a_registration_error():
    @tool(name="query_order")
    def legacy(order_id: str) -> str:
        """Old lookup."""
        return ""

    with pytest.raises(ToolDefinitionError) as info:
        tools_from(F.query_order, legacy)
    assert str(info.value) == (
        f"@tool {HERE}.test_duplicate_names_are_a_registration_error.<locals>.legacy: the tool name "
        "'query_order' is already used by @tool tool_fixtures.query_order. "
        "Fix: give one of them another name, e.g. @tool(name=...)"
    )
    with pytest.raises(ToolDefinitionError) as info:
        tools_from(Tool(SPEC, stock_executor), Tool(SPEC, stock_executor))
    assert str(info.value) == (
        "tool 'query_stock': the tool name 'query_stock' is already used by "
        "another tool. Fix: give one of them another name, e.g. @tool(name=...)"
    )


def test_a_class_is_not_a_tool_source():
    with pytest.raises(ToolDefinitionError) as info:
        tools_from(F.SupportDesk)
    assert str(info.value) == (
        "tools_from(SupportDesk): a class is not a tool source; its @tool methods need an instance to "
        "be bound to. Fix: pass an instance, e.g. tools_from(SupportDesk())"
    )


def test_an_object_without_tools():
    with pytest.raises(ToolDefinitionError) as info:
        tools_from(Parcel(city="x", sent=datetime.date(2026, 1, 1)))
    assert str(info.value) == (
        "tools_from(Parcel object): Parcel has no @tool methods. "
        "Fix: decorate its tool methods with @tool, or pass functions"
    )


def test_strict_registration_checks_every_tool():
    assert len(tools_from(*[f for f in F.FUNCTIONS if f.__name__ not in F.NOT_STRICT], strict=True)) == 12
    with pytest.raises(ToolDefinitionError, match="label_orders, parameter 'labels'"):
        tools_from(F.label_orders, strict=True)


def test_execute_accepts_a_mapping_of_tools():
    by_name = {t.name: t for t in TOOLS}
    assert execute(call("query_order", {"orderId": "SN2"}), by_name).content == "order SN2: shipped"


def test_module_tools_are_only_those_defined_in_it():
    import types

    module = types.ModuleType("shop_tools")
    module.query_order = F.query_order  # imported, not defined here
    assert tools_from(module) == []
    sys.modules.pop("shop_tools", None)


def test_an_executor_can_return_attributes_and_its_own_error_flag():
    from toolkit.chat.messages import ToolCall
    from toolkit.tools.execute import Tool, ToolOutput
    from toolkit.tools.reflect import ToolSpec

    found = Tool(ToolSpec("finder"), lambda call, ctx: ToolOutput(["a", "b"], {"found_tools": ["a", "b"]}))
    result = found.execute(ToolCall(id="c1", name="finder", arguments="{}"))
    assert (result.content, result.attributes, result.is_error) == ('["a", "b"]', {"found_tools": ["a", "b"]}, False)
    refused = Tool(ToolSpec("finder"), lambda call, ctx: ToolOutput("terms must not be empty", is_error=True))
    result = refused.execute(ToolCall(id="c2", name="finder", arguments="{}"))
    assert (result.content, result.attributes, result.is_error) == ("terms must not be empty", {}, True)


def test_run_call_reports_the_channel_and_what_a_policy_raised():
    """The loop learns each call's error channel from the outcome itself (no side dictionary)."""

    @tool("ok")
    def fine(n: int) -> str:
        return str(n)

    tools = tools_from(fine)
    assert run_call(ToolCall(id="1", name="fine", arguments='{"n": 1}'), tools).error_kind is None
    fed = run_call(ToolCall(id="2", name="fine", arguments='{"n": "x"}'), tools, policies=FEED_BACK_ALL)
    assert (fed.error_kind, fed.raised, fed.result.is_error) == ("argument", None, True)
    raised = run_call(ToolCall(id="3", name="nope"), tools, policies=Policies())
    assert raised.error_kind == "unknown_tool" and isinstance(raised.raised, UnknownToolError)
    assert raised.result.content == str(raised.raised) and raised.result.is_error
    with pytest.raises(UnknownToolError):
        raised.unwrap()


def test_decimal_results_are_json_numbers():
    """LangChain4j DefaultToolExecutorTest (a BigDecimal result is serialised as a number, `4`)."""
    import decimal

    from pydantic import BaseModel

    class Price(BaseModel):
        amount: decimal.Decimal
        currency: str = "CNY"

    assert to_text(decimal.Decimal("4")) == "4"
    assert to_text([decimal.Decimal("1234567890.123456789")]) == "[1234567890.123456789]"
    assert to_text(Price(amount=decimal.Decimal("2.50"))) == '{"amount": 2.50, "currency": "CNY"}'
    assert to_text({"x": decimal.Decimal("NaN")}) == '{"x": "NaN"}'  # not a JSON number: stays a string
    assert to_text({"s": "\x00decimal-0\x00"}) == '{"s": "\\u0000decimal-0\\u0000"}'


def test_a_function_becomes_one_tool_reused_by_every_call_until_reflection_is_cleared():
    from toolkit.tools import reflect
    from toolkit.tools.decorator import tool

    @tool("Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    first = tools_from(add)[0]
    assert tools_from(add)[0] is first  # the loop builds its tools every call: no new reflection work
    reflect.clear_cache()
    again = tools_from(add)[0]
    assert again is not first and again.spec == first.spec


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.integers(), st.floats(allow_nan=True, allow_infinity=True), st.booleans()))
def test_a_number_or_bool_is_written_as_the_general_path_writes_it(value):
    """`to_text` writes an int, float or bool with `json.dumps` at once; the general path
    (pydantic's `to_jsonable_python`, then `json.dumps`, NaN and infinities as strings) gives
    the same text."""
    assert to_text(value) == to_text([value])[1:-1]
    if not isinstance(value, float) or math.isfinite(value):
        assert to_text(value) == json.dumps(to_jsonable_python(value), ensure_ascii=False)


def test_number_subclasses_take_the_general_path():
    class Level(enum.IntEnum):
        HIGH = 3

    assert to_text(Level.HIGH) == "3"


class _Colour(enum.Enum):
    RED = "red"


class _Level(enum.IntEnum):
    HIGH = 3


class _Tag(str):
    pass


class _Line(BaseModel):
    sku: str
    qty: Any = 1


class _Order(BaseModel):
    total: Any
    lines: list[_Line]
    extra: dict[str, Any] = {}
    note: Any = None


def _leaves():
    import decimal

    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=8),
        st.decimals(allow_nan=True, allow_infinity=True, places=3),
        st.sampled_from([_Colour.RED, _Level.HIGH, _Tag("t"), datetime.date(2026, 1, 2), decimal.Decimal("1E+3")]),
    )


def _keys():
    return st.one_of(st.text(max_size=4), st.sampled_from([1, 2, "1", 1.5, True, None, _Tag("k"), _Level.HIGH]))


_values = st.recursive(
    _leaves(),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_keys(), inner, max_size=4),
        st.builds(_Line, sku=st.text(max_size=3), qty=inner),
    ),
    max_leaves=12,
)


def _outcome(write, value):
    try:
        return write(value)
    except Exception as exc:  # both paths must fail alike (to_text then writes str(value))
        return type(exc)


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.lists(_values, max_size=4), st.dictionaries(_keys(), _values, max_size=4), _values))
def test_the_json_native_shortcut_writes_what_the_full_path_writes(value):
    from toolkit.tools.result_text import _json_text, _marked_json_text

    assert _outcome(_json_text, value) == _outcome(_marked_json_text, value)


@settings(max_examples=300, deadline=None)
@given(_values, st.lists(st.builds(_Line, sku=st.text(max_size=3), qty=_values), max_size=3), _values)
def test_a_model_result_is_written_as_the_full_path_writes_it(total, lines, note):
    from toolkit.tools.result_text import _json_text, _marked_json_text

    order = _Order(total=total, lines=lines, extra={"a": note}, note=note)
    assert _outcome(_json_text, order) == _outcome(_marked_json_text, order)


def test_many_decimals_are_written_as_numbers_in_one_pass():
    """Each `Decimal` is written as a JSON number (its digits) wherever it is, as before; the
    markers are replaced in one pass (a `replace` over the whole text per Decimal: quadratic)."""
    import decimal
    import json

    from toolkit.tools.result_text import to_text

    rows = [
        {"sku": f"A{i}", "price": decimal.Decimal(f"{i}.10"), "tags": [decimal.Decimal("1E+2")]} for i in range(300)
    ]
    assert json.loads(to_text(rows), parse_float=decimal.Decimal) == [
        {"sku": f"A{i}", "price": decimal.Decimal(f"{i}.10"), "tags": [100]} for i in range(300)
    ]
    assert '"price": 7.10' in to_text(rows)


@pytest.mark.parametrize(
    "problems, text",
    [
        (
            "sku is required, e.g. PH-1",
            "Invalid arguments for tool 'query_stock':\n- arguments: refused: sku is required, e.g. PH-1\n"
            "Fix the arguments and call query_stock again.",
        ),
        (
            [],
            "Invalid arguments for tool 'query_stock':\n- arguments: refused (the tool gave no reason)\n"
            "Fix the arguments and call query_stock again.",
        ),
        (  # a list of reasons: the constructor failed, and the model read "AttributeError: 'str' object has no ..."
            ["sku is required", "warehouse must be one of 'north', 'south'"],
            "Invalid arguments for tool 'query_stock':\n- arguments: refused: sku is required\n"
            "- arguments: refused: warehouse must be one of 'north', 'south'\n"
            "Fix the arguments and call query_stock again.",
        ),
        (
            ("sku is required", " "),
            "Invalid arguments for tool 'query_stock':\n- arguments: refused: sku is required\n"
            "- arguments: refused (the tool gave no reason)\nFix the arguments and call query_stock again.",
        ),
    ],
    ids=["reason-as-text", "no-problems", "reasons-as-text", "a-tuple-of-reasons"],
)
def test_a_hand_written_executors_argument_error_tells_the_model_what_was_wrong(problems, text):
    """`ArgumentError(name, "reason")` (LangChain4j's `ToolArgumentsException(message)`) failed in
    its own constructor, so the model read "Tool 'query_stock' failed: AttributeError: 'str' object
    has no attribute 'line'"; with no problems it read an empty list of them."""

    def executor(c: ToolCall, context: InvocationContext) -> Any:
        raise ArgumentError(c.name, problems)

    result = Tool(SPEC, executor).execute(call("query_stock", {}), policies=FEED_BACK_ALL)
    assert (result.content, result.is_error) == (text, True)
    error = ArgumentError("query_stock", problems)
    assert (error.field, error.received) == ("arguments", "")


def test_a_tool_keeps_its_parameters_validators_until_the_cache_is_cleared(monkeypatch):
    """The executor looks each parameter's validator up once (`coerce_visible`'s `validators`),
    and again after `coercion.clear_cache`: none kept from before the clear is used after it."""
    from toolkit.tools import coercion

    @tool("Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    (found,) = tools_from(add)
    call = ToolCall(id="c1", name="add", arguments='{"a": 1, "b": 2}')
    assert found.execute(call).content == "3"
    built: list[object] = []
    real = coercion._build
    monkeypatch.setattr(coercion, "_build", lambda annotation: built.append(annotation) or real(annotation))
    assert found.execute(call).content == "3"
    assert built == []  # kept: not looked up again
    coercion.clear_cache()
    assert found.execute(call.model_copy(update={"arguments": '{"a": "4", "b": 5}'})).content == "9"
    assert built == [int]  # looked up again after the clear (built once: b finds a's)
