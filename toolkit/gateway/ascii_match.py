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

`ascii_screen(pattern)` goes one step further, for a pattern an ASCII text is searched with:
a few lower-cased strings, one of which the lower-cased text holds wherever the pattern matches
(a run of its ASCII literals, or the runs of every branch of an alternation). `"hi" in lowered`
costs a fraction of a search for `\\b(?i:hi|hello)\\b`, which tries every position of the text.
Lower-casing an ASCII text maps only `A-Z`, so it holds a literal's lower-cased run wherever
the literal matches, with or without IGNORECASE (an ASCII literal under IGNORECASE matches only
its two cases in an ASCII text).

Leaves out: anything subtler (a character class of non-ASCII characters, a lookahead): such a
pattern is kept, which is always safe; a pattern without a needed run (or needing more than
`_MAX_SCREEN` strings) has no screen and is searched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT))
_MAX_SCREEN = 8


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


def ascii_screen(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Lower-cased strings, one of which the lower-cased text holds wherever `pattern` matches an
    ASCII text (None when unsure)."""
    try:
        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except (re.error, RecursionError, TypeError):
        return None
    screen = _needs(parsed)
    return screen if screen is not None and len(screen) <= _MAX_SCREEN else None


def _needs(items: Any) -> tuple[str, ...] | None:
    """The strongest need of a sequence: the strings one of its runs of literals matches (a run
    goes on through groups and alternations of literals), or an item's own need."""
    options: list[tuple[str, ...]] = []
    run: tuple[str, ...] = ("",)
    for op, av in items:
        exact = _exact(op, av)
        if exact is not None and len(run) * len(exact) <= _MAX_SCREEN:
            run = _joined(run, exact)
            continue
        if run != ("",):
            options.append(run)
        run = ("",) if exact is None else exact
        need = _item_needs(op, av) if exact is None else None
        if need is not None:
            options.append(need)
    if run != ("",):
        options.append(run)
    return max(options, key=lambda need: (min(map(len, need)), -len(need)), default=None)


def _item_needs(op: Any, av: Any) -> tuple[str, ...] | None:
    if op is sre.SUBPATTERN:
        return _needs(av[3])
    if op is sre.BRANCH:
        needs = [_needs(branch) for branch in av[1]]
        return None if None in needs else tuple(dict.fromkeys(s for need in needs if need for s in need))
    if op in _REPEATS:
        low, _, body = av
        return _needs(body) if low >= 1 else None
    if op is sre.ATOMIC_GROUP:
        return _needs(av)
    return None


def _exact(op: Any, av: Any) -> tuple[str, ...] | None:
    """The lower-cased strings an item matches in an ASCII text, when they are a few literal ones
    (an ASCII literal matches its own case, or under IGNORECASE both: lower-cased, one string)."""
    if op is sre.LITERAL:
        return (chr(av).lower(),) if av < 128 else None
    if op is sre.SUBPATTERN:
        return _exact_sequence(av[3])
    if op is sre.BRANCH:
        branches = [_exact_sequence(branch) for branch in av[1]]
        if None in branches:
            return None
        strings = tuple(dict.fromkeys(s for branch in branches if branch for s in branch))
        return strings if len(strings) <= _MAX_SCREEN else None
    return None


def _exact_sequence(items: Any) -> tuple[str, ...] | None:
    strings: tuple[str, ...] = ("",)
    for op, av in items:
        exact = _exact(op, av)
        if exact is None or len(strings) * len(exact) > _MAX_SCREEN:
            return None
        strings = _joined(strings, exact)
    return strings


def _joined(heads: tuple[str, ...], tails: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(head + tail for head in heads for tail in tails))
