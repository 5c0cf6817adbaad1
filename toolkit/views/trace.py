"""The trace view of one loop run, and the saga log: what the loop saw and decided, round by round.

Pure renderers (unit-tested, stable under nbval), built from the shared `toolkit.views.html` helpers:

- `render_trace_html(result, show_timing)`: one card per model request — the tools sent (names
  and the tools block's estimated tokens), `tool_choice`, the model's thinking when its gateway
  sent it apart (`reasoning_content`, `reasoning`, …: its first `THINKING_SHOWN` characters), the
  model's reply (text or tool calls),
  each execution (arguments, then the result, or the error with a badge naming its channel;
  its duration only with `show_timing`), the images passed on after the results (as markers:
  `toolkit.loop.images`), the round's tokens, how its reply ended when not as usual (`finish_reason`
  `length`, `content_filter`, …: `finish_shown`) and the loop's decision (continue /
  answer / return immediately / hand over / limit / stopped) — then a summary: how the call
  finished, the two counts (model requests, and tool round trips: the requests whose reply
  asked for tools), total tokens, on an immediate return what the caller receives, and for a
  run that raised (its `loop_result`) where the failure stopped it and what it was (`stopped at
  model request 2 (no reply recorded): TransientError: …`: a failed request has no round of its own).
- `render_trace_text(result, show_timing)`: the same as a short text, one line per fact.
- `render_saga_html(result, before, after)`: the saga log (each compensation, ok or failed),
  and, given the conversation before and after the rewrite, every tool result that changed.

Thin widgets: `TraceView` and `SagaView` (`toolkit.views.conversation.HtmlView`: the live widget, plus the
HTML and the text in the notebook's stored output). No call ids, no addresses, no clock:
durations appear only when asked for, so a notebook injects a fake clock first. Every text from
a tool or the model (arguments, results, replies, the answer, what an immediate return hands
the caller, the saga's details and rewritten results) passes through `toolkit.tools.redact.scrub`
in the HTML and in the text alike: a tool that returns a secret, or a model that repeats it,
leaves none in a trace.

A run of more than 1,000 rounds shows its first and last 500 and a note naming the rest
(`toolkit.views.html.kept`).

Leaves out: the truth table (`toolkit.views.truth_table`), timelines, live updates mid-run.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolkit.chat.messages import MESSAGE_TYPES, Message, TokenUsage, ToolCall, ToolResultMessage
from toolkit.chat.reasoning_fields import reasoning_text
from toolkit.errors import ConfigurationError, a_kind_of
from toolkit.loop.cut_off import CUT_WORDS
from toolkit.loop.run import LoopResult, RoundTrace
from toolkit.loop.saga import ToolExecution
from toolkit.unicode import cut, unescaped
from toolkit.views.conversation import THINKING_SHOWN, HtmlView, image_markers, one_line, scrubbed_text
from toolkit.views.html import (
    Html,
    badge,
    card,
    code_block,
    flat,
    flat_name,
    join,
    kept,
    kv_table,
    page,
    showable,
    small,
    table,
    text_block,
)

ERROR_LABELS = {
    "unknown_tool": "unknown tool",
    "argument": "argument error",
    "execution": "execution error",
    "guard": "loop guard",
    "not_run": "not run",
    "reported": "reported error",
}
"""`ToolExecution.failure` → the badge text (the three error channels, the guard, the limit, a
failure the tool reported itself)."""
NAMES_SHOWN = 30
"""Most names of the tools a round sent that a view lists; the rest are counted."""
NOTE_CHARS = 400
"""Most characters of a round's note in the text (a note may quote a model's tool name of any length)."""
NOT_FINISHED = "not finished"
"""The badge of a call a stopped round left without a recorded result (`unfinished`)."""
NO_ANSWER = "(no answer recorded)"
ROLLED_BACK = "rolled back"


def decision_kind(decision: str) -> str:
    """The badge colour of a round's decision."""
    for prefix, kind in (
        ("answer", "ok"),
        ("continue", "info"),
        ("return", "tool"),
        ("hand over", "warn"),
        ("limit", "warn"),
    ):
        if decision.startswith(prefix):
            return kind
    return "error"  # "stopped: ..." (a policy raised) or anything unexpected


