"""`toolkit grade … --update`: one learner regraded into the class's grades CSV, every other row kept as it was."""

import csv
import fcntl
import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from toolkit.cli.main import main
from toolkit.errors import ConfigurationError
from toolkit.exercises import grade
from toolkit.exercises.csv_lock import locked
from toolkit.exercises.grade import HEADER, Row, write_csv
from toolkit.exercises.regrade import as_rows, merged, read_grades, update_grades, write_grades

W6 = "06_week6_round_trip_loop.ipynb"
CLASS = [
    Row(f"sub/alice/{W6}", "w6.a", False, "failed: old"),
    Row("sub/alice/old name.ipynb", "w6.a", False, "failed"),
    Row(f"sub/bob/{W6}", "w6.a", True, "passed"),
    Row("=sum(1).ipynb", "w6.a", True, "passed"),
]


def table(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def test_the_learners_rows_replace_hers_where_they_stood_and_the_rest_is_kept(tmp_path, monkeypatch):
    write_csv(CLASS, tmp_path / "grades.csv")
    kept = read_grades(tmp_path / "grades.csv")
    new = [Row(f"sub/alice/{W6}", "w6.a", True, "passed")]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub" / "alice").mkdir(parents=True)
    # her folder graded again: her renamed notebook's rows go too; the same file named absolutely is hers
    for graded in ([Path(f"sub/alice/{W6}")], [tmp_path / "sub" / "alice" / W6]):
        new = [Row(str(graded[0]), "w6.a", True, "passed")]  # named as the CSV names it, however it was given
        assert merged(kept, new, graded, [Path("sub/alice")]) == [
            [f"sub/alice/{W6}", "w6.a", "1", "passed"],
            [f"sub/bob/{W6}", "w6.a", "1", "passed"],
            ["'=sum(1).ipynb", "w6.a", "1", "passed"],  # kept as its text was
        ]
    # a learner graded for the first time comes in the class's order of names (after bob, before a zed);
    # a notebook named like a formula is matched as written
    carol = [Row("sub/carol/x.ipynb", "w6.a", False, "failed")]
    got = merged([*kept[:3], ["sub/zed/x.ipynb", "w6.a", "1", ""]], carol, [Path("sub/carol/x.ipynb")], [])
    assert [line[0] for line in got][2:] == [f"sub/bob/{W6}", "sub/carol/x.ipynb", "sub/zed/x.ipynb"]
    assert merged([], carol, [], [])[-1] == ["sub/carol/x.ipynb", "w6.a", "0", "failed"]
    absolute = [Row(str(tmp_path / "sub/carol/x.ipynb"), "w6.a", False, "failed")]  # given by its absolute path
    got = merged([*kept[:3], ["sub/zed/x.ipynb", "w6.a", "1", ""]], absolute, [tmp_path / "sub/carol/x.ipynb"], [])
    assert [line[0] for line in got][2:] == [f"sub/bob/{W6}", str(tmp_path / "sub/carol/x.ipynb"), "sub/zed/x.ipynb"]
    assert len(merged(kept, [], [Path("=sum(1).ipynb")], [])) == 3
    # "sub/alice2" is not inside "sub/alice"
    assert merged([["sub/alice2/x.ipynb", "w6.a", "1", ""]], [], [], [Path("sub/alice")]) == [
        ["sub/alice2/x.ipynb", "w6.a", "1", ""]
    ]
    assert as_rows([["a.ipynb", "w6.a", "1"], []]) == [Row("a.ipynb", "w6.a", True, "")]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (None, "there is no such file"),
        (b"learner,w6,total,graded\r\n", "its first line is not notebook,exercise,passed,feedback"),
        (
            b"notebook,exercise,passed,feedback\r\n\xd6\xd0,w6.a,1,\r\n",
            "it is not UTF-8 text (saved again in another encoding?)",
        ),
    ],
)
def test_a_csv_to_update_that_grade_did_not_write_is_refused_before_grading(tmp_path, content, why):
    out = tmp_path / "grades.csv"
    if content is not None:
        out.write_bytes(content)
    with pytest.raises(ConfigurationError) as raised:
        read_grades(out)
    assert str(raised.value) == (
        f"grade --update {out}: {why}; --update merges the rows graded now into the CSV an earlier `toolkit grade` "
        "wrote — grade the class without --update first, or give that CSV with --out"
    )


