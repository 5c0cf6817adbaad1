"""The API key and URL credentials are masked wherever they could be shown or saved."""

from base64 import b64encode, urlsafe_b64encode
from urllib.parse import quote, quote_plus

import pytest

from toolkit.chat.masking import (
    basic_credential,
    bearer_key,
    mask_key,
    mask_keys,
    mask_url,
    mask_url_in,
    masked_key,
    masked_log_message,
    url_secrets,
)


def test_mask_url_hides_passwords_lone_tokens_and_secret_query_values():
    assert mask_url("https://alice:pw-123@gw.example/v1") == "https://alice:***@gw.example/v1"
    assert mask_url("https://sk-abc@gw.example/v1") == "https://***@gw.example/v1"
    assert mask_url("https://gw.example/v1?api-key=abc&x=1") == "https://gw.example/v1?api-key=***&x=1"
    assert mask_url("http://127.0.0.1:9/v1") == "http://127.0.0.1:9/v1"


def test_a_url_urlsplit_refuses_is_masked_whole():
    """An unclosed `[` or a bad port: no parser to trust, so all user info and all the query go."""
    assert mask_url("http://alice:pw-123@[::1/v1") == "http://***@[::1/v1"
    assert mask_url("http://[::1/v1?api_key=abc&x=1") == "http://[::1/v1?***"
    assert url_secrets("http://alice:pw-123@[::1/v1") == ["pw-123"]
    assert url_secrets("http://sk-lone@[::1/v1") == ["sk-lone"]
    assert url_secrets("http://[::1/v1") == []


@pytest.mark.parametrize(
    "url, shown",
    [
        ("https://gw.example/v1#tok-9f8e7d6c5b4a", "https://gw.example/v1#***"),
        ("https://gw.example/v1?api_key=abc&x=1#access_token=zz", "https://gw.example/v1?api_key=***&x=1#***"),
        ("https://al:pw@gw.example/v1#main", "https://al:***@gw.example/v1#***"),
        ("http://[::1/v1#tok-9f8e7d6c5b4a", "http://[::1/v1#***"),  # urlsplit refuses it
        ("http://al:pw@[::1/v1?key=k#tok", "http://***@[::1/v1?***#***"),
        ("https://gw.example/v1#", "https://gw.example/v1"),
    ],
)
def test_a_fragment_is_masked_whole(url, shown):
    """A fragment is never sent (the endpoint drops it), so it names nothing the learner needs to
    see, and a token pasted after `#` would be shown by `describe()` and every error quoting the URL."""
    assert mask_url(url) == shown


def test_a_fragment_never_shows_in_a_clients_description_or_its_connection_error():
    from toolkit.chat.client import ChatClient, RetryPolicy, TransientError
    from toolkit.chat.messages import UserMessage

    client = ChatClient(
        "http://127.0.0.1:9/v1#tok-9f8e7d6c5b4a", "sk-" + "x" * 24, "m", retry=RetryPolicy(max_retries=0)
    )
    assert client.describe() == "gateway http://127.0.0.1:9/v1#***, model m"
    assert client.endpoint == "http://127.0.0.1:9/v1/chat/completions"
    with pytest.raises(TransientError) as caught:
        client.chat([UserMessage(content="hi")])
    assert "tok-9f8e7d6c5b4a" not in str(caught.value)
    assert str(caught.value).startswith("Cannot reach the gateway at http://127.0.0.1:9/v1#*** (")


def test_url_secrets_lists_what_mask_url_hides():
    assert url_secrets("https://alice:pw-123@gw/v1?token=t0k3n&x=1") == ["pw-123", ALICE_BASIC, "t0k3n"]
    assert url_secrets("https://gw/v1") == []


ALICE_BASIC = "YWxpY2U6cHctMTIz"
"""base64 of `alice:pw-123`: what an HTTP client sends for `https://alice:pw-123@…` (`Authorization: Basic`)."""


def test_url_secrets_list_the_basic_credential_a_client_sends_for_the_user_info():
    """httpx (and httpx2, the MCP client's) send a URL's user info as `Authorization: Basic <base64 of
    user:password>`, the password in another spelling: a server echoing that header shows it, so it
    is one of the URL's secrets wherever they are masked (an MCP server's errors, the CLI's lines)."""
    assert url_secrets("https://alice:pw-123@gw/v1") == ["pw-123", ALICE_BASIC]
    assert url_secrets("https://al:p%40ss@gw/v1") == ["p@ss", "p%40ss", "YWw6cEBzcw=="]  # decoded, as sent
    assert url_secrets("https://sk-lone-token@gw/v1") == ["sk-lone-token", "c2stbG9uZS10b2tlbjo="]
    echoed = f"401: Basic {ALICE_BASIC} is not allowed at https://alice:pw-123@gw/v1"
    assert (
        mask_url_in(echoed, "https://alice:pw-123@gw/v1") == "401: Basic *** is not allowed at https://alice:***@gw/v1"
    )


