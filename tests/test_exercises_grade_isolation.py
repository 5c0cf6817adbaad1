"""`toolkit grade`: one submission cannot change another's grade through what the kernels import.

Every notebook runs against the one installed course. A notebook that writes a `sitecustomize.py` into a folder
on the teacher's `PYTHONPATH`, a `.pth` into site-packages, or edits the package's checks would otherwise change
the grades of every notebook graded after it. Its kernel now gets no inherited import variables, and the install
is compared before and after each submission: a change stops the grading with the teacher's error naming the
notebook.
"""

import importlib.util
import marshal
import os
import py_compile
import site
import sysconfig
from pathlib import Path

import nbformat
from test_exercises_grade import write

import toolkit
import toolkit.exercises.grade as grade
from toolkit.cli.main import main
from toolkit.exercises.environment import grading_imports, site_folders, submission_environment
from toolkit.exercises.grade import (
    INSTALL_CHANGED,
    grade_paths,
    install_changes,
    install_roots,
    install_state,
)
from toolkit.unicode import padded

RAISE_SEEN = "import os\nraise RuntimeError(os.environ.get('PLANTED', 'none'))"


def planting(folder: Path, name: str, text: str) -> str:
    return f"open({str(folder / name)!r}, 'w').write({text!r})\n"


def test_a_sitecustomize_written_to_the_teachers_pythonpath_does_not_reach_the_next_submission(tmp_path, monkeypatch):
    """Before: the teacher's `PYTHONPATH` went to every kernel; a folder on it that the grading user may write to
    took a notebook's `sitecustomize.py`, which ran in every kernel after it (b's cell read 'by a')."""
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("PYTHONPATH", str(shared))
    plant = planting(shared, "sitecustomize.py", "import os\nos.environ['PLANTED'] = 'by a'\n")
    write(tmp_path / "sub", "a.ipynb", [nbformat.v4.new_code_cell(plant)])
    write(
        tmp_path / "sub", "b.ipynb", [nbformat.v4.new_code_cell(RAISE_SEEN, metadata={"tags": ["exercise:w0.switch"]})]
    )
    rows = grade_paths(tmp_path / "sub", seconds=30)
    assert (shared / "sitecustomize.py").exists()
    [b] = [r for r in rows if r.notebook.endswith("b.ipynb")]
    assert b.feedback == "the cell raised RuntimeError: none"


def test_a_submission_that_changes_the_install_stops_the_grading_naming_it(tmp_path, monkeypatch, capsys):
    """Before: a notebook that edited the installed checks (or planted a `.pth`) changed the grades of every
    notebook after it, and nobody was told. Now the install is compared before and after each notebook."""
    install = tmp_path / "install"
    (install / "__pycache__").mkdir(parents=True)
    (install / "checks.py").write_text("PASS = False\n")
    monkeypatch.setattr(grade, "install_roots", lambda: [(install, True)])
    write(tmp_path / "sub", "a.ipynb", [nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["exercise:w0.switch"]})])
    edit = planting(install, "checks.py", "PASS = True\n") + planting(install, "evil.pth", "import os\n")
    write(tmp_path / "sub", "b.ipynb", [nbformat.v4.new_code_cell(edit)])
    write(tmp_path / "sub", "c.ipynb", [nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["exercise:w0.switch"]})])
    out = tmp_path / "grades.csv"
    assert main(["grade", str(tmp_path / "sub"), "--out", str(out), "--timeout", "30"]) == 2
    changed = f"{install / 'checks.py'} changed, {install / 'evil.pth'} added"
    message = INSTALL_CHANGED.format(notebook=tmp_path / "sub" / "b.ipynb", changed=changed)
    a = tmp_path / "sub" / "a.ipynb"
    captured = capsys.readouterr()
    assert captured.out == (  # what was graded before it, as a normal run shows it (only the error line was)
        f"{padded('notebook', len(str(a)))}  passed  note\n{a}     0/1  \n{padded('total', len(str(a)))}    0/1\n"
    )
    assert captured.err == f"\nstopped after 1 of 3 notebooks: its 1 row is in {out}\nerror: {message}\n"
    assert message == (
        f"grade: {tmp_path / 'sub' / 'b.ipynb'} changed the installed course while it was graded ({changed}); the "
        "notebooks after it would be checked by that code, so grading stopped before its rows were written: "
        "reinstall the course (pip install --force-reinstall toolkit-course) and grade again — a user or container "
        "that cannot write to the install keeps a notebook from doing this"
    )
    rows = out.read_text(encoding="utf-8-sig").splitlines()
    assert [r.split(",")[0] for r in rows] == ["notebook", str(tmp_path / "sub" / "a.ipynb")]  # a's row kept, no b, c


