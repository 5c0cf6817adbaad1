"""Azure OpenAI's deployment URLs take the key in an `api-key` header (a Bearer token there must
be Entra ID's): the client sends it there too for Azure hosts, nowhere else, and never shows it."""

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy
from toolkit.chat.messages import UserMessage
from toolkit.errors import CallerError

KEY = "0123456789abcdef0123456789abcdef"
ANSWER = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}


def headers_sent(base_url, answer=None):
    sent = []

    def gateway(request):
        sent.append(request.headers)
        return answer or httpx.Response(200, json=ANSWER)

    client = ChatClient(base_url, KEY, "m", transport=httpx.MockTransport(gateway), retry=RetryPolicy(max_retries=0))
    try:
        client.chat([UserMessage(content="hi")])
    except CallerError:
        pass  # the test reads what was sent and recorded
    return sent[0], client


@pytest.mark.parametrize(
    "base_url",
    [
        "https://res.openai.azure.com/openai/deployments/gpt4o?api-version=2024-10-21",
        "https://res.cognitiveservices.azure.com/openai/v1",
        "https://RES.OPENAI.AZURE.COM./openai/v1",
        "https://corp-gw.azure-api.net/llm/v1",
        # Azure operated by 21Vianet in China, and Azure Government: their own domains (a 401 there, before)
        "https://res.openai.azure.cn/openai/deployments/gpt4o?api-version=2024-10-21",
        "https://res.openai.azure.us/openai/v1",
        "https://corp-gw.azure-api.cn/llm/v1",
    ],
)
def test_an_azure_host_gets_the_key_in_api_key_too(base_url):
    headers, _ = headers_sent(base_url)
    assert headers["api-key"] == KEY and headers["authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize(
    "base_url",
    [
        "https://api.openai.com/v1",
        "http://127.0.0.1:8000/v1",
        "https://azure.com.evil.example/v1",
        "https://notazure.com/v1",
        "https://notazure.cn/v1",
    ],
)
def test_any_other_host_gets_only_the_bearer_token(base_url):
    headers, _ = headers_sent(base_url)
    assert "api-key" not in headers and headers["authorization"] == f"Bearer {KEY}"


def test_an_azure_401_shows_no_key():
    answer = httpx.Response(401, json={"error": {"code": "401", "message": f"Access denied: api-key {KEY} invalid"}})
    _, client = headers_sent("https://res.openai.azure.com/openai/v1", answer)
    assert KEY not in repr(list(client.exchanges))


FILTERED = (
    "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify "
    "your prompt and retry."
)


@pytest.mark.parametrize(
    "error",
    [
        {"message": FILTERED, "type": None, "param": "prompt", "code": "content_filter", "status": 400},
        {"message": FILTERED, "code": "400", "innererror": {"code": "ResponsibleAIPolicyViolation"}},
        {"message": FILTERED, "type": "content_filter"},  # Moonshot's
        {"message": FILTERED, "code": "data_inspection_failed", "type": "data_inspection_failed"},  # DashScope's
    ],
)
def test_a_prompt_the_content_filter_refused_is_not_called_a_bad_request_body(error):
    """Azure (Moonshot, DashScope) refuses a prompt its content filter flags with a 400: it read 'the
    gateway rejected the request body; fix it', sending the learner to the JSON, not to the words."""
    answer = httpx.Response(400, json={"error": error})
    client = ChatClient(
        "https://res.openai.azure.com/openai/v1", KEY, "m", transport=httpx.MockTransport(lambda r: answer)
    )
    with pytest.raises(CallerError) as refused:
        client.chat([UserMessage(content="hi")])
    assert str(refused.value) == (
        f"HTTP 400: {FILTERED} — the gateway's content filter refused the prompt; rephrase the request, or check "
        "the gateway's filter (not retried)"
    )


