"""Set the course up and run it, with nothing but Python 3.11 or newer.

    python3 course.py lab     set up .venv (once), open JupyterLab on notebooks/00_welcome
    python3 course.py test    set up .venv (once), run the whole test suite, notebooks included

Setup creates `.venv/` inside the repo (ignored by git) and installs the package with its test
extra (which includes the `course` extra, JupyterLab); it is redone only when pyproject.toml
changes, or when `.venv` was made by another Python, its Python is gone or it has no pip (it is then
made anew). Two course.py started at once on one folder set it up one after the other (the second says
it waits). Before the tests run, `test` writes the bytecode of toolkit and of the tests, their asserts
rewritten as pytest does (`__pycache__`, even where PYTHONDONTWRITEBYTECODE is set), so the suite's
processes do not each compile them.
Extra arguments go to jupyter / pytest.

Exit status: JupyterLab's or pytest's own (128 + N when a signal N ended it, as a shell says); 0 for
--help; 2 for an unknown command, a setup that failed, or output to a stdout closed from the start (`>&-`)
(one line on stderr says why and what to do); 141 when what reads stdout stopped early (`| head -1`);
130 after Ctrl-C stopped the setup, 143 after SIGTERM, 129 after SIGHUP (pip is stopped with it). SIGTERM
or SIGHUP sent to course.py alone while JupyterLab or pytest runs is passed on to it, and course.py
waits for it to stop, as for Ctrl-C.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import venv
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
WINDOWS = os.name == "nt"
BIN = VENV / ("Scripts" if WINDOWS else "bin")
STAMP = VENV / ".toolkit-setup"


PARALLEL = ["--maxprocesses=4", "--dist=loadfile", "--no-loadscope-reorder"]
"""pytest-xdist: each test file (each notebook) whole on one worker, so a notebook's cells still run in
order in one kernel; files handed out in collection order (tests/conftest.py puts the longest first), not
by their number of tests; at most four workers. `-n 0` after `test` runs serially, `-n K` with K workers."""


def workers(cores: int | None = None) -> int:
    """pytest-xdist's workers: one more than the cores this process may run on (at most four). A fifth of
    the suite's time is spent waiting (kernels and servers starting, timeouts the tests wait out), which a
    worker per core leaves idle: on 2 cores, 3 workers ran the suite in 315.7 s against 2's 346.2 s."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(4, cores + 1))


MINIMUM = (3, 11)
"""The oldest Python the package supports (pyproject's requires-python)."""


def _fingerprint() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def check_python(version: tuple[int, ...] = tuple(sys.version_info[:2])) -> str | None:
    """None when this Python can run the course, else the one-line reason and fix."""
    if tuple(version[:2]) >= MINIMUM:
        return None
    found = ".".join(map(str, version[:2]))
    return (
        f"course.py needs Python {MINIMUM[0]}.{MINIMUM[1]} or newer, but this is Python {found}. "
        f"Run it with a newer one, e.g. `python3.12 course.py test`."
    )


def venv_python_version() -> tuple[int, int] | None:
    """The Python version `.venv` was made with (from pyvenv.cfg), None if there is none."""
    cfg = VENV / "pyvenv.cfg"
    if not cfg.is_file():
        return None
    for line in cfg.read_text(encoding="utf-8", errors="replace").splitlines():
        key, _, value = line.partition("=")
        if key.strip() in ("version", "version_info"):
            parts = value.strip().split(".")
            if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
                return int(parts[0]), int(parts[1])
    return None


def venv_problem() -> str:
    """Why the .venv there cannot be kept ("" when it can, or there is none): a link to nothing, a file,
    another Python made it, or its Python is gone (`bin/python` missing, or linking to an interpreter since uninstalled or upgraded)."""
    if not VENV.exists():  # nothing there, or a link to nothing (its venv removed): making one would fail on it
        return f"is a link to {os.readlink(VENV)}, which is not there" if VENV.is_symlink() else ""
    if not VENV.is_dir():
        return "is not a folder"
    made_with = venv_python_version()
    if made_with != tuple(sys.version_info[:2]):
        return f"was made by Python {'.'.join(map(str, made_with)) if made_with else 'unknown'}"
    python = venv_python()
    if not python.exists():  # a dangling link does not exist either
        return f"has no Python that runs ({python} is missing, or links to a Python that was removed)"
    return ""


