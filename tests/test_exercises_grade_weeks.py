"""`toolkit grade --scores`: each learner's exercises passed per week and in total, sums that add up."""

import csv
import io
from pathlib import Path

import nbformat
import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolkit.cli.main import main
from toolkit.exercises import all_exercises
from toolkit.exercises.grade import (
    NO_EXERCISES,
    NOTEBOOK_ROW,
    Row,
    course_copy_week,
    exercise_week,
    learners,
    week_scores,
)

W2 = [e.id for e in all_exercises() if e.week == 2]
W6 = [e.id for e in all_exercises() if e.week == 6]
SWITCH = 'check("w0.switch", {"no variables": "fake", "all three": "real", "only LLM_BASE_URL": "error"})'


def test_each_learner_gets_the_exercises_passed_per_week_and_in_total():
    rows = [
        Row("sub/alice/06_week6_round_trip_loop.ipynb", W6[0], True, "passed"),
        Row("sub/alice/06_week6_round_trip_loop.ipynb", W6[1], False, "failed"),
        Row("sub/alice/Copy of 06_week6_round_trip_loop.ipynb", W6[1], True, "passed"),  # handed in twice: once
        Row("sub/alice/Copy of 06_week6_round_trip_loop.ipynb", W6[0], True, "passed"),
        Row("sub/alice/02_week2_reliable_calls.ipynb", W2[0], True, "passed"),
        Row("sub/alice/02_week2_reliable_calls.ipynb", "w3.typo", False, "not run"),
        Row("sub/alice/02_week2_reliable_calls.ipynb", "my-note", True, "passed"),
        Row("sub/bob/hw.py", NOTEBOOK_ROW, False, "not a notebook: a .py"),
        Row("sub/carol/06_week6_round_trip_loop.ipynb", NOTEBOOK_ROW, False, "timed out"),
        Row("sub/carol/06_week6_round_trip_loop.ipynb", W6[0], False, "not run"),
    ]
    assert week_scores(rows) == [
        ["learner", "w2", "w3", "w6", "other", "total", "graded"],
        ["alice", 1, 0, 2, 1, 4, 5],
        ["bob", 0, 0, 0, 0, 0, 0],
        ["carol", 0, 0, 0, 0, 0, 1],
    ]


def test_a_learner_is_the_first_folder_below_the_shared_one_or_the_notebook_itself():
    assert learners(["s/alice/w/a.ipynb", "s/bob/b.ipynb", "s/c.ipynb"]) == {
        "s/alice/w/a.ipynb": "alice",
        "s/bob/b.ipynb": "bob",
        "s/c.ipynb": "c.ipynb",
    }
    assert learners(["s/alice/a.ipynb"]) == {"s/alice/a.ipynb": "a.ipynb"}
    assert week_scores([]) == [["learner", "total", "graded"]]


def test_two_classes_graded_at_once_score_each_student_not_each_class():
    """Before: submissions/class-a/alice/… and submissions/class-a/bob/… (two classes graded in one run) were one
    learner, 'class-a', credited with every exercise either student passed; the two wang-weis of class-a and class-b
    had no line of their own. Now a folder whose subfolders hand in the same exercise twice is not one learner: each
    subfolder is (a learner never hands in one exercise from two folders), named with its path."""
    rows = [
        Row("sub/class-a/alice/06_week6_round_trip_loop.ipynb", W6[0], True, "passed"),
        Row("sub/class-a/alice/06_week6_round_trip_loop.ipynb", W6[1], False, "failed"),
        Row("sub/class-a/bob/06_week6_round_trip_loop.ipynb", W6[0], False, "failed"),
        Row("sub/class-a/bob/06_week6_round_trip_loop.ipynb", W6[1], True, "passed"),
        Row("sub/class-b/wang-wei/06_week6_round_trip_loop.ipynb", W6[0], True, "passed"),
        Row("sub/class-b/wang-wei/02_week2_reliable_calls.ipynb", W2[0], True, "passed"),
        Row("sub/class-a/wang-wei/06_week6_round_trip_loop.ipynb", W6[0], False, "failed"),
    ]
    assert week_scores(rows)[1:] == [
        ["class-a/alice", 0, 1, 1, 2],
        ["class-a/bob", 0, 1, 1, 2],
        ["class-a/wang-wei", 0, 0, 0, 1],
        ["class-b", 1, 1, 2, 2],  # one student in it: no exercise handed in twice, the folder is the learner
    ]
    # a learner's own subfolders, one per week, stay one learner
    weeks = [Row("s/alice/week6/06.ipynb", W6[0], True, ""), Row("s/alice/week2/02.ipynb", W2[0], True, "")]
    weeks.append(Row("s/bob/06.ipynb", W6[0], False, ""))
    assert learners(["s/alice/week6/06.ipynb", "s/alice/week2/02.ipynb", "s/bob/06.ipynb"], weeks) == {
        "s/alice/week6/06.ipynb": "alice",
        "s/alice/week2/02.ipynb": "alice",
        "s/bob/06.ipynb": "bob",
    }


