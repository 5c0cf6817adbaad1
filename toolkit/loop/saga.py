"""Compensation (a saga): when a call fails, undo what earlier calls of the same turn did.

A tool declares its undo action with `@compensates("reserve_stock")` on a function that takes
either the *same parameters* as that tool (it receives the very arguments the model sent, and
the original call's context: its memory id, its parameters) or exactly one parameter typed
`ToolExecution` (it receives the recorded execution, `execution.context` included). The target
may come from any source with an executor — `@tool` function, registry entry, provider.
Compensations are found where LangChain4j finds `@CompensateFor`, beside the tools: the marked
methods of an object given as `tools=` (bound to it) and the marked functions of a module given
as one; others are passed as `LoopOptions(compensations=(...))`. A compensation given as a tool
itself is refused (`tools_from`): the model must never be offered the undo action.

When a round has a failure that compensates (the table) and there are successful compensable
calls in this turn (this round or earlier ones, not already rolled back), the loop runs their
compensations in *reverse* order. A compensation that fails is logged in the `SagaEntry` list
and never raised. Then the history is rewritten: each rolled-back result becomes "Tool 'X' was
executed successfully but was rolled back due to failure of tool 'Y'" (`LoopTexts.rolled_back`;
Chinese under `COURSE`) with `is_error=True`, so the model never reasons from a fact that no
longer holds. (Unlike LangChain4j, a result whose compensation failed is left as it was: its
effect still holds, and the model should know.)

Which failures compensate. The simple rule is "a tool in this round reported an error"; the
course follows it where something failed that the turn depended on, and differs where the
model is about to correct itself and the work done is still true:

=============================  ===========  ====================  ===================================
failure kind                   fed back /   compensates?          what the model reads
                               raised
=============================  ===========  ====================  ===================================
the tool raised                fed back     yes (simple rule)     "Tool 'Y' failed: …"; undone calls
                                                                  read "rolled back … failure of Y"
the tool raised                raised       yes, before the       (next turn, from memory) the same;
                                            error propagates      later calls: "not run, and why"
the tool reported a failure    fed back     yes (simple rule;     the tool's own text; undone calls
(`ToolOutput(is_error=True)`)               as LangChain4j)       read "rolled back … failure of Y"
argument error, no repair      fed back     yes (simple rule)     field / got / expected + rollbacks
argument error, no repair      raised       yes, before the       the error + rollbacks
                                            error propagates
argument error under a         fed back     no, not yet: kept     the repair text; earlier results
repair budget (`COURSE`)                    until the repair      stay as they were (true)
                                            fails
argument error after the       hand over    yes, then the         rollbacks, then the "需要人工确认"
repair budget (`COURSE`)                    hand-over             hand-over
unknown tool name              fed back     no (differs from      "no tool named X; tools: …"
                                            LangChain4j)
unknown tool name              raised       yes, before the       the error + rollbacks
                                            error propagates
loop guard (a repeated call)   fed back     no (nothing failed)   "you already called X; use it"
a limit (round trips, model    hand over /  no (not a tool's      the hand-over, or nothing (raised);
requests), guard hand-over     raised       failure)              the work done is recorded as done
=============================  ===========  ====================  ===================================

Why the differences. A repairable argument error means the bad call never ran and the model
is asked to send that one call again: rolling back the order's reservation and payment first
would make it redo them (a second charge, if it misreads the rewrite) for a typo in an
address. So a repair keeps the work, and the compensation runs when the repair fails (the
hand-over). A fed-back unknown name ran nothing either; the model is told which tools exist.
A guarded call's earlier result still holds, and the guard tells the model to use it. A
raised failure ends the turn with nobody left to finish the work: it rolls back first, which
LangChain4j does not (its compensation step sits after execution, and a rethrown error skips
it). A limit or a hand-over ends the turn without a tool failing: the person taking over
reads what really happened.

Misconfigured compensations (unknown tool, mismatched parameters, an `async def` or a
generator in either form) are only an error when compensation is switched on — and then at the
start of the call, before any tool runs (the compensation of a tool a dynamic provider adds later
in the turn, a skill's own tool, when that tool joins, before it can run). A compensation runs synchronously: one that returns an
awaitable anyway (a plain function handing back a coroutine) has not undone anything, so its
coroutine is closed and the attempt is logged as failed, never as "rolled back"; so is one that
returns `ToolOutput(..., is_error=True)`, the package's way to report a failure handled. A compensation
that ends with `SystemExit`, its own async work's `CancelledError` or a `GeneratorExit` of its own is a
failed one like any other
(`errors.OWN_FAILURES`); one interrupted (`KeyboardInterrupt`)
is logged as interrupted, the compensations after it as not run, and the interruption goes on
(the loop then answers the round's calls and attaches the log to it as `saga`).

A call past `LoopOptions.tool_timeout` (`toolkit.loop.time_limit`) fails the round like a raised
error, and its outcome is unknown: it may still be running. It is never compensated (an undo run
while it runs may come first, and the call's work then holds), and when it has a compensation the
saga log says so (`unknown_outcome`, logged as a warning): checking it is left to the learner.

Leaves out: persistence of the saga log across calls (a later turn's failure does not undo
an earlier turn's work), and retries of failed compensations.
"""

