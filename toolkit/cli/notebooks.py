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
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from toolkit import files
from toolkit.cli.arguments import given_path
from toolkit.unicode import cut

if TYPE_CHECKING:
    import nbformat  # imported where used: building the parser for `--help` stays fast

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
NOTEBOOK_METADATA = ("kernelspec", "language_info")


MAX_NOTEBOOK_BYTES = 32 * 1024 * 1024
"""A notebook larger than this is refused unread, by this command, `toolkit grade` and `toolkit exercises`
(the course's are under 1 MB; a learner's with a few plots and images, a few MB)."""


CLEAR_OUTPUTS = "clear the outputs (Edit > Clear Outputs of All Cells in JupyterLab)"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
"""The key of the widget state JupyterLab saves in a notebook's metadata (ipywidgets' models, every value a
view showed): cleared outputs leave it, so a notebook it makes large stays as large."""


def _smaller(path: Path) -> str:
    """How to make the notebook at `path` small enough to read, said when it is over `MAX_NOTEBOOK_BYTES`
    (else not looked at: a stat): clear its outputs, and the widget state saved in it when it holds one (a
    search of its bytes, a chunk at a time, its first GiB: the metadata comes after the cells)."""
    fix = f"{CLEAR_OUTPUTS} and save it again"
    try:
        if os.stat(path).st_size <= MAX_NOTEBOOK_BYTES:
            return fix
        with open(path, "rb") as file:
            if not _holds(file, WIDGET_STATE.encode(), 1 << 30):
                return fix
    except (OSError, ValueError):  # unreadable: read_bytes says why
        return fix
    return (
        f"{CLEAR_OUTPUTS} and the widget state saved in it (untick Settings > Save Widget State Automatically, "
        "then restart the kernel; Widgets > Clear Notebook Widget State in the classic Notebook), and save it again"
    )


def _holds(file: BinaryIO, marker: bytes, limit: int) -> bool:
    """Whether `file`'s first `limit` bytes hold `marker`, read 1 MiB at a time (a marker across two chunks too)."""
    tail = b""
    read = 0
    while read < limit and (chunk := file.read(1 << 20)):
        read += len(chunk)
        if marker in tail + chunk:
            return True
        tail = chunk[-(len(marker) - 1) :]
    return False


def read(path: Path, problems: dict[str, Any] | None = None) -> nbformat.NotebookNode:
    """The notebook at `path`, as version 4. A UTF-8 file that starts with a byte-order mark (as Notepad
    and some Windows tools save one) is read too: the mark says nothing about the notebook, and
    nbformat alone would call the file "not JSON". A folder, a pipe or a device, or a file over
    `MAX_NOTEBOOK_BYTES`, is a `ConfigurationError` naming it. nbformat reads a notebook that breaks its
    schema and only logs it: given `problems`, that error is put there (`"ValidationError"`) instead."""
    import nbformat

    from toolkit.errors import ConfigurationError

    text = files.read_text(
        path,
        MAX_NOTEBOOK_BYTES,
        where=f"notebook {path}",
        cap_name="toolkit.cli.notebooks.MAX_NOTEBOOK_BYTES",
        fix=_smaller(path),
        error=ConfigurationError,
        encoding="utf-8-sig",
    )
    if problems is None:
        return nbformat.reads(text, as_version=4)
    return nbformat.reads(text, as_version=4, capture_validation_error=problems)


def breaks_format(path: Path, problems: dict[str, Any]) -> str:
    """What `read` found against nbformat's schema, in one line with the fix ("" when nothing): such a
    notebook is neither run nor rewritten (`"cells": {}` ran nothing and was stored as broken as it was)."""
    error = problems.get("ValidationError")
    if error is None:
        return ""
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
    why = cut(" ".join(str(error.message).split()), 120, "...")
    return (
        f"{path} breaks the notebook format at {where or 'its top level'}: {why}; nothing was run and the file is "
        "unchanged. Fix: correct it there, or open the notebook in JupyterLab and save it again"
    )


def unreadable(path: Path, error: Exception) -> str:
    """Why nbformat could not read the notebook at `path` (it raised `error`): one line naming the file
    and, where there is one, the fix, as `toolkit grade` words it (text not UTF-8, a file named as no
    notebook, an empty file)."""
    if path.suffix.lower() != ".ipynb":  # `notebooks cases.csv`: its name says it is no notebook
        kind = f"a {path.suffix} file" if path.suffix else "a file without suffix"
        return f"{path} is not a notebook ({kind}): give an .ipynb file"
    if isinstance(error, UnicodeDecodeError):
        return f"{path} {not_utf8_text(path)}"
    if is_empty(path):
        return f"{path} is not a notebook: the file is empty; give the notebook as Jupyter saved it"
    return f"{path} is not a notebook nbformat can read ({type(error).__name__})"


def not_utf8_text(path: Path) -> str:
    """What a notebook file whose text is not UTF-8 is told, naming UTF-16 (a byte-order mark, or a NUL in
    its first two bytes, as `{` is in UTF-16), which Windows tools save."""
    try:
        with open(path, "rb") as f:
            start = f.read(2)
    except OSError:
        start = b""
    utf16 = start in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in start
    which = " (it is UTF-16)" if utf16 else ""
    return (
        f"cannot be read: its text is not UTF-8, as a notebook's must be{which}; open it in the editor that saved it "
        "and save it as UTF-8"
    )


