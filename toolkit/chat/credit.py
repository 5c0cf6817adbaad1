"""Telling an account that is out of credit from a rate limit: gateways send both as 429.

A rate limit passes, so a 429 is retried (`toolkit.chat.client`). An account with no credit or
quota left does not recover by waiting: OpenAI's 429 `"code": "insufficient_quota"`, Moonshot's
`"type": "exceeded_current_quota_error"`, a one-api relay's `insufficient_user_quota`, DashScope's
`"code": "Arrearage"`, Zhipu's "余额不足", DeepSeek's 402 "Insufficient Balance", Volcano Engine
Ark's 403 `"code": "AccountOverdueError"`. `out_of_credit` says which is which, for the client to
raise `OutOfCreditError` at once with a hint about billing.

The error's own fields decide first (`code`, `type`, `status`, on the error object or the body):
one that names a rate limit or an overload (`rate_limit_exceeded`, `Throttling.AllocationQuota`)
keeps the error retried; one that names quota, billing, balance, credit, arrears, an overdue
account or payment makes it out of credit. Only when no field says either is the text read, and then only when the gateway
gave no wait (`Retry-After`, Google's `retryDelay`) and the text names no rate limit: Gemini words
a per-minute limit as OpenAI words an empty account ("You exceeded your current quota, please
check your plan and billing details"), but sends a wait and a link to its rate-limits page; OpenAI
words a rate limit with a link to billing, but names it `rate_limit_exceeded`.

Leaves out: numeric codes (a `"code": 429` or Zhipu's `"1113"` names no kind; the text decides),
and telling a daily quota from an empty account (a limit "per day" reads as a rate limit: it passes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

_RATE = re.compile(r"rate.?limit|throttl|too.?many|concurren|overload", re.IGNORECASE)
"""A field value naming a rate limit or an overload: retried, whatever else it says."""
_CREDIT = re.compile(r"quota|billing|balance|credit|arrear|overdue|payment", re.IGNORECASE)
"""A field value naming an account without credit (`insufficient_quota`, `Arrearage`, `AccountOverdueError`)."""
_RATE_TEXT = re.compile(
    r"rate.?limit|too many|throttl|concurren|try again in|per (?:second|minute|min|hour|day)\b|\b[rt]p[mds]\b"
    r"|请求过多|频率|限流|并发|稍后",
    re.IGNORECASE,
)
"""Words of a rate limit in an error's text ("Please try again in 20s", "tokens per min (TPM)", "请稍后重试")."""
_CREDIT_TEXT = re.compile(
    r"quota|billing|\bbalance\b|\bcredits?\b|arrear|overdue|payment|recharge|top.?up|余额|欠费|充值|额度", re.IGNORECASE
)
"""Words of an empty account in an error's text ("insufficient balance", "out of credit", "余额不足")."""
_FIELDS = ("code", "type", "status")


def out_of_credit(data: Any, text: str = "", *, waits: bool = False) -> str | None:
    """How an error says the account is out of credit, or None when it does not.

    `data` is the parsed error body (or the error object alone); `text` the words to read when no
    field decides ("" reads none); `waits` whether the gateway asked for a wait. Returns the field
    value that named it (`insufficient_quota`), or "" when the text did."""
    named = [value for value in _field_values(data) if value.strip()]
    if any(_RATE.search(value) for value in named):
        return None
    for value in named:
        if _CREDIT.search(value):
            return value.strip()
    if text and not waits and "retrydelay" not in text.lower():  # Google's RetryInfo: a wait, in the body
        words = _decoded(data, text)
        if _CREDIT_TEXT.search(words) and not _RATE_TEXT.search(words):
            return ""
    return None


def _decoded(data: Any, text: str) -> str:
    """`text`, and the parsed body as its JSON says it: a body written with `\\uXXXX` escapes (Python's
    `json.dumps`, Flask's `jsonify`) says "余额不足" only once decoded. As long as `text` at most."""
    if data is None:
        return text
    try:
        said = json.dumps(data, ensure_ascii=False, default=str)
    except (ValueError, RecursionError):  # nested deeper than the encoder goes: the text alone
        return text
    return f"{text}\n{said[: len(text)]}"


def _field_values(data: Any) -> Iterator[str]:
    """The string `code` / `type` / `status` of the body and of its `error` object (a list of
    bodies, as Gemini's OpenAI endpoint sends one: its first). Digits name no kind."""
    if isinstance(data, list):
        data = next((item for item in data if isinstance(item, dict)), None)
    if not isinstance(data, dict):
        return
    for holder in (data.get("error"), data):
        if isinstance(holder, dict):
            for field in _FIELDS:
                value = holder.get(field)
                if isinstance(value, str) and not value.strip().isdigit():
                    yield value


def credit_fix(named: str | None) -> str:
    """The words after an out-of-credit error's message: what it is (and the field that named
    it), and what to do."""
    said = f" ({named})" if named else ""
    return (
        f"the account is out of credit or quota{said}: add credit or raise the limit in the provider's "
        "billing settings, or use another key (not retried)"
    )