from __future__ import annotations

import functools
import inspect
import re
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from toolkit.chat.messages import ToolCall, ToolResultMessage
from toolkit.errors import OWN_FAILURES, ConfigurationError, ToolDefinitionError
from toolkit.loop.time_limit import TIMED_OUT, finished
from toolkit.tools import redact
from toolkit.tools.decorator import COMPENSATES, InvocationContext, a_kind_of, function_label, tool_options
from toolkit.tools.execute import Tool, ToolOutput, function_tool
from toolkit.tools.result_text import to_text

_MARK = COMPENSATES


@dataclass(frozen=True)
class ToolExecution:
    """One executed call: what was asked, what came back, in which round."""

    round: int
    call: ToolCall
    result: ToolResultMessage
    duration_s: float = field(default=0.0, repr=False)
    """Seconds the call took (by `LoopOptions.clock`); left out of the repr, which a notebook shows:
    it differs every run."""
    error_kind: str | None = None
    """None on success; else `unknown_tool`, `argument`, `execution`, `guard` or `not_run`."""
    rolled_back_by: str | None = None
    """Set when a saga undid this call: the name of the tool whose failure caused it."""
    context: InvocationContext | None = None
    """The context the call ran with (memory id, parameters, the call); its compensation gets it."""
    raised: Exception | None = None
    """What the call's error policy raised to stop the loop (None: the round went on)."""

    def __init__(
        self,
        round: int,
        call: ToolCall,
        result: ToolResultMessage,
        duration_s: float = 0.0,
        error_kind: str | None = None,
        rolled_back_by: str | None = None,
        context: InvocationContext | None = None,
        raised: Exception | None = None,
    ) -> None:
        """The dataclass's own `__init__`, each field written to `__dict__`: the generated one of a
        frozen dataclass sets each through `object.__setattr__` (some 1.5k instructions a field;
        the loop makes one per call)."""
        fields = self.__dict__
        fields["round"], fields["call"], fields["result"], fields["duration_s"] = round, call, result, duration_s
        fields["error_kind"], fields["rolled_back_by"], fields["context"] = error_kind, rolled_back_by, context
        fields["raised"] = raised

    @property
    def succeeded(self) -> bool:
        """The call ran and its result is not an error. A tool that reports its own failure
        (`ToolOutput(..., is_error=True)`) has failed as surely as one that raised: it is never
        compensated (there is nothing to undo) and it triggers a saga like a raised error."""
        return self.error_kind is None and not self.result.is_error

    @property
    def failure(self) -> str | None:
        """How the call itself failed, for the views: its `error_kind`, or `"reported"` when the
        tool reported its own failure (`ToolOutput(..., is_error=True)`); None when it did not
        fail (a call a saga rolled back had succeeded: its rollback is shown apart)."""
        if self.error_kind is not None:
            return self.error_kind
        return "reported" if self.result.is_error and self.rolled_back_by is None else None


@dataclass(frozen=True)
class SagaEntry:
    """One compensation attempt, for the saga log."""

    tool: str
    compensation: str
    call_id: str
    ok: bool
    detail: str
    round: int | None = None
    """The round whose failure ran this saga (None: not known, an entry made by hand)."""
    call_round: int | None = None
    """The round of the call it undid (a model may reuse a call id in later rounds)."""


Undo = TypeVar("Undo", bound=Callable[..., Any])
"""What `@compensates` marks, kept as it is for the type checker."""


