"""The declarative AI service: a class of declared methods becomes a working assistant.

    assistant = ai_service(Assistant, model=connect(), tools=[shop], memory=memory_per_id())
    assistant.chat("u1", "我的订单 SN202610200001 到哪了？")

Python's counterpart of LangChain4j's dynamic proxy is a class built at run time:
`ai_service` reads every declared method once (`toolkit.services.declare.plan_method`), then creates a
subclass of the declaration whose methods each run `_invoke`:

    1. bind the call's arguments to the plan (user text, memory id, template variables)
    2. render the system and user messages (built-ins from the service's clock)
    3. pick the conversation: the memory of this id (held for the whole turn) or a fresh list
    4. run the tool loop (`toolkit.loop.run`), streaming if the method returns `TokenStream`
    5. turn the loop's result into the declared return type (with one repair round for
       structured output), or a `Result` carrying everything

Memory ids are non-empty strings (`MemoryIdError` otherwise, before anything is sent). A turn
that fails (a broken stream, a gateway error) keeps the conversation valid: if memory would end
with the user's unanswered message, an assistant message saying the reply failed
(`INTERRUPTED_TEXT`) follows it, so the next turn never sends two user messages in a row.

Structured output goes as `response_format` (the gateway's JSON mode). A gateway that refuses
that field with a 400 gets the same call again with the schema in the user message instead
(`structured="instructions"`), the question asked once in memory.

Leaves out: async methods, and guardrails / moderation around the call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from toolkit.chat.clock import session_now
from toolkit.chat.messages import AssistantMessage, Message, SystemMessage, UserMessage
from toolkit.chat.model import ChatModel
from toolkit.errors import CallerError, ConfigurationError, OutputParsingError
from toolkit.loop.run import LoopOptions, LoopResult, iter_loop, run_loop
from toolkit.memory.windows import ChatMemory, ChatMemoryStore, Window, check_memory_id
from toolkit.services.declare import MethodPlan, plan_method
from toolkit.services.results import Result, TokenStream
from toolkit.services.structured import OutputType, repair_message
from toolkit.services.templates import Clock, as_text, render
from toolkit.tools.execute import VALUES

INTERRUPTED_TEXT = "(no reply: the answer failed with {error}; the user's message above is unanswered)"
"""Stored after a user message whose turn failed, so the conversation stays valid."""


D = TypeVar("D")
"""The declared class: `ai_service(Assistant, …)` is typed as an `Assistant`."""


def memory_per_id(*, store: ChatMemoryStore | None = None, window: Window | None = None) -> Callable[[Any], ChatMemory]:
    """A memory provider: one `ChatMemory` per memory id, created on first use, kept after.

    Ids are non-empty strings: `None`, `""` and non-strings (`1` is not `"1"`) raise `MemoryIdError`.
    """
    from toolkit.memory.windows import InMemoryStore

    store = store if store is not None else InMemoryStore()
    memories: dict[str, ChatMemory] = {}
    lock = threading.Lock()

    def provide(memory_id: Any) -> ChatMemory:
        memory_id = check_memory_id(memory_id, "memory_per_id()")
        with lock:
            if memory_id not in memories:
                memories[memory_id] = ChatMemory(memory_id, store=store, window=window)
            return memories[memory_id]

    return provide


@dataclass(frozen=True)
class ServiceConfig:
    """What `ai_service` was given, shared by every method."""

    model: ChatModel
    tools: Sequence[Any] = ()
    providers: Sequence[Any] = ()
    registry: Any = None
    memory: Callable[[Any], ChatMemory] | ChatMemory | None = None
    options: LoopOptions = LoopOptions()
    clock: Clock = session_now
    structured: str = "response_format"
    """`response_format` (send the schema) or `instructions` (append it to the user message)."""
    shared_memory_id: str | None = None
    """With per-id memory: the one id methods without a `MemoryId` parameter share (opt-in)."""


def ai_service(
    declaration: type[D],
    *,
    model: ChatModel,
    tools: Sequence[Any] = (),
    providers: Sequence[Any] = (),
    registry: Any = None,
    memory: Callable[[Any], ChatMemory] | ChatMemory | None = None,
    options: LoopOptions = LoopOptions(),
    clock: Clock = session_now,
    structured: str = "response_format",
    shared_memory_id: str | None = None,
) -> D:
    """An object implementing every public method of `declaration` with the tool loop.

    `shared_memory_id`: with per-id memory, a method without a `MemoryId` parameter is a
    configuration error; naming an id here opts in to one conversation shared by every caller.
    """
    if shared_memory_id is not None:
        check_memory_id(shared_memory_id, "ai_service(shared_memory_id=...)")
    cfg = ServiceConfig(model, tools, providers, registry, memory, options, clock, structured, shared_memory_id)
    per_id = callable(cfg.memory) and not isinstance(cfg.memory, ChatMemory)
    plans = {
        name: plan_method(declaration, name, fn, has_memory_provider=per_id, shared_memory_id=shared_memory_id)
        for name, fn in _declared(declaration)
    }
    methods: dict[str, Any] = {name: _method(plan, cfg) for name, plan in plans.items()}
    methods.update(
        __plans__=plans,
        __config__=cfg,
        __module__=declaration.__module__,
        __repr__=lambda self: f"<{type(self).__name__}>",
    )
    return type(f"{declaration.__name__}Service", (declaration,), methods)()


def _declared(declaration: type) -> list[tuple[str, Any]]:
    names = {
        n
        for klass in declaration.__mro__
        if klass not in (object,) and klass.__module__ != "typing"
        for n in vars(klass)
        if not n.startswith("_")
    }
    return [(n, getattr(declaration, n)) for n in sorted(names) if callable(getattr(declaration, n))]


def _method(plan: MethodPlan, cfg: ServiceConfig) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return _invoke(plan, cfg, plan.signature.bind(self, *args, **kwargs).arguments)

    method.__name__, method.__qualname__ = plan.name, f"service.{plan.name}"
    method.__doc__ = f"Runs the tool loop for the declared method {plan.name!r}."
    return method


def _invoke(plan: MethodPlan, cfg: ServiceConfig, arguments: dict[str, Any]) -> Any:
    messages, memory = _messages(plan, cfg, arguments)  # steps 1-3
    options = _options(plan, cfg)
    values: dict[str, Any] = {}
    kwargs = dict(
        tools=cfg.tools,
        providers=cfg.providers,
        registry=cfg.registry,
        memory=memory,
        options=options,
        parameters={"method": plan.name, VALUES: values},
    )
    if plan.kind == "stream":  # step 4
        return TokenStream(
            iter_loop(cfg.model, messages, **kwargs),
            lambda r: _result(r, r.answer),
            lambda exc: _close_failed_turn(memory, exc),
        )
    lock = memory.lock if memory is not None else threading.RLock()
    with lock:
        try:
            loop = run_loop(cfg.model, messages, **kwargs)
            return _convert(plan, cfg, loop, kwargs, values)  # step 5
        except CallerError as exc:
            if plan.output is None or cfg.structured != "response_format" or not exc.refuses("response_format"):
                _close_failed_turn(memory, exc)
                raise
            _forget_question(memory, messages[-1])
        except Exception as exc:
            _close_failed_turn(memory, exc)
            raise
    return _invoke(plan, replace(cfg, structured="instructions"), arguments)  # no JSON mode on this gateway


def _forget_question(memory: ChatMemory | None, question: Message) -> None:
    """Take back the question a turn that failed at once left as the last message in memory."""
    if memory is not None:
        memory.update(lambda current: current[:-1] if current and current[-1] == question else current)


def _close_failed_turn(memory: ChatMemory | None, exc: BaseException) -> None:
    """After a failed turn, never leave the user's message as the last one in memory."""
    if memory is None:
        return
    with memory.lock:
        current = memory.messages()
        if current and isinstance(current[-1], UserMessage):
            memory.add(AssistantMessage(content=INTERRUPTED_TEXT.format(error=type(exc).__name__)))


