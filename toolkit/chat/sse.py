"""Server-sent events in, one `ChatResponse` out: assembling a streamed chat completion.

A streamed response arrives as `data: {chunk}` lines (a chunk written over several `data:`
lines of one event, as a server that pretty-prints sends it, is joined as the SSE spec says and
read when the event's blank line comes). Text comes in content deltas; each tool
call comes as a first delta carrying `index`, `id` and `name`, then its `arguments` in
fragments that only make sense once joined. `StreamAssembler` folds chunks into a response and
emits typed events as they arrive, so a UI can show text while it is still being written.

The one rule that matters: a stream that ends before `data: [DONE]` is truncated, and nothing
from it may be executed, however complete its tool calls look. `finish()` raises
`TruncatedStreamError` in that case (saying why it ended, when the client knows: a timeout, a
broken connection). One exception: a stream that closed properly after the model's choice said
why it stopped (`finish_reason`, sent after its last delta; DashScope's `"null"` on the chunks
before it says nothing: `stated_reason`) is whole — some servers never send
`[DONE]` (TGI before 2.2, llama-box, ik_llama.cpp), and OpenAI's SDK reads them to their end;
such a stream cut by a timeout or a dropped connection is still truncated, and so is one whose
last chunk breaks off before its JSON is complete (closed mid-chunk: `_broken_off`). A chunk
that is not JSON, or whose fields have the wrong type (`choices` not a list, `content` not a
string, ...), is a `BadResponseError` naming the field. So is a stream
that ends properly with an empty reply (no text, no tool calls, no refusal: `not_empty`, which
names `finish_reason` and the likely fix); one the gateway says it cut off for want of resources
(DeepSeek's finish_reason "insufficient_system_resource", Zhipu's "network_error": `not_cut`) is a
`TransientError`, as a 503 would be. An error event is worded as `reported_error` words
an error in a 200 body: a `TransientError` when it names an overload or a rate limit (`"code":
502`, `"rate_limit_exceeded"`), an `OutOfCreditError` when it says the account has no credit
left, else a `BadResponseError` with the gateway's message. An error event is a chunk with an
`error` (OpenAI's shape), a chunk whose `type` is "error" (`{"type": "error", "message": …}`, as
Anthropic-style relays send it), any data of an event named `error` (`event: error`, then
`data: {"message": …}` or plain text), or a line of llama.cpp's own `error:` field (its server
writes an error that comes up mid-stream as `error: {"code": 400, "message": …}`, then `data:
[DONE]`), or choice 0's own `error` (OpenRouter's `StreamingChoice.error`, beside `finish_reason:
"error"`): not a cut stream, nor an empty or a partial reply. A stream that brings no reply but
a chunk without choices in an error's words (`said_instead`: a FastAPI server's `{"detail": …}`
or `{"object": "error", "message": …}`, FastChat's `{"text": …, "error_code": 50001}`, a relay's
`{"code": 429, "msg": …}`) and then ends (not cut by a timeout or a broken connection: that
stays a cut stream) reports that chunk the same way, instead of an empty or a cut reply; one that can
only be an error (`plainly_error`: an `ErrorResponse`, FastChat's non-zero `error_code`) is reported
even after part of a reply, unless the reply said why it stopped (a `finish_reason`). So does a
stream that ends, without `[DONE]` or a `finish_reason`, on an error written as plain JSON after its
last event, over lines and without `data:` (`_tail_error`: Gemini sheds load mid-stream so, with
`{"error": {"code": 503, …, "status": "UNAVAILABLE"}}`), instead of a cut stream.

Some OpenAI-compatible gateways (Gemini's, and proxies in front of it) leave out a tool-call
delta's `index`; others (Ollama behind LiteLLM, some vLLM versions) give every parallel call
`index: 0`. So a delta starts the next call, whatever its `index`, when its `id` differs from
the one its call already has, when it names another tool than that call's once the call's JSON
arguments are complete (some local servers also reuse one id, `call_0`, for every call), or,
with the same `id` or none, when it opens new JSON arguments (`{`) while the call it would continue
already has complete ones and the tool was named again (on that delta, or on one with empty
arguments just before it: two calls of one tool under one reused id and `index`). Otherwise a
delta without an `index` continues the latest call. An `index` written as digits or a float
(`"1"`, `1.0`) is that number; one that is no whole number counts as none (`_call_index`). A call's name sent in pieces (`get_wea`, then `ther`) is
joined, as OpenAI's SDK joins it, and the same name again is kept (`_named`). A gateway that
repeats the id (or the name) on every fragment, or sends a fresh id with each fragment of unfinished arguments, still gets one
call; so does one that resends the whole call (its id or none, its name or none, and its whole
arguments, verbatim) on every delta, or streams the fragments and then sends the consolidated
call again (its whole arguments as the same JSON object, in any layout: `_same_arguments`) — such a
delta adds nothing (`_resent`): two calls of one tool with the same arguments
under one reused id and `index`, each sent on one delta, are read as one. A provider that sends
a call's arguments so far on every delta instead of the new fragment (DeepSeek and Baidu Qianfan
in a cumulative mode) gets the last of them, once joining them gives no JSON object and each
starts with the one before (`_arguments`). A provider's own fields on a call (Gemini's
`extra_content`) are kept, to be sent back with it; so are `reasoning_content` deltas (DeepSeek's
thinking mode), joined (a tool-call reply's even when empty: `empty_reasoning`), and
`reasoning_details` pieces (OpenRouter's), merged per block (`merge_details`), `reasoning` deltas
(vLLM's, Ollama's), joined, and `thinking_blocks` pieces (LiteLLM's, for Claude), merged per block
(`toolkit.chat.reasoning_fields.merge_blocks`), and a delta's own `extra_content` (Gemini's thought
signature on a reply's text: the latest), for the reply to carry back.

The lines are the stream's own (`sse_lines`): only CR, LF and CRLF end one, as the SSE spec
says and OpenAI's SDK reads them; a U+2028 or U+0085 a gateway writes unescaped inside a chunk's
JSON string (`ensure_ascii=False`) is text, not a line break (as `str.splitlines` and httpx's
`iter_lines` would read it, cutting the chunk in two).

Text is joined as it came, except that a UTF-16 surrogate pair split across two chunks
(`"\\ud83d"`, then `"\\ude00"`: a JavaScript proxy cutting a string) is paired again, in the
message and in the `TextDelta`s (the half that ends a piece is shown with the next: `_shown`); a
leading byte-order mark is skipped; an event whose data is empty (`data:` alone, or with blanks:
the keep-alive some relays send during a long answer) is skipped like a `: ping` comment, and so is
an event of a type of its own whose data is no JSON object (`event: ping`, `data: <time>`: the
keep-alive of servers built on sse-starlette before 1.4, `CHUNK_EVENTS`); `"error": null` on a chunk (Foundry Local sends it on every
one) is no error; a later `usage` with counts left out or null keeps the counts already read; a
`usage` on choice 0 (Moonshot's Kimi sends it there, in the last chunk) is read as one beside it,
and so is Groq's, in the last chunk's `x_groq.usage` (`_usage_of`). An id written as a number (a
call's, or the chunk's: NVIDIA NIM and LM Studio send call ids so) is its digits
as in a whole reply (`ToolCall.from_openai`).

Content sent as a list of parts (as some gateways send it) is read as its text parts, joined,
as in a whole reply. A legacy `function_call` delta (`{"name"}` first, then `{"arguments"}`
pieces) is read as the fragments of one tool call, as a whole reply's is. A call whose deltas never carry
arguments (null on each, or none) has `{}`, as a whole reply's call with null or no arguments. Arguments
sent as a JSON object (not a string) are written as JSON; a later object for the same call replaces
the earlier (`{}` first, then the whole object), as objects are whole values, not fragments.

Leaves out: `logprobs`, the audio itself (a delta's `audio.data`), and `n > 1`: only choice 0 is
read (`choice_zero`: its `index` is 0, `"0"`, null or missing, as `chat()` reads a whole reply's).
A `refusal` is joined like text (into the message's `refusal`), its pieces `TextDelta`s (the
reply's text is the refusal when no content came: a reader of the text would see nothing). An answer in audio streams its
words as `audio.transcript` pieces: each is a `TextDelta`, and joined they are the message's text
when no `content` came (as a whole reply's `audio.transcript` is). A `custom` tool's call delta is a
`BadResponseError` naming the tool (`custom_call_error`), as in a whole reply.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from toolkit.chat.balance import Balance, whole_object
from toolkit.chat.chat_template import TEMPLATE_HINT, refused_roles
from toolkit.chat.context_limit import CONTEXT_HINT, over_context
from toolkit.chat.credit import credit_fix, out_of_credit
from toolkit.chat.litellm_errors import unwrapped
from toolkit.chat.messages import (
    OPENAI_CALL_KEYS,
    AssistantMessage,
    ChatResponse,
    TokenUsage,
    ToolCall,
    arguments_text,
    custom_call_error,
    empty_reasoning,
    one_call,
    text_of,
)
from toolkit.chat.rate_limits import said_delay, worded_wait
from toolkit.chat.reasoning_fields import merge_blocks, one_reasoning
from toolkit.chat.sources import Source, sources_of
from toolkit.errors import (
    BadResponseError,
    CallerError,
    ModelCallError,
    OutOfCreditError,
    TransientError,
    TruncatedStreamError,
)


@dataclass(frozen=True)
class TextDelta:
    """A piece of the assistant's text, in arrival order."""

    text: str


