"""Every exercise: its solution passes its check, its starter is "not attempted"; the weeks are covered."""

from collections import Counter

import pytest

from toolkit.exercises import all_exercises
from toolkit.exercises.core import LAST

EXERCISES = all_exercises()


def run_cell(source: str, exercise_id: str):
    LAST.pop(exercise_id, None)
    exec(compile(source, exercise_id, "exec"), {})
    return LAST[exercise_id]


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.id)
def test_solution_passes(exercise):
    result = run_cell(exercise.solution, exercise.id)
    assert result.passed, result.text()


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.id)
def test_starter_is_not_attempted(exercise):
    result = run_cell(exercise.starter, exercise.id)
    assert result.status == "not attempted", result.text()
    assert "..." in exercise.starter


def test_every_week_has_enough_exercises_of_mixed_kinds():
    weeks = Counter(e.week for e in EXERCISES)
    assert len(EXERCISES) >= 41 and weeks[0] >= 1
    assert all(weeks[w] >= 4 for w in range(1, 11)), weeks
    for week in range(1, 11):
        assert len({e.kind for e in EXERCISES if e.week == week}) >= 2, week
    assert {"predict", "write", "fix", "build"} == {e.kind for e in EXERCISES}


def test_the_three_build_then_compare_exercises_exist():
    kinds = {e.id: e.kind for e in EXERCISES}
    assert kinds["w8.score"] == kinds["w6.truth_table"] == kinds["w2.backoff"] == "build"


def test_week_three_covers_its_six_self_checks():
    ids = {e.id for e in EXERCISES if e.week == 3}
    assert {"w3.probe", "w3.normalize", "w3.model_calls", "w3.unknown_order", "w3.no_call", "w3.csv_rows"} <= ids


def test_ids_name_their_week():
    assert all(e.id.startswith(f"w{e.week}.") for e in EXERCISES)
