"""A tool's value as the text the model reads: `to_text(value)`.

A successful value becomes text: `None` → "Success", `str` as is, anything else JSON (pydantic
models through `model_dump(mode="json")`); a finite `Decimal` is written as a JSON number with all
its digits (`4`, not `"4"`), NaN and infinities as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`,
wherever they are nested (a dataclass, a set, a deque too); a set is a list of its items sorted,
the same every run (`toolkit.tools.set_order`); a dict whose keys are alike once written as JSON
keys (`{1: "a", "1": "b"}`) keeps every entry, the key twice, as `json.dumps` and pydantic's
`to_json` write it (converting the keys first kept the last value only). A tool that returned has run, so turning
its value into text never fails the call: `bytes` are decoded when they are UTF-8 and hold no NUL
(git's and grep's test for binary data), else read `<binary data, N bytes>`; a `str` goes as the
tool wrote it, NULs and control characters too (JSON escapes them on the wire, the store keeps
them); a returned exception is its message, sanitised as a raised one's
(`toolkit.tools.redact`); numpy and pandas values are JSON (`tolist()`, one object per row: their
`str()` cuts data to `...`), pandas' missing date `NaT` null wherever it is (a row of
`df.to_dict("records")` too); an iterator is read to at most `ITEMS_READ` items (those nested in a
dict, list, deque, dataclass or model too, all of them together), and one that raises while read is
a text saying so (`call_text`, which the calls of a tool use, raises `ReadFailed` instead: the
tool's work, a generator's body, failed, and so did the call; so does one whose items hold coroutines,
`AwaitablesRead`: an async call never awaited); an int past Python's 4300-digit
limit is a note, in place (the rest of the value stays); and a value JSON cannot write (an ORM row,
a class, a cycle) is its `str()`, as in LangChain and the OpenAI Agents SDK, without a default
repr's memory address (`<Row object at 0x7f…>` → `<Row object>`: the same text every run); a value
whose own methods fail when it is looked at or written (a `__str__` that raises or exits, a
`__class__` or `__len__` that raises) is `<a Row that cannot be shown as text>`.

`None` is "Success" whatever the function declares, where LangChain4j's
`DefaultToolExecutor.toText` (langchain4j/src/main/java/dev/langchain4j/service/tool/
DefaultToolExecutor.java) writes "Success" only for a `void` method and `null` from a method
declared to return a value as the JSON `null`: a Python function has no `void`, and one without
`return` gives `None` as a `void` method gives nothing. A tool whose `None` means "not found"
says so in words (`return "no such order"`), or the model reads that it succeeded.

Leaves out: cutting a long result (a tool's value goes to the model whole, as in LangChain4j), and
a `ToolOutput`'s flags (`toolkit.tools.execute` reads those).
"""

from __future__ import annotations

import collections
import dataclasses
import decimal
import itertools
import json
import math
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from toolkit.errors import OWN_FAILURES, a_or_an
from toolkit.tools import redact
from toolkit.tools.addresses import without_addresses
from toolkit.tools.set_order import is_set, sets_sorted


class ReadFailed(Exception):
    """An iterator in a call's value raised while it was read (`call_text`): the tool's own work
    (a generator's body, a cursor) failed, so the call has failed; `error` is what it raised."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


class AwaitablesRead(ReadFailed):
    """An iterator in a call's value gave awaitables when read (`map(client.status, ids)` with an
    async client, a generator yielding coroutines): that part of the tool's work never ran, as for an
    awaitable held in a list (`awaitables_in`); `held` are those found, which the caller closes."""

    def __init__(self, held: list[Any]) -> None:
        super().__init__(TypeError(f"an iterator gave {a_or_an(type(held[0]).__name__)}, which was never awaited"))
        self.held = held


_FAILS_CALL: ContextVar[bool] = ContextVar("toolkit_read_fails_call", default=False)
"""Whether an iterator failing while read raises `ReadFailed` (`call_text`) or is written as text (`to_text`)."""


def call_text(value: Any) -> str:
    """`to_text` for the value of a call: an iterator in it that raises while it is read (a returned
    generator whose body fails) raises `ReadFailed` instead, so the call is the tool's failure, not a
    success whose text says it failed."""
    if type(value) in _HOLDS_NOTHING:  # no iterator to read in it: nothing can fail
        return to_text(value)
    token = _FAILS_CALL.set(True)
    try:
        return to_text(value)
    finally:
        _FAILS_CALL.reset(token)


def _awaitables_refused(read: list[Any]) -> None:
    """Under `call_text`, `AwaitablesRead` when the items an iterator gave hold awaitables: read as
    text, each would be its repr (`<coroutine object …>`) and the call a success that never ran."""
    if _FAILS_CALL.get():
        held = awaitables_in(read)
        if held:
            raise AwaitablesRead(held)


def _read_failure(exc: BaseException) -> str:
    """The text of an iterator that raised while read, or `ReadFailed` under `call_text`."""
    if _FAILS_CALL.get():
        raise ReadFailed(exc)
    return f"<an iterator that failed while it was read: {redact.describe_exception(exc)}>"


def to_text(value: Any) -> str:
    """A tool's return value as the text the model reads (never raises; see the module docstring)."""
    if value is None:
        return "Success"
    kind = type(value)
    if kind is str:
        return value
    try:
        if kind not in _PLAIN_RESULTS:  # the usual results (no str, bytes, exception, iterator) skip the checks below
            if isinstance(value, str):
                return value
            if isinstance(value, (bytes, bytearray)):
                return _bytes_text(value)
            if isinstance(value, BaseException):
                return _exception_text(value)
            if isinstance(value, Iterator) and not isinstance(value, _PLAIN_TYPES):
                return _iterator_text(value)
        try:
            return _json_text(value)
        except ReadFailed:  # under `call_text`: the call has failed
            raise
        except Exception:  # not JSON (an ORM row, a cycle, an int too long to write): its str
            return _str_text(value)
    except ReadFailed:
        raise
    except OWN_FAILURES:  # the value's own methods fail when looked at (a `__class__` that raises)
        return unshowable(value)


def _json_text(value: Any) -> str:
    if type(value) is int:
        return int.__repr__(value)  # how json.dumps writes an int, without its encoder
    if type(value) in _SCALARS:  # pydantic would hand them to json.dumps unchanged
        return json.dumps(value if math.isfinite(value) else _NON_FINITE[repr(value)])
    if isinstance(value, BaseModel) and _has_decimal_field(value):
        value = value.model_dump()  # its Decimals stay Decimals here, as `_decimals_marked` needs
    if _json_native(value):  # nothing to mark or convert: what `_marked_json_text` gives, sooner
        try:
            return _JSON.encode(value)
        except ValueError:  # NaN, an infinity, an int too long to write: the full path decides
            pass
    return _marked_json_text(value)


_LEAVES = frozenset({str, int, float, bool, type(None)})
"""The JSON scalars, as exact types (a subclass, an enum member, goes the full path)."""


def _json_native(value: Any) -> bool:
    """`value` is made only of dicts with str keys, lists, tuples and `_LEAVES` (exact types): it
    holds no `Decimal` and nothing pydantic would convert, so JSON writes it as it is."""
    kind = type(value)
    if kind in _LEAVES:
        return True
    if kind is dict:
        return set(map(type, value)) <= _STR and (
            set(map(type, value.values())) <= _LEAVES or all(map(_json_native, value.values()))
        )
    if kind is list or kind is tuple:
        return set(map(type, value)) <= _LEAVES or all(map(_json_native, value))
    return False


_STR = frozenset({str})


def _native(value: Any) -> bool:
    """`_json_native`, False for a value it cannot answer for: one that holds itself (a list in
    itself, a tree whose nodes point back up) or nests deeper than Python recurses, which then
    goes the way of a value JSON cannot write (`to_text`)."""
    try:
        return _json_native(value)
    except RecursionError:
        return False


def _marked_json_text(value: Any) -> str:
    """The full path: finite `Decimal`s written as JSON numbers, a dict whose keys write alike
    with every entry (`_entries_text`), anything else through pydantic (`to_jsonable_python`),
    NaN and infinities as strings."""
    kinds = _kinds_in(value)
    if any(map(is_iterator, kinds)):  # read here, to the bound: JSON would read each to its end
        value = _iterators_read(value, [ITEMS_READ])
    if any(map(is_set, kinds)):  # a set iterates in its hashes' order, which changes every run
        value = sets_sorted(value)
    if any(map(_is_missing_date, kinds)):  # pydantic fails on it (it is a datetime): the whole value was its str()
        value = _missing_dates_null(value)
    numbers: dict[str, str] = {}
    value = _decimals_marked(value, numbers, any(map(_is_decimal, kinds)) or _dicts_in_dataclasses(kinds))
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", fallback=_json_fallback)
    plain = to_jsonable_python(value, fallback=_json_fallback)
    try:
        text = _JSON.encode(plain)
    except ValueError:  # NaN or an infinity somewhere, which JSON cannot write
        text = _JSON.encode(_finite(plain))
    if numbers:  # every marker replaced in one pass (one `replace` each was quadratic: 12 s for 30,000)
        written = {json.dumps(marker): raw for marker, raw in numbers.items()}
        text = _DECIMAL_MARKER.sub(lambda m: written.get(m.group(0), m.group(0)), text)
    return text


