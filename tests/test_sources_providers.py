"""What a provider may be and return (`toolkit.loop.sources`): `StaticProvider` takes what `tools=`
takes, a provider's answer is checked where it is read, and each source put in the wrong keyword
(`tools=[provider]`, `providers=[tool]`, `registry=[...]`) is a developer error naming the right one.
Each of these was an `AttributeError` or `TypeError` deep in a wrapper or in `build_context`."""

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError, ToolDefinitionError
from toolkit.loop.run import run_loop
from toolkit.loop.sources import StaticProvider, ToolRegistry, build_context
from toolkit.loop.wrappers import filter_tools, rename_tools
from toolkit.tools.decorator import tool
from toolkit.tools.execute import Tool, tools_from
from toolkit.tools.reflect import ToolSpec


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


class Shop:
    @tool
    def stock(self, sku: str) -> int:
        """Units in stock."""
        return 3


def _answer(script, **sources):
    return run_loop(ScriptedModel(script), [UserMessage(content="?")], **sources)


@pytest.mark.parametrize(
    "provider",
    [
        lambda: StaticProvider([add, Shop()]),
        lambda: StaticProvider((add, Shop())),
        lambda: rename_tools(StaticProvider([add, Shop()]), {"add": "add"}),
        lambda: StaticProvider(lambda request: [add, Shop()]),
    ],
    ids=["list", "tuple", "wrapped", "function-of-the-request"],
)
def test_static_provider_takes_what_tools_takes(provider):
    """`StaticProvider([f])` with a `@tool` function: "'function' object has no attribute 'name'"."""
    result = _answer([[call("add", a=1, b=2), call("stock", sku="x")], "done"], providers=[provider()])
    assert [m.content for m in result.new_messages[1:3]] == ["3", "3"]
    tools = tools_from(add)
    assert StaticProvider(tools).tools is tools  # a list of Tools is kept as it is, not copied
    assert list(build_context(providers=[StaticProvider(tools)]).available.values()) == tools


@pytest.mark.parametrize(
    "tools, text",
    [
        (
            add,
            "StaticProvider(test_sources_providers.add): StaticProvider takes a list of tools (or a function of "
            "the request), and got a function. Fix: put it in a list: StaticProvider([add])",
        ),
        (
            tools_from(add)[0],
            "StaticProvider(Tool object): StaticProvider takes a list of tools (or a function of the request), "
            "and got a Tool. Fix: put it in a list: StaticProvider([...])",
        ),
        (
            "add",
            "StaticProvider(str object): StaticProvider takes a list of tools (or a function of the request), "
            "and got a str. Fix: put it in a list: StaticProvider([...])",
        ),
        (
            None,
            "StaticProvider(NoneType object): StaticProvider takes a list of tools (or a function of the request), "
            "and got a NoneType. Fix: put it in a list: StaticProvider([...])",
        ),
    ],
    ids=["tool-function", "tool", "str", "none"],
)
def test_one_tool_alone_is_refused_at_construction(tools, text):
    with pytest.raises(ToolDefinitionError) as caught:
        StaticProvider(tools)
    assert str(caught.value) == text


class _Returns:
    dynamic = False

    def __init__(self, value):
        self.value = value

    def provide(self, request):
        return self.value


@pytest.mark.parametrize(
    "value, text",
    [
        (
            None,
            "_Returns.provide() returned None; it must return a list of Tool objects (an empty list when it has "
            "none). Fix: return [tool, ...]",
        ),
        (
            tools_from(add)[0],
            "_Returns.provide() returned a Tool; it must return a list of Tool objects (an empty list when it has "
            "none). Fix: return [tool, ...]",
        ),
        (
            ["add"],
            "_Returns.provide() returned a str, which is not a tool ('add' is a str, not a tool: tools are given as "
            "the functions themselves, not their names). Fix: return Tool objects, @tool functions or objects with "
            "@tool methods",
        ),
        (
            [{"type": "function", "function": {"name": "add"}}],
            "_Returns.provide() returned a dict, which is not a tool (a dict is not a tool source: tools_from takes "
            "the tools themselves, one argument each). Fix: return Tool objects, @tool functions or objects with "
            "@tool methods",
        ),
    ],
    ids=["none", "one-tool", "names", "openai-dicts"],
)
def test_a_provider_that_returns_no_tools_is_named_in_the_error(value, text):
    for provider in (_Returns(value), filter_tools(_Returns(value), lambda t: True)):
        with pytest.raises(ConfigurationError) as caught:
            build_context(providers=[provider])
        assert str(caught.value) == text


