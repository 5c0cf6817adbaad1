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
