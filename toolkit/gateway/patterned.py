"""Strings that match a JSON Schema `pattern`, for the schema filler (`toolkit.gateway.generic`).

`pattern_string(pattern, variant, low, high)` builds a short string that `re.search` finds the
pattern in (JSON Schema's `pattern` is unanchored), `low` to `high` characters long, or None.
The pattern is read with Python's own parser (`re._parser`, Python 3.11+) into places, each the
strings it may take: a literal one, a class its members (`[A-Z]`, `\\d`, `\\w`, `[^a-z]` as some
printable ASCII characters outside it), `.` a letter, an alternation its branches (each built
shortest); a repeat is its minimum count of places (more, up to its maximum, only to reach `low`;
still short, the string is padded with `_` after it, else before it, where the pattern lets it: `o` in
2 to 5 characters is `o_`);
groups are followed; anchors and `\\b` add nothing. Variant 0 takes the first string of every
place (the shortest, the first branch); variant k counts k in the places' sizes from the last
place, so `[A-Z]{3}-\\d{4}` gives `AAA-0000`, `AAA-0001`, ... (`uniqueItems` padding asks for
several). Every string built is checked with `re.search` and its length before it is given.

`search_limit(pattern)` is the longest text the pattern may be searched in quickly: an estimate
of the backtracking `re.search` may do on a text of n characters (`_cost`), at most
`_SEARCH_BUDGET` steps. Every start of an unanchored search is tried; at each, an open repeat may
give back each of the characters it took; and each later repeat that can take the same characters
(`\\d*\\d*x`, `.*a.*b`: nothing between them that one of the characters cannot be) multiplies that
by its own width, so `a*a*a*a*a*b` costs n⁶ and is searched in at most 11 characters, `\\d+x` n²
(1,413), `^[a-z ]+$` n. A repeat around another open repeat or an alternation (`(a+)+$`: exponential)
gives 0. The filler (`toolkit.gateway.generic`) searches a value only within the limit, else builds a
string.

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
from typing import Any, NamedTuple

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
_SEARCH_BUDGET = 2_000_000
"""Backtracking steps a search may take (`_cost`): about 10 ms of CPython's `re` (`\\d+x` in 1,414
digits took 8 ms, `[a-z]+$` in 1,414 letters and a `!` 13 ms)."""
_MAX_SEARCHED = 1 << 20
"""The longest text any pattern is searched in (a pattern of fixed width: a request's own size)."""
_MAX_LINKS = 100_000
"""Pairs of places `_Shape.link` compares at most; past it the pattern is not searched."""
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
        places = _places(pattern, min(low, _MAX_LENGTH) - shortest) or places
    text = _nth(places, variant)
    if text is not None and len(text) < low:  # an unanchored end takes more: `_` after it, else before it
        pad = "_" * (min(low, _MAX_LENGTH) - len(text))
        text = next((t for t in (text + pad, pad + text) if checker.search(t)), None)
    if text is None or len(text) < low or (high is not None and len(text) > high):
        return None
    return text if checker.search(text) else None


@functools.lru_cache(maxsize=256)
def search_limit(pattern: str) -> int:
    """The longest text `pattern` may be searched in within `_SEARCH_BUDGET` steps (`_cost`), at most
    `_MAX_SEARCHED`; 0 for a pattern that could backtrack exponentially or that the walker cannot read."""
    if _walked(pattern, 0)[1]:
        return 0
    shape = _shape(pattern)
    if shape is None:
        return 0
    low, high = 0, _MAX_SEARCHED
    while low < high:  # the cost grows with the length: the longest length within the budget
        middle = (low + high + 1) // 2
        low, high = (middle, high) if _cost(shape, middle) <= _SEARCH_BUDGET else (low, middle - 1)
    return low


class _Atom(NamedTuple):
    """A place of the pattern read for backtracking: the sample characters it can take, and how
    few and how many characters it takes (`most` above `least`: it can give some back)."""

    chars: frozenset[str]
    least: int
    most: int


class _Shaped(NamedTuple):
    anchored: bool
    widest: int
    """The widest repeat's width (`most - least`): what one open repeat gives back at each start."""
    links: tuple[int, ...]
    """The width of each repeat that can take characters the open repeat before it took."""


def _cost(shape: _Shaped, n: int) -> int:
    """The steps searching a text of `n` characters may take: each start (one if anchored) times
    what the widest repeat gives back, times each linked repeat's width (each capped at `n`)."""
    total = (1 if shape.anchored else n) * (1 + min(shape.widest, n))
    for width in shape.links:
        total *= 1 + min(width, n)
        if total > _SEARCH_BUDGET:
            break
    return total


@functools.lru_cache(maxsize=256)
def _shape(pattern: str) -> _Shaped | None:
    """`pattern` read for `_cost` (None when it cannot be read: `_walked` reads it first)."""
    checker = compiled(pattern)
    if _parser is None or checker is None:
        return None
    try:
        tree = _parser.parse(pattern)
        shape = _Shape(_alphabet(tree))
        shape.link(shape.atoms(tree, checker.flags))
    except (_Unbuildable, RecursionError):
        return None
    items = list(tree)
    first = items[0] if items else None
    anchored = (
        first is not None
        and first[0] is _c.AT
        and (first[1] is _c.AT_BEGINNING_STRING or (first[1] is _c.AT_BEGINNING and not checker.flags & re.M))
    )
    return _Shaped(anchored, shape.widest, tuple(shape.links))


_SAMPLES = "\u00a0\u00e9\u00df\u0130\u0660\u2028\u3000\u4e00\U0001f600"
"""Characters outside ASCII each class is tried with (a blank, letters, a digit, a line end, an ideograph)."""


def _alphabet(tree: Any) -> tuple[str, ...]:
    """The characters classes are compared on: ASCII, `_SAMPLES`, and every literal and range end of
    the pattern (two ranges that meet share one of their ends, so no overlap is missed)."""
    found = set(map(chr, range(128))) | set(_SAMPLES)
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple) and len(node) == 2 and node[0] in (_c.LITERAL, _c.NOT_LITERAL):
            found.add(chr(node[1]))
        elif isinstance(node, tuple) and len(node) == 2 and node[0] is _c.RANGE:
            found.update((chr(node[1][0]), chr(node[1][1])))
        elif isinstance(node, (list, tuple)) or hasattr(node, "data"):
            stack.extend(node.data if hasattr(node, "data") else node)
    return tuple(sorted(found))


