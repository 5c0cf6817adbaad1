"""The round-trip loop: ask the model, run the tools it asks for, ask again, until it answers.

    run_loop(model, [UserMessage(...)], tools=[...], memory=..., options=LoopOptions())

One round trip, step by step (each step is one method of `_Run` below):

    1. send       the conversation and the *effective* tools to the model (a repeated
                  tool-call id in one reply is renamed, so every call gets its own result)
    2. record     append the reply (to memory if configured, else to a copy of the caller's list)
    3. exit?      no tool calls → done: the reply is the answer
    4. bound      a tool-calling reply beyond `max_round_trips` → raise, or hand over
    5. execute    every call, in the model's order (concurrently if asked, on kept threads:
                  `toolkit.loop.workers`; one call never spawns a worker); the loop guard
                  answers repeated calls without running them; with `tool_timeout` a call
                  (its value's conversion to text too) is waited for at most that long
                  (`toolkit.loop.time_limit`);
                  a call whose policy raises stops the round: later calls are not started
                  (a reply cut off by its length limit, or a content filter, inside its last
                  call: `toolkit.loop.cut_off`)
    6. repair     a tool's argument errors go back with a hint for `argument_repair` rounds
                  per question; that tool's next argument error → hand over
    7. saga       a failure that compensates (see `toolkit.loop.saga`) → roll back, rewrite
    8. append     the tool results, in order, then one user message with the images they
                  carry, if any (`toolkit.loop.images`); a raised failure propagates now
    9. return?    the return-behaviour rules (`toolkit.loop.returns`) may end the call here
   10. refresh    guarded calls repeated → hand over; `max_model_requests` reached → hand over
                  (or raise); else dynamic providers and found tools update the effective set

Two counts, never confused: **model requests** (`len(result.rounds)`, every request sent) and
**tool round trips** (`result.round_trips`, the requests whose reply asked for tools — what
`max_round_trips` counts). A question answered after one tool call is 2 model requests and 1
tool round trip. `COURSE` bounds model requests (the week-3 course's `MAX_ROUNDS = 5`); the
default bounds tool round trips at 100, LangChain4j's default for `maxToolCallingRoundTrips`.
The two bounds are not the same check. This loop reads the reply first: a final answer always
gets through, and with N a tool-calling reply after N tool rounds is recorded, its calls are
answered "Not executed: …" and the loop raises ("the model asked for tools in more than N round
trips; …") or hands over. LangChain4j checks before reading the reply, so its N allows N−1 tool
rounds before a final answer (its N+1-th reply raises even when it is the answer; 0 raises at
once), records nothing for that reply, and says "Something is wrong, exceeded N tool calling
round trips".

Each turn has a number, counted from 1 in the process (`ProviderRequest.turn`, `InvocationContext.turn`):
what a provider or a tool keeps for a call without a memory (whose `memory_id` is None in every such
call) is keyed by it, as skills' activations are.

Token usage is summed over every response. Everything the loop saw and decided is kept in
`LoopResult.rounds` for the trace view. `iter_loop` is the same loop as a generator: it yields
text deltas while a streamed reply arrives (`LoopOptions(stream=True)`) and `ToolStarted` /
`ToolFinished` around each call, which is how a UI shows "calling query_order…".

What is recorded when a round stops part-way (a policy raised): a call that ran keeps its real
result; the call that raised gets its error; a call never started gets "not run, and why"; with
concurrent execution, calls already running finish and keep their results. With
`compensate=True` the turn's successful compensable calls are rolled back before the error
propagates. The exception carries `loop_result` (the rounds so far, for the trace view, and where
the turn stopped and why: `stopped_at`, `stopped_by`, as a failed request has no round) and
`saga` (the compensation log). A turn interrupted any other way (the caller stops iterating,
Ctrl-C — also inside a compensation —, an unexpected exception) answers its unanswered calls
with "not completed", keeps the real results of the calls that ran (rolled back where a saga
undid them), and carries `loop_result` and `saga` the same way. Either way memory stays valid
for a strict gateway on the next turn. A request to the model that fails (a 503, a cut stream)
after earlier rounds ran tools raises with `loop_result` too: without memory, its
`new_messages` are where those calls and their results are kept, and its hint says how to go on from
them without running them again (`toolkit.loop.resume`).

A memory store that fails after the tools ran (writing the results, the saga's rewrite, the
round-trip limit's answers) raises its own error, with `loop_result`: the results are in its
`new_messages`. The round's results are written once more; refused again, their calls are
answered "not completed" (`LoopTexts.unfinished`, short rows a full disk may still take), so
memory ends with no call left unanswered unless the store refuses that too (a note on the error
says which). A store that refuses the model's answer leaves it in the error's `loop_result.answer`
(a note says so), not only in its trace. One that fails once the turn has ended (reading memory back
for the result, or a last write that went through and then raised) says memory holds the whole turn
and nothing needs to run or be asked again (`ENDED_HELD`; the answer, or an immediate return's
results, on `loop_result`), not how to go on from the tools' results.
Calls a turn left unanswered that way, or because its process died while a tool ran (a
kernel restart), are answered "not completed" (`LoopTexts.unfinished`) when the next turn on
that memory starts, before its question: the id stays usable with a strict gateway, and the
call is not run again. A question a turn left unanswered (its first request failed, or it was
interrupted before the model answered) stays in memory, so `run_loop(model, [], memory=...)` goes
on from it; asked again (the cell run again), it is not stored a second time; another question
after it follows the loop's note that it got no answer (`LoopTexts.unanswered`), not user after user.

Speed: the `tools` array of a request is built once per set of effective tools (and
`strict_tools`) and kept for later rounds and calls, its entries read-only dicts (`SentTool`:
equal to `ToolSpec.to_openai()`, JSON-serialisable, and a change raises instead of reaching
later requests; `dict(entry)` is a mutable copy). Each request gets its own list. `run_loop` makes
no `ToolStarted` / `ToolFinished` events: it would drop them.

Leaves out: tool search's own tool (a wrapper adds it, `toolkit.search.tool`), async tools.
"""

from __future__ import annotations

import functools
import gc
import itertools
import logging
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import replace
from types import FrameType, GeneratorType
from typing import Any

from toolkit.chat.messages import (
    AssistantMessage,
    ChatResponse,
    Message,
    SystemMessage,
    TokenUsage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    misfit_error,
)
from toolkit.chat.model import ChatModel
from toolkit.chat.sent import SentTool
from toolkit.chat.sse import StreamDone, TextDelta
from toolkit.errors import (
    REPAIR_ZH,
    ArgError,
    ArgumentError,
    ConfigurationError,
    MaxRoundTripsError,
    ModelCallError,
    NotAStreamError,
    ToolExecutionError,
    ToolkitError,
    shown_name,
)
from toolkit.loop.call_ids import unique_call_ids
from toolkit.loop.call_names import bare_call_names
from toolkit.loop.cancel import STOP, cancelled
from toolkit.loop.cut_off import CUT_BY, cut_off, cut_short
from toolkit.loop.given import described, given_keywords, given_messages, nothing_to_ask
from toolkit.loop.images import pass_on_images
from toolkit.loop.payload import tools_payload
from toolkit.loop.records import (
    ABANDONED_TEXT,
    COURSE,
    FOUND_TOOLS,
    GUARD_TEXT,
    HANDOVER_ZH,
    NOT_RUN_TEXT,
    REPAIR_EN,
    REPAIR_HANDOVER_ZH,
    ClockReader,
    LoopEvent,
    LoopOptions,
    LoopResult,
    RoundTrace,
    ToolFinished,
    ToolStarted,
    found_names,
)
from toolkit.loop.result_size import CUT_NOTE, DEFAULT_CUTTING, MAX_RESULT_CHARS, Cutting, cut_results
from toolkit.loop.resume import configured_after_asking, tools_ran
from toolkit.loop.returns import should_return_immediately
from toolkit.loop.saga import (
    NOT_COMPENSATED_DETAIL,
    Compensation,
    SagaEntry,
    ToolExecution,
    compensate,
    compensations_from,
    compensations_in,
    joining_later,
    merged,
    rewrite,
    unknown_outcome,
)
from toolkit.loop.same_call import CallKey, same_call_key
from toolkit.loop.sources import ProviderRequest, ToolContext, ToolProvider, ToolRegistry, build_context
from toolkit.loop.time_limit import finished
from toolkit.loop.together import run_together
from toolkit.memory.answers import open_calls
from toolkit.memory.handouts import Handouts
from toolkit.memory.turns import TurnRLock, serving, wait_for_turn
from toolkit.memory.windows import SHOWN, ChatMemory, InMemoryStore, shown
from toolkit.tools import redact
from toolkit.tools.decorator import InvocationContext, ReturnBehavior, TurnParameters
from toolkit.tools.execute import Outcome, Policies, Tool, execution_failed, run_call
from toolkit.unicode import cut

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
    "REPAIR_HANDOVER_ZH",
    "REPAIR_ZH",
    "REPAIR_EN",
    "GUARD_TEXT",
    "NOT_RUN_TEXT",
    "ABANDONED_TEXT",
]

log: logging.Logger = logging.getLogger("toolkit.loop")


