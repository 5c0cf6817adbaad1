"""The prompt-protocol fallback: tools as text, tolerant extraction from chatty replies, strict
validation after extraction, and the same loop on top — against C and D gateways too."""

import datetime
import json

import pytest

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel
from toolkit.chat.switch import fake_client
from toolkit.course.assistant import TOOL_SPECS, ask
from toolkit.course.prompt_protocol import (
    ANSWER_FORMAT,
    ANSWER_JSON,
    PROTOCOL,
    PromptProtocol,
    TextCall,
    extract_call,
    protocol_messages,
    tools_as_text,
)
from toolkit.course.shop import load_shop

SHOP = load_shop(today=datetime.date(2026, 10, 25))
ORDER = TextCall("query_order", '{"orderId": "SN202610200001"}')


@pytest.mark.parametrize(
    "reply",
    [
        '{"tool":"query_order","args":{"orderId":"SN202610200001"}}',
        '好的，我来查一下：{"tool":"query_order","args":{"orderId":"SN202610200001"}}',
        '```json\n{"tool": "query_order", "args": {"orderId": "SN202610200001"}}\n```',
        '我帮您查询。\n```\n{"tool": "query_order",\n "args": {"orderId": "SN202610200001"}}\n```\n稍等片刻。',
        '{"tool":"query_order","args":{"orderId":"SN202610200001"}} // 先查订单状态',
        '需要先查订单。\n{"tool": "query_order", "args": {"orderId": "SN202610200001"}}\n查到后我再告诉您结果。',
        "好的：{“tool”: “query_order”, “args”: {“orderId”: “SN202610200001”}}",
        "{'tool': 'query_order', 'args': {'orderId': 'SN202610200001'}}",
        '{"tool": "query_order", "args": {"orderId": "SN202610200001",},}',
        '{"tool": "query_order", "args": "{\\"orderId\\": \\"SN202610200001\\"}"}',
        '{"name": "query_order", "arguments": {"orderId": "SN202610200001"}}',
        '{"function": {"name": "query_order", "arguments": {"orderId": "SN202610200001"}}}',
        '格式是 {tool, args}，所以：{"tool": "query_order", "args": {"orderId": "SN202610200001"}}',
        '先查订单 {"tool": "query_order", "args": {"orderId": "SN202610200001"}} 再查物流 '
        '{"tool": "query_logistics", "args": {"orderId": "SN202610200001"}}',
        '{"note": "不是调用"} 然后 {"tool": "query_order", "args": {"orderId": "SN202610200001"}}',
    ],
)
def test_one_call_is_found_in_chatty_replies(reply):
    assert extract_call(reply) == ORDER


@pytest.mark.parametrize(
    "reply, found",
    [
        ('{"tool": "query_refund_policy"}', TextCall("query_refund_policy", "{}")),
        ('{"tool": "query_order", "args": "SN202610200001"}', TextCall("query_order", "SN202610200001")),
        ('{"tool": " query_order ", "args": ["SN202610200001"]}', TextCall("query_order", '["SN202610200001"]')),
        (
            '{"tool": "refund_order", "args": {"orderId": "SN202610200001", "amount": 2999}}',
            TextCall("refund_order", '{"orderId": "SN202610200001", "amount": 2999}'),
        ),
    ],
)
def test_extraction_is_lenient_and_leaves_judging_to_validation(reply, found):
    assert extract_call(reply) == found


@pytest.mark.parametrize(
    "reply",
    [
        None,
        "",
        "您好！请问有什么可以帮您？",
        '{"answer": "已发货"}',
        '{"tool": 42}',
        "{tool: query_order}",
        '{"tool": "query_order", "args": {',
        "```json\n```",
        "[1, 2, 3]",
    ],
)
def test_a_plain_answer_has_no_call(reply):
    assert extract_call(reply) is None


def test_tools_as_text_is_the_seeds_manual():
    text = tools_as_text(TOOL_SPECS)
    assert text.startswith(PROTOCOL) and '{"tool":"工具名","args":{...}}' in text
    assert "1) query_order\n用途：查询一个订单本身的信息" in text
    assert "参数 orderId（字符串，必填）：订单号，SN 开头加 12 位数字" in text
    assert "参数 category（字符串，必填，取值：服装 / 数码 / 生鲜 / 家居）" in text
    assert "参数 asOf（字符串，可选）" in text and "3) query_refund_policy" in text
    assert "参数：无" in tools_as_text([{"type": "function", "function": {"name": "ping"}}])


