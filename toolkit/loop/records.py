"""The records of the round-trip loop: its options, its events, its trace and its result.

`LoopOptions` defaults are LangChain4j's; `COURSE` is the week-3 course's ToolAgent. The loop's
model-facing texts live in `toolkit.loop.texts` (English and Chinese) so tests and notebooks can
quote them exactly; the English ones are re-exported here under their old names.

`LoopOptions` checks its fields when it is built (`dataclasses.replace` included): a wrong type
or range raises `ConfigurationError` naming the option, the rule and the fix, before anything
runs — not a bare `TypeError` in the middle of a turn, after the model's reply is in memory.

Leaves out: the loop's behaviour (`toolkit.loop.run`).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from toolkit.chat.messages import AssistantMessage, Message, TokenUsage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.model import TOOL_CHOICES, ToolChoice, is_tool_choice
from toolkit.chat.read_only import ReadOnlyDict
from toolkit.chat.sent import tools_tokens
from toolkit.chat.sources import Source
from toolkit.chat.sse import TextDelta, ToolCallDelta
from toolkit.errors import REPAIR_ZH, ArgumentError, ArgumentProblem, ConfigurationError, a_or_an, huge_int
from toolkit.loop.images import MAX_IMAGE_BYTES, MAX_IMAGES
from toolkit.loop.result_size import MAX_RESULT_CHARS
from toolkit.loop.saga import SagaEntry, ToolExecution
from toolkit.loop.texts import EN, ZH, LoopTexts
from toolkit.loop.texts import HANDOVER_ZH as HANDOVER_ZH
from toolkit.loop.texts import REPAIR_EN as REPAIR_EN
from toolkit.loop.texts import REPAIR_HANDOVER_ZH as REPAIR_HANDOVER_ZH
from toolkit.tools.decorator import a_kind_of
from toolkit.tools.execute import Policies, Tool, named
from toolkit.tools.redact import describe_exception
from toolkit.unicode import cut

FOUND_TOOLS = "found_tools"
"""Result attribute naming tools that a search found; they join the effective set."""


def found_names(value: Any) -> list[str]:
    """The tool names a `found_tools` attribute holds: the str entries of a list (as a search writes
    it), one str as one name (a history written by another application); anything else holds none.
    Was iterated as it was: a str revealed the tools named by its letters, a dict entry stopped the
    call at its start (unhashable)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [name for name in value if isinstance(name, str)]
    return []


GUARD_TEXT = EN.guard
NOT_RUN_TEXT = EN.not_run_limit
ABANDONED_TEXT = EN.interrupted


class RequestExtra(ReadOnlyDict):
    """`LoopOptions.request_extra` as the options keep it: a copy of the caller's, checked once and
    read-only, as the options are frozen (the caller's dict changed later, with a `tools` key say,
    changed every later turn's requests and skipped the check: a raw `TypeError` mid-turn). Equal
    to the plain dict; a copy (`dict(extra)`, `copy.copy`, pickling) is a plain, mutable dict."""

    __slots__ = ()

    READ_ONLY = (
        "LoopOptions.request_extra is read-only: the options are frozen, and every turn given them sends it; "
        "make new options instead: dataclasses.replace(options, request_extra={...})"
    )


