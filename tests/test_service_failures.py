"""The AI service when a turn does not end with a usable answer: a hand-over, an interrupt, a
reader that stops a stream, an IMMEDIATE tool whose value is not the declared type."""

from typing import Annotated, Any, Protocol

import pytest
from pydantic import BaseModel

from toolkit.chat.scripted import ScriptedModel, call
from toolkit.chat.sse import TextDelta
from toolkit.errors import ConfigurationError, OutputParsingError
from toolkit.loop.records import COURSE, HANDOVER_ZH, LoopOptions
from toolkit.services.results import Result, TokenStream
from toolkit.services.service import RAN_HINT, ai_service, memory_per_id
from toolkit.tools.decorator import MemoryId, ReturnBehavior, tool

RAN: list[str] = []


@tool("查询订单")
def query_order(orderId: str) -> str:
    RAN.append(orderId)
    return "状态：未知"


class Summary(BaseModel):
    order_id: str
    status: str


class Desk(Protocol):
    def summarise(self, question: str) -> Summary: ...

    def summarise_result(self, question: str) -> Result[Summary]: ...

    def ask(self, question: str) -> str: ...


def setup_function():
    RAN.clear()


def endless_tool_calls():
    """A model that keeps calling tools (new ids each time, so the loop guard does not stop it)."""
    return [call("query_order", orderId=f"SN{i}") for i in range(1, 11)] + ['{"order_id": "SN1", "status": "x"}']


# --- finding 8: a hand-over is not a malformed answer -----------------------------------------


def test_a_structured_method_that_is_handed_over_raises_once_without_a_repair_round():
    model = ScriptedModel(endless_tool_calls())
    desk = ai_service(Desk, model=model, tools=[query_order], options=COURSE)
    with pytest.raises(OutputParsingError) as info:
        desk.summarise("总结 SN1")
    assert str(info.value) == (
        "summarise: the question was handed over to a person (the loop ended with 'handover': "
        f"{HANDOVER_ZH!r}), so there is no Summary to return (a hand-over is never parsed or repaired); "
        "declare the return type Result[Summary] to receive the hand-over as a value (result.handover)"
    )
    assert info.value.answer == HANDOVER_ZH and info.value.answers == (HANDOVER_ZH,)
    assert info.value.handover == HANDOVER_ZH
    assert info.value.loop_result.finish == "handover"
    assert len(model.requests) == 5 and RAN == ["SN1", "SN2", "SN3", "SN4", "SN5"]  # every tool ran once
    assert not any("could not be used" in (m.content or "") for r in model.requests for m in r.messages)


def test_a_result_method_that_is_handed_over_returns_the_hand_over():
    model = ScriptedModel(endless_tool_calls())
    result = ai_service(Desk, model=model, tools=[query_order], options=COURSE).summarise_result("总结 SN1")
    assert result.content is None and result.finish_reason == "handover" and result.handover == HANDOVER_ZH
    assert len(model.requests) == 5 and len(RAN) == 5


def test_a_str_method_that_is_handed_over_returns_the_sentence():
    model = ScriptedModel(endless_tool_calls())
    assert ai_service(Desk, model=model, tools=[query_order], options=COURSE).ask("SN1?") == HANDOVER_ZH
    assert len(RAN) == 5


@pytest.mark.parametrize(
    "options", [COURSE, LoopOptions(max_round_trips=1, on_limit="handover")], ids=["course", "round_trip_limit"]
)
def test_a_streamed_turn_that_is_handed_over_streams_the_sentence(options):
    """Before: the reader of a TokenStream got no text at all (a chat window stayed empty); the
    sentence was only in `result.content`."""
    chat = ai_service(
        Chat, model=ScriptedModel(endless_tool_calls()), tools=[query_order], memory=memory_per_id(), options=options
    )
    stream = chat.stream("u1", "查订单")
    texts = [event.text for event in stream if isinstance(event, TextDelta)]
    assert texts == [stream.result.content] and stream.result.finish_reason == "handover"
    assert texts[0] == options.handover_text


def test_a_result_with_an_answer_has_no_hand_over():
    result = ai_service(Desk, model=ScriptedModel(['{"order_id": "SN1", "status": "已发货"}'])).summarise_result("x")
    assert result.content == Summary(order_id="SN1", status="已发货") and result.handover is None


