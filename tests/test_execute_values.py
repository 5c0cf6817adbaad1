"""What a stranger's tool returns or is built from, as the model and the developer read it:
returned exceptions are sanitised like raised ones, numpy and pandas values are written whole
as JSON (their `str()` cuts data to `...`), built-ins and lists are refused by name."""

import concurrent.futures
import functools
import itertools
import math
import operator
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ToolDefinitionError, ToolExecutionError
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.tools.decorator import tool
from toolkit.tools.execute import FEED_BACK_ALL, Policies, function_tool, raise_error, tools_from
from toolkit.tools.result_text import ITEMS_READ, to_text

KEY = "sk-proj-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCD"


@pytest.mark.parametrize(
    "value, text",
    [
        (ValueError(f"auth failed for {KEY}"), "auth failed for [REDACTED]"),
        (ConnectionError("postgres://app:hunter22@db/orders is down"), "postgres://[REDACTED]@db/orders is down"),
        (KeyError(), "KeyError"),
        ([ValueError(f"key {KEY}")], '["key [REDACTED]"]'),
        ({"error": RuntimeError(f"token={KEY}")}, '{"error": "token=[REDACTED]"}'),
    ],
    ids=["top", "url", "empty", "in-list", "in-dict"],
)
def test_a_returned_exception_is_sanitised_as_a_raised_one(value, text):
    assert to_text(value) == text


def test_a_tool_that_returns_its_exception_leaks_no_key_through_the_loop():
    @tool
    def charge(amount: int) -> object:
        """Charge a card."""
        try:
            raise PermissionError(f"gateway refused key {KEY}")
        except PermissionError as exc:
            return exc  # returned, not raised: a common way to "report" a failure

    model = ScriptedModel([call("charge", amount=5), "done"])
    result = run_loop(model, [UserMessage(content="pay")], tools=[charge], options=LoopOptions(policies=FEED_BACK_ALL))
    assert result.new_messages[1].content == "gateway refused key [REDACTED]"
    assert all(KEY not in message.model_dump_json() for message in model.requests[-1].messages)


@pytest.mark.parametrize(
    "value, text",
    [
        (np.arange(2000), "[" + ", ".join(map(str, range(2000))) + "]"),
        (np.array([[1.0, math.nan]]), '[[1.0, "NaN"]]'),
        (np.int64(3), "3"),
        (np.bool_(False), "false"),
        ({"arr": np.arange(3), "ok": np.bool_(True)}, '{"arr": [0, 1, 2], "ok": true}'),
        (pd.Series([1.5, None]), "[1.5, null]"),
        (pd.Series([1, 2], index=["a", "b"]), '{"a": 1, "b": 2}'),
        (pd.Index([1, 2]), "[1, 2]"),
    ],
    ids=["long-array", "nan", "int64", "bool_", "nested", "series", "series-index", "index"],
)
def test_numpy_and_pandas_values_are_json_with_nothing_cut(value, text):
    assert to_text(value) == text


def test_a_dataframe_is_one_object_per_row_every_row_and_column_kept():
    frame = pd.DataFrame({f"c{i}": range(100) for i in range(30)})
    rows = pd.read_json(__import__("io").StringIO(to_text(frame)), orient="records")
    assert rows.shape == (100, 30) and rows.equals(frame)


def test_a_dataframe_keeps_its_index_and_writes_missing_values_as_null():
    frame = pd.DataFrame(
        {"b": [1.5, None], "t": pd.to_datetime(["2026-10-20", None]), "n": pd.array([1, None], dtype="Int64")},
        index=pd.Index(["x", "y"], name="sku"),
    )
    assert to_text(frame) == (
        '[{"sku": "x", "b": 1.5, "t": "2026-10-20T00:00:00", "n": 1}, {"sku": "y", "b": null, "t": null, "n": null}]'
    )