@dataclass(frozen=True, repr=False)
class LoopOptions:
    """How one loop behaves; the defaults are LangChain4j's, `COURSE` is the week-3 course's ToolAgent."""

    max_round_trips: int = 100
    """Tool round trips allowed (an int ≥ 0): model replies that ask for tools (a reply with five
    calls counts once). A tool-calling reply beyond it is recorded, its calls are answered "Not
    executed: the limit on tool round trips (N) was reached." without running, and the loop raises
    `MaxRoundTripsError` ("the model asked for tools in more than N round trips; …") or hands over
    (`on_limit`). A final answer is never refused: N tool rounds and then an answer succeed.

    The default (100) is LangChain4j's `maxToolCallingRoundTrips`, but the bound is not checked
    the same way. LangChain4j checks it before it reads the reply (`roundTripsLeft-- == 0` at the
    top of each round), so its N+1-th reply raises even when that reply is the answer: its N
    allows N−1 tool rounds and then a final answer, and 0 raises at the first reply. It records
    nothing for the refused reply, and its message is "Something is wrong, exceeded N tool
    calling round trips". This package counts rounds with tool calls, as the course's prose does
    ("数的是模型返回带工具调用的轮数")."""
    max_model_requests: int | None = None
    """Model requests allowed per call (None: no such bound). The week-3 course's `MAX_ROUNDS`: when the
    last allowed request still asks for tools, its calls run, then the loop hands over (or raises)."""
    on_limit: str = "raise"
    """`raise` `MaxRoundTripsError`, or `handover`: end with `handover_text` as the answer."""
    handover_text: str = HANDOVER_ZH
    """The answer when a limit is reached and `on_limit="handover"`."""
    tool_choice: ToolChoice | None = None
    """Passed through to every request: "auto", "required", "none", or a named function
    `{"type": "function", "function": {"name": "query_order"}}`; None sends nothing (the
    gateway's default). Anything else is refused when the options are built. A choice that forces a call
    ("required", a named function) forces the first request only: see `reset_tool_choice`."""
    reset_tool_choice: bool = True
    """After a round that ran tools (or from a conversation given ending in tool results: a call going on
    after its tools ran), send "auto" instead of a `tool_choice` that forces a call, as the OpenAI Agents
    SDK's `Agent.reset_tool_choice` (default True) and LangChain4j's AI services do: a model
    that obeys a forced choice on every request calls a tool every round and never answers (the loop
    ends at `max_round_trips`). False sends the choice to every request (a tool returning IMMEDIATE
    ends such a loop); "auto" and "none" are never changed."""
    policies: Policies = Policies()
    """The three error channels (see `toolkit.tools.execute`)."""
    argument_repair: int | None = None
    """None: `policies.argument_error` decides. n: rounds in which a tool's argument errors are fed
    back (with `repair_template`), per tool and per question; that tool's next argument error
    hands over with `repair_handover_text`. Another tool's first mistake still gets its repair."""
    repair_template: str = REPAIR_EN
    """The text an argument error goes back in, formatted with `{error}`, `{tool}`, `{field}`,
    `{received}` and `{expected}` (a brace meant as text is doubled: `{{`); checked when built."""
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
    """`@compensates` functions (`toolkit.loop.saga`); those declared beside the tools, on an object or
    a module given as `tools=`, are found there without being listed here."""
    clock: Callable[[], float] = time.perf_counter
    """Seconds as a number, read before and after each call (`ToolExecution.duration_s`); one of
    one's own is called once when the options are made (it must return a finite int or float)."""
    stream: bool = False
    """Ask the model with `stream()` and yield text deltas as they arrive (see `iter_loop`)."""
    request_extra: Mapping[str, Any] = field(default_factory=RequestExtra)
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
    tool_timeout: float | None = None
    """Seconds one call may take, its value's conversion to text included (None: no limit, as in
    LangChain4j and as the OpenAI Agents SDK's tools by default; a number > 0). Without one, a call
    that hangs holds the turn until Ctrl-C, whose traceback then names the call still running and
    this option. With a limit each call runs on one of the loop's kept threads and the
    loop waits for it at most this long (`toolkit.loop.time_limit`); a call still running then is
    answered with `texts.timed_out` ("did not finish within N s … its outcome is unknown") through
    `policies.execution_error`, as a tool's failure. Python cannot stop a thread: the call goes on,
    and what it gives later is dropped. A compensation gets the same limit (past it: logged as not done);
    a compensable call past it is not compensated (its outcome is unknown), and the saga log says so."""
    max_result_chars: int | None = MAX_RESULT_CHARS
    """Characters of one tool result the model reads (an int ≥ 1; None: every result whole, as in
    LangChain4j). A longer one is cut there, with a line telling the model how long it was
    (`texts.result_cut`), and a warning names the call; the trace and an immediate return keep the
    whole text (`toolkit.loop.result_size`). 100,000 by default, as `McpToolProvider`'s."""

    def __post_init__(self) -> None:
        _check_options(self)

    def __repr__(self) -> str:
        """Only the fields that differ from the defaults (`LoopOptions()` for the defaults), the
        package's text sets by name and functions by their qualified names: `help(run_loop)` and a
        notebook's output read the same in every process (never a memory address)."""
        return f"LoopOptions({', '.join(_changed_fields(self))})"


