"""The trace view and the saga log: structure, exact text, escaping, determinism, widgets."""

import itertools
import re

import pytest
from html_tree import Tree

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call, reset_call_ids
from toolkit.errors import ConfigurationError
from toolkit.loop.run import COURSE, HANDOVER_ZH, LoopOptions, run_loop
from toolkit.loop.saga import ToolExecution, compensates, rolled_back_text
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import ReturnBehavior, tool
from toolkit.tools.execute import FEED_BACK_ALL
from toolkit.views.trace import (
    SagaView,
    TraceView,
    decision_kind,
    render_saga_html,
    render_saga_text,
    render_trace_html,
    render_trace_text,
    rewritten_results,
)

Q = [UserMessage(content="查一下 SN202610200001 <b>")]


@tool("查询订单状态")
def query_order(order_id: str) -> str:
    return f"订单 {order_id}：已发货 <script>x</script>"


@tool("总是失败")
def broken() -> str:
    raise RuntimeError("database down")


@tool("生成发票", return_behavior=ReturnBehavior.IMMEDIATE)
def make_invoice(order_id: str) -> str:
    return f"INV-{order_id}"


def ticking(step=0.25):
    """A fake clock: every reading is `step` seconds after the previous one."""
    counter = itertools.count()
    return lambda: next(counter) * step


def three_channel_run(**options):
    """Round 1: a good call and a failing tool; round 2: a hallucinated name and bad arguments."""
    reset_call_ids()
    script = [
        [call("query_order", order_id="SN1"), call("broken")],
        [call("refund_order", order_id="SN1"), call("query_order", order_id=7)],
        "抱歉，系统暂时不可用",
    ]
    opts = LoopOptions(policies=FEED_BACK_ALL, clock=ticking(), **options)
    return run_loop(ScriptedModel(script), Q, tools=[query_order, broken], options=opts)


def rounds(html):
    tree = Tree(html)
    cards = tree.find_all("tk-card")
    nested = {id(c) for outer in cards for c in outer.find_all("tk-card")}
    return tree, [c for c in cards if id(c) not in nested]


def title(node):
    return node.find_all("tk-title")[0].text()


def test_one_card_per_round_then_a_summary():
    tree, top = rounds(render_trace_html(three_channel_run()))
    assert [title(c) for c in top] == ["round 1 continue", "round 2 continue", "round 3 answer", "summary"]
    assert tree.find_all("tk-heading")[0].text() == "Loop trace"


def test_each_execution_names_its_channel():
    tree, top = rounds(render_trace_html(three_channel_run()))
    executions = [title(c) for c in top[0].find_all("tk-card") + top[1].find_all("tk-card")]
    assert executions == [
        "query_order ok",
        "broken execution error",
        "refund_order unknown tool",
        "query_order argument error",
    ]
    errors = [title(c) for r in top for c in r.find_all("tk-card") if "tk-error" in c.classes]
    assert errors == ["broken execution error", "refund_order unknown tool", "query_order argument error"]


def test_round_facts_are_tools_choice_and_tokens():
    result = three_channel_run(tool_choice="auto")
    _, top = rounds(render_trace_html(result))
    cells = [n.text() for n in top[0].find_all("tk-table")[0].find_all("tk-th")]
    values = [n.text() for n in top[0].find_all("tk-table")[0].find_all("tk-td")]
    usage = result.rounds[0].usage
    assert cells == ["tools sent", "tool_choice", "tokens"]
    assert values == [
        f"query_order, broken (≈ {result.rounds[0].tools_tokens} tokens)",
        "auto",
        f"input {usage.input_tokens} · output {usage.output_tokens} · total {usage.total_tokens}",
    ]


