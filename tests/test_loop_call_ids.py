"""`toolkit.loop.call_ids`: every call of a reply gets an id of its own."""

import pytest

from tests.loopback import serving
from tests.quirk_gateway import MISTRAL_ID, quirky
from toolkit import ChatClient, LoopOptions, run_loop, tool
from toolkit.chat.messages import AssistantMessage, ToolCall
from toolkit.loop.call_ids import unique_call_ids


def test_a_reply_whose_ids_are_unique_is_given_back_as_it_is():
    reply = AssistantMessage(tool_calls=(ToolCall(id="a", name="f"), ToolCall(id="b", name="f")))
    assert unique_call_ids(reply) == (reply, [])
    assert unique_call_ids(reply)[0] is reply


def test_calls_without_an_id_get_one_named_for_the_round_and_position():
    reply = AssistantMessage(
        tool_calls=(ToolCall(id="", name="f"), ToolCall(id="x", name="g"), ToolCall(id="", name="h"))
    )
    fixed, notes = unique_call_ids(reply, round_number=3)
    assert [c.id for c in fixed.tool_calls] == ["r000003c1", "x", "r000003c3"]
    assert notes == [
        "tool call 1 (f) came without an id; it got one of its own",
        "tool call 3 (h) came without an id; it got one of its own",
    ]


def test_repeated_call_ids_are_renamed_in_turn_skipping_ids_already_taken():
    """Each repeat of an id gets one named for its round and position (before: `<id>_2`, `<id>_3`,
    …, which Mistral refuses); ids the reply already has are skipped, and many repeats stay linear."""
    ids = ["a", "a", "r000001c2", "a", "b", "a", "r000001c6", "b", "a"]
    reply = AssistantMessage(tool_calls=tuple(ToolCall(id=i, name="f") for i in ids))
    fixed, notes = unique_call_ids(reply)
    assert [c.id for c in fixed.tool_calls] == [
        "a",
        "r0001c2v1",
        "r000001c2",
        "r000001c4",
        "b",
        "r0001c6v1",
        "r000001c6",
        "r000001c8",
        "r000001c9",
    ]
    assert len(notes) == 5
    many = AssistantMessage(tool_calls=tuple(ToolCall(id="x", name="f") for _ in range(2000)))
    assert len({c.id for c in unique_call_ids(many)[0].tool_calls}) == 2000


def test_notes_name_calls_by_position_and_tool_never_by_a_gateway_s_id():
    """The trace view promises no call ids (a real gateway's are random, so the view would differ
    run to run). Before, the note read "repeated tool-call id 'call_8fK2' renamed 'call_8fK2_2'":
    now the same reply under any ids gives the same notes, naming each call by position and tool."""

    def reply(ids):
        return AssistantMessage(tool_calls=tuple(ToolCall(id=i, name=n) for i, n in zip(ids, "fgfhf", strict=True)))

    first = unique_call_ids(reply(["call_8fK2", "call_Qz", "call_8fK2", "", "call_8fK2"]), round_number=2)[1]
    again = unique_call_ids(reply(["call_b1", "call_77", "call_b1", "", "call_b1"]), round_number=2)[1]
    assert first == again
    assert first == [
        "tool call 3 (f) repeated the id of tool call 1; it got an id of its own",
        "tool call 4 (h) came without an id; it got one of its own",
        "tool call 5 (f) repeated the id of tool call 1; it got an id of its own",
    ]
    huge = "x" * 10_000
    notes = unique_call_ids(AssistantMessage(tool_calls=(ToolCall(id=huge, name="f"),) * 2))[1]
    assert notes == ["tool call 2 (f) repeated the id of tool call 1; it got an id of its own"]


def test_an_id_given_to_a_call_without_one_is_never_one_the_model_sent():
    reply = AssistantMessage(tool_calls=(ToolCall(id="r000001c2", name="f"), ToolCall(id="", name="g")))
    fixed, notes = unique_call_ids(reply)
    assert [c.id for c in fixed.tool_calls] == ["r000001c2", "r0001c2v1"]
    assert notes == ["tool call 2 (g) came without an id; it got one of its own"]


def test_an_id_the_loop_makes_is_nine_letters_and_digits_as_mistral_requires():
    """Mistral refuses a history whose call ids are not 9 letters and digits (a 400 "Tool call id
    was … but must be a-z, A-Z, 0-9, with a length of 9."), and so does a local server running a
    Mistral chat template that sends its calls without ids (ml-explore/mlx-lm#1375). Before, the
    loop named such calls `call_r1_1` and a repeat `<id>_2`, and the next request was a 400: now
    every id it makes or renames is 9 letters and digits, which OpenAI's any-string and
    Anthropic's `[a-zA-Z0-9_-]+` accept too, still unique in the reply and never one the model sent."""
    made = unique_call_ids(AssistantMessage(tool_calls=(ToolCall(id="", name="f"),) * 3), round_number=12)[0]
    repeated = unique_call_ids(AssistantMessage(tool_calls=(ToolCall(id="abcdefghi", name="f"),) * 3))[0]
    for fixed in (made, repeated):
        ids = [c.id for c in fixed.tool_calls]
        assert len(set(ids)) == 3 and all(MISTRAL_ID.fullmatch(i) for i in ids), ids
    assert repeated.tool_calls[0].id == "abcdefghi"
    many = [
        c.id for c in unique_call_ids(AssistantMessage(tool_calls=(ToolCall(id="", name="f"),) * 2000))[0].tool_calls
    ]
    assert len(set(many)) == 2000 and all(MISTRAL_ID.fullmatch(i) for i in many)


@pytest.mark.parametrize("quirks", [("mistral_ids",), ("mistral_ids", "no_ids")])
@pytest.mark.parametrize("stream", [False, True])
def test_a_loop_on_a_mistral_shaped_gateway_sends_back_ids_it_accepts(quirks, stream):
    """Two parallel calls, ids from the gateway or none: the second request is accepted (before,
    with `no_ids`, it was the 400 above) and its ids are the ones the first reply's calls got."""

    @tool("Look up an order")
    def query_order(orderId: str) -> str:
        return f"{orderId}: shipped"

    @tool("Look up an order's parcel")
    def query_logistics(orderId: str) -> str:
        return f"{orderId}: in Hangzhou"

    handler = quirky(*quirks)
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        options = LoopOptions(stream=stream)
        result = run_loop(client, "query order SN202610200001", tools=[query_order, query_logistics], options=options)
    assert len(handler.seen) == 2 and "in Hangzhou" in result.answer, result
    second = handler.seen[1]["messages"]
    ids = [c["id"] for c in second[1]["tool_calls"]]
    assert len(ids) == 2 and all(MISTRAL_ID.fullmatch(i) for i in ids)
    assert [m["tool_call_id"] for m in second[2:4]] == ids