@dataclass(frozen=True)
class ToolCallDelta:
    """A piece of a tool call: `id`/`name` on its first delta, then argument fragments."""

    index: int
    id: str | None
    name: str | None
    arguments: str


@dataclass(frozen=True)
class StreamDone:
    """The stream ended properly; `response` is the whole assembled reply."""

    response: ChatResponse


StreamEvent = TextDelta | ToolCallDelta | StreamDone


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    fragments: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    balance: Balance = field(default_factory=Balance)
    """The fragments' braces, read once each (`_complete`)."""
    last_sent: str | None = None
    """The last fragment that is not blank (`_resent` compares a delta's with it): kept as they come,
    so a call streamed in 100,000 empty or blank fragments is not searched back through for each."""
    canonical: tuple[int, str | None] | None = None
    """The call's arguments as `_canonical` JSON, and how many fragments they were joined from then
    (`_same_arguments` compares a resend with them: joined and parsed once, however often resent)."""
    given: bool = False
    """A delta carried arguments (a string, or an object): a call whose deltas all said null, or
    nothing, has `{}`, as a whole reply's call with null or no arguments reads (`ToolCall.from_openai`)."""
    renamed: bool = False
    """A delta named this call again (its own name) after its arguments were whole, opening no new
    ones (`arguments: ""`): the next delta that opens a JSON object is another call of that name."""
    objects: bool = False
    """Every fragment with text came as a JSON object, not a string (a gateway sending arguments as
    objects): objects are whole values, so a later one replaces them, not joined to them."""


