"""A wrong prediction is told what is wrong, never the value it should have been.

Each predict exercise's own solution gives the true answer; a wrong answer of the same kind
(a number off by seven, a list in another order, another text) must not bring it back in the
feedback — otherwise a first try with anything, then a second with what the feedback said,
passes without predicting anything.
"""

import contextlib
import io
import re

import pytest

from toolkit.exercises import all_exercises, check


def solution_answer(exercise):
    """The `answer` the exercise's solution cell checks."""
    seen = {}
    namespace = {}
    code = exercise.solution.replace(f'check("{exercise.id}", answer)', "_seen['answer'] = answer")
    with contextlib.redirect_stdout(io.StringIO()):
        exec(code, {"_seen": seen, **namespace})
    return seen["answer"]


SINGLE = [
    (e.id, answer)
    for e in all_exercises()
    if e.kind == "predict"
    and isinstance(answer := solution_answer(e), (int, str, list))
    and not isinstance(answer, bool)
]


OTHER_CHOICE = {"w3.unknown_order": "status", "w8.found_where": "the system message"}
"""Text answers chosen from a few: the wrong twin is another of them (an unknown text is told the choices)."""


def wrong_twin(exercise, answer):
    if isinstance(answer, int):
        return answer + 7
    if isinstance(answer, str):
        return OTHER_CHOICE.get(exercise, "something else")
    turned = list(reversed(answer))
    return turned if turned != answer else answer[:-1]


def test_there_are_single_value_predictions_to_try():
    assert len(SINGLE) >= 12


@pytest.mark.parametrize(("exercise", "answer"), SINGLE, ids=[i for i, _ in SINGLE])
def test_a_wrong_prediction_does_not_show_the_right_one(exercise, answer):
    result = check(exercise, wrong_twin(exercise, answer))
    assert result.status == "failed"
    shown = [re.escape(str(answer)), re.escape(repr(answer))]
    if isinstance(answer, list):
        shown.append(re.escape(" → ".join(map(str, answer))))
    pattern = rf"(?<![\w.]){'|'.join(shown)}(?![\w.])" if isinstance(answer, int) else "|".join(shown)
    assert not re.search(pattern, result.feedback), result.feedback


@pytest.mark.parametrize(("exercise", "answer"), SINGLE, ids=[i for i, _ in SINGLE])
def test_the_hint_shown_after_a_wrong_prediction_does_not_show_the_right_one(exercise, answer):
    """A failed try shows the hint under the feedback: w6.course_bound's said 'COURSE allows 5 tool-calling
    responses', so any first try, then 5, passed."""
    result = check(exercise, wrong_twin(exercise, answer))
    assert result.status == "failed" and result.hint
    shown = [re.escape(str(answer)), re.escape(repr(answer))]
    if isinstance(answer, list):
        shown.append(re.escape(" → ".join(map(str, answer))))
    pattern = rf"(?<![\w.]){'|'.join(shown)}(?![\w.])" if isinstance(answer, int) else "|".join(shown)
    assert not re.search(pattern, result.hint), result.hint


def test_a_wrong_entry_of_a_dict_prediction_is_named_without_its_value():
    said = {"no variables": "fake", "all three": "real", "only LLM_BASE_URL": "fake"}
    assert check("w0.switch", said).feedback == "only LLM_BASE_URL: connect() does not give 'fake'"
    renamed = {"the model calls": "query_order", "the server receives": "order_lookup"}
    assert check("w9.rename", renamed).feedback == (
        "the model calls: not 'query_order'; the server receives: not 'order_lookup'"
    )


WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

DICT_NUMBERS = [
    (e.id, key, answer)
    for e in all_exercises()
    if e.kind == "predict" and isinstance(answer := solution_answer(e), dict)
    for key, value in answer.items()
    if isinstance(value, int) and not isinstance(value, bool)
]


def test_there_are_dict_predictions_holding_numbers_to_try():
    assert {exercise for exercise, _, _ in DICT_NUMBERS} >= {"w2.timeout", "w3.model_calls", "w7.when"}


@pytest.mark.parametrize("off", [-1, 1])
@pytest.mark.parametrize(("exercise", "key", "answer"), DICT_NUMBERS, ids=[f"{i}[{k}]" for i, k, _ in DICT_NUMBERS])
def test_a_number_of_a_dict_prediction_off_by_one_is_not_told_the_right_one(exercise, key, answer, off):
    """Before: w2.timeout's 3 requests were told "… one retry after the first try: two requests, not three"."""
    right = answer[key]
    result = check(exercise, {**answer, key: right + off})
    assert result.status == "failed"
    said = [rf"(?<![\w.]){right}(?![\w.])"] + ([rf"\b{WORDS[right]}\b"] if 0 <= right < len(WORDS) else [])
    assert not re.search("|".join(said), result.feedback), result.feedback


def test_three_requests_for_the_timeout_are_told_the_misconception_only():
    said = {"requests sent": 3, "outcome": "TransientError"}
    assert check("w2.timeout", said).feedback == (
        "the client did not send 3 requests — max_retries counts the retries after the first try, not the tries"
    )
