"""Credentials in a base URL's user info (`https://user:password@proxy/v1`) go on the wire as
`Authorization: Basic <base64 of user:password>`: that spelling of the password is masked too,
on an error's exception chain, in an error text that echoes it and in a cassette."""

import base64
import json
import logging
from http.server import BaseHTTPRequestHandler

import httpx
import pytest
from loopback import serving
from test_cassette import EchoKey
from test_client_triage import _reachable

from toolkit.chat.cassette import RecordingTransport
from toolkit.chat.client import ChatClient, RetryPolicy
from toolkit.chat.masking import basic_credential
from toolkit.chat.messages import UserMessage
from toolkit.errors import BadResponseError, CallerError, TransientError

QUESTION = [UserMessage(content="hi")]
PASSWORD = "pw-" + "Pr0xyS3cr3t" * 3
URL = f"http://alice:{PASSWORD}@gw.test/v1"
BASIC = base64.b64encode(f"alice:{PASSWORD}".encode()).decode()


def test_basic_credential_is_what_httpx_sends_for_the_user_info():
    sent = []
    client = ChatClient(
        "http://al%40ice:p%3Aw@gw.test/v1",
        "sk-x",
        "m",
        transport=httpx.MockTransport(lambda r: sent.append(r) or httpx.Response(200, json={})),
    )
    with pytest.raises(BadResponseError):  # an empty body: no reply, but the request was sent
        client.chat(QUESTION)
    assert sent[0].headers["authorization"] == f"Basic {basic_credential('http://al%40ice:p%3Aw@gw.test/v1')}"
    assert basic_credential("http://tok@gw.test/v1") == base64.b64encode(b"tok:").decode()
    assert basic_credential("http://gw.test/v1") is None


def test_no_exception_on_the_chain_holds_the_basic_credential():
    def refuse(request):
        raise httpx.ConnectError("connection refused", request=request)

    client = ChatClient(URL, "sk-x", "m", transport=httpx.MockTransport(refuse), retry=RetryPolicy(max_retries=0))
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert caught.value.__cause__.request.headers["authorization"] == "Basic ***"  # no end of the password
    assert [text for text in _reachable(caught.value) if BASIC in text] == []


def test_a_basic_credential_the_gateway_echoes_is_masked_in_the_error_and_never_written(tmp_path):
    cassette = tmp_path / "c.jsonl"
    client = ChatClient(URL, "sk-x", "m", transport=RecordingTransport(cassette, EchoKey()))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).startswith("HTTP 401: Incorrect API key provided: ***.")
    assert BASIC not in cassette.read_text() and BASIC not in repr(list(client.exchanges))


class BearerOnly(httpx.BaseTransport):
    """A gateway that takes only a Bearer key: a Basic credential is refused, as OpenAI refuses it."""

    def __init__(self):
        self.requests = []

    def handle_request(self, request):
        self.requests.append(request)
        if request.headers["authorization"].startswith("Bearer "):
            return httpx.Response(
                200, json={"choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}]}
            )
        return httpx.Response(401, json={"error": {"message": "You didn't provide an API key."}})


KEY = "sk-proj-" + "K3y" * 8


def test_a_401_to_the_urls_basic_auth_says_the_user_info_went_in_place_of_the_key(tmp_path):
    """httpx sends a URL's user info as `Authorization: Basic …`, over the client's Bearer header:
    LLM_API_KEY never reaches the gateway. The 401 says so, not "check LLM_API_KEY"; and neither
    the password nor its Basic spelling is in the error, its chain, the exchanges or the cassette."""
    from toolkit.course.live import explain

    cassette, gateway = tmp_path / "c.jsonl", BearerOnly()
    client = ChatClient(URL, KEY, "m", transport=RecordingTransport(cassette, gateway))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert gateway.requests[0].headers["authorization"] == f"Basic {BASIC}"  # what httpx does: the key is not sent
    assert str(caught.value) == (
        "HTTP 401: You didn't provide an API key. — LLM_BASE_URL carries user info (user:password@), which httpx "
        "sends as Basic auth in place of LLM_API_KEY: check that user and password, or take them out of "
        "LLM_BASE_URL to send LLM_API_KEY (not retried)"
    )
    assert explain(caught.value, client) == (
        "The gateway at http://alice:***@gw.test/v1 refused the user and password in LLM_BASE_URL (HTTP 401; "
        "httpx sends them as Basic auth in place of LLM_API_KEY). Check them, or take them out of LLM_BASE_URL "
        "to send LLM_API_KEY."
    )
    shown = [*_reachable(caught.value), explain(caught.value, client), repr(list(client.exchanges))]
    shown.append(cassette.read_text())
    assert [text for text in shown if PASSWORD in text or BASIC in text] == []


def test_without_user_info_the_key_goes_as_bearer_and_a_401_blames_the_key():
    gateway = BearerOnly()
    client = ChatClient("http://gw.test/v1", KEY, "m", transport=gateway)
    assert client.chat(QUESTION).message.content == "hi"
    assert gateway.requests[0].headers["authorization"] == f"Bearer {KEY}"
    refusing = ChatClient("http://gw.test/v1", KEY, "m", transport=EchoKey())
    with pytest.raises(CallerError) as caught:
        refusing.chat(QUESTION)
    assert str(caught.value).endswith("— check LLM_API_KEY (not retried)")


def test_a_url_secret_the_gateway_echoes_percent_encoded_is_masked_in_the_error():
    """An Azure-style SAS signature (base64: `+`, `/`, `=`) sits in the base URL percent-encoded; a
    gateway quoting the request's URL quotes it so, and the error the learner sees masks it."""
    signature = "Sig" + "n4tur3" * 4 + "%2Bab%2Fcd%3D"
    echo = httpx.MockTransport(
        lambda r: httpx.Response(403, json={"error": {"message": f"signature refused: {r.url}"}})
    )
    client = ChatClient(f"http://gw.test/v1?sig={signature}", "sk-x", "m", transport=echo)
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).startswith(
        f"HTTP 403: signature refused: http://gw.test/v1/chat/completions?sig=***{signature[-4:]} — "
    )
    assert signature not in caught.value.body and signature not in repr(list(client.exchanges))


