"""Step through a recorded loop run: Previous / Next, the loop step highlighted."""

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.exercises.week06 import _order_tools
from toolkit.exercises.week07 import place_order
from toolkit.loop.run import COURSE, LoopOptions, run_loop
from toolkit.views.html import SHOWN_ITEMS
from toolkit.views.stepper import LoopStepper, steps


def test_next_and_previous_walk_the_steps_and_highlight_one():
    _, result = place_order()
    stepper = LoopStepper(result)
    assert stepper.previous.disabled and stepper.current.line().startswith("round 1 · step 1 send: 3 tools sent")
    for _ in range(4):
        stepper.next.click()
    assert (stepper.current.number, stepper.current.name) == (5, "execute")
    assert 'background:#fff8c5;font-weight:bold">execute</li>' in stepper.html()
    stepper.previous.click()
    assert stepper.current.name == "bound"
    stepper.go(10_000)
    assert stepper.next.disabled and stepper.current.detail == "no tool calls: the reply is the answer"


def test_saga_and_repair_steps_appear_only_where_they_happened():
    _, result = place_order()
    walked = [(s.round, s.name) for s in steps(result)]
    assert (2, "saga") in walked and (1, "saga") not in walked and all(name != "repair" for _, name in walked)
    model = ScriptedModel([call("query_order", orderId=1), call("query_order", orderId=2)])
    repaired = steps(run_loop(model, [UserMessage(content="q")], tools=_order_tools(), options=COURSE))
    repairs = [s.detail for s in repaired if s.name == "repair"]
    assert repairs == ["the argument error goes back with a hint", "a second argument error on the tool → hand over"]


def test_the_bound_step_says_when_a_reply_is_over_it():
    """LangChain4j's bound (the default meaning): tool-calling responses, checked at step 4."""
    model = ScriptedModel([call("query_order", orderId=f"SN20261020000{i}") for i in range(8)])
    options = LoopOptions(max_round_trips=5, on_limit="handover")
    walked = steps(run_loop(model, [UserMessage(content="q")], tools=_order_tools(), options=options))
    assert (
        walked[-1].line()
        == "round 6 · step 4 bound: round trip 6 is over the bound → limit of 5 tool round trips reached"
    )


def test_the_course_limit_counts_model_requests():
    """The course's own limit (at most 5 model requests per question): the 5th reply's calls run, then it ends."""
    model = ScriptedModel([call("query_order", orderId=f"SN20261020000{i}") for i in range(8)])
    walked = steps(run_loop(model, [UserMessage(content="q")], tools=_order_tools(), options=COURSE))
    assert walked[-1].line() == "round 5 · step 9 return?: limit of 5 model requests reached"


def test_text_fallback_lists_every_step_and_marks_the_current_one():
    _, result = place_order()
    stepper = LoopStepper(result)
    stepper.next.click()
    lines = stepper._repr_mimebundle_()["text/plain"].splitlines()
    assert len(lines) == len(stepper.steps) and lines[1].startswith("▶ round 1 · step 2 record")


def test_a_run_that_stopped_before_its_first_reply_has_no_steps_and_says_so():
    """The `loop_result` of a first request that failed has no round: the stepper raised IndexError."""
    import pytest

    from toolkit.errors import ConfigurationError, TransientError

    class Down:
        def chat(self, *args, **kwargs):
            raise TransientError("gateway down")

    with pytest.raises(TransientError) as raised:
        run_loop(Down(), [UserMessage(content="q")], tools=_order_tools())
    result = raised.value.loop_result
    assert result.rounds == []
    stepper = LoopStepper(result)
    # it said "the run made no model request": it made one, and the gateway was down (or said 400)
    text = "no steps: the run got no reply from the model (its first request failed or was stopped)"
    assert stepper.text() == text and stepper.position.value == text
    assert stepper.previous.disabled and stepper.next.disabled
    assert stepper._repr_mimebundle_()["text/html"] == f'<div class="tex2jax_ignore mathjax_ignore">{text}</div>'
    with pytest.raises(ConfigurationError) as caught:  # it raised "IndexError: list index out of range"
        stepper.current
    assert str(caught.value) == f"LoopStepper.current: there is no step to show, {text}"


def test_a_step_number_that_is_no_whole_number_names_the_method():
    import pytest

    from toolkit.errors import ConfigurationError

    _, result = place_order()
    stepper = LoopStepper(result)
    for wrong, kind in (("3", "str"), (2.0, "float"), (True, "bool")):
        with pytest.raises(ConfigurationError) as raised:
            stepper.go(wrong)
        assert str(raised.value) == (
            f"LoopStepper.go(index): takes a step's number, counted from 0, and got {kind}; e.g. stepper.go(2)"
        )
    assert stepper.index == 0  # nothing moved


