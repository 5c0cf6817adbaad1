"""Strings that match a JSON Schema `pattern`, for the schema filler (`toolkit.gateway.generic`).

`pattern_string(pattern, variant, low, high)` builds a short string that `re.search` finds the
pattern in (JSON Schema's `pattern` is unanchored), `low` to `high` characters long, or None.
The pattern is read with Python's own parser (`re._parser`, Python 3.11+) into places, each the
strings it may take: a literal one, a class its members (`[A-Z]`, `\\d`, `\\w`, `[^a-z]` as some
printable ASCII characters outside it), `.` a letter, an alternation its branches (each built
shortest); a repeat is its minimum count of places (more, up to its maximum, only to reach `low`);
groups are followed; anchors and `\\b` add nothing. Variant 0 takes the first string of every
place (the shortest, the first branch); variant k counts k in the places' sizes from the last
place, so `[A-Z]{3}-\\d{4}` gives `AAA-0000`, `AAA-0001`, ... (`uniqueItems` padding asks for
several). Every string built is checked with `re.search` and its length before it is given.

`risky(pattern)` says whether searching an arbitrary text for the pattern might backtrack for
long (a repeat around another open repeat or an alternation, as in `(a+)+$`): the filler then
builds a string rather than searching the user's words for it.

Bounded: a pattern longer than `_MAX_PATTERN` characters, one that does not compile, nests
deeper than `_MAX_NESTING`, or would build more than `_MAX_LENGTH` characters (`a{100000}`) gives
None, and so do lookarounds, backreferences and conditionals (they are not walked). A class offers
at most `_MAX_OPTIONS` characters. Leaves out: flags (`(?i)` is walked as written, and the check
decides), ECMA-262's differences from Python's `re` (the filler checks with Python's).
"""

from __future__ import annotations

import functools
import importlib
import re
import string
from typing import Any

_parser: Any
_c: Any
try:  # Python 3.11+: the parser `re` itself uses (sre_parse, deprecated, before); typeshed has no stub
    _parser, _c = importlib.import_module("re._parser"), importlib.import_module("re._constants")
except ImportError:  # pragma: no cover - a later Python that moved them: no pattern is built
    _parser = _c = None

_MAX_PATTERN = 10_000
_MAX_NESTING = 64
_MAX_LENGTH = 1_000
_MAX_OPTIONS = 62
_POOL = string.ascii_uppercase + string.digits + string.ascii_lowercase + "_-. :/@"
"""The characters a negated class or `.` may take, the first that fits first."""


class _Unbuildable(Exception):
    """A construct the walker does not build (a lookaround, a backreference), or past a bound."""


@functools.lru_cache(maxsize=256)
def compiled(pattern: str) -> re.Pattern[str] | None:
    """`pattern` compiled, or None when it does not compile (or is too long, nested too deep)."""
    if len(pattern) > _MAX_PATTERN:
        return None
    try:
        return re.compile(pattern)
    except (re.error, RecursionError, OverflowError, ValueError, TypeError):
        return None


def pattern_string(pattern: str, variant: int = 0, low: int = 0, high: int | None = None) -> str | None:
    """The `variant`-th short string `re.search` matches `pattern` in, `low` to `high` characters
    long (see the module docstring), else None."""
    checker = compiled(pattern)
    if checker is None:
        return None
    places = _places(pattern, 0)
    if places is None:
        return None
    shortest = sum(len(options[0]) for options in places)
    if shortest < low:  # longer repeats, if the pattern has room for them
        places = _places(pattern, min(low, _MAX_LENGTH) - shortest)
        if places is None:
            return None
    text = _nth(places, variant)
    if text is None or len(text) < low or (high is not None and len(text) > high):
        return None
    return text if checker.search(text) else None


def risky(pattern: str) -> bool:
    """Whether searching a text for `pattern` might backtrack for long (see the module docstring);
    True for a pattern the walker cannot read."""
    return _walked(pattern, 0)[1]


def _places(pattern: str, extra: int) -> tuple[tuple[str, ...], ...] | None:
    return _walked(pattern, extra)[0]


@functools.lru_cache(maxsize=256)
def _walked(pattern: str, extra: int) -> tuple[tuple[tuple[str, ...], ...] | None, bool]:
    """The places of `pattern` (None if it cannot be built), and whether it is `risky`."""
    if _parser is None or compiled(pattern) is None:
        return None, True
    try:
        tree = _parser.parse(pattern)
    except Exception:  # compiled above, so only a bound (recursion) is met here
        return None, True
    walker = _Walker(extra)
    try:
        walker.walk(tree, 0)
    except (_Unbuildable, RecursionError):
        return None, True
    return tuple(walker.places), walker.risky


def _nth(places: tuple[tuple[str, ...], ...], variant: int) -> str | None:
    """The string of `variant` counted in the places' sizes, the last place fastest (None past the
    last variant)."""
    chosen: list[str] = []
    for options in reversed(places):
        variant, index = divmod(variant, len(options))
        chosen.append(options[index])
    return "".join(reversed(chosen)) if variant == 0 else None


