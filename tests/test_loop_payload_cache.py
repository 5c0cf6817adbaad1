"""The loop's remembered tools (`build_context`) and tools array (`tools_payload`) give exactly
what the plain path gives, and no caller can change what a later request sends."""

import copy
import json
import pickle
import types

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import call
from toolkit.chat.sent import SentTool
from toolkit.errors import ToolDefinitionError
from toolkit.loop.payload import tools_payload
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.loop.sources import ToolContext, build_context
from toolkit.tools import reflect
from toolkit.tools.decorator import tool
from toolkit.tools.execute import Tool, tools_from
from toolkit.tools.reflect import ToolSpec

Q = [UserMessage(content="q")]


@tool("Add two integers.")
def add(a: int, b: int) -> int:
    return a + b


@tool("Echo a text.")
def echo(text: str, times: int = 1) -> str:
    return text * times


def hand_tool(name: str = "hand") -> Tool:
    spec = ToolSpec(name, "Hand-written.", {"type": "object", "properties": {"x": {"type": "string"}}})
    return Tool(spec, lambda c, ctx: "ok", f"registry {name}")


class Recording:
    """A model that calls `add` twice, then answers, keeping what each request sent."""

    def __init__(self, mutate: bool = False) -> None:
        self.sent: list[list] = []
        self.replies = iter([call("add", a=1, b=2), call("add", a=3, b=4), "10"])
        self.mutate = mutate

    def chat(self, messages, tools=None, tool_choice=None, **extra):
        from toolkit.chat.scripted import ScriptedModel

        self.sent.append(tools)
        if self.mutate and tools:
            tools.append({"type": "function", "function": {"name": "injected"}})
        return ScriptedModel([next(self.replies)]).chat(messages, tools=tools)


@pytest.mark.parametrize("strict", [False, True])
def test_every_request_sends_what_to_openai_gives(strict):
    tools = [add, echo, hand_tool()]
    plain = [t.spec.to_openai(strict=strict) for t in tools_from(*tools)]
    for _ in range(3):  # the first call builds, the later ones reuse
        model = Recording()
        result = run_loop(model, Q, tools=tools, options=LoopOptions(strict_tools=strict))
        assert result.answer == "10"
        assert model.sent == [plain] * 3
        assert [r.tools_payload for r in result.rounds] == [plain] * 3
        assert [r.tools_sent for r in result.rounds] == [["add", "echo", "hand"]] * 3
        assert json.dumps(model.sent[0]) == json.dumps(plain)
        assert len({id(p) for p in model.sent}) == 3  # each request its own list


def test_a_request_list_changed_by_the_model_changes_no_later_request():
    model = Recording(mutate=True)
    result = run_loop(model, Q, tools=[add])
    assert [len(p) for p in model.sent] == [2, 2, 2]  # each came with 1 tool; the model added one
    assert run_loop(Recording(), Q, tools=[add]).rounds[0].tools_payload == [add_payload()]
    assert result.answer == "10"


def add_payload() -> dict:
    return tools_from(add)[0].spec.to_openai()


def test_a_sent_entry_is_read_only_and_its_copies_are_plain_dicts():
    (entry,) = tools_payload(tools_from(add))[1]
    assert isinstance(entry, dict) and isinstance(entry["function"], SentTool)
    for change in (
        lambda: entry.__setitem__("type", "x"),
        lambda: entry["function"].__setitem__("name", "x"),
        lambda: entry.pop("type"),
        lambda: entry.update(type="x"),
        lambda: entry.setdefault("new", 1),
        lambda: entry.clear(),
        lambda: entry.popitem(),
        lambda: entry["function"].__delitem__("name"),
    ):
        with pytest.raises(TypeError, match="read-only"):
            change()
    with pytest.raises(TypeError):
        entry |= {"x": 1}
    assert entry == add_payload()
    for copied in (
        dict(entry),
        entry.copy(),
        copy.copy(entry),
        copy.deepcopy(entry),
        pickle.loads(pickle.dumps(entry)),
    ):
        assert copied == add_payload()
        copied["type"] = "changed"  # a copy is the caller's own
    deep = copy.deepcopy(entry)
    assert type(deep) is dict and type(deep["function"]) is dict
    assert entry == add_payload()


