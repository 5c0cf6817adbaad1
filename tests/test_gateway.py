"""The fake gateway's core: `respond()` and `handle_http()`, checked against the openai SDK's types."""

import json
import os

import pytest
from openai.types import Model
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from toolkit.errors import ConfigurationError
from toolkit.gateway.core import GatewayConfig, handle_http, respond
from toolkit.gateway.rules import load_rules
from toolkit.gateway.server import Gateway
from toolkit.tokens import estimate_tokens

PROBE = "帮我查一下订单 SN202610200001 现在到哪了？"
ORDER_ARGS = '{"orderId":"SN202610200001"}'


def tool(name, **properties):
    props = {p: {"type": "string"} for p in properties or {"orderId": 1}}
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": name,
            "parameters": {"type": "object", "properties": props, "required": list(props)[:1]},
        },
    }


QUERY_ORDER = tool("query_order")
ALL_TOOLS = [QUERY_ORDER, tool("query_logistics"), tool("query_refund_policy", category=1, asOf=1)]


def ask(text, tools=(QUERY_ORDER,), mode="A", **extra):
    request = {"model": "m", "messages": [{"role": "user", "content": text}], **extra}
    if tools:
        request["tools"] = list(tools)
    return respond(request, GatewayConfig(mode=mode))


def message(reply):
    assert reply.status == 200, reply.body
    return ChatCompletion.model_validate(reply.body).choices[0].message


def called(reply):
    return [(c.function.name, c.function.arguments) for c in message(reply).tool_calls or ()]


def post(body, *, headers=None, fault=None, config=GatewayConfig(), raw=None):
    data = raw if raw is not None else json.dumps(body, ensure_ascii=False).encode()
    return handle_http(
        "POST", "/v1/chat/completions", {"Content-Type": "application/json", **(headers or {})}, data, config, fault
    )


def error(reply):
    """The error body, after checking it has exactly OpenAI's four fields."""
    body = json.loads(reply.encode())
    assert set(body) == {"error"} and set(body["error"]) == {"message", "type", "param", "code"}
    return body["error"]


# --- modes A–E (seed 003 §1) -------------------------------------------------------------------


def test_mode_a_calls_the_tool_with_valid_json_arguments():
    reply = ask(PROBE)
    completion = ChatCompletion.model_validate(reply.body)
    assert completion.choices[0].finish_reason == "tool_calls"
    assert completion.choices[0].message.content is None
    assert called(reply) == [("query_order", ORDER_ARGS)]
    assert completion.choices[0].message.tool_calls[0].id.startswith("call_")


def test_mode_b_accepts_tools_but_only_promises_to_look():
    reply = ask(PROBE, mode="B")
    assert message(reply).content == "好的，我来帮您查询订单 SN202610200001 的状态，请稍等。"
    assert message(reply).tool_calls is None
    assert reply.body["choices"][0]["finish_reason"] == "stop"


def test_mode_c_rejects_tools_with_400():
    reply = ask(PROBE, mode="C")
    assert reply.status == 400
    assert error(reply) == {
        "message": "unknown field: tools",
        "type": "invalid_request_error",
        "param": "tools",
        "code": "unknown_field",
    }


def test_mode_c_still_answers_requests_without_tools():
    assert message(ask("你好", tools=(), mode="C")).content.startswith("您好！我是售后助手")


def test_mode_d_ignores_tools_and_invents_a_status():
    reply = ask(PROBE, mode="D")
    assert message(reply).content == "您的订单 SN202610200001 已发货，正在运输途中，预计明天送达。"
    assert message(reply).tool_calls is None


def test_mode_e_returns_tool_calls_whose_arguments_are_not_json():
    [(name, arguments)] = called(ask(PROBE, mode="E"))
    assert (name, arguments) == ("query_order", "{orderId: SN202610200001}")
    with pytest.raises(json.JSONDecodeError):
        json.loads(arguments)


def test_modes_differ_only_where_they_should():
    texts = {mode: message(ask("你好", mode=mode)).content for mode in "ABDE"}
    assert len(set(texts.values())) == 1  # nothing to call: every mode just talks


def test_an_unknown_mode_is_a_configuration_error():
    with pytest.raises(ConfigurationError, match="unknown mode 'F'"):
        GatewayConfig(mode="F")


# --- the keyword rules -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        (PROBE, ["query_logistics"]),
        ("SN202610200002 这个快递怎么三天没动了", ["query_logistics"]),
        ("SN202610200003 的订单状态和物流", ["query_order", "query_logistics"]),  # parallel, rules order
        ("查下 SN202610200005 付款金额", ["query_order"]),
        ("SN202610200001", ["query_order"]),  # an order id alone: the fallback tool
        ("都五天了还没到！！你们这什么效率 SN202610200004", ["query_logistics"]),
        ("你好，SN202610200001 到哪了", ["query_logistics"]),  # a greeting gives way
        ("退货的运费谁出", ["query_refund_policy"]),
        ("衣服买了十五天还能不能换", []),  # Chinese numeral: the rules miss it, and that stays so
        ("衣服买了15天还能不能换", ["query_refund_policy"]),
    ],
)
def test_intents_pick_tools(text, expected):
    assert [name for name, _ in called(ask(text, tools=ALL_TOOLS))] == expected


def test_refund_policy_arguments_come_from_category_and_date():
    assert called(ask("手机 2026-10-01 买的能不能退", tools=ALL_TOOLS)) == [
        ("query_refund_policy", '{"category":"数码","asOf":"2026-10-01"}')
    ]
    assert called(ask("退货的运费谁出", tools=ALL_TOOLS)) == [("query_refund_policy", "{}")]


def test_arguments_follow_the_tools_own_parameter_names():
    snake = tool("query_order", order_id=1)
    assert called(ask(PROBE, tools=[snake])) == [("query_order", '{"order_id":"SN202610200001"}')]


@pytest.mark.parametrize(
    "text, reply",
    [
        ("你好", "您好！我是售后助手，可以帮您查询订单状态、物流进度和退换货政策。请问有什么可以帮您？"),
        ("谢谢", "不客气！还有其他问题随时找我。"),
        (
            "我要投诉 SN202610200001 的物流",
            "非常抱歉给您带来不好的体验。投诉需要由人工客服受理，请联系人工客服，他们会尽快为您处理。",
        ),
        (
            "帮我把 SN202610200001 这个订单退款",
            "这个操作需要人工客服为您办理，我这边只能查询订单、物流和退换货政策，无法直接操作。请联系人工客服处理。",
        ),
        ("帮我取消订单 SN202610200001", None),
        ("SN202610200001 帮我改一下收货地址", None),
    ],
)
def test_should_not_call_rules_answer_in_text(text, reply):
    answer = message(ask(text, tools=ALL_TOOLS))
    assert answer.tool_calls is None
    if reply:
        assert answer.content == reply
    else:
        assert "人工客服" in answer.content


