"""The course as a learner meets it: JupyterLab in a real Chromium, every cell run, widgets live.

A module fixture starts JupyterLab on a free loopback port with a token, throw-away config /
data / runtime / workspace / settings directories, a copy of the notebooks and no `LLM_*`
variables (so `connect()` answers from the fake gateway). Playwright drives Debian's Chromium
(`/usr/bin/chromium`, never a downloaded browser): open a notebook, Edit → Clear Outputs of All
Cells, Run → Run All Cells, wait until every code cell has its number, then check the live
ipywidgets views by their `tk-*` classes — week 3: a conversation with a tool-call card and the
accuracy table; week 6: the trace view, the conversation and the truth table, whose decision
must change when a control is clicked. Screenshots go to `out/browser/` (printed; `-s` shows).

The window is a learner's laptop: 1366 × 768, JupyterLab's file browser open. After a notebook
has run, no `tk-*` element and no table sticks out of its cell's output area (a part that scrolls
inside a box that fits is fine: the learner sees a scrollbar; cut off without one is not), and
the drill's id and raw-arguments cells each stay on one line (a broken id looks like another id
in a drill about whitespace).

Skipped, with the reason, when playwright or Chromium is missing (`.ci/run` installs Chromium);
with TOOLKIT_REQUIRE_BROWSER=1 a missing browser fails the test instead.
Leaves out: other browsers, the classic notebook UI, comparing screenshots pixel by pixel.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SHOTS = ROOT / "out" / "browser"
CHROMIUM = ("/usr/bin/chromium", "chromium", "chromium-browser")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SETTINGS = {  # JupyterLab user settings: every cell in the DOM, no calls to the internet
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
}
OFFLINE = [
    "--LabApp.extension_manager=readonly",
    "--LabApp.news_url=None",
    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
]
TIMEOUT_MS = 60_000
LAPTOP = {"width": 1366, "height": 768}  # the common learner's screen; the file browser stays open
DECISIONS = re.compile(r"^(continue|return immediately)$")
WIDGET = ".widget-html-content .tk"  # a toolkit view rendered by the live ipywidgets front end
TOOL_CALL = ".tk-card.tk-tool:has(> .tk-title:has-text('tool call'))"


# 1. What the test needs, or a skip that says what is missing.


def _missing(reason: str):
    """Skip, saying why; a failure instead where the browser is required (`.ci/run` may set
    TOOLKIT_REQUIRE_BROWSER=1 once it has installed Chromium)."""
    if os.environ.get("TOOLKIT_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}, and TOOLKIT_REQUIRE_BROWSER=1")
    pytest.skip(reason)


def _chromium() -> str:
    for candidate in CHROMIUM:
        found = shutil.which(candidate)
        if found:
            return found
    _missing("Chromium not found (on Debian: apt-get install -y chromium)")


def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install playwright; no browser download needed)")
    return sync_playwright


# 2. JupyterLab on loopback, isolated from the user's own Jupyter set-up.


def _lab_env(home: Path) -> dict[str, str]:
    """The environment less `LLM_*`, with Jupyter's per-user directories in `home`. The data
    path still includes the venv's share/jupyter, where the widget front end is installed."""
    dirs = {
        "JUPYTER_CONFIG_DIR": "config",
        "JUPYTER_DATA_DIR": "data",
        "JUPYTER_RUNTIME_DIR": "runtime",
        "JUPYTERLAB_WORKSPACES_DIR": "workspaces",
        "JUPYTERLAB_SETTINGS_DIR": "settings",
        "IPYTHONDIR": "ipython",
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    for var, name in dirs.items():
        (home / name).mkdir(parents=True, exist_ok=True)
        env[var] = str(home / name)
    for plugin, values in SETTINGS.items():
        path = home / "settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    return env


def _lab_command(token: str, root: Path) -> list[str]:
    root_flag = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port=0",  # the server binds a free port itself (`_lab_url` reads which)
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        *OFFLINE,
        *root_flag,
    ]


