"""Executing a call: `ToolCall` in, `ToolResultMessage` out, through three error channels.

A `Tool` is a `ToolSpec` (what the model sees) plus an executor `(call, context) -> value`.
`tools_from(...)` builds them from `@tool` functions and objects with `@tool` methods;
`Tool(spec, executor)` wraps a hand-written pair. A callable instance is a tool made of its
`__call__`, named after its class (`@tool(name=...)` on the instance or on `__call__` renames
it). `execute(call, tools, context, policies)` finds the tool by name and runs it. Three things
can go wrong, and each has a policy — a function `(error, call) -> text for the model` that may
also raise to stop the loop:

==================  ==========================  ==============================================
failure             default (as LangChain4j)     alternative
==================  ==========================  ==============================================
unknown tool name   raise `UnknownToolError`     `report_unknown_tool`: "no tool named X; ..."
bad arguments       raise `ArgumentError`        `report_argument_error`: field / got / expected
the tool raised     `report_execution_error`:    `raise_error`: stop the loop
                    sanitised text, loop goes
                    on; a warning is logged
==================  ==========================  ==============================================

The default for a tool that raised also logs a warning on the `toolkit.tools` logger (the text the model
reads, and how to handle it otherwise), as LangChain4j's `DEFAULT_TOOL_EXECUTION_ERROR_HANDLER` does
`log.warn(...)`: a tool failing on every call is seen outside the conversation. A policy of one's own is
silent (there, configuring a handler silences the log).

The defaults follow LangChain4j in *what happens* (raise, raise, feed back); the text fed back
for a tool that raised is not LangChain4j's. LangChain4j sends the exception's message alone
(`error.getMessage()`, or the class name when it is blank); this package sends
`Tool 'x' failed: ClassName: message`, sanitised (`toolkit.tools.redact`), e.g.
`Tool 'boom' failed: RuntimeError: bad`. The tool's name and the class tell the model which
call failed and how; the secrets a message may hold never reach it. An execution policy of one's
own gets that error, whose `__cause__` is the tool's own exception: the text it returns is
cleaned the same way (`redact.cleaned`: no secret, path or stack trace; not cut).

A tool that ends with `SystemExit` (code written for the command line: argparse or click on a
bad flag, `sys.exit(2)`) has failed like one that raised an `Exception`: its error is fed back
and the loop goes on; so has one whose own async work was cancelled (an `asyncio.CancelledError`
out of `asyncio.run` inside it: nothing cancels a tool from outside, `errors.OWN_FAILURES`).
So has one that raises `GeneratorExit` itself (a reader closing `iter_loop` throws it at the loop's own
`yield`, never inside a tool). `KeyboardInterrupt` is not a tool's failure: it propagates. An executor that
returns a coroutine (an `async def` that slipped past registration) has not run: its coroutine is
closed, never awaited, and the call is an execution error. So is one
that returns an async iterator (an async generator): nothing of it can be read; and one whose value
holds a coroutine (`{"status": client.status(id)}` with an async client), or an iterator in it that gives
coroutines when read (`map(client.status, ids)`): that part never ran.

`run_call` does the same but returns an `Outcome`: the result, the channel a failure went
through (`error_kind`), and the exception a policy raised (not raised yet). The loop reads each
call's channel from it, and records a raised failure before letting it propagate.

Arguments are wrong → fail fast: retrying cannot fix a broken schema. The tool failed → let the
model see it: business failures are often transient. These are the defaults of LangChain4j's
synchronous AI services (`ToolService.java`: `DEFAULT_TOOL_ARGUMENTS_ERROR_HANDLER =
RETHROW_ARGUMENTS_ERROR`, `DEFAULT_TOOL_EXECUTION_ERROR_HANDLER = EXECUTION_ERROR_TO_LLM`); its
asynchronous modes (`CompletableFuture`, `Flow.Publisher`, since 1.20) reverse the last two: bad
arguments fed back, a tool that raised fails the call. The loop here is synchronous, so the table
above holds everywhere (`FEED_BACK_ALL` feeds all three back). Either way, an error result carries
`is_error=True`. A successful value becomes the text the model reads by `toolkit.tools.result_text.call_text`
(`None` → "Success", a `str` as is, anything else JSON; it never fails the call, but for an iterator
in it that raises while read: the tool's work was in it, so the call is an execution error).

Leaves out: the loop, return behaviour, concurrency (the loop issue); the registry of versions;
async tools (refused at registration: `@tool` functions by `reflect`, executors by `Tool(...)`).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import logging
import types
import weakref
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from pydantic_core import SchemaValidator

from toolkit.chat.messages import ToolCall, ToolResultMessage
from toolkit.errors import (
    OWN_FAILURES,
    ArgumentError,
    ConfigurationError,
    ToolCallError,
    ToolDefinitionError,
    ToolExecutionError,
    UnknownToolError,
    a_or_an,
    shown_name,
)
from toolkit.gateway.meta_schema import flat_parameters, schema_problem
from toolkit.loop.result_size import DEFAULT_CUTTING, Cutting, cut_cleaned
from toolkit.memory.storable import attributes_problem
from toolkit.tools import arguments, coercion, redact
from toolkit.tools.addresses import without_addresses
from toolkit.tools.argument_secrets import masked_argument_text
from toolkit.tools.decorator import (
    COMPENSATES,
    MARK,
    PROPERTIES,
    InvocationContext,
    ReturnBehavior,
    ToolOptions,
    a_kind_of,
    builtin_error,
    builtin_label,
    check_flag,
    check_name,
    dispatch_error,
    function_label,
    is_builtin,
    is_callable_instance,
    partial_error,
    property_error,
    property_getter,
    said,
    tool_options,
)
from toolkit.tools.parameters import ParamInfo
from toolkit.tools.reflect import Reflection, ToolSpec, cache_generation, reflect
from toolkit.tools.result_text import AwaitablesRead, ReadFailed, awaitables_in, call_text, unshowable
from toolkit.unicode import cut

Executor = Callable[[ToolCall, InvocationContext], Any]
log: logging.Logger = logging.getLogger("toolkit.tools")

VALUES = "_toolkit_values"
"""An `InvocationContext.parameters` key: a dict there receives each call's raw return value by call
id (an AI service reads it for an immediate return into a typed method)."""
E = TypeVar("E", bound=Exception)
Policy = Callable[[E, ToolCall], str]
"""A policy for errors of type `E`: `Policies` says which type each channel gives its policy, so a
learner's policy may take that type (`def explain(error: ArgumentError, call) -> str`)."""


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
    """Policy: the tool's (sanitised) error message, so the model can retry or explain; and a warning
    on the `toolkit.tools` logger saying so, as LangChain4j's default handler logs one (a policy of
    one's own is silent)."""
    text = str(error)
    log.warning("%s%s%s", text, _in_a_running_loop(error), LOGGED_HINT)
    return text


