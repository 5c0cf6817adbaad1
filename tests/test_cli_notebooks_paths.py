"""`toolkit notebooks` finds a notebook it cannot write back before it runs it, not after."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from full_disk import fill_disk_after

import toolkit.exercises.notebook_file as notebook_file
from toolkit.cli.main import main

WELCOME = Path(__file__).resolve().parents[1] / "notebooks" / "00_welcome.ipynb"


def test_a_notebook_that_cannot_be_written_back_is_refused_before_it_runs(tmp_path, monkeypatch, capsys):
    """Before: the notebook ran in a kernel (minutes for a course notebook), then the write failed
    with '[Errno 1] Operation not permitted' and the run was lost."""
    path = tmp_path / "locked.ipynb"
    shutil.copy(WELCOME, path)
    ran = []
    monkeypatch.setattr(notebook_file, "execute", lambda notebook, where, **options: ran.append(where))
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here (and root writes any file whatever its mode)")
    try:
        assert main(["notebooks", str(path)]) == 2
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    assert ran == []
    assert capsys.readouterr().err == f"error: {path} cannot be written (Operation not permitted); nothing was run\n"
    assert path.read_bytes() == WELCOME.read_bytes()


def test_a_notebook_saved_with_a_utf8_byte_order_mark_is_read_and_written_back_without_it(tmp_path, capsys):
    """Before: "error: … is not a notebook nbformat can read (NotJSONError)" for a file Notepad saved."""
    path = tmp_path / "bom.ipynb"
    path.write_bytes(b"\xef\xbb\xbf" + WELCOME.read_bytes())
    assert main(["notebooks", "--no-execute", str(path)]) == 0
    assert capsys.readouterr().out == f"cleaned: {path}\n"
    assert not path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert notebook_file.read(path).cells[0].source == notebook_file.read(WELCOME).cells[0].source


def test_a_notebook_over_its_cap_is_one_line_and_one_at_the_cap_is_read(tmp_path, monkeypatch, capsys):
    """Before: a notebook of any size was read whole (a 200 MB .ipynb, then parsed as JSON)."""
    path = tmp_path / "big.ipynb"
    shutil.copy(WELCOME, path)
    size = path.stat().st_size
    monkeypatch.setattr(notebook_file, "MAX_NOTEBOOK_BYTES", size - 1)
    assert main(["notebooks", "--no-execute", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"error: notebook {path}: the file is {size} bytes, over the cap of {size - 1} bytes "
        "(toolkit.exercises.notebook_file.MAX_NOTEBOOK_BYTES). Fix: clear the outputs (Edit > Clear Outputs of All Cells "
        "in JupyterLab) and save it again\n"
    )
    assert path.read_bytes() == WELCOME.read_bytes()
    monkeypatch.setattr(notebook_file, "MAX_NOTEBOOK_BYTES", size)
    assert notebook_file.read(path).cells


def test_a_submission_over_the_cap_is_graded_as_a_row_saying_so(tmp_path, monkeypatch):
    from toolkit.exercises.grade import grade_notebook

    path = tmp_path / "03_week3_tool_calling.ipynb"
    shutil.copy(WELCOME, path)
    size = path.stat().st_size
    monkeypatch.setattr(notebook_file, "MAX_NOTEBOOK_BYTES", size - 1)
    [row] = grade_notebook(path)
    assert (row.passed, row.feedback) == (
        False,
        f"the file is {size} bytes, over the cap of {size - 1} bytes (toolkit.exercises.notebook_file.MAX_NOTEBOOK_BYTES). "
        "Fix: clear the outputs (Edit > Clear Outputs of All Cells in JupyterLab) and save it again",
    )


def test_a_disk_that_fills_part_way_through_the_write_back_leaves_the_notebook_whole(tmp_path, monkeypatch, capsys):
    """Before: the cleaned notebook was written over the learner's in place, so a full disk (or a kill)
    part way left it truncated, no longer JSON, their work lost; now it is replaced whole or not at all."""
    path = tmp_path / "mine.ipynb"
    shutil.copy(WELCOME, path)
    before = path.read_bytes()
    fill_disk_after(monkeypatch, 1000)
    assert main(["notebooks", "--no-execute", str(path)]) != 0
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["mine.ipynb"]


def test_a_path_that_is_there_but_no_notebook_file_is_named_for_what_it_is(tmp_path, capsys):
    """Before: 'no such notebook: …' for a folder, a FIFO and a symbolic link loop, all of which exist."""
    folder = tmp_path / "week1.ipynb"
    folder.mkdir()
    fifo = tmp_path / "pipe.ipynb"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.ipynb"
    loop.symlink_to(loop)
    for path, problem in [
        (folder, "a folder"),
        (fifo, "not a regular file (a pipe or a device)"),
        (loop, "Too many levels of symbolic links"),
    ]:
        assert main(["notebooks", "--no-execute", str(path)]) == 2
        assert capsys.readouterr() == ("", f"error: cannot read {path}: {problem}; give an .ipynb file\n")
    assert main(["notebooks", "--no-execute", str(tmp_path / "missing.ipynb")]) == 2
    assert capsys.readouterr().err == f"error: no such notebook: {tmp_path / 'missing.ipynb'}\n"


UTF16 = WELCOME.read_text(encoding="utf-8").encode("utf-16")  # with its byte-order mark, as PowerShell saves


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (UTF16, "cannot be read: its text is not UTF-8, as a notebook's must be (it is UTF-16)"),
        (b'{"cells": "caf\xe9"}', "cannot be read: its text is not UTF-8, as a notebook's must be"),
    ],
)
@pytest.mark.parametrize("command", [["notebooks", "--no-execute"], ["exercises", "--update"]])
def test_a_notebook_that_is_not_utf8_is_told_to_be_saved_as_utf8(tmp_path, capsys, content, problem, command):
    """Before: "error: … is not a notebook nbformat can read (UnicodeDecodeError)", naming no fix, where
    `toolkit grade` says of the same file what it is and to save it as UTF-8."""
    path = tmp_path / "01_week1.ipynb"
    path.write_bytes(content)
    assert main([*command, str(path)]) == 2
    assert capsys.readouterr().err == (
        f"error: {path} {problem}; open it in the editor that saved it and save it as UTF-8\n"
    )
    assert path.read_bytes() == content


@pytest.mark.parametrize("command", [["notebooks", "--no-execute"], ["exercises", "--update"]])
def test_an_empty_notebook_file_is_said_to_be_empty(tmp_path, capsys, command):
    """Before: "error: … is not a notebook nbformat can read (NotJSONError)" for a file of no bytes (a
    save that failed, a `touch`); `toolkit grade` says "the file is empty"."""
    path = tmp_path / "01_week1.ipynb"
    path.touch()
    assert main([*command, str(path)]) == 2
    assert capsys.readouterr().err == (
        f"error: {path} is not a notebook: the file is empty; give the notebook as Jupyter saved it\n"
    )


@pytest.mark.parametrize(("name", "said"), [("cases.csv", "a .csv file"), ("README", "a file without suffix")])
def test_a_file_that_is_no_notebook_by_its_name_is_told_to_give_an_ipynb(tmp_path, capsys, name, said):
    """Before: `toolkit notebooks cases.csv` was "… is not a notebook nbformat can read (NotJSONError)", naming
    no fix; `toolkit grade` says "not a notebook: a .csv"."""
    path = tmp_path / name
    path.write_text("id,tool\n", encoding="utf-8")
    assert main(["notebooks", "--no-execute", str(path)]) == 2
    assert capsys.readouterr().err == f"error: {path} is not a notebook ({said}): give an .ipynb file\n"
    assert path.read_text(encoding="utf-8") == "id,tool\n"


def _running_notebook(tmp_path: Path) -> tuple[Path, subprocess.Popen[str], str]:
    """`toolkit notebooks` on a notebook whose cell writes a mark and waits; returned once the cell runs."""
    import sys
    import time

    import nbformat

    mark = tmp_path / "running"
    path = tmp_path / "waits.ipynb"
    cell = f"import pathlib, time\npathlib.Path({str(mark)!r}).write_text('x')\ntime.sleep(60)"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)]), path)
    before = path.read_text()
    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "notebooks", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a group of its own, as a terminal's foreground job is
    )
    for _ in range(600):  # the kernel starts: wait for the cell to run (the mark), not for a time
        if mark.exists() or process.poll() is not None:
            break
        time.sleep(0.1)
    assert mark.exists(), process.communicate()
    return path, process, before


def test_ctrl_c_while_a_notebook_runs_is_exit_130_and_the_notebook_is_unchanged(tmp_path):
    """Before: Ctrl-C (sent to the whole group, kernel included, as a terminal sends it) ended with exit 2
    and 'error: …: execution stopped (the kernel died or was interrupted)': nbclient's own handler shut
    the kernel down, and the run failed as if it had died."""
    import signal

    path, process, before = _running_notebook(tmp_path)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (130, "interrupted (Ctrl-C): stopped\n")
    assert path.read_text() == before


def test_sigterm_while_a_notebook_runs_is_exit_143_and_the_notebook_is_unchanged(tmp_path):
    """Before: `kill` (a CI job's time limit) ended with exit 2 and '… the kernel died or was interrupted'."""
    import signal

    path, process, before = _running_notebook(tmp_path)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (143, f"stopped (SIGTERM): {path} is unchanged\n")
    assert path.read_text() == before


def test_a_notebook_run_by_toolkit_notebooks_never_sees_a_secret_of_the_shell_it_runs_in(tmp_path, monkeypatch, capsys):
    """The stored outputs are committed; the kernel had every variable of the teacher's shell but
    `LLM_*` (a cell printing `os.environ` or an error quoting `DATABASE_URL` wrote them into the
    file). It runs as a submission does (`grade.submission_environment`): no secret-named variable,
    none whose value holds a secret."""
    import nbformat

    monkeypatch.setenv("OPENAI_API_KEY", "sk-teacher-Zq8xLm4Vt7Rk2Np9")
    monkeypatch.setenv("TOOLKIT_TEST_DATABASE_URL", "postgres://me:Tr0ub4dor-3@db/shop")
    monkeypatch.setenv("TOOLKIT_TEST_PLAIN", "kept")
    names = ["OPENAI_API_KEY", "TOOLKIT_TEST_DATABASE_URL", "TOOLKIT_TEST_PLAIN"]
    path = tmp_path / "env.ipynb"
    cell = nbformat.v4.new_code_cell(f"import os; print([os.environ.get(n) for n in {names!r}])")
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
    assert main(["notebooks", str(path)]) == 0
    assert nbformat.read(path, as_version=4).cells[0].outputs[0]["text"] == "[None, None, 'kept']\n"
    assert os.environ["OPENAI_API_KEY"] == "sk-teacher-Zq8xLm4Vt7Rk2Np9"  # the shell's own, given back


BROKEN_CELL = {"cell_type": "code", "id": "a", "metadata": {}, "outputs": [], "execution_count": None}


@pytest.mark.parametrize(
    ("cells", "where", "why"),
    [
        ({}, "cells", "{} is not of type 'array'"),  # was "executed and cleaned", the broken file rewritten
        ([{**BROKEN_CELL, "source": 5}], "cells[0].source", "5 is not valid under any of the given schemas"),
        ([{**BROKEN_CELL, "source": "1", "outputs": {}}], "cells[0].outputs", "{} is not of type 'array'"),
    ],
)
def test_a_notebook_that_breaks_nbformats_schema_is_refused_unrun_and_unchanged(
    tmp_path, monkeypatch, capsys, cells, where, why
):
    """Before: nbformat only logs a schema violation, so `"cells": {}` was run (nothing), "executed and
    cleaned" and rewritten as broken as it was, and `"source": 5` stopped with "AttributeError: 'int' object
    has no attribute 'strip'"."""
    import json

    path = tmp_path / "broken.ipynb"
    text = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})
    path.write_text(text, encoding="utf-8")
    ran = []
    monkeypatch.setattr(notebook_file, "execute", lambda notebook, where, **options: ran.append(where))
    assert main(["notebooks", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path} breaks the notebook format at {where}: {why}") and err.count("\n") == 1
    assert err.endswith(
        "; nothing was run and the file is unchanged. Fix: correct it there, or open the notebook "
        "in JupyterLab and save it again\n"
    )
    assert ran == [] and path.read_text(encoding="utf-8") == text


def test_a_notebook_over_its_cap_by_saved_widget_state_is_told_to_clear_that_state_too(tmp_path, monkeypatch):
    """Before: 'Fix: clear the outputs' alone — a notebook made large by the widget state JupyterLab saved in its
    metadata (ipywidgets views, 50 MB of it) stays as large once its outputs are cleared."""
    import json

    from toolkit.errors import ConfigurationError

    notebook = json.loads(WELCOME.read_text(encoding="utf-8"))
    notebook["metadata"]["widgets"] = {
        "application/vnd.jupyter.widget-state+json": {"state": {"m0": {"state": {"blob": "x" * 5000}}}}
    }
    path = tmp_path / "widgets.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    size = path.stat().st_size
    monkeypatch.setattr(notebook_file, "MAX_NOTEBOOK_BYTES", size - 1)
    with pytest.raises(ConfigurationError) as raised:
        notebook_file.read(path)
    assert str(raised.value) == (
        f"notebook {path}: the file is {size} bytes, over the cap of {size - 1} bytes "
        "(toolkit.exercises.notebook_file.MAX_NOTEBOOK_BYTES). Fix: clear the outputs (Edit > Clear Outputs of All Cells "
        "in JupyterLab) and the widget state saved in it (untick Settings > Save Widget State Automatically, "
        "then restart the kernel; Widgets > Clear Notebook Widget State in the classic Notebook), and save it again"
    )


BROKEN_JSON = [
    (
        '{"cells": [{"cell_type": "code", "source": "1"',
        "its JSON breaks at line 1, column 47 (Expecting ',' delimiter): a file cut short while it was saved, or "
        "edited by hand? Fix: correct it there in a text editor, or restore a copy (.ipynb_checkpoints holds the "
        "last one Jupyter saved)",
    ),
    (
        "[" * 100_000 + "]" * 100_000,
        "its JSON is nested more deeply than Python can read; give the notebook as Jupyter saved it",
    ),
]


@pytest.mark.parametrize(("text", "said"), BROKEN_JSON)
def test_a_notebook_whose_json_is_broken_or_too_deep_says_where(tmp_path, capsys, text, said):
    """Before: "error: … is not a notebook nbformat can read (NotJSONError)" for a notebook cut short while
    saved (or "(RecursionError)" for JSON nested 100,000 deep), naming neither where nor the fix."""
    path = tmp_path / "01_week1.ipynb"
    path.write_text(text, encoding="utf-8")
    assert main(["notebooks", "--no-execute", str(path)]) == 2
    assert capsys.readouterr().err == f"error: {path} is not a notebook: {said}\n"
    assert path.read_text(encoding="utf-8") == text
