"""An account out of credit is no rate limit: a 429 (or a 402, or an error inside a 200) that
says so is raised at once as `OutOfCreditError`, with a hint on billing; every other 429 is still
retried. The error's fields decide first; its text only when no field names the kind."""

import json

import httpx
import pytest
from test_client import Script

from toolkit.chat.client import ChatClient, error_message
from toolkit.chat.credit import out_of_credit
from toolkit.chat.messages import UserMessage
from toolkit.course.live import explain
from toolkit.errors import CallerError, OutOfCreditError, TransientError

QUESTION = [UserMessage(content="hi")]
KEY = "sk-proj-" + "Cr3d1t" * 6
ANSWER = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Shipped."}, "finish_reason": "stop"}]}
SSE = {"content-type": "text/event-stream"}
FIX = (
    "the account is out of credit or quota{named}: add credit or raise the limit in the provider's billing "
    "settings, or use another key (not retried)"
)
HINT = (
    "The account behind the key has no credit or quota left, and waiting will not change that: add credit or "
    "raise the limit in the provider's billing settings, or use another key."
)
OPENAI_QUOTA = {
    "error": {
        "message": "You exceeded your current quota, please check your plan and billing details.",
        "type": "insufficient_quota",
        "param": None,
        "code": "insufficient_quota",
    }
}
OPENAI_RATE = {
    "error": {
        "message": "Rate limit reached for gpt-4o on requests per min (RPM): Limit 3. You can increase your rate "
        "limit by adding a payment method to your account at https://platform.openai.com/account/billing.",
        "type": "requests",
        "code": "rate_limit_exceeded",
    }
}
GEMINI_PER_MINUTE = [
    {
        "error": {
            "code": 429,
            "message": "You exceeded your current quota, please check your plan and billing details.",
            "status": "RESOURCE_EXHAUSTED",
            "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "8s"}],
        }
    }
]


def make(*replies):
    sleeps, script = [], Script(*replies)
    client = ChatClient("http://gw.test/v1", KEY, "m", transport=httpx.MockTransport(script), sleep=sleeps.append)
    return client, script, sleeps


def test_openais_insufficient_quota_429_is_raised_at_once_with_a_billing_hint():
    client, script, sleeps = make(httpx.Response(429, json=OPENAI_QUOTA), httpx.Response(200, json=ANSWER))
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    error = caught.value
    assert str(error) == (
        "HTTP 429: You exceeded your current quota, please check your plan and billing details. — "
        + FIX.format(named=" (insufficient_quota)")
    )
    assert (error.status, error.attempts, error.hint) == (429, 1, HINT)
    assert isinstance(error, CallerError) and len(script.requests) == 1 and sleeps == []
    assert explain(error, client).startswith(
        "The gateway at http://gw.test/v1 says the account is out of credit or quota: HTTP 429: You exceeded"
    )


@pytest.mark.parametrize(
    "status, body, named",
    [
        (
            429,
            {"error": {"message": "Your account is suspended", "type": "exceeded_current_quota_error"}},
            " (exceeded_current_quota_error)",
        ),
        (
            429,
            {"code": "Arrearage", "message": "Access denied, please make sure your account is in good standing."},
            " (Arrearage)",
        ),
        (  # DashScope's compatible mode says an account in arrears with a 400 (QwenLM/Qwen#1414)
            400,
            {
                "error": {
                    "code": "Arrearage",
                    "param": None,
                    "message": "Access denied, please make sure your account is in good standing.",
                    "type": "Arrearage",
                }
            },
            " (Arrearage)",
        ),
        (429, {"error": {"code": "1113", "message": "余额不足或无可用资源包,请充值。"}}, ""),
        (429, {"error": {"message": "Insufficient balance", "type": "invalid_request_error"}}, ""),
        (429, {"detail": "Out of credits: top up your account"}, ""),
        (402, {"error": {"message": "Insufficient Balance", "type": "unknown_error"}}, ""),
        (402, {"error": {"code": 402, "message": "This request requires more credits"}}, ""),
        (
            403,
            {"error": {"message": "用户额度不足", "type": "new_api_error", "code": "insufficient_user_quota"}},
            " (insufficient_user_quota)",
        ),
        (  # Volcano Engine Ark (Doubao): an account with an overdue balance
            403,
            {
                "error": {
                    "code": "AccountOverdueError",
                    "message": "The request failed because your account has an overdue balance. Request id: 0217",
                    "param": "",
                    "type": "Forbidden",
                }
            },
            " (AccountOverdueError)",
        ),
        (
            403,
            {
                "error": {
                    "code": "OperationDenied.ServiceOverdue",
                    "message": "Operation is denied because your account balance is overdue.",
                    "type": "Forbidden",
                }
            },
            " (OperationDenied.ServiceOverdue)",
        ),
    ],
)
def test_every_gateways_way_to_say_out_of_credit_is_not_retried(status, body, named):
    client, script, sleeps = make(httpx.Response(status, json=body), httpx.Response(200, json=ANSWER))
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).endswith(" — " + FIX.format(named=named))
    assert caught.value.status == status and len(script.requests) == 1 and sleeps == []