def compensates(tool_name: str) -> Callable[[Undo], Undo]:
    """Mark a function as the compensating action of the tool named `tool_name`.

    The name is checked here (a str, not empty), and so is what it marks (a function): bare
    `@compensates` over a function, `@compensates(reserve)` with the tool itself, or `compensates("x")(3)`
    was a raw `AttributeError` or a name nothing matched, found only when a saga ran."""
    if not isinstance(tool_name, str) or not tool_name:
        given: Any = tool_name
        shown = f"the function {getattr(given, '__name__', '?')}" if callable(given) else repr(given)
        options = tool_options(given)  # the tool itself: its name is the fix; else a bare @compensates
        name = (options.name or getattr(given, "__name__", None)) if options is not None else None
        fix = f"@compensates({name!r})" if name else "@compensates('reserve_stock') above def undo(execution): ..."
        raise ToolDefinitionError(
            f"@compensates({shown})",
            "it takes the name of the tool whose action it undoes, as a str",
            f"name the tool: {fix}",
        )

    def mark(fn: Undo) -> Undo:
        if not callable(fn) or isinstance(fn, type):
            raise ToolDefinitionError(
                f"@compensates({tool_name!r})",
                f"it marks a function (the action that undoes {tool_name!r}), and got {a_kind_of(fn)}",
                f"put it above a def: @compensates({tool_name!r}) then def undo(execution): ...",
            )
        target = getattr(fn, "__func__", fn)
        earlier = getattr(target, _MARK, None)
        if isinstance(earlier, str) and earlier != tool_name:
            name = getattr(target, "__name__", "undo")
            raise ToolDefinitionError(
                f"@compensates({tool_name!r}) {name}",
                f"it already compensates {earlier!r}, and a function compensates one tool (the second mark "
                "would silently replace the first)",
                f"write one function per tool, e.g. @compensates({tool_name!r}) def {name}_{tool_name}(execution): "
                f"return {name}(execution)",
            )
        setattr(target, _MARK, tool_name)
        return fn

    return mark


ROLLED_BACK_EN = "Tool '{tool}' was executed successfully but was rolled back due to failure of tool '{failed}'"
"""LangChain4j's text (`toolkit.loop.texts` has it, and the Chinese one, as `rolled_back`)."""


def rolled_back_text(tool: str, failed: str, template: str = ROLLED_BACK_EN) -> str:
    return template.format(tool=tool, failed=failed)


@dataclass(frozen=True)
class Compensation:
    """A checked compensating action for one tool."""

    tool: str
    label: str
    run: Callable[[ToolExecution], Any]


def compensations_in(sources: Sequence[Any]) -> tuple[Callable[..., Any], ...]:
    """The `@compensates` functions declared beside the tools, where LangChain4j finds `@CompensateFor`:
    the methods of each object given as a tool source (bound to that object), and the functions of
    each module given as one. A function or a `Tool` given alone has none."""
    found: list[Callable[..., Any]] = []
    for source in sources:
        if isinstance(source, types.ModuleType):
            found += [
                fn
                for fn in vars(source).values()
                if inspect.isfunction(fn) and hasattr(fn, _MARK) and fn.__module__ == source.__name__
            ]
        elif not (isinstance(source, (type, Tool, types.FunctionType, types.MethodType)) or inspect.isbuiltin(source)):
            found += [getattr(source, name) for name in _marked_attributes(type(source))]
    return tuple(found)


def _marked_attributes(cls: type) -> list[str]:
    """Names of the class's methods (static and class methods too) marked `@compensates`; the
    attributes are read from the class, so no property of the instance is run."""
    seen: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        seen.update(vars(klass))
    return [name for name, attr in seen.items() if hasattr(getattr(attr, "__func__", attr), _MARK)]


def joining_later(functions: Sequence[Callable[..., Any]], tools: Any) -> list[Callable[..., Any]]:
    """The compensations whose tool is not in `tools.available` yet (a dynamic provider may add it
    later in the turn: it is checked when it joins). One not marked `@compensates` is not among
    them: `compensations_from` refuses it at the start."""
    return [fn for fn in functions if (target := _target(fn)) is not None and target not in tools.available]


def _target(fn: Any) -> str | None:
    target = getattr(getattr(fn, "__func__", fn), _MARK, None)
    return target if isinstance(target, str) else None


def merged(given: Sequence[Callable[..., Any]], found: Sequence[Callable[..., Any]]) -> tuple[Callable[..., Any], ...]:
    """`given` then the `found` ones not among them (a bound method given in both is one compensation)."""
    return (*given, *(fn for fn in found if fn not in given))