def test_history_becomes_plain_text_messages():
    call = ToolCall(id="text_call_1", name="query_order", arguments='{"orderId": "SN202610200001"}')
    messages = [
        SystemMessage(content="你是客服。"),
        UserMessage(content="查 SN202610200001"),
        AssistantMessage(tool_calls=(call,)),
        ToolResultMessage(tool_call_id="text_call_1", tool_name="query_order", content="状态：已发货"),
    ]
    out = protocol_messages(messages, TOOL_SPECS)
    assert [m.role for m in out] == ["system", "user", "assistant", "user"]
    assert out[0].content.startswith("你是客服。\n\n" + PROTOCOL)
    assert json.loads(out[2].content) == {"tool": "query_order", "args": {"orderId": "SN202610200001"}}
    assert out[3].content == (
        "以下是工具 query_order 的返回结果（请如实告知用户，不要编造；还需要查询时仍然只输出一行 JSON）：\n状态：已发货"
    )
    assert protocol_messages(messages[1:2], TOOL_SPECS)[0].content == tools_as_text(TOOL_SPECS)


def test_the_same_loop_runs_on_top_and_never_sends_tools():
    model = ScriptedModel(
        ['好的，我来查一下：{"tool":"query_logistics","args":{"orderId":"SN202610200004"}}', "还没有发货，请耐心等待。"]
    )
    result = ask(PromptProtocol(model), "SN202610200004 发货了吗", shop=SHOP)
    assert [r.tools for r in model.requests] == [(), ()]
    assert [e.call.name for e in result.executions] == ["query_logistics"]
    assert result.executions[0].call.id == "text_call_1"
    assert "尚未发货" in result.executions[0].result.content and result.answer == "还没有发货，请耐心等待。"
    assert model.requests[1].messages[-1].content.endswith("请告知用户耐心等待，不要编造物流轨迹。")


def test_extraction_is_tolerant_but_validation_stays_strict():
    model = ScriptedModel(
        [
            '```json\n{"tool": "query_order", "args": {"orderId": "SN2026102000011"}}\n```',
            '{"tool": "query_order", "args": {"orderId": "订单号：SN202610200001"}}',
            "已发货。",
        ]
    )
    result = ask(PromptProtocol(model), "SN202610200001 什么状态", shop=SHOP)
    first, second = result.executions
    assert first.result.is_error and first.result.content.startswith(
        '参数校验失败。字段=orderId，收到="SN2026102000011"'
    )
    assert second.result.content.startswith("订单号：SN202610200001\n状态：已发货")
    assert "参数校验失败" in model.requests[1].messages[-1].content


def test_an_invented_tool_gets_the_list_of_real_ones():
    model = ScriptedModel(['{"tool": "refund_order", "args": {"orderId": "SN202610200001"}}', "需要人工处理。"])
    result = ask(PromptProtocol(model), "给 SN202610200001 退款", shop=SHOP)
    assert result.executions[0].error_kind == "unknown_tool"
    assert "可用的工具：query_logistics, query_order, query_refund_policy" in result.executions[0].result.content


@pytest.mark.parametrize("mode", ["C", "D"])
@pytest.mark.parametrize(
    "question, tool, says",
    [
        ("帮我查一下订单 SN202610200001 现在到哪了？", "query_logistics", "运输中"),
        ("买的沙发不喜欢，能退货吗？", "query_refund_policy", "HOME-2026"),
        ("你好", None, "您好"),
    ],
)
def test_gateways_without_tool_support_work_through_the_fallback(mode, question, tool, says):
    result = ask(PromptProtocol(fake_client(mode=mode)), question, shop=SHOP)
    assert [e.call.name for e in result.executions] == ([tool] if tool else [])
    assert says in result.answer and "已发货，正在运输途中" not in result.answer


def find_tool():
    from typing import Literal

    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import tools_from

    @tool("Find orders")
    def find(status: Literal["paid", "shipped"] | None = None, limit: int = 10) -> str:
        return ""

    return tools_from(find)[0]