def test_an_exercise_week_is_the_registrys_then_its_id():
    assert [exercise_week(W6[0]), exercise_week("w12.new"), exercise_week("notes")] == ["w6", "w12", "other"]


NOTEBOOKS = st.sampled_from(
    ["s/a/x.ipynb", "s/a/y.ipynb", "s/b/x.ipynb", "s/c.ipynb", "s/d/e/x.ipynb", "s/d/f/x.ipynb"]
)
EXERCISES = st.sampled_from([*W2[:2], *W6[:2], "w3.typo", "note", NOTEBOOK_ROW])


@given(st.lists(st.tuples(NOTEBOOKS, EXERCISES, st.booleans()), max_size=30))
def test_the_sums_add_up(graded):
    rows = [Row(n, e, p, "") for n, e, p in graded]
    header, *lines = week_scores(rows)
    who = learners(dict.fromkeys(r.notebook for r in rows), rows)
    passed = {(who[r.notebook], r.exercise) for r in rows if r.passed and r.exercise != NOTEBOOK_ROW}
    tried = {(who[r.notebook], r.exercise) for r in rows if r.exercise != NOTEBOOK_ROW}
    assert [line[0] for line in lines] == sorted(set(who.values()))
    for line in lines:
        assert line[-2] == sum(line[1:-2]) <= line[-1]
    assert sum(line[-2] for line in lines) == len(passed)
    assert sum(line[-1] for line in lines) == len(tried)
    for column, week in enumerate(header[1:-2], start=1):
        assert sum(line[column] for line in lines) == sum(exercise_week(e) == week for _, e in passed)


def write(folder: Path, name: str, source: str) -> None:
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source, metadata={"tags": ["exercise:w0.switch"]})]
    )
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / name)


def graded_by_source(monkeypatch):
    """`grade_notebook` in place of a kernel run (seconds each; the runs themselves are `test_exercises_grade`'s):
    w0.switch passed where the notebook's cell calls the check with the right answer, else failed."""
    from toolkit.exercises import grade

    def graded(path, seconds):
        passed = SWITCH in nbformat.read(path, as_version=4).cells[0].source
        return [Row(str(path), "w0.switch", passed, "passed" if passed else "failed")]

    monkeypatch.setattr(grade, "grade_notebook", graded)


def test_grade_writes_the_scores_per_week_with_a_byte_order_mark(tmp_path, capsys, monkeypatch):
    imports = "from toolkit.exercises import check\n"
    write(tmp_path / "sub" / "alice", "00_welcome.ipynb", imports + SWITCH)
    write(tmp_path / "sub" / "bob", "00_welcome.ipynb", imports + "raise ValueError('no')")
    graded_by_source(monkeypatch)
    scores, grades = tmp_path / "scores.csv", tmp_path / "grades.csv"
    assert main(["grade", str(tmp_path / "sub"), "--out", str(grades), "--scores", str(scores)]) == 0
    assert capsys.readouterr().out.endswith(f"scores per week written to {scores}\n")
    assert scores.read_bytes().startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(scores.read_text(encoding="utf-8-sig"))))
    assert table == [["learner", "w0", "total", "graded"], ["alice", "1", "1", "1"], ["bob", "0", "0", "1"]]


