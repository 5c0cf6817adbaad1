"""Checking a dict answer: its shape, the cases it gets wrong, and the verdict.

Many predict exercises take a dict, case → prediction. A checker asks `dict_answer_problem`
whether the answer has the right shape (exactly these keys; each value one of the choices),
lists with `misses` the cases whose prediction is not what the package really does, and
turns them into ✗ (every miss, joined by "; ") or ✓ with `verdict_of`.

A prediction matches when it equals the real value; a real bool must be that bool (1 is not
True), as a learner who writes 1 for "True or False" has not answered the question, and a real
number must be a number (not True for 1, not the string "2"). A real text matches the same
words whatever the spacing and case (" Feed back" is "feed back"), in quotes or ended by a full
stop ("'fake'", "confirm the id."): the exercises ask which outcome, never how it is written.

Leaves out: what a miss says — each checker writes its own text, since it knows why.
"""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from toolkit.exercises.core import Verdict, right, wrong
from toolkit.exercises.values import is_number, show


def dict_answer_problem(
    answer: Any, keys: Iterable[Any], choices: Iterable[Any] | None = None, *, expected: str | None = None
) -> Verdict | None:
    """✗ when `answer` is not a dict with exactly `keys` (or a value is not one of `choices`), else None.

    expected: what to answer with, said instead of "a dict with exactly these keys: …".
    """
    keys = list(keys)
    if not isinstance(answer, dict) or set(answer) != set(keys):
        shape = expected or "a dict with exactly these keys: " + ", ".join(map(repr, keys))
        return wrong(f"answer with {shape}{_key_problem(answer, keys)}")
    if choices is not None:
        options = list(choices)
        for key, value in answer.items():
            if not any(matches(value, option) for option in options):
                return wrong(f"answer {either(options)} for {key!r}, not {show(value)}")
    return None


def _key_problem(answer: Any, keys: list[Any]) -> str:
    """What is wrong with a dict answer's keys — the first one that is not a key (a typo; the key it would be,
    when it differs from one only in case or spacing: `'no variables '`), else the first key it lacks — after "; ";
    "" when the answer is not a dict."""
    if not isinstance(answer, dict):
        return ""
    if odd := [key for key in answer if key not in keys]:
        near = next((key for key in keys if key not in answer and same_text(odd[0], key)), None)
        tip = "" if near is None else f": the key is {near!r}, as written (a key's case and spaces count)"
        return f"; {show(odd[0])} is not an expected key{tip}"
    return f"; the key {next(key for key in keys if key not in answer)!r} is missing"


def misses(answer: Mapping[Any, Any], actual: Mapping[Any, Any], say: Callable[[Any, Any, Any], str]) -> list[str]:
    """`say(key, said, real)` for each key of `actual`, in its order, whose prediction does not match."""
    return [say(key, answer.get(key), real) for key, real in actual.items() if not matches(answer.get(key), real)]


def verdict_of(found: list[str], praise: str) -> Verdict:
    """✗ naming every miss, or ✓ with `praise` when there is none."""
    return wrong("; ".join(found)) if found else right(praise)


def matches(said: Any, real: Any) -> bool:
    """Equal; a real bool only by that bool, a real number only by a number, a real text by `same_text`,
    a real None by None or the text "None" (what the starter's comment spells)."""
    if real is None:
        return said is None or same_text(said, "None")
    if isinstance(real, bool):
        return said is real
    if is_number(real):
        return is_number(said) and bool(said == real)
    if isinstance(real, str):
        return same_text(said, real)
    return bool(said == real)


def same_text(said: Any, real: Any) -> bool:
    """`said` is a text of the same words as `real`, whatever the spacing and case; never when either is no text
    (a key of w5.coercion is a tuple: a learner's key "int" is not the same words as it)."""
    return isinstance(said, str) and isinstance(real, str) and _words(said) == _words(real)


_QUOTES = "'\"`‘’“”「」"
_SENTENCE_END = ".。!！"


def _words(text: str) -> str:
    """The words of a text answer as compared: spacing and case aside, and the quotes around it, the full
    stop after it, or the empty brackets of a call after a name (how a text is written: `'fake'`, "confirm the id.",
    「确认」, `order_lookup()` for the tool order_lookup), not its words."""
    text = unquoted(unquoted(" ".join(text.split())).rstrip(_SENTENCE_END))
    text = unquoted(_CALLED.sub("", text))
    return " ".join(text.split()).casefold()


_CALLED = re.compile(r"(?<=\w)\s*\(\s*\)$")
"""The empty brackets after a name written as code calls it (`query_order()`, `query_order( )`)."""


def unquoted(text: str) -> str:
    """`text` without the quotes or backticks around it (`` `usage.prompt_tokens` ``, 'fake', “fake”), and
    without the spaces around it."""
    return text.strip().strip(_QUOTES).strip()


def one_of(said: Any, options: Iterable[str]) -> str | None:
    """The option `said` names (`same_text`), or None."""
    return next((option for option in options if same_text(said, option)), None)


def as_list(answer: Any) -> list[Any] | None:
    """A list or tuple answer as a list (the order is the answer); None for anything else."""
    return list(answer) if isinstance(answer, (list, tuple)) else None


def made_a_list(answer: Any) -> str:
    """What to add to "answer with a list of …" when the answer is an iterator (a generator, `map(...)`): the
    items may be right, in a form that is not a list; "" for anything else."""
    return f", not {show(answer)}: make it one with list(...)" if isinstance(answer, Iterator) else ""


def as_set(answer: Any) -> set[Any] | None:
    """A set, frozenset, list or tuple answer of texts as a set of them, each without the spaces
    around it; None for anything else (a lone text is not a set of texts)."""
    if not isinstance(answer, (set, frozenset, list, tuple)) or not all(isinstance(x, str) for x in answer):
        return None
    return {x.strip() for x in answer}


def set_problem(answer: Any, what: str) -> Verdict | None:
    """✗ when `answer` is not a set of texts (`as_set`), saying "answer with a set of {what}" — and of
    `{}`, a learner's "none of them", that it is an empty dict; else None."""
    if isinstance(answer, dict) and not answer:
        return wrong("{} is an empty dict, not a set: an empty set is written set()")
    return None if as_set(answer) is not None else wrong(f"answer with a set of {what}")


def number_problem(answer: Any, what: str = "a number", least: int = 0) -> Verdict | None:
    """✗ when the answer to a count is not a number (True is not 1, "2" is not 2), one too long to write out
    (an int past Python's 4300 digits: every feedback that quotes it would fail), no finite number (nan,
    inf), or not whole and `least` or more (-5, 4.5; a request number starts at 1): none of them counts
    anything, and the feedback for a count too small or too large would be untrue of it. Else None (5.0 and
    Fraction(5) are 5)."""
    if not is_number(answer):
        return wrong(f"answer with {what}, not {show(answer)}")
    try:
        str(answer)
    except ValueError:
        return wrong(f"answer with {what} of a few digits, not {show(answer)}")
    if isinstance(answer, (float, decimal.Decimal)) and not math.isfinite(answer):
        return wrong(f"answer with {what} that is finite, not {show(answer)}")
    if answer < least or answer != int(answer):
        return wrong(f"answer with {what} that is whole, {least} or more, not {show(answer)}")
    return None


def counted(number: Any, noun: str) -> str:
    """`number` as feedback quotes it (`show`), then `noun`, plural unless the number is 1: "1 request",
    "2 requests", "2.5 requests"."""
    return f"{show(number)} {noun}{'' if number == 1 and not isinstance(number, bool) else 's'}"


def either(options: list[Any]) -> str:
    """`'a', 'b' or 'c'` — True and False as themselves."""
    texts = [repr(option) for option in options]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]


PRINTED = " — does your function print its answer instead of returning it?"
"""Said after a learner's function returned None where a value is due: a print() at its end is the usual cause."""


def printed(value: Any) -> str:
    """`PRINTED` when the learner's function returned None, else ""."""
    return PRINTED if value is None else ""