def test_a_missing_order_id_is_asked_for():
    answer = message(ask("帮我查一下物流", tools=ALL_TOOLS))
    assert (answer.content, answer.tool_calls) == ("请提供您的订单号（SN 开头加 12 位数字），我来帮您查询。", None)


def test_an_order_id_alone_borrows_the_intent_of_the_turn_before():
    request = {
        "model": "m",
        "tools": ALL_TOOLS,
        "messages": [
            {"role": "user", "content": "帮我查一下物流"},
            {"role": "assistant", "content": "请提供您的订单号"},
            {"role": "user", "content": "SN202610200001"},
        ],
    }
    assert called(respond(request, GatewayConfig())) == [("query_logistics", ORDER_ARGS)]


@pytest.mark.parametrize(
    ("before", "now", "tool"),
    [
        ("SN202610200001 发货了吗？", "那它现在到哪了？", "query_logistics"),
        ("SN202610200001 到哪了", "那它付了多少钱？", "query_order"),
        ("我的订单是 SN202610200001", "快递到哪了", "query_logistics"),
    ],
)
def test_a_question_without_an_order_id_takes_the_one_of_the_turn_before(before, now, tool):
    """The question "那它现在到哪了？" after "SN202610200001 发货了吗？" was asked for the order id just given."""
    request = {
        "model": "m",
        "tools": ALL_TOOLS,
        "messages": [
            {"role": "user", "content": before},
            {"role": "assistant", "content": "好的。"},
            {"role": "user", "content": now},
        ],
    }
    assert called(respond(request, GatewayConfig())) == [(tool, ORDER_ARGS)]
    # the answer from its result names the order, as it does when the question named it
    call = {"id": "c1", "type": "function", "function": {"name": tool, "arguments": ORDER_ARGS}}
    request["messages"] += [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "订单不存在"},
    ]
    assert "SN202610200001" in message(respond(request, GatewayConfig())).content


def test_a_question_takes_no_order_id_from_further_back_or_for_a_tool_that_needs_none():
    request = {
        "model": "m",
        "tools": ALL_TOOLS,
        "messages": [
            {"role": "user", "content": "SN202610200001 发货了吗？"},
            {"role": "assistant", "content": "好的。"},
            {"role": "user", "content": "你好"},
            {"role": "assistant", "content": "您好！"},
            {"role": "user", "content": "快递到哪了"},
        ],
    }
    assert (
        message(respond(request, GatewayConfig())).content == "请提供您的订单号（SN 开头加 12 位数字），我来帮您查询。"
    )
    request["messages"] = [
        request["messages"][0],
        request["messages"][1],
        {"role": "user", "content": "衣服能换货吗？"},
    ]
    assert called(respond(request, GatewayConfig())) == [("query_refund_policy", '{"category":"服装"}')]


def test_only_offered_tools_are_called():
    assert called(ask(PROBE, tools=[tool("query_refund_policy", category=1)])) == []
    answer = message(ask(PROBE, tools=()))
    assert answer.content == "抱歉，我现在无法查询订单 SN202610200001 的信息，请稍后再试或联系人工客服。"
    answer = message(ask("退货的运费谁出", tools=[QUERY_ORDER]))
    assert answer.content == "抱歉，这个问题我现在无法查询，请稍后再试或联系人工客服。"


def test_an_order_id_must_have_exactly_twelve_digits():
    assert called(ask("SN2026102000011 到哪了", tools=ALL_TOOLS)) == []


def test_a_tool_named_in_the_text_is_called_with_the_json_after_it():
    text = '调用 query_logistics {"orderId": "SN202610200009"}'
    assert called(ask(text, tools=ALL_TOOLS)) == [("query_logistics", '{"orderId":"SN202610200009"}')]


CONVERT = {
    "type": "function",
    "function": {
        "name": "convert",
        "description": "Convert money.",
        "parameters": {
            "type": "object",
            "properties": {"amount": {"type": "number"}, "to": {"type": "string", "enum": ["USD", "EUR"]}},
            "required": ["amount"],
        },
    },
}


def test_a_tool_no_rule_names_named_without_json_gets_its_required_arguments_from_the_text():
    # as a keyword-picked tool does: a learner trying their own tool by its name gets a valid call
    # (and the optional `to` the text names a value of: EUR)
    assert called(ask("convert 10.5 to EUR please", tools=[CONVERT])) == [("convert", '{"amount":10.5,"to":"EUR"}')]
    assert called(ask("please convert 25", tools=[*ALL_TOOLS, CONVERT])) == [("convert", '{"amount":25}')]


def test_a_named_tool_keeps_the_json_after_it_and_a_shop_tool_keeps_the_facts():
    # the JSON a user wrote is sent as written, even incomplete; a shop tool named without JSON
    # gets only the facts (week 3 shows the tool itself refusing a call without an order id)
    assert called(ask('convert {"to": "EUR"}', tools=[CONVERT])) == [("convert", '{"to":"EUR"}')]
    assert called(ask("调用 query_logistics", tools=ALL_TOOLS)) == [("query_logistics", "{}")]


def test_a_strict_shop_tool_named_without_json_gets_every_required_argument_too():
    # strict mode promises calls that match the schema (platform.openai.com/docs/guides/function-calling#strict-mode),
    # so the lenient call above is for tools without strict only; the facts' values are kept
    def strict(name, **properties):
        spec = tool(name, **properties)["function"]
        parameters = {**spec["parameters"], "required": list(properties), "additionalProperties": False}
        return {"type": "function", "function": {**spec, "parameters": parameters, "strict": True}}

    logistics = strict("query_logistics", orderId=1, carrier=1)
    assert called(ask("调用 query_logistics", tools=[logistics])) == [
        ("query_logistics", '{"orderId":"调用 query_logistics","carrier":"调用 query_logistics"}')
    ]
    assert called(ask(PROBE, tools=[strict("query_order", orderId=1, note=1)])) == [
        ("query_order", '{"orderId":"SN202610200001","note":"' + PROBE + '"}')
    ]


# --- tool_choice and parallel_tool_calls -------------------------------------------------------


def test_tool_choice_none_never_calls():
    assert called(ask(PROBE, tool_choice="none")) == []


