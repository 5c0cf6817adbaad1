"""Fair grades: a pass is never dropped, a notebook never counted twice, a row says what happened.

The run itself is replaced by a notebook as the worker would leave it (each cell's execution
count and outputs), so these tests read what grading does with it; test_exercises_grade runs
real kernels.
"""

import json
import os
from pathlib import Path

import nbformat
import pytest

import toolkit.exercises.grade as grade
from toolkit.exercises.catalog import week_of_notebook
from toolkit.exercises.core import MIME
from toolkit.exercises.grade import NOTEBOOK_ROW, Row, find_notebooks, grade_notebook, summary


def record(exercise: str, passed: bool) -> dict:
    status = "passed" if passed else "failed"
    return {MIME: {"exercise": exercise, "status": status, "passed": passed, "feedback": ""}}


def cell(source: str, tag: str | None = None, *, ran: bool = True, outputs=()):
    node = nbformat.v4.new_code_cell(source, metadata={"tags": [f"exercise:{tag}"]} if tag else {})
    node.execution_count = 1 if ran else None
    node.outputs = [nbformat.v4.new_output("display_data", data=data) for data in outputs]
    return node


def submit(folder: Path, name: str, cells, monkeypatch) -> Path:
    """Write the submission (outputs cleared, as a learner would hand it in) and make the run give `cells`."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    handed_in = [nbformat.v4.new_code_cell(c.source, metadata=c.metadata) for c in cells]
    nbformat.write(nbformat.v4.new_notebook(cells=handed_in), path)
    monkeypatch.setattr(grade, "_execute", lambda p, seconds: (nbformat.v4.new_notebook(cells=cells), ""))
    return path


def test_checks_in_cells_that_lost_their_tags_are_graded_not_dropped(tmp_path, monkeypatch):
    cells = [
        cell("from toolkit.exercises import check", outputs=[record("w99.made_up", True)]),  # no such exercise
        cell('check("w6.round_trips", 2)', outputs=[record("w6.round_trips", True)]),
        cell('check("w6.course_bound", 4)', outputs=[record("w6.course_bound", False)]),
    ]
    path = submit(tmp_path, "homework.ipynb", cells, monkeypatch)
    assert grade_notebook(path) == [
        Row(str(path), "w6.round_trips", True, "passed"),
        Row(str(path), "w6.course_bound", False, "failed"),
    ]


def test_another_weeks_exercise_checked_in_a_course_notebook_gets_its_row(tmp_path, monkeypatch):
    cells = [cell('check("w5.required", ...)', outputs=[record("w5.required", True)])]
    path = submit(tmp_path, "06_week6_round_trip_loop.ipynb", cells, monkeypatch)
    rows = grade_notebook(path)
    assert [r.exercise for r in rows] == [
        "w6.round_trips",
        "w6.truth_table",
        "w6.window",
        "w6.course_bound",
        "w6.if_last",
        "w5.required",
    ]
    assert rows[-1] == Row(str(path), "w5.required", True, "passed")


def test_a_notebook_whose_code_checks_nothing_says_no_exercises_found(tmp_path, monkeypatch):
    path = submit(tmp_path, "notes.ipynb", [cell("print('hello')")], monkeypatch)
    assert grade_notebook(path) == [Row(str(path), NOTEBOOK_ROW, False, grade.NO_EXERCISES)]


def test_a_notebook_without_code_is_not_run(tmp_path, monkeypatch):
    path = tmp_path / "empty.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# notes")]), path)
    monkeypatch.setattr(grade, "_execute", lambda p, s: pytest.fail("an empty notebook was run"))
    assert grade_notebook(path) == [Row(str(path), NOTEBOOK_ROW, False, grade.NO_EXERCISES)]


def test_an_exercise_cell_that_ran_without_calling_check_says_so(tmp_path, monkeypatch):
    cells = [cell("answer = 2", "w6.round_trips"), cell("", "w6.window", ran=False)]
    path = submit(tmp_path, "homework.ipynb", cells, monkeypatch)
    assert grade_notebook(path) == [
        Row(str(path), "w6.round_trips", False, "no check() result: the exercise cell ran, but did not call check()"),
        Row(str(path), "w6.window", False, "empty: the exercise cell has no code, so nothing was checked"),
    ]


def test_an_exercise_cell_left_empty_says_so_and_one_that_did_not_run_says_that(tmp_path, monkeypatch):
    """Before: an exercise cell the learner emptied read "not run", as if the grader had skipped it."""
    cells = [
        cell(" \n", "w6.round_trips", ran=False),
        cell("check('w6.window', keep)", "w6.window", ran=False),
        cell("", "w6.truth_table", ran=False),
        cell("check('w6.truth_table', returns_now)", ran=False),  # its check is in another cell
    ]
    path = submit(tmp_path, "homework.ipynb", cells, monkeypatch)
    assert {r.exercise: r.feedback for r in grade_notebook(path)} == {
        "w6.round_trips": grade.EMPTY,
        "w6.window": grade.NOT_RUN,
        "w6.truth_table": grade.NOT_RUN,
    }


@pytest.mark.parametrize(
    "name",
    [
        "Copy of 06_week6_round_trip_loop.ipynb",
        "alice-06_week6_round_trip_loop.ipynb",
    ],
)
def test_a_renamed_copy_of_a_course_notebook_is_that_weeks(name):
    assert week_of_notebook(name) == 6


def test_a_notebook_given_twice_is_graded_once(tmp_path):
    (tmp_path / "alice").mkdir()
    for name in ("a.ipynb", "b.ipynb"):
        (tmp_path / "alice" / name).write_text("{}")
    a = tmp_path / "alice" / "a.ipynb"
    found = find_notebooks([tmp_path, a, tmp_path / "alice" / ".." / "alice" / "a.ipynb", a])
    assert found == [a, tmp_path / "alice" / "b.ipynb"]


def test_the_same_notebook_twice_does_not_double_its_score(tmp_path, monkeypatch):
    cells = [cell('check("w6.round_trips", 2)', "w6.round_trips", outputs=[record("w6.round_trips", True)])]
    path = submit(tmp_path, "homework.ipynb", cells, monkeypatch)
    rows = grade.grade_paths([path, tmp_path])
    assert len(rows) == 1 and "1/1" in summary(rows)


def hand_edited(path: Path, cells: list[dict]) -> Path:
    """A notebook file written by hand: cells without ids (and whatever else `cells` leaves out)."""
    import json

    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": kernel}, "cells": cells}
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


PASSING = {
    "cell_type": "code",
    "metadata": {"tags": ["exercise:w6.round_trips"]},
    "source": "from toolkit.exercises import check\ncheck('w6.round_trips', 2)",
    "outputs": [],
    "execution_count": None,
}


def test_a_cell_without_source_does_not_stop_the_cells_after_it(tmp_path):
    no_source = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    path = hand_edited(tmp_path / "hand.ipynb", [no_source, PASSING])
    rows = grade_notebook(path, seconds=60)
    assert [(r.exercise, r.passed) for r in rows] == [("w6.round_trips", True)], rows


def test_a_cell_whose_source_is_no_text_does_not_stop_the_cells_after_it(tmp_path):
    """Before: a hand-edited `"source": null` (or a number) stopped the run at that cell ("execution
    stopped early: AttributeError: 'NoneType' object has no attribute 'strip'"): every exercise after it
    was "not run"."""
    odd = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": s} for s in (None, 5)
    ]
    path = hand_edited(tmp_path / "hand.ipynb", [*odd, PASSING])
    rows = grade_notebook(path, seconds=60)
    assert [(r.exercise, r.passed) for r in rows] == [("w6.round_trips", True)], rows


def test_a_cell_without_a_type_does_not_stop_the_notebook_from_running(tmp_path):
    """Before: a hand-edited cell that lost its `cell_type` (nbformat still reads the file) made every save
    of the run fail: "could not be executed: AttributeError: cell_type", and a passing exercise "not run".
    Such a cell is now kept as a raw cell: nothing in it runs."""
    path = hand_edited(tmp_path / "hand.ipynb", [{"metadata": {}, "source": "print('no type')"}, PASSING])
    rows = grade_notebook(path, seconds=60)
    assert [(r.exercise, r.passed) for r in rows] == [("w6.round_trips", True)], rows


def test_a_grade_error_saved_in_the_submission_is_not_taken_for_this_runs(tmp_path):
    """Before: a submission whose metadata held `grade_error` (where the worker says why a run stopped)
    was reported as stopped by a time limit it never met, however its run went."""
    import json

    path = hand_edited(tmp_path / "hand.ipynb", [PASSING])
    notebook = json.loads(path.read_text())
    notebook["metadata"]["grade_error"] = "CellTimeoutError: A cell timed out while it was being executed"
    path.write_text(json.dumps(notebook))
    rows = grade_notebook(path, seconds=60)
    assert [(r.exercise, r.passed, r.feedback[:6]) for r in rows] == [("w6.round_trips", True, "passed")], rows


def test_reading_an_old_notebook_warns_no_one(tmp_path, monkeypatch):
    import warnings

    path = hand_edited(tmp_path / "old.ipynb", [PASSING])
    monkeypatch.setattr(grade, "_execute", lambda p, seconds: (None, "could not be executed: no kernel"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grade_notebook(path)
    assert [str(w.message)[:40] for w in caught] == []


def test_a_link_to_another_submission_keeps_its_own_row(tmp_path):
    (tmp_path / "alice").mkdir()
    (tmp_path / "bob").mkdir()
    (tmp_path / "alice" / "hw.ipynb").write_text("{}")
    (tmp_path / "bob" / "hw.ipynb").symlink_to(tmp_path / "alice" / "hw.ipynb")
    assert find_notebooks([tmp_path]) == [tmp_path / "alice" / "hw.ipynb", tmp_path / "bob" / "hw.ipynb"]


def test_the_summary_lines_up_wide_file_names():
    import unicodedata

    def columns(text):
        return sum(2 if unicodedata.east_asian_width(c) == "W" else 1 for c in text)

    rows = [Row("作业/学生一.ipynb", "w6.round_trips", True, ""), Row("bob/hw.ipynb", "w6.round_trips", False, "")]
    lines = summary(rows).splitlines()
    scores = [line[: line.index(score)] for line, score in zip(lines[1:3], ("1/1", "0/1"), strict=True)]
    assert [columns(s) for s in scores] == [columns(lines[0][: lines[0].index("passed")]) + 3] * 2


def test_an_out_file_that_is_a_submission_is_refused_and_the_submission_kept(tmp_path, capsys):
    from toolkit.cli.main import main

    (tmp_path / "sub").mkdir()
    work = tmp_path / "sub" / "b.ipynb"
    work.write_text('{"the learner": "work"}')
    assert main(["grade", str(tmp_path / "sub"), "--out", str(work)]) == 2
    assert work.read_text() == '{"the learner": "work"}'
    assert capsys.readouterr().err == (
        f"error: grade --out {work}: that is one of the notebooks to grade, and the CSV would overwrite it; "
        "give another file, e.g. --out grades.csv\n"
    )


def test_an_exercise_that_loops_forever_fails_alone_and_the_next_cells_run(tmp_path):
    endless = dict(
        PASSING,
        metadata={"tags": ["exercise:w6.truth_table"]},
        source="from toolkit.exercises import check\n\ndef f(behaviors, any_error):\n    while True:\n        pass\n\n"
        "check('w6.truth_table', f)",
    )
    path = hand_edited(tmp_path / "loops.ipynb", [endless, PASSING])
    rows = grade_notebook(path, seconds=6)
    assert [(r.exercise, r.passed, r.feedback) for r in rows] == [  # in the course's order (round trips first)
        ("w6.round_trips", True, "passed: 2 round trips, 4 tool calls, 3 model requests."),
        (
            "w6.truth_table",
            False,
            "failed: the check was stopped after 4 s: does your code loop forever, or wait for something that never "
            "comes?",
        ),
    ]


@pytest.mark.parametrize(("value", "limit"), [("3", 3), ("0.5", 0.5), ("99", 30), ("0", 30), ("nan", 30), ("x", 30)])
def test_the_check_limit_a_grader_sets_only_ever_shortens_it(monkeypatch, value, limit):
    from toolkit.exercises.core import check_limit

    monkeypatch.setenv("TOOLKIT_CHECK_LIMIT_S", value)
    assert check_limit() == limit


def test_a_check_printed_assigned_or_followed_by_another_line_still_counts(tmp_path):
    def exercise_cell(tag, source):
        return dict(PASSING, metadata={"tags": [f"exercise:{tag}"]}, source=source)

    cells = [
        exercise_cell("w6.round_trips", "from toolkit.exercises import check\nprint(check('w6.round_trips', 2))"),
        exercise_cell("w6.course_bound", "result = check('w6.course_bound', 5)"),
        exercise_cell("w6.if_last", "check('w6.if_last', {})\nprint('done')"),
        exercise_cell("w6.window", "check('w6.window', lambda m, n: m)\ncheck('w6.window', ...)"),
    ]
    rows = grade_notebook(hand_edited(tmp_path / "printed.ipynb", cells), seconds=60)
    assert [(r.exercise, r.passed, r.feedback.split(":")[0]) for r in rows] == [
        ("w6.round_trips", True, "passed"),
        ("w6.window", False, "failed"),  # the last tried check() is graded: a later `...` does not undo it
        ("w6.course_bound", True, "passed"),
        ("w6.if_last", False, "failed"),
    ]  # in the course's order, whatever the cells' order


def test_a_keyboardinterrupt_the_learners_code_raised_is_not_called_a_time_limit():
    def cell(exercise, ename):
        code = nbformat.v4.new_code_cell("", metadata={"tags": [f"exercise:{exercise}"]}, execution_count=1)
        code.outputs = [nbformat.v4.new_output("error", ename=ename, evalue="", traceback=[])]
        return code

    ran = nbformat.v4.new_notebook(cells=[cell("w6.truth_table", "KeyboardInterrupt"), cell("w6.window", "KeyError")])
    assert grade.results(ran)[1]["w6.truth_table"] == "the cell raised KeyboardInterrupt"
    ran.metadata["grade_error"] = "CellTimeoutError: A cell timed out while it was being executed"
    assert grade.results(ran)[1]["w6.truth_table"] == "the cell raised KeyboardInterrupt"  # not the last that ran


def test_a_file_name_that_is_not_utf8_is_graded_and_written_with_its_byte_escaped(tmp_path):
    import csv
    import os

    folder = os.fsencode(tmp_path)
    with open(folder + b"/\xb0\xa1 hw.ipynb", "w") as f:  # 啊 in GBK, from a zip made on another system
        f.write("{}")
    rows = grade.grade_paths([tmp_path])
    assert [r.notebook for r in rows] == [f"{tmp_path}/\\xb0\\xa1 hw.ipynb"]
    out = grade.write_csv(rows, tmp_path / "grades.csv")
    with open(out, encoding="utf-8-sig") as f:
        assert list(csv.reader(f))[1][0] == f"{tmp_path}/\\xb0\\xa1 hw.ipynb"
    summary(rows).encode("utf-8")


def test_ctrl_c_half_way_keeps_the_rows_of_the_notebooks_graded_before(tmp_path, monkeypatch, capsys):
    import csv

    from toolkit.cli.main import main

    for name in ("a.ipynb", "b.ipynb", "c.ipynb"):
        (tmp_path / name).write_text("{}")
    graded = []

    def grade_one(path, seconds=120):
        if path.name == "c.ipynb":
            raise KeyboardInterrupt
        graded.append(path.name)
        return [Row(str(path), "w6.round_trips", True, "passed")]

    monkeypatch.setattr(grade, "grade_notebook", grade_one)
    out = tmp_path / "grades.csv"
    assert main(["grade", str(tmp_path), "--out", str(out)]) == 130
    with open(out, encoding="utf-8-sig") as f:
        assert [row[0] for row in csv.reader(f)] == ["notebook", str(tmp_path / "a.ipynb"), str(tmp_path / "b.ipynb")]
    captured = capsys.readouterr()
    assert captured.err == f"\nstopped (Ctrl-C) after 2 of 3 notebooks: their 2 rows are in {out}\n"
    assert "total" in captured.out


def test_a_notebook_saved_with_a_utf8_byte_order_mark_is_graded(tmp_path):
    """Before: its one row read "not a notebook: cannot be read (NotJSONError)" — a passing notebook
    that an editor on Windows saved with the mark got 0 marks. The worker reads its copy too."""
    path = hand_edited(tmp_path / "bom.ipynb", [PASSING])
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    rows = grade_notebook(path, seconds=60)
    assert [(r.exercise, r.passed) for r in rows] == [("w6.round_trips", True)], rows


def test_a_notebook_that_deletes_the_folders_around_it_keeps_its_marks(tmp_path):
    """Before: the grader's executed notebook and log lay next to the kernel's working folder, so
    a cell deleting the files there or the folder itself deleted them: one row "could not be
    executed: no output" and 0 marks, even for the checks that passed before that cell."""
    siblings = "import os\nfor name in os.listdir('..'):\n    if os.path.isfile(os.path.join('..', name)):\n"
    siblings += "        os.remove(os.path.join('..', name))"
    after = dict(PASSING, metadata={"tags": ["exercise:w6.course_bound"]}, source="check('w6.course_bound', 5)")
    cells = [
        PASSING,
        dict(PASSING, metadata={}, source=siblings),
        dict(PASSING, metadata={}, source="import shutil\nshutil.rmtree(os.path.abspath('..'))"),
        after,
    ]
    rows = grade_notebook(hand_edited(tmp_path / "wipes.ipynb", cells), seconds=60)
    assert [(r.exercise, r.passed) for r in rows] == [("w6.round_trips", True), ("w6.course_bound", True)], rows
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wipes.ipynb"]


def test_a_file_name_holding_control_characters_is_written_with_them_escaped(tmp_path):
    """Before: the name went raw to the summary: a learner's `\\x1b]0;…\\x07` retitled the teacher's
    terminal (or `\\x1b[2J` cleared it), and a newline in it broke the table in two."""
    import csv

    name = "ann\x1b]0;all passed\x07\n\x1b[2J\x9b.ipynb"
    (tmp_path / name).write_text("{}")
    rows = grade.grade_paths([tmp_path])
    shown = f"{tmp_path}/ann\\x1b]0;all passed\\x07\\n\\x1b[2J\\x9b.ipynb"
    assert [r.notebook for r in rows] == [shown]
    assert summary(rows).splitlines()[1].startswith(shown + "  ")
    with open(grade.write_csv(rows, tmp_path / "grades.csv"), encoding="utf-8-sig", newline="") as f:
        assert list(csv.reader(f))[1][0] == shown


def test_a_file_name_holding_a_bidi_override_is_written_with_it_escaped(tmp_path):
    """Before: a name with a right-to-left override went raw to the summary and the CSV, where it reads
    backwards: `\\u202eecila.ipynb` showed as 'bnypi.alice', another learner's name."""
    import csv

    name = "\u202eecila\u200b.ipynb"
    (tmp_path / name).write_text("{}")
    rows = grade.grade_paths([tmp_path])
    shown = f"{tmp_path}/\\u202eecila\\u200b.ipynb"
    assert [r.notebook for r in rows] == [shown]
    assert summary(rows).splitlines()[1].startswith(shown + "  ")
    with open(grade.write_csv(rows, tmp_path / "grades.csv"), encoding="utf-8-sig", newline="") as f:
        assert list(csv.reader(f))[1][0] == shown


def test_a_notebook_whose_suffix_is_in_capitals_is_found_and_graded(tmp_path, monkeypatch):
    """A notebook saved or renamed on Windows as `HW.IPYNB` (its folders ignore letter case) was left out of a
    folder's grading without a word, and given by name was "not a notebook: a .IPYNB". Now a suffix is one
    whatever its letter case."""
    cells = [cell('check("w6.round_trips", 2)', "w6.round_trips", outputs=[record("w6.round_trips", True)])]
    path = submit(tmp_path / "alice", "HW.IPYNB", cells, monkeypatch)
    (tmp_path / "bob").mkdir()
    (tmp_path / "bob" / "notes.IPYNB.txt").write_text("{}")
    (tmp_path / "bob" / "hw.Ipynb").write_text("{}")
    assert find_notebooks([tmp_path]) == [path, tmp_path / "bob" / "hw.Ipynb"]
    assert grade_notebook(path) == [Row(str(path), "w6.round_trips", True, "passed")]


def test_a_course_notebooks_name_in_other_letter_case_is_that_weeks():
    assert week_of_notebook("Copy of 06_Week6_Round_Trip_Loop.IPYNB") == 6
    assert week_of_notebook("alice-06_WEEK6_ROUND_TRIP_LOOP.ipynb") == 6


def test_an_exercise_whose_cell_lost_its_tag_and_did_not_run_still_gets_its_row(tmp_path, monkeypatch):
    """An editor that drops cell tags (JupyterLab's real-time collaboration, cells pasted into a new notebook)
    and a file renamed to `homework.ipynb`: an exercise whose cell never ran (the run stopped at the time limit
    before it) had no row, so one pass out of two read 1/1. Now an exercise whose check() a code cell names
    (the starter's own `check("w6.window", …)`) is expected too."""
    cells = [
        cell('check("w6.round_trips", 2)', outputs=[record("w6.round_trips", True)]),
        cell('answer = ...\ncheck( "w6.window", answer)', ran=False),
        cell('# check("w99.made_up", 1) names no exercise'),
    ]
    path = submit(tmp_path, "homework.ipynb", cells, monkeypatch)
    assert grade_notebook(path) == [
        Row(str(path), "w6.round_trips", True, "passed"),
        Row(str(path), "w6.window", False, "not run: no check() result for this exercise"),
    ]


def test_a_cell_without_a_tag_that_raised_before_its_check_says_what_it_raised(tmp_path, monkeypatch):
    """A learner's own cell below her work (`check("w6.window", keep)`, untagged) whose code raised before check()
    made a result (`keep` not defined: the notebook showed a NameError) was graded "not run: no check() result", as
    if it had never run. Now its row says what it raised, as a tagged cell's does; a result check() made still wins,
    and a cell that names no exercise of the course (a comment's made-up id) gives none an error."""

    def raised(source, ename, evalue, tag=None):
        node = cell(source, tag)
        node.outputs = [nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=[])]
        return node

    cells = [
        raised('check("w6.window", keep)', "NameError", "name 'keep' is not defined"),
        raised('check("w6.round_trips", 2)\ncheck("w6.course_bound", n)', "NameError", "name 'n' is not defined"),
        cell("", outputs=[record("w6.round_trips", True)]),
        raised('# check("w99.made_up", 1)\n1/0', "ZeroDivisionError", "division by zero"),
    ]
    path = submit(tmp_path, "homework.ipynb", cells, monkeypatch)
    assert grade_notebook(path) == [
        Row(str(path), "w6.round_trips", True, "passed"),
        Row(str(path), "w6.window", False, "the cell raised NameError: name 'keep' is not defined"),
        Row(str(path), "w6.course_bound", False, "the cell raised NameError: name 'n' is not defined"),
    ]


