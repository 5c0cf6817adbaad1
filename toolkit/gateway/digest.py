"""The hash a reply's ids are made from, without hashing the request's tool list again.

The ids hash the mode and the request's compact JSON (`dumps`, the delivery fields left out:
see `toolkit.gateway.core`). A request with a `tools` field is hashed as two parts: first its
tool list (`dumps(said["tools"])`, then a NUL byte, which compact JSON never holds), then the
mode and the rest of the request with its tool list written as `null`: `plain_digest(mode,
said)`. Most of a request's bytes are its tool list, which is the same from request to request;
`toolkit.gateway.toolset.prepare` writes it once per distinct list (`ToolSet.compact`, the very
bytes `dumps` writes for it) and keeps the hash state after it (`tools_state`).
`request_digest(mode, said, state)` goes on from a copy of that state, and gives the same hash.

Nothing of the request is kept: the conversation is different in every request, and the tool
list's state is kept by its `ToolSet`, whose store is bounded.

Leaves out: an order of the two parts that follows the request (the tool list goes first,
wherever the request wrote it, so that its state can be kept).
"""

from __future__ import annotations

import hashlib
from typing import Any

from toolkit.gateway.wire import dumps

_LIST_END = b"\x00"


def plain_digest(mode: str, said: dict[str, Any]) -> str:
    """The hash of the request's tool list (if it has a `tools` field), the mode and the rest
    of the request, each written whole."""
    if "tools" not in said:
        return hashlib.sha256(mode.encode() + dumps(said)).hexdigest()
    state = tools_state(dumps(said["tools"]))
    state.update(mode.encode() + _rest(said))
    return state.hexdigest()


def request_digest(mode: str, said: dict[str, Any], listed: Any | None) -> str:
    """`plain_digest(mode, said)`; `listed` is `tools_state` of `said["tools"]` (a prepared tool
    list's `ToolSet.digest_state`), or None."""
    if listed is None or "tools" not in said:
        return plain_digest(mode, said)
    state = listed.copy()
    state.update(mode.encode() + _rest(said))
    return state.hexdigest()


def tools_state(compact: bytes) -> Any:
    """The hash state after a tool list written as `compact` (`dumps` of the list)."""
    return hashlib.sha256(compact + _LIST_END)


def _rest(said: dict[str, Any]) -> bytes:
    """The request's compact JSON with its tool list written as `null`, in the same place."""
    return dumps({**said, "tools": None})