def test_tool_choice_required_calls_even_a_greeting_with_every_required_argument():
    # no fact to fill the required field: a string gets the user's own words (as a model invents one)
    assert called(ask("你好", tools=ALL_TOOLS, tool_choice="required")) == [("query_order", '{"orderId":"你好"}')]
    assert called(ask("退货运费谁出", tools=ALL_TOOLS, tool_choice="required")) == [
        ("query_refund_policy", '{"category":"退货运费谁出"}')
    ]


def test_tool_choice_function_calls_that_function():
    choice = {"type": "function", "function": {"name": "query_order"}}
    assert called(ask(PROBE, tools=ALL_TOOLS, tool_choice=choice)) == [("query_order", ORDER_ARGS)]


def test_tool_choice_naming_an_absent_tool_is_400():
    choice = {"type": "function", "function": {"name": "nope"}}
    assert error(ask(PROBE, tool_choice=choice))["message"] == (
        "Invalid value for 'tool_choice': tool 'nope' is not among the 'tools' of this request."
    )


def test_parallel_tool_calls_false_keeps_the_first_call():
    text = "SN202610200003 的订单状态和物流"
    assert [n for n, _ in called(ask(text, tools=ALL_TOOLS, parallel_tool_calls=False))] == ["query_order"]


# --- answering from tool results ---------------------------------------------------------------


def after_tool(result, *, call_id="call_1", answered="call_1"):
    return {
        "model": "m",
        "tools": ALL_TOOLS,
        "messages": [
            {"role": "user", "content": PROBE},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": "query_logistics", "arguments": ORDER_ARGS},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": answered, "content": result},
        ],
    }


def test_a_result_is_summarised_without_the_sentences_meant_for_the_model():
    result = "订单号：SN202610200001\n物流公司：顺丰\n当前位置：上海转运中心。请不要编造物流轨迹。\n收件人：张**"
    answer = message(respond(after_tool(result), GatewayConfig()))
    assert answer.content == "为您查到：订单号：SN202610200001；物流公司：顺丰；当前位置：上海转运中心。"


def test_a_not_found_result_asks_to_confirm_the_id():
    result = "订单不存在：订单号 SN202610209999 在系统中查不到。请向用户确认订单号是否正确。"
    answer = message(respond(after_tool(result), GatewayConfig()))
    assert answer.content == "抱歉，没有查到订单 SN202610209999 的信息。请您确认订单号是否正确（SN 开头加 12 位数字）。"


def test_an_orphan_tool_result_is_400_naming_the_id():
    reply = respond(after_tool("x", answered="call_zzz"), GatewayConfig())
    assert reply.status == 400
    assert error(reply) == {
        "message": "Invalid parameter: messages with role 'tool' must be a response to a preceding "
        "message with 'tool_calls'. No earlier tool call with tool_call_id 'call_zzz' "
        "is waiting for a result.",
        "type": "invalid_request_error",
        "param": "messages[2].tool_call_id",
        "code": "invalid_tool_call_id",
    }


def test_a_tool_result_without_tool_call_id_is_400():
    request = after_tool("x")
    del request["messages"][2]["tool_call_id"]
    assert error(respond(request, GatewayConfig()))["message"] == (
        "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'."
    )


def test_a_tool_call_left_without_result_is_400():
    request = after_tool("x")
    request["messages"][2] = {"role": "user", "content": "?"}
    assert error(respond(request, GatewayConfig()))["message"] == (
        "An assistant message with 'tool_calls' must be followed by tool messages responding to "
        "each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1"
    )


# --- the prompt protocol (no `tools`; tools described in the system prompt) --------------------


def test_prompt_protocol_calls_in_text_then_reads_the_result():
    system = '需要调用工具时，只输出一行 JSON：{"tool":…,"args":…}\n1) query_order\n2) query_logistics'
    messages = [{"role": "system", "content": system}, {"role": "user", "content": PROBE}]
    first = message(respond({"model": "m", "messages": messages}, GatewayConfig(mode="C")))
    assert first.content == '好的，我来查一下：{"tool": "query_logistics", "args": {"orderId": "SN202610200001"}}'
    messages += [
        {"role": "assistant", "content": first.content},
        {"role": "user", "content": "订单号：SN202610200001\n当前位置：杭州"},
    ]
    second = message(respond({"model": "m", "messages": messages}, GatewayConfig(mode="C")))
    assert second.content == "为您查到：订单号：SN202610200001；当前位置：杭州。"


def test_prompt_protocol_answers_a_question_asked_in_english_in_english():
    system = '需要调用工具时，只输出一行 JSON：{"tool":…,"args":…}\n1) query_order\n2) query_logistics'
    messages = [
        {"role": "system", "content": system},
        {"role": "user", "content": "Where is my order SN202610200001?"},
        {"role": "assistant", "content": '好的，我来查一下：{"tool": "query_logistics", "args": {}}'},
        {"role": "user", "content": "订单号：SN202610200001\n当前位置：杭州"},
    ]
    answer = message(respond({"model": "m", "messages": messages}, GatewayConfig(mode="C")))
    assert answer.content == "Here is what I found: 订单号：SN202610200001; 当前位置：杭州."


def english_after_tool(result, question="What is the status of order SN202610200001?"):
    request = after_tool(result)
    request["messages"][0] = {"role": "user", "content": question}
    return request


@pytest.mark.parametrize(
    ("result", "answer"),
    [
        ('{"status": "shipped", "eta": "2026-12-08"}', "Here is what I found: status: shipped; eta: 2026-12-08."),
        ("line one\nline two。", "Here is what I found: line one; line two."),
        ("", "Here is what I found: nothing came back."),
        (
            '{"error": "upstream returned 503"}',
            "Sorry, that did not work (error: upstream returned 503). Please try again later, or ask a person for help.",
        ),
    ],
)
def test_a_question_asked_in_english_is_answered_in_english(result, answer):
    """As the gateway's questions back are (`ask_*_en`): it answered "为您查到：…" to an English question."""
    assert message(respond(english_after_tool(result), GatewayConfig())).content == answer


@pytest.mark.parametrize(
    ("result", "english", "chinese"),
    [
        (
            "订单 SN202610200001 不存在",
            "Sorry, I found nothing about order SN202610200001. Please check the order number (SN followed by 12 digits).",
            "抱歉，没有查到订单 SN202610200001 的信息。请您确认订单号是否正确（SN 开头加 12 位数字）。",
        ),
        ("未找到匹配的政策", "This needs a person to confirm: I found no matching policy.", "这个问题需要人工确认"),
    ],
)
def test_the_shops_own_answers_are_in_english_for_a_question_asked_in_english(result, english, chinese):
    """The shop's answers (an order not found, no policy) stayed Chinese for an English question: each has a
    `template_en` now, its `{order}` written in English (`order_ref`'s `with_id_en`); a Chinese question reads
    them as before."""
    assert message(respond(english_after_tool(result), GatewayConfig())).content.startswith(english)
    assert message(respond(after_tool(result), GatewayConfig())).content.startswith(chinese)


