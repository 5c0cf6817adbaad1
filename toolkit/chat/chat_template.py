"""Whether a local server's error says the model's chat template refused the conversation.

A server turns the messages into the model's prompt with the model's chat template (Jinja), and some
templates refuse a conversation a tool-calling turn makes: Gemma's "Conversation roles must alternate
user/assistant/user/assistant/..." and "System role not supported", Mistral's "After the optional system
message, conversation roles must alternate user and assistant roles except for tool calls and results",
Llama 2's "Only user and assistant roles are supported". llama.cpp (and LocalAI) answer a 500 whose
message quotes the template's source around the failing line before `Error: Jinja Exception: <its
words>`; vLLM a 400 with the words; TGI a 422 `"error_type": "template_error"` with "Template error: …".
No retry changes it and no request field fixes it: `refused_roles(text)` gives the template's own words
(the source it quotes left out), `TEMPLATE_HINT` the fix.

Leaves out: a template that fails on a value rather than on the roles (an unknown filter, a tool's
schema it cannot read): its words are passed on as the server's other errors are.
"""

from __future__ import annotations

import re

_RAISED = re.compile(r"(?:Jinja Exception|TemplateError|Template error):\s*(.+)", re.IGNORECASE)
"""What the template said, after the exception's name (llama.cpp quotes the source before it)."""
_RULES = re.compile(
    r"(?:After the optional system message, )?conversation roles must alternate.*"
    r"|System role not supported.*|Only user and assistant roles are supported.*",
    re.IGNORECASE,
)
"""The role rules as templates word them, when no exception's name comes before (vLLM's 400)."""
_ROLES = re.compile(r"\broles?\b|\bsystem\b|\btool\b", re.IGNORECASE)
"""A template's words about the conversation's roles (what `_RAISED` reads must say so)."""

TEMPLATE_HINT = (
    "the model's chat template refuses this conversation's roles (a system message, tool calls and results, or "
    "two messages of one role in a row, which a tool-calling turn has): serve the model with a template that takes "
    "them (llama.cpp: --jinja, with --chat-template-file if its own does not; vLLM: --chat-template), or choose a "
    "model made for tool calling (not retried)"
)


def refused_roles(text: str) -> str | None:
    """The chat template's words when an error's message `text` (on one line) says it refused the
    conversation's roles, else None."""
    raised = _RAISED.search(text)
    if raised is not None:
        words = _unquoted(raised[1])
        return words if _ROLES.search(words) else None
    rule = _RULES.search(text)
    return _unquoted(rule[0]) if rule else None


def _unquoted(words: str) -> str:
    """The template's words without the quotes a server put around them (LM Studio's `"…".`)."""
    words = words.strip()
    if words[-2:] in ('".', "'."):
        words = words[:-2]
    return words.strip("\"'")
