"""A request body's tool list recognised by its bytes: neither parsed nor written again.

An application sends the same `tools` with every request, and its client writes them the same
way each time: the same bytes in every body. `toolkit.gateway.toolset` reads each distinct list
once, but to find which list a request holds, the gateway still parsed the list out of the
body and wrote it back as compact JSON to look it up: a third of a request's parsing, and as
much again for the writing. `read_body(body)` gives what `orjson.loads(body)` gives, with the
request's `ToolSet` (`toolset.prepare` of its `tools`). When the bytes after the body's first
`"tools":` start with a way of writing a list that it has met before, it parses only the rest
of the body, with a placeholder in the list's place, and puts there the list as parsed when it
was met (one list object, shared by the requests that hold it: the gateway only reads a request).
A body more than `_WORTH` times as long as the list (a long conversation) is parsed the plain way:
making sure of the list's place looks through the whole body, which then costs more than the list.
The key is looked for from the body's start (a forward search skips ahead, some 20 times quicker
than a search from the end, which reads every byte of the list that clients write last), and not
at all in a body too long for any way of writing kept (`_WORTH` times the longest).

Why that is the same request: the rest (the body with the placeholder in the list's place) is
taken only when it parses with the placeholder as its top-level `tools`, and writes `"tools"`
once and no escape `\\u006?` or `\\u007?` (the only other way to write the letters of `tools`,
`\\u0074` say; clients escape no ASCII letter). A JSON string cannot hold the list's bytes (they
hold unescaped quotes), so the placeholder parsed means that the bytes it replaced were one
whole JSON value: the body is the rest with that value in the placeholder's place. The body's
top-level keys are all outside that value, written in the rest as in the body, and the rest
writes one key `tools`, the one before the placeholder: so the value was the request's `tools`.
Anything else (a list not met, a list shorter than `_KEY` bytes, a body writing `tools` twice,
a `"tools":` inside a value before the list, the rest failing to parse) is parsed the plain way, as
is every body the first time:
`read_body_plainly`, which a test holds `read_body` equal to.

A way of writing a list is learned from a body parsed the plain way whose list `toolset` kept
and which an earlier body held too (a list sent once, as a client that sends a new choice of
tools with every request does, is not worth the learning): the list's bytes in that body, found
with the standard library's decoder (`raw_decode`, which says where a value ends), parsed again
with orjson and checked to write the same compact JSON. Bounded: at most `MAX_FORMS` ways of
writing (`MAX_FORM_BYTES` of bytes in all, the oldest dropped first), at most `_TRIES` tries to
learn each list (a body in which its bytes cannot be found, or do not come after the first
`"tools":`, is not read again and again), and the lists met are counted for the last `_COUNTED`
of them (the least recently met forgotten first, each in O(1)).

Leaves out: lists shorter than `_KEY` bytes (cheap to parse); recognising a list written in a
new way before a body has shown it; sharing what is learned between processes.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

import orjson

from toolkit.gateway.toolset import ToolSet, is_kept, prepare

MAX_FORMS = 64
MAX_FORM_BYTES = 4 << 20
_KEY = 64
"""A way of writing a list is looked up by its first `_KEY` bytes."""
_TRIES = 4
_COUNTED = MAX_FORMS * (_TRIES + 1)
_PLACEHOLDER = "the tool list met before"
_QUOTED = f'"{_PLACEHOLDER}"'.encode()
_TOOLS = b'"tools":'
_ESCAPED_LETTERS = (b"\\u006", b"\\u007")
"""How an escaped `t`, `o`, `l` or `s` starts (`\\u0074`...): a body with none writes the key
`tools` only as these five letters."""
_BLANKS = (b" ", b"\n", b"\r", b"\t")
_WORTH = 3
"""A body longer than this many times its list's bytes is parsed the plain way. Taking the list's
place costs two looks through the whole body (`_one_tools_key`, each about 0.4 ns a byte) and a
copy; it saves parsing the list (about 2 ns a byte): measured, the two cost the same when the
rest of the body is about twice the list (a few turns of history), ASCII or Chinese text alike;
with 20 KB of history and a 2 KB list the plain way costs half as much."""


class _Form:
    """One way of writing a kept tool list: its bytes, the list parsed from them, its `ToolSet`."""

    __slots__ = ("raw", "value", "tools")

    def __init__(self, raw: bytes, value: list[Any], tools: ToolSet) -> None:
        self.raw, self.value, self.tools = raw, value, tools


_forms: dict[bytes, list[_Form]] = {}
"""The first `_KEY` bytes of a way of writing → the forms starting with them, oldest first."""
_order: list[_Form] = []
_form_bytes = 0
_longest = 0
"""The longest way of writing kept, in bytes: a body longer than `_WORTH` times it is parsed the plain way."""
_met: OrderedDict[bytes, int] = OrderedDict()
"""A kept list's compact JSON → how many bodies holding it were parsed the plain way."""
_lock = threading.Lock()


