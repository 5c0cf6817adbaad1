"""Executing a call: `ToolCall` in, `ToolResultMessage` out, through three error channels.

A `Tool` is a `ToolSpec` (what the model sees) plus an executor `(call, context) -> value`.
`tools_from(...)` builds them from `@tool` functions and objects with `@tool` methods;
`Tool(spec, executor)` wraps a hand-written pair. `execute(call, tools, context, policies)`
finds the tool by name and runs it. Three things can go wrong, and each has a policy — a
function `(error, call) -> text for the model` that may also raise to stop the loop:

==================  ==========================  ==============================================
failure             default (as in the seed)     alternative
==================  ==========================  ==============================================
unknown tool name   raise `UnknownToolError`     `report_unknown_tool`: "no tool named X; ..."
bad arguments       raise `ArgumentError`        `report_argument_error`: field / got / expected
the tool raised     `report_execution_error`:    `raise_error`: stop the loop
                    sanitised text, loop goes on
==================  ==========================  ==============================================

Arguments are wrong → fail fast: retrying cannot fix a broken schema. The tool failed → let the
model see it: business failures are often transient. Either way, an error result carries
`is_error=True`. A successful value becomes text: `None` → "Success", `str` as is, anything
else JSON (pydantic models through `model_dump(mode="json")`).

Leaves out: the loop, return behaviour, concurrency (the loop issue); the registry of versions;
async tools (refused at registration).
"""

from __future__ import annotations

import dataclasses
import json
import types
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from toolkit.chat.messages import ToolCall, ToolResultMessage
from toolkit.errors import ArgumentError, ToolDefinitionError, ToolExecutionError, UnknownToolError
from toolkit.tools import arguments, redact
from toolkit.tools.decorator import InvocationContext, function_label, tool_options
from toolkit.tools.reflect import Reflection, ToolSpec, reflect

Executor = Callable[[ToolCall, InvocationContext], Any]
Policy = Callable[[Exception, ToolCall], str]


def raise_error(error: Exception, call: ToolCall) -> str:
    """Policy: stop — the error propagates out of `execute`."""
    raise error


def report_unknown_tool(error: Exception, call: ToolCall) -> str:
    """Policy: tell the model the tool does not exist and which ones do."""
    return str(error)


def report_argument_error(error: Exception, call: ToolCall) -> str:
    """Policy: give the model field / received / expected, so it can fix the call."""
    return str(error)


def report_execution_error(error: Exception, call: ToolCall) -> str:
    """Policy: the tool's (sanitised) error message, so the model can retry or explain."""
    return str(error)


@dataclass(frozen=True)
class Policies:
    """One policy per error channel; the defaults are the seed's."""

    unknown_tool: Policy = raise_error
    """The model called a name no tool has."""
    argument_error: Policy = raise_error
    """The arguments are not valid JSON or do not fit the schema."""
    execution_error: Policy = report_execution_error
    """The tool raised while running."""


FEED_BACK_ALL = Policies(report_unknown_tool, report_argument_error, report_execution_error)
"""Every error goes back to the model; nothing raises."""


@dataclass(frozen=True)
class ToolOutput:
    """What an executor may return instead of a plain value, to say more than the text.

    `attributes` travel with the result message into memory (never to the model), e.g. tool
    search's `found_tools` or a skill's `activated_skill`; `is_error=True` reports a failure the
    tool handled itself (a search with bad terms), which skips the error policies: the text
    goes back to the model as it is.
    """

    value: Any
    """Becomes the text the model reads, by the usual rules (`to_text`)."""
    attributes: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    is_error: bool = False


@dataclass(frozen=True)
class Tool:
    """A spec the model sees plus the executor that runs a call to it."""

    spec: ToolSpec
    """Name, description, parameters schema, metadata, return behaviour."""
    executor: Executor
    """`(call, context) -> value`; raise `ArgumentError` for bad arguments."""
    source: str = ""
    """Where it came from, for developer errors (e.g. `@tool shop.search`)."""
    function: Callable[..., Any] | None = None
    """The Python function it was reflected from, if any (views show its signature)."""

    @property
    def name(self) -> str:
        return self.spec.name

    def execute(
        self, call: ToolCall, context: InvocationContext | None = None, policies: Policies = Policies()
    ) -> ToolResultMessage:
        """Run one call; errors follow `policies` (see the module docstring)."""
        context = dataclasses.replace(context or InvocationContext(), tool_call=call)
        try:
            value = self.executor(call, context)
            output = value if isinstance(value, ToolOutput) else ToolOutput(value)
            content = to_text(output.value)
        except ArgumentError as exc:
            return _error(call, policies.argument_error(exc, call))
        except Exception as exc:
            failure = ToolExecutionError(_failure_text(call.name, exc), tool_name=call.name)
            failure.__cause__ = exc
            return _error(call, policies.execution_error(failure, call))
        return ToolResultMessage(
            tool_call_id=call.id,
            tool_name=call.name,
            content=content,
            is_error=output.is_error,
            attributes=dict(output.attributes),
        )


