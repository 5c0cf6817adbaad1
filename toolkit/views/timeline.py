"""Timelines: things that happened on one time axis, as SVG with a text table as the fallback.

Two builders feed `Timeline`:

- `retry_spans(exchanges, waits)` — week 2: each HTTP attempt and the wait before the next one
  (the waits the client asked its `sleep` for, so a fake sleep draws the same picture every run);
- `timed_loop(events)` — week 6: runs `iter_loop`'s events and returns the `LoopResult` and one
  span per tool call (start when the loop announced it, length its measured duration), so a
  sequential and a concurrent run can be drawn on one axis; a run that raises raises the same
  error with the spans measured before it as its `.spans`. Each call has its own lane, named
  by the tool and the call's number in the run (`slow_lookup #2`), never by its call id (a
  real gateway's are random, and a reused id must not merge two calls).

`Timeline.svg()` groups the spans by lane in one pass, so drawing is linear in the spans. A span
whose start or end is not a finite number (NaN, inf) is left out of the drawing (the axis ends
at the last finite end); the text lists it. Row names, lanes and labels are shown cut at
`NAME_CHARS` (a model's tool name can be a million characters long). Past 1,000 spans in all,
both show the first and last 500 and a note naming the rest (`toolkit.views.html.kept`): 10,000
calls drew 10,000 lanes.

Leaves out: zooming, hover details (the text table has every number).
"""

from __future__ import annotations

import html
import math
import numbers
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from toolkit.chat.client import Exchange
from toolkit.errors import ConfigurationError
from toolkit.loop.records import LoopResult, ToolFinished, ToolStarted
from toolkit.tools.decorator import a_kind_of
from toolkit.unicode import cut, padded
from toolkit.views.html import NAME_CHARS, NO_MATH, flat, flat_name, kept, showable, showable_bundle


@dataclass(frozen=True)
class Span:
    lane: str
    start: float
    end: float
    label: str
    kind: str = "info"
    """`ok`, `error`, `wait` or `info` (the colour)."""


COLOURS = {"ok": "#1a7f37", "error": "#cf222e", "wait": "#d0d7de", "info": "#0969da"}


def retry_spans(exchanges: Sequence[Exchange], waits: Sequence[float], attempt_s: float = 0.1) -> list[Span]:
    """Attempts and waits of one call; an attempt is drawn `attempt_s` wide (the fake answers at once)."""
    spans, t = [], 0.0
    for i, exchange in enumerate(exchanges):
        status = "timeout" if exchange.status is None else f"HTTP {exchange.status}"
        ok = exchange.status is not None and exchange.status < 400
        spans.append(
            Span("attempts", t, t + attempt_s, f"attempt {exchange.attempt}: {status}", "ok" if ok else "error")
        )
        t += attempt_s
        if i < len(waits):
            after = f" after {status}" if not ok else ""
            spans.append(Span("waits", t, t + waits[i], f"wait {waits[i]:g} s{after}", "wait"))
            t += waits[i]
    return spans


_TIMED = "e.g. timed_loop(iter_loop(model, messages, tools=tools))"


def timed_loop(events: Iterator[Any], clock: Callable[[], float] = time.perf_counter) -> tuple[LoopResult, list[Span]]:
    """Drain `iter_loop(...)`; one span per tool call, on the clock's axis from the first event.
    Anything else (`run_loop`'s result, a list) is a `ConfigurationError` naming what it takes.
    A run that raises raises the same error, carrying the spans measured before it as its
    `.spans` (a call it cut short drawn up to it, as an error), so the learner can still draw them:
    `except MaxRoundTripsError as e: Timeline([("run", e.spans)])`."""
    if not isinstance(events, Iterator):  # not "'LoopResult' object is not an iterator"
        raise ConfigurationError(
            "timed_loop(events): takes the generator iter_loop(...) returns (the loop's events, then its "
            f"LoopResult), and got {a_kind_of(events)}; {_TIMED}"
        )
    origin = clock()
    started: dict[str, tuple[int, float, str]] = {}  # call id → (its number in the run, its start, its name)
    count = 0
    spans: list[Span] = []
    while True:
        try:
            event = next(events)
        except StopIteration as done:
            return done.value, spans
        except BaseException as exc:  # the same error, the spans so far on it
            _with_spans(exc, spans + _cut_short(started, clock() - origin, exc))
            raise
        if isinstance(event, ToolStarted):
            count += 1
            started[event.call.id] = (count, clock() - origin, event.call.name)
        elif isinstance(event, ToolFinished):
            e = event.execution
            if e.call.id in started:
                number, start, _ = started.pop(e.call.id)
            else:  # finished without being announced: numbered now, drawn from 0
                count += 1
                number, start = count, 0.0
            kind = "error" if e.failure else "ok"
            name = cut(e.call.name, NAME_CHARS)  # a model's name of any length: the duration stays in view
            spans.append(Span(f"{name} #{number}", start, start + e.duration_s, f"{name} {e.duration_s:.2f} s", kind))


