"""`toolkit grade` given paths with nothing to grade: one line, exit status 2, the CSV untouched."""

import os

import pytest

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


def test_a_path_the_system_refuses_to_look_at_is_one_line_with_a_hint(tmp_path):
    """Before: a name past the system's limit was the raw OSError on 3.11 and 3.12 ("[Errno 36] File name too
    long: '…'", no hint) and "no such file or folder" on 3.13 (whose `Path.exists` answers False)."""
    from toolkit.cli.grade import _check_paths
    from toolkit.errors import ConfigurationError

    out = tmp_path / "grades.csv"
    long = tmp_path / ("x" * 300 + ".ipynb")
    with pytest.raises(ConfigurationError) as info:
        _check_paths([long, tmp_path], out)
    assert str(info.value) == (
        f"grade: cannot look at {long} (File name too long); give a path the system can open (each name at most "
        f"255 bytes); nothing was graded and {out} was left as it was"
    )


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
        "not a regular file (a pipe or a device); hand in the notebook as a file",
        "a link loop (Too many levels of symbolic links): the link leads back to itself; replace it by the "
        "notebook it should name",
        "no such file (a link to a missing file); replace the link by the notebook it should name",
    ]


def test_a_submission_that_cannot_be_opened_says_why_and_what_to_do(tmp_path):
    """A link loop was one line without a hint ("Too many levels of symbolic links"); so were a missing
    file and a name the system refuses. Each row now says what to do."""
    from toolkit.exercises.grade import grade_notebook

    long = tmp_path / ("x" * 300 + ".ipynb")
    assert [row.feedback for path in (tmp_path / "gone.ipynb", long) for row in grade_notebook(path)] == [
        "no such file; check the name, or that the upload finished",
        "cannot be opened (File name too long); copy it to a readable file and grade that",
    ]


def test_memory_is_given_in_the_units_a_teacher_writes():
    """`--memory SIZE`: binary units (1G = 1024M), any case, an optional B or iB, a fraction, or plain bytes."""
    from toolkit.cli.grade import memory_size

    G, M = 1024**3, 1024**2
    assert [memory_size(t) for t in ("2G", "512M", "1.5g", "4GiB", " 8gb ", "1T", "268435456", "262144K")] == [
        2 * G,
        512 * M,
        3 * G // 2,
        4 * G,
        8 * G,
        1024 * G,
        256 * M,
        256 * M,
    ]


@pytest.mark.parametrize("text", ["2X", "", "G", "100M", "-1G", "1e9", "nan", "2 G B", "99999999T", "２G"])
def test_a_memory_size_that_is_none_is_one_line_naming_the_option_and_the_forms(text, capsys):
    """Before: there was no `--memory`; the limit was the module constant `grade.MEMORY_LIMIT_BYTES`. A size that
    is none, or under what a kernel needs to start (every notebook would read "could not be executed"), or past what
    the system's limit holds, is refused before anything runs."""
    with pytest.raises(SystemExit) as info:
        main(["grade", f"--memory={text}", "x.ipynb"], prog="toolkit")
    assert info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"toolkit grade: error: argument --memory: {text!r} is not a memory size: use a number of bytes with K, M, "
        "G or T (binary: 1G = 1024M), e.g. 2G or 512M, from 256M (what a kernel needs to start)"
    )


def test_the_memory_given_is_the_one_each_submission_runs_with_and_only_for_that_run(tmp_path, monkeypatch):
    """The worker is started with `--memory`'s bytes (the limit it sets for itself and the kernel); without it, with
    the default the help names; after the run the module's default is as it was."""
    import nbformat

    import toolkit.exercises.grade as grade

    seen = []
    monkeypatch.setattr(grade, "_run_worker", lambda command, *_, **__: seen.append(int(command[-1])))
    path = tmp_path / "a.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]), path)
    for memory in (["--memory", "512M"], []):
        assert main(["grade", str(path), "--out", str(tmp_path / "grades.csv"), *memory]) == 0
    assert seen == [512 * 1024**2, 4 * 1024**3] and grade.MEMORY_LIMIT_BYTES == 4 * 1024**3
