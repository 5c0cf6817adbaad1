"""Week 3's argument validation: lenient in, strict out (week 3, section 3; the course's `ToolArgs`).

    validate("query_order", '{"orderId": "订单号：ＳＮ２０２６１０２００００１"}')
        → Validated(query_order, orderId='SN202610200001')

The model writes tool arguments, not your front end, so they are checked like any untrusted input:

* **Lenient in** — harmless variation is normalised instead of costing a retry: full-width →
  ASCII (U+3000 too), surrounding and inner whitespace, a label prefix (订单 / 订单号 followed
  by ：: 是 为), letter case, dashes; dates also as 2026/10/20, 2026.10.20 or 2026年10月20日.
* **Strict out** — everything else is an `ArgError` written *for the model*: the field, what
  was received, the expected format (wrong pattern, two ids in one value, empty / null /
  non-string values, unknown fields — a stray `refundAmount` is intent drift —, invalid JSON,
  a JSON value that is not an object, vague or impossible dates). It is an `ArgumentError`, so
  the course loop feeds it back once (`toolkit.loop.run.COURSE`).

Only a `Validated` reaches a tool, and only `validate()` can make one: `Validated(...)` raises.

Leaves out: guessing. An id one digit short is not padded, 上个月 is not turned into a date,
衣服 is not mapped to 服装 — a wrong guess is worse than an error the model can fix.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from toolkit.chat.clock import session_today
from toolkit.errors import ArgError, ConfigurationError, UnknownToolError
from toolkit.unicode import cut

CATEGORIES = ("服装", "数码", "生鲜", "家居")
"""The product categories `query_refund_policy` knows."""

ORDER_ID = re.compile(r"SN[0-9]{12}")
_PREFIX = re.compile(r"^订单号?\s*[:：是为]?\s*")
_DASHES = re.compile(r"[\s\-\u2010-\u2015\u2212]")
_DATE = re.compile(r"^([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})$")
_DATE_ZH = re.compile(r"^([0-9]{4})年([0-9]{1,2})月([0-9]{1,2})[日号]?$")

MISSING = "（未提供）"
ORDER_ID_HINT = "SN 开头加 12 位数字，例如 SN202610200001；请从用户的原话中找出完整的订单号，不要自己补位或猜测"
ORDER_ID_REQUIRED = "必填，SN 开头加 12 位数字的订单号；用户没有提供时，请先向用户询问，不要编造订单号"
ONE_ORDER_ID = "一次只能填一个订单号（SN 开头加 12 位数字）；多个订单请分别调用"
CATEGORY_HINT = "服装、数码、生鲜、家居 四个类别之一；判断不了商品属于哪一类时，请询问用户"
DATE_HINT = "yyyy-MM-dd 格式的具体日期，例如 2026-10-20；不知道具体日期时请省略 asOf（默认今天），不要自己推算"
REAL_DATE_HINT = "一个真实存在的日期，格式 yyyy-MM-dd，例如 2026-10-20"
EXAMPLES = {
    "query_order": '{"orderId":"SN202610200001"}',
    "query_logistics": '{"orderId":"SN202610200001"}',
    "query_refund_policy": '{"category":"服装","asOf":"2026-10-20"}',
}


class Rejected(ValueError):
    """A normaliser's verdict: this value cannot be made valid; `expected` says what would be."""

    def __init__(self, expected: str) -> None:
        super().__init__(expected)
        self.expected = expected


class Validated:
    """Arguments that passed `validate()`: the tool, its normalised values, the raw text.

    The constructor refuses to run: a tool taking a `Validated` can trust every value in it.
    """

    __slots__ = ("tool", "values", "raw")
    tool: str
    values: Mapping[str, str]
    raw: str

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            "Validated(...) cannot be built by hand: only "
            "toolkit.course.validation.validate(tool, raw_arguments) makes one, so that no "
            "unchecked argument reaches a tool. Call validate() instead."
        )

    @classmethod
    def _seal(cls, tool: str, values: dict[str, str], raw: str) -> Validated:
        self = object.__new__(cls)
        for name, value in (("tool", tool), ("values", MappingProxyType(values)), ("raw", raw)):
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Validated value is read-only")

    def __getitem__(self, name: str) -> str:
        return self.values[name]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Validated) and (self.tool, dict(self.values)) == (other.tool, dict(other.values))

    def __hash__(self) -> int:
        return hash((self.tool, tuple(sorted(self.values.items()))))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"Validated({self.tool}, {shown})"


