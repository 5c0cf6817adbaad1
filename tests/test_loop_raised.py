"""`toolkit.loop.run` when a call's policy raises: what ran is recorded as it ran.

Two- and three-call rounds, every raising policy (unknown tool, argument error, execution error
with `raise_error`), with and without memory, sequential and concurrent. Each call's recorded
result must agree with what really happened: a call that ran keeps its real result, the call
that raised gets its error, a call never started reads "not run, and why". The conversation
stays valid for a strict gateway (the embedded gateway's own request check).
"""

import threading

import pytest

from toolkit.chat.messages import AssistantMessage, ToolResultMessage, UserMessage, to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ArgumentError, ToolExecutionError, UnknownToolError
from toolkit.gateway.validate import check_request
from toolkit.loop.run import COURSE, LoopOptions, iter_loop, run_loop
from toolkit.loop.texts import EN, ZH
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool
from toolkit.tools.execute import Policies, raise_error

Q = [UserMessage(content="下单")]
RAN: list[str] = []


@tool("a")
def ta(label: str) -> str:
    RAN.append(label)
    return f"done {label}"


@tool("fails")
def boom(label: str) -> str:
    RAN.append(label)
    raise RuntimeError("carrier down")


BAD = {
    # policy name: (the failing call, the policies that raise, the exception type, its text)
    "unknown_tool": (
        lambda: call("ghost", label="x"),
        Policies(),
        UnknownToolError,
        "There is no tool named 'ghost'. Available tools: boom, ta.",
    ),
    "argument": (
        lambda: call("ta", label=5),
        Policies(),
        ArgumentError,
        "Invalid arguments for tool 'ta':\n- label: got 5, expected a string\nFix the arguments and call ta again.",
    ),
    "execution": (
        lambda: call("boom", label="b"),
        Policies(execution_error=raise_error),
        ToolExecutionError,
        "Tool 'boom' failed: RuntimeError: carrier down",
    ),
}


def setup_function():
    RAN.clear()


def valid_for_a_strict_gateway(messages):
    check_request({"model": "m", "messages": to_openai(list(messages))})
    return True


def round_of(shape, bad):
    """`shape` like "ok bad ok": the calls of one round, in order."""
    calls, n = [], 0
    for kind in shape.split():
        if kind == "bad":
            calls.append(bad())
        else:
            n += 1
            calls.append(call("ta", label=f"ok{n}"))
    return calls


@pytest.mark.parametrize("channel", list(BAD))
@pytest.mark.parametrize("shape", ["ok bad", "bad ok", "ok bad ok", "ok ok bad"])
@pytest.mark.parametrize("with_memory", [False, True])
@pytest.mark.parametrize("concurrent", [False, True])
def test_a_raised_failure_keeps_what_ran(channel, shape, with_memory, concurrent):
    """Issue: every call of the round used to read "Not completed", including ones that ran."""
    make_bad, policies, error_type, error_text = BAD[channel]
    calls = round_of(shape, make_bad)
    memory = ChatMemory("u1") if with_memory else None
    options = LoopOptions(policies=policies, concurrent=concurrent)
    with pytest.raises(error_type) as info:
        run_loop(ScriptedModel([calls]), Q, tools=[ta, boom], memory=memory, options=options)
    messages = memory.messages() if memory else info.value.loop_result.messages
    assert valid_for_a_strict_gateway(messages)
    results = {m.tool_call_id: m for m in messages if isinstance(m, ToolResultMessage)}
    assert list(results) == [c.id for c in calls]  # every call answered once, in the model's order
    bad_index = shape.split().index("bad")
    for i, c in enumerate(calls):
        result = results[c.id]
        label = f"ok{sum(1 for k in shape.split()[: i + 1] if k == 'ok')}"
        if i == bad_index:
            assert (result.content, result.is_error) == (error_text, True)
        elif label in RAN:  # it ran (always, before the failure; maybe, concurrently, after it)
            assert (result.content, result.is_error) == (f"done {label}", False)
        else:  # never started: sequentially only after the failure; concurrently, any call still queued
            assert concurrent or i > bad_index
            assert result.content == EN.not_run.format(tool=calls[bad_index].name, error=error_type.__name__)
            assert result.is_error
    ran_before = [f"ok{n}" for n in range(1, shape.split()[:bad_index].count("ok") + 1)]
    if not concurrent:  # concurrently, the thread pool decides what had started when the failure came
        assert RAN[: len(ran_before)] == ran_before
        assert not any(label.startswith("ok") and label not in ran_before for label in RAN)


def test_concurrent_calls_in_flight_finish_and_keep_their_results():
    """All three calls are running when the middle one raises: both others finish and keep."""
    started = threading.Barrier(3, timeout=60)  # all three start at once when things are right

    @tool("slow")
    def slow(label: str) -> str:
        started.wait()
        RAN.append(label)
        return f"done {label}"

    @tool("bad")
    def bad() -> str:
        started.wait()
        raise RuntimeError("carrier down")

    calls = [call("slow", label="A"), call("bad"), call("slow", label="C")]
    memory = ChatMemory()
    options = LoopOptions(policies=Policies(execution_error=raise_error), concurrent=True)
    with pytest.raises(ToolExecutionError):
        run_loop(ScriptedModel([calls]), Q, tools=[slow, bad], memory=memory, options=options)
    contents = [m.content for m in memory.messages() if isinstance(m, ToolResultMessage)]
    assert contents == ["done A", "Tool 'bad' failed: RuntimeError: carrier down", "done C"]
    assert sorted(RAN) == ["A", "C"]


