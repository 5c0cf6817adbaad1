"""Names through wrappers (`toolkit.loop.wrappers`, `toolkit.tools.execute`): a renamed tool's
model-facing errors name it as the model sees it, a rename that makes two tools share a name is
refused by the wrapper that did it, and names are strings."""

import dataclasses

import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ArgError, ArgumentError, ArgumentProblem, ConfigurationError
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import run_loop
from toolkit.loop.sources import StaticProvider, ToolRegistry, build_context
from toolkit.loop.wrappers import always_visible, filter_tools, map_tools, rename_tools
from toolkit.tools.arguments import parse_arguments
from toolkit.tools.decorator import tool
from toolkit.tools.execute import FEED_BACK_ALL, tools_from


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@tool
def sub(a: int, b: int) -> int:
    """Subtract b from a."""
    return a - b


def _result(provider, script, **options):
    options.setdefault("policies", FEED_BACK_ALL)
    result = run_loop(
        ScriptedModel(script), [UserMessage(content="?")], providers=[provider], options=LoopOptions(**options)
    )
    return next(m for m in result.new_messages if isinstance(m, ToolResultMessage)).content


def _renamed_by_map(provider, old, new):
    return map_tools(provider, lambda spec: dataclasses.replace(spec, name=new) if spec.name == old else spec)


@pytest.mark.parametrize(
    "wrap",
    [
        lambda p: rename_tools(p, {"add": "plus"}),
        lambda p: rename_tools(p, lambda name: "plus" if name == "add" else name),
        lambda p: _renamed_by_map(p, "add", "plus"),
        lambda p: rename_tools(rename_tools(p, {"add": "sum"}), {"sum": "plus"}),
        lambda p: filter_tools(rename_tools(p, {"add": "plus"}), {"plus"}),
    ],
    ids=["mapping", "function", "map_tools", "rename-of-rename", "filter-after-rename"],
)
@pytest.mark.parametrize(
    "arguments, text",
    [
        (
            '{"a": "x", "b": 2}',
            "Invalid arguments for tool 'plus':\n- a: got \"x\", expected an integer\nFix the arguments and call plus again.",
        ),
        (
            "{bad",
            "Invalid arguments for tool 'plus':\n- arguments: got {bad, expected a JSON object\n"
            "Fix the arguments and call plus again.",
        ),
    ],
    ids=["bad-value", "not-json"],
)
def test_a_renamed_tool_s_argument_error_names_the_name_the_model_calls(wrap, arguments, text):
    """It named 'add', which the model was never offered (its call then failed as an unknown tool)."""
    assert _result(wrap(StaticProvider(tools_from(add, sub))), [call("plus", arguments), "done"]) == text


def test_the_repair_text_of_a_renamed_tool_names_it_too():
    text = _result(
        rename_tools(StaticProvider(tools_from(add)), {"add": "plus"}),
        [call("plus", a=1, b=2, c=3), "done"],
        argument_repair=2,
    )
    assert text == (
        "Invalid arguments for tool 'plus':\n- c: unknown field (got 3), valid fields: a, b\n"
        "Fix the arguments and call plus again.\n"
        "If you cannot get a valid value, ask the user for it instead of calling plus again."
    )


def _registry(executor):
    registry = ToolRegistry()
    spec = {"type": "function", "function": {"name": "order", "parameters": {"type": "object", "properties": {}}}}
    registry.register(spec, executor)
    return StaticProvider(registry.tools())


