"""Committed notebooks are executed, clean and offline-friendly (nbval then checks their outputs)."""

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
ALLOWED_METADATA = {"kernelspec", "language_info"}
SECRET = re.compile(r"sk-[A-Za-z0-9]{16,}|LLM_API_KEY\s*=\s*['\"]?[A-Za-z0-9_\-]{12,}")
"""Something that looks like a real key (placeholders such as "sk-..." are fine)."""


def _cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 3


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_code_cell_was_executed_in_order(path):
    counts = [c["execution_count"] for c in _cells(path) if c["cell_type"] == "code" and "".join(c["source"])]
    assert None not in counts, "unexecuted code cell: run the notebook top to bottom and commit the outputs"
    assert counts == list(range(1, len(counts) + 1)), "cells were not run once, top to bottom, in a fresh kernel"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_metadata_is_stripped(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert set(notebook["metadata"]) <= ALLOWED_METADATA
    for cell in notebook["cells"]:
        assert set(cell.get("metadata", {})) <= {"tags"}, cell.get("metadata")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_views_are_stored_as_html_not_as_dangling_widget_references(path):
    for cell in _cells(path):
        for output in cell.get("outputs", []):
            assert "application/vnd.jupyter.widget-view+json" not in output.get("data", {}), (
                "run `python -m toolkit notebooks FILE` to store the notebook clean"
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_text_fallbacks_mean_something(path):
    meaningless = re.compile(r"<IPython\.core\.display\.\w+ object>|object at 0x|^\w+\((value|children)=")
    for cell in _cells(path):
        for output in cell.get("outputs", []):
            text = "".join(output.get("data", {}).get("text/plain", ""))
            assert not meaningless.search(text), f"a view stored without a readable fallback: {text[:80]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_pip_no_keys_no_errors(path):
    for cell in _cells(path):
        source = "".join(cell["source"])
        assert not re.search(r"^\s*[!%]pip", source, re.M), source
        assert not SECRET.search(source), "an API key in a cell"
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error" or "NBVAL_RAISES_EXCEPTION" in source
            if output.get("name") == "stderr":
                assert "Warning" not in "".join(output["text"]), "a warning in a stored output"


SEED_CITATION = re.compile(
    r"\bseeds?\b(?:'s)?[^\n]{0,40}?(?:§|\b0\d\d\b)"  # seed 003 §9, seed `000`, (seed §3.7), the seed's … (§6)
    r"|§[^\n]{0,40}?\bseeds?\b"  # § before the word
    r"|\b0\d\d\b`?,?\s*§"  # a bare document number with a section: 000 §3.4, `004`, §3.2
    r"|\bthe seed\b(?!\s+(?:of|for|value|number|=))"  # the seed as a document: as in the seed, the seed's table
    r"|\|\s*seeds?\s*\|",  # a table column of such citations
    re.IGNORECASE,
)
"""A citation of the internal source documents, which learners do not have (a random seed is fine)."""


def _seed_citations(text):
    return [line.strip() for line in text.splitlines() if SEED_CITATION.search(line)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_cite_sources_a_learner_can_open(path):
    found = [hit for cell in _cells(path) for hit in _seed_citations("".join(cell["source"]))]
    assert not found, f"cite the LangChain4j class or page, the OpenAI/MCP spec, or the course's section: {found}"


def test_the_course_map_cites_sources_a_learner_can_open():
    readme = NOTEBOOKS[0].parent / "README.md"
    found = _seed_citations(readme.read_text(encoding="utf-8"))
    assert not found, f"cite the LangChain4j class or page, the OpenAI/MCP spec, or the course's section: {found}"


ROOT = NOTEBOOKS[0].parents[1]
COURSE_TEXTS = [ROOT / "README.md", ROOT / "notebooks" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
DOTTED = re.compile(r"(?<![\w./-])toolkit(?:\.[A-Za-z_]\w*)++(?![{\w])")
"""A name in the package, such as `toolkit.course.validation.validate` (not a MIME type's `vnd.toolkit.x`, nor
an f-string's template `toolkit.exercises.week{week:02d}`)."""
SOURCE_PATH = re.compile(r"(?<![\w./-])toolkit/[\w/]+\.py\b")
"""A file of the package, such as `toolkit/loop/run.py`; `NN` stands for digits (`toolkit/exercises/weekNN.py`)."""


def _resolves(dotted):
    """Whether a dotted name is a module of the package, or an attribute reached from one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            if not hasattr(value, part):
                return False
            value = getattr(value, part)
        return True
    return False


def _names_that_do_not_exist(text):
    missing = [name for name in DOTTED.findall(text) if not _resolves(name)]
    for path in SOURCE_PATH.findall(text):
        if not list(ROOT.glob(path.replace("NN", "[0-9][0-9]"))):
            missing.append(path)
    return missing


def _notebook_text(path):
    """Every cell's source and every stored output: an error message shown there is course text too."""
    cells = _cells(path)
    return "\n".join(["".join(c["source"]) for c in cells] + [json.dumps(c.get("outputs", [])) for c in cells])


@pytest.mark.parametrize("path", NOTEBOOKS + COURSE_TEXTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_package_names_the_course_mentions_exist(path):
    text = _notebook_text(path) if path.suffix == ".ipynb" else path.read_text(encoding="utf-8")
    missing = _names_that_do_not_exist(text)
    assert not missing, f"a module, name or file of toolkit that is not there (renamed, moved?): {missing}"


def test_the_package_names_its_own_texts_mention_exist():
    found = {
        str(path.relative_to(ROOT)): missing
        for path in sorted((ROOT / "toolkit").rglob("*.py"))
        if (missing := _names_that_do_not_exist(path.read_text(encoding="utf-8")))
    }
    assert not found, f"error messages and docstrings name what is not there: {found}"


def test_the_sanitize_file_reads_in_a_c_locale():
    """nbval opens `--nbval-sanitize-with` in the locale's encoding: one non-ASCII character and, under
    `LC_ALL=C`, every notebook errored at setup with a UnicodeDecodeError before running a cell."""
    sanitize = NOTEBOOKS[0].parent / "sanitize.cfg"
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": "ascii"}
    read = "import sys; from nbval.plugin import get_sanitize_patterns; print(len(get_sanitize_patterns(open(sys.argv[1]).read())))"
    done = subprocess.run([sys.executable, "-c", read, str(sanitize)], env=env, capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert int(done.stdout) == len(re.findall(r"^regex:", sanitize.read_text(encoding="utf-8"), re.MULTILINE))


def test_week3_loop_by_hand_says_when_call_2_calls_a_tool_again(capsys, monkeypatch):
    """A real model may answer call 2 with another tool call (query_order after query_logistics): the
    cell printed "call 2 → None", as if the model had said nothing. It now names the calls."""
    from toolkit.chat.scripted import ScriptedModel, call

    path = next(p for p in NOTEBOOKS if p.name.startswith("03_"))
    monkeypatch.chdir(path.parent)
    for name in ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    sources = ["".join(c["source"]) for c in _cells(path) if c["cell_type"] == "code"]
    by_hand = next(i for i, s in enumerate(sources) if "call 2 →" in s)
    namespace: dict = {}
    for source in sources[: by_hand - 1]:  # everything up to call 1, on the embedded gateway
        exec(compile(source, path.name, "exec"), namespace)
    order = "SN202610200001"
    namespace["llm"] = ScriptedModel([call("query_logistics", orderId=order), call("query_order", orderId=order)])
    capsys.readouterr()
    for source in sources[by_hand - 1 : by_hand + 1]:  # call 1, then the cell that runs the tool and call 2
        exec(compile(source, path.name, "exec"), namespace)
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == (
        "call 2 → more tool calls, no answer yet: [('query_order', '{\"orderId\": \"SN202610200001\"}')]"
    )


def test_week2_shows_the_retried_statuses_the_client_retries():
    """Week 2's table of retried statuses is shown from the client's own (it lacked 424 when written by
    hand): its stored output names each of `RETRIED_STATUSES` (nbval checks it is what the code shows now)."""
    from toolkit.chat.client import RETRIED_STATUSES

    cells = _cells(NOTEBOOKS[[p.name for p in NOTEBOOKS].index("02_week2_reliable_calls.ipynb")])
    shown = next(c for c in cells if "RETRIED_STATUSES.items()" in "".join(c["source"]) and c["cell_type"] == "code")
    text = "".join(shown["outputs"][0]["data"]["text/plain"])
    assert sorted(int(row.split()[0]) for row in text.splitlines()[2:]) == sorted(RETRIED_STATUSES)
