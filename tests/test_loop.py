import re
import threading
from typing import Annotated

import pytest

from tests.test_returns import EXPECTED
from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ArgumentError, ConfigurationError, MaxRoundTripsError, UnknownToolError
from toolkit.loop.run import COURSE, GUARD_TEXT, HANDOVER_ZH, REPAIR_HANDOVER_ZH, LoopOptions, run_loop
from toolkit.loop.sources import StaticProvider, build_context
from toolkit.loop.texts import EN, ZH
from toolkit.memory.windows import ChatMemory, MessageWindow
from toolkit.tools.decorator import Param, tool
from toolkit.tools.execute import FEED_BACK_ALL, ToolOutput, tools_from

Q = [UserMessage(content="查一下 SN202610200001")]


@tool("查询订单状态")
def query_order(order_id: Annotated[str, Param("订单号", name="orderId")]) -> str:
    return f"订单 {order_id}：已发货"


@tool("查询物流")
def query_logistics(order_id: Annotated[str, Param("订单号", name="orderId")]) -> str:
    return f"订单 {order_id}：运输中"


@tool("总是失败")
def broken() -> str:
    raise RuntimeError("database password=hunter2 unreachable")


def consistent(messages):
    """Every tool call answered exactly once, right after its assistant message; no orphans."""
    pending = set()
    for m in messages:
        if isinstance(m, ToolResultMessage):
            assert m.tool_call_id in pending, f"orphan or duplicate result {m.tool_call_id}"
            pending.remove(m.tool_call_id)
        else:
            assert not pending, f"unanswered calls {pending} before {m.role}"
            if isinstance(m, AssistantMessage):
                pending = {c.id for c in m.tool_calls}
    assert not pending
    return True


def test_two_model_calls_for_one_tool_question():
    model = ScriptedModel([call("query_order", orderId="SN202610200001"), "已发货"])
    result = run_loop(model, Q, tools=[query_order, query_logistics])
    assert (result.finish, result.answer, result.round_trips, len(model.requests)) == ("answer", "已发货", 1, 2)
    assert [m.role for m in result.messages] == ["user", "assistant", "tool", "assistant"]
    assert result.messages[2].content == "订单 SN202610200001：已发货"
    assert model.requests[0].tools == ("query_order", "query_logistics")
    assert model.requests[1].messages == tuple(result.messages[:3])  # the model saw the call and result


def test_usage_is_summed_over_rounds():
    model = ScriptedModel([call("query_order", orderId="SN1"), "ok"])
    result = run_loop(model, Q, tools=[query_order])
    assert result.usage == result.rounds[0].usage + result.rounds[1].usage
    assert result.usage.input_tokens > result.rounds[1].usage.input_tokens > 0


def test_caller_list_is_never_mutated():
    messages = list(Q)
    run_loop(ScriptedModel([call("query_order", orderId="SN1"), "ok"]), messages, tools=[query_order])
    assert messages == Q


def test_memory_receives_everything_in_order():
    memory = ChatMemory("u1")
    memory.add(SystemMessage(content="客服"))
    result = run_loop(ScriptedModel([call("query_order", orderId="SN1"), "ok"]), Q, tools=[query_order], memory=memory)
    assert [m.role for m in memory.messages()] == ["system", "user", "assistant", "tool", "assistant"]
    assert result.messages == memory.messages()
    assert [m.role for m in result.new_messages] == ["assistant", "tool", "assistant"]


NAMED = {"type": "function", "function": {"name": "query_order"}}


@pytest.mark.parametrize("choice", ["required", NAMED])
def test_a_forced_tool_choice_is_reset_to_auto_once_a_tool_ran(choice):
    """openai-agents-python `Agent.reset_tool_choice = True` (src/agents/agent.py; `maybe_reset_tool_choice` in
    run_internal/tool_execution.py: `tool_choice=None` once `has_used_tools`), as LangChain4j's AI services
    (PR #3903, issue #3481): a choice that forces a call was sent on every request, so a model that obeys it
    called a tool each round until `MaxRoundTripsError`, and never answered. It forces the first request; after
    a round that ran tools the loop sends "auto" (the trace records what was sent)."""
    model = ScriptedModel([call("query_order", orderId="SN1"), call("query_order", orderId="SN2"), "ok"])
    result = run_loop(model, Q, tools=[query_order], options=LoopOptions(tool_choice=choice))
    assert [r.tool_choice for r in model.requests] == [choice, "auto", "auto"]
    assert [r.tool_choice for r in result.rounds] == [choice, "auto", "auto"]


