import threading
import time
from typing import Annotated, Protocol

import pytest
from pydantic import BaseModel

from toolkit.chat.messages import AssistantMessage, SystemMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.chat.sse import TextDelta
from toolkit.chat.switch import fake_client
from toolkit.errors import ConfigurationError, OutputParsingError, TruncatedStreamError
from toolkit.gateway.server import Gateway
from toolkit.loop.run import ToolFinished, ToolStarted
from toolkit.memory.windows import ChatMemory
from toolkit.services.declare import UserText, system_message, user_message
from toolkit.services.service import Result, TokenStream, ai_service, memory_per_id
from toolkit.services.templates import fixed_clock
from toolkit.tools.decorator import MemoryId, ReturnBehavior, tool

RUNS = []


@tool("查询订单的状态、金额、商品")
def query_order(orderId: str) -> str:
    RUNS.append(orderId)
    return f"订单号：{orderId}\n状态：已发货"


@tool("生成退货单，结果直接给用户", return_behavior=ReturnBehavior.IMMEDIATE)
def create_return_label(orderId: str) -> str:
    return f"退货单 RL-{orderId}"


class OrderSummary(BaseModel):
    order_id: str
    status: str


class Assistant(Protocol):
    @system_message("你是电商客服。今天是 {{current_date}}。")
    def chat(self, user: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

    @user_message("总结订单 {{order_id}}，语气：{{tone}}")
    def summarize(self, order_id: str, tone: str) -> OrderSummary: ...

    def ask(self, question: str) -> Result[str]: ...

    def stream(self, question: str) -> TokenStream: ...


class ReturnDesk(Protocol):
    """Its own declaration: `summarize -> OrderSummary` cannot share the str-returning IMMEDIATE tool."""

    def label(self, question: str) -> str: ...

    def label_result(self, question: str) -> Result[str]: ...


def service(script, declaration=Assistant, **kw):
    model = ScriptedModel(script)
    kw.setdefault("memory", memory_per_id())
    kw.setdefault("shared_memory_id", "shared")  # the methods without a MemoryId share one conversation, by opt-in
    tools = [query_order, create_return_label] if declaration is ReturnDesk else [query_order]
    return ai_service(declaration, model=model, tools=tools, clock=fixed_clock("2026-10-20T10:00:00"), **kw), model


def setup_function():
    RUNS.clear()


def test_templates_fill_from_parameters_and_the_clock():
    assistant, model = service(['{"order_id": "SN1", "status": "已发货"}'])
    assistant.summarize("SN202610200001", "简洁")
    assert model.requests[0].messages == (UserMessage(content="总结订单 SN202610200001，语气：简洁"),)
    assistant2, model2 = service(["你好"])
    assistant2.chat("u1", "在吗")
    assert model2.requests[0].messages[0] == SystemMessage(content="你是电商客服。今天是 2026-10-20。")


def test_the_service_is_a_generated_subclass_with_cached_plans():
    assistant, _ = service([])
    assert type(assistant).__name__ == "AssistantService" and type(assistant).__mro__[1] is Assistant
    assert sorted(type(assistant).__plans__) == ["ask", "chat", "stream", "summarize"]
    assert type(assistant).__plans__["summarize"].kind == "structured"


def test_structured_output_with_one_repair_round():
    assistant, model = service(["I think it shipped?", '```json\n{"order_id": "SN1", "status": "shipped"}\n```'])
    assert assistant.summarize("SN1", "正式") == OrderSummary(order_id="SN1", status="shipped")
    assert model.requests[0].extra["response_format"]["json_schema"]["name"] == "OrderSummary"
    repair = model.requests[1].messages[-1]
    assert repair.content.startswith("Your answer could not be used: the answer is not a JSON object.")
    assert model.requests[1].messages[-2] == AssistantMessage(content="I think it shipped?")


def test_structured_output_fails_after_one_repair():
    assistant, _ = service(["nope", "still nope"])
    with pytest.raises(OutputParsingError, match="the answer is not a JSON object"):
        assistant.summarize("SN1", "x")


def test_structured_output_as_instructions_for_gateways_without_response_format():
    assistant, model = service(['{"order_id": "SN1", "status": "ok"}'], structured="instructions")
    assistant.summarize("SN1", "x")
    assert "response_format" not in model.requests[0].extra
    assert "It must match this JSON Schema" in model.requests[0].messages[-1].content


def test_a_gateway_that_refuses_response_format_gets_the_schema_in_the_question_instead():
    """A 400 naming `response_format` (no JSON mode): the same call again, schema in the user
    message; the question is in memory once, with its answer."""
    from toolkit.errors import CallerError

    refused = CallerError("HTTP 400: Unrecognized request argument supplied: response_format", status=400)
    assistant, model = service([refused, '{"order_id": "SN1", "status": "ok"}', '{"order_id": "SN2", "status": "ok"}'])
    assert assistant.summarize("SN1", "x") == OrderSummary(order_id="SN1", status="ok")
    assert "response_format" in model.requests[0].extra and "response_format" not in model.requests[1].extra
    assert "It must match this JSON Schema" in model.requests[1].messages[-1].content
    assert [m.role for m in model.requests[1].messages if m.role != "system"] == ["user"]
    assistant.summarize("SN2", "y")  # the shared memory: one question, its answer, the next question
    assert [m.role for m in model.requests[2].messages if m.role != "system"] == ["user", "assistant", "user"]


def test_a_gateway_that_refused_response_format_is_not_sent_it_again_by_that_service():
    """The gateway has no JSON mode: the service's next calls (any structured method) ask with the
    schema in the question at once, not with a request that fails with a 400 before every answer."""
    from toolkit.errors import CallerError

    refused = CallerError("HTTP 400: Unrecognized request argument supplied: response_format", status=400)
    answer = '{"order_id": "SN1", "status": "ok"}'
    assistant, model = service([refused, answer, answer, answer])
    for order in ("SN1", "SN2", "SN3"):
        assert assistant.summarize(order, "x") == OrderSummary(order_id="SN1", status="ok")
    assert ["response_format" in r.extra for r in model.requests] == [True, False, False, False]
    assert all("It must match this JSON Schema" in r.messages[-1].content for r in model.requests[1:])
    other, fresh = service([answer])  # another service on another gateway asks its own way
    other.summarize("SN4", "x")
    assert "response_format" in fresh.requests[0].extra


def test_a_400_about_something_else_is_not_a_reason_to_drop_response_format():
    from toolkit.errors import CallerError

    refused = CallerError("HTTP 400: the model does not exist", status=400)
    assistant, model = service([refused, '{"order_id": "SN1", "status": "ok"}'])
    with pytest.raises(CallerError):
        assistant.summarize("SN1", "x")
    assert len(model.requests) == 1


def test_result_carries_content_usage_executions_and_finish_reason():
    assistant, model = service([call("query_order", orderId="SN1"), "已发货"])
    result = assistant.ask("SN1 到哪了")
    assert result.content == "已发货" and result.finish_reason == "stop" and not result.immediate_return
    assert [e.call.name for e in result.tool_executions] == ["query_order"]
    assert result.usage == result.loop.rounds[0].usage + result.loop.rounds[1].usage


def test_memory_ids_are_isolated():
    assistant, model = service(["A1", "B1", "A2"])
    assistant.chat("alice", "我是 Alice")
    assistant.chat("bob", "我是 Bob")
    assistant.chat("alice", "我是谁？")
    third = model.requests[2].messages
    assert [m.content for m in third if isinstance(m, UserMessage)] == ["我是 Alice", "我是谁？"]
    assert all("Bob" not in (m.content or "") for m in third)


def test_same_id_concurrent_calls_are_serialised():
    """All six calls are on their way before the first answer comes (on a loaded machine a thread
    can start late, and calls one after the other would prove nothing)."""
    all_started = threading.Barrier(6, timeout=60)

    def slow(request):
        time.sleep(0.05)  # the first turn is still running while the other five arrive
        return f"answer to {request.messages[-1].content}"

    def ask(question):
        all_started.wait()
        assistant.chat("same", question)

    memory = memory_per_id()
    assistant, _ = service([slow] * 6, memory=memory)
    threads = [threading.Thread(target=ask, args=(f"q{i}",)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    history = memory("same").messages()
    pairs = [(history[i].content, history[i + 1].content) for i in range(1, len(history), 2)]
    assert len(pairs) == 6 and all(a == f"answer to {q}" for q, a in pairs)


def test_a_single_memory_keeps_one_conversation_across_calls():
    class Simple(Protocol):
        def ask(self, question: str) -> str: ...

    memory = ChatMemory("shared")
    model = ScriptedModel(["1", "2"])
    simple = ai_service(Simple, model=model, memory=memory)
    simple.ask("first")
    simple.ask("second")
    assert [m.content for m in model.requests[1].messages] == ["first", "1", "second"]
    assert len(memory.messages()) == 4


def test_immediate_return_rules():
    assistant, _ = service([call("create_return_label", orderId="SN1")] * 2, ReturnDesk)
    assert assistant.label("我要退货 SN1") == "退货单 RL-SN1"
    result = assistant.label_result("退货 SN1")
    assert result.content is None and result.immediate_return and result.finish_reason == "tool_execution"
    assert [r.content for r in result.immediate_results] == ["退货单 RL-SN1"]


def test_immediate_return_with_two_results_needs_a_result_type():
    assistant, _ = service(
        [[call("create_return_label", orderId="SN1"), call("create_return_label", orderId="SN2")]], ReturnDesk
    )
    with pytest.raises(ConfigurationError) as info:
        assistant.label("两单都退")
    assert str(info.value) == (
        "label: an IMMEDIATE tool ended the call with 2 results, which this return type "
        "cannot hold; declare the return type Result[...] to receive them"
    )


def test_streaming_with_a_scripted_model_pauses_for_tools():
    assistant, _ = service([call("query_order", orderId="SN1"), "您的订单已发货"])
    stream = assistant.stream("SN1?")
    kinds = [type(e).__name__ for e in stream if not type(e).__name__ == "ToolCallDelta"]
    assert kinds == ["ToolStarted", "ToolFinished"] + ["TextDelta"] * 2
    assert stream.result.content == "您的订单已发货"


LOGISTICS = "帮我查一下订单 SN202610200001 现在到哪了？"


def test_streaming_through_the_real_sse_client_against_the_fake_gateway():
    assistant = ai_service(
        Assistant, model=fake_client(mode="A"), tools=[query_order], memory=memory_per_id(), shared_memory_id="shared"
    )
    stream = assistant.stream(LOGISTICS)
    events = list(stream)
    started = [i for i, e in enumerate(events) if isinstance(e, ToolStarted)]
    finished = [i for i, e in enumerate(events) if isinstance(e, ToolFinished)]
    text_after = [i for i, e in enumerate(events) if isinstance(e, TextDelta) and i > finished[0]]
    assert started and finished and text_after, [type(e).__name__ for e in events]
    assert RUNS == ["SN202610200001"]
    assert stream.result.content == "".join(
        e.text for e in events if isinstance(e, TextDelta) and events.index(e) > finished[0]
    )
    assert len(stream.result.loop.rounds) == 2


def test_a_truncated_stream_raises_and_executes_nothing():
    gateway = Gateway(mode="A", faults=["truncate"])
    assistant = ai_service(
        Assistant,
        model=fake_client(gateway=gateway),
        tools=[query_order],
        memory=memory_per_id(),
        shared_memory_id="shared",
    )
    with pytest.raises(TruncatedStreamError):
        list(assistant.stream(LOGISTICS))
    assert RUNS == []


def test_errors_mid_stream_surface_from_the_iterator():
    assistant, _ = service([RuntimeError("gateway exploded")])
    with pytest.raises(RuntimeError, match="gateway exploded"):
        list(assistant.stream("x"))


# --- issue 19 item 2: memory ids ------------------------------------------------------------


class Chat(Protocol):
    @system_message("你是电商客服。")
    def chat(self, user: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...


@pytest.mark.parametrize("bad", [None, "", 1])
def test_a_missing_empty_or_non_string_memory_id_is_refused_before_anything_is_sent(bad):
    from toolkit.errors import MemoryIdError

    model = ScriptedModel(["hi"])
    chat = ai_service(Chat, model=model, memory=memory_per_id())
    with pytest.raises(MemoryIdError, match=r"^chat\(user=\.\.\.\): memory id "):
        chat.chat(bad, "用户甲 SN202610200001")
    assert model.requests == []


def test_memory_per_id_keeps_1_and_the_string_1_apart_by_refusing_the_int():
    from toolkit.errors import MemoryIdError

    provide = memory_per_id()
    assert provide("1").id == "1"
    with pytest.raises(MemoryIdError, match=r"memory id 1 is not a string \(int\)"):
        provide(1)


# --- issue 19 item 5: structured output is as strict as tool arguments ---------------------


class Priced(BaseModel):
    order_id: str
    total_yuan: float


class PriceDesk(Protocol):
    def price(self, question: str) -> Priced: ...


@pytest.mark.parametrize(
    "first, problem",
    [
        ('{"order_id": "SN1", "total_yuan": 2999, "note": "急"}', "note: not a field"),
        ('{"order_id": "SN1", "total_yuan": "2999"}', 'total_yuan: Input should be a valid number, got "2999"'),
    ],
)
def test_extra_fields_and_numbers_as_strings_go_to_the_repair_round(first, problem):
    model = ScriptedModel([first, '{"order_id": "SN1", "total_yuan": 2999}'])
    desk = ai_service(PriceDesk, model=model)
    assert desk.price("SN1 多少钱") == Priced(order_id="SN1", total_yuan=2999.0)
    assert f"({problem})" in model.requests[1].messages[-1].content


def test_the_repair_exchange_is_stored_in_memory():
    memory = ChatMemory("u1")
    model = ScriptedModel(['{"order_id": "SN1", "total_yuan": "2999"}', '{"order_id": "SN1", "total_yuan": 2999}'])
    ai_service(PriceDesk, model=model, memory=memory).price("SN1 多少钱")
    assert [type(m).__name__ for m in memory.messages()] == [
        "UserMessage",
        "AssistantMessage",
        "UserMessage",
        "AssistantMessage",
    ]
    assert memory.messages()[2].content.startswith("Your answer could not be used")


def test_a_failed_repair_keeps_every_answer():
    model = ScriptedModel(["prose", "more prose"])
    with pytest.raises(OutputParsingError) as info:
        ai_service(PriceDesk, model=model).price("SN1")
    assert info.value.answers == ("prose", "more prose") and info.value.answer == "more prose"


def test_a_failed_repair_names_the_method_and_the_round_and_keeps_the_turn():
    """Wrong twice: the error says which method, that one repair round was tried, and why the
    second answer failed; the turn (the tools that ran, both rounds) goes with it, as a hand-over's does."""
    assistant, _ = service(
        [call("query_order", orderId="SN1"), '{"order_id": "SN1"}', '{"order_id": 1, "status": "x"}']
    )
    with pytest.raises(OutputParsingError) as info:
        assistant.summarize("SN1", "x")
    assert str(info.value) == (
        "summarize: the answer is no OrderSummary after one repair round: the JSON does not match the schema "
        "(order_id: Input should be a valid string, got 1)"
    )
    assert info.value.answers == ('{"order_id": "SN1"}', '{"order_id": 1, "status": "x"}')
    turn = info.value.loop_result
    assert [e.call.name for e in turn.executions] == ["query_order"] and RUNS == ["SN1"]
    assert len(turn.rounds) == 3 and turn.answer == '{"order_id": 1, "status": "x"}'


# --- issue 19 item 6: a broken turn leaves a valid conversation -------------------------------


def test_a_truncated_stream_leaves_no_unanswered_user_message_in_memory():
    from toolkit.services.service import INTERRUPTED_TEXT

    memories = memory_per_id()
    gateway = Gateway(mode="A", faults=["truncate"])
    chat = ai_service(Chat, model=fake_client(gateway=gateway), tools=[query_order], memory=memories)

    class Streamer(Protocol):
        @system_message("你是电商客服。")
        def stream(self, user: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> TokenStream: ...

    streamer = ai_service(Streamer, model=fake_client(gateway=gateway), tools=[query_order], memory=memories)
    with pytest.raises(TruncatedStreamError):
        list(streamer.stream("erin", LOGISTICS))
    kept = memories("erin").messages()
    assert [type(m).__name__ for m in kept] == ["SystemMessage", "UserMessage", "AssistantMessage"]
    assert kept[-1].content == INTERRUPTED_TEXT.format(error="TruncatedStreamError")
    chat.chat("erin", "你好")
    roles = [type(m).__name__ for m in memories("erin").messages()]
    assert all(not (a == b == "UserMessage") for a, b in zip(roles, roles[1:]))


def test_a_failed_request_leaves_no_unanswered_user_message_either():
    memories = memory_per_id()
    chat = ai_service(Chat, model=ScriptedModel([RuntimeError("gateway down")]), memory=memories)
    with pytest.raises(RuntimeError):
        chat.chat("u1", "在吗")
    assert [type(m).__name__ for m in memories("u1").messages()] == ["SystemMessage", "UserMessage", "AssistantMessage"]


# --- issue 15 item 6: immediate return into a typed method ------------------------------------


def test_immediate_return_of_none_gives_none_not_success():
    @tool("记录退货，结果直接给用户", return_behavior=ReturnBehavior.IMMEDIATE)
    def record_return(orderId: str) -> None:
        return None

    class Desk(Protocol):
        def file(self, request: str) -> str: ...

    desk = ai_service(Desk, model=ScriptedModel([call("record_return", orderId="SN1")]), tools=[record_return])
    assert desk.file("退货 SN1") is None


def test_immediate_return_of_the_declared_type_gives_that_object():
    made = []

    @tool("总结订单，结果直接给用户", return_behavior=ReturnBehavior.IMMEDIATE)
    def summarize_order(orderId: str) -> OrderSummary:
        made.append(OrderSummary(order_id=orderId, status="已发货"))
        return made[-1]

    class Desk(Protocol):
        def summary(self, request: str) -> OrderSummary: ...

    desk = ai_service(Desk, model=ScriptedModel([call("summarize_order", orderId="SN1")]), tools=[summarize_order])
    assert desk.summary("SN1") is made[0]


def test_immediate_return_of_another_type_is_a_configuration_error():
    @tool("查询库存，结果直接给用户", return_behavior=ReturnBehavior.IMMEDIATE)
    def stock(sku: str) -> int:
        return 5

    class Desk(Protocol):
        def ask(self, request: str) -> str: ...

    with pytest.raises(ConfigurationError) as info:  # refused when the service is built: no tool has run
        ai_service(Desk, model=ScriptedModel([call("stock", sku="A1")]), tools=[stock])
    assert str(info.value).startswith(
        "Desk.ask: returns str, but the IMMEDIATE tool 'stock' (@tool test_service.test_immediate_return_of_another_"
        "type_is_a_configuration_error.<locals>.stock) returns int; "
    )


# --- issue 15 item 7: the MemoryId pitfall -----------------------------------------------------


def test_per_id_memory_with_a_method_without_memory_id_is_a_configuration_error():
    class Mixed(Protocol):
        def chat(self, user: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

        def ask(self, question: str) -> str: ...

    with pytest.raises(ConfigurationError) as info:
        ai_service(Mixed, model=ScriptedModel([]), memory=memory_per_id())
    assert str(info.value) == (
        "Mixed.ask: the service has per-id memory, but this method has no MemoryId parameter, so every caller "
        "would share one conversation; add a parameter Annotated[str, MemoryId], or opt in to a shared "
        'conversation with ai_service(..., shared_memory_id="shared")'
    )
    memories = memory_per_id()
    model = ScriptedModel(["ok"])
    ai_service(Mixed, model=model, memory=memories, shared_memory_id="everyone").ask("hi")
    assert [m.content for m in memories("everyone").messages()] == ["hi", "ok"]


def test_a_default_value_on_a_memory_id_parameter_is_refused():
    class Defaulted(Protocol):
        def chat(self, question: Annotated[str, UserText], user: Annotated[str, MemoryId] = "x") -> str: ...

    with pytest.raises(ConfigurationError) as info:
        ai_service(Defaulted, model=ScriptedModel([]), memory=memory_per_id())
    assert str(info.value) == (
        "Defaulted.chat: the MemoryId parameter 'user' has a default value ('x'); a memory id must come from "
        "each caller, never from a default: remove the default"
    )


# --- issue 15 item 8: a structured user message is sent as JSON ------------------------------


def test_a_pydantic_user_text_parameter_is_sent_as_json():
    class Question(BaseModel):
        order_id: str
        topic: str

    class Desk(Protocol):
        def ask(self, q: Annotated[Question, UserText]) -> str: ...

    model = ScriptedModel(["好的"])
    ai_service(Desk, model=model).ask(Question(order_id="SN1", topic="物流"))
    assert model.requests[0].messages[-1].content == '{"order_id":"SN1","topic":"物流"}'


@tool("扣减库存")
def reserve(sku: str) -> str:
    return f"reserved {sku}"


@tool("发货")
def dispatch(sku: str) -> str:
    raise RuntimeError("carrier down")


def test_a_repair_round_keeps_what_the_first_turn_did_in_the_result():
    """`Result.loop` after a repair round: every message the call appended and every compensation
    it ran, the first turn's included (not only the repaired answer's)."""
    from toolkit.loop.run import LoopOptions
    from toolkit.loop.saga import compensates

    @compensates("reserve")
    def release(sku: str) -> None:
        pass

    class Desk(Protocol):
        def order(self, question: str) -> Result[OrderSummary]: ...

    script = [call("reserve", sku="A1"), call("dispatch", sku="A1"), "没发出去", '{"order_id": "A1", "status": "取消"}']
    options = LoopOptions(compensate=True, compensations=(release,))
    result = ai_service(Desk, model=ScriptedModel(script), tools=[reserve, dispatch], options=options).order("下单")
    assert result.content == OrderSummary(order_id="A1", status="取消") and len(result.tool_executions) == 2
    assert [(e.tool, e.ok) for e in result.loop.saga] == [("reserve", True)]
    assert [(m.role, m.content) for m in result.loop.new_messages] == [
        ("assistant", None),
        ("tool", "Tool 'reserve' was executed successfully but was rolled back due to failure of tool 'dispatch'"),
        ("assistant", None),
        ("tool", result.loop.new_messages[3].content),
        ("assistant", "没发出去"),
        ("assistant", '{"order_id": "A1", "status": "取消"}'),
    ]
