"""A LiteLLM proxy's error message, read down to the provider's own words.

A LiteLLM proxy answers a provider's error with the provider's body wrapped in its own exception's
text and its router's context (docs.litellm.ai/docs/exception_mapping):

    litellm.BadRequestError: OpenAIException - Error code: 400 - {'error': {'message': "Invalid …",
    'type': 'invalid_request_error', …}}
    Received Model Group=gpt-4o
    Available Model Group Fallbacks=None

`unwrapped(message)` gives `Invalid … (OpenAI, through LiteLLM)`: the provider's message (its body read as
JSON or as the Python dict LiteLLM printed; its `error.message`, `message`, `msg` or `detail`), the
provider as LiteLLM names its exception (`AnthropicException` → Anthropic), and the router's context
cut off (`Received Model Group=`, `Available Model Group Fallbacks=`, `Error doing the fallback`, `No
fallback model group found`, `LiteLLM Retried:`, `Passed model=`), the exception classes it names
one after another before the text too. An error of LiteLLM's own (no provider named) reads
`… (LiteLLM)`. A message not starting `litellm.<Name>:` is returned as it is; a provider body that
cannot be read stays as text.

Leaves out: LiteLLM's status mapping (the HTTP status the client already triages) and the wording of
other routers (OpenRouter's `metadata.raw` is `toolkit.chat.sse.relayed`'s).
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from toolkit.chat.error_body import message_of

_WRAPPER = re.compile(r"litellm\.\w+:\s*")
"""LiteLLM's exception class before the text (`litellm.BadRequestError: `)."""
_CLASS = re.compile(r"(?:litellm\.)?[A-Z]\w*Error:\s*")
"""A further class LiteLLM names before the text (`litellm.AuthenticationError: AuthenticationError: …`,
`litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError: …`)."""
_PROVIDER = re.compile(r"([A-Za-z][A-Za-z0-9_]*?)Exception\s*-\s*(?:Error code:\s*\d{3}\s*-\s*)?")
"""The provider's exception as LiteLLM names it (`OpenAIException - `), and the SDK's `Error code: 400 - `."""
_CONTEXT = re.compile(
    r"\.?\s*(?:Received Model Group=|Available Model Group Fallbacks=|Error doing the fallback"
    r"|No fallback model group found|LiteLLM Retried:|Passed model=)"
)
"""Where the router's context starts: what follows is LiteLLM's, not the provider's."""
_MOST_READ = 20_000
"""A provider body longer than this is not parsed (its text is cut by the caller anyway)."""


def unwrapped(message: str) -> str:
    """`message` as the provider said it and who said it, when it is a LiteLLM proxy's wrapped error;
    else `message` itself."""
    if not message.startswith("litellm."):
        return message
    wrapper = _WRAPPER.match(message)
    if wrapper is None:
        return message
    rest = message[wrapper.end() :]
    while (named := _CLASS.match(rest)) is not None:
        rest = rest[named.end() :]
    context = _CONTEXT.search(rest)
    if context is not None:
        rest = rest[: context.start()]
    provider = _PROVIDER.match(rest)
    if provider is not None:
        rest = rest[provider.end() :]
    said = (_body_words(rest.strip()) or rest).strip() or message
    return f"{said} ({provider.group(1)}, through LiteLLM)" if provider else f"{said} (LiteLLM)"


def _body_words(text: str) -> str:
    """The message of a provider's error body written as JSON or as a Python dict
    (`toolkit.chat.error_body.message_of`), "" when it is neither."""
    if not text.startswith(("{", "[")) or len(text) > _MOST_READ:
        return ""
    return message_of(_parsed(text))[0]


def _parsed(text: str) -> Any:
    """The value `text` starts with, as JSON or as a Python literal (up to its last closing bracket), or None."""
    try:
        return json.JSONDecoder().raw_decode(text)[0]
    except (ValueError, RecursionError):
        pass
    end = max(text.rfind("}"), text.rfind("]")) + 1
    try:
        return ast.literal_eval(text[:end]) if end else None
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None