def run_loop(
    model: ChatModel,
    messages: Sequence[Message] | str,
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

    `messages`: the conversation so far, its last message the user's question; a `str` alone is
    read as that question (`run_loop(model, "…")` is `run_loop(model, [UserMessage(content="…")])`).
    An empty list goes on from the conversation in `memory`; with none there, it is a
    `ConfigurationError` (nothing to ask). The keyword arguments are those of `iter_loop`.
    """
    events = _turn(model, messages, tools, providers, registry, memory, options, parameters, context, events=False)
    while True:
        try:
            next(events)
        except StopIteration as done:
            return done.value
        except BaseException:  # one stopping `_OneTurn.__exit__` as it began left the turn's entry and hold
            if isinstance(memory, ChatMemory) and id(memory.lock) in _IN_TURN:
                _after_a_stale_turn(memory.lock, sys._getframe())
            raise


def iter_loop(
    model: ChatModel,
    messages: Sequence[Message] | str,
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

    Events: `TextDelta` / `ToolCallDelta` while a streamed reply arrives (`options.stream`; a turn
    handed over streams its hand-over sentence as one last `TextDelta`), `ToolStarted` before a call
    runs and `ToolFinished` after it (also for a call the loop answered without running it: the loop
    guard, or another call's failure stopped the round; a reply beyond `max_round_trips` ends the turn
    with none: its round records no execution, and a view shows its calls "not run"). The memory id's lock is held
    until the generator finishes, so two turns on one conversation never interleave: another thread's
    turn waits, and a turn of this thread started while the generator is suspended raises
    `ConfigurationError` (read it to the end or `close()` it).
    So does a turn on that memory started by one of the turn's own tools (on a concurrent round's
    thread too, which would otherwise wait for the turn that waits for it).
    """
    turn = _turn(model, messages, tools, providers, registry, memory, options, parameters, context)
    try:
        return (yield from turn)
    except BaseException as exc:
        if getattr(turn, "gi_frame", None) is not None:  # raised as the generator resumed (a Ctrl-C): told
            _told(turn, exc, None)
        if isinstance(memory, ChatMemory) and id(memory.lock) in _IN_TURN:  # as `run_loop` ends one
            _after_a_stale_turn(memory.lock, sys._getframe())
        raise


def _turn(
    model: ChatModel,
    messages: Sequence[Message] | str,
    tools: Sequence[Any],
    providers: Sequence[ToolProvider],
    registry: ToolRegistry | None,
    memory: ChatMemory | None,
    options: LoopOptions,
    parameters: Mapping[str, Any] | None,
    context: ToolContext | None,
    events: bool = True,
) -> Generator[LoopEvent, None, LoopResult]:
    """`iter_loop`; with `events=False` (`run_loop`, which drops them) no `ToolStarted` /
    `ToolFinished` is made or yielded (a streamed reply's deltas still are)."""
    if type(messages) is not list and type(messages) is not tuple:
        messages = given_messages(messages, "iter_loop" if events else "run_loop")
    if not (
        (memory is None or type(memory) is ChatMemory)
        and type(options) is LoopOptions
        and (
            parameters is None
            or type(parameters) is dict
            and (not parameters or all(type(k) is str for k in parameters))
        )
        and (context is None or type(context) is ToolContext)
    ):  # the usual call passes in four type tests (and one of each parameter's key, when parameters are given: about
        # 0.2 µs for two); anything else (a str's subclass as a key too) is looked at closely, once
        options = given_keywords("iter_loop" if events else "run_loop", memory, options, parameters, context)
    # the lock is taken before the question is stored: another process's whole turn cannot slip in
    # between this turn's question and its answer
    with nullcontext() if memory is None else _OneTurn(memory):
        if not messages and (memory is None or not memory.messages()):  # one test on the usual way
            raise nothing_to_ask("iter_loop" if events else "run_loop", memory)
        run = _Run(
            model, options, memory, messages, TurnParameters(parameters) if parameters else _NO_PARAMETERS, events
        )
        if context is None:  # only providers read the request (it copies the conversation)
            # without providers nobody reads the request (only providers add dynamic ones): the default's
            context = (
                build_context(tools, providers, registry, run.provider_request())
                if providers
                else build_context(tools, providers, registry)
            )
            run.tools_fixed = not context.dynamic and not context.hidden
        run.tools = context
        if options.compensate:  # misconfiguration shows at the start of the call, before any tool runs
            given = merged(options.compensations, compensations_in(tools))  # and those beside the tools
            run.later_compensations = joining_later(given, run.tools) if run.tools.dynamic else []
            ready = [fn for fn in given if fn not in run.later_compensations]
            run.compensations = compensations_from(ready, run.tools.available)
        go = adopt = None
        try:  # what escapes carries the turn so far (`_Run.carry`; a `with run:` without its two calls)
            lock = memory.lock if events and memory is not None else None
            adopt = getattr(lock, "adopt", None) if lock is not None else None
            go = run.go()
            steps = _handover_streamed(go) if options.stream and events else go
            if adopt is None:
                return (yield from steps)
            return (yield from _carried(steps, adopt, getattr(lock, "suspend", _nothing)))
        except BaseException as exc:
            if go is not None and getattr(go, "gi_frame", None) is not None:  # raised around the steps: they wait
                _told(go, exc, adopt)
            run.carry(exc)
            raise


def _handover_streamed(steps: Generator[LoopEvent, None, LoopResult]) -> Generator[LoopEvent, None, LoopResult]:
    """A streamed turn's steps, and the hand-over sentence as its last `TextDelta` when the loop hands
    over: a reader shows the text it is streamed, and the model never streamed that one."""
    result = yield from steps
    if result.finish == "handover":
        yield TextDelta(result.answer or "")
    return result


def _nothing() -> None:
    """A lock's `suspend` where it has none."""


def _told(steps: Generator[LoopEvent, None, LoopResult], exc: BaseException, adopt: Callable[[], None] | None) -> None:
    """Throw `exc` into the turn's `steps`, still suspended: it was raised around them, not in them (a Ctrl-C
    acted on as a generator wrapping them suspended or resumed: `_carried`'s `suspend()` / `adopt()`, the
    resumption of `iter_loop`'s or `_handover_streamed`'s frame), so they answer their round's calls as for
    an interruption inside them (and the turn carries `loop_result`). Left
    suspended, they kept the calls unanswered in memory, and wrote their answers whenever they were
    collected (after a later turn's messages: results answering no call)."""
    if adopt is not None:
        adopt()  # the lock's hold is this thread's, and the turn no longer suspended
    try:
        steps.throw(exc)
    except BaseException:  # `exc` again (the usual end), or what answering the calls raised: `exc` goes on
        pass


def _carried(
    turn: Generator[LoopEvent, None, LoopResult], adopt: Callable[[], None], suspend: Callable[[], None]
) -> Generator[LoopEvent, None, LoopResult]:
    """`yield from turn`, the memory's turn lock carried to whichever thread resumes it (`adopt`,
    `toolkit.memory.turns.TurnRLock`): an `iter_loop` generator read, or closed, from a thread
    pool writes to memory from the thread it is in. `run_loop` reads its turn in one thread.
    Between two events the lock knows the turn is suspended (`suspend`): a write to memory by
    its thread then would come inside the turn (`toolkit.memory.turns.write_hold` refuses it)."""
    try:
        event = next(turn)
    except StopIteration as done:
        return done.value
    while True:
        suspend()
        try:
            yield event
        except GeneratorExit:
            adopt()
            turn.close()
            raise
        except BaseException as exc:  # thrown in by the reader (`gen.throw`)
            adopt()
            try:
                event = turn.throw(exc)
            except StopIteration as done:
                return done.value
            continue
        adopt()
        try:
            event = next(turn)
        except StopIteration as done:
            return done.value


_NOT_REPORTED = TokenUsage(input_tokens=None, output_tokens=None)
"""The usage of a stand-in response that gives none."""

NOT_COMPENSATED = NOT_COMPENSATED_DETAIL.split(":", 1)[0] + ":"
"""How a saga log entry for a timed-out compensable call begins (`record_saga` words its warning apart)."""

_NO_PARAMETERS = TurnParameters()
"""The parameters of a turn given none (read-only: one for every such turn)."""

_NO_CONTEXT = ToolContext()
"""`_Run.tools` until `_turn` sets the turn's own (never read: a value from `__init__` keeps the run's
attributes in one shape, which Python reads quickest)."""

_NAMES_SHOWN = 10
"""The tool names an error about `tool_choice` lists at most."""

_turns = itertools.count(1)
"""The turn numbers (`next` on it is atomic: two threads never get one number)."""

_IN_TURN: dict[int, tuple[Any, int]] = {}
"""The turn locks of the turns in progress, by id, with the thread that began each turn (the entry
keeps its lock, and so its id, alive)."""


class _OneTurn:
    """Hold the memory id's turn lock for one turn. The lock is reentrant (a tool, or `ai_service`
    around the loop, may write to memory during the turn), so it cannot keep apart two turns of
    one thread: a suspended `iter_loop` generator and a new turn on the same id. That is refused,
    before the question is stored: the new turn would come between the first one's calls and
    their results (and the first one's results, written when it ends, after the new turn).
    A class, not a `contextmanager` generator: it is entered once per turn, and costs less.

    It is also the record of the turn's holds on a turn lock of the package (`TurnRLock._turn`): each hold taken in
    the turn while it runs counts on `holds`, each let go counts off, so that the turn lets go as it ends of holds
    a tool or the learner's code took in it and kept (a Ctrl-C as a `with memory.lock:`'s `__exit__` began), and of
    no other: not of a hold taken before the turn (`ai_service`'s, the learner's) nor of a later turn's (one whose
    `__enter__` collected this turn's dropped generator, which ended it)."""

    __slots__ = ("memory", "lock", "holds")

    def __init__(self, memory: ChatMemory) -> None:
        self.memory, self.lock = memory, memory.lock
        self.holds = 1
        """The holds on `lock` taken in this turn and not let go, its own first (counted on a `TurnRLock`)."""

    def __enter__(self) -> None:
        lock: Any = self.lock  # a `TurnRLock` (its `_turn` set below) or a store's own lock
        taken = False
        try:  # whatever stops it (a refusal, a Ctrl-C at any line) lets go of a hold it took (`with` ends no turn begun)
            taken = lock.acquire(False)
            if not taken:  # held: by another turn, or by the turn whose tool this is (it waits for us)
                if _holder(_IN_TURN.get(id(lock))) in serving():
                    raise self.nested(_ON_A_ROUND_THREAD)
                taken = wait_for_turn(lock, self.memory.id)
            counts = type(lock) is TurnRLock or isinstance(lock, TurnRLock)
            if id(lock) in _IN_TURN:
                if self.running(lock):
                    raise self.nested(_IN_THIS_THREAD)
                counted = int(counts and lock._turn is not None and not lock._suspended and lock._depth > 1)
                gc.collect()  # a generator dropped in a reference cycle is closed (and its turn ended) only by this
                if id(lock) in _IN_TURN and not _let_go_stale(lock, 1, None, counted):
                    raise ConfigurationError(
                        f"memory id {shown(self.memory.id)}: a turn on it is still in progress in this thread (an "
                        "iter_loop generator, or a streamed answer, not read to its end); read it to the end or "
                        "call its close() before starting another turn on this memory"
                    )
            if counts:
                lock._turn = self  # the turn's holds count on it from here
            _IN_TURN[id(lock)] = (lock, threading.get_ident())
        except BaseException:  # nothing raises once the entry is made: a turn that has it runs, and `__exit__` ends it
            if taken:
                if getattr(lock, "_turn", None) is self:
                    lock._turn = None
                lock.release()
            raise

    @staticmethod
    def running(lock: Any) -> bool:
        """Whether a turn holding `lock` is running below this one in the stack (a tool of it, or
        code that tool calls, started this turn), not suspended. Looked at only when refusing."""
        frame: FrameType | None = sys._getframe(3)  # past this method, `__enter__` and the new turn's `_turn`
        while frame is not None:
            if frame.f_code is _turn.__code__:
                memory = frame.f_locals.get("memory")
                if memory is not None and memory.lock is lock:
                    return True
            frame = frame.f_back
        return False

    def nested(self, where: str) -> ConfigurationError:
        """The refusal of a turn that a tool of the turn in progress started (`where` it runs)."""
        inner = repr(f"{self.memory.id}-inner")
        if len(inner) > SHOWN:  # a long id (a document passed as one): the fix written as code, not the id
            inner = "memory.id + '-inner'"
        return ConfigurationError(
            f"memory id {shown(self.memory.id)}: a turn on it is still in progress {where}; a turn inside a tool "
            f"needs its own memory: pass e.g. memory=ChatMemory({inner}), or none"
        )

    def __exit__(self, *exc: Any) -> None:
        depth = 0  # a Ctrl-C here, or as the call began, leaves a stale entry: the next turn ends it (`_let_go_stale`)
        try:  # one at any line below still ends the turn: the hold let go, the entry gone (`_let_go`)
            lock = self.lock
            if self.holds > 1:  # holds taken in the turn and kept (a Ctrl-C as a `with memory.lock:`'s exit began)
                _let_go_kept(lock, self, 0)
            del _IN_TURN[id(lock)]
            if type(lock) is TurnRLock:  # its `__exit__` is `release`
                lock._turn = None
                depth = lock._depth
                lock.release()
            else:
                if isinstance(lock, TurnRLock):
                    lock._turn = None
                depth = getattr(lock, "_depth", -1)
                lock.__exit__(*exc)
        except BaseException as stop:
            _let_go(self.lock, depth, self)
            _after_the_turn(stop, exc[1])
            raise


_IN_THIS_THREAD = "in this thread (a tool of that turn, or code it calls, started this one)"
_ON_A_ROUND_THREAD = "(a tool of that turn, run on another thread while the turn waits for it, started this one)"
"""Where `_OneTurn.nested` says the refused turn was started: a concurrent round's tool, or one under
`tool_timeout`, runs on another thread than the turn's (saying "in this thread" there was untrue)."""


def waited_for_here(memory: ChatMemory) -> ConfigurationError | None:
    """The refusal of a turn on `memory` asked for on a thread whose call the turn holding `memory`
    waits for (a concurrent round's, or one under `tool_timeout`: `serving()`), None elsewhere. For
    code that takes the memory's lock before the loop does (`ai_service`): waiting for it there
    would wait for the turn that waits for this thread."""
    if _holder(_IN_TURN.get(id(memory.lock))) in serving():
        return _OneTurn(memory).nested(_ON_A_ROUND_THREAD)
    return None


def _let_go(lock: Any, depth: int, turn: _OneTurn | None = None, own: int = 0) -> None:
    """End the turn holding `lock` whose `_OneTurn.__exit__` was stopped part-way (a Ctrl-C), as it would have:
    its `_IN_TURN` entry removed, the holds taken in it and kept let go (`_let_go_kept`: `turn`, the lock's
    `_turn` if None is given; `own`, the caller's holds counted on it), and its hold let go unless that was done
    (`depth`: the lock's holds read before letting go, 0 when not read yet, -1 for a lock that does not tell, let
    go if this thread holds it). A lock of the package finishes a release begun (`TurnRLock._let_go`): one it did
    not let go still has `depth` holds."""
    if isinstance(lock, TurnRLock):
        turn = lock._turn if turn is None else turn
        if turn is not None and lock._turn is turn:
            _let_go_kept(lock, turn, own)
            lock._turn = None
    if _IN_TURN.get(id(lock), _NO_TURN)[0] is lock:
        del _IN_TURN[id(lock)]
        depth = 0
    if depth == 0 or (lock._owner == threading.get_ident() and lock._depth == depth if depth > 0 else lock._is_owned()):
        lock.release()


def _let_go_kept(lock: Any, turn: _OneTurn, own: int) -> None:
    """Let go of the holds on `lock` taken in `turn` and kept (a Ctrl-C as a `with memory.lock:`'s `__exit__` began,
    in a tool or the learner's code), down to the turn's own and `own` (the caller's, counted on it): each
    `release` counts itself off `turn.holds` in the step that lets go (`TurnRLock.release`), so one stopped here
    leaves the count exact."""
    lock._suspended = False  # the turn is ending: not suspended (its holds count off)
    me = threading.get_ident()
    while turn.holds > 1 + own and lock._owner == me and lock._depth > 1:
        lock.release()


def _after_a_stale_turn(lock: Any, frame: FrameType) -> None:
    """End the turn an exception being handled in `frame` (`run_loop`'s, `iter_loop`'s) left holding `lock`, if
    it did (`_let_go_stale`), and tell that exception what had happened (`_after_the_turn`)."""
    stop = sys.exc_info()[1]
    if _let_go_stale(lock, 0, frame) and stop is not None:
        _after_the_turn(stop, stop.__context__)


def _after_the_turn(stop: BaseException, body: BaseException | None) -> None:
    """Tell `stop`, raised as a turn let go of its memory's lock, what had happened: with `body` None the turn
    had ended (`ENDED_STOPPED`); else `stop` carries the turn as `body`, what the turn raised, carries it."""
    if body is None:
        _noted(stop, ENDED_STOPPED)
    elif hasattr(body, "loop_result") and not hasattr(stop, "loop_result"):
        try:
            stop.loop_result, stop.saga = body.loop_result, getattr(body, "saga", [])  # type: ignore[attr-defined]
        except (AttributeError, TypeError):  # an exception that takes no attributes goes on without them
            pass


ENDED_STOPPED = (
    "This turn had ended when this came, as it let go of its memory: memory holds all of it, answer included "
    "(memory.messages() shows it); nothing needs to run or be asked again."
)
"""Noted on an exception (a Ctrl-C) that stopped a turn as it let go of its memory's lock, after its end."""


_NO_TURN = (None, 0)
"""What `_let_go` reads for a lock without an `_IN_TURN` entry."""


def _let_go_stale(lock: Any, own: int, frame: FrameType | None, counted: int = 0) -> bool:
    """Whether the `_IN_TURN` entry of `lock` was left by a turn of this thread that has ended (a Ctrl-C as its
    `_OneTurn.__exit__` began): this thread holds `lock` more than `own` times (the holds of the caller's own: 1 as
    a turn begins, 0 after one), no turn on it runs in `frame` or below it, nor is suspended; if so, the turn is
    ended as it would have (`_let_go`). Looked at only after a turn raised with the entry there, or when refusing
    one (whose `_OneTurn.running` looked at the frames: None). `counted`: the caller's holds counted on the turn
    that left it (`_OneTurn.holds`), which stay the caller's."""
    owned = lock._owner == threading.get_ident() if isinstance(lock, TurnRLock) else lock._is_owned()
    if not owned or getattr(lock, "_depth", own + 1) <= own:
        return False
    while frame is not None:
        if frame.f_code is _turn.__code__ and frame.f_locals.get("memory") is not None:
            if frame.f_locals["memory"].lock is lock:
                return False
        frame = frame.f_back
    for found in gc.get_objects():
        if type(found) is GeneratorType and found.gi_code is _turn.__code__ and found.gi_suspended:
            memory = getattr(found.gi_frame, "f_locals", {}).get("memory")  # a suspended one has its frame
            if memory is not None and memory.lock is lock:
                return False
    _let_go(lock, 0, None, counted)
    return True


def _holder(turn: tuple[Any, int] | None) -> int | None:
    """The thread holding a turn's lock (an `_IN_TURN` entry), None for no turn: a `TurnRLock`
    knows it (a turn carries it from thread to thread); a store's own lock (a `threading.RLock`,
    whose owner no other thread can read) stays with the thread that began the turn."""
    if turn is None:
        return None
    lock, began = turn
    return lock._owner if isinstance(lock, TurnRLock) else began


def _no_memory(messages: Sequence[Message]) -> None:
    raise AssertionError("the turn has no memory to write to")


class _Run:
    timed_out: frozenset[int] | set[int] = frozenset()
    """The ids of the results of the turn's calls past `tool_timeout` (`within`): set on the first one, so
    a turn without a limit never makes it."""

    def __init__(
        self,
        model: ChatModel,
        options: LoopOptions,
        memory: ChatMemory | None,
        messages: Sequence[Message],
        parameters: TurnParameters,
        events: bool = True,
    ) -> None:
        self.model, self.options, self.memory, self.parameters = model, options, memory, parameters
        self.write: Callable[[Sequence[Message]], None] = _no_memory
        """How the turn writes to memory: it holds the memory's lock all along (a subclass's own `add_all`,
        if it has one, is called as it is)."""
        if memory is not None:
            self.write = memory.add_all_held if type(memory) is ChatMemory else memory.add_all
        self.turn = next(_turns)
        """This turn's number (`ProviderRequest.turn`, `InvocationContext.turn`)."""
        self.stop = STOP.get()
        """Set when the task awaiting this turn's thread was cancelled (`toolkit.loop.cancel`): None but there."""
        if self.stop is not None and self.stop.is_set():  # while it waited for the turn lock: store nothing
            raise cancelled(None)
        self.events = events
        """Whether `execute` yields `ToolStarted` / `ToolFinished` (`run_loop` drops them: not made)."""
        self.history: list[Message] = list(messages) if memory is None else []  # the caller's list stays as it is
        self.handouts = Handouts() if memory is None else None
        """Without memory: the list the model was sent, sent again when it let go of it (a long
        history is not copied for every request; `toolkit.memory.handouts`)."""
        self.new: list[Message] = []
        self.rounds: list[RoundTrace] = []
        self.tool_rounds = 0
        """How many of `rounds` asked for tools (the round trips so far)."""
        self.saga: list[SagaEntry] = []
        self.repairs: dict[str, int] = {}  # tool name -> rounds its argument errors were fed back
        self.guarded_rounds = 0
        self.call_keys: dict[int, tuple[ToolCall, CallKey]] = {}
        self.succeeded: set[CallKey] = set()
        """The keys of the calls that succeeded in the first `rounds_read` rounds (`succeeded_before`)."""
        self.rounds_read = 0
        self.started: set[str] = set()
        """Ids of the calls of this round that began to run (an interrupt leaves their outcome unknown)."""
        self.compensated: set[tuple[int, str]] = set()
        """(round, call id) of the calls a saga tried to undo: never tried twice (a model may reuse
        an id in a later round, so the id alone does not name the call)."""
        self.answered = 0
        """The last round whose results were recorded (step 4 or 8)."""
        self.unsaved: Sequence[Message] = ()
        """Results recorded in `new` that memory refused (its store failed)."""
        self.memory_behind = False
        """Whether memory lacks results this turn recorded in `new` (its store refused them, or the saga's
        rewrite): a note on the error says so, and where they are."""
        self.asking = False
        """Whether the turn stopped in a request to the model (it failed, or was interrupted): no round records it."""
        self.ended: tuple[str, str | None, Sequence[ToolResultMessage]] | None = None
        """The finish, answer and immediate results of a turn that had ended when reading memory back
        for its result failed (`result`): memory holds all of it."""
        self.tools: ToolContext = _NO_CONTEXT  # the turn's own, set by `_turn`
        self.tools_fixed = False
        """Whether `tools` stays as it is all turn: `_turn` built it, no dynamic provider adds to it and
        no tool search reveals any (a `context=` of the caller's own may change between two requests)."""
        self.fixed_tools: tuple[tuple[str, ...], tuple[SentTool, ...]] | None = None
        """The names and `tools` array entries of fixed `tools` (`tools_payload`), read in the first request."""
        self.compensations: dict[str, Compensation] = {}
        self.later_compensations: list[Callable[..., Any]] = []
        """Compensations of tools a dynamic provider has not added yet: checked when the tool joins."""
        self.texts = options.texts
        limit, note = options.max_result_chars, options.texts.result_cut
        self.cutting = DEFAULT_CUTTING if limit == MAX_RESULT_CHARS and note is CUT_NOTE else Cutting(limit, note)
        """Where a tool's error text is cut while its secrets are masked (`Tool.run`): as any result is."""
        self.clock: Callable[[], float] = options.clock
        """The options' clock; one of one's own read through a `ClockReader` (a failure keeps the call's result)."""
        self.clock_reader: ClockReader | None = None
        if options.clock is not time.perf_counter:
            self.clock = self.clock_reader = ClockReader(options.clock, self.rounds)
        if memory is not None:
            try:
                unanswered = self.answer_open_calls(memory)
                if unanswered is not None and messages:
                    messages = self.asked_again(unanswered, messages)
                if messages:
                    self.write(messages)  # the caller's list as it is: a long history is not unpacked
            except BaseException as exc:  # the store refused the question (or Ctrl-C): it goes with the turn so far
                self.carry(exc)
                raise

    def answer_open_calls(self, memory: ChatMemory) -> Message | None:
        """Calls an earlier turn left without results (its process was killed while a tool ran,
        its store refused the results twice) are answered "not completed" before this turn's
        question: else a strict gateway refuses every later request on this id. The turn lock
        is held, so no turn in progress is waiting for them. One read of memory per turn (an
        `InMemoryStore`'s list is read in place, not copied: the lock keeps other turns out).
        Returns the last stored message when it is a question no turn answered (`asked_again`)."""
        store = memory.store
        stored = store._data.get(memory.id, ()) if type(store) is InMemoryStore else memory.messages()
        left = open_calls(stored)
        if left:
            log.warning(
                "%s: answering calls an earlier turn left unanswered: %s", self.subject, ", ".join(c.id for c in left)
            )
            self.write([_error_result(c, self.texts.unfinished) for c in left])
            return None
        last = stored[-1] if stored else None
        return last if type(last) is UserMessage and not last.from_tool_calls else None

    def asked_again(self, unanswered: Message, messages: Sequence[Message]) -> Sequence[Message]:
        """`messages` without their last one when it is `unanswered`, the question memory ends with: a
        turn whose first request failed (a 503, a cut stream, Ctrl-C) kept it, and the learner asks it
        again (runs the cell again). Stored twice, the model would read it twice, and a gateway that
        wants user and assistant in turn refuses two user messages in a row."""
        if messages[-1] != unanswered:
            return self.after_unanswered(messages)
        log.info("%s: the question an earlier turn left unanswered is asked again: kept once", self.subject)
        return messages[:-1]

    def after_unanswered(self, messages: Sequence[Message]) -> Sequence[Message]:
        """`messages` (another question) after the one memory ends with, which no turn answered: the
        loop's note that it got no answer (`LoopTexts.unanswered`) goes before the first question. The
        question stays (as LangChain4j's memory and the OpenAI Agents SDK's session keep it), but two
        user messages in a row read as one still asked, and a chat template that wants user and
        assistant in turn (vLLM serving Mistral, Gemma) refuses every later request of the memory."""
        first = next((i for i, m in enumerate(messages) if type(m) is not SystemMessage), None)
        if first is None or type(messages[first]) is not UserMessage:
            return messages
        log.info("%s: another question after one an earlier turn left unanswered: noted between them", self.subject)
        note = AssistantMessage(content=self.texts.unanswered)
        return [*messages[:first], note, *messages[first:]]

    # -- conversation ------------------------------------------------------------------
    def conversation(self) -> list[Message]:
        """What the model is sent: a list of the caller's own, whoever keeps or changes it."""
        if self.handouts is None:
            memory = self.memory
            if type(memory) is ChatMemory:  # its `messages()`, without the frame
                return memory.store.get(memory.id)
            return memory.messages()  # type: ignore[union-attr]
        return self.handouts.hand_out("history", self.history)

    def goes_on_from_results(self) -> bool:
        """Does the conversation given end in tool results (a call going on after its tools ran)? Read only
        for a `tool_choice` that forces a call, before any round."""
        given = self.history if self.memory is None else self.memory.messages()
        return bool(given) and isinstance(given[-1], ToolResultMessage)

    def append(self, *messages: Message) -> None:
        self.new += messages
        if self.memory is not None:
            self.write(messages)
        else:
            self.history += messages

    def misfit(self) -> ConfigurationError | None:
        """The error to raise when the caller's list holds something that is not a message (a
        model fails on it: looked for only then, not on every call: a long history costs ~25 ns a
        message to check). With memory, `ChatMemory` refused it on writing."""
        if self.memory is not None:
            return None
        where = "iter_loop" if self.events else "run_loop"
        return misfit_error(self.history, where, also=" (or the question alone as a str)")

    def wrong_model(self) -> ConfigurationError | None:
        """The error to raise when `model` is no chat model (a model name, `None`, the class
        `ScriptedModel` itself): looked for only when asking it failed, as `misfit` is."""
        model, method = self.model, "stream" if self.options.stream else "chat"
        if not isinstance(model, type) and callable(getattr(model, method, None)):
            return None
        where = "iter_loop" if self.events else "run_loop"
        if isinstance(model, type):
            problem, fix = f"the class {model.__name__}", f"pass an instance, e.g. {model.__name__}(...)"
        elif isinstance(model, str):
            problem = f"the str {model!r}"
            fix = f"a model name is no model: pass connect() with LLM_MODEL={model} set, or ChatClient(base_url, api_key, {model!r})"
        elif callable(getattr(model, "chat", None)):  # LoopOptions(stream=True), a model that cannot stream
            return ConfigurationError(
                f"{where}: the model ({type(model).__name__}) has no stream(), which LoopOptions(stream=True) asks "
                "for; leave stream out, or pass a model that streams (ChatClient, ScriptedModel)"
            )
        else:
            problem, fix = described(model), "pass e.g. connect(), fake_client() or ScriptedModel([...])"
        return ConfigurationError(
            f"{where}: the model must be a chat model (with chat(messages, ...)), and got {problem}; {fix}"
        )

    def unoffered(self, name: str, names: Sequence[str]) -> ConfigurationError:
        """The error for a `tool_choice` naming a tool the request does not offer (a typo, a tool a provider no
        longer lists): sent, it came back as the gateway's 400, which OpenAI words "tool 'x' is not among the
        'tools' of this request"."""
        where = "iter_loop" if self.events else "run_loop"
        shown = ", ".join(repr(n) for n in sorted(names)[:_NAMES_SHOWN])
        more = f" and {len(names) - _NAMES_SHOWN} more" if len(names) > _NAMES_SHOWN else ""
        return ConfigurationError(
            f"{where}: LoopOptions(tool_choice=...) names the tool {cut(name, 60, '...')!r}, which this request does "
            f"not offer (it offers {shown}{more}); name one of those, or pass tool_choice='required' to have the "
            "model pick one"
        )

    def broken(self, what: str, method: str = "stream") -> ConfigurationError:
        """The error for a model whose `method` broke the chat model's contract (`what` it did):
        a learner's own model, say, whose stream() leaves out `StreamDone`."""
        where = "iter_loop" if self.events else "run_loop"
        rule = STREAM_RULE if method == "stream" else CHAT_RULE
        return ConfigurationError(f"{where}: the model ({type(self.model).__name__}).{method}() {what}; {rule}")

    def provider_request(self) -> ProviderRequest:
        return ProviderRequest(tuple(self.conversation()), self.memory_id, self.turn)

    @property
    def memory_id(self) -> Any:
        return self.memory.id if self.memory is not None else None

    @property
    def subject(self) -> str:
        """Whose turn a log line is about: `memory id 'u7'`, or a turn without memory (not "memory id None")."""
        return f"memory id {shown(self.memory.id)}" if self.memory is not None else "a turn without memory"

    # -- the loop ----------------------------------------------------------------------
    def __enter__(self) -> _Run:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, trace: Any) -> None:
        """Whatever escapes the turn (a gateway failure, a raised policy, a memory store that
        fails, Ctrl-C) carries the turn so far: what earlier rounds ran goes with the error."""
        if exc is not None:
            self.carry(exc)

    def go(self) -> Generator[LoopEvent, None, LoopResult]:
        if self.tools.hidden:  # else nothing can be revealed: no copy of the conversation
            self.reveal_found(self.conversation())
        while True:
            if self.stop is not None and self.stop.is_set():  # `in_thread`'s task was cancelled
                raise cancelled(f"model request {len(self.rounds) + 1}")
            try:
                trace = yield from self.send()  # 1
            except BaseException:  # no round records the request that failed: `stopped_where` names it
                self.asking = True
                raise
            try:
                self.append(trace.reply)  # 2
            except BaseException as exc:  # a write that went through, then raised: its calls never ran
                if trace.reply.tool_calls and self.memory is not None:
                    self.answer_never_run(trace, exc)
                raise
            if not trace.reply.tool_calls:  # 3
                trace.decision = "answer"
                return self.result("answer", trace.reply.text)
            try:
                if self.tool_rounds > self.options.max_round_trips:  # 4 (`round_trips()`)
                    return self.limit(trace)
                yield from self.execute(trace)  # 5
                stop = None
                for e in trace.executions:  # the first raised failure (a loop: no generator per round)
                    if e.raised is not None:
                        stop = e
                        break
                handover = None if stop or self.options.argument_repair is None else self.repair(trace)  # 6
                results = self.compensate(trace, stop, handover)  # 7
                self.append_results(trace, results)  # 8
            except BaseException as exc:  # interrupted, or memory failed: answer what is unanswered
                self.abandon(trace, exc)
                raise
            if stop is not None:
                raise self.stopped(trace, stop)
            if self.clock_reader is not None and self.clock_reader.problem is not None:
                trace.decision = "stopped: ConfigurationError"
                raise self.clock_reader.failure()
            if handover:
                trace.decision = f"hand over: {handover}"
                return self.handover(self.options.repair_handover_text)
            if self.immediate(trace):  # 9
                trace.decision = "return immediately"
                return self.result("immediate", None, immediate=results)
            if self.guard_exhausted(trace):  # 10
                rounds = "1 round" if self.guarded_rounds == 1 else f"{self.guarded_rounds} rounds"
                trace.decision = f"hand over: the model repeated guarded calls in {rounds}"
                return self.handover(self.texts.guard_handover)
            limit = self.options.max_model_requests  # `model_requests_spent()`, written out
            if limit is not None and len(self.rounds) >= limit:
                return self.request_limit(trace)
            trace.decision = "continue"
            self.refresh(results)

    def send(self) -> Generator[LoopEvent, None, RoundTrace]:
        fixed = self.fixed_tools  # the turn's own tools, fixed for it: their array read in its first round
        if fixed is None:
            tools = self.tools  # nothing held back: every available tool is sent (`effective`, without the copy)
            effective = tools.available.values() if type(tools) is ToolContext and not tools.hidden else tools.effective
            fixed = tools_payload(effective, self.options.strict_tools)  # type: ignore[arg-type]
            if self.tools_fixed:
                self.fixed_tools = fixed
        names, sent = fixed
        payload: list[dict[str, Any]] = list(sent)  # the request's own list: appending to it changes no other request
        choice = self.options.tool_choice if payload else None
        if choice is not None and choice != "auto" and choice != "none":
            if self.options.reset_tool_choice:
                choice = "auto" if self.tool_rounds or self.goes_on_from_results() else choice  # `reset_tool_choice`
            if not isinstance(choice, str) and choice["function"]["name"] not in names:
                raise self.unoffered(choice["function"]["name"], names)
        sending, extra = payload or None, self.options.request_extra
        try:
            if self.options.stream:
                streamed = self.model.stream(self.conversation(), tools=sending, tool_choice=choice, **extra)
                response = yield from _streamed(streamed, self.broken)
            elif extra:
                response = self.model.chat(self.conversation(), tools=sending, tool_choice=choice, **extra)
            else:  # the usual request: its keywords passed as they are, no dict made for them
                response = self.model.chat(self.conversation(), tools=sending, tool_choice=choice)
            if type(response) is not ChatResponse and not isinstance(response, ChatResponse):  # a stand-in, or none
                response = self.stand_in(response)
        except (AttributeError, TypeError, KeyError, ConfigurationError) as failure:  # a dict in the caller's list, say
            misfit = (self.wrong_model() or self.misfit()) if not self.rounds else None
            if misfit is not None:  # named as the loop names it, whether the model named it (the client does) or not
                raise misfit from (failure.__cause__ or failure if isinstance(failure, ConfigurationError) else failure)
            raise
        except StopIteration as failure:  # `next(replies)` run out: the loop is a generator, which cannot pass it on
            what = "raised StopIteration (an iterator it reads had no item left: its replies ran out?)"
            raise self.broken(what, "stream" if self.options.stream else "chat") from failure
        except ModelCallError as failure:  # after tools ran, running the turn again may run them again: say so
            if isinstance(failure, NotAStreamError):  # the client's fix names stream(), which the loop called
                failure.hint = NOT_STREAMED_HINT
            tools_ran(failure, self.rounds, self.memory is not None)
            raise
        index = len(self.rounds) + 1
        reply, notes = (
            unique_call_ids(response.message, index) if response.message.tool_calls else (response.message, [])
        )
        available = self.tools.available
        for call in reply.tool_calls:  # `bare_call_names` only for a name with a namespace's dot that is no tool's
            if "." in call.name and call.name not in available:  # the usual reply (and an unknown bare name) skips it
                reply, named = bare_call_names(reply, available)
                notes += named
                break
        trace = RoundTrace(
            index,
            list(names),
            payload,
            choice,
            reply,
            response.usage,
            finish_reason=response.finish_reason,
            notes=notes,
            sources=response.sources,
        )
        self.rounds.append(trace)
        self.tool_rounds += bool(reply.tool_calls)
        return trace

    def stand_in(self, response: Any) -> ChatResponse:
        """A learner's stand-in response (`_is_response`: its message an `AssistantMessage`) as a
        `ChatResponse`: a usage or finish reason it leaves out (or gives as None) is not reported;
        one of another kind breaks the rule (`broken`), as anything else chat() returns does."""
        method = "stream" if self.options.stream else "chat"
        if not _is_response(response):  # `_streamed` checked a stream's
            raise self.broken(f"returned {described(response)}", "chat")
        usage = getattr(response, "usage", None)
        finish = getattr(response, "finish_reason", None)
        if usage is not None and not isinstance(usage, TokenUsage):
            raise self.broken(f"returned a response whose usage is {described(usage)}, not a TokenUsage", method)
        if finish is not None and not isinstance(finish, str):
            raise self.broken(f"returned a response whose finish_reason is {described(finish)}, not a str", method)
        return ChatResponse(message=response.message, finish_reason=finish, usage=usage or _NOT_REPORTED)

    def round_trips(self) -> int:
        """The rounds so far that asked for tools (counted as they come: a long turn is not read again each round)."""
        return self.tool_rounds

    # -- the bounds and hand-overs ------------------------------------------------------
    def limit(self, trace: RoundTrace) -> LoopResult:
        """Step 4: a tool-calling reply beyond `max_round_trips` (LangChain4j's default, not its
        check: see the module docstring)."""
        limit = self.options.max_round_trips
        text = self.texts.not_run_limit.format(limit=limit)
        self.answer(trace, [_error_result(c, text) for c in trace.reply.tool_calls])  # no dangling call
        trips = "round trip" if limit == 1 else "round trips"
        trace.decision = f"limit of {limit} tool {trips} reached"
        log.warning("%s: the limit of %d tool %s was reached", self.subject, limit, trips)
        return self.stop_at_limit(
            f"the model asked for tools in more than {limit} {trips}; "
            "something is wrong (raise max_round_trips if this is expected)"
        )

    def model_requests_spent(self) -> bool:
        limit = self.options.max_model_requests
        return limit is not None and len(self.rounds) >= limit

    def request_limit(self, trace: RoundTrace) -> LoopResult:
        """Step 10: the week-3 course's `while (round < MAX_ROUNDS)` ended with the model still calling tools."""
        limit = self.options.max_model_requests
        requests = "model request" if limit == 1 else "model requests"
        trace.decision = f"limit of {limit} {requests} reached"
        log.warning("%s: the limit of %s %s was reached", self.subject, limit, requests)
        return self.stop_at_limit(
            f"the model still asked for tools after {limit} {requests}; "
            "something is wrong (raise max_model_requests if this is expected)",
            "max_model_requests",
        )

    def stop_at_limit(self, error: str, option: str = "max_round_trips") -> LoopResult:
        """A limit was reached: hand over (`on_limit="handover"`) or raise `MaxRoundTripsError(error)`
        (its hint names `option`, the limit reached)."""
        if self.options.on_limit != "handover":
            raise MaxRoundTripsError(error, option=option)
        return self.handover(self.options.handover_text)

    def guard_exhausted(self, trace: RoundTrace) -> bool:
        for e in trace.executions:  # a loop, not `any` of a generator: asked every round
            if e.error_kind == "guard":
                break
        else:
            return False
        self.guarded_rounds += 1
        limit = self.options.guard_handover_after
        return limit is not None and self.guarded_rounds >= limit

    def handover(self, text: str) -> LoopResult:
        self.append(AssistantMessage(content=text))
        return self.result("handover", text)

    # -- step 5: execution -------------------------------------------------------------
    def execute(self, trace: RoundTrace) -> Generator[LoopEvent, None, None]:
        """Run the round's calls; a raised failure stops calls not yet started (never raises)."""
        calls = trace.reply.tool_calls
        options = self.options
        policies = options.policies if options.argument_repair is None else repaired_policies(options)  # `policies`
        memory_id, turn = (self.memory.id if self.memory is not None else None), self.turn
        # the call whose policy raised first: a list's append and read are each atomic, so concurrent
        # calls need no lock around it (the list only grows: one that saw it empty has started)
        stopper: list[tuple[ToolCall, Exception]] = []
        self.started = set()  # an id may come again in a later round: only this round's count
        succeeded = self.succeeded_before() if self.options.loop_guard else None
        offered = trace.tools_sent if self.tools.hidden else None  # an unknown name's error lists what the model saw
        cut = trace.finish_reason if trace.finish_reason in CUT_BY else None  # "length", "content_filter"
        clock = self.clock
        available = self.tools.available
        limit = options.tool_timeout
        cutting = self.cutting

        def one(call: ToolCall) -> ToolExecution:
            if stopper:
                return self.not_run(trace, call, *stopper[0])
            self.started.add(call.id)
            start = clock()
            own = InvocationContext(memory_id, self.parameters, call, turn)
            outcome = (self.guard(call, succeeded) if succeeded else None) or (  # no earlier success: nothing to ask
                cut_short(call, calls, available, policies, cut, cutting) if cut else None
            )
            if outcome is None:  # `run_call`: the tool found by name runs it (an unknown name goes there)
                found = available.get(call.name)
                if found is None:
                    outcome = run_call(call, available, own, policies, offered, cutting)
                elif limit is None:
                    outcome = found.run(call, own, policies, cutting)
                else:  # on a kept thread, waited for at most `limit` s
                    outcome = self.within(limit, found, call, own, policies)
            if cut and outcome.error_kind == "argument":  # a reply cut off by its length limit, or a filter
                outcome = cut_off(call, calls, outcome, policies, cut, cutting)
            if outcome.raised is not None:
                stopper.append((call, outcome.raised))
            return ToolExecution(
                trace.index,
                call,
                outcome.result,
                clock() - start,
                outcome.error_kind,
                context=own,
                raised=outcome.raised,
            )

        running = getattr(self.memory.lock, "tools_running", None) if self.memory is not None else None
        if running is not None:
            running(True)  # a tool's write to this memory would come between the calls and their results
        try:
            events, stop = self.events, self.stop
            if self.options.concurrent and len(calls) > 1:
                if stop is not None and stop.is_set():
                    raise cancelled(f"the calls of model request {trace.index}")
                for c in calls if events else ():
                    yield ToolStarted(trace.index, c)
                executions = run_together(one, calls, self.options.max_workers, trace)
                # every call has run: all are recorded before the first finish is announced (a reader
                # that stops there leaves the others' real results, not "outcome unknown")
                trace.executions.extend(executions)
                for execution in executions if events else ():
                    yield ToolFinished(execution)
            else:
                for c in calls:
                    if stop is not None and stop.is_set():
                        raise cancelled(f"tool call {c.id} ({shown_name(c.name)}) of model request {trace.index}")
                    if events and not stopper:
                        yield ToolStarted(trace.index, c)
                    execution = one(c)
                    trace.executions.append(execution)
                    if events:
                        yield ToolFinished(execution)
        finally:
            if running is not None:
                running(False)

    def within(
        self, limit: float, found: Tool, call: ToolCall, context: InvocationContext, policies: Policies
    ) -> Outcome:
        """`found.run(...)` given at most `limit` seconds (`toolkit.loop.time_limit`); past it, the call
        is answered `texts.timed_out` through the execution policy, its cause a `TimeoutError`."""
        cutting = self.cutting
        outcome = finished(functools.partial(found.run, call, context, policies, cutting), limit)
        if not isinstance(outcome, Outcome):  # TIMED_OUT: the call goes on, its later value dropped
            seconds = f"{limit:g}"
            text = self.texts.timed_out.format(tool=repr(shown_name(call.name)), seconds=seconds)
            failure = ToolExecutionError(text, tool_name=call.name)
            failure.__cause__ = TimeoutError(f"no result within {seconds} s")
            outcome = execution_failed(call, failure, policies, cutting)
            # set only here (a dict's setdefault is atomic: concurrent calls may time out together)
            self.__dict__.setdefault("timed_out", set()).add(id(outcome.result))
        return outcome

    def not_run(self, trace: RoundTrace, call: ToolCall, stopped_by: ToolCall, error: Exception) -> ToolExecution:
        text = self.texts.not_run.format(tool=shown_name(stopped_by.name), error=type(error).__name__)
        return ToolExecution(trace.index, call, _error_result(call, text), 0.0, "not_run")

    @property
    def policies(self) -> Policies:
        """The error policies of this run: the options', with the repair text when `argument_repair`
        is on (`repaired_policies`, made once per options object: a `cached_property` costs more to fill)."""
        if self.options.argument_repair is None:
            return self.options.policies
        return repaired_policies(self.options)

    def guard(self, call: ToolCall, succeeded: set[CallKey] | None) -> Outcome | None:
        """The loop guard: a call identical to an earlier successful one of this turn is not run."""
        if not succeeded or self.call_key(call) not in succeeded:  # nothing earlier succeeded: no key to work out
            return None
        return Outcome(_error_result(call, self.texts.guard.format(tool=call.name)), "guard")

    def succeeded_before(self) -> set[CallKey]:
        """The calls of this turn's earlier rounds that succeeded and were not rolled back, as
        (name, canonical arguments), so the guard looks a call up instead of comparing it with
        every earlier one. Each round is read once, when the next one runs (a long turn is not
        read again each round); a roll-back changes earlier rounds, so all are read again."""
        earlier = len(self.rounds) - 1
        for r in self.rounds[self.rounds_read : earlier]:
            self.succeeded.update(
                self.call_key(e.call) for e in r.executions if e.succeeded and e.rolled_back_by is None
            )
        if earlier > self.rounds_read:
            self.rounds_read = earlier
        return self.succeeded

    def call_key(self, call: ToolCall) -> CallKey:
        """`same_call_key(call)`, worked out once per call of this turn (a call is frozen, and kept in
        `rounds`, so its id stays its own)."""
        known = self.call_keys.get(id(call))
        if known is None or known[0] is not call:
            known = self.call_keys[id(call)] = (call, same_call_key(call))
        return known[1]

    def abandon(self, trace: RoundTrace, exc: BaseException) -> None:
        """The round stopped before its results were recorded (interrupted, or memory failed):
        keep the results that exist (rolled back where a saga undid them), answer the rest, so
        memory holds no call without its result. A store that fails again is noted on `exc`;
        the results are then in `new_messages` (the `loop_result` the error carries)."""
        if self.answered == trace.index:  # step 4 or 8 recorded them; memory may have refused
            if self.unsaved:
                self.save_again(exc)
                trace.decision = trace.decision or f"stopped: {type(exc).__name__}"
            return
        error = type(exc).__name__
        before, running = self.texts.interrupted.format(error=error), self.texts.interrupted_running.format(error=error)
        done = {e.call.id: self.round_result(e) for e in trace.executions}
        results = [
            done.get(c.id) or _error_result(c, running if c.id in self.started else before)
            for c in trace.reply.tool_calls
        ]
        try:
            self.append_results(trace, results)
        except Exception as failure:
            self.save_again(exc, failure)
        trace.decision = f"stopped: {type(exc).__name__}"
        if isinstance(exc, KeyboardInterrupt) and self.options.tool_timeout is None:
            still = [c for c in trace.reply.tool_calls if c.id in self.started and c.id not in done]
            if still:
                self.no_limit_note(exc, still)

    def no_limit_note(self, exc: KeyboardInterrupt, running: list[ToolCall]) -> None:
        """Ctrl-C stopped the turn while `running` ran, with no `tool_timeout`: say which calls, and
        what answers a call that hangs instead of holding the turn (the default has no limit)."""
        named = ", ".join(f"{c.id} ({shown_name(c.name)})" for c in running)
        one = len(running) == 1
        calls, read = (
            (f"call {named} was", "its result reads") if one else (f"calls {named} were", "their results read")
        )
        exc.add_note(NO_LIMIT_NOTE.format(calls=calls, read=read, error=type(exc).__name__))

    def round_result(self, execution: ToolExecution) -> ToolResultMessage:
        if execution.rolled_back_by is None:
            return execution.result
        return rewrite([execution.result], [execution], execution.rolled_back_by, self.texts.rolled_back)[0]

    def save_again(self, exc: BaseException, failure: Exception | None = None) -> None:
        """Write the results memory refused once more; if it refuses again, answer their calls "not
        completed" (`LoopTexts.unfinished`, as the next turn would: short rows, which a full disk
        may still take), so memory holds no call without its result; say so on `exc`."""
        if failure is None:
            try:
                pending = self.still_open(m for m in self.unsaved if isinstance(m, ToolResultMessage))
                if pending:
                    self.write(pending)
                self.unsaved = ()
                return
            except Exception as again:
                failure = again
        results = self.still_open(m for m in self.unsaved if isinstance(m, ToolResultMessage))
        if not results:  # the results are in memory; only the images' message is not (memory stays valid)
            log.warning("%s: %s", self.subject, redact.describe_exception(failure))
            return
        ids = ", ".join(m.tool_call_id for m in results)
        try:
            self.write([_unfinished_result(m, self.texts.unfinished) for m in results])
            ends = "memory answers those calls 'not completed'"
        except Exception:
            ends = "memory ends with those calls unanswered"
        note = (
            f"memory could not record the results of calls {ids} ({redact.describe_exception(failure)}); "
            f"they are in this error's loop_result.new_messages, and {ends}"
        )
        log.warning("%s: %s", self.subject, note)
        self.memory_behind = True
        exc.add_note(note)

    def answer_never_run(self, trace: RoundTrace, exc: BaseException) -> None:
        """The calls of `trace.reply` that memory holds unanswered after writing the reply raised (a store
        failing after its commit, Ctrl-C as the write returned) answered "not completed" (none of them
        ran), so memory stays valid for a strict gateway and the next turn does not call their outcome
        unknown. Nothing when memory cannot be read or written (the next turn answers them then)."""
        assert self.memory is not None
        try:
            left = {c.id for c in open_calls(self.memory.messages())}
            text = self.texts.interrupted.format(error=type(exc).__name__)
            results = [_error_result(c, text) for c in trace.reply.tool_calls if c.id in left]
            if results:
                self.write(results)
                self.new += results
        except Exception:  # the store is failing: the error that stopped the turn is the one to see
            return

    def still_open(self, results: Iterable[ToolResultMessage]) -> list[ToolResultMessage]:
        """Those of `results` whose calls memory has not answered: a write that raised after it went
        through (Ctrl-C as it returned, a store failing after its commit) is not written again, which
        would answer a call twice (a history a strict gateway refuses). All of them when memory
        cannot be read (none without memory: nothing was written)."""
        if self.memory is None:
            return []
        try:
            left = {c.id for c in open_calls(self.memory.messages())}
        except Exception:
            return list(results)
        return [m for m in results if m.tool_call_id in left]

    def append_results(self, trace: RoundTrace, results: list[ToolResultMessage]) -> None:
        """Step 8: the round's results, each cut to `max_result_chars` (`toolkit.loop.result_size`),
        then the user message carrying their images (if any). The cut and what the results say about
        their images are for the model: an immediate return gives the caller the results as the
        tools wrote them, and the trace keeps them so."""
        options = self.options
        limit = options.max_result_chars
        if limit is not None:
            for result in results:  # the usual round: one length check a result
                if len(result.content) > limit:
                    results = self.cut(results, limit)
                    break
        sent, images = pass_on_images(results, self.texts, options.max_images, options.max_image_bytes)
        self.answer(trace, sent)
        if images is not None:
            trace.images = images
            self.append(images)

    def cut(self, results: list[ToolResultMessage], limit: int) -> list[ToolResultMessage]:
        """`results` with each text past `limit` cut, and a warning for each (`toolkit.loop.result_size`)."""
        results, cuts = cut_results(results, limit, self.texts.result_cut)
        for c in cuts:
            log.warning(
                "%s: the result of call %s (%s) has %s characters; the model reads the first %s and a note saying "
                "it was cut (LoopOptions.max_result_chars=%d; None sends every result whole)",
                self.subject,
                c.call_id,
                shown_name(c.tool_name),
                f"{c.total:,}",
                f"{c.kept:,}",
                limit,
            )
        return results

    def answer(self, trace: RoundTrace, results: Sequence[Message]) -> None:
        """Record the round's results (`self.answered`); what memory refused stays in `unsaved`."""
        self.new += results
        self.answered = trace.index
        if self.memory is None:
            self.history += results
            return
        self.unsaved = results
        self.write(results)
        self.unsaved = ()

    # -- steps 6, 7, 8, 9, 10 -------------------------------------------------------------
    def repair(self, trace: RoundTrace) -> str | None:
        """A repair budget per tool, per question, counted in rounds: a tool's argument errors are
        fed back in `argument_repair` rounds; its next bad call hands over (SPEC: "a second failure
        on the same call degrades"). Two bad calls of one tool in one round are one round."""
        budget = self.options.argument_repair
        if budget is None:
            return None
        names = list(dict.fromkeys(e.call.name for e in trace.executions if e.error_kind == "argument"))
        spent = []
        for name in names:
            self.repairs[name] = self.repairs.get(name, 0) + 1
            if self.repairs[name] > budget:
                spent.append(name)
        if not spent:
            return None
        return f"argument error after {budget} repair round(s) ({', '.join(spent)})"

    def trigger(self, trace: RoundTrace, stop: ToolExecution | None, handover: str | None) -> ToolExecution | None:
        """The failure that rolls the turn back, or None (the table in `toolkit.loop.saga`)."""
        if stop is not None:
            return stop
        repairing = self.options.argument_repair is not None and handover is None
        for e in trace.executions:
            if e.error_kind == "execution" or (e.error_kind == "argument" and not repairing):
                return e
            if e.error_kind is None and e.result.is_error:  # the tool reported its own failure
                return e
        return None

    def compensate(
        self, trace: RoundTrace, stop: ToolExecution | None, handover: str | None
    ) -> list[ToolResultMessage]:
        """Step 7: the round's results, rewritten if a saga rolled earlier calls back."""
        results = [e.result for e in trace.executions]
        failed = self.trigger(trace, stop, handover) if self.options.compensate else None
        if failed is None:
            return results
        if self.timed_out:
            self.record_saga(self.unknown_outcomes(trace))
        done = self.compensated
        candidates = [
            e
            for r in self.rounds
            for e in r.executions
            if e.succeeded and (e.round, e.call.id) not in done and e.call.name in self.compensations
        ]
        if not candidates:
            return results
        done.update((e.round, e.call.id) for e in candidates)
        failed_tool = failed.call.name
        undone: list[ToolExecution] = []
        entries: list[SagaEntry] = []
        try:
            compensate(
                candidates,
                self.compensations,
                undone=undone,
                log=entries,
                round=trace.index,
                timeout=self.options.tool_timeout,
            )
        except BaseException as exc:  # interrupted mid-saga: what was undone still reads so
            self.record_saga(entries)
            self.roll_back(undone, failed_tool, interrupted=exc)
            raise
        self.record_saga(entries)
        self.roll_back(undone, failed_tool)
        return rewrite(results, undone, failed_tool, self.texts.rolled_back, [trace.index] * len(results))

    def unknown_outcomes(self, trace: RoundTrace) -> list[SagaEntry]:
        """The saga log's entries for the round's compensable calls past `tool_timeout`, newest first:
        not compensated, their outcome unknown (`toolkit.loop.saga.unknown_outcome`)."""
        seconds = self.options.tool_timeout or 0.0
        timed_out = [e for e in reversed(trace.executions) if id(e.result) in self.timed_out]
        entries = [unknown_outcome(e, self.compensations, trace.index, seconds) for e in timed_out]
        return [entry for entry in entries if entry is not None]

    def record_saga(self, entries: list[SagaEntry]) -> None:
        """Keep the attempts in the saga log; each one that did not undo its call is also a warning
        (as LangChain4j logs it): a method returning str gives its caller no saga log to read."""
        self.saga += entries
        for e in entries:
            if e.detail.startswith(NOT_COMPENSATED):
                log.warning(
                    "%s: call %s of tool %r was not compensated, and its effect may hold: %s",
                    self.subject,
                    e.call_id,
                    e.tool,
                    e.detail,
                )
            elif not e.ok:
                log.warning(
                    "%s: the compensation of tool %r did not undo call %s, whose effect still holds: %s",
                    self.subject,
                    e.tool,
                    e.call_id,
                    e.detail,
                )

    def roll_back(
        self, undone: list[ToolExecution], failed_tool: str, interrupted: BaseException | None = None
    ) -> None:
        """Mark the undone calls in the trace and rewrite their results: in `new_messages` and the
        caller's list first, memory last (a store that fails raises; under an interruption it
        is noted on the interruption instead)."""
        if not undone:
            return
        text = self.texts.rolled_back
        keys = {(e.round, e.call.id) for e in undone}
        self.succeeded, self.rounds_read = set(), 0  # the guard reads the rounds again: these no longer count
        for r in self.rounds:  # the trace keeps what really came back, marked as rolled back
            r.executions = [
                replace(e, rolled_back_by=failed_tool) if (e.round, e.call.id) in keys else e for e in r.executions
            ]
        rounds, recorded = self.new_rounds(), list(self.new)
        self.new[:] = rewrite(self.new, undone, failed_tool, text, rounds)
        if self.memory is None:
            earlier = [None] * (len(self.history) - len(self.new))  # the caller's messages: not this turn's
            self.history[:] = rewrite(self.history, undone, failed_tool, text, earlier + rounds)
            if self.handouts is not None:
                self.handouts.forget("history")  # changed in place: the list given out is not the history
            return
        stored = [e for e in undone if e.round < self.rounds[-1].index]  # this round's are not in memory yet
        if not stored:
            return
        try:
            stored_messages = self.memory.messages()
            tail = _common_tail(stored_messages, recorded)  # this turn's messages the window kept
            earlier = [None] * (len(stored_messages) - tail)
            self.memory.set(rewrite(stored_messages, stored, failed_tool, text, earlier + rounds[len(rounds) - tail :]))
        except Exception as failure:
            names = ", ".join(e.call.id for e in stored)
            note = (
                f"the saga rolled back calls {names}, but memory could not be rewritten to say so "
                f"({redact.describe_exception(failure)}); memory still shows their results as successful"
            )
            log.warning("%s: %s", self.subject, note)
            self.memory_behind = True
            if interrupted is None:
                failure.add_note(note)
                raise
            interrupted.add_note(note)

    def new_rounds(self) -> list[int | None]:
        """The round of each message in `new`: a tool-calling reply is its round's, and so is what
        follows it (its results, their images) until the next one."""
        tool_rounds = iter([r.index for r in self.rounds if r.reply.tool_calls])
        current: int | None = None
        rounds: list[int | None] = []
        for m in self.new:
            if isinstance(m, AssistantMessage) and m.tool_calls:
                current = next(tool_rounds, None)
            rounds.append(current)
        return rounds

    def stopped(self, trace: RoundTrace, stop: ToolExecution) -> Exception:
        """The raised failure, carrying the partial result and the saga log."""
        error = stop.raised
        assert error is not None
        if isinstance(error, StopIteration):  # raised in the loop (a generator), it would come out as a RuntimeError
            kind = _POLICY_OF.get(stop.error_kind or "", "execution_error")
            stopping = ConfigurationError(STOP_ITERATION.format(policy=kind))
            stopping.hint = STOP_ITERATION_HINT
            stopping.__cause__ = error
            error = stopping
        trace.decision = f"stopped: {type(error).__name__}"
        if self.saga:
            undone = ", ".join(f"{e.tool} ({_saga_word(e)})" for e in self.saga)
            error.add_note(f"compensations ran before this error propagated: {undone}")
        return error

    def carry(self, error: BaseException) -> BaseException:
        """`error` with the turn so far attached: `loop_result` (for the trace view) and `saga`
        (an exception that takes no attributes goes on without them). A memory that cannot be
        read gives `loop_result.messages` the caller's messages and what this call added. A
        `ConfigurationError` after the model was asked says so in its hint (`configured_after_asking`).
        A turn that had ended, and whose end memory holds (reading it back for the result failed, or
        its last write committed and then raised), is told so (`ENDED_HELD`), not how to go on."""
        try:
            messages = self.conversation()
            read = True
        except Exception:  # the store failed: what this call knows, not a second error
            messages, read = list(self.history) if self.memory is None else list(self.new), False
        ended = self.ended or self.end_held(messages if read else None)
        if isinstance(error, ConfigurationError):
            configured_after_asking(error, self.rounds, self.memory is not None, ran_note=ended is None)
        elif ended is None and self.goes_on(error):
            try:
                tools_ran(error, self.rounds, self.memory is not None)
            except (AttributeError, TypeError):  # an exception that takes no note goes on without one
                pass
        stopped = self.stopped_where(error)
        finish, answer, immediate = ended or ("stopped", self.answer_received(), ())
        try:
            error.loop_result = replace(  # type: ignore[attr-defined]
                self.result("stopped", answer, immediate, messages), stopped_at=stopped, stopped_by=_described(error)
            )
            if ended is not None:
                _noted(error, ENDED_HELD.format(**ENDED_WORDS[finish]))
            elif answer is not None and self.rounds[-1].decision != "answer":  # memory refused it (else reading failed)
                _noted(error, ANSWER_KEPT)
            error.saga = list(self.saga)  # type: ignore[attr-defined]
        except (AttributeError, TypeError):
            pass
        return error

    def end_held(self, stored: Sequence[Message] | None) -> tuple[str, str | None, Sequence[ToolResultMessage]] | None:
        """The turn's end (as `self.ended` keeps it) when memory, read back as `stored`, ends with the
        model's answer this turn recorded: its write went through, then raised (a store failing after
        its commit). None else, and when memory could not be read."""
        answer = self.answer_received()
        if answer is None or not stored or stored[-1] != self.rounds[-1].reply:
            return None
        return "answer", answer, ()

    def answer_received(self) -> str | None:
        """The model's answer when it came and the turn failed after it (memory refused to store it,
        or could not be read back): the last reply, without tool calls, recorded in `new`. None else."""
        if self.memory is None or not self.rounds or not self.new:
            return None
        reply = self.rounds[-1].reply
        return reply.text if self.new[-1] is reply and not reply.tool_calls else None

    def goes_on(self, error: BaseException) -> bool:
        """Whether `error` is told how to go on from the results of the tools that ran (`tools_ran`), as
        a failed request is (in `send`): Ctrl-C, a memory store failing, a provider failing between
        rounds. Not the loop's own stop (the round limit), a tool's own raised error (its turn is
        for the learner to look at), nor results memory could not keep (a note says where they are)."""
        if isinstance(error, (ModelCallError, MaxRoundTripsError, GeneratorExit)):
            return False
        if self.memory_behind:
            return False
        return not any(e.raised is error for r in self.rounds for e in r.executions)

    def stopped_where(self, error: BaseException) -> str:
        """Where `error` stopped the turn (`LoopResult.stopped_at`); a round it stopped before the loop
        decided anything (memory refused its reply) is marked `stopped: …` in the trace."""
        if self.asking:
            return f"model request {len(self.rounds) + 1} (no reply recorded)"
        if not self.rounds:
            return "before model request 1"
        last = self.rounds[-1]
        if not last.decision:
            last.decision = f"stopped: {redact.summarize_exception(error).type_name}"
        return f"after round {last.index}" if last.decision == "continue" else f"round {last.index}"

    def immediate(self, trace: RoundTrace) -> bool:
        if not trace.executions:
            return False
        last: Tool | None = self.tools.available.get(trace.executions[-1].call.name)  # `_behavior`, written out
        if last is None or last.spec.return_behavior is ReturnBehavior.TO_LLM:
            return False  # both rules need the last call to return immediately: the usual round, decided early
        behaviors = [self._behavior(e.call.name) for e in trace.executions]
        any_error = any(e.result.is_error for e in trace.executions)
        return should_return_immediately(behaviors, any_error)

    def _behavior(self, name: str) -> ReturnBehavior:
        tool: Tool | None = self.tools.available.get(name)
        return tool.spec.return_behavior if tool else ReturnBehavior.TO_LLM

    def refresh(self, results: list[ToolResultMessage]) -> None:
        if self.tools.dynamic:  # a request copies the conversation: only when someone will read it
            self.tools.refresh(self.provider_request())
            if self.later_compensations:  # their tools may have joined: checked now, before they can run
                self.join_compensations()
        if self.tools.hidden:  # else nothing can be revealed (`reveal` only shows held-back tools)
            self.reveal_found(results)

    def join_compensations(self) -> None:
        """Check and keep the compensations whose tool a dynamic provider has just added."""
        waiting = joining_later(self.later_compensations, self.tools)
        joined = [fn for fn in self.later_compensations if fn not in waiting]
        self.compensations.update(compensations_from(joined, self.tools.available))
        self.later_compensations = waiting

    def reveal_found(self, messages: Sequence[Message]) -> None:
        """Show the held-back tools that a tool search in `messages` found."""
        for m in messages:
            if isinstance(m, ToolResultMessage) and m.attributes.get(FOUND_TOOLS):
                self.tools.reveal(found_names(m.attributes[FOUND_TOOLS]))

    def result(
        self,
        finish: str,
        answer: str | None,
        immediate: Sequence[ToolResultMessage] = (),
        messages: list[Message] | None = None,
    ) -> LoopResult:
        """The turn's `LoopResult`; `messages` read from memory when not given. A read that fails
        there comes after the turn ended, every write of it done: `self.ended` keeps how (`carry`)."""
        if messages is None:
            try:
                messages = self.conversation()
            except BaseException:
                self.ended = (finish, answer, immediate)
                raise
        return LoopResult(
            finish,
            answer,
            messages,
            list(self.new),
            TokenUsage.total([r.usage for r in self.rounds]),  # a list: one frame, not one per round
            self.rounds,
            list(immediate),
            self.saga,
        )


