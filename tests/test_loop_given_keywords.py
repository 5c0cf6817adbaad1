"""`toolkit.loop.run`: what `run_loop` / `iter_loop` accept as `model`, `memory=`, `options=`,
`parameters=`, `context=` and `providers=`. Each was a raw `AttributeError` or `TypeError` from
inside the turn (`'str' object has no attribute 'lock'`, `'dict' object has no attribute 'texts'`,
`'NoneType' object has no attribute 'chat'`), some after the question was stored; now a
`ConfigurationError` naming the keyword and the fix, before anything is stored or sent.
`options=None` and `providers=None` are the defaults, as `tools=None` is no tools. `parameters={1: 2}` (a
key that is no str, which no tool can read by name) was taken silently: refused as `request_extra` is."""

import pytest

from toolkit.chat.client import ChatClient
from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel
from toolkit.chat.switch import connect
from toolkit.errors import ConfigurationError
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import iter_loop, run_loop
from toolkit.memory.windows import ChatMemory, MessageWindow
from toolkit.services.service import memory_per_id


def error_of(**keywords):
    with pytest.raises(ConfigurationError) as caught:
        run_loop(ScriptedModel(["hello"]), "hi", **keywords)
    return str(caught.value)


@pytest.mark.parametrize(
    ("memory", "said"),
    [
        ("ann", "a str; pass memory=ChatMemory('ann') (the conversation of that memory id)"),
        (ChatMemory, "the class ChatMemory; pass an instance, one per conversation: memory=ChatMemory('user-1')"),
        (MessageWindow(4), "a MessageWindow; give the window to the memory: memory=ChatMemory('user-1', window=...)"),
        (memory_per_id(), "the function provide; a function of the memory id is what ai_service(memory=...) takes; "
         "pass one conversation's memory, e.g. memory=ChatMemory('user-1') (or memory=memories('user-1') with "
         "memories = memory_per_id())"),
        ({}, "a dict; pass memory=ChatMemory('user-1'), one per conversation (or leave memory out)"),
    ],
)  # fmt: skip
def test_a_memory_that_is_no_chat_memory_is_a_configuration_error(memory, said):
    assert error_of(memory=memory) == f"run_loop: memory= takes a ChatMemory, and got {said}"


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"max_round_trips": 3}, "a dict; pass options=LoopOptions(**options)"),
        (LoopOptions, "the class LoopOptions; pass an instance: options=LoopOptions()"),
        ("fast", "a str; pass options=LoopOptions(...), e.g. options=LoopOptions(max_round_trips=5)"),
    ],
)
def test_options_that_are_no_loop_options_are_a_configuration_error(options, said):
    assert error_of(options=options) == f"run_loop: options= takes a LoopOptions, and got {said}"


def test_parameters_and_context_of_the_wrong_type_are_configuration_errors():
    assert error_of(parameters=[("user", "ann")]) == (
        "run_loop: parameters= takes a dict (the values a tool's InvocationContext.parameters holds), and got a "
        "list; pass e.g. parameters={'user_name': 'Ann'}"
    )
    assert error_of(context={"tools": []}) == (
        "run_loop: context= takes the ToolContext that build_context() made, and got a dict; give the tools as "
        "tools=[...], providers=[...] or registry=..., and leave context out"
    )


def test_iter_loop_names_itself_and_nothing_is_stored():
    memory = ChatMemory("kept")
    with pytest.raises(ConfigurationError, match=r"^iter_loop: options= takes a LoopOptions, and got a dict"):
        next(iter_loop(ScriptedModel(["hello"]), "hi", memory=memory, options={}))
    assert memory.messages() == []


@pytest.mark.parametrize(
    ("model", "said"),
    [
        (
            "gpt-4o",
            "the str 'gpt-4o'; a model name is no model: pass connect() with LLM_MODEL=gpt-4o set, "
            "or ChatClient(base_url, api_key, 'gpt-4o')",
        ),
        (None, "None; pass e.g. connect(), fake_client() or ScriptedModel([...])"),
        (ScriptedModel, "the class ScriptedModel; pass an instance, e.g. ScriptedModel(...)"),
    ],
)
def test_a_model_that_is_no_chat_model_is_a_configuration_error(model, said):
    with pytest.raises(ConfigurationError) as caught:
        run_loop(model, [UserMessage(content="hi")])
    assert str(caught.value) == f"run_loop: the model must be a chat model (with chat(messages, ...)), and got {said}"