_TEXT_SETS = {id(EN): "EN", id(ZH): "ZH"}


def _changed_fields(options: LoopOptions) -> list[str]:
    """`name=value` for each field of `options` not equal to its default, in declaration order."""
    shown = []
    for f in fields(options):
        value = getattr(options, f.name)
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        if value is default or _equal(value, default):
            continue
        text = _TEXT_SETS.get(id(value)) if f.name == "texts" else None
        shown.append(f"{f.name}={text or named(value)}")
    return shown


def _equal(value: Any, default: Any) -> bool:
    """`value == default`, False for a value whose `==` raises or gives no plain truth (an array)."""
    try:
        return bool(value == default)
    except Exception:
        return False


_RESERVED_EXTRA = {
    "messages": "remove it (the loop sends the conversation itself)",
    "tools": "remove it (the loop sends the tools of the call)",
    "tool_choice": "remove it and pass LoopOptions(tool_choice=...)",
    "stream": "remove it and pass LoopOptions(stream=True)",
}


def _check_options(o: LoopOptions) -> None:
    """Raise `ConfigurationError` for the first field of `o` outside its type or range.
    Cheap: `dataclasses.replace` runs it for every changed copy (an AI service makes one per
    call), so the usual options pass one expression; anything else gets the full check."""
    if (
        type(o.max_round_trips) is int
        and o.max_round_trips >= 0
        and (o.max_model_requests is None or (type(o.max_model_requests) is int and o.max_model_requests >= 1))
        and (o.on_limit == "raise" or o.on_limit == "handover")
        and (o.tool_choice is None or (type(o.tool_choice) is str and o.tool_choice in TOOL_CHOICES))
        and (o.argument_repair is None or (type(o.argument_repair) is int and o.argument_repair >= 0))
        and (o.guard_handover_after is None or (type(o.guard_handover_after) is int and o.guard_handover_after >= 1))
        and type(o.max_workers) is int
        and o.max_workers >= 1
        and type(o.max_images) is int
        and o.max_images >= 0
        and type(o.max_image_bytes) is int
        and o.max_image_bytes >= 0
        and (o.max_result_chars is None or (type(o.max_result_chars) is int and o.max_result_chars >= 1))
        and type(o.loop_guard) is bool
        and type(o.reset_tool_choice) is bool
        and type(o.concurrent) is bool
        and type(o.compensate) is bool
        and type(o.stream) is bool
        and type(o.strict_tools) is bool
        and type(o.handover_text) is str
        and type(o.repair_template) is str
        and o.repair_template in _GOOD_TEMPLATES
        and type(o.repair_handover_text) is str
        and type(o.policies) is Policies
        and type(o.texts) is LoopTexts
        and not o.compensations
        and type(o.request_extra) is RequestExtra  # checked when made (the default, or a copy of these options')
        and o.clock is time.perf_counter  # one of one's own is tried once (`_check_clock`)
        and o.tool_timeout is None
    ):
        return
    _check_each(o)