def _in_a_running_loop(error: Exception) -> str:
    """The note for a tool whose `asyncio.run` met the event loop its thread runs (a Jupyter cell's:
    the toolkit's own fix for an async call, which works in a script), or ""."""
    cause = error.__cause__
    if isinstance(cause, RuntimeError) and str(cause).startswith(_ASYNCIO_RUN_REFUSED):
        return IN_A_RUNNING_LOOP
    return ""


_ASYNCIO_RUN_REFUSED = "asyncio.run() cannot be called from a running event loop"
"""What `asyncio.run` raises on a thread whose event loop is running (the same in 3.11 to 3.13)."""
IN_A_RUNNING_LOOP = (
    " (this turn runs inside a running event loop, as a Jupyter cell does, where asyncio.run cannot start "
    "another: run the coroutine on a thread of its own inside the tool, "
    "ThreadPoolExecutor(1).submit(asyncio.run, coro).result(), or give the turn LoopOptions(tool_timeout=...), "
    "which runs each call on a thread of its own)"
)
"""What the default execution policy's warning adds for a tool's `asyncio.run` in a running event loop."""


LOGGED_HINT = (
    " (sent back to the model as the call's result; to handle a failing tool otherwise, and silence this "
    "log, give Policies(execution_error=...) a policy of your own)"
)
"""What the default execution policy's warning adds to the text the model reads."""


@dataclass(frozen=True, repr=False)
class Policies:
    """One policy per error channel; the defaults are LangChain4j's."""

    unknown_tool: Policy[UnknownToolError] = raise_error
    """The model called a name no tool has."""
    argument_error: Policy[ArgumentError] = raise_error
    """The arguments are not valid JSON or do not fit the schema."""
    execution_error: Policy[ToolExecutionError] = report_execution_error
    """The tool raised while running."""

    def __post_init__(self) -> None:
        """Each policy must be callable as `policy(error, call)`: refused here, not at the first
        failure of a call (a TypeError out of the loop then)."""
        for field in dataclasses.fields(self):
            policy = getattr(self, field.name)
            if policy in _KNOWN_POLICIES or (callable(policy) and callable_with(policy, 2)):
                continue
            what = f"{function_label(policy)}, which cannot take them" if callable(policy) else a_kind_of(policy)
            raise ToolDefinitionError(
                f"Policies({field.name}=...)",
                f"a policy is called policy(error, call) and returns the text for the model; this one is {what}",
                "pass a function (error, call) -> str, e.g. report_execution_error, or raise_error to stop the loop",
            )

    def __repr__(self) -> str:
        """Each policy by its qualified name (`Policies(unknown_tool=raise_error, …)`), never a
        function's repr with its memory address."""
        shown = ", ".join(f"{f.name}={named(getattr(self, f.name))}" for f in dataclasses.fields(self))
        return f"Policies({shown})"


def named(value: Any) -> str:
    """A repr without memory addresses: a function or method as its qualified name, anything else
    as its repr with any `at 0x…` taken off (`without_addresses`)."""
    target = getattr(value, "__func__", value)
    if isinstance(target, types.FunctionType | types.BuiltinFunctionType):
        return target.__qualname__
    return without_addresses(repr(value))


_KNOWN_POLICIES = (raise_error, report_unknown_tool, report_argument_error, report_execution_error)


def callable_with(fn: Callable[..., Any], count: int) -> bool:
    """`fn` can be called with `count` positional arguments (a builtin without a signature: yes).
    Policies, providers' `provide` and `ai_service`'s memory and clock functions are checked so."""
    try:
        inspect.signature(fn).bind(*[None] * count)
    except TypeError:
        return False
    except ValueError:
        return True
    return True


FEED_BACK_ALL = Policies(report_unknown_tool, report_argument_error, report_execution_error)
"""Every error goes back to the model; nothing raises."""


@dataclass(frozen=True)
class ToolOutput:
    """What an executor may return instead of a plain value, to say more than the text.

    `attributes` travel with the result message into memory (never to the model), e.g. tool
    search's `found_tools` or a skill's `activated_skill`; `is_error=True` reports a failure the
    tool handled itself (a search with bad terms), which skips the error policies: the text
    goes back to the model as it is, its secrets masked (`redact.scrub_secrets`: the text may
    quote the library error the tool handled, as a raised one's would be sanitised); a text too long
    to mask whole quickly has a head of it masked and cut at the turn's `max_result_chars`
    (`toolkit.loop.result_size.cut_cleaned`: a 10 MB text took up to a minute to mask whole).
    """

    value: Any
    """Becomes the text the model reads, by the usual rules (`to_text`)."""
    attributes: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    is_error: bool = False

    def __post_init__(self) -> None:
        """Refused where it is made (inside a tool: its call fails, the loop goes on): attributes
        that are not a mapping with str keys, or an `is_error` that is not a bool, made the
        result message fail after the tool had run (a TypeError out of the loop); attributes no
        store keeps as they are (an object JSON cannot write, a cycle, NaN) passed without memory
        and, with it, made the loop's write of the result fail after the tool had run."""
        attributes = self.attributes
        if not isinstance(attributes, Mapping) or not all(isinstance(key, str) for key in attributes):
            got = (
                a_kind_of(attributes) if not isinstance(attributes, Mapping) else "a mapping with keys that are not str"
            )
            raise ToolDefinitionError(
                "ToolOutput(...)",
                f"attributes is {got}",
                'give a dict with str keys, e.g. attributes={"source": "cache"}',
            )
        if type(self.is_error) is not bool:
            raise ToolDefinitionError(
                "ToolOutput(...)", f"is_error is {a_kind_of(self.is_error)}, not a bool", "give True or False"
            )
        problem = attributes_problem(attributes) if attributes else None
        if problem is not None:  # else a memory's write fails after the tool ran, its result lost
            raise ToolDefinitionError("ToolOutput(...)", problem, JSON_ATTRIBUTES)