def _cut_short(started: dict[str, tuple[int, float, str]], now: float, exc: BaseException) -> list[Span]:
    """The calls announced and not finished when the run raised `exc`: each drawn up to `now`, as an error."""
    spans = []
    for number, start, tool_name in started.values():
        name = cut(tool_name, NAME_CHARS)
        spans.append(Span(f"{name} #{number}", start, now, f"{name} (cut short by {type(exc).__name__})", "error"))
    return spans


def _with_spans(exc: BaseException, spans: list[Span]) -> None:
    """`exc` carrying `spans` (its `.spans`) and a note saying so, for the learner to draw; an error
    that takes no attribute is left as it is."""
    try:
        exc.spans = spans  # type: ignore[attr-defined]
    except AttributeError:
        return
    exc.add_note(f"timed_loop: the spans measured before this error are its .spans ({len(spans)})")


def _spans_by_lane(rows: list[tuple[str, list[Span]]]) -> dict[tuple[str, str], list[Span]]:
    """`(row name, lane)` → its spans, in row order (rows may share a name); one pass."""
    in_lane: dict[tuple[str, str], list[Span]] = {}
    for name, row in rows:
        for s in row:
            in_lane.setdefault((name, s.lane), []).append(s)
    return in_lane


def _drawn(span: Span) -> bool:
    """Whether `span` can be drawn: its start and end are finite numbers (the text lists it anyway)."""
    return math.isfinite(span.start) and math.isfinite(span.end)


def _svg_text(text: str) -> str:
    """A name, lane or label as the picture writes it: cut at `NAME_CHARS` (a model's tool name can
    be a million characters), escaped."""
    return html.escape(cut(text, NAME_CHARS))


def _span_problem(span: Span) -> str | None:
    """What is wrong with a span's fields (a start given as text, an end before the start, a label of
    None), or None."""
    for field in ("start", "end"):
        value = getattr(span, field)
        if isinstance(value, bool) or not isinstance(value, numbers.Real):  # numpy's numbers too
            return f"its {field} is {a_kind_of(value)}, not a number"
    if span.end < span.start:  # swapped (NaN compares false: left out of the drawing, listed in the text)
        return f"its end ({span.end}) is before its start ({span.start})"
    for field in ("lane", "label"):
        value = getattr(span, field)
        if not isinstance(value, str):
            return f"its {field} is {a_kind_of(value)}, not text"
    return None


_SPAN = 'e.g. Span("attempts", 0.0, 0.1, "attempt 1: HTTP 429")'
_FIX = 'e.g. Timeline([("attempts and waits", retry_spans(client.exchanges, waits))])'


def _rows(rows: object) -> list[tuple[str, list[Span]]]:
    """`rows` as `Timeline` keeps them, or a `ConfigurationError` naming the shape it takes (not
    "cannot unpack non-iterable Span object" for spans given without their row's name)."""
    if isinstance(rows, str | bytes) or not isinstance(rows, Iterable):
        raise ConfigurationError(
            f"Timeline(rows): takes a list of (name, spans) rows, and got {a_kind_of(rows)}; {_FIX}"
        )
    kept: list[tuple[str, list[Span]]] = []
    for i, row in enumerate(rows):
        if isinstance(row, Span):
            raise ConfigurationError(f"Timeline(rows): row {i} is a Span; each row is (name, spans): {_FIX}")
        if not isinstance(row, tuple | list) or len(row) != 2 or not isinstance(row[1], Iterable):
            raise ConfigurationError(f"Timeline(rows): row {i} is {a_kind_of(row)}, not (name, list of Span); {_FIX}")
        if not isinstance(row[0], str):
            raise ConfigurationError(f"Timeline(rows): row {i}'s name is {a_kind_of(row[0])}, not text; {_FIX}")
        spans = list(row[1])
        for j, span in enumerate(spans):
            if not isinstance(span, Span):
                raise ConfigurationError(f"Timeline(rows): row {i}'s span {j} is {a_kind_of(span)}, not a Span; {_FIX}")
            problem = _span_problem(span)
            if problem:
                raise ConfigurationError(f"Timeline(rows): row {i}'s span {j}: {problem}; {_SPAN}")
        kept.append((row[0], spans))
    return kept