def test_grade_update_merges_and_scores_the_whole_class(tmp_path, monkeypatch, capsys):
    """Before: there was no way to regrade one learner into the class's CSV (`--out grades.csv` kept her rows alone),
    and `--scores` of her folder named each notebook a learner. `--update` replaces her rows in place and scores
    every row of the CSV."""
    monkeypatch.chdir(tmp_path)
    for who in ("alice", "bob"):
        (tmp_path / "sub" / who).mkdir(parents=True)
        (tmp_path / "sub" / who / W6).write_text("{}")
    write_csv(CLASS[:1] + CLASS[2:3], tmp_path / "grades.csv")
    monkeypatch.setattr(grade, "grade_notebook", lambda path, seconds: [Row(str(path), "w6.a", True, "passed")])
    assert main(["grade", "sub/alice", "--update", "--scores", "scores.csv"]) == 0
    assert table(tmp_path / "grades.csv") == [
        HEADER,
        [f"sub/alice/{W6}", "w6.a", "1", "passed"],
        [f"sub/bob/{W6}", "w6.a", "1", "passed"],
    ]
    assert table(tmp_path / "scores.csv") == [
        ["learner", "w6", "total", "graded"],
        ["alice", "1", "1", "1"],
        ["bob", "1", "1", "1"],
    ]
    assert "1 row written to grades.csv, with 1 row of other notebooks kept\n" in capsys.readouterr().out

    # Ctrl-C after alice: her new rows merged, bob's (not reached) kept as they were, as a stop without --update
    write_csv(CLASS[:1] + CLASS[2:3], tmp_path / "grades.csv")

    def stopped(path, seconds):
        if "bob" in str(path):
            raise KeyboardInterrupt
        return [Row(str(path), "w6.a", True, "passed again")]

    monkeypatch.setattr(grade, "grade_notebook", stopped)
    assert main(["grade", "sub", "--update"]) == 130
    assert capsys.readouterr().err.endswith("stopped (Ctrl-C) after 1 of 2 notebooks: its 1 row is in grades.csv\n")
    assert table(tmp_path / "grades.csv")[1:] == [
        [f"sub/alice/{W6}", "w6.a", "1", "passed again"],
        [f"sub/bob/{W6}", "w6.a", "1", "passed"],
    ]
    assert main(["grade", "sub/alice", "--update", "--out", "-"]) == 2
    assert capsys.readouterr().err == (
        "error: grade --update --out -: the CSV to update is standard output, which holds no earlier rows; give the "
        "grades CSV to merge into, e.g. --out grades.csv\n"
    )


def test_a_csv_with_a_field_over_the_csv_modules_limit_is_read_whole(tmp_path):
    """A learner's cell tagged `exercise:` and 200,000 characters gives a row whose exercise is that long (grade
    writes it): reading the class's CSV back stopped at csv's 128 KiB field limit, so no learner could be regraded
    into it. It is read whole, and the limit is as it was after."""
    long_id = "w6." + "x" * 200_000
    write_csv([Row("sub/a.ipynb", long_id, False, "not run")], tmp_path / "grades.csv")
    limit = csv.field_size_limit()
    assert read_grades(tmp_path / "grades.csv") == [["sub/a.ipynb", long_id, "0", "not run"]]
    assert csv.field_size_limit() == limit


class Interrupting:
    """A cell whose text Ctrl-C stops half-way through the write."""

    def __str__(self) -> str:
        raise KeyboardInterrupt


def test_a_stop_while_the_merged_csv_is_written_leaves_the_class_csv_as_it_was(tmp_path):
    """A second Ctrl-C while `--update` wrote the merged CSV would have replaced the class's CSV with the rows
    written so far (`grade`'s own CSV keeps them on a stop); the merged CSV replaces it only once written whole."""
    write_csv(CLASS, tmp_path / "grades.csv")
    before = (tmp_path / "grades.csv").read_bytes()
    with pytest.raises(KeyboardInterrupt):
        write_grades([["a.ipynb", "w6.a", "1", ""], ["b.ipynb", "w6.a", Interrupting(), ""]], tmp_path / "grades.csv")
    assert (tmp_path / "grades.csv").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv"]
    write_grades([["a.ipynb", "w6.a", "1", ""]], tmp_path / "grades.csv")
    assert table(tmp_path / "grades.csv") == [HEADER, ["a.ipynb", "w6.a", "1", ""]]


BOB_REGRADED_ELSEWHERE = """
import sys
from toolkit.cli.main import main
from toolkit.exercises import grade
from toolkit.exercises.grade import Row

grade.grade_notebook = lambda path, seconds: [Row(str(path), "w6.a", True, "bob again")]
sys.exit(main(["grade", "sub/bob", "--update"]))
"""


