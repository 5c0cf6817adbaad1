"""An HTTP error is one line with what the gateway said, whatever shape its JSON takes: OpenAI's
`{"error": {"message"}}`, Ollama's `{"error": "…"}`, `{"detail": "…"}` and FastAPI's list of
problems (vLLM, LiteLLM), DashScope's `{"message": …}`; a shape not known here is quoted."""

import json

import httpx
import pytest
from test_client import Script, make

from toolkit.chat.client import MODEL_HINT, TOOLS_REFUSED_HINT, ChatClient, RetryPolicy, error_message
from toolkit.chat.context_limit import CONTEXT_HINT
from toolkit.chat.messages import UserMessage
from toolkit.course.probe import classify
from toolkit.errors import BadResponseError, CallerError, ModelCallError, TransientError

FASTAPI_422 = {
    "detail": [
        {"loc": ["body", "messages", 0, "role"], "msg": "field required", "type": "value_error.missing"},
        {"loc": ["body", "tools"], "msg": "extra fields not permitted", "type": "value_error.extra"},
    ]
}


@pytest.mark.parametrize(
    "body, said",
    [
        ({"error": {"message": "Invalid model", "type": "invalid_request_error", "code": None}}, "Invalid model"),
        ({"error": "model 'qwen3' not found, try pulling it first"}, "model 'qwen3' not found, try pulling it first"),
        ({"detail": "Not Found"}, "Not Found"),
        (
            {"message": "<400> InternalError.Algo.InvalidParameter:\n bad", "code": "InvalidParameter"},
            "<400> InternalError.Algo.InvalidParameter: bad",
        ),
        (FASTAPI_422, "body.messages.0.role: field required; body.tools: extra fields not permitted"),
        ({"detail": [{"msg": "no location"}, "not a problem"]}, "no location"),
        ({"error": {"code": "bad_request"}}, '{"error": {"code": "bad_request"}}'),
        ({"error": "   ", "detail": None}, '{"error": " ", "detail": null}'),
        ([1, 2], "[1, 2]"),
    ],
)
def test_what_an_error_body_says(body, said):
    assert error_message(json.dumps(body)) == said


def answering(status, body):
    transport = httpx.MockTransport(lambda request: httpx.Response(status, json=body))
    return ChatClient("http://gw.test/v1", "k", "m", transport=transport, retry=RetryPolicy(max_retries=0))


def test_a_caller_error_says_the_gateways_words_then_the_fix():
    with pytest.raises(CallerError) as caught:
        answering(404, {"detail": "Not Found"}).chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        "HTTP 404: Not Found — check LLM_BASE_URL (it usually ends in /v1) and LLM_MODEL (not retried)"
    )
    assert caught.value.body == '{"detail":"Not Found"}'


def test_a_transient_error_in_ollamas_shape_says_its_words():
    with pytest.raises(TransientError) as caught:
        answering(503, {"error": "server busy, please try again."}).chat([UserMessage(content="hi")])
    assert str(caught.value) == "HTTP 503 (transient): server busy, please try again."


def test_the_probe_quotes_a_fastapi_422_by_its_problems():
    assert classify(422, json.dumps(FASTAPI_422)) == (
        "C",
        "HTTP 422 naming the tools field: body.messages.0.role: field required; body.tools: extra fields not permitted",
    )


# --- HTML error pages: a proxy or a CDN in front of the gateway -----------------------------------

CLOUDFLARE_524 = """<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<!--[if IE 7]>    <html class="no-js ie7 oldie" lang="en-US"> <![endif]-->
<!--[if IE 8]>    <html class="no-js ie8 oldie" lang="en-US"> <![endif]-->
<!--[if gt IE 8]><!--> <html class="no-js" lang="en-US"> <!--<![endif]-->
<head>
<title>api.example.com | 524: A timeout occurred</title>
<meta charset="UTF-8" />
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<link rel="stylesheet" id="cf_styles-css" href="/cdn-cgi/styles/main.css" />
</head>
<body><div id="cf-wrapper"><h1>A timeout occurred</h1></div></body></html>
"""
NGINX_502 = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n"
    "<hr><center>nginx/1.18.0</center>\r\n</body>\r\n</html>\r\n"
)
GOOGLE_502 = (
    '<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <meta name=viewport content="initial-scale=1, '
    'minimum-scale=1, width=device-width">\n  <title>Error 502 (Server Error)!!1</title>\n  <style>\n    '
    "*{margin:0;padding:0}html,code{font:15px/22px arial,sans-serif}html{background:#fff;color:#222;padding:15px}"
    "\n  </style>\n  <p><b>502.</b> <ins>That’s an error.</ins>\n"
)
UNTITLED = "<html>\n<body>\n<!-- upstream: 10.0.0.7 -->\n<style>h1{color:red}</style><h1>502 Bad Gateway</h1>\n</body>\n</html>\n"


