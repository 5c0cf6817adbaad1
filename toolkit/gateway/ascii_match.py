"""Which keywords and patterns of a rule can match an ASCII text at all.

The shop's rules are mostly Chinese (`data/gateway_rules.toml`), and half the questions a
gateway gets are English: a search for "订单状态|物流|..." over an English question finds
nothing, but Python's regular expressions still try every position. `ascii_parts(keywords,
patterns)` keeps the keywords and patterns that could match a text of ASCII characters only;
a rule's matcher built from them (`toolkit.gateway.rules`) finds, in an ASCII text, exactly
what the whole matcher finds: an alternative that can never match there changes nothing.

A keyword (matched literally) can match an ASCII text only if it is ASCII. A pattern cannot
when every match of it holds a non-ASCII literal (`needs_non_ascii`): one in the pattern's
sequence, in a group, in every branch of an alternation, or in a repeat taken at least once.
Under IGNORECASE, a literal counts only if it has no case (a CJK character): the Kelvin sign
matches `k`.

Leaves out: anything subtler (a character class of non-ASCII characters, a lookahead): such a
pattern is kept, which is always safe.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT))


def ascii_parts(keywords: Iterable[str], patterns: Iterable[str]) -> tuple[list[str], list[str]]:
    """The keywords and patterns that could match an ASCII text."""
    return [k for k in keywords if k.isascii()], [p for p in patterns if not needs_non_ascii(p)]


def needs_non_ascii(pattern: str) -> bool:
    """Whether every match of `pattern` holds a non-ASCII character (False when unsure)."""
    try:
        parsed = _parser.parse(pattern)
    except (re.error, RecursionError):
        return False
    return _sequence(parsed, parsed.state.flags)


def _sequence(items: Any, flags: int) -> bool:
    return any(_item(op, av, flags) for op, av in items)


def _item(op: Any, av: Any, flags: int) -> bool:
    if op is sre.LITERAL:
        return av > 127 and not (flags & re.IGNORECASE and is_cased(av))
    if op is sre.SUBPATTERN:
        _, add, remove, body = av
        return _sequence(body, (flags | add) & ~remove)
    if op is sre.BRANCH:
        return all(_sequence(branch, flags) for branch in av[1])
    if op in _REPEATS:
        low, _, body = av
        return low >= 1 and _sequence(body, flags)
    if op is sre.ATOMIC_GROUP:
        return _sequence(av, flags)
    if op is sre.IN:
        return all(_in_set(kind, value, flags) for kind, value in av)
    return False


def _in_set(kind: Any, value: Any, flags: int) -> bool:
    """Whether one member of a character set `[...]` holds non-ASCII characters only."""
    if kind is sre.LITERAL:
        return _item(kind, value, flags)
    if kind is sre.RANGE:
        return value[0] > 127 and not flags & re.IGNORECASE
    return False  # a negated set, a category (`\w`): may hold ASCII


def is_cased(code: int) -> bool:
    """Whether the character `code` has another case (then `re.IGNORECASE` matches more than it)."""
    char = chr(code)
    return char.lower() != char or char.upper() != char