def _check_each(o: LoopOptions) -> None:
    """`_check_options`, field by field: the first one outside its type or range raises."""
    _count(o.max_round_trips, "max_round_trips", 0, "the tool round trips allowed", "max_round_trips=10")
    if o.max_model_requests is not None:
        _count(
            o.max_model_requests, "max_model_requests", 1, "None or the model requests allowed", "max_model_requests=5"
        )
    if o.on_limit not in ("raise", "handover"):
        raise _bad("on_limit", o.on_limit, "it must be 'raise' or 'handover'", "pass on_limit='handover'")
    if o.tool_choice is not None and o.tool_choice not in TOOL_CHOICES:
        _check_tool_choice(o.tool_choice)
    if o.argument_repair is not None:
        _count(o.argument_repair, "argument_repair", 0, "None or the repair rounds per tool", "argument_repair=1")
    if o.guard_handover_after is not None:
        _count(
            o.guard_handover_after, "guard_handover_after", 1, "None or a number of rounds", "guard_handover_after=2"
        )
    _count(o.max_workers, "max_workers", 1, "the threads one round may use", "max_workers=4")
    _count(o.max_images, "max_images", 0, "the images passed on per round", "max_images=8")
    _count(o.max_image_bytes, "max_image_bytes", 0, "the bytes of one image passed on", "max_image_bytes=5_000_000")
    if o.max_result_chars is not None:
        meaning = "None or the characters of a tool's result the model reads at most"
        _count(o.max_result_chars, "max_result_chars", 1, meaning, "max_result_chars=100_000")
    for name in ("reset_tool_choice", "loop_guard", "concurrent", "compensate", "stream", "strict_tools"):
        if type(getattr(o, name)) is not bool:
            raise _bad(name, getattr(o, name), "it must be True or False", "pass a bool")
    for name in ("handover_text", "repair_template", "repair_handover_text"):
        if type(getattr(o, name)) is not str:
            raise _bad(name, getattr(o, name), "it must be a str", "pass the text as a str")
    if not isinstance(o.policies, Policies):
        raise _bad("policies", o.policies, "it must be a Policies", "pass e.g. policies=Policies(...)")
    if not isinstance(o.texts, LoopTexts):
        raise _bad("texts", o.texts, "it must be a LoopTexts", "pass texts=EN or texts=ZH (toolkit.loop.texts)")
    if o.repair_template not in _GOOD_TEMPLATES:
        _check_template(o.repair_template)
    if o.compensations:
        _check_compensations(o.compensations)
    if type(o.request_extra) is not RequestExtra:  # the options keep what they checked, not the caller's dict
        _check_extra(o.request_extra)
        object.__setattr__(o, "request_extra", RequestExtra(o.request_extra))
    if o.clock is not time.perf_counter:
        _check_clock(o.clock)
    if o.tool_timeout is not None:
        _check_timeout(o.tool_timeout)


def _check_timeout(seconds: Any) -> None:
    if type(seconds) not in (int, float) or not 0 < seconds < math.inf:  # NaN too
        rule = "it must be None or a number of seconds greater than 0 (an int or a float)"
        raise _bad("tool_timeout", seconds, rule, "pass e.g. tool_timeout=30")
    if type(seconds) is int and seconds > sys.float_info.max:  # the first call's deadline overflowed, mid-turn
        rule = "it is more seconds than a float holds (the wait's deadline is a float)"
        raise _bad("tool_timeout", seconds, rule, "pass e.g. tool_timeout=30, or None for no limit")


def _check_clock(clock: Any) -> None:
    """A clock of one's own is called once: one that returns no number of seconds (a service's
    date clock, `datetime.now`) or raises would fail only after a call's tool ran, and the
    call's result would be lost ("outcome unknown")."""
    if not callable(clock):
        raise _bad("clock", clock, "it must be a function returning seconds", "pass e.g. clock=time.perf_counter")
    try:
        now = clock()
    except Exception as exc:
        raise _bad("clock", clock, f"{CLOCK_RULE}it raised {describe_exception(exc)}", CLOCK_FIX) from exc
    if type(now) not in (int, float) or not math.isfinite(now):
        raise _bad("clock", clock, f"{CLOCK_RULE}it returned {_no_seconds(now)}", CLOCK_FIX)


CLOCK_RULE = "it must be a function returning seconds as a number, and "
CLOCK_FIX = "pass e.g. clock=time.perf_counter"


def _no_seconds(now: Any) -> str:
    """What a clock returned that is no number of seconds, as its error names it."""
    return repr(now) if type(now) in (int, float) or now is None else a_or_an(type(now).__name__)


