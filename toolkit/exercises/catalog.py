"""Which notebook each week's exercises belong to (and the week of a notebook's file name), and loading them all.

Leaves out: the exercises themselves (`week00` … `week10`).
"""

from __future__ import annotations

import importlib
import re

NOTEBOOKS = {
    0: "00_welcome.ipynb",
    1: "01_week1_first_call.ipynb",
    2: "02_week2_reliable_calls.ipynb",
    3: "03_week3_tool_calling.ipynb",
    4: "04_week4_ai_services.ipynb",
    5: "05_week5_schema_reflection.ipynb",
    6: "06_week6_round_trip_loop.ipynb",
    7: "07_week7_compensation.ipynb",
    8: "08_week8_tool_search.ipynb",
    9: "09_week9_mcp.ipynb",
    10: "10_week10_skills.ipynb",
}
"""Week → the course notebook that holds its exercises."""

_loaded = False


def load() -> None:
    """Import every week's module once (each registers its exercises)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for week in NOTEBOOKS:
        importlib.import_module(f"toolkit.exercises.week{week:02d}")


def week_of_notebook(name: str) -> int | None:
    """The week of a notebook file name: `06_…`, or a copy whose name holds a course notebook's
    (`Copy of 06_week6_round_trip_loop.ipynb`, `alice-06_week6_round_trip_loop.ipynb`), in any letter
    case (`06_Week6_Round_Trip_Loop.IPYNB`: a rename on Windows)."""
    name = name.lower()
    for week, notebook in NOTEBOOKS.items():
        if name == notebook or name.startswith(notebook[:3]) or notebook.removesuffix(".ipynb") in name:
            return week
    return None


COPY_MARKS = re.compile(r"^(?:copy of )+|(?:-copy\d*|\s*\(\d+\)| - copy(?: \(\d+\))?)(?=\.ipynb$)")
"""What Colab (`Copy of `), Jupyter (`-Copy1`), a browser's download (` (1)`) and Windows (` - Copy`) add to a file
name when they copy it."""


def course_copy_week(name: str) -> int | None:
    """The week of a file named as a course notebook (`06_week6_round_trip_loop.ipynb`, any letter case) or as a copy
    of one (`COPY_MARKS`), else None (`alice-06_….ipynb` names a learner: None)."""
    plain = COPY_MARKS.sub("", name.lower())
    return next((week for week, notebook in NOTEBOOKS.items() if notebook == plain), None)