@pytest.mark.parametrize(
    "page, said",
    [
        (CLOUDFLARE_524, "api.example.com | 524: A timeout occurred (an HTML page)"),
        (NGINX_502, "502 Bad Gateway (an HTML page)"),
        (GOOGLE_502, "Error 502 (Server Error)!!1 (an HTML page)"),
        (UNTITLED, "502 Bad Gateway (an HTML page)"),
        ("<!doctype html><title>Tom &amp; Jerry&#39;s proxy</title>", "Tom & Jerry's proxy (an HTML page)"),
        ("<html><body></body></html>", "an HTML page with no text"),
        (  # a captive portal's or a company proxy's sign-in: a page that only sends the browser on
            "<script>window.location.href='https://login.corp.example/portal?session=s3cr3t#x'</script>",
            "an HTML page with no text, sending the browser to https://login.corp.example/portal",
        ),
        (
            "<meta http-equiv='refresh' content='0;url=http://user:pw@10.1.0.1:8002/login.html?redirurl=x'>",
            "an HTML page with no text, sending the browser to http://10.1.0.1:8002/login.html",
        ),
        (
            '<html><head><title>Sign in</title><meta content="5; URL=\'/sso/start\'" http-equiv="Refresh"></head>',
            "Sign in (an HTML page sending the browser to /sso/start)",
        ),
    ],
)
def test_an_html_error_page_says_its_title_or_its_text_not_its_markup(page, said):
    assert error_message(page) == said


def test_a_cdns_timeout_page_reads_as_one_short_line():
    transport = httpx.MockTransport(lambda request: httpx.Response(524, text=CLOUDFLARE_524))
    client = ChatClient("http://gw.test/v1", "k", "m", transport=transport, retry=RetryPolicy(max_retries=0))
    with pytest.raises(TransientError) as caught:
        client.chat([UserMessage(content="hi")])
    assert str(caught.value) == "HTTP 524 (transient): api.example.com | 524: A timeout occurred (an HTML page)"
    assert caught.value.body == CLOUDFLARE_524  # the page as it came, for diagnosis


@pytest.mark.parametrize("text", ["<b>bold</b> claims", "plain text < 3", "html is the word"])
def test_text_that_is_not_an_html_page_is_quoted_as_it_is(text):
    assert error_message(text) == text


def _answering_404(message: str) -> ChatClient:
    """A client of model `xlam-tool-7b` whose gateway answers every request with a 404 saying `message`."""
    body = {"error": {"message": message, "code": 404}}
    return ChatClient(
        "http://gw.test/v1",
        "k",
        "xlam-tool-7b",
        transport=httpx.MockTransport(lambda r: httpx.Response(404, json=body)),
    )


def test_a_404_refusing_the_requests_tools_does_not_blame_the_url():
    """OpenRouter answers a model no provider serves with tools by a 404: the usual 404 hint (check
    LLM_BASE_URL and LLM_MODEL) sent a learner to the wrong fix."""
    client = _answering_404("No endpoints found that support tool use.")
    tool = {"type": "function", "function": {"name": "query_order", "parameters": {"type": "object"}}}
    with pytest.raises(CallerError) as refused:
        client.chat([UserMessage(content="hi")], tools=[tool])
    assert str(refused.value) == f"HTTP 404: No endpoints found that support tool use. — {TOOLS_REFUSED_HINT}"
    with pytest.raises(CallerError) as plain:  # the same answer to a request without tools: the URL or the model
        client.chat([UserMessage(content="hi")])
    assert str(plain.value).endswith("— check LLM_BASE_URL (it usually ends in /v1) and LLM_MODEL (not retried)")
    client = _answering_404("The model `xlam-tool-7b` does not exist")
    with pytest.raises(CallerError) as named:  # "tool" only in the model's name: not about tools, about the model
        client.chat([UserMessage(content="hi")], tools=[tool])
    assert str(named.value).endswith(" — " + MODEL_HINT)


# --- a 200 that is a web page: a proxy's sign-in page, a gateway's home page ----------------------
SSO_LOGIN = (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
    '<link rel="stylesheet" href="/static/sso.css"><script src="/static/sso.js"></script>'
    "<title>Sign in &ndash; Acme Corp SSO</title></head><body><form method=post>user password</form></body></html>"
)
PAGE_HINT = (
    "check LLM_BASE_URL: it should be the API's base URL (often ending in /v1), not a web page such as a proxy's "
    "sign-in page"
)


def test_a_200_web_page_says_its_title_and_what_to_check_not_its_markup():
    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, text=SSO_LOGIN, headers={"content-type": "text/html; charset=utf-8"})
    )
    client = ChatClient("http://gw.test/v1", "k", "m", transport=transport, retry=RetryPolicy(max_retries=0))
    with pytest.raises(BadResponseError) as caught:
        client.chat([UserMessage(content="hi")])
    assert str(caught.value) == f"response body is not JSON but Sign in – Acme Corp SSO (an HTML page); {PAGE_HINT}"
    assert caught.value.body == SSO_LOGIN
    with pytest.raises(BadResponseError) as streamed:
        list(client.stream([UserMessage(content="hi")]))
    assert str(streamed.value) == (
        "the gateway answered a stream request with no server-sent events (Sign in – Acme Corp SSO (an HTML page)); "
        f"{PAGE_HINT}"
    )


CLOUDFLARE_BLOCK = (
    "<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head>"
    "<body><h1>Sorry, you have been blocked</h1></body></html>"
)
NGINX_401 = "<html><head><title>401 Authorization Required</title></head><body><h1>401</h1>nginx</body></html>"
REGION = {
    "error": {
        "message": "Country, region, or territory not supported",
        "type": "request_forbidden",
        "code": "unsupported_country_region_territory",
    }
}


