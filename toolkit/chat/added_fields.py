"""Fields the package adds to a request on its own, left out for a gateway that refuses them.

Two fields of a request are the package's additions, not the caller's ask: a tool result's `name`
(`ToolResultMessage.tool_name`: OpenAI's API defines none on a tool message; some servers read it) and a
tool's `"strict": true` (`LoopOptions(strict_tools=True)`, OpenAI's strict mode). Gateways refuse each in
their own words: xAI's 400 "Only messages of role 'user' can have a name." (BerriAI/litellm#9720,
microsoft/autogen#4715, pipecat-ai/pipecat#2274); Groq's "'messages.2' : for 'role:tool' the following
must be satisfied[('messages.2' : property 'name' is unsupported)]" (its OpenAI compatibility page lists
`messages[].name` among the fields that are a 400); a relay to Gemini's "Unknown name "strict" at
'request.tools[0].function_declarations[0]': Cannot find field." (GewoonJaap/gemini-cli-openai#157,
router-for-me/CLIProxyAPI#102); a FastAPI server forbidding extra fields, a 422 at
`body.tools.0.function.strict` (microsoft/autogen#5814, #7782).

`refused_addition(said, body)` names the addition ("name", "strict") that an error's text `said` refuses
when the request `body` carries it; the client sends the request again without it (`without_additions`)
and leaves it out for that gateway from then on, as LiteLLM leaves `name` out for xAI and `strict` out for
providers other than OpenAI, and pydantic-ai sends `strict` only to a provider whose profile takes it.

What leaving each out changes: a tool result still names its call by `tool_call_id`; a strict tool keeps
its strict parameters schema (every property required, `additionalProperties: false`), so the model is
asked the same question, and the package checks the arguments itself, as it does for every tool. Only
the gateway's promise to decode within the schema goes, which such a gateway never made.

Leaves out: the caller's own fields (`request_extra`, `chat()`'s keywords): a refusal of one is raised
with a hint naming it (`toolkit.chat.client`), never dropped; a refusal in other words than these.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

ADDITIONS = ("name", "strict")
"""The fields `refused_addition` may name: a tool message's `name`, a tool function's `strict`."""

_REFUSED = {
    "name": re.compile(
        r"can have a name|property .name. is unsupported|messages[.\[\]\d'\", ]{1,12}name\b", re.IGNORECASE
    ),
    "strict": re.compile(
        r"unknown name \\?\"strict\\?\"|property .strict. is unsupported|function[.\[\]\d'\", ]{1,6}strict\b",
        re.IGNORECASE,
    ),
}
"""How an error names each addition: xAI's and Groq's words, Google's "Unknown name", a field's path."""
_REFUSING = re.compile(
    r"unsupported|not supported|not permitted|not allowed|unknown|unrecogni[sz]ed|extra (?:inputs|fields)"
    r"|forbidden|can have",
    re.IGNORECASE,
)
"""Words of a gateway refusing a field (a path alone may be a value it found wrong)."""


def refused_addition(said: str, body: dict[str, Any]) -> str | None:
    """The addition (`ADDITIONS`) the error text `said` refuses that `body` carries, or None."""
    if not _REFUSING.search(said):
        return None
    for field in ADDITIONS:
        if _REFUSED[field].search(said) and _carries(body, field):
            return field
    return None


def without_additions(body: dict[str, Any], fields: Iterable[str]) -> None:
    """Take `fields` (of `ADDITIONS`) out of `body`: its tool messages' `name`, its tools' `strict`
    (new lists and entries; the ones given, which other requests may share, are not changed)."""
    dropped = frozenset(fields)
    messages = body.get("messages")
    if "name" in dropped and isinstance(messages, list):
        body["messages"] = [_without(m, "name") if _tool_result(m) else m for m in messages]
    tools = body.get("tools")
    if "strict" in dropped and isinstance(tools, list):
        body["tools"] = [
            {**spec, "function": _without(spec["function"], "strict")} if _strict(spec) else spec for spec in tools
        ]


def _carries(body: dict[str, Any], field: str) -> bool:
    if field == "name":
        messages = body.get("messages")
        return isinstance(messages, list) and any(_tool_result(m) for m in messages)
    tools = body.get("tools")
    return isinstance(tools, list) and any(_strict(spec) for spec in tools)


def _tool_result(message: Any) -> bool:
    return isinstance(message, dict) and message.get("role") == "tool" and "name" in message


def _strict(spec: Any) -> bool:
    return isinstance(spec, dict) and isinstance(spec.get("function"), dict) and "strict" in spec["function"]


def _without(entry: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != key}