def _lab_url(runtime: Path, process: subprocess.Popen, log: Path) -> str:
    """`http://127.0.0.1:<port>` of the server `process`, from the `jpserver-<pid>.json` it writes in
    its own `runtime` directory once it has its port. No port is picked here and bound later by the
    server: a server another test starts meanwhile could take it."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"JupyterLab exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        for info in runtime.glob("jpserver-*.json"):
            with suppress(ValueError):  # being written: read it again
                return f"http://127.0.0.1:{json.loads(info.read_text())['port']}"
        time.sleep(0.2)
    pytest.fail(f"JupyterLab wrote no server file within 60 s:\n{log.read_text()[-3000:]}")


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


@dataclass(frozen=True)
class Lab:
    url: str
    """`http://127.0.0.1:<port>`."""
    token: str
    """The server's token (the browser passes it once, in the first URL)."""
    root: Path
    """The copy of notebooks/ it serves; the kernels run there too."""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab serving a copy of notebooks/ (taken now: edits made meanwhile don't count)."""
    home = tmp_path_factory.mktemp("jupyter")
    root = home / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "out"))
    token = secrets.token_hex(16)
    log = home / "lab.log"
    with log.open("w") as sink:
        process = subprocess.Popen(
            _lab_command(token, root), env=_lab_env(home), cwd=root, stdout=sink, stderr=subprocess.STDOUT
        )
    try:
        url = _lab_url(home / "runtime", process, log)
        _wait_until_it_answers(url, token, process, log)
        yield Lab(url, token, root)
    finally:
        process.terminate()  # the server shuts its kernels down on SIGTERM
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A headless Chromium context with a fresh profile; out/browser/ emptied for its screenshots."""
    executable, sync_playwright = _chromium(), _playwright()
    shutil.rmtree(SHOTS, ignore_errors=True)
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=executable,
            headless=True,
            args=CHROMIUM_FLAGS,
            ignore_default_args=["--hide-scrollbars"],  # a learner's scrollbars take room and show what scrolls
            viewport=LAPTOP,
        )
        context.set_default_timeout(TIMEOUT_MS)
        try:
            yield context
        finally:
            context.close()


# 3. A learner's moves: open, clear, run all, wait.


def _menu(page, menu: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=menu).first.click()
    page.locator(".lm-Menu-item:visible .lm-Menu-itemLabel").get_by_text(item, exact=True).click()


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _code_cells(path: Path) -> int:
    return sum(c["cell_type"] == "code" and bool("".join(c["source"]).strip()) for c in _cells(path))


KERNEL_IDLE = re.compile(r"^(?!No Kernel).+ \| Idle$")  # the status bar: "Python 3 (ipykernel) | Idle"
ALL_CELLS = "n => document.querySelectorAll('.jp-NotebookPanel .jp-Cell').length === n"
CLEARED = "() => ![...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].some(p => /\\d/.test(p.textContent))"
FINISHED = """expected => {
  const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
    .map(p => p.textContent.trim());
  if (prompts.some(p => p.includes('*'))) return false;
  const numbered = prompts.filter(p => /\\[\\d+\\]/.test(p)).length;
  const tracebacks = [...document.querySelectorAll('.jp-OutputArea-output')]
    .some(o => o.textContent.includes('Traceback'));
  return numbered === expected || tracebacks;
}"""


def _run_all(page, lab: Lab, name: str) -> None:
    """Open `name` once its kernel is idle, clear the stored outputs, run every cell, wait."""
    path = lab.root / name
    workspace = path.stem  # a fresh workspace per notebook: no tab restored from an earlier page
    page.goto(f"{lab.url}/lab/workspaces/{workspace}/tree/{name}?reset&token={lab.token}")
    page.get_by_text(KERNEL_IDLE).wait_for()
    page.wait_for_function(ALL_CELLS, arg=len(_cells(path)))
    _open_file_browser(page)
    _menu(page, "Edit", "Clear Outputs of All Cells")
    page.wait_for_function(CLEARED)
    _menu(page, "Run", "Run All Cells")
    page.wait_for_function(FINISHED, arg=_code_cells(path), timeout=90_000)
    page.get_by_text(KERNEL_IDLE).wait_for()
    outputs = page.locator(".jp-OutputArea-output").all_inner_texts()
    errors = [o for o in outputs if "Traceback" in o or "Error displaying widget" in o]
    assert not errors, f"{name}:\n" + "\n---\n".join(errors)[:4000]
    prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
    assert sum(bool(re.search(r"\[\d+\]", p)) for p in prompts) == _code_cells(path)


def _open_file_browser(page) -> None:
    """The left sidebar's file browser, open as a learner keeps it (it narrows the notebook)."""
    browser_panel = page.locator("#filebrowser")
    if not browser_panel.is_visible():
        page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab[data-id='filebrowser']").click()
    browser_panel.wait_for(state="visible")
    assert browser_panel.bounding_box()["width"] > 150, "the file browser is open but collapsed"