def test_rows_follow_the_courses_order_wherever_a_learner_moved_a_cell(tmp_path, monkeypatch):
    """A learner who moved an exercise cell to the end of the notebook (or worked the exercises out of
    order) got its row last, so one learner's rows came in another order than the class's. Now every
    notebook lists its exercises in the course's order; a tag the course does not know comes after."""
    cells = [
        cell('check("w6.window", 1)', "w6.window", outputs=[record("w6.window", True)]),
        cell("pass", "w6.old_name"),
        cell('check("w6.round_trips", 2)', "w6.round_trips", outputs=[record("w6.round_trips", True)]),
    ]
    path = submit(tmp_path, "homework.ipynb", cells, monkeypatch)
    assert [r.exercise for r in grade_notebook(path)] == ["w6.round_trips", "w6.window", "w6.old_name"]
    course = submit(tmp_path, "06_week6_round_trip_loop.ipynb", cells, monkeypatch)
    assert [r.exercise for r in grade_notebook(course)] == [
        "w6.round_trips",
        "w6.truth_table",
        "w6.window",
        "w6.course_bound",
        "w6.if_last",
        "w6.old_name",
    ]


def test_a_folder_named_like_a_notebook_is_searched_not_graded_as_a_missing_file(tmp_path):
    """A folder called `alice.ipynb` (an upload unpacked into a folder of the file's name) was listed as a
    notebook and got a row saying "no such file", beside the rows of the notebook inside it. Now a folder
    found in a search is searched, never graded; a dangling link is still a submission with its row."""
    inner = tmp_path / "alice.ipynb" / "01_week1_first_call.ipynb"
    inner.parent.mkdir()
    inner.write_text("{}")
    (tmp_path / "bob.ipynb").symlink_to(tmp_path / "gone.ipynb")
    assert find_notebooks([tmp_path]) == [inner, tmp_path / "bob.ipynb"]