class _Walker:
    def __init__(self, extra: int) -> None:
        self.places: list[tuple[str, ...]] = []
        self.length = 0
        self.extra = extra
        """Repeats past their minimum still allowed (to reach a `minLength`)."""
        self.risky = False

    def add(self, options: tuple[str, ...]) -> None:
        if not options:
            raise _Unbuildable
        self.places.append(options)
        self.length += len(options[0])
        if self.length > _MAX_LENGTH:
            raise _Unbuildable

    def walk(self, items: Any, depth: int) -> bool:
        """Add the places of `items`; whether they hold an open repeat or an alternation (`risky`
        inside another repeat)."""
        if depth > _MAX_NESTING:
            raise _Unbuildable
        loose = False
        for op, av in items:
            if op is _c.LITERAL:
                self.add((chr(av),))
            elif op is _c.NOT_LITERAL:
                self.add(tuple(ch for ch in _POOL if ord(ch) != av)[:_MAX_OPTIONS])
            elif op is _c.ANY:
                self.add(tuple(_POOL[:_MAX_OPTIONS]))
            elif op is _c.IN:
                self.add(_members(av))
            elif op is _c.BRANCH:
                self.add(_branches(av[1], depth))
                loose = True
            elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", _c.MAX_REPEAT)):
                loose = self.repeat(av, depth) or loose
            elif op is _c.SUBPATTERN:
                loose = self.walk(av[-1], depth + 1) or loose
            elif op is getattr(_c, "ATOMIC_GROUP", None):
                self.walk(av, depth + 1)
            elif op is not _c.AT:  # anchors add nothing; lookarounds, backreferences: not built
                raise _Unbuildable
        return loose

    def repeat(self, av: tuple[int, int, Any], depth: int) -> bool:
        least, most, sub = av
        count = least + min(most - least, self.extra)
        if count > _MAX_LENGTH:
            raise _Unbuildable
        self.extra -= count - least
        start, length = len(self.places), self.length
        inner = self.walk(sub, depth + 1)
        if count == 0:  # walked only to read it: none of it is built
            del self.places[start:]
            self.length = length
        else:
            one = self.places[start:]
            for _ in range(count - 1):
                for options in one:
                    self.add(options)
        if inner and most > 1:
            self.risky = True
        return most > least or inner


def _branches(alternatives: list[Any], depth: int) -> tuple[str, ...]:
    """Each alternative built shortest (one that cannot be built left out), in order."""
    built = []
    for alternative in alternatives:
        walker = _Walker(0)
        try:
            walker.walk(alternative, depth + 1)
        except _Unbuildable:
            continue
        built.append("".join(options[0] for options in walker.places))
    return tuple(dict.fromkeys(built))


_CATEGORIES = {
    "CATEGORY_DIGIT": string.digits,
    "CATEGORY_NOT_DIGIT": string.ascii_letters + "_-",
    "CATEGORY_WORD": string.ascii_letters + string.digits + "_",
    "CATEGORY_NOT_WORD": "-. :/@",
    "CATEGORY_SPACE": " ",
    "CATEGORY_NOT_SPACE": string.ascii_letters + string.digits,
    "CATEGORY_LINEBREAK": "\n",
    "CATEGORY_NOT_LINEBREAK": string.ascii_letters + string.digits,
}


def _members(items: list[tuple[Any, Any]]) -> tuple[str, ...]:
    """The characters a class offers, at most `_MAX_OPTIONS`, in its order (a negated class: the
    pool's characters outside it)."""
    if items and items[0][0] is _c.NEGATE:
        return tuple(ch for ch in _POOL if not _inside(ch, items[1:]))[:_MAX_OPTIONS]
    found: list[str] = []
    for op, av in items:
        if op is _c.LITERAL:
            found.append(chr(av))
        elif op is _c.RANGE:  # the pool's printable characters in it first (`[\x00-\x7f]`: not a NUL)
            found += [ch for ch in _POOL if av[0] <= ord(ch) <= av[1]]
            found += [chr(code) for code in range(av[0], min(av[1], av[0] + _MAX_OPTIONS) + 1)]
        elif op is _c.CATEGORY and str(av) in _CATEGORIES:
            found += _CATEGORIES[str(av)]
        else:
            raise _Unbuildable
        if len(found) >= _MAX_OPTIONS:
            break
    return tuple(dict.fromkeys(found))[:_MAX_OPTIONS]


def _inside(ch: str, items: list[tuple[Any, Any]]) -> bool:
    for op, av in items:
        if op is _c.LITERAL and ord(ch) == av:
            return True
        if op is _c.RANGE and av[0] <= ord(ch) <= av[1]:
            return True
        if op is _c.CATEGORY and _IN_CATEGORY.get(str(av), _ANYTHING)(ch):  # a category not known: kept out
            return True
    return False


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _ANYTHING(ch: str) -> bool:
    return True


_IN_CATEGORY = {
    "CATEGORY_DIGIT": str.isdigit,
    "CATEGORY_NOT_DIGIT": lambda ch: not ch.isdigit(),
    "CATEGORY_WORD": _word,
    "CATEGORY_NOT_WORD": lambda ch: not _word(ch),
    "CATEGORY_SPACE": str.isspace,
    "CATEGORY_NOT_SPACE": lambda ch: not ch.isspace(),
    "CATEGORY_LINEBREAK": lambda ch: ch == "\n",
    "CATEGORY_NOT_LINEBREAK": lambda ch: ch != "\n",
}