@dataclass
class StreamAssembler:
    """Folds chat-completion chunks into one response; `feed_line` per SSE line."""

    text: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    """`reasoning_content` deltas (DeepSeek's thinking mode): kept, to go back with the reply (a
    tool-call reply's even empty: `empty_reasoning`; a null delta counts as an empty one)."""
    calls: dict[int, _PartialCall] = field(default_factory=dict)
    finish_reason: str | None = None
    usage: TokenUsage = field(default_factory=lambda: TokenUsage(input_tokens=None, output_tokens=None))
    """Not reported until a chunk carries `usage`."""
    model: str = ""
    id: str = ""
    done: bool = False
    latest: int | None = None
    """The index of the call the latest tool-call delta went to."""
    refusal: list[str] = field(default_factory=list)
    """`refusal` deltas (OpenAI's structured refusals): joined into the message's `refusal`."""
    sources: tuple[Source, ...] = ()
    """The web sources the last chunk naming any named (Perplexity's: `toolkit.chat.sources`)."""
    transcript: list[str] = field(default_factory=list)
    """`audio.transcript` deltas (an answer in audio, `modalities: ["text", "audio"]`): the message's
    text when no `content` came, as a whole reply's `audio.transcript` is (`AssistantMessage.from_openai`)."""
    details: list[dict[str, Any]] = field(default_factory=list)
    """`reasoning_details` pieces (OpenRouter's), merged per block (`merge_details`): kept, to go back."""
    said_reasoning: list[str] = field(default_factory=list)
    """`reasoning` deltas (vLLM's, Ollama's): kept as `reasoning`, unless `reasoning_details` came
    too (`one_reasoning`)."""
    signed: dict[str, Any] | None = None
    """The latest `extra_content` object of a delta (Gemini's thought signature on a reply's text,
    sent whole): kept, to go back with the reply."""
    blocks: list[dict[str, Any]] = field(default_factory=list)
    """`thinking_blocks` pieces (LiteLLM's, for Claude), merged per block (`merge_blocks`): kept, to go back."""
    slots: dict[int, int] = field(default_factory=dict)
    """A delta's `index` -> the call it now goes to (they differ once a gateway reuses an index)."""
    highest: int = -1
    """The highest key of `calls` (kept as calls come: the next call's slot is one more)."""
    pending: list[str] = field(default_factory=list)
    """The `data:` lines of an event whose first line was not JSON on its own: the SSE spec joins
    an event's lines, so a chunk written over several lines is read when the event ends."""
    others: set[str] = field(default_factory=set)
    """The indexes of the choices skipped (not choice 0), as `repr` shows them: named when the
    reply is empty for want of choice 0."""
    instead: dict[str, Any] | None = None
    """The first chunk without choices that says something in an error's words (`said_instead`):
    the gateway's error, when the stream brings no reply."""
    erred: dict[str, Any] | None = None
    """The first chunk without choices that can only be an error (`plainly_error`): the gateway's
    error, when the reply never said why it stopped (no `finish_reason`), even after part of it."""
    held: dict[str, str] = field(default_factory=dict)
    """A text field's high surrogate that ended its last piece, kept from its `TextDelta` for the
    next piece (`_shown`)."""
    stray: list[str] = field(default_factory=list)
    """The lines since the last `data:` line that are no field of an event stream (nor a comment):
    an error a gateway wrote as plain JSON after its events (`_tail_error`)."""
    stray_size: int = 0
    """Their characters, counted on past `STRAY_AT_MOST` (then they are no error object, and not kept)."""
    event: str = ""
    """The type of the event being read (its `event:` field; "" for the default, `message`):
    `event: error` marks its data as the gateway's error, whatever shape that data has."""

    def feed_line(self, line: str) -> list[StreamEvent]:
        """Consume one line of the event stream; returns the events it produced."""
        if line.startswith("\ufeff"):  # a byte-order mark before the first line (the SSE spec skips it)
            line = line[1:]
        if self.done:
            return []  # after [DONE] nothing counts (as in OpenAI's SDK)
        if not line.startswith("data:"):  # comments carry nothing; a blank line ends an event
            if line.startswith("event:"):
                self.event = line[6:].strip()
                return []
            if line.startswith("error:"):  # llama.cpp's server: `error: {...}`, a field of its own
                payload = line[6:].strip()
                said = _json_or_not(payload)
                raise reported_error(payload if said is _NOT_JSON else said, "sent an error mid-stream", payload[:2000])
            if line.strip():
                self._keep_stray(line)
                return []
            events, self.event = self._feed_pending(), ""  # the event type lasts until its event ends
            return events
        self.stray, self.stray_size = [], 0  # only what follows the last event is a tail
        payload = line[5:].strip()
        if payload == "[DONE]":
            events = self._feed_pending()
            self.done = True
            return events
        chunk = _NOT_JSON if self.pending else _json_or_not(payload)
        if chunk is _NOT_JSON:  # the first line of a chunk written over several, or not JSON at all
            self.pending.append(line[6:] if line.startswith("data: ") else line[5:])
            return []
        return self._feed_parsed(chunk, payload)

    def _keep_stray(self, line: str) -> None:
        """Keep a line that is no field of an event stream (`id:`, `retry:` and comments are), up to
        `STRAY_AT_MOST` characters since the last event."""
        if line.startswith((":", "id:", "retry:")):
            return
        self.stray_size += len(line)
        if self.stray_size <= STRAY_AT_MOST:
            self.stray.append(line)
        else:
            self.stray.clear()

    def _tail_error(self) -> ModelCallError | None:
        """The error a gateway wrote as plain JSON, over lines and without `data:`, after its last
        event, then ended the stream (Gemini sheds load so: `{"error": {"code": 503, …}}`): an `error`
        object (also in Gemini's one-item list), or a chunk in an error's words (`said_instead`);
        None for anything else."""
        if not self.stray:
            return None
        text = "\n".join(self.stray).strip()
        said = _json_or_not(text)
        if isinstance(said, list) and len(said) == 1:  # Gemini's `[{"error": {…}}]`
            said = said[0]
        if not isinstance(said, dict):
            return None
        error = error_of(said) or said_instead(said)
        return reported_error(error, "sent an error mid-stream", text[:2000]) if error else None

    def _feed_pending(self) -> list[StreamEvent]:
        """The event held in `pending`, its lines joined as the SSE spec joins them."""
        if not self.pending:
            return []
        payload, self.pending = "\n".join(self.pending).strip(), []
        if not payload:  # `data:` with nothing after it: a relay's keep-alive, no chunk
            return []
        if self.event == "error" and _json_or_not(payload) is _NOT_JSON:  # `event: error` / `data: upstream timed out`
            raise reported_error(payload, "sent an error mid-stream", payload[:2000])
        if self.event not in CHUNK_EVENTS and _json_or_not(payload) is _NOT_JSON:  # `event: ping`, `data: <time>`
            return []
        return self._feed_parsed(read_json(payload, "stream chunk"), payload)

    def _feed_parsed(self, chunk: Any, payload: str) -> list[StreamEvent]:
        if isinstance(chunk, dict):
            if chunk.get("error"):  # `"error": null` is no error
                raise reported_error(error_of(chunk), "sent an error mid-stream", payload[:2000])
            if self.event == "error" or (chunk.get("type") == "error" and not chunk.get("choices")):
                # an error without an `error` key: `event: error` with `data: {"message": …}`, or an
                # Anthropic-style relay's `data: {"type": "error", "message": …}`: the chunk is the error
                raise reported_error(chunk, "sent an error mid-stream", payload[:2000])
        elif listed_error(chunk):  # Google's one-item list of an error, written as an event (a relay's, Gemini's)
            raise reported_error(error_of(chunk[0]), "sent an error mid-stream", payload[:2000])
        elif self.event == "error":  # `event: error` with `data: "a JSON string"` (or a number)
            raise reported_error(chunk, "sent an error mid-stream", payload[:2000])
        elif self.event not in CHUNK_EVENTS:  # a keep-alive event of its own type: `event: ping`, `data: 1714000000`
            return []
        return self.feed_chunk(chunk)

    def feed_chunk(self, chunk: Any) -> list[StreamEvent]:
        if not isinstance(chunk, dict):
            raise BadResponseError(f"stream chunk is not an object: {chunk!r:.200}")
        self.id = _text(chunk.get("id"), "stream chunk id", True) or self.id
        self.model = _text(chunk.get("model"), "stream chunk model") or self.model
        usage = _usage_of(chunk)
        if usage:
            self.usage = _updated(self.usage, TokenUsage.from_openai(usage))
        if "citations" in chunk or "search_results" in chunk:
            self.sources = sources_of(chunk) or self.sources
        if self.instead is None and said_instead(chunk) is not None:
            self.instead = chunk
        if self.erred is None and plainly_error(chunk):
            self.erred = chunk
        events: list[StreamEvent] = []
        for choice in _listed(chunk.get("choices"), "stream chunk choices"):
            if not isinstance(choice, dict):
                raise BadResponseError(f"stream chunk choice is not an object: {choice!r:.200}")
            if not choice_zero(choice):  # n > 1 is left out: only choice 0 is read
                self.others.add(repr(choice.get("index"))[:20])
                continue
            if choice.get("error"):  # OpenRouter's `StreamingChoice.error` (finish_reason "error"): no reply
                raise reported_error(choice["error"], "sent an error mid-stream", _dumped(chunk))
            if choice.get("usage") and not _usage_of(chunk):  # Moonshot's (Kimi's): on choice 0
                self.usage = _updated(self.usage, TokenUsage.from_openai(choice["usage"]))
            events += self._feed_delta(_object(choice.get("delta"), "stream chunk delta"))
            self.finish_reason = (
                stated_reason(_text(choice.get("finish_reason"), "finish_reason")) or self.finish_reason
            )
        return events

    def _feed_delta(self, delta: dict[str, Any]) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        content = _text(text_of(delta.get("content")), "streamed content")  # a list of parts: its text
        if content:
            self.text.append(content)
            events += self._shown("content", content)
        audio = delta.get("audio")
        if type(audio) is dict and isinstance(audio.get("transcript"), str) and audio["transcript"]:
            self.transcript.append(audio["transcript"])  # an answer in audio: its words, shown as they come
            events += self._shown("transcript", audio["transcript"])
        if isinstance(delta.get("reasoning_content"), str):
            self.reasoning.append(delta["reasoning_content"])
        elif "reasoning_content" in delta and not self.reasoning:  # null: the provider sends the field
            self.reasoning.append("")
        if isinstance(delta.get("refusal"), str) and delta["refusal"]:  # the reply's text when no content came:
            self.refusal.append(delta["refusal"])  # shown as it comes, as a transcript's is
            events += self._shown("refusal", delta["refusal"])
        if delta.get("reasoning_details") and isinstance(delta["reasoning_details"], list):
            merge_details(self.details, delta["reasoning_details"])
        if isinstance(delta.get("reasoning"), str):
            self.said_reasoning.append(delta["reasoning"])
        if delta.get("thinking_blocks") and isinstance(delta["thinking_blocks"], list):
            merge_blocks(self.blocks, delta["thinking_blocks"])
        if type(delta.get("extra_content")) is dict and delta["extra_content"]:
            self.signed = delta["extra_content"]
        try:
            pieces = _listed(delta.get("tool_calls"), "streamed tool_calls")
        except BadResponseError:
            if not one_call(delta["tool_calls"]):
                raise
            pieces = [delta["tool_calls"]]  # one call written bare (text-generation-inference 2.x)
        if not pieces and isinstance(delta.get("function_call"), dict):  # the legacy field: one call
            pieces = [{"function": delta["function_call"]}]
        for piece in pieces:
            if not isinstance(piece, dict):
                raise BadResponseError(f"streamed tool call delta is not an object: {piece!r:.200}")
            fn = _object(piece.get("function"), "streamed tool call function")
            call_id, name = (
                _text(piece.get("id"), "streamed tool call id", True),
                _text(fn.get("name"), "streamed tool name"),
            )
            if name is None and piece.get("type") == "custom":
                raise BadResponseError(str(custom_call_error(piece)))
            fragment = "" if fn.get("arguments") is None else arguments_text(fn["arguments"])
            index, resent = self._index_of(piece, call_id, name, fragment)
            self.latest = index
            partial = self.calls.setdefault(index, _PartialCall())
            self.highest = max(self.highest, index)
            if resent:  # the call again, whole (`_resent`): nothing new, its arguments not added twice
                partial.extra.update((k, v) for k, v in piece.items() if k not in OPENAI_CALL_KEYS)
                events.append(ToolCallDelta(index, call_id, name, ""))
                continue
            if name is not None and partial.name and _complete(partial):  # named again: maybe the next call
                partial.renamed = True
            partial.id = call_id or partial.id
            partial.name = _named(partial.name, name)
            as_object = isinstance(fn.get("arguments"), dict)
            if as_object and partial.objects and _complete(partial):  # `{}`, then the whole object: the latter
                partial.fragments, partial.balance, partial.canonical = [], Balance(), None
            if fragment.strip():
                partial.objects = as_object and (partial.objects or partial.last_sent is None)
            partial.fragments.append(fragment)
            partial.given = partial.given or fn.get("arguments") is not None
            if fragment.strip():
                partial.last_sent = fragment
            partial.extra.update((k, v) for k, v in piece.items() if k not in OPENAI_CALL_KEYS)
            events.append(ToolCallDelta(index, call_id, name, fragment))
        return events

    def _shown(self, field: str, piece: str) -> list[StreamEvent]:
        """The `TextDelta` for a piece of `field`'s text: a high surrogate that ended the piece
        before comes first, and one that ends this piece waits for the next (a pair split across
        chunks is shown as its character: a lone half cannot be printed, nor sent as UTF-8)."""
        text = self.held.pop(field, "") + piece
        if "\ud800" <= text[-1] <= "\udbff":
            text, self.held[field] = text[:-1], text[-1]
        return [TextDelta(paired(text))] if text else []

    def _index_of(
        self, piece: dict[str, Any], call_id: str | None, name: str | None, fragment: str
    ) -> tuple[int, bool]:
        """The call this delta goes to: the one its `index` names (the latest without one),
        unless the delta plainly starts another call (`_starts_another`): then the next one. And
        whether the delta only sends that call again, whole (`_resent`): then it adds nothing."""
        index = _call_index(piece.get("index"))
        slot: int
        if index is not None:
            known = self.slots.get(index)
            slot = known if known is not None else index if index not in self.calls else self.highest + 1
        elif self.latest is None:
            return 0, False
        else:
            slot = self.latest
        current = self.calls.get(slot)
        if current is not None and current.name and _resent(current, call_id, name, fragment):
            if index is not None:
                self.slots[index] = slot
            return slot, True
        if current is not None and _starts_another(current, call_id, name, fragment):
            slot = self.highest + 1
            if current.renamed and name is None:  # the call named on an earlier delta: its id and name
                self.calls[slot] = _PartialCall(id=current.id, name=current.name)
        if index is not None:
            self.slots[index] = slot
        return slot, False

    def finish(self, broke: str | None = None) -> ChatResponse:
        """The assembled response; raises if the stream never said `[DONE]` (`broke` says why it
        ended: "the read timed out (ReadTimeout) after 30s"), unless it ended properly after a
        `finish_reason`, or if the reply is empty."""
        if self.pending and broke is None:  # the last event, with no blank line after it
            broke = _broken_off(self.pending)
            if broke is None:
                self._feed_pending()
        tail = self._tail_error() if broke is None and not self.done and self.finish_reason is None else None
        if tail is not None:  # the gateway's error, written after its events, instead of a cut stream
            raise tail
        if broke is None and self.erred is not None and self.finish_reason is None:  # the part before it is no answer
            raise reported_error(said_instead(self.erred), "sent an error mid-stream", _dumped(self.erred))
        if (
            broke is None
            and self.instead is not None
            and not (self.text or self.transcript or self.calls or self.refusal)
        ):
            said = said_instead(self.instead)  # no reply, but the gateway said why: that is the error
            raise reported_error(said, "sent an error mid-stream", _dumped(self.instead))
        if not self.done and (broke is not None or self.finish_reason is None):
            pending = ", ".join(c.name or "?" for c in self.calls.values())
            what = f" with tool call(s) {pending} unfinished" if pending else ""
            why = f": {broke}" if broke else ""
            raise TruncatedStreamError(f"stream ended before [DONE]{what}{why}; nothing from it will be executed")
        calls = tuple(
            ToolCall(id=c.id, name=c.name, arguments=paired(_arguments(c)) if c.given else "{}", extra=c.extra)
            for _, c in sorted(self.calls.items())
        )
        missing = [i for i, c in sorted(self.calls.items()) if not c.name]
        if missing:  # a missing id is the loop's to fill in (`unique_call_ids`); a missing name is not
            raise BadResponseError(f"streamed tool call(s) at index {missing} have no name")
        if self.others and not (self.text or self.transcript or self.calls or self.refusal):
            raise BadResponseError(no_choice_zero(self.others), status=200)
        reasoning = paired("".join(self.reasoning))
        kept: dict[str, Any] = {"reasoning_content": reasoning} if reasoning else {}
        if not reasoning and self.reasoning and calls:
            kept.update(empty_reasoning(reasoning))
        if self.details:
            kept["reasoning_details"] = joined_details(self.details)
        if self.blocks:
            kept["thinking_blocks"] = self.blocks
        if self.signed is not None:
            kept["extra_content"] = self.signed
        said_reasoning = paired("".join(self.said_reasoning))
        if said_reasoning:
            kept = one_reasoning({**kept, "reasoning": said_reasoning})
        said = self.text or self.transcript
        message = AssistantMessage(
            content=paired("".join(said)) if said else None,
            tool_calls=calls,
            refusal=paired("".join(self.refusal)) or None,
            **({"extra": kept} if kept else {}),  # `{}` left out: not checked
        )
        return not_empty(
            not_cut(
                ChatResponse(
                    message=message,
                    finish_reason=self.finish_reason,
                    usage=self.usage,
                    model=self.model,
                    id=self.id,
                    sources=self.sources,
                )
            )
        )