def test_exact_text_trace():
    result = three_channel_run()
    u = [r.usage for r in result.rounds]
    t = result.rounds[0].tools_tokens
    total = result.usage
    sent = f"tools sent: query_order, broken (≈ {t} tokens) · tool_choice: not set (the gateway's default: auto)"
    assert render_trace_text(result).split("\n") == [
        f"round 1 · {sent}",
        '  model → query_order({"order_id": "SN1"})',
        "  model → broken({})",
        "  query_order [ok]: 订单 SN1：已发货 <script>x</script>",
        "  broken [execution error]: Tool 'broken' failed: RuntimeError: database down",
        f"  tokens: input {u[0].input_tokens} · output {u[0].output_tokens} · total {u[0].total_tokens}",
        "  decision: continue",
        f"round 2 · {sent}",
        '  model → refund_order({"order_id": "SN1"})',
        '  model → query_order({"order_id": 7})',
        "  refund_order [unknown tool]: " + result.rounds[1].executions[0].result.content,
        "  query_order [argument error]: " + " ".join(result.rounds[1].executions[1].result.content.split()),
        f"  tokens: input {u[1].input_tokens} · output {u[1].output_tokens} · total {u[1].total_tokens}",
        "  decision: continue",
        f"round 3 · {sent}",
        "  model: 抱歉，系统暂时不可用",
        f"  tokens: input {u[2].input_tokens} · output {u[2].output_tokens} · total {u[2].total_tokens}",
        "  decision: answer",
        f"finish: answer · 3 model requests, 2 tool round trips · tokens: input {total.input_tokens} · output {total.output_tokens} · "
        f"total {total.total_tokens}",
        "answer: 抱歉，系统暂时不可用",
    ]


def test_timing_only_when_asked_and_from_the_injected_clock():
    result = three_channel_run()
    assert " s)" not in render_trace_text(result) and "0.25 s" not in render_trace_html(result)
    timed = render_trace_text(result, show_timing=True)
    assert timed.count("(0.25 s)") == 4
    badges = [b.text() for b in Tree(render_trace_html(result, show_timing=True)).find_all("tk-badge")]
    assert badges.count("0.25 s") == 4


def test_text_is_escaped_in_html():
    out = render_trace_html(three_channel_run())
    assert "<script>" not in out and "&lt;script&gt;x&lt;/script&gt;" in out
    assert "订单 SN1：已发货" in out and "\\u" not in out


def test_render_is_deterministic_without_ids_or_addresses():
    first, second = three_channel_run(), three_channel_run()
    for render in (render_trace_html, render_trace_text):
        assert render(first) == render(second)
        assert not re.search(r"0x[0-9a-f]{6,}|call_\d|[0-9a-f]{32}", render(first))


def test_immediate_return_shows_what_the_caller_receives():
    reset_call_ids()
    result = run_loop(ScriptedModel([call("make_invoice", order_id="SN1")]), Q, tools=[make_invoice])
    _, top = rounds(render_trace_html(result))
    assert title(top[0]) == "round 1 return immediately"
    keys, values = top[-1].find_all("tk-th"), top[-1].find_all("tk-td")
    summary = {k.text(): v.text() for k, v in zip(keys, values)}
    assert summary["finish"] == "immediate" and summary["the caller receives"] == "make_invoice: INV-SN1"
    assert "answer" not in summary
    assert render_trace_text(result).split("\n")[-2:] == [
        f"finish: immediate · 1 model request, 1 tool round trip · tokens: input {result.usage.input_tokens} · "
        f"output {result.usage.output_tokens} · total {result.usage.total_tokens}",
        "caller receives: make_invoice: INV-SN1",
    ]


def test_course_limit_round_shows_the_model_request_limit_and_the_handover():
    reset_call_ids()
    result = run_loop(
        ScriptedModel([call("query_order", order_id=f"SN{i}") for i in range(6)]),
        Q,
        tools=[query_order],
        options=COURSE,
    )
    _, top = rounds(render_trace_html(result))
    assert [title(c) for c in top][-2:] == ["round 5 limit of 5 model requests reached", "summary"]
    assert "tk-warn" in top[-2].find_all("tk-badge")[0].classes
    assert render_trace_text(result).endswith(f"answer: {HANDOVER_ZH}")