def execution_status(execution: ToolExecution) -> tuple[str, str]:
    """`(badge text, kind)`: ok, rolled back (a saga rewrote it), or the error channel."""
    if execution.rolled_back_by:
        return ROLLED_BACK, "warn"
    failure = execution.failure
    if failure:
        return ERROR_LABELS.get(failure, failure), "error"
    return "ok", "ok"


def unfinished(result: LoopResult, trace: RoundTrace) -> list[tuple[ToolCall, str]]:
    """The calls of a round the run stopped in before their results were recorded (Ctrl-C while a
    tool ran, memory failing), each with the answer the loop gave it in the messages (`Interrupted
    by KeyboardInterrupt while it ran: …`): the round records no execution for them. Empty for any
    other round (one whose calls all ran, or that was over the bound)."""
    if not trace.decision.startswith("stopped"):
        return []
    ran = {e.call.id for e in trace.executions}
    left = [c for c in trace.reply.tool_calls if c.id not in ran]
    wanted, answers = {c.id for c in left}, dict[str, str]()
    for message in reversed(result.messages if left else ()):  # the loop's answers come last
        if isinstance(message, ToolResultMessage) and message.tool_call_id in wanted:
            answers.setdefault(message.tool_call_id, message.content)
            if len(answers) == len(wanted):
                break
    return [(c, answers.get(c.id, NO_ANSWER)) for c in left]


def _choice(choice: Any) -> str:
    if choice is None:
        return "not set (the gateway's default: auto)"
    return choice if isinstance(choice, str) else json.dumps(choice, ensure_ascii=False, sort_keys=True)


def _shown(text: str | None) -> str:
    """`text` as a trace shows it: secrets and paths scrubbed (`toolkit.tools.redact.scrub`), as far as
    a view shows it (`scrubbed_text`: a tool's 2 MB of look-alike text took 10 s to scrub whole)."""
    return scrubbed_text(text or "")


def _thought(trace: RoundTrace) -> str:
    """The thinking a round's reply sent apart from its answer (`reasoning_text`), scrubbed as the
    trace scrubs; "" when none."""
    extra = trace.reply.extra
    thought = reasoning_text(extra) if extra else ""
    return _shown(thought) if thought else ""


def _shown_arguments(arguments: str) -> str:
    """A call's arguments as a trace shows them: printable `\\u` escapes as their characters
    (`toolkit.unicode.unescaped`), then scrubbed."""
    return _shown(unescaped(arguments))


def _tokens(usage: TokenUsage) -> str:
    return usage.line()


def named(names: Sequence[str]) -> str:
    """`a, b, c`: the first `NAMES_SHOWN` names, and how many more (a round may send 800 tools)."""
    more = len(names) - NAMES_SHOWN
    return ", ".join(names[:NAMES_SHOWN]) + (f", … and {more:,} more" if more > 0 else "")


def _tools_sent(trace: RoundTrace) -> str:
    if not trace.tools_sent:
        return "none"
    return f"{named(trace.tools_sent)} (≈ {trace.tools_tokens} tokens)"


def finish_shown(trace: RoundTrace) -> str | None:
    """How a round's reply ended, when not as usual (`stop`, `tool_calls`, or not said): `length (cut off
    by its length limit)`, `content_filter (cut off by the gateway's content filter)` (`CUT_WORDS`), or
    the gateway's word on one line; an answer so cut off looked complete in a trace."""
    reason = trace.finish_reason
    if reason is None or reason in ("stop", "tool_calls"):
        return None
    words = CUT_WORDS.get(reason)
    return one_line(reason, 60) + (f" (cut off by {words})" if words else "")