@pytest.mark.parametrize("with_memory", [False, True], ids=["list", "memory"])
def test_going_on_from_tool_results_is_not_forced_again(with_memory):
    """A call that goes on from a conversation ending in tool results (`toolkit.loop.resume`'s advice after
    a failed request) was forced again: the tools had run, only in an earlier call. quarkus-langchain4j
    resets the choice when the last message is a tool result (`AiServiceMethodImplementationSupport`)."""
    asked = call("query_order", orderId="SN1")
    so_far = [*Q, AssistantMessage(tool_calls=[asked]), ToolResultMessage(tool_call_id=asked.id, content="x")]
    memory = None
    if with_memory:
        memory = ChatMemory("u")
        for message in so_far:
            memory.add(message)
        so_far = []
    model = ScriptedModel(["ok"])
    run_loop(model, so_far, tools=[query_order], memory=memory, options=LoopOptions(tool_choice="required"))
    assert [r.tool_choice for r in model.requests] == ["auto"]


@pytest.mark.parametrize("choice", ["required", NAMED, "auto", "none"])
def test_reset_tool_choice_false_passes_the_choice_to_every_request(choice):
    model = ScriptedModel([call("query_order", orderId="SN1"), "ok"])
    run_loop(model, Q, tools=[query_order], options=LoopOptions(tool_choice=choice, reset_tool_choice=False))
    assert [r.tool_choice for r in model.requests] == [choice, choice]


@pytest.mark.parametrize("reset", [True, False])
def test_a_tool_choice_naming_a_tool_not_offered_is_a_configuration_error_before_anything_is_sent(reset):
    """Before: the request went out and came back as the gateway's 400 ("tool 'query_ordr' is not among the
    'tools' of this request"), a CallerError about the body, not the option that named the tool."""
    model = ScriptedModel(["ok"])
    typo = {"type": "function", "function": {"name": "query_ordr"}}
    with pytest.raises(ConfigurationError) as caught:
        run_loop(model, Q, tools=[query_order], options=LoopOptions(tool_choice=typo, reset_tool_choice=reset))
    assert str(caught.value) == (
        "run_loop: LoopOptions(tool_choice=...) names the tool 'query_ordr', which this request does not offer (it "
        "offers 'query_order'); name one of those, or pass tool_choice='required' to have the model pick one"
    )
    assert model.requests == []


def test_a_tool_choice_not_offered_lists_ten_of_the_tools_offered():
    many = [tool(name=f"t{i:02}")(lambda: "x") for i in range(12)]
    model = ScriptedModel(["ok"])
    named = {"type": "function", "function": {"name": "x" * 100}}
    with pytest.raises(ConfigurationError) as caught:
        run_loop(model, Q, tools=many, options=LoopOptions(tool_choice=named))
    shown = ", ".join(f"'t{i:02}'" for i in range(10))
    assert str(caught.value) == (
        f"run_loop: LoopOptions(tool_choice=...) names the tool '{'x' * 57}...', which this request does not offer "
        f"(it offers {shown} and 2 more); name one of those, or pass tool_choice='required' to have the model pick one"
    )


def test_reset_tool_choice_must_be_a_bool():
    with pytest.raises(ConfigurationError) as caught:
        LoopOptions(reset_tool_choice="no")
    assert str(caught.value) == "LoopOptions(reset_tool_choice='no'): it must be True or False; pass a bool"


def test_max_round_trips_raises_and_memory_stays_consistent():
    model = ScriptedModel([call("query_order", orderId="SN1")] * 4)
    memory = ChatMemory()
    with pytest.raises(MaxRoundTripsError, match="more than 3 round trips") as info:
        run_loop(model, Q, tools=[query_order], memory=memory, options=LoopOptions(max_round_trips=3))
    assert len(model.requests) == 4  # counts responses with tool calls, not tool calls
    assert info.value.loop_result.rounds[-1].decision == "limit of 3 tool round trips reached"
    assert consistent(memory.messages())
    assert memory.messages()[-1].content == "Not executed: the limit on tool round trips (3) was reached."


def test_round_trips_count_responses_not_calls():
    model = ScriptedModel([[call("query_order", orderId="SN1")] * 5, [call("query_order", orderId="SN2")] * 5, "ok"])
    result = run_loop(model, Q, tools=[query_order], options=LoopOptions(max_round_trips=2))
    assert result.round_trips == 2 and len(result.executions) == 10


def test_course_limit_is_five_model_requests_then_the_handover():
    """Seed 003 §4: `while (round < MAX_ROUNDS)`, MAX_ROUNDS = 5 — at most 5 model calls per
    question; the 5th reply's tools run (as the seed's loop body does), then the honest sentence.
    Before: 6 requests and 5 executions."""
    model = ScriptedModel([call("query_order", orderId=f"SN{i}") for i in range(6)])
    result = run_loop(model, Q, tools=[query_order], options=COURSE)
    assert (result.finish, result.answer, len(model.requests)) == ("handover", HANDOVER_ZH, 5)
    assert (result.model_requests, result.round_trips, len(result.executions)) == (5, 5, 5)
    assert result.rounds[-1].decision == "limit of 5 model requests reached"
    assert consistent(result.messages) and result.messages[-1].content == HANDOVER_ZH


