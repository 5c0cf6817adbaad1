"""Failures around the loop that must not lose work or lie about it (audit findings8).

- an `async` compensation or executor is refused when it is checked, before anything runs; one
  that slips through (a plain function returning a coroutine) is never reported as done;
- a memory store that fails after the tools ran: the error is the store's own and carries
  `loop_result` (the executions), and memory answers every call when it can still be written;
- Ctrl-C inside a compensation: memory stays valid, the saga log and `loop_result` go with it;
- a tool that ends with `SystemExit` is an execution error fed back to the model;
- `LoopOptions` checks its fields when it is built.
"""

import asyncio
import dataclasses
import datetime
import gc
import sqlite3
import sys
import warnings

import pytest
from freed import Raised, without_the_collector

from toolkit.chat.messages import AssistantMessage, ChatResponse, ToolCall, ToolResultMessage, UserMessage, to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.chat.switch import fake_client
from toolkit.errors import ConfigurationError, MemoryStoreError, ToolDefinitionError, TransientError
from toolkit.gateway.validate import check_request
from toolkit.loop.records import COURSE, HANDOVER_ZH, LoopOptions
from toolkit.loop.run import iter_loop, run_loop
from toolkit.loop.saga import SagaEntry, ToolExecution, compensates
from toolkit.loop.sources import StaticProvider, ToolRegistry
from toolkit.loop.texts import EN, ZH
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory, InMemoryStore
from toolkit.tools.decorator import ReturnBehavior, tool
from toolkit.tools.execute import Policies, Tool, raise_error
from toolkit.tools.reflect import ToolSpec

Q = [UserMessage(content="buy")]
DONE: list[str] = []


@tool("reserve stock")
def reserve(sku: str) -> str:
    DONE.append(f"reserve {sku}")
    return "reserved"


@tool("charge the card")
def charge(sku: str) -> str:
    DONE.append(f"charge {sku}")
    return "charged 99, receipt R-778"


@tool("ship the order")
def ship(sku: str) -> str:
    raise RuntimeError("carrier down")


@compensates("reserve")
def release(sku: str) -> None:
    DONE.append(f"release {sku}")


def valid_for_a_strict_gateway(messages):
    check_request({"model": "m", "messages": to_openai(list(messages))})
    return True


def tool_results(messages):
    return [(m.tool_call_id, m.content) for m in messages if isinstance(m, ToolResultMessage)]


@pytest.fixture(autouse=True)
def _clean():
    DONE.clear()


def no_never_awaited_warning(caught):
    gc.collect()
    return not [w for w in caught if "never awaited" in str(w.message)]


# -- 1. async compensations ----------------------------------------------------------------


@compensates("reserve")
async def release_async(execution: ToolExecution) -> None:
    DONE.append("released")


@compensates("reserve")
async def release_async_same_parameters(sku: str) -> None:
    DONE.append("released")


class AsyncRelease:
    async def __call__(self, execution: ToolExecution) -> None:
        DONE.append("released")


@compensates("reserve")
def release_by_generator(execution: ToolExecution):
    yield DONE.append("released")


def saga_options(*compensations):
    return LoopOptions(compensate=True, compensations=compensations)


@pytest.mark.parametrize(
    "fn, label, kind",
    [
        (release_async, "release_async", "an async function"),
        (release_async_same_parameters, "release_async_same_parameters", "an async function"),
        (release_by_generator, "release_by_generator", "a generator (it yields)"),
    ],
)
def test_an_async_compensation_is_refused_before_any_tool_runs(fn, label, kind):
    model = ScriptedModel([[call("reserve", sku="A"), call("ship", sku="A")], "sorry"])
    with pytest.raises(ConfigurationError) as raised:
        run_loop(model, Q, tools=[reserve, ship], options=saga_options(fn))
    assert str(raised.value) == (
        f"@compensates('reserve') test_loop_failures.{label}: it is {kind}, and the saga calls "
        "compensations synchronously: its body would never run, and the call would read 'rolled back' "
        "when nothing was undone; make it a plain function (async compensations are left out, like async tools)"
    )
    assert DONE == [] and model.requests == []


def test_an_object_with_an_async_call_is_refused_as_a_compensation():
    instance = compensates("reserve")(AsyncRelease())
    with pytest.raises(ConfigurationError, match="it is an async function, and the saga calls"):
        run_loop(ScriptedModel(["hi"]), Q, tools=[reserve, ship], options=saga_options(instance))


def test_a_compensation_that_returns_a_coroutine_is_logged_as_failed_not_rolled_back():
    async def really_release(execution: ToolExecution) -> None:
        DONE.append("released")

    @compensates("reserve")
    def release_later(execution: ToolExecution):  # a plain def: it passes the check
        return really_release(execution)

    memory = ChatMemory()
    model = ScriptedModel([[call("reserve", sku="A", id="c1"), call("ship", sku="A", id="c2")], "sorry"])
    gc.collect()  # an earlier test's garbage (a coroutine in a cycle) is not counted as this one's
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run_loop(model, Q, tools=[reserve, ship], memory=memory, options=saga_options(release_later))
        assert no_never_awaited_warning(caught)
    assert result.saga == [
        SagaEntry(
            "reserve",
            "@compensates('reserve') test_loop_failures.test_a_compensation_that_returns_a_coroutine_is_logged_"
            "as_failed_not_rolled_back.<locals>.release_later",
            "c1",
            False,
            "compensation did not run: it returned a coroutine, and compensations run synchronously",
            round=1,
            call_round=1,
        )
    ]
    assert DONE == ["reserve A"]
    assert tool_results(memory.messages()) == [
        ("c1", "reserved"),  # its effect holds: the model must not read "rolled back"
        ("c2", "Tool 'ship' failed: RuntimeError: carrier down"),
    ]


# -- 2. async executors ----------------------------------------------------------------------

REFUND = {
    "type": "function",
    "function": {
        "name": "refund",
        "description": "refund an order",
        "parameters": {"type": "object", "properties": {"order": {"type": "string"}}, "required": ["order"]},
    },
}


async def refund_executor(call, context):
    DONE.append("refunded")
    return "refunded"


def refund_later(call, context):  # a plain def handing back the coroutine: it passes registration
    return refund_executor(call, context)


def test_the_registry_refuses_an_async_executor():
    registry = ToolRegistry()
    with pytest.raises(ToolDefinitionError) as raised:
        registry.register(REFUND, refund_executor, version="v2")
    assert str(raised.value) == (
        "ToolRegistry.register('refund', version='v2'): the executor test_loop_failures.refund_executor is "
        "async, so a call would return a coroutine that never runs (the loop calls executors synchronously). "
        "Fix: make it a plain function (async tools are left out for now)"
    )
    assert registry.tools() == []


def test_a_tool_refuses_an_async_executor_or_an_object_with_an_async_call():
    class Refunder:
        async def __call__(self, call, context):
            return "refunded"

    spec = ToolSpec.from_openai(REFUND)
    with pytest.raises(ToolDefinitionError) as raised:
        Tool(spec, refund_executor)
    assert str(raised.value).startswith(
        "Tool('refund', ...): the executor test_loop_failures.refund_executor is async, so a call"
    )
    with pytest.raises(ToolDefinitionError, match="the executor .*Refunder is async"):
        Tool(spec, Refunder(), "mcp refund")
    with pytest.raises(ToolDefinitionError, match=r"^Tool\('refund', \.\.\.\): the executor is a str, not a function"):
        Tool(spec, "refund")  # type: ignore[arg-type]


def test_an_executor_that_returns_a_coroutine_is_an_execution_error_never_a_success():
    registry = ToolRegistry()
    registry.register(REFUND, refund_later)
    model = ScriptedModel([call("refund", order="SN1", id="c1"), "done"])
    gc.collect()  # an earlier test's garbage (a coroutine in a cycle) is not counted as this one's
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run_loop(model, Q, registry=registry)
        assert no_never_awaited_warning(caught)
    execution = result.executions[0]
    assert (execution.error_kind, execution.result.is_error) == ("execution", True)
    assert execution.result.content == "Tool 'refund' did not run: its executor is async, and tools run synchronously."
    assert DONE == []