def _image_tools(trace: RoundTrace) -> str:
    """The tools whose images the round passed on (names, not call ids: views show no ids)."""
    ids = set(trace.images.from_tool_calls) if trace.images is not None else set()
    return ", ".join(dict.fromkeys(e.call.name for e in trace.executions if e.call.id in ids)) or "?"


# 1. One round as HTML.


def _execution_html(execution: ToolExecution, show_timing: bool) -> Html:
    label, kind = execution_status(execution)
    title = [execution.call.name, badge(label, kind)]
    title += [badge(f"{execution.duration_s:.2f} s", "info")] if show_timing else []
    result = _shown(execution.result.content)
    body = code_block(_shown_arguments(execution.call.arguments)) + small(
        "result" if kind == "ok" else "sent back as an error"
    )
    body += code_block(result) if result.lstrip()[:1] in "{[" else text_block(result)
    return card(join(title, " "), body, "error" if kind == "error" else "tool")


def _unfinished_html(call: ToolCall, answer: str) -> Html:
    said = "the run stopped before an answer to it was recorded" if answer is NO_ANSWER else None
    body = code_block(_shown_arguments(call.arguments)) + small(said or "answered by the loop: the run stopped")
    return card(join([call.name, badge(NOT_FINISHED, "warn")], " "), body + text_block(_shown(answer)), "warn")


def _round_html(trace: RoundTrace, show_timing: bool, left: list[tuple[ToolCall, str]]) -> Html:
    finish = finish_shown(trace)
    facts = kv_table(
        [
            ("tools sent", _tools_sent(trace)),
            ("tool_choice", _choice(trace.tool_choice)),
            ("tokens", _tokens(trace.usage)),
            *([("finish_reason", badge(finish, "warn"))] if finish else []),
        ]
    )
    reply = trace.reply
    parts = [facts]
    parts += [small(note) for note in trace.notes]
    thought = _thought(trace)
    parts += [card("model thinking (not the answer)", text_block(cut(thought, THINKING_SHOWN)), "info")] * bool(thought)
    parts += [card("model reply", text_block(_shown(reply.content)), "assistant")] if reply.content else []
    if reply.tool_calls and not trace.executions and not left:
        names = named([c.name for c in reply.tool_calls])
        parts.append(card("model asked for tools", text_block(f"{names} — not run"), "warn"))
    elif not reply.content and reply.refusal:
        parts.append(card("model refused", text_block(_shown(reply.refusal)), "warn"))
    elif not reply.content and not reply.tool_calls:
        parts.append(small("(empty reply)"))
    parts += [_execution_html(e, show_timing) for e in trace.executions]
    parts += [_unfinished_html(call, answer) for call, answer in left]
    if trace.images is not None:
        title = f"images passed on from {_image_tools(trace)} (a user message after the results)"
        parts.append(card(title, text_block(image_markers(trace.images.images)), "user"))
    decision = trace.decision or "(none)"
    title = join([f"round {trace.index}", badge(decision, decision_kind(decision))], " ")
    return card(title, join(parts), "assistant" if trace.decision == "answer" else "info")


def _summary_rows(result: LoopResult) -> list[tuple[Any, Any]]:
    kinds = {"answer": "ok", "immediate": "tool", "handover": "warn"}
    rows: list[tuple[Any, Any]] = [
        ("finish", badge(result.finish, kinds.get(result.finish, "info"))),
        (_requests_label(result), str(len(result.rounds))),
        ("tool round trips", f"{result.round_trips} (requests whose reply asked for tools)"),
        ("tokens", _tokens(result.usage)),
    ]
    if result.answer is not None:
        rows.append(("answer", text_block(_shown(result.answer))))
    if result.finish == "immediate":
        received = [f"{m.tool_name}: {_shown(m.content)}" for m in result.immediate_results]
        rows.append(("the caller receives", text_block("\n".join(received))))
    if result.saga:
        rows.append(("compensations", f"{len(result.saga)} (see the saga log)"))
    stopped = stopped_shown(result)
    if stopped is not None:
        rows.append(("stopped at", text_block(stopped)))
    return rows


