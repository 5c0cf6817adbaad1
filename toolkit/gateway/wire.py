"""The gateway's side of the wire: a `Reply`, and the OpenAI shapes that go into it.

`Turn` is one finished assistant turn (text or tool calls, usage, ids); `completion_body()`
renders it as a `chat.completion`, `completion_chunks()` as `chat.completion.chunk` events
(role first, text in small deltas, each tool call as a header delta then argument fragments,
`finish_reason`, then usage if asked). `error_reply()` is the one error shape (the faults'
429 / 500 and `GET /v1/models` are built here too). `Reply` encodes itself — JSON, or SSE
framing with the final `data: [DONE]` — so the HTTP server and the in-process transport send
the very same bytes.

Every response object carries `service_tier: "default"`, as OpenAI's do.

Leaves out: `n > 1` (`toolkit.gateway.core` numbers the choices), logprobs, refusals, audio.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

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
    events: Sequence[dict[str, Any]] | None = None
    """The SSE events of a stream, each sent as `data: {json}` (a `ChunkStream` on the hot path)."""
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
        """The whole body at once (`iter_bytes` joined)."""
        if self.events is None and not self.truncated:
            return dumps(self.body)  # `iter_bytes`' one piece
        if isinstance(self.events, ChunkStream) and not self.truncated:
            return self.events.data() + DONE
        return b"".join(self.iter_bytes())


def _sse_events(events: Sequence[dict[str, Any]]) -> list[bytes]:
    if isinstance(events, ChunkStream):
        return events.lines()
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

    def chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
        event = envelope.copy()
        event["choices"] = [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
        if include_usage:
            event["usage"] = None
        return event

    chunks = [chunk(delta, finish) for delta, finish in _deltas(turn, piece)]
    if include_usage:
        chunks.append({**envelope, "choices": [], "usage": turn.usage})
    return chunks


def _deltas(turn: Turn, piece: int) -> list[tuple[dict[str, Any], str | None]]:
    """Each chunk's delta and finish reason: the role, the text in pieces, each tool call as a
    header then argument fragments, and the finish."""
    deltas: list[tuple[dict[str, Any], str | None]] = [
        ({"role": "assistant", "content": "" if turn.content is not None else None}, None)
    ]
    deltas += [({"content": text}, None) for text in _pieces(turn.content or "", piece)]
    for index, call in enumerate(turn.tool_calls):
        function = call["function"]
        header = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": function["name"], "arguments": ""},
        }
        deltas.append(({"tool_calls": [header]}, None))
        deltas += [
            ({"tool_calls": [{"index": index, "function": {"arguments": text}}]}, None)
            for text in _pieces(function["arguments"], piece)
        ]
    deltas.append(({}, turn.finish_reason))
    return deltas


class ChunkStream(Sequence[dict[str, Any]]):
    """The chunk events of one streamed turn, for the gateway's hot path.

    Read as a sequence, it is exactly `completion_chunks(...)` (built on first use). `data()`
    encodes the same events to their SSE lines without building them, in one join: the envelope
    is serialised once and each chunk's delta spliced into it, since orjson writes a dict as its
    keys and values in order with no spaces. The same bytes, proven by a test against the plain
    encoding; where orjson refuses a value (a lone surrogate), it falls back to that plain path.
    """

    turn: Turn
    """The turn streamed."""
    include_usage: bool
    """Whether a last chunk carries the usage (`stream_options.include_usage`)."""
    piece: int
    """How many characters of text (content or arguments) each delta carries at most."""

    def __init__(self, turn: Turn, *, include_usage: bool, piece: int) -> None:
        self.turn, self.include_usage, self.piece = turn, include_usage, piece
        self._events: list[dict[str, Any]] | None = None

    def events(self) -> list[dict[str, Any]]:
        if self._events is None:
            self._events = completion_chunks(self.turn, include_usage=self.include_usage, piece=self.piece)
        return self._events

    def __len__(self) -> int:
        return len(self.events())

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        return self.events()[index]

    def lines(self) -> list[bytes]:
        """`data: {chunk}\n\n` for each event: `data()` cut after each blank line (JSON never
        holds a raw newline: a string's newline is written as `\\n`)."""
        return [line + b"\n\n" for line in self.data().split(b"\n\n")[:-1]]

    def data(self) -> bytes:
        """Every event's `data: {chunk}\n\n` line, joined."""
        try:
            return b"".join(self._spliced())
        except TypeError:  # orjson.JSONEncodeError: the plain path knows what to do
            return b"".join([b"data: " + dumps(event) + b"\n\n" for event in self.events()])

    def _spliced(self) -> list[bytes]:
        """The pieces of `data()`: each line is `head`, its delta, and `middle` (the finish and
        the usage lines aside), with the delta written in place, as orjson writes it."""
        turn, piece = self.turn, self.piece
        envelope = orjson.dumps(turn._envelope("chat.completion.chunk"))[:-1]
        head = b"data: " + envelope + b',"choices":[{"index":0,"delta":'
        end = b'}],"usage":null}\n\n' if self.include_usage else b"}]}\n\n"
        middle = b',"logprobs":null,"finish_reason":null' + end
        parts = [head, b'{"role":"assistant","content":""}' if turn.content is not None else _ROLE_WITHOUT_TEXT, middle]
        if turn.content:
            parts.append(_piece_lines(turn.content, piece, head + b'{"content":', b"}" + middle))
        for index, call in enumerate(turn.tool_calls):
            function = call["function"]
            header = {"index": index, "id": call["id"], "type": "function", "function": {"name": function["name"]}}
            parts += (head, b'{"tool_calls":[', orjson.dumps(header)[:-2], b',"arguments":""}}]}', middle)
            before = head + b'{"tool_calls":[{"index":%d,"function":{"arguments":' % index
            parts.append(_piece_lines(function["arguments"], piece, before, b"}}]}" + middle))
        parts += (head, b'{},"logprobs":null,"finish_reason":', orjson.dumps(turn.finish_reason), end)
        if self.include_usage:
            parts += (b"data: ", envelope, b',"choices":[],"usage":', orjson.dumps(turn.usage), b"}\n\n")
        return parts


_ROLE_WITHOUT_TEXT = b'{"role":"assistant","content":null}'


def _piece_lines(text: str, size: int, before: bytes, after: bytes) -> bytes:
    """`before + orjson.dumps(p) + after` for each piece `p` of `text` (`size` characters), joined.

    The pieces are written in one call, with a NUL between them, and each NUL is then replaced
    by the end of one line and the start of the next: orjson writes a text character by
    character and a NUL as `\\u0000`, which no other character of a text without a backslash
    writes. A text with a NUL or a backslash has its pieces written one by one."""
    pieces = _pieces(text, size)
    if not pieces:
        return b""
    if "\x00" in text or "\\" in text:
        return b"".join([before + orjson.dumps(p) + after for p in pieces])
    return before + orjson.dumps("\x00".join(pieces)).replace(b"\\u0000", b'"' + after + before + b'"') + after


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
    """`text` cut every `size` characters: `[text[i : i + size] for i in range(0, len(text), size)]`,
    the slices made and taken in C (a streamed text is some ten pieces; the comprehension was a tenth
    of a streamed request's bytecodes outside the rules)."""
    end = len(text)
    return list(map(text.__getitem__, map(slice, range(0, end, size), range(size, end + size, size))))
