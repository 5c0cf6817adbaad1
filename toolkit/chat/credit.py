"""Telling an account that is out of credit from a rate limit: gateways send both as 429.

A rate limit passes, so a 429 is retried (`toolkit.chat.client`). An account with no credit or
quota left does not recover by waiting: OpenAI's 429 `"code": "insufficient_quota"`, Moonshot's
`"type": "exceeded_current_quota_error"`, a one-api relay's `insufficient_user_quota`, DashScope's
`"code": "Arrearage"`, Zhipu's "余额不足", DeepSeek's 402 "Insufficient Balance", Volcano Engine
Ark's 403 `"code": "AccountOverdueError"`, a LiteLLM proxy's spent budget (a 429 `"type":
"budget_exceeded"`, a 400 "Budget has been exceeded!", "End User=… over budget": it lasts until the
budget's period ends, as the proxy's admin set it). `out_of_credit` says which is which, for the client to
raise `OutOfCreditError` at once with a hint about billing.

The error's own fields decide first (`code`, `type`, `status`, on the error object or the body):
one that names a rate limit or an overload (`rate_limit_exceeded`, `Throttling.AllocationQuota`)
keeps the error retried; one that names quota, billing, balance, credit, arrears, an overdue
account or payment makes it out of credit. Only when no field says either is the text read, and then only when the gateway
gave no wait (`Retry-After`, Google's `retryDelay`) and the text names no rate limit: Gemini words
a per-minute limit as OpenAI words an empty account ("You exceeded your current quota, please
check your plan and billing details"), but sends a wait and a link to its rate-limits page; OpenAI
words a rate limit with a link to billing, but names it `rate_limit_exceeded`.

Google's `"status": "RESOURCE_EXHAUSTED"` (Gemini, Vertex AI) is a quota of requests or tokens per
minute or day, which passes (Google's guide says to retry it with backoff), whatever words come
with it ("Resource has been exhausted (e.g. check quota)", "check your plan and billing details"):
it is retried, and always when its `details` hold a `RetryInfo` or a `QuotaFailure` — unless that
`QuotaFailure` names a quota that cannot come back within the turn: one per day (a `quotaId` like
`GenerateRequestsPerDayPerProjectPerModel-FreeTier`, which resets at midnight Pacific time, so
Google's `retryDelay` of seconds only brings the same 429) or one of 0 (`"quotaValue": "0"`: the
free tier gives the model none). Those are raised at once, the day's with a fix of its own
(`credit_fix`), as is a day's allocation said in words (Cloudflare Workers AI's "used up your daily free
allocation"). Without details, only words of spent money (prepaid credits depleted, a balance,
arrears) make it out of credit; "quota" and "billing" do not.

A 400 or a 403 is read by its message (not its whole body, which may quote the request) and then
only for words of spent money: Anthropic says an empty account with a 400 `invalid_request_error`,
"Your credit balance is too low to access the Anthropic API"; "quota" there may be a model's
token quota, which is the request's fault.

Leaves out: numeric codes (a `"code": 429` or Zhipu's `"1113"` names no kind; the text decides),
and a daily quota said in words alone (a limit "per day" in the text of another provider reads as a rate
limit: it passes)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from toolkit.chat.error_body import error_object

_RATE = re.compile(r"rate.?limit|throttl|too.?many|concurren|overload", re.IGNORECASE)
"""A field value naming a rate limit or an overload: retried, whatever else it says."""
_BUDGET = (
    r"budget[\W_]*(?:has\s+been\s+|is\s+|was\s+)?exceeded|exceeded[\W_]*(?:(?:the|your|its|their)\s+)?budget"
    r"|over[\W_]*budget|crossed[\W_]*budget"
)
"""A spent budget (LiteLLM's `budget_exceeded`, "ExceededBudget", "over budget"), not a model's thinking
budget ("thinking.budget_tokens", "Budget 0 is invalid", "budget exceeds the maximum")."""
_CREDIT = re.compile(rf"quota|billing|balance|credit|arrear|overdue|payment|{_BUDGET}", re.IGNORECASE)
"""A field value naming an account without credit (`insufficient_quota`, `Arrearage`, `AccountOverdueError`)."""
_RATE_TEXT = re.compile(
    r"rate.?limit|too many|throttl|concurren|try again in|per (?:second|minute|min|hour|day)\b|\b[rt]p[mds]\b"
    r"|请求过多|频率|限流|并发|稍后",
    re.IGNORECASE,
)
"""Words of a rate limit in an error's text ("Please try again in 20s", "tokens per min (TPM)", "请稍后重试")."""
_SPENT = rf"\bbalance\b|\bcredits?\b|arrear|overdue|payment|recharge|top.?up|余额|欠费|充值|{_BUDGET}"
"""Words of money spent (a balance, credits, arrears, a top-up)."""
_CREDIT_TEXT = re.compile(rf"quota|billing|{_SPENT}|额度", re.IGNORECASE)
"""Words of an empty account in an error's text ("insufficient balance", "out of credit", "余额不足")."""
_FIELDS = ("code", "type", "status")
_GOOGLE_QUOTA = "RESOURCE_EXHAUSTED"
"""Google's status for a quota (per minute or day) or a rate limit: retried (`_google_quota`)."""
_GOOGLE_WAITS = ("google.rpc.RetryInfo", "google.rpc.QuotaFailure")
"""The `details` of a Google error that name a wait or the limit that was hit: a rate limit."""
_SPENT_TEXT = re.compile(rf"{_SPENT}|prepa(?:y|id)", re.IGNORECASE)
"""`_CREDIT_TEXT` without "quota" and "billing": what a Google quota error says of spent money only."""


def out_of_credit(data: Any, text: str = "", *, waits: bool = False, money_only: bool = False) -> str | None:
    """How an error says the account is out of credit, or None when it does not.

    `data` is the parsed error body (or the error object alone); `text` the words to read when no
    field decides ("" reads none); `waits` whether the gateway asked for a wait; `money_only` that
    only words of spent money (`_SPENT_TEXT`) count in the text, not "quota" or "billing" (a 400's
    message may name a model's token quota). Returns the field value that named it
    (`insufficient_quota`), or "" when the text did."""
    named = [value for value in _field_values(data) if value.strip()]
    if any(_RATE.search(value) for value in named):
        return None
    for value in named:
        if _CREDIT.search(value):
            return value.strip()
    if any(value.strip() == _GOOGLE_QUOTA for value in named):
        return _google_quota(data, text)
    day = _DAY_SPENT.search(text) if text and not money_only else None
    if day is not None:  # Cloudflare's "used up your daily free allocation": whatever wait it names
        return (day[1] or day[2]).lower()
    if text and not waits and "retrydelay" not in text.lower():  # Google's RetryInfo: a wait, in the body
        words = text if money_only else _decoded(data, text)
        if (_SPENT_TEXT if money_only else _CREDIT_TEXT).search(words) and not _RATE_TEXT.search(words):
            return ""
    return None


def _google_quota(data: Any, text: str) -> str | None:
    """`out_of_credit` of a Google `RESOURCE_EXHAUSTED`: None (a rate limit, retried) when its details
    name a wait or the limit hit, or its text no spent money; "" when the text says money is spent."""
    spent = _spent_quota(data)
    if spent is not None:
        return spent
    if any(kind.endswith(_GOOGLE_WAITS) for kind in _detail_types(data)):
        return None
    words = _decoded(data, text) if text else ""
    return "" if _SPENT_TEXT.search(words) and not _RATE_TEXT.search(words) else None


def _spent_quota(data: Any) -> str | None:
    """The quota a Google `QuotaFailure` names that no wait within the turn brings back: one per day
    (its `quotaId`), else one of 0 (`"<quotaId>, limit 0"`); None when it names neither."""
    violations = [
        violation
        for detail in _details(data)
        if str(detail.get("@type", "")).endswith(_GOOGLE_FAILURE) and isinstance(detail.get("violations"), list)
        for violation in detail["violations"]
        if isinstance(violation, dict) and isinstance(violation.get("quotaId"), str)
    ]
    for violation in violations:
        if _PER_DAY.search(violation["quotaId"]):
            return str(violation["quotaId"])
    for violation in violations:
        if str(violation.get("quotaValue")).strip() == "0":
            return f"{violation['quotaId']}, limit 0"
    return None


_GOOGLE_FAILURE = "google.rpc.QuotaFailure"
_PER_DAY = re.compile(r"PerDay|^daily |^今日")
"""A quota counted per day: Google's (`GenerateRequestsPerDayPerProjectPerModel-FreeTier`), which resets at midnight
Pacific time (ai.google.dev/gemini-api/docs/rate-limits), or one named in words (`_DAY_SPENT`)."""
_DAY_SPENT = re.compile(
    r"\bused up (?:your |the )?(daily (?:free )?(?:allocation|quota))\b|已达(今日调用次数限额)", re.IGNORECASE
)
"""An error's words for a day's allocation spent: Cloudflare Workers AI's 429 (codes 4006, 3036) "you have used up
your daily free allocation of 10,000 neurons", which comes back at 00:00 UTC; Zhipu's 429 (code 1304) "该 API
已达今日调用次数限额" (the API's calls for today are used up)."""


def _detail_types(data: Any) -> Iterator[str]:
    """The `@type` of each of the `details` of a Google error (its body, or a list of bodies: the first)."""
    for detail in _details(data):
        kind = detail.get("@type")
        if isinstance(kind, str):
            yield kind


def _details(data: Any) -> list[dict[str, Any]]:
    """The `details` objects of a Google error (its body, a list of bodies: the first, or the error object
    alone, as an error inside a 200 is read)."""
    error = error_object(data)
    if error is None and isinstance(data, dict) and "error" not in data:  # the error object itself
        error = data
    details = error.get("details") if error is not None else None
    return [detail for detail in details if isinstance(detail, dict)] if isinstance(details, list) else []


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
    if named and _PER_DAY.search(named):
        return (
            f"the quota for the day is used up{said}: it comes back when the provider's day begins again (Gemini's "
            "at midnight Pacific time, Cloudflare's at 00:00 UTC), not within this turn; try again then, use another "
            "model, or raise the limit in the provider's billing settings (a paid plan) (not retried)"
        )
    return (
        f"the account is out of credit or quota{said}: add credit or raise the limit in the provider's "
        "billing settings, or use another key (not retried)"
    )