@pytest.mark.parametrize(
    "status, body, said",
    [
        (
            403,
            CLOUDFLARE_BLOCK,
            "HTTP 403: Attention Required! | Cloudflare (an HTML page) — a web page, not the API's answer: a proxy, "
            "firewall or sign-in page in front of the gateway refused the request, not the gateway's key check; "
            "check LLM_BASE_URL, and whether this network may reach the gateway (not retried)",
        ),
        (
            401,
            NGINX_401,
            "HTTP 401: 401 Authorization Required (an HTML page) — a web page, not the API's answer: a proxy, "
            "firewall or sign-in page in front of the gateway refused the request, not the gateway's key check; "
            "check LLM_BASE_URL, and whether this network may reach the gateway (not retried)",
        ),
        (
            403,
            json.dumps(REGION),
            "HTTP 403: Country, region, or territory not supported — the provider does not serve the place this "
            "request comes from (its network's country or region): the request itself is fine; run it from a network "
            "in a region the provider serves, or use another gateway (not retried)",
        ),
        (
            405,
            "<html><head><title>405 Not Allowed</title></head></html>",
            "HTTP 405: 405 Not Allowed (an HTML page) — the address takes no POST request, so it is not the API's "
            "chat endpoint: check LLM_BASE_URL (it usually ends in /v1) (not retried)",
        ),
        (
            407,
            "<html><head><title>Proxy Authentication Required</title></head></html>",
            "HTTP 407: Proxy Authentication Required (an HTML page) — the HTTP proxy between this machine and the "
            "gateway asks for its own credentials: check HTTP_PROXY / HTTPS_PROXY (http://user:password@host:port), "
            "or unset them if the gateway needs no proxy (not retried)",
        ),
    ],
)
def test_a_refusal_by_something_in_front_of_the_gateway_is_not_blamed_on_the_key(status, body, said):
    """A 403 said "the key is not allowed to use this model" for a CDN's block page and for OpenAI's
    region refusal; a 401 sign-in page of a proxy said to check LLM_API_KEY; a 405 and a proxy's 407
    got the generic "the request was rejected; fix it"."""
    kind = "text/html" if body.startswith("<") else "application/json"
    transport = httpx.MockTransport(lambda r: httpx.Response(status, text=body, headers={"content-type": kind}))
    client = ChatClient("http://gw.test/v1", "k", "m", transport=transport)
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")])
    assert str(caught.value) == said


def test_an_error_body_is_masked_before_it_is_cut_so_no_head_of_the_key_shows():
    """An error's line quotes at most 200 characters of a body that is not JSON, and its `body` at
    most 2,000: both were cut before the key was masked, so a key the gateway echoed across a cut
    showed its head (`… key gwkey-lo`). Masked first, then cut."""
    key = "gwkey-local-0123456789abcdefXYZ"

    def echo(padding):
        return httpx.MockTransport(
            lambda request: httpx.Response(401, text="x" * padding + " key " + key + " is not valid")
        )

    for padding, cut in ((190, "line"), (1990, "body")):
        client = ChatClient("http://gw.test/v1", key, "m", transport=echo(padding), retry=RetryPolicy(max_retries=0))
        with pytest.raises(CallerError) as caught:
            client.chat("hi")
        said = f"{caught.value} {caught.value.body}"
        assert key[:5] not in said, cut
        if cut == "line":
            assert str(caught.value) == f"HTTP 401: {'x' * 190} key ***fX — check LLM_API_KEY (not retried)"
    assert caught.value.body == "x" * 1990 + " key ***fX"


@pytest.mark.parametrize(
    "body",
    [
        {"error_code": 18, "error_msg": "Open api qps request limit reached"},
        {"error_code": 336501, "error_msg": "Rate limit reached for RPM", "id": "as-x"},
        {"error_code": "336502", "error_msg": "Rate limit reached for TPM"},
        {"error_code": 2, "error_msg": "Service temporarily unavailable"},
        {"error_code": 336100, "error_msg": "try again later"},
    ],
)
def test_baidus_rate_limit_or_overload_inside_a_200_is_retried(body):
    """Before: Qianfan's QPS / RPM / TPM limits and its "try again later", answered in a 200, were a
    BadResponseError at once ("gateway answered 200 with an error: …"), never retried as a 429 is."""
    sleeps = []
    replies = iter([httpx.Response(200, json=body), httpx.Response(200, json=ANSWERED)])
    transport = httpx.MockTransport(lambda request: next(replies))
    client = ChatClient("http://gw.test/v1", "k", "m", transport=transport, sleep=sleeps.append)
    assert client.chat([UserMessage(content="hi")]).message.content == "Shipped."
    assert len(sleeps) == 1


def test_baidus_daily_limit_inside_a_200_is_not_retried():
    with pytest.raises(BadResponseError) as caught:
        answering(200, {"error_code": 17, "error_msg": "Open api daily request limit reached"}).chat(
            [UserMessage(content="hi")]
        )
    assert str(caught.value) == "gateway answered 200 with an error: Open api daily request limit reached"


ANSWERED = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Shipped."}, "finish_reason": "stop"}]}


TOOL = {"type": "function", "function": {"name": "query_order", "parameters": {"type": "object"}}}


def _answering(status: int, body: dict) -> tuple[ChatClient, list[httpx.Request]]:
    """A client whose gateway answers every request with `status` and `body`, and the requests it got."""
    got: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        got.append(request)
        return httpx.Response(status, json=body)

    client = ChatClient("http://gw.test/v1", "k", "m", transport=httpx.MockTransport(answer), sleep=lambda s: None)
    return client, got