def test_a_compiled_file_written_beside_the_install_is_not_a_change(tmp_path, monkeypatch):
    """Any process (the teacher's notebook, another test) may compile a module of the install for the first time:
    its `__pycache__` is left out, or grading would stop for nothing a submission did."""
    install = tmp_path / "install"
    (install / "__pycache__").mkdir(parents=True)
    (install / "checks.py").write_text("PASS = False\n")
    monkeypatch.setattr(grade, "install_roots", lambda: [(install, True)])
    before = install_state()
    (install / "__pycache__" / "checks.cpython-311.pyc").write_bytes(b"\0")
    assert install_changes(before, install_state()) == ""


def _pyc_of(install: Path, text: str, name: str = "checks", stale: int = 0) -> Path:
    """A compiled file of `install/<name>.py` as a notebook would plant it: `text`'s code behind a header that
    passes the loader's check against the real source (its modification time and size)."""
    from importlib import _bootstrap_external as external

    source = install / f"{name}.py"
    found = source.stat()
    code = compile(text, str(source), "exec", dont_inherit=True)
    pyc = Path(importlib.util.cache_from_source(str(source)))
    pyc.parent.mkdir(exist_ok=True)
    pyc.write_bytes(bytes(external._code_to_timestamp_pyc(code, int(found.st_mtime) + stale, found.st_size)))
    return pyc


def test_a_compiled_file_planted_with_other_code_is_a_change_and_a_faithful_one_is_not(tmp_path, monkeypatch):
    """Before: `__pycache__` was left out whole, so a notebook could write a compiled `checks` whose header copies the
    real source's (modification time and size) over code of its own, and every kernel after it loaded that code in
    place of the checks. Now a compiled file that changed counts as a change unless Python would not load it or its
    code is the source's own."""
    install = tmp_path / "install"
    install.mkdir()
    (install / "checks.py").write_text("PASS = False\n")
    monkeypatch.setattr(grade, "install_roots", lambda: [(install, True)])
    before = install_state()
    faithful = Path(py_compile.compile(str(install / "checks.py"), doraise=True))
    assert install_changes(before, install_state()) == ""  # what a first import writes
    before = install_state()
    planted = _pyc_of(install, "PASS = True\n")
    assert planted == faithful
    assert install_changes(before, install_state()) == f"{planted} changed"
    loaded = {}
    exec(marshal.loads(planted.read_bytes()[16:]), loaded)
    assert loaded["PASS"] is True  # what a kernel would have run
    planted.unlink()
    assert install_changes(before, install_state()) == ""  # gone: the source is compiled again
    _pyc_of(install, "PASS = True\n", stale=1)
    assert install_changes(before, install_state()) == ""  # a stale header: Python compiles the source instead
    other = install / "__pycache__" / "checks.cpython-20.pyc"
    other.write_bytes(b"\0" * 20)
    assert install_changes(before, install_state()) == ""  # another interpreter's: never loaded here


def test_an_unchecked_hash_based_compiled_file_with_other_code_is_a_change(tmp_path, monkeypatch):
    """A hash-based compiled file marked not to be checked is loaded whatever the source says."""
    install = tmp_path / "install"
    install.mkdir()
    (install / "checks.py").write_text("PASS = False\n")
    monkeypatch.setattr(grade, "install_roots", lambda: [(install, True)])
    before = install_state()
    mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
    pyc = Path(py_compile.compile(str(install / "checks.py"), doraise=True, invalidation_mode=mode))
    assert install_changes(before, install_state()) == ""  # the source's own code
    from importlib import _bootstrap_external as external

    code = compile("PASS = True\n", "checks.py", "exec", dont_inherit=True)
    pyc.write_bytes(bytes(external._code_to_hash_pyc(code, importlib.util.source_hash(b"x"), checked=False)))
    assert install_changes(before, install_state()) == f"{pyc} added"


