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


# -- over the wire: the limit reached just after the last call's name (no argument arrived) ------------

BLANK_CUT = (
    "Invalid arguments for tool '{tool}':\n"
    '- arguments: got "", expected a complete JSON object: the reply was cut off here by its length limit '
    '(finish_reason "length"), so send shorter arguments\n'
    "Fix the arguments and call {tool} again."
)


def _answering(first, later, encode, content_type):
    """A loopback gateway answering `first` to the first request and `later` after, each written by
    `encode`; returns the handler class and the list of requests it was sent."""
    import http.server
    import json

    sent: list[dict] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            sent.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            data = encode(first if len(sent) == 1 else later)
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler, sent


def _streaming(first_events):
    """A loopback gateway that streams `first_events` to the first request and "done" after."""
    import json

    later = [{"choices": [{"index": 0, "delta": {"content": "done"}, "finish_reason": "stop"}]}]

    def sse(events):
        return ("".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n").encode()

    return _answering(first_events, later, sse, "text/event-stream")


def _named_then_cut(*calls):
    """A streamed reply: each call's name (and any arguments given), then finish_reason "length"."""
    deltas = [
        {"index": k, "id": f"call_{k}", "type": "function", "function": {"name": name, "arguments": arguments}}
        for k, (name, arguments) in enumerate(calls)
    ]
    events = [{"choices": [{"index": 0, "delta": {"tool_calls": [d]}}]} for d in deltas]
    return events + [{"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}]


@pytest.mark.parametrize("stream", [True, False])
def test_a_last_call_cut_off_before_its_arguments_began_does_not_run_with_its_defaults(stream):
    """Before: arguments "" read as {} (a call without parameters), so the cut call ran with every
    default (listed 10 orders the model never finished asking for)."""
    from tests.loopback import serving
    from toolkit.chat.client import ChatClient

    listed, booked = [], []

    @tool("list the user's orders")
    def list_orders(limit: int = 10) -> str:
        listed.append(limit)
        return "SN1, SN2"

    events = _named_then_cut(("book", '{"item": "A"}'), ("list_orders", ""))
    if not stream:  # the same reply, whole
        events = [_whole(events)]
    handler, sent = _streaming(events) if stream else _plain(events[0])
    options = LoopOptions(stream=stream, policies=Policies(argument_error=report_argument_error))
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-test", "m", sleep=lambda s: None)
        result = run_loop(client, "book A, list my orders", tools=[booking_tool(booked), list_orders], options=options)
    assert listed == [] and booked == ["A"]
    assert results(result.messages) == ["booked A", BLANK_CUT.format(tool="list_orders")]
    assert result.answer == "done"
    check_request({"model": "m", "messages": sent[-1]["messages"]})


def test_a_cut_off_call_without_arguments_is_blamed_on_the_limit_not_on_a_missing_argument():
    from tests.loopback import serving
    from toolkit.chat.client import ChatClient

    booked, memory = [], ChatMemory()
    handler, _ = _streaming(_named_then_cut(("book", "")))
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-test", "m", sleep=lambda s: None)
        with pytest.raises(ArgumentError) as caught:
            run_loop(client, "book", tools=[booking_tool(booked)], memory=memory, options=LoopOptions(stream=True))
    assert str(caught.value) == BLANK_CUT.format(tool="book")
    assert caught.value.hint == HINT
    assert booked == []
    assert results(memory.messages()) == [BLANK_CUT.format(tool="book")]


def _whole(events):
    """The streamed `events` as one chat.completion body's choice."""
    calls = [e["choices"][0]["delta"]["tool_calls"][0] for e in events if e["choices"][0]["delta"].get("tool_calls")]
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{k: v for k, v in c.items() if k != "index"} for c in calls],
    }
    return {"choices": [{"index": 0, "message": message, "finish_reason": "length"}]}


def _plain(body):
    """A loopback gateway answering `body` (JSON) to the first request and "done" after."""
    import json

    later = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "done"}, "finish_reason": "stop"}]}
    return _answering(body, later, lambda value: json.dumps(value).encode(), "application/json")


def test_a_cut_off_call_of_a_tool_without_parameters_runs_nothing_of_it_can_be_missing():
    from tests.loopback import serving
    from toolkit.chat.client import ChatClient

    asked = []

    @tool("the time now")
    def now() -> str:
        asked.append(1)
        return "12:00"

    handler, _ = _streaming(_named_then_cut(("now", "")))
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-test", "m", sleep=lambda s: None)
        result = run_loop(client, "time?", tools=[now], options=LoopOptions(stream=True))
    assert asked == [1]
    assert results(result.messages) == ["12:00"]


FILTERED = (
    "Invalid arguments for tool 'book':\n"
    '- arguments: got {"item": "Alice Smi, expected a complete JSON object: the reply was cut off here by the '
    'gateway\'s content filter (finish_reason "content_filter")\n'
    "Fix the arguments and call book again."
)
FILTERED_HINT = (
    "The gateway's content filter stopped the model's reply (finish_reason \"content_filter\") inside this call's "
    "arguments, and the call did not run: rephrase the request, or check the gateway's filter."
)


@pytest.mark.parametrize("reason", ["content_filter", "sensitive"])
@pytest.mark.parametrize("arguments, got", [('{"item": "Alice Smi', '{"item": "Alice Smi'), ("", '""')])
def test_a_call_cut_off_by_the_content_filter_is_blamed_on_the_filter_not_on_the_model(arguments, got, reason):
    """Azure's (and OpenAI's) content filter ends a reply with finish_reason "content_filter" where it
    stops it, Zhipu's (GLM's) with "sensitive" (docs.bigmodel.cn: 内容被安全审核接口拦截): a call cut so read
    'expected a JSON object … The model's call was wrong, not your code', or (cut before its arguments) ran with
    its defaults or missed an argument (Zhipu's: until now, "sensitive" was read only for an empty reply)."""
    booked, memory = [], ChatMemory()
    model = ScriptedModel([reply(arguments, finish=reason), "done"])
    with pytest.raises(ArgumentError) as caught:
        run_loop(model, "book for Alice Smith", tools=[booking_tool(booked)], memory=memory)
    said = f'(finish_reason "{reason}")'
    assert str(caught.value) == FILTERED.replace('{"item": "Alice Smi', got).replace(
        '(finish_reason "content_filter")', said
    )
    assert caught.value.hint == FILTERED_HINT.replace('(finish_reason "content_filter")', said)
    assert booked == [] and results(memory.messages()) == [str(caught.value)]
    check_request({"model": "m", "messages": to_openai(memory.messages())})
