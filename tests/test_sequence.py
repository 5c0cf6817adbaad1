"""The sequence diagram of a loop run: lanes, one arrow per message, rollbacks and hand-overs marked."""

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call, reset_call_ids
from toolkit.exercises.week06 import _order_tools
from toolkit.exercises.week07 import place_order
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import COURSE, run_loop
from toolkit.views.sequence import MERMAID_MAX_TEXT, SequenceDiagram, sequence_source


def test_lanes_and_one_arrow_per_request_reply_call_and_result():
    reset_call_ids()
    model = ScriptedModel([call("query_order", orderId="SN202610200001"), "已发货。"])
    result = run_loop(model, [UserMessage(content="SN202610200001 发货了吗？")], tools=_order_tools())
    source = sequence_source(result)
    assert source.splitlines() == [
        "sequenceDiagram",
        "    participant U as user",
        "    participant L as loop",
        "    participant M as model",
        "    participant T_query_order as query_order",
        "    U->>L: SN202610200001 发货了吗？",
        "    L->>M: request 1 (2 tools)",
        "    M-->>L: 1 tool call: query_order",
        "    L->>T_query_order: orderId=SN202610200001",
        "    T_query_order-->>L: 订单 SN202610200001：已发货",
        "    L->>M: request 2 (2 tools)",
        "    M-->>L: 已发货。",
        "    L-->>U: 已发货。",
    ]


def test_rollback_is_marked_in_reverse_where_the_saga_ran():
    _, result = place_order()
    lines = sequence_source(result).splitlines()
    failed = lines.index(next(line for line in lines if "T_create_shipment-->>L: ✗" in line))
    assert lines[failed + 1] == "    Note over L: saga — undo in reverse order"
    assert lines[failed + 2 : failed + 6] == [
        "    L->>T_charge_payment: compensate (ok)",
        "    Note over T_charge_payment: rolled back",
        "    L->>T_reserve_stock: compensate (ok)",
        "    Note over T_reserve_stock: rolled back",
    ]


def test_handover_is_marked_and_labels_cannot_break_the_syntax():
    reset_call_ids()
    model = ScriptedModel([call("query_order", orderId=f"SN20261020000{i}") for i in range(8)])
    result = run_loop(model, [UserMessage(content="a: b; c # {d} <e>")], tools=_order_tools(), options=COURSE)
    source = sequence_source(result)
    assert source.splitlines()[-1].startswith("    L-->>U: hand-over: ")
    assert "    U->>L: a  b  c   d   e" not in source and "U->>L: a b c d e" in source.replace("  ", " ")


def test_text_fallback_is_the_mermaid_source():
    _, result = place_order()
    bundle = SequenceDiagram(result)._repr_mimebundle_()
    assert bundle["text/plain"] == sequence_source(result)
    assert bundle["text/markdown"] == f"```mermaid\n{sequence_source(result)}\n```"


def test_tools_whose_names_read_the_same_as_lane_ids_get_lanes_of_their_own():
    """`get-order` and `get_order` (both valid tool names) once shared the lane `T_get_order`:
    Mermaid drew one lane, and the second participant line renamed it."""
    from toolkit.tools.decorator import tool

    @tool("by dash", name="get-order")
    def dashed(x: str) -> str:
        return "dash"

    @tool("by underscore", name="get_order")
    def underscored(x: str) -> str:
        return "underscore"

    @tool("taken", name="get_order_2")
    def second(x: str) -> str:
        return "two"

    reset_call_ids()
    calls = [call("get-order", x="1"), call("get_order", x="2"), call("get_order_2", x="3")]
    result = run_loop(ScriptedModel([calls, "ok"]), [UserMessage(content="q")], tools=[dashed, underscored, second])
    lines = sequence_source(result).splitlines()
    assert lines[4:7] == [
        "    participant T_get_order as get-order",
        "    participant T_get_order_2 as get_order",
        "    participant T_get_order_2_2 as get_order_2",
    ]
    assert "    T_get_order-->>L: dash" in lines
    assert "    T_get_order_2-->>L: underscore" in lines
    assert "    T_get_order_2_2-->>L: two" in lines


