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
