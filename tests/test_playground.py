"""The assistant playground, driven from Python: type, click, change the controls, reset."""

from toolkit.views.playground import AssistantPlayground

QUESTION = "帮我查一下订单 SN202610200001 现在到哪了？"


def test_send_runs_the_real_loop_and_keeps_the_conversation():
    playground = AssistantPlayground(env={})
    playground.question.value = QUESTION
    playground.send.click()
    first = playground.last
    assert first is not None and [e.call.name for e in first.executions] == ["query_logistics"]
    assert playground.question.value == "" and playground.status_text == (
        "answer after 2 model requests · embedded fake keyword gateway (in-process, mode A)"
    )
    playground.ask("谢谢")
    roles = [m.role for m in playground.memory.messages()]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "user", "assistant"]
    text = playground.text()
    assert QUESTION in text and "谢谢" in text and "round 1 · tools sent" in text
    bundle = playground._repr_mimebundle_()
    assert "谢谢" in bundle["text/html"] and bundle["text/plain"] == text


def test_controls_change_the_next_turn():
    playground = AssistantPlayground(env={})
    playground.tools.value = ("query_order",)
    playground.tool_choice.value = "required"
    playground.ask(QUESTION)
    first_round = playground.last.rounds[0]
    assert first_round.tools_sent == ["query_order"] and first_round.tool_choice == "required"
    playground.tools.value = ()
    playground.ask(QUESTION)
    assert playground.last.rounds[0].tools_sent == [] and playground.last.executions == []


def test_max_rounds_bounds_the_turn():
    playground = AssistantPlayground(env={})
    playground.max_rounds.value = 1
    playground.tool_choice.value = "required"  # the fake model keeps calling a tool
    result = playground.ask(QUESTION)
    assert result.round_trips <= 2 and result.finish in ("handover", "answer")


def test_a_gateway_that_rejects_tools_is_a_status_line_not_an_exception():
    playground = AssistantPlayground(env={})
    playground.mode.value = "C"
    assert playground.ask(QUESTION) is None
    assert playground.status_text.startswith("CallerError: HTTP 400")


def test_reset_forgets_and_empty_input_is_refused():
    playground = AssistantPlayground(env={})
    playground.ask("你好")
    playground.reset_button.click()
    assert [m.role for m in playground.memory.messages()] == ["system"] and playground.last is None
    playground.question.value = "   "
    playground.send.click()
    assert playground.status_text == "type a question first"


def _scripted(monkeypatch, *turns):
    """The playground's model replaced by a script (`connect()` returns it)."""
    from toolkit.chat.scripted import ScriptedModel

    model = ScriptedModel(list(turns))
    monkeypatch.setattr("toolkit.views.playground.connect", lambda **_: model)
    return model


def test_a_failed_turn_shows_its_own_trace_not_the_previous_turns():
    """After a turn that answered, a failing one returned that earlier result from `ask`, and the
    trace pane and the text kept showing it beside the failure's status line."""
    playground = AssistantPlayground(env={})
    assert playground.ask(QUESTION) is not None
    playground.mode.value = "C"
    assert playground.ask("再查一次 SN202610200001") is None
    assert playground.last is not None and playground.last.rounds == [] and playground.last.finish == "stopped"
    assert "0 model replies" in playground.text() and "query_logistics" not in playground.text().split("\n\n")[-1]


def test_a_turn_that_got_no_reply_leaves_memory_as_it_was_and_the_question_in_the_box():
    """The question was cleared from the box and left unanswered in memory: the learner retyped it,
    and memory held two user messages in a row (a gateway whose chat template wants user and
    assistant to alternate then refused every later turn)."""
    playground = AssistantPlayground(env={})
    playground.ask(QUESTION)
    before = playground.memory.messages()
    playground.mode.value = "C"
    playground.question.value = "  再查一次 SN202610200001 "
    playground.send.click()
    assert playground.memory.messages() == before
    assert playground.question.value == "再查一次 SN202610200001"
    assert playground.status_text.startswith("CallerError: HTTP 400")
    assert playground.status_text.endswith(" (your question is back in the box: Send asks again)")
    playground.mode.value = "A"
    playground.send.click()
    roles = [m.role for m in playground.memory.messages()]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant"]


def test_a_turn_that_fails_after_its_tools_ran_keeps_them_in_memory(monkeypatch):
    """A failure after a round ran tools: memory keeps the question, the call and its result
    (the loop answers every call), and the question is in the box again."""
    from toolkit.chat.scripted import call
    from toolkit.errors import TransientError

    _scripted(monkeypatch, call("query_order", orderId="SN202610200001"), TransientError("HTTP 503"))
    playground = AssistantPlayground(env={})
    assert playground.ask(QUESTION) is None
    assert playground.question.value == QUESTION and playground.status_text.startswith("TransientError: HTTP 503")
    assert len(playground.last.rounds) == 1 and "query_order" in playground.trace.value
    assert [m.role for m in playground.memory.messages()] == ["system", "user", "assistant", "tool"]


