"""`LoopOptions(tool_timeout=S)`: a call, its value's conversion to text included, waited for at most
S seconds (`toolkit.loop.time_limit`).

A tool that never returns, or returns a value whose `__str__` / `__repr__` / JSON conversion never
does, hung the turn (no time limit covered the call or the conversion, which runs where the call
ran). With a limit the call is answered with an error saying its outcome is unknown, the turn goes
on, and what the call gives later is never recorded.
"""

import dataclasses
import json
import math
import sys
import threading

import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage, to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError, ToolExecutionError
from toolkit.gateway.validate import check_request
from toolkit.loop.records import COURSE, LoopOptions
from toolkit.loop.run import run_loop
from toolkit.loop.saga import compensates
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool
from toolkit.tools.execute import Policies, raise_error

Q = [UserMessage(content="go")]
LIMIT = 0.2
SLOW = (
    "Tool 'slow' did not finish within 0.2 s: the loop stopped waiting for it, and it may still be running. "
    "Its outcome is unknown (it may have done its work). Check before calling it again."
)


@pytest.fixture
def release():
    """An event the hung tools wait on; set when the test ends, so their threads end too."""
    event = threading.Event()
    yield event
    event.set()


def results(messages):
    return [(m.tool_call_id, m.content) for m in messages if isinstance(m, ToolResultMessage)]


def valid(messages):
    check_request({"model": "m", "messages": to_openai(list(messages))})
    return True


class Hangs:
    """A value whose conversion to text never ends (until `release`): `__str__` and `__repr__`
    wait, and JSON cannot write it, so `to_text` falls back to its `str()`."""

    def __init__(self, release):
        self.release = release

    def __str__(self):
        self.release.wait()
        return "late"

    __repr__ = __str__


def hung_value(release):
    return Hangs(release)


def hung_json(release):
    """A dict JSON writes through pydantic, whose `default` (`__str__` of the object) hangs."""
    return {"rows": [Hangs(release)]}


def hung_body(release):
    release.wait()
    return "late"


@pytest.mark.parametrize("slowness", [hung_value, hung_json, hung_body])
def test_a_call_or_its_values_conversion_that_never_ends_is_answered_after_the_limit(release, slowness):
    @tool("slow")
    def slow() -> object:
        return slowness(release)

    memory = ChatMemory()
    model = ScriptedModel([call("slow", id="c1"), "the order could not be checked"])
    result = run_loop(model, Q, tools=[slow], memory=memory, options=LoopOptions(tool_timeout=LIMIT))
    assert result.answer == "the order could not be checked"
    assert results(memory.messages()) == [("c1", SLOW)]
    assert result.executions[0].error_kind == "execution"
    assert result.executions[0].result.is_error
    assert model.requests[1].messages[-1].content == SLOW  # the model read it
    assert valid(memory.messages())


def test_what_a_call_gives_after_the_limit_is_never_recorded(release):
    ended = threading.Event()

    @tool("slow")
    def slow() -> str:
        try:
            release.wait()
            return "late"
        finally:
            ended.set()

    memory = ChatMemory()
    run_loop(
        ScriptedModel([call("slow", id="c1"), "done"]),
        Q,
        tools=[slow],
        memory=memory,
        options=LoopOptions(tool_timeout=LIMIT),
    )
    before = memory.messages()
    release.set()
    assert ended.wait(2)
    assert memory.messages() == before and results(before) == [("c1", SLOW)]


def test_in_a_concurrent_round_the_others_keep_their_results_in_the_models_order(release):
    @tool("slow")
    def slow() -> str:
        release.wait()
        return "late"

    @tool("quick")
    def quick(n: int) -> str:
        return f"quick {n}"

    calls = [call("quick", n=1, id="c1"), call("slow", id="c2"), call("quick", n=3, id="c3")]
    memory = ChatMemory()
    options = LoopOptions(concurrent=True, max_workers=2, tool_timeout=LIMIT)
    result = run_loop(ScriptedModel([calls, "done"]), Q, tools=[slow, quick], memory=memory, options=options)
    assert result.answer == "done"
    assert results(memory.messages()) == [("c1", "quick 1"), ("c2", SLOW), ("c3", "quick 3")]


