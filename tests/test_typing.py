"""What a learner's IDE and type checker see: real types for every exported name, and a
misspelt import is an error (the lazy exports are hidden from checkers)."""

from __future__ import annotations

import dataclasses
import textwrap
import typing
from collections import abc
from collections.abc import Iterator
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
    "learner_sources.py": """
        from collections.abc import Sequence
        from dataclasses import dataclass

        import numpy as np

        from toolkit import ChatMemory, Tool, VectorSearch, connect, run_loop
        from toolkit.chat.messages import Message
        from toolkit.loop.sources import ProviderRequest
        from toolkit.skills.course import course_skills


        @dataclass(frozen=True)
        class Flags:
            dynamic: bool = False

            def provide(self, req: ProviderRequest) -> Sequence[Tool]:
                return []


        class Always:
            @property
            def dynamic(self) -> bool:
                return True

            def provide(self, req: ProviderRequest) -> list[Tool]:
                return []


        class Notes:
            def __init__(self) -> None:
                self.saved: dict[str, list[Message]] = {}

            def get(self, key: str) -> list[Message]:
                return self.saved.get(key, [])

            def set(self, key: str, history: Sequence[Message]) -> None:
                self.saved[key] = list(history)

            def delete(self, key: str) -> None:
                self.saved.pop(key, None)


        @dataclass(frozen=True)
        class Hashing:
            name: str = "hashing"

            def embed(self, batch: Sequence[str]) -> np.ndarray:
                return np.zeros((len(batch), 8), dtype=np.float32)


        run_loop(connect(), "hi", providers=[course_skills().provider(), Flags(), Always()])
        ChatMemory("ann", store=Notes())
        VectorSearch(model=Hashing())
        run_loop(connect(), "hi", providers=[Notes()])
        """,
    "learner_policies.py": """
        from toolkit import ArgumentError, LoopOptions, Policies, ToolCall, UnknownToolError
        from toolkit.errors import ToolExecutionError
        from toolkit.tools.execute import report_argument_error


        def fields_only(error: ArgumentError, call: ToolCall) -> str:
            return call.name + ": " + ", ".join(str(problem) for problem in error.problems)


        def list_tools(error: UnknownToolError, call: ToolCall) -> str:
            return str(error)


        def name_the_tool(error: ToolExecutionError, call: ToolCall) -> str:
            return f"{error.tool_name} failed"


        LoopOptions(policies=Policies(unknown_tool=list_tools, argument_error=fields_only, execution_error=name_the_tool))
        Policies(argument_error=report_argument_error)
        Policies(argument_error=list_tools)
        """,
}


@pytest.fixture(scope="module")
def mypy_says(tmp_path_factory) -> dict[str, str]:
    """What mypy says of each snippet, from ONE run over all of them. A run reads the whole dependency
    graph, pydantic, httpx and mcp included (about 20 s of CPU): it uses the project's own options and
    mypy's cache (`.mypy_cache`, checked by mypy against each file's hash), so after `mypy` (CI runs it
    first) or an earlier run only the snippets are read anew (under a second)."""
    folder = tmp_path_factory.mktemp("learner")
    sources = []
    for name, code in SNIPPETS.items():
        (folder / name).write_text(textwrap.dedent(code), encoding="utf-8")
        sources.append(str(folder / name))
    out, err, _ = api.run([*sources, "--no-error-summary"])  # pyproject's [tool.mypy], as `mypy` runs it
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


def test_a_learners_providers_stores_and_embeddings_meet_the_protocols(mypy_says):
    """Before: the week-10 notebook's `providers=[skills.provider()]` was refused by mypy and pyright
    ("ToolProvider.dynamic expected settable variable, got read-only attribute": its `dynamic` is a
    property), and so was a provider written as a frozen dataclass, or an embedding model whose `name`
    is a frozen field. The loop only reads them: the protocols now say so."""
    out = mypy_says["learner_sources.py"]
    errors = [line.split(": error: ")[1] for line in out.splitlines() if ": error: " in line]
    assert errors == ['List item 0 has incompatible type "Notes"; expected "ToolProvider"  [list-item]']


def test_a_policy_may_take_the_error_type_its_channel_gives(mypy_says):
    """Before: every channel's policy was typed `(Exception, ToolCall) -> str`, so mypy and pyright
    refused a learner's policy written for what the channel gives (`error: ArgumentError`, to read
    `error.problems`). Each channel now names its type; a policy for another channel's error is
    still refused."""
    out = mypy_says["learner_policies.py"]
    errors = [line.split(": error: ")[1] for line in out.splitlines() if ": error: " in line]
    assert errors == [
        'Argument "argument_error" to "Policies" has incompatible type "Callable[[UnknownToolError, ToolCall], str]"; '
        'expected "Callable[[ArgumentError, ToolCall], str]"  [arg-type]'
    ]