def test_concurrent_calls_not_yet_started_are_not_run():
    """One worker: the call queued behind the raising one never starts."""
    calls = [call("ta", label="ok1"), call("ghost"), call("ta", label="ok2")]
    memory = ChatMemory()
    with pytest.raises(UnknownToolError):
        run_loop(
            ScriptedModel([calls]),
            Q,
            tools=[ta],
            memory=memory,
            options=LoopOptions(concurrent=True, max_workers=1),
        )
    contents = [m.content for m in memory.messages() if isinstance(m, ToolResultMessage)]
    assert contents[0] == "done ok1" and contents[2].startswith("Not run: another call of this round (ghost)")
    assert RAN == ["ok1"]


def test_the_raised_error_carries_the_rounds_for_the_trace():
    calls = [call("ta", label="ok1"), call("ghost"), call("ta", label="ok2")]
    with pytest.raises(UnknownToolError) as info:
        run_loop(ScriptedModel([call("ta", label="first"), calls]), Q, tools=[ta])
    result = info.value.loop_result
    assert result.finish == "stopped" and result.saga == [] and info.value.saga == []
    assert [e.error_kind for e in result.rounds[-1].executions] == [None, "unknown_tool", "not_run"]
    assert result.rounds[-1].decision == "stopped: UnknownToolError"


def test_events_announce_only_calls_that_start():
    calls = [call("ta", label="ok1"), call("ghost"), call("ta", label="ok2")]
    events = iter_loop(ScriptedModel([calls]), Q, tools=[ta])
    seen = []
    with pytest.raises(UnknownToolError):
        for event in events:
            seen.append((type(event).__name__, getattr(event, "call", None) or event.execution.call))
    assert [(kind, c.name) for kind, c in seen] == [
        ("ToolStarted", "ta"),
        ("ToolFinished", "ta"),
        ("ToolStarted", "ghost"),
        ("ToolFinished", "ghost"),
        ("ToolFinished", "ta"),
    ]


def test_a_consumer_that_stops_iterating_mid_round_leaves_memory_valid():
    memory = ChatMemory()
    events = iter_loop(
        ScriptedModel([[call("ta", label="ok1"), call("ta", label="ok2")]]), Q, tools=[ta], memory=memory
    )
    next(events)  # ToolStarted ok1
    next(events)  # ToolFinished ok1
    events.close()  # the UI went away
    contents = [m.content for m in memory.messages() if isinstance(m, ToolResultMessage)]
    assert contents == ["done ok1", EN.interrupted.format(error="GeneratorExit")]
    assert valid_for_a_strict_gateway(memory.messages())


def test_a_consumer_that_stops_after_one_finish_of_a_concurrent_round_keeps_every_result():
    """Issue 18, what ran is recorded as it ran: a concurrent round has run all its calls before it
    announces the first finish. Before, a consumer that stopped there left the others' real results
    out, and memory said "Interrupted … its outcome is unknown" for calls that had finished."""
    memory = ChatMemory()
    calls = [call("ta", label="ok1"), call("ta", label="ok2"), call("ta", label="ok3")]
    options = LoopOptions(concurrent=True)
    events = iter_loop(ScriptedModel([calls, "ok"]), Q, tools=[ta], memory=memory, options=options)
    assert [type(next(events)).__name__ for _ in range(4)] == ["ToolStarted"] * 3 + ["ToolFinished"]
    events.close()
    contents = [m.content for m in memory.messages() if isinstance(m, ToolResultMessage)]
    assert contents == ["done ok1", "done ok2", "done ok3"]
    assert valid_for_a_strict_gateway(memory.messages())


def test_under_course_the_not_run_text_is_chinese():
    options = LoopOptions(policies=Policies(execution_error=raise_error), texts=ZH)
    memory = ChatMemory()
    with pytest.raises(ToolExecutionError):
        run_loop(
            ScriptedModel([[call("boom", label="b"), call("ta", label="ok1")]]),
            Q,
            tools=[ta, boom],
            memory=memory,
            options=options,
        )
    assert memory.messages()[-1].content == "未执行：本轮的另一个调用 boom 出错（ToolExecutionError），这一轮已停止。"


def test_a_repeated_tool_call_id_gets_its_own_id_and_result():
    """Issue 14 §8: one reply with two calls sharing an id stored both results under one id, and a
    strict gateway rejected the next request. The repeat is renamed; both run; both answered."""
    reply = AssistantMessage(tool_calls=(call("ta", label="x", id="c1"), call("ta", label="y", id="c1")))
    memory = ChatMemory()
    model = ScriptedModel([reply, "ok"])
    result = run_loop(model, Q, tools=[ta], memory=memory)
    assert [c.id for c in memory.messages()[1].tool_calls] == ["c1", "r000001c2"]
    assert [(m.tool_call_id, m.content) for m in memory.messages() if isinstance(m, ToolResultMessage)] == [
        ("c1", "done x"),
        ("r000001c2", "done y"),
    ]
    assert result.rounds[0].notes == ["tool call 2 (ta) repeated the id of tool call 1; it got an id of its own"]
    assert valid_for_a_strict_gateway(model.requests[1].messages)


