import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.switch import connect
from toolkit.errors import ConfigurationError

REAL = {"LLM_BASE_URL": "https://gw.example/v1", "LLM_API_KEY": "sk-test", "LLM_MODEL": "qwen"}


def test_all_three_variables_select_the_real_gateway():
    client = connect(env=REAL)
    assert client.describe() == "real gateway https://gw.example/v1, model qwen"
    assert client.base_url == "https://gw.example/v1" and client.model == "qwen"


def test_no_variables_select_the_embedded_fake_gateway():
    client = connect(env={})
    assert client.describe() == "embedded fake keyword gateway (in-process, mode A)"
    reply = client.chat(
        [UserMessage(content="帮我查一下订单 SN202610200001 现在到哪了？")],
        tools=[
            {
                "type": "function",
                "function": {
                    "name": "query_order",
                    "description": "查询订单",
                    "parameters": {
                        "type": "object",
                        "properties": {"orderId": {"type": "string"}},
                        "required": ["orderId"],
                    },
                },
            }
        ],
    )
    assert [c.name for c in reply.message.tool_calls] == ["query_order"]
    assert client.exchanges[-1].status == 200


def test_blank_variables_count_as_unset():
    assert connect(env={k: "  " for k in REAL}).describe().startswith("embedded fake")


def test_a_partial_configuration_is_a_clear_error():
    with pytest.raises(ConfigurationError) as info:
        connect(env={"LLM_BASE_URL": "https://gw.example/v1"})
    assert str(info.value) == (
        "connect(): LLM_BASE_URL set but LLM_API_KEY, LLM_MODEL not; the real gateway needs all three of "
        "LLM_BASE_URL, LLM_API_KEY, LLM_MODEL. Set the missing ones, or unset all three to use the "
        "embedded fake gateway."
    )


def test_mode_reaches_the_fake_gateway():
    client = connect(env={}, mode="B")
    assert client.describe().endswith("mode B)")


def test_describe_masks_credentials_in_the_base_url():
    env = {**REAL, "LLM_BASE_URL": "https://bob:s3cret-pass@gw.example/v1?key=abcdef"}
    assert connect(env=env).describe() == "real gateway https://bob:***@gw.example/v1?key=***, model qwen"


def test_llm_fake_mode_chooses_the_embedded_gateways_mode():
    assert connect(env={"LLM_FAKE_MODE": "c"}).describe().endswith("mode C)")
    assert connect(env={"LLM_FAKE_MODE": "C"}, mode="B").describe().endswith("mode B)")  # the argument wins
    assert connect(env={"LLM_FAKE_MODE": " "}).describe().endswith("mode A)")
    assert connect(env={**REAL, "LLM_FAKE_MODE": "C"}).describe().startswith("real gateway")  # fake only


def test_an_unknown_fake_mode_is_a_clear_error():
    with pytest.raises(ConfigurationError) as info:
        connect(env={"LLM_FAKE_MODE": "Z"})
    assert str(info.value) == (
        "connect(): LLM_FAKE_MODE='Z' is not a mode of the embedded gateway; use one of A, B, C, D, E, or unset it for A"
    )


@pytest.mark.parametrize(
    "env, said",
    [
        (
            "LLM_MODEL=m",
            "takes a mapping of environment variables to their values, like os.environ or "
            "{'LLM_BASE_URL': 'https://host/v1', ...}, and got str",
        ),
        (
            {"LLM_API_KEY": b"sk-secret-value-1234"},
            "LLM_API_KEY is bytes, not text; environment values are strings: "
            "write it as one (the value is not shown: it may be a key)",
        ),
        (
            {"LLM_FAKE_MODE": 3},
            "LLM_FAKE_MODE is int, not text; environment values are strings: write it as one "
            "(the value is not shown: it may be a key)",
        ),
    ],
)
def test_an_env_that_is_no_environment_is_named_where_it_is_given(env, said):
    from toolkit.views.playground import AssistantPlayground

    with pytest.raises(ConfigurationError) as raised:
        connect(env=env)
    assert str(raised.value) == f"connect(env=...): {said}"
    with pytest.raises(ConfigurationError) as raised:  # at construction, not at the first Send
        AssistantPlayground(env=env)
    assert str(raised.value) == f"AssistantPlayground(env=...): {said}"
    assert "secret" not in str(raised.value)