@pytest.mark.parametrize(
    "status, message, options",
    [
        (500, "tools param requires --jinja flag", "--jinja"),  # llama.cpp's server
        (
            400,
            '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',  # vLLM's
            "--enable-auto-tool-choice and --tool-call-parser",
        ),
    ],
)
def test_tools_refused_by_a_server_started_without_an_option_name_it_and_are_not_retried(status, message, options):
    """llama.cpp's 500 was retried as transient ('running the cell again later may work'), vLLM's 400
    said to fix the request body: neither changes until the server is started with the option."""
    client, got = _answering(status, {"error": {"message": message, "code": status}})
    with pytest.raises(CallerError) as refused:
        client.chat([UserMessage(content="hi")], tools=[TOOL])
    assert not isinstance(refused.value, TransientError)
    assert str(refused.value) == (
        f"HTTP {status}: {message} — the server was started without what tool calling needs ({options}): restart "
        "it so, or use the prompt-protocol fallback, which sends no tools (not retried)"
    )
    assert len(got) == 1


def test_a_server_option_named_without_tools_in_the_request_is_triaged_as_before():
    client, got = _answering(500, {"error": {"message": "tools param requires --jinja flag", "code": 500}})
    with pytest.raises(TransientError):
        client.chat([UserMessage(content="hi")])
    assert len(got) == 3
    client, _ = _answering(500, {"error": {"message": "tool parser failed", "code": 500}})  # no option: transient
    with pytest.raises(TransientError):
        client.chat([UserMessage(content="hi")], tools=[TOOL])


def _lm_studio(request: httpx.Request) -> httpx.Response:
    """LM Studio's server: any address it does not serve is a 200 saying so (lmstudio-bug-tracker#618)."""
    return httpx.Response(200, json={"error": f"Unexpected endpoint or method. ({request.method} {request.url.path})"})


@pytest.mark.parametrize("streamed", [False, True])
def test_a_200_saying_the_address_asked_is_unknown_points_at_the_base_url(streamed):
    """LLM_BASE_URL=http://localhost:1234 (LM Studio, without /v1) read 'gateway answered 200 with an
    error: Unexpected endpoint or method. (POST /chat/completions)', its hint 'the message says what
    went wrong', and nothing about the variable to fix."""
    client = ChatClient("http://localhost:1234", "lm-studio", "m", transport=httpx.MockTransport(_lm_studio))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream([UserMessage(content="hi")])) if streamed else client.chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        "gateway answered 200 with an error: Unexpected endpoint or method. (POST /chat/completions) — the gateway "
        "serves no such address: check LLM_BASE_URL (it usually ends in /v1)"
    )
    assert caught.value.hint == "Check that LLM_BASE_URL points at an OpenAI-compatible /v1 endpoint."


def test_a_200_error_naming_another_address_keeps_its_words():
    answer = httpx.Response(200, json={"error": "Model unloaded (POST /v1/chat/completions is busy)"})
    client = ChatClient("http://localhost:1234/v1", "k", "m", transport=httpx.MockTransport(lambda r: answer))
    with pytest.raises(BadResponseError) as caught:
        client.chat([UserMessage(content="hi")])
    assert str(caught.value) == "gateway answered 200 with an error: Model unloaded (POST /v1/chat/completions is busy)"


MISTRAL_422 = {  # Mistral's API: its FastAPI validation problems nested in `message`
    "object": "error",
    "message": {
        "detail": [
            {
                "type": "extra_forbidden",
                "loc": ["body", "messages", 1, "reasoning"],
                "msg": "Extra inputs are not permitted",
                "input": "x",
            }
        ]
    },
    "type": "invalid_request_message_error",
    "param": None,
    "code": None,
}


@pytest.mark.parametrize(
    "body, said",
    [
        (MISTRAL_422, "body.messages.1.reasoning: Extra inputs are not permitted"),
        ({"error": {"message": {"detail": "Not Found"}}}, "Not Found"),
        (
            {"error_code": 336003, "error_msg": "the first message can not be assistant"},
            "the first message can not be assistant",
        ),
    ],
)
def test_what_an_error_nested_or_in_baidus_words_says(body, said):
    """Before: Mistral's 422 (its problems an object under `message`) and Baidu Qianfan's `error_msg` were
    quoted as raw JSON, cut at 200 characters: the words that say what to fix came after the cut."""
    assert error_message(json.dumps(body)) == said


QIANFAN_200 = {"error_code": 336003, "error_msg": "the first message can not be assistant", "id": "as-x"}


def test_baidus_error_inside_a_200_says_its_words():
    """Baidu Qianfan (and relays in its shape) answer some errors with a 200 holding `error_code` and
    `error_msg`: `chat()` said "response has no choices", `stream()` quoted the raw JSON."""
    with pytest.raises(BadResponseError) as caught:
        answering(200, QIANFAN_200).chat([UserMessage(content="hi")])
    assert str(caught.value) == "gateway answered 200 with an error: the first message can not be assistant"
    events = f"data: {json.dumps(QIANFAN_200)}\n\n"
    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, text=events, headers={"content-type": "text/event-stream"})
    )
    client = ChatClient("http://gw.test/v1", "k", "m", transport=transport, retry=RetryPolicy(max_retries=0))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream([UserMessage(content="hi")]))
    assert str(caught.value) == "gateway sent an error mid-stream: the first message can not be assistant"


TOOL = {"type": "function", "function": {"name": "query_order", "parameters": {"type": "object"}}}


