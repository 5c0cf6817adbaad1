"""The literal text every match of a pattern holds: a quick "no" before a regex search.

An order id pattern such as `(?<![A-Za-z0-9])SN[0-9]{12}(?![0-9])` starts with a lookbehind,
so Python's regular expressions try it at every position of the text: most texts hold no
order id, and an English question of 70 characters took 0.7 us to say so. Every match holds
`SN`, and `"SN" in text` answers in a fraction of that. `needed_literal(pattern)` is the
longest run of plain characters in the pattern's top-level sequence (empty when there is
none): where the text lacks it, the pattern cannot match.

Leaves out: literals inside groups, alternations and repeats, and cased characters under
IGNORECASE (they match more than themselves); for such a pattern the run is shorter or empty,
which is always safe.
"""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]

from toolkit.gateway.ascii_match import is_cased


def needed_literal(pattern: re.Pattern[str]) -> str:
    """The longest run of plain characters every match of `pattern` holds ("" if none)."""
    try:
        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except (re.error, RecursionError, TypeError):
        return ""
    caseless = bool(parsed.state.flags & re.IGNORECASE)
    runs, run = [], ""
    for op, av in parsed:
        if op is sre.LITERAL and not (caseless and is_cased(av)):
            run += chr(av)
        else:
            runs.append(run)
            run = ""
    return max([*runs, run], key=len)