@pytest.mark.parametrize(
    ("text", "tools", "english", "chinese"),
    [
        ("hello", (), "Hello! I am the after-sales assistant", "您好！我是售后助手"),
        ("thanks!", (), "You're welcome!", "不客气！"),
        ("Where is my parcel? 物流", (QUERY_ORDER,), None, None),  # not ASCII: as written
        ("Where is my order SN202610200001?", (), "Sorry, I cannot look up order SN202610200001 right now.", None),
        ("I want to complain, 投诉", (QUERY_ORDER,), None, None),
        ("I love the rain", (), "Hello! I am the after-sales assistant", None),
    ],
)
def test_the_shops_text_replies_are_in_english_for_a_question_asked_in_english(text, tools, english, chinese):
    """ "hello", "thanks!", "I love the rain" were answered in Chinese: an ASCII question reads a reply's `_en`
    variant (`default_en`, `cannot_lookup_en`) and a decline's `reply_en`, as the `ask_*_en` questions are read."""
    content = message(ask(text, tools=tools)).content
    if english is not None:
        assert content.startswith(english)
    else:
        assert not content.isascii()


# --- streaming ---------------------------------------------------------------------------------


def events_of(reply):
    text = reply.encode().decode()
    assert text.endswith("data: [DONE]\n\n") != reply.truncated
    blocks = [b for b in text.split("\n\n") if b]
    assert all(b.startswith("data: ") for b in blocks)
    return [ChatCompletionChunk.model_validate_json(b[6:]) for b in blocks if b != "data: [DONE]"]


def test_a_stream_carries_the_same_tool_call_in_fragments():
    plain = ask(PROBE).body
    chunks = events_of(ask(PROBE, stream=True, stream_options={"include_usage": True}))
    assert chunks[0].choices[0].delta.role == "assistant"
    header = chunks[1].choices[0].delta.tool_calls[0]
    call = plain["choices"][0]["message"]["tool_calls"][0]
    assert (header.index, header.id, header.type, header.function.name, header.function.arguments) == (
        0,
        call["id"],
        "function",
        "query_order",
        "",
    )
    fragments = [c.choices[0].delta.tool_calls[0].function.arguments for c in chunks[2:-2]]
    assert len(fragments) > 2 and "".join(fragments) == ORDER_ARGS
    assert chunks[-2].choices[0].finish_reason == "tool_calls"
    assert chunks[-1].choices == [] and chunks[-1].usage.model_dump(exclude_none=True) == plain["usage"]
    assert {c.id for c in chunks} == {plain["id"]}


def test_a_stream_without_usage_counts_no_tokens_and_one_with_usage_counts_them_as_a_plain_reply():
    assert ask(PROBE, stream=True).events.turn.usage == {}  # not counted: nothing would send them
    assert ask(PROBE, stream=True, stream_options={"include_usage": True}).events.turn.usage == ask(PROBE).body["usage"]
    assert ask(PROBE, stream=True).encode() == ask(PROBE, stream=True, stream_options={"include_usage": False}).encode()


def test_a_text_stream_comes_in_small_deltas_without_usage_unless_asked():
    chunks = events_of(ask("你好", stream=True))
    text = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert text == message(ask("你好")).content and len(chunks) > 5
    assert all(c.usage is None for c in chunks) and chunks[-1].choices[0].finish_reason == "stop"


def test_stream_options_without_stream_is_400():
    assert error(ask(PROBE, stream_options={"include_usage": True}))["message"] == (
        "The 'stream_options' parameter is only allowed when 'stream' is enabled."
    )


# --- determinism and usage ---------------------------------------------------------------------


def test_the_same_request_gives_the_same_bytes():
    assert ask(PROBE).encode() == ask(PROBE).encode()
    assert ask(PROBE, stream=True).encode() == ask(PROBE, stream=True).encode()
    assert ask(PROBE).body["id"] != ask(PROBE + " ").body["id"]
    assert ask(PROBE).body["created"] == GatewayConfig().created


def test_stray_fields_on_a_user_message_are_ignored():
    request = {"model": "m", "messages": [{"role": "user", "content": PROBE, "tool_calls": [1]}]}
    assert respond(request, GatewayConfig()).status == 200


def test_two_calls_in_one_response_have_different_ids():
    reply = ask("SN202610200003 的订单状态和物流", tools=ALL_TOOLS)
    ids = [c.id for c in message(reply).tool_calls]
    assert len(set(ids)) == 2


def test_usage_is_estimate_tokens_of_messages_tools_and_answer():
    usage = ask(PROBE).body["usage"]
    tools_json = json.dumps([QUERY_ORDER], ensure_ascii=False, separators=(",", ":"))
    assert usage["prompt_tokens"] == estimate_tokens(PROBE) + estimate_tokens(tools_json)
    assert usage["completion_tokens"] == estimate_tokens("query_order" + ORDER_ARGS)
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


# --- the HTTP envelope -------------------------------------------------------------------------

GOOD = {"model": "m", "messages": [{"role": "user", "content": PROBE}], "tools": [QUERY_ORDER]}


def test_post_chat_completions_answers():
    assert called(post(GOOD)) == [("query_order", ORDER_ARGS)]


def test_models_lists_the_one_model():
    reply = handle_http("GET", "/v1/models", {}, b"", GatewayConfig())
    [model] = [Model.model_validate(m) for m in json.loads(reply.encode())["data"]]
    assert model.id == "fake-keyword"


@pytest.mark.parametrize(
    "method, path, status, message_text",
    [
        ("GET", "/v1/chat/completions", 405, "Method GET not allowed for /v1/chat/completions; use POST."),
        ("POST", "/v1/models", 405, "Method POST not allowed for /v1/models; use GET."),
        ("POST", "/v1/completions", 404, "Unknown request URL: POST /v1/completions. Please check the URL for typos."),
    ],
)
def test_routing_errors(method, path, status, message_text):
    reply = handle_http(method, path, {"content-type": "application/json"}, b"{}", GatewayConfig())
    assert (reply.status, error(reply)["message"]) == (status, message_text)


