"""A tool's images, passed on to the model in one user message after the round's tool results.

LangChain4j's `DefaultToolExecutor` turns a tool that returns an image into multimodal content.
OpenAI's chat completions cannot do that: a `tool` message carries text only. So, as other
frameworks on that API do (pydantic-ai, for one), the images go in a *user* message of their
own, and the tool result says where they went:

    assistant   tool_calls: call_1 screenshot()
    tool        call_1: "a chart: [image (image/png) attached]
                         [images of this result passed on in the user message after the tool results: 1]"
    user        "Images returned by tool call call_1 (screenshot): 1"  + one image_url part

A result carries images in its `images` attribute (`IMAGES`): a list of `data:` or `http(s)://`
URLs. `McpToolProvider(accepts_images=True)` fills it from MCP image content; any executor may,
with `ToolOutput(value, {"images": [...]})`. `pass_on_images(results, ...)`:

1. checks every image (`toolkit.chat.images.inspect_image`): not a URL, not base64, or a format
   chat models do not take (PNG, JPEG, GIF and WebP are taken) → not passed on;
2. caps what one round sends: at most `max_images` images (in result order) and no data URL of
   more than `max_image_bytes` decoded bytes (`LoopOptions.max_images`, `max_image_bytes`);
3. puts the images passed on into ONE user message after *all* the round's results (tool
   messages must directly follow the assistant message that asked for them), one line per
   call naming its id and tool, the images in that order; `from_tool_calls` names the calls,
   so memory windows keep the message with its round;
4. appends to each result with images what became of them: passed on (how many), and which
   were not, and why. Nothing is dropped silently, and nothing here raises.

The attribute itself stays as the tool returned it, so memory and the trace keep the images
(memory holds a passed image twice: in the result's attribute and in the user message).

Leaves out: resizing or re-encoding images to fit the caps, fetching http(s) images, images in
a streamed tool result, and models that take images in tool messages (Anthropic's, OpenAI's
Responses API): the chat-completions form is the one sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolkit.chat.images import human_size, inspect_image
from toolkit.chat.messages import ToolResultMessage, UserMessage
from toolkit.loop.texts import LoopTexts

IMAGES = "images"
"""The result attribute holding a tool's images (data or http(s) URLs)."""
MAX_IMAGES = 8
"""Images passed on per round by default."""
MAX_IMAGE_BYTES = 5_000_000
"""Decoded bytes of one data-URL image passed on, by default (the embedded gateway refuses a
request body over 1 MiB; hosted APIs take far more)."""


@dataclass
class _Budget:
    max_images: int
    max_bytes: int
    sent: list[str] = field(default_factory=list)


def pass_on_images(
    results: Sequence[ToolResultMessage],
    texts: LoopTexts,
    max_images: int = MAX_IMAGES,
    max_image_bytes: int = MAX_IMAGE_BYTES,
) -> tuple[list[ToolResultMessage], UserMessage | None]:
    """`(results, message)`: the results with what became of their images appended to their text,
    and the user message carrying the images passed on (None when there are none)."""
    for result in results:  # the common case, no attributes at all: a loop, not `any` of a generator
        if result.attributes:
            break
    else:
        return list(results), None
    if not any(_as_list(result.attributes.get(IMAGES)) for result in results):
        return list(results), None
    budget = _Budget(max_images, max_image_bytes)
    out: list[ToolResultMessage] = []
    lines: list[str] = []
    calls: list[str] = []
    for result in results:
        images = _as_list(result.attributes.get(IMAGES))
        if not images:
            out.append(result)
            continue
        before = len(budget.sent)
        dropped = [item for n, url in enumerate(images, 1) if (item := _take(url, n, budget, texts)) is not None]
        passed = len(budget.sent) - before
        notes = [texts.images_pointer.format(count=passed)] if passed else []
        if dropped:
            notes.append(texts.images_dropped.format(items=texts.image_separator.join(dropped)))
        if passed:
            lines.append(texts.images_line.format(id=result.tool_call_id, tool=result.tool_name or "?", count=passed))
            calls.append(result.tool_call_id)
        content = "\n".join([result.content, *notes]) if result.content else "\n".join(notes)
        out.append(result.model_copy(update={"content": content}))
    if not budget.sent:
        return out, None
    return out, UserMessage(content="\n".join(lines), images=tuple(budget.sent), from_tool_calls=tuple(calls))


def _as_list(value: Any) -> list[Any]:
    """The attribute as a list of would-be URLs: a string is one, anything else not a list is one."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _take(url: Any, n: int, budget: _Budget, texts: LoopTexts) -> str | None:
    """Add image `n` to the budget's sent list, or say why not (an `image_item` text)."""
    info = inspect_image(url)
    why = texts.image_why
    if info.problem is not None:
        reason = why[info.problem].format(mime=info.mime)
    elif len(budget.sent) >= budget.max_images:
        reason = why["count"].format(limit=budget.max_images)
    elif info.size is not None and info.size > budget.max_bytes:
        reason = why["size"].format(size=human_size(info.size), limit=human_size(budget.max_bytes))
    else:
        budget.sent.append(info.url)
        return None
    return texts.image_item.format(n=n, why=reason)