def test_round_trip_limit_round_shows_calls_not_run_and_the_handover():
    reset_call_ids()
    result = run_loop(
        ScriptedModel([call("query_order", order_id=f"SN{i}") for i in range(6)]),
        Q,
        tools=[query_order],
        options=LoopOptions(max_round_trips=5, on_limit="handover"),
    )
    _, top = rounds(render_trace_html(result))
    assert [title(c) for c in top][-2:] == ["round 6 limit of 5 tool round trips reached", "summary"]
    assert [title(c) for c in top[-2].find_all("tk-card")] == ["model asked for tools"]
    assert top[-2].find_all("tk-card")[0].text().endswith("query_order — not run")
    assert "tk-warn" in top[-2].find_all("tk-badge")[0].classes
    text = render_trace_text(result)
    assert text.endswith(f"answer: {HANDOVER_ZH}")
    # the text says so too: the call over the bound was never run (it used to show only the model's request)
    assert text.split("round 6 ")[1].splitlines()[1:4] == [
        '  model → query_order({"order_id": "SN5"})',
        "  query_order — not run",
        "  tokens: input 419 · output 8 · total 427",
    ]


@pytest.mark.parametrize(
    "decision, kind",
    [
        ("answer", "ok"),
        ("continue", "info"),
        ("return immediately", "tool"),
        ("hand over: second argument error on q", "warn"),
        ("limit of 5 model requests reached", "warn"),
        ("stopped: UnknownToolError", "error"),
    ],
)
def test_decision_colours(decision, kind):
    assert decision_kind(decision) == kind


def test_trace_widget_bundle():
    result = three_channel_run()
    view = TraceView(result, show_timing=True)
    bundle = view._repr_mimebundle_()
    assert bundle["text/html"] == render_trace_html(result, show_timing=True) == view.value
    assert bundle["text/plain"] == render_trace_text(result, show_timing=True)
    model_id = bundle["application/vnd.jupyter.widget-view+json"]["model_id"]
    for text in (bundle["text/html"], bundle["text/plain"]):
        assert model_id not in text and not re.search(r"0x[0-9a-f]{6,}", text)
    view.update(result)
    assert "0.25 s" not in view._repr_mimebundle_()["text/plain"]


# --- the saga log -------------------------------------------------------------------------

STOCK = {"PH-001": 5}


@tool("扣减库存")
def reserve_stock(sku: str, qty: int) -> str:
    STOCK[sku] -= qty
    return f"reserved {qty} × {sku}"


@tool("扣款")
def charge_payment(order_id: str, amount: int) -> str:
    return f"charged {amount}"


@tool("发货")
def create_shipment(order_id: str) -> str:
    raise RuntimeError("carrier down")


@compensates("reserve_stock")
def release_stock(sku: str, qty: int) -> None:
    STOCK[sku] += qty


@compensates("charge_payment")
def refund_payment(execution: ToolExecution) -> None:
    raise RuntimeError("bank <offline>")


def saga_run(compensate=True):
    reset_call_ids()
    STOCK["PH-001"] = 5
    script = [
        call("reserve_stock", sku="PH-001", qty=2),
        [call("charge_payment", order_id="SN1", amount=99), call("create_shipment", order_id="SN1")],
        "发货失败，已撤销",
    ]
    options = LoopOptions(compensate=compensate, compensations=(release_stock, refund_payment))
    return run_loop(
        ScriptedModel(script),
        Q,
        tools=[reserve_stock, charge_payment, create_shipment],
        memory=ChatMemory(),
        options=options,
    )