def test_a_call_within_the_limit_is_as_without_one_and_sees_the_callers_context_variables():
    import contextvars

    request_id = contextvars.ContextVar("request_id", default="none")
    seen = []

    @tool("lookup")
    def lookup() -> dict:
        seen.append((request_id.get(), threading.current_thread() is threading.main_thread()))
        return {"status": "shipped"}

    for limit in (None, 5.0):
        request_id.set("req-7")
        memory = ChatMemory()
        run_loop(
            ScriptedModel([call("lookup", id="c1"), "done"]),
            Q,
            tools=[lookup],
            memory=memory,
            options=LoopOptions(tool_timeout=limit),
        )
        assert results(memory.messages()) == [("c1", '{"status": "shipped"}')]
    # without a limit the call runs on the caller's thread (one call never spawns a thread)
    assert seen == [("req-7", True), ("req-7", False)]


def test_a_timeout_under_raise_error_stops_the_turn_with_the_cause_a_timeout(release):
    @tool("slow")
    def slow() -> str:
        release.wait()
        return "late"

    memory = ChatMemory()
    options = LoopOptions(tool_timeout=LIMIT, policies=Policies(execution_error=raise_error))
    with pytest.raises(ToolExecutionError) as raised:
        run_loop(ScriptedModel([call("slow", id="c1"), "done"]), Q, tools=[slow], memory=memory, options=options)
    assert str(raised.value) == SLOW
    assert type(raised.value.__cause__) is TimeoutError
    assert str(raised.value.__cause__) == "no result within 0.2 s"
    assert raised.value.loop_result.stopped_by == f"ToolExecutionError: {SLOW}"
    assert results(memory.messages()) == [("c1", SLOW)]


def test_an_interrupt_or_an_error_raised_within_the_limit_goes_on_as_without_one():
    @tool("stop")
    def stop() -> str:
        raise KeyboardInterrupt

    @tool("broken")
    def broken() -> str:
        raise RuntimeError("no such table")

    memory = ChatMemory()
    options = LoopOptions(tool_timeout=5.0)
    result = run_loop(
        ScriptedModel([call("broken", id="c0"), "sorry"]), Q, tools=[broken], memory=memory, options=options
    )
    assert results(result.new_messages) == [("c0", "Tool 'broken' failed: RuntimeError: no such table")]
    with pytest.raises(KeyboardInterrupt):
        run_loop(ScriptedModel([call("stop", id="c1"), "x"]), Q, tools=[stop], memory=memory, options=options)
    assert results(memory.messages())[-1] == (
        "c1",
        "Interrupted by KeyboardInterrupt while it ran: its outcome is unknown (it may have done its work). "
        "Check before calling it again.",
    )
    assert valid(memory.messages())


def test_a_timed_out_call_rolls_back_the_rounds_compensable_calls(release):
    undone = []

    @tool("reserve stock")
    def reserve(sku: str) -> str:
        return "reserved"

    @compensates("reserve")
    def release_stock(sku: str) -> None:
        undone.append(sku)

    @tool("charge the card")
    def slow() -> str:
        release.wait()
        return "late"

    calls = [call("reserve", sku="A1", id="c1"), call("slow", id="c2")]
    options = LoopOptions(tool_timeout=LIMIT, compensate=True, compensations=(release_stock,))
    memory = ChatMemory()
    run_loop(ScriptedModel([calls, "done"]), Q, tools=[reserve, slow], memory=memory, options=options)
    assert undone == ["A1"]
    assert results(memory.messages()) == [
        ("c1", "Tool 'reserve' was executed successfully but was rolled back due to failure of tool 'slow'"),
        ("c2", SLOW),
    ]


def test_the_course_texts_say_it_in_chinese(release):
    @tool("slow")
    def slow() -> str:
        release.wait()
        return "late"

    memory = ChatMemory()
    options = dataclasses.replace(COURSE, tool_timeout=LIMIT)
    run_loop(ScriptedModel([call("slow", id="c1"), "好的"]), Q, tools=[slow], memory=memory, options=options)
    assert results(memory.messages()) == [
        (
            "c1",
            "工具 'slow' 在 0.2 秒内没有完成：不再等待它，它可能仍在运行。结果未知（可能已经执行）。再次调用前请先确认。",
        )
    ]


RULE = "it must be None or a number of seconds greater than 0 (an int or a float); pass e.g. tool_timeout=30"


@pytest.mark.parametrize("value", [0, -1, 0.0, math.nan, math.inf, "30", True, [30]])
def test_loop_options_refuses_a_tool_timeout_that_is_no_number_of_seconds(value):
    with pytest.raises(ConfigurationError) as raised:
        LoopOptions(tool_timeout=value)
    assert str(raised.value) == f"LoopOptions(tool_timeout={value!r}): {RULE}"


def test_loop_options_shows_and_takes_a_tool_timeout():
    assert repr(LoopOptions(tool_timeout=30)) == "LoopOptions(tool_timeout=30)"
    assert LoopOptions(tool_timeout=0.5).tool_timeout == 0.5
    assert json.dumps(LoopOptions().tool_timeout) == "null"


