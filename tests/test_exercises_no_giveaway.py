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


def test_a_wrong_entry_of_a_dict_prediction_is_named_without_its_value():
    said = {"no variables": "fake", "all three": "real", "only LLM_BASE_URL": "fake"}
    assert check("w0.switch", said).feedback == "only LLM_BASE_URL: connect() does not give 'fake'"
    renamed = {"the model calls": "query_order", "the server receives": "order_lookup"}
    assert check("w9.rename", renamed).feedback == (
        "the model calls: not 'query_order'; the server receives: not 'order_lookup'"
    )
