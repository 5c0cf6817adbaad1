"""An MCP server on this machine is asked directly, whatever a learner's proxy variables say (as the
chat client asks a loopback gateway: `toolkit.chat.proxies`). Before: httpx2 sent the course's
week-9 server's requests to the `HTTP_PROXY` of a company network, which cannot reach this
machine's loopback (found by qa-client2, for the chat client; the MCP transport did the same)."""

from __future__ import annotations

import http.server

import pytest
from loopback import serving
from test_mcp_http_hostile import Stranger

from toolkit.mcp.client import McpClient


def _refusing_proxy(seen: list[str]) -> type[http.server.BaseHTTPRequestHandler]:
    class Proxy(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _refuse(self) -> None:
            seen.append(f"{self.command} {self.path}")
            self.send_response(502)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST = do_DELETE = _refuse

    return Proxy


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_loopback_mcp_server_is_asked_directly_whatever_the_proxy_variables_say(monkeypatch, host):
    seen: list[str] = []
    with serving(_refusing_proxy(seen)) as proxy, serving(Stranger) as server:
        for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
            monkeypatch.setenv(name, f"http://127.0.0.1:{proxy}")
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        with McpClient.http(f"http://{host}:{server}/mcp", name="local", request_timeout=10) as client:
            assert "file_name" in [t.name for t in client.list_tools()]
    assert seen == []
