"""`toolkit grade` given paths with nothing to grade: one line, exit status 2, the CSV untouched."""

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
