"""Lenient in: JSON text with the slips models really make, read as JSON — one repair, two users.

`loads(text)` tries strict JSON first; only if that fails it tries the repaired text. The
repairs, each one a slip seen from real models and gateways (the same ones LangChain4j's
`ToolExecutionRequestUtil` repairs, plus the quote slips of prompt-protocol replies):

==============================  ==========================  =====================================
the model sent                  read as                     why
==============================  ==========================  =====================================
``{"a": 1,}``  ``[1, 2,]``      ``{"a": 1}``  ``[1, 2]``    trailing commas (outside strings)
``{,}``                         ``{}``                      an empty object with a stray comma
``"{"a": 1}"``                  ``{"a": 1}``                an object wrapped in quotes
``"{\\"a\\": 1}"``              ``{"a": 1}``                double-encoded: a JSON string holding
                                                            the object (some gateways send it)
``{“a”: 1}``  ``{'a': 1}``      ``{"a": 1}``                curly quotes outside strings; single
                                                            quotes when the text has no double
                                                            quote at all (quotes inside a string,
                                                            ``"说“快”"``, ``'it\\'s'``, kept)
````json {"a": 1} ```` (fenced)  ``{"a": 1}``                the whole text in a Markdown code
                                                            fence (a language tag or none), as
                                                            some open models write arguments
``{"code": "a⏎b"}`` (a raw      ``{"code": "a\\nb"}``       a line break, tab or other control
line break in a string)                                     character written raw in a string, as
                                                            `json.loads(strict=False)` (LangChain)
                                                            reads it
==============================  ==========================  =====================================

Strict out: whatever is read still goes through the same validation as clean JSON, so a repair
never turns a wrong value into a right one. `toolkit.tools.arguments` reads a tool call's
arguments with it, and `toolkit.course.prompt_protocol` reads the calls in a text reply with it.

Strict JSON is read by orjson where orjson reads it exactly as `json.loads` does, and by
`json.loads` everywhere else (`_parse`; a test holds the two equal on edge cases and random
text). `loads` also has limits, so hostile input fails cleanly: text longer than `MAX_CHARS` and
nesting deeper than `MAX_DEPTH` raise `TooLarge` (a `ValueError`), never `RecursionError`.

`key_twice(text, value)` finds a key written twice in one object with two different values, which
`loads` (as every JSON reader) reads as the last one; the executor refuses it (`toolkit.tools.arguments`).

Leaves out: comments, unquoted keys, Python literals (`True`, `None`), `NaN`: JSON5 is not the
goal, only the slips above. (`json.loads` itself reads `NaN` and `Infinity`; a tool's arguments
holding one are refused by the executor's coercion, `toolkit.tools.coercion` rule 3.)
"""

from __future__ import annotations

import decimal
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