def venv_python() -> Path:
    """The .venv's Python: `Scripts\\python.exe` on Windows, `bin/python` elsewhere."""
    return BIN / ("python.exe" if WINDOWS else "python")


def remove_venv() -> None:
    """Remove .venv: a folder with all in it; a file, or a link (never the folder it links to), alone."""
    if VENV.is_symlink() or not VENV.is_dir():
        VENV.unlink()
    else:
        shutil.rmtree(VENV)


def has_pip() -> bool:
    """Whether pip is installed in .venv (`lib/pythonX.Y/site-packages/pip`, or `Lib/site-packages/pip` on
    Windows): a .venv made with `--without-pip`, or whose pip was uninstalled, has none."""
    return any(VENV.glob("lib/python*/site-packages/pip")) or (VENV / "Lib" / "site-packages" / "pip").is_dir()


class SetupError(Exception):
    """The setup cannot go on: the message says why and what to do (one line, no traceback)."""


def setup() -> None:
    """Create .venv and install toolkit[test] into it, unless already done for this pyproject; one course.py
    at a time (`SetupLock`)."""
    with SetupLock():
        _setup()


class SetupLock:
    """The setup of one folder's .venv, by one course.py at a time: a second one started meanwhile (`lab` in
    one terminal, `test` in another, on a fresh copy) says it waits, waits, then finds the setup done. Before,
    both made .venv and ran pip in it at once, and one could remove the .venv the other was installing into.
    The lock is the file `.venv.lock` beside .venv (`flock`; `msvcrt.locking` on Windows), released when the
    process ends however it ends; a folder where that file cannot be made is set up without it."""

    def __enter__(self) -> SetupLock:
        try:
            self.file: Any = open(VENV.with_name(VENV.name + ".lock"), "a+b")
        except OSError:  # a read-only copy: nothing here can be set up at once by two anyway
            self.file = None
            return self
        try:
            if not _lock(self.file, wait=False):
                print(
                    f"another course.py is setting up .venv in {VENV.parent}; waiting for it to finish ...", flush=True
                )
                _lock(self.file, wait=True)
        except BaseException:  # Ctrl-C while waiting
            self.file.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.file is not None:
            self.file.close()  # closing it releases the lock


def _lock(file: Any, wait: bool) -> bool:
    """Whether `file` is now locked by this process (with `wait`, once another has let it go)."""
    if os.name == "nt":
        import msvcrt

        while True:
            try:
                file.seek(0)
                msvcrt.locking(file.fileno(), msvcrt.LK_NBLCK, 1)
                return True
            except OSError:
                if not wait:
                    return False
                time.sleep(0.5)
    import fcntl

    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        return True
    except BlockingIOError:
        return False


