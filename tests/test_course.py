"""`course.py`: the two commands of the README."""

import importlib.util
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from _pytest.assertion import rewrite
from ctrl_c import main_thread_waits_in

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("course", ROOT / "course.py")
course = importlib.util.module_from_spec(spec)
spec.loader.exec_module(course)


@pytest.fixture(autouse=True)
def no_real_venv(monkeypatch, tmp_path):
    """No test may touch the repository's own .venv (setup() removes a foreign one)."""
    monkeypatch.setattr(course, "VENV", tmp_path / "no-venv")
    monkeypatch.setattr(course, "BIN", tmp_path / "no-venv" / "bin")
    monkeypatch.setattr(course, "STAMP", tmp_path / "no-venv" / ".toolkit-setup")


def test_no_command_prints_the_usage(capsys):
    assert course.main([]) == 2
    assert "python3 course.py lab" in capsys.readouterr().out


def test_the_test_command_runs_pytest_offline_with_nbval(monkeypatch):
    seen = {}
    monkeypatch.setattr(course, "setup", lambda: None)
    monkeypatch.setattr(course, "call", lambda cmd, cwd, env: seen.update(cmd=cmd, env=env) or 0)
    monkeypatch.setenv("LLM_API_KEY", "sk-test")
    monkeypatch.setenv("LLM_REPLAY", "x.jsonl")
    assert course.main(["test", "-k", "loop"]) == 0
    assert seen["cmd"][1:4] == ["-m", "pytest", "--nbval"] and seen["cmd"][-2:] == ["-k", "loop"]
    assert "--dist=loadfile" in seen["cmd"]  # a notebook's cells stay together, in order, on one worker
    assert "--no-loadscope-reorder" in seen["cmd"]  # files in collection order: the longest first (conftest)
    assert f"--numprocesses={course.workers()}" in seen["cmd"] and "--maxprocesses=4" in seen["cmd"]
    assert not any(k.startswith("LLM_") for k in seen["env"])


@pytest.mark.parametrize(("cores", "expected"), [(1, 2), (2, 3), (3, 4), (8, 4)])
def test_the_suite_runs_one_worker_more_than_the_cores_and_at_most_four(cores, expected):
    assert course.workers(cores) == expected