def test_a_run_too_long_for_mermaid_keeps_its_first_and_last_rounds_and_says_what_it_left_out():
    reset_call_ids()
    model = ScriptedModel([call("query_order", orderId=f"SN20261020{i:04d}") for i in range(999)] + ["已发货。"])
    options = LoopOptions(max_round_trips=1_000)
    result = run_loop(model, [UserMessage(content="SN202610200001 发货了吗？")], tools=_order_tools(), options=options)
    lines = sequence_source(result).splitlines()
    assert len("\n".join(lines)) <= MERMAID_MAX_TEXT
    notes = [i for i, line in enumerate(lines) if "not shown" in line]
    assert len(notes) == 1
    before, after = lines[notes[0] - 4], lines[notes[0] + 1]
    first, last = int(before.split()[2]), int(after.split()[2])
    assert before == f"    L->>M: request {first} (2 tools)" and after == f"    L->>M: request {last} (2 tools)"
    assert (
        lines[notes[0]]
        == f"    Note over L: … {last - first - 1:,} rounds not shown (rounds {first + 1:,} to {last - 1:,})"
    )
    assert lines[6] == "    L->>M: request 1 (2 tools)" and lines[-3:] == [
        "    L->>M: request 1000 (2 tools)",
        "    M-->>L: 已发货。",
        "    L-->>U: 已发货。",
    ]
    assert 1_000 - (last - first - 1) > 300  # most of the room is used


def test_a_call_the_loop_answered_itself_draws_no_arrow_to_the_tool():
    """A guarded call and a call not run (another call's policy stopped the round) never reached
    their tool, but were drawn as a call to its lane and the tool's own ✗ reply."""
    import pytest

    from toolkit.tools.decorator import tool

    @tool("look an order up")
    def look(order: str) -> str:
        return f"order {order}: shipped"

    reset_call_ids()
    guarded = run_loop(
        ScriptedModel([call("look", order="SN1"), call("look", order="SN1"), "shipped"]),
        [UserMessage(content="SN1?")],
        tools=[look],
        options=LoopOptions(loop_guard=True),
    )
    lines = sequence_source(guarded).splitlines()
    assert lines.count("    L->>T_look: order=SN1") == 1
    assert "    L->>L: ✗ look not run — You already called look with these argu…" in lines
    reset_call_ids()
    with pytest.raises(Exception) as raised:
        run_loop(
            ScriptedModel([[call("nope"), call("look", order="SN2")], "done"]),
            [UserMessage(content="SN2?")],
            tools=[look],
        )
    lines = sequence_source(raised.value.loop_result).splitlines()
    assert "participant T_look as look" not in "\n".join(lines)
    assert "    L->>L: ✗ look not run — Not run another call of this round (no…" in lines


def test_a_hallucinated_tool_name_of_any_length_gets_a_short_lane_id():
    """The lane id was the whole name: a model that called a 20,000-character name filled the
    diagram with it (three times), and the rounds were left out to fit Mermaid's limit."""
    from toolkit.chat.messages import ToolCall
    from toolkit.tools.execute import FEED_BACK_ALL

    names = ["x" * 20_000, "x" * 20_001]
    model = ScriptedModel([[ToolCall(id=f"c{i}", name=n, arguments="{}") for i, n in enumerate(names)], "done"])
    result = run_loop(
        model, [UserMessage(content="q")], tools=_order_tools(), options=LoopOptions(policies=FEED_BACK_ALL)
    )
    lines = sequence_source(result).splitlines()
    lane = "T_" + "x" * 40
    assert [line for line in lines if line.startswith("    participant T_")] == [
        f"    participant {lane} as {'x' * 39}…",
        f"    participant {lane}_2 as {'x' * 39}…",
    ]
    assert f"    L->>{lane}_2: (no arguments)" in lines and not any("not shown" in line for line in lines)


