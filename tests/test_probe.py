"""The gateway probe: every fake-gateway mode is classified correctly, in process and over real
HTTP; the classifier on hand-made responses; the CLI's last line."""

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy
from toolkit.chat.switch import fake_client
from toolkit.course.probe import QUESTION, VERDICTS, classify, probe, report
from toolkit.gateway.server import running_gateway

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("mode", ["A", "B", "C", "D", "E"])
def test_every_mode_of_the_embedded_gateway_is_classified(mode):
    result = probe(fake_client(mode=mode))
    assert result.verdict == mode, result.reason
    assert result.exchange.request["messages"] == [{"role": "user", "content": QUESTION}]
    assert [t["function"]["name"] for t in result.exchange.request["tools"]] == ["query_order"]
    assert report(result).splitlines()[-1] == f"verdict: {mode}"


@pytest.mark.parametrize("mode", ["B", "C"])
def test_a_real_http_server_is_classified_the_same(mode):
    with running_gateway(mode=mode) as url:
        client = ChatClient(url, "any-key", "fake-keyword", retry=RetryPolicy(max_retries=0))
        result = probe(client)
    assert result.verdict == mode
    assert result.exchange.url == f"{url}/chat/completions"


def completion(message: dict) -> str:
    return json.dumps(
        {"choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}]},
        ensure_ascii=False,
    )


def call(arguments) -> dict:
    return {
        "content": None,
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "query_order", "arguments": arguments}}],
    }


@pytest.mark.parametrize(
    "status, body, verdict",
    [
        (200, completion(call('{"orderId": "SN202610200001"}')), "A"),
        (200, completion(call({"orderId": "SN202610200001"})), "A"),
        (200, completion(call("{orderId: SN202610200001}")), "E"),
        (200, completion(call("")), "E"),
        (200, completion(call('"SN202610200001"')), "E"),
        (200, completion({"content": "我需要先确认一下，请问您的订单是什么时候下的？"}), "B"),
        (200, completion({"content": "好的，我来帮您查询，请稍等。"}), "B"),
        (200, completion({"content": "您的订单已签收，签收人：本人。"}), "D"),
        (200, completion({"content": "Your order is in transit and expected to arrive tomorrow."}), "D"),
        (200, completion({"content": "包裹预计后天送达。"}), "D"),
        (400, '{"error": {"message": "unknown field: tools"}}', "C"),
        (422, '{"detail": [{"loc": ["body", "tools"], "msg": "extra fields not permitted"}]}', "C"),
        (400, '{"error": {"message": "model not found"}}', None),
        (401, '{"error": {"message": "invalid api key"}}', None),
        (500, "oops", None),
        (200, "<html>not json</html>", None),
        (None, "<ConnectError>", None),
    ],
)
def test_classify(status, body, verdict):
    assert classify(status, body)[0] == verdict


def test_an_object_instead_of_a_json_string_is_noted():
    verdict, reason = classify(200, completion(call({"orderId": "SN202610200001"})))
    assert verdict == "A" and "non-standard" in reason


def test_an_unreachable_gateway_gets_no_verdict():
    client = ChatClient("http://127.0.0.1:9/v1", "k", "m", retry=RetryPolicy(max_retries=0), timeout=2)
    result = probe(client)
    assert result.verdict is None and "Fix the connection" in result.advice
    assert report(result).splitlines()[-1] == "verdict: ?"


@pytest.mark.parametrize("error", [httpx.ReadTimeout, httpx.ConnectTimeout])
def test_a_gateway_that_did_not_answer_in_time_is_told_to_be_given_longer(error):
    """Before: 'Fix the connection first (URL, key, model)', for a gateway that was slow, not wrong."""

    def slow(request):
        raise error("timed out", request=request)

    client = ChatClient(
        "http://gw.test/v1", "k", "m", retry=RetryPolicy(max_retries=0), transport=httpx.MockTransport(slow)
    )
    result = probe(client)
    assert result.verdict is None
    assert result.advice == (
        "The gateway did not answer within the client's timeout: if it is slow rather than stuck (a local model on "
        "a CPU), allow it longer (--timeout SECONDS on the command line, timeout= for ChatClient or connect), then "
        "probe again."
    )


