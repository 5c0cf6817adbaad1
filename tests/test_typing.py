"""What a learner's IDE and type checker see: real types for every exported name, and a
misspelt import is an error (the lazy exports are hidden from checkers)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api", reason="mypy is in the `dev` extra (CI installs it)")

ROOT = Path(__file__).resolve().parents[1]


SNIPPETS = {
    "learner_types.py": """
        import toolkit
        from toolkit import ChatModel, LoopResult, run_loop, tool
        reveal_type(toolkit.run_loop)
        reveal_type(toolkit.ScriptedModel)
        reveal_type(tool)
        """,
    "learner_typo.py": "from toolkit import nope_not_real\n",
    "learner_tools.py": """
        from toolkit import tool


        @tool("查询订单")
        def query_order(orderId: str) -> str:
            return orderId


        @tool
        def plain(x: int) -> int:
            return x


        class Shop:
            @tool
            @classmethod
            def stock(cls, sku: str) -> int:
                return 1


        reveal_type(query_order)
        reveal_type(plain)
        query_order(1, 2)
        plain("no")
        Shop.stock("A")
        """,
}


@pytest.fixture(scope="module")
def mypy_says(tmp_path_factory) -> dict[str, str]:
    """What mypy says of each snippet, from ONE run over all of them (each run reads the whole
    dependency graph, pydantic, httpx and mcp included: about a minute)."""
    folder = tmp_path_factory.mktemp("learner")
    sources = []
    for name, code in SNIPPETS.items():
        (folder / name).write_text(textwrap.dedent(code), encoding="utf-8")
        sources.append(str(folder / name))
    out, err, _ = api.run(
        [*sources, "--no-incremental", "--follow-imports=silent", "--python-version=3.11", "--no-error-summary"]
    )
    lines = (out + err).splitlines()
    return {name: "\n".join(line for line in lines if name in line) for name in SNIPPETS}


def test_exported_names_have_their_real_types(mypy_says):
    out = mypy_says["learner_types.py"]
    assert "def (model: toolkit.chat.model.ChatModel" in out  # run_loop, with its listed keywords
    assert "options: toolkit.loop.records.LoopOptions" in out
    assert "toolkit.chat.scripted.ScriptedModel" in out
    first = next(line for line in out.splitlines() if "Revealed type" in line)
    assert first.endswith('-> toolkit.loop.records.LoopResult"')  # a function type, not Any


def test_a_misspelt_import_is_an_error(mypy_says):
    assert 'Module "toolkit" has no attribute "nope_not_real"' in mypy_says["learner_typo.py"]
    assert "nope_not_real" not in mypy_says["learner_types.py"]


def test_the_package_is_marked_typed():
    assert (ROOT / "toolkit" / "py.typed").is_file()


def test_a_decorated_tool_keeps_its_signature_for_the_type_checker(mypy_says):
    """`@tool` returns the function itself, so mypy (strict or not) checks calls to it."""
    out = mypy_says["learner_tools.py"]
    assert 'Revealed type is "def (orderId: str) -> str"' in out
    assert 'Revealed type is "def (x: int) -> int"' in out
    assert 'Too many arguments for "query_order"' in out
    assert 'Argument 1 to "plain" has incompatible type "str"; expected "int"' in out
    assert "Untyped decorator" not in out and "Shop" not in out
