"""When does the loop stop asking the model? The return-behaviour rules and their truth table.

Each tool declares a `ReturnBehavior`: TO_LLM (default: the result goes back to the model),
IMMEDIATE, or IMMEDIATE_IF_LAST. After a round of tool calls the loop returns at once when:

    0. no call in the round failed            (an error must always reach the model), and
    1. the *last* call is IMMEDIATE_IF_LAST,  or
    2. *every* call is IMMEDIATE or IMMEDIATE_IF_LAST.

"Failed" is every error result: a tool that raised, bad arguments, and also a call to a tool
that does not exist, answered by `report_unknown_tool`. There the package departs from LangChain4j
on purpose (SPEC: an unknown name is one of the three failure kinds): LangChain4j's
`ToolService.applyToolHallucinationStrategy` (langchain4j/src/main/java/dev/langchain4j/service/
tool/ToolService.java) builds the hallucination strategy's answer without `isError`, so a round of
`[unknown_tool, an IMMEDIATE_IF_LAST tool]` returns at once there, with the model never reading
that its first call went nowhere; here it continues.

`truth_table()` enumerates every round of one and two calls (3 + 9 rows), each also with a
failing call, so a notebook and a test can show the whole thing.

Leaves out: what the caller receives (see `LoopResult` in `toolkit.loop.run`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from toolkit.tools.decorator import ReturnBehavior

IMMEDIATE_KINDS = {ReturnBehavior.IMMEDIATE, ReturnBehavior.IMMEDIATE_IF_LAST}


def should_return_immediately(behaviors: Sequence[ReturnBehavior], any_error: bool) -> bool:
    """LangChain4j's `ToolService.shouldReturnImmediately`, rule for rule."""
    if any_error or not behaviors:
        return False
    if behaviors[-1] == ReturnBehavior.IMMEDIATE_IF_LAST:
        return True
    return all(b in IMMEDIATE_KINDS for b in behaviors)


def rule_applied(behaviors: Sequence[ReturnBehavior], any_error: bool) -> str:
    """Which rule decided, in words (for the truth-table view)."""
    if any_error:
        return "an error must reach the model → continue"
    if behaviors and behaviors[-1] == ReturnBehavior.IMMEDIATE_IF_LAST:
        return "last call is IMMEDIATE_IF_LAST → return"
    if behaviors and all(b in IMMEDIATE_KINDS for b in behaviors):
        return "every call is IMMEDIATE* → return"
    return "neither rule holds → continue"


@dataclass(frozen=True)
class TruthRow:
    behaviors: tuple[ReturnBehavior, ...]
    any_error: bool
    returns: bool
    rule: str


def truth_table(max_calls: int = 2) -> list[TruthRow]:
    """Every round of 1..max_calls calls, without and with a failing call."""
    rows = []
    for any_error in (False, True):
        for n in range(1, max_calls + 1):
            for combo in product(list(ReturnBehavior), repeat=n):
                rows.append(
                    TruthRow(
                        combo, any_error, should_return_immediately(combo, any_error), rule_applied(combo, any_error)
                    )
                )
    return rows
