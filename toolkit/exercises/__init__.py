"""Exercises for every week, checked in the notebook, and grading for teachers.

    from toolkit.exercises import check, hint, solution
    check("w6.truth_table", answer)     # ✓ / ✗ with feedback, or "not attempted yet"

Modules: `core` (check, the registry, results), `catalog` (which weeks exist), `week00` …
`week10` (the exercises with their checkers and solutions), `cells` (the starter and solution
of a cell that only fills in `answer`), `answers` (a dict answer's shape and misses),
`values` (how a learner's values are read and quoted), `pristine` (the package as imported: no
check runs once code in the kernel has changed it), `seal` (the records `toolkit grade` counts: those check() sealed
in its run), `notebook` (the Exercises section of each
notebook, solutions filled in), `notebook_file` (a notebook file read, cleaned, written and run), `environment`
(what a submission's kernel may see), `beside` (the files a learner handed in beside a notebook, graded with it),
`clock` (the seconds a learner's code had, for the time limits), `grade`
(run submissions, one CSV row per exercise), `partial_file` (the CSV's partial file, held by its run), `csv_lock` (the CSV itself, held by one writer at a time), `regrade` (one learner regraded into the class's CSV) and `worker`
(one submission, run in a process of its own).

Leaves out: a learner's progress across sessions.
"""

from toolkit.exercises import pristine
from toolkit.exercises.core import CheckResult, Exercise, Verdict, all_exercises, check, get, hint, solution

pristine.start()  # the package as imported: no check compares with it once code in the kernel has changed it

__all__ = ["CheckResult", "Exercise", "Verdict", "all_exercises", "check", "get", "hint", "solution"]