def _messages(
    plan: MethodPlan, cfg: ServiceConfig, arguments: dict[str, Any]
) -> tuple[list[Message], ChatMemory | None]:
    values = {var: arguments[param] for param, var in plan.variables.items()}
    user = (
        render(plan.user_template, values, cfg.clock)
        if plan.user_template
        else as_text(arguments[plan.user_param or ""])
    )
    if plan.output is not None and cfg.structured == "instructions":
        user = f"{user}\n\n{plan.output.instructions()}"
    messages: list[Message] = [UserMessage(content=user)]
    if plan.system:
        messages.insert(0, SystemMessage(content=render(plan.system, values, cfg.clock)))
    memory_id = arguments.get(plan.memory_param) if plan.memory_param else cfg.shared_memory_id
    return messages, _memory(plan, cfg, memory_id)


def _memory(plan: MethodPlan, cfg: ServiceConfig, memory_id: Any) -> ChatMemory | None:
    if cfg.memory is None or isinstance(cfg.memory, ChatMemory):
        return cfg.memory
    where = f"{plan.name}({plan.memory_param}=...)" if plan.memory_param else plan.name
    return cfg.memory(check_memory_id(memory_id, where))


def _options(plan: MethodPlan, cfg: ServiceConfig) -> LoopOptions:
    options = replace(cfg.options, stream=plan.kind == "stream")
    if plan.output is not None and cfg.structured == "response_format":
        options = replace(
            options, request_extra={**options.request_extra, "response_format": plan.output.response_format()}
        )
    return options


