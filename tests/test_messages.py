import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from toolkit.chat.messages import (
    AssistantMessage,
    SystemMessage,
    TokenUsage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    dump_message,
    load_message,
    message_from_openai,
    to_openai,
)

WIRE = [
    {"role": "system", "content": "你是电商客服。"},
    {"role": "user", "content": "帮我查一下订单 SN202610200001 现在到哪了？"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "query_logistics", "arguments": '{"orderId":"SN202610200001"}'},
            },
            {"id": "call_2", "type": "function", "function": {"name": "query_order", "arguments": "{orderId:"}},
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "运输中"},
    {"role": "tool", "tool_call_id": "call_2", "content": "参数不是合法 JSON"},
    {"role": "assistant", "content": "您的包裹正在运输途中。"},
]


def test_wire_round_trip_is_lossless():
    messages = [message_from_openai(m) for m in WIRE]
    assert to_openai(messages) == WIRE


def test_records_round_trip_through_wire():
    messages = [message_from_openai(m) for m in WIRE]
    assert [message_from_openai(d) for d in to_openai(messages)] == messages


def test_attributes_are_stored_but_never_sent():
    result = ToolResultMessage(
        tool_call_id="c1",
        tool_name="tool_search_tool",
        content="found 2",
        attributes={"found_tools": ["query_order", "query_logistics"]},
    )
    assert result.to_openai() == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "found 2",
        "name": "tool_search_tool",
    }
    assert load_message(dump_message(result)) == result
    assert dump_message(result)["attributes"] == {"found_tools": ["query_order", "query_logistics"]}


def test_assistant_text_and_tool_calls_together():
    message = AssistantMessage(content="我来查一下", tool_calls=(ToolCall(id="a", name="q", arguments="{}"),))
    assert message.has_tool_calls
    assert message.to_openai()["content"] == "我来查一下"
    assert not AssistantMessage(content="hi").has_tool_calls
    assert "tool_calls" not in AssistantMessage(content="hi").to_openai()


def test_arguments_sent_as_an_object_are_kept_as_sorted_json_text():
    call = ToolCall.from_openai({"id": "x", "function": {"name": "q", "arguments": {"b": 1, "a": "中"}}})
    assert call.arguments == '{"a": "中", "b": 1}'


PNG = "data:image/png;base64,iVBORw0KGgo="


def test_a_user_message_without_images_keeps_its_plain_wire_form_and_dump():
    message = UserMessage(content="hi")
    assert message.to_openai() == {"role": "user", "content": "hi"}
    assert dump_message(message) == {"role": "user", "content": "hi"}  # stored rows unchanged