@pytest.mark.parametrize(
    "body, headers",
    [
        (OPENAI_RATE, {}),  # its text names billing and payment: its code decides
        (GEMINI_PER_MINUTE, {}),  # OpenAI's words for an empty account, but a retryDelay and no code naming it
        ({"error": {"message": "You exceeded your current quota"}}, {"retry-after": "1"}),  # a wait: it passes
        ({"error": {"message": "quota exceeded: 60 requests per minute"}}, {}),
        (
            {
                "code": "Throttling.AllocationQuota",
                "message": "Allocated quota exceeded, please increase your quota limit.",
            },
            {},
        ),
        ({"error": {"message": "当前API请求过多，请稍后重试。", "code": "1305"}}, {}),
        ({"error": {"message": "slow down"}}, {}),
    ],
)
def test_every_other_429_is_still_retried(body, headers):
    client, script, sleeps = make(httpx.Response(429, json=body, headers=headers), httpx.Response(200, json=ANSWER))
    assert client.chat(QUESTION).message.content == "Shipped."
    assert len(script.requests) == 2 and len(sleeps) == 1


GEMINI_EXHAUSTED = {  # Vertex AI / Gemini: a per-minute limit or the shared pool, worded with "quota"
    "error": {"code": 429, "message": "Resource has been exhausted (e.g. check quota).", "status": "RESOURCE_EXHAUSTED"}
}
GEMINI_QUOTA_FAILURE = {
    "error": {
        "code": 429,
        "message": "You exceeded your current quota, please check your plan and billing details.",
        "status": "RESOURCE_EXHAUSTED",
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                "violations": [{"quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}],
            }
        ],
    }
}
GEMINI_PREPAID_EMPTY = {
    "error": {
        "code": 429,
        "message": "Your prepayment credits are depleted. Please go to AI Studio at https://ai.studio/projects to "
        "manage your project and billing.",
        "status": "RESOURCE_EXHAUSTED",
    }
}


@pytest.mark.parametrize("body", [GEMINI_EXHAUSTED, [GEMINI_EXHAUSTED], GEMINI_QUOTA_FAILURE])
def test_googles_resource_exhausted_is_a_rate_limit_and_retried(body):
    """Before: "Resource has been exhausted (e.g. check quota)" (no retryDelay) and a QuotaFailure without one
    were read as an empty account ("quota", "billing") and never retried, though Google's RESOURCE_EXHAUSTED is
    a quota of requests or tokens per minute or day, which passes (Google's guide: retry with backoff)."""
    client, script, sleeps = make(httpx.Response(429, json=body), httpx.Response(200, json=ANSWER))
    assert client.chat(QUESTION).message.content == "Shipped."
    assert len(script.requests) == 2 and len(sleeps) == 1
    assert out_of_credit(body, json.dumps(body)) is None


def test_googles_resource_exhausted_for_spent_prepaid_credits_is_out_of_credit():
    client, script, sleeps = make(httpx.Response(429, json=GEMINI_PREPAID_EMPTY), httpx.Response(200, json=ANSWER))
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == (
        "HTTP 429: Your prepayment credits are depleted. Please go to AI Studio at https://ai.studio/projects to "
        "manage your project and billing. — " + FIX.format(named="")
    )
    assert len(script.requests) == 1 and sleeps == []


def test_a_429_that_keeps_coming_still_ends_as_a_transient_rate_limit():
    client, script, _ = make(*[httpx.Response(429, json=OPENAI_RATE)] * 3)
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).startswith("HTTP 429 (transient): Rate limit reached") and len(script.requests) == 3