def test_a_repair_round_that_is_handed_over_is_not_parsed_again():
    model = ScriptedModel(["大概发货了吧", *endless_tool_calls()])
    desk = ai_service(Desk, model=model, tools=[query_order], options=COURSE)
    with pytest.raises(OutputParsingError, match=r"^summarise: the question was handed over to a person") as info:
        desk.summarise("总结 SN1")
    assert info.value.answers == (HANDOVER_ZH,)
    assert len(model.requests) == 6 and len(RAN) == 5  # the first answer, then one repair round that handed over


# --- finding 9: Ctrl-C and a reader that stops keep memory valid --------------------------------


class Chat(Protocol):
    def chat(self, user: Annotated[str, MemoryId], question: str) -> str: ...

    def stream(self, user: Annotated[str, MemoryId], question: str) -> TokenStream: ...


def interrupted(request):
    raise KeyboardInterrupt


def roles_sent(model):
    return [(m.role, m.content) for m in model.requests[-1].messages]


def test_ctrl_c_while_waiting_for_the_gateway_is_raised_on_and_memory_stays_valid():
    model = ScriptedModel([interrupted, "第二个回答"])
    chat = ai_service(Chat, model=model, memory=memory_per_id())
    with pytest.raises(KeyboardInterrupt):
        chat.chat("u1", "第一个问题")
    assert chat.chat("u1", "第二个问题") == "第二个回答"
    assert roles_sent(model) == [
        ("user", "第一个问题"),
        ("assistant", "(no reply: the answer failed with KeyboardInterrupt; the user's message above is unanswered)"),
        ("user", "第二个问题"),
    ]


def test_a_stream_whose_reader_breaks_keeps_memory_valid():
    model = ScriptedModel(["一个很长的回答 " * 20, "第二个回答"])
    chat = ai_service(Chat, model=model, memory=memory_per_id())
    for i, _piece in enumerate(chat.stream("u1", "第一个问题").text()):
        if i == 2:
            break  # the "stop" button
    list(chat.stream("u1", "第二个问题"))
    assert roles_sent(model) == [
        ("user", "第一个问题"),
        ("assistant", "(no reply: the answer failed with GeneratorExit; the user's message above is unanswered)"),
        ("user", "第二个问题"),
    ]


def test_closing_a_token_stream_stops_the_call_and_keeps_memory_valid():
    model = ScriptedModel([call("query_order", orderId="SN1"), "不会用到", "第二个回答"])
    memories = memory_per_id()
    chat = ai_service(Chat, model=model, tools=[query_order], memory=memories)
    stream = chat.stream("u1", "第一个问题")
    events = iter(stream)
    assert [type(next(events)).__name__ for _ in range(2)] == ["ToolCallDelta", "ToolStarted"]
    stream.close()  # before the call runs
    assert stream.result is None and RAN == []
    assert [(m.role, m.content) for m in memories("u1").messages()][1:] == [
        ("assistant", None),
        ("tool", "Not completed: the turn was interrupted by GeneratorExit."),  # the call is answered
    ]
    list(chat.stream("u1", "第二个问题"))
    assert [m.role for m in model.requests[-1].messages] == ["user", "assistant", "tool", "user"]


def test_ctrl_c_while_a_stream_is_read_is_raised_on_and_memory_stays_valid():
    model = ScriptedModel(["一个很长的回答 " * 20, "第二个回答"])
    chat = ai_service(Chat, model=model, memory=memory_per_id())
    events = iter(chat.stream("u1", "第一个问题"))
    next(events)
    with pytest.raises(KeyboardInterrupt):
        events.throw(KeyboardInterrupt())
    list(chat.stream("u1", "第二个问题"))
    assert [m.role for m in model.requests[-1].messages] == ["user", "assistant", "user"]


def test_a_stream_read_again_says_it_is_read_once():
    """A notebook cell `for event in stream: ...` run twice: the second read raised a raw
    `AttributeError: 'NoneType' object has no attribute 'answer'` (the finished loop has no result)."""
    model = ScriptedModel(["第一个回答"])
    chat = ai_service(Chat, model=model, memory=memory_per_id())
    stream = chat.stream("u1", "第一个问题")
    assert "".join(stream.text()) == "第一个回答"
    with pytest.raises(ConfigurationError) as again:
        list(stream)
    assert str(again.value) == (
        "TokenStream: this stream was already read to its end (its answer is in .result); a stream is read "
        "once. Fix: call the method that made it again for a new stream"
    )
    assert stream.result is not None and stream.result.content == "第一个回答" and len(model.requests) == 1


