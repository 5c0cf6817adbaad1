"""Views of tool search: one search's results, and the accuracy / tokens chart over catalogue sizes.

Pure renderers (unit-tested, deterministic, stable under nbval):
- `render_search_html(outcome)`: the arguments the model sent, how many tools could be found,
  the ranked matches with scores, the `found_tools` attribute and the text the model reads;
  an argument mistake as a red card with the error text;
- `render_search_text(outcome)`: the same in a few lines (the arguments' `\\u` escapes of printable
  characters written as the characters, as the HTML shows them: `toolkit.unicode.unescaped`);
- `render_selection_chart_svg(rows)`: two panels over catalogue size — the share of queries
  whose right tool reaches the model, and the tokens of the tools block (log scale) — one line per way of
  offering tools (all in the prompt, keyword search, vector search). Hand-written SVG: fixed
  size, numbers rounded, no ids, so a stored notebook output never changes by itself. Every
  strategy gets a line (past the five colours they repeat, dashed) and a legend entry (three
  per row, the chart growing a row for more); a value that is not a finite number (NaN, inf)
  is left out of the drawing (the text table shows it); no rows draw empty panels and a note.

Thin wrappers: `SearchView` (an `HtmlView`) and `SelectionChart` (an `image/svg+xml` output
with a text table as fallback).

Leaves out: interactivity (zoom, hover), charts other than these two panels.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from toolkit.errors import ConfigurationError, listed_of
from toolkit.search.catalog import EvalRow
from toolkit.search.tool import SearchOutcome
from toolkit.tools.decorator import a_kind_of
from toolkit.unicode import unescaped
from toolkit.views.conversation import HtmlView
from toolkit.views.html import (
    Html,
    badge,
    card,
    code_block,
    escape,
    flat,
    join,
    kv_table,
    page,
    plain,
    shortened,
    showable,
    showable_bundle,
    small,
    table,
    text_block,
)


def _score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.3f}"


def _check_outcome(outcome: object, where: str) -> None:
    """A `ConfigurationError` unless `outcome` is a `SearchOutcome` (not "'NoneType' object has no attribute 'strategy'")."""
    if not isinstance(outcome, SearchOutcome):
        raise ConfigurationError(
            f"{where}(): takes one SearchOutcome (what ToolSearch.search returns), and got "
            f'{a_kind_of(outcome)}; e.g. SearchView(search.search(\'{{"terms": ["refund"]}}\', index))'
        )


def render_search_html(outcome: SearchOutcome, title: str | None = "tool search") -> str:
    """One search: what was asked, what was found, what the model reads."""
    _check_outcome(outcome, "render_search_html")
    rows: list[tuple[Any, Any]] = [
        ("strategy", outcome.strategy),
        ("arguments", code_block(outcome.arguments)),
        ("searched", f"{outcome.searched} hidden {_tools(outcome.searched)}"),
    ]
    if outcome.error:
        return str(
            page(
                kv_table(rows)
                + card(join(["search error ", badge("error", "error")]), text_block(outcome.error), "error"),
                title,
            )
        )
    matches = table(
        ["#", "tool", "score", "description"],
        [[i, m.name, _score(m.score), m.description] for i, m in enumerate(outcome.matches, 1)],
    )
    found = join((badge(name, "tool") for name in outcome.found), " ") or small("(none)")
    body = (
        kv_table(rows)
        + (matches if outcome.matches else small("no tool reached the minimum score"))
        + kv_table([("found_tools", found)])
        + card("what the model reads", text_block(outcome.text()), "tool")
    )
    return str(page(body, title))


def _tools(count: int) -> str:
    """`tool` for one, `tools` for any other count."""
    return "tool" if count == 1 else "tools"


def render_search_text(outcome: SearchOutcome) -> str:
    """One search in a few lines; arguments of a megabyte are cut at `SHOWN_CHARS`, as the HTML cuts them."""
    _check_outcome(outcome, "render_search_text")
    head = f"{outcome.strategy} {shortened(unescaped(outcome.arguments))} → searched {outcome.searched} {_tools(outcome.searched)}"
    if outcome.error:
        return showable(f"{head}\nerror: {outcome.error}")
    lines = [f"{i}. {m.name} ({_score(m.score)})" for i, m in enumerate(outcome.matches, 1)]
    return showable("\n".join([head, *lines, f"found_tools: {outcome.found}"]))


class SearchView(HtmlView):
    """`SearchView(outcome)`: one search as a notebook view."""

    def __init__(self, outcome: SearchOutcome, title: str | None = "tool search", **kwargs: Any) -> None:
        _check_outcome(outcome, "SearchView")
        super().__init__(render_search_html(outcome, title), render_search_text(outcome), **kwargs)


# --- the chart ---------------------------------------------------------------------------

COLOURS = ("#6e7781", "#0969da", "#8250df", "#1a7f37", "#bc4c00")
_W, _H, _PANEL, _TOP, _LEFT, _PLOT_H = 760, 310, 330, 40, 60, 200
_LEGEND_PER_ROW, _LEGEND_ROW = 3, 20


@dataclass(frozen=True)
class _Axis:
    """A y axis: where a value sits (0 bottom … 1 top) and the labelled ticks."""

    fraction: Callable[[float], float]
    ticks: tuple[tuple[float, str], ...]


def _linear_percent() -> _Axis:
    return _Axis(lambda v: v / 100, tuple((v, f"{v:.0f}") for v in (0, 25, 50, 75, 100)))


def _finite(value: float) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value)


def _log_axis(values: Sequence[float]) -> _Axis:
    """A log axis over the finite `values` (1 … 10 when there are none)."""
    values = [v for v in values if _finite(v)] or [1.0]
    low = math.floor(math.log10(max(min(values), 1)))
    high = max(math.ceil(math.log10(max(max(values), 1))), low + 1)
    return _Axis(
        lambda v: (math.log10(max(v, 1)) - low) / (high - low),
        tuple((10.0**k, f"{10**k:,}") for k in range(low, high + 1)),
    )


def _line_style(index: int) -> tuple[str, str]:
    """`(colour, extra attributes)` of the `index`-th strategy: the colours, then dashed again."""
    dash = "" if index < len(COLOURS) else ' stroke-dasharray="6 3"'
    return COLOURS[index % len(COLOURS)], dash


def _panel(
    x0: float,
    title: str,
    rows: Sequence[EvalRow],
    value: Callable[[EvalRow], float],
    axis: _Axis,
    strategies: list[str],
    sizes: list[int],
) -> list[str]:
    """One panel: frame, axis ticks, one polyline with dots per strategy."""

    def px(size: int) -> float:
        return x0 + (size - sizes[0]) / ((sizes[-1] - sizes[0]) or 1) * (_PANEL - 40)

    def py(v: float) -> float:
        return _TOP + _PLOT_H - axis.fraction(v) * _PLOT_H

    out = [
        f'<text x="{x0:.0f}" y="{_TOP - 14}" font-size="13" font-weight="600">{escape(title)}</text>',
        f'<rect x="{x0:.0f}" y="{_TOP}" width="{_PANEL - 40}" height="{_PLOT_H}" fill="none" stroke="#d0d7de"/>',
    ]
    out += [
        f'<text x="{x0 - 6:.0f}" y="{py(v) + 4:.1f}" font-size="10" text-anchor="end">{label}</text>'
        for v, label in axis.ticks
    ]
    out += [
        f'<text x="{px(size):.1f}" y="{_TOP + _PLOT_H + 16}" font-size="10" text-anchor="middle">{size}</text>'
        for size in sizes
    ]
    for index, name in enumerate(strategies):
        colour, dash = _line_style(index)
        points = [(px(r.size), py(value(r))) for r in rows if r.strategy == name and _finite(value(r))]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        out += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>' for x, y in points]
    return out


def chart_rows(rows: object, where: str) -> list[EvalRow]:
    """`rows` as a list of `EvalRow`, or a `ConfigurationError` naming what `where` takes (`listed_of`)."""
    return listed_of(rows, EvalRow, where, "evaluate(...)", noun="row")


def render_selection_chart_svg(rows: Sequence[EvalRow]) -> str:
    """Accuracy (left, %) and tools-block tokens (right, log scale) against catalogue size."""
    rows = chart_rows(rows, "render_selection_chart_svg")
    strategies = list(dict.fromkeys(r.strategy for r in rows))
    sizes = sorted({r.size for r in rows})
    height = _H + _LEGEND_ROW * max(0, (len(strategies) - 1) // _LEGEND_PER_ROW)
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{height}" '
            f'viewBox="0 0 {_W} {height}" font-family="system-ui,sans-serif" fill="#1f2328">'
        ),
        f'<rect width="{_W}" height="{height}" fill="#ffffff"/>',
    ]
    parts += _panel(
        _LEFT,
        "right tool reaches the model (%)",
        rows,
        lambda r: 100 * r.accuracy,
        _linear_percent(),
        strategies,
        sizes,
    )
    parts += _panel(
        _LEFT + _PANEL + 40,
        "tokens in the tools block (log scale)",
        rows,
        lambda r: r.tokens,
        _log_axis([r.tokens for r in rows]),
        strategies,
        sizes,
    )
    axis_y = _TOP + _PLOT_H + 34
    parts.append(
        f'<text x="{_W / 2:.0f}" y="{axis_y}" font-size="11" text-anchor="middle">tools in the catalogue</text>'
    )
    for i, name in enumerate(strategies):
        colour, _ = _line_style(i)
        x, y = _LEFT + (i % _LEGEND_PER_ROW) * 230, axis_y + (i // _LEGEND_PER_ROW) * _LEGEND_ROW
        parts.append(
            f'<rect x="{x}" y="{y + 14}" width="14" height="4" fill="{colour}"/>'
            f'<text x="{x + 20}" y="{y + 20}" font-size="11">{escape(name)}</text>'
        )
    if not rows:
        parts.append(
            f'<text x="{_W / 2:.0f}" y="{_TOP + _PLOT_H / 2:.0f}" font-size="12" text-anchor="middle">'
            "no rows to draw</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def render_selection_table(rows: Sequence[EvalRow]) -> str:
    """The chart's numbers as text (the plain-text fallback), a strategy's name on its row (`flat`)."""
    rows = chart_rows(rows, "render_selection_table")
    lines = [f"{'tools':>5}  {'strategy':<24} {'reaches':>7} {'first':>6} {'tokens':>7}"]
    lines += [
        f"{r.size:>5}  {flat(plain(r.strategy)):<24} {r.accuracy:>7.0%} {r.top1:>6.0%} {r.tokens:>7.0f}" for r in rows
    ]
    return "\n".join(lines)


class SelectionChart:
    """The chart as an SVG image in the notebook, with the table as text fallback."""

    rows: list[EvalRow]
    """The rows charted."""

    def __init__(self, rows: Sequence[EvalRow]) -> None:
        self.rows = chart_rows(rows, "SelectionChart")

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        svg, text = render_selection_chart_svg(self.rows), render_selection_table(self.rows)
        return showable_bundle({"image/svg+xml": svg, "text/plain": text})

    def __repr__(self) -> str:
        return showable(render_selection_table(self.rows))


def render_selection_html(rows: Sequence[EvalRow]) -> Html:
    """The numbers as an HTML table."""
    rows = chart_rows(rows, "render_selection_html")
    body = table(
        ["tools", "strategy", "right tool reaches the model", "right tool first", "tokens"],
        [[r.size, r.strategy, f"{r.accuracy:.0%}", f"{r.top1:.0%}", f"{r.tokens:,.0f}"] for r in rows],
    )
    return page(body, "selection accuracy and tokens")