@pytest.mark.parametrize(
    "headers, raw, status, message_text",
    [
        ({"Content-Type": "text/plain"}, b"{}", 415, "Unsupported content type 'text/plain'; send 'application/json'."),
        ({}, b"x" * (64 << 20 | 1), 413, "The request body is larger than 67108864 bytes."),
        (
            {},
            b"{not json",
            400,
            "We could not parse the JSON body of your request: Expecting property name enclosed in double quotes at "
            "line 1, column 2.",
        ),
        ({}, b"[]", 400, "Invalid type for the request body: expected an object, but got an array instead."),
        ({}, b'{"messages": []}', 400, "Missing required parameter: 'model'."),
        (
            {},
            b'{"model": 1, "messages": []}',
            400,
            "Invalid type for 'model': expected a string, but got a number instead.",
        ),
        (
            {},
            b'{"model": "m", "messages": []}',
            400,
            "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        ),
        (
            {},
            b'{"model": "m", "messages": [{"role": "bot", "content": "x"}]}',
            400,
            "Invalid value: 'bot'. Supported values are: 'system', 'developer', 'user', 'assistant', and 'tool'.",
        ),
        (
            {},
            b'{"model": "m", "messages": [{"role": "user"}]}',
            400,
            "Missing required parameter: 'messages[0].content'.",
        ),
        ({"X-Fake-Mode": "Z"}, b"{}", 400, "Unknown x-fake-mode 'Z'; use one of A, B, C, D, E."),
        (
            {"X-Fake-Fault": "boom"},
            b"{}",
            400,
            "Unknown x-fake-fault 'boom'; use one of rate_limit, server_error, slow, truncate.",
        ),
    ],
)
def test_envelope_errors(headers, raw, status, message_text):
    headers = {"Content-Type": "application/json", **headers}
    reply = handle_http("POST", "/v1/chat/completions", headers, raw, GatewayConfig())
    assert (reply.status, error(reply)["message"]) == (status, message_text)
    assert error(reply)["type"] == "invalid_request_error"


HI = b'{"model":"m","messages":[{"role":"user","content":"hi"}],'
CANNOT = "We could not parse the JSON body of your request: "


@pytest.mark.parametrize(
    "raw, message_text, param",
    [
        (HI + b'"temperature":1e999}', CANNOT + "'temperature' is 1e999, which overflows to infinity.", "temperature"),
        (HI + b'"temperature":NaN}', CANNOT + "'temperature' is NaN, which JSON does not allow.", "temperature"),
        (HI + b'"top_p":-Infinity}', CANNOT + "'top_p' is -Infinity, which JSON does not allow.", "top_p"),
        (
            b'{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":'
            b'{"name":"f","parameters":{"type":"object","properties":{"n":{"type":"number","maximum":Infinity}}}}}]}',
            CANNOT + "'tools[0].function.parameters.properties.n.maximum' is Infinity, which JSON does not allow.",
            "tools[0].function.parameters.properties.n.maximum",
        ),
        (b"-1e999", CANNOT + "the body is -1e999, which overflows to infinity.", None),
        (
            b'{"n":' + b"9" * 400 + b"}",
            CANNOT + "'n' is " + "9" * 20 + "… (400 characters), which overflows to infinity.",
            "n",
        ),
    ],
)
def test_a_number_json_cannot_hold_is_named_with_its_parameter(raw, message_text, param):
    """Audit 8 #21: valid UTF-8 and valid JSON syntax, yet the 400 said 'it is not valid UTF-8 JSON'."""
    reply = handle_http("POST", "/v1/chat/completions", {"content-type": "application/json"}, raw, GatewayConfig())
    assert reply.status == 400
    assert error(reply) == {
        "message": message_text + " Send a finite number.",
        "type": "invalid_request_error",
        "param": param,
        "code": "invalid_json",
    }


PAST_64_BITS = "an integer past 64 bits"
INT64 = "9223372036854775807"


@pytest.mark.parametrize(
    "field, literal, message_text, code",
    [
        (
            "seed",
            "18446744073709551621",
            f"Invalid 'seed': integer above maximum value. Expected a value <= {INT64}, but got {PAST_64_BITS} "
            "instead.",
            "integer_above_max_value",
        ),
        (
            "seed",
            "-9223372036854775809",
            f"Invalid 'seed': integer below minimum value. Expected a value >= -{int(INT64) + 1}, but got "
            f"{PAST_64_BITS} instead.",
            "integer_below_min_value",
        ),
        (
            "seed",
            "9223372036854775808",
            f"Invalid 'seed': integer above maximum value. Expected a value <= {INT64}, but got 9223372036854775808 "
            "instead.",
            "integer_above_max_value",
        ),
        (
            "max_tokens",
            "123456789012345678901234",
            f"Invalid 'max_tokens': integer above maximum value. Expected a value <= {INT64}, but got {PAST_64_BITS} "
            "instead.",
            "integer_above_max_value",
        ),
        (
            "max_completion_tokens",
            "-123456789012345678901234",
            f"Invalid 'max_completion_tokens': expected an integer of at least 1, but got {PAST_64_BITS} instead.",
            "invalid_value",
        ),
        (
            "n",
            "18446744073709551621",
            f"Invalid 'n': integer above maximum value. Expected a value <= 128, but got {PAST_64_BITS} instead.",
            "integer_above_max_value",
        ),
        (
            "top_logprobs",
            "18446744073709551621",
            f"Invalid 'top_logprobs': integer above maximum value. Expected a value <= 20, but got {PAST_64_BITS} "
            "instead.",
            "integer_above_max_value",
        ),
    ],
)
def test_an_integer_past_64_bits_is_out_of_range_not_a_number_of_another_type(field, literal, message_text, code):
    """Before: orjson reads an integer past 64 bits as a float, so a 20-digit seed was 'expected an
    integer, but got a number' and a huge max_tokens 'got 1.2345678901234568e+23': untrue of what was sent."""
    raw = HI + f'"logprobs":true,"{field}":{literal}}}'.encode()
    reply = handle_http("POST", "/v1/chat/completions", {"content-type": "application/json"}, raw, GatewayConfig())
    assert (reply.status, error(reply)) == (
        400,
        {"message": message_text, "type": "invalid_request_error", "param": field, "code": code},
    )


def test_a_whole_float_within_64_bits_is_still_a_number_where_an_integer_is_due():
    raw = HI + b'"seed":5.0}'
    reply = handle_http("POST", "/v1/chat/completions", {"content-type": "application/json"}, raw, GatewayConfig())
    assert error(reply)["message"] == "Invalid type for 'seed': expected an integer, but got a number instead."


UTF8_ONLY = "JSON is read as UTF-8 only. Send the body as UTF-8."
SENT = json.dumps({"model": "m", "messages": [{"role": "user", "content": "héllo"}]}, ensure_ascii=False)


@pytest.mark.parametrize(
    "raw, content_type, why",
    [
        (SENT.encode("utf-16"), "application/json", "it is UTF-16 (it starts with UTF-16's byte order mark)"),
        (SENT.encode("utf-16-be"), "application/json", "it is UTF-16 (the zero bytes among its first four say so)"),
        (
            SENT.encode("utf-16-le"),
            "application/json; charset=utf-16le",
            "it is UTF-16 (the zero bytes among its first four say so)",
        ),
        (SENT.encode("utf-32"), "application/json", "it is UTF-32 (it starts with UTF-32's byte order mark)"),
        (SENT.encode("utf-32-le"), "application/json", "it is UTF-32 (the zero bytes among its first four say so)"),
        (
            SENT.encode("latin-1"),
            "application/json; charset=ISO-8859-1",
            "it is not valid UTF-8: its Content-Type says charset=ISO-8859-1",
        ),
    ],
)
def test_a_body_in_another_encoding_is_told_so(raw, content_type, why):
    """Before: a UTF-16 body (PowerShell's, .NET's default) was 'not valid UTF-8 JSON' with a BOM, and
    without one 'Expecting property name enclosed in double quotes at line 1, column 2' (its zero bytes
    are valid UTF-8); a latin-1 body whose header named its charset was not told why."""
    reply = handle_http("POST", "/v1/chat/completions", {"content-type": content_type}, raw, GatewayConfig())
    assert (reply.status, error(reply)["message"], error(reply)["code"]) == (
        400,
        f"{CANNOT}{why}, and {UTF8_ONLY}",
        "invalid_json",
    )


def test_a_charset_named_beside_a_utf8_body_changes_nothing():
    """RFC 8259 defines no charset parameter for application/json: a UTF-8 body is read as UTF-8."""
    reply = handle_http(
        "POST",
        "/v1/chat/completions",
        {"content-type": "application/json; charset=utf-16"},
        SENT.encode(),
        GatewayConfig(),
    )
    assert reply.status == 200


@pytest.mark.parametrize("raw", [b"\xff{}", b'{"a":"\\ud800"}'])
def test_other_bodies_orjson_refuses_keep_the_plain_message(raw):
    reply = handle_http("POST", "/v1/chat/completions", {"content-type": "application/json"}, raw, GatewayConfig())
    assert (reply.status, error(reply)["message"]) == (400, CANNOT + "it is not valid UTF-8 JSON.")


STDLIB_WORDS = object()
"""A row's message is the standard library's own words for the slip (they differ from Python to Python)."""


@pytest.mark.parametrize(
    "raw, message_text",
    [
        (b"[" * 2000 + b"]" * 2000, "it is nested too deeply: more than 1024 levels of arrays and objects."),
        (
            b'{"model":"m","tools":' + b'{"a":' * 1100 + b"1" + b"}" * 1100 + b"}",
            "it is nested too deeply: more than 1024 levels of arrays and objects.",
        ),
        (
            b"\xef\xbb\xbf" + HI[:-1] + b"}",
            "it starts with a byte order mark (BOM), which JSON does not allow. Send it without.",
        ),
        (HI + b'"t":nan}', "Expecting value at line 1, column 62."),
        (HI[:-1] + b",}", STDLIB_WORDS),  # 3.13 words it "Illegal trailing comma before end of object"
        (HI[:-1] + b"} x", "Extra data at line 1, column 59."),
        (
            b'{"model":"m","messages":[{"role":"user","content":"a\tb"}]}',
            "Invalid control character at line 1, column 53.",
        ),
        (
            b'{"model":"m",\n"messages":[{"role":"user","content":"hi}]}',
            "Unterminated string starting at line 2, column 38.",
        ),
        (b"", "Expecting value at line 1, column 1."),
    ],
)
def test_a_body_that_is_no_json_is_told_why_and_where(raw, message_text):
    """Valid UTF-8 JSON nested deeper than the parser goes, or a hand-typed body with a slip (curl by hand),
    was told 'it is not valid UTF-8 JSON', untrue for the one, no help to find the slip in the other."""
    if message_text is STDLIB_WORDS:  # the words of this Python's json module, which change between versions
        with pytest.raises(json.JSONDecodeError) as slip:
            json.loads(raw)
        message_text = f"{slip.value.msg} at line {slip.value.lineno}, column {slip.value.colno}."
    reply = handle_http("POST", "/v1/chat/completions", {"content-type": "application/json"}, raw, GatewayConfig())
    assert error(reply) == {
        "message": CANNOT + message_text,
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_json",
    }


def test_the_mode_header_overrides_the_config():
    assert called(post(GOOD, headers={"X-Fake-Mode": "e"})) == [("query_order", "{orderId: SN202610200001}")]


# --- faults ------------------------------------------------------------------------------------


def test_rate_limit_is_429_with_retry_after():
    reply = post(GOOD, headers={"X-Fake-Fault": "rate_limit"})
    assert (reply.status, reply.headers["retry-after"]) == (429, "1")
    assert error(reply)["code"] == "rate_limit_exceeded"
    assert post(GOOD, fault="rate_limit", config=GatewayConfig(retry_after_s=3)).headers["retry-after"] == "3"


def test_server_error_is_500():
    reply = post(GOOD, fault="server_error")
    assert (reply.status, error(reply)["type"]) == (500, "server_error")


def test_slow_answers_normally_after_a_delay():
    reply = post(GOOD, fault="slow", config=GatewayConfig(slow_delay_s=2.5))
    assert reply.delay_s == 2.5 and called(reply) == [("query_order", ORDER_ARGS)]
    assert post(GOOD, fault="slow").delay_s == 5.0 and post(GOOD).delay_s == 0


def test_truncate_stops_a_stream_in_the_middle_of_the_arguments():
    reply = post({**GOOD, "stream": True}, fault="truncate")
    chunks = events_of(reply)
    assert not reply.encode().endswith(b"data: [DONE]\n\n")
    arguments = "".join(
        c.choices[0].delta.tool_calls[0].function.arguments for c in chunks if c.choices[0].delta.tool_calls
    )
    assert arguments and ORDER_ARGS.startswith(arguments) and arguments != ORDER_ARGS
    assert all(c.choices[0].finish_reason is None for c in chunks)


def test_truncate_cuts_a_plain_body_in_half():
    whole, cut = post(GOOD).encode(), post(GOOD, fault="truncate").encode()
    assert whole.startswith(cut) and 0 < len(cut) < len(whole)
    with pytest.raises(json.JSONDecodeError):
        json.loads(cut)


def test_faults_do_not_touch_the_models_route():
    reply = handle_http("GET", "/v1/models", {"X-Fake-Fault": "server_error"}, b"", GatewayConfig())
    assert reply.status == 200


# --- the rules file ----------------------------------------------------------------------------


def test_a_broken_rules_file_names_itself(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text("[facts\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"gateway rules .*rules.toml: TOMLDecodeError"):
        load_rules(path)


def test_a_rules_file_nested_too_deep_or_a_pipe_is_one_error(tmp_path):
    deep, pipe = tmp_path / "deep.toml", tmp_path / "pipe.toml"
    deep.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    os.mkfifo(pipe)  # opening it to read would wait for a writer forever
    with pytest.raises(ConfigurationError) as caught:
        load_rules(deep)
    assert str(caught.value) == f"gateway rules {deep}: the file nests deeper than TOML can be read here"
    for path in pipe, tmp_path:
        with pytest.raises(ConfigurationError) as caught:
            load_rules(path)
        assert str(caught.value) == f"gateway rules {path}: not a regular file (a folder, a pipe or a device)"


def test_a_template_with_an_unknown_placeholder_is_refused(tmp_path):
    from toolkit import data

    path = tmp_path / "rules.toml"
    path.write_text(
        data.path("gateway_rules.toml").read_text(encoding="utf-8").replace("{summary}。", "{sumary}。"),
        encoding="utf-8",
    )
    with pytest.raises(
        ConfigurationError, match=r"uses \{sumary\}; only \{order\}, \{order_id\}, \{summary\} are filled there"
    ):
        load_rules(path)
    path.write_text(
        data.path("gateway_rules.toml").read_text(encoding="utf-8").replace("found: {summary}.", "found: {sumary}."),
        encoding="utf-8",
    )
    with pytest.raises(ConfigurationError, match=r"uses \{sumary\}; only \{order\}"):  # an English template too
        load_rules(path)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("delta_chars", 0, "GatewayConfig: delta_chars=0; use a whole number of at least 1"),
        ("max_body_bytes", -1, "GatewayConfig: max_body_bytes=-1; use a whole number of at least 1"),
        ("retry_after_s", True, "GatewayConfig: retry_after_s=True; use a whole number of at least 0"),
        ("slow_delay_s", float("nan"), "GatewayConfig: slow_delay_s=nan; use a finite number of seconds, 0 or more"),
        ("slow_delay_s", -1, "GatewayConfig: slow_delay_s=-1; use a finite number of seconds, 0 or more"),
    ],
)
def test_a_config_value_that_would_break_a_reply_is_refused_at_creation(field, value, message):
    """`delta_chars=0` used to crash every streamed reply (a range with step 0)."""
    with pytest.raises(ConfigurationError) as info:
        GatewayConfig(**{field: value})
    assert str(info.value) == message


def test_every_message_the_fast_path_lets_through_passes_the_full_check():
    """`_plain_message` lets the common messages through without `_check_message` (a 34-message
    conversation's check: 141 -> 53 us); whatever it lets through, the full check passes."""
    import random

    from toolkit.gateway import validate

    missing = object()
    calls = [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "c1", "type": "function", "function": {"name": "f"}},
        {"id": 1, "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "c1", "type": "tool", "function": {"name": "f", "arguments": "{}"}},
        {"id": "c1", "function": {"name": "f", "arguments": "{}"}},
        {"id": "c1", "type": "function", "function": {"name": None, "arguments": "{}"}},
        {"id": "c1", "type": "function", "function": "f"},
        "call",
    ]
    choices = {
        "role": ["system", "user", "developer", "assistant", "tool", "bot", None, 1, missing],
        "content": ["hi", "", None, [], [{"type": "text", "text": "x"}], [{"type": "x"}], 1, True, missing],
        "tool_call_id": ["c1", 1, None, missing],
        "tool_calls": [None, [], "x", missing, *([c] for c in calls), calls[:1] * 2, [calls[0], calls[3]]],
        "name": [missing, missing, missing, None, "query_order", "客服", "Support Agent", "a/b", "", 7],
    }
    let_through = 0
    for seed in range(4000):
        rng = random.Random(seed)
        message = {key: value for key, options in choices.items() if (value := rng.choice(options)) is not missing}
        if validate._plain_message(message):
            let_through += 1
            validate._check_message(message, "messages[0]")
    assert let_through > 200
    assert all(
        validate._plain_message(m)
        for m in [
            {"role": "tool", "tool_call_id": "c1", "content": "3"},
            {"role": "assistant", "content": None, "tool_calls": [calls[0]]},
            {"role": "assistant", "content": "done"},
            {"role": "tool", "tool_call_id": "c1", "content": "3", "name": "query_order"},
        ]
    )


FAILED_RESULTS = [
    # the loop's own texts for a failed, unknown, or unrun call (English and Chinese)
    "Tool 'query_logistics' failed: ConnectionError: the logistics service is down",
    "There is no tool named 'track'. Available tools: query_order, query_logistics.",
    "Not executed: the limit on tool round trips (3) was reached.",
    "没有名为 track 的工具。可用的工具：query_order。请只调用这些工具。",
    "未执行：已达到 3 轮工具调用的上限。",
    # the peers' defaults and a JSON error object
    "An error occurred while running the tool. Please try again. Error: timeout",
    "Error executing tool query_logistics: upstream returned 503",
    '{"error": "upstream returned 503"}',
    # an error object as OpenAI's, Google's and most JSON APIs write it, and JSend's status
    '{"error": {"code": 404, "message": "city not found"}}',
    '{"error":{"type":"rate_limit","message":"slow down"}}',
    '{"status": "error", "message": "Rate limit exceeded"}',
    '{"status":"error","code":503}',
    # an error said as such: LangGraph ToolNode's default, a bare exception, a Chinese error line
    "Error: ValueError('city not found')\n Please fix your mistakes.",
    "Error: upstream timeout",
    "ValueError: bad order id",
    "Exception: the service is down",
    "错误：服务暂时不可用",
]


def test_a_result_with_a_null_error_or_a_status_of_ok_is_still_a_finding():
    for result, summary in [
        ('{"error": null, "temp_c": 21}', "error: null；temp_c: 21"),
        ('{"status": "ok", "errors": []}', "status: ok；errors: []"),
    ]:
        assert message(respond(after_tool(result), GatewayConfig())).content == f"为您查到：{summary}。"


@pytest.mark.parametrize("result", FAILED_RESULTS)
def test_a_failed_call_is_not_reported_as_a_finding(result):
    """Mode A answered an error result with "为您查到：<the error>", as if it were the answer."""
    answer = message(respond(after_tool(result), GatewayConfig()))
    assert answer.content.startswith("抱歉，这次查询没有成功（")
    assert answer.content.endswith("）。请稍后再试，或联系人工客服。")
    assert "为您查到" not in answer.content


def test_the_failed_call_answer_keeps_the_error_and_drops_the_sentences_for_the_model():
    result = "未执行：本轮的另一个调用 query_order 出错（TimeoutError），这一轮已停止。请直接告诉用户稍后再试。"
    answer = message(respond(after_tool(result), GatewayConfig()))
    assert answer.content == (
        "抱歉，这次查询没有成功（未执行：本轮的另一个调用 query_order 出错（TimeoutError），这一轮已停止）。"
        "请稍后再试，或联系人工客服。"
    )


def test_the_loop_texts_for_failed_calls_are_the_ones_the_gateway_knows():
    """The markers are the loop's own texts: a change of those texts must not slip past the gateway."""
    from toolkit.loop.texts import EN, ZH
    from toolkit.tools.execute import FAILED

    texts = [
        FAILED.format(tool="t") + "ValueError: x",
        EN.not_run_limit.format(limit=2),
        EN.not_run.format(tool="t", error="ValueError"),
        EN.interrupted.format(error="KeyboardInterrupt"),
        EN.unknown_tool.format(tool="t", available="a"),
        ZH.not_run_limit.format(limit=2),
        ZH.not_run.format(tool="t", error="ValueError"),
        ZH.interrupted.format(error="KeyboardInterrupt"),
        ZH.interrupted_running.format(error="KeyboardInterrupt"),
        ZH.unknown_tool.format(tool="t", available="a"),
    ]
    for text in texts:
        assert message(respond(after_tool(text), GatewayConfig())).content.startswith("抱歉，这次查询没有成功"), text


def test_a_result_that_only_mentions_errors_is_still_a_finding():
    result = "错误码说明：E01 表示地址错误；E02 表示电话错误。"
    answer = message(respond(after_tool(result), GatewayConfig()))
    assert answer.content == "为您查到：错误码说明：E01 表示地址错误；E02 表示电话错误。"


def test_a_rules_file_over_its_cap_is_refused_unread_and_one_at_the_cap_is_read(tmp_path, monkeypatch):
    from toolkit import data
    from toolkit.gateway import rules

    path = tmp_path / "capped_rules.toml"
    path.write_bytes(data.path("gateway_rules.toml").read_bytes())
    size = path.stat().st_size
    monkeypatch.setattr(rules, "MAX_RULES_BYTES", size - 1)
    with pytest.raises(ConfigurationError) as caught:
        load_rules(path)
    assert str(caught.value) == (
        f"gateway rules {path}: the file is {size} bytes, over the cap of {size - 1} bytes "
        "(toolkit.gateway.rules.MAX_RULES_BYTES). Fix: keep a rules file to its patterns and templates "
        "(the course's is about 15 KB)"
    )
    monkeypatch.setattr(rules, "MAX_RULES_BYTES", size)
    assert load_rules(path).order_id.pattern


LONG_ANSWER = {
    "type": "object",
    "properties": {f"p{i}": {"type": "string", "minLength": 10_000} for i in range(100)},
    "required": [f"p{i}" for i in range(100)],
}


def test_the_default_output_limit_is_a_real_models():
    assert GatewayConfig().max_output_tokens == 32_768


@pytest.mark.parametrize("asked", [None, 10**9])
def test_an_answer_longer_than_the_output_limit_is_cut_there_as_a_models_is(asked):
    """Before: a schema of 100 strings of at least 10,000 characters was answered whole (a megabyte,
    250,000 tokens; with n: 8 and a stream, 272 MB built in 28 s): no limit but the request's own.
    Now the answer stops at `max_output_tokens` (or a lower max_tokens), finish_reason "length"."""
    config = GatewayConfig(max_output_tokens=1_000)
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "n": 3}
    request["response_format"] = {"type": "json_schema", "json_schema": {"name": "x", "schema": LONG_ANSWER}}
    if asked is not None:
        request["max_tokens"] = asked
    reply = respond(request, config)
    choices = reply.body["choices"]
    assert [c["finish_reason"] for c in choices] == ["length"] * 3
    assert estimate_tokens(choices[0]["message"]["content"]) == 1_000
    assert reply.body["usage"]["completion_tokens"] == 3 * 1_000


