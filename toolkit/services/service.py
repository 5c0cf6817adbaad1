"""The declarative AI service: a class of declared methods becomes a working assistant.

    assistant = ai_service(Assistant, model=connect(), registry=shop_registry(), memory=memory_per_id())
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

What `ai_service` is given is checked when the service is created (`ConfigurationError` naming
the argument and the fix): the declared class itself (not `Extractor[Order]`: type arguments are
not filled in; not a pydantic model, whose own methods would be read as declared) with at least one public method, a model
with `chat()`, a `ChatMemory` or a provider of them, `structured` one of `STRUCTURED`. A provider
of one's own is asked once more on its first use (`_check_keeps`): one that makes a new
in-memory conversation at each call, which would forget every call before, is a
`ConfigurationError` before anything is sent.

Memory ids are non-empty strings (`MemoryIdError` otherwise, before anything is sent). A turn
that fails (a broken stream, a gateway error, Ctrl-C, a stream whose reader stops early with
`break` or `close()`) keeps the conversation valid: if memory would end with the user's
unanswered message, an assistant message saying the reply failed (`INTERRUPTED_TEXT`) follows
it, so the next turn never sends two user messages in a row. The interrupt is then raised on.

A turn the loop hands over to a person (`COURSE`'s limit, a failed argument repair, the loop
guard: `LoopResult.finish == "handover"`) is not an answer, so it is never parsed or repaired
(a repair round would run every tool again). The caller gets:

    -> str, Result[str], TokenStream   the hand-over sentence as the answer (SPEC: "an honest
                                        hand-over sentence instead of an exception"); a
                                        TokenStream streams it as its last `TextDelta`
    -> Result[T]                       a `Result` with `content=None`, `finish_reason="handover"`,
                                        the sentence in `result.handover`
    -> None                            None
    -> T (structured)                  `OutputParsingError` saying a person was handed the question,
                                        with the sentence in `.answer` / `.handover` and the turn in
                                        `.loop_result` (declare `Result[T]` to get it as a value)

An answer cut off by its length limit (`finish_reason` "length") or by the gateway's content filter
("content_filter") that does not parse is not repaired (the repair would be cut off too): an
`OutputParsingError` says so and names the limit (or the filter).
A structured method whose answer is a refusal (OpenAI's `refusal`, no content) is not parsed or
repaired either: `Result[T]` gets `content=None`, `finish_reason="refusal"` (`result.refusal`),
`T` an `OutputParsingError` saying the model refused (`.answer`, `.loop_result`).

An IMMEDIATE (or IMMEDIATE_IF_LAST) tool's value becomes the method's return value, so a tool
whose return annotation cannot be the return type of a `str` or structured method is refused by
`ai_service` (`ConfigurationError` naming method, tool and fix), before any tool can run. A
mismatch the annotations cannot show (no annotation, a registry's or provider's tool) is found
after the tool ran: that `ConfigurationError` says so, and carries `loop_result` and
`tool_values` (the Python values the tools returned), so nothing is lost.

Structured output goes as `response_format` (the gateway's JSON mode). A gateway that refuses
that field with a 400 (or a 422) gets the same call again with the schema in the user message instead
(`structured="instructions"`), the question asked once in memory; the service remembers it, so its
later calls ask that way at once (not with a request that fails before every answer).

From async code a method runs in a thread: `await in_thread(service.chat, "u1", question)`
(`toolkit.loop.cancel`). When the awaiting task is cancelled (`task.cancel()`, `asyncio.wait_for`
timing out), the turn stops at its next step: a model request or tool call already running
finishes, calls not started are answered "not completed", a question with no answer gets the
no-reply note above, and the task gets `CancelledError` at once. With plain `asyncio.to_thread`
the thread cannot be told: the turn runs on to its end (every later tool call with it), memory
keeps the whole turn, its answer is dropped, and the next turn on that memory id waits for it.

Leaves out: async methods, and guardrails / moderation around the call.
"""

from __future__ import annotations

import inspect
import threading
import types
import typing
import weakref
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import Any, TypeVar, overload

from pydantic import BaseModel

from toolkit.chat.clock import session_now
from toolkit.chat.messages import AssistantMessage, Message, SystemMessage, UserMessage
from toolkit.chat.model import ChatModel
from toolkit.errors import CallerError, ConfigurationError, OutputParsingError, ToolDefinitionError
from toolkit.loop.cut_off import CUT_WORDS
from toolkit.loop.run import LoopOptions, LoopResult, iter_loop, run_loop, waited_for_here
from toolkit.loop.sources import ToolRegistry, check_collection, check_provider
from toolkit.memory.turns import Held, TurnHeld, serving
from toolkit.memory.windows import (
    ChatMemory,
    ChatMemoryStore,
    InMemoryStore,
    Window,
    check_memory_id,
    check_store,
    check_window,
    shown,
)
from toolkit.services.declare import MethodPlan, check_texts, has_own_body, plan_method
from toolkit.services.results import Result, TokenStream, refusal_of
from toolkit.services.structured import OutputType, repair_message
from toolkit.services.templates import Clock, as_text, fixed_clock, render
from toolkit.tools.decorator import ReturnBehavior, a_or_an
from toolkit.tools.execute import VALUES, Tool, ToolOutput, callable_with, tools_from
from toolkit.tools.parameters import type_name
from toolkit.tools.redact import describe_exception

