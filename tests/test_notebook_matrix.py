"""Every notebook on every kind of gateway: the embedded gateway in modes B–E and a gateway that is
down (mode A is the committed run that `pytest --nbval` re-executes and compares). Each notebook
executes top to bottom, every code cell in order, stopping at the first error as `jupyter nbconvert
--execute` does without `--allow-errors`; outputs are not compared. Shared setup keeps it fast on
the CI machine's 2 cores: two kernels per gateway, each started once and reused from notebook to
notebook (`%reset -f`, the notebook's folder and gateway variables set in between), so imports are
paid twice, not 11 times. About 70 s on 2 idle cores, so it runs as a CI step of its own
(`.ci/run` sets `TOOLKIT_MATRIX_TEST=1`), keeping `python3 course.py test` well under 5 minutes.

The mode-E run also records every request that goes through `connect()` (`LLM_RECORD`), and each
of weeks 1–10 must send at least one besides the probe's.
"""

import json
import os
import queue
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
DEAD = {"LLM_BASE_URL": "http://127.0.0.1:9/v1", "LLM_API_KEY": "not-a-key", "LLM_MODEL": "m"}
GATEWAYS = {"B": {}, "C": {}, "D": {}, "E": {}, "dead": DEAD}
RECORDED = "E"

pytestmark = pytest.mark.skipif(
    os.environ.get("TOOLKIT_MATRIX_TEST") != "1",
    reason="about 70 s: set TOOLKIT_MATRIX_TEST=1 (CI runs it as its own step)",
)
KERNELS = 2
PREPARE = """\
%reset -f
__import__("os").chdir({folder!r})
_ = [__import__("os").environ.pop(n) for n in list(__import__("os").environ) if n.startswith("LLM_")]
__import__("os").environ.update({env!r})
%reset -f
"""
"""Run before each notebook in a shared kernel: its folder, its gateway, and a namespace with no name in it."""


def private_notebooks(into: Path) -> Path:
    """A copy of notebooks/ in `into` (without what runs wrote there), for the notebooks to run in.
    In the checkout, their files (`out/w3-tool-accuracy.csv`, `out/w4-memory.sqlite`) were the ones
    `pytest --nbval` runs the same notebooks on in the next worker: one's gateway's answers could be
    read back by the other, and a learner's own results were overwritten by a test run."""
    copy = into / "notebooks"
    shutil.copytree(ROOT / "notebooks", copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "out"))
    return copy


def gateway_env(gateway: str, record: Path | None = None) -> dict[str, str]:
    env = dict(GATEWAYS[gateway] or {"LLM_FAKE_MODE": gateway})
    if record is not None:
        env["LLM_RECORD"] = str(record)
    return env


def run_code(client, code: str) -> str:
    """ "" when `code` ran, else its error as `Name: value`."""
    errors = []

    def hook(message):
        if message["msg_type"] == "error":
            errors.append(f"{message['content']['ename']}: {message['content']['evalue']}")

    reply = client.execute_interactive(code, timeout=180, output_hook=hook)
    if reply["content"]["status"] == "error":
        return errors[-1] if errors else f"{reply['content']['ename']}: {reply['content']['evalue']}"
    return ""


def execute_all(gateway: str, jobs: "queue.Queue[Path]", record, folder: Path) -> list[str]:
    """One kernel (shared setup: started once, imports stay loaded) runs notebooks from `jobs` until
    none is left; each notebook starts from a reset namespace in `folder` (`private_notebooks`)."""
    from jupyter_client.manager import start_new_kernel

    base = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    base["PYTHONPATH"] = os.pathsep.join([str(ROOT), base.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    manager, client = start_new_kernel(kernel_name="python3", env=base)
    failures = []
    try:
        while True:
            try:
                path = jobs.get_nowait()
            except queue.Empty:
                return failures
            setup = PREPARE.format(folder=str(folder), env=gateway_env(gateway, record(path)))
            error, where = run_code(client, setup), "(the matrix's own setup)"
            for cell in nbformat.read(path, as_version=4).cells:
                if error:
                    break
                if cell.cell_type == "code" and cell.source.strip():
                    error = run_code(client, cell.source)
                    where = cell.source.strip().splitlines()[0][:80]
            if error:
                failures.append(f"{path.name} on {gateway}, cell starting {where!r}: {error}")
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


@pytest.mark.matrix
@pytest.mark.parametrize("gateway", list(GATEWAYS))
def test_every_notebook_runs_to_the_end(gateway, tmp_path):
    def record(path: Path) -> Path | None:
        return tmp_path / f"{path.stem}.jsonl" if gateway == RECORDED else None

    jobs: queue.Queue[Path] = queue.Queue()
    for path in sorted(NOTEBOOKS, key=lambda p: -p.stat().st_size):  # the longest first: balanced kernels
        jobs.put(path)
    folder = private_notebooks(tmp_path)
    with ThreadPoolExecutor(KERNELS) as pool:
        parts = pool.map(lambda _: execute_all(gateway, jobs, record, folder), range(KERNELS))
        failures = [f for part in parts for f in part]
    assert not failures, "\n".join(failures)
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