def test_a_zips_macos_metadata_is_not_taken_for_submissions(tmp_path):
    """A class's zip made on a Mac, unpacked with `unzip`, holds `__MACOSX/…/._hw.ipynb` beside each notebook:
    the Finder's metadata, in a binary format. Each got a row of its own, "not a notebook: cannot be read",
    under a name like the learner's own. Now a folder's search leaves them out, as it does checkpoints; a file
    given by name is still graded."""
    real = tmp_path / "Submissions" / "alice" / "hw.ipynb"
    real.parent.mkdir(parents=True)
    real.write_text("{}")
    fork = tmp_path / "__MACOSX" / "Submissions" / "alice" / "._hw.ipynb"
    fork.parent.mkdir(parents=True)
    fork.write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ")
    (real.parent / "._hw.ipynb").write_bytes(fork.read_bytes())
    assert find_notebooks([tmp_path]) == [real]
    assert find_notebooks([fork]) == [fork]


def test_an_empty_file_is_said_to_be_empty(tmp_path):
    """An upload that failed half-way leaves a file of no bytes: its row said "cannot be read (NotJSONError)",
    which reads like a broken notebook. Now it says the file is empty."""
    path = tmp_path / "01_week1_first_call.ipynb"
    path.write_bytes(b"")
    assert grade_notebook(path) == [Row(str(path), NOTEBOOK_ROW, False, "not a notebook: the file is empty")]


