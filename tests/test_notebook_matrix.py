"""Every notebook on every kind of gateway: the embedded gateway in modes B–E and a gateway that is
down (mode A is the committed run that `pytest --nbval` re-executes and compares). Each notebook
executes top to bottom in a fresh kernel, as `jupyter nbconvert --execute` runs it (no
`--allow-errors`); outputs are not compared. Two kernels at a time (the CI machine has 2 cores).
Runs in CI with the rest of the suite (marker `matrix`).

The mode-E run also records every request that goes through `connect()` (`LLM_RECORD`), and each
of weeks 1–10 must send at least one besides the probe's.
"""

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
DEAD = {"LLM_BASE_URL": "http://127.0.0.1:9/v1", "LLM_API_KEY": "not-a-key", "LLM_MODEL": "m"}
GATEWAYS = {"B": {}, "C": {}, "D": {}, "E": {}, "dead": DEAD}
RECORDED = "E"
KERNELS = 2


def kernel_env(gateway: str, record: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    if record is not None:
        env["LLM_RECORD"] = str(record)
    env.update(GATEWAYS[gateway] or {"LLM_FAKE_MODE": gateway})
    env["PYTHONPATH"] = os.pathsep.join([str(NOTEBOOKS[0].parents[1]), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def execute(path: Path, gateway: str, record: Path | None = None) -> str:
    """ "" when the notebook ran to the end, else the failing cell's error (its last lines)."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    try:
        client.execute(env=kernel_env(gateway, record))
    except CellExecutionError as error:
        return f"{path.name} on {gateway}: " + "\n".join(str(error).strip().splitlines()[-3:])
    return ""


@pytest.mark.matrix
@pytest.mark.parametrize("gateway", list(GATEWAYS))
def test_every_notebook_runs_to_the_end(gateway, tmp_path):
    def record(path: Path) -> Path | None:
        return tmp_path / f"{path.stem}.jsonl" if gateway == RECORDED else None

    with ThreadPoolExecutor(KERNELS) as pool:
        failures = [f for f in pool.map(lambda p: execute(p, gateway, record(p)), NOTEBOOKS) if f]
    assert not failures, "\n\n".join(failures)
    if gateway == RECORDED:
        sent = {p.name[:2]: own_requests(record(p)) for p in NOTEBOOKS}
        assert [week for week in [f"{n:02d}" for n in range(1, 11)] if not sent.get(week)] == [], sent


def own_requests(cassette: Path | None) -> int:
    """Requests recorded through `connect()`, not counting the probe's own question."""
    from toolkit.course.probe import PROBE_TOOLS, QUESTION

    if cassette is None or not cassette.exists():
        return 0
    count = 0
    for line in cassette.read_text(encoding="utf-8").splitlines():
        body = json.loads(line)["request"]["body"] or {}
        probe = body.get("tools") == PROBE_TOOLS and body.get("messages") == [{"role": "user", "content": QUESTION}]
        count += not probe or bool(body.get("stream"))
    return count