INTERRUPTED_TEXT = "(no reply: the answer failed with {error}; the user's message above is unanswered)"
"""Stored after a user message whose turn failed, so the conversation stays valid."""


D = TypeVar("D")
"""The declared class: `ai_service(Assistant, …)` is typed as an `Assistant`."""


def memory_per_id(*, store: ChatMemoryStore | None = None, window: Window | None = None) -> Callable[[Any], ChatMemory]:
    """A memory provider: one `ChatMemory` per memory id, created on first use, kept after.

    Ids are non-empty strings: `None`, `""` and non-strings (`1` is not `"1"`) raise `MemoryIdError`.
    A `store` or `window` that is none is refused here, not at the first id's first message.
    """
    if window is not None:
        check_window(window, "memory_per_id()")
    if store is not None:
        check_store(store, "memory_per_id(")
    store = store if store is not None else InMemoryStore()
    memories: dict[str, ChatMemory] = {}
    lock = threading.Lock()

    def provide(memory_id: Any) -> ChatMemory:
        memory_id = check_memory_id(memory_id, "memory_per_id()")
        with lock:
            if memory_id not in memories:
                memories[memory_id] = ChatMemory(memory_id, store=store, window=window)
            return memories[memory_id]

    _KEEPING.add(provide)  # one memory per id, kept: never asked twice (`_check_keeps`)
    return provide


_KEEPING: weakref.WeakSet[Any] = weakref.WeakSet()
"""The memory providers known to keep an id's conversation between calls: `memory_per_id`'s,
and each other one once `_check_keeps` has seen it do so."""


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


@overload
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
) -> D: ...


@overload
def ai_service(  # a Protocol: mypy refuses it for `type[D]` ("Only concrete class can be given")
    declaration: Callable[..., D],
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
) -> D: ...


def ai_service(
    declaration: Any,
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
) -> Any:
    """An object implementing every public method of `declaration` with the tool loop.

    `declaration` is a class, typically a `Protocol`; the type checker sees the service as one of
    it (the second overload is there for mypy, which takes no Protocol for a `type[D]`, python/mypy#4717;
    anything but a class is refused at run time all the same).

    `shared_memory_id`: with per-id memory, a method without a `MemoryId` parameter is a
    configuration error; naming an id here opts in to one conversation shared by every caller.

    From async code: `await in_thread(service.chat, ...)` (`toolkit.loop.cancel`), whose cancelled
    task stops the turn at its next step; a cancelled `asyncio.to_thread` leaves it running to its end.
    """
    if shared_memory_id is not None:
        check_memory_id(shared_memory_id, "ai_service(shared_memory_id=...)")
    # None is "no tools" / "no providers", as check_collection reads it (build_context iterates them)
    tools, providers = (() if tools is None else tools), (() if providers is None else providers)
    cfg = ServiceConfig(model, tools, providers, registry, memory, options, clock, structured, shared_memory_id)
    _check_config(declaration, cfg)
    per_id = callable(cfg.memory) and not isinstance(cfg.memory, ChatMemory)
    plans = {
        name: plan_method(declaration, name, fn, has_memory_provider=per_id, shared_memory_id=shared_memory_id)
        for name, fn in _declared(declaration)
    }
    _check_left_out(declaration, plans)
    if not plans:
        raise ConfigurationError(_nothing_declared(declaration))
    _check_immediate_tools(declaration, plans, _tools(cfg))
    refused: set[str] = set()  # what the gateway refused with a 400 naming it: every method asks without it
    methods: dict[str, Any] = {name: _method(plan, cfg, refused) for name, plan in plans.items()}
    methods.update(
        __plans__=plans,
        __config__=cfg,
        __module__=declaration.__module__,
        __repr__=lambda self: f"<{type(self).__name__}>",
    )
    service = type(f"{declaration.__name__}Service", (declaration,), methods)
    try:
        return service()
    except TypeError as exc:  # an __init__ with parameters, an abstract property: nothing ai_service can fill in
        raise ConfigurationError(
            f"ai_service({declaration.__name__}): the service cannot be made from the class ({exc}); declare the "
            "methods on a Protocol (or a class) whose __init__ takes no arguments and with no abstract attribute "
            "other than the declared methods"
        ) from None


STRUCTURED = ("response_format", "instructions")
"""How a structured method asks for its schema (`ai_service(structured=...)`)."""


