"""Whether a pattern found in a part of a text is found in the whole: one search for many.

`summarise` (`toolkit.gateway.decide`) drops each sentence of a tool result that the rules'
`drop_sentences` pattern matches. A pattern whose every step reads only the characters it
matches (literals, sets, `.`, groups, alternations, repeats, back-references) matches a text
wherever it matches a part of it: `is_local(pattern)`. Then a line the pattern does not match
has no sentence it matches, and one search of the line stands for a search of each sentence.

Leaves out: anchors (`^`, `$`, `\\b`), lookarounds and conditional groups. They read characters
around the match, which a part lacks and the whole may have, so a pattern with any of them is
not local (always safe: it is searched sentence by sentence).
"""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

_CHARACTERS = (sre.LITERAL, sre.NOT_LITERAL, sre.IN, sre.ANY, sre.GROUPREF)
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT))


def is_local(pattern: re.Pattern[str]) -> bool:
    """Whether every match of `pattern` in a part of a text is a match in the text (False when unsure)."""
    try:
        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except (re.error, RecursionError, TypeError):
        return False
    return _sequence(parsed)


def _sequence(items: Any) -> bool:
    return all(_item(op, av) for op, av in items)


def _item(op: Any, av: Any) -> bool:
    if op in _CHARACTERS:  # a back-reference repeats text the match itself took
        return True
    if op is sre.SUBPATTERN:
        return _sequence(av[3])
    if op is sre.BRANCH:
        return all(_sequence(branch) for branch in av[1])
    if op in _REPEATS:
        return _sequence(av[2])
    if op is sre.ATOMIC_GROUP:
        return _sequence(av)
    return False  # an anchor, a lookaround, a conditional group
