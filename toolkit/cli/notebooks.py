"""`python -m toolkit notebooks [--no-execute] FILE…`: run course notebooks and store them clean.

Each notebook is executed top to bottom in a fresh kernel (offline: the LLM_* variables —
record and replay included — are removed, so it always meets the embedded fake gateway; and so are
the shell's secrets, `…_KEY`, `…_TOKEN`, a `DATABASE_URL` with a password, which a cell could print
into the stored outputs), then cleaned the way the course commits notebooks:

- notebook metadata keeps only `kernelspec` and `language_info` (without the Python version,
  which would change the file on every machine); cell metadata only `tags`;
- widget-view outputs are dropped: they reference widget models by random ids that no saved
  notebook can resolve, so JupyterLab would show "model not found" — every view also carries
  `text/html` and `text/plain`, and that is what a learner sees until they run the cell.

Teachers adding a notebook run this once and commit the result; `pytest --nbval` then checks
that the stored outputs still come out the same.

The file is replaced whole or not at all: a run killed while writing leaves the notebook as it was.
A notebook that breaks nbformat's schema (`"cells": {}`, a `source` that is a number), which nbformat
reads and only logs, is neither run nor rewritten: one line names the field and the fix.
Exit status 0 when every file was run and stored; 2 when one could not be read, written or run (one
line saying why); 130 after Ctrl-C and 143 after SIGTERM (`kill`), the notebook running then unchanged.

Leaves out: choosing a kernel (the notebook's own kernelspec, else python3).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit import files
from toolkit.cli.arguments import given_path

if TYPE_CHECKING:
    import nbformat  # imported where used: building the parser for `--help` stays fast

EXIT_STATUS = (
    "0 when every file was run and stored; 2 when one could not be read, written or run; 143 after "
    "SIGTERM (the notebook then running is left unchanged)"
)
"""What `--help` says of this command's exit status, before what every command shares
(`toolkit.cli.main.SHARED_EXIT_STATUS`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=given_path, help="the .ipynb files")
    parser.add_argument("--no-execute", action="store_true", help="only clean, do not run")


def run(args: argparse.Namespace) -> int:
    """Each file in turn; the first that cannot be read, written back or run stops the command, and is
    left as it was (one that cannot be written back is found before it runs)."""
    from toolkit.errors import ConfigurationError
    from toolkit.exercises import notebook_file  # imported where used: building the parser for `--help` stays fast

    for path in args.files:
        check_file(path)
        if problem := _cannot_write(path):
            print(f"error: {path} cannot be written ({problem}); nothing was run", file=sys.stderr)
            return 2
        problems: dict[str, Any] = {}
        try:
            notebook = notebook_file.read(path, problems)
        except ConfigurationError as exc:  # too large, or no regular file
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except Exception as exc:  # not UTF-8, not JSON, not a notebook, an unknown nbformat version
            print(f"error: {notebook_file.unreadable(path, exc)}", file=sys.stderr)
            return 2
        if broken := notebook_file.breaks_format(path, problems):
            print(f"error: {broken}", file=sys.stderr)
            return 2
        if not args.no_execute and (status := _execute(notebook, path)):
            return status
        notebook_file.write(notebook_file.clean(notebook), path)
        print(f"{'cleaned' if args.no_execute else 'executed and cleaned'}: {path}")
    return 0


def _execute(notebook: nbformat.NotebookNode, path: Path) -> int:
    """Run `path`'s notebook: 0 when every cell ran, else the exit status, its line on stderr said (a cell
    failed, the kernel died: 2; a signal stopped it: `_stopped`)."""
    from nbclient.exceptions import CellExecutionError

    from toolkit.exercises import notebook_file

    signals: list[int] = []
    problem = ""
    try:
        notebook_file.execute(notebook, path, client=signals_noted(signals))
    except CellExecutionError as exc:
        problem = f"a cell failed ({exc.ename}: {exc.evalue})"
    except Exception as exc:  # the kernel died (nbclient may then fail in its cleanup)
        problem = f"execution stopped ({_why(exc)})"
    if signals:  # nbclient's handler shut the kernel down, and the run failed as if it had died
        return _stopped(path, signals[0])
    if problem:
        print(f"error: {path}: {problem}; the file is unchanged", file=sys.stderr)
        return 2
    return 0


def signals_noted(noted: list[int]) -> type[Any]:
    """nbclient's `NotebookClient`, noting in `noted` each signal its own handlers meet (SIGINT, SIGTERM: they
    shut the kernel down, and the run then fails as if the kernel had died, a `DeadKernelError`)."""
    import asyncio
    from contextlib import asynccontextmanager

    from nbclient import NotebookClient

    class Noting(NotebookClient):
        @asynccontextmanager
        async def async_setup_kernel(self, **kwargs: Any) -> AsyncIterator[None]:
            loop = asyncio.get_event_loop()  # the one nbclient adds its handlers to
            add = loop.add_signal_handler

            def noting(number: int, callback: Callable[..., Any], *args: Any) -> None:
                def noted_then_called(*given: Any) -> None:
                    noted.append(number)
                    callback(*given)

                add(number, noted_then_called, *args)

            setattr(loop, "add_signal_handler", noting)  # noqa: B010  # a method mypy would not let be assigned
            try:
                async with super().async_setup_kernel(**kwargs):
                    yield
            finally:
                delattr(loop, "add_signal_handler")

    return Noting


def _stopped(path: Path, number: int) -> int:
    """Ctrl-C (KeyboardInterrupt: `main`'s one line, exit 130) or another signal (one line, exit 128 + its
    number) stopped `path`'s run; the file is left as it was."""
    import signal

    if number == signal.SIGINT:
        raise KeyboardInterrupt
    print(f"stopped ({signal.Signals(number).name}): {path} is unchanged", file=sys.stderr)
    return 128 + number


def check_file(path: Path) -> None:
    """Raise, in one line, when `path` names no notebook file: "no such notebook" when nothing is
    there, else what is (a folder, a pipe, a link loop: `files.not_a_file`)."""
    from toolkit.errors import ConfigurationError

    problem = files.not_a_file(path)
    if problem.startswith("no such file"):
        raise FileNotFoundError(f"no such notebook: {path}")
    if problem:
        raise ConfigurationError(f"cannot read {path}: {problem}; give an .ipynb file")


def _cannot_write(path: Path) -> str:
    """Why `path` cannot be written back ("" when it can): found before a run of minutes, not after
    it (opened for appending, its content untouched)."""
    try:
        open(path, "ab").close()
    except OSError as exc:
        return exc.strerror or str(exc)
    return ""


def _why(error: BaseException) -> str:
    """Why execution stopped: a dead kernel anywhere in the chain, else the exception's first line."""
    from nbclient.exceptions import DeadKernelError

    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, DeadKernelError):
            return "the kernel died or was interrupted"
        cause = cause.__cause__ or cause.__context__
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0][:200]}" if lines else type(error).__name__