def test_a_stopped_stream_read_again_says_it_was_stopped():
    """A stream stopped by a `break` (or Ctrl-C) and read again raised the same raw AttributeError."""
    model = ScriptedModel(["一个很长的回答 " * 20])
    memories = memory_per_id()
    chat = ai_service(Chat, model=model, memory=memories)
    stream = chat.stream("u1", "第一个问题")
    for _piece in stream.text():
        break
    kept = memories("u1").messages()
    with pytest.raises(ConfigurationError) as again:
        list(stream)
    assert str(again.value) == (
        "TokenStream: this stream was stopped (close(), a break or Ctrl-C) and its call has ended. "
        "Fix: call the method that made it again for a new stream"
    )
    stream.close()
    assert memories("u1").messages() == kept and stream.result is None


def test_a_stream_read_by_two_readers_at_once_is_refused():
    """A second `for` over a stream that another reader holds took over its loop's events."""
    chat = ai_service(Chat, model=ScriptedModel(["一个很长的回答 " * 20]), memory=memory_per_id())
    stream = chat.stream("u1", "第一个问题")
    first = iter(stream)
    opening = next(first).text
    with pytest.raises(ConfigurationError) as again:
        next(iter(stream))
    assert str(again.value) == (
        "TokenStream: this stream is already being read (another loop holds it); a stream is read once. "
        "Fix: read it in one place, or call the method that made it again for a new stream"
    )
    rest = "".join(e.text for e in first if hasattr(e, "text"))  # the first reader reads on, undisturbed
    assert stream.result is not None and opening + rest == stream.result.content == "一个很长的回答 " * 20


# --- finding 15 (b): an IMMEDIATE tool whose value cannot be the return type --------------------


def test_an_immediate_tool_that_cannot_return_the_methods_type_is_refused_when_the_service_is_built():
    @tool("取消订单，结果直接给用户", return_behavior=ReturnBehavior.IMMEDIATE)
    def cancel_order(order_id: str) -> dict:
        RAN.append(order_id)
        return {"cancelled": order_id}

    class Cancel(Protocol):
        def ask(self, question: str) -> str: ...

    model = ScriptedModel([call("cancel_order", order_id="SN1")])
    with pytest.raises(ConfigurationError) as info:
        ai_service(Cancel, model=model, tools=[cancel_order])
    assert str(info.value) == (
        "Cancel.ask: returns str, but the IMMEDIATE tool 'cancel_order' "
        "(@tool test_service_failures.test_an_immediate_tool_that_cannot_return_the_methods_type_is_refused_when_"
        "the_service_is_built.<locals>.cancel_order) returns dict; an IMMEDIATE tool's value becomes the method's "
        "return value, so it must be a str or None. Make the tool return str, declare the method's return type "
        "Result[str] to receive any tool's result, or give this tool to a service without this method"
    )
    assert model.requests == [] and RAN == []


@pytest.mark.parametrize(
    "returns, accepted",
    [(str, True), (str | None, True), (None, True), (Any, True), (int, False), (Summary, False), (int | None, False)],
)
def test_which_tool_return_annotations_a_str_method_accepts(returns, accepted):
    def label(orderId: str):
        return None

    label.__annotations__["return"] = returns
    labelled = tool("退货单", return_behavior=ReturnBehavior.IMMEDIATE_IF_LAST)(label)

    class Labels(Protocol):
        def label(self, question: str) -> str: ...

        def labels(self, question: str) -> Result[Summary]: ...  # a Result takes anything

    if accepted:
        ai_service(Labels, model=ScriptedModel([]), tools=[labelled])
    else:
        with pytest.raises(ConfigurationError, match=r"^Labels\.label: returns str, but the IMMEDIATE_IF_LAST tool"):
            ai_service(Labels, model=ScriptedModel([]), tools=[labelled])


def test_a_structured_method_refuses_an_immediate_tool_of_another_model():
    @tool("退货单", return_behavior=ReturnBehavior.IMMEDIATE)
    def label(orderId: str) -> str:
        return "RL-1"

    with pytest.raises(ConfigurationError, match=r"^Desk\.summarise: returns Summary, but the IMMEDIATE tool 'label'"):
        ai_service(Desk, model=ScriptedModel([]), tools=[label])