@pytest.mark.parametrize(
    "status, body",
    [
        (
            400,
            {"error": {"message": "registry.ollama.ai/library/gemma:2b does not support tools", "type": "api_error"}},
        ),
        (400, {"error": {"message": "Tool calling is not supported for this model", "type": "bad_request"}}),
        (
            400,
            {
                "error": {
                    "message": "deepseek-reasoner does not support Function Calling",
                    "type": "invalid_request_error",
                }
            },
        ),
        (422, {"detail": "tools are not supported by this model"}),
    ],
)
def test_a_400_refusing_the_requests_tools_says_the_model_takes_none_not_fix_the_body(status, body):
    """Ollama's, Perplexity's and DeepSeek-R1's refusals of tools read "the gateway rejected the request body;
    fix it": a learner looked for a mistake in a body the model simply cannot take."""
    client, _ = make(Script(httpx.Response(status, json=body), httpx.Response(status, json=body)))
    with pytest.raises(CallerError) as refused:
        client.chat([UserMessage(content="hi")], tools=[TOOL])
    assert str(refused.value).endswith(f" — {TOOLS_REFUSED_HINT}")
    with pytest.raises(CallerError) as plain:  # the same words to a request without tools: not about its tools
        client.chat([UserMessage(content="hi")])
    assert not str(plain.value).endswith(TOOLS_REFUSED_HINT)


@pytest.mark.parametrize(
    "message",
    [
        "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches ^[a-zA-Z0-9_-]+$.",
        "Invalid schema for function 'query_order': In context=(), 'required' is required to be supplied",
    ],
)
def test_a_400_about_a_tools_shape_is_still_the_bodys_to_fix(message):
    client, _ = make(Script(httpx.Response(400, json={"error": {"message": message, "type": "invalid_request_error"}})))
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")], tools=[TOOL])
    assert str(caught.value).endswith("— the gateway rejected the request body; fix it (not retried)")


@pytest.mark.parametrize(
    "status, body",
    [
        (  # OpenAI, Groq
            400,
            {
                "error": {
                    "message": "This model's maximum context length is 128000 tokens. However, your messages resulted "
                    "in 130512 tokens. Please reduce the length of the messages.",
                    "type": "invalid_request_error",
                    "param": "messages",
                    "code": "context_length_exceeded",
                }
            },
        ),
        (  # llama.cpp server
            400,
            {
                "error": {
                    "code": 400,
                    "message": "the request exceeds the available context size, try increasing it",
                    "type": "exceed_context_size_error",
                    "n_prompt_tokens": 5000,
                    "n_ctx": 4096,
                }
            },
        ),
        (  # text-generation-inference
            422,
            {
                "error": "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 "
                "`inputs` tokens and 200 `max_new_tokens`",
                "error_type": "validation",
            },
        ),
        (  # Mistral
            400,
            {
                "object": "error",
                "message": "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum "
                "context length",
                "type": "invalid_request_error",
                "code": "3051",
            },
        ),
        (  # Moonshot (Kimi)
            400,
            {
                "error": {
                    "message": "Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)",
                    "type": "invalid_request_error",
                }
            },
        ),
        (400, {"error": {"message": "model max length exceeded, max length:8192", "type": "invalid_request_error"}}),
        (  # DashScope (Qwen), compatible mode
            400,
            {
                "error": {
                    "code": "invalid_parameter_error",
                    "param": None,
                    "message": "<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 30720]",
                    "type": "invalid_request_error",
                },
                "request_id": "81a373d6-28bd-9968-8335-e22a2127c41b",
            },
        ),
        (400, {"error": {"code": "1261", "message": "Prompt 超长"}}),  # Zhipu (GLM)
        (  # Cohere's compatibility API (its errors are `{"id", "message"}`)
            400,
            {
                "id": "5c2a0f7e",
                "message": "too many tokens: size limit exceeded by 11326 tokens. Try using shorter or fewer inputs, "
                "or setting prompt_truncation='AUTO'.",
            },
        ),
        (400, {"message": "too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 4292."}),
        (  # vLLM (newer)
            400,
            {
                "object": "error",
                "message": "The input (131200 tokens) is longer than the model's context length (131072 tokens).",
                "type": "BadRequestError",
                "code": 400,
            },
        ),
        (  # SambaNova
            400,
            {
                "error": {
                    "message": "Requested generation length 1 is not possible! The provided prompt is 4309 tokens long, "
                    "so generating 1 tokens requires a sequence length of 4310, but the maximum supported sequence "
                    "length is just 4096!",
                    "type": "invalid_request_error",
                }
            },
        ),
        (  # Anthropic's OpenAI-compatible endpoint
            400,
            {
                "type": "error",
                "error": {
                    "type": "invalid_request_error",
                    "message": "input length and `max_tokens` exceed context limit: 174167 + 64000 > 200000, decrease "
                    "input length or `max_tokens` and try again",
                },
            },
        ),
        (  # Cerebras, in words alone
            400,
            {
                "message": "Please reduce the length of the messages or completion. Current length is 42328 while "
                "limit is 40000",
                "type": "invalid_request_error",
                "param": "messages",
            },
        ),
        (  # DeepInfra: a 500, which was retried (twice more, the same) and ended "transient" with no hint
            500,
            {"error": {"message": "Requested input length 99009 exceeds maximum input length 8192"}},
        ),
    ],
)
def test_a_conversation_too_long_for_the_models_context_says_to_shorten_it_not_fix_the_body(status, body):
    """Each provider's own words: the hint was "the request was rejected; fix it", and nothing in the body is wrong."""
    script = Script(httpx.Response(status, json=body), httpx.Response(200, json={}))
    client, _ = make(script)
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")])
    assert str(caught.value).endswith(" — " + CONTEXT_HINT)
    assert str(caught.value).count(" — ") == 1 and len(script.requests) == 1


@pytest.mark.parametrize(
    "said",
    [
        {"error": {"message": "Invalid value for 'temperature': must be <= 2", "type": "invalid_request_error"}},
        {
            "message": "too many tokens: max tokens must be less than or equal to 4096, the maximum output for this model"
        },
    ],
)
def test_a_400_about_something_else_keeps_its_hint(said):
    client, _ = make(Script(httpx.Response(400, json=said)))
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")])
    assert str(caught.value).endswith("— the gateway rejected the request body; fix it (not retried)")