def repaired_policies(options: LoopOptions) -> Policies:
    """`options.policies` with `argument_repair`'s text for argument errors: made once per options
    object (they are frozen, so the same options give the same policies), as `Policies` checks
    each policy's signature when made (some 20 µs a turn of `COURSE`, made anew each turn)."""
    known = _repaired.get(id(options))
    if known is not None and known[0] is options:
        return known[1]
    template, expected = options.repair_template, options.texts.expected

    def repair_text(error: Exception, call: ToolCall) -> str:
        if not isinstance(error, ArgumentError) or not getattr(error, "problems", None):
            return str(error)  # an application's own ArgumentError may list no problems: its text
        if isinstance(error, ArgError):  # the course's validator: its fields are worded for the model already
            received, wanted = error.received, expected(error.expected)
        else:
            received, wanted = options.texts.repair_phrases(call.name, error.problems[0])
        return template.format(
            error=error, tool=call.name, field=error.field or "arguments", received=received, expected=wanted
        )

    policies = replace(options.policies, argument_error=repair_text)
    if len(_repaired) >= _REPAIRED_KEPT:
        _repaired.clear()
    _repaired[id(options)] = (options, policies)  # the entry keeps the options, and so their id, alive
    return policies


_repaired: dict[int, tuple[LoopOptions, Policies]] = {}
"""`repaired_policies` by the options' id."""
_REPAIRED_KEPT = 16
"""How many options objects `repaired_policies` remembers (a program uses a few, made once)."""


