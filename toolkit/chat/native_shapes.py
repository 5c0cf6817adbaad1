"""A reply in another API's own shape, told apart from an OpenAI chat completion, and the base URL to use.

A relay forwarding to a server's own API, or a base URL that reaches it, brings back that API's
reply where a chat completion's `choices` was expected:

- Ollama's `/api/chat` (`{"model", "created_at", "message", "done", "eval_count", …}`) and
  `/api/generate` (`response` in place of `message`); streamed, or when the request did not say
  `"stream": false` (Ollama's own default is to stream), one such object a line (NDJSON);
- text-generation-inference's `/generate` (`{"generated_text": …}`, or a list of it);
- Anthropic's Messages API (`"type": "message"`, `content` blocks, `stop_reason`);
- Gemini's `generateContent` (`candidates`);
- Cloudflare Workers AI's `/ai/run/@cf/…` (`{"result": {"response": …}, "success": true}`);
- DashScope's own generation API (`{"output": {"choices" | "text": …}, "request_id": …}`) and Baidu
  Qianfan's ERNIE API before v2 (`{"result": "…", "is_truncated": false}`).

`native_shape` tells which from a whole body or its first line; `NativeReplyError` says what arrived
and which base URL serves OpenAI's chat completions instead: for a server the learner runs (Ollama,
TGI), the request's own server followed by `/v1`; for a provider, its documented compatible address.

Leaves out: reading an answer out of a native shape (the course speaks OpenAI's wire only), their
event streams other than Ollama's NDJSON, and their errors (`{"error": …}`), which the client reads as
any gateway's.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import httpx

from toolkit.errors import BadResponseError


class Shape(NamedTuple):
    """One API's own reply: how it is named, the fields that tell it, and where its OpenAI API is."""

    what: str
    fields: str
    fix: str
    """The base URL to use, with `{address}` where the request's own server + /v1 goes (a server the
    learner runs), or none (a provider's one address)."""
    example: str
    """The address said when the request's own server is not known."""
    hint: str
    who: str = ""
    """The server, as the address found from the request names it ("an Ollama")."""


_OLLAMA = (
    "set LLM_BASE_URL to Ollama's OpenAI-compatible address, which ends in /v1 ({address}), not to its native /api"
)
OLLAMA_CHAT = Shape(
    "Ollama's native /api/chat",
    "`message`, `done`",
    _OLLAMA,
    "http://localhost:11434/v1 for a local Ollama",
    "Ollama serves OpenAI's API under /v1: LLM_BASE_URL=http://localhost:11434/v1 for a local Ollama.",
    "an Ollama",
)
OLLAMA_GENERATE = OLLAMA_CHAT._replace(what="Ollama's native /api/generate", fields="`response`, `done`")
TGI_GENERATE = Shape(
    "text-generation-inference's native /generate",
    "`generated_text`",
    "set LLM_BASE_URL to its OpenAI-compatible address, which ends in /v1 ({address})",
    "http://localhost:8080/v1 for a local TGI",
    "text-generation-inference serves OpenAI's API under /v1 (its /v1/chat/completions).",
    "a TGI",
)
ANTHROPIC = Shape(
    "Anthropic's Messages API",
    "`content` blocks, `stop_reason`",
    "set LLM_BASE_URL to Anthropic's OpenAI-compatible address, https://api.anthropic.com/v1/, or to a relay that "
    "speaks OpenAI's chat completions",
    "",
    "Anthropic serves OpenAI's chat completions at LLM_BASE_URL=https://api.anthropic.com/v1/.",
)
GEMINI = Shape(
    "Gemini's native generateContent",
    "`candidates`",
    "set LLM_BASE_URL to Gemini's OpenAI-compatible address, https://generativelanguage.googleapis.com/v1beta/openai/, "
    "or to a relay that speaks OpenAI's chat completions",
    "",
    "Gemini serves OpenAI's chat completions at LLM_BASE_URL=https://generativelanguage.googleapis.com/v1beta/openai/.",
)

