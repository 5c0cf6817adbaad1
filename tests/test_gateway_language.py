"""toolkit.gateway.language: a text with no Chinese in it is answered in English, whatever else it holds."""

import pytest
from test_gateway_generic_asks import CONVERT, WEATHER, fn, turn

from toolkit.gateway.language import in_english


@pytest.mark.parametrize("text", ["weather in Paris", "how much is ¥5000 in GBP", "café in Zürich", "50 € → $"])
def test_a_text_without_cjk_is_english(text):
    assert in_english(text)


@pytest.mark.parametrize("text", ["北京天气", "ＡＢＣ", "東京の天気", "서울 날씨", "price「A」", "100。"])
def test_a_text_with_cjk_is_not(text):
    assert not in_english(text)


def test_a_question_with_a_currency_sign_is_asked_back_in_english():
    """ "how much is ¥5000 in GBP" was asked back "请问另一边是哪种货币…": "¥" made the text non-ASCII, and a
    non-ASCII text was read as Chinese."""
    assert turn("how much is ¥5000 in GBP", [CONVERT]) == (
        [],
        "Which currency do you want on the other side (for example EUR or JPY)? Your message names only one.",
    )


def test_an_accented_question_no_tool_answers_is_answered_in_english():
    calendar = fn("list_events", "List calendar events", {"day": {"type": "string"}})
    assert turn("Olá, what's a good café in Zürich?", [calendar]) == (
        [],
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return "
        "policy. How can I help?",
    )


def test_a_chinese_question_is_still_asked_back_in_chinese():
    assert turn("天气怎么样？", [WEATHER]) == ([], "请问您想查询哪个城市（或地点）？告诉我之后我再为您查询。")


def test_a_result_is_answered_in_english_for_an_accented_question():
    from toolkit.gateway.core import GatewayConfig, respond

    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Zürich"}'}}
    messages = [
        {"role": "user", "content": "weather in Zürich?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"temp_c": 3}'},
    ]
    reply = respond({"model": "m", "messages": messages, "tools": [WEATHER]}, GatewayConfig())
    assert reply.body["choices"][0]["message"]["content"] == "Here is what I found: temp_c: 3."
