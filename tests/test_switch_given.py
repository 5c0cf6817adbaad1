"""`toolkit.chat.switch` and `ChatClient`'s options: what `connect()`, `fake_client()` and
`ChatClient(...)` accept. `connect(base_url=..., api_key=..., model=...)`, as the `openai` SDK's
`OpenAI(base_url=..., api_key=...)` taught it, failed inside with `ChatClient.__init__() got multiple
values for argument 'base_url'`, and an unknown option with `ChatClient`'s own `TypeError`; a model
that is no name (`None`, `""`) went out as `"model": null`, and `timeout="30"` or `timeout=-1` was taken
(failing, or timing every request out, at the first request). `fake_client(gateway=5)` named
`InProcessTransport`, and `gateway=0` made a new gateway. Each is a `ConfigurationError` naming the fix, raised
where the client is made."""

import pytest

from toolkit.chat.client import ChatClient
from toolkit.chat.switch import connect, fake_client
from toolkit.errors import ConfigurationError

URL = "http://127.0.0.1:9/v1"


@pytest.mark.parametrize("name", ["base_url", "api_key", "model"])
def test_connect_given_the_gateway_in_code_names_chat_client(name):
    with pytest.raises(ConfigurationError) as caught:
        connect(env={}, **{name: "x"})
    assert str(caught.value) == (
        f"connect(): {name}= is not an option of connect(), which reads the gateway from LLM_BASE_URL, LLM_API_KEY "
        "and LLM_MODEL (or uses the embedded fake one); set those, or name the gateway in code: "
        "ChatClient(base_url, api_key, model)"
    )


def test_an_unknown_option_is_named_with_the_options_there_are():
    with pytest.raises(ConfigurationError) as caught:
        connect(env={}, temperature=0)
    assert str(caught.value) == (
        "connect(): temperature= is not an option; it takes mode=, env= and the client's timeout=, retry=, sleep="
    )
    with pytest.raises(ConfigurationError) as caught:
        fake_client(model="gpt-4o")
    assert str(caught.value).startswith("fake_client(): model= is not an option of fake_client()")


@pytest.mark.parametrize(("model", "shown"), [(None, "None"), ("", "''"), (3, "int")])
def test_a_model_that_is_no_name_is_a_configuration_error(model, shown):
    with pytest.raises(ConfigurationError) as caught:
        ChatClient(URL, "sk-test", model)
    assert str(caught.value) == (
        f"ChatClient: model must be the model's name as a str, e.g. 'gpt-4o-mini', not {shown} (check LLM_MODEL)"
    )


@pytest.mark.parametrize("timeout", ["30", -1, 0, float("nan"), True, 1e10, 10**12])
def test_a_timeout_that_is_no_number_of_seconds_is_a_configuration_error(timeout):
    """1e10 and more: before, taken, then 'OverflowError: timestamp out of range for platform time_t'
    out of the first request (a socket cannot wait that long)."""
    with pytest.raises(ConfigurationError) as caught:
        connect(env={}, timeout=timeout)
    assert str(caught.value) == (
        "ChatClient: timeout must be the seconds to wait for the gateway, a number above 0 and at most 1e+09 "
        f"(about 32 years; e.g. timeout=30), or None to wait for ever; not {timeout!r}"
    )


def test_good_options_still_pass():
    assert connect(env={}, timeout=5).describe().startswith("embedded fake keyword gateway")
    assert ChatClient(URL, "sk-test", "m", timeout=1e9).model == "m"
    assert ChatClient(URL, "sk-test", "m", timeout=None).model == "m"
    with pytest.raises(ConfigurationError, match=r"^ChatClient: retry must be a RetryPolicy"):
        ChatClient(URL, "sk-test", "m", retry=3)


@pytest.mark.parametrize(
    ("gateway", "said"),
    [
        (5, "fake_client(gateway=5): that is an int, not a fake gateway. Fix: make one: Gateway(), Gateway('B') or "
         "Gateway(faults=['rate_limit'])"),
        ("B", "fake_client(gateway='B'): that is a str, not a fake gateway. Fix: make one: Gateway('B')"),
        (0, "fake_client(gateway=0): that is an int, not a fake gateway. Fix: make one: Gateway(), Gateway('B') or "
         "Gateway(faults=['rate_limit'])"),
    ],
)  # fmt: skip
def test_a_gateway_that_is_no_gateway_names_fake_client(gateway, said):
    with pytest.raises(ConfigurationError) as caught:  # it named InProcessTransport; 0 or "" made a new gateway
        fake_client(gateway=gateway)
    assert str(caught.value) == said


def test_a_stand_in_gateway_without_a_mode_is_taken():
    from toolkit.gateway.server import Gateway

    class StandIn:  # what check_gateway takes: handle and config (it was an AttributeError: no 'mode')
        def __init__(self):
            self.inner = Gateway()
            self.config = self.inner.config

        def handle(self, *request):
            return self.inner.handle(*request)

    client = fake_client(gateway=StandIn())
    assert client.describe() == "embedded fake keyword gateway (in-process)"
    assert client.chat("你好").message.content


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (
            {"max_retries": "2"},
            "RetryPolicy(max_retries='2'): max_retries is how many times to try again, a whole number 0 or more; "
            "e.g. RetryPolicy(max_retries=2)",
        ),
        (
            {"max_retries": -1},
            "RetryPolicy(max_retries=-1): max_retries is how many times to try again, a whole number 0 or more; "
            "e.g. RetryPolicy(max_retries=2)",
        ),
        (
            {"max_retries": True},
            "RetryPolicy(max_retries=True): max_retries is how many times to try again, a whole number 0 or more; "
            "e.g. RetryPolicy(max_retries=2)",
        ),
        (
            {"backoff_s": None},
            "RetryPolicy(backoff_s=None): backoff_s is a number of seconds, 0 or more; e.g. RetryPolicy(backoff_s=0.5)",
        ),
        (
            {"max_backoff_s": float("nan")},
            "RetryPolicy(max_backoff_s=nan): max_backoff_s is a number of seconds, 0 or more; "
            "e.g. RetryPolicy(max_backoff_s=8.0)",
        ),
    ],
)
def test_a_retry_policy_of_no_counts_or_seconds_is_refused_where_it_is_made(given, said):
    # was accepted, then a TypeError out of chat() at the first 429 ('>' not supported between int and str)
    from toolkit.chat.client import RetryPolicy

    with pytest.raises(ConfigurationError) as info:
        RetryPolicy(**given)
    assert str(info.value) == said


def test_a_retry_policy_of_counts_and_seconds_is_kept():
    from toolkit.chat.client import RetryPolicy

    assert RetryPolicy(0, 1, 3, float("inf")).max_retry_after_s == float("inf")
    assert RetryPolicy(max_retries=3, backoff_s=0).wait(2, None) == 0
