"""`toolkit grade`: starters grade 0, solutions full marks, a broken cell partial; bad submissions get a row.

Each notebook runs in a real kernel, so the notebooks here are small: week 2's Exercises section
on its own (named like the course notebook), plus the committed week-0 notebook.
"""

import csv
from pathlib import Path

import nbformat
import pytest

from toolkit.cli.main import main
from toolkit.exercises import all_exercises
from toolkit.exercises.grade import NOTEBOOK_ROW, grade_paths, summary
from toolkit.exercises.notebook import section_cells

WEEK2 = "02_week2_reliable_calls.ipynb"
COURSE = Path(__file__).resolve().parents[1] / "notebooks"
N = sum(e.week == 2 for e in all_exercises())  # week 2's exercises, one row each


def write(folder: Path, name: str, cells) -> Path:
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("submissions")
    write(root / "starter", WEEK2, section_cells(2))
    write(root / "solved", WEEK2, section_cells(2, solved=True))
    broken = section_cells(2, solved=True)
    target = next(c for c in broken if "exercise:w2.waits" in c.metadata.get("tags", []))
    target.source = "1 / 0\n" + target.source
    write(root / "broken", WEEK2, broken)
    deleted = [c for c in section_cells(2, solved=True) if "exercise:w2.triage" not in c.metadata.get("tags", [])]
    write(root / "deleted", WEEK2, deleted)
    hanging = section_cells(2, solved=True)
    hanging.insert(3, nbformat.v4.new_code_cell("import time\ntime.sleep(600)"))
    write(root / "hanging", WEEK2, hanging)
    (root / "notes.txt").write_text("not a notebook")
    (root / "garbled.ipynb").write_text("{not json")
    rows = grade_paths([root], seconds=8)
    by = {}
    for r in rows:
        by.setdefault(Path(r.notebook).parent.name if r.notebook.endswith(WEEK2) else Path(r.notebook).name, []).append(
            r
        )
    return rows, by


def scores(rows):
    graded = [r for r in rows if r.exercise != NOTEBOOK_ROW]
    return sum(r.passed for r in graded), len(graded)


def test_starter_grades_zero_and_says_not_attempted(graded):
    _, by = graded
    assert scores(by["starter"]) == (0, N)
    assert all(r.feedback.startswith("not attempted") for r in by["starter"])


def test_solutions_grade_full_marks(graded):
    _, by = graded
    assert scores(by["solved"]) == (N, N)


def test_one_broken_cell_gives_partial_marks(graded):
    _, by = graded
    assert scores(by["broken"]) == (N - 1, N)
    [waits] = [r for r in by["broken"] if r.exercise == "w2.waits"]
    assert waits.feedback == "the cell raised ZeroDivisionError: division by zero"


def test_a_deleted_exercise_cell_still_gets_a_row(graded):
    _, by = graded
    [triage] = [r for r in by["deleted"] if r.exercise == "w2.triage"]
    assert not triage.passed and triage.feedback == "not run: no check() result for this exercise"


def test_a_hanging_cell_is_stopped_and_grading_goes_on(graded):
    _, by = graded
    note = [r for r in by["hanging"] if r.exercise == NOTEBOOK_ROW]
    assert note and "a cell ran longer than 8 s and was stopped" in note[0].feedback
    assert scores(by["hanging"])[1] == N


def test_bad_files_get_a_row_each(graded):
    rows, by = graded
    assert [r.feedback for r in by["garbled.ipynb"]] == ["not a notebook: cannot be read (NotJSONError)"]
    assert "notes.txt" not in by  # a folder is searched for *.ipynb only
    assert "total" in summary(rows)


def test_cli_writes_the_csv_and_names_a_non_notebook(tmp_path, capsys):
    text = tmp_path / "essay.txt"
    text.write_text("hello")
    out = tmp_path / "grades.csv"
    assert main(["grade", str(text), "--out", str(out)]) == 0
    with open(out, encoding="utf-8") as f:
        assert list(csv.reader(f)) == [
            ["notebook", "exercise", "passed", "feedback"],
            [str(text), NOTEBOOK_ROW, "0", "not a notebook: a .txt"],
        ]
    assert "not a notebook: a .txt" in capsys.readouterr().out  # the summary shows the note


def test_the_committed_welcome_notebook_grades_zero(tmp_path):
    rows = grade_paths([COURSE / "00_welcome.ipynb"], seconds=60)
    assert [(r.exercise, r.passed) for r in rows] == [("w0.switch", False)]


def test_a_check_record_without_its_passed_field_is_a_failed_row_not_a_crash(tmp_path, monkeypatch):
    import toolkit.exercises.grade as grade
    from toolkit.exercises.core import MIME

    cell = nbformat.v4.new_code_cell("", metadata={"tags": ["exercise:w6.round_trips"]})
    path = write(tmp_path, "forged.ipynb", [cell])
    executed = nbformat.read(path, as_version=4)
    record = {"exercise": "w6.round_trips", "status": "passed"}  # no "passed": written by hand, not by check()
    executed.cells[0].outputs = [nbformat.v4.new_output("display_data", data={MIME: record})]
    monkeypatch.setattr(grade, "_execute", lambda path, seconds: (executed, ""))
    assert grade.grade_notebook(path) == [grade.Row(str(path), "w6.round_trips", False, "passed")]


def test_a_grading_run_stopped_while_waiting_leaves_no_worker_running(tmp_path, monkeypatch):
    import os
    import subprocess

    from toolkit.exercises.grade import _execute

    path = write(tmp_path, "slow.ipynb", [nbformat.v4.new_code_cell("import time\ntime.sleep(600)")])
    started = []
    original = subprocess.Popen.communicate

    def interrupted(self, *args, **kwargs):
        if kwargs.get("timeout") is None:
            return original(self, *args, **kwargs)
        started.append(self.pid)
        raise KeyboardInterrupt  # Ctrl-C while the worker runs the notebook

    monkeypatch.setattr(subprocess.Popen, "communicate", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _execute(path, 600)
    with pytest.raises(ProcessLookupError):
        os.killpg(started[0], 0)  # the worker's process group (and its kernel) is gone


@pytest.mark.parametrize("value", ["0", "86401", "99999999999999999999999999", "ten"])
def test_a_time_limit_out_of_range_is_a_usage_error(value, capsys):
    with pytest.raises(SystemExit) as info:
        main(["grade", "x.ipynb", "--timeout", value])
    assert info.value.code == 2
    assert (
        f"argument --timeout: {value!r} is not a time limit: use a whole number of seconds from 1 to 86400"
        in capsys.readouterr().err
    )


def test_a_cell_whose_tags_are_not_a_list_does_not_stop_the_notebook_from_running(tmp_path):
    import json

    checked = nbformat.v4.new_code_cell(
        "from toolkit.exercises import check\ncheck('w6.round_trips', 2)",
        metadata={"tags": ["exercise:w6.round_trips"]},
    )
    path = write(tmp_path, "odd_tags.ipynb", [nbformat.v4.new_code_cell("x = 1"), checked])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cells"][0]["metadata"]["tags"] = "my note"  # hand-edited: nbformat.read keeps it, with a warning
    data["cells"].insert(1, {**data["cells"][0], "id": "tags-null", "metadata": {"tags": None}})
    path.write_text(json.dumps(data), encoding="utf-8")
    rows = grade_paths([path], seconds=30)
    assert [(r.exercise, r.passed) for r in rows] == [("w6.round_trips", True)]