def test_a_coroutine_returned_under_raise_error_raises_with_the_fix_as_its_cause():
    registry = ToolRegistry()
    registry.register(REFUND, refund_later)
    model = ScriptedModel([call("refund", order="SN1", id="c1"), "done"])
    with pytest.raises(Exception) as raised:
        run_loop(model, Q, registry=registry, options=LoopOptions(policies=Policies(execution_error=raise_error)))
    assert str(raised.value.__cause__) == (
        "registry refund@v1: its executor test_loop_failures.refund_later returned a coroutine (an awaitable), which "
        "the loop cannot await, so the call did not run. Fix: make the executor a plain function that returns "
        "the result (async tools are left out for now)"
    )


# -- 3. a memory store that fails after the tools ran -------------------------------------------


class FlakyStore(InMemoryStore):
    """Fails the next `fail_appends` appends that carry tool results, and the next `fail_sets` sets."""

    def __init__(self, fail_appends=0, fail_sets=0):
        super().__init__()
        self.fail_appends, self.fail_sets = fail_appends, fail_sets

    def append(self, memory_id, messages):
        if self.fail_appends and any(isinstance(m, ToolResultMessage) for m in messages):
            self.fail_appends -= 1
            raise MemoryStoreError("database is locked")
        super().append(memory_id, messages)

    def set(self, memory_id, messages):
        if self.fail_sets:
            self.fail_sets -= 1
            raise MemoryStoreError("disk full")
        super().set(memory_id, messages)


def test_a_store_that_keeps_failing_loses_no_result_the_error_carries_it():
    memory = ChatMemory("u1", store=FlakyStore(fail_appends=3))  # the results twice, then "not completed"
    model = ScriptedModel([call("charge", sku="A", id="c1"), "done"])
    with pytest.raises(MemoryStoreError) as raised:
        run_loop(model, Q, tools=[charge], memory=memory)
    error = raised.value
    assert str(error) == "database is locked"  # the store's own error, typed
    assert error.__notes__ == [
        "memory could not record the results of calls c1 (database is locked); they are in "
        "this error's loop_result.new_messages, and memory ends with those calls unanswered"
    ]
    assert DONE == ["charge A"]
    assert error.loop_result.executions[0].result.content == "charged 99, receipt R-778"
    assert tool_results(error.loop_result.new_messages) == [("c1", "charged 99, receipt R-778")]
    assert error.loop_result.rounds[0].decision == "stopped: MemoryStoreError"


def test_a_store_that_refuses_the_results_twice_answers_the_calls_not_completed_at_once():
    """Refused twice (a result the full disk has no room for), the results were left out and memory
    ended with the calls unanswered until the next turn, so the history read after the error was
    one a strict gateway refuses: the calls are answered "not completed" at once, as the next turn
    would answer them, and the results themselves are in the error."""
    memory = ChatMemory("u1", store=FlakyStore(fail_appends=2))
    model = ScriptedModel([call("charge", sku="A", id="c1"), "done"])
    with pytest.raises(MemoryStoreError) as raised:
        run_loop(model, Q, tools=[charge], memory=memory)
    assert raised.value.__notes__ == [
        "memory could not record the results of calls c1 (database is locked); they are in this error's "
        "loop_result.new_messages, and memory answers those calls 'not completed'"
    ]
    assert tool_results(memory.messages()) == [("c1", EN.unfinished)]
    assert valid_for_a_strict_gateway(memory.messages())
    assert tool_results(raised.value.loop_result.new_messages) == [("c1", "charged 99, receipt R-778")]
    assert run_loop(ScriptedModel(["ok"]), "and now?", memory=memory).answer == "ok"
    assert tool_results(memory.messages()) == [("c1", EN.unfinished)]  # answered once


def test_a_result_a_full_disk_has_no_room_for_leaves_memory_valid(tmp_path):
    @tool("read a long report")
    def report(title: str) -> str:
        return "line\n" * 50_000

    store = SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("u1", store=store)
    run_loop(ScriptedModel(["hello"]), "hi", memory=memory)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages + 4}")  # room for short rows, not 250 KB
    model = ScriptedModel([call("report", title="q3", id="c1"), "done"])
    with pytest.raises(MemoryStoreError, match="database or disk is full"):
        run_loop(model, "the report?", tools=[report], memory=memory)
    assert tool_results(SqliteStore(tmp_path / "m.db").get("u1")) == [("c1", EN.unfinished)]
    assert valid_for_a_strict_gateway(memory.messages())


def test_a_store_that_fails_once_still_gets_the_results_and_memory_stays_valid():
    memory = ChatMemory("u1", store=FlakyStore(fail_appends=1))
    model = ScriptedModel([[call("charge", sku="A", id="c1"), call("reserve", sku="A", id="c2")], "done"])
    with pytest.raises(MemoryStoreError) as raised:
        run_loop(model, Q, tools=[charge, reserve], memory=memory)
    # memory took the results the second time: no word of them missing, and going on from them is said
    assert raised.value.__notes__ == [f"But {GO_ON} once what the error names is fixed."]
    assert tool_results(memory.messages()) == [("c1", "charged 99, receipt R-778"), ("c2", "reserved")]
    assert valid_for_a_strict_gateway(memory.messages())
    assert len(raised.value.loop_result.executions) == 2


def test_the_saga_rewrite_failing_keeps_the_log_and_answers_the_round():
    memory = ChatMemory("u1", store=FlakyStore(fail_sets=1))
    model = ScriptedModel([call("reserve", sku="A", id="c1"), call("ship", sku="A", id="c2"), "sorry"])
    with pytest.raises(MemoryStoreError) as raised:
        run_loop(model, Q, tools=[reserve, ship], memory=memory, options=saga_options(release))
    error = raised.value
    assert error.__notes__ == [
        "the saga rolled back calls c1, but memory could not be rewritten to say so (disk full); memory still "
        "shows their results as successful"
    ]
    assert DONE == ["reserve A", "release A"]
    assert [(e.call_id, e.ok, e.detail) for e in error.saga] == [("c1", True, "rolled back")]
    assert error.loop_result.executions[0].rolled_back_by == "ship"
    rolled_back = "Tool 'reserve' was executed successfully but was rolled back due to failure of tool 'ship'"
    assert tool_results(error.loop_result.new_messages) == [
        ("c1", rolled_back),
        ("c2", "Tool 'ship' failed: RuntimeError: carrier down"),
    ]
    assert tool_results(memory.messages()) == [
        ("c1", "reserved"),
        ("c2", "Tool 'ship' failed: RuntimeError: carrier down"),
    ]
    assert valid_for_a_strict_gateway(memory.messages())


def test_a_store_failing_at_the_round_trip_limit_still_answers_the_refused_calls():
    memory = ChatMemory("u1", store=FlakyStore(fail_appends=1))
    model = ScriptedModel([call("charge", sku="A", id="c1")])
    with pytest.raises(MemoryStoreError) as raised:
        run_loop(model, Q, tools=[charge], memory=memory, options=LoopOptions(max_round_trips=0))
    assert tool_results(memory.messages()) == [("c1", EN.not_run_limit.format(limit=0))]
    assert raised.value.loop_result.rounds[0].decision == "stopped: MemoryStoreError"
    assert DONE == []


UNFINISHED = (
    "Not completed: the turn that asked for this call ended before its result was recorded; its outcome is "
    "unknown (it may have done its work). Check before calling it again."
)