def test_a_secret_in_what_a_cell_raised_never_reaches_the_grades(tmp_path, monkeypatch):
    key = "sk-proj-" + "Q3learnerKEY" * 3
    raised = cell("client = connect()", "w6.window")
    raised.outputs = [nbformat.v4.new_output("error", ename="ValueError", evalue=f"bad key {key}", traceback=[])]
    path = submit(tmp_path, "06_week6_round_trip_loop.ipynb", [raised], monkeypatch)
    monkeypatch.setattr(
        grade, "_execute", lambda p, seconds: (nbformat.v4.new_notebook(cells=[raised]), f"DB_PASS={key}")
    )
    rows = grade_notebook(path)
    assert rows[0] == Row(str(path), NOTEBOOK_ROW, False, "DB_PASS=[REDACTED]")
    assert Row(str(path), "w6.window", False, "the cell raised ValueError: bad key [REDACTED]") in rows
    out = grade.write_csv(rows, tmp_path / "grades.csv")
    assert "Q3learnerKEY" not in out.read_text() + summary(rows)


def not_attempted(exercise: str) -> dict:
    return {MIME: {"exercise": exercise, "status": "not attempted", "passed": False, "feedback": "task: …"}}


def test_a_starter_cell_left_below_the_solved_copy_does_not_undo_its_pass(tmp_path, monkeypatch):
    cells = [
        cell('check("w6.round_trips", 2)', "w6.round_trips", outputs=[record("w6.round_trips", True)]),
        cell('check("w6.round_trips", ...)', "w6.round_trips", outputs=[not_attempted("w6.round_trips")]),
        cell('check("w6.course_bound", 4)', "w6.course_bound", outputs=[record("w6.course_bound", False)]),
        cell('check("w6.course_bound", ...)', "w6.course_bound", outputs=[not_attempted("w6.course_bound")]),
        cell('check("w6.window", ...)', "w6.window", outputs=[not_attempted("w6.window")]),
        cell("# the worker's last cell", outputs=[not_attempted("w6.round_trips"), not_attempted("w6.course_bound")]),
    ]
    path = submit(tmp_path, "homework.ipynb", cells, monkeypatch)
    assert grade_notebook(path) == [
        Row(str(path), "w6.round_trips", True, "passed"),
        Row(str(path), "w6.window", False, "not attempted: task: …"),
        Row(str(path), "w6.course_bound", False, "failed"),
    ]