def test_scores_that_would_overwrite_the_grades_are_refused(tmp_path, capsys):
    write(tmp_path / "sub", "a.ipynb", "x = 1")
    grades = tmp_path / "grades.csv"
    assert main(["grade", str(tmp_path / "sub"), "--out", str(grades), "--scores", str(grades)]) == 2
    assert capsys.readouterr().err == (
        f"error: grade --scores {grades}: that is the grades CSV (--out), which the scores would overwrite; give "
        "another file, e.g. --scores scores.csv\n"
    )
    assert not grades.exists()


def test_scores_to_stdout_are_the_csv_alone_there_and_not_a_file_named_dash(tmp_path, capsys, monkeypatch):
    """Before: `--scores -` wrote a file named `-` in the working folder and said 'written to -'."""
    write(tmp_path / "sub", "00_welcome.ipynb", "from toolkit.exercises import check\n" + SWITCH)
    monkeypatch.chdir(tmp_path)
    graded_by_source(monkeypatch)
    assert main(["grade", "sub", "--out", "grades.csv", "--scores", "-"]) == 0
    out, err = capsys.readouterr()
    assert out == "learner,w0,total,graded\r\nsub,1,1,1\r\n"  # one learner's folder: its name
    assert err.endswith("1 row written to grades.csv\nscores per week written to stdout\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", "sub"]


def test_scores_and_grades_both_to_stdout_are_refused(tmp_path, capsys):
    write(tmp_path / "sub", "a.ipynb", "x = 1")
    assert main(["grade", str(tmp_path / "sub"), "--out", "-", "--scores", "-"]) == 2
    assert capsys.readouterr().err == (
        "error: grade --scores -: the grades CSV (--out) is written to standard output already; give a file, "
        "e.g. --scores scores.csv\n"
    )


def test_the_help_and_the_teachers_docs_name_the_scores_columns_as_written(capsys):
    """Before: the last column was `exercises` (how many were graded, read as a list of them or a count passed)
    and neither the help nor the course map said what the columns were."""
    header = week_scores([Row("s/a/00_welcome.ipynb", "w0.switch", True, "")])[0]
    assert header == ["learner", "w0", "total", "graded"]
    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert (
        "columns learner, one per week graded (w0 … w10: exercises passed that week), total (passed in all), graded"
        in help_text
    )
    root = Path(__file__).resolve().parents[1]
    for doc in ("docs/teaching.md", "notebooks/README.md"):
        text = " ".join((root / doc).read_text(encoding="utf-8").split())
        assert "`--scores scores.csv`" in text, doc
        assert all(f"`{column}`" in text for column in ("learner", "w0", "w10", "total", "graded")), doc


def test_scores_whose_partial_file_is_the_grades_csv_are_refused(tmp_path, capsys):
    """Before: `--out scores.csv.partial --scores scores.csv` graded, then wrote the scores to scores.csv.partial
    first — the grades CSV — and renamed it: the grades were lost."""
    write(tmp_path / "sub", "a.ipynb", "x = 1")
    scores = tmp_path / "scores.csv"
    grades = tmp_path / "scores.csv.partial"
    assert main(["grade", str(tmp_path / "sub"), "--out", str(grades), "--scores", str(scores)]) == 2
    assert capsys.readouterr().err == (
        f"error: grade --scores {scores}: the scores are written first to {grades}, the grades CSV (--out), and "
        "would overwrite it; give another file, e.g. --scores scores.csv\n"
    )
    assert not grades.exists()