def test_a_replay_cassette_that_cannot_be_read_names_the_variable_and_the_fix(tmp_path):
    """Before: `LLM_REPLAY=/typo.jsonl toolkit probe` said "cassette /typo.jsonl cannot be read: No such file or
    directory", naming neither the variable it came from nor what to do (LLM_RECORD's error names its variable)."""
    from toolkit.errors import CassetteError

    missing = tmp_path / "typo.jsonl"
    with pytest.raises(CassetteError) as caught:
        connect(env={"LLM_REPLAY": str(missing)})
    assert str(caught.value) == (
        f"cassette {missing} cannot be read: No such file or directory (set by LLM_REPLAY: give a cassette "
        "LLM_RECORD wrote, or unset LLM_REPLAY)"
    )


def test_a_replay_does_not_wait_out_the_waits_the_gateway_asked_for_when_recorded(tmp_path):
    """A cassette holds the gateway's 429 and its `Retry-After`, then the answer: replaying it slept the
    recorded wait again (and each backoff), though nothing is waited for; the answers, the retries and
    what the client says of them are the same."""
    import json
    import threading

    import httpx

    from toolkit.chat.cassette import RecordingTransport
    from toolkit.chat.client import ChatClient, RetryPolicy
    from toolkit.chat.switch import replay_client

    answer = {"id": "c1", "model": "m", "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}]}
    served = iter([(429, {"error": {"message": "slow down"}}, {"Retry-After": "3600"}), (200, answer, {})])

    def gateway(request):
        status, body, headers = next(served)
        return httpx.Response(status, json=body, headers=headers)

    cassette = tmp_path / "c.jsonl"
    patient = RetryPolicy(max_retries=2, max_retry_after_s=7200)
    recording = ChatClient(
        "http://gw.test/v1",
        "k",
        "m",
        transport=RecordingTransport(cassette, httpx.MockTransport(gateway)),
        retry=patient,
        sleep=lambda seconds: None,
    )
    recorded = recording.chat([UserMessage(content="hi")]).message.content
    replay = replay_client(str(cassette), retry=patient)
    replayed: list[object] = []
    worker = threading.Thread(target=lambda: replayed.append(replay.chat([UserMessage(content="hi")])), daemon=True)
    worker.start()
    worker.join(60)  # the recorded wait is an hour
    assert not worker.is_alive(), "the replay slept the recorded Retry-After"
    assert replayed[0].message.content == recorded == "ok"
    assert [e.status for e in replay.exchanges] == [429, 200] == [e.status for e in recording.exchanges]
    assert json.loads(cassette.read_text(encoding="utf-8").splitlines()[0])["response"]["status"] == 429


def test_a_base_url_naming_the_endpoint_is_said_with_its_path_as_written():
    """Before: the base URL to set was built from the path httpx gives decoded: `%2F` said as `/` (another URL),
    and a `%0d` was httpx's `InvalidURL` from inside, an error nothing said in words."""
    for written, before in (
        ("http://gw.example/a%2Fb/v1/chat/completions?v=1", "http://gw.example/a%2Fb/v1?v=1"),
        ("http://gw.example/v1%0d/chat/completions/", "http://gw.example/v1%0d"),
    ):
        with pytest.raises(ConfigurationError) as raised:
            connect(env={"LLM_BASE_URL": written, "LLM_API_KEY": "k", "LLM_MODEL": "m"})
        assert str(raised.value) == (
            f"connect(): LLM_BASE_URL {written!r} ends in /chat/completions, which the client adds itself; set it to "
            f"the part before: {before}"
        )