def test_the_next_turn_answers_the_calls_a_failed_store_left_unanswered():
    memory = ChatMemory("u1", store=FlakyStore(fail_appends=2))
    with pytest.raises(MemoryStoreError):
        run_loop(ScriptedModel([call("charge", sku="A", id="c1"), "done"]), Q, tools=[charge], memory=memory)
    model = ScriptedModel(["hello"])  # the store works again: the learner goes on with the same id
    result = run_loop(model, [UserMessage(content="hi")], tools=[charge], memory=memory)
    assert result.answer == "hello"
    sent = model.requests[0].messages
    assert valid_for_a_strict_gateway(sent)
    assert tool_results(sent) == [("c1", UNFINISHED)]
    assert [m.role for m in memory.messages()] == ["user", "assistant", "tool", "user", "assistant"]
    assert DONE == ["charge A"]  # answered, never run again


def test_a_turn_killed_while_its_tool_ran_does_not_lock_the_learner_out_of_a_sqlite_memory(tmp_path):
    path = tmp_path / "memory.db"
    left = ChatMemory("u1", store=SqliteStore(path))  # what a kernel restart mid-tool leaves behind
    asked = ToolCall(id="c9", name="query_order", arguments='{"orderId": "SN202610200001"}')
    left.add(UserMessage(content="查询订单 SN202610200001"), AssistantMessage(tool_calls=(asked,)))
    memory = ChatMemory("u1", store=SqliteStore(path))  # the new process
    result = run_loop(fake_client(), "你好", memory=memory, options=COURSE)
    assert result.finish == "answer"
    assert tool_results(memory.messages()) == [("c9", ZH.unfinished)]
    assert (
        ZH.unfinished
        == "未完成：发起这个调用的那一轮在记录结果之前就结束了，结果未知（可能已经执行）。再次调用前请先确认。"
    )
    assert valid_for_a_strict_gateway(memory.messages())


def test_calls_left_open_in_a_plain_memory_are_answered_once_and_answered_calls_are_left_alone():
    memory = ChatMemory("u1")
    asked = (ToolCall(id="c1", name="charge", arguments="{}"), ToolCall(id="c2", name="charge", arguments="{}"))
    memory.add(UserMessage(content="buy"), AssistantMessage(tool_calls=asked))
    memory.add(ToolResultMessage(tool_call_id="c1", content="charged"))  # c2's result never came
    run_loop(ScriptedModel(["hello"]), "hi", memory=memory)
    run_loop(ScriptedModel(["hello again"]), "hi", memory=memory)
    assert tool_results(memory.messages()) == [("c1", "charged"), ("c2", EN.unfinished)]
    assert valid_for_a_strict_gateway(memory.messages())


# -- 4. Ctrl-C inside a compensation ----------------------------------------------------------------


@compensates("charge")
def refund_interrupted(sku: str) -> None:
    raise KeyboardInterrupt  # the learner presses Ctrl-C while the refund runs


def test_ctrl_c_in_a_compensation_leaves_memory_valid_and_carries_the_saga_log():
    memory = ChatMemory("m1")
    calls = [call("reserve", sku="A", id="c1"), call("charge", sku="A", id="c2"), call("ship", sku="A", id="c3")]
    model = ScriptedModel([calls, "sorry"])
    options = saga_options(refund_interrupted, release)
    with pytest.raises(KeyboardInterrupt) as raised:
        run_loop(model, Q, tools=[reserve, charge, ship], memory=memory, options=options)
    assert [(e.tool, e.call_id, e.ok, e.detail) for e in raised.value.saga] == [
        ("charge", "c2", False, "interrupted by KeyboardInterrupt: it may not have undone the call"),
        ("reserve", "c1", False, "not run: the saga was interrupted by KeyboardInterrupt"),
    ]
    assert DONE == ["reserve A", "charge A"]  # release never started
    assert tool_results(memory.messages()) == [
        ("c1", "reserved"),
        ("c2", "charged 99, receipt R-778"),
        ("c3", "Tool 'ship' failed: RuntimeError: carrier down"),
    ]
    assert valid_for_a_strict_gateway(memory.messages())
    loop_result = raised.value.loop_result
    assert (loop_result.finish, len(loop_result.executions)) == ("stopped", 3)
    assert loop_result.rounds[0].decision == "stopped: KeyboardInterrupt"


def test_what_was_undone_before_ctrl_c_reads_rolled_back():
    @compensates("reserve")
    def release_interrupted(sku: str) -> None:
        raise KeyboardInterrupt

    @compensates("charge")
    def refund(sku: str) -> None:
        DONE.append(f"refund {sku}")

    memory = ChatMemory("m1")
    model = ScriptedModel(
        [[call("reserve", sku="A", id="c1"), call("charge", sku="A", id="c2")], call("ship", sku="A", id="c3"), "x"]
    )
    with pytest.raises(KeyboardInterrupt) as raised:
        run_loop(
            model, Q, tools=[reserve, charge, ship], memory=memory, options=saga_options(release_interrupted, refund)
        )
    assert [(e.call_id, e.ok) for e in raised.value.saga] == [("c2", True), ("c1", False)]
    assert tool_results(memory.messages()) == [
        ("c1", "reserved"),
        ("c2", "Tool 'charge' was executed successfully but was rolled back due to failure of tool 'ship'"),
        ("c3", "Tool 'ship' failed: RuntimeError: carrier down"),
    ]
    assert valid_for_a_strict_gateway(memory.messages())


def test_a_compensation_that_exits_is_a_failed_compensation():
    @compensates("reserve")
    def release_exits(sku: str) -> None:
        raise SystemExit(3)

    model = ScriptedModel([[call("reserve", sku="A", id="c1"), call("ship", sku="A", id="c2")], "sorry"])
    result = run_loop(model, Q, tools=[reserve, ship], options=saga_options(release_exits))
    assert [(e.ok, e.detail) for e in result.saga] == [(False, "compensation failed: SystemExit: 3")]


# -- 10. a tool that calls sys.exit ------------------------------------------------------------------


@tool("run the report generator with command-line flags")
def report(flags: str) -> str:
    if "--month" not in flags.split():
        sys.exit(2)  # what argparse and click do on a bad flag
    return "report"


def test_a_tool_that_exits_is_an_execution_error_fed_back_to_the_model():
    memory = ChatMemory()
    model = ScriptedModel([call("report", flags="--monht 3", id="c1"), "sorry, I could not run it"])
    result = run_loop(model, Q, tools=[report], memory=memory)
    assert result.answer == "sorry, I could not run it"
    assert result.executions[0].error_kind == "execution"
    assert tool_results(memory.messages()) == [("c1", "Tool 'report' failed: SystemExit: 2")]


@tool("fetch the order's status from the async client")
def status(order: str) -> str:
    async def fetch():
        await asyncio.sleep(60)

    async def main():  # the client's own request cancelled inside (a cancel scope, a timeout it handles so)
        task = asyncio.ensure_future(fetch())
        await asyncio.sleep(0)
        task.cancel()
        return await task

    return asyncio.run(main())


@tool("list the order's refunds from the async client")
def refunds(order: str) -> object:
    def read():  # the client's pages, the second one's request cancelled
        yield "R-1"
        raise asyncio.CancelledError()

    return read()


@pytest.mark.parametrize("failing", [status, refunds], ids=["raised", "while_read"])
def test_a_tool_whose_own_async_work_was_cancelled_is_an_execution_error_not_the_turns_cancellation(failing):
    """Before: the `CancelledError` stopped the turn ("Interrupted by CancelledError"), and through
    `asyncio.to_thread` told the awaiting task it was cancelled itself. A thread is never cancelled:
    the error is the tool's own."""
    memory = ChatMemory()
    name = failing.__name__
    model = ScriptedModel([call(name, order="A", id="c1"), "sorry, the status is not available"])

    async def main():
        return await asyncio.to_thread(run_loop, model, Q, tools=[failing], memory=memory)

    result = asyncio.run(main())
    assert result.answer == "sorry, the status is not available"
    assert result.executions[0].error_kind == "execution"
    assert tool_results(memory.messages()) == [("c1", f"Tool '{name}' failed: CancelledError")]