def test_a_class_is_listed_in_the_order_a_person_reads_its_names(tmp_path):
    """Before: a class of 30 in folders student1 … student30 was listed student1, student10, student11, …, student2,
    and Zoe before alice (Python's order of code points), in the grades and in the scores. Both now list numbers by
    value and letters whatever their case (the exact name breaks a tie), the same on every run."""
    from toolkit.exercises.grade import find_notebooks

    names = ["student10", "Zoe", "student2", "alice", "student1", "Alice", "bob"]
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "hw.ipynb").write_text("{}")
    want = ["Alice", "alice", "bob", "student1", "student2", "student10", "Zoe"]
    assert [p.parent.name for p in find_notebooks([tmp_path])] == want
    rows = [Row(f"sub/{name}/hw.ipynb", W6[0], True, "passed") for name in names]
    assert [line[0] for line in week_scores(rows)[1:]] == want


def test_one_learners_folder_of_the_courses_notebooks_is_that_learner():
    """Before: `toolkit grade submissions/alice --scores s.csv` (her folder alone) named each of her notebooks a
    learner ('00_welcome.ipynb', '06_week6_round_trip_loop.ipynb'): the first folder below the shared one is none.
    Now notebooks all in one folder under the course's own names (one each, so no two learners' files) are that
    folder's learner; a flat folder of learners' files (`alice.ipynb`, a copy beside the original) is as before."""
    hers = ["s/alice/06_week6_round_trip_loop.ipynb", "s/alice/02_Week2_Reliable_Calls.ipynb"]
    assert set(learners(hers).values()) == {"alice"}
    assert learners(hers[:1]) == {hers[0]: "alice"}
    flat = ["hw/alice.ipynb", "hw/06_week6_round_trip_loop.ipynb"]
    assert learners(flat) == {flat[0]: "alice.ipynb", flat[1]: "06_week6_round_trip_loop.ipynb"}
    copies = ["hw/06_week6_round_trip_loop.ipynb", "hw/Copy of 06_week6_round_trip_loop.ipynb"]
    colab = ["s/alice/Copy of 06_week6_round_trip_loop.ipynb", "s/alice/02_week2_reliable_calls (1).ipynb"]
    assert set(learners(colab).values()) == {"alice"}  # copies, one a week: hers
    assert course_copy_week("06_week6_round_trip_loop - Copy (2).ipynb") == 6
    assert course_copy_week("alice-06_week6_round_trip_loop.ipynb") is None
    dump = ["hw/06_week6_round_trip_loop.ipynb", "hw/06_week6_round_trip_loop (1).ipynb"]  # everyone's, one folder
    assert sorted(learners(dump).values()) == sorted(name.removeprefix("hw/") for name in dump)
    cased = ["hw/06_week6_round_trip_loop.ipynb", "hw/06_Week6_Round_Trip_Loop.ipynb"]  # two files on Linux
    assert sorted(learners(cased).values()) == sorted(name.removeprefix("hw/") for name in cased)
    assert sorted(learners(copies).values()) == [
        "06_week6_round_trip_loop.ipynb",
        "Copy of 06_week6_round_trip_loop.ipynb",
    ]
    rows = [Row(hers[0], W6[0], True, ""), Row(hers[1], W2[0], True, "")]
    assert week_scores(rows)[1:] == [["alice", 1, 1, 2, 2]]


def test_a_learners_scratch_notebook_beside_her_course_notebooks_is_hers():
    """Before: `grade submissions/alice --scores` with an `Untitled.ipynb` beside her course notebooks named each file a
    learner ('06_week6_round_trip_loop.ipynb', 'Untitled.ipynb'). A notebook graded "no exercises found" is no one's
    submission: the folder is still one learner's. One that holds an exercise, or could not be read, still names a
    learner of its own."""
    hers = ["s/alice/06_week6_round_trip_loop.ipynb", "s/alice/Untitled.ipynb"]
    rows = [Row(hers[0], W6[0], True, ""), Row(hers[1], NOTEBOOK_ROW, False, NO_EXERCISES)]
    assert week_scores(rows)[1:] == [["alice", 1, 1, 1]]
    for other in (
        Row(hers[1], W2[0], True, ""),
        Row(hers[1], NOTEBOOK_ROW, False, "not a notebook: the file is empty"),
    ):
        assert sorted(learners(hers, [rows[0], other]).values()) == ["06_week6_round_trip_loop.ipynb", "Untitled.ipynb"]