def test_a_user_message_with_images_goes_out_as_content_parts_and_comes_back():
    """Issue 15 item 14: images reach the model as `image_url` parts after the text."""
    message = UserMessage(content="look", images=(PNG, "https://example.com/a.png"))
    wire = message.to_openai()
    assert wire == {
        "role": "user",
        "content": [
            {"type": "text", "text": "look"},
            {"type": "image_url", "image_url": {"url": PNG}},
            {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
        ],
    }
    assert message_from_openai(wire) == message
    assert load_message(dump_message(message)) == message
    only_images = UserMessage(content="", images=(PNG,))
    assert only_images.to_openai()["content"] == [{"type": "image_url", "image_url": {"url": PNG}}]
    assert message_from_openai(only_images.to_openai()) == only_images


def test_wire_content_parts_are_read_text_joined_and_detail_dropped():
    parts = [
        {"type": "text", "text": "a"},
        {"type": "image_url", "image_url": {"url": PNG, "detail": "low"}},
        {"type": "text", "text": "b"},
    ]
    assert message_from_openai({"role": "user", "content": parts}) == UserMessage(content="a\nb", images=(PNG,))


def test_the_loop_marker_is_stored_but_never_sent():
    message = UserMessage(content="Images returned by tool call c1 (shot): 1", images=(PNG,), from_tool_calls=("c1",))
    assert load_message(dump_message(message)) == message
    assert "from_tool_calls" not in json.dumps(message.to_openai())


@pytest.mark.parametrize(
    "parts, error",
    [
        (
            [{"type": "input_audio", "input_audio": {"data": "", "format": "wav"}}],
            "content[0] is a part of type 'input_audio': a user message's content parts may only be",
        ),
        (["hi"], "content[0] is not an object (str)"),
        ([{"type": "image_url", "image_url": "x"}], "content[0] is a 'image_url' part without its 'image_url' field"),
        ([{"type": "image_url", "image_url": {"url": "ftp://x"}}], "images[0] = 'ftp://x' is not a data: URL or"),
    ],
)
def test_other_content_parts_are_refused_not_guessed(parts, error):
    with pytest.raises(ValidationError, match=re.escape(error)):
        message_from_openai({"role": "user", "content": parts})


def test_list_content_on_other_roles_is_still_refused():
    """Text parts on a system message are read (`test_messages_openai_now`); any other part is refused."""
    with pytest.raises(ValueError, match="a system message's content parts may only be"):
        message_from_openai({"role": "system", "content": [{"type": "image_url", "image_url": {"url": PNG}}]})
    with pytest.raises(ValidationError, match="not both"):
        UserMessage.model_validate({"content": [{"type": "text", "text": "x"}], "images": [PNG]})


def test_unknown_role_is_refused():
    with pytest.raises(ValidationError):
        message_from_openai({"role": "robot", "content": "beep"})


def test_token_usage_sums():
    total = sum(
        [TokenUsage(input_tokens=10, output_tokens=3), TokenUsage(input_tokens=5, output_tokens=2)], TokenUsage()
    )
    assert (total.input_tokens, total.output_tokens, total.total_tokens) == (15, 5, 20)
    assert TokenUsage.from_openai({"prompt_tokens": 7, "completion_tokens": 1}).to_openai() == {
        "prompt_tokens": 7,
        "completion_tokens": 1,
        "total_tokens": 8,
    }
    assert TokenUsage.from_openai(None) == TokenUsage(input_tokens=None, output_tokens=None)


def test_usage_the_gateway_did_not_report_is_none_and_shown_as_not_reported():
    unreported = TokenUsage.from_openai({"prompt_tokens": 7})
    assert (unreported.input_tokens, unreported.output_tokens, unreported.total_tokens) == (7, None, None)
    assert not unreported.reported and TokenUsage().reported
    assert (TokenUsage() + unreported).output_tokens is None  # a sum with an unknown part is unknown
    assert unreported.line() == "input 7 · output not reported · total not reported"
    assert str(unreported) == unreported.line()  # print(usage) shows the same line
    assert f"{TokenUsage(input_tokens=11, output_tokens=42)}" == "input 11 · output 42 · total 53"
    assert repr(unreported) == "TokenUsage(input_tokens=7, output_tokens=None)"
    assert TokenUsage.from_openai({"prompt_tokens": True, "completion_tokens": -1}) == TokenUsage(
        input_tokens=None, output_tokens=None
    )


@pytest.mark.parametrize(
    "sent, read",
    [
        ((12.0, 3.0), (12, 3)),
        ((1e3, 0.0), (1000, 0)),
        ((12.5, -1.0), (None, None)),
        ((float("nan"), 1e400), (None, None)),
    ],
)
def test_a_whole_float_token_count_is_that_count(sent, read):
    """JSON has one number type: `12.0` is 12 tokens (a fraction, NaN or an infinity counts nothing)."""
    usage = TokenUsage.from_openai({"prompt_tokens": sent[0], "completion_tokens": sent[1], "total_tokens": None})
    assert (usage.input_tokens, usage.output_tokens) == read


def test_records_are_immutable():
    with pytest.raises(ValidationError):
        SystemMessage(content="x").content = "y"  # type: ignore[misc]
    assert UserMessage(content="x") == UserMessage(content="x")


def test_a_providers_own_fields_on_a_tool_call_go_back_unchanged():
    """Gemini 3 wants its thought signature (`extra_content`) back on the call in the next request."""
    wire = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "query_order", "arguments": "{}"},
        "extra_content": {"google": {"thought_signature": "c2ln"}},
    }
    call = ToolCall.from_openai(wire)
    assert call.extra == {"extra_content": {"google": {"thought_signature": "c2ln"}}}
    assert call.to_openai() == wire
    assert load_message(dump_message(AssistantMessage(tool_calls=(call,)))) == AssistantMessage(tool_calls=(call,))
    plain = ToolCall(id="c", name="f")
    assert plain.to_openai() == {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    assert "extra" not in dump_message(AssistantMessage(tool_calls=(plain,)))["tool_calls"][0]


def test_an_assistant_messages_kept_fields_survive_memory_and_go_back_on_the_wire():
    wire = {"role": "assistant", "content": None, "reasoning_content": "think", "tool_calls": []}
    message = message_from_openai(wire)
    assert message.extra == {"reasoning_content": "think"}
    assert load_message(dump_message(message)) == message
    # no tool calls left: `content` must be a string on the wire (OpenAI refuses null there)
    assert message.to_openai() == {"role": "assistant", "content": "", "reasoning_content": "think"}
    assert "extra" not in dump_message(AssistantMessage(content="hi"))


def test_a_tool_result_names_its_tool_on_the_wire_when_it_knows_it():
    """Gemini's OpenAI-compatible endpoint answers a tool message without `name` with a 400;
    OpenAI's function-calling guide sends it too. Without a known tool name, none is sent."""
    named = ToolResultMessage(tool_call_id="c1", tool_name="query_order", content="ok")
    assert named.to_openai() == {"role": "tool", "tool_call_id": "c1", "content": "ok", "name": "query_order"}
    assert ToolResultMessage(tool_call_id="c1", content="ok").to_openai() == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "ok",
    }
    assert message_from_openai(named.to_openai()) == named


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.builds(
            TokenUsage, input_tokens=st.none() | st.integers(0, 10**6), output_tokens=st.none() | st.integers(0, 10**6)
        ),
        max_size=6,
    )
)
def test_the_total_of_usages_is_their_sum(usages):
    """`TokenUsage.total` (what the loop reports) equals adding the records one by one, an
    unreported count making the sum unreported."""
    assert TokenUsage.total(usages) == sum(usages, TokenUsage())