@pytest.mark.parametrize(
    "status, text, said",
    [
        (
            403,
            "error code: 1010",
            "HTTP 403: error code: 1010 (Cloudflare: the site bans this client's signature (its bot protection)) — "
            "Cloudflare in front of the gateway refused the request, not the gateway's key check: ask whoever runs "
            "the gateway, or try another network (not retried)",
        ),
        (
            403,
            "error code: 1020\n",
            "HTTP 403: error code: 1020 (Cloudflare: access denied by a firewall rule of the site) — Cloudflare in "
            "front of the gateway refused the request, not the gateway's key check: ask whoever runs the gateway, or "
            "try another network (not retried)",
        ),
        (
            530,
            "error code: 1033",
            "HTTP 530 (transient): error code: 1033 (Cloudflare: the tunnel to the gateway is down: the server behind "
            "it is not running)",
        ),
    ],
)
def test_cloudflares_bare_error_code_says_what_it_means_and_who_refused(status, text, said):
    """Cloudflare answers some refusals with `error code: 1010` alone: the line blamed the key ("the key may not
    use this model"), and a learner cannot read 1010 or 1033."""
    client, _ = make(Script(*[httpx.Response(status, text=text, headers={"content-type": "text/plain"})] * 3))
    with pytest.raises(ModelCallError) as caught:
        client.chat([UserMessage(content="hi")])
    assert str(caught.value) == said


def test_a_body_that_only_mentions_an_error_code_is_quoted_as_it_is():
    assert error_message("error code: 1010 and more") == "error code: 1010 and more"
    assert error_message("error code: 42") == "error code: 42"


@pytest.mark.parametrize(
    "body",
    [
        {
            "error": {
                "message": "Model Not Exist",
                "type": "invalid_request_error",
                "param": None,
                "code": "invalid_request_error",
            }
        },
        {
            "error": {
                "message": "Invalid model 'sonar-x'. Permitted models can be found in the documentation.",
                "type": "invalid_model",
                "code": 400,
            }
        },
        {"error": "No models loaded. Please load a model in the developer page or use the `lms load` command."},
        {"error": {"code": "1211", "message": "模型不存在，请检查模型代码。"}},
        {  # Hugging Face's router
            "error": {
                "message": "The requested model 'meta-llama/Llama-3.3-70B' is not supported by any provider you have "
                "enabled.",
                "type": "invalid_request_error",
                "param": "model",
                "code": "model_not_supported",
            }
        },
        {
            "error": {
                "message": "Unable to access model x.",
                "type": "invalid_request_error",
                "code": "model_not_available",
            }
        },
        {"message": "Requested model is unknown to this server.", "type": "not_found_error", "code": "model_not_found"},
    ],
)
def test_a_400_saying_the_model_is_not_served_says_to_check_llm_model_not_fix_the_body(body):
    """DeepSeek, Perplexity, LM Studio, Zhipu, Hugging Face's router and Together say a wrong LLM_MODEL with a 400
    (by its words, or by an error code naming the model), which read "fix the body"."""
    client, _ = make(Script(httpx.Response(400, json=body)))
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")], tools=[TOOL])
    assert str(caught.value).endswith(" — " + MODEL_HINT)


@pytest.mark.parametrize(
    "message",
    ["This model does not support tools", "'max_tokens' is too large: 200000. This model supports at most 16384"],
)
def test_a_400_naming_the_model_for_another_reason_keeps_its_hint(message):
    client, _ = make(Script(httpx.Response(400, json={"error": {"message": message}})))
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")], tools=[TOOL])
    assert not str(caught.value).endswith(MODEL_HINT)


# --- text-generation-inference: 424 is its generation error (the server failed while generating) ---


def test_tgis_424_generation_error_is_the_servers_failure_retried_not_the_bodys_to_fix():
    failed = {"error": "Request failed during generation: Server error: CUDA out of memory", "error_type": "generation"}
    ok = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi."}, "finish_reason": "stop"}]}
    client, sleeps = make(Script(httpx.Response(424, json=failed), httpx.Response(200, json=ok)))
    assert client.chat([UserMessage(content="hi")]).message.content == "Hi." and sleeps == [0.5]
    with pytest.raises(TransientError) as caught:
        answering(424, failed).chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        "HTTP 424 (transient): Request failed during generation: Server error: CUDA out of memory"
    )


def test_tgis_422_validation_error_is_still_the_callers():
    with pytest.raises(CallerError) as caught:
        answering(
            422, {"error": "Input validation error: `top_p` must be > 0.0 and < 1.0", "error_type": "validation"}
        ).chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        "HTTP 422: Input validation error: `top_p` must be > 0.0 and < 1.0 — the request was rejected; fix it (not retried)"
    )


def test_fireworks_412_names_the_account_or_the_model_not_the_body():
    """Fireworks answers 412 for a suspended account or a LoRA model that failed to load: no body to fix."""
    body = {"error": {"object": "error", "type": "invalid_request_error", "message": "Account suspended"}}
    with pytest.raises(CallerError) as caught:
        answering(412, body).chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        "HTTP 412: Account suspended — the gateway refuses on the account's or the model's state, not the request's: "
        "check the account's status and billing in the provider's console, and that LLM_MODEL (a fine-tuned or LoRA "
        "model) is deployed and loads (not retried)"
    )


