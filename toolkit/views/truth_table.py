"""The return-behaviour truth table, as a static table and as a widget to play with.

- `render_truth_table_html(rows)`: every round of one and two calls (3 + 9 rows), then each
  again with a failing call — the behaviours, whether a call failed, the decision and the rule
  that fired (`toolkit.loop.returns`). `render_truth_table_text(rows)` is its plain-text twin.
- `render_decision_html(behaviors, any_error)`: the decision for one round, with its rule.
- `TruthTableWidget()`: pick one or two calls, each call's behaviour and "a call fails"; the
  decision and the rule update live. Its stored output (for a saved notebook, and for nbval)
  is the current decision plus the whole static table, as HTML and as text.

Leaves out: rounds of three or more calls (the rules need nothing new to explain them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as widgets

from toolkit.errors import ConfigurationError
from toolkit.loop.returns import TruthRow, rule_applied, should_return_immediately, truth_table
from toolkit.tools.decorator import ReturnBehavior, a_kind_of, value_text
from toolkit.views.conversation import TextRepr
from toolkit.views.html import Html, badge, card, join, page, showable_bundle, small, table

COLUMNS = ("calls in the round, in order", "a call fails", "decision", "rule")


def decision_text(returns: bool) -> str:
    return "return immediately" if returns else "continue"


def _decision_badge(returns: bool) -> Html:
    return badge(decision_text(returns), "ok" if returns else "info")


def _behaviors(behaviors: Sequence[ReturnBehavior]) -> str:
    return ", ".join(b.name for b in behaviors)


def table_rows(rows: object, where: str) -> list[TruthRow]:
    """The rows to show: `truth_table()` for None, else a list of `TruthRow`s. Anything else is refused
    here: a str was read letter by letter, a number was a raw `TypeError`, and a widget showed its
    controls as if nothing were wrong."""
    if rows is None:
        return truth_table()
    if isinstance(rows, int) and not isinstance(rows, bool) and rows > 0:  # the number of calls, most likely
        fix = f"for rounds of up to {rows} calls: {where}(truth_table({rows}))"
    elif isinstance(rows, TruthRow):
        fix = f"put it in a list: {where}([row])"
    else:
        fix = f"leave it out for the whole table, or pass some of its rows, e.g. {where}(truth_table()[:3])"
    if isinstance(rows, (str, bytes, TruthRow)) or not isinstance(rows, Iterable):
        raise ConfigurationError(
            f"{where}({_shown(rows)}): takes a list of TruthRow (truth_table() makes them), and got "
            f"{a_kind_of(rows)}. Fix: {fix}"
        )
    listed = list(rows)
    wrong = next((i for i, row in enumerate(listed) if not isinstance(row, TruthRow)), None)
    if wrong is not None:
        raise ConfigurationError(
            f"{where}([...]): row {wrong} is {a_kind_of(listed[wrong])}, not a TruthRow. Fix: {fix}"
        )
    return listed


def _shown(value: object) -> str:
    text = value_text(value)
    return text if len(text) <= 40 else f"{type(value).__name__}(...)"


def render_truth_table_html(rows: Sequence[TruthRow] | None = None) -> Html:
    """The whole table (default: `truth_table()`, 24 rows)."""
    rows = table_rows(rows, "render_truth_table_html")
    cells = [
        [_behaviors(r.behaviors), "yes" if r.any_error else "no", _decision_badge(r.returns), r.rule] for r in rows
    ]
    note = small(_note(rows))
    return page(note + table(COLUMNS, cells), title="Return behaviours: the truth table")


def _note(rows: list[TruthRow]) -> str:
    """What the table holds, from its rows: `24 rounds: every combination of one and two calls,
    without and with a failing call` for `truth_table()`, `3 rounds of one call, without a failing
    call` for three of its rows (it said "every combination of one and two calls" of any rows)."""
    if not rows:
        return "no rounds"
    sizes = sorted({len(r.behaviors) for r in rows})
    errors = {r.any_error for r in rows}
    calls = _calls(sizes)
    failing = "without and with" if len(errors) == 2 else "with" if True in errors else "without"
    whole = 2 * sum(len(ReturnBehavior) ** n for n in sizes)  # rows of truth_table(n), if they are
    if sizes == list(range(1, sizes[-1] + 1)) and len(rows) == whole and rows == truth_table(sizes[-1]):
        return f"{len(rows)} rounds: every combination of {calls}, {failing} a failing call"
    return f"{len(rows)} round{'s' * (len(rows) != 1)} of {calls}, {failing} a failing call"


def _calls(sizes: list[int]) -> str:
    """`one call`, `two calls`, `one and two calls`, `1 to 3 calls`, `1, 3 calls`: the round sizes."""
    words = {1: "one", 2: "two"}
    if sizes[-1] <= 2:
        return " and ".join(words[n] for n in sizes) + (" call" if sizes == [1] else " calls")
    if sizes == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]} to {sizes[-1]} calls"
    return ", ".join(map(str, sizes)) + " calls"


def render_truth_table_text(rows: Sequence[TruthRow] | None = None) -> str:
    """One line per row: `TO_LLM, IMMEDIATE_IF_LAST | fails: no → return immediately (rule)`."""
    rows = table_rows(rows, "render_truth_table_text")
    return "\n".join(
        f"{_behaviors(r.behaviors)} | fails: {'yes' if r.any_error else 'no'} → {decision_text(r.returns)} ({r.rule})"
        for r in rows
    )


def render_decision_html(behaviors: Sequence[ReturnBehavior], any_error: bool) -> Html:
    """One round's decision: the calls, the failure flag, the decision and its rule."""
    returns = should_return_immediately(behaviors, any_error)
    body = join(
        [
            small(f"calls: {_behaviors(behaviors)} · a call fails: {'yes' if any_error else 'no'}"),
            _decision_badge(returns),
            " ",
            rule_applied(behaviors, any_error),
        ]
    )
    return card("decision", body, "ok" if returns else "info")