def test_out_of_credit_inside_a_200_or_a_stream_is_not_retried_either():
    inside = {"error": {"code": 429, "message": f"Insufficient balance for key {KEY}"}}
    client, script, sleeps = make(httpx.Response(200, json=inside), httpx.Response(200, json=ANSWER))
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == (
        f"gateway answered 200 with an error: Insufficient balance for key ***{KEY[-4:]} — " + FIX.format(named="")
    )
    assert caught.value.status == 429 and len(script.requests) == 1 and sleeps == []

    events = 'data: {"choices":[{"index":0,"delta":{"content":"Ship"}}]}\n\n' + f"data: {json.dumps(OPENAI_QUOTA)}\n\n"
    client, script, sleeps = make(httpx.Response(200, text=events, headers=SSE), httpx.Response(200, json=ANSWER))
    with pytest.raises(OutOfCreditError) as caught:
        list(client.stream(QUESTION))
    assert str(caught.value) == (
        "gateway sent an error mid-stream: You exceeded your current quota, please check your plan and billing "
        "details. — " + FIX.format(named=" (insufficient_quota)")
    )
    assert len(script.requests) == 1 and sleeps == []


def test_an_overload_inside_a_200_is_still_retried():
    overload = {"error": {"code": 429, "message": "Rate limit exceeded: free-models-per-min"}}
    client, script, _ = make(httpx.Response(200, json=overload), httpx.Response(200, json=ANSWER))
    assert client.chat(QUESTION).message.content == "Shipped." and len(script.requests) == 2


@pytest.mark.parametrize(
    "data, text, waits, said",
    [
        (OPENAI_QUOTA, "", False, "insufficient_quota"),
        (OPENAI_QUOTA, "", True, "insufficient_quota"),  # a field decides, whatever the wait
        (OPENAI_RATE, json.dumps(OPENAI_RATE), False, None),
        ({"error": {"message": "Insufficient balance"}}, "Insufficient balance", False, ""),
        ({"error": {"message": "Insufficient balance"}}, "Insufficient balance", True, None),
        ({"error": {"message": "Insufficient balance"}}, "", False, None),  # no text to read: fields only
        ({"error": {"type": "invalid_request_error"}}, "load balancer busy, try again in 2s", False, None),
        ("not an object", "", False, None),
    ],
)
def test_out_of_credit_reads_fields_first_then_the_text(data, text, waits, said):
    assert out_of_credit(data, text, waits=waits) == said


@pytest.mark.parametrize(
    "body",
    [
        {"error": {"code": "1113", "message": "余额不足或无可用资源包,请充值。"}},
        {"error": {"message": "用户额度不足"}},
    ],
)
def test_an_empty_account_said_in_escaped_json_is_not_retried(body):
    """Before: the text was read as the gateway sent it, so a body written with `\\uXXXX` escapes (Python's
    `json.dumps`, Flask's `jsonify`, httpx before 0.28 all write them) said "余额不足" to nobody: the 429
    was retried as a rate limit and ended as one. The words are read as the JSON says them."""
    escaped = json.dumps(body).encode("ascii")
    assert b"\\u" in escaped
    reply = httpx.Response(429, content=escaped, headers={"content-type": "application/json"})
    client, script, sleeps = make(reply, httpx.Response(200, json=ANSWER))
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).endswith(" — " + FIX.format(named=""))
    assert len(script.requests) == 1 and sleeps == []


def test_a_rate_limit_said_in_escaped_json_stays_retried():
    """The escaped words of a rate limit ("请稍后重试") keep a 429 that also names the balance retried."""
    body = {"error": {"message": "余额查询过于频繁，请稍后重试"}}
    assert out_of_credit(body, json.dumps(body)) is None
    assert out_of_credit(body, json.dumps(body, ensure_ascii=False)) is None


def test_a_400_is_out_of_credit_by_its_fields_only():
    """A 400 whose words alone name a balance or a quota (a request over a model's token quota) is
    the request's fault, as before: only a field naming arrears or billing makes it out of credit."""
    body = {"error": {"message": "max_tokens exceeds this model's quota of 8192", "type": "invalid_request_error"}}
    client, script, _ = make(httpx.Response(400, json=body))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert not isinstance(caught.value, OutOfCreditError) and len(script.requests) == 1


ANTHROPIC_NO_CREDIT = {  # Anthropic's API (and its OpenAI-compatible endpoint) says an empty account with a 400
    "type": "error",
    "error": {
        "type": "invalid_request_error",
        "message": "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to "
        "upgrade or purchase credits.",
    },
    "request_id": "req_011CbrFTcXhtiMzr3s6EocF7",
}


