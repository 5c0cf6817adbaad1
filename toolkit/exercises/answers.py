"""Checking a dict answer: its shape, the cases it gets wrong, and the verdict.

Many predict exercises take a dict, case → prediction. A checker asks `dict_answer_problem`
whether the answer has the right shape (exactly these keys; each value one of the choices),
lists with `misses` the cases whose prediction is not what the package really does, and
turns them into ✗ (every miss, joined by "; ") or ✓ with `verdict_of`.

A prediction matches when it equals the real value; a real bool must be that bool (1 is not
True), as a learner who writes 1 for "True or False" has not answered the question.

Leaves out: what a miss says — each checker writes its own text, since it knows why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from toolkit.exercises.core import Verdict, right, wrong


def dict_answer_problem(
    answer: Any, keys: Iterable[Any], choices: Iterable[Any] | None = None, *, expected: str | None = None
) -> Verdict | None:
    """✗ when `answer` is not a dict with exactly `keys` (or a value is not one of `choices`), else None.

    expected: what to answer with, said instead of "a dict with exactly these keys: …".
    """
    keys = list(keys)
    if not isinstance(answer, dict) or set(answer) != set(keys):
        return wrong(f"answer with {expected or 'a dict with exactly these keys: ' + ', '.join(map(str, keys))}")
    if choices is not None:
        options = list(choices)
        for key, value in answer.items():
            if not any(matches(value, option) for option in options):
                return wrong(f"answer {either(options)} for {key!r}, not {value!r}")
    return None


def misses(answer: Mapping[Any, Any], actual: Mapping[Any, Any], say: Callable[[Any, Any, Any], str]) -> list[str]:
    """`say(key, said, real)` for each key of `actual`, in its order, whose prediction does not match."""
    return [say(key, answer.get(key), real) for key, real in actual.items() if not matches(answer.get(key), real)]


def verdict_of(found: list[str], praise: str) -> Verdict:
    """✗ naming every miss, or ✓ with `praise` when there is none."""
    return wrong("; ".join(found)) if found else right(praise)


def matches(said: Any, real: Any) -> bool:
    """Equal; a real bool only by that bool."""
    return said is real if isinstance(real, bool) else bool(said == real)


def either(options: list[Any]) -> str:
    """`'a', 'b' or 'c'` — True and False as themselves."""
    texts = [repr(option) for option in options]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]
