"""A call whose tool name carries a namespace runs the tool it names.

Models post-trained on OpenAI's own tool format (where tools live in a `functions` namespace)
now and then write a call's name as `functions.get_order` instead of `get_order`; others write
`default_api.get_order`. No tool of this package has a dot in its name (OpenAI's rule: letters,
digits, `_`, `-`), so such a name is no tool, and the turn would fail on an unknown tool the model
plainly meant. `bare_call_names` gives the reply back with the name after the namespace when that
is an available tool and the whole name is not, and a note for each (the trace shows them), so the
history, the tool result, return behaviours and compensations all see the tool's own name.

Leaves out: guessing at any other misspelling (an unknown name stays unknown, and is reported).
"""

from __future__ import annotations

import re
from collections.abc import Container

from toolkit.chat.messages import AssistantMessage

_NAMESPACED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\.(?P<name>[^.\s]+)")
"""`namespace.tool`: one namespace, an identifier (`functions`, `default_api`), before the tool's name."""


def bare_call_names(reply: AssistantMessage, known: Container[str]) -> tuple[AssistantMessage, list[str]]:
    """The reply with each `namespace.tool` call name that is no tool but whose `tool` is one read
    as `tool`, and a note per name read so. A reply with nothing to change is given back as it is."""
    calls, notes = list(reply.tool_calls), []
    for position, call in enumerate(calls, 1):
        bare = _bare(call.name, known)
        if bare is not None:
            notes.append(f"tool call {position} named its tool {call.name!r}; read as {bare}")
            calls[position - 1] = call.model_copy(update={"name": bare})
    if not notes:
        return reply, []
    return reply.model_copy(update={"tool_calls": tuple(calls)}), notes


def _bare(name: str, known: Container[str]) -> str | None:
    """The tool `name` names inside a namespace, or None (a tool's own name, or no tool at all)."""
    if name in known:
        return None
    match = _NAMESPACED.fullmatch(name)
    if match is None or match["name"] not in known:
        return None
    return match["name"]