def test_a_compensation_whose_async_work_was_cancelled_is_a_failed_compensation():
    @compensates("reserve")
    def release_cancelled(sku: str) -> None:
        raise asyncio.CancelledError()

    model = ScriptedModel([[call("reserve", sku="A", id="c1"), call("ship", sku="A", id="c2")], "sorry"])
    result = run_loop(model, Q, tools=[reserve, ship], options=saga_options(release_cancelled))
    assert [(e.ok, e.detail) for e in result.saga] == [(False, "compensation failed: CancelledError")]


@tool("close the carrier's feed and report")
def feed_closed(order: str) -> str:
    raise GeneratorExit("feed closed")  # a library's generator code, or `raise` of one it caught


@tool("list the order's parcels from the carrier's feed")
def parcels(order: str) -> object:
    def read():
        yield "P-1"
        raise GeneratorExit  # the feed's own generator gave up

    return read()


@pytest.mark.parametrize("failing", [feed_closed, parcels], ids=["raised", "while_read"])
@pytest.mark.parametrize(
    "options",
    [LoopOptions(), LoopOptions(concurrent=True), LoopOptions(tool_timeout=5)],
    ids=["serial", "concurrent", "time_limit"],
)
def test_a_tool_that_raises_generator_exit_is_an_execution_error_not_the_turns_end(failing, options):
    """Before: a `GeneratorExit` out of a tool ended the turn as if its reader had closed it, and
    memory read "Interrupted by GeneratorExit … Not completed" for calls nobody interrupted. The loop
    is never suspended inside a tool (a reader's `close` lands at the loop's own `yield`), so a
    `GeneratorExit` there is the tool's own, like its `CancelledError`."""
    memory = ChatMemory()
    name = failing.__name__
    calls = [call(name, order="A", id="c1"), call("reserve", sku="A", id="c2")]
    model = ScriptedModel([calls, "sorry, the carrier's feed is closed"])
    result = run_loop(model, Q, tools=[failing, reserve], memory=memory, options=options)
    assert result.answer == "sorry, the carrier's feed is closed"
    assert [e.error_kind for e in result.executions] == ["execution", None]
    failed = "Tool 'feed_closed' failed: GeneratorExit: feed closed" if failing is feed_closed else None
    assert tool_results(memory.messages()) == [
        ("c1", failed or "Tool 'parcels' failed: GeneratorExit"),
        ("c2", "reserved"),
    ]


def test_a_tool_raising_generator_exit_inside_iter_loop_lets_the_reader_go_on():
    events = iter_loop(ScriptedModel([call("feed_closed", order="A", id="c1"), "sorry"]), Q, tools=[feed_closed])
    seen = [type(event).__name__ for event in events]
    assert seen == ["ToolStarted", "ToolFinished"]


def test_a_compensation_that_raises_generator_exit_is_a_failed_compensation():
    @compensates("reserve")
    def release_closed(sku: str) -> None:
        raise GeneratorExit

    model = ScriptedModel([[call("reserve", sku="A", id="c1"), call("ship", sku="A", id="c2")], "sorry"])
    result = run_loop(model, Q, tools=[reserve, ship], options=saga_options(release_closed))
    assert [(e.ok, e.detail) for e in result.saga] == [(False, "compensation failed: GeneratorExit")]


def test_a_failure_fed_back_leaves_no_cycle_for_the_garbage_collector():
    """A failing tool's exception, its traceback and the loop's frames it reaches go by reference
    counting once its text went back, serial and concurrent (a reference cycle would keep a
    round of the loop alive until the garbage collector ran)."""
    raised = Raised()

    @tool("reserve stock")
    def hold(sku: str) -> str:
        raise raised.error("cannot reach the shop")

    with without_the_collector():
        for concurrent in (False, True):
            calls = [call("hold", sku="A", id="c1"), call("hold", sku="B", id="c2")]
            model = ScriptedModel([calls, "sorry"])
            options = LoopOptions(concurrent=concurrent)
            result = run_loop(model, Q, tools=[hold], memory=ChatMemory(), options=options)
            assert [e.error_kind for e in result.executions] == ["execution", "execution"]
            assert len(raised.refs) == 2 * (1 + concurrent) and raised.alive() == []


def test_a_keyboard_interrupt_in_a_tool_still_stops_the_turn():
    @tool("wait")
    def wait() -> str:
        raise KeyboardInterrupt

    memory = ChatMemory()
    with pytest.raises(KeyboardInterrupt) as raised:
        run_loop(ScriptedModel([call("wait", id="c1"), "x"]), Q, tools=[wait], memory=memory)
    assert tool_results(memory.messages()) == [
        (
            "c1",
            "Interrupted by KeyboardInterrupt while it ran: its outcome is unknown (it may have done its work). "
            "Check before calling it again.",
        )
    ]
    assert raised.value.loop_result.finish == "stopped"


def test_an_interrupt_tells_the_call_that_was_running_from_the_calls_never_started():
    @tool("wait")
    def wait() -> str:
        raise KeyboardInterrupt

    @tool("later")
    def later() -> str:
        return "ran"

    memory = ChatMemory()
    script = [[call("wait", id="c1"), call("later", id="c2")], "x"]
    with pytest.raises(KeyboardInterrupt):
        run_loop(ScriptedModel(script), Q, tools=[wait, later], memory=memory, options=COURSE)
    assert tool_results(memory.messages()) == [
        ("c1", "执行中被 KeyboardInterrupt 中断：结果未知（可能已经执行）。再次调用前请先确认。"),
        ("c2", "未完成：这一轮被 KeyboardInterrupt 中断。"),
    ]


# -- 12. LoopOptions checks its fields when it is built -------------------------------------------


@pytest.mark.parametrize(
    "fields, message",
    [
        (
            {"max_round_trips": "3"},
            "LoopOptions(max_round_trips='3'): it must be a whole number (int) of at least 0: the tool round "
            "trips allowed; pass e.g. max_round_trips=10",
        ),
        (
            {"max_round_trips": True},
            "LoopOptions(max_round_trips=True): it must be a whole number (int) of at least 0: the tool round "
            "trips allowed; pass e.g. max_round_trips=10",
        ),
        (
            {"max_model_requests": 0},
            "LoopOptions(max_model_requests=0): it must be a whole number (int) of at least 1: None or the model "
            "requests allowed; pass e.g. max_model_requests=5",
        ),
        (
            {"concurrent": True, "max_workers": 0},
            "LoopOptions(max_workers=0): it must be a whole number (int) of at least 1: the threads one round "
            "may use; pass e.g. max_workers=4",
        ),
        (
            {"tool_choice": "any"},
            "LoopOptions(tool_choice='any'): it must be None, 'auto', 'required', 'none' or a named function; "
            "pass e.g. tool_choice='required', or {'type': 'function', 'function': {'name': 'query_order'}}",
        ),
        (
            {"tool_choice": {"type": "function", "function": {}}},
            "LoopOptions(tool_choice={'type': 'function', 'function': {}}): it must be None, 'auto', 'required', "
            "'none' or a named function; pass e.g. tool_choice='required', or {'type': 'function', 'function': "
            "{'name': 'query_order'}}",
        ),
        (
            {"argument_repair": -1},
            "LoopOptions(argument_repair=-1): it must be a whole number (int) of at least 0: None or the repair "
            "rounds per tool; pass e.g. argument_repair=1",
        ),
        (
            {"on_limit": "stop"},
            "LoopOptions(on_limit='stop'): it must be 'raise' or 'handover'; pass on_limit='handover'",
        ),
        ({"compensate": "yes"}, "LoopOptions(compensate='yes'): it must be True or False; pass a bool"),
        (
            {"compensations": release},
            "LoopOptions(compensations=<function release at ...): it must be a tuple of @compensates functions; "
            "pass e.g. compensations=(release,)",
        ),
        (
            {"request_extra": {"tool_choice": "required"}},
            "LoopOptions(request_extra={'tool_choice': 'required'}): the field 'tool_choice' is the loop's own; "
            "remove it and pass LoopOptions(tool_choice=...)",
        ),
        (
            {"clock": 5},
            "LoopOptions(clock=5): it must be a function returning seconds; pass e.g. clock=time.perf_counter",
        ),
        (
            {"texts": "zh"},
            "LoopOptions(texts='zh'): it must be a LoopTexts; pass texts=EN or texts=ZH (toolkit.loop.texts)",
        ),
        (  # an AI service's date clock given to the loop: each call's tool ran, then its result was lost
            {"clock": datetime.datetime.now},
            "LoopOptions(clock=<built-in method now of type object at ...): it must be a function returning "
            "seconds as a number, and it returned a datetime; pass e.g. clock=time.perf_counter",
        ),
        (
            {"clock": lambda: None},
            "LoopOptions(clock=<function <lambda> at ...): it must be a function returning "
            "seconds as a number, and it returned None; pass e.g. clock=time.perf_counter",
        ),
        (
            {"clock": lambda: float("nan")},
            "LoopOptions(clock=<function <lambda> at ...): it must be a function returning "
            "seconds as a number, and it returned nan; pass e.g. clock=time.perf_counter",
        ),
        (
            {"clock": lambda: 1 / 0},
            "LoopOptions(clock=<function <lambda> at ...): it must be a function returning "
            "seconds as a number, and it raised ZeroDivisionError: division by zero; pass e.g. "
            "clock=time.perf_counter",
        ),
    ],
)
def test_loop_options_refuses_a_wrong_field_when_built(fields, message):
    with pytest.raises(ConfigurationError) as raised:
        LoopOptions(**fields)
    text = str(raised.value)
    if "at ..." in message:  # a function's address differs every run
        head, tail = message.split("...", 1)
        assert text.startswith(head) and text.endswith(tail)
    else:
        assert text == message


