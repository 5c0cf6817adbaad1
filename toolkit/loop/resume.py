"""What the learner is told when a request to the model fails after this turn's tools ran.

A 5xx or a 429 whose retries are spent, or a stream cut off, in a round after tools ran: the
error's hint said "running the cell again may work", but running the cell again asks the question
again, and the model may call the same tools again (a side effect done twice). `tools_ran` adds,
to the hint and as a note (for a plain traceback), which tools ran and how to go on from their
results instead: with memory, `run_loop(model, [], memory=...)`; without, the error's
`loop_result.messages`, which hold them. A refused request (`CallerError`: a 400 for a context
too long, say) is refused again when sent as it is: going on waits until what it names is fixed.
So does a `ConfigurationError` found after the model was asked (a dynamic provider's next answer, a
policy returning no text, a clock failing): its class's hint says "nothing was sent to the model",
untrue there, so `configured_after_asking` gives it `CONFIGURED` and, when tools ran, the same words.
Any other failure that stops a turn after its tools ran gets them too (`toolkit.loop.run`'s
`_Run.goes_on`): Ctrl-C while the model is asked again, a memory store failing as the answer comes
(in the note alone when the error has no hint); not the round limit, a tool's own raised error, nor
results memory could not keep (the error's note says where they are).

Leaves out: retrying the request (the client did), and going on for the learner.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolkit.errors import CallerError, ConfigurationError, ModelCallError, ToolkitError
from toolkit.loop.cancel import TurnCancelled
from toolkit.loop.records import RoundTrace

RAN = (
    "this turn's tools already ran ({tools}), and running it again asks the question again, which may run "
    "them again: to go on from their results, {how}."
)
"""Added to the failed request's hint ("But this …" after the hint, "This …" as the hint when there is
none): `tools` the names of the tools that ran, `how` one of the two below."""
FROM_MEMORY = "which memory holds, call run_loop(model, [], memory=...) with the same memory"
FROM_ERROR = "call run_loop(model, error.loop_result.messages, ...)"
ONCE_FIXED = " once what the error names is fixed"
"""After `how` for a refused request (`CallerError`, a 4xx): sent again as it is, it is refused again."""

_RAN = (None, "execution")
"""The `error_kind`s of a call whose tool ran (it succeeded, reported a failure, or raised)."""


def tools_ran(error: BaseException, rounds: Sequence[RoundTrace], memory: bool) -> None:
    """Say on `error` which tools of `rounds` ran, and how to go on from their results; nothing if none
    ran. A toolkit error says it in its hint too; any other (Ctrl-C, a store's own) in its note alone."""
    names = dict.fromkeys(e.call.name for r in rounds for e in r.executions if e.error_kind in _RAN)
    if not names:
        return
    how = (FROM_MEMORY if memory else FROM_ERROR) + (ONCE_FIXED if _fixed_first(error) else "")
    text = RAN.format(tools=", ".join(names), how=how)
    hint = error.hint if isinstance(error, ToolkitError) else ""
    said = f"But {text}" if hint else text[0].upper() + text[1:]
    error.add_note(said)
    if isinstance(error, ToolkitError):
        error.hint = f"{hint} {said}" if hint else said


def _fixed_first(error: BaseException) -> bool:
    """Whether going on waits until what `error` names is fixed: all but a request that failed on its
    way (a 5xx, a 429, a cut stream) and Ctrl-C, after which the same request may go through."""
    if isinstance(error, ModelCallError):
        return isinstance(error, CallerError)
    return not isinstance(error, (KeyboardInterrupt, TurnCancelled))


CONFIGURED = "Fix the code or setting the message names."
"""The hint of a `ConfigurationError` found after the model was asked (the class's says nothing was sent)."""


def configured_after_asking(
    error: ConfigurationError, rounds: Sequence[RoundTrace], memory: bool, ran_note: bool = True
) -> None:
    """A `ConfigurationError` raised in a turn whose model was asked (`rounds`): its class's hint
    ("nothing was sent to the model") is replaced by `CONFIGURED`, then `tools_ran` says which tools
    ran (not when `ran_note` is False: the turn had ended, and memory holds it); a hint of the
    error's own (or of its class's own) is kept."""
    if not rounds or error.hint != ConfigurationError.hint:
        return
    error.hint = CONFIGURED
    if ran_note:
        tools_ran(error, rounds, memory)