def execute(
    call: ToolCall,
    tools: Iterable[Tool] | Mapping[str, Tool],
    context: InvocationContext | None = None,
    policies: Policies = Policies(),
) -> ToolResultMessage:
    """Find the tool `call` names and run it; an unknown name goes to `policies.unknown_tool`."""
    by_name = tools if isinstance(tools, Mapping) else {t.name: t for t in tools}
    found = by_name.get(call.name)
    if found is None:
        return _error(call, policies.unknown_tool(UnknownToolError(call.name, list(by_name)), call))
    return found.execute(call, context, policies)


def _error(call: ToolCall, text: str) -> ToolResultMessage:
    return ToolResultMessage(tool_call_id=call.id, tool_name=call.name, content=text, is_error=True)


def _failure_text(name: str, exc: BaseException) -> str:
    return f"Tool {name!r} failed: {redact.describe_exception(exc)}"


def to_text(value: Any) -> str:
    """A tool's return value as the text the model reads."""
    if value is None:
        return "Success"
    if isinstance(value, str):
        return value
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    return json.dumps(to_jsonable_python(value), ensure_ascii=False)


# --- building tools ---------------------------------------------------------------------


def function_tool(fn: Callable[..., Any]) -> Tool:
    """A `Tool` for one function or bound method (decorated or not); reflection is cached."""
    target, bound_to = (fn.__func__, fn.__self__) if isinstance(fn, types.MethodType) else (fn, None)
    reflection = reflect(target, skip_first=bound_to is not None)
    return Tool(reflection.spec, _caller(reflection, bound_to), f"@tool {function_label(target)}", target)


def _caller(reflection: Reflection, bound_to: Any) -> Executor:
    fn, params, name = reflection.function, reflection.params, reflection.spec.name
    head = () if bound_to is None else (bound_to,)

    def run(call: ToolCall, context: InvocationContext) -> Any:
        raw = arguments.parse_arguments(name, call.arguments)
        kwargs = arguments.coerce_arguments(name, params, raw)
        for p in params:
            if p.inject == "memory_id":
                kwargs[p.name] = context.memory_id
            elif p.inject == "context":
                kwargs[p.name] = context
        return fn(*head, **kwargs)

    return run


def tools_from(*sources: Any, strict: bool = False) -> list[Tool]:
    """Tools from functions, objects with `@tool` methods, modules and ready `Tool`s.

    Raises `ToolDefinitionError` on duplicate names — and, with `strict=True`, for any
    schema OpenAI strict mode cannot express.
    """
    tools = [t for source in sources for t in _collect(source)]
    seen: dict[str, Tool] = {}
    for t in tools:
        if t.name in seen:
            raise ToolDefinitionError(
                t.source or f"tool {t.name!r}",
                f"the tool name {t.name!r} is already used by {seen[t.name].source or 'another tool'}",
                "give one of them another name, e.g. @tool(name=...)",
            )
        seen[t.name] = t
        if strict and t.spec.parameters is not None:
            _strict_check(t)
    return tools


def _strict_check(t: Tool) -> None:
    from toolkit.tools.strict import strict_schema

    strict_schema(t.spec.parameters or {}, t.source or f"tool {t.name!r}")


def _collect(source: Any) -> list[Tool]:
    if isinstance(source, Tool):
        return [source]
    if isinstance(source, types.ModuleType):
        return [
            function_tool(fn)
            for fn in vars(source).values()
            if isinstance(fn, types.FunctionType) and tool_options(fn) and fn.__module__ == source.__name__
        ]
    if isinstance(source, type):
        raise ToolDefinitionError(
            f"tools_from({source.__name__})",
            "a class is not a tool source; its @tool methods need an instance to be bound to",
            f"pass an instance, e.g. tools_from({source.__name__}())",
        )
    if isinstance(source, types.FunctionType):
        return [_function_tool_once(source)]
    if isinstance(source, types.MethodType):
        return [function_tool(source)]
    return _methods(source)


_FUNCTION_TOOLS: weakref.WeakKeyDictionary[Callable[..., Any], Tool] = weakref.WeakKeyDictionary()


def _function_tool_once(fn: types.FunctionType) -> Tool:
    """`function_tool(fn)`, built once per function: a loop passes the same functions every call.

    The tool is rebuilt when the function's reflection is (`reflect.clear_cache()`).
    """
    tool = _FUNCTION_TOOLS.get(fn)
    if tool is None or tool.spec is not reflect(fn).spec:
        tool = _FUNCTION_TOOLS[fn] = function_tool(fn)
    return tool


def _methods(obj: Any) -> list[Tool]:
    found = [getattr(obj, name) for name, attr in _class_attributes(type(obj)) if tool_options(_unwrap(attr))]
    if not found:
        kind = type(obj).__name__
        raise ToolDefinitionError(
            f"tools_from({kind} object)",
            f"{kind} has no @tool methods",
            "decorate its tool methods with @tool, or pass functions",
        )
    return [function_tool(m) for m in found]


def _class_attributes(cls: type) -> list[tuple[str, Any]]:
    seen: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        seen.update(vars(klass))
    return list(seen.items())


def _unwrap(attr: Any) -> Any:
    return attr.__func__ if isinstance(attr, (staticmethod, classmethod)) else attr