def test_an_assistant_message_without_text_or_calls_goes_out_with_a_string_content():
    """OpenAI (and the embedded gateway) refuse `content: null` without `tool_calls`; an empty
    reply stored in memory must not break every later turn."""
    assert AssistantMessage().to_openai() == {"role": "assistant", "content": ""}
    call = ToolCall(id="c", name="f")
    assert AssistantMessage(tool_calls=(call,)).to_openai()["content"] is None


def test_a_refusal_is_read_kept_and_sent_back_as_the_text():
    message = message_from_openai({"role": "assistant", "content": None, "refusal": "I can't help with that."})
    assert (message.content, message.refusal, message.text) == (
        None,
        "I can't help with that.",
        "I can't help with that.",
    )
    assert load_message(dump_message(message)) == message
    assert message.to_openai() == {"role": "assistant", "content": "I can't help with that."}
    assert "refusal" not in dump_message(AssistantMessage(content="hi"))


@pytest.mark.parametrize("arguments", [None, {}])
def test_null_or_missing_arguments_mean_none(arguments):
    function = {"name": "now"} if arguments == {} else {"name": "now", "arguments": arguments}
    assert ToolCall.from_openai({"id": "c", "type": "function", "function": function}).arguments == "{}"


@pytest.mark.parametrize("arguments, wire", [("", "{}"), ("  ", "{}"), ('{"a":1}', '{"a":1}'), ("{a: 1}", "{a: 1}")])
def test_empty_arguments_go_out_as_an_empty_object_and_others_as_written(arguments, wire):
    call = ToolCall(id="c", name="f", arguments=arguments)
    assert call.to_openai()["function"]["arguments"] == wire
    assert call.arguments == arguments  # the record keeps what the model sent


def test_only_the_three_turn_messages_derive_from_turn_message():
    from toolkit.chat.messages import TurnMessage

    class Mine(ToolResultMessage):
        pass

    assert isinstance(Mine(tool_call_id="c", content="r"), TurnMessage)
    assert not isinstance(SystemMessage(content="s"), TurnMessage)
    text = (
        "{}: only UserMessage, AssistantMessage and ToolResultMessage (and their subclasses) derive from "
        "TurnMessage; subclass one of them instead"
    )
    with pytest.raises(TypeError) as caught:

        class Stranger(TurnMessage):
            pass

    assert str(caught.value) == text.format("Stranger")
    with pytest.raises(TypeError) as caught:

        class Both(UserMessage, SystemMessage):
            pass

    assert str(caught.value) == text.format("Both")


def _deep_list(levels):
    value: list = []
    for _ in range(levels):
        value = [value]
    return value


def _deep_dict(levels):
    value: dict = {}
    for _ in range(levels):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    "call",
    [
        _deep_list(50_000),  # a call that is no object: its repr in the error recursed
        {"id": "c1", "function": _deep_dict(50_000)},  # no name: the error quoted the call
        {"id": "c1", "function": {"name": "f", "arguments": _deep_dict(50_000)}},  # json.dumps of the object recursed
    ],
    ids=["call", "function", "arguments"],
)
def test_a_message_nested_thousands_of_levels_deep_is_a_value_error_not_a_recursion_error(call):
    """A dict built in Python (not read from JSON, whose reader stops near 1,000 levels) can nest
    any depth: reading it raised RecursionError from a repr or `json.dumps`; now a ValueError.
    50,000 levels: past the recursion limit of every supported Python (3.13 reads 5,000)."""
    data = {"role": "assistant", "tool_calls": [call]}
    for read in (message_from_openai, AssistantMessage.from_openai):
        with pytest.raises(ValueError) as caught:
            read(data)
        assert str(caught.value) == "the message is nested too deep to read (past Python's recursion limit)"