def _saga_word(entry: SagaEntry) -> str:
    """How the note on a raised failure names a saga entry: ok, FAILED, or not compensated (a call past
    `tool_timeout`: no compensation ran)."""
    if entry.detail.startswith(NOT_COMPENSATED):
        return "not compensated: its outcome is unknown"
    return "ok" if entry.ok else "FAILED"


def _common_tail(stored: Sequence[Message], new: Sequence[Message]) -> int:
    """How many messages `stored` ends with that `new` ends with too: this turn's messages in
    memory (the turn holds its lock, and a window drops the oldest first)."""
    n = 0
    while n < len(stored) and n < len(new) and stored[-1 - n] == new[-1 - n]:
        n += 1
    return n


def _described(error: BaseException) -> str:
    """`error` as one sanitised line with its type's name (a toolkit error's own message leaves it out)."""
    return replace(redact.summarize_exception(error), written_for_the_model=False).text()


def _error_result(call: ToolCall, text: str) -> ToolResultMessage:
    return ToolResultMessage(tool_call_id=call.id, tool_name=call.name, content=text, is_error=True)


def _unfinished_result(result: ToolResultMessage, text: str) -> ToolResultMessage:
    """`result`'s call answered with `text` instead, as an error (its attributes left out: memory
    refused the result itself)."""
    return ToolResultMessage(tool_call_id=result.tool_call_id, tool_name=result.tool_name, content=text, is_error=True)


