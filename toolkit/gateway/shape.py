"""What the request asks the reply to look like, applied after the rules decided what to say.

Three options, in the order the OpenAI API applies them to generated text:

1. `response_format` — `json_object`: the reply becomes `{"answer": text}`; `json_schema`: an
   instance of the schema, whatever its root (an object, or an array, a string, a choice of objects,
   as a schema sent without `strict` may have; a strict one's root is an object: `toolkit.gateway.validate`;
   required fields, typed; enums, string formats and patterns, number
   bounds, unique items and tuples respected; a recursive schema filled once), filled from the
   conversation by `toolkit.gateway.generic.fill_value`, so it parses and validates;
2. `stop` — the text ends before the first stop sequence it contains (finish_reason stays
   "stop"); a tool call is not text and is never cut by it;
3. `max_completion_tokens` (or the older `max_tokens`) — a reply longer than that, in
   `estimate_tokens`, is cut there, and finish_reason becomes "length"; tool calls are cut
   the same way (a call's arguments stop mid-JSON, later calls are dropped), as a real
   model's would be.

Leaves out: logprobs, sampling (`n > 1` repeats the shaped turn: `toolkit.gateway.core`).
"""

from __future__ import annotations

import json
from typing import Any

from toolkit.gateway.generic import fill_value
from toolkit.gateway.rules import Rules, read_text
from toolkit.tokens import estimate_tokens


def formatted(text: str, request: dict[str, Any], said: str, rules: Rules) -> str:
    """`text` as the request's `response_format` wants it; `said` is the conversation's text
    the values are taken from."""
    fmt = request.get("response_format")
    if not isinstance(fmt, dict):
        return text
    kind = fmt.get("type")
    if kind == "json_object":
        return json.dumps({"answer": text}, ensure_ascii=False)
    if kind == "json_schema":
        schema = fmt["json_schema"].get("schema") or {"type": "object"}
        value = fill_value(schema, said, read_text(said, rules), rules)
        return json.dumps(value, ensure_ascii=False)
    return text


def stopped(text: str, stop: Any) -> str:
    """`text` up to (not including) the earliest stop sequence in it."""
    sequences = [stop] if isinstance(stop, str) else stop or []
    cuts = [at for s in sequences if s and (at := text.find(s)) != -1]
    return text[: min(cuts)] if cuts else text


def token_limit(request: dict[str, Any]) -> int | None:
    """`max_completion_tokens`, else `max_tokens`, else None."""
    limit = request.get("max_completion_tokens")
    return request.get("max_tokens") if limit is None else limit


def cut_to_tokens(text: str, limit: int) -> str:
    """The longest prefix of `text` whose `estimate_tokens` is at most `limit`."""
    if estimate_tokens(text) <= limit:
        return text
    low, high = 0, len(text)  # estimate_tokens grows with the prefix: binary search
    while low < high:
        middle = (low + high + 1) // 2
        if estimate_tokens(text[:middle]) <= limit:
            low = middle
        else:
            high = middle - 1
    return text[:low]


def cut_calls(calls: tuple[dict[str, Any], ...], limit: int) -> tuple[tuple[dict[str, Any], ...], bool]:
    """Tool calls within `limit` tokens (name + arguments each); True if anything was cut."""
    kept: list[dict[str, Any]] = []
    left = limit
    for call in calls:
        function = call["function"]
        cost = estimate_tokens(function["name"] + function["arguments"])
        if cost <= left:
            kept.append(call)
            left -= cost
            continue
        room = max(0, left - estimate_tokens(function["name"]))
        kept.append({**call, "function": {**function, "arguments": cut_to_tokens(function["arguments"], room)}})
        return tuple(kept), True
    return tuple(kept), False
