"""The course as a learner meets it: JupyterLab in a real Chromium, every cell run, widgets live.

A module fixture starts JupyterLab on a free loopback port with a token, throw-away config /
data / runtime / workspace / settings directories, a copy of the notebooks and no `LLM_*`
variables (so `connect()` answers from the fake gateway). Playwright drives Debian's Chromium
(`/usr/bin/chromium`, never a downloaded browser): open a notebook, Edit → Clear Outputs of All
Cells, Run → Run All Cells, wait until every code cell has its number, then check the live
ipywidgets views by their `tk-*` classes — week 3: a conversation with a tool-call card and the
accuracy table; week 6: the trace view, the conversation and the truth table, whose decision
must change when a control is clicked. Screenshots go to `out/browser/` (printed; `-s` shows).

Skipped, with the reason, when playwright or Chromium is missing (`.ci/run` installs Chromium).
Leaves out: other browsers, the classic notebook UI, comparing screenshots pixel by pixel.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SHOTS = ROOT / "out" / "browser"
CHROMIUM = ("/usr/bin/chromium", "chromium", "chromium-browser")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SETTINGS = {  # JupyterLab user settings: every cell in the DOM, no calls to the internet
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
}
TIMEOUT_MS = 60_000
WIDGET = ".widget-html-content .tk"  # a toolkit view rendered by the live ipywidgets front end


# 1. What the test needs, or a skip that says what is missing.

def _chromium() -> str:
    for candidate in CHROMIUM:
        found = shutil.which(candidate)
        if found:
            return found
    pytest.skip("Chromium not found (on Debian: apt-get install -y chromium)")


def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright; no browser download needed)")
    return sync_playwright


# 2. JupyterLab on loopback, isolated from the user's own Jupyter set-up.

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _lab_env(home: Path) -> dict[str, str]:
    """The environment less `LLM_*`, with Jupyter's per-user directories in `home`. The data
    path still includes the venv's share/jupyter, where the widget front end is installed."""
    dirs = {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_DATA_DIR": "data", "JUPYTER_RUNTIME_DIR": "runtime",
            "JUPYTERLAB_WORKSPACES_DIR": "workspaces", "JUPYTERLAB_SETTINGS_DIR": "settings",
            "IPYTHONDIR": "ipython"}
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    for var, name in dirs.items():
        (home / name).mkdir(parents=True, exist_ok=True)
        env[var] = str(home / name)
    for plugin, values in SETTINGS.items():
        path = home / "settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    return env


def _lab_command(port: int, token: str, root: Path) -> list[str]:
    root_flag = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}", *root_flag]


def _wait_until_it_answers(url: str, token: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"JupyterLab exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{url}/api/status", params={"token": token}, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    pytest.fail(f"JupyterLab did not answer within 60 s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """`(base URL, token)` of a JupyterLab serving a copy of notebooks/; stopped afterwards."""
    home = tmp_path_factory.mktemp("jupyter")
    root = home / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "out"))
    port, token = _free_port(), secrets.token_hex(16)
    log = home / "lab.log"
    with log.open("w") as sink:
        process = subprocess.Popen(_lab_command(port, token, root), env=_lab_env(home), cwd=root,
                                   stdout=sink, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_it_answers(url, token, process, log)
        yield url, token
    finally:
        process.terminate()  # the server shuts its kernels down on SIGTERM
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A headless Chromium context with a fresh profile."""
    executable, sync_playwright = _chromium(), _playwright()
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=executable,
            headless=True, args=CHROMIUM_FLAGS, viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(TIMEOUT_MS)
        try:
            yield context
        finally:
            context.close()


# 3. A learner's moves: open, clear, run all, wait.

def _menu(page, menu: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=menu).first.click()
    page.locator(".lm-Menu-item:visible .lm-Menu-itemLabel").get_by_text(item, exact=True).click()


def _code_cells(name: str) -> int:
    cells = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))["cells"]
    return sum(c["cell_type"] == "code" and bool("".join(c["source"]).strip()) for c in cells)


FINISHED = """expected => {
  const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
    .map(p => p.textContent.trim());
  if (prompts.some(p => p.includes('*'))) return false;
  const numbered = prompts.filter(p => /\\[\\d+\\]/.test(p)).length;
  const tracebacks = [...document.querySelectorAll('.jp-OutputArea-output')]
    .some(o => o.textContent.includes('Traceback'));
  return numbered === expected || tracebacks;
}"""


