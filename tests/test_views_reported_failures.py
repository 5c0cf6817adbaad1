"""A tool that reports its own failure (`ToolOutput(..., is_error=True)`) is shown as failed.

The loop treats such a call as failed (it starts a saga, it is never compensated, it keeps the
round from returning at once, memory stores `is_error=True`), but the trace badge read "ok", the
sequence diagram had no ✗ and drew the saga under the wrong round, the stepper left the
rolled-back calls out, and the timeline drew the span green: every view read only `error_kind`.
"""

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call, reset_call_ids
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import iter_loop, run_loop
from toolkit.loop.saga import compensates
from toolkit.tools.decorator import tool
from toolkit.tools.execute import ToolOutput
from toolkit.views.sequence import sequence_source
from toolkit.views.stepper import steps
from toolkit.views.timeline import timed_loop
from toolkit.views.trace import execution_status, render_trace_text


@tool("reserve stock")
def reserve(sku: str) -> str:
    return "reserved"


@compensates("reserve")
def release(sku: str) -> None:
    return None


@tool("ship the order")
def ship(sku: str) -> ToolOutput:
    return ToolOutput("carrier refused the parcel", is_error=True)


SAGA = LoopOptions(compensate=True, compensations=(release,))


def shipped():
    reset_call_ids()
    model = ScriptedModel([[call("reserve", sku="A"), call("ship", sku="A")], "sorry"])
    return run_loop(model, [UserMessage(content="buy A")], tools=[reserve, ship], options=SAGA)


def test_the_trace_badges_a_reported_failure_as_an_error():
    result = shipped()
    assert [execution_status(e) for e in result.executions] == [
        ("rolled back", "warn"),
        ("reported error", "error"),
    ]
    assert "  ship [reported error]: carrier refused the parcel" in render_trace_text(result).split("\n")


def test_the_sequence_diagram_marks_it_and_draws_the_saga_under_its_round():
    lines = sequence_source(shipped()).splitlines()
    failed = lines.index("    T_ship-->>L: ✗ carrier refused the parcel")
    assert lines[failed + 1 : failed + 4] == [
        "    Note over L: saga — undo in reverse order",
        "    L->>T_reserve: compensate (ok)",
        "    Note over T_reserve: rolled back",
    ]


def test_the_stepper_marks_it_and_shows_the_rollback():
    details = [(s.round, s.number, s.detail) for s in steps(shipped())]
    assert (1, 5, 'ship({"sku": "A"}) → carrier refused the parcel ✗ (reported)') in details
    assert (1, 7, "rolled back: reserve") in details


def test_the_timeline_draws_it_as_an_error():
    reset_call_ids()
    model = ScriptedModel([[call("reserve", sku="A"), call("ship", sku="A")], "sorry"])
    events = iter_loop(model, [UserMessage(content="buy A")], tools=[reserve, ship], options=SAGA)
    _, spans = timed_loop(events, clock=lambda: 0.0)
    assert [(s.lane, s.kind) for s in spans] == [("reserve #1", "ok"), ("ship #2", "error")]
