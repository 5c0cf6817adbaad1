"""A learner's proxy settings (`HTTP_PROXY`, `ALL_PROXY`, as a company network sets them) are for
the outside: a gateway on this machine (`127.0.0.1`, `localhost`, `[::1]`) is asked directly, so
its key never goes, in clear, to the proxy (which could not reach this machine's loopback anyway);
any other host still goes through the proxy, as httpx does."""

import http.server
import json
import socket
import threading

import httpx
import pytest
from loopback import serving

from toolkit.chat.client import ChatClient, RetryPolicy
from toolkit.chat.messages import UserMessage
from toolkit.chat.proxies import on_this_machine
from toolkit.chat.switch import connect
from toolkit.errors import CallerError, TransientError

KEY = "sk-proxy-test-" + "k3y" * 6
REPLY = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}


def _recording(tag: str, seen: list[tuple[str, str, str | None]]) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            seen.append((tag, self.path, self.headers.get("Authorization")))
            data = json.dumps(REPLY).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


@pytest.fixture
def proxy_and_gateway(monkeypatch):
    """A proxy named by every proxy variable, and a gateway: both on loopback, recording into one list."""
    seen: list[tuple[str, str, str | None]] = []
    with serving(_recording("proxy", seen)) as proxy, serving(_recording("gateway", seen)) as gateway:
        for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
            monkeypatch.setenv(name, f"http://127.0.0.1:{proxy}")
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        yield gateway, seen


@pytest.mark.parametrize("host", ["127.0.0.1", "LocalHost", "0.0.0.0"])
def test_a_loopback_gateway_is_asked_directly_whatever_the_proxy_variables_say(proxy_and_gateway, host):
    gateway, seen = proxy_and_gateway
    client = ChatClient(f"http://{host}:{gateway}/v1", KEY, "m")
    assert client.chat([UserMessage(content="q")]).message.content == "hi"
    assert seen == [("gateway", "/v1/chat/completions", f"Bearer {KEY}")]


def test_a_gateway_elsewhere_still_goes_through_the_proxy(proxy_and_gateway):
    _, seen = proxy_and_gateway
    client = ChatClient("http://gateway.invalid/v1", KEY, "m")
    assert client.chat([UserMessage(content="q")]).message.content == "hi"
    assert seen == [("proxy", "http://gateway.invalid/v1/chat/completions", f"Bearer {KEY}")]


class _V6Server(http.server.ThreadingHTTPServer):
    address_family = socket.AF_INET6


def test_an_ipv6_loopback_gateway_is_asked_directly(proxy_and_gateway):
    _, seen = proxy_and_gateway
    try:
        server = _V6Server(("::1", 0), _recording("gateway6", seen))
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        client = ChatClient(f"http://[::1]:{server.server_address[1]}/v1", KEY, "m")
        assert client.chat([UserMessage(content="q")]).message.content == "hi"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
    assert seen == [("gateway6", "/v1/chat/completions", f"Bearer {KEY}")]


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1", True),
        ("127.3.2.1", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("localhost", True),
        ("LOCALHOST.", True),
        ("ollama.localhost", True),
        ("localhost.example.com", False),
        ("10.0.0.1", False),
        ("[::1]", True),
        ("0.0.0.0", True),
        ("::", True),
        ("api.openai.com", False),
    ],
)
def test_on_this_machine(host, local):
    assert on_this_machine(host) is local


def _tunnel_answer(status: int, reason: str) -> type[http.server.BaseHTTPRequestHandler]:
    """A company proxy answering every `CONNECT` (an https gateway's tunnel) with `status`; it counts them."""

    class Proxy(http.server.BaseHTTPRequestHandler):
        asked = 0

        def log_message(self, *args: object) -> None:
            pass

        def do_CONNECT(self) -> None:
            Proxy.asked += 1
            self.send_response(status, reason)
            if status == 407:
                self.send_header("Proxy-Authenticate", 'Basic realm="corp"')
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Proxy


