"""Error policies are checked (`toolkit.tools.execute.Policies`): one that cannot be called
`policy(error, call)` is refused when the `Policies` is made, and one that returns something
other than the text stops the loop with a `ConfigurationError` saying so. Both were a TypeError
or a pydantic ValidationError at the first failing call."""

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError, ToolDefinitionError
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import run_loop
from toolkit.tools.execute import Policies, Tool
from toolkit.tools.reflect import ToolSpec

FIX = "Fix: pass a function (error, call) -> str, e.g. report_execution_error, or raise_error to stop the loop"


def one_argument(error):
    return str(error)


@pytest.mark.parametrize(
    "fields, text",
    [
        (
            {"execution_error": one_argument},
            "Policies(execution_error=...): a policy is called policy(error, call) and returns the text for the "
            f"model; this one is test_execute_policies.one_argument, which cannot take them. {FIX}",
        ),
        (
            {"unknown_tool": "report"},
            "Policies(unknown_tool=...): a policy is called policy(error, call) and returns the text for the "
            f"model; this one is a str. {FIX}",
        ),
    ],
    ids=["one-argument", "str"],
)
def test_a_policy_that_cannot_be_called_is_refused_when_the_policies_are_made(fields, text):
    with pytest.raises(ToolDefinitionError) as caught:
        Policies(**fields)
    assert str(caught.value) == text


def quiet(error, call):
    """A policy that forgot to return its text."""
    print(error)


def test_a_policy_that_returns_no_text_stops_the_loop_saying_so():
    def fails(call, context):
        raise ValueError("bad")

    tool = Tool(ToolSpec("fails", "Fails."), fails)
    with pytest.raises(ConfigurationError) as caught:
        run_loop(
            ScriptedModel([call("fails"), "done"]),
            [UserMessage(content="?")],
            tools=[tool],
            options=LoopOptions(policies=Policies(execution_error=quiet)),
        )
    assert str(caught.value) == (
        "the execution policy test_execute_policies.quiet returned None; a policy returns the text the model "
        "reads (a str), or raises to stop the loop. Fix: return str(error), or raise"
    )


def in_my_words(error, call):
    """A learner's policy: the tool's own exception, without the "Tool 'x' failed:" start."""
    return f"Sorry, {call.name} could not finish: {error.__cause__}"


def with_the_traceback(error, call):
    import traceback

    return "".join(traceback.format_exception(error.__cause__))


def test_what_a_policy_of_ones_own_says_about_a_failed_tool_is_sanitised_before_the_model_reads_it():
    """The policy gets the sanitised error, but its `__cause__` is the tool's own exception: a
    policy quoting it sent the connection string and the key to the model verbatim."""

    def connect(call, context):
        raise ConnectionError(
            "cannot reach postgres://admin:hunter2@db.internal/shop (key sk-proj-abcdef1234567890XYZabcdef)"
        )

    tool = Tool(ToolSpec("connect", "Connects."), connect)
    for policy, text in [
        (
            in_my_words,
            "Sorry, connect could not finish: cannot reach postgres://[REDACTED]@db.internal/shop (key [REDACTED])",
        ),
        (with_the_traceback, "ConnectionError: cannot reach postgres://[REDACTED]@db.internal/shop (key [REDACTED])"),
    ]:
        model = ScriptedModel([call("connect"), "done"])
        result = run_loop(
            model,
            [UserMessage(content="?")],
            tools=[tool],
            options=LoopOptions(policies=Policies(execution_error=policy)),
        )
        assert result.executions[0].result.content == text
        assert "hunter2" not in str(model.requests[1].messages) and "sk-proj" not in str(model.requests[1].messages)


def test_a_policy_that_stops_the_loop_quoting_the_tools_exception_leaves_no_secret_in_memory():
    """The call's result is recorded (memory sends it with the next turn) from the stopping error's text."""
    from toolkit.errors import ToolExecutionError
    from toolkit.memory.windows import ChatMemory, InMemoryStore

    def give_up(error, call):
        raise ToolExecutionError(f"gave up: {error.__cause__}", tool_name=call.name)

    def connect(call, context):
        raise ConnectionError("cannot reach postgres://admin:hunter2@db.internal/shop")

    memory = ChatMemory(store=InMemoryStore(), memory_id="m")
    with pytest.raises(ToolExecutionError):
        run_loop(
            ScriptedModel([call("connect"), "done"]),
            [UserMessage(content="?")],
            tools=[Tool(ToolSpec("connect", "Connects."), connect)],
            memory=memory,
            options=LoopOptions(policies=Policies(execution_error=give_up)),
        )
    assert memory.messages()[-1].content == "gave up: cannot reach postgres://[REDACTED]@db.internal/shop"


class LookupRefused(Exception):
    pass


def _lookup_tool():
    """A tool that turns its database's refusal into an argument error (`ArgumentError(tool, reason)`,
    as LangChain4j's `ToolArgumentsException(message)`): the reason quotes the library's message."""
    from toolkit.errors import ArgumentError
    from toolkit.tools.decorator import tool

    @tool("Finds a customer.")
    def find_customer(email: str) -> str:
        try:
            raise LookupRefused(f"no customer {email} (postgres://admin:hunter2@db.internal/crm, token=tok_8f3kq9zx)")
        except LookupRefused as exc:
            raise ArgumentError("find_customer", str(exc)) from exc

    return find_customer


ARGUMENT_TEXT = (
    "Invalid arguments for tool 'find_customer':\n- arguments: refused: no customer ann@example.com "
    "(postgres://[REDACTED]@db.internal/crm, token=[REDACTED])\nFix the arguments and call find_customer again."
)


def test_a_tools_own_argument_error_quoting_a_secret_reaches_the_model_without_it():
    """A tool's exception is sanitised before the model reads it; one it raised as an ArgumentError (its
    reason the library's message) went to the model, and to memory, with the password and the token."""
    from toolkit.memory.windows import ChatMemory
    from toolkit.tools.execute import report_argument_error

    model = ScriptedModel([call("find_customer", email="ann@example.com"), "done"])
    memory = ChatMemory("crm")
    options = LoopOptions(policies=Policies(argument_error=report_argument_error))
    result = run_loop(model, "who is ann?", tools=[_lookup_tool()], memory=memory, options=options)
    assert result.executions[0].result.content == ARGUMENT_TEXT
    assert "hunter2" not in str(model.requests[1].messages) and "tok_8f3" not in str(memory.messages())


def test_a_tools_own_argument_error_stopping_the_loop_leaves_no_secret_in_memory():
    from toolkit.errors import ArgumentError
    from toolkit.memory.windows import ChatMemory

    memory = ChatMemory("crm")
    with pytest.raises(ArgumentError) as raised:
        run_loop(
            ScriptedModel([call("find_customer", email="ann@example.com")]),
            "who is ann?",
            tools=[_lookup_tool()],
            memory=memory,
        )
    assert "hunter2" in str(raised.value)  # the learner's own error, as raised
    assert memory.messages()[-1].content == ARGUMENT_TEXT


def test_the_models_own_wrong_arguments_are_quoted_back_as_sent():
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import report_argument_error

    @tool("Reads a note.")
    def read_note(page: int) -> str:
        return "note"

    result = run_loop(
        ScriptedModel([call("read_note", page="/home/ann/notes.txt"), "done"]),
        "read",
        tools=[read_note],
        options=LoopOptions(policies=Policies(argument_error=report_argument_error)),
    )
    assert 'got "/home/ann/notes.txt"' in result.executions[0].result.content
