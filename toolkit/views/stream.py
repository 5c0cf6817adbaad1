"""The stream view: a streamed call as it happens — text as it arrives, each tool call as a card.

    view = StreamView("SN202610200001 到哪了？")
    view.display()                                     # shown now, filled as events arrive
    result = view.consume(assistant.stream("u1", "帮我查一下订单 SN202610200001 现在到哪了？"))

Pure renderers (unit-tested, stable under nbval):

- `fold_events(events)`: the events as segments, in arrival order. A run of `TextDelta`s is one
  text segment; a tool call is one tool segment that goes *asked* (its `ToolCallDelta`s, the
  arguments still arriving) → *running* (`ToolStarted`) → *done* (`ToolFinished`, its result).
- `render_stream_html(events, result, error)`: the segments as cards, then a status line:
  streaming…, done (finish reason, tokens) or stopped (the exception, and every call it left
  unexecuted marked "not executed", one it cut off while running "not finished").
- `render_stream_text(...)`: the same as a short transcript; `event_lines(events)`: each event as
  one line, for printing the raw event list (`event_line(event)`: one event alone).

`StreamView` (an `HtmlView`): `.push(event)` redraws the live widget; `.consume(stream)` pushes
every event of a `TokenStream`; both draw at most every `REDRAW_EVERY` seconds while text pours in
(a piece that comes sooner is drawn with the next drawing, or when the view is read: its `value`,
its text, its display, the end of the cell),
then shows the result — or the error, and re-raises it; a `TokenStream` closed mid-turn (`close()`:
a stop button, a tool) ends with no result and shows "stopped", not "done". A view whose stream
is over starts the next one at the next `push` or `consume` (one stream a view: a retry is not
joined to the broken stream, under its status). After
`.display()` the cell's stored output is refreshed when the stream ends, so a saved notebook
shows the final state (text/html and text/plain), not the empty view the cell started with.
A push folds in only the new event (`EventFold`, which collects text fragments in a list and
joins them when drawing) and redraws only the segments whose card changed, so a stream's
events are folded once each instead of all again on every push.

More than 1,000 parts (text runs and tool calls) show as the first and last 500 and a note naming
the rest (`toolkit.views.html.kept`), in the renderers and the live view alike: a stream of
thousands of calls made a page of megabytes, drawn again on every event. A text or arguments
longer than `SHOWN_CHARS` is cut there, in the transcript as in the cards.

No call ids (a real gateway's are random) and no timings, so the output is deterministic. Text,
arguments, results and the text of the error that stopped the stream are scrubbed as in the
trace view (`toolkit.tools.redact.scrub`): a tool that returns a secret, a model that repeats
it, or a connection error that quotes it leaves none in the view. While text (or a call's
arguments) still arrives, its last run is not shown (`toolkit.tools.redact_stream.settled`): the
first half of a key split over two deltas never appears, not even for a moment; `event_lines`
scrubs each run of deltas as one stream (`StreamScrubber`).

Leaves out: async streams, cancelling a stream from the view, token-by-token replay of a saved
notebook (its stored output is the end state).
"""

from __future__ import annotations

import bisect
import functools
import time
import weakref
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from traitlets import Unicode

from toolkit.chat.sse import StreamDone, TextDelta, ToolCallDelta, _named
from toolkit.errors import ConfigurationError, a_kind_of
from toolkit.loop.records import LoopEvent, ToolFinished, ToolStarted
from toolkit.loop.saga import ToolExecution
from toolkit.services.results import Result, TokenStream
from toolkit.tools import redact
from toolkit.tools.redact_stream import StreamScrubber, settled
from toolkit.views.conversation import HtmlView, one_line, scrubbed_line, scrubbed_text
from toolkit.views.html import (
    Html,
    badge,
    card,
    code_block,
    element,
    flat,
    flat_name,
    join,
    json_text,
    kept,
    kv_table,
    page,
    read_json,
    shortened,
    showable,
    small,
    text_block,
    without_addresses,
)
from toolkit.views.trace import NOT_FINISHED, execution_status

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
REDRAW_EVERY = 0.05
"""Seconds: `StreamView.consume` draws pieces of text that come sooner than this after the last
drawing with the next one (twenty drawings a second look continuous)."""
_clock = time.monotonic

