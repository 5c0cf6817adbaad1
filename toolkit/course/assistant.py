"""Week 3's support assistant: hand-written tool specs, a registry, a system prompt, `ask()`.

    result = ask(connect(), "帮我查一下订单 SN202610200001 现在到哪了？", shop=load_shop())
    result.answer, len(result.rounds)        # the answer, and how many model calls it took

The specs are written by hand, as in the week-3 course's `ToolRegistry`: what the model reads is a
product decision (narrow descriptions, "查信息 vs 查轨迹", "不要编造"), not a by-product of
a Python signature. Each executor validates the raw arguments (`toolkit.course.validation`) before the
shop sees them, so an `ArgError` goes back to the model once through the course loop
(`toolkit.loop.run.COURSE`: 5 model requests, one argument repair, then an honest hand-over).

Leaves out: the loop itself (`toolkit.loop.run`), gateways without tool support
(`toolkit.course.prompt_protocol` wraps the model, and `ask` stays the same).
"""

from __future__ import annotations

import datetime
from typing import Any

from toolkit import data as course_data
from toolkit.chat.messages import Message, SystemMessage, ToolCall, UserMessage
from toolkit.course.shop import Shop, load_shop
from toolkit.course.validation import CATEGORIES, validate
from toolkit.errors import ConfigurationError
from toolkit.loop.run import COURSE, LoopOptions, LoopResult, run_loop
from toolkit.loop.sources import ToolRegistry
from toolkit.services.templates import render
from toolkit.tools.addresses import without_addresses
from toolkit.tools.decorator import InvocationContext, a_or_an

ORDER_ID_DESCRIPTION = "订单号，SN 开头加 12 位数字，例如 SN202610200001。必须来自用户的原话，不要编造或补全。"

TOOL_SPECS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "query_order",
            "description": "查询一个订单本身的信息：状态、商品、金额、付款日期。用户给出订单号并问订单状态、"
            "买了什么、付了多少钱时调用。问快递/物流进度用 query_logistics；"
            "问退换货规则用 query_refund_policy。",
            "parameters": {
                "type": "object",
                "properties": {"orderId": {"type": "string", "description": ORDER_ID_DESCRIPTION}},
                "required": ["orderId"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "query_logistics",
            "description": "查询一个订单的物流轨迹：快递公司、运单号、最新位置和历史轨迹（收件人信息已脱敏）。"
            "用户问发货没有、快递到哪了、物流为什么不动时调用。",
            "parameters": {
                "type": "object",
                "properties": {"orderId": {"type": "string", "description": ORDER_ID_DESCRIPTION}},
                "required": ["orderId"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "query_refund_policy",
            "description": "查询某类商品在某一天有效的退换货政策：无理由退换期限、质量问题处理、退货运费由谁承担。"
            "用户问能不能退、能不能换、退货规则、运费谁出时调用；不需要订单号。",
            "parameters": {
                "type": "object",
                "properties": {
                    "category": {
                        "type": "string",
                        "enum": list(CATEGORIES),
                        "description": "商品类别：服装、数码、生鲜、家居 之一。",
                    },
                    "asOf": {
                        "type": "string",
                        "description": "政策适用日期，yyyy-MM-dd；不确定时省略（默认今天）。"
                        "不要把「上个月」之类的说法自己换算成日期。",
                    },
                },
                "required": ["category"],
                "additionalProperties": False,
            },
        },
    },
]
"""The three tools as the model sees them (OpenAI `tools` entries, written by hand)."""

PROMPT_FILE = "ecom_support.txt"
"""The assistant's instructions, in `data/prompts/` (shared with week 4's service)."""


def system_prompt(today: datetime.date) -> str:
    """The assistant's instructions, with today's date (so "today" is never guessed)."""
    template = course_data.path("prompts", PROMPT_FILE).read_text(encoding="utf-8")
    return render(template, {"current_date": today.isoformat()})


def shop_registry(shop: Shop | None = None) -> ToolRegistry:
    """The three tools, each validating its raw arguments before `shop` runs them."""
    shop = load_shop() if shop is None else checked_shop(shop, "shop_registry")
    registry = ToolRegistry()
    for spec in TOOL_SPECS:
        registry.register(spec, _executor(shop, spec["function"]["name"]))
    return registry


def checked_shop(shop: object, where: str) -> Shop:
    """`shop` if it is a `Shop`: anything else would be taken here and fail in every tool call."""
    if isinstance(shop, Shop):
        return shop
    if shop is load_shop:
        shown, kind, fix = "load_shop", "the function load_shop", f"call it: {where}(shop=load_shop())"
    else:
        shown = without_addresses(f"{shop!r:.40}")
        kind = f"the class {shop.__name__}" if isinstance(shop, type) else a_or_an(type(shop).__name__)
        fix = f"{where}(shop=load_shop()), or leave it out for the course's shop"
    raise ConfigurationError(f"{where}(shop={shown}): shop takes a Shop, and got {kind}. Fix: {fix}")


def _executor(shop: Shop, name: str):
    def run(call: ToolCall, context: InvocationContext) -> str:
        return shop.run(validate(name, call.arguments, today=shop.today))

    run.__name__ = name
    return run


def messages_for(question: str, today: datetime.date) -> list[Message]:
    """The conversation `ask` starts from: the system prompt and the user's question."""
    return [SystemMessage(content=system_prompt(today)), UserMessage(content=question)]


def ask(model: Any, question: str, *, shop: Shop | None = None, options: LoopOptions = COURSE) -> LoopResult:
    """One question through the course loop: tools offered, calls validated and executed."""
    shop = load_shop() if shop is None else checked_shop(shop, "ask")
    return run_loop(model, messages_for(question, shop.today), registry=shop_registry(shop), options=options)