def test_a_run_that_raised_ends_with_no_answer_not_a_blank_reply():
    """The `loop_result` of a run that raised (the gateway down, an unknown tool) ended with the arrow
    `L-->>U: —`, as if the user had been answered with nothing."""
    import pytest

    from toolkit.errors import TransientError

    class Down:
        def chat(self, *args, **kwargs):
            raise TransientError("gateway down")

    with pytest.raises(TransientError) as raised:
        run_loop(Down(), [UserMessage(content="SN1?")], tools=_order_tools())
    assert sequence_source(raised.value.loop_result).splitlines()[-2:] == [
        "    U->>L: SN1?",
        "    L-->>U: stopped — the run raised before an answer",
    ]
    reset_call_ids()
    with pytest.raises(Exception) as raised:
        run_loop(ScriptedModel([call("nope"), "done"]), [UserMessage(content="SN2?")], tools=_order_tools())
    assert sequence_source(raised.value.loop_result).splitlines()[-1] == (
        "    L-->>U: stopped — the run raised before an answer"
    )


def _two_sagas_and_a_failed_one():
    """reserve A, ship fails (saga 1: released); reserve B, ship fails (saga 2: released); pay, ship
    fails (saga 3: the refund fails); then one more round and the answer."""
    from toolkit.loop.saga import ToolExecution, compensates
    from toolkit.tools.decorator import tool

    @tool("reserve")
    def reserve(sku: str) -> str:
        return f"reserved {sku}"

    @tool("pay")
    def pay(amount: int) -> str:
        return "paid"

    @tool("ship")
    def ship(order_id: str) -> str:
        raise RuntimeError("carrier down")

    @compensates("reserve")
    def release(execution: ToolExecution) -> None:
        pass

    @compensates("pay")
    def refund(execution: ToolExecution) -> None:
        raise RuntimeError("refund api down")

    script = [
        call("reserve", sku="A", id="c1"),
        call("ship", order_id="o", id="c2"),
        call("reserve", sku="B", id="c3"),
        call("ship", order_id="o", id="c4"),
        call("pay", amount=3, id="c5"),
        call("ship", order_id="o", id="c6"),
        call("reserve", sku="C", id="c7"),
        "done",
    ]
    options = LoopOptions(compensate=True, compensations=(release, refund))
    return run_loop(ScriptedModel(script), [UserMessage(content="go")], tools=[reserve, pay, ship], options=options)


def test_each_saga_is_drawn_in_the_round_whose_failure_ran_it():
    """Every compensation was drawn after the last failure (or, when none undid anything, in the
    last round, after the answer): a saga of round 2 read as if it ran in round 6."""
    lines = sequence_source(_two_sagas_and_a_failed_one()).splitlines()
    saga = [i for i, line in enumerate(lines) if "Note over L: saga" in line]
    failures = [i for i, line in enumerate(lines) if "T_ship-->>L: ✗" in line]
    assert saga == [f + 1 for f in failures]
    assert [line.strip() for line in lines if "compensate (" in line] == [
        "L->>T_reserve: compensate (ok)",
        "L->>T_reserve: compensate (ok)",
        "L->>T_pay: compensate (failed)",
    ]
    assert lines[failures[2] + 2] == "    L->>T_pay: compensate (failed)"
    assert lines[failures[0] + 2] == "    L->>T_reserve: compensate (ok)"


def test_calls_a_stopped_round_left_unfinished_are_the_loops_own_arrows():
    """Ctrl-C while a tool ran: the diagram drew the model's two calls and then nothing for them."""
    from test_trace_view import interrupted_run

    lines = sequence_source(interrupted_run()).splitlines()
    assert lines[6:] == [
        "    M-->>L: 2 tool calls: halt, halt",
        "    L->>L: ✗ halt not finished — Interrupted by KeyboardInterrupt while …",
        "    L->>L: ✗ halt not finished — Not completed the turn was interrupted…",
        "    Note over L: stopped KeyboardInterrupt",
        "    L-->>U: stopped — the run raised before an answer",
    ]
    assert not [line for line in lines if line.startswith("    participant T_")]


def _lanes_used_and_declared(lines):
    import re

    declared = [line.split()[1] for line in lines if line.startswith("    participant T_")]
    used = {m for line in lines for m in re.findall(r"\bT_\w+", line.split(": ", 1)[0])}
    return declared, used