CLOSED = (
    "the stream was closed before its end (its close(): a stop button, a tool, another thread), so it has no answer"
)
"""The status detail of a `TokenStream` that `StreamView.consume` read to a quiet end without its
result: closed mid-turn, nothing raised (the view said "done", as if the turn had answered)."""

ERROR_CHARS = 1_000
"""Most characters of the status line's detail in the transcript (an error may quote a whole body)."""

CURSOR = "▍"
"""Shown after the last text while the stream is still running."""


# 1. Events → segments.


@dataclass
class TextSegment:
    """Consecutive text deltas, joined."""

    text: str


@dataclass
class ToolSegment:
    """One tool call, from its first delta to its result."""

    name: str
    """As far as it has arrived: pieces joined as the stream's assembler joins them (`""` while
    no delta has named the call; shown as `?`)."""
    arguments: str
    """As far as they have arrived (complete from `ToolStarted` on)."""
    state: str = "asked"
    """`asked` (the model is still writing the call), `running` or `done`."""
    execution: ToolExecution | None = None
    """Set when done."""
    call_id: str | None = None
    """Only to match events to the segment; never shown."""


Segment = TextSegment | ToolSegment


def fold_events(events: Iterable[LoopEvent]) -> list[Segment]:
    """The events as text and tool segments, in the order they first appeared."""
    _given_events(events, "fold_events")
    fold = EventFold()
    for event in events:
        fold.add(event)
    return fold.segments()


EVENT_TYPES = (TextDelta, ToolCallDelta, ToolStarted, ToolFinished, StreamDone)
"""What a stream view folds: a loop's events, and a chat stream's `StreamDone` (which adds nothing)."""


def check_event(event: object) -> None:
    """A `ConfigurationError` unless `event` is one of `EVENT_TYPES` (a str from `stream.text()`,
    a dict or None was dropped without a word: the view said "done" and showed nothing)."""
    if not isinstance(event, EVENT_TYPES):
        raise ConfigurationError(
            "stream view: each event is a TextDelta, ToolCallDelta, ToolStarted or ToolFinished, and got "
            f"{a_kind_of(event)} (stream.text() yields the text alone); pass the stream itself, e.g. "
            "view.consume(assistant.stream('u1', question))"
        )


