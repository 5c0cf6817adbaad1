"""Week 3's shop: demo data and three read-only tools whose results are text for the model.

    shop = load_shop(today=datetime.date(2026, 10, 25))
    shop.run(validate("query_logistics", '{"orderId": "SN202610200001"}'))

| tool                | risk   | what it teaches (week 3, section 2)                                |
|---------------------|--------|--------------------------------------------------------------|
| query_order         | low    | the basic tool: one argument, facts as text                  |
| query_logistics     | medium | output leaks personal data → mask name, phone, address       |
| query_refund_policy | high   | answers cost money and expire → policies with date ranges    |

Results are plain Chinese text, not JSON: a model reads prose better and for fewer tokens.
At every empty result the text tells the model what to do and not to invent anything — the
tool is closer to "where it happens" than the system prompt. Each tool takes a `Validated`
(from `toolkit.course.validation.validate`), never a raw string. Data lives in `data/*.json`; "today"
is injected (`load_shop(today=...)`: a date, or its ISO text) so results and notebooks are deterministic.
`load_shop(data_dir)` reads another folder's files, each a regular file of at most `MAX_DATA_BYTES`.

Leaves out: writing anything (no refunds until a later week), tool specs and the loop
(`toolkit.course.assistant`), argument checks (`toolkit.course.validation`).
"""

from __future__ import annotations

import datetime
import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit import data as course_data
from toolkit import files
from toolkit.chat.clock import session_today
from toolkit.chat.days import misread, read_as, read_day
from toolkit.course.validation import CATEGORIES, ORDER_ID, Validated, to_half_width
from toolkit.errors import ConfigurationError
from toolkit.tools.decorator import a_or_an

WAITING = ("待付款", "已付款，待发货")
"""Order states in which "not shipped yet" is normal: the user should simply wait."""

NOT_FOUND = "订单不存在：订单号 {order_id} 在系统中查不到。请向用户确认订单号是否正确（订单号是 SN 开头加 12 位数字）。"
NOT_SHIPPED = (
    "订单 {order_id} 当前状态为「{status}」，尚未发货，因此没有物流信息。请告知用户耐心等待，不要编造物流轨迹。"
)
NEVER_SHIPPED = (
    "订单 {order_id} 当前状态为「{status}」，没有发货记录，因此没有物流信息。请如实告知用户，不要编造物流轨迹。"
)
NO_POLICY = (
    "未找到匹配的政策：类别={category}，日期={as_of}。请如实告知用户「这个问题需要人工确认」，不要猜测政策内容。"
)


# --- masking: personal data never reaches the model ------------------------------------------

_D = "[0-9０-９]"
_SEP = r"[\s\-－.．]*"
"""Between a phone number's groups: spaces, dashes and dots (`138.1234.5678`), either width."""
_PHONE = re.compile(
    rf"(?<![0-9０-９])(?:[+＋]?(?:86|８６){_SEP})?[1１]{_D}{{2}}{_SEP}{_D}{{4}}"
    rf"{_SEP}{_D}{{4}}(?![0-9０-９])"
)
_REGION = re.compile(
    r"^(?:[^0-9０-９\s]+?(?:省|自治区))?(?:[^0-9０-９\s]+?(?:市|自治州|地区|盟))?"
    r"(?:[^0-9０-９\s]+?(?<!小)(?<!社)(?:区|县|旗))?"
)
"""Province, city, district; a residential 小区 / 社区 is not a district (`幸福小区` goes too)."""


def mask_phone(phone: str) -> str:
    """`13812345678`, `１３８ １２３４ ５６７８` or `+86 138-1234-5678` → `138****5678`."""
    digits = re.sub(r"[^0-9]", "", to_half_width(phone))
    for prefix in ("0086", "86"):  # the country code, written +86, 86 or 0086
        if len(digits) == 11 + len(prefix) and digits.startswith(prefix):
            digits = digits[len(prefix) :]
    return digits[:3] + "****" + digits[-4:] if len(digits) >= 7 else "****"


def mask_text(text: str) -> str:
    """Every mobile number inside free text (either digit width) masked."""
    return _PHONE.sub(lambda m: mask_phone(m.group()), text)


def mask_name(name: str) -> str:
    """`张伟` → `张*`, `欧阳晓明` → `欧***`."""
    name = name.strip()
    return name[:1] + "*" * max(1, len(name) - 1)


def mask_address(address: str) -> str:
    """Province / city / district kept, the rest (street, building, room) → `****`."""
    region = _REGION.match(address.strip())
    return (region.group() if region else "") + "****"


