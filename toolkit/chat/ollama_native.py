"""Ollama's native replies (`/api/chat`, `/api/generate`) told apart from an OpenAI chat completion.

A relay forwarding to Ollama's own API, or a base URL that reaches it, brings back
`{"model", "created_at", "message", "done", "eval_count", …}` (`/api/generate`: `response` in place
of `message`) where a chat completion's `choices` was expected; streamed, or when the request did
not say `"stream": false` (Ollama's own default is to stream), one such object a line (NDJSON).
`native_route` tells that shape from a whole body or its first line; `NativeReplyError` says what
arrived and which base URL serves OpenAI's API instead: Ollama's server root followed by `/v1`.

Leaves out: reading an answer out of the native shape (the course speaks OpenAI's wire only), and
Ollama's native errors (`{"error": "…"}`), which the client reads as any gateway's.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from toolkit.errors import BadResponseError

_FIELDS = {"/api/chat": "message", "/api/generate": "response"}
"""Each native route and the field its reply answers in."""


def native_route(text: str) -> str | None:
    """`"/api/chat"` or `"/api/generate"` when `text` (a whole body, or NDJSON whose first line is
    read) is Ollama's native reply: a JSON object with a boolean `done`, no `choices`, and its
    route's answer (`message` an object, `response` a string); else None."""
    first = text.lstrip("\ufeff").lstrip().split("\n", 1)[0]
    try:
        data = json.loads(first)
    except (ValueError, RecursionError):
        return None
    return _route(data)


def _route(data: Any) -> str | None:
    if not isinstance(data, dict) or "choices" in data or not isinstance(data.get("done"), bool):
        return None
    if isinstance(data.get("message"), dict):
        return "/api/chat"
    return "/api/generate" if isinstance(data.get("response"), str) else None


EXAMPLE = "http://localhost:11434/v1"
"""Ollama's OpenAI-compatible address on its default port, said when the request's own host is not known."""


class NativeReplyError(BadResponseError):
    """A 200 in Ollama's native shape: not a chat completion; the base URL to use instead."""

    hint = f"Ollama serves OpenAI's API under /v1: LLM_BASE_URL={EXAMPLE} for a local Ollama."

    def __init__(self, route: str, text: str) -> None:
        self.route = route
        """The native route whose reply arrived: `/api/chat` or `/api/generate`."""
        super().__init__(self.said(f"{EXAMPLE} for a local Ollama"), status=200, body=text[:2000])

    def said(self, address: str) -> str:
        """The error's text, naming `address` as the base URL to use."""
        return (
            f"the gateway answered in Ollama's native {self.route} shape (`{_FIELDS[self.route]}`, `done`; no "
            f"`choices`), not as an OpenAI chat completion: set LLM_BASE_URL to Ollama's OpenAI-compatible address, "
            f"which ends in /v1 ({address}), not to its native /api"
        )

    def at(self, url: httpx.URL) -> None:
        """Name the request's own server (`url`'s scheme, host and port, never its user info) + `/v1`."""
        origin = f"{url.scheme}://{url.netloc.decode('ascii', 'replace')}"
        self.args = (self.said(f"{origin}/v1 for an Ollama at this address"),)
