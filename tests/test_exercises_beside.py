"""`toolkit grade` runs a notebook with the files its learner handed in beside it (`toolkit.exercises.beside`).

Before: each notebook ran on a copy of itself alone, so a learner whose exercise cell imported a module of theirs
(`from helper import N`) saw ✓ in the notebook and got "the cell raised ModuleNotFoundError: No module named
'helper'" from `toolkit grade`: another score for the same work.
"""

import os
from pathlib import Path

import nbformat
from test_exercises_grade import write

from toolkit.exercises import beside
from toolkit.exercises.beside import copy_beside, files_beside, not_copied_note, own_folder, scratch_notebook
from toolkit.exercises.grade import grade_paths, week_scores


def note(name: str) -> str:
    return (
        f" — {name} is beside the notebook but was not graded with it (nothing of a folder that holds other "
        "learners' notebooks is, nor more than 200 files or 32 MiB): put that code in the notebook, or hand in each "
        "learner's files in a folder of their own"
    )


WEEK6 = "06_week6_round_trip_loop.ipynb"
IMPORTS_HELPER = "from toolkit.exercises import check\nfrom helper import N\ncheck('w6.round_trips', N)"


def helper_notebook(folder: Path, name: str = WEEK6) -> Path:
    (folder / "helper.py").parent.mkdir(parents=True, exist_ok=True)
    (folder / "helper.py").write_text("N = 2\n")
    cell = nbformat.v4.new_code_cell(IMPORTS_HELPER, metadata={"tags": ["exercise:w6.round_trips"]})
    return write(folder, name, [cell])


def touch(path: Path, text: str = "x") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_module_in_the_learners_own_folder_is_there_when_graded_as_in_the_notebook(tmp_path):
    helper_notebook(tmp_path / "class" / "alice")
    helper_notebook(tmp_path / "class" / "bob", "Copy of " + WEEK6)
    rows = [r for r in grade_paths(tmp_path / "class", seconds=30) if r.exercise == "w6.round_trips"]
    assert [(Path(r.notebook).parent.name, r.exercise, r.passed) for r in rows] == [
        ("alice", "w6.round_trips", True),
        ("bob", "w6.round_trips", True),
    ], [r.feedback for r in rows]
    assert sorted(p.name for p in (tmp_path / "class" / "alice").iterdir()) == [WEEK6, "helper.py"]


def test_a_folder_of_several_learners_notebooks_copies_none_of_its_files(tmp_path):
    """`alice.ipynb` beside `bob.ipynb`: a file beside them may be either's, so neither sees it (as before). (A
    notebook in which grade finds no exercise is no one's submission: `test_a_learners_scratch_notebooks_…`.)"""
    helper_notebook(tmp_path, "alice.ipynb")
    write(tmp_path, "bob.ipynb", [nbformat.v4.new_code_cell("check('w6.round_trips', 1)")])
    for graded in (tmp_path, tmp_path / "alice.ipynb"):  # the class, or alice regraded alone: the same row
        [alice] = [r for r in grade_paths(graded, seconds=30) if r.notebook.endswith("alice.ipynb")]
        assert (alice.passed, alice.feedback) == (
            False,
            "the cell raised ModuleNotFoundError: No module named 'helper'" + note("helper.py"),
        )


def test_own_folder_is_course_notebooks_one_a_week_or_one_notebook_as_the_folder_is_on_disk(tmp_path):
    def folder(*names: str) -> Path:
        made = tmp_path / str(len(list(tmp_path.iterdir())))
        for name in names:
            touch(made / name)
        return made

    assert own_folder(folder(WEEK6, "07_week7_compensation.ipynb", "helper.py", "sub/x.ipynb"))
    assert own_folder(folder("alice.ipynb", "helper.py"))
    assert own_folder(folder(WEEK6, "._" + WEEK6))  # a Mac's metadata beside it is no notebook
    assert not own_folder(folder(WEEK6, "Copy of " + WEEK6))  # one week twice: two learners' downloads
    assert not own_folder(folder(WEEK6, "alice.ipynb"))
    assert not own_folder(folder("a.ipynb", "B.IPYNB"))
    assert not own_folder(tmp_path / "nowhere")