def _check_config(declaration: Any, cfg: ServiceConfig) -> None:
    """What `ai_service` was given, checked before any method is read: the class, the model,
    the memory and `structured`; a `ConfigurationError` naming the argument and the fix."""
    origin: Any = typing.get_origin(declaration)
    variables: tuple[Any, ...] = getattr(origin, "__parameters__", ()) if isinstance(origin, type) else ()
    if variables:  # Extractor[Order]
        given = ", ".join(_type_name(a) for a in typing.get_args(declaration))
        raise ConfigurationError(
            f"ai_service(...) takes the declared class itself, and got {origin.__name__}[{given}], a generic class "
            "with type arguments, which ai_service does not fill in; declare a class whose methods name the "
            f"concrete types (-> {_type_name(typing.get_args(declaration)[0])}, not -> "
            f"{variables[0].__name__})"
        )
    if not isinstance(declaration, type):
        raise ConfigurationError(
            f"ai_service(...) takes the declared class itself, and got {_shown(declaration)}; "
            "pass the class, as in ai_service(Assistant, model=...), not an instance or a function"
        )
    if issubclass(declaration, BaseModel):  # its own methods would be declared: model_post_init runs at creation
        name = declaration.__name__
        raise ConfigurationError(
            f"ai_service({name}): {name} is a pydantic model, whose own methods (model_dump, model_post_init ...) "
            f"would be read as declared ones; declare the methods on a Protocol (class {name}(Protocol)) or a plain "
            "class (a pydantic model is what a method may return, -> OrderSummary)"
        )
    if isinstance(cfg.model, type):
        raise ConfigurationError(
            f"ai_service({declaration.__name__}, model={_shown(cfg.model)}): that is the class; pass a model "
            f"instance, e.g. model=connect() or model={cfg.model.__name__}(...)"
        )
    if not callable(getattr(cfg.model, "chat", None)):
        raise ConfigurationError(
            f"ai_service({declaration.__name__}, model={_shown(cfg.model)}): that is not a chat model (it has no "
            "chat() method); pass one, e.g. model=connect() or a ScriptedModel([...])"
        )
    if not isinstance(cfg.options, LoopOptions):
        raise ConfigurationError(
            f"ai_service({declaration.__name__}, options={_shown(cfg.options)}): options is a LoopOptions; "
            "pass one, e.g. options=LoopOptions(max_round_trips=3), or leave it out for the defaults"
        )
    _check_memory(declaration, cfg.memory)
    _check_shared(declaration, cfg.memory, cfg.shared_memory_id)
    _check_clock(declaration, cfg.clock)
    if cfg.structured not in STRUCTURED:
        raise ConfigurationError(
            f"ai_service({declaration.__name__}, structured={cfg.structured!r}): use one of "
            f"{', '.join(map(repr, STRUCTURED))}"
        )


def _check_memory(declaration: type, memory: Any) -> None:
    """`memory=` is None, a `ChatMemory`, or a function of one memory id (not `memory_per_id`
    itself, not a class: `ChatMemory` as a provider would start a new conversation every call)."""
    if memory is None or isinstance(memory, ChatMemory):
        return
    where = f"ai_service({declaration.__name__}, memory={_shown(memory)})"
    rule = "memory is a ChatMemory (one conversation) or a function memory_id -> ChatMemory"
    if memory is memory_per_id:
        raise ConfigurationError(f"{where}: that makes providers; call it: memory=memory_per_id()")
    if isinstance(memory, type) or not callable(memory):
        raise ConfigurationError(f"{where}: {rule}; use memory=memory_per_id() for one per id")
    if not callable_with(memory, 1):
        raise ConfigurationError(f"{where}: it cannot be called with one memory id; {rule}")


def _check_shared(declaration: type, memory: Any, shared_memory_id: str | None) -> None:
    """`shared_memory_id=` names one conversation of a per-id memory: without one, it would be
    ignored without a word (no memory: every call starts afresh; one `ChatMemory`: shared already)."""
    if shared_memory_id is None or (memory is not None and not isinstance(memory, ChatMemory)):
        return
    where = f"ai_service({declaration.__name__}, shared_memory_id={shared_memory_id!r}): names the shared "
    if memory is None:
        raise ConfigurationError(
            f"{where}conversation of a per-id memory, and the service has no memory, so every call would start "
            "afresh; pass memory=memory_per_id() too (or leave shared_memory_id out)"
        )
    raise ConfigurationError(
        f"{where}conversation of a per-id memory, and the service has one ChatMemory ({memory.id!r}), which every "
        "call shares already; leave shared_memory_id out (or pass memory=memory_per_id() for one conversation per id)"
    )


def _check_clock(declaration: type, clock: Any) -> None:
    """`clock=` is a function of no arguments (it is read when a template needs the date)."""
    where = f"ai_service({declaration.__name__}, clock={_shown(clock)})"
    rule = "clock is a function of no arguments returning a datetime, e.g. fixed_clock('2026-10-20T10:00:00')"
    if clock is fixed_clock:
        raise ConfigurationError(f"{where}: that makes clocks; call it with the moment: {rule.split('e.g. ')[1]}")
    if isinstance(clock, type) or not callable(clock):
        raise ConfigurationError(f"{where}: {rule}")
    if not callable_with(clock, 0):
        raise ConfigurationError(f"{where}: it cannot be called without arguments; {rule}")


def _shown(value: Any) -> str:
    """A value as an error message names it: short, never its whole text."""
    if isinstance(value, type):
        return f"the class {value.__name__}"
    if callable(value) and hasattr(value, "__name__"):
        return f"the function {value.__name__}"
    if type(value).__module__ != "builtins":
        return f"an instance of {type(value).__name__}"
    shown = repr(value)
    return shown if len(shown) <= 60 else f"a {type(value).__name__} ({shown[:40]}...)"


def _declared(declaration: type) -> list[tuple[str, Any]]:
    return [(n, fn) for n, fn in _declared_or_bodied(declaration) if not has_own_body(fn)]


