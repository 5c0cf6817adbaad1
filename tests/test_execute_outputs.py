"""`ToolOutput` refuses fields the result message cannot carry where it is made
(`toolkit.tools.execute`): inside a tool, the call fails and the loop goes on. They used to pass,
and the result message then failed after the tool had run: a TypeError, ValueError or pydantic
ValidationError out of `execute` and out of the loop, whatever the policies."""

import pytest

from toolkit.chat.messages import ToolCall, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ToolDefinitionError
from toolkit.loop.run import run_loop
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool
from toolkit.tools.execute import FEED_BACK_ALL, Tool, ToolOutput
from toolkit.tools.reflect import ToolSpec

FIX = 'Fix: give a dict with str keys, e.g. attributes={"source": "cache"}'


@pytest.mark.parametrize(
    "fields, text",
    [
        ({"attributes": None}, f"ToolOutput(...): attributes is None. {FIX}"),
        ({"attributes": "cache"}, f"ToolOutput(...): attributes is a str. {FIX}"),
        ({"attributes": {1: "a"}}, f"ToolOutput(...): attributes is a mapping with keys that are not str. {FIX}"),
        ({"is_error": "yes"}, "ToolOutput(...): is_error is a str, not a bool. Fix: give True or False"),
    ],
    ids=["none", "str", "int-keys", "is_error-str"],
)
def test_fields_a_result_cannot_carry_are_refused_where_the_output_is_made(fields, text):
    with pytest.raises(ToolDefinitionError) as caught:
        ToolOutput("rows", **fields)
    assert str(caught.value) == text
    made = Tool(ToolSpec("rows", "Rows."), lambda c, context: ToolOutput("rows", **fields))
    result = made.execute(ToolCall(id="c1", name="rows"), policies=FEED_BACK_ALL)
    assert (result.content, result.is_error) == (f"Tool 'rows' failed: {text}", True)


def test_a_loop_whose_tool_makes_a_bad_output_goes_on():
    @tool
    def rows() -> object:
        """Rows."""
        return ToolOutput([1, 2], attributes=None)

    result = run_loop(ScriptedModel([call("rows"), "done"]), [UserMessage(content="?")], tools=[rows])
    assert result.answer == "done" and result.new_messages[1].is_error


def test_attributes_are_recorded_as_they_were_when_the_tool_returned():
    """A tool that handed back its own dict as attributes and changed it later (a cache, a
    running list) changed the result already recorded in the trace and in memory; a store on
    disk kept what was written, so the two stores disagreed."""
    seen = {"hits": ["SN1"], "by": {"source": "cache"}}

    @tool
    def lookup(order: str) -> ToolOutput:
        """Look an order up."""
        return ToolOutput("found", attributes=seen)

    memory = ChatMemory("u1")
    result = run_loop(ScriptedModel([call("lookup", order="SN1"), "done"]), "q", tools=[lookup], memory=memory)
    seen["hits"].append("SN2")
    seen["by"]["source"] = "db"
    recorded = {"hits": ["SN1"], "by": {"source": "cache"}}
    assert result.executions[0].result.attributes == recorded
    assert [m.attributes for m in memory.messages() if m.role == "tool"] == [recorded]


def test_attributes_that_share_a_list_are_copied_once():
    shared = [1]

    @tool
    def lookup(order: str) -> ToolOutput:
        """Look an order up."""
        return ToolOutput("found", attributes={"a": shared, "b": shared})

    result = run_loop(ScriptedModel([call("lookup", order="SN1"), "done"]), "q", tools=[lookup])
    attributes = result.executions[0].result.attributes
    assert attributes["a"] is attributes["b"] == [1] and attributes["a"] is not shared


JSON_FIX = (
    "Fix: keep attributes to JSON values (text, whole or finite numbers, True/False, None, lists, and dicts with "
    "text keys): memory stores them as JSON"
)


