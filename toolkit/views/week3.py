"""Week 3's views: the probe verdict card, the drill table and the accuracy table.

Pure renderers (unit-tested, deterministic, the shared look of `toolkit.views.html`):
- `render_probe_html(result)`: the verdict as a coloured card — reason, advice, and the raw
  request and response in collapsible blocks;
- `render_drill_html(outcomes)`: one row per case — raw arguments, expected, what validation did
  (normalised value or the field / received / expected the model reads) — and the totals; raw
  arguments keep ids on one line and draw whitespace visibly (the drill is about whitespace);
- `render_accuracy_html(results)`: headline numbers, the group summary, a confusion view of
  expected vs first called tool, and one row per case coloured by verdict. Wide tables scroll
  inside their card, so nothing is cut off in a narrow output area.

Past `SHOWN_ITEMS` cases, the drill and the cases table draw the first and last 500 and a row
naming the rest (`toolkit.views.html.kept`); the totals, the headline and the confusion view
count every case. The views' texts (the CLI's lines) keep the same cases and note, with the same totals.

`probe_view`, `drill_view` and `accuracy_view` wrap them in `HtmlView` widgets whose saved
output also carries the HTML and the CLI's text (so nbval compares plain text; the probe's raw
response cut at `SHOWN_CHARS`, as its card cuts it).

Leaves out: sorting and filtering (read the CSV with pandas for that).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from toolkit.course.accuracy import CSV_COLUMNS, NOT_RUN, PASS_LINE, CaseResult, case_line, report_lines, summarize
from toolkit.course.drill import DrillOutcome, summary_lines
from toolkit.course.probe import ProbeResult, report
from toolkit.errors import ConfigurationError, listed_of
from toolkit.tools.decorator import a_kind_of
from toolkit.views.conversation import HtmlView
from toolkit.views.html import (
    Html,
    badge,
    card,
    code_block,
    code_point,
    details,
    escape,
    join,
    kept,
    kv_table,
    page,
    shortened,
    small,
    table,
)

VERDICT_KINDS = {
    "pass": "ok",
    "missed_call": "warn",
    "wrong_tool": "error",
    "malformed_arguments": "error",
    "invented_argument": "error",
    "wrong_argument": "error",
    "unwanted_call": "warn",
    "error": "error",
    NOT_RUN: "info",
}
"""Colour of each accuracy verdict (and of `not_run`: a case an interrupted suite did not finish)."""
PROBE_KINDS: dict[str | None, str] = {"A": "ok", "B": "warn", "C": "error", "D": "error", "E": "warn", None: "info"}
NO_CALL = "(no call)"
VISIBLE_WHITESPACE = {" ": "␣", "\u3000": "□", "\t": "⇥", "\n": "↵"}
"""How the drill shows whitespace: `"SN 2026 1020 0005"` must not look like `"sn202610200005"`."""
_ONE_LINE = "white-space:pre;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px"
_SCROLL = (
    "overflow-x:auto;max-width:100%;box-sizing:border-box;contain:inline-size"  # scroll inside, never widen the view
)


def visible_whitespace(text: str) -> str:
    """`text` with every space, full-width space, tab and newline drawn as a visible mark, and
    any other character that cannot be seen (another space or line break, a no-break or
    zero-width space, a format character) as its code point, `⟨U+00A0⟩`."""
    return "".join(VISIBLE_WHITESPACE.get(ch) or (code_point(ch) if _invisible(ch) else ch) for ch in text)


def _invisible(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) in ("Cf", "Cc", "Zs", "Zl", "Zp")


def one_line(text: str) -> Html:
    """Monospace text that never wraps (ids stay whole; the table scrolls instead)."""
    return Html(f'<span class="tk-one-line" style="{_ONE_LINE}">{escape(text)}</span>')


def scrolling(body: Html) -> Html:
    """A block that scrolls sideways instead of overflowing the notebook's output area."""
    return Html(f'<div class="tk-scroll" style="{_SCROLL}">{body}</div>')


def render_probe_html(result: ProbeResult) -> str:
    """The probe's verdict card, with the raw exchange folded away below it."""
    _check_probe(result, "render_probe_html")
    label = result.label
    kind = PROBE_KINDS[result.verdict]
    ex = result.exchange
    rows = [
        ("verdict", badge(f"{result.verdict or '?'} · {label}", kind)),
        ("HTTP status", ex.status if ex and ex.status is not None else "(no response)"),
        ("why", result.reason),
        ("advice", result.advice),
    ]
    raw = Html("")
    if ex is not None:
        raw = details(f"request · POST {ex.url}", code_block(ex.request)) + details(
            "raw response", code_block(ex.response_text), open=True
        )
    return str(page(card(f"gateway probe → {result.verdict or '?'}", kv_table(rows) + raw, kind), "gateway probe"))