def test_a_mismatch_found_after_the_tool_ran_says_so_and_keeps_its_value():
    @tool("查询库存，结果直接给用户", return_behavior=ReturnBehavior.IMMEDIATE)
    def stock(sku: str):  # no return annotation: only running it shows the type
        RAN.append(sku)
        return 5

    class Stock(Protocol):
        def ask(self, question: str) -> str: ...

    model = ScriptedModel([call("stock", sku="A1")])
    with pytest.raises(ConfigurationError) as info:
        ai_service(Stock, model=model, tools=[stock]).ask("A1 还有吗")
    assert str(info.value) == (
        "ask: the IMMEDIATE tool 'stock' ran and returned an int, but the method returns str; make the tool return "
        "str, or declare the return type Result[...] to receive it (this call's value is in .tool_values, the turn "
        "in .loop_result)"
    )
    assert info.value.hint == RAN_HINT
    assert RAN_HINT == (
        "The model was asked and the tool ran: its value is in .tool_values and the turn in .loop_result; "
        "fix the return type the message names."
    )
    assert "nothing was sent to the model" not in "\n".join(info.value._render_traceback_())
    assert info.value.tool_values == [5] and RAN == ["A1"]
    assert info.value.loop_result.finish == "immediate"
    assert [r.content for r in info.value.loop_result.immediate_results] == ["5"]


# --- a refusal is not a malformed answer ------------------------------------------------------


def refusing(*then):
    from toolkit.chat.messages import AssistantMessage

    return ScriptedModel([AssistantMessage(refusal="抱歉，我不能帮你做这件事。"), *then])


def test_a_structured_method_the_model_refuses_raises_saying_so_without_a_repair_round():
    model = refusing()
    with pytest.raises(OutputParsingError) as info:
        ai_service(Desk, model=model).summarise("q")
    assert str(info.value) == (
        "summarise: the model refused to answer ('抱歉，我不能帮你做这件事。'), so there is no Summary to return (a "
        "refusal is not repaired); declare the return type Result[Summary] to receive the refusal as a value"
    )
    assert info.value.answer == "抱歉，我不能帮你做这件事。" and len(model.requests) == 1
    assert info.value.loop_result.rounds[-1].reply.refusal == "抱歉，我不能帮你做这件事。"
    assert info.value.hint.startswith("The model declined the request itself, not the format")


def test_a_result_method_the_model_refuses_returns_no_content_and_the_reason():
    model = refusing()
    result = ai_service(Desk, model=model).summarise_result("q")
    assert (result.content, result.finish_reason, len(model.requests)) == (None, "refusal", 1)
    assert result.refusal == "抱歉，我不能帮你做这件事。"


def test_a_refusal_as_the_repair_rounds_answer_is_not_parsed_as_a_malformed_one():
    from toolkit.chat.messages import AssistantMessage

    model = ScriptedModel(["prose", AssistantMessage(refusal="不行。")])
    with pytest.raises(OutputParsingError, match=r"^summarise: the model refused to answer \('不行。'\)"):
        ai_service(Desk, model=model).summarise("q")


# --- an answer cut off by its length limit is not a malformed one -------------------------------


def cut_answer(text='{"order_id": "SN1", "status": "已发货，包裹正在'):
    from toolkit.chat.messages import AssistantMessage, ChatResponse

    return ChatResponse(message=AssistantMessage(content=text), finish_reason="length")


def test_a_structured_answer_cut_off_by_its_length_limit_says_so_without_a_repair_round():
    model = ScriptedModel([cut_answer()])
    with pytest.raises(OutputParsingError) as info:
        ai_service(Desk, model=model).summarise("q")
    assert str(info.value) == (
        'summarise: the answer was cut off by its length limit (finish_reason "length") before its JSON was whole '
        "(the answer is not a JSON object), so there is no Summary to return; a repair round would be cut off too"
    )
    assert info.value.hint.startswith("The model's reply reached its token limit") and len(model.requests) == 1
    assert info.value.answer == '{"order_id": "SN1", "status": "已发货，包裹正在'


def test_a_whole_answer_at_the_length_limit_is_taken_and_a_cut_repair_says_so():
    done = '{"order_id": "SN1", "status": "ok"}'
    assert ai_service(Desk, model=ScriptedModel([cut_answer(done)])).summarise("q") == Summary(
        order_id="SN1", status="ok"
    )
    with pytest.raises(OutputParsingError, match=r"^summarise: the answer was cut off by its length limit") as info:
        ai_service(Desk, model=ScriptedModel(["prose", cut_answer()])).summarise("q")
    assert info.value.answers == ("prose", '{"order_id": "SN1", "status": "已发货，包裹正在')