class EventFold:
    """`fold_events` one event at a time: `add(event)`, then `segments()` for the fold so far.

    Linear in the events: text and argument fragments are kept in lists and joined only when
    `segments()` is read, and a call's segments are found by its id, not by a scan."""

    def __init__(self) -> None:
        self._segments: list[Segment] = []
        self._writing: dict[int, ToolSegment] = {}  # the calls of the reply still streaming, by delta index
        self._calls: dict[str | None, list[ToolSegment]] = {}  # every tool segment, by call id
        self._unjoined: dict[int, tuple[Segment, list[str]]] = {}  # id(segment) → (it, fragments to append)
        self._position: dict[int, int] = {}  # id(tool segment) → its place in `_segments`

    def add(self, event: LoopEvent) -> None:
        """Fold one more event in."""
        if isinstance(event, TextDelta):
            self._add_text(event.text)
        elif isinstance(event, ToolCallDelta):
            self._add_delta(event)
        elif isinstance(event, ToolStarted):
            self._writing.clear()  # tools run only once the reply is complete
            segment = self._tool(event.call.id, event.call.name, ("asked",))
            self._replace_arguments(segment, event.call.arguments)
            segment.name, segment.state = event.call.name, "running"
        elif isinstance(event, ToolFinished):
            call = event.execution.call
            segment = self._tool(call.id, call.name, ("running", "asked"))
            self._replace_arguments(segment, call.arguments)
            segment.state, segment.execution = "done", event.execution
        else:
            check_event(event)  # a chat stream's end folds to nothing; anything else was dropped

    def segments(self) -> list[Segment]:
        """The segments so far, every fragment joined (the list itself: later events change it)."""
        for segment, fragments in self._unjoined.values():
            if isinstance(segment, TextSegment):
                segment.text += "".join(fragments)
            else:
                segment.arguments += "".join(fragments)
        self._unjoined.clear()
        return self._segments

    def _add_text(self, text: str) -> None:
        last = self._segments[-1] if self._segments else None
        if isinstance(last, TextSegment):
            self._append_fragment(last, text)
        else:
            self._segments.append(TextSegment(text))

    def _add_delta(self, delta: ToolCallDelta) -> None:
        current = self._writing.get(delta.index)
        if current is None or _starts_another(current, delta):
            current = self._writing[delta.index] = self._new_tool("", self._unrepeated(delta.id))
        elif delta.id not in (None, current.call_id) and self._unrepeated(delta.id):  # a later id: the call's id
            self._file_under(current, delta.id)  # (as the assembler's)
        current.name = _named(current.name, delta.name)  # `get_wea`, `ther` → get_weather, as the call is named
        self._append_fragment(current, delta.arguments)

    def _unrepeated(self, call_id: str | None) -> str | None:
        """`call_id`, unless another call of the reply being streamed has it already: then None. The
        loop runs such a call under an id of its own (`toolkit.loop.call_ids.unique_call_ids`: the
        first call keeps the id), which its card takes when the run starts, as a call streamed
        without an id does (`_tool`)."""
        if call_id is None or any(s.call_id == call_id for s in self._writing.values()):
            return None
        return call_id

    def _tool(self, call_id: str, name: str, states: tuple[str, ...]) -> ToolSegment:
        """The latest segment of this call in one of `states`; else the first call streamed without
        an id (llama.cpp's server and others send none; the loop names it `r<round>c<n>`) in
        one of `states`, of this name if one is, which takes the id; else a new one (a non-streamed call)."""
        for segment in reversed(self._calls.get(call_id, [])):
            if segment.state in states:
                return segment
        unnamed = [segment for segment in self._calls.get(None, []) if segment.state in states]
        if unnamed:
            segment = next((s for s in unnamed if s.name == name), unnamed[0])
            self._file_under(segment, call_id)
            return segment
        return self._new_tool(name, call_id)

    def _file_under(self, segment: ToolSegment, call_id: str | None) -> None:
        """`segment` known by `call_id` from now on (the list of its old id loses it, by identity:
        segments with equal fields are still two), kept in the order the segments appeared."""
        before = self._calls[segment.call_id]
        del before[next(i for i, s in enumerate(before) if s is segment)]
        segment.call_id = call_id
        known = self._calls.setdefault(call_id, [])
        bisect.insort(known, segment, key=lambda s: self._position[id(s)])

    def _new_tool(self, name: str, call_id: str | None) -> ToolSegment:
        segment = ToolSegment(name, "", call_id=call_id)
        self._position[id(segment)] = len(self._segments)
        self._segments.append(segment)
        self._calls.setdefault(call_id, []).append(segment)
        return segment

    def _append_fragment(self, segment: Segment, fragment: str) -> None:
        """`segment.text += fragment` (or `.arguments`), deferred to `segments()`."""
        pending = self._unjoined.get(id(segment))
        if pending is None:
            self._unjoined[id(segment)] = (segment, [fragment])
        else:
            pending[1].append(fragment)

    def _replace_arguments(self, segment: ToolSegment, arguments: str) -> None:
        self._unjoined.pop(id(segment), None)  # fragments not joined yet are replaced too
        segment.arguments = arguments


def _starts_another(current: ToolSegment, delta: ToolCallDelta) -> bool:
    """Whether `delta`, at the index of the call `current` is writing, starts a call of its own.

    The stream's assembler (`toolkit.chat.sse`) already gives every call of a reply its own
    index, so a delta at the same index continues the call — even when its gateway repeats the
    id (and the name) on every fragment, or sends a fresh id without a name on each (the call
    then has the latest id, as the assembled call has). Only a different id that comes with a
    tool name starts another call (a hand-made event list)."""
    return delta.id is not None and current.call_id not in (None, delta.id) and delta.name is not None


# 2. Shared wording for both renderers.


def tool_status(segment: ToolSegment, over: bool) -> tuple[str, str, str]:
    """`(title, badge text, kind)` of a tool card."""
    name = _name(segment)
    if segment.state == "done" and segment.execution is not None:
        return (name, *execution_status(segment.execution))
    if segment.state == "running":  # started, no result: running, or cut off when the stream stopped
        return (name, NOT_FINISHED, "warn") if over else (f"calling {name}…", "running", "tool")
    if over:
        return name, "not executed", "warn"
    return f"asking for {name}…", "arguments arriving", "info"


def _name(segment: ToolSegment) -> str:
    """The call's name as shown: `?` while no delta has named it."""
    return segment.name or "?"


