"""`toolkit.loop.cut_off`: a reply cut off by its length limit (`finish_reason: "length"`) inside
its last call's arguments. The call's error named bad arguments ("expected a JSON object; fix the
arguments"), so a learner looked for a wrong schema while the fix was `max_tokens`; it now says
the reply was cut off, to the model and (in the hint) to the learner. What ran is unchanged.
"""

import pytest

from toolkit.chat.messages import AssistantMessage, ChatResponse, TokenUsage, ToolCall, ToolResultMessage, to_openai
from toolkit.chat.scripted import ScriptedModel
from toolkit.errors import ArgumentError
from toolkit.gateway.validate import check_request
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool
from toolkit.tools.execute import Policies, report_argument_error

CUT = (
    "Invalid arguments for tool 'book':\n"
    '- arguments: got {"item": "Alice Smi, expected a complete JSON object: the reply was cut off here by its '
    'length limit (finish_reason "length"), so send shorter arguments\n'
    "Fix the arguments and call book again."
)
HINT = (
    "The model's reply reached its token limit (finish_reason \"length\") inside this call's arguments, and the "
    "call did not run: raise max_tokens (or max_completion_tokens), or leave it unset."
)
NOT_JSON = (
    "Invalid arguments for tool 'book':\n"
    '- arguments: got {"item": "Alice Smi, expected a JSON object\n'
    "Fix the arguments and call book again."
)


def reply(*arguments, finish="length"):
    calls = [ToolCall(id=f"c{i}", name="book", arguments=a) for i, a in enumerate(arguments, 1)]
    message = AssistantMessage(content="Booking now", tool_calls=calls)
    return ChatResponse(message=message, finish_reason=finish, usage=TokenUsage(input_tokens=1, output_tokens=1))


def booking_tool(booked):
    @tool("book an item")
    def book(item: str) -> str:
        booked.append(item)
        return f"booked {item}"

    return book


def results(messages):
    return [m.content for m in messages if isinstance(m, ToolResultMessage)]


def test_a_call_cut_off_by_the_length_limit_raises_saying_so_and_memory_stays_valid():
    booked, memory = [], ChatMemory()
    model = ScriptedModel([reply('{"item": "Alice Smi'), "done"])
    with pytest.raises(ArgumentError) as caught:
        run_loop(model, "book for Alice Smith", tools=[booking_tool(booked)], memory=memory)
    assert str(caught.value) == CUT
    assert caught.value.hint == HINT
    assert booked == []
    assert results(memory.messages()) == [CUT]
    check_request({"model": "m", "messages": to_openai(memory.messages())})


def test_the_model_reads_that_its_call_was_cut_off_and_the_complete_calls_before_it_ran():
    booked = []
    model = ScriptedModel([reply('{"item": "A"}', '{"item": "Alice Smi'), "done"])
    options = LoopOptions(policies=Policies(argument_error=report_argument_error))
    result = run_loop(model, "book", tools=[booking_tool(booked)], options=options)
    assert booked == ["A"]
    assert results(result.messages) == ["booked A", CUT]
    assert result.answer == "done"


def test_with_argument_repair_the_cut_off_call_is_fed_back_for_repair():
    booked = []
    model = ScriptedModel([reply('{"item": "Alice Smi'), reply('{"item": "Alice Smith"}', finish="tool_calls"), "ok"])
    result = run_loop(model, "book", tools=[booking_tool(booked)], options=LoopOptions(argument_repair=1))
    assert booked == ["Alice Smith"]
    assert results(result.messages) == [
        CUT + "\nIf you cannot get a valid value, ask the user for it instead of calling book again.",
        "booked Alice Smith",
    ]
    assert result.answer == "ok"


def test_bad_json_in_a_reply_that_was_not_cut_off_keeps_the_usual_text():
    model = ScriptedModel([reply('{"item": "Alice Smi', finish="tool_calls"), "done"])
    with pytest.raises(ArgumentError) as caught:
        run_loop(model, "book", tools=[booking_tool([])])
    assert str(caught.value) == NOT_JSON


def test_in_a_cut_off_reply_only_the_last_call_can_be_cut():
    model = ScriptedModel([reply('{"item": "Alice Smi', '{"item": "B"}'), "done"])
    with pytest.raises(ArgumentError) as caught:
        run_loop(model, "book", tools=[booking_tool([])])
    assert str(caught.value) == NOT_JSON
