"""The conversation view: every message as a card, each tool result under the call it answers.

Pure renderers (unit-tested, stable under nbval):
- `render_conversation_html(messages, usage, title)`: system / user / assistant cards; an
  assistant's tool calls as tool-call cards (arguments pretty-printed, or shown raw with an
  "invalid JSON" or "nested deeper than 100 levels" badge); each tool result inside the card
  of the call it answers (by `tool_call_id`, the most recent earlier call with that id); a
  result that answers no call gets its own card and an "answers no tool call" badge; error
  results in red; a result's `attributes` in small print, marked "not sent to the model";
  token usage at the end. Images
  (a user message's, or data URLs in attributes) show as markers, `[image 1: image/png, 1.2 KB]`,
  never as base64; the user message the loop wrote to carry tool images is titled so.
- `render_conversation_text(messages, usage)`: the same conversation as a short transcript.

An assistant reply's thinking, sent apart from its answer (`reasoning_content`, `reasoning`,
`reasoning_details`, `thinking_blocks`: `toolkit.chat.reasoning_fields.reasoning_text`), shows
before it: its first `THINKING_SHOWN` characters in the card, one line in the transcript
(`assistant (thinking): …`). Thinking written into the answer (`<think>…</think>`) stays in the
text, as it was said.

Both mask the secrets in every message's text, thinking, refusal and tool-call arguments
(`redact.scrub_secrets`), as the trace masks what a tool or the model wrote: a tool returning
`DB_PASS=…`, a model repeating a key. Paths are kept: the view shows the conversation as it went.

Messages are records or OpenAI wire dicts. A dict the toolkit cannot read as a message (a
deprecated `function` role, a tool result without `tool_call_id`, content that is not text) and anything
else that is not a message is shown where it stood, as a warning card with the reason and the
raw value (a transcript line in text) — never dropped, never raised.
- `render_response_html(response)`: one model response (finish reason, usage, the message).

Thin ipywidgets wrappers: `HtmlView` (an `ipywidgets.HTML` whose notebook output also carries
the HTML as `text/html` and a transcript as `text/plain`, so a saved notebook stays readable
without a widget manager and nbval compares only deterministic text), and `ConversationView`,
with `.update(messages, usage)` for live updates.

More than 1,000 messages show as the first and last 500 and a note naming the rest
(`toolkit.views.html.kept`); a result whose call is left out is shown on its own.

Leaves out: streaming partial messages, editing, collapsing long conversations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

import ipywidgets as widgets
from pydantic import ValidationError

from toolkit.chat.images import human_size, image_marker, inspect_image
from toolkit.chat.messages import (
    MESSAGE_TYPES,
    AssistantMessage,
    ChatResponse,
    Message,
    TokenUsage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    message_from_openai,
    tokens_text,
)
from toolkit.chat.reasoning_fields import reasoning_text
from toolkit.chat.sources import Source
from toolkit.errors import ConfigurationError, a_kind_of, a_or_an
from toolkit.loop.result_size import READ_PAST, scrubbed_cut, scrubbed_head
from toolkit.tools import redact
from toolkit.unicode import cut
from toolkit.views.html import (
    SHOWN_CHARS,
    Html,
    badge,
    card,
    code_block,
    element,
    flat_name,
    join,
    json_problem,
    json_text,
    kept,
    kv_table,
    page,
    pretty_json,
    read_json,
    showable,
    showable_bundle,
    small,
    table,
    text_block,
)

NOT_SENT = "not sent to the model"
ORPHAN = "answers no tool call"


# 1. Pair each tool result with the call it answers.


UNREADABLE = "not a message this view can read"
TOO_DEEP_TO_READ = "nested too deep to read"


@dataclass(frozen=True)
class Unreadable:
    """An item of a conversation that is not a message the toolkit can read: shown, not dropped."""

    value: Any
    reason: str
    """One line: what is wrong with it."""


def _as_messages(messages: Iterable[Message | dict[str, Any]]) -> list[Message | Unreadable]:
    """Records as they are; OpenAI wire dicts parsed into records; anything else `Unreadable`;
    the secrets in a message's texts masked (`secrets_masked`)."""
    return [secrets_masked(_as_message(m)) for m in conversation_items(messages)]