@pytest.mark.parametrize(
    "executor, text",
    [
        (
            lambda call, context: parse_arguments("order", call.arguments),
            "Invalid arguments for tool 'get_order':\n- arguments: got [1], expected a JSON object\n"
            "Fix the arguments and call get_order again.",
        ),
        (
            lambda call, context: (_ for _ in ()).throw(ArgumentError("order", [ArgumentProblem("id", "1", "SN…")])),
            "Invalid arguments for tool 'get_order':\n- id: got 1, expected SN…\nFix the arguments and call get_order again.",
        ),
        (
            lambda call, context: (_ for _ in ()).throw(ArgError("order", "id", "1", "SN…")),
            "参数校验失败。字段=id，收到=1。期望：SN…。请修正参数后重新调用 get_order；"
            "如果无法得到合法参数，请直接告诉用户需要他提供什么，不要再调用工具。",
        ),
    ],
    ids=["parse_arguments", "ArgumentError", "ArgError"],
)
def test_an_executor_naming_its_own_name_is_corrected_to_the_called_one(executor, text):
    """A hand-written executor knows only the name it was registered under."""
    provider = rename_tools(_registry(executor), {"order": "get_order"})
    assert _result(provider, [call("get_order", "[1]"), "done"]) == text


@pytest.mark.parametrize(
    "wrap, text",
    [
        (
            lambda p: rename_tools(p, {"add": "sub"}),
            "rename_tools: 2 tools would be named 'sub' ('add' renamed, 'sub' as it is); tool names must be unique "
            "in a call. Fix: give each tool a name of its own (or filter_tools one out first)",
        ),
        (
            lambda p: rename_tools(p, lambda name: "calc"),
            "rename_tools: 2 tools would be named 'calc' ('add' renamed, 'sub' renamed); tool names must be unique "
            "in a call. Fix: give each tool a name of its own (or filter_tools one out first)",
        ),
        (
            lambda p: _renamed_by_map(p, "sub", "add"),
            "map_tools: 2 tools would be named 'add' ('add' as it is, 'sub' renamed); tool names must be unique "
            "in a call. Fix: give each tool a name of its own (or filter_tools one out first)",
        ),
    ],
    ids=["onto-another", "all-onto-one", "map_tools"],
)
def test_a_rename_that_makes_two_tools_share_a_name_is_refused_by_its_wrapper(wrap, text):
    """It was "tool name 'sub' is defined twice: by @tool ...add and by @tool ...sub": no word of the rename."""
    with pytest.raises(ConfigurationError) as caught:
        build_context(providers=[wrap(StaticProvider(tools_from(add, sub)))])
    assert str(caught.value) == text
    swapped = rename_tools(StaticProvider(tools_from(add, sub)), {"add": "sub", "sub": "add"})  # no clash
    assert [(t.name, t.spec.description) for t in swapped.provide()] == [
        ("sub", "Add two numbers."),
        ("add", "Subtract b from a."),
    ]
    assert _result(swapped, [call("sub", a=5, b=2), "done"]) == "7"


@pytest.mark.parametrize(
    "wrap, text",
    [
        (
            lambda p: filter_tools(p, {add}),
            "filter_tools: the tools are chosen by name, and got a function ('add'). "
            "Fix: give the names as strings, e.g. {'add'}",
        ),
        (
            lambda p: always_visible(p, [1]),
            "always_visible: the tools are chosen by name, and got an int. "
            "Fix: give the names as strings, e.g. {'query_order'}",
        ),
        (
            lambda p: rename_tools(p, {add: "plus"}),
            "rename_tools: the tools are chosen by name, and got a function ('add'). "
            "Fix: give the names as strings, e.g. {'add'}",
        ),
    ],
    ids=["filter", "always_visible", "rename"],
)
def test_names_that_are_not_strings_are_refused_when_the_wrapper_is_made(wrap, text):
    """A set of functions matched nothing, and the error listed `<function add at 0x...>`."""
    with pytest.raises(ConfigurationError) as caught:
        wrap(StaticProvider(tools_from(add, sub)))
    assert str(caught.value) == text


