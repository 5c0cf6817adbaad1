"""Compensation (a saga): when one tool fails, undo what earlier tools of the same call did.

A tool declares its undo action with `@compensates("reserve_stock")` on a function that takes
either the *same parameters* as that tool (it receives the very arguments the model sent) or
exactly one parameter typed `ToolExecution` (it receives the recorded execution). The target
may come from any source with an executor — `@tool` function, registry entry, provider.

When a round has a failed call (an execution or argument error; a hallucinated name or a
loop-guard answer ran nothing, so it triggers nothing) and there are successful compensable
calls in this call (this round or earlier ones), the loop runs their compensations in
*reverse* order. A compensation that fails is logged in the `SagaEntry` list and never raised.
Then the history is rewritten: each rolled-back result becomes "Tool 'X' was executed
successfully but was rolled back due to failure of tool 'Y'" with `is_error=True`, so the model
never reasons from a fact that no longer holds. (Unlike LangChain4j, a result whose compensation
failed is left as it was: its effect still holds, and the model should know.)

Misconfigured compensations (unknown tool, mismatched parameters) are only an error when
compensation is switched on — and then at the start of the call, before any tool runs.

Leaves out: persistence of the saga log across calls, and retries of failed compensations.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolkit.chat.messages import ToolCall, ToolResultMessage
from toolkit.errors import ConfigurationError
from toolkit.tools import redact
from toolkit.tools.decorator import InvocationContext, function_label
from toolkit.tools.execute import Tool, function_tool

_MARK = "__toolkit_compensates__"


@dataclass(frozen=True)
class ToolExecution:
    """One executed call: what was asked, what came back, in which round."""

    round: int
    call: ToolCall
    result: ToolResultMessage
    duration_s: float = 0.0
    error_kind: str | None = None
    """None on success; else `unknown_tool`, `argument`, `execution` or `guard`."""
    rolled_back_by: str | None = None
    """Set when a saga undid this call: the name of the tool whose failure caused it."""


@dataclass(frozen=True)
class SagaEntry:
    """One compensation attempt, for the saga log."""

    tool: str
    compensation: str
    call_id: str
    ok: bool
    detail: str


def compensates(tool_name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a function as the compensating action of the tool named `tool_name`."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        setattr(getattr(fn, "__func__", fn), _MARK, tool_name)
        return fn

    return mark


def rolled_back_text(tool: str, failed: str) -> str:
    return f"Tool '{tool}' was executed successfully but was rolled back due to failure of tool '{failed}'"


@dataclass(frozen=True)
class Compensation:
    """A checked compensating action for one tool."""

    tool: str
    label: str
    run: Callable[[ToolExecution], Any]


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
    if _takes_execution(fn):
        return lambda execution: fn(execution)
    same = function_tool(fn)
    if _shape(same.spec.parameters) != _shape(tool.spec.parameters):
        raise ConfigurationError(
            f"{label}: its parameters {_shape(same.spec.parameters)} differ from tool "
            f"{tool.name!r}'s {_shape(tool.spec.parameters)}; take the same parameters, or one "
            "parameter typed ToolExecution"
        )
    return lambda execution: same.executor(execution.call, InvocationContext())


def _takes_execution(fn: Callable[..., Any]) -> bool:
    params = list(inspect.signature(fn).parameters.values())
    hints = typing.get_type_hints(getattr(fn, "__func__", fn))
    return len(params) == 1 and hints.get(params[0].name) is ToolExecution


def _shape(schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """Parameter names and types, ignoring descriptions."""
    props = (schema or {}).get("properties", {})
    return {
        name: {k: v for k, v in prop.items() if k not in {"description", "title"}}
        for name, prop in sorted(props.items())
    }


def compensate(
    executions: Sequence[ToolExecution], compensations: Mapping[str, Compensation]
) -> tuple[list[ToolExecution], list[SagaEntry]]:
    """Run compensations for the successful compensable executions, newest first.

    Returns the executions actually undone (a failed compensation leaves its call's effect in
    place, so its result is not rewritten: the model must not read "rolled back" when it was
    not) and the log of every attempt.
    """
    undone, log = [], []
    for execution in reversed(executions):
        compensation = compensations.get(execution.call.name)
        if compensation is None or execution.error_kind is not None:
            continue
        try:
            compensation.run(execution)
        except Exception as exc:  # logged, never raised: a saga is best effort
            log.append(
                SagaEntry(
                    execution.call.name,
                    compensation.label,
                    execution.call.id,
                    False,
                    f"compensation failed: {redact.describe_exception(exc)}",
                )
            )
            continue
        log.append(SagaEntry(execution.call.name, compensation.label, execution.call.id, True, "rolled back"))
        undone.append(execution)
    return undone, log


def rewrite(messages: Sequence[Any], undone: Sequence[ToolExecution], failed_tool: str) -> list[Any]:
    """`messages` with every undone execution's result replaced by the rolled-back text."""
    ids = {e.call.id: e.call.name for e in undone}
    return [
        ToolResultMessage(
            tool_call_id=m.tool_call_id,
            tool_name=m.tool_name,
            content=rolled_back_text(ids[m.tool_call_id], failed_tool),
            is_error=True,
            attributes=m.attributes,
        )
        if isinstance(m, ToolResultMessage) and m.tool_call_id in ids
        else m
        for m in messages
    ]