@pytest.mark.parametrize("source, kind", [([], "list"), ((), "tuple"), ({}, "dict"), (set(), "set")])
def test_tools_from_a_collection_says_to_unpack_it(source, kind):
    @tool
    def ping() -> str:
        """Ping."""
        return "pong"

    source = type(source)([ping]) if kind != "dict" else {"ping": ping}
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(source)
    extra = ", or tools_from(*tools.values())" if kind == "dict" else ""
    assert str(caught.value) == (
        f"tools_from({kind} object): a {kind} is not a tool source: tools_from takes the tools themselves, "
        f"one argument each. Fix: unpack it: tools_from(*tools){extra}"
    )


def test_tools_from_a_builtin_names_it():
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(math.sqrt)
    assert str(caught.value).startswith("tools_from(math.sqrt): math.sqrt is written in C, not Python")


def test_tools_from_a_c_callable_object_names_it():
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(np.sqrt)
    assert str(caught.value).startswith("tools_from(ufunc object): numpy.sqrt is written in C, not Python")


@pytest.mark.parametrize(
    "source, label",
    [(str.upper, "str.upper"), (math.sqrt, "math.sqrt")],
    ids=["method descriptor", "builtin"],
)
def test_function_tool_of_a_builtin_names_it_as_tools_from_does(source, label):
    """`function_tool(str.upper)` (week 5 calls function_tool) raised TypeError: cannot create weak
    reference to 'method_descriptor' object."""
    with pytest.raises(ToolDefinitionError) as caught:
        function_tool(source)
    assert str(caught.value).startswith(f"function_tool({label}): {label} is written in C, not Python")


def unreadable(*args: object, **kwargs: object) -> str:
    """A function whose signature is not one."""
    return ""


unreadable.__signature__ = "(x: int)"  # type: ignore[attr-defined]


def test_an_object_called_in_c_is_refused_as_a_builtin_on_every_python():
    """`operator.itemgetter(1)`: its signature could not be read up to Python 3.12 ("its signature cannot
    be read"); 3.13 reads `(obj, /)`, and once positional-only parameters were taken the error asked
    to annotate `obj`, which nobody can in C. A C-called object is a built-in, as `len` is."""
    with pytest.raises(ToolDefinitionError) as caught:
        function_tool(operator.itemgetter(1))
    assert str(caught.value) == (
        "function_tool(itemgetter object): operator.itemgetter is written in C, not Python: it has no type hints "
        "or docstring to reflect into a tool. Fix: write a small def with typed parameters and a docstring that "
        "calls operator.itemgetter, and use that"
    )


@pytest.mark.parametrize("source", [int, unreadable], ids=["builtin type", "bad __signature__"])
def test_a_callable_whose_signature_cannot_be_read_is_a_developer_error(source):
    """`function_tool(int)` raised ValueError (no signature found for builtin type), a function with
    a `__signature__` that is not one TypeError, out of `inspect.signature`."""
    with pytest.raises(ToolDefinitionError) as caught:
        function_tool(source)
    assert "its signature cannot be read (" in str(caught.value)
    assert str(caught.value).endswith(
        "Fix: write a small def with typed parameters and a docstring that calls it, and use that"
    )


def test_a_cached_function_is_a_tool_of_the_function_it_wraps():
    """`@tool @functools.cache def …` was refused: "_lru_cache_wrapper has no @tool methods"."""

    @tool
    @functools.cache
    def price(sku: str) -> int:
        """Price of one item."""
        return len(sku)

    @functools.lru_cache(maxsize=8)
    def stock(sku: str) -> int:
        """Units in stock."""
        return 3

    made = {t.name: t for t in tools_from(price, stock)}
    assert made["price"].spec.parameters["properties"] == {"sku": {"type": "string"}}
    assert made["stock"].spec.description == "Units in stock."
    model = ScriptedModel([call("price", sku="abc"), "done"])
    result = run_loop(model, [UserMessage(content="?")], tools=[price])
    assert result.new_messages[1].content == "3"