ANSWER_KEPT = (
    "The model answered before this error stopped the turn, and memory does not hold its answer: it is this "
    "error's loop_result.answer."
)
"""Noted on a failure after the model's answer came (memory refused it): the answer is not lost (`carry`)."""

STOP_ITERATION = (
    "Policies({policy}=...) raised StopIteration to stop the loop, which a generator (the loop is one) cannot pass "
    "on: Python turns it into RuntimeError('generator raised StopIteration'). Fix: raise another exception, e.g. "
    "with raise_error (the call's ToolExecutionError, caused by the tool's own)"
)
STOP_ITERATION_HINT = (
    "A policy stops the loop by raising: StopIteration cannot leave a generator, so raise another exception."
)
"""A policy that raised `StopIteration` (a tool's own, raised again): what the loop raises instead."""
_POLICY_OF = {"execution": "execution_error", "argument": "argument_error", "unknown_tool": "unknown_tool"}
"""The `Policies` field of each error channel."""

ENDED_HELD = (
    "This turn had ended when this error came, and memory holds all of it ({what}): nothing needs to run or be "
    "asked again; {where}."
)
"""Noted on a failure after the turn ended, memory holding its end (`carry`): going on would ask the model
again after its own answer (or after an immediate return), and asking again would run the tools again."""
ENDED_WORDS = {
    "answer": {"what": "the model's answer included", "where": "the answer is this error's loop_result.answer"},
    "immediate": {
        "what": "the results of the tools that ended it included",
        "where": "those results are this error's loop_result.immediate_results",
    },
    "handover": {"what": "the hand-over sentence included", "where": "the sentence is this error's loop_result.answer"},
}
"""`ENDED_HELD`'s words by how the turn ended."""


