"""A 429 without `Retry-After` is retried after the reset its `x-ratelimit-*` headers give (OpenAI's,
Groq's, Together's: `x-ratelimit-reset-requests: 1m30s`), not after a half-second backoff that spends
every retry before the limit is whole again."""

import json

import httpx
import pytest
from test_client import Script, make

from toolkit.chat.messages import UserMessage
from toolkit.chat.rate_limits import duration_s, relayed_reset, reset_wait, said_delay, worded_wait
from toolkit.errors import TransientError

LIMITED = {"error": {"message": "Rate limit reached for requests", "type": "requests", "code": "rate_limit_exceeded"}}
OK = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi."}, "finish_reason": "stop"}]}


@pytest.mark.parametrize(
    "text, seconds",
    [
        ("1m30s", 90.0),
        ("6m0s", 360.0),
        ("2m59.56s", 179.56),
        ("7.66s", 7.66),
        ("20ms", 0.02),
        ("1h2m", 3720.0),
        ("1.5", 1.5),
        ("", None),
        ("soon", None),
        ("1m30", None),
        ("-1s", None),
        ("１s", None),
    ],
)
def test_a_reset_written_as_a_go_duration(text, seconds):
    assert duration_s(text) == pytest.approx(seconds) if seconds is not None else duration_s(text) is None


@pytest.mark.parametrize(
    "headers, wait",
    [
        (
            {
                "x-ratelimit-remaining-requests": "0",
                "x-ratelimit-reset-requests": "1s",
                "x-ratelimit-remaining-tokens": "0",
                "x-ratelimit-reset-tokens": "6m0s",
            },
            360.0,
        ),  # both used up: the later
        (
            {
                "x-ratelimit-remaining-requests": "59",
                "x-ratelimit-reset-requests": "1s",
                "x-ratelimit-remaining-tokens": "0",
                "x-ratelimit-reset-tokens": "7.66s",
            },
            7.66,
        ),  # the one used up
        (
            {
                "x-ratelimit-remaining-requests": "59",
                "x-ratelimit-reset-requests": "2s",
                "x-ratelimit-remaining-tokens": "200",
                "x-ratelimit-reset-tokens": "7.66s",
            },
            2.0,
        ),  # none: the soonest
        (
            {
                "x-ratelimit-remaining-requests-day": "0",
                "x-ratelimit-reset-requests-day": "33011.4",
                "x-ratelimit-remaining-tokens-minute": "900",
                "x-ratelimit-reset-tokens-minute": "11.38",
            },
            33011.4,
        ),  # Cerebras
        (
            {
                "x-ratelimit-remaining-requests-day": "99",
                "x-ratelimit-reset-requests-day": "33011.4",
                "x-ratelimit-remaining-tokens-minute": "0",
                "x-ratelimit-reset-tokens-minute": "11.38",
            },
            11.38,
        ),
        ({"x-ratelimit-reset-tokens": "soon"}, None),
        ({}, None),
        ({"x-ratelimit-limit": "60", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "2"}, 2.0),  # Together
        ({"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1765043000"}, None),  # GitHub's epoch: no wait
        (
            {
                "x-ratelimit-remaining": "5",
                "x-ratelimit-reset": "3",
                "x-ratelimit-remaining-tokens": "0",
                "x-ratelimit-reset-tokens": "9s",
            },
            9.0,
        ),
    ],
)
def test_which_reset_a_429_waits_for(headers, wait):
    assert reset_wait(httpx.Headers(headers)) == wait