def stopped_shown(result: LoopResult) -> str | None:
    """Where and why a run that raised stopped (`LoopResult.stopped_at`, `stopped_by`: `model request 2
    (no reply recorded): TransientError: …`), on one line; None for a run that finished."""
    if result.stopped_at is None:
        return None
    return one_line(_shown(f"{result.stopped_at}: {result.stopped_by or '(unknown)'}"), 400)


def _kept(result: LoopResult) -> list[int | str]:
    """The rounds a trace draws (`toolkit.views.html.kept`): all, or the first and last 500."""
    return kept(len(result.rounds), "rounds")


def render_trace_html(result: LoopResult, show_timing: bool = False) -> Html:
    """The whole run: one card per round, then the summary."""
    result = run_of(result, "render_trace_html")
    _check_timing(show_timing, "render_trace_html")
    rounds = [
        small(k)
        if isinstance(k, str)
        else _round_html(result.rounds[k], show_timing, unfinished(result, result.rounds[k]))
        for k in _kept(result)
    ]
    return page(join([*rounds, card("summary", kv_table(_summary_rows(result)), "info")]), title="Loop trace")


# 2. The same as text.


def _requests_label(result: LoopResult) -> str:
    """What the rounds count: `model requests`, or for a run that raised (its `loop_result`)
    `model replies` (its last request may have failed: the gateway down, an HTTP 400)."""
    return "model replies" if result.finish == "stopped" else "model requests"


def counts(result: LoopResult) -> str:
    """`3 model requests, 2 tool round trips`: the two counts, never both called round trips
    (`model replies` for a run that raised)."""
    requests, trips = len(result.rounds), result.round_trips
    label = _requests_label(result)
    one = {"model requests": "model request", "model replies": "model reply"}[label]
    return f"{requests} {label if requests != 1 else one}, {trips} tool round trip{'s' if trips != 1 else ''}"


def _round_text(trace: RoundTrace, show_timing: bool, left: list[tuple[ToolCall, str]]) -> list[str]:
    lines = [f"round {trace.index} · tools sent: {_tools_sent(trace)} · tool_choice: {_choice(trace.tool_choice)}"]
    lines += [f"  note: {flat(cut(note, NOTE_CHARS))}" for note in trace.notes]  # a model's name in it: one line
    thought = _thought(trace)
    lines += [f"  model thinking: {one_line(thought, 160)}"] if thought else []
    if trace.reply.content:
        lines.append(f"  model: {one_line(_shown(trace.reply.content), 160)}")
    elif trace.reply.refusal:
        lines.append(f"  model refused: {one_line(_shown(trace.reply.refusal), 160)}")
    lines += [
        f"  model → {flat_name(c.name)}({one_line(_shown_arguments(c.arguments), 160)})" for c in trace.reply.tool_calls
    ]
    finish = finish_shown(trace)
    lines += [f"  finish_reason: {finish}"] if finish else []
    if trace.reply.tool_calls and not trace.executions and not left:  # over the bound: never run (as the HTML says)
        lines.append(f"  {flat(named([c.name for c in trace.reply.tool_calls]))} — not run")
    for e in trace.executions:
        label, _ = execution_status(e)
        timing = f" ({e.duration_s:.2f} s)" if show_timing else ""
        lines.append(f"  {flat_name(e.call.name)} [{label}]{timing}: {one_line(_shown(e.result.content), 160)}")
    lines += [f"  {flat_name(c.name)} [{NOT_FINISHED}]: {one_line(_shown(answer), 160)}" for c, answer in left]
    if trace.images is not None:
        lines.append(f"  images passed on from {flat(_image_tools(trace))}: {image_markers(trace.images.images)}")
    lines += [f"  tokens: {_tokens(trace.usage)}", f"  decision: {trace.decision or '(none)'}"]
    return lines