def secrets_masked(message: Message | Unreadable) -> Message | Unreadable:
    """`message` with the secrets in its text, refusal and calls' arguments masked
    (`redact.scrub_secrets`), as the trace masks what a tool or the model wrote; its paths kept (the
    view shows the conversation as it went); itself when none holds a secret."""
    if isinstance(message, Unreadable):
        return message
    update: dict[str, Any] = {}
    for field in ("content", "refusal"):
        text = getattr(message, field, None)
        if isinstance(text, str) and (masked := redact.scrub_secrets(text)) != text:
            update[field] = masked
    if isinstance(message, AssistantMessage) and message.tool_calls:
        calls = tuple(_call_masked(call) for call in message.tool_calls)
        if calls != message.tool_calls:
            update["tool_calls"] = calls
    return message.model_copy(update=update) if update else message


def _call_masked(call: ToolCall) -> ToolCall:
    masked = redact.scrub_secrets(call.arguments)
    return call if masked == call.arguments else call.model_copy(update={"arguments": masked})


def _as_message(item: Any) -> Message | Unreadable:
    if isinstance(item, Unreadable):
        return item
    if isinstance(item, MESSAGE_TYPES):
        return item
    if not isinstance(item, dict):
        return Unreadable(item, f"a {type(item).__name__}, not a message record or an OpenAI message dict")
    try:
        return message_from_openai(item)
    except (ValidationError, KeyError, ValueError, TypeError, AttributeError) as error:
        return Unreadable(item, _set_reason(item) or _reason(error))
    except RecursionError:  # the reader walks (and quotes) what it was given, without a bound
        return Unreadable(item, TOO_DEEP_TO_READ)