def render_drill_html(outcomes: Sequence[DrillOutcome]) -> str:
    """The drill as a table; failures first in the totals line."""
    outcomes = listed_of(outcomes, DrillOutcome, "render_drill_html", "run_drill(...)")
    columns = ["", "id", "tool", "raw arguments", "expected", "got", "normalised / error"]
    rows = [
        _drill_row(outcomes[k]) if isinstance(k, int) else _note_row(k, len(columns))
        for k in kept(len(outcomes), "cases")
    ]
    blocked, totals = summary_lines(list(outcomes))
    failed = sum(not o.passed for o in outcomes)
    head = card("argument drill", join([totals, " · ", blocked]), "ok" if not failed else "error")
    note = "raw arguments: ␣ a space, □ a full-width space, ⇥ a tab, ↵ a line break"
    if any(_invisible(ch) and ch not in VISIBLE_WHITESPACE for o in outcomes for ch in o.case.arguments):
        note += ", ⟨U+…⟩ another character you could not see"
    note = small(note)
    return str(page(head + note + scrolling(table(columns, rows)), "argument drill: lenient in, strict out"))


def _drill_row(o: DrillOutcome) -> list[object]:
    """One case of the drill table."""
    mark = badge("PASS", "ok") if o.passed else badge("FAIL", "error")
    got = badge(o.got, "ok" if o.got == "ok" else "warn")
    wanted = f"{o.case.expect} · {o.case.expect_field}"
    if o.case.expect == "ok":
        wanted += f" = {o.case.expect_value}"
    shown = f"{o.field} = {o.value}" if o.got == "ok" else details(f"字段={o.field}，收到={o.value}", small(o.message))
    return [mark, one_line(o.case.id), o.case.tool, one_line(visible_whitespace(o.case.arguments)), wanted, got, shown]


def confusion(results: Sequence[CaseResult]) -> tuple[list[str], list[list[int]]]:
    """(labels, counts): counts[i][j] = cases expecting labels[i] whose first call was labels[j].
    Cases an interrupted suite did not run are left out (they called nothing: not "no call").
    Past `CONFUSION_LABELS` names (a model that invents a tool per case), the expected ones and
    then the most used are kept, and the rest are counted together, last, as `(N other tools)`."""
    results = [r for r in results if r.verdict != NOT_RUN]
    expected = [r.case.expect_tool or NO_CALL for r in results]
    called = [r.called_tools[0] if r.called_tools else NO_CALL for r in results]
    labels = sorted(set(expected) | set(called), key=lambda t: (t == NO_CALL, t))
    index = {label: i for i, label in enumerate(labels)}
    if len(labels) > CONFUSION_LABELS:
        labels, index = _folded(labels, Counter(expected + called), set(expected))
    counts = [[0] * len(labels) for _ in labels]
    for e, c in zip(expected, called):
        counts[index[e]][index[c]] += 1
    return labels, counts


CONFUSION_LABELS = 30
"""Most names (rows, and columns) the confusion view has: its table grows with their square."""


def _folded(labels: list[str], uses: Counter[str], expected: set[str]) -> tuple[list[str], dict[str, int]]:
    """The first `CONFUSION_LABELS - 1` of `labels` by (expected first, most used, their order),
    in their order, then the label the others are counted under; and each label's place."""
    rank = sorted(range(len(labels)), key=lambda i: (labels[i] not in expected, -uses[labels[i]], i))
    kept = sorted(rank[: CONFUSION_LABELS - 1])
    other = len(labels) - len(kept)
    folded = [labels[i] for i in kept] + [f"({other} other tools)"]
    index = dict.fromkeys(labels, len(kept)) | {labels[i]: n for n, i in enumerate(kept)}
    return folded, index


def _confusion_html(results: Sequence[CaseResult]) -> Html:
    labels, counts = confusion(results)
    rows = []
    for i, label in enumerate(labels):
        cells = [badge(n, "ok" if i == j else "error") if n else "·" for j, n in enumerate(counts[i])]
        rows.append([label, *cells])
    note = small(
        "rows: expected tool · columns: first tool actually called (errors are off the "
        "diagonal; order ids are judged separately)"
    )
    return card("confusion: expected vs called", scrolling(table(["expected \\ called", *labels], rows)) + note, "info")


