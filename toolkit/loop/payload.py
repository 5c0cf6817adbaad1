"""A request's `tools` array, built once per set of tools and kept for later rounds and calls.

`tools_payload(effective, strict)` gives the tools' names and their `tools` array entries:
`ToolSpec.to_openai(strict)` of each, as read-only dicts (`toolkit.chat.sent.SentTool`: equal to the
plain dicts, JSON-serialisable, and a change raises instead of reaching a later request). A `Tool` is
frozen, so the same tools give the same array: the last `_SENT_KEPT` sets are kept, keyed by the
tools' ids (each entry holds its tools, so the ids stay theirs while it is kept). The loop gives
each request its own list of the entries.

Leaves out: the tools a provider or a tool search changes between rounds (those are a new set,
built once too).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from toolkit.chat.sent import SentTool
from toolkit.tools.execute import Tool

_SENT_KEPT = 16
"""How many tool sets `tools_payload` remembers."""
_sent: dict[tuple[bool, tuple[int, ...]], tuple[tuple[Tool, ...], tuple[str, ...], tuple[SentTool, ...]]] = {}
_sent_lock = threading.Lock()
_last_sent: tuple[bool, tuple[Tool, ...], tuple[str, ...], tuple[SentTool, ...]] = (False, (), (), ())
"""The set `tools_payload` gave last: a loop asks for the same tools call after call, and comparing
them is cheaper than the ids of the key."""


def _sent_tool(tool: Tool, strict: bool) -> SentTool:
    entry = tool.spec.to_openai(strict=strict)
    return SentTool(entry, function=SentTool(entry["function"]))


def tools_payload(effective: Sequence[Tool], strict: bool = False) -> tuple[tuple[str, ...], tuple[SentTool, ...]]:
    """The names and the `tools` array entries of `effective` (`ToolSpec.to_openai(strict)` each,
    read-only), built once per set of tools: a `Tool` is frozen, so the same tools give the
    same array. The entry holds its tools, so the ids in its key stay theirs while it is kept."""
    global _last_sent
    tools = tuple(effective)
    last = _last_sent
    if last[0] == strict and last[1] == tools:  # the last set asked for (equal tools give equal entries)
        return last[2], last[3]
    key = (strict, tuple(map(id, tools)))
    entry = _sent.get(key)
    if entry is None:
        entry = (tools, tuple(t.name for t in tools), tuple(_sent_tool(t, strict) for t in tools))
        with _sent_lock:
            _sent.pop(key, None)
            while len(_sent) >= _SENT_KEPT:
                _sent.pop(next(iter(_sent)))
            _sent[key] = entry
    _last_sent = (strict, *entry)
    return entry[1], entry[2]
