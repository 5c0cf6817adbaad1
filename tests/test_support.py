"""The support assistant: hand-written specs agree with validation; the course loop on top —
two model calls per tool question, one argument repair, then an honest hand-over."""

import datetime

import jsonschema
import pytest

from toolkit.chat.messages import SystemMessage, ToolResultMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.chat.switch import fake_client
from toolkit.course.assistant import TOOL_SPECS, ask, shop_registry, system_prompt
from toolkit.course.shop import load_shop
from toolkit.course.validation import FIELDS
from toolkit.loop.run import HANDOVER_ZH, REPAIR_HANDOVER_ZH

SHOP = load_shop(today=datetime.date(2026, 10, 25))


def test_specs_describe_exactly_the_fields_validation_accepts():
    for spec in TOOL_SPECS:
        fn = spec["function"]
        jsonschema.Draft202012Validator.check_schema(fn["parameters"])
        fields = FIELDS[fn["name"]]
        assert list(fn["parameters"]["properties"]) == list(fields)
        assert fn["parameters"]["required"] == [f for f, (required, _) in fields.items() if required]
    assert shop_registry(SHOP).selected() == {name: "v1" for name in FIELDS}


def test_system_prompt_carries_today_and_the_rules():
    text = system_prompt(datetime.date(2026, 10, 25))
    assert "今天是 2026-10-25" in text and "不要编造" in text and "人工客服" in text


def test_one_tool_question_is_two_model_calls():
    model = ScriptedModel([call("query_logistics", orderId="SN202610200001"), "在杭州转运中心。"])
    result = ask(model, "SN202610200001 到哪了？", shop=SHOP)
    assert (result.answer, len(model.requests)) == ("在杭州转运中心。", 2)
    assert [m.role for m in result.messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert result.messages[3].content.startswith("订单号：SN202610200001\n物流状态：运输中")
    assert isinstance(model.requests[0].messages[0], SystemMessage)
    assert model.requests[0].tools == ("query_order", "query_logistics", "query_refund_policy")


def test_a_bad_argument_goes_back_once_then_the_model_fixes_it():
    model = ScriptedModel(
        [
            call("query_order", orderId="订单号是202610200001"),
            call("query_order", orderId="订单号：SN202610200001"),
            "已发货。",
        ]
    )
    result = ask(model, "订单号是SN202610200001，什么状态？", shop=SHOP)
    repair = result.messages[3]
    assert isinstance(repair, ToolResultMessage) and repair.is_error
    assert repair.content == (
        '参数校验失败。字段=orderId，收到="订单号是202610200001"。期望：SN 开头加 12 位数字，例如 '
        "SN202610200001；请从用户的原话中找出完整的订单号，不要自己补位或猜测。请修正参数后重新调用 "
        "query_order；如果无法得到合法参数，请直接告诉用户需要他提供什么，不要再调用工具。"
    )
    assert result.messages[5].content.startswith("订单号：SN202610200001\n状态：已发货")
    assert (result.finish, result.answer) == ("answer", "已发货。")


def test_a_second_bad_argument_hands_over_instead_of_guessing_again():
    model = ScriptedModel([call("query_order", orderId="202610200001"), call("query_order", orderId="SN20261020000")])
    result = ask(model, "查订单 202610200001", shop=SHOP)
    assert (result.finish, result.answer, len(model.requests)) == ("handover", REPAIR_HANDOVER_ZH, 2)


def test_the_round_limit_ends_with_an_honest_sentence():
    """Seed 003 §4: `while (round < MAX_ROUNDS)` with MAX_ROUNDS = 5 — five model requests, then the
    hand-over sentence."""
    model = ScriptedModel([call("query_order", orderId=f"SN20261020000{i}") for i in range(1, 8)])
    result = ask(model, "把所有订单都查一遍", shop=SHOP)
    assert (result.finish, result.answer, len(model.requests)) == ("handover", HANDOVER_ZH, 5)


@pytest.mark.parametrize(
    "question, calls, rounds, says",
    [
        ("帮我查一下订单 SN202610200001 现在到哪了？", ["query_logistics"], 2, "运输中"),
        ("SN202610209999 的订单状态", ["query_order"], 2, "确认订单号"),
        ("你好", [], 1, "您好"),
    ],
)
def test_the_seed_chat_demo_on_the_embedded_gateway(question, calls, rounds, says):
    result = ask(fake_client(), question, shop=SHOP)
    assert [e.call.name for e in result.executions] == calls
    assert len(result.rounds) == rounds and says in result.answer