@pytest.mark.parametrize(
    "status, reason, fix",
    [
        (
            407,
            "Proxy Authentication Required",
            "the HTTP proxy between this machine and the gateway asks for its own credentials: check HTTP_PROXY / "
            "HTTPS_PROXY (http://user:password@host:port), or unset them if the gateway needs no proxy (not retried)",
        ),
        (
            403,
            "Forbidden",
            "the proxy does not let this machine reach that host: ask whoever runs it, or name the gateway's host "
            "in NO_PROXY if it needs no proxy (not retried)",
        ),
    ],
)
def test_a_proxy_refusing_the_tunnel_is_our_setting_to_fix_not_retried(monkeypatch, status, reason, fix):
    """It read "(the connection failed: ProxyError)", which sent the learner to LLM_BASE_URL only; then
    it named the proxy but was retried as transient ("running the cell again later may work"), when
    only the proxy settings can change the answer: a plain-http gateway's 407 was a CallerError already."""
    proxy_handler = _tunnel_answer(status, reason)
    sleeps: list[float] = []
    with serving(proxy_handler) as proxy:
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{proxy}")
        client = ChatClient("https://gw.example.com/v1", KEY, "m", sleep=sleeps.append)
        with pytest.raises(CallerError) as caught:
            client.chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        f"The proxy refused to open a tunnel to the gateway at https://gw.example.com/v1: {status} {reason} — {fix}"
    )
    assert (caught.value.status, caught.value.attempts, proxy_handler.asked, sleeps) == (status, 1, 1, [])


def test_a_proxy_that_cannot_reach_the_gateway_yet_is_retried(monkeypatch):
    proxy_handler = _tunnel_answer(502, "Bad Gateway")
    with serving(proxy_handler) as proxy:
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{proxy}")
        client = ChatClient("https://gw.example.com/v1", KEY, "m", retry=RetryPolicy(max_retries=1), sleep=[].append)
        with pytest.raises(TransientError) as caught:
            client.chat([UserMessage(content="hi")])
    assert proxy_handler.asked == 2
    assert str(caught.value) == (
        "Cannot reach the gateway at https://gw.example.com/v1 (the proxy refused to connect to it: 502 Bad "
        "Gateway; check HTTPS_PROXY / HTTP_PROXY / ALL_PROXY). Check LLM_BASE_URL, or unset the LLM_* variables "
        "to use the embedded gateway."
    )


@pytest.mark.parametrize("host", ["gateway.invalid", "127.0.0.1"])
def test_recording_a_session_goes_the_way_an_unrecorded_one_does(proxy_and_gateway, tmp_path, host):
    """With LLM_RECORD set, the recording transport sent every request directly (httpx reads the
    proxy variables only for a client without a transport of its own): a gateway that is reached
    through the company proxy was unreachable, and only while recording."""
    gateway, seen = proxy_and_gateway
    base_url = f"http://{host}:{gateway}/v1" if host == "127.0.0.1" else f"http://{host}/v1"
    env = {"LLM_BASE_URL": base_url, "LLM_API_KEY": KEY, "LLM_MODEL": "m", "LLM_RECORD": str(tmp_path / "c.jsonl")}
    client = connect(env=env, retry=RetryPolicy(max_retries=0))
    assert client.chat([UserMessage(content="q")]).message.content == "hi"
    via = "proxy" if host == "gateway.invalid" else "gateway"
    path = f"{base_url}/chat/completions" if via == "proxy" else "/v1/chat/completions"
    assert seen == [(via, path, f"Bearer {KEY}")]
    assert json.loads((tmp_path / "c.jsonl").read_text())["response"]["status"] == 200


@pytest.mark.parametrize("said", ["403 Forbidden", "407 Proxy Authentication Required"])
def test_a_notebook_cell_says_the_proxy_refused_not_the_gateway(said):
    """`explain` read a proxy's 403 as the gateway refusing the key's model or region."""
    from toolkit.chat.client import proxy_refusal
    from toolkit.course.live import explain

    error = proxy_refusal("https://gw.example.com/v1", httpx.ProxyError(said))
    assert error is not None
    assert explain(error) == str(error)
