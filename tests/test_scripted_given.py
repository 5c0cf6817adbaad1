"""`toolkit.chat.scripted`: what `ScriptedModel` takes as its script and as the conversation.

A script that is not a list of turns was read as one: a str letter by letter (`ScriptedModel("hello")`
answered "h", then "e"…), a dict key by key, a set in hash order (another order in each process), a
`ToolCall` field by field; `None` or a number was a raw `TypeError`. Each is now a `ConfigurationError`
naming the fix; a tuple or a generator is read in order. An exception class is raised as `raise
ValueError` raises it (it was called with the request); another class is refused at construction.
`chat()` / `stream()` take what the client takes: a str is the user's message; `None`, a dict, or a
list holding something that is not a message is a `ConfigurationError` (a raw `AttributeError`).
`requests=None` was a raw `AttributeError` at the first request and `name=3` was taken: both are refused
at construction."""

import pytest
from test_client_given import NO_CONVERSATION

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError

FIX = "give the turns in a list, one per request: ScriptedModel(['the answer']) or ScriptedModel([call(...), '...'])"
HI = [UserMessage(content="hi")]


@pytest.mark.parametrize(
    ("script", "said"),
    [
        ("hello", "the script is one turn (str), not a list of turns"),
        (call("add", a=1, id="c1"), "the script is one turn (ToolCall), not a list of turns"),
        ({"hello", "bye"}, "the script is a set, which has no order (its turns would play in another order in each "
         "process)"),
        ({"hello": 1}, "the script is a dict, not a list of turns"),
        (None, "the script is a NoneType, not a list of turns"),
        (3, "the script is an int, not a list of turns"),
    ],
)  # fmt: skip
def test_a_script_that_is_no_list_of_turns_is_a_configuration_error(script, said):
    with pytest.raises(ConfigurationError) as caught:
        ScriptedModel(script)
    assert str(caught.value) == f"ScriptedModel: {said}; {FIX}"


def test_a_tuple_or_a_generator_of_turns_plays_in_order():
    assert ScriptedModel(("a", "b")).script == ["a", "b"]
    model = ScriptedModel(turn for turn in ["a", "b"])
    assert [model.chat(HI).message.content for _ in range(2)] == ["a", "b"]


def test_an_exception_class_is_raised_and_another_class_is_refused():
    with pytest.raises(TimeoutError):
        ScriptedModel([TimeoutError]).chat(HI)
    with pytest.raises(ConfigurationError) as caught:
        ScriptedModel(["a", ScriptedModel])
    assert str(caught.value).startswith(
        "ScriptedModel: turn 2 of the script is the class ScriptedModel; a turn is text"
    )


def test_a_str_is_the_users_message():
    model = ScriptedModel(["hello", "again"])
    assert model.chat("hi").message.content == "hello"
    assert model.requests[0].messages == (UserMessage(content="hi"),)
    assert [e.text for e in model.stream("hi") if hasattr(e, "text")] == ["agai", "n"]


@pytest.mark.parametrize(("messages", "said"), NO_CONVERSATION)
def test_what_is_no_conversation_is_a_configuration_error(messages, said):
    with pytest.raises(ConfigurationError) as caught:
        ScriptedModel(["hello"]).chat(messages)
    assert str(caught.value) == f"ScriptedModel.chat: {said}"


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (3, "the arguments are the JSON text the model sends (a str) or a dict of them, and got an int; pass "
         "call('add', a=1) or call('add', {'a': 1})"),
        (b'{"a": 1}', "the arguments are the JSON text the model sends (a str) or a dict of them, and got a bytes; "
         "pass call('add', a=1) or call('add', {'a': 1})"),
        ({"a": {1, 2}}, "the arguments cannot be written as JSON (Object of type set is not JSON serializable); give "
         "JSON values (str, int, float, bool, None, and lists and dicts of them), or the model's raw text as a str"),
    ],
)  # fmt: skip
def test_call_with_arguments_that_are_no_json_is_a_configuration_error(arguments, said):
    with pytest.raises(ConfigurationError) as caught:  # a raw TypeError: "'int' object is not a mapping"
        call("add", arguments)
    assert str(caught.value) == f"call('add', ...): {said}"


def test_call_still_takes_raw_text_a_dict_and_keywords():
    assert call("add", "not json", id="c").arguments == "not json"
    assert call("add", {"a": 1}, b=2, id="c").arguments == '{"a": 1, "b": 2}'


@pytest.mark.parametrize(
    ("keywords", "said"),
    [
        ({"requests": None}, "requests= is the list each request is recorded in, and got a NoneType; leave it out "
         "(model.requests starts empty) or pass a list"),
        ({"requests": ()}, "requests= is the list each request is recorded in, and got a tuple; leave it out "
         "(model.requests starts empty) or pass a list"),
        ({"name": 3}, "name= is the model's name, a str, and got an int; pass e.g. name='scripted'"),
    ],
)  # fmt: skip
def test_requests_and_name_of_the_wrong_type_are_configuration_errors(keywords, said):
    with pytest.raises(ConfigurationError) as caught:  # requests=None: a raw AttributeError at the first chat
        ScriptedModel(["hello"], **keywords)
    assert str(caught.value) == f"ScriptedModel: {said}"


def test_a_list_of_ones_own_records_the_requests():
    seen: list = []
    model = ScriptedModel(["hello"], requests=seen, name="mine")
    model.chat("hi")
    assert model.requests is seen and len(seen) == 1