def _run_all(page, url: str, token: str, name: str) -> None:
    """Open `name`, clear its stored outputs, run every cell and wait until all have run."""
    page.goto(f"{url}/lab/tree/{name}?token={token}")
    page.locator(".jp-NotebookPanel .jp-CodeCell").first.wait_for()
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for()
    _menu(page, "Edit", "Clear Outputs of All Cells")
    page.wait_for_function("() => ![...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]"
                           ".some(p => /\\d/.test(p.textContent))")
    _menu(page, "Run", "Run All Cells")
    page.wait_for_function(FINISHED, arg=_code_cells(name), timeout=90_000)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for()
    _assert_no_errors(page, name)


def _assert_no_errors(page, name: str) -> None:
    outputs = page.locator(".jp-OutputArea-output").all_inner_texts()
    errors = [o for o in outputs if "Traceback" in o or "Error displaying widget" in o]
    assert not errors, f"{name}: " + "\n---\n".join(errors)[:4000]
    numbered = page.locator(".jp-CodeCell .jp-InputPrompt", has_text="[").all_inner_texts()
    assert sum(any(ch.isdigit() for ch in p) for p in numbered) == _code_cells(name)


def _shot(locator, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(path))
    print(f"screenshot: {path}")
    return path


def _view(page, heading: str | None = None, has=None):
    """The live toolkit view with this heading (or containing `has`), waited for."""
    views = page.locator(WIDGET)
    if heading is not None:
        views = views.filter(has=page.locator(".tk-heading", has_text=heading))
    if has is not None:
        views = views.filter(has=page.locator(has))
    view = views.first
    view.wait_for()
    return view


# 4. The notebooks.

def _tool_call_card(page):
    return page.locator(".tk-card.tk-tool").filter(
        has=page.locator(".tk-title", has_text="tool call"))


def test_week6_trace_conversation_and_a_truth_table_that_answers_clicks(lab, browser):
    name = "06_week6_round_trip_loop.ipynb"
    page = browser.new_page()
    _run_all(page, *lab, name)
    trace = _view(page, heading="Loop trace")
    assert trace.locator(".tk-card .tk-badge").count() > 0
    _shot(trace, "06-trace-view")
    conversation = _view(page, has=".tk-card.tk-tool .tk-title:has-text('tool call')")
    assert _tool_call_card(conversation).count() > 0
    _shot(conversation, "06-conversation-view")
    _truth_table_responds(page)
    _shot(page.locator(".jp-NotebookPanel"), "06-notebook")
    page.close()


def _truth_table_responds(page) -> None:
    widget = page.locator(".widget-vbox").filter(has=page.locator(".widget-toggle-buttons")).first
    widget.wait_for()
    decision = widget.locator(".tk-card .tk-badge").first
    before = decision.inner_text()
    _shot(widget, "06-truth-table-before")
    widget.locator(".widget-toggle-button", has_text="1").click()  # one call in the round
    page.wait_for_function("([el, old]) => el.textContent !== old",
                           arg=[decision.element_handle(), before])
    after_click = decision.inner_text()
    assert after_click != before and after_click in {"continue", "return immediately"}
    widget.locator("select").first.select_option("IMMEDIATE")  # call 1 returns at once
    page.wait_for_function("([el, old]) => el.textContent !== old",
                           arg=[decision.element_handle(), after_click])
    assert decision.inner_text() != after_click
    _shot(widget, "06-truth-table-after")


def test_week3_accuracy_table_and_a_tool_call_card(lab, browser):
    name = "03_week3_tool_calling.ipynb"
    if not (NOTEBOOKS / name).exists():
        pytest.skip(f"notebooks/{name} is not written yet")
    page = browser.new_page()
    _run_all(page, *lab, name)
    accuracy = _view(page, heading="tool-selection accuracy")
    assert accuracy.locator(".tk-table .tk-th", has_text="verdict").count() == 1
    assert accuracy.locator(".tk-badge", has_text="pass").count() > 0
    _shot(accuracy, "03-accuracy-table")
    conversation = _view(page, has=".tk-card.tk-tool .tk-title:has-text('tool call')")
    assert _tool_call_card(conversation).count() > 0
    _shot(conversation, "03-conversation-view")
    page.close()
