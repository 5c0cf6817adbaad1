"""What an HTML error page says, on one line: the body a proxy or a CDN sends in front of a gateway.

A gateway answers in JSON, but what stands in front of it often does not: nginx's "502 Bad
Gateway", a load balancer's 503, Cloudflare's "524: A timeout occurred" (whose first 500
characters are `<!DOCTYPE html>` and conditional comments for old Internet Explorers). Quoted as
it came, such a page says nothing a learner can read. `page_text(body)` is its `<title>` (or,
without one, its text: tags, comments, scripts and styles taken out), entities decoded, on one
line, and where the page sends the browser at once (a captive portal's or a proxy's sign-in, by a
`<meta http-equiv="refresh">` or a script setting `location`: the address without its user info,
query or fragment); None for a body that is not an HTML page, which the caller quotes as it is.

Cloudflare answers some refusals with no page at all, only `error code: 1010` as plain text (its
1xxx codes: a client signature the site bans, a firewall rule, a tunnel that is down).
`cdn_code_text(body)` says what such a code means, after it; None for any other body.

Leaves out: parsing HTML (a page is read with three patterns, in its first `_READ` characters),
and anything but the title or the text (links, the Ray ID, the page's own advice).
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit, urlunsplit

_PAGE = re.compile(r"<(?:!doctype\s+html|html|head|body|title|meta|script|noscript)\b", re.IGNORECASE)
"""The start of an HTML document's first element (after any comments before it)."""
_TITLE = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_HIDDEN = re.compile(r"<!--.*?-->|<(script|style)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
"""What a browser does not show as text: comments, scripts and styles."""
_TAG = re.compile(r"<[^>]*>")
_REFRESH = re.compile(r"<meta\b[^>]*\brefresh\b[^>]*>", re.IGNORECASE)
_REFRESH_URL = re.compile(r"""url\s*=\s*['"]?([^'"\s>]+)""", re.IGNORECASE)
_SCRIPT_GOES = re.compile(
    r"""location(?:\.href)?\s*=\s*['"]([^'"]+)['"]|location\.(?:replace|assign)\(\s*['"]([^'"]+)['"]"""
)
"""A script sending the browser elsewhere (`window.location = '…'`, `location.replace('…')`)."""
_READ = 4000
"""Characters of a page read: its title is near its top, and a long page costs no more."""
_SHOWN = 200
"""Characters of what the page says, shown."""


def page_text(body: str) -> str | None:
    """`<title> (an HTML page)`, or the page's text when it has no title, on one line; None when
    `body` is not an HTML page (it does not start with a tag, or names no `html`, `head`, `body`
    or `title` element near its start)."""
    text = body[:_READ].lstrip("\ufeff \t\r\n")
    if not text.startswith("<") or _PAGE.search(text[:1000]) is None:
        return None
    title = _TITLE.search(text)
    said = title.group(1) if title else _TAG.sub(" ", _HIDDEN.sub(" ", text))
    said = " ".join(html.unescape(said).split())[:_SHOWN]
    goes = _sends_to(text)
    if goes:
        return f"{said} (an HTML page {goes})" if said else f"an HTML page with no text, {goes}"
    return f"{said} (an HTML page)" if said else "an HTML page with no text"


def _sends_to(text: str) -> str:
    """Where a page sends the browser at once (a `<meta http-equiv="refresh">` or a script setting
    `location`: a captive portal's or a proxy's sign-in), as "sending the browser to URL": its
    address without user info, query or fragment (they may hold a session); "" when it sends it nowhere."""
    url = ""
    refresh = _REFRESH.search(text)
    if refresh is not None:
        found = _REFRESH_URL.search(refresh.group(0))
        url = found.group(1) if found else ""
    if not url:
        script = _SCRIPT_GOES.search(text)
        url = next((group for group in script.groups() if group), "") if script else ""
    if not url:
        return ""
    try:
        parts = urlsplit(html.unescape(url))
        host = (parts.hostname or "") + (f":{parts.port}" if parts.port is not None else "")
    except ValueError:  # a port that is no number, a bracketed host that is no IPv6 address
        return ""
    shown = urlunsplit((parts.scheme, host, parts.path, "", ""))[:_SHOWN]
    return f"sending the browser to {shown}" if shown else ""


_CDN_CODE = re.compile(r"error code: (1\d{3})")
_CDN_CODES = {
    "1003": "direct IP access is not allowed: LLM_BASE_URL must name the host, not its IP address",
    "1006": "this network's IP address is banned by the site",
    "1007": "this network's IP address is banned by the site",
    "1008": "this network's IP address is banned by the site",
    "1010": "the site bans this client's signature (its bot protection)",
    "1012": "access denied by the site",
    "1015": "this network is being rate limited",
    "1016": "the gateway's own host name does not resolve",
    "1020": "access denied by a firewall rule of the site",
    "1033": "the tunnel to the gateway is down: the server behind it is not running",
    "1101": "the site's worker failed",
    "1102": "the site's worker ran out of resources",
}
"""Cloudflare's 1xxx error codes a gateway behind it may answer with, in a learner's words."""


def cdn_code_text(body: str) -> str | None:
    """`error code: 1010 (Cloudflare: the site bans this client's signature (its bot protection))` for a
    body that is only Cloudflare's `error code: 1xxx`; None for any other body."""
    found = _CDN_CODE.fullmatch(body.strip()[:40])
    if found is None:
        return None
    meaning = _CDN_CODES.get(found.group(1), "a refusal by the CDN in front of the gateway")
    return f"error code: {found.group(1)} (Cloudflare: {meaning})"