class _Shape:
    """Reads a parsed pattern into `_Atom`s and links its repeats (see `_cost`)."""

    def __init__(self, alphabet: tuple[str, ...]) -> None:
        self.alphabet = alphabet
        self.widest = 0
        self.links: list[int] = []
        self.compared = 0

    def atoms(self, items: Any, flags: int) -> list[_Atom]:
        """The places of `items` in order; groups are read in place, an alternation, a repeat of more
        than one character and an atomic group as one place (their insides linked on their own)."""
        out: list[_Atom] = []
        for op, av in items:
            if op in (_c.LITERAL, _c.NOT_LITERAL, _c.ANY, _c.IN):
                out.append(_Atom(self.chars(op, av, flags), 1, 1))
            elif op is _c.SUBPATTERN:
                out += self.atoms(av[-1], flags | av[1])
            elif op is _c.BRANCH:
                out.append(self.either([self.atoms(alternative, flags) for alternative in av[1]]))
            elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
                out += self.repeat(av, flags)
            elif op is getattr(_c, "POSSESSIVE_REPEAT", None) or op is getattr(_c, "ATOMIC_GROUP", None):
                inner = self.atoms(av if op is _c.ATOMIC_GROUP else av[2], flags)
                least = 0 if op is not _c.ATOMIC_GROUP and av[0] == 0 else sum(a.least for a in inner)
                out.append(self.whole(inner, least, least))  # gives nothing back once matched
            elif op is not _c.AT:
                raise _Unbuildable
        return out

    def repeat(self, av: tuple[int, int, Any], flags: int) -> list[_Atom]:
        least, most, sub = av
        inner = self.atoms(sub, flags)
        if len(inner) == 1 and inner[0].least == inner[0].most == 1:  # `\d*`, `[a-z]{2,5}`
            return [_Atom(inner[0].chars, least, most)]
        if most <= 1:  # an optional group: its places in place, none of them needed
            return [a._replace(least=0) for a in inner] if least == 0 else inner
        return [self.whole(inner, least * sum(a.least for a in inner), most * sum(a.most for a in inner))]

    def either(self, alternatives: list[list[_Atom]]) -> _Atom:
        for alternative in alternatives:
            self.link(alternative)
        chars = frozenset().union(*(a.chars for alternative in alternatives for a in alternative))
        lows = [sum(a.least for a in alternative) for alternative in alternatives]
        highs = [sum(a.most for a in alternative) for alternative in alternatives]
        return _Atom(chars, min(lows, default=0), min(max(highs, default=0), _c.MAXREPEAT))

    def whole(self, inner: list[_Atom], least: int, most: int) -> _Atom:
        self.link(inner)
        chars = frozenset().union(*(a.chars for a in inner))
        return _Atom(chars, min(least, _c.MAXREPEAT), min(most, _c.MAXREPEAT))

    def link(self, atoms: list[_Atom]) -> None:
        """For each repeat, the first later repeat that can take one of its characters with every
        needed place between them taking it too (`.*a.*`: linked; `\\w+@\\w+`: not) adds its width."""
        for i, first in enumerate(atoms):
            if first.most == first.least:
                continue
            self.widest = max(self.widest, first.most - first.least)
            common = first.chars
            for later in atoms[i + 1 :]:
                self.compared += 1
                if self.compared > _MAX_LINKS:
                    raise _Unbuildable
                if later.most > later.least and common & later.chars:
                    self.links.append(later.most - later.least)
                    break
                if later.least > 0:
                    common &= later.chars
                    if not common:
                        break

    def chars(self, op: Any, av: Any, flags: int) -> frozenset[str]:
        """The alphabet's characters a one-character place takes (either case under `(?i)`)."""
        test = _one(op, av, flags)
        if flags & re.I:  # `ß`.upper() is two characters: only one-character cases are tried
            cases = ((ch, ch.lower(), ch.upper()) for ch in self.alphabet)
            return frozenset(case[0] for case in cases if any(len(c) == 1 and test(c) for c in case))
        return frozenset(filter(test, self.alphabet))