def _noted(error: BaseException, note: str) -> None:
    """`note` on `error`, and in its hint when it is a toolkit error (as `tools_ran` says its words)."""
    error.add_note(note)
    if isinstance(error, ToolkitError):
        error.hint = f"{error.hint} {note}" if error.hint else note


NO_LIMIT_NOTE = (
    "{calls} still running when {error} stopped the turn ({read}: outcome unknown); a call that may "
    "hang can be given a time limit: LoopOptions(tool_timeout=30) answers it after 30 s, and the turn goes on"
)
"""Noted on a Ctrl-C that stopped a turn while calls ran without `LoopOptions.tool_timeout` (`no_limit_note`)."""

NOT_STREAMED_HINT = (
    "This gateway does not stream: leave out LoopOptions(stream=True) (an ai_service method: return str, not "
    "TokenStream), or use a gateway that streams."
)
"""The fix for `NotAStreamError` in a loop: the client's names `stream()`, which the loop calls."""

STREAM_RULE = "a chat model's stream() yields TextDelta / ToolCallDelta events, then StreamDone(ChatResponse(...))"
CHAT_RULE = "a chat model's chat() returns a ChatResponse"
"""What `ChatModel` asks of a model's `stream()` and `chat()`, said when a model does otherwise."""


def _is_response(response: object) -> bool:
    """Whether a model's answer is a `ChatResponse`, or reads as one (a learner's stand-in whose
    `message` is an `AssistantMessage`: the loop reads no more of it than that, its usage and its
    finish reason)."""
    return isinstance(response, ChatResponse) or isinstance(getattr(response, "message", None), AssistantMessage)


def _streamed(events: Any, broken: Callable[[str], ConfigurationError]) -> Generator[LoopEvent, None, ChatResponse]:
    """Forward a streamed reply's deltas; return the assembled response (truncation raises). A
    stream that breaks `STREAM_RULE` is `broken(what it did)`, not a gateway's bad answer."""
    if isinstance(events, ChatResponse) or not isinstance(events, Iterable):  # a pydantic model iterates its fields
        raise broken(f"returned {described(events)}")
    for event in events:
        if isinstance(event, StreamDone):
            if not _is_response(event.response):
                raise broken(f"ended with StreamDone({described(event.response)})")
            return event.response
        yield event  # a model's own kinds of event too, as the caller's loop may know them
    raise broken("ended without StreamDone")
