"""The Exercises section: appended at the end, rewritable without touching other cells, solutions filled in."""

import re
from pathlib import Path

import nbformat
import pytest

from toolkit.cli.main import main
from toolkit.exercises import all_exercises
from toolkit.exercises.catalog import NOTEBOOKS, week_of_notebook
from toolkit.exercises.core import MIME
from toolkit.exercises.notebook import NEXT_TAG, exercise_id, fill_solutions, is_own, with_exercises

COURSE = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.mark.parametrize("week", sorted(NOTEBOOKS))
def test_committed_notebook_holds_its_weeks_starters_and_ends_with_the_links(week):
    notebook = nbformat.read(COURSE / NOTEBOOKS[week], as_version=4)
    cells = {exercise_id(c): c for c in notebook.cells if exercise_id(c)}
    expected = [e for e in all_exercises() if e.week == week]
    assert list(cells) == [e.id for e in expected]
    for ex in expected:
        cell = cells[ex.id]
        assert cell.source == ex.starter.rstrip("\n")
        records = [o["data"][MIME] for o in cell.outputs if MIME in o.get("data", {})]
        assert [r["status"] for r in records] == ["not attempted"], ex.id
    last = notebook.cells[-1]
    assert NEXT_TAG in last.metadata["tags"] and "README.md#self-check-week-by-week" in last.source
    if week + 1 in NOTEBOOKS:
        assert f"]({NOTEBOOKS[week + 1]})" in last.source


def test_rewriting_the_section_keeps_every_other_cell():
    notebook = nbformat.read(COURSE / NOTEBOOKS[6], as_version=4)
    others = [c.source for c in notebook.cells if not is_own(c)]
    again = with_exercises(with_exercises(notebook, 6), 6)
    assert [c.source for c in again.cells if not is_own(c)] == others
    assert sum(1 for c in again.cells if exercise_id(c)) == sum(1 for e in all_exercises() if e.week == 6)


def test_fill_solutions_replaces_only_exercise_cells():
    notebook = nbformat.read(COURSE / NOTEBOOKS[7], as_version=4)
    before = [c.source for c in notebook.cells if not exercise_id(c)]
    assert fill_solutions(notebook) == 4
    assert [c.source for c in notebook.cells if not exercise_id(c)] == before
    assert all("..." not in c.source.split("#")[0] for c in notebook.cells if exercise_id(c))


def test_cli_lists_every_exercise(capsys):
    assert main(["exercises"]) == 0
    out = capsys.readouterr().out
    assert f"{len(all_exercises())} exercises" in out and len(all_exercises()) >= 41
    assert re.search(r"^w6\.truth_table +6  build +write returns_now", out, re.M)


def test_cli_writes_the_solution_notebooks(tmp_path, capsys):
    assert main(["exercises", "--solutions", str(tmp_path / "solved"), "--notebooks", str(COURSE)]) == 0
    written = sorted(p.name for p in (tmp_path / "solved").glob("*.ipynb"))
    assert written == sorted(NOTEBOOKS.values())
    week3 = nbformat.read(tmp_path / "solved" / NOTEBOOKS[3], as_version=4)
    solved = [c for c in week3.cells if exercise_id(c)]
    assert len(solved) == 6 and all(c.outputs == [] for c in solved)


def test_cli_refuses_a_notebook_that_is_not_a_course_week(tmp_path, capsys):
    path = tmp_path / "homework.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), path)
    assert main(["exercises", "--update", str(path)]) == 2
    assert "homework.ipynb is not a course notebook" in capsys.readouterr().err


def test_week_of_notebook():
    assert week_of_notebook("06_week6_round_trip_loop.ipynb") == 6
    assert week_of_notebook("10_week10_skills.ipynb") == 10
    assert week_of_notebook("homework.ipynb") is None


def test_a_hand_edited_cell_with_odd_tags_is_read_without_crashing():
    cell = nbformat.v4.new_code_cell("1")
    cell.metadata = {"tags": [5, None, "exercise:w6.round_trips"]}  # nbformat.read keeps such a cell
    assert exercise_id(cell) == "w6.round_trips" and is_own(cell)
    for metadata in ({"tags": "exercise:w6.round_trips"}, {"tags": None}, {"tags": {"a": 1}}, ["tags"]):
        odd = nbformat.v4.new_code_cell("1")
        odd.metadata = metadata
        assert exercise_id(odd) is None and not is_own(odd)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (
            b"\xff\xfe",
            "cannot be read: its text is not UTF-8, as a notebook's must be (it is UTF-16); open it in the "
            "editor that saved it and save it as UTF-8",
        ),
        (
            b'{"nbformat": 99, "cells": []}',
            "is not a notebook nbformat can read (NBFormatError: Unsupported nbformat version 99; give the notebook "
            "as Jupyter saved it)",
        ),
        (None, None),
    ],
)
def test_cli_update_names_a_file_it_cannot_read(tmp_path, capsys, content, problem):
    path = tmp_path / "06_week6_round_trip_loop.ipynb"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    assert main(["exercises", "--update", str(path)]) == 2
    expected = (
        f"cannot read {path}: a folder; give an .ipynb file"  # there, but no file: not "no such notebook"
        if content is None
        else f"{path} {problem}"
    )
    assert capsys.readouterr().err == f"error: {expected}\n"
    if content is not None:
        assert path.read_bytes() == content