def _arguments(text: str) -> str:
    """Arguments on one line (sorted keys when they are JSON), scrubbed."""
    text = _scrubbed(text)
    try:
        return json_text(read_json(text))
    except ValueError:  # not JSON, or too deep to read: as it came
        return text


def _tokens(result: Result[Any]) -> str:
    u = result.usage
    return u.line()


def _check_result(result: object, where: str) -> None:
    """A `ConfigurationError` unless `result` is a stream's `Result` or None (a `LoopResult`, the value
    `iter_loop` returns, raised "'LoopResult' object has no attribute 'finish_reason'" when drawn)."""
    if result is not None and not isinstance(result, Result):
        raise ConfigurationError(
            f"{where}(result): result is the Result a TokenStream ends with (stream.result), or None, and got "
            f"{a_kind_of(result)}; e.g. {where}(..., result=stream.result), or leave it out (a view fed by push: "
            "view.finish() marks the end)"
        )


def _over(result: Result[Any] | None, error: BaseException | None, done: bool | None) -> bool:
    return done if done is not None else (result is not None or error is not None)


def _status(
    result: Result[Any] | None, error: BaseException | None, over: bool, closed: bool = False
) -> tuple[str, str, str]:
    """`(badge text, kind, detail)` of the status line; `closed`: a stream closed before its end."""
    if closed and error is None and result is None:
        return "stopped", "warn", CLOSED
    if error is not None:  # its text scrubbed as a result's is, and without memory addresses
        detail = without_addresses(redact.scrub(f"{type(error).__name__}: {error}"))
        return "stopped", "error", detail.removesuffix(": ")
    if result is not None:
        return "done", "ok", f"finish reason: {result.finish_reason} · tokens: {_tokens(result)}"
    return ("done", "ok", "") if over else ("streaming…", "info", "")


# 3. HTML.


_scrubbed = functools.lru_cache(maxsize=16)(redact.scrub)
"""`redact.scrub`, each text once: a segment's card and its transcript line show the same text, and
a live view draws both on every push (a long answer's text was scrubbed twice per delta)."""


@functools.lru_cache(maxsize=16)
def _scrubbed_result(text: str) -> str:
    """A tool's result scrubbed as far as a view shows it (`scrubbed_text`), each text once."""
    return scrubbed_text(text)


def _live(text: str, arriving: bool) -> str:
    """`text` scrubbed; while it is still `arriving`, only its `settled` part (its last run may
    be the first half of a key: shown now, it would stay on screen until the rest arrived)."""
    return _scrubbed(settled(text) if arriving else text)


def _text_html(segment: TextSegment, cursor: bool) -> Html:
    text = _live(segment.text, cursor) + CURSOR * cursor
    return element("div", "stream-text", card("assistant", text_block(text), "assistant"))


def _tool_html(segment: ToolSegment, over: bool) -> Html:
    title, label, kind = tool_status(segment, over)
    body = code_block(_live(segment.arguments, _arriving(segment, over)))
    if segment.execution is not None:
        result = _scrubbed_result(segment.execution.result.content)
        body += small("result" if kind == "ok" else "sent back as an error")
        body += code_block(result) if result.lstrip()[:1] in "{[" else text_block(result)
    head = join([title, badge(label, kind)], " ")
    return element("div", "stream-tool", card(head, body, "error" if kind == "error" else "tool"))


def _arriving(segment: ToolSegment, over: bool) -> bool:
    """Whether a call's arguments may still grow: the model is writing them, the stream runs."""
    return segment.state == "asked" and not over


def _segment_html(segment: Segment, cursor: bool, over: bool) -> Html:
    return _text_html(segment, cursor) if isinstance(segment, TextSegment) else _tool_html(segment, over)


def _kept(segments: list[Segment]) -> list[int | str]:
    """The segments a view draws (`toolkit.views.html.kept`): all, or the first and last 500."""
    return kept(len(segments), "parts")


def _cursor(index: int, segments: list[Segment], over: bool) -> bool:
    """The cursor follows the last segment (when it is text) while the stream runs."""
    return index == len(segments) - 1 and not over


def render_stream_html(
    events: Iterable[LoopEvent],
    result: Result[Any] | None = None,
    error: BaseException | None = None,
    *,
    done: bool | None = None,
    title: str | None = None,
) -> str:
    """The stream so far: text and tool cards in arrival order, then the status line.

    `done` (default: a `result` or an `error` was given) says the stream has ended."""
    _check_result(result, "render_stream_html")
    _given_events(events, "render_stream_html")
    over = _over(result, error, done)
    segments = fold_events(events)
    cards = [
        small(i) if isinstance(i, str) else _segment_html(segments[i], _cursor(i, segments, over), over)
        for i in _kept(segments)
    ]
    return _page_html(cards, result, error, over, title)


