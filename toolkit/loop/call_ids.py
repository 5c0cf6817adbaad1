"""Every tool call of a reply gets an id of its own, so each gets its own result.

Some OpenAI-compatible servers send a call without an id (missing, `null` or `""`), and models now
and then repeat one within a reply. A strict gateway refuses the next request when two results
answer one id, or one answers none: `unique_call_ids` gives the reply back with every id present
and unique, and a note for each it gave or renamed (the trace shows them). A note names the
call by its position and tool, never by id: a real gateway's ids are random, and the trace view
shows none, so the same reply gives the same notes whatever ids it came with.

Leaves out: ids repeated across replies (each round's results answer that round's calls).
"""

from __future__ import annotations

from toolkit.chat.messages import AssistantMessage


def unique_call_ids(reply: AssistantMessage, round_number: int = 1) -> tuple[AssistantMessage, list[str]]:
    """The reply with every tool-call id present and unique, and a note per id given or renamed.

    A call without an id (some OpenAI-compatible servers send none, `null` or `""`) gets
    `call_r<round>_<position>`; a repeat gets `<id>_2`, `<id>_3`, …. Every call runs and gets its
    own result, so a strict gateway accepts the next request; refusing the reply would throw away
    work the model asked for. The notes name calls by position and tool, never by id."""
    if not reply.tool_calls:
        return reply, []
    seen = {c.id for c in reply.tool_calls}
    if len(seen) == len(reply.tool_calls) and "" not in seen:
        return reply, []
    used: set[str] = set()
    first: dict[str, int] = {}  # id -> the position of the call that kept it
    tried: dict[str, int] = {}  # id -> the suffix its next repeat tries first (not from 2 again each time)
    calls, notes = [], []
    for position, c in enumerate(reply.tool_calls, 1):
        if not c.id:
            new = f"call_r{round_number}_{position}"
            while new in seen:  # the model sent this very id for another call: one more suffix
                new += "_"
            notes.append(f"tool call {position} ({c.name}) came without an id; it got one of its own")
            c = c.model_copy(update={"id": new})
            seen.add(new)
        if c.id in used:
            n = tried.get(c.id, 2)
            while f"{c.id}_{n}" in seen or f"{c.id}_{n}" in used:
                n += 1
            tried[c.id] = n + 1
            new = f"{c.id}_{n}"
            notes.append(
                f"tool call {position} ({c.name}) repeated the id of tool call {first[c.id]}; it got an id of its own"
            )
            c = c.model_copy(update={"id": new})
        used.add(c.id)
        first[c.id] = position
        calls.append(c)
    return reply.model_copy(update={"tool_calls": tuple(calls)}), notes
