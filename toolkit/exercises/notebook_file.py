"""A notebook file: read within its cap and checked against nbformat's schema, cleaned the way the
course commits notebooks, written whole or not at all, and run top to bottom in a fresh kernel.

`toolkit notebooks` (the course's own notebooks), `toolkit grade` and `toolkit exercises` (learners'
notebooks) all read, write and run notebooks through this module, so each says the same thing of a file
that is too large, not UTF-8, empty, or breaks the schema.

Leaves out: what a notebook's cells hold (`toolkit.exercises.notebook`, `toolkit.exercises.cells`), the
commands' arguments and exit statuses (`toolkit.cli.notebooks`).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from toolkit import files
from toolkit.exercises.environment import submission_environment
from toolkit.unicode import cut

if TYPE_CHECKING:
    import nbformat  # imported where used: building a command's parser for `--help` stays fast

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
        cap_name="toolkit.exercises.notebook_file.MAX_NOTEBOOK_BYTES",
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
    broken = broken_json(error)
    if broken is not None:
        return f"{path} is not a notebook: {broken}"
    return f"{path} is not a notebook nbformat can read ({unread_why(error)})"


def unread_why(error: BaseException) -> str:
    """The class of the error nbformat raised reading a notebook and, for nbformat's own (a cell without the
    `metadata` or `source` every notebook has, a version no Jupyter reads), what it said, in one line with no secret:
    `ValidationError` alone left the teacher and the learner to guess what was missing."""
    from toolkit.tools.redact import scrub_secrets

    name = type(error).__name__
    if name not in ("ValidationError", "NBFormatError"):
        return name
    try:
        said = " ".join(str(error).split())
    except Exception:  # a message that fails to be made: the class alone, as before
        return name
    return f"{name}: {cut(scrub_secrets(said), 160, '…')}; give the notebook as Jupyter saved it" if said else name


def broken_json(error: BaseException) -> str | None:
    """Where and why a notebook's JSON could not be read, with the fix, when nbformat's `error` says
    (its `NotJSONError` comes from the JSON decoder's error; a `RecursionError`, from JSON nested
    thousands deep), else None: both were named by their class alone."""
    if isinstance(error, RecursionError):
        return "its JSON is nested more deeply than Python can read; give the notebook as Jupyter saved it"
    below = error.__cause__ or error.__context__
    if type(error).__name__ != "NotJSONError" or not isinstance(below, json.JSONDecodeError):
        return None
    if not below.doc.lstrip().startswith(("{", "[")):  # "hello", "root:x:0:0": no JSON was begun, none cut short
        return "its text is not JSON at all (a notebook's file begins with '{'); give the notebook as Jupyter saved it"
    return (
        f"its JSON breaks at line {below.lineno}, column {below.colno} ({below.msg}): a file cut short while it was "
        "saved, or edited by hand? Fix: correct it there in a text editor, or restore a copy (.ipynb_checkpoints "
        "holds the last one Jupyter saved)"
    )


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
    is graded in (`environment.submission_environment`): without the LLM_* variables, nor any secret of
    the shell it runs from (its outputs are stored, and committed).

    timeout: seconds each cell may run; on_cell_executed: nbclient's hook, called after each cell
    that finished (keyword arguments cell, cell_index, execute_reply); client: a subclass of
    nbclient's `NotebookClient` to run it with (the grader's keeps a cell's output bounded)."""
    from nbclient import NotebookClient

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