def _page_html(
    cards: list[Html],
    result: Result[Any] | None,
    error: BaseException | None,
    over: bool,
    title: str | None,
    closed: bool = False,
) -> str:
    """The segments' cards, then the status line, in the page."""
    parts = list(cards)
    if not cards:
        parts.append(small("nothing yet" if not over else "(no events)"))
    label, kind, detail = _status(result, error, over, closed)
    rows = [("status", join([badge(label, kind), " ", detail]))]
    parts.append(element("div", "stream-status", kv_table(rows)))
    return str(page(join(parts), title))


# 4. Text.


def _segment_text(segment: Segment, cursor: bool, over: bool) -> str:
    if isinstance(segment, TextSegment):  # a 5 MB answer: cut at SHOWN_CHARS, as the HTML cuts it
        return f"assistant: {shortened(_live(segment.text, cursor))}"
    _, label, _ = tool_status(segment, over)
    arguments = settled(segment.arguments) if _arriving(segment, over) else segment.arguments
    line = f"tool {flat_name(_name(segment))}({flat(shortened(_arguments(arguments)))}) [{label}]"  # on its line
    return line + (
        f" → {one_line(_scrubbed_result(segment.execution.result.content), 160)}" if segment.execution else ""
    )


def render_stream_text(
    events: Iterable[LoopEvent],
    result: Result[Any] | None = None,
    error: BaseException | None = None,
    *,
    done: bool | None = None,
) -> str:
    """The stream as a transcript: one line per text run or tool call, then the status."""
    _check_result(result, "render_stream_text")
    _given_events(events, "render_stream_text")
    over = _over(result, error, done)
    segments = fold_events(events)
    lines = [
        i if isinstance(i, str) else _segment_text(segments[i], _cursor(i, segments, over), over)
        for i in _kept(segments)
    ]
    return _transcript(lines, result, error, over)


def _transcript(
    lines: list[str], result: Result[Any] | None, error: BaseException | None, over: bool, closed: bool = False
) -> str:
    """The segments' lines, then the status."""
    label, _, detail = _status(result, error, over, closed)
    detail = one_line(detail, ERROR_CHARS)  # an error quoting a body over lines: one line, bounded
    return showable("\n".join([*lines, f"{label} · {detail}" if detail else label]))


def event_line(event: LoopEvent) -> str:
    """One event as one line (no call ids), its text scrubbed alone: a key split over two deltas
    shows in their two lines. To print what a stream yielded, in order, use `event_lines`."""
    if isinstance(event, TextDelta | ToolCallDelta):
        return _delta_head(event) + repr(redact.scrub(_piece(event)))
    if isinstance(event, ToolStarted):
        arguments = flat(shortened(_arguments(event.call.arguments)))  # not JSON, over lines: on this line
        return f"ToolStarted   round {event.round}: {flat_name(event.call.name)}({arguments})"
    if isinstance(event, ToolFinished):
        e = event.execution
        status = execution_status(e)[0]
        return (
            f"ToolFinished  round {e.round}: {flat_name(e.call.name)} [{status}] {scrubbed_line(e.result.content, 40)}"
        )
    return type(event).__name__


def event_lines(events: Iterable[LoopEvent]) -> Iterator[str]:
    """`event_line` of each event, in order, but with each run of text deltas (and each call's
    argument deltas, by index, also when parallel calls interleave theirs: 0, 1, 0, 1) scrubbed as
    one stream (`StreamScrubber`): a key split over two deltas shows in neither line. A delta's
    line shows what of its run can be shown by then (maybe `''`); the run's last delta also shows
    what was held back. A line is given once it is final (its run went on, or ended: at a delta
    of the other kind, text or call, at any other event, or at the end), after every line before it."""
    lines = _DeltaLines()
    for event in events:
        yield from lines.add(event)
    yield from lines.close(lines.open)


