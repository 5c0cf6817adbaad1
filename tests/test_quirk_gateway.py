"""Every notebook on gateways with one real provider's quirk each (`tests/quirk_gateway.py`): a
reasoning model's `<think>` text, DeepSeek's `reasoning_content` that must come back, `tools`
refused as Ollama / OpenRouter / llama.cpp refuse them, a strict server refusing `tool_choice`
and the other optional fields, no usage, arguments as an object, calls without ids or stream
`index`, `finish_reason: "function_call"`, a 429 on the first request, a model that never calls.

Each quirk set runs all eleven notebooks in one kernel (~25 s each), so the test is opt-in like
the matrix: `TOOLKIT_MATRIX_TEST=1`. Covers: every code cell ends without an error, and no live
stream card says "not executed" for a call that ran.
"""

import os
from pathlib import Path

import nbformat
import pytest

from tests.loopback import serving
from tests.quirk_gateway import quirky
from tests.test_notebook_matrix import PREPARE
from tests.test_stranger_gateway import run_code

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
QUIRKS = [
    "think,no_tools_ollama",
    "reasoning,refuse_options,no_usage",
    "no_tools_openrouter,limited_once",
    "no_tools_llamacpp,never_calls",
    "object_args,no_ids,no_index,function_call",
]

pytestmark = pytest.mark.skipif(
    os.environ.get("TOOLKIT_MATRIX_TEST") != "1",
    reason="about 25 s per quirk set: set TOOLKIT_MATRIX_TEST=1 (CI runs it with the matrix)",
)


@pytest.mark.matrix
@pytest.mark.parametrize("quirks", QUIRKS)
def test_every_notebook_runs_to_the_end_on_a_quirky_gateway(quirks):
    from jupyter_client.manager import start_new_kernel

    base = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    base["PYTHONPATH"] = os.pathsep.join([str(ROOT), base.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    failures, printed = [], {}
    with serving(quirky(*quirks.split(","))) as port:
        env = {"LLM_BASE_URL": f"http://127.0.0.1:{port}/v1", "LLM_API_KEY": "sk-quirky-key", "LLM_MODEL": "quirky"}
        manager, client = start_new_kernel(kernel_name="python3", env=base)
        try:
            for path in NOTEBOOKS:
                _, error = run_code(client, PREPARE.format(folder=str(path.parent), env=env))
                for number, cell in enumerate(nbformat.read(path, as_version=4).cells):
                    if error or cell.cell_type != "code" or not cell.source.strip():
                        continue
                    printed[path.name, number], error = run_code(client, cell.source)
                    if error:
                        failures.append(f"{path.name}, cell {number}: {error}")
        finally:
            client.stop_channels()
            manager.shutdown_kernel(now=True)
    assert failures == []
    streamed = [text for (name, _), text in printed.items() if name.startswith("04") and "done · finish reason" in text]
    assert streamed and not [text for text in streamed if "not executed" in text], streamed