class Timeline:
    """Spans in lanes on one time axis: SVG for people, a table as text."""

    rows: list[tuple[str, list[Span]]]
    """Each lane's name and its spans."""
    title: str
    """The heading ("" for none)."""
    unit: str
    """The time axis' unit."""

    def __init__(self, rows: Sequence[tuple[str, Sequence[Span]]], title: str = "", unit: str = "s") -> None:
        self.rows = _rows(rows)
        for field, value in (("title", title), ("unit", unit)):
            if not isinstance(value, str):  # not a TypeError when it is drawn
                raise ConfigurationError(
                    f"Timeline(rows, {field}): {field} is text, and got {a_kind_of(value)}; "
                    "e.g. Timeline(rows, title='retries', unit='s')"
                )
        self.title, self.unit = title, unit

    def _kept(self) -> list[tuple[str, list[Span | str]]]:
        """The rows as a view shows them: all their spans, or, past `SHOWN_ITEMS` spans in all,
        the first and last 500 (`toolkit.views.html.kept`) and, where some are left out, the note
        saying which; a row none of whose spans is shown is left out with them."""
        positions = kept(sum(len(row) for _, row in self.rows), "spans")
        notes = {int(before) + 1: k for before, k in zip([-1, *positions], positions) if isinstance(k, str)}
        if not notes:
            return [(name, list(row)) for name, row in self.rows]
        shown = {k for k in positions if isinstance(k, int)}
        rows: list[tuple[str, list[Span | str]]] = []
        first = 0
        for name, row in self.rows:
            items: list[Span | str] = []
            for i, span in enumerate(row, first):
                items += [notes[i]] if i in notes else []
                items += [span] if i in shown else []
            if items or not row:
                rows.append((name, items))
            first += len(row)
        return rows

    def text(self) -> str:
        lines = [self.title] if self.title else []
        for name, items in self._kept():
            lines.append(f"{flat_name(name)}:")
            lines += [
                f"  {s}"
                if isinstance(s, str)
                else f"  {s.start:6.2f}–{s.end:6.2f} {flat(self.unit)}  {padded(flat_name(s.lane), 16)} {flat_name(s.label)}"
                for s in items
            ]
        return "\n".join(lines) or "(no spans)"

    def svg(self) -> str:
        shown = self._kept()
        notes = [s for _, items in shown for s in items if isinstance(s, str)]
        rows = [(name, [s for s in items if isinstance(s, Span)]) for name, items in shown]
        spans = [s for _, row in rows for s in row if _drawn(s)]
        end = max((s.end for s in spans), default=1.0) or 1.0
        left, width, lane_h = 170, 560, 22
        lanes = [(name, lane) for name, row in rows for lane in dict.fromkeys(s.lane for s in row)]
        in_lane = _spans_by_lane(rows)
        height = 30 + lane_h * len(lanes) + 30 + 16 * len(notes)
        x = lambda t: left + width * (t / end)  # noqa: E731  (t / end first: 560 * 1e308 overflows)
        parts = [
            f'<svg class="{NO_MATH}" xmlns="http://www.w3.org/2000/svg" width="{left + width + 20}" height="{height}" '
            'font-family="sans-serif" font-size="11">'
        ]
        if self.title:
            parts.append(f'<text x="4" y="14" font-weight="bold">{html.escape(self.title)}</text>')
        for i, (name, lane) in enumerate(lanes):
            y = 24 + i * lane_h
            parts.append(f'<text x="4" y="{y + 14}">{_svg_text(name)} · {_svg_text(lane)}</text>')
            for s in filter(_drawn, in_lane[name, lane]):
                w = max(2.0, x(s.end) - x(s.start))
                parts.append(
                    f'<rect x="{x(s.start):.1f}" y="{y + 3}" width="{w:.1f}" height="{lane_h - 6}" '
                    f'fill="{COLOURS.get(s.kind, COLOURS["info"])}" opacity="0.85">'
                    f"<title>{_svg_text(s.label)}</title></rect>"
                )
                if w > 40:
                    parts.append(
                        f'<text x="{x(s.start) + 3:.1f}" y="{y + 15}" fill="#fff">{html.escape(cut(s.label, int(w // 6)))}</text>'
                    )
        axis_y = 24 + lane_h * len(lanes) + 4
        parts.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + width}" y2="{axis_y}" stroke="#57606a"/>')
        for k in range(6):
            t = end * k / 5
            parts.append(
                f'<text x="{x(t):.1f}" y="{axis_y + 14}" text-anchor="middle">{t:.2f} {html.escape(self.unit)}</text>'
            )
        for n, note in enumerate(notes, 1):
            parts.append(f'<text x="4" y="{axis_y + 14 + 16 * n}">{html.escape(note)}</text>')
        parts.append("</svg>")
        return "".join(parts)

    def _repr_mimebundle_(self, **_: Any) -> dict[str, str]:
        return showable_bundle({"text/html": self.svg(), "text/plain": self.text()})

    def __repr__(self) -> str:
        return showable(self.text())