def test_a_returned_iterator_that_never_ends_is_read_to_a_bound_not_forever():
    """`return itertools.count()` (or a stream) hung the loop: the whole iterator was read into a list."""

    def endless():  # itertools.count(), with a tripwire so a regression fails instead of hanging
        for n in itertools.count():
            if n > ITEMS_READ + 1:
                raise AssertionError("read past the bound")
            yield n

    @tool
    def ticks() -> object:
        """Clock ticks."""
        return endless()

    model = ScriptedModel([call("ticks"), "done"])
    result = run_loop(model, [UserMessage(content="?")], tools=[ticks])
    text = result.new_messages[1].content
    assert text.startswith("[0, 1, 2, ") and text.endswith(
        f"{ITEMS_READ - 1}]\n(only the first {ITEMS_READ} items were read: the iterator went on)"
    )


@pytest.mark.parametrize(
    "value, text",
    [
        (map(str, [1, 2]), '["1", "2"]'),
        ((n * n for n in range(3)), "[0, 1, 4]"),
        (iter(range(ITEMS_READ)), "[" + ", ".join(map(str, range(ITEMS_READ))) + "]"),
        (iter([]), "[]"),
    ],
    ids=["map", "generator", "exactly-the-bound", "empty"],
)
def test_a_finite_iterator_is_still_the_json_list_of_its_items(value, text):
    assert to_text(value) == text


def test_an_iterator_that_fails_while_read_says_so_sanitised():
    def rows():
        yield 1
        raise ConnectionError(f"lost db with key {KEY}")

    assert (
        to_text(rows()) == "<an iterator that failed while it was read: ConnectionError: lost db with key [REDACTED]>"
    )


def test_a_pydantic_model_holding_a_numpy_array_or_an_exception_is_json_too():
    """It was its str(), "arr=array([0, 1, 2]) name='x'": model_dump(mode="json") had no fallback."""
    from pydantic import BaseModel, ConfigDict

    class Reading(BaseModel):
        model_config = ConfigDict(arbitrary_types_allowed=True)
        values: np.ndarray
        error: Exception | None = None
        name: str = "x"

    value = Reading(values=np.arange(3), error=ValueError(f"key {KEY}"))
    assert to_text(value) == '{"values": [0, 1, 2], "error": "key [REDACTED]", "name": "x"}'


class _Row:
    """An ORM row, say: no JSON form, a default repr."""


def test_a_value_json_cannot_write_is_its_text_without_a_memory_address():
    """Before: `<test_execute_values._Row object at 0x7f…>`, a different text in every run (the model,
    the memory and a notebook's stored output each got another one)."""
    assert to_text(_Row()) == "<test_execute_values._Row object>"
    assert to_text({"row": _Row(), "n": 1}) == "{'row': <test_execute_values._Row object>, 'n': 1}"
    assert to_text(object()) == "<object object>"


def test_rows_of_a_dataframe_with_a_missing_date_are_json_with_null_not_their_repr():
    """`df.to_dict("records")` and `df.iloc[i].to_dict()` hold `pd.NaT` for a missing date, which
    pydantic fails on (it is a datetime): the whole result became Python's repr of the rows
    (`[{'shipped': Timestamp('2024-01-02 00:00:00'), ...}]`), not JSON."""
    frame = pd.DataFrame({"order": ["SN1", "SN2"], "shipped": pd.to_datetime(["2024-01-02", None])})
    rows = '[{"order": "SN1", "shipped": "2024-01-02T00:00:00"}, {"order": "SN2", "shipped": null}]'
    assert to_text(frame.to_dict(orient="records")) == rows
    assert to_text(frame.iloc[1].to_dict()) == '{"order": "SN2", "shipped": null}'
    assert to_text(pd.NaT) == "null"
    assert to_text((pd.NaT, {pd.NaT})) == "[null, [null]]"


class _Tagged:
    """A repr with its address in the middle, as `concurrent.futures.Future` and `asyncio.Lock` write theirs."""

    def __repr__(self) -> str:
        return f"<_Tagged at {hex(id(self))} state=finished>"


def test_a_value_whose_repr_holds_its_address_before_more_text_is_shown_without_it():
    """Before: `<Future at 0x7f… state=finished returned int>` went to the model, memory and a
    notebook as it was (only an address just before `>` was taken off): another text in every run."""
    done: concurrent.futures.Future[int] = concurrent.futures.Future()
    done.set_result(3)
    assert to_text(done) == "<Future state=finished returned int>"
    assert to_text([_Tagged(), _Row()]) == "[<_Tagged state=finished>, <test_execute_values._Row object>]"
    assert to_text(RuntimeError("jump at 0x1f failed")) == "jump at 0x1f failed"  # no repr: the text as it is