def test_a_changed_copy_is_checked_too_and_nothing_reaches_memory():
    with pytest.raises(ConfigurationError, match=r"^LoopOptions\(max_round_trips='3'\)"):
        dataclasses.replace(COURSE, max_round_trips="3")
    memory = ChatMemory()
    with pytest.raises(ConfigurationError):
        run_loop(
            ScriptedModel([call("charge", sku="A")]),
            Q,
            tools=[charge],
            memory=memory,
            options=LoopOptions(tool_choice="any"),
        )
    assert memory.messages() == [] and DONE == []


def test_a_clock_of_ones_own_that_returns_seconds_times_the_calls():
    ticks = iter(range(100))
    memory = ChatMemory()
    options = LoopOptions(clock=lambda: float(next(ticks)))
    result = run_loop(
        ScriptedModel([call("charge", sku="A"), "done"]), Q, tools=[charge], memory=memory, options=options
    )
    assert result.executions[0].duration_s == 1.0
    assert tool_results(memory.messages())[0][1] == "charged 99, receipt R-778"


def test_loop_options_accepts_every_documented_form():
    for choice in (None, "auto", "required", "none", {"type": "function", "function": {"name": "charge"}}):
        assert LoopOptions(tool_choice=choice).tool_choice == choice
    assert LoopOptions(max_round_trips=0, argument_repair=0, max_images=0, compensations=[release]).max_round_trips == 0
    assert LoopOptions(max_model_requests=None, guard_handover_after=None, request_extra={"seed": 7})


def test_an_applications_own_argument_error_goes_back_as_its_text_under_argument_repair():
    """A subclass of ArgumentError that lists no problems made the repair text raise AttributeError."""
    from toolkit import COURSE, UserMessage, run_loop
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.errors import ArgumentError
    from toolkit.tools.decorator import tool

    class BadOrder(ArgumentError):
        def __init__(self, text):
            Exception.__init__(self, text)

    @tool("Look up an order by its id.")
    def query_order(orderId: str) -> str:
        raise BadOrder("orderId must start with SN")

    model = ScriptedModel([call("query_order", orderId="x"), "done"])
    result = run_loop(model, [UserMessage(content="hi")], tools=[query_order], options=COURSE)
    assert result.answer == "done"
    assert result.messages[2].content == "orderId must start with SN"


def test_the_repair_policies_are_made_once_per_options_and_follow_new_options():
    """`Policies` checks each policy's signature when made (inspect.signature): the repair policy
    was made anew every turn of COURSE. It is made once per options object; other options (a
    new template) get their own."""
    from dataclasses import replace

    from toolkit import COURSE
    from toolkit.errors import ArgumentError, ArgumentProblem
    from toolkit.loop.run import repaired_policies

    first = repaired_policies(COURSE)
    assert repaired_policies(COURSE) is first
    assert first.unknown_tool is COURSE.policies.unknown_tool
    assert first.execution_error is COURSE.policies.execution_error
    other = replace(COURSE, repair_template="{tool}: {field} got {received}, wants {expected}")
    error = ArgumentError("add", [ArgumentProblem("a", "'x'", "integer")])
    text = repaired_policies(other).argument_error(error, call("add", a="x"))
    assert text == "add: a got 'x', wants " + COURSE.texts.expected("integer")


def test_a_model_that_calls_a_tool_it_was_not_offered_on_a_real_gateway():
    """`tests/quirk_gateway.py`'s `hallucinate`: the reply calls `get_order_status`, which the request
    never offered. By default the loop raises `UnknownToolError` naming the tools that exist, and no
    tool runs; with the course's options the same name goes back to the model as an error result
    listing them, and the model answers."""
    from tests.loopback import serving
    from tests.quirk_gateway import quirky
    from toolkit.chat.client import ChatClient
    from toolkit.errors import UnknownToolError

    @tool("Look up an order")
    def query_order(orderId: str) -> str:
        DONE.append(orderId)
        return f"{orderId}: shipped"

    DONE.clear()
    with serving(quirky("hallucinate")) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        with pytest.raises(UnknownToolError) as raised:
            run_loop(client, "query order SN202610200001", tools=[query_order])
    assert str(raised.value) == "There is no tool named 'get_order_status'. Available tools: query_order."
    assert DONE == []
    handler = quirky("hallucinate")
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        result = run_loop(client, "query order SN202610200001", tools=[query_order], options=COURSE)
    fed = handler.seen[1]["messages"][-1]
    assert (
        fed["role"] == "tool"
        and fed["content"] == "没有名为 get_order_status 的工具。可用的工具：query_order。请只调用这些工具。"
    )
    assert DONE == [] and result.answer.startswith("Here is what the tools said:")


@pytest.mark.parametrize("stream", [False, True])
def test_the_model_request_limit_s_hint_names_max_model_requests_not_max_round_trips(stream):
    """Before: the hint of `max_model_requests` reached said to raise `max_round_trips`, which would
    not have changed anything. Over the embedded gateway, streamed and not."""
    from toolkit.chat.switch import fake_client
    from toolkit.errors import MaxRoundTripsError
    from toolkit.loop.run import LoopOptions, run_loop
    from toolkit.tools.decorator import tool

    @tool("查询订单的状态、金额、商品")
    def query_order(orderId: str) -> str:
        return f"订单 {orderId}：已发货"

    options = LoopOptions(max_model_requests=1, stream=stream)
    with pytest.raises(MaxRoundTripsError) as caught:
        run_loop(fake_client(), "帮我查一下订单 SN202610200001", tools=[query_order], options=options)
    assert str(caught.value) == (
        "the model still asked for tools after 1 model request; something is wrong (raise max_model_requests if "
        "this is expected)"
    )
    assert caught.value.hint == (
        "Look at the calls it repeated (the loop's trace); raise LoopOptions(max_model_requests=...), or end with a "
        'hand-over instead: LoopOptions(on_limit="handover").'
    )
    with pytest.raises(MaxRoundTripsError) as caught:
        run_loop(
            fake_client(), "帮我查一下订单 SN202610200001", tools=[query_order], options=LoopOptions(max_round_trips=0)
        )
    assert "raise LoopOptions(max_round_trips=...)" in caught.value.hint