def test_a_long_run_lists_its_first_and_last_steps_and_the_current_one_and_says_what_it_left_out():
    model = ScriptedModel([call("query_order", orderId=f"SN20261020{i:04d}") for i in range(149)] + ["ok"])
    result = run_loop(model, "q", tools=_order_tools(), options=LoopOptions(max_round_trips=150))
    stepper = LoopStepper(result)
    count, half = len(stepper.steps), SHOWN_ITEMS // 2
    assert count > SHOWN_ITEMS
    stepper.go(600)
    lines = stepper.text().splitlines()
    assert lines[half] == "… 100 steps not shown: steps 501 to 600"
    assert lines[half + 1] == "▶ " + stepper.steps[600].line()
    assert lines[half + 2] == f"… {count - half - 601:,} steps not shown: steps 602 to {count - half:,}"
    assert len(lines) == SHOWN_ITEMS + 3 and lines[-1] == "  " + stepper.steps[-1].line()


def test_a_numpy_whole_number_is_a_step_number():
    """`stepper.go(np.int64(2))` (an index from NumPy, `np.argmax(...)`) was refused as "got int64",
    though it is a whole number like any other."""
    import numpy as np

    _, result = place_order()
    stepper = LoopStepper(result)
    stepper.go(np.int64(2))
    assert stepper.index == 2 and type(stepper.index) is int and stepper.current.name == "exit?"


def test_each_saga_s_step_is_in_the_round_whose_failure_ran_it():
    """Both rollbacks were put in the last round the failed tool failed in (round 4), none in round 2;
    a saga whose compensation failed showed no step at all."""
    from test_sequence import _two_sagas_and_a_failed_one

    sagas = [(s.round, s.detail) for s in steps(_two_sagas_and_a_failed_one()) if s.name == "saga"]
    assert sagas == [
        (2, "rolled back: reserve"),
        (4, "rolled back: reserve"),
        (6, "not rolled back: pay"),
    ]


def test_a_round_stopped_while_a_tool_ran_is_within_the_bound_and_shows_its_calls():
    """Ctrl-C while the round's first call ran read "round trip 1 is over the bound → stopped:
    KeyboardInterrupt", and no call was shown."""
    from test_trace_view import BEFORE, RUNNING, interrupted_run

    lines = [step.line() for step in steps(interrupted_run())]
    assert lines[3:] == [
        "round 1 · step 4 bound: round trip 1: within the bound",
        f'round 1 · step 5 execute: halt({{"x": "1"}}) → {RUNNING[:59]}… ✗ (not finished)',
        f'round 1 · step 5 execute: halt({{"x": "2"}}) → {BEFORE[:59]}… ✗ (not finished)',
        "round 1 · step 8 append: 2 tool result(s) appended",
        "round 1 · step 9 return?: stopped: KeyboardInterrupt",
    ]


def test_a_reply_of_hundreds_of_calls_names_the_first_and_counts_the_rest():
    """Step 2 listed every call of the reply: 600 parallel calls made a line of 7,000 characters."""
    from toolkit.chat.scripted import reset_call_ids
    from toolkit.views.trace import NAMES_SHOWN

    reset_call_ids()
    calls = [call("query_order", orderId=f"SN2026102{i:05d}") for i in range(600)]
    result = run_loop(ScriptedModel([calls, "好的"]), [UserMessage(content="q")], tools=_order_tools())
    names = ", ".join(["query_order"] * NAMES_SHOWN)
    assert steps(result)[1].detail == f"asks for {names}, … and 570 more"


def test_one_tool_sent_is_one_tool():
    """A round that sent one tool read "1 tools sent" (the sequence diagram: "request 1 (1 tools)")."""
    from toolkit.chat.scripted import reset_call_ids
    from toolkit.tools.decorator import tool
    from toolkit.views.sequence import sequence_source

    @tool("look an order up")
    def look(order: str) -> str:
        return "shipped"

    reset_call_ids()
    result = run_loop(ScriptedModel(["好的"]), [UserMessage(content="q")], tools=[look])
    assert steps(result)[0].detail == "1 tool sent (look)"
    assert "    L->>M: request 1 (1 tool)" in sequence_source(result).splitlines()


TOKEN = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("y " * 5_000_000, "y " * 100),
        (" " * (60 + 40_000 - 5) + TOKEN + " z" * 1_000_000, "[REDACTED]" + " z" * 100),
    ],
)
def test_a_huge_result_is_scrubbed_only_as_far_as_its_line_shows(monkeypatch, text, line):
    """A tool's 10 MB result was scrubbed whole (up to a minute for look-alike text) for a line of 60
    characters; a head is now, and a token where the head stops never shows half of itself, even
    after 40,000 spaces the line collapses."""
    from huge_result import dumped, scrub_reads

    from toolkit.loop.result_size import READ_PAST
    from toolkit.views.conversation import one_line

    assert READ_PAST == 40_000

    result = dumped(text)
    read = scrub_reads(monkeypatch)
    shown = [s.detail for s in steps(result) if s.number == 5]
    assert shown == [f"dump({{}}) → {one_line(line, 60)}"]
    assert max(read) < len(text) // 4