def decision_line(behaviors: Sequence[ReturnBehavior], any_error: bool) -> str:
    returns = should_return_immediately(behaviors, any_error)
    return (
        f"{_behaviors(behaviors)} | fails: {'yes' if any_error else 'no'} → "
        f"{decision_text(returns)} ({rule_applied(behaviors, any_error)})"
    )


class TruthTableWidget(TextRepr, widgets.VBox):
    """Pick a round, see what the loop decides. `behaviors`, `any_error` and `decision` read the
    current state; setting the controls from Python (`.first.value = "IMMEDIATE"`) works too."""

    count: widgets.ToggleButtons
    """How many calls the round makes (1 or 2)."""
    first: widgets.Dropdown
    """The first call's `ReturnBehavior` name."""
    second: widgets.Dropdown
    """The second call's `ReturnBehavior` name."""
    fails: widgets.Checkbox
    """Whether a call fails."""
    output: widgets.HTML
    """What the loop decides."""

    def __init__(self, rows: Sequence[TruthRow] | None = None, **kwargs: Any) -> None:
        self._rows = table_rows(rows, "TruthTableWidget")
        names = [b.name for b in ReturnBehavior]
        self.count = widgets.ToggleButtons(options=[1, 2], value=2, description="calls")
        self.first = widgets.Dropdown(options=names, value="TO_LLM", description="call 1")
        self.second = widgets.Dropdown(options=names, value="IMMEDIATE_IF_LAST", description="call 2")
        self.fails = widgets.Checkbox(value=False, description="a call fails")
        self.output = widgets.HTML()
        for control in (self.count, self.first, self.second, self.fails):
            control.observe(self._update, names="value")
        super().__init__([self.count, self.first, self.second, self.fails, self.output], **kwargs)
        self._update()

    @property
    def behaviors(self) -> tuple[ReturnBehavior, ...]:
        """The return behaviour of each call the controls describe (one or two)."""
        picked = [self.first.value, self.second.value][: self.count.value]
        return tuple(ReturnBehavior[name] for name in picked)

    @property
    def any_error(self) -> bool:
        """Whether the controls say a call fails."""
        return bool(self.fails.value)

    @property
    def decision(self) -> str:
        """What the loop does for these controls: "return immediately" or "continue"."""
        return decision_text(should_return_immediately(self.behaviors, self.any_error))

    def _update(self, change: dict[str, Any] | None = None) -> None:
        self.second.disabled = self.count.value == 1
        self.output.value = str(page(render_decision_html(self.behaviors, self.any_error)))

    def _plain_text(self) -> str:
        return f"decision: {decision_line(self.behaviors, self.any_error)}\n{render_truth_table_text(self._rows)}"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = self._widget_bundle(**kwargs)
        decision = page(render_decision_html(self.behaviors, self.any_error))
        html = decision + render_truth_table_html(self._rows)
        return showable_bundle({**bundle, "text/html": str(html), "text/plain": self._plain_text()})
