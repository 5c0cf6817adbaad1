from dataclasses import replace
from typing import Annotated

import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ArgumentError, ConfigurationError, ToolExecutionError, UnknownToolError
from toolkit.loop.run import COURSE, REPAIR_HANDOVER_ZH, LoopOptions, run_loop
from toolkit.loop.saga import ToolExecution, compensates, compensations_from, rolled_back_text
from toolkit.loop.sources import ToolRegistry
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import MemoryId, tool
from toolkit.tools.execute import FEED_BACK_ALL, Policies, ToolOutput, raise_error, tools_from
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


@pytest.mark.parametrize("earlier", [0, 100])
def test_without_memory_the_returned_history_is_rewritten(earlier):
    """Also after a long history (the loop sends its own list again rather than a copy: the
    next request must still show the rewrite)."""
    history = [UserMessage(content=f"earlier {k}") for k in range(earlier)]
    model = ScriptedModel(list(SCRIPT))
    result = run_loop(model, [*history, *Q], tools=[reserve_stock, charge, ship], options=OPTIONS)
    contents = [m.content for m in result.messages if isinstance(m, ToolResultMessage)]
    assert contents[:2] == [rolled_back_text("reserve_stock", "ship"), rolled_back_text("charge", "ship")]
    assert [m.content for m in result.new_messages if isinstance(m, ToolResultMessage)] == contents
    seen = [m.content for m in model.requests[2].messages if isinstance(m, ToolResultMessage)]
    assert seen == contents and len(model.requests[2].messages) == earlier + 6


def test_a_failing_compensation_is_reported_not_raised_and_its_result_stays_true():
    options = LoopOptions(compensate=True, compensations=(release_broken,))
    result = run_loop(ScriptedModel(list(SCRIPT)), Q, tools=[reserve_stock, charge, ship], options=options)
    assert result.finish == "answer"
    (entry,) = result.saga
    assert not entry.ok and entry.tool == "reserve_stock"
    assert result.messages[2].content == "reserved 2 x A1" and not result.messages[2].is_error
    assert result.rounds[0].executions[0].rolled_back_by is None
    assert entry.detail == "compensation failed: RuntimeError: warehouse api token=[REDACTED] refused"


@compensates("reserve_stock")
def release_reported(sku: str, qty: int) -> ToolOutput:
    return ToolOutput("warehouse refused the release: token=abc123", is_error=True)


@compensates("reserve_stock")
def release_reported_from_execution(execution: ToolExecution) -> ToolOutput:
    return ToolOutput("warehouse refused the release: token=abc123", is_error=True)


@pytest.mark.parametrize("undo", [release_reported, release_reported_from_execution])
def test_a_compensation_that_reports_its_own_failure_has_not_undone_the_call(undo):
    """`ToolOutput(..., is_error=True)` is how the package's functions report a failure they handled:
    a compensation returning it did not undo the call, so the log says failed and the result stays true."""
    options = LoopOptions(compensate=True, compensations=(undo,))
    result = run_loop(ScriptedModel(list(SCRIPT)), Q, tools=[reserve_stock, charge, ship], options=options)
    (entry,) = result.saga
    assert (entry.ok, entry.detail) == (
        False,
        "compensation reported a failure: warehouse refused the release: token=[REDACTED]",
    )
    assert result.messages[2].content == "reserved 2 x A1" and not result.messages[2].is_error
    assert result.rounds[0].executions[0].rolled_back_by is None


def test_a_failing_compensation_is_logged_as_a_warning_as_langchain4j_does(caplog):
    """LangChain4j: `log.warn("Compensating action failed for tool ...")`; a method returning str
    gives its caller no saga log, so the log is where a failed undo shows."""
    options = LoopOptions(compensate=True, compensations=(release_broken,))
    with caplog.at_level("WARNING", logger="toolkit.loop"):
        run_loop(ScriptedModel(list(SCRIPT)), Q, tools=[reserve_stock, charge, ship], options=options)
    assert [(r.levelname, r.getMessage()) for r in caplog.records if "compensat" in r.getMessage()] == [
        (
            "WARNING",
            "a turn without memory: the compensation of tool 'reserve_stock' did not undo call c1, whose effect "
            "still holds: compensation failed: RuntimeError: warehouse api token=[REDACTED] refused",
        )
    ]


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


