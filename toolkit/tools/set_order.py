"""A set's items in one order every run: `sets_sorted(value)`, for `toolkit.tools.result_text`,
`toolkit.memory.storable` and a parameter's default in `toolkit.tools.parameters` (which ask `holds_set` first).

A set of strings iterates in the order of their hashes, and Python draws a new hash seed for
each process (`PYTHONHASHSEED`), so JSON written from a set read differently from run to run:
a tool's result changed between two runs of one notebook, and a cassette or a cached prompt no
longer matched. Each set (or frozenset) in a value becomes a list of its items sorted: as they
compare (`sorted`), or, when they do not (`1` and `"a"`), by their type's name (a tuple's is "list" by then) and then by
value (a number, a str, a bool) or by JSON text (anything else). Sets nested in a dict, list,
tuple, deque, dataclass or pydantic model are sorted too; the value is read, never changed.

Leaves out: sets used as dict keys (a frozenset key is not JSON: the value is its `str()`), and
sets inside a value JSON cannot write (its `str()` keeps the set's own order).
"""

from __future__ import annotations

import collections
import dataclasses
import json
from typing import Any

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

_SETS = (set, frozenset)
_COMPARED_AS_THEMSELVES = (int, float, str)  # bool is an int


def is_set(kind: type) -> bool:
    return issubclass(kind, _SETS)


def holds_set(value: object) -> bool:
    """Whether a set (or frozenset) is anywhere in `value`'s dicts, lists and tuples (a JSON-like
    value: what `sets_sorted` would change there)."""
    if isinstance(value, _SETS):
        return True
    if isinstance(value, dict):
        return any(holds_set(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(holds_set(v) for v in value)
    if isinstance(value, BaseModel):  # a model or dataclass given as a default: its fields
        return any(holds_set(v) for _, v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(holds_set(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


def sets_sorted(value: Any, *, by_alias: bool = False) -> Any:
    """`value` with each set in it a sorted list (a container holding one: its plain JSON shape); a
    model's fields by their aliases when `by_alias` (as pydantic writes a default in a schema)."""
    if isinstance(value, _SETS):
        items = [sets_sorted(item, by_alias=by_alias) for item in value]
        try:
            return sorted(items)
        except TypeError:  # items that do not compare with each other
            return sorted(items, key=_order_key)
    if isinstance(value, dict):
        return {key: sets_sorted(item, by_alias=by_alias) for key, item in value.items()}
    if isinstance(value, (list, tuple, collections.deque)):
        return [sets_sorted(item, by_alias=by_alias) for item in value]
    if isinstance(value, BaseModel):  # python mode: its sets stay sets, sorted here
        return sets_sorted(value.model_dump(by_alias=by_alias), by_alias=by_alias)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: sets_sorted(getattr(value, f.name), by_alias=by_alias) for f in dataclasses.fields(value)}
    return value


def _order_key(item: Any) -> tuple[str, Any]:
    if isinstance(item, _COMPARED_AS_THEMSELVES):
        return type(item).__name__, item
    try:
        return type(item).__name__, json.dumps(to_jsonable_python(item), sort_keys=True, ensure_ascii=False)
    except Exception:  # not JSON: the order of the whole value's str() does not matter
        return type(item).__name__, ""
