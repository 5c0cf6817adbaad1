"""`toolkit.chat.client`: what `chat()` / `stream()` accept. A `str` is one user message; a dict, `None`,
a list holding a non-message, tools in a set (hash order: another order in each process), a str or a
generator, and a tool that is neither an OpenAI dict nor a spec (an `@tool` function) are each a
`ConfigurationError` naming the fix, found before anything is sent. They were a raw `AttributeError`
or `TypeError`, and a set of tools went out in hash order. A `tool_choice` that `LoopOptions` refuses (a
number, a function without its name) went out as it was: the client refuses it by the same rule."""

import pytest

from toolkit.chat.client import ChatClient
from toolkit.chat.messages import UserMessage
from toolkit.errors import ConfigurationError
from toolkit.loop.records import LoopOptions
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from


@tool
def lookup(order_id: str) -> str:
    """Look an order up."""
    return "shipped"


@pytest.fixture
def client():
    return ChatClient("http://127.0.0.1:9/v1", "sk-test", "m")  # nothing is sent: build_request only


def test_a_str_is_one_user_message(client):
    assert client.build_request("hi")["messages"] == [{"role": "user", "content": "hi"}]


NO_CONVERSATION = [
    (None, "expected a list of messages (or one user message as a str), got NoneType; pass [UserMessage(content=...)]"),
    ({"role": "user", "content": "hi"}, "expected a list of messages (or one user message as a str), got dict; "
     "pass [UserMessage(content=...)]"),
    ([UserMessage(content="a"), {"role": "user", "content": "hi"}], "message 1 (dict) is not a message record; "
     "pass SystemMessage, UserMessage, AssistantMessage or ToolResultMessage records"),
    ([UserMessage], "message 0 (the class UserMessage) is not a message record; pass SystemMessage, UserMessage, "
     "AssistantMessage or ToolResultMessage records"),
]  # fmt: skip
"""What is no conversation, and what the client (and `ScriptedModel`, `tests/test_scripted_given.py`) says of it."""


@pytest.mark.parametrize(("messages", "said"), NO_CONVERSATION)
def test_what_is_no_conversation_is_a_configuration_error(client, messages, said):
    with pytest.raises(ConfigurationError) as caught:
        client.build_request(messages)
    assert str(caught.value) == f"ChatClient.chat: {said}"


@pytest.mark.parametrize(
    ("tools", "said"),
    [
        ({"a", "b"}, "tools= takes a list, and got a set, which has no order: the model would be sent its tools in "
         "another order in each process; give a list, in the order you want"),
        (frozenset({"a"}), "tools= takes a list, and got a frozenset, which has no order: the model would be sent its "
         "tools in another order in each process; give a list, in the order you want"),
        ("lookup", "tools= takes a list, and got str; put the tools in a list"),
        ([lookup], "tools[0] (function) is neither an OpenAI tool dict nor a tool spec; send a tool's schema with "
         "tools=[t.spec for t in tools_from(f)] (or give f to run_loop(tools=[f]), which runs it)"),
    ],
)  # fmt: skip
def test_tools_that_cannot_be_sent_in_order_are_a_configuration_error(client, tools, said):
    with pytest.raises(ConfigurationError) as caught:
        client.build_request([UserMessage(content="hi")], tools=tools)
    assert str(caught.value) == f"ChatClient.chat: {said}"


def test_the_fix_the_error_names_works(client):
    body = client.build_request("hi", tools=[t.spec for t in tools_from(lookup)])
    assert [t["function"]["name"] for t in body["tools"]] == ["lookup"]


def test_a_message_class_in_the_list_is_a_configuration_error(client):
    with pytest.raises(ConfigurationError) as caught:  # `UserMessage.to_openai()`: a raw TypeError
        client.build_request([UserMessage])
    assert str(caught.value) == (
        "ChatClient.chat: message 0 (the class UserMessage) is not a message record; pass SystemMessage, "
        "UserMessage, AssistantMessage or ToolResultMessage records"
    )


@pytest.mark.parametrize("choice", [3, {"type": "function"}, {"type": "function", "function": {"name": ""}}, ["auto"]])
def test_a_tool_choice_loop_options_refuses_is_refused_by_the_client(client, choice):
    """`LoopOptions(tool_choice=...)` refused these; the client sent them as they were (a gateway's 400)."""
    with pytest.raises(ConfigurationError) as caught:
        client.build_request("hi", tool_choice=choice)
    assert str(caught.value) == (
        f"ChatClient: tool_choice {choice!r} is neither one of ['auto', 'none', 'required'] nor a named function; "
        'pass one of them, or {"type": "function", "function": {"name": "<tool name>"}} to force one tool'
    )
    with pytest.raises(ConfigurationError):
        LoopOptions(tool_choice=choice)


def test_the_tool_choices_both_take_go_out_as_given(client):
    named = {"type": "function", "function": {"name": "lookup"}}
    for choice in ("auto", "required", "none", named):
        assert (
            client.build_request("hi", tool_choice=choice)["tool_choice"] == LoopOptions(tool_choice=choice).tool_choice
        )
