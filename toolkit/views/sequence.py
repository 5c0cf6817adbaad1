"""A Mermaid sequence diagram of one loop run: who talks to whom, in order.

    SequenceDiagram(result)          # in a notebook: the picture (JupyterLab ≥ 4.1 renders Mermaid)
    sequence_source(result)          # the Mermaid text, which is also the text fallback

Lanes: the user, the loop, the model, and one lane per tool that was called. One arrow per
model request and reply, per tool call and result; a call the loop answered itself (the loop
guard, a call not run) is an arrow from the loop to itself, never one to the tool. Failed results are marked ✗, calls a saga
rolled back get a note (and each compensation an arrow), an immediate return and a hand-over
are marked on the last arrow back to the user, and so is a run that raised (its `loop_result`: no answer).

Each tool's lane id is its name (its first `LANE_ID_CHARS` characters) with every non-word
character made `_` (`T_get_order`); two names that come out the same (`get-order` and `get_order`) get `_2`, `_3`… so they never share a
lane. Labels are scrubbed like the trace view (`toolkit.tools.redact.scrub`): no secret or path
from a tool or the model reaches the diagram.

A source longer than Mermaid's `maxTextSize` keeps as many first and last rounds as fit (a round
of hundreds of calls its first and last calls), with a note naming what it left out, and declares
only the lanes its arrows use.

Leaves out: timing (see `toolkit.views.timeline`) and the messages' full text (arrows carry a
short label; the trace view has the rest).
"""

from __future__ import annotations

import re
from typing import Any

from toolkit.chat.messages import UserMessage
from toolkit.errors import ConfigurationError, a_kind_of
from toolkit.loop.records import LoopResult, RoundTrace
from toolkit.loop.saga import SagaEntry
from toolkit.views.conversation import scrubbed_line
from toolkit.views.html import read_json, showable, showable_bundle
from toolkit.views.trace import NOT_FINISHED, run_of, unfinished

LABEL_LIMIT = 48
MERMAID_MAX_TEXT = 50_000
"""Mermaid's default `maxTextSize`: it refuses a longer source ("Maximum text size in diagram
exceeded"), so a diagram keeps its first and last rounds within it and notes the rest."""
LANE_ID_CHARS = 40
"""Characters of a tool's name its lane id keeps (a model may call a name of any length)."""
LOOP_ANSWERED = ("guard", "not_run")
"""The `error_kind`s of a call the loop answered itself, without running its tool (the loop guard,
a call left when another call's policy stopped the round): drawn as the loop's own arrow."""
_NOTE_ROOM = 100
"""Room kept for the note naming the rounds left out."""


def _label(text: str | None, limit: int = LABEL_LIMIT) -> str:
    """One short line that cannot break Mermaid's syntax, nor be read as markup by it: `;` `#` `:`
    `<` `>` braces and brackets as spaces, and no two `$` side by side (Mermaid typesets
    `$$…$$` as KaTeX math: `$$5` is written `$ $5`)."""
    text = scrubbed_line(text or "", limit)
    text = _MATH.sub("$ ", re.sub(r"[;#:<>{}\[\]]", " ", text))
    return text.replace("  ", " ").strip() or "—"


_MATH = re.compile(r"\$(?=\$)")
"""A `$` another follows: Mermaid draws a label with two `$$` as math."""


def _lanes(tools: list[str]) -> dict[str, str]:
    """Tool name → its lane id: `T_` and the name with non-word characters as `_`, made unique
    in order (`T_a_b`, then `T_a_b_2` for a second name that reads the same)."""
    lanes: dict[str, str] = {}
    taken: set[str] = set()
    for name in tools:
        base = lane = "T_" + re.sub(r"\W", "_", name[:LANE_ID_CHARS])
        n = 1
        while lane in taken:
            n += 1
            lane = f"{base}_{n}"
        lanes[name] = lane
        taken.add(lane)
    return lanes


Line = tuple[str, str | None]
"""One line of the diagram and the tool whose lane it draws on (None: only user, loop, model)."""
Unit = list[Line]
"""Lines kept or left out together: a request and its reply, a call and its result."""


def _check_question(question: object, where: str) -> None:
    """A `ConfigurationError` unless `question` is text or None (not "argument of type 'int' is not iterable")."""
    if question is not None and not isinstance(question, str):
        raise ConfigurationError(
            f"{where}(result, question): question is the user's question as text (None: the run's last question), "
            f"and got {a_kind_of(question)}; e.g. {where}(result, question='SN202610200001 发货了吗？')"
        )


