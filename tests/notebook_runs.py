"""Running every notebook, cell by cell, in one Jupyter kernel against a gateway of a test's choosing.

`run_every_notebook(env, before_each)`: the eleven notebooks in one fresh kernel (set up before each as the matrix
sets it up, `PREPARE`, with the `LLM_*` variables `env`), each stopping at its first error, as `jupyter nbconvert
--execute` does, in a private copy of notebooks/ (`private_notebooks`: not where `pytest --nbval` runs them).
Returns the failures ("name, cell n: error") and what each cell printed, for a test's own checks.
`run_code(client, code)`: one cell's printed text and its error.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import nbformat

from tests.test_notebook_matrix import PREPARE, private_notebooks

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def run_code(client, code: str) -> tuple[str, str]:
    """(the text the cell printed or displayed, its error as `Name: value` or "")."""
    out, errors = [], []

    def hook(message):
        kind, content = message["msg_type"], message["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind in ("execute_result", "display_data"):
            out.append(content["data"].get("text/plain", ""))
        elif kind == "error":
            errors.append(f"{content['ename']}: {content['evalue']}")

    reply = client.execute_interactive(code, timeout=180, output_hook=hook)
    failed = reply["content"]["status"] == "error"
    return "".join(out), (errors[-1] if errors else reply["content"].get("ename", "error")) if failed else ""


def run_every_notebook(
    env: dict[str, str], before_each: Callable[[], None] = lambda: None
) -> tuple[list[str], dict[tuple[str, int], str]]:
    """Every notebook in one kernel with the gateway variables `env`; `before_each()` before each
    notebook (a gateway's counters reset, say). See the module docstring."""
    from jupyter_client.manager import start_new_kernel

    base = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    base["PYTHONPATH"] = os.pathsep.join([str(ROOT), base.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    failures: list[str] = []
    printed: dict[tuple[str, int], str] = {}
    with tempfile.TemporaryDirectory(prefix="toolkit-notebooks-", ignore_cleanup_errors=True) as scratch:
        folder = private_notebooks(Path(scratch))  # not the checkout's: `pytest --nbval` runs there
        manager, client = start_new_kernel(kernel_name="python3", env=base)
        try:
            _run_each(client, folder, env, before_each, failures, printed)
        finally:
            client.stop_channels()
            manager.shutdown_kernel(now=True)
    return failures, printed


def _run_each(client, folder: Path, env: dict[str, str], before_each, failures: list[str], printed: dict) -> None:
    """Every notebook in `folder`, in the kernel of `client`: see `run_every_notebook`."""
    for path in NOTEBOOKS:
        before_each()
        _, error = run_code(client, PREPARE.format(folder=str(folder), env=env))
        for number, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if error or cell.cell_type != "code" or not cell.source.strip():
                continue
            printed[path.name, number], error = run_code(client, cell.source)
            if error:
                failures.append(f"{path.name}, cell {number}: {error}")