class ClockReader:
    """A clock of one's own as a turn reads it (`LoopOptions.clock`, tried once when the options were
    made). One that fails later, after a call's tool ran (a list of ticks run out, a clock that
    raises or returns no number), lost that call's result ("its outcome is unknown") and ended the
    turn with its own error, or `RuntimeError: generator raised StopIteration`: here a failed read
    gives the last good one (a duration of 0) and is kept in `problem`; the loop raises
    `ConfigurationError` (`failure`) once the round's results are recorded."""

    def __init__(self, clock: Callable[[], float], rounds: list[RoundTrace]) -> None:
        self.clock = clock
        self.rounds = rounds
        """The turn's rounds so far (the last is the one whose calls read the clock)."""
        self.last = 0.0
        self.problem: str | None = None
        """What the clock did first when it failed, e.g. `in round 1 it raised OSError: …`."""

    def __call__(self) -> float:
        try:
            now = self.clock()
        except Exception as exc:  # StopIteration too: in the loop's generator it would become a RuntimeError
            return self.failed(f"it raised {describe_exception(exc)}")
        if type(now) not in (int, float) or not math.isfinite(now):
            return self.failed(f"it returned {_no_seconds(now)}")
        self.last = now
        return now

    def failed(self, what: str) -> float:
        if self.problem is None:
            self.problem = f"in round {len(self.rounds)} {what}"
        return self.last

    def failure(self) -> ConfigurationError:
        """The error the loop raises once the round whose calls the clock failed is recorded."""
        return _bad(
            "clock",
            self.clock,
            f"{CLOCK_RULE}{self.problem}; the round's calls ran and their results are kept",
            CLOCK_FIX,
        )


def _count(value: Any, name: str, least: int, meaning: str, example: str) -> None:
    if type(value) is not int or value < least:
        rule = f"it must be a whole number (int) of at least {least}: {meaning}"
        raise _bad(name, value, rule, f"pass e.g. {example}")


def _check_tool_choice(choice: Any) -> None:
    if not is_tool_choice(choice):
        raise _bad(
            "tool_choice",
            choice,
            "it must be None, 'auto', 'required', 'none' or a named function",
            "pass e.g. tool_choice='required', or {'type': 'function', 'function': {'name': 'query_order'}}",
        )


REPAIR_FIELDS = ("error", "tool", "field", "received", "expected")
"""The names a `repair_template` may use (`{error}`, `{tool}`, ...: `toolkit.loop.run.repaired_policies`)."""

_GOOD_TEMPLATES = {REPAIR_EN, REPAIR_ZH}
"""Repair templates known to format (the two of the package, then each one checked): a changed copy of
options (`dataclasses.replace`) does not format its template again."""


def _check_template(template: str) -> None:
    """A `repair_template` must format with `REPAIR_FIELDS`: `{orderId}` (a name it does not have) or a
    literal brace (`{"orderId": "SN…"}`, a JSON example) was a raw `KeyError` / `ValueError` in the
    middle of a turn, at the model's first wrong argument."""
    sample = ArgumentError("query_order", [ArgumentProblem("orderId", '"SN1"', "SN and 12 digits")])
    try:
        template.format(error=sample, tool="query_order", field="orderId", received='"SN1"', expected="SN…")
    except (KeyError, IndexError, ValueError, AttributeError, TypeError) as exc:
        problem = f"{type(exc).__name__}: {exc}" if not isinstance(exc, KeyError) else f"it has no field {exc}"
        raise _bad(
            "repair_template",
            template,
            f"it is formatted with {{{'}, {'.join(REPAIR_FIELDS)}}}, and this one cannot be ({problem})",
            "use only those names in braces, and double a brace meant as text: {{ and }}",
        ) from None
    if len(_GOOD_TEMPLATES) >= 64:  # a program uses a few; one making templates on the fly stays bounded
        _GOOD_TEMPLATES.intersection_update((REPAIR_EN, REPAIR_ZH))
    _GOOD_TEMPLATES.add(template)


def _check_compensations(compensations: Any) -> None:
    if not isinstance(compensations, (tuple, list)):
        raise _bad(
            "compensations",
            compensations,
            "it must be a tuple of @compensates functions",
            "pass e.g. compensations=(release,)",
        )
    for fn in compensations:
        if isinstance(fn, Tool):  # a registry's, function_tool's: named, not its repr (an executor's address in it)
            wrapped = getattr(fn.function, "__name__", None)
            that = f"that function ({wrapped}, marked)" if wrapped else "a function that undoes it, marked"
            raise ConfigurationError(
                f"LoopOptions(compensations={_shown_items(compensations)}): the Tool {fn.name!r} is not a function; a "
                "compensation is the function that undoes a tool, marked @compensates('tool_name'), and the model "
                f"never calls it: pass {that}, not a Tool"
            )
        if not callable(fn):
            raise ConfigurationError(
                f"LoopOptions(compensations={_shown_items(compensations)}): {_shown_item(fn)} is not a function; "
                "pass only @compensates functions"
            )