def read_body_plainly(body: bytes) -> tuple[Any, ToolSet | None]:
    """`orjson.loads(body)` (its error raised as it is) and the `ToolSet` of its `tools`."""
    request = orjson.loads(body)
    return request, prepare(request.get("tools")) if type(request) is dict else None


def read_body(body: bytes) -> tuple[Any, ToolSet | None]:
    """`read_body_plainly(body)`, with a tool list met before not parsed again (module docstring)."""
    start = _value_start(body) if len(body) <= _WORTH * _longest else -1  # else no form kept can be taken
    for form in _forms.get(body[start : start + _KEY], ()) if start >= 0 else ():
        if body.startswith(form.raw, start):
            if len(body) > _WORTH * len(form.raw):  # a long conversation: the look costs more than the list
                break
            rest = body[:start] + _QUOTED + body[start + len(form.raw) :]
            if _one_tools_key(rest):
                try:
                    request = orjson.loads(rest)
                except orjson.JSONDecodeError:
                    break
                if type(request) is dict and request.get("tools") == _PLACEHOLDER:
                    request["tools"] = form.value  # the same place among the keys: only the value changes
                    return request, form.tools
            break
    request, tools = read_body_plainly(body)
    if tools is not None and is_kept(tools):
        _learn(body, tools)
    return request, tools


def _one_tools_key(text: bytes) -> bool:
    """Whether `text` writes the key `tools` at most once (see the module docstring)."""
    if text.count(b'"tools"') > 1:
        return False
    return b"\\u00" not in text or (_ESCAPED_LETTERS[0] not in text and _ESCAPED_LETTERS[1] not in text)


def _value_start(body: bytes) -> int:
    """Where the value after the body's first `"tools":` starts (after any blanks), or -1."""
    at = body.find(_TOOLS)
    if at < 0:
        return -1
    at += len(_TOOLS)
    while body[at : at + 1] in _BLANKS:
        at += 1
    return at


def _learn(body: bytes, tools: ToolSet) -> None:
    """Keep the way this body writes `tools` (which `toolset` kept), if its bytes are found and
    an earlier body held the list too (see the module docstring)."""
    met = _met.get(tools.compact, 0)
    if met > _TRIES:  # the first sighting and `_TRIES` tries to learn
        return
    with _lock:
        _met[tools.compact] = met + 1
        _met.move_to_end(tools.compact)
        while len(_met) > _COUNTED:
            _met.popitem(last=False)
    start = _value_start(body) if met else -1
    if start < 0:
        return
    try:
        text = body.decode("utf-8")
        at = len(body[:start].decode("utf-8"))
        _, end = json.JSONDecoder().raw_decode(text, at)
        raw = text[at:end].encode("utf-8")
        value = orjson.loads(raw)
        same = orjson.dumps([value])[1:-1] == tools.compact
    except (UnicodeDecodeError, ValueError, RecursionError, TypeError):
        return
    if same and _KEY <= len(raw) <= MAX_FORM_BYTES // 4:
        _keep(_Form(raw, value, tools))


def _keep(form: _Form) -> None:
    global _form_bytes, _longest
    with _lock:
        key = form.raw[:_KEY]
        if any(f.raw == form.raw for f in _forms.get(key, ())):
            return
        while _order and (len(_order) >= MAX_FORMS or _form_bytes + len(form.raw) > MAX_FORM_BYTES):
            old = _order.pop(0)
            _form_bytes -= len(old.raw)
            kept = [f for f in _forms[old.raw[:_KEY]] if f is not old]
            if kept:
                _forms[old.raw[:_KEY]] = kept
            else:
                del _forms[old.raw[:_KEY]]
        _forms[key] = [*_forms.get(key, ()), form]  # a new list: readers never see one change
        _order.append(form)
        _form_bytes += len(form.raw)
        _longest = max(len(f.raw) for f in _order)


def clear() -> None:
    """Forget every way of writing learned (tests; a long-running server never needs to)."""
    global _form_bytes, _longest
    with _lock:
        _forms.clear()
        _order.clear()
        _met.clear()
        _form_bytes = _longest = 0