JSON_ATTRIBUTES = (
    "keep attributes to JSON values (text, whole or finite numbers, True/False, None, lists, and dicts with text "
    "keys): memory stores them as JSON"
)
"""The fix for `ToolOutput` attributes no store can keep (`toolkit.memory.storable`)."""


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

    def __post_init__(self) -> None:
        where = self.source or (
            f"Tool({self.spec.name!r}, ...)"
            if isinstance(self.spec, ToolSpec)
            else f"Tool({a_kind_of(self.spec)}, ...)"
        )
        check_spec(self.spec, where)
        check_executor(self.executor, where)

    @classmethod
    def _reflected(cls, spec: ToolSpec, executor: Executor, source: str, function: Callable[..., Any]) -> Tool:
        """`Tool(spec, executor, source, function)` for a reflected function, whose executor is
        `_caller`'s `run(call, context)`: `check_executor` has nothing to find in it, so only the
        spec is checked; the fields are written to `__dict__` at once (see `ToolSpec._of`)."""
        check_spec(spec, source)
        tool = object.__new__(cls)
        fields = tool.__dict__
        fields["spec"], fields["executor"], fields["source"], fields["function"] = spec, executor, source, function
        return tool

    @property
    def name(self) -> str:
        """The tool's name (its spec's)."""
        return self.spec.name

    def execute(
        self, call: ToolCall, context: InvocationContext | None = None, policies: Policies = Policies()
    ) -> ToolResultMessage:
        """Run one call; errors follow `policies` (see the module docstring)."""
        return self.run(call, context, policies).unwrap()

    def run(
        self,
        call: ToolCall,
        context: InvocationContext | None = None,
        policies: Policies = Policies(),
        cutting: Cutting = DEFAULT_CUTTING,
    ) -> Outcome:
        """Run one call and say how it went: the result, its error channel, what a policy raised. An
        error's text is masked and, when long, cut by `cutting`: the turn's `max_result_chars` and note."""
        if context is None or context.tool_call is not call:  # the loop passes one made for this call
            context = dataclasses.replace(context or InvocationContext(), tool_call=call)
        try:
            output = self.executor(call, context)
        except ArgumentError as exc:
            return _failed(call, "argument", _as_called(exc, call), policies.argument_error, cutting)
        except OWN_FAILURES as exc:  # SystemExit: argparse / click on a bad flag; its own CancelledError, GeneratorExit
            return _execution_failed(call, exc, policies.execution_error, cutting)
        told_more, value = False, output
        try:
            told_more = type(output) is ToolOutput or type(output) not in _PLAIN and isinstance(output, ToolOutput)
            value = output.value if told_more else output
            if type(value) not in _PLAIN and inspect.isawaitable(value):  # an async function slipped through
                return _failed(call, "execution", _not_awaited(self, call, value), policies.execution_error, cutting)
            if type(value) not in _SCALARS:  # a str, a number, None: nothing can be held in it, nor iterated async
                if type(value) not in _PLAIN and _only_async_iterable(value):  # an async generator's body: never run
                    failure = _not_read(self, call, value)
                    return _failed(call, "execution", failure, policies.execution_error, cutting)
                held = awaitables_in(value)
                if held:  # `{"status": client.status(id)}` with an async client
                    failure = _holds_not_awaited(self, call, value, held)
                    return _failed(call, "execution", failure, policies.execution_error, cutting)
            content = call_text(value)  # the tool ran: whatever its value is, the call succeeded...
        except AwaitablesRead as found:  # ...unless an iterator in it gave async calls that never ran
            failure = _holds_not_awaited(self, call, value, found.held)
            return _failed(call, "execution", failure, policies.execution_error, cutting)
        except ReadFailed as failed:  # ...or its work was in an iterator, which failed while read
            return _execution_failed(call, failed.error, policies.execution_error, cutting)
        except OWN_FAILURES:  # its value's own methods fail when looked at (a `__class__` that raises)
            content = unshowable(value)
        parameters = context.parameters
        sink = parameters.get(VALUES) if parameters else None  # a turn's usual parameters: none
        if sink is not None and isinstance(sink, dict):
            sink[call.id] = value
        # a plain value keeps the defaults (not an error, no attributes): fewer fields for pydantic to check
        told = {}
        if told_more:
            told = {"is_error": output.is_error, "attributes": _as_returned(output.attributes)}
            if output.is_error:  # a failure it handled: its text may quote its library's error, secrets and all
                content = cut_cleaned(content, cutting, redact.scrub_secrets)  # a head of 10 MB
        return Outcome(ToolResultMessage(tool_call_id=call.id, tool_name=call.name, content=content, **told))