def test_a_model_that_cannot_stream_is_named_when_streaming_is_asked_for():
    class ChatOnly:
        def chat(self, messages, **request):
            return ScriptedModel(["hello"]).chat(messages, **request)

    assert run_loop(ChatOnly(), "hi").answer == "hello"
    with pytest.raises(ConfigurationError) as caught:
        run_loop(ChatOnly(), "hi", options=LoopOptions(stream=True))
    assert str(caught.value) == (
        "run_loop: the model (ChatOnly) has no stream(), which LoopOptions(stream=True) asks for; leave stream out, "
        "or pass a model that streams (ChatClient, ScriptedModel)"
    )


def test_none_is_the_default_for_options_and_providers():
    assert run_loop(ScriptedModel(["hello"]), "hi", options=None, providers=None).answer == "hello"


def test_a_subclass_of_memory_or_options_passes():
    class MyMemory(ChatMemory):
        pass

    class MyOptions(LoopOptions):
        pass

    memory = MyMemory("sub")
    assert run_loop(ScriptedModel(["hello"]), "hi", memory=memory, options=MyOptions()).answer == "hello"
    assert len(memory.messages()) == 2


@pytest.mark.parametrize(
    ("parameters", "key"),
    [({1: 2}, "an int (1)"), ({"user": "ann", None: 1}, "None"), ({("a", "b"): 1}, "a tuple (('a', 'b'))")],
)
def test_parameters_keyed_by_no_str_are_a_configuration_error(parameters, key):
    memory = ChatMemory("kept")  # as LoopOptions(request_extra={1: 2}) is refused: a tool reads them by name
    assert error_of(parameters=parameters, memory=memory) == (
        "run_loop: parameters= names each value with a str (what a tool reads from InvocationContext.parameters), "
        f"and got the key {key}; pass e.g. parameters={{'user_name': 'Ann'}}"
    )
    assert memory.messages() == []


def test_parameters_keyed_by_str_reach_the_tool():
    from toolkit.chat.scripted import call
    from toolkit.tools.decorator import InvocationContext, tool

    class Key(str):
        pass

    @tool
    def whoami(ctx: InvocationContext) -> str:
        """Who is asking."""
        return ",".join(sorted(ctx.parameters))

    for parameters in ({"user": "ann", "tenant": "t"}, {Key("user"): "ann"}):
        result = run_loop(ScriptedModel([call("whoami", id="c1"), "done"]), "hi", tools=[whoami], parameters=parameters)
        assert result.messages[2].content == ",".join(sorted(parameters))


def test_a_tool_cannot_change_the_parameters_every_call_of_the_turn_shares():
    """A tool that wrote `ctx.parameters["user"]` changed who the later calls (and, in a concurrent
    round, the ones running beside it) acted for, and what the trace said the earlier calls ran with."""
    from toolkit.chat.scripted import call
    from toolkit.tools.decorator import InvocationContext, tool

    @tool
    def switch_user(ctx: InvocationContext) -> str:
        """Act for someone else."""
        ctx.parameters["user"] = "mallory"  # type: ignore[index]
        return "switched"

    @tool
    def whoami(ctx: InvocationContext) -> str:
        """Who is asking."""
        return ctx.parameters["user"]

    given = {"user": "ann"}
    script = ScriptedModel([[call("whoami", id="c1"), call("switch_user", id="c2"), call("whoami", id="c3")], "done"])
    result = run_loop(script, "hi", tools=[whoami, switch_user], parameters=given)
    assert [(e.call.id, e.result.content) for e in result.executions] == [
        ("c1", "ann"),
        (
            "c2",
            "Tool 'switch_user' failed: TypeError: InvocationContext.parameters is shared by every call of the turn "
            "and read-only; keep a tool's own state elsewhere (e.g. on its object, keyed by context.turn)",
        ),
        ("c3", "ann"),
    ]
    assert [e.context.parameters for e in result.executions] == [given] * 3
    assert given == {"user": "ann"}


def test_the_fix_a_model_name_is_given_works():
    """Before: a model name passed as the model was told "a model name goes to connect(model='gpt-4o')", a call
    that connect() itself refuses (`model= is not an option of connect()`): the hint led to a second error."""
    env = {"LLM_BASE_URL": "http://127.0.0.1:9/v1", "LLM_API_KEY": "sk-test", "LLM_MODEL": "gpt-4o"}
    assert connect(env=env).model == ChatClient("http://127.0.0.1:9/v1", "sk-test", "gpt-4o").model == "gpt-4o"