def test_the_payload_follows_the_effective_tools_and_strictness():
    tools = tools_from(add, echo)
    names, sent = tools_payload(tools)
    assert names == ("add", "echo") and list(sent) == [t.spec.to_openai() for t in tools]
    assert tools_payload(tools[::-1])[0] == ("echo", "add")
    assert list(tools_payload(tools, True)[1]) == [t.spec.to_openai(strict=True) for t in tools]
    assert tools_payload([]) == ((), ())


def test_build_context_equals_the_plain_merge_on_every_call():
    tools = [add, echo, hand_tool()]
    plain = ToolContext()
    plain.add(tools_from(*tools))
    for _ in range(3):
        context = build_context(tools)
        assert context.available == plain.available
        assert list(context.available) == list(plain.available)
        assert context.effective == plain.effective
    context.hidden.add("echo")
    assert [t.name for t in context.effective] == ["add", "hand"]


def test_a_cleared_reflection_rebuilds_the_tools_as_tools_from_does():
    first = build_context([add]).available["add"]
    assert build_context([add]).available["add"] is first
    reflect.clear_cache()
    again = build_context([add]).available["add"]
    assert again is not first and again.spec == first.spec
    assert again is tools_from(add)[0]


def test_duplicate_names_raise_on_every_call():
    @tool("Another add.", name="add")
    def twin(a: int) -> int:
        return a

    for _ in range(2):
        with pytest.raises(ToolDefinitionError, match="already used"):
            build_context([add, twin])


def test_objects_and_modules_are_collected_every_call():
    module = types.ModuleType("shop_tools")
    module.add = add
    add.__module__, saved = "shop_tools", add.__module__
    try:
        assert list(build_context([module]).available) == ["add"]

        @tool("Echo.")
        def echo2(text: str) -> str:
            return text

        echo2.__module__ = "shop_tools"
        module.echo2 = echo2
        assert list(build_context([module]).available) == ["add", "echo2"]  # not the remembered list
    finally:
        add.__module__ = saved

    class Shop:
        @tool("Price.")
        def price(self, sku: str) -> float:
            return 1.0

    shop = Shop()
    assert build_context([shop]).available["price"].function is not None
    assert build_context([shop]).available["price"] is not build_context([shop]).available["price"]  # as before


def test_tools_of_keys_functions_by_themselves_and_tools_by_their_ids():
    from toolkit.loop.sources import _key, _tools_of

    functions = [add, echo]
    assert _key(functions, {types.FunctionType}) == (add, echo)
    hand = hand_tool()
    assert _key([add, hand], {types.FunctionType, Tool}) == (id(add), id(hand))
    for sources in ([add, echo], [add, hand], [hand], [echo, add]):
        for _ in range(2):  # collected, then remembered: the same as tools_from every time
            assert list(_tools_of(sources).items()) == [(t.name, t) for t in tools_from(*sources)]


def test_an_equal_tool_set_reuses_its_entries_and_a_changed_one_does_not():
    first, again = tools_from(add, echo), tools_from(add, echo)
    names, sent = tools_payload(first)
    twin = [Tool(t.spec, t.executor, t.source, t.function) for t in first]  # equal, not the same objects
    assert tools_payload(twin) == (names, sent)
    assert tools_payload(again) == (names, sent)
    other = [*first, hand_tool()]
    assert tools_payload(other)[0] == ("add", "echo", "hand")
    assert tools_payload(first[:1]) == (("add",), (sent[0],))
    assert list(tools_payload(first, True)[1]) == [t.spec.to_openai(strict=True) for t in first]
    assert list(tools_payload(first)[1]) == [t.spec.to_openai() for t in first]
    changed = [first[0], Tool(ToolSpec("echo", "Other.", {"type": "object", "properties": {}}), first[1].executor)]
    assert [e["function"]["description"] for e in tools_payload(changed)[1]] == ["Add two integers.", "Other."]