def probe_cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    return subprocess.run(
        [sys.executable, "-m", "toolkit", "probe", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_prints_the_raw_response_then_the_verdict_last():
    done = probe_cli("--fake-mode", "d")
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert lines[0] == "probing embedded fake keyword gateway (in-process, mode D)"
    assert lines[3] == "HTTP 200" and json.loads(lines[4])["choices"][0]["message"]["content"]
    assert lines[-4:-2] == [
        "=== 结论 ===",
        "网关静默忽略 tools：没有调用工具，却给出了一个编造的状态。 (ignores tools: no tool call, and a concrete "
        f"status for a made-up order: {json.loads(lines[4])['choices'][0]['message']['content'][:80]!r})",
    ]
    assert lines[-2].startswith("→ Never trust") and lines[-1] == "verdict: D"


def test_cli_against_a_real_server_from_flags_and_from_env():
    with running_gateway(mode="E") as url:
        flags = probe_cli("--base-url", url, "--api-key", "secret-key-1", "--model", "m")
        env = probe_cli(LLM_BASE_URL=url, LLM_API_KEY="secret-key-1", LLM_MODEL="m")
    for done in (flags, env):
        assert done.stdout.splitlines()[-1] == "verdict: E" and "secret-key-1" not in done.stdout
        assert done.stdout.splitlines()[0] == f"probing real gateway {url}, model m"


def test_cli_refuses_half_a_configuration():
    done = probe_cli("--base-url", "http://127.0.0.1:9/v1")
    assert done.returncode == 2 and "LLM_API_KEY" in done.stderr


def test_the_conclusion_block_is_printed_as_the_courses_source_prints_it():
    lines = report(probe(fake_client(mode="C"))).splitlines()
    assert lines[-4:] == [
        "=== 结论 ===",
        "网关拒绝 tools 字段。 (rejects tools: HTTP 400 naming the tools field: unknown field: tools)",
        "→ " + VERDICTS["C"][1],
        "verdict: C",
    ]


def test_cli_reads_llm_fake_mode_and_the_flag_wins():
    from_env = probe_cli(LLM_FAKE_MODE="d")
    flag = probe_cli("--fake-mode", "b", LLM_FAKE_MODE="d")
    bad = probe_cli(LLM_FAKE_MODE="Z")
    assert from_env.stdout.splitlines()[-1] == "verdict: D"
    assert flag.stdout.splitlines()[-1] == "verdict: B"
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr.strip() == (
        "error: connect(): LLM_FAKE_MODE='Z' is not a mode of the embedded gateway; use one of A, B, C, D, E, "
        "or unset it for A"
    )


@pytest.mark.parametrize("mode", ["BC", ""])
def test_cli_refuses_a_fake_mode_that_is_not_one_letter_of_a_to_e(mode, capsys):
    from toolkit.cli.main import main

    with pytest.raises(SystemExit) as caught:
        main(["probe", "--fake-mode", mode])
    assert caught.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text, invented",
    [
        ("您的订单已发货，预计明天送达。", True),
        ("Your order is in transit.", True),
        ("没有查到订单 SN202610209999，请确认订单号。", False),
        ("I don't have access to live order systems.", False),
    ],
)
def test_invents_status_is_the_probes_rule_for_an_invented_status(text, invented):
    from toolkit.course.probe import invents_status

    assert invents_status(text) is invented


OPENROUTER_NO_TOOLS = (
    '{"error":{"message":"No endpoints found that support tool use. To learn more about provider routing, '
    'visit: https://openrouter.ai/docs/provider-routing","code":404}}'
)
LLAMA_CPP_NO_JINJA = '{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}'


@pytest.mark.parametrize(
    "status, body, reason",
    [
        (
            404,
            OPENROUTER_NO_TOOLS,
            "HTTP 404 naming the tools field: No endpoints found that support tool use. To learn more about "
            "provider routing, visit: https://openrouter.ai/docs/provider-routing",
        ),
        (500, LLAMA_CPP_NO_JINJA, "HTTP 500 naming the tools field: tools param requires --jinja flag"),
        (
            500,
            '{"code":500,"message":"Unsupported param: tools","type":"server_error"}',
            "HTTP 500 naming the tools field: Unsupported param: tools",
        ),
        (
            400,
            '{"error": {"message": "该模型不支持工具调用"}}',
            "HTTP 400 naming the tools field: 该模型不支持工具调用",
        ),
    ],
)
def test_a_gateway_refusing_tools_with_another_status_rejects_tools(status, body, reason):
    """OpenRouter answers a model without tool support with a 404, llama.cpp's server without
    --jinja with a 500: both were "could not classify", and the course stayed on native tools
    that every cell then failed with."""
    assert classify(status, body) == ("C", reason)


@pytest.mark.parametrize(
    "status, body, model",
    [
        (
            404,
            '{"error": {"message": "The model `xlam-tool-7b` does not exist", "code": "model_not_found"}}',
            "xlam-tool-7b",
        ),
        (400, '{"error": "model \\"llama3-tool:8b\\" not found, try pulling it first"}', "llama3-tool:8b"),
        (404, "<html><head><title>404 Not Found</title></head><body class='tooltip'>no</body></html>", "m"),
        (401, '{"error": {"message": "this key may not use tools"}}', "m"),
        (429, '{"error": {"message": "too many tool calls, slow down"}}', "m"),
        (498, '{"error": {"message": "flex tier at capacity for tool use", "code": "capacity_exceeded"}}', "m"),
        (503, '{"error": {"message": "overloaded"}}', "m"),
    ],
)
def test_an_error_naming_only_the_model_or_about_the_key_or_the_load_is_not_c(status, body, model):
    """The model's own name may hold "tool"; a 401 or a 429 is about the key or the load, whatever it says."""
    assert classify(status, body, model=model)[0] is None


def test_the_probe_reads_the_model_name_out_of_an_error_before_looking_for_tools():
    body = '{"error": {"message": "The model `xlam-tool-7b` does not exist", "code": "model_not_found"}}'
    transport = httpx.MockTransport(lambda request: httpx.Response(404, text=body))
    client = ChatClient("http://gw.test/v1", "k", "xlam-tool-7b", transport=transport, retry=RetryPolicy(max_retries=0))
    assert probe(client).verdict is None
    refusing = httpx.MockTransport(lambda request: httpx.Response(404, text=OPENROUTER_NO_TOOLS))
    client = ChatClient("http://gw.test/v1", "k", "xlam-tool-7b", transport=refusing, retry=RetryPolicy(max_retries=0))
    assert probe(client).verdict == "C"


@pytest.mark.parametrize("command", ["probe", "eval"])
def test_cli_flags_without_the_model_name_the_flag_not_only_the_variables(command, monkeypatch, capsys):
    """Before: `toolkit probe --base-url URL --api-key K` (no --model, no LLM_* set) said "connect(): LLM_BASE_URL,
    LLM_API_KEY set but LLM_MODEL not … Set the missing ones, or unset all three": variables nobody set, and
    no word of --model."""
    from toolkit.cli.main import main

    for name in ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL", "LLM_REPLAY", "LLM_RECORD"):
        monkeypatch.delenv(name, raising=False)
    assert main([command, "--base-url", "http://127.0.0.1:9/v1", "--api-key", "sk-s3cret"]) == 2
    assert capsys.readouterr().err == (
        "error: --base-url, --api-key given but not --model (nor LLM_MODEL): a real gateway needs its URL, key and "
        "model; give the missing one, or none of the three for the embedded fake gateway\n"
    )


def test_cli_flags_with_the_rest_from_the_variables_reach_the_real_gateway(monkeypatch):
    from argparse import Namespace

    from toolkit.cli.probe import client_from_args

    monkeypatch.setenv("LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("LLM_API_KEY", "sk-s3cret")
    monkeypatch.delenv("LLM_MODEL", raising=False)
    client = client_from_args(Namespace(base_url=None, api_key=None, model="m", fake_mode=None))
    assert (client.base_url, client.model) == ("http://127.0.0.1:9/v1", "m")


def test_cli_base_url_flag_that_is_no_url_names_the_flag(capsys):
    """Before: `--base-url api.example.com/v1` was "ChatClient: base_url … (check LLM_BASE_URL)", a variable
    nobody set."""
    from toolkit.cli.main import main

    with pytest.raises(SystemExit) as caught:
        main(["probe", "--base-url", "api.example.com/v1"], prog="toolkit")
    assert caught.value.code == 2
    assert capsys.readouterr().err.endswith(
        "toolkit probe: error: argument --base-url: 'api.example.com/v1' is not an http(s) URL with a host: give "
        "the gateway's base URL, e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1\n"
    )


@pytest.mark.parametrize(
    ("key", "where"), [("“sk-s3cret”", "U+201C at position 1 of 11"), ("sk-s3\ncret", "U+000A at position 6 of 10")]
)
def test_cli_api_key_flag_that_cannot_be_sent_names_the_flag_not_the_key(key, where, capsys):
    """Before: `--api-key “sk-…”` (quotes pasted from a chat) was "ChatClient: the API key has a character …
    check LLM_API_KEY for a pasted quote", a variable nobody set."""
    from toolkit.cli.main import main

    with pytest.raises(SystemExit) as caught:
        main(["probe", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--api-key", key], prog="toolkit")
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(
        f"toolkit probe: error: argument --api-key: the key has a character that cannot go in an HTTP header ({where}); "
        "API keys are printable ASCII: check it for a pasted quote or line break\n"
    )
    assert "s3" not in err


def test_a_hostile_gateways_raw_response_reaches_the_terminal_as_code_points():
    """Before: `toolkit probe` printed the gateway's raw response as it came: a body holding `\\x1b[2J` cleared
    the learner's terminal, `\\x1b]0;…\\x07` retitled it, a right-to-left override read it backwards. Now each
    such character is written as its code point (`toolkit.views.html.showable`); its lines stay lines."""
    from toolkit.chat.client import Exchange
    from toolkit.course.probe import ProbeResult

    body = '{"error": "\x1b[2J\x1b]0;owned\x07"}\n\u202eok'
    exchange = Exchange("http://127.0.0.1:9/v1/chat/completions", {"model": "m"}, 500, body, 1)
    lines = report(ProbeResult(None, "HTTP 500: \x1b[2J", "retry", exchange)).splitlines()
    assert lines[3:5] == ['{"error": "⟨U+001B⟩[2J⟨U+001B⟩]0;owned⟨U+0007⟩"}', "⟨U+202E⟩ok"]
    assert lines[-3:] == [
        "无法判断：这次请求没有说明网关是否支持 tools。 (HTTP 500: ⟨U+001B⟩[2J)",
        "→ retry",
        "verdict: ?",
    ]


def test_a_refused_request_is_told_the_clients_fix_not_only_to_fix_the_connection():
    """A base URL ending in /chat/completions (as a gateway's docs show the endpoint) gets a 404. The probe said
    only 'Fix the connection first (URL, key, model)', and the gateway's own words in its reason read
    'Unknown request URL: POST <path> ... Did you mean POST <path>' (the exchange log hides file paths, and
    took the URL's for some): the client's hint, which names the fix, was dropped. Now the advice is it."""
    with running_gateway(mode="A") as url:
        client = ChatClient(f"{url}/chat/completions", "any-key", "fake-keyword", retry=RetryPolicy(max_retries=0))
        result = probe(client)
    assert result.verdict is None
    assert result.advice == (
        "Fix the connection first: LLM_BASE_URL ends in /chat/completions: set it to the part before, e.g. "
        "https://host/v1; then probe again."
    )
    assert report(result).splitlines()[-2] == f"→ {result.advice}"


def test_a_wrong_key_is_told_to_check_the_key():
    def refused(request):
        return httpx.Response(401, json={"error": {"message": "Incorrect API key provided"}})

    client = ChatClient(
        "http://gw.test/v1", "k", "m", retry=RetryPolicy(max_retries=0), transport=httpx.MockTransport(refused)
    )
    assert probe(client).advice == "Fix the connection first: check LLM_API_KEY; then probe again."


@pytest.mark.parametrize("command", ["probe", "eval"])
def test_a_fake_mode_given_while_a_real_gateway_is_configured_is_refused_not_ignored(command, monkeypatch, capsys):
    """A learner whose shell sets LLM_* (the course's setup) runs `toolkit eval --fake-mode C` to see a gateway
    that rejects tools: --fake-mode only picks the embedded gateway's mode, so it was ignored without a word and
    every case went to the real gateway (its cost, its verdict). Now one line and exit 2, before any request."""
    from toolkit.cli.main import main

    monkeypatch.setenv("LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("LLM_API_KEY", "sk-test")
    monkeypatch.setenv("LLM_MODEL", "m")
    assert main([command, "--fake-mode", "c"]) == 2
    assert capsys.readouterr() == (
        "",
        "error: --fake-mode C picks the embedded gateway's mode, but a real gateway is configured (LLM_BASE_URL, "
        "LLM_API_KEY, LLM_MODEL), and it would be used: leave --fake-mode out, or unset the three for the "
        "embedded gateway\n",
    )