# --- a raised failure still rolls back (the failure-kind table in toolkit.loop.saga) ----------


RAISED = [
    ("unknown_tool", call("ghost", id="c3"), Policies(), UnknownToolError),
    ("argument", call("ship", order_id=5, id="c3"), Policies(), ArgumentError),
    ("execution", call("ship", order_id="SN1", id="c3"), Policies(execution_error=raise_error), ToolExecutionError),
]


@pytest.mark.parametrize("channel, failing, policies, error_type", RAISED, ids=[r[0] for r in RAISED])
@pytest.mark.parametrize("with_memory", [False, True])
def test_a_raised_failure_rolls_back_before_the_error_propagates(channel, failing, policies, error_type, with_memory):
    """Before: a raise skipped compensation (as in LangChain4j): stock and money stayed taken
    while the history said "Not completed"."""
    memory = ChatMemory() if with_memory else None
    options = LoopOptions(compensate=True, compensations=(release_stock, refund), policies=policies)
    script = [
        call("reserve_stock", sku="A1", qty=2, id="c1"),
        [call("charge", order_id="SN1", amount=99, id="c2"), failing],
    ]
    with pytest.raises(error_type) as info:
        run_loop(ScriptedModel(script), Q, tools=[reserve_stock, charge, ship], memory=memory, options=options)
    assert LOG == [
        ("reserve", "A1", 2),
        ("charge", "SN1", 99),
        ("refund", "charge", "charged 99"),
        ("release", "A1", 2),
    ]
    error = info.value
    assert [(e.tool, e.ok) for e in error.saga] == [("charge", True), ("reserve_stock", True)]
    assert "compensations ran before this error propagated: charge (ok), reserve_stock (ok)" in error.__notes__
    messages = memory.messages() if memory else error.loop_result.messages
    by_id = {m.tool_call_id: m for m in messages if isinstance(m, ToolResultMessage)}
    failed = failing.name
    assert by_id["c1"].content == rolled_back_text("reserve_stock", failed) and by_id["c1"].is_error
    assert by_id["c2"].content == rolled_back_text("charge", failed) and by_id["c2"].is_error
    assert by_id["c3"].is_error
    rounds = error.loop_result.rounds
    assert [e.rolled_back_by for r in rounds for e in r.executions] == [failed, failed, None]


def test_a_repairable_argument_error_under_course_keeps_the_work():
    """COURSE asks the model to fix one call; the reservation it made is still true and kept."""
    options = replace(COURSE, compensate=True, compensations=(release_stock,))
    script = [
        call("reserve_stock", sku="A1", qty=2),
        call("ship", order_id=5),  # argument error: fed back for repair
        call("ship", order_id="SN1"),  # fixed, but the carrier is down: an execution error
        "抱歉",
    ]
    model = ScriptedModel(script)
    result = run_loop(model, Q, tools=[reserve_stock, ship], options=options)
    assert [e.tool for e in result.saga] == ["reserve_stock"]
    repair_request = [m.content for m in model.requests[2].messages if isinstance(m, ToolResultMessage)]
    assert repair_request[0] == "reserved 2 x A1"  # no rollback at the repair round ...
    assert result.rounds[2].executions[0].error_kind == "execution"  # ... only at the real failure
    assert LOG == [("reserve", "A1", 2), ("release", "A1", 2)]


def test_a_repair_that_succeeds_rolls_nothing_back():
    options = replace(COURSE, compensate=True, compensations=(release_stock,))
    script = [call("reserve_stock", sku="A1", qty=2), call("charge", order_id="SN1", amount="x"), "请提供金额"]
    result = run_loop(ScriptedModel(script), Q, tools=[reserve_stock, charge], options=options)
    assert result.saga == [] and LOG == [("reserve", "A1", 2)]
    assert result.messages[2].content == "reserved 2 x A1"