def _declared_or_bodied(declaration: type) -> list[tuple[str, Any]]:
    names = {
        n
        for klass in declaration.__mro__
        if klass not in (object,) and klass.__module__ != "typing"
        for n in vars(klass)
        if not n.startswith("_")
    }
    # plain functions only: a nested class (an output model), a static or class method, a property stay as
    # they are, and so does a method with a body of its own (`_declared`: LangChain4j runs a default method as written)
    return [(n, getattr(declaration, n)) for n in sorted(names) if inspect.isfunction(_static(declaration, n))]


def _nothing_declared(declaration: type) -> str:
    """Why a class gives the service no method: its public methods are static or class methods (left as
    they are), or it has none."""
    name = declaration.__name__
    for klass in declaration.__mro__:
        if klass is object or klass.__module__ == "typing":
            continue
        for method, attribute in sorted(vars(klass).items()):
            kind = {staticmethod: "staticmethod", classmethod: "classmethod"}.get(type(attribute))
            if kind and not method.startswith("_"):
                return (
                    f"ai_service({name}): its public method {method} is a {kind}, which ai_service leaves as it is "
                    f"(only plain methods taking self are declared), so the service could do nothing; remove "
                    f"@{kind} and declare it def {method}(self, ...)"
                )
    bodied = sorted(n for n, _ in _declared_or_bodied(declaration))
    if bodied:
        return (
            f"ai_service({name}): its public methods ({', '.join(bodied)}) have bodies of their own, which ai_service "
            "keeps as written (as LangChain4j runs an interface's default method), so no method asks the model; "
            "declare one with ... as its body, e.g. def chat(self, question: str) -> str: ..."
        )
    return (
        f"ai_service({name}): the class declares no public method, so the service could do nothing; declare one, "
        "e.g. def chat(self, question: str) -> str: ..."
    )


def _check_left_out(declaration: type, plans: dict[str, MethodPlan]) -> None:
    """Refuse `@user_message` / `@system_message` on what is not a declared method (a static or
    class method, a property, a name starting with `_`): it is left as it is, so a call would run
    the declaration's own body (`...`, None) without a word to the model."""
    for klass in declaration.__mro__:
        if klass is object or klass.__module__ == "typing":
            continue
        for name, attribute in vars(klass).items():
            if name in plans:
                continue
            kind = {staticmethod: "staticmethod", classmethod: "classmethod", property: "property"}.get(
                type(attribute), ""
            )
            fn = attribute.fget if isinstance(attribute, property) else getattr(attribute, "__func__", attribute)
            marked = [d for d, a in _MARKS if inspect.isfunction(fn) and a in vars(fn)]
            if not marked:
                if plans:  # none declared: `_nothing_declared` says what the static and class methods are
                    _check_stub(declaration, name, kind, fn)
                continue
            where, leaves = (
                f"{declaration.__name__}.{name}: has @{marked[0]}(...), but",
                ("so a call would return the declaration's own body without asking the model. Fix: "),
            )
            if kind:
                raise ConfigurationError(
                    f"{where} is a {kind}, which ai_service leaves as it is (only plain methods taking self are "
                    f"declared), {leaves}remove @{kind} and declare it def {name}(self, ...)"
                )
            if not name.startswith("_"):  # a body of its own: kept as written
                template = "the template" if marked[0] == "user_message" else "the system message"
                raise ConfigurationError(
                    f"{declaration.__name__}.{name}: has @{marked[0]}(...) and a body of its own, which ai_service "
                    "keeps as written (as LangChain4j runs an interface's default method), so "
                    f"{template} would never be sent. Fix: write its body as ... to have the model answer it, "
                    f"or remove @{marked[0]} and call the declared methods from the body"
                )
            raise ConfigurationError(
                f"{where} its name starts with _, and ai_service declares public methods only, {leaves}rename it "
                f"without the leading _ (e.g. {name.lstrip('_') or 'ask'})"
            )


def _check_stub(declaration: type, name: str, kind: str, fn: Any) -> None:
    """Refuse a public static or class method or property whose body is a stub (`...`): it is left as
    it is, so using it would give None (or NotImplementedError) without a word to the model."""
    abstract = getattr(fn, "__isabstractmethod__", False)  # refused when the service is made, as such
    if kind and not name.startswith("_") and inspect.isfunction(fn) and not abstract and not has_own_body(fn):
        raise ConfigurationError(
            f"{declaration.__name__}.{name}: is a {kind} with no body of its own, which ai_service leaves as it is "
            "(only plain methods taking self are declared), so using it would run the stub (None, or "
            f"NotImplementedError) without asking the model. Fix: give it a body, or remove @{kind} and declare it "
            f"def {name}(self, ...)"
        )


_MARKS = (("user_message", "__toolkit_user__"), ("system_message", "__toolkit_system__"))
"""The decorators that make a function a declared method's, and the attribute each one sets."""


def _static(declaration: type, name: str) -> Any:
    """The attribute as the class body declared it (a `staticmethod` object, not the function it wraps)."""
    return inspect.getattr_static(declaration, name, None)