def _not_run_row(results: Sequence[CaseResult]) -> list[tuple[str, str]]:
    """`[("not run", "2 cases (the suite was interrupted): not counted")]`, or `[]`."""
    count = sum(r.verdict == NOT_RUN for r in results)
    if not count:
        return []
    return [("not run", f"{count} case{'s' if count != 1 else ''} (the suite was interrupted): not counted")]


def render_accuracy_html(results: Sequence[CaseResult]) -> str:
    """Headline, groups, confusion view and every case, coloured by verdict."""
    results = listed_of(results, CaseResult, "render_accuracy_html", "run_suite(...)")
    s = summarize(results)
    met = s.meets_pass_line
    headline = kv_table(
        [
            (
                "tool-selection accuracy",
                badge(f"{s.passed} / {s.total} = {s.shown_accuracy}", "ok" if met else "error"),
            ),
            ("pass line", f"{PASS_LINE:.0%} — {'met' if met else 'NOT met'}"),
            ("average model calls per case", f"{s.average_model_calls:.1f}"),
            ("invented arguments", s.invented_arguments),
            ("verdicts", join([badge(f"{v} {n}", VERDICT_KINDS[v]) for v, n in s.verdicts.items() if n], " ")),
        ]
        + _not_run_row(results)
    )
    groups = table(["group", "passed", "total"], [[g, p, t] for g, (p, t) in s.by_group.items()])
    columns = CSV_COLUMNS[:9]  # the case, what was called, the verdict and the model calls (`_case_row`)
    cases = table(
        columns,
        [
            _case_row(results[k]) if isinstance(k, int) else _note_row(k, len(columns))
            for k in kept(len(results), "cases")
        ],
    )
    body = join(
        [
            card("summary", scrolling(headline + groups), "ok" if met else "error"),
            _confusion_html(results),
            card("cases", scrolling(cases), "info"),
        ]
    )
    return str(page(body, "tool-selection accuracy"))


def _case_row(r: CaseResult) -> list[object]:
    """One case of the accuracy table."""
    return [
        r.case.id,
        r.case.group,
        r.case.question,
        r.case.expect_tool or NO_CALL,
        one_line(r.case.expect_order_id),
        " + ".join(r.called_tools) or NO_CALL,
        one_line(r.called_order_id),
        badge(r.verdict, VERDICT_KINDS[r.verdict]),
        r.model_calls,
    ]


def _note_row(note: str, width: int) -> list[object]:
    """A row saying which rows a table left out (`kept`), in its first cell."""
    return [small(note), *[""] * (width - 1)]


def probe_view(result: ProbeResult) -> HtmlView:
    """The verdict card, its text the CLI's report with the raw response cut at `SHOWN_CHARS` as the
    card cuts it (a gateway answering megabytes put them all in the saved notebook's text/plain)."""
    _check_probe(result, "probe_view")
    ex = result.exchange
    shown = result if ex is None else replace(result, exchange=replace(ex, response_text=shortened(ex.response_text)))
    return HtmlView(render_probe_html(result), report(shown))


def drill_view(outcomes: Sequence[DrillOutcome]) -> HtmlView:
    outcomes = listed_of(outcomes, DrillOutcome, "drill_view", "run_drill(...)")
    lines = [k if isinstance(k, str) else shortened(outcomes[k].line()) for k in kept(len(outcomes), "cases")]
    return HtmlView(render_drill_html(outcomes), "\n".join(lines + summary_lines(outcomes)))


def accuracy_view(results: Sequence[CaseResult]) -> HtmlView:
    results = listed_of(results, CaseResult, "accuracy_view", "run_suite(...)")
    lines = [k if isinstance(k, str) else shortened(case_line(results[k])) for k in kept(len(results), "cases")]
    totals = report_lines(results)[len(results) :]  # the CLI's report: a line per case, then the totals
    return HtmlView(render_accuracy_html(results), "\n".join(lines + totals))


def _check_probe(result: object, where: str) -> None:
    """A `ConfigurationError` unless `result` is a `ProbeResult` (not "'NoneType' object has no attribute 'exchange'")."""
    if not isinstance(result, ProbeResult):
        raise ConfigurationError(f"{where}(): takes the ProbeResult probe(client) returns, and got {a_kind_of(result)}")
