"""`toolkit eval --out` and `toolkit grade --out / --scores` replace a CSV an earlier run wrote, never a file
of something else named by mistake or through a link (`toolkit.cli.arguments.held_otherwise`): refused
before anything runs, one line, exit 2, the file as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.cli.arguments import held_otherwise
from toolkit.cli.main import main

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "00_welcome.ipynb"


def test_eval_refuses_an_out_that_links_to_a_file_of_something_else(tmp_path, monkeypatch, capsys):
    """Before: the notes (or /etc/passwd, in a run as root) were replaced by the results CSV."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my precious notes\nsecond line\n")
    (tmp_path / "results.csv").symlink_to(notes)
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--out", "results.csv"]) == 2
    assert capsys.readouterr() == (
        "",
        f"error: eval --out results.csv: it holds something else (the link names {notes}; its first line is "
        "'my precious notes'), not a results CSV an earlier eval wrote, and the CSV would replace it; give another "
        "file, e.g. --out out/w3-tool-accuracy.csv, or move that one away first\n",
    )
    assert notes.read_text() == "my precious notes\nsecond line\n"


def test_eval_refuses_the_course_cases_given_as_its_out(tmp_path, monkeypatch, capsys):
    cases = tmp_path / "cases.csv"
    cases.write_text("id,group,question,expect_tool,expect_order_id\nN01,normal,hi,,\n")
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--out", "cases.csv"]) == 2
    assert capsys.readouterr().err == (
        "error: eval --out cases.csv: it holds something else (its first line is 'id,group,question,expect_tool,"
        "expect_...'), not a results CSV an earlier eval wrote, and the CSV would replace it; give another file, "
        "e.g. --out out/w3-tool-accuracy.csv, or move that one away first\n"
    )
    assert cases.read_text() == "id,group,question,expect_tool,expect_order_id\nN01,normal,hi,,\n"


@pytest.mark.parametrize("option", ["--out", "--scores"])
def test_grade_refuses_an_out_or_scores_of_something_else(tmp_path, capsys, option):
    roster = tmp_path / "roster.csv"
    roster.write_bytes(b"\xef\xbb\xbfname,email\r\nalice,a@x\r\n")
    assert main(["grade", str(NOTEBOOK), option, str(roster)]) == 2
    what, example = ("grades", "grades.csv") if option == "--out" else ("scores", "scores.csv")
    assert capsys.readouterr().err == (
        f"error: grade {option} {roster}: it holds something else (its first line is 'name,email'), not a {what} "
        f"CSV an earlier run wrote, and the CSV would replace it; give another file, e.g. {option} {example}, or "
        "move that one away first\n"
    )
    assert roster.read_bytes() == b"\xef\xbb\xbfname,email\r\nalice,a@x\r\n"


def test_an_earlier_csv_an_empty_file_no_file_and_stdout_may_be_replaced(tmp_path):
    def fits(cells: list[str]) -> bool:
        return cells[:2] == ["notebook", "exercise"]

    earlier, empty = tmp_path / "grades.csv", tmp_path / "empty.csv"
    earlier.write_bytes(b'\xef\xbb\xbfnotebook,exercise,passed,feedback\r\na.ipynb,w1,1,""\r\n')
    empty.touch()
    for path in (earlier, empty, tmp_path / "none.csv", Path("-"), tmp_path):
        assert held_otherwise(path, fits) == ""
    binary = tmp_path / "image.csv"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n")
    assert held_otherwise(binary, fits) == "it holds something else (its first line is '\ufffdPNG')"
