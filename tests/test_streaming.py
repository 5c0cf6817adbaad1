import json

import pytest

from toolkit.chat.context_limit import CONTEXT_HINT
from toolkit.chat.sse import StreamAssembler, StreamDone, TextDelta, ToolCallDelta, assemble
from toolkit.errors import BadResponseError, TransientError, TruncatedStreamError


def sse(*chunks, done=True):
    lines = []
    for chunk in chunks:
        lines += [f"data: {json.dumps(chunk, ensure_ascii=False)}", ""]
    if done:
        lines += ["data: [DONE]", ""]
    return lines


def delta(d, finish=None, **top):
    return {"id": "chatcmpl-1", "model": "m", "choices": [{"index": 0, "delta": d, "finish_reason": finish}], **top}


TOOL_STREAM = [
    delta({"role": "assistant"}),
    delta(
        {
            "tool_calls": [
                {"index": 0, "id": "call_a", "type": "function", "function": {"name": "query_order", "arguments": ""}}
            ]
        }
    ),
    delta({"tool_calls": [{"index": 0, "function": {"arguments": '{"order'}}]}),
    delta(
        {
            "tool_calls": [
                {
                    "index": 1,
                    "id": "call_b",
                    "type": "function",
                    "function": {"name": "query_logistics", "arguments": "{}"},
                }
            ]
        }
    ),
    delta({"tool_calls": [{"index": 0, "function": {"arguments": 'Id":"SN202610200001"}'}}]}),
    delta({}, finish="tool_calls"),
    {"id": "chatcmpl-1", "model": "m", "choices": [], "usage": {"prompt_tokens": 30, "completion_tokens": 9}},
]


def test_tool_call_fragments_are_joined_in_index_order():
    events = list(assemble(sse(*TOOL_STREAM)))
    done = events[-1]
    assert isinstance(done, StreamDone)
    calls = done.response.message.tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("call_a", "query_order", '{"orderId":"SN202610200001"}'),
        ("call_b", "query_logistics", "{}"),
    ]
    assert done.response.finish_reason == "tool_calls"
    assert done.response.usage.total_tokens == 39
    assert sum(isinstance(e, ToolCallDelta) for e in events) == 4


def test_text_deltas_arrive_in_order():
    events = list(assemble(sse(delta({"content": "您的"}), delta({"content": "包裹"}), delta({}, "stop"))))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["您的", "包裹"]
    assert events[-1].response.message.content == "您的包裹"
    assert events[-1].response.message.tool_calls == ()


def test_truncated_stream_raises_and_names_the_unfinished_call():
    events = assemble(sse(*TOOL_STREAM[:3], done=False))
    with pytest.raises(TruncatedStreamError) as info:
        list(events)
    assert str(info.value) == (
        "stream ended before [DONE] with tool call(s) query_order unfinished; nothing from it will be executed"
    )


def test_truncated_text_stream_raises_too():
    with pytest.raises(TruncatedStreamError, match=r"^stream ended before \[DONE\]; nothing"):
        list(assemble(sse(delta({"content": "hi"}), done=False)))


def test_garbage_chunk_is_a_bad_response():
    with pytest.raises(BadResponseError, match="stream chunk is not JSON"):
        list(assemble(["data: {not json", "data: [DONE]"]))


def test_error_event_mid_stream_is_a_bad_response():
    with pytest.raises(BadResponseError, match="error mid-stream"):
        list(assemble(sse({"error": {"message": "overloaded"}})))


def test_tool_call_without_name_is_a_bad_response():
    chunk = delta({"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]})
    with pytest.raises(BadResponseError, match="at index \\[0\\] have no name"):
        list(assemble(sse(chunk, delta({}, "tool_calls"))))


def test_comments_and_blank_lines_are_ignored():
    lines = [": keep-alive", "event: message"] + sse(delta({"content": "ok"}), delta({}, "stop"))
    assert list(assemble(lines))[-1].response.message.content == "ok"


@pytest.mark.parametrize("empty", ["data:", "data: ", "data:   "])
def test_an_event_with_empty_data_is_a_keep_alive_not_a_broken_chunk(empty):
    """Relays (cli-proxy-api, some LiteLLM set-ups) keep a long answer alive with `data:` and nothing after it."""
    first, last = sse(delta({"content": "o"}), done=False), sse(delta({"content": "k"}, "stop"))
    events = list(assemble([empty, "", *first, empty, "", empty, *last, empty]))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["o", "k"]
    assert final(events).message.content == "ok" and final(events).finish_reason == "stop"


# --- gateways that leave out a tool-call delta's index (Gemini's OpenAI-compatible endpoint) ---

SIGNATURE = {"google": {"thought_signature": "c2lnbmF0dXJl"}}


def final(events):
    return events[-1].response


def test_indexless_calls_with_their_own_ids_stay_two_calls_and_keep_provider_fields():
    """Gemini sends each call whole, without `index`, with `extra_content`: two calls, not one merged."""
    stream = sse(
        delta({"role": "assistant", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "query_order", "arguments": '{"orderId":"SN1"}'},
             "extra_content": SIGNATURE}]}),
        delta({"tool_calls": [
            {"id": "call_2", "type": "function", "function": {"name": "query_logistics", "arguments": '{"orderId":"SN1"}'}}]}),
        delta({}, finish="stop"),
    )  # fmt: skip
    calls = final(list(assemble(stream))).message.tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("call_1", "query_order", '{"orderId":"SN1"}'),
        ("call_2", "query_logistics", '{"orderId":"SN1"}'),
    ]
    assert calls[0].extra == {"extra_content": SIGNATURE} and calls[1].extra == {}
    assert calls[0].to_openai()["extra_content"] == SIGNATURE


