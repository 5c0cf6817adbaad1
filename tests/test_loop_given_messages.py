"""`toolkit.loop.run`: what `run_loop` / `iter_loop` accept as the conversation. A `str` alone is
the user's question (as pydantic-ai's `run_sync("…")` and the Agents SDK's `Runner.run(agent, "…")`
take it); a dict, `None` or a number is a `ConfigurationError` naming the fix; a list holding
something that is not a message (an OpenAI-format dict) is one too, where it used to be the
model's raw `AttributeError`. An empty conversation (no messages, and no memory holding any) was sent to
the model as `"messages": []`, a gateway's 400: it is a `ConfigurationError` before anything is sent; with
messages in memory, an empty list goes on from them."""

import pytest

from toolkit.chat.messages import AssistantMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import iter_loop, run_loop
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def test_a_str_is_the_users_question():
    model = ScriptedModel([call("add", a=1, b=2), "3"])
    result = run_loop(model, "what is 1 + 2?", tools=[add])
    assert result.answer == "3"
    assert list(model.requests[0].messages) == [UserMessage(content="what is 1 + 2?")]


def test_a_str_is_the_question_of_iter_loop_and_goes_to_memory():
    memory = ChatMemory("ann")
    events = iter_loop(ScriptedModel(["hello"]), "hi", memory=memory)
    with pytest.raises(StopIteration) as done:
        while True:
            next(events)
    assert done.value.value.answer == "hello"
    assert memory.messages() == [UserMessage(content="hi"), AssistantMessage(content="hello")]


FIX = "pass [UserMessage(content=...)], the conversation so far ending with the user's question"


@pytest.mark.parametrize(
    ("given", "kind"),
    [({"role": "user", "content": "hi"}, "dict"), (None, "NoneType"), (42, "int"), (b"hi", "bytes")],
)
def test_what_is_no_conversation_is_a_configuration_error(given, kind):
    with pytest.raises(ConfigurationError) as caught:
        run_loop(ScriptedModel(["hello"]), given)
    assert str(caught.value) == f"run_loop: expected a list of messages (or the question as a str), got {kind}; {FIX}"
    with pytest.raises(ConfigurationError, match=r"^iter_loop: expected a list of messages"):
        next(iter_loop(ScriptedModel(["hello"]), given))


MISFIT = (
    "message 1 (dict) is not a message record; pass SystemMessage, UserMessage, AssistantMessage or "
    "ToolResultMessage records (or the question alone as a str)"
)


@pytest.mark.parametrize("stream", [False, True], ids=["chat", "stream"])
def test_a_dict_in_the_list_is_a_configuration_error_not_the_models_attribute_error(stream):
    messages = [UserMessage(content="hi"), {"role": "user", "content": "hello"}]
    with pytest.raises(ConfigurationError) as caught:
        run_loop(ScriptedModel(["hello"]), messages, options=LoopOptions(stream=stream))
    assert str(caught.value) == f"run_loop: {MISFIT}"
    assert isinstance(caught.value.__cause__, AttributeError)


def test_a_models_own_attribute_error_is_not_blamed_on_the_conversation():
    class Broken(ScriptedModel):
        def chat(self, messages, **request):
            raise AttributeError("my model's own bug")

    with pytest.raises(AttributeError, match="my model's own bug"):
        run_loop(Broken(["x"]), [UserMessage(content="hi")])


@pytest.mark.parametrize("empty", [[], ()])
def test_an_empty_conversation_is_a_configuration_error_before_anything_is_sent(empty):
    model = ScriptedModel(["hello"])
    with pytest.raises(ConfigurationError) as caught:
        run_loop(model, empty, tools=[add])
    assert str(caught.value) == (
        "run_loop: the conversation is empty (no messages given): there is nothing to ask the model; pass the "
        "question, run_loop(model, 'your question'), or the conversation so far ending with it, "
        "run_loop(model, [UserMessage(content=...)])"
    )
    assert model.requests == []


def test_an_empty_list_with_an_empty_memory_is_one_too():
    model, memory = ScriptedModel(["hello"]), ChatMemory("ann")
    with pytest.raises(ConfigurationError) as caught:
        list(iter_loop(model, [], memory=memory))
    assert str(caught.value) == (
        "iter_loop: the conversation is empty (no messages given, and memory 'ann' holds none): there is nothing "
        "to ask the model; pass the question, iter_loop(model, 'your question'), or the conversation so far ending "
        "with it, iter_loop(model, [UserMessage(content=...)])"
    )
    assert model.requests == [] and memory.messages() == []
    assert run_loop(model, "hi", memory=memory).answer == "hello"  # the memory's lock was let go


def test_an_empty_list_goes_on_from_the_conversation_in_memory():
    memory = ChatMemory("bob")
    memory.add_all([UserMessage(content="what is 1 + 2?")])
    model = ScriptedModel(["3"])
    assert run_loop(model, [], memory=memory).answer == "3"
    assert list(model.requests[0].messages) == [UserMessage(content="what is 1 + 2?")]


def test_an_empty_memory_with_a_long_id_is_named_cut_not_whole():
    """A long memory id (a whole page passed as the id; a 100,000-character one is refused, past
    MAX_ID_CHARS) made a line as long; the id is shown cut, as the memory stores show it."""
    memory = ChatMemory("x" * 4_000)
    with pytest.raises(ConfigurationError) as caught:
        run_loop(ScriptedModel(["hello"]), [], memory=memory)
    assert str(caught.value) == (
        "run_loop: the conversation is empty (no messages given, and memory '" + "x" * 78 + "… holds none): there "
        "is nothing to ask the model; pass the question, run_loop(model, 'your question'), or the conversation so "
        "far ending with it, run_loop(model, [UserMessage(content=...)])"
    )
