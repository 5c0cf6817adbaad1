"""The wait a 429 implies by its rate-limit headers or Google's `RetryInfo`, when it gives no `Retry-After`.

OpenAI (and Groq, Together, Cerebras, and relays copying them) send with every answer how much of
each limit is left and when it is whole again: `x-ratelimit-remaining-requests: 0` and
`x-ratelimit-reset-requests: 1m30s`, the same for `-tokens`, a reset written as a Go duration
(`6m0s`, `2m59.56s`, `7.66s`, `20ms`); Cerebras names each limit with its window and writes
seconds (`x-ratelimit-reset-tokens-minute: 11.38`, `x-ratelimit-reset-requests-day: 33011.4`). A 429 that says no `Retry-After` is retried after the reset
of a limit it used up (`remaining` 0; the latest when several are), or, when none reads 0 (a request
asking more tokens than remain), the soonest reset: the usual backoff goes on after a short one.

Google's gateways (Gemini's OpenAI-compatible endpoint, Vertex) say the wait in the error body
instead: `[{"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "details": [{"@type":
"type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}]}}]` (`said_delay`), a protobuf
Duration: seconds, a fraction of up to nine digits, then `s`. Hugging Face's serverless inference
says how long a model still loading will take: a 503 `{"error": …, "estimated_time": 20.0}`.

Together names its one limit with no suffix: `x-ratelimit-remaining: 0`, `x-ratelimit-reset: 2`
(seconds), read as one more limit. A bare reset of a billion seconds or more is a time (GitHub's
epoch seconds), not a wait.

Leaves out: `Retry-After` and `retry-after-ms`, which come first (`toolkit.chat.client.retry_after`);
an epoch reset (read as no wait: counting it would trust the gateway's clock), and other names
(Together's `x-tokenlimit-*`, which say no reset), read as no wait.

OpenRouter relays its own limits' headers inside a 429's error (its free models' per-minute and per-day
limits): `{"error": {"message": "Rate limit exceeded: free-models-per-day. …", "metadata": {"headers":
{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1741305600000"}}}}`, the reset a time in epoch
milliseconds (`relayed_reset`), measured from the response's own `Date` when there is one.

Last, the words: OpenAI's, Groq's and Gemini's rate-limit messages end "Please try again in 7m12s." /
"Please retry in 37.5s.", Azure OpenAI's "Please retry after 6 seconds." (`worded_wait`), which a
relay that drops the headers passes on.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolkit.chat.error_body import error_object, parsed

_RESET, _REMAINING = "x-ratelimit-reset-", "x-ratelimit-remaining-"
"""How the headers of one limit begin: `x-ratelimit-reset-<limit>` and `x-ratelimit-remaining-<limit>`,
the limit `requests` or `tokens` (OpenAI's) or one with its window (Cerebras': `tokens-minute`)."""

_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?")
"""A Go duration as these headers write it: hours, minutes, seconds, milliseconds, each optional."""
_UNIT_S = (3600.0, 60.0, 1.0, 0.001)


def duration_s(text: str) -> float | None:
    """`1m30s` → 90.0, `20ms` → 0.02, `7.66s` → 7.66, a bare number as seconds; None when unreadable."""
    text = text.strip()
    if not text.isascii() or not text:
        return None
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    found = _DURATION.fullmatch(text)
    if found is None or not any(found.groups()):
        return None
    return sum(float(part) * unit for part, unit in zip(found.groups(), _UNIT_S, strict=True) if part)


def reset_wait(headers: Mapping[str, str]) -> float | None:
    """Seconds until the limit a 429 ran into is whole again, from its `x-ratelimit-*` headers (see the
    module's docstring), or None when they say no reset."""
    fields = {name.lower(): value for name, value in headers.items()}
    known: dict[str, float] = {}
    for name, value in fields.items():
        wait = duration_s(value) if name.startswith(_RESET) else None
        if wait is not None:
            known[name[len(_RESET) :]] = wait
    bare = duration_s(fields[_BARE_RESET]) if _BARE_RESET in fields else None
    if bare is not None and bare < _EPOCH_FROM:  # Together's one limit: its name is "", its headers bare
        known[""] = bare
    if not known:
        return None
    used_up = [
        wait for limit, wait in known.items() if _used_up(fields.get(_REMAINING + limit if limit else _BARE_LEFT))
    ]
    return max(used_up) if used_up else min(known.values())


_BARE_RESET, _BARE_LEFT = "x-ratelimit-reset", "x-ratelimit-remaining"
"""Together's headers of its one (requests) limit: seconds until it is whole, and what is left of it."""
_EPOCH_FROM = 1e9
"""A bare reset this large (2001 on) is a time (GitHub's epoch seconds), not a wait: read as none."""


def _used_up(remaining: str | None) -> bool:
    try:
        return remaining is not None and float(remaining.strip()) <= 0
    except ValueError:
        return False


_RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"
_PROTO_DURATION = re.compile(r"\s*(\d+(?:\.\d{1,9})?)s\s*")


def said_delay(body: str) -> float | None:
    """The wait an error body says, in seconds: the `retryDelay` of the `RetryInfo` in a Google error
    (the object, or Google's one-item list of it), or the `estimated_time` beside the `error` of
    Hugging Face's model still loading (`{"error": "Model … is currently loading", "estimated_time":
    20.0}`, a 503); None when there is none or it is unreadable."""
    if _RETRY_INFO not in body and _ESTIMATED not in body:  # most error bodies: not parsed at all
        return None
    data = parsed(body)
    if isinstance(data, dict) and data.get("error") and _ESTIMATED in data:
        return _seconds(data[_ESTIMATED])
    error = error_object(data)
    details = error.get("details") if error is not None else None
    for detail in details if isinstance(details, list) else ():
        if isinstance(detail, dict) and detail.get("@type") == _RETRY_INFO:
            return _delay(detail.get("retryDelay"))
    return None


_ESTIMATED = "estimated_time"


def _seconds(value: Any) -> float | None:
    """A number of seconds (0 or more, finite), or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if 0 <= value < float("inf") else None


def _delay(value: Any) -> float | None:
    found = _PROTO_DURATION.fullmatch(value) if isinstance(value, str) else None
    return float(found[1]) if found else None


_WORDED = re.compile(
    r"\b(?:try again|retry) (?:in|after) (?:about )?((?:\d+(?:\.\d+)?(?:ms|h|m|s))+|\d+(?:\.\d+)?) ?"
    r"(seconds?|secs?|minutes?|mins?)?\b",
    re.IGNORECASE,
)
""""try again in 1.8s", "retry in 37.474s", "try again in 7m12s", "try again in 386ms", "retry in 20 seconds",
Azure OpenAI's "Please retry after 6 seconds.", "try again after 1 minute"."""


def worded_wait(message: str) -> float | None:
    """The wait an error's message says in words (`_WORDED`), in seconds; None when it says none."""
    found = _WORDED.search(message)
    if found is None or (found[1][-1].isdigit() and not found[2]):  # a bare number needs its unit
        return None
    wait = duration_s(found[1])
    return wait * 60 if wait is not None and found[2] and found[2].lower().startswith("min") else wait


_RELAYED = "RateLimit-Reset"
_EPOCH_MS = 1e12
"""From here a reset is a time in epoch milliseconds (OpenRouter's); from `_EPOCH_S` in epoch seconds."""
_EPOCH_S = 1e9


def relayed_reset(body: str, now: float) -> float | None:
    """Seconds from `now` until the limit a 429's error relays in `metadata.headers` is whole again
    (OpenRouter's `X-RateLimit-Reset`, epoch milliseconds; epoch seconds and plain seconds read too), when
    it says that limit is used up (`X-RateLimit-Remaining` 0, or not said); None when the body relays none."""
    if _RELAYED not in body:  # most 429s: not parsed at all
        return None
    error = error_object(parsed(body))
    metadata = error.get("metadata") if error is not None else None
    headers = metadata.get("headers") if isinstance(metadata, dict) else None
    if not isinstance(headers, dict):
        return None
    named = {str(key).lower(): value for key, value in headers.items()}
    remaining = named.get("x-ratelimit-remaining")
    if remaining is not None and str(remaining).strip() not in ("0", "0.0"):
        return None
    reset = _number_of(named.get("x-ratelimit-reset"))
    if reset is None:
        return None
    if reset >= _EPOCH_MS:
        return max(0.0, reset / 1000 - now)
    return max(0.0, reset - now) if reset >= _EPOCH_S else reset


def _number_of(value: Any) -> float | None:
    """A number given as one or as its digits (`1741305600000`, `"1741305600000"`), 0 or more; else None."""
    if isinstance(value, str) and re.fullmatch(r"\d+(?:\.\d+)?", value.strip()):
        return float(value)
    return _seconds(value)