class _DeltaLines:
    """`event_lines`' state: the scrubber and the latest line of each run still open, and the
    lines not given yet, in event order (a line is `[head, shown, open]`)."""

    def __init__(self) -> None:
        self.scrubbers: dict[tuple[str, int], StreamScrubber] = {}
        self.open: dict[tuple[str, int], list[Any]] = {}
        self.waiting: deque[list[Any]] = deque()

    def add(self, event: LoopEvent) -> Iterator[str]:
        """The lines `event` makes final, then its own when it is no delta."""
        if not isinstance(event, TextDelta | ToolCallDelta):
            yield from self.close(self.open)
            yield event_line(event)
            return
        run = _run_of(event)
        if self.open and next(iter(self.open))[0] != run[0]:  # the open runs are all of one kind: text
            yield from self.close(self.open)  # ends at a call's delta, calls at text (each run closed once)
        before = self.open.get(run)
        if before is not None:
            before[2] = False
        scrubber = self.scrubbers.setdefault(run, StreamScrubber())
        self.open[run] = line = [_delta_head(event), scrubber.feed(_piece(event)), True]
        self.waiting.append(line)
        yield from self.given()

    def close(self, runs: Iterable[tuple[str, int]]) -> Iterator[str]:
        """End `runs` (their held-back text onto their latest line), then give what is final."""
        for run in list(runs):
            line = self.open.pop(run)
            line[1] += self.scrubbers.pop(run).flush()
            line[2] = False
        yield from self.given()

    def given(self) -> Iterator[str]:
        while self.waiting and not self.waiting[0][2]:
            head, shown, _ = self.waiting.popleft()
            yield head + repr(shown)


def _run_of(event: TextDelta | ToolCallDelta) -> tuple[str, int]:
    """Which run of deltas a delta continues: the text, or a call's arguments (by index)."""
    return ("text", 0) if isinstance(event, TextDelta) else ("call", event.index)


def _delta_head(event: TextDelta | ToolCallDelta) -> str:
    if isinstance(event, TextDelta):
        return "TextDelta     "
    name = f" {flat_name(event.name)}" if event.name else ""
    return f"ToolCallDelta #{event.index}{name} "


def _piece(event: TextDelta | ToolCallDelta) -> str:
    return event.text if isinstance(event, TextDelta) else event.arguments


# 5. Drawing a live view again: only the segments that changed.


@dataclass
class _Drawing:
    """One segment's card and transcript line, and what they were drawn from."""

    segment: Segment
    shown: tuple[Any, ...]
    execution: ToolExecution | None
    """Compared by identity (it is frozen), like `segment`."""
    card: Html
    line: str


def _shown(segment: Segment, cursor: bool, over: bool) -> tuple[Any, ...]:
    """What a segment's card and line are drawn from, but its execution (compared by identity)."""
    if isinstance(segment, TextSegment):
        return (segment.text, cursor)
    return (segment.name, segment.arguments, segment.state, over)


class _Drawings:
    """The cards and lines of a live view's segments, kept between redraws: a segment is drawn
    again only when what it shows has changed, so a redraw costs one comparison per unchanged
    segment. The same cards and lines as `render_stream_html` and `render_stream_text` draw."""

    def __init__(self) -> None:
        self._kept: dict[int, _Drawing] = {}  # a drawn segment's position → its drawing

    def draw(self, segments: list[Segment], over: bool) -> tuple[list[Html], list[str]]:
        """`(cards, lines)` of the segments a view draws (`_kept`), with the note for those left out."""
        positions = _kept(segments)
        drawn = {i for i in positions if isinstance(i, int)}
        self._kept = {i: d for i, d in self._kept.items() if i in drawn}
        cards: list[Html] = []
        lines: list[str] = []
        for i in positions:
            if isinstance(i, str):
                cards.append(small(i))
                lines.append(i)
                continue
            drawing = self._drawing(i, segments, over)
            cards.append(drawing.card)
            lines.append(drawing.line)
        return cards, lines

    def _drawing(self, i: int, segments: list[Segment], over: bool) -> _Drawing:
        """The drawing of `segments[i]`: the kept one if what it shows has not changed."""
        segment, cursor = segments[i], _cursor(i, segments, over)
        shown, execution = _shown(segment, cursor, over), _execution(segment)
        kept = self._kept.get(i)
        if kept is not None and kept.segment is segment and kept.execution is execution and kept.shown == shown:
            return kept
        drawing = _Drawing(
            segment, shown, execution, _segment_html(segment, cursor, over), _segment_text(segment, cursor, over)
        )
        self._kept[i] = drawing
        return drawing