def test_loop_options_keep_langchain4j_meaning_tool_round_trips():
    """LangChain4j's maxToolCallingRoundTrips counts tool-calling replies: with a limit of 2, the
    third tool-calling reply is not run (4 requests would be needed to see an answer)."""
    model = ScriptedModel([call("query_order", orderId=f"SN{i}") for i in range(3)])
    result = run_loop(model, Q, tools=[query_order], options=LoopOptions(max_round_trips=2, on_limit="handover"))
    assert (len(model.requests), len(result.executions), result.round_trips) == (3, 2, 3)
    assert LoopOptions().max_model_requests is None and LoopOptions().max_round_trips == 100


def test_course_sends_tool_choice_auto_explicitly():
    """Seed 003 §4: `.toolChoice(ToolChoice.AUTO)` on every request. Before: COURSE sent none."""
    model = ScriptedModel([call("query_order", orderId="SN1"), "ok"])
    result = run_loop(model, Q, tools=[query_order], options=COURSE)
    assert [r.tool_choice for r in model.requests] == ["auto", "auto"]
    assert [r.tool_choice for r in result.rounds] == ["auto", "auto"]


def test_tool_choice_is_not_sent_without_tools():
    model = ScriptedModel(["hi"])
    run_loop(model, Q, options=COURSE)
    assert model.requests[0].tool_choice is None


def test_hitting_a_limit_is_logged_with_the_memory_id(caplog):
    """Seed 004 §6.4: the round limit is logged, with the conversation's memory id."""
    model = ScriptedModel([call("query_order", orderId=f"SN{i}") for i in range(6)])
    with caplog.at_level("WARNING", logger="toolkit"):
        run_loop(model, Q, tools=[query_order], memory=ChatMemory("u42"), options=COURSE)
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        ("toolkit.loop", "memory id 'u42': the limit of 5 model requests was reached")
    ]
    caplog.clear()
    with caplog.at_level("WARNING", logger="toolkit"), pytest.raises(MaxRoundTripsError) as info:
        run_loop(
            ScriptedModel([call("query_order", orderId="SN1")] * 2),
            Q,
            tools=[query_order],
            memory=ChatMemory("u7"),
            options=LoopOptions(max_round_trips=1),
        )
    assert [r.getMessage() for r in caplog.records] == ["memory id 'u7': the limit of 1 tool round trip was reached"]
    assert str(info.value).startswith("the model asked for tools in more than 1 round trip; something is wrong")
    assert info.value.loop_result.rounds[-1].decision == "limit of 1 tool round trip reached"  # one, not "1 … trips"


def test_concurrent_results_keep_the_models_order():
    """Each call finishes only once the next one has (events, not sleeps of different lengths: on a
    loaded machine a thread can start a tenth of a second late and the sleeps end in any order)."""
    order, threads = [], set()
    finished = {f"r{i}": threading.Event() for i in range(3)}

    @tool("slow")
    def slow(after: str, label: str) -> str:
        threads.add(threading.get_ident())
        if after and not finished[after].wait(60):  # a hang guard: calls run one after the other
            return "never ran concurrently"
        order.append(label)
        finished[label].set()
        return label

    calls = [call("slow", after=f"r{i + 1}" if i < 2 else "", label=f"r{i}") for i in range(3)]
    result = run_loop(ScriptedModel([calls, "ok"]), Q, tools=[slow], options=LoopOptions(concurrent=True))
    assert order == ["r2", "r1", "r0"]  # finished in reverse ...
    assert [m.content for m in result.messages if isinstance(m, ToolResultMessage)] == ["r0", "r1", "r2"]
    assert len(threads) == 3


def test_a_single_call_never_spawns_a_worker():
    seen = []

    @tool("where")
    def where() -> str:
        seen.append(threading.current_thread() is threading.main_thread())
        return "here"

    run_loop(ScriptedModel([call("where"), "ok"]), Q, tools=[where], options=LoopOptions(concurrent=True))
    assert seen == [True]


def test_dynamic_provider_is_asked_every_round_and_only_adds():
    asked = []

    def offer(request):
        asked.append(len(request.messages))
        return tools_from(query_order) if len(asked) == 1 else tools_from(query_logistics)

    model = ScriptedModel([call("query_order", orderId="SN1"), call("query_logistics", orderId="SN1"), "ok"])
    run_loop(model, Q, providers=[StaticProvider(offer, dynamic=True)])
    assert model.requests[0].tools == ("query_order",)
    assert model.requests[1].tools == ("query_order", "query_logistics")
    assert model.requests[2].tools == ("query_order", "query_logistics")
    assert asked == [1, 3, 5]