def _setup() -> None:
    check_pyproject()  # first: nothing is made or removed for a course.py that is not in its course
    problem = venv_problem()  # no `:=` in this file: Python 3.7 must parse it to say 3.11 is needed
    if problem:
        print(
            f".venv {problem}; making it anew with Python {sys.version_info[0]}.{sys.version_info[1]} ...", flush=True
        )
        remove_venv()
    if STAMP.exists() and STAMP.read_text() == _fingerprint():
        return
    if venv_python().exists() and not has_pip():  # `pip install` below would fail, worded as a network error
        print(
            ".venv has no pip (it was made without it, or pip was removed); making it anew with Python "
            f"{sys.version_info[0]}.{sys.version_info[1]} ...",
            flush=True,
        )
        remove_venv()
    if not venv_python().exists():
        print("creating .venv ...", flush=True)
        make_venv()
    pip = [str(BIN / "python"), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    print("installing toolkit and its dependencies into .venv ...", flush=True)
    for step in (["--upgrade", "pip"], ["-e", f"{ROOT}[test]"]):
        if subprocess.run(pip + step).returncode != 0:
            raise SetupError(
                "pip could not install toolkit into .venv (its message is above); check the network "
                "connection (or the proxy), then run the same command again"
            )
    STAMP.write_text(_fingerprint())


def check_pyproject() -> None:
    """Raise `SetupError` when pyproject.toml is not there (course.py copied alone) or not TOML (an edit gone
    wrong): said before a .venv is made and pip fails on it with a traceback (then worded as a network problem)."""
    import tomllib  # here, not at the top: Python 3.7 must run this file to say 3.11 is needed

    try:
        tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SetupError(
            f"there is no pyproject.toml beside course.py (in {ROOT}): course.py sets up the course it is part of; "
            "run the course.py of a full copy of the course (git clone it), not a copy of the file alone"
        ) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SetupError(
            f"pyproject.toml is not valid TOML ({exc}); undo the change that broke it (git diff pyproject.toml), "
            "then run the same command again"
        ) from None


def make_venv() -> None:
    """Create .venv with pip; a half-made one is removed (a .venv without pip would stop every
    later setup), and the error says what to install."""
    try:
        venv.EnvBuilder(with_pip=True).create(VENV)
    except (subprocess.CalledProcessError, OSError) as exc:
        shutil.rmtree(VENV, ignore_errors=True)
        raise SetupError(
            f"could not create .venv with pip ({exc}); on Debian or Ubuntu install the venv module "
            "first (sudo apt install python3-venv), then run the same command again"
        ) from None


def lab(args: list[str]) -> int:
    setup()
    root_flag = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return call(
        [
            str(BIN / "jupyter"),
            "lab",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.root_dir={ROOT / 'notebooks'}",
            "--LabApp.default_url=/lab/tree/00_welcome.ipynb",  # open the course, not a file list
            *root_flag,
            *args,
        ]
    )


def test(args: list[str]) -> int:
    setup()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}  # tests are offline by design
    if len(env) < len(os.environ):
        print("note: LLM_* variables are ignored by the test suite (it runs on the fake gateway)")
    compile_bytecode(env)
    command = [
        str(BIN / "python"),
        "-m",
        "pytest",
        "--nbval",
        "--nbval-sanitize-with",
        str(ROOT / "notebooks" / "sanitize.cfg"),
        f"--numprocesses={workers()}",
        *PARALLEL,
        *args,
    ]
    return call(command, cwd=ROOT, env=env)


COMPILED = ("toolkit", "tests")
"""The folders whose bytecode `compile_bytecode` writes before the suite runs."""

PREWRITE = ROOT / "tests" / "prewrite_asserts.py"
"""Writes pytest's rewritten bytecode of the test files, once for all of pytest-xdist's workers."""


