"""answer_cells / answer_exercise: the starter and solution of a fill-in cell, by exact text."""

import ast

import pytest

from toolkit.errors import ConfigurationError
from toolkit.exercises import get
from toolkit.exercises.cells import answer_cells, literal, placeholder, week_of


def test_a_scalar_answer_with_comments():
    starter, solution = answer_cells("w0.demo", 7, "a number", solution_comment="system, user")
    assert starter == 'from toolkit.exercises import check\n\nanswer = ...   # a number\ncheck("w0.demo", answer)\n'
    assert solution == 'from toolkit.exercises import check\n\nanswer = 7   # system, user\ncheck("w0.demo", answer)\n'


def test_a_list_answer_starts_as_a_list_placeholder():
    starter, solution = answer_cells("w0.demo", [2.0, 2.0])
    assert starter == 'from toolkit.exercises import check\n\nanswer = [...]\ncheck("w0.demo", answer)\n'
    assert solution == 'from toolkit.exercises import check\n\nanswer = [2.0, 2.0]\ncheck("w0.demo", answer)\n'


def test_a_dict_on_one_line_keeps_its_keys():
    starter, solution = answer_cells("w0.demo", {"A": "A", "你好": None}, '"x" or None')
    assert starter.splitlines()[2] == 'answer = {"A": ..., "你好": ...}   # "x" or None'
    assert solution.splitlines()[2] == 'answer = {"A": "A", "你好": None}'


def test_a_dict_one_entry_a_line_with_the_comment_at_its_column_and_more_imports():
    starter, solution = answer_cells(
        "w0.demo", {("int", "27"): True, ("bool", 1): False}, "True or False", column=30, imports=["import re"]
    )
    assert starter == (
        "from toolkit.exercises import check\n"
        "import re\n"
        "\n"
        "answer = {\n"
        '    ("int", "27"): ...,       # True or False\n'
        '    ("bool", 1): ...,\n'
        "}\n"
        'check("w0.demo", answer)\n'
    )
    assert solution == (
        'from toolkit.exercises import check\nimport re\n\nanswer = {\n    ("int", "27"): True,\n'
        '    ("bool", 1): False,\n}\ncheck("w0.demo", answer)\n'
    )


@pytest.mark.parametrize(
    "value",
    ["plain", 'quote " and \\ back', "中文，标点", "", 0, -3, 2.5, True, None, [1, "a"], (1,), ("a", 2), {"k": [1]}],
)
def test_literal_reads_back_as_the_same_value(value):
    assert ast.literal_eval(literal(value)) == value
    assert type(ast.literal_eval(literal(value))) is type(value)


def test_placeholder_of_each_kind_of_answer():
    assert placeholder({"a": 1, "b": [2]}) == {"a": ..., "b": ...}
    assert placeholder(["x"]) == [...] and placeholder("x") is ... and placeholder(3) is ...


def test_values_without_a_plain_literal_are_refused_by_name():
    with pytest.raises(ConfigurationError) as info:
        answer_cells("w0.demo", {"a", "b"})
    assert str(info.value) == (
        "literal(): a set has no plain literal in an exercise cell; use a str, number, bool, None, `...`, "
        "list, tuple or dict (write other cells out in full)."
    )
    with pytest.raises(ConfigurationError):
        literal(float("nan"))


def test_a_column_needs_a_dict_and_room_for_the_comment():
    with pytest.raises(ConfigurationError) as info:
        answer_cells("w0.demo", 3, "a number", column=40)
    assert str(info.value) == (
        "answer_cells(): exercise 'w0.demo' gives a column, which lays out a dict one entry a line, "
        "but its answer is not a dict (int); drop the column or answer with a dict."
    )
    with pytest.raises(ConfigurationError) as info:
        answer_cells("w0.demo", {"long key": 1}, "c", column=10)
    assert str(info.value) == (
        "answer_cells(): exercise 'w0.demo' puts its comment at column 10, inside its first entry "
        "(20 characters); give a column of at least 21."
    )


def test_a_registered_fill_in_exercise_has_the_written_cells():
    exercise = get("w5.coercion")
    assert (
        exercise.starter.splitlines()[3] == '    ("int", "27"): ...,          # True = accepted, False = argument error'
    )
    assert exercise.solution.splitlines()[-3] == '    ("str", 202610200001): False,'


def test_the_week_is_read_from_the_id_and_the_kind_defaults_to_predict():
    assert week_of("w6.round_trips") == 6 and week_of("w10.level0") == 10
    assert (get("w8.vector_k").week, get("w8.vector_k").kind) == (8, "predict")
    assert (get("w8.find_query").week, get("w8.find_query").kind) == (8, "write")
    with pytest.raises(ConfigurationError) as info:
        week_of("round_trips")
    assert str(info.value) == (
        "week_of(): exercise id 'round_trips' does not name its week; write it as w<week>.<name>, e.g. w6.round_trips."
    )