def test_a_failed_repair_rolls_back_then_hands_over_in_chinese():
    options = replace(COURSE, compensate=True, compensations=(release_stock,))
    script = [
        call("reserve_stock", sku="A1", qty=2),
        call("charge", order_id="SN1", amount="x"),
        call("charge", amount=1),
    ]
    result = run_loop(ScriptedModel(script), Q, tools=[reserve_stock, charge], options=options)
    assert (result.finish, result.answer) == ("handover", REPAIR_HANDOVER_ZH)
    assert LOG == [("reserve", "A1", 2), ("release", "A1", 2)]
    assert result.messages[2].content == "工具 reserve_stock 已执行成功，但因为工具 charge 失败，已被回滚（撤销）。"


def test_a_fed_back_argument_error_without_repair_rolls_back_as_the_seed_does():
    options = LoopOptions(compensate=True, compensations=(release_stock,), policies=FEED_BACK_ALL)
    script = [call("reserve_stock", sku="A1", qty=2), call("ship", order_id=5), "抱歉"]
    result = run_loop(ScriptedModel(script), Q, tools=[reserve_stock, ship], options=options)
    assert [e.tool for e in result.saga] == ["reserve_stock"]


@pytest.mark.parametrize("options", [COURSE, LoopOptions(policies=FEED_BACK_ALL, loop_guard=True)])
def test_fed_back_unknown_tools_and_guarded_calls_roll_nothing_back(options):
    options = replace(options, compensate=True, compensations=(release_stock,))
    script = [
        call("reserve_stock", sku="A1", qty=2),
        call("ghost"),  # a hallucinated name: nothing ran
        call("reserve_stock", sku="A1", qty=2),  # repeated: the guard answers, nothing ran
        "好了",
    ]
    result = run_loop(ScriptedModel(script), Q, tools=[reserve_stock], options=options)
    assert [e.error_kind for e in result.executions] == [None, "unknown_tool", "guard"]
    assert result.saga == [] and LOG == [("reserve", "A1", 2)]


def test_a_compensation_receives_the_original_calls_context():
    """Before: compensations ran with an empty InvocationContext() — memory id None."""
    seen = []

    @tool("预订")
    def book(seat: str, user: Annotated[str, MemoryId]) -> str:
        return f"{user} booked {seat}"

    @compensates("book")
    def unbook(seat: str, user: Annotated[str, MemoryId]) -> None:
        seen.append((seat, user))

    @compensates("book")
    def unbook_execution(execution: ToolExecution) -> None:
        seen.append((execution.context.memory_id, execution.context.parameters, execution.context.tool_call.id))

    for undo in (unbook, unbook_execution):
        run_loop(
            ScriptedModel([call("book", seat="12A", id="b1"), call("ship", order_id="x"), "ok"]),
            Q,
            tools=[book, ship],
            memory=ChatMemory("u42"),
            parameters={"tenant": "t1"},
            options=LoopOptions(compensate=True, compensations=(undo,)),
        )
    assert seen == [("12A", "u42"), ("u42", {"tenant": "t1"}, "b1")]


@tool("发货（自己报告失败）")
def ship_reports(order_id: str) -> ToolOutput:
    return ToolOutput("carrier down", is_error=True)


@tool("扣减库存（自己报告缺货）")
def reserve_reports(sku: str, qty: int) -> ToolOutput:
    LOG.append(("reserve-failed", sku, qty))
    return ToolOutput(f"out of stock: {sku}", is_error=True)


