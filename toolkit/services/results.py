"""What a declared method returns around its content: `Result`, and `TokenStream` for a streamed call.

These are the runtime types a declaration names in its return annotations (`-> Result[Order]`,
`-> TokenStream`), so they live apart from the service that builds them: `declare` reads
declarations without importing the service, and the service imports both.

Leaves out: building them (that is `toolkit.services.service`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from toolkit.chat.messages import TokenUsage, ToolResultMessage
from toolkit.chat.sse import TextDelta
from toolkit.errors import ConfigurationError
from toolkit.loop.run import LoopEvent, LoopResult
from toolkit.loop.saga import ToolExecution

T = TypeVar("T")


@dataclass
class Result(Generic[T]):
    """Everything one call produced, around its content."""

    content: T | None
    """The answer as the declared type; None on an immediate return, a hand-over, a refusal."""
    usage: TokenUsage
    """Summed over every model request of the call (repair round included)."""
    tool_executions: list[ToolExecution]
    finish_reason: str | None
    """The last response's reason, `tool_execution` on an immediate return, `handover`, `refusal` …"""
    immediate_return: bool = False
    immediate_results: list[ToolResultMessage] = field(default_factory=list)
    """The tool results that ended the call, when a tool's return behaviour said so."""
    loop: LoopResult | None = None
    """The raw loop result (rounds, messages) for traces."""

    @property
    def handover(self) -> str | None:
        """The hand-over sentence when the loop handed the question to a person, else None."""
        return self.loop.answer if self.loop is not None and self.loop.finish == "handover" else None

    @property
    def refusal(self) -> str | None:
        """The model's refusal when it refused to answer (`finish_reason == "refusal"`), else None."""
        return refusal_of(self.loop) if self.loop is not None else None


def refusal_of(loop: LoopResult) -> str | None:
    """The refusal when the turn's last reply is one (OpenAI's `refusal`, sent instead of any
    content or tool call), else None: a structured method has no answer then, to parse or repair."""
    last = loop.rounds[-1].reply if loop.rounds and loop.finish == "answer" else None
    if last is None or last.content is not None or last.tool_calls:
        return None
    return last.refusal


