"""Where can a regex's match start at all? A cheap screen before an expensive search.

Python's regex engine tries a pattern at every position of a text. A pattern that starts with a
lookbehind, a word boundary, a case-insensitive word or a group of many alternatives (the rules'
keywords, the place and currency names, a negation's words) costs hundreds of instructions at each
position, although a match can start only where one of a few short strings is. `screen(pattern)`
reads the compiled pattern with the standard library's own parser and writes those strings: the
first `WIDTH` characters of every way a match can begin (lookarounds and anchors dropped, so the
screen matches wherever the pattern could), as one regex that starts with a plain character class
(`[dDhH…](?:(?<=[dD])[oO]…|…)`), which the engine skips through in a tight loop of C.
`search(pattern, text)` then tries the pattern only where the screen matched (the same match as
`pattern.search(text)`, found at the same place: positions before it cannot match);
`finditer` and `findall` likewise. A pattern that may match the empty string, or whose
first characters cannot be written as such a class (a negated class, `.`, a cased non-ASCII letter
under IGNORECASE, a back-reference), has no screen: those calls are its own methods.

Leaves out: `sub` and `split` (their callers keep the pattern's own); a screen wider than `WIDTH`
characters or of more than `MOST_ALTERNATIVES` prefixes (it is cut shorter instead).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from re import _compiler, _parser  # type: ignore[attr-defined]
from re import _constants as c  # type: ignore[attr-defined]
from typing import Any

WIDTH = 3
"""How many characters of a match's beginning a screen spells out."""
MOST_ALTERNATIVES = 512
"""At most this many distinct beginnings in a screen (a narrower one is tried, else none)."""
WIDEST_RANGE = 10
"""A first character in a range wider than this (`[A-Z]`, `[一-鿿]`) may be almost anywhere: no screen."""
TRIES = 2
"""How many places the screen found are tried one by one before the pattern's own search takes over."""

