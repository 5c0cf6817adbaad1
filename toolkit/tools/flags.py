"""`enum.Flag` / `enum.IntFlag` parameters: the schema and the validation agree on what is valid.

A flag's value is any combination of its members (`Perm.R | Perm.W` is 3), but pydantic's schema
lists the members alone (`{"enum": [1, 2, 4]}`) while its validation takes any combination: a
model following the schema could never send `Perm.R | Perm.W`, and the error for a wrong value
named the members only. Here the schema lists every combination (`0` is none of them) while
there are at most `LISTED_BITS` flags, else the range (0 to all of them); the validation (`toolkit.tools.coercion`) takes exactly those numbers: a bit that is no flag's (8 for
the three above, which an `IntFlag` kept) and a negative number (Python's `~`, all flags) are
refused, with the flags in the error.
"""

from __future__ import annotations

import enum
from typing import Any, TypeGuard

LISTED_BITS = 6
"""Up to this many flags, the schema lists every combination (64 numbers at most); past it, the range."""


def is_flag(cls: Any) -> TypeGuard[type[enum.Flag]]:
    """`cls` is an `enum.Flag` class (an `IntFlag` too) whose values are ints."""
    return isinstance(cls, type) and issubclass(cls, enum.Flag) and all(type(m.value) is int for m in cls)


def every_bit(cls: type[enum.Flag]) -> int:
    """The bits of all the flags of `cls` together (a named combination adds none)."""
    bits = 0
    for member in cls.__members__.values():
        bits |= int(member.value)
    return bits


def _flags(cls: type[enum.Flag]) -> list[tuple[int, str]]:
    """The one-bit members of `cls` (its flags), as (value, name), by value."""
    found = {int(m.value): m.name or "" for m in cls.__members__.values() if int(m.value).bit_count() == 1}
    return sorted(found.items())


def _combinations(bits: int) -> list[int]:
    """Every number made of some of `bits` (0 and `bits` included), ascending."""
    found, part = [], bits
    while True:
        found.append(part)
        if part == 0:
            return sorted(found)
        part = (part - 1) & bits


def flags_text(cls: type[enum.Flag]) -> str:
    """The flags in words, as the schema and an argument error show them: `1 (R), 2 (W), 4 (X)`."""
    return ", ".join(f"{value} ({name})" for value, name in _flags(cls))


def flag_schema(cls: type[enum.Flag], body: dict[str, Any]) -> dict[str, Any]:
    """`body`, pydantic's schema of the flag class `cls` (its members' `enum`), with every
    combination listed instead, or the range past `LISTED_BITS` flags (as for any enum of numbers,
    the schema holds no names: the class's docstring can say what each flag means)."""
    bits = every_bit(cls)
    out = {k: v for k, v in body.items() if k not in ("enum", "type")}
    if bits.bit_count() <= LISTED_BITS:
        return out | {"enum": _combinations(bits), "type": "integer"}
    return out | {"maximum": bits, "minimum": 0, "type": "integer"}


def is_flag_value(bits: int, value: int) -> bool:
    """`value` is made of some of the flags `bits` (0 is none of them): not negative, no other bit."""
    return value >= 0 and not value & ~bits