def test_ctrl_c_while_the_loop_waits_answers_the_running_call_and_keeps_the_earlier_ones(release):
    """The call runs on its own thread, so a Ctrl-C lands in the loop's wait (in slices: acted on at
    once); the call still running is answered "outcome unknown", the finished one keeps its result."""
    import _thread

    @tool("quick")
    def quick() -> str:
        return "done quickly"

    @tool("stuck")
    def stuck() -> str:
        _thread.interrupt_main()  # what Ctrl-C in a notebook does to the kernel's main thread
        release.wait()
        return "late"

    memory = ChatMemory()
    script = [[call("quick", id="c1"), call("stuck", id="c2")], "x"]
    with pytest.raises(KeyboardInterrupt) as raised:
        run_loop(ScriptedModel(script), Q, tools=[quick, stuck], memory=memory, options=LoopOptions(tool_timeout=30))
    assert results(memory.messages()) == [
        ("c1", "done quickly"),
        (
            "c2",
            "Interrupted by KeyboardInterrupt while it ran: its outcome is unknown (it may have done its work). "
            "Check before calling it again.",
        ),
    ]
    assert raised.value.loop_result.finish == "stopped"
    assert valid(memory.messages())


def test_a_call_past_its_limit_no_longer_counts_as_serving_the_turn(release):
    """While the loop waits, a write the tool makes to the turn's memory goes under the turn's hold
    (`serving()` names the waiting thread); once the loop gave up, nothing waits for the call, and
    a later write of it must wait for the memory's lock like any other thread's (else it could land
    in the middle of the caller's next turn)."""
    from toolkit.memory.turns import serving

    seen, ended = [], threading.Event()

    @tool("slow")
    def slow() -> str:
        seen.append(list(serving()))
        release.wait()
        seen.append(list(serving()))
        ended.set()
        return "late"

    run_loop(
        ScriptedModel([call("slow", id="c1"), "done"]),
        Q,
        tools=[slow],
        memory=ChatMemory(),
        options=LoopOptions(tool_timeout=LIMIT),
    )
    release.set()
    assert ended.wait(2)
    assert seen == [[threading.get_ident()], []]


def test_a_compensation_past_the_limit_is_logged_as_not_done_and_the_turn_goes_on(release):
    @tool("reserve stock")
    def reserve(sku: str) -> str:
        return "reserved"

    @compensates("reserve")
    def release_stock(sku: str) -> None:
        release.wait()

    @tool("charge the card")
    def charge() -> str:
        raise RuntimeError("card declined")

    calls = [call("reserve", sku="A1", id="c1"), call("charge", id="c2")]
    options = LoopOptions(tool_timeout=LIMIT, compensate=True, compensations=(release_stock,))
    memory = ChatMemory()
    result = run_loop(ScriptedModel([calls, "done"]), Q, tools=[reserve, charge], memory=memory, options=options)
    assert result.answer == "done"
    assert [(e.tool, e.ok, e.detail) for e in result.saga] == [
        (
            "reserve",
            False,
            "compensation did not finish within 0.2 s: the loop stopped waiting for it, and it may still be "
            "running; the call may not have been undone",
        )
    ]
    assert results(memory.messages()) == [
        ("c1", "reserved"),
        ("c2", "Tool 'charge' failed: RuntimeError: card declined"),
    ]


NOT_COMPENSATED = (
    "not compensated: the call did not finish within 0.2 s and may still be running, so whether it took effect "
    "is unknown; check, and undo it by hand if it did"
)


def reserve_and_hung_charge(release, undone):
    """A quick `reserve` and a `charge` that hangs until `release`, each with a compensation that notes its
    argument in `undone`."""

    @tool("reserve stock")
    def reserve(sku: str) -> str:
        return "reserved"

    @tool("charge the card")
    def charge(amount: int) -> str:
        release.wait()
        return "charged"

    @compensates("reserve")
    def release_stock(sku: str) -> None:
        undone.append(sku)

    @compensates("charge")
    def refund(amount: int) -> None:
        undone.append(amount)

    return reserve, charge, release_stock, refund