def _broken_off(pending: list[str]) -> str | None:
    """Why a stream that ended on the `data:` lines of an unfinished event is cut, when it is: their
    JSON breaks off before it is complete (a server or a proxy that closed mid-chunk, however
    properly); None for lines to read as the last event (whole JSON, or not JSON at all)."""
    payload = "\n".join(pending).strip()
    try:
        json.loads(payload)
    except json.JSONDecodeError as exc:
        if exc.pos > 0 and _breaks_off(payload, exc):
            return "its last chunk breaks off before its JSON is complete"
    except (ValueError, RecursionError):
        pass
    return None


def said_instead(chunk: dict[str, Any]) -> Any:
    """What a chunk without choices (nor usage) says in an error's words, or None: its `detail`
    (FastAPI's), else the chunk itself when it is an `ErrorResponse` (`"object": "error"`), has a
    `message` or `msg` text, `errors`, or a non-zero `error_code` (FastChat's worker error)."""
    if chunk.get("choices") or chunk.get("usage"):
        return None
    detail = chunk.get("detail")
    if (isinstance(detail, str) and detail.strip()) or (isinstance(detail, list) and detail):
        return detail
    texts = [chunk.get(key) for key in ("message", "msg")]
    if chunk.get("object") == "error" or any(isinstance(text, str) and text.strip() for text in texts):
        return chunk
    if (isinstance(chunk.get("errors"), list) and chunk["errors"]) or chunk.get("error_code") not in (None, 0, "0", ""):
        return chunk
    return None


def listed_error(data: Any) -> bool:
    """Whether `data` is Google's one-item list of an error object (`[{"error": {…}}]`)."""
    return isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict) and bool(data[0].get("error"))