def test_default_unknown_tool_raises_but_memory_stays_consistent():
    memory = ChatMemory()
    with pytest.raises(UnknownToolError):
        run_loop(ScriptedModel([call("refund_order", orderId="SN1")]), Q, tools=[query_order], memory=memory)
    assert consistent(memory.messages())
    assert memory.messages()[-1].content == "There is no tool named 'refund_order'. Available tools: query_order."
    assert memory.messages()[-1].is_error


def test_default_argument_error_fails_fast():
    with pytest.raises(ArgumentError):
        run_loop(ScriptedModel([call("query_order", "{orderId:")]), Q, tools=[query_order])


def test_execution_error_goes_back_sanitised_and_the_loop_continues():
    model = ScriptedModel([call("broken"), "抱歉，系统暂时不可用"])
    result = run_loop(model, Q, tools=[broken])
    error = result.messages[2]
    assert error.is_error and "hunter2" not in error.content and "Traceback" not in error.content
    assert result.answer == "抱歉，系统暂时不可用"


def test_course_repairs_arguments_once_with_the_seed_text():
    model = ScriptedModel([call("query_order", orderId=12), call("query_order", orderId="SN202610200001"), "ok"])
    result = run_loop(model, Q, tools=[query_order], options=COURSE)
    repair = result.messages[2]
    assert repair.is_error and repair.content == (
        "参数校验失败。字段=orderId，收到=12。期望：字符串。请修正参数后重新调用 query_order；"
        "如果无法得到合法参数，请直接告诉用户需要他提供什么，不要再调用工具。"
    )
    assert result.finish == "answer"


def test_course_second_argument_error_on_a_tool_hands_over():
    """Seed 003 §5: first error → fed back; second → no more feeding back, degrade ("需要人工确认")."""
    model = ScriptedModel([call("query_order", orderId=1), call("query_order", orderId=2), "never asked"])
    result = run_loop(model, Q, tools=[query_order], options=COURSE)
    assert result.finish == "handover" and len(model.requests) == 2 and consistent(result.messages)
    assert result.rounds[-1].decision == "hand over: argument error after 1 repair round(s) (query_order)"
    assert result.answer == REPAIR_HANDOVER_ZH and "需要人工确认" in result.answer
    assert REPAIR_HANDOVER_ZH != HANDOVER_ZH  # the round-limit hand-over says something else


def test_course_repair_is_one_round_per_tool_so_another_tools_first_mistake_is_fed_back():
    """SPEC §5: "a second failure on the same call degrades"; seed 003 §5: "在同一个参数上错两次".
    A model that fixed one tool's arguments gets its repair for another tool's first mistake."""
    model = ScriptedModel(
        [
            call("query_order", orderId=1),
            call("query_order", orderId="SN202610200001"),
            call("count", n="x"),
            call("count", n=3),
            "ok",
        ]
    )
    result = run_loop(model, Q, tools=[query_order, count_tool()], options=COURSE)
    assert (result.finish, result.answer, len(model.requests)) == ("answer", "ok", 5)
    assert [e.error_kind for e in result.executions] == ["argument", None, "argument", None]


def test_course_repair_budget_is_spent_per_tool_then_hands_over_naming_it():
    model = ScriptedModel(
        [
            [call("query_order", orderId=1), call("count", n="x")],
            [call("query_order", orderId="SN202610200001"), call("count", n="y")],
            "never",
        ]
    )
    result = run_loop(model, Q, tools=[query_order, count_tool()], options=COURSE)
    assert (result.finish, result.answer, len(model.requests)) == ("handover", REPAIR_HANDOVER_ZH, 2)
    assert result.rounds[-1].decision == "hand over: argument error after 1 repair round(s) (count)"
    assert consistent(result.messages)


def test_two_argument_errors_on_one_tool_in_one_round_are_one_repair_round():
    """The final rule under COURSE: the repair budget counts rounds, so two bad calls of one tool
    in the same round are both fed back together; the next bad round hands over."""
    model = ScriptedModel(
        [
            [call("query_order", orderId=1), call("query_order", orderId=2)],
            call("query_order", orderId="SN202610200001"),
            "已发货",
        ]
    )
    result = run_loop(model, Q, tools=[query_order], options=COURSE)
    assert (result.finish, result.answer, len(model.requests)) == ("answer", "已发货", 3)
    assert [e.error_kind for e in result.rounds[0].executions] == ["argument", "argument"]
    model = ScriptedModel(
        [[call("query_order", orderId=1), call("query_order", orderId=2)], call("query_order", orderId=3)]
    )
    result = run_loop(model, Q, tools=[query_order], options=COURSE)
    assert (result.finish, result.answer, len(model.requests)) == ("handover", REPAIR_HANDOVER_ZH, 2)