def _method(plan: MethodPlan, cfg: ServiceConfig, refused: set[str]) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        unexpected = next((k for k in kwargs if k not in plan.signature.parameters), None)
        if unexpected is not None:  # as Python says it first (bind would call a declared one missing)
            raise TypeError(f"{plan.name}() got an unexpected keyword argument {unexpected!r}")
        try:
            bound = plan.signature.bind(self, *args, **kwargs)
        except TypeError as exc:  # as Python says it of a plain function: which one
            raise TypeError(f"{plan.name}() {exc}") from None
        bound.apply_defaults()  # an omitted argument fills its template variable with the default
        return _invoke(plan, cfg, bound.arguments, refused)

    method.__name__, method.__qualname__ = plan.name, f"service.{plan.name}"
    method.__doc__ = f"Runs the tool loop for the declared method {plan.name!r}."
    return method


def _invoke(plan: MethodPlan, cfg: ServiceConfig, arguments: dict[str, Any], refused: set[str]) -> Any:
    """One call of a declared method (steps 1-5). `refused`: the request fields the service's gateway
    refused with a 400 naming them (`response_format`), which its later calls leave out at once."""
    if cfg.structured == "response_format" and "response_format" in refused:
        cfg = replace(cfg, structured="instructions")  # this gateway has no JSON mode: ask so at once
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
    if memory is not None and serving():  # on a thread a turn waits for: never wait for that turn's lock
        nested = waited_for_here(memory)
        if nested is not None:
            raise nested
    held = TurnHeld(memory.lock, memory.id) if memory is not None else None
    try:
        with held or nullcontext():
            try:
                loop = run_loop(cfg.model, messages, **kwargs)
                return _convert(plan, cfg, loop, kwargs, values)  # step 5
            except CallerError as exc:
                if plan.output is None or cfg.structured != "response_format" or not exc.refuses("response_format"):
                    _close_failed_turn(memory, exc)
                    raise
                _forget_question(memory, messages[-1])
                refused.add("response_format")
            except BaseException as exc:  # Ctrl-C too: memory stays valid, then the interrupt goes on
                _close_failed_turn(memory, exc)
                raise
    except BaseException:
        if held is not None:  # a Ctrl-C as its `__exit__` began kept the hold: every other turn on the id waited
            held.let_go()
        raise
    return _invoke(plan, replace(cfg, structured="instructions"), arguments, refused)  # no JSON mode here


def _forget_question(memory: ChatMemory | None, question: Message) -> None:
    """Take back the question a turn that failed at once left as the last message in memory."""
    if memory is not None:
        memory.update(lambda current: current[:-1] if current and current[-1] == question else current)


def _close_failed_turn(memory: ChatMemory | None, exc: BaseException) -> None:
    """After a failed turn, never leave the user's message as the last one in memory."""
    if memory is None:
        return
    held = Held(memory.lock)
    try:
        with held:
            try:
                current = memory.messages()
                if current and isinstance(current[-1], UserMessage):
                    memory.add(AssistantMessage(content=INTERRUPTED_TEXT.format(error=type(exc).__name__)))
            except Exception as failure:  # the store failing too: `exc` stays the error, this a note on it
                exc.add_note(
                    f"memory could not take the note that this question got no reply ({describe_exception(failure)})"
                )
    except BaseException:
        held.let_go()  # a Ctrl-C as its `__exit__` began kept the hold (`Held`)
        raise


def _messages(
    plan: MethodPlan, cfg: ServiceConfig, arguments: dict[str, Any]
) -> tuple[list[Message], ChatMemory | None]:
    if plan.texts:
        check_texts(plan.name, plan, arguments)
    own = (plan.user_param, plan.memory_param)  # usable in templates by their own names
    values = {name: arguments[name] for name in own if name is not None}
    values.update({var: arguments[param] for param, var in plan.variables.items()})
    values.update({name: arguments[param] for name, param in (plan.aliases or {}).items() if name not in values})
    user = (
        render(plan.user_template, values, cfg.clock, where=plan.name)
        if plan.user_template is not None
        else _user_text(plan, arguments[plan.user_param or ""])
    )
    if plan.output is not None and cfg.structured == "instructions":
        user = f"{user}\n\n{plan.output.instructions()}"
    messages: list[Message] = [UserMessage(content=user)]
    if plan.system:
        messages.insert(0, SystemMessage(content=render(plan.system, values, cfg.clock, where=plan.name)))
    memory_id = arguments.get(plan.memory_param) if plan.memory_param else cfg.shared_memory_id
    return messages, _memory(plan, cfg, memory_id)


def _user_text(plan: MethodPlan, value: Any) -> str:
    """The user text parameter's value as the user message (`ConfigurationError` naming the
    parameter for a value no prompt can hold: bytes that are not text, None: no question at all)."""
    if value is None:  # LangChain4j refuses a null user message too
        raise ConfigurationError(
            f"{plan.name}({plan.user_param}=None): the user message is None, so the model would be asked 'null'; "
            "pass the text to ask (a None inside a template, {{name}}, is written null)"
        )
    try:
        return as_text(value)
    except ConfigurationError as exc:
        raise ConfigurationError(f"{plan.name}({plan.user_param}=...): {exc}") from None