def _reason(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        if first["type"] == "missing" and where:
            return f"the {where!r} field is missing"
        return f"{where}: {first['msg']}" if where else first["msg"]
    if isinstance(error, KeyError):
        return f"the {error.args[0]!r} field is missing"
    return str(error) or type(error).__name__


def _set_reason(item: dict[str, Any]) -> str | None:
    """The reason for a dict that holds a set, named as a set and not listed: the errors quote the
    value as its repr, in hash order (another in each process, so the view's text changed from run
    to run). Looked for only once the dict failed to read as a message."""
    where = _set_in(item, "", 0)
    if where is None:
        return None
    return f"{where} is a set, which has no order and no JSON form: a message holds text, lists and objects"


def _set_in(value: Any, where: str, depth: int) -> str | None:
    """Where the first set in `value` is (`tool_calls[0].function`), or None; dicts and lists are
    looked into in their order, so the answer is the same in every process."""
    if isinstance(value, (set, frozenset)):
        return where or "the message"
    if depth > 20:
        return None
    if isinstance(value, dict):
        children = [(f"{where}.{key}" if where else str(key), child) for key, child in value.items()]
    elif isinstance(value, (list, tuple)):
        children = [(f"{where}[{i}]", child) for i, child in enumerate(value)]
    else:
        return None
    return next((found for path, child in children if (found := _set_in(child, path, depth + 1)) is not None), None)


def conversation_items(messages: Any) -> list[Any]:
    """What a view was given as the conversation, as a list to show: a `LoopResult` (or anything
    with a `messages` list) shows its messages; one message, one dict or a str is one item (a str
    was shown letter by letter); None, a number, a memory, a service's `Result` or a loop's
    error is one `Unreadable` item saying what to pass (`memory.messages()`,
    `result.loop.messages`, `error.loop_result.messages`), and so is a set (it was shown in
    hash order, another in each process: a set of messages has no order to show them in, and
    guessing one would show a conversation that never happened)."""
    if type(messages) is list:
        return messages
    held = getattr(messages, "messages", None)
    if isinstance(held, list):  # a LoopResult: its conversation
        return held
    if isinstance(messages, (str, bytes, dict, *MESSAGE_TYPES)):
        return [messages]
    if not isinstance(messages, Iterable):
        reason = f"a {type(messages).__name__}, not a list of messages: pass {_where_messages_are(messages)}"
        return [Unreadable(messages, reason)]
    if isinstance(messages, (set, frozenset)):
        reason = (
            f"a {type(messages).__name__}, which has no order, not a list of messages: pass them in a list, "
            "in the conversation's order (e.g. ConversationView(result.messages))"
        )
        return [Unreadable(messages, reason)]
    return list(messages)


def _where_messages_are(value: Any) -> str:
    """The call that gives `value`'s conversation: a memory's `messages()`, a service's `Result`'s
    `loop.messages`, a loop error's `loop_result.messages`, else a `LoopResult`'s `messages` (the
    fix a learner is told)."""
    if callable(getattr(value, "messages", None)):
        return "ConversationView(memory.messages())"
    if isinstance(getattr(getattr(value, "loop", None), "messages", None), list):
        return "ConversationView(result.loop.messages)"
    if isinstance(getattr(getattr(value, "loop_result", None), "messages", None), list):
        return "ConversationView(error.loop_result.messages)"
    return "ConversationView(result.messages)"


def check_usage(usage: Any, where: str) -> None:
    """`usage=` takes a `TokenUsage` (a subclass too): a str or a dict was a raw `AttributeError`
    (`'dict' object has no attribute 'input_tokens'`) from inside the view."""
    if isinstance(usage, TokenUsage):
        return
    fix = "pass usage=result.usage (a TokenUsage), or leave it out"
    if isinstance(usage, dict):
        fix += "; an OpenAI usage dict becomes one with TokenUsage.from_openai(usage)"
    kind = type(usage).__name__
    raise ConfigurationError(f"{where}: usage= takes a TokenUsage, and got {a_or_an(kind)}; {fix}")


def _raw(value: Any) -> str:
    """An item's raw value as JSON, its images and other base64 data as markers (`blobs_marked`)."""
    return blobs_marked(value)


def pair_results(messages: list[Message | Unreadable]) -> tuple[dict[tuple[int, int], list[int]], list[int]]:
    """`(answers, orphans)`. `answers[(i, j)]` lists the indices of the results answering call `j`
    of message `i` (a result answers the most recent earlier call with its `tool_call_id`);
    `orphans` lists the indices of results that answer no call.

    When one message holds several calls with the same id (a gateway that sends none, or
    `call_0` for each), its results answer them one each: the first unanswered call of the
    result's `tool_name`, else the first unanswered one; a result past them answers the last."""
    waiting: dict[str, list[tuple[int, int, str]]] = {}  # id → unanswered calls of its latest message
    latest: dict[str, tuple[int, int]] = {}
    answers: dict[tuple[int, int], list[int]] = {}
    orphans: list[int] = []
    for i, message in enumerate(messages):
        if isinstance(message, AssistantMessage):
            calls: dict[str, list[tuple[int, int, str]]] = {}
            for j, call in enumerate(message.tool_calls):
                calls.setdefault(call.id, []).append((i, j, call.name))
                latest[call.id] = (i, j)
            waiting.update(calls)
        elif isinstance(message, ToolResultMessage):
            if message.tool_call_id not in latest:
                orphans.append(i)
                continue
            answers.setdefault(_answered(message, waiting, latest), []).append(i)
    return answers, orphans


def _answered(
    result: ToolResultMessage, waiting: dict[str, list[tuple[int, int, str]]], latest: dict[str, tuple[int, int]]
) -> tuple[int, int]:
    """The call `result` answers, taken off the unanswered calls with its id."""
    queue = waiting.get(result.tool_call_id) or []
    if not queue:
        return latest[result.tool_call_id]
    picked = next((c for c in queue if c[2] == result.tool_name), queue[0]) if result.tool_name else queue[0]
    queue.remove(picked)
    return picked[0], picked[1]


# 2. HTML for each kind of message.


def image_markers(images: Iterable[str]) -> str:
    """`[image 1: image/png, 1.2 KB] [image 2: …]`: images as a view shows them; a link's secrets
    (`https://alice:pw@cdn/…`, `?token=…`) scrubbed (`toolkit.tools.redact.scrub`), as the trace
    promises of everything a tool returns."""
    return " ".join(image_marker(_link_scrubbed(url), n) for n, url in enumerate(images, 1))


def _link_scrubbed(url: str) -> str:
    """An http(s) image URL scrubbed; a data URL as it is (its marker reads its type and size)."""
    return redact.scrub(url) if isinstance(url, str) and url.startswith(("http://", "https://")) else url


BLOB_CHARS = 256
"""A string of at least this many characters, all of base64's alphabet, is shown as a marker."""
_BASE64_RUN = re.compile(r"(?:data:[^,]{0,200},)?[A-Za-z0-9+/=_\-\r\n]+")
"""Base64 (standard or URL-safe, maybe wrapped in lines: no spaces, which words have), maybe after a
data URL's header."""


def blobs_marked(value: Any) -> str:
    """`value` as JSON (`json_text`) with its base64 payloads as markers, never their text: a data
    URL of an image as its `image_marker` (numbered in order), of anything else (an audio clip)
    `[data: audio/wav, 2.0 KB]`, and any other run of base64 (`input_audio`'s data, a data URL
    wrapped in lines) of `BLOB_CHARS` or more `[base64 data: 8,000 characters]`. Other strings (`data: 3 rows`) stay as they are."""
    counter = [0]

    def marked(text: str) -> str:
        info = inspect_image(text) if text.startswith("data:") else None
        if info is not None and info.mime is not None and info.size is not None:  # base64 that decodes
            if not info.mime.startswith("image/"):
                return f"[data: {info.mime}, {human_size(info.size)}]"
            counter[0] += 1
            return image_marker(text, counter[0])
        if len(text) >= BLOB_CHARS and _BASE64_RUN.fullmatch(text):
            return f"[base64 data: {len(text):,} characters]"
        return text

    return json_text(value, strings=marked)


def _attribute_text(value: Any) -> str:
    """An attribute's value as JSON, its images and base64 data as markers (`blobs_marked`)."""
    return blobs_marked(value)


def _attributes_html(attributes: dict[str, Any]) -> Html:
    if not attributes:
        return Html("")
    rows = [(key, _attribute_text(attributes[key])) for key in sorted(attributes)]
    return element("div", "small", join(["attributes ", badge(NOT_SENT, "info"), kv_table(rows)]))


def _content_html(content: str) -> Html:
    """Result text as text, or as pretty JSON when it is a JSON object or array."""
    pretty = pretty_json(content)
    return code_block(content) if pretty is not None and content.lstrip()[:1] in "{[" else text_block(content)


def _result_html(result: ToolResultMessage, call_name: str = "?", orphan: bool = False) -> Html:
    kind = "error" if result.is_error else ("warn" if orphan else "tool")
    title = [f"tool result · {result.tool_name or call_name}"]
    title += [badge("error", "error")] if result.is_error else []
    title += [badge(ORPHAN, "warn"), badge(result.tool_call_id, "info")] if orphan else []
    return card(join(title, " "), _content_html(result.content) + _attributes_html(result.attributes), kind)


def _arguments_problem(arguments: str) -> str | None:
    """What is wrong with a call's arguments for a view (`json_problem`); blank arguments are none
    (the executor reads them as `{}`: a gateway sends `""` for a tool without parameters)."""
    return None if not arguments.strip() else json_problem(arguments)


def _call_html(call: ToolCall, results: list[ToolResultMessage], show_missing: bool) -> Html:
    problem = _arguments_problem(call.arguments)
    title = [f"tool call · {call.name}", badge(call.id, "info")]
    title += [] if problem is None else [badge(problem, "error")]
    body = code_block(call.arguments) + join(_result_html(r, call.name) for r in results)
    if show_missing and not results:
        body += small("no result yet")
    return card(join(title, " "), body, "tool")


def _assistant_html(
    message: AssistantMessage, results: list[list[ToolResultMessage]], show_missing: bool = True
) -> Html:
    """The assistant card; `results[j]` are the results answering `message.tool_calls[j]`."""
    text = text_block(message.content) if message.content else Html("")
    if not message.content and message.refusal:  # OpenAI's refusal, sent instead of content
        text = small("refusal") + text_block(message.refusal)
    elif not message.content and not message.tool_calls:
        text = small("(empty reply)")
    calls = join(_call_html(c, r, show_missing) for c, r in zip(message.tool_calls, results))
    return card("assistant", _thinking_html(message) + text + calls, "assistant")


THINKING_SHOWN = 2_000
"""How many characters of a reply's thinking its card shows (a reasoning model thinks for pages)."""


def _thinking(message: AssistantMessage) -> str:
    """The thinking a reply sent apart from its answer, secrets masked ("" when none)."""
    thought = reasoning_text(message.extra) if message.extra else ""
    return redact.scrub_secrets(thought) if thought else ""


def _thinking_html(message: AssistantMessage) -> Html:
    """A reply's thinking before its answer, its start if long, marked as thinking; nothing when none."""
    thought = _thinking(message)
    if not thought:
        return Html("")
    more = f" · first {THINKING_SHOWN:,} of {len(thought):,} characters" if len(thought) > THINKING_SHOWN else ""
    return small(f"thinking (not the answer){more}") + text_block(cut(thought, THINKING_SHOWN))


def _user_images_html(message: UserMessage) -> Html:
    title = "user · images the tools returned" if message.from_tool_calls else "user"
    body = text_block(message.content) if message.content else Html("")
    return card(title, body + small(image_markers(message.images)), "user")


def _unreadable_html(item: Unreadable) -> Html:
    """The item where it stood: the reason, and the raw value as JSON."""
    return card(join([UNREADABLE, badge(item.reason, "warn")], " "), code_block(_raw(item.value)), "warn")


def _usage_html(usage: TokenUsage) -> Html:
    rows = [[tokens_text(usage.input_tokens), tokens_text(usage.output_tokens), tokens_text(usage.total_tokens)]]
    return card("token usage", table(["input", "output", "total"], rows), "info")


# 3. Whole views.


def render_conversation_html(
    messages: Iterable[Message | dict[str, Any]], usage: TokenUsage | None = None, title: str | None = None
) -> str:
    """The conversation as HTML: one card per message, results under their calls, usage last."""
    items = _as_messages(messages)
    answers, orphan_list = pair_results(items)
    orphans = set(orphan_list)
    shown = kept(len(items), "messages")
    drawn = {i for i in shown if isinstance(i, int)}
    call_of = {k: (i, j) for (i, j), results in answers.items() for k in results}
    parts: list[Html] = []
    for i in shown:
        if isinstance(i, str):
            parts.append(small(i))
            continue
        message = items[i]
        if isinstance(message, ToolResultMessage) and i in call_of and call_of[i][0] not in drawn:
            parts.append(_result_html(message, _call_name(items[call_of[i][0]], call_of[i][1])))  # its call is left out
        elif isinstance(message, AssistantMessage):
            results = [
                [m for k in answers.get((i, j), []) if isinstance(m := items[k], ToolResultMessage)]
                for j in range(len(message.tool_calls))
            ]
            parts.append(_assistant_html(message, results))
        elif isinstance(message, ToolResultMessage):
            parts += [_result_html(message, orphan=True)] if i in orphans else []
        elif isinstance(message, UserMessage) and (message.images or message.from_tool_calls):
            parts.append(_user_images_html(message))
        elif isinstance(message, Unreadable):
            parts.append(_unreadable_html(message))
        else:
            parts.append(card(message.role, text_block(message.content), message.role))
    parts += [small("(no messages)")] if not items else []
    parts += [_usage_html(usage)] if usage is not None else []
    return str(page(join(parts), title))


def check_response(response: object, where: str) -> None:
    """A `ConfigurationError` unless `response` is a `ChatResponse` (a readable line, not "'NoneType'
    object has no attribute 'finish_reason'")."""
    if not isinstance(response, ChatResponse):
        raise ConfigurationError(
            f"{where}(): takes one ChatResponse (what client.chat(...) returns), and got {a_kind_of(response)}; "
            "for a list of messages use ConversationView(messages), for a loop's result TraceView(result)"
        )


def source_lines(sources: Iterable[Source]) -> str:
    """The sources a reply cites, one numbered line each (`[1] title (date) — url`), secrets masked."""
    return "\n".join(redact.scrub_secrets(source.line(n)) for n, source in enumerate(sources, 1))


def render_response_html(response: ChatResponse) -> str:
    """One model response: why it stopped, what it cost, and the message (calls without results)."""
    check_response(response, "render_response_html")
    finish = response.finish_reason or "none"
    kinds = {"stop": "ok", "tool_calls": "tool", "length": "warn", "model_length": "warn", "content_filter": "error"}
    u = response.usage
    rows: list[tuple[str, Html | str]] = [("finish reason", badge(finish, kinds.get(finish, "info")))]
    rows += [("model", response.model)] if response.model else []
    rows += [("tokens", u.line())]
    message = cast(AssistantMessage, secrets_masked(response.message))
    no_results: list[list[ToolResultMessage]] = [[] for _ in message.tool_calls]
    body = kv_table(rows) + _assistant_html(message, no_results, show_missing=False)
    if response.sources:  # the pages the answer's [1], [2] cite (Perplexity's)
        body += card("sources", text_block(source_lines(response.sources)), "info")
    return str(page(body, "model response"))


# 4. The transcript (text/plain).


def one_line(text: str, limit: int = 200) -> str:
    """`text` on one line (whitespace collapsed), cut to `limit` characters with "…"; shared by
    every view's text/plain transcript. A character that acts instead of being seen is written
    as its code point (`toolkit.views.html.showable`). The cut ends where a character a reader
    sees ends (`toolkit.unicode.cut`), and never inside a written code point (`⟨U+2…`)."""
    flat = showable(" ".join(text.split()))
    if len(flat) <= limit:
        return flat
    kept = cut(flat, limit)[:-1]
    return _PARTIAL_CODE_POINT.sub("", kept) + "…"


def scrubbed_text(text: str) -> str:
    """`redact.scrub(text)`; of a text longer than a view shows (`SHOWN_CHARS`), a head scrubbed and
    cut as `shortened` cuts (`toolkit.loop.result_size.scrubbed_cut`, the walk the model's cut takes
    too), its marker counting the text's own length: a tool's 10 MB result was scrubbed whole (up to
    a minute) for 250 KB shown."""
    if len(text) <= SHOWN_CHARS:
        return redact.scrub(text)
    return scrubbed_cut(text, SHOWN_CHARS, redact.scrub, _not_shown)


def _not_shown(total: int, kept: int) -> str:
    """The marker after a text a view cut (`toolkit.views.html.shortened`'s)."""
    return f"…({total - kept:,} more characters not shown)"


def scrubbed_line(text: str, limit: int) -> str:
    """`one_line(redact.scrub(text), limit)`, scrubbing only as much of a long text as the line can
    show (`toolkit.loop.result_size.scrubbed_head`): a 10 MB result was scrubbed whole (up to a
    minute) for a line of 60 characters. The head read grows until, whitespace collapsed, it is
    `READ_PAST // 2` past the line: a secret cut where the read stopped never reaches the line."""
    read = limit
    while True:
        head, whole = scrubbed_head(text, read, redact.scrub)
        if whole or len(" ".join(head.split())) >= limit + READ_PAST // 2:
            return one_line(head, limit)
        read *= 4


_PARTIAL_CODE_POINT = re.compile(r"⟨(?:U(?:\+[0-9A-F]{0,6})?)?$")
"""The start of a `⟨U+202E⟩` a cut left at the end of a text."""


def _call_text(call: ToolCall) -> str:
    """`assistant → name({...})`; arguments that are not JSON (NaN and Infinity are not) or
    nest too deep to read are shown raw and marked, as the HTML's badge marks them."""
    problem = _arguments_problem(call.arguments)
    if problem is not None or not call.arguments.strip():
        return f"assistant → {flat_name(call.name)}({one_line(call.arguments)})" + (f" [{problem}]" if problem else "")
    return f"assistant → {flat_name(call.name)}({one_line(json_text(read_json(call.arguments)))})"


def _call_name(message: Message | Unreadable, j: int) -> str:
    return message.tool_calls[j].name if isinstance(message, AssistantMessage) else "?"


def _message_text(message: Message | Unreadable, call_name: str, orphan: bool) -> list[str]:
    """The transcript lines of one item; `call_name` names the call a tool result answers."""
    if isinstance(message, Unreadable):
        return [f"({UNREADABLE}: {message.reason}) {one_line(_raw(message.value))}"]
    if isinstance(message, AssistantMessage):
        lines = [f"assistant: {one_line(message.content)}"] if message.content else []
        if not message.content and message.refusal:
            lines = [f"assistant (refusal): {one_line(message.refusal)}"]
        lines += [_call_text(c) for c in message.tool_calls]
        thought = _thinking(message)
        return [f"assistant (thinking): {one_line(thought)}"] * bool(thought) + (lines or ["assistant: (empty reply)"])
    if isinstance(message, ToolResultMessage):
        name = flat_name(message.tool_name or call_name)
        flags = " error" * message.is_error + f" ({ORPHAN})" * orphan
        return [f"tool[{name}]{flags}: {one_line(message.content)}"]
    if isinstance(message, UserMessage) and message.from_tool_calls:  # its text names call ids: not shown
        return [f"user (images the tools returned): {image_markers(message.images)}"]
    if isinstance(message, UserMessage) and message.images:
        return [f"user: {one_line(' '.join(filter(None, [message.content, image_markers(message.images)])))}"]
    return [f"{message.role}: {one_line(message.content)}"]


def render_conversation_text(messages: Iterable[Message | dict[str, Any]], usage: TokenUsage | None = None) -> str:
    """A short transcript, one line per message or tool call; deterministic (no ids)."""
    items = _as_messages(messages)
    answers, orphan_list = pair_results(items)
    orphans = set(orphan_list)
    names = {k: _call_name(items[i], j) for (i, j), results in answers.items() for k in results}
    lines = [
        line
        for i in kept(len(items), "messages")
        for line in ([i] if isinstance(i, str) else _message_text(items[i], names.get(i, "?"), i in orphans))
    ]
    if usage is not None:
        lines.append(
            f"tokens: input {tokens_text(usage.input_tokens)}, output {tokens_text(usage.output_tokens)}, "
            f"total {tokens_text(usage.total_tokens)}"
        )
    return showable("\n".join(lines)) or "(no messages)"


# 5. The ipywidgets wrappers.


class TextRepr:
    """A widget view whose `repr` (a python REPL, `print(view)`, a log) is its text/plain fallback,
    acting characters as code points: ipywidgets' own repr dumped the HTML source on one line (a
    trace: 8 KB of `TraceView(value='<div class="tk" style=...`)."""

    _bundling = False
    """True while ipywidgets builds its bundle: its text/plain is `repr(self)`, which the view's
    `_repr_mimebundle_` replaces, so the text is not worked out twice for one display."""

    def _plain_text(self) -> str:
        """The view's text/plain fallback."""
        raise NotImplementedError

    def _widget_bundle(self, **kwargs: Any) -> dict[str, Any]:
        """ipywidgets' bundle for this widget (its live view's entry)."""
        self._bundling = True
        try:
            return widgets.DOMWidget._repr_mimebundle_(self, **kwargs) or {}
        finally:
            self._bundling = False

    def __repr__(self) -> str:
        return type(self).__name__ if self._bundling else showable(self._plain_text())


class HtmlView(TextRepr, widgets.HTML):
    """An `ipywidgets.HTML` whose notebook output also carries `text/html` (the same HTML) and
    `text/plain` (a given summary), next to the live widget view ipywidgets adds. JupyterLab
    shows the widget while the kernel runs and the HTML in a saved, untrusted notebook."""

    def __init__(self, html: str = "", text: str = "", **kwargs: Any) -> None:
        super().__init__(value=html, **kwargs)
        self._text = text

    def show(self, html: str, text: str) -> None:
        """Replace what the view shows (a live widget redraws at once)."""
        self._text = text
        self.value = html

    def _plain_text(self) -> str:
        return self._text

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = self._widget_bundle(**kwargs)  # widget-view+json
        return showable_bundle({**bundle, "text/plain": self._text, "text/html": self.value})


class ConversationView(HtmlView):
    """A live conversation view: `ConversationView(messages, usage)`, then `.update(...)`."""

    def __init__(
        self,
        messages: Iterable[Message | dict[str, Any]] = (),
        usage: TokenUsage | None = None,
        title: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._title = title
        self.update(messages, usage)

    def update(self, messages: Iterable[Message | dict[str, Any]], usage: TokenUsage | None = None) -> None:
        """Show `messages` (and `usage`) instead of what was shown before."""
        if usage is not None and type(usage) is not TokenUsage:
            check_usage(usage, "ConversationView")
        messages = conversation_items(messages)
        self.show(render_conversation_html(messages, usage, self._title), render_conversation_text(messages, usage))