def _shown_items(given: tuple[Any, ...] | list[Any]) -> str:
    """The compensations given, as an error shows them: `(Tool('release'), 'undo')`."""
    items = ", ".join(map(_shown_item, given))
    return f"[{items}]" if isinstance(given, list) else f"({items}{',' if len(given) == 1 else ''})"


def _shown_item(value: Any) -> str:
    """One compensation given, as an error shows it: a Tool by its name, anything else by its repr, cut."""
    return f"Tool({value.name!r})" if isinstance(value, Tool) else cut(repr(value), 40, "...")


def _check_extra(extra: Any) -> None:
    if not isinstance(extra, Mapping):
        raise _bad("request_extra", extra, "it must be a dict of request fields", "pass e.g. request_extra={'seed': 7}")
    for key in extra:
        if not isinstance(key, str):  # it went into the request as a keyword: "keywords must be strings", mid-turn
            raise _bad(
                "request_extra",
                dict(extra),
                "its keys must be the request's field names, as str, not "
                + (a_kind_of(key) if key is None else f"{a_kind_of(key)} ({key!r:.40})"),
                "name each field with a str, e.g. request_extra={'seed': 7}",
            )
        if key in _RESERVED_EXTRA:
            raise _bad("request_extra", dict(extra), f"the field {key!r} is the loop's own", _RESERVED_EXTRA[key])


def _bad(name: str, value: Any, rule: str, fix: str) -> ConfigurationError:
    return ConfigurationError(f"LoopOptions({name}={_shown_value(value)}): {rule}; {fix}")


def _shown_value(value: Any) -> str:
    """`value` as a refusal shows it: its repr, cut; an int too long for Python to write (more than
    4,300 digits: its repr raises ValueError) by its size in bits."""
    if type(value) is int and value.bit_length() > _FLOAT_BITS:
        return huge_int(value)
    return cut(repr(value), 80, "...")


_FLOAT_BITS = 1024
"""Past this many bits an int is more than any float (`sys.float_info.max` has 1,024): shown by its size."""


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
    sources: tuple[Source, ...] = ()
    """The web pages this reply cites, as its response gave them (`ChatResponse.sources`: Perplexity's)."""

    @property
    def tools_tokens(self) -> int:
        """Estimated tokens of the tools block (computed on demand: the hot path never pays)."""
        return tools_tokens(self.tools_payload) if self.tools_payload else 0


@dataclass
class LoopResult:
    """What a call to the loop produced."""

    finish: str
    """`answer` (the model stopped calling tools), `immediate`, `handover`, or `stopped` (only on
    the `loop_result` a raised failure carries)."""
    answer: str | None
    """The final text; None on an immediate return (read `immediate_results`). On the `loop_result` a
    raised failure carries: the model's answer when it came before the failure (memory refused to
    store it), else None."""
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
    stopped_at: str | None = None
    """On the `loop_result` a raised failure carries: where it stopped the turn, `model request 2 (no
    reply recorded)` (the request failed, or was cut off: no round records it), `round 1` (that
    round's decision says `stopped: …`, or what it decided before memory refused its reply),
    `after round 1` (between two requests), `before model request 1`; None for a turn that finished."""
    stopped_by: str | None = None
    """What stopped it, one sanitised line (`TransientError: HTTP 429 …`); None for a turn that finished."""

    @property
    def executions(self) -> list[ToolExecution]:
        """Every tool execution of the run, round after round, in the order they ran."""
        return [e for r in self.rounds for e in r.executions]

    @property
    def sources(self) -> tuple[Source, ...]:
        """The web pages the last reply (the answer, on a turn that answered) cites, numbered as its text cites
        them (`toolkit.chat.sources`: Perplexity's); () when it cites none. An earlier round's are its own
        (`RoundTrace.sources`): its [1] is not the answer's."""
        return self.rounds[-1].sources if self.rounds else ()

    @property
    def round_trips(self) -> int:
        """Tool round trips: model requests whose reply asked for tools."""
        return sum(1 for r in self.rounds if r.reply.tool_calls)

    @property
    def model_requests(self) -> int:
        """Every request sent to the model (tool round trips plus the answering request)."""
        return len(self.rounds)