def error_of(chunk: dict[str, Any]) -> Any:
    """A chunk's (or a body's) `error`, as `reported_error` reads it. text-generation-inference writes
    its error as a string with its kind beside it (`{"error": "Model is overloaded", "error_type":
    "overloaded"}`): the two are one object then, `{"message": …, "type": …}`, so that the kind names
    the status it is treated like (`_NAMED_STATUS`)."""
    error, kind = chunk.get("error"), chunk.get("error_type")
    if isinstance(error, str) and isinstance(kind, str) and kind.strip():
        return {"message": error, "type": kind}
    return error


def plainly_error(chunk: dict[str, Any]) -> bool:
    """Whether a chunk without choices (nor usage) can only be an error, unlike a `message` a relay's
    metadata chunk may carry: an `ErrorResponse` (`"object": "error"`), FastChat's worker error (a
    non-zero `error_code`: its server writes a worker that failed mid-answer so, then `[DONE]`), a
    list of `errors`. Read by `said_instead`'s words."""
    if chunk.get("choices") or chunk.get("usage"):
        return False
    listed = isinstance(chunk.get("errors"), list) and bool(chunk["errors"])
    return chunk.get("object") == "error" or chunk.get("error_code") not in (None, 0, "0", "") or listed


def choice_zero(choice: dict[str, Any]) -> bool:
    """Whether a choice is choice 0, the one reply a request without `n` asks for: its `index` is
    0, or `"0"` (a relay that writes numbers as strings), or missing or null (a single choice needs
    none). `chat()` and `stream()` both read the choice this says."""
    index = choice.get("index")
    if index is None:
        return True
    if isinstance(index, str):
        return index.strip() == "0"
    return index == 0 and not isinstance(index, bool)


def no_choice_zero(indexes: Iterable[str]) -> str:
    """The error text for a reply whose choices are all other than choice 0 (`choice_zero`);
    `indexes` are theirs, as `repr` shows them."""
    seen = sorted(set(indexes))
    return f"the reply has no choice 0 (its choices have index {', '.join(seen[:5])}); only choice 0 is read"


def _starts_another(current: _PartialCall, call_id: str | None, name: str | None, fragment: str) -> bool:
    """Whether a tool-call delta starts a call of its own rather than continuing `current`.

    A different id does, once `current`'s arguments are complete JSON or the delta names a tool
    (a proxy that sends a fresh id with each fragment of unfinished arguments names none). With
    the same id or none, a delta that opens new arguments (`{`) does, once `current` has a name
    and complete arguments, when it names the tool or an earlier delta named it again since those
    arguments were whole (`renamed`: the usual first delta of a call, name and `arguments: ""`,
    then the arguments): a repeated name on a continuation opens nothing new, and a name repeated
    with empty arguments after the last fragment starts nothing by itself. A delta naming another
    tool than `current`'s, once its arguments are complete, does whatever its id: some local
    servers give every call of a reply the same id and `index: 0`."""
    if not current.name:
        return False
    if name is not None and name != current.name and _complete(current):
        return True  # another tool, after whole arguments: even under the same id (`call_0` for every call)
    if call_id and current.id and call_id != current.id:
        return name is not None or _complete(current)
    if (name is None and not current.renamed) or not fragment.lstrip().startswith("{"):
        return False
    return _complete(current)


def _call_index(given: Any) -> int | None:
    """A tool-call delta's `index`: a whole number, also written as a string of digits or as a
    float (`"1"`, `1.0`: a relay that writes numbers its own way, as `choice_zero` reads a
    choice's); None when it has none (Gemini's relays leave it out) or one that is no whole
    number (a relay's own: the delta goes by its id and name, as one without an index)."""
    if isinstance(given, int) and not isinstance(given, bool):
        return given
    digits = given.strip() if isinstance(given, str) else ""
    if digits.isdecimal() and len(digits) <= 18:
        return int(digits)
    if isinstance(given, float) and given.is_integer():
        return int(given)
    return None


def _named(held: str, name: str | None) -> str:
    """A call's name once a delta that continues it says `name`: the same name again keeps it (a
    server that restates it on every delta), another piece continues it (a server that streams
    the name in pieces, `get_wea` then `ther`, as OpenAI's SDK joins them). A delta that names
    another tool after whole arguments starts a call of its own (`_starts_another`), so it is not
    read here."""
    if not name or name == held:
        return held
    return held + name


def _resent(current: _PartialCall, call_id: str | None, name: str | None, fragment: str) -> bool:
    """Whether a delta repeats `current` whole: its id (or none) and its name (or none), and, as
    its fragment, the call's whole arguments so far — verbatim (as `_arguments` reads them: a
    provider that resends the call, or its arguments so far, on every delta), or the same JSON
    object as the fragments joined (`_same_arguments`: a relay that streams the fragments, then
    sends the consolidated call again) — after no delta that named the call again with empty
    arguments (`renamed`: the first delta of another call). Two calls of one tool with the same
    arguments under one reused id read so are one call: its arguments are the same, and a
    provider's resent call run twice would be worse."""
    if current.renamed or (name is not None and name != current.name):
        return False
    if call_id and current.id and call_id != current.id:
        return False
    if current.last_sent == fragment and whole_object(fragment) and _arguments(current) == fragment:
        return True
    return _same_arguments(current, fragment)


def _same_arguments(current: _PartialCall, fragment: str) -> bool:
    """Whether `fragment` is a JSON object equal to `current`'s whole arguments (white space and
    the order of keys aside: a relay may write the consolidated call again in its own layout).
    Only a fragment that looks like a whole object (`{…}`) sent after whole arguments is parsed."""
    text = fragment.strip()
    if not (text.startswith("{") and text.endswith("}")) or not _complete(current):
        return False
    if current.canonical is None or current.canonical[0] != len(current.fragments):
        current.canonical = (len(current.fragments), _canonical("".join(current.fragments)))
    return current.canonical[1] is not None and _canonical(text) == current.canonical[1]


def _canonical(text: str) -> str | None:
    """A JSON object's text, written one way (keys sorted, no white space), or None for text
    that is no JSON object."""
    try:
        value = json.loads(text)
        if not isinstance(value, dict):
            return None
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, RecursionError):
        return None


def _arguments(call: _PartialCall) -> str:
    """A call's arguments: its fragments joined, unless that is no JSON object and the fragments
    were sent cumulatively (each one the arguments so far, as DeepSeek and Baidu Qianfan do in a
    cumulative mode): each non-blank fragment starts with the one before, and the last is a whole
    JSON object. Then the last is the arguments. Joined fragments that make a JSON object are
    read joined, whatever they repeat."""
    joined = "".join(call.fragments)
    if len(call.fragments) < 2 or _complete(call):
        return joined
    sent = [fragment for fragment in call.fragments if fragment.strip()]
    if len(sent) < 2 or not all(later.startswith(earlier) for earlier, later in zip(sent, sent[1:])):
        return joined
    return sent[-1] if whole_object(sent[-1]) else joined


_DETAIL_TEXTS = ("text", "summary", "data")
"""The fields of a `reasoning_details` block that arrive in pieces, to be joined."""


class _Pieces(list[str]):
    """A text field of a `reasoning_details` block, in the pieces it came in."""


def merge_details(details: list[dict[str, Any]], pieces: list[Any]) -> None:
    """Fold a delta's `reasoning_details` into `details`. OpenRouter streams each block in pieces
    that share its `index` and `type`: their text fields (`text`, `summary`, `data`) are joined,
    any other field takes its latest value that is not null (the signature comes last, alone). A
    piece with another `index` or `type`, or with none, starts a block; one that is not an object
    is left out. A text field is held in its pieces until `joined_details` (a long reasoning comes
    in thousands of pieces: joined once, not once per piece)."""
    for piece in pieces:
        if not isinstance(piece, dict):
            continue
        index = piece.get("index")
        block = None
        if isinstance(index, int) and not isinstance(index, bool):
            block = next((b for b in reversed(details) if b.get("index") == index), None)
            block = block if block is not None and block.get("type") == piece.get("type") else None
        if block is None:
            block = {}
            details.append(block)
        for key, value in piece.items():
            if key in _DETAIL_TEXTS and isinstance(value, str):
                held = block.get(key)
                if not isinstance(held, _Pieces):  # none yet (or not text: a gateway's own shape, replaced)
                    held = block[key] = _Pieces()
                held.append(value)
            elif value is not None:
                block[key] = value