def mask_event(text: str, recipient: Mapping[str, str]) -> str:
    """A trace event's text with every mobile number masked (`mask_text`), and the recipient's own
    address and name where a courier wrote them ("签收人：张伟") masked as the recipient line masks
    them. A name of one character is left: it cannot be told from the text around it."""
    text = mask_text(text)
    address, name = recipient["address"].strip(), recipient["name"].strip()
    if address:
        text = text.replace(address, mask_address(address))
    return text.replace(name, mask_name(name)) if len(name) > 1 else text


# --- the data ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shop:
    """Orders, shipments and refund policies, and the day it is "today"."""

    orders: dict[str, dict[str, Any]]
    """Order id → order (status, category, items, amount, payDate, recipient)."""
    shipments: dict[str, dict[str, Any]]
    """Order id → carrier, trackingNo, state and events (newest first); shipped orders only."""
    policies: list[dict[str, Any]]
    """Refund policies: id, category, from, to (None = open-ended), noReason, quality, shipping."""
    today: datetime.date = field(default_factory=session_today)
    """The default `asOf` of `query_refund_policy` (inject it to keep results deterministic)."""

    def run(self, v: Validated) -> str:
        """Execute whichever tool `v` was validated for."""
        tools: dict[str, Callable[[Validated], str]] = {
            "query_order": self.query_order,
            "query_logistics": self.query_logistics,
            "query_refund_policy": self.query_refund_policy,
        }
        return tools[_sealed(v).tool](v)

    def query_order(self, v: Validated) -> str:
        """Status, items, amount and pay date of one order (no personal data)."""
        order_id = _checked(v, "query_order")["orderId"]
        order = self.orders.get(order_id)
        if order is None:
            return NOT_FOUND.format(order_id=order_id)
        items = "；".join(f"{i['name']} ×{i['quantity']}（¥{i['price']}）" for i in order["items"])
        return "\n".join(
            [
                f"订单号：{order_id}",
                f"状态：{order['status']}",
                f"商品：{items}",
                f"类别：{order['category']}",
                f"实付金额：¥{order['amount']}",
                f"付款日期：{order['payDate'] or '尚未付款'}",
            ]
        )

    def query_logistics(self, v: Validated) -> str:
        """Carrier, latest event and trace of one order; recipient data masked."""
        order_id = _checked(v, "query_logistics")["orderId"]
        order, shipment = self.orders.get(order_id), self.shipments.get(order_id)
        if order is None:
            return NOT_FOUND.format(order_id=order_id)
        if shipment is None:
            template = NOT_SHIPPED if order["status"] in WAITING else NEVER_SHIPPED
            return template.format(order_id=order_id, status=order["status"])
        recipient = order["recipient"]
        events = [f"- {e['time']} {mask_event(e['text'], recipient)}" for e in shipment["events"]]
        return "\n".join(
            [
                f"订单号：{order_id}",
                f"物流状态：{shipment['state']}",
                f"最新轨迹：{events[0][2:]}",
                f"快递公司：{shipment['carrier']}（运单号 {shipment['trackingNo']}）",
                f"收件人：{mask_name(recipient['name'])}，{mask_phone(recipient['phone'])}",
                f"收货地址：{mask_address(recipient['address'])}",
                "物流轨迹（最新在前）：",
                *events,
            ]
        )

    def query_refund_policy(self, v: Validated) -> str:
        """The policy of a category in force on `asOf`; none → tell the user a person must confirm."""
        args = _checked(v, "query_refund_policy")
        category, as_of = args["category"], args["asOf"]
        policy = next(
            (p for p in self.policies if p["category"] == category and p["from"] <= as_of <= (p["to"] or "9999-12-31")),
            None,
        )
        if policy is None:
            return NO_POLICY.format(category=category, as_of=as_of)
        until = f"至 {policy['to']}" if policy["to"] else "起长期有效"
        expired = "（该政策已过期，仅适用于当时的订单）" if (policy["to"] or "9999") < self.today.isoformat() else ""
        return "\n".join(
            [
                f"类别：{category}（{as_of} 适用的政策 {policy['id']}）",
                f"无理由退换：{policy['noReason']}",
                f"质量问题：{policy['quality']}",
                f"退货运费：{policy['shipping']}",
                f"有效期：{policy['from']} {until}{expired}",
            ]
        )


def _sealed(v: Validated) -> Validated:
    if not isinstance(v, Validated):
        raise TypeError(
            f"Shop tools take a Validated value, not {type(v).__name__} ({v!r:.60}). "
            "Fix: pass validate(tool, raw_arguments) — only checked arguments reach a tool"
        )
    return v