def test_saga_log_lists_compensations_newest_first_with_failures_reported():
    result = saga_run()
    tree = Tree(render_saga_html(result))
    rows = [[td.text() for td in tr.find_all("tk-td")] for tr in tree.find_all("tk-tr")[1:]]
    assert rows == [
        [
            "1",
            "charge_payment",
            f"@compensates('charge_payment') {__name__}.refund_payment",
            "failed",
            "compensation failed: RuntimeError: bank <offline>",
        ],
        ["2", "reserve_stock", f"@compensates('reserve_stock') {__name__}.release_stock", "ok", "rolled back"],
    ]
    assert "bank &lt;offline&gt;" in render_saga_html(result)
    assert STOCK["PH-001"] == 5
    assert render_saga_text(result) == (
        "1. charge_payment: FAILED — compensation failed: RuntimeError: bank <offline>\n2. reserve_stock: ok — rolled back"
    )


def test_saga_shows_the_history_rewrite():
    before, result = saga_run(compensate=False).messages, saga_run()
    changed = rewritten_results(before, result.messages)
    assert [(t, b.content, a.content, a.is_error) for t, b, a in changed] == [
        ("reserve_stock", "reserved 2 × PH-001", rolled_back_text("reserve_stock", "create_shipment"), True)
    ]
    tree = Tree(render_saga_html(result, before))
    (rewrite,) = [c for c in tree.find_all("tk-card") if title(c) == "history rewrite"]
    assert [n.text() for n in rewrite.find_all("tk-th")] == ["tool", "before the rewrite", "after the rewrite"]
    assert rewrite.find_all("tk-td")[2].text() == rolled_back_text("reserve_stock", "create_shipment") + "is_error"
    assert render_saga_text(result, before).split("\n")[2] == (
        "rewritten reserve_stock: reserved 2 × PH-001 → " + rolled_back_text("reserve_stock", "create_shipment")
    )


def test_the_history_rewrite_pairs_results_of_a_reused_call_id_in_order():
    """A model that reuses one call id every round: each result was compared with the *last* result
    of that id, so the rolled-back reservation read as rewritten from "ship failed"."""
    from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage

    def turn(reserve_text: str) -> list:
        def ask(name: str) -> AssistantMessage:
            return AssistantMessage(content=None, tool_calls=(ToolCall(id="c1", name=name, arguments="{}"),))

        return [
            UserMessage(content="order"),
            ask("reserve"),
            ToolResultMessage(tool_call_id="c1", tool_name="reserve", content=reserve_text, is_error=True),
            ask("ship"),
            ToolResultMessage(tool_call_id="c1", tool_name="ship", content="ship failed", is_error=True),
        ]

    before, after = turn("reserved"), turn(rolled_back_text("reserve", "ship"))
    before[2] = ToolResultMessage(tool_call_id="c1", tool_name="reserve", content="reserved")
    changed = rewritten_results(before, after)
    assert [(t, b.content, a.content) for t, b, a in changed] == [
        ("reserve", "reserved", rolled_back_text("reserve", "ship"))
    ]


def test_no_saga():
    result = three_channel_run()
    assert "no compensation ran" in render_saga_html(result)
    assert "no tool result changed" in render_saga_html(result, result.messages)
    assert render_saga_text(result) == "no compensation ran"


def test_saga_widget_bundle():
    before, result = saga_run(compensate=False).messages, saga_run()
    bundle = SagaView(result, before)._repr_mimebundle_()
    assert bundle["text/html"] == render_saga_html(result, before)
    assert bundle["text/plain"] == render_saga_text(result, before)


def test_the_summary_names_both_counts_and_never_calls_requests_round_trips():
    """Week 3 says "2 model calls" for one tool question; the trace says the same: 2 model
    requests, 1 tool round trip. Before: "round trips: 1 (model requests: 2)" and "1 round trip"."""
    reset_call_ids()
    result = run_loop(ScriptedModel([call("query_order", order_id="SN1"), "ok"]), Q, tools=[query_order])
    text = render_trace_text(result)
    assert "· 2 model requests, 1 tool round trip ·" in text
    html = str(render_trace_html(result))
    assert "model requests" in html and "tool round trips" in html and ">round trips<" not in html