def _execution(segment: Segment) -> ToolExecution | None:
    return segment.execution if isinstance(segment, ToolSegment) else None


# 6. The widget.


def _check_events(events: object, where: str, fix: str) -> None:
    """A `ConfigurationError` unless `events` can be events: an iterable that is no text, bytes or class."""
    if isinstance(events, str | bytes | type) or not isinstance(events, Iterable):
        kind = f"the class {events.__name__}" if isinstance(events, type) else type(events).__name__
        raise ConfigurationError(
            f"{where}: takes the events of a stream (a list, or the TokenStream itself), and got {kind}; {fix}"
        )


def _given_events(events: object, where: str) -> None:
    """`_check_events` for a renderer called `where` (`fold_events(None)`: not "'NoneType' object is not iterable")."""
    _check_events(events, f"{where}(events)", f"e.g. {where}(list(stream))")


class _Drawn(Unicode):
    """A `StreamView`'s `value`: reading it first draws the pieces `push` left for the next drawing,
    so what a view is read to show (its HTML, its bundle, the state its widget sends) is never behind."""

    def get(self, obj: Any, cls: Any = None) -> Any:
        if getattr(obj, "_undrawn", False):
            obj.draw_now()
        return super().get(obj, cls)


_UNDRAWN: weakref.WeakSet[StreamView] = weakref.WeakSet()
"""The views with pieces left for their next drawing, drawn when the notebook's cell ends (a loop
of `push` whose last pieces came together would otherwise leave them off the live widget)."""
_hooked = False


def _draw_the_undrawn(*_: object) -> None:
    """IPython's `post_run_cell`: draw every view whose last pieces wait."""
    for view in list(_UNDRAWN):
        view.draw_now()


def _draw_at_the_cells_end(view: StreamView) -> None:
    """`view` drawn when the running cell ends (inside IPython; elsewhere it is drawn when read)."""
    global _hooked
    _UNDRAWN.add(view)
    if not _hooked:
        from IPython import get_ipython

        shell = get_ipython()
        if shell is not None:
            shell.events.register("post_run_cell", _draw_the_undrawn)
            _hooked = True