def _checked(v: Validated, tool: str) -> Mapping[str, str]:
    """The values of `v`, if it is a `Validated` for `tool`; else a developer error."""
    if _sealed(v).tool != tool:
        raise TypeError(f"Shop.{tool} got a Validated for {v.tool}; validate the arguments for {tool} instead")
    return v.values


def load_shop(data_dir: Path | str | None = None, *, today: datetime.date | str | None = None) -> Shop:
    """Read `orders.json`, `logistics.json` and `refund_policies.json`, checking them. `today` is a
    `datetime.date` or its ISO text (`"2026-10-25"`; a `datetime` counts as its date)."""
    today = _day(today)  # before any file is read: a wrong date is the caller's, not the data's
    data_dir = course_data.root() if data_dir is None else _folder(data_dir)
    orders = {o["orderId"]: o for o in _read(data_dir / "orders.json")["orders"]}
    shipments = _read(data_dir / "logistics.json")["shipments"]
    policies = _read(data_dir / "refund_policies.json")["policies"]
    _check(data_dir, orders, shipments, policies)
    return Shop(orders, shipments, policies, today or session_today())


def _folder(data_dir: object) -> Path:
    """`load_shop`'s folder as a `Path`; what is no path is refused here, not by pathlib's raw `TypeError`."""
    if isinstance(data_dir, (str, os.PathLike)) and not isinstance(os.fspath(data_dir), bytes):
        return Path(data_dir)
    kind = type(data_dir).__name__
    fix = (
        f"decode it: load_shop({data_dir!r:.40}.decode())"
        if isinstance(data_dir, bytes)
        else "give one folder, e.g. load_shop('data')"
        if isinstance(data_dir, (list, tuple))
        else "leave it out for the course's data, or pass the folder, e.g. load_shop('data')"
    )
    raise ConfigurationError(
        f"load_shop({data_dir!r:.40}): data_dir is the folder that holds orders.json, logistics.json and "
        f"refund_policies.json (a str or a Path), and got {a_or_an(kind)}. Fix: {fix}"
    )


def _day(today: object) -> datetime.date | None:
    """`load_shop(today=...)` as a date: a date, a datetime's date, or ISO text; anything else refused here,
    not when a tool first writes `today.isoformat()`."""
    if today is None or type(today) is datetime.date:
        return today
    if isinstance(today, datetime.datetime):
        return today.date()  # its time of day would end up in every asOf: '2026-10-25T09:30:00'
    if isinstance(today, datetime.date):
        return today
    if isinstance(today, str):
        try:
            return read_day(today)
        except ValueError:
            found = read_as(today)
            fix = f"today='{found[1]}'" if found else "e.g. today='2026-10-25' or today=datetime.date(2026, 10, 25)"
            raise ConfigurationError(
                f"load_shop(today={today!r:.40}): that text is no ISO date (YYYY-MM-DD){misread(today)}. Fix: {fix}"
            ) from None
    raise ConfigurationError(
        f"load_shop(today={today!r:.40}): today is the shop's date, a datetime.date or its ISO text, and got "
        f"{a_or_an(type(today).__name__)}. Fix: e.g. today=datetime.date(2026, 10, 25) or today='2026-10-25', "
        "or leave it out for the session's date"
    )


MAX_DATA_BYTES = 16 * 1024 * 1024
"""A shop data file (orders, logistics, refund policies) larger than this is refused unread (the
course's are a few KB; 10,000 orders are about 5 MB)."""


def _read(path: Path) -> dict[str, Any]:
    try:
        return json.loads(
            files.read_text(
                path,
                MAX_DATA_BYTES,
                where=f"load_shop(): cannot read {path}",
                cap_name="toolkit.course.shop.MAX_DATA_BYTES",
                fix="keep the shop's data to what its questions need, or pass a folder of smaller files",
                error=ConfigurationError,
            )
        )
    except (OSError, ValueError) as exc:
        raise ConfigurationError(
            f"load_shop(): cannot read {path}: {exc}. Fix: restore the file from git, or pass the folder that holds it"
        ) from exc


def _check(where: Path, orders: dict, shipments: dict, policies: list) -> None:
    problems = [f"order id {k!r} is not SN + 12 digits" for k in orders if not ORDER_ID.fullmatch(k)]
    problems += [f"logistics for unknown order {k!r}" for k in shipments if k not in orders]
    problems += [
        f"policy {p['id']!r} has category {p['category']!r}, not one of {CATEGORIES}"
        for p in policies
        if p["category"] not in CATEGORIES
    ]
    problems += [f"policy {p['id']!r} ends before it starts" for p in policies if p["to"] and p["to"] < p["from"]]
    if problems:
        raise ConfigurationError(f"load_shop({where}): {'; '.join(problems)}. Fix the data files")