def test_install_changes_names_three_and_counts_the_rest():
    before = {"/a": (1, 1, 1), "/b": (1, 1, 1), "/c": (1, 1, 1), "/d": (1, 1, 1)}
    after = {"/a": (1, 1, 2), "/c": (1, 1, 1), "/d": (2, 1, 1), "/e": (1, 1, 1), "/f": (1, 1, 1)}
    assert install_changes(before, after) == "/a changed, /b removed, /d changed and 2 more"
    assert install_changes(before, dict(before)) == ""


def test_the_install_compared_is_the_grading_package_and_the_top_of_the_site_folders():
    roots = install_roots()
    assert roots[0] == (Path(toolkit.__file__).resolve().parent, True)
    tops = {str(root) for root, deep in roots[1:] if not deep}
    assert {
        str(Path(toolkit.__file__).resolve().parent.parent),
        *site.getsitepackages(),
        sysconfig.get_paths()["stdlib"],
    } <= tops
    state = install_state()
    assert str(Path(toolkit.__file__).resolve().parent / "exercises" / "week06.py") in state
    cached = [path for path in state if "__pycache__" in path]
    assert all(path.endswith(".pyc") for path in cached)  # what Python reads there, and only that
    assert install_changes(state, install_state()) == ""


def test_a_submission_imports_the_grading_toolkit_and_nothing_the_teacher_put_on_its_path():
    environ = {
        "PATH": "/usr/bin",
        "PYTHONPATH": "/srv/shared",
        "PYTHONSTARTUP": "/srv/startup.py",
        "PYTHONNOUSERSITE": "",
        "PYTHONDONTWRITEBYTECODE": "",
        "JUPYTER_PATH": "/srv/jupyter",
    }
    root = str(Path(toolkit.__file__).resolve().parent.parent)
    assert submission_environment(environ) == {
        "PATH": "/usr/bin",
        "PYTHONNOUSERSITE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        **({} if root in map(os.path.realpath, site.getsitepackages()) else {"PYTHONPATH": root}),
    }


def test_at_the_top_of_a_folder_only_what_python_imports_is_compared(tmp_path, monkeypatch):
    """A checkout run in place has the package's folder on the path: the teacher's grades.csv (its partial file,
    written while a notebook runs) is there, and is no change of the install; a `sitecustomize.py`, a `.pth` or a
    package's `__init__.py` there is."""
    top = tmp_path / "checkout"
    (top / "notes").mkdir(parents=True)
    monkeypatch.setattr(grade, "install_roots", lambda: [(top, False)])
    before = install_state()
    (top / "grades.csv.partial").write_text("notebook,exercise\n")
    assert install_changes(before, install_state()) == ""
    (top / "sitecustomize.py").write_text("")
    (top / "x.pth").write_text("")
    (top / "notes" / "__init__.py").write_text("")
    assert install_changes(before, install_state()) == (
        f"{top / 'notes' / '__init__.py'} added, {top / 'sitecustomize.py'} added, {top / 'x.pth'} added"
    )


def test_the_kernel_spec_the_kernels_start_from_is_compared_too(tmp_path, monkeypatch):
    """Before: a notebook that rewrote the `python3` kernel spec (a venv's `share/jupyter/kernels/python3/kernel.json`,
    which its user may write to) started every later kernel with a command of its own, unseen."""
    from jupyter_core.paths import jupyter_path

    roots = install_roots()
    assert [(Path(folder) / "python3", True) for folder in jupyter_path("kernels")] == roots[
        -len(jupyter_path("kernels")) :
    ]
    kernels = tmp_path / "kernels"
    monkeypatch.setattr(grade, "install_roots", lambda: [(kernels / "python3", True)])
    before = install_state()
    (kernels / "python3").mkdir(parents=True)
    (kernels / "python3" / "kernel.json").write_text('{"argv": ["python", "-c", "pass"]}')
    assert install_changes(before, install_state()) == f"{kernels / 'python3' / 'kernel.json'} added"