def _memory(plan: MethodPlan, cfg: ServiceConfig, memory_id: Any) -> ChatMemory | None:
    if cfg.memory is None or isinstance(cfg.memory, ChatMemory):
        return cfg.memory
    where = f"{plan.name}({plan.memory_param}=...)" if plan.memory_param else plan.name
    memory = cfg.memory(check_memory_id(memory_id, where))
    if not isinstance(memory, ChatMemory):
        raise ConfigurationError(
            f"{where}: the memory provider returned {type(memory).__name__}, not a ChatMemory; "
            "make it return ChatMemory(memory_id, ...), or use memory=memory_per_id()"
        )
    _check_keeps(cfg.memory, memory_id, memory, where)
    return memory


def _check_keeps(provide: Callable[[Any], Any], memory_id: str, memory: ChatMemory, where: str) -> None:
    """On a provider's first use: `ConfigurationError` if it makes a new in-memory conversation
    at each call (`lambda memory_id: ChatMemory(memory_id, window=...)`, LangChain4j's
    `chatMemoryProvider` written in Python: LangChain4j keeps what its provider gives per id,
    this service asks the provider at every call), which would lose every earlier call's
    messages. It is asked once more for the same id, before anything is sent: a new ChatMemory
    on a new `InMemoryStore` is that mistake. A memory on a store that outlives it (a
    `SqliteStore`, a store of one's own) is fine, as is one store shared by every memory."""
    try:
        if provide in _KEEPING:
            return
    except TypeError:  # a callable that is not hashable or weakly referable: asked at every call
        pass
    again = provide(memory_id)
    if (
        again is not memory
        and isinstance(again, ChatMemory)
        and isinstance(memory.store, InMemoryStore)
        and isinstance(again.store, InMemoryStore)
        and again.store is not memory.store
    ):
        raise ConfigurationError(
            f"{where}: the memory provider gave memory id {shown(memory_id)} a new ChatMemory on a new "
            "InMemoryStore each time it was called, so every call would start a new conversation and lose the "
            "ones before; keep one memory per id: memory=memory_per_id(window=...), or make one store and share "
            "it: store = InMemoryStore(), then memory=lambda memory_id: ChatMemory(memory_id, store=store, "
            "window=...)"
        )
    try:
        _KEEPING.add(provide)
    except TypeError:
        pass


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
        return loop.answer  # an answer, or the hand-over sentence
    if plan.output is None:  # Result[str]
        return _result(loop, loop.answer)
    if loop.finish != "answer":
        return _handed_over(plan, loop)
    return _structured(plan, plan.output, cfg, loop, kwargs, values)


def _structured(
    plan: MethodPlan,
    output: OutputType,
    cfg: ServiceConfig,
    loop: LoopResult,
    kwargs: dict[str, Any],
    values: dict[str, Any],
) -> Any:
    """Parse the answer; a malformed one gets one repair round, which may itself end otherwise.
    A refusal is no answer: never parsed, nor repaired (`_refused`); nor is an answer its length
    limit cut off (`_cut_off`: the repair would be cut off too)."""
    if refusal_of(loop) is not None:
        return _refused(plan, loop)
    try:
        value = output.parse(loop.answer)
    except OutputParsingError as error:
        _cut_off(plan, loop, error, (error.answer,))
        repair: list[Message] = [UserMessage(content=repair_message(error))]
        history: list[Message] = [] if kwargs["memory"] is not None else list(loop.messages)
        loop = _joined(loop, run_loop(cfg.model, history + repair, **kwargs))
        if loop.finish == "immediate":
            return _immediate(plan, loop, values)
        if loop.finish != "answer":
            return _handed_over(plan, loop)
        if refusal_of(loop) is not None:
            return _refused(plan, loop)
        try:
            value = output.parse(loop.answer)
        except OutputParsingError as again:
            _cut_off(plan, loop, again, (error.answer, again.answer))
            raise _unrepaired(plan, loop, again, error.answer) from None
    return _result(loop, value) if plan.kind == "result" else value


def _unrepaired(plan: MethodPlan, loop: LoopResult, again: OutputParsingError, first: str) -> OutputParsingError:
    """The error of an answer wrong twice: which method, that the repair round was tried, why the
    second answer failed; every answer in `.answers`, the turn (both rounds' tools) in `.loop_result`."""
    declared = _type_name(plan.output.type if plan.output else str)
    error = OutputParsingError(
        f"{plan.name}: the answer is no {declared} after one repair round: {again}",
        answer=again.answer,
        answers=(first, again.answer),
    )
    error.loop_result = loop  # type: ignore[attr-defined]
    return error


def _cut_off(plan: MethodPlan, loop: LoopResult, error: OutputParsingError, answers: tuple[str, ...]) -> None:
    """Raise `OutputParsingError` saying so when the answer that did not parse was cut off by its
    length limit or the gateway's content filter (`finish_reason` "length", "content_filter": `CUT_WORDS`):
    it is not malformed, the repair would be cut off too, and the fix is the limit or the request."""
    reason = loop.rounds[-1].finish_reason if loop.rounds else None
    if reason not in CUT_HINTS:
        return
    declared = _type_name(plan.output.type if plan.output else str)
    cut = OutputParsingError(
        f'{plan.name}: the answer was cut off by {CUT_WORDS[reason]} (finish_reason "{reason}") before its JSON '
        f"was whole ({error}), so there is no {declared} to return; a repair round would be cut off too",
        answer=error.answer,
        answers=answers,
    )
    cut.hint = CUT_HINTS[reason]
    cut.loop_result = loop  # type: ignore[attr-defined]
    raise cut from None