@pytest.mark.parametrize(
    "name",
    [
        "06_week6_round_trip_loop copy.ipynb",  # a Mac's Finder (Duplicate)
        "06_week6_round_trip_loop copy 2.ipynb",
        "06_week6_round_trip_loop Kopie.ipynb",
        "06_week6_round_trip_loop 副本.ipynb",
        "06_week6_round_trip_loop - 副本.ipynb",  # Windows in Chinese
        "06_week6_round_trip_loop - 副本 (2).ipynb",
        "06_week6_round_trip_loop - Kopie.ipynb",
        "06_week6_round_trip_loop - Copy - Copy.ipynb",
        "Copia de 06_week6_round_trip_loop.ipynb",  # Colab in Spanish
        "C\u006f\u0301pia de 06_week6_round_trip_loop.ipynb",  # in Portuguese, unzipped on a Mac: ó decomposed
        "06_week6_round_trip_loop 的副本.ipynb",  # Google Drive in Chinese
        "06_week6_round_trip_loopのコピー.ipynb",
        "Copy of 06_week6_round_trip_loop (1).ipynb",  # several programs' marks
        "06_week6_round_trip_loop-Copy1 (1).ipynb",
    ],
)
def test_a_copy_named_by_a_mac_or_in_another_language_is_its_weeks(name):
    """Before: only Colab's English `Copy of`, Jupyter's `-Copy1`, a download's ` (1)` and English Windows' ` - Copy`
    were read as a copy's marks, once each; a learner's folder holding a copy made by a Mac's Finder (` copy`), a
    Chinese Windows (` - 副本`) or Colab in Spanish was read as several learners' (her helper not copied, her notebooks
    named as learners in the scores). Names that name someone stay a learner's."""
    assert course_copy_week(name) == 6
    week = [f"s/alice/{name}", "s/alice/02_week2_reliable_calls.ipynb"]
    assert set(learners(week).values()) == {"alice"}


@pytest.mark.parametrize(
    "name",
    [
        "alice-06_week6_round_trip_loop.ipynb",
        "06_week6_round_trip_loop - alice.ipynb",
        "06_week6_round_trip_loop alice.ipynb",
        "06_week6_round_trip_loopcopy.ipynb",
        "copy of alice 06_week6_round_trip_loop.ipynb",
    ],
)
def test_a_name_that_names_a_learner_is_no_copys(name):
    assert course_copy_week(name) is None


def test_a_learners_name_with_its_accents_decomposed_is_the_same_learner():
    """Before: `José/` unzipped from a Mac's archive (NFD: `e` and a combining accent) beside `José/` made on Windows
    (NFC) — two folders on Linux, one learner — gave two lines that read the same, each with half her work, sorted
    apart (`Jose` + accent before `Josf`, `José` after `Joss`). Now a learner's name is composed (NFC): one line."""
    decomposed, composed = "Jose\u0301", "Jos\u00e9"
    rows = [
        Row(f"s/{decomposed}/06_week6_round_trip_loop.ipynb", W6[0], True, ""),
        Row(f"s/{composed}/02_week2_reliable_calls.ipynb", W2[0], True, ""),
        Row("s/Joss/02_week2_reliable_calls.ipynb", W2[0], False, ""),
        Row("s/Josf/02_week2_reliable_calls.ipynb", W2[0], False, ""),
    ]
    assert [line[0] for line in week_scores(rows)[1:]] == ["Josf", "Joss", composed]
    assert week_scores(rows)[-1] == [composed, 1, 1, 2, 2]
    alone = [f"s/{decomposed}/06_week6_round_trip_loop.ipynb", f"s/{decomposed}/02_week2_reliable_calls.ipynb"]
    assert set(learners(alone).values()) == {composed}