def test_the_manual_keeps_the_types_and_values_of_optional_and_strict_parameters():
    """An optional `Literal` is `anyOf: [{enum}, {type: null}]`: the manual said 任意值 and lost
    the allowed values; a strict spec's type lists raised TypeError (unhashable list); a `Tool`
    raised AttributeError."""
    find = find_tool()
    normal = tools_as_text([find.spec.to_openai()])
    assert "参数 status（字符串或 null，可选，取值：paid / shipped）" in normal
    assert "参数 limit（整数，可选）" in normal
    strict = tools_as_text([find.spec.to_openai(strict=True)])
    assert "参数 status（字符串或 null，必填，取值：paid / shipped）" in strict
    assert "参数 limit（整数或 null，必填）" in strict
    assert tools_as_text([find]) == tools_as_text([find.spec]) == normal
    listed = {"name": "x", "parameters": {"properties": {"n": {"type": ["integer", "null"], "enum": [1, None]}}}}
    assert "参数 n（整数或 null，可选，取值：1 / null）" in tools_as_text([{"type": "function", "function": listed}])


def test_the_manual_reads_a_parameter_whose_type_is_a_reference():
    """Week 3, section 7: the manual gives each parameter's type ("参数：orderId（字符串，必填，…）").
    An Enum or a model parameter is a `$ref` into `$defs` (as pydantic writes it): the manual said
    任意值 and dropped the Enum's values, and an optional one said "null" (as if null were the only
    value to send); the referenced definition is now read (`#/$defs/…` and `#/definitions/…`)."""
    import enum
    from typing import Optional

    from pydantic import BaseModel

    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import tools_from

    class Category(enum.Enum):
        CLOTHES = "服装"
        DIGITAL = "数码"

    class Address(BaseModel):
        city: str

    @tool("按类别查政策")
    def policy(category: Category, previous: Optional[Category] = None, address: Address | None = None) -> str:
        return ""

    text = tools_as_text(tools_from(policy))
    assert text.splitlines()[-3:] == [
        "参数 category（字符串，必填，取值：服装 / 数码）",
        "参数 previous（字符串或 null，可选，取值：服装 / 数码）",
        "参数 address（对象或 null，可选）",
    ]
    old = {"properties": {"c": {"$ref": "#/definitions/C"}}, "definitions": {"C": {"type": "integer", "enum": [1, 2]}}}
    assert "参数 c（整数，可选，取值：1 / 2）" in tools_as_text(
        [{"type": "function", "function": {"name": "x", "parameters": old}}]
    )


def test_an_escaped_quote_inside_a_string_does_not_end_it():
    """`"q": "say \\"hi\\" }"` ended the string at the escaped quote: the brace inside it closed
    the object early, and the call was not found (the reply became the answer, raw JSON and all)."""
    reply = '好的：{"tool": "query_order", "args": {"note": "他说 \\"到了吗}\\" 呢", "orderId": "SN202610200001"}}'
    found = extract_call(reply)
    assert found is not None and found.tool == "query_order"
    assert json.loads(found.arguments) == {"note": '他说 "到了吗}" 呢', "orderId": "SN202610200001"}


def test_a_name_of_only_whitespace_is_no_call():
    assert extract_call('{"tool": "  ", "args": {}}') is None
    assert extract_call('{"tool": " query_order ", "args": {}}') == TextCall("query_order", "{}")


def test_tool_choice_none_leaves_the_manual_out():
    """With tool_choice="none" the manual still told the model to answer with JSON, and that
    JSON (never extracted) became the answer."""
    model = ScriptedModel(["您好，有什么可以帮您？"])
    PromptProtocol(model).chat([UserMessage(content="你好")], tools=TOOL_SPECS, tool_choice="none")
    assert all(PROTOCOL not in m.content for m in model.requests[0].messages)
    model = ScriptedModel(["您好"])
    PromptProtocol(model).chat([UserMessage(content="你好")], tools=TOOL_SPECS, tool_choice="auto")
    assert model.requests[0].messages[0].content == tools_as_text(TOOL_SPECS)