def _convert(
    plan: MethodPlan, cfg: ServiceConfig, loop: LoopResult, kwargs: dict[str, Any], values: dict[str, Any]
) -> Any:
    if loop.finish == "immediate":
        return _immediate(plan, loop, values)
    if plan.kind == "none":
        return None
    if plan.kind == "text":
        return loop.answer
    if plan.output is None:  # Result[str]
        return _result(loop, loop.answer)
    value, loop = _parse_with_repair(plan.output, cfg, loop, kwargs)
    return _result(loop, value) if plan.kind == "result" else value


def _parse_with_repair(
    output: OutputType, cfg: ServiceConfig, loop: LoopResult, kwargs: dict[str, Any]
) -> tuple[Any, LoopResult]:
    try:
        return output.parse(loop.answer), loop
    except OutputParsingError as error:
        repair: list[Message] = [UserMessage(content=repair_message(error))]
        history: list[Message] = [] if kwargs["memory"] is not None else list(loop.messages)
        second = run_loop(cfg.model, history + repair, **kwargs)
        merged = replace(second, usage=loop.usage + second.usage, rounds=loop.rounds + second.rounds)
        try:
            return output.parse(second.answer), merged
        except OutputParsingError as again:
            raise OutputParsingError(str(again), answer=again.answer, answers=(error.answer, again.answer)) from None


def _immediate(plan: MethodPlan, loop: LoopResult, values: dict[str, Any]) -> Any:
    """What a method returns when a tool ended the call (LangChain4j's `DefaultAiServices`).

    `Result[T]` → a `Result` with `content=None`; `None` → None; otherwise: every tool returned
    None → None; exactly one value that is not None, of the declared type → that object (not
    its text); anything else → `ConfigurationError` (declare `Result[...]`).
    """
    results = loop.immediate_results
    if plan.kind == "result":
        return _result(loop, None)
    if plan.kind == "none":
        return None
    returned = [values.get(r.tool_call_id, r.content) for r in results]
    present = [v for v in returned if v is not None]
    if not present:
        return None
    if len(present) == 1 and _is_declared_type(plan, present[0]):
        return present[0]
    if len(present) == 1:
        declared = "str" if plan.kind == "text" else getattr(plan.output and plan.output.type, "__name__", "its type")
        raise ConfigurationError(
            f"{plan.name}: an IMMEDIATE tool returned a {type(present[0]).__name__}, but the method returns "
            f"{declared}; make the tool return {declared}, or declare the return type Result[...] to receive it"
        )
    raise ConfigurationError(
        f"{plan.name}: an IMMEDIATE tool ended the call with {len(results)} results, which this return type "
        "cannot hold; declare the return type Result[...] to receive them"
    )


def _is_declared_type(plan: MethodPlan, value: Any) -> bool:
    if plan.kind == "text":
        return isinstance(value, str)
    if plan.output is None:
        return False
    declared = plan.output.type
    if isinstance(declared, type):
        return isinstance(value, declared)
    try:
        plan.output.adapter.validate_python(value, strict=True)
    except Exception:
        return False
    return True


def _result(loop: LoopResult, content: Any) -> Result[Any]:
    reasons = {"immediate": "tool_execution", "handover": "handover"}
    reason = reasons.get(loop.finish, loop.rounds[-1].finish_reason)
    return Result(
        content, loop.usage, loop.executions, reason, loop.finish == "immediate", list(loop.immediate_results), loop
    )
