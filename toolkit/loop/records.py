"""The records of the round-trip loop: its options, its events, its trace and its result.

`LoopOptions` defaults are LangChain4j's; `COURSE` is the week-3 course's ToolAgent. The loop's
model-facing texts live in `toolkit.loop.texts` (English and Chinese) so tests and notebooks can
quote them exactly; the English ones are re-exported here under their old names.

Leaves out: the loop's behaviour (`toolkit.loop.run`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolkit.chat.messages import AssistantMessage, Message, TokenUsage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.model import ToolChoice
from toolkit.chat.sse import TextDelta, ToolCallDelta
from toolkit.errors import REPAIR_ZH
from toolkit.loop.images import MAX_IMAGE_BYTES, MAX_IMAGES
from toolkit.loop.saga import SagaEntry, ToolExecution
from toolkit.loop.texts import EN, ZH, LoopTexts
from toolkit.loop.texts import HANDOVER_ZH as HANDOVER_ZH
from toolkit.loop.texts import REPAIR_EN as REPAIR_EN
from toolkit.loop.texts import REPAIR_HANDOVER_ZH as REPAIR_HANDOVER_ZH
from toolkit.tokens import estimate_json_tokens
from toolkit.tools.execute import Policies

FOUND_TOOLS = "found_tools"
"""Result attribute naming tools that a search found; they join the effective set."""

GUARD_TEXT = EN.guard
NOT_RUN_TEXT = EN.not_run_limit
ABANDONED_TEXT = EN.interrupted


@dataclass(frozen=True)
class LoopOptions:
    """How one loop behaves; the defaults are LangChain4j's, `COURSE` is the week-3 course's ToolAgent."""

    max_round_trips: int = 100
    """Tool round trips allowed: model replies that ask for tools (a reply with five calls counts
    once), LangChain4j's `maxToolCallingRoundTrips`. A reply beyond it is not run."""
    max_model_requests: int | None = None
    """Model requests allowed per call (None: no such bound). The week-3 course's `MAX_ROUNDS`: when the
    last allowed request still asks for tools, its calls run, then the loop hands over (or raises)."""
    on_limit: str = "raise"
    """`raise` `MaxRoundTripsError`, or `handover`: end with `handover_text` as the answer."""
    handover_text: str = HANDOVER_ZH
    """The answer when a limit is reached and `on_limit="handover"`."""
    tool_choice: ToolChoice | None = None
    """Passed through to every request (auto / required / none / a named function); None sends
    nothing (the gateway's default)."""
    policies: Policies = Policies()
    """The three error channels (see `toolkit.tools.execute`)."""
    argument_repair: int | None = None
    """None: `policies.argument_error` decides. n: rounds in which a tool's argument errors are fed
    back (with `repair_template`), per tool and per question; that tool's next argument error
    hands over with `repair_handover_text`. Another tool's first mistake still gets its repair."""
    repair_template: str = REPAIR_EN
    repair_handover_text: str = REPAIR_HANDOVER_ZH
    """The answer when the argument repair failed (distinct from the round-limit hand-over)."""
    loop_guard: bool = False
    """Answer a call identical to an earlier successful call of this turn (an earlier round, not
    rolled back) with an error instead of running it."""
    guard_handover_after: int | None = 2
    """With the guard on: hand over (`texts.guard_handover`) after this many rounds with a guarded
    call; None never does."""
    texts: LoopTexts = EN
    """The loop's own model-facing texts (`toolkit.loop.texts.EN` or `ZH`)."""
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
    max_images: int = MAX_IMAGES
    """Images from tool results passed on to the model per round, in one user message after the
    results (`toolkit.loop.images`); the rest are named in their result's text."""
    max_image_bytes: int = MAX_IMAGE_BYTES
    """Decoded bytes of one data-URL image passed on; a larger one is named, not sent."""


COURSE = LoopOptions(
    max_model_requests=5,
    on_limit="handover",
    tool_choice="auto",
    argument_repair=1,
    repair_template=REPAIR_ZH,
    loop_guard=True,
    policies=Policies(unknown_tool=ZH.report_unknown_tool),
    texts=ZH,
)
"""The week-3 course's ToolAgent: at most 5 model requests per question (`MAX_ROUNDS = 5`) then an
honest hand-over; `tool_choice` "auto" sent explicitly; one repair round per tool per question, then the
"需要人工确认" hand-over; unknown names fed back; the loop guard on; every text in Chinese."""


@dataclass(frozen=True)
class ToolStarted:
    """A call is about to run (a UI shows "calling query_order…")."""

    round: int
    call: ToolCall


@dataclass(frozen=True)
class ToolFinished:
    """A call has finished (or was not run: `execution.error_kind == "not_run"`); `execution`
    holds its result (before any saga rewrite)."""

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
    notes: list[str] = field(default_factory=list)
    """What the loop changed in the reply before recording it (a repeated tool-call id renamed)."""
    images: UserMessage | None = None
    """The user message that carried this round's tool images to the model (`toolkit.loop.images`)."""

    @property
    def tools_tokens(self) -> int:
        """Estimated tokens of the tools block (computed on demand: the hot path never pays)."""
        return estimate_json_tokens(self.tools_payload) if self.tools_payload else 0


@dataclass
class LoopResult:
    """What a call to the loop produced."""

    finish: str
    """`answer` (the model stopped calling tools), `immediate`, `handover`, or `stopped` (only on
    the `loop_result` a raised failure carries)."""
    answer: str | None
    """The final text; None on an immediate return (read `immediate_results`)."""
    messages: list[Message]
    """The whole conversation afterwards (memory's view when memory is configured)."""
    new_messages: list[Message]
    """What this call appended: assistant messages, tool results and the user messages that
    carry tool images (`RoundTrace.images`), in order."""
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
        """Tool round trips: model requests whose reply asked for tools."""
        return sum(1 for r in self.rounds if r.reply.tool_calls)

    @property
    def model_requests(self) -> int:
        """Every request sent to the model (tool round trips plus the answering request)."""
        return len(self.rounds)