def _as_returned(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a `ToolOutput`'s attributes down to their lists and dicts (the JSON a store keeps),
    so a tool that changes its own dict later does not change the result already recorded. A
    container met twice (or inside itself) is copied once, as `copy.deepcopy` does."""
    copies: dict[int, Any] = {}
    return {key: _containers_copied(value, copies) for key, value in attributes.items()}


def _containers_copied(value: Any, copies: dict[int, Any]) -> Any:
    kind = type(value)
    if kind is not dict and kind is not list:
        return value  # a leaf, a tuple, or an object of one's own: as it is
    done = copies.get(id(value))
    if done is not None:
        return done
    copied: Any = {} if kind is dict else []
    copies[id(value)] = copied
    if kind is dict:
        copied.update((key, _containers_copied(item, copies)) for key, item in value.items())
    else:
        copied.extend(_containers_copied(item, copies) for item in value)
    return copied


@dataclass(frozen=True)
class Outcome:
    """How one call went: the result the model reads, the channel of a failure, and what a
    policy raised to stop the loop (`run_call` never raises it; `execute` does)."""

    result: ToolResultMessage
    """On a raised failure: the error as the model would read it (the loop records it)."""
    error_kind: str | None = None
    """None on success; else the channel: `unknown_tool`, `argument` or `execution`."""
    raised: Exception | None = None
    """The exception a policy raised (the call's failure stops the loop)."""

    def __init__(
        self, result: ToolResultMessage, error_kind: str | None = None, raised: Exception | None = None
    ) -> None:
        """The dataclass's own `__init__`, each field written to `__dict__` (see `ToolExecution.__init__`)."""
        fields = self.__dict__
        fields["result"], fields["error_kind"], fields["raised"] = result, error_kind, raised

    def unwrap(self) -> ToolResultMessage:
        """The result, or the policy's exception raised."""
        if self.raised is not None:
            raise self.raised
        return self.result


def execute(
    call: ToolCall,
    tools: Iterable[Tool] | Mapping[str, Tool],
    context: InvocationContext | None = None,
    policies: Policies = Policies(),
) -> ToolResultMessage:
    """Find the tool `call` names and run it; an unknown name goes to `policies.unknown_tool`.
    A `call` that is not a `ToolCall` (the two arguments swapped) is a `ConfigurationError`."""
    if not isinstance(call, ToolCall):
        raise ConfigurationError(
            f"execute(call, tools) takes the ToolCall first, got {a_kind_of(call)}. "
            "Fix: execute(call, tools), e.g. execute(ToolCall(id=..., name=..., arguments=...), [my_tool])"
        )
    return run_call(call, tools, context, policies).unwrap()


def run_call(
    call: ToolCall,
    tools: Iterable[Tool] | Mapping[str, Tool],
    context: InvocationContext | None = None,
    policies: Policies = Policies(),
    offered: Iterable[str] | None = None,
    cutting: Cutting = DEFAULT_CUTTING,
) -> Outcome:
    """`execute`, returning the `Outcome` instead of raising (the loop's way in). An unknown
    name's error lists `offered` (the names the model was shown; default: every tool): with
    tool search, the held-back tools stay unnamed (and callable)."""
    by_name = tools if type(tools) is dict or isinstance(tools, Mapping) else {t.name: t for t in tools}
    found = by_name.get(call.name)
    if found is None:
        names = list(by_name) if offered is None else list(offered)
        return _failed(call, "unknown_tool", UnknownToolError(call.name, names), policies.unknown_tool)
    return found.run(call, context, policies, cutting)


def argument_failed(
    call: ToolCall, error: ArgumentError, policies: Policies, cutting: Cutting = DEFAULT_CUTTING
) -> Outcome:
    """The outcome of `call` failing with `error`, an argument error found outside the executor
    (`toolkit.loop.cut_off`), through the argument policy as the executor's own are."""
    return _failed(call, "argument", _as_called(error, call), policies.argument_error, cutting)


def _failed(call: ToolCall, kind: str, error: E, policy: Policy[E], cutting: Cutting = DEFAULT_CUTTING) -> Outcome:
    """The policy's text as the call's error result, or, when it raises, what the model would have
    read (memory keeps it, and sends it with the next turn). An execution policy of one's own may
    quote `error.__cause__`, the tool's own exception: its text is cleaned as that error's was. An
    argument error's text loses its secrets (`redact.scrub_secrets`): a tool that raises
    `ArgumentError(name, str(exc))` quotes its library's message, connection string and all. Either
    text too long to clean whole quickly has a head of it cleaned and cut at the turn's limit
    (`cut_cleaned`): a policy's 10 MB took 50 s to clean whole."""
    stop: Exception | None = None
    try:
        text = policy(error, call)
        if not isinstance(text, str):
            raise ConfigurationError(
                f"the {kind} policy {function_label(policy)} returned {a_kind_of(text)}; a policy returns the text "
                "the model reads (a str), or raises to stop the loop. Fix: return str(error), or raise"
            )
    except Exception as raised:  # the policy stops the loop: record what the model would have read
        text = str(raised) if isinstance(raised, ToolCallError) else redact.describe_exception(raised)
        stop = raised
    if kind == "execution" and policy not in _KNOWN_POLICIES:  # (a policy's 10 MB: a head cleaned, then cut)
        text = cut_cleaned(text, cutting, redact.cleaned)
    elif kind == "argument":  # a tool's own reason may quote a library's message: its secrets go
        scrubbed = cut_cleaned(text, cutting, redact.scrub_secrets)  # (the model's own values, paths too, are
        # quoted as sent; a secret-named field's value is masked, never the words around it: `argument_secrets`)
        text = scrubbed if scrubbed == text else cut_cleaned(text, cutting, partial(masked_argument_text, error))
    return Outcome(_error(call, text), kind, stop)


def execution_failed(
    call: ToolCall, error: ToolExecutionError, policies: Policies, cutting: Cutting = DEFAULT_CUTTING
) -> Outcome:
    """The outcome of `call` failing with `error`, a failure of its tool found outside the executor
    (a call past `LoopOptions.tool_timeout`: `toolkit.loop.run`), through the execution policy as a
    tool's own exception is (the default logs a warning)."""
    return _failed(call, "execution", error, policies.execution_error, cutting)


def _as_called(error: ArgumentError, call: ToolCall) -> ArgumentError:
    """`error` naming the tool as the model called it. An executor knows the name it was written
    under, and a wrapper (`rename_tools`, `map_tools`) may have given the tool another: the model
    cannot call the old one. The text is rebuilt when it is the standard one (a subclass with a
    `__str__` of its own reads `tool_name`)."""
    old, problems = getattr(error, "tool_name", None), getattr(error, "problems", None)
    if old == call.name or not isinstance(old, str) or not isinstance(problems, list):
        return error  # the name the model called, or a subclass of its own making: left as it is
    renamed = type(error).__new__(type(error), *error.args)  # its __init__ may take other arguments
    vars(renamed).update(vars(error))
    renamed.tool_name = call.name
    if error.args == (str(ArgumentError(old, problems)),):
        renamed.args = (str(ArgumentError(call.name, problems)),)
    renamed.__cause__ = error.__cause__
    return renamed


def _execution_failed(
    call: ToolCall, exc: BaseException, policy: Policy[ToolExecutionError], cutting: Cutting = DEFAULT_CUTTING
) -> Outcome:
    """A tool's exception as a `ToolExecutionError` (caused by it) given to `policy`.

    An exception carrying `result_attributes` (a dict: `McpToolError`, the server's error result
    with its structured content) leaves them on the failed result, as a `ToolOutput`'s are.

    Made here, not in `Tool.run`: `exc`'s traceback holds the frame of `Tool.run`, so a local of
    that frame holding the error would close a reference cycle (error, traceback, frame, error),
    and the cycle would keep every caller's frame it reaches (the loop's, with its round) until
    the garbage collector found it. Here nothing refers back, and all of it goes when the error does."""
    failure = ToolExecutionError(_failure_text(call.name, exc), tool_name=call.name)
    failure.__cause__ = exc
    outcome = _failed(call, "execution", failure, policy, cutting)
    kept = getattr(exc, "result_attributes", None)  # an MCP error result's structuredContent (`McpToolError`)
    if kept and isinstance(kept, dict) and not attributes_problem(kept):
        result = outcome.result.model_copy(update={"attributes": _as_returned(kept)})
        outcome = Outcome(result, outcome.error_kind, outcome.raised)
    return outcome


def _error(call: ToolCall, text: str) -> ToolResultMessage:
    return ToolResultMessage(tool_call_id=call.id, tool_name=call.name, content=text, is_error=True)


def _failure_text(name: str, exc: BaseException) -> str:
    return FAILED.format(tool=name) + redact.describe_exception(exc)


FAILED = "Tool {tool!r} failed: "
"""How the text of a tool that raised starts (then its sanitised exception)."""


def report_failure_only(error: Exception, call: ToolCall) -> str:
    """Policy: a tool's failure without the `FAILED` start, for a text already tied to that call
    (an MCP result: the client adds its own start, under the name its model knows)."""
    text = str(error)
    start = FAILED.format(tool=call.name)
    return text[len(start) :] if isinstance(error, ToolExecutionError) and text.startswith(start) else text


NOT_AWAITED_TEXT = "Tool {tool!r} did not run: its executor is async, and tools run synchronously."
"""What the model reads when an executor returned a coroutine (nothing ran; `{tool}` is the name)."""

_PLAIN = frozenset({str, dict, list, int, float, bool, type(None)})
"""Return types that are never awaitable: the check for a coroutine skips them."""
_SCALARS = frozenset({str, int, float, bool, type(None)})
"""Return types that hold nothing: the look for a coroutine inside a value skips them."""


def _closed(awaitable: Any) -> None:
    """Close an awaitable that will never be awaited (no "never awaited" warning)."""
    close = getattr(awaitable, "close", None)
    if callable(close):
        try:
            close()
        except Exception:  # an awaitable whose close misbehaves: it still never ran
            pass


HOLDS_NOT_AWAITED_TEXT = (
    "Tool {tool!r} returned a value holding an async call that was never awaited (tools run synchronously): "
    "that part of its work did not run."
)
"""What the model reads when an executor's value holds an awaitable (closed, never awaited)."""


def _holds_not_awaited(tool: Tool, call: ToolCall, output: Any, held: list[Any]) -> ToolExecutionError:
    """The error for a value holding awaitables: each is closed and the call is an execution error."""
    for awaitable in held:
        _closed(awaitable)
    return _async_failure(
        tool,
        call,
        HOLDS_NOT_AWAITED_TEXT,
        f"its executor returned {a_kind_of(output)} holding {a_kind_of(held[0])} (an awaitable), which the loop "
        "cannot await, so that part did not run",
        "await it in an async helper run with asyncio.run(...) inside the tool, or use a sync client",
    )


def _async_failure(tool: Tool, call: ToolCall, text: str, problem: str, fix: str) -> ToolExecutionError:
    """The execution error the model reads (`text`, the tool named), its cause the developer's
    error (what the executor did, and the fix)."""
    failure = ToolExecutionError(text.format(tool=shown_name(call.name)), tool_name=call.name)
    failure.__cause__ = ToolDefinitionError(tool.source or f"Tool({tool.name!r}, ...)", problem, fix)
    return failure


def _not_awaited(tool: Tool, call: ToolCall, output: Any) -> ToolExecutionError:
    """The error for an executor that returned an awaitable: it is closed (no "never awaited"
    warning) and the call is an execution error; the cause says what to fix."""
    _closed(output)
    return _async_failure(
        tool,
        call,
        NOT_AWAITED_TEXT,
        f"its executor {function_label(tool.executor)} returned a {type(output).__name__} (an awaitable), "
        "which the loop cannot await, so the call did not run",
        "make the executor a plain function that returns the result (async tools are left out for now)",
    )


def _only_async_iterable(value: Any) -> bool:
    """An async iterator that cannot be read synchronously (one that can, `to_text` reads)."""
    return isinstance(value, AsyncIterator) and not isinstance(value, Iterator)


NOT_READ_TEXT = (
    "Tool {tool!r} returned an async iterator, which tools cannot read (they run synchronously): "
    "none of its items were read."
)
"""What the model reads when an executor returned an async iterator (an async generator's body never ran)."""


def _not_read(tool: Tool, call: ToolCall, output: Any) -> ToolExecutionError:
    """The error for an executor that returned an async iterator: JSON cannot read it, so its
    text was its repr (`<async_generator object …>`) and the call read as a success."""
    return _async_failure(
        tool,
        call,
        NOT_READ_TEXT,
        f"its executor returned {a_kind_of(output)} (an async iterator), which the loop cannot read, "
        "so none of its items reached the model",
        "return a list of the items (async tools are left out for now)",
    )


def check_spec(spec: ToolSpec, where: str) -> None:
    """Refuse a spec a chat API would refuse with a 400 at the first request: a name outside
    OpenAI's rule, a description that is not text, parameters that are not a JSON Schema object
    (a JSON string, an array schema), or no JSON Schema at all (`"type": "str"`, `toolkit.gateway.meta_schema`).
    Reflected specs always pass; hand-written ones are checked here,
    with what the package itself reads: a ToolSpec at all, its metadata a mapping, its return
    behaviour one of `ReturnBehavior` (a typo was silently never immediate)."""
    if not isinstance(spec, ToolSpec):
        raise ToolDefinitionError(
            where,
            f"the spec is {a_kind_of(spec)}, not a ToolSpec",
            "give ToolSpec(name, description, parameters), or ToolSpec.from_openai(d) for an OpenAI tool dict",
        )
    check_name(where, spec.name, "give the ToolSpec a valid name, e.g. 'query_order'")
    if not isinstance(spec.metadata, Mapping):
        raise ToolDefinitionError(
            where, f"the metadata is {a_kind_of(spec.metadata)}, not a mapping", "give a dict ({} for none)"
        )
    if spec.return_behavior not in _BEHAVIORS:
        raise ToolDefinitionError(
            where,
            f"the return behaviour is {spec.return_behavior!r}, not a ReturnBehavior",
            "give ReturnBehavior.TO_LLM, ReturnBehavior.IMMEDIATE or ReturnBehavior.IMMEDIATE_IF_LAST",
        )
    if not isinstance(spec.description, str):
        raise ToolDefinitionError(
            where, f"the description is {a_kind_of(spec.description)}, not a str", 'give a str ("" sends none)'
        )
    parameters = spec.parameters
    if parameters is not None and (type(parameters) is not dict or parameters.get("type") != "object"):
        got = a_kind_of(parameters) if type(parameters) is not dict else f"a schema of type {parameters.get('type')!r}"
        raise ToolDefinitionError(
            where,
            f"the parameters are {got}, not a JSON Schema object (the arguments always arrive as one object)",
            'give a dict like {"type": "object", "properties": {...}}, or None for a tool without arguments',
        )
    if parameters is None or flat_parameters(parameters):  # flat and valid (the usual reflected one): no walk
        return
    if _nested_past(parameters, MAX_SCHEMA_LEVELS):
        raise ToolDefinitionError(
            where,
            f"the parameters nest more than {MAX_SCHEMA_LEVELS} levels of objects and arrays, past what the toolkit "
            "writes as JSON (Python's recursion limit)",
            'flatten the schema (a model\'s arguments are never that deep), e.g. {"type": "array"} in place of the '
            "deepest items, and check the nesting in the tool",
        )
    problem = schema_problem(parameters)
    if problem is not None:
        raise ToolDefinitionError(
            where,
            f"the parameters are no JSON Schema: {problem.removesuffix('.')}, as OpenAI answers with a 400",
            'write each parameter as a schema, e.g. {"type": "string"} (JSON\'s types: string, integer, number, '
            "boolean, object, array, null), with 'required' a list of names on the object",
        )


MAX_SCHEMA_LEVELS = 500
"""The deepest a hand-written `parameters` may nest objects and arrays (the root is one level): half
Python's recursion limit, which every JSON writer and comparer on a request's way shares."""


def _nested_past(value: Any, limit: int) -> bool:
    """Whether objects and arrays nest in `value` more than `limit` levels deep, read level by level."""
    level, depth = [value], 0
    while level:
        depth += 1
        if depth > limit:
            return True
        level = [
            item
            for each in level
            for item in (each.values() if type(each) is dict else each)
            if type(item) is dict or type(item) is list
        ]
    return False


_BEHAVIORS = frozenset(ReturnBehavior)
"""The return behaviours (a str enum: `"immediate"` is one of them too)."""


def check_executor(executor: Any, where: str) -> None:
    """Refuse an executor the loop cannot run: not callable, async (its call would return a
    coroutine that never runs), or a function that cannot be called `(call, context)`. Raised
    where the tool is built, before any model sees it."""
    if not callable(executor):
        raise ToolDefinitionError(
            where,
            f"the executor is a {type(executor).__name__}, not a function",
            "pass a function (call, context) -> value as the executor",
        )
    if type(executor) is types.FunctionType and not executor.__code__.co_flags & _ASYNC_FLAGS:
        _check_call_and_context(executor, where)  # the usual case, decided without inspect
        return
    if _is_async(executor):
        raise ToolDefinitionError(
            where,
            f"the executor {function_label(executor)} is async, so a call would return a coroutine that "
            "never runs (the loop calls executors synchronously)",
            "make it a plain function (async tools are left out for now)",
        )


_ASYNC_FLAGS = inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def _check_call_and_context(fn: types.FunctionType, where: str) -> None:
    """A function executor is called `fn(call, context)`: one that cannot take that (the tool's own
    function, `def query(order_id)`) would fail every call, and only the model would hear of it.
    Read from the code object (no `inspect`: every `Tool` made checks its executor)."""
    code = fn.__code__
    positional, varargs = code.co_argcount, bool(code.co_flags & inspect.CO_VARARGS)
    keyword_only = code.co_varnames[positional : positional + code.co_kwonlyargcount]
    required = positional - len(fn.__defaults__ or ())
    missing_keywords = [n for n in keyword_only if n not in (fn.__kwdefaults__ or {})]
    if (positional >= 2 or varargs) and required <= 2 and not missing_keywords and tool_options(fn) is None:
        return
    names = ", ".join(code.co_varnames[: positional + code.co_kwonlyargcount]) or "no arguments"
    problem = (
        f"the executor {function_label(fn)} is a @tool function; an executor takes (call, context)"
        if tool_options(fn) is not None
        else f"the executor {function_label(fn)} takes ({names}), and the loop calls it as executor(call, context)"
    )
    raise ToolDefinitionError(
        where,
        problem,
        "write def run(call, context) that reads call.arguments (a JSON string), or pass the function itself "
        "as tools=[...]",
    )


def _is_async(fn: Any) -> bool:
    """`fn` (a function, bound method, partial, or object with an async `__call__`) is async."""
    if inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
        return True
    call = type(fn).__call__ if callable(fn) else None
    if isinstance(fn, (types.FunctionType, types.MethodType, functools.partial)) or call is None:
        return False
    return inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call)


def function_tool(fn: Callable[..., Any], *, name: str | None = None, doc: str | None = None) -> Tool:
    """A `Tool` for one function or bound method (decorated or not); reflection is cached. `name`
    stands for the function's own name, `doc` for its docstring (see `reflect`). A callable
    instance is its `__call__`, as `tools_from` takes it; a `functools.partial` and a callable
    written in C are refused, as there."""
    if not isinstance(fn, (types.FunctionType, types.MethodType)):
        if isinstance(fn, functools.partial):
            raise partial_error(f"function_tool({function_label(fn)})")
        if is_builtin(fn):  # `str.upper`, `operator.itemgetter(1)`: as `tools_from` says it
            raise builtin_error(f"function_tool({builtin_label(fn)})", fn)
        if is_callable_instance(fn):
            instance: Any = fn
            return _call_tool(instance) if name is None else function_tool(instance.__call__, name=name)
        if _called_in_c(fn):  # `operator.itemgetter(1)`, a ufunc: as `tools_from` says it (3.13 reads `(obj, /)`)
            raise builtin_error(f"function_tool({type(fn).__name__} object)", fn)
    target, bound_to = (fn.__func__, fn.__self__) if isinstance(fn, types.MethodType) else (fn, None)
    reflection = reflect(target, skip_first=bound_to is not None, name=name, doc=doc)
    return Tool._reflected(reflection.spec, _caller(reflection, bound_to), f"@tool {function_label(target)}", target)


def _called_in_c(fn: Any) -> bool:
    """An object (not a class) whose class's `__call__` is written in C and that wraps no function
    (`functools.lru_cache`'s wrapper has `__wrapped__`, read through as `inspect.signature` reads it)."""
    return (
        callable(fn)
        and not isinstance(fn, type)
        and isinstance(type(fn).__call__, types.WrapperDescriptorType)
        and not hasattr(fn, "__wrapped__")
    )


def _caller(reflection: Reflection, bound_to: Any) -> Executor:
    fn, params, by_position = reflection.function, reflection.params, reflection.positional_only
    head = () if bound_to is None else (bound_to,)
    injected = [(p.name, p.inject) for p in params if p.inject is not None]
    visible, known = arguments.model_parameters(params)
    exact: list[frozenset[str]] = []  # decided at the first call (the validators are built then anyway)
    validators: list[SchemaValidator | None] = [None] * len(visible)  # each looked up at its first use
    cleared = [coercion.cleared]

    def run(call: ToolCall, context: InvocationContext) -> Any:
        if cleared[0] != coercion.cleared:  # the validators were forgotten: these are looked up again
            validators[:], cleared[0] = [None] * len(visible), coercion.cleared
        if not exact:
            exact.append(_decimal_parameters(params))
        called = call.name  # the name the model knows (a wrapper may have renamed the tool)
        raw = arguments.parse_arguments(called, call.arguments, exact=bool(exact[0]))
        if exact[0]:  # only the Decimal parameters keep Decimal; the others get json.loads' floats
            raw = arguments.floats_except(raw, exact[0])
        kwargs = arguments.coerce_visible(called, visible, known, raw, validators)
        for param, inject in injected:
            kwargs[param] = context.memory_id if inject == "memory_id" else context
        if by_position:  # `def f(a, /)`: every parameter has its value here (a default filled in), in order
            return fn(*head, *[kwargs.pop(name) for name in by_position], **kwargs)
        return fn(*head, **kwargs)

    return run


def _decimal_parameters(params: tuple[ParamInfo, ...]) -> frozenset[str]:
    """The wire names of the parameters whose type holds a `Decimal` (their numbers are read exactly)."""
    return frozenset(p.wire_name for p in params if p.inject is None and coercion.needs_exact_numbers(p.annotation))


def tools_from(*sources: Any, strict: bool = False) -> list[Tool]:
    """Tools from functions, objects with `@tool` methods, modules and ready `Tool`s.

    Raises `ToolDefinitionError` on duplicate names — and, with `strict=True`, for any
    schema OpenAI strict mode cannot express (`strict="yes"` is refused: any non-empty str is true).
    """
    check_flag(
        "tools_from", "strict", strict, "True (check every tool against OpenAI strict mode) or False (the default)"
    )
    tools = [t for source in sources for t in _collect(source)]
    seen: dict[str, Tool] = {}
    for t in tools:
        if t.name in seen:
            raise _duplicate_error(t, seen[t.name])
        seen[t.name] = t
        if strict and t.spec.parameters is not None:
            _strict_check(t)
    return tools


def _duplicate_error(tool: Tool, first: Tool) -> ToolDefinitionError:
    """Two tools of one name: two functions (rename one), one function given twice (give it once), or
    one definition run twice (pass the newest)."""
    where = tool.source or f"tool {tool.name!r}"
    if tool.function is not None and tool.function is first.function:
        return ToolDefinitionError(
            where,
            f"it is given twice (a tool name, here {tool.name!r}, is used once in a call)",
            "give it once (two instances of one class give the same tools: pass one of them)",
        )
    if tool.function is not None and first.function is not None and tool.source == first.source:  # a `def` run twice
        return ToolDefinitionError(
            where,
            "it is defined twice (its definition ran again, e.g. its cell, while the old one was kept); "
            f"a tool name, here {tool.name!r}, is used once in a call",
            "pass only the newest definition (run the cell that lists the tools again)",
        )
    return ToolDefinitionError(
        where,
        f"the tool name {tool.name!r} is already used by {first.source or 'another tool'}",
        "give one of them another name, e.g. @tool(name=...)",
    )


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
            if (isinstance(fn, types.FunctionType) or _wraps_function(fn))
            and tool_options(fn)
            and fn.__module__ == source.__name__
        ]
    if isinstance(source, type):
        raise ToolDefinitionError(
            f"tools_from({source.__name__})",
            "a class is not a tool source; its @tool methods need an instance to be bound to",
            f"pass an instance, e.g. tools_from({source.__name__}())",
        )
    if isinstance(source, functools.partial):
        raise partial_error(f"tools_from({function_label(source)})")
    _refuse_compensation(source)
    if isinstance(source, types.FunctionType):
        return [_function_tool_once(source)]
    if isinstance(source, types.MethodType):
        return [function_tool(source)]
    if is_builtin(source):
        raise builtin_error(f"tools_from({builtin_label(source)})", source)
    if _wraps_function(source):  # @functools.cache, @lru_cache: a C wrapper around a def
        return [_function_tool_once(source)]
    if isinstance(source, _COLLECTIONS):
        kind = type(source).__name__
        raise ToolDefinitionError(
            f"tools_from({kind} object)",
            f"{a_or_an(kind)} is not a tool source: tools_from takes the tools themselves, one argument each",
            "unpack it: tools_from(*tools)" + (", or tools_from(*tools.values())" if isinstance(source, dict) else ""),
        )
    return _methods(source)