@pytest.mark.parametrize("reason", ["content_filter", "sensitive"])
def test_a_structured_answer_cut_off_by_a_content_filter_says_so_without_a_repair_round(reason):
    """A content filter cuts an answer where it stops it, as the length limit does: the repair round
    ran (and was cut off too), and the error read 'no Summary after one repair round: the answer is not
    a JSON object', its hint about simpler types. Now the cut is named, with the filter's fix (Zhipu's
    spelling of it, "sensitive", too)."""
    from toolkit.chat.messages import AssistantMessage, ChatResponse

    filtered = ChatResponse(
        message=AssistantMessage(content='{"order_id": "SN1", "status": "已发'), finish_reason=reason
    )
    model = ScriptedModel([filtered, filtered])
    with pytest.raises(OutputParsingError) as info:
        ai_service(Desk, model=model).summarise("q")
    assert str(info.value) == (
        f'summarise: the answer was cut off by the gateway\'s content filter (finish_reason "{reason}") before '
        "its JSON was whole (the answer is not a JSON object), so there is no Summary to return; a repair round "
        "would be cut off too"
    )
    assert info.value.hint == (
        "The gateway's content filter stopped the model's reply: rephrase the request, or check the gateway's "
        "filter. The error's .answers holds what the model wrote."
    )
    assert len(model.requests) == 1 and info.value.answers == ('{"order_id": "SN1", "status": "已发',)


def test_errors_name_a_generic_return_type_as_it_is_written_not_with_its_module():
    class Lines(Protocol):
        def lines(self, question: str) -> list[Summary]: ...

    with pytest.raises(OutputParsingError) as info:
        ai_service(Lines, model=refusing()).lines("q")
    assert "so there is no list[Summary] to return" in str(info.value)
    assert "declare the return type Result[list[Summary]] to receive" in str(info.value)


def test_an_immediate_mismatch_names_a_generic_return_type_whole():
    @tool("列出订单，结果直接给用户", return_behavior=ReturnBehavior.IMMEDIATE)
    def orders(user: str):  # no return annotation: only running it shows the type
        return {"order_id": "SN1", "status": "ok"}

    class Lines(Protocol):
        def lines(self, question: str) -> list[Summary]: ...

    with pytest.raises(ConfigurationError, match=r"returned a dict, but the method returns list\[Summary\]; make the "):
        ai_service(Lines, model=ScriptedModel([call("orders", user="u1")]), tools=[orders]).lines("我的订单")


def test_bytes_that_are_not_text_are_refused_naming_the_method_and_parameter_before_anything_is_sent():
    from toolkit.services.declare import user_message

    class Reader:
        def read(self, data: bytes) -> str: ...

        @user_message("总结：{{data}}")
        def summarize(self, data: bytes) -> str: ...

    model = ScriptedModel(["never"])
    service = ai_service(Reader, model=model)
    with pytest.raises(ConfigurationError) as caught:
        service.read(b"\xff\xfe")
    assert str(caught.value) == (
        "read(data=...): the value is bytes that are not UTF-8 text (b'\\xff\\xfe'), which a prompt cannot hold; "
        "pass text: decode it (data.decode('latin-1')), or base64.b64encode(data).decode()"
    )
    with pytest.raises(ConfigurationError) as caught:
        service.summarize(b"\x80")
    assert str(caught.value).startswith("summarize: {{data}}: the value is bytes that are not UTF-8 text (b'\\x80')")
    assert model.requests == []


def test_an_immediate_value_is_returned_only_when_it_is_of_the_declared_type_not_just_readable_as_it():
    """`-> list[Summary]` and an IMMEDIATE tool returning a list of dicts: the dicts came back as the
    method's value (`result[0].status` an AttributeError), as `-> Summary` never lets a dict through."""

    @tool("订单摘要，结果直接给用户", return_behavior=ReturnBehavior.IMMEDIATE)
    def summaries(orderId: str) -> list:
        return [{"order_id": orderId, "status": "已发货"}]

    @tool("订单号，结果直接给用户", return_behavior=ReturnBehavior.IMMEDIATE)
    def numbers(orderId: str) -> list:
        return [1, 2]

    class Many(Protocol):
        def summaries(self, question: str) -> list[Summary]: ...

    class Numbers(Protocol):
        def numbers(self, question: str) -> list[int]: ...

    model = ScriptedModel([call("summaries", orderId="SN1")])
    with pytest.raises(ConfigurationError) as info:
        ai_service(Many, model=model, tools=[summaries]).summaries("SN1")
    assert str(info.value) == (
        "summaries: the IMMEDIATE tool 'summaries' ran and returned a list, but the method returns list[Summary]; "
        "make the tool return list[Summary], or declare the return type Result[...] to receive it (this call's "
        "value is in .tool_values, the turn in .loop_result)"
    )
    assert info.value.tool_values == [[{"order_id": "SN1", "status": "已发货"}]]
    model = ScriptedModel([call("numbers", orderId="SN1")])
    assert ai_service(Numbers, model=model, tools=[numbers]).numbers("SN1") == [1, 2]