def test_ctrl_c_on_the_first_request_leaves_memory_the_box_and_the_panes_consistent(monkeypatch):
    """Ctrl-C while the model was asked left the question out of the box, the status reading the
    turn before's "answer after 2 model request(s)" and the panes drawn before the interrupted turn."""
    import pytest

    playground = AssistantPlayground(env={})
    playground.ask(QUESTION)
    before, shown = playground.memory.messages(), playground.conversation.value
    _scripted(monkeypatch, KeyboardInterrupt())
    playground.question.value = "再查一次 SN202610200001"
    with pytest.raises(KeyboardInterrupt):  # Ctrl-C still stops the cell
        playground.send.click()
    assert playground.memory.messages() == before and playground.conversation.value == shown
    assert playground.question.value == "再查一次 SN202610200001"
    assert playground.status_text == (
        "KeyboardInterrupt: the turn was stopped (your question is back in the box: Send asks again)"
    )
    assert playground.last is not None and playground.last.rounds == []


def test_ctrl_c_after_a_tool_ran_shows_the_turn_so_far(monkeypatch):
    """Ctrl-C in round 2: memory held the call and its result, but the conversation pane and the
    trace still showed the previous turn, so the widget and `playground.memory` disagreed."""
    import pytest

    from toolkit.chat.scripted import call

    _scripted(monkeypatch, call("query_order", orderId="SN202610200001"), KeyboardInterrupt())
    playground = AssistantPlayground(env={})
    with pytest.raises(KeyboardInterrupt):
        playground.ask(QUESTION)
    assert [m.role for m in playground.memory.messages()] == ["system", "user", "assistant", "tool"]
    assert "query_order" in playground.conversation.value and "query_order" in playground.trace.value
    assert len(playground.last.rounds) == 1 and playground.question.value == QUESTION
    assert playground.status_text.startswith("KeyboardInterrupt: the turn was stopped")


def test_today_is_read_as_load_shop_reads_it():
    """`today="2026-10-25"` (ISO text, as `load_shop` takes it) and `today=None` raised AttributeError
    ('str' object has no attribute 'isoformat'), and a datetime put its time of day in the system prompt."""
    import datetime

    for today in ("2026-10-25", datetime.datetime(2026, 10, 25, 9, 30), datetime.date(2026, 10, 25)):
        playground = AssistantPlayground(today=today, env={})
        assert playground.today == datetime.date(2026, 10, 25) and playground.shop.today == playground.today
        assert "今天是 2026-10-25。" in playground.memory.messages()[0].content
    assert isinstance(AssistantPlayground(today=None, env={}).today, datetime.date)


def test_a_question_that_is_no_text_names_the_method():
    import pytest

    from toolkit.errors import ConfigurationError

    playground = AssistantPlayground()
    before = playground.memory.messages()
    with pytest.raises(ConfigurationError) as raised:
        playground.ask(123)
    assert str(raised.value) == (
        "AssistantPlayground.ask(text): takes the question as text, and got int; "
        "e.g. playground.ask('帮我查一下订单 SN202610200001 现在到哪了？')"
    )
    assert playground.memory.messages() == before  # nothing asked, nothing stored


def test_the_bound_control_starts_at_the_courses_bound_and_every_value_changes_the_turn(monkeypatch):
    """The slider started at 10 (COURSE's max_round_trips of 100, clamped) and set max_round_trips,
    while COURSE's 5 model requests ended the turn first: 10, 6 and 5 all gave the same 5 requests."""
    from toolkit.chat.scripted import call
    from toolkit.loop.records import COURSE

    playground = AssistantPlayground(env={})
    assert playground.max_rounds.value == COURSE.max_model_requests == 5
    assert playground.max_rounds.description == "max requests"
    requests = {}
    for bound in (1, 3, 5, 7):
        _scripted(monkeypatch, *[call("query_order", orderId=f"SN20261020000{i}") for i in range(1, 9)], "好的。")
        playground = AssistantPlayground(env={})
        playground.max_rounds.value = bound
        result = playground.ask("把我的订单都查一遍")
        requests[bound] = (len(result.rounds), result.finish)
    assert requests == {1: (1, "handover"), 3: (3, "handover"), 5: (5, "handover"), 7: (7, "handover")}