def _one(op: Any, av: Any, flags: int) -> Any:
    if op is _c.LITERAL:
        return lambda ch: ord(ch) == av
    if op is _c.NOT_LITERAL:
        return lambda ch: ord(ch) != av
    if op is _c.ANY:
        return lambda ch: bool(flags & re.S) or ch != "\n"
    if av and av[0][0] is _c.NEGATE:
        return lambda ch: not _inside(ch, av[1:])
    return lambda ch: _inside(ch, av)


def _places(pattern: str, extra: int) -> tuple[tuple[str, ...], ...] | None:
    return _walked(pattern, extra)[0]


@functools.lru_cache(maxsize=256)
def _walked(pattern: str, extra: int) -> tuple[tuple[tuple[str, ...], ...] | None, bool]:
    """The places of `pattern` (None if it cannot be built), and whether a search for it could
    backtrack exponentially (a repeat around another open repeat or an alternation; True when unread)."""
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
        self.floor = 0
        """Where `_MAX_LENGTH` is counted from: a repeat taken 0 times is read past the string built."""

    def add(self, options: tuple[str, ...]) -> None:
        if not options:
            raise _Unbuildable
        self.places.append(options)
        self.length += len(options[0])
        if self.length - self.floor > _MAX_LENGTH:
            raise _Unbuildable

    def walk(self, items: Any, depth: int) -> bool:
        """Add the places of `items`; whether they hold an open repeat or an alternation (exponential
        backtracking inside another repeat)."""
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
        start, length, floor = len(self.places), self.length, self.floor
        if count == 0:  # `.*=.*` built 1,000 long: its last `.*` is read from there, not refused
            self.floor = length
        inner = self.walk(sub, depth + 1)
        if count == 0:  # walked only to read it: none of it is built
            del self.places[start:]
            self.length, self.floor = length, floor
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