@pytest.mark.parametrize("stream", [False, True])
def test_a_streamed_turn_handed_over_at_its_limit_yields_the_sentence_as_its_last_text(stream):
    """Before: a reader printing a streamed turn's `TextDelta`s showed nothing when the loop handed
    over (the model never streamed that sentence); unstreamed, events carry no text, as before."""
    from toolkit.chat.sse import TextDelta
    from toolkit.loop.run import iter_loop

    model = ScriptedModel([call("reserve", sku="A"), call("reserve", sku="B")])
    options = LoopOptions(max_round_trips=1, on_limit="handover", stream=stream)
    steps = iter_loop(model, "buy", tools=[reserve], memory=ChatMemory("u"), options=options)
    events = []
    while True:
        try:
            events.append(next(steps))
        except StopIteration as done:
            result = done.value
            break
    texts = [e.text for e in events if isinstance(e, TextDelta)]
    assert result.finish == "handover" and texts == ([options.handover_text] if stream else [])
    assert events[-1] == TextDelta(options.handover_text) if stream else True


@tool("stream the refunds of an order")
def stream_refunds(order: str) -> object:
    async def refunds():
        DONE.append(f"read refunds of {order}")
        yield "R-1"

    return refunds()


def test_a_tool_that_returns_an_async_iterator_is_an_execution_error_not_its_repr():
    """Was a success whose text was `<async_generator object refunds>`: none of its items read."""
    model = ScriptedModel([call("stream_refunds", order="SN1", id="c1"), "done"])
    result = run_loop(model, Q, tools=[stream_refunds])
    execution = result.executions[0]
    assert (execution.error_kind, execution.result.is_error) == ("execution", True)
    assert execution.result.content == (
        "Tool 'stream_refunds' returned an async iterator, which tools cannot read (they run synchronously): "
        "none of its items were read."
    )
    assert DONE == []
    with pytest.raises(Exception) as raised:
        run_loop(
            model.__class__([call("stream_refunds", order="SN1", id="c2")]),
            Q,
            tools=[stream_refunds],
            options=LoopOptions(policies=Policies(execution_error=raise_error)),
        )
    assert str(raised.value.__cause__) == (
        "@tool test_loop_failures.stream_refunds: its executor returned an async_generator (an async iterator), "
        "which the loop cannot read, so none of its items reached the model. Fix: return a list of the items "
        "(async tools are left out for now)"
    )


async def _status_later(order: str) -> str:
    DONE.append(f"status of {order}")
    return "shipped"


@tool("look an order up")
def look_up(order: str) -> dict:
    return {"order": order, "status": _status_later(order)}  # an async client's call, never awaited


def test_a_coroutine_nested_in_a_tools_value_is_an_execution_error_not_a_success():
    """Was a success whose text held `<coroutine object _status_later>` (and a "never awaited"
    warning later): the part of the work it stood for never ran."""
    model = ScriptedModel([call("look_up", order="SN1", id="c1"), "done"])
    gc.collect()  # an earlier test's garbage (a coroutine in a cycle) is not counted as this one's
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run_loop(model, Q, tools=[look_up])
        assert no_never_awaited_warning(caught)
    execution = result.executions[0]
    assert (execution.error_kind, execution.result.is_error) == ("execution", True)
    assert execution.result.content == (
        "Tool 'look_up' returned a value holding an async call that was never awaited (tools run "
        "synchronously): that part of its work did not run."
    )
    assert DONE == []


@pytest.mark.parametrize("concurrent", [False, True])
@pytest.mark.parametrize(
    ("clock_fails", "problem"),
    [
        ("ran out", "it raised StopIteration"),  # a list of ticks run out: iter([...]).__next__
        ("raises", "it raised OSError: clock broke"),
        ("no number", "it returned None"),
    ],
)
def test_a_clock_of_ones_own_that_fails_mid_turn_keeps_the_results_and_says_so(clock_fails, problem, concurrent):
    """The clock is tried once when the options are made; one that failed later (after a call's tool ran)
    lost that call's result ('its outcome is unknown') and the turn ended with RuntimeError: generator
    raised StopIteration, or the clock's own OSError / TypeError, saying nothing of the clock."""
    readings = [0.0, 1.0]  # the options' check, then the first call's start

    def ticking():
        if readings:
            return readings.pop(0)
        if clock_fails == "ran out":
            raise StopIteration
        if clock_fails == "raises":
            raise OSError("clock broke")
        return None

    memory = ChatMemory()
    options = LoopOptions(clock=ticking, concurrent=concurrent, compensate=True, compensations=(release,))
    reply = [call("reserve", sku="A"), call("charge", sku="B")]
    with pytest.raises(ConfigurationError) as raised:
        run_loop(ScriptedModel([reply, "done"]), Q, tools=[reserve, charge], memory=memory, options=options)
    text = str(raised.value)
    head = "LoopOptions(clock=<function test_a_clock_of_ones_own_that_fails_mid_turn_keeps_the_results_and_...)"
    tail = (
        f": it must be a function returning seconds as a number, and in round 1 {problem}; the round's calls ran "
        "and their results are kept; pass e.g. clock=time.perf_counter"
    )
    assert text == head + tail
    assert raised.value.hint == (
        "Fix the code or setting the message names. But this turn's tools already ran (reserve, charge), and "
        "running it again asks the question again, which may run them again: to go on from their results, which "
        "memory holds, call run_loop(model, [], memory=...) with the same memory once what the error names is fixed."
    )
    assert sorted(DONE) == ["charge B", "reserve A"]  # both ran, and nothing was rolled back for the clock
    messages = memory.messages()
    assert [content for _, content in tool_results(messages)] == ["reserved", "charged 99, receipt R-778"]
    assert valid_for_a_strict_gateway(messages)
    executions = raised.value.loop_result.executions
    assert [e.result.content for e in executions] == ["reserved", "charged 99, receipt R-778"]
    assert all(e.duration_s >= 0 for e in executions)


def test_a_turns_record_shows_no_duration_and_no_secret_parameter():
    """A `LoopResult`'s repr (what a notebook shows for a cell ending with the result, or with
    `result.executions`) held each call's wall-clock duration, a different text every run, and the
    turn's parameters as given, an API token among them."""
    parameters = {"api_token": "tok_8f3kq9zx77", "user": "ann"}
    result = run_loop(ScriptedModel([call("charge", sku="A"), "done"]), Q, tools=[charge], parameters=parameters)
    shown = repr(result)
    assert "duration_s" not in shown and "tok_8f3kq9zx77" not in shown
    assert "parameters={'api_token': '[REDACTED]', 'user': 'ann'}" in shown
    execution = result.executions[0]
    assert execution.duration_s >= 0 and execution.context.parameters["api_token"] == "tok_8f3kq9zx77"
    assert execution.context.parameters == parameters


# -- where a failure stopped the turn --------------------------------------------------------------


class FullDisk(InMemoryStore):
    """Its `failing`-th append (counted from 1: the question is the first) raises what SQLite raises on a full disk."""

    def __init__(self, failing):
        super().__init__()
        self.failing, self.appends = failing, 0

    def append(self, memory_id, messages):
        self.appends += 1
        if self.appends == self.failing:
            raise sqlite3.OperationalError("database or disk is full")
        super().append(memory_id, messages)


def stopped_run(script, store=None):
    memory = ChatMemory("u1", store=store or InMemoryStore())
    with pytest.raises(BaseException) as raised:
        run_loop(ScriptedModel(script), Q, tools=[charge], memory=memory)
    result = raised.value.loop_result
    return [r.decision for r in result.rounds], result.stopped_at, result.stopped_by


