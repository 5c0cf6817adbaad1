import pytest

from toolkit.chat.messages import AssistantMessage, ChatResponse, UserMessage
from toolkit.chat.scripted import ScriptedModel, call, reset_call_ids
from toolkit.errors import ScriptExhausted

TOOLS = [{"type": "function", "function": {"name": "query_order"}}]


def test_turns_of_every_kind_play_back_in_order():
    reset_call_ids()
    model = ScriptedModel(
        [
            call("query_order", orderId="SN202610200001"),
            [call("a"), call("b", "{oops")],
            AssistantMessage(content="x"),
            lambda request: f"I saw {len(request.messages)} messages",
            "done",
        ]
    )
    first = model.chat([UserMessage(content="q")], tools=TOOLS, tool_choice="auto")
    assert first.message.tool_calls[0].arguments == '{"orderId": "SN202610200001"}'
    assert first.message.tool_calls[0].id == "call_1" and first.finish_reason == "tool_calls"
    second = model.chat([UserMessage(content="q")])
    assert [(c.id, c.arguments) for c in second.message.tool_calls] == [("call_2", "{}"), ("call_3", "{oops")]
    assert model.chat([]).message.content == "x"
    assert model.chat([UserMessage(content="1"), UserMessage(content="2")]).message.content == "I saw 2 messages"
    last = model.chat([])
    assert last.finish_reason == "stop" and last.usage.output_tokens == 1
    assert model.requests[0].tools == ("query_order",) and model.requests[0].tool_choice == "auto"


def test_a_full_response_is_passed_through():
    response = ChatResponse(message=AssistantMessage(content="hi"), finish_reason="length")
    assert ScriptedModel([response]).chat([]) is response


def test_running_out_of_script_is_loud():
    model = ScriptedModel(["only one"])
    model.chat([])
    with pytest.raises(ScriptExhausted, match="no turn left for request 2"):
        model.chat([])


def test_a_script_used_up_by_an_earlier_run_says_to_make_the_model_again():
    """A cell run twice asks a model made in an earlier cell again: the error only said there was
    no turn left, and its hint said to add a turn, not to run the cell that makes the model."""
    model = ScriptedModel(["one", "two"])
    model.chat([])
    model.chat([])
    with pytest.raises(ScriptExhausted) as raised:
        model.chat([])
    assert str(raised.value) == "the script has no turn left for request 3: its 2 turns were used by requests 1 to 2"
    assert raised.value.hint == (
        "Each turn answers one request: if you ran a cell again, run the cell that makes the model again; "
        "else add a turn (text for an answer, call(...) for a tool call). model.requests shows each request."
    )
    with pytest.raises(ScriptExhausted, match=r"^the script has no turn left for request 1: it is empty$"):
        ScriptedModel([]).chat([])
    once = ScriptedModel(["one"])
    once.chat([])
    with pytest.raises(
        ScriptExhausted, match=r"^the script has no turn left for request 2: its 1 turn was used by request 1$"
    ):
        once.chat([])


def test_a_bad_turn_is_refused_when_the_script_is_made():
    from toolkit.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as raised:
        ScriptedModel(["hi", 42])
    assert str(raised.value) == (
        "ScriptedModel: turn 2 of the script is 42; a turn is text, a ToolCall or a list of them, an "
        "AssistantMessage, a ChatResponse, an exception to raise, or a function of the request returning one of "
        "those"
    )
    model = ScriptedModel([lambda request: 42])  # a function's answer is read when it is played
    with pytest.raises(ConfigurationError, match="ScriptedModel: a turn is 42; a turn is text"):
        model.chat([])


def test_a_scripted_keyboard_interrupt_is_raised_as_it_is():
    model = ScriptedModel([KeyboardInterrupt()])
    with pytest.raises(KeyboardInterrupt):
        model.chat([])


def test_a_recorded_request_is_the_record_its_class_makes():
    """`Request._of` (each request recorded without the frozen `__init__`'s setattr per field)
    makes what `Request(...)` makes: equal, the same repr, still frozen."""
    import dataclasses

    from toolkit.chat.scripted import Request

    message = UserMessage(content="hi")
    fast = Request._of((message,), ("add",), "auto", {"temperature": 0})
    plain = Request((message,), ("add",), "auto", {"temperature": 0})
    assert (fast, repr(fast), hash(fast.messages)) == (plain, repr(plain), hash(plain.messages))
    assert dataclasses.asdict(fast) == dataclasses.asdict(plain)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.tools = ()  # type: ignore[misc]
    model = ScriptedModel(["ok"])
    model.chat([message], tools=[{"type": "function", "function": {"name": "add"}}], tool_choice="auto", seed=1)
    assert model.requests == [Request((message,), ("add",), "auto", {"seed": 1})]


def test_a_scripted_refusal_streams_its_words_as_a_streamed_refusal_does():
    from toolkit.chat.sse import StreamDone, TextDelta

    events = list(ScriptedModel([AssistantMessage(refusal="I can't help.")]).stream([UserMessage(content="q")]))
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "I can't help."
    assert isinstance(events[-1], StreamDone) and events[-1].response.message.text == "I can't help."


def test_describe_counts_one_turn_in_the_singular():
    """Before: 'scripted model (1 turns left)'."""
    assert ScriptedModel(["a"]).describe() == "scripted model (1 turn left)"
    assert ScriptedModel(["a", "b"]).describe() == "scripted model (2 turns left)"
