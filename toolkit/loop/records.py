"""The records of the round-trip loop: its options, its events, its trace and its result.

`LoopOptions` defaults are LangChain4j's; `COURSE` is seed 003's ToolAgent. Model-facing texts
(repair, guard, hand-over) live here so tests and notebooks can quote them exactly.

Leaves out: the loop's behaviour (`toolkit.loop.run`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolkit.chat.messages import AssistantMessage, Message, TokenUsage, ToolCall, ToolResultMessage
from toolkit.chat.model import ToolChoice
from toolkit.chat.sse import TextDelta, ToolCallDelta
from toolkit.errors import REPAIR_ZH
from toolkit.loop.saga import SagaEntry, ToolExecution
from toolkit.tokens import estimate_json_tokens
from toolkit.tools.execute import Policies, report_unknown_tool

FOUND_TOOLS = "found_tools"
"""Result attribute naming tools that a search found; they join the effective set."""

HANDOVER_ZH = "这个问题我暂时无法自动处理完，已经为你转接人工客服，请稍候。"
REPAIR_EN = "{error}\nIf you cannot get a valid value, ask the user for it instead of calling {tool} again."
GUARD_TEXT = (
    "You already called {tool} with these arguments in the previous round; its result is "
    "above. Use it instead of calling again."
)
NOT_RUN_TEXT = "Not executed: the limit of {limit} tool round trips was reached."
ABANDONED_TEXT = "Not completed: the call was stopped by {error}."


@dataclass(frozen=True)
class LoopOptions:
    """How one loop behaves; the defaults are LangChain4j's, `COURSE` is seed 003's ToolAgent."""

    max_round_trips: int = 100
    """Tool-calling model responses allowed (a round with five calls counts once)."""
    on_limit: str = "raise"
    """`raise` `MaxRoundTripsError`, or `handover`: end with `handover_text` as the answer."""
    handover_text: str = HANDOVER_ZH
    tool_choice: ToolChoice | None = None
    """Passed through to every request (auto / required / none / a named function)."""
    policies: Policies = Policies()
    """The three error channels (see `toolkit.tools.execute`)."""
    argument_repair: int | None = None
    """None: `policies.argument_error` decides. n: feed an argument error back n times per tool
    with `repair_template`, then hand over."""
    repair_template: str = REPAIR_EN
    loop_guard: bool = False
    """Answer an identical call from the previous round with an error instead of running it."""
    concurrent: bool = False
    max_workers: int = 4
    compensate: bool = False
    compensations: tuple[Callable[..., Any], ...] = ()
    clock: Callable[[], float] = time.perf_counter
    stream: bool = False
    """Ask the model with `stream()` and yield text deltas as they arrive (see `iter_loop`)."""
    request_extra: Mapping[str, Any] = field(default_factory=dict)
    """More request fields for every model call, e.g. `response_format`."""
    strict_tools: bool = False
    """Send every tool in OpenAI strict mode: `"strict": true` and the strict parameters schema
    (`ToolSpec.strict_parameters`: every property required, optional ones nullable). A tool
    that cannot be strict raises `ToolDefinitionError` at the first request."""


COURSE = LoopOptions(
    max_round_trips=5,
    on_limit="handover",
    argument_repair=1,
    repair_template=REPAIR_ZH,
    loop_guard=True,
    policies=Policies(unknown_tool=report_unknown_tool),
)
"""Seed 003's ToolAgent: 5 round trips then an honest hand-over, one argument repair."""


@dataclass(frozen=True)
class ToolStarted:
    """A call is about to run (a UI shows "calling query_order…")."""

    round: int
    call: ToolCall


@dataclass(frozen=True)
class ToolFinished:
    """A call has run; `execution` holds its result (before any saga rewrite)."""

    execution: ToolExecution


LoopEvent = TextDelta | ToolCallDelta | ToolStarted | ToolFinished


@dataclass
class RoundTrace:
    """Everything about one model request and what followed it."""

    index: int
    tools_sent: list[str]
    tools_payload: list[dict[str, Any]]
    """The `tools` array as sent."""
    tool_choice: Any
    reply: AssistantMessage
    usage: TokenUsage
    executions: list[ToolExecution] = field(default_factory=list)
    decision: str = ""
    finish_reason: str | None = None
    """Why the model stopped this reply, as the gateway said."""

    @property
    def tools_tokens(self) -> int:
        """Estimated tokens of the tools block (computed on demand: the hot path never pays)."""
        return estimate_json_tokens(self.tools_payload) if self.tools_payload else 0


@dataclass
class LoopResult:
    """What a call to the loop produced."""

    finish: str
    """`answer` (the model stopped calling tools), `immediate` or `handover`."""
    answer: str | None
    """The final text; None on an immediate return (read `immediate_results`)."""
    messages: list[Message]
    """The whole conversation afterwards (memory's view when memory is configured)."""
    new_messages: list[Message]
    """What this call appended: assistant messages and tool results, in order."""
    usage: TokenUsage
    rounds: list[RoundTrace]
    immediate_results: list[ToolResultMessage] = field(default_factory=list)
    """On an immediate return: the last round's results, which are the call's outcome."""
    saga: list[SagaEntry] = field(default_factory=list)

    @property
    def executions(self) -> list[ToolExecution]:
        return [e for r in self.rounds for e in r.executions]

    @property
    def round_trips(self) -> int:
        return sum(1 for r in self.rounds if r.reply.tool_calls)