CUT_HINT = (
    "The model's reply reached its token limit: raise max_tokens (or max_completion_tokens), or leave it unset; "
    "or ask for a shorter answer. The error's .answers holds what the model wrote."
)
"""The hint of a structured answer cut off by its length limit."""
FILTER_HINT = (
    "The gateway's content filter stopped the model's reply: rephrase the request, or check the gateway's filter. "
    "The error's .answers holds what the model wrote."
)
"""The hint of a structured answer cut off by the gateway's content filter."""
WINDOW_HINT = (
    "The conversation and the model's reply filled the model's context window: shorten the conversation (a smaller "
    "memory window), or ask for a shorter answer. The error's .answers holds what the model wrote."
)
"""The hint of a structured answer cut off by the model's context window (Mistral's "model_length")."""
CUT_HINTS = {
    "length": CUT_HINT,
    "content_filter": FILTER_HINT,
    "sensitive": FILTER_HINT,  # Zhipu's
    "model_length": WINDOW_HINT,  # Mistral's
}
"""Each `finish_reason` that cuts an answer off where it stops it (`toolkit.loop.cut_off.CUT_BY`), and its hint."""


def _joined(first: LoopResult, second: LoopResult) -> LoopResult:
    """The repair round's result with the first turn's part in it: usage, rounds (and with them the
    tool executions), the messages it appended and the compensations it ran."""
    return replace(
        second,
        usage=first.usage + second.usage,
        rounds=first.rounds + second.rounds,
        new_messages=first.new_messages + second.new_messages,
        saga=first.saga + second.saga,
    )


def _handed_over(plan: MethodPlan, loop: LoopResult) -> Any:
    """The loop handed the question to a person: no answer exists to parse, and none is invented.

    `Result[T]` → a `Result` with `content=None` (the sentence in `.handover`); `T` →
    `OutputParsingError` saying so, carrying the sentence and the turn.
    """
    if plan.kind == "result":
        return _result(loop, None)
    declared = _type_name(plan.output.type if plan.output else str)
    sentence = loop.answer or ""
    error = OutputParsingError(
        f"{plan.name}: the question was handed over to a person (the loop ended with {loop.finish!r}: "
        f"{sentence!r}), so there is no {declared} to return (a hand-over is never parsed or repaired); "
        f"declare the return type Result[{declared}] to receive the hand-over as a value (result.handover)",
        answer=sentence,
    )
    error.handover = sentence  # type: ignore[attr-defined]
    error.loop_result = loop  # type: ignore[attr-defined]
    raise error


def _refused(plan: MethodPlan, loop: LoopResult) -> Any:
    """The model refused to answer: `Result[T]` → a `Result` with `content=None` and
    `finish_reason="refusal"` (the text in `result.refusal`); `T` → `OutputParsingError` saying so,
    with the refusal in `.answer` and the turn in `.loop_result` (pressing the model to answer the
    schema after all, a repair round, is not done)."""
    if plan.kind == "result":
        return replace(_result(loop, None), finish_reason="refusal")
    refusal = refusal_of(loop) or ""
    declared = _type_name(plan.output.type if plan.output else str)
    error = OutputParsingError(
        f"{plan.name}: the model refused to answer ({refusal!r}), so there is no {declared} to return (a refusal "
        f"is not repaired); declare the return type Result[{declared}] to receive the refusal as a value",
        answer=refusal,
    )
    error.hint = REFUSED_HINT  # the class's advice on answering in shape is no help with a refusal
    error.loop_result = loop  # type: ignore[attr-defined]
    raise error


REFUSED_HINT = (
    "The model declined the request itself, not the format: .answer holds its words; rephrase the request, "
    "or declare Result[...] to receive a refusal as a value."
)
"""The hint of a structured method whose answer was a refusal."""


def _immediate(plan: MethodPlan, loop: LoopResult, values: dict[str, Any]) -> Any:
    """What a method returns when a tool ended the call (LangChain4j's `DefaultAiServices`).

    `Result[T]` → a `Result` with `content=None`; `None` → None; otherwise: every tool returned
    None → None; exactly one value that is not None, of the declared type → that object (not
    its text); anything else → `ConfigurationError` (declare `Result[...]`). That error comes after
    the tools ran (`ai_service` refuses the mismatches annotations show): it says so, and carries
    `loop_result` and `tool_values` (the values the tools returned, in call order).

    The values are the last round's, the round that ended the call. LangChain4j reads every tool execution
    of the call (`toolServiceResult.toolExecutions()`, all rounds) and takes this path only when each of
    them is IMMEDIATE or IMMEDIATE_IF_LAST; otherwise (a TO_LLM lookup in an earlier round, or a round
    `[TO_LLM, IMMEDIATE_IF_LAST]`) it parses the model's last message, the one that asked for the tools
    and has no answer, as if it were one. Here such a call returns the ending tool's value, or, when the
    ending round has several values, the `ConfigurationError` above.
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
        declared = _type_name(plan.output.type if plan.output else str)
        name = next(r.tool_name for r, v in zip(results, returned) if v is not None)
        error = ConfigurationError(
            f"{plan.name}: the IMMEDIATE tool {name!r} ran and returned {a_or_an(type(present[0]).__name__)}, but the "
            f"method returns {declared}; make the tool return {declared}, or declare the return type Result[...] "
            "to receive it (this call's value is in .tool_values, the turn in .loop_result)"
        )
    else:
        error = ConfigurationError(
            f"{plan.name}: an IMMEDIATE tool ended the call with {len(results)} results, which this return type "
            "cannot hold; declare the return type Result[...] to receive them"
        )
    error.hint = RAN_HINT  # the class's "nothing was sent to the model" is not true here
    error.loop_result = loop  # type: ignore[attr-defined]
    error.tool_values = returned  # type: ignore[attr-defined]
    raise error


RAN_HINT = (
    "The model was asked and the tool ran: its value is in .tool_values and the turn in .loop_result; "
    "fix the return type the message names."
)
"""The hint of an immediate return's type mismatch, found after the tool ran."""