_DECIMAL_MARKER = re.compile(r'"\\u0000written-[0-9a-f]{16}\\u0000"')
"""A `_decimals_marked` marker as the JSON encoder writes it."""


def _dicts_in_dataclasses(kinds: set[type]) -> bool:
    """A dataclass and a dict are among `kinds`: a dict in a dataclass may have keys that write
    alike, which `_decimals_marked` finds only by looking into the dataclass."""
    return dict in kinds and any(map(dataclasses.is_dataclass, kinds))


_NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
"""How a non-finite float is written: as the JSON string pydantic's `inf_nan_mode="strings"` gives."""


def _finite(value: Any) -> Any:
    """A JSON-able value with each NaN / infinity replaced by its string (`_NON_FINITE`), and
    each int past Python's int-to-text limit (4300 digits) by the note a top-level one gets:
    one such int used to cost the whole value (it became one note)."""
    if isinstance(value, float) and not math.isfinite(value):
        return _NON_FINITE[repr(value)]
    if type(value) is int and value.bit_length() > _SHORT_INT_BITS and not _writable(value):
        return _str_text(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


_SHORT_INT_BITS = 13_000
"""Ints of at most this many bits (about 3,900 digits) are under Python's default limit of 4,300
digits: only longer ones are tried (`_writable`)."""


def _writable(number: int) -> bool:
    try:
        int.__repr__(number)
    except ValueError:
        return False
    return True


def _bytes_text(value: bytes | bytearray) -> str:
    """Bytes as text: decoded when they are UTF-8 and hold no NUL byte, else a short note (never the
    bytes themselves). A NUL is how git and grep tell binary data from text: UTF-16 text, a struct, a
    zip's header are valid UTF-8 often enough (`b"h\\x00i\\x00"`), and read as text they reach the
    model as NULs and stray letters. Other control characters stay (a command's colours, a form feed)."""
    try:
        if b"\x00" not in value:
            return bytes(value).decode("utf-8")
    except UnicodeDecodeError:
        pass
    return f"<binary data, {len(value)} byte{'' if len(value) == 1 else 's'}>"


def _json_fallback(value: Any) -> Any:
    """What pydantic cannot write, made JSON-able where that loses nothing: an exception as its
    sanitised message (`_exception_text`), a numpy array or scalar as its `tolist()`, a pandas
    DataFrame as one object per row (a non-default index kept as columns), a Series as a list
    (or a dict by its index), their missing values as null (their `str()` cuts long data to
    `...`, and is not JSON). Anything else raises, and the whole value becomes its `str()`."""
    if isinstance(value, BaseException):
        return _exception_text(value)
    kind = type(value)
    library = (kind.__module__ or "").partition(".")[0]
    if library == "pandas":
        return _pandas_plain(value, kind.__name__)
    if library == "numpy" and callable(getattr(value, "tolist", None)):
        return value.tolist()
    raise TypeError(f"{kind.__name__} is not JSON-serialisable")


ITEMS_READ = 10_000
"""How many items of a returned iterator are read: one that never ends (`itertools.count()`, a
stream) would hang the loop and fill the memory."""
_PLAIN_TYPES = (str, bytes, bytearray, dict, list, tuple)
_PLAIN_RESULTS = frozenset({dict, list, tuple, int, float, bool})
"""Exact types a tool usually returns: neither a str, bytes, an exception nor an iterator."""
_HOLDS_NOTHING = frozenset({str, int, float, bool, type(None)})
"""Exact types `call_text` writes as `to_text` does without marking the call (no iterator in them)."""


def _iterator_text(items: Iterator[Any]) -> str:
    """A returned iterator (a generator, `map`, an open file) as the JSON list of its items, read
    to its end or to `ITEMS_READ` items, then a line saying the rest was not read."""
    try:
        read = list(itertools.islice(items, ITEMS_READ + 1))
    except OWN_FAILURES as exc:  # the tool's own generator failed while read (argparse too): its items are gone
        return _read_failure(exc)
    _awaitables_refused(read)
    if len(read) <= ITEMS_READ:
        return to_text(read)
    return to_text(read[:ITEMS_READ]) + f"\n(only the first {ITEMS_READ} items were read: the iterator went on)"


def holds_iterator(value: Any) -> bool:
    """An iterator is `value` or is nested in it: in a dict, list, tuple, set, deque, dataclass or
    pydantic model (what JSON would read to its end). Reads nothing."""
    return iterator_place(value) is not None


def iterator_place(value: Any) -> tuple[list[Any], type | None] | None:
    """Where an iterator is in `value` (the first one), or None when none is: the keys and
    positions that reach it through dicts, lists, tuples and sets, and its type; None as the type
    when it is inside the object those keys reach (a deque, dataclass or pydantic model, looked
    into as `_nested` does). Reads nothing; `_DEPTH` levels at most, so a cycle ends."""
    keys: list[Any] = []
    found = _iterator_in(value, keys, 0)
    if found is None:
        return None
    keys.reverse()
    return keys, None if found is _Inside else found


class _Inside:
    """`_iterator_in`'s answer for an iterator inside an object it does not look into by key."""


def _iterator_in(value: Any, keys: list[Any], depth: int) -> type | None:
    """The type of the first iterator in `value` (`_Inside` for one in an object that is no dict,
    list, tuple or set), with the keys that reach it appended to `keys` last first; None: none."""
    kind = type(value)
    if kind in _HOLDS_NOTHING or depth > _DEPTH:
        return None
    items: Iterable[tuple[Any, Any]]
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = enumerate(value)
    elif is_iterator(kind):
        return kind
    elif _may_hold(kind):
        inside = any(_iterator_in(item, [], depth + 1) is not None for item in _nested(value) or ())
        return _Inside if inside else None
    else:
        return None
    for key, item in items:
        if type(item) in _HOLDS_NOTHING:  # a row of scalars is one look per item, no call
            continue
        found = _iterator_in(item, keys, depth + 1)
        if found is not None:
            keys.append(key)
            return found
    return None


def is_iterator(kind: type) -> bool:
    """Whether a value of type `kind` is an iterator JSON would read to its end (not a str, bytes,
    dict, list or tuple, which are iterable but not iterators)."""
    return issubclass(kind, Iterator) and not issubclass(kind, _PLAIN_TYPES)


def awaitables_in(value: Any) -> list[Any]:
    """The awaitables nested in a tool's value (`{"status": client.status(id)}` with an async
    client: a coroutine that never ran), found as `_kinds_in` looks; [] for the usual value (a
    plain JSON value is one look at its types)."""
    try:
        if _native(value) or not _holds(value, _is_awaitable):
            return []
    except OWN_FAILURES:  # its own methods fail when looked at (a `__len__` that raises): none found
        return []
    found: list[Any] = []
    level = [value]
    for _ in range(_DEPTH):
        deeper: list[Any] = []
        for item in level:
            kind = type(item)
            if _is_awaitable(kind):
                found.append(item)
            elif _may_hold(kind) and not is_iterator(kind):
                deeper += _nested(item) or ()
        if not deeper:
            break
        level = deeper
    return found


def _is_awaitable(kind: type) -> bool:
    return issubclass(kind, Awaitable)


def _is_missing_date(kind: type) -> bool:
    """pandas' `NaT` (a missing date or time, as `df.to_dict("records")` holds it)."""
    return kind.__name__ == "NaTType" and (kind.__module__ or "").partition(".")[0] == "pandas"


def _missing_dates_null(value: Any) -> Any:
    """`value` with each `NaT` in it None (null, as a DataFrame's missing values are written): a
    container, dataclass or model holding one becomes its plain JSON shape."""
    if _is_missing_date(type(value)):
        return None
    if isinstance(value, dict):
        return {key: _missing_dates_null(item) for key, item in value.items()}
    if isinstance(value, _SEQUENCES):
        return [_missing_dates_null(item) for item in value]
    if isinstance(value, BaseModel):
        return _missing_dates_null(value.model_dump())
    if _is_dataclass_object(value):
        return {f.name: _missing_dates_null(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _is_decimal(kind: type) -> bool:
    return issubclass(kind, decimal.Decimal)


def _holds(value: Any, wanted: Callable[[type], bool]) -> bool:
    """A value of a `wanted` type is `value` or is nested in it (`_nested`)."""
    return any(map(wanted, _kinds_in(value)))


def _kinds_in(value: Any) -> set[type]:
    """The types of `value` and of everything nested in it (`_nested`), looked for level by level,
    each level's types first (rows of scalars end at one set of types); `_DEPTH` levels at most,
    so a cycle ends (pydantic refuses a cycle anyway)."""
    level, seen = [value], set[type]()
    for _ in range(_DEPTH):
        kinds = set(map(type, level))
        seen |= kinds
        if not any(map(_may_hold, kinds)):
            break
        deeper: list[Any] = []
        for item in level:
            kind = type(item)
            if kind is dict:
                deeper += item.values()
            elif kind is list or kind is tuple:
                deeper += item
            elif _may_hold(kind) and not is_iterator(kind):
                deeper += _nested(item) or ()
        level = deeper
    return seen


_DEPTH = 100
"""How deep `iterator_place` and `_kinds_in` look (JSON this deep is a cycle, or nothing a model could read)."""


def _may_hold(kind: type) -> bool:
    """A value of type `kind` may be an iterator or hold one (`_nested`); decided once per type."""
    known = _HOLDERS.get(kind)
    if known is None:
        if len(_HOLDERS) > 512:  # classes made on the fly: keep the table small
            _HOLDERS.clear()
        known = _HOLDERS[kind] = issubclass(kind, _HOLDER_KINDS) or dataclasses.is_dataclass(kind)
    return known


_HOLDERS: dict[type, bool] = {}
_SEQUENCES = (list, tuple, set, frozenset, collections.deque)
"""What pydantic writes as a JSON list by reading its items."""
_HOLDER_KINDS = (Iterator, dict, BaseModel, *_SEQUENCES)


def _nested(value: Any) -> Iterable[Any] | None:
    """The values `value` holds that JSON would write (None: it holds none)."""
    if isinstance(value, dict):
        return value.values()
    if isinstance(value, _SEQUENCES):
        return value
    if isinstance(value, BaseModel):
        return list(vars(value).values())
    if _is_dataclass_object(value):
        held = getattr(value, "__dict__", None)  # its fields (and any attribute set later: only looked at)
        return held.values() if held is not None else [getattr(value, f.name) for f in dataclasses.fields(value)]
    return None


def _iterators_read(value: Any, left: list[int]) -> Any:
    """`value` with each nested iterator read to a list, all of them together to at most
    `ITEMS_READ` items (`left[0]` is what remains); one cut short ends with a line saying so,
    one that fails while read is the text saying that (as a returned one's). A container,
    dataclass or model holding one becomes its plain JSON shape; any other value stays itself."""
    if isinstance(value, Iterator) and not isinstance(value, _PLAIN_TYPES):
        try:
            read = list(itertools.islice(value, left[0] + 1))
        except OWN_FAILURES as exc:  # as a tool's own: argparse or click on a bad flag, its own CancelledError
            return _read_failure(exc)
        _awaitables_refused(read)
        went_on, read = len(read) > left[0], read[: left[0]]
        left[0] -= len(read)  # before the items' own iterators take their share
        read = [_iterators_read(item, left) for item in read]
        return read + [_cut_note(len(read))] if went_on else read
    if not holds_iterator(value):
        return value
    if isinstance(value, dict):
        return {key: _iterators_read(item, left) for key, item in value.items()}
    if isinstance(value, BaseModel):  # python mode: its iterators stay unread, and are read here
        return _iterators_read(value.model_dump(), left)
    if _is_dataclass_object(value):
        return {f.name: _iterators_read(getattr(value, f.name), left) for f in dataclasses.fields(value)}
    return [_iterators_read(item, left) for item in value]


def _cut_note(read: int) -> str:
    """The last item of a nested iterator cut short (`read` items of it were read)."""
    if read == 1:
        return "(only the first item was read: the iterator went on)"
    if read:
        return f"(only the first {read} items were read: the iterator went on)"
    return f"(not read: the result's iterators had given {ITEMS_READ} items already)"


def _exception_text(exc: BaseException) -> str:
    """A returned (not raised) exception: its message, sanitised as a raised one's is (it can
    hold a key or a connection string just the same), or its class name when it has none."""
    summary = redact.summarize_exception(exc)
    return summary.message or summary.type_name


def _pandas_plain(value: Any, kind: str) -> Any:
    if kind in ("NaTType", "NAType"):  # missing values
        return None
    if kind in ("DataFrame", "Series"):
        index = value.index
        default = type(index).__name__ == "RangeIndex" and index.start == 0 and index.step == 1
        if not default and kind == "DataFrame":
            value = value.reset_index()
        value = value.astype(object).where(value.notna(), None)  # NaN, NaT, NA: null, as `to_json` writes them
        if kind == "Series":
            return value.tolist() if default else value.to_dict()
        return value.to_dict(orient="records")
    if callable(getattr(value, "tolist", None)):  # an Index, a Categorical
        return value.tolist()
    raise TypeError(f"{kind} is not JSON-serialisable")


def _str_text(value: Any) -> str:
    try:
        return without_addresses(str(value))  # `<Row object at 0x7f…>` differs every run: `<Row object>`
    except OWN_FAILURES:  # a broken __str__ (one that exits), or an int past Python's 4300-digit limit
        return unshowable(value)


def unshowable(value: Any) -> str:
    """The text of a value that cannot be written: `<a Row that cannot be shown as text>`."""
    return f"<{a_or_an(type(value).__name__)} that cannot be shown as text>"


_SCALARS = (float, bool)
_JSON = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
"""`json.dumps(..., ensure_ascii=False)` without building an encoder per call (and no `NaN`,
which is not JSON)."""


def _decimals_marked(value: Any, numbers: dict[str, str], in_dataclasses: bool = False) -> Any:
    """`value` with each finite `Decimal` replaced by a unique marker string (its digits kept in
    `numbers`), so it can be written as a JSON number; pydantic would write it as a string. A
    dict whose keys write alike (`{1: "a", "1": "b"}`) is a marker too, its text every entry
    (`_entries_text`): pydantic would keep the last one only. `in_dataclasses`: the value holds a
    `Decimal` (or a dict) somewhere, so dataclasses are looked into too (one holding a marked
    field becomes its fields); else they are left to pydantic, sooner."""
    if type(value) in _LEAVES:
        return value
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            return value
        return _marker(numbers, str(value) if "E" not in str(value) else format(value, "f"))
    if isinstance(value, dict):
        entries = _entries_text(value)
        if entries is not None:
            return _marker(numbers, entries)
        return {k: _decimals_marked(v, numbers, in_dataclasses) for k, v in value.items()}
    if isinstance(value, _SEQUENCES):  # sets and deques too: pydantic writes them as lists
        return [_decimals_marked(v, numbers, in_dataclasses) for v in value]
    if in_dataclasses and _is_dataclass_object(value):  # as pydantic writes it (its fields), when one changed
        held = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        marked = {name: _decimals_marked(item, numbers, True) for name, item in held.items()}
        return marked if any(marked[name] is not item for name, item in held.items()) else value
    if isinstance(value, BaseModel) and _has_decimal_field(value):
        return _decimals_marked(value.model_dump(), numbers)
    return value


def _marker(written: dict[str, str], text: str) -> str:
    """A unique marker string, to be replaced by `text` once the JSON is written."""
    marker = f"\x00written-{secrets.token_hex(8)}\x00"
    written[marker] = text
    return marker


def _entries_text(value: dict[Any, Any]) -> str | None:
    """A dict whose keys write alike as JSON keys (`1` and `"1"`, `True` and `"true"`) as the
    JSON text of every entry, in order, the key written as pydantic writes it (so twice), as
    `json.dumps` (LangChain) and pydantic's `to_json` (pydantic-ai) write it; None for any
    other dict (its keys differ once written, or are all str)."""
    if set(map(type, value)) <= _STR:
        return None
    keys = [_key_text(key) for key in value]
    if len(set(keys)) == len(keys):
        return None
    pairs = (f"{_JSON.encode(key)}: {_marked_json_text(item)}" for key, item in zip(keys, value.values()))
    return "{" + ", ".join(pairs) + "}"


def _key_text(key: Any) -> str:
    """A dict key as pydantic writes it as a JSON key (`1` → "1", `True` → "true")."""
    if type(key) is str:
        return key
    if type(key) is int:
        return int.__repr__(key)
    written = to_jsonable_python({key: None}, fallback=_json_fallback)
    return str(next(iter(written)))


def _is_dataclass_object(value: Any) -> bool:
    """`dataclasses.is_dataclass(value)` for an instance, sooner (it is asked for every row)."""
    return hasattr(type(value), "__dataclass_fields__") and not isinstance(value, type)


def _has_decimal_field(model: BaseModel) -> bool:
    return any(isinstance(v, (decimal.Decimal, BaseModel, list, dict)) for v in vars(model).values())


# --- building tools ---------------------------------------------------------------------
