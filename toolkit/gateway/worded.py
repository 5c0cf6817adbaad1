"""Numbers written in English words, for a number field the text gives no digits for: "convert fifty euros to
dollars", "mark task seven done", "twenty-five dollars", "one hundred and twenty".

The gateway read only digits, so "fifty euros" made up an amount of 1 (the bounds' value) and "task seven" the
task 1. `worded_shares(text)` gives the percentages so written ("eighteen percent": 18, for a field asking for a
percentage). `worded_numbers(text)` gives each number written in words, in the text's order: a run of number words
("two hundred and five", "twenty-one", "three thousand") is one number. Left out: fractions ("two and a half"),
ordinals ("the seventh"), "a dozen", "a couple", and Chinese numerals (三 is in too many words: 三星, 三明治).
"""

from __future__ import annotations

import re

_UNITS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen".split()
    )
}
_TENS = {w: 10 * n for n, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_WORD = "|".join(sorted([*_UNITS, *_TENS, *_SCALES], key=len, reverse=True))
_RUN = re.compile(rf"(?i)(?<![\w-])(?:{_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_WORD}))*(?![\w-])")
_PARTS = re.compile(rf"(?i){_WORD}")
_MAX_READ = 2_000
_SHARE = re.compile(rf"(?i)({_RUN.pattern.removeprefix('(?i)')})[\s-]*(?:%|per\s?cent\b)")


def worded_numbers(text: str) -> list[int]:
    """The numbers `text` writes in words (its first 2,000 characters), in order; [] when none (the usual)."""
    return [n for m in _RUN.finditer(text[:_MAX_READ]) if (n := _value(_PARTS.findall(m.group()))) is not None]


def worded_shares(text: str) -> list[int]:
    """The percentages `text` writes in words ("eighteen percent", "twenty-five per cent"), in order; [] when none."""
    lowered = text[:_MAX_READ].lower()
    if "per" not in lowered and "%" not in lowered:
        return []
    return [n for m in _SHARE.finditer(lowered) if (n := _value(_PARTS.findall(m.group(1)))) is not None]


def _value(words: list[str]) -> int | None:
    """ "two hundred and five" as 205; None for a run that is no one number ("one two", "hundred" alone)."""
    total, current, last = 0, 0, None
    for word in (w.lower() for w in words):
        if word in _SCALES:
            if last is None or last == "scale" and _SCALES[word] <= 100:
                return None
            current = max(current, 1) * _SCALES[word]
            if _SCALES[word] > 100:
                total, current = total + current, 0
            last = "scale"
        elif word in _TENS:
            if last in ("unit", "tens"):
                return None
            current += _TENS[word]
            last = "tens"
        else:
            if last == "unit" or (last == "tens" and _UNITS[word] >= 10):
                return None
            current += _UNITS[word]
            last = "unit"
    return total + current
