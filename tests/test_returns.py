"""The return-behaviour rules, checked against the seed's truth table written out by hand."""

from toolkit.loop.returns import rule_applied, should_return_immediately, truth_table
from toolkit.tools.decorator import ReturnBehavior

T, I, L = ReturnBehavior.TO_LLM, ReturnBehavior.IMMEDIATE, ReturnBehavior.IMMEDIATE_IF_LAST

# (behaviours of the round's calls, in order) → return immediately?  (seed 000 §3.4, ReturnBehavior javadoc)
EXPECTED = {
    (T,): False,
    (I,): True,
    (L,): True,
    (T, T): False,
    (T, I): False,
    (T, L): True,
    (I, T): False,
    (I, I): True,
    (I, L): True,
    (L, T): False,
    (L, I): True,
    (L, L): True,
}


def test_every_row_without_errors():
    for behaviors, expected in EXPECTED.items():
        assert should_return_immediately(behaviors, any_error=False) is expected, behaviors


def test_any_error_always_continues():
    for behaviors in EXPECTED:
        assert should_return_immediately(behaviors, any_error=True) is False


def test_no_calls_never_returns():
    assert should_return_immediately((), any_error=False) is False


def test_truth_table_has_12_rows_twice_and_agrees():
    rows = truth_table()
    assert len(rows) == 24
    assert {(r.behaviors, r.any_error): r.returns for r in rows} == {
        **{(b, False): v for b, v in EXPECTED.items()},
        **{(b, True): False for b in EXPECTED},
    }


def test_rules_are_named():
    assert rule_applied((T, L), False) == "last call is IMMEDIATE_IF_LAST → return"
    assert rule_applied((I, I), False) == "every call is IMMEDIATE* → return"
    assert rule_applied((L, T), False) == "neither rule holds → continue"
    assert rule_applied((I,), True) == "an error must reach the model → continue"


def test_a_round_whose_last_call_goes_to_the_model_never_returns_at_once():
    """The loop decides such a round without the other calls' behaviours (`_Run.immediate`)."""
    for row in truth_table(3):
        if row.behaviors[-1] is ReturnBehavior.TO_LLM:
            assert not row.returns


def test_a_reported_unknown_tool_counts_as_an_error_unlike_langchain4j():
    """LangChain4j's hallucination strategy answers without `isError`, so `[unknown, IMMEDIATE_IF_LAST]`
    returns at once there; here the unknown name is a failure the model must read (module docstring)."""
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.loop.run import LoopOptions, run_loop
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import FEED_BACK_ALL, tools_from

    @tool(return_behavior=L)
    def done(x: int) -> str:
        return f"done {x}"

    model = ScriptedModel([[call("nope", x=1), call("done", x=2)], "I could not find 'nope'."])
    result = run_loop(
        model, [UserMessage(content="go")], tools=tools_from(done), options=LoopOptions(policies=FEED_BACK_ALL)
    )
    assert (result.finish, result.answer) == ("answer", "I could not find 'nope'.")
    assert [e.result.content for e in result.executions] == [
        "There is no tool named 'nope'. Available tools: done.",
        "done 2",
    ]