def test_a_task_that_starts_with_a_name_keeps_the_names_spelling():
    from toolkit.exercises.notebook import TASK_TAG, section_cells

    tasks = {
        c.source.split("`")[1]: c.source for c in section_cells(6) + section_cells(7) if TASK_TAG in c.metadata.tags
    }
    assert tasks["w6.if_last"] == (
        "**5. `w6.if_last`** — *predict, then run*. query_order is TO_LLM, notify_user IMMEDIATE_IF_LAST: "
        "finish for [query, notify] and for [notify, query]?"
    )
    assert tasks["w7.rollback_order"].startswith(
        "**1. `w7.rollback_order`** — *predict, then run*. reserve_stock (round 1)"
    )
    assert tasks["w6.round_trips"].startswith("**1. `w6.round_trips`** — *predict, then run*. The model asks")


@pytest.mark.parametrize("week", sorted(NOTEBOOKS))
def test_committed_notebook_shows_each_task_as_the_registry_writes_it(week):
    from toolkit.exercises.notebook import TASK_TAG, section_cells

    notebook = nbformat.read(COURSE / NOTEBOOKS[week], as_version=4)
    committed = [c.source for c in notebook.cells if TASK_TAG in c.metadata.get("tags", [])]
    assert committed == [c.source for c in section_cells(week) if TASK_TAG in c.metadata.tags]


def test_the_keyword_rules_questions_are_not_answered_in_the_cells_above_them():
    """w1.keyword_rules asks to predict what the fake model calls for four questions when week 3's tools are
    offered; three of them were rows of section 5's table "the fake model at work" (its column "with week 3's
    tools"), tool calls and all, a few cells above: nothing left to predict. The section shows the rules on
    other questions."""
    from toolkit.course.assistant import TOOL_SPECS
    from toolkit.exercises.week01 import QUESTIONS

    tools = [spec["function"]["name"] for spec in TOOL_SPECS]
    notebook = nbformat.read(COURSE / NOTEBOOKS[1], as_version=4)
    outputs = [
        str(output.get("text", "")) + str(output.get("data", {}).get("text/plain", ""))
        for cell in notebook.cells
        if cell.cell_type == "code" and not exercise_id(cell)
        for output in cell.outputs
    ]
    with_tools = [q for q in QUESTIONS for text in outputs if "with week 3's tools" in text and q in text]
    calls = [
        q
        for q in QUESTIONS
        for text in outputs
        for line in text.splitlines()
        if q in line and any(t in line for t in tools)
    ]
    assert (with_tools, calls) == ([], [])


def _saved_by(minor: int, *, ids: bool) -> nbformat.NotebookNode:
    """A week-6 notebook as an editor saves it: nbformat 4.<minor>, its cells with ids or without."""
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# My notes"), nbformat.v4.new_code_cell("x = 1")]
    )
    notebook.nbformat_minor = minor
    for n, cell in enumerate(notebook.cells):
        cell.pop("id", None)
        if ids:
            cell["id"] = f"mine-{n}"
    return notebook


@pytest.mark.parametrize("minor", [0, 2, 4])
def test_update_of_a_notebook_saved_before_cell_ids_writes_a_valid_notebook(tmp_path, capsys, minor):
    """`exercises --update` gave the section's new cells ids in a notebook of nbformat 4.0–4.4 (classic Jupyter,
    JupyterLab 3, Colab, the course's own files), whose schema has no cell ids: the file failed
    `nbformat.validate`. Now the cells keep to the notebook's version."""
    path = tmp_path / "06_week6_round_trip_loop.ipynb"
    nbformat.write(_saved_by(minor, ids=False), path)
    assert main(["exercises", "--update", str(path)]) == 0
    written = nbformat.read(path, as_version=4)
    nbformat.validate(written)
    assert written.nbformat_minor == minor
    assert all("id" not in cell for cell in written.cells)


def test_update_of_a_notebook_with_cell_ids_gives_the_sections_cells_the_same_ids_every_time(tmp_path, capsys):
    """In a 4.5 notebook (JupyterLab 4, VS Code) each new cell had a random id: rewriting the section changed
    the file on every run. Now an own cell's id is written from its tag; the learner's cells keep theirs."""
    path = tmp_path / "06_week6_round_trip_loop.ipynb"
    nbformat.write(_saved_by(5, ids=True), path)
    assert main(["exercises", "--update", str(path)]) == 0
    first = path.read_bytes()
    assert main(["exercises", "--update", str(path)]) == 0
    assert path.read_bytes() == first
    written = nbformat.read(path, as_version=4)
    nbformat.validate(written)
    ids = [cell["id"] for cell in written.cells]
    assert ids[:5] == ["mine-0", "mine-1", "exercises-section", "exercises-section-2", "exercise-task-w6-round_trips"]
    assert ids[5] == "exercise-w6-round_trips" and ids[-1] == "next-notebook"
    assert len(set(ids)) == len(ids)
