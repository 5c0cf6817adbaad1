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
    9. return?    the return-behaviour rules (`toolkit.returns`) may end the call here
   10. refresh    dynamic providers and found tools update the effective set; back to 1

Token usage is summed over every response. Everything the loop saw and decided is kept in
`LoopResult.rounds` for the trace view.

Leaves out: streaming (the AI service layer streams), tool search's own tool (a wrapper adds it).
"""
from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from toolkit.client import ToolChoice
from toolkit.decorator import InvocationContext, ReturnBehavior
from toolkit.errors import ArgumentError, ToolkitError
from toolkit.execution import Policies, Tool, execute, report_argument_error, report_unknown_tool
from toolkit.memory import ChatMemory
from toolkit.messages import (AssistantMessage, ChatResponse, Message, TokenUsage, ToolCall,
                              ToolResultMessage)
from toolkit.returns import should_return_immediately
from toolkit.saga import Compensation, SagaEntry, ToolExecution, compensate, compensations_from, rewrite
from toolkit.tokens import estimate_json_tokens
from toolkit.toolset import ProviderRequest, ToolContext, ToolProvider, ToolRegistry, build_context

FOUND_TOOLS = "found_tools"
"""Result attribute naming tools that a search found; they join the effective set."""

HANDOVER_ZH = "这个问题我暂时无法自动处理完，已经为你转接人工客服，请稍候。"
REPAIR_ZH = ("参数校验失败。字段={field}，收到={received}。期望：{expected}。请修正参数后重新调用 {tool}；"
             "如果无法得到合法参数，请直接告诉用户需要他提供什么，不要再调用工具。")
REPAIR_EN = ("{error}\nIf you cannot get a valid value, ask the user for it instead of calling "
             "{tool} again.")
GUARD_TEXT = ("You already called {tool} with these arguments in the previous round; its result is "
              "above. Use it instead of calling again.")
NOT_RUN_TEXT = "Not executed: the limit of {limit} tool round trips was reached."
ABANDONED_TEXT = "Not completed: the call was stopped by {error}."


class MaxRoundTripsError(ToolkitError):
    """The model kept asking for tools beyond `max_round_trips`."""


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
    """The three error channels (see `toolkit.execution`)."""
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


COURSE = LoopOptions(max_round_trips=5, on_limit="handover", argument_repair=1,
                     repair_template=REPAIR_ZH, loop_guard=True,
                     policies=Policies(unknown_tool=report_unknown_tool))
"""Seed 003's ToolAgent: 5 round trips then an honest hand-over, one argument repair."""


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


def run_loop(model: Any, messages: Sequence[Message], *, tools: Sequence[Any] = (),
             providers: Sequence[ToolProvider] = (), registry: ToolRegistry | None = None,
             memory: ChatMemory | None = None, options: LoopOptions = LoopOptions(),
             parameters: Mapping[str, Any] | None = None,
             context: ToolContext | None = None) -> LoopResult:
    """Run the tool loop for one user turn (see the module docstring for the steps)."""
    run = _Run(model, options, memory, list(messages), dict(parameters or {}))
    run.tools = context or build_context(tools, providers, registry, run.provider_request())
    if memory is not None:
        with memory.lock:
            return run.go()
    return run.go()