def render_trace_text(result: LoopResult, show_timing: bool = False) -> str:
    """A short text trace: a few lines per round, then the summary line (and the answer)."""
    result = run_of(result, "render_trace_text")
    _check_timing(show_timing, "render_trace_text")
    lines = [
        line
        for k in _kept(result)
        for line in (
            [k]
            if isinstance(k, str)
            else _round_text(result.rounds[k], show_timing, unfinished(result, result.rounds[k]))
        )
    ]
    lines.append(f"finish: {result.finish} · {counts(result)} · tokens: {_tokens(result.usage)}")
    stopped = stopped_shown(result)
    lines += [f"stopped at {stopped}"] if stopped is not None else []
    if result.answer is not None:
        lines.append(f"answer: {one_line(_shown(result.answer), 160)}")
    lines += [
        f"caller receives: {flat_name(m.tool_name)}: {one_line(_shown(m.content), 160)}"
        for m in result.immediate_results
    ]
    return showable("\n".join(lines))


# 3. The saga log.

Rewrite = tuple[str, ToolResultMessage, ToolResultMessage]


def rewritten_results(before: Sequence[Message], after: Sequence[Message]) -> list[Rewrite]:
    """`(tool, before, after)` for every tool result that the rewrite changed, matched by call id and,
    among the results of one id, by their order (a model may reuse an id every round)."""
    old: dict[str, list[ToolResultMessage]] = {}
    for m in before:
        if isinstance(m, ToolResultMessage):
            old.setdefault(m.tool_call_id, []).append(m)
    seen: dict[str, int] = {}
    changed: list[Rewrite] = []
    for m in after:
        if not isinstance(m, ToolResultMessage):
            continue
        n = seen[m.tool_call_id] = seen.get(m.tool_call_id, -1) + 1
        earlier = old.get(m.tool_call_id, [])
        if n < len(earlier) and (earlier[n].content, earlier[n].is_error) != (m.content, m.is_error):
            changed.append((m.tool_name, earlier[n], m))
    return changed


def _flagged(message: ToolResultMessage) -> Html:
    return join([text_block(_shown(message.content)), badge("is_error", "error") if message.is_error else ""])


def render_saga_html(
    result: LoopResult, before: Sequence[Message] | None = None, after: Sequence[Message] | None = None
) -> Html:
    """The saga log; with `before` (and `after`, default `result.messages`) the rewritten results."""
    result = run_of(result, "render_saga_html")
    before, after = _messages(before, "render_saga_html", "before"), _messages(after, "render_saga_html", "after")
    outcome = {True: badge("ok", "ok"), False: badge("failed", "error")}
    rows = [[i, e.tool, e.compensation, outcome[e.ok], _shown(e.detail)] for i, e in enumerate(result.saga, 1)]
    log = table(["#", "tool", "compensation", "outcome", "detail"], rows) if rows else small("no compensation ran")
    parts = [card("compensations, newest first", log, "warn" if rows else "info")]
    if before is not None:
        changed = rewritten_results(before, result.messages if after is None else after)
        body = (
            table(
                ["tool", "before the rewrite", "after the rewrite"],
                [[t, _flagged(b), _flagged(a)] for t, b, a in changed],
            )
            if changed
            else small("no tool result changed")
        )
        parts.append(card("history rewrite", body, "tool"))
    return page(join(parts), title="Saga log")


def render_saga_text(
    result: LoopResult, before: Sequence[Message] | None = None, after: Sequence[Message] | None = None
) -> str:
    """The saga log as text: one line per compensation (its detail on that line, however many a
    compensation's report had), then one per rewritten result."""
    result = run_of(result, "render_saga_text")
    before, after = _messages(before, "render_saga_text", "before"), _messages(after, "render_saga_text", "after")
    lines = [
        f"{i}. {flat_name(e.tool)}: {'ok' if e.ok else 'FAILED'} — {one_line(_shown(e.detail), 300)}"
        for i, e in enumerate(result.saga, 1)
    ] or ["no compensation ran"]
    if before is not None:
        changed = rewritten_results(before, result.messages if after is None else after)
        lines += [
            f"rewritten {flat_name(t)}: {one_line(_shown(b.content), 160)} → {one_line(_shown(a.content), 160)}"
            for t, b, a in changed
        ]
    return showable("\n".join(lines))