def sequence_source(result: LoopResult, question: str | None = None) -> str:
    """The Mermaid `sequenceDiagram` text for `result`; `question` (text) stands for the run's last one."""
    _check_question(question, "sequence_source")
    result = run_of(result, "sequence_source")
    tools = list(dict.fromkeys(e.call.name for e in result.executions if e.error_kind not in LOOP_ANSWERED))
    tools += [s.tool for s in result.saga if s.tool not in tools]
    head = ["sequenceDiagram", "    participant U as user", "    participant L as loop", "    participant M as model"]
    lane = _lanes(tools)
    declare = {t: f"    participant {lane[t]} as {_label(t, 40)}" for t in tools}
    ask = question if question is not None else _last_user_text(result)
    asked, ending = f"    U->>L: {_label(ask)}", f"    L-->>U: {_ending(result)}"
    sagas = _sagas_by_round(result)
    room = MERMAID_MAX_TEXT - len("\n".join([*head, asked, ending])) - 1
    each = room if len(result.rounds) == 1 else (room - _NOTE_ROOM) // 2  # the first and last round always fit
    rounds = [
        _bounded(_round_units(trace, lane, sagas.get(trace.index, []), result), trace.index, declare, each)
        for trace in result.rounds
    ]
    drawn = [line for block in _fitted(rounds, result, room, declare) for line in block]
    used = {tool for _, tool in drawn if tool is not None}  # a lane whose arrows are all left out is not declared
    lines = [*head, *(declare[t] for t in tools if t in used), asked, *(text for text, _ in drawn), ending]
    return "\n".join(lines)


def _cost(lines: list[Line], declare: dict[str, str], declared: set[str]) -> tuple[int, set[str]]:
    """Characters `lines` add, with the participant lines of their tools not `declared` yet; and those tools."""
    new = {tool for _, tool in lines if tool is not None and tool not in declared}
    return sum(len(text) + 1 for text, _ in lines) + sum(len(declare[t]) + 1 for t in new), new


def _ends(blocks: list[list[Line]], room: int, declare: dict[str, str]) -> tuple[int, int]:
    """`(front, back)`: the first `front` and the blocks from `back` on fit in `room` with the
    participant lines they need, taken from both ends in turn (the end with fewer kept grows)."""
    front, back, used, declared = 0, len(blocks), 0, set[str]()
    while front < back:
        k = front if front <= len(blocks) - back else back - 1
        cost, new = _cost(blocks[k], declare, declared)
        if used + cost > room:
            break
        used, declared = used + cost, declared | new
        front, back = (front + 1, back) if k == front else (front, back - 1)
    return front, back


def _fitted(rounds: list[list[Line]], result: LoopResult, room: int, declare: dict[str, str]) -> list[list[Line]]:
    """The rounds' lines in at most `room` characters with the participant lines they need: all of
    them, or as many first and last rounds as fit, with a note between saying which are left out."""
    if _cost([line for block in rounds for line in block], declare, set())[0] <= room:
        return rounds
    front, back = _ends(rounds, room - _NOTE_ROOM, declare)
    first, last = result.rounds[front].index, result.rounds[back - 1].index
    note = f"    Note over L: … {back - front:,} rounds not shown (rounds {first:,} to {last:,})"
    return [*rounds[:front], [(note, None)], *rounds[back:]]


def _bounded(units: list[Unit], index: int, declare: dict[str, str], room: int) -> list[Line]:
    """One round's lines, or, past `room` characters with their participant lines (hundreds of
    calls), its first and last units that fit and a note: so the first and last rounds are always
    drawn (a round too big for the diagram was left out whole, and every round after it)."""
    lines = [line for unit in units for line in unit]
    if _cost(lines, declare, set())[0] <= room:
        return lines
    front, back = _ends(units, room - _NOTE_ROOM, declare)
    hidden = sum(len(unit) for unit in units[front:back])
    note: Unit = [(f"    Note over L: … {hidden:,} arrows of round {index:,} not shown", None)]
    kept: list[Unit] = [*units[:front], note, *units[back:]]
    return [line for unit in kept for line in unit]


