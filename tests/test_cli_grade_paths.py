"""`toolkit grade` given paths with nothing to grade: one line, exit status 2, the CSV untouched."""

import os

from toolkit.cli.main import main


def test_a_path_that_does_not_exist_is_refused_before_the_csv_is_touched(tmp_path, capsys):
    """Before: a typo'd folder was graded as one 'no such file' row, exit 0, and the teacher's
    previous grades.csv was overwritten by it."""
    out = tmp_path / "grades.csv"
    out.write_text("last week's grades")
    typo = tmp_path / "submisions"
    assert main(["grade", str(typo), "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"error: grade: no such file or folder: {typo}; nothing was graded and {out} was left as it was\n"
    )
    assert out.read_text() == "last week's grades"


def test_a_folder_with_no_notebook_is_refused(tmp_path, capsys):
    """Before: '0 rows written', exit 0, an empty CSV in place of the old one."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "notes.txt").write_text("no notebooks here")
    out = tmp_path / "grades.csv"
    assert main(["grade", str(tmp_path / "sub"), "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"error: grade: no notebook to grade in {tmp_path / 'sub'} (a folder is searched for *.ipynb); "
        f"nothing was graded and {out} was left as it was\n"
    )
    assert not out.exists()


def test_a_dangling_link_is_still_a_submission_with_its_row(tmp_path, capsys):
    link = tmp_path / "ann.ipynb"
    link.symlink_to(tmp_path / "gone.ipynb")
    out = tmp_path / "grades.csv"
    assert main(["grade", str(link), "--out", str(out)]) == 0
    assert "no such file" in out.read_text()


def _one_submission(tmp_path, monkeypatch):
    """A notebook with one exercise cell, graded without a kernel (its run is given)."""
    import nbformat

    from toolkit.exercises import grade

    monkeypatch.chdir(tmp_path)
    cell = nbformat.v4.new_code_cell("1", metadata={"tags": ["exercise:w6.round_trips"]}, execution_count=1)
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), "learner.ipynb")
    monkeypatch.setattr(grade, "_execute", lambda path, seconds: (nbformat.v4.new_notebook(cells=[cell]), ""))
    return f'learner.ipynb,w6.round_trips,0,"{grade.NO_CHECK}"'  # the text holds a comma: quoted


def test_an_out_of_dash_writes_the_csv_alone_on_stdout(tmp_path, monkeypatch, capsys):
    """Before: `--out -` wrote a file named '-'. Now the CSV goes to stdout alone (`| csvlook` gets
    only CSV), the summary and the count to stderr."""
    row = _one_submission(tmp_path, monkeypatch)
    assert main(["grade", "learner.ipynb", "--out", "-"]) == 0
    out, err = capsys.readouterr()
    assert out == f"notebook,exercise,passed,feedback\r\n{row}\r\n"
    assert err.endswith("\n1 row written to stdout\n") and "learner.ipynb" in err
    assert not (tmp_path / "-").exists()


def test_an_out_that_is_where_stdout_goes_gets_the_csv_alone(tmp_path, monkeypatch, capsys):
    """`toolkit grade … --out grades.csv > grades.csv` (or `--out /dev/stdout > grades.csv`). Before: the
    rows went to a partial file that then replaced grades.csv, and the summary printed after it went
    to the replaced file, lost; written through a pipe, the summary was mixed into the CSV."""
    row = _one_submission(tmp_path, monkeypatch)
    with open(tmp_path / "grades.csv", "w", encoding="utf-8") as stdout:
        monkeypatch.setattr("sys.stdout", stdout)
        assert main(["grade", "learner.ipynb", "--out", "grades.csv"]) == 0
    assert (tmp_path / "grades.csv").read_text(encoding="utf-8") == f"notebook,exercise,passed,feedback\n{row}\n"
    assert capsys.readouterr().err.endswith("\n1 row written to stdout\n")


def test_an_out_of_dev_stdout_into_a_pipe_gets_the_csv_alone(tmp_path):
    """Before: `toolkit grade … --out /dev/stdout | csvlook`: the summary table came after the rows,
    down the same pipe, and the reader got it as more CSV."""
    import csv
    import subprocess
    import sys

    (tmp_path / "broken.ipynb").write_text("not a notebook", encoding="utf-8")  # graded with no kernel
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "grade", "broken.ipynb", "--out", "/dev/stdout"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(done.stdout.splitlines()))
    assert [row[:3] for row in rows] == [["notebook", "exercise", "passed"], ["broken.ipynb", "(notebook)", "0"]]
    assert done.stderr.endswith("\n1 row written to stdout\n")


def test_a_submission_that_is_there_but_no_file_gets_a_row_saying_what_it_is(tmp_path):
    """Before: a FIFO and a link loop in a class's folder were each graded 'no such file', though
    both are there: the teacher looked for a missing upload that was not missing."""
    from toolkit.exercises.grade import grade_notebook

    fifo = tmp_path / "ann.ipynb"
    os.mkfifo(fifo)
    loop = tmp_path / "bob.ipynb"
    loop.symlink_to(loop)
    dangling = tmp_path / "cy.ipynb"
    dangling.symlink_to(tmp_path / "gone.ipynb")
    assert [row.feedback for path in (fifo, loop, dangling) for row in grade_notebook(path)] == [
        "not a regular file (a pipe or a device)",
        "Too many levels of symbolic links",
        "no such file (a link to a missing file)",
    ]