def test_a_410_for_a_retired_model_says_to_choose_another_not_fix_the_body():
    """SambaNova's 410 Gone: the requested model is no longer available (deprecated or removed)."""
    body = {
        "error": {
            "message": "Model Meta-Llama-3.1-405B-Instruct has been deprecated.",
            "type": "invalid_request_error",
            "param": "model",
            "code": None,
        },
        "request_id": "r1",
    }
    with pytest.raises(CallerError) as caught:
        answering(410, body).chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        "HTTP 410: Model Meta-Llama-3.1-405B-Instruct has been deprecated. — the model (or the address) is gone, "
        "retired or removed: set LLM_MODEL to one the gateway serves now (GET <LLM_BASE_URL>/models lists them) "
        "(not retried)"
    )


OPENROUTER_FLAGGED = {  # openrouter.ai/docs/api-reference/errors: a 403 with ModerationErrorMetadata
    "error": {
        "code": 403,
        "message": 'openai/gpt-4o requires moderation on OpenRouter. Your input was flagged for "harassment".',
        "metadata": {
            "reasons": ["harassment"],
            "flagged_input": "…you are useless…",
            "provider_name": "OpenAI",
            "model_slug": "openai/gpt-4o",
        },
    }
}


def test_openrouters_moderation_403_says_the_filter_refused_the_prompt_not_the_key():
    with pytest.raises(CallerError) as caught:
        answering(403, OPENROUTER_FLAGGED).chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        'HTTP 403: openai/gpt-4o requires moderation on OpenRouter. Your input was flagged for "harassment". — the '
        "gateway's content filter refused the prompt; rephrase the request, or check the gateway's filter (not retried)"
    )


def test_a_403_without_moderation_metadata_keeps_its_hint():
    body = {"error": {"code": 403, "message": "flagged_input is not a field here", "metadata": {"reasons": []}}}
    with pytest.raises(CallerError) as caught:
        answering(403, body).chat([UserMessage(content="hi")])
    assert "content filter" not in str(caught.value)


def test_openrouters_moderation_403_saying_no_credits_were_charged_is_the_filter_not_the_account():
    """Before: "No credits were charged." made the moderation's refusal an `OutOfCreditError` ("add credit")."""
    flagged = json.loads(json.dumps(OPENROUTER_FLAGGED))
    flagged["error"]["message"] += " No credits were charged."
    with pytest.raises(CallerError) as caught:
        answering(403, flagged).chat([UserMessage(content="hi")])
    assert type(caught.value) is CallerError
    assert str(caught.value).endswith(
        "the gateway's content filter refused the prompt; rephrase the request, or "
        "check the gateway's filter (not retried)"
    )


UPSTREAM_SCHEMA = (
    "Invalid schema for function 'get': 'additionalProperties' is required to be supplied and to be false."
)


@pytest.mark.parametrize(
    "raw, said",
    [
        (json.dumps({"error": {"message": UPSTREAM_SCHEMA, "type": "invalid_request_error"}}), UPSTREAM_SCHEMA),
        (
            "google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream.",
            "google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream.",
        ),
        ({"error": {"message": UPSTREAM_SCHEMA}}, UPSTREAM_SCHEMA),
    ],
)
def test_openrouters_provider_returned_error_says_the_providers_own_words(raw, said):
    """OpenRouter wraps what the provider answered: `{"error": {"message": "Provider returned error",
    "metadata": {"raw": …, "provider_name": …}}}`. Before: the learner read "Provider returned error" alone."""
    body = {
        "error": {
            "code": 400,
            "message": "Provider returned error",
            "metadata": {"raw": raw, "provider_name": "OpenAI"},
        }
    }
    assert error_message(json.dumps(body)) == f"Provider returned error (OpenAI: {said})"
    stream = 'data: {"error": ' + json.dumps(body["error"]) + "}\n\n"
    client, _ = make(Script(httpx.Response(200, headers={"content-type": "text/event-stream"}, content=stream)))
    with pytest.raises(ModelCallError) as caught:
        list(client.stream([UserMessage(content="hi")]))
    assert f"Provider returned error (OpenAI: {said})" in str(caught.value)


@pytest.mark.parametrize(
    "body",
    [
        {  # LM Studio's, with nothing loaded
            "error": {
                "message": "No models loaded. Please load a model in the developer page or use the `lms load` command.",
                "type": "invalid_request_error",
                "param": "model",
                "code": "model_not_found",
            }
        },
        {  # OpenAI's
            "error": {
                "message": "The model `gpt-4o-mni` does not exist or you do not have access to it.",
                "type": "invalid_request_error",
                "code": "model_not_found",
            }
        },
    ],
)
def test_a_404_saying_the_model_is_not_served_says_to_check_llm_model(body):
    """Before: "check LLM_BASE_URL (it usually ends in /v1) and LLM_MODEL", which sent a learner whose local
    server had no model loaded to the URL, which was right."""
    client, _ = make(Script(httpx.Response(404, json=body)))
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")])
    assert str(caught.value).endswith(" — " + MODEL_HINT)


LLAMA_OVER = {
    "code": 400,
    "message": "the request exceeds the available context size, try increasing it",
    "type": "exceed_context_size_error",
    "n_prompt_tokens": 5000,
    "n_ctx": 4096,
}


