"""Credentials in a base URL's user info (`https://user:password@proxy/v1`) go on the wire as
`Authorization: Basic <base64 of user:password>`: that spelling of the password is masked too,
on an error's exception chain, in an error text that echoes it and in a cassette."""

import base64

import httpx
import pytest
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
    assert caught.value.__cause__.request.headers["authorization"] == f"Basic ***{BASIC[-4:]}"
    assert [text for text in _reachable(caught.value) if BASIC in text] == []


def test_a_basic_credential_the_gateway_echoes_is_masked_in_the_error_and_never_written(tmp_path):
    cassette = tmp_path / "c.jsonl"
    client = ChatClient(URL, "sk-x", "m", transport=RecordingTransport(cassette, EchoKey()))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).startswith(f"HTTP 401: Incorrect API key provided: ***{BASIC[-4:]}.")
    assert BASIC not in cassette.read_text() and BASIC not in repr(list(client.exchanges))
