"""The assistant playground, driven from Python: type, click, change the controls, reset."""

from toolkit.views.playground import AssistantPlayground

QUESTION = "帮我查一下订单 SN202610200001 现在到哪了？"


def test_send_runs_the_real_loop_and_keeps_the_conversation():
    playground = AssistantPlayground(env={})
    playground.question.value = QUESTION
    playground.send.click()
    first = playground.last
    assert first is not None and [e.call.name for e in first.executions] == ["query_logistics"]
    assert playground.question.value == "" and playground.status_text == "answer after 2 model request(s)"
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