def test_tool_arguments_longer_than_the_output_limit_are_cut_there():
    config = GatewayConfig(max_output_tokens=1_000)
    tool = {"type": "function", "function": {"name": "save_notes", "parameters": LONG_ANSWER}}
    request = {"model": "m", "messages": [{"role": "user", "content": "save notes"}], "tools": [tool]}
    request["tool_choice"] = "required"
    body = respond(request, config).body
    call = body["choices"][0]["message"]["tool_calls"][0]["function"]
    assert body["choices"][0]["finish_reason"] == "length"
    assert estimate_tokens(call["name"] + call["arguments"]) <= 1_000


@pytest.mark.parametrize(
    "target",
    ["http://127.0.0.1:18083/v1/chat/completions", "HTTPS://localhost/v1/chat/completions?api-version=1"],
)
def test_a_request_target_in_absolute_form_is_its_path(target):
    """RFC 9112 3.2.2: a server must accept the absolute form (`POST http://host/v1/chat/completions`,
    as a client sends it through a proxy). Before: 404 'Unknown request URL: POST http://…/v1/chat/
    completions … Did you mean POST /v1/chat/completions?', the very route asked for."""
    body = b'{"model":"m","messages":[{"role":"user","content":"hi"}]}'
    reply = handle_http("POST", target, {"content-type": "application/json"}, body, GatewayConfig())
    assert reply.status == 200 and reply.body["object"] == "chat.completion"
    models = handle_http("GET", "http://127.0.0.1/v1/models", {}, b"", GatewayConfig())
    assert models.status == 200 and models.body["object"] == "list"
    gateway = Gateway(faults=["rate_limit"])  # a chat request: it takes the scheduled fault
    assert gateway.handle("POST", target, {"content-type": "application/json"}, body).status == 429


def test_a_target_with_a_scheme_but_no_path_is_unknown():
    reply = handle_http("POST", "http://127.0.0.1", {"content-type": "application/json"}, b"{}", GatewayConfig())
    assert (reply.status, error(reply)["message"]) == (
        404,
        "Unknown request URL: POST /. Please check the URL for typos.",
    )
