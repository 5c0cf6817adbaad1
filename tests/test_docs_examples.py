"""The examples in the package's module docstrings (what `help(module)` shows a stranger) run.

Each indented block of a module docstring that is Python and calls something is run in the module's
own namespace plus `toolkit`'s public names, after a few lines of setup that stand in for what the
sketch leaves to the reader (`model`, `messages`, `result` …), in an empty folder. A module whose
example cannot run here says why in `NOT_RUN`; a new example is in neither table, and the first
test names it.
"""

from __future__ import annotations

import ast
import importlib
import re
import textwrap
from pathlib import Path

import pytest

import toolkit

ROOT = Path(__file__).resolve().parents[1]

A_TURN = 'result = run_loop(connect(), "帮我查一下订单 SN202610200001", registry=shop_registry())\n'
ASSISTANT = """
from typing import Annotated, Protocol
from pydantic import BaseModel

class OrderSummary(BaseModel):
    order_id: str
    status: str
"""

SETUP: dict[str, str] = {
    "toolkit.course.assistant": "",
    "toolkit.course.prompt_protocol": "from toolkit.course.assistant import ask\n",
    "toolkit.course.shop": "import datetime\n",
    "toolkit.exercises": "answer = {}\n",
    "toolkit.exercises.cells": "",
    "toolkit.exercises.grade": "Path('submissions').mkdir()\nPath('submissions/broken.ipynb').write_text('{')\n",
    "toolkit.loop.run": "model = connect()\n",
    "toolkit.loop.wrappers": (
        "from dataclasses import replace\nfrom toolkit.mcp.server import shop_server\ntime = McpClient(shop_server())\n"
    ),
    "toolkit.mcp.client": "from toolkit.mcp.server import shop_server\nserver = shop_server()\n",
    "toolkit.search.catalog": "",
    "toolkit.search.embeddings": "",
    "toolkit.search.tool": "from toolkit.search.catalog import catalog_tools, load_catalog\n"
    "model, messages, memory = connect(), 'refund my order', ChatMemory('u1')\n",
    "toolkit.search.vector": "from toolkit.search.catalog import load_catalog\n"
    "from toolkit.search.embeddings import StaticEmbeddings, ToolEmbeddingCache\n"
    "specs = load_catalog().tools\n",
    "toolkit.services.declare": ASSISTANT,
    # the two service modules' examples are read together: the declaration, then the service
    "toolkit.services.service": ASSISTANT + "DECLARED\n",
    "toolkit.skills.course": "",
    "toolkit.skills.offer": (
        "from toolkit import data\n"
        "from toolkit.skills.course import open_logistics_ticket\n"
        "model, PROMPT = connect(), '你是电商客服。'\n"
        "Path('data').mkdir()\n"
        "Path('data/skills').symlink_to(data.path('skills'))\n"
    ),
    "toolkit.tools.decorator": "",
    "toolkit.tools.redact_stream": "pieces = ['my key is sk-proj-', 'abcdefghijklmnopqrstuvwxyz0123', ' ok']\n",
    "toolkit.views.playground": "",
    "toolkit.views.search_box": "",
    "toolkit.views.sequence": A_TURN,
    "toolkit.views.stepper": A_TURN,
    "toolkit.views.stream": ASSISTANT + "class Assistant(Protocol):\n"
    "    def stream(self, user: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> TokenStream: ...\n"
    "assistant = ai_service(Assistant, model=connect(), registry=shop_registry(), memory=memory_per_id())\n",
    "toolkit.views.tool_editor": "",
}

NOT_RUN = {
    "toolkit.mcp.provider": "it starts `python -m mcp_server_time`: tests/test_mcp.py runs providers on servers",
}

# The `...` a sketch leaves to the reader, filled in: (as written, as run).
FILLED = {
    "toolkit.loop.run": [
        ("[UserMessage(...)]", "[UserMessage(content='你好')]"),
        ("tools=[...], memory=...", "tools=[]"),
    ],
    "toolkit.search.catalog": [
        ('{"keyword": ..., "vector": ...}', '{"keyword": KeywordSearch(), "vector": VectorSearch()}')
    ],
    "toolkit.skills.offer": [
        ("UserMessage(...)", "UserMessage(content='订单 SN202610200001 三天没有物流更新，我要投诉')")
    ],
}

# What an example says it gives, checked after it ran.
CHECKS = {
    "toolkit.search.catalog": "assert (len(catalog.tools), len(catalog.queries)) == (329, 70)\n"
    "assert [row.size for row in rows][::3] == [70, 100, 200, 329]\n",
    "toolkit.search.embeddings": "assert (vectors.shape, str(vectors.dtype)) == ((2, 64), 'float32')\n",
}


