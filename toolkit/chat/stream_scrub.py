"""An event stream's texts scrubbed across its chunks, for what records a streamed response.

A streamed reply carries its text in pieces, one per `data:` chunk (`"sk-proj-AbCd"`, then
`"Ef0123…"`). Scrubbing each line alone, as the cassette and `client.exchanges` did, kept a key the
model repeated in its pieces: neither piece is a key, and the recording holds both.
`scrub_event_stream(text, secrets)` reads the stream's chunks in order and puts each streamed text
through the request's own `secrets` held across pieces (`HeldText`: a key of no known format, which
`redact` cannot know) and its own `toolkit.tools.redact_stream.StreamScrubber`: a choice's
`content`, `reasoning_content`, `reasoning` (vLLM's, Ollama's) and `refusal`, and each tool call's `arguments` (and a legacy
`function_call`'s). A chunk's piece becomes what its scrubber shows by then; what is still held
at the end goes into the last chunk that carried that text. The text assembled from the recording is then the reply's text scrubbed.

A stream none of whose texts holds a secret is kept byte for byte, its pieces as they came; in
one that does, a chunk whose pieces changed is written again as compact JSON. Every other line (comments, `event:` lines, `[DONE]`, data that is not a JSON
object, or JSON nested past the parser's depth) is kept as it is, for the caller's line-by-line
scrubbing. A line ends at CR, LF or CRLF only, as the client reads the stream
(`toolkit.chat.sse.sse_lines`): a U+2028 inside a chunk's text does not cut the chunk.

A reply may also echo the client's own key (an echo server, a relay quoting the request, a
debugging proxy), which memory, the trace and the views would show: they do not know it
(`toolkit.tools.redact` masks known formats and labels, not a key of another shape). `ChatClient`
masks its secrets in a reply's body before reading it (`masking.mask_keys`) and, in a stream, in
each piece it yields (`HeldEcho`, over `HeldText`): a piece ending with the start of a secret is
held until the next shows whether the secret follows, so a key split over two chunks is in no
piece the caller sees; the assembled reply holds them masked too (`unechoed_response`). Secrets
shorter than the client's `_UNSAID_LENGTH` are not looked for there (a placeholder key such as
"not-needed" is a word).

Leaves out: content sent as a list of parts and the pieces of LiteLLM's `thinking_blocks` (left to the
line-by-line scrubbing), and a chunk
written over several `data:` lines of one event (each line is read alone, as it came); holding
back a tool call's argument pieces for a secret (each is masked alone, the assembled arguments whole).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from toolkit.chat.masking import MIN_KEY, mask_keys
from toolkit.chat.messages import ChatResponse
from toolkit.chat.sse import StreamEvent, TextDelta, ToolCallDelta, kept_lines
from toolkit.tools.redact_stream import StreamScrubber

_TEXT_FIELDS = ("content", "reasoning_content", "reasoning", "refusal")

Place = tuple[dict[str, Any], str]
"""Where a streamed piece sits: the object holding it and the field's name."""


def scrub_event_stream(text: str, secrets: Sequence[str | None] = ()) -> str:
    """`text` (an event stream's body) with each streamed text scrubbed across its chunks, and the
    request's own `secrets` (its key, in no known format) masked across them too (`HeldText`);
    `text` itself, chunks and all, when no text holds a secret."""
    if "data:" not in text:
        return text
    lines = kept_lines(text)
    scrubbers: dict[tuple[Any, ...], _Masker] = {}
    came: dict[tuple[Any, ...], list[str]] = {}  # each text's pieces as they came, and as shown
    shown: dict[tuple[Any, ...], list[str]] = {}
    last: dict[tuple[Any, ...], Place] = {}
    chunks: list[tuple[int, str, dict[str, Any], str]] = []
    for number, line in enumerate(lines):
        read = _chunk(line)
        if read is None:
            continue
        head, chunk, end = read
        places = list(_streamed(chunk))
        for key, (holder, field) in places:
            came.setdefault(key, []).append(holder[field])
            holder[field] = scrubbers.setdefault(key, _Masker(secrets)).feed(holder[field])
            shown.setdefault(key, []).append(holder[field])
            last[key] = (holder, field)
        if places:
            chunks.append((number, head, chunk, end))
    for key, (holder, field) in last.items():
        rest = scrubbers[key].flush()
        holder[field] += rest
        shown[key].append(rest)
    if all("".join(came[key]) == "".join(shown[key]) for key in came):
        return text  # no secret: the stream as it came, its pieces as they were
    for number, head, chunk, end in chunks:
        if json.loads(lines[number][len(head) :].rstrip("\r\n")) != chunk:
            lines[number] = head + json.dumps(chunk, ensure_ascii=False, separators=(",", ":")) + end
    return "".join(lines)