@contextmanager
def _notebook(browser, lab: Lab, name: str):
    """A page with `name` opened and run; on failure the whole window is saved as a screenshot."""
    if not (lab.root / name).exists():
        pytest.skip(f"notebooks/{name} does not exist yet")
    page = browser.new_page()
    try:
        _run_all(page, lab, name)
        yield page
    except BaseException:
        _shot(page, f"{name[:2]}-FAILED-window")
        raise
    finally:
        page.close()


def _shot(locator, name: str) -> Path:
    """A picture of `locator` whole, or of the page's window. JupyterLab scrolls the notebook in
    a panel, so a view taller than the window is shot in a window made taller for the moment
    (same width: the same layout)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    if not hasattr(locator, "scroll_into_view_if_needed"):  # the page: its window as it is
        locator.screenshot(path=str(path))
    else:
        page, box = locator.page, locator.bounding_box()
        tall = box is not None and box["height"] > LAPTOP["height"] - 200
        if tall:
            page.set_viewport_size({"width": LAPTOP["width"], "height": min(int(box["height"]) + 300, 10_000)})
        try:
            locator.scroll_into_view_if_needed()
            locator.screenshot(path=str(path))
        finally:
            if tall:
                page.set_viewport_size(LAPTOP)
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


def test_week6_trace_conversation_and_a_truth_table_that_answers_clicks(browser, lab):
    with _notebook(browser, lab, "06_week6_round_trip_loop.ipynb") as page:
        _week6(page)


def _week6(page) -> None:
    trace = _view(page, heading="Loop trace")
    assert trace.locator(".tk-card .tk-badge").count() > 0
    _shot(trace, "06-trace-view")
    conversation = _view(page, has=TOOL_CALL)
    assert conversation.locator(TOOL_CALL).first.locator(".tk-code").count() > 0
    _shot(conversation, "06-conversation-view")
    _truth_table_responds(page)
    _shot(page, "06-window")
    overflowing = page.evaluate(OVERFLOWING)
    assert not overflowing, "at 1366 px, file browser open, wider than the output area:\n" + "\n".join(overflowing)


def _truth_table_responds(page) -> None:
    """Click "1" (one call in the round), then pick IMMEDIATE for call 1: the decision follows."""
    from playwright.sync_api import expect

    widget = page.locator(".widget-vbox").filter(has=page.locator(".widget-toggle-buttons")).first
    decision = widget.locator(".tk-card .tk-badge").first  # re-rendered on every change
    expect(decision).to_have_text(DECISIONS, timeout=TIMEOUT_MS)
    before = decision.inner_text()
    _shot(widget, "06-truth-table-before")
    widget.locator(".widget-toggle-button", has_text="1").click()
    expect(decision).not_to_have_text(before, timeout=TIMEOUT_MS)  # the kernel answered
    after_click = decision.inner_text()
    assert DECISIONS.match(after_click)
    widget.locator("select").first.select_option("IMMEDIATE")
    expect(decision).not_to_have_text(after_click, timeout=TIMEOUT_MS)
    _shot(widget, "06-truth-table-after")


def test_week3_accuracy_table_and_a_tool_call_card(browser, lab):
    with _notebook(browser, lab, "03_week3_tool_calling.ipynb") as page:
        _week3(page)


def _week3(page) -> None:
    from playwright.sync_api import expect

    accuracy = _view(page, heading="tool-selection accuracy")
    summary, confusion, cases = (
        accuracy.locator(".tk-card").filter(has=page.locator(".tk-title", has_text=title)).first
        for title in ("summary", "confusion", "cases")
    )
    expect(summary).to_contain_text("tool-selection accuracy")
    expect(confusion.locator(".tk-table")).to_be_visible()
    assert cases.locator(".tk-th").get_by_text("verdict", exact=True).count() == 1
    assert cases.locator(".tk-badge", has_text="pass").count() > 0
    for part, locator in (("summary", summary), ("confusion", confusion), ("cases", cases)):
        _shot(locator, f"03-accuracy-{part}")
    conversation = _view(page, has=TOOL_CALL)
    assert conversation.locator(TOOL_CALL).first.locator(".tk-code").count() > 0
    _shot(conversation, "03-conversation-view")
    drill = _view(page, heading="argument drill")
    _shot(drill, "03-drill-view")
    for code, name in (('for mode in "ABCDE"', "03-probe-table"), ("write_csv(suite", "03-csv-table")):
        cell = page.locator(".jp-CodeCell").filter(has_text=code).first
        _shot(cell.locator(".jp-OutputArea"), name)
    # the assistant playground answers a question typed into it (the kernel runs the real loop)
    playground = page.locator(".widget-vbox").filter(has=page.locator("button", has_text="Send")).first
    playground.locator("input[type=text]").first.fill("你好")
    playground.locator("button", has_text="Send").click()
    expect(playground).to_contain_text(
        "answer after 1 model request · embedded fake keyword gateway", timeout=TIMEOUT_MS
    )
    _shot(playground, "03-playground")
    _shot(page, "03-window")
    overflowing = [f"wider than its output area: {o}" for o in page.evaluate(OVERFLOWING)]
    broken = [f"drill: {b}" for b in drill.evaluate(BROKEN_LINES, ["id", "raw arguments"])]
    assert not overflowing + broken, "at 1366 px, file browser open:\n" + "\n".join(overflowing + broken)


# 5. Layout at a learner's width, measured in the page.

OVERFLOWING = """() => {
  const scrolls = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  const ours = e => e.tagName === 'TABLE' || [...e.classList].some(c => c === 'tk' || c.startsWith('tk-'));
  const found = [], reported = [];  // the outermost element of each part that sticks out
  for (const out of document.querySelectorAll('.jp-NotebookPanel .jp-OutputArea-output')) {
    const area = out.getBoundingClientRect();
    const cell = out.closest('.jp-CodeCell');
    const prompt = cell ? cell.querySelector('.jp-InputPrompt').textContent.trim() : '?';
    for (const e of out.querySelectorAll('*')) {
      const box = e.getBoundingClientRect();
      if (!ours(e) || box.width === 0 || box.height === 0 || reported.some(r => r.contains(e))) continue;
      let left = box.left, right = box.right;  // what shows: clipped by a scrolling box inside the output
      for (let a = e.parentElement; a && a !== out; a = a.parentElement) {
        if (!scrolls(a)) continue;
        const clip = a.getBoundingClientRect();
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
      }
      const over = Math.max(right - area.right, area.left - left);
      if (over > 0.5) {
        reported.push(e);
        const name = e.tagName.toLowerCase() + [...e.classList].map(c => '.' + c).join('');
        const text = e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60);
        found.push(`${prompt} ${name} sticks out ${Math.round(over)} px (area ${Math.round(area.width)} px): ${text}`);
      }
    }
  }
  return found;
}"""
BROKEN_LINES = """(view, columns) => {
  const lines = cell => {  // text lines the cell's characters occupy
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    const centres = [];
    let smallest = Infinity;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width === 0 || r.height === 0) continue;
        centres.push((r.top + r.bottom) / 2);
        smallest = Math.min(smallest, r.height);
      }
    }
    centres.sort((a, b) => a - b);
    return centres.filter((c, i) => i === 0 || c - centres[i - 1] > smallest / 2).length;
  };
  const broken = [];
  for (const table of view.querySelectorAll('table')) {
    const heads = [...table.querySelectorAll('thead th')].map(th => th.textContent.trim());
    const wanted = columns.map(c => heads.indexOf(c)).filter(i => i >= 0);
    if (wanted.length !== columns.length) continue;
    for (const row of table.querySelectorAll('tbody tr')) {
      for (const i of wanted) {
        const n = lines(row.children[i]);
        if (n > 1) broken.push(`${heads[i]} on ${n} lines: ${row.children[i].textContent.trim()}`);
      }
    }
    return broken;
  }
  return [`no table with the columns ${columns.join(', ')}`];
}"""