def test_a_reply_of_unclosed_braces_is_read_within_a_bound(monkeypatch):
    """Each `{` that never closes was read to the end: 3,000 of them took 0.75 s, 20,000 took 15 s."""
    from toolkit.course import prompt_protocol

    read = []
    plain = prompt_protocol._balanced

    def counting(text, start, most=None):
        read.append(min(len(text) - start, most if most is not None else len(text)))
        return plain(text, start) if most is None else plain(text, start, most)

    monkeypatch.setattr(prompt_protocol, "_balanced", counting)
    reply = "{" * 3_000 + " ok"
    assert prompt_protocol.extract_call(reply) is None
    assert sum(read) <= prompt_protocol._SCAN_PER_CHAR * len(reply) + prompt_protocol._SCAN_EXTRA


def test_a_call_after_a_few_unclosed_braces_is_still_found():
    from toolkit.course.prompt_protocol import TextCall, extract_call

    reply = 'Thinking { maybe { not sure. I\'ll call: {"tool": "query_order", "args": {"orderId": "SN1"}}'
    assert extract_call(reply) == TextCall("query_order", '{"orderId": "SN1"}')


@pytest.mark.parametrize("body", ["a" * 100_000, " " * 100_000, "json" + " " * 50_000 + "\n"])
def test_a_fence_left_open_before_a_long_reply_is_read_in_linear_time(body):
    """The fence's tag, blanks and line break were given back one at a time, the body searched to
    the end for each: 69 s on "```" and 100,000 blanks."""
    assert extract_call("```" + body) is None


@pytest.mark.parametrize(
    "reply, found",
    [
        (  # the reasoning quotes a call, the reply is a greeting: no call
            '<think>用户只是打招呼。需要查订单时我才输出 {"tool":"query_order","args":{"orderId":"SN202610200001"}}'
            "，这里不需要。</think>\n\n您好！请问有什么可以帮您？",
            None,
        ),
        (  # the reasoning recites the format; the call is after it
            '<think>格式是 {"tool":"工具名","args":{}}，应该查物流。</think>\n{"tool":"query_order","args":{"orderId":"SN202610200001"}}',
            ORDER,
        ),
        (  # the chat template opened the block: only its end is in the reply (DeepSeek-R1 distills)
            '嗯，格式是 {"tool":"工具名","args":{}}。\n</think>\n\n{"tool":"query_order","args":{"orderId":"SN202610200001"}}',
            ORDER,
        ),
        (
            '<THINKING>{"tool":"query_logistics","args":{}}</THINKING>{"tool":"query_order","args":{"orderId":"SN202610200001"}}',
            ORDER,
        ),
        (
            '<think>我应该调用 {"tool":"query_order","args":{"orderId":"SN202610200001"}} 吗',
            None,
        ),  # cut off while thinking
        (  # an opening tag inside a string, not at the start: text as it is
            '{"tool":"query_order","args":{"orderId":"SN202610200001","note":"<think>"}}',
            TextCall("query_order", '{"orderId": "SN202610200001", "note": "<think>"}'),
        ),
    ],
)
def test_a_call_in_the_models_reasoning_is_not_its_call(reply, found):
    """Reasoning models served without a reasoning parser (DeepSeek-R1, QwQ, Qwen3 on Ollama or
    vLLM) write their thinking into the reply inside <think>…</think>: a call quoted there was
    taken as the call (a greeting became a lookup, the format's example `工具名` a call)."""
    assert extract_call(reply) == found


def test_a_reply_of_reasoning_tags_is_read_in_linear_time():
    assert extract_call("<think>" * 50_000 + '{"tool":"query_order"}') is None
    assert extract_call("</think>" * 50_000 + '{"tool":"query_order"}') == TextCall("query_order", "{}")


def test_a_reasoning_model_that_needs_no_tool_makes_no_call():
    model = ScriptedModel(['<think>打招呼，不用 {"tool":"query_order","args":{}}。</think>您好！'])
    result = ask(PromptProtocol(model), "你好", shop=SHOP)
    assert result.executions == () or list(result.executions) == []
    assert result.answer.endswith("您好！")


@pytest.mark.parametrize(
    "reply",
    [
        '{\n  "tool": "query_order",  // 查询订单\n  "args": {"orderId": "SN202610200001"}\n}',
        '```json\n// 先查订单\n{"tool": "query_order", /* 订单工具 */ "args": {"orderId": "SN202610200001"}}\n```',
        '{"tool": "query_order", // it\'s the order tool\n "args": {"orderId": "SN202610200001"}}',
        '{"tool": "query_order", "args": {"orderId": "SN202610200001"} /* 不需要其它参数 */}',
    ],
)
def test_comments_in_the_calls_json_are_read_past(reply):
    """Models annotate JSON with // and /* */ comments: the call was not found, and the commented
    JSON became the answer the user read (an apostrophe in a comment also broke the brace count)."""
    assert extract_call(reply) == ORDER


