"""`tools=` and `providers=` take lists: one tool or provider given alone is a developer error
naming the keyword and the fix (it was "TypeError: 'function' object is not iterable", or a
string read letter by letter)."""

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ToolDefinitionError
from toolkit.loop.run import run_loop
from toolkit.loop.sources import StaticProvider
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from


@tool
def ping() -> str:
    """Ping."""
    return "pong"


def loop(**sources):
    return run_loop(ScriptedModel([call("ping"), "done"]), [UserMessage(content="hi")], **sources)


@pytest.mark.parametrize(
    "sources, text",
    [
        (
            {"tools": ping},
            "tools=test_sources_arguments.ping: tools= takes a list, and got a function. Fix: put it in a list: tools=[ping]",
        ),
        ({"tools": "ping"}, "tools=str object: tools= takes a list, and got a str. Fix: put it in a list: tools=[...]"),
        (
            {"tools": {"ping": ping}},
            "tools=dict object: tools= takes a list, and got a dict. Fix: put it in a list: tools=[...], "
            "e.g. tools=list(x.values()) for a dict",
        ),
        (
            {"providers": StaticProvider(tools_from(ping))},
            "providers=StaticProvider object: providers= takes a list, and got a StaticProvider. "
            "Fix: put it in a list: providers=[...]",
        ),
    ],
    ids=["function", "str", "dict", "provider"],
)
def test_one_source_given_alone_is_a_developer_error(sources, text):
    with pytest.raises(ToolDefinitionError) as caught:
        loop(**sources)
    assert str(caught.value) == text


@pytest.mark.parametrize(
    "sources", [{"tools": [ping]}, {"tools": (ping,)}, {"providers": [StaticProvider(tools_from(ping))]}]
)
def test_lists_and_tuples_still_work(sources):
    assert loop(**sources).new_messages[1].content == "pong"


@pytest.mark.parametrize("keyword", ["tools", "providers"])
def test_a_registry_given_alone_is_pointed_at_registry(keyword):
    """`tools=shop_registry()` was told to put it in a list, and the list was then refused with
    "pass it as registry=": the first answer now gives the fix that works."""
    from toolkit.course.assistant import shop_registry

    registry = shop_registry()
    with pytest.raises(ToolDefinitionError) as caught:
        loop(**{keyword: registry})
    assert str(caught.value) == (
        f"{keyword}=ToolRegistry object: {keyword}= takes a list, and got a tool registry. Fix: pass it as "
        "registry=..., e.g. run_loop(..., registry=registry), or its tools: tools=registry.tools()"
    )
    fixed = run_loop(ScriptedModel(["done"]), [UserMessage(content="hi")], registry=registry)
    assert fixed.answer == "done"  # the fix works


@pytest.mark.parametrize("keyword", ["tools", "providers"])
def test_an_mcp_client_given_alone_is_pointed_at_a_provider(keyword):
    from toolkit.mcp.client import McpClient

    client = McpClient.__new__(McpClient)  # never started: only its kind is looked at
    with pytest.raises(ToolDefinitionError) as caught:
        loop(**{keyword: client})
    assert str(caught.value) == (
        f"{keyword}=McpClient object: {keyword}= takes a list, and got an MCP client. "
        "Fix: wrap it in a provider: providers=[McpToolProvider([client])]"
    )