def count_tool(runs=None):
    @tool("count")
    def count(n: int) -> str:
        if runs is not None:
            runs.append(n)
        return str(n)

    return count


def test_loop_guard_answers_a_repeated_call_without_running_it():
    runs = []

    @tool("count")
    def count(n: int) -> str:
        runs.append(n)
        return str(n)

    model = ScriptedModel([call("count", n=1), call("count", '{"n": 1}'), call("count", n=2), "ok"])
    result = run_loop(model, Q, tools=[count], options=LoopOptions(loop_guard=True))
    assert runs == [1, 2]
    assert result.executions[1].error_kind == "guard"
    assert result.executions[1].result.content == GUARD_TEXT.format(tool="count")


def test_loop_guard_lets_the_model_retry_a_call_whose_tool_reported_a_failure():
    runs = []

    @tool("book")
    def book(n: int) -> ToolOutput:
        runs.append(n)
        return ToolOutput("busy, try again", is_error=len(runs) == 1)

    model = ScriptedModel([call("book", n=1), call("book", n=1), "ok"])
    result = run_loop(model, Q, tools=[book], options=LoopOptions(loop_guard=True))
    assert runs == [1, 1] and [e.error_kind for e in result.executions] == [None, None]


def test_loop_guard_is_off_by_default():
    runs = []

    @tool("count")
    def count(n: int) -> str:
        runs.append(n)
        return str(n)

    run_loop(ScriptedModel([call("count", n=1), call("count", n=1), "ok"]), Q, tools=[count])
    assert runs == [1, 1]


def _numbered_tool(i, behavior):
    def fn(fail: bool = False) -> str:
        if fail:
            raise ValueError("failed on purpose")
        return f"result {i}"

    return tool(f"tool {i}", name=f"t{i}", return_behavior=behavior)(fn)


@pytest.mark.parametrize("behaviors, expected", list(EXPECTED.items()), ids=str)
@pytest.mark.parametrize("with_error", [False, True])
def test_truth_table_through_the_loop(behaviors, expected, with_error):
    tools = [_numbered_tool(i, behavior) for i, behavior in enumerate(behaviors)]
    calls = [call(f"t{i}", fail=(with_error and i == 0)) for i in range(len(behaviors))]
    result = run_loop(ScriptedModel([calls, "answer"]), Q, tools=tools)
    returned = expected and not with_error
    assert result.finish == ("immediate" if returned else "answer")
    if returned:
        assert result.answer is None
        assert [r.content for r in result.immediate_results] == [f"result {i}" for i in range(len(behaviors))]
        assert result.messages[-1] == result.immediate_results[-1]


def test_duplicate_names_across_sources_are_a_configuration_error():
    from toolkit.errors import ConfigurationError

    @tool("查询订单状态 v2", name="query_order")
    def query_order_v2(order_id: Annotated[str, Param("订单号", name="orderId")]) -> str:
        return ""

    with pytest.raises(ConfigurationError, match="tool name 'query_order' is defined twice"):
        build_context([query_order], providers=[StaticProvider(tools_from(query_order_v2))])
    with pytest.raises(ConfigurationError, match=r"tool 'query_order' \(@tool .*query_order\) is given twice"):
        build_context([query_order], providers=[StaticProvider(tools_from(query_order))])


CHAOS = [
    call("no_such_tool", x=1),  # hallucinated name
    call("query_order", "{orderId: SN1"),  # invalid JSON
    [call("query_order", orderId="SN1"), call("ghost")],
    call("query_logistics", orderId="SN1", refundAmount=2999),  # intent drift
] + [call("query_order", orderId=f"SN{i}") for i in range(50)]  # endless


@pytest.mark.parametrize(
    "options", [COURSE, LoopOptions(max_round_trips=7, policies=FEED_BACK_ALL, on_limit="handover", concurrent=True)]
)
def test_chaos_model_ends_within_bound_with_consistent_memory(options):
    memory = ChatMemory("chaos", window=MessageWindow(40))
    model = ScriptedModel(list(CHAOS))
    result = run_loop(model, Q, tools=[query_order, query_logistics], memory=memory, options=options)
    assert result.finish == "handover"
    assert len(model.requests) <= (options.max_model_requests or options.max_round_trips + 1)
    assert consistent(memory.messages())


def test_loop_guard_compares_with_every_earlier_call_and_hands_over():
    """Row 48 (loop guard): the pattern A, A, A, A used to run the tool in rounds 1 and 3 (it
    compared only with the round before) and never escalated."""
    runs = []
    model = ScriptedModel([call("count", n=1)] * 4 + ["never asked"])
    result = run_loop(model, Q, tools=[count_tool(runs)], options=LoopOptions(loop_guard=True))
    assert runs == [1]
    assert [e.error_kind for e in result.executions] == [None, "guard", "guard"]
    assert (result.finish, result.answer, len(model.requests)) == ("handover", EN.guard_handover, 3)
    assert result.rounds[-1].decision == "hand over: the model repeated guarded calls in 2 rounds"
    assert consistent(result.messages)