def test_a_renamed_tool_call_id_is_noted_in_the_trace():
    from toolkit.chat.messages import AssistantMessage

    reply = AssistantMessage(
        tool_calls=(call("query_order", order_id="A", id="c1"), call("query_order", order_id="B", id="c1"))
    )
    result = run_loop(ScriptedModel([reply, "ok"]), Q, tools=[query_order])
    note = "tool call 2 (query_order) repeated the id of tool call 1; it got an id of its own"
    assert f"  note: {note}" in render_trace_text(result).splitlines()
    assert note in str(render_trace_html(result))
    assert "c1" not in render_trace_text(result) and "c1" not in str(render_trace_html(result))


def test_a_refusal_is_shown_in_the_trace_not_an_empty_reply():
    from toolkit.chat.messages import AssistantMessage

    result = run_loop(ScriptedModel([AssistantMessage(refusal="I can't help.")]), Q)
    assert result.answer == "I can't help."
    assert "  model refused: I can't help." in render_trace_text(result).splitlines()
    html = render_trace_html(result)
    assert "model refused" in html and "(empty reply)" not in html


def test_a_run_that_raised_counts_the_replies_it_got_not_the_requests_it_sent():
    """The `loop_result` of a run whose first request failed (the gateway down) said "0 model
    requests": it sent one. A raised run knows how many replies it got, not how many requests."""
    from toolkit.errors import TransientError

    class Down:
        def chat(self, *args, **kwargs):
            raise TransientError("gateway down")

    with pytest.raises(TransientError) as raised:
        run_loop(Down(), Q, tools=[query_order])
    result = raised.value.loop_result
    assert render_trace_text(result) == (
        "finish: stopped · 0 model replies, 0 tool round trips · tokens: input 0 · output 0 · total 0\n"
        "stopped at model request 1 (no reply recorded): TransientError: gateway down"
    )
    rows = Tree(render_trace_html(result)).find_all("tk-th")
    assert [th.text() for th in rows][:2] == ["finish", "model replies"]
    answered = run_loop(ScriptedModel(["好的"]), Q, tools=[query_order])
    assert "1 model request, 0 tool round trips" in render_trace_text(answered)


def test_a_run_that_raised_after_one_reply_says_one_model_reply():
    """The singular of "model replies" was cut to "1 model replie" (the last letter dropped)."""
    reset_call_ids()
    with pytest.raises(RuntimeError) as raised:
        run_loop(
            ScriptedModel([call("query_order", order_id="SN1"), RuntimeError("gateway 502")]), Q, tools=[query_order]
        )
    assert "finish: stopped · 1 model reply, 1 tool round trip · " in render_trace_text(raised.value.loop_result)


def test_a_run_that_raised_says_where_it_stopped_and_why():
    """A request that failed after a round of tools (a 429 after its retries) left a trace whose last
    round said "continue" and nothing after it: where the turn stopped, and why, was not shown."""
    from toolkit.errors import TransientError

    reset_call_ids()
    script = [call("query_order", order_id="SN1"), TransientError("HTTP 429 (transient): rate limited")]
    with pytest.raises(TransientError) as raised:
        run_loop(ScriptedModel(script), Q, tools=[query_order])
    result = raised.value.loop_result
    stopped = "stopped at model request 2 (no reply recorded): TransientError: HTTP 429 (transient): rate limited"
    assert render_trace_text(result).splitlines()[-2:] == [
        "finish: stopped · 1 model reply, 1 tool round trip · tokens: input 72 · output 8 · total 80",
        stopped,
    ]
    _, top = rounds(render_trace_html(result))
    summary = {k.text(): v.text() for k, v in zip(top[-1].find_all("tk-th"), top[-1].find_all("tk-td"))}
    assert summary["stopped at"] == stopped.removeprefix("stopped at ")
    answered = run_loop(ScriptedModel(["好的"]), Q, tools=[query_order])
    assert "stopped" not in render_trace_text(answered) and "stopped" not in render_trace_html(answered)