def test_mask_key_keeps_only_the_last_four_characters_of_a_long_key():
    text = "Incorrect API key provided: sk-proj-0123456789abcdef."
    assert mask_key(text, "sk-proj-0123456789abcdef") == "Incorrect API key provided: ***cdef."
    assert mask_key("key sk-short here", "sk-short") == "key *** here"
    assert mask_key("a k b", "k") == "a k b"  # placeholder keys are too short to hunt for


@pytest.mark.parametrize(
    "key", ["none", "EMPTY", "ollama", "1234", "x", "not-needed", "lm-studio", "sk-no-key-required", "123456789"]
)
def test_a_placeholder_key_is_masked_only_where_it_stands_as_a_credential(key):
    """A local gateway's placeholder key (Ollama's `ollama`, vLLM's `EMPTY`) is a word ordinary text
    holds: masked where a request or an echo carries it as a credential, never inside a sentence."""
    text = (
        f'Authorization: Bearer {key}; api-key: {key}; {{"api_key": "{key}"}} ?key={key}&q={key} '
        f"https://u:{key}@gw/ https://{key}@gw/ said {key} of the tools ({key}), {key}s, {key}-ish, content: {key}"
    )
    shown = masked_key(key)
    assert mask_key(text, key) == (
        f'Authorization: Bearer {shown}; api-key: {shown}; {{"api_key": "{shown}"}} ?key={shown}&q={key} '
        f"https://u:{shown}@gw/ https://{shown}@gw/ said {key} of the tools ({key}), {key}s, {key}-ish, content: {key}"
    )


@pytest.mark.parametrize("key", ["hunter2", "token-abc123", "secret", "supersecret", "Tr0ub4dor&3"])
def test_a_key_that_is_no_placeholder_is_masked_wherever_it_stands(key):
    assert mask_key(f"said {key} twice: {key}s", key) == f"said {masked_key(key)} twice: {masked_key(key)}s"


def test_bearer_key():
    assert bearer_key("Bearer sk-1") == "sk-1" and bearer_key("Basic xyz") is None and bearer_key(None) is None


def test_mask_url_in_masks_the_url_and_each_of_its_secrets_wherever_they_stand():
    from toolkit.chat.masking import mask_url_in

    url = "http://me:pw-123456@127.0.0.1:9/mcp?token=tok-abcdef"
    text = f"cannot reach {url}; retried with tok-abcdef"
    assert mask_url_in(text, url) == "cannot reach http://me:***@127.0.0.1:9/mcp?token=***; retried with ***"


def test_mask_keys_masks_each_key_in_turn_and_skips_placeholders():
    from toolkit.chat.masking import mask_key, mask_keys

    key, other = "sk-test-1234567890abcdef", "pw-0987654321"
    text = f"keys {key} and {other}, x"
    assert mask_keys(text, [key, None, "x", other]) == mask_key(mask_key(text, key), other)
    assert key not in mask_keys(text, [key]) and other in mask_keys(text, [key])


def test_url_secrets_lists_each_secret_as_written_in_the_url_and_as_decoded():
    """A gateway that echoes the request's URL quotes a secret as the URL spells it (`%2B`, `+`),
    not as it decodes: both spellings are secrets."""
    sas = "https://gw/v1?sig=Ab%2BcD%2Fef%3D&x=1"
    assert url_secrets(sas) == ["Ab+cD/ef=", "Ab%2BcD%2Fef%3D"]
    assert url_secrets("https://gw/v1?key=Ab+cd") == ["Ab cd", "Ab+cd"]
    assert url_secrets("https://al:p%40ss@gw/v1")[:2] == ["p@ss", "p%40ss"]  # then the Basic credential
    assert url_secrets("https://gw/v1?token=plain") == ["plain"]  # one spelling, listed once
    echoed = "bad signature in https://gw/v1/chat/completions?sig=Ab%2BcD%2Fef%3D&x=1"
    assert mask_url_in(echoed, sas) == "bad signature in https://gw/v1/chat/completions?sig=***&x=1"


def test_mask_key_masks_the_key_as_a_json_body_escapes_it():
    """A gateway on .NET writes `+` as `\\u002B`, one on PHP `/` as `\\/`: a base64-style key
    echoed in such a JSON body is the key all the same, once the body is read."""
    key = "Ab3+Cd5/Ef7Gh9Ij1Kl3Mn5Op"
    for spelling in (
        "Ab3\\u002BCd5\\/Ef7Gh9Ij1Kl3Mn5Op",
        "Ab3\\u002bCd5\\u002fEf7Gh9Ij1Kl3Mn5Op",
        "\\u0041b3+Cd5/Ef7Gh9Ij1Kl3Mn5Op",
    ):
        body = '{"error":{"message":"Incorrect API key provided: ' + spelling + '."}}'
        assert mask_key(body, key) == '{"error":{"message":"Incorrect API key provided: ***n5Op."}}'
    unrelated = '{"message":"\\u4f60\\u597d Ab3 Cd5\\/Ef7"}'
    assert mask_key(unrelated, key) == unrelated


