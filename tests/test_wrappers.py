"""Provider wrappers (`toolkit.loop.wrappers`): one naming rule, keys that match nothing are
errors, new names are checked against the chat API's pattern, a mapper can redescribe."""

import dataclasses
import logging

import pytest

from toolkit.errors import ConfigurationError
from toolkit.loop.sources import StaticProvider, build_context
from toolkit.loop.wrappers import always_visible, filter_tools, map_tools, rename_tools
from toolkit.tools.execute import Tool
from toolkit.tools.reflect import ToolSpec


def _tool(name, mcp_name=None):
    metadata = {"mcp_name": mcp_name} if mcp_name else {}
    return Tool(ToolSpec(name, f"Tool {name}.", None, metadata), lambda call, context: name, f"test {name}")


def _provider(*names, dynamic=False):
    return StaticProvider([_tool(n) if isinstance(n, str) else _tool(*n) for n in names], dynamic=dynamic)


def _names(provider):
    return [t.name for t in provider.provide()]


@pytest.mark.parametrize(
    "wrap, message",
    [
        (
            lambda p: filter_tools(p, {"ok-nmae"}),
            "filter_tools: no tool is named 'ok-nmae' (the tools are: now, ok-name). "
            "Fix: use the tools' current names, as the wrapped provider gives them",
        ),
        (
            lambda p: rename_tools(p, {"nwo": "clock"}),
            "rename_tools: no tool is named 'nwo' (the tools are: now, ok-name). "
            "Fix: use the tools' current names, as the wrapped provider gives them",
        ),
        (
            lambda p: always_visible(p, {"clock"}),
            "always_visible: no tool is named 'clock' (the tools are: now, ok-name). "
            "Fix: use the tools' current names, as the wrapped provider gives them",
        ),
    ],
)
def test_a_key_that_matches_nothing_is_an_error(wrap, message):
    """Issue 19.11: wrong keys used to be ignored silently (a filter then left zero tools)."""
    with pytest.raises(ConfigurationError) as caught:
        build_context(providers=[wrap(_provider("ok-name", "now"))])
    assert str(caught.value) == message


def test_a_key_given_to_a_wrapper_of_no_tools_blames_what_it_wraps():
    """Before: a rename after a filter whose predicate compared the Tool with a name (so kept none) said "the
    tools are: none. Fix: use the tools' current names", blaming the rename."""
    kept_none = filter_tools(_provider("query_order", "now"), lambda name: name == "query_order")
    with pytest.raises(ConfigurationError) as caught:
        build_context(providers=[rename_tools(kept_none, {"query_order": "order"})])
    assert str(caught.value) == (
        "rename_tools: no tool is named 'query_order': the provider it wraps gives no tools at all. Fix: look at "
        "what it wraps — a filter_tools before it that keeps none (its function is given the Tool, not its name: "
        "lambda tool: tool.name == ...), or a provider or server without tools"
    )


def test_the_server_s_own_name_is_pointed_at_its_current_name():
    provider = filter_tools(_provider(("files_read", "files.read"), "echo"), {"files.read"})
    with pytest.raises(ConfigurationError, match=r"'files.read' is the server's name of 'files_read'\. Fix:"):
        provider.provide()


def test_one_naming_rule_every_wrapper_takes_the_current_name():
    renamed = rename_tools(_provider("get_current_time", "convert_time"), {"get_current_time": "now"})
    provider = always_visible(filter_tools(renamed, {"now"}), {"now"})
    [tool] = provider.provide()
    assert tool.name == "now" and tool.spec.metadata["always_visible"] is True
    assert _names(rename_tools(renamed, lambda name: "utc_" + name)) == ["utc_now", "utc_convert_time"]


@pytest.mark.parametrize("bad", ["time.convert now", "", "x" * 65, "查询", "now\n"])
def test_new_names_are_checked_against_the_api_pattern(bad):
    """Issue 19.10: a bad new name used to pass build_context and fail as a 400 on the first request."""
    expected = (
        f"rename_tools: the new name for 'now' is {bad!r}, which the chat API refuses; tool names must match "
        "^[A-Za-z0-9_-]{1,64}$ (letters, digits, '_' and '-', at most 64). Fix: choose such a name"
    )
    with pytest.raises(ConfigurationError) as caught:
        rename_tools(_provider("now"), {"now": bad})
    assert str(caught.value) == expected
    with pytest.raises(ConfigurationError) as caught:
        build_context(providers=[rename_tools(_provider("now"), lambda name: bad)])
    assert str(caught.value) == expected


def test_a_mapper_rewrites_description_and_name():
    """Issue 15.10, as LangChain4j's McpToolProvider.toolSpecificationMapper."""
    provider = map_tools(
        _provider("now", "other"),
        lambda spec: (
            dataclasses.replace(spec, name="clock", description="现在几点（UTC）。") if spec.name == "now" else spec
        ),
    )
    tools = {t.name: t for t in provider.provide()}
    assert tools["clock"].spec.description == "现在几点（UTC）。"
    assert tools["other"].spec.description == "Tool other."
    assert tools["clock"].executor(None, None) == "now"  # still the same tool underneath
    with pytest.raises(ConfigurationError, match="map_tools: the new name for 'now' is 'a b'"):
        map_tools(_provider("now"), lambda spec: dataclasses.replace(spec, name="a b")).provide()
    with pytest.raises(ConfigurationError, match="map_tools: the mapper changed the parameters of 'now'"):
        map_tools(_provider("now"), lambda spec: dataclasses.replace(spec, parameters={"type": "object"})).provide()


def test_a_provider_that_may_add_tools_later_only_logs_an_unmatched_key_once(caplog):
    provider = filter_tools(_provider("a", dynamic=True), {"later"})
    with caplog.at_level(logging.WARNING, "toolkit.loop.wrappers"):
        assert provider.provide() == [] and provider.provide() == []
    assert caplog.text.count("filter_tools: no tool is named 'later'") == 1


def test_one_string_instead_of_a_set_is_refused():
    with pytest.raises(ConfigurationError, match=r"pass a collection of tool names, not one string \('now'\)"):
        filter_tools(_provider("now"), "now")
