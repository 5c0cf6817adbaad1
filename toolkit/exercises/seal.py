"""The seal on a check's record: how `toolkit grade` tells a record check() made in its run from a notebook's own.

A check's result reaches the grade as a record in the cell's outputs (`application/vnd.toolkit.exercise+json`);
a learner's cell can display the same data (`display({MIME: {..., "passed": True}}, raw=True)`), copy it from
another run's file, build a `CheckResult` itself or define a `check` of its own. So under `toolkit grade` the
worker hands the kernel a key of that run before the first cell (`arm`: run silently, so it is in no cell, no
history, no file the run writes, and not in the kernel's environment or command line), `check()` puts `seal(…)`
of each record it makes in the record (an HMAC-SHA256 of the exercise, the status, the pass and the feedback under
that key), and the grade counts a record only when `verify` finds its seal right with the same key. A printed,
displayed, copied or self-made record has none that is, and neither has one from another run (a new key each
time) or one whose feedback or verdict was edited after it was sealed.

Outside grading no key is set: nothing is sealed, and a record is what it always was.

Arming imports `toolkit.exercises` before the first cell, so under `toolkit grade` the package is noted
(`pristine`) as installed: a change a notebook makes to it even before it imports the checks is seen.

`seal` gives a seal only to `core._sealed` called from `core.check` (their code as armed): a cell that calls
`seal(...)` or `core._sealed(...)` itself with a pass of its own gets none.

Leaves out: a learner set on it. The key is in the kernel's memory, beside their code: code that goes looking for
it (this module's state, the sealing function's closure) can seal what it likes. That takes reading the toolkit's
source and writing code the teacher sees in the notebook; the grade stays formative, not an exam (see
`toolkit.exercises.grade`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Callable
from typing import Any

_sealer: Callable[[str], str] | None = None
_callers: tuple[Any, ...] = ()
"""The code of `core._sealed` and of `core.check` that calls it, as armed: a seal is given only there."""


def arm(key: str) -> None:
    """Seal every record from now on with `key` (the grading worker calls it once, before the first cell), and note
    the checks as they are now (`pristine.note_checks`): check() seals no result of checks the kernel changed."""
    from toolkit.exercises import core, pristine

    global _sealer, _callers
    pristine.note_checks()
    _callers = (core._sealed.__code__, core.check.__code__)
    secret = key.encode()
    _sealer = lambda text: hmac.new(secret, text.encode(), hashlib.sha256).hexdigest()  # noqa: E731


def armed() -> bool:
    """Whether this kernel is being graded: its records are sealed."""
    return _sealer is not None


def _text(exercise: Any, status: Any, passed: Any, feedback: Any) -> str:
    """What a seal covers, as one text: the same fields give the same text in the kernel and in the grader."""
    return json.dumps([str(exercise), str(status), passed is True, str(feedback)], ensure_ascii=True)


def seal(exercise: str, status: str, passed: bool, feedback: str) -> str:
    """The seal of a record with these fields, or "" when no key is set (not graded) or when the caller is not
    `core._sealed` called by `core.check` (a cell that calls this, or `_sealed`, itself gets no seal)."""
    caller = sys._getframe(1)
    if _sealer is None or (caller.f_code, getattr(caller.f_back, "f_code", None)) != _callers:
        return ""
    return _sealer(_text(exercise, status, passed, feedback))


def verify(record: dict[str, Any], key: str) -> bool:
    """Whether `record` (a check record as the notebook stored it) carries the seal `key` gives its fields."""
    given = record.get("seal")
    if not isinstance(given, str):
        return False
    fields = _text(record.get("exercise"), record.get("status"), record.get("passed"), record.get("feedback"))
    return hmac.compare_digest(given, hmac.new(key.encode(), fields.encode(), hashlib.sha256).hexdigest())
