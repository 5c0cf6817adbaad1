"""Which notebook each week's exercises belong to (and the week of a notebook's file name), and loading them all.

Leaves out: the exercises themselves (`week00` … `week10`).
"""

from __future__ import annotations

import importlib
import re
import unicodedata

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


COPY_WORDS = "copy|copie|copia|cópia|kopie|kopia|kopio|副本|复制|複製|コピー|사본|복사본"
""""Copy" in the languages a file manager writes it in a copy's name (English, French, Spanish and Italian,
Portuguese, German and Dutch, Polish and Swedish, Finnish, Chinese, Japanese, Korean)."""
COPY_MARKS = re.compile(
    r"^(?:copy of |copia de |copie de |kopie von |cópia de |copia di |kopia av |kopie van )+"
    rf"|(?:-copy\d*|\s*\(\d+\)|\s*-\s*(?:{COPY_WORDS})(?:\s*\(\d+\))?|\s(?:{COPY_WORDS})(?:\s\d+)?"
    r"|\s?(?:的副本|のコピー|의 사본))(?=\.ipynb$)"
)
"""What Colab (`Copy of `, `Copia de `, `Kopie von `; `… 的副本`, `… のコピー`), Jupyter (`-Copy1`), a browser's
download (` (1)`), Windows (` - Copy`, ` - 副本 (2)`) and a Mac's Finder (` copy`, ` copy 2`, ` Kopie`) add to a file
name when they copy it, in the languages they are set to; several are taken off (`Copy of 06_… (1).ipynb`)."""


def course_copy_week(name: str) -> int | None:
    """The week of a file named as a course notebook (`06_week6_round_trip_loop.ipynb`, any letter case, its accents
    composed or not) or as a copy of one (`COPY_MARKS`), else None (`alice-06_….ipynb` names a learner: None)."""
    plain = unicodedata.normalize("NFC", name).lower()
    for _ in range(4):  # a copy of a copy: each program adds its mark to the name it was given
        if (shorter := COPY_MARKS.sub("", plain)) == plain:
            break
        plain = shorter
    return next((week for week, notebook in NOTEBOOKS.items() if notebook == plain), None)