def _blocks(doc: str) -> list[str]:
    """The indented blocks of `doc`, dedented, each that is Python and calls something."""
    found, current = [], []
    for line in [*doc.splitlines(), ""]:
        if line.startswith("    ") or (current and not line.strip()):
            current.append(line)
            continue
        block = textwrap.dedent("\n".join(current)).strip("\n")
        current = []
        try:
            compile(block, "<docstring>", "exec")
        except SyntaxError:
            continue
        if "(" in block:
            found.append(block)
    return found


def _examples() -> dict[str, list[str]]:
    """Module name → its docstring's runnable-looking blocks, for every module of the package."""
    found = {}
    for path in sorted((ROOT / "toolkit").rglob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        if doc and (blocks := _blocks(doc)):
            found[name] = blocks
    return found


EXAMPLES = _examples()


def test_every_module_example_is_run_or_says_why_not():
    assert sorted(set(EXAMPLES) - set(SETUP) - set(NOT_RUN)) == []
    assert sorted((set(SETUP) | set(NOT_RUN)) - set(EXAMPLES)) == []


@pytest.mark.parametrize("name", sorted(SETUP))
def test_a_module_docstring_example_runs(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for variable in ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL", "LLM_RECORD", "LLM_REPLAY", "LLM_FAKE_MODE"):
        monkeypatch.delenv(variable, raising=False)
    module = importlib.import_module(name)
    namespace = {public: getattr(toolkit, public) for public in toolkit.__all__} | vars(module)
    namespace = {"Path": Path, **namespace, "__name__": "__docs__"}
    setup = SETUP[name].replace("DECLARED", "\n".join(EXAMPLES.get("toolkit.services.declare", [])))
    exec(compile(setup, f"<setup of {name}>", "exec"), namespace)
    for block in EXAMPLES[name]:
        for written, run in FILLED.get(name, []):
            assert written in block, f"{name}: the docstring no longer has {written!r}; update FILLED"
            block = block.replace(written, run)
        exec(compile(block, f"<docstring of {name}>", "exec"), namespace)
    exec(CHECKS.get(name, ""), namespace)


README = (ROOT / "README.md").read_text(encoding="utf-8")

# README's list of what the entry points accept and refuse, each call as README writes it (in backticks), run after
# README's ```python block: True where it is accepted, the error type where it is refused.
README_CALLS = {
    'run_loop(client, "帮我查一下订单 SN202610200001", tools=[query_order])': True,
    "load_shop(today=...)": True,
    "Gateway(faults=None)": True,
    "ScriptedModel(...)": True,
    "ChatClient(base_url, api_key, model)": True,
}
FILLED_README = {
    "load_shop(today=...)": 'load_shop(today="2026-10-25")',
    "ScriptedModel(...)": "ScriptedModel(['the answer'])",
    "ChatClient(base_url, api_key, model)": "ChatClient('http://127.0.0.1:9/v1', 'sk-test', 'm')",
}
# What README says each refuses, as it writes it (in backticks), and the call that says it.
README_REFUSALS = {
    'memory="ann"': 'run_loop(client, "你好", memory="ann")',
    "options={...}": 'run_loop(client, "你好", options={})',
    "options=None": None,
    "None": "run_loop(client, None)",
    "mode=": "connect(base_url='http://127.0.0.1:9/v1')",
    "ScriptedModel(...)": "ScriptedModel('the answer')",
    "@user_message": "user_message(lambda question: None)",
}


def test_the_readme_python_block_and_the_calls_it_names_run_from_the_checkout(tmp_path, monkeypatch):
    """The wheel test runs README's ```python block from an installed wheel (when asked); this runs it, and
    the calls README's list of entry points shows in backticks, from the checkout on every run."""
    monkeypatch.chdir(tmp_path)
    for variable in ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL", "LLM_RECORD", "LLM_REPLAY", "LLM_FAKE_MODE"):
        monkeypatch.delenv(variable, raising=False)
    [block] = re.findall(r"```python\n(.*?)```", README, re.S)
    public = {name: getattr(toolkit, name) for name in toolkit.__all__}
    namespace: dict[str, object] = {"__name__": "__readme__"}
    exec(compile(block, "<README.md>", "exec"), namespace)
    assert namespace["result"].answer == "为您查到：订单 SN202610200001：已发货。"
    for written in README_CALLS:
        assert f"`{written}`" in README, f"README no longer has `{written}`; update README_CALLS"
        value = eval(FILLED_README.get(written, written), {**public, **namespace})
        assert value is not None
    same = eval(next(iter(README_CALLS)), {**public, **namespace})
    assert same.answer == namespace["result"].answer
    assert str(eval("load_shop(today='2026-10-25')", public).today) == "2026-10-25"
    for written, call in README_REFUSALS.items():
        assert f"`{written}`" in README, f"README no longer has `{written}`; update README_REFUSALS"
        if call is not None:
            with pytest.raises(toolkit.ConfigurationError):
                eval(call, {**public, **namespace})


COURSE_MAP = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
DOCS = {
    "README.md": README,
    "notebooks/README.md": COURSE_MAP,
    **{f"docs/{path.name}": path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md"))},
}
"""The texts a stranger follows, by their path in the repository."""


def _subcommand_options() -> dict[str, dict[str, object]]:
    """Each subcommand → its option strings and each one's default, as `toolkit SUBCOMMAND --help` lists them."""
    from toolkit.cli.main import COMMANDS, build_parser

    options = {}
    for name in COMMANDS:
        [subparsers] = [a for a in build_parser(command=name)._actions if a.dest == "command"]
        child = subparsers.choices[name]
        options[name] = {string: action.default for string, action in child._option_string_actions.items()}
    return options


def _command_lines(text: str, commands: list[str]) -> list[tuple[str, str]]:
    """Each `toolkit SUBCOMMAND …` (or `python -m toolkit …`) a text shows: (subcommand, the rest of its line,
    up to a closing backtick or a `#` comment)."""
    pattern = re.compile(r"toolkit (" + "|".join(map(re.escape, commands)) + r")\b([^`\n#]*)")
    return pattern.findall(text)


def test_every_option_the_docs_show_for_a_subcommand_is_one_of_its_options():
    """README's synopsis, the course map and the teachers' guide name options by hand: an option renamed or
    removed in the code left a command a stranger copies that fails with argparse's usage error."""
    options = _subcommand_options()
    unknown, shown = [], 0
    for path, text in DOCS.items():
        for command, rest in _command_lines(text, list(options)):
            for option in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", rest):
                shown += 1
                if option not in options[command]:
                    unknown.append(f"{path}: toolkit {command} {option}")
    assert unknown == []
    assert shown > 20, "the docs' command lines were not found; update _command_lines"


def test_a_default_the_docs_show_in_brackets_is_the_options_default():
    """`[--port 18083]`, `[--out grades.csv]`: a value shown in brackets for an option that has a default is that
    default, what the stranger gets without it (for one without, `[--scores scores.csv]`, it is an example)."""
    options = _subcommand_options()
    shown = {}
    for path, text in DOCS.items():
        for command, rest in _command_lines(text, list(options)):
            for option, value in re.findall(r"\[(--[a-z][a-z0-9-]*) ([^\]\sA-Z|][^\]\s|]*)\]", rest):
                if options[command][option] is not None:
                    shown[f"{path}: toolkit {command} {option}"] = (value, str(options[command][option]))
    assert {name: pair for name, pair in shown.items() if pair[0] != pair[1]} == {}
    assert len(shown) >= 3, "the docs' bracketed defaults were not found; update the pattern"
    [synopsis] = [block for block in re.findall(r"```\n(toolkit .*?)```", README, re.S)]
    required = [  # README's synopsis: an option outside brackets reads as one that must be given
        f"toolkit {command} {option}"
        for command, rest in _command_lines(synopsis, list(options))
        for option in re.findall(r"(?<![\[\w-])--[a-z][a-z0-9-]*", rest)
        if options[command][option] is not None
    ]
    assert required == []


def _markdown_texts() -> list[tuple[Path, str]]:
    """Every markdown text of the repository a stranger reads, and the markdown cells of each notebook."""
    import json

    texts = [(ROOT / path, text) for path, text in DOCS.items()]
    texts += [(ROOT / "benchmarks" / "README.md", (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8"))]
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        texts.append((notebook, "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")))
    return texts


def _headings(path: Path) -> set[str]:
    """The anchors GitHub and JupyterLab give a markdown file's headings (lower case, punctuation dropped, `-` for
    each space)."""
    titles = re.findall(r"^#+ (.*)$", path.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-") for title in titles}


def test_every_relative_link_in_the_docs_and_notebooks_leads_somewhere():
    """A link to a file of the repository (`../docs/teaching.md`, `README.md#self-check-week-by-week`, the next
    week's notebook) points at a file that is there and, after a `#`, at one of its headings."""
    broken, followed = [], 0
    for path, text in _markdown_texts():
        for target in re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'href="([^"]+)"', text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # a web address: not followed offline
            followed += 1
            file, _, anchor = target.partition("#")
            destination = (path.parent / file) if file else path
            if not destination.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and destination.suffix == ".md" and anchor not in _headings(destination):
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []
    assert followed > 20


def test_the_course_maps_record_and_replay_block_runs_as_written(tmp_path):
    """notebooks/README's ```bash block: record an eval against a gateway (the three variables set: here the fake
    gateway over HTTP), then replay it with none of them set, offline, on another day; both CSVs the same."""
    import os
    import subprocess
    import sys

    from toolkit.gateway.server import Gateway, running_gateway

    [block] = [b for b in re.findall(r"```bash\n(.*?)```", COURSE_MAP, re.S) if "LLM_REPLAY" in b]
    lines = [line.split("#")[0].split() for line in block.strip().splitlines()]
    assert [words[:5] for words in lines] == [
        ["LLM_RECORD=w3-real.jsonl", "python", "-m", "toolkit", "eval"],
        ["LLM_REPLAY=w3-real.jsonl", "python", "-m", "toolkit", "eval"],
    ]
    base = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    done = []
    with running_gateway(gateway=Gateway("A")) as base_url:
        gateway = {"LLM_BASE_URL": base_url, "LLM_API_KEY": "sk-docs-key-0123456789", "LLM_MODEL": "fake-keyword"}
        for words, env in zip(lines, (gateway, {}), strict=True):
            variable, value = words[0].split("=")
            command = [sys.executable, *words[2:]]
            done.append(
                subprocess.run(
                    command, cwd=tmp_path, capture_output=True, text=True, env={**base, **env, variable: value}
                )
            )
    assert [(run.returncode, run.stdout.splitlines()[-1]) for run in done] == [(0, "wrote w3-real.csv")] + [
        (0, "wrote w3-replay.csv")
    ], [run.stderr for run in done]
    assert done[1].stdout.startswith("running 25 cases against replay of cassette w3-real.jsonl")
    assert (tmp_path / "w3-replay.csv").read_bytes() == (tmp_path / "w3-real.csv").read_bytes()
    assert "sk-docs-key-0123456789" not in (tmp_path / "w3-real.jsonl").read_text(encoding="utf-8")


def _description(annotation: object, doc: str = "", default: object = None) -> str:
    """The description the model reads for `x`, declared with `annotation` (and `default`), under a Google-style
    docstring that describes it as `doc` when given."""
    from toolkit.tools.reflect import reflect

    def tool(x: str) -> str:
        return x

    tool.__annotations__ = {"x": annotation, "return": str}
    if default is not None:
        tool.__defaults__ = (default,)
    tool.__doc__ = f"Do.\n\n    Args:\n        x: {doc}\n    " if doc else None
    return str(reflect(tool).spec.parameters["properties"]["x"]["description"])


def test_the_readme_order_of_parameter_descriptions_holds():
    """README: the first of Param, Field, the docstring, a bare string or `Doc`; the declarations on the parameter
    that disagree (Param, Field, a bare string, `Doc`) are refused, and the docstring never conflicts: it loses to
    Param and Field and wins over a bare string and `Doc`. Before, README named only Param, Field and a bare string
    as conflicting and said the docstring loses to all three."""
    from typing import Annotated

    from pydantic import Field
    from typing_extensions import Doc

    paragraph = " ".join(README.split("A tool's parameter descriptions", 1)[1].split("\n\n", 1)[0].split())
    assert "`Param`, `Field`, a bare string and `Doc` that disagree are a `ToolDefinitionError`" in paragraph
    assert "it loses to `Param` and `Field` and wins over a bare string and `Doc`" in paragraph
    param, field = toolkit.Param("param"), Field(description="field")
    assert _description(Annotated[str, param], "docstring") == "param"
    assert _description(Annotated[str, field], "docstring") == "field"
    assert _description(str, "docstring", default=Field(description="field")) == "field"
    assert _description(Annotated[str, "bare"], "docstring") == "docstring"
    assert _description(Annotated[str, Doc("doc")], "docstring") == "docstring"
    assert _description(Annotated[str, Doc("doc")]) == "doc"
    for one, other in [(param, field), (param, "bare"), (param, Doc("doc")), (field, "bare"), (field, Doc("d"))]:
        with pytest.raises(toolkit.ConfigurationError, match="two different descriptions"):
            _description(Annotated[str, one, other])
    with pytest.raises(toolkit.ConfigurationError, match="two different descriptions"):
        _description(Annotated[str, "bare", Doc("doc")])


def _fenced_blocks(text: str) -> list[str]:
    """The text of each fenced code block (```` ``` ```` or ```` ```lang ````, to the closing fence)."""
    blocks, current = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append("".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_the_readme_install_block_names_every_extra():
    """pyproject's extras a stranger installs by name (`test` comes with `dev`): README's block listed `course` and
    `dev` but not `embeddings` (the full all-MiniLM-L6-v2), nor that torch must come first (else pip resolves a
    CUDA build of several GB), which only pyproject's comment and an error message said."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    [block] = [b for b in _fenced_blocks(README) if b.startswith("pip install")]
    named = set(re.findall(r'"\.\[(\w+)\]"', block))
    assert named == set(extras) - {"test"}
    torch = next(line for line in block.splitlines() if "[embeddings]" in line)
    assert torch.startswith("pip install torch==2.13.0 && pip install") and "first" in torch