def test_a_failure_the_tool_reports_itself_rolls_back_like_a_raised_one():
    script = [SCRIPT[0], [SCRIPT[1][0], call("ship_reports", order_id="SN1", id="c3")], SCRIPT[2]]
    result = run_loop(ScriptedModel(script), Q, tools=[reserve_stock, charge, ship_reports], options=OPTIONS)
    assert LOG == [
        ("reserve", "A1", 2),
        ("charge", "SN1", 99),
        ("refund", "charge", "charged 99"),
        ("release", "A1", 2),
    ]
    contents = [(m.content, m.is_error) for m in result.messages if isinstance(m, ToolResultMessage)]
    assert contents == [
        (rolled_back_text("reserve_stock", "ship_reports"), True),
        (rolled_back_text("charge", "ship_reports"), True),
        ("carrier down", True),
    ]


@compensates("reserve_reports")
def release_reported(sku: str, qty: int) -> None:
    LOG.append(("release", sku, qty))


def test_a_call_that_reported_its_own_failure_is_never_compensated():
    script = [[call("reserve_reports", sku="A1", qty=2, id="c1"), call("ship", order_id="SN1", id="c2")], "抱歉"]
    options = LoopOptions(compensate=True, compensations=(release_reported,))
    result = run_loop(ScriptedModel(script), Q, tools=[reserve_reports, ship], options=options)
    assert LOG == [("reserve-failed", "A1", 2)]  # nothing was reserved, so nothing is released
    assert result.saga == []
    first = result.messages[2]
    assert (first.content, first.is_error) == ("out of stock: A1", True)
    assert not result.rounds[0].executions[0].succeeded and result.rounds[0].executions[0].error_kind is None


def test_a_call_rolled_back_is_run_again_and_then_guarded():
    """The loop guard reads each round once, as the turn goes on; a roll-back changes earlier
    rounds, so it reads them again: the call undone runs again, and its repeat is guarded."""
    script = [
        call("reserve_stock", sku="A1", qty=2, id="c1"),
        [call("charge", order_id="SN1", amount=99, id="c2"), call("ship", order_id="SN1", id="c3")],
        call("reserve_stock", sku="A1", qty=2, id="c4"),
        call("reserve_stock", sku="A1", qty=2, id="c5"),
        "好的",
    ]
    options = replace(OPTIONS, loop_guard=True, guard_handover_after=None)
    result = run_loop(ScriptedModel(script), Q, tools=[reserve_stock, charge, ship], options=options)
    assert [entry for entry in LOG if entry[0] == "reserve"] == [("reserve", "A1", 2)] * 2
    assert [(e.call.id, e.error_kind, e.rolled_back_by) for e in result.executions] == [
        ("c1", None, "ship"),
        ("c2", None, "ship"),
        ("c3", "execution", None),
        ("c4", None, None),
        ("c5", "guard", None),
    ]


class _NoClass:
    """A value whose `__class__` raises when looked at (what `isinstance` asks)."""

    @property
    def __class__(self):
        raise RuntimeError("no class")


def test_a_compensation_returning_a_value_that_cannot_be_looked_at_has_still_run():
    """It returned, so it ran, as a tool that returned has: the call reads "rolled back" (the value
    broke the saga: a raw RuntimeError out of the loop, its rewrite never made)."""
    undone = []

    @tool("reserve")
    def hold(sku: str) -> str:
        return "held"

    @compensates("hold")
    def unhold(sku: str) -> object:
        undone.append(sku)
        return _NoClass()

    @tool("pay")
    def pay() -> str:
        raise RuntimeError("declined")

    memory = ChatMemory()
    calls = [call("hold", sku="A", id="c1"), call("pay", id="c2")]
    options = LoopOptions(compensate=True, compensations=(unhold,))
    result = run_loop(
        ScriptedModel([calls, "done"]), [UserMessage(content="q")], tools=[hold, pay], memory=memory, options=options
    )
    assert undone == ["A"]
    assert [(s.ok, s.detail) for s in result.saga] == [(True, "rolled back")]
    assert [m.content for m in memory.messages() if isinstance(m, ToolResultMessage)] == [
        rolled_back_text("hold", "pay"),
        "Tool 'pay' failed: RuntimeError: declined",
    ]