@pytest.mark.parametrize(
    "script, store, decisions, where, what",
    [
        (  # the second request failed: round 1's decision was all the trace said
            [call("charge", sku="A", id="c1"), TransientError("HTTP 429 (transient): rate limited")],
            None,
            ["continue"],
            "model request 2 (no reply recorded)",
            "TransientError: HTTP 429 (transient): rate limited",
        ),
        (
            [KeyboardInterrupt()],
            None,
            [],
            "model request 1 (no reply recorded)",
            "KeyboardInterrupt",
        ),
        (  # memory refused the question itself: the error carried no loop_result at all
            [call("charge", sku="A", id="c1"), "done"],
            FullDisk(1),
            [],
            "before model request 1",
            "OperationalError: database or disk is full",
        ),
        (  # memory refused the reply asking for tools: its round was left undecided, its calls not run
            [call("charge", sku="A", id="c1"), "done"],
            FullDisk(2),
            ["stopped: OperationalError"],
            "round 1",
            "OperationalError: database or disk is full",
        ),
        (  # memory refused the answer: the trace showed it, undecided, as if the turn had ended there
            [call("charge", sku="A", id="c1"), "done"],
            FullDisk(4),
            ["continue", "stopped: OperationalError"],
            "round 2",
            "OperationalError: database or disk is full",
        ),
        (
            [call("charge", sku="A", id="c1"), RuntimeError("token sk-abcdefghijklmnopqrstuvwxyz0123 refused")],
            None,
            ["continue"],
            "model request 2 (no reply recorded)",
            "RuntimeError: token [REDACTED] refused",
        ),
    ],
)
def test_a_stopped_turn_says_where_it_stopped_and_why(script, store, decisions, where, what):
    """The `loop_result` of a turn a failure stopped told the trace no more than its rounds: a
    request that failed (a 429 after retries, Ctrl-C in the HTTP read) left round 1 saying
    'continue' and nothing of request 2, and a reply memory could not store left its round with
    no decision. Now every stopped round says so, and the result says where and why, sanitised."""
    assert stopped_run(script, store) == (decisions, where, what)


ANSWER_KEPT = (
    "The model answered before this error stopped the turn, and memory does not hold its answer: it is this "
    "error's loop_result.answer."
)


@pytest.mark.parametrize("tools_ran", [True, False])
def test_an_answer_memory_refused_to_store_is_carried_by_the_error_not_lost(tools_ran):
    """The model's answer came, and the store failed writing it (a full disk): the learner saw only
    the store's error, and its note said to ask the model again; the answer, paid for, was left in
    the trace. Now `loop_result.answer` holds it, and a note says so."""
    script = [call("charge", sku="A", id="c1"), "charged A"] if tools_ran else ["hello"]
    memory = ChatMemory("u1", store=FullDisk(4 if tools_ran else 2))
    with pytest.raises(sqlite3.OperationalError) as raised:
        run_loop(ScriptedModel(script), Q, tools=[charge], memory=memory)
    result = raised.value.loop_result
    assert (result.finish, result.answer) == ("stopped", script[-1])
    assert [n for n in raised.value.__notes__ if "answer" in n] == [ANSWER_KEPT]
    assert type(memory.messages()[-1]) is (ToolResultMessage if tools_ran else UserMessage)


def ended_held(what: str, where: str) -> str:
    return (
        f"This turn had ended when this error came, and memory holds all of it ({what}): nothing needs to run or be "
        f"asked again; {where}."
    )


HELD_ANSWER = ended_held("the model's answer included", "the answer is this error's loop_result.answer")
HELD_IMMEDIATE = ended_held(
    "the results of the tools that ended it included", "those results are this error's loop_result.immediate_results"
)


class FailsOnceEnded(InMemoryStore):
    """Once memory ends with what `ended` says ends a turn: its next `get` raises (once), or (`on_write`) the
    write of it goes through and then raises, as a store failing after its commit does."""

    def __init__(self, ended, on_write=False):
        super().__init__()
        self.ended, self.on_write, self.armed = ended, on_write, True

    def append(self, memory_id, messages):
        super().append(memory_id, messages)
        if self.on_write and self.armed and self.ended(self.get(memory_id)[-1]):
            self.armed = False
            raise sqlite3.OperationalError("disk I/O error")

    def get(self, memory_id):
        stored = super().get(memory_id)
        if not self.on_write and self.armed and stored and self.ended(stored[-1]):
            self.armed = False
            raise sqlite3.OperationalError("database is locked")
        return stored


def answered(message):
    return isinstance(message, AssistantMessage) and not message.tool_calls


@tool("cancel the order", return_behavior=ReturnBehavior.IMMEDIATE)
def cancel(sku: str) -> str:
    return f"order {sku} cancelled"


@pytest.mark.parametrize(
    "script, on_write, ended, note, carried",
    [
        ([call("charge", sku="A", id="c1"), "charged A"], False, answered, HELD_ANSWER, "charged A"),
        ([call("charge", sku="A", id="c1"), "charged A"], True, answered, HELD_ANSWER, "charged A"),
        (["hello"], True, answered, HELD_ANSWER, "hello"),
        (
            [call("cancel", sku="A", id="c1"), "not asked"],
            False,
            lambda m: isinstance(m, ToolResultMessage),
            HELD_IMMEDIATE,
            ["order A cancelled"],
        ),
    ],
    ids=["answer_read_back", "answer_written_then_raised", "plain_answer_written_then_raised", "immediate_read_back"],
)
def test_a_store_failing_after_the_turn_ended_says_memory_holds_it_not_to_go_on(
    script, on_write, ended, note, carried, options=LoopOptions()
):
    """Before: a turn whose every write went through, then failed reading memory back for its result (or
    whose last write committed and then raised), told the learner to go on with run_loop(model, [],
    memory=...) (the model asked again after its own answer, or after an immediate return), said that
    memory did not hold the answer it held, and lost an immediate return's results from loop_result."""
    memory = ChatMemory("u1", store=FailsOnceEnded(ended, on_write))
    with pytest.raises(sqlite3.OperationalError) as raised:
        run_loop(ScriptedModel(script), Q, tools=[charge, cancel], memory=memory, options=options)
    assert raised.value.__notes__ == [note]
    result = raised.value.loop_result
    got = result.answer if isinstance(carried, str) else [m.content for m in result.immediate_results]
    assert (result.finish, got) == ("stopped", carried)
    assert ended(memory.messages()[-1]) and valid_for_a_strict_gateway(memory.messages())


def test_a_hand_over_memory_holds_when_reading_it_back_fails_is_said_so():
    test_a_store_failing_after_the_turn_ended_says_memory_holds_it_not_to_go_on(
        [call("charge", sku="A", id="c1"), "not asked"],
        False,
        answered,
        ended_held("the hand-over sentence included", "the sentence is this error's loop_result.answer"),
        HANDOVER_ZH,
        dataclasses.replace(COURSE, max_model_requests=1),
    )


def test_a_failure_before_the_answer_carries_no_answer():
    with pytest.raises(sqlite3.OperationalError) as raised:
        run_loop(
            ScriptedModel([call("charge", sku="A", id="c1"), "done"]),
            Q,
            tools=[charge],
            memory=ChatMemory("u1", store=FullDisk(2)),
        )
    assert raised.value.loop_result.answer is None
    assert not [n for n in getattr(raised.value, "__notes__", []) if "answer" in n]


def test_a_turn_that_finished_has_no_stop():
    result = run_loop(ScriptedModel([call("charge", sku="A", id="c1"), "done"]), Q, tools=[charge])
    assert (result.stopped_at, result.stopped_by) == (None, None)


class WroteThenRaised(InMemoryStore):
    """Its appends of tool results write, then raise `raised` (Ctrl-C, or a store failing after its
    commit), the first `times` times."""

    def __init__(self, raised, times=1):
        super().__init__()
        self.raised, self.times = raised, times

    def append(self, memory_id, messages):
        super().append(memory_id, messages)
        if self.times and any(isinstance(m, ToolResultMessage) for m in messages):
            self.times -= 1
            raise self.raised


