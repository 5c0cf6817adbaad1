"""Iterators nested in a tool's value (`toolkit.tools.result_text.to_text`): read to the same bound as a
returned one, all of a value's iterators together, whatever holds them (a dict, list, tuple, set,
dataclass or pydantic model). They were read whole: `{"rows": itertools.count()}` hung the loop."""

import asyncio
import collections
import dataclasses
import gc
import itertools
import json
import warnings

import pytest
from pydantic import BaseModel, ConfigDict

from toolkit.chat.messages import ToolCall, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop.run import run_loop
from toolkit.tools.decorator import tool
from toolkit.tools.execute import Policies, ToolOutput, raise_error, tools_from
from toolkit.tools.result_text import ITEMS_READ, to_text

CUT = f"(only the first {ITEMS_READ} items were read: the iterator went on)"
KEY = "sk-" + "a1B2c3D4e5" * 4


def endless():
    """`itertools.count()` with a tripwire, so a regression fails instead of hanging."""
    for n in itertools.count():
        if n > ITEMS_READ + 1:
            raise AssertionError("read past the bound")
        yield n


@dataclasses.dataclass
class Page:
    rows: object
    title: str = "p"


class Report(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    rows: object
    title: str = "r"


@pytest.mark.parametrize(
    "make, shape",
    [
        (lambda rows: {"rows": rows}, lambda rows: {"rows": rows}),
        (lambda rows: [1, rows], lambda rows: [1, rows]),
        (lambda rows: ("t", {"deep": [rows]}), lambda rows: ["t", {"deep": [rows]}]),
        (lambda rows: {"d": collections.deque([rows])}, lambda rows: {"d": [rows]}),
        (lambda rows: Page(rows), lambda rows: {"rows": rows, "title": "p"}),
        (lambda rows: Report(rows=rows), lambda rows: {"rows": rows, "title": "r"}),
        (
            lambda rows: {"page": Page(Report(rows=rows))},
            lambda rows: {"page": {"rows": {"rows": rows, "title": "r"}, "title": "p"}},
        ),
    ],
    ids=["dict", "list", "tuple-dict-list", "deque", "dataclass", "pydantic-model", "model-in-dataclass-in-dict"],
)
def test_an_endless_iterator_nested_anywhere_is_read_to_the_bound(make, shape):
    assert json.loads(to_text(make(endless()))) == shape([*range(ITEMS_READ), CUT])


def test_a_loop_whose_tool_returns_a_nested_endless_iterator_goes_on():
    @tool
    def rows() -> dict:
        """All rows."""
        return {"rows": endless(), "total": "unknown"}

    result = run_loop(ScriptedModel([call("rows"), "done"]), [UserMessage(content="?")], tools=[rows])
    assert json.loads(result.new_messages[1].content) == {"rows": [*range(ITEMS_READ), CUT], "total": "unknown"}
    assert result.answer == "done"


def test_the_bound_is_shared_by_all_the_iterators_of_a_value():
    """Per iterator, a list of a thousand endless ones would still be ten million items."""
    value = {"a": iter(range(ITEMS_READ - 2)), "b": endless(), "c": endless(), "d": iter([])}
    assert json.loads(to_text(value)) == {
        "a": list(range(ITEMS_READ - 2)),
        "b": [0, 1, "(only the first 2 items were read: the iterator went on)"],
        "c": [f"(not read: the result's iterators had given {ITEMS_READ} items already)"],
        "d": [],
    }
    finite = {"squares": (n * n for n in range(4)), "names": map(str.upper, ["a", "b"]), "sets": [iter([{1}])]}
    assert to_text(finite) == '{"squares": [0, 1, 4, 9], "names": ["A", "B"], "sets": [[[1]]]}'


def test_a_nested_iterator_that_fails_while_read_says_so_sanitised():
    def rows():
        yield 1
        raise ConnectionError(f"lost db with key {KEY}")

    assert to_text({"rows": rows(), "n": 1}) == (
        '{"rows": "<an iterator that failed while it was read: ConnectionError: lost db with key [REDACTED]>", "n": 1}'
    )


def failing_rows(error):
    yield 1
    raise error


@pytest.mark.parametrize(
    "error", [GeneratorExit(), asyncio.CancelledError(), SystemExit(2), ValueError("v")], ids=lambda e: type(e).__name__
)
@pytest.mark.parametrize(
    "make",
    [lambda rows: {"rows": rows}, lambda rows: [rows], lambda rows: iter([rows])],
    ids=["dict", "list", "in-iterator"],
)
def test_a_nested_iterator_ending_with_any_failure_of_its_own_fails_the_call(error, make):
    """A nested generator whose body raised `GeneratorExit` or its own async work's `CancelledError`
    (`errors.OWN_FAILURES`, as a returned generator's) escaped `to_text`, which never raises, and the call
    read as a success: `<a dict that cannot be shown as text>`, its failure lost."""
    name = type(error).__name__
    said = f"{name}: {error}" if str(error) else name
    assert f"<an iterator that failed while it was read: {said}>" in to_text(make(failing_rows(error)))

    @tool
    def rows() -> object:
        """All rows."""
        return make(failing_rows(error))

    result = run_loop(ScriptedModel([call("rows"), "done"]), "?", tools=[rows])
    execution = result.executions[0]
    assert (execution.error_kind, execution.result.content) == ("execution", f"Tool 'rows' failed: {said}")


async def status_of(order: str) -> str:
    return f"{order}: shipped"


@pytest.mark.parametrize(
    "make, holder",
    [
        (lambda: map(status_of, ["SN1", "SN2"]), "a map"),
        (lambda: (status_of(o) for o in ["SN1"]), "a generator"),
        (lambda: {"statuses": map(status_of, ["SN1"])}, "a dict"),
        (lambda: ToolOutput([iter([{"s": status_of("SN1")}])]), "a list"),
    ],
    ids=["map", "generator", "in-dict", "tool-output"],
)
def test_an_iterator_giving_async_calls_is_an_execution_error_not_their_reprs(make, holder):
    """`map(client.status, ids)` with an async client read as a success, `["<coroutine object status_of>", …]`,
    and a "never awaited" warning later: an awaitable held in a list was refused, one an iterator gave was not."""

    @tool
    def statuses() -> object:
        """Order statuses."""
        return make()

    gc.collect()  # an earlier test's garbage is not counted as this one's
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outcome = tools_from(statuses)[0].run(
            ToolCall(id="c1", name="statuses"), policies=Policies(execution_error=raise_error)
        )
        gc.collect()
    assert not [w for w in caught if "never awaited" in str(w.message)]
    assert (outcome.error_kind, outcome.result.content) == (
        "execution",
        "Tool 'statuses' returned a value holding an async call that was never awaited (tools run synchronously): "
        "that part of its work did not run.",
    )
    assert str(outcome.raised.__cause__) == (
        f"@tool {statuses.__module__}.{statuses.__qualname__}: its executor returned {holder} holding a coroutine (an awaitable), which the "
        "loop cannot await, so that part did not run. Fix: await it in an async helper run with asyncio.run(...) "
        "inside the tool, or use a sync client"
    )