def compensations_from(functions: Sequence[Callable[..., Any]], tools: Mapping[str, Tool]) -> dict[str, Compensation]:
    """Check every `@compensates` function against the tools of the call; raise on a mismatch."""
    found: dict[str, Compensation] = {}
    for fn in functions:
        target = getattr(getattr(fn, "__func__", fn), _MARK, None)
        label = f"@compensates({target!r}) {function_label(getattr(fn, '__func__', fn))}"
        if target is None:
            raise ConfigurationError(
                f"{function_label(fn)}: not marked with @compensates(...); decorate it with @compensates('tool_name')"
            )
        if target not in tools:
            raise ConfigurationError(
                f"{label}: there is no tool named {target!r} in this call "
                f"(tools: {', '.join(sorted(tools)) or 'none'}); fix the name"
            )
        if target in found:
            raise ConfigurationError(
                f"{label}: {target!r} already has a compensation ({found[target].label}); keep one"
            )
        found[target] = Compensation(target, label, _runner(fn, tools[target], label))
    return found


def _runner(fn: Callable[..., Any], tool: Tool, label: str) -> Callable[[ToolExecution], Any]:
    if owner := _class_of_unbound(fn):
        instance = re.sub(r"(?<!^)(?=[A-Z])", "_", owner).lower()
        raise ConfigurationError(
            f"{label}: it is a method taken from the class, so the saga would pass the call's first argument as "
            f"self; pass it bound to the object whose tool it undoes ({instance}.{fn.__name__}, with {instance} = "
            f"{owner}()), or leave it out and give the object as tools=[{instance}]: the compensations of an "
            "object given as a tool source are found there"
        )
    kind = _unrunnable(fn)
    if kind:
        raise ConfigurationError(
            f"{label}: it is {kind}, and the saga calls compensations synchronously: its body would "
            "never run, and the call would read 'rolled back' when nothing was undone; make it a plain "
            "function (async compensations are left out, like async tools)"
        )
    if _takes_execution(fn, label, tool):
        return lambda execution: fn(execution)
    if untyped := _untyped(fn):
        raise ConfigurationError(
            f"{label}: its parameter {untyped!r} has no type annotation; take the parameters of tool "
            f"{tool.name!r} with their types, {_shape(tool.spec.parameters)}, or one parameter typed ToolExecution"
        )
    same = _as_tool(fn, tool.name, label)
    if _shape(same.spec.parameters) != _shape(tool.spec.parameters):
        raise ConfigurationError(
            f"{label}: its parameters {_shape(same.spec.parameters)} differ from those of tool "
            f"{tool.name!r}, {_shape(tool.spec.parameters)}; take the same parameters, or one "
            "parameter typed ToolExecution"
        )
    return lambda execution: same.executor(execution.call, execution.context or InvocationContext())


def _as_tool(fn: Callable[..., Any], name: str, label: str) -> Tool:
    """`fn` reflected as a tool named `name` (the model never sees it: its own name need not be a tool
    name); a refusal names it by `label`, as it was marked, not "@tool …", a decorator it does not carry."""
    try:
        return function_tool(fn, name=name)
    except ToolDefinitionError as error:
        where = error.where.split(", ", 1)[1:]  # the parameter, when the refusal names one
        raise ToolDefinitionError(", ".join([label, *where]), error.problem, error.fix) from None


def _class_of_unbound(fn: Callable[..., Any]) -> str:
    """The class name of a method taken from its class (`Hotel.cancel`: a function defined in a
    class body whose first parameter is `self`), else ""."""
    if not inspect.isfunction(fn):
        return ""
    path = fn.__qualname__.rsplit(".<locals>.", 1)[-1].split(".")
    try:
        first = next(iter(inspect.signature(fn).parameters), "")
    except (TypeError, ValueError):
        return ""
    return path[-2] if len(path) >= 2 and first == "self" else ""


def _unrunnable(fn: Callable[..., Any]) -> str:
    """Why calling `fn` would not run its body ("" if it would): async, or a generator, in any
    form (bound method, `functools.partial`, `functools.wraps` wrapper, async `__call__`)."""
    inner = inspect.unwrap(getattr(fn, "__func__", fn))
    call = type(fn).__call__ if callable(fn) else None
    for candidate, prefix in ((fn, ""), (call, ""), (inner, "a functools.wraps wrapper of ")):
        kind = _kind(candidate)
        if kind:
            return prefix + kind
    return ""