def test_httpx_s_own_log_line_never_holds_the_urls_password_or_secret_query_values(caplog):
    """httpx logs every request at INFO (`HTTP Request: POST <url> "HTTP/1.1 200 OK"`), the URL as
    it was sent: a learner's `logging.basicConfig(level=logging.INFO)` printed the base URL's
    password and its `?api-key=` value. Shown as `mask_url` shows them, the rest of the line kept."""
    answer = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}]}

    class Answers(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["content-length"]))
            body = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with serving(Answers) as port, caplog.at_level(logging.DEBUG):
        for url in (f"http://alice:{PASSWORD}@127.0.0.1:{port}/v1", f"http://127.0.0.1:{port}/v1?api-key={KEY}"):
            assert ChatClient(url, KEY, "m").chat(QUESTION).message.content == "hi"
    lines = [r.getMessage() for r in caplog.records if r.name == "httpx"]
    assert lines == [
        f'HTTP Request: POST http://alice:***@127.0.0.1:{port}/v1/chat/completions "HTTP/1.0 200 OK"',
        f'HTTP Request: POST http://127.0.0.1:{port}/v1/chat/completions?api-key=*** "HTTP/1.0 200 OK"',
    ]
    assert [r.getMessage() for r in caplog.records if PASSWORD in r.getMessage() or KEY in r.getMessage()] == []


def test_an_azure_function_key_in_the_base_url_is_never_shown():
    """Azure Functions takes its key as `?code=`: describe(), an unreachable gateway's error and the
    exchanges show the URL with it masked."""
    code = "FnK3yQS3" + "aBcD" * 8 + "=="
    url = f"https://fn.azurewebsites.net/api/v1?code={code}"

    def refuse(request):
        raise httpx.ConnectError(f"connection refused: {request.url}", request=request)

    client = ChatClient(url, "sk-x", "m", transport=httpx.MockTransport(refuse), retry=RetryPolicy(max_retries=0))
    assert client.describe() == "gateway https://fn.azurewebsites.net/api/v1?code=***, model m"
    with pytest.raises(TransientError) as caught:
        client.chat(QUESTION)
    assert str(caught.value) == (
        "Cannot reach the gateway at https://fn.azurewebsites.net/api/v1?code=*** (connection refused). "
        "Check LLM_BASE_URL, or unset the LLM_* variables to use the embedded gateway."
    )
    assert [text for text in _reachable(caught.value) if code in text] == []
    assert code not in repr(list(client.exchanges))


def test_the_http_libraries_debug_records_of_a_gateway_echoing_the_key_hold_no_secret(caplog):
    """httpcore logs each response's headers at DEBUG (`receive_response_headers.complete
    return_value=(…, [(b'x-seen-authorization', b'Bearer …')])`): a gateway that echoes the key in
    a header put it in a learner's `logging.basicConfig(level=logging.DEBUG)` output. The records
    of the HTTP libraries the package drives have their secrets masked, as `redact.scrub_secrets`
    masks them, and their URLs as `mask_url` shows them."""

    class Echoes(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["content-length"]))
            body = b'{"error": {"message": "invalid key"}}'
            self.send_response(401)
            self.send_header("content-type", "application/json")
            self.send_header("x-seen-authorization", self.headers["authorization"])
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with serving(Echoes) as port, caplog.at_level(logging.DEBUG):
        for url in (f"http://127.0.0.1:{port}/v1", f"http://alice:{PASSWORD}@127.0.0.1:{port}/v1"):
            with pytest.raises(CallerError):
                ChatClient(url, KEY, "m", retry=RetryPolicy(max_retries=0)).chat(QUESTION)
    said = [r.getMessage() for r in caplog.records]
    headers = [line for line in said if line.startswith("receive_response_headers.complete")]
    assert len(headers) == 2
    assert "(b'x-seen-authorization', b'Bearer [REDACTED]')" in headers[0]
    assert "(b'x-seen-authorization', b'Basic [REDACTED]')" in headers[1]
    assert [line for line in said if KEY in line or BASIC in line or PASSWORD in line] == []


def test_the_mcp_sdk_s_debug_records_of_messages_hold_no_secret(caplog):
    """The MCP SDK logs every message it sends and every event it reads at DEBUG, tool arguments
    and results as they are: a secret the model passed to a tool, or one a server answered with,
    is masked there as in the trace; the URLs in such a record as `mask_url` shows them."""
    import toolkit.mcp.client  # noqa: F401  (the SDK's loggers get their filter with it)

    with caplog.at_level(logging.DEBUG):
        logging.getLogger("mcp.client.streamable_http").debug(
            "Sending client message: %s",
            "method='tools/call' params={'name': 'login', 'arguments': {'user': 'ann', 'password': 'Hunter2-xyz'}}",
        )
        logging.getLogger("mcp.client.streamable_http").debug(
            "SSE message: result={'text': 'db at http://app:Pw-9911@db.local/x, token sk-proj-%s'}",
            "A1b2C3d4E5f6G7h8I9",
        )
    assert [r.getMessage() for r in caplog.records] == [
        "Sending client message: method='tools/call' params={'name': 'login', 'arguments': {'user': 'ann', "
        "'password': '[REDACTED]'}}",
        "SSE message: result={'text': 'db at http://app:***@db.local/x, token [REDACTED]'}",
    ]
