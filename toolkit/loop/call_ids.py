"""Every tool call of a reply gets an id of its own, so each gets its own result.

Some OpenAI-compatible servers send a call without an id (missing, `null` or `""`), and models now
and then repeat one within a reply. A strict gateway refuses the next request when two results
answer one id, or one answers none: `unique_call_ids` gives the reply back with every id present
and unique, and a note for each it gave or renamed (the trace shows them). A note names the
call by its position and tool, never by id: a real gateway's ids are random, and the trace view
shows none, so the same reply gives the same notes whatever ids it came with.

An id the loop makes is 9 letters and digits (`r0001c002`: round 1, call 2), the strictest shape a
provider documents: Mistral refuses any other with a 400 "Tool call id was … but must be a-z, A-Z,
0-9, with a length of 9." (langchain-ai/langchain#24668), as do local servers running a Mistral chat
template, which send no ids at all (ml-explore/mlx-lm#1375); OpenAI takes any text and Anthropic
`[a-zA-Z0-9_-]+`, so the one shape suits them all.

Leaves out: ids repeated across replies (each round's results answer that round's calls), and
rewriting the ids a gateway sent (they are its own, and it accepts them back).
"""

from __future__ import annotations

from toolkit.chat.messages import AssistantMessage

ID_LENGTH = 9
"""Mistral's length for a call id; a made id is longer only past round 9999 or call 999."""


def made_id(round_number: int, position: int, attempt: int = 0) -> str:
    """`r<round>c<position>` (and `v<attempt>` after the first try), zeros after the `r` up to 9 characters."""
    body = f"{round_number}c{position}" + (f"v{attempt}" if attempt else "")
    return "r" + body.rjust(ID_LENGTH - 1, "0")


def unique_call_ids(reply: AssistantMessage, round_number: int = 1) -> tuple[AssistantMessage, list[str]]:
    """The reply with every tool-call id present and unique, and a note per id given or renamed.

    A call without an id (some OpenAI-compatible servers send none, `null` or `""`), or repeating
    the id of an earlier call of the reply, gets `made_id(round, position)`, never an id the reply
    already has. Every call runs and gets its own result, so a strict gateway accepts the next
    request; refusing the reply would throw away work the model asked for. The notes name calls by
    position and tool, never by id."""
    asked = reply.tool_calls
    if not asked or len(asked) == 1 and asked[0].id:  # one call with an id: nothing to compare
        return reply, []
    taken = {c.id for c in asked}
    if len(taken) == len(asked) and "" not in taken:
        return reply, []
    first: dict[str, int] = {}  # id -> the position of the call that kept it
    calls, notes = [], []
    for position, c in enumerate(reply.tool_calls, 1):
        if not c.id or c.id in first:
            said = (
                f"repeated the id of tool call {first[c.id]}; it got an id"
                if c.id
                else "came without an id; it got one"
            )
            notes.append(f"tool call {position} ({c.name}) {said} of its own")
            c = c.model_copy(update={"id": _fresh(round_number, position, taken)})
            taken.add(c.id)
        first[c.id] = position
        calls.append(c)
    return reply.model_copy(update={"tool_calls": tuple(calls)}), notes


def _fresh(round_number: int, position: int, taken: set[str]) -> str:
    """The first `made_id` for this call that no call of the reply has (the model may have sent it)."""
    attempt = 0
    while (new := made_id(round_number, position, attempt)) in taken:
        attempt += 1
    return new
