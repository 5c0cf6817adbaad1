"""The hash a reply's ids are made from, without writing the request's tool list again.

The ids hash the mode and the request's compact JSON (`dumps`, the delivery fields left out:
see `toolkit.gateway.core`): `plain_digest(mode, said)`. Most of those bytes are the tool list,
which is the same from request to request and which `toolkit.gateway.toolset.prepare` has
written already (`ToolSet.compact`). `request_digest(mode, said, tools)` gives the same hash
and writes only the rest around the list: the request with a marker in the list's place,
cut at the marker. The parts and the list between them are the very bytes of the whole
request: orjson writes a dict as its keys and values in order with no spaces, and a
`Fragment` as its bytes.

Nothing of the request is kept: clients write the conversation before the tools (the OpenAI
SDK sends `messages` first, `toolkit.chat.client` sends `model` then `messages`), so what comes
before the list is different in every request.

Leaves out: anything orjson cannot write as it is (a value it refuses, a list nested too deeply
to write inside the request: `ToolSet.spliceable`); those are hashed the plain way.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from toolkit.gateway.toolset import ToolSet
from toolkit.gateway.wire import dumps


def plain_digest(mode: str, said: dict[str, Any]) -> str:
    """The hash of the mode and the request's compact JSON, written whole."""
    return hashlib.sha256(mode.encode() + dumps(said)).hexdigest()


def request_digest(mode: str, said: dict[str, Any], tools: ToolSet | None) -> str:
    """`plain_digest(mode, said)`; `tools` is `said["tools"]` prepared (or None)."""
    if tools is None or not tools.spliceable:
        return plain_digest(mode, said)
    parts = _around_tools(said)
    if parts is None:
        return plain_digest(mode, said)
    head, tail = parts
    state = hashlib.sha256(mode.encode() + head)
    state.update(tools.compact)
    state.update(tail)
    return state.hexdigest()


def _around_tools(said: dict[str, Any]) -> tuple[bytes, bytes] | None:
    """The request's compact JSON before its tool list (up to `"tools":`) and after it: written
    once with a marker in the list's place, a NUL byte (which orjson never writes: it escapes
    control characters in strings). None when orjson refuses a field (the plain path then
    writes the request as `dumps` does) or cannot mark (an orjson without `Fragment`)."""
    if _MARK is None or "tools" not in said:
        return None
    try:
        written = orjson.dumps({**said, "tools": _MARK})
    except TypeError:  # orjson.JSONEncodeError
        return None
    head, _, tail = written.partition(b"\x00")
    return head, tail


_MARK = orjson.Fragment(b"\x00") if hasattr(orjson, "Fragment") else None