def test_a_provider_may_return_a_generator_or_tool_functions():
    class Lazy:
        dynamic = False

        def provide(self, request):
            yield add

    result = _answer([call("plus", a=2, b=2), "done"], providers=[rename_tools(Lazy(), {"add": "plus"})])
    assert result.new_messages[1].content == "4"


def test_a_provider_in_tools_is_pointed_at_providers():
    """It said "StaticProvider has no @tool methods. Fix: decorate its tool methods with @tool"."""
    for provider, label in [
        (StaticProvider([add]), "StaticProvider object"),
        (rename_tools(StaticProvider([add]), {}), "rename_tools(StaticProvider)"),
    ]:
        with pytest.raises(ToolDefinitionError) as caught:
            _answer(["done"], tools=[provider])
        assert str(caught.value) == (
            f"tools_from({label}): it is a tool provider (it has provide(request)), not a tool. "
            "Fix: pass it as providers=[...], e.g. run_loop(..., providers=[provider])"
        )


@pytest.mark.parametrize(
    "sources, text",
    [
        (
            {"providers": [add]},
            "providers=[test_sources_providers.add]: it is a tool, not a provider. "
            "Fix: pass it as tools=[add], or as StaticProvider([add])",
        ),
        (
            {"providers": tools_from(add)},
            "providers=[Tool object]: it is a tool, not a provider. Fix: pass it as tools=[...], or as "
            "StaticProvider([...])",
        ),
        (
            {"providers": [Shop()]},
            "providers=[Shop object]: it is a tool, not a provider. Fix: pass it as tools=[...], or as "
            "StaticProvider([...])",
        ),
        (
            {"providers": [[add]]},
            "providers=[list object]: a list is not a tool provider (a provider has a method provide(request)). "
            "Fix: pass providers such as StaticProvider([...]), McpToolProvider([...]), or tools as tools=[...]",
        ),
        (
            {"registry": [add]},
            "registry=list object: registry= takes a ToolRegistry, and got a list. "
            "Fix: pass tools as tools=[...] and providers as providers=[...]",
        ),
        (
            {"registry": StaticProvider([add])},
            "registry=StaticProvider object: registry= takes a ToolRegistry, and got a StaticProvider. "
            "Fix: pass tools as tools=[...] and providers as providers=[...]",
        ),
        (
            {"tools": [ToolRegistry()]},
            "tools_from(ToolRegistry object): it is a tool registry, not a tool. Fix: pass it as registry=..., "
            "e.g. run_loop(..., registry=registry), or its tools: tools=registry.tools()",
        ),
        (
            {"providers": [ToolRegistry()]},
            "providers=[ToolRegistry object]: it is a tool registry, not a provider. Fix: pass it as registry=..., "
            "or as StaticProvider(registry.tools())",
        ),
    ],
    ids=[
        "function",
        "tool",
        "object-with-tool-methods",
        "list",
        "registry-list",
        "registry-provider",
        "tools-registry",
        "providers-registry",
    ],
)
def test_a_source_in_the_wrong_keyword_names_the_right_one(sources, text):
    with pytest.raises(ToolDefinitionError) as caught:
        _answer(["done"], **sources)
    assert str(caught.value) == text


@pytest.mark.parametrize(
    "inner, text",
    [
        (
            add,
            "rename_tools(test_sources_providers.add, ...): it is a tool, not a provider. "
            "Fix: pass it as tools=[add], or as StaticProvider([add])",
        ),
        (
            [add],
            "rename_tools(list object, ...): a list is not a tool provider (a provider has a method "
            "provide(request)). Fix: pass providers such as StaticProvider([...]), McpToolProvider([...]), "
            "or tools as tools=[...]",
        ),
    ],
    ids=["function", "list"],
)
def test_a_wrapper_over_something_that_is_not_a_provider_is_refused_when_made(inner, text):
    with pytest.raises(ToolDefinitionError) as caught:
        rename_tools(inner, {})
    assert str(caught.value) == text


def _named(name, text):
    return Tool(ToolSpec(name, "A tool.", None), lambda call, context: text, f"test {text}")


def test_one_answer_naming_a_tool_twice_is_an_error_for_a_dynamic_provider_too():
    """A dynamic provider's second tool of a name was dropped without a word (the first one ran);
    a static provider's was an error already. Offering its tools again each round stays fine."""
    provider = StaticProvider([_named("x", "first"), _named("x", "second")], dynamic=True)
    with pytest.raises(ConfigurationError) as caught:
        build_context(providers=[provider])
    assert str(caught.value) == (
        "tool name 'x' is defined twice: by test first and by test second; "
        "rename one of them (tool names must be unique in a call)"
    )
    again = StaticProvider([_named("x", "ran x")], dynamic=True)
    result = _answer([call("x"), call("x"), "done"], providers=[again])
    assert [m.content for m in result.new_messages if m.role == "tool"] == ["ran x", "ran x"]


