"""The gateway over real HTTP on loopback: `python -m toolkit gateway`, `running_gateway()`, the app."""

import asyncio
import json
import re
import socket
import subprocess
import sys

import httpx
import openai
import pytest
from loopback import announced
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from starlette.testclient import TestClient

from toolkit.cli.main import main
from toolkit.errors import ConfigurationError
from toolkit.gateway.core import GatewayConfig
from toolkit.gateway.server import Gateway, create_app, running_gateway


def cli(argv):
    return main(["gateway", *argv])


PROBE = "帮我查一下订单 SN202610200001 现在到哪了？"
MESSAGES = [{"role": "user", "content": PROBE}]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "query_order",
            "description": "查询订单",
            "parameters": {"type": "object", "properties": {"orderId": {"type": "string"}}, "required": ["orderId"]},
        },
    }
]


@pytest.fixture(scope="module")
def server_url():
    """`python -m toolkit gateway --port 0` as a subprocess; the URL it prints once it listens (it
    binds the port itself: one picked here and bound later could be taken meanwhile)."""
    with announced([sys.executable, "-m", "toolkit", "gateway", "--port", "0"], channel="stdout") as (url, _):
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/v1", url), url
        yield url


def test_the_sdk_gets_a_tool_call_over_http(server_url):
    sdk = openai.OpenAI(base_url=server_url, api_key="x", max_retries=0)
    completion = sdk.chat.completions.create(model="any", messages=MESSAGES, tools=TOOLS)
    [call] = completion.choices[0].message.tool_calls
    assert (call.function.name, call.function.arguments) == ("query_order", '{"orderId":"SN202610200001"}')
    assert completion.choices[0].finish_reason == "tool_calls" and completion.model == "any"


def test_the_sdk_gets_a_streamed_tool_call_over_http(server_url):
    sdk = openai.OpenAI(base_url=server_url, api_key="x", max_retries=0)
    stream = sdk.chat.completions.create(
        model="m", messages=MESSAGES, tools=TOOLS, stream=True, stream_options={"include_usage": True}
    )
    chunks = list(stream)
    names = [tc.function.name for c in chunks if c.choices for tc in c.choices[0].delta.tool_calls or ()]
    arguments = "".join(
        tc.function.arguments or "" for c in chunks if c.choices for tc in c.choices[0].delta.tool_calls or ()
    )
    assert [n for n in names if n] == ["query_order"] and json.loads(arguments) == {"orderId": "SN202610200001"}
    assert chunks[-1].usage.total_tokens > 0


def test_raw_bodies_validate_as_openai_types(server_url):
    body = {"model": "m", "messages": MESSAGES, "tools": TOOLS}
    with httpx.Client(base_url=server_url) as http:
        plain = http.post("/chat/completions", json=body)
        ChatCompletion.model_validate(plain.json())
        streamed = http.post("/chat/completions", json={**body, "stream": True})
    assert streamed.headers["content-type"].startswith("text/event-stream")
    lines = [line for line in streamed.text.split("\n\n") if line]
    assert lines[-1] == "data: [DONE]"
    for line in lines[:-1]:
        ChatCompletionChunk.model_validate_json(line.removeprefix("data: "))


def test_errors_over_http_are_openai_shaped(server_url):
    with httpx.Client(base_url=server_url) as http:
        missing = http.post("/embeddings", json={})
        wrong = http.get("/chat/completions")
        mode_c = http.post(
            "/chat/completions", json={"model": "m", "messages": MESSAGES, "tools": TOOLS}, headers={"X-Fake-Mode": "C"}
        )
    assert (missing.status_code, wrong.status_code, wrong.headers["allow"]) == (404, 405, "POST")
    assert mode_c.status_code == 400 and mode_c.json()["error"]["message"] == "unknown field: tools"


def test_running_gateway_serves_in_a_thread_and_stops():
    with running_gateway(mode="B") as url:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
        reply = httpx.post(f"{url}/chat/completions", json={"model": "m", "messages": MESSAGES, "tools": TOOLS})
        assert (
            reply.json()["choices"][0]["message"]["content"] == "好的，我来帮您查询订单 SN202610200001 的状态，请稍等。"
        )
    with pytest.raises(httpx.ConnectError):
        httpx.post(f"{url}/chat/completions", json={})