def test_a_failure_of_no_toolkit_type_is_a_status_line_and_the_question_stays(monkeypatch):
    """A failure the package has no type for (a UnicodeError from the socket, a third-party model's
    own exception) escaped Send: ipywidgets logged it where the learner does not look, the status
    still read the turn before's, and the question was gone from the box."""
    _scripted(monkeypatch, UnicodeError("label too long"))
    playground = AssistantPlayground(env={})
    playground.question.value = QUESTION
    playground.send.click()
    assert playground.question.value == QUESTION
    assert playground.status_text == (
        "UnicodeError: label too long (your question is back in the box: Send asks again)"
    )
    assert [m.role for m in playground.memory.messages()] == ["system"] and playground.error.startswith("UnicodeError")
    _scripted(monkeypatch, ValueError("bad key sk-proj-abcdefghijklmnop1234567890"))
    playground.send.click()
    assert (
        playground.status_text == "ValueError: bad key [REDACTED] (your question is back in the box: Send asks again)"
    )


def test_the_stored_html_after_a_turn_is_markup_not_escaped_text():
    """After a turn the trace pane holds an `Html` string, and `status + conversation + trace`
    went through `Html.__radd__`, which escapes a plain `str`: a saved notebook showed the status
    and the conversation as their HTML source (`&lt;span style=...`)."""
    playground = AssistantPlayground(env={})
    playground.ask(QUESTION)
    html = playground._repr_mimebundle_()["text/html"]
    assert html.startswith(
        '<span class="tex2jax_ignore mathjax_ignore" style="color:#57606a">answer after 2 model requests · '
        "embedded fake keyword gateway (in-process, mode A)</span>"
        '<div class="tk tex2jax_ignore mathjax_ignore"'
    )
    assert "&lt;div" not in html and "&lt;span" not in html
    assert html == playground.status.value + str(playground.conversation.value) + str(playground.trace.value)


def test_the_status_names_the_gateway_that_answered_the_turn(monkeypatch, tmp_path):
    """The 'fake mode' dropdown does nothing once a real gateway (or a replay) is set, and the
    status read 'answer after 2 model request(s)' either way: a learner who set LLM_* (or
    LLM_REPLAY) after making the playground, and picked mode C to see tools refused, was told nothing
    of which gateway answered. The status names it (the client's own line, no key)."""
    cassette = tmp_path / "turn.jsonl"
    recording = AssistantPlayground(env={"LLM_RECORD": str(cassette)})
    recording.ask(QUESTION)
    assert recording.status_text == (
        f"answer after 2 model requests · embedded fake keyword gateway (in-process, mode A), recording to {cassette}"
    )
    for name in ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL", "LLM_RECORD", "LLM_REPLAY", "LLM_FAKE_MODE"):
        monkeypatch.delenv(name, raising=False)
    playground = AssistantPlayground()
    playground.mode.value = "B"
    playground.ask("你好")
    assert playground.status_text == "answer after 1 model request · embedded fake keyword gateway (in-process, mode B)"
    monkeypatch.setenv("LLM_REPLAY", str(cassette))  # the kernel's environment changed after the playground was made
    playground.reset()
    playground.mode.value = "C"
    playground.ask(QUESTION)
    assert playground.status_text == "answer after 2 model requests · replay of cassette turn.jsonl, model fake-keyword"


def test_while_a_turn_waits_for_the_model_the_status_says_so(monkeypatch):
    """The status changed only when a tool started or finished: while the model was asked (30 s
    and retries on a slow gateway) it still read the turn before's 'answer after …', or the red
    'CallerError: HTTP 401 … (your question is back in the box…)' of the failure being retried."""
    from toolkit.chat.scripted import call
    from toolkit.errors import CallerError

    seen: list[str] = []

    def reply(turn):
        def answer(request):
            seen.append(playground.status_text)
            return turn

        return answer

    _scripted(monkeypatch, CallerError("HTTP 401: bad key"))
    playground = AssistantPlayground(env={})
    playground.ask(QUESTION)
    assert playground.status_text.startswith("CallerError: HTTP 401")
    _scripted(monkeypatch, reply(call("query_order", orderId="SN202610200001")), reply("好的"))
    playground.send.click()
    assert seen == ["asking the model…", "query_order answered"]
    assert playground.status_text.startswith("answer after 2 model requests · scripted model")


def test_a_failure_of_megabytes_over_lines_is_one_bounded_status_line(monkeypatch):
    """A third-party error of 5 MB over several lines went whole into the status text and the saved
    text/plain (the HTML cut it), its lines breaking the status line → one line, cut at STATUS_CHARS."""
    from toolkit.views.playground import STATUS_CHARS

    _scripted(monkeypatch, ValueError("line1\nline2 " + "x" * 5_000_000))
    playground = AssistantPlayground(env={})
    playground.ask(QUESTION)
    head = "ValueError: line1 line2 "
    assert playground.error == head + "x" * (STATUS_CHARS - len(head) - 1) + "…"
    assert playground.status_text == playground.error + " (your question is back in the box: Send asks again)"
    bundle = playground._repr_mimebundle_()
    assert bundle["text/plain"].splitlines()[0] == f"[{playground.status_text}]"
    assert len(bundle["text/plain"]) < 10_000
