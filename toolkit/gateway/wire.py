"""The gateway's side of the wire: a `Reply`, and the OpenAI shapes that go into it.

`Turn` is one finished assistant turn (text or tool calls, usage, ids); `completion_body()`
renders it as a `chat.completion`, `completion_chunks()` as `chat.completion.chunk` events
(role first, text in small deltas, each tool call as a header delta then argument fragments,
`finish_reason`, then usage if asked). `error_reply()` is the one error shape (the faults'
429 / 500 and `GET /v1/models` are built here too). `Reply` encodes itself — JSON, or SSE
framing with the final `data: [DONE]` — so the HTTP server and the in-process transport send
the very same bytes.

Every response object carries `service_tier: "default"`, as OpenAI's do.

Leaves out: `n > 1`, logprobs, refusals, audio.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

JSON_TYPE = "application/json"
SSE_TYPE = "text/event-stream; charset=utf-8"
DONE = b"data: [DONE]\n\n"


@dataclass(slots=True)
class Reply:
    """One HTTP response, before any socket: a JSON `body` or a list of SSE `events`.

    Treat it as immutable (`dataclasses.replace` makes a changed copy); it is not frozen only
    because a frozen dataclass costs three times as much to build, on the gateway's hot path."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    """The JSON body (None for a stream)."""
    events: tuple[dict[str, Any], ...] | None = None
    """The SSE events of a stream, each sent as `data: {json}`."""
    delay_s: float = 0.0
    """Wait this long before answering (the `slow` fault); the shells do the waiting."""
    truncated: bool = False
    """Cut short: a stream ends without `[DONE]`, a JSON body stops halfway."""

    def iter_bytes(self) -> Iterator[bytes]:
        """The response body, one piece per SSE event (a JSON body in one piece)."""
        if self.events is None:
            data = dumps(self.body)
            yield _cut_in_half(data) if self.truncated else data
            return
        yield from _sse_events(self.events)
        if not self.truncated:
            yield DONE

    def encode(self) -> bytes:
        """The whole body at once."""
        if self.events is None or self.truncated:
            return b"".join(self.iter_bytes())
        return b"".join(_sse_events(self.events)) + DONE


def _sse_events(events: tuple[dict[str, Any], ...]) -> list[bytes]:
    return [b"data: " + dumps(event) + b"\n\n" for event in events]


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON (readable Chinese, not \\u escapes): orjson, for speed, and the
    standard library for what orjson refuses (a lone surrogate, a huge int, odd objects)."""
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        pass
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":"), default=str).encode("ascii")


def _cut_in_half(data: bytes) -> bytes:
    """The first half of a JSON body, cut on a character boundary."""
    text = data.decode("utf-8")
    return text[: len(text) // 2].encode("utf-8")


def error_reply(
    status: int,
    message: str,
    *,
    param: str | None = None,
    code: str | None = None,
    type: str = "invalid_request_error",
    headers: dict[str, str] | None = None,
) -> Reply:
    """An OpenAI-style error: `{"error": {"message", "type", "param", "code"}}`."""
    body = {"error": {"message": message, "type": type, "param": param, "code": code}}
    return Reply(status, {"content-type": JSON_TYPE, **(headers or {})}, body=body)


def rate_limit_reply(model: str, retry_after_s: int) -> Reply:
    """429, as the `rate_limit` fault sends it."""
    return error_reply(
        429,
        f"Rate limit reached for {model}. Please try again in {retry_after_s}s.",
        type="requests",
        code="rate_limit_exceeded",
        headers={"retry-after": str(retry_after_s)},
    )


def server_error_reply() -> Reply:
    """500, as the `server_error` fault sends it."""
    return error_reply(
        500,
        "The server had an error while processing your request. Sorry about that!",
        type="server_error",
        code="server_error",
    )


def models_reply(model: str, created: int) -> Reply:
    """`GET /v1/models`: the one model this gateway is."""
    entry = {"id": model, "object": "model", "created": created, "owned_by": "toolkit"}
    return Reply(200, {"content-type": JSON_TYPE}, body={"object": "list", "data": [entry]})


def model_reply(wanted: str, model: str, created: int) -> Reply:
    """`GET /v1/models/{id}`: this gateway's model, or OpenAI's 404 for any other id."""
    if wanted != model:
        return error_reply(
            404,
            f"The model '{wanted}' does not exist or you do not have access to it.",
            param="model",
            code="model_not_found",
        )
    entry = {"id": model, "object": "model", "created": created, "owned_by": "toolkit"}
    return Reply(200, {"content-type": JSON_TYPE}, body=entry)


@dataclass(slots=True)
class Turn:
    """One assistant turn, ready for the wire (treat it as immutable, like `Reply`)."""

    id: str
    model: str
    created: int
    content: str | None
    tool_calls: tuple[dict[str, Any], ...]
    """OpenAI tool-call dicts: `{"id", "type": "function", "function": {"name", "arguments"}}`."""
    usage: dict[str, Any]
    fingerprint: str
    finish: str | None = None
    """A finish reason other than the usual one (e.g. "length" when the reply was cut)."""

    @property
    def finish_reason(self) -> str:
        if self.finish is not None:
            return self.finish
        return "tool_calls" if self.tool_calls else "stop"

    def _envelope(self, kind: str) -> dict[str, Any]:
        return {
            "id": self.id,
            "object": kind,
            "created": self.created,
            "model": self.model,
            "service_tier": "default",
            "system_fingerprint": self.fingerprint,
        }


def completion_body(turn: Turn) -> dict[str, Any]:
    """The `chat.completion` object of a non-streamed response."""
    message: dict[str, Any] = {"role": "assistant", "content": turn.content, "refusal": None}
    if turn.tool_calls:
        message["tool_calls"] = list(turn.tool_calls)
    choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": turn.finish_reason}
    body = turn._envelope("chat.completion")
    body["choices"], body["usage"] = [choice], turn.usage
    return body


def completion_chunks(turn: Turn, *, include_usage: bool, piece: int) -> list[dict[str, Any]]:
    """The `chat.completion.chunk` events of a streamed response, `piece` characters a delta."""
    envelope = turn._envelope("chat.completion.chunk")

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        event = envelope.copy()
        event["choices"] = [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
        if include_usage:
            event["usage"] = None
        return event

    chunks = [chunk({"role": "assistant", "content": "" if turn.content is not None else None})]
    chunks += [chunk({"content": text}) for text in _pieces(turn.content or "", piece)]
    for index, call in enumerate(turn.tool_calls):
        function = call["function"]
        header = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": function["name"], "arguments": ""},
        }
        chunks.append(chunk({"tool_calls": [header]}))
        chunks += [
            chunk({"tool_calls": [{"index": index, "function": {"arguments": text}}]})
            for text in _pieces(function["arguments"], piece)
        ]
    chunks.append(chunk({}, turn.finish_reason))
    if include_usage:
        chunks.append({**envelope, "choices": [], "usage": turn.usage})
    return chunks


def truncate_events(events: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    """Cut a stream right after the first argument fragment (else the first text delta)."""

    def delta(event: dict) -> dict:
        return event["choices"][0]["delta"] if event.get("choices") else {}

    def is_fragment(event: dict) -> bool:
        calls = delta(event).get("tool_calls") or [{}]
        return "id" not in calls[0] and bool(calls[0].get("function", {}).get("arguments"))

    cut = next((i for i, e in enumerate(events) if is_fragment(e)), None)
    if cut is None:
        cut = next((i for i, e in enumerate(events) if delta(e).get("content")), 0)
    return tuple(events[: cut + 1])


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]