@pytest.mark.parametrize(
    "stream",
    [
        "error: " + json.dumps(LLAMA_OVER) + "\n\n",  # llama.cpp's server: its own `error:` field
        'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n'
        + "data: "
        + json.dumps({"error": {**LLAMA_OVER, "type": "BadRequestError", "object": "error"}})
        + "\n\ndata: [DONE]\n\n",
    ],
    ids=["llama.cpp", "in a data line"],
)
def test_a_context_overrun_reported_in_the_stream_gets_the_context_fix(stream):
    """A server that answers the stream and then says the conversation outgrew the context window: before,
    "The gateway reported this error itself" with no fix; the same fix as a 400 saying so."""
    client, _ = make(Script(httpx.Response(200, headers={"content-type": "text/event-stream"}, content=stream)))
    with pytest.raises(BadResponseError) as caught:
        list(client.stream([UserMessage(content="hi")]))
    assert str(caught.value) == (
        "gateway sent an error mid-stream: the request exceeds the available context size, try increasing it — "
        + CONTEXT_HINT
    )


@pytest.mark.parametrize(
    "status, body",
    [
        (  # Groq's, for a model it retired
            400,
            {
                "error": {
                    "message": "The model `llama3-70b-8192` has been decommissioned and is no longer supported. Please "
                    "refer to https://console.groq.com/docs/deprecations for a recommendation on which model to use "
                    "instead.",
                    "type": "invalid_request_error",
                    "code": "model_decommissioned",
                }
            },
        ),
        (  # OpenAI's, for a model it shut down
            404,
            {
                "error": {
                    "message": "The model `text-davinci-003` has been deprecated, learn more here: "
                    "https://platform.openai.com/docs/deprecations",
                    "type": "invalid_request_error",
                    "code": "model_not_found",
                }
            },
        ),
    ],
)
def test_a_retired_model_says_to_choose_one_the_gateway_serves_now(status, body):
    """Before: Groq's 400 `model_decommissioned` read "the gateway rejected the request body; fix it"."""
    client, _ = make(Script(httpx.Response(status, json=body)))
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")])
    assert str(caught.value).endswith(
        " — the model (or the address) is gone, retired or removed: set LLM_MODEL to one the gateway serves now "
        "(GET <LLM_BASE_URL>/models lists them) (not retried)"
    )


@pytest.mark.parametrize(
    "body",
    [
        {  # Groq's
            "error": {
                "message": "Organization has been restricted. Please reach out to support if you believe this was in "
                "error.",
                "type": "invalid_request_error",
                "code": "organization_restricted",
            }
        },
        {
            "type": "error",
            "error": {"type": "invalid_request_error", "message": "This organization has been disabled."},
        },
    ],
    ids=["groq", "anthropic"],
)
def test_an_account_the_provider_restricted_is_not_blamed_on_the_body(body):
    """Groq (and Anthropic, through a relay) refuse a restricted or disabled organization with a 400: before,
    "the gateway rejected the request body; fix it", though no change to the request can help."""
    client, _ = make(Script(httpx.Response(400, json=body)))
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")])
    assert str(caught.value).endswith(
        " — the provider has restricted or disabled the account (organization) behind the key, not the request: "
        "check the account in the provider's console or ask its support, or use another key (not retried)"
    )


@pytest.mark.parametrize(
    "body",
    [
        {"error": 'model "qwen3:8b" not found, try pulling it first'},  # Ollama's native API
        {"error": {"message": 'model "qwen3:8b" not found, try pulling it first', "type": "api_error"}},  # its /v1
    ],
)
def test_ollamas_model_not_pulled_says_to_pull_it(body):
    """Before: "check LLM_MODEL: the gateway serves no model of that name …, or, on a local server, none is loaded",
    where Ollama says what to do: pull it."""
    with pytest.raises(CallerError) as caught:
        answering(404, body).chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        'HTTP 404: model "qwen3:8b" not found, try pulling it first — Ollama has not downloaded this model: run '
        "`ollama pull <LLM_MODEL>` where Ollama runs, or set LLM_MODEL to a name `ollama list` shows (with its tag, "
        "e.g. qwen3:8b) (not retried)"
    )


@pytest.mark.parametrize(
    "said",
    [
        "input: please adjust your prompt and try again, as it",
        "output: please adjust your prompt and try again, as this generation",
    ],
)
def test_coheres_blocked_prompt_says_the_filter_refused_it_not_the_body(said):
    """Cohere's compatibility API refuses a prompt (or its answer) its Usage Guidelines block with a 400 `{"id",
    "message": "blocked input: please adjust your prompt …"}`: the hint said to fix the request body."""
    message = f"blocked {said} may be a potential violation of our Usage Guidelines (https://docs.cohere.ai/usage-guidelines/)."
    with pytest.raises(CallerError) as caught:
        answering(400, {"id": "c0", "message": message}).chat([UserMessage(content="hi")])
    assert str(caught.value) == f"HTTP 400: {message} — " + (
        "the gateway's content filter refused the prompt; rephrase the request, or check the gateway's filter (not retried)"
    )


def test_zhipus_1301_says_the_filter_refused_the_prompt_not_the_body():
    """Zhipu's (GLM's) 400, code 1301, when its review blocks the input or the answer (`contentFilter` beside it)."""
    message = "系统检测到输入或生成内容可能包含不安全或敏感内容，请您避免输入易产生敏感内容的提示语，感谢您的配合。"
    body = {"contentFilter": [{"level": 1, "role": "user"}], "error": {"code": "1301", "message": message}}
    with pytest.raises(CallerError) as caught:
        answering(400, body).chat([UserMessage(content="hi")])
    assert str(caught.value) == f"HTTP 400: {message} — " + (
        "the gateway's content filter refused the prompt; rephrase the request, or check the gateway's filter (not retried)"
    )
