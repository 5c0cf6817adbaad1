"""Step through a recorded loop run: Previous / Next, one loop step at a time.

    LoopStepper(result)

The loop's ten steps (`toolkit.loop.run`: send, record, exit?, bound, execute, repair, saga,
append, return?, refresh) are listed once; each click moves to the next step that happened in
the run and highlights it, with what happened there (the tools sent, the reply, each call and
its result, the decision). Steps that did nothing in a round (no repair, no saga) are skipped.
`steps(result)` is the same walk as data, which the text fallback prints whole; it reads the
run's executions once, finding each round's rolled-back calls in a table built up front.

Arguments, results and the reply's text are scrubbed as in the trace view
(`toolkit.tools.redact.scrub`): no secret or path from a tool or the model is shown.

A run with no round (a `loop_result` whose first request failed) shows that it has no steps.

Leaves out: replaying the run (the steps come from `LoopResult.rounds`, recorded as it ran).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from toolkit.errors import ConfigurationError
from toolkit.loop.records import LoopResult
from toolkit.loop.saga import SagaEntry, ToolExecution
from toolkit.unicode import unescaped
from toolkit.views.conversation import TextRepr, scrubbed_line
from toolkit.views.html import NO_MATH, escape, flat_name, kept, showable_bundle
from toolkit.views.trace import NOT_FINISHED, named, run_of, unfinished

NO_STEPS = "no steps: the run got no reply from the model (its first request failed or was stopped)"
LOOP_STEPS = ("send", "record", "exit?", "bound", "execute", "repair", "saga", "append", "return?", "refresh")


@dataclass(frozen=True)
class Step:
    round: int
    number: int
    """1–10: the loop step."""
    detail: str

    @property
    def name(self) -> str:
        return LOOP_STEPS[self.number - 1]

    def line(self) -> str:
        return f"round {self.round} · step {self.number} {self.name}: {self.detail}"


def steps(result: LoopResult) -> list[Step]:
    """Every step the run went through, in order."""
    result = run_of(result, "steps")
    out: list[Step] = []
    trips = 0
    sagas = _saga_steps(result.executions, result.saga)
    for i, trace in enumerate(result.rounds):
        r = trace.index
        add = lambda n, text, r=r: out.append(Step(r, n, text))  # noqa: E731
        sent = len(trace.tools_sent)
        add(1, f"{sent} tool{'s' if sent != 1 else ''} sent ({named(trace.tools_sent) or 'none'})")
        calls = trace.reply.tool_calls
        add(
            2,
            ("asks for " + named([flat_name(c.name) for c in calls]))
            if calls
            else scrubbed_line(trace.reply.content or "", 80),
        )
        if not calls:
            add(3, "no tool calls: the reply is the answer")
            continue
        add(3, "tool calls: go on")
        trips += 1
        left = unfinished(result, trace)  # a run stopped mid-round (Ctrl-C while a tool ran)
        if not trace.executions and not left:  # a tool-calling reply that was never executed: over the bound
            add(4, f"round trip {trips} is over the bound → {trace.decision}")
            continue
        add(4, f"round trip {trips}: within the bound")
        for e in trace.executions:
            mark = f" ✗ ({e.failure})" if e.failure else ""
            arguments, content = (
                scrubbed_line(unescaped(e.call.arguments), 50),
                scrubbed_line(e.result.content, 60),
            )
            add(5, f"{flat_name(e.call.name)}({arguments}) → {content}{mark}")
        for c, answer in left:
            arguments, content = scrubbed_line(unescaped(c.arguments), 50), scrubbed_line(answer, 60)
            add(5, f"{flat_name(c.name)}({arguments}) → {content} ✗ ({NOT_FINISHED})")
        if any(e.error_kind == "argument" for e in trace.executions):
            handed = trace.decision.startswith("hand")
            add(
                6,
                "a second argument error on the tool → hand over"
                if handed
                else "the argument error goes back with a hint",
            )
        if r in sagas:
            add(7, sagas[r])
        add(8, f"{len(trace.executions) + len(left)} tool result(s) appended")
        add(9, trace.decision or "continue")
        if trace.decision not in ("continue", ""):
            continue
        if i + 1 < len(result.rounds):
            now, then = set(trace.tools_sent), set(result.rounds[i + 1].tools_sent)
            change = [f"+{t}" for t in sorted(then - now)] + [f"-{t}" for t in sorted(now - then)]
            add(10, "effective tools: " + (named(change) if change else "unchanged"))
    return out


def _saga_steps(executions: list[ToolExecution], saga: list[SagaEntry]) -> dict[int, str]:
    """Step 7's text under each round a saga ran in: the calls it rolled back and those it could not
    (their compensation failed or never ran), each in run order. The saga log says where each saga ran; a
    result whose log lacks it (made by hand) is read from the executions alone."""
    if not saga or any(entry.round is None for entry in saga):
        return {
            r: "rolled back: " + ", ".join(flat_name(e.call.name) for e in rolled)
            for r, rolled in _rolled_back_by_round(executions).items()
        }
    where = {(entry.call_round, entry.call_id): (entry.round, entry.ok) for entry in saga}
    names: dict[int, tuple[list[str], list[str]]] = {}
    for e in executions:
        if (found := where.get((e.round, e.call.id))) is not None and found[0] is not None:
            undone, kept = names.setdefault(found[0], ([], []))
            (undone if found[1] else kept).append(flat_name(e.call.name))
    return {r: _saga_text(undone, kept) for r, (undone, kept) in names.items()}


def _saga_text(undone: list[str], kept: list[str]) -> str:
    parts = [f"rolled back: {', '.join(undone)}"] if undone else []
    parts += [f"not rolled back: {', '.join(kept)}"] if kept else []
    return "; ".join(parts)


def _rolled_back_by_round(executions: list[ToolExecution]) -> dict[int, list[ToolExecution]]:
    """The rolled-back calls, in run order, under the round of their saga: the last round in
    which the tool whose failure caused the rollback failed. One pass over the executions."""
    last_failure: dict[str, int] = {}
    for e in executions:
        if e.failure:
            last_failure[e.call.name] = max(e.round, last_failure.get(e.call.name, e.round))
    by_round: dict[int, list[ToolExecution]] = {}
    for e in executions:
        saga_round = last_failure.get(e.rolled_back_by) if e.rolled_back_by else None
        if saga_round is not None:
            by_round.setdefault(saga_round, []).append(e)
    return by_round


class LoopStepper(TextRepr, widgets.VBox):
    """Previous / Next over a recorded run, the current loop step highlighted."""

    steps: list[Step]
    """The run's loop steps, in order."""
    index: int
    """The step shown (counted from 0)."""
    previous: widgets.Button
    next: widgets.Button
    position: widgets.Label
    """"step i of n"."""
    view: widgets.HTML
    """The current step, as `html()`."""

    def __init__(self, result: LoopResult, **kwargs: Any) -> None:
        self.steps = steps(run_of(result, "LoopStepper"))
        self.index = 0
        self.previous = widgets.Button(description="◀ Previous")
        self.next = widgets.Button(description="Next ▶")
        self.position = widgets.Label()
        self.view = widgets.HTML()
        self.previous.on_click(lambda _: self.go(self.index - 1))
        self.next.on_click(lambda _: self.go(self.index + 1))
        super().__init__([widgets.HBox([self.previous, self.next, self.position]), self.view], **kwargs)
        self.go(0)

    @property
    def current(self) -> Step:
        """The step shown; a `ConfigurationError` saying so for a run with no steps (not an IndexError)."""
        if not self.steps:
            raise ConfigurationError(f"LoopStepper.current: there is no step to show, {NO_STEPS}")
        return self.steps[self.index]

    def go(self, index: int) -> None:
        """Show step `index` (counted from 0; one past either end shows that end)."""
        if isinstance(index, bool) or not isinstance(index, numbers.Integral):  # NumPy's whole numbers too
            raise ConfigurationError(
                f"LoopStepper.go(index): takes a step's number, counted from 0, and got {type(index).__name__}; "
                "e.g. stepper.go(2)"
            )
        self.index = max(0, min(int(index), len(self.steps) - 1))
        self.previous.disabled, self.next.disabled = self.index == 0, self.index >= len(self.steps) - 1
        self.position.value = f"step {self.index + 1} of {len(self.steps)}" if self.steps else NO_STEPS
        self.view.value = self.html()

    def html(self) -> str:
        if not self.steps:
            return f'<div class="{NO_MATH}">{escape(NO_STEPS)}</div>'
        step = self.current
        items = []
        for n, name in enumerate(LOOP_STEPS, 1):
            style = "background:#fff8c5;font-weight:bold" if n == step.number else "color:#57606a"
            items.append(f'<li style="{style}">{escape(name)}</li>')
        return (
            f'<div class="{NO_MATH}"><b>round {step.round}</b><ol>{"".join(items)}</ol>'
            f"<div style='border-left:4px solid #0969da;padding-left:8px'>{escape(step.detail)}</div></div>"
        )

    def text(self) -> str:
        shown = kept(len(self.steps), "steps", also=self.index)
        lines = [i if isinstance(i, str) else ("▶ " if i == self.index else "  ") + self.steps[i].line() for i in shown]
        return "\n".join(lines) or NO_STEPS

    def _plain_text(self) -> str:
        return self.text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = self._widget_bundle(**kwargs)
        return showable_bundle({**bundle, "text/plain": self.text(), "text/html": self.html()})