def test_a_guard_hand_over_after_one_round_says_one_round():
    runs = []
    model = ScriptedModel([call("count", n=1)] * 2 + ["never asked"])
    options = LoopOptions(loop_guard=True, guard_handover_after=1)
    result = run_loop(model, Q, tools=[count_tool(runs)], options=options)
    assert (result.finish, runs) == ("handover", [1])
    assert result.rounds[-1].decision == "hand over: the model repeated guarded calls in 1 round"


def test_loop_guard_without_a_handover_keeps_answering():
    runs = []
    model = ScriptedModel([call("count", n=1), call("count", n=2), call("count", n=1), "ok"])
    options = LoopOptions(loop_guard=True, guard_handover_after=None)
    result = run_loop(model, Q, tools=[count_tool(runs)], options=options)
    assert runs == [1, 2] and result.answer == "ok"


def test_a_rolled_back_or_failed_call_is_not_guarded():
    runs = []

    @tool("flaky")
    def flaky(n: int) -> str:
        runs.append(n)
        if len(runs) == 1:
            raise RuntimeError("try again")
        return "ok"

    model = ScriptedModel([call("flaky", n=1), call("flaky", n=1), "done"])
    run_loop(model, Q, tools=[flaky], options=LoopOptions(loop_guard=True))
    assert runs == [1, 1]  # the first failed, so the retry runs


def test_loop_guard_survives_deeply_nested_arguments():
    """Issue 14 §3: `"[" * 1000 + "]" * 1000` made the guard's JSON comparison raise RecursionError."""
    deep = "[" * 1000 + "]" * 1000
    model = ScriptedModel([call("count", n=1), call("count", deep), "ok"])
    result = run_loop(model, Q, tools=[count_tool()], options=LoopOptions(loop_guard=True, policies=FEED_BACK_ALL))
    assert result.answer == "ok" and result.executions[1].error_kind not in (None, "guard")


def test_under_course_every_loop_text_the_model_reads_is_chinese():
    """Every model-facing text of the loop under COURSE is Chinese: unknown tool, repair (with
    its "期望" in Chinese), guard, and the three hand-overs. Before: English guard and
    unknown-tool texts, and "期望：a string"."""
    model = ScriptedModel(
        [call("ghost", n=1), call("count", n="x"), call("count", n=1), call("count", n=1), call("count", n=1)]
    )
    result = run_loop(model, Q, tools=[count_tool()], options=COURSE)
    texts = [e.result.content for e in result.executions]
    assert texts == [
        "没有名为 ghost 的工具。可用的工具：count。请只调用这些工具。",
        '参数校验失败。字段=n，收到="x"。期望：整数。请修正参数后重新调用 count；'
        "如果无法得到合法参数，请直接告诉用户需要他提供什么，不要再调用工具。",
        "1",
        ZH.guard.format(tool="count"),
        ZH.guard.format(tool="count"),
    ]
    assert result.answer == ZH.guard_handover
    others = [ZH.not_run.format(tool="a", error="E"), ZH.rolled_back.format(tool="a", failed="b")]
    others += [ZH.not_run_limit.format(limit=5), ZH.interrupted.format(error="E")]
    for text in [*texts[:2], texts[3], HANDOVER_ZH, REPAIR_HANDOVER_ZH, ZH.guard_handover, *others]:
        assert any("\u4e00" <= ch <= "\u9fff" for ch in text)
        assert not re.search(r"\b(the|was|call|tool|not)\b", text, re.I), text


@pytest.mark.parametrize(
    "options, text",
    [
        (LoopOptions(policies=FEED_BACK_ALL), "There is no tool named '{cut}'. Available tools: query_order."),
        (COURSE, "没有名为 {cut} 的工具。可用的工具：query_order。请只调用这些工具。"),
    ],
)
def test_a_huge_unknown_tool_name_is_cut_in_the_text_the_model_reads(options, text):
    name = "query_order " * 100_000  # a model stuck repeating itself
    result = run_loop(ScriptedModel([[call(name, "{}")], "ok"]), Q, tools=[query_order], options=options)
    cut = name[:61] + "..."
    assert result.new_messages[1].content == text.format(cut=cut)
    assert result.new_messages[0].tool_calls[0].name == name  # the call itself is kept as the model wrote it


def test_a_huge_unknown_tool_name_that_stops_the_turn_is_cut_in_the_not_run_text():
    name = "x" * 1_000_000
    memory = ChatMemory()
    with pytest.raises(UnknownToolError) as info:
        run_loop(
            ScriptedModel([[call(name, "{}"), call("query_order", orderId="SN1")]]),
            Q,
            tools=[query_order],
            memory=memory,
        )
    assert info.value.tool_name == name and len(str(info.value)) < 200
    assert memory.messages()[-1].content == (
        f"Not run: another call of this round ({'x' * 61}...) stopped the turn with UnknownToolError."
    )


