"""A rule's matcher cut into its alternatives, for a long text: each searched on its own, quicker.

A rule's matcher is one regex, its keywords and patterns joined by `|` (`toolkit.gateway.rules`).
Python's regex engine finds where a match may start quickly (it skips to the next character that
can begin one) only when every alternative of a regex begins with a literal character; one pattern
that begins otherwise (`(给我|帮我)…`, `\\b(?i:hi)…`) makes it try every alternative at every place
of the text: a 10,000-character text pasted into a chat took 300 µs for the decline rules' union
alone, against 26 µs for its keywords and 2.5 to 100 µs for each pattern on its own.

`split(regex)` gives an `AnyOf`: the alternatives that begin with a literal in one regex, each other
one in its own (the regex itself when they all begin with a literal). `AnyOf.search(text)` finds a match wherever `regex.search(text)` finds one (a text
matches a union wherever it matches one of its alternatives): it answers *whether* and gives that
part's match, not the union's leftmost one, so it is for callers that only ask whether (the rules'
`read_text`). A regex is cut only when that is sure to keep its meaning: not in verbose mode,
cut at each `|` outside a group, a class and an escape, every piece compiled with the regex's own
flags (global inline flags included), and as many pieces as the parser finds alternatives; else
`split` gives the regex itself.

Leaves out: reordering or merging the patterns (each is searched as written).
"""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import NamedTuple

LONG_TEXT = 256
"""From this many characters on, `read_text` searches with the split matchers (below it the one
regex is as quick: its cost is the call, not the reading)."""


class AnyOf(NamedTuple):
    """Regexes one of which matching means the regex they were cut from matches."""

    parts: tuple[re.Pattern[str], ...]

    def search(self, text: str) -> re.Match[str] | None:
        """A match of the first part that matches `text` (None: the whole regex matches nowhere)."""
        for part in self.parts:
            match = part.search(text)
            if match is not None:
                return match
        return None


def split(regex: re.Pattern[str]) -> AnyOf | re.Pattern[str]:
    """`regex` as an `AnyOf` of its alternatives (those beginning with a literal together), or
    `regex` itself when it has one alternative or cannot surely be cut (module docstring)."""
    pieces = _pieces(regex)
    if pieces is None:
        return regex
    literal: list[str] = []
    others: list[str] = []
    for piece in pieces:
        (literal if _begins_with_literal(piece, regex.flags) else others).append(piece)
    if not others:  # the engine starts it quickly as it is
        return regex
    parts = ([re.compile("|".join(literal), regex.flags)] if literal else []) + [
        re.compile(p, regex.flags) for p in others
    ]
    return AnyOf(tuple(parts))


def top_level_bars(pattern: str) -> list[int]:
    """Where `pattern` has a `|` outside any group, class and escape."""
    bars, depth, i, in_class = [], 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            i += 1
            if pattern[i : i + 1] == "^":
                i += 1
            if pattern[i : i + 1] == "]":  # a `]` first in a class is itself
                i += 1
            continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            bars.append(i)
        i += 1
    return bars


def _pieces(regex: re.Pattern[str]) -> list[str] | None:
    """The alternatives of `regex`, each compilable with its flags; None if it is not surely cut."""
    if regex.flags & re.VERBOSE:
        return None
    bars = top_level_bars(regex.pattern)
    if not bars:
        return None
    ends = [-1, *bars, len(regex.pattern)]
    pieces = [regex.pattern[a + 1 : b] for a, b in zip(ends, ends[1:])]
    try:
        for piece in pieces:
            re.compile(piece, regex.flags)
        parsed = _parser.parse(regex.pattern, regex.flags)
    except (re.error, OverflowError, RecursionError):
        return None
    if len(parsed.data) != 1 or parsed.data[0][0] is not sre.BRANCH or len(parsed.data[0][1][1]) != len(pieces):
        return None  # the parser merged or factored them: not cut
    return pieces


def _begins_with_literal(piece: str, flags: int) -> bool:
    """Whether the parsed `piece` begins with a literal character (the engine's quick start)."""
    try:
        data = _parser.parse(piece, flags).data
    except (re.error, OverflowError, RecursionError):
        return False
    return bool(data) and data[0][0] is sre.LITERAL and not flags & re.IGNORECASE
