"""`toolkit.loop.call_ids`: every call of a reply gets an id of its own."""

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
    assert [c.id for c in fixed.tool_calls] == ["call_r3_1", "x", "call_r3_3"]
    assert notes == [
        "tool call 1 (f) came without an id; it got one of its own",
        "tool call 3 (h) came without an id; it got one of its own",
    ]


def test_repeated_call_ids_are_renamed_in_turn_skipping_ids_already_taken():
    """Each repeat of an id takes the next free suffix (the search goes on from the last one
    given, not from `_2` again: quadratic over many repeats); ids the reply already has are skipped."""
    ids = ["a", "a", "a_2", "a", "b", "a", "a_4", "b", "a"]
    reply = AssistantMessage(tool_calls=tuple(ToolCall(id=i, name="f") for i in ids))
    fixed, notes = unique_call_ids(reply)
    assert [c.id for c in fixed.tool_calls] == ["a", "a_3", "a_2", "a_5", "b", "a_6", "a_4", "b_2", "a_7"]
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
    reply = AssistantMessage(tool_calls=(ToolCall(id="call_r1_2", name="f"), ToolCall(id="", name="g")))
    fixed, notes = unique_call_ids(reply)
    assert [c.id for c in fixed.tool_calls] == ["call_r1_2", "call_r1_2_"]
    assert notes == ["tool call 2 (g) came without an id; it got one of its own"]