_CASED_EXTRA = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}
"""Non-ASCII letters that an ASCII letter matches under IGNORECASE (Unicode case folding: `(?i)k`
matches the Kelvin sign); `tests/test_gateway_screen.py` checks every ASCII letter against the engine."""
_CATEGORIES = {
    c.CATEGORY_DIGIT: r"\d",
    c.CATEGORY_NOT_DIGIT: r"\D",
    c.CATEGORY_SPACE: r"\s",
    c.CATEGORY_NOT_SPACE: r"\S",
    c.CATEGORY_WORD: r"\w",
    c.CATEGORY_NOT_WORD: r"\W",
}
_ZERO_WIDTH = (c.AT, c.ASSERT, c.ASSERT_NOT)
_BOUNDARY = "\\b"
"""The plain class of a word boundary among a beginning's characters: no character, a check."""
_BOUNDARIES = {c.AT_BOUNDARY: r"\b", c.AT_NON_BOUNDARY: r"\B"}
_REPEATS = (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", c.MAX_REPEAT))


Screen = tuple[re.Pattern[str], bool]
"""A screen, and whether a match may also start at the text's start only (`\\A`, `^`: tried there first)."""


class _Unscreenable(Exception):
    """A first character that no plain class can hold."""


def screen(pattern: re.Pattern[str]) -> Screen | None:
    """The screen of `pattern` (see the module docstring), or None when it has none; made once per pattern
    source and flags (every rules file loaded shares the screens of the regexes it has in common)."""
    source = getattr(pattern, "pattern", None)
    entry = _screens.get(source) if isinstance(source, str) else None
    if entry is not None and entry[0] == pattern.flags:
        return entry[1]
    made = _made(pattern)
    if isinstance(source, str):
        if len(_screens) >= _MOST_SCREENS:
            _screens.clear()  # bounded, and still kept: a process that meets ever new rules files
        _screens[source] = (pattern.flags, made)
    return made


_screens: dict[str, tuple[int, Screen | None]] = {}
"""A pattern's source -> its flags and its screen (by source: a Pattern's own hash reads all its code)."""
_MOST_SCREENS = 4096


def search(pattern: re.Pattern[str] | Any, text: str, pos: int = 0) -> re.Match[str] | None:
    """`pattern.search(text, pos)`, trying the pattern only where its screen matches (`pattern` may also be
    anything else with a `search(text)`, such as `read_text`'s split matchers: searched as it is)."""
    entry = _screens.get(getattr(pattern, "pattern", None))  # type: ignore[arg-type]
    screened = entry[1] if entry is not None and entry[0] == pattern.flags else screen(pattern)
    if screened is None:
        return pattern.search(text, pos) if pos else pattern.search(text)  # a split matcher takes no `pos`
    return _first(pattern, screened, text, pos)


def finditer(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`: the same matches (a screened pattern never matches the empty string)."""
    entry = _screens.get(pattern.pattern)
    screened = entry[1] if entry is not None and entry[0] == pattern.flags else screen(pattern)
    if screened is None:
        return pattern.finditer(text)
    return _matches(pattern, screened, text)


def _matches(pattern: re.Pattern[str], screened: Screen, text: str) -> Iterator[re.Match[str]]:
    match = _first(pattern, screened, text, 0)
    while match is not None:
        yield match
        match = _first(pattern, screened, text, match.end())


def _first(pattern: re.Pattern[str], screened: Screen, text: str, pos: int) -> re.Match[str] | None:
    """The first match of `pattern` from `pos` on, tried where `screened` matches."""
    found, at_start = screened
    if at_start and pos == 0 and (match := pattern.match(text)) is not None:
        return match
    hit = found.search(text, pos)
    for _ in range(TRIES):
        if hit is None:
            return None
        start = hit.start()
        match = pattern.match(text, start)
        if match is not None:
            return match
        hit = found.search(text, start + 1)
    return None if hit is None else pattern.search(text, hit.start())


def findall(pattern: re.Pattern[str], text: str) -> list[Any]:
    """`pattern.findall(text)`: the whole matches, the one group's, or a tuple of the groups' ('' unmatched)."""
    if screen(pattern) is None:
        return pattern.findall(text)
    groups = pattern.groups
    if groups == 0:
        return [m.group() for m in finditer(pattern, text)]
    if groups == 1:
        return [m.group(1) or "" for m in finditer(pattern, text)]
    return [m.groups("") for m in finditer(pattern, text)]


def _made(pattern: re.Pattern[str]) -> Screen | None:
    if not isinstance(pattern, re.Pattern) or not isinstance(pattern.pattern, str):
        return None
    flags = pattern.flags
    if flags & (re.LOCALE | re.ASCII):
        return None
    try:
        parsed = _parser.parse(pattern.pattern, flags)
    except (re.error, RecursionError, TypeError, ValueError):
        return None
    if _quick_already(parsed, flags):
        return None
    items = [(op, av, flags) for op, av in parsed.data]
    for width in range(WIDTH, 0, -1):
        try:
            beginnings, at_start = _beginnings(items, width)
        except _Unscreenable:
            return None
        except _TooMany:
            continue
        compiled = _compiled(beginnings)
        return None if compiled is None else (compiled, at_start)
    return None


class _TooMany(Exception):
    """More beginnings than `MOST_ALTERNATIVES`."""


Char = tuple[str, str]
"""One character of a beginning: (its plain class for the first place, its source anywhere else)."""


def _beginnings(items: list, width: int) -> tuple[set[tuple[Char, ...]], bool]:
    """Every way a match of `items` can begin, as up to `width` characters each (with the word boundaries
    among them), and whether a match may also begin only at the text's start (`\\A`, `^`)."""
    rest: _Rest = None
    for item in reversed(items):
        rest = (item, rest)
    found, at_start = set(), False
    for beginning in _Prefixes(width).of(rest, width):
        if beginning and beginning[-1] is _START:
            if len(beginning) == 1 or all(char[0] is _BOUNDARY for char in beginning[:-1]):
                at_start = True
            continue
        if all(char[0] is _BOUNDARY for char in beginning):
            raise _Unscreenable  # the pattern may match the empty string
        found.add(beginning)
    return found, at_start


_Rest = tuple[tuple[object, object, int], "_Rest"] | None
"""What is left of a pattern: its next item (op, argument, flags) and the rest after it; None: the end."""
_START = ("", "")
"""The end of a beginning that only the text's start can have (`\\A`, or `^` without MULTILINE)."""
_CUT: _Rest = ((None, None, 0), None)
"""The end of a beginning cut short (after a repetition, whose length is not known)."""


class _Prefixes:
    """The beginnings of what is left of a pattern, each rest and width read once."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.known: dict[tuple[int, int], frozenset[tuple[Char, ...]]] = {}
        self.kept: list[object] = []  # every rest made here stays alive: its id is its key

    def of(self, rest: _Rest, width: int) -> frozenset[tuple[Char, ...]]:
        if rest is None or rest is _CUT or width == 0:
            return _EMPTY
        key = (id(rest), width)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self._of(rest, width)
            if len(found) > MOST_ALTERNATIVES:
                raise _TooMany
        return found

    def _then(self, items: list, flags: int, after: _Rest) -> _Rest:
        rest = after
        for op, av in reversed(items):
            rest = ((op, av, flags), rest)
        self.kept.append(rest)
        return rest

    def _of(self, rest: tuple, width: int) -> frozenset[tuple[Char, ...]]:
        (op, av, flags), after = rest
        if op is c.AT and av in _BOUNDARIES:
            return frozenset(((_BOUNDARY, _BOUNDARIES[av]), *b) for b in self.of(after, width))
        if op is c.AT and (av is c.AT_BEGINNING_STRING or (av is c.AT_BEGINNING and not flags & re.MULTILINE)):
            return frozenset({(_START,)})
        if op in _ZERO_WIDTH:
            return self.of(after, width)
        if op is c.SUBPATTERN:
            _, add, remove, sub = av
            if (add | remove) & (re.LOCALE | re.ASCII):
                raise _Unscreenable
            return self.of(self._then(sub.data, (flags | add) & ~remove, after), width)
        if op is getattr(c, "ATOMIC_GROUP", None):
            return self.of(self._then(av.data, flags, after), width)
        if op is c.BRANCH:
            found: set[tuple[Char, ...]] = set()
            for alternative in av[1]:
                found |= self.of(self._then(alternative.data, flags, after), width)
                if len(found) > MOST_ALTERNATIVES:
                    raise _TooMany
            return frozenset(found)
        if op in _REPEATS:
            least, most, sub = av
            if least == 0:  # none of it, or its beginning (cut there)
                return self.of(after, width) | self.of(self._then(sub.data, flags, _CUT), width)
            times = min(least, width)
            return self.of(self._then(sub.data * times, flags, after if least == most == times else _CUT), width)
        char = _char(op, av, flags, first=width == self.width)
        if char is None:  # no single character (a back-reference): the beginning is cut here
            if width == self.width:
                raise _Unscreenable
            return _EMPTY
        return frozenset((char, *b) for b in self.of(after, width - 1) if not (b and b[-1] is _START))


_EMPTY: frozenset[tuple[Char, ...]] = frozenset({()})


def _char(op: object, av: object, flags: int, first: bool) -> Char | None:
    """One character item as (plain class items, source); `_Unscreenable` when it is the first and no
    plain class holds it; None for an item that is no single character."""
    ignore = bool(flags & re.IGNORECASE)
    if op is c.LITERAL:
        return _literal(av, ignore, first)  # type: ignore[arg-type]
    if op is c.NOT_LITERAL or op is c.ANY:
        if first:
            raise _Unscreenable
        return ("", "[^" + re.escape(chr(av)) + "]" if op is c.NOT_LITERAL else "(?s:.)")  # type: ignore[arg-type]
    if op is c.IN:
        return _class(av, ignore, first)  # type: ignore[arg-type]
    return None


def _literal(code: int, ignore: bool, first: bool) -> Char:
    char = chr(code)
    source = re.escape(char)
    if not ignore or char.lower() == char.upper():
        return (source, source)
    if char.isascii():
        return ("".join(map(re.escape, _cases(char))), f"(?i:{source})")
    if first:
        raise _Unscreenable
    return ("", f"(?i:{source})")


def _cases(char: str) -> str:
    """Every character an ASCII letter matches under IGNORECASE."""
    low = char.lower()
    return low + low.upper() + _CASED_EXTRA.get(low, "")


def _class(items: list, ignore: bool, first: bool) -> Char:
    negated = bool(items) and items[0][0] is c.NEGATE
    if negated and first:
        raise _Unscreenable
    parts, plain = [], []
    for op, av in items[1:] if negated else items:
        if op is c.LITERAL:
            parts.append(re.escape(chr(av)))
            plain.append(_literal(av, ignore, first)[0])
        elif op is c.RANGE:
            if first and av[1] - av[0] >= WIDEST_RANGE:
                raise _Unscreenable  # a match may start at most characters: a screen would not skip
            parts.append(f"{re.escape(chr(av[0]))}-{re.escape(chr(av[1]))}")
            plain.append(_range(av[0], av[1], ignore) if first else "")
        elif op is c.CATEGORY and av in _CATEGORIES:
            if first:
                raise _Unscreenable  # \\d, \\w, \\s: too common to skip through
            parts.append(_CATEGORIES[av])
            plain.append(_CATEGORIES[av])
        else:
            raise _Unscreenable
    source = "[" + ("^" if negated else "") + "".join(parts) + "]"
    if ignore and not first and (negated or any(op is c.RANGE for op, _ in items)):
        return ("", "(?s:.)")  # any character: a wider screen, but one compiled without folding each code point
    return ("".join(plain), f"(?i:{source})" if ignore else source)


def _range(low: int, high: int, ignore: bool) -> str:
    written = f"{re.escape(chr(low))}-{re.escape(chr(high))}"
    if not ignore:
        return written
    chars = [chr(code) for code in range(low, high + 1) if chr(code).lower() != chr(code).upper()]
    if any(not char.isascii() for char in chars):
        raise _Unscreenable  # a cased non-ASCII letter under IGNORECASE
    return written + "".join(re.escape(_cases(char)) for char in chars)


def _quick_already(parsed: object, flags: int) -> bool:
    """Whether the engine itself skips to where a match can start: a pattern that begins with a literal
    prefix, a case-sensitive class or a choice of case-sensitive letters (its own prefix check), or is
    anchored at the start."""
    data = getattr(parsed, "data", None)
    if data and data[0][0] is c.AT and data[0][1] in (c.AT_BEGINNING, c.AT_BEGINNING_STRING):
        return True
    try:
        if _compiler._get_literal_prefix(parsed, flags)[0]:
            return True
        return _compiler._get_charset_prefix(parsed, flags) is not None
    except (AttributeError, TypeError, ValueError, IndexError):  # another Python's private helpers
        return False


def _compiled(beginnings: set[tuple[Char, ...]]) -> re.Pattern[str] | None:
    """`[first…](?:(?<=a)bc|…)`: the first characters as one plain class (the engine skips to them), then
    the rest of each beginning after a one-character lookbehind saying which first character it follows."""
    tails: dict[str, set[str]] = {}
    firsts: dict[str, None] = {}
    for beginning in beginnings:
        lead = 0
        while beginning[lead][0] is _BOUNDARY:
            lead += 1
        (plain, source), rest = beginning[lead], beginning[lead + 1 :]
        if not plain:
            return None
        firsts[plain] = None
        before = "".join(s for _, s in beginning[:lead])
        tails.setdefault(before + source, set()).add("".join(s for _, s in rest))
    branches = []
    for source, ends in sorted(tails.items()):
        if "" in ends:
            branches.append(f"(?<={source})")
        else:
            branches.append(f"(?<={source})(?:{'|'.join(sorted(ends))})")
    try:
        return re.compile("[" + "".join(sorted(firsts)) + "](?:" + "|".join(branches) + ")")
    except (re.error, RecursionError, OverflowError):
        return None