def test_a_secret_at_the_end_of_a_long_error_is_masked_before_the_error_is_cut():
    key = "sk-proj-" + "Q3learnerKEY" * 3
    text = grade._error_text({"ename": "ValueError", "evalue": "x" * 105 + " " + key})
    assert text == "the cell raised ValueError: " + "x" * 105 + " [REDACTED]"[:15]
    assert "Q3" not in text and "sk-" not in text


def test_an_exercise_cell_whose_check_call_gave_no_result_says_a_check_of_its_own_may_have_replaced_it(
    tmp_path, monkeypatch
):
    cells = [
        cell("def check(exercise, answer):\n    return True"),
        cell('answer = 2\ncheck("w6.round_trips", answer)', "w6.round_trips"),
    ]
    path = submit(tmp_path, "homework.ipynb", cells, monkeypatch)
    assert grade_notebook(path) == [Row(str(path), "w6.round_trips", False, grade.CHECK_REPLACED)]
    assert grade.CHECK_REPLACED == (
        "no check() result: the exercise cell called check(), but no result of toolkit's check() came of it "
        "(did a check of the notebook's own replace it?)"
    )


def test_the_grading_folders_random_name_never_reaches_the_grades(tmp_path):
    """Before: an error naming the kernel's working folder (a learner's absolute path) put the grader's
    temporary folder in the row — `/tmp/toolkit-submission-59zr708f/work` — a new text on every run,
    so grading the same notebook twice gave two different CSVs."""
    raising = dict(
        PASSING,
        metadata={"tags": ["exercise:w6.course_bound"]},
        source="import os\nraise ValueError('no data in ' + os.getcwd())",
    )
    opening = dict(
        PASSING,
        metadata={"tags": ["exercise:w6.truth_table"]},
        source="import os\nfrom toolkit.exercises import check\n\ndef f(behaviors, any_error):\n"
        "    return open(os.path.abspath('rules.txt')).read()\n\ncheck('w6.truth_table', f)",
    )
    path = hand_edited(tmp_path / "paths.ipynb", [raising, opening])
    rows = grade_notebook(path, seconds=60)
    assert [(r.exercise, r.feedback) for r in rows] == [
        (
            "w6.truth_table",
            "failed: your code raised FileNotFoundError: [Errno 2] No such file or directory: "
            "'<notebook folder>/rules.txt'",
        ),
        ("w6.course_bound", "the cell raised ValueError: no data in <notebook folder>"),
    ]
    assert grade_notebook(path, seconds=60) == rows


