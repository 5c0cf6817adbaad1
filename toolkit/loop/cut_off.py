"""A reply cut off by its length limit (or a content filter) inside its last call: the call's error says so.

A model that reaches `max_tokens` while writing a call ends its reply with `finish_reason:
"length"` and that call's arguments incomplete (`{"item": "Alice Smi`). The calls before it are
whole and run as usual. The cut one fails as any arguments that are not JSON do (its argument
error, through the argument policy), but its text names the cut, so the model sends a shorter
call, and its `hint` names the fix for the learner (`max_tokens`), who would otherwise look for a
wrong schema. `cut_off` is called only for an argument error of a reply cut off so.

A cut may come before any of the last call's arguments arrived (its name, then the limit): its
arguments are blank, which a call without parameters may also be sent as, so they would read as
`{}` and the call would run with its defaults, or fail as a missing argument. `cut_short` tells it
as the cut before it runs, unless its tool takes no parameters (then nothing of the call is missing).

A gateway's content filter cuts a reply the same way, where it stops it (`finish_reason:
"content_filter"`: Azure OpenAI's, OpenAI's; `"sensitive"`: Zhipu's GLM): the cut call is told as cut by the filter, and its
hint names that fix (rephrase the request, or check the filter), not the model's call. Mistral's API
ends a reply that filled the model's context window (not `max_tokens`) with `"model_length"`: told
as cut there, its hint to shorten the conversation. `CUT_BY` holds each reason's words.

Leaves out: a reply cut off in its text (no call to answer), and guessing the rest of a cut call
(it never runs: `toolkit.tools.json_repair` does not close what was cut).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError, ArgumentProblem
from toolkit.loop.result_size import DEFAULT_CUTTING, Cutting
from toolkit.tools.arguments import parse_arguments
from toolkit.tools.execute import Outcome, Policies, Tool, argument_failed

CUT_EXPECTED = (
    'a complete JSON object: the reply was cut off here by its length limit (finish_reason "length"), '
    "so send shorter arguments"
)
"""What the model reads its cut call should have been."""

CUT_HINT = (
    "The model's reply reached its token limit (finish_reason \"length\") inside this call's arguments, and the "
    "call did not run: raise max_tokens (or max_completion_tokens), or leave it unset."
)
"""The learner's hint on the raised error."""


def _filtered(reason: str) -> tuple[str, str]:
    """What the model reads its call cut by the gateway's content filter should have been, and the learner's
    hint, for the filter's `finish_reason` as the gateway spelled it."""
    expected = f'a complete JSON object: the reply was cut off here by the gateway\'s content filter (finish_reason "{reason}")'
    hint = (
        f"The gateway's content filter stopped the model's reply (finish_reason \"{reason}\") inside this call's "
        "arguments, and the call did not run: rephrase the request, or check the gateway's filter."
    )
    return expected, hint


FILTERED_EXPECTED, FILTERED_HINT = _filtered("content_filter")

WINDOW_EXPECTED = (
    "a complete JSON object: the reply was cut off here by the model's context window (finish_reason "
    '"model_length"), so send shorter arguments'
)
WINDOW_HINT = (
    "The conversation and the model's reply filled the model's context window (finish_reason \"model_length\") "
    "inside this call's arguments, and the call did not run: shorten the conversation (a smaller memory window, "
    "shorter tool results)."
)
"""A reply cut off by the model's context window, not by `max_tokens`: Mistral's API says so with its own
`finish_reason` "model_length" (its FinishReason: stop, length, model_length, error, tool_calls)."""

CUT_BY = {
    "length": (CUT_EXPECTED, CUT_HINT),
    "content_filter": (FILTERED_EXPECTED, FILTERED_HINT),
    "sensitive": _filtered("sensitive"),  # Zhipu's (GLM's) content filter (docs.bigmodel.cn)
    "model_length": (WINDOW_EXPECTED, WINDOW_HINT),  # Mistral's: the model's context window, not max_tokens
}
"""The `finish_reason`s that cut a reply where they stop it, and what the model reads its cut call
should have been and the learner's hint, for each."""
CUT_WORDS = {
    "length": "its length limit",
    "content_filter": "the gateway's content filter",
    "sensitive": "the gateway's content filter",
    "model_length": "the model's context window",
}
"""What cut a reply off, for each reason of `CUT_BY`, as a view or an error says it ("cut off by …")."""


def cut_off(
    call: ToolCall,
    calls: Sequence[ToolCall],
    outcome: Outcome,
    policies: Policies,
    reason: str = "length",
    cutting: Cutting = DEFAULT_CUTTING,
) -> Outcome:
    """`outcome` (an argument error of a reply whose `finish_reason` is `reason`, one of `CUT_BY`),
    told as a cut when `call` is the reply's last and its arguments are not JSON; else as it is."""
    if call is not calls[-1]:  # only the last call of a reply can be cut
        return outcome
    try:
        parse_arguments(call.name, call.arguments)
    except ArgumentError as error:
        problem = error.problems[0]
        if problem.kind != "not_json":
            return outcome
        expected, hint = CUT_BY[reason]
        cut = ArgumentError(call.name, [replace(problem, expected=expected)])
        cut.hint = hint
        return argument_failed(call, cut, policies, cutting)
    return outcome  # whole JSON that did not fit the tool: the usual error


def cut_short(
    call: ToolCall,
    calls: Sequence[ToolCall],
    available: Mapping[str, Tool],
    policies: Policies,
    reason: str = "length",
    cutting: Cutting = DEFAULT_CUTTING,
) -> Outcome | None:
    """The outcome of `call`, the last of a reply cut off (`reason`: its `finish_reason`, one of
    `CUT_BY`), when none of its arguments arrived (blank) and its tool takes some: told as the cut,
    not run; else None (run it)."""
    if call is not calls[-1] or call.arguments.strip():
        return None
    tool = available.get(call.name)
    if tool is None or tool.spec.parameters is None:  # an unknown name's own error; nothing to miss
        return None
    expected, hint = CUT_BY[reason]
    cut = ArgumentError(call.name, [ArgumentProblem("", '""', expected, kind="not_json")])
    cut.hint = hint
    return argument_failed(call, cut, policies, cutting)
