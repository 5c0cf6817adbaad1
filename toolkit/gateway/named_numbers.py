"""An optional number the user gives, by its field's name, is passed: "tip on $80 at 18%", "for 2 guests".

The filler makes the required fields and only those optional ones whose `enum` value the text names, so "tip on
$80 at 18%" called `calc_tip(bill=80)` without its optional `percent`, "with a 15 minute buffer" left out
`buffer_minutes`, and the tool used its own default where the user had said otherwise. A model passes them. The
rule: an optional number field takes a number the text writes for it by name, and only then:
- a field whose name or description says it is a percentage (`percent`, `tip_pct`, "Tip percentage") takes the
  text's first percentage ("18%", "18 percent", 百分之18, 百分之十八);
- a field whose name has a word the text writes right beside a number takes it ("2 guests", "guests: 2", "radius
  of 500", "max price 200" for `max_price`; a plural read as its singular too);
- a field in a unit of time takes the duration written beside a word of its name ("a 15 minute buffer"), or one
  no other field took (`durations`).
`beside(text)` indexes the words written right beside each number of a text (read once a text); `wants_share` and
`share_values` are the percentage rule's two halves. Left out: numbers in words beside a name ("two guests" is
read only for a required field), Chinese names of fields, and optional fields inside nested objects' options.
"""

from __future__ import annotations

import functools
import re

from toolkit.gateway.worded import worded_shares
from toolkit.gateway.zh_numbers import _value as _zh_value

_NUMBER = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_AFTER = re.compile(rf"(?<![\w.,-]){_NUMBER}(?![\d.,]?\d)(?:\s*-\s*|\s+)([a-z]{{3,}})(?:\s+([a-z]{{3,}}))?")
"""A number and the word after it, or the second word after it ("2 guests", "3 adult tickets")."""
_BEFORE = re.compile(rf"([a-z]{{3,}})\s*(?:\s(?:of|is|at|to)\s+|[:=]\s*|\s)(?:\$|€|£)?{_NUMBER}(?![\w.,]?\d)")
"""A word and the number after it ("radius of 500", "guests: 2", "limit 5")."""
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_PLAIN = frozenset(("max", "min", "num", "number", "the", "and", "for", "per", "count", "total", "value", "amount"))
"""Words of a field's name too common to point at one number."""
_SHARE_NAME = frozenset(("percent", "percentage", "pct", "percents"))
_SHARE_DESCRIBED = re.compile(r"(?i)percent|百分")
_ZH_SHARE = re.compile(r"百分之([零〇一二两三四五六七八九十百]+)")
_MAX_READ = 2_000


@functools.lru_cache(maxsize=1024)
def name_words(name: str) -> frozenset[str]:
    """The words of a field's name a text may write beside its number (`max_price`: price)."""
    words = {w.lower() for w in _WORDS.findall(name)}
    return frozenset(w for w in words if len(w) > 2 and w not in _PLAIN)


@functools.lru_cache(maxsize=256)
def beside(text: str) -> tuple[tuple[str, int, str], ...]:
    """(word, where its number starts, the number as written) for each number the text writes right beside a
    word, after it first ("2 guests"), then before it ("guests: 2"); a plural's word also without its s."""
    lowered = text[:_MAX_READ].lower()
    found = [(w, m.start(1), m.group(1)) for m in _AFTER.finditer(lowered) for w in m.group(2, 3) if w]
    found += [(m.group(1), m.start(2), m.group(2)) for m in _BEFORE.finditer(lowered)]
    found += [(w[:-1], at, n) for w, at, n in found if w.endswith("s")]
    return tuple(found)


@functools.lru_cache(maxsize=256)
def numbers_beside(text: str) -> frozenset[str]:
    """The words the text writes right beside a number (`beside`): a field none of whose name's words is among
    them is given no number by its name."""
    return frozenset(word for word, _, _ in beside(text))


def numbers_named(text: str, name: str) -> list[tuple[int, str]]:
    """(where it starts, the number as written) of each number the text writes beside a word of the field's name."""
    words = name_words(name)
    return [(at, number) for word, at, number in beside(text) if word in words] if words else []


@functools.lru_cache(maxsize=1024)
def wants_share(name: str, description: str) -> bool:
    """Whether a number field asks for a percentage: by a word of its name, or its description."""
    words = {w.lower() for w in _WORDS.findall(name)}
    return not _SHARE_NAME.isdisjoint(words) or _SHARE_DESCRIBED.search(description[:_MAX_READ]) is not None


def share_values(text: str, pattern: re.Pattern[str] | None) -> list[str]:
    """The numbers of the text's percentages as written (the `percent` fact: "18%", 百分之18), then those written in
    Chinese numerals after 百分之 (十八), then in English words ("eighteen percent")."""
    found = [m.group(m.lastindex or 0) for m in pattern.finditer(text[:_MAX_READ])] if pattern is not None else []
    if "百分之" in text:
        found += [str(v) for m in _ZH_SHARE.finditer(text[:_MAX_READ]) if (v := _zh_value(m.group(1))) is not None]
    found += [str(v) for v in worded_shares(text)]  # "eighteen percent"
    return [f for f in found if f]