def test_renamed_ids_never_collide_with_ids_the_model_sent():
    reply = AssistantMessage(
        tool_calls=(
            call("ta", label="x", id="c1"),
            call("ta", label="y", id="r000001c3"),
            call("ta", label="z", id="c1"),
        )
    )
    result = run_loop(ScriptedModel([reply, "ok"]), Q, tools=[ta])
    assert [c.id for c in result.messages[1].tool_calls] == ["c1", "r000001c3", "r0001c3v1"]
    assert valid_for_a_strict_gateway(result.messages)


def test_course_raises_nothing_for_model_mistakes():
    """COURSE feeds the unknown-tool and argument channels back, so nothing above raises there."""
    result = run_loop(ScriptedModel([[call("ghost"), call("ta", label="ok1")], "ok"]), Q, tools=[ta], options=COURSE)
    assert result.finish == "answer" and RAN == ["ok1"]


def test_a_custom_policy_that_raises_its_own_exception_is_recorded_sanitised():
    class Stop(Exception):
        pass

    def stop(error, call):
        raise Stop("escalate: db password=hunter2")

    memory = ChatMemory()
    with pytest.raises(Stop):
        run_loop(
            ScriptedModel([[call("ta", label="ok1"), call("boom", label="b")]]),
            Q,
            tools=[ta, boom],
            memory=memory,
            options=LoopOptions(policies=Policies(execution_error=stop)),
        )
    results = [m for m in memory.messages() if isinstance(m, ToolResultMessage)]
    assert results[0].content == "done ok1"
    assert results[1].is_error and "hunter2" not in results[1].content and "escalate" in results[1].content


@pytest.mark.parametrize("stream", [False, True])
def test_a_model_request_that_fails_after_tools_ran_carries_what_they_did(stream):
    """A 503 (or a cut stream) on the second request: the tool already had its effect, and
    without memory the caller's list was never touched, so the error must carry the turn."""
    from toolkit.errors import TransientError

    RAN.clear()
    failure = TransientError("HTTP 503 (transient): upstream busy", status=503)
    model = ScriptedModel([[call("ta", label="book")], failure])
    with pytest.raises(TransientError) as caught:
        run_loop(model, list(Q), tools=[ta], options=LoopOptions(stream=stream))
    assert RAN == ["book"]
    result = caught.value.loop_result
    assert result.finish == "stopped" and len(result.rounds) == 1
    assert [type(m).__name__ for m in result.new_messages] == ["AssistantMessage", "ToolResultMessage"]
    assert result.new_messages[1].content == "done book"
    check_request({"model": "m", "messages": to_openai(result.messages)})  # valid to send on


def test_a_first_request_that_fails_carries_an_empty_turn():
    model = ScriptedModel([RuntimeError("no route to host")])
    with pytest.raises(RuntimeError) as caught:
        run_loop(model, list(Q), tools=[ta])
    assert caught.value.loop_result.rounds == [] and caught.value.loop_result.new_messages == []


def test_ctrl_c_during_concurrent_calls_keeps_the_results_of_the_calls_that_finished():
    """The calls already running finish (threads cannot be stopped): their real results are
    recorded, not "not completed", or the model would be told they never happened."""
    import os
    import signal
    import time

    charged: list[str] = []

    @tool("charge a card")
    def charge(card: str) -> str:
        if card == "c0":
            os.kill(os.getpid(), signal.SIGINT)  # the learner presses Ctrl-C while the calls run
        time.sleep(0.2)
        charged.append(card)
        return f"charged {card}"

    memory = ChatMemory("ctrl-c")
    calls = [call("charge", card=f"c{i}") for i in range(3)]
    model = ScriptedModel([calls, "done"])
    with pytest.raises(KeyboardInterrupt):
        run_loop(model, list(Q), tools=[charge], memory=memory, options=LoopOptions(concurrent=True, max_workers=3))
    assert "c0" in charged  # where Ctrl-C lands decides whether c1 and c2 had started; c0 had
    results = [m.content for m in memory.messages() if isinstance(m, ToolResultMessage)]
    interrupted = "Not completed: the turn was interrupted by KeyboardInterrupt."
    assert results == [f"charged c{i}" if f"c{i}" in charged else interrupted for i in range(3)]


def test_the_loop_guard_answers_a_repeated_call_whatever_its_key_order():
    RAN.clear()
    model = ScriptedModel([[call("ta", label="x")], [call("ta", label="y"), call("ta", label="x")], "done"])
    result = run_loop(model, list(Q), tools=[ta], options=COURSE)
    assert RAN == ["x", "y"]
    kinds = [e.error_kind for r in result.rounds for e in r.executions]
    assert kinds == [None, None, "guard"]