def test_every_query_parameter_that_names_a_credential_is_masked():
    """Azure Functions takes its function key as `?code=`; a password may go as `?pwd=` or `?pass=`,
    a session as `?sid=`, a signed URL's `X-Amz-Signature` too: each value is a secret."""
    fn = "https://fn.azurewebsites.net/api/v1?code=FnK3yQS3aaaaBBBBcccc==&model=m"
    assert mask_url(fn) == "https://fn.azurewebsites.net/api/v1?code=***&model=m"
    assert url_secrets(fn) == ["FnK3yQS3aaaaBBBBcccc=="]
    for name in ("pwd", "pass", "sid", "jwt", "X-Amz-Signature", "subscription-key", "access_token"):
        assert mask_url(f"https://gw.example/v1?{name}=Pw9q8r7s6t&x=1") == f"https://gw.example/v1?{name}=***&x=1"


def test_query_parameters_that_name_no_credential_are_kept():
    for query in ("api-version=2024-06-01", "model=gpt-4o&deployment=chat", "region=eu&passes=3", "monkey=1&author=a"):
        assert mask_url(f"https://gw.example/v1?{query}") == f"https://gw.example/v1?{query}"
        assert url_secrets(f"https://gw.example/v1?{query}") == []


def test_header_secrets_are_the_credentials_of_every_credential_header():
    from toolkit.chat.masking import header_secrets

    headers = [
        ("Authorization", "Bearer sk-bearer-1234"),
        ("authorization", "Bearer"),  # a scheme without a key: the word "Bearer" is no secret
        ("Proxy-Authorization", "Basic dXNlcjpwdw=="),
        ("Authorization", "sk-raw-key-5678"),  # a key without a scheme, as some gateways take it
        ("api-key", " azure-key-9012 "),
        ("x-api-key", ""),
        ("Content-Type", "application/json"),
    ]
    assert header_secrets(headers) == ["sk-bearer-1234", "dXNlcjpwdw==", "sk-raw-key-5678", "azure-key-9012"]


def test_mask_key_masks_the_key_percent_encoded_and_in_base64():
    key = "Ab+cD/ef gH1jK2lM3nO4pQ5rS6tU7v=="
    text = (
        f"q={quote(key, safe='')} path={quote(key)} form={quote_plus(key)} "
        f"b64={b64encode(key.encode()).decode()} url-safe={urlsafe_b64encode(key.encode()).decode().rstrip('=')}"
    )
    assert mask_key(text, key) == "q=***7v== path=***7v== form=***7v== b64=***7v== url-safe=***7v=="
    assert mask_key("sk-abc_DEF-123 plain", "sk-abc_DEF-123") == "*** plain"  # no other spelling


def test_a_url_password_and_its_basic_credential_are_masked_without_their_last_characters():
    """`***` and the last four characters is how a long API key is shown (as OpenAI's errors show
    it); for a URL's password they are a quarter of it, and for its Basic credential, base64 of its end."""
    password = "Secr3t-passw0rd-long"
    secrets = url_secrets(f"https://bob:{password}@gw/v1?key=AIzaSyA-0123456789abcdefgh")
    text = f"denied for Basic {basic_credential(f'https://bob:{password}@gw')} pw {password} key AIzaSyA-0123456789abcdefgh"
    assert mask_keys(text, secrets) == "denied for Basic *** pw *** key ***efgh"


@pytest.mark.parametrize(
    "line, shown",
    [
        (
            'HTTP Request: GET https://user:pw@h/cb?next=https%3A%2F%2Fx%3Ftoken%3Dabcdef123456 "HTTP/1.1 200 OK"',
            'HTTP Request: GET https://user:***@h/cb?next=https%3A%2F%2Fx%3Ftoken%3D[REDACTED] "HTTP/1.1 200 OK"',
        ),
        (
            "GET https://h/cb?next=https://x?token=abcdef123456&key=k1 200",
            "GET https://h/cb?next=https%3A%2F%2Fx%3Ftoken%3D[REDACTED]&key=*** 200",
        ),
        (
            "GET https://h/cb?state=%7B%22api_key%22%3A%22abcdef123456%22%7D 200",
            "GET https://h/cb?state=%7B%22api_key%22%3A%22[REDACTED]%22%7D 200",
        ),
        ("GET https://u:pw@h/v1/chat?q=weather 200", "GET https://u:***@h/v1/chat?q=weather 200"),
        ("POST http://h/v1/chat?api-key=sk-abcdef123456 200", "POST http://h/v1/chat?api-key=*** 200"),
    ],
    ids=["encoded-in-a-value", "nested-url", "encoded-json", "plain", "masked-by-name"],
)
def test_a_log_line_masks_a_token_inside_a_query_value_and_keeps_the_user_info_format(line, shown):
    """A token inside an encoded query value (`next=https%3A%2F%2Fx%3Ftoken%3D…`) was shown: the URLs
    of a log line went through `mask_url` alone, which masks only values whose name is a secret's."""
    assert masked_log_message(line) == shown