def test_control_characters_a_learner_raised_or_tagged_are_written_escaped(tmp_path, monkeypatch):
    """Before: what a cell raised went raw into the row: `raise ValueError('\\x1b]0;…\\x07')` retitled (or
    `\\x1b[2J` cleared) the terminal of a teacher who ran `toolkit grade … --out -` or read the CSV with cat,
    and a line break split the feedback over lines; so did a cell's exercise tag."""
    raised = cell("raise ValueError(...)", "w6.window")
    raised.outputs = [
        nbformat.v4.new_output("error", ename="ValueError", evalue="\x1b]0;owned\x07 and\nmore\x9b", traceback=[])
    ]
    tagged = cell("x = 1", "w6.\x1b[2Jmine")
    path = submit(tmp_path, "homework.ipynb", [raised, tagged], monkeypatch)
    assert grade_notebook(path) == [
        Row(str(path), "w6.window", False, "the cell raised ValueError: \\x1b]0;owned\\x07 and\\nmore\\x9b"),
        Row(str(path), "w6.\\x1b[2Jmine", False, "no check() result: the exercise cell ran, but did not call check()"),
    ]


def test_a_memory_address_in_what_a_cell_raised_is_left_out_of_the_grades(tmp_path, monkeypatch):
    """Before: `raise KeyError(order)` gave the row `the cell raised KeyError: <__main__.Order object at
    0x7f3a2b1c0d90>`, a new address on every run (regrading gave another CSV); check()'s own feedback leaves
    addresses out, and so does the row now."""
    raised = cell("raise KeyError(order)", "w6.window")
    evalue = "<__main__.Order object at 0x7f3a2b1c0d90> not in <function lookup at 0x7F00AB>"
    raised.outputs = [nbformat.v4.new_output("error", ename="KeyError", evalue=evalue, traceback=[])]
    path = submit(tmp_path, "homework.ipynb", [raised], monkeypatch)
    assert grade_notebook(path) == [
        Row(str(path), "w6.window", False, "the cell raised KeyError: <__main__.Order> not in <function lookup>")
    ]


@pytest.mark.parametrize(("stop", "status"), [("SIGTERM", 143), ("SIGHUP", 129)])
def test_sigterm_half_way_keeps_the_rows_of_the_notebooks_graded_before(tmp_path, monkeypatch, capsys, stop, status):
    """Before: `kill` (or `timeout 3600 toolkit grade …`, a CI job's limit) ended the run without a word: the CSV
    still held the grades of the run before, as if they were this one's, the rows graded in `grades.csv.partial`,
    and the notebook's worker and kernel kept running, orphaned; so did SIGHUP (an SSH session dropped). Both now
    stop it as Ctrl-C does."""
    import csv
    import signal

    from toolkit.cli.main import main

    for name in ("a.ipynb", "b.ipynb", "c.ipynb"):
        (tmp_path / name).write_text("{}")

    def grade_one(path, seconds=120):
        if path.name == "c.ipynb":
            os.kill(os.getpid(), getattr(signal, stop))
        return [Row(str(path), "w6.round_trips", True, "passed")]

    monkeypatch.setattr(grade, "grade_notebook", grade_one)
    out = tmp_path / "grades.csv"
    out.write_text("notebook,exercise,passed,feedback\nlast-week.ipynb,w6.round_trips,1,passed\n")
    before = signal.getsignal(getattr(signal, stop))
    assert main(["grade", str(tmp_path), "--out", str(out)]) == status
    with open(out, encoding="utf-8-sig") as f:
        assert [row[0] for row in csv.reader(f)] == ["notebook", str(tmp_path / "a.ipynb"), str(tmp_path / "b.ipynb")]
    assert capsys.readouterr().err == f"\nstopped ({stop}) after 2 of 3 notebooks: their 2 rows are in {out}\n"
    assert signal.getsignal(getattr(signal, stop)) == before


def test_a_script_that_checks_exercises_in_a_folder_gets_its_row(tmp_path):
    """Before: a learner who handed in `bob.py` (the notebook saved as a script: Jupyter's Download as Python) was
    left out of a folder's grading without a word — no row, no line in the summary, a class of 40 graded as 39.
    A script that calls check() on a course exercise is now listed and said to be no notebook; a helper script (no
    check() call), a script of no course exercise, other files, and the modules and tests of a whole copy of the
    course (check() calls as text, or inside test functions) are still left out."""
    (tmp_path / "alice.ipynb").write_text("{}")
    (tmp_path / "bob.py").write_text('# In[1]:\n\n\nfrom toolkit.exercises import check\ncheck("w6.round_trips", 2)\n')
    (tmp_path / "carol").mkdir()
    (tmp_path / "carol" / "HW.PY").write_text("check('w6.window', keep)\n")
    (tmp_path / "carol" / "utils.py").write_text("def keep(messages, n):\n    return messages[-n:]\n")
    (tmp_path / "dave.py").write_text("check('w99.made_up', 1)\n")
    (tmp_path / "frank.py").write_text("if True:\ncheck('w6.window', keep\n")  # does not parse: its text says
    course = tmp_path / "erin" / "course-main"  # her whole copy of the course, zipped
    (course / "toolkit").mkdir(parents=True)
    (course / "toolkit" / "week06.py").write_text('STARTER = """\ncheck("w6.window", naive_keep)\n"""\n')
    (course / "tests").mkdir()
    (course / "tests" / "test_week06.py").write_text("def test_window():\n    check('w6.window', keep)\n")
    (tmp_path / "notes.txt").write_text('check("w6.round_trips", 2)\n')
    assert find_notebooks([tmp_path]) == [
        tmp_path / "alice.ipynb",
        tmp_path / "bob.py",
        tmp_path / "carol" / "HW.PY",
        tmp_path / "frank.py",
    ]
    assert grade_notebook(tmp_path / "bob.py") == [
        Row(str(tmp_path / "bob.py"), NOTEBOOK_ROW, False, "not a notebook: a .py")
    ]