def test_running_gateway_shares_the_gateways_fault_schedule():
    gateway = Gateway(faults=["server_error", "rate_limit"])
    with running_gateway(gateway=gateway) as url:
        statuses = [
            httpx.post(f"{url}/chat/completions", json={"model": "m", "messages": MESSAGES}).status_code
            for _ in range(3)
        ]
    assert statuses == [500, 429, 200]


def test_the_app_truncates_a_stream_without_done():
    app = TestClient(create_app(Gateway(faults=["truncate"])))
    response = app.post(
        "/v1/chat/completions", json={"model": "m", "messages": MESSAGES, "tools": TOOLS, "stream": True}
    )
    assert response.status_code == 200 and "[DONE]" not in response.text
    assert response.text.rstrip().endswith("}")  # the last event is whole; the stream is not


def test_the_app_refuses_a_body_over_one_mebibyte():
    app = TestClient(create_app(Gateway(config=GatewayConfig(max_body_bytes=1 << 20))))
    response = app.post(
        "/v1/chat/completions", content=b" " * (1 << 20 | 1), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413 and response.json()["error"]["code"] == "request_too_large"


def test_an_unknown_scheduled_fault_is_a_configuration_error():
    with pytest.raises(ConfigurationError, match="unknown fault 'boom'"):
        Gateway(faults=["boom"])


def test_the_mode_can_be_changed_on_a_live_gateway():
    gateway = Gateway(config=GatewayConfig(slow_delay_s=1))
    gateway.mode = "D"
    assert (gateway.mode, gateway.config.slow_delay_s) == ("D", 1)


def test_the_cli_rejects_an_unknown_mode(capsys):
    with pytest.raises(SystemExit) as info:
        cli(["--mode", "Z"])
    assert info.value.code == 2 and "invalid choice: 'Z'" in capsys.readouterr().err


def test_the_cli_reports_a_port_in_use(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli(["--port", str(port)]) == 2
    assert capsys.readouterr().err == (
        f"error: cannot listen on 127.0.0.1:{port}: Address already in use; stop the program that listens there, or give another --port (0 = any free one)\n"
    )


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback here")
def test_an_ipv6_host_gets_a_url_with_brackets_that_answers():
    """Before: `toolkit gateway --host ::1` printed `http://::1:18083/v1` (and `running_gateway(host="::1")`
    yielded it), a URL no client can parse: an IPv6 address goes in brackets."""
    with running_gateway(host="::1") as url:
        assert url.startswith("http://[::1]:") and url.endswith("/v1")
        reply = httpx.post(f"{url}/chat/completions", json={"model": "m", "messages": MESSAGES})
    assert reply.status_code == 200


def test_ctrl_c_stops_the_cli_with_one_line_and_exit_130():
    """Before: Ctrl-C ended `toolkit gateway` silently with exit 0 (its `run` swallowed the
    KeyboardInterrupt), where every other command (`mcp-server --http` too) says one line and exits 130;
    a shell script running it (`toolkit gateway; next`) went on as if the gateway had ended by itself."""
    import signal

    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "gateway", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "listening on http://127.0.0.1:" in process.stdout.readline()  # printed once the socket listens
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    assert (process.returncode, err) == (130, "interrupted (Ctrl-C): stopped\n")


def _asgi_post(app, headers: list[tuple[bytes, bytes]], body: bytes) -> dict:
    """The JSON an ASGI `app` answers a POST to the chat route with these raw header bytes (no client
    in between: a test client re-encodes header values)."""
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/v1/chat/completions",
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"), *headers],
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return json.loads(b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"))


@pytest.mark.parametrize(
    "sent, quoted",
    [("é".encode(), "É"), ("\u200bslow".encode(), "\u200bslow"), (b"\xff", "\xff")],
)
def test_a_header_value_is_quoted_as_sent_in_utf8_else_byte_by_byte(sent, quoted):
    """Before: every header was read as latin-1, so `X-Fake-Fault: \\u200bslow` (a zero-width space
    pasted with the name) came back as 'â\\x80\\x8bslow', and é as 'Ã©': not what was sent."""
    app = create_app(Gateway())
    body = json.dumps({"model": "m", "messages": MESSAGES}).encode()
    mode = _asgi_post(app, [(b"x-fake-mode", sent)], body)
    fault = _asgi_post(app, [(b"x-fake-fault", sent)], body)
    assert mode["error"]["message"] == f"Unknown x-fake-mode {quoted.upper()!r}; use one of A, B, C, D, E."
    assert fault["error"]["message"] == (
        f"Unknown x-fake-fault {quoted.lower()!r}; use one of rate_limit, server_error, slow, truncate."
    )