WORKERS_AI = Shape(
    "Cloudflare Workers AI's native /ai/run",
    "`result`, `success`",
    "set LLM_BASE_URL to Workers AI's OpenAI-compatible address, "
    "https://api.cloudflare.com/client/v4/accounts/<ACCOUNT_ID>/ai/v1 (its /ai/v1, not /ai/run), or to a relay "
    "that speaks OpenAI's chat completions",
    "",
    "Workers AI serves OpenAI's chat completions at "
    "LLM_BASE_URL=https://api.cloudflare.com/client/v4/accounts/<ACCOUNT_ID>/ai/v1, with the model id (@cf/…) as "
    "LLM_MODEL.",
)

DASHSCOPE = Shape(
    "DashScope's native generation API",
    "`output`, `request_id`",
    "set LLM_BASE_URL to DashScope's OpenAI-compatible address, https://dashscope.aliyuncs.com/compatible-mode/v1 "
    "(dashscope-intl.aliyuncs.com outside China), or to a relay that speaks OpenAI's chat completions",
    "",
    "DashScope serves OpenAI's chat completions at LLM_BASE_URL=https://dashscope.aliyuncs.com/compatible-mode/v1.",
)
ERNIE = Shape(
    "Baidu Qianfan's native ERNIE API",
    "`result`, `is_truncated`",
    "set LLM_BASE_URL to Qianfan's OpenAI-compatible address, https://qianfan.baidubce.com/v2, or to a relay "
    "that speaks OpenAI's chat completions",
    "",
    "Qianfan serves OpenAI's chat completions at LLM_BASE_URL=https://qianfan.baidubce.com/v2.",
)


def native_shape(text: str) -> Shape | None:
    """The other API whose reply `text` is (a whole body, or NDJSON whose first line is read), or None:
    a JSON object without `choices` holding its API's own fields (see the module's docstring)."""
    first = text.lstrip("\ufeff").lstrip().split("\n", 1)[0]
    try:
        data = json.loads(first)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, list) and len(data) == 1:  # TGI's /generate answers a list of one
        data = data[0]
    if not isinstance(data, dict) or "choices" in data:
        return None
    return _shape(data)


def _shape(data: dict[str, Any]) -> Shape | None:
    if isinstance(data.get("done"), bool):
        if isinstance(data.get("message"), dict):
            return OLLAMA_CHAT
        return OLLAMA_GENERATE if isinstance(data.get("response"), str) else None
    if isinstance(data.get("generated_text"), str):
        return TGI_GENERATE
    if data.get("type") == "message" and isinstance(data.get("content"), list) and "stop_reason" in data:
        return ANTHROPIC
    if data.get("success") is True and isinstance(data.get("result"), dict) and "response" in data["result"]:
        return WORKERS_AI
    output = data.get("output")
    if isinstance(output, dict) and "request_id" in data and ("choices" in output or "text" in output):
        return DASHSCOPE
    if isinstance(data.get("result"), str) and isinstance(data.get("is_truncated"), bool):
        return ERNIE
    return GEMINI if isinstance(data.get("candidates"), list) and data["candidates"] else None


class NativeReplyError(BadResponseError):
    """A 200 in another API's own shape (`Shape`): not a chat completion; the base URL to use instead."""

    def __init__(self, shape: Shape, text: str) -> None:
        self.shape = shape
        """The API whose reply arrived."""
        self.hint = shape.hint
        super().__init__(self.said(shape.example), status=200, body=text[:2000])

    def said(self, address: str) -> str:
        """The error's text, naming `address` as the base URL to use (where the shape's fix has one)."""
        return (
            f"the gateway answered in {self.shape.what} shape ({self.shape.fields}; no `choices`), not as an OpenAI "
            f"chat completion: {self.shape.fix.format(address=address)}"
        )

    def at(self, url: httpx.URL) -> None:
        """Name the request's own server (`url`'s scheme, host and port, never its user info) + `/v1`."""
        if "{address}" in self.shape.fix:
            origin = f"{url.scheme}://{url.netloc.decode('ascii', 'replace')}"
            self.args = (self.said(f"{origin}/v1 for {self.shape.who} at this address"),)