# --- a tool whose returned generator raises while read has failed --------------------------------------------


def _rows(order: str) -> Iterator[str]:
    yield f"{order}: 1 x phone"
    raise ConnectionError(f"lost db with key {KEY}")


@tool
def order_rows(order: str) -> Iterator[str]:
    """The rows of an order, read from the database as they come."""
    return _rows(order)


FAILED_ROWS = "Tool 'order_rows' failed: ConnectionError: lost db with key [REDACTED]"


def test_a_returned_generator_that_raises_is_an_execution_error_not_a_success():
    """Before: the call succeeded (is_error False) with the text '<an iterator that failed while it was
    read: …>': the trace showed it ok, a saga did not roll back, and the loop guard refused the model's
    retry of the failed call as "already called … its result is above"."""
    model = ScriptedModel([call("order_rows", order="SN1"), call("order_rows", order="SN1"), "done"])
    options = LoopOptions(loop_guard=True, guard_handover_after=None)
    result = run_loop(model, "rows?", tools=[order_rows], options=options)
    first, again = (r.executions[0] for r in result.rounds[:2])
    assert (first.result.content, first.result.is_error, first.error_kind) == (FAILED_ROWS, True, "execution")
    assert (again.result.content, again.error_kind) == (FAILED_ROWS, "execution")  # run again, not guarded


def test_a_returned_generator_that_raises_goes_through_the_execution_policy():
    stop = LoopOptions(policies=Policies(execution_error=raise_error))
    with pytest.raises(ToolExecutionError) as caught:
        run_loop(ScriptedModel([call("order_rows", order="SN1")]), "rows?", tools=[order_rows], options=stop)
    assert str(caught.value) == FAILED_ROWS
    assert isinstance(caught.value.__cause__, ConnectionError)


def test_a_value_holding_a_generator_that_raises_has_failed_too():
    @tool
    def summary(order: str) -> dict:
        """An order's summary."""
        return {"order": order, "rows": _rows(order)}

    result = run_loop(ScriptedModel([call("summary", order="SN1"), "done"]), "?", tools=[summary])
    failed = result.executions[0].result
    assert (failed.content, failed.is_error) == (
        "Tool 'summary' failed: ConnectionError: lost db with key [REDACTED]",
        True,
    )


def test_a_nested_iterator_cut_after_one_item_says_one_item():
    # the budget is shared: the first iterator takes all but one item, the second gives one and is cut
    value = {"a": iter(range(ITEMS_READ - 1)), "b": iter(range(10))}
    assert to_text(value).endswith('"b": [0, "(only the first item was read: the iterator went on)"]}')


def _rows_of_a_command_line(order: str) -> Iterator[str]:
    yield f"{order}: 1 x phone"
    raise SystemExit("error: unrecognized arguments: --all")  # argparse's way, inside the generator


@pytest.mark.parametrize("nested", [False, True])
def test_a_returned_generator_ending_with_system_exit_has_failed_as_the_tool_would(nested):
    """A tool ending with SystemExit is an execution error fed back; a generator it returned that did so
    while read let SystemExit out of run_loop (a script exited) and memory said the call was interrupted."""
    from toolkit.memory.windows import ChatMemory

    @tool
    def order_lines(order: str) -> Any:
        """The lines of an order, read as they come."""
        rows = _rows_of_a_command_line(order)
        return {"rows": rows} if nested else rows

    memory = ChatMemory("cli")
    model = ScriptedModel([call("order_lines", order="SN1"), "done"])
    result = run_loop(model, "lines?", tools=[order_lines], memory=memory)
    failed = result.executions[0]
    assert (failed.result.content, failed.error_kind) == (
        "Tool 'order_lines' failed: SystemExit: error: unrecognized arguments: --all",
        "execution",
    )
    assert result.answer == "done" and memory.messages()[-2].content == failed.result.content