class StreamView(HtmlView):
    """A live view of one stream: `.push(event)` or `.consume(token_stream)`."""

    value = _Drawn(help="The page's HTML").tag(sync=True)
    _undrawn = False
    """Whether events were pushed since the last drawing (`push` draws at most every `REDRAW_EVERY`)."""

    @property
    def _text(self) -> str:
        if self._undrawn:
            self.draw_now()
        return self._drawn_text

    @_text.setter
    def _text(self, text: str) -> None:
        self._drawn_text = text

    def __init__(self, title: str | None = None, events: Iterable[LoopEvent] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = title
        _check_events(
            events, "StreamView(events=...)", "pass StreamView(events=list(stream)), or call view.consume(stream)"
        )
        self.events: list[LoopEvent] = list(events)
        self.result: Result[Any] | None = None
        self.error: BaseException | None = None
        self.done: bool = False
        self.closed: bool = False
        """Whether the `TokenStream` consumed was closed before its end (no result, nothing raised)."""
        self._handle: Any = None
        self._fold = EventFold()
        self._folded: tuple[list[LoopEvent], int] = (self.events, 0)  # the list folded in, and how much of it
        self._drawings = _Drawings()
        self._drawn_at = -REDRAW_EVERY
        self._redraw()

    def push(self, event: LoopEvent) -> None:
        """Add one event and redraw; on a view whose stream is over (`finish`), it starts the next one.

        A text or arguments piece pushed within `REDRAW_EVERY` seconds of the last drawing waits
        for the next one, as in `consume` (a redraw writes the whole page: drawing each of 100,000
        pieces pushed in a loop cost time growing with the square of their number); reading the
        view (`value`, its text, `display`) or the end of the notebook's cell draws it."""
        check_event(event)
        if self.done:
            self._start_again()
        self.events.append(event)
        now = _clock()
        if now - self._drawn_at >= REDRAW_EVERY or not isinstance(event, TextDelta | ToolCallDelta):
            self._redraw()
            self._drawn_at = now
        else:
            self._undrawn = True
            _draw_at_the_cells_end(self)

    def draw_now(self) -> None:
        """Draw the events pushed since the last drawing (reading the view does it too)."""
        if self._undrawn:
            self._redraw()

    def finish(self, result: Result[Any] | None = None, error: BaseException | None = None) -> None:
        """Mark the stream as ended (with its result or its error) and refresh the stored output."""
        _check_result(result, "StreamView.finish")
        self.result, self.error, self.done = result, error, True
        self._redraw()
        if self._handle is not None:  # shown live by `display()`: the final state replaces it
            from IPython.display import display

            self._handle.update({}, raw=True)
            self._handle = None
            display(self)

    def consume(self, stream: Iterable[LoopEvent], pace: float | None = 0.0) -> Result[Any] | None:
        """Push every event of `stream`, then its `.result` (returned). An error from the stream
        is shown, then re-raised. On a view whose stream is over (done, stopped, closed: a retry
        after a broken stream) it starts again, showing the new stream alone. `pace` waits that many seconds after each event, to watch a
        stream that arrives faster than the eye (the embedded gateway's).

        Text and argument pieces that arrive within `REDRAW_EVERY` seconds of the last drawing
        wait for the next one (a redraw writes the whole page, so drawing each of a long fast
        stream's thousands of pieces cost time growing with the square of its length); the
        first piece, a tool's start and finish, and the end are always drawn at once, and with
        a `pace` every event is. A `pace` that is not a finite number of 0 or more is refused before
        anything is read (it stopped the stream after its first event); None is no pace."""
        _check_events(stream, "StreamView.consume(stream)", "e.g. view.consume(assistant.stream('u1', question))")
        pace = 0.0 if pace is None else pace
        if isinstance(pace, bool) or not isinstance(pace, int | float) or not 0 <= pace < float("inf"):
            raise ConfigurationError(
                f"StreamView.consume(pace={pace!r:.40}): pace is the seconds to wait after each event, a finite "
                "number of 0 or more; e.g. view.consume(stream, pace=0.03), or leave it out to show the stream "
                "as it arrives"
            )
        if self.done:  # a view shows one stream: a second consume (a retry) starts it again
            self._start_again()
        drawn = -REDRAW_EVERY
        try:
            for event in stream:
                check_event(event)  # before it is kept: the view still draws what came before it
                self.events.append(event)
                now = _clock()
                if pace or now - drawn >= REDRAW_EVERY or not isinstance(event, TextDelta | ToolCallDelta):
                    self._redraw()
                    drawn = now
                if pace:
                    time.sleep(pace)
        except BaseException as error:  # KeyboardInterrupt too: the view says where it stopped
            self.finish(error=error)
            raise
        result = getattr(stream, "result", None)
        self.closed = isinstance(stream, TokenStream) and result is None  # read to a quiet end: closed mid-turn
        self.finish(result=result)
        return self.result

    def _start_again(self) -> None:
        """No events, no end: the stream before (stopped, closed or done) is not joined to the next one
        (`consume` or `push` after the end), nor is its status shown while the next one runs."""
        self.events, self.result, self.error, self.done, self.closed = [], None, None, False, False
        self._drawings = _Drawings()
        self._drawn_at = -REDRAW_EVERY
        self._redraw()

    def display(self) -> None:
        """Show the live widget now, so it fills while the stream runs.

        Only the widget is shown (no text/html, no text/plain): when the stream ends, `finish`
        empties that output and displays the view again, final state and fallbacks included.
        So a saved notebook keeps the end state, and nbval (which ignores display updates)
        compares the same end state when it reruns the cell."""
        from IPython.display import display

        live = {k: v for k, v in super()._repr_mimebundle_().items() if k == WIDGET_VIEW}
        self._handle = display(live, raw=True, display_id=True)

    def _segments(self) -> list[Segment]:
        """`fold_events(self.events)`, folding in only the events pushed since the last call."""
        folded, count = self._folded
        if folded is not self.events or count > len(self.events):  # replaced or cut: fold it all again
            self._fold, count = EventFold(), 0
        for event in self.events[count:]:
            self._fold.add(event)
        self._folded = (self.events, len(self.events))
        return self._fold.segments()

    def _redraw(self) -> None:
        self._undrawn = False  # first: drawing reads `value`
        _UNDRAWN.discard(self)
        over = _over(self.result, self.error, self.done or None)
        cards, lines = self._drawings.draw(self._segments(), over)
        self.show(
            _page_html(cards, self.result, self.error, over, self.title, self.closed),
            _transcript(lines, self.result, self.error, over, self.closed),
        )
