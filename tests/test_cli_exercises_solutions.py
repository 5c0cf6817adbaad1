"""`toolkit exercises --solutions DIR` never writes over the course notebooks it reads."""

import os
import shutil
from pathlib import Path

import pytest
from full_disk import fill_disk_after

from toolkit.cli.main import main

COURSE = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.mark.parametrize("spelling", [".", "./", "../notebooks"])
def test_solutions_into_the_notebooks_folder_itself_are_refused_and_the_starters_kept(
    tmp_path, monkeypatch, capsys, spelling
):
    """Before: `--notebooks . --solutions .` replaced every course notebook's starter code with
    its solution, in place, with exit status 0."""
    notebooks = tmp_path / "notebooks"
    # not out/: the notebooks that pytest --nbval runs meanwhile write and delete files there
    shutil.copytree(COURSE, notebooks, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "out"))
    before = {p.name: p.read_bytes() for p in notebooks.glob("*.ipynb")}
    monkeypatch.chdir(notebooks)
    assert main(["exercises", "--notebooks", ".", "--solutions", spelling]) == 2
    assert capsys.readouterr().err == (
        f"error: exercises --solutions {Path(spelling)}: that is the notebooks folder itself, and the solutions "
        "would overwrite the course notebooks' starter code; give another folder, e.g. --solutions solutions\n"
    )
    assert {p.name: p.read_bytes() for p in notebooks.glob("*.ipynb")} == before


def test_solutions_into_a_file_are_refused_with_one_line_and_the_file_kept(tmp_path, capsys):
    """Before: `error: [Errno 17] File exists: ...`, the OS's words, not what to do."""
    target = tmp_path / "solutions.txt"
    target.write_text("mine")
    assert main(["exercises", "--notebooks", str(COURSE), "--solutions", str(target)]) == 2
    assert capsys.readouterr().err == (
        f"error: exercises --solutions {target}: that is a file, and the solutions are a folder of notebooks; "
        "give a folder (a new one is made), e.g. --solutions solutions\n"
    )
    assert target.read_text() == "mine"


def test_update_reads_a_notebook_saved_with_a_byte_order_mark(tmp_path, capsys):
    """`exercises --update` read a UTF-8 notebook with a byte-order mark (Notepad's) as "not a notebook", as
    `grade` did; both read it now (the file written back has no mark)."""
    name = "06_week6_round_trip_loop.ipynb"
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + (COURSE / name).read_bytes())
    assert main(["exercises", "--update", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: Exercises section of week 6 written\n"
    assert not path.read_bytes().startswith(b"\xef\xbb\xbf")


def test_update_on_a_disk_that_fills_part_way_leaves_the_learners_notebook_whole(tmp_path, monkeypatch, capsys):
    """Before: `exercises --update` rewrote the notebook in place, so a full disk (or a kill) part way
    left the learner's notebook truncated, no longer JSON; now it is replaced whole or not at all."""
    name = "06_week6_round_trip_loop.ipynb"
    path = tmp_path / name
    shutil.copy(COURSE / name, path)
    before = path.read_bytes()
    fill_disk_after(monkeypatch, 1000)
    assert main(["exercises", "--update", str(path)]) == 2
    monkeypatch.undo()
    assert capsys.readouterr().err == f"error: [Errno 28] No space left on device: '{path}'\n"
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == [name]


def test_solutions_on_a_disk_that_fills_part_way_leave_an_earlier_solution_whole(tmp_path, monkeypatch):
    """Before: a full disk part way through `--solutions DIR` left the earlier solution notebook there
    truncated; now each is replaced whole or not at all."""
    target = tmp_path / "solutions"
    target.mkdir()
    earlier = target / "00_welcome.ipynb"
    shutil.copy(COURSE / "00_welcome.ipynb", earlier)
    before = earlier.read_bytes()
    fill_disk_after(monkeypatch, 1000)
    assert main(["exercises", "--notebooks", str(COURSE), "--solutions", str(target)]) != 0
    monkeypatch.undo()
    assert earlier.read_bytes() == before


def test_solutions_into_a_folder_that_cannot_be_made_are_one_line_saying_why(tmp_path, capsys):
    """Before: `error: [Errno 17] File exists: '…/loop'` for a link loop (nothing exists there to
    write into) and `error: [Errno 2] No such file or directory: '/proc/solutions'`: the OS's words,
    no hint."""
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for target, why in [
        (loop, "Too many levels of symbolic links"),
        (Path("/proc/solutions"), "No such file or directory"),
    ]:
        assert main(["exercises", "--notebooks", str(COURSE), "--solutions", str(target)]) == 2
        assert capsys.readouterr() == (
            "",
            f"error: exercises --solutions {target}: cannot make that folder ({why}); give a folder you may "
            "write, e.g. --solutions solutions\n",
        )


def test_update_of_a_path_that_is_there_but_no_notebook_file_says_what_it_is(tmp_path, capsys):
    """Before: 'no such notebook: …' for a folder and a FIFO named like a course notebook."""
    folder = tmp_path / "01_tools.ipynb"
    folder.mkdir()
    fifo = tmp_path / "02_loop.ipynb"
    os.mkfifo(fifo)
    for path, problem in [(folder, "a folder"), (fifo, "not a regular file (a pipe or a device)")]:
        assert main(["exercises", "--update", str(path)]) == 2
        assert capsys.readouterr() == ("", f"error: cannot read {path}: {problem}; give an .ipynb file\n")
    assert main(["exercises", "--update", str(tmp_path / "03_gone.ipynb")]) == 2
    assert capsys.readouterr().err == f"error: no such notebook: {tmp_path / '03_gone.ipynb'}\n"


def test_update_given_twice_updates_the_notebooks_of_both(tmp_path, capsys):
    """`--update 01.ipynb --update 02.ipynb` (as `--mcp-stdio` and `--fault` are repeated): argparse kept the
    last option's notebooks alone, and 01 was left as it was without a word. Now both are updated."""
    names = ["01_week1_first_call.ipynb", "02_week2_reliable_calls.ipynb"]
    paths = [tmp_path / name for name in names]
    for name, path in zip(names, paths, strict=True):
        shutil.copy(COURSE / name, path)
    assert main(["exercises", "--update", str(paths[0]), "--update", str(paths[1])]) == 0
    assert capsys.readouterr().out == (
        f"{paths[0]}: Exercises section of week 1 written\n{paths[1]}: Exercises section of week 2 written\n"
    )