def interrupted_run():
    """A run stopped by Ctrl-C while the first of two calls ran: the loop answered both calls in
    the messages but recorded no execution for either."""

    @tool("stops with Ctrl-C")
    def halt(x: str) -> str:
        raise KeyboardInterrupt

    reset_call_ids()
    with pytest.raises(KeyboardInterrupt) as raised:
        run_loop(ScriptedModel([[call("halt", x="1"), call("halt", x="2")], "x"]), Q, tools=[halt])
    return raised.value.loop_result


RUNNING = (
    "Interrupted by KeyboardInterrupt while it ran: its outcome is unknown (it may have done its work). "
    "Check before calling it again."
)
BEFORE = "Not completed: the turn was interrupted by KeyboardInterrupt."


def test_calls_a_stopped_round_left_unfinished_show_how_the_loop_answered_them():
    """Ctrl-C while a tool ran: the trace listed the calls and no outcome (text), or called them
    all "not run" (HTML) — though the first had run and may have done its work."""
    result = interrupted_run()
    lines = render_trace_text(result).splitlines()
    assert lines[3:5] == [f"  halt [not finished]: {RUNNING}", f"  halt [not finished]: {BEFORE}"]
    cards = [c for c in Tree(render_trace_html(result)).find_all("tk-card") if c.text().startswith("halt")]
    assert [c.find_all("tk-title")[0].text() for c in cards] == ["halt not finished"] * 2
    assert RUNNING in cards[0].text() and BEFORE in cards[1].text()
    assert "not run" not in render_trace_html(result)


def test_a_compensations_multiline_report_stays_on_its_line_of_the_saga_log():
    """A compensation that reported its failure over several lines wrote them into the text log as
    lines of their own: "2. reserve_stock: ok — rolled back" could be the compensation's text."""
    from toolkit.loop.saga import SagaEntry
    from toolkit.views.trace import SagaView

    result = saga_run()
    fake = "bank offline\n2. charge_payment: ok — rolled back\n3. more"
    result.saga[0] = SagaEntry("charge_payment", "refund", "call_2", False, fake)
    assert render_saga_text(result).splitlines() == [
        "1. charge_payment: FAILED — bank offline 2. charge_payment: ok — rolled back 3. more",
        "2. reserve_stock: ok — rolled back",
    ]
    assert SagaView(result)._text == render_saga_text(result)


def test_a_note_naming_a_models_tool_name_stays_on_its_line():
    """The note on a repeated or missing call id quotes the call's tool name, which a model may
    write with line breaks: the trace text showed them as lines of their own (a fake round)."""
    from toolkit.chat.messages import ToolCall

    evil = "echo\nround 9 · FAKE\n  decision: answer"
    calls = [ToolCall(id="c1", name=evil, arguments="{}"), ToolCall(id="c1", name=evil, arguments="{}")]
    result = run_loop(ScriptedModel([calls, "done"]), Q, tools=[], options=COURSE)
    notes = [line for line in render_trace_text(result).splitlines() if "note" in line or "FAKE" in line]
    assert notes[0] == (
        "  note: tool call 2 (echo\\nround 9 · FAKE\\n  decision: answer) repeated the id of tool call 1; "
        "it got an id of its own"
    )
    assert not [line for line in render_trace_text(result).splitlines() if line.startswith("round 9")]


def test_a_round_that_sent_hundreds_of_tools_names_the_first_and_counts_the_rest():
    """Every round's line listed every tool sent: 800 tools (week 8's all-tools strategy) made each
    round's line of the trace and of the stepper some 10,000 characters long."""
    from toolkit.views.stepper import steps
    from toolkit.views.trace import NAMES_SHOWN

    many = []
    for i in range(800):

        @tool(f"tool number {i}", name=f"t{i}")
        def t(x: str) -> str:
            return x

        many.append(t)
    result = run_loop(ScriptedModel(["好的"]), Q, tools=many)
    head = ", ".join(f"t{i}" for i in range(NAMES_SHOWN))
    tokens = result.rounds[0].tools_tokens
    assert render_trace_text(result).splitlines()[0] == (
        f"round 1 · tools sent: {head}, … and 770 more (≈ {tokens} tokens) · tool_choice: not set (the gateway's default: auto)"
    )
    assert steps(result)[0].detail == f"800 tools sent ({head}, … and 770 more)"