def test_two_updates_of_one_csv_at_once_keep_both_learners_rows(tmp_path, monkeypatch, capsys):
    """Before: `--update` merged into the CSV as read when its grading began, so bob regraded by another run while
    alice's grading went on lost his new rows when alice's run wrote (he was told they were written). Each run now
    merges into the CSV as it is when its grading ends, holding the file from that read to its write."""
    monkeypatch.chdir(tmp_path)
    for who in ("alice", "bob"):
        (tmp_path / "sub" / who).mkdir(parents=True)
        (tmp_path / "sub" / who / W6).write_text("{}")
    write_csv([Row(f"sub/alice/{W6}", "w6.a", False, "old"), Row(f"sub/bob/{W6}", "w6.a", False, "old")], "grades.csv")
    bob = []

    def alice_while_bob_is_regraded(path, seconds):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        bob.append(subprocess.run([sys.executable, "-c", BOB_REGRADED_ELSEWHERE], env=env, capture_output=True))
        return [Row(str(path), "w6.a", True, "alice again")]

    monkeypatch.setattr(grade, "grade_notebook", alice_while_bob_is_regraded)
    assert main(["grade", "sub/alice", "--update"]) == 0
    assert bob[0].returncode == 0, bob[0].stderr
    assert "1 row written to grades.csv, with 1 row of other notebooks kept\n" in capsys.readouterr().out
    assert table(tmp_path / "grades.csv") == [
        HEADER,
        [f"sub/alice/{W6}", "w6.a", "1", "alice again"],
        [f"sub/bob/{W6}", "w6.a", "1", "bob again"],
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", "sub"]


def test_an_update_waits_for_the_run_holding_the_csv_and_merges_into_what_it_wrote(tmp_path, monkeypatch):
    """The file is held from the read to the write: an update that comes while another run holds it waits, then
    reads what that run wrote (a new file at the path, put there by `os.replace`), not the file it first opened."""
    out = tmp_path / "grades.csv"
    write_csv([Row("a.ipynb", "w6.a", False, "old")], out)
    waiting = threading.Event()
    real_flock = fcntl.flock

    def noting_flock(fd, operation):
        if threading.current_thread() is not threading.main_thread():
            waiting.set()
        return real_flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", noting_flock)
    done = []
    b = [Row("b.ipynb", "w6.a", True, "b again")]
    updater = threading.Thread(target=lambda: done.append(update_grades(out, [], b, [Path("b.ipynb")], [])))
    with locked(out):
        updater.start()
        assert waiting.wait(60)
        write_grades([["a.ipynb", "w6.a", "1", "a again"], ["c.ipynb", "w6.a", "0", "new"]], out)
        assert not done
    updater.join(60)
    assert table(out) == [
        HEADER,
        ["a.ipynb", "w6.a", "1", "a again"],
        ["b.ipynb", "w6.a", "1", "b again"],
        ["c.ipynb", "w6.a", "0", "new"],
    ]


def test_an_update_whose_csv_went_away_while_grading_still_writes_the_rows_graded(tmp_path):
    out = tmp_path / "grades.csv"
    write_csv([Row("a.ipynb", "w6.a", False, "old")], out)
    kept = read_grades(out)
    out.unlink()
    update_grades(out, kept, [Row("b.ipynb", "w6.a", True, "b")], [Path("b.ipynb")], [])
    assert table(out) == [HEADER, ["a.ipynb", "w6.a", "0", "old"], ["b.ipynb", "w6.a", "1", "b"]]


def test_an_update_leaves_the_partial_file_a_whole_grading_run_is_writing_alone(tmp_path):
    """Before: `--update` wrote the merged CSV through `grades.csv.partial`, the file a whole `toolkit grade --out
    grades.csv` run writes its rows to as it grades, removing it first: that run's rows (hours of grading) went with
    it, and its end was a FileNotFoundError. The update now writes through a partial file of its own."""
    out = tmp_path / "grades.csv"
    write_csv([Row("a.ipynb", "w6.a", False, "old")], out)
    running = grade.partial_path(out)
    running.write_text("notebook,exercise,passed,feedback\\r\\nsub/z.ipynb,w6.a,1,\\r\\n", encoding="utf-8")
    update_grades(out, read_grades(out), [Row("b.ipynb", "w6.a", True, "b")], [Path("b.ipynb")], [])
    assert running.read_text(encoding="utf-8") == "notebook,exercise,passed,feedback\\r\\nsub/z.ipynb,w6.a,1,\\r\\n"
    assert table(out) == [HEADER, ["a.ipynb", "w6.a", "0", "old"], ["b.ipynb", "w6.a", "1", "b"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", "grades.csv.partial"]


def test_an_update_ending_while_a_whole_run_writes_the_csv_is_merged_into_that_runs_rows(tmp_path, monkeypatch):
    """Before: a whole `toolkit grade --out grades.csv` run held only its partial file, so an update of bob ending
    while it graded wrote the CSV at once and was then overwritten by the run's rename (bob was told his rows were
    written). The whole run now holds the CSV from its start to its rename: the update waits, then merges into the
    rows that run wrote."""
    out = tmp_path / "grades.csv"
    write_csv([Row("a.ipynb", "w6.a", False, "old"), Row("b.ipynb", "w6.a", False, "old")], out)
    kept = read_grades(out)
    waiting = threading.Event()
    b = [Row("b.ipynb", "w6.a", True, "b updated")]
    updater = threading.Thread(target=update_grades, args=(out, kept, b, [Path("b.ipynb")], [], waiting.set))

    def whole_class(notebooks, seconds):
        yield [Row("a.ipynb", "w6.a", True, "a whole")]
        updater.start()
        while updater.is_alive() and not waiting.wait(0.05):
            pass
        yield [Row("b.ipynb", "w6.a", False, "b whole")]

    monkeypatch.setattr(grade, "grade_each", whole_class)
    grade.grade_into_csv([Path("a.ipynb"), Path("b.ipynb")], out, 1, [])
    updater.join(60)
    assert waiting.is_set()
    assert table(out) == [HEADER, ["a.ipynb", "w6.a", "1", "a whole"], ["b.ipynb", "w6.a", "1", "b updated"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv"]


BOB_UPDATED_WHILE_THE_CLASS_IS_GRADED = """
import sys
from toolkit.cli.main import main
from toolkit.exercises import grade
from toolkit.exercises.grade import Row

grade.grade_notebook = lambda path, seconds: [Row(str(path), "w6.a", True, "bob updated")]
sys.exit(main(["grade", "sub/bob", "--update"]))
"""


def test_grade_update_says_it_waits_for_the_class_run_and_keeps_its_rows(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for who in ("alice", "bob"):
        (tmp_path / "sub" / who).mkdir(parents=True)
        (tmp_path / "sub" / who / W6).write_text("{}")
    write_csv([Row(f"sub/alice/{W6}", "w6.a", False, "old"), Row(f"sub/bob/{W6}", "w6.a", False, "old")], "grades.csv")
    said = []

    def class_run(path, seconds):
        if "alice" in str(path):
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
            command = [sys.executable, "-c", BOB_UPDATED_WHILE_THE_CLASS_IS_GRADED]
            said.append(subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
            said.append(said[0].stderr.readline())  # the line it says before it waits ("" if it did not wait)
        return [Row(str(path), "w6.a", False, "class run")]

    monkeypatch.setattr(grade, "grade_notebook", class_run)
    assert main(["grade", "sub", "--out", "grades.csv"]) == 0
    out, err = said[0].communicate(timeout=120)
    assert said[0].returncode == 0, err
    assert said[1] == (
        "grades.csv: another `toolkit grade` run is writing this CSV now; waiting for it to end, then the 1 row graded "
        "here are merged into the rows it wrote (Ctrl-C: they are not, and the CSV is left as that run writes it)\n"
    )
    assert "1 row written to grades.csv, with 1 row of other notebooks kept\n" in out
    assert table(tmp_path / "grades.csv") == [
        HEADER,
        [f"sub/alice/{W6}", "w6.a", "0", "class run"],
        [f"sub/bob/{W6}", "w6.a", "1", "bob updated"],
    ]


def test_a_learner_whose_name_a_mac_decomposed_is_one_learner_on_an_update(tmp_path, monkeypatch):
    """Before: `regrade._key` compared paths as their code points, so the class's rows of `sub/José/…` unzipped from
    a Mac's archive (`e` and a combining accent) were not replaced by her regrade typed `sub/José` (one `é`): she had
    two sets of rows, the old failures beside the new passes. Paths are compared with their accents composed (NFC),
    and the CSV keeps its name for her."""
    monkeypatch.chdir(tmp_path)
    decomposed, composed = "sub/Jose\u0301", "sub/Jos\u00e9"
    kept = [[f"{decomposed}/{W6}", "w6.a", "0", "old"], [f"sub/bob/{W6}", "w6.a", "1", "passed"]]
    for named, given in ((decomposed, composed), (composed, decomposed)):
        kept[0][0] = f"{named}/{W6}"
        new = [Row(f"{given}/{W6}", "w6.a", True, "new")]
        expected = [[f"{named}/{W6}", "w6.a", "1", "new"], [f"sub/bob/{W6}", "w6.a", "1", "passed"]]
        assert merged(kept, new, [Path(f"{given}/{W6}")], []) == expected
        assert merged(kept, new, [Path(f"{given}/{W6}")], [Path(given)]) == expected  # her folder graded again
