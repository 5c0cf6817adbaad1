"""Which gateways go around a learner's proxy: a host on this machine is asked directly.

httpx reads `HTTP_PROXY` / `HTTPS_PROXY` / `ALL_PROXY` (a company network sets them) and, unless
`NO_PROXY` names the host, sends every request through that proxy — a gateway on `127.0.0.1` too.
For a plain-http loopback URL the proxy then receives the whole request, the `Authorization: Bearer`
key in clear, and cannot answer it (its own `localhost` is not the learner's). `direct_mounts(url)`
is the httpx `mounts=` that sends a base URL on this machine (`localhost`, `*.localhost`, any
127.x.y.z, `::1`, and the unspecified `0.0.0.0` / `::` a server prints and the OS connects locally)
straight to it, whatever the variables say; any other host keeps httpx's rules (`NO_PROXY` included).

A transport of one's own (a `RecordingTransport`, for `LLM_RECORD`) makes httpx ignore the proxy
variables altogether: `EnvironmentTransport` is the one that sends as a client without one does
(through the proxy the variables name for the URL, a host on this machine directly), so a session
that is recorded goes the way it goes unrecorded.

Leaves out: names that merely resolve to a loopback address (`/etc/hosts` entries, `127.0.0.1.nip.io`):
telling them would need a DNS lookup before every client is made; `NO_PROXY` covers them.
"""

from __future__ import annotations

import ipaddress

import httpx


def on_this_machine(host: str) -> bool:
    """Whether `host` (a URL's host: a name, an IPv4 or a bare IPv6 address) is this machine."""
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):  # RFC 6761: always loopback
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified


def direct_mounts(base_url: str) -> dict[str, None] | None:
    """httpx `mounts=` that send requests for `base_url`'s host directly (no proxy), when that host
    is on this machine; else None (httpx's own proxy rules)."""
    url = httpx.URL(base_url)
    if not on_this_machine(url.host):
        return None
    host = f"[{url.host}]" if ":" in url.host else url.host
    return {f"all://{host}": None}


class EnvironmentTransport(httpx.BaseTransport):
    """Sends each request as `ChatClient` does without a transport of its own: a host on this machine
    directly, any other through the proxy the environment names for it (`HTTP_PROXY`, `HTTPS_PROXY`,
    `ALL_PROXY`, `NO_PROXY`: an `httpx.Client`'s own rules)."""

    def __init__(self) -> None:
        self._direct = httpx.HTTPTransport()
        self._client = httpx.Client()  # reads the proxy variables (a client given a transport does not)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if on_this_machine(request.url.host):
            return self._direct.handle_request(request)
        response = self._client.send(request, stream=True)  # its body still unread: it streams through
        return httpx.Response(
            response.status_code, headers=response.headers, stream=response.stream, extensions=response.extensions
        )

    def close(self) -> None:
        self._client.close()
        self._direct.close()