def test_a_timed_out_compensable_call_is_logged_as_not_compensated_and_the_others_are_rolled_back(release, caplog):
    """Its outcome is unknown: compensating it could race the call still running (undo first, then the
    call lands), and saying nothing left the saga log reading as if the round were fully undone."""
    undone: list[object] = []
    reserve, charge, release_stock, refund = reserve_and_hung_charge(release, undone)
    calls = [call("reserve", sku="A1", id="c1"), call("charge", amount=5, id="c2")]
    options = LoopOptions(tool_timeout=LIMIT, compensate=True, compensations=(release_stock, refund))
    memory = ChatMemory()
    with caplog.at_level("WARNING", logger="toolkit.loop"):
        result = run_loop(ScriptedModel([calls, "done"]), Q, tools=[reserve, charge], memory=memory, options=options)
    assert undone == ["A1"]
    assert [(e.tool, e.call_id, e.ok, e.detail, e.round, e.call_round) for e in result.saga] == [
        ("charge", "c2", False, NOT_COMPENSATED, 1, 1),
        ("reserve", "c1", True, "rolled back", 1, 1),
    ]
    assert result.saga[0].compensation.endswith(".refund")
    assert results(memory.messages()) == [
        ("c1", "Tool 'reserve' was executed successfully but was rolled back due to failure of tool 'charge'"),
        ("c2", SLOW.replace("'slow'", "'charge'")),
    ]
    assert [r.getMessage() for r in caplog.records if r.name == "toolkit.loop"] == [
        f"memory id 'default': call c2 of tool 'charge' was not compensated, and its effect may hold: {NOT_COMPENSATED}"
    ]


def test_a_timed_out_call_without_a_compensation_adds_nothing_to_the_saga_log(release):
    @tool("charge the card")
    def charge(amount: int) -> str:
        release.wait()
        return "charged"

    options = LoopOptions(tool_timeout=LIMIT, compensate=True)
    result = run_loop(ScriptedModel([call("charge", amount=5, id="c1"), "done"]), Q, tools=[charge], options=options)
    assert result.saga == [] and result.answer == "done"


NO_LIMIT_NOTE = (
    "call c1 (stuck) was still running when KeyboardInterrupt stopped the turn (its result reads: outcome unknown); "
    "a call that may hang can be given a time limit: LoopOptions(tool_timeout=30) answers it after 30 s, and the "
    "turn goes on"
)


@pytest.mark.parametrize("limit", [None, 5.0])
def test_ctrl_c_while_a_call_runs_without_a_limit_names_the_call_and_the_limit_to_set(limit):
    """Without `tool_timeout` a call that hangs holds the turn until Ctrl-C: the interruption says which
    call was running and what answers such a call instead (with a limit set, nothing to add)."""

    @tool("quick")
    def quick() -> str:
        return "done quickly"

    @tool("stuck")
    def stuck() -> str:
        raise KeyboardInterrupt  # Ctrl-C lands in the tool, on the loop's thread

    memory = ChatMemory()
    script = [[call("quick", id="c0"), call("stuck", id="c1")], "x"]
    with pytest.raises(KeyboardInterrupt) as raised:
        run_loop(ScriptedModel(script), Q, tools=[quick, stuck], memory=memory, options=LoopOptions(tool_timeout=limit))
    notes = getattr(raised.value, "__notes__", [])
    assert [n for n in notes if "tool_timeout" in n] == ([NO_LIMIT_NOTE] if limit is None else [])
    assert valid(memory.messages())


def test_ctrl_c_while_the_model_is_asked_names_no_running_call():
    class Interrupted(ScriptedModel):
        def chat(self, messages, **kwargs):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as raised:
        run_loop(Interrupted(["x"]), Q, memory=ChatMemory())
    assert not [n for n in getattr(raised.value, "__notes__", []) if "tool_timeout" in n]


def test_ctrl_c_in_a_concurrent_round_names_every_call_still_running():
    @tool("first")
    def first() -> str:
        raise KeyboardInterrupt

    @tool("second")
    def second() -> str:
        raise KeyboardInterrupt

    script = [[call("first", id="c1"), call("second", id="c2")], "x"]
    with pytest.raises(KeyboardInterrupt) as raised:
        run_loop(ScriptedModel(script), Q, tools=[first, second], options=LoopOptions(concurrent=True))
    assert [n for n in raised.value.__notes__ if "tool_timeout" in n] == [
        "calls c1 (first), c2 (second) were still running when KeyboardInterrupt stopped the turn (their results "
        "read: outcome unknown); a call that may hang can be given a time limit: LoopOptions(tool_timeout=30) "
        "answers it after 30 s, and the turn goes on"
    ]