def test_an_exercise_the_notebook_has_no_cell_for_is_said_to_be_missing_not_unrun(tmp_path, monkeypatch):
    """Before: week 6's notebook handed in as week 7's (the wrong file, renamed) gave each week-7 exercise the row
    'not run: no check() result for this exercise', as if its cell had been there and stopped before it ran (a
    time limit, a dead kernel); the teacher looked for a cell that was never in the file. Now such an exercise is
    said to be missing; one whose cell is there but did not run is still 'not run'."""
    cells = [
        cell('check("w6.round_trips", 2)', "w6.round_trips", outputs=[record("w6.round_trips", True)]),
        cell('check("w7.when", {})', ran=False),  # the run stopped before it: there, but not run
    ]
    path = submit(tmp_path, "07_week7_compensation.ipynb", cells, monkeypatch)
    assert [(r.exercise, r.feedback) for r in grade_notebook(path)] == [
        ("w7.rollback_order", grade.MISSING),
        ("w7.compensation", grade.MISSING),
        ("w7.model_reads", grade.MISSING),
        ("w7.when", "not run: no check() result for this exercise"),
        ("w6.round_trips", "passed"),
    ]
    assert (
        grade.MISSING
        == "missing: the notebook has no cell for this exercise (none tagged with it or calling its check())"
    )


def test_the_stop_line_agrees_with_one_notebook_and_one_row(tmp_path, monkeypatch, capsys):
    """Before: 'stopped (Ctrl-C) after 1 of 2 notebooks: their 1 row are in grades.csv'."""
    from toolkit.cli.main import main

    for name in ("a.ipynb", "b.ipynb"):
        (tmp_path / name).write_text("{}")

    def grade_one(path, seconds=120):
        if path.name == "b.ipynb":
            raise KeyboardInterrupt
        return [Row(str(path), "w6.round_trips", True, "passed")]

    monkeypatch.setattr(grade, "grade_notebook", grade_one)
    out = tmp_path / "grades.csv"
    assert main(["grade", str(tmp_path), "--out", str(out)]) == 130
    assert capsys.readouterr().err == f"\nstopped (Ctrl-C) after 1 of 2 notebooks: its 1 row is in {out}\n"


@pytest.mark.parametrize("kind", ["markdown", "raw"])
def test_an_exercise_cell_turned_into_text_is_said_to_be_no_code(tmp_path, monkeypatch, kind):
    """Before: an exercise cell a learner turned into markdown (M pressed in command mode) or raw text got 'not run:
    no check() result for this exercise', as if the run had stopped before it; nothing in a text cell ever runs."""
    text = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_raw_cell
    turned = text('answer = 2\ncheck("w6.round_trips", answer)', metadata={"tags": ["exercise:w6.round_trips"]})
    path = submit(tmp_path, "homework.ipynb", [turned, cell("x = 1", "w6.window", ran=False)], monkeypatch)
    assert [(r.exercise, r.feedback) for r in grade_notebook(path)] == [
        ("w6.round_trips", f"not run: the exercise cell is a {kind} cell, not code, so nothing in it ran"),
        ("w6.window", "not run: no check() result for this exercise"),
    ]


def test_a_cell_past_the_time_limit_is_stopped_and_the_cells_after_it_still_run(tmp_path):
    """Before: an endless loop at the top of an exercise cell (a retry loop tried out by hand) stopped the whole
    run at the cell's limit, and every exercise after it was 'not run' — work the learner had done, lost to one
    loop. Now the cell is interrupted, as nbgrader does (interrupt_on_timeout), and the cells after it run."""
    endless = dict(PASSING, metadata={"tags": ["exercise:w6.window"]}, source="while True:\n    pass")
    path = hand_edited(tmp_path / "loops.ipynb", [endless, PASSING])
    rows = grade_notebook(path, seconds=4)
    assert [(r.exercise, r.passed, r.feedback) for r in rows] == [
        (NOTEBOOK_ROW, False, "a cell ran longer than 4 s and was stopped; the cells after it still ran"),
        ("w6.round_trips", True, "passed: 2 round trips, 4 tool calls, 3 model requests."),
        ("w6.window", False, "stopped: the cell ran longer than the time limit"),
    ]


def test_the_cell_running_when_the_notebooks_time_ran_out_is_said_to_be_stopped_not_unrun(tmp_path, monkeypatch):
    """Before: a cell that swallowed the time limit's interrupt (`except BaseException: pass` in a loop) ran until
    the notebook's own limit killed it; its exercise read 'not run: no check() result', though it had run all along.
    The saved run ends at the last cell that finished, its closing cell not run: the next cell is the one that hung."""
    from toolkit.exercises.notebook import LAST_TAG

    cells = [
        cell('check("w6.round_trips", 2)', "w6.round_trips", outputs=[record("w6.round_trips", True)]),
        cell("", ran=False),  # a blank cell: never run, never the one that hung
        cell(
            "while True:\n    try:\n        time.sleep(1)\n    except BaseException:\n        pass",
            "w6.window",
            ran=False,
        ),
        cell('check("w6.course_bound", 5)', "w6.course_bound", ran=False),
        cell("display(LAST)", ran=False),
    ]
    cells[-1].metadata["tags"] = [LAST_TAG]
    path = submit(tmp_path, "homework.ipynb", cells[:-1], monkeypatch)
    killed = "timed out: still running after 64 s, stopped; results checked before that are kept"
    monkeypatch.setattr(grade, "_execute", lambda p, seconds: (nbformat.v4.new_notebook(cells=cells), killed))
    assert [(r.exercise, r.feedback) for r in grade_notebook(path)] == [
        (NOTEBOOK_ROW, killed),
        ("w6.round_trips", "passed"),
        ("w6.window", grade.STILL_RUNNING),
        ("w6.course_bound", "not run: no check() result for this exercise"),
    ]
    assert grade.STILL_RUNNING == (
        "stopped: the cell ran past the time limit and did not stop when interrupted (does it catch "
        "KeyboardInterrupt?); the notebook was stopped in it"
    )


