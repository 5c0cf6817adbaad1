"""Every notebook on every kind of gateway: the embedded gateway in modes A–E and a gateway that is
down. Each notebook executes top to bottom in a fresh kernel, as `jupyter nbconvert --execute`
runs it (no `--allow-errors`); outputs are not compared (nbval does that for mode A). Two kernels
at a time (the CI machine has 2 cores). Runs in CI with the rest of the suite (marker `matrix`).
"""

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
DEAD = {"LLM_BASE_URL": "http://127.0.0.1:9/v1", "LLM_API_KEY": "not-a-key", "LLM_MODEL": "m"}
GATEWAYS = {"A": {}, "B": {}, "C": {}, "D": {}, "E": {}, "dead": DEAD}
KERNELS = 2


def kernel_env(gateway: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    env.update(GATEWAYS[gateway] or {"LLM_FAKE_MODE": gateway})
    env["PYTHONPATH"] = os.pathsep.join([str(NOTEBOOKS[0].parents[1]), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def execute(path: Path, gateway: str) -> str:
    """"" when the notebook ran to the end, else the failing cell's error (its last lines)."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    try:
        client.execute(env=kernel_env(gateway))
    except CellExecutionError as error:
        return f"{path.name} on {gateway}: " + "\n".join(str(error).strip().splitlines()[-3:])
    return ""


@pytest.mark.matrix
@pytest.mark.parametrize("gateway", list(GATEWAYS))
def test_every_notebook_runs_to_the_end(gateway):
    with ThreadPoolExecutor(KERNELS) as pool:
        failures = [f for f in pool.map(lambda p: execute(p, gateway), NOTEBOOKS) if f]
    assert not failures, "\n\n".join(failures)