def _refuse_compensation(source: Any) -> None:
    """A `@compensates` function (not also a `@tool`) given as a tool: the model would be offered the
    undo action, with no description, and the saga would not know it."""
    target = getattr(getattr(source, "__func__", source), COMPENSATES, None)
    if not isinstance(target, str) or tool_options(source):
        return
    name = getattr(source, "__name__", type(source).__name__)
    raise ToolDefinitionError(
        f"tools_from({name})",
        f"it is the compensation of tool {target!r} (@compensates), which the model must never call",
        f"pass it as LoopOptions(compensate=True, compensations=({name},))",
    )


def _wraps_function(obj: Any) -> bool:
    """`obj` is a callable that is not a function but wraps one the `functools.wraps` way
    (`__wrapped__`), as `functools.cache` and `lru_cache` do: it is reflected as that function."""
    if isinstance(obj, (types.FunctionType, type)) or not callable(obj) or getattr(obj, "__wrapped__", None) is None:
        return False
    try:
        return isinstance(inspect.unwrap(obj), types.FunctionType)
    except ValueError:  # a __wrapped__ cycle
        return False


_COLLECTIONS = (list, tuple, set, frozenset, dict)
"""What holds tools rather than being one (`tools_from([a, b])` for `tools_from(a, b)`)."""


