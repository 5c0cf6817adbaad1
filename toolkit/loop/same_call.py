"""What makes two tool calls the same call, for the loop guard: the same name and the same
arguments, key order aside.

`same_call_key_plainly(call)` is the definition: the name, and the arguments read by `json.loads`
and written back with sorted keys (text that is not JSON, or nests too deep to read, stands for
itself). `same_call_key(call)` gives keys that are equal exactly when the plain ones are, quicker:
orjson reads the arguments and writes them back sorted, as bytes, wherever it reads the value
`json.loads` reads and can write it; anything else (NaN, `1e400`, a lone surrogate, an integer past
64 bits, which orjson reads as a float, nesting orjson will not write) takes the plain way, as a
`str`. A bytes key never equals a str key, and which way a call takes depends on its value alone,
so the two relations are one (`tests/test_loop_same_call.py` holds them equal).

Leaves out: any looser sameness (`1` and `1.0`, `"1"` and `1` are different arguments), and
anything about the result: the loop decides what a repeated call gets.
"""

from __future__ import annotations

import json

import orjson

from toolkit.chat.messages import ToolCall
from toolkit.tools.json_repair import has_large_float

CallKey = tuple[str, str | bytes]


def same_call_key_plainly(call: ToolCall) -> tuple[str, str]:
    """The definition: the name and the arguments as sorted JSON (as they are, if not JSON)."""
    try:
        return call.name, _SORTED.encode(json.loads(call.arguments))
    except (ValueError, RecursionError):
        return call.name, call.arguments


def same_call_key(call: ToolCall) -> CallKey:
    """A key equal to another call's exactly when `same_call_key_plainly`'s are equal."""
    try:
        value = orjson.loads(call.arguments)
        if not has_large_float(value):  # else an integer orjson misread may be in it: the plain way
            return call.name, orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):  # refused, or nested too deep to write
        pass
    return same_call_key_plainly(call)


_SORTED = json.JSONEncoder(sort_keys=True)
"""`json.dumps(value, sort_keys=True)`, without making an encoder for each call."""