@pytest.mark.parametrize(
    "status, body",
    [
        (400, ANTHROPIC_NO_CREDIT),
        (400, {"error": {"message": "Insufficient account balance", "type": "invalid_request_error"}}),
        (403, {"error": {"message": "账户余额不足，请充值后再试", "type": "forbidden"}}),
    ],
)
def test_a_400_or_403_whose_message_says_money_is_spent_is_out_of_credit(status, body):
    """Before: Anthropic's "Your credit balance is too low" 400 read as a malformed request ("HTTP 400: … —
    check the request …"), though no change to the request helps. A 400 or a 403 whose message names spent
    money (a balance, credits, arrears, a top-up) is out of credit; its words of quota or billing alone are not."""
    client, script, sleeps = make(httpx.Response(status, json=body), httpx.Response(200, json=ANSWER))
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == f"HTTP {status}: {error_message(json.dumps(body))} — " + FIX.format(named="")
    assert caught.value.hint == HINT and len(script.requests) == 1 and sleeps == []
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "body",
    [
        {"error": {"message": "max_tokens exceeds this model's quota of 8192", "type": "invalid_request_error"}},
        {"error": {"message": "upstream load balancer refused the request", "type": "invalid_request_error"}},
        {"error": {"message": "invalid model", "type": "invalid_request_error"}, "input": "what is my balance?"},
    ],
)
def test_a_400_about_the_request_stays_a_caller_error(body):
    """The message decides, not the body: a 400 quoting the learner's words about a balance is no empty account."""
    client, script, _ = make(httpx.Response(400, json=body))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert not isinstance(caught.value, OutOfCreditError) and len(script.requests) == 1


LITELLM_BUDGET_429 = {  # LiteLLM proxy: a key's, user's or team's budget spent (its `ProxyErrorTypes.budget_exceeded`)
    "error": {
        "message": "LiteLLM User: engineer-1, exceeded budget for model=claude-opus-4",
        "type": "budget_exceeded",
        "param": None,
        "code": "429",
    }
}
LITELLM_BUDGET_400 = {  # LiteLLM behind LiteLLM: the inner proxy's budget error, typed by neither
    "error": {
        "message": "litellm.BadRequestError: OpenAIException - Budget has been exceeded! Current cost: 14.2, Max "
        "budget: 10.0. Received Model Group=gpt-4o\nAvailable Model Group Fallbacks=None",
        "type": None,
        "param": None,
        "code": "400",
    }
}
LITELLM_END_USER = {"error": {"message": "ExceededBudget: End User=ishaan3 over budget. Spend=0.0009, Budget=0.0001"}}


@pytest.mark.parametrize(
    "status, body, named",
    [(429, LITELLM_BUDGET_429, " (budget_exceeded)"), (400, LITELLM_BUDGET_400, ""), (429, LITELLM_END_USER, "")],
)
def test_a_proxys_spent_budget_is_out_of_credit_not_a_rate_limit_nor_a_bad_request(status, body, named):
    """Before: LiteLLM's 429 `budget_exceeded` was retried as a rate limit (the budget lasts till its period
    ends) and its 400 "Budget has been exceeded!" told the learner to fix the request body."""
    client, script, sleeps = make(httpx.Response(status, json=body), httpx.Response(200, json=ANSWER))
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).endswith(" — " + FIX.format(named=named))
    assert len(script.requests) == 1 and sleeps == [] and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "message",
    [
        "max_tokens must be greater than thinking.budget_tokens",
        "Budget 0 is invalid. This model only works in thinking mode.",
        "thinking budget exceeds the maximum of 24576",
    ],
)
def test_a_400_about_a_thinking_budget_stays_a_caller_error(message):
    client, script, _ = make(httpx.Response(400, json={"error": {"message": message, "type": "invalid_request_error"}}))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert not isinstance(caught.value, OutOfCreditError) and len(script.requests) == 1