def test_files_beside_leave_out_notebooks_links_hidden_names_notebook_folders_and_toolkit(tmp_path):
    notebook = touch(tmp_path / WEEK6)
    for name in ["helper.py", "data/answers.json", "lib/__init__.py", "lib/util.py", "README", "toolkit.json"]:
        touch(tmp_path / name)
    for name in [
        "07_week7_compensation.ipynb",
        ".venv/lib/x.py",
        ".hidden",
        "__pycache__/helper.cpython-311.pyc",
        "__MACOSX/._helper.py",
        "toolkit.py",
        "toolkit/__init__.py",
        "toolkit.pyc",
        "toolkit.abi3.so",
        "lib/__pycache__/util.pyc",
        "week7/07_week7_compensation.ipynb",
        "week7/helper7.py",
        "deep/er/notes.IPYNB",
        "deep/helper_deep.py",
    ]:
        touch(tmp_path / name)
    os.symlink("/etc/hostname", tmp_path / "linked.txt")
    os.symlink(tmp_path / "data", tmp_path / "linked_folder")
    assert files_beside(notebook) == [
        Path("README"),
        Path("data/answers.json"),
        Path("helper.py"),
        Path("lib/__init__.py"),
        Path("lib/util.py"),
        Path("toolkit.json"),  # a learner's data file read by its name: only what Python imports as toolkit is left out
    ]


def test_files_beside_stop_at_the_caps_in_path_order(tmp_path, monkeypatch):
    notebook = touch(tmp_path / WEEK6)
    for name, size in [("a.bin", 6), ("b.bin", 6), ("c.bin", 3), ("d.bin", 1), ("e.bin", 1)]:
        touch(tmp_path / name, "x" * size)
    monkeypatch.setattr(beside, "BESIDE_BYTES", 10)
    assert files_beside(notebook) == [Path("a.bin"), Path("c.bin"), Path("d.bin")]
    monkeypatch.setattr(beside, "BESIDE_FILES", 2)
    assert files_beside(notebook) == [Path("a.bin"), Path("c.bin")]
    monkeypatch.setattr(beside, "BESIDE_VISITS", 5)  # the notebook and five files: one entry too many
    assert files_beside(notebook) == []


def test_copy_beside_copies_into_folders_and_skips_what_is_gone_or_now_a_link(tmp_path):
    source, work = tmp_path / "src", tmp_path / "work"
    touch(source / "lib" / "util.py", "U = 1")
    touch(source / "helper.py", "N = 2")
    touch(tmp_path / "secret.txt", "not theirs")
    work.mkdir()
    relative = [Path("gone.py"), Path("helper.py"), Path("lib/util.py"), Path("swapped.txt")]
    os.symlink(tmp_path / "secret.txt", source / "swapped.txt")  # a link put where a file was listed
    copy_beside(relative, source, work)
    assert sorted(str(p.relative_to(work)) for p in work.rglob("*")) == ["helper.py", "lib", "lib/util.py"]
    assert (work / "lib" / "util.py").read_text() == "U = 1"


def test_a_row_says_when_its_cell_failed_for_a_file_beside_the_notebook_that_was_not_copied(tmp_path):
    notebook = touch(tmp_path / "alice.ipynb")
    touch(tmp_path / "lib" / "__init__.py")
    touch(tmp_path / "data" / "answers.json")
    touch(tmp_path / "helper.py")
    module = "the cell raised ModuleNotFoundError: No module named 'lib.util'"
    assert not_copied_note(module, notebook, []) == note("lib")
    inside = "failed: your code raised FileNotFoundError: [Errno 2] No such file or directory: 'data/answers.json'"
    assert not_copied_note(inside, notebook, []) == note("data/answers.json")
    assert not_copied_note("the cell raised ModuleNotFoundError: No module named 'helper'", notebook, []) != ""
    # copied, not there, outside the folder, or another error: nothing to add
    assert (
        not_copied_note("the cell raised ModuleNotFoundError: No module named 'helper'", notebook, [Path("helper.py")])
        == ""
    )
    assert not_copied_note("the cell raised ModuleNotFoundError: No module named 'nowhere'", notebook, []) == ""
    outside = "the cell raised FileNotFoundError: [Errno 2] No such file or directory: '../alice.ipynb'"
    assert not_copied_note(outside, notebook, []) == ""
    assert not_copied_note("the cell raised NameError: name 'helper' is not defined", notebook, []) == ""