@pytest.mark.parametrize(
    "wrap, text",
    [
        (
            lambda p: filter_tools(p, lambda name: name.startswith("a")),
            "filter_tools: the function raised AttributeError: 'Tool' object has no attribute 'startswith' on "
            "'add'; it is given the Tool (its name is tool.name). Fix: e.g. lambda tool: tool.name.startswith('get_')",
        ),
        (
            lambda p: rename_tools(p, lambda tool: "eu_" + tool.name),
            "rename_tools: the function raised AttributeError: 'str' object has no attribute 'name' on 'add'; "
            "it is given the tool's current name, a str. Fix: e.g. lambda name: 'eu_' + name",
        ),
        (
            lambda p: map_tools(p, lambda spec: dataclasses.replace(spec, description=spec.description + spec.title)),
            "map_tools: the function raised AttributeError: 'ToolSpec' object has no attribute 'title' on 'add'; "
            "it is given the tool's ToolSpec. Fix: e.g. lambda spec: dataclasses.replace(spec, description='...')",
        ),
    ],
    ids=["filter-given-a-name", "rename-given-a-tool", "map"],
)
def test_a_wrapper_s_function_that_raises_is_told_what_it_is_given(wrap, text):
    """filter_tools gives its function the Tool, rename_tools the name: a mix-up was a bare
    AttributeError from inside build_context."""
    with pytest.raises(ConfigurationError) as caught:
        build_context(providers=[wrap(StaticProvider(tools_from(add, sub)))])
    assert str(caught.value) == text


class _OwnArgumentError(ArgumentError):
    """An application's own subclass that sets neither `tool_name` nor `problems`."""

    def __init__(self, text):
        Exception.__init__(self, text)


def test_an_argument_error_of_the_application_s_own_making_goes_back_as_it_is():
    def executor(call, context):
        raise _OwnArgumentError("the order id must start with SN")

    provider = rename_tools(_registry(executor), {"order": "get_order"})
    assert _result(provider, [call("get_order", "{}"), "done"]) == "the order id must start with SN"


@pytest.mark.parametrize(
    "wrap, text",
    [
        (
            lambda p: rename_tools(p, "plus"),
            "rename_tools: pass a mapping of current name → new name (or a function of the name), not one string "
            "('plus'). Fix: e.g. {'current_name': 'plus'}",
        ),
        (
            lambda p: rename_tools(p, {"add"}),
            "rename_tools: pass a mapping of current name → new name (or a function of the name), not a set. "
            "Fix: e.g. {'add': 'new_name'}",
        ),
    ],
    ids=["one-string", "a-set"],
)
def test_new_names_that_are_not_a_mapping_are_refused_when_the_wrapper_is_made(wrap, text):
    """A learner's rename_tools(p, "order_lookup") was a bare ValueError from dict(): "dictionary update
    sequence element #0 has length 1; 2 is required"."""
    with pytest.raises(ConfigurationError) as caught:
        wrap(StaticProvider(tools_from(add, sub)))
    assert str(caught.value) == text


def test_new_names_as_pairs_still_work():
    assert [t.name for t in rename_tools(StaticProvider(tools_from(add)), [("add", "plus")]).provide()] == ["plus"]


@pytest.mark.parametrize(
    "wrap, name",
    [
        (lambda p: rename_tools({"add": "plus"}, p), "rename_tools"),
        (lambda p: filter_tools({"add"}, p), "filter_tools"),
        (lambda p: always_visible(["add"], p), "always_visible"),
        (lambda p: map_tools(lambda spec: spec, p), "map_tools"),
    ],
    ids=["rename", "filter", "always_visible", "map"],
)
def test_a_wrapper_given_the_provider_second_says_it_comes_first(wrap, name):
    """rename_tools(names, provider) was a bare TypeError: 'StaticProvider' object is not iterable."""
    with pytest.raises(ConfigurationError) as caught:
        wrap(StaticProvider(tools_from(add, sub)))
    assert str(caught.value) == (
        f"{name}: the provider comes first, then what to do with its tools: {name}(provider, ...). "
        "Fix: swap the two arguments"
    )
