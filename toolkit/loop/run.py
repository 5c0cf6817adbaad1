"""The round-trip loop: ask the model, run the tools it asks for, ask again, until it answers.

    run_loop(model, [UserMessage(...)], tools=[...], memory=..., options=LoopOptions())

One round trip, step by step (each step is one method of `_Run` below):

    1. send       the conversation and the *effective* tools to the model
    2. record     append the reply (to memory if configured, else to a copy of the caller's list)
    3. exit?      no tool calls → done: the reply is the answer
    4. bound      a tool-calling reply beyond `max_round_trips` → raise, or hand over (course)
    5. execute    every call, in the model's order (concurrently if asked; one call never
                  spawns a worker); the loop guard answers repeated calls without running them
    6. repair     argument errors go back once with a hint; a second one on a tool → hand over
    7. saga       a failure with earlier successful compensable calls → roll back, rewrite history
    8. append     the tool results, in order
    9. return?    the return-behaviour rules (`toolkit.loop.returns`) may end the call here
   10. refresh    dynamic providers and found tools update the effective set; back to 1

Token usage is summed over every response. Everything the loop saw and decided is kept in
`LoopResult.rounds` for the trace view. `iter_loop` is the same loop as a generator: it yields
text deltas while a streamed reply arrives (`LoopOptions(stream=True)`) and `ToolStarted` /
`ToolFinished` around each call, which is how a UI shows "calling query_order…".

A turn that fails part-way (a policy raised, the stream was cut) keeps what was already said:
the user's message stays in memory, and a round's calls are answered with "not completed"
results, so the conversation is still valid for a strict gateway on the next turn.

Leaves out: tool search's own tool (a wrapper adds it, `toolkit.search.tool`), async tools.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from toolkit.chat.messages import AssistantMessage, ChatResponse, Message, TokenUsage, ToolCall, ToolResultMessage
from toolkit.chat.model import ChatModel
from toolkit.chat.sse import StreamDone
from toolkit.errors import REPAIR_ZH, ArgumentError, BadResponseError, MaxRoundTripsError
from toolkit.loop.records import (
    ABANDONED_TEXT,
    COURSE,
    FOUND_TOOLS,
    GUARD_TEXT,
    HANDOVER_ZH,
    NOT_RUN_TEXT,
    REPAIR_EN,
    LoopEvent,
    LoopOptions,
    LoopResult,
    RoundTrace,
    ToolFinished,
    ToolStarted,
)
from toolkit.loop.returns import should_return_immediately
from toolkit.loop.saga import Compensation, SagaEntry, ToolExecution, compensate, compensations_from, rewrite
from toolkit.loop.sources import ProviderRequest, ToolContext, ToolProvider, ToolRegistry, build_context
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import InvocationContext, ReturnBehavior
from toolkit.tools.execute import Policies, Tool, execute

__all__ = [
    "run_loop",
    "iter_loop",
    "LoopOptions",
    "LoopResult",
    "RoundTrace",
    "COURSE",
    "MaxRoundTripsError",
    "ToolStarted",
    "ToolFinished",
    "LoopEvent",
    "FOUND_TOOLS",
    "HANDOVER_ZH",
    "REPAIR_ZH",
    "REPAIR_EN",
    "GUARD_TEXT",
    "NOT_RUN_TEXT",
    "ABANDONED_TEXT",
]


def run_loop(
    model: ChatModel,
    messages: Sequence[Message],
    *,
    tools: Sequence[Any] = (),
    providers: Sequence[ToolProvider] = (),
    registry: ToolRegistry | None = None,
    memory: ChatMemory | None = None,
    options: LoopOptions = LoopOptions(),
    parameters: Mapping[str, Any] | None = None,
    context: ToolContext | None = None,
) -> LoopResult:
    """Run the tool loop for one user turn (see the module docstring for the steps).

    The keyword arguments are those of `iter_loop`.
    """
    events = iter_loop(
        model,
        messages,
        tools=tools,
        providers=providers,
        registry=registry,
        memory=memory,
        options=options,
        parameters=parameters,
        context=context,
    )
    while True:
        try:
            next(events)
        except StopIteration as done:
            return done.value


def iter_loop(
    model: ChatModel,
    messages: Sequence[Message],
    *,
    tools: Sequence[Any] = (),
    providers: Sequence[ToolProvider] = (),
    registry: ToolRegistry | None = None,
    memory: ChatMemory | None = None,
    options: LoopOptions = LoopOptions(),
    parameters: Mapping[str, Any] | None = None,
    context: ToolContext | None = None,
) -> Generator[LoopEvent, None, LoopResult]:
    """The loop as a generator: yields events as they happen, returns the `LoopResult`.

    Events: `TextDelta` / `ToolCallDelta` while a streamed reply arrives (`options.stream`),
    `ToolStarted` before a call runs and `ToolFinished` after it. The memory id's lock is held
    until the generator finishes, so two turns on one conversation never interleave.
    """
    run = _Run(model, options, memory, list(messages), dict(parameters or {}))
    run.tools = context or build_context(tools, providers, registry, run.provider_request())
    if options.compensate:  # misconfiguration shows at the start of the call, before any tool runs
        run.compensations = compensations_from(options.compensations, run.tools.available)
    if memory is None:
        return (yield from run.go())
    with memory.lock:
        return (yield from run.go())


class _Run:
    def __init__(
        self,
        model: ChatModel,
        options: LoopOptions,
        memory: ChatMemory | None,
        messages: list[Message],
        parameters: dict[str, Any],
    ) -> None:
        self.model, self.options, self.memory, self.parameters = model, options, memory, parameters
        self.history: list[Message] = [] if memory else messages
        self.new: list[Message] = []
        self.rounds: list[RoundTrace] = []
        self.usage = TokenUsage()
        self.saga: list[SagaEntry] = []
        self.repairs: dict[str, int] = {}
        self.tools: ToolContext
        self.compensations: dict[str, Compensation] = {}
        if memory is not None:
            memory.add(*messages)

    # -- conversation ------------------------------------------------------------------
    def conversation(self) -> list[Message]:
        return self.memory.messages() if self.memory else list(self.history)

    def append(self, *messages: Message) -> None:
        self.new += messages
        if self.memory is not None:
            self.memory.add(*messages)
        else:
            self.history += messages

    def provider_request(self) -> ProviderRequest:
        return ProviderRequest(tuple(self.conversation()), self.memory.id if self.memory else None)

    # -- the loop ----------------------------------------------------------------------
    def go(self) -> Generator[LoopEvent, None, LoopResult]:
        self.reveal_found(self.conversation())
        while True:
            trace = yield from self.send()  # 1
            self.append(trace.reply)  # 2
            if not trace.reply.tool_calls:  # 3
                trace.decision = "answer"
                return self.result("answer", trace.reply.content)
            if self.round_trips() > self.options.max_round_trips:  # 4
                return self.limit(trace)
            results = yield from self.execute_or_abandon(trace)  # 5
            handover = self.repair(trace, results)  # 6
            results = self.compensate(trace, results)  # 7
            self.append(*results)  # 8
            if handover:
                trace.decision = f"hand over: second argument error on {handover}"
                return self.handover()
            if self.immediate(trace):  # 9
                trace.decision = "return immediately"
                return self.result("immediate", None, immediate=results)
            trace.decision = "continue"
            self.refresh(results)  # 10

    def send(self) -> Generator[LoopEvent, None, RoundTrace]:
        effective = self.tools.effective
        payload = [t.spec.to_openai() for t in effective]
        request = dict(
            tools=payload or None,
            tool_choice=self.options.tool_choice if payload else None,
            **self.options.request_extra,
        )
        if self.options.stream:
            response = yield from _streamed(self.model.stream(self.conversation(), **request))
        else:
            response = self.model.chat(self.conversation(), **request)
        self.usage += response.usage
        trace = RoundTrace(
            len(self.rounds) + 1,
            [t.name for t in effective],
            payload,
            self.options.tool_choice,
            response.message,
            response.usage,
            finish_reason=response.finish_reason,
        )
        self.rounds.append(trace)
        return trace

    def round_trips(self) -> int:
        return sum(1 for r in self.rounds if r.reply.tool_calls)

    def limit(self, trace: RoundTrace) -> LoopResult:
        limit = self.options.max_round_trips
        self.append(
            *[
                ToolResultMessage(
                    tool_call_id=c.id, tool_name=c.name, is_error=True, content=NOT_RUN_TEXT.format(limit=limit)
                )
                for c in trace.reply.tool_calls
            ]
        )  # memory stays consistent: no dangling call
        trace.decision = f"limit of {limit} round trips reached"
        if self.options.on_limit != "handover":
            raise MaxRoundTripsError(
                f"the model asked for tools in more than {limit} round trips; "
                "something is wrong (raise max_round_trips if this is expected)"
            )
        return self.handover()

    def handover(self) -> LoopResult:
        self.append(AssistantMessage(content=self.options.handover_text))
        return self.result("handover", self.options.handover_text)

    # -- step 5: execution -------------------------------------------------------------
    def execute_or_abandon(self, trace: RoundTrace) -> Generator[LoopEvent, None, list[ToolResultMessage]]:
        """Execute; if a policy raises, answer the round's calls first so memory stays consistent."""
        try:
            return (yield from self.execute(trace))
        except Exception as exc:
            self.append(
                *[
                    ToolResultMessage(
                        tool_call_id=c.id,
                        tool_name=c.name,
                        is_error=True,
                        content=ABANDONED_TEXT.format(error=type(exc).__name__),
                    )
                    for c in trace.reply.tool_calls
                ]
            )
            trace.decision = f"stopped: {type(exc).__name__}"
            raise

    def execute(self, trace: RoundTrace) -> Generator[LoopEvent, None, list[ToolResultMessage]]:
        calls = trace.reply.tool_calls
        kinds: dict[str, str] = {}
        policies = _observed(self.policies(), kinds)
        context = InvocationContext(self.memory.id if self.memory else None, self.parameters)

        def one(call: ToolCall) -> tuple[ToolResultMessage, float]:
            start = self.options.clock()
            guarded = self.guard(call)
            result = guarded or execute(call, self.tools.available, context, policies)
            if guarded:
                kinds[call.id] = "guard"
            return result, self.options.clock() - start

        def record(call: ToolCall, outcome: tuple[ToolResultMessage, float]) -> ToolExecution:
            execution = ToolExecution(trace.index, call, outcome[0], outcome[1], kinds.get(call.id))
            trace.executions.append(execution)
            return execution

        if self.options.concurrent and len(calls) > 1:
            for c in calls:
                yield ToolStarted(trace.index, c)
            with ThreadPoolExecutor(min(self.options.max_workers, len(calls))) as pool:
                outcomes = list(pool.map(one, calls))
            for c, outcome in zip(calls, outcomes):
                yield ToolFinished(record(c, outcome))
        else:
            for c in calls:
                yield ToolStarted(trace.index, c)
                yield ToolFinished(record(c, one(c)))
        return [e.result for e in trace.executions]

    def policies(self) -> Policies:
        if self.options.argument_repair is None:
            return self.options.policies
        template = self.options.repair_template

        def repair_text(error: Exception, call: ToolCall) -> str:
            if not isinstance(error, ArgumentError):
                return str(error)
            return template.format(
                error=error,
                tool=call.name,
                field=error.field or "arguments",
                received=error.received,
                expected=error.expected,
            )

        return replace(self.options.policies, argument_error=repair_text)

    def guard(self, call: ToolCall) -> ToolResultMessage | None:
        if not self.options.loop_guard or len(self.rounds) < 2:
            return None
        previous = self.rounds[-2].executions
        if any(e.error_kind is None and _same_call(e.call, call) for e in previous):
            return ToolResultMessage(
                tool_call_id=call.id, tool_name=call.name, is_error=True, content=GUARD_TEXT.format(tool=call.name)
            )
        return None

    # -- steps 6, 7, 9, 10 ---------------------------------------------------------------
    def repair(self, trace: RoundTrace, results: list[ToolResultMessage]) -> str | None:
        if self.options.argument_repair is None:
            return None
        for execution in trace.executions:
            if execution.error_kind == "argument":
                name = execution.call.name
                self.repairs[name] = self.repairs.get(name, 0) + 1
                if self.repairs[name] > self.options.argument_repair:
                    return name
        return None

    def compensate(self, trace: RoundTrace, results: list[ToolResultMessage]) -> list[ToolResultMessage]:
        failed = [e for e in trace.executions if e.error_kind in {"execution", "argument"}]
        if not self.options.compensate or not failed:
            return results
        done = {entry.call_id for entry in self.saga}
        candidates = [
            e
            for r in self.rounds
            for e in r.executions
            if e.error_kind is None and e.call.id not in done and e.call.name in self.compensations
        ]
        if not candidates:
            return results
        failed_tool = failed[0].call.name
        undone, log = compensate(candidates, self.compensations)
        self.saga += log
        if self.memory is not None:
            self.memory.set(rewrite(self.memory.messages(), undone, failed_tool))
        else:
            self.history[:] = rewrite(self.history, undone, failed_tool)
        self.new[:] = rewrite(self.new, undone, failed_tool)
        ids = {e.call.id for e in undone}
        for r in self.rounds:  # the trace keeps what really came back, marked as rolled back
            r.executions = [replace(e, rolled_back_by=failed_tool) if e.call.id in ids else e for e in r.executions]
        return rewrite(results, undone, failed_tool)

    def immediate(self, trace: RoundTrace) -> bool:
        behaviors = [self._behavior(e.call.name) for e in trace.executions]
        any_error = any(e.result.is_error for e in trace.executions)
        return should_return_immediately(behaviors, any_error)

    def _behavior(self, name: str) -> ReturnBehavior:
        tool: Tool | None = self.tools.available.get(name)
        return tool.spec.return_behavior if tool else ReturnBehavior.TO_LLM

    def refresh(self, results: list[ToolResultMessage]) -> None:
        if self.tools.dynamic:  # a request copies the conversation: only when someone will read it
            self.tools.refresh(self.provider_request())
        self.reveal_found(results)

    def reveal_found(self, messages: Sequence[Message]) -> None:
        for m in messages:
            if isinstance(m, ToolResultMessage) and m.attributes.get(FOUND_TOOLS):
                self.tools.reveal(m.attributes[FOUND_TOOLS])

    def result(self, finish: str, answer: str | None, immediate: Sequence[ToolResultMessage] = ()) -> LoopResult:
        return LoopResult(
            finish, answer, self.conversation(), list(self.new), self.usage, self.rounds, list(immediate), self.saga
        )


def _streamed(events: Iterator[Any]) -> Generator[LoopEvent, None, ChatResponse]:
    """Forward a streamed reply's deltas; return the assembled response (truncation raises)."""
    for event in events:
        if isinstance(event, StreamDone):
            return event.response
        yield event
    raise BadResponseError("the stream ended without a final response")


def _observed(policies: Policies, kinds: dict[str, str]) -> Policies:
    """The same policies, noting which channel each failed call went through."""

    def watch(kind: str, policy: Callable[[Exception, ToolCall], str]):
        def observed(error: Exception, call: ToolCall) -> str:
            kinds[call.id] = kind
            return policy(error, call)

        return observed

    return Policies(
        watch("unknown_tool", policies.unknown_tool),
        watch("argument", policies.argument_error),
        watch("execution", policies.execution_error),
    )


def _same_call(a: ToolCall, b: ToolCall) -> bool:
    return a.name == b.name and _canonical(a.arguments) == _canonical(b.arguments)


def _canonical(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), sort_keys=True)
    except ValueError:
        return arguments