def is_empty(path: Path) -> bool:
    """Whether the file at `path` has no bytes (False when it cannot be looked at: reading it says why)."""
    try:
        return path.stat().st_size == 0
    except OSError:  # unreadable: reading it says why
        return False


def write(notebook: nbformat.NotebookNode, path: Path) -> None:
    """`notebook` written to `path` as nbformat writes it, whole or not at all
    (`toolkit.files.write_whole`): a kill or a full disk part way leaves the notebook that was there.
    A lone surrogate (read from a JSON escape, `"\\ud800"`, which UTF-8 cannot encode) is written back
    as that escape: it can stand only inside a JSON string, where the escape means the same."""
    import nbformat

    from toolkit.files import write_whole

    text = nbformat.writes(notebook)
    if _LONE_SURROGATE.search(text):
        text = _LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    write_whole(path, text if text.endswith("\n") else text + "\n")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A code point UTF-8 cannot encode (JSON reads a valid pair of escapes as the one character they make)."""


def clean(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip metadata to the allow-list and drop widget-view outputs (in place, returned)."""
    notebook.metadata = {k: v for k, v in notebook.metadata.items() if k in NOTEBOOK_METADATA}
    language = notebook.metadata.get("language_info")
    if isinstance(language, dict):  # the running Python's version would change the file on every machine
        language.pop("version", None)
    for cell in notebook.cells:
        cell.metadata = {k: v for k, v in cell.metadata.items() if k == "tags"}
        cell.pop("id", None)
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data and WIDGET_VIEW in data:
                del data[WIDGET_VIEW]
        if "outputs" in cell:
            kept = [o for o in cell.outputs if o.get("output_type") != "display_data" or o.get("data")]
            cell.outputs = _join_streams(kept)
    notebook.nbformat_minor = min(notebook.nbformat_minor, 4)  # 4.4: no cell ids to churn
    return notebook


def _join_streams(outputs: list[Any]) -> list[Any]:
    """Consecutive pieces of one stream become one output: how a busy kernel splits a cell's
    printing must not change what the notebook stores."""
    joined: list[Any] = []
    for output in outputs:
        previous = joined[-1] if joined else None
        if (
            previous is not None
            and output.get("output_type") == "stream"
            and previous.get("output_type") == "stream"
            and previous.get("name") == output.get("name")
        ):
            previous["text"] = previous["text"] + output["text"]
        else:
            joined.append(output)
    return joined


KERNEL = "python3"
"""The kernel spec every notebook runs in: the default one of the interpreter, never a teacher's own."""


def execute(
    notebook: nbformat.NotebookNode,
    path: Path,
    timeout: int = 120,
    on_cell_executed: Callable[..., Any] | None = None,
    client: type[Any] | None = None,
) -> None:
    """Run every cell in a fresh kernel, in the notebook's folder, in the environment a submission
    is graded in (`grade.submission_environment`): without the LLM_* variables, nor any secret of
    the shell it runs from (its outputs are stored, and committed).

    timeout: seconds each cell may run; on_cell_executed: nbclient's hook, called after each cell
    that finished (keyword arguments cell, cell_index, execute_reply); client: a subclass of
    nbclient's `NotebookClient` to run it with (the grader's keeps a cell's output bounded)."""
    from nbclient import NotebookClient

    from toolkit.exercises.grade import submission_environment  # it reads notebooks with this module

    kept = submission_environment(os.environ)
    saved = {k: os.environ.pop(k) for k in list(os.environ) if k not in kept}
    try:
        (client or NotebookClient)(
            notebook,
            timeout=timeout,
            kernel_name=KERNEL,
            resources={"metadata": {"path": str(path.parent)}},
            on_cell_executed=on_cell_executed,
        ).execute(stderr=subprocess.DEVNULL)  # the kernel process's own log (its TCP warning), not the cells' output
    finally:
        os.environ.update(saved)


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

    for path in args.files:
        check_file(path)
        if problem := _cannot_write(path):
            print(f"error: {path} cannot be written ({problem}); nothing was run", file=sys.stderr)
            return 2
        problems: dict[str, Any] = {}
        try:
            notebook = read(path, problems)
        except ConfigurationError as exc:  # too large, or no regular file
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except Exception as exc:  # not UTF-8, not JSON, not a notebook, an unknown nbformat version
            print(f"error: {unreadable(path, exc)}", file=sys.stderr)
            return 2
        if broken := breaks_format(path, problems):
            print(f"error: {broken}", file=sys.stderr)
            return 2
        if not args.no_execute and (status := _execute(notebook, path)):
            return status
        write(clean(notebook), path)
        print(f"{'cleaned' if args.no_execute else 'executed and cleaned'}: {path}")
    return 0


def _execute(notebook: nbformat.NotebookNode, path: Path) -> int:
    """Run `path`'s notebook: 0 when every cell ran, else the exit status, its line on stderr said (a cell
    failed, the kernel died: 2; a signal stopped it: `_stopped`)."""
    from nbclient.exceptions import CellExecutionError

    signals: list[int] = []
    problem = ""
    try:
        execute(notebook, path, client=signals_noted(signals))
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