def _kind(fn: Any) -> str:
    if inspect.iscoroutinefunction(fn):
        return "an async function"
    if inspect.isasyncgenfunction(fn):
        return "an async generator"
    if inspect.isgeneratorfunction(fn):
        return "a generator (it yields)"
    return ""


def _takes_execution(fn: Callable[..., Any], label: str, tool: Tool) -> bool:
    """One parameter, typed ToolExecution (a string annotation read too), as the signature reads it: a
    callable object's `__call__` or a `functools.partial` has one, not the `__annotations__` typing wants.
    A string annotation that names nothing (a type imported under TYPE_CHECKING) is refused here, and
    so is a ToolExecution beside other parameters (neither form: function_tool would complain that
    ToolExecution has no JSON Schema, about a model that never sees a compensation)."""
    try:
        params = list(inspect.signature(fn, eval_str=True).parameters.values())
    except (TypeError, ValueError):  # no signature to read: function_tool says what is wrong
        return False
    except Exception as exc:  # evaluating a string annotation failed
        raise ConfigurationError(
            f"{label}: its annotations cannot be resolved ({redact.describe_exception(exc)}); import the types "
            "they name at module level (not under TYPE_CHECKING)"
        ) from None
    typed = [p.name for p in params if p.annotation is ToolExecution]
    if typed and len(params) > 1:
        others = ", ".join(repr(p.name) for p in params if p.name != typed[0])
        raise ConfigurationError(
            f"{label}: it takes a ToolExecution ({typed[0]!r}) beside other parameters ({others}); take one "
            f"parameter typed ToolExecution alone, or the parameters of tool {tool.name!r} with their types, "
            f"{_shape(tool.spec.parameters)}"
        )
    return bool(typed)


def _untyped(fn: Callable[..., Any]) -> str:
    """The first parameter of `fn` without a type annotation, or "" (a compensation's are never the
    model's to fill, so function_tool's own complaint would talk about the wrong thing)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # no signature to read: function_tool says what is wrong
        return ""
    return next((p.name for p in params if p.annotation is inspect.Parameter.empty), "")


def _shape(schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """Parameter names and types, ignoring descriptions."""
    props = (schema or {}).get("properties", {})
    return {
        name: {k: v for k, v in prop.items() if k not in {"description", "title"}}
        for name, prop in sorted(props.items())
    }


def compensate(
    executions: Sequence[ToolExecution],
    compensations: Mapping[str, Compensation],
    *,
    undone: list[ToolExecution] | None = None,
    log: list[SagaEntry] | None = None,
    round: int | None = None,
    timeout: float | None = None,
) -> tuple[list[ToolExecution], list[SagaEntry]]:
    """Run compensations for the successful compensable executions, newest first.

    Returns the executions actually undone (a failed compensation leaves its call's effect in
    place, so its result is not rewritten: the model must not read "rolled back" when it was
    not) and the log of every attempt. Pass `undone` and `log` to have them filled as it goes:
    an interruption (`KeyboardInterrupt`) propagates, and they hold what happened before it.
    `round` is the round whose failure runs the saga, recorded in each entry for the views.
    `timeout` (`LoopOptions.tool_timeout`): each compensation is waited for at most that many
    seconds (`toolkit.loop.time_limit`); one still running then is logged as not done.
    """
    undone = [] if undone is None else undone
    log = [] if log is None else log
    todo = [e for e in reversed(executions) if e.call.name in compensations and e.succeeded]
    for position, execution in enumerate(todo):
        compensation = compensations[execution.call.name]

        def entry(ok: bool, detail: str, execution: ToolExecution = execution) -> SagaEntry:
            label = compensations[execution.call.name].label
            return SagaEntry(execution.call.name, label, execution.call.id, ok, detail, round, execution.round)

        try:
            if timeout is None:
                value = compensation.run(execution)
            else:
                value = finished(functools.partial(compensation.run, execution), timeout)
                if value is TIMED_OUT:
                    log.append(entry(False, TIMED_OUT_DETAIL.format(seconds=f"{timeout:g}")))
                    continue
        except OWN_FAILURES as exc:  # logged, never raised: a saga is best effort
            log.append(entry(False, f"compensation failed: {redact.describe_exception(exc)}"))
            continue
        except BaseException as exc:  # interrupted: say so, and which ones never started
            stopped = type(exc).__name__
            log.append(entry(False, f"interrupted by {stopped}: it may not have undone the call"))
            log += [entry(False, f"not run: the saga was interrupted by {stopped}", e) for e in todo[position + 1 :]]
            raise
        try:
            awaitable = inspect.isawaitable(value)
            reported = not awaitable and isinstance(value, ToolOutput) and bool(value.is_error)
        except OWN_FAILURES:  # its value's own methods fail when looked at: it returned, so it ran
            awaitable = reported = False
        if awaitable:
            _close(value)
            log.append(entry(False, NOT_AWAITED_DETAIL.format(kind=type(value).__name__)))
            continue
        if reported:  # it handled its failure and said so
            log.append(entry(False, REPORTED_DETAIL.format(text=redact.sanitize(to_text(value.value)))))
            continue
        log.append(entry(True, "rolled back"))
        undone.append(execution)
    return undone, log


TIMED_OUT_DETAIL = (
    "compensation did not finish within {seconds} s: the loop stopped waiting for it, and it may still be "
    "running; the call may not have been undone"
)
"""The saga log's detail for a compensation past `LoopOptions.tool_timeout` (its result is left as it was)."""

