"""`toolkit.gateway.templates`: a rules file's texts are checked when it is loaded, so a text the gateway could not
fill is the teacher's one line then, not a request's `KeyError` (a 500 over HTTP) or a reply of hundreds of MB."""

from pathlib import Path

import pytest

from toolkit.chat.switch import fake_client
from toolkit.errors import ConfigurationError
from toolkit.gateway.core import GatewayConfig
from toolkit.gateway.rules import load_rules
from toolkit.gateway.server import Gateway

COURSE_RULES = (Path(__file__).parent.parent / "data" / "gateway_rules.toml").read_text(encoding="utf-8")
WITH_ID = 'with_id = "订单 {order_id} "'
NOT_FOUND = "抱歉，没有查到{order}的信息。请您确认订单号是否正确（SN 开头加 12 位数字）。"
DEFAULT = 'default = "您好！我是售后助手，可以帮您查询订单状态、物流进度和退换货政策。请问有什么可以帮您？"'


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            WITH_ID,
            'with_id = "订单 {orderid} "',
            "[order_ref] with_id '订单 {orderid} ' uses {orderid}; only {order_id} is filled there",
        ),
        (
            WITH_ID,
            'with_id = "订单 {order_id.__class__} "',
            "[order_ref] with_id '订单 {order_id.__class__} ' uses {order_id.__class__}; only {order_id} is filled there",
        ),
        (
            WITH_ID,
            'with_id = "订单 {order_id "',
            "[order_ref] with_id '订单 {order_id ': expected '}' before end of string; write a brace itself as {{ or }}",
        ),
        (
            WITH_ID,
            'with_id = "订单 {order} "',
            "[order_ref] with_id '订单 {order} ' uses {order}; only {order_id} is filled there",
        ),
        ('without_id = "订单"\n', "", '[order_ref] has no without_id; the gateway needs it: write without_id = "…"'),
        (DEFAULT, "", '[replies] has no default; the gateway needs it: write default = "…"'),
        (DEFAULT, "default = 5", "[replies] default is int, not text; write it in quotes"),
        (
            DEFAULT,
            'default = "您好 {field}"',
            "[replies] default '您好 {field}' uses {field}; only {order}, {order_id}, {summary} are filled there",
        ),
        (
            NOT_FOUND,
            NOT_FOUND.replace("{order}", "{order:>300000000}"),
            "template '抱歉，没有查到{order:>300000000}的信息。请您确认订单号是否正确（SN 开头加 12 位数字）。' writes "
            "{order:>300000000}; write the placeholder alone: {order}",
        ),
        (
            'ask_field = "请告诉我“{field}”',
            'ask_field = "请告诉我“{field!r}”',
            "[replies] ask_field '请告诉我“{field!r}”应该填什么，您的消息里没有提到。' writes {field!r}; write the placeholder "
            "alone: {field}",
        ),
    ],
)
def test_a_text_the_gateway_could_not_fill_is_refused_when_the_rules_are_loaded(tmp_path, old, new, problem):
    assert old in COURSE_RULES
    path = tmp_path / "rules.toml"
    path.write_text(COURSE_RULES.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ConfigurationError) as raised:
        load_rules(path)
    assert str(raised.value) == f"gateway rules {path}: ValueError: {problem}"


def test_the_course_rules_and_placeholders_written_plainly_still_load_and_answer(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text(COURSE_RULES.replace(WITH_ID, 'with_id = "{{订单}} {order_id} "', 1), encoding="utf-8")
    client = fake_client(gateway=Gateway(config=GatewayConfig(rules=load_rules(path))))
    answer = client.chat("帮我查一下订单 SN202610200001").message.content
    assert answer == "抱歉，我现在无法查询{订单} SN202610200001 的信息，请稍后再试或联系人工客服。"