class TokenStream:
    """The events of a streamed call: `TextDelta`, `ToolStarted`, `ToolFinished`; then `.result`.

    A reader that stops early (`break`, `close()`, Ctrl-C) stops the loop too: the loop's
    generator is closed (it answers the calls it did not finish), then `failed` keeps memory valid.
    A stream is read once: reading it again (a notebook cell run twice) is a `ConfigurationError`
    saying whether it ended, was stopped or is being read elsewhere.

    `close()` is the stop button, and may be pressed anywhere: in the reader's own `for` loop, from
    another thread (a web server's stop handler), or by a tool of the turn. The reader's loop then
    ends quietly (no more events, `result` stays None). While a step runs (the model's reply, a
    tool), `close()` does not wait for it: it returns at once; the reader is still given the event
    that step makes (a tool that ran says how it ended, and keeps its result), then its thread
    stops the loop. Never sooner: a generator cannot be closed from outside while it runs.
    """

    def __init__(
        self,
        events: Iterator[LoopEvent],
        finish: Callable[[LoopResult], Result[str]],
        failed: Callable[[BaseException], None] = lambda exc: None,
    ) -> None:
        if not isinstance(events, Iterator) or not callable(finish) or not callable(failed):
            _misfit(events, finish, failed)  # here: a raw TypeError from next(None) at the first read otherwise
        self._events, self._finish, self._failed = events, finish, failed
        self.result: Result[str] | None = None
        """Set once the stream is exhausted."""
        self._read = ""
        """"" (not read yet), "reading", "ended" or "stopped"."""
        self._stepping = False
        """Whether the reader is inside a step of the loop (`next` on its events) right now."""
        self._stop_asked = False
        """`close()` was called during a step: the reader stops before the next one."""
        self._state = threading.Lock()
        """Guards the three above: a reader and a `close()` in another thread see one state."""

    def __iter__(self) -> Iterator[LoopEvent]:
        with self._state:
            if self._read:
                raise ConfigurationError(READ_AGAIN[self._read])
            self._read = "reading"
        try:
            while True:
                with self._state:
                    if self._read == "stopped":  # closed between two steps: the loop is closed already
                        return
                    stop, self._stepping = self._stop_asked, not self._stop_asked
                if stop:  # closed while the last step ran (from another thread, or by a tool of this turn)
                    self._stop(GeneratorExit())
                    return
                try:
                    event = next(self._events)
                finally:
                    with self._state:
                        self._stepping = False
                yield event  # what that step made is still given: a tool that ran says how it ended
        except StopIteration as done:
            with self._state:
                self._read = "ended"
            self.result = self._finish(done.value)
        except BaseException as exc:  # GeneratorExit (the reader stopped) and Ctrl-C too
            self._stop(exc)
            raise

    def close(self) -> None:
        """Stop the call here (a "stop" button): the loop ends, memory stays valid. During a step
        (from another thread, or from a tool), the reader stops when that step ends."""
        with self._state:  # one decision: a reader cannot start a step between it and the closing
            if self._stepping:
                self._stop_asked = True
                return
            if not self._claim_stop():
                return
        self._shut(GeneratorExit())

    def _stop(self, exc: BaseException) -> None:
        with self._state:
            if not self._claim_stop():
                return
        self._shut(exc)

    def _claim_stop(self) -> bool:
        """Mark the stream stopped (the lock held); False if it ended or was stopped already (a
        reader dropped after close() ends here)."""
        if self._read in ("ended", "stopped"):
            return False
        self._read = "stopped"
        return True

    def _shut(self, exc: BaseException) -> None:
        close = getattr(self._events, "close", None)
        try:
            if close is not None:
                close()  # the loop's own clean-up first: it answers unfinished calls, releases the lock
        finally:
            self._failed(exc)

    def __repr__(self) -> str:
        """What a notebook shows for the stream: its state, never an address (a stream's events
        are not read to show it)."""
        with self._state:
            state = self._read
        return f"TokenStream({_STATES[state]})"

    def text(self) -> Iterator[str]:
        """Only the text, as it arrives."""
        return (e.text for e in self if isinstance(e, TextDelta))


_STATES = {
    "": "not read yet: iterate it, or .text()",
    "reading": "being read",
    "ended": "read to its end: the answer is in .result",
    "stopped": "stopped before its end",
}
"""A stream's state, as its repr says it."""

FIX = "call the method that made it again for a new stream"
READ_AGAIN = {
    "reading": "TokenStream: this stream is already being read (another loop holds it); a stream is read once. "
    f"Fix: read it in one place, or {FIX}",
    "ended": "TokenStream: this stream was already read to its end (its answer is in .result); a stream is read "
    f"once. Fix: {FIX}",
    "stopped": f"TokenStream: this stream was stopped (close(), a break or Ctrl-C) and its call has ended. Fix: {FIX}",
}
"""Why a stream cannot be read again, by its state."""


def _misfit(events: object, finish: object, failed: object) -> None:
    """A `TokenStream` built by hand from the wrong parts: which one, and what it takes."""
    if not isinstance(events, Iterator):
        kind = "None" if events is None else f"a {type(events).__name__}"
        raise ConfigurationError(
            f"TokenStream(events={kind}): events is the generator iter_loop(...) returns (an iterator of loop "
            "events ending in the LoopResult). Fix: TokenStream(iter_loop(model, messages, ...), finish), or let "
            "ai_service make it: declare a method returning TokenStream"
        )
    name, value = ("finish", finish) if not callable(finish) else ("failed", failed)
    takes = "the LoopResult, returning the Result" if name == "finish" else "the exception that stopped the stream"
    raise ConfigurationError(
        f"TokenStream({name}={type(value).__name__}): {name} is a function of {takes}. Fix: pass a function"
        + (", or leave it out" if name == "failed" else "")
    )