def test_an_azure_deployment_url_without_api_version_is_told_to_add_one():
    """Azure answers a deployment URL without `?api-version=` with a 404 'Resource not found': the hint
    said to check that LLM_BASE_URL ends in /v1, which an Azure deployment URL does not."""
    answer = httpx.Response(404, json={"error": {"code": "404", "message": "Resource not found"}})
    base = "https://res.openai.azure.com/openai/deployments/gpt4o"
    client = ChatClient(base, KEY, "gpt4o", transport=httpx.MockTransport(lambda r: answer))
    with pytest.raises(CallerError) as refused:
        client.chat([UserMessage(content="hi")])
    assert str(refused.value) == (
        "HTTP 404: Resource not found — an Azure OpenAI deployment URL takes the API version in its query: add it "
        "to LLM_BASE_URL, e.g. https://<resource>.openai.azure.com/openai/deployments/<deployment>?api-version="
        "2024-10-21 (not retried)"
    )
    versioned = ChatClient(
        f"{base}?api-version=2024-10-21", KEY, "gpt4o", transport=httpx.MockTransport(lambda r: answer)
    )
    with pytest.raises(CallerError) as other:  # a version given: the deployment's name, or the URL
        versioned.chat([UserMessage(content="hi")])
    assert str(other.value).endswith("— check LLM_BASE_URL (it usually ends in /v1) and LLM_MODEL (not retried)")


NO_DEPLOYMENT = {
    "error": {
        "code": "DeploymentNotFound",
        "message": "The API deployment for this resource does not exist. If you created the deployment within the "
        "last 5 minutes, please wait a moment and try again.",
    }
}


@pytest.mark.parametrize(
    "base, where",
    [
        ("https://res.openai.azure.com/openai/deployments/gpt4o?api-version=2024-10-21", "the name in LLM_BASE_URL"),
        ("https://res.openai.azure.com/openai/v1/", "LLM_MODEL"),
    ],
)
def test_azures_deployment_not_found_names_where_the_deployment_name_goes(base, where):
    """Before: "check LLM_BASE_URL (it usually ends in /v1) and LLM_MODEL", where Azure routes by a deployment's
    name: in a deployment URL's path, or, on Azure's /openai/v1 address, in LLM_MODEL."""
    answer = httpx.Response(404, json=NO_DEPLOYMENT)
    client = ChatClient(base, KEY, "gpt-4o", transport=httpx.MockTransport(lambda r: answer))
    with pytest.raises(CallerError) as refused:
        client.chat([UserMessage(content="hi")])
    assert str(refused.value).endswith(
        f"— Azure OpenAI has no deployment of that name in this resource: {where} must be a deployment's name (the "
        "name given when deploying, not the model's), and a deployment made in the last minutes may not be ready "
        "yet (not retried)"
    )


@pytest.mark.parametrize(
    "message",
    [
        "API version not supported",
        "Model o3-mini is enabled only for api versions 2024-12-01-preview and later",
    ],
)
def test_an_api_version_azure_does_not_take_says_to_set_another_not_fix_the_body(message):
    """Before: "… — the gateway rejected the request body; fix it", where the version in LLM_BASE_URL is at fault."""
    answer = httpx.Response(400, json={"error": {"code": "BadRequest", "message": message}})
    base = "https://res.openai.azure.com/openai/deployments/o3?api-version=2023-05-15"
    client = ChatClient(base, KEY, "o3", transport=httpx.MockTransport(lambda r: answer))
    with pytest.raises(CallerError) as refused:
        client.chat([UserMessage(content="hi")])
    assert str(refused.value) == (
        f"HTTP 400: {message} — the api-version in LLM_BASE_URL is one this Azure resource, or this model, does not "
        "take: set one it does, e.g. ?api-version=2024-10-21, or the newer one the message names (a preview one for "
        "the newest models); on Azure's /openai/v1 address leave api-version out (not retried)"
    )


def test_api_version_words_from_a_gateway_that_takes_none_keep_the_body_hint():
    answer = httpx.Response(400, json={"error": {"message": "API version not supported"}})
    client = ChatClient("http://gw.test/v1", KEY, "m", transport=httpx.MockTransport(lambda r: answer))
    with pytest.raises(CallerError) as refused:
        client.chat([UserMessage(content="hi")])
    assert str(refused.value) == (
        "HTTP 400: API version not supported — the gateway rejected the request body; fix it (not retried)"
    )