class _Masker:
    """One streamed text's pieces: the secrets given masked across them (`HeldText`), then scrubbed
    across them (`StreamScrubber`)."""

    def __init__(self, secrets: Sequence[str | None]) -> None:
        self.held, self.scrubber = HeldText(secrets), StreamScrubber()

    def feed(self, piece: str) -> str:
        return self.scrubber.feed(self.held.feed(piece))

    def flush(self) -> str:
        return self.scrubber.feed(self.held.flush()) + self.scrubber.flush()


def _chunk(line: str) -> tuple[str, dict[str, Any], str] | None:
    """A `data:` line's head (`data: `), its chunk (a JSON object) and its line end; else None."""
    body = line.rstrip("\r\n")
    if not body.startswith("data:"):
        return None
    payload = body[5:].lstrip(" ")
    try:
        chunk = json.loads(payload)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return None
    if not isinstance(chunk, dict):
        return None
    return body[: len(body) - len(payload)], chunk, line[len(body) :]


def _streamed(chunk: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], Place]]:
    """Each streamed text piece of a chunk, with the key of the text it belongs to."""
    choices = chunk.get("choices")
    for position, choice in enumerate(choices if isinstance(choices, list) else []):
        delta = choice.get("delta") if isinstance(choice, dict) else None
        if not isinstance(delta, dict):
            continue
        index = _hashable(choice.get("index", position))
        for field in _TEXT_FIELDS:
            if isinstance(delta.get(field), str):
                yield (index, field), (delta, field)
        calls = delta.get("tool_calls")
        for order, call in enumerate(calls if isinstance(calls, list) else []):
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict) and isinstance(function.get("arguments"), str):
                yield (index, "call", _hashable(call.get("index", order))), (function, "arguments")
        legacy = delta.get("function_call")
        if isinstance(legacy, dict) and isinstance(legacy.get("arguments"), str):
            yield (index, "function_call"), (legacy, "arguments")


def _hashable(value: Any) -> Any:
    """An index as a key: as it came when it can be one (`0`, `"0"`, None), else its JSON text."""
    return value if isinstance(value, str | int | float | bool) or value is None else json.dumps(value)


class HeldText:
    """Pieces of one text with `secrets` masked (`mask_keys`) even where one is split over two: a
    piece's end that may start a secret is held until the next piece shows (`feed`), and given out
    at the end (`flush`). Secrets too short for `mask_keys` are not looked for."""

    def __init__(self, secrets: Sequence[str | None]) -> None:
        self.secrets = [secret for secret in secrets if secret and len(secret) >= MIN_KEY]
        self.held = ""

    def feed(self, piece: str) -> str:
        """What to show of `piece`: masked, less what is held."""
        if not self.secrets:
            return piece
        text = mask_keys(self.held + piece, self.secrets)
        cut = min((_start_held(text, secret) for secret in self.secrets), default=len(text))
        self.held = text[cut:]
        return text[:cut]

    def flush(self) -> str:
        """The text still held (it was no secret's start after all)."""
        held, self.held = self.held, ""
        return held


class HeldEcho:
    """The events of one stream with `secrets` masked in their text across pieces (`HeldText`),
    given out before any other event (`feed`) and at the end (`flush`)."""

    def __init__(self, secrets: Sequence[str]) -> None:
        self.text = HeldText(secrets)

    def feed(self, event: StreamEvent) -> list[StreamEvent]:
        """What to yield for `event`: its text masked, less what is held; before any other event,
        the text held so far."""
        if not self.text.secrets:
            return [event]
        if isinstance(event, TextDelta):
            shown = self.text.feed(event.text)
            return [TextDelta(shown)] if shown else []
        if isinstance(event, ToolCallDelta) and event.arguments:
            event = ToolCallDelta(event.index, event.id, event.name, mask_keys(event.arguments, self.text.secrets))
        return [*self.flush(), event]

    def flush(self) -> list[StreamEvent]:
        """The text still held, as one piece."""
        held = self.text.flush()
        return [TextDelta(held)] if held else []


def _start_held(text: str, secret: str) -> int:
    """Where the longest end of `text` that is a proper start of `secret` begins (`len(text)` if none)."""
    first = max(len(text) - len(secret) + 1, 0)
    at = text.find(secret[0], first)
    while at != -1:
        if secret.startswith(text[at:]):
            return at
        at = text.find(secret[0], at + 1)
    return len(text)


def unechoed_response(response: ChatResponse, secrets: Sequence[str]) -> ChatResponse:
    """`response` with `secrets` masked in its text, refusal and tool calls' arguments (itself
    when none holds one)."""
    message = response.message
    texts = [message.content or "", message.refusal or "", *(call.arguments for call in message.tool_calls)]
    joined = "\n".join(texts)
    if not secrets or mask_keys(joined, secrets) == joined:
        return response
    calls = tuple(
        call.model_copy(update={"arguments": mask_keys(call.arguments, secrets)}) for call in message.tool_calls
    )
    masked = message.model_copy(
        update={
            "content": None if message.content is None else mask_keys(message.content, secrets),
            "refusal": None if message.refusal is None else mask_keys(message.refusal, secrets),
            "tool_calls": calls,
        }
    )
    return response.model_copy(update={"message": masked})