class _NoRequest:
    dynamic = False

    def provide(self):
        return []


@pytest.mark.parametrize(
    "make, text",
    [
        (
            lambda: build_context(providers=[_NoRequest()]),
            "providers=[_NoRequest object]: its provide() cannot take the request: the loop calls "
            "provider.provide(request) (a ProviderRequest: the messages so far). "
            "Fix: give it the parameter: def provide(self, request): ...",
        ),
        (
            lambda: filter_tools(_NoRequest(), {"x"}),
            "filter_tools(_NoRequest object, ...): its provide() cannot take the request: the loop calls "
            "provider.provide(request) (a ProviderRequest: the messages so far). "
            "Fix: give it the parameter: def provide(self, request): ...",
        ),
        (
            lambda: StaticProvider(lambda: [add]),
            "StaticProvider(test_sources_providers.<lambda>.<locals>.<lambda>): a function given to StaticProvider "
            "is called with the request (a ProviderRequest), and this one cannot take it. "
            "Fix: give it the parameter (def tools_for(request): ...), or pass the list itself",
        ),
    ],
    ids=["provider", "wrapped", "static-function"],
)
def test_a_provide_that_cannot_take_the_request_is_refused_before_any_call(make, text):
    """It was "TypeError: provide() takes 1 positional argument but 2 were given" inside build_context."""
    with pytest.raises(ToolDefinitionError) as caught:
        make()
    assert str(caught.value) == text


class _LookupProvider:
    """A provider class whose `provide` takes the request only as an optional argument."""

    def provide(self, request=None):
        return [add]


class _Inheriting(StaticProvider):
    """A provider class that inherits `provide`."""


@pytest.mark.parametrize("given", [_LookupProvider, StaticProvider, _Inheriting])
def test_a_provider_class_given_uncalled_is_refused_naming_the_fix(given):
    """A class is not a provider (its `provide` wants an instance): before, one whose `provide` could
    take one argument was accepted and failed at the first request, and a class whose `provide` it
    inherits was judged by what the first such class answered (kept under `type`, for every class)."""
    with pytest.raises(ToolDefinitionError) as error:
        run_loop(ScriptedModel(["hi"]), [UserMessage(content="hi")], providers=[given])
    name = given.__name__
    assert str(error.value) == (
        f"providers=[the class {name}]: it is a class, not a provider made with it. "
        f"Fix: make one and pass it: providers=[{name}(...)]"
    )


class _ClassProvider:
    """A provider written as a class whose `provide` is a classmethod: the class itself provides."""

    @classmethod
    def provide(cls, request):
        return [add]


def test_a_class_whose_provide_is_a_classmethod_is_a_provider():
    model = ScriptedModel([call("add", a=1, b=2), "3"])
    result = run_loop(model, [UserMessage(content="1+2?")], providers=[_ClassProvider])
    assert result.answer == "3"
    assert model.requests[0].tools == ("add",)


class _AsyncProvider:
    dynamic = False

    async def provide(self, request):
        return [add]


class _AsyncGeneratorProvider:
    dynamic = False

    async def provide(self, request):
        yield add


@pytest.mark.parametrize(
    "provider, kind",
    [(_AsyncProvider, "a coroutine"), (_AsyncGeneratorProvider, "an async generator")],
    ids=["coroutine", "async-generator"],
)
def test_an_async_provide_is_refused_closed_and_told_to_use_def(provider, kind):
    """`async def provide` was refused as "returned a coroutine; it must return a list of Tool
    objects", and the coroutine was left unclosed: Python then printed "RuntimeWarning: coroutine
    '_AsyncProvider.provide' was never awaited" with a path of the machine."""
    made = []

    class Kept(provider):
        def provide(self, request):
            made.append(super().provide(request))
            return made[-1]

    with pytest.raises(ConfigurationError) as caught:
        build_context(providers=[Kept()])
    assert str(caught.value) == (
        f"Kept.provide() returned {kind}: it is `async def`, and the loop calls provide() synchronously, so its "
        "body never ran. Fix: write provide with `def` and return a list: return [tool, ...]"
    )
    if kind == "a coroutine":  # closed: no "was never awaited" warning when it is collected
        assert made[0].cr_frame is None