READ_ONCE = "writing it empties it: what a later write keeps is what is left of it); give a list: list(...)"
"""Before: the check at `ToolOutput(...)` read a generator to its end, `SqliteStore` then kept `[]` and
`InMemoryStore` the emptied generator (shown with its address)."""


class _Row:
    """An ORM row, say."""


def _looped() -> dict:
    loop: dict = {"name": "loop"}
    loop["self"] = loop
    return loop


@pytest.mark.parametrize(
    "attributes, problem",
    [
        ({"row": _Row()}, "attributes['row'] cannot be written as JSON"),
        ({"loop": _looped()}, "attributes['loop'] cannot be written as JSON"),
        ({"score": float("nan")}, "attributes['score'] is nan, which JSON cannot hold (it would come back as None)"),
        ({"rows": (r for r in "ab")}, "attributes['rows'] is a generator, which is read only once (" + READ_ONCE),
        ({"page": {"rows": [iter([1, 2])]}}, "attributes['page']['rows'][0] is a list_iterator, which is read"),
    ],
    ids=["object", "cycle", "nan", "generator", "nested_iterator"],
)
def test_attributes_no_store_can_keep_are_refused_where_the_output_is_made(attributes, problem):
    """Before: the call succeeded, and with memory the loop's write of its result failed after the tool
    had run: a ConfigurationError out of the turn, the result lost from memory and its call left
    unanswered (the next turn told the model its outcome was unknown); without memory nothing was said."""
    with pytest.raises(ToolDefinitionError) as caught:
        ToolOutput("found", attributes=attributes)
    text = str(caught.value)
    assert text.startswith(f"ToolOutput(...): {problem}") and text.endswith(JSON_FIX)

    @tool
    def lookup(order: str) -> ToolOutput:
        """Look an order up."""
        return ToolOutput("found", attributes=attributes)

    memory = ChatMemory("u2")
    result = run_loop(ScriptedModel([call("lookup", order="SN1"), "done"]), "q", tools=[lookup], memory=memory)
    failed = result.executions[0].result
    assert (failed.content, failed.is_error) == (f"Tool 'lookup' failed: {text}", True)
    assert [m.role for m in memory.messages()] == ["user", "assistant", "tool", "assistant"]


def test_attributes_json_writes_in_its_own_form_pass():
    import datetime

    made = ToolOutput("found", attributes={"when": datetime.date(2026, 1, 2), "tags": {"b", "a"}, "pair": (1, 2)})
    assert made.attributes["pair"] == (1, 2)


def test_a_failure_a_tool_reports_itself_reaches_the_model_without_its_secrets():
    """`ToolOutput(f"... {exc}", is_error=True)`: a tool that handles its library's error and reports it
    sent the connection string and the key to the model and to memory (one that raised was sanitised)."""

    @tool("Looks up a customer.")
    def lookup(email: str) -> ToolOutput:
        try:
            raise ConnectionError("cannot reach postgres://crm:hunter2@db.internal/crm (api_key=k3y-9f8e7d6c)")
        except ConnectionError as exc:
            return ToolOutput(f"lookup failed, try later: {exc}", is_error=True)

    memory = ChatMemory("crm")
    model = ScriptedModel([call("lookup", email="ann@example.com"), "done"])
    result = run_loop(model, "who is ann?", tools=[lookup], memory=memory)
    reported = result.executions[0].result
    assert (reported.content, reported.is_error) == (
        "lookup failed, try later: cannot reach postgres://[REDACTED]@db.internal/crm (api_key=[REDACTED])",
        True,
    )
    assert "hunter2" not in str(model.requests[1].messages) and "k3y-9f8e" not in str(memory.messages())


def test_a_successful_output_is_written_as_it_is():
    @tool("Shows the settings.")
    def settings() -> ToolOutput:
        return ToolOutput("token=abc123xyz")

    result = run_loop(ScriptedModel([call("settings"), "done"]), "settings?", tools=[settings])
    assert result.executions[0].result.content == "token=abc123xyz"  # data, as any value a tool returns