def compile_bytecode(env: dict[str, str]) -> None:
    """Write the bytecode of the package and of the tests' helpers (`__pycache__`, ignored by git) with
    .venv's Python before the suite runs: its hundreds of processes (pytest's workers, each notebook's
    kernel, each graded submission, each CLI command a test runs) then read it rather than each compiling
    the ~190 modules of toolkit anew, as they do where PYTHONDONTWRITEBYTECODE is set (a CI image, a
    container): 0.3-0.6 s of CPU a process. Only files changed since their last bytecode are compiled.
    Test files are compiled as pytest compiles them, their asserts rewritten (`PREWRITE`), once for all
    of pytest-xdist's workers, which would each rewrite all of them. An optimisation only: a file that
    does not compile is left to the test that imports it, and a .venv without Python to the command
    that follows."""
    command = [str(BIN / "python"), "-m", "compileall", "-q", "-x", r"[\\/]test_[^\\/]*\.py$"]
    prewrite = [str(BIN / "python"), str(PREWRITE), str(ROOT / "tests")]
    for each in ([*command, *(str(ROOT / folder) for folder in COMPILED)], prewrite):
        try:
            subprocess.run(each, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        except OSError:
            pass


ENDING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that end course.py as Ctrl-C does (`kill`, a CI job's time limit; the terminal closed)."""


class Stopped(Exception):
    """A signal of `ENDING` came during the setup: raised where the setup stood, so `subprocess.run`
    stops the pip it waits on, as on Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, frame: object) -> None:
    raise Stopped(signum)


def stopping(handler: Any) -> dict[int, Any]:
    """Set `handler` for each signal of `ENDING` (in the main thread only: the others cannot); the
    handlers it replaced, for `restore`."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, handler) for signum in ENDING}


def restore(handlers: dict[int, Any]) -> None:
    for signum, handler in handlers.items():
        signal.signal(signum, handler)


def shell_status(returncode: int) -> int:
    """A child's exit status as a shell gives it: 128 + N for one ended by signal N (`Popen` says -N,
    and `sys.exit(-9)` would exit 247)."""
    return 128 - returncode if returncode < 0 else returncode


def call(command: list[str], **options: Any) -> int:
    """Run `command` and wait for it to end, returning its exit status. Ctrl-C reaches it too (the
    terminal sends it to the whole foreground group): it decides how to stop (JupyterLab asks to
    confirm, pytest prints its summary) and this waits for it, where `subprocess.call` would kill
    it a quarter of a second later (JupyterLab's kernels left running, pytest's summary cut).
    Meanwhile Ctrl-C does nothing here: a handler that raises no KeyboardInterrupt is set before
    the child starts (a Ctrl-C that came while `Popen` was still returning ended this with
    "interrupted" and left the child running); the child starts with the default one (a handler
    does not outlive `exec`, only an ignored signal would). SIGTERM or SIGHUP sent to course.py
    alone is passed on to the child (one that came while it started, once it has), and this waits
    for it too: the child is never left running without course.py."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread sets handlers
        return shell_status(subprocess.Popen(command, **options).wait())
    children: list[subprocess.Popen[bytes]] = []
    pending: list[int] = []

    def pass_on(signum: int, frame: object) -> None:
        if children:
            children[0].send_signal(signum)
        else:
            pending.append(signum)

    previous = signal.signal(signal.SIGINT, _child_decides)
    ending = stopping(pass_on)
    try:
        children.append(subprocess.Popen(command, **options))
        for signum in pending:
            children[0].send_signal(signum)
        while True:  # in slices: a signal landing just before one blocking wait began (or taken by
            try:  # another thread) was seen only when the child had ended, never passed on to it
                return shell_status(children[0].wait(timeout=WAIT_SLICE_S))
            except subprocess.TimeoutExpired:
                continue
    finally:
        signal.signal(signal.SIGINT, previous)
        restore(ending)


WAIT_SLICE_S = 1.0
"""`call` waits for its child in waits this long (`Popen.wait` itself looks every 50 ms at most)."""


def _child_decides(signum: int, frame: object) -> None:
    """Ctrl-C while a child runs: it got the signal too, and stops as it sees fit."""


def main(argv: list[str]) -> int:
    ending = stopping(_stop)  # SIGTERM, SIGHUP: the setup stops as on Ctrl-C (`call` passes them on)
    dropped = _Dropped() if sys.stdout is None else None  # started with stdout closed (`>&-`): counted, then said
    if dropped is not None:
        sys.stdout = dropped
    try:
        status = run(argv)
        sys.stdout.flush()  # a closed pipe is found here, not in the interpreter's last flush
        if dropped is not None and dropped.dropped:
            print(CLOSED_STDOUT, file=sys.stderr)
            return status or 2
        return status
    except BrokenPipeError:  # `python3 course.py | head -1`: the reader has all it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush finds no closed pipe
        os.close(devnull)
        return 141
    finally:
        restore(ending)
        if dropped is not None:
            sys.stdout = None


CLOSED_STDOUT = (
    "error: stdout is closed (>&-), so the output was dropped; give it an open stdout, or >/dev/null to drop "
    "the output on purpose"
)


class _Dropped(io.TextIOBase):
    """Where a closed stdout would be: what is written is counted (`dropped`, in characters), then dropped.
    The package's `toolkit.cli.streams.DroppedOutput` written again: course.py runs before .venv (and toolkit)
    exists, so it imports nothing of the package."""

    def __init__(self) -> None:
        super().__init__()
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.dropped += len(text)
        return len(text)


def _word(text: str) -> str:
    """A word of the command line as an error names it: its repr, or, past 60 characters, its start's and its
    length (a 1 MB word, a paste gone wrong, was echoed whole: a megabyte of stderr)."""
    if len(text) <= 60:
        return repr(text)
    return f"{text[:60]!r}… ({len(text):,} characters)"


def run(argv: list[str]) -> int:
    problem = check_python()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    commands = {"lab": lab, "test": test}
    if argv and argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0
    if not argv or argv[0] not in commands:
        if argv:
            print(f"error: unknown command {_word(argv[0])}: use lab or test", file=sys.stderr)
        print(__doc__)
        return 2
    try:
        return commands[argv[0]](argv[1:])
    except SetupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # .venv cannot be written, jupyter or python missing from it
        print(f"error: {exc} (if .venv is broken, remove it and run the same command again)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted (Ctrl-C): the setup stopped; run the same command again to finish it", file=sys.stderr)
        return 130
    except Stopped as stopped:
        name = signal.Signals(stopped.signum).name
        print(f"stopped ({name}): the setup stopped; run the same command again to finish it", file=sys.stderr)
        return 128 + stopped.signum


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