@pytest.mark.parametrize(
    "reply, found",
    [
        (
            '{"tool": "query_order", "args": {"orderId": "SN202610200001", "note": "see http://x/*y*/ // z"}}',
            TextCall("query_order", '{"orderId": "SN202610200001", "note": "see http://x/*y*/ // z"}'),
        ),
        ('参考 {链接 http://a.com} 然后 {"tool": "query_order", "args": {"orderId": "SN202610200001"}}', ORDER),
        ('{"tool": "query_order", /* never closed "args": {"orderId": "SN202610200001"}}', None),
    ],
)
def test_comment_marks_inside_strings_are_text_and_an_unclosed_comment_hides_the_rest(reply, found):
    assert extract_call(reply) == found


def test_a_reply_of_comment_marks_is_read_in_linear_time():
    assert extract_call("{" + "/*" * 50_000) is None
    assert extract_call("{" * 20_000 + "//" + "a" * 50_000) is None


def test_a_json_schema_answer_format_is_asked_in_words_while_tools_are_offered():
    """Before: a structured service's `response_format` went on to the gateway with the manual, so a
    gateway that enforces it (grammar-constrained decoding) could only write the answer's shape,
    never the {"tool": …} line: the tools were never called. Now, while tools are offered, the
    schema is in the system prompt instead; with no tools (tool_choice="none") it is sent as given."""
    schema = {"type": "object", "properties": {"status": {"type": "string"}}, "required": ["status"]}
    fmt = {"type": "json_schema", "json_schema": {"name": "S", "schema": schema}}
    model = ScriptedModel(['{"tool": "query_order", "args": {"orderId": "SN202610200001"}}', '{"status": "ok"}'])
    PromptProtocol(model).chat([UserMessage(content="状态？")], tools=TOOL_SPECS, response_format=fmt)
    sent = model.requests[0]
    assert "response_format" not in sent.extra
    assert sent.messages[0].content == tools_as_text(TOOL_SPECS) + "\n" + ANSWER_FORMAT.format(
        schema=json.dumps(schema, ensure_ascii=False, sort_keys=True)
    )
    PromptProtocol(model).chat(
        [UserMessage(content="状态？")], tools=TOOL_SPECS, tool_choice="none", response_format=fmt
    )
    assert model.requests[1].extra["response_format"] == fmt


def test_a_json_object_answer_format_is_asked_in_words_while_tools_are_offered():
    model = ScriptedModel(["{}"])
    PromptProtocol(model).chat([UserMessage(content="?")], tools=TOOL_SPECS, response_format={"type": "json_object"})
    assert "response_format" not in model.requests[0].extra
    assert model.requests[0].messages[0].content == tools_as_text(TOOL_SPECS) + "\n" + ANSWER_JSON


def test_a_structured_answer_with_a_name_field_is_the_answer_not_a_call():
    """Before: a service's answer {"name": "智能手机", "price": 2999} (its model has a `name` field) was read
    as a call of a tool named 智能手机, and the call ended in UnknownToolError. When the request asks for
    an answer format, a JSON object that names none of the offered tools is that answer."""
    from typing import Protocol

    from pydantic import BaseModel

    from toolkit.course.assistant import shop_registry
    from toolkit.services.service import ai_service

    class Product(BaseModel):
        name: str
        price: float

    class Desk(Protocol):
        def ask(self, question: str) -> Product: ...

    model = ScriptedModel(['{"name": "智能手机", "price": 2999}'])
    desk = ai_service(Desk, model=PromptProtocol(model), registry=shop_registry(SHOP))
    assert desk.ask("SN202610200001 买的是什么") == Product(name="智能手机", price=2999)
    model = ScriptedModel(['{"name": "query_order", "arguments": {"orderId": "SN202610200001"}}', "{}"])
    reply = PromptProtocol(model).chat(
        [UserMessage(content="?")], tools=TOOL_SPECS, response_format={"type": "json_object"}
    )
    assert [c.name for c in reply.message.tool_calls] == ["query_order"]  # an offered tool's name is a call
