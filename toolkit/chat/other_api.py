"""Whether a gateway's error says the model (or the gateway) does not speak Chat Completions.

The course sends every request to `<LLM_BASE_URL>/chat/completions`. Some models answer only
OpenAI's Responses API, and the gateway says so in a 404 or 400 that no retry and no change of
body fixes: OpenAI's "This model is only supported in v1/responses and not in v1/chat/completions."
(o1-pro, o3-pro, codex-mini, the deep-research models), a relay's "Unsupported legacy protocol:
/v1/chat/completions is not supported. Please use /v1/responses." `responses_only(text)` reads
them; the fix is another model (`RESPONSES_HINT`), not a URL ending in /responses, which takes
another request body altogether.

Others do not chat at all: OpenAI's "This is not a chat model and thus not supported in the
v1/chat/completions endpoint. Did you mean to use v1/completions?" (a text-completion model such
as gpt-3.5-turbo-instruct or davinci-002), Azure's 400 `OperationNotSupported` "The chatCompletion
operation does not work with the specified model, …" (an embedding, image or audio deployment).
`not_chat(text)` reads them; the fix is a chat model (`NOT_CHAT_HINT`).

Leaves out: calling the Responses API (the course speaks one wire form), and a model that chats but
takes no tools (`toolkit.chat.tool_refusal`).
"""

from __future__ import annotations

import re

_RESPONSES_ONLY = re.compile(
    r"only (?:supported|available|accessible) (?:in|on|via|through|with|by) (?:the )?(?:/?v1/responses|responses api)"
    r"|(?:please )?use (?:the )?(?:/?v1/responses|responses api|responses endpoint) instead"
    r"|/?v1/chat/completions is not supported\. please use /?v1/responses",
    re.IGNORECASE,
)
"""Words saying a model (or the whole gateway) answers only the Responses API."""
_NOT_CHAT = re.compile(
    r"\bnot a chat model\b|\bchatcompletion operation does not work with the specified model\b",
    re.IGNORECASE,
)
"""Words saying a model does not chat: OpenAI's for a completion model, Azure's for any deployment that does not."""

RESPONSES_HINT = (
    "this model answers only OpenAI's Responses API (/v1/responses), and the course speaks Chat Completions "
    "(/v1/chat/completions): set LLM_MODEL to a chat model the gateway serves (GET <LLM_BASE_URL>/models lists "
    "them), or LLM_BASE_URL to a gateway that serves /chat/completions (not retried)"
)
NOT_CHAT_HINT = (
    "LLM_MODEL names a model that does not chat (a text-completion, embedding, image or audio model): set it to a "
    "chat model the gateway serves (GET <LLM_BASE_URL>/models lists them) (not retried)"
)


def responses_only(text: str) -> bool:
    """Whether an error's message `text` says the model or the gateway answers only the Responses API."""
    return bool(_RESPONSES_ONLY.search(text))


def not_chat(text: str) -> bool:
    """Whether an error's message `text` says the model does not chat at all."""
    return bool(_NOT_CHAT.search(text))