NOT_COMPENSATED_DETAIL = (
    "not compensated: the call did not finish within {seconds} s and may still be running, so whether it took "
    "effect is unknown; check, and undo it by hand if it did"
)
"""The saga log's detail for a compensable call past `LoopOptions.tool_timeout` (`unknown_outcome`)."""


def unknown_outcome(
    execution: ToolExecution, compensations: Mapping[str, Compensation], round: int, seconds: float
) -> SagaEntry | None:
    """The saga log's entry for a compensable call a time limit gave up on, None for a call with no
    compensation. Its outcome is unknown, and it is not compensated: the call may still be running,
    and an undo run now may come before the work it undoes (which then holds, with the log saying
    it was undone). Nor is it passed over: the log says what nobody knows (as the OpenAI Agents
    SDK's tool timeout and LangChain4j's executor, the loop cannot stop the call, nor tell whether it acted)."""
    compensation = compensations.get(execution.call.name)
    if compensation is None:
        return None
    detail = NOT_COMPENSATED_DETAIL.format(seconds=f"{seconds:g}")
    return SagaEntry(execution.call.name, compensation.label, execution.call.id, False, detail, round, execution.round)


NOT_AWAITED_DETAIL = "compensation did not run: it returned a {kind}, and compensations run synchronously"
"""The saga log's detail for a compensation that handed back an awaitable instead of running."""

REPORTED_DETAIL = "compensation reported a failure: {text}"
"""The saga log's detail for a compensation that returned `ToolOutput(..., is_error=True)`: the way a
tool reports a failure it handled, so the call was not undone (its result is left as it was)."""


def _close(awaitable: Any) -> None:
    """Close a coroutine that will never be awaited (no "never awaited" warning)."""
    close = getattr(awaitable, "close", None)
    if callable(close):
        try:
            close()
        except Exception:
            pass


def rewrite(
    messages: Sequence[Any],
    undone: Sequence[ToolExecution],
    failed_tool: str,
    template: str = ROLLED_BACK_EN,
    rounds: Sequence[int | None] | None = None,
) -> list[Any]:
    """`messages` with every undone execution's result replaced by the rolled-back text.

    A model may reuse a call id in later rounds and turns (and a call sent without an id gets
    `r<round>c<position>`, the same every turn), so an id alone does not name one result.
    `rounds` gives the round of each message (None: not of this turn); with it, only the result
    of the undone call's own round is rewritten. Without it every result with an undone id is."""
    ids: dict[tuple[int | None, str], str] = {(e.round, e.call.id): e.call.name for e in undone}
    names = {e.call.id: e.call.name for e in undone}
    out = list(messages)
    for i, m in enumerate(out):
        if not isinstance(m, ToolResultMessage):
            continue
        tool = names.get(m.tool_call_id) if rounds is None else ids.get((rounds[i], m.tool_call_id))
        if tool is not None:
            out[i] = ToolResultMessage(
                tool_call_id=m.tool_call_id,
                tool_name=m.tool_name,
                content=rolled_back_text(tool, failed_tool, template),
                is_error=True,
                attributes=m.attributes,
            )
    return out
