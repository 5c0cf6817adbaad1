"""The package as users install it: build the wheel, install it into a fresh virtual
environment outside the checkout, and use it from another directory.

Slow (a venv and its dependencies), so it runs only when asked: `TOOLKIT_WHEEL_TEST=1` (CI sets
it in a step of its own, `.ci/run`), or `pytest -m wheel`.
"""

from __future__ import annotations

import csv
import os
import re
import signal
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import httpx
import pytest
from loopback import announced

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.wheel,
    pytest.mark.skipif(
        os.environ.get("TOOLKIT_WHEEL_TEST") != "1",
        reason="slow: set TOOLKIT_WHEEL_TEST=1 (CI runs it as its own step)",
    ),
]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A fresh venv where Binder's `.binder/postBuild` installed the package (non-editable),
    and the wheel `python -m build` makes, for its contents."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
    )
    [wheel] = dist.glob("*.whl")
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        ["bash", str(ROOT / ".binder" / "postBuild")], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "site-packages/toolkit/data" in done.stdout
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    return {
        "python": env_dir / "bin" / "python",
        "toolkit": env_dir / "bin" / "toolkit",
        "cwd": elsewhere,
        "wheel": wheel,
        "path": Path(env["PATH"].split(os.pathsep)[0]),
    }


def _run(installed: dict[str, Path], *argv: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = f"{installed['path']}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        list(argv), cwd=installed["cwd"], env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def _python(installed: dict[str, Path], code: str) -> subprocess.CompletedProcess[str]:
    return _run(installed, str(installed["python"]), "-c", textwrap.dedent(code))


def test_the_wheel_carries_the_data_and_the_type_marker(installed):
    import zipfile

    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    for expected in (
        "toolkit/py.typed",
        "toolkit/data/orders.json",
        "toolkit/data/gateway_rules.toml",
        "toolkit/data/prompts/ecom_support.txt",
        "toolkit/data/skills/logistics-complaint/SKILL.md",
        "toolkit/data/tool_catalog.json",
        "toolkit/data/models/minilm-l6-m2v-64/model.safetensors",
    ):
        assert expected in names


def test_the_installed_package_is_used_and_finds_its_data(installed):
    done = _python(installed, "import toolkit, toolkit.data; print(toolkit.__file__); print(toolkit.data.root())")
    assert done.returncode == 0, done.stderr
    module, data = done.stdout.split()
    assert "site-packages" in module and not module.startswith(str(ROOT))
    assert data.endswith("site-packages/toolkit/data")


def test_version_and_help(installed):
    version = _run(installed, str(installed["toolkit"]), "--version")
    assert version.returncode == 0 and re.fullmatch(r"toolkit \d+\.\d+\.\d+.*\n", version.stdout)
    assert _run(installed, str(installed["toolkit"]), "probe", "--help").returncode == 0


def test_drill_passes_every_case(installed):
    done = _run(installed, str(installed["toolkit"]), "drill")
    assert done.returncode == 0, done.stderr
    assert "32 passed, 0 failed" in done.stdout


def test_eval_runs_the_packaged_cases(installed):
    out = installed["cwd"] / "accuracy.csv"
    done = _run(installed, str(installed["toolkit"]), "eval", "--out", str(out))
    assert done.returncode in (0, 1), done.stderr  # 1 = below the pass line, still a complete run
    with open(out, encoding="utf-8") as f:
        assert len(list(csv.DictReader(f))) == 25


def test_gateway_answers_models_and_stops_on_sigterm(installed):
    command = [str(installed["toolkit"]), "gateway", "--port", "0"]  # it binds a port itself and announces it
    with announced(command, channel="stdout", cwd=installed["cwd"]) as (url, process):
        response = httpx.get(f"{url}/models", timeout=10)
        assert response.status_code == 200 and response.json()["object"] == "list"
    assert process.returncode in (0, -signal.SIGTERM)  # `announced` stopped it with SIGTERM


def test_the_readme_snippet_runs(installed):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippet = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    done = _python(installed, snippet + "\nprint(result.answer)\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


def test_shop_search_and_skills_from_the_wheel(installed):
    done = _python(
        installed,
        """
        from toolkit import KeywordSearch, VectorSearch, load_shop
        from toolkit.search.catalog import load_catalog
        from toolkit.skills.course import course_skills

        shop = load_shop()
        print(len(shop.orders))
        catalog = load_catalog()
        for strategy, query in ((KeywordSearch(), ["refund"]), (VectorSearch(), "refund my order")):
            found = strategy.search(strategy.index(catalog.tools), query)
            print(type(strategy).__name__, len(found) > 0)
        print(sorted(course_skills().by_name))
        """,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "8"
    assert lines[1:3] == ["KeywordSearch True", "VectorSearch True"]
    assert "logistics-complaint" in lines[3]


@pytest.mark.parametrize("notebook", ["00_welcome.ipynb", "03_week3_tool_calling.ipynb", "09_week9_mcp.ipynb"])
def test_notebooks_run_from_the_installed_package(installed, notebook):
    """A copy of a notebook outside the checkout runs top to bottom on the installed package."""
    import shutil

    copy = installed["cwd"] / notebook
    shutil.copy(ROOT / "notebooks" / notebook, copy)
    done = _run(installed, str(installed["toolkit"]), "notebooks", str(copy))
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"executed and cleaned: {copy}" in done.stdout


def test_the_installed_import_is_lazy_and_every_export_resolves(installed):
    """`import toolkit` from the wheel loads none of the heavy dependencies, every name in `__all__`
    resolves on first use, and importing `toolkit.__main__` (as pdoc or Sphinx do) runs nothing."""
    done = _python(
        installed,
        """
        import importlib, sys
        import toolkit
        print(sorted(m for m in ("pandas", "ipywidgets", "httpx", "mcp", "numpy") if m in sys.modules))
        missing = [name for name in toolkit.__all__ if getattr(toolkit, name, None) is None]
        print(missing, len(toolkit.__all__))
        importlib.import_module("toolkit.__main__")
        print("imported")
        """,
    )
    assert done.returncode == 0, done.stderr
    import toolkit

    assert done.stdout.splitlines() == ["[]", f"[] {len(toolkit.__all__)}", "imported"]


USER_SCRIPT = """
from toolkit import ChatMemory, KeywordSearch, ScriptedModel, SqliteStore, call, connect, run_loop, tool
from toolkit.search.catalog import load_catalog


@tool
def add(a: int, b: int) -> int:
    \"\"\"Add two numbers.\"\"\"
    return a + b


result = run_loop(ScriptedModel([call("add", a=1, b=2), "3"]), "add", tools=[add])
search = KeywordSearch()
reveal_type(add)
reveal_type(result.answer)
reveal_type(connect())
reveal_type(ChatMemory("ann", store=SqliteStore(":memory:")).messages())
reveal_type(search.search(search.index(load_catalog().tools), ["refund"]))
add("1", 2)
"""


def test_a_users_strict_script_type_checks_against_the_installed_package(installed):
    """The wheel carries `py.typed`: mypy --strict, pointed at the venv the wheel went into, reads its
    types (no `Any` from the main entry points) and finds the one wrong call."""
    api = pytest.importorskip("mypy.api", reason="mypy is in the `dev` extra (CI installs it)")
    script = installed["cwd"] / "user_script.py"
    script.write_text(USER_SCRIPT, encoding="utf-8")
    out, err, _ = api.run(
        [str(script), "--strict", "--no-incremental", "--python-executable", str(installed["python"])]
    )
    lines = [line.split(": ", 1)[1] for line in (out + err).splitlines() if line.startswith(str(script))]
    assert lines == [
        'note: Revealed type is "def (a: int, b: int) -> int"',
        'note: Revealed type is "str | None"',
        'note: Revealed type is "toolkit.chat.client.ChatClient"',
        'note: Revealed type is "list[toolkit.chat.messages.SystemMessage | toolkit.chat.messages.UserMessage'
        ' | toolkit.chat.messages.AssistantMessage | toolkit.chat.messages.ToolResultMessage]"',
        'note: Revealed type is "list[toolkit.search.keyword.Match]"',
        'error: Argument 1 to "add" has incompatible type "str"; expected "int"  [arg-type]',
    ]