MAX_CHARS = 1_000_000
"""Longest arguments text read (characters)."""
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects read."""

_CURLY_DOUBLE = re.compile("[“”„＂]")
_STRING_OR_CURLY = re.compile(r'("(?:\\.|[^"\\])*+(?:"|\\?\Z))|[“”„＂]', re.S)
"""A string in straight double quotes (kept as it is), or a curly double quote outside one."""
_SINGLE_QUOTES = str.maketrans({"‘": "'", "’": "'"})
_SINGLE_QUOTED = re.compile(r"'((?:\\.|[^'\\])*+)(?:(')|\\?\Z)", re.S)
"""A single-quoted string (one left open runs to the end, as `_STRING_OR_TRAILING_COMMA`'s do)."""
_ESCAPE = re.compile(r"\\(.)", re.S)
_STRING_OR_TRAILING_COMMA = re.compile(r'"(?:\\.|[^"\\])*+(?:"|\\?\Z)|,(\s*[}\]])', re.S)
"""A string (one left open runs to the end: tried again from each quote inside it, it made a
cut-off text with many escaped quotes quadratic), or a trailing comma. An escape takes any
character after its backslash, a line break too (`re.S`), and a string left open may end with a
lone backslash: so the run of characters always stops at a quote or the end, and is never given
back (`*+`). Each of these made a text of escaped quotes quadratic again (`"\\"\\…\\`: 2.7 s for
20,000 characters, a 1 MB argument hours)."""
_LEADING_COMMA = re.compile(r"([{\[])\s*,\s*([}\]])")


class TooLarge(ValueError):
    """The text is longer than `MAX_CHARS` or nests deeper than `MAX_DEPTH`."""


def loads(text: str, *, parse_float: Callable[[str], Any] | None = None) -> Any:
    """JSON from `text`, strict first, then repaired (see the module docstring).

    Raises `ValueError` when neither reads (`TooLarge` for text over the limits).
    """
    if len(text) > MAX_CHARS:
        raise TooLarge(f"{len(text)} characters, more than {MAX_CHARS}")
    try:
        value = _strict(text, parse_float)
    except ValueError:
        value = _strict(repair(text), parse_float)
    if type(value) is str and value.lstrip().startswith(("{", "[")):  # double-encoded (JSON reads exact strs)
        try:
            value = _strict(value, parse_float)
        except ValueError:
            pass
    return value


@dataclass(frozen=True)
class Twice:
    """A key written twice in one object with two different values (`{"x": 1, "x": 2}`)."""

    path: str
    """Where: the key, after the path of the object holding it (`a.b`, `items[2].sku`)."""
    first: Any
    second: Any
    """The two values, in the order written (every JSON reader keeps the second, dropping the first)."""


def key_twice(text: str, value: Any, *, parse_float: Callable[[str], Any] | None = None) -> Twice | None:
    """The first key `text` writes twice in one object with two different values, or None. `value`
    is what `loads(text, parse_float=parse_float)` read from it.

    Read again only when a key may be there twice: each key is written with a colon of its own,
    and a colon in a string is one in `value`'s strings too (or an escape, `\\u003a`, the other way
    round), so a text with no more colons than `value` written again (by orjson) has no key twice.
    The caller counts first: a text with no more colons than `value` has keys at its top level
    (`{"orderId": "SN1"}`) costs nothing more. Where the count cannot tell (an escape in the text,
    a value orjson does not write), a text is read again only if it has more places where a key
    may end (`_KEY_END`: a quote, in any quotes the repair reads, then a colon) than `value` has keys."""
    try:
        written = orjson.dumps(value, default=str).count(b":")
    except (TypeError, orjson.JSONEncodeError):  # an integer past 64 bits
        written = -1
    if written >= 0 and "\\u" not in text and text.count(":") <= written:
        return None
    if len(_KEY_END.findall(text)) <= _keys(value):
        return None
    return _first_twice(_read_pairs(text, parse_float))


def _read_pairs(text: str, parse_float: Callable[[str], Any] | None) -> Any:
    """`loads(text)`, read as `json.loads` reads it with `_pairs` building each object."""
    try:
        value = _strict(text, parse_float, pairs=True)
    except ValueError:
        value = _strict(repair(text), parse_float, pairs=True)
    if type(value) is str and value.lstrip().startswith(("{", "[")):
        try:
            value = _strict(value, parse_float, pairs=True)
        except ValueError:
            pass
    return value


_KEY_END = re.compile("[\"'“”„＂‘’]\\s*:")
"""A quote, blanks, a colon: how each key ends (and, inside a string, only an escaped quote's `\\":`)."""


class _Pairs(dict[str, Any]):
    """An object read with a key twice: `twice` holds the first such key and its two values."""

    twice: tuple[str, Any, Any]


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`dict(pairs)`, as `json.loads` builds it, noting the first key given two different values."""
    out: dict[str, Any] = {}
    twice = None
    for key, item in pairs:
        if twice is None and key in out and not _same(out[key], item):
            twice = (key, out[key], item)
        out[key] = item
    if twice is None:
        return out
    marked = _Pairs(out)
    marked.twice = twice
    return marked


def _same(a: Any, b: Any) -> bool:
    """Whether two values read from JSON are written the same (1 and 1.0, or true and 1, are not)."""
    try:
        return type(a) is type(b) and json.dumps(a, sort_keys=True, default=str) == json.dumps(
            b, sort_keys=True, default=str
        )
    except (TypeError, ValueError):
        return False


def _keys(value: Any) -> int:
    """How many keys the objects in `value` hold, at every depth (iterative: no recursion limit)."""
    total, stack = 0, [value]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            total += len(node)
            stack.extend(node.values())
        elif type(node) is list:
            stack.extend(node)
    return total


def _first_twice(value: Any) -> Twice | None:
    """The first object (in the text's order) read with a key twice, as a `Twice`."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, _Pairs):
            key, first, second = node.twice
            return Twice(f"{path}.{key}" if path else key, first, second)
        if isinstance(node, dict):
            stack.extend((item, f"{path}.{key}" if path else key) for key, item in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((item, f"{path}[{i}]") for i, item in reversed(list(enumerate(node))))
    return None


def repair(text: str) -> str:
    """`text` with the slips of the table fixed (strings are left as they are)."""
    out = _double_quoted(_unfenced(text.strip()))
    if len(out) >= 2 and out[0] == '"' and out[-1] == '"' and out[1:2] in ("{", "["):
        inner = out[1:-1]
        out = inner.replace('\\"', '"') if inner.startswith(('{\\"', '[\\"')) else inner
    out = _STRING_OR_TRAILING_COMMA.sub(_string_or_bracket, out)
    return _LEADING_COMMA.sub(r"\1\2", out)


def _string_or_bracket(found: re.Match[str]) -> str:
    """A trailing comma's bracket alone; a string with any control character written raw in it
    (a line break in a multi-line argument) escaped, as JSON writes it."""
    if found.group(1) is not None:
        return found.group(1)
    return _ESCAPE_OR_CONTROL.sub(_escaped, found.group(0))


_ESCAPE_OR_CONTROL = re.compile(r"\\.|[\x00-\x1f]", re.S)
"""An escape (kept as written: a backslash before a raw line break stays no JSON), or a control character."""


def _escaped(found: re.Match[str]) -> str:
    text = found.group(0)
    return text if len(text) == 2 else json.dumps(text)[1:-1]  # `\n`, `\t`, `\u0000`


def _double_quoted(text: str) -> str:
    """`text` with its strings written in straight double quotes: curly double quotes (`“a”`)
    outside the strings already so written, and single quotes (`'a'`, or `‘a’` when it has no
    straight one) in a text with no double quote at all. A quote inside a string is kept as
    written (`"客户说“尽快”"`, `“it's”`, `'don’t'`), and `\\'` is read as the apostrophe it escapes."""
    if '"' in text or _CURLY_DOUBLE.search(text):
        return _STRING_OR_CURLY.sub(lambda m: m.group(1) or '"', text)
    if "'" not in text:
        text = text.translate(_SINGLE_QUOTES)
    return _SINGLE_QUOTED.sub(_single_to_double, text)


def _single_to_double(found: re.Match[str]) -> str:
    if found.group(2) is None:  # left open: no JSON either way
        return found.group(0)
    return '"' + _ESCAPE.sub(lambda m: m.group(1) if m.group(1) == "'" else m.group(0), found.group(1)) + '"'


_FENCE_TAG = re.compile(r"[\w+-]*")
"""A code fence's language tag (`json`, `JSON`, `json5`), read right after its opening backticks."""


def _unfenced(text: str) -> str:
    """`text` without a Markdown code fence around the whole of it (```` ```json … ``` ````): one
    opening fence with its tag and one closing fence, nothing outside them, no fence inside.
    (Not a regex over the whole text: `(.*?)` before blanks and a fence is quadratic on a long run
    of blanks.)"""
    if len(text) < 6 or not text.startswith("```") or not text.endswith("```"):
        return text
    body = text[3:-3]
    if "```" in body:
        return text
    tag = _FENCE_TAG.match(body)
    return body[tag.end() if tag else 0 :].strip()


def _strict(text: str, parse_float: Callable[[str], Any] | None, pairs: bool = False) -> Any:
    try:
        value = (
            json.loads(text, parse_float=parse_float, object_pairs_hook=_pairs) if pairs else _parse(text, parse_float)
        )
    except RecursionError:
        raise TooLarge(f"nested deeper than {MAX_DEPTH} levels") from None
    if len(text) > MAX_DEPTH and _may_nest_deeper(text) and _depth(value) > MAX_DEPTH:  # short: too few brackets
        raise TooLarge(f"nested deeper than {MAX_DEPTH} levels")
    return value


def _parse(text: str, parse_float: Callable[[str], Any] | None) -> Any:
    """`json.loads(text, parse_float=parse_float)`, read by orjson (several times faster) where
    orjson reads it the same: no `parse_float`, and no integer past 64 bits (orjson reads one as a
    float). So a value orjson read with a whole float (`has_whole_float`: an integer past 64 bits
    becomes one, and so does a number whose float is not the number written, `1e-400` → 0.0) is
    kept only if the text has no number that could be either (`_MAY_BE_INEXACT`: a run of 16 digits
    and points, or an exponent). Without `parse_float`, `json.loads` reads floats with
    `written_float` (a number whose float is not the number written keeps its text). What orjson
    refuses (NaN, 1e400, a lone surrogate, deep nesting) goes to `json.loads`, which decides."""
    if parse_float is None:
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
        else:
            if _no_float(text) or not has_whole_float(value) or not _MAY_BE_INEXACT.search(text):
                return value
        return _WRITTEN.decode(text)
    return json.loads(text, parse_float=parse_float)


def _no_float(text: str) -> bool:
    """Whether a short text surely holds no float (`{}`, `{"n": 3}`): a JSON float is written with a
    point or an exponent, and an integer orjson reads as a float has 20 digits at least. Cheaper than
    walking the value for one."""
    return len(text) < 19 and "." not in text and "e" not in text and "E" not in text


_MAY_BE_INEXACT = re.compile(r"[0-9](?:[0-9.]{15}|[eE])")
"""Where a JSON number may be one a float does not hold as written, and reads as a whole float: an
exponent, or 16 digits and points in a row (a decimal of at most 15 significant digits is the
float's reading of it, so a whole float read from one was written whole); an integer past 64 bits too."""


class Written(float):
    """A JSON number whose float is not the number written (`1e-400` → 0.0, `1e23` →
    99999999999999991611392.0, `1.0000000000000000001` → 1.0, `1e400` → inf): that float, with the
    text the model wrote (`text`), which an integer is read from exactly
    (`toolkit.tools.coercion`: `1e-400` is no integer, `1e23` is 10**23)."""

    __slots__ = ("text",)
    text: str

    def __new__(cls, value: float, text: str) -> Written:
        number = super().__new__(cls, value)
        number.text = text
        return number

    def __reduce__(self) -> Any:  # pickled and copied as the number written
        return (Written, (float(self), self.text))


def written_float(text: str) -> float:
    """The float of a JSON number's `text`, a `Written` when that float is a whole number or an
    infinity the text is not (checked only then: a fraction read as a fraction is no integer either way)."""
    value = float(text)
    if (value.is_integer() or value in _INFINITIES) and decimal.Decimal(text) != value:
        return Written(value, text)
    return value


_INFINITIES = (math.inf, -math.inf)
_WRITTEN = json.JSONDecoder(parse_float=written_float)


def has_whole_float(value: Any) -> bool:
    """Whether `value` holds a whole float, or an infinity."""
    return _holds_float(value, lambda number: number.is_integer() or number in _INFINITIES)


_INT64 = 2.0**63
"""An integer outside [-2**63, 2**64) is read by orjson as a float at least this large."""


def has_large_float(value: Any) -> bool:
    """Whether `value` holds a float of magnitude 2**63 or more."""
    return _holds_float(value, lambda number: not -_INT64 < number < _INT64)


def _holds_float(value: Any, found: Callable[[float], bool]) -> bool:
    """Whether a float in `value`, a JSON value as read (dicts, lists), is `found` (iterative: no
    recursion limit)."""
    stack = [value]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is dict:
            stack.extend(node.values())
        elif kind is list:
            stack.extend(node)
        elif kind is float and found(node):
            return True
    return False


def _may_nest_deeper(text: str) -> bool:
    """Could `text` nest deeper than `MAX_DEPTH`? Each level opens with a bracket of its own, so
    not with `MAX_DEPTH` brackets or fewer (brackets inside strings only make this say yes)."""
    return text.count("{") + text.count("[") > MAX_DEPTH


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in `value` (iterative: no recursion limit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if level > deepest:
            deepest = level
            if deepest > MAX_DEPTH:
                return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest
