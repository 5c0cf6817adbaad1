"""`SentTool`: one entry of a request's `tools` array, read-only because it is shared.

The loop builds the `tools` array of a set of tools once and sends the same entries in every
request (`toolkit.loop.payload.tools_payload`), so an entry must not change under a later request:
it refuses every change, and what it is never changes, so what is worked out from it once holds
(its `json_counts`, which `ScriptedModel` adds to a request's input tokens).

Leaves out: the nested `parameters` schema is a plain dict, read-only by the same contract, not
enforced.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolkit.chat.read_only import ReadOnlyDict
from toolkit.tokens import array_tokens, json_counts


class SentTool(ReadOnlyDict):
    """One entry of a request's `tools` array (or its `function` part), shared by every request
    that sends the same tool: read-only, so no model or caller changes what later requests
    send. Equal to the plain dict, serialised like it; a copy (`dict(entry)`, `copy.copy`,
    `copy.deepcopy`, pickling) is a plain, mutable dict."""

    __slots__ = ("_counts",)

    READ_ONLY = (
        "this tools-array entry is shared by every request that sends the tool, so it is "
        "read-only; change a copy instead (dict(entry))"
    )

    def json_counts(self) -> tuple[int, int]:
        """`toolkit.tokens.json_counts` of this entry, worked out once (it never changes)."""
        try:
            return self._counts
        except AttributeError:
            self._counts: tuple[int, int] = json_counts(self)
            return self._counts


def tools_tokens(entries: Sequence[Any]) -> int:
    """`toolkit.tokens.estimate_json_tokens(entries)` of a `tools` array, each `SentTool` entry's
    counts worked out once (a trace asking every round re-wrote thousands of tools each time)."""
    wide = narrow = 0
    for entry in entries:
        w, n = entry.json_counts() if type(entry) is SentTool else json_counts(entry)
        wide, narrow = wide + w, narrow + n
    return array_tokens(wide, narrow, len(entries))