def test_a_store_that_cannot_take_the_no_reply_note_leaves_the_turns_own_error():
    """A turn whose request failed (a 503) left its question last; the service's note that it got
    no reply was written to a store whose disk had filled meanwhile, and the store's error replaced
    the turn's: the learner read 'database or disk is full' for a gateway that was down."""
    import sqlite3

    from toolkit.errors import TransientError
    from toolkit.memory.windows import InMemoryStore

    class FillsUp(InMemoryStore):
        def append(self, memory_id, messages):
            if any(m.role == "assistant" for m in messages):
                raise sqlite3.OperationalError("database or disk is full")
            super().append(memory_id, messages)

    model = ScriptedModel([TransientError("HTTP 503 (transient): down")])
    chat = ai_service(Chat, model=model, memory=memory_per_id(store=FillsUp()))
    with pytest.raises(TransientError) as caught:
        chat.chat("u1", "第一个问题")
    assert caught.value.__notes__ == [
        "memory could not take the note that this question got no reply (OperationalError: database or disk is full)"
    ]


NESTED_ELSEWHERE = (
    "Tool 'ask_again' failed: memory id 'u1': a turn on it is still in progress (a tool of "
    "that turn, run on another thread while the turn waits for it, started this one); a turn inside a tool needs "
    "its own memory: pass e.g. memory=ChatMemory('u1-inner'), or none"
)


@pytest.mark.parametrize("options", [LoopOptions(concurrent=True), LoopOptions(tool_timeout=30)])
def test_a_tool_run_on_another_thread_that_asks_its_own_service_on_its_memory_is_refused_not_deadlocked(options):
    """The service takes the memory's lock before the loop: a tool of a concurrent round (or one under
    `tool_timeout`) that asked the service again with its turn's memory id waited for that lock, held
    by the turn waiting for the tool: a deadlock (with a limit, a call timed out whose turn ran later)."""
    import threading

    service = {}

    @tool("ask the assistant again")
    def ask_again(question: str) -> str:
        return service["chat"].chat("u1", question)

    @tool("look an order up")
    def lookup() -> str:
        return "shipped"

    calls = [call("ask_again", question="again?", id="c1"), call("lookup", id="c2")]
    model = ScriptedModel([calls, "done"])
    service["chat"] = ai_service(Chat, model=model, tools=[ask_again, lookup], memory=memory_per_id(), options=options)
    answers = []
    turn = threading.Thread(target=lambda: answers.append(service["chat"].chat("u1", "hi")), daemon=True)
    turn.start()
    turn.join(20)  # a hang guard: it ends at once when things are right
    assert not turn.is_alive(), "the turn waited for its own tool: a deadlock"
    assert answers == ["done"]
    assert [m.content for m in model.requests[1].messages if m.role == "tool"] == [NESTED_ELSEWHERE, "shipped"]


def test_a_structured_answer_cut_off_by_the_context_window_says_so_without_a_repair_round():
    """Mistral's finish_reason "model_length": the conversation filled the model's context window."""
    from toolkit.chat.messages import AssistantMessage, ChatResponse

    cut = ChatResponse(
        message=AssistantMessage(content='{"order_id": "SN1", "status": "已发'), finish_reason="model_length"
    )
    model = ScriptedModel([cut, cut])
    with pytest.raises(OutputParsingError) as info:
        ai_service(Desk, model=model).summarise("q")
    assert str(info.value) == (
        'summarise: the answer was cut off by the model\'s context window (finish_reason "model_length") before '
        "its JSON was whole (the answer is not a JSON object), so there is no Summary to return; a repair round "
        "would be cut off too"
    )
    assert info.value.hint == (
        "The conversation and the model's reply filled the model's context window: shorten the conversation (a "
        "smaller memory window), or ask for a shorter answer. The error's .answers holds what the model wrote."
    )
    assert len(model.requests) == 1