PROTOCOLS = {  # what toolkit calls on a learner's object, positionally, and the attributes it only reads
    "toolkit.search.strategy.SearchStrategy": (("parse", "index", "search"), ["example", "spec", "takes"]),
    "toolkit.loop.sources.ToolProvider": (("provide",), ["dynamic"]),
    "toolkit.memory.windows.ChatMemoryStore": (("get", "set", "delete"), []),
    "toolkit.search.embeddings.EmbeddingModel": (("embed",), ["name"]),
}


@pytest.mark.parametrize("dotted", PROTOCOLS)
def test_a_protocol_a_learner_implements_takes_any_parameter_names_and_read_only_attributes(dotted):
    """Pyright (VS Code's Pylance) refuses an implementation whose parameter is named otherwise than
    the protocol's (mypy does not check names), and both refuse a property or a frozen field for a
    protocol's plain attribute. toolkit passes these arguments by position and only reads these
    attributes, so the protocols take the arguments positional-only and declare read-only properties."""
    import importlib
    import inspect

    module, name = dotted.rsplit(".", 1)
    protocol = getattr(importlib.import_module(module), name)
    methods, attributes = PROTOCOLS[dotted]
    for method in methods:
        parameters = list(inspect.signature(getattr(protocol, method)).parameters.values())[1:]
        assert {p.kind for p in parameters} == {inspect.Parameter.POSITIONAL_ONLY}, method
    assert sorted(n for n, v in vars(protocol).items() if isinstance(v, property)) == attributes
    assert not getattr(protocol, "__annotations__", {})  # no settable attribute


def test_the_search_strategies_declare_takes_as_pyright_reads_it():
    """Before: pyright (VS Code's Pylance) refused `ToolSearch(KeywordSearch())`, the notebook's own
    line: `KeywordSearch.takes` was a `ClassVar`, which pyright takes for no read-only property (and
    `search` named its parameter `terms`, not the protocol's `query`: the test above)."""
    from typing import get_type_hints

    from toolkit.search.keyword import KeywordSearch
    from toolkit.search.vector import VectorSearch

    for strategy, takes in ((KeywordSearch, "terms"), (VectorSearch, "text")):
        assert "takes" not in get_type_hints(strategy), strategy  # a class attribute, no ClassVar
        assert strategy.takes == takes and "takes" not in {f.name for f in dataclasses.fields(strategy)}


_BARE = {list, dict, set, frozenset, tuple, abc.Callable, abc.Sequence, abc.Mapping, abc.Iterable, abc.Iterator}


def _bare(hint: object) -> bool:
    """Whether `hint` is, or holds, a generic without its item types (`list`, `dict`, `Callable`)."""
    if isinstance(hint, (typing.ParamSpecArgs, typing.ParamSpecKwargs)):  # `*args: P.args`: typed by its ParamSpec
        return False
    return hint in _BARE or any(_bare(arg) for arg in typing.get_args(hint) if not isinstance(arg, list))


def _public_callables() -> Iterator[tuple[str, object]]:
    import importlib
    import inspect
    import pkgutil

    import toolkit

    for found in pkgutil.walk_packages(toolkit.__path__, "toolkit."):
        if found.name.endswith("__main__"):
            continue
        module = importlib.import_module(found.name)
        for name, value in vars(module).items():
            if name.startswith("_") or getattr(value, "__module__", None) != found.name:
                continue
            if inspect.isfunction(value):
                yield f"{found.name}.{name}", value
            elif inspect.isclass(value):
                for attr, member in vars(value).items():
                    member = member.__func__ if isinstance(member, classmethod | staticmethod) else member
                    member = member.fget if isinstance(member, property) else member
                    if not attr.startswith("_") and inspect.isfunction(member):
                        yield f"{found.name}.{name}.{attr}", member


def _hints(function: typing.Any) -> dict[str, object]:
    """The annotations of `function` that evaluate here (a name imported only under `TYPE_CHECKING` does not)."""
    hints = {}
    for key, written in function.__annotations__.items():
        try:
            hints[key] = eval(written, function.__globals__) if isinstance(written, str) else written
        except (NameError, TypeError):  # `classmethod[...]` is no generic at run time on Python 3.11
            continue
    return hints


def test_no_public_signature_leaves_a_generic_without_its_item_types():
    """Before: `toolkit.course.assistant.messages_for` returned a bare `list`: mypy --strict reads it as
    `list[Any]` and pyright strict reports "partially unknown" on every use of what it returns."""
    bare = []
    for label, function in _public_callables():
        bare += [f"{label}: {key}" for key, hint in _hints(function).items() if _bare(hint)]
    assert bare == []
