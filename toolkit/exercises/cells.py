"""The cell of an exercise that only fills in `answer`, written from the correct answer.

Most predict exercises share one cell: import `check`, set `answer`, check it. The starter
shows the answer with `...` where the learner writes (a dict keeps its keys, a list becomes
`[...]`), the solution the answer itself:

    from toolkit.exercises import check

    answer = {"A": ..., "B": ...}   # one verdict letter per mode
    check("w3.probe", answer)

`answer_cells` writes both texts; `answer_exercise` is `exercise` with them written for it
(and the week read from the id).
A dict is written on one line, or one entry a line when a comment column is given (the
comment then stands on the first entry, at that column).

Leaves out: cells that do more than fill in `answer` (they are written out in full), and
values with no plain literal (sets, objects): a set has no order to write it in.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from toolkit.exercises.core import Verdict, exercise


def literal(value: Any) -> str:
    """The Python source of a str, number, bool, None, `...`, or a list, tuple or dict of them."""
    from toolkit.errors import ConfigurationError

    if value is Ellipsis:
        return "..."
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if value is None or isinstance(value, (bool, int)) or (isinstance(value, float) and math.isfinite(value)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise ConfigurationError(
        f"literal(): a {type(value).__name__} has no plain literal in an exercise cell; "
        "use a str, number, bool, None, `...`, list, tuple or dict (write other cells out in full)."
    )


def placeholder(answer: Any) -> Any:
    """The answer as the starter shows it: each dict value `...`, a list `[...]`, else `...`."""
    if isinstance(answer, dict):
        return {key: ... for key in answer}
    if isinstance(answer, list):
        return [...]
    return ...


def answer_cells(
    exercise_id: str,
    answer: Any,
    comment: str = "",
    *,
    solution_comment: str = "",
    column: int | None = None,
    imports: Sequence[str] = (),
) -> tuple[str, str]:
    """The starter and the solution of a cell that sets `answer` and checks it.

    comment: after the starter's answer (three spaces from it), e.g. "a number";
    solution_comment: the same after the solution's answer;
    column: write a dict one entry a line, `comment` on the first entry at this column;
    imports: more import lines, after `from toolkit.exercises import check`.
    """
    from toolkit.errors import ConfigurationError

    if column is not None and not (isinstance(answer, dict) and answer):
        raise ConfigurationError(
            f"answer_cells(): exercise {exercise_id!r} gives a column, which lays out a dict one entry a line, "
            f"but its answer is not a dict ({type(answer).__name__}); drop the column or answer with a dict."
        )
    head = "\n".join(["from toolkit.exercises import check", *imports]) + "\n\n"
    tail = f'check("{exercise_id}", answer)\n'
    if column is None:
        starter = _assignment(placeholder(answer), comment)
        solution = _assignment(answer, solution_comment)
    else:
        starter = _rows(exercise_id, placeholder(answer), comment, column)
        solution = _rows(exercise_id, answer, "", column)
    return head + starter + tail, head + solution + tail


def answer_exercise(
    id: str,
    task: str,
    *,
    answer: Any,
    hint: str,
    kind: str = "predict",
    comment: str = "",
    solution_comment: str = "",
    column: int | None = None,
    imports: Sequence[str] = (),
) -> Callable[[Callable[[Any], Verdict]], Callable[[Any], Verdict]]:
    """`exercise` for a cell that only fills in `answer`: starter and solution written by `answer_cells`.

    The week is the one the id names (`w6.…` is week 6); the kind is predict unless given.
    """
    starter, solution = answer_cells(
        id, answer, comment, solution_comment=solution_comment, column=column, imports=imports
    )
    return exercise(id, week_of(id), kind, task, starter=starter, solution=solution, hint=hint)


def week_of(exercise_id: str) -> int:
    """The week an exercise id names: `w6.truth_table` → 6."""
    from toolkit.errors import ConfigurationError

    match = re.fullmatch(r"w(\d+)\.\w+", exercise_id)
    if not match:
        raise ConfigurationError(
            f"week_of(): exercise id {exercise_id!r} does not name its week; write it as w<week>.<name>, e.g. w6.round_trips."
        )
    return int(match.group(1))


def _assignment(value: Any, comment: str) -> str:
    return f"answer = {literal(value)}" + (f"   # {comment}" if comment else "") + "\n"


def _rows(exercise_id: str, answer: dict[Any, Any], comment: str, column: int) -> str:
    from toolkit.errors import ConfigurationError

    lines = [f"    {literal(key)}: {literal(value)}," for key, value in answer.items()]
    if comment:
        if column <= len(lines[0]):
            raise ConfigurationError(
                f"answer_cells(): exercise {exercise_id!r} puts its comment at column {column}, inside its "
                f"first entry ({len(lines[0])} characters); give a column of at least {len(lines[0]) + 1}."
            )
        lines[0] = lines[0].ljust(column) + f"# {comment}"
    return "answer = {\n" + "\n".join(lines) + "\n}\n"
