import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.loop.saga import ToolExecution, compensates, compensations_from, rolled_back_text
from toolkit.loop.sources import ToolRegistry
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from
from toolkit.tools.reflect import ToolSpec

LOG = []


@tool("扣减库存")
def reserve_stock(sku: str, qty: int) -> str:
    LOG.append(("reserve", sku, qty))
    return f"reserved {qty} x {sku}"


@tool("扣款")
def charge(order_id: str, amount: int) -> str:
    LOG.append(("charge", order_id, amount))
    return f"charged {amount}"


@tool("发货")
def ship(order_id: str) -> str:
    raise RuntimeError("carrier down")


@compensates("reserve_stock")
def release_stock(sku: str, qty: int) -> None:
    LOG.append(("release", sku, qty))


@compensates("charge")
def refund(execution: ToolExecution) -> None:
    LOG.append(("refund", execution.call.name, execution.result.content))


@compensates("reserve_stock")
def release_broken(sku: str, qty: int) -> None:
    raise RuntimeError("warehouse api token=abc123 refused")


SCRIPT = [
    call("reserve_stock", sku="A1", qty=2, id="c1"),
    [call("charge", order_id="SN1", amount=99, id="c2"), call("ship", order_id="SN1", id="c3")],
    "抱歉，发货失败，已为你取消",
]
OPTIONS = LoopOptions(compensate=True, compensations=(release_stock, refund))
Q = [UserMessage(content="下单")]


def setup_function():
    LOG.clear()


def test_compensations_run_in_reverse_order_and_history_is_rewritten_everywhere():
    memory = ChatMemory()
    model = ScriptedModel(list(SCRIPT))
    result = run_loop(model, Q, tools=[reserve_stock, charge, ship], memory=memory, options=OPTIONS)
    assert LOG == [
        ("reserve", "A1", 2),
        ("charge", "SN1", 99),
        ("refund", "charge", "charged 99"),
        ("release", "A1", 2),
    ]
    by_id = {m.tool_call_id: m for m in memory.messages() if isinstance(m, ToolResultMessage)}
    assert (
        by_id["c1"].content
        == "Tool 'reserve_stock' was executed successfully but was rolled back due to failure of tool 'ship'"
    )
    assert by_id["c2"].content == rolled_back_text("charge", "ship")
    assert by_id["c1"].is_error and by_id["c2"].is_error and by_id["c3"].is_error
    # the model's next request saw the rewritten history, not "reserved"/"charged"
    seen = [m for m in model.requests[2].messages if isinstance(m, ToolResultMessage)]
    assert [m.content for m in seen][:2] == [
        rolled_back_text("reserve_stock", "ship"),
        rolled_back_text("charge", "ship"),
    ]
    assert [(e.tool, e.ok) for e in result.saga] == [("charge", True), ("reserve_stock", True)]
    # the trace keeps what really came back, marked as rolled back
    first, second = result.rounds[0].executions[0], result.rounds[1].executions[0]
    assert (first.result.content, first.rolled_back_by) == ("reserved 2 x A1", "ship")
    assert (second.result.content, second.rolled_back_by) == ("charged 99", "ship")


def test_without_memory_the_returned_history_is_rewritten():
    result = run_loop(ScriptedModel(list(SCRIPT)), Q, tools=[reserve_stock, charge, ship], options=OPTIONS)
    contents = [m.content for m in result.messages if isinstance(m, ToolResultMessage)]
    assert contents[:2] == [rolled_back_text("reserve_stock", "ship"), rolled_back_text("charge", "ship")]
    assert [m.content for m in result.new_messages if isinstance(m, ToolResultMessage)] == contents


def test_a_failing_compensation_is_reported_not_raised_and_its_result_stays_true():
    options = LoopOptions(compensate=True, compensations=(release_broken,))
    result = run_loop(ScriptedModel(list(SCRIPT)), Q, tools=[reserve_stock, charge, ship], options=options)
    assert result.finish == "answer"
    (entry,) = result.saga
    assert not entry.ok and entry.tool == "reserve_stock"
    assert result.messages[2].content == "reserved 2 x A1" and not result.messages[2].is_error
    assert result.rounds[0].executions[0].rolled_back_by is None
    assert entry.detail == "compensation failed: warehouse api token=[REDACTED] refused"


def test_nothing_is_compensated_when_compensation_is_off():
    run_loop(ScriptedModel(list(SCRIPT)), Q, tools=[reserve_stock, charge, ship])
    assert [e[0] for e in LOG] == ["reserve", "charge"]


def test_misconfigured_compensations_fail_only_when_enabled_and_before_any_tool_runs():
    @compensates("no_such_tool")
    def undo(x: str) -> None: ...

    script = [call("reserve_stock", sku="A", qty=1), "ok"]
    run_loop(
        ScriptedModel(list(script)), Q, tools=[reserve_stock], options=LoopOptions(compensations=(undo,))
    )  # off: fine
    LOG.clear()
    memory = ChatMemory()
    model = ScriptedModel(list(script))
    with pytest.raises(ConfigurationError, match="there is no tool named 'no_such_tool' in this call"):
        run_loop(
            model, Q, tools=[reserve_stock], memory=memory, options=LoopOptions(compensate=True, compensations=(undo,))
        )
    assert LOG == [] and model.requests == []


def test_mismatched_parameters_are_named():
    @compensates("reserve_stock")
    def wrong(sku: str) -> None: ...

    with pytest.raises(ConfigurationError) as info:
        compensations_from([wrong], {t.name: t for t in tools_from(reserve_stock)})
    assert "differ from those of tool 'reserve_stock', {" in str(info.value)
    assert "'s {" not in str(info.value)  # was: tool 'reserve_stock''s {...}
    assert "take the same parameters, or one parameter typed ToolExecution" in str(info.value)


def test_registry_tools_can_be_compensated_too():
    registry = ToolRegistry()
    spec = {
        "name": "book_seat",
        "parameters": {"type": "object", "properties": {"seat": {"type": "string"}}, "required": ["seat"]},
    }
    registry.register(spec, lambda c, ctx: LOG.append(("book", c.arguments)) or "booked")
    undone = []

    @compensates("book_seat")
    def unbook(execution: ToolExecution) -> None:
        undone.append(execution.call.arguments)

    script = [call("book_seat", seat="12A"), call("ship", order_id="x"), "ok"]
    run_loop(
        ScriptedModel(script),
        Q,
        tools=[ship],
        registry=registry,
        options=LoopOptions(compensate=True, compensations=(unbook,)),
    )
    assert undone == ['{"seat": "12A"}']


def test_a_rolled_back_call_is_not_compensated_twice():
    script = [call("reserve_stock", sku="A", qty=1), call("ship", order_id="x"), call("ship", order_id="y"), "ok"]
    result = run_loop(
        ScriptedModel(script),
        Q,
        tools=[reserve_stock, ship],
        options=LoopOptions(compensate=True, compensations=(release_stock,)),
    )
    assert [e.tool for e in result.saga] == ["reserve_stock"]
    assert ToolSpec  # the registry path uses hand-written specs