def test_a_call_ctrl_c_stopped_waiting_for_no_longer_counts_as_serving_the_turn(release):
    """Ctrl-C ends the loop's wait as the limit does, and the call goes on as it does past the limit:
    it still counted as serving the interrupted turn's thread, so a write it made to that memory
    during the next turn went under that turn's hold (in the middle of its calls and results), and a
    turn it started on that memory was refused as nested instead of waiting."""
    import signal

    from toolkit.memory.turns import serving

    if not hasattr(signal, "pthread_kill"):
        pytest.skip("needs signal.pthread_kill (POSIX)")
    seen, ended = [], threading.Event()
    main = threading.main_thread().ident

    def handler(signum, frame):
        raise KeyboardInterrupt

    @tool("slow")
    def slow() -> str:
        seen.append(list(serving()))
        signal.pthread_kill(main, signal.SIGINT)  # the learner presses Ctrl-C while the loop waits
        release.wait()
        seen.append(list(serving()))
        ended.set()
        return "late"

    previous = signal.signal(signal.SIGINT, handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_loop(
                ScriptedModel([call("slow", id="c1"), "done"]),
                Q,
                tools=[slow],
                memory=ChatMemory(),
                options=LoopOptions(tool_timeout=30),
            )
    finally:
        signal.signal(signal.SIGINT, previous)
    release.set()
    assert ended.wait(5)
    assert seen == [[main], []]


def test_ctrl_c_before_the_wait_begins_also_stops_the_call_serving_the_turn(release, monkeypatch):
    """Ctrl-C can land after the call's thread started and before the loop's wait began (a full CI run
    caught it there): the call still counted as serving the interrupted turn."""
    from toolkit.loop import time_limit
    from toolkit.memory.turns import serving

    seen, started, ended = [], threading.Event(), threading.Event()
    start_thread = time_limit.start_thread

    def start_then_ctrl_c(target):
        start_thread(target)
        assert started.wait(5)
        raise KeyboardInterrupt

    monkeypatch.setattr(time_limit, "start_thread", start_then_ctrl_c)

    @tool("slow")
    def slow() -> str:
        started.set()
        release.wait()
        seen.append(list(serving()))
        ended.set()
        return "late"

    with pytest.raises(KeyboardInterrupt):
        run_loop(ScriptedModel([call("slow", id="c1"), "done"]), Q, tools=[slow], options=LoopOptions(tool_timeout=30))
    release.set()
    assert ended.wait(5)
    assert seen == [[]]


def test_a_timed_out_compensable_call_under_raise_error_is_named_as_not_compensated_on_the_error(release):
    reserve, charge, release_stock, refund = reserve_and_hung_charge(release, [])
    calls = [call("reserve", sku="A1", id="c1"), call("charge", amount=5, id="c2")]
    options = LoopOptions(
        tool_timeout=LIMIT,
        compensate=True,
        compensations=(release_stock, refund),
        policies=Policies(execution_error=raise_error),
    )
    with pytest.raises(ToolExecutionError) as raised:
        run_loop(ScriptedModel([calls, "done"]), Q, tools=[reserve, charge], options=options)
    assert [n for n in raised.value.__notes__ if n.startswith("compensations")] == [
        "compensations ran before this error propagated: charge (not compensated: its outcome is unknown), reserve (ok)"
    ]


@pytest.mark.parametrize("value", [10**400, 10**5000], ids=["400-digits", "5000-digits"])
def test_loop_options_refuses_more_seconds_than_a_float_holds_when_built(value):
    """`0 < 10**400 < inf` holds, so it passed, and the first call's deadline (a float) raised
    OverflowError mid-turn, its tool already started; 10**5000 has no repr (Python's digit limit)."""
    with pytest.raises(ConfigurationError) as raised:
        LoopOptions(tool_timeout=value)
    assert str(raised.value) == (
        f"LoopOptions(tool_timeout=<an int of {value.bit_length()} bits>): it is more seconds than a float holds "
        "(the wait's deadline is a float); pass e.g. tool_timeout=30, or None for no limit"
    )


def test_the_most_seconds_a_float_holds_is_a_limit():
    assert LoopOptions(tool_timeout=sys.float_info.max).tool_timeout == sys.float_info.max
    assert LoopOptions(tool_timeout=2**1000).tool_timeout == 2**1000


@pytest.mark.parametrize(
    "fields", [{"tool_timeout": -(10**5000)}, {"max_round_trips": -(10**5000)}], ids=["timeout", "trips"]
)
def test_a_number_too_long_to_write_is_shown_by_its_size_in_the_refusal(fields):
    """Python writes no int of more than 4,300 digits: the refusal's repr of it raised ValueError."""
    [(name, value)] = fields.items()
    with pytest.raises(ConfigurationError) as raised:
        LoopOptions(**fields)
    assert str(raised.value).startswith(f"LoopOptions({name}=<an int of {value.bit_length()} bits>): it must be ")