def test_a_learners_scratch_notebooks_do_not_make_her_folder_a_classs(tmp_path):
    """Before: `alice/` holding `06_….ipynb`, `helper.py` and a scratch notebook of hers (`Untitled.ipynb`, which
    JupyterLab, VS Code or Colab names a new notebook; `notes.ipynb`) was read as several learners' folder: her helper
    was not copied and the exercise that passed in her notebook was graded "No module named 'helper'" (the row saying
    "a folder that holds other learners' notebooks"), and `grade alice --scores` named two learners, one per file.
    Now a notebook in which `grade` finds no exercise ("no exercises found") is no one's submission."""
    for name in ("Untitled.ipynb", "notes.ipynb"):
        write(tmp_path / "class" / "alice", name, [nbformat.v4.new_code_cell("x = 1")])
    write(tmp_path / "class" / "alice", "Untitled1.ipynb", [])
    helper_notebook(tmp_path / "class" / "alice")
    helper_notebook(tmp_path / "class" / "bob")
    for graded in (tmp_path / "class", tmp_path / "class" / "alice"):  # the class, or alice alone
        rows = grade_paths(graded, seconds=30)
        done = [(Path(r.notebook).parent.name, r.passed) for r in rows if r.exercise == "w6.round_trips"]
        assert done == ([("alice", True), ("bob", True)] if graded.name == "class" else [("alice", True)]), rows
        assert [line[0] for line in week_scores(rows)[1:]] == (
            ["alice", "bob"] if graded.name == "class" else ["alice"]
        )


def test_own_folder_leaves_out_scratch_notebooks_but_not_another_learners_or_an_unreadable_one(tmp_path):
    def folder(**notebooks: list[str]) -> Path:
        made = tmp_path / str(len(list(tmp_path.iterdir())))
        for name, sources in notebooks.items():
            if sources == ["unreadable"]:
                touch(made / f"{name}.ipynb", "{not json")
            else:
                write(made, f"{name}.ipynb", [nbformat.v4.new_code_cell(s) for s in sources])
        return made

    week6 = WEEK6.removesuffix(".ipynb")
    assert own_folder(folder(**{week6: [IMPORTS_HELPER], "Untitled": ["x = 1"], "Untitled-1": []}))
    assert own_folder(folder(alice=[IMPORTS_HELPER], Untitled=["print(1)"]))  # one submission and her scratch
    assert not own_folder(folder(**{week6: [IMPORTS_HELPER], "bob": ["check('w6.window', keep)"]}))
    assert not own_folder(folder(**{week6: [IMPORTS_HELPER], "bob": ["unreadable"]}))
    assert not own_folder(folder(alice=[IMPORTS_HELPER], bob=[IMPORTS_HELPER], Untitled=["x"]))
    assert not own_folder(folder(**{week6: [], f"{week6} (1)": [], "Untitled": []}))  # one week twice
    assert scratch_notebook(folder(Untitled=["x = 1"]) / "Untitled.ipynb")
    assert not scratch_notebook(folder(**{"alice-" + week6: ["x = 1"]}) / f"alice-{week6}.ipynb")  # names week 6