# --- 1. the normalisers: one string in, one canonical string out (or Rejected) --------------


def to_half_width(text: str) -> str:
    """Full-width ASCII (Ｓ, ２, ：, －) → ASCII; the ideographic space U+3000 → a space."""
    return "".join(" " if c == "\u3000" else chr(ord(c) - 0xFEE0) if "\uff01" <= c <= "\uff5e" else c for c in text)


def normalize_order_id(raw: str) -> str:
    """`"订单号：ｓｎ2026-1020-0001 "` → `"SN202610200001"`; anything else is `Rejected`."""
    text = _PREFIX.sub("", to_half_width(raw).strip())
    text = _DASHES.sub("", text.upper())
    if ORDER_ID.fullmatch(text):
        return text
    if len(ORDER_ID.findall(text)) > 1:
        raise Rejected(ONE_ORDER_ID)
    raise Rejected(ORDER_ID_HINT)


def normalize_category(raw: str) -> str:
    """`" 服装 "` → `"服装"`; a category outside `CATEGORIES` is `Rejected` (never mapped)."""
    text = re.sub(r"\s", "", to_half_width(raw))
    if text in CATEGORIES:
        return text
    raise Rejected(CATEGORY_HINT)


def normalize_date(raw: str) -> str:
    """`"２０２６／１０／２０"` → `"2026-10-20"`; vague (上个月) or impossible (2026-02-30) dates
    are `Rejected`."""
    text = _DASHES.sub(lambda m: "" if m.group().isspace() else "-", to_half_width(raw).strip())
    match = _DATE.fullmatch(text) or _DATE_ZH.fullmatch(text)
    if not match:
        raise Rejected(DATE_HINT)
    try:
        return datetime.date(*map(int, match.groups())).isoformat()
    except ValueError:
        raise Rejected(REAL_DATE_HINT) from None


Normaliser = Callable[[str], str]
FIELDS: dict[str, dict[str, tuple[bool, Normaliser]]] = {
    "query_order": {"orderId": (True, normalize_order_id)},
    "query_logistics": {"orderId": (True, normalize_order_id)},
    "query_refund_policy": {"category": (True, normalize_category), "asOf": (False, normalize_date)},
}
"""Tool → field → (required, normaliser). An optional `asOf` defaults to today."""


# --- 2. validate: raw JSON text → Validated, step by step ------------------------------------


def validate(tool: str, raw: str, *, today: datetime.date | None = None) -> Validated:
    """Parse, check and normalise the model's arguments for `tool` (the first problem wins).

    A `tool` the model named that is not one of the three is its mistake (`UnknownToolError`); a
    `tool` or `raw` that is no str, or a `today` that is no date, is the caller's (`ConfigurationError`)."""
    if type(tool) is not str or type(raw) is not str or today is not None:
        today = _check_given(tool, raw, today)
    if tool not in FIELDS:
        raise UnknownToolError(tool, list(FIELDS))
    data = _parse_object(tool, raw)  # 1. JSON object
    fields = FIELDS[tool]
    for name in data:  # 2. no unknown fields
        if name not in fields:
            label = name if name.strip() else json.dumps(name)  # an empty key still shows
            raise ArgError(tool, label, shown(data[name]), _unknown_hint(tool, label), "unknown")
    values = {}
    for name, (required, normalise) in fields.items():  # 3. each field
        values[name] = _field(tool, name, data, required, normalise)
    if "asOf" in fields and values["asOf"] is None:  # 4. defaults
        values["asOf"] = (today or session_today()).isoformat()
    return Validated._seal(tool, {k: v for k, v in values.items() if v is not None}, raw)


