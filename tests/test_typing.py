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
    "learner_service.py": """
        from typing import Annotated, Protocol

        from toolkit import MemoryId, UserText, ai_service, compensates, connect, memory_per_id
        from toolkit import system_message, user_message


        class Desk(Protocol):
            @system_message("你是电商客服。")
            def chat(self, user: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

            @user_message("总结订单 {{order_id}}")
            def summarize(self, user: Annotated[str, MemoryId], order_id: str) -> str: ...


        desk = ai_service(Desk, model=connect(), memory=memory_per_id())
        reveal_type(desk)
        reveal_type(desk.chat)
        reveal_type(desk.summarize)
        desk.chat("ann")


        @compensates("reserve_stock")
        def release_stock(sku: str, quantity: int) -> None: ...


        reveal_type(release_stock)
        release_stock("A", "2")
        """,
    "learner_connect.py": """
        from toolkit import Gateway, connect, fake_client

        connect(timeout=5, sleep=lambda seconds: None)
        connect(timeout="soon")
        fake_client(gateway=Gateway(faults=["slow"]), mode="B", retry=3)
        fake_client(gateway="B")
        """,
    "learner_search.py": """
        from collections.abc import Collection, Sequence

        from toolkit import KeywordSearch, SearchStrategy, ToolSearch, ToolSpec, VectorSearch
        from toolkit.search.keyword import Match


        class Mine:
            takes = "text"

            @property
            def spec(self) -> ToolSpec:
                return ToolSpec(name="find_tools")

            @property
            def example(self) -> str:
                return '{"q": "refund"}'

            def parse(self, text: str) -> str:
                return text

            def index(self, tools: Sequence[ToolSpec]) -> list[ToolSpec]:
                return list(tools)

            def search(self, found: list[ToolSpec], q: str, names: Collection[str] | None = None) -> list[Match]:
                return []


        strategies: list[SearchStrategy] = [KeywordSearch(), VectorSearch(), Mine()]
        ToolSearch(KeywordSearch())
        ToolSearch(Mine())
        ToolSearch("terms")
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


def test_a_declared_protocol_becomes_a_typed_service(mypy_says):
    """Before: `ai_service(Desk, ...)` with the course's `class Desk(Protocol)` was mypy's
    `Only concrete class can be given where "type[Desk]" is expected`, and `@system_message`,
    `@user_message` and `@compensates` made what they decorate `Any` (a wrong call went unseen)."""
    out = mypy_says["learner_service.py"]
    assert "type-abstract" not in out and "Only concrete class" not in out
    assert 'Revealed type is "learner_service.Desk"' in out
    assert 'Revealed type is "def (user: str, question: str) -> str"' in out
    assert 'Revealed type is "def (user: str, order_id: str) -> str"' in out
    assert 'Missing positional argument "question" in call to "chat" of "Desk"' in out
    assert 'Revealed type is "def (sku: str, quantity: int)"' in out
    assert 'Argument 2 to "release_stock" has incompatible type "str"; expected "int"' in out


def test_the_client_options_of_connect_and_fake_client_are_typed(mypy_says):
    """Before: `**client_options` and `gateway` had no type (pyright strict: "Type of "connect" is
    partially unknown" on the import itself), so `connect(timeout="soon")` went unseen."""
    out = mypy_says["learner_connect.py"]
    assert ":4: error" not in out  # the first call is right
    assert 'Argument "timeout" to "connect" has incompatible type "str"; expected "float"' in out
    assert 'Argument "retry" to "fake_client" has incompatible type "int"; expected "RetryPolicy"' in out
    assert 'Argument "gateway" to "fake_client" has incompatible type "str"; expected "Gateway | None"' in out


def test_the_search_strategies_and_a_learners_own_meet_the_protocol(mypy_says):
    out = mypy_says["learner_search.py"]
    errors = [line.split(": error: ")[1] for line in out.splitlines() if ": error: " in line]
    assert errors == [
        'Argument 1 to "ToolSearch" has incompatible type "str"; expected "SearchStrategy | None"  [arg-type]'
    ]


def test_the_search_protocol_is_met_as_pyright_reads_it():
    """Before: pyright (VS Code's Pylance) refused `ToolSearch(KeywordSearch())`, the notebook's own
    line: `KeywordSearch.takes` was a `ClassVar`, which pyright takes for no read-only property, and
    `search(index, terms, ...)` named its parameter other than the protocol's `query` (mypy, which
    checks neither, said nothing). The protocol's parameters are now positional-only (the callers
    pass them so), so any names fit, and no strategy declares a protocol property as a ClassVar."""
    import inspect
    from typing import get_type_hints

    from toolkit.search.keyword import KeywordSearch
    from toolkit.search.strategy import SearchStrategy
    from toolkit.search.vector import VectorSearch

    for method in ("parse", "index", "search"):
        parameters = list(inspect.signature(getattr(SearchStrategy, method)).parameters.values())[1:]
        assert {p.kind for p in parameters} == {inspect.Parameter.POSITIONAL_ONLY}, method
    properties = [name for name, value in vars(SearchStrategy).items() if isinstance(value, property)]
    assert sorted(properties) == ["example", "spec", "takes"]
    for strategy in (KeywordSearch, VectorSearch):
        hints = get_type_hints(strategy, include_extras=True)
        assert not {name for name in properties if "ClassVar" in str(hints.get(name, ""))}, strategy
        assert strategy.takes in ("terms", "text")