def test_a_429_is_retried_after_its_reset():
    headers = {"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "1.5s"}
    client, sleeps = make(Script(httpx.Response(429, headers=headers, json=LIMITED), httpx.Response(200, json=OK)))
    assert client.chat([UserMessage(content="hi")]).message.content == "Hi." and sleeps == [1.5]


def test_togethers_429_is_retried_after_its_bare_reset():
    """Together sends `x-ratelimit-reset` (seconds, no `-requests`/`-tokens`). Before: read as no wait."""
    headers = {"x-ratelimit-limit": "10", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "2.5"}
    client, sleeps = make(Script(httpx.Response(429, headers=headers, json=LIMITED), httpx.Response(200, json=OK)))
    assert client.chat([UserMessage(content="hi")]).message.content == "Hi." and sleeps == [2.5]


def test_a_reset_beyond_the_cap_is_said_at_once_not_spent_on_backoffs():
    headers = {"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "1m30s"}
    client, sleeps = make(Script(httpx.Response(429, headers=headers, json=LIMITED)))
    with pytest.raises(TransientError) as caught:
        client.chat([UserMessage(content="hi")])
    assert sleeps == [] and caught.value.retry_after == 90.0
    assert str(caught.value) == (
        "HTTP 429 (transient): Rate limit reached for requests — the gateway asks to wait 90 s, more than "
        "RetryPolicy.max_retry_after_s=30; not retried, try again later (the wait is in .retry_after)"
    )


def test_retry_after_comes_before_the_reset_headers():
    headers = {"retry-after": "2", "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "1m30s"}
    client, sleeps = make(Script(httpx.Response(429, headers=headers, json=LIMITED), httpx.Response(200, json=OK)))
    client.chat([UserMessage(content="hi")])
    assert sleeps == [2.0]


# --- Google's RetryInfo: the wait in the error body ------------------------------------------------


def gemini_429(delay, quotas=1):
    violations = [{"quotaId": f"GenerateRequestsPerMinutePerProjectPerModel-{n}"} for n in range(quotas)]
    details = [
        {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": violations},
        {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay},
    ]
    error = {"code": 429, "message": "You exceeded your current quota.", "status": "RESOURCE_EXHAUSTED"}
    return [{"error": {**error, "details": details}}]


@pytest.mark.parametrize(
    "body, wait",
    [
        (gemini_429("37s"), 37.0),
        (gemini_429("1.203608125s"), 1.203608125),
        (gemini_429("soon"), None),
        (gemini_429(37), None),
        ({"error": {"details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "2s"}]}}, 2.0),
        ({"error": {"message": "type.googleapis.com/google.rpc.RetryInfo"}}, None),
    ],
)
def test_the_retry_delay_a_google_error_body_gives(body, wait):
    assert said_delay(json.dumps(body)) == wait


def test_geminis_429_is_retried_after_its_retry_delay_or_said_at_once_beyond_the_cap():
    long = gemini_429("1.5s", quotas=40)  # longer than the 2,000 characters an error keeps of its body
    assert len(json.dumps(long)) > 2000
    script = Script(httpx.Response(429, json=long), httpx.Response(200, json=OK))
    client, sleeps = make(script)
    assert client.chat([UserMessage(content="hi")]).message.content == "Hi." and sleeps == [1.5]
    client, sleeps = make(Script(httpx.Response(429, json=gemini_429("37s"))))
    with pytest.raises(TransientError) as caught:
        client.chat([UserMessage(content="hi")])
    assert sleeps == [] and caught.value.retry_after == 37.0
    assert str(caught.value) == (
        "HTTP 429 (transient): You exceeded your current quota. — the gateway asks to wait 37 s, more than "
        "RetryPolicy.max_retry_after_s=30; not retried, try again later (the wait is in .retry_after)"
    )


@pytest.mark.parametrize(
    "body, wait",
    [
        ({"error": "Model HuggingFaceH4/zephyr-7b-beta is currently loading", "estimated_time": 20.5}, 20.5),
        ({"error": "Model is currently loading", "estimated_time": "soon"}, None),
        ({"error": "Model is currently loading", "estimated_time": True}, None),
        ({"error": "Model is currently loading", "estimated_time": -1}, None),
        ({"estimated_time": 3}, None),  # no error beside it
    ],
)
def test_the_wait_hugging_faces_model_still_loading_gives(body, wait):
    assert said_delay(json.dumps(body)) == wait


def test_hugging_faces_503_for_a_model_still_loading_waits_its_estimate():
    loading = {"error": "Model HuggingFaceH4/zephyr-7b-beta is currently loading", "estimated_time": 12.0}
    client, sleeps = make(Script(httpx.Response(503, json=loading), httpx.Response(200, json=OK)))
    assert client.chat([UserMessage(content="hi")]).message.content == "Hi." and sleeps == [12.0]


# --- the wait in the message's words ---------------------------------------------------------------


@pytest.mark.parametrize(
    "message, wait",
    [
        (
            "Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000. Please try again in 1.8s.",
            1.8,
        ),
        ("Rate limit reached for model `llama-3.3-70b` on tokens per day (TPD). Please try again in 7m12.5s.", 432.5),
        ("Please try again in 386ms.", 0.386),
        (
            "Quota exceeded for metric: generate_content_free_tier_requests. Please retry in 37.474117868s.",
            37.474117868,
        ),
        ("Too many requests, retry in 20 seconds", 20.0),
        (  # Azure OpenAI's, sent with Retry-After, which a relay may drop
            "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have "
            "exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds.",
            6.0,
        ),
        ("Rate limit exceeded. Please try again after 1 minute.", 60.0),
        ("Quota exceeded; retry after 2 mins", 120.0),
        ("Please retry after 2026-12-06.", None),  # a date: no wait
        ("Please try again in 20", None),  # no unit
        ("Please try again later.", None),
        ("Rate limit reached. Upgrade to try again in a higher tier", None),
    ],
)
def test_the_wait_a_rate_limits_words_say(message, wait):
    assert worded_wait(message) == pytest.approx(wait) if wait is not None else worded_wait(message) is None


def test_a_429_that_says_its_wait_only_in_words_waits_it():
    limited = {"error": {"message": "Rate limit reached on tokens per min (TPM). Please try again in 2.5s."}}
    client, sleeps = make(Script(httpx.Response(429, json=limited), httpx.Response(200, json=OK)))
    assert client.chat([UserMessage(content="hi")]).message.content == "Hi." and sleeps == [2.5]


DATE = "Sat, 05 Dec 2026 10:00:00 GMT"
DATE_MS = 1796464800000  # DATE in epoch milliseconds


def _openrouter_429(kind: str, reset_ms: int, remaining: str = "0") -> dict:
    """OpenRouter's 429 for a free model's limit: the limit's own headers relayed inside the error."""
    headers = {"X-RateLimit-Limit": "50", "X-RateLimit-Remaining": remaining, "X-RateLimit-Reset": str(reset_ms)}
    message = f"Rate limit exceeded: {kind}. Add 10 credits to unlock 1000 free model requests per day"
    return {"error": {"message": message, "code": 429, "metadata": {"headers": headers}}, "user_id": "user_2x"}


def test_openrouters_free_daily_limit_is_said_at_once_with_its_wait_not_spent_on_backoffs():
    """Before: retried twice at once (the reset is hours away), then `HTTP 429 (transient): …` with no wait."""
    body = _openrouter_429("free-models-per-day", DATE_MS + 5 * 3600 * 1000)
    client, sleeps = make(Script(httpx.Response(429, headers={"date": DATE}, json=body)))
    with pytest.raises(TransientError) as caught:
        client.chat([UserMessage(content="hi")])
    assert sleeps == [] and caught.value.retry_after == 18000.0
    assert str(caught.value) == (
        "HTTP 429 (transient): Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model "
        "requests per day — the gateway asks to wait 18000 s, more than RetryPolicy.max_retry_after_s=30; not "
        "retried, try again later (the wait is in .retry_after)"
    )


def test_openrouters_free_per_minute_limit_is_retried_after_its_reset():
    body = _openrouter_429("free-models-per-min", DATE_MS + 2500)
    replies = Script(httpx.Response(429, headers={"date": DATE}, json=body), httpx.Response(200, json=OK))
    client, sleeps = make(replies)
    assert client.chat([UserMessage(content="hi")]).message.content == "Hi." and sleeps == [2.5]


@pytest.mark.parametrize(
    "body, wait",
    [
        (json.dumps(_openrouter_429("x", 1_796_464_812_000)), 12.0),
        (json.dumps(_openrouter_429("x", 1_796_464_812_000, remaining="3")), None),  # not this limit
        (json.dumps(_openrouter_429("x", 1_796_464_790_000)), 0.0),  # already past
        (json.dumps({"error": {"metadata": {"headers": {"X-RateLimit-Reset": "1796464830"}}}}), 30.0),  # seconds
        (json.dumps({"error": {"metadata": {"headers": {"X-RateLimit-Reset": "soon"}}}}), None),
        (json.dumps({"error": {"metadata": {"headers": ["X-RateLimit-Reset"]}}}), None),
        ('{"error": "X-RateLimit-Reset', None),
    ],
)
def test_the_reset_a_relayed_limit_gives(body, wait):
    assert relayed_reset(body, DATE_MS / 1000) == wait