@pytest.mark.parametrize("concurrent", [False, True])
def test_run_loop_records_what_iter_loop_records(concurrent: bool) -> None:
    """`run_loop` makes no `ToolStarted` / `ToolFinished` (it would drop them); the turn it records
    is the one `iter_loop` records, event by event: calls, results, decisions, new messages."""
    from toolkit.loop.run import ToolFinished, ToolStarted, iter_loop

    @tool("Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    def script() -> ScriptedModel:
        calls = [call("add", a=1, b=2, id="c1"), call("add", a="x", b=2, id="c2"), call("sub", a=1, id="c3")]
        return ScriptedModel([calls, call("add", a=3, b=4, id="c4"), "10"])

    options = LoopOptions(concurrent=concurrent, policies=FEED_BACK_ALL)
    question = [UserMessage(content="what is 1+2+3+4?")]
    ran = run_loop(script(), question, tools=[add], memory=ChatMemory("a"), options=options)
    events = iter_loop(script(), question, tools=[add], memory=ChatMemory("b"), options=options)
    seen = []
    while True:
        try:
            seen.append(next(events))
        except StopIteration as done:
            iterated = done.value
            break

    def shown(result: object) -> list:
        return [
            (r.index, r.decision, [(e.call.id, e.result.content, e.error_kind) for e in r.executions])
            for r in result.rounds  # type: ignore[attr-defined]
        ]

    assert shown(ran) == shown(iterated)
    assert ran.new_messages == iterated.new_messages and ran.answer == iterated.answer == "10"
    first = [ToolStarted] * 3 + [ToolFinished] * 3 if concurrent else [ToolStarted, ToolFinished] * 3
    assert [type(e) for e in seen] == first + [ToolStarted, ToolFinished]


def test_a_turn_without_memory_is_named_so_in_its_log_lines(caplog):
    """A limit reached by a turn without memory was logged as `memory id None: …`."""
    with caplog.at_level("WARNING", logger="toolkit"), pytest.raises(MaxRoundTripsError):
        run_loop(
            ScriptedModel([call("query_order", orderId="SN1")] * 2),
            Q,
            tools=[query_order],
            options=LoopOptions(max_round_trips=1),
        )
    assert [r.getMessage() for r in caplog.records] == [
        "a turn without memory: the limit of 1 tool round trip was reached"
    ]


# --- a learner's own chat model that breaks the model's contract -----------------------------------


class _Own:
    """A learner's chat model wrapping a scripted one; `stream` / `chat` as each test gives them."""

    def __init__(self, stream=None, chat=None):
        self.inner, self._stream, self._chat = ScriptedModel(["hello there"] * 3), stream, chat

    def chat(self, messages, **kwargs):
        return self._chat(self.inner, messages, **kwargs) if self._chat else self.inner.chat(messages, **kwargs)

    def stream(self, messages, **kwargs):
        return self._stream(self.inner, messages, **kwargs)

    def describe(self):
        return "mine"


def _without_done(inner, messages, **kwargs):
    from toolkit.chat.sse import StreamDone

    return (e for e in inner.stream(messages, **kwargs) if not isinstance(e, StreamDone))


def _done_with_a_dict(inner, messages, **kwargs):
    from toolkit.chat.sse import StreamDone

    return iter([StreamDone({"content": "hi"})])


def _response_events(inner, messages, **kwargs):
    from toolkit.chat.sse import TextDelta

    return iter([TextDelta("hello there"), inner.chat(messages, **kwargs)])


STREAM_RULE = "a chat model's stream() yields TextDelta / ToolCallDelta events, then StreamDone(ChatResponse(...))"


@pytest.mark.parametrize(
    "stream, said",
    [
        (_without_done, "ended without StreamDone"),
        (lambda inner, messages, **kwargs: inner.chat(messages, **kwargs), "returned a ChatResponse"),
        (lambda inner, messages, **kwargs: None, "returned None"),
        (_done_with_a_dict, "ended with StreamDone(a dict)"),
        (_response_events, "ended without StreamDone"),
    ],
    ids=["no StreamDone", "a response, not a stream", "None", "StreamDone of a dict", "a response as an event"],
)
def test_a_models_stream_that_breaks_the_contract_is_named_with_the_rule(stream, said):
    """Was a BadResponseError whose hint sent the learner to LLM_BASE_URL ("the stream ended
    without a final response"), or a raw AttributeError / TypeError from inside the loop."""
    from toolkit.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as caught:
        run_loop(_Own(stream=stream), "hi", options=LoopOptions(stream=True))
    assert str(caught.value) == f"run_loop: the model (_Own).stream() {said}; {STREAM_RULE}"


@pytest.mark.parametrize("returned, said", [({"content": "hi"}, "a dict"), (None, "None")])
def test_a_models_chat_that_returns_no_response_is_named_with_the_rule(returned, said):
    from toolkit.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as caught:
        run_loop(_Own(chat=lambda inner, messages, **kwargs: returned), "hi")
    assert (
        str(caught.value)
        == f"run_loop: the model (_Own).chat() returned {said}; a chat model's chat() returns a ChatResponse"
    )


def test_a_model_that_keeps_the_contract_streams_as_before():
    result = run_loop(
        _Own(stream=lambda inner, messages, **kwargs: inner.stream(messages, **kwargs)),
        "hi",
        options=LoopOptions(stream=True),
    )
    assert result.answer == "hello there"


def test_a_stand_in_response_whose_message_is_an_assistant_message_still_goes():
    """A learner's test double (`SimpleNamespace(message=..., usage=..., finish_reason=...)`) worked
    before the loop checked what chat() returns: it still does."""
    from types import SimpleNamespace

    from toolkit.chat.messages import TokenUsage

    reply = SimpleNamespace(message=AssistantMessage(content="hi"), usage=TokenUsage(), finish_reason="stop")
    assert run_loop(_Own(chat=lambda inner, messages, **kwargs: reply), "q").answer == "hi"


@pytest.mark.parametrize(
    "fields",
    [{}, {"usage": None, "finish_reason": None}],
    ids=["no usage, no finish_reason", "both None"],
)
def test_a_stand_in_response_without_usage_goes_with_its_tokens_not_reported(fields):
    """A stand-in with only its message (the loop said it reads no more than that, its usage and its
    finish reason) stopped the turn with a raw AttributeError ('… has no attribute usage'), or, with
    `usage=None`, after the answer was stored ('NoneType' object has no attribute 'input_tokens')."""
    from types import SimpleNamespace

    reply = SimpleNamespace(message=AssistantMessage(content="hi"), **fields)
    result = run_loop(_Own(chat=lambda inner, messages, **kwargs: reply), "q")
    assert (result.answer, result.usage.input_tokens, result.rounds[0].finish_reason) == ("hi", None, None)


@pytest.mark.parametrize(
    "fields, said",
    [
        ({"usage": {"prompt_tokens": 3}}, "whose usage is a dict, not a TokenUsage"),
        ({"finish_reason": 1}, "whose finish_reason is an int, not a str"),
    ],
)
def test_a_stand_in_response_whose_usage_is_of_another_kind_is_named_with_the_rule(fields, said):
    from types import SimpleNamespace

    from toolkit.errors import ConfigurationError

    reply = SimpleNamespace(message=AssistantMessage(content="hi"), **fields)
    with pytest.raises(ConfigurationError) as caught:
        run_loop(_Own(chat=lambda inner, messages, **kwargs: reply), "q")
    assert str(caught.value) == (
        f"run_loop: the model (_Own).chat() returned a response {said}; a chat model's chat() returns a ChatResponse"
    )


def test_a_stand_in_response_refused_is_placed_at_its_request():
    from types import SimpleNamespace

    from toolkit.errors import ConfigurationError

    reply = SimpleNamespace(message=AssistantMessage(content="hi"), usage={"prompt_tokens": 3})
    with pytest.raises(ConfigurationError) as caught:
        run_loop(_Own(chat=lambda inner, messages, **kwargs: reply), "q")
    assert caught.value.loop_result.stopped_at == "model request 1 (no reply recorded)"


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("extra", [{}, {"seed": 7, "temperature": 0.0}])
def test_the_model_is_asked_with_the_tools_the_choice_and_the_extra_fields_and_nothing_else(extra, stream):
    """A request without `request_extra` passes its keywords as they are (no dict made for them);
    with it, the same keywords and its fields: the model sees the same request either way."""

    @tool("Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    seen: list[dict] = []

    class Recording(ScriptedModel):
        def chat(self, messages, **kwargs):
            seen.append(dict(kwargs))
            return super().chat(messages, **kwargs)

    model = Recording([call("add", a=1, b=2), "3"])
    options = LoopOptions(request_extra=extra, tool_choice="auto", stream=stream)
    result = run_loop(model, "1+2?", tools=[add], options=options)
    assert result.answer == "3"
    assert [sorted(k) for k in seen] == [sorted(["tools", "tool_choice", *extra])] * 2
    assert all(k["tool_choice"] == "auto" and [t["function"]["name"] for t in k["tools"]] == ["add"] for k in seen)
    assert all({key: k[key] for key in extra} == extra for k in seen)
    assert [r.tool_choice for r in result.rounds] == ["auto", "auto"]
    assert [r.extra for r in model.requests] == [extra, extra]
