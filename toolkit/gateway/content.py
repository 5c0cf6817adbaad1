"""Reading message content in the fake gateway: images that tools returned are not the user speaking.

A loop that runs tools returning images (`toolkit.loop.images`) sends them in a user message
right after the round's tool results, because a `tool` message carries text only. That message
is not a new question: to decide, the gateway reads the conversation without it.
`without_tool_images(messages)` drops every user message that directly follows a tool result
and carries an `image_url` part; everything else stays as it is.

Leaves out: looking at the images (the gateway decides from text alone); telling a user's own
photo sent right after tool results (possible only after a turn that ended on its tool
results: an immediate return) from tool images — it is read as tool images.
"""

from __future__ import annotations

from itertools import repeat
from operator import methodcaller
from typing import Any

_CONTENT = methodcaller("get", "content")


def has_image(content: Any) -> bool:
    """Whether a message's content has an `image_url` part."""
    return isinstance(content, list) and any(isinstance(p, dict) and p.get("type") == "image_url" for p in content)


def without_tool_images(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`messages` without the user messages that carry tool images (see the module docstring)."""
    if not any(map(isinstance, map(_CONTENT, messages), repeat(list))):  # the common case, in C: no list content
        return messages
    for m in messages:
        if isinstance(m.get("content"), list) and m.get("role") == "user" and has_image(m.get("content")):
            break
    else:
        return messages  # nothing to copy
    return [
        m
        for i, m in enumerate(messages)
        if not (i and m.get("role") == "user" and messages[i - 1].get("role") == "tool" and has_image(m.get("content")))
    ]