_FUNCTION_TOOLS: weakref.WeakKeyDictionary[Callable[..., Any], tuple[int, Tool]] = weakref.WeakKeyDictionary()
"""A function -> (the reflection generation its tool was built in, the tool)."""


def _function_tool_once(fn: types.FunctionType) -> Tool:
    """`function_tool(fn)`, built once per function: a loop passes the same functions every call.

    The tool is rebuilt when the function's reflection is (`reflect.clear_cache()` moves
    `cache_generation()` on).
    """
    generation = cache_generation()
    kept = _FUNCTION_TOOLS.get(fn)
    if kept is not None and kept[0] == generation:
        return kept[1]
    tool = function_tool(fn)
    _FUNCTION_TOOLS[fn] = (generation, tool)
    return tool


def tool_attributes(cls: type) -> list[tuple[str, Any]]:
    """The `@tool` methods of `cls` and its bases, as `(name, class attribute)`, in definition order
    (a static or class method's, or a property over one, included: `tools_from` refuses the last)."""
    return [(name, attr) for name, attr in _class_attributes(cls) if tool_options(_unwrap(attr))]


def _methods(obj: Any) -> list[Tool]:
    found = tool_attributes(type(obj))
    for _, attr in found:
        if isinstance(attr, PROPERTIES):  # `@property` over `@tool`: read, never called
            raise property_error(attr)
        if isinstance(attr, functools.singledispatchmethod):  # over `@tool`: called by keyword, never dispatched
            raise dispatch_error(attr)
    if not found and is_callable_instance(obj):
        return [_call_tool(obj)]
    if not found and callable(obj):  # a ufunc, an itemgetter: callable, but not written in Python
        raise builtin_error(f"tools_from({type(obj).__name__} object)", obj)
    if not found:
        kind = type(obj).__name__
        if isinstance(obj, _VALUES):
            raise _value_error(obj)
        if isinstance(obj, ToolSpec):  # `tools=catalog.tools`: the specs of a catalogue, which run nothing
            raise ToolDefinitionError(
                f"tools_from(ToolSpec {obj.name!r:.60})",
                "it describes a tool, and has no function to run",
                "pair it with one, Tool(spec, function), or make the catalogue's specs runnable: catalog_tools(specs)",
            )
        if callable(getattr(obj, "list_tools", None)):  # an McpClient
            raise ToolDefinitionError(
                f"tools_from({kind} object)",
                "it is an MCP client, not a tool",
                "wrap it in a provider: run_loop(..., providers=[McpToolProvider([client])])",
            )
        if callable(getattr(obj, "register", None)) and callable(getattr(obj, "tools", None)):  # a ToolRegistry
            raise ToolDefinitionError(
                f"tools_from({kind} object)",
                "it is a tool registry, not a tool",
                "pass it as registry=..., e.g. run_loop(..., registry=registry), or its tools: tools=registry.tools()",
            )
        if callable(getattr(obj, "provide", None)):  # `tools=[provider]` for `providers=[provider]`
            label = getattr(obj, "label", None)
            raise ToolDefinitionError(
                f"tools_from({label if isinstance(label, str) else kind + ' object'})",
                "it is a tool provider (it has provide(request)), not a tool",
                "pass it as providers=[...], e.g. run_loop(..., providers=[provider])",
            )
        raise ToolDefinitionError(
            f"tools_from({kind} object)",
            f"{kind} has no @tool methods",
            "decorate its tool methods with @tool, or pass functions",
        )
    return [_call_tool(obj) if name == "__call__" else function_tool(getattr(obj, name)) for name, _ in found]