def test_a_submission_that_overwrites_one_still_to_grade_stops_the_grading(tmp_path, capsys):
    """Before: a notebook whose code wrote another learner's notebook by its absolute path (with its own answers, or
    a blank one) changed that learner's grade, unseen: the file was read when its turn came."""
    sub = tmp_path / "sub"
    b = write(sub, "b.ipynb", [nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["exercise:w0.switch"]})])
    write(sub, "a.ipynb", [nbformat.v4.new_code_cell(f"open({str(b)!r}, 'a').write(' ')")])
    out = tmp_path / "grades.csv"
    assert main(["grade", str(sub), "--out", str(out), "--timeout", "30"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "notebook  passed  note\ntotal       0/0\n"
    assert captured.err == (
        f"\nstopped after 0 of 2 notebooks: their 0 rows are in {out}\n"
        f"error: grade: {sub / 'a.ipynb'} changed {b}, to be graded after it, while it was graded; grading stopped "
        "before its rows were written: put the submissions back as they were handed in and grade again — a user or "
        "container that cannot write to them keeps a notebook from doing this\n"
    )
    assert out.read_text(encoding="utf-8-sig").splitlines() == ["notebook,exercise,passed,feedback"]


def test_a_submission_that_changes_one_graded_before_it_changes_no_grade(tmp_path):
    sub = tmp_path / "sub"
    a = write(sub, "a.ipynb", [nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["exercise:w0.switch"]})])
    write(sub, "b.ipynb", [nbformat.v4.new_code_cell(f"open({str(a)!r}, 'a').write(' ')")])
    rows = grade_paths(sub, seconds=30)
    assert [r.notebook for r in rows] == [str(a), str(sub / "b.ipynb")]


def test_a_toolkit_installed_for_the_user_keeps_the_user_site_packages(monkeypatch):
    """`pip install --user` (a shared server's venv-less install) puts the toolkit, its dependencies and their
    `.pth` files in the user's site-packages: without it a kernel could not import them. It stays on, and its top is
    compared as the other start-up folders are."""
    root = str(Path(toolkit.__file__).resolve().parent.parent)
    monkeypatch.setattr(site, "getusersitepackages", lambda: root)
    assert grading_imports() == {"PYTHONDONTWRITEBYTECODE": "1"}
    assert root in site_folders()
    assert (Path(root), False) in install_roots()
    monkeypatch.setattr(site, "getusersitepackages", lambda: "/nowhere/site-packages")
    assert grading_imports()["PYTHONNOUSERSITE"] == "1"


def test_a_cell_that_takes_more_memory_than_the_limit_fails_alone_and_the_next_cells_run(tmp_path, monkeypatch):
    """Before: a submission's kernel had no memory limit: a cell building a list without end took the grading
    machine's memory until the system killed a process (the kernel, or the teacher's editor). Each process a
    submission runs now holds at most MEMORY_LIMIT_BYTES (RLIMIT_DATA): past it the allocation is a MemoryError
    in that cell, and the kernel goes on. (bytearray of 2 GiB: reserved, never written, so without the limit it
    succeeds here without using the machine's memory.)"""
    monkeypatch.setattr(grade, "MEMORY_LIMIT_BYTES", 1024**3)
    eats = "blob = bytearray(2 * 1024**3)\nfrom toolkit.exercises import check\ncheck('w8.vector_k', 5)"
    answers = "from toolkit.exercises import check\ncheck('w8.hidden_callable', True)"
    path = write(
        tmp_path,
        "memory.ipynb",
        [
            nbformat.v4.new_code_cell(eats, metadata={"tags": ["exercise:w8.vector_k"]}),
            nbformat.v4.new_code_cell(answers, metadata={"tags": ["exercise:w8.hidden_callable"]}),
        ],
    )
    rows = grade_paths(path, seconds=30)
    assert [(r.exercise, r.passed, r.feedback) for r in rows] == [
        ("w8.vector_k", False, "the cell raised MemoryError"),
        ("w8.hidden_callable", True, rows[1].feedback),
    ]
