"""What an HTML error page says, on one line: the body a proxy or a CDN sends in front of a gateway.

A gateway answers in JSON, but what stands in front of it often does not: nginx's "502 Bad
Gateway", a load balancer's 503, Cloudflare's "524: A timeout occurred" (whose first 500
characters are `<!DOCTYPE html>` and conditional comments for old Internet Explorers). Quoted as
it came, such a page says nothing a learner can read. `page_text(body)` is its `<title>` (or,
without one, its text: tags, comments, scripts and styles taken out), entities decoded, on one
line; None for a body that is not an HTML page, which the caller quotes as it is.

Leaves out: parsing HTML (a page is read with three patterns, in its first `_READ` characters),
and anything but the title or the text (links, the Ray ID, the page's own advice).
"""

from __future__ import annotations

import html
import re

_PAGE = re.compile(r"<(?:!doctype\s+html|html|head|body|title)\b", re.IGNORECASE)
"""The start of an HTML document's first element (after any comments before it)."""
_TITLE = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_HIDDEN = re.compile(r"<!--.*?-->|<(script|style)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
"""What a browser does not show as text: comments, scripts and styles."""
_TAG = re.compile(r"<[^>]*>")
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
    return f"{said} (an HTML page)" if said else "an HTML page with no text"
