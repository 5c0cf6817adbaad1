import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError
from toolkit.loop.run import run_loop
from toolkit.loop.sources import ProviderRequest, StaticProvider, ToolRegistry, build_context
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from

SPEC = {
    "type": "function",
    "function": {
        "name": "query_order",
        "description": "查询订单",
        "parameters": {"type": "object", "properties": {"orderId": {"type": "string"}}, "required": ["orderId"]},
    },
}


@tool("打招呼")
def greet(name: str) -> str:
    return f"你好 {name}"


def test_registry_versions_and_selection():
    registry = ToolRegistry()
    registry.register(SPEC, lambda c, ctx: "v1 result")
    registry.register(SPEC, lambda c, ctx: "v2 result", version="v2")
    assert registry.versions("query_order") == ["v1", "v2"] and registry.selected() == {"query_order": "v1"}
    model = ScriptedModel([call("query_order", orderId="SN1"), "ok"] * 2)
    first = run_loop(model, [UserMessage(content="q")], registry=registry)
    registry.select("query_order", "v2")
    second = run_loop(model, [UserMessage(content="q")], registry=registry)
    results = [m.content for r in (first, second) for m in r.messages if isinstance(m, ToolResultMessage)]
    assert results == ["v1 result", "v2 result"]


def test_registry_errors_name_the_fix():
    registry = ToolRegistry()
    registry.register(SPEC, lambda c, ctx: "x")
    with pytest.raises(ConfigurationError) as info:
        registry.register(SPEC, lambda c, ctx: "y")
    assert str(info.value) == (
        "ToolRegistry.register('query_order', version='v1'): that version is already "
        "registered; give the new one another version, e.g. version='v2'"
    )
    with pytest.raises(ConfigurationError) as info:
        registry.select("query_order", "v9")
    assert str(info.value) == (
        "ToolRegistry.select('query_order', 'v9'): no such version (registered: v1); register it first"
    )


def test_static_providers_are_asked_once_per_call():
    asked = []
    provider = StaticProvider(lambda request: asked.append(1) or tools_from(greet))
    run_loop(
        ScriptedModel([call("greet", {"name": "A"}), call("greet", {"name": "B"}), "ok"]),
        [UserMessage(content="q")],
        providers=[provider],
    )
    assert asked == [1]


def test_three_sources_merge_in_order():
    registry = ToolRegistry()
    registry.register(SPEC, lambda c, ctx: "x")

    @tool("说再见")
    def bye() -> str:
        return "bye"

    context = build_context([greet], [StaticProvider(tools_from(bye))], registry)
    assert [t.name for t in context.effective] == ["greet", "bye", "query_order"]
    assert set(context.available) == {"greet", "bye", "query_order"}


def test_hidden_tools_are_available_but_not_effective_until_revealed():
    context = build_context([greet])
    context.hidden.add("greet")
    assert context.effective == [] and "greet" in context.available
    assert context.reveal(["greet", "nope"]) == ["greet"]
    assert [t.name for t in context.effective] == ["greet"]


def test_found_tools_in_history_are_restored_on_a_new_call():
    context = build_context([greet])
    context.hidden.add("greet")
    found = ToolResultMessage(
        tool_call_id="s1", tool_name="tool_search_tool", content="greet", attributes={"found_tools": ["greet"]}
    )
    model = ScriptedModel(["ok"])
    run_loop(model, [UserMessage(content="q"), found], context=context)
    assert model.requests[0].tools == ("greet",)


def test_provider_request_carries_messages():
    seen = []
    provider = StaticProvider(lambda r: seen.append(r) or [], dynamic=True)
    build_context([], [provider], request=ProviderRequest((UserMessage(content="x"),), "m1"))
    assert seen[0].memory_id == "m1" and seen[0].messages[0].content == "x"
