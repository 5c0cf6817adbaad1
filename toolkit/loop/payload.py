"""A request's `tools` array, built once per set of tools and kept for later rounds and calls.

`tools_payload(effective, strict)` gives the tools' names and their `tools` array entries:
`ToolSpec.to_openai(strict)` of each, as read-only dicts (`toolkit.chat.sent.SentTool`: equal to the
plain dicts, JSON-serialisable, and a change raises instead of reaching a later request). A `Tool` is
frozen, so the same tools give the same array: the last `_SENT_KEPT` sets are kept, keyed by the
tools' ids (each entry holds its tools, so the ids stay theirs while it is kept). The loop gives
each request its own list of the entries.

More than `MANY_TOOLS` tools (128) in one request are told once per set of names, in one line on the
`toolkit.loop` logger: how many, what their specs weigh in JSON (sent with every request) and how to
narrow them (`filter_tools`, or tool search). An MCP server may list 10,000 tools, and all of them were
sent in silence: OpenAI refuses more than 128 (`toolkit.gateway.validate.MAX_TOOLS`), other gateways
take them and bill them every turn, and a model picks worse among many (week 8). They are still sent.

Leaves out: the tools a provider or a tool search changes between rounds (those are a new set,
built once too).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Sequence

from toolkit.chat.sent import SentTool
from toolkit.tools.execute import Tool

log: logging.Logger = logging.getLogger("toolkit.loop")

MANY_TOOLS = 128
"""More tools than this in one request are told (see the module): OpenAI's `tools` array takes 128 at most."""
_TOLD_KEPT = 64
"""How many sets of tool names told of `_told` remembers."""
_told: set[int] = set()

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
        if len(tools) > MANY_TOOLS:
            _tell_many(entry[1], entry[2])
        with _sent_lock:
            _sent.pop(key, None)
            while len(_sent) >= _SENT_KEPT:
                _sent.pop(next(iter(_sent)))
            _sent[key] = entry
    _last_sent = (strict, *entry)
    return entry[1], entry[2]


def _tell_many(names: tuple[str, ...], entries: tuple[SentTool, ...]) -> None:
    """Tell, once per set of `names`, that so many tools go in one request (see the module)."""
    key = hash(names)
    with _sent_lock:
        if key in _told:
            return
        if len(_told) >= _TOLD_KEPT:
            _told.clear()
        _told.add(key)
    log.warning(
        "the model is offered %s tools in one request, their specs %s characters of JSON sent with every request "
        "(OpenAI refuses more than %d): offer fewer, filter_tools(provider, names) (toolkit.loop.wrappers), or have "
        "the model search them, ToolSearch(KeywordSearch()).context(tools, providers) (toolkit.search)",
        f"{len(names):,}",
        f"{len(json.dumps(entries, ensure_ascii=False)):,}",
        MANY_TOOLS,
    )