# 4. Widgets.


def run_of(value: object, where: str) -> LoopResult:
    """`value`, the `LoopResult` a view of a run takes; anything else is a `ConfigurationError`
    naming the fix (a readable line, not "'list' object has no attribute 'rounds'"). A service's
    `Result` keeps the run in `.loop`, an error the loop raised the turn so far in `.loop_result`."""
    if isinstance(value, LoopResult):
        return value
    kind = f"the class {value.__name__}" if isinstance(value, type) else type(value).__name__
    if isinstance(getattr(value, "loop", None), LoopResult):
        fix = f"pass its loop: {where}(result.loop) (a service's Result keeps the run there)"
    elif isinstance(getattr(value, "loop_result", None), LoopResult):
        fix = f"pass its loop_result: {where}(error.loop_result) (the turn up to the error)"
    else:
        fix = f"pass it: {where}(run_loop(...)) (a list of messages is for ConversationView)"
    raise ConfigurationError(f"{where}: takes the LoopResult run_loop returns, and got {kind}; {fix}")


def _check_timing(show_timing: object, where: str) -> None:
    """`show_timing` is True or False: "no" is true, and would show wall-clock durations (a notebook's
    output changing at each run)."""
    if show_timing is not True and show_timing is not False:
        raise ConfigurationError(
            f"{where}(show_timing={show_timing!r:.40}): show_timing is True (each call's duration, which differs "
            f"at each run) or False (the default), and got {a_kind_of(show_timing)}"
        )


def _messages(messages: object, where: str, name: str) -> list[Message] | None:
    """`before` / `after` of a saga view as a list, or None: anything but messages was a TypeError, or (a
    str, a list of ids) compared as no messages at all, the view saying nothing was rewritten."""
    if messages is None:
        return None
    head = f"{where}({name}=...): takes a list of messages"
    if hasattr(messages, "messages") and callable(messages.messages):  # a ChatMemory
        raise ConfigurationError(f"{head}, and got {a_kind_of(messages)}: pass memory.messages()")
    if isinstance(messages, str | bytes | Mapping) or not isinstance(messages, Iterable):
        raise ConfigurationError(
            f"{head} (e.g. result.messages of a run without compensation), and got {a_kind_of(messages)}"
        )
    listed = list(messages)  # a generator is read once
    wrong = next((i for i, m in enumerate(listed) if not isinstance(m, MESSAGE_TYPES)), None)
    if wrong is not None:
        raise ConfigurationError(f"{where}({name}=...): item {wrong} is {a_kind_of(listed[wrong])}, not a message")
    return listed


class TraceView(HtmlView):
    """`TraceView(result)`: the trace as a widget (HTML and text kept in the stored output)."""

    def __init__(self, result: LoopResult, show_timing: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.update(result, show_timing)

    def update(self, result: LoopResult, show_timing: bool = False) -> None:
        """Show `result` in this view instead, the steps as in `TraceView(result)`."""
        result = run_of(result, "TraceView")
        _check_timing(show_timing, "TraceView")
        self.show(render_trace_html(result, show_timing), render_trace_text(result, show_timing))


class SagaView(HtmlView):
    """`SagaView(result, before=...)`: the saga log as a widget."""

    def __init__(
        self,
        result: LoopResult,
        before: Sequence[Message] | None = None,
        after: Sequence[Message] | None = None,
        **kwargs: Any,
    ) -> None:
        result = run_of(result, "SagaView")
        before, after = _messages(before, "SagaView", "before"), _messages(after, "SagaView", "after")
        super().__init__(render_saga_html(result, before, after), render_saga_text(result, before, after), **kwargs)