def test_more_tools_than_a_request_takes_are_told_once_in_one_line_with_what_they_weigh(caplog, monkeypatch):
    """An MCP server listing 10,000 tools had them all sent to the model in silence: OpenAI refuses more
    than 128, and other gateways bill them every turn. The loop says so once per set of names, what the
    specs weigh and how to narrow them; 128 tools say nothing."""
    import logging

    from toolkit.loop import payload

    monkeypatch.setattr(payload, "_told", set())
    many = [hand_tool(f"t{i}") for i in range(129)]
    weight = len(json.dumps([t.spec.to_openai() for t in many], ensure_ascii=False))
    with caplog.at_level(logging.WARNING, logger="toolkit.loop"):
        tools_payload(many[:128])
        for _ in range(2):
            tools_payload(many)
            tools_payload([hand_tool(f"t{i}") for i in range(129)])  # the same names, new tools: told already
    assert [r.getMessage() for r in caplog.records if r.name == "toolkit.loop"] == [
        f"the model is offered 129 tools in one request, their specs {weight:,} characters of JSON sent with every "
        "request (OpenAI refuses more than 128): offer fewer, filter_tools(provider, names) (toolkit.loop.wrappers), "
        "or have the model search them, ToolSearch(KeywordSearch()).context(tools, providers) (toolkit.search)"
    ]


def test_the_last_tools_list_asked_again_gives_what_tools_from_gives_after_any_change():
    from toolkit.loop.sources import _tools_of

    hand = hand_tool()
    sources = [add, hand]
    assert list(_tools_of(sources).items()) == [(t.name, t) for t in tools_from(*sources)]
    assert list(_tools_of(sources).items()) == [(t.name, t) for t in tools_from(*sources)]  # the last one again
    twin = Tool(hand.spec, hand.executor, hand.source, hand.function)  # equal, not the same object
    sources[1] = twin
    assert _tools_of(sources)["hand"] is twin
    sources.append(echo)
    assert list(_tools_of(sources)) == ["add", "hand", "echo"]
    sources.pop()
    assert list(_tools_of(sources)) == ["add", "hand"] and _tools_of(sources)["hand"] is twin
    first = _tools_of([add])["add"]
    reflect.clear_cache()
    assert _tools_of([add])["add"] is not first and _tools_of([add])["add"] is tools_from(add)[0]


class ChangingContext:
    """A model that answers with two calls of `add`, then text; after its first reply, a tool of the
    caller's own context joins it (as a caller's `context=` may change between two requests)."""

    def __init__(self, context: ToolContext | None = None) -> None:
        self.sent: list[list[str]] = []
        self.context = context
        self.replies = iter([call("add", a=1, b=2), call("add", a=3, b=4), "10"])

    def chat(self, messages, tools=None, tool_choice=None, **extra):
        from toolkit.chat.scripted import ScriptedModel

        self.sent.append([t["function"]["name"] for t in tools or ()])
        if self.context is not None and "hand" not in self.context.available:
            self.context.add([hand_tool()])
        return ScriptedModel([next(self.replies)]).chat(messages, tools=tools)


@pytest.mark.parametrize("strict", [False, True])
def test_a_turns_own_tools_send_the_same_array_in_every_request_and_a_callers_context_its_changes(strict):
    options = LoopOptions(strict_tools=strict)
    model = ChangingContext()
    rounds = run_loop(model, Q, tools=[add, echo], options=options).rounds
    assert model.sent == [["add", "echo"]] * 3
    expected = [t.spec.to_openai(strict=strict) for t in tools_from(add, echo)]
    assert [r.tools_payload for r in rounds] == [expected] * 3
    assert [r.tools_sent for r in rounds] == [["add", "echo"]] * 3
    assert rounds[0].tools_payload is not rounds[1].tools_payload and rounds[0].tools_sent is not rounds[1].tools_sent
    context = build_context([add, echo])
    model = ChangingContext(context)
    run_loop(model, Q, context=context, options=options)
    assert model.sent == [["add", "echo"], ["add", "echo", "hand"], ["add", "echo", "hand"]]