def test_an_image_url_a_tool_returned_leaves_no_secret_in_the_trace():
    """The marker of an image a tool passed on wrote its URL as it came: a password in it
    (`https://alice:pw@cdn/...`) or a token in its query showed in the trace and the conversation."""
    from toolkit.tools.execute import ToolOutput
    from toolkit.views.conversation import render_conversation_text

    url = "https://alice:hunter2secretpw@cdn.example.com/c.png?token=sk-abcdefghijklmnopqrstuvwxyz"

    @tool("draws a chart")
    def chart() -> ToolOutput:
        return ToolOutput("a chart", {"images": [url]})

    reset_call_ids()
    result = run_loop(ScriptedModel([call("chart"), "ok"]), Q, tools=[chart])
    shown = [render_trace_text(result), render_trace_html(result), render_conversation_text(result.messages)]
    assert [s for s in shown if "hunter2" in s or "sk-abc" in s] == []
    assert "  images passed on from chart: [image 1: https://[REDACTED]@cdn.example.com/c.png?token=[REDACTED]]" in (
        render_trace_text(result).splitlines()
    )


def test_a_saga_view_given_no_messages_to_compare_says_what_it_takes():
    """SagaView(result, before=5) raised "'int' object is not iterable"; before=memory (the ChatMemory,
    not its messages) raised too, and before="..." or a list of ids read as no rewrite at all: the
    view said nothing was rewritten when it had not compared anything."""
    result = saga_run()
    memory = ChatMemory()
    for before, said in (
        (5, "takes a list of messages (e.g. result.messages of a run without compensation), and got an int"),
        ("SN1", "takes a list of messages (e.g. result.messages of a run without compensation), and got a str"),
        (memory, "takes a list of messages, and got a ChatMemory: pass memory.messages()"),
        ([UserMessage(content="q"), 7], "item 1 is an int, not a message"),
    ):
        for make, where in (
            (SagaView, "SagaView"),
            (render_saga_html, "render_saga_html"),
            (render_saga_text, "render_saga_text"),
        ):
            with pytest.raises(ConfigurationError) as caught:
                make(result, before)
            assert str(caught.value) == f"{where}(before=...): {said}"
    with pytest.raises(ConfigurationError) as caught:
        SagaView(result, [], after=5)
    assert str(caught.value).startswith("SagaView(after=...): takes a list of messages")


@pytest.mark.parametrize("flag", ["no", 0, None])
def test_show_timing_is_true_or_false(flag):
    """TraceView(result, show_timing="no") showed the wall-clock durations ("no" is true): what a
    notebook shows changed at each run."""
    result = run_loop(ScriptedModel(["Hi"]), "hello")
    for make, where in (
        (TraceView, "TraceView"),
        (render_trace_html, "render_trace_html"),
        (render_trace_text, "render_trace_text"),
    ):
        with pytest.raises(ConfigurationError) as caught:
            make(result, flag)
        assert str(caught.value) == (
            f"{where}(show_timing={flag!r}): show_timing is True (each call's duration, which differs at each "
            "run) or False (the default), and got " + {"no": "a str", 0: "an int", None: "None"}[flag]
        )


def _ended(finish_reason):
    """A run whose one reply ended with `finish_reason` (its text `Orders: SN1, SN2, SN`)."""
    from toolkit.chat.messages import AssistantMessage, ChatResponse

    reply = ChatResponse(message=AssistantMessage(content="Orders: SN1, SN2, SN"), finish_reason=finish_reason)
    return run_loop(ScriptedModel([reply]), Q, tools=[query_order])