def test_the_stop_line_counts_one_notebook_in_the_singular(tmp_path, monkeypatch, capsys):
    """Before: 'stopped (Ctrl-C) after 0 of 1 notebooks: …'."""
    from toolkit.cli.main import main

    (tmp_path / "a.ipynb").write_text("{}")

    def grade_one(path, seconds=120):
        raise KeyboardInterrupt

    monkeypatch.setattr(grade, "grade_notebook", grade_one)
    out = tmp_path / "grades.csv"
    assert main(["grade", str(tmp_path), "--out", str(out)]) == 130
    assert capsys.readouterr().err == f"\nstopped (Ctrl-C) after 0 of 1 notebook: their 0 rows are in {out}\n"


def test_a_zip_that_holds_a_notebook_gets_a_row_saying_so(tmp_path):
    """Before: a learner who handed in `bob.zip` (their notebook, zipped) was left out of a folder's grades
    without a word, as if they had handed in nothing; given by name, or renamed `.ipynb`, its row said "not a
    notebook: a .zip" / "cannot be read (NotJSONError)", not what it holds. Now a folder's zip holding a notebook
    (read from its directory: nothing unpacked) is listed, and its row names the notebook and says to unpack it;
    a zip of other files, a Mac's metadata or checkpoints only, or a broken one, is not a submission."""
    import zipfile

    def zipped(name: str, *inside: str) -> Path:
        with zipfile.ZipFile(tmp_path / name, "w") as archive:
            for entry in inside:
                archive.writestr(entry, "{}")
        return tmp_path / name

    bob = zipped("bob.zip", "bob/", "bob/06_week6_round_trip_loop.ipynb", "__MACOSX/bob/._06_week6.ipynb")
    zipped("carol.ZIP", "notes.txt", ".ipynb_checkpoints/hw-checkpoint.ipynb", "__MACOSX/._hw.ipynb")
    (tmp_path / "dave.zip").write_bytes(b"PK\x03\x04 cut short")
    many = zipped("erin.zip", *(f"hw{n}.ipynb" for n in range(5)))
    renamed = zipped("frank.ipynb", "hw.ipynb")
    assert find_notebooks([tmp_path]) == [bob, many, renamed]
    unpack = "; unpack it and grade the notebook in it"
    assert [r.feedback for r in grade_notebook(bob)] == [
        f"not a notebook: a zip archive holding bob/06_week6_round_trip_loop.ipynb{unpack}"
    ]
    assert [r.feedback for r in grade_notebook(many)] == [
        f"not a notebook: a zip archive holding hw0.ipynb, hw1.ipynb, hw2.ipynb and 2 more{unpack}"
    ]
    assert [r.feedback for r in grade_notebook(renamed)] == [f"not a notebook: a zip archive holding hw.ipynb{unpack}"]
    assert [r.feedback for r in grade_notebook(tmp_path / "dave.zip")] == ["not a notebook: a .zip"]


@pytest.mark.parametrize(
    ("metadata", "note"),
    [
        (
            {"kernelspec": {"name": "ir", "display_name": "R", "language": "R"}},
            "its kernel is for 'R' (kernelspec 'ir'), not Python: its cells were run as Python, as the course's are",
        ),
        ({"language_info": {"name": "julia"}}, "its kernel is for 'julia' (kernelspec None), not Python: its cells"),
        ({"kernelspec": {"name": "conda-env-course-py", "language": "python"}}, None),
        ({"kernelspec": {"name": "ir"}}, None),  # no language said: nothing guessed from a kernel's name
        ({"kernelspec": "R"}, None),
    ],
)
def test_a_notebook_whose_kernel_is_another_languages_is_told_so(tmp_path, monkeypatch, metadata, note):
    """Before: an R notebook (`answer <- 2`, Python's `answer < -2`) graded "the cell raised NameError: name
    'answer' is not defined", and nothing said it was no Python notebook. Its notebook row now says which language
    its kernel is for, and that it ran as Python; a Python kernel of any name, or no language said, adds nothing."""
    cells = [cell('check("w6.round_trips", 2)', "w6.round_trips", outputs=[record("w6.round_trips", True)])]
    path = submit(tmp_path, "homework.ipynb", cells, monkeypatch)
    notebook = nbformat.read(path, as_version=4)
    notebook.metadata.update(metadata)
    nbformat.write(notebook, path)
    rows = [(r.exercise, r.feedback) for r in grade_notebook(path)]
    assert rows[-1] == ("w6.round_trips", "passed")
    assert rows[:-1] == ([] if note is None else [(NOTEBOOK_ROW, rows[0][1])])
    assert note is None or rows[0][1].startswith(note)


def test_a_notebook_whose_json_is_broken_says_where_in_its_row(tmp_path):
    """Its row said "not a notebook: cannot be read (NotJSONError)": where, and the fix, are now said."""
    from test_cli_notebooks_paths import BROKEN_JSON

    path = tmp_path / "01_week1_first_call.ipynb"
    for text, said in BROKEN_JSON:
        path.write_text(text, encoding="utf-8")
        assert grade_notebook(path) == [Row(str(path), NOTEBOOK_ROW, False, f"not a notebook: {said}")]


def test_a_notebook_nbformat_cannot_read_says_what_nbformat_found_in_its_row(tmp_path):
    """Its row said "not a notebook: cannot be read (ValidationError)" for a cell written without the `metadata`
    every cell has (a notebook made by a script), and "(NBFormatError)" for a version no Jupyter reads: what is
    wrong is now said, without a secret the file holds there."""
    path = tmp_path / "01_week1_first_call.ipynb"
    cell = {"cell_type": "code", "source": "1", "outputs": [], "execution_count": None}
    key = "sk-proj-" + "A" * 40
    for text, said in [
        (
            json.dumps({"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [cell]}),
            "ValidationError: The notebook is invalid and is missing an expected key: metadata",
        ),
        (
            json.dumps({"nbformat": key, "nbformat_minor": 4, "metadata": {}, "cells": []}),
            "NBFormatError: Unsupported nbformat version [REDACTED]",
        ),
    ]:
        path.write_text(text, encoding="utf-8")
        expected = f"not a notebook: cannot be read ({said}; give the notebook as Jupyter saved it)"
        assert grade_notebook(path) == [Row(str(path), NOTEBOOK_ROW, False, expected)]