def _round_units(trace: RoundTrace, lane: dict[str, str], saga: list[SagaEntry], result: LoopResult) -> list[Unit]:
    """One round's arrows: the request, the reply, each call and result (a call a stopped round left
    unfinished: the loop's own arrow with its answer), the saga, a decision."""
    calls = trace.reply.tool_calls
    if calls:
        names = ", ".join(c.name for c in calls)
        reply = f"    M-->>L: {len(calls)} tool call{'s' if len(calls) > 1 else ''}: {_label(names)}"
    else:
        reply = f"    M-->>L: {_label(trace.reply.content)}"
    sent = len(trace.tools_sent)
    request = f"    L->>M: request {trace.index} ({sent} tool{'s' if sent != 1 else ''})"
    units: list[Unit] = [[(request, None), (reply, None)]]
    for execution in trace.executions:
        if execution.error_kind in LOOP_ANSWERED:  # the tool never saw it
            name = _label(execution.call.name, 40)
            units.append([(f"    L->>L: ✗ {name} not run — {_label(execution.result.content, 40)}", None)])
            continue
        tool, name = lane[execution.call.name], execution.call.name
        mark = "✗ " if execution.failure else ""
        units.append(
            [
                (f"    L->>{tool}: {_arguments(execution.call.arguments)}", name),
                (f"    {tool}-->>L: {mark}{_label(execution.result.content, 40)}", name),
            ]
        )
    for call, answer in unfinished(result, trace):  # no result recorded: the loop answered it
        units.append([(f"    L->>L: ✗ {_label(call.name, 40)} {NOT_FINISHED} — {_label(answer, 40)}", None)])
    if saga:
        units.append([("    Note over L: saga — undo in reverse order", None)])
        for entry in saga:
            tool = lane[entry.tool]
            outcome = "rolled back" if entry.ok else "NOT rolled back: " + _label(entry.detail, 30)
            units.append(
                [
                    (f"    L->>{tool}: compensate ({'ok' if entry.ok else 'failed'})", entry.tool),
                    (f"    Note over {tool}: {outcome}", entry.tool),
                ]
            )
    if trace.decision and trace.decision not in ("answer", "continue", ""):
        units.append([(f"    Note over L: {_label(trace.decision)}", None)])
    return units


def _sagas_by_round(result: LoopResult) -> dict[int, list[SagaEntry]]:
    """The saga log's entries under the round whose failure ran them (a turn may run several
    sagas); an entry made by hand, without its round, goes where `_saga_round` reads it ran."""
    fallback = _saga_round(result) if any(entry.round is None for entry in result.saga) else None
    by_round: dict[int, list[SagaEntry]] = {}
    for entry in result.saga:
        where = entry.round if entry.round is not None else fallback
        if where is not None:
            by_round.setdefault(where, []).append(entry)
    return by_round


def _saga_round(result: LoopResult) -> int | None:
    """The round whose failure started the rollback, read from the executions (for entries without
    their round): the last failure of a tool that caused one, else the last round."""
    if not result.saga:
        return None
    causes = {e.rolled_back_by for e in result.executions if e.rolled_back_by}
    failed = [e.round for e in result.executions if e.failure and e.call.name in causes]
    return max(failed) if failed else result.rounds[-1].index


def _arguments(arguments: str) -> str:
    """`{"orderId": "SN1"}` → `orderId=SN1`, short."""
    try:
        data = read_json(arguments or "{}")
    except ValueError:  # not JSON, or too deep to read
        return _label(arguments, 36)
    if not isinstance(data, dict):
        return _label(arguments, 36)
    return _label(", ".join(f"{k}={v}" for k, v in data.items()) or "(no arguments)", 36)


def _last_user_text(result: LoopResult) -> str:
    for message in reversed(result.messages):
        if isinstance(message, UserMessage) and not message.from_tool_calls:  # not the loop's tool images
            return str(message.content)
    return "(question)"


def _ending(result: LoopResult) -> str:
    if result.finish == "immediate":
        return "immediate return: " + _label("; ".join(m.content for m in result.immediate_results), 40)
    if result.finish == "handover":
        return "hand-over: " + _label(result.answer, 40)
    if result.finish == "stopped":  # the `loop_result` of a run that raised: nobody answered the user
        return "stopped — the run raised before an answer"
    return _label(result.answer)


class SequenceDiagram:
    """A loop run as a Mermaid sequence diagram; its text fallback is the Mermaid source."""

    source: str
    """The Mermaid source."""

    def __init__(self, result: LoopResult, question: str | None = None) -> None:
        _check_question(question, "SequenceDiagram")
        self.source = sequence_source(run_of(result, "SequenceDiagram"), question)

    def _repr_mimebundle_(self, **_: Any) -> dict[str, str]:
        return showable_bundle({"text/markdown": f"```mermaid\n{self.source}\n```", "text/plain": self.source})

    def __repr__(self) -> str:
        return showable(self.source)