def test_a_round_of_hundreds_of_calls_keeps_its_first_and_last_within_mermaids_limit():
    """A round whose calls alone passed Mermaid's maxTextSize (600 parallel calls) was left out
    whole: the diagram read "1 rounds not shown (rounds 1 to 1)" and drew no call at all."""
    reset_call_ids()
    calls = [call("query_order", orderId=f"SN2026102{i:05d}") for i in range(600)]
    result = run_loop(ScriptedModel([calls, "已发货。"]), [UserMessage(content="查订单")], tools=_order_tools())
    lines = sequence_source(result).splitlines()
    assert len("\n".join(lines)) <= MERMAID_MAX_TEXT
    assert lines[5:9] == [
        "    U->>L: 查订单",
        "    L->>M: request 1 (2 tools)",
        "    M-->>L: 600 tool calls: query_order, query_order, query_order, query_or…",
        "    L->>T_query_order: orderId=SN202610200000",
    ]
    (note,) = [line for line in lines if "not shown" in line]
    hidden = int(note.split()[4].replace(",", ""))
    assert note == f"    Note over L: … {hidden:,} arrows of round 1 not shown"
    assert lines.count("    L->>T_query_order: orderId=SN202610200599") == 1
    assert lines[-3:] == ["    L->>M: request 2 (2 tools)", "    M-->>L: 已发货。", "    L-->>U: 已发货。"]
    assert (len([line for line in lines if line.startswith("    L->>T_")]) * 2 + hidden) == 1_200


def test_lanes_of_many_tools_are_declared_only_for_the_arrows_drawn_within_mermaids_limit():
    """700 tools the model named (hallucinated, each a lane) made 70,000 characters of participant
    lines alone: Mermaid refused the diagram ("Maximum text size in diagram exceeded")."""
    reset_call_ids()
    calls = [call(f"tool_{'x' * 30}_{i}", "{}") for i in range(700)]
    result = run_loop(ScriptedModel([calls, "好的"]), [UserMessage(content="q")], tools=_order_tools(), options=COURSE)
    lines = sequence_source(result).splitlines()
    assert len("\n".join(lines)) <= MERMAID_MAX_TEXT
    declared, used = _lanes_used_and_declared(lines)
    assert declared[0] == "T_tool_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx_0" and len(declared) > 80
    assert set(declared) == used and len(declared) == len(used)
    assert lines[-3:] == ["    L->>M: request 2 (2 tools)", "    M-->>L: 好的", "    L-->>U: 好的"]


def test_a_question_that_is_not_text_is_refused_naming_the_parameter():
    """SequenceDiagram(result, question=5) raised "argument of type 'int' is not iterable"."""
    import pytest

    from toolkit.errors import ConfigurationError

    _, result = place_order()
    for given, kind in ((5, "an int"), (b"q", "a bytes")):
        for make, where in ((SequenceDiagram, "SequenceDiagram"), (sequence_source, "sequence_source")):
            with pytest.raises(ConfigurationError) as refused:
                make(result, question=given)
            assert str(refused.value) == (
                f"{where}(result, question): question is the user's question as text (None: the run's last "
                f"question), and got {kind}; e.g. {where}(result, question='SN202610200001 发货了吗？')"
            )


def test_dollar_pairs_in_a_label_are_kept_apart_so_mermaid_draws_no_math():
    """Mermaid (10.9 on, JupyterLab 4.2+) typesets a label holding `$$…$$` with KaTeX: a tool's result
    `$$\\rule{5000px}{5000px}$$` drew a black block over the notebook, and `costs $$5 or $$6` showed math."""
    reset_call_ids()
    model = ScriptedModel([call("query_order", orderId="SN202610200001"), "$$\\rule{5000px}{5000px}$$ or $$$9"])
    result = run_loop(model, [UserMessage(content="costs $$5 or $$6?")], tools=_order_tools())
    lines = sequence_source(result).splitlines()
    assert lines[5] == "    U->>L: costs $ $5 or $ $6?"
    assert lines[-1] == "    L-->>U: $ $\\rule 5000px 5000px $ $ or $ $ $9"
    assert "$$" not in sequence_source(result)