def _tools(cfg: ServiceConfig) -> list[Tool]:
    """The service's own tools, collected once when it is created, so a tool the loop could not use
    (`tools=query_order` without a list, a parameter without a type, a name twice) is a
    `ToolDefinitionError` from `ai_service`, not from the first call."""
    check_collection("tools", cfg.tools)
    check_collection("providers", cfg.providers)
    for provider in cfg.providers:  # a tool given as a provider, an MCP client: refused now, not at the first call
        check_provider(provider)
    if cfg.registry is not None and not isinstance(cfg.registry, ToolRegistry):
        kind = type(cfg.registry).__name__
        raise ToolDefinitionError(
            f"registry={kind} object",
            f"registry= takes a ToolRegistry, and got {a_or_an(kind)}",
            "pass tools as tools=[...] and providers as providers=[...]",
        )
    return tools_from(*cfg.tools)


def _check_immediate_tools(declaration: type, plans: dict[str, MethodPlan], found: Sequence[Tool]) -> None:
    """Refuse an IMMEDIATE tool whose return annotation cannot be a method's return type.

    Only `str` and structured methods are checked (`Result[...]`, `None` and `TokenStream` take
    any tool result). Tools the annotations say nothing about (no annotation, `Any`, a
    `ToolOutput`, a registry's or provider's tool) are checked after they run (`_immediate`).
    """
    checked = [p for p in plans.values() if p.kind in ("text", "structured")]
    if not checked or not found:
        return
    ending = (ReturnBehavior.IMMEDIATE, ReturnBehavior.IMMEDIATE_IF_LAST)
    for t in found:
        if t.spec.return_behavior not in ending or t.function is None:
            continue
        try:
            returns = typing.get_type_hints(t.function).get("return", Any)
        except Exception:  # an annotation that cannot be resolved: checked when it runs
            continue
        for plan in checked:
            declared = str if plan.output is None else plan.output.type
            if _may_return(returns, declared):
                continue
            behavior = t.spec.return_behavior.name
            raise ConfigurationError(
                f"{declaration.__name__}.{plan.name}: returns {_type_name(declared)}, but the {behavior} tool "
                f"{t.name!r} ({t.source}) returns {_type_name(returns)}; an {behavior} tool's value becomes the "
                f"method's return value, so it must be a {_type_name(declared)} or None. Make the tool return "
                f"{_type_name(declared)}, declare the method's return type Result[{_type_name(declared)}] to "
                "receive any tool's result, or give this tool to a service without this method"
            )


def _may_return(returns: Any, declared: Any) -> bool:
    """Whether a tool annotated `-> returns` may return a value of `declared`; True when the
    annotations cannot tell (`Any`, `Literal`, type variables, a `ToolOutput` …)."""
    wanted = typing.get_origin(declared) or declared
    if not isinstance(wanted, type):
        return True
    if typing.get_origin(returns) in (typing.Union, types.UnionType):
        members = list(typing.get_args(returns))
    else:
        members = [returns]
    members = [m for m in members if m not in (None, type(None))]  # None is always a fine value
    for member in members:
        got = typing.get_origin(member) or member
        if member is Any or not isinstance(got, type) or got is ToolOutput:
            return True
        if issubclass(got, wanted) or issubclass(wanted, got):
            return True
    return not members


def _type_name(annotation: Any) -> str:
    """A type as a declaration writes it: `Summary`, `list[Summary]` (never `list[app.models.Summary]`)."""
    return type_name(annotation)


def _is_declared_type(plan: MethodPlan, value: Any) -> bool:
    if plan.kind == "text":
        return isinstance(value, str)
    if plan.output is None:
        return False
    declared = plan.output.type
    if isinstance(declared, type):
        return isinstance(value, declared)
    try:  # of the type, not only readable as it: a dict validates as a model, and is no model
        return bool(plan.output.adapter.validate_python(value, strict=True) == value)
    except Exception:
        return False


def _result(loop: LoopResult, content: Any) -> Result[Any]:
    reasons = {"immediate": "tool_execution", "handover": "handover"}
    reason = reasons.get(loop.finish, loop.rounds[-1].finish_reason)
    return Result(
        content, loop.usage, loop.executions, reason, loop.finish == "immediate", list(loop.immediate_results), loop
    )