def test_the_test_command_writes_the_bytecode_of_the_package_the_helpers_and_the_tests(monkeypatch, tmp_path):
    for name in ("toolkit/mod.py", "tests/helper.py", "tests/test_a.py", "tests/broken.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("x = (\n" if "broken" in name else "x = 1\n")
    monkeypatch.setattr(course, "ROOT", tmp_path)
    monkeypatch.setattr(course, "BIN", Path(sys.executable).parent)  # python: this venv's, as .venv's
    monkeypatch.setattr(course, "setup", lambda: None)
    monkeypatch.setattr(course, "call", lambda cmd, cwd, env: 0)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # a CI image's setting: compiled all the same
    assert course.main(["test"]) == 0
    compiled = sorted(p.relative_to(tmp_path).parts[0] + "/" + p.name.split(".")[0] for p in tmp_path.rglob("*.pyc"))
    assert compiled == ["tests/helper", "tests/test_a", "toolkit/mod"]  # a file that does not compile: left to its test
    assert sorted(p.name for p in tmp_path.rglob("test_a.*")) == sorted(["test_a.py", f"test_a{rewrite.PYC_TAIL}"])


def test_the_test_command_runs_without_the_bytecode_when_dot_venv_has_no_python(monkeypatch, tmp_path):
    monkeypatch.setattr(course, "ROOT", tmp_path)
    monkeypatch.setattr(course, "setup", lambda: None)
    monkeypatch.setattr(course, "call", lambda cmd, cwd, env: 5)
    assert course.main(["test"]) == 5  # BIN is a folder that does not exist (no_real_venv)


def test_setup_is_skipped_when_pyproject_is_unchanged(monkeypatch, tmp_path):
    venv_dir = tmp_path / ".venv"  # never the real .venv: setup() may remove a foreign one
    venv_dir.mkdir()
    (venv_dir / "pyvenv.cfg").write_text(f"version = {sys.version_info[0]}.{sys.version_info[1]}.0\n")
    (venv_dir / "bin").mkdir()
    (venv_dir / "bin" / "python").symlink_to(sys.executable)
    monkeypatch.setattr(course, "VENV", venv_dir)
    monkeypatch.setattr(course, "BIN", venv_dir / "bin")
    stamp = tmp_path / "stamp"
    stamp.write_text(course._fingerprint())
    monkeypatch.setattr(course, "STAMP", stamp)
    monkeypatch.setattr(course.subprocess, "run", lambda *a, **k: (_ for _ in ()).throw(AssertionError("ran")))
    course.setup()


def test_an_old_python_is_refused_with_the_fix():
    assert course.check_python((3, 11)) is None and course.check_python((3, 13)) is None
    assert course.check_python((3, 10)) == (
        "course.py needs Python 3.11 or newer, but this is Python 3.10. "
        "Run it with a newer one, e.g. `python3.12 course.py test`."
    )


def test_a_venv_made_by_another_python_is_made_anew(monkeypatch, tmp_path, capsys):
    venv_dir = tmp_path / ".venv"
    venv_dir.mkdir()
    (venv_dir / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.10.13\n")
    monkeypatch.setattr(course, "VENV", venv_dir)
    assert course.venv_python_version() == (3, 10)
    monkeypatch.setattr(course, "STAMP", tmp_path / "stamp")
    (tmp_path / "stamp").write_text(course._fingerprint())
    course.setup()  # stamp matches, but the venv is from 3.10: it is removed first
    assert not venv_dir.exists()
    assert capsys.readouterr().out == (
        f".venv was made by Python 3.10; making it anew with Python {sys.version_info[0]}.{sys.version_info[1]} ...\n"
    )


@pytest.mark.parametrize("python", ["dangling link", "missing"])
def test_a_venv_whose_python_is_gone_is_made_anew(monkeypatch, tmp_path, capsys, python):
    """Before: a .venv whose Python was uninstalled (pyenv uninstall, a Homebrew upgrade: `bin/python` a
    dangling link) failed at `venv` with "could not create .venv with pip ([Errno 2] No such file or
    directory: '.../bin/python'); on Debian or Ubuntu install the venv module first", a fix that fixes
    nothing; with the setup stamp in place it failed at jupyter or pytest instead."""
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    course.BIN.mkdir(parents=True)
    (course.VENV / "pyvenv.cfg").write_text(f"home = /gone/bin\nversion = {version}.0\n")
    if python == "dangling link":
        (course.BIN / "python").symlink_to("/gone/bin/python3")
    course.STAMP.write_text(course._fingerprint())
    made = []
    monkeypatch.setattr(
        course, "make_venv", lambda: made.append(course.VENV.exists()) or course.BIN.mkdir(parents=True)
    )
    monkeypatch.setattr(course.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    course.setup()
    assert made == [False]  # the broken .venv was removed before a new one was made
    assert capsys.readouterr().out.splitlines()[0] == (
        f".venv has no Python that runs ({course.BIN / 'python'} is missing, or links to a Python that was "
        f"removed); making it anew with Python {version} ..."
    )


def test_lab_opens_the_welcome_notebook(monkeypatch):
    seen = {}
    monkeypatch.setattr(course, "setup", lambda: None)
    monkeypatch.setattr(course, "call", lambda cmd: seen.update(cmd=cmd) or 0)
    assert course.main(["lab"]) == 0
    assert "--LabApp.default_url=/lab/tree/00_welcome.ipynb" in seen["cmd"]


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_prints_the_usage_and_succeeds(flag, capsys):
    """Before: --help was an unknown command, exit status 2."""
    assert course.main([flag]) == 0
    assert "python3 course.py lab" in capsys.readouterr().out


def test_an_unknown_command_is_named_on_stderr(capsys):
    assert course.main(["tset"]) == 2
    out, err = capsys.readouterr()
    assert err == "error: unknown command 'tset': use lab or test\n" and "python3 course.py test" in out


real_run = subprocess.run


def test_a_failed_install_is_one_line_not_a_traceback(monkeypatch, capsys):
    """Before: pip's failure (offline, say) ended in CalledProcessError's traceback."""
    (course.BIN).mkdir(parents=True)
    (course.BIN / "python").touch()
    (course.VENV / "pyvenv.cfg").write_text(f"version = {sys.version_info[0]}.{sys.version_info[1]}.0\n")
    (course.VENV / "lib" / "python3.x" / "site-packages" / "pip").mkdir(parents=True)
    pip_failing = [sys.executable, "-c", "raise SystemExit(1)"]  # pip, offline
    monkeypatch.setattr(course.subprocess, "run", lambda command, **options: real_run(pip_failing, **options))
    assert course.main(["test"]) == 2
    assert capsys.readouterr().err == (
        "error: pip could not install toolkit into .venv (its message is above); check the network connection "
        "(or the proxy), then run the same command again\n"
    )
    assert not course.STAMP.exists()


def test_a_venv_without_pip_is_removed_and_the_fix_named(monkeypatch, capsys):
    """Before: ensurepip's failure (Debian without python3-venv) was a traceback, and the half-made
    .venv (no pip in it) made every later run fail at `python -m pip`, even after the fix."""

    def create(builder, folder):
        (course.BIN).mkdir(parents=True)
        (course.BIN / "python").touch()
        raise subprocess.CalledProcessError(1, ["python", "-m", "ensurepip"])

    monkeypatch.setattr(course.venv.EnvBuilder, "create", create)
    assert course.main(["lab"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: could not create .venv with pip (Command '['python', '-m', 'ensurepip']'")
    assert err.endswith(
        "install the venv module first (sudo apt install python3-venv), then run the same command again\n"
    )
    assert not course.VENV.exists()


def test_ctrl_c_during_the_setup_is_one_line(monkeypatch, capsys):
    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(course, "setup", interrupted)
    try:
        status = course.main(["test"])
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C left course.main as a traceback")
    assert status == 130
    assert capsys.readouterr().err == (
        "interrupted (Ctrl-C): the setup stopped; run the same command again to finish it\n"
    )


CHILD = """#!{python}
import signal, sys, time
signal.signal(signal.SIGINT, lambda *a: (time.sleep(0.5), print("summary", flush=True), sys.exit(7)))
print("ready", flush=True)
while True:  # in slices: a SIGINT landing just before one long sleep began was seen only when it ended
    time.sleep(0.05)
"""


def test_ctrl_c_reaches_jupyter_or_pytest_and_course_py_waits_for_it(tmp_path):
    """The terminal sends Ctrl-C to course.py and its child alike. Before: `subprocess.call` killed
    the child a quarter of a second after it (JupyterLab's kernels left running, pytest's summary
    cut off) and course.py ended in a KeyboardInterrupt traceback."""
    jupyter = tmp_path / "bin" / "jupyter"  # stands in for JupyterLab: it takes its time to stop
    jupyter.parent.mkdir()
    jupyter.write_text(CHILD.format(python=sys.executable))
    jupyter.chmod(0o755)
    driver = (
        "import importlib.util, pathlib, sys\n"
        f"spec = importlib.util.spec_from_file_location('course', {str(ROOT / 'course.py')!r})\n"
        "course = importlib.util.module_from_spec(spec); spec.loader.exec_module(course)\n"
        f"course.setup, course.BIN = (lambda: None), pathlib.Path({str(jupyter.parent)!r})\n"
        "sys.exit(course.main(['lab']))\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", driver],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout.readline() == "ready\n"
        os.killpg(process.pid, signal.SIGINT)  # as the terminal does: the whole foreground group
        out, err = process.communicate(timeout=60)  # a hang guard: the child stops 0.5 s after Ctrl-C
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert (out, err, process.returncode) == ("summary\n", "", 7)


def test_a_ctrl_c_that_comes_while_the_child_starts_is_left_to_the_child(monkeypatch):
    """A Ctrl-C that reached course.py while `Popen` was still returning (the child already up and
    sent the same signal) raised KeyboardInterrupt there: course.py said "interrupted" and left its
    child running (the Ctrl-C test above failed so on a busy machine). The child's status is the answer."""
    real = subprocess.Popen

    def popen(*args, **kwargs):
        child = real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)  # as if the terminal's Ctrl-C came just now
        return child

    monkeypatch.setattr(course.subprocess, "Popen", popen)
    try:
        status = course.call([sys.executable, "-c", "import sys; sys.exit(3)"])
    except KeyboardInterrupt:
        pytest.fail("a Ctrl-C while the child started ended course.py's wait")
    assert status == 3
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_windows_venv_whose_python_is_there_is_kept(monkeypatch, capsys):
    """On Windows the venv's Python is `Scripts\\python.exe`: looking for `python` alone would find none and
    make the .venv anew on every run."""
    monkeypatch.setattr(course, "WINDOWS", True)
    course.BIN.mkdir(parents=True)
    (course.VENV / "pyvenv.cfg").write_text(f"version = {sys.version_info[0]}.{sys.version_info[1]}.0\n")
    (course.BIN / "python.exe").touch()
    assert course.venv_problem() == ""
    (course.BIN / "python.exe").unlink()
    assert course.venv_problem().startswith(f"has no Python that runs ({course.BIN / 'python.exe'} is missing")


@pytest.mark.parametrize("layout", ["lib/python3.11/site-packages", "Lib/site-packages"])
def test_a_venv_without_pip_is_made_anew_before_installing(monkeypatch, capsys, layout):
    """Before: a .venv made without pip (`python3 -m venv --without-pip .venv`, or `pip uninstall pip`)
    failed with '.venv/bin/python: No module named pip' and 'error: pip could not install toolkit into
    .venv (its message is above); check the network connection (or the proxy), then run the same command
    again', a fix that fixes nothing, on every run."""
    course.BIN.mkdir(parents=True)
    (course.BIN / "python").touch()
    (course.VENV / "pyvenv.cfg").write_text(f"version = {sys.version_info[0]}.{sys.version_info[1]}.0\n")
    (course.VENV / layout).mkdir(parents=True)
    made = []
    monkeypatch.setattr(
        course, "make_venv", lambda: made.append(course.VENV.exists()) or course.BIN.mkdir(parents=True)
    )
    monkeypatch.setattr(course.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    course.setup()
    assert made == [False]  # the .venv without pip was removed before a new one was made
    assert capsys.readouterr().out.splitlines()[0] == (
        ".venv has no pip (it was made without it, or pip was removed); making it anew with Python "
        f"{sys.version_info[0]}.{sys.version_info[1]} ..."
    )


def test_a_venv_with_pip_is_kept(monkeypatch):
    course.BIN.mkdir(parents=True)
    (course.BIN / "python").touch()
    (course.VENV / "pyvenv.cfg").write_text(f"version = {sys.version_info[0]}.{sys.version_info[1]}.0\n")
    (course.VENV / "Lib" / "site-packages" / "pip").mkdir(parents=True)
    monkeypatch.setattr(course, "make_venv", lambda: pytest.fail("made anew"))
    monkeypatch.setattr(course.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    course.setup()
    assert course.STAMP.read_text() == course._fingerprint()


def test_a_pyproject_that_is_not_toml_is_named_before_anything_is_made(monkeypatch, tmp_path, capsys):
    """Before: a .venv was made, then pip failed on pyproject.toml with its traceback, and course.py said
    'check the network connection (or the proxy)'."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "toolkit-course"\nversion = 0.1.0\n')
    monkeypatch.setattr(course, "ROOT", tmp_path)
    monkeypatch.setattr(course, "make_venv", lambda: pytest.fail("a .venv was made"))
    assert course.main(["test"]) == 2
    assert capsys.readouterr().err == (
        "error: pyproject.toml is not valid TOML (Expected newline or end of document after a statement "
        "(at line 3, column 14)); undo the change that broke it (git diff pyproject.toml), then run the same "
        "command again\n"
    )


@pytest.mark.parametrize("what", ["file", "link to another Python's venv"])
def test_a_venv_that_is_a_file_or_a_link_is_replaced_not_followed(monkeypatch, tmp_path, capsys, what):
    """Before: a .venv that was a file said '.venv was made by Python unknown', then 'error: [Errno 20] Not a
    directory: PosixPath(…)'; one that linked to a venv elsewhere failed with 'Cannot call rmtree on a symbolic
    link'. Now the file or the link (never what it links to) is removed and .venv made anew."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "pyvenv.cfg").write_text("version = 3.10.13\n")
    if what == "file":
        course.VENV.write_text("not a venv\n")
    else:
        course.VENV.symlink_to(elsewhere, target_is_directory=True)
    made = []
    monkeypatch.setattr(
        course, "make_venv", lambda: made.append(course.VENV.exists()) or course.BIN.mkdir(parents=True)
    )
    monkeypatch.setattr(course.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    course.setup()
    assert made == [False] and (elsewhere / "pyvenv.cfg").exists()
    said = "is not a folder" if what == "file" else "was made by Python 3.10"
    assert capsys.readouterr().out.splitlines()[0] == (
        f".venv {said}; making it anew with Python {sys.version_info[0]}.{sys.version_info[1]} ..."
    )


TERMINATED_CHILD = """#!{python}
import os, signal, sys, time
signal.signal(signal.SIGTERM, lambda *a: (print("child stopped", flush=True), sys.exit(0)))
print("ready", os.getpid(), flush=True)
time.sleep(30)
"""


def _driver(bin_folder: Path, setup: str = "lambda: None") -> str:
    """A program that loads course.py with `setup` and `BIN` replaced and runs `course.py lab`."""
    return (
        "import importlib.util, pathlib, subprocess, sys\n"
        f"spec = importlib.util.spec_from_file_location('course', {str(ROOT / 'course.py')!r})\n"
        "course = importlib.util.module_from_spec(spec); spec.loader.exec_module(course)\n"
        f"course.setup, course.BIN = ({setup}), pathlib.Path({str(bin_folder)!r})\n"
        "sys.exit(course.main(['lab']))\n"
    )


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    os.kill(pid, signal.SIGKILL)  # left running: the test fails, and leaves nothing behind
    return False


def test_sigterm_to_course_py_reaches_jupyter_or_pytest_and_course_py_waits_for_it(tmp_path):
    """`kill PID` of course.py alone (a process manager, a CI runner, a teacher's script) reaches it,
    not its child. Before: course.py ended at once (exit 143) and left JupyterLab (or pytest and its
    workers) running, orphaned; now the child is sent the signal too, and course.py gives its status."""
    jupyter = tmp_path / "bin" / "jupyter"
    jupyter.parent.mkdir()
    jupyter.write_text(TERMINATED_CHILD.format(python=sys.executable))
    jupyter.chmod(0o755)
    process = subprocess.Popen(
        [sys.executable, "-c", _driver(jupyter.parent)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        word, child = process.stdout.readline().split()
        assert word == "ready"
        process.send_signal(signal.SIGTERM)  # course.py alone, not its process group
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert (out, err, process.returncode) == ("child stopped\n", "", 0)
    assert _gone(int(child))


def test_a_child_ended_by_a_signal_is_the_shells_status_not_a_negative_one():
    """A child killed by a signal (SIGKILL: the out-of-memory killer) gives `Popen` a negative status,
    and `sys.exit(-9)` exits 247. Now it is 128 + the signal, as a shell says it (137)."""
    status = course.call([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"])
    assert status == 128 + signal.SIGKILL


SLOW_STEP = (
    "lambda: course.subprocess.run([sys.executable, '-c', "
    "'import os, time; print(\"ready\", os.getpid(), flush=True); time.sleep(30)'])"
)


@pytest.mark.parametrize(("signum", "name"), [(signal.SIGTERM, "SIGTERM"), (signal.SIGHUP, "SIGHUP")])
def test_sigterm_or_sighup_during_the_setup_is_one_line_and_stops_pip(tmp_path, signum, name):
    """Before: SIGTERM (or the terminal closing: SIGHUP) while pip installed ended course.py without a
    word (exit -15) and left pip installing into .venv. Now it stops as Ctrl-C does: pip is stopped,
    one line says so, and the exit status is 128 + the signal."""
    process = subprocess.Popen(
        [sys.executable, "-c", _driver(tmp_path, SLOW_STEP)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        word, child = process.stdout.readline().split()
        assert word == "ready"
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert (out, err, process.returncode) == (
        "",
        f"stopped ({name}): the setup stopped; run the same command again to finish it\n",
        128 + signum,
    )
    assert _gone(int(child))


def test_a_venv_that_links_to_nothing_is_replaced(monkeypatch, tmp_path, capsys):
    """A .venv linking to a venv since removed (one on another drive, a copied checkout): it does not exist, so it
    was kept, and making it failed on every run with 'could not create .venv with pip ([Errno 17] File exists:
    …); on Debian or Ubuntu install the venv module first (sudo apt install python3-venv)' — an untrue fix.
    Now the link is removed and .venv made anew."""
    course.VENV.symlink_to(tmp_path / "removed", target_is_directory=True)
    made = []
    monkeypatch.setattr(
        course, "make_venv", lambda: made.append(os.path.lexists(course.VENV)) or course.BIN.mkdir(parents=True)
    )
    monkeypatch.setattr(course.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    course.setup()
    assert made == [False]
    assert capsys.readouterr().out.splitlines()[0] == (
        f".venv is a link to {tmp_path / 'removed'}, which is not there; making it anew with Python "
        f"{sys.version_info[0]}.{sys.version_info[1]} ..."
    )


def test_a_course_py_with_no_pyproject_beside_it_says_so(monkeypatch, tmp_path, capsys):
    """course.py copied out of its checkout (or run from a download of that one file): before, 'error: [Errno 2]
    No such file or directory: …/pyproject.toml (if .venv is broken, remove it and run the same command again)',
    naming a .venv that is not there. Now it says what is missing and which course.py to run; nothing is made."""
    monkeypatch.setattr(course, "ROOT", tmp_path)
    monkeypatch.setattr(course, "make_venv", lambda: pytest.fail("a .venv was made"))
    assert course.main(["lab"]) == 2
    assert capsys.readouterr().err == (
        f"error: there is no pyproject.toml beside course.py (in {tmp_path}): course.py sets up the course it is "
        "part of; run the course.py of a full copy of the course (git clone it), not a copy of the file alone\n"
    )


def test_every_file_the_suite_starts_first_exists():
    """conftest's `HEAVIEST_FIRST` orders files by name: a renamed or deleted file there would silently
    stop counting."""
    from conftest import HEAVIEST_FIRST

    assert [path for path in HEAVIEST_FIRST if not (ROOT / path).is_file()] == []
    assert len(set(HEAVIEST_FIRST)) == len(HEAVIEST_FIRST)


@pytest.mark.parametrize("argv", [["--help"], []])
def test_output_to_a_stdout_closed_from_the_start_is_one_line_and_exit_2(argv, monkeypatch, capsys):
    """Before: `python3 course.py >&-` was a traceback (AttributeError: 'NoneType' object has no attribute 'flush')."""
    monkeypatch.setattr(sys, "stdout", None)
    assert course.main(argv) == 2
    assert capsys.readouterr().err == (
        "error: stdout is closed (>&-), so the output was dropped; give it an open stdout, or >/dev/null to drop the "
        "output on purpose\n"
    )
    assert sys.stdout is None


def test_an_unknown_command_of_a_megabyte_is_named_shortened(capsys):
    """Before: a 1 MB word (a paste gone wrong) was echoed whole: a megabyte of stderr for one mistake."""
    assert course.main(["a" * 1_000_000]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == "error: unknown command 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'… (1,000,000 characters): use lab or test\n"
    )


def test_sigterm_taken_by_another_thread_while_course_py_waits_is_passed_on_at_once(tmp_path):
    """A SIGTERM course.py's main thread did not see as it came (taken by another thread, or landing just
    before `Popen.wait` began: a stress loop of that shape lost 3 of 2000 signals) was passed on only
    once the child had ended of itself: JupyterLab kept running, course.py waiting for it. Now the wait
    looks at its signals every few milliseconds. The signal is sent at a thread of the test's own:
    not lost there, only never seen by a wait that does not look."""
    ready = tmp_path / "ready"
    child = (
        "import pathlib, signal, sys, time\n"
        "signal.signal(signal.SIGTERM, lambda *a: sys.exit(5))\n"
        f"pathlib.Path({str(ready)!r}).write_text('x')\n"
        "for _ in range(2400):\n"  # 120 s at most
        "    time.sleep(0.05)\n"  # in slices: the child itself never misses the signal
    )
    done = threading.Event()

    def press() -> None:  # once the child runs and course.py waits for it (a press before would be seen at once)
        waits = (subprocess.Popen._wait, subprocess.Popen._try_wait)
        while not (ready.exists() and main_thread_waits_in(*waits)) and not done.wait(0.005):
            pass
        if not done.is_set():
            signal.pthread_kill(threading.get_ident(), signal.SIGTERM)  # held for the main thread, never lost

    previous = signal.signal(signal.SIGTERM, lambda *a: None)  # what `call` puts back: a late press is harmless
    presser = threading.Thread(target=press, daemon=True)
    presser.start()
    try:
        status = course.call([sys.executable, "-c", child])
    finally:
        done.set()
        presser.join()
        signal.signal(signal.SIGTERM, previous)
    assert status == 5  # passed on while the child ran; 0 when the child ended of itself first


@pytest.mark.skipif(os.name == "nt", reason="the test holds the lock with fcntl")
def test_a_second_setup_waits_for_the_first_then_finds_it_done(monkeypatch, tmp_path, capsys):
    """Before: `course.py lab` and `course.py test` started together on a fresh copy both made .venv and ran
    pip in it at once."""
    import fcntl

    ran = []
    monkeypatch.setattr(course, "_setup", lambda: ran.append("setup"))
    lock = tmp_path / "no-venv.lock"
    with open(lock, "a+b") as held:  # the first course.py, setting up
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        second = threading.Thread(target=course.setup)
        second.start()
        second.join(timeout=1.0)
        assert second.is_alive() and ran == []
    second.join(timeout=30)
    assert not second.is_alive() and ran == ["setup"]
    assert capsys.readouterr().out == (
        f"another course.py is setting up .venv in {tmp_path}; waiting for it to finish ...\n"
    )
    course.setup()  # the lock was let go: no wait, nothing said
    assert ran == ["setup", "setup"] and capsys.readouterr().out == ""


def test_a_folder_where_no_lock_can_be_made_is_set_up_without_it(monkeypatch, tmp_path):
    ran = []
    monkeypatch.setattr(course, "_setup", lambda: ran.append("setup"))
    monkeypatch.setattr(course, "VENV", tmp_path / "missing-folder" / ".venv")
    course.setup()
    assert ran == ["setup"]