def test_a_folder_below_with_only_a_scratch_notebook_is_copied_one_with_a_submission_is_not(tmp_path):
    """Before: `alice/lib/` (her package: `from lib.util import N`) holding a scratch notebook she tried it in
    (`lib/try.ipynb`) was read as another submission's folder and not copied: her exercise passed in the notebook and
    was graded "No module named 'lib'". A notebook with an exercise below (`week7/07_….ipynb`) still keeps its folder
    out; the scratch notebook itself is not copied (no notebook is)."""
    notebook = touch(tmp_path / WEEK6)
    touch(tmp_path / "lib" / "__init__.py")
    touch(tmp_path / "lib" / "util.py")
    write(tmp_path / "lib", "try.ipynb", [nbformat.v4.new_code_cell("from util import N\nprint(N)")])
    write(tmp_path / "week7", "07_week7_compensation.ipynb", [nbformat.v4.new_code_cell("x = 1")])
    touch(tmp_path / "week7" / "helper7.py")
    write(tmp_path / "other", "bob.ipynb", [nbformat.v4.new_code_cell("check('w6.window', keep)")])
    touch(tmp_path / "other" / "keep.py")
    assert files_beside(notebook) == [Path("lib/__init__.py"), Path("lib/util.py")]


def test_a_file_whose_accents_are_decomposed_is_copied_under_its_composed_name_too(tmp_path):
    """A learner on a Mac reads `open("données.csv")` (typed: é one character) from a folder whose name an older Mac
    wrote decomposed (NFD: `e` and a combining accent); the Mac finds either spelling, so it passed, and graded on Linux
    it was FileNotFoundError. Now such a file is there under both names; a file handed in under the composed name
    itself keeps its own content."""
    source, work = tmp_path / "src", tmp_path / "work"
    decomposed = "donne\u0301es"
    touch(source / f"{decomposed}.csv", "a,b")
    touch(source / "re\u0301sume\u0301" / "notes.txt", "n")
    touch(source / "cafe\u0301.txt", "decomposed")
    touch(source / "caf\u00e9.txt", "composed")
    work.mkdir()
    copy_beside(files_beside(touch(source / WEEK6)), source, work)
    assert (work / "donn\u00e9es.csv").read_text() == "a,b"
    assert (work / f"{decomposed}.csv").read_text() == "a,b"
    assert (work / "r\u00e9sum\u00e9" / "notes.txt").read_text() == "n"
    assert (work / "caf\u00e9.txt").read_text() == "composed"
    assert (work / "cafe\u0301.txt").read_text() == "decomposed"


def test_a_file_read_under_another_letter_case_says_so(tmp_path):
    """`open("Data/Answers.json")` beside `data/answers.json` passes on a Mac or Windows (their folders ignore letter
    case) and was graded "FileNotFoundError: ... 'Data/Answers.json'" with nothing more, the file being right there.
    Now the row names the file as handed in; one not copied says that instead, under its own name."""
    notebook = touch(tmp_path / "alice.ipynb")
    touch(tmp_path / "data" / "answers.json")
    touch(tmp_path / "cafe\u0301.csv")

    def raised(name: str) -> str:
        return f"the cell raised FileNotFoundError: [Errno 2] No such file or directory: '{name}'"

    copied = [Path("data/answers.json"), Path("cafe\u0301.csv")]
    named = " — the file handed in is named {}: a Mac or Windows finds it however its letter case is written, Linux "
    named += "(where it was graded) only as it is named; write the name in the code as it is"
    assert not_copied_note(raised("Data/Answers.json"), notebook, copied) == named.format("data/answers.json")
    assert not_copied_note(raised("CAF\u00c9.csv"), notebook, copied) == named.format("cafe\u0301.csv")
    assert not_copied_note(raised("Data/Answers.json"), notebook, []) == note("data/answers.json")
    assert not_copied_note(raised("data/answer.json"), notebook, copied) == ""  # another name: nothing to say
    assert not_copied_note(raised("DATA"), notebook, copied) == ""  # a folder, not a file
    assert not_copied_note("the cell raised ModuleNotFoundError: No module named 'Data'", notebook, copied) == ""