def joined_details(details: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`details` as `merge_details` holds them, each text field's pieces joined."""
    return [{k: "".join(v) if isinstance(v, _Pieces) else v for k, v in block.items()} for block in details]


def _complete(call: _PartialCall) -> bool:
    """Whether the call's arguments so far are a whole JSON object (`whole_object` of them
    joined; their braces read once each, so a call sent in thousands of fragments, each with a
    fresh id, is not joined and parsed again for each: `toolkit.chat.balance`)."""
    return call.balance.whole(call.fragments)


_NOT_JSON = object()

CHUNK_EVENTS = frozenset(("", "message", "error"))
"""The event types whose data is read whatever it is: the default type ("", or `message`, as the SSE
spec names it), which chat-completion chunks come in, and `error`. An event of another type (`event:
ping`) is read only when its data is a JSON object (a chunk, whatever the type a gateway names its
chunks with); other data is a keep-alive's, skipped like a `: ping` comment: sse-starlette before 1.4
(llama-cpp-python's server and others built on it) wrote one every 15 s of a stream as `event: ping`
and `data: 2024-03-05 10:00:00.123456` (abetlen/llama-cpp-python#1256, ztjhz/BetterChatGPT#538)."""

STRAY_AT_MOST = 16_000
"""The most characters of stray lines after a stream's last event that are read as an error
(`_tail_error`): a gateway's error object is far shorter; a page of text is not one."""


def _dumped(chunk: Any) -> str:
    """A chunk as JSON text (the first 2,000 characters), for an error's body."""
    try:
        return json.dumps(chunk, ensure_ascii=False, default=str)[:2000]
    except (ValueError, RecursionError):  # nested past the writer's limit: the error says enough
        return ""


def _json_or_not(payload: str) -> Any:
    """A `data:` line's JSON (the usual chunk: one line, one event), or `_NOT_JSON`; `read_json`
    says what is wrong, once the event's lines are all in."""
    try:
        return json.loads(payload)
    except (ValueError, RecursionError):
        return _NOT_JSON


def paired(text: str) -> str:
    """`text` with UTF-16 surrogate pairs joined into the characters they encode: a pair split
    across two chunks arrives as two lone surrogates. Lone surrogates without a partner stay."""
    if not any("\ud800" <= c <= "\udfff" for c in text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _usage_of(chunk: dict[str, Any]) -> Any:
    """A chunk's `usage`; else Groq's, which it sends on a stream's last chunk inside its own
    `x_groq` object (`{"x_groq": {"id": …, "usage": {…}}}`), not beside the choices."""
    if chunk.get("usage"):
        return chunk["usage"]
    groq = chunk.get("x_groq")
    return groq.get("usage") if isinstance(groq, dict) else None


def _updated(usage: TokenUsage, reported: TokenUsage) -> TokenUsage:
    """The counts of a later `usage` object, except those it leaves out (or sends as null)."""
    return TokenUsage(
        input_tokens=usage.input_tokens if reported.input_tokens is None else reported.input_tokens,
        output_tokens=usage.output_tokens if reported.output_tokens is None else reported.output_tokens,
    )


def not_cut(response: ChatResponse, body: str = "") -> ChatResponse:
    """`response`, unless its `finish_reason` says the gateway cut it off for a want that passes
    (`CUT_BY_GATEWAY`: DeepSeek's "insufficient_system_resource"): then a `TransientError`, retried
    like a 503 (a stream's only while nothing of it was shown), not a part of a reply taken whole."""
    why = CUT_BY_GATEWAY.get(response.finish_reason or "")
    if why is None:
        return response
    raise TransientError(
        f'gateway cut the reply off (finish_reason "{response.finish_reason}": {why}), transient', status=503, body=body
    )


CUT_BY_GATEWAY = {
    "insufficient_system_resource": "it ran short of resources mid-answer",
    "network_error": "the model failed mid-answer",
    "error": "the model failed mid-answer",
}
"""`finish_reason`s by which a gateway says it stopped the reply itself for a passing want (DeepSeek's
API reference: "the request is interrupted due to insufficient resource of the inference system";
Zhipu's "network_error", its model's inference failing: 模型推理异常; Mistral's "error", its FinishReason
for a generation stopped by an error, which it sends without an error object: OpenRouter's, beside its
`error` on the choice, is that error's, read before this)."""


def not_empty(response: ChatResponse, body: str = "") -> ChatResponse:
    """`response`, unless its message has no text (null or ""), no tool calls and no refusal:
    then a `BadResponseError` naming `finish_reason` and the likely fix (never retried: the same
    request would most likely get the same nothing)."""
    message = response.message
    if message.content or message.tool_calls or message.refusal:
        return response
    finish = response.finish_reason
    named = f'finish_reason "{" ".join(finish.split())[:40]}"' if finish else "no finish_reason"
    error = BadResponseError(
        f"the model's reply is empty (no text, no tool calls, no refusal; {named}): {_empty_fix(message, finish)}",
        status=200,
        body=body,
    )
    error.hint = (
        "The gateway answered, but with nothing to use; nothing was executed. The message names the likely fix."
    )
    raise error


def _empty_fix(message: AssistantMessage, finish: str | None) -> str:
    """Why a reply is empty and what to do: by its `finish_reason`; else, when the model reasoned
    (DeepSeek's `reasoning_content`, vLLM's `reasoning`) but answered nothing, that; else that it said nothing."""
    if finish in _EMPTY_FIX:
        return _EMPTY_FIX[finish]
    for name in ("reasoning_content", "reasoning"):
        reasoning = message.extra.get(name)
        if isinstance(reasoning, str) and reasoning.strip():
            return (
                f"the model only reasoned ({len(reasoning)} characters of {name}) and gave no answer; run "
                "the cell again, or try another model"
            )
    return _EMPTY_ELSE


_NO_CALL = (
    "it stopped to call a tool, but the gateway sent no call (its tool-call parser found none in what the model "
    "wrote); run the cell again, or try another model or the prompt-protocol fallback"
)
"""An empty reply that stopped to call a tool (vLLM's `"tool_calls": []`)."""
_FILTERED = "the gateway's content filter removed it; rephrase the request, or check the gateway's filter"
_EMPTY_FIX = {
    "length": "it was cut off before any text; raise max_tokens (or max_completion_tokens), or leave it unset",
    "content_filter": _FILTERED,
    "sensitive": _FILTERED,  # Zhipu's (GLM's) content filter
    "tool_calls": _NO_CALL,
    "function_call": _NO_CALL,
    "model_length": (  # Mistral's: the prompt filled the model's context window
        "the conversation filled the model's context window before any text; shorten it (a smaller memory window, "
        "shorter tool results)"
    ),
}
_EMPTY_ELSE = "the model said nothing; run the cell again, or try another model"

_NAMED_STATUS = {
    "rate_limit": 429,
    "rate_limit_exceeded": 429,
    "rate_limit_error": 429,
    "too_many_requests": 429,
    "overloaded": 503,
    "overloaded_error": 503,
    "service_unavailable": 503,
    "server_error": 500,
    "internal_server_error": 500,
    "capacity_exceeded": 498,
    "generation": 424,
    "incomplete_generation": 500,
    "unavailable": 503,
    "resource_exhausted": 429,
    "deadline_exceeded": 504,
    "internal": 500,
}
"""Error codes and types that mean a rate limit or an overload (OpenAI's `server_error` type,
Anthropic-style `overloaded_error`, Groq's `capacity_exceeded`), or a failure on the server's side
(text-generation-inference's `error_type` "generation", its 424, and "incomplete_generation", its
500; Google's `status` names, for an error that gives no numeric `code`), and the HTTP status each
one is treated like."""


_BAIDU_STATUS = {2: 503, 4: 503, 18: 429, 336100: 503, 336501: 429, 336502: 429}
"""Baidu Qianfan's `error_code`s (answered in a 200, beside `error_msg`) that mean an overload or a
rate limit: 2 "Service temporarily unavailable", 4 "Open api request limit reached" (the cluster's),
18 "Open api qps request limit reached", 336100 "try again later", 336501 / 336502 "Rate limit
reached for RPM / TPM"; and the HTTP status each is treated like. Its daily (17) and total (19)
request limits do not pass by waiting: not here."""


def _baidus_status(error: dict[str, Any]) -> tuple[str, int] | None:
    """`named_status` of Baidu Qianfan's error (an `error_code` beside its `error_msg`), or None."""
    code = error.get("error_code")
    if "error_msg" not in error or isinstance(code, bool) or not isinstance(code, int | str):
        return None
    number = int(code) if isinstance(code, int) or code.strip().isdigit() else None
    status = _BAIDU_STATUS.get(number) if number is not None else None
    return (f"error_code {number}", status) if status is not None else None


def transient_status(status: int) -> bool:
    """Whether an HTTP status is retried: 408, 409, TGI's 424, 429, Groq's 498 and every 5xx (see
    `toolkit.chat.client`)."""
    return status in (408, 409, 424, 429, 498) or 500 <= status < 600


def named_status(error: Any) -> tuple[str, int] | None:
    """(how the error names it, the HTTP status) when an error object names a status (`"code":
    502`, `"503"`) or a rate limit or an overload (`"code": "rate_limit_exceeded"`, `"type":
    "server_error"`, Google's `"status": "UNAVAILABLE"`, Baidu Qianfan's `"error_code": 18`); None otherwise."""
    if not isinstance(error, dict):
        return None
    baidus = _baidus_status(error)
    if baidus is not None:
        return baidus
    code = error.get("code")
    if isinstance(code, str) and code.strip().isdigit():
        code = int(code.strip())
    if isinstance(code, int) and not isinstance(code, bool):
        return (f"code {code}", code) if 100 <= code < 600 else None
    for value in (code, error.get("type"), error.get("status")):  # Google's canonical `status` names
        if isinstance(value, str) and value.strip().lower() in _NAMED_STATUS:
            return value.strip(), _NAMED_STATUS[value.strip().lower()]
    return None


def failed_generation(error: Any) -> bool:
    """Whether an error object reports the model's own failed generation, not a bad request: the
    gateway checked the tool call the model wrote and refused it. Groq does so with a 400 whose
    error holds `failed_generation` (what the model wrote) and `"code": "tool_use_failed"`; its
    tool-use guide sends the same request again, and a new generation usually passes. Retried then,
    as transient, on every path (`toolkit.chat.client.triage_status`, `reported_error`).
    text-generation-inference says so with a 422 `"error_type": "tool_error"` (read as `{"type": …}`
    by `error_of`) whose words are about the generated text (`_TGI_GENERATED`), not about the request
    ("Tool with name … not found")."""
    if not isinstance(error, dict):
        return False
    if error.get("type") == "tool_error" and isinstance(error.get("message"), str):
        return bool(_TGI_GENERATED.search(error["message"]))
    return error.get("failed_generation") not in (None, "") or error.get("code") == "tool_use_failed"


_TGI_GENERATED = re.compile(
    r"failed to parse generated text|no function found in generated text|\bat line \d+ column \d+", re.IGNORECASE
)
"""text-generation-inference's words for a generation that is no call: "Failed to parse generated text: …",
"No function found in generated text", serde's "invalid escape at line 3 column 15" on its arguments."""


MALFORMED_CALL = "the model wrote a malformed tool call, transient"
"""How a `failed_generation` error is named in its message, where a status would be."""


def error_detail(error: Any) -> str:
    """What an error object says, on one line: its `message` (or `msg`, as some gateways write it:
    `{"code": 429, "msg": …}`, or Baidu Qianfan's `error_msg`) and what the provider behind a router
    said (`relayed`), a string as it is, else its JSON."""
    if isinstance(error, dict) and (error.get("message") or error.get("msg") or error.get("error_msg")):
        text = str(error.get("message") or error.get("msg") or error["error_msg"])  # Baidu Qianfan's `error_msg`
        text = relayed(error, text)
    elif isinstance(error, str):
        text = unwrapped(error)
    else:
        text = json.dumps(error, ensure_ascii=False, default=str)
    return " ".join(text.split())[:200]


def relayed(error: dict[str, Any], message: str) -> str:
    """`message`, then what the provider behind a router answered when the error carries it: OpenRouter's
    `{"message": "Provider returned error", "metadata": {"raw": …, "provider_name": "OpenAI"}}` reads
    "Provider returned error (OpenAI: <the provider's own message>)"; `raw` is the provider's body (its
    error's message, when it is one in OpenAI's shape) or its text. A LiteLLM proxy's wrapped message reads
    as the provider's own (`toolkit.chat.litellm_errors.unwrapped`)."""
    message = unwrapped(message)
    metadata = error.get("metadata")
    said = _raw_said(metadata.get("raw")) if isinstance(metadata, dict) else ""
    if not said:
        return message
    name = metadata.get("provider_name") if isinstance(metadata, dict) else None
    return f"{message} ({name.strip()}: {said})" if isinstance(name, str) and name.strip() else f"{message} ({said})"


def _raw_said(raw: Any) -> str:
    """The message of a provider's body as a router relays it (text of JSON, or JSON), "" when none."""
    if raw is None or raw == "":
        return ""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):
            return " ".join(raw.split())[:200]
    if isinstance(raw, list) and raw and isinstance(raw[0], dict):  # Google's one-item list
        raw = raw[0]
    if isinstance(raw, dict) and isinstance(raw.get("error"), (dict, str)):
        raw = raw["error"]
    return error_detail(raw)


def reported_error(error: Any, where: str, body: str, status: int | None = None) -> ModelCallError:
    """The error a gateway reported inside a 200 (`where`: "answered 200 with an error", "sent an
    error mid-stream"), worded the same on both paths: a `TransientError` (retried like the status
    it names) when it names a rate limit or an overload — OpenRouter reports `{"code": 502, …}` so —
    or the model's failed generation (`failed_generation`: Groq's refused tool call), an
    `OutOfCreditError` when it says the account has no credit left (`toolkit.chat.credit`; a
    `"code": 402`, or a 429 that says so), a `CallerError` when the model's chat template refused the
    conversation's roles (`toolkit.chat.chat_template`: no retry changes that), else a `BadResponseError`."""
    detail = error_detail(error) or "(no message)"
    named = named_status(error)
    said = named[1] if named is not None else None
    credit = out_of_credit(error, body if said == 429 else "")  # the text decides only for a 429
    if credit is not None or said == 402:
        return OutOfCreditError(f"gateway {where}: {detail} — {credit_fix(credit)}", status=said, body=body)
    if failed_generation(error):
        return TransientError(f"gateway {where} ({MALFORMED_CALL}): {detail}", status=status, body=body)
    roles = _template_words(error)
    if roles is not None:  # LocalAI's stream: the chat template refused the roles, whatever the code says
        refused = f"the model's chat template refused the conversation: {roles}"
        return CallerError(f"gateway {where}: {refused} — {TEMPLATE_HINT}", status=status, body=body)
    if named is not None and transient_status(named[1]):
        error = TransientError(f"gateway {where} ({named[0]}, transient): {detail}", status=named[1], body=body)
        error.retry_after = _said_wait(body, detail)
        return error
    if _over_context(error):  # llama.cpp's, vLLM's context window overrun, said in the stream
        bad = BadResponseError(f"gateway {where}: {detail} — {CONTEXT_HINT}", status=status, body=body)
        bad.hint = "The conversation does not fit the model's context window; the message says what to do."
        return bad
    bad = BadResponseError(f"gateway {where}: {detail}", status=status, body=body)
    bad.hint = "The gateway reported this error itself; the message says what went wrong."
    return bad


def _template_words(error: Any) -> str | None:
    """The chat template's words when the error's whole message says it refused the conversation's roles
    (`toolkit.chat.chat_template`), else None."""
    message = error.get("message") if isinstance(error, dict) else error
    return refused_roles(" ".join(message.split())) if isinstance(message, str) else None


def _over_context(error: Any) -> bool:
    """Whether the error object itself (not the body around it, which may hold the model's words) says
    the conversation outgrew the context window (`toolkit.chat.context_limit`)."""
    try:
        said = error if isinstance(error, str) else json.dumps(error, ensure_ascii=False, default=str)
    except (ValueError, RecursionError):
        return False
    return over_context(said)


def _said_wait(body: str, detail: str) -> float | None:
    """The wait an error reported inside a 200 says (there are no headers of its own): Google's
    `RetryInfo` in the body, else its words ("Please try again in 2s"); None when it says none."""
    wait = said_delay(body)
    return worded_wait(detail) if wait is None else wait


def read_json(text: str, what: str, status: int | None = None) -> Any:
    """`text` as JSON, or a `BadResponseError` saying `what` could not be read (one line). A
    leading byte-order mark is skipped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        bad = BadResponseError(json_fault(text, exc, what), status=status, body=text[:2000])
        if exc.pos > 0 and _breaks_off(text, exc):  # the API's JSON, only cut short: not a wrong LLM_BASE_URL
            bad.hint = CUT_SHORT_HINT
        raise bad from None
    except (ValueError, RecursionError) as exc:  # a number beyond Python's digit limit; nesting beyond the stack
        reason = "it nests too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
        raise BadResponseError(
            f"{what} cannot be read as JSON ({reason}): {text[:200]!r}", status=status, body=text[:2000]
        ) from None


CUT_SHORT_HINT = (
    "The answer arrived cut short (the gateway, or a proxy on the way, stopped writing it); nothing from it was "
    "used, and running the cell again may work."
)


def json_fault(text: str, exc: json.JSONDecodeError, what: str) -> str:
    """What is wrong with `text` as JSON, on one line, quoting the part that says so: an empty body;
    one that breaks off before its JSON is complete (a body cut on the way: its end is quoted, as its
    beginning looks like good JSON); more after a complete value (its rest is quoted); any other
    fault with its place; a body that is no JSON from its first character by that beginning."""
    if not text.strip():
        return f"{what} is empty"
    if exc.msg == "Extra data":
        return f"{what} is not JSON: more follows its JSON value, from character {exc.pos + 1} of {len(text)}: " + repr(
            text[exc.pos :][:80]
        )
    if exc.pos > 0 and _breaks_off(text, exc):
        return (
            f"{what} is not JSON: it breaks off after {len(text)} characters, before its JSON is complete (cut off "
            f"on the way?); it ends with {text[-40:]!r}"
        )
    if exc.pos == 0:
        return f"{what} is not JSON: {text[:200]!r}"
    return f"{what} is not JSON ({exc.msg[:1].lower()}{exc.msg[1:]} at character {exc.pos + 1}): " + repr(
        text[max(0, exc.pos - 60) : exc.pos + 60]
    )


def _breaks_off(text: str, exc: json.JSONDecodeError) -> bool:
    """Whether `text` ends before its JSON does: a string never closed, a value or `,` / `]` still
    due where the text ends, or a `true` / `false` / `null` cut short (`tru`)."""
    rest = text[exc.pos :].rstrip()
    return exc.msg.startswith("Unterminated string") or not rest or rest in _WORD_STARTS


_WORD_STARTS = frozenset(word[:n] for word in ("true", "false", "null") for n in range(1, len(word)))
"""The beginnings of JSON's words, short of the whole word."""


NO_REASON = frozenset(("null", "none"))
"""A `finish_reason` that is the JSON null written as text (DashScope's `"null"` on each chunk before
the last), or Python's None (a relay's `str(None)`): the reply has not said why it stopped."""


def stated_reason(value: Any) -> Any:
    """`value`, a `finish_reason` as a gateway sent it, unless it is the word for none (`NO_REASON`):
    then None, as if the field were absent (a stream cut after it stays cut, a later chunk's reason is
    kept). Anything else is left for the caller's own check."""
    return None if isinstance(value, str) and value.strip().lower() in NO_REASON else value


def _text(value: Any, what: str, numbered: bool = False) -> str | None:
    """`value` if it is a string, None if absent (or empty); anything else is a `BadResponseError`,
    but for an id (`numbered`) written as a whole number (a JSON integer): its digits, as a whole
    reply's call id is read (`ToolCall.from_openai`)."""
    if not value:
        return None
    if isinstance(value, str):
        return value
    if numbered and type(value) is int:
        return str(value)
    raise BadResponseError(f"{what} is not a string: {value!r:.200}")


def _listed(value: Any, what: str) -> list[Any]:
    """`value` if it is a list, `[]` if absent (or empty); anything else is a `BadResponseError`."""
    if not value:
        return []
    if isinstance(value, list):
        return value
    raise BadResponseError(f"{what} is not a list: {value!r:.200}")


def _object(value: Any, what: str) -> dict[str, Any]:
    """`value` if it is an object, `{}` if absent (or empty); anything else is a `BadResponseError`."""
    if not value:
        return {}
    if isinstance(value, dict):
        return value
    raise BadResponseError(f"{what} is not an object: {value!r:.200}")


_LINE_BREAK = re.compile("\r\n|\r|\n")
"""What ends a line of an event stream (the SSE spec's end-of-line): nothing else does."""


def sse_lines(pieces: Iterable[str]) -> Iterator[str]:
    """The lines of an event stream that arrives as `pieces` of text, in any sizes (a CRLF may be
    split between two): each line as soon as its end has come, without its line break. Only CR,
    LF and CRLF end a line (`_LINE_BREAK`), not the other breaks `str.splitlines` knows. A long
    line in many pieces is held as its pieces and joined once."""
    held: list[str] = []
    after_cr = False  # the last piece ended with CR: an LF that begins the next one is its CRLF
    for piece in pieces:
        if after_cr and piece.startswith("\n"):
            piece, after_cr = piece[1:], False
        if not piece:
            continue
        after_cr = piece.endswith("\r")
        parts = _LINE_BREAK.split(piece)
        if len(parts) == 1:
            held.append(piece)
            continue
        held.append(parts[0])
        yield "".join(held)
        yield from parts[1:-1]
        held = [parts[-1]] if parts[-1] else []
    if held:
        yield "".join(held)


_KEPT_LINE = re.compile("[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def kept_lines(text: str) -> list[str]:
    """The lines of a whole event stream, each with its line break (the last may have none), as
    `sse_lines` reads them: joined, they are `text` again."""
    return _KEPT_LINE.findall(text)


def assemble(lines: Iterable[str]) -> Iterator[StreamEvent]:
    """Events for every line, then `StreamDone` (or `TruncatedStreamError`)."""
    assembler = StreamAssembler()
    for line in lines:
        yield from assembler.feed_line(line)
    yield StreamDone(assembler.finish())
