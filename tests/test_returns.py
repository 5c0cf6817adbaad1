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