_VALUES = (type(None), str, bytes, int, float, complex)
"""What a tool's name or a call's result is, never a tool (`tools=["query_order"]`, `tools=[query_order(...)]`)."""


def _value_error(value: Any) -> ToolDefinitionError:
    """A name or a value where a tool belongs: said so, with the function to pass instead."""
    where = f"tools_from({'None' if value is None else type(value).__name__ + ' object'})"
    if isinstance(value, str):
        fix = f"tools=[{value}], not tools=[{value!r}]" if value.isidentifier() else "tools=[query_order]"
        return ToolDefinitionError(
            where,
            f"{value!r:.60} is a str, not a tool: tools are given as the functions themselves, not their names",
            f"pass the function: {fix}",
        )
    return ToolDefinitionError(
        where,
        f"{_repr_short(value)}{'' if value is None else f' ({a_kind_of(value)})'} is not a tool: tools are given "
        "as the functions themselves, not what a call of one returned",
        "pass the function, not a call of it: tools=[query_order], not tools=[query_order(...)]",
    )


def _repr_short(value: Any) -> str:
    text = repr(value)
    return cut(text, 40, "...")


def _call_tool(obj: Any) -> Tool:
    """A callable instance as a tool: its `__call__`, named after its class and described by the
    docstring of `__call__` (else of the class: its summary, and its `Args:` for the parameters),
    unless `@tool` on the instance or on `__call__` says otherwise."""
    call = obj.__call__
    tool = function_tool(call, doc=None if getattr(call, "__doc__", None) else type(obj).__doc__)
    spec, own = tool.spec, getattr(obj, "__dict__", {}).get(MARK) or ToolOptions()
    name = own.name or (spec.name if spec.name != "__call__" else type(obj).__name__)
    check_name(f"@tool {function_label(type(obj))} object", name)
    description = said(own.description) or spec.description
    if own != ToolOptions():
        spec = dataclasses.replace(spec, return_behavior=own.return_behavior, metadata=dict(own.metadata))
    return dataclasses.replace(tool, spec=dataclasses.replace(spec, name=name, description=description))


def _class_attributes(cls: type) -> list[tuple[str, Any]]:
    seen: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        seen.update(vars(klass))
    return list(seen.items())


def _unwrap(attr: Any) -> Any:
    """The function a class attribute holds: a static or class method's, a property's getter (so
    `@property` over `@tool` is found, and refused), or the attribute itself. Every attribute of the
    class (`object`'s too) comes through here: one look-up of its exact type in a set (an `isinstance`
    that fails reads the attribute's `__class__`, some 300 instructions a kind; `tool_options` reads a
    subclass's `__func__` itself)."""
    kind = type(attr)
    if kind not in _ATTRIBUTE_WRAPPERS:
        return attr
    if kind is staticmethod or kind is classmethod:
        return attr.__func__
    return attr.func if kind is functools.singledispatchmethod else property_getter(attr)


_ATTRIBUTE_WRAPPERS = frozenset({staticmethod, classmethod, functools.singledispatchmethod, *PROPERTIES})
