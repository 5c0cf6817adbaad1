"""Which gateways go around a learner's proxy: a host on this machine is asked directly.

httpx reads `HTTP_PROXY` / `HTTPS_PROXY` / `ALL_PROXY` (a company network sets them) and, unless
`NO_PROXY` names the host, sends every request through that proxy — a gateway on `127.0.0.1` too.
For a plain-http loopback URL the proxy then receives the whole request, the `Authorization: Bearer`
key in clear, and cannot answer it (its own `localhost` is not the learner's). `direct_mounts(url)`
is the httpx `mounts=` that sends a base URL on this machine (`localhost`, `*.localhost`, any
127.x.y.z, `::1`, and the unspecified `0.0.0.0` / `::` a server prints and the OS connects locally)
straight to it, whatever the variables say; any other host keeps httpx's rules (`NO_PROXY` included).

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
