"""A message a server sent nested deeper than the SDK reads JSON (pydantic-core stops at about 200 levels).

The SDK reports such a line as invalid JSON, and the client took it for a stray `print` on the server's
stdout: the request it answered (a `tools/list` whose tool's `inputSchema` nests a hundred `properties`
deep, say) waited out its whole deadline, and its timeout said the server "wrote a line that is not JSON
… logs go to stderr", which it had not. `too_deep` tells such a line apart by the parser's own words;
`answers` whether it is an answer (its top-level keys hold an `id` and no `method`: its request would
wait in vain, so the client fails the waiting requests at once); `DEEP` says what happened.

Leaves out: reading the message after all (no parser here is both deeper and bounded), and telling
which request it answered (the client's `_broke_protocol` fails every waiting one, as for any answer
that cannot be read).
"""

from __future__ import annotations

import re
from typing import Any

DEEP = (
    "it sent a message nested deeper than JSON is read here ({why}), so it could not be read; ask its author to "
    "nest less (a tool's inputSchema can name a repeated part once in $defs and refer to it with $ref)"
)
"""What a server whose message nests too deep did (`why`: the parser's words)."""

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"(\s*:)?|[{}\[\]]')
"""A JSON string (a key when a `:` follows) or a bracket: enough to find an object's top-level keys."""


def too_deep(errors: list[Any]) -> str | None:
    """The parser's words (`recursion limit exceeded at line 1 column 1058`) when the SDK could not read a
    message for nesting too deep (`errors`: its `ValidationError.errors()`); else None."""
    for error in errors:
        said = str((error.get("ctx") or {}).get("error", ""))
        if error.get("type") == "json_invalid" and said.startswith("recursion limit exceeded"):
            return said
    return None


def answers(line: str) -> bool:
    """Whether the JSON object `line` is an answer: among its top-level keys an `id`, and no `method`."""
    keys: set[str] = set()
    depth = 0
    for token in _TOKENS.finditer(line):
        text = token.group()
        if text in "{[":
            depth += 1
        elif text in "}]":
            depth -= 1
            if depth == 0:
                break
        elif token.group(1) and depth == 1:
            keys.add(text[: text.rindex('"') + 1])
    return '"id"' in keys and '"method"' not in keys