class _Run:
    def __init__(self, model: Any, options: LoopOptions, memory: ChatMemory | None,
                 messages: list[Message], parameters: dict[str, Any]) -> None:
        self.model, self.options, self.memory, self.parameters = model, options, memory, parameters
        self.history: list[Message] = [] if memory else messages
        self.new: list[Message] = []
        self.rounds: list[RoundTrace] = []
        self.usage = TokenUsage()
        self.saga: list[SagaEntry] = []
        self.repairs: dict[str, int] = {}
        self.tools: ToolContext
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
    def go(self) -> LoopResult:
        self.reveal_found(self.conversation())
        while True:
            trace = self.send()                                      # 1
            self.append(trace.reply)                                 # 2
            if not trace.reply.tool_calls:                           # 3
                trace.decision = "answer"
                return self.result("answer", trace.reply.content)
            if self.round_trips() > self.options.max_round_trips:    # 4
                return self.limit(trace)
            results = self.execute_or_abandon(trace)                 # 5
            handover = self.repair(trace, results)                   # 6
            results = self.compensate(trace, results)                # 7
            self.append(*results)                                    # 8
            if handover:
                trace.decision = f"hand over: second argument error on {handover}"
                return self.handover()
            if self.immediate(trace):                                # 9
                trace.decision = "return immediately"
                return self.result("immediate", None, immediate=results)
            trace.decision = "continue"
            self.refresh(results)                                    # 10

    def send(self) -> RoundTrace:
        effective = self.tools.effective
        payload = [t.spec.to_openai() for t in effective]
        response: ChatResponse = self.model.chat(self.conversation(), tools=payload or None,
                                                 tool_choice=self.options.tool_choice if payload else None)
        self.usage += response.usage
        trace = RoundTrace(len(self.rounds) + 1, [t.name for t in effective], payload,
                           self.options.tool_choice, response.message, response.usage)
        self.rounds.append(trace)
        return trace

    def round_trips(self) -> int:
        return sum(1 for r in self.rounds if r.reply.tool_calls)

    def limit(self, trace: RoundTrace) -> LoopResult:
        limit = self.options.max_round_trips
        self.append(*[ToolResultMessage(tool_call_id=c.id, tool_name=c.name, is_error=True,
                                        content=NOT_RUN_TEXT.format(limit=limit))
                      for c in trace.reply.tool_calls])  # memory stays consistent: no dangling call
        trace.decision = f"limit of {limit} round trips reached"
        if self.options.on_limit != "handover":
            raise MaxRoundTripsError(f"the model asked for tools in more than {limit} round trips; "
                                     "something is wrong (raise max_round_trips if this is expected)")
        return self.handover()

    def handover(self) -> LoopResult:
        self.append(AssistantMessage(content=self.options.handover_text))
        return self.result("handover", self.options.handover_text)

    # -- step 5: execution -------------------------------------------------------------
    def execute_or_abandon(self, trace: RoundTrace) -> list[ToolResultMessage]:
        """Execute; if a policy raises, answer the round's calls first so memory stays consistent."""
        try:
            return self.execute(trace)
        except Exception as exc:
            self.append(*[ToolResultMessage(tool_call_id=c.id, tool_name=c.name, is_error=True,
                                            content=ABANDONED_TEXT.format(error=type(exc).__name__))
                          for c in trace.reply.tool_calls])
            trace.decision = f"stopped: {type(exc).__name__}"
            raise

    def execute(self, trace: RoundTrace) -> list[ToolResultMessage]:
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

        if self.options.concurrent and len(calls) > 1:
            with ThreadPoolExecutor(min(self.options.max_workers, len(calls))) as pool:
                outcomes = list(pool.map(one, calls))
        else:
            outcomes = [one(c) for c in calls]
        trace.executions = [ToolExecution(trace.index, c, r, d, kinds.get(c.id))
                            for c, (r, d) in zip(calls, outcomes)]
        return [r for r, _ in outcomes]

    def policies(self) -> Policies:
        if self.options.argument_repair is None:
            return self.options.policies
        template, tools = self.options.repair_template, self.tools

        def repair_text(error: Exception, call: ToolCall) -> str:
            if not isinstance(error, ArgumentError):
                return str(error)
            return template.format(error=error, tool=call.name, field=error.field or "arguments",
                                   received=error.received, expected=error.expected)
        return replace(self.options.policies, argument_error=repair_text)

    def guard(self, call: ToolCall) -> ToolResultMessage | None:
        if not self.options.loop_guard or len(self.rounds) < 2:
            return None
        previous = self.rounds[-2].executions
        if any(e.error_kind is None and _same_call(e.call, call) for e in previous):
            return ToolResultMessage(tool_call_id=call.id, tool_name=call.name, is_error=True,
                                     content=GUARD_TEXT.format(tool=call.name))
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
        compensations = self.compensations()
        done = {entry.call_id for entry in self.saga}
        candidates = [e for r in self.rounds for e in r.executions
                      if e.error_kind is None and e.call.id not in done and e.call.name in compensations]
        if not candidates:
            return results
        undone, log = compensate(candidates, compensations, failed[0].call.name)
        self.saga += log
        if self.memory is not None:
            self.memory.set(rewrite(self.memory.messages(), undone, failed[0].call.name))
        else:
            self.history[:] = rewrite(self.history, undone, failed[0].call.name)
        self.new[:] = rewrite(self.new, undone, failed[0].call.name)
        rewritten = rewrite(results, undone, failed[0].call.name)
        trace.executions = [replace(e, result=r) for e, r in zip(trace.executions, rewritten)]
        return rewritten

    def compensations(self) -> dict[str, Compensation]:
        if not hasattr(self, "_compensations"):
            self._compensations = compensations_from(self.options.compensations, self.tools.available)
        return self._compensations

    def immediate(self, trace: RoundTrace) -> bool:
        behaviors = [self._behavior(e.call.name) for e in trace.executions]
        any_error = any(e.result.is_error for e in trace.executions)
        return should_return_immediately(behaviors, any_error)

    def _behavior(self, name: str) -> ReturnBehavior:
        tool: Tool | None = self.tools.available.get(name)
        return tool.spec.return_behavior if tool else ReturnBehavior.TO_LLM

    def refresh(self, results: list[ToolResultMessage]) -> None:
        self.tools.refresh(self.provider_request())
        self.reveal_found(results)

    def reveal_found(self, messages: Sequence[Message]) -> None:
        for m in messages:
            if isinstance(m, ToolResultMessage) and m.attributes.get(FOUND_TOOLS):
                self.tools.reveal(m.attributes[FOUND_TOOLS])

    def result(self, finish: str, answer: str | None, immediate: Sequence[ToolResultMessage] = ()) -> LoopResult:
        return LoopResult(finish, answer, self.conversation(), list(self.new), self.usage, self.rounds,
                          list(immediate), self.saga)


def _observed(policies: Policies, kinds: dict[str, str]) -> Policies:
    """The same policies, noting which channel each failed call went through."""
    def watch(kind: str, policy: Callable[[Exception, ToolCall], str]):
        def observed(error: Exception, call: ToolCall) -> str:
            kinds[call.id] = kind
            return policy(error, call)
        return observed
    return Policies(watch("unknown_tool", policies.unknown_tool), watch("argument", policies.argument_error),
                    watch("execution", policies.execution_error))


def _same_call(a: ToolCall, b: ToolCall) -> bool:
    return a.name == b.name and _canonical(a.arguments) == _canonical(b.arguments)


def _canonical(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), sort_keys=True)
    except ValueError:
        return arguments