GO_ON = (
    "this turn's tools already ran (charge, reserve), and running it again asks the question again, which may "
    "run them again: to go on from their results, which memory holds, call run_loop(model, [], memory=...) with "
    "the same memory"
)


@pytest.mark.parametrize(
    "raised, times, note",
    [
        (KeyboardInterrupt(), 1, f"T{GO_ON[1:]}."),
        (sqlite3.OperationalError("disk I/O error"), 1, f"T{GO_ON[1:]} once what the error names is fixed."),
        (MemoryStoreError("locked"), 3, f"But {GO_ON} once what the error names is fixed."),
    ],
)
def test_results_a_failed_write_had_stored_are_not_stored_again(raised, times, note):
    """A write of the round's results that went through and then raised (Ctrl-C as it returned, a
    store failing after its commit) was written again: memory answered each call twice, a history
    a strict gateway refuses ('No earlier tool call with tool_call_id … is waiting'), on every
    later request of that memory. Now what memory already holds is not written again."""
    memory = ChatMemory("u1", store=WroteThenRaised(raised, times))
    model = ScriptedModel([[call("charge", sku="A", id="c1"), call("reserve", sku="A", id="c2")], "done"])
    with pytest.raises(type(raised)) as caught:
        run_loop(model, Q, tools=[charge, reserve], memory=memory)
    assert tool_results(memory.messages()) == [("c1", "charged 99, receipt R-778"), ("c2", "reserved")]
    assert valid_for_a_strict_gateway(memory.messages())
    assert caught.value.__notes__ == [note]  # memory holds the results: going on from them is said
    assert run_loop(ScriptedModel(["ok"]), [], memory=memory).answer == "ok"


class CallsWrittenThenRaised(InMemoryStore):
    """Its first append of a reply asking for tools writes, then raises `raised` (a store failing after its
    commit, Ctrl-C as the write returned)."""

    def __init__(self, raised):
        super().__init__()
        self.raised = raised

    def append(self, memory_id, messages):
        super().append(memory_id, messages)
        if self.raised is not None and any(isinstance(m, AssistantMessage) and m.tool_calls for m in messages):
            raised, self.raised = self.raised, None
            raise raised


@pytest.mark.parametrize("raised", [sqlite3.OperationalError("disk I/O error"), KeyboardInterrupt()])
def test_a_reply_asking_for_tools_whose_write_went_through_then_raised_leaves_its_calls_answered(raised, caplog):
    """Before: memory kept the reply with its calls and no results (a history a strict gateway refuses)
    until the next turn answered them "its outcome is unknown (it may have done its work)", of calls
    that never ran. Now the turn answers them itself, as never run."""
    memory = ChatMemory("u1", store=CallsWrittenThenRaised(raised))
    model = ScriptedModel([[call("charge", sku="A", id="c1"), call("reserve", sku="A", id="c2")], "done"])
    with pytest.raises(type(raised)):
        run_loop(model, Q, tools=[charge, reserve], memory=memory)
    never_ran = EN.interrupted.format(error=type(raised).__name__)
    assert tool_results(memory.messages()) == [("c1", never_ran), ("c2", never_ran)]
    assert DONE == [] and valid_for_a_strict_gateway(memory.messages())
    assert run_loop(ScriptedModel(["ok"]), [], memory=memory).answer == "ok"
    assert "left unanswered" not in caplog.text


def test_results_that_fail_to_be_recorded_without_memory_leave_the_interrupt_as_it_was(monkeypatch):
    """Without memory nothing is written again: the answer to an interrupt that then fails to be
    recorded (its images, say) leaves the interrupt as the error, never a second error of the loop's."""
    import toolkit.loop.run as loop_run

    def images_fail(*args, **kwargs):
        raise ValueError("no room for the images")

    monkeypatch.setattr(loop_run, "pass_on_images", images_fail)

    @tool("stops with Ctrl-C")
    def halt(sku: str) -> str:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as raised:
        run_loop(ScriptedModel([call("halt", sku="A", id="c1"), "done"]), Q, tools=[halt])
    assert raised.value.loop_result.stopped_at == "round 1"


# -- StopIteration from a learner's model or policy ------------------------------------------------


class ListModel:
    """A learner's own model answering from a list of replies, with `next()`."""

    def __init__(self, *replies):
        self.replies = iter(replies)

    def describe(self):
        return "replies from a list"

    def chat(self, messages, **request):
        return next(self.replies)

    def stream(self, messages, **request):
        return iter([next(self.replies)])


ASKS_CHARGE = ChatResponse(
    message=AssistantMessage(tool_calls=(ToolCall(id="c1", name="charge", arguments='{"sku": "A"}'),)),
    finish_reason="tool_calls",
)


def test_a_model_of_ones_own_whose_replies_ran_out_says_so_not_generator_raised_stop_iteration():
    """Before: `RuntimeError: generator raised StopIteration` (the loop is a generator, and Python turns
    a StopIteration raised in one into that), naming neither the model nor what it broke."""
    memory = ChatMemory("u1")
    with pytest.raises(ConfigurationError) as raised:
        run_loop(ListModel(ASKS_CHARGE), Q, tools=[charge], memory=memory)
    assert str(raised.value) == (
        "run_loop: the model (ListModel).chat() raised StopIteration (an iterator it reads had no item left: "
        "its replies ran out?); a chat model's chat() returns a ChatResponse"
    )
    assert isinstance(raised.value.__cause__, StopIteration)
    assert raised.value.hint.startswith("Fix the code or setting the message names. But this turn's tools already")
    assert tool_results(memory.messages()) == [("c1", "charged 99, receipt R-778")]


@tool("list the order's pages")
def pages(order: str) -> str:
    raise StopIteration("no page left")


def raise_its_own(error, call):
    raise error.__cause__  # the tool's own exception, to stop the loop


@pytest.mark.parametrize("concurrent", [False, True])
def test_a_policy_that_raises_stop_iteration_gets_a_clear_error_not_generator_raised_stop_iteration(concurrent):
    memory = ChatMemory("u1")
    options = LoopOptions(policies=Policies(execution_error=raise_its_own), concurrent=concurrent)
    calls = [call("pages", order="A", id="c1"), call("charge", sku="A", id="c2")]
    with pytest.raises(ConfigurationError) as raised:
        run_loop(ScriptedModel([calls, "x"]), Q, tools=[pages, charge], memory=memory, options=options)
    assert str(raised.value) == (
        "Policies(execution_error=...) raised StopIteration to stop the loop, which a generator (the loop is one) "
        "cannot pass on: Python turns it into RuntimeError('generator raised StopIteration'). Fix: raise another "
        "exception, e.g. with raise_error (the call's ToolExecutionError, caused by the tool's own)"
    )
    assert isinstance(raised.value.__cause__, StopIteration) and not hasattr(raised.value, "__notes__")
    assert (
        raised.value.hint
        == "A policy stops the loop by raising: StopIteration cannot leave a generator, so raise another exception."
    )
    assert tool_results(memory.messages())[0] == ("c1", "StopIteration: no page left")
    assert valid_for_a_strict_gateway(memory.messages())


@pytest.mark.parametrize("turns_before", [0, 1], ids=["at_the_start", "between_rounds"])
def test_a_provider_that_raises_stop_iteration_is_named_not_generator_raised_stop_iteration(turns_before):
    sets = iter([[charge]] * turns_before)
    provider = StaticProvider(lambda request: next(sets), dynamic=True)
    with pytest.raises(ConfigurationError) as raised:
        run_loop(ScriptedModel([call("charge", sku="A", id="c1"), "done"]), Q, providers=[provider])
    assert str(raised.value) == (
        "StaticProvider.provide() raised StopIteration (an iterator it reads had no item left?): the loop is a "
        "generator, which cannot pass it on (Python turns it into RuntimeError('generator raised StopIteration')). "
        "Fix: raise another exception, or read with a default: next(items, None)"
    )
    assert isinstance(raised.value.__cause__, StopIteration)