@pytest.mark.parametrize(
    "finish_reason, shown",
    [
        ("length", "length (cut off by its length limit)"),
        ("content_filter", "content_filter (cut off by the gateway's content filter)"),
        ("sensitive", "sensitive (cut off by the gateway's content filter)"),  # Zhipu's
        ("eos\n<b>round 9</b>", "eos <b>round 9</b>"),
    ],
)
def test_a_reply_that_did_not_end_as_usual_names_its_finish_reason(finish_reason, shown):
    """An answer cut off by its length limit (or a content filter) looked complete in the trace: no view
    named the reply's `finish_reason`. Now a round whose reply ended otherwise than `stop` / `tool_calls`
    says how, in the text (one line) and in the HTML (a row of the round's facts)."""
    result = _ended(finish_reason)
    lines = render_trace_text(result).split("\n")
    assert lines[1:3] == ["  model: Orders: SN1, SN2, SN", f"  finish_reason: {shown}"]
    _, top = rounds(render_trace_html(result))
    table = top[0].find_all("tk-table")[0]
    assert [n.text() for n in table.find_all("tk-th")] == ["tools sent", "tool_choice", "tokens", "finish_reason"]
    assert table.find_all("tk-td")[-1].text() == shown


@pytest.mark.parametrize("finish_reason", ["stop", "tool_calls", None])
def test_a_reply_that_ended_as_usual_names_no_finish_reason(finish_reason):
    result = _ended(finish_reason)
    assert "finish_reason" not in render_trace_text(result) and "finish_reason" not in render_trace_html(result)


def test_a_call_whose_asking_memory_could_not_store_is_not_said_to_be_answered():
    """Memory refused the reply asking for a call (a full disk): the round was shown undecided, its
    call with no word of what became of it; marked stopped, its card must not say the loop answered it."""
    import sqlite3

    from toolkit.memory.windows import InMemoryStore

    class FullDisk(InMemoryStore):
        def append(self, memory_id, messages):
            if any(getattr(m, "tool_calls", None) for m in messages):
                raise sqlite3.OperationalError("database or disk is full")
            super().append(memory_id, messages)

    reset_call_ids()
    memory = ChatMemory("u1", store=FullDisk())
    with pytest.raises(sqlite3.OperationalError) as raised:
        run_loop(ScriptedModel([call("query_order", order_id="SN1"), "x"]), Q, tools=[query_order], memory=memory)
    result = raised.value.loop_result
    assert render_trace_text(result).splitlines()[2:4] == [
        "  query_order [not finished]: (no answer recorded)",
        "  tokens: input 72 · output 8 · total 80",
    ]
    _, top = rounds(render_trace_html(result))
    card = [c for c in top[0].find_all("tk-card") if c.text().startswith("query_order")][0]
    assert "answered by the loop" not in card.text()
    assert "the run stopped before an answer to it was recorded" in card.text()


def test_a_huge_result_is_scrubbed_as_far_as_the_view_shows_it(monkeypatch):
    """A tool's 2 MB of look-alike text took 10 s to draw (scrubbed whole, then cut at SHOWN_CHARS): a head
    is scrubbed now, a token straddling the cut masked whole, and the marker counts the text's own length."""
    from huge_result import dumped, scrub_reads

    from toolkit.loop.result_size import READ_PAST
    from toolkit.views.html import SHOWN_CHARS
    from toolkit.views.trace import render_trace_html, render_trace_text

    token = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f"
    text = "x" * (SHOWN_CHARS - 20) + " " + token + " " + "y" * 2_000_000

    result = dumped(text)
    read = scrub_reads(monkeypatch)
    page = str(render_trace_html(result))
    render_trace_text(result)
    assert max(read) <= SHOWN_CHARS + READ_PAST
    shown = "x" * (SHOWN_CHARS - 20) + " [REDACTED] " + "y" * 8
    assert shown + f"…({len(text) - SHOWN_CHARS:,} more characters not shown)" in page
    assert token[:12] not in page