def _check_given(tool: Any, raw: Any, today: Any) -> datetime.date | None:
    """`validate`'s arguments as the caller gave them: the tool's name and the model's arguments as
    the call carries them (`ToolCall.name`, `ToolCall.arguments`: both str), `today` a date. Anything
    else is the developer's mistake, not the model's: a `ConfigurationError` naming the fix (a number
    was a raw `TypeError` from inside the error text meant for the model, a dict a plain `TypeError`).
    Returns the day to use: a `datetime` is its date (its `isoformat()` would put a time in `asOf`)."""
    if not isinstance(tool, str):
        raise ConfigurationError(
            f"validate({_given(tool)}, raw): tool must be the tool's name as a str (ToolCall.name), not "
            f"{type(tool).__name__}; pass e.g. validate(call.name, call.arguments)"
        )
    if not isinstance(raw, str):
        fix = "json.dumps(arguments, ensure_ascii=False)" if isinstance(raw, dict) else "call.arguments"
        raise ConfigurationError(
            f"validate({tool[:40]!r}, raw): raw must be the arguments *string* the model sent "
            f"(ToolCall.arguments), not {type(raw).__name__}; pass e.g. validate({tool[:40]!r}, {fix})"
        )
    if today is not None and not isinstance(today, datetime.date):
        raise ConfigurationError(
            f"validate({tool[:40]!r}, raw, today={_given(today)}): today must be a datetime.date (the day an "
            f"omitted asOf means), not {type(today).__name__}; pass e.g. today=datetime.date(2026, 10, 20), "
            "or leave it out (the session's today)"
        )
    return today.date() if isinstance(today, datetime.datetime) else today


def _given(value: Any) -> str:
    """A value as an error text shows what the caller passed: its repr, cut short."""
    text = repr(value)
    return cut(text, 40, "...")


def _parse_object(tool: str, raw: str) -> dict[str, Any]:
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except _Duplicate as exc:
        raise ArgError(tool, exc.name, shown(raw, raw=True), "每个字段只能出现一次") from None
    except (ValueError, RecursionError):
        raise ArgError(
            tool, "arguments", shown(raw, raw=True), f"合法的 JSON 对象，例如 {EXAMPLES[tool]}", "not_json"
        ) from None
    if not isinstance(data, dict):
        raise ArgError(
            tool, "arguments", shown(data), f"一个 JSON 对象（花括号包住的键值对），例如 {EXAMPLES[tool]}", "not_json"
        )
    return data


def _field(tool: str, name: str, data: dict[str, Any], required: bool, normalise: Normaliser) -> str | None:
    value = data.get(name)
    if value is None and not required:
        return None
    if value is None or (isinstance(value, str) and not value.strip()):  # an optional one is blank here
        hint = ORDER_ID_REQUIRED if name == "orderId" else f"必填，{_hint_for(name)}" if required else _hint_for(name)
        raise ArgError(tool, name, shown(value) if name in data else MISSING, hint, "missing")
    if not isinstance(value, str):
        raise ArgError(tool, name, shown(value), f"字符串，{_hint_for(name)}")
    try:
        return normalise(value)
    except Rejected as exc:
        raise ArgError(tool, name, shown(value), exc.expected) from None


def _hint_for(name: str) -> str:
    return {"orderId": ORDER_ID_HINT, "category": CATEGORY_HINT, "asOf": DATE_HINT}[name]


def _unknown_hint(tool: str, name: str) -> str:
    allowed = "、".join(FIELDS[tool])
    return (
        f"{tool} 只接受字段 {allowed}；{name} 不是它的参数。这些工具只能查询，不能退款、取消或修改订单，请删除这个字段"
    )


def shown(value: Any, *, raw: bool = False, limit: int = 60) -> str:
    """What the model sent, as the error shows it: JSON (so spaces show), cut to `limit`."""
    text = value if raw else json.dumps(value, ensure_ascii=False)
    return cut(text, limit)


class _Duplicate(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")