def gemini_quota(*violations, retry="8s"):
    """Gemini's OpenAI-compatible endpoint's 429 for a quota, as it sends one: a one-item list, the quotas hit
    in a QuotaFailure (each a `quotaId`, and its `quotaValue`), a link, and a RetryInfo."""
    message = (
        "You exceeded your current quota, please check your plan and billing details. For more information on "
        "this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: "
        "generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 50\nPlease retry in 8.2s."
    )
    failure = {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": list(violations)}
    help_links = {"@type": "type.googleapis.com/google.rpc.Help", "links": [{"url": "https://ai.google.dev/"}]}
    retry_info = {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": retry}
    details = [failure, help_links, retry_info]
    return [{"error": {"code": 429, "message": message, "status": "RESOURCE_EXHAUSTED", "details": details}}]


PER_DAY = {"quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier", "quotaValue": "50"}
PER_MINUTE = {"quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "quotaValue": "10"}
NONE_GIVEN = {"quotaId": "GenerateContentInputTokensPerModelPerMinute-FreeTier", "quotaValue": "0"}
DAY_FIX = (
    "the quota for the day is used up ({named}): it comes back when the provider's day begins again (Gemini's at "
    "midnight Pacific time, Cloudflare's at 00:00 UTC), not within this turn; try again then, use another model, or "
    "raise the limit in the provider's billing settings (a paid plan) (not retried)"
)
GEMINI_DAY_FIX = DAY_FIX.format(named="GenerateRequestsPerDayPerProjectPerModel-FreeTier")


@pytest.mark.parametrize(
    ("violations", "fix"),
    [
        ([PER_DAY], GEMINI_DAY_FIX),
        ([PER_MINUTE, PER_DAY], GEMINI_DAY_FIX),  # both hit: the minute's comes back, the day's does not
        ([NONE_GIVEN], FIX.format(named=" (GenerateContentInputTokensPerModelPerMinute-FreeTier, limit 0)")),
    ],
)
def test_geminis_quota_for_the_day_or_a_limit_of_0_is_raised_at_once(violations, fix):
    """Before: Gemini's 429 for its free tier's requests per day (or a quota of 0 for the model) was retried after
    its `retryDelay` (8 s) and again, though a day's quota comes back at midnight Pacific time (Google's
    rate-limits page) and a limit of 0 never: the learner waited minutes for the same 429."""
    body = gemini_quota(*violations)
    client, script, sleeps = make(httpx.Response(429, json=body), httpx.Response(200, json=ANSWER))
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == f"HTTP 429: {error_message(json.dumps(body))} — {fix}"
    assert len(script.requests) == 1 and sleeps == [] and KEY not in explain(caught.value, client)


def test_geminis_quota_for_the_minute_is_still_waited_for():
    client, script, sleeps = make(httpx.Response(429, json=gemini_quota(PER_MINUTE)), httpx.Response(200, json=ANSWER))
    assert client.chat(QUESTION).message.content == "Shipped."
    assert len(script.requests) == 2 and sleeps == [8.0]


def test_geminis_quota_for_the_day_inside_a_200_is_raised_at_once_too():
    client, script, sleeps = make(httpx.Response(200, json=gemini_quota(PER_DAY)), httpx.Response(200, json=ANSWER))
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).endswith(" — " + GEMINI_DAY_FIX) and len(script.requests) == 1 and sleeps == []


CLOUDFLARE_DAY = {  # Workers AI's 429 once the free plan's neurons of the day are spent (its `errors` envelope)
    "errors": [
        {
            "code": 4006,
            "message": "you have used up your daily free allocation of 10,000 neurons, please upgrade to Cloudflare's "
            "Workers Paid plan if you would like to continue usage.",
        }
    ],
    "success": False,
    "result": {},
    "messages": [],
}


def test_cloudflares_daily_free_allocation_used_up_is_raised_at_once():
    """Before: Workers AI's 429 for its day's free neurons was retried as a rate limit (twice more, the same 429)
    and ended "HTTP 429 (transient)"; the allocation comes back at 00:00 UTC, not within the turn."""
    client, script, sleeps = make(*[httpx.Response(429, json=CLOUDFLARE_DAY)] * 3)
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == (
        f"HTTP 429: {CLOUDFLARE_DAY['errors'][0]['message']} — " + DAY_FIX.format(named="daily free allocation")
    )
    assert len(script.requests) == 1 and sleeps == []


def test_zhipus_daily_call_limit_reached_is_raised_at_once():
    """Zhipu's (GLM's) 429, code 1304: "this API has reached today's call limit" was retried as a rate limit."""
    body = {"error": {"code": "1304", "message": "该 API 已达今日调用次数限额，如有更多需求，请联系客服购买"}}
    client, script, sleeps = make(*[httpx.Response(429, json=body)] * 3)
    with pytest.raises(OutOfCreditError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == f"HTTP 429: {body['error']['message']} — " + DAY_FIX.format(named="今日调用次数限额")
    assert len(script.requests) == 1 and sleeps == []