def test_indexless_fragments_continue_the_latest_call():
    stream = sse(
        delta({"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"a":'}}]}),
        delta({"tool_calls": [{"function": {"arguments": "1}"}}]}),
        delta({"tool_calls": [{"id": "call_2", "type": "function", "function": {"name": "g", "arguments": ""}}]}),
        delta({"tool_calls": [{"function": {"arguments": "{}"}}]}),
    )
    calls = final(list(assemble(stream))).message.tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [("call_1", "f", '{"a":1}'), ("call_2", "g", "{}")]


def test_a_tool_call_delta_that_is_not_an_object_is_a_bad_response():
    with pytest.raises(BadResponseError, match="streamed tool call delta is not an object: 'x'"):
        list(assemble(sse(delta({"tool_calls": ["x"]}))))


def test_a_streamed_call_without_an_id_is_assembled_for_the_loop_to_name():
    stream = sse(
        delta({"tool_calls": [{"index": 0, "function": {"name": "f", "arguments": "{}"}}]}), delta({}, "tool_calls")
    )
    (call,) = final(list(assemble(stream))).message.tool_calls
    assert (call.id, call.name, call.arguments) == ("", "f", "{}")


def test_reasoning_content_deltas_are_kept_for_the_reply_to_carry_back():
    stream = sse(
        delta({"role": "assistant", "reasoning_content": "Look up "}),
        delta({"reasoning_content": "the order."}),
        delta(
            {"tool_calls": [{"index": 0, "id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}
        ),
        delta({}, "tool_calls"),
    )
    message = final(list(assemble(stream))).message
    assert message.extra == {"reasoning_content": "Look up the order."}
    assert message.to_openai()["reasoning_content"] == "Look up the order."


def call_delta(**piece):
    return delta({"tool_calls": [{"index": 0, **piece}]})


@pytest.mark.parametrize(
    "chunk, message",
    [
        ({"choices": "abc"}, "stream chunk choices is not a list: 'abc'"),
        ({"choices": [None]}, "stream chunk choice is not an object: None"),
        ({"choices": [{"index": 0, "delta": "hi"}]}, "stream chunk delta is not an object: 'hi'"),
        (delta({"content": 5}), "streamed content is not a string: 5"),
        (delta({"tool_calls": {"index": 0}}), "streamed tool_calls is not a list: {'index': 0}"),
        (call_delta(id="a", function="query_order"), "streamed tool call function is not an object: 'query_order'"),
        (call_delta(id="a", function={"name": 5}), "streamed tool name is not a string: 5"),
        (call_delta(id=True, function={"name": "f"}), "streamed tool call id is not a string: True"),
        ({"model": ["m"], "choices": []}, "stream chunk model is not a string: ['m']"),
        (delta({}, finish=1), "finish_reason is not a string: 1"),
    ],
)
def test_a_wrong_typed_chunk_is_a_bad_response_naming_the_field(chunk, message):
    with pytest.raises(BadResponseError) as info:
        list(assemble(sse(chunk)))
    assert str(info.value) == message


def test_arguments_streamed_as_an_object_are_kept_as_json_text():
    """As in a non-streamed reply (`ToolCall.from_openai`): some gateways send an object."""
    events = list(assemble(sse(call_delta(id="a", function={"name": "f", "arguments": {"b": 1, "a": "é"}}))))
    assert events[-1].response.message.tool_calls[0].arguments == '{"a": "é", "b": 1}'
    assert events[0] == ToolCallDelta(0, "a", "f", '{"a": "é", "b": 1}')


def test_a_later_object_of_arguments_replaces_the_earlier_one_not_joined_to_it():
    """Objects are whole values: a gateway that opens a call with `arguments: {}` (as Anthropic's
    `content_block_start` holds `input: {}`) and then sends the whole object had them joined,
    `{}{"orderId": "SN1"}`, which no tool can read. Text fragments are still joined as they came."""
    stream = sse(
        delta({"tool_calls": [{"index": 0, "id": "c", "function": {"name": "query_order", "arguments": {}}}]}),
        delta({"tool_calls": [{"index": 0, "function": {"arguments": {"orderId": "SN1"}}}]}),
        delta({}, "tool_calls"),
    )
    calls = final(list(assemble(stream))).message.tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [("c", "query_order", '{"orderId": "SN1"}')]
    text = sse(
        delta({"tool_calls": [{"index": 0, "id": "c", "function": {"name": "f", "arguments": "{"}}]}),
        delta({"tool_calls": [{"index": 0, "function": {"arguments": '"a": 1}'}}]}),
        delta({}, "tool_calls"),
    )
    assert final(list(assemble(text))).message.tool_calls[0].arguments == '{"a": 1}'


@pytest.mark.parametrize(
    "payload, message",
    [
        ("[" * 100_000, "stream chunk cannot be read as JSON (it nests too deeply): '[[[["),
        ('{"id": ' + "1" * 5000 + "}", "stream chunk cannot be read as JSON (Exceeds the limit (4300 digits)"),
    ],
)
def test_a_chunk_too_deep_or_too_long_to_read_is_a_bad_response(payload, message):
    with pytest.raises(BadResponseError) as info:
        list(assemble([f"data: {payload}", "", "data: [DONE]"]))
    assert str(info.value).startswith(message)


def test_a_multi_line_error_mid_stream_reads_as_one_line():
    with pytest.raises(BadResponseError) as info:
        list(assemble(sse({"error": "upstream\nfailed"})))
    assert str(info.value) == "gateway sent an error mid-stream: upstream failed"


def test_nothing_after_done_counts():
    """OpenAI's SDK stops reading at `[DONE]`; text, calls or an error sent after it were assembled."""
    lines = sse(delta({"role": "assistant", "content": "hi"}), delta({}, finish="stop"))
    lines += [f"data: {json.dumps(delta({'content': ' more'}))}", "", 'data: {"error": {"message": "late"}}', ""]
    events = list(assemble(lines))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["hi"]
    assert events[-1].response.message.content == "hi"


def _call(index=None, id=None, name=None, arguments=None):
    piece = {"function": {}}
    if index is not None:
        piece["index"] = index
    if id is not None:
        piece["id"], piece["type"] = id, "function"
    if name is not None:
        piece["function"]["name"] = name
    if arguments is not None:
        piece["function"]["arguments"] = arguments
    return delta({"tool_calls": [piece]})


def _calls(*chunks):
    response = final(list(assemble(sse(*chunks, delta({}, finish="tool_calls")))))
    return [(c.id, c.name, c.arguments) for c in response.message.tool_calls]


@pytest.mark.parametrize(
    "chunks",
    [
        # the name in pieces, as the arguments (OpenAI's SDK joins a name's pieces: "get_" then "weather")
        [
            _call(0, "call_a", "get_wea", ""),
            _call(0, name="ther", arguments='{"city": '),
            _call(0, arguments='"Paris"}'),
        ],
        # the name in pieces, then restated whole on every later delta
        [
            _call(0, "call_a", "get_", ""),
            _call(0, "call_a", "weather", '{"city": '),
            _call(0, "call_a", "get_weather", '"Paris"}'),
        ],
        # the whole name restated on every delta (MiniMax behind NVIDIA NIM)
        [_call(0, "call_a", "get_weather", '{"city": '), _call(0, "call_a", "get_weather", '"Paris"}')],
    ],
    ids=["in pieces", "pieces then restated", "restated"],
)
def test_a_name_streamed_in_pieces_is_joined_and_a_restated_name_kept(chunks):
    """A server that streams a call's name in pieces (continuedev/continue#5849: Gemini's `edit_ex`,
    `isting_file`; ankit373/hydra#958: a local server's `get_wea`, `ther`): the last piece replaced
    the name, so the call named `ther` was an unknown tool. A piece that is not the name so far
    continues it; the same name again keeps it."""
    assert _calls(*chunks) == [("call_a", "get_weather", '{"city": "Paris"}')]


def test_parallel_calls_that_all_say_index_0_stay_apart_by_their_ids():
    """Ollama behind LiteLLM and some vLLM versions give every parallel call `index: 0`."""
    assert _calls(
        _call(0, "call_a", "query_order", '{"orderId": "SN1"}'),
        _call(0, "call_b", "query_order", '{"orderId": "SN2"}'),
    ) == [("call_a", "query_order", '{"orderId": "SN1"}'), ("call_b", "query_order", '{"orderId": "SN2"}')]


def test_a_reused_index_keeps_its_fragments_with_the_call_it_started():
    assert _calls(
        _call(0, "call_a", "f", ""),
        _call(0, arguments='{"a":'),
        _call(0, arguments="1}"),
        _call(0, "call_b", "g", ""),
        _call(0, arguments='{"b":2}'),
        _call(1, "call_c", "h", "{}"),
    ) == [("call_a", "f", '{"a":1}'), ("call_b", "g", '{"b":2}'), ("call_c", "h", "{}")]


def test_calls_without_index_or_id_stay_apart_by_their_names_and_whole_arguments():
    assert _calls(
        _call(name="query_order", arguments='{"orderId": "SN1"}'),
        _call(name="query_order", arguments='{"orderId": "SN2"}'),
    ) == [("", "query_order", '{"orderId": "SN1"}'), ("", "query_order", '{"orderId": "SN2"}')]


@pytest.mark.parametrize(
    ("chunks", "call_id"),
    [
        # the usual shape (name and empty arguments first, then the arguments), both calls under one id and index
        (
            [
                _call(0, "call_0", "add", ""),
                _call(0, arguments='{"a": 1}'),
                _call(0, "call_0", "add", ""),
                _call(0, arguments='{"a": 2}'),
            ],
            "call_0",
        ),
        # the id and the name on each call's one delta
        ([_call(0, "call_0", "add", '{"a": 1}'), _call(0, "call_0", "add", '{"a": 2}')], "call_0"),
        # the name on each call's first delta, no id, the index on both
        (
            [
                _call(0, name="add", arguments=""),
                _call(0, arguments='{"a": 1}'),
                _call(0, name="add", arguments=""),
                _call(0, arguments='{"a": 2}'),
            ],
            "",
        ),
    ],
)
def test_two_calls_of_one_tool_under_one_reused_id_and_index_stay_two(chunks, call_id):
    """Both arguments were joined into one call (`{"a": 1}{"a": 2}`): the tool named again after
    whole arguments, then new ones opened, is another call."""
    assert _calls(*chunks) == [(call_id, "add", '{"a": 1}'), (call_id, "add", '{"a": 2}')]


@pytest.mark.parametrize(
    "chunks",
    [
        # the id and the name repeated on every fragment
        [_call(0, "call_a", "f", '{"a":'), _call(0, "call_a", "f", "1}"), _call(0, "call_a", "f", "")],
        # the name repeated, no ids
        [_call(0, name="f", arguments='{"a":'), _call(0, name="f", arguments="1}"), _call(0, name="f", arguments="")],
        # a proxy that sends a fresh id with each fragment of unfinished arguments
        [_call(0, "call_1", "f", '{"a":'), _call(0, "call_2", arguments="1}")],
    ],
)
def test_one_call_repeated_on_every_fragment_stays_one_call(chunks):
    assert [(name, arguments) for _, name, arguments in _calls(*chunks)] == [("f", '{"a":1}')]


def test_an_error_field_that_is_null_is_no_error():
    """Foundry Local puts `"error": null` (and `"Successful": true`) on every chunk."""
    events = list(assemble(sse(delta({"content": "Hi"}, error=None, Successful=True), delta({}, "stop", error=None))))
    assert final(events).message.content == "Hi"
    with pytest.raises(BadResponseError, match="gateway sent an error mid-stream: overloaded"):
        list(assemble(sse(delta({"content": "Hi"}), {"error": "overloaded"})))


def test_a_surrogate_pair_split_across_chunks_is_one_character_again():
    """A JavaScript proxy cutting a string between the two halves of an emoji."""
    lines = [
        'data: {"choices":[{"index":0,"delta":{"content":"ok \\ud83d"}}]}',
        'data: {"choices":[{"index":0,"delta":{"content":"\\ude00"},"finish_reason":"stop"}]}',
        'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{\\"e\\":\\"\\ud83d"}}]}}]}',
        'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\ude00\\"}"}}]}}]}',
        "data: [DONE]",
    ]
    message = final(list(assemble(lines))).message
    assert message.content == "ok 😀"
    assert json.loads(message.tool_calls[0].arguments) == {"e": "😀"}


def test_text_events_never_carry_half_of_a_split_surrogate_pair():
    """The message was paired again, but the `TextDelta`s carried the halves: `print(event.text)`
    raised UnicodeEncodeError ("surrogates not allowed"), and the pieces joined were two code
    points, not the emoji. A piece that ends with a high surrogate keeps it for the next piece."""
    lines = [
        'data: {"choices":[{"index":0,"delta":{"content":"ok \\ud83d"}}]}',
        'data: {"choices":[{"index":0,"delta":{"content":"\\ude00 done \\ud83d"}}]}',
        'data: {"choices":[{"index":0,"delta":{"content":"\\ude03"}}]}',
        'data: {"choices":[{"index":0,"delta":{"audio":{"transcript":"\\ud83d"}}}]}',
        'data: {"choices":[{"index":0,"delta":{"audio":{"transcript":"\\ude00!"}},"finish_reason":"stop"}]}',
        "data: [DONE]",
    ]
    events = list(assemble(lines))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["ok ", "😀 done ", "😃", "😀!"]
    assert final(events).message.content == "ok 😀 done 😃"


def test_a_lone_surrogate_stays_as_it_came():
    lines = ['data: {"choices":[{"index":0,"delta":{"content":"a\\ud83d b"}}]}', "data: [DONE]"]
    assert final(list(assemble(lines))).message.content == "a\ud83d b"


def test_usage_sent_on_choice_zero_is_read():
    """Moonshot (Kimi) sends a stream's usage in its last chunk's `choices[0].usage`, not beside the
    choices (earendil-works/pi#2017): it was "not reported"."""
    usage = {"prompt_tokens": 19, "completion_tokens": 13, "total_tokens": 32}
    last = {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop", "usage": usage}]}
    response = final(list(assemble(sse(delta({"content": "Hi"}), last))))
    assert (response.usage.input_tokens, response.usage.output_tokens) == (19, 13)
    other = {"id": "c", "choices": [{"index": 1, "delta": {}, "usage": {"prompt_tokens": 5, "completion_tokens": 5}}]}
    both = {**last, "usage": {"prompt_tokens": 20, "completion_tokens": 14}}
    assert final(list(assemble(sse(delta({"content": "Hi"}), other, both)))).usage.total_tokens == 34


def test_a_later_usage_with_counts_left_out_keeps_the_counts_already_read():
    usage = final(
        list(
            assemble(
                sse(
                    delta({"content": "hi"}, "stop", usage={"prompt_tokens": 7, "completion_tokens": 3}),
                    {"id": "x", "choices": [], "usage": {"prompt_tokens": None, "completion_tokens": None}},
                    {"id": "x", "choices": [], "usage": {"completion_tokens": 4}},
                )
            )
        )
    ).usage
    assert (usage.input_tokens, usage.output_tokens) == (7, 4)


def test_a_byte_order_mark_before_the_first_event_is_skipped():
    lines = sse(delta({"content": "Hello "}), delta({"content": "world"}, "stop"))
    lines[0] = "\ufeff" + lines[0]
    assert final(list(assemble(lines))).message.content == "Hello world"


def test_a_streamed_refusal_is_kept_and_goes_back_as_the_text():
    response = final(list(assemble(sse(delta({"refusal": "I can't "}), delta({"refusal": "help."}, "stop")))))
    assert (response.message.content, response.message.refusal) == (None, "I can't help.")
    assert response.message.text == "I can't help."
    assert response.message.to_openai() == {"role": "assistant", "content": "I can't help."}


def test_a_streamed_refusal_is_shown_as_it_arrives_as_its_text_is():
    """A refused reply streamed no `TextDelta`: a reader of the text (`TokenStream.text()`, the
    stream view) saw nothing, though the reply's text (and the turn's answer) is the refusal."""
    lines = sse(
        delta({"role": "assistant", "refusal": ""}), delta({"refusal": "I can't "}), delta({"refusal": "help."})
    )
    events = list(assemble([*lines[:-2], *sse(delta({}, "stop"))]))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["I can't ", "help."]
    assert final(events).message.text == "I can't help."


# --- content sent as a list of parts, as in a whole reply ---------------------------------------


def test_streamed_content_given_as_parts_is_read_as_its_text():
    parts = [{"type": "text", "text": "您的"}, {"type": "thinking", "thinking": [{"type": "text", "text": "hm"}]}]
    lines = sse(delta({"content": parts}), delta({"content": [{"type": "text", "text": "包裹"}]}), delta({}, "stop"))
    events = list(assemble(lines))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["您的", "包裹"]
    assert events[-1].response.message.content == "您的包裹"


def test_streamed_parts_without_text_add_nothing():
    lines = sse(
        delta({"content": [{"type": "thinking", "thinking": "hm"}]}), delta({"content": "ok"}), delta({}, "stop")
    )
    events = list(assemble(lines))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["ok"]


# --- a chunk written over several data: lines (the SSE spec joins an event's lines) -------------


def pretty(chunk):
    """A chunk as a server that pretty-prints it sends it: one `data:` line per line, then a blank line."""
    return [f"data: {line}" for line in json.dumps(chunk, indent=2).splitlines()] + [""]


def test_a_chunk_written_over_several_data_lines_is_joined():
    lines = pretty(delta({"content": "您的"})) + pretty(delta({"content": "包裹"}, "stop")) + ["data: [DONE]"]
    events = list(assemble(lines))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["您的", "包裹"]
    assert events[-1].response.message.content == "您的包裹"


def test_a_multi_line_chunk_is_read_when_its_event_ends():
    assembler = StreamAssembler()
    first, *rest = pretty(delta({"content": "hi"}))
    assert assembler.feed_line(first) == []
    assert [e for line in rest[:-1] for e in assembler.feed_line(line)] == []
    assert assembler.feed_line(rest[-1]) == [TextDelta("hi")]


def test_a_multi_line_tool_call_and_a_last_event_without_a_blank_line():
    call = {"index": 0, "id": "c1", "type": "function", "function": {"name": "query_order", "arguments": "{}"}}
    lines = pretty(delta({"tool_calls": [call]})) + pretty(delta({}, "tool_calls"))[:-1]
    done = list(assemble(lines))[-1]
    assert done.response.message.tool_calls[0].name == "query_order"


@pytest.mark.parametrize(
    "lines",
    [
        ["data: {not json", "", "data: [DONE]"],
        ["data: {not json", "data: [DONE]"],
        ["data: {", 'data: "half": ', "", "data: [DONE]"],
    ],
)
def test_an_event_that_is_not_json_once_joined_is_a_bad_response(lines):
    with pytest.raises(BadResponseError, match="^stream chunk is not JSON"):
        list(assemble(lines))


def test_a_multi_line_error_event_is_worded_like_any_error_event():
    lines = pretty({"error": {"message": "context length exceeded"}}) + ["data: [DONE]"]
    with pytest.raises(BadResponseError) as caught:
        list(assemble(lines))
    assert str(caught.value) == f"gateway sent an error mid-stream: context length exceeded — {CONTEXT_HINT}"


@pytest.mark.parametrize(
    "chunks",
    [
        # the arguments so far on every delta, the id and name on the first
        [
            _call(0, "call_a", "f", '{"city"'),
            _call(0, arguments='{"city": "Par'),
            _call(0, arguments='{"city": "Paris"}'),
        ],
        # the id and name repeated on every delta, after a first delta with empty arguments
        [
            _call(0, "call_a", "f", ""),
            _call(0, "call_a", "f", '{"city": '),
            _call(0, "call_a", "f", '{"city": "Paris"}'),
            _call(0, "call_a", "f", '{"city": "Paris"}'),
        ],
        # the whole arguments on every delta (the name on the first only)
        [_call(0, "call_a", "f", '{"city": "Paris"}'), _call(0, arguments='{"city": "Paris"}')],
    ],
)
def test_arguments_resent_whole_so_far_on_every_delta_are_read_once(chunks):
    """Some OpenAI-compatible providers (DeepSeek and Baidu Qianfan in a cumulative mode:
    NousResearch/hermes-agent#35718; langchain-ai/langgraphjs#2697) send a call's arguments so far
    on every delta instead of the new fragment. Joined, they were `{"city"{"city": "Par…`, never
    JSON: the loop told the model its arguments were invalid. When the joined text is no JSON
    object and each fragment starts with the one before, the last fragment, whole, is the arguments."""
    assert [(c_id, name, json.loads(arguments)) for c_id, name, arguments in _calls(*chunks)] == [
        ("call_a", "f", {"city": "Paris"})
    ]


@pytest.mark.parametrize(
    ("chunks", "arguments"),
    [
        # incremental fragments that happen to repeat what came before: joined, they are the JSON object
        ([_call(0, "call_a", "f", '{"a": '), _call(0, arguments='{"a": 1}}')], '{"a": {"a": 1}}'),
        # invalid arguments whose fragments are no chain stay as the model wrote them
        ([_call(0, "call_a", "f", '{"a": 1'), _call(0, arguments="}}")], '{"a": 1}}'),
        # a chain whose last fragment is no JSON object either: as written
        ([_call(0, "call_a", "f", '{"a'), _call(0, arguments='{"a": ')], '{"a{"a": '),
    ],
)
def test_fragments_are_read_as_resent_only_when_joining_them_gives_no_json_object(chunks, arguments):
    assert _calls(*chunks) == [("call_a", "f", arguments)]


class _CountedFragments(list):
    """A call's fragments that count each one a reader looks at (iterated, reversed or sliced)."""

    visited = 0

    def __iter__(self):
        for fragment in super().__iter__():
            _CountedFragments.visited += 1
            yield fragment

    def __reversed__(self):
        for fragment in super().__reversed__():
            _CountedFragments.visited += 1
            yield fragment

    def __getitem__(self, at):
        found = super().__getitem__(at)
        _CountedFragments.visited += len(found) if isinstance(at, slice) else 1
        return found


@pytest.mark.parametrize("blank", ["", " ", "\n"])
def test_empty_or_blank_argument_fragments_are_each_looked_at_a_bounded_number_of_times(monkeypatch, blank):
    """Gateways send `"arguments": ""` (or a blank) on many deltas of a call. Whether a delta resends the
    call whole compared it with the last fragment that was not blank, searched back through every
    fragment of the call on every delta: 40,000 empty fragments took 18 s (quadratic), now 0.8 s. The
    fragments a reader looks at grow with the fragments sent, not with their square."""
    import toolkit.chat.sse as sse_module

    class Counted(sse_module._PartialCall):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.fragments = _CountedFragments(self.fragments)

    monkeypatch.setattr(sse_module, "_PartialCall", Counted)
    visited = []
    for n in (1_000, 4_000):
        _CountedFragments.visited = 0
        chunks = [_call(0, "call_a", "f", '{"a": 1')] + [_call(0, arguments=blank)] * n + [_call(0, arguments="}")]
        assert _calls(*chunks) == [("call_a", "f", '{"a": 1' + blank * n + "}")]
        visited.append(_CountedFragments.visited)
    assert visited[1] <= 4 * visited[0] + 100 and visited[1] <= 4 * 4_000, visited


def test_streamed_reasoning_details_are_merged_per_block_for_the_reply_to_carry_back():
    """OpenRouter streams `reasoning_details` a block at a time, in pieces sharing the block's `index`
    (text in pieces, the signature in a last piece without text: agno-agi/agno#8794; its format:
    openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks). `chat()`
    kept a whole reply's `reasoning_details` to send back; `stream()` dropped them, so Gemini 3 and
    Claude behind OpenRouter lost their reasoning (and Gemini's thought signature) after a tool call."""
    summary = {"type": "reasoning.summary", "format": "openai-responses-v1", "index": 0}
    stream = sse(
        delta(
            {
                "role": "assistant",
                "content": "",
                "reasoning": "Look",
                "reasoning_details": [{**summary, "summary": "Look"}],
            }
        ),
        delta({"reasoning_details": [{**summary, "summary": " it up"}]}),
        delta({"reasoning_details": [{"type": "reasoning.text", "text": "", "signature": "sig==", "index": 0}]}),
        delta({"reasoning_details": [{"type": "reasoning.encrypted", "data": "abc", "index": 1}, "not a detail"]}),
        delta({"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "f", "arguments": "{}"}}]}),
        delta({}, "tool_calls"),
    )
    message = final(list(assemble(stream))).message
    assert message.extra == {
        "reasoning_details": [
            {**summary, "summary": "Look it up"},
            {"type": "reasoning.text", "text": "", "signature": "sig==", "index": 0},
            {"type": "reasoning.encrypted", "data": "abc", "index": 1},
        ]
    }
    assert message.to_openai()["reasoning_details"] == message.extra["reasoning_details"]


def test_streamed_reasoning_details_pieces_of_one_block_keep_its_later_fields():
    stream = sse(
        delta(
            {
                "reasoning_details": [
                    {"type": "reasoning.text", "text": "Let me ", "index": 0, "format": "anthropic-claude-v1"}
                ]
            }
        ),
        delta({"reasoning_details": [{"type": "reasoning.text", "text": "check.", "index": 0}]}),
        delta({"reasoning_details": [{"type": "reasoning.text", "signature": "EqQB", "index": 0, "format": None}]}),
        delta({"reasoning_details": [{"type": "reasoning.text", "text": "no index"}]}),
        delta({"reasoning_details": [{"type": "x", "text": 5, "index": 2}]}),
        delta({"reasoning_details": [{"type": "x", "text": "five", "index": 2}]}),
        delta({"content": "done"}),
        delta({}, "stop"),
    )
    assert final(list(assemble(stream))).message.extra["reasoning_details"] == [
        {
            "type": "reasoning.text",
            "text": "Let me check.",
            "index": 0,
            "format": "anthropic-claude-v1",
            "signature": "EqQB",
        },
        {"type": "reasoning.text", "text": "no index"},
        {"type": "x", "text": "five", "index": 2},
    ]


def test_an_error_on_choice_zero_is_raised_as_the_gateways_error():
    """OpenRouter's `StreamingChoice.error` (finish_reason "error"): before, the text so far was the reply."""
    stream = sse(
        delta({"content": "The parcel is"}),
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "error", "error": {"code": 502, "message": "Gone"}}]},
    )
    with pytest.raises(TransientError) as caught:
        list(assemble(stream))
    assert str(caught.value) == "gateway sent an error mid-stream (code 502, transient): Gone"
    other = {"index": 1, "delta": {}, "error": {"message": "only choice 1 failed"}}
    ok = sse(delta({"content": "Hi"}), {"choices": [other]}, delta({}, "stop"))
    assert final(list(assemble(ok))).message.content == "Hi"


@pytest.mark.parametrize(
    "chunks",
    [
        # the whole call on every delta: id, name and the whole arguments, three times
        [_call(0, "call_a", "f", '{"a": 1}')] * 3,
        # no ids: the name and the whole arguments, twice
        [_call(0, name="f", arguments='{"a": 1}')] * 2,
        # cumulative arguments whose last, whole, is sent again with the id and name
        [_call(0, "call_a", "f", '{"a"'), _call(0, "call_a", "f", '{"a": 1}'), _call(0, "call_a", "f", '{"a": 1}')],
    ],
)
def test_a_call_resent_whole_on_every_delta_is_one_call(chunks):
    """Some providers resend the whole call on every delta (NousResearch/hermes-agent#6841:
    `{"a":1}{"a":1}{"a":1}` under a name repeated each time; #35718 collapses such "identical
    resends"). Each resend was read as another call of the tool: it ran three times. A delta that
    repeats a call's whole arguments verbatim, under its id (or none) and its name (or none), is
    that call again."""
    assert [(name, arguments) for _, name, arguments in _calls(*chunks)] == [("f", '{"a": 1}')]


_STREAMED = [_call(0, "tool_1", "shell", ""), _call(0, arguments='{"command":'), _call(0, arguments=' "ls -l"}')]


@pytest.mark.parametrize(
    "again",
    [
        _call(0, arguments='{"command": "ls -l"}'),
        _call(0, "tool_1", arguments='{"command": "ls -l"}'),
        _call(0, "tool_1", "shell", '{"command": "ls -l"}'),
        _call(0, "tool_1", "shell", '{"command":"ls -l"}'),  # re-serialized: compact
        _call(name="shell", arguments='{ "command" : "ls -l" }'),
    ],
    ids=["bare", "its id", "its id and name", "re-serialized", "no index"],
)
def test_arguments_streamed_in_fragments_then_sent_whole_again_are_one_call(again):
    """Relays that stream a call's argument fragments, then send the consolidated call with its
    whole arguments again (lidge-jun/opencodex#361, elizaOS/eliza#16973, Soju06/codex-lb#284).
    Joined, they were `{"command": "ls -l"}{"command": "ls -l"}` (the loop told the model its
    arguments were invalid); with the id and name repeated, the call ran twice under one id. A
    delta whose arguments are the call's whole arguments so far, as JSON (white space aside), is
    that call again: nothing is added, and its event carries no arguments."""
    events = list(assemble(sse(*_STREAMED, again, delta({}, finish="tool_calls"))))
    calls = [(c.id, c.name, json.loads(c.arguments)) for c in final(events).message.tool_calls]
    assert calls == [("tool_1", "shell", {"command": "ls -l"})]
    assert [e.arguments for e in events if isinstance(e, ToolCallDelta)][-1] == ""


def test_a_second_call_after_streamed_fragments_with_other_arguments_stays_its_own():
    assert _calls(*_STREAMED, _call(0, "tool_1", "shell", '{"command": "pwd"}')) == [
        ("tool_1", "shell", '{"command": "ls -l"}'),
        ("tool_1", "shell", '{"command": "pwd"}'),
    ]


def test_arguments_resent_whole_are_compared_a_bounded_number_of_times(monkeypatch):
    """Each resend is parsed once; the call's own arguments once, however often they are resent."""
    import toolkit.chat.sse as sse_module

    parsed = []
    monkeypatch.setattr(
        sse_module, "_canonical", lambda text, seen=sse_module._canonical: parsed.append(text) or seen(text)
    )
    for n in (10, 40):
        parsed.clear()
        assert len(_calls(*_STREAMED, *[_call(0, arguments='{"command": "ls -l"}')] * n)) == 1
        assert len(parsed) <= n + 1, (n, len(parsed))


def test_a_second_call_announced_with_empty_arguments_stays_a_call_of_its_own_even_when_it_repeats():
    """The usual first delta of a call (its name, `arguments: ""`), after whole arguments, starts a
    call: the same arguments after it are that call's, not a resend."""
    assert _calls(
        _call(0, "call_0", "roll", ""),
        _call(0, arguments="{}"),
        _call(0, "call_0", "roll", ""),
        _call(0, arguments="{}"),
    ) == [("call_0", "roll", "{}"), ("call_0", "roll", "{}")]


def test_a_streamed_answer_in_audio_is_read_as_its_transcript():
    """`modalities=["text", "audio"]` with `stream: true`: OpenAI streams the words as
    `delta.audio.transcript` pieces (beside the audio's base64 `data`), never as `content`; the
    stream was read as an empty reply ("the model said nothing")."""
    events = list(
        assemble(
            sse(
                delta({"role": "assistant", "audio": {"id": "audio_1", "transcript": "Your order "}}),
                delta({"audio": {"data": "UklGRg==", "transcript": "shipped."}}),
                delta({"audio": {"data": "AAAA"}}),
                delta({"audio": {"expires_at": 1, "id": "audio_1"}}, "stop"),
            )
        )
    )
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Your order ", "shipped."]
    assert final(events).message.content == "Your order shipped."


def _interleaved(first, second):
    """Two parallel calls whose deltas alternate (0, 1, 0, 1), their indexes written as given."""

    def piece(index, **fields):
        return delta({"tool_calls": [{"index": index, **fields}]})

    return [
        piece(first, id="call_a", type="function", function={"name": "get_weather", "arguments": ""}),
        piece(second, id="call_b", type="function", function={"name": "query_order", "arguments": ""}),
        piece(first, function={"arguments": '{"city": '}),
        piece(second, function={"arguments": '{"order_id": '}),
        piece(first, function={"arguments": '"Paris"}'}),
        piece(second, function={"arguments": '"SN1"}'}),
        delta({}, finish="tool_calls"),
    ]


@pytest.mark.parametrize(
    "first, second",
    [(0, 1), ("0", "1"), (" 0", "1 "), (0.0, 1.0), ("0", 1)],
    ids=["ints", "strings", "blanks", "floats", "mixed"],
)
def test_interleaved_parallel_calls_keep_their_own_arguments_however_their_index_is_written(first, second):
    """A relay that writes numbers as strings (as `choice_zero` reads a choice's "0"): the index
    was read as missing, so every fragment went to the latest call (call_a '', call_b
    '{"city": {"order_id": "Paris"}"SN1"}')."""
    calls = list(assemble(sse(*_interleaved(first, second))))[-1].response.message.tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("call_a", "get_weather", '{"city": "Paris"}'),
        ("call_b", "query_order", '{"order_id": "SN1"}'),
    ]


@pytest.mark.parametrize("index", ["", "first", 1.5, True, [0], {"i": 0}, "-"])
def test_a_tool_call_index_that_is_no_whole_number_is_read_as_none_given(index):
    """As before: calls one after the other stay apart by their ids (a relay's own index, or a
    blank one, breaks nothing that worked)."""

    def piece(call_id, name, arguments):
        return delta(
            {"tool_calls": [{"index": index, "id": call_id, "function": {"name": name, "arguments": arguments}}]}
        )

    lines = sse(piece("call_a", "get_weather", '{"city": "Paris"}'), piece("call_b", "get_weather", '{"city": "Rome"}'))
    calls = final(list(assemble(lines))).message.tool_calls
    assert [(c.id, c.arguments) for c in calls] == [("call_a", '{"city": "Paris"}'), ("call_b", '{"city": "Rome"}')]


def test_usage_groq_sends_in_x_groq_is_read():
    """Groq sends a stream's usage on its last chunk inside its own `x_groq` object (beside
    `x_groq.id`), not as `usage`: it read "not reported", though the same reply not streamed
    has its counts."""
    usage = {"queue_time": 0.02, "prompt_tokens": 24, "completion_tokens": 377, "total_tokens": 401}
    last = delta({}, "stop", x_groq={"id": "req_01", "usage": usage})
    response = final(list(assemble(sse(delta({"content": "Hi"}), last))))
    assert (response.usage.input_tokens, response.usage.output_tokens) == (24, 377)
    beside = delta({}, "stop", usage={"prompt_tokens": 5, "completion_tokens": 6}, x_groq={"id": "req_01"})
    assert final(list(assemble(sse(delta({"content": "Hi"}), beside)))).usage.total_tokens == 11
    both = delta({}, "stop", usage={"prompt_tokens": 5, "completion_tokens": 6}, x_groq={"usage": usage})
    assert final(list(assemble(sse(delta({"content": "Hi"}), both)))).usage.total_tokens == 11  # `usage` first


def test_a_streamed_call_whose_arguments_never_came_has_the_empty_object_a_whole_reply_has():
    """A whole reply's call with `"arguments": null` (or none) reads as `{}`; streamed, a call whose
    deltas all said null (or nothing) read as "", so memory, the trace and the next request held
    another call than the same reply not streamed ("" is no JSON to a server that parses it back)."""
    named = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "now", "arguments": None}}
    again = {"index": 0, "function": {"arguments": None}}
    for deltas in ([named], [named, again], [{**named, "function": {"name": "now"}}]):
        chunks = [delta({"tool_calls": [d]}) for d in deltas] + [delta({}, "tool_calls")]
        (call,) = final(list(assemble(sse(*chunks)))).message.tool_calls
        assert (call.name, call.arguments) == ("now", "{}")
    empty = {**named, "function": {"name": "now", "arguments": ""}}  # "" as a whole reply's "": kept
    (call,) = final(list(assemble(sse(delta({"tool_calls": [empty]}), delta({}, "tool_calls"))))).message.tool_calls
    assert call.arguments == ""
